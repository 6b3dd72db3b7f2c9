#pragma once
// Which tasks two runs name differently, and the likely pairs among them: what the desktop app's task-pairing editor
// offers (the pairs it makes go into ComparisonOptions::taskMap, as the CLI's --map does). Pure functions.

#include <string>
#include <vector>

#include "fp8dash/core/comparability.h"
#include "fp8dash/core/lm_eval_results.h"

namespace fp8dash {

// The tasks only one run has once names are matched (matchTaskNames without --map: lm-eval's v0.3 -> v0.4 renamings
// applied), each in its run's order, and the likely pairs among them: names sharing a stem of 3 characters or more,
// the longest shared stems first, each task in one pair at most (gsm8k and gsm8k_cot_llama). The pairs are
// suggestions for the user, never applied on their own.
struct UnmatchedTasks {
    std::vector<std::string> baselineOnly;
    std::vector<std::string> candidateOnly;
    std::vector<TaskMapping> suggested;  // in the baseline's order
};
UnmatchedTasks unmatchedTasks(const LmEvalResults& baseline, const LmEvalResults& candidate);

}  // namespace fp8dash
