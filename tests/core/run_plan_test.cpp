// The plan: the seed workflow's commands with the right flags for both variants, max-model-len from the capacity
// figures (computed here by hand), the warnings, and lm_eval arguments that fp8dash's own reader then recognises;
// the KV scales as the chosen vLLM release has them (no --calculate-kv-scales from 0.28), the ladder of runs with
// its one compare, and a decode estimate at a batch that fits.
#include "fp8dash/core/run_plan.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "fp8dash/core/fp8_config.h"
#include "fp8dash/core/kv_scales_advice.h"

namespace fp8dash {
namespace {

// The seed workflow's commands are those of a vLLM that still has --calculate-kv-scales (0.27.1, the last release
// with it); the current release's commands are tested on their own below (CurrentVllm...).
PlanInputs planInputs(const char* model, const char* gpu, int gpus) {
    PlanInputs in;
    in.model = *findModelPreset(model);
    in.gpu = findGpuPreset(gpu).value();
    in.gpus = gpus;
    in.vllm.reset();  // the figures below are computed by hand with the flat overhead (vLLM's: VllmAccountingByDefault)
    in.commandsVllmVersion = "0.27.1";
    return in;
}

RunPlan make(const PlanInputs& in) {
    auto p = makeRunPlan(in);
    if (!p) throw std::runtime_error(p.error().message);
    return std::move(p).value();
}

bool has(const std::vector<std::string>& argv, const std::string& word) {
    return std::find(argv.begin(), argv.end(), word) != argv.end();
}

// The value after an option.
std::string after(const std::vector<std::string>& argv, const std::string& option) {
    auto it = std::find(argv.begin(), argv.end(), option);
    return it != argv.end() && it + 1 != argv.end() ? *(it + 1) : std::string("<absent>");
}

std::vector<std::string> kinds(const RunPlan& p) {
    std::vector<std::string> k;
    for (const auto& w : p.warnings) k.push_back(w.kind);
    return k;
}

TEST(RunPlan, SeedWorkflowCommandsForBothVariants) {
    PlanInputs in = planInputs("llama-3.1-70b", "h100-sxm", 4);
    in.contextTokens = 16384;
    const RunPlan p = make(in);
    EXPECT_EQ(p.tensorParallel, 4);
    EXPECT_EQ(p.replicas, 1);
    EXPECT_EQ(p.maxModelLen, 16384);
    EXPECT_FALSE(p.maxModelLenChosen);
    EXPECT_TRUE(p.warnings.empty()) << p.warnings.front().message;

    const auto& c = p.commands;
    EXPECT_EQ(shellLine(c.serveBf16),
              "vllm serve meta-llama/Llama-3.1-70B --dtype bfloat16 --tensor-parallel-size 4 "
              "--gpu-memory-utilization 0.92 --max-model-len 16384");
    // The seed article's "full production configuration", on the same checkpoint.
    EXPECT_EQ(shellLine(c.serveFp8),
              "vllm serve meta-llama/Llama-3.1-70B --dtype bfloat16 --quantization fp8 --kv-cache-dtype fp8 "
              "--calculate-kv-scales --tensor-parallel-size 4 --gpu-memory-utilization 0.92 --max-model-len 16384");
    EXPECT_FALSE(has(c.serveBf16, "--quantization"));
    EXPECT_FALSE(has(c.serveBf16, "--kv-cache-dtype"));

    EXPECT_EQ(after(c.evalBf16, "--model"), "vllm");
    EXPECT_EQ(after(c.evalBf16, "--model_args"),
              "pretrained=meta-llama/Llama-3.1-70B,dtype=bfloat16,tensor_parallel_size=4,gpu_memory_utilization=0.92,"
              "max_model_len=16384");
    EXPECT_EQ(after(c.evalFp8, "--model_args"),
              "pretrained=meta-llama/Llama-3.1-70B,dtype=bfloat16,quantization=fp8,kv_cache_dtype=fp8,"
              "calculate_kv_scales=true,tensor_parallel_size=4,gpu_memory_utilization=0.92,max_model_len=16384");
    for (const auto* eval : {&c.evalBf16, &c.evalFp8}) {
        EXPECT_EQ(after(*eval, "--tasks"), "mmlu,hellaswag,gsm8k");
        EXPECT_EQ(after(*eval, "--num_fewshot"), "5");
        EXPECT_TRUE(has(*eval, "--log_samples"));
        EXPECT_EQ(eval->front(), "lm_eval");
    }
    EXPECT_EQ(after(c.evalBf16, "--output_path"), "results/bf16");
    EXPECT_EQ(after(c.evalFp8, "--output_path"), "results/fp8");
    // compare reads exactly what the two evaluations write.
    EXPECT_EQ(c.compare, (std::vector<std::string>{"fp8dash", "compare", "results/bf16", "results/fp8", "--save",
                                                   "results/fp8-vs-bf16.fp8cmp"}));
}

// The lm_eval lines record the FP8 layers in config.model_args, where fp8dash compare finds them.
TEST(RunPlan, ModelArgsReadBackAsTheirFp8Layers) {
    const RunPlan p = make(planInputs("llama-3.1-8b", "h100-sxm", 1));
    auto readBack = [](const std::vector<std::string>& eval) {
        const Json doc = {{"results", {{"gsm8k", {{"exact_match,strict-match", 0.5}}}}},
                          {"config", {{"model", "vllm"}, {"model_args", after(eval, "--model_args")}}}};
        auto run = parseLmEvalJson(doc, "plan");
        if (!run) throw std::runtime_error(run.error().message);
        return detectFp8Config(*run);
    };
    const Fp8Config bf16 = readBack(p.commands.evalBf16), fp8 = readBack(p.commands.evalFp8);
    EXPECT_FALSE(bf16.anyFp8());
    EXPECT_EQ(bf16.dtype, "bfloat16");
    EXPECT_TRUE(fp8.weights);
    EXPECT_TRUE(fp8.kvCache);
    EXPECT_TRUE(fp8.kvScales);
    EXPECT_EQ(fp8.model, "meta-llama/Llama-3.1-8B");
}

TEST(RunPlan, MaxModelLenFromTheCapacity) {
    // An H100 reports 79.19 GiB = 85,029,615,043 bytes. 8B on one in BF16: x 0.92 = 78,227,245,840 - 16,060,522,496 -
    // 2 GiB = 60,019,239,696 bytes of KV cache / 131,072 = 457,910 tokens: 32K (the ceiling) fits.
    RunPlan p = make(planInputs("llama-3.1-8b", "h100-sxm", 1));
    EXPECT_TRUE(p.maxModelLenChosen);
    EXPECT_EQ(p.maxModelLen, 32768);
    EXPECT_EQ(p.bf16.maxTokens, 457910u);
    EXPECT_EQ(p.bf16.maxSequences, 13u);  // 457,910 // 32,768
    EXPECT_EQ(after(p.commands.serveFp8, "--max-model-len"), "32768");

    // 70B BF16 on 2 x H100: 2 x 85,029,615,043 x 0.92 = 156,454,491,679 - 141,107,412,992 - 2 x 2 GiB =
    // 11,052,111,391 bytes / 327,680 = 33,728 tokens: 32768 fits once. FP8 (1 byte KV, 72,656,371,712 of weights):
    // 79,503,152,671 / 163,840 = 485,248 tokens = 14 sequences of 32768.
    p = make(planInputs("llama-3.1-70b", "h100-sxm", 2));
    EXPECT_EQ(p.maxModelLen, 32768);
    EXPECT_EQ(p.bf16.maxTokens, 33728u);
    EXPECT_EQ(p.bf16.maxSequences, 1u);
    EXPECT_EQ(p.fp8.maxTokens, 485248u);
    EXPECT_EQ(p.fp8.maxSequences, 14u);
    EXPECT_TRUE(p.warnings.empty()) << p.warnings.front().message;

    // Mistral-7B allows 32768 positions; the candidates stop there.
    EXPECT_EQ(make(planInputs("mistral-7b", "h200", 1)).maxModelLen, 32768);
}

TEST(RunPlan, ContextThatDoesNotFitWarns) {
    PlanInputs in = planInputs("llama-3.1-70b", "h100-sxm", 2);
    in.contextTokens = 65536;  // the baseline holds 33,728 tokens (above)
    RunPlan p = make(in);
    ASSERT_EQ(kinds(p), std::vector<std::string>{"context_does_not_fit"});
    EXPECT_NE(p.warnings[0].message.find("the BF16 baseline"), std::string::npos) << p.warnings[0].message;
    EXPECT_NE(p.warnings[0].message.find("33728 tokens"), std::string::npos) << p.warnings[0].message;

    // 70B on one H100: BF16 weights do not fit (78,227,245,840 - 141,107,412,992 < 0); FP8 ones do, with
    // 78,227,245,840 - 72,656,371,712 - 2 GiB = 3,423,390,480 bytes of KV cache.
    p = make(planInputs("llama-3.1-70b", "h100-sxm", 1));
    EXPECT_EQ(kinds(p), (std::vector<std::string>{"weights_do_not_fit"}));
    EXPECT_NE(p.warnings[0].message.find("BF16"), std::string::npos);
    EXPECT_EQ(p.fp8.kvCacheBytes, 3423390480u);
    // Without a BF16 baseline the FP8 variant picks: 3,423,390,480 / 163,840 = 20,894 tokens hold 16K once.
    EXPECT_EQ(p.maxModelLen, 16384);
    EXPECT_FALSE(p.commands.serveBf16.empty());  // the commands are still printed
}

TEST(RunPlan, LongContextWithoutKvScales) {
    PlanInputs in = planInputs("llama-3.1-8b", "h200", 1);
    in.contextTokens = 65536;
    RunPlan p = make(in);
    EXPECT_TRUE(p.warnings.empty());  // with scales, 64K is no warning
    EXPECT_TRUE(has(p.commands.serveFp8, "--calculate-kv-scales"));

    in.kvScales = false;
    p = make(in);
    EXPECT_EQ(kinds(p), std::vector<std::string>{"long_context_without_kv_scales"});
    EXPECT_FALSE(has(p.commands.serveFp8, "--calculate-kv-scales"));
    EXPECT_EQ(after(p.commands.evalFp8, "--model_args").find("calculate_kv_scales"), std::string::npos);
    EXPECT_TRUE(has(p.commands.serveFp8, "--kv-cache-dtype"));

    in.contextTokens = 32768;  // "over 32K": 32K itself is not
    EXPECT_TRUE(make(in).warnings.empty());
}

TEST(RunPlan, SmallModelWarns) {
    // A Llama-3.2-1B-shaped model: 128256 x 2048 (tied) = 262,668,288; layer 2048 x 2048 x 2 + 2048 x 512 x 2 +
    // 3 x 2048 x 8192 + 4096 = 60,821,504, x 16 = 973,144,064; + 2,048 -> 1,235,814,400 parameters.
    PlanInputs in = planInputs("llama-3.1-8b", "rtx-4090", 1);
    in.model.name = "small";
    in.model.layers = 16;
    in.model.hiddenSize = 2048;
    in.model.headDim = 64;
    in.model.intermediateSize = 8192;
    in.model.tieWordEmbeddings = true;
    EXPECT_EQ(in.model.parameterCount(), 1235814400ull);
    const RunPlan p = make(in);
    ASSERT_EQ(kinds(p), std::vector<std::string>{"small_model"});
    EXPECT_NE(p.warnings[0].message.find("1.24B"), std::string::npos) << p.warnings[0].message;
    // The 7B presets are not small.
    EXPECT_TRUE(make(planInputs("qwen2.5-7b", "h100-sxm", 1)).warnings.empty());
    EXPECT_TRUE(make(planInputs("mistral-7b", "h100-sxm", 1)).warnings.empty());
}

TEST(RunPlan, ReplicasAndTensorParallelChecks) {
    PlanInputs in = planInputs("llama-3.1-8b", "h100-sxm", 8);
    in.tensorParallel = 4;
    RunPlan p = make(in);
    EXPECT_EQ(p.replicas, 2);
    EXPECT_EQ(after(p.commands.serveBf16, "--tensor-parallel-size"), "4");
    EXPECT_EQ(after(p.commands.serveBf16, "--data-parallel-size"), "2");
    EXPECT_NE(after(p.commands.evalFp8, "--model_args").find("tensor_parallel_size=4,data_parallel_size=2"),
              std::string::npos);

    in.tensorParallel = 3;
    auto bad = makeRunPlan(in);
    ASSERT_FALSE(bad.ok());
    EXPECT_NE(bad.error().message.find("--gpus 8 is not a multiple of --tp 3"), std::string::npos);

    // Qwen2.5-7B: 28 heads do not split over 8 GPUs, and its 4 KV heads get copied.
    p = make(planInputs("qwen2.5-7b", "h100-sxm", 8));
    EXPECT_EQ(kinds(p), (std::vector<std::string>{"heads_not_divisible", "kv_heads_replicated"}));
    EXPECT_EQ(p.bf16.kvReplication, 2);
}

TEST(RunPlan, ContextBeyondTheModelIsClamped) {
    PlanInputs in = planInputs("mistral-7b", "h200", 1);
    in.contextTokens = 65536;
    const RunPlan p = make(in);
    EXPECT_EQ(p.maxModelLen, 32768);
    EXPECT_EQ(kinds(p), std::vector<std::string>{"context_over_model_limit"});
}

TEST(RunPlan, OptionsReachTheCommands) {
    PlanInputs in = planInputs("qwen2.5-72b", "h200", 2);
    in.tasks = {"gsm8k", "arc_challenge"};
    in.numFewshot = 8;
    in.outDir = "out dir/run 1";
    in.gpuUtilization = 0.9;
    in.bf16Model = "Qwen/Qwen2.5-72B-Instruct";
    in.fp8Model = "neuralmagic/Qwen2.5-72B-Instruct-FP8";
    const RunPlan p = make(in);
    EXPECT_EQ(p.commands.serveBf16[2], "Qwen/Qwen2.5-72B-Instruct");
    EXPECT_EQ(p.commands.serveFp8[2], "neuralmagic/Qwen2.5-72B-Instruct-FP8");
    EXPECT_EQ(after(p.commands.evalBf16, "--tasks"), "gsm8k,arc_challenge");
    EXPECT_EQ(after(p.commands.evalFp8, "--num_fewshot"), "8");
    EXPECT_EQ(after(p.commands.serveFp8, "--gpu-memory-utilization"), "0.9");
    EXPECT_EQ(after(p.commands.evalFp8, "--output_path"), "out dir/run 1/fp8");
    // Quoted for the shell where a path has a space.
    EXPECT_NE(shellLine(p.commands.compare).find("'out dir/run 1/bf16' 'out dir/run 1/fp8'"), std::string::npos)
        << shellLine(p.commands.compare);

    in.tasks = {};
    EXPECT_FALSE(makeRunPlan(in).ok());
    in.tasks = {"mmlu,gsm8k"};
    EXPECT_FALSE(makeRunPlan(in).ok());
    in.tasks = {"mmlu"};
    in.bf16Model = "a,b";
    EXPECT_FALSE(makeRunPlan(in).ok());
}

TEST(RunPlan, ShellQuoting) {
    EXPECT_EQ(shellQuote("results/bf16"), "results/bf16");
    EXPECT_EQ(shellQuote("pretrained=x,dtype=bfloat16"), "pretrained=x,dtype=bfloat16");
    EXPECT_EQ(shellQuote("a b"), "'a b'");
    EXPECT_EQ(shellQuote("it's"), "'it'\\''s'");
    EXPECT_EQ(shellQuote(""), "''");
    EXPECT_EQ(shellQuote("$HOME"), "'$HOME'");
    EXPECT_EQ(shellBlock({"vllm", "serve", "m", "--dtype", "bfloat16", "--calculate-kv-scales"}),
              "vllm serve m \\\n    --dtype bfloat16 \\\n    --calculate-kv-scales");
}

// By default the plan sizes its capacity as `fp8dash capacity` does: vLLM's accounting of the default release. 8B in
// BF16 on one H100 at 8,192 tokens: (85,029,615,043 x 0.92 - 16,060,522,496 - 2,037,121,024 activation peak -
// 268,435,456 non-torch) / (16 x 131,072) = 28,544 whole blocks = 456,704 tokens.
TEST(RunPlan, VllmAccountingByDefault) {
    PlanInputs in;
    in.model = *findModelPreset("llama-3.1-8b");
    in.gpu = findGpuPreset("h100-sxm").value();
    in.contextTokens = 8192;
    ASSERT_TRUE(in.vllm.has_value());
    EXPECT_EQ(in.vllm->version, kDefaultVllmVersion);
    const RunPlan p = make(in);
    EXPECT_EQ(p.bf16.maxTokens, 456704u);
    ASSERT_TRUE(p.bf16.vllm.has_value());
    EXPECT_EQ(runPlanToJson(p)["vllm_version"], kDefaultVllmVersion);
    EXPECT_NE(runPlanToText(p).find(std::string("as vLLM ") + kDefaultVllmVersion + " sizes it"), std::string::npos);
    // Without it: the flat 2 GiB, (78,227,245,840 - 16,060,522,496 - 2 GiB) / 131,072 = 457,910 tokens.
    in.vllm.reset();
    EXPECT_EQ(make(in).bf16.maxTokens, 457910u);
    EXPECT_FALSE(runPlanToJson(make(in)).contains("vllm_version"));
}

TEST(RunPlan, JsonShape) {
    const RunPlan p = make(planInputs("llama-3.1-8b", "l40s", 1));
    const Json j = runPlanToJson(p);
    for (const char* key : {"serve_bf16", "serve_fp8", "eval_bf16", "eval_fp8", "compare"}) {
        ASSERT_TRUE(j["commands"].contains(key)) << key;
        EXPECT_TRUE(j["commands"][key].is_string());
        EXPECT_TRUE(j["argv"][key].is_array());
    }
    EXPECT_EQ(j["commands"]["compare"], "fp8dash compare results/bf16 results/fp8 --save results/fp8-vs-bf16.fp8cmp");
    EXPECT_TRUE(j["warnings"].is_array());
    EXPECT_EQ(j["capacity"]["bf16"]["weights"], "bf16");
    EXPECT_EQ(j["capacity"]["fp8"]["kv"], "fp8");
    EXPECT_EQ(j["capacity"]["fp8"]["context"], j["max_model_len"]);
    EXPECT_EQ(j["max_model_len_from"], "capacity");
    // The text form is a shell script: every non-comment line is part of a command.
    const std::string text = runPlanToText(p);
    EXPECT_NE(text.find("vllm serve meta-llama/Llama-3.1-8B \\\n    --dtype bfloat16"), std::string::npos) << text;
    EXPECT_NE(text.find("fp8dash compare results/bf16 results/fp8"), std::string::npos);
}

// Every word of every command the plan prints: the two variants', the ladder's and the compares.
std::vector<std::string> allWords(const RunPlan& p) {
    std::vector<std::string> words;
    for (const auto* argv : {&p.commands.serveBf16, &p.commands.serveFp8, &p.commands.evalBf16, &p.commands.evalFp8,
                             &p.commands.compare, &p.ladderCompare})
        words.insert(words.end(), argv->begin(), argv->end());
    for (const LadderRun& r : p.ladder) {
        words.insert(words.end(), r.serve.begin(), r.serve.end());
        words.insert(words.end(), r.eval.begin(), r.eval.end());
    }
    return words;
}

// The keys of lm_eval's --model_args (which its vllm model hands to vLLM's LLM(...)) in every evaluation.
std::set<std::string> modelArgKeys(const RunPlan& p) {
    std::vector<const std::vector<std::string>*> evals = {&p.commands.evalBf16, &p.commands.evalFp8};
    for (const LadderRun& r : p.ladder) evals.push_back(&r.eval);
    std::set<std::string> keys;
    for (const auto* eval : evals) {
        const std::string args = after(*eval, "--model_args");
        std::size_t at = 0;
        while (at < args.size()) {
            const std::size_t comma = std::min(args.find(',', at), args.size());
            const std::string pair = args.substr(at, comma - at);
            keys.insert(pair.substr(0, pair.find('=')));
            at = comma + 1;
        }
    }
    return keys;
}

// The newest release fp8dash knows (0.28) removed --calculate-kv-scales: the plan neither serves nor evaluates with it;
// the FP8 KV cache is named for what it then is, scales 1.0, with its risk and how to make calibrated scales.
TEST(RunPlan, CurrentVllmPrintsNoCalculateKvScales) {
    PlanInputs in = planInputs("llama-3.1-8b", "h100-sxm", 1);
    in.commandsVllmVersion.reset();  // the flat overhead and no version: the commands are for kDefaultVllmVersion
    in.contextTokens = 16384;
    const RunPlan p = make(in);
    EXPECT_EQ(p.commandsVllmVersion, "0.28");
    EXPECT_FALSE(p.calculateKvScalesAvailable);
    EXPECT_EQ(p.kvScalesSource, KvScalesSource::One);
    EXPECT_EQ(shellLine(p.commands.serveFp8),
              "vllm serve meta-llama/Llama-3.1-8B --dtype bfloat16 --quantization fp8 --kv-cache-dtype fp8 "
              "--tensor-parallel-size 1 --gpu-memory-utilization 0.92 --max-model-len 16384");
    EXPECT_EQ(after(p.commands.evalFp8, "--model_args"),
              "pretrained=meta-llama/Llama-3.1-8B,dtype=bfloat16,quantization=fp8,kv_cache_dtype=fp8,"
              "tensor_parallel_size=1,gpu_memory_utilization=0.92,max_model_len=16384");
    ASSERT_EQ(kinds(p), std::vector<std::string>{"kv_scales_1_0"});
    const std::string& m = p.warnings[0].message;
    for (const char* part : {"vLLM 0.28 has no --calculate-kv-scales", "PR #49389", "scales 1.0", "--fp8-kv-checkpoint",
                             "kv_cache_scheme", "accumulates with the context"})
        EXPECT_NE(m.find(part), std::string::npos) << part << " in: " << m;

    const Json j = runPlanToJson(p);
    EXPECT_EQ(j["kv_scales"], false);  // the FP8 run has no KV scales
    EXPECT_EQ(j["kv_scales_source"], "1.0");
    EXPECT_EQ(j["commands_vllm_version"], "0.28");
    EXPECT_EQ(j["vllm_has_calculate_kv_scales"], false);
    EXPECT_TRUE(j["fp8_kv_checkpoint"].is_null());
    const std::string recipe = j["llm_compressor_recipe"];
    for (const char* part : {"python3 -c '", "from llmcompressor import oneshot", "QuantizationModifier(",
                             "kv_cache_scheme={\"num_bits\": 8, \"type\": \"float\"",
                             "model=\"meta-llama/Llama-3.1-8B\"", "output_dir=\"Llama-3.1-8B-FP8-KV\")'"})
        EXPECT_NE(recipe.find(part), std::string::npos) << part << " in: " << recipe;
    EXPECT_EQ(recipe.find('\n'), std::string::npos);  // one line
    const std::string text = runPlanToText(p);
    EXPECT_EQ(text.find("--calculate-kv-scales \\"), std::string::npos) << text;
    EXPECT_NE(text.find("# 2. Serve FP8: weights and KV cache with KV scales 1.0 (vLLM 0.28 cannot compute them)"),
              std::string::npos)
        << text;
    EXPECT_NE(text.find("#   " + recipe + "\n"), std::string::npos) << text;  // a comment: the script does not run it

    // --no-kv-scales asks for scales 1.0: no advice to make scales, the long-context risk stays.
    in.kvScales = false;
    in.contextTokens = 65536;
    EXPECT_EQ(kinds(make(in)), std::vector<std::string>{"long_context_without_kv_scales"});
    in.kvScales = true;
    const RunPlan longer = make(in);
    EXPECT_EQ(kinds(longer), (std::vector<std::string>{"kv_scales_1_0", "long_context_without_kv_scales"}));
    EXPECT_NE(longer.warnings[1].message.find("vLLM 0.28 cannot compute them"), std::string::npos);
    EXPECT_EQ(longer.warnings[1].message.find("keep --calculate-kv-scales"), std::string::npos);
    // On a release with the option the same warning advises it.
    in.kvScales = false;
    in.commandsVllmVersion = "0.26";
    EXPECT_NE(make(in).warnings[0].message.find("--calculate-kv-scales computes them at start-up"), std::string::npos);
}

// From 0.28 KV scales come from a checkpoint: --fp8-kv-checkpoint makes it the FP8 variant, loaded as it is.
TEST(RunPlan, KvCheckpointGivesTheFp8VariantItsScales) {
    PlanInputs in = planInputs("llama-3.1-8b", "h200", 1);
    in.commandsVllmVersion = "0.28";
    in.contextTokens = 65536;
    in.fp8KvCheckpoint = "RedHatAI/Llama-3.1-8B-Instruct-FP8-KV";
    const RunPlan p = make(in);
    EXPECT_EQ(p.kvScalesSource, KvScalesSource::Checkpoint);
    EXPECT_TRUE(p.warnings.empty()) << p.warnings.front().message;  // scales at 64K: no risk flag
    // A compressed-tensors checkpoint says its quantization in its config: no --quantization beside it.
    EXPECT_EQ(shellLine(p.commands.serveFp8),
              "vllm serve RedHatAI/Llama-3.1-8B-Instruct-FP8-KV --dtype bfloat16 --kv-cache-dtype fp8 "
              "--tensor-parallel-size 1 --gpu-memory-utilization 0.92 --max-model-len 65536");
    EXPECT_EQ(after(p.commands.evalFp8, "--model_args"),
              "pretrained=RedHatAI/Llama-3.1-8B-Instruct-FP8-KV,dtype=bfloat16,kv_cache_dtype=fp8,"
              "tensor_parallel_size=1,gpu_memory_utilization=0.92,max_model_len=65536");
    EXPECT_EQ(p.commands.serveBf16[2], "meta-llama/Llama-3.1-8B");
    const Json j = runPlanToJson(p);
    EXPECT_EQ(j["kv_scales"], true);
    EXPECT_EQ(j["kv_scales_source"], "checkpoint");
    EXPECT_EQ(j["fp8_kv_checkpoint"], "RedHatAI/Llama-3.1-8B-Instruct-FP8-KV");
    EXPECT_FALSE(j.contains("llm_compressor_recipe"));
    EXPECT_NE(runPlanToText(p).find("with the checkpoint's calibrated KV scales"), std::string::npos);
    // On a release that still calculates them, the checkpoint's own scales win: no --calculate-kv-scales either.
    in.commandsVllmVersion = "0.26";
    EXPECT_FALSE(has(make(in).commands.serveFp8, "--calculate-kv-scales"));

    in.kvScales = false;  // --no-kv-scales contradicts a checkpoint with scales
    auto bad = makeRunPlan(in);
    ASSERT_FALSE(bad.ok());
    EXPECT_NE(bad.error().message.find("--no-kv-scales and --fp8-kv-checkpoint"), std::string::npos);
    in.kvScales = true;
    in.fp8Model = "neuralmagic/Meta-Llama-3.1-8B-FP8";  // two FP8 checkpoints for one variant
    bad = makeRunPlan(in);
    ASSERT_FALSE(bad.ok());
    EXPECT_NE(bad.error().message.find("--fp8-model and --fp8-kv-checkpoint"), std::string::npos);
    in.ladder = true;  // the ladder has a run for each
    EXPECT_TRUE(makeRunPlan(in).ok());
    in.fp8KvCheckpoint = "a,b";
    EXPECT_FALSE(makeRunPlan(in).ok());
}

// The releases fp8dash knows (the accounting's fixture logs: 0.6.4 V0, 0.10.1.1, 0.19.0, 0.26.0, 0.28.0; the last
// release with the option, 0.27.1; one after, 0.29; and the default), each with the options fp8dash prints that it
// refuses, written down here from vLLM's history: --calculate-kv-scales (LLM(calculate_kv_scales=)) exists from 0.7
// (PR #11906) to 0.27.x (removed by PR #49389, first missing in 0.28); --data-parallel-size came with the V1 engine.
// No command of any plan (both variants, the ladder, with and without a KV checkpoint, several replicas, a long
// context) carries a refused option for its release; where the release has --calculate-kv-scales the plan uses it.
TEST(RunPlan, NoCommandCarriesAnOptionItsReleaseRefuses) {
    const std::map<std::string, std::set<std::string>> refused = {
        {"0.6.4", {"--calculate-kv-scales", "calculate_kv_scales", "--data-parallel-size"}},
        {"0.10.1.1", {}},
        {"0.19.0", {}},
        {"0.26.0", {}},
        {"0.27.1", {}},
        {"0.28.0", {"--calculate-kv-scales", "calculate_kv_scales"}},
        {"0.28", {"--calculate-kv-scales", "calculate_kv_scales"}},
        {"0.29", {"--calculate-kv-scales", "calculate_kv_scales"}},
    };
    ASSERT_EQ(refused.count(kDefaultVllmVersion), 1u);
    for (const auto& [version, options] : refused) {
        for (bool ladder : {false, true}) {
            for (const char* checkpoint : {"", "RedHatAI/Llama-3.1-8B-FP8-KV"}) {
                PlanInputs in = planInputs("llama-3.1-8b", "h100-sxm", 2);
                in.tensorParallel = 1;  // two replicas: data parallelism
                in.commandsVllmVersion.reset();
                in.vllm = VllmServeSettings{};  // the accounting of that release too, as `plan --vllm-version` does
                in.vllm->version = version;
                in.contextTokens = 40960;
                in.ladder = ladder;
                in.fp8KvCheckpoint = checkpoint;
                const RunPlan p = make(in);
                const std::string where = version + (ladder ? " ladder" : "") + (*checkpoint ? " checkpoint" : "");
                const std::vector<std::string> words = allWords(p);
                const std::set<std::string> keys = modelArgKeys(p);
                for (const std::string& option : options) {
                    EXPECT_EQ(std::count(words.begin(), words.end(), option), 0) << option << ", " << where;
                    EXPECT_EQ(keys.count(option), 0u) << option << ", " << where;
                }
                const bool hasOption = options.count("--calculate-kv-scales") == 0;
                if (!*checkpoint) {  // the W8A8 + FP8 KV run asks for calculated scales wherever they exist
                    EXPECT_EQ(has(p.commands.serveFp8, "--calculate-kv-scales"), hasOption) << where;
                    EXPECT_EQ(keys.count("calculate_kv_scales"), hasOption ? 1u : 0u) << where;
                }
                EXPECT_EQ(has(p.commands.serveBf16, "--data-parallel-size"), options.count("--data-parallel-size") == 0)
                    << where;
                const auto k = kinds(p);
                EXPECT_EQ(std::count(k.begin(), k.end(), "no_data_parallel"),
                          options.count("--data-parallel-size") ? 1 : 0)
                    << where;
            }
        }
    }
}

// --ladder: BF16; FP8 weights (W8A8); FP8 weights + FP8 KV cache; with a KV checkpoint, that too. Each run served
// and evaluated alike into its own folder, then one compare of them all, the baseline first, labelled in order.
TEST(RunPlan, LadderRunsAndOneCompare) {
    PlanInputs in = planInputs("llama-3.1-8b", "h100-sxm", 1);
    in.commandsVllmVersion = "0.28";
    in.contextTokens = 8192;
    in.ladder = true;
    RunPlan p = make(in);
    ASSERT_EQ(p.ladder.size(), 3u);
    const auto labels = [](const RunPlan& plan) {
        std::vector<std::string> l;
        for (const LadderRun& r : plan.ladder) l.push_back(r.label);
        return l;
    };
    EXPECT_EQ(labels(p), (std::vector<std::string>{"BF16", "FP8 W8A8", "FP8 W8A8 + FP8 KV (scales 1.0)"}));
    EXPECT_EQ(shellLine(p.ladder[0].serve), shellLine(p.commands.serveBf16));
    EXPECT_EQ(shellLine(p.ladder[1].serve),
              "vllm serve meta-llama/Llama-3.1-8B --dtype bfloat16 --quantization fp8 --tensor-parallel-size 1 "
              "--gpu-memory-utilization 0.92 --max-model-len 8192");
    EXPECT_EQ(shellLine(p.ladder[2].serve), shellLine(p.commands.serveFp8));
    EXPECT_EQ(after(p.ladder[1].eval, "--model_args"),
              "pretrained=meta-llama/Llama-3.1-8B,dtype=bfloat16,quantization=fp8,tensor_parallel_size=1,"
              "gpu_memory_utilization=0.92,max_model_len=8192");
    std::vector<std::string> outputs;
    for (const LadderRun& r : p.ladder) {
        outputs.push_back(r.outputPath);
        EXPECT_EQ(after(r.eval, "--output_path"), r.outputPath);
        EXPECT_EQ(after(r.eval, "--tasks"), "mmlu,hellaswag,gsm8k");
        EXPECT_TRUE(has(r.eval, "--log_samples"));
    }
    EXPECT_EQ(outputs, (std::vector<std::string>{"results/bf16", "results/fp8-w8a8", "results/fp8-w8a8-kv"}));
    EXPECT_EQ(p.ladderCompare,
              (std::vector<std::string>{"fp8dash", "compare", "results/bf16", "results/fp8-w8a8", "results/fp8-w8a8-kv",
                                        "--label", "BF16", "--label", "FP8 W8A8", "--label",
                                        "FP8 W8A8 + FP8 KV (scales 1.0)", "--save", "results/fp8-ladder.fp8cmp"}));
    // The W8A8 run: FP8 weights (the FP8 variant's) beside a BF16 KV cache of 131,072 bytes a token, with the flat
    // 2 GiB: (85,029,615,043 x 0.92 - weights - 2,147,483,648) // 131,072 tokens; the third run is the FP8 variant.
    EXPECT_EQ(p.ladder[1].capacity.weightsBytes, p.fp8.weightsBytes);
    EXPECT_EQ(p.ladder[1].capacity.maxTokens, (78227245840ull - p.fp8.weightsBytes - 2147483648ull) / 131072ull);
    EXPECT_EQ(p.ladder[2].capacity.maxTokens, p.fp8.maxTokens);
    EXPECT_EQ(p.ladder[0].capacity.maxTokens, 457910u);

    Json j = runPlanToJson(p);
    ASSERT_EQ(j["ladder"]["runs"].size(), 3u);
    EXPECT_EQ(j["ladder"]["runs"][1]["layers"],
              (Json{{"weights", "fp8"}, {"kv_cache", "bf16"}, {"kv_scales", nullptr}}));
    EXPECT_EQ(j["ladder"]["runs"][2]["layers"]["kv_scales"], "1.0");
    EXPECT_EQ(j["ladder"]["runs"][2]["key"], "fp8_w8a8_kv");
    EXPECT_EQ(j["ladder"]["compare"],
              "fp8dash compare results/bf16 results/fp8-w8a8 results/fp8-w8a8-kv --label BF16 --label 'FP8 W8A8' "
              "--label 'FP8 W8A8 + FP8 KV (scales 1.0)' --save results/fp8-ladder.fp8cmp");
    EXPECT_EQ(j["ladder"]["runs"][1]["capacity"]["kv"], "bf16");
    EXPECT_EQ(j["ladder"]["runs"][1]["argv"]["serve"].size(), p.ladder[1].serve.size());
    const std::string text = runPlanToText(p);
    EXPECT_NE(text.find("# Run 2 of 3: FP8 W8A8 -> results/fp8-w8a8\nvllm serve"), std::string::npos) << text;
    EXPECT_NE(text.find("fp8dash compare results/bf16 results/fp8-w8a8 results/fp8-w8a8-kv \\\n    --label BF16"),
              std::string::npos)
        << text;
    EXPECT_EQ(text.find("# 5. Compare and decide"), std::string::npos);  // the ladder replaces the two-variant steps
    // Without --ladder the JSON has no ladder key: the keys of a two-variant plan are as they were.
    in.ladder = false;
    EXPECT_FALSE(runPlanToJson(make(in)).contains("ladder"));

    // With a checkpoint with calibrated KV scales, a fourth run; on 0.26 the third run calculates its scales.
    in.ladder = true;
    in.commandsVllmVersion = "0.26";
    in.fp8KvCheckpoint = "RedHatAI/Llama-3.1-8B-FP8-KV";
    p = make(in);
    EXPECT_EQ(labels(p), (std::vector<std::string>{"BF16", "FP8 W8A8", "FP8 W8A8 + FP8 KV (calculated scales)",
                                                   "FP8 W8A8 + FP8 KV (calibrated checkpoint)"}));
    EXPECT_TRUE(has(p.ladder[2].serve, "--calculate-kv-scales"));
    EXPECT_EQ(p.ladder[3].serve[2], "RedHatAI/Llama-3.1-8B-FP8-KV");
    EXPECT_FALSE(has(p.ladder[3].serve, "--quantization"));
    EXPECT_EQ(after(p.ladder[3].serve, "--kv-cache-dtype"), "fp8");
    EXPECT_EQ(p.ladder[3].kvScales, "checkpoint");
    EXPECT_EQ(p.ladderCompare[5], "results/fp8-kv-checkpoint");
    EXPECT_EQ(p.ladderCompare.size(), 2u + 4u + 8u + 2u);
    // On 0.28 beside a checkpoint, the third run is at scales 1.0: over 32K its risk is flagged all the same.
    in.commandsVllmVersion = "0.28";
    in.contextTokens = 65536;
    p = make(in);
    ASSERT_EQ(kinds(p), std::vector<std::string>{"long_context_without_kv_scales"});
    EXPECT_NE(p.warnings[0].message.find("the ladder's FP8 W8A8 + FP8 KV run"), std::string::npos);
}

// The decode estimate is for a batch that fits at max-model-len in the variant it describes: 8B in BF16 on one H100
// at 32K holds 13 sequences (MaxModelLenFromTheCapacity), so BF16 decodes 13, not 32; bytes a step = 16,060,522,496
// of weights - 1,050,673,152 of input embedding + 13 x 32,768 x 131,072 of K/V = 70,844,424,192; at 3,350 GB/s,
// 13 x 3.35e12 / 70,844,424,192 = 614.7 tokens/s.
TEST(RunPlan, DecodeEstimateAtABatchThatFits) {
    PlanInputs in = planInputs("llama-3.1-8b", "h100-sxm", 1);
    RunPlan p = make(in);
    ASSERT_EQ(p.bf16.maxSequences, 13u);
    ASSERT_EQ(p.decodeBf16.batch, 13);
    EXPECT_EQ(p.decodeBf16.batchFrom, "sequences_that_fit");
    ASSERT_TRUE(p.bf16.decode.has_value());
    EXPECT_EQ(p.bf16.decode->batch, 13);
    EXPECT_TRUE(p.bf16.decode->selected.batchFits);
    EXPECT_EQ(p.bf16.decode->selected.bytesPerStep, 70844424192ull);
    EXPECT_NEAR(p.bf16.decode->selected.tokensPerS, 13 * 3.35e12 / 70844424192.0, 1e-6);
    // FP8: as many as its own KV cache holds, up to the default 32.
    const int fp8Batch = static_cast<int>(std::min<std::uint64_t>(p.fp8.maxSequences, 32));
    EXPECT_EQ(p.decodeFp8.batch, fp8Batch);
    EXPECT_EQ(p.fp8.decode->batch, fp8Batch);
    EXPECT_TRUE(p.fp8.decode->selected.batchFits);
    const Json j = runPlanToJson(p);
    EXPECT_EQ(j["decode"]["bf16"]["batch"], 13);
    EXPECT_EQ(j["decode"]["bf16"]["batch_from"], "sequences_that_fit");
    EXPECT_EQ(j["decode"]["bf16"]["batch_fits"], true);
    EXPECT_EQ(j["capacity"]["bf16"]["decode_estimate"]["batch"], 13);
    EXPECT_EQ(j["capacity"]["bf16"]["decode_estimate"]["bf16"]["batch_fits"], true);
    const std::string text = runPlanToText(p);
    EXPECT_NE(text.find("decode (bandwidth-bound upper bound, a batch that fits): BF16 615 tokens/s at batch 13 (all "
                        "the sequences of 32768 it holds)"),
              std::string::npos)
        << text;
    EXPECT_EQ(text.find("batch 32"), std::string::npos) << text;

    // Where 32 fit, 32 (the seed article's batch): 8B on an H200 at 8K holds far more.
    in = planInputs("llama-3.1-8b", "h200", 1);
    in.contextTokens = 8192;
    p = make(in);
    EXPECT_EQ(p.decodeBf16.batch, 32);
    EXPECT_EQ(p.decodeBf16.batchFrom, "default");
    EXPECT_NE(runPlanToText(p).find("BF16 "), std::string::npos);

    // Where not one sequence fits, none, said so: 70B BF16 weights do not fit on one H100.
    p = make(planInputs("llama-3.1-70b", "h100-sxm", 1));
    EXPECT_FALSE(p.decodeBf16.batch.has_value());
    EXPECT_EQ(p.decodeBf16.batchFrom, "none_fits");
    EXPECT_TRUE(runPlanToJson(p)["decode"]["bf16"]["batch"].is_null());
    EXPECT_EQ(runPlanToJson(p)["decode"]["bf16"]["batch_fits"], false);
    EXPECT_NE(runPlanToText(p).find("BF16 none (not one sequence of 16384 fits)"), std::string::npos)
        << runPlanToText(p);
}

TEST(KvScalesAdvice, TheBoundaryAndTheSentences) {
    EXPECT_STREQ(kVllmReleaseWithoutCalculateKvScales, "0.28");
    const auto v = [](const char* text) { return parseVllmVersion(text).value(); };
    EXPECT_FALSE(vllmHasCalculateKvScales(v("0.6.4")));  // before PR #11906
    EXPECT_TRUE(vllmHasCalculateKvScales(v("0.7.0")));
    EXPECT_TRUE(vllmHasCalculateKvScales(v("0.19")));
    EXPECT_TRUE(vllmHasCalculateKvScales(v("0.27.1")));
    EXPECT_FALSE(vllmHasCalculateKvScales(v("0.28.0")));
    EXPECT_FALSE(vllmHasCalculateKvScales(v("v0.29.0")));
    EXPECT_EQ(kvScalesAdvice(v("0.26")), "--calculate-kv-scales computes them at start-up");
    const std::string current = kvScalesAdvice();  // the newest release fp8dash knows
    EXPECT_EQ(current, kvScalesAdvice(v(kDefaultVllmVersion)));
    EXPECT_NE(current.find("use a checkpoint with calibrated KV scales (LLM Compressor: oneshot("), std::string::npos);
    EXPECT_NE(current.find("kv_cache_scheme"), std::string::npos);
    EXPECT_NE(current.find("without one vLLM uses scales 1.0"), std::string::npos);
    EXPECT_EQ(current.find("--calculate-kv-scales"), std::string::npos);
    const std::string recipe = llmCompressorKvScalesRecipe();
    EXPECT_NE(recipe.find("oneshot(model=\"MODEL\""), std::string::npos) << recipe;
    EXPECT_NE(recipe.find("output_dir=\"MODEL-FP8-KV\""), std::string::npos) << recipe;
    // One shell word whatever the model is called.
    EXPECT_NE(llmCompressorKvScalesRecipe("it's/m\"x", "o").find("model=\"it'\\''s/m\\\"x\""), std::string::npos)
        << llmCompressorKvScalesRecipe("it's/m\"x", "o");
}

}  // namespace
}  // namespace fp8dash
