#pragma once
// Test-only reference for the FP8 codec: the CUDA toolkit's own host-side conversions from cuda_fp8.h, compiled by
// the C++ compiler. Built into every test build; when cuda_fp8.h was not found at configure time, available() is
// false, unavailableReason() says why, and the conversion functions throw std::logic_error.
// Pure functions, safe from any thread.

#include "fp8dash/gpu/fp8_codec.h"

#include <cstddef>
#include <cstdint>

namespace fp8dash::gpu::reference {

bool available();
const char* unavailableReason();  // empty when available
const char* headerPath();         // the cuda_fp8.h used, empty when unavailable

// __nv_cvt_float_to_fp8(value, __NV_NOSAT / __NV_SATFINITE, __NV_E4M3 / __NV_E5M2).
std::uint8_t encode(float value, Fp8Format format, Saturation saturation);
// The same for n values; the loop is specialised per format and mode, so exhaustive sweeps stay fast.
void encode(const float* in, std::uint8_t* out, std::size_t n, Fp8Format format, Saturation saturation);

// __nv_cvt_fp8_to_halfraw(code, format).x: the FP16 bit pattern.
std::uint16_t decodeToHalfBits(std::uint8_t code, Fp8Format format);
// That half widened to float by cuda_fp16.h's host __half2float.
float decode(std::uint8_t code, Fp8Format format);

}  // namespace fp8dash::gpu::reference
