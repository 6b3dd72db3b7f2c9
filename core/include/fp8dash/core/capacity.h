#pragma once
// The KV-cache capacity planner (DESIGN.md "KV-cache capacity"): how many tokens and sequences fit beside the
// weights on a tensor-parallel group of GPUs, in BF16 and in FP8, and a bandwidth-bound decode estimate.
// Bytes are bytes (GB = 10^9, GiB = 2^30 where a name or text says so). Plain data; every function is thread-safe.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "fp8dash/core/lm_eval_results.h"
#include "fp8dash/core/local_device.h"
#include "fp8dash/core/model_architecture.h"
#include "fp8dash/core/result.h"
#include "fp8dash/core/vllm_memory.h"

namespace fp8dash {

// One GPU of the group (all GPUs of a group are alike).
struct GpuSpec {
    std::string name;         // preset key ("h100-sxm") or the device name for a live GPU
    std::string displayName;  // "NVIDIA H100 SXM"
    std::string source;       // "preset" or "local" (this machine's GPU, its free memory)
    // Per GPU: for a preset the total the device reports (what vLLM sizes from: 79.19 GiB on an "80 GB" H100), for a
    // live GPU its free bytes; memorySource says where the figure comes from.
    std::uint64_t memoryBytes = 0;
    std::string memorySource;
    std::optional<double> datasheetMemoryGB;   // the datasheet's label ("80 GB"), for display; nullopt for a live GPU
    std::optional<double> bandwidthBytesPerS;  // datasheet memory bandwidth; nullopt for a GPU not in the table
    std::optional<double> fp8DenseTflops;      // dense FP8 tensor TFLOP/s; nullopt when unknown
    std::optional<double> bf16DenseTflops;
    bool fp8TensorCores = true;  // compute capability >= 8.9 (every preset; a live GPU says)
    // Issue 41: FP4 (NVFP4 / MXFP4) tensor cores, compute capability >= 10 (gpu::hasFp4TensorCores): the Blackwell
    // presets and live Blackwell GPUs. Without them vLLM runs an NVFP4 checkpoint with a fallback kernel.
    bool fp4TensorCores = false;
    std::optional<double> fp4DenseTflops;  // dense FP4 tensor TFLOP/s; nullopt when unknown or none
};

// gpu/'s peak table ("h100-sxm", "h100-pcie", "h200", "l40s", "rtx-4090", "rtx-6000-ada", "b200", "gb200", "b300",
// "rtx-pro-6000", "rtx-5090"), then GPUs of real vLLM logs with memory only ("a100-80gb", "rtx-3090", "rtx-4080").
std::vector<std::string> gpuPresetNames();
std::string gpuPresetNamesText();  // the same, comma-separated, for messages
// A preset key or a device name as CUDA reports it ("NVIDIA H100 80GB HBM3"); nullopt when the table lacks it.
std::optional<GpuSpec> findGpuPreset(std::string_view nameOrDevice);
// The first `count` live GPUs as one group: the smallest free memory among them (a tensor-parallel group is bound by
// its fullest GPU), datasheet bandwidth and rates when the device is in the table. Errors when there is no usable
// GPU or fewer than `count`.
Result<GpuSpec> gpuFromLocalDevices(const LocalDeviceStatus& status, int count);

// The runtime overhead per GPU beside weights and KV cache, by default: CUDA context and other non-PyTorch
// allocations (~0.5 GiB), the activation peak vLLM profiles at its default batch-token budget (~1 GiB for 7-70B
// models under tensor parallelism), and CUDA graphs (~0.5 GiB). vLLM fits all of it inside --gpu-memory-utilization.
inline constexpr double kDefaultOverheadGiB = 2.0;
inline constexpr double kDefaultGpuUtilization = 0.92;  // the seed article's production setting
inline constexpr long long kDefaultContextTokens = 8192;
inline constexpr int kDefaultDecodeBatch = 32;  // the batch of the seed article's decode figures

struct CapacityInputs {
    ModelArchitecture model;
    GpuSpec gpu;
    int gpus = 1;  // GPUs of one tensor-parallel group (a replica has gpus x pipeline stages)
    StorageDtype weights = StorageDtype::Bf16;
    StorageDtype kv = StorageDtype::Bf16;
    double gpuUtilization = kDefaultGpuUtilization;   // fraction of each GPU's memory vLLM may use, (0, 1]
    long long contextTokens = kDefaultContextTokens;  // one sequence's length (--max-model-len)
    double overheadGiB = kDefaultOverheadGiB;         // per GPU, GiB; only without `vllm`
    // vLLM's own accounting (activation peak, non-torch memory, whole blocks, pipeline stages: vllm_memory.h) when
    // set; nullopt: one flat overheadGiB per GPU, what saved plans without a vLLM version mean.
    std::optional<VllmServeSettings> vllm;
    std::optional<WeightFormat> weightFormat;  // the weights' format when it is more than `weights` (int4, int8...)
    WeightFormat weightsFormat() const { return weightFormat.value_or(weightFormatOf(weights)); }
    int pipelineParallel() const { return vllm ? vllm->pipelineParallel : 1; }
    int decodeBatch = kDefaultDecodeBatch;  // sequences decoded together, for the decode estimate
};

// Bandwidth-bound decode: each step reads the weights once (less the input embedding table) and the K/V of every
// sequence of the batch at full context, at the group's aggregate datasheet bandwidth. An upper bound: real kernels
// reach a fraction of the bandwidth, and compute, communication and scheduling are ignored.
struct DecodeVariant {
    StorageDtype weights = StorageDtype::Bf16;
    StorageDtype kv = StorageDtype::Bf16;
    std::uint64_t bytesPerStep = 0;  // bytes read per decode step
    double stepSeconds = 0;
    double tokensPerS = 0;   // batch / step time
    bool batchFits = false;  // the batch's sequences fit in this variant's KV cache
};

struct DecodeEstimate {
    int batch = 0;
    long long contextTokens = 0;
    double bandwidthBytesPerS = 0;  // the group's aggregate: GPUs x datasheet bandwidth
    DecodeVariant selected;         // the weights/KV dtypes asked for
    DecodeVariant bf16;             // BF16 weights and KV cache
    DecodeVariant fp8;              // FP8 weights and KV cache
    double fp8Speedup = 0;          // fp8.tokensPerS / bf16.tokensPerS
};

struct CapacityResult {
    CapacityInputs inputs;
    std::uint64_t parameters = 0;
    std::uint64_t kvBytesPerToken = 0;  // the model's: 2 x layers x kv_heads x head_dim x bytes per element
    // Tensor parallelism wider than the KV heads replicates them (vLLM keeps at least one KV head per GPU), so a
    // token costs kvReplication x kvBytesPerToken in the group. 1 when gpus <= kv heads.
    int kvReplication = 1;
    std::uint64_t weightsBytes = 0;
    std::uint64_t usableBytes = 0;     // GPUs x memory x utilisation
    std::uint64_t overheadBytes = 0;   // GPUs x per-GPU overhead (vLLM: activation peak + non-torch [+ CUDA graphs])
    std::uint64_t kvCacheBytes = 0;    // usable - weights - overhead; 0 when negative (vLLM: whole blocks, all GPUs)
    std::uint64_t shortfallBytes = 0;  // how much is missing when the weights and overhead do not fit, else 0
    std::uint64_t maxTokens = 0;       // kvCacheBytes / (kvBytesPerToken x kvReplication); vLLM: whole blocks
    std::uint64_t maxSequences = 0;    // maxTokens / contextTokens
    bool fits = false;                 // weights fit and at least one sequence of contextTokens
    std::string reason;                // in words when !fits
    std::optional<DecodeEstimate> decode;  // nullopt when the GPU's bandwidth is unknown
    std::optional<VllmMemoryPlan> vllm;    // vLLM's accounting per GPU and stage, when the inputs asked for it
};

// Errors for inputs that cannot be planned: gpus outside 1..kMaxGpus, utilisation outside (0, 1], context outside
// 1..kMaxContextTokens, overhead outside 0..kMaxGiB, memory over kMaxGiB per GPU, batch outside 1..kMaxDecodeBatch.
// "Does not fit" is a result, not an error.
inline constexpr int kMaxGpus = 4096;
inline constexpr long long kMaxContextTokens = 1ll << 24;  // 16M tokens
inline constexpr int kMaxDecodeBatch = 65536;
inline constexpr double kMaxGiB = 1e6;  // per GPU: a bound that keeps the byte arithmetic exact
Result<CapacityResult> planCapacity(const CapacityInputs& inputs);

// The stable JSON of `fp8dash capacity --format json` (README "Capacity and the plan").
Json capacityToJson(const CapacityResult& r);
std::string capacityToText(const CapacityResult& r);

// "16.06 GB (14.96 GiB)"
std::string formatBytes(std::uint64_t bytes);

}  // namespace fp8dash
