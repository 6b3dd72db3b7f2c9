#include "cli_report.h"

#include <ostream>

#include "cli.h"
#include "cli_args.h"
#include "cli_common.h"
#include "fp8dash/core/demo.h"
#include "fp8dash/core/report_document.h"
#include "fp8dash/core/report_format.h"
#include "fp8dash/core/untrusted_text.h"
#include "fp8dash/core/version.h"

#ifdef FP8DASH_WITH_GUI
#include <QApplication>
#include <QByteArray>
#include <QString>

#include <cstdio>

#include "fp8dash/ui/report_exporter.h"
#endif

namespace fp8dash::cli {
namespace {

#ifdef FP8DASH_WITH_GUI
// Qt's chatter from the offscreen platform ("does not support propagateSizeHints()", XDG_RUNTIME_DIR) is not the
// user's business on a command line; critical and fatal messages still reach stderr.
void quietMessages(QtMsgType type, const QMessageLogContext&, const QString& message) {
    if (type == QtCriticalMsg || type == QtFatalMsg) std::fprintf(stderr, "fp8dash: Qt: %s\n", qPrintable(message));
}

// The process's QApplication for drawing charts: none exists in a CLI run, so one is made on the offscreen platform
// (unless QT_QPA_PLATFORM names another).
void ensureGuiApplication() {
    if (QCoreApplication::instance()) return;
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    qInstallMessageHandler(quietMessages);
    static int argc = 1;
    static char name[] = "fp8dash";
    static char* argv[] = {name, nullptr};
    // Never deleted: it lives until the process exits (a QApplication destroyed among the static objects at exit
    // may outlive parts of Qt it needs).
    new QApplication(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("fp8dash"));
    QCoreApplication::setApplicationVersion(QStringLiteral(FP8DASH_VERSION));
}
#endif

}  // namespace

void checkReportOutPath(const std::string& path) {
    if (path.empty()) throw UsageError{"--out needs a file name"};
    if (!reportFormatForPath(path))
        throw UsageError{"--out \"" + path + "\": the extension chooses the format: .html, .pdf, .md, .txt or .json"};
}

int writeReportOut(const ComparisonDocument& doc, const Decision& decision, const std::string& path,
                   const std::string& source, std::ostream& err) {
    checkReportOutPath(path);
    const ReportFileFormat format = *reportFormatForPath(path);
    const auto finish = [&](const Status& written) {
        if (!written) {
            err << "fp8dash: cannot write the report: " << errorText(written.error().message) << "\n";
            return kExitBadInput;
        }
        err << "fp8dash: wrote the report to " << oneLine(path) << "\n";
        return kExitOk;
    };
#ifdef FP8DASH_WITH_GUI
    if (format == ReportFileFormat::Html || format == ReportFileFormat::Pdf) {
        ensureGuiApplication();
        auto loaded = ui::evaluateForDisplay(doc, QString::fromStdString(source));
        if (!loaded) return finish(loaded.error());
        return finish(
            ui::writeReportFile(*loaded, QString::fromStdString(path), format, QString::fromStdString(source)));
    }
#else
    if (format == ReportFileFormat::Pdf) {
        err << "fp8dash: " << oneLine(path)
            << ": this fp8dash was built without the desktop app (FP8DASH_BUILD_GUI=OFF), "
            << "whose Qt libraries draw PDF reports; write .html or .md instead\n";
        return kExitBadInput;
    }
    if (format == ReportFileFormat::Html)
        err << "fp8dash: note: this build has no desktop app (FP8DASH_BUILD_GUI=OFF): the HTML report gives the "
               "charts' data as tables instead of the charts\n";
#endif
    // The formats core writes alone (and HTML without charts in a CLI-only build).
    ReportContext ctx;
    ctx.source = source;
    ctx.generatedAt = nowIso8601Utc();
    ctx.toolVersion = FP8DASH_VERSION;
    auto bytes = renderReport(doc, decision, ctx, format);
    if (!bytes) return finish(bytes.error());
    return finish(writeFileAtomically(path, *bytes));
}

namespace {

// `report` and `demo`: the decision printed in the chosen format (the full Markdown report for markdown), and with
// --out the report written to a file; with --out alone nothing is printed.
int reportDocument(const ComparisonDocument& doc, Format format, bool print, const std::string& outPath,
                   std::optional<Verdict> failOn, std::ostream& out, std::ostream& err, const std::string& source) {
    auto decision = decide(doc);
    if (!decision) {
        err << "fp8dash: " << oneLine(source) << ": " << errorText(decision.error().message) << "\n";
        return kExitBadInput;
    }
    for (const std::string& step : doc.migrations)
        err << "fp8dash: " << oneLine(source) << ": read from comparison format " << doc.version << " (" << step
            << ")\n";
    if (!outPath.empty())
        if (const int rc = writeReportOut(doc, *decision, outPath, source, err); rc != kExitOk) return rc;
    if (print) {
        switch (format) {
            case Format::Json:
                out << comparisonToJson(doc, *decision).dump(2) << "\n";
                break;
            case Format::Markdown: {
                ReportContext ctx;
                ctx.source = source;
                ctx.generatedAt = nowIso8601Utc();
                ctx.toolVersion = FP8DASH_VERSION;
                out << reportToMarkdownDocument(doc, *decision, ctx);
                break;
            }
            case Format::Text:
                out << reportToPlainText(doc, *decision);
                break;
        }
    }
    return exitFor(*decision, failOn);
}

}  // namespace

int cmdReport(Args& a, bool demo, std::ostream& out, std::ostream& err) {
    std::vector<std::string> positional;
    Format format = Format::Text;
    bool formatGiven = false;
    std::optional<Verdict> failOn;
    std::string value, outPath;
    while (!a.done()) {
        if (a.option("--format", value))
            format = parseFormat(value), formatGiven = true;
        else if (a.option("--out", value))
            checkReportOutPath(value), outPath = value;
        else if (a.option("--fail-on", value))
            failOn = parseFailOn(value);
        else if (a.peek().size() > 1 && a.peek()[0] == '-')
            throw UsageError{(demo ? "demo" : "report") + std::string(": unknown option ") + a.peek()};
        else
            positional.push_back(a.next());
    }
    const bool print = outPath.empty() || formatGiven;
    if (demo) {
        if (!positional.empty()) throw UsageError{"demo takes no file"};
        auto doc = loadDemoComparison();
        if (!doc) {
            err << "fp8dash: the bundled demo is broken: " << errorText(doc.error().message) << "\n";
            return kExitInternal;
        }
        return reportDocument(*doc, format, print, outPath, failOn, out, err, std::string(kDemoName));
    }
    if (positional.size() != 1)
        throw UsageError{"report needs exactly one comparison file (got " + std::to_string(positional.size()) + ")"};
    auto doc = loadComparisonFile(positional[0]);
    if (!doc) {
        err << "fp8dash: " << errorText(doc.error().message) << "\n";
        return kExitBadInput;
    }
    return reportDocument(*doc, format, print, outPath, failOn, out, err, positional[0]);
}

}  // namespace fp8dash::cli
