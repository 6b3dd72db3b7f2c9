// The plan of the experiment: the seed workflow's vllm serve / lm_eval commands for both variants, and fp8dash compare.
#include "fp8dash/core/run_plan.h"

#include <cstdio>
#include <filesystem>
#include <functional>

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

Result<CapacityResult> capacityAt(const PlanInputs& in, int tp, long long context, StorageDtype dtype) {
    CapacityInputs c;
    c.model = in.model;
    c.gpu = in.gpu;
    c.gpus = tp;
    c.weights = dtype;
    c.kv = dtype;
    c.gpuUtilization = in.gpuUtilization;
    c.contextTokens = context;
    c.overheadGiB = in.overheadGiB;
    c.vllm = in.vllm;  // vLLM's accounting, as `capacity` sizes it; nullopt: the flat overhead
    return planCapacity(c);
}

std::string path(const std::string& dir, const char* leaf) {
    return (std::filesystem::path(dir) / leaf).generic_string();
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
            auto cap = capacityAt(in, tp, c, variant);
            if (!cap) return cap.error();
            if (cap->fits) {
                p.maxModelLen = c;
                return success();
            }
        }
    }
    return success();
}

// The warnings, the DESIGN.md risk flags first.
void addPlanWarnings(const PlanInputs& in, int tp, RunPlan& p, const WarnFn& warn) {
    const ModelArchitecture& model = in.model;
    const std::uint64_t params = model.parameterCount();
    if (static_cast<double>(params) < kSmallModelParameters)
        warn("small_model", model.name + " has " + billions(params) +
                                " parameters: under ~7B, FP8 gains little and its conversion overhead can outweigh "
                                "the throughput gain");
    if (!in.kvScales && p.maxModelLen > kLongContextTokens)
        warn("long_context_without_kv_scales",
             "max-model-len " + std::to_string(p.maxModelLen) +
                 " is over 32K with an FP8 KV cache and no scales (--no-kv-scales): the error of scale 1.0 "
                 "accumulates with the context; keep --calculate-kv-scales or use a checkpoint with KV scales");
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
    if (!in.gpu.fp8TensorCores)
        warn("no_fp8_tensor_cores", in.gpu.displayName +
                                        " has no FP8 tensor cores (compute capability below 8.9): vLLM falls back to "
                                        "weight-only FP8 and the throughput gain is small");
}

// The commands of both variants (DESIGN.md "The three FP8 layers (vLLM)"; the seed article's steps 1-3).
void addPlanCommands(const PlanInputs& in, RunPlan& p) {
    const int tp = p.tensorParallel;
    const std::string tpText = std::to_string(tp), len = std::to_string(p.maxModelLen),
                      util = number(in.gpuUtilization), dp = std::to_string(p.replicas);
    auto serve = [&](const std::string& repo, bool fp8Variant) {
        std::vector<std::string> a = {"vllm", "serve", repo, "--dtype", "bfloat16"};
        if (fp8Variant) {
            a.insert(a.end(), {"--quantization", "fp8", "--kv-cache-dtype", "fp8"});
            if (in.kvScales) a.push_back("--calculate-kv-scales");
        }
        a.insert(a.end(), {"--tensor-parallel-size", tpText});
        if (p.replicas > 1) a.insert(a.end(), {"--data-parallel-size", dp});
        a.insert(a.end(), {"--gpu-memory-utilization", util, "--max-model-len", len});
        return a;
    };
    std::string tasks;
    for (const auto& t : in.tasks) tasks += (tasks.empty() ? "" : ",") + t;
    p.bf16OutputPath = path(in.outDir, "bf16");
    p.fp8OutputPath = path(in.outDir, "fp8");
    p.comparisonPath = path(in.outDir, "fp8-vs-bf16.fp8cmp");
    auto eval = [&](const std::string& repo, bool fp8Variant, const std::string& out) {
        std::string args = "pretrained=" + repo + ",dtype=bfloat16";
        if (fp8Variant) {
            args += ",quantization=fp8,kv_cache_dtype=fp8";
            if (in.kvScales) args += ",calculate_kv_scales=true";
        }
        args += ",tensor_parallel_size=" + tpText;
        if (p.replicas > 1) args += ",data_parallel_size=" + dp;
        args += ",gpu_memory_utilization=" + util + ",max_model_len=" + len;
        return std::vector<std::string>{"lm_eval",
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
    };
    p.commands.serveBf16 = serve(p.inputs.bf16Model, false);
    p.commands.serveFp8 = serve(p.inputs.fp8Model, true);
    p.commands.evalBf16 = eval(p.inputs.bf16Model, false, p.bf16OutputPath);
    p.commands.evalFp8 = eval(p.inputs.fp8Model, true, p.fp8OutputPath);
    p.commands.compare = {"fp8dash", "compare", p.bf16OutputPath, p.fp8OutputPath, "--save", p.comparisonPath};
}

}  // namespace

Result<RunPlan> makeRunPlan(const PlanInputs& in) {
    const int tp = in.tensorParallel.value_or(in.gpus);
    if (Status ok = checkPlanInputs(in, tp); !ok) return ok.error();

    RunPlan p;
    p.inputs = in;
    p.inputs.bf16Model = in.bf16Model.empty() ? in.model.hfRepo : in.bf16Model;
    p.inputs.fp8Model = in.fp8Model.empty() ? p.inputs.bf16Model : in.fp8Model;
    for (const std::string* m : {&p.inputs.bf16Model, &p.inputs.fp8Model})
        if (m->empty() || m->find(',') != std::string::npos)
            return Error{"model \"" + *m + "\" cannot go into lm_eval's --model_args (empty, or it has a comma)"};
    p.tensorParallel = tp;
    p.replicas = in.gpus / tp;
    const WarnFn warn = [&p](std::string kind, std::string message) {
        p.warnings.push_back({std::move(kind), std::move(message)});
    };
    if (Status ok = chooseMaxModelLen(in, tp, p, warn); !ok) return ok.error();
    auto bf16 = capacityAt(in, tp, p.maxModelLen, StorageDtype::Bf16);
    if (!bf16) return bf16.error();
    auto fp8 = capacityAt(in, tp, p.maxModelLen, StorageDtype::Fp8);
    if (!fp8) return fp8.error();
    p.bf16 = std::move(bf16).value();
    p.fp8 = std::move(fp8).value();
    addPlanWarnings(in, tp, p, warn);
    addPlanCommands(in, p);
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
    j["kv_scales"] = in.kvScales;
    j["gpu_util"] = in.gpuUtilization;
    j["overhead_gib"] = in.overheadGiB;
    if (in.vllm) j["vllm_version"] = in.vllm->version;  // absent: the flat overhead_gib sized the capacity
    j["bf16_model"] = in.bf16Model;
    j["fp8_model"] = in.fp8Model;
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
    return j;
}

std::string runPlanToText(const RunPlan& p) {
    const PlanInputs& in = p.inputs;
    std::string t;
    t += "# FP8 experiment plan: " + in.model.name + " on " + std::to_string(in.gpus) + " x " + in.gpu.displayName +
         " (tensor parallel " + std::to_string(p.tensorParallel) + ", " + std::to_string(p.replicas) +
         (p.replicas == 1 ? " replica" : " replicas") + ")\n";
    t += "# max-model-len " + std::to_string(p.maxModelLen) +
         (p.maxModelLenChosen ? " (the longest of 2K-32K the BF16 baseline holds; --context to choose)" : "") + "\n";
    const std::string accounting =
        in.vllm ? "as vLLM " + in.vllm->version + " sizes it" : number(in.overheadGiB) + " GiB overhead per GPU";
    t += "# Capacity per replica (" + std::to_string(p.tensorParallel) + " x " + formatBytes(in.gpu.memoryBytes) +
         " x " + number(in.gpuUtilization) + ", " + accounting + "):\n";
    for (const CapacityResult* c : {&p.bf16, &p.fp8}) {
        t += std::string("#   ") + (c == &p.bf16 ? "BF16" : "FP8 ") + "  weights " + formatBytes(c->weightsBytes);
        if (c->shortfallBytes > 0)
            t += ", does not fit (" + formatBytes(c->shortfallBytes) + " short)\n";
        else
            t += ", KV cache " + formatBytes(c->kvCacheBytes) + " = " + std::to_string(c->maxTokens) +
                 " tokens = " + std::to_string(c->maxSequences) + " sequences of " + std::to_string(p.maxModelLen) +
                 "\n";
    }
    if (p.bf16.decode)
        t += "#   decode (bandwidth-bound upper bound, batch " + std::to_string(p.bf16.decode->batch) + "): BF16 " +
             std::to_string(std::llround(p.bf16.decode->bf16.tokensPerS)) + " tokens/s, FP8 " +
             std::to_string(std::llround(p.bf16.decode->fp8.tokensPerS)) + " tokens/s\n";
    if (!p.warnings.empty()) {
        t += "#\n# Warnings:\n";
        for (const auto& w : p.warnings) t += "#   [" + w.kind + "] " + w.message + "\n";
    }
    const PlanCommands& c = p.commands;
    t += "\n# 1. Serve the BF16 baseline (staging)\n" + shellBlock(c.serveBf16) + "\n";
    t += std::string("\n# 2. Serve FP8: weights and KV cache") +
         (in.kvScales ? " with per-layer scales" : " (no scales)") +
         "; FP8 activations (W8A8) follow on compute capability 8.9+\n" + shellBlock(c.serveFp8) + "\n";
    t += "\n# 3. Evaluate the BF16 baseline\n" + shellBlock(c.evalBf16) + "\n";
    t += "\n# 4. Evaluate FP8: the same tasks, few-shot and per-sample logs\n" + shellBlock(c.evalFp8) + "\n";
    t += "\n# 5. Compare and decide\n" + shellBlock(c.compare) + "\n";
    return t;
}

}  // namespace fp8dash
