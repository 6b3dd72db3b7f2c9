// PrometheusClient against a real Prometheus (Debian's 2.42) serving data generated here and backfilled with
// promtool: every expected value below follows from the generator's formulas, not from the client.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <ctime>
#include <fstream>
#include <iostream>
#include <limits>
#include <map>
#include <memory>
#include <sstream>

#include "fp8dash/core/prometheus_client.h"
#include "fp8dash/core/time_series.h"
#include "fp8dash/core/timeline.h"
#include "langfuse_test_server.h"
#include "prometheus_server.h"
#include "test_paths.h"

namespace fp8dash {
namespace {

// The generated story, in seconds from kStart (an hour boundary four days ago: backfilled blocks must be older than
// the head block's ~3 h, and retention is raised to 3650 d by the harness).
constexpr double kHours = 3600;
constexpr double kDataSpan = 36 * kHours;  // samples from start to start + 36 h
constexpr double kChangeAt = 28 * kHours;  // FP8 on: throughput rate 1000 -> 1500 tok/s, cache_dtype auto -> fp8
constexpr double kDipAt = 30 * kHours;     // quality 4.0 -> 3.55 for 60 minutes
constexpr double kDipMinutes = 60;
constexpr double kCounterStep = 15;  // scrape interval of the counter
constexpr double kScoreOffset = 7;   // scores at start + 60 k + 7 s: never on an evaluation boundary
constexpr double kBaseQuality = 4.0;
constexpr double kDipQuality = 3.55;
// Two engines share the load: 600 + 400 = 1000 tok/s before, 900 + 600 = 1500 after.
constexpr double kRateBefore[2] = {600, 400};
constexpr double kRateAfter[2] = {900, 600};

const char* const kQualitySelector = R"(langfuse_score_value{name="llm_judge_domain"})";
const char* const kThroughput = "sum(rate(vllm:generation_tokens_total[5m]))";

// Test-only credentials for the basic-auth server: the bcrypt hash (cost 5) of kPassword, made with libxcrypt's
// crypt() (`perl -e 'print crypt("fp8dash-test-password", "$2b$05$fp8dashTestSaltFp8dash")'`).
const char* const kUser = "tester";
const char* const kPassword = "fp8dash-test-password";
const char* const kBcrypt = "$2b$05$fp8dashTestSaltFp8dased4KJQg9Y2j1l4.kVYIBzjvsP1tePy5.";

double startTime() {
    const auto now = static_cast<double>(std::time(nullptr));
    return std::floor(now / kHours) * kHours - 4 * 24 * kHours;
}

double counterValue(int engine, double sinceStart) {
    if (sinceStart <= kChangeAt) return kRateBefore[engine] * sinceStart;
    return kRateBefore[engine] * kChangeAt + kRateAfter[engine] * (sinceStart - kChangeAt);
}

bool inDip(double sinceStart) {
    return sinceStart >= kDipAt && sinceStart < kDipAt + kDipMinutes * 60;
}

std::string generateOpenMetrics(double start) {
    std::ostringstream om;
    om << "# HELP vllm:generation_tokens Number of generation tokens processed.\n"
          "# TYPE vllm:generation_tokens counter\n";
    for (int engine = 0; engine < 2; ++engine)
        for (double t = 0; t <= kDataSpan; t += kCounterStep)
            om << "vllm:generation_tokens_total{engine=\"" << engine << "\",model_name=\"llama-3.1-8b\"} "
               << test::openMetricsNumber(counterValue(engine, t)) << ' ' << test::openMetricsNumber(start + t) << '\n';

    om << "# TYPE langfuse_score_value gauge\n";
    for (double t = kScoreOffset; t <= kDataSpan; t += 60)
        om << "langfuse_score_value{name=\"llm_judge_domain\"} "
           << test::openMetricsNumber(inDip(t) ? kDipQuality : kBaseQuality) << ' '
           << test::openMetricsNumber(start + t) << '\n';

    // cache_config_info's labels as vLLM writes them (shared/fixtures/vllm/metrics-sample.txt); FP8 doubles the blocks.
    om << "# TYPE vllm:cache_config_info gauge\n";
    const auto info = [&](const char* dtype, const char* blocks, double from, double to) {
        for (double t = from; t < to; t += 60)
            om << "vllm:cache_config_info{block_size=\"16\",cache_dtype=\"" << dtype
               << "\",calculate_kv_scales=\"False\",gpu_memory_utilization=\"0.9\",num_gpu_blocks=\"" << blocks
               << "\"} 1 " << test::openMetricsNumber(start + t) << '\n';
    };
    info("auto", "81767", 0, kChangeAt);
    info("fp8", "163534", kChangeAt, kDataSpan + 1);

    om << "# TYPE weird gauge\n";
    using KV = std::pair<const char*, const char*>;
    for (const auto& [k, v] : {KV{"inf", "+Inf"}, KV{"nan", "NaN"}, KV{"ninf", "-Inf"}})
        for (double t = 0; t <= kDataSpan; t += 60)
            om << "weird{k=\"" << k << "\"} " << v << ' ' << test::openMetricsNumber(start + t) << '\n';
    om << "# EOF\n";
    return om.str();
}

class PrometheusLive : public ::testing::Test {
protected:
    static void SetUpTestSuite() {
        s_skip = test::PrometheusServer::unavailableReason();
        if (!s_skip.empty()) return;
        s_start = startTime();
        const auto began = std::chrono::steady_clock::now();
        test::PrometheusServerOptions options;
        options.openMetrics = generateOpenMetrics(s_start);
        s_server = std::make_unique<test::PrometheusServer>(options);
        std::cerr << "[prometheus] backfill + start took "
                  << std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count() << " s\n";
    }
    static void TearDownTestSuite() { s_server.reset(); }

    void SetUp() override {
        if (!s_skip.empty()) GTEST_SKIP() << s_skip;
        ASSERT_TRUE(s_server->ok()) << s_server->error();
    }

    static PrometheusClient client(long maxPointsPerQuery = PrometheusClient::kMaxPointsPerQuery) {
        PrometheusSettings settings;
        settings.baseUrl = s_server->baseUrl();
        settings.maxPointsPerQuery = maxPointsPerQuery;
        return PrometheusClient(settings);
    }
    static double at(double sinceStart) { return s_start + sinceStart; }

    static inline std::string s_skip;
    static inline double s_start = 0;
    static inline std::unique_ptr<test::PrometheusServer> s_server;
};

TEST_F(PrometheusLive, BuildInfoNamesVersion242) {
    auto info = client().buildInfo();
    ASSERT_TRUE(info.ok()) << info.error().message;
    EXPECT_EQ(info->rfind("Prometheus 2.42.", 0), 0u) << *info;
    EXPECT_NE(info->find("(revision "), std::string::npos) << *info;
    EXPECT_NE(info->find(", go1."), std::string::npos) << *info;
}

TEST_F(PrometheusLive, ForcedChunkingEqualsOneQueryPointForPoint) {
    const double from = at(kChangeAt - 3 * kHours), to = at(kChangeAt + 3 * kHours);
    for (const std::string& promql :
         {std::string("rate(vllm:generation_tokens_total[5m])"), std::string(kQualitySelector)}) {
        auto whole = client().queryRange(promql, from, to, 15);
        ASSERT_TRUE(whole.ok()) << whole.error().message;
        ASSERT_EQ(whole->resultType, "matrix");
        ASSERT_FALSE(whole->series.empty());
        EXPECT_EQ(whole->series.front().samples.size(), 1441u);  // 6 h at 15 s, both ends included
        for (long perChunk : {100L, 7L, 1440L}) {
            std::vector<double> fractions;
            Progress progress;
            progress.report = [&](double f, const std::string&) {
                fractions.push_back(f);
            };  // serialized by the client
            auto chunked = client(perChunk).queryRange(promql, from, to, 15, progress, 3);
            ASSERT_TRUE(chunked.ok()) << chunked.error().message;
            ASSERT_EQ(chunked->series.size(), whole->series.size()) << promql;
            for (std::size_t i = 0; i < whole->series.size(); ++i) {
                EXPECT_EQ(chunked->series[i].labels, whole->series[i].labels);
                EXPECT_EQ(chunked->series[i].samples, whole->series[i].samples)
                    << promql << " in chunks of " << perChunk;
            }
            const std::size_t chunks = (1441 + perChunk - 1) / perChunk;
            ASSERT_EQ(fractions.size(), chunks + 1);  // the start, then one per chunk
            EXPECT_EQ(fractions.front(), 0.0);
            EXPECT_EQ(fractions.back(), 1.0);
            EXPECT_TRUE(std::is_sorted(fractions.begin(), fractions.end()));
        }
    }
}

TEST_F(PrometheusLive, RangeOverTheLimitSucceedsInChunksWhileOneRequestIsRefused) {
    // 12 h at 2 s: 21,601 points, beyond the 11,000 Prometheus serves in one answer.
    const double from = at(kChangeAt - 6 * kHours), to = at(kChangeAt + 6 * kHours), step = 2;
    auto one = client(1'000'000).queryRange(kThroughput, from, to, step);
    ASSERT_FALSE(one.ok());
    std::ifstream fixture(test::sharedFixtures() / "prometheus" / "error-11000-points.json");
    const std::string expectedError = fixture ? nlohmann::json::parse(fixture).at("error").get<std::string>()
                                              : "exceeded maximum resolution of 11,000 points per timeseries. Try "
                                                "decreasing the query resolution (?step=XX)";
    EXPECT_EQ(one.error().message,
              "Prometheus at " + s_server->baseUrl() + "/api/v1/query_range: bad_data: " + expectedError);

    auto chunked = client().queryRange(kThroughput, from, to, step);
    ASSERT_TRUE(chunked.ok()) << chunked.error().message;
    ASSERT_EQ(chunked->series.size(), 1u);
    const auto& samples = chunked->series[0].samples;
    ASSERT_EQ(samples.size(), 21601u);
    std::size_t checked = 0;
    for (std::size_t i = 0; i < samples.size(); ++i) {
        const double t = from + 2.0 * static_cast<double>(i);
        ASSERT_EQ(samples[i].t, t) << "point " << i;  // unique, ascending, on the grid across the seam at 11,000
        const double sinceChange = t - at(kChangeAt);
        // A counter growing linearly: rate() (extrapolated to the window) is the slope, whatever the alignment.
        if (sinceChange <= 0) {
            EXPECT_NEAR(samples[i].v, 1000.0, 1000.0 * 1e-9) << "t = change " << sinceChange << " s";
            ++checked;
        } else if (sinceChange >= 300) {
            EXPECT_NEAR(samples[i].v, 1500.0, 1500.0 * 1e-9) << "t = change + " << sinceChange << " s";
            ++checked;
        }
    }
    EXPECT_EQ(checked, 21601u - 149u);  // all but the 5-minute window after the change (2 s .. 298 s)
}

TEST_F(PrometheusLive, ThroughputBeforeAndAfterTheChange) {
    const double from = at(kChangeAt - 6 * kHours), to = at(kChangeAt + 6 * kHours);
    auto r = client().queryRange("rate(vllm:generation_tokens_total[5m])", from, to, 60);
    ASSERT_TRUE(r.ok()) << r.error().message;
    ASSERT_EQ(r->series.size(), 2u);
    for (const auto& s : r->series) {
        const int engine = s.labels.at("engine") == "0" ? 0 : 1;
        EXPECT_EQ(s.labels.count("__name__"), 0u);  // rate() drops the name
        ASSERT_EQ(s.samples.size(), 721u);
        for (const auto& sample : s.samples) {
            // On the 15 s grid the window holds samples at both ends: rate = (v(T) - v(T - 5m)) / 300.
            const double t = sample.t - s_start;
            const double expected = (counterValue(engine, t) - counterValue(engine, t - 300)) / 300;
            EXPECT_NEAR(sample.v, expected, expected * 1e-9) << "engine " << engine << " at start + " << t;
        }
    }
    auto summed = sumSeries(r->series);
    ASSERT_TRUE(summed.ok()) << summed.error().message;
    const PeriodSummary summary = summarizeAroundChange(summed->samples, at(kChangeAt));
    ASSERT_TRUE(summary.beforeMean && summary.afterMean);
    EXPECT_NEAR(*summary.beforeMean, 1000.0, 1e-9);
    EXPECT_NEAR(*summary.afterMean, 1500.0, 1e-9);
    EXPECT_NEAR(*summary.deltaPct(), 50.0, 1e-9);
}

TEST_F(PrometheusLive, BadPromqlErrorIsVerbatim) {
    // The instant endpoint's answer is the one recorded in the shared fixture.
    auto instant = client().query("sum(", at(kChangeAt));
    ASSERT_FALSE(instant.ok());
    std::ifstream fixture(test::sharedFixtures() / "prometheus" / "error-parse.json");
    const std::string expectedError = fixture
                                          ? nlohmann::json::parse(fixture).at("error").get<std::string>()
                                          : "invalid parameter \"query\": 1:5: parse error: unclosed left parenthesis";
    EXPECT_EQ(instant.error().message,
              "Prometheus at " + s_server->baseUrl() + "/api/v1/query: bad_data: " + expectedError);

    // 2.42's range endpoint words it without the parameter name.
    auto range = client().queryRange("sum(", at(kChangeAt), at(kChangeAt + kHours), 60);
    ASSERT_FALSE(range.ok());
    EXPECT_EQ(range.error().message, "Prometheus at " + s_server->baseUrl() +
                                         "/api/v1/query_range: bad_data: 1:5: parse error: unclosed left parenthesis");
}

TEST_F(PrometheusLive, InstantScalarAndVectorWithNaNAndInfinities) {
    const double t = at(kChangeAt) + 0.25;  // fractional query time: kept to the millisecond
    auto scalar = client().query("1.5 * 2", t);
    ASSERT_TRUE(scalar.ok()) << scalar.error().message;
    EXPECT_EQ(scalar->resultType, "scalar");
    ASSERT_EQ(scalar->series.size(), 1u);
    EXPECT_TRUE(scalar->series[0].labels.empty());
    EXPECT_EQ(scalar->series[0].samples, (std::vector<Sample>{{t, 3.0}}));

    auto vector = client().query("weird", t);
    ASSERT_TRUE(vector.ok()) << vector.error().message;
    EXPECT_EQ(vector->resultType, "vector");
    ASSERT_EQ(vector->series.size(), 3u);
    std::map<std::string, double> byK;
    for (const auto& s : vector->series) {
        ASSERT_EQ(s.samples.size(), 1u);
        EXPECT_EQ(s.samples[0].t, t);
        byK[s.labels.at("k")] = s.samples[0].v;
    }
    EXPECT_TRUE(std::isnan(byK.at("nan")));
    EXPECT_EQ(byK.at("inf"), std::numeric_limits<double>::infinity());
    EXPECT_EQ(byK.at("ninf"), -std::numeric_limits<double>::infinity());

    auto text = client().query(R"("fp8")", t);
    ASSERT_TRUE(text.ok()) << text.error().message;
    EXPECT_EQ(text->resultType, "string");
    EXPECT_EQ(text->text, "fp8");
}

TEST_F(PrometheusLive, DetectsTheCacheDtypeSwitch) {
    auto aligned =
        client().queryRange("vllm:cache_config_info", at(kChangeAt - 2 * kHours), at(kChangeAt + 2 * kHours), 60);
    ASSERT_TRUE(aligned.ok()) << aligned.error().message;
    ASSERT_EQ(aligned->series.size(), 2u);
    auto change = detectCacheDtypeChange(aligned->series);
    ASSERT_TRUE(change.has_value());
    EXPECT_EQ(change->at, at(kChangeAt));
    EXPECT_EQ(change->from, "auto");
    EXPECT_EQ(change->to, "fp8");

    // Off the sample grid: the first evaluation at or after the first fp8 sample, start + ceil((change - start) / 45)
    // * 45.
    const double from = at(kChangeAt - 2 * kHours) + 7;
    auto offGrid = client().queryRange("vllm:cache_config_info", from, at(kChangeAt + 2 * kHours), 45);
    ASSERT_TRUE(offGrid.ok()) << offGrid.error().message;
    auto change2 = detectCacheDtypeChange(offGrid->series);
    ASSERT_TRUE(change2.has_value());
    EXPECT_EQ(change2->at, from + std::ceil((at(kChangeAt) - from) / 45) * 45);

    // Entirely after the switch: only fp8, nothing to detect.
    auto after = client().queryRange("vllm:cache_config_info", at(kChangeAt + kHours), at(kChangeAt + 2 * kHours), 60);
    ASSERT_TRUE(after.ok()) << after.error().message;
    EXPECT_FALSE(detectCacheDtypeChange(after->series).has_value());
}

TEST_F(PrometheusLive, QualityAlertMatchesPrometheusOwnEvaluation) {
    const AlertRule rule;
    const double from = at(kDipAt - kHours), to = at(kDipAt + 3 * kHours), step = 60;
    const std::vector<double> times = evaluationTimes(from, to, step);
    ASSERT_EQ(times.size(), 241u);

    // Prometheus' evaluation: the comparison filters, so a point exists exactly where the condition holds.
    auto evaluated = client().queryRange(rule.promql(kQualitySelector), from, to, step);
    ASSERT_TRUE(evaluated.ok()) << evaluated.error().message;
    std::vector<bool> byPrometheus(times.size(), false);
    for (const auto& s : evaluated->series)
        for (const auto& sample : s.samples) {
            const auto i = static_cast<std::size_t>(std::llround((sample.t - from) / step));
            ASSERT_LT(i, times.size());
            ASSERT_EQ(times[i], sample.t);
            byPrometheus[i] = true;
        }

    // The same rule locally over the raw samples (a range vector returns them unaltered).
    auto raw = client().query(std::string(kQualitySelector) + "[2d]", at(kDataSpan));
    ASSERT_TRUE(raw.ok()) << raw.error().message;
    ASSERT_EQ(raw->resultType, "matrix");
    ASSERT_EQ(raw->series.size(), 1u);
    ASSERT_EQ(raw->series[0].samples.size(), static_cast<std::size_t>(kDataSpan / 60));
    const std::vector<bool> local = evaluateAlertCondition(raw->series[0].samples, times, rule);
    EXPECT_EQ(local, byPrometheus);

    const auto episodes = alertEpisodes(times, byPrometheus, rule.holdForS);
    EXPECT_EQ(alertEpisodes(times, local, rule.holdForS), episodes);
    // By hand: the 30-minute window holds 30 scores; it averages below 4.0 - 0.2 once 14 of them are dip scores
    // (4 - 0.45 * 14 / 30 = 3.79), 14 minutes into the dip; fires 15 minutes later; after the dip ends (60 min) the
    // window keeps >= 14 dip scores until minute 76 and clears at 77. The 1-day baseline (offset 2 h) is all 4.0.
    ASSERT_EQ(episodes.size(), 1u);
    EXPECT_EQ(episodes[0].pendingAt, at(kDipAt + 14 * 60));
    EXPECT_EQ(episodes[0].firingAt, std::optional<double>(at(kDipAt + 29 * 60)));
    EXPECT_EQ(episodes[0].resolvedAt, std::optional<double>(at(kDipAt + 77 * 60)));
}

// The whole timeline twice over the same judge scores: once with quality in Prometheus (Prometheus evaluates the
// rule) and once from a Langfuse server following the public API (fp8dash evaluates it). Same alerts, same verdict.
TEST_F(PrometheusLive, TimelineFromPrometheusAndFromLangfuseAgree) {
    std::vector<test::LangfuseSeedScore> scores;
    for (double t = kScoreOffset; t <= kDataSpan; t += 60) {
        test::LangfuseSeedScore sc;
        sc.id = "score-" + test::openMetricsNumber(t);
        sc.traceId = "trace-" + test::openMetricsNumber(t);
        sc.timestamp = at(t);
        sc.value = inDip(t) ? kDipQuality : kBaseQuality;
        sc.traceTags = {"precision:fp8"};
        scores.push_back(sc);
    }
    // Noise the tag filter must keep out: BF16 traffic scored 1.0 at the same times.
    for (double t = kDipAt; t < kDipAt + kHours; t += 60) {
        test::LangfuseSeedScore sc;
        sc.id = "bf16-" + test::openMetricsNumber(t);
        sc.traceId = "bf16-trace-" + test::openMetricsNumber(t);
        sc.timestamp = at(t);
        sc.value = 1.0;
        sc.traceTags = {"precision:bf16"};
        scores.push_back(sc);
    }
    test::LangfuseTestServer langfuse(scores);

    TimelineSettings st;
    st.prometheusUrl = s_server->baseUrl();
    st.from = at(kChangeAt - kHours);
    st.to = at(kDipAt + 3 * kHours);
    st.step = 60;
    st.changeAt = at(kChangeAt);
    st.qualitySource = QualitySource::Prometheus;
    st.qualityQuery = kQualitySelector;
    TimelineCredentials cred;
    auto viaPrometheus = fetchTimeline(st, cred);
    ASSERT_TRUE(viaPrometheus.ok()) << viaPrometheus.error().message;

    st.qualitySource = QualitySource::Langfuse;
    st.langfuseUrl = langfuse.baseUrl();
    st.traceTags = {"precision:fp8"};
    cred.langfusePublicKey = langfuse.options().publicKey;
    cred.langfuseSecretKey = langfuse.options().secretKey;
    auto viaLangfuse = fetchTimeline(st, cred);
    ASSERT_TRUE(viaLangfuse.ok()) << viaLangfuse.error().message;

    EXPECT_EQ(viaPrometheus->alertsEvaluatedBy, "prometheus");
    EXPECT_EQ(viaLangfuse->alertsEvaluatedBy, "local");
    ASSERT_EQ(viaPrometheus->alerts.size(), 1u);
    EXPECT_EQ(viaLangfuse->alerts, viaPrometheus->alerts);
    EXPECT_EQ(viaPrometheus->alerts[0].pendingAt, at(kDipAt + 14 * 60));
    EXPECT_EQ(viaPrometheus->alerts[0].firingAt, std::optional<double>(at(kDipAt + 29 * 60)));

    const auto a = evaluateTimeline(*viaPrometheus), b = evaluateTimeline(*viaLangfuse);
    EXPECT_EQ(*a.verdict, Verdict::Investigate);  // the alert fired after the change
    EXPECT_EQ(*b.verdict, Verdict::Investigate);
    // Throughput: 1000 tok/s in the hour before the change, 1500 once the 5-minute rate window has passed it.
    EXPECT_NEAR(*a.throughput.beforeMean, 1000, 1e-6);
    EXPECT_NEAR(*a.throughput.afterMean, 1500, 1e-6);
    EXPECT_NEAR(*a.throughput.deltaPct(), 50, 1e-6);
    ASSERT_TRUE(viaPrometheus->detectedChange.has_value());
    EXPECT_EQ(viaPrometheus->detectedChange->to, "fp8");
    EXPECT_EQ(viaPrometheus->detectedChange->at, at(kChangeAt));
}

TEST_F(PrometheusLive, CancelStopsARangeQuery) {
    Progress cancelled;
    cancelled.cancelled = [] { return true; };
    auto r = client(100).queryRange(kThroughput, at(kChangeAt - kHours), at(kChangeAt + kHours), 15, cancelled);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().message, "Prometheus at " + s_server->baseUrl() + "/api/v1/query_range: cancelled");
}

// Basic auth in front of a real Prometheus (--web.config.file), the one scheme Prometheus 2.42 itself checks.
TEST(PrometheusLiveAuth, BasicAuthRightAndWrongPassword) {
    if (const auto why = test::PrometheusServer::unavailableReason(); !why.empty()) GTEST_SKIP() << why;
    const double start = startTime();
    test::PrometheusServerOptions options;
    options.openMetrics = "# TYPE probe gauge\nprobe 1 " + test::openMetricsNumber(start) + "\nprobe 2 " +
                          test::openMetricsNumber(start + 60) + "\n# EOF\n";
    options.basicAuthUser = kUser;
    options.basicAuthBcrypt = kBcrypt;
    options.basicAuthPassword = kPassword;
    test::PrometheusServer server(options);
    ASSERT_TRUE(server.ok()) << server.error();

    PrometheusSettings settings;
    settings.baseUrl = server.baseUrl();
    settings.http.auth = {HttpAuth::Kind::Basic, kUser, kPassword, {}};
    const PrometheusClient right(settings);
    auto info = right.buildInfo();
    ASSERT_TRUE(info.ok()) << info.error().message;
    auto value = right.query("probe", start + 60);
    ASSERT_TRUE(value.ok()) << value.error().message;
    ASSERT_EQ(value->series.size(), 1u);
    EXPECT_EQ(value->series[0].samples, (std::vector<Sample>{{start + 60, 2.0}}));

    settings.http.auth.password = "not-the-password";
    settings.http.maxRetries = 0;
    auto refused = PrometheusClient(settings).query("probe", start + 60);
    ASSERT_FALSE(refused.ok());
    EXPECT_EQ(refused.error().message.rfind("Prometheus at " + server.baseUrl() + "/api/v1/query: HTTP 401", 0), 0u)
        << refused.error().message;
    EXPECT_NE(refused.error().message.find("unauthorized"), std::string::npos) << refused.error().message;
    EXPECT_EQ(refused.error().message.find("not-the-password"), std::string::npos);

    // Prometheus checks basic auth only: a bearer token is refused the same way (a proxy would take it).
    settings.http.auth = {HttpAuth::Kind::Bearer, {}, {}, "some-token"};
    auto bearer = PrometheusClient(settings).buildInfo();
    ASSERT_FALSE(bearer.ok());
    EXPECT_NE(bearer.error().message.find("HTTP 401"), std::string::npos) << bearer.error().message;
    EXPECT_EQ(bearer.error().message.find("some-token"), std::string::npos);
}

}  // namespace
}  // namespace fp8dash
