// The KV sweep over a dump written by the test writer (support/safetensors_writer.h), end to end: the scales, the
// saturated counts and the K and V relative RMSE of every (scaling, context) point recomputed here in double, with
// an E4M3 quantiser of this file's own (the exhaustive table of the 256 codes, built from the format's definition
// and checked against cuda_fp8.h's host conversion where the toolkit header is there).
#include "fp8dash/gpu/kv_dump.h"
#include "fp8dash/gpu/kv_quant.h"

#include "fp8_codec_reference.h"
#include "safetensors_writer.h"
#include "test_paths.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace fp8dash::gpu {
namespace {

constexpr int kLayers = 2, kHeads = 2, kTokens = 40, kDim = 8;

// Every finite E4M3 value by code (NaN codes 0x7f and 0xff excluded): s eeee mmm, bias 7, subnormals m/8 * 2^-6.
std::vector<std::pair<std::uint8_t, double>> e4m3Table() {
    std::vector<std::pair<std::uint8_t, double>> table;
    for (int code = 0; code < 256; ++code) {
        if ((code & 0x7f) == 0x7f) continue;
        const int e = (code >> 3) & 0xf, m = code & 7;
        const double magnitude = e == 0 ? std::ldexp(m / 8.0, -6) : std::ldexp(1.0 + m / 8.0, e - 7);
        table.push_back({static_cast<std::uint8_t>(code), (code & 0x80) ? -magnitude : magnitude});
    }
    return table;
}

// Saturation::Finite by the table: the nearest finite value (ties to the even code), |y| > 448 to +-448.
double quantizeByTable(float y) {
    static const auto table = e4m3Table();
    if (y > 448.0f) return 448.0;
    if (y < -448.0f) return -448.0;
    double best = 0, bestDistance = std::numeric_limits<double>::infinity();
    int bestCode = -1;
    for (const auto& [code, value] : table) {
        const double distance = std::fabs(value - static_cast<double>(y));
        if (distance < bestDistance || (distance == bestDistance && (code & 1) == 0 && (bestCode & 1) == 1)) {
            best = value;
            bestDistance = distance;
            bestCode = code;
        }
    }
    return best;
}

// The dump's values: layer 1's keys hold a few values past 448 (scale 1.0 saturates them), layer 0's values sit near
// E4M3's subnormals at scale 1.0; all exact in BF16.
float keyAt(int l, int h, int t, int d) {
    const int i = ((l * kHeads + h) * kTokens + t) * kDim + d;
    float x = static_cast<float>((i * 37) % 61 - 30) * 0.5f;
    if (l == 1 && d == 3) x *= 40.0f;  // an outlier channel: up to 600
    return x;
}
float valueAt(int l, int h, int t, int d) {
    const int i = ((l * kHeads + h) * kTokens + t) * kDim + d;
    return static_cast<float>((i * 11) % 23 - 11) * (l == 0 ? 0x1p-10f : 0.125f);
}

std::string writeTestDump(const test::TempDir& dir) {
    std::vector<std::uint16_t> k, v;
    for (int l = 0; l < kLayers; ++l)
        for (int h = 0; h < kHeads; ++h)
            for (int t = 0; t < kTokens; ++t)
                for (int d = 0; d < kDim; ++d) {
                    k.push_back(test::bf16BitsOfExact(keyAt(l, h, t, d)));
                    v.push_back(test::bf16BitsOfExact(valueAt(l, h, t, d)));
                }
    const std::vector<std::uint64_t> shape{kLayers, kHeads, kTokens, kDim};
    const auto path = dir.path() / "small.safetensors";
    test::writeBinaryFile(path.string(), test::safetensorsFile({{"key", "BF16", shape, test::le16(k)},
                                                                {"value", "BF16", shape, test::le16(v)}},
                                                               {{"model", "test/small"}}));
    return path.string();
}

struct Expected {
    std::vector<float> keyScales, valueScales;  // per (layer, head)
    std::uint64_t keySaturated = 0, valueSaturated = 0;
    double keyRelRmse = 0, valueRelRmse = 0;
};

// The sweep's rules, by hand: every layer is loaded with the longest context's tokens; per_tensor takes a layer's
// amax over the first calibration tokens / 200 (K) or 100 (V), per_head a head's amax over the loaded tokens / 448,
// none 1.0; a point quantises the first `context` tokens, x / scale in float, back as value * scale in float.
Expected expectedPoint(KvScaling scaling, int context, int loaded, int calibration) {
    Expected e;
    double keyDiff = 0, keyRef = 0, valueDiff = 0, valueRef = 0;
    for (int l = 0; l < kLayers; ++l) {
        float layerK = 0, layerV = 0;
        for (int h = 0; h < kHeads; ++h)
            for (int t = 0; t < std::min(calibration, loaded); ++t)
                for (int d = 0; d < kDim; ++d) {
                    layerK = std::max(layerK, std::fabs(keyAt(l, h, t, d)));
                    layerV = std::max(layerV, std::fabs(valueAt(l, h, t, d)));
                }
        for (int h = 0; h < kHeads; ++h) {
            float headK = 0, headV = 0;
            for (int t = 0; t < loaded; ++t)
                for (int d = 0; d < kDim; ++d) {
                    headK = std::max(headK, std::fabs(keyAt(l, h, t, d)));
                    headV = std::max(headV, std::fabs(valueAt(l, h, t, d)));
                }
            float ks = 1.0f, vs = 1.0f;
            if (scaling == KvScaling::PerTensor) {
                ks = layerK > 0 ? layerK / 200.0f : 1.0f;
                vs = layerV > 0 ? layerV / 100.0f : 1.0f;
            } else if (scaling == KvScaling::PerHead) {
                ks = headK > 0 ? headK / 448.0f : 1.0f;
                vs = headV > 0 ? headV / 448.0f : 1.0f;
            }
            e.keyScales.push_back(ks);
            e.valueScales.push_back(vs);
            for (int t = 0; t < context; ++t)
                for (int d = 0; d < kDim; ++d) {
                    const float x = keyAt(l, h, t, d), y = valueAt(l, h, t, d);
                    e.keySaturated += std::fabs(x / ks) > 448.0f;
                    e.valueSaturated += std::fabs(y / vs) > 448.0f;
                    const double qx = static_cast<float>(quantizeByTable(x / ks)) * ks;
                    const double qy = static_cast<float>(quantizeByTable(y / vs)) * vs;
                    keyDiff += (qx - x) * (qx - x);
                    keyRef += static_cast<double>(x) * x;
                    valueDiff += (qy - y) * (qy - y);
                    valueRef += static_cast<double>(y) * y;
                }
        }
    }
    e.keyRelRmse = std::sqrt(keyDiff / keyRef);
    e.valueRelRmse = std::sqrt(valueDiff / valueRef);
    return e;
}

TEST(KvDumpSweep, TheTableQuantiserIsCudasWhereTheHeaderIsThere) {
    if (!reference::available()) GTEST_SKIP() << reference::unavailableReason();
    for (const auto& [code, value] : e4m3Table())
        ASSERT_EQ(static_cast<double>(reference::decode(code, Fp8Format::E4M3)), value) << int(code);
    for (float y : {0.0f, 1e-4f, 0.0009765625f, 0.0029296875f, 1.0625f, 1.1875f, 17.0f, 239.9f, 447.9f, 460.0f, 479.0f,
                    1e6f, -3.0f, -0.01f})
        EXPECT_EQ(quantizeByTable(y), static_cast<double>(reference::decode(
                                          reference::encode(y, Fp8Format::E4M3, Saturation::Finite), Fp8Format::E4M3)))
            << y;
}

TEST(KvDumpSweep, ADumpsFiguresMatchAnIndependentComputation) {
    test::TempDir dir;
    KvSweepConfig config;
    config.source = openKvDump(writeTestDump(dir));
    config.contexts = {16, 40};
    config.calibrationTokens = 8;
    config.queryRows = 4;
    const KvSweepResult sweep = runKvQuantSweep(config);
    ASSERT_FALSE(sweep.cancelled);
    ASSERT_EQ(sweep.results.size(), 6u);

    std::uint64_t noneKeySaturated = 0, scaledKeySaturated = 0;
    for (const KvQuantResult& r : sweep.results) {
        SCOPED_TRACE(std::string(kvScalingName(r.scaling)) + " at " + std::to_string(r.context));
        EXPECT_EQ(r.sourceKind, "dump");
        EXPECT_EQ(r.sourceDescription, "small.safetensors (BF16, test/small)");
        EXPECT_EQ(r.sourceShape.layers, kLayers);
        EXPECT_EQ(r.sourceShape.tokens, kTokens);
        const Expected e = expectedPoint(r.scaling, r.context, 40, config.calibrationTokens);
        EXPECT_EQ(r.scales.key, e.keyScales);
        EXPECT_EQ(r.scales.value, e.valueScales);
        EXPECT_EQ(r.keySaturated, e.keySaturated);
        EXPECT_EQ(r.valueSaturated, e.valueSaturated);
        EXPECT_NEAR(r.key.relRmse, e.keyRelRmse, 1e-12 * e.keyRelRmse);
        EXPECT_NEAR(r.value.relRmse, e.valueRelRmse, 1e-12 * e.valueRelRmse);
        (r.scaling == KvScaling::None ? noneKeySaturated : scaledKeySaturated) += r.keySaturated;
    }
    // The data was made so that scale 1.0 saturates layer 1's outlier keys and the scaled modes do not.
    EXPECT_GT(noneKeySaturated, 0u);
    EXPECT_EQ(scaledKeySaturated, 0u);
}

}  // namespace
}  // namespace fp8dash::gpu
