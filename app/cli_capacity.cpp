#include "cli_capacity.h"

#include <climits>
#include <cmath>
#include <optional>
#include <ostream>

#include "cli.h"
#include "cli_args.h"
#include "fp8dash/core/capacity.h"
#include "fp8dash/core/local_device.h"
#include "fp8dash/core/run_plan.h"
#include "fp8dash/core/vllm_startup_log.h"

namespace fp8dash::cli {
namespace {

// --name VALUE and --name=VALUE; flags; nothing positional.

long long parseCount(const std::string& option, const std::string& text, long long min) {
    const auto v = strictInteger(text, min, INT_MAX);
    if (!v) throw UsageError{option + " \"" + text + "\": expected a whole number of at least " + std::to_string(min)};
    return *v;
}

double parseNumber(const std::string& option, const std::string& text, const char* expected) {
    const auto v = strictDouble(text);
    if (!v || *v < 0 || *v > kMaxGiB) throw UsageError{option + " \"" + text + "\": expected " + expected};
    return *v;
}

double parseUtilisation(const std::string& text) {
    const double v = parseNumber("--gpu-util", text, "a fraction in (0, 1], such as 0.92");
    if (v <= 0 || v > 1) throw UsageError{"--gpu-util \"" + text + "\": expected a fraction in (0, 1], such as 0.92"};
    return v;
}

StorageDtype parseDtype(const std::string& option, const std::string& text) {
    auto d = parseStorageDtype(text);
    if (!d) throw UsageError{option + " \"" + text + "\": expected bf16 or fp8"};
    return *d;
}

bool parseJsonFormat(const std::string& text) {
    if (text == "json") return true;
    if (text == "text") return false;
    throw UsageError{"--format \"" + text + "\": expected text or json"};
}

ModelArchitecture modelFrom(const std::string& text) {
    if (text.empty()) throw UsageError{"--model needs a preset (" + modelPresetNamesText() + ") or a config.json path"};
    auto m = resolveModel(text);
    if (!m) throw UsageError{m.error().message};
    return std::move(m).value();
}

// A preset or CUDA device name, or "local": this machine's GPUs (their free memory).
GpuSpec gpuFrom(const std::string& text, int gpus, std::optional<double> memoryGiB) {
    GpuSpec g;
    if (text == "local") {
        auto local = gpuFromLocalDevices(queryLocalDevices(), gpus);
        if (!local) throw UsageError{"--gpu local: " + local.error().message};
        g = std::move(local).value();
    } else if (auto preset = findGpuPreset(text)) {
        g = *preset;
    } else if (text.empty()) {
        throw UsageError{"--gpu needs a GPU: " + gpuPresetNamesText() + ", or local (this machine's GPU)"};
    } else {
        throw UsageError{
            "unknown GPU \"" + text + "\": expected one of " + gpuPresetNamesText() +
            ", a device name as CUDA reports it (\"NVIDIA H100 80GB HBM3\"), or local (this machine's GPU)"};
    }
    if (memoryGiB) g.memoryBytes = static_cast<std::uint64_t>(std::llround(*memoryGiB * 1073741824.0));
    return g;
}

std::vector<std::string> splitTasks(const std::string& text) {
    std::vector<std::string> tasks;
    std::size_t start = 0;
    while (start <= text.size()) {
        const std::size_t comma = text.find(',', start);
        const std::string t = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
        if (!t.empty()) tasks.push_back(t);
        if (comma == std::string::npos) break;
        start = comma + 1;
    }
    return tasks;
}

// --concurrency 1,4,8: the serving benchmarks' loads (makeServingPlan checks their order).
std::vector<int> parseConcurrency(const std::string& text) {
    std::vector<int> loads;
    for (const std::string& part : splitTasks(text))
        loads.push_back(static_cast<int>(parseCount("--concurrency", part, 1)));
    return loads;
}

// The serving benchmarks' options of `plan` (run_plan_serving.h); false: not one of them.
bool readServingOption(Args& o, ServingPlanInputs& s) {
    std::string value;
    if (o.option("--bench-tool", value)) {
        if (value == "vllm")
            s.tool = ServingBenchTool::Vllm;
        else if (value == "guidellm")
            s.tool = ServingBenchTool::Guidellm;
        else if (value == "both")
            s.tool = ServingBenchTool::Both;
        else
            throw UsageError{"--bench-tool \"" + value + "\": expected vllm, guidellm or both"};
    } else if (o.option("--vllm-bench", value)) {
        if (value == "sweep")
            s.mode = VllmBenchMode::Sweep;
        else if (value == "loop")
            s.mode = VllmBenchMode::Loop;
        else
            throw UsageError{"--vllm-bench \"" + value + "\": expected sweep or loop"};
    } else if (o.option("--concurrency", value)) {
        s.concurrency = parseConcurrency(value);
    } else if (o.option("--input-len", value)) {
        s.inputLen = static_cast<int>(parseCount("--input-len", value, 1));
    } else if (o.option("--output-len", value)) {
        s.outputLen = static_cast<int>(parseCount("--output-len", value, 1));
    } else if (o.option("--dataset", value)) {
        if (value.starts_with("sharegpt:")) {
            s.dataset = "sharegpt";
            s.datasetPath = value.substr(9);
        } else {
            s.dataset = value;
        }
    } else if (o.option("--bench-seed", value)) {
        s.seed = static_cast<int>(parseCount("--bench-seed", value, 0));
    } else if (o.option("--prompts-per-concurrency", value)) {
        s.promptsPerConcurrency = static_cast<int>(parseCount("--prompts-per-concurrency", value, 1));
    } else if (o.option("--serving-runs", value)) {
        s.numRuns = static_cast<int>(parseCount("--serving-runs", value, 1));
    } else if (o.option("--guidellm-version", value)) {
        s.guidellmVersion = value;
    } else if (o.option("--slo", value)) {
        s.slo = value;
    } else {
        return false;
    }
    return true;
}

// The options `capacity` and `plan` share: the model, the GPUs and how much of their memory vLLM may use.
struct SharedOptions {
    std::string model, gpu;
    int gpus = 1;
    std::optional<double> memoryGiB;
    double gpuUtilization = kDefaultGpuUtilization;
    double overheadGiB = kDefaultOverheadGiB;
    bool overheadGiven = false;  // --overhead-gib: the flat overhead instead of vLLM's accounting (capacity)
    bool json = false;

    // Consumes the next argument when it is one of these options.
    bool read(Args& o) {
        std::string value;
        if (o.option("--model", value))
            model = value;
        else if (o.option("--gpu", value))
            gpu = value;
        else if (o.option("--gpus", value))
            gpus = static_cast<int>(parseCount("--gpus", value, 1));
        else if (o.option("--gpu-util", value))
            gpuUtilization = parseUtilisation(value);
        else if (o.option("--overhead-gib", value)) {
            overheadGiB = parseNumber("--overhead-gib", value, "GiB per GPU, such as 2");
            overheadGiven = true;
        } else if (o.option("--memory-gib", value))
            memoryGiB = parseNumber("--memory-gib", value, "GiB per GPU, such as 79.6");
        else if (o.option("--format", value))
            json = parseJsonFormat(value);
        else
            return false;
        return true;
    }

    // Fills the inputs both planners take; the messages name the command.
    template <class Inputs>
    void applyTo(Inputs& in, const std::string& command) const {
        if (model.empty())
            throw UsageError{command + " needs --model (" + modelPresetNamesText() + ", or a config.json)"};
        if (gpu.empty()) throw UsageError{command + " needs --gpu (" + gpuPresetNamesText() + ", or local)"};
        in.gpus = gpus;
        in.gpuUtilization = gpuUtilization;
        in.overheadGiB = overheadGiB;
        in.model = modelFrom(model);
        in.gpu = gpuFrom(gpu, gpus, memoryGiB);
    }
};

// --weights: a format of weightFormatNamesText(); bf16 and fp8 are the comparison's two.
void applyWeights(CapacityInputs& in, const std::string& text) {
    const auto f = parseWeightFormat(text);
    if (!f) throw UsageError{"--weights \"" + text + "\": expected one of " + weightFormatNamesText()};
    in.weights = storageDtypeOf(*f);
    in.weightFormat = *f == WeightFormat::Bf16 || *f == WeightFormat::Fp8 ? std::nullopt : std::optional(*f);
}

// `capacity --from-vllm-log FILE`: what the user's own vLLM measured, and the same server changed.
int runFromVllmLog(const std::string& path, const SharedOptions& shared, const std::optional<WeightFormat>& weights,
                   const std::optional<long long>& context, bool utilisationGiven, std::ostream& out) {
    auto log = readVllmStartupLog(path);
    if (!log) throw UsageError{log.error().message};
    VllmWhatIfRequest req;
    if (!shared.model.empty()) req.model = modelFrom(shared.model);
    if (utilisationGiven) req.utilization = shared.gpuUtilization;
    req.context = context;
    if (weights && *weights != WeightFormat::Fp8) req.weights = weights;
    auto c = calibrateFromVllmLog(*log, req);
    if (!c) throw UsageError{c.error().message};
    if (shared.json)
        out << vllmCalibrationToJson(*c).dump(2) << "\n";
    else
        out << vllmCalibrationToText(*c);
    return kExitOk;
}

}  // namespace

int runCapacity(const std::vector<std::string>& args, std::ostream& out, std::ostream& /*err*/) {
    Args o(args);
    SharedOptions shared;
    CapacityInputs in;
    VllmServeSettings vllm;
    std::string value, logPath;
    std::optional<WeightFormat> weights;
    std::optional<long long> context;
    bool utilisationGiven = false;
    while (!o.done()) {
        if (o.option("--gpu-util", value)) {  // read here too: --from-vllm-log asks "another utilisation"
            shared.gpuUtilization = parseUtilisation(value);
            utilisationGiven = true;
            continue;
        }
        if (shared.read(o)) continue;
        if (o.option("--weights", value)) {
            applyWeights(in, value);
            weights = parseWeightFormat(value);
        } else if (o.option("--kv", value))
            in.kv = parseDtype("--kv", value);
        else if (o.option("--context", value))
            context = in.contextTokens = parseCount("--context", value, 1);
        else if (o.option("--batch", value))
            in.decodeBatch = static_cast<int>(parseCount("--batch", value, 1));
        else if (o.option("--vllm-version", value)) {
            if (auto v = parseVllmVersion(value); !v) throw UsageError{"--vllm-version: " + v.error().message};
            vllm.version = value;
        } else if (o.option("--max-num-batched-tokens", value))
            vllm.maxNumBatchedTokens = parseCount("--max-num-batched-tokens", value, 1);
        else if (o.option("--max-num-seqs", value))
            vllm.maxNumSeqs = static_cast<int>(parseCount("--max-num-seqs", value, 1));
        else if (o.option("--pp", value))
            vllm.pipelineParallel = static_cast<int>(parseCount("--pp", value, 1));
        else if (o.option("--block-size", value))
            vllm.blockSize = static_cast<int>(parseCount("--block-size", value, 1));
        else if (o.flag("--no-custom-all-reduce"))
            vllm.customAllReduce = false;
        else if (o.flag("--enforce-eager"))
            vllm.enforceEager = true;
        else if (o.flag("--deduct-cuda-graphs"))
            vllm.deductCudaGraphs = true;
        else if (o.option("--from-vllm-log", value))
            logPath = value;
        else
            o.unknown("capacity");
    }
    if (!logPath.empty()) return runFromVllmLog(logPath, shared, weights, context, utilisationGiven, out);
    shared.applyTo(in, "capacity");
    // vLLM's accounting unless a flat overhead is asked for.
    if (!shared.overheadGiven)
        in.vllm = vllm;
    else if (vllm.pipelineParallel != 1 || vllm.maxNumBatchedTokens || vllm.maxNumSeqs)
        throw UsageError{
            "--pp, --max-num-batched-tokens and --max-num-seqs size vLLM's accounting, which "
            "--overhead-gib replaces with a flat overhead: give one or the other"};
    auto result = planCapacity(in);
    if (!result) throw UsageError{result.error().message};
    if (shared.json)
        out << capacityToJson(*result).dump(2) << "\n";
    else
        out << capacityToText(*result);
    return kExitOk;
}

int runPlan(const std::vector<std::string>& args, std::ostream& out, std::ostream& /*err*/) {
    Args o(args);
    SharedOptions shared;
    PlanInputs in;
    std::string value;
    std::optional<std::string> vllmVersion;
    while (!o.done()) {
        if (shared.read(o) || readServingOption(o, in.serving)) continue;
        if (o.option("--tp", value))
            in.tensorParallel = static_cast<int>(parseCount("--tp", value, 1));
        else if (o.option("--context", value))
            in.contextTokens = parseCount("--context", value, 1);
        else if (o.option("--tasks", value))
            in.tasks = splitTasks(value);
        else if (o.option("--num-fewshot", value))
            in.numFewshot = static_cast<int>(parseCount("--num-fewshot", value, 0));
        else if (o.option("--out-dir", value))
            in.outDir = value;
        else if (o.option("--hf-model", value))
            in.bf16Model = value;
        else if (o.option("--fp8-model", value))
            in.fp8Model = value;
        else if (o.option("--fp8-kv-checkpoint", value))
            in.fp8KvCheckpoint = value;
        else if (o.flag("--no-kv-scales"))
            in.kvScales = false;
        else if (o.flag("--ladder"))
            in.ladder = true;
        else if (o.option("--vllm-version", value))
            vllmVersion = value;
        else
            o.unknown("plan");
    }
    shared.applyTo(in, "plan");
    // The capacity as `capacity` sizes it (vLLM's accounting) unless a flat overhead is asked for.
    if (shared.overheadGiven) {
        if (vllmVersion) throw UsageError{"--vllm-version and --overhead-gib: give one or the other"};
        in.vllm.reset();
    } else if (vllmVersion) {
        if (auto v = parseVllmVersion(*vllmVersion); !v) throw UsageError{"--vllm-version: " + v.error().message};
        in.vllm->version = *vllmVersion;
    }
    auto plan = makeRunPlan(in);
    if (!plan) throw UsageError{plan.error().message};
    if (shared.json)
        out << runPlanToJson(*plan).dump(2) << "\n";
    else
        out << runPlanToText(*plan);
    return kExitOk;
}

std::string capacityUsage() {
    return std::string(
               "  fp8dash capacity --model NAME|config.json --gpu NAME|local [options]\n"
               "                                 KV-cache room beside the weights, as vLLM sizes it, and a decode "
               "bound\n"
               "      --gpus N                   GPUs of one tensor-parallel group (default 1)\n"
               "      --weights FORMAT           bf16, fp16, fp8, fp8-channel, fp8-dynamic, int8, int4 (GPTQ W4A16),\n"
               "                                 int4-awq (default bf16)\n"
               "      --kv bf16|fp8              how the KV cache is stored (default bf16)\n"
               "      --gpu-util F               fraction of GPU memory vLLM may use (default 0.92)\n"
               "      --context N                tokens per sequence, --max-model-len (default 8192)\n"
               "      --vllm-version V           the vLLM release whose accounting to follow (default 0.28)\n"
               "      --max-num-batched-tokens N, --max-num-seqs N   as given to vllm serve (default: vLLM's)\n"
               "      --pp N                     pipeline-parallel stages (the tightest one bounds the tokens)\n"
               "      --block-size N             tokens per KV block (default 16)\n"
               "      --no-custom-all-reduce, --enforce-eager, --deduct-cuda-graphs   as vLLM's options / env\n"
               "      --overhead-gib X           one flat overhead per GPU instead of vLLM's accounting\n"
               "      --memory-gib X             per-GPU memory instead of the preset's (what the device reports)\n"
               "      --batch N                  sequences per decode step, for the decode estimate (default 32)\n"
               "      --from-vllm-log FILE       read a vLLM start-up log: what vLLM measured, and the same server\n"
               "                                 with an FP8 KV cache, FP8 weights (with --model), --gpu-util F,\n"
               "                                 --context N or --weights FORMAT\n"
               "      --format text|json\n"
               "      models: ") +
           modelPresetNamesText() + "\n      GPUs: " + gpuPresetNamesText() +
           ", local (this machine's free memory)\n"
           "  fp8dash plan --model NAME|config.json --gpu NAME|local [--gpus N] [--tp N] [options]\n"
           "                                 the experiment's commands: vllm serve, lm_eval (BF16, FP8), compare\n"
           "      --context N                max-model-len (default: from the capacity, at most 32768)\n"
           "      --tasks a,b,c              lm-eval tasks (default mmlu,hellaswag,gsm8k)\n"
           "      --num-fewshot N            few-shot examples (default 5)\n"
           "      --out-dir DIR              where lm_eval writes its results (default results)\n"
           "      --hf-model ID              the checkpoint vLLM loads (default: the preset's repository)\n"
           "      --fp8-model ID             a pre-quantised FP8 checkpoint (default: vLLM quantises at load)\n"
           "      --fp8-kv-checkpoint ID     a checkpoint with calibrated KV scales (LLM Compressor kv_cache_scheme):\n"
           "                                 the FP8 variant's scales on a vLLM without --calculate-kv-scales (0.28+)\n"
           "      --no-kv-scales             FP8 KV cache with scales 1.0 (no --calculate-kv-scales on 0.7-0.27)\n"
           "      --ladder                   every run of the ladder (BF16; FP8 weights; + FP8 KV cache[; the KV\n"
           "                                 checkpoint]) and one compare of them all\n"
           "      --vllm-version V           the vLLM release: its accounting sizes the capacity (as `capacity`\n"
           "                                 does) and the commands take only its options (default 0.28);\n"
           "                                 --overhead-gib X: a flat overhead per GPU instead\n"
           "      --gpu-util F, --memory-gib X, --format text|json\n"
           "      serving benchmarks of every variant, the same for all (and the serving / compare that read them):\n"
           "      --bench-tool vllm|guidellm|both   (default vllm)\n"
           "      --vllm-bench sweep|loop    vllm bench sweep serve (default where the release has it, 0.12+) or\n"
           "                                 one vllm bench serve per load\n"
           "      --concurrency 1,4,8,...    the loads (default 1,4,8,16,32,64,128)\n"
           "      --input-len N, --output-len N   random prompts' tokens in and out (default 1024, 256)\n"
           "      --dataset random|sharegpt:PATH   (sharegpt: vllm bench only)\n"
           "      --bench-seed N             (default 42)\n"
           "      --prompts-per-concurrency N   requests per load point: N x concurrency, at least 50 (default 10)\n"
           "      --serving-runs N           the sweep's runs per load (default 3)\n"
           "      --guidellm-version V       the GuideLLM release the command is for (default 0.7; 0.2-0.7)\n"
           "      --slo SPEC                 for the printed fp8dash serving (default ttft_p99=2000ms,tpot_p99=50ms)\n";
}

}  // namespace fp8dash::cli
