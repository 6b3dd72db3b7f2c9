#pragma once
// The plan: the commands of the seed workflow for one model on one set of GPUs, for the BF16 baseline and the FP8
// variant, ready to copy: `vllm serve` (staging), `lm_eval` (same tasks, few-shot and per-sample logs on both) and
// the `fp8dash compare` that reads what lm_eval writes, with max-model-len chosen from the capacity figures and
// warnings where the plan is unwise. With the ladder, one run per FP8 layer (BF16; FP8 weights; FP8 weights + FP8 KV
// cache; a checkpoint with calibrated KV scales where one is named) and one compare of them all. Every command carries
// only options the chosen vLLM release takes (kv_scales_advice.h). Plain data; every function is thread-safe.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "fp8dash/core/capacity.h"
#include "fp8dash/core/lm_eval_results.h"
#include "fp8dash/core/result.h"
#include "fp8dash/core/run_plan_serving.h"

namespace fp8dash {

// Without --context, max-model-len is the longest of these (tokens) that the model allows and the BF16 baseline holds
// at least once. 32K is the ceiling: beyond it an FP8 KV cache is a risk of its own (DESIGN.md risk flags), to be
// asked for explicitly.
inline constexpr long long kPlanContextCandidates[] = {32768, 16384, 8192, 4096, 2048};
inline constexpr long long kLongContextTokens = 32768;  // above this, an FP8 KV cache without scales accumulates error
inline constexpr double kSmallModelParameters = 7e9;    // under ~7B parameters FP8 gains little

struct PlanInputs {
    ModelArchitecture model;
    GpuSpec gpu;
    int gpus = 1;                            // all GPUs of the deployment
    std::optional<int> tensorParallel;       // GPUs per replica; default: all of them
    std::optional<long long> contextTokens;  // max-model-len; default: chosen from the capacity figures
    std::vector<std::string> tasks = {"mmlu", "hellaswag", "gsm8k"};
    int numFewshot = 5;
    std::string outDir = "results";  // lm_eval writes <outDir>/bf16 and <outDir>/fp8
    double gpuUtilization = kDefaultGpuUtilization;
    double overheadGiB = kDefaultOverheadGiB;  // per GPU; only without `vllm` (the flat accounting)
    // How the memory beside weights and KV cache is counted: vLLM's accounting of this release (the same default as
    // `fp8dash capacity` and the Capacity view, so every "N tokens" agrees), or nullopt: the flat overheadGiB.
    std::optional<VllmServeSettings> vllm = VllmServeSettings{};
    // The vLLM release the commands are written for: only options it takes are printed. nullopt: the accounting's
    // release (`vllm`), or kDefaultVllmVersion with the flat overhead.
    std::optional<std::string> commandsVllmVersion;
    // The FP8 run has KV scales (false: --no-kv-scales, scales 1.0 on purpose). How depends on the release: where
    // vLLM still has --calculate-kv-scales (0.7 to 0.27) that option computes them at start-up; from 0.28 they come
    // only from a checkpoint with calibrated KV scales (fp8KvCheckpoint), and without one the FP8 KV cache runs with
    // scales 1.0, which the plan names as such with its risk (warning kv_scales_1_0) and how to make such a checkpoint.
    bool kvScales = true;
    std::string bf16Model;  // what vLLM loads for the baseline; default: the model's hfRepo
    std::string fp8Model;   // for FP8; default: the baseline's checkpoint, quantised by vLLM at load
    // A checkpoint with FP8 weights and calibrated KV scales (an LLM Compressor kv_cache_scheme, "-FP8-KV"): the FP8
    // variant (with the ladder, a run of its own). vLLM loads it as it is: no --quantization, --kv-cache-dtype fp8.
    std::string fp8KvCheckpoint;
    bool ladder = false;        // every run of the ladder and the one compare of them all
    ServingPlanInputs serving;  // the serving benchmarks of every variant (run_plan_serving.h)
};

// Where the FP8 variant's KV scales come from.
enum class KvScalesSource {
    Calculated,  // --calculate-kv-scales, at start-up (vLLM 0.7 to 0.27)
    Checkpoint,  // calibrated, stored in the checkpoint (fp8KvCheckpoint)
    One,         // none: scales 1.0
};
const char* kvScalesSourceName(KvScalesSource s);  // "calculate_kv_scales", "checkpoint", "1.0"

// The batch of a variant's decode estimate: kDefaultDecodeBatch (the seed article's 32) where that many sequences of
// max-model-len fit in its KV cache, else as many as fit; none where not one fits.
struct PlanDecode {
    std::optional<int> batch;  // nullopt: not one sequence fits
    std::string batchFrom;     // "default", "sequences_that_fit" or "none_fits"
};

// One run of the ladder: what vLLM serves and lm_eval evaluates, where the results go, the run's capacity.
struct LadderRun {
    std::string key;       // "bf16", "fp8_w8a8", "fp8_w8a8_kv", "fp8_kv_checkpoint"
    std::string label;     // "BF16", "FP8 W8A8", "FP8 W8A8 + FP8 KV (scales 1.0)", ... (compare's --label)
    std::string model;     // the checkpoint vLLM loads
    std::string weights;   // "bf16" or "fp8"
    std::string kvCache;   // "bf16" (the model dtype) or "fp8"
    std::string kvScales;  // kvScalesSourceName of an FP8 KV cache; empty without one
    std::vector<std::string> serve, eval;
    std::string outputPath;
    CapacityResult capacity;  // per replica, at max-model-len, with this run's weights and KV dtype
    PlanDecode decode;        // the batch of capacity.decode
};

struct PlanWarning {
    std::string kind;  // small_model, kv_scales_1_0, long_context_without_kv_scales, weights_do_not_fit,
                       // context_does_not_fit, context_over_model_limit, heads_not_divisible, kv_heads_replicated,
                       // no_data_parallel, no_fp8_tensor_cores
    std::string message;
};

// Each command as its argument vector (argv[0] is the program).
struct PlanCommands {
    std::vector<std::string> serveBf16, serveFp8, evalBf16, evalFp8, compare;
};

struct RunPlan {
    PlanInputs inputs;
    int tensorParallel = 1;
    int replicas = 1;                // gpus / tensorParallel (vLLM data parallelism)
    long long maxModelLen = 0;       // tokens
    bool maxModelLenChosen = false;  // chosen from the capacity figures (no --context)
    CapacityResult bf16;             // per replica: BF16 weights and KV cache at maxModelLen
    CapacityResult fp8;              // per replica: FP8 weights and KV cache
    PlanCommands commands;
    std::string bf16OutputPath, fp8OutputPath, comparisonPath;
    std::vector<PlanWarning> warnings;
    std::string commandsVllmVersion;                      // the release the commands are for (resolved)
    bool calculateKvScalesAvailable = false;              // that release has --calculate-kv-scales
    KvScalesSource kvScalesSource = KvScalesSource::One;  // of the FP8 variant
    PlanDecode decodeBf16, decodeFp8;                     // the batches of bf16.decode and fp8.decode
    std::vector<LadderRun> ladder;           // with inputs.ladder: BF16, W8A8, W8A8 + FP8 KV[, the KV checkpoint]
    std::vector<std::string> ladderCompare;  // fp8dash compare BASELINE CANDIDATE... --label ... --save ...
    std::string ladderComparisonPath;
    ServingPlan serving;  // every variant's serving benchmark (the ladder's runs, else BF16 and FP8)
};

// Errors for a plan that cannot be written: gpus not a multiple of the tensor-parallel size, no tasks, a task or
// model name that would break the command line, a vLLM version that does not parse, --no-kv-scales with a KV
// checkpoint, --fp8-model with one outside the ladder, and what planCapacity refuses. Unwise plans are warnings.
Result<RunPlan> makeRunPlan(const PlanInputs& inputs);

// POSIX shell quoting: plain words as they are, anything else in single quotes.
std::string shellQuote(std::string_view word);
std::string shellLine(const std::vector<std::string>& argv);   // one line
std::string shellBlock(const std::vector<std::string>& argv);  // one option per line, continued with backslashes

// The stable JSON of `fp8dash plan --format json`: {commands, warnings, capacity, ...} (README).
Json runPlanToJson(const RunPlan& plan);
// The commands as a commented shell script, with the capacity figures and the warnings.
std::string runPlanToText(const RunPlan& plan);

}  // namespace fp8dash
