// `fp8dash timeline` without --change-at against a real Prometheus (Debian's, backfilled with promtool) holding vLLM
// V1 series of two deployments: llama on two engines switching its KV cache to FP8 ten minutes apart (a rolling
// update), qwen switching half an hour after. Without a pick the two models are an error naming both; picking one
// uses its switch as the change time, with the rollout; a given --change-at wins. Expected times and figures follow
// from the generator below.
#include <gtest/gtest.h>

#include <cmath>
#include <ctime>
#include <fstream>
#include <memory>
#include <sstream>

#include "cli_runner.h"
#include "prometheus_server.h"
#include "test_paths.h"

namespace fp8dash {
namespace {

using test::fp8dashCli;
using test::parseJson;

constexpr double kSwHours = 3600;
constexpr double kSwLlamaAt = 2 * kSwHours;        // llama engine 0: auto -> fp8_e4m3
constexpr double kSwLlamaLast = kSwLlamaAt + 600;  // llama engine 1, ten minutes later
constexpr double kSwQwenAt = kSwLlamaAt + 1800;    // qwen engine 0: auto -> fp8
const char* const kSwLlama = "meta-llama/Llama-3.1-70B-Instruct";
const char* const kSwQwen = "Qwen/Qwen3-8B";

std::string switchGenerate(double start) {
    std::ostringstream om;
    const auto stamp = [&](double t) { return test::openMetricsNumber(start + t); };
    // tok/s: llama's engines 300 + 200 before its first switch, 450 + 300 after; qwen 100 throughout.
    om << "# TYPE vllm:generation_tokens counter\n";
    const auto counter = [&](const std::string& labels, double before, double after) {
        for (double t = 0; t <= 4 * kSwHours; t += 15) {
            const double v = t <= kSwLlamaAt ? before * t : before * kSwLlamaAt + after * (t - kSwLlamaAt);
            om << "vllm:generation_tokens_total{" << labels << "} " << test::openMetricsNumber(v) << ' ' << stamp(t)
               << '\n';
        }
    };
    const std::string llama = "job=\"vllm-llama\",model_name=\"" + std::string(kSwLlama) + "\"";
    counter("engine=\"0\"," + llama, 300, 450);
    counter("engine=\"1\"," + llama, 200, 300);
    counter("engine=\"0\",job=\"vllm-qwen\",model_name=\"" + std::string(kSwQwen) + "\"", 100, 100);
    // cache_config_info as V1 writes it: engine, no model_name.
    om << "# TYPE vllm:cache_config_info gauge\n";
    const auto info = [&](const std::string& job, const std::string& engine, double switchAt, const std::string& to) {
        for (double t = 0; t <= 4 * kSwHours; t += 60)
            om << "vllm:cache_config_info{block_size=\"16\",cache_dtype=\"" << (t < switchAt ? "auto" : to)
               << "\",calculate_kv_scales=\"False\",engine=\"" << engine << "\",job=\"" << job << "\"} 1 " << stamp(t)
               << '\n';
    };
    info("vllm-llama", "0", kSwLlamaAt, "fp8_e4m3");
    info("vllm-llama", "1", kSwLlamaLast, "fp8_e4m3");
    info("vllm-qwen", "0", kSwQwenAt, "fp8");
    om << "# EOF\n";
    return om.str();
}

// The test's own UTC text (strftime).
std::string swUtc(double t, const char* format = "%Y-%m-%d %H:%M:%S UTC") {
    const std::time_t tt = static_cast<std::time_t>(t);
    std::tm tm{};
    gmtime_r(&tt, &tm);
    char buf[64];
    std::strftime(buf, sizeof buf, format, &tm);
    return buf;
}

class CliDetectedSwitch : public ::testing::Test {
protected:
    static void SetUpTestSuite() {
        s_skip = test::PrometheusServer::unavailableReason();
        if (!s_skip.empty()) return;
        s_start = std::floor(static_cast<double>(std::time(nullptr)) / kSwHours) * kSwHours - 4 * 24 * kSwHours;
        test::PrometheusServerOptions options;
        options.openMetrics = switchGenerate(s_start);
        s_server = std::make_unique<test::PrometheusServer>(options);
    }
    static void TearDownTestSuite() { s_server.reset(); }
    void SetUp() override {
        if (!s_skip.empty()) GTEST_SKIP() << s_skip;
        ASSERT_TRUE(s_server->ok()) << s_server->error();
    }
    // One hour either side of llama's first switch, no --change-at.
    static std::vector<std::string> timeline(std::vector<std::string> extra) {
        std::vector<std::string> args = {"timeline",
                                         "--prometheus",
                                         s_server->baseUrl(),
                                         "--from",
                                         test::openMetricsNumber(s_start + kSwLlamaAt - kSwHours),
                                         "--to",
                                         test::openMetricsNumber(s_start + kSwLlamaAt + kSwHours)};
        args.insert(args.end(), extra.begin(), extra.end());
        return args;
    }
    static inline std::string s_skip;
    static inline double s_start = 0;
    static inline std::unique_ptr<test::PrometheusServer> s_server;
};

TEST_F(CliDetectedSwitch, TwoModelsSwitchingWithoutAPickExitTwoNamingBoth) {
    auto r = fp8dashCli(timeline({"--format", "json"}));
    EXPECT_EQ(r.exitCode, 2) << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;
    EXPECT_NE(r.err.find(std::string(kSwLlama) + " (engine 0 switched to fp8_e4m3 at " + swUtc(s_start + kSwLlamaAt)),
              std::string::npos)
        << r.err;
    EXPECT_NE(r.err.find(std::string(kSwQwen) + " (engine 0 switched to fp8 at " + swUtc(s_start + kSwQwenAt)),
              std::string::npos)
        << r.err;
    EXPECT_NE(r.err.find("--pick (model_name=" + std::string(kSwLlama) + ") or give --change-at"), std::string::npos)
        << r.err;
}

TEST_F(CliDetectedSwitch, APickedModelsSwitchIsTheChangeTimeWithItsRollout) {
    test::TempDir dir;
    const auto saved = dir.path() / "switch.fp8cmp";
    auto r = fp8dashCli(
        timeline({"--pick", std::string("model_name=") + kSwLlama, "--format", "json", "--save", saved.string()}));
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto j = parseJson(r);
    EXPECT_DOUBLE_EQ(j["change_at"].get<double>(), s_start + kSwLlamaAt);
    EXPECT_EQ(j["change_source"], "cache_config_info");
    const std::string detail = "change at " + swUtc(s_start + kSwLlamaAt) + " from cache_config_info: engine 0 of " +
                               kSwLlama + " switched to fp8_e4m3";
    EXPECT_EQ(j["change_detail"], detail);
    EXPECT_DOUBLE_EQ(j["rollout"]["to"].get<double>(), s_start + kSwLlamaLast);
    const std::string rollout = "rollout from " + swUtc(s_start + kSwLlamaAt, "%H:%M:%S") + " to " +
                                swUtc(s_start + kSwLlamaLast, "%H:%M:%S UTC") + " (10 min): engine 0 at " +
                                swUtc(s_start + kSwLlamaAt, "%H:%M:%S") + ", engine 1 at " +
                                swUtc(s_start + kSwLlamaLast, "%H:%M:%S");
    EXPECT_EQ(j["rollout"]["text"], rollout);
    ASSERT_EQ(j["detected_switches"].size(), 2u);
    EXPECT_EQ(j["detected_switches"][1]["engine"], "1");
    EXPECT_EQ(j["detected_switches"][1]["model"], kSwLlama);
    // Before and after the detected switch: llama's two engines, 500 -> 750 tok/s.
    EXPECT_NEAR(j["throughput"]["before_mean"].get<double>(), 500, 1e-6);
    EXPECT_NEAR(j["throughput"]["after_mean"].get<double>(), 750, 1e-6);
    // Said on stderr, one line.
    EXPECT_NE(r.err.find("fp8dash: " + detail + "; " + rollout + "\n"), std::string::npos) << r.err;

    // The saved comparison's timeline section keeps where the time came from, and its reports say it.
    auto file = nlohmann::json::parse(std::ifstream(saved));
    EXPECT_EQ(file["timeline"]["settings"]["change_at_source"], "cache_config_info");
    EXPECT_EQ(file["timeline"]["detected_switches"].size(), 2u);
    const auto md = dir.path() / "report.md";
    auto report = fp8dashCli({"report", saved.string(), "--out", md.string()});
    ASSERT_EQ(report.exitCode, 0) << report.err;
    std::ifstream in(md);
    const std::string markdown((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    EXPECT_NE(markdown.find("Change at " + swUtc(s_start + kSwLlamaAt)), std::string::npos) << markdown;
    EXPECT_NE(markdown.find("Rollout from "), std::string::npos) << markdown;

    // Text output: the same two lines.
    auto text = fp8dashCli(timeline({"--pick", std::string("model_name=") + kSwLlama}));
    ASSERT_EQ(text.exitCode, 0) << text.err;
    EXPECT_NE(text.out.find("  " + detail + "\n"), std::string::npos) << text.out;
    EXPECT_NE(text.out.find("  " + rollout + "\n"), std::string::npos) << text.out;

    // Qwen's: one engine, no rollout.
    auto qwen = fp8dashCli(timeline({"--pick", std::string("model_name=") + kSwQwen, "--format", "json"}));
    ASSERT_EQ(qwen.exitCode, 0) << qwen.err;
    EXPECT_DOUBLE_EQ(parseJson(qwen)["change_at"].get<double>(), s_start + kSwQwenAt);
    EXPECT_FALSE(parseJson(qwen).contains("rollout"));
}

TEST_F(CliDetectedSwitch, AGivenChangeTimeWinsAndSaysWhatItOverrides) {
    const double given = s_start + kSwLlamaAt + 300;
    auto r = fp8dashCli(timeline({"--pick", std::string("model_name=") + kSwLlama, "--change-at",
                                  test::openMetricsNumber(given), "--format", "json"}));
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto j = parseJson(r);
    EXPECT_DOUBLE_EQ(j["change_at"].get<double>(), given);
    EXPECT_EQ(j["change_source"], "given");
    EXPECT_FALSE(j.contains("rollout"));
    EXPECT_NE(r.err.find("the change time given (" + swUtc(given) +
                         ") overrides the switch found in cache_config_info at " + swUtc(s_start + kSwLlamaAt)),
              std::string::npos)
        << r.err;
    // Without a pick a given time needs no choice between the models.
    EXPECT_EQ(fp8dashCli(timeline({"--change-at", test::openMetricsNumber(given)})).exitCode, 0);
}

}  // namespace
}  // namespace fp8dash
