// The statistics of comparing two runs (statistics.h). Distributions from Boost.Math; the rank tests' exact
// distributions are counted here by dynamic programming.
#include "fp8dash/core/statistics.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <numeric>
#include <random>

#include <boost/math/distributions/binomial.hpp>
#include <boost/math/distributions/normal.hpp>
#include <boost/math/distributions/students_t.hpp>
#include <boost/random/binomial_distribution.hpp>

#include "fp8dash/core/verdict.h"

namespace fp8dash {
namespace {

// Wilcoxon: exact up to this many non-zero differences (2^50 subsets still fit the uint64 counts).
constexpr std::size_t kWilcoxonExactMaxN = 50;
// Mann-Whitney: exact up to this n1 * n2 (the table has n2 * (n1 * n2 + 1) doubles at most).
constexpr std::uint64_t kMannWhitneyExactMaxProduct = 2500;

// A uniform index in [0, n) from the raw 64-bit output. std::uniform_int_distribution's algorithm is left to the
// standard library (libstdc++, libc++ and MSVC differ), while mt19937_64's output sequence is fixed by the standard;
// drawing from the raw output keeps a seeded interval identical everywhere. The rejection of the lowest
// (2^64 mod n) values removes the modulo bias.
std::uint64_t uniformIndex(std::mt19937_64& rng, std::uint64_t n) {
    const std::uint64_t threshold = (0 - n) % n;  // 2^64 mod n
    for (;;) {
        const std::uint64_t r = rng();
        if (r >= threshold) return r % n;
    }
}

// Linear interpolation between order statistics (Hyndman & Fan type 7, numpy's default) of sorted values.
double quantileSorted(const std::vector<double>& sorted, double q) {
    if (sorted.empty()) return 0;
    const double h = q * static_cast<double>(sorted.size() - 1);
    const auto lo = static_cast<std::size_t>(std::floor(h));
    const std::size_t hi = std::min(lo + 1, sorted.size() - 1);
    return sorted[lo] + (h - static_cast<double>(lo)) * (sorted[hi] - sorted[lo]);
}

ConfidenceInterval percentileInterval(std::vector<double>& stats, double level) {
    level = std::clamp(std::isnan(level) ? 0.95 : level, 0.0, 1.0);
    std::sort(stats.begin(), stats.end());
    return {quantileSorted(stats, (1 - level) / 2), quantileSorted(stats, (1 + level) / 2), level};
}

double meanOfResample(std::span<const double> values, std::mt19937_64& rng) {
    double sum = 0;
    for (std::size_t i = 0; i < values.size(); ++i) sum += values[uniformIndex(rng, values.size())];
    return sum / static_cast<double>(values.size());
}

// The multinomial resampling (statistics.h) applies to at most this many distinct values among at least this many
// values: k - 1 binomial draws replace n index draws, a gain once n is several times k (below 64 values the index
// draws are cheap anyway, and small pinned inputs keep their intervals).
constexpr std::size_t kMultinomialMaxDistinct = 16;
constexpr std::size_t kMultinomialMinValues = 64;

// The distinct values of `values` with their counts, ascending; empty when there are more than
// kMultinomialMaxDistinct of them or fewer than kMultinomialMinValues values (then the index draws are used).
struct ValueCount {
    double value;
    std::uint64_t count;
};
std::vector<ValueCount> fewDistinctValues(std::span<const double> values) {
    std::vector<ValueCount> out;
    if (values.size() < kMultinomialMinValues) return out;
    for (double v : values) {
        auto it =
            std::lower_bound(out.begin(), out.end(), v, [](const ValueCount& a, double x) { return a.value < x; });
        if (it != out.end() && it->value == v) {
            ++it->count;
            continue;
        }
        if (out.size() == kMultinomialMaxDistinct) return {};
        out.insert(it, ValueCount{v, 1});
    }
    return out;
}

// The mean of one resample of n values drawn with replacement from the observed frequencies, by counts: the counts
// of the distinct values follow Multinomial(n, count_i / n), drawn as sequential conditional binomials (value i
// gets Binomial(n left, count_i / count of the values from i on)). Boost.Random's binomial sampler is fixed code
// over the generator's raw output, so the counts are the same on every standard library (std::binomial_distribution
// is not: each library picks its algorithm).
double meanOfMultinomialResample(const std::vector<ValueCount>& distinct, std::uint64_t n, std::mt19937_64& rng) {
    std::uint64_t left = n, restCount = n;
    double sum = 0;
    for (std::size_t i = 0; i + 1 < distinct.size() && left > 0; ++i) {
        const double p = static_cast<double>(distinct[i].count) / static_cast<double>(restCount);
        boost::random::binomial_distribution<std::int64_t, double> binomial(static_cast<std::int64_t>(left), p);
        const auto c = static_cast<std::uint64_t>(binomial(rng));
        sum += static_cast<double>(c) * distinct[i].value;
        left -= c;
        restCount -= distinct[i].count;
    }
    sum += static_cast<double>(left) * distinct.back().value;  // the last value takes the remaining draws
    return sum / static_cast<double>(n);
}

// One resampled mean: by counts for few-valued inputs (`distinct` non-empty), by index draws otherwise.
double resampledMean(std::span<const double> values, const std::vector<ValueCount>& distinct, std::mt19937_64& rng) {
    if (distinct.empty()) return meanOfResample(values, rng);
    return meanOfMultinomialResample(distinct, values.size(), rng);
}

// Average ranks (1-based) of `values`, plus the tie term sum(t^3 - t) over groups of equal values.
std::vector<double> averageRanks(const std::vector<double>& values, double& tieTerm) {
    std::vector<std::size_t> order(values.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return values[a] < values[b]; });
    std::vector<double> ranks(values.size());
    tieTerm = 0;
    for (std::size_t i = 0; i < order.size();) {
        std::size_t j = i;
        while (j + 1 < order.size() && values[order[j + 1]] == values[order[i]]) ++j;
        const double rank = (static_cast<double>(i) + static_cast<double>(j)) / 2 + 1;
        for (std::size_t k = i; k <= j; ++k) ranks[order[k]] = rank;
        const double t = static_cast<double>(j - i + 1);
        tieTerm += t * t * t - t;
        i = j + 1;
    }
    return ranks;
}

// Two-sided p of an exact distribution given as counts over statistic values 0..max: 2 * the smaller tail.
double twoSidedFromCounts(const std::vector<double>& counts, std::size_t observed) {
    double total = 0, lower = 0, upper = 0;
    for (std::size_t s = 0; s < counts.size(); ++s) {
        total += counts[s];
        if (s <= observed) lower += counts[s];
        if (s >= observed) upper += counts[s];
    }
    return std::min(1.0, 2 * std::min(lower, upper) / total);
}

// Two-sided p of a normal approximation with a continuity correction of 0.5 on the statistic.
double normalTwoSided(double statistic, double mean, double variance, double& z) {
    if (!(variance > 0)) {
        z = 0;
        return 1;
    }
    const double d = statistic - mean;
    const double corrected = std::max(std::abs(d) - 0.5, 0.0);
    z = std::copysign(corrected, d) / std::sqrt(variance);
    const boost::math::normal_distribution<double> normal;
    return std::min(1.0, 2 * boost::math::cdf(boost::math::complement(normal, std::abs(z))));
}

bool allFinite(std::span<const double> values) {
    return std::all_of(values.begin(), values.end(), [](double v) { return std::isfinite(v); });
}

constexpr ConfidenceInterval nanInterval(double level) {
    return {std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::quiet_NaN(), level};
}

std::vector<double> finiteOnly(std::span<const double> values) {
    std::vector<double> out;
    out.reserve(values.size());
    for (double v : values)
        if (std::isfinite(v)) out.push_back(v);
    return out;
}

}  // namespace

// Boost.Math's default policy throws on domain errors; the guards below keep exceptions from crossing the library
// edge (out-of-range probabilities give NaN or the infinite quantile instead).
double binomialCdf(std::uint64_t k, std::uint64_t n, double p) {
    if (!(p >= 0 && p <= 1)) return std::numeric_limits<double>::quiet_NaN();
    if (k >= n) return 1;
    const boost::math::binomial_distribution<double> dist(static_cast<double>(n), p);
    return boost::math::cdf(dist, static_cast<double>(k));
}

double normalQuantile(double p) {
    if (!(p >= 0 && p <= 1)) return std::numeric_limits<double>::quiet_NaN();
    if (p == 0) return -std::numeric_limits<double>::infinity();
    if (p == 1) return std::numeric_limits<double>::infinity();
    return boost::math::quantile(boost::math::normal_distribution<double>(), p);
}

double mcnemarExactPValue(std::uint64_t b01, std::uint64_t b10) {
    const std::uint64_t n = b01 + b10;
    if (n == 0) return 1;
    return std::min(1.0, 2 * binomialCdf(std::min(b01, b10), n, 0.5));
}

ConfidenceInterval bootstrapMeanCi(std::span<const double> values, std::uint64_t seed, int iterations, double level) {
    if (values.empty() || iterations <= 0) return {0, 0, level};
    if (!allFinite(values)) return nanInterval(level);  // NaN would also break the sort's ordering
    std::mt19937_64 rng(seed);
    const std::vector<ValueCount> distinct = fewDistinctValues(values);
    std::vector<double> means(static_cast<std::size_t>(iterations));
    for (double& m : means) m = resampledMean(values, distinct, rng);
    return percentileInterval(means, level);
}

ConfidenceInterval bootstrapMeanDifferenceCi(std::span<const double> baseline, std::span<const double> candidate,
                                             std::uint64_t seed, int iterations, double level) {
    if (baseline.empty() || candidate.empty() || iterations <= 0) return {0, 0, level};
    if (!allFinite(baseline) || !allFinite(candidate)) return nanInterval(level);
    std::mt19937_64 rng(seed);
    const std::vector<ValueCount> baseDistinct = fewDistinctValues(baseline),
                                  candDistinct = fewDistinctValues(candidate);
    std::vector<double> diffs(static_cast<std::size_t>(iterations));
    for (double& d : diffs) {
        const double b = resampledMean(baseline, baseDistinct, rng);  // baseline first, then candidate: the contract
        d = resampledMean(candidate, candDistinct, rng) - b;
    }
    return percentileInterval(diffs, level);
}

ConfidenceInterval tMeanCi(std::span<const double> values, double level) {
    const double n = static_cast<double>(values.size());
    if (values.empty()) return {0, 0, level};
    const double mean = std::accumulate(values.begin(), values.end(), 0.0) / n;
    if (values.size() < 2) return {mean, mean, level};
    double ss = 0;
    for (double v : values) ss += (v - mean) * (v - mean);
    const double se = std::sqrt(ss / (n - 1) / n);
    if (!(level > 0)) return {mean, mean, level};
    if (!(level < 1)) return {-std::numeric_limits<double>::infinity(), std::numeric_limits<double>::infinity(), level};
    const double t = boost::math::quantile(boost::math::students_t_distribution<double>(n - 1), (1 + level) / 2);
    return {mean - t * se, mean + t * se, level};
}

RankTest wilcoxonSignedRank(std::span<const double> differences) {
    std::vector<double> magnitudes;
    std::vector<bool> positive;
    for (double d : finiteOnly(differences)) {
        if (d == 0) continue;  // zeros dropped (Wilcoxon's original treatment)
        magnitudes.push_back(std::abs(d));
        positive.push_back(d > 0);
    }
    RankTest r;
    r.n = magnitudes.size();
    if (r.n == 0) {
        r.exact = true;
        return r;
    }
    double tieTerm = 0;
    const std::vector<double> ranks = averageRanks(magnitudes, tieTerm);
    for (std::size_t i = 0; i < ranks.size(); ++i)
        if (positive[i]) r.statistic += ranks[i];

    const std::size_t n = magnitudes.size();
    if (n <= kWilcoxonExactMaxN && tieTerm == 0) {
        // counts[s] = number of subsets of {1..n} with sum s (each rank's sign is +/- with probability 1/2).
        const std::size_t maxSum = n * (n + 1) / 2;
        std::vector<std::uint64_t> counts(maxSum + 1, 0);
        counts[0] = 1;
        for (std::size_t k = 1; k <= n; ++k)
            for (std::size_t s = k * (k + 1) / 2; s >= k; --s) counts[s] += counts[s - k];
        // W+ is an integer without ties. Totals up to 2^50 convert to double exactly.
        std::vector<double> asDouble(counts.begin(), counts.end());
        r.pValue = twoSidedFromCounts(asDouble, static_cast<std::size_t>(std::llround(r.statistic)));
        r.exact = true;
        return r;
    }
    const double nd = static_cast<double>(n);
    const double mean = nd * (nd + 1) / 4;
    const double variance = nd * (nd + 1) * (2 * nd + 1) / 24 - tieTerm / 48;
    r.pValue = normalTwoSided(r.statistic, mean, variance, r.z);
    return r;
}

RankTest mannWhitneyU(std::span<const double> baseline, std::span<const double> candidate) {
    const std::vector<double> b = finiteOnly(baseline), c = finiteOnly(candidate);
    RankTest r;
    r.n = b.size() + c.size();
    if (b.empty() || c.empty()) {
        r.exact = true;
        return r;
    }
    std::vector<double> all = c;  // candidate first: its ranks are the first c.size()
    all.insert(all.end(), b.begin(), b.end());
    double tieTerm = 0;
    const std::vector<double> ranks = averageRanks(all, tieTerm);
    const double n1 = static_cast<double>(c.size()), n2 = static_cast<double>(b.size());
    const double rankSum = std::accumulate(ranks.begin(), ranks.begin() + static_cast<std::ptrdiff_t>(c.size()), 0.0);
    r.statistic = rankSum - n1 * (n1 + 1) / 2;  // pairs (candidate, baseline) with the candidate above, ties 1/2

    const std::uint64_t product = static_cast<std::uint64_t>(c.size()) * b.size();
    if (tieTerm == 0 && product <= kMannWhitneyExactMaxProduct) {
        // ways(i, j)[u]: orderings of i candidate and j baseline values with U = u. ways(i, j) =
        // ways(i - 1, j) shifted by j (the largest value is a candidate above all j) + ways(i, j - 1). Counts reach
        // C(n1 + n2, n1) (1e29 at 50 + 50), so doubles: only sums of positive numbers, relative error ~1e-16.
        const std::size_t m = c.size(), k = b.size();
        std::vector<std::vector<double>> row(k + 1);          // row[j] = ways(i, j) for the current i
        for (std::size_t j = 0; j <= k; ++j) row[j] = {1.0};  // i = 0: one ordering, U = 0
        for (std::size_t i = 1; i <= m; ++i) {
            std::vector<std::vector<double>> next(k + 1);
            next[0] = {1.0};
            for (std::size_t j = 1; j <= k; ++j) {
                std::vector<double> w(i * j + 1, 0.0);
                for (std::size_t u = 0; u < row[j].size(); ++u) w[u + j] += row[j][u];
                for (std::size_t u = 0; u < next[j - 1].size(); ++u) w[u] += next[j - 1][u];
                next[j] = std::move(w);
            }
            row = std::move(next);
        }
        r.pValue = twoSidedFromCounts(row[k], static_cast<std::size_t>(std::llround(r.statistic)));
        r.exact = true;
        return r;
    }
    const double n = n1 + n2;
    const double mean = n1 * n2 / 2;
    const double variance = n1 * n2 / 12 * ((n + 1) - tieTerm / (n * (n - 1)));
    r.pValue = normalTwoSided(r.statistic, mean, variance, r.z);
    return r;
}

const char* confidenceName(Confidence c) {
    return c == Confidence::Clear ? "clear" : "inconclusive";
}

const char* bandWords(Confidence c) {
    return c == Confidence::Clear ? "settled" : "unsettled";
}

namespace {

std::string pctText(double v, bool sign) {
    char buf[64];
    std::snprintf(buf, sizeof buf, sign ? "%+.3g %%" : "%.3g %%", v + 0.0);  // + 0.0: -0 prints as "-0"
    return buf;
}

// The samples that would decide an inconclusive interval: for each edge it crosses, the half-width on the side
// facing it (the half-width itself for a symmetric interval) must shrink to the point's distance from it;
// half-widths scale as 1/sqrt(n). Sets onEdge when the point sits on a crossed edge as the verdict rounds it.
std::optional<double> samplesToDecide(double point, const ConfidenceAnswer& a, std::uint64_t n, double goBelowPct,
                                      double investigateAbovePct, Verdict lowBand, Verdict highBand, bool& onEdge) {
    std::optional<double> needed;
    const std::pair<double, bool> edges[] = {
        {goBelowPct, lowBand == Verdict::Go && highBand != Verdict::Go},
        {investigateAbovePct, lowBand != Verdict::Investigate && highBand == Verdict::Investigate}};
    for (const auto& [edge, crossed] : edges) {
        if (!crossed) continue;
        const double distance = std::abs(edge - point);
        const double halfWidth = edge > point ? a.highPct - point : point - a.lowPct;
        if (distance < 1e-9) {
            onEdge = true;
            continue;
        }
        if (!(halfWidth > 0)) continue;  // the point outside its own interval: no answer from this edge
        const double ratio = halfWidth / distance;
        needed = std::max(needed.value_or(0.0), std::ceil(static_cast<double>(n) * ratio * ratio));
    }
    return needed;
}

}  // namespace

ChangeFinding changeFinding(double lossLowPct, double lossHighPct) {
    if (std::min(lossLowPct, lossHighPct) > 0) return ChangeFinding::SignificantDrop;
    if (std::max(lossLowPct, lossHighPct) < 0) return ChangeFinding::SignificantImprovement;
    return ChangeFinding::NoSignificantChange;
}

const char* changeFindingName(ChangeFinding f) {
    switch (f) {
        case ChangeFinding::SignificantDrop:
            return "significant_drop";
        case ChangeFinding::SignificantImprovement:
            return "significant_improvement";
        case ChangeFinding::NoSignificantChange:
            break;
    }
    return "no_significant_change";
}

const char* changeFindingWords(ChangeFinding f) {
    switch (f) {
        case ChangeFinding::SignificantDrop:
            return "a significant drop";
        case ChangeFinding::SignificantImprovement:
            return "a significant improvement";
        case ChangeFinding::NoSignificantChange:
            break;
    }
    return "no significant change";
}

std::string groupedCount(std::uint64_t n) {
    std::string digits = std::to_string(n), out;
    for (std::size_t i = 0; i < digits.size(); ++i) {
        if (i && (digits.size() - i) % 3 == 0) out += ',';
        out += digits[i];
    }
    return out;
}

ConfidenceAnswer confidenceAnswer(double degradationPct, double lowPct, double highPct, std::uint64_t n,
                                  double goBelowPct, double investigateAbovePct, const ConfidenceContext& ctx) {
    ConfidenceAnswer a;
    a.lowPct = std::min(lowPct, highPct) + 0.0;  // + 0.0: -0 prints as "-0"
    a.highPct = std::max(lowPct, highPct) + 0.0;
    a.change = changeFinding(a.lowPct, a.highPct);
    a.taskSize = ctx.taskSize;
    // The bands exactly as the verdict draws them (edges at 1e-9 points); an improvement (negative) is "go".
    const Thresholds t{goBelowPct, investigateAbovePct};
    auto band = [&](double d) { return verdictForDegradation(std::max(d, 0.0), t); };
    // The sentence is about Δ, the figure shown beside it: Δ = -loss where higher is better.
    const double deltaLow = ctx.higherIsBetter ? -a.highPct : a.lowPct;
    const double deltaHigh = ctx.higherIsBetter ? -a.lowPct : a.highPct;
    std::string text = "The 95 % interval of Δ is " + pctText(deltaLow, true) + " to " + pctText(deltaHigh, true) +
                       ": " + changeFindingWords(a.change);
    const Verdict lowBand = band(a.lowPct), highBand = band(a.highPct);
    if (lowBand == highBand) {
        a.confidence = Confidence::Clear;
        a.explanation = text + "; it lies inside the " + std::string(verdictName(lowBand)) +
                        " band, so the verdict does not depend on the noise.";
        return a;
    }
    a.confidence = Confidence::Inconclusive;
    text += "; the degradation (" + pctText(std::max(a.lowPct, 0.0), false) + " to " +
            pctText(std::max(a.highPct, 0.0), false) +
            ") crosses a band edge, so within the noise the verdict could go either way.";

    bool onEdge = false;
    const std::optional<double> needed =
        samplesToDecide(degradationPct, a, n, goBelowPct, investigateAbovePct, lowBand, highBand, onEdge);
    a.decidable = std::nullopt;
    if (onEdge) {
        a.decidable = false;
        text += " The estimate sits on the edge itself, so no sample size decides it.";
    } else if (needed && n > 0 && std::isfinite(*needed)) {
        const std::uint64_t count = std::max<std::uint64_t>(static_cast<std::uint64_t>(std::min(*needed, 1e18)), n + 1);
        if (ctx.taskSize && count > *ctx.taskSize) {
            // Samples the task does not have decide nothing: say so instead of an extrapolated count.
            a.decidable = false;
            text += " It would take more samples than the task has (" + groupedCount(*ctx.taskSize) +
                    "): too close to the band edge to decide.";
        } else {
            a.samplesNeeded = count;
            a.decidable = true;
            text += " About " + groupedCount(count) + " samples (now " + groupedCount(n) +
                    ") would decide it at the observed variance.";
        }
    }
    a.explanation = text;
    return a;
}

EquivalenceResult equivalenceCheck(double deltaPct, double standardErrorPct, double marginPct, double alpha) {
    EquivalenceResult e;
    e.marginPct = marginPct;
    const double z = normalQuantile(1 - alpha);  // each one-sided test at alpha: the (1 - 2 alpha) interval
    const double se = std::abs(standardErrorPct);
    e.lowPct = deltaPct - z * se;
    e.highPct = deltaPct + z * se;
    e.equivalent =
        std::isfinite(e.lowPct) && std::isfinite(e.highPct) && e.lowPct > -marginPct && e.highPct < marginPct;
    return e;
}

std::string equivalenceStatement(const EquivalenceResult& e, bool higherIsBetter) {
    char interval[160];
    std::snprintf(interval, sizeof interval, "90%% interval of Δ %+.3f%% to %+.3f%%, margin ±%g%%", e.lowPct + 0.0,
                  e.highPct + 0.0, e.marginPct);
    if (e.equivalent) return std::string("equivalence shown: \"go\" is demonstrated (") + interval + ")";
    // The loss interval of the same 90 % interval: -Δ where higher is better.
    const double lossLow = higherIsBetter ? -e.highPct : e.lowPct;
    const double lossHigh = higherIsBetter ? -e.lowPct : e.highPct;
    std::string what;
    switch (changeFinding(lossLow, lossHigh)) {
        case ChangeFinding::SignificantDrop:
            what = "a significant drop";
            break;
        case ChangeFinding::SignificantImprovement:
            what = "a significant improvement, beyond the margin (better, not equivalent)";
            break;
        case ChangeFinding::NoSignificantChange:
            what = "no significant change, but the interval is wider than the margin (only \"no significant drop\")";
            break;
    }
    return "equivalence not shown: " + what + " (" + interval + ")";
}

}  // namespace fp8dash
