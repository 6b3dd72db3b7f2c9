#pragma once
// Time series for the production timeline: samples, combining several series, before/after summaries, the quality
// alert evaluated with Prometheus' rule semantics, and downsampling for drawing. Pure functions; thread-safe.

#include <cstddef>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "fp8dash/core/result.h"

namespace fp8dash {

struct Sample {
    double t = 0;  // unix seconds (fractional allowed)
    double v = 0;  // may be NaN or +-Inf as Prometheus sends them
    bool operator==(const Sample&) const = default;
};

using Labels = std::map<std::string, std::string>;

struct Series {
    Labels labels;                // e.g. {"__name__": "vllm:generation_tokens_total", "model_name": "..."}
    std::vector<Sample> samples;  // ascending by t
};

std::string labelsToString(const Labels& labels);  // {a="1", b="2"}

// Several series in a result: sum them at equal timestamps (Prometheus range results of one query share their
// timestamps), or keep the one whose labels contain every key=value of `pick` ("model_name=llama,instance=a:8000").
Result<Series> sumSeries(const std::vector<Series>& series);
Result<Series> pickSeries(const std::vector<Series>& series, const std::string& pick);
// The pick "label=value[,label=value...]" (a value may be quoted) as labels; an error names a malformed part.
Result<Labels> parseSeriesPick(const std::string& pick);
// Whether `labels` holds every key=value of `want`.
bool labelsMatch(const Labels& labels, const Labels& want);

// Before/after the change: before = samples with t < change; after = samples with t >= change + settle
// (settle = the 5-minute rate window by default). Non-finite samples are left out of the means.
struct PeriodSummary {
    std::optional<double> beforeMean;
    std::optional<double> afterMean;
    std::size_t beforeCount = 0;
    std::size_t afterCount = 0;
    std::optional<double> deltaPct() const;  // (after - before) / before * 100; nullopt without both or for before == 0
    std::optional<double> deltaPoints() const;  // after - before
};
PeriodSummary summarizeAroundChange(const std::vector<Sample>& samples, double changeAt, double settleS = 300);

// Which edges a range selector's window has (DESIGN.md "Quality alert"): Prometheus 2.x selects the samples with
// t - r <= s <= t (closed), Prometheus 3.x those with t - r < s <= t (left-open). Other backends map to one of these.
enum class WindowSemantics { Prometheus2, Prometheus3 };
std::string windowSemanticsName(WindowSemantics w);                            // "prometheus2", "prometheus3"
std::optional<WindowSemantics> parseWindowSemantics(const std::string& name);  // the names above
// In words for reports: "Prometheus 2.x windows, closed [t−r, t]" / "Prometheus 3.x windows, left-open (t−r, t]".
std::string windowSemanticsTitle(WindowSemantics w);

// The quality alert rule: avg_over_time(q[shortWindow]) < avg_over_time(q[longWindow] offset offset) - margin,
// held for `holdFor`. Defaults are the product's rule: [30m], [1d] offset 2h, 0.2 points, for: 15m.
struct AlertRule {
    double shortWindowS = 30 * 60;
    double longWindowS = 24 * 3600;
    double offsetS = 2 * 3600;
    double margin = 0.2;
    double holdForS = 15 * 60;
    WindowSemantics windows = WindowSemantics::Prometheus2;  // the window edges the local evaluation follows

    // The PromQL of the condition for a quality selector, e.g.
    // avg_over_time(q[30m]) < avg_over_time(q[1d] offset 2h) - 0.2
    std::string promql(const std::string& qualitySelector) const;
};

// One alert episode, unix seconds: pending from pendingAt; firingAt once held for holdFor (absent when it never
// fired); resolvedAt at the first evaluation where the condition no longer holds (absent while still active at the
// end of the range).
struct AlertEpisode {
    double pendingAt = 0;
    std::optional<double> firingAt;
    std::optional<double> resolvedAt;
    bool operator==(const AlertEpisode&) const = default;
};

// Evaluation times start, start+step, ..., <= end (Prometheus range-query alignment).
std::vector<double> evaluationTimes(double start, double end, double step);

// Prometheus' alerting state machine over a boolean condition sampled at `times` (condition[i] at times[i]):
// pending at the first true, firing when now - activeAt >= holdFor, resolved/dropped at the first false.
std::vector<AlertEpisode> alertEpisodes(const std::vector<double>& times, const std::vector<bool>& condition,
                                        double holdForS);

// avg_over_time as Prometheus 2.x computes it over [first, last): an incremental mean, with its special cases for
// infinities (the result Prometheus gives, bit for bit).
double prometheusMean(std::vector<Sample>::const_iterator first, std::vector<Sample>::const_iterator last);

// avg_over_time as current Prometheus 3 (3.5 and later) computes it over [first, last), bit for bit: a Kahan-Neumaier
// compensated sum divided by the count (sum / n + c / n), switching to a compensated incremental mean only where the
// running sum would overflow. Not empty.
double prometheus3Mean(std::vector<Sample>::const_iterator first, std::vector<Sample>::const_iterator last);

// The rule evaluated locally over raw samples (e.g. Langfuse scores) with the range-selector semantics of
// rule.windows: avg_over_time(q[w]) at time T averages the samples with T - w <= t <= T (Prometheus 2.x) or
// T - w < t <= T (Prometheus 3.x) (offset shifts T); no sample, no value, and the condition is false. The averages
// are that Prometheus' own (2.x: its incremental mean; 3.x: its compensated sum; to the last bit). Linear time
// in samples + times: the windows' sums slide, and Prometheus' mean is computed only where the two averages lie within
// rounding distance of the threshold (data that sits exactly on it at every evaluation costs O(samples x times)).
std::vector<bool> evaluateAlertCondition(const std::vector<Sample>& raw, const std::vector<double>& times,
                                         const AlertRule& rule);

// Largest-Triangle-Three-Buckets downsampling for drawing (statistics always use the full data). Returns the input
// when it has no more than `threshold` points. Non-finite samples are kept out of the buckets' averages.
// O(n) time; the input is read in place (copied only when it holds non-finite samples).
std::vector<Sample> downsampleLttb(const std::vector<Sample>& samples, std::size_t threshold);
std::vector<Sample> downsampleLttb(std::span<const Sample> samples, std::size_t threshold);

// Parses a time given as unix seconds ("1795852800", "1795852800.5") or RFC 3339 ("2026-11-20T10:00:00Z",
// "2026-11-20T12:00:00+02:00"); the message names `what` (e.g. "--from").
Result<double> parseTimePoint(const std::string& text, const std::string& what);
std::string formatTimeUtc(double unixSeconds);  // "2026-11-20 10:00:00 UTC"

// ISO 8601 (Langfuse's timestamps, e.g. "2026-11-20T10:00:00.123Z"; "T" or a space; Z, +-HH:MM, +-HHMM, +-HH, or no
// zone = UTC) <-> unix seconds.
std::optional<double> parseIso8601(const std::string& text);
std::string toIso8601(double unixSeconds);  // millisecond precision, UTC, "Z"

}  // namespace fp8dash
