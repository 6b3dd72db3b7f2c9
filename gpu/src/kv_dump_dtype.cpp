// The dtypes of a safetensors K/V dump (kv_dump.h): names, sizes and the exact binary16 -> float conversion. Apart
// from kv_dump.cpp so that they exist in every build, with or without nlohmann-json.
#include "fp8dash/gpu/kv_dump.h"

#include <cstring>

namespace fp8dash::gpu {

const char* kvDumpDtypeName(KvDumpDtype dtype) {
    switch (dtype) {
        case KvDumpDtype::Bf16:
            return "BF16";
        case KvDumpDtype::F16:
            return "F16";
        case KvDumpDtype::F32:
            return "F32";
    }
    return "?";
}

int kvDumpDtypeSize(KvDumpDtype dtype) {
    return dtype == KvDumpDtype::F32 ? 4 : 2;
}

float halfBitsToFloat(std::uint16_t bits) {
    const std::uint32_t sign = static_cast<std::uint32_t>(bits & 0x8000u) << 16;
    const std::uint32_t exponent = (bits >> 10) & 0x1fu;
    std::uint32_t mantissa = bits & 0x3ffu;
    std::uint32_t out = 0;
    if (exponent == 0x1f) {
        out = sign | 0x7f800000u | (mantissa << 13);  // infinity, or NaN with its payload
    } else if (exponent != 0) {
        out = sign | ((exponent + 127 - 15) << 23) | (mantissa << 13);
    } else if (mantissa != 0) {
        // Subnormal half m * 2^-24: normalise into float's exponent range (exact, float has room).
        int e = 127 - 15 + 1;
        while ((mantissa & 0x400u) == 0) {
            mantissa <<= 1;
            --e;
        }
        out = sign | (static_cast<std::uint32_t>(e) << 23) | ((mantissa & 0x3ffu) << 13);
    } else {
        out = sign;  // +-0
    }
    float f;
    std::memcpy(&f, &out, sizeof f);
    return f;
}

}  // namespace fp8dash::gpu
