#pragma once
// The monitoring export's pieces shared by its files (monitoring_export.cpp, monitoring_rules.cpp,
// monitoring_dashboard.cpp): the expressions and texts the rule file, its test and the dashboard all name.

#include <optional>
#include <string>
#include <vector>

#include "fp8dash/core/monitoring_export.h"
#include "fp8dash/core/timeline.h"

namespace fp8dash {

struct MonitoringParts {
    std::string model;          // "" when the comparison does not name one
    std::string title;          // the comparison's title
    std::string decision;       // the review decision in force with its variant ("" when none): an annotation
    std::string qualitySource;  // in words
    bool langfuse = false;      // quality from the exporter's counters
    AlertRule rule;             // with the target's windows
    double step = 60;
    std::optional<double> changeAt;
    TimelineBands bands;
    std::string throughputExpr;           // "" without a throughput query
    std::string throughputDashboardExpr;  // with model_name="$model_name" where the query takes a pick
    std::string recentExpr;               // the short window's mean
    std::string baselineExpr;             // the long window's mean, offset
    std::string thresholdExpr;            // baseline - margin
    std::string alertExpr;
    std::string marginText;
    std::string recordSuffix;            // "30m"
    std::vector<std::string> testNotes;  // written as comments into the test
};

// A number in the files' texts and messages: 15 significant digits, the C locale (monitoring_rules.cpp).
std::string monitoringNumber(double v);

// The alert's own labels (severity).
std::vector<std::pair<std::string, std::string>> ruleLabels();
// The alert's annotations as Prometheus expands them (the rule file holds them as template literals).
std::vector<std::pair<std::string, std::string>> ruleAnnotations(const MonitoringParts& p);
// The recording rules' names.
std::string throughputRecord();
std::string recentRecord(const MonitoringParts& p);
std::string thresholdRecord(const MonitoringParts& p);

bool alertFiringAt(const std::vector<AlertEpisode>& alerts, double t);

std::string rulesYaml(const MonitoringParts& p, MonitoringTarget target, const std::string& targetBasis);
std::string testYaml(const MonitoringParts& p, const MonitoringTestData& test, MonitoringTarget target);
std::string dashboardJson(const MonitoringParts& p);

}  // namespace fp8dash
