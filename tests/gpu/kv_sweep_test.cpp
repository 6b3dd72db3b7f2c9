// The layer-by-layer KV sweep against an independent computation: a tiny in-memory KvLayerSource, quantised here with
// E4M3 rounding done by an exhaustive table built from the format's definition (not the codec), every figure
// (scales, saturated counts, K/V rel RMSE, attention output error, TVD, entropy) recomputed in double with this
// file's own loops; then the synthetic cache's properties, thread-count determinism and the massive-activation case.
#include "fp8dash/gpu/kv_quant.h"
#include "fp8dash/gpu/kv_source.h"
#include "fp8dash/gpu/kv_synthetic.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <vector>

namespace fp8dash::gpu {
namespace {

// ---- The reference codec: every finite E4M3 value from the bit layout (1 sign, 4 exponent bits with bias 7,
// 3 mantissa bits; exponent 0 subnormal; S.1111.111 is NaN), and round-to-nearest-even by search over the table,
// values past 448 clamped to 448 (saturate to finite).
struct E4m3Table {
    std::vector<double> positive;  // code c in [0, 126] -> its value
    E4m3Table() {
        for (int c = 0; c <= 126; ++c) {
            const int e = c >> 3;
            const int m = c & 7;
            positive.push_back(e == 0 ? m / 8.0 * std::ldexp(1.0, -6) : (1 + m / 8.0) * std::ldexp(1.0, e - 7));
        }
    }
    double round(double x) const {
        const double a = std::fabs(x);
        if (a >= 448.0) return std::copysign(448.0, x);
        std::size_t best = 0;
        for (std::size_t c = 1; c < positive.size(); ++c) {
            const double dBest = std::fabs(positive[best] - a);
            const double d = std::fabs(positive[c] - a);
            if (d < dBest || (d == dBest && c % 2 == 0))  // a tie goes to the even mantissa
                best = c;
        }
        return std::copysign(positive[best], x);
    }
};

const E4m3Table& table() {
    static const E4m3Table t;
    return t;
}

// What the cache stores and gives back for x at a scale: x / scale in float (as the codec divides), rounded, times
// the scale in float.
double roundTrip(float x, float scale) {
    const float scaled = x / scale;
    return static_cast<double>(static_cast<float>(table().round(scaled)) * scale);
}

// A tiny source: 2 layers x 2 heads x 64 tokens x 8 dims, seeded uniform data with one outlier channel in the keys;
// layer 1's keys reach ~900, past 448, and one value of layer 0 sits past 448 after the calibration prefix.
class MemorySource : public KvLayerSource {
public:
    static constexpr int kLayers = 2, kHeads = 2, kTokens = 64, kDim = 8;
    MemorySource() {
        std::mt19937 rng(11);
        std::uniform_real_distribution<float> u(-1.0f, 1.0f);
        for (int l = 0; l < kLayers; ++l) {
            std::vector<float>& k = keys[static_cast<std::size_t>(l)];
            std::vector<float>& v = values[static_cast<std::size_t>(l)];
            for (int h = 0; h < kHeads; ++h)
                for (int t = 0; t < kTokens; ++t)
                    for (int d = 0; d < kDim; ++d) {
                        const float outlier = d == 5 ? 12.0f : 1.0f;
                        k.push_back(u(rng) * outlier * (l == 1 ? 75.0f : 1.0f));
                        v.push_back(u(rng) * 0.5f + (d == 2 ? 0.3f : 0.0f));
                    }
        }
        values[0][static_cast<std::size_t>(1 * kTokens * kDim + 40 * kDim + 3)] = -500.0f;
    }
    KvShape shape() const override { return KvShape{kLayers, kHeads, kDim, kTokens}; }
    std::string kind() const override { return "dump"; }
    std::string description() const override { return "memory.safetensors (test)"; }
    void loadLayer(int layer, int tokens, std::vector<float>& k, std::vector<float>& v) override {
        ++loads;
        k.clear();
        v.clear();
        for (int h = 0; h < kHeads; ++h) {
            const std::size_t begin = static_cast<std::size_t>(h) * kTokens * kDim;
            const std::size_t end = begin + static_cast<std::size_t>(tokens) * kDim;
            k.insert(k.end(), keys[static_cast<std::size_t>(layer)].begin() + static_cast<std::ptrdiff_t>(begin),
                     keys[static_cast<std::size_t>(layer)].begin() + static_cast<std::ptrdiff_t>(end));
            v.insert(v.end(), values[static_cast<std::size_t>(layer)].begin() + static_cast<std::ptrdiff_t>(begin),
                     values[static_cast<std::size_t>(layer)].begin() + static_cast<std::ptrdiff_t>(end));
        }
    }
    const float* head(const std::vector<float>* side, int layer, int h) const {
        return side[layer].data() + static_cast<std::size_t>(h) * kTokens * kDim;
    }
    std::vector<float> keys[kLayers];
    std::vector<float> values[kLayers];
    int loads = 0;
};

// Softmax of beta * logits; returns the entropy.
double softmax(const std::vector<double>& logits, double beta, std::vector<double>& p) {
    double top = logits[0];
    for (double l : logits) top = std::max(top, l);
    p.assign(logits.size(), 0.0);
    double sum = 0;
    for (std::size_t t = 0; t < logits.size(); ++t) sum += (p[t] = std::exp(beta * (logits[t] - top)));
    double h = 0;
    for (double& x : p) {
        x /= sum;
        if (x > 0) h -= x * std::log(x);
    }
    return h;
}

struct Expected {
    double keyDiff = 0, keyRef = 0, valueDiff = 0, valueRef = 0;
    std::uint64_t keySat = 0, valueSat = 0;
    double outDiff = 0, outRef = 0, cosSum = 0, tvdSum = 0, tvdMax = 0, entropySum = 0;
    int rows = 0;
    std::vector<float> keyScales, valueScales;  // per (layer, head)
};

// The whole sweep for one (scaling, context), by the definitions in kv_quant.h, with this file's loops.
Expected expectedFor(const MemorySource& src, KvScaling scaling, int context, int maxContext, int calibration,
                     int queryRows, double targetEntropy, int temperatureTokens) {
    const int dim = MemorySource::kDim;
    Expected e;
    for (int l = 0; l < MemorySource::kLayers; ++l) {
        float kAmaxCal = 0, vAmaxCal = 0;
        for (int h = 0; h < MemorySource::kHeads; ++h)
            for (int i = 0; i < std::min(calibration, maxContext) * dim; ++i) {
                kAmaxCal = std::max(kAmaxCal, std::fabs(src.head(src.keys, l, h)[i]));
                vAmaxCal = std::max(vAmaxCal, std::fabs(src.head(src.values, l, h)[i]));
            }
        for (int h = 0; h < MemorySource::kHeads; ++h) {
            const float* k = src.head(src.keys, l, h);
            const float* v = src.head(src.values, l, h);
            float ks = 1, vs = 1;
            if (scaling == KvScaling::PerTensor) {
                ks = kAmaxCal / 200.0f;
                vs = vAmaxCal / 100.0f;
            } else if (scaling == KvScaling::PerHead) {
                float ka = 0, va = 0;
                for (int i = 0; i < maxContext * dim; ++i) {
                    ka = std::max(ka, std::fabs(k[i]));
                    va = std::max(va, std::fabs(v[i]));
                }
                ks = ka / 448.0f;
                vs = va / 448.0f;
            }
            e.keyScales.push_back(ks);
            e.valueScales.push_back(vs);
            const auto n = static_cast<std::size_t>(context * dim);
            std::vector<float> kq(n), vq(n);
            for (std::size_t i = 0; i < n; ++i) {
                kq[i] = static_cast<float>(roundTrip(k[i], ks));
                vq[i] = static_cast<float>(roundTrip(v[i], vs));
                e.keyDiff += (static_cast<double>(kq[i]) - k[i]) * (static_cast<double>(kq[i]) - k[i]);
                e.keyRef += static_cast<double>(k[i]) * k[i];
                e.valueDiff += (static_cast<double>(vq[i]) - v[i]) * (static_cast<double>(vq[i]) - v[i]);
                e.valueRef += static_cast<double>(v[i]) * v[i];
                e.keySat += std::fabs(k[i] / ks) > 448.0f ? 1 : 0;
                e.valueSat += std::fabs(v[i] / vs) > 448.0f ? 1 : 0;
            }
            // The query of a row: its key less the mean key of its tokens; the logits over `keys` for tokens 0..p.
            auto queryAt = [&](int p) {
                std::vector<double> q(dim, 0.0);
                for (int t = 0; t <= p; ++t)
                    for (int d = 0; d < dim; ++d) q[d] += k[t * dim + d];
                for (int d = 0; d < dim; ++d) q[d] = k[p * dim + d] - q[d] / (p + 1);
                return q;
            };
            auto logitsOver = [&](const std::vector<double>& q, const float* keys, int p) {
                std::vector<double> out(static_cast<std::size_t>(p + 1));
                for (int t = 0; t <= p; ++t) {
                    double s = 0;
                    for (int d = 0; d < dim; ++d) s += q[d] * keys[t * dim + d];
                    out[static_cast<std::size_t>(t)] = s / std::sqrt(static_cast<double>(dim));
                }
                return out;
            };
            // The head's temperature, by plain bisection on [0, 1e6] (the sweep uses Newton) on the reference row:
            // entropy falls as beta grows.
            const int r = std::min(temperatureTokens, context) - 1;
            const double target = std::min(targetEntropy, 0.5 * std::log(r + 1.0));
            const std::vector<double> referenceLogits = logitsOver(queryAt(r), k, r);
            std::vector<double> pe, pq;
            double beta = 1;
            if (target < std::log(r + 1.0)) {
                double lo = 0, hi = 1e6;
                for (int it = 0; it < 200; ++it) {
                    beta = 0.5 * (lo + hi);
                    (softmax(referenceLogits, beta, pe) > target ? lo : hi) = beta;
                }
            }
            const int rows = std::min(queryRows, context);
            for (int j = 0; j < rows; ++j) {
                const int p = (j + 1) * context / rows - 1;
                const std::vector<double> q = queryAt(p);
                const std::vector<double> exactLogits = logitsOver(q, k, p);
                const std::vector<double> fp8Logits = logitsOver(q, kq.data(), p);
                const double rowEntropy = softmax(exactLogits, beta, pe);
                softmax(fp8Logits, beta, pq);
                double tvd = 0;
                std::vector<double> o(dim, 0.0), oq(dim, 0.0);
                for (int t = 0; t <= p; ++t) {
                    tvd += 0.5 * std::fabs(pq[t] - pe[t]);
                    for (int d = 0; d < dim; ++d) {
                        o[d] += pe[t] * v[t * dim + d];
                        oq[d] += pq[t] * vq[static_cast<std::size_t>(t * dim + d)];
                    }
                }
                double diff = 0, ref = 0, app = 0, dot = 0;
                for (int d = 0; d < dim; ++d) {
                    diff += (oq[d] - o[d]) * (oq[d] - o[d]);
                    ref += o[d] * o[d];
                    app += oq[d] * oq[d];
                    dot += oq[d] * o[d];
                }
                e.outDiff += diff;
                e.outRef += ref;
                e.cosSum += dot / std::sqrt(ref * app);
                e.tvdSum += tvd;
                e.tvdMax = std::max(e.tvdMax, tvd);
                e.entropySum += rowEntropy;
                e.rows += 1;
            }
        }
    }
    return e;
}

TEST(KvSweep, FiguresOfADumpMatchAnIndependentComputation) {
    auto source = std::make_shared<MemorySource>();
    KvSweepConfig config;
    config.source = source;
    config.contexts = {17, 64};
    config.calibrationTokens = 8;
    config.queryRows = 5;
    config.targetEntropy = 1.5;
    config.temperatureTokens = 32;  // context 17 sets it on its own last row, context 64 on token 31's
    config.threads = 2;
    const KvSweepResult sweep = runKvQuantSweep(config);
    ASSERT_EQ(sweep.results.size(), 6u);
    EXPECT_EQ(source->loads, 2);  // one load per layer, whatever the number of points

    bool sawSaturation = false;
    for (const KvQuantResult& r : sweep.results) {
        SCOPED_TRACE(std::string(kvScalingName(r.scaling)) + " context " + std::to_string(r.context));
        const Expected e = expectedFor(*source, r.scaling, r.context, 64, 8, 5, 1.5, 32);
        auto near = [](double got, double want) { EXPECT_NEAR(got, want, 1e-9 * std::max(1.0, std::fabs(want))); };
        near(r.key.relRmse, std::sqrt(e.keyDiff / e.keyRef));
        near(r.value.relRmse, std::sqrt(e.valueDiff / e.valueRef));
        EXPECT_EQ(r.keySaturated, e.keySat);
        EXPECT_EQ(r.valueSaturated, e.valueSat);
        EXPECT_EQ(r.scales.key, e.keyScales);
        EXPECT_EQ(r.scales.value, e.valueScales);
        // The temperature is found to ~1e-9 in entropy by the sweep, to the last bit here: the attention figures
        // agree to that order.
        EXPECT_NEAR(r.attnOutRelRmse, std::sqrt(e.outDiff / e.outRef), 1e-6 * std::sqrt(e.outDiff / e.outRef) + 1e-12);
        EXPECT_NEAR(r.attnOutCosine, e.cosSum / e.rows, 1e-9);
        EXPECT_NEAR(r.attnWeightTvd, e.tvdSum / e.rows, 1e-6 * e.tvdSum / e.rows + 1e-12);
        EXPECT_NEAR(r.attnWeightTvdMax, e.tvdMax, 1e-6 * e.tvdMax + 1e-12);
        EXPECT_NEAR(r.attnEntropy, e.entropySum / e.rows, 1e-6);
        EXPECT_EQ(r.sourceKind, "dump");
        EXPECT_EQ(r.sourceDescription, "memory.safetensors (test)");
        EXPECT_EQ(r.sourceShape.tokens, 64);
        EXPECT_EQ(r.elements, 2u * 2u * 2u * 8u * static_cast<std::size_t>(r.context));
        sawSaturation = sawSaturation || r.keySaturated > 0;
    }
    // The data was built so that scale 1.0 saturates layer 1's keys and per_tensor's frozen scale the late -500.
    EXPECT_GT(sweep.results[1].keySaturated, 0u);
    EXPECT_GT(sweep.results[3].valueSaturated + sweep.results[2].valueSaturated, 0u);
    EXPECT_TRUE(sawSaturation);
}

TEST(KvSweep, AContextPastTheSourceIsRefusedWithItsName) {
    KvSweepConfig config;
    config.source = std::make_shared<MemorySource>();
    config.contexts = {65};
    try {
        runKvQuantSweep(config);
        FAIL() << "no exception";
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("memory.safetensors"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("64"), std::string::npos) << e.what();
    }
}

KvSweepConfig syntheticConfig() {
    KvSweepConfig config;
    config.shape = KvShape{4, 2, 64, 0};
    config.contexts = {512, 2048};
    config.calibrationTokens = 256;
    config.queryRows = 8;
    config.seed = 42;
    return config;
}

TEST(KvSweep, ResultsAreBitIdenticalForAnyThreadCount) {
    KvSweepConfig config = syntheticConfig();
    config.threads = 1;
    const KvSweepResult one = runKvQuantSweep(config);
    config.threads = 3;
    const KvSweepResult three = runKvQuantSweep(config);
    ASSERT_EQ(one.results.size(), 6u);
    ASSERT_EQ(three.results.size(), 6u);
    for (std::size_t i = 0; i < one.results.size(); ++i) {
        const KvQuantResult& a = one.results[i];
        const KvQuantResult& b = three.results[i];
        for (auto [x, y] :
             {std::pair{&a.key, &b.key}, std::pair{&a.value, &b.value}, std::pair{&a.combined, &b.combined}}) {
            EXPECT_EQ(x->relRmse, y->relRmse);
            EXPECT_EQ(x->maxAbsError, y->maxAbsError);
            EXPECT_EQ(x->cosine, y->cosine);
        }
        EXPECT_EQ(a.keySaturated, b.keySaturated);
        EXPECT_EQ(a.valueSaturated, b.valueSaturated);
        EXPECT_EQ(a.scales.key, b.scales.key);
        EXPECT_EQ(a.scales.value, b.scales.value);
        EXPECT_EQ(a.attnOutRelRmse, b.attnOutRelRmse);
        EXPECT_EQ(a.attnOutCosine, b.attnOutCosine);
        EXPECT_EQ(a.attnWeightTvd, b.attnWeightTvd);
        EXPECT_EQ(a.attnWeightTvdMax, b.attnWeightTvdMax);
        EXPECT_EQ(a.attnEntropy, b.attnEntropy);
        EXPECT_EQ(a.elements, b.elements);
    }
}

TEST(KvSweep, SyntheticLayersAreIndependentPrefixStableAndThreadFree) {
    const KvShape shape{3, 2, 16, 300};
    SyntheticKvSource a(shape, 5, {}, 1);
    SyntheticKvSource b(shape, 5, {}, 4);
    std::vector<float> ka, va, kb, vb;
    a.loadLayer(2, 300, ka, va);  // layer 2 first: it needs nothing of layers 0 and 1
    b.loadLayer(2, 100, kb, vb);
    ASSERT_EQ(ka.size(), 2u * 300 * 16);
    ASSERT_EQ(kb.size(), 2u * 100 * 16);
    for (int h = 0; h < 2; ++h)
        for (int i = 0; i < 100 * 16; ++i) {
            ASSERT_EQ(ka[static_cast<std::size_t>(h * 300 * 16 + i)], kb[static_cast<std::size_t>(h * 100 * 16 + i)]);
            ASSERT_EQ(va[static_cast<std::size_t>(h * 300 * 16 + i)], vb[static_cast<std::size_t>(h * 100 * 16 + i)]);
        }
    EXPECT_EQ(a.kind(), "synthetic");
    EXPECT_THROW(a.loadLayer(3, 10, ka, va), std::invalid_argument);
    EXPECT_THROW(a.loadLayer(0, 301, ka, va), std::invalid_argument);
    EXPECT_THROW(SyntheticKvSource(KvShape{1, 1, 7, 1}, 1), std::invalid_argument);  // RoPE needs pairs
}

// The default synthetic cache: E4M3's rounding alone (~2-3 % relative RMSE), no value past 448, so `none` sits with
// the scaled modes; attention as peaked as asked.
TEST(KvSweep, SyntheticDefaultsLookLikeARealCache) {
    const KvSweepConfig config = syntheticConfig();
    const KvSweepResult sweep = runKvQuantSweep(config);
    ASSERT_EQ(sweep.results.size(), 6u);
    for (std::size_t c = 0; c < 2; ++c) {
        const KvQuantResult& none = sweep.results[c];
        const KvQuantResult& perTensor = sweep.results[2 + c];
        const KvQuantResult& perHead = sweep.results[4 + c];
        SCOPED_TRACE("context " + std::to_string(none.context));
        for (const KvQuantResult* r : {&none, &perTensor, &perHead}) {
            EXPECT_GT(r->key.relRmse, 0.02);
            EXPECT_LT(r->key.relRmse, 0.04);
            EXPECT_GT(r->value.relRmse, 0.02);
            EXPECT_LT(r->value.relRmse, 0.04);
            EXPECT_LT(r->attnWeightTvd, 0.1);
            EXPECT_GT(r->attnOutCosine, 0.99);
            // Peaked: far below the uniform row's ln(tokens) (6.2 nats at 512 on average over the rows).
            EXPECT_GT(r->attnEntropy, 1.0);
            EXPECT_LT(r->attnEntropy, 4.5);
        }
        EXPECT_EQ(none.keySaturated, 0u);
        EXPECT_EQ(none.valueSaturated, 0u);
        EXPECT_LT(none.key.relRmse, 1.1 * perTensor.key.relRmse);
        EXPECT_LT(none.attnOutRelRmse, 1.5 * perTensor.attnOutRelRmse);
        EXPECT_EQ(none.sourceKind, "synthetic");
        EXPECT_EQ(none.sourceShape.tokens, 2048);
        EXPECT_EQ(none.scales.key, std::vector<float>(8, 1.0f));
    }
}

// massiveLayer: one layer's values pass 448, scale 1.0 clamps them, and `none` stands apart; the scaled modes do not
// notice.
TEST(KvSweep, MassiveActivationsSaturateScaleOne) {
    KvSweepConfig config = syntheticConfig();
    config.generator.massiveLayer = 3;
    const KvSweepResult sweep = runKvQuantSweep(config);
    ASSERT_EQ(sweep.results.size(), 6u);
    const KvQuantResult& none = sweep.results[1];
    const KvQuantResult& perTensor = sweep.results[3];
    EXPECT_GT(none.keySaturated, 1000u);
    EXPECT_EQ(perTensor.keySaturated, 0u);
    EXPECT_GT(none.key.relRmse, 5.0 * perTensor.key.relRmse);
    EXPECT_GT(none.attnOutRelRmse, 2.0 * perTensor.attnOutRelRmse);
    EXPECT_LT(perTensor.key.relRmse, 0.04);
    EXPECT_NE(none.sourceDescription.find("massive"), std::string::npos);
}

}  // namespace
}  // namespace fp8dash::gpu
