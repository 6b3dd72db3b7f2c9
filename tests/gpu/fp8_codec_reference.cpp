#include "fp8_codec_reference.h"

#include <stdexcept>

#if FP8DASH_HAVE_CUDA_FP8_HEADER
// Host C++ only: without __CUDACC__ the header compiles its portable bit-manipulation paths, the ones this
// project's codec must match bit for bit.
#include <cuda_fp8.h>
#endif

namespace fp8dash::gpu::reference {

#if FP8DASH_HAVE_CUDA_FP8_HEADER

namespace {

constexpr __nv_fp8_interpretation_t interpretation(Fp8Format format) {
    return format == Fp8Format::E4M3 ? __NV_E4M3 : __NV_E5M2;
}

constexpr __nv_saturation_t saturationMode(Saturation saturation) {
    return saturation == Saturation::Finite ? __NV_SATFINITE : __NV_NOSAT;
}

// Constant arguments let the compiler specialise the header's conversion for each of the four sweeps.
template <__nv_saturation_t Sat, __nv_fp8_interpretation_t Interp>
void encodeLoop(const float* in, std::uint8_t* out, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) out[i] = __nv_cvt_float_to_fp8(in[i], Sat, Interp);
}

}  // namespace

bool available() {
    return true;
}
const char* unavailableReason() {
    return "";
}
const char* headerPath() {
    return FP8DASH_CUDA_FP8_HEADER_PATH;
}

std::uint8_t encode(float value, Fp8Format format, Saturation saturation) {
    return __nv_cvt_float_to_fp8(value, saturationMode(saturation), interpretation(format));
}

void encode(const float* in, std::uint8_t* out, std::size_t n, Fp8Format format, Saturation saturation) {
    const bool finite = saturation == Saturation::Finite;
    if (format == Fp8Format::E4M3 && finite)
        encodeLoop<__NV_SATFINITE, __NV_E4M3>(in, out, n);
    else if (format == Fp8Format::E4M3)
        encodeLoop<__NV_NOSAT, __NV_E4M3>(in, out, n);
    else if (finite)
        encodeLoop<__NV_SATFINITE, __NV_E5M2>(in, out, n);
    else
        encodeLoop<__NV_NOSAT, __NV_E5M2>(in, out, n);
}

std::uint16_t decodeToHalfBits(std::uint8_t code, Fp8Format format) {
    return __nv_cvt_fp8_to_halfraw(code, interpretation(format)).x;
}

float decode(std::uint8_t code, Fp8Format format) {
    return __half2float(__half(__nv_cvt_fp8_to_halfraw(code, interpretation(format))));
}

#else

namespace {

[[noreturn]] void unavailable() {
    throw std::logic_error("the cuda_fp8.h reference was not built: the header was not found at configure time");
}

}  // namespace

bool available() {
    return false;
}
const char* unavailableReason() {
    return "cuda_fp8.h (CUDA toolkit) was not found when the project was configured; install the CUDA toolkit "
           "(or set CUDAToolkit_ROOT) and reconfigure to compare the codec with NVIDIA's host conversions";
}
const char* headerPath() {
    return "";
}

std::uint8_t encode(float, Fp8Format, Saturation) {
    unavailable();
}
void encode(const float*, std::uint8_t*, std::size_t, Fp8Format, Saturation) {
    unavailable();
}
std::uint16_t decodeToHalfBits(std::uint8_t, Fp8Format) {
    unavailable();
}
float decode(std::uint8_t, Fp8Format) {
    unavailable();
}

#endif

}  // namespace fp8dash::gpu::reference
