// The plan of the experiment: the seed workflow's vllm serve / lm_eval commands for both variants (or every run of the
// ladder) and fp8dash compare, each with only options the chosen vLLM release takes.
#include "fp8dash/core/run_plan.h"

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <functional>

#include "fp8dash/core/kv_scales_advice.h"
#include "fp8dash/core/number_format.h"

namespace fp8dash {
namespace {

std::string number(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", v);
    return buf;
}

std::string billions(std::uint64_t params) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2fB", static_cast<double>(params) / 1e9);
    return buf;
}

bool plainWordChar(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           std::string_view("_-./:=,@%+").find(c) != std::string_view::npos;
}

Result<CapacityResult> capacityAt(const PlanInputs& in, int tp, long long context, StorageDtype weights,
                                  StorageDtype kv, int decodeBatch = kDefaultDecodeBatch) {
    CapacityInputs c;
    c.model = in.model;
    c.gpu = in.gpu;
    c.gpus = tp;
    c.weights = weights;
    c.kv = kv;
    c.decodeBatch = decodeBatch;
    c.gpuUtilization = in.gpuUtilization;
    c.contextTokens = context;
    c.overheadGiB = in.overheadGiB;
    c.vllm = in.vllm;  // vLLM's accounting, as `capacity` sizes it; nullopt: the flat overhead
    return planCapacity(c);
}

std::string path(const std::string& dir, const char* leaf) {
    return (std::filesystem::path(dir) / leaf).generic_string();
}

// `vllm serve --data-parallel-size` came with the V1 engine's data parallelism; fp8dash takes the release that made
// V1 the default (0.8.0) for it. Every release it knows is either well before (0.6.4) or well after (0.10 on).
bool hasDataParallel(const VllmVersion& v) {
    return !(v < VllmVersion{0, 8, 0, "0.8"});
}

// The capacity of one variant at max-model-len, its decode estimate at a batch that fits (PlanDecode).
Result<CapacityResult> sizedCapacity(const PlanInputs& in, int tp, long long context, StorageDtype weights,
                                     StorageDtype kv, PlanDecode& decode) {
    auto cap = capacityAt(in, tp, context, weights, kv);
    if (!cap) return cap.error();
    const std::uint64_t fit = cap->maxSequences;
    if (fit >= static_cast<std::uint64_t>(kDefaultDecodeBatch)) {
        decode = {kDefaultDecodeBatch, "default"};
        return cap;
    }
    if (fit == 0) {
        decode = {std::nullopt, "none_fits"};
        return cap;
    }
    decode = {static_cast<int>(fit), "sequences_that_fit"};
    return capacityAt(in, tp, context, weights, kv, static_cast<int>(fit));
}

}  // namespace

std::string shellQuote(std::string_view word) {
    if (!word.empty()) {
        bool plain = true;
        for (char c : word) plain = plain && plainWordChar(c);
        if (plain) return std::string(word);
    }
    std::string out = "'";
    for (char c : word) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
}

std::string shellLine(const std::vector<std::string>& argv) {
    std::string out;
    for (const auto& a : argv) out += (out.empty() ? "" : " ") + shellQuote(a);
    return out;
}

std::string shellBlock(const std::vector<std::string>& argv) {
    std::string out;
    for (std::size_t i = 0; i < argv.size(); ++i) {
        if (i > 0) out += argv[i].starts_with("--") ? " \\\n    " : " ";
        out += shellQuote(argv[i]);
    }
    return out;
}

const char* kvScalesSourceName(KvScalesSource s) {
    switch (s) {
        case KvScalesSource::Calculated:
            return "calculate_kv_scales";
        case KvScalesSource::Checkpoint:
            return "checkpoint";
        case KvScalesSource::One:
            break;
    }
    return "1.0";
}

namespace {

// The inputs a plan cannot be written from.
Status checkPlanInputs(const PlanInputs& in, int tp) {
    if (in.gpus < 1) return Error{"--gpus must be at least 1 (got " + std::to_string(in.gpus) + ")"};
    if (tp < 1) return Error{"--tp must be at least 1 (got " + std::to_string(tp) + ")"};
    if (in.gpus % tp != 0)
        return Error{"--gpus " + std::to_string(in.gpus) + " is not a multiple of --tp " + std::to_string(tp) +
                     ": every replica needs the same number of GPUs"};
    if (in.tasks.empty()) return Error{"--tasks names no task"};
    for (const auto& t : in.tasks)
        if (t.empty() || t.find_first_of(", \t\n'\"") != std::string::npos)
            return Error{"--tasks: \"" + t + "\" is not a task name"};
    if (in.numFewshot < 0) return Error{"--num-fewshot must be 0 or more"};
    if (in.outDir.empty()) return Error{"--out-dir must not be empty"};
    if (in.contextTokens && *in.contextTokens < 1)
        return Error{"--context must be at least 1 token (got " + std::to_string(*in.contextTokens) + ")"};
    if (!in.fp8KvCheckpoint.empty() && !in.kvScales)
        return Error{
            "--no-kv-scales and --fp8-kv-checkpoint: give one or the other (a checkpoint with calibrated KV "
            "scales has scales)"};
    if (!in.fp8KvCheckpoint.empty() && !in.fp8Model.empty() && !in.ladder)
        return Error{
            "--fp8-model and --fp8-kv-checkpoint: the FP8 variant is one checkpoint (with --ladder each is "
            "a run of its own)"};
    return success();
}

using WarnFn = std::function<void(std::string kind, std::string message)>;

// max-model-len: as asked (within what the model allows), else the longest candidate the baseline holds.
Status chooseMaxModelLen(const PlanInputs& in, int tp, RunPlan& p, const WarnFn& warn) {
    const ModelArchitecture& model = in.model;
    const long long modelLimit = model.maxPositionEmbeddings.value_or(0);
    if (in.contextTokens) {
        p.maxModelLen = *in.contextTokens;
        if (modelLimit > 0 && p.maxModelLen > modelLimit) {
            warn("context_over_model_limit", "--context " + std::to_string(p.maxModelLen) + " is beyond what " +
                                                 model.name + " is configured for (max_position_embeddings " +
                                                 std::to_string(modelLimit) + "); the plan uses " +
                                                 std::to_string(modelLimit));
            p.maxModelLen = modelLimit;
        }
        return success();
    }
    p.maxModelLenChosen = true;
    std::vector<long long> candidates;
    for (long long c : kPlanContextCandidates)
        if (modelLimit == 0 || c <= modelLimit) candidates.push_back(c);
    if (candidates.empty()) candidates.push_back(modelLimit);
    p.maxModelLen = candidates.back();  // when nothing fits, the shortest, with a warning below
    for (StorageDtype variant : {StorageDtype::Bf16, StorageDtype::Fp8}) {
        for (long long c : candidates) {
            auto cap = capacityAt(in, tp, c, variant, variant);
            if (!cap) return cap.error();
            if (cap->fits) {
                p.maxModelLen = c;
                return success();
            }
        }
    }
    return success();
}

// The release the commands are for: what it takes.
struct Serving {
    VllmVersion version;
    bool calculateKvScales = false;  // --calculate-kv-scales
    bool dataParallel = false;       // --data-parallel-size
};

// The warnings, the DESIGN.md risk flags first.
void addPlanWarnings(const PlanInputs& in, int tp, const Serving& serving, RunPlan& p, const WarnFn& warn) {
    const ModelArchitecture& model = in.model;
    const std::uint64_t params = model.parameterCount();
    const std::string release = "vLLM " + p.commandsVllmVersion;
    if (static_cast<double>(params) < kSmallModelParameters)
        warn("small_model", model.name + " has " + billions(params) +
                                " parameters: under ~7B, FP8 gains little and its conversion overhead can outweigh "
                                "the throughput gain");
    if (p.kvScalesSource == KvScalesSource::One && in.kvScales) {
        const bool removed = !(serving.version < *parseVllmVersion(kVllmReleaseWithoutCalculateKvScales));
        warn("kv_scales_1_0",
             release + " has no --calculate-kv-scales (" +
                 (removed ? std::string("vLLM removed it in ") + kVllmReleaseWithoutCalculateKvScales +
                                ", vllm-project/vllm PR #49389"
                          : std::string("it came with ") + kVllmReleaseWithCalculateKvScales) +
                 "): the FP8 KV cache runs with scales 1.0, uncalibrated, so K/V values beyond FP8's range saturate "
                 "and the error accumulates with the context. For calibrated scales, " +
                 kvScalesAdvice(serving.version) +
                 ". Plan such a checkpoint with --fp8-kv-checkpoint ID; LLM Compressor makes one (the plan prints the "
                 "command)");
    }
    // The ladder's W8A8 + FP8 KV run has scales 1.0 too wherever it cannot calculate them, beside a KV checkpoint.
    const bool ladderRunAtOne = in.ladder && !(in.kvScales && serving.calculateKvScales);
    if ((p.kvScalesSource == KvScalesSource::One || ladderRunAtOne) && p.maxModelLen > kLongContextTokens)
        warn("long_context_without_kv_scales",
             "max-model-len " + std::to_string(p.maxModelLen) + " is over 32K with an FP8 KV cache at scales 1.0 (" +
                 (p.kvScalesSource == KvScalesSource::One ? "" : "the ladder's FP8 W8A8 + FP8 KV run; ") +
                 (in.kvScales ? release + " cannot compute them" : std::string("--no-kv-scales")) +
                 "): the error of scale 1.0 accumulates with the context; for scales, " +
                 kvScalesAdvice(serving.version));
    const std::string group = std::to_string(tp) + " x " + in.gpu.displayName;
    for (const CapacityResult* c : {&p.bf16, &p.fp8}) {
        if (c->fits) continue;
        const std::string variant = c == &p.bf16 ? "the BF16 baseline" : "the FP8 variant";
        if (c->shortfallBytes > 0)
            warn("weights_do_not_fit", variant + " does not fit on " + group + ": its weights (" +
                                           formatBytes(c->weightsBytes) + ") and runtime overhead leave " +
                                           formatBytes(c->shortfallBytes) + " short; use more GPUs per replica (--tp)");
        else
            warn("context_does_not_fit", variant + " on " + group + " holds " + std::to_string(c->maxTokens) +
                                             " tokens of KV cache, less than one sequence of max-model-len " +
                                             std::to_string(p.maxModelLen) +
                                             "; lower --context or use more GPUs per replica");
    }
    if (model.attentionHeads % tp != 0)
        warn("heads_not_divisible", "--tp " + std::to_string(tp) + " does not divide the " +
                                        std::to_string(model.attentionHeads) + " attention heads of " + model.name +
                                        ": vLLM refuses this tensor-parallel size");
    if (tp > model.kvHeads)
        warn("kv_heads_replicated", "--tp " + std::to_string(tp) + " is more than the " +
                                        std::to_string(model.kvHeads) +
                                        " KV heads: vLLM copies them, so each token's KV cache costs " +
                                        std::to_string(p.bf16.kvReplication) + "x (counted in the capacity)");
    if (p.replicas > 1 && !serving.dataParallel)
        warn("no_data_parallel", release + " has no --data-parallel-size (it came with the V1 engine): start " +
                                     std::to_string(p.replicas) + " servers, one per replica of " + std::to_string(tp) +
                                     " GPUs (CUDA_VISIBLE_DEVICES); lm_eval's data_parallel_size is its own");
    if (!in.gpu.fp8TensorCores)
        warn("no_fp8_tensor_cores", in.gpu.displayName +
                                        " has no FP8 tensor cores (compute capability below 8.9): vLLM falls back to "
                                        "weight-only FP8 and the throughput gain is small");
}

// What one run asks of vLLM (DESIGN.md "The three FP8 layers (vLLM)").
struct Variant {
    std::string model;
    bool quantizeWeights = false;    // --quantization fp8: FP8 weights (and W8A8 on 8.9+), quantised at load
    bool fp8Kv = false;              // --kv-cache-dtype fp8
    bool calculateKvScales = false;  // --calculate-kv-scales (only where the release has it)
};

std::vector<std::string> serveArgs(const RunPlan& p, const Serving& serving, const Variant& v) {
    std::vector<std::string> a = {"vllm", "serve", v.model, "--dtype", "bfloat16"};
    if (v.quantizeWeights) a.insert(a.end(), {"--quantization", "fp8"});
    if (v.fp8Kv) a.insert(a.end(), {"--kv-cache-dtype", "fp8"});
    if (v.calculateKvScales) a.push_back("--calculate-kv-scales");
    a.insert(a.end(), {"--tensor-parallel-size", std::to_string(p.tensorParallel)});
    if (p.replicas > 1 && serving.dataParallel) a.insert(a.end(), {"--data-parallel-size", std::to_string(p.replicas)});
    a.insert(a.end(), {"--gpu-memory-utilization", number(p.inputs.gpuUtilization), "--max-model-len",
                       std::to_string(p.maxModelLen)});
    return a;
}

// lm_eval's vllm model passes these to vLLM's LLM(...): the same layers as the server's.
std::vector<std::string> evalArgs(const RunPlan& p, const Variant& v, const std::string& out) {
    const PlanInputs& in = p.inputs;
    std::string args = "pretrained=" + v.model + ",dtype=bfloat16";
    if (v.quantizeWeights) args += ",quantization=fp8";
    if (v.fp8Kv) args += ",kv_cache_dtype=fp8";
    if (v.calculateKvScales) args += ",calculate_kv_scales=true";
    args += ",tensor_parallel_size=" + std::to_string(p.tensorParallel);
    if (p.replicas > 1) args += ",data_parallel_size=" + std::to_string(p.replicas);
    args += ",gpu_memory_utilization=" + number(in.gpuUtilization) + ",max_model_len=" + std::to_string(p.maxModelLen);
    std::string tasks;
    for (const auto& t : in.tasks) tasks += (tasks.empty() ? "" : ",") + t;
    return {"lm_eval",
            "--model",
            "vllm",
            "--model_args",
            args,
            "--tasks",
            tasks,
            "--num_fewshot",
            std::to_string(in.numFewshot),
            "--batch_size",
            "auto",
            "--log_samples",
            "--output_path",
            out};
}

// The runs' layers: the baseline, FP8 weights, FP8 weights + FP8 KV cache, the checkpoint with calibrated KV scales.
Variant bf16Variant(const RunPlan& p) {
    return {p.inputs.bf16Model, false, false, false};
}
Variant w8a8Variant(const RunPlan& p) {
    return {p.inputs.fp8Model, true, false, false};
}
Variant w8a8KvVariant(const RunPlan& p) {
    return {p.inputs.fp8Model, true, true, p.inputs.kvScales && p.calculateKvScalesAvailable};
}
// A pre-quantised checkpoint carries its quantization in its config: --quantization fp8 beside a compressed-tensors
// config is refused by vLLM, so only the KV cache dtype is asked for (LLM Compressor's README: kv_cache_dtype=fp8).
Variant kvCheckpointVariant(const RunPlan& p) {
    return {p.inputs.fp8KvCheckpoint, false, true, false};
}

// The commands of both variants (the seed article's steps 1-3).
void addPlanCommands(const Serving& serving, RunPlan& p) {
    const PlanInputs& in = p.inputs;
    p.bf16OutputPath = path(in.outDir, "bf16");
    p.fp8OutputPath = path(in.outDir, "fp8");
    p.comparisonPath = path(in.outDir, "fp8-vs-bf16.fp8cmp");
    const Variant fp8 = in.fp8KvCheckpoint.empty() ? w8a8KvVariant(p) : kvCheckpointVariant(p);
    p.commands.serveBf16 = serveArgs(p, serving, bf16Variant(p));
    p.commands.serveFp8 = serveArgs(p, serving, fp8);
    p.commands.evalBf16 = evalArgs(p, bf16Variant(p), p.bf16OutputPath);
    p.commands.evalFp8 = evalArgs(p, fp8, p.fp8OutputPath);
    p.commands.compare = {"fp8dash", "compare", p.bf16OutputPath, p.fp8OutputPath, "--save", p.comparisonPath};
}

// The ladder: one run per layer added, then one compare of them all, the baseline first, each with its label.
Status addLadder(const Serving& serving, RunPlan& p) {
    const PlanInputs& in = p.inputs;
    const int tp = p.tensorParallel;
    const bool calculated = w8a8KvVariant(p).calculateKvScales;
    const std::string kvScales = kvScalesSourceName(calculated ? KvScalesSource::Calculated : KvScalesSource::One);
    struct Step {
        const char* key;
        const char* folder;
        std::string label;
        Variant variant;
        StorageDtype weights, kv;
        std::string scales;
    };
    std::vector<Step> steps = {
        {"bf16", "bf16", "BF16", bf16Variant(p), StorageDtype::Bf16, StorageDtype::Bf16, ""},
        {"fp8_w8a8", "fp8-w8a8", "FP8 W8A8", w8a8Variant(p), StorageDtype::Fp8, StorageDtype::Bf16, ""},
        {"fp8_w8a8_kv", "fp8-w8a8-kv",
         std::string("FP8 W8A8 + FP8 KV (") + (calculated ? "calculated scales" : "scales 1.0") + ")", w8a8KvVariant(p),
         StorageDtype::Fp8, StorageDtype::Fp8, kvScales},
    };
    if (!in.fp8KvCheckpoint.empty())
        steps.push_back({"fp8_kv_checkpoint", "fp8-kv-checkpoint", "FP8 W8A8 + FP8 KV (calibrated checkpoint)",
                         kvCheckpointVariant(p), StorageDtype::Fp8, StorageDtype::Fp8, "checkpoint"});
    p.ladderComparisonPath = path(in.outDir, "fp8-ladder.fp8cmp");
    p.ladderCompare = {"fp8dash", "compare"};
    std::vector<std::string> labels;
    for (const Step& s : steps) {
        LadderRun r;
        r.key = s.key;
        r.label = s.label;
        r.model = s.variant.model;
        r.weights = s.weights == StorageDtype::Fp8 ? "fp8" : "bf16";
        r.kvCache = s.kv == StorageDtype::Fp8 ? "fp8" : "bf16";
        r.kvScales = s.scales;
        r.outputPath = path(in.outDir, s.folder);
        r.serve = serveArgs(p, serving, s.variant);
        r.eval = evalArgs(p, s.variant, r.outputPath);
        auto cap = sizedCapacity(in, tp, p.maxModelLen, s.weights, s.kv, r.decode);
        if (!cap) return cap.error();
        r.capacity = std::move(cap).value();
        p.ladderCompare.push_back(r.outputPath);
        labels.push_back(r.label);
        p.ladder.push_back(std::move(r));
    }
    for (const auto& label : labels) p.ladderCompare.insert(p.ladderCompare.end(), {"--label", label});
    p.ladderCompare.insert(p.ladderCompare.end(), {"--save", p.ladderComparisonPath});
    return success();
}

// Where the LLM Compressor command writes the baseline model's checkpoint with calibrated KV scales.
std::string kvCheckpointFolder(const RunPlan& p) {
    return std::filesystem::path(p.inputs.bf16Model).filename().generic_string() + "-FP8-KV";
}

// "1,234 tokens/s at batch 13 (as many sequences of 32768 as fit)", or why there is none.
std::string decodeText(const CapacityResult& c, const PlanDecode& d, long long maxModelLen) {
    if (!c.decode) return "none (no datasheet bandwidth)";
    if (!d.batch) return "none (not one sequence of " + std::to_string(maxModelLen) + " fits)";
    std::string t = numfmt::grouped(static_cast<std::uint64_t>(std::llround(c.decode->selected.tokensPerS))) +
                    " tokens/s at batch " + std::to_string(*d.batch);
    if (d.batchFrom == "sequences_that_fit")
        t += " (all the sequences of " + std::to_string(maxModelLen) + " it holds)";
    return t;
}

Json decodeJson(const CapacityResult& c, const PlanDecode& d) {
    Json j;
    j["batch"] = d.batch ? Json(*d.batch) : Json(nullptr);
    j["batch_from"] = d.batchFrom;
    j["batch_fits"] = d.batch.has_value() && c.decode && c.decode->selected.batchFits;
    j["tokens_per_s"] = d.batch && c.decode ? Json(c.decode->selected.tokensPerS) : Json(nullptr);
    return j;
}

// Every variant's serving benchmark: the ladder's runs, else the two runs (run_plan_serving.cpp).
Status addServingPlan(const VllmVersion& version, RunPlan& p) {
    std::vector<ServingVariant> variants;
    if (p.inputs.ladder) {
        for (const LadderRun& r : p.ladder)
            variants.push_back({r.key, r.label, std::filesystem::path(r.outputPath).filename().generic_string(),
                                r.model, r.outputPath, r.weights == "fp8", r.kvCache == "fp8", r.kvScales, r.serve});
    } else {
        const std::string fp8Model = p.inputs.fp8KvCheckpoint.empty() ? p.inputs.fp8Model : p.inputs.fp8KvCheckpoint;
        variants.push_back(
            {"bf16", "BF16", "bf16", p.inputs.bf16Model, p.bf16OutputPath, false, false, "", p.commands.serveBf16});
        variants.push_back({"fp8", "FP8", "fp8", fp8Model, p.fp8OutputPath, true, true,
                            kvScalesSourceName(p.kvScalesSource), p.commands.serveFp8});
    }
    const std::string comparison = p.inputs.ladder ? p.ladderComparisonPath : p.comparisonPath;
    auto serving = makeServingPlan(p.inputs.serving, version, variants, p.inputs.outDir, comparison);
    if (!serving) return serving.error();
    p.serving = std::move(serving).value();
    return success();
}

}  // namespace

Result<RunPlan> makeRunPlan(const PlanInputs& in) {
    const int tp = in.tensorParallel.value_or(in.gpus);
    if (Status ok = checkPlanInputs(in, tp); !ok) return ok.error();

    RunPlan p;
    p.inputs = in;
    p.inputs.bf16Model = in.bf16Model.empty() ? in.model.hfRepo : in.bf16Model;
    p.inputs.fp8Model = in.fp8Model.empty() ? p.inputs.bf16Model : in.fp8Model;
    for (const std::string* m : {&p.inputs.bf16Model, &p.inputs.fp8Model, &p.inputs.fp8KvCheckpoint})
        if ((m->empty() && m != &p.inputs.fp8KvCheckpoint) || m->find(',') != std::string::npos)
            return Error{"model \"" + *m + "\" cannot go into lm_eval's --model_args (empty, or it has a comma)"};
    p.commandsVllmVersion = in.commandsVllmVersion ? *in.commandsVllmVersion
                            : in.vllm              ? in.vllm->version
                                                   : std::string(kDefaultVllmVersion);
    auto version = parseVllmVersion(p.commandsVllmVersion);
    if (!version) return version.error();
    const Serving serving{*version, vllmHasCalculateKvScales(*version), hasDataParallel(*version)};
    p.calculateKvScalesAvailable = serving.calculateKvScales;
    p.kvScalesSource = !in.fp8KvCheckpoint.empty()                ? KvScalesSource::Checkpoint
                       : in.kvScales && serving.calculateKvScales ? KvScalesSource::Calculated
                                                                  : KvScalesSource::One;
    p.tensorParallel = tp;
    p.replicas = in.gpus / tp;
    const WarnFn warn = [&p](std::string kind, std::string message) {
        p.warnings.push_back({std::move(kind), std::move(message)});
    };
    if (Status ok = chooseMaxModelLen(in, tp, p, warn); !ok) return ok.error();
    auto bf16 = sizedCapacity(in, tp, p.maxModelLen, StorageDtype::Bf16, StorageDtype::Bf16, p.decodeBf16);
    if (!bf16) return bf16.error();
    auto fp8 = sizedCapacity(in, tp, p.maxModelLen, StorageDtype::Fp8, StorageDtype::Fp8, p.decodeFp8);
    if (!fp8) return fp8.error();
    p.bf16 = std::move(bf16).value();
    p.fp8 = std::move(fp8).value();
    addPlanWarnings(in, tp, serving, p, warn);
    addPlanCommands(serving, p);
    if (in.ladder)
        if (Status ok = addLadder(serving, p); !ok) return ok.error();
    if (Status ok = addServingPlan(*version, p); !ok) return ok.error();
    return p;
}

Json runPlanToJson(const RunPlan& p) {
    const PlanInputs& in = p.inputs;
    Json j;
    j["model"] = in.model.name;
    j["gpu"] = in.gpu.name;
    j["gpus"] = in.gpus;
    j["tensor_parallel_size"] = p.tensorParallel;
    j["replicas"] = p.replicas;
    j["max_model_len"] = p.maxModelLen;
    j["max_model_len_from"] = p.maxModelLenChosen ? "capacity" : "context";
    j["tasks"] = in.tasks;
    j["num_fewshot"] = in.numFewshot;
    j["kv_scales"] = p.kvScalesSource != KvScalesSource::One;  // the FP8 run has KV scales
    j["kv_scales_source"] = kvScalesSourceName(p.kvScalesSource);
    j["kv_scales_advice"] = kvScalesAdvice(parseVllmVersion(p.commandsVllmVersion).value());
    if (p.kvScalesSource == KvScalesSource::One)
        j["llm_compressor_recipe"] = llmCompressorKvScalesRecipe(in.bf16Model, kvCheckpointFolder(p));
    j["commands_vllm_version"] = p.commandsVllmVersion;
    j["vllm_has_calculate_kv_scales"] = p.calculateKvScalesAvailable;
    j["gpu_util"] = in.gpuUtilization;
    j["overhead_gib"] = in.overheadGiB;
    if (in.vllm) j["vllm_version"] = in.vllm->version;  // absent: the flat overhead_gib sized the capacity
    j["bf16_model"] = in.bf16Model;
    j["fp8_model"] = in.fp8Model;
    j["fp8_kv_checkpoint"] = in.fp8KvCheckpoint.empty() ? Json(nullptr) : Json(in.fp8KvCheckpoint);
    const PlanCommands& c = p.commands;
    j["commands"] = Json{{"serve_bf16", shellLine(c.serveBf16)},
                         {"serve_fp8", shellLine(c.serveFp8)},
                         {"eval_bf16", shellLine(c.evalBf16)},
                         {"eval_fp8", shellLine(c.evalFp8)},
                         {"compare", shellLine(c.compare)}};
    j["argv"] = Json{{"serve_bf16", c.serveBf16},
                     {"serve_fp8", c.serveFp8},
                     {"eval_bf16", c.evalBf16},
                     {"eval_fp8", c.evalFp8},
                     {"compare", c.compare}};
    j["output_paths"] = Json{{"bf16", p.bf16OutputPath}, {"fp8", p.fp8OutputPath}, {"comparison", p.comparisonPath}};
    Json warnings = Json::array();
    for (const auto& w : p.warnings) warnings.push_back(Json{{"kind", w.kind}, {"message", w.message}});
    j["warnings"] = warnings;
    j["capacity"] = Json{{"bf16", capacityToJson(p.bf16)}, {"fp8", capacityToJson(p.fp8)}};
    j["decode"] = Json{{"bf16", decodeJson(p.bf16, p.decodeBf16)}, {"fp8", decodeJson(p.fp8, p.decodeFp8)}};
    if (in.ladder) {
        Json runs = Json::array();
        for (const LadderRun& r : p.ladder)
            runs.push_back(Json{{"key", r.key},
                                {"label", r.label},
                                {"model", r.model},
                                {"layers",
                                 {{"weights", r.weights},
                                  {"kv_cache", r.kvCache},
                                  {"kv_scales", r.kvScales.empty() ? Json(nullptr) : Json(r.kvScales)}}},
                                {"commands", {{"serve", shellLine(r.serve)}, {"eval", shellLine(r.eval)}}},
                                {"argv", {{"serve", r.serve}, {"eval", r.eval}}},
                                {"output_path", r.outputPath},
                                {"capacity", capacityToJson(r.capacity)},
                                {"decode", decodeJson(r.capacity, r.decode)}});
        j["ladder"] = Json{{"runs", runs},
                           {"compare", shellLine(p.ladderCompare)},
                           {"compare_argv", p.ladderCompare},
                           {"comparison_path", p.ladderComparisonPath}};
    }
    j["serving"] = servingPlanToJson(p.serving);
    return j;
}

namespace {

void capacityLine(std::string& t, const std::string& label, const CapacityResult& c, long long maxModelLen) {
    t += "#   " + label + "  weights " + formatBytes(c.weightsBytes);
    if (c.shortfallBytes > 0)
        t += ", does not fit (" + formatBytes(c.shortfallBytes) + " short)\n";
    else
        t += ", KV cache " + formatBytes(c.kvCacheBytes) + " = " + std::to_string(c.maxTokens) +
             " tokens = " + std::to_string(c.maxSequences) + " sequences of " + std::to_string(maxModelLen) + "\n";
}

// How to make a checkpoint with calibrated KV scales, as comment lines (the script does not run it).
std::string recipeComment(const RunPlan& p) {
    const std::string out = kvCheckpointFolder(p);
    return "#\n# Calibrated KV scales: make a checkpoint with them (LLM Compressor), then plan with "
           "--fp8-kv-checkpoint " +
           out + ":\n#   " + llmCompressorKvScalesRecipe(p.inputs.bf16Model, out) + "\n";
}

}  // namespace

std::string runPlanToText(const RunPlan& p) {
    const PlanInputs& in = p.inputs;
    std::string t;
    t += "# FP8 experiment plan: " + in.model.name + " on " + std::to_string(in.gpus) + " x " + in.gpu.displayName +
         " (tensor parallel " + std::to_string(p.tensorParallel) + ", " + std::to_string(p.replicas) +
         (p.replicas == 1 ? " replica" : " replicas") + ")\n";
    t += "# max-model-len " + std::to_string(p.maxModelLen) +
         (p.maxModelLenChosen ? " (the longest of 2K-32K the BF16 baseline holds; --context to choose)" : "") + "\n";
    t += "# Commands for vLLM " + p.commandsVllmVersion + " (--vllm-version): only options it takes\n";
    const std::string accounting =
        in.vllm ? "as vLLM " + in.vllm->version + " sizes it" : number(in.overheadGiB) + " GiB overhead per GPU";
    t += "# Capacity per replica (" + std::to_string(p.tensorParallel) + " x " + formatBytes(in.gpu.memoryBytes) +
         " x " + number(in.gpuUtilization) + ", " + accounting + "):\n";
    struct Row {
        std::string label;
        const CapacityResult* capacity;
        PlanDecode decode;
    };
    std::vector<Row> rows;
    if (in.ladder) {
        for (const LadderRun& r : p.ladder) rows.push_back({r.label, &r.capacity, r.decode});
    } else {
        rows = {{"BF16", &p.bf16, p.decodeBf16}, {"FP8 ", &p.fp8, p.decodeFp8}};
    }
    for (const Row& r : rows) capacityLine(t, r.label, *r.capacity, p.maxModelLen);
    if (p.bf16.decode) {
        t += "#   decode (bandwidth-bound upper bound, a batch that fits): ";
        for (std::size_t i = 0; i < rows.size(); ++i) {
            std::string label = rows[i].label;
            while (!label.empty() && label.back() == ' ') label.pop_back();
            t += (i ? ", " : "") + label + " " + decodeText(*rows[i].capacity, rows[i].decode, p.maxModelLen);
        }
        t += "\n";
    }
    if (!p.warnings.empty()) {
        t += "#\n# Warnings:\n";
        for (const auto& w : p.warnings) t += "#   [" + w.kind + "] " + w.message + "\n";
    }
    if (p.kvScalesSource == KvScalesSource::One && in.kvScales) t += recipeComment(p);
    if (in.ladder) {
        t += "\n# The ladder: one run per FP8 layer, each served (staging) and evaluated with the same tasks, few-shot "
             "and "
             "per-sample logs\n";
        for (std::size_t i = 0; i < p.ladder.size(); ++i) {
            const LadderRun& r = p.ladder[i];
            t += "\n# Run " + std::to_string(i + 1) + " of " + std::to_string(p.ladder.size()) + ": " + r.label +
                 " -> " + r.outputPath + "\n" + shellBlock(r.serve) + "\n" + shellBlock(r.eval) + "\n";
        }
        t += "\n# Compare every run in one decision (the baseline first, the labels in the same order)\n" +
             shellBlock(p.ladderCompare) + "\n";
        return t + servingPlanToText(p.serving);
    }
    const PlanCommands& c = p.commands;
    std::string scales;
    switch (p.kvScalesSource) {
        case KvScalesSource::Calculated:
            scales = " with per-layer KV scales computed at start-up (--calculate-kv-scales)";
            break;
        case KvScalesSource::Checkpoint:
            scales = " with the checkpoint's calibrated KV scales";
            break;
        case KvScalesSource::One:
            scales = in.kvScales ? " with KV scales 1.0 (vLLM " + p.commandsVllmVersion + " cannot compute them)"
                                 : std::string(" with KV scales 1.0 (--no-kv-scales)");
            break;
    }
    t += "\n# 1. Serve the BF16 baseline (staging)\n" + shellBlock(c.serveBf16) + "\n";
    t += "\n# 2. Serve FP8: weights and KV cache" + scales +
         "; FP8 activations (W8A8) follow on compute capability 8.9+\n" + shellBlock(c.serveFp8) + "\n";
    t += "\n# 3. Evaluate the BF16 baseline\n" + shellBlock(c.evalBf16) + "\n";
    t += "\n# 4. Evaluate FP8: the same tasks, few-shot and per-sample logs\n" + shellBlock(c.evalFp8) + "\n";
    t += "\n# 5. Compare and decide\n" + shellBlock(c.compare) + "\n";
    return t + servingPlanToText(p.serving);
}

}  // namespace fp8dash
