#pragma once
// The serving benchmarks of the plan: for every variant (the two runs, or each run of the ladder) the benchmark that
// measures it the same way as the others — one `vllm bench sweep serve` over a concurrency ladder where the vLLM
// release has it, else a loop of `vllm bench serve` (or, before `vllm bench`, benchmarks/benchmark_serving.py), and
// the GuideLLM equivalent — with the same workload, seed, percentiles and request counts for every variant, each
// command with only options its tool's release takes (sources in run_plan_serving.cpp); then the `fp8dash serving`
// and `fp8dash compare ... --serving LABEL=PATH` lines that read what they write. Plain data; thread-safe.

#include <optional>
#include <string>
#include <vector>

#include "fp8dash/core/json_text.h"
#include "fp8dash/core/result.h"
#include "fp8dash/core/vllm_memory.h"

namespace fp8dash {

inline constexpr int kServingDefaultConcurrency[] = {1, 4, 8, 16, 32, 64, 128};
inline constexpr int kServingPromptsPerConcurrency = 10;  // requests per concurrent stream at a load point
inline constexpr int kServingMinPrompts = 50;             // at least this many at any load point
inline constexpr int kServingMaxConcurrency = 4096;
inline constexpr int kGuidellmSecondsPerLoad = 120;  // GuideLLM < 0.7 stops each load point by time (below)
inline constexpr const char* kDefaultGuidellmVersion = "0.7";
inline constexpr const char* kDefaultServingSlo = "ttft_p99=2000ms,tpot_p99=50ms";
inline constexpr const char* kServingTarget = "http://localhost:8000";  // vllm serve's default host and port

enum class ServingBenchTool { Vllm, Guidellm, Both };
enum class VllmBenchMode { Auto, Sweep, Loop };  // Auto: the sweep where the release has it, else the loop

// What the serving benchmarks are asked to be (fp8dash plan's options).
struct ServingPlanInputs {
    std::vector<int> concurrency{std::begin(kServingDefaultConcurrency), std::end(kServingDefaultConcurrency)};
    int inputLen = 1024;             // tokens per prompt (random dataset)
    int outputLen = 256;             // tokens per answer (--ignore-eos: every variant writes as many)
    std::string dataset = "random";  // "random" or "sharegpt"
    std::string datasetPath;         // ShareGPT's JSON (vLLM only)
    int seed = 42;
    int promptsPerConcurrency = kServingPromptsPerConcurrency;
    int numRuns = 3;  // the sweep's --num-runs (its own default): replicates per load point
    ServingBenchTool tool = ServingBenchTool::Vllm;
    VllmBenchMode mode = VllmBenchMode::Auto;
    std::string guidellmVersion = kDefaultGuidellmVersion;
    std::string slo = kDefaultServingSlo;  // printed in `fp8dash serving ... --slo`
};

// The requests at one load point: max(kServingMinPrompts, promptsPerConcurrency x concurrency).
long long servingNumPrompts(int concurrency, int promptsPerConcurrency = kServingPromptsPerConcurrency);

// A JSON file the plan's commands read (a sweep's --serve-params / --bench-params), with its content.
struct ServingFile {
    std::string path, content;
};

// The serving benchmark of one variant.
struct ServingRunCommands {
    std::string key, label;  // the variant's (LadderRun key / compare label)
    // What was served, for the results' metadata (--metadata / --label k=v): variant, quantization, kv_cache_dtype
    // and, with an FP8 KV cache, kv_scales.
    std::vector<std::pair<std::string, std::string>> metadata;
    std::vector<std::string> serve;  // the variant's vllm serve (a sweep starts it itself with --serve-cmd)
    // vLLM: one sweep (one argv), or the loop's one argv per load point; the loop as one shell line.
    std::vector<std::vector<std::string>> vllm;
    std::string vllmLoop;
    std::string vllmResultPath;  // the folder the vLLM results go to (what `fp8dash serving` reads)
    std::optional<ServingFile> serveParams;
    std::vector<std::string> guidellm;
    std::string guidellmResultPath;  // the GuideLLM report
};

struct ServingPlan {
    ServingPlanInputs inputs;
    std::string vllmVersion;      // the release the vLLM commands are for (the plan's commands_vllm_version)
    std::string vllmMode;         // "sweep" or "loop"; "" without vLLM
    std::string vllmProgram;      // "vllm bench sweep serve", "vllm bench serve", "benchmarks/benchmark_serving.py"
    std::string guidellmVersion;  // "" without GuideLLM
    std::vector<long long> numPrompts;  // per load point, inputs.concurrency's order
    std::string directory;              // OUT/serving
    std::optional<ServingFile> benchParams;
    std::vector<ServingRunCommands> runs;  // the baseline first
    // fp8dash serving BASELINE CANDIDATE... --label ... --slo ...: for the vLLM results, and for GuideLLM's.
    std::vector<std::string> servingVllm, servingGuidellm;
    // fp8dash compare (the plan's evals) --label ... --serving LABEL=PATH ... --save ...
    std::vector<std::string> compare;
};

// One variant as the plan has it, for makeServingPlan.
struct ServingVariant {
    std::string key, label, folder, model, evalPath;
    bool fp8Weights = false, fp8Kv = false;
    std::string kvScales;  // kvScalesSourceName, "" without an FP8 KV cache
    std::vector<std::string> serve;
};

// Errors: an empty or unsorted concurrency ladder, a non-positive length / seed / runs, a dataset other than random
// or sharegpt (sharegpt needs its path; GuideLLM takes random only), an unparsable or too old GuideLLM version (< 0.2),
// a sweep asked for on a release without `vllm bench sweep`, an SLO with spaces.
Result<ServingPlan> makeServingPlan(const ServingPlanInputs& in, const VllmVersion& vllm,
                                    const std::vector<ServingVariant>& variants, const std::string& outDir,
                                    const std::string& comparisonPath);

// Whether the release has these (the sources are in run_plan_serving.cpp).
bool vllmHasBenchSweep(const VllmVersion& v);  // `vllm bench sweep serve`
bool vllmHasBenchServe(const VllmVersion& v);  // `vllm bench serve` with the options used here

Json servingPlanToJson(const ServingPlan& p);
std::string servingPlanToText(const ServingPlan& p);  // the plan's text section, from its first blank line

}  // namespace fp8dash
