#pragma once
// The statistics of comparing two runs (../shared/notes/statistics-and-samples.md): paired and unpaired
// tests, seeded bootstrap intervals, the equivalence check against the "go" margin, and how many samples would
// decide. Distributions come from Boost.Math (Debian's libboost-dev), not hand-written special functions.
// Plain data and pure functions; every function is thread-safe and deterministic (the bootstrap takes its seed).

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace fp8dash {

// Exact two-sided McNemar test on the discordant pairs: b01 = right only in the candidate (FP8), b10 = right only
// in the baseline. p = min(1, 2 * P[X <= min(b01, b10)]) for X ~ Binomial(b01 + b10, 1/2); 1 when both are 0.
double mcnemarExactPValue(std::uint64_t b01, std::uint64_t b10);

struct ConfidenceInterval {
    double low = 0;
    double high = 0;
    double level = 0.95;
};

// Percentile bootstrap of the mean of `values` (e.g. paired differences candidate - baseline): `iterations`
// resamples with replacement drawn from std::mt19937_64(seed); the (1-level)/2 and (1+level)/2 quantiles of the
// resampled means (linear interpolation between order statistics). Empty input: {0, 0}; a non-finite value: NaN.
// Reproducible across standard libraries: an index is the raw generator output modulo n (outputs below 2^64 mod n
// rejected, so unbiased), never std::uniform_int_distribution, whose algorithm each standard library picks.
// Few-valued inputs (at most 16 distinct values among at least 64, e.g. paired 0/1 metrics, whose differences are
// -1, 0 or +1) are resampled by counts instead: each resample draws the counts of the distinct values from
// Multinomial(n, observed frequencies) as sequential conditional binomials, k - 1 draws instead of n, with
// Boost.Random's binomial_distribution over the same generator (fixed code, the same numbers on every standard library;
// not std::binomial_distribution, whose algorithm each library picks). The resampled mean has exactly the same
// distribution as with index draws, but the random stream differs: seeded intervals of such inputs differ from
// the index-draw intervals by Monte Carlo error; intervals of many-valued or small inputs are unchanged.
ConfidenceInterval bootstrapMeanCi(std::span<const double> values, std::uint64_t seed, int iterations = 10000,
                                   double level = 0.95);
// Unpaired: the difference of means (candidate - baseline), each side resampled independently from one generator
// (each side by counts when it is few-valued, as above).
ConfidenceInterval bootstrapMeanDifferenceCi(std::span<const double> baseline, std::span<const double> candidate,
                                             std::uint64_t seed, int iterations = 10000, double level = 0.95);
// Student t interval of the mean (for comparison with the bootstrap on normal data). n < 2: {mean, mean}.
ConfidenceInterval tMeanCi(std::span<const double> values, double level = 0.95);

struct RankTest {
    double statistic = 0;  // W+ (Wilcoxon) or U of the candidate (Mann-Whitney)
    double z = 0;          // the normal approximation's z (tie- and continuity-corrected); 0 when exact
    double pValue = 1;     // two-sided
    std::uint64_t n = 0;   // pairs with a non-zero difference (Wilcoxon) or n1 + n2 (Mann-Whitney)
    bool exact = false;    // exact distribution (small n, no ties) rather than the normal approximation
};
// Exact distributions: Wilcoxon for n <= 50 non-zero differences without tied magnitudes, Mann-Whitney for
// n1 * n2 <= 2500 without ties; otherwise the normal approximation with the tie correction of the variance and a
// continuity correction of 0.5. Non-finite values are left out.
// Wilcoxon signed-rank test on paired differences (zeros dropped, Pratt not used; average ranks for ties).
RankTest wilcoxonSignedRank(std::span<const double> differences);
// Mann-Whitney U test (two-sided, average ranks for ties).
RankTest mannWhitneyU(std::span<const double> baseline, std::span<const double> candidate);

// Bands of the degradation (DESIGN.md): go < 0.5 %, monitor 0.5-1.5 %, investigate > 1.5 % (edges from the
// thresholds in use). A degradation interval [lowPct, highPct] is "clear" when both ends fall in the same band,
// "inconclusive" when it straddles an edge.
enum class Confidence { Clear, Inconclusive };
const char* confidenceName(Confidence c);  // "clear", "inconclusive" (the JSON spelling)
// The words for people (glossary "Settled / unsettled"): whether the 95% interval stays inside one verdict band
// ("settled") or crosses a band edge ("unsettled"). "Significant" is the other question: whether the interval of
// the change excludes 0.
const char* bandWords(Confidence c);  // "settled", "unsettled"

// What an interval of the loss (the degradation before it is clamped at 0: -delta where higher is better, +delta
// where lower is better) says about the change: a drop when the whole interval lies above 0, an improvement when it
// lies below 0, no significant change when it holds 0. Every sentence about a change is chosen from this.
enum class ChangeFinding { SignificantDrop, NoSignificantChange, SignificantImprovement };
ChangeFinding changeFinding(double lossLowPct, double lossHighPct);
const char* changeFindingName(ChangeFinding f);   // "significant_drop", "no_significant_change", ...
const char* changeFindingWords(ChangeFinding f);  // "a significant drop", "no significant change", ...

// Thousands separators: 10042 -> "10,042".
std::string groupedCount(std::uint64_t n);

struct ConfidenceAnswer {
    Confidence confidence = Confidence::Clear;
    double lowPct = 0;   // the interval of the loss, % of |baseline| (loss = -delta where higher is better; may be
    double highPct = 0;  // negative: the degradation interval is [max(0, low), max(0, high)])
    ChangeFinding change = ChangeFinding::NoSignificantChange;  // what [lowPct, highPct] says
    // When inconclusive: the samples (per side, or pairs) that would shrink the interval's half-width to the
    // distance from the point estimate to the nearest band edge, at the observed variance; nullopt when the point
    // sits on an edge, the variance is 0, or the count would exceed the task's size (then decidable is false).
    std::optional<std::uint64_t> samplesNeeded;
    // Whether the task can settle its band: true when clear or when a sample count is given; false when the
    // estimate sits on an edge or more samples than the task has would be needed; nullopt when neither is known
    // (no sample count to scale from).
    std::optional<bool> decidable = true;
    std::optional<std::uint64_t> taskSize;  // the task's size the count was held against, when known
    std::string explanation;                // the sentences for a tooltip, chosen from the interval
};

// What confidenceAnswer knows of the task beyond its interval.
struct ConfidenceContext {
    bool higherIsBetter = true;  // only for the wording: Δ = -loss where higher is better
    // The task's size (lm-eval's n-samples.original, else the sample logs' count): no count above it is given.
    std::optional<std::uint64_t> taskSize;
};
// degradationPct: the point estimate, -delta % (not clamped at 0, so that it sits inside [lowPct, highPct]);
// n: the samples (pairs, or per side) the interval came from. Bands as verdictForDegradation draws them, negative
// degradation counting as "go". samplesNeeded: for each edge the interval crosses, the interval's half-width on the
// side facing that edge (the half-width of a symmetric interval) scales as 1/sqrt(n); the n at which it equals the
// point's distance d from the edge is ceil(n * (h/d)^2), at least n + 1; the largest over the crossed edges.
// The count is never above ctx.taskSize: beyond it the answer says that the task cannot decide it.
ConfidenceAnswer confidenceAnswer(double degradationPct, double lowPct, double highPct, std::uint64_t n,
                                  double goBelowPct, double investigateAbovePct, const ConfidenceContext& ctx = {});

// Two one-sided tests against +-marginPct (the "go" band, 0.5 %) on the relative delta: equivalence is shown when
// the (1 - 2 alpha) interval of the delta, in % of the baseline, lies strictly inside (-margin, +margin). The
// interval is delta +- z(1 - alpha) * standardErrorPct (normal, i.e. large-sample).
struct EquivalenceResult {
    bool equivalent = false;  // "go" is shown, not just "no significant drop"
    double lowPct = 0;        // the 90 % interval of the delta in %
    double highPct = 0;
    double marginPct = 0.5;
};
EquivalenceResult equivalenceCheck(double deltaPct, double standardErrorPct, double marginPct = 0.5,
                                   double alpha = 0.05);
// The sentence for an equivalence check, chosen from its interval: "equivalence shown: ..." when it lies inside the
// margin; else "equivalence not shown: " and what the interval says (a significant drop, a significant improvement
// beyond the margin, or no significant change with an interval wider than the margin), with the interval.
std::string equivalenceStatement(const EquivalenceResult& e, bool higherIsBetter = true);

// Normal quantile and the binomial CDF through Boost.Math, for callers that need them.
double normalQuantile(double p);
double binomialCdf(std::uint64_t k, std::uint64_t n, double p);

}  // namespace fp8dash
