#pragma once
// Renderings of the long-context comparison (long_context.h) shared by the compare outputs, the report and the
// slides (private to core). Pure functions; thread-safe.

#include <optional>
#include <string>
#include <vector>

#include "fp8dash/core/eval_comparison.h"
#include "fp8dash/core/lm_eval_results.h"

namespace fp8dash {

// A task row's "by_length" list: [{length, baseline, candidate, delta_pct, degradation_pct, verdict}, ...] (and
// "tasks" where the values are means over a group's subtasks).
Json byLengthToJson(const std::vector<LengthComparison>& lengths, bool means);

// The top-level "long_context" object, or null: {lengths, tasks, by_length, worst_length, verdict}.
Json longContextToJson(const std::optional<LongContextSummary>& summary);

// The long-context table, one row per length: length ("128K"), tokens, baseline mean, candidate mean, delta,
// degradation, verdict; the header first.
std::vector<std::vector<std::string>> longContextTable(const LongContextSummary& summary,
                                                       const std::string& baselineLabel,
                                                       const std::string& candidateLabel);

// One sentence: what the table is and which length decides.
std::string longContextHeadline(const LongContextSummary& summary);

// The compare outputs' "Long context" section ("" without per-length tasks).
std::string longContextText(const ComparisonReport& report);
std::string longContextMarkdown(const ComparisonReport& report);

}  // namespace fp8dash
