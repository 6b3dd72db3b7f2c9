// The sweep's attention measurement (kv_quant.h, exactAttention / compareAttention): sampled causal query rows of
// one head, exact (BF16 cache) against FP8 (dequantised cache), in double.
#include "fp8dash/gpu/kv_quant.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <vector>

namespace fp8dash::gpu {
namespace {

// logits[t] = <q, keys[t]> / sqrt(dim) for t in [0, count).
void logitsOf(const std::vector<double>& query, const float* keys, std::size_t count, std::size_t dim,
              std::vector<double>& logits) {
    logits.resize(count);
    const double invSqrtD = 1.0 / std::sqrt(static_cast<double>(dim));
    for (std::size_t t = 0; t < count; ++t) {
        const float* k = keys + t * dim;
        // Four partial sums: independent chains the CPU overlaps (a single chain waits on each add).
        double dot[4] = {0, 0, 0, 0};
        std::size_t d = 0;
        for (; d + 4 <= dim; d += 4)
            for (std::size_t lane = 0; lane < 4; ++lane)
                dot[lane] += query[d + lane] * static_cast<double>(k[d + lane]);
        for (; d < dim; ++d) dot[0] += query[d] * static_cast<double>(k[d]);
        logits[t] = ((dot[0] + dot[1]) + (dot[2] + dot[3])) * invSqrtD;
    }
}

// p = softmax(beta * logits) (max subtracted first, so exp() stays in range); returns its entropy in nats and sets
// variance to Var_p(logits), so dH/dbeta = -beta * variance.
double softmaxAt(const std::vector<double>& logits, double beta, std::vector<double>& p, double& variance) {
    const double maxLogit = *std::max_element(logits.begin(), logits.end());
    p.resize(logits.size());
    double sum = 0;
    for (std::size_t t = 0; t < logits.size(); ++t) {
        p[t] = std::exp(beta * (logits[t] - maxLogit));
        sum += p[t];
    }
    double mean = 0;
    double meanSquare = 0;
    double entropy = 0;
    for (std::size_t t = 0; t < logits.size(); ++t) {
        p[t] /= sum;
        const double centred = logits[t] - maxLogit;
        mean += p[t] * centred;
        meanSquare += p[t] * centred * centred;
        if (p[t] > 0) entropy -= p[t] * std::log(p[t]);
    }
    variance = std::max(0.0, meanSquare - mean * mean);
    return entropy;
}

// The beta >= 0 at which softmax(beta * logits) has the target entropy: a bracket [lo, hi] by doubling, then Newton
// steps that fall back to bisection when they leave it. Logits without spread keep beta = 1 (every beta gives the
// uniform row).
double temperatureFor(const std::vector<double>& logits, double target, std::vector<double>& p) {
    double variance = 0;
    const double spread =
        *std::max_element(logits.begin(), logits.end()) - *std::min_element(logits.begin(), logits.end());
    if (!(spread > 0) || !(target < std::log(static_cast<double>(logits.size())))) return 1.0;
    double lo = 0;
    double hi = 1;
    for (int i = 0; i < 200 && softmaxAt(logits, hi, p, variance) > target; ++i) {
        lo = hi;
        hi *= 2;
    }
    double beta = 0.5 * (lo + hi);
    for (int i = 0; i < 60; ++i) {
        const double entropy = softmaxAt(logits, beta, p, variance);
        const double error = entropy - target;
        if (std::fabs(error) < 1e-9) break;
        if (error > 0)
            lo = beta;
        else
            hi = beta;
        const double slope = -beta * variance;
        double next = slope < 0 ? beta - error / slope : 0.5 * (lo + hi);
        if (!(next > lo && next < hi)) next = 0.5 * (lo + hi);
        beta = next;
    }
    return beta;
}

void weightedSum(const std::vector<double>& p, const float* values, std::size_t dim, std::vector<double>& out) {
    out.assign(dim, 0.0);
    for (std::size_t t = 0; t < p.size(); ++t) {
        const float* v = values + t * dim;
        for (std::size_t d = 0; d < dim; ++d) out[d] += p[t] * static_cast<double>(v[d]);
    }
}

void checkInputs(std::span<const float> keys, std::span<const float> values, int context, int headDim) {
    if (context < 1 || headDim < 1)
        throw std::invalid_argument("kv_quant: attention needs at least one token and one dimension");
    const std::size_t n = static_cast<std::size_t>(context) * static_cast<std::size_t>(headDim);
    if (keys.size() < n || values.size() < n)
        throw std::invalid_argument("kv_quant: attention inputs are smaller than context * headDim");
}

}  // namespace

void AttentionSums::merge(const AttentionSums& other) {
    diffSquares += other.diffSquares;
    refSquares += other.refSquares;
    cosineSum += other.cosineSum;
    tvdSum += other.tvdSum;
    tvdMax = std::max(tvdMax, other.tvdMax);
    entropySum += other.entropySum;
    rows += other.rows;
}

ExactAttention exactAttention(std::span<const float> keys, std::span<const float> values, int context, int headDim,
                              int queryRows, double targetEntropy, int temperatureTokens) {
    checkInputs(keys, values, context, headDim);
    if (queryRows < 1 || temperatureTokens < 1)
        throw std::invalid_argument("kv_quant: attention needs at least one query row and one temperature token");
    const auto dim = static_cast<std::size_t>(headDim);
    const int rows = std::min(queryRows, context);
    ExactAttention exact;
    exact.headDim = headDim;
    std::vector<double> logits;
    std::vector<double> p;
    // The query of a row: its key less the mean key of the row's tokens, unscaled.
    // The sum of the keys of tokens 0 .. position, kept running so each row adds only its new tokens.
    std::vector<double> keySum(dim, 0.0);
    std::size_t summed = 0;  // tokens in keySum
    auto queryAt = [&](std::size_t position) {
        if (summed > position + 1) {
            std::fill(keySum.begin(), keySum.end(), 0.0);
            summed = 0;
        }
        for (; summed <= position; ++summed)
            for (std::size_t d = 0; d < dim; ++d) keySum[d] += static_cast<double>(keys[summed * dim + d]);
        const auto count = static_cast<double>(position + 1);
        std::vector<double> query(dim);
        for (std::size_t d = 0; d < dim; ++d)
            query[d] = static_cast<double>(keys[position * dim + d]) - keySum[d] / count;
        return query;
    };
    // One temperature per head, as a trained head has: set on the reference row (the last of the first
    // min(temperatureTokens, context) tokens) to reach the target entropy there, then used for every row, so longer
    // rows spread their weight as real attention does.
    const auto reference = static_cast<std::size_t>(std::min(temperatureTokens, context) - 1);
    {
        const std::vector<double> query = queryAt(reference);
        logitsOf(query, keys.data(), reference + 1, dim, logits);
        std::fill(keySum.begin(), keySum.end(), 0.0);  // the rows start again from token 0
        summed = 0;
        const double target = std::min(targetEntropy, 0.5 * std::log(static_cast<double>(reference + 1)));
        exact.beta = temperatureFor(logits, target, p);
    }
    for (int j = 0; j < rows; ++j) {
        const auto position = static_cast<std::size_t>((static_cast<long long>(j) + 1) * context / rows - 1);
        const std::size_t count = position + 1;  // causal: tokens 0 .. position
        std::vector<double> query = queryAt(position);
        for (double& q : query) q *= exact.beta;
        logitsOf(query, keys.data(), count, dim, logits);
        double variance = 0;
        const double entropy = softmaxAt(logits, 1.0, p, variance);
        std::vector<double> out;
        weightedSum(p, values.data(), dim, out);
        exact.positions.push_back(position);
        exact.queries.push_back(std::move(query));
        exact.weights.push_back(p);
        exact.outputs.push_back(std::move(out));
        exact.entropies.push_back(entropy);
    }
    return exact;
}

AttentionSums compareAttention(const ExactAttention& exact, std::span<const float> approxKeys,
                               std::span<const float> approxValues) {
    const auto dim = static_cast<std::size_t>(exact.headDim);
    AttentionSums sums;
    std::vector<double> logits;
    std::vector<double> approx;
    std::vector<double> out;
    for (std::size_t r = 0; r < exact.positions.size(); ++r) {
        const std::size_t count = exact.positions[r] + 1;
        if (approxKeys.size() < count * dim || approxValues.size() < count * dim)
            throw std::invalid_argument("kv_quant: attention inputs are smaller than the rows' tokens");
        logitsOf(exact.queries[r], approxKeys.data(), count, dim, logits);
        double variance = 0;
        softmaxAt(logits, 1.0, approx, variance);
        const std::vector<double>& p = exact.weights[r];
        double tvd = 0;
        for (std::size_t t = 0; t < count; ++t) tvd += std::fabs(approx[t] - p[t]);
        tvd *= 0.5;
        weightedSum(approx, approxValues.data(), dim, out);
        const std::vector<double>& o = exact.outputs[r];
        double diff = 0;
        double ref = 0;
        double app = 0;
        double dot = 0;
        for (std::size_t d = 0; d < dim; ++d) {
            diff += (out[d] - o[d]) * (out[d] - o[d]);
            ref += o[d] * o[d];
            app += out[d] * out[d];
            dot += out[d] * o[d];
        }
        const double denominator = std::sqrt(ref) * std::sqrt(app);
        sums.diffSquares += diff;
        sums.refSquares += ref;
        sums.cosineSum += denominator > 0 ? dot / denominator : (ref == 0 && app == 0 ? 1.0 : 0.0);
        sums.tvdSum += tvd;
        sums.tvdMax = std::max(sums.tvdMax, tvd);
        sums.entropySum += exact.entropies[r];
        sums.rows += 1;
    }
    return sums;
}

}  // namespace fp8dash::gpu
