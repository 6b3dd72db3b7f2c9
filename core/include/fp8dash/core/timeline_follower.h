#pragma once
// Following the production timeline as it runs (issue 28): a window ending now that moves with time, refreshed by
// fetching only what is new (the last kRefetchSteps steps again, for late samples), the new points merged in place of
// the re-fetched ones, and the quality alert's state followed from refresh to refresh with its transitions (pending,
// firing, resolved) and the window means at each. Used by `fp8dash timeline --watch` and meant for the app's live
// timeline: no widgets, no CLI, no clock or network of its own (both are injected, so tests are deterministic).
// Not thread-safe: one thread at a time; refresh() blocks on the fetch (run it off the GUI thread).

#include <cstddef>
#include <functional>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "fp8dash/core/result.h"
#include "fp8dash/core/timeline.h"
#include "fp8dash/core/verdict.h"

namespace fp8dash {

enum class AlertState { Inactive, Pending, Firing };
std::string_view alertStateName(AlertState s);  // "inactive", "pending", "firing"

struct AlertTransition {
    AlertState to = AlertState::Inactive;  // Pending, Firing, or Inactive (resolved; `wasFiring` says from which)
    double at = 0;                         // the evaluation time of the change (unix seconds)
    bool wasFiring = false;                // for a resolution: whether the alert had fired (else a pending one ended)
    std::optional<double> pendingSince;    // for Firing: when the episode began
    // The alert's two window means at `at`, from the quality samples held (the rule's window edges): the short window
    // (avg_over_time(q[30m])) and the baseline (avg_over_time(q[1d] offset 2h)); absent where a window has no sample.
    std::optional<double> shortMean;
    std::optional<double> baselineMean;
    bool operator==(const AlertTransition&) const = default;
};

// The range a follower keeps: the last `lengthS` seconds, or everything since `since` (then the window grows).
struct FollowWindow {
    double lengthS = 6 * 3600;
    std::optional<double> since;  // unix seconds
};

struct FollowerRefresh {
    double fetchedFrom = 0;  // the range asked for (unix seconds, on the step grid); both 0 when nothing was due
    double fetchedTo = 0;
    std::size_t newPoints = 0;                 // throughput and quality samples later than the previous refresh's end
    std::vector<AlertTransition> transitions;  // in time order
    AlertState state = AlertState::Inactive;   // at the latest evaluation time
};

// Fetches the settings' range [from, to] (TimelineSettings::from/to on the step grid); fetchTimeline with the
// credentials in production, a stand-in in tests.
using TimelineFetch = std::function<Result<TimelineData>(const TimelineSettings&, const Progress&)>;
using WallClock = std::function<double()>;  // unix seconds

class TimelineFollower {
public:
    static constexpr int kRefetchSteps = 2;  // fetched again on every refresh, for samples that arrive late

    // `settings`: the queries, sources, step, rule, change time (from/to are ignored: the window sets them).
    TimelineFollower(TimelineSettings settings, FollowWindow window, TimelineFetch fetch, WallClock clock);

    // Fetches what is new since the last refresh (the whole window, and for a Prometheus quality series the alert's
    // look-back, the first time), merges it, re-evaluates the alert. An error leaves everything as it was (the next
    // refresh fetches the missed range with the new one). Nothing is fetched while no new step is due.
    Result<FollowerRefresh> refresh(const Progress& progress = {});

    // The timeline of the window: settings.from/to = the window's start and the last refresh's end; the series hold
    // the window plus what the alert looks back over; `alerts` every episode since the watch began.
    const TimelineData& data() const { return m_data; }
    bool started() const { return m_lastTo.has_value(); }
    AlertState state() const { return m_state; }
    std::size_t refreshCount() const { return m_refreshes; }
    const std::vector<AlertTransition>& transitions() const { return m_transitions; }  // since the watch began
    std::optional<double> lastFetchedTo() const { return m_lastTo; }

    // The verdict of what has been followed: the timeline's own (evaluateTimeline: a firing after the change time is
    // investigate), and investigate once a firing has been told (one after the change time, where one is given).
    std::optional<Verdict> verdict() const;

    // The range the next refresh would ask for at `now` (nullopt: no new step is due yet).
    std::optional<std::pair<double, double>> nextRange(double now) const;

private:
    double lookBackS() const;  // how far before the window the quality samples are kept (the alert's windows)
    void mergeSeries(std::optional<Series>& into, const std::optional<Series>& fresh, double from) const;
    void mergeCondition(const std::vector<double>& times, const std::vector<bool>& condition);
    std::vector<AlertTransition> newTransitions(bool first);
    AlertTransition withMeans(AlertTransition t) const;
    void trim(double windowFrom);

    TimelineSettings m_settings;
    FollowWindow m_window;
    TimelineFetch m_fetch;
    WallClock m_clock;
    TimelineData m_data;
    std::optional<double> m_firstFrom, m_lastTo;
    std::vector<double> m_times;  // every evaluation time since the first refresh, on the step grid
    std::vector<bool> m_condition;
    std::vector<AlertTransition> m_transitions;
    std::set<std::pair<int, double>> m_told;  // (state, time) of every change told or passed over
    AlertState m_state = AlertState::Inactive;
    std::size_t m_refreshes = 0;
};

}  // namespace fp8dash
