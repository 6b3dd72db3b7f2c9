// The time-series engine: expected values worked out by hand in each test.
#include "fp8dash/core/time_series.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>

namespace fp8dash {
namespace {

std::vector<Sample> ramp(double t0, double step, const std::vector<double>& values) {
    std::vector<Sample> out;
    for (std::size_t i = 0; i < values.size(); ++i) out.push_back({t0 + step * static_cast<double>(i), values[i]});
    return out;
}

TEST(CombineSeries, SumAtEqualTimestamps) {
    Series a{{{"instance", "a"}}, ramp(0, 15, {1, 2, 3})};
    Series b{{{"instance", "b"}}, ramp(15, 15, {10, 20, 30})};
    auto s = sumSeries({a, b});
    ASSERT_TRUE(s.ok());
    EXPECT_EQ(s->samples, (std::vector<Sample>{{0, 1}, {15, 12}, {30, 23}, {45, 30}}));
    EXPECT_FALSE(sumSeries({}).ok());
}

TEST(CombineSeries, PickByLabels) {
    Series a{{{"instance", "a:8000"}, {"model_name", "llama"}}, ramp(0, 15, {1})};
    Series b{{{"instance", "b:8000"}, {"model_name", "llama"}}, ramp(0, 15, {2})};
    auto one = pickSeries({a, b}, "instance=b:8000");
    ASSERT_TRUE(one.ok()) << one.error().message;
    EXPECT_EQ(one->samples[0].v, 2);
    EXPECT_TRUE(pickSeries({a, b}, R"(model_name="llama", instance="a:8000")").ok());
    auto both = pickSeries({a, b}, "model_name=llama");
    ASSERT_FALSE(both.ok());
    EXPECT_NE(both.error().message.find("2 series match"), std::string::npos);
    auto none = pickSeries({a, b}, "instance=c");
    ASSERT_FALSE(none.ok());
    EXPECT_NE(none.error().message.find(R"({instance="a:8000", model_name="llama"})"), std::string::npos)
        << none.error().message;
    EXPECT_FALSE(pickSeries({a}, "instance").ok());
}

TEST(Summary, BeforeStrictlyBeforeAfterFromChangePlusSettle) {
    // change at 1000, settle 300: before = t < 1000; after = t >= 1300; 1000..1299 is left out.
    const std::vector<Sample> s = {{900, 10},
                                   {999.999, 20},
                                   {1000, 999},
                                   {1299, 999},
                                   {1300, 30},
                                   {1400, 50},
                                   {1500, std::numeric_limits<double>::quiet_NaN()}};
    const auto p = summarizeAroundChange(s, 1000, 300);
    EXPECT_EQ(p.beforeCount, 2u);
    EXPECT_EQ(p.afterCount, 2u);
    EXPECT_DOUBLE_EQ(*p.beforeMean, 15);
    EXPECT_DOUBLE_EQ(*p.afterMean, 40);
    EXPECT_DOUBLE_EQ(*p.deltaPct(), (40.0 - 15.0) / 15.0 * 100);
    EXPECT_DOUBLE_EQ(*p.deltaPoints(), 25);
    const auto empty = summarizeAroundChange({}, 1000);
    EXPECT_FALSE(empty.deltaPct().has_value());
    EXPECT_FALSE(empty.deltaPoints().has_value());
}

TEST(AlertRule, PromqlOfTheProductRule) {
    EXPECT_EQ(AlertRule{}.promql(R"(langfuse_score_value{name="llm_judge_domain"})"),
              R"(avg_over_time(langfuse_score_value{name="llm_judge_domain"}[30m]) < )"
              R"(avg_over_time(langfuse_score_value{name="llm_judge_domain"}[1d] offset 2h) - 0.2)");
    AlertRule r;
    r.shortWindowS = 90;
    r.longWindowS = 7200;
    r.offsetS = 0;
    r.margin = 0.25;
    EXPECT_EQ(r.promql("q"), "avg_over_time(q[90s]) < avg_over_time(q[2h] offset 0s) - 0.25");
}

TEST(AlertStateMachine, PendingFiringResolved) {
    const auto times = evaluationTimes(0, 600, 60);  // 0, 60, ..., 600
    ASSERT_EQ(times.size(), 11u);
    //                         0      60     120   180   240   300   360    420    480   540   600
    std::vector<bool> cond = {false, true, true, true, true, false, true, false, true, true, true};
    const auto e = alertEpisodes(times, cond, 180);
    ASSERT_EQ(e.size(), 3u);
    EXPECT_EQ(e[0], (AlertEpisode{60, 240, 300}));                     // held 180 s at 240 -> firing; false at 300
    EXPECT_EQ(e[1], (AlertEpisode{360, std::nullopt, 420}));           // pending only, dropped
    EXPECT_EQ(e[2], (AlertEpisode{480, std::nullopt, std::nullopt}));  // still pending at the end (540-480 < 180)
    // for: 0 fires at the first evaluation.
    const auto now = alertEpisodes(times, cond, 0);
    EXPECT_EQ(now[0], (AlertEpisode{60, 60, 300}));
}

TEST(AlertCondition, WindowsAreClosedAndOffsetShiftsTheBaseline) {
    AlertRule r;
    r.shortWindowS = 100;
    r.longWindowS = 200;
    r.offsetS = 300;
    r.margin = 0.5;
    // Baseline score 4 for t in [0, 400], then a drop to 3 from 500 on.
    std::vector<Sample> raw;
    for (int t = 0; t <= 400; t += 50) raw.push_back({double(t), 4.0});
    for (int t = 500; t <= 1000; t += 50) raw.push_back({double(t), 3.0});
    const std::vector<double> times = {350, 500, 550, 600, 700, 750, 800, 1000};
    const auto c = evaluateAlertCondition(raw, times, r);
    // T=350: recent [250,350]=4; baseline [-150,50]=4 -> false.
    // T=500: recent [400,500] = {4,3} mean 3.5; baseline [0,200]=4 -> 3.5 < 3.5 false (not strictly less).
    // T=550: recent [450,550] = {3,3}; baseline [50,250]=4 -> true.
    // T=700: recent 3; baseline [200,400] = 4 -> true.  T=750: baseline [250,450] = 4 -> true.
    // T=800: baseline [300,500] = {4,4,4,3} mean 3.75 -> 3 < 3.25 true.
    // T=1000: baseline [500,700] = 3 -> false.
    EXPECT_EQ(c, (std::vector<bool>{false, false, true, true, true, true, true, false}));
}

TEST(AlertCondition, EmptyWindowsAndNaN) {
    AlertRule r;
    r.shortWindowS = 10;
    r.longWindowS = 10;
    r.offsetS = 100;
    r.margin = 0;
    const std::vector<Sample> raw = {{0, 5}, {100, 1}, {200, std::numeric_limits<double>::quiet_NaN()}, {300, 1}};
    // T=100: recent {1}, baseline [-10,0] {5} -> true. T=150: recent [140,150] empty -> false.
    // T=300: recent {1}, baseline [190,200] {NaN} -> NaN comparisons are false.
    EXPECT_EQ(evaluateAlertCondition(raw, {100, 150, 300}, r), (std::vector<bool>{true, false, false}));
}

// The rule from its definition, one evaluation at a time: the samples of each window (integer milliseconds, both
// ends closed), averaged as Prometheus 2.x's avg_over_time does (its incremental mean and its infinity cases).
std::vector<bool> alertConditionByDefinition(const std::vector<Sample>& raw, const std::vector<double>& times,
                                             const AlertRule& r) {
    const auto ms = [](double s) { return static_cast<std::int64_t>(std::llround(s * 1000.0)); };
    const auto mean = [&](std::int64_t from, std::int64_t to, bool& any) {
        double m = 0, count = 0;
        any = false;
        // The samples are sorted: start at the first one not before `from`.
        auto first = std::lower_bound(raw.begin(), raw.end(), from,
                                      [&](const Sample& s, std::int64_t x) { return ms(s.t) < x; });
        for (auto it = first; it != raw.end() && ms(it->t) <= to; ++it) {
            const Sample& s = *it;
            any = true;
            count += 1;
            if (std::isinf(m) && ((std::isinf(s.v) && (m > 0) == (s.v > 0)) || (!std::isinf(s.v) && !std::isnan(s.v))))
                continue;
            m += s.v / count - m / count;
        }
        return m;
    };
    std::vector<bool> out;
    for (double time : times) {
        const auto T = ms(time);
        bool anyRecent = false, anyBaseline = false;
        const double recent = mean(T - ms(r.shortWindowS), T, anyRecent);
        const double baseline = mean(T - ms(r.offsetS) - ms(r.longWindowS), T - ms(r.offsetS), anyBaseline);
        out.push_back(anyRecent && anyBaseline && recent < baseline - r.margin);
    }
    return out;
}

// Random series (scores on a coarse grid that puts many evaluations exactly on the threshold, real-valued rates,
// NaN and infinities, uneven spacing) against the definition, evaluation by evaluation.
TEST(AlertCondition, AgreesWithTheDefinitionOnRandomSeries) {
    std::mt19937_64 rng(4242);
    const auto uniform = [&](double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(rng); };
    for (int round = 0; round < 120; ++round) {
        AlertRule rule;
        rule.shortWindowS = 60.0 * static_cast<double>(1 + rng() % 10);
        rule.longWindowS = 60.0 * static_cast<double>(5 + rng() % 60);
        rule.offsetS = 60.0 * static_cast<double>(rng() % 30);
        const double margins[] = {0, 0.2, 0.5, 0.1, 1e-12};
        rule.margin = margins[rng() % std::size(margins)];
        const int kind = round % 4;
        std::vector<Sample> raw;
        double t = 1795852800 + uniform(0, 10);
        const std::size_t n = 200 + rng() % 1500;
        for (std::size_t i = 0; i < n; ++i) {
            double v = kind == 0   ? static_cast<double>(1 + rng() % 5)    // judge scores
                       : kind == 1 ? 0.5 * static_cast<double>(rng() % 9)  // on a grid that hits the edges
                       : kind == 2 ? uniform(3.5, 4.5)                     // averages
                                   : uniform(-1e6, 1e6);                   // anything
            if (rng() % 97 == 0) v = std::numeric_limits<double>::quiet_NaN();
            if (rng() % 89 == 0) v = (rng() % 2 ? 1 : -1) * std::numeric_limits<double>::infinity();
            raw.push_back({t, v});
            t += rng() % 5 == 0 ? uniform(0, 600) : 15;  // gaps, and samples on the window edges
        }
        const double step = 15.0 * static_cast<double>(1 + rng() % 4);
        const auto times = evaluationTimes(raw.front().t - 600, raw.back().t + 3600, step);
        SCOPED_TRACE("round " + std::to_string(round));
        EXPECT_EQ(evaluateAlertCondition(raw, times, rule), alertConditionByDefinition(raw, times, rule));
    }
}

TEST(EvaluationTimes, PrometheusAlignment) {
    EXPECT_EQ(evaluationTimes(10, 40, 15), (std::vector<double>{10, 25, 40}));
    EXPECT_EQ(evaluationTimes(10, 39.999, 15), (std::vector<double>{10, 25}));
    EXPECT_TRUE(evaluationTimes(10, 0, 15).empty());
    EXPECT_TRUE(evaluationTimes(0, 10, 0).empty());
}

TEST(Lttb, KeepsEndsSizeAndSpikes) {
    std::vector<Sample> s;
    for (int i = 0; i < 10000; ++i) s.push_back({double(i), i == 5001 ? 100.0 : std::sin(i / 100.0)});
    const auto d = downsampleLttb(s, 500);
    ASSERT_EQ(d.size(), 500u);
    EXPECT_EQ(d.front(), s.front());
    EXPECT_EQ(d.back(), s.back());
    EXPECT_TRUE(std::is_sorted(d.begin(), d.end(), [](const Sample& a, const Sample& b) { return a.t < b.t; }));
    EXPECT_TRUE(std::any_of(d.begin(), d.end(), [](const Sample& p) { return p.v == 100.0; }));  // the spike survives
    EXPECT_EQ(downsampleLttb(ramp(0, 1, {1, 2, 3}), 500).size(), 3u);
    std::vector<Sample> withNan = ramp(0, 1, {1, std::numeric_limits<double>::quiet_NaN(), 3});
    EXPECT_EQ(downsampleLttb(withNan, 500).size(), 2u);
}

// LTTB from its definition (Steinarsson 2013): the first and last points kept, the rest in threshold - 2 equal
// buckets, from each the point with the largest triangle between the previously chosen point and the next bucket's
// average. Written out plainly here, over the finite samples.
std::vector<Sample> lttbByDefinition(std::vector<Sample> data, std::size_t threshold) {
    data.erase(std::remove_if(data.begin(), data.end(), [](const Sample& s) { return !std::isfinite(s.v); }),
               data.end());
    if (data.size() <= threshold) return data;
    const double every = static_cast<double>(data.size() - 2) / static_cast<double>(threshold - 2);
    const auto bucketStart = [&](std::size_t b) { return static_cast<std::size_t>(std::floor(b * every)) + 1; };
    std::vector<Sample> out = {data.front()};
    Sample previous = data.front();
    for (std::size_t b = 0; b + 2 < threshold; ++b) {
        const std::size_t nextFrom = bucketStart(b + 1), nextTo = std::min(bucketStart(b + 2), data.size());
        double avgT = data.back().t, avgV = data.back().v;
        if (nextTo > nextFrom) {
            avgT = avgV = 0;
            for (std::size_t j = nextFrom; j < nextTo; ++j) avgT += data[j].t, avgV += data[j].v;
            avgT /= static_cast<double>(nextTo - nextFrom);
            avgV /= static_cast<double>(nextTo - nextFrom);
        }
        Sample best = data[bucketStart(b)];
        double bestArea = -1;
        for (std::size_t j = bucketStart(b); j < std::min(bucketStart(b + 1), data.size()); ++j) {
            const double area = std::fabs((previous.t - avgT) * (data[j].v - previous.v) -
                                          (previous.t - data[j].t) * (avgV - previous.v));
            if (area > bestArea) bestArea = area, best = data[j];
        }
        out.push_back(best);
        previous = best;
    }
    out.push_back(data.back());
    return out;
}

TEST(Lttb, AgreesWithTheDefinitionWithAndWithoutNonFiniteSamples) {
    std::mt19937_64 rng(99);
    for (int round = 0; round < 20; ++round) {
        std::vector<Sample> s;
        const std::size_t n = 3000 + rng() % 20000;
        for (std::size_t i = 0; i < n; ++i) {
            double v = std::sin(static_cast<double>(i) / 50.0) * 100 + static_cast<double>(rng() % 1000) / 10.0;
            if (round % 2 && rng() % 50 == 0) v = std::numeric_limits<double>::quiet_NaN();
            s.push_back({1795852800 + 15.0 * static_cast<double>(i), v});
        }
        const std::size_t threshold = 3 + rng() % 2000;
        EXPECT_EQ(downsampleLttb(s, threshold), lttbByDefinition(s, threshold));
        // A part of the samples, read in place.
        const std::span<const Sample> part(s.data() + 100, s.size() / 2);
        EXPECT_EQ(downsampleLttb(part, threshold), lttbByDefinition({part.begin(), part.end()}, threshold));
    }
}

TEST(TimePoints, UnixSecondsAndRfc3339) {
    EXPECT_DOUBLE_EQ(parseTimePoint("1795852800", "--from").value(), 1795852800);
    EXPECT_DOUBLE_EQ(parseTimePoint("1795852800.5", "--from").value(), 1795852800.5);
    EXPECT_DOUBLE_EQ(parseTimePoint("2026-11-28T00:00:00Z", "--from").value(), 1795824000);
    EXPECT_DOUBLE_EQ(parseTimePoint("2026-11-28T02:30:00+02:00", "--from").value(), 1795824000 + 1800);
    EXPECT_DOUBLE_EQ(parseTimePoint("2026-11-28 00:00:01.250z", "--to").value(), 1795824001.25);
    for (const char* bad :
         {"", "yesterday", "2026-11-28", "2026-11-28T00:00:00", "2026-13-01T00:00:00Z", "-5", "nan"}) {
        auto r = parseTimePoint(bad, "--change-at");
        ASSERT_FALSE(r.ok()) << bad;
        EXPECT_NE(r.error().message.find("--change-at"), std::string::npos);
    }
    EXPECT_EQ(formatTimeUtc(1795824000), "2026-11-28 00:00:00 UTC");
}

}  // namespace
}  // namespace fp8dash
