// core/statistics against independently computed values: exact binomial sums written here (and Python's exact
// integer arithmetic for the large cases, pasted with how they were computed), rank-test distributions enumerated by
// brute force, normal approximations computed by hand from the textbook formulas, and published quantiles.
#include "fp8dash/core/statistics.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <numeric>
#include <random>
#include <vector>

namespace fp8dash {
namespace {

// P[X <= k] for X ~ Binomial(n, 1/2), as a long-double sum of C(n, i) / 2^n (exact enough for n <= 60).
long double binomialLowerTail(unsigned n, unsigned k) {
    long double sum = 0, c = 1;  // C(n, 0)
    for (unsigned i = 0; i <= k; ++i) {
        sum += c;
        c = c * (n - i) / (i + 1);
    }
    return sum / std::pow(2.0L, static_cast<long double>(n));
}

double mcnemarByHand(unsigned b01, unsigned b10) {
    if (b01 + b10 == 0) return 1;
    return static_cast<double>(std::min(1.0L, 2 * binomialLowerTail(b01 + b10, std::min(b01, b10))));
}

// Two-sided normal p of z.
double normalP(double z) {
    return std::erfc(std::abs(z) / std::sqrt(2.0));
}

TEST(McNemar, SmallCountsAgainstTheBinomialSum) {
    EXPECT_EQ(mcnemarExactPValue(0, 0), 1.0);
    EXPECT_DOUBLE_EQ(mcnemarExactPValue(0, 5), 0.0625);  // 2 * (1/32)
    EXPECT_DOUBLE_EQ(mcnemarExactPValue(5, 0), 0.0625);
    // 2 * (1 + 13 + 78 + 286) / 8192 = 756 / 8192
    EXPECT_DOUBLE_EQ(mcnemarExactPValue(3, 10), 756.0 / 8192.0);
    EXPECT_EQ(mcnemarExactPValue(7, 7), 1.0);  // 2 * P[X <= 7] > 1, capped
    for (auto [a, b] : std::vector<std::pair<unsigned, unsigned>>{{1, 1}, {2, 9}, {12, 4}, {20, 31}, {25, 35}, {0, 60}})
        EXPECT_NEAR(mcnemarExactPValue(a, b), mcnemarByHand(a, b), 1e-12 * std::max(1.0, mcnemarByHand(a, b)))
            << a << "/" << b;
}

TEST(McNemar, LargeCountsAgainstExactIntegerArithmetic) {
    // Reference values from Python 3 with exact integers:
    //   n = b01 + b10; p = min(1, float(Fraction(2 * sum(math.comb(n, k) for k in range(min + 1)), 2 ** n)))
    // and for n = 10^6: float(Fraction(math.comb(n, m), 2 ** n)) summed downward with the exact ratio k / (n - k + 1).
    EXPECT_NEAR(mcnemarExactPValue(40, 60), 0.05688793364098079, 1e-12);
    EXPECT_NEAR(mcnemarExactPValue(91, 86), 0.7637740588658732, 1e-12);  // the vLLM BF16-vs-BF16 control: p = 0.76
    EXPECT_NEAR(mcnemarExactPValue(5000, 5200), 0.04878796312682245, 1e-10);
    EXPECT_NEAR(mcnemarExactPValue(499000, 501000), 0.04560829986538186, 1e-9);
    EXPECT_EQ(mcnemarExactPValue(100, 101), 1.0);
    EXPECT_EQ(mcnemarExactPValue(0, 1000000), 0.0);  // 2^-999999 underflows; no error, no NaN
}

TEST(Distributions, BinomialCdfAndNormalQuantile) {
    EXPECT_NEAR(binomialCdf(3, 13, 0.5), 378.0 / 8192.0, 1e-15);
    EXPECT_EQ(binomialCdf(13, 13, 0.5), 1.0);
    // P[X <= 1] for Binomial(4, 0.3) = 0.7^4 + 4 * 0.3 * 0.7^3 = 0.2401 + 0.4116
    EXPECT_NEAR(binomialCdf(1, 4, 0.3), 0.6517, 1e-14);
    EXPECT_NEAR(normalQuantile(0.975), 1.959963984540054, 1e-12);  // published
    EXPECT_NEAR(normalQuantile(0.95), 1.6448536269514722, 1e-12);
}

// Exact two-sided Wilcoxon p by enumerating all 2^n sign patterns of the ranks 1..n.
double wilcoxonBruteForce(unsigned n, double wPlus) {
    const std::uint64_t total = 1ull << n;
    std::uint64_t le = 0, ge = 0;
    for (std::uint64_t mask = 0; mask < total; ++mask) {
        unsigned sum = 0;
        for (unsigned r = 1; r <= n; ++r)
            if (mask & (1ull << (r - 1))) sum += r;
        if (sum <= wPlus) ++le;
        if (sum >= wPlus) ++ge;
    }
    return std::min(1.0, 2.0 * static_cast<double>(std::min(le, ge)) / static_cast<double>(total));
}

// W+ by counting: the rank of |d_i| is 1 + the number of smaller magnitudes (no ties in these inputs).
double wPlusByCounting(const std::vector<double>& d) {
    double w = 0;
    for (double x : d) {
        if (x <= 0) continue;
        int rank = 1;
        for (double y : d)
            if (y != 0 && std::abs(y) < std::abs(x)) ++rank;
        w += rank;
    }
    return w;
}

TEST(Wilcoxon, ExactSmallSampleAgainstEnumeration) {
    const std::vector<double> d = {1.5, -0.3, 2.2, 0.7, -1.1, 3.0, 0.1, -2.5, 1.9, 0.4, 0.0};  // the zero is dropped
    const RankTest r = wilcoxonSignedRank(d);
    EXPECT_TRUE(r.exact);
    EXPECT_EQ(r.n, 10u);
    // Positive magnitudes 1.5, 2.2, 0.7, 3.0, 0.1, 1.9, 0.4 have ranks 6, 8, 4, 10, 1, 7, 3: W+ = 39.
    EXPECT_EQ(r.statistic, 39.0);
    EXPECT_EQ(wPlusByCounting(d), 39.0);
    EXPECT_NEAR(r.pValue, wilcoxonBruteForce(10, 39), 1e-14);

    std::mt19937_64 gen(7);
    std::vector<double> d20;
    for (int i = 0; i < 20; ++i) d20.push_back(static_cast<double>(gen() % 100000) / 1000.0 - 30.0);
    const RankTest r20 = wilcoxonSignedRank(d20);
    ASSERT_TRUE(r20.exact);
    EXPECT_EQ(r20.statistic, wPlusByCounting(d20));
    EXPECT_NEAR(r20.pValue, wilcoxonBruteForce(20, r20.statistic), 1e-13);

    const std::vector<double> allPositive = {0.5, 1, 2, 3, 4, 5};  // W+ = 21: p = 2 / 64
    EXPECT_NEAR(wilcoxonSignedRank(allPositive).pValue, 2.0 / 64.0, 1e-15);
}

TEST(Wilcoxon, NormalApproximationWithTiesByHand) {
    // d = 1, 1, 1, -1, 2, -2, 2, 2, 3, 0 -> zero dropped, n = 9. |d| = 1 (x4, ranks 1-4, average 2.5),
    // 2 (x4, ranks 5-8, average 6.5), 3 (rank 9). W+ = 3 * 2.5 + 3 * 6.5 + 9 = 36.
    // mean = 9 * 10 / 4 = 22.5; var = 9 * 10 * 19 / 24 - ((4^3 - 4) + (4^3 - 4)) / 48 = 71.25 - 2.5 = 68.75;
    // z = (36 - 22.5 - 0.5) / sqrt(68.75).
    const RankTest r = wilcoxonSignedRank(std::vector<double>{1, 1, 1, -1, 2, -2, 2, 2, 3, 0});
    EXPECT_FALSE(r.exact);
    EXPECT_EQ(r.n, 9u);
    EXPECT_DOUBLE_EQ(r.statistic, 36.0);
    const double z = 13.0 / std::sqrt(68.75);
    EXPECT_NEAR(r.z, z, 1e-12);
    EXPECT_NEAR(r.pValue, normalP(z), 1e-12);

    // Nothing but zeros: no evidence at all.
    const RankTest zeros = wilcoxonSignedRank(std::vector<double>{0, 0, 0});
    EXPECT_EQ(zeros.n, 0u);
    EXPECT_EQ(zeros.pValue, 1.0);
}

TEST(Wilcoxon, LargeSampleUsesTheNormalApproximation) {
    // 60 distinct differences: 1..60 with every third negated. W+ = sum(1..60) - sum of multiples of 3 up to 60
    // = 1830 - 3 * (20 * 21 / 2) = 1830 - 630 = 1200. mean = 60 * 61 / 4 = 915; var = 60 * 61 * 121 / 24 = 18452.5.
    std::vector<double> d;
    for (int i = 1; i <= 60; ++i) d.push_back(i % 3 == 0 ? -i : i);
    const RankTest r = wilcoxonSignedRank(d);
    EXPECT_FALSE(r.exact);
    EXPECT_DOUBLE_EQ(r.statistic, 1200.0);
    const double z = (1200.0 - 915.0 - 0.5) / std::sqrt(18452.5);
    EXPECT_NEAR(r.z, z, 1e-12);
    EXPECT_NEAR(r.pValue, normalP(z), 1e-12);
}

// U of the candidate by counting pairs (candidate above baseline: 1, equal: 1/2).
double uByCounting(const std::vector<double>& b, const std::vector<double>& c) {
    double u = 0;
    for (double x : c)
        for (double y : b) u += x > y ? 1.0 : x == y ? 0.5 : 0.0;
    return u;
}

// Exact two-sided p by enumerating every way of choosing which of the pooled (distinct) values are the candidate's.
double mannWhitneyBruteForce(const std::vector<double>& b, const std::vector<double>& c) {
    std::vector<double> pooled = b;
    pooled.insert(pooled.end(), c.begin(), c.end());
    const double observed = uByCounting(b, c);
    std::vector<bool> pick(pooled.size(), false);
    std::fill(pick.end() - static_cast<std::ptrdiff_t>(c.size()), pick.end(), true);
    std::uint64_t le = 0, ge = 0, total = 0;
    do {
        std::vector<double> bb, cc;
        for (std::size_t i = 0; i < pooled.size(); ++i) (pick[i] ? cc : bb).push_back(pooled[i]);
        const double u = uByCounting(bb, cc);
        le += u <= observed;
        ge += u >= observed;
        ++total;
    } while (std::next_permutation(pick.begin(), pick.end()));
    return std::min(1.0, 2.0 * static_cast<double>(std::min(le, ge)) / static_cast<double>(total));
}

TEST(MannWhitney, ExactSmallSamplesAgainstEnumeration) {
    const std::vector<double> b = {1.2, 3.4, 2.2, 5.0}, c = {0.5, 2.9, 4.1, 6.3, 1.0};
    const RankTest r = mannWhitneyU(b, c);
    EXPECT_TRUE(r.exact);
    EXPECT_EQ(r.n, 9u);
    // 0.5: 0, 2.9: 2 (1.2, 2.2), 4.1: 3, 6.3: 4, 1.0: 0 -> U = 9
    EXPECT_EQ(r.statistic, 9.0);
    EXPECT_NEAR(r.pValue, mannWhitneyBruteForce(b, c), 1e-14);

    std::mt19937_64 gen(11);
    std::vector<double> b8, c9;
    for (int i = 0; i < 8; ++i) b8.push_back(static_cast<double>(gen() % 1000000) / 1000.0);
    for (int i = 0; i < 9; ++i) c9.push_back(static_cast<double>(gen() % 1000000) / 1000.0 + 150.0);
    const RankTest r2 = mannWhitneyU(b8, c9);
    ASSERT_TRUE(r2.exact);
    EXPECT_EQ(r2.statistic, uByCounting(b8, c9));
    EXPECT_NEAR(r2.pValue, mannWhitneyBruteForce(b8, c9), 1e-13);

    // Complete separation, 3 vs 3: U = 9 of 9, one arrangement of 20 in each tail -> p = 2 / 20.
    EXPECT_NEAR(mannWhitneyU(std::vector<double>{1, 2, 3}, std::vector<double>{4, 5, 6}).pValue, 0.1, 1e-15);
}

TEST(MannWhitney, NormalApproximationWithTiesByHand) {
    // Judge-like integer scores with ties.
    const std::vector<double> b = {1, 2, 2, 3, 3, 3, 4, 4, 5, 5}, c = {1, 1, 2, 2, 3, 3, 3, 4, 4, 4};
    const RankTest r = mannWhitneyU(b, c);
    EXPECT_FALSE(r.exact);
    EXPECT_EQ(r.n, 20u);
    const double u = uByCounting(b, c);
    EXPECT_DOUBLE_EQ(r.statistic, u);
    // Pooled tie groups: 1 x3, 2 x4, 3 x6, 4 x5, 5 x2 -> sum(t^3 - t) = 24 + 60 + 210 + 120 + 6 = 420.
    // var = n1 n2 / 12 * ((N + 1) - 420 / (N (N - 1))) with N = 20.
    const double var = 100.0 / 12.0 * (21.0 - 420.0 / 380.0);
    const double d = u - 50.0;
    const double z = std::copysign(std::abs(d) - 0.5, d) / std::sqrt(var);
    EXPECT_NEAR(r.z, z, 1e-12);
    EXPECT_NEAR(r.pValue, normalP(z), 1e-12);

    const RankTest same = mannWhitneyU(std::vector<double>{3, 3, 3}, std::vector<double>{3, 3});
    EXPECT_EQ(same.pValue, 1.0);  // no variance at all: no evidence
}

TEST(MannWhitney, ExactAndNormalAgreeAtTheExactLimit) {
    // 50 vs 50 distinct values (the largest exact case): the exact p and the uncorrected normal p are close.
    std::vector<double> b, c;
    for (int i = 0; i < 50; ++i) {
        b.push_back(2 * i);
        c.push_back(2 * i + 1 + (i % 7 == 0 ? 30.5 : 0));  // .5: no tie with anything
    }
    const RankTest r = mannWhitneyU(b, c);
    ASSERT_TRUE(r.exact);
    EXPECT_EQ(r.statistic, uByCounting(b, c));
    const double z = (r.statistic - 1250.0) / std::sqrt(2500.0 * 101.0 / 12.0);
    EXPECT_NEAR(r.pValue, normalP(z), 0.01);
}

// The interval's algorithm re-implemented from its documentation: raw mt19937_64 output, rejection of the lowest
// 2^64 mod n values, index = output mod n; type-7 percentiles of the sorted resampled means.
ConfidenceInterval bootstrapByHand(const std::vector<double>& v, std::uint64_t seed, int iterations) {
    std::mt19937_64 rng(seed);
    const std::uint64_t n = v.size();
    const std::uint64_t reject = (~n + 1) % n;
    std::vector<double> means;
    for (int it = 0; it < iterations; ++it) {
        double sum = 0;
        for (std::uint64_t i = 0; i < n; ++i) {
            std::uint64_t r;
            do r = rng();
            while (r < reject);
            sum += v[r % n];
        }
        means.push_back(sum / static_cast<double>(n));
    }
    std::sort(means.begin(), means.end());
    auto q = [&](double p) {
        const double h = p * (iterations - 1);
        const auto lo = static_cast<std::size_t>(h);
        return means[lo] +
               (h - static_cast<double>(lo)) * (means[std::min<std::size_t>(lo + 1, means.size() - 1)] - means[lo]);
    };
    return {q(0.025), q(0.975), 0.95};
}

TEST(Bootstrap, ReproducibleBySeedAndPortable) {
    // The standard fixes mt19937_64's output: the 10000th value from the default seed is 9981545732273789042.
    std::mt19937_64 check;
    check.discard(9999);
    ASSERT_EQ(check(), 9981545732273789042ull);

    const std::vector<double> v = {1, 2, 3, 4, 5, 6, 7, 3.5, -2, 9};
    const ConfidenceInterval a = bootstrapMeanCi(v, 42, 500);
    const ConfidenceInterval b = bootstrapMeanCi(v, 42, 500);
    EXPECT_EQ(a.low, b.low);
    EXPECT_EQ(a.high, b.high);
    const ConfidenceInterval other = bootstrapMeanCi(v, 43, 500);
    EXPECT_TRUE(other.low != a.low || other.high != a.high);
    const ConfidenceInterval byHand = bootstrapByHand(v, 42, 500);
    EXPECT_DOUBLE_EQ(a.low, byHand.low);
    EXPECT_DOUBLE_EQ(a.high, byHand.high);
    EXPECT_LT(a.low, 3.85);  // the mean
    EXPECT_GT(a.high, 3.85);

    const ConfidenceInterval none = bootstrapMeanCi(std::vector<double>{}, 1, 100);
    EXPECT_EQ(none.low, 0.0);
    EXPECT_EQ(none.high, 0.0);
    EXPECT_TRUE(std::isnan(bootstrapMeanCi(std::vector<double>{1, NAN, 2}, 1, 100).low));  // no crash, no number
    EXPECT_TRUE(std::isnan(normalQuantile(1.5)));
    EXPECT_TRUE(std::isnan(binomialCdf(1, 3, -0.1)));
    const ConfidenceInterval constant = bootstrapMeanCi(std::vector<double>{2, 2, 2}, 1, 100);
    EXPECT_EQ(constant.low, 2.0);
    EXPECT_EQ(constant.high, 2.0);
}

// Normal deviates by Box-Muller on the raw generator output (the same numbers on every platform).
std::vector<double> normalData(std::size_t n, double mu, double sigma, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    auto uniform = [&] { return (static_cast<double>(rng() >> 11) + 0.5) / 9007199254740992.0; };  // (0, 1)
    std::vector<double> out;
    while (out.size() < n) {
        const double r = std::sqrt(-2 * std::log(uniform())), t = 2 * std::numbers::pi * uniform();
        out.push_back(mu + sigma * r * std::cos(t));
        if (out.size() < n) out.push_back(mu + sigma * r * std::sin(t));
    }
    return out;
}

TEST(Bootstrap, CloseToTheTIntervalOnNormalData) {
    const std::vector<double> v = normalData(400, -0.2, 1.1, 2026);
    const ConfidenceInterval boot = bootstrapMeanCi(v, 99, 4000);
    const ConfidenceInterval t = tMeanCi(v);
    const double tWidth = t.high - t.low;
    EXPECT_NEAR(boot.high - boot.low, tWidth, 0.1 * tWidth);
    EXPECT_NEAR((boot.low + boot.high) / 2, (t.low + t.high) / 2, 0.1 * tWidth);

    // Unpaired difference: two independent normal samples; the interval of mean(c) - mean(b) against the Welch
    // normal interval, diff +- 1.96 sqrt(s_b^2 / n_b + s_c^2 / n_c).
    const std::vector<double> base = normalData(300, 4.0, 0.8, 5), cand = normalData(400, 3.9, 0.9, 6);
    const ConfidenceInterval d = bootstrapMeanDifferenceCi(base, cand, 17, 3000);
    auto meanVar = [](const std::vector<double>& x, double& var) {
        const double m = std::accumulate(x.begin(), x.end(), 0.0) / static_cast<double>(x.size());
        var = 0;
        for (double y : x) var += (y - m) * (y - m);
        var /= static_cast<double>(x.size() - 1);
        return m;
    };
    double vb = 0, vc = 0;
    const double diff = meanVar(cand, vc) - meanVar(base, vb);
    const double half = 1.959963984540054 * std::sqrt(vb / 300 + vc / 400);
    EXPECT_NEAR(d.high - d.low, 2 * half, 0.1 * 2 * half);
    EXPECT_NEAR((d.low + d.high) / 2, diff, 0.1 * 2 * half);
    const ConfidenceInterval again = bootstrapMeanDifferenceCi(base, cand, 17, 3000);
    EXPECT_EQ(again.low, d.low);
    EXPECT_EQ(again.high, d.high);
}

// Paired 0/1 differences: `up` values +1, `down` values -1, the rest 0, in a shuffled but fixed order.
std::vector<double> pairedDifferences(std::size_t n, std::size_t up, std::size_t down, std::uint64_t seed) {
    std::vector<double> v(n, 0.0);
    std::fill_n(v.begin(), up, 1.0);
    std::fill_n(v.begin() + static_cast<std::ptrdiff_t>(up), down, -1.0);
    std::mt19937_64 rng(seed);
    for (std::size_t i = n - 1; i > 0; --i) std::swap(v[i], v[rng() % (i + 1)]);
    return v;
}

// The normal-approximation interval of the mean, mean +- z(0.975) * s / sqrt(n).
ConfidenceInterval normalMeanCi(const std::vector<double>& v) {
    const double n = static_cast<double>(v.size());
    const double m = std::accumulate(v.begin(), v.end(), 0.0) / n;
    double ss = 0;
    for (double x : v) ss += (x - m) * (x - m);
    const double half = 1.959963984540054 * std::sqrt(ss / (n - 1) / n);
    return {m - half, m + half, 0.95};
}

TEST(Bootstrap, FewValuedInputAgreesWithTheIndexDrawBootstrap) {
    // 2,000 paired 0/1 differences (140 up, 90 down): the counts-based resampling has the distribution of the index
    // draws, so the two seeded intervals agree within Monte Carlo error. At 10,000 resamples the 2.5 % quantile's
    // Monte Carlo standard error is about 0.0002 here; 0.002 (0.2 points) is several times that.
    const std::vector<double> v = pairedDifferences(2000, 140, 90, 11);
    const ConfidenceInterval counts = bootstrapMeanCi(v, 7, 10000);
    const ConfidenceInterval indices = bootstrapByHand(v, 7, 10000);
    EXPECT_NEAR(counts.low, indices.low, 0.002);
    EXPECT_NEAR(counts.high, indices.high, 0.002);
    const ConfidenceInterval normal = normalMeanCi(v);  // mean 0.025, half width about 0.0148
    EXPECT_NEAR(counts.low, normal.low, 0.002);
    EXPECT_NEAR(counts.high, normal.high, 0.002);
    // A different stream from the index draws (the documented change), the same for a seed, another for another.
    EXPECT_TRUE(counts.low != indices.low || counts.high != indices.high);
    const ConfidenceInterval again = bootstrapMeanCi(v, 7, 10000);
    EXPECT_EQ(again.low, counts.low);
    EXPECT_EQ(again.high, counts.high);
    const ConfidenceInterval other = bootstrapMeanCi(v, 8, 10000);
    EXPECT_TRUE(other.low != counts.low || other.high != counts.high);
}

TEST(Bootstrap, FewValuedLargeInputMatchesTheNormalInterval) {
    // 40,000 paired differences (the size of the speed benchmark's logs): the bootstrap of a mean of this many
    // bounded values is the normal interval up to Monte Carlo error.
    const std::vector<double> v = pairedDifferences(40000, 1300, 2100, 3);
    const ConfidenceInterval boot = bootstrapMeanCi(v, 1, 10000);
    const ConfidenceInterval normal = normalMeanCi(v);  // mean -0.02, half width about 0.0028
    EXPECT_NEAR(boot.low, normal.low, 0.0005);
    EXPECT_NEAR(boot.high, normal.high, 0.0005);

    // Unpaired 0/1 accuracies (3,000 and 2,500 values): the interval of the difference of means against the Wald
    // interval of two proportions.
    std::vector<double> base = pairedDifferences(3000, 2100, 0, 5), cand = pairedDifferences(2500, 1700, 0, 6);
    const ConfidenceInterval d = bootstrapMeanDifferenceCi(base, cand, 17, 10000);
    const double pb = 0.7, pc = 0.68;
    const double half = 1.959963984540054 * std::sqrt(pb * (1 - pb) / 3000 + pc * (1 - pc) / 2500);
    EXPECT_NEAR(d.low, pc - pb - half, 0.002);
    EXPECT_NEAR(d.high, pc - pb + half, 0.002);
}

TEST(Bootstrap, ManyValuedAndSmallInputsKeepTheIndexDraws) {
    // More than 16 distinct values, or fewer than 64 values: the documented index-draw algorithm, to the bit.
    const std::vector<double> many = normalData(200, 0.3, 1.0, 12);
    const ConfidenceInterval a = bootstrapMeanCi(many, 5, 300), byHand = bootstrapByHand(many, 5, 300);
    EXPECT_DOUBLE_EQ(a.low, byHand.low);  // the same draws; (1 - level) / 2 is 0.025 to 1 ulp
    EXPECT_DOUBLE_EQ(a.high, byHand.high);
    const std::vector<double> small = pairedDifferences(63, 9, 4, 2);  // three values, but only 63 of them
    const ConfidenceInterval s = bootstrapMeanCi(small, 5, 300), sByHand = bootstrapByHand(small, 5, 300);
    EXPECT_DOUBLE_EQ(s.low, sByHand.low);
    EXPECT_DOUBLE_EQ(s.high, sByHand.high);
    // One value only: every resample has that mean.
    const ConfidenceInterval constant = bootstrapMeanCi(std::vector<double>(500, 0.25), 1, 100);
    EXPECT_EQ(constant.low, 0.25);
    EXPECT_EQ(constant.high, 0.25);
}

TEST(TInterval, PublishedQuantile) {
    // {1, 2, 3, 4, 5}: mean 3, s = sqrt(2.5), se = sqrt(0.5); t(0.975, 4) = 2.776445105 (tables).
    const ConfidenceInterval ci = tMeanCi(std::vector<double>{1, 2, 3, 4, 5});
    const double half = 2.7764451051977987 * std::sqrt(0.5);
    EXPECT_NEAR(ci.low, 3 - half, 1e-9);
    EXPECT_NEAR(ci.high, 3 + half, 1e-9);
    const ConfidenceInterval one = tMeanCi(std::vector<double>{7});
    EXPECT_EQ(one.low, 7.0);
    EXPECT_EQ(one.high, 7.0);
}

TEST(ConfidenceAnswer, ClearInsideOneBand) {
    ConfidenceAnswer a = confidenceAnswer(0.2, -0.1, 0.4, 500, 0.5, 1.5);
    EXPECT_EQ(a.confidence, Confidence::Clear);
    EXPECT_FALSE(a.samplesNeeded);
    EXPECT_STREQ(confidenceName(a.confidence), "clear");
    EXPECT_FALSE(a.explanation.empty());

    EXPECT_EQ(confidenceAnswer(0.8, 0.6, 1.0, 500, 0.5, 1.5).confidence, Confidence::Clear);    // monitor
    EXPECT_EQ(confidenceAnswer(3.0, 2.0, 4.0, 500, 0.5, 1.5).confidence, Confidence::Clear);    // investigate
    EXPECT_EQ(confidenceAnswer(-1.0, -2.0, 0.0, 500, 0.5, 1.5).confidence, Confidence::Clear);  // improvement: go
    EXPECT_EQ(confidenceAnswer(0.3, 0.3, 0.3, 500, 0.5, 1.5).confidence, Confidence::Clear);    // no variance
    // 1.5 itself is "monitor" (both ends inclusive), 0.5 too.
    EXPECT_EQ(confidenceAnswer(1.0, 0.5, 1.5, 500, 0.5, 1.5).confidence, Confidence::Clear);
}

TEST(ConfidenceAnswer, InconclusiveWithSamplesNeeded) {
    // Point 0.25, interval [-0.5, 1.0], 100 samples: crosses 0.5 only. The half-width facing it is 0.75, the
    // distance 0.25: n = 100 * (0.75 / 0.25)^2 = 900.
    ConfidenceAnswer a = confidenceAnswer(0.25, -0.5, 1.0, 100, 0.5, 1.5);
    EXPECT_EQ(a.confidence, Confidence::Inconclusive);
    EXPECT_STREQ(confidenceName(a.confidence), "inconclusive");
    ASSERT_TRUE(a.samplesNeeded);
    EXPECT_EQ(*a.samplesNeeded, 900u);
    EXPECT_NE(a.explanation.find("900"), std::string::npos);

    // Symmetric [0.25, 2.25] around 1.25, n = 64: both edges crossed; the nearer, 1.5 (d = 0.25, h = 1), decides:
    // 64 * (1 / 0.25)^2 = 1024 (0.5 alone would need 64 * (1 / 0.75)^2 = 113.8).
    a = confidenceAnswer(1.25, 0.25, 2.25, 64, 0.5, 1.5);
    EXPECT_EQ(a.confidence, Confidence::Inconclusive);
    ASSERT_TRUE(a.samplesNeeded);
    EXPECT_EQ(*a.samplesNeeded, 1024u);

    // Point 0.6 in "monitor", [0.55, 1.6], n = 100: only 1.5 is crossed (h = 1.0, d = 0.9): ceil(123.45...) = 124.
    a = confidenceAnswer(0.6, 0.55, 1.6, 100, 0.5, 1.5);
    ASSERT_TRUE(a.samplesNeeded);
    EXPECT_EQ(*a.samplesNeeded, 124u);

    // Other thresholds: go below 1, investigate above 2; point 0.5, [0, 1.5], n = 10: d = 0.5, h = 1 -> 40.
    a = confidenceAnswer(0.5, 0.0, 1.5, 10, 1.0, 2.0);
    ASSERT_TRUE(a.samplesNeeded);
    EXPECT_EQ(*a.samplesNeeded, 40u);
}

TEST(ConfidenceAnswer, PointOnTheEdgeHasNoSampleSize) {
    const ConfidenceAnswer a = confidenceAnswer(0.5, 0.25, 0.75, 100, 0.5, 1.5);
    EXPECT_EQ(a.confidence, Confidence::Inconclusive);
    EXPECT_FALSE(a.samplesNeeded);
    // The interval's end exactly on the edge it crosses: at least one more sample, never "the n you already have".
    const ConfidenceAnswer touching = confidenceAnswer(0.25, 0.0, 0.5, 100, 0.5, 1.5);
    ASSERT_TRUE(touching.samplesNeeded);
    EXPECT_EQ(*touching.samplesNeeded, 101u);
}

TEST(Equivalence, TostAgainstTheMargin) {
    const double z = 1.6448536269514722;  // the 95 % normal quantile: each one-sided test at 5 %
    EquivalenceResult e = equivalenceCheck(0.1, 0.2);
    EXPECT_TRUE(e.equivalent);
    EXPECT_NEAR(e.lowPct, 0.1 - 0.2 * z, 1e-12);   // -0.229
    EXPECT_NEAR(e.highPct, 0.1 + 0.2 * z, 1e-12);  // 0.429
    EXPECT_EQ(e.marginPct, 0.5);

    e = equivalenceCheck(-0.2, 0.2);  // low = -0.529 < -0.5
    EXPECT_FALSE(e.equivalent);
    e = equivalenceCheck(0.0, 0.31);  // +-0.5099: just outside
    EXPECT_FALSE(e.equivalent);
    e = equivalenceCheck(0.0, 0.30);  // +-0.4935: inside
    EXPECT_TRUE(e.equivalent);
    EXPECT_TRUE(equivalenceCheck(0.49, 0.0).equivalent);
    EXPECT_FALSE(equivalenceCheck(0.5, 0.0).equivalent);  // the margin itself is not inside
    e = equivalenceCheck(0.0, 0.5, 1.0);                  // a wider margin: +-0.822 inside +-1
    EXPECT_TRUE(e.equivalent);
    EXPECT_EQ(e.marginPct, 1.0);
    // alpha 0.025: the 97.5 % quantile, 1.96 * 0.25 = 0.49 -> inside 0.5 (with alpha 0.05 too)
    e = equivalenceCheck(0.0, 0.25, 0.5, 0.025);
    EXPECT_NEAR(e.highPct, 1.959963984540054 * 0.25, 1e-12);
}

}  // namespace
}  // namespace fp8dash
