#pragma once
// Renderings of a ComparisonReport: the stable JSON of the CLI, plain text for the terminal, Markdown.
// Pure functions; thread-safe.

#include <cstddef>
#include <string>

#include "fp8dash/core/eval_comparison.h"
#include "fp8dash/core/lm_eval_results.h"

namespace fp8dash {

Json reportToJson(const ComparisonReport& report);  // numbers at full precision; see README "JSON output"
std::string reportToText(const ComparisonReport& report);
std::string reportToMarkdown(const ComparisonReport& report);

// Shared wording used by every rendering and the GUI.
std::string fp8LayersSummary(const Fp8Config& config);  // "weights FP8 · KV cache BF16 · activations ..."
std::string formatPercent(std::optional<double> pct, int decimals = 2);  // "+1.23%", "-0.50%", "n/a"
std::string formatSigmas(std::optional<double> sigmas);                  // "-2.1σ", "n/a"
// Greedy word wrap to `width` display columns, each line prefixed with `indent` (continuations too).
std::string wrapText(const std::string& text, std::size_t width, const std::string& indent);

}  // namespace fp8dash
