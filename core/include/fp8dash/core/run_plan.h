#pragma once
// The plan: the commands of the seed workflow for one model on one set of GPUs, for the BF16 baseline and the FP8
// variant, ready to copy: `vllm serve` (staging), `lm_eval` (same tasks, few-shot and per-sample logs on both) and
// the `fp8dash compare` that reads what lm_eval writes, with max-model-len chosen from the capacity figures and
// warnings where the plan is unwise. Plain data; every function is thread-safe.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "fp8dash/core/capacity.h"
#include "fp8dash/core/lm_eval_results.h"
#include "fp8dash/core/result.h"

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
    bool kvScales = true;   // --calculate-kv-scales on the FP8 variant
    std::string bf16Model;  // what vLLM loads for the baseline; default: the model's hfRepo
    std::string fp8Model;   // for FP8; default: the baseline's checkpoint, quantised by vLLM at load
};

struct PlanWarning {
    std::string kind;  // small_model, weights_do_not_fit, context_does_not_fit, long_context_without_kv_scales,
                       // context_over_model_limit, heads_not_divisible, kv_heads_replicated, no_fp8_tensor_cores
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
};

// Errors for a plan that cannot be written: gpus not a multiple of the tensor-parallel size, no tasks, a task or
// model name that would break the command line, and what planCapacity refuses. Unwise plans are warnings.
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
