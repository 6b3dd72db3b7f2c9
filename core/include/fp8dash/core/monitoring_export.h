#pragma once
// The production timeline's quality alert handed to the team's own monitoring (issue 28, "Export for the team's
// stack"): a Prometheus rule file (the alert in today's rule-file format plus recording rules), a `promtool test
// rules` unit test generated from the comparison's own timeline data that asserts the alert where fp8dash's own
// evaluation says it fires, and a Grafana dashboard of the two signals, the switch and the alert's state.
// Pure functions over a comparison document: no I/O, no widgets; thread-safe.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "fp8dash/core/comparison_file.h"
#include "fp8dash/core/result.h"
#include "fp8dash/core/time_series.h"

namespace fp8dash {

inline constexpr const char* kMonitoringRulesFile = "fp8dash-alerts.rules.yml";
inline constexpr const char* kMonitoringTestFile = "fp8dash-alerts.test.yml";
inline constexpr const char* kMonitoringDashboardFile = "grafana-dashboard.json";
inline constexpr const char* kMonitoringAlertName = "FP8QualityDegraded";

// The series of `fp8dash exporter` for Langfuse quality: counters of the judge scores' sum and count per selection,
// labelled score_name (and tag / environment when the selection has them), so that the window mean is
// increase(sum[w]) / increase(count[w]).
inline constexpr const char* kLangfuseScoreSumMetric = "fp8dash_langfuse_score_sum";
inline constexpr const char* kLangfuseScoreCountMetric = "fp8dash_langfuse_score_count";

// Where the rules run, which decides how a window reads its samples: Prometheus 2.x closed windows [t-r, t],
// Prometheus 3.x left-open (t-r, t], VictoriaMetrics (vmalert) left-open too, with increase() taken from the last
// sample before the window (no extrapolation).
enum class MonitoringTarget { Prometheus2, Prometheus3, VictoriaMetrics };
std::string monitoringTargetTitle(MonitoringTarget t);  // "Prometheus 2.x (closed windows [t-r, t])", ...
WindowSemantics monitoringTargetWindows(MonitoringTarget t);

struct MonitoringExportOptions {
    // Where the rules run; nullopt: the server the comparison's timeline recorded (VictoriaMetrics), else the window
    // semantics it recorded, else Prometheus 3.
    std::optional<MonitoringTarget> target;
    // The unit test asserts every evaluation time of the timeline up to this many; beyond it, the times around each
    // transition and an even sample of the rest.
    std::size_t maxAssertions = 1500;
};

// The test's data: the input series at absolute times (unix seconds), fp8dash's evaluation over the test's
// evaluation times, and where the test asserts.
struct MonitoringTestData {
    std::vector<Series> inputSeries;  // labels include __name__; samples on the step grid from `origin`
    double origin = 0;                // the test's time 0
    double step = 60;                 // input interval and evaluation interval
    std::vector<double> times;        // evaluation times, origin .. timeline end
    // fp8dash's evaluation of the exported rule over this data at each time: avg_over_time as the target computes
    // it (quality in Prometheus); for the exporter's counters, increase() as the target computes it (its
    // extrapolation, VictoriaMetrics' base sample), which equals the timeline's per-minute means but for rounding.
    std::vector<bool> condition;
    std::vector<AlertEpisode> alerts;  // fp8dash's episodes over `times`
    std::vector<double> assertedTimes;
    Labels alertLabels;  // the labels a firing alert carries (series labels + the rule's, without alertname)
};

struct MonitoringExport {
    MonitoringTarget target = MonitoringTarget::Prometheus3;
    std::string targetBasis;          // why this target ("recorded in the comparison", "--prometheus-version")
    std::string qualitySelector;      // what the alert reads, in words and PromQL
    std::string alertExpression;      // the alert's expr
    std::string thresholdExpression;  // the baseline's mean less the margin (the dashboard's threshold line)
    std::string throughputExpression;
    std::string rulesYaml;
    std::string testYaml;
    std::string dashboardJson;
    MonitoringTestData test;
    std::vector<std::string> notes;  // for the user: what differs from the recorded alerts and why
    // The review decision in force, with the variant it approves ("Approved: monitor with quality alerting, variant
    // FP8 W8A8 — by Ana Ruiz, 2026-12-01 14:03 UTC"); "" when none is recorded. Also the alert's review_decision
    // annotation.
    std::string decision;
};

// Builds the three files from the comparison's production timeline. An Error (with the reason, naming the
// comparison's field) when there is no timeline, no quality series, or data the rules cannot express exactly.
Result<MonitoringExport> exportMonitoring(const ComparisonDocument& doc, const MonitoringExportOptions& options = {});

// Text helpers, exposed for their tests.
// A YAML double-quoted scalar holding exactly `text` (invalid UTF-8 replaced by U+FFFD; every character YAML does
// not allow raw escaped).
std::string yamlQuoted(std::string_view text);
// A PromQL string literal holding exactly `text`.
std::string promqlQuoted(std::string_view text);
// Text that Prometheus' annotation templating (Go text/template) expands back to exactly `text`.
std::string templateLiteral(std::string_view text);
// A duration as Prometheus writes it ("1d2h30m", "90s"); whole seconds.
std::string prometheusDuration(double seconds);
// promtool's input_series values for samples on a grid: gaps "_", runs in expanding notation ("a+bxn", "_xn"), each
// value exactly the sample's (17 significant digits where needed). `values[i]` is nullopt for a gap.
std::string promtoolValues(const std::vector<std::optional<double>>& values);

}  // namespace fp8dash
