#pragma once
// Internal to fp8dash_gpu (CUDA builds only): the KV-cache pieces of the CUDA runner: the quantise kernel's
// throughput buffer (its gains and scales), and the error sweep's quantizer on the GPU.

#include "cuda_support.h"
#include "fp8dash/gpu/kv_quant.h"

#include <cuda_runtime_api.h>

#include <cstdint>
#include <vector>

namespace fp8dash::gpu::detail {

inline constexpr int kKvKernelTokens = 128 * 1024;  // the throughput buffer: a 128K-token cache

// Gains of the throughput buffer's (layer, head) blocks: 1/16 .. 16, so the three scalings give different scales.
std::vector<float> kvKernelGains(int blocks);

// The scales each scaling would compute for values bounded by the gains (|x| < gain): the per-tensor scale from the
// layer's largest block (K's divisor), the per-head one from the block itself.
std::vector<float> kvKernelScales(KvScaling scaling, const std::vector<float>& gains, int layers, int kvHeads);

}  // namespace fp8dash::gpu::detail
