#include "fp8dash/gpu/fp8_codec.h"

#include <array>
#include <bit>
#include <cstdint>

// The encoder works on the float's bits in uint32 lanes with no data-dependent branch: every lane computes the
// normal-range and the subnormal-range result and selects with comparisons, so GCC vectorises the bulk loop (SSE2
// at the baseline, AVX2 in the clone below). The rules it reproduces are those of cuda_fp8.h's host path
// (__nv_cvt_double_to_fp8 applied to the float widened to double), summarised in the public header.

#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
#define FP8DASH_CODEC_X86_DISPATCH 1
#endif

namespace fp8dash::gpu {
namespace {

struct EncodeParams {
    int shift;                   // float mantissa bits dropped: 23 - FP8 mantissa bits
    std::int32_t rebias;         // (127 - FP8 bias) << FP8 mantissa bits, removed from the shifted float bits
    std::int32_t minNormal;      // bits of the smallest FP8 normal as a float; below it the result is subnormal
    std::int32_t magic;          // bits of 2^k whose float ulp is the FP8 subnormal step (see encodeLane)
    std::int32_t overflowAbove;  // |x| bits above this overflow (ties at max + 1/2 ulp already resolved)
    std::uint32_t saturated;     // Saturation::Finite: max finite code
    std::uint32_t unsaturated;   // Saturation::None: NaN (E4M3) or infinity (E5M2)
};

constexpr EncodeParams kE4M3{
    .shift = 20,
    .rebias = (127 - 7) << 3,
    .minNormal = 0x3C800000,      // 2^-6
    .magic = 0x46800000,          // 2^14: its ulp is 2^-9, the E4M3 subnormal step
    .overflowAbove = 0x43E80000,  // 464 = 448 + 1/2 ulp; 464 itself ties to even, i.e. to 448
    .saturated = 0x7E,
    .unsaturated = 0x7F,
};

constexpr EncodeParams kE5M2{
    .shift = 21,
    .rebias = (127 - 15) << 2,
    .minNormal = 0x38800000,      // 2^-14
    .magic = 0x43000000,          // 2^7: its ulp is 2^-16, the E5M2 subnormal step
    .overflowAbove = 0x476FFFFF,  // 61440 = 57344 + 1/2 ulp ties to even, i.e. to the infinity's code: overflow
    .saturated = 0x7B,
    .unsaturated = 0x7C,
};

constexpr std::int32_t kFloatInfBits = 0x7F800000;
constexpr std::uint32_t kFp8NaN = 0x7F;  // cuda_fp8.h's NaN for both formats, sign dropped

template <Fp8Format F>
constexpr const EncodeParams& paramsFor() {
    return F == Fp8Format::E4M3 ? kE4M3 : kE5M2;
}

// All ones when the condition holds, else zero.
[[gnu::always_inline]] inline std::uint32_t maskIf(bool condition) {
    return 0u - static_cast<std::uint32_t>(condition);
}

template <Fp8Format F, Saturation S>
[[gnu::always_inline]] inline std::uint32_t encodeLane(std::uint32_t bits) {
    constexpr EncodeParams p = paramsFor<F>();
    const std::uint32_t sign = (bits >> 24) & 0x80u;
    const std::uint32_t magnitude = bits & 0x7FFFFFFFu;
    const auto a = static_cast<std::int32_t>(magnitude);  // |x| < 2^31: signed compares vectorise directly

    // Normal range: add just under half an ulp plus the kept lsb (round half to even), then shift; a carry out of
    // the mantissa moves into the exponent, which is the correct next binade. Unsigned, as NaN bits can wrap.
    constexpr std::uint32_t halfUlpMinusOne = (1u << (p.shift - 1)) - 1u;
    const std::uint32_t rounded = (magnitude + halfUlpMinusOne + ((magnitude >> p.shift) & 1u)) >> p.shift;
    const std::uint32_t normal = rounded - static_cast<std::uint32_t>(p.rebias);

    // Subnormal range: adding 2^k, whose ulp is the FP8 subnormal step, lets the FPU round |x| to that step (nearest,
    // ties to even); the low bits of the sum are then the FP8 code, up to the smallest normal's code.
    const float sum = std::bit_cast<float>(magnitude) + std::bit_cast<float>(p.magic);
    const std::uint32_t subnormal = std::bit_cast<std::uint32_t>(sum) - static_cast<std::uint32_t>(p.magic);

    // Selected with masks rather than `?:`: GCC would sink the float addition into a branch, where it could trap,
    // and the loop would no longer if-convert and vectorise.
    constexpr std::uint32_t overflowCode = S == Saturation::Finite ? p.saturated : p.unsaturated;
    const std::uint32_t isSubnormal = maskIf(a < p.minNormal);
    const std::uint32_t isOverflow = maskIf(a > p.overflowAbove);
    const std::uint32_t isNaN = maskIf(a > kFloatInfBits);
    std::uint32_t code = (subnormal & isSubnormal) | (normal & ~isSubnormal);
    code = ((overflowCode & isOverflow) | (code & ~isOverflow)) | sign;
    return (kFp8NaN & isNaN) | (code & ~isNaN);
}

// Whole blocks of a fixed length, then the tail: a constant trip count that the vector width divides lets GCC
// vectorise at -O2 too, where its "very cheap" cost model refuses loops that would need a scalar epilogue.
constexpr std::size_t kEncodeBlock = 64;

template <Fp8Format F, Saturation S>
[[gnu::always_inline]] inline void encodeLoop(const float* __restrict in, std::uint8_t* __restrict out, std::size_t n) {
    std::size_t i = 0;
    for (; n - i >= kEncodeBlock; i += kEncodeBlock)
        for (std::size_t j = 0; j < kEncodeBlock; ++j)
            out[i + j] = static_cast<std::uint8_t>(encodeLane<F, S>(std::bit_cast<std::uint32_t>(in[i + j])));
    for (; i < n; ++i) out[i] = static_cast<std::uint8_t>(encodeLane<F, S>(std::bit_cast<std::uint32_t>(in[i])));
}

using EncodeFn = void (*)(const float*, std::uint8_t*, std::size_t);

template <Fp8Format F, Saturation S>
void encodeBaseline(const float* __restrict in, std::uint8_t* __restrict out, std::size_t n) {
    encodeLoop<F, S>(in, out, n);
}

#ifdef FP8DASH_CODEC_X86_DISPATCH
template <Fp8Format F, Saturation S>
__attribute__((target("avx2"))) void encodeAvx2(const float* __restrict in, std::uint8_t* __restrict out,
                                                std::size_t n) {
    encodeLoop<F, S>(in, out, n);
}
#endif

struct EncodeTable {
    EncodeFn e4m3None;
    EncodeFn e4m3Finite;
    EncodeFn e5m2None;
    EncodeFn e5m2Finite;
    const char* name;

    EncodeFn pick(Fp8Format format, Saturation saturation) const {
        const bool finite = saturation == Saturation::Finite;
        return format == Fp8Format::E4M3 ? (finite ? e4m3Finite : e4m3None) : (finite ? e5m2Finite : e5m2None);
    }
};

constexpr EncodeTable kBaselineTable{
    encodeBaseline<Fp8Format::E4M3, Saturation::None>, encodeBaseline<Fp8Format::E4M3, Saturation::Finite>,
    encodeBaseline<Fp8Format::E5M2, Saturation::None>, encodeBaseline<Fp8Format::E5M2, Saturation::Finite>, "baseline"};

const EncodeTable& encodeTable() {
    // Chosen once per process; function-local static initialisation is thread-safe.
    static const EncodeTable table = [] {
#ifdef FP8DASH_CODEC_X86_DISPATCH
        __builtin_cpu_init();
        if (__builtin_cpu_supports("avx2"))
            return EncodeTable{
                encodeAvx2<Fp8Format::E4M3, Saturation::None>, encodeAvx2<Fp8Format::E4M3, Saturation::Finite>,
                encodeAvx2<Fp8Format::E5M2, Saturation::None>, encodeAvx2<Fp8Format::E5M2, Saturation::Finite>, "avx2"};
#endif
        return kBaselineTable;
    }();
    return table;
}

// Decoding: 256 exact values per format, built at compile time from the format definitions.
constexpr std::uint32_t kCanonicalNaNBits = 0x7FFFFFFF;

constexpr float decodeE4M3(std::uint32_t code) {
    const std::uint32_t sign = (code & 0x80u) << 24;
    const std::uint32_t exponent = (code >> 3) & 0xFu;
    const std::uint32_t mantissa = code & 0x7u;
    if ((code & 0x7Fu) == 0x7Fu) return std::bit_cast<float>(kCanonicalNaNBits);
    if (exponent == 0) {  // zero and subnormals: mantissa * 2^-9, exact in float
        const float magnitude = static_cast<float>(mantissa) * 0x1p-9f;
        return std::bit_cast<float>(std::bit_cast<std::uint32_t>(magnitude) | sign);
    }
    return std::bit_cast<float>(sign | ((exponent - 7 + 127) << 23) | (mantissa << 20));
}

constexpr float decodeE5M2(std::uint32_t code) {
    const std::uint32_t sign = (code & 0x80u) << 24;
    const std::uint32_t exponent = (code >> 2) & 0x1Fu;
    const std::uint32_t mantissa = code & 0x3u;
    if (exponent == 0x1F) return std::bit_cast<float>(mantissa == 0 ? (sign | 0x7F800000u) : kCanonicalNaNBits);
    if (exponent == 0) {  // zero and subnormals: mantissa * 2^-16
        const float magnitude = static_cast<float>(mantissa) * 0x1p-16f;
        return std::bit_cast<float>(std::bit_cast<std::uint32_t>(magnitude) | sign);
    }
    return std::bit_cast<float>(sign | ((exponent - 15 + 127) << 23) | (mantissa << 21));
}

template <float (*Decode)(std::uint32_t)>
constexpr std::array<float, 256> makeDecodeTable() {
    std::array<float, 256> table{};
    for (std::uint32_t code = 0; code < 256; ++code) table[code] = Decode(code);
    return table;
}

constexpr std::array<float, 256> kDecodeE4M3 = makeDecodeTable<decodeE4M3>();
constexpr std::array<float, 256> kDecodeE5M2 = makeDecodeTable<decodeE5M2>();

const std::array<float, 256>& decodeTable(Fp8Format format) {
    return format == Fp8Format::E4M3 ? kDecodeE4M3 : kDecodeE5M2;
}

}  // namespace

float fp8MaxFinite(Fp8Format format) {
    return format == Fp8Format::E4M3 ? 448.0f : 57344.0f;
}

std::uint8_t encodeFp8(float value, Fp8Format format, Saturation saturation) {
    const auto bits = std::bit_cast<std::uint32_t>(value);
    std::uint32_t code = 0;
    if (format == Fp8Format::E4M3)
        code = saturation == Saturation::Finite ? encodeLane<Fp8Format::E4M3, Saturation::Finite>(bits)
                                                : encodeLane<Fp8Format::E4M3, Saturation::None>(bits);
    else
        code = saturation == Saturation::Finite ? encodeLane<Fp8Format::E5M2, Saturation::Finite>(bits)
                                                : encodeLane<Fp8Format::E5M2, Saturation::None>(bits);
    return static_cast<std::uint8_t>(code);
}

float decodeFp8(std::uint8_t code, Fp8Format format) {
    return decodeTable(format)[code];
}

void encodeFp8(const float* in, std::uint8_t* out, std::size_t n, Fp8Format format, Saturation saturation) {
    if (n != 0) encodeTable().pick(format, saturation)(in, out, n);
}

void encodeFp8Baseline(const float* in, std::uint8_t* out, std::size_t n, Fp8Format format, Saturation saturation) {
    if (n != 0) kBaselineTable.pick(format, saturation)(in, out, n);
}

const char* fp8EncodeKernel() {
    return encodeTable().name;
}

void decodeFp8(const std::uint8_t* in, float* out, std::size_t n, Fp8Format format) {
    const float* table = decodeTable(format).data();
    for (std::size_t i = 0; i < n; ++i) out[i] = table[in[i]];
}

}  // namespace fp8dash::gpu
