// vLLM V1 against a real Prometheus (Debian's 2.42, backfilled with promtool): two deployments scraped by one server,
// one of them data-parallel (engines 0 and 1), with the label sets of tests/data/vllm/metrics-v1-sample.txt. Every
// expected figure follows from the generator's rates below, not from the code under test.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <ctime>
#include <iostream>
#include <memory>
#include <sstream>

#include "fp8dash/core/prometheus_client.h"
#include "fp8dash/core/timeline.h"
#include "fp8dash/core/vllm_metrics.h"
#include "prometheus_server.h"
#include "test_paths.h"
#include "vllm_fixture.h"

namespace fp8dash {
namespace {

constexpr double kVllmHours = 3600;
constexpr double kSpan = 8 * kVllmHours;
constexpr double kVllmChangeAt = 4 * kVllmHours;          // llama: cache auto -> fp8 on engine 0, throughput up 50 %
constexpr double kEngine1SwitchAt = kVllmChangeAt + 600;  // engine 1 follows ten minutes later
const char* const kLlama = "meta-llama/Llama-3.1-8B-Instruct";
const char* const kQwen = "Qwen/Qwen2.5-7B-Instruct";
// tok/s: llama's engines 300 + 200 before the change, 450 + 300 after; qwen's one engine 100 throughout.
constexpr double kLlamaBefore[2] = {300, 200};
constexpr double kLlamaAfter[2] = {450, 300};
constexpr double kQwenRate = 100;

std::string labelText(const std::map<std::string, std::string>& labels) {
    std::string out;
    for (const auto& [k, v] : labels) out += (out.empty() ? "" : ",") + k + "=\"" + v + "\"";
    return "{" + out + "}";
}

double llamaCounter(int engine, double t) {
    if (t <= kVllmChangeAt) return kLlamaBefore[engine] * t;
    return kLlamaBefore[engine] * kVllmChangeAt + kLlamaAfter[engine] * (t - kVllmChangeAt);
}

// OpenMetrics for promtool: the fixture's series for llama (job vllm-llama) and qwen's (job vllm-qwen, engine 0).
std::string generate(double start, const std::vector<test::ExpositionSample>& v1) {
    std::ostringstream om;
    const auto series = [&](const std::string& name, std::map<std::string, std::string> labels, double step,
                            double from, double to, auto value) {
        for (double t = from; t < to; t += step)
            om << name << labelText(labels) << ' ' << test::openMetricsNumber(value(t)) << ' '
               << test::openMetricsNumber(start + t) << '\n';
    };
    om << "# TYPE vllm:generation_tokens counter\n";
    for (const auto& s : v1) {
        if (s.name != "vllm:generation_tokens_total") continue;
        auto labels = s.labels;
        labels["job"] = "vllm-llama";
        const int engine = labels.at("engine") == "0" ? 0 : 1;
        series(s.name, labels, 15, 0, kSpan + 1, [&](double t) { return llamaCounter(engine, t); });
    }
    series("vllm:generation_tokens_total", {{"engine", "0"}, {"job", "vllm-qwen"}, {"model_name", kQwen}}, 15, 0,
           kSpan + 1, [](double t) { return kQwenRate * t; });

    om << "# TYPE vllm:cache_config_info gauge\n";
    for (const auto& s : v1) {
        if (s.name != "vllm:cache_config_info") continue;
        auto labels = s.labels;
        labels["job"] = "vllm-llama";
        const double switchAt = labels.at("engine") == "0" ? kVllmChangeAt : kEngine1SwitchAt;
        labels["cache_dtype"] = "auto";
        series(s.name, labels, 60, 0, switchAt, [](double) { return 1.0; });
        labels["cache_dtype"] = "fp8";  // calculate_kv_scales stays "False", as in the fixture
        series(s.name, labels, 60, switchAt, kSpan + 1, [](double) { return 1.0; });
        if (labels.at("engine") == "0") {  // qwen: FP8 E4M3 with calculated scales from the start
            labels["job"] = "vllm-qwen";
            labels["cache_dtype"] = "fp8_e4m3";
            labels["calculate_kv_scales"] = "True";
            series(s.name, labels, 60, 0, kSpan + 1, [](double) { return 1.0; });
        }
    }
    // The other metrics of the dump, every half hour, so that the server lists V1's names (each sample name as a
    // gauge: the backfill needs no histogram semantics to list names).
    std::string last;
    for (const auto& s : v1) {
        if (s.name == "vllm:generation_tokens_total" || s.name == "vllm:cache_config_info") continue;
        if (s.name != last) om << "# TYPE " << s.name << " gauge\n";
        last = s.name;
        auto labels = s.labels;
        labels["job"] = "vllm-llama";
        const double value = std::stod(s.value);
        series(s.name, labels, 1800, 0, kSpan + 1, [value](double) { return value; });
    }
    om << "# EOF\n";
    return om.str();
}

class VllmV1Live : public ::testing::Test {
protected:
    static void SetUpTestSuite() {
        s_skip = test::PrometheusServer::unavailableReason();
        if (!s_skip.empty()) return;
        auto v1 = test::readExposition((test::testData() / "vllm" / "metrics-v1-sample.txt").string());
        if (!v1) {
            s_skip = "tests/data/vllm/metrics-v1-sample.txt cannot be read";
            return;
        }
        s_start = std::floor(static_cast<double>(std::time(nullptr)) / kVllmHours) * kVllmHours - 4 * 24 * kVllmHours;
        const auto began = std::chrono::steady_clock::now();
        test::PrometheusServerOptions options;
        options.openMetrics = generate(s_start, *v1);
        s_server = std::make_unique<test::PrometheusServer>(options);
        std::cerr << "[prometheus] vLLM V1 backfill + start took "
                  << std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count() << " s\n";
    }
    static void TearDownTestSuite() { s_server.reset(); }
    void SetUp() override {
        if (!s_skip.empty()) GTEST_SKIP() << s_skip;
        ASSERT_TRUE(s_server->ok()) << s_server->error();
    }
    static double at(double sinceStart) { return s_start + sinceStart; }
    static PrometheusClient client() {
        PrometheusSettings settings;
        settings.baseUrl = s_server->baseUrl();
        return PrometheusClient(settings);
    }
    // Throughput only, two hours either side of the change.
    static TimelineSettings settings(const std::string& pick, const std::string& query = kDefaultThroughputQuery) {
        TimelineSettings st;
        st.prometheusUrl = s_server->baseUrl();
        st.throughputQuery = query;
        st.seriesPick = pick;
        st.from = at(kVllmChangeAt - 2 * kVllmHours);
        st.to = at(kVllmChangeAt + 2 * kVllmHours);
        st.step = 60;
        st.changeAt = at(kVllmChangeAt);
        return st;
    }

    static inline std::string s_skip;
    static inline double s_start = 0;
    static inline std::unique_ptr<test::PrometheusServer> s_server;
};

TEST_F(VllmV1Live, PickingAModelSumsItsEnginesOnly) {
    struct Case {
        std::string pick, query;
        double before, after;
    };
    const std::string perSeries = "rate(vllm:generation_tokens_total[5m])";
    const Case cases[] = {
        {"", kDefaultThroughputQuery, 300 + 200 + kQwenRate, 450 + 300 + kQwenRate},  // everything Prometheus has
        {std::string("model_name=") + kLlama, kDefaultThroughputQuery, 300 + 200, 450 + 300},
        {std::string("model_name=") + kQwen, kDefaultThroughputQuery, kQwenRate, kQwenRate},
        {std::string("model_name=") + kLlama + ",engine=1", kDefaultThroughputQuery, 200, 300},
        // A query that keeps the series: the pick applies to what it returns, and the matches are summed.
        {std::string("model_name=") + kLlama, perSeries, 300 + 200, 450 + 300},
        {"", perSeries, 300 + 200 + kQwenRate, 450 + 300 + kQwenRate},
    };
    for (const auto& c : cases) {
        auto data = fetchTimeline(settings(c.pick, c.query), {});
        ASSERT_TRUE(data.ok()) << c.pick << " / " << c.query << ": " << data.error().message;
        const auto report = evaluateTimeline(*data);
        ASSERT_TRUE(report.throughput.beforeMean && report.throughput.afterMean) << c.pick;
        EXPECT_NEAR(*report.throughput.beforeMean, c.before, 1e-6) << c.pick << " / " << c.query;
        EXPECT_NEAR(*report.throughput.afterMean, c.after, 1e-6) << c.pick << " / " << c.query;
        EXPECT_EQ(data->settings.throughputQuery, c.query);  // the file keeps the query as given, with the pick
    }
}

TEST_F(VllmV1Live, DetectsTheSwitchPerEngineAndRaisesTheScalesRisk) {
    auto data = fetchTimeline(settings(std::string("model_name=") + kLlama), {});
    ASSERT_TRUE(data.ok()) << data.error().message;
    ASSERT_TRUE(data->detectedChange.has_value());
    EXPECT_EQ(data->detectedChange->at, at(kVllmChangeAt));  // engine 0's switch; qwen's FP8 from the start is apart
    EXPECT_EQ(data->detectedChange->from, "auto");
    EXPECT_EQ(data->detectedChange->to, "fp8");
    ASSERT_TRUE(data->kvScalesRisk.has_value());
    EXPECT_EQ(data->kvScalesRisk->since, at(kVllmChangeAt));
    EXPECT_EQ(data->kvScalesRisk->cacheDtype, "fp8");
    EXPECT_EQ(data->kvScalesRisk->where,
              (std::vector<std::string>{"{engine=\"0\", job=\"vllm-llama\"}", "{engine=\"1\", job=\"vllm-llama\"}"}));
    const auto report = evaluateTimeline(*data);
    ASSERT_EQ(report.risks.size(), 1u);
    EXPECT_NE(timelineReportToText(report, *data).find("Risk: FP8 KV cache without calculated scales"),
              std::string::npos);

    // Qwen's deployment alone (by its job, a label cache_config_info has): FP8 throughout, scales calculated.
    auto qwen = fetchTimeline(settings("job=vllm-qwen"), {});
    ASSERT_TRUE(qwen.ok()) << qwen.error().message;
    EXPECT_FALSE(qwen->detectedChange.has_value());
    EXPECT_FALSE(qwen->kvScalesRisk.has_value());
    EXPECT_NEAR(*evaluateTimeline(*qwen).throughput.afterMean, kQwenRate, 1e-6);
}

// Issue 41: without a change time the switch is the change time. Llama's engine 0 switches first and engine 1 ten
// minutes later (the rollout), each named by the model its generation_tokens series carries; qwen ran FP8 from the
// start, so without a pick llama's switch is the only one.
TEST_F(VllmV1Live, WithoutAChangeTimeTheDetectedSwitchIsUsed) {
    for (const std::string pick : {std::string(), std::string("model_name=") + kLlama}) {
        auto st = settings(pick);
        st.changeAt.reset();
        auto data = fetchTimeline(st, {});
        ASSERT_TRUE(data.ok()) << data.error().message;
        ASSERT_TRUE(data->settings.changeAt.has_value()) << pick;
        EXPECT_EQ(*data->settings.changeAt, at(kVllmChangeAt)) << pick;
        EXPECT_TRUE(data->settings.changeAtDetected);
        ASSERT_EQ(data->detectedSwitches.size(), 2u) << pick;
        for (std::size_t e = 0; e < 2; ++e) {
            EXPECT_EQ(data->detectedSwitches[e].engine, std::to_string(e));
            EXPECT_EQ(data->detectedSwitches[e].model, kLlama);
            EXPECT_EQ(data->detectedSwitches[e].to, "fp8");
        }
        const auto report = evaluateTimeline(*data);
        EXPECT_EQ(report.changeSource, "cache_config_info");
        EXPECT_NE(report.changeDetail.find(std::string("engine 0 of ") + kLlama + " switched to fp8"),
                  std::string::npos)
            << report.changeDetail;
        ASSERT_TRUE(report.rolloutEnd.has_value());
        EXPECT_EQ(*report.rolloutEnd, at(kEngine1SwitchAt));
        // The before/after figures around the switch: every model's engines without a pick, llama's with it.
        const double qwen = pick.empty() ? kQwenRate : 0;
        EXPECT_NEAR(*report.throughput.beforeMean, 300 + 200 + qwen, 1e-6) << pick;
        EXPECT_NEAR(*report.throughput.afterMean, 450 + 300 + qwen, 1e-6) << pick;
        // Fetched again with these settings (a refresh), the switch is found again, not kept as if given.
        auto again = fetchTimeline(data->settings, {});
        ASSERT_TRUE(again.ok()) << again.error().message;
        EXPECT_TRUE(again->settings.changeAtDetected);
        EXPECT_EQ(again->settings.changeAt, data->settings.changeAt);
    }
    // Qwen picked: no switch in its series, so no change time.
    auto st = settings("job=vllm-qwen");
    st.changeAt.reset();
    auto qwen = fetchTimeline(st, {});
    ASSERT_TRUE(qwen.ok()) << qwen.error().message;
    EXPECT_FALSE(qwen->settings.changeAt.has_value());
    EXPECT_FALSE(evaluateTimeline(*qwen).throughput.afterMean.has_value());
}

TEST_F(VllmV1Live, LabelValuesListNamesAndModels) {
    auto names = client().labelValues("__name__", {}, at(kVllmChangeAt - kVllmHours), at(kVllmChangeAt + kVllmHours));
    ASSERT_TRUE(names.ok()) << names.error().message;
    EXPECT_NE(std::find(names->begin(), names->end(), "vllm:kv_cache_usage_perc"), names->end());
    EXPECT_EQ(std::find(names->begin(), names->end(), "vllm:gpu_cache_usage_perc"), names->end());
    auto models = client().labelValues("model_name", {"vllm:generation_tokens_total"});
    ASSERT_TRUE(models.ok()) << models.error().message;
    EXPECT_EQ(*models, (std::vector<std::string>{kQwen, kLlama}));  // sorted by the server
    auto bad = client().labelValues("model name");
    ASSERT_FALSE(bad.ok());
    EXPECT_NE(bad.error().message.find("is not a label name"), std::string::npos) << bad.error().message;
}

TEST_F(VllmV1Live, AnEmptyQuerySaysWhyAndNamesWhatTheServerHas) {
    // A dashboard query from before vLLM 0.12.
    auto old = fetchTimeline(settings("", "avg(vllm:gpu_cache_usage_perc)"), {});
    ASSERT_FALSE(old.ok());
    const std::string& m = old.error().message;
    EXPECT_EQ(m.rfind("throughput: the throughput query returned no series in the chosen range\n", 0), 0u) << m;
    EXPECT_NE(m.find("\n  the server has no metric vllm:gpu_cache_usage_perc in this range; vllm:gpu_cache_usage_perc "
                     "was renamed in vLLM 0.9 and removed in 0.12 (now vllm:kv_cache_usage_perc); the closest it "
                     "has: vllm:kv_cache_usage_perc, "),
              std::string::npos)
        << m;

    // A model the server does not serve: the metric is there, the pick leaves nothing; the models it has are named.
    auto missing = fetchTimeline(settings("model_name=mistral"), {});
    ASSERT_FALSE(missing.ok());
    EXPECT_NE(missing.error().message.find("vllm:generation_tokens_total has no series with model_name=\"mistral\"; "
                                           "its model_name values: " +
                                           std::string(kQwen) + ", " + kLlama),
              std::string::npos)
        << missing.error().message;

    // Another exporter's prefix the server lacks altogether.
    auto foreign = fetchTimeline(settings("", "sum(rate(sglang:generation_tokens_total[5m]))"), {});
    ASSERT_FALSE(foreign.ok());
    EXPECT_NE(foreign.error().message.find("it has no metric starting with sglang: in this range"), std::string::npos)
        << foreign.error().message;
}

}  // namespace
}  // namespace fp8dash
