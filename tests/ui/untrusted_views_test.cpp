// Untrusted text in the app's views (issue 26, finding 3 and "every view"): the demo comparison with a hostile string
// in every string field (tests/support/hostile_comparison.h), opened in the real main window; every tab, the side
// panels and every slide of the presentation are visited once, and every label, button, group box, text browser,
// chart text, item model cell and tooltip that shows a payload must show it as the text it is: where Qt renders it as
// rich text (a label's format, a tooltip that looks like markup, chart titles, axis labels and legend names), the
// rendered text must hold the markup literally ("<h1 style=color:green>"), never a heading and an image.
#include <QAbstractButton>
#include <QAbstractItemView>
#include <QApplication>
#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QCategoryAxis>
#include <QChart>
#include <QChartView>
#include <QFile>
#include <QGroupBox>
#include <QLabel>
#include <QLegendMarker>
#include <QLocale>
#include <QMessageBox>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTextDocument>
#include <QTextEdit>
#include <QtTest>

#include <filesystem>
#include <fstream>
#include <regex>
#include <set>

#include "fp8dash/core/comparison_file.h"
#include "fp8dash/ui/comparison_view.h"
#include "fp8dash/ui/loaded_comparison.h"
#include "fp8dash/ui/main_window.h"
#include "fp8dash/ui/presentation_window.h"
#include "gui_test_support.h"
#include "hostile_comparison.h"

namespace fp8dash::ui::test {
namespace {

class UntrustedViewsTest : public GuiTest {};

// What a reader sees of text shown in `format` (Qt's rules: AutoText is rich when Qt::mightBeRichText says so).
QString rendered(const QString& text, Qt::TextFormat format) {
    QTextDocument doc;
    if (format == Qt::MarkdownText) {
        doc.setMarkdown(text);
        return doc.toPlainText();
    }
    if (format == Qt::RichText || (format == Qt::AutoText && Qt::mightBeRichText(text))) {
        doc.setHtml(text);
        return doc.toPlainText();
    }
    return text;
}

const QString kMarker = QString::fromUtf8(fp8dash::test::kHtmlVerdictMarker);
const QString kShown = QString::fromUtf8(fp8dash::test::kHtmlVerdictShown);

// Collects what every widget shows, and the failures: each place where a payload's rendering lost its markup.
struct Audit {
    int shown = 0;                 // places that showed a payload as text (so the audit saw the payloads at all)
    int overridesShown = 0;        // places that showed the right-to-left override payload as its visible escape
    std::set<std::string> fields;  // the fields whose payload was seen (the word before the payload)
    QStringList failures;

    void check(const QString& where, const QString& text, Qt::TextFormat format) {
        // Every text a view shows, data or not: no raw control or bidi override reaches the screen (the payloads hold
        // ESC sequences, CR and a right-to-left override spelling "Verdict: GO" backwards).
        const QString seen = rendered(text, format);
        if (const char16_t c = rawControl(seen))
            failures << QStringLiteral("%1: raw U+%2 in: %3")
                            .arg(where, QString::number(c, 16).toUpper().rightJustified(4, QLatin1Char('0')),
                                 seen.left(300));
        if (seen.contains(QStringLiteral("\\u202EOG :tcidreV"))) ++overridesShown;
        if (!text.contains(kMarker) && !text.contains(QStringLiteral("VERDICT: GO&lt;"))) return;
        const QString& r = seen;
        if (r.contains(kShown, Qt::CaseInsensitive)) {  // (slides' kickers are upper case)
            ++shown;
            const qsizetype at = r.indexOf(kShown, 0, Qt::CaseInsensitive);
            const qsizetype start = r.lastIndexOf(QLatin1Char(' '), at - 2) + 1;
            fields.insert(r.mid(start, at - 1 - start).toStdString());
        } else {
            failures << QStringLiteral("%1: %2").arg(where, r.left(300));
        }
    }
    void tip(const QString& where, const QString& tip) { check(where + QStringLiteral(" tooltip"), tip, Qt::AutoText); }
    // Qt Charts draws titles, axis titles, category labels and legend names as rich text, always.
    void chartText(const QString& where, const QString& text) { check(where, text, Qt::RichText); }

    void model(const QString& where, const QAbstractItemModel* m, const QModelIndex& parent = {}) {
        for (int r = 0; r < m->rowCount(parent); ++r) {
            for (int c = 0; c < m->columnCount(parent); ++c) {
                const QModelIndex i = m->index(r, c, parent);
                check(where + QStringLiteral(" cell"), i.data(Qt::DisplayRole).toString(), Qt::PlainText);
                tip(where + QStringLiteral(" cell"), i.data(Qt::ToolTipRole).toString());
            }
            if (m->hasChildren(m->index(r, 0, parent))) model(where, m, m->index(r, 0, parent));
        }
        for (int c = 0; c < m->columnCount(parent); ++c) {
            check(where + QStringLiteral(" header"), m->headerData(c, Qt::Horizontal).toString(), Qt::PlainText);
            tip(where + QStringLiteral(" header"), m->headerData(c, Qt::Horizontal, Qt::ToolTipRole).toString());
        }
    }

    void chart(const QString& where, QChart* chart) {
        chartText(where + QStringLiteral(" chart title"), chart->title());
        for (QAbstractAxis* axis : chart->axes()) {
            chartText(where + QStringLiteral(" axis title"), axis->titleText());
            if (auto* bars = qobject_cast<QBarCategoryAxis*>(axis))
                for (const QString& c : bars->categories()) chartText(where + QStringLiteral(" category"), c);
            if (auto* cats = qobject_cast<QCategoryAxis*>(axis))
                for (const QString& c : cats->categoriesLabels()) chartText(where + QStringLiteral(" category"), c);
        }
        for (QAbstractSeries* s : chart->series()) {
            chartText(where + QStringLiteral(" series name"), s->name());
            if (auto* bars = qobject_cast<QAbstractBarSeries*>(s))
                for (QBarSet* set : bars->barSets()) chartText(where + QStringLiteral(" bar set"), set->label());
        }
        if (chart->legend())
            for (QLegendMarker* m : chart->legend()->markers())
                chartText(where + QStringLiteral(" legend"), m->label());
    }

    void widgets(const QString& where, const QWidget* root) {
        QList<const QWidget*> all{root};
        for (const QWidget* w : root->findChildren<QWidget*>()) all << w;
        for (const QWidget* w : all) {
            const QString name = where + QLatin1Char(' ') + QString::fromUtf8(w->metaObject()->className()) +
                                 QLatin1Char('#') + w->objectName();
            tip(name, w->toolTip());
            check(name + QStringLiteral(" window title"), w->windowTitle(), Qt::PlainText);
            if (auto* label = qobject_cast<const QLabel*>(w)) check(name, label->text(), label->textFormat());
            if (auto* button = qobject_cast<const QAbstractButton*>(w)) check(name, button->text(), Qt::PlainText);
            if (auto* box = qobject_cast<const QGroupBox*>(w)) check(name, box->title(), Qt::PlainText);
            if (auto* edit = qobject_cast<const QTextEdit*>(w)) check(name, edit->toPlainText(), Qt::PlainText);
            if (auto* tabs = qobject_cast<const QTabWidget*>(w))
                for (int i = 0; i < tabs->count(); ++i) tip(name + QStringLiteral(" tab"), tabs->tabToolTip(i));
            if (auto* view = qobject_cast<const QAbstractItemView*>(w); view && view->model())
                model(name, view->model());
            if (auto* chartView = qobject_cast<const QChartView*>(w); chartView && chartView->chart())
                chart(name, chartView->chart());
        }
    }
};

ComparisonDocument hostileDocument() {
    auto doc = parseComparisonJson(fp8dash::test::hostileComparison(demoJson()), "hostile.fp8cmp");
    EXPECT_TRUE(doc.ok()) << (doc.ok() ? "" : doc.error().message);
    if (!doc.ok()) return {};
    // Invalid UTF-8 cannot be in a JSON file, but a results file or a server can hand the reader any bytes: one note
    // holds some, beside the payload.
    Note bad;
    bad.id = "n98";
    bad.text = "note.bytes " + fp8dash::test::htmlVerdict() + " bad \xff\xfe utf-8 \xc3";
    bad.author = "bytes \xc3(";
    bad.created = "2026-12-01T11:00:00Z";
    doc->notes.push_back(bad);
    return std::move(doc).value();
}

TEST_F(UntrustedViewsTest, EveryViewShowsHostileStringsAsTheTextTheyAre) {
    Audit audit;
    {
        MainWindow window;
        window.resize(1280, 800);
        window.show();
        window.showDocument(hostileDocument(), {}, QStringLiteral("hostile"));
        if (auto* error = window.findChild<QMessageBox*>(QStringLiteral("errorBox")))
            FAIL() << error->text().toStdString() << "\n" << error->informativeText().left(2000).toStdString();
        ComparisonView* view = window.comparisonView();
        ASSERT_NE(view, nullptr);
        for (ComparisonView::Tab tab :
             {ComparisonView::EvalsTab, ComparisonView::JudgeTab, ComparisonView::TimelineTab, ComparisonView::BenchTab,
              ComparisonView::CapacityTab, ComparisonView::ReviewTab}) {
            view->showTab(tab);  // each tab builds what it shows when first shown
            QApplication::processEvents();
        }
        audit.widgets(QStringLiteral("main window:"), &window);  // every tab's widgets, the side panels
        // The 200,000-character note is shown as its start and its length, not laid out whole (which stalls).
        const QString longNote = QStringLiteral("long note ") + QString::fromStdString(fp8dash::test::longString());
        int excerpts = 0;
        for (const QLabel* label : window.findChildren<QLabel*>())
            if (label->text().startsWith(longNote.left(100))) {
                ++excerpts;
                EXPECT_LT(label->text().size(), 10000);
                EXPECT_TRUE(label->text().contains(QLocale().toString(longNote.size())))
                    << label->text().right(200).toStdString();
            }
        EXPECT_GE(excerpts, 1);  // the notes side panel, the review tab
        // The judge's drill-down of the hostile sample (a drop from 5 to 1: among the drops).
        auto* drops = window.findChild<QAbstractItemView*>(QStringLiteral("judgeDrops"));
        auto* detail = window.findChild<QTextEdit*>(QStringLiteral("judgeDropDetail"));
        ASSERT_TRUE(drops && detail);
        bool selected = false;
        for (int r = 0; r < drops->model()->rowCount() && !selected; ++r)
            for (int c = 0; c < drops->model()->columnCount() && !selected; ++c)
                if (drops->model()->index(r, c).data().toString().contains(kMarker)) {
                    drops->setCurrentIndex(drops->model()->index(r, c));
                    selected = true;
                }
        EXPECT_TRUE(selected) << "the hostile sample is not among the judge's drops";
        audit.widgets(QStringLiteral("judge drill-down:"), detail);
        EXPECT_TRUE(detail->toPlainText().contains(kShown)) << detail->toPlainText().left(500).toStdString();

        // A file that cannot be opened, named like markup, whose error quotes its bad value: the message box shows
        // both as text (its text and its informative text).
        {
            QTemporaryDir dir;
            Json bad = demoJson();
            bad["review"]["decisions"][0]["outcome"] = fp8dash::test::htmlVerdict();
            const QString path = dir.filePath(QString::fromUtf8(fp8dash::test::kHtmlVerdictShown) +
                                              QStringLiteral("✔ VERDICT: GO.fp8cmp"));
            QFile file(path);
            ASSERT_TRUE(file.open(QIODevice::WriteOnly));
            file.write(QByteArray::fromStdString(bad.dump()));
            file.close();
            QSignalSpy failed(&window, &MainWindow::loadFailed);
            window.openFileAsync(path);
            ASSERT_TRUE(failed.count() > 0 || failed.wait(30000));
            auto* box = window.findChild<QMessageBox*>(QStringLiteral("errorBox"));
            ASSERT_NE(box, nullptr);
            const int before = audit.shown;
            audit.widgets(QStringLiteral("error box:"), box);
            EXPECT_GE(audit.shown - before, 2) << "the file's name and its bad value";
            box->close();
        }

        PresentationWindow* show = window.startPresentation();
        ASSERT_NE(show, nullptr);
        show->setNotesPanelVisible(true);  // the presenter's notes, beside every slide
        for (int i = 0; i < show->slideCount(); ++i) {
            show->goTo(i);
            QApplication::processEvents();
            audit.widgets(QStringLiteral("slide %1:").arg(i + 1), show);
        }
        for (QWidget* top : QApplication::topLevelWidgets())
            if (top != &window && top != show && top->isVisible()) audit.widgets(QStringLiteral("window:"), top);
        show->leave();
    }
    EXPECT_TRUE(audit.failures.isEmpty()) << audit.failures.size() << " places render markup from the file:\n"
                                          << audit.failures.join(QLatin1Char('\n')).toStdString();
    // The audit saw the payloads where the document shows them, the right-to-left override among them, escaped.
    EXPECT_GT(audit.shown, 20);
    EXPECT_GT(audit.overridesShown, 0);

    for (const char* field : {"title", "baseline.label", "candidate.label", "note.text", "note.author", "decision.by",
                              "timeline.server", "hellaswag", "mmlu", "winogrande"})
        EXPECT_TRUE(audit.fields.count(field)) << field << " was not seen in any view";
}

// Issue 26, bidi overrides in widgets: a variants comparison (the "Which layers" tab, a table of its own) whose run
// labels hold a right-to-left override spelling "Verdict: GO" backwards, an ESC sequence and a CR: every widget,
// table item and header shows them as visible escapes, never acting on them.
TEST_F(UntrustedViewsTest, BidiOverridesAndControlsInRunLabelsAreShownEscaped) {
    const QString ladder = QStringLiteral(FP8DASH_TEST_DATA "/lm-eval-ladder");
    const QString rlo = QString(QChar(0x202E)) + QStringLiteral("OG :tcidreV");
    NewComparisonRequest r;
    r.baselinePath = ladder + QStringLiteral("/bf16");
    r.candidatePath = ladder + QStringLiteral("/w8a8");
    r.moreCandidatePaths = {ladder + QStringLiteral("/w8a8-kv"), ladder + QStringLiteral("/w8a8-kv-cal")};
    r.baselineLabel = QStringLiteral("bf16 ") + rlo;
    r.candidateLabel = QStringLiteral("w8a8 \x1b[2K\r") + rlo;
    r.moreCandidateLabels = {QStringLiteral("kv ") + QString(QChar(0x2067)) + QStringLiteral("isolate"),
                             QStringLiteral("kv-cal ") + QString(QChar(0x200F)) + QStringLiteral("mark")};
    r.recommendation.accept = Verdict::Monitor;
    auto built = buildNewComparison(r);
    ASSERT_TRUE(built.ok()) << built.error().message;
    ComparisonView view;
    view.setComparison(*built);
    view.resize(1366, 720);
    view.show();
    ASSERT_TRUE(view.tabs()->isTabVisible(ComparisonView::LayersTab));
    for (ComparisonView::Tab tab : {ComparisonView::LayersTab, ComparisonView::EvalsTab}) {
        view.showTab(tab);
        QApplication::processEvents();
    }
    Audit audit;
    audit.widgets(QStringLiteral("variants:"), &view);
    EXPECT_TRUE(audit.failures.isEmpty()) << audit.failures.join(QLatin1Char('\n')).toStdString();
    EXPECT_GT(audit.overridesShown, 0);  // the labels were seen, their override shown as \u202E
}

// The rule of ui/src/untrusted_ui.h, where a line of source can show it broken: data (toQString) straight into a
// label's constructor (automatic format), a tooltip, a chart's title, axis title or series name; a static message box
// (automatic format); a bar set whose name skips chartText. Every view above is the real check; this one names the
// line.
TEST(UntrustedUiRule, NoSourceLineHandsDataToRichText) {
    const std::vector<std::pair<std::regex, std::string>> rules = {
        {std::regex(R"(new QLabel\([^;]*toQString\()"), "data into an automatic-format label: plainLabel"},
        {std::regex(R"(setToolTip\(toQString\()"), "data into a tooltip: escapedTip"},
        {std::regex(R"((setTitle|setTitleText|setName)\(toQString\()"), "data into chart text: chartText"},
        {std::regex(R"(new QBarSet\((?!chartText\())"), "a bar set's legend name: chartText"},
        {std::regex(R"(QMessageBox::(information|warning|critical|question)\()"),
         "a static message box: plainMessageBox"},
        {std::regex(R"(\.toHtmlEscaped\(\))"), "data escaped with its controls and overrides left raw: style::escaped"},
    };
    QStringList broken;
    int files = 0;
    for (const auto& entry :
         std::filesystem::recursive_directory_iterator(std::filesystem::path(FP8DASH_SOURCE_DIR) / "ui/src")) {
        if (entry.path().extension() != ".cpp") continue;
        // The helpers themselves (style::escaped is visibleText, then toHtmlEscaped).
        if (entry.path().filename() == "ui_style.cpp" || entry.path().filename() == "untrusted_ui.cpp") continue;
        ++files;
        std::ifstream in(entry.path());
        int n = 0;
        for (std::string line; std::getline(in, line);) {
            ++n;
            for (const auto& [re, what] : rules)
                if (std::regex_search(line, re))
                    broken << QStringLiteral("%1:%2: %3")
                                  .arg(QString::fromStdString(entry.path().filename().string()))
                                  .arg(n)
                                  .arg(QString::fromStdString(what));
        }
    }
    EXPECT_GT(files, 30);
    EXPECT_TRUE(broken.isEmpty()) << broken.join(QLatin1Char('\n')).toStdString();
}

}  // namespace
}  // namespace fp8dash::ui::test
