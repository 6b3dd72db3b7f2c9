#pragma once
// How sure the KV sweep's attention-output error is (kv_interval.cpp): a 95 % confidence interval for one sweep point
// and for the difference between two scaling modes at the same context, so the headline says that modes differ only
// where they really do.
//
// The sampling unit is the (layer, head): the sweep samples query rows inside each head, and rows of one head share
// its temperature, its outlier channels and its scales, so they are not independent; heads are (the synthetic cache
// draws each head's gains independently, and a dump's heads are distinct learned heads). The figure
// e = sqrt(Q), Q = sum_c D_c / sum_c R_c (D_c: the head's sum over its rows of ||o_fp8 - o||^2, R_c: of ||o||^2), is a
// ratio estimator; its variance comes from the linearised (sandwich) estimator over the n heads, with the HC3
// leverage correction h_c = R_c / sum R (a head with much of the weight hides its own residual),
//     var(Q) = sum_c ((D_c - Q R_c) / (1 - h_c))^2 / (sum_c R_c)^2,
// the interval is exp(log Q +- t(0.975, n - 1) * sqrt(var(Q)) / Q), square-rooted: on the log scale because Q is a
// positive ratio whose distribution is skewed when a few heads carry most of the error, so the interval stays above
// zero and stretches upwards. The difference of two modes e_A - e_B over the same heads and rows (the exact
// outputs R_c are shared) linearises each term the same way, paired by head:
//     z_c = (D_A,c - Q_A R_c) / (2 e_A sum R) - (D_B,c - Q_B R_c) / (2 e_B sum R),
// var = sum (z_c / (1 - h_c))^2, interval = e_A - e_B +- t * sqrt(var). Pairing cancels what both modes share (which
// rows are hard), so differences are resolved far more sharply than the two intervals side by side suggest.
// Pure functions; thread-safe.

#include <cstddef>
#include <limits>
#include <optional>
#include <vector>

namespace fp8dash::gpu {

// One sweep point's attention sums per (layer, head), layer-major (the heads of layer 0, then of layer 1, ...).
struct AttentionHeadSums {
    std::vector<double> diffSquares;  // per head: sum over its sampled rows of ||o_fp8 - o||^2
    std::vector<double> refSquares;   // per head: sum over its sampled rows of ||o||^2
};

struct KvInterval {
    double low = std::numeric_limits<double>::quiet_NaN();
    double high = std::numeric_limits<double>::quiet_NaN();
    bool valid() const { return low == low && high == high; }  // not NaN
    bool containsZero() const { return valid() && low <= 0 && high >= 0; }
};

struct KvDifference {
    double difference = 0;  // e_A - e_B (fractions)
    KvInterval ci95;
};

// The 0.975 quantile of Student's t with df degrees of freedom (Boost.Math); NaN for df < 1.
double studentT975(int df);

// The 95 % interval of sqrt(sum D / sum R) over the heads; invalid (NaN) with fewer than two heads, mismatched sizes
// or sum R = 0. All D zero gives [0, 0].
KvInterval attnOutInterval(const AttentionHeadSums& heads);

// e_A - e_B and its paired 95 % interval over the same heads (a and b must hold the same heads with the same
// refSquares: the same context of the same sweep); nullopt when they do not match or have fewer than two heads.
std::optional<KvDifference> attnOutDifference(const AttentionHeadSums& a, const AttentionHeadSums& b);

}  // namespace fp8dash::gpu
