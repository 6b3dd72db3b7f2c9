// Issue 28's done-when for `fp8dash exporter`: a real Prometheus (Debian's 2.42, started on loopback by the test,
// scraping every second) scraping the real exporter fed by the project's Langfuse test server in v4 mode (the
// Metrics API) holds series whose window mean, increase(sum[w]) / increase(count[w]) as the exported rules compute
// it, equals the mean of the test server's scores over the minutes counted, and whose latest values are their sum
// and count. Deterministic: the test server starts in an outage, so that Prometheus holds the zero counters before
// the exporter adds the minutes (increase() then sees the whole jump); every wait is a bounded poll of a condition.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <optional>
#include <string>

#include "exporter_fixture.h"

namespace fp8dash {
namespace {

using test::ExporterProcess;
using test::LangfuseTestServer;
using test::waitFor;

// An instant query's single value, or nullopt (no series, several, an error).
std::optional<double> instant(const test::PrometheusServer& prom, const std::string& query) {
    HttpOptions o;
    o.maxRetries = 0;
    o.totalTimeoutS = 5;
    const auto r = HttpClient(o).get(prom.baseUrl() + "/api/v1/query", {{"query", query}});
    if (!r || r->status != 200) return std::nullopt;
    const auto j = nlohmann::json::parse(r->body, nullptr, false);
    if (!j.is_object() || j.value("status", "") != "success") return std::nullopt;
    const auto& result = j["data"]["result"];
    if (!result.is_array() || result.size() != 1) return std::nullopt;
    return std::strtod(result[0]["value"][1].get<std::string>().c_str(), nullptr);
}

TEST(ExporterPrometheus, WindowMeansEqualTheTestServersScores) {
    if (const std::string why = test::PrometheusServer::unavailableReason(); !why.empty()) GTEST_SKIP() << why;
    const auto scores = test::recentScores(test::wallNow());
    LangfuseTestServer::Options o;
    o.personality = LangfuseTestServer::Personality::V4;
    LangfuseTestServer server(scores, o);
    server.setUnavailable(true);
    ExporterProcess exporter(server, {"--tag", "precision:fp8", "--look-back", "15m", "--interval", "1"});
    ASSERT_TRUE(exporter.started()) << exporter.error();
    ASSERT_TRUE(waitFor(30, [&] { return !exporter.scrape().empty(); })) << exporter.log();

    test::PrometheusServerOptions po;
    po.scrapeTargets = {"127.0.0.1:" + std::to_string(exporter.port())};
    po.scrapeInterval = "1s";
    test::PrometheusServer prom(po);
    ASSERT_TRUE(prom.ok()) << prom.error();

    const std::string sel = R"({score_name="llm_judge_domain",tag="precision:fp8"})";
    const std::string sum = "fp8dash_langfuse_score_sum" + sel, count = "fp8dash_langfuse_score_count" + sel;
    // Prometheus holds two scrapes of the zero counters (and of up 0) before Langfuse answers.
    ASSERT_TRUE(waitFor(30, [&] {
        const auto n = instant(prom, "count_over_time(" + count + "[5m])");
        return n && *n >= 2;
    })) << prom.log();
    EXPECT_EQ(instant(prom, "max_over_time(" + count + "[5m])"), 0.0);
    EXPECT_EQ(instant(prom, "fp8dash_exporter_up"), 0.0);

    server.setUnavailable(false);
    const auto want = test::totalsWithTag(scores, "precision:fp8");
    ASSERT_GT(want.count, 10);
    ASSERT_TRUE(waitFor(40, [&] { return instant(prom, count) == want.count; })) << exporter.log() << prom.log();
    const auto total = instant(prom, sum);
    ASSERT_TRUE(total);
    EXPECT_NEAR(*total, static_cast<double>(want.sum), 1e-9 * static_cast<double>(want.sum));
    EXPECT_EQ(instant(prom, "fp8dash_exporter_up"), 1.0);

    // The exported rules' window mean over a window that holds the zeros and the counted minutes.
    const auto mean = instant(prom, "increase(" + sum + "[5m]) / increase(" + count + "[5m])");
    ASSERT_TRUE(mean);
    const double wantMean = static_cast<double>(want.sum) / want.count;
    EXPECT_NEAR(*mean, wantMean, 1e-9 * wantMean);
    // ... and the counts' increase is the scores counted, up to Prometheus' extrapolation to the window's edges
    // (the same factor for both counters, which the mean cancels).
    const auto counted = instant(prom, "increase(" + count + "[5m])");
    ASSERT_TRUE(counted);
    EXPECT_GE(*counted, want.count - 1e-9);

    EXPECT_EQ(exporter.terminate(), 0) << exporter.log();
}

}  // namespace
}  // namespace fp8dash
