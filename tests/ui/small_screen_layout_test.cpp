// Issue 39, 1366 × 768 and 1920 × 1080: the real MainWindow on those screens (this test program run again on the
// offscreen platform configured with one screen of that size), on the W8A8 / +KV / +calibrated-KV ladder
// (tests/data/lm-eval-ladder, with sample logs, so the paired columns show) and the Qwen3.5-27B variants
// (tests/data/lm-eval-variants/qwen3.5-27b). Checked: the banner's Details are reachable whole (they scroll inside the
// banner, and the table below keeps its rows); the Verdict column's header section lies inside the table's viewport
// with the paired columns shown, for every candidate; a long run label's header has the whole label in its tooltip;
// the side panel's labels wrap instead of being cut; the Changed Answers window fits the screen.
// FP8DASH_SCREENSHOT_DIR, when set, receives pictures in both themes, banner collapsed and expanded.
#include <QApplication>
#include <QComboBox>
#include <QFontMetrics>
#include <QHeaderView>
#include <QLabel>
#include <QScreen>
#include <QScrollArea>
#include <QScrollBar>
#include <QTest>
#include <QTextDocument>
#include <QTextDocumentFragment>
#include <QTreeView>

#include <cstdio>

#include "fp8dash/ui/changed_answers_dialog.h"
#include "fp8dash/ui/comparison_view.h"
#include "fp8dash/ui/export_actions.h"
#include "fp8dash/ui/loaded_comparison.h"
#include "fp8dash/ui/main_window.h"
#include "fp8dash/ui/screen_fit.h"
#include "fp8dash/ui/task_table_model.h"
#include "fp8dash/ui/task_table_view.h"
#include "fp8dash/ui/theme.h"
#include "fp8dash/ui/verdict_banner.h"
#include "gui_test_support.h"

namespace fp8dash::ui::test {
namespace {

const QString kLayoutLadder = QStringLiteral(FP8DASH_TEST_DATA "/lm-eval-ladder");
const QString kLayoutQwen = QStringLiteral(FP8DASH_TEST_DATA "/lm-eval-variants/qwen3.5-27b");
const QString kChildVariable = QStringLiteral("FP8DASH_SMALL_SCREEN_CHILD");

class SmallScreenLayoutTest : public GuiTest {
protected:
    void TearDown() override { Theme::instance()->setMode(ThemeMode::Light); }
};

// The ladder's four runs, or the Qwen set's, as New Comparison builds them (labels derived from each run's layers).
LoadedComparison layoutVariants(const QString& folder, const QStringList& runs) {
    NewComparisonRequest r;
    r.baselinePath = folder + QLatin1Char('/') + runs[0];
    r.candidatePath = folder + QLatin1Char('/') + runs[1];
    r.baselineLabel = QString();
    r.candidateLabel = QString();
    for (int i = 2; i < runs.size(); ++i) {
        r.moreCandidatePaths << folder + QLatin1Char('/') + runs[i];
        r.moreCandidateLabels << QString();
    }
    auto built = buildNewComparison(r);
    EXPECT_TRUE(built.ok()) << (built.ok() ? "" : built.error().message);
    return built.ok() ? std::move(built).value() : LoadedComparison{};
}

LoadedComparison layoutLadder() {
    return layoutVariants(kLayoutLadder, {QStringLiteral("bf16"), QStringLiteral("w8a8"), QStringLiteral("w8a8-kv"),
                                          QStringLiteral("w8a8-kv-cal")});
}
LoadedComparison layoutQwen() {
    return layoutVariants(kLayoutQwen, {QStringLiteral("bf16"), QStringLiteral("fp8-weights"), QStringLiteral("fp8-kv"),
                                        QStringLiteral("fp8-weights-kv")});
}

struct LayoutWindow {
    MainWindow window;
    ComparisonView* view = nullptr;
    QTreeView* tree = nullptr;
    VerdictBanner* banner = nullptr;
    // The comparison shown; nullptr: the bundled demo.
    explicit LayoutWindow(const LoadedComparison* loaded, const QString& name = {}) {
        window.setGeometry(firstStartGeometry(QGuiApplication::primaryScreen()->availableGeometry()));
        window.show();
        if (loaded) {
            window.showDocument(loaded->document, {}, name);
        } else {
            window.openDemo();
        }
        view = window.comparisonView();
        view->showTab(ComparisonView::EvalsTab);
        tree = view->taskTable()->treeView();
        banner = view->verdictBanner();
        banner->setDetailsShown(false);
    }
};

void settle() {
    for (int i = 0; i < 3; ++i) {
        QTest::qWait(0);
        QApplication::processEvents();
    }
}

// The Verdict column's header section lies inside the table's viewport, not scrolled sideways.
void expectVerdictInView(const QTreeView* tree, const QString& what) {
    SCOPED_TRACE(what.toStdString());
    const QHeaderView* header = tree->header();
    EXPECT_FALSE(tree->isColumnHidden(TaskTableModel::VerdictColumn));
    EXPECT_EQ(tree->horizontalScrollBar()->value(), 0);
    const int at = header->sectionViewportPosition(TaskTableModel::VerdictColumn);
    const int size = header->sectionSize(TaskTableModel::VerdictColumn);
    EXPECT_GE(at, 0);
    EXPECT_LE(at + size, tree->viewport()->width())
        << "Verdict at " << at << " + " << size << ", viewport " << tree->viewport()->width();
    // Wide enough for its words, as the tree sizes it to its contents.
    EXPECT_GE(size, tree->fontMetrics().horizontalAdvance(QStringLiteral("GO")));
}

// Every visible label of the side panel shows its whole text: a wrapped one is as tall as its text needs at its width
// and no narrower than its longest word; an unwrapped one as wide as its text; and it lies inside the panel's width.
void expectSideLabelsWhole(const ComparisonView* view, const QString& what) {
    SCOPED_TRACE(what.toStdString());
    const auto* side = view->findChild<QScrollArea*>(QStringLiteral("sidePanel"));
    ASSERT_NE(side, nullptr);
    const int panelWidth = side->viewport()->width();
    int checked = 0;
    for (const QLabel* label : side->widget()->findChildren<QLabel*>()) {
        if (!label->isVisible() || label->text().isEmpty()) continue;
        ++checked;
        const QString text = label->textFormat() == Qt::RichText
                                 ? QTextDocumentFragment::fromHtml(label->text()).toPlainText()
                                 : label->text();
        SCOPED_TRACE(text.toStdString());
        const QRect inPanel(label->mapTo(side->widget(), QPoint()), label->size());
        EXPECT_LE(inPanel.right(), panelWidth) << "the label reaches past the panel";
        if (label->wordWrap()) {
            EXPECT_LE(label->minimumSizeHint().width(), label->width());
            EXPECT_LE(label->heightForWidth(label->width()), label->height());
        } else {
            EXPECT_LE(label->sizeHint().width(), label->width());
        }
    }
    EXPECT_GT(checked, 5);
}

// The details scroll inside the banner, no taller than its share of the window; the reasons label (the last reason
// and the glossary links) lies whole inside the scrolled content, and scrolled to the end its bottom is in view.
void expectDetailsReachable(LayoutWindow& w, const QString& what) {
    SCOPED_TRACE(what.toStdString());
    w.banner->setDetailsShown(true);
    settle();
    auto* scroll = w.banner->findChild<QScrollArea*>(QStringLiteral("bannerDetailsScroll"));
    ASSERT_NE(scroll, nullptr);
    auto* reasons = w.banner->findChild<QLabel*>(QStringLiteral("bannerReasons"));
    ASSERT_NE(reasons, nullptr);
    ASSERT_TRUE(reasons->isVisible());
    ASSERT_TRUE(scroll->widget()->isAncestorOf(reasons));
    // The last reason the banner lists is in that label.
    const QStringList listed = w.banner->reasonsText().split(QLatin1Char('\n'));
    ASSERT_FALSE(listed.isEmpty());
    EXPECT_TRUE(QTextDocumentFragment::fromHtml(reasons->text()).toPlainText().contains(listed.back()))
        << listed.back().toStdString();
    // Nothing is squeezed: the label has the height its wrapped text needs (computed here with a text document of the
    // label's text at its width), the content the height its layout needs.
    QTextDocument doc;
    doc.setDefaultFont(reasons->font());
    doc.setDocumentMargin(0);
    doc.setHtml(reasons->text());
    doc.setTextWidth(reasons->contentsRect().width());
    EXPECT_GE(reasons->contentsRect().height() + 2, static_cast<int>(doc.size().height()));
    EXPECT_GE(scroll->widget()->height(), scroll->widget()->heightForWidth(scroll->widget()->width()));
    // The banner leaves room: the scroll area is at most 30 % of the window, the table keeps two rows in view (the
    // demo at 1366 × 768, its offline notice shown, has the least room).
    EXPECT_LE(scroll->height(), w.window.height() * 30 / 100);
    const QModelIndex first = w.tree->model()->index(0, 0);
    EXPECT_GE(w.tree->viewport()->height(), 2 * w.tree->visualRect(first).height())
        << "table viewport " << w.tree->viewport()->height();
    // Scrolled to the end, the reasons' last line is in view.
    scroll->verticalScrollBar()->setValue(scroll->verticalScrollBar()->maximum());
    settle();
    const int bottom = reasons->mapTo(scroll->viewport(), QPoint(0, reasons->height())).y();
    EXPECT_LE(bottom, scroll->viewport()->height());
    EXPECT_GE(bottom, 0);
    // The whole scroll area lies inside the window.
    const QRect inWindow(scroll->mapTo(&w.window, QPoint()), scroll->size());
    EXPECT_TRUE(w.window.rect().contains(inWindow));
    scroll->verticalScrollBar()->setValue(0);
}

bool anyPaired(const ComparisonReport& report) {
    for (const TaskComparison& t : report.tasks)
        if (t.paired && t.paired->changed && t.paired->changed->n() > 0) return true;
    return false;
}

void shoot(LayoutWindow& w, const QString& name) {
    for (ThemeMode mode : {ThemeMode::Light, ThemeMode::Dark}) {
        Theme::instance()->setMode(mode);
        const QString theme = mode == ThemeMode::Dark ? QStringLiteral("dark") : QStringLiteral("light");
        for (bool expanded : {false, true}) {
            w.banner->setDetailsShown(expanded);
            settle();
            saveScreenshot(w.window,
                           QStringLiteral("%1-%2-%3.png")
                               .arg(name, theme, expanded ? QStringLiteral("details") : QStringLiteral("collapsed")));
        }
    }
    Theme::instance()->setMode(ThemeMode::Light);
    w.banner->setDetailsShown(false);
    settle();
}

void checkLadder(const QString& size) {
    const LoadedComparison loaded = layoutLadder();
    ASSERT_TRUE(loaded.decision.variants.has_value());
    const VariantComparison& variants = *loaded.decision.variants;
    ASSERT_EQ(variants.variants.size(), 3u);
    LayoutWindow w(&loaded, QStringLiteral("ladder"));
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&w.window));
    settle();
    auto* picker = w.view->findChild<QComboBox*>(QStringLiteral("candidatePicker"));
    ASSERT_NE(picker, nullptr);
    ASSERT_EQ(picker->count(), 3);
    for (int i = 0; i < picker->count(); ++i) {
        picker->setCurrentIndex(i);
        settle();
        const ComparisonReport& report = variants.variants[static_cast<std::size_t>(i)].report;
        const QString label = QString::fromStdString(report.candidateLabel);
        const QString what = size + QStringLiteral(" ladder, candidate ") + label;
        // The ladder's runs have sample logs: the paired columns have data and stay shown.
        ASSERT_TRUE(anyPaired(report)) << what.toStdString();
        EXPECT_FALSE(w.tree->isColumnHidden(TaskTableModel::PairedPColumn)) << what.toStdString();
        EXPECT_FALSE(w.tree->isColumnHidden(TaskTableModel::ChangedColumn)) << what.toStdString();
        expectVerdictInView(w.tree, what);
        // The candidate's column: its header's tooltip has the whole label, however short the header is.
        const QString tip =
            w.tree->model()->headerData(TaskTableModel::CandidateColumn, Qt::Horizontal, Qt::ToolTipRole).toString();
        EXPECT_TRUE(QTextDocumentFragment::fromHtml(tip).toPlainText().contains(label)) << tip.toStdString();
        expectSideLabelsWhole(w.view, what);
        // A column hidden for room is still in Copy and the CSV export: every column with data is.
        const QList<int> exported = exporting::visibleColumns(w.tree);
        for (int c = 0; c < TaskTableModel::ColumnCount; ++c) {
            if (w.view->taskTable()->model()->columnHasData(c)) {
                EXPECT_TRUE(exported.contains(c)) << what.toStdString() << " column " << c;
            }
        }
    }
    // The longest label, shown: the longest of the three.
    picker->setCurrentIndex(2);
    settle();
    shoot(w, QStringLiteral("evals-ladder-%1").arg(size));
    expectDetailsReachable(w, size + QStringLiteral(" ladder"));
    expectVerdictInView(w.tree, size + QStringLiteral(" ladder, details shown"));
    w.banner->setDetailsShown(false);
    settle();
}

void checkQwen(const QString& size) {
    const LoadedComparison loaded = layoutQwen();
    ASSERT_TRUE(loaded.decision.variants.has_value());
    LayoutWindow w(&loaded, QStringLiteral("qwen"));
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&w.window));
    settle();
    auto* picker = w.view->findChild<QComboBox*>(QStringLiteral("candidatePicker"));
    ASSERT_NE(picker, nullptr);
    for (int i = 0; i < picker->count(); ++i) {
        picker->setCurrentIndex(i);
        settle();
        const QString what = size + QStringLiteral(" Qwen3.5, candidate ") + picker->currentText();
        expectVerdictInView(w.tree, what);
        expectSideLabelsWhole(w.view, what);
    }
    shoot(w, QStringLiteral("evals-qwen-%1").arg(size));
    expectDetailsReachable(w, size + QStringLiteral(" Qwen3.5"));
    w.banner->setDetailsShown(false);
}

// The bundled demo holds evals, judge scores and a timeline: its Details are the longest, and at 1366 × 768 taller than
// the share of the window they may take, so they scroll.
void checkDemoDetails(const QString& size, bool capped) {
    LayoutWindow w(nullptr);
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&w.window));
    settle();
    expectDetailsReachable(w, size + QStringLiteral(" demo"));
    auto* scroll = w.banner->findChild<QScrollArea*>(QStringLiteral("bannerDetailsScroll"));
    ASSERT_NE(scroll, nullptr);
    EXPECT_EQ(scroll->verticalScrollBar()->maximum() > 0, capped)
        << "details " << scroll->widget()->height() << " in " << scroll->viewport()->height();
    scroll->verticalScrollBar()->setValue(scroll->verticalScrollBar()->maximum());
    settle();
    saveScreenshot(w.window, QStringLiteral("demo-%1-details-scrolled.png").arg(size));
    w.banner->setDetailsShown(false);
}

// The Changed Answers window of the ladder's gsm8k on this screen: within the available geometry, with room left
// for a window manager's title bar above it (the offscreen platform draws none).
void checkChangedAnswers() {
    const LoadedComparison loaded = layoutLadder();
    LayoutWindow w(&loaded, QStringLiteral("ladder"));
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&w.window));
    settle();
    const QModelIndex gsm8k = findTaskRow(w.tree->model(), QStringLiteral("gsm8k"));
    ASSERT_TRUE(gsm8k.isValid());
    ChangedAnswersDialog* dialog = w.view->taskTable()->openChangedAnswers(gsm8k);
    ASSERT_NE(dialog, nullptr);
    ASSERT_TRUE(QTest::qWaitForWindowExposed(dialog));
    settle();
    const QRect available = dialog->screen()->availableGeometry();
    const QRect frame = dialog->frameGeometry();
    EXPECT_TRUE(available.contains(frame))
        << frame.x() << "," << frame.y() << " " << frame.width() << " × " << frame.height();
    constexpr int kTitleBar = 32;
    EXPECT_LE(frame.height() + kTitleBar, available.height())
        << "minimum " << dialog->minimumSizeHint().height() << ", size hint " << dialog->sizeHint().height()
        << ", minimumHeight " << dialog->minimumHeight() << ", geometry " << dialog->geometry().height() << " at "
        << dialog->geometry().y() << ", available " << available.height();
    saveScreenshot(*dialog, QStringLiteral("changed-answers-%1x%2.png").arg(available.width()).arg(available.height()));
    dialog->close();
}

// Run by OnALaptopScreen in a process of its own whose offscreen screen is 1366 × 768.
TEST_F(SmallScreenLayoutTest, ChildOnALaptopScreen) {
    if (qEnvironmentVariableIsEmpty(kChildVariable.toUtf8().constData())) GTEST_SKIP() << "run by OnALaptopScreen";
    ASSERT_EQ(QGuiApplication::primaryScreen()->geometry(), QRect(0, 0, 1366, 768));
    checkLadder(QStringLiteral("1366x768"));
    checkQwen(QStringLiteral("1366x768"));
    checkDemoDetails(QStringLiteral("1366x768"), true);
    checkChangedAnswers();
    std::printf("fp8dash-small-screen-child-done\n");
}

TEST_F(SmallScreenLayoutTest, OnALaptopScreen) {
    if (!qEnvironmentVariableIsEmpty(kChildVariable.toUtf8().constData())) GTEST_SKIP() << "the child itself";
    runChildOnScreens(R"({"screens": [
        {"name": "laptop", "x": 0, "y": 0, "width": 1366, "height": 768, "logicalDpi": 96, "dpr": 1.0}]})",
                      kChildVariable, QStringLiteral("SmallScreenLayoutTest.ChildOnALaptopScreen"),
                      QStringLiteral("fp8dash-small-screen-child-done"));
}

// Run by OnALargeScreen on a 1920 × 1080 screen: the same checks; there nothing yields for room.
TEST_F(SmallScreenLayoutTest, ChildOnALargeScreen) {
    if (qEnvironmentVariableIsEmpty(kChildVariable.toUtf8().constData())) GTEST_SKIP() << "run by OnALargeScreen";
    ASSERT_EQ(QGuiApplication::primaryScreen()->geometry(), QRect(0, 0, 1920, 1080));
    checkLadder(QStringLiteral("1920x1080"));
    checkQwen(QStringLiteral("1920x1080"));
    {
        const LoadedComparison loaded = layoutLadder();
        LayoutWindow w(&loaded, QStringLiteral("ladder"));
        ASSERT_TRUE(QTest::qWaitForWindowExposed(&w.window));
        settle();
        EXPECT_TRUE(w.view->taskTable()->columnsHiddenForRoom().isEmpty())
            << w.view->taskTable()->columnsHiddenForRoom().join(QStringLiteral(", ")).toStdString();
    }
    checkDemoDetails(QStringLiteral("1920x1080"), false);
    checkChangedAnswers();
    std::printf("fp8dash-large-screen-child-done\n");
}

TEST_F(SmallScreenLayoutTest, OnALargeScreen) {
    if (!qEnvironmentVariableIsEmpty(kChildVariable.toUtf8().constData())) GTEST_SKIP() << "the child itself";
    runChildOnScreens(R"({"screens": [
        {"name": "desktop", "x": 0, "y": 0, "width": 1920, "height": 1080, "logicalDpi": 96, "dpr": 1.0}]})",
                      kChildVariable, QStringLiteral("SmallScreenLayoutTest.ChildOnALargeScreen"),
                      QStringLiteral("fp8dash-large-screen-child-done"));
}

}  // namespace
}  // namespace fp8dash::ui::test
