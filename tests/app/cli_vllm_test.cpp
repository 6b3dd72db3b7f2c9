// `fp8dash timeline` against a real Prometheus (Debian's 2.42, backfilled with promtool) holding vLLM V1 series of
// two models, one of them on two engines: --pick model_name=... sums that model's engines, an empty query exits 2
// naming the metrics the server has, and the calculate_kv_scales risk reaches the JSON. Expected figures follow from
// the generated rates.
#include <gtest/gtest.h>

#include <cmath>
#include <ctime>
#include <memory>
#include <sstream>

#include "cli_runner.h"
#include "prometheus_server.h"

namespace fp8dash {
namespace {

using test::fp8dashCli;
using test::parseJson;

constexpr double kHours = 3600;
constexpr double kChangeAt = 2 * kHours;  // llama: 300 + 200 tok/s -> 450 + 300, cache auto -> fp8 (no scales)
const char* const kLlama = "meta-llama/Llama-3.1-8B-Instruct";
constexpr double kQualityBefore = 4.25, kQualityAfter = 4.125;  // judge points, exact in binary

std::string generate(double start) {
    std::ostringstream om;
    const auto counter = [&](const std::string& labels, double before, double after) {
        for (double t = 0; t <= 4 * kHours; t += 15) {
            const double v = t <= kChangeAt ? before * t : before * kChangeAt + after * (t - kChangeAt);
            om << "vllm:generation_tokens_total{" << labels << "} " << test::openMetricsNumber(v) << ' '
               << test::openMetricsNumber(start + t) << '\n';
        }
    };
    om << "# TYPE vllm:generation_tokens counter\n";
    counter("engine=\"0\",model_name=\"" + std::string(kLlama) + "\"", 300, 450);
    counter("engine=\"1\",model_name=\"" + std::string(kLlama) + "\"", 200, 300);
    counter("engine=\"0\",model_name=\"Qwen/Qwen2.5-7B-Instruct\"", 100, 100);
    om << "# TYPE vllm:kv_cache_usage_perc gauge\n";
    for (double t = 0; t <= 4 * kHours; t += 60)
        om << "vllm:kv_cache_usage_perc{engine=\"0\",model_name=\"" << kLlama << "\"} 0.25 "
           << test::openMetricsNumber(start + t) << '\n';
    om << "# TYPE vllm:cache_config_info gauge\n";
    for (const char* dtype : {"auto", "fp8"})
        for (double t = dtype[0] == 'a' ? 0 : kChangeAt; t < (dtype[0] == 'a' ? kChangeAt : 4 * kHours + 1); t += 60)
            om << "vllm:cache_config_info{block_size=\"16\",cache_dtype=\"" << dtype
               << "\",calculate_kv_scales=\"False\",engine=\"0\"} 1 " << test::openMetricsNumber(start + t) << '\n';
    // Judge scores exported to Prometheus: one series, no model_name label (issue 28's --pick reproduction).
    om << "# TYPE langfuse_score_value gauge\n";
    for (double t = 0; t <= 4 * kHours; t += 60)
        om << "langfuse_score_value{name=\"llm_judge_domain\"} " << (t < kChangeAt ? kQualityBefore : kQualityAfter)
           << ' ' << test::openMetricsNumber(start + t) << '\n';
    om << "# EOF\n";
    return om.str();
}

class CliVllm : public ::testing::Test {
protected:
    static void SetUpTestSuite() {
        s_skip = test::PrometheusServer::unavailableReason();
        if (!s_skip.empty()) return;
        s_start = std::floor(static_cast<double>(std::time(nullptr)) / kHours) * kHours - 4 * 24 * kHours;
        test::PrometheusServerOptions options;
        options.openMetrics = generate(s_start);
        s_server = std::make_unique<test::PrometheusServer>(options);
    }
    static void TearDownTestSuite() { s_server.reset(); }
    void SetUp() override {
        if (!s_skip.empty()) GTEST_SKIP() << s_skip;
        ASSERT_TRUE(s_server->ok()) << s_server->error();
    }
    static std::vector<std::string> timeline(std::vector<std::string> extra) {
        std::vector<std::string> args = {"timeline",
                                         "--prometheus",
                                         s_server->baseUrl(),
                                         "--from",
                                         test::openMetricsNumber(s_start + kChangeAt - kHours),
                                         "--to",
                                         test::openMetricsNumber(s_start + kChangeAt + kHours),
                                         "--change-at",
                                         test::openMetricsNumber(s_start + kChangeAt)};
        args.insert(args.end(), extra.begin(), extra.end());
        return args;
    }
    static inline std::string s_skip;
    static inline double s_start = 0;
    static inline std::unique_ptr<test::PrometheusServer> s_server;
};

TEST_F(CliVllm, PickSumsTheModelsEnginesAndTheRiskIsInTheJson) {
    auto r = fp8dashCli(timeline({"--pick", std::string("model_name=") + kLlama, "--format", "json"}));
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto j = parseJson(r);
    EXPECT_NEAR(j["throughput"]["before_mean"].get<double>(), 500, 1e-6);
    EXPECT_NEAR(j["throughput"]["after_mean"].get<double>(), 750, 1e-6);
    EXPECT_NEAR(j["throughput"]["delta_pct"].get<double>(), 50, 1e-6);
    EXPECT_DOUBLE_EQ(j["detected_change"]["at"].get<double>(), s_start + kChangeAt);
    ASSERT_TRUE(j.contains("risks")) << r.out;
    ASSERT_EQ(j["risks"].size(), 1u);
    EXPECT_NE(j["risks"][0].get<std::string>().find("calculate_kv_scales=False"), std::string::npos);

    auto all = fp8dashCli(timeline({"--format", "json"}));  // no pick: every model's engines
    ASSERT_EQ(all.exitCode, 0) << all.err;
    EXPECT_NEAR(parseJson(all)["throughput"]["before_mean"].get<double>(), 600, 1e-6);
}

TEST_F(CliVllm, AnEmptyQueryExitsTwoNamingTheMetricsTheServerHas) {
    auto r = fp8dashCli(timeline({"--throughput-query", "avg(vllm:gpu_cache_usage_perc)"}));
    EXPECT_EQ(r.exitCode, 2) << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;
    EXPECT_NE(r.err.find("the throughput query returned no series"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("removed in 0.12"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("the closest it has: vllm:kv_cache_usage_perc"), std::string::npos) << r.err;

    auto unknownModel = fp8dashCli(timeline({"--pick", "model_name=mistral"}));
    EXPECT_EQ(unknownModel.exitCode, 2) << unknownModel.err;
    EXPECT_NE(unknownModel.err.find(std::string("its model_name values: Qwen/Qwen2.5-7B-Instruct, ") + kLlama),
              std::string::npos)
        << unknownModel.err;
}

// Issue 28: --pick model_name=M with a quality query whose series has no model_name label exited 2 ("no series
// matches"). The pick narrows the throughput to the model, leaves the quality series as it is, and says so on stderr.
TEST_F(CliVllm, PickNarrowsOnlyTheSeriesThatCarryItsLabels) {
    const std::string quality = R"(langfuse_score_value{name="llm_judge_domain"})";
    auto r = fp8dashCli(
        timeline({"--pick", std::string("model_name=") + kLlama, "--quality-query", quality, "--format", "json"}));
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto j = parseJson(r);
    // Throughput narrowed to llama's two engines (300 + 200 -> 450 + 300), not every model's (600 before).
    EXPECT_NEAR(j["throughput"]["before_mean"].get<double>(), 300 + 200, 1e-6);
    EXPECT_NEAR(j["throughput"]["after_mean"].get<double>(), 450 + 300, 1e-6);
    // The quality series as it is: the generated scores either side of the change.
    EXPECT_DOUBLE_EQ(j["quality"]["before_mean"].get<double>(), kQualityBefore);
    EXPECT_DOUBLE_EQ(j["quality"]["after_mean"].get<double>(), kQualityAfter);
    // One stderr line naming the series left as it is and why.
    const auto at = r.err.find("the quality series (" + quality + ") has no model_name label");
    ASSERT_NE(at, std::string::npos) << r.err;
    const auto lineStart = r.err.rfind('\n', at) == std::string::npos ? 0 : r.err.rfind('\n', at) + 1;
    const auto line = r.err.substr(lineStart, r.err.find('\n', at) - lineStart);
    EXPECT_NE(line.find("--pick model_name=" + std::string(kLlama)), std::string::npos) << line;
    EXPECT_NE(line.find("leaves it as it is"), std::string::npos) << line;
    EXPECT_EQ(r.err.find("throughput series"), std::string::npos) << r.err;  // the throughput has the label

    // A pick label that the quality series does carry still narrows it: name=other matches nothing, exit 2.
    auto other = fp8dashCli(timeline({"--pick", "name=other", "--no-throughput", "--quality-query", quality}));
    EXPECT_EQ(other.exitCode, 2) << other.err;
    EXPECT_NE(other.err.find("no series matches \"name=other\""), std::string::npos) << other.err;
}

}  // namespace
}  // namespace fp8dash
