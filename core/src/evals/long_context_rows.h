#pragma once
// The long-context steps of the comparison that work on its rows (private to core; long_context.cpp).

#include <optional>
#include <string>
#include <vector>

#include "fp8dash/core/eval_comparison.h"

namespace fp8dash {

// A group whose subtasks were compared length by length: its by-length list becomes, per length, the mean of its
// subtasks evaluated there (unweighted, as lm-eval's `ruler` group aggregates its one length, 4096).
void useSubtaskMeans(TaskComparison& row, const Thresholds& thresholds);

// Shows the worst length as the row's metric, values, delta, degradation and verdict.
void takeWorstLength(TaskComparison& row);

// The reason's prefix for a per-length row ("worst of 5 context lengths, at 128K (131072 tokens): "), else "".
std::string perLengthReason(const TaskComparison& row);

// The top-level long_context summary over the per-length leaf tasks, or nullopt when none was compared.
std::optional<LongContextSummary> summarizeLongContext(const std::vector<TaskComparison>& tasks,
                                                       const Thresholds& thresholds);

// "; see the long-context table: degradation 5.9% at 128K ..." for the KV-cache risk flag, else "".
std::string longContextRiskNote(const ComparisonReport& r);

}  // namespace fp8dash
