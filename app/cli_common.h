#pragma once
// What the CLI's subcommands share: the output format, --fail-on, percentages, and printing a decision with the exit
// code it gives.

#include <iosfwd>
#include <optional>
#include <string>

#include "fp8dash/core/comparison_file.h"
#include "fp8dash/core/verdict.h"

namespace fp8dash::cli {

enum class Format { Text, Json, Markdown };

// Each throws UsageError naming the option and what it expected.
Format parseFormat(const std::string& text);                              // text, json, markdown (md)
Verdict parseFailOn(const std::string& text);                             // monitor, investigate
double parsePercent(const std::string& option, const std::string& text);  // a number >= 0

// Prints the decision over everything a document holds in the chosen format.
void printDecision(const Decision& d, const ComparisonDocument& doc, Format format, const std::string& heading,
                   std::ostream& out);

// kExitFailOn when the verdict reached --fail-on, else kExitOk.
int exitFor(const Decision& d, std::optional<Verdict> failOn);

}  // namespace fp8dash::cli
