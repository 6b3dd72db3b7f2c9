// The timeline's figures, verdict and file form. Data built here, expected values worked out by hand.
#include "fp8dash/core/timeline.h"

#include <gtest/gtest.h>

#include "fp8dash/core/comparison_file.h"
#include "fp8dash/core/demo.h"
#include "test_paths.h"

namespace fp8dash {
namespace {

constexpr double kFrom = 1795000000;          // an arbitrary whole-minute start
constexpr double kChange = kFrom + 6 * 3600;  // FP8 on after 6 h
constexpr double kTo = kFrom + 12 * 3600;

// Throughput 1000 tok/s before the change and 1500 after, one sample a minute.
Series throughput() {
    Series s;
    for (double t = kFrom; t <= kTo; t += 60) s.samples.push_back({t, t < kChange ? 1000.0 : 1500.0});
    return s;
}

// Judge scores every 5 minutes from a day and 2 h before the range: 4.2, except `dip` after the change.
Series quality(double dip, double dipFrom, double dipTo) {
    Series s;
    for (double t = kFrom - 26 * 3600; t <= kTo; t += 300)
        s.samples.push_back({t, (t >= dipFrom && t < dipTo) ? dip : 4.2});
    return s;
}

TimelineData data(std::optional<Series> q) {
    TimelineData d;
    d.settings.from = kFrom;
    d.settings.to = kTo;
    d.settings.step = 60;
    d.settings.changeAt = kChange;
    d.settings.prometheusUrl = "http://prometheus.example:9090";
    d.settings.qualitySource = q ? QualitySource::Langfuse : QualitySource::None;
    d.settings.langfuseUrl = "https://langfuse.example";
    d.throughput = throughput();
    d.quality = std::move(q);
    recomputeDerived(d);
    return d;
}

TEST(Timeline, ThroughputAsExpectedQualityHeld) {
    const auto d = data(quality(4.15, kChange, kTo + 1));  // -0.05: within +-0.1
    const auto r = evaluateTimeline(d);
    EXPECT_DOUBLE_EQ(*r.throughput.beforeMean, 1000);
    EXPECT_DOUBLE_EQ(*r.throughput.afterMean, 1500);
    EXPECT_DOUBLE_EQ(*r.throughput.deltaPct(), 50);
    // Before: samples in [from, change); after: t >= change + 5 min.
    EXPECT_EQ(r.throughput.beforeCount, 360u);
    EXPECT_EQ(r.throughput.afterCount, 356u);  // 6 h of minutes (361 incl. both ends) less the first 5 minutes
    EXPECT_NEAR(*r.quality.deltaPoints(), -0.05, 1e-12);
    EXPECT_NE(r.throughputAssessment.find("within the expected +40–60%"), std::string::npos) << r.throughputAssessment;
    EXPECT_NE(r.qualityAssessment.find("held within ±0.1"), std::string::npos) << r.qualityAssessment;
    EXPECT_TRUE(r.alerts.empty());  // a 0.05 drop never crosses the 0.2 margin
    ASSERT_TRUE(r.verdict.has_value());
    EXPECT_EQ(*r.verdict, Verdict::Go);
}

TEST(Timeline, LastingDropFiresTheAlertAndIsInvestigate) {
    // 3.7 for two hours after the change: the 30-min mean falls 0.5 below the day's mean (4.2) -> pending at the
    // first evaluation where the 30-min window's mean < 4.0, firing 15 min later, resolved when it recovers.
    const double dipFrom = kChange + 3600, dipTo = kChange + 3 * 3600;
    const auto d = data(quality(3.7, dipFrom, dipTo));
    ASSERT_EQ(d.alertsEvaluatedBy, "local");
    ASSERT_EQ(d.alerts.size(), 1u);
    // Window [T-30m, T] of 5-minute scores: 7 samples. Mean < 4.0 once at least 3 are 3.7: (4*4.2 + 3*3.7)/7 = 3.986.
    // The third 3.7 sample is at dipFrom + 600, so pending at dipFrom + 600; firing 15 min later.
    EXPECT_DOUBLE_EQ(d.alerts[0].pendingAt, dipFrom + 600);
    EXPECT_DOUBLE_EQ(*d.alerts[0].firingAt, dipFrom + 600 + 900);
    // After the dip (last 3.7 sample at dipTo - 300) the day baseline also holds a few 3.7 samples.
    // T = dipTo + 900: window [dipTo-900, dipTo+900] has 7 samples, 3 at 3.7 -> 3.9857; baseline [T-26h, T-2h] has
    // 289 samples, 4 at 3.7 -> 4.19308, threshold 3.99308: still true.
    // T = dipTo + 960: window [dipTo-840, dipTo+960] has 6 samples, 2 at 3.7 -> 4.0333: false, so resolved here.
    EXPECT_DOUBLE_EQ(*d.alerts[0].resolvedAt, dipTo + 960);
    const auto r = evaluateTimeline(d);
    EXPECT_EQ(*r.verdict, Verdict::Investigate);
    EXPECT_NE(r.reasons.front().find("the quality alert fired"), std::string::npos) << r.reasons.front();
}

TEST(Timeline, QualityBands) {
    EXPECT_EQ(*evaluateTimeline(data(quality(4.0, kChange, kTo))).verdict, Verdict::Monitor);  // -0.2
    auto problem = data(quality(3.85, kChange, kTo));                                          // -0.35
    problem.alerts.clear();                                                                    // judge the band alone
    EXPECT_EQ(*evaluateTimeline(problem).verdict, Verdict::Investigate);
    EXPECT_EQ(*evaluateTimeline(data(quality(4.5, kChange, kTo))).verdict, Verdict::Go);  // a rise
}

TEST(Timeline, NoQualityOrNoChangeMeansNoVerdict) {
    auto throughputOnly = data(std::nullopt);
    const auto r = evaluateTimeline(throughputOnly);
    EXPECT_FALSE(r.verdict.has_value());
    EXPECT_DOUBLE_EQ(*r.throughput.deltaPct(), 50);
    auto noChange = data(quality(3.0, kChange, kTo));
    noChange.settings.changeAt.reset();
    noChange.detectedChange = DetectedChange{kChange, "auto", "fp8"};
    const auto r2 = evaluateTimeline(noChange);
    EXPECT_FALSE(r2.verdict.has_value());
    EXPECT_NE(r2.reasons.front().find("no change time"), std::string::npos);
    EXPECT_NE(r2.reasons.front().find("vLLM reports a switch"), std::string::npos);
}

TEST(Timeline, ThroughputBelowBandIsReported) {
    auto d = data(std::nullopt);
    for (auto& s : d.throughput->samples)
        if (s.t >= kChange) s.v = 1200;
    const auto r = evaluateTimeline(d);
    EXPECT_DOUBLE_EQ(*r.throughput.deltaPct(), 20);
    EXPECT_NE(r.throughputAssessment.find("below the expected"), std::string::npos);
}

TEST(TimelineFile, RoundTripKeepsSeriesSettingsAndNoSecrets) {
    auto d = data(quality(3.7, kChange + 3600, kChange + 3 * 3600));
    d.settings.traceTags = {"precision:fp8"};
    d.settings.prometheusAuth = "bearer";
    d.settings.prometheusHeaderNames = {"X-Scope-OrgID"};
    d.throughput->samples[3].v = std::nan("");
    d.detectedChange = DetectedChange{kChange - 60, "auto", "fp8"};
    ComparisonDocument doc;
    doc.hasEvals = false;
    doc.title = "timeline only";
    doc.timeline = d;
    test::TempDir dir;
    const auto path = dir.path() / "tl.fp8cmp";
    ASSERT_TRUE(saveComparisonFile(doc, path).ok());
    auto loaded = loadComparisonFile(path);
    ASSERT_TRUE(loaded.ok()) << loaded.error().message;
    EXPECT_FALSE(loaded->hasEvals);
    ASSERT_TRUE(loaded->timeline.has_value());
    const auto& t = *loaded->timeline;
    ASSERT_EQ(t.throughput->samples.size(), d.throughput->samples.size());
    EXPECT_TRUE(std::isnan(t.throughput->samples[3].v));
    EXPECT_EQ(t.quality->samples, d.quality->samples);
    EXPECT_EQ(t.alerts, d.alerts);
    EXPECT_EQ(t.settings.traceTags, d.settings.traceTags);
    EXPECT_EQ(t.settings.changeAt, d.settings.changeAt);
    EXPECT_EQ(t.detectedChange->to, "fp8");
    const std::string text = readTextFile(path).value();
    // Only the kind of auth is recorded; no field could hold a credential.
    EXPECT_NE(text.find(R"("prometheus_auth": "bearer")"), std::string::npos);
    for (const char* field : {"\"token\"", "\"password\"", "\"secret_key\"", "\"public_key\"", "\"authorization\""})
        EXPECT_EQ(text.find(field), std::string::npos) << field;
    auto decision = decide(*loaded);
    ASSERT_TRUE(decision.ok());
    EXPECT_EQ(*decision->verdict, Verdict::Investigate);
    EXPECT_FALSE(decision->evals.has_value());
}

TEST(TimelineFile, DecisionIsTheWorseOfEvalsAndProduction) {
    auto demo = loadDemoComparison().value();           // evals: investigate (gsm8k)
    demo.timeline = data(quality(4.15, kChange, kTo));  // production: go
    auto d = decide(demo).value();
    EXPECT_EQ(*d.verdict, Verdict::Investigate);
    EXPECT_EQ(d.reasons.front().rfind("offline evals:", 0), 0u);
    // An eval set that is go, with a production alert: investigate, production reasons first.
    auto b = parseLmEvalText(R"({"results": {"t": {"acc,none": 0.5}}})", "b").value();
    ComparisonOptions sameRun;  // one run against itself: refused unless allowed
    sameRun.allowIncomparable = true;
    auto doc = makeComparisonDocument({"BF16", "", b}, {"FP8", "", b}, sameRun);
    doc.timeline = data(quality(3.7, kChange + 3600, kChange + 3 * 3600));
    d = decide(doc).value();
    EXPECT_EQ(*d.verdict, Verdict::Investigate);
    EXPECT_EQ(d.reasons.front().rfind("production:", 0), 0u) << d.reasons.front();
    EXPECT_EQ(d.evals->verdict, Verdict::Go);
}

TEST(TimelineFile, BadSectionsNameTheField) {
    test::TempDir dir;
    ComparisonDocument doc;
    doc.hasEvals = false;
    doc.timeline = data(std::nullopt);
    Json j = toJson(doc);
    j["timeline"]["throughput"]["v"].erase(0);
    auto r = parseComparisonText(j.dump(), "x.fp8cmp");
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error().message.find("timeline.throughput: t has"), std::string::npos) << r.error().message;
    j = toJson(doc);
    j["timeline"]["settings"]["quality_source"] = "grafana";
    r = parseComparisonText(j.dump(), "x.fp8cmp");
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error().message.find("quality_source must be none, prometheus or langfuse"), std::string::npos);
    j = toJson(doc);
    j.erase("timeline");
    r = parseComparisonText(j.dump(), "x.fp8cmp");
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error().message.find("field runs is missing"), std::string::npos);
}

TEST(TimelineCredentials, FromTheEnvironment) {
    ::setenv("FP8DASH_PROMETHEUS_TOKEN", "tok-123", 1);
    ::setenv("FP8DASH_PROMETHEUS_HEADERS", "X-Scope-OrgID: tenant-a; X-Extra:  b ", 1);
    auto c = credentialsFromEnvironment();
    EXPECT_EQ(c.prometheusAuth.kind, HttpAuth::Kind::Bearer);
    EXPECT_EQ(c.prometheusAuth.token, "tok-123");
    ASSERT_EQ(c.prometheusHeaders.size(), 2u);
    EXPECT_EQ(c.prometheusHeaders[0], (std::pair<std::string, std::string>{"X-Scope-OrgID", "tenant-a"}));
    EXPECT_EQ(c.prometheusHeaders[1], (std::pair<std::string, std::string>{"X-Extra", "b"}));
    ::unsetenv("FP8DASH_PROMETHEUS_TOKEN");
    ::unsetenv("FP8DASH_PROMETHEUS_HEADERS");
}

// One parser for typed headers, the dialog's lines and the variable's ';' entries: the same rule, errors name the
// entry.
TEST(TimelineCredentials, HeaderListsOneRule) {
    using H = Headers;
    struct Case {
        const char* text;
        char separator;
        H headers;          // when it parses
        const char* error;  // else: the message's start
    };
    const Case cases[] = {
        {"", '\n', {}, nullptr},
        {"\n  \n", '\n', {}, nullptr},
        {"X-Scope-OrgID: tenant-a", '\n', {{"X-Scope-OrgID", "tenant-a"}}, nullptr},
        {" A :  1 \r\n\nB: x:y\n", '\n', {{"A", "1"}, {"B", "x:y"}}, nullptr},
        {"A: 1; B: 2", '\n', {{"A", "1; B: 2"}}, nullptr},  // a ';' is part of a line's value
        {"A: 1; B: 2", ';', {{"A", "1"}, {"B", "2"}}, nullptr},
        {"A:", ';', {{"A", ""}}, nullptr},
        {"A: 1\nno colon here", '\n', {}, "Extra headers, line 2: expected"},
        {"A: 1\n: value", '\n', {}, "Extra headers, line 2: expected"},
        {"A: 1;; B 2", ';', {}, "Extra headers, entry 3: expected"},
    };
    for (const Case& c : cases) {
        auto r = parseHeaderList(c.text, "Extra headers", c.separator);
        if (c.error) {
            ASSERT_FALSE(r.ok()) << c.text;
            EXPECT_EQ(r.error().message.rfind(c.error, 0), 0u) << r.error().message;
        } else {
            ASSERT_TRUE(r.ok()) << c.text << ": " << r.error().message;
            EXPECT_EQ(*r, c.headers) << c.text;
        }
    }
    // The variable: a bad entry is reported, none is used.
    ::setenv("FP8DASH_PROMETHEUS_HEADERS", "X-Scope-OrgID: tenant-a; oops", 1);
    auto c = credentialsFromEnvironment();
    EXPECT_TRUE(c.prometheusHeaders.empty());
    EXPECT_EQ(c.headersError.rfind("FP8DASH_PROMETHEUS_HEADERS, entry 2: expected", 0), 0u) << c.headersError;
    ::unsetenv("FP8DASH_PROMETHEUS_HEADERS");
}

}  // namespace
}  // namespace fp8dash
