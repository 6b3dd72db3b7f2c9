#pragma once
// The `answers` subcommand (README "The answers FP8 changed"): the documents one paired task's candidate changed,
// lost first, from a saved comparison file or from two lm-eval runs' sample logs, in text, Markdown or JSON. The
// questions and responses are data-set text and model output: every one is shown escaped for its medium.

#include <iosfwd>
#include <string>

#include "cli_args.h"

namespace fp8dash::cli {

// The command's lines of `fp8dash --help`.
std::string answersUsage();

// Throws UsageError for bad options; exit codes as cli.h (2 also for a task without documents to show, with why).
int cmdAnswers(Args& a, std::ostream& out, std::ostream& err);

}  // namespace fp8dash::cli
