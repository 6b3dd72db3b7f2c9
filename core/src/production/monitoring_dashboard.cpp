// The Grafana dashboard of the monitoring export (monitoring_export.h): throughput and judge quality on one time
// axis with the alert's threshold as a line, the FP8 switch as an annotation, the alert's state from ALERTS as a
// state timeline and a region, a Prometheus datasource variable and a model_name variable. Dashboard JSON model of
// schemaVersion 39, which Grafana 10.4 to 12 import (later versions migrate it on load), in the conventions of vLLM's
// examples/online_serving/prometheus_grafana/grafana.json (datasource by variable, model_name from the vLLM series).
#include <cstdint>
#include <cstdio>

#include "fp8dash/core/json_text.h"
#include "fp8dash/core/untrusted_text.h"
#include "production/monitoring_parts.h"

namespace fp8dash {
namespace {

const Json kDatasource = {{"type", "prometheus"}, {"uid", "${datasource}"}};

Json target(const std::string& refId, const std::string& expr, const std::string& legend) {
    return {{"datasource", kDatasource}, {"editorMode", "code"}, {"expr", expr},  {"instant", false},
            {"legendFormat", legend},    {"range", true},        {"refId", refId}};
}

Json gridPos(int h, int w, int x, int y) {
    return {{"h", h}, {"w", w}, {"x", x}, {"y", y}};
}

Json overrideByName(const std::string& name, Json properties) {
    return {{"matcher", {{"id", "byName"}, {"options", name}}}, {"properties", std::move(properties)}};
}

Json prop(const std::string& id, Json value) {
    return {{"id", id}, {"value", std::move(value)}};
}

// A stable uid from the model and the title (Grafana: at most 40 characters of [a-zA-Z0-9-_]).
std::string dashboardUid(const MonitoringParts& p) {
    std::uint64_t h = 1469598103934665603ULL;
    for (const unsigned char c : p.model + '\n' + p.title) h = (h ^ c) * 1099511628211ULL;
    char buf[48];
    std::snprintf(buf, sizeof buf, "fp8dash-quality-%016llx", static_cast<unsigned long long>(h));
    return buf;
}

// The built-in annotations, the FP8 switch (a time that travels with the JSON: a Prometheus annotation whose value
// is the time in ms) and the firing alert as a region.
Json annotationList(const MonitoringParts& p) {
    Json annotations = Json::array();
    annotations.push_back({{"builtIn", 1},
                           {"datasource", {{"type", "grafana"}, {"uid", "-- Grafana --"}}},
                           {"enable", true},
                           {"hide", true},
                           {"iconColor", "rgba(0, 211, 255, 1)"},
                           {"name", "Annotations & Alerts"},
                           {"type", "dashboard"}});
    if (p.changeAt) {
        // A time that travels with the JSON: a Prometheus annotation whose value is the time (ms).
        char ms[32];
        std::snprintf(ms, sizeof ms, "%.0f", *p.changeAt * 1000.0);
        annotations.push_back({{"datasource", kDatasource},
                               {"enable", true},
                               {"expr", "vector(" + std::string(ms) + ")"},
                               {"iconColor", "blue"},
                               {"name", "FP8 switch"},
                               {"step", "1h"},
                               {"titleFormat", "FP8 switched on"},
                               {"useValueForTime", true}});
    }
    annotations.push_back(
        {{"datasource", kDatasource},
         {"enable", true},
         {"expr", "ALERTS{alertname=\"" + std::string(kMonitoringAlertName) + "\", alertstate=\"firing\"}"},
         {"iconColor", "red"},
         {"name", std::string(kMonitoringAlertName) + " firing"},
         {"step", prometheusDuration(p.step)},
         {"titleFormat", std::string(kMonitoringAlertName) + " firing"}});

    return annotations;
}

// The Prometheus datasource variable and the model_name variable (vLLM's series' label), set to the comparison's model.
Json templatingList(const std::string& model) {
    Json templating = Json::array();
    templating.push_back({{"current", Json::object()},
                          {"hide", 0},
                          {"includeAll", false},
                          {"label", "Prometheus"},
                          {"multi", false},
                          {"name", "datasource"},
                          {"options", Json::array()},
                          {"query", "prometheus"},
                          {"refresh", 1},
                          {"regex", ""},
                          {"type", "datasource"}});
    const std::string modelQuery = "label_values(vllm:generation_tokens_total, model_name)";
    Json modelVar = {{"datasource", kDatasource},
                     {"definition", modelQuery},
                     {"hide", 0},
                     {"includeAll", false},
                     {"label", "model_name"},
                     {"multi", false},
                     {"name", "model_name"},
                     {"options", Json::array()},
                     {"query", {{"query", modelQuery}, {"refId", "PrometheusVariableQueryEditor-VariableQuery"}}},
                     {"refresh", 2},
                     {"regex", ""},
                     {"sort", 1},
                     {"type", "query"}};
    if (!model.empty()) modelVar["current"] = {{"selected", true}, {"text", model}, {"value", model}};
    templating.push_back(modelVar);

    return templating;
}

}  // namespace

std::string dashboardJson(const MonitoringParts& p) {
    const std::string qualityLegend = "judge quality, " + prometheusDuration(p.rule.shortWindowS) + " mean";
    const std::string thresholdLegend = "alert threshold (baseline - " + p.marginText + ")";
    const std::string throughputLegend = "throughput (tokens/s)";

    Json targets = Json::array();
    if (!p.throughputDashboardExpr.empty()) targets.push_back(target("A", p.throughputDashboardExpr, throughputLegend));
    targets.push_back(target("B", p.recentExpr, qualityLegend));
    targets.push_back(target("C", p.thresholdExpr, thresholdLegend));

    Json overrides = Json::array();
    overrides.push_back(
        overrideByName(qualityLegend, Json::array({prop("custom.axisPlacement", "right"), prop("unit", "none"),
                                                   prop("custom.axisLabel", "judge points"), prop("decimals", 2)})));
    overrides.push_back(overrideByName(
        thresholdLegend, Json::array({prop("custom.axisPlacement", "right"), prop("unit", "none"),
                                      prop("custom.lineStyle", {{"dash", Json::array({10, 10})}, {"fill", "dash"}}),
                                      prop("color", {{"fixedColor", "red"}, {"mode", "fixed"}})})));
    if (!p.throughputDashboardExpr.empty())
        overrides.push_back(overrideByName(throughputLegend,
                                           Json::array({prop("unit", "short"), prop("custom.axisLabel", "tokens/s")})));

    Json combined = {{"datasource", kDatasource},
                     {"description",
                      "Decode throughput and the judge's quality on one time axis; the quality alert fires when the "
                      "quality line stays below the threshold line for " +
                          prometheusDuration(p.rule.holdForS) + "."},
                     {"fieldConfig",
                      {{"defaults",
                        {{"color", {{"mode", "palette-classic"}}},
                         {"custom",
                          {{"drawStyle", "line"},
                           {"lineWidth", 1},
                           {"fillOpacity", 0},
                           {"showPoints", "never"},
                           {"spanNulls", false},
                           {"axisPlacement", "auto"}}},
                         {"unit", "short"}}},
                       {"overrides", overrides}}},
                     {"gridPos", gridPos(10, 24, 0, 0)},
                     {"id", 1},
                     {"options",
                      {{"legend", {{"displayMode", "list"}, {"placement", "bottom"}, {"showLegend", true}}},
                       {"tooltip", {{"mode", "multi"}, {"sort", "none"}}}}},
                     {"targets", targets},
                     {"title", "Throughput and judge quality"},
                     {"type", "timeseries"}};

    const std::string alerts = "ALERTS{alertname=\"" + std::string(kMonitoringAlertName) + "\"}";
    Json state = {
        {"datasource", kDatasource},
        {"description", "The state of the alert " + std::string(kMonitoringAlertName) +
                            " (fp8dash-alerts.rules.yml) as Prometheus records it in ALERTS."},
        {"fieldConfig",
         {{"defaults",
           {{"color", {{"mode", "thresholds"}}},
            {"mappings", Json::array({{{"type", "value"}, {"options", {{"1", {{"text", "active"}}}}}}})},
            {"thresholds",
             {{"mode", "absolute"},
              {"steps", Json::array({{{"color", "green"}, {"value", nullptr}}, {{"color", "red"}, {"value", 1}}})}}}}},
          {"overrides", Json::array({overrideByName("pending", Json::array({prop("color", {{"fixedColor", "orange"},
                                                                                           {"mode", "fixed"}})}))})}}},
        {"gridPos", gridPos(5, 24, 0, 10)},
        {"id", 2},
        {"options",
         {{"showValue", "never"},
          {"mergeValues", true},
          {"rowHeight", 0.8},
          {"legend", {{"displayMode", "list"}, {"placement", "bottom"}, {"showLegend", true}}},
          {"tooltip", {{"mode", "single"}, {"sort", "none"}}}}},
        {"targets", Json::array({target("A", "max by (alertstate) (" + alerts + ")", "{{alertstate}}")})},
        {"title", std::string("Quality alert ") + kMonitoringAlertName},
        {"type", "state-timeline"}};

    Json annotations = annotationList(p);
    const std::string model = p.model;
    Json templating = templatingList(model);

    Json d = {{"annotations", {{"list", annotations}}},
              {"description", "fp8dash: the FP8 switch of " + (model.empty() ? std::string("the deployment") : model) +
                                  ", throughput, judge quality and the quality alert (comparison \"" +
                                  oneLine(p.title) + "\")"},
              {"editable", true},
              {"fiscalYearStartMonth", 0},
              {"graphTooltip", 1},
              {"links", Json::array()},
              {"panels", Json::array({combined, state})},
              {"refresh", "1m"},
              {"schemaVersion", 39},
              {"tags", Json::array({"fp8dash", "vllm", "fp8"})},
              {"templating", {{"list", templating}}},
              {"time", {{"from", "now-24h"}, {"to", "now"}}},
              {"timepicker", Json::object()},
              {"timezone", "utc"},
              {"title", "fp8dash FP8 quality watch" + (model.empty() ? std::string() : " — " + oneLine(model))},
              {"uid", dashboardUid(p)},
              {"version", 1}};
    return d.dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
}

}  // namespace fp8dash
