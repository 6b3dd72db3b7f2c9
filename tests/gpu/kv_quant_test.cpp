// The KV-cache quantisation experiment (CPU): quantisation of hand-made tensors against a direct double-precision
// computation through the codec's scalar encode, vLLM's scale rule, saturation, the metrics and the attention error
// against hand-computed numbers and a direct loop, and the sweep's determinism, ordering and cancellation.
#include "fp8dash/gpu/kv_quant.h"

#include "fp8dash/gpu/fp8_codec.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace fp8dash::gpu {
namespace {

// 2 layers x 2 heads x 3 tokens x 4 dims, hand-made: ordinary values, a tiny one (E4M3 subnormal at scale 1), and
// values past 448 in layer 1 so scale 1.0 saturates there.
KvCache handMadeCache() {
    KvCache cache;
    cache.shape = KvShape{2, 2, 4, 3};
    cache.keys = {
        // layer 0, head 0
        0.5f,
        -1.25f,
        3.0f,
        0.001f,
        2.0f,
        -0.75f,
        10.0f,
        0.125f,
        -4.0f,
        1.0f,
        0.3f,
        -0.2f,
        // layer 0, head 1
        0.05f,
        0.1f,
        -0.07f,
        0.02f,
        0.01f,
        -0.03f,
        0.2f,
        0.04f,
        0.06f,
        -0.08f,
        0.09f,
        0.015f,
        // layer 1, head 0
        100.0f,
        -600.0f,
        50.0f,
        1.0f,
        460.0f,
        -2.0f,
        3.0f,
        1000.0f,
        -5.0f,
        7.0f,
        0.5f,
        20.0f,
        // layer 1, head 1
        1.5f,
        -2.5f,
        3.5f,
        -4.5f,
        0.25f,
        0.75f,
        -1.0f,
        8.0f,
        12.0f,
        -16.0f,
        0.0f,
        2.0f,
    };
    cache.values.resize(cache.keys.size());
    for (std::size_t i = 0; i < cache.keys.size(); ++i)
        cache.values[i] = -0.5f * cache.keys[(i * 7) % cache.keys.size()];
    return cache;
}

// The expected dequantised value, computed directly: x / scale in double (then to float, which is the correctly
// rounded float quotient), the codec's scalar encode with Finite saturation, decode, times the scale in double.
float directRoundTrip(float x, float scale) {
    const auto scaled = static_cast<float>(static_cast<double>(x) / static_cast<double>(scale));
    const std::uint8_t code = encodeFp8(scaled, Fp8Format::E4M3, Saturation::Finite);
    return static_cast<float>(static_cast<double>(decodeFp8(code, Fp8Format::E4M3)) * static_cast<double>(scale));
}

float amaxOfLayer(const std::vector<float>& data, const KvShape& shape, int layer, int tokens) {
    float amax = 0;
    for (int head = 0; head < shape.kvHeads; ++head)
        for (int t = 0; t < tokens; ++t)
            for (int d = 0; d < shape.headDim; ++d)
                amax = std::max(amax, std::fabs(data[shape.offset(layer, head, t) + static_cast<std::size_t>(d)]));
    return amax;
}

TEST(KvQuant, ScalingNames) {
    EXPECT_STREQ(kvScalingName(KvScaling::None), "none");
    EXPECT_STREQ(kvScalingName(KvScaling::PerTensor), "per_tensor");
    EXPECT_STREQ(kvScalingName(KvScaling::PerHead), "per_head");
}

TEST(KvQuant, RoundToBf16TiesToEven) {
    EXPECT_EQ(roundToBf16(1.0f), 1.0f);
    EXPECT_EQ(roundToBf16(1.0f + 0x1p-8f), 1.0f);                       // halfway, 1.0 is even
    EXPECT_EQ(roundToBf16(1.0f + 3 * 0x1p-8f), 1.0f + 0x1p-6f);         // halfway, rounds up to the even neighbour
    EXPECT_EQ(roundToBf16(1.0f + 0x1p-8f + 0x1p-20f), 1.0f + 0x1p-7f);  // above halfway
    EXPECT_EQ(roundToBf16(-1.0f - 0x1p-9f), -1.0f);
    EXPECT_TRUE(std::isnan(roundToBf16(NAN)));
    EXPECT_EQ(roundToBf16(INFINITY), INFINITY);
}

TEST(KvQuant, ScalesFollowVllmAndTheOracle) {
    const KvCache cache = handMadeCache();
    const KvShape& shape = cache.shape;

    const KvScales none = computeKvScales(cache, KvScaling::None, 1024);
    for (float s : none.key) EXPECT_EQ(s, 1.0f);
    for (float s : none.value) EXPECT_EQ(s, 1.0f);

    const KvScales perTensor = computeKvScales(cache, KvScaling::PerTensor, 1024);
    for (int layer = 0; layer < shape.layers; ++layer) {
        const float keyAmax = amaxOfLayer(cache.keys, shape, layer, shape.tokens);
        const float valueAmax = amaxOfLayer(cache.values, shape, layer, shape.tokens);
        for (int head = 0; head < shape.kvHeads; ++head) {
            EXPECT_EQ(perTensor.keyScale(layer, head), keyAmax / 200.0f);
            EXPECT_EQ(perTensor.valueScale(layer, head), valueAmax / 100.0f);
        }
    }
    EXPECT_EQ(perTensor.keyScale(1, 0), 1000.0f / 200.0f);  // by hand: layer 1's |K| max is 1000
    EXPECT_EQ(perTensor.keyScale(0, 1), 10.0f / 200.0f);    // layer 0's is 10 (head 0), shared by head 1

    const KvScales perHead = computeKvScales(cache, KvScaling::PerHead, 1024);
    EXPECT_EQ(perHead.keyScale(0, 0), 10.0f / 448.0f);
    EXPECT_EQ(perHead.keyScale(0, 1), 0.2f / 448.0f);
    EXPECT_EQ(perHead.keyScale(1, 0), 1000.0f / 448.0f);
    EXPECT_EQ(perHead.keyScale(1, 1), 16.0f / 448.0f);
}

TEST(KvQuant, PerTensorScaleIsFixedAfterTheFirstPass) {
    // Calibrated on the first token only. Layer 1: first-token |K| max 600, scale 3; its later 1000 still fits under
    // 448 * 3 = 1344, which is the headroom /200 leaves.
    const KvCache cache = handMadeCache();
    const KvScales scales = computeKvScales(cache, KvScaling::PerTensor, 1);
    EXPECT_EQ(scales.keyScale(1, 0), 600.0f / 200.0f);
    EXPECT_EQ(scales.keyScale(0, 0), 3.0f / 200.0f);  // layer 0, token 0: max(|0.5|, |-1.25|, |3|, ..., head 1's 0.1)
    // Layer 0's token 2 holds 10, past 448 * 0.015 = 6.72: frozen scales saturate later outliers.
    const QuantizedKv q = quantizeKv(cache, scales, 3);
    const KvCache back = dequantizeKv(q);
    const std::size_t i = cache.shape.offset(0, 0, 1) + 2;
    ASSERT_EQ(cache.keys[i], 10.0f);
    EXPECT_EQ(back.keys[i], static_cast<float>(448.0 * static_cast<double>(3.0f / 200.0f)));
}

TEST(KvQuant, RoundTripEqualsDirectComputationInEveryMode) {
    const KvCache cache = handMadeCache();
    const KvShape& shape = cache.shape;
    for (KvScaling scaling : {KvScaling::None, KvScaling::PerTensor, KvScaling::PerHead}) {
        SCOPED_TRACE(kvScalingName(scaling));
        const KvScales scales = computeKvScales(cache, scaling, 1024);
        const QuantizedKv quantized = quantizeKv(cache, scales, shape.tokens);
        const KvCache back = dequantizeKv(quantized);
        ASSERT_EQ(back.keys.size(), cache.keys.size());
        for (int layer = 0; layer < shape.layers; ++layer) {
            for (int head = 0; head < shape.kvHeads; ++head) {
                for (int t = 0; t < shape.tokens; ++t) {
                    for (int d = 0; d < shape.headDim; ++d) {
                        const std::size_t i = shape.offset(layer, head, t) + static_cast<std::size_t>(d);
                        EXPECT_EQ(back.keys[i], directRoundTrip(cache.keys[i], scales.keyScale(layer, head))) << i;
                        EXPECT_EQ(back.values[i], directRoundTrip(cache.values[i], scales.valueScale(layer, head)))
                            << i;
                    }
                }
            }
        }
    }
}

TEST(KvQuant, PrefixQuantisationMatchesTheFullOne) {
    const KvCache cache = handMadeCache();
    const KvScales scales = computeKvScales(cache, KvScaling::PerHead, 1024);
    const KvCache full = dequantizeKv(quantizeKv(cache, scales, 3));
    const KvCache prefix = dequantizeKv(quantizeKv(cache, scales, 2));
    EXPECT_EQ(prefix.shape.tokens, 2);
    for (int layer = 0; layer < 2; ++layer)
        for (int head = 0; head < 2; ++head)
            for (int t = 0; t < 2; ++t)
                for (int d = 0; d < 4; ++d)
                    EXPECT_EQ(prefix.keys[prefix.shape.offset(layer, head, t) + static_cast<std::size_t>(d)],
                              full.keys[full.shape.offset(layer, head, t) + static_cast<std::size_t>(d)]);
    EXPECT_THROW(quantizeKv(cache, scales, 4), std::invalid_argument);
    EXPECT_THROW(quantizeKv(cache, scales, 0), std::invalid_argument);
}

TEST(KvQuant, NoneSaturatesPast448) {
    const std::vector<float> in{1000.0f, -600.0f, 460.0f, 448.0f, 500.0f, -1.0e30f, 447.0f};
    std::vector<std::uint8_t> codes(in.size());
    std::vector<float> out(in.size());
    quantizeKvBlock(in.data(), codes.data(), in.size(), 1.0f);
    dequantizeKvBlock(codes.data(), out.data(), in.size(), 1.0f);
    EXPECT_EQ(out[0], 448.0f);
    EXPECT_EQ(out[1], -448.0f);
    EXPECT_EQ(out[2], 448.0f);
    EXPECT_EQ(out[3], 448.0f);
    EXPECT_EQ(out[4], 448.0f);
    EXPECT_EQ(out[5], -448.0f);
    EXPECT_EQ(out[6], 448.0f);  // 447 rounds to 448 (E4M3's step is 32 in [256, 448])

    // The same through the cache path: layer 1's 1000 and -600 come back as +-448 with scale 1.
    const KvCache cache = handMadeCache();
    const KvCache back = dequantizeKv(quantizeKv(cache, computeKvScales(cache, KvScaling::None, 1), 3));
    EXPECT_EQ(back.keys[cache.shape.offset(1, 0, 0) + 1], -448.0f);
    EXPECT_EQ(back.keys[cache.shape.offset(1, 0, 1) + 3], 448.0f);
}

TEST(KvQuant, MetricsMatchHandComputedNumbers) {
    // q = x * (1 + e) with e = 0.5, exact in float: rel_rmse = e, max abs = e * max|x|, cosine = 1.
    const std::vector<float> x{1, -2, 3, 4};
    const std::vector<float> q{1.5f, -3, 4.5f, 6};
    const TensorError scaled = compareTensors(x, q);
    EXPECT_DOUBLE_EQ(scaled.relRmse, 0.5);
    EXPECT_DOUBLE_EQ(scaled.maxAbsError, 2.0);
    EXPECT_DOUBLE_EQ(scaled.cosine, 1.0);

    // x = (3, 4), q = (3, 0): ||q - x|| = 4, ||x|| = 5, cosine = 9 / (5 * 3).
    const TensorError dropped = compareTensors(std::vector<float>{3, 4}, std::vector<float>{3, 0});
    EXPECT_DOUBLE_EQ(dropped.relRmse, 0.8);
    EXPECT_DOUBLE_EQ(dropped.maxAbsError, 4.0);
    EXPECT_DOUBLE_EQ(dropped.cosine, 0.6);

    // Orthogonal: rel_rmse = sqrt(2), cosine 0.
    const TensorError orthogonal = compareTensors(std::vector<float>{1, 0}, std::vector<float>{0, 1});
    EXPECT_DOUBLE_EQ(orthogonal.relRmse, std::sqrt(2.0));
    EXPECT_DOUBLE_EQ(orthogonal.cosine, 0.0);

    // Accumulating two blocks equals one call over their concatenation.
    ErrorAccumulator acc;
    acc.add(std::vector<float>{1, -2}, std::vector<float>{1.5f, -3});
    acc.add(std::vector<float>{3, 4}, std::vector<float>{4.5f, 6});
    EXPECT_DOUBLE_EQ(acc.result().relRmse, 0.5);
    EXPECT_DOUBLE_EQ(acc.result().maxAbsError, 2.0);
}

TEST(KvQuant, GeneratorIsDeterministicBf16AndHasOutliers) {
    const KvShape shape{2, 2, 64, 256};
    const KvCache a = generateKvCache(shape, 7);
    const KvCache b = generateKvCache(shape, 7);
    const KvCache c = generateKvCache(shape, 8);
    EXPECT_EQ(a.keys, b.keys);
    EXPECT_EQ(a.values, b.values);
    EXPECT_NE(a.keys, c.keys);
    for (float x : a.keys) ASSERT_EQ(std::bit_cast<std::uint32_t>(x) & 0xFFFFu, 0u);
    // Outlier channels in K, none in V (KIVI, KVQuant): per head, K's largest channel RMS is well above the median
    // channel's; V's channels stay within a small factor of each other.
    for (int layer = 0; layer < shape.layers; ++layer) {
        for (int head = 0; head < shape.kvHeads; ++head) {
            std::vector<double> rms(64, 0.0);
            std::vector<double> valueRms(64, 0.0);
            for (int t = 0; t < shape.tokens; ++t)
                for (int d = 0; d < 64; ++d) {
                    const double x = a.keys[shape.offset(layer, head, t) + static_cast<std::size_t>(d)];
                    const double v = a.values[shape.offset(layer, head, t) + static_cast<std::size_t>(d)];
                    rms[static_cast<std::size_t>(d)] += x * x;
                    valueRms[static_cast<std::size_t>(d)] += v * v;
                }
            std::sort(rms.begin(), rms.end());
            std::sort(valueRms.begin(), valueRms.end());
            EXPECT_GT(std::sqrt(rms.back() / rms[32]), 4.5);
            EXPECT_LT(std::sqrt(valueRms.back() / valueRms[32]), 3.5);  // offsets only: sqrt(1 + mu^2)
        }
    }
    EXPECT_THROW(generateKvCache(KvShape{0, 1, 1, 1}, 1), std::invalid_argument);
}

KvSweepConfig smallConfig() {
    KvSweepConfig config;
    config.shape = KvShape{4, 2, 64, 0};
    config.contexts = {256, 1024, 2048};
    config.calibrationTokens = 256;
    config.queryRows = 8;  // enough rows for the attention figures, half the default's time
    config.seed = 42;
    return config;
}

TEST(KvQuant, SweepIsDeterministic) {
    const KvSweepResult a = runKvQuantSweep(smallConfig());
    const KvSweepResult b = runKvQuantSweep(smallConfig());
    ASSERT_EQ(a.results.size(), 9u);
    ASSERT_EQ(b.results.size(), 9u);
    EXPECT_FALSE(a.cancelled);
    for (std::size_t i = 0; i < a.results.size(); ++i) {
        const KvQuantResult& x = a.results[i];
        const KvQuantResult& y = b.results[i];
        EXPECT_EQ(x.scaling, y.scaling);
        EXPECT_EQ(x.context, y.context);
        EXPECT_EQ(x.key.relRmse, y.key.relRmse);
        EXPECT_EQ(x.key.maxAbsError, y.key.maxAbsError);
        EXPECT_EQ(x.key.cosine, y.key.cosine);
        EXPECT_EQ(x.value.relRmse, y.value.relRmse);
        EXPECT_EQ(x.attnOutRelRmse, y.attnOutRelRmse);
        EXPECT_EQ(x.attnWeightTvd, y.attnWeightTvd);
        EXPECT_EQ(x.elements, 2u * 4u * 2u * 64u * static_cast<std::size_t>(x.context));
        EXPECT_GE(x.seconds, 0.0);
    }
    EXPECT_EQ(a.results[0].scaling, KvScaling::None);
    EXPECT_EQ(a.results[3].scaling, KvScaling::PerTensor);
    EXPECT_EQ(a.results[8].scaling, KvScaling::PerHead);
    EXPECT_EQ(a.results[8].context, 2048);
}

// Why the ordering is asserted with a tolerance: E4M3's relative rounding error for a value in its normal range does
// not depend on the scale, and the relative RMSE is dominated by the outlier channels, which are normal in every
// mode. The modes differ only through saturation (none past 448, per_tensor past 448 * scale for tokens after the
// calibration prefix) and through subnormals (small values, little energy). With the default data no value passes
// 448, so the three modes tie within rounding noise: asserted as within 10% of each other. The massive-activation
// data below passes 448 in one layer, and there none is asserted clearly worst.
void printSweep(const char* label, const KvSweepResult& sweep, std::size_t contexts) {
    for (std::size_t c = 0; c < contexts; ++c) {
        const KvQuantResult& none = sweep.results[c];
        const KvQuantResult& perTensor = sweep.results[contexts + c];
        const KvQuantResult& perHead = sweep.results[2 * contexts + c];
        std::printf(
            "%s context %d: K rel_rmse none %.5f per_tensor %.5f per_head %.5f | V %.5f %.5f %.5f | "
            "attn %.5f %.5f %.5f\n",
            label, none.context, none.key.relRmse, perTensor.key.relRmse, perHead.key.relRmse, none.value.relRmse,
            perTensor.value.relRmse, perHead.value.relRmse, none.attnOutRelRmse, perTensor.attnOutRelRmse,
            perHead.attnOutRelRmse);
    }
}

TEST(KvQuant, SweepOrdersTheScalingModes) {
    const KvSweepConfig config = smallConfig();
    const KvSweepResult sweep = runKvQuantSweep(config);
    ASSERT_EQ(sweep.results.size(), 9u);
    printSweep("default", sweep, 3);
    for (std::size_t c = 0; c < config.contexts.size(); ++c) {
        const KvQuantResult& none = sweep.results[c];
        const KvQuantResult& perTensor = sweep.results[3 + c];
        const KvQuantResult& perHead = sweep.results[6 + c];
        EXPECT_LE(perHead.key.relRmse, 1.1 * perTensor.key.relRmse);
        EXPECT_LE(perTensor.key.relRmse, 1.1 * none.key.relRmse);
        EXPECT_LE(none.key.relRmse, 1.1 * perTensor.key.relRmse);
        // E4M3 keeps 3 mantissa bits: a relative step of 2^-3, so rounding errors of a few percent RMS.
        for (const KvQuantResult* r : {&perTensor, &perHead}) {
            EXPECT_GT(r->key.relRmse, 0.015);
            EXPECT_LT(r->key.relRmse, 0.04);
            EXPECT_GT(r->key.cosine, 0.999);
        }
    }
}

TEST(KvQuant, ScaleOneSaturatesWhereTheDataPasses448) {
    KvSweepConfig config = smallConfig();
    config.generator.massiveLayer = 3;
    const KvSweepResult sweep = runKvQuantSweep(config);
    ASSERT_EQ(sweep.results.size(), 9u);
    printSweep("stress", sweep, 3);
    const KvQuantResult& none = sweep.results[2];
    const KvQuantResult& perTensor = sweep.results[5];
    const KvQuantResult& perHead = sweep.results[8];
    EXPECT_GT(none.key.relRmse, 2.0 * perTensor.key.relRmse);
    EXPECT_GT(none.key.maxAbsError, 2.0 * perTensor.key.maxAbsError);
    EXPECT_GT(none.attnOutRelRmse, perTensor.attnOutRelRmse);
    EXPECT_GT(none.keySaturated, 0u);
    EXPECT_EQ(perTensor.keySaturated, 0u);
    EXPECT_LE(perHead.key.relRmse, 1.1 * perTensor.key.relRmse);
}

TEST(KvQuant, CancelStopsTheSweep) {
    int calls = 0;
    const KvSweepResult sweep = runKvQuantSweep(smallConfig(), [&calls](double) { return ++calls < 3; });
    EXPECT_TRUE(sweep.cancelled);
    EXPECT_EQ(calls, 3);
    EXPECT_TRUE(sweep.results.empty());  // every point sums over every layer: none is finished after 3 of 36 steps

    std::vector<double> fractions;
    const KvSweepResult full = runKvQuantSweep(smallConfig(), [&fractions](double f) {
        fractions.push_back(f);
        return true;
    });
    EXPECT_FALSE(full.cancelled);
    ASSERT_EQ(fractions.size(), 36u);  // 4 layers x 3 scalings x 3 contexts
    for (std::size_t i = 1; i < fractions.size(); ++i) EXPECT_GT(fractions[i], fractions[i - 1]);
    EXPECT_DOUBLE_EQ(fractions.back(), 1.0);
}

TEST(KvQuant, SweepRejectsBadContexts) {
    KvSweepConfig config = smallConfig();
    config.contexts = {};
    EXPECT_THROW(runKvQuantSweep(config), std::invalid_argument);
    config.contexts = {128, 0};
    EXPECT_THROW(runKvQuantSweep(config), std::invalid_argument);
}

// `combined` is K and V as one tensor. Recomputed here from the pieces the sweep is made of (the generated cache, the
// scales, quantizeKv, dequantizeKv) with the sums written out in double, independent of ErrorAccumulator.
TEST(KvQuant, CombinedErrorEqualsADirectComputationOverKAndV) {
    KvSweepConfig config = smallConfig();
    config.contexts = {256, 512};
    const KvSweepResult sweep = runKvQuantSweep(config);
    ASSERT_EQ(sweep.results.size(), 6u);

    KvShape shape = config.shape;
    shape.tokens = 512;
    const KvCache cache = generateKvCache(shape, config.seed, config.generator);
    for (const KvQuantResult& r : sweep.results) {
        const KvScales scales = computeKvScales(cache, r.scaling, config.calibrationTokens);
        const KvCache restored = dequantizeKv(quantizeKv(cache, scales, r.context));
        double diff2 = 0, ref2 = 0, approx2 = 0, dot = 0, maxAbs = 0;
        double keyDiff2 = 0, keyRef2 = 0;
        for (int layer = 0; layer < shape.layers; ++layer)
            for (int head = 0; head < shape.kvHeads; ++head)
                for (int t = 0; t < r.context; ++t)
                    for (int d = 0; d < shape.headDim; ++d) {
                        const std::size_t in = shape.offset(layer, head, t) + static_cast<std::size_t>(d);
                        const std::size_t out = restored.shape.offset(layer, head, t) + static_cast<std::size_t>(d);
                        for (int which = 0; which < 2; ++which) {
                            const double x = which == 0 ? cache.keys[in] : cache.values[in];
                            const double q = which == 0 ? restored.keys[out] : restored.values[out];
                            diff2 += (q - x) * (q - x);
                            ref2 += x * x;
                            approx2 += q * q;
                            dot += q * x;
                            maxAbs = std::max(maxAbs, std::fabs(q - x));
                            if (which == 0) {
                                keyDiff2 += (q - x) * (q - x);
                                keyRef2 += x * x;
                            }
                        }
                    }
        SCOPED_TRACE(std::string(kvScalingName(r.scaling)) + " context " + std::to_string(r.context));
        EXPECT_NEAR(r.combined.relRmse, std::sqrt(diff2 / ref2), 1e-12 * std::sqrt(diff2 / ref2));
        EXPECT_EQ(r.combined.maxAbsError, maxAbs);
        EXPECT_NEAR(r.combined.cosine, dot / (std::sqrt(ref2) * std::sqrt(approx2)), 1e-12);
        EXPECT_NEAR(r.key.relRmse, std::sqrt(keyDiff2 / keyRef2), 1e-12 * std::sqrt(keyDiff2 / keyRef2));
        // Together sits between the two parts.
        EXPECT_LE(r.combined.relRmse, std::max(r.key.relRmse, r.value.relRmse) * (1 + 1e-12));
        EXPECT_GE(r.combined.relRmse, std::min(r.key.relRmse, r.value.relRmse) * (1 - 1e-12));
    }
}

TEST(KvQuant, SweepUsesTheGivenQuantizer) {
    KvSweepConfig config = smallConfig();
    config.contexts = {256};
    config.scalings = {KvScaling::PerHead};
    const KvSweepResult reference = runKvQuantSweep(config);

    // Another backend that returns the same codes gives the same errors, and it is what gets called.
    int calls = 0;
    config.quantizer = [&calls](const KvCache& cache, const KvScales& scales, int tokens) {
        ++calls;
        return quantizeKv(cache, scales, tokens);
    };
    const KvSweepResult same = runKvQuantSweep(config);
    EXPECT_EQ(calls, 4);  // once per layer
    ASSERT_EQ(same.results.size(), 1u);
    EXPECT_EQ(same.results[0].combined.relRmse, reference.results[0].combined.relRmse);
    EXPECT_EQ(same.results[0].attnOutRelRmse, reference.results[0].attnOutRelRmse);

    // One that stores zeros: every value is lost, so ||q - x|| / ||x|| is exactly 1 and the cosine 0.
    config.quantizer = [](const KvCache& cache, const KvScales& scales, int tokens) {
        QuantizedKv q = quantizeKv(cache, scales, tokens);
        std::fill(q.keys.begin(), q.keys.end(), std::uint8_t{0});
        std::fill(q.values.begin(), q.values.end(), std::uint8_t{0});
        return q;
    };
    const KvSweepResult zeros = runKvQuantSweep(config);
    ASSERT_EQ(zeros.results.size(), 1u);
    EXPECT_DOUBLE_EQ(zeros.results[0].combined.relRmse, 1.0);
    EXPECT_EQ(zeros.results[0].combined.cosine, 0.0);

    // Codes of the wrong shape are refused, not read past their end.
    config.quantizer = [](const KvCache& cache, const KvScales& scales, int tokens) {
        QuantizedKv q = quantizeKv(cache, scales, tokens);
        q.keys.pop_back();
        return q;
    };
    EXPECT_THROW(runKvQuantSweep(config), std::invalid_argument);
}

}  // namespace
}  // namespace fp8dash::gpu
