#pragma once
// The words and tables of several variants (README "Variants and layer steps"), shared by every rendering that shows
// them: compare's text and Markdown (report_format.cpp), the report's variants section (report_sections.cpp) and
// the presentation's "Which FP8 layers to enable" slide, and the desktop app's "Which layers" tab, so all say the same.
// Pure functions.

#include <optional>
#include <string>
#include <vector>

#include "fp8dash/core/comparison_file.h"
#include "fp8dash/core/variant_comparison.h"

namespace fp8dash::variant_text {

// The tasks of every variant in one order: the baseline file order of the first variant that has each.
std::vector<std::string> taskOrder(const VariantComparison& v);
// The variant's row of that task, or null.
const TaskComparison* taskOf(const VariantResult& v, const std::string& task);
// "0.7399 (97.41%) investigate": the candidate's value, its recovery against the baseline, its verdict; "—" for none.
std::string cell(const TaskComparison* t);
// "0.7399 (97.41%)": the cell without its verdict (where a colour says it).
std::string cellValue(const TaskComparison& t);
// The gate in words for people: "GO only", "GO or MONITOR, every task recovering at least 99%" (gateWords)
std::string gate(const RecommendationOptions& o);

// Tasks x variants: the header (Task, the baseline, each variant), a row per task (its name, the baseline's value,
// each variant's cell), then an "Average recovery" row and a "Verdict" row. `verdicts` gives each cell's verdict
// (nullopt for the task, baseline and label cells) in the same shape as `rows`.
struct Table {
    std::vector<std::string> header;
    std::vector<std::vector<std::string>> rows;
    std::vector<std::vector<std::optional<Verdict>>> verdicts;
};
Table table(const VariantComparison& v);

// "BF16 → FP8 W8A8 (adding FP8 W8A8 weights)"
std::string stepTitle(const LayerStep& s);
// The recommended label; when none passes, "none passes the gate; the best is X" (the deciding variant), or
// "none — stay on BF16" when even the best is INVESTIGATE.
std::string recommended(const VariantComparison& v);
// The recommendation's lines: why (or that none passes), "it buys: …" when one is recommended, then "X does not
// pass: <task and figure>" for each rejected variant.
std::vector<std::string> recommendationLines(const VariantComparison& v);
// A layer step's figure for one task, as its sentence words it: "costs 2.65%" (a loss) or "changes by +2.45%", and
// the interval on the same scale ("95% CI 1.32–4.10%", "" without one); "n/a" without a figure.
struct StepFigure {
    std::string text, ci;
    std::string range;  // the interval alone, "1.32 to 4.10%" ("" without one)
};
StepFigure stepFigure(const LayerStepTask& t);

// The runs a comparison holds, baseline first: "BF16 vs FP8 W8A8, FP8 W8A8 + FP8 KV (scales 1.0), FP8 W8A8 + FP8 KV
// (calibrated scales)" (a cover's full list).
std::string runsLine(const std::string& baseline, const std::vector<std::string>& candidates);
// The same in at most `maxChars` code points where it can (a footer, a page header): the candidates that fit, then
// "and N more" ("BF16 vs FP8 W8A8, FP8 W8A8 + FP8 KV (scales 1.0) and 1 more"); "BF16 vs 3 variants" when not even
// the first fits beside that.
std::string runsLineShort(const std::string& baseline, const std::vector<std::string>& candidates,
                          std::size_t maxChars);
// The candidates' labels of a comparison with eval runs, in order (the candidate, then the further ones).
std::vector<std::string> candidateLabels(const ComparisonDocument& doc);

// "weights fp8 (evidence) · KV cache fp8, scales 1.0 (evidence) · activations fp8"
std::string layersLine(const RunLayers& l);

// The configuration whose gains a comparison may state (README "Variants and layer steps": what a variant buys comes
// from its own layers): the recommended variant's with several candidates (null when none passes), else the
// candidate's; null without eval runs. Its label in `label`.
const Fp8Config* testedConfig(const Decision& d, std::string* label = nullptr);
// Where capacity settings choose an FP8 KV cache that the tested configuration lacks: "FP8 W8A8 (the tested
// candidate) has no FP8 KV cache: the capacity settings' FP8 KV cache was not evaluated"; "" otherwise.
std::string untestedKvCacheNote(const Decision& d, bool settingsChooseFp8Kv);

}  // namespace fp8dash::variant_text
