// Timeline figures from per-minute score buckets (score_buckets.h): the window of each evaluation is two binary
// searches over the buckets' midpoints, its sums the difference of prefix sums (long double: a month of a million
// scores sums to a few million points, far inside its 64-bit mantissa).
#include "fp8dash/core/score_buckets.h"

#include <algorithm>
#include <cmath>

namespace fp8dash {
namespace {

struct Prefix {
    std::vector<double> mid;       // the buckets' midpoints, ascending
    std::vector<long double> sum;  // sum[i] = sum of the first i buckets' sums
    std::vector<long double> count;

    Prefix(const std::vector<ScoreBucket>& buckets, double width) {
        mid.reserve(buckets.size());
        sum.assign(1, 0);
        count.assign(1, 0);
        for (const auto& b : buckets) {
            if (!(b.count > 0) || !std::isfinite(b.sum)) continue;
            mid.push_back(b.t + width / 2);
            sum.push_back(sum.back() + b.sum);
            count.push_back(count.back() + b.count);
        }
    }
    // The buckets whose midpoint lies in the window ending at `end` of length `range`: [first, last).
    std::pair<std::size_t, std::size_t> window(double end, double range, WindowSemantics w) const {
        const double start = end - range;
        const auto first = w == WindowSemantics::Prometheus3 ? std::upper_bound(mid.begin(), mid.end(), start)
                                                             : std::lower_bound(mid.begin(), mid.end(), start);
        const auto last = std::upper_bound(mid.begin(), mid.end(), end);
        const auto a = static_cast<std::size_t>(first - mid.begin()), b = static_cast<std::size_t>(last - mid.begin());
        return {a, std::max(a, b)};
    }
};

}  // namespace

Series bucketsToSeries(const std::vector<ScoreBucket>& buckets, const std::string& name) {
    Series s;
    s.labels = {{"name", name}, {"source", "langfuse"}, {"aggregate", "mean per minute"}};
    s.samples.reserve(buckets.size());
    for (const auto& b : buckets)
        if (b.count > 0 && std::isfinite(b.sum)) s.samples.push_back({b.t, b.sum / b.count});
    std::stable_sort(s.samples.begin(), s.samples.end(), [](const Sample& a, const Sample& b) { return a.t < b.t; });
    return s;
}

PeriodSummary summarizeBucketsAroundChange(const std::vector<ScoreBucket>& buckets, double changeAt, double settleS,
                                           double widthS) {
    PeriodSummary s;
    long double beforeSum = 0, afterSum = 0, beforeCount = 0, afterCount = 0;
    for (const auto& b : buckets) {
        if (!(b.count > 0) || !std::isfinite(b.sum)) continue;
        const double mid = b.t + widthS / 2;
        if (mid < changeAt) {
            beforeSum += b.sum;
            beforeCount += b.count;
        } else if (mid >= changeAt + settleS) {
            afterSum += b.sum;
            afterCount += b.count;
        }
    }
    s.beforeCount = static_cast<std::size_t>(beforeCount);
    s.afterCount = static_cast<std::size_t>(afterCount);
    if (beforeCount > 0) s.beforeMean = static_cast<double>(beforeSum / beforeCount);
    if (afterCount > 0) s.afterMean = static_cast<double>(afterSum / afterCount);
    return s;
}

std::vector<bool> evaluateAlertConditionFromBuckets(const std::vector<ScoreBucket>& buckets,
                                                    const std::vector<double>& times, const AlertRule& rule,
                                                    double widthS) {
    std::vector<ScoreBucket> sorted = buckets;
    std::stable_sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) { return a.t < b.t; });
    const Prefix p(sorted, widthS);
    std::vector<bool> out(times.size(), false);
    for (std::size_t k = 0; k < times.size(); ++k) {
        const auto [r0, r1] = p.window(times[k], rule.shortWindowS, rule.windows);
        const auto [b0, b1] = p.window(times[k] - rule.offsetS, rule.longWindowS, rule.windows);
        const long double rc = p.count[r1] - p.count[r0], bc = p.count[b1] - p.count[b0];
        if (!(rc > 0) || !(bc > 0)) continue;  // no score in a window: no value, no alert
        const double recent = static_cast<double>((p.sum[r1] - p.sum[r0]) / rc);
        const double baseline = static_cast<double>((p.sum[b1] - p.sum[b0]) / bc);
        out[k] = recent < baseline - rule.margin;
    }
    return out;
}

}  // namespace fp8dash
