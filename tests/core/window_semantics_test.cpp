// Prometheus 2 and 3 window semantics, Prometheus 3's compensated mean, which server answers the API, and what newer
// servers add to their answers. Expected values worked out by hand (comments), not taken from the code.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "fp8dash/core/prometheus_client.h"
#include "fp8dash/core/time_series.h"
#include "fp8dash/core/timeline.h"
#include "test_http_server.h"

namespace fp8dash {
namespace {

using test::TestHttpServer;

double mean3(const std::vector<double>& values) {
    std::vector<Sample> s;
    for (double v : values) s.push_back({static_cast<double>(s.size()), v});
    return prometheus3Mean(s.begin(), s.end());
}

double mean2(const std::vector<double>& values) {
    std::vector<Sample> s;
    for (double v : values) s.push_back({static_cast<double>(s.size()), v});
    return prometheusMean(s.begin(), s.end());
}

TEST(Prometheus3Mean, CompensatedSumRecoversWhatCancellationLoses) {
    // 1e100 + 1 - 1e100: the running sum loses the 1, Neumaier's compensation keeps it; the mean is exactly 1/3.
    EXPECT_EQ(mean3({1e100, 1, -1e100}), 1.0 / 3.0);
    // Prometheus 2.x's incremental mean loses it: the two means differ, so the choice matters.
    EXPECT_NE(mean2({1e100, 1, -1e100}), 1.0 / 3.0);
    EXPECT_EQ(mean3({3.5}), 3.5);
    EXPECT_EQ(mean3({1, 2}), 1.5);
}

// Results that Prometheus 3.5's own PromQL tests expect of avg_over_time (promql/promqltest/testdata/functions.test
// at v3.5.0): the values below are theirs.
TEST(Prometheus3Mean, WhatPrometheus35sOwnTestsExpect) {
    // "foo 52+0x100": 11 to 14 samples of 52 average to exactly 52 (checked there with PromQL's == as well).
    for (std::size_t n : {10u, 11u, 12u, 13u, 14u}) EXPECT_EQ(mean3(std::vector<double>(n, 52.0)), 52.0) << n;
    EXPECT_EQ(mean3({9.988465674311579e+307, 9.988465674311579e+307}), 9.988465674311579e+307);  // metric8
    EXPECT_EQ(mean3({-9.988465674311579e+307, -9.988465674311579e+307, -9.988465674311579e+307}),
              -9.988465674311579e+307);                                                     // metric9
    EXPECT_EQ(mean3({-9.988465674311579e+307, 9.988465674311579e+307}), 0.0);               // metric10
    EXPECT_DOUBLE_EQ(mean3({1e10, 1e-6, 1e-6, 1e-6, 1e-6, 1e-6}), 1.6666666666666675e+09);  // metric1
    EXPECT_NEAR(mean3({1.78264E+50, 0.76342771, 1.9592258, 2.258E+220, 7.69805412, 458.90154}), 3.76333333333333E+219,
                1e-13 * 3.76333333333333E+219);  // metric5
    // metric11: the large values cancel exactly; Kahan summation still ends at 0 (the test says so).
    EXPECT_EQ(mean3({-2.258E+220, -1.78264E+219, 0.76342771, 1.9592258, 2.3757689E+217, -2.3757689E+217, 2.258E+220,
                     7.69805412, 1.78264E+219, -458.90154}),
              0.0);
    const double inf = std::numeric_limits<double>::infinity();
    EXPECT_EQ(mean3({inf, 0, inf}), inf);                     // metric5
    EXPECT_TRUE(std::isnan(mean3({inf, inf, inf, -inf})));    // metric5c
    EXPECT_EQ(mean3({-inf, 0, -inf}), -inf);                  // metric6b
    EXPECT_TRUE(std::isnan(mean3({1, 2, -inf, -inf, inf})));  // metric7
}

TEST(Prometheus3Mean, OverflowSwitchesToTheIncrementalMean) {
    // 1e308 + 1e308 overflows: the mean carries on incrementally and stays finite, 1e308 / 3 within rounding.
    const double m = mean3({1e308, 1e308, -1e308});
    ASSERT_TRUE(std::isfinite(m));
    EXPECT_NEAR(m, 1e308 / 3, 1e308 / 3 * 1e-15);
}

TEST(Prometheus3Mean, InfinitiesAndNaN) {
    const double inf = std::numeric_limits<double>::infinity();
    EXPECT_EQ(mean3({inf, 1, 2}), inf);
    EXPECT_EQ(mean3({1, -inf, 2}), -inf);
    EXPECT_TRUE(std::isnan(mean3({inf, -inf})));
    EXPECT_TRUE(std::isnan(mean3({1, std::nan(""), 2})));
}

// A sample of -10 exactly on a minute, amid 4.0 every minute: evaluated 30 minutes later, a closed [30m] window
// (Prometheus 2.x) still holds it, a left-open one (3.x) no longer does.
TEST(WindowSemantics, LeftEdgeSampleCountsOnlyInClosedWindows) {
    constexpr double kBase = 1795000000, kEdge = kBase + 30 * 3600;
    std::vector<Sample> raw;
    for (double t = kBase; t <= kBase + 2 * 86400; t += 60) raw.push_back({t, t == kEdge ? -10.0 : 4.0});
    const std::vector<double> times = {kEdge + 1740, kEdge + 1800, kEdge + 1860};
    AlertRule rule;  // [30m] < [1d] offset 2h - 0.2: the baseline (all 4.0) gives 3.8
    rule.windows = WindowSemantics::Prometheus2;
    // +29 min: both hold it; +30: closed [E, E+30m] has 31 samples, (30 * 4 - 10) / 31 = 3.55 < 3.8; +31: neither.
    EXPECT_EQ(evaluateAlertCondition(raw, times, rule), (std::vector<bool>{true, true, false}));
    rule.windows = WindowSemantics::Prometheus3;
    // +30: (E, E+30m] holds 30 samples of 4.0.
    EXPECT_EQ(evaluateAlertCondition(raw, times, rule), (std::vector<bool>{true, false, false}));
}

TEST(WindowSemantics, NamesParseBack) {
    for (auto w : {WindowSemantics::Prometheus2, WindowSemantics::Prometheus3})
        EXPECT_EQ(parseWindowSemantics(windowSemanticsName(w)), w);
    EXPECT_FALSE(parseWindowSemantics("prometheus4").has_value());
    EXPECT_FALSE(parseWindowSemantics("").has_value());
}

// --- Which server answers ----------------------------------------------------------------------------------------

std::string promSuccess(const std::string& data) {
    return R"({"status":"success","data":)" + data + "}";
}

TEST(BuildInfo, PrometheusVersionsDecideTheEdges) {
    // Debian 12's answer (shared/notes/data-formats.md §3.4).
    auto debian = classifyBuildInfo(
        200,
        promSuccess(
            R"({"version":"2.42.0+ds","revision":"2.42.0+ds-5+deb12u1","branch":"debian/sid",)"
            R"("buildUser":"team+pkg-go@tracker.debian.org","buildDate":"20260604-00:58:54","goVersion":"go1.19.8"})"));
    ASSERT_TRUE(debian.has_value());
    EXPECT_EQ(debian->backend, PrometheusBackend::Prometheus);
    EXPECT_EQ(debian->version, "2.42.0+ds");
    EXPECT_EQ(debian->description, "Prometheus 2.42.0+ds (revision 2.42.0+ds-5+deb12u1, go1.19.8)");
    EXPECT_EQ(debian->windows, WindowSemantics::Prometheus2);

    // The same fields from a 3.x build.
    auto three =
        classifyBuildInfo(200, promSuccess(R"({"version":"3.5.0","revision":"8be3a95","branch":"HEAD",)"
                                           R"("buildUser":"root@x","buildDate":"20250714","goVersion":"go1.24.5"})"));
    ASSERT_TRUE(three.has_value());
    EXPECT_EQ(three->backend, PrometheusBackend::Prometheus);
    EXPECT_EQ(three->windows, WindowSemantics::Prometheus3);
}

TEST(BuildInfo, ScaleOutBackends) {
    const std::string fields = R"("revision":"abc","branch":"HEAD","goVersion":"go1.23.1")";
    auto thanos = classifyBuildInfo(200, promSuccess(R"({"version":"0.37.2",)" + fields + "}"));
    ASSERT_TRUE(thanos.has_value());
    EXPECT_EQ(thanos->backend, PrometheusBackend::Thanos);
    EXPECT_EQ(thanos->windows, WindowSemantics::Prometheus3);
    EXPECT_EQ(classifyBuildInfo(200, promSuccess(R"({"version":"0.36.1",)" + fields + "}"))->windows,
              WindowSemantics::Prometheus2);

    auto mimir = classifyBuildInfo(200, promSuccess(R"({"application":"Grafana Mimir","version":"2.17.0",)" + fields +
                                                    R"(,"features":{"query_sharding":"true"}})"));
    ASSERT_TRUE(mimir.has_value());
    EXPECT_EQ(mimir->backend, PrometheusBackend::Mimir);
    EXPECT_EQ(mimir->description, "Grafana Mimir 2.17.0");
    EXPECT_EQ(mimir->windows, WindowSemantics::Prometheus3);
    EXPECT_EQ(
        classifyBuildInfo(200, promSuccess(R"({"application":"Grafana Mimir","version":"2.14.3",)" + fields + "}"))
            ->windows,
        WindowSemantics::Prometheus2);

    // VictoriaMetrics' placeholders: an empty object (v1.79, Debian 12's), or a fake Prometheus version (later).
    for (const std::string data : {"{}", R"({"version":"2.24.0"})"}) {
        auto vm = classifyBuildInfo(200, promSuccess(data));
        ASSERT_TRUE(vm.has_value()) << data;
        EXPECT_EQ(vm->backend, PrometheusBackend::VictoriaMetrics) << data;
        EXPECT_EQ(vm->windows, WindowSemantics::Prometheus3) << data;
    }
}

TEST(BuildInfo, NoBuildInfoIsUnknownAndErrorsSayNothing) {
    for (long status : {400L, 404L, 405L}) {
        auto none = classifyBuildInfo(status, "404 page not found\n");
        ASSERT_TRUE(none.has_value());
        EXPECT_EQ(none->backend, PrometheusBackend::Unknown);
        EXPECT_EQ(none->windows, WindowSemantics::Prometheus3);  // assumed current
        EXPECT_NE(none->description.find("HTTP " + std::to_string(status)), std::string::npos) << none->description;
    }
    EXPECT_EQ(classifyBuildInfo(200, "<html>a login page</html>")->backend, PrometheusBackend::Unknown);
    for (long status : {401L, 403L, 429L, 500L, 503L}) EXPECT_FALSE(classifyBuildInfo(status, "").has_value());
}

PrometheusSettings windowSettingsFor(const TestHttpServer& server) {
    PrometheusSettings s;
    s.baseUrl = server.baseUrl();
    s.http.maxRetries = 0;
    s.http.connectTimeoutS = 2;
    s.http.totalTimeoutS = 5;
    return s;
}

const char* const kEmptyMatrix = R"({"status":"success","data":{"resultType":"matrix","result":[]}})";

TEST(ServerInfo, AskedOncePerUrlWhileErrorsAreAskedAgain) {
    TestHttpServer vm([](const TestHttpServer::Request&) {
        return TestHttpServer::Reply::json(200, R"({"status":"success","data":{}})");
    });
    for (int i = 0; i < 3; ++i) {
        auto info = PrometheusClient(windowSettingsFor(vm)).serverInfo();
        ASSERT_TRUE(info.ok()) << info.error().message;
        EXPECT_EQ(info->backend, PrometheusBackend::VictoriaMetrics);
    }
    EXPECT_EQ(vm.requestCount(), 1u);

    TestHttpServer busy([](const TestHttpServer::Request&) {
        return TestHttpServer::Reply::json(503, R"({"status":"error","errorType":"unavailable","error":"busy"})");
    });
    EXPECT_FALSE(PrometheusClient(windowSettingsFor(busy)).serverInfo().ok());
    auto again = PrometheusClient(windowSettingsFor(busy)).serverInfo();
    ASSERT_FALSE(again.ok());
    EXPECT_EQ(again.error().message, "Prometheus at " + busy.url("/api/v1/status/buildinfo") +
                                         ": HTTP 503 (the server or a proxy in front of it is unavailable)");
    EXPECT_EQ(busy.requestCount(), 2u);

    // A gateway that guards the path: an unknown server, the queries get their own answer; asked again next time.
    TestHttpServer guarded([](const TestHttpServer::Request&) {
        return TestHttpServer::Reply{403, {{"Content-Type", "text/plain"}}, "forbidden\n"};
    });
    for (int i = 0; i < 2; ++i) {
        auto info = PrometheusClient(windowSettingsFor(guarded)).serverInfo();
        ASSERT_TRUE(info.ok()) << info.error().message;
        EXPECT_EQ(info->backend, PrometheusBackend::Unknown);
        EXPECT_EQ(info->windows, WindowSemantics::Prometheus3);
    }
    EXPECT_EQ(guarded.requestCount(), 2u);
}

TEST(ServerInfo, BackendParametersOnRangeQueries) {
    TestHttpServer server(
        [](const TestHttpServer::Request&) { return TestHttpServer::Reply::json(200, kEmptyMatrix); });
    auto settings = windowSettingsFor(server);
    for (auto backend :
         {PrometheusBackend::Prometheus, PrometheusBackend::VictoriaMetrics, PrometheusBackend::Thanos}) {
        settings.backend = backend;
        ASSERT_TRUE(PrometheusClient(settings).queryRange("up", 1000, 2000, 60).ok());
    }
    const auto requests = server.requests();
    ASSERT_EQ(requests.size(), 3u);
    EXPECT_FALSE(requests[0].queryValue("nocache").has_value());
    EXPECT_FALSE(requests[0].queryValue("dedup").has_value());
    EXPECT_EQ(requests[1].queryValue("nocache"), "1");  // VictoriaMetrics evaluates at exactly start + k * step
    EXPECT_FALSE(requests[1].queryValue("dedup").has_value());
    EXPECT_EQ(requests[2].queryValue("dedup"), "true");
    EXPECT_EQ(requests[2].queryValue("partial_response"), "false");
    EXPECT_FALSE(requests[2].queryValue("nocache").has_value());
}

// --- Newer servers' answers ----------------------------------------------------------------------------------------

TEST(NewerAnswers, InfosKeptBesideWarnings) {
    const std::string info = "PromQL info: metric might not be a counter, name does not end in _total: \"x\"";
    for (const std::string data : {R"({"resultType":"matrix","result":[{"metric":{},"values":[[1,"2"]]}]})",
                                   R"({"resultType":"vector","result":[{"metric":{},"value":[1,"2"]}]})"}) {
        auto r = parsePrometheusResponse(R"({"status":"success","data":)" + data + R"(,"warnings":["w"],"infos":[)" +
                                             nlohmann::json(info).dump() + "]}",
                                         200, "http://p/api/v1/query");
        ASSERT_TRUE(r.ok()) << r.error().message;
        EXPECT_EQ(r->warnings, (std::vector<std::string>{"w"}));
        EXPECT_EQ(r->infos, (std::vector<std::string>{info}));
    }
}

TEST(NewerAnswers, NotAcceptableAndClientClosedRequestExplained) {
    auto na = parsePrometheusResponse(
        R"({"status":"error","errorType":"not_acceptable","error":"cannot encode response as application/json"})", 406,
        "http://p/api/v1/query");
    ASSERT_FALSE(na.ok());
    EXPECT_EQ(na.error().message.rfind("Prometheus at http://p/api/v1/query: not_acceptable: cannot encode response "
                                       "as application/json (the server could not encode its answer",
                                       0),
              0u)
        << na.error().message;

    auto canceled = parsePrometheusResponse(R"({"status":"error","errorType":"canceled","error":"query was canceled"})",
                                            499, "http://p/api/v1/query_range");
    ASSERT_FALSE(canceled.ok());
    EXPECT_NE(canceled.error().message.find("canceled: query was canceled (the server stopped the query"),
              std::string::npos)
        << canceled.error().message;

    // A proxy's 499 without Prometheus JSON.
    auto proxy = parsePrometheusResponse("", 499, "http://p/api/v1/query_range");
    ASSERT_FALSE(proxy.ok());
    EXPECT_NE(proxy.error().message.find("HTTP 499 (client closed request:"), std::string::npos)
        << proxy.error().message;
    auto proxy406 = parsePrometheusResponse("<html>Not Acceptable</html>", 406, "http://p/api/v1/query_range");
    ASSERT_FALSE(proxy406.ok());
    EXPECT_NE(proxy406.error().message.find("HTTP 406 (not acceptable:"), std::string::npos)
        << proxy406.error().message;
}

// --- The comparison file -------------------------------------------------------------------------------------------

TimelineData langfuseTimeline() {
    TimelineData d;
    d.settings.from = 1795000000 + 30 * 3600;
    d.settings.to = d.settings.from + 3600;
    d.settings.step = 60;
    d.settings.qualitySource = QualitySource::Langfuse;
    d.settings.langfuseUrl = "https://langfuse.example";
    d.settings.fetchThroughput = false;
    Series q;
    // The edge case above: -10 at from + 5 min, 4.0 every other minute.
    for (double t = 1795000000; t <= d.settings.to; t += 60)
        q.samples.push_back({t, t == d.settings.from + 300 ? -10.0 : 4.0});
    d.quality = q;
    return d;
}

TEST(TimelineFile, OldFilesKeepClosedWindowsAndTheirBytes) {
    TimelineData d = langfuseTimeline();
    recomputeDerived(d);
    const Json j = timelineToJson(d);
    EXPECT_FALSE(j.contains("window_semantics"));
    EXPECT_FALSE(j.contains("server"));
    EXPECT_FALSE(j["settings"].contains("window_semantics"));
    auto back = parseTimelineJson(j, "timeline");
    ASSERT_TRUE(back.ok()) << back.error().message;
    EXPECT_EQ(back->settings.rule.windows, WindowSemantics::Prometheus2);
    EXPECT_FALSE(back->settings.windowSemantics.has_value());
    EXPECT_EQ(timelineToJson(*back), j);
    // Closed windows: pending from +5 min (the -10 enters) through +35 min inclusive, resolved at +36 min.
    ASSERT_EQ(back->alerts.size(), 1u);
    EXPECT_EQ(back->alerts[0].pendingAt, d.settings.from + 300);
    EXPECT_EQ(back->alerts[0].resolvedAt, std::optional<double>(d.settings.from + 300 + 1860));
}

TEST(TimelineFile, SemanticsServerAndSettingRoundTrip) {
    TimelineData d = langfuseTimeline();
    d.settings.windowSemantics = WindowSemantics::Prometheus3;
    d.settings.rule.windows = WindowSemantics::Prometheus3;
    d.windowSemanticsBasis = "set by the user";
    d.server = "VictoriaMetrics";
    recomputeDerived(d);
    // Left-open: the -10 leaves the window at exactly +30 min.
    ASSERT_EQ(d.alerts.size(), 1u);
    EXPECT_EQ(d.alerts[0].resolvedAt, std::optional<double>(d.settings.from + 300 + 1800));
    const Json j = timelineToJson(d);
    EXPECT_EQ(j.at("window_semantics"), "prometheus3");
    EXPECT_EQ(j.at("window_semantics_basis"), "set by the user");
    EXPECT_EQ(j.at("server"), "VictoriaMetrics");
    EXPECT_EQ(j.at("settings").at("window_semantics"), "prometheus3");
    auto back = parseTimelineJson(j, "timeline");
    ASSERT_TRUE(back.ok()) << back.error().message;
    EXPECT_EQ(back->settings.rule.windows, WindowSemantics::Prometheus3);
    EXPECT_EQ(back->settings.windowSemantics, WindowSemantics::Prometheus3);
    EXPECT_EQ(back->windowSemanticsBasis, "set by the user");
    EXPECT_EQ(back->server, "VictoriaMetrics");
    EXPECT_EQ(back->alerts, d.alerts);

    const TimelineReport r = evaluateTimeline(*back);
    EXPECT_EQ(timelineReportToJson(r).at("window_semantics"), "prometheus3");
    const std::string text = timelineReportToText(r, *back);
    EXPECT_NE(text.find("evaluated locally with Prometheus 3.x windows, left-open (t−r, t]"), std::string::npos)
        << text;
    EXPECT_NE(text.find("Prometheus API served by VictoriaMetrics"), std::string::npos) << text;

    Json bad = j;
    bad["window_semantics"] = "prometheus4";
    auto refused = parseTimelineJson(bad, "timeline");
    ASSERT_FALSE(refused.ok());
    EXPECT_EQ(refused.error().message, "timeline.window_semantics must be \"prometheus2\" or \"prometheus3\"");
    bad = j;
    bad["settings"]["window_semantics"] = 3;
    refused = parseTimelineJson(bad, "timeline");
    ASSERT_FALSE(refused.ok());
    EXPECT_EQ(refused.error().message, "timeline.settings.window_semantics must be \"prometheus2\" or \"prometheus3\"");
}

}  // namespace
}  // namespace fp8dash
