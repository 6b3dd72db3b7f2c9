#pragma once
// vLLM's own memory accounting, as the capacity planner models it (README "Capacity and the plan"): per GPU,
//   KV pool = gpu_memory_utilization x total memory (as the device reports it)
//             - (weights + activation peak of the profiling run + non-torch memory [+ CUDA graphs where deducted])
// and tokens = floor(pool / (block_size x KV bytes per token per GPU)) x block_size, the replica bound by its tightest
// pipeline stage. What changes between vLLM versions (V0 or V1 engine, the default max_num_batched_tokens by GPU,
// whether CUDA-graph memory is deducted) is a VllmProfile. The weight formats seen in practice are WeightFormat.
// Plain data; every function is thread-safe.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "fp8dash/core/model_architecture.h"
#include "fp8dash/core/result.h"

namespace fp8dash {

// How the checkpoint's linear layers are stored in GPU memory. The embedding, the LM head, the norms and the biases
// stay 16-bit in every format (llm-compressor, AutoGPTQ, AutoAWQ and vLLM's --quantization fp8 leave them alone).
enum class WeightFormat {
    Bf16,        // 2 bytes a weight (also FP16: the same size)
    Fp16,        //
    Fp8,         // FP8 E4M3, one scale per matrix (vLLM --quantization fp8, per-tensor FP8 checkpoints)
    Fp8Channel,  // FP8 E4M3 with one FP32 scale per output channel
    Fp8Dynamic,  // compressed-tensors "fp8-dynamic" (FP8_DYNAMIC): per-channel weight scales, dynamic activations
    Int8W8A8,    // INT8 weights (per-channel FP32 scales), INT8 activations
    Int4W4A16,   // INT4 weights with a 16-bit scale per group (GPTQ, compressed-tensors W4A16: symmetric)
    Int4Awq,     // INT4 weights with a 16-bit scale and a 4-bit zero point per group (AWQ)
    // Issue 41, the FP4 rungs (gpu/fp4_codec.h has the formats). Activations (W4A4 or W4A16) do not change the bytes.
    Nvfp4,  // E2M1 weights, an E4M3 scale per 16 (+ FP32 scales per matrix): 4 + 8/16 = 4.5 bits a weight
    Mxfp4,  // E2M1 weights, a UE8M0 scale per 32: 4 + 8/32 = 4.25 bits a weight
};

// "bf16", "fp16", "fp8", "fp8-channel", "fp8-dynamic", "int8", "int4", "int4-awq", "nvfp4", "mxfp4"
const char* weightFormatName(WeightFormat f);
std::string weightFormatNamesText();  // the names, comma-separated, for messages
// Also "bfloat16", "float16", "fp8_e4m3", "w8a8", "w4a16", "gptq", "awq", and vLLM's quantization names for FP4
// checkpoints: "modelopt_fp4" (NVIDIA ModelOpt NVFP4), "nvfp4a16", "w4a4_nvfp4", "w4a16_nvfp4", "mxfp4_w4a4".
// nullopt for anything else.
std::optional<WeightFormat> parseWeightFormat(std::string_view text);
// Bf16 -> Bf16, Fp8 -> Fp8 (per tensor): the two formats of the comparison.
WeightFormat weightFormatOf(StorageDtype d);
// The StorageDtype that stands for a format in the decode estimate and the all-BF16 baseline (16-bit -> Bf16).
StorageDtype storageDtypeOf(WeightFormat f);

inline constexpr int kDefaultGroupSize = 128;  // GPTQ/AWQ's usual group of weights sharing one scale

// Bytes of a model's weights in a format (INT4: groups of groupSize weights).
struct WeightBytes {
    std::uint64_t linearPerLayer = 0;  // one decoder layer's q/k/v/o and gate/up/down, with their scales
    std::uint64_t normAndBiasPerLayer = 0;
    std::uint64_t embedding = 0;  // input embedding, 16-bit
    std::uint64_t lmHead = 0;     // 0 when tied
    std::uint64_t finalNorm = 0;
    std::uint64_t extra = 0;  // parts outside the decoder (a vision tower), 16-bit
    std::uint64_t total(int layers) const {
        return (linearPerLayer + normAndBiasPerLayer) * static_cast<std::uint64_t>(layers) + embedding + lmHead +
               finalNorm + extra;
    }
};
WeightBytes weightBytesOf(const ModelArchitecture& m, WeightFormat f, int groupSize = kDefaultGroupSize);

// A vLLM release: "0.19", "0.19.0", "v0.6.4.post1". Compared numerically.
struct VllmVersion {
    int major = 0, minor = 0, patch = 0;
    std::string text;  // as given
    bool operator<(const VllmVersion& o) const {
        return major != o.major ? major < o.major : minor != o.minor ? minor < o.minor : patch < o.patch;
    }
};
Result<VllmVersion> parseVllmVersion(std::string_view text);
// The release line whose accounting `capacity` follows by default: the newest of the fixture logs (0.28).
inline constexpr const char* kDefaultVllmVersion = "0.28";
inline constexpr double kVllmDefaultUtilization = 0.9;  // vLLM's --gpu-memory-utilization default, every version

// What a version does when it sizes the KV cache (the fixture logs, README "what is modelled"):
struct VllmProfile {
    VllmVersion version;
    bool v1Engine = true;  // 0.8.0 and later (V0 before)
    bool cudaGraphsDeducted =
        false;  // VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS: off by default in every logged release
    long long maxNumBatchedTokens = 0;  // what the profiling run processes
    int maxNumSeqs = 0;                 // the sampler's rows in the profiling run
    std::string batchedTokensSource;    // "--max-num-batched-tokens", "vLLM's default for ...", ...
};

// The settings of `vllm serve` that the accounting needs, beside the model, GPU, dtypes, utilisation and context.
struct VllmServeSettings {
    std::string version = kDefaultVllmVersion;
    std::optional<long long> maxNumBatchedTokens;  // --max-num-batched-tokens; nullopt: the version's default
    std::optional<int> maxNumSeqs;                 // --max-num-seqs; nullopt: the version's default
    int pipelineParallel = 1;                      // --pipeline-parallel-size
    int blockSize = 16;                            // --block-size
    bool customAllReduce = true;                   // false: --disable-custom-all-reduce
    bool enforceEager = false;                     // --enforce-eager: no CUDA graphs
    std::optional<bool> deductCudaGraphs;          // VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS=1; nullopt: the version's
    bool operator==(const VllmServeSettings&) const = default;
};

// The version's behaviour for this GPU (its reported memory and name pick the default batch) and context.
Result<VllmProfile> vllmProfileFor(const VllmServeSettings& s, std::uint64_t gpuMemoryBytes, std::string_view gpuName,
                                   long long contextTokens);

// The activation peak of the profiling run on one GPU of a stage, estimated from the model's widths: the larger of
// the forward pass (tokens x (3 x intermediate / TP + 3 x hidden) x 2 bytes) and, on the last stage, the sampler
// (3.75 x rows x vocab x 4 bytes of FP32 logits and their copies, beside the tokens' hidden states).
std::uint64_t vllmActivationPeakBytes(const ModelArchitecture& m, int tensorParallel, long long batchedTokens,
                                      int samplerRows, bool lastStage);
// Non-torch memory per GPU: the CUDA context's allocations outside PyTorch (~0.25 GiB in V1, 0.35 GiB in V0), and
// at TP >= 2 the custom all-reduce and NCCL buffers (~1.8 GiB more).
std::uint64_t vllmNonTorchBytes(const VllmProfile& p, int tensorParallel, bool customAllReduce);
// CUDA-graph memory as vLLM estimates it when it deducts it (0.84 GiB at TP 1, 1.69 GiB at TP >= 2 in 0.19's logs).
std::uint64_t vllmCudaGraphBytes(int tensorParallel);

// One pipeline stage, per GPU.
struct VllmStage {
    int firstLayer = 0, layers = 0;
    std::uint64_t weightsBytes = 0;
    std::uint64_t activationBytes = 0;
    std::uint64_t nonTorchBytes = 0;
    std::uint64_t cudaGraphBytes = 0;   // deducted ones only
    long long poolBytes = 0;            // requested - the four above; negative when they do not fit
    std::uint64_t kvBytesPerToken = 0;  // this GPU's share of one token's K and V
    std::uint64_t blocks = 0;
    std::uint64_t tokens = 0;
};

struct VllmMemoryPlan {
    VllmProfile profile;
    std::uint64_t requestedBytes = 0;  // per GPU: utilisation x memory
    int tensorParallel = 1, pipelineParallel = 1, blockSize = 16;
    std::vector<VllmStage> stages;
    int tightestStage = 0;     // the stage with the fewest tokens (the replica's bound)
    std::uint64_t tokens = 0;  // of the replica: the tightest stage's
    std::uint64_t blocks = 0;
};

// Errors: a version that does not parse, PP outside 1..layers, block size outside 1..1024, batch tokens < 1.
Result<VllmMemoryPlan> planVllmMemory(const ModelArchitecture& m, WeightFormat weights, StorageDtype kv,
                                      std::uint64_t gpuMemoryBytes, std::string_view gpuName, double utilization,
                                      int tensorParallel, long long contextTokens, const VllmServeSettings& s);

}  // namespace fp8dash
