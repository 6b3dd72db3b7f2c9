#pragma once
// Renderings of a ComparisonReport and of a whole comparison's Decision (evals, domain judge, production timeline):
// the stable JSON of the CLI, plain text for the terminal, Markdown. Pure functions; thread-safe.

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "fp8dash/core/comparison_file.h"
#include "fp8dash/core/eval_comparison.h"
#include "fp8dash/core/judge_scores.h"
#include "fp8dash/core/lm_eval_results.h"

namespace fp8dash {

Json reportToJson(const ComparisonReport& report);  // numbers at full precision; see README "JSON output"
std::string reportToText(const ComparisonReport& report);
std::string reportToMarkdown(const ComparisonReport& report);

// The "Domain judge" block: means, degradation, interval, test and p-value, confidence, equivalence, the score
// distribution of each side as a histogram line, the biggest drops (top 5) with their ids.
std::string judgeToText(const JudgeComparison& judge, const std::string& baselineLabel = "BF16",
                        const std::string& candidateLabel = "FP8");
std::string judgeToMarkdown(const JudgeComparison& judge, const std::string& baselineLabel = "BF16",
                            const std::string& candidateLabel = "FP8");

// A whole comparison (decide()). JSON: the evals report's keys when there are evals, "judge" (judgeComparisonToJson)
// and "timeline" when present; with a judge or a timeline, "verdict", "advice" and "reasons" are the overall ones and
// "evals_verdict" keeps the evals' own. Text and Markdown: the evals report alone when that is all there is; else
// the overall verdict first, then each part. `doc` supplies the timeline's data and the run labels; `heading` is
// the title line (Markdown makes it a "#" heading).
Json decisionToJson(const Decision& decision);
// Several variants (README "Variants and layer steps"): the JSON's baseline, variants, steps, costliest_step and
// recommendation; in text and Markdown the recommendation, the runs' layers, the variants table (tasks x variants,
// each cell the value, its recovery and its verdict, an average row), the layer steps and each variant's report.
Json variantsToJson(const VariantComparison& variants);
std::string variantsToText(const VariantComparison& variants);
std::string variantsToMarkdown(const VariantComparison& variants);
std::string decisionToText(const Decision& decision, const ComparisonDocument& doc, const std::string& heading);
std::string decisionToMarkdown(const Decision& decision, const ComparisonDocument& doc, const std::string& heading);

// Shared wording used by every rendering and the GUI.
std::string fp8LayersSummary(const Fp8Config& config);  // "weights FP8 · KV cache BF16 · activations ..."
std::string formatPercent(std::optional<double> pct, int decimals = 2);  // "+1.23%", "-0.50%", "n/a"
std::string formatSigmas(std::optional<double> sigmas);                  // "-2.1σ", "0.0σ" (never "-0.0σ"), "n/a"
// A metric as a reader says it, for narrow columns (the results-file key stays in tooltips and the JSON): the name
// with '_' as spaces and its qualifiers in brackets, the filter short: "exact_match" + "strict-match" → "exact match
// (strict)", "acc_norm" → "acc (norm)", "acc" + "none" → "acc", "pass@1" + "create_test" → "pass@1 (create test)".
std::string readableMetric(const std::string& metricName, const std::string& filter);
inline std::string readableMetric(const TaskComparison& t) {
    return readableMetric(t.metricName.empty() ? t.metric : t.metricName, t.filter);
}
// Greedy word wrap to `width` display columns, each line prefixed with `indent` (continuations too).
std::string wrapText(const std::string& text, std::size_t width, const std::string& indent);

// Pieces of the renderings above, in the same words, for the full report (report_document.h).
std::string thresholdsSummary(const Thresholds& t);      // "go < 0.5%, monitor 0.5–1.5%, investigate > 1.5%"
std::string runModelSummary(const Fp8Config& c);         // "meta-llama/Llama-3.1-8B (vllm, dtype bfloat16)"
std::string confidenceSummary(const TaskComparison& t);  // "clear", "inconclusive (n≈1200)", "n/a"
std::string pairedTestSummary(const TaskComparison& t);  // "p=0.031 (12 lost, 3 won)"; "" without a paired test
// One line per task behind its confidence answer: Δ and its interval and what it says, clear or inconclusive (with
// the samples that would decide it), the equivalence statement, the paired test; then the answers the candidate
// (candidateLabel) changed, when the logs were paired; then each paired-test warning.
std::vector<std::string> taskStatisticsLines(const TaskComparison& t, const Thresholds& thresholds,
                                             const std::string& candidateLabel);
// The statistics section's method, said once above the task lines.
std::string statisticsMethod(const ComparisonReport& report);
// The judge block's facts (label, value) and its biggest drops (the first `maxDrops`, 5 at most), as judgeToText
// words them.
std::vector<std::pair<std::string, std::string>> judgeFacts(const JudgeComparison& judge,
                                                            const std::string& baselineLabel,
                                                            const std::string& candidateLabel);
std::vector<std::string> judgeDropLines(const JudgeComparison& judge, std::size_t maxDrops = 5);

}  // namespace fp8dash
