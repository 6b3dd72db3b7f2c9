// The KV error sweep (kv_quant.h, runKvQuantSweep): layer by layer over a KvLayerSource, the heads of a layer split
// across threads, per-head sums merged in head order so the figures do not depend on the thread count.
#include "fp8dash/gpu/kv_quant.h"
#include "fp8dash/gpu/kv_source.h"
#include "fp8dash/gpu/kv_synthetic.h"

#include "kv_parallel.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <stdexcept>
#include <string>

namespace fp8dash::gpu {
namespace {

// What one head contributes to one (scaling, context) point.
struct HeadSums {
    ErrorAccumulator key;
    ErrorAccumulator value;
    ErrorAccumulator combined;  // K and V as one tensor: what the cache as a whole loses
    std::uint64_t keySaturated = 0;
    std::uint64_t valueSaturated = 0;
    AttentionSums attention;
};

// One point, summed over the layers done so far.
struct PointSums {
    HeadSums sums;
    AttentionHeadSums heads;  // each (layer, head)'s attention sums, layer-major
    KvScales scales;
    double seconds = 0;
    std::size_t elements = 0;
};

void merge(HeadSums& into, const HeadSums& from) {
    into.key.merge(from.key);
    into.value.merge(from.value);
    into.combined.merge(from.combined);
    into.keySaturated += from.keySaturated;
    into.valueSaturated += from.valueSaturated;
    into.attention.merge(from.attention);
}

void checkConfig(const KvSweepConfig& config) {
    if (config.contexts.empty()) throw std::invalid_argument("kv_quant: the sweep needs at least one context length");
    for (int context : config.contexts) {
        if (context < 1) throw std::invalid_argument("kv_quant: context lengths must be positive");
    }
    if (config.queryRows < 1) throw std::invalid_argument("kv_quant: the sweep needs at least one query row");
}

std::shared_ptr<KvLayerSource> sourceFor(const KvSweepConfig& config, int maxContext) {
    if (config.source) return config.source;
    KvShape shape = config.shape;
    shape.tokens = maxContext;
    return std::make_shared<SyntheticKvSource>(shape, config.seed, config.generator, config.threads);
}

// The first `context` tokens of one loaded layer (shape.layers == 1), quantised into `quantized` (its buffers reused
// from point to point); `seconds` gets the quantise step's wall time (allocation outside it).
void quantizeLayer(const KvSweepConfig& config, const KvCache& layer, const KvScales& scales, int context,
                   QuantizedKv& quantized, double& seconds) {
    KvShape shape = layer.shape;
    shape.tokens = context;
    if (config.quantizer) {
        // Another backend's quantiser (the CUDA kernel) owns its buffers; its call is what is timed.
        const auto start = std::chrono::steady_clock::now();
        quantized = config.quantizer(layer, scales, context);
        seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        if (quantized.shape.layers != 1 || quantized.shape.kvHeads != shape.kvHeads ||
            quantized.shape.headDim != shape.headDim || quantized.shape.tokens != context ||
            quantized.keys.size() != shape.elementsPerTensor() || quantized.values.size() != shape.elementsPerTensor())
            throw std::invalid_argument("kv_quant: the quantizer returned codes of the wrong shape");
        quantized.scales = scales;  // the codes were made with these; the sweep dequantises with them
        return;
    }
    quantized.resizeFor(layer.shape, scales, context);
    const std::size_t n = static_cast<std::size_t>(context) * static_cast<std::size_t>(shape.headDim);
    const auto start = std::chrono::steady_clock::now();
    detail::parallelFor(shape.kvHeads, config.threads, [&](int head) {
        const std::size_t in = layer.shape.offset(0, head, 0);
        const std::size_t out = static_cast<std::size_t>(head) * n;
        quantizeKvBlock(layer.keys.data() + in, quantized.keys.data() + out, n, scales.keyScale(0, head));
        quantizeKvBlock(layer.values.data() + in, quantized.values.data() + out, n, scales.valueScale(0, head));
    });
    seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// One head of one loaded layer against its codes: element errors, saturation, attention against the head's exact rows.
// keysOut/valuesOut: the head's own scratch for the dequantised values (kept across points, so no page is zeroed
// again).
HeadSums measureHead(const KvCache& layer, const QuantizedKv& codes, const ExactAttention& exact, int head,
                     std::vector<float>& keysOut, std::vector<float>& valuesOut) {
    const int context = codes.shape.tokens;
    const std::size_t n = static_cast<std::size_t>(context) * static_cast<std::size_t>(layer.shape.headDim);
    const float keyScale = codes.scales.keyScale(0, head);
    const float valueScale = codes.scales.valueScale(0, head);
    const float* keys = layer.keys.data() + layer.shape.offset(0, head, 0);
    const float* values = layer.values.data() + layer.shape.offset(0, head, 0);
    keysOut.resize(n);
    valuesOut.resize(n);
    dequantizeKvBlock(codes.keys.data() + static_cast<std::size_t>(head) * n, keysOut.data(), n, keyScale);
    dequantizeKvBlock(codes.values.data() + static_cast<std::size_t>(head) * n, valuesOut.data(), n, valueScale);

    HeadSums sums;
    const std::span<const float> keyRef{keys, n};
    const std::span<const float> valueRef{values, n};
    const std::span<const float> keyOut{keysOut.data(), n};
    const std::span<const float> valueOut{valuesOut.data(), n};
    sums.key.add(keyRef, keyOut);
    sums.value.add(valueRef, valueOut);
    sums.combined.add(keyRef, keyOut);
    sums.combined.add(valueRef, valueOut);
    sums.keySaturated = countSaturated(keys, n, keyScale);
    sums.valueSaturated = countSaturated(values, n, valueScale);
    sums.attention = compareAttention(exact, keyOut, valueOut);
    return sums;
}

KvQuantResult resultOf(const PointSums& point, KvScaling scaling, int context, const KvLayerSource& source) {
    KvQuantResult result;
    result.scaling = scaling;
    result.context = context;
    result.key = point.sums.key.result();
    result.value = point.sums.value.result();
    result.combined = point.sums.combined.result();
    result.keySaturated = point.sums.keySaturated;
    result.valueSaturated = point.sums.valueSaturated;
    result.scales = point.scales;
    const AttentionSums& a = point.sums.attention;
    if (a.refSquares > 0)
        result.attnOutRelRmse = std::sqrt(a.diffSquares / a.refSquares);
    else
        result.attnOutRelRmse = a.diffSquares > 0 ? INFINITY : 0.0;
    const auto rows = static_cast<double>(std::max<std::uint64_t>(a.rows, 1));
    result.attnOutCosine = a.rows > 0 ? a.cosineSum / rows : 1.0;
    result.attnWeightTvd = a.tvdSum / rows;
    result.attnWeightTvdMax = a.tvdMax;
    result.attnEntropy = a.entropySum / rows;
    result.attnRows = a.rows;
    result.attnHeads = point.heads;
    result.attnOutCi95 = attnOutInterval(point.heads);
    result.sourceKind = source.kind();
    result.sourceDescription = source.description();
    result.sourceShape = source.shape();
    result.elements = point.elements;
    result.seconds = point.seconds;
    return result;
}

// Each non-per_tensor point's difference from the per_tensor point at its context (the mode vLLM's
// --calculate-kv-scales uses, which the headline reports), paired over the same heads and rows.
void compareWithPerTensor(std::vector<KvQuantResult>& results) {
    for (KvQuantResult& r : results) {
        if (r.scaling == KvScaling::PerTensor) continue;
        for (const KvQuantResult& base : results)
            if (base.scaling == KvScaling::PerTensor && base.context == r.context)
                r.attnOutVsPerTensor = attnOutDifference(r.attnHeads, base.attnHeads);
    }
}

}  // namespace

KvSweepResult runKvQuantSweep(const KvSweepConfig& config, const KvProgress& progress) {
    checkConfig(config);
    const int maxContext = *std::max_element(config.contexts.begin(), config.contexts.end());
    const std::shared_ptr<KvLayerSource> source = sourceFor(config, maxContext);
    const KvShape full = source->shape();
    if (full.layers < 1 || full.kvHeads < 1 || full.headDim < 1 || full.tokens < 1)
        throw std::invalid_argument("kv_quant: every dimension of the KV shape must be positive");
    if (maxContext > full.tokens)
        throw std::invalid_argument("kv_quant: the context " + std::to_string(maxContext) + " is longer than the " +
                                    std::to_string(full.tokens) + " tokens the source holds (" + source->description() +
                                    ")");

    const std::size_t contexts = config.contexts.size();
    std::vector<PointSums> points(config.scalings.size() * contexts);
    const auto scaleCount = static_cast<std::size_t>(full.layers) * static_cast<std::size_t>(full.kvHeads);
    for (std::size_t s = 0; s < config.scalings.size(); ++s) {
        for (std::size_t c = 0; c < contexts; ++c) {
            KvScales& scales = points[s * contexts + c].scales;
            scales.scaling = config.scalings[s];
            scales.kvHeads = full.kvHeads;
            scales.key.assign(scaleCount, 1.0f);
            scales.value.assign(scaleCount, 1.0f);
        }
    }

    KvSweepResult sweep;
    const double steps = static_cast<double>(full.layers) * static_cast<double>(points.size());
    double done = 0;
    KvCache layer;
    layer.shape = KvShape{1, full.kvHeads, full.headDim, maxContext};
    const auto heads = static_cast<std::size_t>(full.kvHeads);
    const std::size_t block = static_cast<std::size_t>(maxContext) * static_cast<std::size_t>(full.headDim);
    QuantizedKv codes;                                   // reused from point to point
    std::vector<std::vector<float>> scratch(2 * heads);  // each head's dequantised K and V
    for (int l = 0; l < full.layers; ++l) {
        source->loadLayer(l, maxContext, layer.keys, layer.values);
        if (layer.keys.size() != layer.shape.elementsPerTensor() || layer.values.size() != layer.keys.size())
            throw KvSourceError("kv_quant: " + source->description() + " returned a layer of the wrong size");
        std::vector<KvScales> layerScales;
        for (std::size_t s = 0; s < config.scalings.size(); ++s) {
            layerScales.push_back(computeLayerKvScales(layer, config.scalings[s], config.calibrationTokens));
            for (std::size_t c = 0; c < contexts; ++c) {
                KvScales& scales = points[s * contexts + c].scales;
                std::copy(layerScales[s].key.begin(), layerScales[s].key.end(), scales.key.begin() + l * full.kvHeads);
                std::copy(layerScales[s].value.begin(), layerScales[s].value.end(),
                          scales.value.begin() + l * full.kvHeads);
            }
        }
        for (std::size_t c = 0; c < contexts; ++c) {
            const int context = config.contexts[c];
            // The exact attention rows of each head, once per (layer, context): every scaling is compared with them.
            std::vector<ExactAttention> exact(heads);
            detail::parallelFor(full.kvHeads, config.threads, [&](int head) {
                const std::size_t offset = static_cast<std::size_t>(head) * block;
                exact[static_cast<std::size_t>(head)] =
                    exactAttention({layer.keys.data() + offset, block}, {layer.values.data() + offset, block}, context,
                                   full.headDim, config.queryRows, config.targetEntropy, config.temperatureTokens);
            });
            for (std::size_t s = 0; s < config.scalings.size(); ++s) {
                PointSums& point = points[s * contexts + c];
                double seconds = 0;
                quantizeLayer(config, layer, layerScales[s], context, codes, seconds);
                std::vector<HeadSums> perHead(heads);
                detail::parallelFor(full.kvHeads, config.threads, [&](int head) {
                    const auto h = static_cast<std::size_t>(head);
                    perHead[h] = measureHead(layer, codes, exact[h], head, scratch[2 * h], scratch[2 * h + 1]);
                });
                for (const HeadSums& h : perHead) {  // head order: the same doubles for any thread count
                    merge(point.sums, h);
                    point.heads.diffSquares.push_back(h.attention.diffSquares);
                    point.heads.refSquares.push_back(h.attention.refSquares);
                }
                point.seconds += seconds;
                point.elements += 2 * codes.shape.elementsPerTensor();
                done += 1;
                if (progress && !progress(std::min(1.0, done / steps))) {
                    sweep.cancelled = true;  // every point needs every layer: none is finished
                    return sweep;
                }
            }
        }
    }
    for (std::size_t s = 0; s < config.scalings.size(); ++s)
        for (std::size_t c = 0; c < contexts; ++c)
            sweep.results.push_back(
                resultOf(points[s * contexts + c], config.scalings[s], config.contexts[c], *source));
    compareWithPerTensor(sweep.results);
    return sweep;
}

}  // namespace fp8dash::gpu
