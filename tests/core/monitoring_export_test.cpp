// The monitoring export (monitoring_export.h): its texts, the Grafana dashboard, and the rule file and unit test run
// through the real promtool (Debian's prometheus package; skipped with a message where it is absent).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <random>

#include "fp8dash/core/monitoring_export.h"
#include "hostile_strings.h"
#include "monitoring_fixture.h"
#include "process.h"

namespace fp8dash {
namespace {

namespace fs = std::filesystem;
using test::kMonDipAt;
using test::MonitoringCase;

// promtool's expanding notation, re-implemented from its documentation (unit_testing_rules.md): "a+bxn" is n+1
// samples a, a+b, ... (b added each time), "axn" n+1 copies, "_" a gap, "_xn" n gaps.
std::vector<std::optional<double>> expandValues(const std::string& text) {
    std::vector<std::optional<double>> out;
    std::istringstream in(text);
    std::string item;
    while (in >> item) {
        const auto x = item.find('x');
        if (item[0] == '_') {
            const std::size_t n = x == std::string::npos ? 1 : std::stoul(item.substr(x + 1));
            out.insert(out.end(), n, std::nullopt);
            continue;
        }
        if (x == std::string::npos || item == "NaN") {
            out.push_back(std::stod(item));
            continue;
        }
        const std::string head = item.substr(0, x);
        const auto n = std::stoul(item.substr(x + 1));
        // The sign that starts the increment: the first + or - after the first character.
        const auto sign = head.find_first_of("+-", 1);
        double a = std::stod(head.substr(0, sign)), b = sign == std::string::npos ? 0 : std::stod(head.substr(sign));
        for (std::size_t i = 0; i <= n; ++i, a += b) out.push_back(a);
    }
    return out;
}

struct Written {
    fs::path dir;
    ~Written() {
        std::error_code ec;
        fs::remove_all(dir, ec);
    }
};

std::unique_ptr<Written> writeExport(const MonitoringExport& e, const std::string& name) {
    auto w = std::make_unique<Written>();
    w->dir = fs::temp_directory_path() / ("fp8dash-monitoring-" + name + "-" + std::to_string(::getpid()));
    fs::create_directories(w->dir);
    std::ofstream(w->dir / kMonitoringRulesFile) << e.rulesYaml;
    std::ofstream(w->dir / kMonitoringTestFile) << e.testYaml;
    return w;
}

std::string promtool() {
    return test::findExecutable("promtool");
}

test::ProcessResult runPromtool(const std::vector<std::string>& args) {
    std::vector<std::string> argv{promtool()};
    argv.insert(argv.end(), args.begin(), args.end());
    return test::runProcess(argv, {}, 300);
}

MonitoringExport exported(const ComparisonDocument& doc, std::optional<MonitoringTarget> target) {
    MonitoringExportOptions o;
    o.target = target;
    auto e = exportMonitoring(doc, o);
    EXPECT_TRUE(e.ok()) << (e ? "" : e.error().message);
    return e ? std::move(e).value() : MonitoringExport{};
}

// The firing episodes within the timeline's range, relative to the data's start in minutes.
struct Minutes {
    double pending, firing, resolved;
};
void expectEpisodes(const MonitoringExport& e, double start, std::vector<Minutes> want) {
    std::vector<AlertEpisode> got;
    for (const auto& a : e.test.alerts)
        if (a.firingAt) got.push_back(a);
    ASSERT_EQ(got.size(), want.size());
    for (std::size_t i = 0; i < want.size(); ++i) {
        EXPECT_EQ(got[i].pendingAt, start + want[i].pending * 60) << i;
        EXPECT_EQ(got[i].firingAt, std::optional<double>(start + want[i].firing * 60)) << i;
        EXPECT_EQ(got[i].resolvedAt, std::optional<double>(start + want[i].resolved * 60)) << i;
    }
}

const double kDipMin = kMonDipAt / 60;

// --- texts ---------------------------------------------------------------------------------------------------------

TEST(MonitoringText, PromtoolValuesExpandBackToEverySample) {
    std::mt19937 rng(28);
    std::vector<std::optional<double>> values;
    for (int i = 0; i < 3000; ++i) {
        const int kind = static_cast<int>(rng() % 6);
        if (kind == 0)
            values.push_back(std::nullopt);
        else if (kind == 1 && !values.empty() && values.back())
            values.push_back(*values.back());
        else if (kind == 2 && !values.empty() && values.back())
            values.push_back(*values.back() + 2);
        else if (kind == 3)
            values.push_back(std::ldexp(static_cast<double>(rng() % 1000), -3) - 60);
        else
            values.push_back(4.0 + static_cast<double>(rng() % 100) / 30.0);  // not exact in binary
    }
    const std::string text = promtoolValues(values);
    const auto back = expandValues(text);
    ASSERT_EQ(back.size(), values.size());
    for (std::size_t i = 0; i < values.size(); ++i) {
        ASSERT_EQ(back[i].has_value(), values[i].has_value()) << i;
        if (values[i]) {
            ASSERT_EQ(*back[i], *values[i]) << i << " in " << text.substr(0, 200);
        }
    }
    // Runs are written compactly: a counter that grows by 2 a step for 100 steps is one item.
    std::vector<std::optional<double>> counter;
    for (int i = 0; i <= 100; ++i) counter.push_back(1000.0 + 2 * i);
    EXPECT_EQ(promtoolValues(counter), "1000+2x100");
    EXPECT_EQ(promtoolValues({std::nullopt, std::nullopt, std::nullopt, 1.5}), "_x3 1.5");
}

TEST(MonitoringText, DurationsAndTemplates) {
    EXPECT_EQ(prometheusDuration(26 * 3600 + 3 * 60 + 4), "1d2h3m4s");
    EXPECT_EQ(prometheusDuration(31 * 60), "31m");
    // Go templates: "{{" opens an action, so a literal one becomes an action that prints it.
    EXPECT_EQ(templateLiteral("a {{ $value }} b"), "a {{`{{`}} $value }} b");
    EXPECT_EQ(yamlQuoted("a\"b\\c\nd\x7f"), "\"a\\\"b\\\\c\\nd\\u007F\"");
    EXPECT_EQ(promqlQuoted("x\"y\\\n\x01"), "\"x\\\"y\\\\\\n\\x01\"");
}

// --- errors ----------------------------------------------------------------------------------------------------------

TEST(MonitoringExport, NothingToExportWithoutATimelineOrAQualitySeries) {
    ComparisonDocument doc;
    doc.hasEvals = false;
    auto none = exportMonitoring(doc);
    ASSERT_FALSE(none.ok());
    EXPECT_NE(none.error().message.find("no production timeline"), std::string::npos) << none.error().message;

    MonitoringCase c{test::monitoringDataStart(), 3.55, "a"};
    auto d = test::prometheusQualityDocument(c);
    d.timeline->settings.qualitySource = QualitySource::None;
    d.timeline->quality.reset();
    auto noQuality = exportMonitoring(d);
    ASSERT_FALSE(noQuality.ok());
    EXPECT_NE(noQuality.error().message.find("quality_source is \"none\""), std::string::npos)
        << noQuality.error().message;
}

// Windows a rule file cannot write, and Langfuse minutes a step cannot hold: refused, naming the field.
TEST(MonitoringExport, RulesItCannotExpressAreRefusedNamingTheField) {
    MonitoringCase c{test::monitoringDataStart(), 3.55, "a"};
    auto halfSecond = test::prometheusQualityDocument(c);
    halfSecond.timeline->settings.rule.shortWindowS = 1800.5;
    auto e = exportMonitoring(halfSecond);
    ASSERT_FALSE(e.ok());
    EXPECT_NE(e.error().message.find("timeline.settings.rule.short_window_s"), std::string::npos) << e.error().message;
    auto oddStep = test::langfuseQualityDocument(c);
    oddStep.timeline->settings.step = 90;
    e = exportMonitoring(oddStep);
    ASSERT_FALSE(e.ok());
    EXPECT_NE(e.error().message.find("whole minutes"), std::string::npos) << e.error().message;
}

TEST(MonitoringExport, NegativeScoresCannotBeCounters) {
    MonitoringCase c{test::monitoringDataStart(), -1.0, "neg"};
    auto e = exportMonitoring(test::langfuseQualityDocument(c));
    ASSERT_FALSE(e.ok());
    EXPECT_NE(e.error().message.find("below zero"), std::string::npos) << e.error().message;
}

TEST(MonitoringExport, TargetDefaultsToWhatTheTimelineRecordedElsePrometheus3) {
    MonitoringCase c{test::monitoringDataStart(), 3.55, "a", WindowSemantics::Prometheus2};
    auto doc = test::prometheusQualityDocument(c);
    EXPECT_EQ(exported(doc, std::nullopt).target, MonitoringTarget::Prometheus2);
    EXPECT_EQ(exported(doc, MonitoringTarget::Prometheus3).target, MonitoringTarget::Prometheus3);
    doc.timeline->windowSemanticsBasis.clear();  // a file from before the semantics were recorded
    const auto e = exported(doc, std::nullopt);
    EXPECT_EQ(e.target, MonitoringTarget::Prometheus3);
    EXPECT_NE(e.rulesYaml.find("Prometheus 3.x"), std::string::npos);
    EXPECT_NE(e.testYaml.find("left-open"), std::string::npos);
    doc.timeline->server = "VictoriaMetrics";  // what the timeline's fetch recorded
    EXPECT_EQ(exported(doc, std::nullopt).target, MonitoringTarget::VictoriaMetrics);
}

// --- the alert fires where the data says, by hand --------------------------------------------------------------------

// Prometheus' own series: 2.x windows of 30 m hold 31 samples; 14 dip samples (3.55) bring the mean under 3.8
// (117.7 / 31 = 3.797; 13 give 3.811), 13 minutes into the dip; firing 15 minutes later; after the hour, the
// window keeps 14 dip samples until 76 minutes in. 3.x windows hold 30 samples: the same start, resolved a minute
// earlier (89 - x >= 14).
TEST(MonitoringExport, PrometheusQualityEpisodesByHand) {
    MonitoringCase c{test::monitoringDataStart(), 3.55, "a"};
    const auto doc = test::prometheusQualityDocument(c);
    expectEpisodes(exported(doc, MonitoringTarget::Prometheus2), c.start, {{kDipMin + 13, kDipMin + 28, kDipMin + 77}});
    expectEpisodes(exported(doc, MonitoringTarget::Prometheus3), c.start, {{kDipMin + 13, kDipMin + 28, kDipMin + 76}});
    c.dipValue = 3.9;
    expectEpisodes(exported(test::prometheusQualityDocument(c), MonitoringTarget::Prometheus2), c.start, {});
}

// Langfuse minutes: a 30-minute window holds 30 buckets of 2 scores; 13 dip minutes (3.5) give 3.783 < 3.8, 12 give
// exactly 3.8, which is not below 4.0 - 0.2 (both 3.8 in binary): pending 13 minutes in, resolved when 12 dip minutes
// are left in the window (90 - x = 12).
TEST(MonitoringExport, LangfuseQualityEpisodesByHand) {
    MonitoringCase c{test::monitoringDataStart(), 3.5, "a"};
    const auto doc = test::langfuseQualityDocument(c);
    for (auto target : {MonitoringTarget::Prometheus2, MonitoringTarget::Prometheus3})
        expectEpisodes(exported(doc, target), c.start, {{kDipMin + 13, kDipMin + 28, kDipMin + 78}});
    const auto e = exported(doc, MonitoringTarget::Prometheus2);
    EXPECT_NE(e.alertExpression.find("increase(fp8dash_langfuse_score_sum{score_name=\"judge_a\",tag=\"precision:fp8\"}"
                                     "[30m])"),
              std::string::npos)
        << e.alertExpression;
    // Prometheus 3's left-open windows are one step longer, to hold the scrape at t - w; VictoriaMetrics' increase()
    // starts from the sample before the window, so [w] holds the same minutes there.
    EXPECT_NE(exported(doc, MonitoringTarget::Prometheus3).alertExpression.find("[1d1m] offset 2h"), std::string::npos);
    const auto vm = exported(doc, MonitoringTarget::VictoriaMetrics);
    EXPECT_NE(vm.alertExpression.find("[1d] offset 2h"), std::string::npos);
    expectEpisodes(vm, c.start, {{kDipMin + 13, kDipMin + 28, kDipMin + 78}});
}

// --- Grafana ---------------------------------------------------------------------------------------------------------

TEST(MonitoringDashboard, PanelsVariablesAndAnnotationsNameTheRulesSeries) {
    MonitoringCase c{test::monitoringDataStart(), 3.55, "a"};
    const auto doc = test::prometheusQualityDocument(c);
    const auto e = exported(doc, MonitoringTarget::Prometheus2);
    const auto d = nlohmann::json::parse(e.dashboardJson);
    EXPECT_EQ(d["schemaVersion"], 39);
    const auto& vars = d["templating"]["list"];
    ASSERT_EQ(vars.size(), 2u);
    EXPECT_EQ(vars[0]["name"], "datasource");
    EXPECT_EQ(vars[0]["type"], "datasource");
    EXPECT_EQ(vars[0]["query"], "prometheus");
    EXPECT_EQ(vars[1]["name"], "model_name");
    EXPECT_EQ(vars[1]["current"]["value"], "llama-3.1-8b-fp8");  // the timeline's pick

    // Every query goes to the chosen datasource.
    std::vector<std::string> exprs;
    for (const auto& p : d["panels"]) {
        EXPECT_EQ(p["datasource"]["uid"], "${datasource}");
        for (const auto& t : p["targets"]) {
            EXPECT_EQ(t["datasource"]["uid"], "${datasource}");
            exprs.push_back(t["expr"]);
        }
    }
    const auto& combined = d["panels"][0];
    EXPECT_EQ(combined["type"], "timeseries");
    ASSERT_EQ(combined["targets"].size(), 3u);
    EXPECT_EQ(combined["targets"][0]["expr"],
              "sum(rate(vllm:generation_tokens_total{model_name=\"$model_name\"}[5m]))");
    // Quality and its threshold: the rule file's own expressions, so the line is the alert's threshold.
    const std::string recent = combined["targets"][1]["expr"], threshold = combined["targets"][2]["expr"];
    EXPECT_EQ(threshold, e.thresholdExpression);
    EXPECT_EQ("(" + recent + ") < (" + threshold + ")", e.alertExpression);
    EXPECT_NE(e.rulesYaml.find(nlohmann::json(threshold).dump()), std::string::npos);
    EXPECT_NE(threshold.find("- 0.2"), std::string::npos);
    bool thresholdOnRight = false;
    for (const auto& o : combined["fieldConfig"]["overrides"])
        if (o["matcher"]["options"] == combined["targets"][2]["legendFormat"])
            for (const auto& prop : o["properties"]) thresholdOnRight |= prop["value"] == "right";
    EXPECT_TRUE(thresholdOnRight);

    const auto& state = d["panels"][1];
    EXPECT_EQ(state["type"], "state-timeline");
    EXPECT_NE(state["targets"][0]["expr"].get<std::string>().find(std::string("ALERTS{alertname=\"") +
                                                                  kMonitoringAlertName + "\"}"),
              std::string::npos);
    EXPECT_NE(e.rulesYaml.find(std::string("alert: \"") + kMonitoringAlertName + "\""), std::string::npos);

    // The switch at the timeline's change time (ms), and the firing alert as a region.
    bool sawSwitch = false, sawRegion = false;
    for (const auto& a : d["annotations"]["list"]) {
        if (a.value("useValueForTime", false)) {
            EXPECT_EQ(
                a["expr"],
                "vector(" + std::to_string(static_cast<long long>(*doc.timeline->settings.changeAt) * 1000) + ")");
            sawSwitch = true;
        }
        if (a.value("expr", "").find("alertstate=\"firing\"") != std::string::npos) sawRegion = true;
    }
    EXPECT_TRUE(sawSwitch);
    EXPECT_TRUE(sawRegion);
}

// --- promtool --------------------------------------------------------------------------------------------------------

class MonitoringPromtool : public ::testing::Test {
protected:
    void SetUp() override {
        if (promtool().empty()) GTEST_SKIP() << "promtool is not installed (Debian: apt install prometheus)";
    }
    // check rules and test rules both pass; returns the test's output.
    static void expectPasses(const MonitoringExport& e, const std::string& name) {
        auto w = writeExport(e, name);
        const auto check = runPromtool({"check", "rules", (w->dir / kMonitoringRulesFile).string()});
        EXPECT_EQ(check.exitCode, 0) << check.out << check.err;
        EXPECT_NE(check.out.find("SUCCESS"), std::string::npos) << check.out;
        const auto unit = runPromtool({"test", "rules", (w->dir / kMonitoringTestFile).string()});
        EXPECT_EQ(unit.exitCode, 0) << unit.out.substr(0, 4000) << unit.err.substr(0, 4000);
    }
    static test::ProcessResult testWithRules(const MonitoringExport& e, const std::string& rules,
                                             const std::string& name) {
        MonitoringExport changed = e;
        changed.rulesYaml = rules;
        auto w = writeExport(changed, name);
        return runPromtool({"test", "rules", (w->dir / kMonitoringTestFile).string()});
    }
};

TEST_F(MonitoringPromtool, PrometheusQualityFiringAndQuiet) {
    MonitoringCase c{test::monitoringDataStart(), 3.55, "fire"};
    const auto firing = exported(test::prometheusQualityDocument(c), MonitoringTarget::Prometheus2);
    EXPECT_NE(firing.testYaml.find("exp_labels"), std::string::npos);               // asserts firing somewhere
    EXPECT_NE(firing.testYaml.find("values: \"4+0x59 _ 4+0x"), std::string::npos);  // the gap at 1 h, compactly
    expectPasses(firing, "prom-fire");
    c.dipValue = 3.9;
    c.tag = "calm";
    const auto quiet = exported(test::prometheusQualityDocument(c), MonitoringTarget::Prometheus2);
    EXPECT_EQ(quiet.testYaml.find("exp_labels"), std::string::npos);
    expectPasses(quiet, "prom-quiet");
}

TEST_F(MonitoringPromtool, LangfuseCountersFiringAndQuiet) {
    MonitoringCase c{test::monitoringDataStart(), 3.5, "fire"};
    const auto firing = exported(test::langfuseQualityDocument(c), MonitoringTarget::Prometheus2);
    EXPECT_NE(firing.testYaml.find("exp_labels"), std::string::npos);
    expectPasses(firing, "lf-fire");
    c.dipValue = 3.9;
    const auto quiet = exported(test::langfuseQualityDocument(c), MonitoringTarget::Prometheus2);
    EXPECT_EQ(quiet.testYaml.find("exp_labels"), std::string::npos);
    expectPasses(quiet, "lf-quiet");
}

// A long timeline is asserted at an even sample of its times and around every transition; the test still passes.
TEST_F(MonitoringPromtool, LongTimelinesAssertASampleAndEveryTransition) {
    MonitoringCase c{test::monitoringDataStart(), 3.55, "fire"};
    MonitoringExportOptions o;
    o.target = MonitoringTarget::Prometheus2;
    o.maxAssertions = 40;
    auto e = exportMonitoring(test::prometheusQualityDocument(c), o);
    ASSERT_TRUE(e.ok());
    const auto& asserted = e->test.assertedTimes;
    ASSERT_EQ(e->test.alerts.size(), 1u);
    const auto& ep = e->test.alerts[0];
    EXPECT_LE(asserted.size(), 40u + 9u + 1u);
    for (const double t : {ep.pendingAt, *ep.firingAt - 60, *ep.firingAt, *ep.resolvedAt - 60, *ep.resolvedAt})
        EXPECT_TRUE(std::find(asserted.begin(), asserted.end(), t) != asserted.end()) << t - c.start;
    EXPECT_TRUE(std::is_sorted(asserted.begin(), asserted.end()));
    expectPasses(*e, "sampled");
}

// The bundled demo: Langfuse scores read one by one (decimal judge points, every two minutes), counted by minute as
// the exporter serves them. The test passes, and it expects what the comparison recorded (no note).
TEST_F(MonitoringPromtool, TheBundledDemoExportsAndPasses) {
    auto doc = loadComparisonFile(std::string(FP8DASH_SOURCE_DIR) + "/resources/demo/llama3-8b-instruct-fp8.fp8cmp");
    ASSERT_TRUE(doc.ok()) << doc.error().message;
    ASSERT_TRUE(doc->timeline && doc->timeline->settings.qualitySource == QualitySource::Langfuse);
    const auto e = exported(*doc, MonitoringTarget::Prometheus2);
    EXPECT_TRUE(e.notes.empty()) << e.notes.front();
    expectPasses(e, "demo");
}

// Every target's rule file is one promtool reads (the windows differ, the format does not).
TEST_F(MonitoringPromtool, EveryTargetsRulesPassCheckRules) {
    MonitoringCase c{test::monitoringDataStart(), 3.5, "fire"};
    for (const auto& doc : {test::langfuseQualityDocument(c), test::prometheusQualityDocument(c)})
        for (auto target :
             {MonitoringTarget::Prometheus2, MonitoringTarget::Prometheus3, MonitoringTarget::VictoriaMetrics}) {
            auto w = writeExport(exported(doc, target), "targets");
            const auto check = runPromtool({"check", "rules", (w->dir / kMonitoringRulesFile).string()});
            EXPECT_EQ(check.exitCode, 0) << monitoringTargetTitle(target) << check.out << check.err;
        }
}

// The unit test is no formality: the same test fails against a rule that fires at once (no `for`) or at another
// threshold.
TEST_F(MonitoringPromtool, TheTestFailsAgainstAnotherRule) {
    MonitoringCase c{test::monitoringDataStart(), 3.55, "fire"};
    const auto e = exported(test::prometheusQualityDocument(c), MonitoringTarget::Prometheus2);
    std::string noHold = e.rulesYaml;
    const auto f = noHold.find("for: \"15m\"");
    ASSERT_NE(f, std::string::npos);
    noHold.replace(f, 10, "for: \"0s\"");
    EXPECT_NE(testWithRules(e, noHold, "nohold").exitCode, 0);
    std::string otherMargin = e.rulesYaml;
    const std::string margin = " - 0.2)\"";
    const auto m = otherMargin.rfind(margin);
    ASSERT_NE(m, std::string::npos);
    otherMargin.replace(m, margin.size(), " - 0.25)\"");
    EXPECT_NE(testWithRules(e, otherMargin, "margin").exitCode, 0);
}

// Hostile titles and model names reach the annotations exactly (promtool compares the expanded annotations with the
// test's), and neither file breaks.
TEST_F(MonitoringPromtool, HostileTitleAndModelRoundTrip) {
    const std::string title = std::string("{{ query \"up\" }} \"quoted\"\n# not a comment: x\x7f\x01 ") +
                              test::verdictRewriteSequence() + test::markdownTakeover() + test::htmlVerdict() +
                              " \xff\xfe";
    MonitoringCase c{test::monitoringDataStart(), 3.55, "fire"};
    auto doc = test::prometheusQualityDocument(c, title);
    doc.timeline->settings.seriesPick = std::string("model_name=") + "\"m\\\"{{x}}\"";
    const auto e = exported(doc, MonitoringTarget::Prometheus2);
    EXPECT_EQ(e.rulesYaml.find("{{ query"), std::string::npos);
    expectPasses(e, "hostile");
    EXPECT_TRUE(nlohmann::json::accept(e.dashboardJson));
}

}  // namespace
}  // namespace fp8dash
