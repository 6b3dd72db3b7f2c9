#pragma once
// The `judge` subcommand (README "Domain eval with an LLM judge"): runs or resumes the domain eval. Runs without a
// display; never throws.

#include <iosfwd>
#include <string>
#include <vector>

namespace fp8dash::cli {

// args excludes the subcommand's name. Exit codes as cli.h: 0 ran (failed samples are listed in failures.jsonl and
// counted in the output), 2 bad input or usage (the message names the file, URL or option), 1 internal error,
// 130 interrupted (Ctrl-C: what was done is kept; the same command resumes).
int runJudge(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

// The usage lines, for `fp8dash --help`.
std::string judgeUsage();

}  // namespace fp8dash::cli
