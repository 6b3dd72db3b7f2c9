// `fp8dash capacity` and `fp8dash plan` as a user runs them: the JSON figures (computed here by hand), exit codes, and
// bad input that must give a clear message naming what is wrong and what is known.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "cli_runner.h"
#include "fp8dash/core/comparison_file.h"
#include "fp8dash/core/presentation_deck.h"
#include "process.h"
#include "test_paths.h"

namespace fp8dash {
namespace {

using test::fp8dashCli;
using test::parseJson;
using test::ProcessResult;
using test::TempDir;

TEST(CliCapacity, JsonFiguresAndInputs) {
    auto r =
        fp8dashCli({"capacity", "--model", "llama-3.1-8b", "--gpu", "h100-sxm", "--kv", "fp8", "--format", "json"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_TRUE(r.err.empty()) << r.err;
    const auto j = parseJson(r);
    // 2 x 32 layers x 8 KV heads x 128 x 1 byte.
    EXPECT_EQ(j["kv_bytes_per_token"], 65536);
    EXPECT_EQ(j["weights_bytes"], 16060522496ull);  // 2 x 8,030,261,248 parameters
    // vLLM's accounting on an H100 (79.19 GiB = 85,029,615,043 bytes): x 0.92 = 78,227,245,840 requested; less the
    // weights, the sampler's activation peak (3.75 x 1,024 rows x 128,256 x 4 B + 8,192 x 4,096 x 2 B =
    // 2,037,121,024) and 0.25 GiB of non-torch memory = 59,861,166,864 bytes; / (16 x 65,536) = 57,088 blocks =
    // 913,408 tokens (59,861,106,688 bytes); / 8,192 = 111 sequences.
    EXPECT_EQ(j["accounting"], "vllm");
    EXPECT_EQ(j["kv_cache_bytes"], 59861106688ull);
    EXPECT_EQ(j["max_tokens"], 913408);
    EXPECT_EQ(j["max_sequences"], 111);
    EXPECT_EQ(j["vllm"]["stages"][0]["activation_peak_bytes"], 2037121024ull);
    EXPECT_EQ(j["vllm"]["max_num_batched_tokens"], 8192);  // vLLM's default on a GPU of 70 GiB or more
    EXPECT_EQ(j["fits"], true);
    EXPECT_EQ(j["model"], "llama-3.1-8b");
    EXPECT_EQ(j["gpu"], "h100-sxm");
    EXPECT_EQ(j["gpus"], 1);
    EXPECT_EQ(j["weights"], "bf16");
    EXPECT_EQ(j["kv"], "fp8");
    EXPECT_EQ(j["gpu_util"], 0.92);
    EXPECT_EQ(j["context"], 8192);
    // The modelled overhead per GPU: (2,037,121,024 + 268,435,456) / 2^30.
    EXPECT_DOUBLE_EQ(j["overhead_gib"].get<double>(), 2305556480.0 / 1073741824.0);
    EXPECT_EQ(j["gpu_spec"]["datasheet_memory_gb"], 80.0);
    EXPECT_TRUE(j["decode_estimate"].is_object());
}

TEST(CliCapacity, OptionsChangeTheFigures) {
    // 70B, all FP8, on 4 x H100 with a flat overhead of 0 (--overhead-gib): 4 x 85,029,615,043 - 72,656,371,712 =
    // 267,462,088,460 bytes; / 163,840 = 1,632,459 tokens; / 16,384 = 99 sequences.
    auto r = fp8dashCli({"capacity", "--model=llama-3.1-70b", "--gpu", "NVIDIA H100 80GB HBM3", "--gpus", "4",
                         "--weights", "fp8", "--kv", "fp8", "--gpu-util", "1", "--overhead-gib", "0", "--context",
                         "16384", "--format", "json"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto j = parseJson(r);
    EXPECT_EQ(j["gpu"], "h100-sxm");
    EXPECT_EQ(j["weights_bytes"], 72656371712ull);
    EXPECT_EQ(j["accounting"], "flat");
    EXPECT_EQ(j["kv_cache_bytes"], 267462088460ull);
    EXPECT_EQ(j["max_tokens"], 1632459);
    EXPECT_EQ(j["max_sequences"], 99);
    // --memory-gib replaces the datasheet figure: 79.6 x 2^30 = 85,469,849,190 bytes (rounded).
    auto m = fp8dashCli(
        {"capacity", "--model", "llama-3.1-8b", "--gpu", "h100-sxm", "--memory-gib", "79.6", "--format", "json"});
    ASSERT_EQ(m.exitCode, 0) << m.err;
    EXPECT_EQ(parseJson(m)["gpu_spec"]["memory_bytes"], 85469849190ull);
}

TEST(CliCapacity, DoesNotFitStillRuns) {
    auto r = fp8dashCli({"capacity", "--model", "llama-3.1-70b", "--gpu", "rtx-4090", "--format", "json"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto j = parseJson(r);
    EXPECT_EQ(j["fits"], false);
    EXPECT_EQ(j["max_tokens"], 0);
    EXPECT_GT(j["shortfall_bytes"].get<double>(), 0);
    auto text = fp8dashCli({"capacity", "--model", "llama-3.1-70b", "--gpu", "rtx-4090"});
    EXPECT_EQ(text.exitCode, 0);
    EXPECT_NE(text.out.find("DOES NOT FIT"), std::string::npos) << text.out;
}

TEST(CliCapacity, ReadsAConfigJson) {
    TempDir dir;
    const auto config = dir.write("my-model/config.json", R"({"architectures": ["MistralForCausalLM"],
        "model_type": "mistral", "hidden_size": 4096, "intermediate_size": 14336, "num_attention_heads": 32,
        "num_hidden_layers": 32, "num_key_value_heads": 8, "vocab_size": 32768, "tie_word_embeddings": false})");
    auto r = fp8dashCli({"capacity", "--model", config.string(), "--gpu", "l40s", "--format", "json"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto j = parseJson(r);
    EXPECT_EQ(j["model_architecture"]["parameters"], 7248023552ull);  // the mistral-7b preset's count
    EXPECT_EQ(j["model_architecture"]["source"], "config");
    EXPECT_EQ(j["kv_bytes_per_token"], 131072);
    // The plan loads the folder.
    auto p = fp8dashCli({"plan", "--model", config.parent_path().string(), "--gpu", "l40s", "--format", "json"});
    ASSERT_EQ(p.exitCode, 0) << p.err;
    EXPECT_EQ(parseJson(p)["argv"]["serve_bf16"][2], config.parent_path().string());
}

TEST(CliCapacity, BadInputIsExitTwoWithAMessage) {
    TempDir dir;
    const auto broken =
        dir.write("config.json", R"({"model_type": "llama", "num_hidden_layers": 32, "hidden_size": "big"})");
    struct Case {
        std::vector<std::string> args;
        std::vector<std::string> expected;
    };
    const std::vector<Case> cases = {
        {{"capacity", "--model", "gpt-5", "--gpu", "h100-sxm"},
         {"unknown model \"gpt-5\"", "llama-3.1-8b", "qwen2.5-14b", "mistral-7b"}},
        {{"capacity", "--model", "llama-3.1-8b", "--gpu", "a100"},
         {"unknown GPU \"a100\"", "h100-sxm", "h100-pcie", "h200", "l40s", "rtx-4090", "rtx-6000-ada", "b200",
          "a100-80gb", "rtx-pro-6000", "local"}},
        {{"capacity", "--model", "llama-3.1-8b"}, {"capacity needs --gpu"}},
        {{"capacity", "--gpu", "h200"}, {"capacity needs --model", "llama-3.1-8b"}},
        {{"capacity", "--model", "llama-3.1-8b", "--gpu", "h200", "--gpu-util", "1.5"}, {"--gpu-util \"1.5\""}},
        {{"capacity", "--model", "llama-3.1-8b", "--gpu", "h200", "--gpu-util", "0"}, {"--gpu-util \"0\""}},
        {{"capacity", "--model", "llama-3.1-8b", "--gpu", "h200", "--weights", "int3"},
         {"--weights \"int3\": expected one of", "fp8-dynamic", "int4-awq"}},
        {{"capacity", "--model", "llama-3.1-8b", "--gpu", "h200", "--vllm-version", "latest"},
         {"--vllm-version", "expected a release such as 0.19"}},
        {{"capacity", "--model", "llama-3.1-8b", "--gpu", "h200", "--pp", "64"},
         {"pipeline-parallel size must be 1 to the model's 32 layers"}},
        {{"capacity", "--model", "llama-3.1-8b", "--gpu", "h200", "--pp", "2", "--overhead-gib", "2"},
         {"give one or the other"}},
        {{"capacity", "--from-vllm-log", "/nonexistent/server.log"}, {"/nonexistent/server.log"}},
        {{"capacity", "--model", "llama-3.1-8b", "--gpu", "h200", "--kv", "fp16"}, {"--kv \"fp16\""}},
        {{"capacity", "--model", "llama-3.1-8b", "--gpu", "h200", "--context", "0"}, {"--context \"0\""}},
        {{"capacity", "--model", "llama-3.1-8b", "--gpu", "h200", "--gpus", "two"}, {"--gpus \"two\""}},
        {{"capacity", "--model", "llama-3.1-8b", "--gpu", "h200", "--overhead-gib", "-1"}, {"--overhead-gib \"-1\""}},
        {{"capacity", "--model", "llama-3.1-8b", "--gpu", "h200", "--format", "xml"}, {"expected text or json"}},
        {{"capacity", "--model", "llama-3.1-8b", "--gpu", "h200", "--bogus"}, {"capacity: unknown argument --bogus"}},
        {{"capacity", "--model"}, {"--model needs a value"}},
        {{"capacity", "--model", "llama-3.1-8b", "--gpu", "h200", "--memory-gib", "1e300"}, {"--memory-gib \"1e300\""}},
        {{"capacity", "--model", "llama-3.1-8b", "--gpu", "h200", "--context", "99999999"},
         {"the context must be 1 to 16777216 tokens"}},
        {{"capacity", "--model", broken.string(), "--gpu", "h200"},
         {broken.string(), "field \"hidden_size\" must be a positive integer"}},
        {{"plan", "--model", "llama-3.1-8b", "--gpu", "h100-sxm", "--gpus", "8", "--tp", "3"},
         {"--gpus 8 is not a multiple of --tp 3"}},
        {{"plan", "--model", "llama-3.1-8b", "--gpu", "h100-sxm", "--tasks", ","}, {"--tasks names no task"}},
        {{"plan", "--model", "llama-3.1-8b"}, {"plan needs --gpu"}},
        {{"plan", "--model", "llama-3.1-8b", "--gpu", "h100-sxm", "--nope"}, {"plan: unknown argument --nope"}},
    };
    for (const auto& c : cases) {
        auto r = fp8dashCli(c.args);
        EXPECT_EQ(r.signal, 0);
        EXPECT_EQ(r.exitCode, 2) << c.expected.front() << "\n" << r.err;
        for (const auto& e : c.expected) EXPECT_NE(r.err.find(e), std::string::npos) << e << " in: " << r.err;
        EXPECT_TRUE(r.out.empty()) << r.out;
    }
}

// A user's own start-up log (the llm-d-planner H100 run's lines): what vLLM measured, and the same server with an
// FP8 KV cache (twice the 476,016 tokens in the same 58.11 GiB) and FP8 weights (the pool plus the 6,979,321,856
// bytes the linear layers' second byte took: (58.11 GiB + that) / (16 x 131,072) = 33,080 blocks).
TEST(CliCapacity, FromAVllmStartUpLog) {
    TempDir dir;
    const auto log =
        dir.write("server.log",
                  "INFO 04-22 [gpu_worker.py] Model loading took 14.99 GiB memory and 14.4 seconds\n"
                  "INFO 04-22 [gpu_worker.py] Available KV cache memory: 58.11 GiB\n"
                  "INFO 04-22 [kv_cache_utils.py] GPU KV cache size: 476,016 tokens\n"
                  "INFO 04-22 [kv_cache_utils.py] Maximum concurrency for 8,192 tokens per request: 58.11x\n");
    auto r = fp8dashCli({"capacity", "--from-vllm-log", log.string(), "--model", "llama-3.1-8b", "--format", "json"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto j = parseJson(r);
    EXPECT_EQ(j["log"]["gpu_kv_cache_tokens"], 476016);
    EXPECT_EQ(j["log"]["available_kv_cache_gib"], 58.11);
    EXPECT_EQ(j["answers"][0]["tokens"], 476016);
    EXPECT_EQ(j["answers"][1]["label"], "FP8 KV cache");
    EXPECT_EQ(j["answers"][1]["tokens"], 952032);
    EXPECT_EQ(j["answers"][2]["label"], "FP8 weights");
    EXPECT_EQ(j["answers"][2]["tokens"], 33080 * 16);
    auto text = fp8dashCli({"capacity", "--from-vllm-log", log.string()});
    ASSERT_EQ(text.exitCode, 0) << text.err;
    EXPECT_NE(text.out.find("952,032 tokens"), std::string::npos) << text.out;
    EXPECT_NE(text.out.find("name the model (--model)"), std::string::npos) << text.out;
    // A line it cannot read is named.
    const auto bad = dir.write("bad.log", "INFO start\nINFO GPU KV cache size: unknown tokens\n");
    auto b = fp8dashCli({"capacity", "--from-vllm-log", bad.string()});
    EXPECT_EQ(b.exitCode, 2);
    EXPECT_NE(b.err.find(bad.string() + ":2"), std::string::npos) << b.err;
}

// --vllm-version: V0 (before 0.8) profiles a whole max_model_len, so a longer context leaves less KV cache.
TEST(CliCapacity, VllmVersionAndPipelineStages) {
    const auto tokens = [](std::vector<std::string> extra) {
        std::vector<std::string> args{"capacity", "--model", "llama-3.1-8b", "--gpu", "h100-sxm", "--format", "json"};
        args.insert(args.end(), extra.begin(), extra.end());
        auto r = fp8dashCli(args);
        EXPECT_EQ(r.exitCode, 0) << r.err;
        return parseJson(r);
    };
    const auto v1 = tokens({"--context", "32768"});
    const auto v0 = tokens({"--context", "32768", "--vllm-version", "0.6.4"});
    EXPECT_EQ(v0["vllm"]["engine"], "V0");
    EXPECT_EQ(v0["vllm"]["max_num_batched_tokens"], 32768);
    // V0 at 32,768 tokens: 32,768 x 2 x (3 x 14,336 + 3 x 4,096) = 3,623,878,656 bytes of activation.
    EXPECT_EQ(v0["vllm"]["stages"][0]["activation_peak_bytes"], 3623878656ull);
    EXPECT_LT(v0["max_tokens"].get<long long>(), v1["max_tokens"].get<long long>());
    const auto pp = tokens({"--pp", "2"});
    ASSERT_EQ(pp["vllm"]["stages"].size(), 2u);
    EXPECT_EQ(pp["vllm"]["stages"][0]["layers"], 16);
    EXPECT_EQ(pp["vllm"]["tightest_stage"], 1);  // the last stage holds the LM head and runs the sampler
}

TEST(CliCapacity, LocalGpuOrAClearReason) {
    const auto device = parseJson(fp8dashCli({"device", "--format", "json"}));
    auto r = fp8dashCli({"capacity", "--model", "llama-3.1-8b", "--gpu", "local", "--format", "json"});
    if (device["available"].get<bool>()) {
        ASSERT_EQ(r.exitCode, 0) << r.err;
        const auto j = parseJson(r);
        EXPECT_EQ(j["gpu_spec"]["source"], "local");
        EXPECT_EQ(j["gpu_spec"]["memory_bytes"], device["gpus"][0]["memory_free_bytes"]);
    } else {
        EXPECT_EQ(r.exitCode, 2);
        EXPECT_NE(r.err.find("--gpu local: no usable GPU on this machine"), std::string::npos) << r.err;
        EXPECT_NE(r.err.find(device["reason"].get<std::string>()), std::string::npos) << r.err;
    }
}

TEST(CliPlan, JsonCommandsWarningsAndCapacity) {
    auto r = fp8dashCli({"plan", "--model", "llama-3.1-70b", "--gpu", "h100-sxm", "--gpus", "4", "--context", "16384",
                         "--out-dir", "runs", "--format", "json"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto j = parseJson(r);
    // The default release (0.28) has no --calculate-kv-scales: the FP8 KV cache runs with scales 1.0, said so.
    EXPECT_EQ(j["commands"]["serve_fp8"],
              "vllm serve meta-llama/Llama-3.1-70B --dtype bfloat16 --quantization fp8 --kv-cache-dtype fp8 "
              "--tensor-parallel-size 4 --gpu-memory-utilization 0.92 --max-model-len 16384");
    EXPECT_EQ(j["commands"]["serve_bf16"],
              "vllm serve meta-llama/Llama-3.1-70B --dtype bfloat16 --tensor-parallel-size 4 "
              "--gpu-memory-utilization 0.92 --max-model-len 16384");
    EXPECT_EQ(j["commands"]["eval_bf16"],
              "lm_eval --model vllm --model_args pretrained=meta-llama/Llama-3.1-70B,dtype=bfloat16,"
              "tensor_parallel_size=4,gpu_memory_utilization=0.92,max_model_len=16384 --tasks mmlu,hellaswag,gsm8k "
              "--num_fewshot 5 --batch_size auto --log_samples --output_path runs/bf16");
    EXPECT_NE(j["commands"]["eval_fp8"].get<std::string>().find("quantization=fp8,kv_cache_dtype=fp8,tensor_parallel"),
              std::string::npos);
    EXPECT_EQ(j["commands"]["eval_fp8"].get<std::string>().find("calculate_kv_scales"), std::string::npos);
    EXPECT_EQ(j["commands"]["compare"], "fp8dash compare runs/bf16 runs/fp8 --save runs/fp8-vs-bf16.fp8cmp");
    ASSERT_EQ(j["warnings"].size(), 1u) << j["warnings"];
    EXPECT_EQ(j["warnings"][0]["kind"], "kv_scales_1_0");
    EXPECT_EQ(j["kv_scales"], false);
    EXPECT_EQ(j["kv_scales_source"], "1.0");
    EXPECT_NE(j["llm_compressor_recipe"].get<std::string>().find("kv_cache_scheme"), std::string::npos);
    EXPECT_EQ(j["capacity"]["bf16"]["context"], 16384);
    // The plan sizes the capacity as `capacity` does (vLLM's accounting, PlanSlideAndCapacityGiveTheSameTokens).
    EXPECT_EQ(j["capacity"]["bf16"]["accounting"], "vllm");
    EXPECT_EQ(j["max_model_len"], 16384);

    // The seed workflow's commands on a release that still has the option.
    auto old = fp8dashCli({"plan", "--model", "llama-3.1-70b", "--gpu", "h100-sxm", "--gpus", "4", "--context", "16384",
                           "--vllm-version", "0.27.1", "--format", "json"});
    ASSERT_EQ(old.exitCode, 0) << old.err;
    const auto o = parseJson(old);
    EXPECT_EQ(o["commands"]["serve_fp8"],
              "vllm serve meta-llama/Llama-3.1-70B --dtype bfloat16 --quantization fp8 --kv-cache-dtype fp8 "
              "--calculate-kv-scales --tensor-parallel-size 4 --gpu-memory-utilization 0.92 --max-model-len 16384");
    EXPECT_NE(o["commands"]["eval_fp8"].get<std::string>().find(
                  "quantization=fp8,kv_cache_dtype=fp8,calculate_kv_scales=true"),
              std::string::npos);
    EXPECT_TRUE(o["warnings"].empty()) << o["warnings"];
    EXPECT_EQ(o["kv_scales"], true);
    EXPECT_EQ(o["kv_scales_source"], "calculate_kv_scales");
}

// The releases fp8dash knows, through the CLI: no command it prints (the ladder's included) carries an option that
// release refuses (--calculate-kv-scales / calculate_kv_scales from 0.28 on, and before 0.7; --data-parallel-size
// before the V1 engine), written down here independently of the plan's own table (run_plan_test.cpp has the history).
TEST(CliPlan, NoCommandCarriesAnOptionItsReleaseRefuses) {
    const std::vector<std::pair<std::string, std::vector<std::string>>> releases = {
        {"0.6.4", {"--calculate-kv-scales", "calculate_kv_scales", "--data-parallel-size"}},
        {"0.10.1.1", {}},
        {"0.19.0", {}},
        {"0.26.0", {}},
        {"0.28.0", {"--calculate-kv-scales", "calculate_kv_scales"}},
    };
    for (const auto& [version, refused] : releases) {
        for (const char* checkpoint : {"", "RedHatAI/Llama-3.1-8B-FP8-KV"}) {
            std::vector<std::string> args{
                "plan", "--model",   "llama-3.1-8b", "--gpu",          "h100-sxm", "--gpus",   "2",        "--tp",
                "1",    "--context", "40960",        "--vllm-version", version,    "--ladder", "--format", "json"};
            if (*checkpoint) args.insert(args.end(), {"--fp8-kv-checkpoint", checkpoint});
            auto r = fp8dashCli(args);
            ASSERT_EQ(r.exitCode, 0) << version << ": " << r.err;
            const auto j = parseJson(r);
            std::vector<std::string> lines;
            for (const auto& [key, line] : j["commands"].items()) lines.push_back(line.get<std::string>());
            for (const auto& run : j["ladder"]["runs"])
                for (const char* key : {"serve", "eval"}) lines.push_back(run["commands"][key].get<std::string>());
            lines.push_back(j["ladder"]["compare"].get<std::string>());
            for (const std::string& line : lines)
                for (const std::string& option : refused)
                    EXPECT_EQ(line.find(option), std::string::npos) << version << ": " << option << " in " << line;
        }
    }
    // The default release is the newest fp8dash knows: the same as 0.28.
    auto r = fp8dashCli({"plan", "--model", "llama-3.1-8b", "--gpu", "h100-sxm", "--ladder"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_EQ(r.out.find("--calculate-kv-scales \\"), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find("calculate_kv_scales=true"), std::string::npos) << r.out;
}

// plan --ladder prints every run and the one compare of them all; --fp8-kv-checkpoint adds its run.
TEST(CliPlan, LadderAndKvCheckpoint) {
    auto r = fp8dashCli({"plan", "--model", "llama-3.1-8b", "--gpu", "h200", "--context", "8192", "--ladder",
                         "--fp8-kv-checkpoint", "RedHatAI/Llama-3.1-8B-FP8-KV", "--out-dir", "lad"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    for (const char* part :
         {"# Run 1 of 4: BF16 -> lad/bf16", "# Run 2 of 4: FP8 W8A8 -> lad/fp8-w8a8",
          "# Run 3 of 4: FP8 W8A8 + FP8 KV (scales 1.0) -> lad/fp8-w8a8-kv",
          "# Run 4 of 4: FP8 W8A8 + FP8 KV (calibrated checkpoint) -> lad/fp8-kv-checkpoint\nvllm serve "
          "RedHatAI/Llama-3.1-8B-FP8-KV \\\n    --dtype bfloat16 \\\n    --kv-cache-dtype fp8",
          "fp8dash compare lad/bf16 lad/fp8-w8a8 lad/fp8-w8a8-kv lad/fp8-kv-checkpoint \\\n    --label BF16 \\\n"
          "    --label 'FP8 W8A8' \\\n    --label 'FP8 W8A8 + FP8 KV (scales 1.0)' \\\n"
          "    --label 'FP8 W8A8 + FP8 KV (calibrated checkpoint)' \\\n    --save lad/fp8-ladder.fp8cmp"})
        EXPECT_NE(r.out.find(part), std::string::npos) << part << "\n" << r.out;
    auto json = fp8dashCli({"plan", "--model", "llama-3.1-8b", "--gpu", "h200", "--ladder", "--format", "json"});
    ASSERT_EQ(json.exitCode, 0) << json.err;
    const auto j = parseJson(json);
    ASSERT_EQ(j["ladder"]["runs"].size(), 3u);
    EXPECT_EQ(j["ladder"]["runs"][0]["label"], "BF16");
    EXPECT_EQ(j["ladder"]["compare_argv"][0], "fp8dash");
    EXPECT_TRUE(j.contains("commands"));  // the two-variant keys stay

    auto bad = fp8dashCli(
        {"plan", "--model", "llama-3.1-8b", "--gpu", "h200", "--no-kv-scales", "--fp8-kv-checkpoint", "x/y-FP8-KV"});
    EXPECT_EQ(bad.exitCode, 2);
    EXPECT_NE(bad.err.find("--no-kv-scales and --fp8-kv-checkpoint"), std::string::npos) << bad.err;
    auto help = fp8dashCli({"--help"});
    for (const char* word : {"--ladder", "--fp8-kv-checkpoint"})
        EXPECT_NE(help.out.find(word), std::string::npos) << word;
}

// Every place that says "N tokens" agrees for the same inputs: `capacity` (vLLM's accounting by default), the plan
// and the presentation's capacity slide of settings made now. Llama-3.1-8B, BF16 weights and KV, one H100, 0.92,
// 8,192 tokens: (85,029,615,043 x 0.92 - 16,060,522,496 - 2,037,121,024 activation peak - 268,435,456 non-torch) /
// (16 x 131,072) = 28,544 whole blocks = 456,704 tokens (JsonFiguresAndInputs above has the same pool with FP8 KV).
TEST(CliPlan, PlanSlideAndCapacityGiveTheSameTokens) {
    constexpr long long kTokens = 456704;
    auto cap = fp8dashCli({"capacity", "--model", "llama-3.1-8b", "--gpu", "h100-sxm", "--weights", "bf16", "--kv",
                           "bf16", "--context", "8192", "--format", "json"});
    ASSERT_EQ(cap.exitCode, 0) << cap.err;
    EXPECT_EQ(parseJson(cap)["max_tokens"], kTokens);

    auto plan =
        fp8dashCli({"plan", "--model", "llama-3.1-8b", "--gpu", "h100-sxm", "--context", "8192", "--format", "json"});
    ASSERT_EQ(plan.exitCode, 0) << plan.err;
    const auto j = parseJson(plan);
    EXPECT_EQ(j["capacity"]["bf16"]["max_tokens"], kTokens);
    EXPECT_EQ(j["capacity"]["bf16"]["accounting"], "vllm");
    EXPECT_EQ(j["vllm_version"], kDefaultVllmVersion);
    // The FP8 variant: FP8 weights leave a larger pool and a token costs half: the same as `capacity` says for it.
    auto capFp8 = fp8dashCli({"capacity", "--model", "llama-3.1-8b", "--gpu", "h100-sxm", "--weights", "fp8", "--kv",
                              "fp8", "--context", "8192", "--format", "json"});
    ASSERT_EQ(capFp8.exitCode, 0) << capFp8.err;
    EXPECT_EQ(j["capacity"]["fp8"]["max_tokens"], parseJson(capFp8)["max_tokens"]);
    EXPECT_GT(j["capacity"]["fp8"]["max_tokens"].get<long long>(), 2 * kTokens);

    ComparisonDocument doc;
    doc.hasEvals = false;
    doc.capacity = CapacitySettings{};  // made now: llama-3.1-8b, one h100-sxm, 0.92, 8,192, vLLM's accounting
    doc.capacity->weights = "bf16";
    doc.capacity->kv = "bf16";
    auto decision = decide(doc);
    ASSERT_TRUE(decision.ok()) << decision.error().message;
    const PresentationDeck deck = buildPresentationDeck(doc, *decision, nullptr);
    bool found = false;
    for (const PresentationSlide& slide : deck.slides) {
        if (slide.step != PresentationStep::Capacity) continue;
        found = true;
        ASSERT_FALSE(slide.bars.empty());
        EXPECT_EQ(slide.bars[0].value, static_cast<double>(kTokens));
    }
    EXPECT_TRUE(found);

    // --overhead-gib keeps the flat accounting: (85,029,615,043 x 0.92 - 16,060,522,496 - 2 GiB) / 131,072.
    auto flat = fp8dashCli({"plan", "--model", "llama-3.1-8b", "--gpu", "h100-sxm", "--context", "8192",
                            "--overhead-gib", "2", "--format", "json"});
    ASSERT_EQ(flat.exitCode, 0) << flat.err;
    EXPECT_EQ(parseJson(flat)["capacity"]["bf16"]["max_tokens"], 457910);
    EXPECT_FALSE(parseJson(flat).contains("vllm_version"));
    auto both = fp8dashCli(
        {"plan", "--model", "llama-3.1-8b", "--gpu", "h100-sxm", "--overhead-gib", "2", "--vllm-version", "0.19"});
    EXPECT_EQ(both.exitCode, 2);
    EXPECT_NE(both.err.find("--vllm-version and --overhead-gib"), std::string::npos) << both.err;
}

TEST(CliPlan, WarningsAndText) {
    auto r = fp8dashCli({"plan", "--model", "llama-3.1-8b", "--gpu", "h200", "--context", "65536", "--no-kv-scales",
                         "--format", "json"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto j = parseJson(r);
    ASSERT_EQ(j["warnings"].size(), 1u) << j["warnings"];
    EXPECT_EQ(j["warnings"][0]["kind"], "long_context_without_kv_scales");
    EXPECT_EQ(j["commands"]["serve_fp8"].get<std::string>().find("--calculate-kv-scales"), std::string::npos);

    auto text = fp8dashCli({"plan", "--model", "llama-3.1-70b", "--gpu", "h100-sxm"});
    ASSERT_EQ(text.exitCode, 0) << text.err;
    EXPECT_NE(text.out.find("[weights_do_not_fit]"), std::string::npos) << text.out;
    EXPECT_NE(text.out.find("vllm serve meta-llama/Llama-3.1-70B \\\n    --dtype bfloat16"), std::string::npos);
    EXPECT_NE(text.out.find("fp8dash compare results/bf16 results/fp8"), std::string::npos);

    auto help = fp8dashCli({"--help"});
    for (const char* word :
         {"fp8dash capacity", "fp8dash plan", "--overhead-gib", "--no-kv-scales", "rtx-6000-ada", "qwen2.5-72b"})
        EXPECT_NE(help.out.find(word), std::string::npos) << word;
}

}  // namespace
}  // namespace fp8dash
