// The exported alert evaluated by a real Prometheus 2.42 (Debian's; skipped with a message where it is absent): the
// unit test's own input series backfilled, the alert's expression queried at every evaluation time, the rule's
// `for` applied, and the firing minutes equal to fp8dash's own evaluation's, for a timeline that fires and one
// that does not, with quality in Prometheus and from Langfuse (fp8dash exporter's counters).
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <sstream>

#include "fp8dash/core/monitoring_export.h"
#include "fp8dash/core/prometheus_client.h"
#include "monitoring_fixture.h"
#include "process.h"
#include "prometheus_server.h"
#include "test_paths.h"
#include "victoria_metrics_server.h"

namespace fp8dash {
namespace {

using test::MonitoringCase;

struct Case {
    std::string name;
    MonitoringExport exported;
    bool fires = false;
};

std::vector<Case> cases(double start, MonitoringTarget target) {
    std::vector<Case> out;
    const auto add = [&](const std::string& name, const ComparisonDocument& doc, bool fires) {
        MonitoringExportOptions o;
        o.target = target;  // the server's own
        auto e = exportMonitoring(doc, o);
        if (!e) throw std::runtime_error(name + ": " + e.error().message);
        out.push_back({name, std::move(e).value(), fires});
    };
    add("prometheus-fire", test::prometheusQualityDocument(MonitoringCase{start, 3.55, "fire"}), true);
    add("prometheus-calm", test::prometheusQualityDocument(MonitoringCase{start, 3.9, "calm"}), false);
    add("langfuse-fire", test::langfuseQualityDocument(MonitoringCase{start, 3.5, "fire"}), true);
    add("langfuse-calm", test::langfuseQualityDocument(MonitoringCase{start, 3.9, "calm"}), false);
    return out;
}

// OpenMetrics for the backfill: each metric family's series together, in time order.
std::string openMetrics(const std::vector<Case>& all) {
    std::map<std::string, std::vector<const Series*>> families;
    for (const auto& c : all)
        for (const auto& s : c.exported.test.inputSeries) families[s.labels.at("__name__")].push_back(&s);
    std::ostringstream om;
    for (const auto& [name, series] : families) {
        om << "# TYPE " << name << " gauge\n";
        for (const Series* s : series) {
            std::string labels;
            for (const auto& [k, v] : s->labels)
                if (k != "__name__") labels += (labels.empty() ? "" : ",") + k + "=" + promqlQuoted(v);
            for (const auto& p : s->samples)
                om << name << '{' << labels << "} " << test::openMetricsNumber(p.v) << ' '
                   << test::openMetricsNumber(p.t) << '\n';
        }
    }
    om << "# EOF\n";
    return om.str();
}

// The expression at each evaluation time (the comparison filters, so a sample exists where it holds), the rule's
// `for` applied: the same condition and episodes as fp8dash's own evaluation of the test's data.
void expectFiresAsFp8dash(const PrometheusClient& client, const std::vector<Case>& all) {
    for (const auto& c : all) {
        SCOPED_TRACE(c.name);
        const auto& t = c.exported.test;
        ASSERT_FALSE(t.times.empty());
        // The expression at each evaluation time: the comparison filters, so a sample exists where it holds.
        auto r = client.queryRange(c.exported.alertExpression, t.times.front(), t.times.back(), t.step);
        ASSERT_TRUE(r.ok()) << r.error().message;
        std::vector<bool> byPrometheus(t.times.size(), false);
        for (const auto& s : r->series)
            for (const auto& p : s.samples) {
                const auto i = static_cast<std::size_t>(std::llround((p.t - t.times.front()) / t.step));
                ASSERT_LT(i, t.times.size());
                byPrometheus[i] = true;
            }
        EXPECT_EQ(byPrometheus, t.condition);
        const auto episodes = alertEpisodes(t.times, byPrometheus, 15 * 60);
        EXPECT_EQ(episodes, t.alerts);
        bool fired = false;
        for (const auto& e : episodes) fired |= e.firingAt.has_value();
        EXPECT_EQ(fired, c.fires);
    }
}

TEST(MonitoringLive, PrometheusFiresTheExportedAlertWhereFp8dashDoes) {
    if (auto why = test::PrometheusServer::unavailableReason(); !why.empty()) GTEST_SKIP() << why;
    const auto all = cases(test::monitoringDataStart(), MonitoringTarget::Prometheus2);
    test::PrometheusServerOptions options;
    options.openMetrics = openMetrics(all);
    options.maxBlockDuration = "24h";
    test::PrometheusServer server(options);
    ASSERT_TRUE(server.ok()) << server.error();
    PrometheusSettings settings;
    settings.baseUrl = server.baseUrl();
    const PrometheusClient client(settings);

    expectFiresAsFp8dash(client, all);
}

}  // namespace
}  // namespace fp8dash

namespace fp8dash {
namespace {

// VictoriaMetrics (Debian's victoria-metrics, as the timeline's backend tests run it) over the same data, with the
// rules written for it: its left-open windows, and increase() from the sample before the window. vmalert, where
// installed, accepts the rule file.
TEST(MonitoringLive, VictoriaMetricsFiresTheExportedAlertWhereFp8dashDoes) {
    if (auto why = test::VictoriaMetricsServer::unavailableReason(); !why.empty()) GTEST_SKIP() << why;
    const auto all = cases(test::monitoringDataStart(), MonitoringTarget::VictoriaMetrics);
    std::ostringstream text;
    for (const auto& c : all)
        for (const auto& s : c.exported.test.inputSeries) {
            std::string labels;
            for (const auto& [k, v] : s.labels)
                if (k != "__name__") labels += (labels.empty() ? "" : ",") + k + "=" + promqlQuoted(v);
            for (const auto& p : s.samples)
                text << s.labels.at("__name__") << '{' << labels << "} " << test::openMetricsNumber(p.v) << ' '
                     << std::llround(p.t * 1000) << '\n';
        }
    test::VictoriaMetricsServerOptions options;
    options.prometheusText = text.str();
    test::VictoriaMetricsServer vm(options);
    ASSERT_TRUE(vm.ok()) << vm.error();
    PrometheusSettings settings;
    settings.baseUrl = vm.baseUrl();
    settings.backend = PrometheusBackend::VictoriaMetrics;
    expectFiresAsFp8dash(PrometheusClient(settings), all);

    const std::string vmalert = test::findExecutable("vmalert");
    if (vmalert.empty()) return;
    test::TempDir dir;
    for (const auto& c : all) {
        const auto path = dir.path() / (c.name + ".rules.yml");
        std::ofstream(path) << c.exported.rulesYaml;
        const auto r = test::runProcess({vmalert, "-dryRun", "-rule=" + path.string()});
        EXPECT_EQ(r.exitCode, 0) << c.name << ": " << r.out << r.err;
    }
}

}  // namespace
}  // namespace fp8dash
