#pragma once
// The `compare` subcommand (README "Command line"): its options into ComparisonInputs (core's buildComparison reads
// and compares them), and the decision printed, saved, and turned into the exit code.

#include <iosfwd>

#include "cli_args.h"

namespace fp8dash::cli {

// Throws UsageError for bad options; exit codes as cli.h.
int cmdCompare(Args& a, std::ostream& out, std::ostream& err);

}  // namespace fp8dash::cli
