#pragma once
// Judge scores aggregated per time bucket (Langfuse's Metrics API: average and count per minute), and the timeline's
// figures computed from them so that they equal those over the raw scores: before/after means and the quality alert
// from per-bucket sums and counts (sum = average x count), never from averages of averages. Pure; thread-safe.
//
// Which window a bucket belongs to: a bucket [t, t + width) stands for its scores at its midpoint t + width / 2, and
// a window takes the buckets whose midpoint it holds, with the rule's edges (AlertRule::windows: Prometheus 2.x
// closed [T - r, T], 3.x left-open (T - r, T]). At evaluation times on whole minutes with windows of whole minutes
// that is exactly the buckets of [T - r, T), under either semantics: the same scores as the raw evaluation except
// those exactly on an edge (a score at T - r, which 3.x leaves out, and one at T, which both count, sit in buckets
// the window takes and leaves out). Where a midpoint falls exactly on an edge (times at :30), the edge semantics
// decide that edge bucket as they decide a raw sample.

#include <cstddef>
#include <string>
#include <vector>

#include "fp8dash/core/time_series.h"

namespace fp8dash {

inline constexpr double kScoreBucketSeconds = 60;  // the Metrics API's "minute" granularity

struct ScoreBucket {
    double t = 0;      // unix seconds, the bucket's start
    double sum = 0;    // sum of the bucket's score values
    double count = 0;  // how many scores (a whole number)
    bool operator==(const ScoreBucket&) const = default;
};

// The buckets' means (sum / count) as a series for drawing (t = the bucket's start); empty buckets left out.
Series bucketsToSeries(const std::vector<ScoreBucket>& buckets, const std::string& name);

// summarizeAroundChange over buckets: before = buckets whose midpoint is < changeAt, after = those whose midpoint is
// >= changeAt + settle; the means weigh each bucket by its count (the raw scores' means), counts are score counts.
PeriodSummary summarizeBucketsAroundChange(const std::vector<ScoreBucket>& buckets, double changeAt,
                                           double settleS = 300, double widthS = kScoreBucketSeconds);

// evaluateAlertCondition over buckets (sorted by t): at each time T, the recent window's mean and the baseline's
// (offset) are sum / count over the buckets each window takes (see above); a window without a score has no value
// and the condition is false.
std::vector<bool> evaluateAlertConditionFromBuckets(const std::vector<ScoreBucket>& buckets,
                                                    const std::vector<double>& times, const AlertRule& rule,
                                                    double widthS = kScoreBucketSeconds);

}  // namespace fp8dash
