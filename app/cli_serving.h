#pragma once
// The `serving` subcommand (README "What FP8 buys"; docs/serving.md): serving-benchmark results of a baseline and
// its FP8 variants compared at matched loads, with capacity at an SLO. Runs without a display.

#include <iosfwd>
#include <string>
#include <vector>

#include "fp8dash/core/serving_comparison.h"

namespace fp8dash::cli {

// args excludes the subcommand's name. Exit codes as cli.h: 0 ran, 2 bad input, usage or runs that are not
// comparable (the report is printed first, with the reasons), 1 internal error.
int runServing(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

std::string servingUsage();

// The options `serving` and `compare --serving` share: --slo, --target-load, --gpu-hour-cost, --gpus-per-replica,
// --noise-pct. True when the next argument was one of them (read into options); throws UsageError on a bad value.
bool servingOption(class Args& a, ServingOptions& options, const std::string& command);

}  // namespace fp8dash::cli
