#pragma once
// The `timeline` subcommand (README "Production timeline"): throughput and quality around the FP8 switch from
// Prometheus and/or Langfuse, the quality alert, printed, saved into a comparison file, turned into the exit code.

#include <iosfwd>

#include "cli_args.h"

namespace fp8dash::cli {

// Throws UsageError for bad options; exit codes as cli.h.
int cmdTimeline(Args& a, std::ostream& out, std::ostream& err);

}  // namespace fp8dash::cli
