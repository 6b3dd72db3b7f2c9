// The same six days of serving data in a real Prometheus (Debian's 2.42, backfilled by promtool) and a real
// VictoriaMetrics (Debian's 1.79, through its import API): the timeline gives the same before/after figures and alert
// episodes from both, each server's own evaluation of the alert expression agrees with fp8dash's local evaluation
// under that server's window semantics, and a sample on a window's edge shows where the two servers differ.
// Expected values follow from the generator's formulas (comments), not from the client.
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <ctime>
#include <iostream>
#include <memory>
#include <sstream>

#include "fp8dash/core/prometheus_client.h"
#include "fp8dash/core/time_series.h"
#include "fp8dash/core/timeline.h"
#include "langfuse_test_server.h"
#include "prometheus_server.h"
#include "victoria_metrics_server.h"

namespace fp8dash {
namespace {

constexpr double kHour = 3600, kMinute = 60;
constexpr double kSpan = 6 * 24 * kHour;           // samples from start to start + 6 days
constexpr double kChangeAt = 96 * kHour;           // FP8 on: 1000 -> 1500 tok/s
constexpr double kDropAt = kChangeAt + 2 * kHour;  // quality 4.0 -> 3.75 for good
constexpr double kEdgeAt = 48 * kHour;             // the edge probe's one low sample
constexpr double kScrape = 30;                     // the counters' scrape interval
constexpr double kScoreOffset = 7;                 // scores at start + 60 k + 7 s: never on an evaluation time
constexpr double kRateBefore[2] = {600, 400}, kRateAfter[2] = {900, 600};
const char* const kQuality = R"(langfuse_score_value{name="llm_judge_domain"})";
const char* const kEdgeProbe = R"(langfuse_score_value{name="edge_probe"})";

struct Point {
    double t;  // seconds since the start
    double v;
};
struct GeneratedSeries {
    std::string name;    // metric name
    std::string labels;  // {a="b"} or ""
    std::vector<Point> points;
};

double counterValue(int engine, double t) {
    if (t <= kChangeAt) return kRateBefore[engine] * t;
    return kRateBefore[engine] * kChangeAt + kRateAfter[engine] * (t - kChangeAt);
}
double quality(double t) {
    return t >= kDropAt ? 3.75 : 4.0;
}

std::vector<GeneratedSeries> generate() {
    std::vector<GeneratedSeries> out;
    for (int engine = 0; engine < 2; ++engine) {
        GeneratedSeries s{"vllm:generation_tokens_total",
                          "{engine=\"" + std::to_string(engine) + "\",model_name=\"llama-3.1-8b\"}",
                          {}};
        for (double t = 0; t <= kSpan; t += kScrape) s.points.push_back({t, counterValue(engine, t)});
        out.push_back(std::move(s));
    }
    GeneratedSeries q{"langfuse_score_value", R"({name="llm_judge_domain"})", {}};
    for (double t = kScoreOffset; t <= kSpan; t += kMinute) q.points.push_back({t, quality(t)});
    out.push_back(std::move(q));
    // 4.0 every minute on the minute, one -10 at kEdgeAt: the windows' left edge decides (EdgeSample... below).
    GeneratedSeries e{"langfuse_score_value", R"({name="edge_probe"})", {}};
    for (double t = 0; t <= 3 * 24 * kHour; t += kMinute) e.points.push_back({t, t == kEdgeAt ? -10.0 : 4.0});
    out.push_back(std::move(e));
    return out;
}

// OpenMetrics for promtool (seconds) and Prometheus text for VictoriaMetrics' import (milliseconds).
std::string openMetrics(const std::vector<GeneratedSeries>& all, double start) {
    std::ostringstream om;
    om << "# TYPE vllm:generation_tokens counter\n";
    for (const auto& s : all)
        if (s.name == "vllm:generation_tokens_total")
            for (const auto& p : s.points)
                om << s.name << s.labels << ' ' << test::openMetricsNumber(p.v) << ' '
                   << test::openMetricsNumber(start + p.t) << '\n';
    om << "# TYPE langfuse_score_value gauge\n";
    for (const auto& s : all)
        if (s.name == "langfuse_score_value")
            for (const auto& p : s.points)
                om << s.name << s.labels << ' ' << test::openMetricsNumber(p.v) << ' '
                   << test::openMetricsNumber(start + p.t) << '\n';
    om << "# EOF\n";
    return om.str();
}

std::string prometheusText(const std::vector<GeneratedSeries>& all, double start) {
    std::ostringstream text;
    for (const auto& s : all)
        for (const auto& p : s.points)
            text << s.name << s.labels << ' ' << test::openMetricsNumber(p.v) << ' '
                 << std::llround((start + p.t) * 1000) << '\n';
    return text.str();
}

std::vector<Sample> rawSamples(const std::vector<GeneratedSeries>& all, const std::string& labels, double start) {
    std::vector<Sample> out;
    for (const auto& s : all)
        if (s.labels == labels)
            for (const auto& p : s.points) out.push_back({start + p.t, p.v});
    return out;
}

class BackendsLive : public ::testing::Test {
protected:
    static void SetUpTestSuite() {
        s_skip = test::PrometheusServer::unavailableReason();
        if (s_skip.empty()) s_skip = test::VictoriaMetricsServer::unavailableReason();
        if (!s_skip.empty()) return;
        const auto now = static_cast<double>(std::time(nullptr));
        s_start = std::floor(now / kHour) * kHour - 7 * 24 * kHour;  // older than the head block, inside retention
        s_data = generate();
        auto began = std::chrono::steady_clock::now();
        test::PrometheusServerOptions p;
        p.openMetrics = openMetrics(s_data, s_start);
        p.maxBlockDuration = "24h";  // 7 blocks instead of 72: seconds less to backfill and open
        s_prometheus = std::make_unique<test::PrometheusServer>(p);
        const double promS = std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
        began = std::chrono::steady_clock::now();
        test::VictoriaMetricsServerOptions v;
        v.prometheusText = prometheusText(s_data, s_start);
        s_victoria = std::make_unique<test::VictoriaMetricsServer>(v);
        std::cerr << "[backends] prometheus backfill + start " << promS << " s, victoria-metrics start + import "
                  << std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count() << " s\n";
    }
    static void TearDownTestSuite() {
        s_prometheus.reset();
        s_victoria.reset();
    }
    void SetUp() override {
        if (!s_skip.empty()) GTEST_SKIP() << s_skip;
        ASSERT_TRUE(s_prometheus->ok()) << s_prometheus->error();
        ASSERT_TRUE(s_victoria->ok()) << s_victoria->error();
    }

    static double at(double sinceStart) { return s_start + sinceStart; }
    static std::vector<std::string> urls() { return {s_prometheus->baseUrl(), s_victoria->baseUrl()}; }
    static PrometheusClient client(const std::string& url, PrometheusBackend backend) {
        PrometheusSettings s;
        s.baseUrl = url;
        s.backend = backend;
        return PrometheusClient(s);
    }

    static inline std::string s_skip;
    static inline double s_start = 0;
    static inline std::vector<GeneratedSeries> s_data;
    static inline std::unique_ptr<test::PrometheusServer> s_prometheus;
    static inline std::unique_ptr<test::VictoriaMetricsServer> s_victoria;
};

TEST_F(BackendsLive, EachServerIsIdentifiedWithItsWindows) {
    auto prom = client(s_prometheus->baseUrl(), PrometheusBackend::Unknown).serverInfo();
    ASSERT_TRUE(prom.ok()) << prom.error().message;
    EXPECT_EQ(prom->backend, PrometheusBackend::Prometheus);
    EXPECT_EQ(prom->version.rfind("2.42.", 0), 0u) << prom->version;
    EXPECT_EQ(prom->windows, WindowSemantics::Prometheus2);

    auto vm = client(s_victoria->baseUrl(), PrometheusBackend::Unknown).serverInfo();
    ASSERT_TRUE(vm.ok()) << vm.error().message;
    EXPECT_EQ(vm->backend, PrometheusBackend::VictoriaMetrics);
    EXPECT_EQ(vm->description, "VictoriaMetrics");
    EXPECT_EQ(vm->windows, WindowSemantics::Prometheus3);
    auto named = client(s_victoria->baseUrl(), PrometheusBackend::Unknown).buildInfo();
    ASSERT_TRUE(named.ok()) << named.error().message;
    EXPECT_EQ(*named, "VictoriaMetrics");
}

// With its cache on, VictoriaMetrics moves a range's start down to a multiple of the step (for 50 points and more);
// nocache=1, sent for VictoriaMetrics, keeps the evaluation times where the timeline's alert expects them.
TEST_F(BackendsLive, VictoriaMetricsEvaluatesAtTheRequestedTimes) {
    const double step = 300, from = at(kChangeAt - 10 * kHour) + 120, to = from + 99 * step;
    const auto times = evaluationTimes(from, to, step);
    auto ours = client(s_victoria->baseUrl(), PrometheusBackend::VictoriaMetrics).queryRange(kQuality, from, to, step);
    ASSERT_TRUE(ours.ok()) << ours.error().message;
    ASSERT_EQ(ours->series.size(), 1u);
    std::vector<double> got;
    for (const auto& s : ours->series[0].samples) got.push_back(s.t);
    EXPECT_EQ(got, times);
    auto cached = client(s_victoria->baseUrl(), PrometheusBackend::Unknown).queryRange(kQuality, from, to, step);
    ASSERT_TRUE(cached.ok()) << cached.error().message;
    ASSERT_EQ(cached->series.size(), 1u);
    // With its cache on, VictoriaMetrics rounds the start down to a multiple of the step (from - 120 here): that
    // sample lies before the range asked for, so the client drops it with a notice (issue 26); the rest stay on the
    // server's own grid.
    ASSERT_FALSE(cached->series[0].samples.empty());
    EXPECT_EQ(cached->series[0].samples.front().t, from - 120 + step);
    ASSERT_EQ(cached->notices.size(), 1u);
    EXPECT_NE(cached->notices[0].find("1 sample of 1 series"), std::string::npos) << cached->notices[0];
    EXPECT_NE(cached->notices[0].find("outside the requested range"), std::string::npos) << cached->notices[0];
}

TimelineSettings scenario(const std::string& url, double start) {
    TimelineSettings st;
    st.prometheusUrl = url;
    st.from = start + 27 * kHour;
    st.to = start + 132 * kHour;
    st.step = 300;
    st.changeAt = start + kChangeAt;
    st.qualitySource = QualitySource::Prometheus;
    st.qualityQuery = kQuality;
    return st;
}

TEST_F(BackendsLive, SameFiguresAndAlertEpisodesFromBothServers) {
    std::vector<TimelineData> fetched;
    for (const auto& url : urls()) {
        auto d = fetchTimeline(scenario(url, s_start), TimelineCredentials{});
        ASSERT_TRUE(d.ok()) << url << ": " << d.error().message;
        fetched.push_back(std::move(d).value());
    }
    EXPECT_EQ(fetched[0].server.rfind("Prometheus 2.42.", 0), 0u) << fetched[0].server;
    EXPECT_EQ(fetched[1].server, "VictoriaMetrics");
    EXPECT_EQ(fetched[0].settings.rule.windows, WindowSemantics::Prometheus2);
    EXPECT_EQ(fetched[1].settings.rule.windows, WindowSemantics::Prometheus3);

    // Quality at each evaluation time T is the latest score, the one at T - 53 s (scores at 60 k + 7 s, T on the
    // 300 s grid): 4.0 before the change, 3.75 from the drop (2 h after it) on.
    const auto st = scenario("", s_start);
    double beforeSum = 0, afterSum = 0;
    std::size_t beforeN = 0, afterN = 0;
    for (double T : evaluationTimes(st.from, st.to, st.step)) {
        const double v = quality(T - 53 - s_start);
        if (T < *st.changeAt)
            beforeSum += v, ++beforeN;
        else if (T >= *st.changeAt + 300)
            afterSum += v, ++afterN;
    }
    // The alert, by hand: the 30-minute window holds 30 scores, k of them 3.75 at drop + k minutes; it is below
    // 4.0 - 0.2 once k >= 25 (drop + 25 min, on the grid), fires 15 minutes later; it clears once the 1-day baseline
    // (offset 2 h) holds M >= 288 minutes of drop (4 - 0.25 M / 1440 - 0.2 <= 3.75): M = 285 at drop + 405 min still
    // holds, M = 290 at drop + 410 min does not.
    const std::vector<AlertEpisode> expected = {
        {at(kDropAt + 25 * kMinute), at(kDropAt + 40 * kMinute), at(kDropAt + 410 * kMinute)}};
    for (const TimelineData& d : fetched) {
        SCOPED_TRACE(d.server);
        EXPECT_EQ(d.alertsEvaluatedBy, "prometheus");
        EXPECT_EQ(d.alerts, expected);
        const TimelineReport r = evaluateTimeline(d);
        EXPECT_NEAR(*r.throughput.beforeMean, 1000, 1e-6);
        EXPECT_NEAR(*r.throughput.afterMean, 1500, 1e-6);
        EXPECT_EQ(r.quality.beforeCount, beforeN);
        EXPECT_EQ(r.quality.afterCount, afterN);
        EXPECT_NEAR(*r.quality.beforeMean, beforeSum / static_cast<double>(beforeN), 1e-12);
        EXPECT_NEAR(*r.quality.afterMean, afterSum / static_cast<double>(afterN), 1e-12);
        EXPECT_EQ(*r.verdict, Verdict::Investigate);  // the alert fired after the change

        // The server's own evaluation equals fp8dash's over the raw scores with that server's windows.
        AlertRule rule = d.settings.rule;
        const auto times = evaluationTimes(st.from, st.to, st.step);
        const auto local =
            evaluateAlertCondition(rawSamples(s_data, R"({name="llm_judge_domain"})", s_start), times, rule);
        EXPECT_EQ(alertEpisodes(times, local, rule.holdForS), d.alerts);
    }
    const auto a = evaluateTimeline(fetched[0]), b = evaluateTimeline(fetched[1]);
    EXPECT_NEAR(*a.throughput.deltaPct(), *b.throughput.deltaPct(), 1e-9);
    EXPECT_EQ(a.quality.beforeMean, b.quality.beforeMean);
    EXPECT_EQ(a.quality.afterMean, b.quality.afterMean);
}

// A sample exactly on the [30m] window's left edge, 30 minutes after it: Prometheus 2.42 still counts it (closed
// windows), VictoriaMetrics does not (left-open, as Prometheus 3); fp8dash's local evaluation follows each.
TEST_F(BackendsLive, EdgeSampleFollowsEachServersWindows) {
    const AlertRule base;
    const double from = at(kEdgeAt - kHour), to = at(kEdgeAt + kHour), step = 300;
    const auto times = evaluationTimes(from, to, step);
    const auto raw = rawSamples(s_data, R"({name="edge_probe"})", s_start);
    std::vector<std::vector<bool>> byServer;
    for (const auto& [url, backend] : {std::pair{s_prometheus->baseUrl(), PrometheusBackend::Prometheus},
                                       std::pair{s_victoria->baseUrl(), PrometheusBackend::VictoriaMetrics}}) {
        auto r = client(url, backend).queryRange(base.promql(kEdgeProbe), from, to, step);
        ASSERT_TRUE(r.ok()) << url << ": " << r.error().message;
        std::vector<bool> condition(times.size(), false);
        for (const auto& s : r->series)
            for (const auto& p : s.samples)
                condition[static_cast<std::size_t>(std::llround((p.t - from) / step))] = true;
        byServer.push_back(condition);
    }
    // By hand: from the -10 at E on, the window holds it: (30 * 4 - 10) / 31 or (29 * 4 - 10) / 30, both below 3.8.
    // At E + 30 min the closed window still holds it, the left-open one not.
    std::vector<bool> closed(times.size(), false), open(times.size(), false);
    for (std::size_t i = 0; i < times.size(); ++i) {
        const double sinceEdge = times[i] - at(kEdgeAt);
        closed[i] = sinceEdge >= 0 && sinceEdge <= 30 * kMinute;
        open[i] = sinceEdge >= 0 && sinceEdge < 30 * kMinute;
    }
    EXPECT_EQ(byServer[0], closed);  // Prometheus 2.42
    EXPECT_EQ(byServer[1], open);    // VictoriaMetrics
    AlertRule rule = base;
    rule.windows = WindowSemantics::Prometheus2;
    EXPECT_EQ(evaluateAlertCondition(raw, times, rule), closed);
    rule.windows = WindowSemantics::Prometheus3;
    EXPECT_EQ(evaluateAlertCondition(raw, times, rule), open);
}

// Langfuse scores evaluated locally: with the same edge-probe scores, the semantics come from the Prometheus that
// serves throughput (2.42: closed), with no Prometheus from current Prometheus 3 (left-open), and the setting wins.
TEST_F(BackendsLive, LocalEvaluationTakesTheServersSemanticsOrTheSetting) {
    std::vector<test::LangfuseSeedScore> scores;
    for (const auto& p : rawSamples(s_data, R"({name="edge_probe"})", s_start)) {
        test::LangfuseSeedScore sc;
        sc.id = "s-" + test::openMetricsNumber(p.t);
        sc.traceId = "t-" + test::openMetricsNumber(p.t);
        sc.timestamp = p.t;
        sc.value = p.v;
        scores.push_back(sc);
    }
    test::LangfuseTestServer langfuse(scores);
    TimelineCredentials cred;
    cred.langfusePublicKey = langfuse.options().publicKey;
    cred.langfuseSecretKey = langfuse.options().secretKey;
    TimelineSettings st;
    st.qualitySource = QualitySource::Langfuse;
    st.langfuseUrl = langfuse.baseUrl();
    st.from = at(kEdgeAt - kHour);
    st.to = at(kEdgeAt + kHour);
    st.step = 300;
    const double edge = at(kEdgeAt);
    // Closed: pending at E, firing at E + 15 min, resolved at E + 35 min; left-open: resolved at E + 30 min.
    const AlertEpisode closed{edge, edge + 15 * kMinute, edge + 35 * kMinute};
    const AlertEpisode open{edge, edge + 15 * kMinute, edge + 30 * kMinute};

    st.fetchThroughput = false;
    auto alone = fetchTimeline(st, cred);
    ASSERT_TRUE(alone.ok()) << alone.error().message;
    EXPECT_EQ(alone->settings.rule.windows, WindowSemantics::Prometheus3);
    EXPECT_EQ(alone->windowSemanticsBasis, "no Prometheus: current Prometheus 3 semantics");
    EXPECT_EQ(alone->alerts, std::vector<AlertEpisode>{open});

    st.prometheusUrl = s_prometheus->baseUrl();
    st.fetchThroughput = true;
    auto withPrometheus = fetchTimeline(st, cred);
    ASSERT_TRUE(withPrometheus.ok()) << withPrometheus.error().message;
    EXPECT_EQ(withPrometheus->settings.rule.windows, WindowSemantics::Prometheus2);
    EXPECT_EQ(withPrometheus->alerts, std::vector<AlertEpisode>{closed});

    st.windowSemantics = WindowSemantics::Prometheus3;
    auto overridden = fetchTimeline(st, cred);
    ASSERT_TRUE(overridden.ok()) << overridden.error().message;
    EXPECT_EQ(overridden->settings.rule.windows, WindowSemantics::Prometheus3);
    EXPECT_EQ(overridden->windowSemanticsBasis, "set by the user (the server's own: prometheus2)");
    EXPECT_EQ(overridden->alerts, std::vector<AlertEpisode>{open});
    // Saved and loaded: the alerts are recomputed under the recorded semantics.
    auto loaded = parseTimelineJson(timelineToJson(*overridden), "timeline");
    ASSERT_TRUE(loaded.ok()) << loaded.error().message;
    EXPECT_EQ(loaded->alerts, std::vector<AlertEpisode>{open});
}

}  // namespace
}  // namespace fp8dash
