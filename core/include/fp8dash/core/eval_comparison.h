#pragma once
// Task-by-task comparison of a baseline and a candidate lm-eval run, and the verdict (DESIGN.md; README "The
// comparison rules" are implemented exactly here), with the statistics of statistics.h beside each verdict: a
// confidence answer, the equivalence check, paired tests from sample logs and a control run's noise floor. Pure
// functions over values; thread-safe.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "fp8dash/core/comparability.h"
#include "fp8dash/core/fp8_config.h"
#include "fp8dash/core/lm_eval_results.h"
#include "fp8dash/core/long_context.h"
#include "fp8dash/core/paired_task_result.h"
#include "fp8dash/core/result.h"
#include "fp8dash/core/statistics.h"
#include "fp8dash/core/verdict.h"

namespace fp8dash {

// --metric TASK=METRIC or TASK=METRIC,FILTER. An empty filter means "choose by the filter order".
struct MetricOverride {
    std::string task;
    std::string metric;
    std::string filter;

    static Result<MetricOverride> parse(std::string_view spec);
    std::string toString() const;  // back to TASK=METRIC[,FILTER]
    bool operator==(const MetricOverride&) const = default;
};

struct ComparisonOptions {
    Thresholds thresholds;
    std::vector<MetricOverride> overrides;
    // The cautious policy: a task whose 95 % interval straddles a band edge takes the worst band the
    // interval reaches. Off: the verdict is the band of the point estimate (the seed's thresholds).
    bool cautious = false;
    // Compare tasks the comparability check blocks (different few-shot counts, identical runs, ...) anyway; the
    // verdict's reasons say so. Off: a blocked task is "not comparable" in `missing`, identical runs fail.
    bool allowIncomparable = false;
    std::vector<TaskMapping> taskMap;  // --map BASE_TASK=CAND_TASK pairs
    bool operator==(const ComparisonOptions&) const = default;
};

struct TaskComparison {
    std::string task;
    std::string alias;
    std::string metric;      // the results-file key, e.g. "exact_match,strict-match", or "acc" in v0.3
    std::string metricName;  // bare name, e.g. "exact_match"
    std::string filter;
    double baseline = 0;
    double candidate = 0;
    std::optional<double> deltaPct;  // (candidate - baseline) / |baseline| * 100; absent for a zero baseline
    // max(0, -deltaPct) where higher is better, max(0, deltaPct) where lower is better; absent likewise.
    std::optional<double> degradationPct;
    // candidate / baseline * 100 (higher is better) or baseline / candidate * 100 (lower is better); absent unless
    // both values are positive (a candidate of 0 where higher is better: 0 %).
    std::optional<double> recoveryPct;
    bool higherIsBetter = true;
    std::optional<double> baselineStderr;
    std::optional<double> candidateStderr;
    std::optional<double> sigmas;  // (candidate - baseline) / sqrt(se_b^2 + se_c^2), when both errors are known
    std::optional<std::uint64_t> nSamples;  // the smaller side's effective sample count, when the files say
    std::optional<std::uint64_t> taskSize;  // lm-eval's n-samples.original (the larger side's), when the files say
    Verdict pointVerdict = Verdict::Go;     // the band of degradationPct
    Verdict verdict = Verdict::Go;          // pointVerdict, or under the cautious policy the worst band reached
    std::string reason;                     // the verdict in words
    // Statistics (statistics.h), top-level tasks only. `paired` when both runs' sample logs were paired (see
    // applyPairedResults); `confidence` from the paired interval when present, else from lm-eval's two standard
    // errors (degradation +- 1.96 sqrt(se_b^2 + se_c^2) / |baseline| * 100), absent with neither; `equivalence`
    // the TOST at the go edge, likewise; `noiseFloorPct` = |control - baseline| / |baseline| * 100 for the same
    // metric and filter when a BF16-vs-BF16 control run is given (applyControlRun).
    std::optional<PairedTaskResult> paired;
    std::optional<ConfidenceAnswer> confidence;
    std::optional<EquivalenceResult> equivalence;
    std::optional<double> noiseFloorPct;
    // Why the paired statistics given for this task were left out (applyPairedResults: they contradict themselves
    // or the runs' scores), else "". Shown in the row's reason and beside its statistics in every rendering.
    std::string pairedLeftOut;
    std::vector<TaskComparison> subtasks;          // drill-down rows (groups); they do not count toward the verdict
    std::vector<std::string> subtasksNotCompared;  // subtasks one side lacks, with why
    // A per-length task (long_context.h): the lengths evaluated in both runs, ascending; the fields above show its
    // worst length. byLengthFromSubtasks: a group's lengths are the means of its per-length subtasks. Else empty.
    std::vector<LengthComparison> byLength;
    bool byLengthFromSubtasks = false;
};

struct MissingTask {
    std::string task;
    std::string reason;  // "only in the baseline", "candidate lacks exact_match,strict-match", ...
};

struct RiskFlag {
    std::string kind;     // "fp8_sensitive_task", "small_model", "kv_cache_without_scales"
    std::string subject;  // the task or run it is about
    std::string message;  // in words
};

struct ComparisonReport {
    Verdict verdict = Verdict::Go;
    Thresholds thresholds;
    std::vector<TaskComparison> tasks;  // exactly the compared tasks, baseline file order
    std::vector<MissingTask> missing;
    std::vector<RiskFlag> risks;
    std::vector<std::string> reasons;  // the overall verdict in words, most important first
    std::string baselineLabel;
    std::string candidateLabel;
    Fp8Config baselineConfig;
    Fp8Config candidateConfig;
    bool cautious = false;                          // the policy the verdicts were drawn under
    std::string controlLabel;                       // the control run's label when applyControlRun was applied, else ""
    std::optional<LongContextSummary> longContext;  // over the per-length tasks; nullopt when none was compared
    // mean(candidate) / mean(baseline) * 100 over the compared higher-is-better top-level tasks; absent without one
    // or when the baselines' mean is not positive.
    std::optional<double> averageRecoveryPct;
    std::vector<ComparabilityItem> comparability;  // checkComparability's findings and the task-name matches
    bool allowIncomparable = false;                // blocked tasks were compared anyway
};

// Fails when the options are invalid, an override names a task or metric neither run has, a --map pair a task its
// run lacks, the two runs are identical (kIdenticalRunsMessage; unless options.allowIncomparable), or no task can be
// compared; the message says which. Task names are matched first (matchTaskNames: --map, lm-eval's renamings), then
// checkComparability's blocked tasks go to `missing` ("not comparable: ...") unless options.allowIncomparable.
Result<ComparisonReport> compareEvals(const LmEvalResults& baseline, const LmEvalResults& candidate,
                                      const ComparisonOptions& options, const std::string& baselineLabel = "BF16",
                                      const std::string& candidateLabel = "FP8");

// Attaches paired results (keyed by task name) to the compared tasks whose metric and filter they tested, then
// re-derives each task's confidence, equivalence and verdict and the overall verdict and reasons. Results for other
// tasks, or for another metric or filter, are left out (named in the returned notes, one sentence each). Each result
// is first held to its own figures and the runs' (recheckStoredPaired, paired_tasks.h: a comparison file is
// untrusted): what follows from its counts and means is re-derived; one that contradicts them is left out of its row,
// which says why (pairedLeftOut), and is named in the notes.
std::vector<std::string> applyPairedResults(ComparisonReport& report,
                                            const std::map<std::string, PairedTaskResult>& paired);

// Sets each compared task's noise floor from a BF16-vs-BF16 control run (the same task, metric and filter), and
// names the tasks the control lacks in the returned notes. Verdicts are unchanged: the floor is shown, not applied.
std::vector<std::string> applyControlRun(ComparisonReport& report, const LmEvalResults& control,
                                         const std::string& controlLabel = "BF16 control");

// Worst first, the one order of tasks in the slides, the app's task table and its chart: the worse verdict first
// (investigate, monitor, go), then the larger degradation (a missing one counts as 0). Strict weak order: with a
// stable sort, tasks that tie keep the file's order.
bool worseFirst(Verdict a, std::optional<double> degradationA, Verdict b, std::optional<double> degradationB);
inline bool worseFirst(const TaskComparison& a, const TaskComparison& b) {
    return worseFirst(a.verdict, a.degradationPct, b.verdict, b.degradationPct);
}

// Whether a task is known to be FP8-sensitive (math, formal reasoning, code).
bool isFp8SensitiveTask(std::string_view task);

// The default direction of a bare metric name when the file gives none (perplexities, bits_per_byte and ter are
// lower-is-better).
bool defaultHigherIsBetter(std::string_view metric);

}  // namespace fp8dash
