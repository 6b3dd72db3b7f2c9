// fp8dash exporter's counters (issue 28) against the project's Langfuse test server: each finished minute added once
// (the Metrics API on v4, the raw scores where a server has none), the grace for late scores, failures that keep
// the counters and count in the health series, and the text exposition read back by a parser written here.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "fp8dash/core/langfuse_client.h"
#include "fp8dash/core/langfuse_exporter.h"
#include "hostile_strings.h"
#include "langfuse_test_server.h"
#include "prometheus_exposition.h"

namespace fp8dash {
namespace {

constexpr double kExporterT0 = 1795824000;  // 2026-11-28T00:00:00Z, on the minute
constexpr double kExporterMinute = 60;

// Scores over minutes -1 .. 13 from kExporterT0: several per minute, two tags, two environments, values on a quarter
// grid and some not, one at a minute's last instant (late in its minute, not late to Langfuse).
std::vector<test::LangfuseSeedScore> exporterSeed() {
    std::vector<test::LangfuseSeedScore> out;
    int n = 0;
    for (int minute = -1; minute <= 13; ++minute)
        for (int k = 0; k < 4; ++k, ++n) {
            test::LangfuseSeedScore s;
            s.id = "s" + std::to_string(n);
            s.traceId = "t" + std::to_string(n);
            s.timestamp = kExporterT0 + minute * kExporterMinute + (k == 3 ? 59.5 : 7.0 + 13.0 * k);
            s.value = 1 + std::fmod(n * 0.37 + k * 1.1, 4.0);
            s.traceTags = {n % 3 == 0 ? "precision:bf16" : "precision:fp8", "app:x"};
            s.environment = n % 4 == 1 ? "staging" : "production";
            out.push_back(s);
        }
    return out;
}

struct ExporterExpected {
    long double sum = 0;
    double count = 0;
};

// The selection's scores in [from, to), counted here from the seed.
ExporterExpected exporterExpected(const std::vector<test::LangfuseSeedScore>& scores, const ExporterSelection& sel,
                                  double from, double to) {
    ExporterExpected e;
    for (const auto& s : scores) {
        if (s.name != sel.scoreName || s.timestamp < from || s.timestamp >= to) continue;
        bool tags = true;
        for (const auto& t : sel.traceTags)
            tags = tags && std::find(s.traceTags.begin(), s.traceTags.end(), t) != s.traceTags.end();
        const bool env = sel.environments.empty() || std::find(sel.environments.begin(), sel.environments.end(),
                                                               s.environment) != sel.environments.end();
        if (tags && env) e.sum += s.value, e.count += 1;
    }
    return e;
}

LangfuseSettings exporterSettingsFor(const test::LangfuseTestServer& server, const std::string& secret = "") {
    LangfuseSettings s;
    s.baseUrl = server.baseUrl();
    s.publicKey = server.options().publicKey;
    s.secretKey = secret.empty() ? server.options().secretKey : secret;
    s.http.maxRetries = 1;
    s.http.retryBaseDelayS = 0.01;
    s.http.totalTimeoutS = 10;
    return s;
}

test::LangfuseTestServer::Options exporterPersonality(test::LangfuseTestServer::Personality p) {
    test::LangfuseTestServer::Options o;
    o.personality = p;
    return o;
}

class ExporterCountersTest : public ::testing::TestWithParam<test::LangfuseTestServer::Personality> {
protected:
    void SetUp() override { forgetLangfuseServers(); }
};

TEST_P(ExporterCountersTest, EachFinishedMinuteOnceAfterTheGrace) {
    const auto scores = exporterSeed();
    test::LangfuseTestServer server(scores, exporterPersonality(GetParam()));
    const LangfuseClient client(exporterSettingsFor(server));
    const ExporterSelection sel{"llm_judge_domain", {"precision:fp8"}, {"production"}};
    LangfuseScoreCounters counters({sel}, kExporterT0 + 20, kExporterGraceSeconds);  // floored to kExporterT0
    ASSERT_EQ(counters.snapshot().front().countedTo, kExporterT0);

    // 5 minutes ended, the grace after them too (the 5th ended 120 s ago, to the second): they are added.
    ASSERT_TRUE(counters.update(client, kExporterT0 + 5 * kExporterMinute + 120).ok());
    auto c = counters.snapshot().front();
    ExporterExpected want = exporterExpected(scores, sel, kExporterT0, kExporterT0 + 5 * kExporterMinute);
    ASSERT_GT(want.count, 3);
    EXPECT_EQ(c.count, want.count);
    EXPECT_NEAR(static_cast<double>(c.sum), static_cast<double>(want.sum), 1e-9 * static_cast<double>(want.sum));
    EXPECT_EQ(c.countedTo, kExporterT0 + 5 * kExporterMinute);
    EXPECT_EQ(c.mode, GetParam() == test::LangfuseTestServer::Personality::V4 ? "metrics-api" : "raw scores");

    // A second before the 6th minute's grace is over: nothing more, and nothing asked.
    const std::size_t asked = server.requestCount();
    ASSERT_TRUE(counters.update(client, kExporterT0 + 6 * kExporterMinute + 119).ok());
    EXPECT_EQ(counters.snapshot().front().count, want.count);
    EXPECT_EQ(server.requestCount(), asked);

    // Later: the minutes up to 12 added, each once (the total equals the scores of [kExporterT0, kExporterT0 + 12 min)
    // exactly once).
    ASSERT_TRUE(counters.update(client, kExporterT0 + 12 * kExporterMinute + 150).ok());
    c = counters.snapshot().front();
    want = exporterExpected(scores, sel, kExporterT0, kExporterT0 + 12 * kExporterMinute);
    EXPECT_EQ(c.count, want.count);
    EXPECT_NEAR(static_cast<double>(c.sum), static_cast<double>(want.sum), 1e-9 * static_cast<double>(want.sum));
    EXPECT_EQ(c.countedTo, kExporterT0 + 12 * kExporterMinute);

    // What /metrics serves says the same.
    const auto samples = test::parseExposition(counters.exposition());
    const test::Sample* sum = test::findSample(samples, "fp8dash_langfuse_score_sum");
    const test::Sample* count = test::findSample(samples, "fp8dash_langfuse_score_count");
    ASSERT_TRUE(sum && count);
    const std::map<std::string, std::string> labels{
        {"score_name", "llm_judge_domain"}, {"tag", "precision:fp8"}, {"environment", "production"}};
    EXPECT_EQ(sum->labels, labels);
    EXPECT_EQ(count->labels, labels);
    EXPECT_EQ(count->value, want.count);
    EXPECT_NEAR(sum->value, static_cast<double>(want.sum), 1e-9 * static_cast<double>(want.sum));
    ASSERT_TRUE(test::findSample(samples, "fp8dash_exporter_up"));
    EXPECT_EQ(test::findSample(samples, "fp8dash_exporter_up")->value, 1);
    EXPECT_EQ(test::findSample(samples, "fp8dash_exporter_fetch_errors_total")->value, 0);
    EXPECT_TRUE(test::findSample(samples, "fp8dash_exporter_last_success_timestamp_seconds"));
    EXPECT_EQ(test::findSample(samples, "fp8dash_exporter_counted_until_timestamp_seconds")->value,
              kExporterT0 + 12 * kExporterMinute);
}

INSTANTIATE_TEST_SUITE_P(Servers, ExporterCountersTest,
                         ::testing::Values(test::LangfuseTestServer::Personality::V4,
                                           test::LangfuseTestServer::Personality::V3WithV2,
                                           test::LangfuseTestServer::Personality::V3Before180),
                         [](const auto& info) {
                             return info.param == test::LangfuseTestServer::Personality::V4
                                        ? std::string("V4MetricsApi")
                                    : info.param == test::LangfuseTestServer::Personality::V3WithV2
                                        ? std::string("V3RawScores")
                                        : std::string("V3Before180RawScores");
                         });

// Several selections: each its own series; one without tags or environments carries only score_name.
TEST(ExporterCountersSelections, EachSelectionItsOwnSeries) {
    forgetLangfuseServers();
    const auto scores = exporterSeed();
    test::LangfuseTestServer server(scores, exporterPersonality(test::LangfuseTestServer::Personality::V4));
    const LangfuseClient client(exporterSettingsFor(server));
    const std::vector<ExporterSelection> sels = {{"llm_judge_domain", {}, {}},
                                                 {"llm_judge_domain", {"precision:bf16", "app:x"}, {}},
                                                 {"llm_judge_domain", {}, {"staging", "production"}}};
    LangfuseScoreCounters counters(sels, kExporterT0 - kExporterMinute);
    ASSERT_TRUE(counters.update(client, kExporterT0 + 14 * kExporterMinute + 120).ok());
    const auto samples = test::parseExposition(counters.exposition());
    std::vector<const test::Sample*> counts;
    for (const auto& s : samples)
        if (s.name == "fp8dash_langfuse_score_count") counts.push_back(&s);
    ASSERT_EQ(counts.size(), 3u);
    EXPECT_EQ(counts[0]->labels, (std::map<std::string, std::string>{{"score_name", "llm_judge_domain"}}));
    EXPECT_EQ(counts[1]->labels, (std::map<std::string, std::string>{{"score_name", "llm_judge_domain"},
                                                                     {"tag", "precision:bf16,app:x"}}));
    EXPECT_EQ(counts[2]->labels, (std::map<std::string, std::string>{{"score_name", "llm_judge_domain"},
                                                                     {"environment", "staging,production"}}));
    for (std::size_t i = 0; i < sels.size(); ++i)
        EXPECT_EQ(
            counts[i]->value,
            exporterExpected(scores, sels[i], kExporterT0 - kExporterMinute, kExporterT0 + 14 * kExporterMinute).count)
            << i;
    EXPECT_EQ(counts[0]->value, static_cast<double>(scores.size()));  // every score, the first minute's too
}

// Wrong keys and an outage: the update fails with a message naming the server, the counters and the cursor stay,
// the health series say so; once Langfuse answers again every minute missed is added (nothing lost, nothing twice).
TEST(ExporterCountersFailures, AFailedFetchKeepsTheCountersAndIsCounted) {
    forgetLangfuseServers();
    const auto scores = exporterSeed();
    test::LangfuseTestServer server(scores, exporterPersonality(test::LangfuseTestServer::Personality::V4));
    const ExporterSelection sel{"llm_judge_domain", {}, {"production"}};
    LangfuseScoreCounters counters({sel}, kExporterT0);

    // Before any minute is due, the first update still reads Langfuse: wrong keys show at once.
    const LangfuseClient wrong(exporterSettingsFor(server, "sk-lf-wrong"));
    const Status bad = counters.update(wrong, kExporterT0 + 30);
    ASSERT_FALSE(bad.ok());
    EXPECT_NE(bad.error().message.find(server.baseUrl()), std::string::npos) << bad.error().message;
    EXPECT_EQ(bad.error().message.find("sk-lf-wrong"), std::string::npos) << bad.error().message;
    auto samples = test::parseExposition(counters.exposition());
    EXPECT_EQ(test::findSample(samples, "fp8dash_exporter_up")->value, 0);
    EXPECT_EQ(test::findSample(samples, "fp8dash_exporter_fetch_errors_total")->value, 1);
    EXPECT_FALSE(test::findSample(samples, "fp8dash_exporter_last_success_timestamp_seconds"));

    const LangfuseClient client(exporterSettingsFor(server));
    ASSERT_TRUE(counters.update(client, kExporterT0 + 3 * kExporterMinute + 120).ok());
    EXPECT_EQ(counters.snapshot().front().count,
              exporterExpected(scores, sel, kExporterT0, kExporterT0 + 3 * kExporterMinute).count);

    server.setUnavailable(true);
    ASSERT_FALSE(counters.update(client, kExporterT0 + 8 * kExporterMinute + 120).ok());
    EXPECT_EQ(counters.snapshot().front().countedTo, kExporterT0 + 3 * kExporterMinute);
    EXPECT_EQ(counters.snapshot().front().count,
              exporterExpected(scores, sel, kExporterT0, kExporterT0 + 3 * kExporterMinute).count);
    samples = test::parseExposition(counters.exposition());
    EXPECT_EQ(test::findSample(samples, "fp8dash_exporter_up")->value, 0);
    EXPECT_EQ(test::findSample(samples, "fp8dash_exporter_fetch_errors_total")->value, 2);

    server.setUnavailable(false);
    ASSERT_TRUE(counters.update(client, kExporterT0 + 10 * kExporterMinute + 120).ok());
    const ExporterExpected want = exporterExpected(scores, sel, kExporterT0, kExporterT0 + 10 * kExporterMinute);
    EXPECT_EQ(counters.snapshot().front().count, want.count);
    EXPECT_NEAR(static_cast<double>(counters.snapshot().front().sum), static_cast<double>(want.sum), 1e-9 * 100);
    samples = test::parseExposition(counters.exposition());
    EXPECT_EQ(test::findSample(samples, "fp8dash_exporter_up")->value, 1);
    EXPECT_EQ(test::findSample(samples, "fp8dash_exporter_fetch_errors_total")->value, 2);
}

// Langfuse's rate limit (429 + Retry-After) is waited out by the client and the minutes are counted all the same.
TEST(ExporterCountersFailures, ARateLimitIsWaitedOut) {
    forgetLangfuseServers();
    const auto scores = exporterSeed();
    auto options = exporterPersonality(test::LangfuseTestServer::Personality::V4);
    options.rateLimitFirst = 1;
    options.retryAfterS = 1;
    test::LangfuseTestServer server(scores, options);
    const LangfuseSettings settings = exporterSettingsFor(server);
    const ExporterSelection sel{"llm_judge_domain", {}, {}};
    LangfuseScoreCounters counters({sel}, kExporterT0);
    ASSERT_TRUE(counters.update(LangfuseClient(settings), kExporterT0 + 4 * kExporterMinute + 120).ok());
    EXPECT_EQ(counters.snapshot().front().count,
              exporterExpected(scores, sel, kExporterT0, kExporterT0 + 4 * kExporterMinute).count);
    std::size_t limited = 0;
    for (const auto& r : server.requests()) limited += r.path != "/api/public/health";
    EXPECT_GE(limited, 2u);  // the refused request and its repetition
    EXPECT_EQ(
        test::findSample(test::parseExposition(counters.exposition()), "fp8dash_exporter_fetch_errors_total")->value,
        0);
}

// Scores below zero would make the sum counter drop (a reset to Prometheus): refused with the minute named, nothing
// added; the minutes before them were added by an earlier update and stay.
TEST(ExporterCountersFailures, ScoresBelowZeroAreRefusedNotServedAsACounterThatDrops) {
    forgetLangfuseServers();
    auto scores = exporterSeed();
    for (auto& s : scores)
        if (s.timestamp >= kExporterT0 + 6 * kExporterMinute && s.timestamp < kExporterT0 + 7 * kExporterMinute)
            s.value = -2.5;
    test::LangfuseTestServer server(scores, exporterPersonality(test::LangfuseTestServer::Personality::V4));
    const LangfuseClient client(exporterSettingsFor(server));
    const ExporterSelection sel{"llm_judge_domain", {}, {}};
    LangfuseScoreCounters counters({sel}, kExporterT0);
    ASSERT_TRUE(counters.update(client, kExporterT0 + 6 * kExporterMinute + 120).ok());
    const ExporterExpected before = exporterExpected(scores, sel, kExporterT0, kExporterT0 + 6 * kExporterMinute);
    const Status st = counters.update(client, kExporterT0 + 9 * kExporterMinute + 120);
    ASSERT_FALSE(st.ok());
    EXPECT_NE(st.error().message.find("below zero (the minute of 2026-11-28 00:06:00 UTC)"), std::string::npos)
        << st.error().message;
    const auto c = counters.snapshot().front();
    EXPECT_EQ(c.count, before.count);
    EXPECT_EQ(c.countedTo, kExporterT0 + 6 * kExporterMinute);
    EXPECT_EQ(test::findSample(test::parseExposition(counters.exposition()), "fp8dash_exporter_up")->value, 0);
}

// Label values from the user (tags, environments, score names) are escaped as the exposition format says: each
// sample stays one line and reads back as the text given.
TEST(ExporterExposition, HostileLabelValuesStayOneLineAndReadBack) {
    std::vector<ExporterSelection> sels;
    for (const auto& h : {test::verdictRewriteSequence(), test::markdownTakeover(), test::htmlVerdict(),
                          std::string("a\"b\\c\\\"d\n} 1\nfp8dash_exporter_up 1")})
        sels.push_back({h, {h, "b"}, {h}});
    LangfuseScoreCounters counters(sels, kExporterT0);
    const auto samples = test::parseExposition(counters.exposition());
    std::size_t sums = 0, ups = 0;
    for (const auto& s : samples) {
        ups += s.name == "fp8dash_exporter_up";
        if (s.name != "fp8dash_langfuse_score_sum") continue;
        const auto& sel = sels[sums++];
        EXPECT_EQ(s.labels.at("score_name"), sel.scoreName);
        EXPECT_EQ(s.labels.at("tag"), sel.traceTags[0] + ",b");
        EXPECT_EQ(s.labels.at("environment"), sel.environments[0]);
        EXPECT_EQ(s.value, 0);
    }
    EXPECT_EQ(sums, sels.size());
    EXPECT_EQ(ups, 1u);
}

TEST(ExporterExposition, SampleValuesReadBackExactly) {
    for (const double v : {0.0, 1.0, 42.0, 0.1, 1.0 / 3.0, 1796485529.7593877, 123456789012.25, 1e-300})
        EXPECT_EQ(std::strtod(prometheusSampleValue(v).c_str(), nullptr), v) << prometheusSampleValue(v);
    EXPECT_EQ(prometheusSampleValue(17), "17");
}

}  // namespace
}  // namespace fp8dash
