// `fp8dash export monitoring FILE --out DIR` as a user runs it: the three files written, a comparison without a
// production timeline refused (exit 2), files of the same names kept unless --force, the target chosen with
// --prometheus-version, and the rule file accepted by the real promtool where it is installed.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli_runner.h"
#include "fp8dash/core/comparison_file.h"
#include "fp8dash/core/monitoring_export.h"
#include "monitoring_fixture.h"
#include "process.h"
#include "report_test_document.h"
#include "test_paths.h"

namespace fp8dash {
namespace {

namespace fs = std::filesystem;
using test::fp8dashCli;
using test::TempDir;

std::string readFile(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

fs::path saved(const TempDir& dir, const ComparisonDocument& doc, const std::string& name) {
    const auto path = dir.path() / name;
    const Status s = saveComparisonFile(doc, path);
    EXPECT_TRUE(s.ok()) << (s.ok() ? "" : s.error().message);
    return path;
}

const char* const kFiles[] = {kMonitoringRulesFile, kMonitoringTestFile, kMonitoringDashboardFile};

TEST(CliExport, WritesTheThreeFilesTheCoreMakes) {
    TempDir dir;
    const auto doc = test::langfuseQualityDocument(test::MonitoringCase{test::monitoringDataStart(), 3.5, "fire"});
    const auto file = saved(dir, doc, "watch.fp8cmp");
    const auto out = dir.path() / "monitoring";
    auto r = fp8dashCli({"export", "monitoring", file.string(), "--out", out.string(), "--prometheus-version", "2"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    // The files are the core's export of the saved-and-loaded comparison, byte for byte.
    auto loaded = loadComparisonFile(file);
    ASSERT_TRUE(loaded.ok());
    MonitoringExportOptions o;
    o.target = MonitoringTarget::Prometheus2;
    auto e = exportMonitoring(*loaded, o);
    ASSERT_TRUE(e.ok());
    EXPECT_EQ(readFile(out / kMonitoringRulesFile), e->rulesYaml);
    EXPECT_EQ(readFile(out / kMonitoringTestFile), e->testYaml);
    EXPECT_EQ(readFile(out / kMonitoringDashboardFile), e->dashboardJson);
    EXPECT_NE(r.out.find("Prometheus 2.x"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("1 firing episode"), std::string::npos) << r.out;

    const std::string promtool = test::findExecutable("promtool");
    if (promtool.empty()) GTEST_SKIP() << "promtool is not installed: the files were not checked by it";
    auto check = test::runProcess({promtool, "check", "rules", (out / kMonitoringRulesFile).string()});
    EXPECT_EQ(check.exitCode, 0) << check.out << check.err;
}

TEST(CliExport, WithoutAProductionTimelineNothingIsWritten) {
    TempDir dir;
    ComparisonDocument doc = test::reportTestDocument();  // evals, judge, notes: everything but a timeline
    doc.timeline.reset();
    const auto file = saved(dir, doc, "empty.fp8cmp");
    const auto out = dir.path() / "monitoring";
    auto r = fp8dashCli({"export", "monitoring", file.string(), "--out", out.string()});
    EXPECT_EQ(r.exitCode, 2) << r.out << r.err;
    EXPECT_NE(r.err.find("no production timeline"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find(file.string()), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(out));
}

TEST(CliExport, ExistingFilesAreKeptUnlessForced) {
    TempDir dir;
    const auto doc = test::prometheusQualityDocument(test::MonitoringCase{test::monitoringDataStart(), 3.9, "calm"});
    const auto file = saved(dir, doc, "watch.fp8cmp");
    const auto out = dir.path() / "monitoring";
    fs::create_directories(out);
    std::ofstream(out / kMonitoringRulesFile) << "mine: rules\n";
    std::ofstream(out / kMonitoringDashboardFile) << "{\"mine\": true}\n";
    auto refused = fp8dashCli({"export", "monitoring", file.string(), "--out", out.string()});
    EXPECT_EQ(refused.exitCode, 2);
    EXPECT_NE(refused.err.find(kMonitoringRulesFile), std::string::npos) << refused.err;
    EXPECT_NE(refused.err.find(kMonitoringDashboardFile), std::string::npos) << refused.err;
    EXPECT_NE(refused.err.find("--force"), std::string::npos) << refused.err;
    EXPECT_EQ(readFile(out / kMonitoringRulesFile), "mine: rules\n");
    EXPECT_EQ(readFile(out / kMonitoringDashboardFile), "{\"mine\": true}\n");
    EXPECT_FALSE(fs::exists(out / kMonitoringTestFile));  // nothing at all was written

    auto forced = fp8dashCli({"export", "monitoring", file.string(), "--out", out.string(), "--force"});
    ASSERT_EQ(forced.exitCode, 0) << forced.err;
    for (const char* f : kFiles) EXPECT_TRUE(fs::exists(out / f)) << f;
    EXPECT_NE(readFile(out / kMonitoringRulesFile).find("groups:"), std::string::npos);
    EXPECT_TRUE(nlohmann::json::accept(readFile(out / kMonitoringDashboardFile)));
    // The target: what the timeline recorded (Prometheus 2 in the fixture).
    EXPECT_NE(forced.out.find("Prometheus 2.x"), std::string::npos) << forced.out;
}

TEST(CliExport, BadArgumentsAreUsageErrors) {
    TempDir dir;
    const auto doc = test::prometheusQualityDocument(test::MonitoringCase{test::monitoringDataStart(), 3.9, "calm"});
    const auto file = saved(dir, doc, "watch.fp8cmp");
    const auto out = (dir.path() / "m").string();
    const std::vector<std::vector<std::string>> bad = {
        {"export"},
        {"export", "alerts", file.string(), "--out", out},
        {"export", "monitoring", file.string()},
        {"export", "monitoring", "--out", out},
        {"export", "monitoring", file.string(), "--out", out, "--prometheus-version", "4"},
        {"export", "monitoring", file.string(), "--out", out, "--prometheus-version", "2", "--victoriametrics"},
        {"export", "monitoring", (dir.path() / "missing.fp8cmp").string(), "--out", out},
    };
    for (const auto& args : bad) {
        auto r = fp8dashCli(args);
        EXPECT_EQ(r.exitCode, 2) << args.size() << ": " << r.err;
        EXPECT_FALSE(r.err.empty());
    }
    EXPECT_FALSE(fs::exists(out));
    std::ofstream(dir.path() / "a-file") << "x";
    auto notAFolder = fp8dashCli({"export", "monitoring", file.string(), "--out", (dir.path() / "a-file").string()});
    EXPECT_EQ(notAFolder.exitCode, 2);
    EXPECT_NE(notAFolder.err.find("is not a folder"), std::string::npos) << notAFolder.err;
    auto help = fp8dashCli({"--help"});
    EXPECT_NE(help.out.find("fp8dash export monitoring FILE.fp8cmp --out DIR"), std::string::npos);
}

}  // namespace
}  // namespace fp8dash
