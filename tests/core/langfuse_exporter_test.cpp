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

using test::LangfuseSeedScore;
using test::LangfuseTestServer;
using Personality = LangfuseTestServer::Personality;
using test::find;
using test::parseExposition;
using test::Sample;

constexpr double kT0 = 1795824000;  // 2026-11-28T00:00:00Z, on the minute
constexpr double kMin = 60;

// Scores over minutes -1 .. 13 from kT0: several per minute, two tags, two environments, values on a quarter grid
// and some not, one at a minute's last instant (late in its minute, not late to Langfuse).
std::vector<LangfuseSeedScore> seed() {
    std::vector<LangfuseSeedScore> out;
    int n = 0;
    for (int minute = -1; minute <= 13; ++minute)
        for (int k = 0; k < 4; ++k, ++n) {
            LangfuseSeedScore s;
            s.id = "s" + std::to_string(n);
            s.traceId = "t" + std::to_string(n);
            s.timestamp = kT0 + minute * kMin + (k == 3 ? 59.5 : 7.0 + 13.0 * k);
            s.value = 1 + std::fmod(n * 0.37 + k * 1.1, 4.0);
            s.traceTags = {n % 3 == 0 ? "precision:bf16" : "precision:fp8", "app:x"};
            s.environment = n % 4 == 1 ? "staging" : "production";
            out.push_back(s);
        }
    return out;
}

struct Expected {
    long double sum = 0;
    double count = 0;
};

// The selection's scores in [from, to), counted here from the seed.
Expected expected(const std::vector<LangfuseSeedScore>& scores, const ExporterSelection& sel, double from, double to) {
    Expected e;
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

LangfuseSettings settingsFor(const LangfuseTestServer& server, const std::string& secret = "") {
    LangfuseSettings s;
    s.baseUrl = server.baseUrl();
    s.publicKey = server.options().publicKey;
    s.secretKey = secret.empty() ? server.options().secretKey : secret;
    s.http.maxRetries = 1;
    s.http.retryBaseDelayS = 0.01;
    s.http.totalTimeoutS = 10;
    return s;
}

LangfuseTestServer::Options personality(Personality p) {
    LangfuseTestServer::Options o;
    o.personality = p;
    return o;
}

class ExporterCounters : public ::testing::TestWithParam<Personality> {
protected:
    void SetUp() override { forgetLangfuseServers(); }
};

TEST_P(ExporterCounters, EachFinishedMinuteOnceAfterTheGrace) {
    const auto scores = seed();
    LangfuseTestServer server(scores, personality(GetParam()));
    const LangfuseClient client(settingsFor(server));
    const ExporterSelection sel{"llm_judge_domain", {"precision:fp8"}, {"production"}};
    LangfuseScoreCounters counters({sel}, kT0 + 20, kExporterGraceSeconds);  // floored to kT0
    ASSERT_EQ(counters.snapshot().front().countedTo, kT0);

    // 5 minutes ended, the grace after them too (the 5th ended 120 s ago, to the second): they are added.
    ASSERT_TRUE(counters.update(client, kT0 + 5 * kMin + 120).ok());
    auto c = counters.snapshot().front();
    Expected want = expected(scores, sel, kT0, kT0 + 5 * kMin);
    ASSERT_GT(want.count, 3);
    EXPECT_EQ(c.count, want.count);
    EXPECT_NEAR(static_cast<double>(c.sum), static_cast<double>(want.sum), 1e-9 * static_cast<double>(want.sum));
    EXPECT_EQ(c.countedTo, kT0 + 5 * kMin);
    EXPECT_EQ(c.mode, GetParam() == Personality::V4 ? "metrics-api" : "raw scores");

    // A second before the 6th minute's grace is over: nothing more, and nothing asked.
    const std::size_t asked = server.requestCount();
    ASSERT_TRUE(counters.update(client, kT0 + 6 * kMin + 119).ok());
    EXPECT_EQ(counters.snapshot().front().count, want.count);
    EXPECT_EQ(server.requestCount(), asked);

    // Later: the minutes up to 12 added, each once (the total equals the scores of [kT0, kT0 + 12 min) exactly once).
    ASSERT_TRUE(counters.update(client, kT0 + 12 * kMin + 150).ok());
    c = counters.snapshot().front();
    want = expected(scores, sel, kT0, kT0 + 12 * kMin);
    EXPECT_EQ(c.count, want.count);
    EXPECT_NEAR(static_cast<double>(c.sum), static_cast<double>(want.sum), 1e-9 * static_cast<double>(want.sum));
    EXPECT_EQ(c.countedTo, kT0 + 12 * kMin);

    // What /metrics serves says the same.
    const auto samples = parseExposition(counters.exposition());
    const Sample* sum = find(samples, "fp8dash_langfuse_score_sum");
    const Sample* count = find(samples, "fp8dash_langfuse_score_count");
    ASSERT_TRUE(sum && count);
    const std::map<std::string, std::string> labels{
        {"score_name", "llm_judge_domain"}, {"tag", "precision:fp8"}, {"environment", "production"}};
    EXPECT_EQ(sum->labels, labels);
    EXPECT_EQ(count->labels, labels);
    EXPECT_EQ(count->value, want.count);
    EXPECT_NEAR(sum->value, static_cast<double>(want.sum), 1e-9 * static_cast<double>(want.sum));
    ASSERT_TRUE(find(samples, "fp8dash_exporter_up"));
    EXPECT_EQ(find(samples, "fp8dash_exporter_up")->value, 1);
    EXPECT_EQ(find(samples, "fp8dash_exporter_fetch_errors_total")->value, 0);
    EXPECT_TRUE(find(samples, "fp8dash_exporter_last_success_timestamp_seconds"));
    EXPECT_EQ(find(samples, "fp8dash_exporter_counted_until_timestamp_seconds")->value, kT0 + 12 * kMin);
}

INSTANTIATE_TEST_SUITE_P(Servers, ExporterCounters,
                         ::testing::Values(Personality::V4, Personality::V3WithV2, Personality::V3Before180),
                         [](const auto& info) {
                             return info.param == Personality::V4         ? std::string("V4MetricsApi")
                                    : info.param == Personality::V3WithV2 ? std::string("V3RawScores")
                                                                          : std::string("V3Before180RawScores");
                         });

// Several selections: each its own series; one without tags or environments carries only score_name.
TEST(ExporterCountersSelections, EachSelectionItsOwnSeries) {
    forgetLangfuseServers();
    const auto scores = seed();
    LangfuseTestServer server(scores, personality(Personality::V4));
    const LangfuseClient client(settingsFor(server));
    const std::vector<ExporterSelection> sels = {{"llm_judge_domain", {}, {}},
                                                 {"llm_judge_domain", {"precision:bf16", "app:x"}, {}},
                                                 {"llm_judge_domain", {}, {"staging", "production"}}};
    LangfuseScoreCounters counters(sels, kT0 - kMin);
    ASSERT_TRUE(counters.update(client, kT0 + 14 * kMin + 120).ok());
    const auto samples = parseExposition(counters.exposition());
    std::vector<const Sample*> counts;
    for (const auto& s : samples)
        if (s.name == "fp8dash_langfuse_score_count") counts.push_back(&s);
    ASSERT_EQ(counts.size(), 3u);
    EXPECT_EQ(counts[0]->labels, (std::map<std::string, std::string>{{"score_name", "llm_judge_domain"}}));
    EXPECT_EQ(counts[1]->labels, (std::map<std::string, std::string>{{"score_name", "llm_judge_domain"},
                                                                     {"tag", "precision:bf16,app:x"}}));
    EXPECT_EQ(counts[2]->labels, (std::map<std::string, std::string>{{"score_name", "llm_judge_domain"},
                                                                     {"environment", "staging,production"}}));
    for (std::size_t i = 0; i < sels.size(); ++i)
        EXPECT_EQ(counts[i]->value, expected(scores, sels[i], kT0 - kMin, kT0 + 14 * kMin).count) << i;
    EXPECT_EQ(counts[0]->value, static_cast<double>(scores.size()));  // every score, the first minute's too
}

// Wrong keys and an outage: the update fails with a message naming the server, the counters and the cursor stay,
// the health series say so; once Langfuse answers again every minute missed is added (nothing lost, nothing twice).
TEST(ExporterCountersFailures, AFailedFetchKeepsTheCountersAndIsCounted) {
    forgetLangfuseServers();
    const auto scores = seed();
    LangfuseTestServer server(scores, personality(Personality::V4));
    const ExporterSelection sel{"llm_judge_domain", {}, {"production"}};
    LangfuseScoreCounters counters({sel}, kT0);

    // Before any minute is due, the first update still reads Langfuse: wrong keys show at once.
    const LangfuseClient wrong(settingsFor(server, "sk-lf-wrong"));
    const Status bad = counters.update(wrong, kT0 + 30);
    ASSERT_FALSE(bad.ok());
    EXPECT_NE(bad.error().message.find(server.baseUrl()), std::string::npos) << bad.error().message;
    EXPECT_EQ(bad.error().message.find("sk-lf-wrong"), std::string::npos) << bad.error().message;
    auto samples = parseExposition(counters.exposition());
    EXPECT_EQ(find(samples, "fp8dash_exporter_up")->value, 0);
    EXPECT_EQ(find(samples, "fp8dash_exporter_fetch_errors_total")->value, 1);
    EXPECT_FALSE(find(samples, "fp8dash_exporter_last_success_timestamp_seconds"));

    const LangfuseClient client(settingsFor(server));
    ASSERT_TRUE(counters.update(client, kT0 + 3 * kMin + 120).ok());
    EXPECT_EQ(counters.snapshot().front().count, expected(scores, sel, kT0, kT0 + 3 * kMin).count);

    server.setUnavailable(true);
    ASSERT_FALSE(counters.update(client, kT0 + 8 * kMin + 120).ok());
    EXPECT_EQ(counters.snapshot().front().countedTo, kT0 + 3 * kMin);
    EXPECT_EQ(counters.snapshot().front().count, expected(scores, sel, kT0, kT0 + 3 * kMin).count);
    samples = parseExposition(counters.exposition());
    EXPECT_EQ(find(samples, "fp8dash_exporter_up")->value, 0);
    EXPECT_EQ(find(samples, "fp8dash_exporter_fetch_errors_total")->value, 2);

    server.setUnavailable(false);
    ASSERT_TRUE(counters.update(client, kT0 + 10 * kMin + 120).ok());
    const Expected want = expected(scores, sel, kT0, kT0 + 10 * kMin);
    EXPECT_EQ(counters.snapshot().front().count, want.count);
    EXPECT_NEAR(static_cast<double>(counters.snapshot().front().sum), static_cast<double>(want.sum), 1e-9 * 100);
    samples = parseExposition(counters.exposition());
    EXPECT_EQ(find(samples, "fp8dash_exporter_up")->value, 1);
    EXPECT_EQ(find(samples, "fp8dash_exporter_fetch_errors_total")->value, 2);
}

// Scores below zero would make the sum counter drop (a reset to Prometheus): refused with the minute named, nothing
// added; the minutes before them were added by an earlier update and stay.
TEST(ExporterCountersFailures, ScoresBelowZeroAreRefusedNotServedAsACounterThatDrops) {
    forgetLangfuseServers();
    auto scores = seed();
    for (auto& s : scores)
        if (s.timestamp >= kT0 + 6 * kMin && s.timestamp < kT0 + 7 * kMin) s.value = -2.5;
    LangfuseTestServer server(scores, personality(Personality::V4));
    const LangfuseClient client(settingsFor(server));
    const ExporterSelection sel{"llm_judge_domain", {}, {}};
    LangfuseScoreCounters counters({sel}, kT0);
    ASSERT_TRUE(counters.update(client, kT0 + 6 * kMin + 120).ok());
    const Expected before = expected(scores, sel, kT0, kT0 + 6 * kMin);
    const Status st = counters.update(client, kT0 + 9 * kMin + 120);
    ASSERT_FALSE(st.ok());
    EXPECT_NE(st.error().message.find("below zero (the minute of 2026-11-28 00:06:00 UTC)"), std::string::npos)
        << st.error().message;
    const auto c = counters.snapshot().front();
    EXPECT_EQ(c.count, before.count);
    EXPECT_EQ(c.countedTo, kT0 + 6 * kMin);
    EXPECT_EQ(find(parseExposition(counters.exposition()), "fp8dash_exporter_up")->value, 0);
}

// Label values from the user (tags, environments, score names) are escaped as the exposition format says: each
// sample stays one line and reads back as the text given.
TEST(ExporterExposition, HostileLabelValuesStayOneLineAndReadBack) {
    std::vector<ExporterSelection> sels;
    for (const auto& h : {test::verdictRewriteSequence(), test::markdownTakeover(), test::htmlVerdict(),
                          std::string("a\"b\\c\\\"d\n} 1\nfp8dash_exporter_up 1")})
        sels.push_back({h, {h, "b"}, {h}});
    LangfuseScoreCounters counters(sels, kT0);
    const auto samples = parseExposition(counters.exposition());
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
