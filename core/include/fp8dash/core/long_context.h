#pragma once
// Long-context (per-length) tasks: lm-eval's RULER family reports one metric per context length ("4096,none",
// "8192,none", ...; the value -1 means "not evaluated at that length", stderrs are "N/A"). Such a task is compared
// length by length, and its verdict is its worst length (DESIGN.md: long contexts with an FP8 KV cache and no
// calculated scales accumulate error, so the long lengths must be seen, not averaged away). Plain values and pure
// functions; thread-safe.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "fp8dash/core/lm_eval_results.h"
#include "fp8dash/core/verdict.h"

namespace fp8dash {

// One context length of one task, or of the long-context summary.
struct LengthComparison {
    long long length = 0;  // context length in tokens
    double baseline = 0;
    double candidate = 0;
    std::optional<double> deltaPct;        // (candidate - baseline) / |baseline| * 100; absent for a zero baseline
    std::optional<double> degradationPct;  // the loss in the good direction, 0 for a gain; absent likewise
    Verdict verdict = Verdict::Go;         // the band of degradationPct; a loss from a zero baseline investigates
    std::size_t tasks = 1;                 // in a mean over tasks (a group, the summary): how many had this length
};

// The long-context summary of a comparison: per length, the mean baseline and candidate over the per-length tasks
// (leaf tasks: a group's subtasks, not the group itself) evaluated at that length in both runs.
struct LongContextSummary {
    std::vector<LengthComparison> lengths;  // ascending length
    std::size_t tasks = 0;                  // the per-length tasks averaged
    long long worstLength = 0;              // the length of the worst verdict, then the largest degradation
    Verdict verdict = Verdict::Go;          // that length's verdict
};

// "4096" -> 4096: a metric name that is a context length (decimal digits only, 1 .. 10^9 tokens).
std::optional<long long> contextLengthOf(std::string_view metricName);

// Whether every metric of a task is named by a context length (RULER's "4096", "8192", ...).
bool isPerLengthTask(const TaskResult& task);

// The per-length arithmetic, in one place: delta, degradation and verdict of one length (DESIGN.md sign
// convention: relative to the baseline's magnitude; degradation the loss in the good direction).
LengthComparison compareAtLength(long long length, double baseline, double candidate, bool higherIsBetter,
                                 const Thresholds& thresholds);

// Whether a is a worse length than b: a worse verdict, then a larger degradation (a loss from a zero baseline is the
// largest), then the longer length.
bool isWorseLength(const LengthComparison& a, const LengthComparison& b);

// The lengths evaluated (a finite value other than -1) in both runs, ascending. `skipped` receives, one phrase per
// length, the lengths one run or both did not evaluate ("4096: -1 in both runs").
std::vector<LengthComparison> compareLengths(const TaskResult& baseline, const TaskResult& candidate,
                                             bool higherIsBetter, const Thresholds& thresholds,
                                             std::vector<std::string>* skipped = nullptr);

// Per length, the mean baseline and mean candidate over the given rows that have that length (each row a task's
// by-length list), compared with compareAtLength; ascending length.
std::vector<LengthComparison> meanOverTasks(const std::vector<const std::vector<LengthComparison>*>& rows,
                                            bool higherIsBetter, const Thresholds& thresholds);

// The worst entry of a non-empty list (isWorseLength), or nullptr for an empty one.
const LengthComparison* worstLength(const std::vector<LengthComparison>& lengths);

// "131072" -> "128K", "4096" -> "4K", "5000" -> "5000": how context lengths are spoken of.
std::string contextLengthLabel(long long tokens);

}  // namespace fp8dash
