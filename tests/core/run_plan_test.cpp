// The plan: the seed workflow's commands with the right flags for both variants, max-model-len from the capacity
// figures (computed here by hand), the warnings, and lm_eval arguments that fp8dash's own reader then recognises.
#include "fp8dash/core/run_plan.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "fp8dash/core/fp8_config.h"

namespace fp8dash {
namespace {

PlanInputs planInputs(const char* model, const char* gpu, int gpus) {
    PlanInputs in;
    in.model = *findModelPreset(model);
    in.gpu = findGpuPreset(gpu).value();
    in.gpus = gpus;
    in.vllm.reset();  // the figures below are computed by hand with the flat overhead (vLLM's: VllmAccountingByDefault)
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

}  // namespace
}  // namespace fp8dash
