#pragma once
// What the CLI's subcommands share: the output format, --fail-on, percentages, and printing a decision with the exit
// code it gives.

#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>

#include "fp8dash/core/comparison_file.h"
#include "fp8dash/core/sample_logs.h"
#include "fp8dash/core/verdict.h"

namespace fp8dash::cli {

enum class Format { Text, Json, Markdown };

// Each throws UsageError naming the option and what it expected.
Format parseFormat(const std::string& text);                              // text, json, markdown (md)
Verdict parseFailOn(const std::string& text);                             // monitor, investigate
double parsePercent(const std::string& option, const std::string& text);  // a number >= 0
// --answer-examples N: the changed documents kept per paired task, a whole number >= 0 (0 keeps only the counts).
std::uint64_t parseAnswerExamples(const std::string& text);

// Prints the decision over everything a document holds in the chosen format.
void printDecision(const Decision& d, const ComparisonDocument& doc, Format format, const std::string& heading,
                   std::ostream& out);

// An error message as stderr shows it (README "Trust model"): a message that lists items keeps its listing, each
// item on a line of its own under it ("...:\n  item"), and every other line break in it is shown as \n (oneLine), so
// that a value quoted in an error cannot start a line of its own. The producers of listings put each item on one line
// (oneLine) themselves. Notes and notices (which stand beside a verdict) are printed through oneLine, whole.
std::string errorText(const std::string& message);

// A progress line on stderr while the sample logs are read ("reading sample logs… 40%"), when stderr is a terminal
// and the logs are large (compare, answers); `lastTenth` (start at -1) outlives the reading.
SampleProgressFn sampleLogProgress(std::ostream& err, int& lastTenth);

// kExitFailOn when the verdict reached --fail-on, else kExitOk.
int exitFor(const Decision& d, std::optional<Verdict> failOn);

}  // namespace fp8dash::cli
