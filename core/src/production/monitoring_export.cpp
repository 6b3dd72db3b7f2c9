// The monitoring export (monitoring_export.h): the quality alert as a Prometheus rule file, its promtool unit test
// over the comparison's own timeline data, and (monitoring_dashboard.cpp) the Grafana dashboard.
//
// The alert is DESIGN.md's rule, avg_over_time(q[30m]) < avg_over_time(q[1d] offset 2h) - 0.2 held for 15m, written
// so that the Prometheus it targets evaluates it as fp8dash does (timeline.cpp, time_series.cpp):
// - quality in Prometheus: the timeline's own PromQL (AlertRule::promql over the saved quality query), which is what
//   fp8dash asked the server to evaluate; its window edges are the target's own.
// - quality from Langfuse: the series of `fp8dash exporter`, counters of the scores' sum and count, so that a window's
//   mean is increase(sum[w]) / increase(count[w]) (both increases are extrapolated by the same factor, which cancels).
//   The counters' value at a scrape holds the minutes before it; a closed 2.x window [T-w, T] then holds exactly the
//   minutes [T-w, T), fp8dash's bucket windows. A left-open 3.x window (T-w, T] would miss the scrape at T-w, so the
//   3.x rule widens each window by one evaluation step ([w+step]), which holds the same scrapes again.
//   VictoriaMetrics' windows are left-open too, but its increase() starts from the last sample before the window
//   (no extrapolation): [w] is exactly the minutes [T-w, T) there.
#include <algorithm>
#include <cmath>
#include <map>
#include <sstream>

#include "fp8dash/core/monitoring_export.h"
#include "fp8dash/core/score_buckets.h"
#include "fp8dash/core/untrusted_text.h"
#include "fp8dash/core/version.h"
#include "fp8dash/core/vllm_metrics.h"
#include "production/monitoring_parts.h"

namespace fp8dash {
namespace {

bool wholeMultiple(double value, double unit) {
    if (!(unit > 0)) return false;
    const double k = value / unit;
    return std::isfinite(k) && std::fabs(k - std::round(k)) < 1e-9;
}

std::string selectorText(const std::string& metric, const Labels& labels) {
    std::string s = metric + "{";
    bool first = true;
    for (const auto& [k, v] : labels) {
        if (k == "__name__") continue;
        s += (first ? "" : ",") + k + "=" + promqlQuoted(v);
        first = false;
    }
    return s + "}";
}

std::string joined(const std::vector<std::string>& items) {
    std::string out;
    for (const auto& i : items) out += (out.empty() ? "" : ",") + i;
    return out;
}

// The model the alert is about: the pick's model_name, the throughput series' model_name, the candidate run's model.
std::string modelOf(const ComparisonDocument& doc) {
    const auto& tl = *doc.timeline;
    if (auto pick = parseSeriesPick(tl.settings.seriesPick); pick)
        if (auto m = pick->find("model_name"); m != pick->end()) return m->second;
    if (tl.throughput)
        if (auto m = tl.throughput->labels.find("model_name"); m != tl.throughput->labels.end()) return m->second;
    if (doc.hasEvals && !doc.candidate.results.modelName.empty()) return doc.candidate.results.modelName;
    return "";
}

// The grid k = 0..n of origin + k * step that `samples` lie on: the value at each point (nullopt: none there).
Result<std::vector<std::optional<double>>> onGrid(const std::vector<Sample>& samples, double origin, double step,
                                                  std::size_t n, const std::string& where) {
    std::vector<std::optional<double>> out(n, std::nullopt);
    for (const auto& s : samples) {
        const double k = (s.t - origin) / step;
        if (std::fabs(k - std::round(k)) > 1e-6)
            return Error{where + ": the sample at " + formatTimeUtc(s.t) +
                         " is off the timeline's step grid; a unit test holds samples at the evaluation interval"};
        const auto i = static_cast<long long>(std::llround(k));
        if (i >= 0 && static_cast<std::size_t>(i) < n) out[static_cast<std::size_t>(i)] = s.v;
    }
    return out;
}

// Langfuse quality as per-minute buckets: the aggregate mode's own, or the raw scores counted by minute (as the
// exporter serves them).
std::vector<ScoreBucket> qualityBuckets(const TimelineData& tl) {
    if (tl.qualityBuckets) return *tl.qualityBuckets;
    std::map<double, ScoreBucket> byMinute;
    for (const auto& s : tl.quality->samples) {
        const double t = std::floor(s.t / kScoreBucketSeconds) * kScoreBucketSeconds;
        auto& b = byMinute[t];
        b.t = t;
        b.sum += s.v;
        b.count += 1;
    }
    std::vector<ScoreBucket> out;
    for (auto& [t, b] : byMinute) out.push_back(b);
    return out;
}

std::vector<double> assertionTimes(const MonitoringTestData& d, double from, std::size_t maxAssertions) {
    std::vector<double> inRange;
    for (const double t : d.times)
        if (t >= from - 1e-9) inRange.push_back(t);
    if (inRange.size() <= maxAssertions) return inRange;
    // Around every transition, then an even sample of the rest.
    std::vector<double> picked;
    for (const auto& e : d.alerts)
        for (const std::optional<double> at : {std::optional<double>(e.pendingAt), e.firingAt, e.resolvedAt})
            if (at)
                for (const double dt : {-d.step, 0.0, d.step})
                    if (*at + dt >= from - 1e-9 && *at + dt <= d.times.back() + 1e-9) picked.push_back(*at + dt);
    const std::size_t cap = std::max<std::size_t>(1, maxAssertions);
    const std::size_t every = (inRange.size() + cap - 1) / cap;
    for (std::size_t i = 0; i < inRange.size(); i += every) picked.push_back(inRange[i]);
    picked.push_back(inRange.back());
    std::sort(picked.begin(), picked.end());
    picked.erase(std::unique(picked.begin(), picked.end(), [](double a, double b) { return std::fabs(a - b) < 1e-6; }),
                 picked.end());
    return picked;
}

std::string episodesText(const std::vector<AlertEpisode>& alerts, double from) {
    std::string out;
    for (const auto& e : alerts) {
        if (!e.firingAt || (e.resolvedAt && *e.resolvedAt <= from)) continue;
        out += (out.empty() ? "" : "; ") + std::string("firing from ") + formatTimeUtc(std::max(*e.firingAt, from)) +
               (e.resolvedAt ? " to " + formatTimeUtc(*e.resolvedAt) : " to the end");
    }
    return out.empty() ? "never firing" : out;
}

std::int64_t toMs(double seconds) {
    return static_cast<std::int64_t>(std::llround(seconds * 1000.0));
}

// increase(x[range] offset off) at T as the target computes it over x's samples (ascending, without resets; times
// in integer milliseconds as Prometheus keeps them): Prometheus' extrapolatedRate (2.42: the zero clamp before the
// threshold; 3.x: after it), VictoriaMetrics' rollup delta (the last sample before the window as the base, none
// extrapolated). nullopt where the server gives no value.
std::optional<double> increaseAt(const std::vector<Sample>& x, double at, double range, double offset,
                                 MonitoringTarget target) {
    const std::int64_t end = toMs(at - offset), start = end - toMs(range);
    const bool closed = target == MonitoringTarget::Prometheus2;
    const auto lo = std::partition_point(
        x.begin(), x.end(), [&](const Sample& s) { return closed ? toMs(s.t) < start : toMs(s.t) <= start; });
    const auto hi = std::partition_point(lo, x.end(), [&](const Sample& s) { return toMs(s.t) <= end; });
    if (target == MonitoringTarget::VictoriaMetrics) {
        if (lo == hi) return std::nullopt;
        const double base = lo != x.begin() ? std::prev(lo)->v : lo->v;
        return std::prev(hi)->v - base;
    }
    const auto n = hi - lo;
    if (n < 2) return std::nullopt;
    const Sample& first = *lo;
    const Sample& last = *std::prev(hi);
    const double result = last.v - first.v;
    double toStart = static_cast<double>(toMs(first.t) - start) / 1000;
    double toEnd = static_cast<double>(end - toMs(last.t)) / 1000;
    const double sampled = static_cast<double>(toMs(last.t) - toMs(first.t)) / 1000;
    const double average = sampled / static_cast<double>(n - 1);
    const double threshold = average * 1.1;
    const auto clampAtZero = [&] {
        if (result > 0 && first.v >= 0) {
            const double toZero = sampled * (first.v / result);
            if (toZero < toStart) toStart = toZero;
        }
    };
    if (closed) {  // Prometheus 2.42
        clampAtZero();
        double interval = sampled;
        interval += toStart < threshold ? toStart : average / 2;
        interval += toEnd < threshold ? toEnd : average / 2;
        return result * (interval / sampled);
    }
    if (toStart >= threshold) toStart = average / 2;  // Prometheus 3
    clampAtZero();
    if (toEnd >= threshold) toEnd = average / 2;
    return result * ((sampled + toStart + toEnd) / sampled);
}

// The alert's condition over the exporter's counters, computed as the target computes the exported expression.
std::vector<bool> counterCondition(const Series& sum, const Series& count, const std::vector<double>& times,
                                   const AlertRule& rule, double widen, MonitoringTarget target) {
    std::vector<bool> out(times.size(), false);
    for (std::size_t k = 0; k < times.size(); ++k) {
        const auto mean = [&](double w, double offset) -> std::optional<double> {
            const auto s = increaseAt(sum.samples, times[k], w + widen, offset, target);
            const auto c = increaseAt(count.samples, times[k], w + widen, offset, target);
            if (!s || !c) return std::nullopt;
            return *s / *c;
        };
        const auto recent = mean(rule.shortWindowS, 0), baseline = mean(rule.longWindowS, rule.offsetS);
        out[k] = recent && baseline && *recent < *baseline - rule.margin;
    }
    return out;
}

// Whether the comparison has a timeline the rules can express; an Error naming the field otherwise.
Status checkTimeline(const ComparisonDocument& doc) {
    if (!doc.timeline)
        return Error{
            "the comparison has no production timeline (no \"timeline\" section): there is no alert to export; "
            "fetch one with fp8dash timeline ... --save FILE.fp8cmp"};
    const TimelineData& tl = *doc.timeline;
    const TimelineSettings& st = tl.settings;
    if (st.qualitySource == QualitySource::None || !tl.quality || tl.quality->samples.empty())
        return Error{"the comparison's timeline has no quality series (timeline.settings.quality_source is \"" +
                     std::string(qualitySourceName(st.qualitySource)) + "\"): the quality alert has nothing to watch"};
    const double step = st.step;
    if (!(step >= 1) || !wholeMultiple(step, 1) || !wholeMultiple(st.from, 1))
        return Error{
            "timeline.settings: the step and the start must be whole seconds for Prometheus' evaluation "
            "interval (step " +
            monitoringNumber(step) + " s)"};
    for (const auto& [name, v] : {std::pair{"short_window_s", st.rule.shortWindowS},
                                  {"long_window_s", st.rule.longWindowS},
                                  {"offset_s", st.rule.offsetS},
                                  {"hold_for_s", st.rule.holdForS}})
        if (!wholeMultiple(v, 1) || v < 0)
            return Error{std::string("timeline.settings.rule.") + name + " is " + monitoringNumber(v) +
                         " s: a Prometheus rule takes whole seconds"};

    return success();
}

// Where the rules run: the user's choice, else what the timeline recorded, else Prometheus 3.
void chooseTarget(const TimelineData& tl, const MonitoringExportOptions& options, MonitoringExport& out) {
    const TimelineSettings& st = tl.settings;
    if (options.target) {
        out.target = *options.target;
        out.targetBasis = "chosen by the user";
    } else if (tl.server.rfind("VictoriaMetrics", 0) == 0) {
        out.target = MonitoringTarget::VictoriaMetrics;
        out.targetBasis = "the comparison's timeline was fetched from VictoriaMetrics";
    } else if (!tl.windowSemanticsBasis.empty()) {
        out.target = st.rule.windows == WindowSemantics::Prometheus3 ? MonitoringTarget::Prometheus3
                                                                     : MonitoringTarget::Prometheus2;
        out.targetBasis = "as the comparison's timeline recorded (" + oneLine(tl.windowSemanticsBasis) + ")";
    } else {
        out.target = MonitoringTarget::Prometheus3;
        out.targetBasis = "the comparison does not record its window semantics: current Prometheus 3";
    }
}

// Quality in Prometheus: the timeline's own query, the saved series as the test's input.
Status prometheusQuality(const TimelineData& tl, const AlertRule& rule, double to, MonitoringParts& parts,
                         MonitoringExport& out, Labels& seriesLabels) {
    const TimelineSettings& st = tl.settings;
    const double step = st.step;
    MonitoringTestData& test = out.test;
    const std::string& q = st.qualityQuery;
    parts.qualitySource = "the PromQL series " + q;
    parts.recentExpr = "avg_over_time(" + q + "[" + prometheusDuration(rule.shortWindowS) + "])";
    parts.baselineExpr = "avg_over_time(" + q + "[" + prometheusDuration(rule.longWindowS) + "] offset " +
                         prometheusDuration(rule.offsetS) + ")";
    // The input: the saved series at its step, under its own labels (the name from the query where the server
    // left it out). The test starts at the timeline's start: the comparison holds nothing earlier.
    Labels labels = tl.quality->labels;
    if (!labels.count("__name__")) {
        const auto names = metricNamesInQuery(q);
        if (names.size() != 1)
            return Error{"timeline.quality: the series has no metric name and the quality query \"" + oneLine(q) +
                         "\" names " + std::to_string(names.size()) +
                         " metrics: the unit test cannot tell which series to feed"};
        labels["__name__"] = names.front();
    }
    test.origin = st.from;
    test.times = evaluationTimes(test.origin, to, step);
    auto values = onGrid(tl.quality->samples, test.origin, step, test.times.size(), "timeline.quality");
    if (!values) return values.error();
    Series input;
    input.labels = labels;
    for (std::size_t k = 0; k < values->size(); ++k)
        if ((*values)[k]) input.samples.push_back({test.times[k], *(*values)[k]});
    test.condition = evaluateAlertCondition(input.samples, test.times, rule);
    test.inputSeries.push_back(std::move(input));
    out.notes.push_back("the comparison holds the quality series from the timeline's start (" + formatTimeUtc(st.from) +
                        ") only: the test's baseline windows (" + prometheusDuration(rule.longWindowS) + " ending " +
                        prometheusDuration(rule.offsetS) +
                        " earlier) hold what lies after it, in the test as in fp8dash's evaluation of it");
    seriesLabels = labels;
    seriesLabels.erase("__name__");
    return success();
}

// Quality from Langfuse: the exporter's counters, made from the timeline's per-minute scores as the test's input.
Status langfuseQuality(const TimelineData& tl, const AlertRule& rule, double to, MonitoringParts& parts,
                       MonitoringExport& out, Labels& seriesLabels) {
    const TimelineSettings& st = tl.settings;
    const double step = st.step;
    const bool p3 = out.target == MonitoringTarget::Prometheus3;
    MonitoringTestData& test = out.test;
    if (!wholeMultiple(step, kScoreBucketSeconds) || !wholeMultiple(st.from, kScoreBucketSeconds))
        return Error{"timeline.settings: Langfuse quality is exported as per-minute counters, so the step (" +
                     monitoringNumber(step) + " s) and the start must be whole minutes"};
    for (const double w : {rule.shortWindowS, rule.longWindowS, rule.offsetS})
        if (!wholeMultiple(w, step))
            return Error{"timeline.settings.rule: the windows and the offset must be whole steps (" +
                         monitoringNumber(step) + " s) to be evaluated on the exporter's counters as fp8dash does"};
    Labels sel{{"score_name", st.scoreName}};
    if (!st.traceTags.empty()) sel["tag"] = joined(st.traceTags);
    if (!st.environments.empty()) sel["environment"] = joined(st.environments);
    const std::string sum = selectorText(kLangfuseScoreSumMetric, sel);
    const std::string count = selectorText(kLangfuseScoreCountMetric, sel);
    parts.qualitySource = "Langfuse scores \"" + st.scoreName + "\" as fp8dash exporter serves them (" +
                          kLangfuseScoreSumMetric + " / " + kLangfuseScoreCountMetric + ")";
    const double widen = p3 ? step : 0;  // see the top of this file
    const auto mean = [&](double w, const std::string& offset) {
        const std::string range = "[" + prometheusDuration(w + widen) + "]" + offset;
        return "increase(" + sum + range + ") / increase(" + count + range + ")";
    };
    parts.recentExpr = mean(rule.shortWindowS, "");
    parts.baselineExpr = mean(rule.longWindowS, " offset " + prometheusDuration(rule.offsetS));
    parts.langfuse = true;

    const auto buckets = qualityBuckets(tl);
    double totalCount = 0, totalSum = 0;
    for (const auto& b : buckets) {
        if (!wholeMultiple(b.t, kScoreBucketSeconds))
            return Error{"timeline.quality_buckets: the bucket at " + formatTimeUtc(b.t) +
                         " does not start on a whole minute"};
        if (!(b.sum >= 0) || !std::isfinite(b.sum))
            return Error{"timeline.quality: a score below zero (the minute of " + formatTimeUtc(b.t) +
                         "): a counter of the scores' sum only grows, so these scores cannot be exported"};
        totalCount += b.count;
        totalSum += b.sum;
    }
    // The history the baseline needs (a day and the offset before the start), on the step grid.
    double origin = st.from - std::ceil((rule.longWindowS + rule.offsetS) / step - 1e-9) * step;
    if (!buckets.empty() && buckets.front().t < origin)
        origin -= std::ceil((origin - buckets.front().t) / step - 1e-9) * step;
    test.origin = origin;
    test.times = evaluationTimes(origin, to, step);
    // 2.x and VictoriaMetrics: counters from zero (a window that starts before the data takes the first scrape,
    // at zero, and Prometheus' extrapolation stops at zero for both). 3.x: counters from the totals, as an
    // exporter that has run before, so that extrapolation never stops at zero for one counter and not the other.
    const double baseCount = p3 ? totalCount : 0, baseSum = p3 ? totalSum : 0;
    Series sumSeries, countSeries;
    sumSeries.labels = sel;
    sumSeries.labels["__name__"] = kLangfuseScoreSumMetric;
    countSeries.labels = sel;
    countSeries.labels["__name__"] = kLangfuseScoreCountMetric;
    long double cs = 0, cc = 0;
    std::size_t next = 0;
    for (const double t : test.times) {
        // The scrape at t holds the minutes that ended by t (a bucket's midpoint before t).
        while (next < buckets.size() && buckets[next].t + kScoreBucketSeconds / 2 < t) {
            cs += buckets[next].sum;
            cc += buckets[next].count;
            ++next;
        }
        sumSeries.samples.push_back({t, static_cast<double>(baseSum + cs)});
        countSeries.samples.push_back({t, static_cast<double>(baseCount + cc)});
    }
    // fp8dash's evaluation of the exported rule: over the counters, with the target's own arithmetic (DESIGN.md:
    // the alert as the server evaluates it), which is the buckets' means except for rounding where the
    // target extrapolates (Prometheus 3: both increases scaled by (w + step) / w). Where the two differ (a mean
    // within rounding of the threshold), a note says so.
    test.condition = counterCondition(sumSeries, countSeries, test.times, rule, widen, out.target);
    const auto fromBuckets = evaluateAlertConditionFromBuckets(buckets, test.times, rule);
    std::size_t differ = 0;
    for (std::size_t k = 0; k < fromBuckets.size(); ++k) differ += fromBuckets[k] != test.condition[k];
    if (differ)
        out.notes.push_back("at " + std::to_string(differ) +
                            " evaluation times the exporter's counters put the mean on the other side of the "
                            "threshold than the timeline's scores do (a mean within rounding of it); the unit test "
                            "follows the counters, as " +
                            monitoringTargetTitle(out.target) + " evaluates them");
    test.inputSeries.push_back(std::move(sumSeries));
    test.inputSeries.push_back(std::move(countSeries));
    seriesLabels = sel;
    return success();
}

// The shortest text of a number that reads back as the same double.
std::string shortestNumber(double v) {
    char margin[40];
    std::snprintf(margin, sizeof margin, "%.17g", v);
    // The shortest text of the margin that reads back as the same number.
    for (int p = 1; p <= 17; ++p) {
        char shorter[40];
        std::snprintf(shorter, sizeof shorter, "%.*g", p, v);
        if (std::strtod(shorter, nullptr) == v) {
            std::snprintf(margin, sizeof margin, "%s", shorter);
            break;
        }
    }
    return margin;
}

}  // namespace

std::string monitoringTargetTitle(MonitoringTarget t) {
    switch (t) {
        case MonitoringTarget::Prometheus2:
            return "Prometheus 2.x (closed windows [t-r, t])";
        case MonitoringTarget::Prometheus3:
            return "Prometheus 3.x (left-open windows (t-r, t])";
        case MonitoringTarget::VictoriaMetrics:
            return "VictoriaMetrics / vmalert (left-open windows (t-r, t]; increase() from the sample before the "
                   "window)";
    }
    return "";
}

WindowSemantics monitoringTargetWindows(MonitoringTarget t) {
    return t == MonitoringTarget::Prometheus2 ? WindowSemantics::Prometheus2 : WindowSemantics::Prometheus3;
}

Result<MonitoringExport> exportMonitoring(const ComparisonDocument& doc, const MonitoringExportOptions& options) {
    if (auto ok = checkTimeline(doc); !ok) return ok.error();
    const TimelineData& tl = *doc.timeline;
    const TimelineSettings& st = tl.settings;
    const double step = st.step;
    MonitoringExport out;
    chooseTarget(tl, options, out);
    AlertRule rule = st.rule;
    rule.windows = monitoringTargetWindows(out.target);

    MonitoringParts parts;
    parts.model = modelOf(doc);
    parts.title = doc.title;
    if (const ReviewDecision* d = doc.currentDecision()) {
        // Which decision the rules carry out, and for which variant: the outcome, the variant, who and when (the
        // reason stays in the comparison).
        parts.decision =
            std::string(reviewOutcomeTitle(d->outcome)) + (d->variant ? ", variant " + *d->variant : std::string()) +
            (d->by.empty() ? "" : " — by " + d->by) + (d->at.empty() ? "" : ", " + readableTimestamp(d->at));
        out.decision = parts.decision;
    }
    parts.rule = rule;
    parts.step = step;
    parts.changeAt = st.changeAt;
    parts.bands = st.bands;
    if (st.fetchThroughput) {
        auto pick = parseSeriesPick(st.seriesPick);
        parts.throughputExpr = throughputQueryWithPick(st.throughputQuery, pick ? *pick : Labels{});
        Labels forDashboard = pick ? *pick : Labels{};
        forDashboard["model_name"] = "$model_name";
        parts.throughputDashboardExpr = throughputQueryWithPick(st.throughputQuery, forDashboard);
    }

    MonitoringTestData& test = out.test;
    test.step = step;
    const double to = st.from + std::floor((st.to - st.from) / step + 1e-9) * step;
    Labels seriesLabels;
    if (auto ok = st.qualitySource == QualitySource::Prometheus
                      ? prometheusQuality(tl, rule, to, parts, out, seriesLabels)
                      : langfuseQuality(tl, rule, to, parts, out, seriesLabels);
        !ok)
        return ok.error();
    parts.marginText = shortestNumber(rule.margin);
    parts.thresholdExpr = parts.baselineExpr + " - " + parts.marginText;
    parts.alertExpr = "(" + parts.recentExpr + ") < (" + parts.thresholdExpr + ")";
    parts.recordSuffix = prometheusDuration(rule.shortWindowS);

    test.alerts = alertEpisodes(test.times, test.condition, rule.holdForS);
    test.assertedTimes = assertionTimes(test, st.from, options.maxAssertions);
    test.alertLabels = seriesLabels;
    for (const auto& [k, v] : ruleLabels()) test.alertLabels[k] = v;

    out.qualitySelector = parts.qualitySource;
    out.alertExpression = parts.alertExpr;
    out.thresholdExpression = parts.thresholdExpr;
    out.throughputExpression = parts.throughputExpr;

    // What the test expects beside what the comparison recorded: they differ where the test's data is not the data
    // the recorded alerts came from (Prometheus evaluated its raw samples; the test holds the saved step samples) or
    // where the target's windows differ from those recorded.
    std::vector<AlertEpisode> recorded = tl.alerts;
    const std::string expected = episodesText(test.alerts, st.from), was = episodesText(recorded, st.from);
    if (expected != was)
        out.notes.push_back("the unit test expects the alert " + expected +
                            " (fp8dash's evaluation of the test's data, " + monitoringTargetTitle(out.target) +
                            "); the comparison recorded " + was + " (evaluated by " +
                            (tl.alertsEvaluatedBy.empty() ? std::string("?") : tl.alertsEvaluatedBy) + ", " +
                            windowSemanticsTitle(st.rule.windows) + ")");
    parts.testNotes = out.notes;

    out.rulesYaml = rulesYaml(parts, out.target, out.targetBasis);
    out.testYaml = testYaml(parts, test, out.target);
    out.dashboardJson = dashboardJson(parts);
    return out;
}

}  // namespace fp8dash
