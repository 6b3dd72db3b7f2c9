#pragma once
// Software FP8 codec (CPU): float <-> E4M3 / E5M2, bit-exact with the host-side conversions of the CUDA toolkit's
// cuda_fp8.h (__nv_cvt_float_to_fp8, and __nv_cvt_fp8_to_halfraw widened to float); tests/gpu proves it over all
// 2^32 float inputs. Plain C++, no CUDA, no Qt. Every function is pure and reentrant: safe from any thread.
//
// Encoding, exactly as cuda_fp8.h does it:
// - round to nearest, ties to even, including subnormal results; |x| <= half the smallest subnormal gives a zero
//   that keeps the sign of x (-1e-30f -> 0x80);
// - any NaN input -> 0x7F (positive: the sign is dropped) in both formats;
// - overflow: |x| above the largest finite value plus half an ulp (E4M3: > 464; E5M2: >= 61440), and +-infinity,
//   give +-max finite with Saturation::Finite (0x7E/0xFE, 0x7B/0xFB); with Saturation::None E4M3 gives NaN with the
//   sign of x (0x7F/0xFF, it has no infinity) and E5M2 gives +-infinity (0x7C/0xFC).
// Decoding: exact values; every NaN code (E4M3 0x7F/0xFF, E5M2 0x7D-0x7F/0xFD-0xFF) decodes to the canonical
// float NaN 0x7FFFFFFF, as cuda_fp8.h's half result does once cuda_fp16.h widens it to float.
// The encoders assume the default floating-point environment (round-to-nearest), which C++ programs start with.

#include <cstddef>
#include <cstdint>

namespace fp8dash::gpu {

enum class Fp8Format {
    E4M3,  // OCP "fn": 1 sign, 4 exponent (bias 7), 3 mantissa bits; max 448, NaN 0x7F/0xFF, no infinity
    E5M2,  // 1 sign, 5 exponent (bias 15), 2 mantissa bits; max 57344, +-infinity 0x7C/0xFC, NaN 0x7D-0x7F
};

enum class Saturation {
    None,    // __NV_NOSAT: overflow -> NaN (E4M3) or infinity (E5M2)
    Finite,  // __NV_SATFINITE: overflow and infinity -> +-max finite; NaN stays NaN
};

// Largest finite value: 448 (E4M3) or 57344 (E5M2).
float fp8MaxFinite(Fp8Format format);

// One value; the result is the FP8 bit pattern.
std::uint8_t encodeFp8(float value, Fp8Format format, Saturation saturation);
// One FP8 bit pattern to its exact float value.
float decodeFp8(std::uint8_t code, Fp8Format format);

// Bulk versions, the same results as the scalar ones element by element; vectorised (AVX2 when the CPU has it).
// `in` and `out` hold n elements each and must not overlap; n == 0 is allowed (pointers may then be null).
void encodeFp8(const float* in, std::uint8_t* out, std::size_t n, Fp8Format format, Saturation saturation);
void decodeFp8(const std::uint8_t* in, float* out, std::size_t n, Fp8Format format);

// The kernel the bulk encoder picked for this CPU, chosen once per process: "avx2", or "baseline" (SSE2 on x86-64,
// portable C++ elsewhere).
const char* fp8EncodeKernel();
// The bulk encoder's baseline kernel whatever the CPU offers, so tests and benchmarks can check and time both.
void encodeFp8Baseline(const float* in, std::uint8_t* out, std::size_t n, Fp8Format format, Saturation saturation);

}  // namespace fp8dash::gpu
