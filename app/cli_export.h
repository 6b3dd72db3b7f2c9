#pragma once
// `fp8dash export monitoring FILE.fp8cmp --out DIR [--force] [--prometheus-version 2|3 | --victoriametrics]` (issue
// 28): the comparison's quality alert for the team's own Prometheus and Grafana: a rule file, its promtool unit test
// and a dashboard (core monitoring_export.h), written atomically into DIR. Main thread only.

#include <iosfwd>
#include <string>
#include <vector>

namespace fp8dash::cli {

std::string exportUsage();

// argv: the arguments after "export". Exit codes as cli.h (2: bad input, files that exist without --force).
int runExport(const std::vector<std::string>& argv, std::ostream& out, std::ostream& err);

}  // namespace fp8dash::cli
