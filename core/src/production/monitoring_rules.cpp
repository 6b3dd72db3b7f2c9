// The rule file and its promtool unit test (monitoring_export.h). Every value is a YAML double-quoted scalar
// (yamlQuoted); comments hold only fp8dash's own words and numbers, escaped the same way.
#include <cmath>
#include <sstream>

#include "fp8dash/core/version.h"
#include "production/monitoring_parts.h"

namespace fp8dash {
namespace {

std::string q(std::string_view text) {
    return yamlQuoted(text);
}

// A comment line's text: on one line, only characters YAML allows raw.
std::string comment(std::string_view text) {
    const std::string quoted = yamlQuoted(text);
    return "# " + quoted.substr(1, quoted.size() - 2) + "\n";
}

std::string semanticsComment(MonitoringTarget target) {
    switch (target) {
        case MonitoringTarget::Prometheus3:
            return "Written for Prometheus 3.x: range selectors select left-open windows (t-r, t].";
        case MonitoringTarget::VictoriaMetrics:
            return "Written for VictoriaMetrics (vmalert): left-open windows (t-r, t], increase() from the last sample "
                   "before the window.";
        case MonitoringTarget::Prometheus2:
            break;
    }
    return "Written for Prometheus 2.x: range selectors select closed windows [t-r, t].";
}

std::string modelWords(const MonitoringParts& p) {
    return p.model.empty() ? std::string("the FP8 deployment") : p.model;
}

}  // namespace

std::vector<std::pair<std::string, std::string>> ruleLabels() {
    return {{"severity", "warning"}};
}

std::vector<std::pair<std::string, std::string>> ruleAnnotations(const MonitoringParts& p) {
    const std::string w = prometheusDuration(p.rule.shortWindowS), l = prometheusDuration(p.rule.longWindowS),
                      o = prometheusDuration(p.rule.offsetS), f = prometheusDuration(p.rule.holdForS);
    std::vector<std::pair<std::string, std::string>> all = {
        {"summary", "Judge quality of " + modelWords(p) + " is more than " + p.marginText +
                        " points below its baseline after the FP8 change"},
        {"description", "The " + w + " mean of " + p.qualitySource + " has stayed more than " + p.marginText +
                            " points below its mean over the " + l + " ending " + o + " earlier for " + f +
                            ". Comparison: \"" + p.title + "\". Expected after FP8: quality within +-" +
                            monitoringNumber(p.bands.qualityTolerance) + " points; a drop of more than " +
                            monitoringNumber(p.bands.qualityProblem) +
                            " points that stays is a real problem (investigate)."},
        {"model", p.model},
        {"comparison", p.title},
        {"threshold", "mean[" + w + "] < mean[" + l + " offset " + o + "] - " + p.marginText + " points, for " + f},
        {"quality_tolerance_points", monitoringNumber(p.bands.qualityTolerance)},
        {"quality_problem_points", monitoringNumber(p.bands.qualityProblem)},
        {"review_decision", p.decision},
    };
    // Prometheus keeps no empty annotation (a comparison without a title or a model).
    std::erase_if(all, [](const auto& kv) { return kv.second.empty(); });
    return all;
}

std::string throughputRecord() {
    return "fp8dash:throughput:tokens_per_second";
}
std::string recentRecord(const MonitoringParts& p) {
    return "fp8dash:quality:mean_" + p.recordSuffix;
}
std::string thresholdRecord(const MonitoringParts&) {
    return "fp8dash:quality:alert_threshold";
}

bool alertFiringAt(const std::vector<AlertEpisode>& alerts, double t) {
    for (const auto& e : alerts)
        if (e.firingAt && *e.firingAt <= t + 1e-9 && (!e.resolvedAt || t < *e.resolvedAt - 1e-9)) return true;
    return false;
}

std::string rulesYaml(const MonitoringParts& p, MonitoringTarget target, const std::string& targetBasis) {
    std::string y;
    y += comment(std::string("fp8dash ") + FP8DASH_VERSION +
                 ": the production timeline's quality alert and recording rules (fp8dash export monitoring).");
    y += comment(semanticsComment(target) + " Target: " + targetBasis + ".");
    y += comment("Check: promtool check rules " + std::string(kMonitoringRulesFile) + "; test: promtool test rules " +
                 kMonitoringTestFile + ".");
    if (p.langfuse) {
        y += comment("Quality from Langfuse, read from the series of `fp8dash exporter`: the counters");
        y += comment(std::string("  ") + kLangfuseScoreSumMetric + " and " + kLangfuseScoreCountMetric +
                     " (labels score_name, and tag / environment as the selection has them),");
        y += comment("so that a window's mean score is increase(sum[w]) / increase(count[w]): both increases are");
        y += comment("extrapolated by the same factor, which cancels, and counter resets are handled.");
        if (target == MonitoringTarget::Prometheus3)
            y += comment(
                "Prometheus 3's left-open windows miss the scrape at t-w: each window is one evaluation "
                "interval longer, so it holds the same scrapes as fp8dash's [t-w, t) minutes.");
    }
    y += "groups:\n";
    y += "  - name: " + q("fp8dash-fp8-quality") + "\n";
    y += "    interval: " + q(prometheusDuration(p.step)) + "\n";
    y += "    rules:\n";
    if (!p.throughputExpr.empty()) {
        y += "      - record: " + q(throughputRecord()) + "\n";
        y += "        expr: " + q(p.throughputExpr) + "\n";
    }
    y += "      - record: " + q(recentRecord(p)) + "\n";
    y += "        expr: " + q(p.recentExpr) + "\n";
    y += "      - record: " + q(thresholdRecord(p)) + "\n";
    y += "        expr: " + q(p.thresholdExpr) + "\n";
    y += "      - alert: " + q(kMonitoringAlertName) + "\n";
    y += "        expr: " + q(p.alertExpr) + "\n";
    y += "        for: " + q(prometheusDuration(p.rule.holdForS)) + "\n";
    y += "        labels:\n";
    for (const auto& [k, v] : ruleLabels()) y += "          " + q(k) + ": " + q(v) + "\n";
    y += "        annotations:\n";
    for (const auto& [k, v] : ruleAnnotations(p)) y += "          " + q(k) + ": " + q(templateLiteral(v)) + "\n";
    return y;
}

std::string testYaml(const MonitoringParts& p, const MonitoringTestData& test, MonitoringTarget target) {
    std::string y;
    const auto rel = [&](double t) { return prometheusDuration(t - test.origin); };
    y += comment(std::string("fp8dash ") + FP8DASH_VERSION + ": a promtool unit test of " + kMonitoringRulesFile +
                 " over the comparison's own timeline data.");
    y += comment("Run: promtool test rules " + std::string(kMonitoringTestFile) + " (beside the rule file).");
    y += comment(semanticsComment(target) + (target == MonitoringTarget::VictoriaMetrics
                                                 ? " Run it with vmalert-tool unittest (promtool's format)."
                                                 : " Run it with promtool of that major version."));
    y += comment("Time 0 is " + formatTimeUtc(test.origin) + "; the series are the timeline's at its step (" +
                 prometheusDuration(test.step) + ").");
    y += comment("It asserts the alert firing exactly where fp8dash's own evaluation of this data says it fires, and");
    y += comment("not firing (pending counts as not firing) everywhere else it checks.");
    for (const auto& n : p.testNotes) y += comment("Note: " + n);
    y += "rule_files:\n";
    y += "  - " + q(kMonitoringRulesFile) + "\n";
    y += "evaluation_interval: " + q(prometheusDuration(test.step)) + "\n";
    y += "tests:\n";
    y += "  - name: " + q("fp8dash quality alert over the comparison's timeline") + "\n";
    y += "    interval: " + q(prometheusDuration(test.step)) + "\n";
    y += "    input_series:\n";
    for (const auto& s : test.inputSeries) {
        std::string selector = s.labels.count("__name__") ? s.labels.at("__name__") : std::string();
        selector += "{";
        bool first = true;
        for (const auto& [k, v] : s.labels) {
            if (k == "__name__") continue;
            selector += (first ? "" : ", ") + k + "=" + promqlQuoted(v);
            first = false;
        }
        selector += "}";
        std::vector<std::optional<double>> values(test.times.size(), std::nullopt);
        for (const auto& sample : s.samples) {
            const auto k = static_cast<long long>(std::llround((sample.t - test.origin) / test.step));
            if (k >= 0 && static_cast<std::size_t>(k) < values.size()) values[static_cast<std::size_t>(k)] = sample.v;
        }
        y += "      - series: " + q(selector) + "\n";
        y += "        values: " + q(promtoolValues(values)) + "\n";
    }
    y += "    alert_rule_test:\n";
    const auto annotations = ruleAnnotations(p);
    for (const double t : test.assertedTimes) {
        y += "      - eval_time: " + q(rel(t)) + "\n";
        y += "        alertname: " + q(kMonitoringAlertName) + "\n";
        if (!alertFiringAt(test.alerts, t)) {
            y += "        exp_alerts: []\n";
            continue;
        }
        y += "        exp_alerts:\n";
        y += "          - exp_labels:\n";
        for (const auto& [k, v] : test.alertLabels) y += "              " + q(k) + ": " + q(v) + "\n";
        y += "            exp_annotations:\n";
        for (const auto& [k, v] : annotations) y += "              " + q(k) + ": " + q(v) + "\n";
    }
    return y;
}

std::string monitoringNumber(double v) {
    std::ostringstream s;
    s.imbue(std::locale::classic());
    s.precision(15);
    s << v;
    return s.str();
}

}  // namespace fp8dash
