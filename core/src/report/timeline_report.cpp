// The timeline report's renderings: the CLI's stable JSON and the text report (evaluateTimeline computes the report).
#include <string>

#include "fp8dash/core/timeline.h"
#include "fp8dash/core/untrusted_text.h"
#include "fp8dash/core/vllm_metrics.h"
#include "report/timeline_format.h"

namespace fp8dash {

using detail::num;
using detail::numberOrNull;

Json timelineReportToJson(const TimelineReport& r) {
    Json alerts = Json::array();
    for (const auto& a : r.alerts)
        alerts.push_back({{"pending_at", a.pendingAt},
                          {"firing_at", numberOrNull(a.firingAt)},
                          {"resolved_at", numberOrNull(a.resolvedAt)}});
    Json j = Json{{"change_at", numberOrNull(r.changeAt)},
                  {"verdict", r.verdict ? Json(verdictName(*r.verdict)) : Json(nullptr)},
                  {"reasons", r.reasons},
                  {"throughput",
                   {{"before_mean", numberOrNull(r.throughput.beforeMean)},
                    {"after_mean", numberOrNull(r.throughput.afterMean)},
                    {"delta_pct", numberOrNull(r.throughput.deltaPct())},
                    {"before_count", r.throughput.beforeCount},
                    {"after_count", r.throughput.afterCount},
                    {"assessment", r.throughputAssessment}}},
                  {"quality",
                   {{"before_mean", numberOrNull(r.quality.beforeMean)},
                    {"after_mean", numberOrNull(r.quality.afterMean)},
                    {"delta_points", numberOrNull(r.quality.deltaPoints())},
                    {"before_count", r.quality.beforeCount},
                    {"after_count", r.quality.afterCount},
                    {"assessment", r.qualityAssessment}}},
                  {"alerts", std::move(alerts)}};
    // Which edges the alert's windows had (with a quality series), and which server answered (when identified).
    if (r.windowSemantics) j["window_semantics"] = windowSemanticsName(*r.windowSemantics);
    if (!r.server.empty()) j["server"] = r.server;
    if (!r.risks.empty()) j["risks"] = r.risks;  // only when raised: earlier outputs stay byte-identical
    // Where the change time came from, when vLLM's switch is involved (detected, or overridden by a given time).
    if (!r.changeDetail.empty()) {
        j["change_source"] = r.changeSource;
        j["change_detail"] = r.changeDetail;
    }
    if (r.rolloutEnd) j["rollout"] = {{"from", numberOrNull(r.changeAt)}, {"to", *r.rolloutEnd}, {"text", r.rollout}};
    return j;
}

std::string timelineReportToText(const TimelineReport& r, const TimelineData& d) {
    std::string out = "Production timeline: " + formatTimeUtc(d.settings.from) + " → " + formatTimeUtc(d.settings.to) +
                      " (step " + num(d.settings.step, "%g") + " s)\n";
    out += "  Verdict: " + (r.verdict ? std::string(verdictTitle(*r.verdict)) : std::string("none")) + "\n";
    // Values from the file and the servers (reasons and risks quote them) on one line each (oneLine).
    for (const auto& reason : r.reasons) out += "  • " + oneLine(reason) + "\n";
    if (r.changeAt) out += "  FP8 switched on at " + formatTimeUtc(*r.changeAt) + "\n";
    if (!r.changeDetail.empty()) out += "  " + oneLine(r.changeDetail) + "\n";
    if (!r.rollout.empty()) out += "  " + oneLine(r.rollout) + "\n";
    if (d.detectedChange)
        out +=
            "  vLLM's cache_config_info shows cache_dtype " +
            oneLine(describeKvCacheDtype(d.detectedChange->from) + " → " + describeKvCacheDtype(d.detectedChange->to)) +
            " at " + formatTimeUtc(d.detectedChange->at) + "\n";
    for (const auto& risk : r.risks) out += "  Risk: " + oneLine(risk) + "\n";
    if (d.quality) {
        out += "  Quality alert (" + oneLine(d.settings.rule.promql("q")) + ", for " +
               num(d.settings.rule.holdForS / 60, "%g") + "m; evaluated " +
               (d.alertsEvaluatedBy == "prometheus" ? "by Prometheus" : "locally") +
               (d.qualityBuckets ? " from Langfuse's per-minute sums and counts" : "") + " with " +
               windowSemanticsTitle(d.settings.rule.windows) + "): ";
        if (r.alerts.empty())
            out += "never pending\n";
        else
            out += std::to_string(r.alerts.size()) + " episode(s)\n";
        for (const auto& a : r.alerts)
            out += "    pending " + formatTimeUtc(a.pendingAt) + ", " +
                   (a.firingAt ? "firing " + formatTimeUtc(*a.firingAt) : std::string("never fired")) + ", " +
                   (a.resolvedAt ? "resolved " + formatTimeUtc(*a.resolvedAt) : std::string("still active")) + "\n";
    }
    if (!d.server.empty()) out += "  Prometheus API served by " + oneLine(d.server) + "\n";
    if (d.quality && !d.windowSemanticsBasis.empty())
        out += "  Alert windows: " + windowSemanticsName(d.settings.rule.windows) + " (" +
               oneLine(d.windowSemanticsBasis) + ")\n";
    for (const auto& w : d.warnings) out += "  warning from the server: " + oneLine(w) + "\n";
    return out;
}

}  // namespace fp8dash
