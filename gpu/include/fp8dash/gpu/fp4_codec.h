#pragma once
// Software FP4 codec (CPU), the companion of fp8_codec.h: float <-> E2M1, bit-exact with the host-side conversions
// of the CUDA toolkit's cuda_fp4.h (__nv_cvt_float_to_fp4 with __NV_E2M1, and __nv_cvt_fp4_to_halfraw widened to
// float); tests/gpu proves it over every float bit pattern. On top of it the two block-scaled formats that vLLM
// serves and cuBLASLt multiplies on Blackwell:
// - NVFP4 (cuBLASLt CUBLASLT_MATMUL_MATRIX_SCALE_VEC16_UE4M3): blocks of 16 E2M1 values sharing one E4M3 scale,
//   and one FP32 scale for the whole tensor; 4 + 8/16 = 4.5 bits a value (the FP32 scale is a few bytes a tensor);
// - MXFP4 (OCP Microscaling v1.0, cuBLASLt CUBLASLT_MATMUL_MATRIX_SCALE_VEC32_UE8M0): blocks of 32 E2M1 values
//   sharing one UE8M0 (power-of-two) scale; 4 + 8/32 = 4.25 bits a value.
// Plain C++, no CUDA, no Qt. Every function is pure and reentrant: safe from any thread.
//
// E2M1 (1 sign, 2 exponent bits with bias 1, 1 mantissa bit): the values 0, 0.5, 1, 1.5, 2, 3, 4, 6 and their
// negatives; codes 0x0-0x7 positive, 0x8-0xF negative (0x8 is -0). No infinity, no NaN.
// Encoding, exactly as cuda_fp4.h's host path does it (decisions of the header, kept):
// - the rounding mode is chosen per call: round to nearest with ties to even (cudaRoundNearest, what the hardware
//   cvt.rn.satfinite.e2m1x2 does and what quantisers use) or toward zero (cudaRoundZero);
// - |x| <= 0.25 (half the smallest non-zero value) gives a zero that keeps the sign of x (-0.1 -> 0x8), in both modes;
// - always saturating: |x| > 6 and +-infinity give +-6 (0x7 / 0xF), in both modes;
// - any NaN gives +6 (0x7): the sign is dropped, as the header documents ("NaN input values result in positive
//   MAXNORM").
// Decoding: exact values; 0x8 decodes to -0.0f.

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace fp8dash::gpu {

enum class Fp4Rounding {
    NearestEven,  // cudaRoundNearest
    TowardZero,   // cudaRoundZero
};

inline constexpr float kE2M1MaxFinite = 6.0f;

// One value; the result is the 4-bit code in the low nibble (the high nibble is 0).
std::uint8_t encodeE2M1(float value, Fp4Rounding rounding = Fp4Rounding::NearestEven);
// The low nibble of `code` to its exact float value (the high nibble is ignored).
float decodeE2M1(std::uint8_t code);

// UE8M0 (the MX scale): 2^(code - 127); code 0xFF is NaN. Exact.
float decodeUe8m0(std::uint8_t code);

enum class Fp4BlockFormat {
    Nvfp4,  // 16-value blocks, E4M3 block scales, an FP32 tensor scale
    Mxfp4,  // 32-value blocks, UE8M0 block scales
};
const char* fp4BlockFormatName(Fp4BlockFormat format);  // "nvfp4", "mxfp4"
int fp4BlockSize(Fp4BlockFormat format);                // 16, 32
// Storage bits per value, block scales included (the NVFP4 tensor scale left out): 4.5 and 4.25.
double fp4BitsPerValue(Fp4BlockFormat format);

// A tensor in one of the block formats. Values are packed two a byte in cuda_fp4.h's __nv_fp4x2 order: value 2i in
// the low nibble of byte i, value 2i + 1 in the high nibble. The last block may be short (the count is not a multiple
// of the block size); its scale is computed over the values it has.
struct Fp4Tensor {
    Fp4BlockFormat format = Fp4BlockFormat::Nvfp4;
    std::size_t count = 0;             // values
    std::vector<std::uint8_t> codes;   // (count + 1) / 2 bytes
    std::vector<std::uint8_t> scales;  // one a block: E4M3 (NVFP4) or UE8M0 (MXFP4) bit patterns
    float tensorScale = 1.0f;          // NVFP4's per-tensor FP32 scale (decode side); 1 for MXFP4
};

// Quantises finite values (throws std::invalid_argument naming the index of the first NaN or infinity).
// NVFP4, the recipe of NVIDIA's NVFP4 quantisers (TensorRT Model Optimizer, llm-compressor): tensorScale =
// amax / (448 x 6) over the whole tensor (1 when every value is 0); each block's scale = E4M3(block amax / 6 /
// tensorScale) rounded to nearest even with saturation to 448 (encodeFp8, Saturation::Finite); each value =
// E2M1(x / (decoded block scale x tensorScale)) rounded to nearest even, the product and quotient in float; a block
// whose scale encodes to 0 stores zeros.
// MXFP4, OCP Microscaling v1.0 section 6.3: the block's shared exponent = floor(log2(block amax)) - 2 (2 = the
// exponent of E2M1's largest value, 6 = 1.5 x 2^2), clamped to UE8M0's [-127, 127]; each value = E2M1(x / 2^shared)
// rounded to nearest even, saturating at 6 (a block amax in [6, 8) x 2^(shared + 2) clips, as the spec has it). An
// all-zero block gets the scale 1 (code 127).
Fp4Tensor quantizeFp4(std::span<const float> values, Fp4BlockFormat format);
// Back to float: E2M1 value x block scale (x tensorScale for NVFP4), in float.
std::vector<float> dequantizeFp4(const Fp4Tensor& tensor);

}  // namespace fp8dash::gpu
