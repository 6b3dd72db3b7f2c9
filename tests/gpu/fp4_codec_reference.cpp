#include "fp4_codec_reference.h"

#include <stdexcept>

#if FP8DASH_HAVE_CUDA_FP4_HEADER
// Host C++ only: without __CUDACC__ the header compiles its portable paths (through double), the ones this project's
// codec must match bit for bit.
#include <cuda_fp4.h>
#endif

namespace fp8dash::gpu::reference {

#if FP8DASH_HAVE_CUDA_FP4_HEADER

namespace {

constexpr cudaRoundMode fp4RoundMode(Fp4Rounding rounding) {
    return rounding == Fp4Rounding::NearestEven ? cudaRoundNearest : cudaRoundZero;
}

template <cudaRoundMode Mode>
void encodeE2M1Loop(const float* in, std::uint8_t* out, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) out[i] = __nv_cvt_float_to_fp4(in[i], __NV_E2M1, Mode);
}

}  // namespace

bool fp4Available() {
    return true;
}
const char* fp4UnavailableReason() {
    return "";
}
const char* fp4HeaderPath() {
    return FP8DASH_CUDA_FP4_HEADER_PATH;
}

std::uint8_t encodeE2M1(float value, Fp4Rounding rounding) {
    return __nv_cvt_float_to_fp4(value, __NV_E2M1, fp4RoundMode(rounding));
}

void encodeE2M1(const float* in, std::uint8_t* out, std::size_t n, Fp4Rounding rounding) {
    if (rounding == Fp4Rounding::NearestEven)
        encodeE2M1Loop<cudaRoundNearest>(in, out, n);
    else
        encodeE2M1Loop<cudaRoundZero>(in, out, n);
}

std::uint16_t decodeE2M1ToHalfBits(std::uint8_t code) {
    return __nv_cvt_fp4_to_halfraw(code, __NV_E2M1).x;
}

float decodeE2M1(std::uint8_t code) {
    return __half2float(__half(__nv_cvt_fp4_to_halfraw(code, __NV_E2M1)));
}

#else

namespace {

[[noreturn]] void fp4Unavailable() {
    throw std::logic_error("the cuda_fp4.h reference was not built: the header was not found at configure time");
}

}  // namespace

bool fp4Available() {
    return false;
}
const char* fp4UnavailableReason() {
    return "cuda_fp4.h (CUDA toolkit 12.8 or newer) was not found when the project was configured; install the CUDA "
           "toolkit (or set CUDAToolkit_ROOT) and reconfigure to compare the FP4 codec with NVIDIA's host conversions";
}
const char* fp4HeaderPath() {
    return "";
}

std::uint8_t encodeE2M1(float, Fp4Rounding) {
    fp4Unavailable();
}
void encodeE2M1(const float*, std::uint8_t*, std::size_t, Fp4Rounding) {
    fp4Unavailable();
}
std::uint16_t decodeE2M1ToHalfBits(std::uint8_t) {
    fp4Unavailable();
}
float decodeE2M1(std::uint8_t) {
    fp4Unavailable();
}

#endif

}  // namespace fp8dash::gpu::reference
