// TimelineFollower (issue 28): a window ending now, refreshed with only what is new, the alert's state followed.
// Driven by a stand-in fetch over a world of scores that grows as a test clock moves (no wall clock, no sleeping).
// Expected transitions come from one snapshot evaluation of the whole range (evaluateAlertCondition + alertEpisodes
// over every sample at once), which the follower's incremental merging must reproduce.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <vector>

#include "fp8dash/core/timeline_follower.h"

namespace fp8dash {
namespace {

constexpr double kStep = 60;
constexpr double kNow0 = 1796000040;          // the test clock's start: 40 s past a step
constexpr double kDrop = kNow0 + 20 * 60;     // the scores drop from 4.2 to 3.6 here ...
constexpr double kRecover = kNow0 + 80 * 60;  // ... and come back here

// Scores every 60 s at :30, from two days before the start: 4.2, then 3.6 between kDrop and kRecover. Each becomes
// visible `lateS` after its time (late arrivals).
struct World {
    double lateS = 0;
    std::vector<double> lateFor;  // sample times that arrive 90 s late (within the re-fetched steps)
    std::vector<Sample> visible(double now) const {
        std::vector<Sample> out;
        for (double t = kNow0 - 2 * 86400 + 30; t <= now; t += kStep) {
            const bool late = std::find(lateFor.begin(), lateFor.end(), t) != lateFor.end();
            if (t + (late ? 90 : lateS) > now) continue;
            out.push_back({t, t >= kDrop && t < kRecover ? 3.6 : 4.2});
        }
        return out;
    }
};

// A stand-in for fetchTimeline over a Prometheus that evaluates the alert itself: the quality samples in [from, to],
// throughput 1000 tok/s at each step, the alert's episodes over the range's evaluation times.
struct FakeSource {
    const World* world = nullptr;
    const double* now = nullptr;
    std::vector<std::pair<double, double>> asked;
    bool failNext = false;

    Result<TimelineData> operator()(const TimelineSettings& st, const Progress&) {
        asked.emplace_back(st.from, st.to);
        if (failNext) {
            failNext = false;
            return Error{"Prometheus at http://127.0.0.1:9/ did not answer (connection refused)"};
        }
        TimelineData d;
        d.settings = st;
        const auto all = world->visible(*now);
        Series q, tp;
        for (const auto& s : all)
            if (s.t >= st.from && s.t <= st.to) q.samples.push_back(s);
        const auto times = evaluationTimes(st.from, st.to, st.step);
        for (double t : times) tp.samples.push_back({t, 1000});
        d.throughput = tp;
        if (st.qualitySource == QualitySource::None) return d;
        d.quality = q;
        d.alerts = alertEpisodes(times, evaluateAlertCondition(all, times, st.rule), st.rule.holdForS);
        d.alertsEvaluatedBy = "prometheus";
        return d;
    }
};

TimelineSettings settings() {
    TimelineSettings st;
    st.prometheusUrl = "http://prometheus.test";
    st.qualitySource = QualitySource::Prometheus;
    st.step = kStep;
    st.rule.windows = WindowSemantics::Prometheus3;
    return st;
}

// The transitions a snapshot of [from, to] holds, with every sample visible at `now`.
std::vector<std::pair<AlertState, double>> snapshotChanges(const World& world, double now, double from, double to) {
    const auto all = world.visible(now);
    const auto st = settings();
    const auto times = evaluationTimes(from, to, kStep);
    std::vector<std::pair<AlertState, double>> out;
    for (const auto& e : alertEpisodes(times, evaluateAlertCondition(all, times, st.rule), st.rule.holdForS)) {
        out.emplace_back(AlertState::Pending, e.pendingAt);
        if (e.firingAt) out.emplace_back(AlertState::Firing, *e.firingAt);
        if (e.resolvedAt) out.emplace_back(AlertState::Inactive, *e.resolvedAt);
    }
    return out;
}

double mean(const std::vector<Sample>& all, double from, double to) {  // (from, to], Prometheus 3 windows
    double sum = 0;
    int n = 0;
    for (const auto& s : all)
        if (s.t > from && s.t <= to) sum += s.v, ++n;
    return sum / n;
}

TEST(TimelineFollower, RefreshesFetchOnlyWhatIsNewAndTellEachAlertChangeOnce) {
    World world;
    double now = kNow0;
    FakeSource source{&world, &now, {}, false};
    FollowWindow window;
    window.lengthS = 3600;
    TimelineFollower follower(settings(), window, std::ref(source), [&now] { return now; });

    std::vector<AlertTransition> told;
    std::vector<AlertState> states;
    for (int i = 0; i < 120; ++i) {
        auto r = follower.refresh();
        ASSERT_TRUE(r) << r.error().message;
        told.insert(told.end(), r->transitions.begin(), r->transitions.end());
        states.push_back(r->state);
        now += kStep;
    }
    // The first fetch: the hour's window and the alert's look-back (1 d + 2 h), on the step grid, ending at now.
    const double firstTo = std::floor(kNow0 / kStep) * kStep;
    ASSERT_EQ(source.asked.size(), 120u);
    EXPECT_EQ(source.asked[0], (std::pair{firstTo - 3600 - 26 * 3600, firstTo}));
    // Later ones: the previous refresh's last two steps again, and the new one.
    for (std::size_t i = 1; i < source.asked.size(); ++i)
        EXPECT_EQ(source.asked[i], (std::pair{firstTo + (i - 3.0) * kStep, firstTo + i * kStep})) << i;

    // The changes told are exactly those of one evaluation of the whole range, each once, in order.
    const double lastTo = firstTo + 119 * kStep;
    const auto expected = snapshotChanges(world, now, source.asked[0].first, lastTo);
    ASSERT_EQ(expected.size(), 3u);  // pending, firing, resolved
    ASSERT_EQ(told.size(), expected.size());
    for (std::size_t i = 0; i < told.size(); ++i) {
        EXPECT_EQ(told[i].to, expected[i].first) << i;
        EXPECT_EQ(told[i].at, expected[i].second) << i;
    }
    EXPECT_EQ(told[1].pendingSince, expected[0].second);
    EXPECT_TRUE(told[2].wasFiring);
    EXPECT_EQ(follower.transitions().size(), 3u);
    EXPECT_EQ(follower.state(), AlertState::Inactive);
    EXPECT_EQ(follower.refreshCount(), 120u);
    EXPECT_NE(std::find(states.begin(), states.end(), AlertState::Firing), states.end());

    // The window means at the firing: the samples of (t - 30m, t] and of (t - 2h - 1d, t - 2h].
    const auto all = world.visible(now);
    ASSERT_TRUE(told[1].shortMean && told[1].baselineMean);
    EXPECT_NEAR(*told[1].shortMean, mean(all, told[1].at - 1800, told[1].at), 1e-9);
    EXPECT_NEAR(*told[1].baselineMean, mean(all, told[1].at - 2 * 3600 - 86400, told[1].at - 2 * 3600), 1e-9);
    EXPECT_LT(*told[1].shortMean, *told[1].baselineMean - 0.2);

    // The data: the window of the last hour for throughput, quality with its look-back, every episode.
    const auto& d = follower.data();
    EXPECT_EQ(d.settings.from, lastTo - 3600);
    EXPECT_EQ(d.settings.to, lastTo);
    ASSERT_TRUE(d.throughput);
    EXPECT_EQ(d.throughput->samples.front().t, lastTo - 3600);
    EXPECT_EQ(d.throughput->samples.size(), 61u);  // each step once: the re-fetched ones replaced, not doubled
    ASSERT_TRUE(d.quality);
    std::vector<Sample> expectedQuality;
    for (const auto& s : all)
        if (s.t >= lastTo - 3600 - 26 * 3600 && s.t <= lastTo) expectedQuality.push_back(s);
    EXPECT_EQ(d.quality->samples, expectedQuality);
    ASSERT_EQ(d.alerts.size(), 1u);
    EXPECT_EQ(follower.verdict(), Verdict::Investigate);  // it fired during the watch
}

TEST(TimelineFollower, LateSamplesInTheRefetchedStepsReplaceWhatWasFetched) {
    World world;
    // Two scores in the drop arrive 90 s late: a refresh sees their steps without them, the next ones with them.
    world.lateFor = {kDrop + 30, kDrop + 5 * 60 + 30};
    double now = kNow0;
    FakeSource source{&world, &now, {}, false};
    TimelineFollower follower(settings(), FollowWindow{3600, std::nullopt}, std::ref(source), [&now] { return now; });
    std::vector<AlertTransition> told;
    for (int i = 0; i < 60; ++i) {
        auto r = follower.refresh();
        ASSERT_TRUE(r) << r.error().message;
        told.insert(told.end(), r->transitions.begin(), r->transitions.end());
        now += kStep;
    }
    const double lastTo = std::floor(kNow0 / kStep) * kStep + 59 * kStep;
    std::vector<Sample> expected;
    for (const auto& s : world.visible(now))
        if (s.t >= lastTo - 3600 - 26 * 3600 && s.t <= lastTo) expected.push_back(s);
    EXPECT_EQ(follower.data().quality->samples, expected);  // the late ones in place, nothing twice
    const auto changes = snapshotChanges(world, now, source.asked[0].first, lastTo);
    ASSERT_EQ(told.size(), changes.size());
    for (std::size_t i = 0; i < told.size(); ++i) EXPECT_EQ(told[i].at, changes[i].second) << i;
}

TEST(TimelineFollower, AFailedFetchChangesNothingAndTheNextCatchesUp) {
    World world;
    double now = kNow0;
    FakeSource source{&world, &now, {}, false};
    TimelineFollower follower(settings(), FollowWindow{3600, std::nullopt}, std::ref(source), [&now] { return now; });
    ASSERT_TRUE(follower.refresh());
    const auto before = follower.data().throughput->samples;
    // Nothing new within the same step: no fetch at all.
    now += 10;
    auto idle = follower.refresh();
    ASSERT_TRUE(idle);
    EXPECT_EQ(idle->fetchedTo, 0);
    EXPECT_EQ(source.asked.size(), 1u);
    // A failure: an error, the data as it was; five minutes later the refresh fetches the whole gap.
    now += kStep;
    source.failNext = true;
    auto failed = follower.refresh();
    ASSERT_FALSE(failed);
    EXPECT_NE(failed.error().message.find("connection refused"), std::string::npos);
    EXPECT_EQ(follower.data().throughput->samples, before);
    EXPECT_EQ(follower.refreshCount(), 2u);
    now += 4 * kStep;
    auto caught = follower.refresh();
    ASSERT_TRUE(caught) << caught.error().message;
    const double firstTo = std::floor(kNow0 / kStep) * kStep;
    EXPECT_EQ(caught->fetchedFrom, firstTo - 2 * kStep);
    EXPECT_EQ(caught->fetchedTo, firstTo + 5 * kStep);
    EXPECT_EQ(caught->newPoints, 5u + 5u);  // five new steps of throughput and five new scores
    EXPECT_EQ(follower.data().throughput->samples.back().t, firstTo + 5 * kStep);
}

TEST(TimelineFollower, TheFirstRefreshTellsOnlyTheEpisodeStillActive) {
    World world;
    double now = kDrop + 40 * 60;  // the alert already fired (the drop began 40 minutes ago)
    FakeSource source{&world, &now, {}, false};
    TimelineFollower follower(settings(), FollowWindow{6 * 3600, std::nullopt}, std::ref(source),
                              [&now] { return now; });
    auto r = follower.refresh();
    ASSERT_TRUE(r) << r.error().message;
    const auto changes = snapshotChanges(world, now, source.asked[0].first, source.asked[0].second);
    ASSERT_EQ(changes.size(), 2u);  // pending, firing; nothing resolved yet
    ASSERT_EQ(r->transitions.size(), 2u);
    EXPECT_EQ(r->transitions[0].to, AlertState::Pending);
    EXPECT_EQ(r->transitions[0].at, changes[0].second);
    EXPECT_EQ(r->transitions[1].to, AlertState::Firing);
    EXPECT_EQ(r->transitions[1].at, changes[1].second);
    EXPECT_EQ(r->state, AlertState::Firing);
    // Told once: the next refresh adds nothing while it keeps firing.
    now += kStep;
    auto next = follower.refresh();
    ASSERT_TRUE(next);
    EXPECT_TRUE(next->transitions.empty());
    EXPECT_EQ(next->state, AlertState::Firing);

    // With the change time after the firing, the firing does not count against FP8.
    TimelineSettings st = settings();
    st.changeAt = now + 3600;
    FakeSource source2{&world, &now, {}, false};
    TimelineFollower later(st, FollowWindow{6 * 3600, std::nullopt}, std::ref(source2), [&now] { return now; });
    ASSERT_TRUE(later.refresh());
    EXPECT_NE(later.verdict(), Verdict::Investigate);
}

TEST(TimelineFollower, ASinceWindowGrowsAndAFutureStartIsAnError) {
    World world;
    double now = kNow0;
    FakeSource source{&world, &now, {}, false};
    TimelineSettings st = settings();
    st.qualitySource = QualitySource::None;
    st.fetchThroughput = true;
    FollowWindow since{0, kNow0 - 600};
    TimelineFollower follower(st, since, std::ref(source), [&now] { return now; });
    ASSERT_TRUE(follower.refresh());
    EXPECT_EQ(source.asked[0].first, std::ceil((kNow0 - 600) / kStep) * kStep);
    now += 3 * 3600;
    ASSERT_TRUE(follower.refresh());
    EXPECT_EQ(follower.data().settings.from, source.asked[0].first);  // still from the start
    EXPECT_TRUE(follower.data().alerts.empty());

    TimelineFollower future(st, FollowWindow{0, now + 600}, std::ref(source), [&now] { return now; });
    auto r = future.refresh();
    ASSERT_FALSE(r);
    EXPECT_NE(r.error().message.find("not before now"), std::string::npos) << r.error().message;
}

// Langfuse scores come with the alert's look-back from the first fetch (fetchTimeline reads them from a day and two
// hours before `from`); later refreshes read only their minutes (qualityLookBack false) and the follower evaluates
// the alert itself over the scores it holds. The stand-in evaluates nothing for those, so the changes told can only
// come from the follower's own evaluation.
TEST(TimelineFollower, LangfuseQualityIsReadOnceWithItsLookBackThenMinuteByMinute) {
    World world;
    double now = kNow0;
    std::vector<std::pair<double, double>> asked;
    std::vector<LangfuseMode> modes;
    std::vector<bool> lookBacks;
    auto fetch = [&](const TimelineSettings& st, const Progress&) -> Result<TimelineData> {
        asked.emplace_back(st.from, st.to);
        modes.push_back(st.langfuseMode);
        lookBacks.push_back(st.qualityLookBack);
        TimelineData d;
        d.settings = st;
        d.settings.langfuseMode = LangfuseMode::Raw;  // what Auto chose
        const double lookBack = st.qualityLookBack ? st.rule.longWindowS + st.rule.offsetS : 0;
        Series q;
        for (const auto& s : world.visible(now))
            if (s.t >= st.from - lookBack && s.t <= st.to) q.samples.push_back(s);
        d.quality = q;
        const auto times = evaluationTimes(st.from, st.to, st.step);
        if (st.qualityLookBack)
            d.alerts = alertEpisodes(times, evaluateAlertCondition(q.samples, times, st.rule), st.rule.holdForS);
        d.alertsEvaluatedBy = "local";
        return d;
    };
    TimelineSettings st = settings();
    st.qualitySource = QualitySource::Langfuse;
    st.fetchThroughput = false;
    st.langfuseMode = LangfuseMode::Auto;
    TimelineFollower follower(st, FollowWindow{3600, std::nullopt}, fetch, [&now] { return now; });
    std::vector<AlertTransition> told;
    for (int i = 0; i < 120; ++i, now += kStep) {
        auto r = follower.refresh();
        ASSERT_TRUE(r) << r.error().message;
        told.insert(told.end(), r->transitions.begin(), r->transitions.end());
    }
    const double firstTo = std::floor(kNow0 / kStep) * kStep, lastTo = firstTo + 119 * kStep;
    EXPECT_EQ(asked[0], (std::pair{firstTo - 3600, firstTo}));
    EXPECT_TRUE(lookBacks[0]);
    EXPECT_EQ(std::count(lookBacks.begin(), lookBacks.end(), false), 119);
    for (std::size_t i = 1; i < asked.size(); ++i) EXPECT_EQ(asked[i].second - asked[i].first, 3 * kStep) << i;
    const auto changes = snapshotChanges(world, now, asked[0].first, lastTo);
    ASSERT_EQ(changes.size(), 3u);
    ASSERT_EQ(told.size(), 3u);
    for (std::size_t i = 0; i < told.size(); ++i) EXPECT_EQ(told[i].at, changes[i].second) << i;
    std::vector<Sample> expected;
    for (const auto& s : world.visible(now))
        if (s.t >= lastTo - 3600 - 26 * 3600 && s.t <= lastTo) expected.push_back(s);
    EXPECT_EQ(follower.data().quality->samples, expected);
    // Auto asked once; the mode it chose stays for the watch (a count per refresh could switch it).
    EXPECT_EQ(modes[0], LangfuseMode::Auto);
    EXPECT_EQ(std::count(modes.begin() + 1, modes.end(), LangfuseMode::Raw), 119);
}

// Issue 41: the switch found in vllm:cache_config_info at the first fetch (no change time given) stays the change
// time while following, though later windows (after the switch) hold no switch to find.
TEST(TimelineFollower, TheSwitchFoundAtTheFirstFetchStaysTheChangeTime) {
    World world;
    double now = kNow0;
    FakeSource source{&world, &now};
    const double switchAt = kNow0 - 1800;
    int fetches = 0;
    TimelineFetch fetch = [&](const TimelineSettings& st, const Progress& p) -> Result<TimelineData> {
        auto d = source(st, p);
        if (!d) return d;
        if (fetches++ == 0 && !st.changeAt) {  // what fetchTimeline does where the range holds the switch
            useDetectedSwitches(*d, {EngineSwitch{switchAt, "auto", "fp8", "m", "0", ""}});
        }
        return d;
    };
    auto st = settings();
    st.qualitySource = QualitySource::None;
    TimelineFollower follower(st, FollowWindow{3600, std::nullopt}, fetch, [&now] { return now; });
    ASSERT_TRUE(follower.refresh().ok());
    ASSERT_TRUE(follower.data().settings.changeAt.has_value());
    EXPECT_EQ(*follower.data().settings.changeAt, switchAt);
    now += 5 * kStep;
    ASSERT_TRUE(follower.refresh().ok());
    EXPECT_EQ(fetches, 2);
    ASSERT_TRUE(follower.data().settings.changeAt.has_value());
    EXPECT_EQ(*follower.data().settings.changeAt, switchAt);
    EXPECT_TRUE(follower.data().settings.changeAtDetected);
    EXPECT_EQ(follower.data().detectedSwitches.size(), 1u);
}

}  // namespace
}  // namespace fp8dash
