// The FP4 codec (fp4_codec.h): E2M1 against values worked out from the format (1 sign, 2 exponent bits with bias 1,
// 1 mantissa bit) and against cuda_fp4.h's host conversions, and the NVFP4 / MXFP4 block formats on tensors whose
// scales and codes are worked out by hand in the comments.
#include "fp8dash/gpu/fp4_codec.h"

#include "fp4_codec_reference.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

namespace fp8dash::gpu {
namespace {

// Code -> value from the bit fields: exponent field e (2 bits), mantissa m (1 bit); e == 0 is subnormal (m x 0.5),
// else (1 + m / 2) x 2^(e - 1).
float e2m1FromFields(unsigned code) {
    const unsigned e = (code >> 1) & 3u;
    const unsigned m = code & 1u;
    const float magnitude = e == 0 ? 0.5f * static_cast<float>(m)
                                   : (1.0f + 0.5f * static_cast<float>(m)) * std::ldexp(1.0f, static_cast<int>(e) - 1);
    return (code & 8u) != 0 ? -magnitude : magnitude;
}

TEST(Fp4Codec, DecodesEveryCodeFromItsBitFields) {
    const float expected[8] = {0.0f, 0.5f, 1.0f, 1.5f, 2.0f, 3.0f, 4.0f, 6.0f};
    for (unsigned code = 0; code < 16; ++code) {
        EXPECT_EQ(decodeE2M1(static_cast<std::uint8_t>(code)), e2m1FromFields(code)) << "code " << code;
        EXPECT_EQ(std::fabs(decodeE2M1(static_cast<std::uint8_t>(code))), expected[code & 7u]) << "code " << code;
    }
    EXPECT_TRUE(std::signbit(decodeE2M1(0x8)));  // -0
    EXPECT_EQ(decodeE2M1(0xF3), 1.5f);           // the high nibble is ignored
}

TEST(Fp4Codec, DecodesEveryCodeLikeTheToolkit) {
    if (!reference::fp4Available()) GTEST_SKIP() << reference::fp4UnavailableReason();
    for (unsigned code = 0; code < 16; ++code) {
        const float mine = decodeE2M1(static_cast<std::uint8_t>(code));
        const float theirs = reference::decodeE2M1(static_cast<std::uint8_t>(code));
        EXPECT_EQ(std::bit_cast<std::uint32_t>(mine), std::bit_cast<std::uint32_t>(theirs)) << "code " << code;
    }
}

TEST(Fp4Codec, RoundsToNearestEvenAndSaturates) {
    struct Case {
        float in;
        std::uint8_t nearest;
        std::uint8_t towardZero;
    };
    const Case cases[] = {
        {0.0f, 0x0, 0x0},
        {-0.0f, 0x8, 0x8},
        {0.25f, 0x0, 0x0},       // half the smallest value: to zero
        {0.2500001f, 0x1, 0x0},  // just above: 0.5 (toward zero: 0)
        {-0.1f, 0x8, 0x8},       // underflow keeps the sign
        {0.75f, 0x2, 0x1},
        {1.25f, 0x2, 0x2},
        {1.75f, 0x4, 0x3},  // ties go to the even code
        {2.5f, 0x4, 0x4},
        {3.5f, 0x6, 0x5},
        {5.0f, 0x6, 0x6},  // ties: 2, 4, 4
        {5.0000005f, 0x7, 0x6},
        {6.0f, 0x7, 0x7},
        {6.5f, 0x7, 0x7},  // above 6 saturates
        {-1e30f, 0xF, 0xF},
        {std::numeric_limits<float>::infinity(), 0x7, 0x7},
        {-std::numeric_limits<float>::infinity(), 0xF, 0xF},
        {std::numeric_limits<float>::quiet_NaN(), 0x7, 0x7},  // NaN: +6
        {-std::numeric_limits<float>::quiet_NaN(), 0x7, 0x7},
        {std::numeric_limits<float>::denorm_min(), 0x0, 0x0},
    };
    for (const Case& c : cases) {
        EXPECT_EQ(encodeE2M1(c.in, Fp4Rounding::NearestEven), c.nearest) << c.in;
        EXPECT_EQ(encodeE2M1(c.in, Fp4Rounding::TowardZero), c.towardZero) << c.in;
        if (reference::fp4Available()) {
            EXPECT_EQ(reference::encodeE2M1(c.in, Fp4Rounding::NearestEven), c.nearest) << c.in;
            EXPECT_EQ(reference::encodeE2M1(c.in, Fp4Rounding::TowardZero), c.towardZero) << c.in;
        }
    }
}

TEST(Fp4Codec, EncodesRandomFloatsLikeTheToolkit) {
    if (!reference::fp4Available()) GTEST_SKIP() << reference::fp4UnavailableReason();
    std::mt19937 rng(41);
    std::uniform_real_distribution<float> near(-8.0f, 8.0f);
    for (int i = 0; i < 200000; ++i) {
        const float x = i % 2 == 0 ? near(rng) : std::bit_cast<float>(static_cast<std::uint32_t>(rng()));
        for (Fp4Rounding r : {Fp4Rounding::NearestEven, Fp4Rounding::TowardZero})
            ASSERT_EQ(encodeE2M1(x, r), reference::encodeE2M1(x, r)) << x;
    }
}

TEST(Fp4Codec, BlockFormatsCostTheirBits) {
    EXPECT_EQ(fp4BlockSize(Fp4BlockFormat::Nvfp4), 16);
    EXPECT_EQ(fp4BlockSize(Fp4BlockFormat::Mxfp4), 32);
    EXPECT_DOUBLE_EQ(fp4BitsPerValue(Fp4BlockFormat::Nvfp4), 4.5);   // 4 + 8 / 16
    EXPECT_DOUBLE_EQ(fp4BitsPerValue(Fp4BlockFormat::Mxfp4), 4.25);  // 4 + 8 / 32
    EXPECT_STREQ(fp4BlockFormatName(Fp4BlockFormat::Nvfp4), "nvfp4");
    EXPECT_EQ(decodeUe8m0(127), 1.0f);
    EXPECT_EQ(decodeUe8m0(128), 2.0f);
    EXPECT_EQ(decodeUe8m0(0), std::ldexp(1.0f, -127));
    EXPECT_TRUE(std::isnan(decodeUe8m0(255)));
}

// Two NVFP4 blocks. Tensor amax 7.5: tensor scale 7.5 / (448 x 6) = 7.5 / 2688.
// Block 0 = 0, 0.5, ..., 7.5: scale 7.5 / 6 / (7.5 / 2688) = 448 -> E4M3 0x7E; divisor 448 x 7.5 / 2688 = 1.25;
// x / 1.25 = 0, 0.4, 0.8, ..., 6.0 -> 0, 0.5, 1, 1, 1.5, 2, 2, 3, 3, 4, 4, 4, 4, 6, 6, 6.
// Block 1 = 0.1 everywhere but a 3.0: scale 0.5 x 2688 / 7.5 = 179.2 -> E4M3 176 (step 16 in [128, 256)):
// 0 1110 011 = 0x73; divisor 176 x 7.5 / 2688; 3 / divisor = 6.11 -> 6; 0.1 / divisor = 0.204 -> 0.
TEST(Fp4Codec, QuantisesNvfp4BlocksAsWorkedOut) {
    std::vector<float> in;
    for (int i = 0; i < 16; ++i) in.push_back(0.5f * static_cast<float>(i));
    for (int i = 0; i < 16; ++i) in.push_back(i == 5 ? 3.0f : 0.1f);
    const Fp4Tensor t = quantizeFp4(in, Fp4BlockFormat::Nvfp4);
    ASSERT_EQ(t.count, 32u);
    ASSERT_EQ(t.codes.size(), 16u);
    ASSERT_EQ(t.scales.size(), 2u);
    EXPECT_FLOAT_EQ(t.tensorScale, 7.5f / 2688.0f);
    EXPECT_EQ(t.scales[0], 0x7E);  // 448: exponent field 15, mantissa 6 -> 1.75 x 2^8
    EXPECT_EQ(t.scales[1], 0x73);  // 176: exponent field 14 (2^7), mantissa 3 -> 1.375 x 128
    const float block0[16] = {0, 0.5f, 1, 1, 1.5f, 2, 2, 3, 3, 4, 4, 4, 4, 6, 6, 6};
    const std::vector<float> out = dequantizeFp4(t);
    for (int i = 0; i < 16; ++i) EXPECT_NEAR(out[i], block0[i] * 1.25f, 1e-5f) << i;
    const float divisor1 = 176.0f * 7.5f / 2688.0f;
    for (int i = 16; i < 32; ++i) EXPECT_NEAR(out[i], i == 21 ? 6.0f * divisor1 : 0.0f, 1e-6f) << i;
    // Packing: value 2i in the low nibble. Values 2 and 3 (1.0 and 1.5 -> 0.8 and 1.2 -> both code 2): byte 0x22.
    EXPECT_EQ(t.codes[1], 0x22);
    EXPECT_EQ(t.codes[0], 0x10);  // value 0 -> 0, value 1 (0.4) -> 0.5 = code 1 in the high nibble
}

// MXFP4: block 0 has amax 13: floor(log2 13) = 3, shared exponent 3 - 2 = 1, scale 2 (UE8M0 128); 13 / 2 = 6.5
// saturates to 6 -> 12; -5 / 2 = -2.5 is a tie between 2 and 3 -> 2 (even) -> -4; 1.1 / 2 = 0.55 -> 0.5 -> 1;
// 0.3 / 2 = 0.15 -> 0. Block 1 is all zero: scale 1 (127). Block 2 (three values, the short last block): amax 0.003,
// floor(log2 0.003) = -9, shared -11 (UE8M0 116); x 2048: 2.048 -> 2, 4.096 -> 4, -6.144 -> -6.
TEST(Fp4Codec, QuantisesMxfp4BlocksAsWorkedOut) {
    std::vector<float> in(67, 0.0f);
    in[0] = 13.0f;
    in[1] = -5.0f;
    in[2] = 1.1f;
    in[3] = 0.3f;
    in[64] = 0.001f;
    in[65] = 0.002f;
    in[66] = -0.003f;
    const Fp4Tensor t = quantizeFp4(in, Fp4BlockFormat::Mxfp4);
    ASSERT_EQ(t.scales.size(), 3u);
    EXPECT_EQ(t.scales[0], 128);
    EXPECT_EQ(t.scales[1], 127);
    EXPECT_EQ(t.scales[2], 116);
    EXPECT_EQ(t.tensorScale, 1.0f);
    ASSERT_EQ(t.codes.size(), 34u);
    const std::vector<float> out = dequantizeFp4(t);
    EXPECT_EQ(out[0], 12.0f);
    EXPECT_EQ(out[1], -4.0f);
    EXPECT_EQ(out[2], 1.0f);
    EXPECT_EQ(out[3], 0.0f);
    for (int i = 4; i < 64; ++i) EXPECT_EQ(out[static_cast<std::size_t>(i)], 0.0f) << i;
    EXPECT_EQ(out[64], 2.0f / 2048.0f);
    EXPECT_EQ(out[65], 4.0f / 2048.0f);
    EXPECT_EQ(out[66], -6.0f / 2048.0f);
}

TEST(Fp4Codec, AllZeroNvfp4TensorStaysZero) {
    const std::vector<float> in(20, 0.0f);
    const Fp4Tensor t = quantizeFp4(in, Fp4BlockFormat::Nvfp4);
    EXPECT_EQ(t.tensorScale, 1.0f);
    ASSERT_EQ(t.scales.size(), 2u);
    for (float v : dequantizeFp4(t)) EXPECT_EQ(v, 0.0f);
}

// Every value of a random tensor lands within the error bound its block scale gives. E2M1's widest step is 2
// (between 4 and 6), so rounding costs at most 1 x the block's divisor. NVFP4: the divisor is amax / 6 up to the
// E4M3 scale's rounding (1/16 at most), and a block maximum pushed past 6 by that rounding clips by less than 0.375
// x divisor: |error| <= amax / 6 x 17/16 < 0.178 amax. MXFP4: the divisor is 2^(floor(log2 amax) - 2) <= amax / 4
// and the block maximum (amax < 8 x divisor) clips by amax - 6 x divisor < amax / 4: |error| < amax / 4.
TEST(Fp4Codec, RandomTensorsDequantiseWithinTheirBound) {
    std::mt19937 rng(7);
    std::normal_distribution<float> dist(0.0f, 3.0f);
    std::vector<float> in(1000);
    for (float& v : in) v = dist(rng);
    for (Fp4BlockFormat f : {Fp4BlockFormat::Nvfp4, Fp4BlockFormat::Mxfp4}) {
        const std::vector<float> out = dequantizeFp4(quantizeFp4(in, f));
        const std::size_t block = static_cast<std::size_t>(fp4BlockSize(f));
        const float bound = f == Fp4BlockFormat::Nvfp4 ? 0.178f : 0.25f;
        for (std::size_t i = 0; i < in.size(); ++i) {
            float amax = 0;
            for (std::size_t j = i / block * block; j < std::min(in.size(), (i / block + 1) * block); ++j)
                amax = std::max(amax, std::fabs(in[j]));
            EXPECT_LE(std::fabs(out[i] - in[i]), bound * amax + 1e-6f) << fp4BlockFormatName(f) << " value " << i;
        }
    }
}

TEST(Fp4Codec, RefusesNonFiniteValuesNamingTheIndex) {
    std::vector<float> in(10, 1.0f);
    in[7] = std::numeric_limits<float>::infinity();
    try {
        quantizeFp4(in, Fp4BlockFormat::Nvfp4);
        FAIL() << "no error";
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("value 7"), std::string::npos) << e.what();
    }
}

}  // namespace
}  // namespace fp8dash::gpu
