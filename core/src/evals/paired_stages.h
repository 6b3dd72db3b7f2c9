#pragma once
// The stages of a paired test (paired_tasks.cpp), shared with the whole-comparison driver (paired_computation.cpp),
// which also pools a group's subtasks into one test. Private to core.
#include <utility>
#include <vector>

#include "fp8dash/core/paired_tasks.h"

namespace fp8dash::detail {

class ChangedCollector;

// An interval times `factor` (a negative factor swaps its ends): a difference's interval in points or percent.
inline ConfidenceInterval scaledCi(const ConfidenceInterval& ci, double factor) {
    ConfidenceInterval out = ci;
    out.low = ci.low * factor;
    out.high = ci.high * factor;
    if (out.low > out.high) std::swap(out.low, out.high);
    return out;
}

// The rows of the spec's filter; an error naming the file when there are none, or none has the metric.
Result<std::vector<const SampleRow*>> filterRows(const SampleLog& log, const PairedTaskSpec& spec);

// Matches rows by doc_id, counting in `r` the documents left out (hash mismatches, one side only, no finite value),
// and appends each tested pair's values and difference (candidate - baseline), ascending by doc_id.
// Each tested pair whose values differ also goes to `changed`, when given (changed_examples.h).
void matchRows(const std::vector<const SampleRow*>& bRows, const std::vector<const SampleRow*>& cRows,
               const PairedTaskSpec& spec, const PairedOptions& o, PairedTaskResult& r, std::vector<double>& bValues,
               std::vector<double>& cValues, std::vector<double>& diffs, ChangedCollector* changed = nullptr);

// pairSampleLogs, handing the changed pairs to `changed` when given.
Result<PairedTaskResult> pairLogs(const SampleLog& baseline, const SampleLog& candidate, const PairedTaskSpec& spec,
                                  const PairedOptions& o, ChangedCollector* changed);

// The exclusions matchRows counted, as warnings.
void noteExclusions(PairedTaskResult& r, const PairedTaskSpec& spec, const PairedOptions& o);

// The tests on the matched pairs: n, McNemar or Wilcoxon, the bootstrap interval, the confidence answer and the
// equivalence check, and the summary line.
PairedTaskResult testPairs(PairedTaskResult r, const std::vector<double>& bValues, const std::vector<double>& cValues,
                           const std::vector<double>& diffs, const PairedTaskSpec& spec, const PairedOptions& o);

// The one-line summary of a result (a table cell, a tooltip), with the labels of `o`.
std::string pairedSummary(const PairedTaskResult& r, const PairedOptions& o);

}  // namespace fp8dash::detail
