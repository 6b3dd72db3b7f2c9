#pragma once
// Task-by-task comparison of a baseline and a candidate lm-eval run, and the verdict (DESIGN.md; issue #2 "The
// comparison rules" are implemented exactly here). Pure functions over values; thread-safe.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "fp8dash/core/fp8_config.h"
#include "fp8dash/core/lm_eval_results.h"
#include "fp8dash/core/result.h"
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
    bool operator==(const ComparisonOptions&) const = default;
};

struct TaskComparison {
    std::string task;
    std::string alias;
    std::string metric;       // the results-file key, e.g. "exact_match,strict-match", or "acc" in v0.3
    std::string metricName;   // bare name, e.g. "exact_match"
    std::string filter;
    double baseline = 0;
    double candidate = 0;
    std::optional<double> deltaPct;        // (candidate - baseline) / baseline * 100; absent for a zero baseline
    std::optional<double> degradationPct;  // loss in the good direction, 0 for an improvement; absent likewise
    bool higherIsBetter = true;
    std::optional<double> baselineStderr;
    std::optional<double> candidateStderr;
    std::optional<double> sigmas;  // (candidate - baseline) / sqrt(se_b^2 + se_c^2), when both errors are known
    Verdict verdict = Verdict::Go;
    std::string reason;            // the verdict in words
    std::vector<TaskComparison> subtasks;  // drill-down rows (groups); they do not count toward the verdict
    std::vector<std::string> subtasksNotCompared;  // subtasks one side lacks, with why
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
    std::vector<std::string> reasons;   // the overall verdict in words, most important first
    std::string baselineLabel;
    std::string candidateLabel;
    Fp8Config baselineConfig;
    Fp8Config candidateConfig;
};

// Fails when the options are invalid, an override names a task or metric neither run has, or no task can be
// compared; the message says which.
Result<ComparisonReport> compareEvals(const LmEvalResults& baseline, const LmEvalResults& candidate,
                                      const ComparisonOptions& options, const std::string& baselineLabel = "BF16",
                                      const std::string& candidateLabel = "FP8");

// Whether a task is known to be FP8-sensitive (math, formal reasoning, code).
bool isFp8SensitiveTask(std::string_view task);

// The default direction of a bare metric name when the file gives none (perplexities, bits_per_byte and ter are
// lower-is-better).
bool defaultHigherIsBetter(std::string_view metric);

}  // namespace fp8dash
