#include "cli_export.h"

#include <filesystem>
#include <ostream>
#include <system_error>

#include "cli.h"
#include "cli_args.h"
#include "cli_common.h"
#include "fp8dash/core/comparison_file.h"
#include "fp8dash/core/monitoring_export.h"
#include "fp8dash/core/untrusted_text.h"

namespace fp8dash::cli {

std::string exportUsage() {
    return "  fp8dash export monitoring FILE.fp8cmp --out DIR [--force] [--prometheus-version 2|3 | "
           "--victoriametrics]\n"
           "                                 the comparison's quality alert for the team's own monitoring, written\n"
           "                                 into DIR: fp8dash-alerts.rules.yml (the alert and recording rules;\n"
           "                                 promtool check rules), fp8dash-alerts.test.yml (a promtool test rules\n"
           "                                 unit test over the timeline's own data, asserting the alert where\n"
           "                                 fp8dash says it fires) and grafana-dashboard.json (Grafana 10-12)\n"
           "      --prometheus-version 2|3   the Prometheus the rules are for: 2.x closed windows, 3.x left-open\n"
           "                                 (default: what the comparison's timeline recorded, else 3)\n"
           "      --victoriametrics          for VictoriaMetrics' vmalert instead (left-open windows; increase()\n"
           "                                 from the sample before the window); the default where the timeline\n"
           "                                 came from VictoriaMetrics\n"
           "      --force                    replace those files where DIR already has them\n";
}

int runExport(const std::vector<std::string>& argv, std::ostream& out, std::ostream& err) {
    namespace fs = std::filesystem;
    if (argv.empty() || argv[0] != "monitoring")
        throw UsageError{argv.empty() ? "export needs what to export: export monitoring FILE.fp8cmp --out DIR"
                                      : "export: unknown kind \"" + argv[0] + "\" (expected monitoring)"};
    Args a(std::vector<std::string>(argv.begin() + 1, argv.end()));
    std::string file, outDir, value;
    bool force = false;
    MonitoringExportOptions options;
    while (!a.done()) {
        if (a.option("--out", value)) {
            outDir = value;
        } else if (a.flag("--force")) {
            force = true;
        } else if (a.option("--prometheus-version", value)) {
            if (options.target) throw UsageError{"--prometheus-version and --victoriametrics: choose one target"};
            if (value == "2")
                options.target = MonitoringTarget::Prometheus2;
            else if (value == "3")
                options.target = MonitoringTarget::Prometheus3;
            else
                throw UsageError{"--prometheus-version \"" + value + "\": expected 2 or 3"};
        } else if (a.flag("--victoriametrics")) {
            if (options.target) throw UsageError{"--prometheus-version and --victoriametrics: choose one target"};
            options.target = MonitoringTarget::VictoriaMetrics;
        } else if (!a.peek().empty() && a.peek()[0] == '-') {
            a.unknown("export monitoring");
        } else if (file.empty()) {
            file = a.next();
        } else {
            throw UsageError{"export monitoring: one comparison file at a time (also got \"" + a.peek() + "\")"};
        }
    }
    if (file.empty()) throw UsageError{"export monitoring needs a comparison file (FILE.fp8cmp)"};
    if (outDir.empty()) throw UsageError{"export monitoring needs --out DIR, the folder to write the files into"};

    auto doc = loadComparisonFile(file);
    if (!doc) {
        err << "fp8dash: " << errorText(doc.error().message) << "\n";
        return kExitBadInput;
    }
    auto exported = exportMonitoring(*doc, options);
    if (!exported) {
        err << "fp8dash: " << oneLine(file) << ": " << errorText(exported.error().message) << "\n";
        return kExitBadInput;
    }

    const fs::path dir(outDir);
    std::error_code ec;
    if (fs::exists(dir, ec) && !fs::is_directory(dir, ec)) {
        err << "fp8dash: --out \"" << oneLine(outDir) << "\" is not a folder\n";
        return kExitBadInput;
    }
    const std::vector<std::pair<const char*, const std::string*>> files = {
        {kMonitoringRulesFile, &exported->rulesYaml},
        {kMonitoringTestFile, &exported->testYaml},
        {kMonitoringDashboardFile, &exported->dashboardJson}};
    std::string existing;
    for (const auto& [name, text] : files)
        if (fs::exists(fs::symlink_status(dir / name, ec)))
            existing += std::string(existing.empty() ? "" : ", ") + name;
    if (!existing.empty() && !force) {
        err << "fp8dash: " << oneLine(outDir) << " already has " << existing
            << "; nothing was written (--force replaces them)\n";
        return kExitBadInput;
    }
    fs::create_directories(dir, ec);
    if (ec) {
        err << "fp8dash: cannot create the folder \"" << oneLine(outDir) << "\": " << ec.message() << "\n";
        return kExitBadInput;
    }
    for (const auto& [name, text] : files) {
        if (auto w = writeFileAtomically(dir / name, *text); !w) {
            err << "fp8dash: " << errorText(w.error().message) << "\n";
            return kExitBadInput;
        }
        out << "wrote " << oneLine((dir / name).string()) << "\n";
    }
    out << "rules for " << monitoringTargetTitle(exported->target) << ": " << oneLine(exported->targetBasis) << "\n";
    out << "alert: " << oneLine(exported->alertExpression) << "\n";
    if (!exported->decision.empty()) out << "decision in force: " << oneLine(exported->decision) << "\n";
    std::size_t firing = 0;
    for (const auto& e : exported->test.alerts)
        if (e.firingAt) ++firing;
    out << "the unit test asserts " << exported->test.assertedTimes.size() << " evaluation times (" << firing
        << (firing == 1 ? " firing episode" : " firing episodes") << " in fp8dash's evaluation)\n";
    for (const auto& n : exported->notes) err << "fp8dash: note: " << oneLine(n) << "\n";
    return kExitOk;
}

}  // namespace fp8dash::cli
