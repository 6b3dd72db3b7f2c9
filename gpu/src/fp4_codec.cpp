// The software FP4 codec (fp4_codec.h): E2M1 as cuda_fp4.h's host path rounds it, and the NVFP4 / MXFP4 block
// formats over it.
#include "fp8dash/gpu/fp4_codec.h"

#include "fp8dash/gpu/fp8_codec.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace fp8dash::gpu {
namespace {

// The eight magnitudes, by code. Neighbours' midpoints are exact in float, so the rounding below is exact.
constexpr float kE2M1Values[8] = {0.0f, 0.5f, 1.0f, 1.5f, 2.0f, 3.0f, 4.0f, 6.0f};

constexpr float kNvfp4ScaleMax = 448.0f;  // E4M3's largest finite value: the block scale's range
constexpr int kE2M1MaxExponent = 2;       // 6 = 1.5 x 2^2 (OCP MX v1.0: emax_elem of FP4 E2M1)

float blockAmax(std::span<const float> block) {
    float amax = 0.0f;
    for (float v : block) amax = std::max(amax, std::fabs(v));
    return amax;
}

void putNibble(std::vector<std::uint8_t>& codes, std::size_t index, std::uint8_t code) {
    std::uint8_t& byte = codes[index / 2];
    byte = static_cast<std::uint8_t>(index % 2 == 0 ? (byte & 0xF0u) | code : (byte & 0x0Fu) | (code << 4));
}

std::uint8_t getNibble(const std::vector<std::uint8_t>& codes, std::size_t index) {
    const std::uint8_t byte = codes[index / 2];
    return static_cast<std::uint8_t>(index % 2 == 0 ? byte & 0x0Fu : byte >> 4);
}

}  // namespace

std::uint8_t encodeE2M1(float value, Fp4Rounding rounding) {
    const std::uint32_t bits = std::bit_cast<std::uint32_t>(value);
    if ((bits & 0x7FFFFFFFu) > 0x7F800000u) return 0x7;  // NaN: +6, sign dropped (the header's choice)
    const std::uint8_t sign = (bits >> 31) != 0 ? 0x8 : 0x0;
    const float a = std::fabs(value);
    if (a <= 0.25f) return sign;                // zero or underflow, keeping the sign
    if (a > kE2M1MaxFinite) return sign | 0x7;  // saturate (infinity included)
    int i = 0;                                  // the largest code whose value is <= a
    while (i < 7 && kE2M1Values[i + 1] <= a) ++i;
    if (rounding == Fp4Rounding::NearestEven && i < 7) {
        const float mid = (kE2M1Values[i] + kE2M1Values[i + 1]) / 2;
        if (a > mid || (a == mid && (i & 1) != 0)) ++i;
    }
    return static_cast<std::uint8_t>(sign | i);
}

float decodeE2M1(std::uint8_t code) {
    const float v = kE2M1Values[code & 0x7u];
    return (code & 0x8u) != 0 ? -v : v;
}

float decodeUe8m0(std::uint8_t code) {
    if (code == 0xFF) return std::numeric_limits<float>::quiet_NaN();
    return std::ldexp(1.0f, static_cast<int>(code) - 127);
}

const char* fp4BlockFormatName(Fp4BlockFormat format) {
    return format == Fp4BlockFormat::Nvfp4 ? "nvfp4" : "mxfp4";
}

int fp4BlockSize(Fp4BlockFormat format) {
    return format == Fp4BlockFormat::Nvfp4 ? 16 : 32;
}

double fp4BitsPerValue(Fp4BlockFormat format) {
    return 4.0 + 8.0 / fp4BlockSize(format);  // 4-bit values + one 8-bit scale a block
}

Fp4Tensor quantizeFp4(std::span<const float> values, Fp4BlockFormat format) {
    for (std::size_t i = 0; i < values.size(); ++i)
        if (!std::isfinite(values[i]))
            throw std::invalid_argument("quantizeFp4: value " + std::to_string(i) +
                                        " is not finite (NaN or infinity); FP4 block scales need finite values");
    Fp4Tensor t;
    t.format = format;
    t.count = values.size();
    t.codes.assign((values.size() + 1) / 2, 0);
    const std::size_t block = static_cast<std::size_t>(fp4BlockSize(format));
    const std::size_t blocks = (values.size() + block - 1) / block;
    t.scales.reserve(blocks);
    if (format == Fp4BlockFormat::Nvfp4) {
        const float amax = blockAmax(values);
        t.tensorScale = amax > 0 ? amax / (kNvfp4ScaleMax * kE2M1MaxFinite) : 1.0f;
    }
    for (std::size_t b = 0; b < blocks; ++b) {
        const std::size_t begin = b * block;
        const std::span<const float> part = values.subspan(begin, std::min(block, values.size() - begin));
        const float amax = blockAmax(part);
        float divisor = 0.0f;  // 0: the block stores zeros
        if (format == Fp4BlockFormat::Nvfp4) {
            const std::uint8_t scale =
                encodeFp8(amax / kE2M1MaxFinite / t.tensorScale, Fp8Format::E4M3, Saturation::Finite);
            t.scales.push_back(scale);
            divisor = decodeFp8(scale, Fp8Format::E4M3) * t.tensorScale;
        } else {
            int shared = 0;  // the all-zero block's scale: 2^0
            if (amax > 0) {
                int e = 0;
                std::frexp(amax, &e);  // amax = m x 2^e, m in [0.5, 1): floor(log2(amax)) = e - 1, exactly
                shared = std::clamp(e - 1 - kE2M1MaxExponent, -127, 127);
            }
            t.scales.push_back(static_cast<std::uint8_t>(shared + 127));
            divisor = std::ldexp(1.0f, shared);
        }
        for (std::size_t i = 0; i < part.size(); ++i) {
            const std::uint8_t code =
                divisor > 0 ? encodeE2M1(part[i] / divisor, Fp4Rounding::NearestEven) : std::uint8_t{0};
            putNibble(t.codes, begin + i, code);
        }
    }
    return t;
}

std::vector<float> dequantizeFp4(const Fp4Tensor& t) {
    const std::size_t block = static_cast<std::size_t>(fp4BlockSize(t.format));
    const std::size_t blocks = (t.count + block - 1) / block;
    if (t.codes.size() < (t.count + 1) / 2 || t.scales.size() < blocks)
        throw std::invalid_argument("dequantizeFp4: the tensor holds " + std::to_string(t.codes.size()) +
                                    " code bytes and " + std::to_string(t.scales.size()) + " scales for " +
                                    std::to_string(t.count) + " values");
    std::vector<float> out(t.count);
    for (std::size_t i = 0; i < t.count; ++i) {
        const std::uint8_t s = t.scales[i / block];
        const float scale =
            t.format == Fp4BlockFormat::Nvfp4 ? decodeFp8(s, Fp8Format::E4M3) * t.tensorScale : decodeUe8m0(s);
        out[i] = decodeE2M1(getNibble(t.codes, i)) * scale;
    }
    return out;
}

}  // namespace fp8dash::gpu
