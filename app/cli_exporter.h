#pragma once
// `fp8dash exporter --langfuse URL [--score-name N] [--tag T]... [--environment E]... [--listen HOST:PORT]` (issue 28):
// a headless Prometheus exporter of Langfuse judge scores (core langfuse_exporter.h) served on /metrics until SIGINT
// or SIGTERM (exit 0). Main thread: the fetch loop; cpp-httplib's threads answer the scrapes.

#include <iosfwd>
#include <string>
#include <vector>

namespace fp8dash::cli {

std::string exporterUsage();

// argv: the arguments after "exporter". Exit codes as cli.h (2: bad input, an address it cannot listen on).
int runExporter(const std::vector<std::string>& argv, std::ostream& out, std::ostream& err);

}  // namespace fp8dash::cli
