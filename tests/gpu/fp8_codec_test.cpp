// The software FP8 codec: hand-computed values from the format definitions (these run everywhere), all 256 decodes
// of both formats against cuda_fp8.h's host conversion (skipped with a reason where the toolkit header is absent),
// and the scalar, bulk and baseline-kernel paths agreeing on random inputs. The sweep over all 2^32 floats is in
// fp8_codec_exhaustive_test.cpp.
#include "fp8dash/gpu/fp8_codec.h"

#include "fp8_codec_reference.h"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

namespace fp8dash::gpu {
namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

std::uint8_t e4m3(float value, Saturation saturation = Saturation::None) {
    return encodeFp8(value, Fp8Format::E4M3, saturation);
}

std::uint8_t e5m2(float value, Saturation saturation = Saturation::None) {
    return encodeFp8(value, Fp8Format::E5M2, saturation);
}

float above(float value) {
    return std::nextafter(value, kInf);
}
float below(float value) {
    return std::nextafter(value, -kInf);
}

std::uint32_t bitsOf(float value) {
    return std::bit_cast<std::uint32_t>(value);
}

// The value a code stands for, straight from the format definition, in double: (-1)^s * 2^(e - bias) * 1.m, or
// 2^(1 - bias) * 0.m for e == 0. NaN/infinity codes are handled by the callers.
double definedValue(std::uint8_t code, int exponentBits, int mantissaBits) {
    const int bias = (1 << (exponentBits - 1)) - 1;
    const int exponent = (code >> mantissaBits) & ((1 << exponentBits) - 1);
    const int mantissa = code & ((1 << mantissaBits) - 1);
    const double fraction = static_cast<double>(mantissa) / static_cast<double>(1 << mantissaBits);
    const double magnitude =
        exponent == 0 ? std::ldexp(fraction, 1 - bias) : std::ldexp(1.0 + fraction, exponent - bias);
    return (code & 0x80) ? -magnitude : magnitude;
}

TEST(Fp8Codec, MaxFinite) {
    EXPECT_EQ(fp8MaxFinite(Fp8Format::E4M3), 448.0f);
    EXPECT_EQ(fp8MaxFinite(Fp8Format::E5M2), 57344.0f);
}

TEST(Fp8CodecE4M3, ZerosKeepTheirSign) {
    EXPECT_EQ(e4m3(0.0f), 0x00);
    EXPECT_EQ(e4m3(-0.0f), 0x80);
    EXPECT_EQ(bitsOf(decodeFp8(0x00, Fp8Format::E4M3)), 0x00000000u);
    EXPECT_EQ(bitsOf(decodeFp8(0x80, Fp8Format::E4M3)), 0x80000000u);
}

TEST(Fp8CodecE4M3, SubnormalsAndSmallestNormal) {
    const float minSubnormal = std::ldexp(1.0f, -9);
    EXPECT_EQ(e4m3(minSubnormal), 0x01);
    EXPECT_EQ(e4m3(-minSubnormal), 0x81);
    EXPECT_EQ(e4m3(7 * minSubnormal), 0x07);      // largest subnormal, 0.875 * 2^-6
    EXPECT_EQ(e4m3(std::ldexp(1.0f, -6)), 0x08);  // smallest normal
    EXPECT_EQ(decodeFp8(0x01, Fp8Format::E4M3), 0.001953125f);
    EXPECT_EQ(decodeFp8(0x07, Fp8Format::E4M3), 0.013671875f);
    EXPECT_EQ(decodeFp8(0x08, Fp8Format::E4M3), 0.015625f);
}

TEST(Fp8CodecE4M3, UnderflowRoundsToEvenAndKeepsTheSign) {
    const float halfMinSubnormal = std::ldexp(1.0f, -10);
    EXPECT_EQ(e4m3(halfMinSubnormal), 0x00);  // tie between 0 and 2^-9: even is 0
    EXPECT_EQ(e4m3(above(halfMinSubnormal)), 0x01);
    EXPECT_EQ(e4m3(-halfMinSubnormal), 0x80);
    EXPECT_EQ(e4m3(-1e-30f), 0x80);
    EXPECT_EQ(e4m3(std::numeric_limits<float>::denorm_min()), 0x00);
    EXPECT_EQ(e4m3(3 * halfMinSubnormal), 0x02);   // 1.5 * 2^-9: tie, 2 is even
    EXPECT_EQ(e4m3(5 * halfMinSubnormal), 0x02);   // 2.5 * 2^-9: tie, 2 is even
    EXPECT_EQ(e4m3(15 * halfMinSubnormal), 0x08);  // 7.5 * 2^-9: tie, rounds up into the smallest normal
}

TEST(Fp8CodecE4M3, NormalsRoundToNearestEven) {
    EXPECT_EQ(e4m3(1.0f), 0x38);   // 0 0111 000
    EXPECT_EQ(e4m3(-2.0f), 0xC0);  // 1 1000 000
    EXPECT_EQ(e4m3(1.125f), 0x39);
    EXPECT_EQ(e4m3(1.0625f), 0x38);  // halfway 1.0 | 1.125: to the even mantissa 000
    EXPECT_EQ(e4m3(above(1.0625f)), 0x39);
    EXPECT_EQ(e4m3(1.1875f), 0x3A);  // halfway 1.125 | 1.25: to the even mantissa 010
    EXPECT_EQ(e4m3(below(1.1875f)), 0x39);
    EXPECT_EQ(e4m3(1.9375f), 0x40);      // halfway 1.875 | 2.0: carries into the exponent
    EXPECT_EQ(e4m3(3.14159265f), 0x45);  // between 3.0 and 3.25 (ulp 0.25 in [2, 4)), nearer 3.25
    EXPECT_EQ(decodeFp8(0x45, Fp8Format::E4M3), 3.25f);
}

TEST(Fp8CodecE4M3, LargestFiniteAndOverflow) {
    EXPECT_EQ(e4m3(448.0f), 0x7E);
    EXPECT_EQ(e4m3(-448.0f), 0xFE);
    EXPECT_EQ(decodeFp8(0x7E, Fp8Format::E4M3), 448.0f);
    EXPECT_EQ(decodeFp8(0x7D, Fp8Format::E4M3), 416.0f);
    EXPECT_EQ(e4m3(450.0f), 0x7E);
    for (Saturation s : {Saturation::None, Saturation::Finite})
        EXPECT_EQ(e4m3(464.0f, s), 0x7E);  // 448 + half an ulp: ties to 448 (mantissa 110 is even)

    // No saturation: E4M3 has no infinity, so overflow is NaN, and keeps the sign bit.
    EXPECT_EQ(e4m3(above(464.0f)), 0x7F);
    EXPECT_EQ(e4m3(-1000.0f), 0xFF);
    EXPECT_EQ(e4m3(kInf), 0x7F);
    EXPECT_EQ(e4m3(-kInf), 0xFF);
    EXPECT_EQ(e4m3(std::numeric_limits<float>::max()), 0x7F);

    EXPECT_EQ(e4m3(above(464.0f), Saturation::Finite), 0x7E);
    EXPECT_EQ(e4m3(-1000.0f, Saturation::Finite), 0xFE);
    EXPECT_EQ(e4m3(kInf, Saturation::Finite), 0x7E);
    EXPECT_EQ(e4m3(-kInf, Saturation::Finite), 0xFE);
}

TEST(Fp8CodecE4M3, NaN) {
    for (Saturation s : {Saturation::None, Saturation::Finite}) {
        EXPECT_EQ(e4m3(kNaN, s), 0x7F);
        EXPECT_EQ(e4m3(-kNaN, s), 0x7F);  // the sign of a NaN input is dropped
        EXPECT_EQ(e4m3(std::numeric_limits<float>::signaling_NaN(), s), 0x7F);
        EXPECT_EQ(e4m3(std::bit_cast<float>(0xFF800001u), s), 0x7F);
    }
    EXPECT_EQ(bitsOf(decodeFp8(0x7F, Fp8Format::E4M3)), 0x7FFFFFFFu);
    EXPECT_EQ(bitsOf(decodeFp8(0xFF, Fp8Format::E4M3)), 0x7FFFFFFFu);
}

TEST(Fp8CodecE5M2, ZerosSubnormalsAndSmallestNormal) {
    EXPECT_EQ(e5m2(0.0f), 0x00);
    EXPECT_EQ(e5m2(-0.0f), 0x80);
    const float minSubnormal = std::ldexp(1.0f, -16);
    EXPECT_EQ(e5m2(minSubnormal), 0x01);
    EXPECT_EQ(e5m2(3 * minSubnormal), 0x03);
    EXPECT_EQ(e5m2(std::ldexp(1.0f, -14)), 0x04);
    EXPECT_EQ(decodeFp8(0x01, Fp8Format::E5M2), 1.52587890625e-05f);
    EXPECT_EQ(decodeFp8(0x04, Fp8Format::E5M2), 6.103515625e-05f);
    EXPECT_EQ(e5m2(std::ldexp(1.0f, -17)), 0x00);  // tie between 0 and 2^-16
    EXPECT_EQ(e5m2(-std::ldexp(1.0f, -17)), 0x80);
    EXPECT_EQ(e5m2(above(std::ldexp(1.0f, -17))), 0x01);
    EXPECT_EQ(e5m2(std::ldexp(3.0f, -17)), 0x02);  // 1.5 * 2^-16: tie, 2 is even
    EXPECT_EQ(e5m2(std::ldexp(7.0f, -17)), 0x04);  // 3.5 * 2^-16: tie, rounds up into the smallest normal
}

TEST(Fp8CodecE5M2, NormalsRoundToNearestEven) {
    EXPECT_EQ(e5m2(1.0f), 0x3C);  // 0 01111 00
    EXPECT_EQ(e5m2(-1.5f), 0xBE);
    EXPECT_EQ(e5m2(1.125f), 0x3C);  // halfway 1.0 | 1.25: to the even mantissa 00
    EXPECT_EQ(e5m2(above(1.125f)), 0x3D);
    EXPECT_EQ(e5m2(1.375f), 0x3E);   // halfway 1.25 | 1.5: to the even mantissa 10
    EXPECT_EQ(e5m2(1.875f), 0x40);   // halfway 1.75 | 2.0: carries into the exponent
    EXPECT_EQ(e5m2(1.0625f), 0x3C);  // below the midpoint, not a tie in E5M2
}

TEST(Fp8CodecE5M2, LargestFiniteInfinityAndOverflow) {
    EXPECT_EQ(e5m2(57344.0f), 0x7B);
    EXPECT_EQ(decodeFp8(0x7B, Fp8Format::E5M2), 57344.0f);
    EXPECT_EQ(decodeFp8(0x7C, Fp8Format::E5M2), kInf);
    EXPECT_EQ(decodeFp8(0xFC, Fp8Format::E5M2), -kInf);
    for (Saturation s : {Saturation::None, Saturation::Finite}) EXPECT_EQ(e5m2(below(61440.0f), s), 0x7B);

    // 61440 = 57344 + half an ulp ties to the even code 0x7C, which is infinity: overflow.
    EXPECT_EQ(e5m2(61440.0f), 0x7C);
    EXPECT_EQ(e5m2(-61440.0f), 0xFC);
    EXPECT_EQ(e5m2(1e6f), 0x7C);
    EXPECT_EQ(e5m2(kInf), 0x7C);
    EXPECT_EQ(e5m2(-kInf), 0xFC);

    EXPECT_EQ(e5m2(61440.0f, Saturation::Finite), 0x7B);
    EXPECT_EQ(e5m2(-1e6f, Saturation::Finite), 0xFB);
    EXPECT_EQ(e5m2(kInf, Saturation::Finite), 0x7B);  // satfinite clamps infinities too
    EXPECT_EQ(e5m2(-kInf, Saturation::Finite), 0xFB);
}

TEST(Fp8CodecE5M2, NaN) {
    for (Saturation s : {Saturation::None, Saturation::Finite}) {
        EXPECT_EQ(e5m2(kNaN, s), 0x7F);
        EXPECT_EQ(e5m2(-kNaN, s), 0x7F);
        EXPECT_EQ(e5m2(std::bit_cast<float>(0x7F800001u), s), 0x7F);
    }
    for (std::uint8_t code : {0x7D, 0x7E, 0x7F, 0xFD, 0xFE, 0xFF})
        EXPECT_EQ(bitsOf(decodeFp8(code, Fp8Format::E5M2)), 0x7FFFFFFFu) << std::hex << int(code);
}

// Every code of both formats against the format definition computed in double, independently of the codec.
TEST(Fp8Codec, AllDecodesMatchTheFormatDefinition) {
    for (int c = 0; c < 256; ++c) {
        const auto code = static_cast<std::uint8_t>(c);
        const float e4 = decodeFp8(code, Fp8Format::E4M3);
        if ((code & 0x7F) == 0x7F)
            EXPECT_TRUE(std::isnan(e4)) << c;
        else
            EXPECT_EQ(static_cast<double>(e4), definedValue(code, 4, 3)) << c;

        const float e5 = decodeFp8(code, Fp8Format::E5M2);
        if ((code & 0x7F) > 0x7C)
            EXPECT_TRUE(std::isnan(e5)) << c;
        else if ((code & 0x7F) == 0x7C)
            EXPECT_EQ(e5, (code & 0x80) ? -kInf : kInf) << c;
        else
            EXPECT_EQ(static_cast<double>(e5), definedValue(code, 5, 2)) << c;
        EXPECT_EQ(std::signbit(e5), (code & 0x7F) <= 0x7C && (code & 0x80)) << c;
    }
}

// Every non-NaN code survives decode then encode; finite ones in both saturation modes.
TEST(Fp8Codec, EveryCodeRoundTrips) {
    for (Fp8Format format : {Fp8Format::E4M3, Fp8Format::E5M2}) {
        for (int c = 0; c < 256; ++c) {
            const auto code = static_cast<std::uint8_t>(c);
            const float value = decodeFp8(code, format);
            if (std::isnan(value)) continue;
            EXPECT_EQ(encodeFp8(value, format, Saturation::None), code) << c;
            if (std::isfinite(value)) {
                EXPECT_EQ(encodeFp8(value, format, Saturation::Finite), code) << c;
            }
        }
    }
}

TEST(Fp8Codec, BulkDecodeEqualsScalar) {
    std::vector<std::uint8_t> codes(256 * 3 + 5);
    for (std::size_t i = 0; i < codes.size(); ++i) codes[i] = static_cast<std::uint8_t>(i * 37 + 11);
    for (Fp8Format format : {Fp8Format::E4M3, Fp8Format::E5M2}) {
        std::vector<float> out(codes.size());
        decodeFp8(codes.data(), out.data(), codes.size(), format);
        for (std::size_t i = 0; i < codes.size(); ++i)
            ASSERT_EQ(bitsOf(out[i]), bitsOf(decodeFp8(codes[i], format))) << i;
    }
}

// Random bit patterns (all classes), random values around the FP8 ranges and the special values, at lengths and
// offsets that exercise the vector blocks and the scalar tail of both kernels.
TEST(Fp8Codec, ScalarBulkAndBaselineKernelAgree) {
    std::mt19937 rng(20240611u);
    std::vector<float> input;
    std::uniform_int_distribution<std::uint32_t> anyBits;
    for (int i = 0; i < 100000; ++i) input.push_back(std::bit_cast<float>(anyBits(rng)));
    std::uniform_real_distribution<float> wide(-70000.0f, 70000.0f);
    std::uniform_real_distribution<float> narrow(-1.0f, 1.0f);
    std::uniform_int_distribution<int> scale(-20, 17);
    for (int i = 0; i < 100000; ++i) {
        input.push_back(wide(rng));
        input.push_back(std::ldexp(narrow(rng), scale(rng)));
    }
    for (float special : {0.0f, -0.0f, kInf, -kInf, kNaN, -kNaN, 448.0f, 464.0f, above(464.0f), 57344.0f, 61440.0f,
                          below(61440.0f), std::ldexp(1.0f, -10), std::ldexp(1.0f, -17)})
        input.push_back(special);

    for (Fp8Format format : {Fp8Format::E4M3, Fp8Format::E5M2}) {
        for (Saturation saturation : {Saturation::None, Saturation::Finite}) {
            std::vector<std::uint8_t> expected(input.size());
            for (std::size_t i = 0; i < input.size(); ++i) expected[i] = encodeFp8(input[i], format, saturation);

            for (std::size_t offset : {0u, 1u, 3u}) {
                for (std::size_t n : {0u, 1u, 63u, 64u, 65u, 1000u, 4097u}) {
                    std::vector<std::uint8_t> bulk(n + 1, 0xA5), baseline(n + 1, 0xA5);
                    encodeFp8(input.data() + offset, bulk.data(), n, format, saturation);
                    encodeFp8Baseline(input.data() + offset, baseline.data(), n, format, saturation);
                    ASSERT_EQ(std::memcmp(bulk.data(), expected.data() + offset, n), 0) << n << " at " << offset;
                    ASSERT_EQ(std::memcmp(baseline.data(), expected.data() + offset, n), 0) << n << " at " << offset;
                    EXPECT_EQ(bulk[n], 0xA5) << "wrote past the end";
                    EXPECT_EQ(baseline[n], 0xA5) << "wrote past the end";
                }
            }
            std::vector<std::uint8_t> bulk(input.size()), baseline(input.size());
            encodeFp8(input.data(), bulk.data(), input.size(), format, saturation);
            encodeFp8Baseline(input.data(), baseline.data(), input.size(), format, saturation);
            EXPECT_EQ(bulk, expected);
            EXPECT_EQ(baseline, expected);
        }
    }
}

TEST(Fp8Codec, ReportsItsKernel) {
    const std::string kernel = fp8EncodeKernel();
    EXPECT_TRUE(kernel == "avx2" || kernel == "baseline") << kernel;
#if defined(__GNUC__) && defined(__x86_64__)
    __builtin_cpu_init();
    EXPECT_EQ(kernel == "avx2", static_cast<bool>(__builtin_cpu_supports("avx2")));
#endif
}

// All 256 codes of both formats against cuda_fp8.h: __nv_cvt_fp8_to_halfraw, widened to float by cuda_fp16.h.
TEST(Fp8CodecCudaReference, AllDecodesMatchTheToolkitBitForBit) {
    if (!reference::available()) GTEST_SKIP() << reference::unavailableReason();
    for (Fp8Format format : {Fp8Format::E4M3, Fp8Format::E5M2}) {
        for (int c = 0; c < 256; ++c) {
            const auto code = static_cast<std::uint8_t>(c);
            const float expected = reference::decode(code, format);
            EXPECT_EQ(bitsOf(decodeFp8(code, format)), bitsOf(expected))
                << (format == Fp8Format::E4M3 ? "E4M3 " : "E5M2 ") << std::hex << c << " half bits "
                << reference::decodeToHalfBits(code, format);
        }
    }
}

// The hand-computed cases above hold for the toolkit too, so the values this file asserts are NVIDIA's.
TEST(Fp8CodecCudaReference, HandValuesAgreeWithTheToolkit) {
    if (!reference::available()) GTEST_SKIP() << reference::unavailableReason();
    const std::vector<float> values{0.0f,
                                    -0.0f,
                                    std::ldexp(1.0f, -10),
                                    -1e-30f,
                                    1.0625f,
                                    1.1875f,
                                    1.125f,
                                    1.375f,
                                    448.0f,
                                    464.0f,
                                    above(464.0f),
                                    57344.0f,
                                    61440.0f,
                                    below(61440.0f),
                                    kInf,
                                    -kInf,
                                    kNaN,
                                    -kNaN,
                                    -1000.0f,
                                    1e6f};
    for (Fp8Format format : {Fp8Format::E4M3, Fp8Format::E5M2})
        for (Saturation saturation : {Saturation::None, Saturation::Finite})
            for (float v : values)
                EXPECT_EQ(int(encodeFp8(v, format, saturation)), int(reference::encode(v, format, saturation)))
                    << v << (format == Fp8Format::E4M3 ? " E4M3" : " E5M2")
                    << (saturation == Saturation::Finite ? " satfinite" : " nosat");
}

}  // namespace
}  // namespace fp8dash::gpu
