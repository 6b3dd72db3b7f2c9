#pragma once
// Test-only reference for the FP4 codec: the CUDA toolkit's own host-side E2M1 conversions from cuda_fp4.h, compiled
// by the C++ compiler (as fp8_codec_reference.h does for cuda_fp8.h). When the header was not found at configure
// time, available() is false, unavailableReason() says why, and the conversion functions throw std::logic_error.
// Pure functions, safe from any thread.

#include "fp8dash/gpu/fp4_codec.h"

#include <cstddef>
#include <cstdint>

namespace fp8dash::gpu::reference {

bool fp4Available();
const char* fp4UnavailableReason();  // empty when available
const char* fp4HeaderPath();         // the cuda_fp4.h used, empty when unavailable

// __nv_cvt_float_to_fp4(value, __NV_E2M1, cudaRoundNearest / cudaRoundZero).
std::uint8_t encodeE2M1(float value, Fp4Rounding rounding);
// The same for n values, the loop specialised per rounding mode so the exhaustive sweep stays fast.
void encodeE2M1(const float* in, std::uint8_t* out, std::size_t n, Fp4Rounding rounding);
// __nv_cvt_fp4_to_halfraw(code, __NV_E2M1).x: the FP16 bit pattern.
std::uint16_t decodeE2M1ToHalfBits(std::uint8_t code);
// That half widened to float by cuda_fp16.h's host __half2float.
float decodeE2M1(std::uint8_t code);

}  // namespace fp8dash::gpu::reference
