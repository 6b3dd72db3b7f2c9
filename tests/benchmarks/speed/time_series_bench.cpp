// fp8dash-bench-timeseries (speed target 2, ../README.md): a Prometheus range fetch of a month at 15 s
// (PrometheusClient: chunked, concurrent) against the same requests issued one after another by the curl command-line
// tool, both against a real Prometheus on loopback (Debian's prometheus + promtool, as the tests start it); the quality
// alert over 1M-10M points (its scaling); LTTB from 10M points to 2,000. Not a test: figures go to README.md here.
#include <benchmark/benchmark.h>

#include <sys/resource.h>

#include <chrono>
#include <cmath>
#include <ctime>
#include <iostream>
#include <memory>
#include <random>
#include <sstream>

#include "bench_support.h"
#include "fp8dash/core/http_client.h"
#include "fp8dash/core/prometheus_client.h"
#include "fp8dash/core/time_series.h"
#include "prometheus_server.h"

namespace fp8dash::bench {
namespace {

constexpr double kDay = 86400;
constexpr double kMonth = 30 * kDay;
constexpr double kStep = 15;
const char* const kThroughputQuery = "sum(rate(vllm:generation_tokens_total[5m]))";

// ---- The quality alert -------------------------------------------------------------------------------------------

// `points` Langfuse-style judge scores (1-5) spread evenly over a month, a lasting dip after three weeks; the rule
// evaluated every 15 s over that month (172,800 evaluations, as recomputeDerived does for a month at 15 s).
struct AlertInput {
    std::vector<Sample> raw;
    std::vector<double> times;
};

AlertInput alertInput(std::size_t points) {
    AlertInput in;
    const double from = 1795852800;
    std::mt19937_64 rng(points);
    std::discrete_distribution<int> before({1, 2, 10, 45, 42}), after({3, 8, 20, 40, 29});
    in.raw.reserve(points);
    for (std::size_t i = 0; i < points; ++i) {
        const double t = from + kMonth * static_cast<double>(i) / static_cast<double>(points);
        in.raw.push_back({t, 1.0 + (t < from + 21 * kDay ? before(rng) : after(rng))});
    }
    in.times = evaluationTimes(from + kDay + 2 * 3600, from + kMonth, kStep);
    return in;
}

void BM_AlertCondition(benchmark::State& state) {
    const AlertInput in = alertInput(static_cast<std::size_t>(state.range(0)));
    const AlertRule rule;
    std::size_t held = 0;
    for (auto _ : state) {
        const auto condition = evaluateAlertCondition(in.raw, in.times, rule);
        held = static_cast<std::size_t>(std::count(condition.begin(), condition.end(), true));
        benchmark::DoNotOptimize(condition);
    }
    state.SetComplexityN(state.range(0));
    state.SetItemsProcessed(state.range(0) * static_cast<std::int64_t>(state.iterations()));
    state.counters["evaluations"] = static_cast<double>(in.times.size());
    state.counters["evaluations_holding"] = static_cast<double>(held);
}

// The evaluation before the sliding windows (this project's own, from its history): each evaluation averages both
// windows' samples afresh, so the cost grows with points x evaluations (the 1-day window holds points / 30 samples
// here).
std::vector<bool> alertConditionPerEvaluation(const std::vector<Sample>& raw, const std::vector<double>& times,
                                              const AlertRule& rule) {
    const auto toMs = [](double s) { return static_cast<std::int64_t>(std::llround(s * 1000.0)); };
    std::vector<bool> out(times.size(), false);
    const auto shortW = toMs(rule.shortWindowS), longW = toMs(rule.longWindowS), offset = toMs(rule.offsetS);
    auto at = [&](std::size_t i) { return toMs(raw[i].t); };
    std::size_t sFirst = 0, sLast = 0, lFirst = 0, lLast = 0;
    for (std::size_t k = 0; k < times.size(); ++k) {
        const auto T = toMs(times[k]);
        const auto lEnd = T - offset;
        while (sLast < raw.size() && at(sLast) <= T) ++sLast;
        while (sFirst < sLast && at(sFirst) < T - shortW) ++sFirst;
        while (lLast < raw.size() && at(lLast) <= lEnd) ++lLast;
        while (lFirst < lLast && at(lFirst) < lEnd - longW) ++lFirst;
        if (sFirst == sLast || lFirst == lLast) continue;
        const double recent =
            prometheusMean(raw.begin() + static_cast<long>(sFirst), raw.begin() + static_cast<long>(sLast));
        const double baseline =
            prometheusMean(raw.begin() + static_cast<long>(lFirst), raw.begin() + static_cast<long>(lLast));
        out[k] = recent < baseline - rule.margin;
    }
    return out;
}

void BM_AlertConditionPrevious(benchmark::State& state) {
    const AlertInput in = alertInput(static_cast<std::size_t>(state.range(0)));
    const AlertRule rule;
    const auto expected = evaluateAlertCondition(in.raw, in.times, rule);
    for (auto _ : state) {
        const auto condition = alertConditionPerEvaluation(in.raw, in.times, rule);
        if (condition != expected) state.SkipWithError("the two evaluations disagree");
        benchmark::DoNotOptimize(condition);
    }
    state.SetItemsProcessed(state.range(0) * static_cast<std::int64_t>(state.iterations()));
}

// ---- LTTB --------------------------------------------------------------------------------------------------------

void BM_Lttb(benchmark::State& state) {
    std::vector<Sample> samples;
    const auto n = static_cast<std::size_t>(state.range(0));
    samples.reserve(n);
    std::mt19937_64 rng(3);
    std::normal_distribution<double> noise(0, 30);
    for (std::size_t i = 0; i < n; ++i)
        samples.push_back({1795852800 + 0.25 * static_cast<double>(i), 1200 + 300 * std::sin(i * 1e-5) + noise(rng)});
    for (auto _ : state) {
        auto drawn = downsampleLttb(samples, static_cast<std::size_t>(state.range(1)));
        benchmark::DoNotOptimize(drawn);
    }
    state.SetItemsProcessed(state.range(0) * static_cast<std::int64_t>(state.iterations()));
}

// ---- Prometheus: a month at 15 s ---------------------------------------------------------------------------------

std::string number(double v) {
    std::ostringstream s;
    s.imbue(std::locale::classic());
    s.precision(17);
    s << v;
    return s.str();
}

// Two vLLM engines' generation-token counters scraped every 15 s for a month (and the hour before it, for rate()).
struct MonthOfData {
    std::unique_ptr<test::PrometheusServer> server;
    double start = 0;
    double end = 0;
    std::string error;
};

const MonthOfData& monthOfData() {
    static const MonthOfData data = [] {
        MonthOfData d;
        if (const std::string why = test::PrometheusServer::unavailableReason(); !why.empty()) {
            d.error = why;
            return d;
        }
        // Backfilled blocks must be older than the head block's ~3 h.
        d.end = std::floor(static_cast<double>(std::time(nullptr)) / 3600) * 3600 - 4 * kDay;
        d.start = d.end - kMonth;
        std::ostringstream om;
        om << "# HELP vllm:generation_tokens Number of generation tokens processed.\n"
              "# TYPE vllm:generation_tokens counter\n";
        for (int engine = 0; engine < 2; ++engine) {
            double counter = 0;
            for (double t = d.start - 3600; t <= d.end; t += kStep) {
                counter += kStep * (engine == 0 ? 600 : 400) * (t < d.start + kMonth / 2 ? 1.0 : 1.5);
                om << "vllm:generation_tokens_total{engine=\"" << engine << "\",model_name=\"llama-3.1-8b\"} "
                   << number(counter) << ' ' << number(t) << '\n';
            }
        }
        om << "# EOF\n";
        test::PrometheusServerOptions options;
        options.openMetrics = om.str();
        options.readyTimeoutS = 120;
        const auto began = std::chrono::steady_clock::now();
        d.server = std::make_unique<test::PrometheusServer>(options);
        std::cerr << "[prometheus] a month at 15 s backfilled and served in "
                  << std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count() << " s\n";
        if (!d.server->ok()) d.error = d.server->error();
        return d;
    }();
    return data;
}

// The requests PrometheusClient::queryRange sends for the month (the same chunk grid, 11,000 points each).
std::vector<std::string> chunkUrls(const MonthOfData& d) {
    std::vector<std::string> urls;
    const auto startMs = std::llround(d.start * 1000), endMs = std::llround(d.end * 1000),
               stepMs = std::llround(kStep * 1000);
    const long long perChunk = PrometheusClient::kMaxPointsPerQuery;
    for (long long from = startMs; from <= endMs; from += perChunk * stepMs) {
        const long long to = std::min(endMs, from + (perChunk - 1) * stepMs);
        urls.push_back(d.server->baseUrl() + "/api/v1/query_range?query=" + HttpClient::urlEncode(kThroughputQuery) +
                       "&start=" + std::to_string(from / 1000) + "&end=" + std::to_string(to / 1000) +
                       "&step=" + std::to_string(stepMs / 1000));
    }
    return urls;
}

void BM_PrometheusMonthFetch(benchmark::State& state) {
    const MonthOfData& d = monthOfData();
    if (!d.error.empty()) {
        state.SkipWithError(d.error.c_str());
        return;
    }
    PrometheusSettings settings;
    settings.baseUrl = d.server->baseUrl();
    const PrometheusClient client(settings);
    const int parallel = static_cast<int>(state.range(0));
    std::size_t points = 0;
    const auto cpuSeconds = [] {
        rusage usage{};
        ::getrusage(RUSAGE_SELF, &usage);  // every thread of this process: the client's work
        return static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
               static_cast<double>(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) * 1e-6;
    };
    const double cpuBefore = cpuSeconds();
    for (auto _ : state) {
        auto r = client.queryRange(kThroughputQuery, d.start, d.end, kStep, {}, parallel);
        if (!r || r->series.size() != 1) {
            state.SkipWithError(r ? "not one series" : r.error().message.c_str());
            return;
        }
        points = r->series[0].samples.size();
    }
    state.counters["points"] = static_cast<double>(points);
    state.counters["requests"] = static_cast<double>(chunkUrls(d).size());
    state.counters["client_cpu_ms"] = (cpuSeconds() - cpuBefore) * 1000 / static_cast<double>(state.iterations());
}

// The same requests, one after another, by one curl process (it reuses the connection, as a script would);
// range(0) 1: with --compressed (gzip, as PrometheusClient asks for).
void BM_PrometheusMonthCurlOneAfterAnother(benchmark::State& state) {
    const MonthOfData& d = monthOfData();
    const std::string curl = test::findExecutable("curl");
    if (!d.error.empty() || curl.empty()) {
        state.SkipWithError(curl.empty() ? "curl is not on PATH" : d.error.c_str());
        return;
    }
    std::vector<std::string> argv = {curl, "--silent", "--show-error", "--fail", "--no-progress-meter"};
    if (state.range(0) & 1) argv.push_back("--compressed");
    if (state.range(0) & 2) argv.insert(argv.end(), {"--parallel", "--parallel-max", "4"});
    for (const auto& url : chunkUrls(d)) {
        argv.insert(argv.end(), {"--output", "/dev/null", url});
    }
    for (auto _ : state) {
        const ChildRun run = runChild(argv);
        if (run.exitCode != 0) {
            state.SkipWithError("curl failed");
            return;
        }
        state.SetIterationTime(run.wallSeconds);
    }
    state.counters["requests"] = static_cast<double>(chunkUrls(d).size());
}

}  // namespace
}  // namespace fp8dash::bench

using namespace fp8dash::bench;

BENCHMARK(BM_AlertCondition)
    ->Arg(1'000'000)
    ->Arg(2'000'000)
    ->Arg(5'000'000)
    ->Arg(10'000'000)
    ->Unit(benchmark::kMillisecond)
    ->Complexity(benchmark::oN);
BENCHMARK(BM_AlertConditionPrevious)->Arg(1'000'000)->Iterations(1)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Lttb)->Args({1'000'000, 2000})->Args({10'000'000, 2000})->Unit(benchmark::kMillisecond);
// parallel = 4 is queryRange's default; 1 shows the client alone against curl.
BENCHMARK(BM_PrometheusMonthFetch)
    ->Arg(4)
    ->Arg(1)
    ->Arg(2)
    ->Arg(8)
    ->Iterations(5)
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_PrometheusMonthCurlOneAfterAnother)
    ->Arg(0)
    ->Arg(1)
    ->Arg(2)
    ->Arg(3)
    ->Iterations(5)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
