// The production timeline: fetch orchestration, before/after figures, alert, verdict, and its JSON form.
#include "fp8dash/core/timeline.h"
#include "fp8dash/core/untrusted_text.h"

#include "fp8dash/core/http_client.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "fp8dash/core/langfuse_client.h"
#include "fp8dash/core/vllm_metrics_json.h"
#include "production/kv_cache_switch.h"
#include "production/timeline_arrays.h"
#include "production/timeline_langfuse.h"
#include "report/timeline_format.h"

namespace fp8dash {
namespace {

using detail::num;
using detail::numberOrNull;

constexpr double kMaxTimelineSeconds = 1e12;  // unix seconds (31,700 years), and the longest alert window or delay

// The local alert is evaluated at every step of the range (recomputeDerived, one entry per time): a range of more
// steps than a Prometheus fetch may ask for (PrometheusClient::kMaxTotalPoints) would take gigabytes, so it is refused
// before any work, live (a Langfuse-only fetch has no Prometheus to refuse it) and in a file (the fuzzer found a file
// whose "to" grew two digits: 1.5 billion evaluation times).
Status checkEvaluationSteps(double from, double to, double step, const std::string& where) {
    // Times become integer milliseconds (toMs): beyond ~9.2e15 s that overflows; no real range comes near 1e12 s.
    if (std::fabs(from) > kMaxTimelineSeconds || std::fabs(to) > kMaxTimelineSeconds)
        return Error{where + "from and to must be unix seconds within +-1e12 (got " + num(from, "%.17g") + " to " +
                     num(to, "%.17g") + ")"};
    const double steps = std::floor((to - from) / step) + 1;
    if (steps <= static_cast<double>(PrometheusClient::kMaxTotalPoints)) return success();
    return Error{where + "the range from " + num(from, "%.17g") + " to " + num(to, "%.17g") + " at a step of " +
                 num(step, "%.17g") + " s has " + num(steps, "%.3g") + " evaluation times, more than " +
                 std::to_string(PrometheusClient::kMaxTotalPoints) + "; raise the step"};
}

// Sample values as JSON: numbers, or the strings Prometheus uses for what JSON cannot hold.
Json sampleValue(double v) {
    if (std::isnan(v)) return "NaN";
    if (std::isinf(v)) return v > 0 ? "+Inf" : "-Inf";
    return v;
}

std::optional<double> sampleValueOf(const Json& j) {
    if (j.is_number()) return j.get<double>();
    if (j.is_string()) {
        const auto& s = j.get_ref<const std::string&>();
        if (s == "NaN") return std::nan("");
        if (s == "+Inf" || s == "Inf") return INFINITY;
        if (s == "-Inf") return -INFINITY;
    }
    return std::nullopt;
}

// withSamples false: "t" and "v" are left empty, for timelineJsonText to write them itself.
Json seriesToJson(const Series& s, bool withSamples = true) {
    Json labels = Json::object();
    for (const auto& [k, v] : s.labels) labels[k] = v;
    Json t = Json::array(), v = Json::array();
    if (withSamples) {
        for (const auto& p : s.samples) {
            t.push_back(p.t);
            v.push_back(sampleValue(p.v));
        }
    }
    return Json{{"labels", labels}, {"t", std::move(t)}, {"v", std::move(v)}};
}

// `lifted`: the lists the JSON reader took out of the text (timeline_arrays.h); the document then holds [] there.
Result<Series> seriesFromJson(const Json& j, const std::string& where, detail::SeriesArrays* lifted) {
    if (!j.is_object()) return Error{where + " must be an object with t and v lists"};
    Series s;
    if (auto l = j.find("labels"); l != j.end()) {
        if (!l->is_object()) return Error{where + ".labels must be an object"};
        for (const auto& [k, v] : l->items()) {
            if (!v.is_string()) return Error{where + ".labels." + k + " must be a string"};
            s.labels[k] = v.get<std::string>();
        }
    }
    auto t = j.find("t"), v = j.find("v");
    if (t == j.end() || v == j.end() || !t->is_array() || !v->is_array())
        return Error{where + " must hold the lists t and v"};
    const std::vector<double>* liftedT = lifted && lifted->t ? &*lifted->t : nullptr;
    const std::vector<double>* liftedV = lifted && lifted->v ? &*lifted->v : nullptr;
    const std::size_t tCount = liftedT ? liftedT->size() : t->size();
    const std::size_t vCount = liftedV ? liftedV->size() : v->size();
    if (tCount != vCount)
        return Error{where + ": t has " + std::to_string(tCount) + " entries but v has " + std::to_string(vCount)};
    s.samples.reserve(tCount);
    double last = -INFINITY;
    for (std::size_t i = 0; i < tCount; ++i) {
        // Lifted lists hold only numbers (t) and decoded values (v): the checks below can only fail on the others.
        double ts = 0;
        if (liftedT) {
            ts = (*liftedT)[i];
        } else {
            const Json& ti = (*t)[i];
            if (!ti.is_number() || !std::isfinite(ti.get<double>()))
                return Error{where + ".t[" + std::to_string(i) + "] must be a finite number (unix seconds)"};
            ts = ti.get<double>();
        }
        const auto vi = liftedV ? std::optional<double>((*liftedV)[i]) : sampleValueOf((*v)[i]);
        if (!vi) return Error{where + ".v[" + std::to_string(i) + "] must be a number, \"NaN\", \"+Inf\" or \"-Inf\""};
        if (ts < last) return Error{where + ".t must ascend (entry " + std::to_string(i) + " goes back in time)"};
        last = ts;
        s.samples.push_back({ts, *vi});
    }
    if (lifted) *lifted = {};  // read: their memory goes before the next series is built
    return s;
}

std::vector<Sample> within(const std::vector<Sample>& s, double from, double to) {
    std::vector<Sample> out;
    for (const auto& p : s)
        if (p.t >= from && p.t <= to) out.push_back(p);
    return out;
}

// Narrows a progress reporter to the part [lo, hi] of the whole.
Progress stage(const Progress& p, double lo, double hi) {
    Progress out;
    out.cancelled = p.cancelled;
    if (p.report) out.report = [p, lo, hi](double f, const std::string& what) { p.report(lo + (hi - lo) * f, what); };
    return out;
}

Result<Series> oneSeries(const QueryResult& r, const std::string& what, const std::string& pick, bool sum) {
    if (r.series.empty()) return Error{"the " + what + " query returned no series in the chosen range"};
    if (!pick.empty() && sum) {
        // Throughput: the pick chooses a model (or engine); every series it matches is summed (V1: its engines).
        auto want = parseSeriesPick(pick);
        if (!want) return want.error();
        std::vector<Series> matched;
        for (const auto& s : r.series)
            if (labelsMatch(s.labels, *want)) matched.push_back(s);
        if (matched.empty()) return pickSeries(r.series, pick);  // its words for "nothing matches"
        return sumSeries(matched);
    }
    if (!pick.empty()) return pickSeries(r.series, pick);
    if (r.series.size() == 1 || sum) return sumSeries(r.series);
    std::string listing;
    for (std::size_t i = 0; i < r.series.size() && i < 5; ++i)
        listing += "\n  " + oneLine(labelsToString(r.series[i].labels));
    return Error{"the " + what + " query returned " + std::to_string(r.series.size()) +
                 " series; narrow the query or pick one by label:" + listing};
}

// The aggregate mode's before/after figures: the buckets that meet [from, to], weighed by their counts.
PeriodSummary summarizeLangfuseBuckets(const std::vector<ScoreBucket>& buckets, const TimelineSettings& st) {
    std::vector<ScoreBucket> in;
    for (const auto& b : buckets)
        if (b.t + kScoreBucketSeconds > st.from && b.t <= st.to) in.push_back(b);
    return summarizeBucketsAroundChange(in, *st.changeAt);
}

std::string envOr(const char* name) {
    const char* v = std::getenv(name);
    return v ? v : "";
}

// The window semantics the alert is evaluated under: the user's setting, else the Prometheus server's own (a server
// that does not say which it is, or no Prometheus at all: current Prometheus 3). Where Prometheus evaluates the rule
// itself (quality in Prometheus), its own semantics are what the alerts were computed with, whatever the setting.
void chooseWindowSemantics(TimelineData& data, const std::optional<ServerInfo>& server, bool hasPrometheus) {
    auto& st = data.settings;
    if (st.qualitySource == QualitySource::None) return;  // no alert: nothing to record
    WindowSemantics detected = WindowSemantics::Prometheus3;
    std::string basis = hasPrometheus ? "the server did not say which it is: assumed current Prometheus 3"
                                      : "no Prometheus: current Prometheus 3 semantics";
    if (server) {
        detected = server->windows;
        basis = server->windowsReason;
    }
    if (st.qualitySource == QualitySource::Prometheus) {
        st.rule.windows = detected;
        data.windowSemanticsBasis = "evaluated by the server itself; " + basis;
    } else if (st.windowSemantics) {
        st.rule.windows = *st.windowSemantics;
        data.windowSemanticsBasis = "set by the user (the server's own: " + windowSemanticsName(detected) + ")";
    } else {
        st.rule.windows = detected;
        data.windowSemanticsBasis = basis;
    }
}

}  // namespace

std::string_view qualitySourceName(QualitySource s) {
    switch (s) {
        case QualitySource::None:
            return "none";
        case QualitySource::Prometheus:
            return "prometheus";
        case QualitySource::Langfuse:
            return "langfuse";
    }
    return "none";
}

TimelineReport evaluateTimeline(const TimelineData& data) {
    const auto& st = data.settings;
    TimelineReport r;
    r.changeAt = st.changeAt;
    r.alerts = data.alerts;
    if (data.quality) r.windowSemantics = st.rule.windows;
    r.server = data.server;
    detail::describeChangeSource(data, r);
    if (!st.changeAt && !data.switchModels.empty())
        r.reasons.push_back("no change time: vllm:cache_config_info shows the KV cache switching for several models, " +
                            kvCacheSwitchModelsText(data.switchModels) + "; pick one model or give the change time");
    else if (!st.changeAt)
        r.reasons.push_back("no change time: give the moment FP8 went on to compare before and after" +
                            std::string(data.detectedChange ? " (vLLM reports a switch at " +
                                                                  formatTimeUtc(data.detectedChange->at) + ")"
                                                            : ""));
    if (data.throughput && st.changeAt) {
        r.throughput = summarizeAroundChange(within(data.throughput->samples, st.from, st.to), *st.changeAt);
        if (auto d = r.throughput.deltaPct()) {
            const auto& b = st.bands;
            const std::string fig = "throughput " + num(*r.throughput.beforeMean, "%.1f") + " → " +
                                    num(*r.throughput.afterMean, "%.1f") + " tokens/s (" + num(*d, "%+.1f") + "%)";
            if (*d < b.throughputLowPct)
                r.throughputAssessment = fig + ", below the expected +" + num(b.throughputLowPct, "%g") + "–" +
                                         num(b.throughputHighPct, "%g") + "%";
            else if (*d > b.throughputHighPct)
                r.throughputAssessment = fig + ", above the expected +" + num(b.throughputLowPct, "%g") + "–" +
                                         num(b.throughputHighPct, "%g") + "%";
            else
                r.throughputAssessment = fig + ", within the expected +" + num(b.throughputLowPct, "%g") + "–" +
                                         num(b.throughputHighPct, "%g") + "%";
        } else {
            r.throughputAssessment = "throughput: not enough samples on both sides of the change";
        }
    }
    bool firedAfterChange = false;
    for (const auto& a : data.alerts)
        if (a.firingAt && st.changeAt && *a.firingAt >= *st.changeAt) firedAfterChange = true;
    if (data.quality && st.changeAt) {
        r.quality = data.qualityBuckets
                        ? summarizeLangfuseBuckets(*data.qualityBuckets, st)
                        : summarizeAroundChange(within(data.quality->samples, st.from, st.to), *st.changeAt);
        const auto& b = st.bands;
        if (auto d = r.quality.deltaPoints()) {
            const std::string fig = "quality " + num(*r.quality.beforeMean, "%.3f") + " → " +
                                    num(*r.quality.afterMean, "%.3f") + " (" + num(*d, "%+.3f") + " points)";
            Verdict v = Verdict::Go;
            if (*d < -b.qualityProblem) {
                r.qualityAssessment =
                    fig + ", a drop beyond " + num(b.qualityProblem, "%g") + " points: a real problem";
                v = Verdict::Investigate;
            } else if (*d < -b.qualityTolerance) {
                r.qualityAssessment = fig + ", outside ±" + num(b.qualityTolerance, "%g") + ": watch it";
                v = Verdict::Monitor;
            } else {
                r.qualityAssessment =
                    fig + (*d > b.qualityTolerance ? ", rose" : ", held within ±" + num(b.qualityTolerance, "%g"));
            }
            if (firedAfterChange) v = Verdict::Investigate;
            r.verdict = v;
        } else {
            r.qualityAssessment = "quality: not enough scores on both sides of the change";
            if (firedAfterChange) r.verdict = Verdict::Investigate;
        }
    } else if (!data.quality) {
        r.reasons.push_back("no quality series: the timeline gives no verdict on its own");
    }
    if (firedAfterChange) {
        for (const auto& a : data.alerts)
            if (a.firingAt && *a.firingAt >= *st.changeAt)
                r.reasons.push_back("the quality alert fired at " + formatTimeUtc(*a.firingAt) + " (pending since " +
                                    formatTimeUtc(a.pendingAt) + ", " +
                                    (a.resolvedAt ? "resolved at " + formatTimeUtc(*a.resolvedAt) : "still firing") +
                                    ") after the change");
    }
    if (!r.qualityAssessment.empty()) r.reasons.push_back(r.qualityAssessment);
    if (!r.throughputAssessment.empty()) r.reasons.push_back(r.throughputAssessment);
    if (data.kvScalesRisk) r.risks.push_back(kvScalesRiskText(*data.kvScalesRisk));
    return r;
}

TimelineCredentials credentialsFromEnvironment() {
    TimelineCredentials c;
    if (auto token = envOr("FP8DASH_PROMETHEUS_TOKEN"); !token.empty()) {
        c.prometheusAuth.kind = HttpAuth::Kind::Bearer;
        c.prometheusAuth.token = token;
    } else if (auto user = envOr("FP8DASH_PROMETHEUS_USER"); !user.empty()) {
        c.prometheusAuth.kind = HttpAuth::Kind::Basic;
        c.prometheusAuth.user = user;
        c.prometheusAuth.password = envOr("FP8DASH_PROMETHEUS_PASSWORD");
    }
    auto headers = parseHeaderList(envOr("FP8DASH_PROMETHEUS_HEADERS"), "FP8DASH_PROMETHEUS_HEADERS", ';');
    if (headers)
        c.prometheusHeaders = std::move(headers).value();
    else
        c.headersError = headers.error().message;
    c.langfusePublicKey = envOr("LANGFUSE_PUBLIC_KEY");
    c.langfuseSecretKey = envOr("LANGFUSE_SECRET_KEY");
    return c;
}

void recomputeDerived(TimelineData& data) {
    if (data.settings.qualitySource != QualitySource::Langfuse) return;
    data.alerts.clear();
    data.alertsEvaluatedBy.clear();
    if (!data.quality) return;
    const auto& st = data.settings;
    const auto times = evaluationTimes(st.from, st.to, st.step);
    data.alerts =
        alertEpisodes(times,
                      data.qualityBuckets ? evaluateAlertConditionFromBuckets(*data.qualityBuckets, times, st.rule)
                                          : evaluateAlertCondition(data.quality->samples, times, st.rule),
                      st.rule.holdForS);
    data.alertsEvaluatedBy = "local";
}

Result<TimelineData> fetchTimeline(const TimelineSettings& st, const TimelineCredentials& cred,
                                   const Progress& progress) {
    if (!(st.to > st.from)) return Error{"the time range is empty: --to must be after --from"};
    if (!(st.step > 0) || !std::isfinite(st.step)) return Error{"the step must be a positive number of seconds"};
    if (auto r = checkEvaluationSteps(st.from, st.to, st.step, ""); !r) return r.error();
    if ((st.fetchThroughput || st.qualitySource == QualitySource::Prometheus) && st.prometheusUrl.empty())
        return Error{"a Prometheus URL is needed for the throughput or quality query"};
    if (st.qualitySource == QualitySource::Langfuse && st.langfuseUrl.empty())
        return Error{"a Langfuse URL is needed for Langfuse scores"};
    if (!st.fetchThroughput && st.qualitySource == QualitySource::None)
        return Error{"nothing to fetch: choose a throughput query, a quality source, or both"};

    TimelineData data;
    data.settings = st;
    if (st.changeAtDetected) data.settings.changeAt.reset(), data.settings.changeAtDetected = false;  // found again
    data.settings.prometheusAuth = cred.prometheusAuth.kind == HttpAuth::Kind::Bearer  ? "bearer"
                                   : cred.prometheusAuth.kind == HttpAuth::Kind::Basic ? "basic"
                                                                                       : "none";
    data.settings.prometheusHeaderNames.clear();
    for (const auto& [name, value] : cred.prometheusHeaders) data.settings.prometheusHeaderNames.push_back(name);

    std::optional<PrometheusClient> prom;
    if (!st.prometheusUrl.empty()) {
        PrometheusSettings ps;
        ps.baseUrl = st.prometheusUrl;
        ps.http = cred.httpTemplate;
        ps.http.auth = cred.prometheusAuth;
        ps.http.headers = cred.prometheusHeaders;
        // Which server this is (once per URL while the process runs): its window semantics, its query parameters.
        Progress quiet;  // a single small request: cancellable, not reported (the fetches' fractions start at 0)
        quiet.cancelled = progress.cancelled;
        auto info = PrometheusClient(ps).serverInfo(quiet);
        if (progress.isCancelled()) return Error{"cancelled"};
        if (!info) return info.error();  // no answer, or unavailable: every query would meet the same
        ps.backend = info->backend;
        data.server = info->description;  // also "a Prometheus-compatible server (no /api/v1/status/buildinfo ...)"
        chooseWindowSemantics(data, *info, true);
        prom.emplace(ps);
    } else {
        chooseWindowSemantics(data, std::nullopt, false);
    }
    auto note = [&](const QueryResult& r) {
        data.warnings.insert(data.warnings.end(), r.warnings.begin(), r.warnings.end());
        for (const auto& info : r.infos) data.warnings.push_back("(info) " + info);
        data.warnings.insert(data.warnings.end(), r.notices.begin(), r.notices.end());
    };
    auto pick = parseSeriesPick(st.seriesPick);
    if (!pick) return pick.error();

    if (st.fetchThroughput) {
        // The default query takes the pick inside its selector: Prometheus picks the model before summing engines.
        const std::string sent = throughputQueryWithPick(st.throughputQuery, *pick);
        auto r = prom->queryRange(sent, st.from, st.to, st.step, stage(progress, 0.0, 0.35));
        if (!r) return Error{"throughput: " + r.error().message};
        note(*r);
        if (r->series.empty())
            return Error{"throughput: " + explainEmptyQuery(*prom, "throughput", sent, st.from, st.to, *pick)};
        const std::string narrow =
            sent == st.throughputQuery ? pickCarriedBy(r->series, "throughput", sent, st.seriesPick, cred.notice) : "";
        auto s = oneSeries(*r, "throughput", narrow, true);
        if (!s) return Error{"throughput: " + s.error().message};
        data.throughput = std::move(s).value();
    }
    if (st.qualitySource == QualitySource::Prometheus) {
        auto r = prom->queryRange(st.qualityQuery, st.from, st.to, st.step, stage(progress, 0.35, 0.6));
        if (!r) return Error{"quality: " + r.error().message};
        note(*r);
        if (r->series.empty())
            return Error{"quality: " + explainEmptyQuery(*prom, "quality", st.qualityQuery, st.from, st.to, *pick)};
        auto s = oneSeries(*r, "quality",
                           pickCarriedBy(r->series, "quality", st.qualityQuery, st.seriesPick, cred.notice), false);
        if (!s) return Error{"quality: " + s.error().message};
        data.quality = std::move(s).value();
        // The alert as Prometheus itself evaluates it: the condition holds where the expression has a sample.
        auto a = prom->queryRange(st.rule.promql(st.qualityQuery), st.from, st.to, st.step, stage(progress, 0.6, 0.85));
        if (!a) return Error{"quality alert: " + a.error().message};
        note(*a);
        const auto times = evaluationTimes(st.from, st.to, st.step);
        std::vector<bool> condition(times.size(), false);
        for (const auto& series : a->series)
            for (const auto& p : series.samples) {
                const double k = std::round((p.t - st.from) / st.step);
                if (k >= 0 && k < static_cast<double>(times.size())) condition[static_cast<std::size_t>(k)] = true;
            }
        data.alerts = alertEpisodes(times, condition, st.rule.holdForS);
        data.alertsEvaluatedBy = "prometheus";
    } else if (st.qualitySource == QualitySource::Langfuse) {
        if (auto r = detail::fetchLangfuseQuality(data, cred, stage(progress, 0.35, 0.85)); !r) return r.error();
        recomputeDerived(data);
    }
    if (prom) {
        // The switch (the change time where none was given); an error here does not spoil the timeline.
        auto c = prom->queryRange("vllm:cache_config_info", st.from, st.to, st.step, stage(progress, 0.85, 0.95));
        if (c) {
            detail::useKvCacheSwitch(data, *prom, c->series, *pick, stage(progress, 0.95, 1.0));
            data.kvScalesRisk = findKvScalesRisk(c->series, *pick);
        } else if (progress.isCancelled()) {
            return Error{"cancelled"};
        }
    }
    progress(1.0, "done");
    return data;
}

namespace {

Json timelineJson(const TimelineData& d, bool withSamples) {
    const auto& s = d.settings;
    // The URLs without their credentials (user info, token parameters): they were used for the requests, never saved.
    Json settings = {{"prometheus_url", HttpClient::displayUrl(s.prometheusUrl)},
                     {"prometheus_auth", s.prometheusAuth},
                     {"prometheus_header_names", s.prometheusHeaderNames},
                     {"fetch_throughput", s.fetchThroughput},
                     {"throughput_query", s.throughputQuery},
                     {"series_pick", s.seriesPick},
                     {"quality_source", qualitySourceName(s.qualitySource)},
                     {"quality_query", s.qualityQuery},
                     {"langfuse_url", HttpClient::displayUrl(s.langfuseUrl)},
                     {"score_name", s.scoreName},
                     {"trace_tags", s.traceTags},
                     {"environments", s.environments},
                     {"from", s.from},
                     {"to", s.to},
                     {"step", s.step},
                     {"change_at", numberOrNull(s.changeAt)},
                     {"rule",
                      {{"short_window_s", s.rule.shortWindowS},
                       {"long_window_s", s.rule.longWindowS},
                       {"offset_s", s.rule.offsetS},
                       {"margin", s.rule.margin},
                       {"hold_for_s", s.rule.holdForS}}},
                     {"bands",
                      {{"throughput_low_pct", s.bands.throughputLowPct},
                       {"throughput_high_pct", s.bands.throughputHighPct},
                       {"quality_tolerance", s.bands.qualityTolerance},
                       {"quality_problem", s.bands.qualityProblem}}}};
    // Written only for the aggregate mode: a file without it read its scores one by one (the only mode before).
    if (s.qualitySource == QualitySource::Langfuse && s.langfuseMode == LangfuseMode::Aggregate)
        settings["langfuse_mode"] = langfuseModeName(s.langfuseMode);
    Json alerts = Json::array();
    for (const auto& a : d.alerts)
        alerts.push_back({{"pending_at", a.pendingAt},
                          {"firing_at", numberOrNull(a.firingAt)},
                          {"resolved_at", numberOrNull(a.resolvedAt)}});
    Json j = {{"settings", std::move(settings)},
              {"throughput", d.throughput ? seriesToJson(*d.throughput, withSamples) : Json(nullptr)},
              {"quality", d.quality ? seriesToJson(*d.quality, withSamples) : Json(nullptr)},
              {"alerts", std::move(alerts)},
              {"alerts_evaluated_by", d.alertsEvaluatedBy},
              {"detected_change",
               d.detectedChange
                   ? Json{{"at", d.detectedChange->at}, {"from", d.detectedChange->from}, {"to", d.detectedChange->to}}
                   : Json(nullptr)},
              {"warnings", d.warnings}};
    // Written only where they say something (old files keep their bytes): the semantics once recorded at a fetch, the
    // user's setting when there is one, the server when it was identified.
    if (!d.windowSemanticsBasis.empty()) {
        j["window_semantics"] = windowSemanticsName(s.rule.windows);
        j["window_semantics_basis"] = d.windowSemanticsBasis;
    }
    if (!d.server.empty()) j["server"] = d.server;
    if (s.windowSemantics) j["settings"]["window_semantics"] = windowSemanticsName(*s.windowSemantics);
    // Written only when raised: files without the risk stay as they were.
    if (d.kvScalesRisk) j["kv_scales_risk"] = kvScalesRiskToJson(*d.kvScalesRisk);
    if (!d.detectedSwitches.empty()) j["detected_switches"] = engineSwitchesToJson(d.detectedSwitches);
    if (s.changeAtDetected) j["settings"]["change_at_source"] = "cache_config_info";
    if (d.qualityBuckets) {
        Json buckets = {{"t", Json::array()}, {"sum", Json::array()}, {"count", Json::array()}};
        if (withSamples)
            for (const auto& b : *d.qualityBuckets) {
                buckets["t"].push_back(b.t);
                buckets["sum"].push_back(b.sum);
                buckets["count"].push_back(b.count);
            }
        j["quality_buckets"] = std::move(buckets);
    }
    return j;
}

// Pretty-printed as nlohmann's dump(2) writes a value whose closing bracket sits `indent` spaces in: its own text
// with every line after the first moved right (JSON strings hold no raw newline, so every '\n' is layout).
std::string indentedJson(const Json& value, int indent) {
    const std::string text = value.dump(2, ' ', false, nlohmann::json::error_handler_t::replace);
    std::string out;
    out.reserve(text.size() + text.size() / 8);
    for (const char c : text) {
        out += c;
        if (c == '\n') out.append(static_cast<std::size_t>(indent), ' ');
    }
    return out;
}

std::string jsonKey(const std::string& key) {
    return Json(key).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

// A series as seriesToJson gives it, its sample lists on one line each (a list of millions of samples
// one per line made a file five times the size, and nlohmann's tree of it many times that in memory).
void appendSeriesText(std::string& out, const Series& series, const Json& shape, int indent) {
    const std::string inner(static_cast<std::size_t>(indent + 2), ' ');
    out += "{\n";
    out += inner + "\"labels\": " + indentedJson(shape.at("labels"), indent + 2) + ",\n";
    out += inner + "\"t\": [";
    for (std::size_t i = 0; i < series.samples.size(); ++i) {
        if (i) out += ',';
        detail::appendSampleNumber(out, series.samples[i].t);
    }
    out += "],\n" + inner + "\"v\": [";
    for (std::size_t i = 0; i < series.samples.size(); ++i) {
        if (i) out += ',';
        detail::appendSampleValue(out, series.samples[i].v);
    }
    out += "]\n" + std::string(static_cast<std::size_t>(indent), ' ') + "}";
}

}  // namespace

Json timelineToJson(const TimelineData& d) {
    return timelineJson(d, true);
}

namespace {

// The optional semantics fields (timelineJson). Without them the file predates them, and its alerts were evaluated
// with closed windows (Prometheus 2.x): recomputeDerived keeps those.
Status readWindowSemantics(const Json& j, const Json& settings, const std::string& where, TimelineData& d) {
    const auto read = [](const Json& obj, const std::string& at, std::optional<WindowSemantics>& out) -> Status {
        const auto it = obj.find("window_semantics");
        if (it == obj.end() || it->is_null()) return success();
        out = it->is_string() ? parseWindowSemantics(it->get<std::string>()) : std::nullopt;
        if (!out) return Error{at + ".window_semantics must be \"prometheus2\" or \"prometheus3\""};
        return success();
    };
    if (auto r = read(settings, where + ".settings", d.settings.windowSemantics); !r) return r;
    std::optional<WindowSemantics> evaluated;
    if (auto r = read(j, where, evaluated); !r) return r;
    d.settings.rule.windows = evaluated.value_or(WindowSemantics::Prometheus2);
    if (auto b = j.find("window_semantics_basis"); evaluated && b != j.end() && b->is_string())
        d.windowSemanticsBasis = b->get<std::string>();
    if (evaluated && d.windowSemanticsBasis.empty()) d.windowSemanticsBasis = "as recorded in the file";
    if (auto sv = j.find("server"); sv != j.end() && sv->is_string()) d.server = sv->get<std::string>();
    return success();
}

}  // namespace

namespace detail {

void appendSampleNumber(std::string& out, double value) {
    char buf[32];
    const auto r = std::to_chars(buf, buf + sizeof buf, value);  // the shortest text that reads back the same
    const std::string_view text(buf, static_cast<std::size_t>(r.ptr - buf));
    out.append(text);
    // nlohmann writes integral doubles with ".0", so that they read back as floats.
    if (text.find_first_of(".eEn") == std::string_view::npos) out += ".0";
}

void appendSampleValue(std::string& out, double value) {
    if (std::isnan(value))
        out += "\"NaN\"";
    else if (std::isinf(value))
        out += value > 0 ? "\"+Inf\"" : "\"-Inf\"";
    else
        appendSampleNumber(out, value);
}

std::string timelineJsonText(const TimelineData& data, int indent) {
    const Json shape = timelineJson(data, false);
    const std::string inner(static_cast<std::size_t>(indent + 2), ' ');
    std::size_t samples = 0;
    for (const auto* s : {&data.throughput, &data.quality})
        if (*s) samples += (*s)->samples.size();
    std::string out;
    out.reserve(4096 + 24 * 2 * samples);
    out += "{\n";
    std::size_t k = 0;
    for (const auto& [key, value] : shape.items()) {
        out += inner + jsonKey(key) + ": ";
        if (key == "throughput" && data.throughput)
            appendSeriesText(out, *data.throughput, value, indent + 2);
        else if (key == "quality" && data.quality)
            appendSeriesText(out, *data.quality, value, indent + 2);
        else if (key == "quality_buckets" && data.qualityBuckets)
            appendBucketsText(out, *data.qualityBuckets, indent + 2);
        else
            out += indentedJson(value, indent + 2);
        out += ++k < shape.size() ? ",\n" : "\n";
    }
    out += std::string(static_cast<std::size_t>(indent), ' ') + "}";
    return out;
}

namespace {

// A number member of `obj`: finite; missing or null leaves `out` as it is unless `required`. Errors name where.key.
Status timelineNumber(const Json& obj, const std::string& where, const char* key, double& out, bool required) {
    auto it = obj.find(key);
    if (it == obj.end() || it->is_null()) {
        if (required) return Error{where + "." + key + " is missing"};
        return success();
    }
    if (!it->is_number() || !std::isfinite(it->get<double>()))
        return Error{where + "." + key + " must be a finite number"};
    out = it->get<double>();
    return success();
}

// The timeline's "settings" object `st` (its path `w`): sources, queries, range, change, alert rule and bands.
Status parseTimelineSettings(const Json& st, const std::string& w, TimelineSettings& s) {
    auto str = [&](const char* key, std::string& out) -> Status {
        if (auto it = st.find(key); it != st.end() && !it->is_null()) {
            if (!it->is_string()) return Error{w + "." + key + " must be a string"};
            out = it->get<std::string>();
        }
        return success();
    };
    auto strings = [&](const char* key, std::vector<std::string>& out) -> Status {
        if (auto it = st.find(key); it != st.end() && !it->is_null()) {
            if (!it->is_array()) return Error{w + "." + key + " must be a list of strings"};
            for (const auto& e : *it) {
                if (!e.is_string()) return Error{w + "." + key + " must be a list of strings"};
                out.push_back(e.get<std::string>());
            }
        }
        return success();
    };
    for (auto [key, out] : {std::pair<const char*, std::string*>{"prometheus_url", &s.prometheusUrl},
                            {"prometheus_auth", &s.prometheusAuth},
                            {"throughput_query", &s.throughputQuery},
                            {"series_pick", &s.seriesPick},
                            {"quality_query", &s.qualityQuery},
                            {"langfuse_url", &s.langfuseUrl},
                            {"score_name", &s.scoreName}})
        if (auto r = str(key, *out); !r) return r.error();
    // A file written before the URLs were cleaned may hold credentials in them: never shown, never written again.
    s.prometheusUrl = HttpClient::displayUrl(s.prometheusUrl);
    s.langfuseUrl = HttpClient::displayUrl(s.langfuseUrl);
    if (auto r = strings("prometheus_header_names", s.prometheusHeaderNames); !r) return r.error();
    if (auto r = strings("trace_tags", s.traceTags); !r) return r.error();
    if (auto r = strings("environments", s.environments); !r) return r.error();
    if (auto it = st.find("fetch_throughput"); it != st.end()) {
        if (!it->is_boolean()) return Error{w + ".fetch_throughput must be true or false"};
        s.fetchThroughput = it->get<bool>();
    }
    std::string source = "none";
    if (auto r = str("quality_source", source); !r) return r.error();
    std::string mode = "raw";
    if (auto r = str("langfuse_mode", mode); !r) return r.error();
    if (mode == "raw")
        s.langfuseMode = LangfuseMode::Raw;
    else if (mode == "aggregate")
        s.langfuseMode = LangfuseMode::Aggregate;
    else
        return Error{w + ".langfuse_mode must be raw or aggregate, not \"" + mode + "\""};
    if (source == "none")
        s.qualitySource = QualitySource::None;
    else if (source == "prometheus")
        s.qualitySource = QualitySource::Prometheus;
    else if (source == "langfuse")
        s.qualitySource = QualitySource::Langfuse;
    else
        return Error{w + ".quality_source must be none, prometheus or langfuse, not \"" + source + "\""};
    for (auto [key, out] : {std::pair<const char*, double*>{"from", &s.from}, {"to", &s.to}, {"step", &s.step}})
        if (auto r = timelineNumber(st, w, key, *out, true); !r) return r.error();
    if (!(s.to > s.from) || !(s.step > 0)) return Error{w + ": from/to/step do not describe a time range"};
    if (auto r = checkEvaluationSteps(s.from, s.to, s.step, w + ": "); !r) return r.error();
    double change = 0;
    if (auto it = st.find("change_at"); it != st.end() && !it->is_null()) {
        if (auto r = timelineNumber(st, w, "change_at", change, true); !r) return r.error();
        if (std::fabs(change) > kMaxTimelineSeconds)
            return Error{w + ".change_at must be unix seconds within +-1e12 (got " + num(change, "%.17g") + ")"};
        s.changeAt = change;
    }
    if (auto rule = st.find("rule"); rule != st.end()) {
        if (!rule->is_object()) return Error{w + ".rule must be an object"};
        const std::string rw = w + ".rule";
        for (auto [key, out] : {std::pair<const char*, double*>{"short_window_s", &s.rule.shortWindowS},
                                {"long_window_s", &s.rule.longWindowS},
                                {"offset_s", &s.rule.offsetS},
                                {"margin", &s.rule.margin},
                                {"hold_for_s", &s.rule.holdForS}})
            if (auto r = timelineNumber(*rule, rw, key, *out, false); !r) return r.error();
        // Windows, offset and hold become milliseconds in the alert's arithmetic (toMs): a window of 1.8e58 s (the
        // fuzzer's) overflowed it.
        for (auto [key, value] : {std::pair<const char*, double>{"short_window_s", s.rule.shortWindowS},
                                  {"long_window_s", s.rule.longWindowS},
                                  {"offset_s", s.rule.offsetS},
                                  {"hold_for_s", s.rule.holdForS}})
            if (value < 0 || value > kMaxTimelineSeconds)
                return Error{rw + "." + key + " must be a duration from 0 to 1e12 seconds (got " + num(value, "%.17g") +
                             ")"};
    }
    if (auto bands = st.find("bands"); bands != st.end()) {
        if (!bands->is_object()) return Error{w + ".bands must be an object"};
        const std::string bw = w + ".bands";
        for (auto [key, out] : {std::pair<const char*, double*>{"throughput_low_pct", &s.bands.throughputLowPct},
                                {"throughput_high_pct", &s.bands.throughputHighPct},
                                {"quality_tolerance", &s.bands.qualityTolerance},
                                {"quality_problem", &s.bands.qualityProblem}})
            if (auto r = timelineNumber(*bands, bw, key, *out, false); !r) return r.error();
    }
    return success();
}

// The "alerts" list (its path where.alerts): each episode's pending, firing and resolved times.
Status parseAlertEpisodes(const Json& a, const std::string& where, std::vector<AlertEpisode>& alerts) {
    if (!a.is_array()) return Error{where + ".alerts must be a list"};
    for (std::size_t i = 0; i < a.size(); ++i) {
        const Json& e = a[i];
        const std::string aw = where + ".alerts[" + std::to_string(i) + "]";
        if (!e.is_object()) return Error{aw + " must be an object"};
        AlertEpisode ep;
        double firing = 0, resolved = 0;
        if (auto r = timelineNumber(e, aw, "pending_at", ep.pendingAt, true); !r) return r.error();
        if (auto it = e.find("firing_at"); it != e.end() && !it->is_null()) {
            if (auto r = timelineNumber(e, aw, "firing_at", firing, true); !r) return r.error();
            ep.firingAt = firing;
        }
        if (auto it = e.find("resolved_at"); it != e.end() && !it->is_null()) {
            if (auto r = timelineNumber(e, aw, "resolved_at", resolved, true); !r) return r.error();
            ep.resolvedAt = resolved;
        }
        alerts.push_back(ep);
    }
    return success();
}

}  // namespace

Result<TimelineData> parseTimelineJson(const Json& j, const std::string& where, TimelineArrays* arrays) {
    if (!j.is_object()) return Error{where + " must be an object"};
    TimelineData d;
    auto& s = d.settings;
    auto st = j.find("settings");
    if (st == j.end() || !st->is_object()) return Error{where + ".settings is missing or not an object"};
    const std::string w = where + ".settings";
    if (auto r = parseTimelineSettings(*st, w, s); !r) return r.error();
    for (auto [key, out] :
         {std::pair<const char*, std::optional<Series>*>{"throughput", &d.throughput}, {"quality", &d.quality}}) {
        if (auto it = j.find(key); it != j.end() && !it->is_null()) {
            auto series =
                seriesFromJson(*it, where + "." + key,
                               arrays ? (out == &d.throughput ? &arrays->throughput : &arrays->quality) : nullptr);
            if (!series) return series.error();
            *out = std::move(series).value();
        }
    }
    if (auto b = j.find("quality_buckets"); b != j.end() && !b->is_null()) {
        auto buckets = bucketsFromJson(*b, where + ".quality_buckets");
        if (!buckets) return buckets.error();
        d.qualityBuckets = std::move(buckets).value();
    }
    if (auto a = j.find("alerts"); a != j.end() && !a->is_null())
        if (auto r = parseAlertEpisodes(*a, where, d.alerts); !r) return r.error();
    if (auto by = j.find("alerts_evaluated_by"); by != j.end() && by->is_string())
        d.alertsEvaluatedBy = by->get<std::string>();
    if (auto r = detail::readKvCacheSwitchJson(j, *st, where, d); !r) return r.error();
    if (auto risk = j.find("kv_scales_risk"); risk != j.end() && !risk->is_null()) {
        auto k = kvScalesRiskFromJson(*risk, where + ".kv_scales_risk");
        if (!k) return k.error();
        d.kvScalesRisk = std::move(k).value();
    }
    if (auto wn = j.find("warnings"); wn != j.end() && wn->is_array())
        for (const auto& e : *wn)
            if (e.is_string()) d.warnings.push_back(e.get<std::string>());
    if (auto r = readWindowSemantics(j, *st, where, d); !r) return r.error();
    // Local alerts are derived data: recompute them so a file always shows what its scores imply.
    recomputeDerived(d);
    return d;
}

}  // namespace detail

Result<TimelineData> parseTimelineJson(const Json& j, const std::string& where) {
    return detail::parseTimelineJson(j, where, nullptr);
}

}  // namespace fp8dash
