// LangfuseClient against the servers people run (shared/notes/langfuse-api-2026.md §0): the same scores from v4
// (events_only: v3 scores, observations v2), v3.180+ (v3 scores, /traces), v3.53-3.179 (v2 scores) and pre-3.53
// (the legacy list); the server found once and remembered; deprecation notices; rate-limit waits reported; the test
// server itself following the current API; and the aggregate mode (the Metrics API's minutes) giving the raw mode's
// figures and alert episodes. The expected values are computed here from the seeded scores.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>

#include "fp8dash/core/langfuse_client.h"
#include "fp8dash/core/langfuse_judge.h"
#include "fp8dash/core/score_buckets.h"
#include "fp8dash/core/timeline.h"
#include "langfuse_test_server.h"

namespace fp8dash {
namespace {

using test::LangfuseSeedScore;
using test::LangfuseTestServer;
using Personality = LangfuseTestServer::Personality;

class ForgetLangfuseServersV3 : public ::testing::EmptyTestEventListener {
    void OnTestStart(const ::testing::TestInfo&) override { forgetLangfuseServers(); }
};
const bool kServersForgetting = [] {
    ::testing::UnitTest::GetInstance()->listeners().Append(new ForgetLangfuseServersV3);
    return true;
}();

constexpr double kServersT0 = 1795824000;  // 2026-11-28T00:00:00Z

const std::vector<Personality> kAll = {Personality::V4, Personality::V3WithV2, Personality::V3Before180,
                                       Personality::PreV353};

std::string nameOf(Personality p) {
    switch (p) {
        case Personality::V4:
            return "v4";
        case Personality::V3WithV2:
            return "v3.180+";
        case Personality::V3Before180:
            return "v3.53-3.179";
        case Personality::PreV353:
            return "pre-3.53";
    }
    return "?";
}

LangfuseSettings serversSettingsFor(const LangfuseTestServer& server) {
    LangfuseSettings s;
    s.baseUrl = server.baseUrl();
    s.publicKey = server.options().publicKey;
    s.secretKey = server.options().secretKey;
    s.http.maxRetries = 2;
    s.http.retryBaseDelayS = 0.01;
    s.http.totalTimeoutS = 10;
    return s;
}

LangfuseTestServer::Options personality(Personality p) {
    LangfuseTestServer::Options o;
    o.personality = p;
    return o;
}

// 450 scores, one every 40 s (+ 250 ms): tags alternate fp8 / bf16 (every trace also "service:chat"), environments
// production / staging, values 1..5 in quarters; a BOOLEAN, a CATEGORICAL and another name's score mixed in.
std::vector<LangfuseSeedScore> serversSeed() {
    std::vector<LangfuseSeedScore> out;
    for (int i = 0; i < 450; ++i) {
        LangfuseSeedScore s;
        char id[16];
        std::snprintf(id, sizeof id, "s%04d", i);
        s.id = id;
        s.traceId = "trace-" + std::to_string(i);
        s.timestamp = kServersT0 + 40.0 * i + 0.25;
        s.value = 1 + (i * 3 % 17) * 0.25;
        s.traceTags = {i % 2 ? "precision:fp8" : "precision:bf16", "service:chat"};
        s.environment = i % 3 == 0 ? "staging" : "production";
        s.comment = "reason " + std::to_string(i);
        if (i == 101) s.dataType = "BOOLEAN", s.value = 1, s.stringValue = "True";
        if (i == 103) s.dataType = "CATEGORICAL", s.value = 0, s.stringValue = "good";
        if (i == 105) s.name = "helpfulness";
        out.push_back(s);
    }
    return out;
}

// The ids the query selects, straight from the seed.
std::set<std::string> expectedIds(const std::vector<LangfuseSeedScore>& seeded, const ScoreQuery& q) {
    std::set<std::string> out;
    for (const auto& s : seeded) {
        if (s.name != q.name || s.dataType == "CATEGORICAL") continue;
        if (q.from && s.timestamp < *q.from) continue;
        if (q.to && s.timestamp >= *q.to) continue;
        bool tags = true;
        for (const auto& t : q.traceTags)
            tags = tags && std::find(s.traceTags.begin(), s.traceTags.end(), t) != s.traceTags.end();
        if (!tags) continue;
        if (!q.environments.empty() &&
            std::find(q.environments.begin(), q.environments.end(), s.environment) == q.environments.end())
            continue;
        out.insert(s.id);
    }
    return out;
}

std::set<std::string> pathsAsked(const LangfuseTestServer& server) {
    std::set<std::string> out;
    for (const auto& r : server.requests()) out.insert(r.path);
    return out;
}

TEST(LangfuseServers, EveryServerGivesTheSameScores) {
    const auto seeded = serversSeed();
    ScoreQuery q;
    q.from = kServersT0 + 40 * 30;        // s0030 in
    q.to = kServersT0 + 40 * 400 + 0.25;  // exclusive: s0400 out
    q.traceTags = {"precision:fp8", "service:chat"};
    q.pageSize = 100;
    const auto expected = expectedIds(seeded, q);
    ASSERT_EQ(expected.size(), 183u);  // odd i in 30..399: 185, less s0103 (CATEGORICAL), s0105 (another name)
    for (const Personality p : kAll) {
        SCOPED_TRACE(nameOf(p));
        forgetLangfuseServers();
        LangfuseTestServer server(seeded, personality(p));
        auto r = LangfuseClient(serversSettingsFor(server)).scores(q);
        ASSERT_TRUE(r.ok()) << r.error().message;
        std::set<std::string> got;
        for (const auto& s : *r) got.insert(s.id);
        EXPECT_EQ(got, expected);
        ASSERT_EQ(r->size(), expected.size());
        EXPECT_TRUE(std::is_sorted(r->begin(), r->end(),
                                   [](const Score& a, const Score& b) { return a.timestamp < b.timestamp; }));
        for (const auto& s : *r) {
            const int i = std::stoi(s.id.substr(1));
            EXPECT_DOUBLE_EQ(s.timestamp, kServersT0 + 40.0 * i + 0.25) << s.id;
            EXPECT_DOUBLE_EQ(s.value, i == 101 ? 1.0 : 1 + (i * 3 % 17) * 0.25) << s.id;
            EXPECT_EQ(s.traceId, "trace-" + std::to_string(i));
        }
        // Each server read through the list it has, and never through one it lacks.
        const auto paths = pathsAsked(server);
        const std::set<std::string> want =
            p == Personality::V4 ? std::set<std::string>{"/api/public/health", "/api/public/v2/metrics",
                                                         "/api/public/v2/observations", "/api/public/v3/scores"}
            : p == Personality::V3WithV2
                ? std::set<std::string>{"/api/public/health", "/api/public/traces", "/api/public/v3/scores"}
            : p == Personality::V3Before180 ? std::set<std::string>{"/api/public/health", "/api/public/v2/scores"}
                                            : std::set<std::string>{"/api/public/health", "/api/public/scores"};
        EXPECT_EQ(paths, want);
    }
}

TEST(LangfuseServers, EnvironmentsAndNoTagsAlike) {
    const auto seeded = serversSeed();
    ScoreQuery q;
    q.environments = {"production"};
    const auto expected = expectedIds(seeded, q);
    for (const Personality p : {Personality::V4, Personality::V3WithV2, Personality::V3Before180}) {
        SCOPED_TRACE(nameOf(p));
        forgetLangfuseServers();
        LangfuseTestServer server(seeded, personality(p));
        auto r = LangfuseClient(serversSettingsFor(server)).scores(q);
        ASSERT_TRUE(r.ok()) << r.error().message;
        std::set<std::string> got;
        for (const auto& s : *r) got.insert(s.id);
        EXPECT_EQ(got, expected);
    }
}

TEST(LangfuseServers, V3PagesEndWithoutACursorAlsoOnAnExactMultiple) {
    auto seeded = serversSeed();
    seeded.resize(200);
    seeded[105].name = "llm_judge_domain";  // 200 scores of the name: exactly two pages of 100
    LangfuseTestServer server(seeded, personality(Personality::V4));
    ScoreQuery q;
    q.allDataTypes = true;
    q.pageSize = 100;
    auto r = LangfuseClient(serversSettingsFor(server)).scores(q);
    ASSERT_TRUE(r.ok()) << r.error().message;
    EXPECT_EQ(r->size(), 200u);
    std::vector<std::string> cursors;
    int v3 = 0;
    for (const auto& req : server.requests())
        if (req.path == "/api/public/v3/scores") {
            ++v3;
            cursors.push_back(req.queryValue("cursor").value_or(""));
            EXPECT_EQ(req.queryValue("limit"), "100");
            EXPECT_FALSE(req.queryValue("dataType").has_value());  // every type, to refuse a wrong one by id
        }
    EXPECT_EQ(v3, 2);  // 100 + 100: the second page has no cursor, so no third (empty) request
    ASSERT_EQ(cursors.size(), 2u);
    EXPECT_EQ(cursors[0], "");
    EXPECT_NE(cursors[1], "");
}

TEST(LangfuseServers, TheServerIsFoundOnceAndRemembered) {
    LangfuseTestServer server(serversSeed(), personality(Personality::V4));
    const LangfuseClient client(serversSettingsFor(server));
    ScoreQuery q;
    q.traceTags = {"precision:bf16"};
    ASSERT_TRUE(client.scores(q).ok());
    ASSERT_TRUE(LangfuseClient(serversSettingsFor(server)).scores(q).ok());
    int health = 0;
    for (const auto& r : server.requests()) health += r.path == "/api/public/health";
    EXPECT_EQ(health, 1);
    const auto known = knownLangfuseServer(server.baseUrl() + "/");
    ASSERT_TRUE(known.has_value());
    EXPECT_EQ(known->version, "4.16.0");
    EXPECT_EQ(known->scores, LangfuseScoresApi::V3);
    EXPECT_EQ(known->traces, LangfuseTraceApi::ObservationsV2);
}

TEST(LangfuseServers, AServerWithoutAVersionIsProbedOnceByItsFirst404s) {
    auto o = personality(Personality::V3Before180);
    o.reportVersion = false;
    LangfuseTestServer server(serversSeed(), o);
    ScoreQuery q;
    q.traceTags = {"precision:fp8"};
    for (int i = 0; i < 2; ++i) {
        auto r = LangfuseClient(serversSettingsFor(server)).scores(q);
        ASSERT_TRUE(r.ok()) << r.error().message;
        EXPECT_EQ(r->size(), expectedIds(serversSeed(), q).size());
    }
    int v3 = 0, v2 = 0;
    for (const auto& r : server.requests())
        v3 += r.path == "/api/public/v3/scores", v2 += r.path == "/api/public/v2/scores";
    EXPECT_EQ(v3, 1);  // no version: v3 tried once (404), then remembered
    EXPECT_GE(v2, 2);  // both fetches through v2
    int observations = 0;
    for (const auto& r : server.requests()) observations += r.path == "/api/public/v2/observations";
    EXPECT_EQ(observations, 1);  // its 404 asked once, then remembered
}

TEST(LangfuseServers, DeprecationBecomesOneNoticeNamingTheReplacementAndTheDate) {
    auto o = personality(Personality::V3Before180);
    o.cloud = true;
    LangfuseTestServer server(serversSeed(), o);
    std::vector<std::string> notices;
    LangfuseSettings s = serversSettingsFor(server);
    s.notice = [&](const std::string& text) { notices.push_back(text); };
    ScoreQuery q;
    q.pageSize = 50;
    ASSERT_TRUE(LangfuseClient(s).scores(q).ok());
    ASSERT_TRUE(LangfuseClient(s).scores(q).ok());
    ASSERT_EQ(notices.size(), 1u);
    EXPECT_NE(notices[0].find("GET /api/public/v2/scores is deprecated"), std::string::npos) << notices[0];
    EXPECT_NE(notices[0].find("GET /api/public/v3/scores"), std::string::npos) << notices[0];
    EXPECT_NE(notices[0].find("2026-11-16"), std::string::npos) << notices[0];
    EXPECT_EQ(notices[0].find(server.options().secretKey), std::string::npos);
}

TEST(LangfuseServers, RateLimitWaitsAreReportedAndHonoured) {
    auto o = personality(Personality::V4);
    o.rateLimitFirst = 1;
    o.retryAfterS = 1;
    LangfuseTestServer server(serversSeed(), o);
    std::vector<std::string> said;
    Progress progress;
    progress.report = [&](double, const std::string& what) { said.push_back(what); };
    auto r = LangfuseClient(serversSettingsFor(server)).scores(ScoreQuery{}, progress);
    ASSERT_TRUE(r.ok()) << r.error().message;
    EXPECT_TRUE(std::any_of(said.begin(), said.end(), [](const std::string& s) {
        return s.find("Langfuse rate limit (429): waiting 1 s") != std::string::npos;
    }));
}

TEST(LangfuseServers, ALongRetryAfterIsAClearErrorNotAWait) {
    auto o = personality(Personality::V4);
    o.rateLimitFirst = 1;
    o.retryAfterS = 3600;  // the Metrics API's hourly limit
    LangfuseTestServer server(serversSeed(), o);
    auto r = LangfuseClient(serversSettingsFor(server)).scores(ScoreQuery{});
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error().message.find("asks to wait 3,600 s"), std::string::npos) << r.error().message;
}

TEST(LangfuseServers, ALongFetchIsAnnouncedBeforeItRuns) {
    // Cloud's free plan: 30 list requests a minute. 9,500 scores are 95 pages: about 3 minutes at that pace.
    std::vector<LangfuseSeedScore> seeded;
    for (int i = 0; i < 9500; ++i) {
        LangfuseSeedScore s;
        s.id = "n" + std::to_string(i);
        s.traceId = "t" + std::to_string(i);
        s.timestamp = kServersT0 + i + 0.5;
        s.value = 3;
        seeded.push_back(s);
    }
    auto o = personality(Personality::V4);
    o.cloud = true;
    o.cloudListLimit = 30;
    LangfuseTestServer server(seeded, o);
    std::vector<std::string> notices;
    LangfuseSettings s = serversSettingsFor(server);
    s.notice = [&](const std::string& text) { notices.push_back(text); };
    ScoreQuery q;
    q.from = kServersT0;
    q.to = kServersT0 + 86400;
    auto r = LangfuseClient(s).scores(q);
    ASSERT_TRUE(r.ok()) << r.error().message;
    EXPECT_EQ(r->size(), 9500u);
    ASSERT_EQ(notices.size(), 1u);
    EXPECT_NE(notices[0].find("about 94 more requests"), std::string::npos) << notices[0];
    EXPECT_NE(notices[0].find("30 requests a minute"), std::string::npos) << notices[0];
    EXPECT_NE(notices[0].find("--langfuse-mode aggregate"), std::string::npos) << notices[0];
}

// The stand-in follows the current API where fp8dash could go wrong (notes §1, §2).
TEST(LangfuseTestServerApi, V3IsStrictAndV2IsGoneInV4) {
    LangfuseTestServer server(serversSeed(), personality(Personality::V4));
    HttpOptions o;
    o.auth.kind = HttpAuth::Kind::Basic;
    o.auth.user = server.options().publicKey;
    o.auth.password = server.options().secretKey;
    const HttpClient http(o);
    const std::string v3 = server.baseUrl() + "/api/public/v3/scores";
    auto status = [&](const std::string& url, const QueryParams& q) {
        auto r = http.get(url, q);
        EXPECT_TRUE(r.ok());
        return r.ok() ? std::pair{r->status, r->body} : std::pair{0L, std::string()};
    };
    EXPECT_EQ(status(v3, {{"limit", "101"}}).first, 400);
    EXPECT_EQ(status(v3, {{"limit", "0"}}).first, 400);
    EXPECT_EQ(status(v3, {{"limit", "1.5"}}).first, 400);
    const auto page = status(v3, {{"page", "1"}});
    EXPECT_EQ(page.first, 400);
    EXPECT_NE(page.second.find("Unrecognized key"), std::string::npos) << page.second;
    const auto tags = status(v3, {{"traceTags", "precision:fp8"}});
    EXPECT_EQ(tags.first, 400);
    EXPECT_NE(tags.second.find("not supported in v3"), std::string::npos) << tags.second;
    EXPECT_EQ(status(v3, {{"name", "a"}, {"name", "b"}}).first, 400);  // repeated: use name=a,b
    const auto cursor = status(v3, {{"cursor", "%%%"}});
    EXPECT_EQ(cursor.first, 400);
    EXPECT_NE(cursor.second.find("Invalid cursor format"), std::string::npos);
    // v4 events_only: the legacy reads are 404 before authentication.
    auto gone = HttpClient().get(server.baseUrl() + "/api/public/v2/scores");
    ASSERT_TRUE(gone.ok());
    EXPECT_EQ(gone->status, 404);
    EXPECT_NE(gone->body.find("events_only"), std::string::npos);
}

// ---- The aggregate mode ----

// Two days of scores on FP8 traffic (every ~23 s, never on a minute's edge), around 4.2; after the change a dip to
// ~3.6 from +2 h for 90 minutes; BF16 traffic alongside at 4.3 (another tag: left out by the filter).
std::vector<LangfuseSeedScore> dayScores(double from, double to) {
    std::vector<LangfuseSeedScore> out;
    int i = 0;
    for (double t = from + 0.5; t < to; t += 23.17, ++i) {
        const double second = std::fmod(t, 60.0);
        if (second < 0.01 || second > 59.99) continue;  // a score exactly on a bucket edge is the known exception
        LangfuseSeedScore s;
        s.id = "q" + std::to_string(i);
        s.traceId = "tr" + std::to_string(i);
        s.timestamp = t;
        const bool dip = t >= kServersT0 + 26 * 3600 + 2 * 3600 && t < kServersT0 + 26 * 3600 + 3.5 * 3600;
        // The sine keeps window means off the threshold: an exact tie would leave the decision to rounding.
        s.value = (dip ? 3.6 : 4.2) + ((i * 37) % 11 - 5) * 0.05 + 0.01 * std::sin(i);
        s.traceTags = {"precision:fp8"};
        s.environment = "production";
        // The judge scores a trace up to ~50 minutes after it started: traces that start before a request's span
        // (a 1,000-minute chunk, or the range) still count, as in the raw mode.
        s.traceStart = t - 30 - (i * 53) % 3000;
        out.push_back(s);
        LangfuseSeedScore b = s;
        b.id = "b" + std::to_string(i);
        b.traceId = "tb" + std::to_string(i);
        b.value = 4.3;
        b.traceTags = {"precision:bf16"};
        if (i % 3 == 0) out.push_back(b);
    }
    return out;
}

TimelineSettings aggregateSettings(const LangfuseTestServer& server, LangfuseMode mode, WindowSemantics w) {
    TimelineSettings st;
    st.fetchThroughput = false;
    st.qualitySource = QualitySource::Langfuse;
    st.langfuseUrl = server.baseUrl();
    st.traceTags = {"precision:fp8"};
    st.from = kServersT0 + 26 * 3600;
    st.to = st.from + 12 * 3600;
    st.step = 60;
    st.changeAt = st.from + 3600;
    st.langfuseMode = mode;
    st.rule.windows = w;
    return st;
}

TimelineCredentials credentialsFor(const LangfuseTestServer& server) {
    TimelineCredentials c;
    c.langfusePublicKey = server.options().publicKey;
    c.langfuseSecretKey = server.options().secretKey;
    c.httpTemplate.maxRetries = 0;
    c.httpTemplate.totalTimeoutS = 10;
    return c;
}

// The condition straight from the definition: mean of the scores in the windows, by brute force.
std::vector<bool> bruteForceCondition(const std::vector<LangfuseSeedScore>& seeded, const std::vector<double>& times,
                                      const AlertRule& rule) {
    std::vector<bool> out;
    for (const double T : times) {
        double rs = 0, rn = 0, bs = 0, bn = 0;
        for (const auto& s : seeded) {
            if (s.traceTags[0] != "precision:fp8") continue;
            const bool p3 = rule.windows == WindowSemantics::Prometheus3;
            auto inWindow = [&](double end, double range) {
                return (p3 ? s.timestamp > end - range : s.timestamp >= end - range) && s.timestamp <= end;
            };
            if (inWindow(T, rule.shortWindowS)) rs += s.value, rn += 1;
            if (inWindow(T - rule.offsetS, rule.longWindowS)) bs += s.value, bn += 1;
        }
        out.push_back(rn > 0 && bn > 0 && rs / rn < bs / bn - rule.margin);
    }
    return out;
}

class LangfuseAggregateTest : public ::testing::TestWithParam<WindowSemantics> {};

TEST_P(LangfuseAggregateTest, AggregateGivesTheRawFiguresAndAlertEpisodes) {
    const double from = kServersT0, to = kServersT0 + 38 * 3600;
    const auto seeded = dayScores(from, to);
    LangfuseTestServer server(seeded, personality(Personality::V4));
    const auto raw = fetchTimeline(aggregateSettings(server, LangfuseMode::Raw, GetParam()), credentialsFor(server));
    ASSERT_TRUE(raw.ok()) << raw.error().message;
    const std::size_t rawRequests = server.requestCount();
    const auto agg =
        fetchTimeline(aggregateSettings(server, LangfuseMode::Aggregate, GetParam()), credentialsFor(server));
    ASSERT_TRUE(agg.ok()) << agg.error().message;
    const std::size_t aggRequests = server.requestCount() - rawRequests;
    EXPECT_EQ(raw->settings.langfuseMode, LangfuseMode::Raw);
    EXPECT_EQ(agg->settings.langfuseMode, LangfuseMode::Aggregate);
    ASSERT_TRUE(agg->qualityBuckets.has_value());
    EXPECT_FALSE(raw->qualityBuckets.has_value());
    EXPECT_EQ(aggRequests, 3u);  // 38 h = 2280 minutes: 3 requests of at most 1000
    EXPECT_GT(rawRequests, 20u);

    // Before/after means from the seed: FP8 scores with from <= t < change, and t >= change + 5 min (t <= to).
    const auto& st = raw->settings;
    double bs = 0, bn = 0, as = 0, an = 0;
    for (const auto& s : seeded) {
        if (s.traceTags[0] != "precision:fp8" || s.timestamp < st.from || s.timestamp > st.to) continue;
        if (s.timestamp < *st.changeAt)
            bs += s.value, bn += 1;
        else if (s.timestamp >= *st.changeAt + 300)
            as += s.value, an += 1;
    }
    const TimelineReport rr = evaluateTimeline(*raw), ar = evaluateTimeline(*agg);
    for (const TimelineReport* r : {&rr, &ar}) {
        ASSERT_TRUE(r->quality.beforeMean && r->quality.afterMean);
        EXPECT_NEAR(*r->quality.beforeMean, bs / bn, 1e-9);
        EXPECT_NEAR(*r->quality.afterMean, as / an, 1e-9);
        EXPECT_EQ(r->quality.beforeCount, static_cast<std::size_t>(bn));
        EXPECT_EQ(r->quality.afterCount, static_cast<std::size_t>(an));
    }

    // The alert: the brute-force condition's episodes, the raw mode's and the aggregate mode's are the same.
    const auto times = evaluationTimes(st.from, st.to, st.step);
    const auto expected = alertEpisodes(times, bruteForceCondition(seeded, times, st.rule), st.rule.holdForS);
    ASSERT_FALSE(expected.empty());  // the dip fires
    ASSERT_TRUE(expected[0].firingAt.has_value());
    EXPECT_EQ(raw->alerts, expected);
    EXPECT_EQ(agg->alerts, expected);
}

INSTANTIATE_TEST_SUITE_P(Windows, LangfuseAggregateTest,
                         ::testing::Values(WindowSemantics::Prometheus2, WindowSemantics::Prometheus3));

TEST(LangfuseAggregate, TheBucketsRoundTripTheFileAndReevaluateOffline) {
    const auto seeded = dayScores(kServersT0, kServersT0 + 38 * 3600);
    LangfuseTestServer server(seeded, personality(Personality::V4));
    auto agg = fetchTimeline(aggregateSettings(server, LangfuseMode::Aggregate, WindowSemantics::Prometheus2),
                             credentialsFor(server));
    ASSERT_TRUE(agg.ok()) << agg.error().message;
    const Json j = timelineToJson(*agg);
    EXPECT_EQ(j["settings"]["langfuse_mode"], "aggregate");
    ASSERT_TRUE(j.contains("quality_buckets"));
    auto back = parseTimelineJson(j, "timeline");
    ASSERT_TRUE(back.ok()) << back.error().message;
    ASSERT_TRUE(back->qualityBuckets.has_value());
    EXPECT_EQ(*back->qualityBuckets, *agg->qualityBuckets);
    EXPECT_EQ(back->settings.langfuseMode, LangfuseMode::Aggregate);
    EXPECT_EQ(back->alerts, agg->alerts);  // recomputed on load from the buckets
    EXPECT_FALSE(back->alerts.empty());
    // Raw files stay as they were: no mode, no buckets.
    auto raw = fetchTimeline(aggregateSettings(server, LangfuseMode::Raw, WindowSemantics::Prometheus2),
                             credentialsFor(server));
    ASSERT_TRUE(raw.ok());
    const Json rj = timelineToJson(*raw);
    EXPECT_FALSE(rj["settings"].contains("langfuse_mode"));
    EXPECT_FALSE(rj.contains("quality_buckets"));
    // A damaged bucket list is named.
    Json bad = j;
    bad["quality_buckets"]["count"][0] = 1.5;
    auto refused = parseTimelineJson(bad, "timeline");
    ASSERT_FALSE(refused.ok());
    EXPECT_NE(refused.error().message.find("timeline.quality_buckets.count[0]"), std::string::npos)
        << refused.error().message;
}

TEST(LangfuseAggregate, AutoReadsRawBelowTheThresholdAndWithoutAMetricsApi) {
    const auto seeded = dayScores(kServersT0, kServersT0 + 38 * 3600);  // ~5,900 FP8 scores: below 50,000
    for (const Personality p : {Personality::V4, Personality::V3WithV2}) {
        SCOPED_TRACE(nameOf(p));
        forgetLangfuseServers();
        LangfuseTestServer server(seeded, personality(p));
        auto r = fetchTimeline(aggregateSettings(server, LangfuseMode::Auto, WindowSemantics::Prometheus2),
                               credentialsFor(server));
        ASSERT_TRUE(r.ok()) << r.error().message;
        EXPECT_EQ(r->settings.langfuseMode, LangfuseMode::Raw);
        int metrics = 0;
        for (const auto& q : server.requests()) metrics += q.path == "/api/public/v2/metrics";
        EXPECT_EQ(metrics, 1);  // the count (v4), or the 404 that says there is none (v3.x)
    }
}

TEST(LangfuseAggregate, AutoAggregatesAboveTheThreshold) {
    // 60,000 scores in 17 hours (one a second).
    std::vector<LangfuseSeedScore> seeded;
    for (int i = 0; i < 60000; ++i) {
        LangfuseSeedScore s;
        s.id = "m" + std::to_string(i);
        s.traceId = "t" + std::to_string(i);
        s.timestamp = kServersT0 + 26 * 3600 - 17 * 3600 + i + 0.5;
        s.value = 4;
        seeded.push_back(s);
    }
    LangfuseTestServer server(seeded, personality(Personality::V4));
    auto st = aggregateSettings(server, LangfuseMode::Auto, WindowSemantics::Prometheus2);
    st.traceTags.clear();
    std::vector<std::string> notices;
    auto cred = credentialsFor(server);
    cred.notice = [&](const std::string& n) { notices.push_back(n); };
    auto r = fetchTimeline(st, cred);
    ASSERT_TRUE(r.ok()) << r.error().message;
    EXPECT_EQ(r->settings.langfuseMode, LangfuseMode::Aggregate);
    ASSERT_FALSE(notices.empty());
    EXPECT_NE(notices[0].find("60000 scores"), std::string::npos) << notices[0];
}

TEST(LangfuseAggregate, AServerWithoutTheMetricsApiSaysSo) {
    LangfuseTestServer server(serversSeed(), personality(Personality::V3Before180));
    auto r = fetchTimeline(aggregateSettings(server, LangfuseMode::Aggregate, WindowSemantics::Prometheus2),
                           credentialsFor(server));
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error().message.find("has no Metrics API"), std::string::npos) << r.error().message;
    EXPECT_NE(r.error().message.find("3.120.0"), std::string::npos) << r.error().message;
    EXPECT_NE(r.error().message.find("--langfuse-mode raw"), std::string::npos) << r.error().message;
}

// The bucket windows (score_buckets.h): a bucket counts where its midpoint lies; the edge semantics decide only a
// midpoint exactly on an edge.
TEST(ScoreBuckets, MidpointsDecideTheWindowAndTheEdgeSemanticsTheEdgeBucket) {
    AlertRule rule;
    rule.shortWindowS = 120;
    rule.longWindowS = 120;
    rule.offsetS = 600;
    rule.margin = 0.5;
    // Baseline minutes at 0..9 min: mean 4. Recent: minute 10 (t 600) holds 1, minute 11 (t 660) holds 4.
    std::vector<ScoreBucket> b;
    for (int m = 0; m < 10; ++m) b.push_back({60.0 * m, 8, 2});
    b.push_back({600, 1, 1});
    b.push_back({660, 4, 1});
    b.push_back({720, 4, 1});
    // T = 720 (whole minute): buckets 600 and 660 (midpoints 630, 690 in [600, 720]): mean 2.5 < 4 - 0.5.
    // T = 750: window [630, 750]: midpoints 630 (edge), 690, 750 (edge). Prometheus 2 takes 630: mean (1+4+4)/3 = 3
    // < 3.5: true. Prometheus 3 leaves 630 out: mean 4: false.
    const std::vector<double> times = {720, 750};
    rule.windows = WindowSemantics::Prometheus2;
    EXPECT_EQ(evaluateAlertConditionFromBuckets(b, times, rule), (std::vector<bool>{true, true}));
    rule.windows = WindowSemantics::Prometheus3;
    EXPECT_EQ(evaluateAlertConditionFromBuckets(b, times, rule), (std::vector<bool>{true, false}));
    // The before/after figures weigh buckets by their counts.
    const PeriodSummary s = summarizeBucketsAroundChange(b, 600, 60);
    EXPECT_DOUBLE_EQ(*s.beforeMean, 4.0);
    EXPECT_EQ(s.beforeCount, 20u);
    EXPECT_DOUBLE_EQ(*s.afterMean, 4.0);  // buckets 660 and 720 (midpoints >= 660)
    EXPECT_EQ(s.afterCount, 2u);
}

}  // namespace
}  // namespace fp8dash
