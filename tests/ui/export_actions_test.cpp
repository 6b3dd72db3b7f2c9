// Export of what the views show: tables as CSV (parsed back here with an RFC 4180 reader of the test's own, the
// numbers compared with the files' values), charts as PNG (loaded with QImage) and SVG (read as XML), the context
// menus that offer them, and File › Export Report… once its path is chosen.
#include <QApplication>
#include <QChartView>
#include <QFile>
#include <QImage>
#include <QLineEdit>
#include <QMenu>
#include <QMessageBox>
#include <QSortFilterProxyModel>
#include <QStandardItemModel>
#include <QStatusBar>
#include <QTableView>
#include <QTemporaryDir>
#include <QTreeView>
#include <QXmlStreamReader>
#include <QtTest>

#include <algorithm>

#include "fp8dash/ui/bench_view.h"
#include "fp8dash/ui/comparison_view.h"
#include "fp8dash/ui/export_actions.h"
#include "fp8dash/ui/judge_view.h"
#include "fp8dash/ui/main_window.h"
#include "fp8dash/ui/task_table_model.h"
#include "fp8dash/ui/task_table_view.h"
#include "fp8dash/ui/timeline_chart_view.h"
#include "fp8dash/ui/timeline_view.h"
#include "gui_test_support.h"
#include "report_test_document.h"
#include "timeline_test_data.h"

namespace fp8dash::ui::test {
namespace {

class ExportActionsTest : public GuiTest {};

using exporting::tableCsv;

// RFC 4180, read independently of the writer: fields split at commas outside quotes, "" inside quotes is a quote,
// records end with CRLF.
std::vector<std::vector<QString>> parseCsv(const QString& text) {
    std::vector<std::vector<QString>> records;
    std::vector<QString> record;
    QString field;
    bool quoted = false;
    for (qsizetype i = 0; i < text.size(); ++i) {
        const QChar c = text[i];
        if (quoted) {
            if (c == QLatin1Char('"') && i + 1 < text.size() && text[i + 1] == QLatin1Char('"'))
                field += c, ++i;
            else if (c == QLatin1Char('"'))
                quoted = false;
            else
                field += c;
        } else if (c == QLatin1Char('"')) {
            quoted = true;
        } else if (c == QLatin1Char(',')) {
            record.push_back(field), field.clear();
        } else if (c == QLatin1Char('\r') && i + 1 < text.size() && text[i + 1] == QLatin1Char('\n')) {
            record.push_back(field), field.clear();
            records.push_back(record), record.clear();
            ++i;
        } else {
            field += c;
        }
    }
    EXPECT_TRUE(field.isEmpty() && record.empty()) << "the last record must end with CRLF";
    return records;
}

int columnOf(const std::vector<QString>& header, const QString& name) {
    for (std::size_t i = 0; i < header.size(); ++i)
        if (header[i] == name) return static_cast<int>(i);
    ADD_FAILURE() << "no column " << name.toStdString();
    return 0;
}

const std::vector<QString>* rowNamed(const std::vector<std::vector<QString>>& rows, int column, const QString& name) {
    for (const auto& r : rows)
        if (r[static_cast<std::size_t>(column)] == name) return &r;
    return nullptr;
}

QString readText(const QString& path) {
    QFile f(path);
    EXPECT_TRUE(f.open(QIODevice::ReadOnly)) << path.toStdString();
    return QString::fromUtf8(f.readAll());
}

Json exportReadJson(const std::string& path) {
    QFile f(QString::fromStdString(path));
    EXPECT_TRUE(f.open(QIODevice::ReadOnly));
    return Json::parse(f.readAll().toStdString());
}

std::string seedFile(const char* side) {
    return std::string(FP8DASH_TEST_DATA) +
           (std::string(side) == "bf16" ? "/lm-eval/seed-pair/bf16/meta-llama__Meta-Llama-3.1-70B-Instruct/"
                                          "results_2026-11-20T10-00-00.000001.json"
                                        : "/lm-eval/seed-pair/fp8/neuralmagic__Meta-Llama-3.1-70B-Instruct-FP8/"
                                          "results_2026-11-21T09-30-00.000001.json");
}

QStringList actionTexts(const QMenu* menu) {
    QStringList out;
    for (const QAction* a : menu->actions())
        if (!a->isSeparator()) out << a->text().remove(QLatin1Char('&'));
    return out;
}

TEST_F(ExportActionsTest, TaskTreeAsCsvWithDepthParentAndExactValues) {
    TaskTableView view;
    const ComparisonDocument doc = documentFromRuns(seedFile("bf16"), seedFile("fp8"));
    auto report = doc.evaluate();
    ASSERT_TRUE(report.ok());
    view.setReport(*report);
    const auto rows = parseCsv(tableCsv(view.treeView()));
    ASSERT_FALSE(rows.empty());
    const auto& header = rows.front();
    ASSERT_GE(header.size(), 4u);
    EXPECT_EQ(header[0], QStringLiteral("Depth"));
    EXPECT_EQ(header[1], QStringLiteral("Parent"));
    EXPECT_EQ(header[2], QStringLiteral("Task"));
    for (const auto& r : rows) EXPECT_EQ(r.size(), header.size());
    // One row per compared task and subtask, collapsed or not.
    std::size_t expected = 0;
    std::function<void(const TaskComparison&)> count = [&](const TaskComparison& t) {
        ++expected;
        for (const auto& s : t.subtasks) count(s);
    };
    for (const auto& t : report->tasks) count(t);
    EXPECT_EQ(rows.size() - 1, expected);

    const int task = columnOf(header, QStringLiteral("Task"));
    const int base = columnOf(header, QStringLiteral("BF16"));
    const int cand = columnOf(header, QStringLiteral("FP8"));
    const int delta = columnOf(header, QStringLiteral("Δ%"));
    const int verdict = columnOf(header, QStringLiteral("Verdict"));
    const auto* humanities = rowNamed(rows, task, QStringLiteral("mmlu_humanities"));
    const auto* philosophy = rowNamed(rows, task, QStringLiteral("mmlu_philosophy"));
    const auto* gsm = rowNamed(rows, task, QStringLiteral("gsm8k"));
    ASSERT_TRUE(humanities && philosophy && gsm);
    EXPECT_EQ((*humanities)[0], QStringLiteral("1"));
    EXPECT_EQ((*humanities)[1], QStringLiteral("mmlu"));
    EXPECT_EQ((*philosophy)[0], QStringLiteral("2"));
    EXPECT_EQ((*philosophy)[1], QStringLiteral("mmlu_humanities"));
    EXPECT_EQ((*gsm)[0], QStringLiteral("0"));
    EXPECT_TRUE((*gsm)[1].isEmpty());
    // Full precision: the values of the results files and Δ% computed here, bit for bit.
    const Json b = exportReadJson(seedFile("bf16")), c = exportReadJson(seedFile("fp8"));
    std::string key;  // the results-file key of the metric compared
    for (const auto& t : report->tasks)
        if (t.task == "gsm8k") key = t.metric;
    const double vb = b["results"]["gsm8k"][key].get<double>(), vc = c["results"]["gsm8k"][key].get<double>();
    EXPECT_EQ((*gsm)[static_cast<std::size_t>(base)].toDouble(), vb);
    EXPECT_EQ((*gsm)[static_cast<std::size_t>(cand)].toDouble(), vc);
    EXPECT_EQ((*gsm)[static_cast<std::size_t>(delta)].toDouble(), (vc - vb) / vb * 100);
    EXPECT_EQ((*gsm)[static_cast<std::size_t>(verdict)], QStringLiteral("INVESTIGATE"));
    // A field with a comma or a quote is quoted, its quotes doubled.
    QStandardItemModel quotes(1, 2);
    quotes.setHorizontalHeaderLabels({QStringLiteral("a"), QStringLiteral("b")});
    quotes.setItem(0, 0, new QStandardItem(QStringLiteral("x, \"y\"")));
    quotes.setItem(0, 1, new QStandardItem(QStringLiteral("line\nbreak")));
    QTableView quotesView;
    quotesView.setModel(&quotes);
    EXPECT_EQ(tableCsv(&quotesView), QStringLiteral("a,b\r\n\"x, \"\"y\"\"\",\"line\nbreak\"\r\n"));

    // The rows on screen: the filter and the sort order apply.
    view.filterEdit()->setText(QStringLiteral("gsm"));
    const auto filtered = parseCsv(tableCsv(view.treeView()));
    ASSERT_EQ(filtered.size(), 2u);
    EXPECT_EQ(filtered[1][static_cast<std::size_t>(task)], QStringLiteral("gsm8k"));
    view.filterEdit()->clear();
    view.treeView()->sortByColumn(TaskTableModel::DeltaColumn, Qt::AscendingOrder);
    const auto sorted = parseCsv(tableCsv(view.treeView()));
    double last = -1e300;
    for (std::size_t i = 1; i < sorted.size(); ++i) {
        if (sorted[i][0] != QStringLiteral("0")) continue;  // top-level rows are sorted among themselves
        const double d = sorted[i][static_cast<std::size_t>(delta)].toDouble();
        EXPECT_LE(last, d);
        last = d;
    }
}

TEST_F(ExportActionsTest, WritesUtf8CsvAndNamesTheFileOnFailure) {
    TaskTableView view;
    auto report = documentFromRuns(seedFile("bf16"), seedFile("fp8")).evaluate();
    ASSERT_TRUE(report.ok());
    view.setReport(*report);
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("tasks.csv"));
    ASSERT_TRUE(exporting::writeTableCsv(view.treeView(), path).ok());
    const QString text = readText(path);
    EXPECT_EQ(text, tableCsv(view.treeView()));  // UTF-8 ("Δ%", "±σ") read back as written
    EXPECT_TRUE(text.contains(QStringLiteral("Δ%")));
    EXPECT_TRUE(text.endsWith(QStringLiteral("\r\n")));
    const QString bad = dir.filePath(QStringLiteral("no-such-folder/tasks.csv"));
    const Status failed = exporting::writeTableCsv(view.treeView(), bad);
    ASSERT_FALSE(failed.ok());
    EXPECT_NE(failed.error().message.find("no-such-folder/tasks.csv"), std::string::npos) << failed.error().message;
}

TEST_F(ExportActionsTest, BenchTablesWithUnitsAndEmptyCellsForMissingValues) {
    BenchView view;
    const BenchResults results = fp8dash::test::reportTestGpuBench();
    view.setResults(&results);
    const auto bw = parseCsv(tableCsv(view.bandwidthTable()));
    ASSERT_EQ(bw.size(), 3u);  // header, read, copy
    const int rate = columnOf(bw[0], QStringLiteral("Bandwidth (B/s)"));
    const int bytes = columnOf(bw[0], QStringLiteral("Bytes per run (B)"));
    const int noise = columnOf(bw[0], QStringLiteral("Noise (fraction)"));
    const auto* read = rowNamed(bw, 0, QStringLiteral("read"));
    ASSERT_NE(read, nullptr);
    EXPECT_EQ((*read)[static_cast<std::size_t>(rate)].toDouble(), 4.1e12);
    EXPECT_EQ((*read)[static_cast<std::size_t>(bytes)], QStringLiteral("1073741824"));
    EXPECT_EQ((*read)[static_cast<std::size_t>(noise)].toDouble(), 0.0025);

    const auto gemm = parseCsv(tableCsv(view.gemmTable()));
    ASSERT_EQ(gemm.size(), 1 + results.gemm.size());
    const int tflops = columnOf(gemm[0], QStringLiteral("TFLOP/s"));
    const int speedup = columnOf(gemm[0], QStringLiteral("Speedup vs BF16"));
    const int precision = columnOf(gemm[0], QStringLiteral("Precision"));
    for (std::size_t i = 1; i < gemm.size(); ++i) {
        const auto& r = gemm[i];
        // Find the point by its values: each row's TFLOP/s is one of the run's, exactly.
        bool found = false;
        for (const auto& p : results.gemm) found |= r[static_cast<std::size_t>(tflops)].toDouble() == p.tflops;
        EXPECT_TRUE(found) << r[static_cast<std::size_t>(tflops)].toStdString();
        // BF16 rows have no speedup: an empty field, not the table's "—".
        if (r[static_cast<std::size_t>(precision)].contains(QStringLiteral("BF16"))) {
            EXPECT_TRUE(r[static_cast<std::size_t>(speedup)].isEmpty())
                << r[static_cast<std::size_t>(speedup)].toStdString();
        }
    }
    const auto kv = parseCsv(tableCsv(view.kvTable()));
    ASSERT_EQ(kv.size(), 1 + results.kv.size());
    // The table shows percentages; the CSV keeps the fractions (and elements per second, and the counts).
    const int attn = columnOf(kv[0], QStringLiteral("Attention-output error (fraction)"));
    const int context = columnOf(kv[0], QStringLiteral("Context (tokens)"));
    const int keySaturated = columnOf(kv[0], QStringLiteral("Saturated K"));
    const int perSecond = columnOf(kv[0], QStringLiteral("Elements/s (1/s)"));
    EXPECT_EQ(std::find(kv[0].begin(), kv[0].end(), QStringLiteral("Old attention figure (not comparable)")),
              kv[0].end());  // hidden: no row of an older fp8dash
    for (std::size_t i = 1; i < kv.size(); ++i) {
        bool found = false;
        for (const auto& p : results.kv)
            found |= p.scaling == kv[i][0].toStdString() &&
                     kv[i][static_cast<std::size_t>(context)].toInt() == p.context &&
                     kv[i][static_cast<std::size_t>(attn)].toDouble() == p.attnOutRelRmse &&
                     kv[i][static_cast<std::size_t>(keySaturated)].toULongLong() == p.key.saturated.value_or(~0ull) &&
                     kv[i][static_cast<std::size_t>(perSecond)].toDouble() == 5e8;
        EXPECT_TRUE(found) << kv[i][0].toStdString();
    }
}

TEST_F(ExportActionsTest, JudgeDropsTableAndChartMenus) {
    MainWindow window;
    window.resize(1280, 820);
    window.show();
    auto doc = loadComparisonFile(fp8dash::test::reportTestDataFile("judge-bench.fp8cmp"));
    ASSERT_TRUE(doc.ok());
    window.showDocument(*doc, {}, QStringLiteral("judge"));
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
    JudgeView* judge = window.comparisonView()->judgeView();
    const auto drops = parseCsv(tableCsv(judge->dropsTable()));
    const JudgeComparison& c = *window.current()->decision.judge;
    ASSERT_EQ(drops.size(), 1 + c.biggestDrops.size());
    EXPECT_EQ(drops[0][0], QStringLiteral("ID"));
    for (std::size_t i = 0; i < c.biggestDrops.size(); ++i)
        EXPECT_EQ(drops[i + 1][0].toStdString(), c.biggestDrops[i].id);

    // Every chart and table offers its export in the context menu.
    EXPECT_EQ(judge->chartView()->contextMenuPolicy(), Qt::CustomContextMenu);
    std::unique_ptr<QMenu> chartMenu(exporting::createChartExportMenu(judge->chartView(), QStringLiteral("t"), {}));
    EXPECT_EQ(actionTexts(chartMenu.get()),
              (QStringList{QStringLiteral("Export Chart as PNG…"), QStringLiteral("Export Chart as SVG…")}));
    std::unique_ptr<QMenu> tableMenu(exporting::createTableExportMenu(judge->dropsTable(), {}));
    EXPECT_EQ(actionTexts(tableMenu.get()), (QStringList{QStringLiteral("Copy"), QStringLiteral("Copy as Markdown"),
                                                         QStringLiteral("Export Table as CSV…")}));
    BenchView* bench = window.comparisonView()->benchView();
    for (QChartView* v : {bench->rooflineView(), bench->speedupView(), bench->kvView()})
        EXPECT_EQ(v->contextMenuPolicy(), Qt::CustomContextMenu);
    for (QTableView* t : {bench->gemmTable(), bench->bandwidthTable(), bench->kvTable(), judge->dropsTable()})
        EXPECT_EQ(t->contextMenuPolicy(), Qt::CustomContextMenu);
    EXPECT_EQ(window.comparisonView()->taskTable()->treeView()->contextMenuPolicy(), Qt::CustomContextMenu);
}

TEST_F(ExportActionsTest, ChartAsPngAndSvg) {
    MainWindow window;
    window.resize(1280, 820);
    window.show();
    auto doc = loadComparisonFile(fp8dash::test::reportTestDataFile("judge-bench.fp8cmp"));
    ASSERT_TRUE(doc.ok());
    window.showDocument(*doc, {}, QStringLiteral("judge"));
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
    QChartView* chart = window.comparisonView()->judgeView()->chartView();
    ASSERT_TRUE(chart->isVisible());
    QTemporaryDir dir;
    const QString png = dir.filePath(QStringLiteral("judge.png")), svg = dir.filePath(QStringLiteral("judge.svg"));
    ASSERT_TRUE(exporting::writeChartPng(chart, png).ok());
    QImage image(png);
    ASSERT_FALSE(image.isNull());
    EXPECT_EQ(image.size(), chart->size() * 2);  // the size on screen, twice the pixels
    ASSERT_TRUE(exporting::writeChartSvg(chart, svg, QStringLiteral("Domain judge")).ok());
    QFile f(svg);
    ASSERT_TRUE(f.open(QIODevice::ReadOnly));
    QXmlStreamReader xml(&f);
    QString root, title;
    while (!xml.atEnd()) {
        if (xml.readNext() == QXmlStreamReader::StartElement) {
            if (root.isEmpty()) root = xml.name().toString();
            if (xml.name() == QStringLiteral("title")) title = xml.readElementText();
        }
    }
    EXPECT_FALSE(xml.hasError()) << xml.errorString().toStdString();
    EXPECT_EQ(root, QStringLiteral("svg"));
    EXPECT_EQ(title, QStringLiteral("Domain judge"));
    // A chart that is not on screen (the hidden bench tab) cannot be drawn at its size: the error names the file.
    QChartView* hidden = window.comparisonView()->benchView()->kvView();
    ASSERT_FALSE(hidden->isVisible());
    const Status failed = exporting::writeChartPng(hidden, dir.filePath(QStringLiteral("kv.png")));
    ASSERT_FALSE(failed.ok());
    EXPECT_NE(failed.error().message.find("kv.png"), std::string::npos);
    EXPECT_NE(failed.error().message.find("not on screen"), std::string::npos);
}

TEST_F(ExportActionsTest, TimelineMenuKeepsItsActionsAndOffersExport) {
    MainWindow window;
    window.resize(1280, 820);
    window.show();
    window.showDocument(documentWith(dayTimeline(), false), {}, QStringLiteral("timeline"));
    window.comparisonView()->showTab(ComparisonView::TimelineTab);
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
    TimelineChartView* chart = window.comparisonView()->timelineView()->chartView();
    const QPoint inside = chart->plotAreaInViewport().center();
    std::unique_ptr<QMenu> menu(chart->createContextMenu(inside));
    const QStringList texts = actionTexts(menu.get());
    for (const char* text :
         {"Set the FP8 Change Time Here", "Zoom In Here", "Reset Zoom", "Export Chart as PNG…", "Export Chart as SVG…"})
        EXPECT_TRUE(texts.contains(QString::fromUtf8(text)))
            << text << " in " << texts.join(QStringLiteral(", ")).toStdString();
    QTemporaryDir dir;
    const QString png = dir.filePath(QStringLiteral("timeline.png"));
    ASSERT_TRUE(exporting::writeChartPng(chart, png).ok());
    EXPECT_EQ(QImage(png).size(), chart->size() * 2);
}

TEST_F(ExportActionsTest, ExportReportFromTheWindow) {
    MainWindow window;
    window.show();
    window.showDocument(fp8dash::test::reportTestDocument(), {}, QStringLiteral("review"));
    EXPECT_TRUE(actionShortcuts(&window).contains(QStringLiteral("Export Report…=Ctrl+E")));
    QTemporaryDir dir;
    const QString pdf = dir.filePath(QStringLiteral("review.pdf"));
    ASSERT_TRUE(window.exportReportTo(pdf, ReportFileFormat::Pdf).ok());
    EXPECT_TRUE(readText(pdf).startsWith(QStringLiteral("%PDF-")));
    EXPECT_TRUE(window.statusBar()->currentMessage().contains(pdf))
        << window.statusBar()->currentMessage().toStdString();
    EXPECT_EQ(QApplication::overrideCursor(), nullptr);  // the busy cursor is gone
    const QString html = dir.filePath(QStringLiteral("review.html"));
    ASSERT_TRUE(window.exportReportTo(html, ReportFileFormat::Html).ok());
    EXPECT_TRUE(readText(html).contains(QStringLiteral("data:image/png;base64,")));

    const QString bad = dir.filePath(QStringLiteral("gone/review.pdf"));
    const Status failed = window.exportReportTo(bad, ReportFileFormat::Pdf);
    ASSERT_FALSE(failed.ok());
    QMessageBox* box = window.findChild<QMessageBox*>(QStringLiteral("errorBox"));
    ASSERT_NE(box, nullptr);
    EXPECT_TRUE(box->text().contains(QStringLiteral("review.pdf")));
    EXPECT_TRUE(box->informativeText().contains(QStringLiteral("gone/review.pdf")))
        << box->informativeText().toStdString();
    EXPECT_EQ(QApplication::overrideCursor(), nullptr);
}

}  // namespace
}  // namespace fp8dash::ui::test
