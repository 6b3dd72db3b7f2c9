#pragma once
// The `bench` subcommand (README "Local benchmarks"): FP8 vs BF16 GEMMs, memory bandwidth and the KV-cache
// quantisation error on this machine, the CPU parts only when there is no GPU. Runs without a display. Throws
// UsageError for bad input; cli::run turns it (and any other exception) into the exit code.

#include <iosfwd>
#include <string>
#include <vector>

namespace fp8dash::cli {

// args excludes the subcommand's name. Exit codes as cli.h: 0 ran (also without a GPU: the JSON and text say why the
// GPU parts were skipped), 2 bad input or usage (unknown model, bad option, --save file missing or unreadable),
// 1 internal error.
int runBench(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

// The usage lines, for `fp8dash --help`.
std::string benchUsage();

}  // namespace fp8dash::cli
