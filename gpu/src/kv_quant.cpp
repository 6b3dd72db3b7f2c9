#include "fp8dash/gpu/kv_quant.h"

#include "fp8dash/gpu/fp8_codec.h"

#include <algorithm>
#include <array>
#include <bit>
#include <chrono>
#include <cmath>
#include <random>
#include <stdexcept>
#include <string>

namespace fp8dash::gpu {
namespace {

constexpr float kE4m3Max = 448.0f;

// Chunk for the x / scale staging buffer: small enough to stay in L1 next to the codes.
constexpr std::size_t kChunk = 2048;

void checkShape(const KvShape& shape)
{
    if (shape.layers < 1 || shape.kvHeads < 1 || shape.headDim < 1 || shape.tokens < 1)
        throw std::invalid_argument("kv_quant: every dimension of the KV shape must be positive");
}

std::size_t blockElements(const KvShape& shape, int tokens)
{
    return static_cast<std::size_t>(tokens) * static_cast<std::size_t>(shape.headDim);
}

float amaxOf(const float* data, std::size_t n)
{
    float amax = 0;
    for (std::size_t i = 0; i < n; ++i)
        amax = std::max(amax, std::fabs(data[i]));
    return amax;
}

// Codes for the first `tokens` tokens into preallocated buffers; kept apart from the allocation so the sweep times
// the quantise step alone.
void quantizeInto(const KvCache& cache, const KvScales& scales, int tokens, std::uint8_t* keys, std::uint8_t* values)
{
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

void checkScales(const KvShape& shape, const KvScales& scales)
{
    const auto expected = static_cast<std::size_t>(shape.layers) * static_cast<std::size_t>(shape.kvHeads);
    if (scales.kvHeads != shape.kvHeads || scales.key.size() != expected || scales.value.size() != expected)
        throw std::invalid_argument("kv_quant: the scales do not match the cache's shape");
}

double norm(const std::vector<double>& v)
{
    double sum = 0;
    for (double x : v)
        sum += x * x;
    return std::sqrt(sum);
}

}  // namespace

const char* kvScalingName(KvScaling scaling)
{
    switch (scaling) {
    case KvScaling::None: return "none";
    case KvScaling::PerTensor: return "per_tensor";
    case KvScaling::PerHead: return "per_head";
    }
    return "unknown";
}

std::size_t KvShape::elementsPerTensor() const
{
    return static_cast<std::size_t>(layers) * static_cast<std::size_t>(kvHeads) * static_cast<std::size_t>(tokens) *
           static_cast<std::size_t>(headDim);
}

std::size_t KvShape::offset(int layer, int head, int token) const
{
    const std::size_t block = static_cast<std::size_t>(layer) * static_cast<std::size_t>(kvHeads) +
                              static_cast<std::size_t>(head);
    return (block * static_cast<std::size_t>(tokens) + static_cast<std::size_t>(token)) *
           static_cast<std::size_t>(headDim);
}

float roundToBf16(float value)
{
    if (std::isnan(value))
        return value;
    std::uint32_t bits = std::bit_cast<std::uint32_t>(value);
    // Adding 0x7FFF plus the lowest kept bit rounds to nearest with ties to even; infinities have zero low bits and
    // the largest finite floats round up to infinity, as a bfloat16 conversion does.
    bits += 0x7FFFu + ((bits >> 16) & 1u);
    return std::bit_cast<float>(bits & 0xFFFF0000u);
}

KvCache generateKvCache(const KvShape& shape, std::uint64_t seed, const KvGeneratorOptions& options)
{
    checkShape(shape);
    KvCache cache;
    cache.shape = shape;
    cache.keys.resize(shape.elementsPerTensor());
    cache.values.resize(shape.elementsPerTensor());

    std::mt19937_64 rng(seed);
    std::normal_distribution<float> normal(0.0f, 1.0f);
    auto logUniform = [&rng](float lo, float hi) {
        std::uniform_real_distribution<double> u(std::log(lo), std::log(hi));
        return static_cast<float>(std::exp(u(rng)));
    };
    const int outliers = std::clamp(options.outlierChannelsPerHead, 0, shape.headDim);
    const auto dim = static_cast<std::size_t>(shape.headDim);

    for (int layer = 0; layer < shape.layers; ++layer) {
        // Log-spaced so the first and last layers sit at the two ends of the range whatever the seed.
        const double t = shape.layers > 1 ? static_cast<double>(layer) / (shape.layers - 1) : 0.5;
        const auto layerGain = static_cast<float>(
            std::exp(std::log(options.layerGainMin) + t * (std::log(options.layerGainMax) - std::log(options.layerGainMin))));
        for (int head = 0; head < shape.kvHeads; ++head) {
            const float gain = layerGain * logUniform(options.headGainMin, options.headGainMax);
            std::vector<float> keyStd(dim, options.keyStd * gain);
            std::vector<float> valueStd(dim, options.valueStd * gain);
            std::vector<bool> taken(dim, false);
            std::uniform_int_distribution<int> pick(0, shape.headDim - 1);
            for (int i = 0; i < outliers; ++i) {
                int channel = pick(rng);
                while (taken[static_cast<std::size_t>(channel)])
                    channel = pick(rng);
                const auto c = static_cast<std::size_t>(channel);
                taken[c] = true;
                keyStd[c] *= logUniform(options.keyOutlierMin, options.keyOutlierMax);
                valueStd[c] *= logUniform(options.valueOutlierMin, options.valueOutlierMax);
            }
            float* keys = cache.keys.data() + shape.offset(layer, head, 0);
            float* values = cache.values.data() + shape.offset(layer, head, 0);
            for (int token = 0; token < shape.tokens; ++token) {
                for (std::size_t d = 0; d < dim; ++d) {
                    const std::size_t i = static_cast<std::size_t>(token) * dim + d;
                    keys[i] = roundToBf16(normal(rng) * keyStd[d]);
                    values[i] = roundToBf16(normal(rng) * valueStd[d]);
                }
            }
        }
    }
    return cache;
}

KvScales computeKvScales(const KvCache& cache, KvScaling scaling, int calibrationTokens)
{
    if (calibrationTokens < 1)
        throw std::invalid_argument("kv_quant: calibrationTokens must be at least 1");
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
    case KvScaling::None: break;
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
        const std::size_t n = blockElements(shape, shape.tokens);
        for (int layer = 0; layer < shape.layers; ++layer) {
            for (int head = 0; head < shape.kvHeads; ++head) {
                const std::size_t offset = shape.offset(layer, head, 0);
                const auto i = static_cast<std::size_t>(layer * shape.kvHeads + head);
                scales.key[i] = scaleOf(amaxOf(cache.keys.data() + offset, n), kE4m3Max);
                scales.value[i] = scaleOf(amaxOf(cache.values.data() + offset, n), kE4m3Max);
            }
        }
        break;
    }
    }
    return scales;
}

void quantizeKvBlock(const float* in, std::uint8_t* out, std::size_t n, float scale)
{
    if (scale == 1.0f) {  // a raw cast: x / 1 == x, so skip the staging copy
        encodeFp8(in, out, n, Fp8Format::E4M3, Saturation::Finite);
        return;
    }
    std::array<float, kChunk> scaled;
    for (std::size_t begin = 0; begin < n; begin += kChunk) {
        const std::size_t count = std::min(kChunk, n - begin);
        for (std::size_t i = 0; i < count; ++i)
            scaled[i] = in[begin + i] / scale;
        encodeFp8(scaled.data(), out + begin, count, Fp8Format::E4M3, Saturation::Finite);
    }
}

void dequantizeKvBlock(const std::uint8_t* in, float* out, std::size_t n, float scale)
{
    decodeFp8(in, out, n, Fp8Format::E4M3);
    for (std::size_t i = 0; i < n; ++i)
        out[i] *= scale;
}

QuantizedKv quantizeKv(const KvCache& cache, const KvScales& scales, int tokens)
{
    checkShape(cache.shape);
    if (tokens < 1 || tokens > cache.shape.tokens)
        throw std::invalid_argument("kv_quant: tokens must be in [1, " + std::to_string(cache.shape.tokens) + "]");
    checkScales(cache.shape, scales);
    QuantizedKv quantized;
    quantized.shape = cache.shape;
    quantized.shape.tokens = tokens;
    quantized.scales = scales;
    quantized.keys.resize(quantized.shape.elementsPerTensor());
    quantized.values.resize(quantized.shape.elementsPerTensor());
    quantizeInto(cache, scales, tokens, quantized.keys.data(), quantized.values.data());
    return quantized;
}

KvCache dequantizeKv(const QuantizedKv& quantized)
{
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

void ErrorAccumulator::add(std::span<const float> reference, std::span<const float> approx)
{
    if (reference.size() != approx.size())
        throw std::invalid_argument("kv_quant: compared tensors differ in size");
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

TensorError ErrorAccumulator::result() const
{
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

TensorError compareTensors(std::span<const float> reference, std::span<const float> approx)
{
    ErrorAccumulator accumulator;
    accumulator.add(reference, approx);
    return accumulator.result();
}

std::vector<double> attentionOutput(std::span<const float> query, std::span<const float> keys,
                                    std::span<const float> values, int tokens, int headDim)
{
    if (tokens < 1 || headDim < 1)
        throw std::invalid_argument("kv_quant: attention needs at least one token and one dimension");
    const auto dim = static_cast<std::size_t>(headDim);
    const auto count = static_cast<std::size_t>(tokens);
    if (query.size() < dim || keys.size() < count * dim || values.size() < count * dim)
        throw std::invalid_argument("kv_quant: attention inputs are smaller than tokens * headDim");
    const double invSqrtD = 1.0 / std::sqrt(static_cast<double>(headDim));
    std::vector<double> logits(count);
    double maxLogit = -INFINITY;
    for (std::size_t t = 0; t < count; ++t) {
        double dot = 0;
        for (std::size_t d = 0; d < dim; ++d)
            dot += static_cast<double>(query[d]) * static_cast<double>(keys[t * dim + d]);
        logits[t] = dot * invSqrtD;
        maxLogit = std::max(maxLogit, logits[t]);
    }
    // Subtracting the max keeps exp() in range; the normalisation makes the result the same softmax.
    double sum = 0;
    for (double& logit : logits) {
        logit = std::exp(logit - maxLogit);
        sum += logit;
    }
    std::vector<double> out(dim, 0.0);
    for (std::size_t t = 0; t < count; ++t) {
        const double p = logits[t] / sum;
        for (std::size_t d = 0; d < dim; ++d)
            out[d] += p * static_cast<double>(values[t * dim + d]);
    }
    return out;
}

double attentionRelativeError(std::span<const float> query, std::span<const float> refKeys,
                              std::span<const float> refValues, std::span<const float> approxKeys,
                              std::span<const float> approxValues, int tokens, int headDim)
{
    const std::vector<double> reference = attentionOutput(query, refKeys, refValues, tokens, headDim);
    const std::vector<double> approx = attentionOutput(query, approxKeys, approxValues, tokens, headDim);
    std::vector<double> diff(reference.size());
    for (std::size_t d = 0; d < diff.size(); ++d)
        diff[d] = approx[d] - reference[d];
    const double refNorm = norm(reference);
    const double diffNorm = norm(diff);
    if (refNorm == 0)
        return diffNorm == 0 ? 0.0 : INFINITY;
    return diffNorm / refNorm;
}

KvSweepResult runKvQuantSweep(const KvSweepConfig& config, const KvProgress& progress)
{
    if (config.contexts.empty())
        throw std::invalid_argument("kv_quant: the sweep needs at least one context length");
    for (int context : config.contexts) {
        if (context < 1)
            throw std::invalid_argument("kv_quant: context lengths must be positive");
    }
    KvShape shape = config.shape;
    shape.tokens = *std::max_element(config.contexts.begin(), config.contexts.end());
    checkShape(shape);

    KvSweepResult sweep;
    const double steps = 1.0 + static_cast<double>(config.scalings.size() * config.contexts.size());
    double done = 0;
    auto report = [&]() {
        done += 1;
        return !progress || progress(std::min(1.0, done / steps));
    };

    const KvCache cache = generateKvCache(shape, config.seed, config.generator);

    // Sampled layers for the attention error, evenly spaced and including the first and last.
    const int sampled = std::clamp(config.attentionLayers, 1, shape.layers);
    std::vector<int> layers;
    for (int i = 0; i < sampled; ++i)
        layers.push_back(sampled == 1 ? shape.layers / 2 : static_cast<int>(std::lround(
                                                               static_cast<double>(i) * (shape.layers - 1) / (sampled - 1))));

    // One query per (sampled layer, kv head), from its own stream so it does not depend on the cache's draw order,
    // scaled so its BF16 logits over the whole cache have config.logitStd: a realistic softmax temperature rather
    // than a one-hot one driven by the outlier channels.
    const auto dim = static_cast<std::size_t>(shape.headDim);
    std::vector<std::vector<float>> queries;
    {
        std::mt19937_64 rng(config.seed ^ 0x9E3779B97F4A7C15ull);
        std::normal_distribution<float> normal(0.0f, 1.0f);
        for (int layer : layers) {
            for (int head = 0; head < shape.kvHeads; ++head) {
                std::vector<float> q(dim);
                for (float& x : q)
                    x = normal(rng);
                const float* keys = cache.keys.data() + shape.offset(layer, head, 0);
                double sum = 0;
                double sumSquares = 0;
                for (int t = 0; t < shape.tokens; ++t) {
                    double dot = 0;
                    for (std::size_t d = 0; d < dim; ++d)
                        dot += static_cast<double>(q[d]) * keys[static_cast<std::size_t>(t) * dim + d];
                    const double logit = dot / std::sqrt(static_cast<double>(dim));
                    sum += logit;
                    sumSquares += logit * logit;
                }
                const double mean = sum / shape.tokens;
                const double stddev = std::sqrt(std::max(0.0, sumSquares / shape.tokens - mean * mean));
                const double factor = stddev > 0 ? config.logitStd / stddev : 1.0;
                for (float& x : q)
                    x = static_cast<float>(x * factor);
                queries.push_back(std::move(q));
            }
        }
    }
    if (!report()) {
        sweep.cancelled = true;
        return sweep;
    }

    for (KvScaling scaling : config.scalings) {
        const KvScales scales = computeKvScales(cache, scaling, config.calibrationTokens);
        for (int context : config.contexts) {
            KvShape contextShape = shape;
            contextShape.tokens = context;
            QuantizedKv quantized;
            std::chrono::steady_clock::duration elapsed{};
            if (config.quantizer) {
                // Another backend's quantiser (the CUDA kernel) owns its buffers; its call is what is timed.
                const auto start = std::chrono::steady_clock::now();
                quantized = config.quantizer(cache, scales, context);
                elapsed = std::chrono::steady_clock::now() - start;
                if (quantized.shape.layers != contextShape.layers || quantized.shape.kvHeads != contextShape.kvHeads ||
                    quantized.shape.headDim != contextShape.headDim || quantized.shape.tokens != context ||
                    quantized.keys.size() != contextShape.elementsPerTensor() ||
                    quantized.values.size() != contextShape.elementsPerTensor())
                    throw std::invalid_argument("kv_quant: the quantizer returned codes of the wrong shape");
                checkScales(contextShape, quantized.scales);
            } else {
                quantized.shape = contextShape;
                quantized.scales = scales;
                quantized.keys.resize(contextShape.elementsPerTensor());
                quantized.values.resize(contextShape.elementsPerTensor());
                // Allocation stays outside the timed region: only x / scale and the encode are measured.
                const auto start = std::chrono::steady_clock::now();
                quantizeInto(cache, scales, context, quantized.keys.data(), quantized.values.data());
                elapsed = std::chrono::steady_clock::now() - start;
            }

            const KvCache restored = dequantizeKv(quantized);
            const std::size_t n = blockElements(shape, context);
            ErrorAccumulator keyError;
            ErrorAccumulator valueError;
            ErrorAccumulator combinedError;  // K and V as one tensor: what the cache as a whole loses
            for (int layer = 0; layer < shape.layers; ++layer) {
                for (int head = 0; head < shape.kvHeads; ++head) {
                    const std::size_t offset = shape.offset(layer, head, 0);
                    const std::size_t restoredOffset = contextShape.offset(layer, head, 0);
                    const std::span<const float> keyRef{cache.keys.data() + offset, n};
                    const std::span<const float> keyOut{restored.keys.data() + restoredOffset, n};
                    const std::span<const float> valueRef{cache.values.data() + offset, n};
                    const std::span<const float> valueOut{restored.values.data() + restoredOffset, n};
                    keyError.add(keyRef, keyOut);
                    valueError.add(valueRef, valueOut);
                    combinedError.add(keyRef, keyOut);
                    combinedError.add(valueRef, valueOut);
                }
            }

            double attnSum = 0;
            std::size_t queryIndex = 0;
            for (int layer : layers) {
                for (int head = 0; head < shape.kvHeads; ++head) {
                    const std::size_t offset = shape.offset(layer, head, 0);
                    const std::size_t restoredOffset = contextShape.offset(layer, head, 0);
                    attnSum += attentionRelativeError(
                        queries[queryIndex++], {cache.keys.data() + offset, n}, {cache.values.data() + offset, n},
                        {restored.keys.data() + restoredOffset, n}, {restored.values.data() + restoredOffset, n},
                        context, shape.headDim);
                }
            }

            KvQuantResult result;
            result.scaling = scaling;
            result.context = context;
            result.key = keyError.result();
            result.value = valueError.result();
            result.combined = combinedError.result();
            result.attnRelError = attnSum / static_cast<double>(queries.size());
            result.elements = 2 * contextShape.elementsPerTensor();
            result.seconds = std::chrono::duration<double>(elapsed).count();
            sweep.results.push_back(result);
            if (!report()) {
                sweep.cancelled = true;
                return sweep;
            }
        }
    }
    return sweep;
}

}  // namespace fp8dash::gpu
