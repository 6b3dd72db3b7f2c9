#pragma once
// Calibration from the user's own vLLM start-up log (README "Capacity and the plan", `capacity --from-vllm-log`):
// reads what vLLM measured when it sized its KV cache — the settings line, "Model loading took", the memory-profiling
// lines, "Available KV cache memory", "GPU KV cache size", "Maximum concurrency" — in the wordings of vLLM 0.4 to
// current (V0 and V1), and answers "the same server with an FP8 KV cache / FP8 weights / another utilisation or
// context" from the user's measured overheads. Plain data; every function is thread-safe.

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "fp8dash/core/model_architecture.h"
#include "fp8dash/core/result.h"
#include "fp8dash/core/vllm_memory.h"

namespace fp8dash {

// What the log says, each figure as printed (GiB where vLLM prints GiB; V0's "GB" labels a GiB figure), nullopt
// where the log does not say. Line numbers are 1-based.
struct VllmStartupLog {
    std::string source;                       // the file name, for messages
    std::optional<std::string> version;       // "0.19.0" (from "V1 LLM engine (v0.19.0)" or "vllm_version")
    std::optional<std::string> engine;        // "V0" or "V1", when the log says
    std::optional<std::string> model;         // the model argument
    std::optional<std::string> kvCacheDtype;  // "auto", "fp8", ...
    std::optional<std::string> dtype;         // "bfloat16", "float16", ...
    std::optional<std::string> quantization;  // "fp8", "gptq_marlin", "awq", ...
    std::optional<double> totalGiB;           // the device's total memory
    std::optional<double> utilization;        // gpu_memory_utilization
    std::optional<double> requestedGiB;       // utilisation x total, as vLLM printed it
    std::optional<double> weightsGiB;
    std::optional<double> activationGiB;         // the profiling run's torch peak increase
    std::optional<double> nonTorchGiB;           // non-torch memory of the profiling
    std::optional<double> nonKvGiB;              // "Total non KV cache memory", of the tightest stage under PP
    std::optional<double> cudaGraphGiB;          // captured after sizing (or estimated)
    std::optional<double> availableKvGiB;        // "Available KV cache memory" (per GPU)
    std::optional<long long> kvTokens;           // "GPU KV cache size: N tokens" (the replica)
    std::optional<long long> gpuBlocks;          // "# GPU blocks" / num_gpu_blocks
    std::optional<double> maxConcurrency;        // "Maximum concurrency for N tokens per request: X"
    std::optional<long long> concurrencyTokens;  // its N
    std::optional<long long> maxModelLen;
    std::optional<long long> maxNumBatchedTokens;
    std::optional<long long> maxNumSeqs;
    std::optional<int> tensorParallel;
    std::optional<int> pipelineParallel;
    std::optional<int> blockSize;
    std::optional<bool> enforceEager;
    std::optional<bool> customAllReduceDisabled;
    int profilingStages = 0;                         // "Memory profiling takes" lines: one per pipeline stage
    std::vector<std::pair<std::string, int>> lines;  // figure name -> the line it was read from
};

// Errors name the file, the line and the figure it could not read, or say that no KV-cache sizing line was found.
// Lines the parser does not know are skipped. Quoted text is cut to the figure, never a whole line.
Result<VllmStartupLog> parseVllmStartupLog(std::string_view text, const std::string& source);
Result<VllmStartupLog> readVllmStartupLog(const std::filesystem::path& path);  // at most 64 MiB

// What vLLM measured, with the values derived from it (tokens from blocks x block size, the block size from tokens /
// blocks, the engine from the version). Errors when the log holds neither the KV pool nor its tokens.
struct VllmMeasured {
    double utilization = kVllmDefaultUtilization;  // the log's, else vLLM's default 0.9
    std::optional<double> totalGiB;
    std::optional<double> availableKvGiB;
    std::uint64_t tokens = 0;  // the replica's KV tokens (0 when the log gives only the pool)
    std::uint64_t blocks = 0;
    int blockSize = 16;
    int tensorParallel = 1;
    int pipelineParallel = 1;
    long long maxModelLen = 0;            // 0 when unknown
    bool fp8Kv = false;                   // --kv-cache-dtype fp8*
    std::optional<WeightFormat> weights;  // from dtype / quantization when the log says
    bool v1Engine = true;
    // Bytes of K and V per token on one GPU of the tightest stage: from the model when given, else derived from the
    // pool and the tokens (pool / tokens, rounded to 128 bytes; approximate).
    std::uint64_t kvBytesPerTokenPerGpu = 0;
    bool kvBytesFromModel = false;
};

// One answer: the same server with something changed, from the user's measured overheads.
struct VllmWhatIf {
    std::string label;  // "as logged", "FP8 KV cache", "FP8 weights", "utilisation 0.95", ...
    bool fp8Kv = false;
    std::optional<WeightFormat> weights;  // nullopt: as logged
    double utilization = 0;
    long long context = 0;  // max_model_len of the answer (0 when unknown)
    double poolGiB = 0;     // per GPU
    std::uint64_t blocks = 0;
    std::uint64_t tokens = 0;
    std::optional<double> maxConcurrency;  // tokens / context
    bool fits = true;                      // the pool holds one sequence of `context`
    std::string basis;                     // how it was computed, in words
};

struct VllmCalibration {
    VllmStartupLog log;
    VllmMeasured measured;
    std::vector<VllmWhatIf> answers;  // [0] reproduces the log; then the other KV dtype, FP8 weights, the asked ones
    std::vector<std::string> notes;   // what could not be answered, and why
};

struct VllmWhatIfRequest {
    std::optional<ModelArchitecture> model;  // for FP8-weight answers and exact bytes per token
    std::optional<double> utilization;       // another --gpu-memory-utilization
    std::optional<long long> context;        // another --max-model-len
    std::optional<WeightFormat> weights;     // weights to try besides FP8
};

Result<VllmCalibration> calibrateFromVllmLog(const VllmStartupLog& log, const VllmWhatIfRequest& request);

Json vllmCalibrationToJson(const VllmCalibration& c);
std::string vllmCalibrationToText(const VllmCalibration& c);

}  // namespace fp8dash
