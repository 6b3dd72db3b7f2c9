// Reports as files: the charts drawn by the app's views and embedded in the HTML, and a real PDF read back with
// poppler's pdfinfo and pdftotext (skipped with a message where poppler-utils is not installed). Set
// FP8DASH_REPORT_OUT_DIR to a folder to keep the PDF and HTML written here, to look at them.
#include <QByteArray>
#include <QDir>
#include <QFile>
#include <QImage>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>

#include <cmath>
#include <regex>

#include "fp8dash/ui/report_exporter.h"
#include "gui_test_support.h"
#include "process.h"
#include "report_test_document.h"

namespace fp8dash::ui::test {
namespace {

class ReportExporterTest : public GuiTest {};

LoadedComparison fullComparison() {
    auto loaded = evaluateForDisplay(fp8dash::test::reportTestDocument(), QStringLiteral("report-test.fp8cmp"));
    EXPECT_TRUE(loaded.ok()) << (loaded.ok() ? "" : loaded.error().message);
    return std::move(loaded).value();
}

ReportContext fixedContext(const LoadedComparison& loaded) {
    ReportContext ctx;
    ctx.source = "report-test.fp8cmp";
    ctx.generatedAt = "2026-12-02T09:30:00Z";
    ctx.toolVersion = "0.0.0-test";
    ctx.charts = reportCharts(loaded);
    return ctx;
}

void keep(const QByteArray& bytes, const QString& name) {
    const QString dir = qEnvironmentVariable("FP8DASH_REPORT_OUT_DIR");
    if (dir.isEmpty()) return;
    QFile f(QDir(dir).filePath(name));
    if (f.open(QIODevice::WriteOnly)) f.write(bytes);
}

std::string pdfTool(const char* name) {
    return QStandardPaths::findExecutable(QString::fromLatin1(name)).toStdString();
}

TEST_F(ReportExporterTest, ChartsForEverySectionThatHasOne) {
    const LoadedComparison loaded = fullComparison();
    const auto charts = reportCharts(loaded);
    QStringList keys;
    for (const auto& c : charts) keys << toQString(c.key);
    // The evals' forest plot, the judge, the timeline and the CPU benchmark run's KV sweep (no GEMM rows, so no
    // roofline or speedup).
    EXPECT_EQ(keys, (QStringList{QStringLiteral("evals-forest"), QStringLiteral("judge-distribution"),
                                 QStringLiteral("timeline"), QStringLiteral("bench-kv")}));
    for (const auto& c : charts) {
        QImage image;
        ASSERT_TRUE(image.loadFromData(QByteArray::fromStdString(c.png), "PNG")) << c.key;
        // Each at its own size, drawn at twice the pixels: the forest plot as tall as its tasks need.
        EXPECT_EQ(image.size(), QSize(2 * c.width, 2 * c.height)) << c.key;
        EXPECT_EQ(c.width, kReportChartWidth);
        if (c.key != "evals-forest") {
            EXPECT_EQ(c.height, kReportChartHeight);
        }
    }
}

TEST_F(ReportExporterTest, HtmlEmbedsRealPngs) {
    const LoadedComparison loaded = fullComparison();
    const ReportContext ctx = fixedContext(loaded);
    auto html = reportBytes(loaded, ReportFileFormat::Html, ctx);
    ASSERT_TRUE(html.ok()) << html.error().message;
    keep(*html, QStringLiteral("report.html"));
    const QString text = QString::fromUtf8(*html);
    static const QRegularExpression uri(QStringLiteral("data:image/png;base64,([A-Za-z0-9+/=]+)"));
    int images = 0;
    for (auto it = uri.globalMatch(text); it.hasNext(); ++images) {
        QImage image;
        ASSERT_TRUE(image.loadFromData(QByteArray::fromBase64(it.next().captured(1).toLatin1()), "PNG"));
        EXPECT_EQ(image.width(), 2 * kReportChartWidth);
        if (images > 0) {  // the first: the evals' forest plot
            EXPECT_EQ(image.height(), 2 * kReportChartHeight);
        }
    }
    EXPECT_EQ(images, 4);
    EXPECT_TRUE(text.contains(QStringLiteral("<figure id=\"chart-evals-forest\">")));
}

TEST_F(ReportExporterTest, PdfPagesAndText) {
    const LoadedComparison loaded = fullComparison();
    const ReportContext ctx = fixedContext(loaded);
    int pages = 0;
    auto pdf = reportPdf(loaded, ctx, &pages);
    ASSERT_TRUE(pdf.ok()) << pdf.error().message;
    keep(*pdf, QStringLiteral("report.pdf"));
    EXPECT_TRUE(pdf->startsWith("%PDF-"));
    EXPECT_GE(pages, 3);  // verdict, review, runs, evals, judge, timeline, benchmarks, capacity, notes and 3 charts

    const std::string pdfinfo = pdfTool("pdfinfo"), pdftotext = pdfTool("pdftotext");
    if (pdfinfo.empty() || pdftotext.empty())
        GTEST_SKIP() << "pdfinfo/pdftotext not found (Debian: poppler-utils, packaging/install-deps.sh --tests)";
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("report.pdf"));
    {
        QFile f(path);
        ASSERT_TRUE(f.open(QIODevice::WriteOnly));
        f.write(*pdf);
    }
    const auto info = fp8dash::test::runProcess({pdfinfo, path.toStdString()});
    ASSERT_EQ(info.exitCode, 0) << info.err;
    const auto field = [&info](const char* name) {
        const QRegularExpression re(QStringLiteral("^%1:\\s+(.*)$").arg(QLatin1String(name)),
                                    QRegularExpression::MultilineOption);
        return re.match(QString::fromStdString(info.out)).captured(1).trimmed();
    };
    EXPECT_EQ(field("Pages"), QString::number(pages)) << info.out;
    EXPECT_TRUE(field("Page size").endsWith(QStringLiteral("(A4)"))) << info.out;
    EXPECT_EQ(field("Title"), QStringLiteral("BF16 vs FP8: RedHatAI/Llama-3.1-8B-Instruct-FP8-dynamic"));

    const auto text = fp8dash::test::runProcess({pdftotext, "-layout", path.toStdString(), "-"});
    ASSERT_EQ(text.exitCode, 0) << text.err;
    const std::string& t = text.out;
    EXPECT_NE(t.find("INVESTIGATE"), std::string::npos);
    for (const auto& task : loaded.report.tasks) EXPECT_NE(t.find(task.task), std::string::npos) << task.task;
    EXPECT_NE(t.find("Hand-edited note that already carries an id."), std::string::npos);
    EXPECT_NE(t.find("Lee Chen"), std::string::npos);
    EXPECT_NE(t.find("Approved: go"), std::string::npos);
    EXPECT_NE(t.find("131,072 B"), std::string::npos);  // the capacity table
    EXPECT_NE(t.find("Page 1 of " + std::to_string(pages)), std::string::npos);
    EXPECT_NE(t.find("Page " + std::to_string(pages) + " of " + std::to_string(pages)), std::string::npos);
    // Every page has its header and footer: one form feed between pages, one page number on each.
    std::size_t numbered = 0;
    for (int p = 1; p <= pages; ++p)
        numbered += t.find("Page " + std::to_string(p) + " of " + std::to_string(pages)) != std::string::npos;
    EXPECT_EQ(numbered, static_cast<std::size_t>(pages));
}

// A GPU run has GEMM rows: the roofline and speedup charts join the KV chart, and the GEMM table lists each FP8
// shape beside its BF16 twin with the speedup.
TEST_F(ReportExporterTest, GpuBenchmarksBringTheirChartsAndTables) {
    ComparisonDocument doc = fp8dash::test::reportTestDocument();
    doc.benchmarks = fp8dash::test::reportTestGpuBench();
    auto loaded = evaluateForDisplay(doc, QStringLiteral("gpu.fp8cmp"));
    ASSERT_TRUE(loaded.ok());
    ReportContext ctx = fixedContext(*loaded);
    QStringList keys;
    for (const auto& c : ctx.charts) keys << toQString(c.key);
    EXPECT_EQ(keys, (QStringList{QStringLiteral("evals-forest"), QStringLiteral("judge-distribution"),
                                 QStringLiteral("timeline"), QStringLiteral("bench-roofline"),
                                 QStringLiteral("bench-speedup"), QStringLiteral("bench-kv")}));
    int pages = 0;
    auto pdf = reportPdf(*loaded, ctx, &pages);
    ASSERT_TRUE(pdf.ok()) << pdf.error().message;
    keep(*pdf, QStringLiteral("report-gpu.pdf"));
    const std::string pdftotext = pdfTool("pdftotext");
    if (pdftotext.empty()) GTEST_SKIP() << "pdftotext not found (Debian: poppler-utils)";
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("gpu.pdf"));
    {
        QFile f(path);
        ASSERT_TRUE(f.open(QIODevice::WriteOnly));
        f.write(*pdf);
    }
    const auto text = fp8dash::test::runProcess({pdftotext, "-layout", path.toStdString(), "-"});
    ASSERT_EQ(text.exitCode, 0);
    EXPECT_NE(text.out.find("NVIDIA H200"), std::string::npos);
    // qkv at M = 128: BF16 512.34 -> "512.3", FP8 958.1, speedup 1.87x (the run's own figure).
    const std::regex row("qkv\\s+128 × 6144 × 4096\\s+512\\.3\\s+958\\.1\\s+1\\.87×");
    EXPECT_TRUE(std::regex_search(text.out, row)) << text.out;
    EXPECT_NE(text.out.find("4.10 TB/s"), std::string::npos);  // read bandwidth 4.1e12 B/s
}

TEST_F(ReportExporterTest, WriteReportFileInEachFormat) {
    const LoadedComparison loaded = fullComparison();
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    for (auto [name, format, starts] : {std::tuple{"r.html", ReportFileFormat::Html, "<!DOCTYPE html>"},
                                        std::tuple{"r.pdf", ReportFileFormat::Pdf, "%PDF-"},
                                        std::tuple{"r.md", ReportFileFormat::Markdown, "# BF16 vs FP8"},
                                        std::tuple{"r.txt", ReportFileFormat::Text, "BF16 vs FP8"},
                                        std::tuple{"r.json", ReportFileFormat::Json, "{"}}) {
        const QString path = dir.filePath(QString::fromLatin1(name));
        const Status written = writeReportFile(loaded, path, format, QStringLiteral("report-test.fp8cmp"));
        ASSERT_TRUE(written.ok()) << written.error().message;
        QFile f(path);
        ASSERT_TRUE(f.open(QIODevice::ReadOnly)) << name;
        EXPECT_TRUE(f.readAll().startsWith(starts)) << name;
    }
    // The JSON is the CLI's stable JSON: the overall verdict and the timeline's part.
    QFile json(dir.filePath(QStringLiteral("r.json")));
    ASSERT_TRUE(json.open(QIODevice::ReadOnly));
    const Json j = Json::parse(json.readAll().toStdString());
    EXPECT_EQ(j["verdict"], "investigate");
    EXPECT_TRUE(j.contains("timeline"));
    // A folder that does not exist: the error names the file.
    const QString bad = dir.filePath(QStringLiteral("missing/r.pdf"));
    const Status failed = writeReportFile(loaded, bad, ReportFileFormat::Pdf, {});
    ASSERT_FALSE(failed.ok());
    EXPECT_NE(failed.error().message.find("missing/r.pdf"), std::string::npos) << failed.error().message;
}

}  // namespace
}  // namespace fp8dash::ui::test
