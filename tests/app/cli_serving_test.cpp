// `fp8dash serving` and `fp8dash compare --serving` through the real binary: vLLM bench serve files written here in
// the published shape (vllm/benchmarks/serve.py's --save-result keys; no public repository holds a BF16/FP8 pair of
// one model), the real InferenceX sweep, and the generated lm-eval ladder. Expected figures are the written numbers'
// own ratios and thresholds, worked out beside each assertion.
#include <gtest/gtest.h>

#include <fstream>

#include <nlohmann/json.hpp>

#include "cli_runner.h"
#include "test_paths.h"

using fp8dash::test::fp8dashCli;
using fp8dash::test::parseJson;
using fp8dash::test::TempDir;
using nlohmann::json;

namespace {

// One --save-result object at a concurrency: 100 requests of 1,024 + 256 tokens, the given throughput and p99 TTFT.
json vllmResult(const std::string& model, int concurrency, double outputTokS, double ttftP99) {
    return {{"date", "20261201-100000"},
            {"endpoint_type", "openai"},
            {"backend", "openai"},
            {"label", nullptr},
            {"model_id", model},
            {"tokenizer_id", model},
            {"num_prompts", 100},
            {"request_rate", "inf"},
            {"burstiness", 1.0},
            {"max_concurrency", concurrency},
            {"duration", 25600.0 / outputTokS},
            {"completed", 100},
            {"failed", 0},
            {"total_input_tokens", 102400},
            {"total_output_tokens", 25600},
            {"request_throughput", outputTokS / 256},
            {"request_goodput", nullptr},
            {"output_throughput", outputTokS},
            {"total_token_throughput", outputTokS * 5},
            {"mean_ttft_ms", ttftP99 / 3},
            {"median_ttft_ms", ttftP99 / 4},
            {"std_ttft_ms", 1.0},
            {"p99_ttft_ms", ttftP99},
            {"mean_tpot_ms", 20.0},
            {"median_tpot_ms", 20.0},
            {"std_tpot_ms", 1.0},
            {"p99_tpot_ms", 25.0},
            {"mean_itl_ms", 20.0},
            {"median_itl_ms", 20.0},
            {"std_itl_ms", 1.0},
            {"p99_itl_ms", 30.0}};
}

void writeSweep(const std::filesystem::path& dir, const std::string& model,
                const std::vector<std::tuple<int, double, double>>& points) {
    std::filesystem::create_directories(dir);
    for (const auto& [c, tok, ttft] : points) {
        std::ofstream out(dir / ("openai-infqps-concurrency" + std::to_string(c) + ".json"));
        out << vllmResult(model, c, tok, ttft).dump();
    }
}

// BF16 meets p99 TTFT <= 2 s up to 24 concurrent (2,000 tok/s there), FP8 up to 40 (3,100 tok/s).
struct Pair {
    TempDir dir;
    std::filesystem::path bf16 = dir.path() / "bf16", fp8 = dir.path() / "fp8";
    Pair() {
        writeSweep(bf16, "meta-llama/Llama-3.1-8B-Instruct", {{8, 900, 500}, {24, 2000, 1900}, {40, 2600, 2500}});
        writeSweep(fp8, "RedHatAI/Llama-3.1-8B-Instruct-FP8-dynamic",
                   {{8, 1000, 400}, {24, 2300, 1200}, {40, 3100, 1900}, {56, 3300, 2600}});
    }
};

}  // namespace

TEST(CliServing, ComparesTwoSweepsAtTheSlo) {
    Pair p;
    const auto r =
        fp8dashCli({"serving", p.bf16.string(), p.fp8.string(), "--label", "BF16", "--label", "FP8", "--slo",
                    "ttft_p99=2000ms", "--target-load", "120", "--gpu-hour-cost", "3.6", "--format", "json"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const json j = parseJson(r)["serving"];
    ASSERT_EQ(j["variants"].size(), 2u);
    EXPECT_EQ(j["variants"][0]["label"], "BF16");
    EXPECT_EQ(j["variants"][0]["capacity"]["load"], 24.0);
    EXPECT_EQ(j["variants"][1]["capacity"]["load"], 40.0);
    EXPECT_EQ(j["variants"][1]["capacity"]["first_miss_at"], 56.0);
    EXPECT_EQ(j["variants"][0]["replicas"], 5);  // ceil(120 / 24)
    EXPECT_EQ(j["variants"][1]["replicas"], 3);  // ceil(120 / 40)
    // 3.6 per GPU-hour, one GPU, 2,000 tok/s: 0.001 per second / 2,000 tok/s * 1e6 = 0.5 per million tokens.
    EXPECT_NEAR(j["variants"][0]["cost_per_million_output_tokens"].get<double>(), 0.5, 1e-9);
    EXPECT_NEAR(j["variants"][1]["gain"]["pct"].get<double>(), 55.0, 1e-9);  // 3,100 / 2,000 - 1
    // At 8 concurrent: 1,000 vs 900 tok/s is +11.1 %; p99 TTFT 400 vs 500 ms is -20 %.
    const json& p8 = j["variants"][1]["points"][0];
    EXPECT_EQ(p8["load"], json({{"concurrency", 8}}));
    EXPECT_NEAR(p8["delta_pct"]["output_tokens_per_s"].get<double>(), 100.0 / 9, 1e-9);
    EXPECT_NEAR(p8["delta_pct"]["ttft_ms"]["p99"].get<double>(), -20.0, 1e-9);
    EXPECT_TRUE(j["variants"][0]["points"][0]["delta_pct"].is_null());

    const auto text = fp8dashCli({"serving", p.bf16.string(), p.fp8.string(), "--label", "BF16", "--label", "FP8",
                                  "--slo", "ttft_p99=2s", "--target-load", "120"});
    ASSERT_EQ(text.exitCode, 0) << text.err;
    EXPECT_NE(text.out.find("FP8 buys +55.0% output tokens/s within p99 TTFT \u2264 2,000 ms against BF16"),
              std::string::npos)
        << text.out;
    EXPECT_NE(text.out.find("3 replicas instead of 5"), std::string::npos) << text.out;
}

TEST(CliServing, InferenceXSweepIsReadFromItsFolder) {
    const auto dir = fp8dash::test::sharedFixtures() / "serving" / "vllm-bench-serve";
    if (!std::filesystem::exists(dir)) GTEST_SKIP() << "shared serving fixtures not found under " << dir;
    const auto r = fp8dashCli({"serving", dir.string(), "--slo", "ttft_p99=1000ms", "--format", "json"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const json v = parseJson(r)["serving"]["variants"][0];
    ASSERT_EQ(v["points"].size(), 8u);
    EXPECT_EQ(v["points"][0]["load"]["concurrency"], 4);
    EXPECT_EQ(v["points"][7]["load"]["concurrency"], 512);
    EXPECT_EQ(v["capacity"]["load"], 16.0);                         // p99 TTFT 687.9 ms at 16, 1,553.9 ms at 32
    EXPECT_EQ(v["capacity"]["met_again_at"], json::array({64.0}));  // 685.5 ms at 64
    EXPECT_EQ(v["gpus_per_replica"], nullptr);
}

TEST(CliServing, RefusesWhatWouldMislead) {
    const auto failed = fp8dash::test::testData() / "serving" / "vllm" / "vllm_bench_serve_0.25.1_all-failed.json";
    const auto r = fp8dashCli({"serving", failed.string()});
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_NE(r.err.find("every request failed"), std::string::npos) << r.err;

    Pair p;
    TempDir other;
    writeSweep(other.path(), "Qwen/Qwen3-8B-FP8", {{8, 1000, 400}});
    const auto models = fp8dashCli({"serving", p.bf16.string(), other.path().string()});
    EXPECT_EQ(models.exitCode, 2);
    EXPECT_NE(models.out.find("not comparable: different models, meta-llama/Llama-3.1-8B-Instruct"), std::string::npos)
        << models.out;
    EXPECT_NE(models.err.find("not comparable"), std::string::npos);

    const auto slo = fp8dashCli({"serving", p.bf16.string(), "--slo", "ttft_p99=quick"});
    EXPECT_EQ(slo.exitCode, 2);
    EXPECT_NE(slo.err.find("--slo: SLO target \"ttft_p99=quick\""), std::string::npos) << slo.err;
    const auto missing = fp8dashCli({"serving", (p.dir.path() / "nowhere").string()});
    EXPECT_EQ(missing.exitCode, 2);
    EXPECT_NE(missing.err.find("nowhere"), std::string::npos) << missing.err;
}

// The generated ladder (tests/data/lm-eval-ladder) with --accept monitor recommends the calibrated KV variant; when
// its serving results buy +0.5 % over FP8 W8A8 (1,508 vs 1,500 tok/s, under the 2 % noise), FP8 W8A8 is recommended
// instead, and the verdict (MONITOR) does not move.
TEST(CliServing, CompareWeighsTheMeasuredGain) {
    const auto ladder = fp8dash::test::testData() / "lm-eval-ladder";
    TempDir dir;
    const std::string model = "meta-llama/Llama-3.1-8B-Instruct";
    const std::vector<std::pair<std::string, double>> runs = {{"BF16", 1000},
                                                              {"FP8 W8A8", 1500},
                                                              {"FP8 W8A8 + FP8 KV (scales 1.0)", 1900},
                                                              {"FP8 W8A8 + FP8 KV (calibrated scales)", 1508}};
    std::vector<std::string> args = {"compare",
                                     (ladder / "bf16").string(),
                                     (ladder / "w8a8").string(),
                                     (ladder / "w8a8-kv").string(),
                                     (ladder / "w8a8-kv-cal").string(),
                                     "--accept",
                                     "monitor",
                                     "--format",
                                     "json"};
    const auto before = fp8dashCli(args);
    ASSERT_EQ(before.exitCode, 0) << before.err;
    EXPECT_EQ(parseJson(before)["recommendation"]["label"], "FP8 W8A8 + FP8 KV (calibrated scales)");
    EXPECT_EQ(parseJson(before)["recommendation"]["gain"], "the serving gain was not measured (no serving benchmarks)");
    for (std::size_t i = 0; i < runs.size(); ++i) {
        const auto sub = dir.path() / ("run" + std::to_string(i));
        writeSweep(sub, model, {{8, runs[i].second, 300}});
        args.push_back("--serving");
        args.push_back(runs[i].first + "=" + sub.string());
    }
    const auto saved = dir.path() / "ladder.fp8cmp";
    auto withSave = args;
    withSave.insert(withSave.end(), {"--save", saved.string()});
    const auto after = fp8dashCli(withSave);
    ASSERT_EQ(after.exitCode, 0) << after.err;
    const json j = parseJson(after);
    EXPECT_EQ(j["recommendation"]["label"], "FP8 W8A8");
    EXPECT_EQ(j["verdict"], parseJson(before)["verdict"]);
    EXPECT_EQ(j["recommendation"]["gain"],
              "FP8 W8A8 buys +50.0% output tokens/s at 8 concurrent requests against BF16");
    EXPECT_EQ(j["serving"]["variants"].size(), 4u);
    // The saved file holds the serving section (format version 4) and its report says what FP8 buys.
    std::ifstream in(saved);
    EXPECT_EQ(json::parse(in)["version"], 4);
    const auto report = fp8dashCli({"report", saved.string()});
    ASSERT_EQ(report.exitCode, 0) << report.err;
    EXPECT_NE(report.out.find("What FP8 buys:"), std::string::npos) << report.out;
    EXPECT_NE(report.out.find("on your server: FP8 W8A8 buys +50.0%"), std::string::npos) << report.out;

    auto bad = args;
    bad.push_back("--serving");
    bad.push_back("FP16=" + dir.path().string());
    const auto unknown = fp8dashCli(bad);
    EXPECT_EQ(unknown.exitCode, 2);
    EXPECT_NE(unknown.err.find("serving \"FP16\": no run has this label (the runs are BF16, FP8 W8A8"),
              std::string::npos)
        << unknown.err;
}
