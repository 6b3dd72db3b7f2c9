// Following the production timeline as it runs: incremental fetches on the step grid, merging, the alert's state.
#include "fp8dash/core/timeline_follower.h"

#include "fp8dash/core/score_buckets.h"

#include <algorithm>
#include <cmath>
#include <set>
#include <utility>

namespace fp8dash {
namespace {

double alignDown(double t, double step) {
    return std::floor(t / step) * step;
}

double alignUp(double t, double step) {
    return std::ceil(t / step) * step;
}

// The condition the alert held at `times`, read back from the episodes evaluated over those times: alertEpisodes
// opens an episode at each first true and closes it at the next false, so the condition is true exactly on
// [pendingAt, resolvedAt) (to the end of the range for an episode still active).
std::vector<bool> conditionFromEpisodes(const std::vector<AlertEpisode>& episodes, const std::vector<double>& times) {
    std::vector<bool> out(times.size(), false);
    for (std::size_t i = 0; i < times.size(); ++i)
        for (const auto& e : episodes)
            if (e.pendingAt <= times[i] && (!e.resolvedAt || times[i] < *e.resolvedAt)) {
                out[i] = true;
                break;
            }
    return out;
}

// avg_over_time over the samples in the window ending at `end` of length `length`, with the rule's window edges.
std::optional<double> windowMean(const std::vector<Sample>& samples, double end, double length, WindowSemantics w) {
    const double start = end - length;
    auto first =
        w == WindowSemantics::Prometheus2
            ? std::lower_bound(samples.begin(), samples.end(), start, [](const Sample& s, double t) { return s.t < t; })
            : std::upper_bound(samples.begin(), samples.end(), start,
                               [](double t, const Sample& s) { return t < s.t; });
    auto last = std::upper_bound(first, samples.end(), end, [](double t, const Sample& s) { return t < s.t; });
    if (first == last) return std::nullopt;
    return w == WindowSemantics::Prometheus2 ? prometheusMean(first, last) : prometheus3Mean(first, last);
}

// Keeps the samples before `from` and takes the fresh ones from `from` on (the re-fetched steps replace the held).
std::vector<Sample> merged(const std::vector<Sample>& held, const std::vector<Sample>& fresh, double from) {
    std::vector<Sample> out;
    out.reserve(held.size() + fresh.size());
    for (const auto& s : held)
        if (s.t < from) out.push_back(s);
    for (const auto& s : fresh)
        if (s.t >= from) out.push_back(s);
    return out;
}

}  // namespace

std::string_view alertStateName(AlertState s) {
    switch (s) {
        case AlertState::Inactive:
            return "inactive";
        case AlertState::Pending:
            return "pending";
        case AlertState::Firing:
            return "firing";
    }
    return "inactive";
}

TimelineFollower::TimelineFollower(TimelineSettings settings, FollowWindow window, TimelineFetch fetch, WallClock clock)
    : m_settings(std::move(settings)), m_window(window), m_fetch(std::move(fetch)), m_clock(std::move(clock)) {}

double TimelineFollower::lookBackS() const {
    if (m_settings.qualitySource == QualitySource::None) return 0;
    return m_settings.rule.longWindowS + m_settings.rule.offsetS;
}

std::optional<std::pair<double, double>> TimelineFollower::nextRange(double now) const {
    const double step = m_settings.step;
    const double to = alignDown(now, step);
    if (!m_lastTo) {
        const double windowFrom =
            m_window.since ? alignUp(*m_window.since, step) : to - alignDown(m_window.lengthS, step);
        // A Prometheus quality series is fetched with the alert's look-back once, for the window means; Langfuse
        // scores come with it already (fetchTimeline reads them from a day and the offset before).
        const double from = m_settings.qualitySource == QualitySource::Prometheus
                                ? windowFrom - alignUp(lookBackS(), step)
                                : windowFrom;
        if (!(to > from)) return std::nullopt;
        return std::pair{from, to};
    }
    if (!(to > *m_lastTo)) return std::nullopt;
    return std::pair{std::max(*m_firstFrom, *m_lastTo - kRefetchSteps * step), to};
}

Result<FollowerRefresh> TimelineFollower::refresh(const Progress& progress) {
    FollowerRefresh out;
    const auto range = nextRange(m_clock());
    if (!range) {
        if (!m_lastTo && m_window.since)
            return Error{"the watch's range starts at " + formatTimeUtc(*m_window.since) + ", not before now"};
        ++m_refreshes;
        out.state = m_state;
        return out;
    }
    const auto [from, to] = *range;
    TimelineSettings st = m_settings;
    st.from = from;
    st.to = to;
    // Langfuse scores: the look-back once; later only the new minutes, and the alert is evaluated here over the held.
    const bool first = !m_lastTo;
    st.qualityLookBack = first;
    auto fetched = m_fetch(st, progress);
    if (!fetched) return fetched.error();
    TimelineData& fresh = *fetched;
    const double previousEnd = m_lastTo.value_or(-INFINITY);
    for (const auto* s : {&fresh.throughput, &fresh.quality})
        if (*s)
            out.newPoints += static_cast<std::size_t>(std::count_if(
                (*s)->samples.begin(), (*s)->samples.end(), [&](const Sample& p) { return p.t > previousEnd; }));
    if (first) {
        m_firstFrom = from;
        // The mode Auto chose stays for the watch (a count per refresh could switch it between refreshes).
        m_settings.langfuseMode = fresh.settings.langfuseMode;
        m_data = fresh;
    } else {
        mergeSeries(m_data.throughput, fresh.throughput, from);
        mergeSeries(m_data.quality, fresh.quality, from);
        if (fresh.qualityBuckets) {
            std::vector<ScoreBucket> buckets;
            if (m_data.qualityBuckets)
                for (const auto& b : *m_data.qualityBuckets)
                    if (b.t < from) buckets.push_back(b);
            for (const auto& b : *fresh.qualityBuckets)
                if (b.t >= from) buckets.push_back(b);
            m_data.qualityBuckets = std::move(buckets);
        }
        m_data.warnings = fresh.warnings;  // this refresh's; a long watch does not pile them up
        m_data.server = fresh.server;
        m_data.windowSemanticsBasis = fresh.windowSemanticsBasis;
        if (!m_data.detectedChange) m_data.detectedChange = fresh.detectedChange;
        if (fresh.kvScalesRisk) m_data.kvScalesRisk = fresh.kvScalesRisk;
    }
    const auto times = evaluationTimes(from, to, st.step);
    const AlertRule& rule = fresh.settings.rule;  // with the window semantics the fetch chose
    if (!first && m_settings.qualitySource == QualitySource::Langfuse && m_data.quality)
        mergeCondition(times, m_data.qualityBuckets
                                  ? evaluateAlertConditionFromBuckets(*m_data.qualityBuckets, times, rule)
                                  : evaluateAlertCondition(m_data.quality->samples, times, rule));
    else
        mergeCondition(times, conditionFromEpisodes(fresh.alerts, times));
    m_lastTo = to;
    m_data.alertsEvaluatedBy = fresh.alertsEvaluatedBy;
    // The switch found at the first fetch stays the change time: a later window rarely holds the switch again.
    const auto held = m_data.settings;
    m_data.settings = fresh.settings;
    m_data.settings.qualityLookBack = true;
    if (!first && held.changeAtDetected && !m_data.settings.changeAt)
        m_data.settings.changeAt = held.changeAt, m_data.settings.changeAtDetected = true;
    if (!first && m_data.detectedSwitches.empty()) m_data.detectedSwitches = fresh.detectedSwitches;
    const double windowFrom =
        m_window.since ? alignUp(*m_window.since, st.step) : to - alignDown(m_window.lengthS, st.step);
    m_data.settings.from = std::max(windowFrom, *m_firstFrom);
    m_data.settings.to = to;
    m_data.alerts =
        m_data.quality ? alertEpisodes(m_times, m_condition, m_settings.rule.holdForS) : std::vector<AlertEpisode>{};
    trim(m_data.settings.from);
    out.transitions = newTransitions(first);
    m_transitions.insert(m_transitions.end(), out.transitions.begin(), out.transitions.end());
    m_state = AlertState::Inactive;
    if (!m_data.alerts.empty() && !m_data.alerts.back().resolvedAt)
        m_state = m_data.alerts.back().firingAt ? AlertState::Firing : AlertState::Pending;
    ++m_refreshes;
    out.fetchedFrom = from;
    out.fetchedTo = to;
    out.state = m_state;
    return out;
}

void TimelineFollower::mergeSeries(std::optional<Series>& into, const std::optional<Series>& fresh, double from) const {
    if (!fresh) return;
    if (!into) {
        into = fresh;
        return;
    }
    into->samples = merged(into->samples, fresh->samples, from);
    into->labels = fresh->labels;
}

void TimelineFollower::mergeCondition(const std::vector<double>& times, const std::vector<bool>& condition) {
    const double step = m_settings.step;
    for (std::size_t i = 0; i < times.size(); ++i) {
        const double k = m_times.empty() ? 0 : std::round((times[i] - m_times.front()) / step);
        if (k >= 0 && k < static_cast<double>(m_times.size())) {
            m_condition[static_cast<std::size_t>(k)] = condition[i];  // a re-fetched step: late samples count
        } else if (m_times.empty() || times[i] > m_times.back()) {
            m_times.push_back(times[i]);
            m_condition.push_back(condition[i]);
        }
    }
}

void TimelineFollower::trim(double windowFrom) {
    if (m_data.throughput) std::erase_if(m_data.throughput->samples, [&](const Sample& s) { return s.t < windowFrom; });
    const double keepFrom = windowFrom - lookBackS();
    if (m_data.quality) std::erase_if(m_data.quality->samples, [&](const Sample& s) { return s.t < keepFrom; });
    if (m_data.qualityBuckets)
        std::erase_if(*m_data.qualityBuckets, [&](const ScoreBucket& b) { return b.t < keepFrom; });
}

AlertTransition TimelineFollower::withMeans(AlertTransition t) const {
    if (!m_data.quality) return t;
    const auto& rule = m_settings.rule;
    const auto& samples = m_data.quality->samples;
    const auto w = m_data.settings.rule.windows;
    t.shortMean = windowMean(samples, t.at, rule.shortWindowS, w);
    t.baselineMean = windowMean(samples, t.at - rule.offsetS, rule.longWindowS, w);
    return t;
}

std::vector<AlertTransition> TimelineFollower::newTransitions(bool first) {
    // Every change the episodes hold, in time order; those already told are left out (a late sample that moves a
    // change to another step is told again, at its new time). The first refresh tells only the episode still active
    // (its pending and, where it fired, its firing), not the window's history.
    std::vector<AlertTransition> out;
    for (std::size_t i = 0; i < m_data.alerts.size(); ++i) {
        const auto& e = m_data.alerts[i];
        const bool active = !e.resolvedAt;
        std::vector<AlertTransition> changes{{AlertState::Pending, e.pendingAt, false, std::nullopt, {}, {}}};
        if (e.firingAt) changes.push_back({AlertState::Firing, *e.firingAt, false, e.pendingAt, {}, {}});
        if (e.resolvedAt) changes.push_back({AlertState::Inactive, *e.resolvedAt, e.firingAt.has_value(), {}, {}, {}});
        for (const auto& t : changes) {
            const bool fresh = m_told.insert({static_cast<int>(t.to), t.at}).second;
            if (fresh && (!first || active)) out.push_back(withMeans(t));
        }
    }
    return out;
}

std::optional<Verdict> TimelineFollower::verdict() const {
    std::optional<Verdict> v = evaluateTimeline(m_data).verdict;  // a firing after the change time: investigate
    const auto change = m_settings.changeAt;
    for (const auto& t : m_transitions)
        if (t.to == AlertState::Firing && (!change || t.at >= *change)) v = Verdict::Investigate;
    return v;
}

}  // namespace fp8dash
