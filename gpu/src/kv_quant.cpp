#include "fp8dash/gpu/kv_quant.h"

#include "fp8dash/gpu/fp8_codec.h"
#include "fp8dash/gpu/kv_synthetic.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace fp8dash::gpu {
namespace {

constexpr float kE4m3Max = 448.0f;

// Chunk for the x / scale staging buffer: small enough to stay in L1 next to the codes.
constexpr std::size_t kChunk = 2048;

void checkShape(const KvShape& shape) {
    if (shape.layers < 1 || shape.kvHeads < 1 || shape.headDim < 1 || shape.tokens < 1)
        throw std::invalid_argument("kv_quant: every dimension of the KV shape must be positive");
}

std::size_t blockElements(const KvShape& shape, int tokens) {
    return static_cast<std::size_t>(tokens) * static_cast<std::size_t>(shape.headDim);
}

float amaxOf(const float* data, std::size_t n) {
    float amax = 0;
    for (std::size_t i = 0; i < n; ++i) amax = std::max(amax, std::fabs(data[i]));
    return amax;
}

// Codes for the first `tokens` tokens into preallocated buffers; kept apart from the allocation so the sweep times
// the quantise step alone.
void quantizeInto(const KvCache& cache, const KvScales& scales, int tokens, std::uint8_t* keys, std::uint8_t* values) {
    const KvShape& shape = cache.shape;
    const std::size_t n = blockElements(shape, tokens);
    std::size_t outOffset = 0;
    for (int layer = 0; layer < shape.layers; ++layer) {
        for (int head = 0; head < shape.kvHeads; ++head) {
            const std::size_t inOffset = shape.offset(layer, head, 0);
            quantizeKvBlock(cache.keys.data() + inOffset, keys + outOffset, n, scales.keyScale(layer, head));
            quantizeKvBlock(cache.values.data() + inOffset, values + outOffset, n, scales.valueScale(layer, head));
            outOffset += n;
        }
    }
}

void checkScales(const KvShape& shape, const KvScales& scales) {
    const auto expected = static_cast<std::size_t>(shape.layers) * static_cast<std::size_t>(shape.kvHeads);
    if (scales.kvHeads != shape.kvHeads || scales.key.size() != expected || scales.value.size() != expected)
        throw std::invalid_argument("kv_quant: the scales do not match the cache's shape");
}

}  // namespace

const char* kvScalingName(KvScaling scaling) {
    switch (scaling) {
        case KvScaling::None:
            return "none";
        case KvScaling::PerTensor:
            return "per_tensor";
        case KvScaling::PerHead:
            return "per_head";
    }
    return "unknown";
}

std::size_t KvShape::elementsPerTensor() const {
    return static_cast<std::size_t>(layers) * static_cast<std::size_t>(kvHeads) * static_cast<std::size_t>(tokens) *
           static_cast<std::size_t>(headDim);
}

std::size_t KvShape::offset(int layer, int head, int token) const {
    const std::size_t block =
        static_cast<std::size_t>(layer) * static_cast<std::size_t>(kvHeads) + static_cast<std::size_t>(head);
    return (block * static_cast<std::size_t>(tokens) + static_cast<std::size_t>(token)) *
           static_cast<std::size_t>(headDim);
}

float roundToBf16(float value) {
    if (std::isnan(value)) return value;
    std::uint32_t bits = std::bit_cast<std::uint32_t>(value);
    // Adding 0x7FFF plus the lowest kept bit rounds to nearest with ties to even; infinities have zero low bits and
    // the largest finite floats round up to infinity, as a bfloat16 conversion does.
    bits += 0x7FFFu + ((bits >> 16) & 1u);
    return std::bit_cast<float>(bits & 0xFFFF0000u);
}

KvCache generateKvCache(const KvShape& shape, std::uint64_t seed, const KvGeneratorOptions& options) {
    checkShape(shape);
    SyntheticKvSource source(shape, seed, options);
    KvCache cache;
    cache.shape = shape;
    cache.keys.resize(shape.elementsPerTensor());
    cache.values.resize(shape.elementsPerTensor());
    std::vector<float> keys;
    std::vector<float> values;
    for (int layer = 0; layer < shape.layers; ++layer) {
        source.loadLayer(layer, shape.tokens, keys, values);
        const std::size_t offset = shape.offset(layer, 0, 0);
        std::copy(keys.begin(), keys.end(), cache.keys.begin() + static_cast<std::ptrdiff_t>(offset));
        std::copy(values.begin(), values.end(), cache.values.begin() + static_cast<std::ptrdiff_t>(offset));
    }
    return cache;
}

KvScales computeKvScales(const KvCache& cache, KvScaling scaling, int calibrationTokens) {
    if (calibrationTokens < 1) throw std::invalid_argument("kv_quant: calibrationTokens must be at least 1");
    const KvShape& shape = cache.shape;
    checkShape(shape);
    const auto count = static_cast<std::size_t>(shape.layers) * static_cast<std::size_t>(shape.kvHeads);
    KvScales scales;
    scales.scaling = scaling;
    scales.kvHeads = shape.kvHeads;
    scales.key.assign(count, 1.0f);
    scales.value.assign(count, 1.0f);
    // Division in float, as vLLM's calc_kv_scales does on fp32 tensors; a zero amax would give scale 0 (and NaN
    // codes), so it keeps 1.0.
    auto scaleOf = [](float amax, float divisor) { return amax > 0 ? amax / divisor : 1.0f; };

    switch (scaling) {
        case KvScaling::None:
            break;
        case KvScaling::PerTensor: {
            const int calibration = std::min(calibrationTokens, shape.tokens);
            const std::size_t n = blockElements(shape, calibration);
            for (int layer = 0; layer < shape.layers; ++layer) {
                float keyAmax = 0;
                float valueAmax = 0;
                for (int head = 0; head < shape.kvHeads; ++head) {
                    const std::size_t offset = shape.offset(layer, head, 0);
                    keyAmax = std::max(keyAmax, amaxOf(cache.keys.data() + offset, n));
                    valueAmax = std::max(valueAmax, amaxOf(cache.values.data() + offset, n));
                }
                for (int head = 0; head < shape.kvHeads; ++head) {
                    const auto i = static_cast<std::size_t>(layer * shape.kvHeads + head);
                    scales.key[i] = scaleOf(keyAmax, kVllmKeyScaleDivisor);
                    scales.value[i] = scaleOf(valueAmax, kVllmValueScaleDivisor);
                }
            }
            break;
        }
        case KvScaling::PerHead: {
            // amax / 448 in float can round down, and then amax / scale is a hair above 448 (448.00003): E4M3 holds
            // it as 448 either way, but it would count as saturated. The next float up keeps the head's own amax in
            // range.
            auto fullRange = [&](float amax) {
                float scale = scaleOf(amax, kE4m3Max);
                if (amax / scale > kE4m3Max) scale = std::nextafter(scale, std::numeric_limits<float>::infinity());
                return scale;
            };
            const std::size_t n = blockElements(shape, shape.tokens);
            for (int layer = 0; layer < shape.layers; ++layer) {
                for (int head = 0; head < shape.kvHeads; ++head) {
                    const std::size_t offset = shape.offset(layer, head, 0);
                    const auto i = static_cast<std::size_t>(layer * shape.kvHeads + head);
                    scales.key[i] = fullRange(amaxOf(cache.keys.data() + offset, n));
                    scales.value[i] = fullRange(amaxOf(cache.values.data() + offset, n));
                }
            }
            break;
        }
    }
    return scales;
}

KvScales computeLayerKvScales(const KvCache& layer, KvScaling scaling, int calibrationTokens) {
    if (layer.shape.layers != 1) throw std::invalid_argument("kv_quant: computeLayerKvScales takes a one-layer cache");
    return computeKvScales(layer, scaling, calibrationTokens);
}

std::uint64_t countSaturated(const float* data, std::size_t n, float scale) {
    std::uint64_t count = 0;
    if (scale == 1.0f) {
        for (std::size_t i = 0; i < n; ++i) count += std::fabs(data[i]) > kE4m3Max ? 1u : 0u;
        return count;
    }
    for (std::size_t i = 0; i < n; ++i) count += std::fabs(data[i] / scale) > kE4m3Max ? 1u : 0u;
    return count;
}

void quantizeKvBlock(const float* in, std::uint8_t* out, std::size_t n, float scale) {
    if (scale == 1.0f) {  // a raw cast: x / 1 == x, so skip the staging copy
        encodeFp8(in, out, n, Fp8Format::E4M3, Saturation::Finite);
        return;
    }
    std::array<float, kChunk> scaled;
    for (std::size_t begin = 0; begin < n; begin += kChunk) {
        const std::size_t count = std::min(kChunk, n - begin);
        for (std::size_t i = 0; i < count; ++i) scaled[i] = in[begin + i] / scale;
        encodeFp8(scaled.data(), out + begin, count, Fp8Format::E4M3, Saturation::Finite);
    }
}

void dequantizeKvBlock(const std::uint8_t* in, float* out, std::size_t n, float scale) {
    decodeFp8(in, out, n, Fp8Format::E4M3);
    for (std::size_t i = 0; i < n; ++i) out[i] *= scale;
}

QuantizedKv quantizeKv(const KvCache& cache, const KvScales& scales, int tokens) {
    checkShape(cache.shape);
    if (tokens < 1 || tokens > cache.shape.tokens)
        throw std::invalid_argument("kv_quant: tokens must be in [1, " + std::to_string(cache.shape.tokens) + "]");
    checkScales(cache.shape, scales);
    QuantizedKv quantized;
    quantized.resizeFor(cache.shape, scales, tokens);
    quantizeInto(cache, scales, tokens, quantized.keys.data(), quantized.values.data());
    return quantized;
}

KvCache dequantizeKv(const QuantizedKv& quantized) {
    const KvShape& shape = quantized.shape;
    checkShape(shape);
    checkScales(shape, quantized.scales);
    KvCache cache;
    cache.shape = shape;
    cache.keys.resize(shape.elementsPerTensor());
    cache.values.resize(shape.elementsPerTensor());
    const std::size_t n = blockElements(shape, shape.tokens);
    for (int layer = 0; layer < shape.layers; ++layer) {
        for (int head = 0; head < shape.kvHeads; ++head) {
            const std::size_t offset = shape.offset(layer, head, 0);
            dequantizeKvBlock(quantized.keys.data() + offset, cache.keys.data() + offset, n,
                              quantized.scales.keyScale(layer, head));
            dequantizeKvBlock(quantized.values.data() + offset, cache.values.data() + offset, n,
                              quantized.scales.valueScale(layer, head));
        }
    }
    return cache;
}

void ErrorAccumulator::add(std::span<const float> reference, std::span<const float> approx) {
    if (reference.size() != approx.size()) throw std::invalid_argument("kv_quant: compared tensors differ in size");
    for (std::size_t i = 0; i < reference.size(); ++i) {
        const double x = reference[i];
        const double q = approx[i];
        const double diff = q - x;
        m_diffSquares += diff * diff;
        m_refSquares += x * x;
        m_approxSquares += q * q;
        m_dot += q * x;
        m_maxAbs = std::max(m_maxAbs, std::fabs(diff));
    }
}

void ErrorAccumulator::merge(const ErrorAccumulator& other) {
    m_diffSquares += other.m_diffSquares;
    m_refSquares += other.m_refSquares;
    m_approxSquares += other.m_approxSquares;
    m_dot += other.m_dot;
    m_maxAbs = std::max(m_maxAbs, other.m_maxAbs);
}

TensorError ErrorAccumulator::result() const {
    TensorError error;
    error.maxAbsError = m_maxAbs;
    if (m_refSquares > 0)
        error.relRmse = std::sqrt(m_diffSquares / m_refSquares);
    else
        error.relRmse = m_diffSquares > 0 ? INFINITY : 0.0;
    const double denominator = std::sqrt(m_refSquares) * std::sqrt(m_approxSquares);
    if (denominator > 0)
        error.cosine = m_dot / denominator;
    else
        error.cosine = (m_refSquares == 0 && m_approxSquares == 0) ? 1.0 : 0.0;
    return error;
}

TensorError compareTensors(std::span<const float> reference, std::span<const float> approx) {
    ErrorAccumulator accumulator;
    accumulator.add(reference, approx);
    return accumulator.result();
}

}  // namespace fp8dash::gpu
