// The plan's serving benchmarks: every printed command carries only options of its tool's release (a table compiled
// here from the tools' sources, independently of the plan's own choices), the request counts follow the rule, every
// variant is measured the same way, and the serving / compare lines read exactly what the benchmarks write.
#include "fp8dash/core/run_plan.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <sstream>

namespace fp8dash {
namespace {

using Flags = std::set<std::string>;

// benchmarks/benchmark_serving.py, late 2024 (0.6.4): its argparse options that a plan may use. No --label, no
// --save-detailed (both 2025).
const Flags kBenchmarkServingPy = {"--model",
                                   "--num-prompts",
                                   "--seed",
                                   "--dataset-name",
                                   "--dataset-path",
                                   "--random-input-len",
                                   "--random-output-len",
                                   "--sharegpt-output-len",
                                   "--max-concurrency",
                                   "--percentile-metrics",
                                   "--metric-percentiles",
                                   "--ignore-eos",
                                   "--save-result",
                                   "--result-dir",
                                   "--result-filename",
                                   "--metadata",
                                   "--request-rate",
                                   "--backend",
                                   "--host",
                                   "--port"};

// `vllm bench serve` (vllm/benchmarks/serve.py add_cli_args, 2025 on): the same plus --label and --save-detailed.
Flags benchServeFlags() {
    Flags f = kBenchmarkServingPy;
    f.insert({"--label", "--save-detailed", "--num-warmups", "--append-result"});
    return f;
}

// `vllm bench sweep serve` (vllm/benchmarks/sweep/serve.py SweepServeArgs.add_cli_args).
const Flags kSweepServe = {"--serve-cmd",
                           "--bench-cmd",
                           "--after-bench-cmd",
                           "--show-stdout",
                           "--serve-params",
                           "--bench-params",
                           "--link-vars",
                           "--num-runs",
                           "-o",
                           "--output-dir",
                           "--dry-run",
                           "--resume",
                           "-e",
                           "--experiment-name"};
// What the sweep appends to every --bench-cmd itself: the command must not carry them (run_benchmark).
const Flags kSweepAdds = {"--save-result", "--result-dir", "--result-filename"};

// GuideLLM, by release (src/guidellm/__main__.py at v0.2.0 / v0.3.0 / v0.4.0 ... v0.6.0; cli/run.py at v0.7.0).
const Flags kGuidellm02 = {"--target",      "--model",       "--rate-type",    "--rate",
                           "--data",        "--max-seconds", "--max-requests", "--random-seed",
                           "--output-path", "--processor",   "--backend-type", "--warmup-percent"};
Flags guidellm04() {  // 0.4-0.6: --profile (with --rate-type its legacy alias), --output-dir / --outputs
    Flags f = kGuidellm02;
    f.insert({"--profile", "--output-dir", "--outputs", "--warmup", "--cooldown"});
    return f;
}
const Flags kGuidellm07 = {"--backend", "--profile", "--data",     "--constraint", "--seed",    "--output",
                           "--label",   "--config",  "--scenario", "--tokenizer",  "--override"};

// What the table above says each release of vLLM gets (the plan's choice, asserted independently).
struct VllmRelease {
    const char* version;
    const char* program;  // "sweep", "bench serve", "script"
};
const VllmRelease kReleases[] = {
    {"0.6.4", "script"}, {"0.10.1.1", "bench serve"}, {"0.19.0", "sweep"}, {"0.26.0", "sweep"},
    {"0.27.1", "sweep"}, {"0.28.0", "sweep"},         {"0.28", "sweep"},   {"0.29", "sweep"}};

PlanInputs servingInputs(const char* vllm, bool ladder, const char* kvCheckpoint = "") {
    PlanInputs in;
    in.model = *findModelPreset("llama-3.1-8b");
    in.gpu = findGpuPreset("h100-sxm").value();
    in.vllm.reset();
    in.commandsVllmVersion = vllm;
    in.contextTokens = 8192;
    in.ladder = ladder;
    in.fp8KvCheckpoint = kvCheckpoint;
    return in;
}

RunPlan servingPlanOf(const PlanInputs& in) {
    auto p = makeRunPlan(in);
    if (!p) throw std::runtime_error(p.error().message);
    return std::move(p).value();
}

std::vector<std::string> servingOptions(const std::vector<std::string>& argv) {
    std::vector<std::string> o;
    for (const auto& a : argv)
        if (a.starts_with("--") || a == "-o" || a == "-e") o.push_back(a);
    return o;
}

// A --serve-cmd / --bench-cmd string back into words (the plan's shellLine quotes only with '...').
std::vector<std::string> servingWords(const std::string& line) {
    std::vector<std::string> out;
    std::string cur;
    bool quoted = false, any = false;
    for (char c : line) {
        if (c == '\'') {
            quoted = !quoted;
            any = true;
        } else if (c == ' ' && !quoted) {
            if (any) out.push_back(cur);
            cur.clear();
            any = false;
        } else {
            cur += c;
            any = true;
        }
    }
    if (any) out.push_back(cur);
    return out;
}

std::string servingValueAfter(const std::vector<std::string>& argv, const std::string& option) {
    auto it = std::find(argv.begin(), argv.end(), option);
    return it != argv.end() && it + 1 != argv.end() ? *(it + 1) : std::string("<absent>");
}

void servingExpectOnly(const std::vector<std::string>& argv, const Flags& allowed, const std::string& what) {
    for (const auto& o : servingOptions(argv)) EXPECT_TRUE(allowed.count(o)) << what << " takes no " << o;
}

// The options every vLLM benchmark must carry to measure every variant the same way.
void servingExpectSameWorkload(const std::vector<std::string>& bench, const std::string& what) {
    EXPECT_EQ(servingValueAfter(bench, "--percentile-metrics"), "ttft,tpot,itl,e2el") << what;
    EXPECT_EQ(servingValueAfter(bench, "--metric-percentiles"), "50,90,99") << what;
    EXPECT_EQ(servingValueAfter(bench, "--seed"), "42") << what;
    EXPECT_EQ(servingValueAfter(bench, "--dataset-name"), "random") << what;
    EXPECT_EQ(servingValueAfter(bench, "--random-input-len"), "1024") << what;
    EXPECT_EQ(servingValueAfter(bench, "--random-output-len"), "256") << what;
    EXPECT_NE(std::find(bench.begin(), bench.end(), "--ignore-eos"), bench.end()) << what;
}

TEST(RunPlanServing, EveryCommandHasOnlyOptionsOfItsRelease) {
    for (const VllmRelease& rel : kReleases) {
        for (bool ladder : {false, true}) {
            for (const char* checkpoint : {"", "RedHatAI/Llama-3.1-8B-FP8-KV"}) {
                const std::string what = std::string(rel.version) + (ladder ? " ladder" : "") + " " + checkpoint;
                const RunPlan p = servingPlanOf(servingInputs(rel.version, ladder, checkpoint));
                const ServingPlan& s = p.serving;
                ASSERT_EQ(s.runs.size(), ladder ? (*checkpoint ? 4u : 3u) : 2u) << what;
                for (const ServingRunCommands& r : s.runs) {
                    const std::string program = rel.program;
                    if (program == "sweep") {
                        ASSERT_EQ(r.vllm.size(), 1u) << what;
                        const auto& sweep = r.vllm.front();
                        ASSERT_GE(sweep.size(), 4u);
                        EXPECT_EQ(std::vector<std::string>(sweep.begin(), sweep.begin() + 4),
                                  (std::vector<std::string>{"vllm", "bench", "sweep", "serve"}));
                        servingExpectOnly(sweep, kSweepServe, what + " vllm bench sweep serve");
                        // The sweep starts exactly the vllm serve the plan prints for this variant.
                        EXPECT_EQ(servingValueAfter(sweep, "--serve-cmd"), shellLine(r.serve)) << what;
                        const auto bench = servingWords(servingValueAfter(sweep, "--bench-cmd"));
                        ASSERT_GE(bench.size(), 3u);
                        EXPECT_EQ(bench[0] + " " + bench[1] + " " + bench[2], "vllm bench serve");
                        servingExpectOnly(bench, benchServeFlags(), what + " --bench-cmd");
                        for (const auto& o : servingOptions(bench))
                            EXPECT_FALSE(kSweepAdds.count(o)) << what << " " << o;
                        servingExpectSameWorkload(bench, what);
                    } else {
                        ASSERT_EQ(r.vllm.size(), 7u) << what;  // the default ladder 1 ... 128
                        for (const auto& bench : r.vllm) {
                            if (program == "script") {
                                EXPECT_EQ(bench[1], "benchmarks/benchmark_serving.py") << what;
                                servingExpectOnly(bench, kBenchmarkServingPy, what + " benchmark_serving.py");
                            } else {
                                EXPECT_EQ(bench[0] + " " + bench[1] + " " + bench[2], "vllm bench serve") << what;
                                servingExpectOnly(bench, benchServeFlags(), what + " vllm bench serve");
                            }
                            servingExpectSameWorkload(bench, what);
                        }
                    }
                }
            }
        }
    }
}

TEST(RunPlanServing, GuidellmCommandsHaveOnlyOptionsOfTheirRelease) {
    const std::vector<std::pair<std::string, Flags>> releases = {
        {"0.2", kGuidellm02},    {"0.2.1", kGuidellm02},  {"0.3.1", kGuidellm02}, {"0.4.0", guidellm04()},
        {"0.5.4", guidellm04()}, {"0.6.1", guidellm04()}, {"0.7", kGuidellm07},   {"0.7.3", kGuidellm07}};
    for (const auto& [version, allowed] : releases) {
        PlanInputs in = servingInputs("0.28", true);
        in.serving.tool = ServingBenchTool::Guidellm;
        in.serving.guidellmVersion = version;
        const RunPlan p = servingPlanOf(in);
        EXPECT_TRUE(p.serving.vllmMode.empty());
        for (const ServingRunCommands& r : p.serving.runs) {
            EXPECT_TRUE(r.vllm.empty());
            servingExpectOnly(r.guidellm, allowed, "GuideLLM " + version);
            const bool v07 = version.starts_with("0.7");
            // 0.7 has `guidellm run`; before, `guidellm benchmark` (0.3-0.6: a group whose default is run).
            EXPECT_EQ(r.guidellm[1], v07 ? "run" : "benchmark") << version;
            if (v07) {
                EXPECT_EQ(servingValueAfter(r.guidellm, "--profile"),
                          R"({"kind":"concurrent","streams":[1,4,8,16,32,64,128]})");
                EXPECT_EQ(servingValueAfter(r.guidellm, "--seed"), "kind=static,value=42");
                EXPECT_EQ(servingValueAfter(r.guidellm, "--label"), "variant=" + r.key);
                EXPECT_EQ(servingValueAfter(r.guidellm, "--output"), "kind=json,path=results/serving/guidellm/" +
                                                                         (r.key == "bf16"       ? std::string("bf16")
                                                                          : r.key == "fp8_w8a8" ? "fp8-w8a8"
                                                                                                : "fp8-w8a8-kv") +
                                                                         ".json");
            } else {
                EXPECT_EQ(servingValueAfter(r.guidellm, "--rate"), "1,4,8,16,32,64,128");
                EXPECT_EQ(servingValueAfter(r.guidellm, "--random-seed"), "42");
                EXPECT_EQ(servingValueAfter(r.guidellm, "--data"), "prompt_tokens=1024,output_tokens=256");
                // --profile from 0.4, --rate-type before.
                const bool profile = version >= "0.4";
                EXPECT_EQ(servingValueAfter(r.guidellm, profile ? "--profile" : "--rate-type"), "concurrent")
                    << version;
            }
        }
    }
}

// max(50, 10 x concurrency) by default; here written out by hand.
TEST(RunPlanServing, RequestsPerLoadFollowTheRule) {
    PlanInputs in = servingInputs("0.28", false);
    RunPlan p = servingPlanOf(in);
    EXPECT_EQ(p.serving.numPrompts, (std::vector<long long>{50, 50, 80, 160, 320, 640, 1280}));
    // The sweep's --bench-params file says the same, one load per record.
    ASSERT_TRUE(p.serving.benchParams.has_value());
    const Json points = Json::parse(p.serving.benchParams->content);
    ASSERT_EQ(points.size(), 7u);
    const int concurrency[] = {1, 4, 8, 16, 32, 64, 128};
    const long long prompts[] = {50, 50, 80, 160, 320, 640, 1280};
    for (std::size_t i = 0; i < 7; ++i) {
        EXPECT_EQ(points[i]["max_concurrency"], concurrency[i]);
        EXPECT_EQ(points[i]["num_prompts"], prompts[i]);
        EXPECT_EQ(points[i].size(), 2u);
    }

    // Another ladder and rate, in the loop: each vllm bench serve has its load and count.
    in.commandsVllmVersion = "0.10.1.1";
    in.serving.concurrency = {2, 20, 100};
    in.serving.promptsPerConcurrency = 3;
    p = servingPlanOf(in);
    EXPECT_EQ(p.serving.vllmMode, "loop");
    const std::vector<std::pair<std::string, std::string>> expected = {{"2", "50"}, {"20", "60"}, {"100", "300"}};
    for (const ServingRunCommands& r : p.serving.runs) {
        ASSERT_EQ(r.vllm.size(), 3u);
        for (std::size_t i = 0; i < 3; ++i) {
            EXPECT_EQ(servingValueAfter(r.vllm[i], "--max-concurrency"), expected[i].first);
            EXPECT_EQ(servingValueAfter(r.vllm[i], "--num-prompts"), expected[i].second);
            EXPECT_EQ(servingValueAfter(r.vllm[i], "--result-filename"), r.key + "-c" + expected[i].first + ".json");
        }
        EXPECT_NE(r.vllmLoop.find("for cn in 2:50 20:60 100:300; do"), std::string::npos) << r.vllmLoop;
    }
    EXPECT_EQ(servingNumPrompts(1), 50);
    EXPECT_EQ(servingNumPrompts(5), 50);
    EXPECT_EQ(servingNumPrompts(6), 60);
    EXPECT_EQ(servingNumPrompts(7, 1), 50);
}

// Every variant's benchmark is the same but for what names the variant and where its results go.
TEST(RunPlanServing, EveryVariantIsMeasuredTheSameWay) {
    for (const char* version : {"0.6.4", "0.10.1.1", "0.28"}) {
        const RunPlan p = servingPlanOf(servingInputs(version, true, "RedHatAI/Llama-3.1-8B-FP8-KV"));
        auto normalised = [&](const ServingRunCommands& r) {
            std::vector<std::string> out;
            for (const auto& argv : r.vllm) {
                std::vector<std::string> bench =
                    p.serving.vllmMode == "sweep" ? servingWords(servingValueAfter(argv, "--bench-cmd")) : argv;
                for (std::size_t i = 0; i < bench.size(); ++i) {
                    const std::string& a = bench[i];
                    if (a == "--label" || a == "--result-dir" || a == "--result-filename" || a == "--model") {
                        ++i;
                        continue;
                    }
                    if (a.starts_with("variant=") || a.starts_with("quantization=") ||
                        a.starts_with("kv_cache_dtype=") || a.starts_with("kv_scales="))
                        continue;
                    out.push_back(a);
                }
            }
            return out;
        };
        const auto baseline = normalised(p.serving.runs.front());
        for (const auto& r : p.serving.runs) EXPECT_EQ(normalised(r), baseline) << version << " " << r.key;
        // What names each variant in its results.
        std::map<std::string, std::map<std::string, std::string>> meta;
        for (const auto& r : p.serving.runs)
            for (const auto& [k, v] : r.metadata) meta[r.key][k] = v;
        EXPECT_EQ(meta["bf16"]["quantization"], "none");
        EXPECT_EQ(meta["bf16"]["kv_cache_dtype"], "auto");
        EXPECT_EQ(meta["fp8_w8a8"]["quantization"], "fp8");
        EXPECT_EQ(meta["fp8_w8a8"]["kv_cache_dtype"], "auto");
        EXPECT_EQ(meta["fp8_w8a8_kv"]["kv_cache_dtype"], "fp8");
        EXPECT_EQ(meta["fp8_kv_checkpoint"]["kv_cache_dtype"], "fp8");
        EXPECT_EQ(meta["fp8_kv_checkpoint"]["kv_scales"], "checkpoint");
        EXPECT_EQ(meta["fp8_kv_checkpoint"]["variant"], "fp8_kv_checkpoint");
    }
    // The sweep's serve parameters repeat flags the serve command has (so the sweep changes nothing it starts), and
    // never --quantization beside a checkpoint's own quantization config.
    const RunPlan p = servingPlanOf(servingInputs("0.28", true, "RedHatAI/Llama-3.1-8B-FP8-KV"));
    for (const auto& r : p.serving.runs) {
        ASSERT_TRUE(r.serveParams.has_value()) << r.key;
        const Json params = Json::parse(r.serveParams->content);
        ASSERT_EQ(params.size(), 1u);
        const bool quantized = std::find(r.serve.begin(), r.serve.end(), "--quantization") != r.serve.end();
        EXPECT_EQ(params[0].contains("quantization"), quantized) << r.key;
        const auto kv = std::find(r.serve.begin(), r.serve.end(), "--kv-cache-dtype");
        EXPECT_EQ(params[0]["kv_cache_dtype"], kv == r.serve.end() ? "auto" : *(kv + 1)) << r.key;
    }
    EXPECT_FALSE(Json::parse(p.serving.runs.back().serveParams->content)[0].contains("quantization"));
}

// fp8dash serving reads the folders the benchmarks write; compare reads the plan's evals with those as --serving.
TEST(RunPlanServing, ServingAndCompareReadWhatTheBenchmarksWrite) {
    PlanInputs in = servingInputs("0.28", true);
    in.serving.tool = ServingBenchTool::Both;
    const RunPlan p = servingPlanOf(in);
    const ServingPlan& s = p.serving;
    ASSERT_EQ(s.runs.size(), 3u);
    std::vector<std::string> vllmPaths, guidellmPaths;
    for (const auto& r : s.runs) {
        EXPECT_EQ(servingValueAfter(r.vllm.front(), "--output-dir"), r.vllmResultPath);
        vllmPaths.push_back(r.vllmResultPath);
        guidellmPaths.push_back(r.guidellmResultPath);
    }
    EXPECT_EQ(vllmPaths, (std::vector<std::string>{"results/serving/vllm/bf16", "results/serving/vllm/fp8-w8a8",
                                                   "results/serving/vllm/fp8-w8a8-kv"}));
    std::vector<std::string> expected = {"fp8dash", "serving"};
    expected.insert(expected.end(), vllmPaths.begin(), vllmPaths.end());
    for (const auto& run : p.ladder) expected.insert(expected.end(), {"--label", run.label});
    expected.insert(expected.end(), {"--slo", "ttft_p99=2000ms,tpot_p99=50ms"});
    EXPECT_EQ(s.servingVllm, expected);
    EXPECT_EQ(std::vector<std::string>(s.servingGuidellm.begin() + 2, s.servingGuidellm.begin() + 5), guidellmPaths);

    // compare: the ladder's compare with a --serving LABEL=PATH per run (vLLM's results) before --save.
    std::vector<std::string> compare = p.ladderCompare;
    compare.erase(compare.end() - 2, compare.end());
    for (std::size_t i = 0; i < p.ladder.size(); ++i)
        compare.insert(compare.end(), {"--serving", p.ladder[i].label + "=" + vllmPaths[i]});
    compare.insert(compare.end(), {"--save", p.ladderComparisonPath});
    EXPECT_EQ(s.compare, compare);

    // Without the ladder: the two runs, labelled.
    const RunPlan two = servingPlanOf(servingInputs("0.28", false));
    EXPECT_EQ(two.serving.compare,
              (std::vector<std::string>{"fp8dash", "compare", "results/bf16", "results/fp8", "--label", "BF16",
                                        "--label", "FP8", "--serving", "BF16=results/serving/vllm/bf16", "--serving",
                                        "FP8=results/serving/vllm/fp8", "--save", "results/fp8-vs-bf16.fp8cmp"}));
}

TEST(RunPlanServing, TextAndJsonCarryTheSameCommands) {
    PlanInputs in = servingInputs("0.28", true);
    in.serving.tool = ServingBenchTool::Both;
    const RunPlan p = servingPlanOf(in);
    const std::string text = runPlanToText(p);
    const Json j = runPlanToJson(p)["serving"];
    EXPECT_EQ(j["vllm"]["mode"], "sweep");
    EXPECT_EQ(j["num_prompts"], Json({50, 50, 80, 160, 320, 640, 1280}));
    for (const auto& run : j["runs"]) {
        EXPECT_NE(text.find(shellBlock(run["vllm"]["argv"][0].get<std::vector<std::string>>())), std::string::npos);
        EXPECT_NE(text.find(shellBlock(run["guidellm"]["argv"].get<std::vector<std::string>>())), std::string::npos);
    }
    for (const auto& f : j["files"]) EXPECT_NE(text.find(f["content"].get<std::string>()), std::string::npos);
    EXPECT_NE(text.find(shellBlock(j["compare_argv"].get<std::vector<std::string>>())), std::string::npos);
    // The serving section comes after everything the plan printed before it.
    EXPECT_LT(text.find(shellBlock(p.ladderCompare)), text.find("# Serving benchmarks"));
}

TEST(RunPlanServing, BadServingInputsAreRefusedByName) {
    auto error = [](const PlanInputs& in) {
        auto p = makeRunPlan(in);
        return p ? std::string("<accepted>") : p.error().message;
    };
    PlanInputs in = servingInputs("0.28", false);
    in.serving.concurrency = {8, 4};
    EXPECT_NE(error(in).find("--concurrency: the loads must rise (8 then 4)"), std::string::npos) << error(in);
    in.serving.concurrency = {};
    EXPECT_NE(error(in).find("--concurrency names no load"), std::string::npos);
    in = servingInputs("0.10.1.1", false);
    in.serving.mode = VllmBenchMode::Sweep;
    EXPECT_NE(error(in).find("vLLM 0.10.1.1 has no `vllm bench sweep serve`"), std::string::npos) << error(in);
    in = servingInputs("0.28", false);
    in.serving.tool = ServingBenchTool::Guidellm;
    in.serving.guidellmVersion = "0.1";
    EXPECT_NE(error(in).find("--guidellm-version: \"0.1\""), std::string::npos) << error(in);
    in.serving.guidellmVersion = "0.7";
    in.serving.dataset = "sharegpt";
    in.serving.datasetPath = "sharegpt.json";
    EXPECT_NE(error(in).find("--dataset sharegpt is for vllm bench only"), std::string::npos) << error(in);
    in.serving.tool = ServingBenchTool::Vllm;
    in.serving.datasetPath.clear();
    EXPECT_NE(error(in).find("--dataset sharegpt needs its path"), std::string::npos) << error(in);
    // ShareGPT with vLLM: its path and a fixed output length, no random lengths.
    in.serving.datasetPath = "data/ShareGPT_V3.json";
    const RunPlan p = servingPlanOf(in);
    const auto bench = servingWords(servingValueAfter(p.serving.runs.front().vllm.front(), "--bench-cmd"));
    EXPECT_EQ(servingValueAfter(bench, "--dataset-path"), "data/ShareGPT_V3.json");
    EXPECT_EQ(servingValueAfter(bench, "--sharegpt-output-len"), "256");
    EXPECT_EQ(servingValueAfter(bench, "--random-input-len"), "<absent>");
    // --vllm-bench loop on a release with the sweep.
    in = servingInputs("0.28", false);
    in.serving.mode = VllmBenchMode::Loop;
    EXPECT_EQ(servingPlanOf(in).serving.vllmProgram, "vllm bench serve");
}

}  // namespace
}  // namespace fp8dash
