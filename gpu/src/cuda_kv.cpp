// The KV-cache pieces of the CUDA runner (cuda_kv.h) and the GPU quantizer of the error sweep (cuda_bench.h).
#include "cuda_kv.h"

#include "cuda_bench.h"
#include "cuda_kernels.h"
#include "fp8dash/gpu/fp8_codec.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace fp8dash::gpu {
namespace detail {

std::vector<float> kvKernelGains(int blocks) {
    std::vector<float> gains(static_cast<std::size_t>(blocks));
    for (int b = 0; b < blocks; ++b) gains[static_cast<std::size_t>(b)] = std::ldexp(1.0f, (b * 5) % 9 - 4);
    return gains;
}

std::vector<float> kvKernelScales(KvScaling scaling, const std::vector<float>& gains, int layers, int kvHeads) {
    std::vector<float> scales(gains.size(), 1.0f);
    for (int layer = 0; layer < layers; ++layer) {
        float layerMax = 0;
        for (int head = 0; head < kvHeads; ++head)
            layerMax = std::max(layerMax, gains[static_cast<std::size_t>(layer * kvHeads + head)]);
        for (int head = 0; head < kvHeads; ++head) {
            const auto b = static_cast<std::size_t>(layer * kvHeads + head);
            switch (scaling) {
                case KvScaling::None:
                    scales[b] = 1.0f;
                    break;
                case KvScaling::PerTensor:
                    scales[b] = layerMax / kVllmKeyScaleDivisor;
                    break;
                case KvScaling::PerHead:
                    scales[b] = gains[b] / fp8MaxFinite(Fp8Format::E4M3);
                    break;
            }
        }
    }
    return scales;
}

namespace {

void checkKvArguments(const KvCache& cache, const KvScales& scales, int tokens) {
    const KvShape& s = cache.shape;
    if (s.layers < 1 || s.kvHeads < 1 || s.headDim < 1 || s.tokens < 1)
        throw std::invalid_argument("kv_quant (GPU): every dimension of the KV shape must be positive");
    if (tokens < 1 || tokens > s.tokens)
        throw std::invalid_argument("kv_quant (GPU): tokens must be in [1, " + std::to_string(s.tokens) + "]");
    const auto blocks = static_cast<std::size_t>(s.layers) * static_cast<std::size_t>(s.kvHeads);
    if (scales.kvHeads != s.kvHeads || scales.key.size() != blocks || scales.value.size() != blocks)
        throw std::invalid_argument("kv_quant (GPU): the scales do not match the cache's shape");
    if (cache.keys.size() != s.elementsPerTensor() || cache.values.size() != s.elementsPerTensor())
        throw std::invalid_argument("kv_quant (GPU): the cache's arrays do not match its shape");
}

// Quantises the first `tokens` tokens of one tensor (K or V) layer by layer: a strided 2-D copy takes the head
// blocks' prefixes, the kernel quantises them, the codes come back densely packed ([layer][head][token][dim]).
void quantizeTensorOnGpu(const std::vector<float>& tensor, const std::vector<float>& scales, const KvShape& shape,
                         int tokens, std::uint8_t* out, const DeviceBuffer& input, const DeviceBuffer& codes,
                         const DeviceBuffer& deviceScales, cudaStream_t stream) {
    const std::size_t prefix = static_cast<std::size_t>(tokens) * static_cast<std::size_t>(shape.headDim);
    const std::size_t block = static_cast<std::size_t>(shape.tokens) * static_cast<std::size_t>(shape.headDim);
    const auto heads = static_cast<std::size_t>(shape.kvHeads);
    const std::size_t layerCodes = heads * prefix;
    // Every copy on the kernel's stream: a plain cudaMemcpy from pageable memory may return before its data has
    // landed, and a kernel on another stream could read it early.
    check(cudaMemcpyAsync(deviceScales.get(), scales.data(), scales.size() * sizeof(float), cudaMemcpyHostToDevice,
                          stream),
          "cudaMemcpyAsync (KV scales)");
    for (int layer = 0; layer < shape.layers; ++layer) {
        const float* source = tensor.data() + static_cast<std::size_t>(layer) * heads * block;
        check(cudaMemcpy2DAsync(input.get(), prefix * sizeof(float), source, block * sizeof(float),
                                prefix * sizeof(float), heads, cudaMemcpyHostToDevice, stream),
              "cudaMemcpy2DAsync (KV cache to the GPU)");
        const float* layerScales = deviceScales.as<float>() + static_cast<std::size_t>(layer) * heads;
        check(quantizeFloatToE4m3(input.as<float>(), codes.as<std::uint8_t>(), layerCodes, layerScales, prefix, stream),
              "KV quantise kernel launch");
        check(cudaMemcpyAsync(out + static_cast<std::size_t>(layer) * layerCodes, codes.get(), layerCodes,
                              cudaMemcpyDeviceToHost, stream),
              "cudaMemcpyAsync (KV codes from the GPU)");
        // The next layer overwrites `input` and `codes`: wait for this one's codes (and for the host source of the
        // 2-D copy, which must stay put until the copy has read it).
        check(cudaStreamSynchronize(stream), "cudaStreamSynchronize (KV quantiser)");
    }
}

}  // namespace
}  // namespace detail

using detail::check;
using detail::CudaFailure;
using detail::DeviceBuffer;
using detail::Stream;

KvQuantizer makeCudaKvQuantizer(int deviceIndex) {
    return [deviceIndex](const KvCache& cache, const KvScales& scales, int tokens) {
        detail::checkKvArguments(cache, scales, tokens);
        try {
            check(cudaSetDevice(deviceIndex), "cudaSetDevice");
            QuantizedKv quantized;
            quantized.resizeFor(cache.shape, scales, tokens);
            // One layer at a time bounds the device memory to kvHeads x tokens x headDim x 5 bytes.
            const std::size_t layerElements = static_cast<std::size_t>(cache.shape.kvHeads) *
                                              static_cast<std::size_t>(tokens) *
                                              static_cast<std::size_t>(cache.shape.headDim);
            const DeviceBuffer input(layerElements * sizeof(float), "one layer of the KV cache");
            const DeviceBuffer codes(layerElements, "one layer of KV codes");
            const DeviceBuffer deviceScales(scales.key.size() * sizeof(float), "the KV scales");
            const Stream stream;
            detail::quantizeTensorOnGpu(cache.keys, scales.key, cache.shape, tokens, quantized.keys.data(), input,
                                        codes, deviceScales, stream.get());
            detail::quantizeTensorOnGpu(cache.values, scales.value, cache.shape, tokens, quantized.values.data(), input,
                                        codes, deviceScales, stream.get());
            return quantized;
        } catch (const CudaFailure& e) {
            cudaGetLastError();
            throw std::runtime_error(e.what());
        }
    };
}

}  // namespace fp8dash::gpu
