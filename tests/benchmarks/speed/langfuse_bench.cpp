// fp8dash-bench-langfuse: the quality of a month with 1,000,000 judge scores from the Langfuse test server
// (v4 personality: v3 scores, observations v2, the Metrics API), read through the aggregate mode (the Metrics API's
// per-minute sums and counts) and through the raw mode (every score: the tagged traces, then their scores by trace id
// in batches of 100). Counters: the requests made, the scores or minutes read, and the timeline's figures (before and
// after means) so that the two modes can be seen to agree. Wall time is the whole fetchTimeline (the alert over the
// month included). Not a test: the figures go to README.md here.
#include <benchmark/benchmark.h>

#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "fp8dash/core/langfuse_client.h"
#include "fp8dash/core/timeline.h"
#include "langfuse_test_server.h"

namespace fp8dash::bench {
namespace {

constexpr double kStart = 1795824000;  // 2026-11-28T00:00:00Z
constexpr int kScores = 1'000'000;
constexpr double kMonth = 30 * 86400.0;

// One score every 2.592 s for 30 days, each on its own trace tagged precision:fp8, around 4.2 with a dip to 3.6 for
// two hours in the third week; the first 26 hours are the alert's look-back.
test::LangfuseTestServer& server() {
    static std::unique_ptr<test::LangfuseTestServer> s = [] {
        std::vector<test::LangfuseSeedScore> seeded;
        seeded.reserve(kScores);
        const double every = kMonth / kScores;
        for (int i = 0; i < kScores; ++i) {
            test::LangfuseSeedScore x;
            x.id = "s" + std::to_string(i);
            x.traceId = "t" + std::to_string(i);
            x.timestamp = kStart + 0.37 + every * i;
            const bool dip = x.timestamp >= kStart + 20 * 86400 && x.timestamp < kStart + 20 * 86400 + 7200;
            x.value = (dip ? 3.6 : 4.2) + ((i * 37) % 11 - 5) * 0.05;
            x.traceTags = {"precision:fp8"};
            x.environment = "production";
            seeded.push_back(std::move(x));
        }
        test::LangfuseTestServer::Options o;
        o.personality = test::LangfuseTestServer::Personality::V4;
        return std::make_unique<test::LangfuseTestServer>(std::move(seeded), o);
    }();
    return *s;
}

void monthFetch(benchmark::State& state, LangfuseMode mode) {
    auto& srv = server();
    TimelineSettings st;
    st.fetchThroughput = false;
    st.qualitySource = QualitySource::Langfuse;
    st.langfuseUrl = srv.baseUrl();
    st.traceTags = {"precision:fp8"};
    st.from = kStart + 26 * 3600;
    st.to = kStart + kMonth;
    st.step = 60;
    st.changeAt = kStart + 15 * 86400;
    st.langfuseMode = mode;
    TimelineCredentials cred;
    cred.langfusePublicKey = srv.options().publicKey;
    cred.langfuseSecretKey = srv.options().secretKey;
    std::size_t requests = 0;
    TimelineReport report;
    std::size_t read = 0;
    for (auto _ : state) {
        forgetLangfuseServers();  // each run finds the server anew (one health request)
        const std::size_t before = srv.requestCount();
        auto data = fetchTimeline(st, cred);
        if (!data) {
            state.SkipWithError(data.error().message.c_str());
            return;
        }
        requests = srv.requestCount() - before;
        report = evaluateTimeline(*data);
        read = data->qualityBuckets ? data->qualityBuckets->size() : data->quality->samples.size();
        benchmark::DoNotOptimize(report);
    }
    state.counters["requests"] = static_cast<double>(requests);
    state.counters[mode == LangfuseMode::Aggregate ? "minutes" : "scores"] = static_cast<double>(read);
    state.counters["before_mean"] = report.quality.beforeMean.value_or(NAN);
    state.counters["after_mean"] = report.quality.afterMean.value_or(NAN);
    state.counters["alert_episodes"] = static_cast<double>(report.alerts.size());
}

void BM_LangfuseMonthAggregate(benchmark::State& state) {
    monthFetch(state, LangfuseMode::Aggregate);
}
void BM_LangfuseMonthRaw(benchmark::State& state) {
    monthFetch(state, LangfuseMode::Raw);
}

BENCHMARK(BM_LangfuseMonthAggregate)->Iterations(3)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_LangfuseMonthRaw)->Iterations(1)->UseRealTime()->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace fp8dash::bench

BENCHMARK_MAIN();
