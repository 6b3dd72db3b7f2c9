// The user's place survives a theme switch, a re-evaluation and a refresh of the same comparison: the views repaint
// in place (theme.h's protocol) instead of being rebuilt. Each test sets some view state, switches the theme both
// ways (and through "System" following a simulated desktop colour-scheme signal), re-evaluates, and finds the same
// state, with no model reset on the way.
#include <QAbstractItemModel>
#include <QApplication>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QDBusVariant>
#include <QDir>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QLineSeries>
#include <QRegularExpression>
#include <QScrollArea>
#include <QScrollBar>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTabWidget>
#include <QTreeView>
#include <QtTest>

#include "fp8dash/core/demo.h"
#include "fp8dash/core/lm_eval_results.h"
#include "fp8dash/ui/comparison_view.h"
#include "fp8dash/ui/fp8_layers_panel.h"
#include "fp8dash/ui/long_context_panel.h"
#include "fp8dash/ui/main_window.h"
#include "fp8dash/ui/presentation_slide_view.h"
#include "fp8dash/ui/presentation_window.h"
#include "fp8dash/ui/review_view.h"
#include "fp8dash/ui/task_table_model.h"
#include "fp8dash/ui/task_table_view.h"
#include "fp8dash/ui/theme.h"
#include "fp8dash/ui/timeline_chart_view.h"
#include "fp8dash/ui/timeline_view.h"
#include "fp8dash/ui/verdict_banner.h"
#include "gui_test_support.h"
#include "timeline_test_data.h"

namespace fp8dash::ui::test {
namespace {

class ViewStateTest : public GuiTest {
protected:
    // Views and models follow theme changes only where the application's Theme exists (style::onThemeChange), as
    // MainWindow makes sure by creating it before its views. A test that builds a model on its own does the same, so
    // it passes alone (ctest runs each test in a process of its own) as well as after others that created the Theme.
    void SetUp() override {
        GuiTest::SetUp();
        Theme::instance();
    }
    void TearDown() override {
        Theme::instance()->followSystemColorScheme(0);  // the desktop says nothing again
        Theme::instance()->setMode(ThemeMode::System);
    }
};

bool isDarkColour(const QColor& c) {
    return c.isValid() && c.lightness() < 100;
}
bool isLightColour(const QColor& c) {
    return c.isValid() && c.lightness() > 180;
}

// What a user sees of the task table, by task name (rows are looked up again each time, never held).
struct TableState {
    QStringList expanded;
    QStringList selected;
    QString current;
    int sortColumn = -1;
    Qt::SortOrder sortOrder = Qt::AscendingOrder;
    QString filter;
    int scroll = 0;
    QStringList rowOrder;  // the visible rows, top to bottom

    bool operator==(const TableState&) const = default;
};

void collect(const QTreeView* tree, const QModelIndex& parent, TableState& s) {
    const QAbstractItemModel* model = tree->model();
    for (int r = 0; r < model->rowCount(parent); ++r) {
        const QModelIndex row = model->index(r, 0, parent);
        const QString name = row.data(TaskTableModel::TaskNameRole).toString();
        s.rowOrder << name;
        if (tree->isExpanded(row)) {
            s.expanded << name;
            collect(tree, row, s);
        }
    }
}

TableState tableState(const TaskTableView* table) {
    const QTreeView* tree = table->treeView();
    TableState s;
    collect(tree, {}, s);
    for (const QModelIndex& row : tree->selectionModel()->selectedRows()) {
        s.selected << row.data(TaskTableModel::TaskNameRole).toString();
    }
    s.selected.sort();
    s.current = tree->currentIndex().data(TaskTableModel::TaskNameRole).toString();
    s.sortColumn = tree->header()->sortIndicatorSection();
    s.sortOrder = tree->header()->sortIndicatorOrder();
    s.filter = table->filterEdit()->text();
    s.scroll = tree->verticalScrollBar()->value();
    return s;
}

std::string describe(const TableState& s) {
    return QStringLiteral("expanded [%1] selected [%2] current %3 sort %4/%5 filter '%6' scroll %7 rows %8")
        .arg(s.expanded.join(QLatin1Char(',')), s.selected.join(QLatin1Char(',')), s.current)
        .arg(s.sortColumn)
        .arg(static_cast<int>(s.sortOrder))
        .arg(s.filter)
        .arg(s.scroll)
        .arg(s.rowOrder.size())
        .toStdString();
}

QModelIndex rowNamed(const QTreeView* tree, const QString& name, const QModelIndex& parent = {}) {
    const QAbstractItemModel* model = tree->model();
    for (int r = 0; r < model->rowCount(parent); ++r) {
        const QModelIndex row = model->index(r, 0, parent);
        if (row.data(TaskTableModel::TaskNameRole).toString() == name) return row;
        if (const QModelIndex below = rowNamed(tree, name, row); below.isValid()) return below;
    }
    return {};
}

QColor verdictCellColour(const TaskTableView* table, const QString& task) {
    const QModelIndex row = rowNamed(table->treeView(), task);
    return row.siblingAtColumn(TaskTableModel::VerdictColumn).data(Qt::BackgroundRole).value<QColor>();
}

// The evals of the real mmlu fixtures (a group of 4 categories, 57 subjects) with the day-long production timeline.
std::optional<ComparisonDocument> mmluWithTimeline() {
    const std::string baseline = sharedFixture("lm-eval/llama3-8b-instruct_mmlu_v0.4.2.json");
    const std::string candidate = sharedFixture("lm-eval/llama3-8b-base_mmlu_v0.4.2.json");
    if (baseline.empty() || candidate.empty()) return std::nullopt;
    ComparisonDocument doc = documentFromRuns(baseline, candidate, "Instruct", "Base");
    doc.timeline = dayTimeline();
    return doc;
}

// The made RULER pair of tests/data (per-length tasks): what the long-context panel draws.
ComparisonReport longContextReport() {
    const std::string dir = std::string(FP8DASH_TEST_DATA) + "/lm-eval-ruler/";
    auto b = readLmEvalPath(dir + "llama3.1-8b-instruct_ruler_bf16.json");
    auto c = readLmEvalPath(dir + "llama3.1-8b-instruct_ruler_fp8kv.json");
    EXPECT_TRUE(b && c);
    auto loaded =
        evaluateForDisplay(makeComparisonDocument({"BF16", "", *b}, {"FP8", "", *c}, {}), QStringLiteral("ruler"));
    EXPECT_TRUE(loaded.ok());
    return loaded.value().report;
}

void saveShot(QWidget& window, const QString& name) {
    const QString dir = qEnvironmentVariable("FP8DASH_THEME_SHOTS");
    if (dir.isEmpty()) return;
    QDir().mkpath(dir);
    EXPECT_TRUE(window.grab().save(QDir(dir).filePath(name + QStringLiteral(".png")))) << name.toStdString();
}

// The state a user built: mmlu and two of its categories expanded (the others not), sorted by Δ% descending, two
// rows selected with one current, scrolled down, the timeline zoomed into the morning and panned.
void buildPlace(MainWindow& window) {
    TaskTableView* table = window.comparisonView()->taskTable();
    QTreeView* tree = table->treeView();
    tree->sortByColumn(TaskTableModel::DeltaColumn, Qt::DescendingOrder);
    for (const char* name : {"mmlu", "mmlu_stem", "mmlu_humanities"}) {
        const QModelIndex row = rowNamed(tree, QString::fromLatin1(name));
        ASSERT_TRUE(row.isValid()) << name;
        tree->expand(row);
    }
    const QModelIndex current = rowNamed(tree, QStringLiteral("mmlu_college_physics"));
    const QModelIndex other = rowNamed(tree, QStringLiteral("mmlu_stem"));
    ASSERT_TRUE(current.isValid() && other.isValid());
    tree->selectionModel()->select(other, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    tree->selectionModel()->setCurrentIndex(current, QItemSelectionModel::Select | QItemSelectionModel::Rows);
    QApplication::processEvents();
    QScrollBar* bar = tree->verticalScrollBar();
    ASSERT_GT(bar->maximum(), 10) << "the table is not long enough to scroll";
    bar->setValue(bar->maximum() / 2);

    TimelineView* timeline = window.comparisonView()->timelineView();
    const auto [from, to] = timeline->fullRange();
    timeline->zoomTo(from + 3 * 3600, from + 9 * 3600);
    timeline->panBy(0.25);
}

// The model: a report with the same rows updates them in place (persistent indexes stay, no reset); other rows reset;
// a theme change is dataChanged for the colour roles over every row, subtasks included.
TEST_F(ViewStateTest, TaskModelUpdatesSameRowsInPlaceAndRepaintsOnThemeChange) {
    const auto doc = mmluWithTimeline();
    if (!doc) GTEST_SKIP() << "shared fixtures not found";
    auto loaded = evaluateForDisplay(*doc, QStringLiteral("mmlu"));
    ASSERT_TRUE(loaded.ok());
    ComparisonReport report = loaded.value().report;
    ASSERT_EQ(report.tasks.size(), 1u);  // mmlu, with its categories and subjects below

    TaskTableModel model;
    model.setReport(report);
    QSignalSpy resets(&model, &QAbstractItemModel::modelAboutToBeReset);
    QSignalSpy changes(&model, &QAbstractItemModel::dataChanged);
    const QModelIndex mmluNow = findTaskRow(&model, QStringLiteral("mmlu"));
    const QPersistentModelIndex stem(findTaskRow(&model, QStringLiteral("mmlu_stem"), mmluNow));
    ASSERT_TRUE(stem.isValid());
    const int stemRow = stem.row();

    // A re-evaluation: the same tasks, another verdict for mmlu_stem.
    ComparisonReport again = report;
    TaskComparison& stemTask = again.tasks[0].subtasks[static_cast<std::size_t>(stemRow)];
    ASSERT_EQ(stemTask.task, "mmlu_stem");
    stemTask.verdict = stemTask.verdict == Verdict::Investigate ? Verdict::Go : Verdict::Investigate;
    model.setReport(again);
    EXPECT_EQ(resets.count(), 0);
    ASSERT_TRUE(stem.isValid());
    EXPECT_EQ(stem.data(TaskTableModel::TaskNameRole).toString(), QStringLiteral("mmlu_stem"));
    EXPECT_EQ(stem.data(TaskTableModel::VerdictRole).toInt(), static_cast<int>(stemTask.verdict));
    EXPECT_FALSE(changes.isEmpty());

    // A theme change: only the colour roles, over the top level, the categories and the subjects.
    changes.clear();
    Theme::instance()->setMode(Theme::instance()->isDark() ? ThemeMode::Light : ThemeMode::Dark);
    EXPECT_EQ(resets.count(), 0);
    int rowsCovered = 0;
    for (const QList<QVariant>& args : changes) {
        const auto topLeft = args.at(0).value<QModelIndex>();
        const auto bottomRight = args.at(1).value<QModelIndex>();
        const auto roles = args.at(2).value<QList<int>>();
        EXPECT_TRUE(roles.contains(Qt::BackgroundRole) && roles.contains(Qt::ForegroundRole));
        EXPECT_FALSE(roles.contains(TaskTableModel::SortRole));  // nothing to sort again
        EXPECT_EQ(topLeft.column(), 0);
        EXPECT_EQ(bottomRight.column(), TaskTableModel::ColumnCount - 1);
        rowsCovered += bottomRight.row() - topLeft.row() + 1;
    }
    EXPECT_EQ(rowsCovered, 1 + 4 + 57);  // mmlu, its 4 categories, their 57 subjects

    // Other rows: a reset (the persistent index goes).
    ComparisonReport fewer = report;
    fewer.tasks[0].subtasks.pop_back();
    model.setReport(fewer);
    EXPECT_EQ(resets.count(), 1);
    EXPECT_FALSE(stem.isValid());
}

// Rows that changed (a refresh that dropped a subject) reset the model; the table brings back the expanded groups,
// the selection, the current row and the scroll position by task name.
TEST_F(ViewStateTest, TaskTableKeepsItsPlaceByNameThroughAReset) {
    const auto doc = mmluWithTimeline();
    if (!doc) GTEST_SKIP() << "shared fixtures not found";
    auto loaded = evaluateForDisplay(*doc, QStringLiteral("mmlu"));
    ASSERT_TRUE(loaded.ok());
    const ComparisonReport report = loaded.value().report;
    TaskTableView table;
    table.resize(900, 360);
    table.show();
    table.setReport(report);
    QTreeView* tree = table.treeView();
    tree->sortByColumn(TaskTableModel::DeltaColumn, Qt::AscendingOrder);
    for (const char* name : {"mmlu", "mmlu_stem", "mmlu_other"})
        tree->expand(rowNamed(tree, QString::fromLatin1(name)));
    const QModelIndex current = rowNamed(tree, QStringLiteral("mmlu_virology"));
    ASSERT_TRUE(current.isValid());
    tree->selectionModel()->setCurrentIndex(current, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    tree->selectionModel()->select(rowNamed(tree, QStringLiteral("mmlu_anatomy")),
                                   QItemSelectionModel::Select | QItemSelectionModel::Rows);
    QApplication::processEvents();
    ASSERT_GT(tree->verticalScrollBar()->maximum(), 5);
    tree->verticalScrollBar()->setValue(5);
    const TableState before = tableState(&table);

    // The humanities lose their last subject (not expanded, not selected: the rest is the same place).
    ComparisonReport fewer = report;
    TaskComparison* humanities = nullptr;
    for (TaskComparison& c : fewer.tasks[0].subtasks) {
        if (c.task == "mmlu_humanities") humanities = &c;
    }
    ASSERT_NE(humanities, nullptr);
    humanities->subtasks.pop_back();
    QSignalSpy resets(table.model(), &QAbstractItemModel::modelAboutToBeReset);
    table.setReport(fewer);
    QApplication::processEvents();
    EXPECT_EQ(resets.count(), 1);
    TableState now = tableState(&table);
    EXPECT_EQ(now.rowOrder.size(), before.rowOrder.size());  // the dropped subject was not on show
    EXPECT_EQ(now, before) << "before: " << describe(before) << "\nnow:    " << describe(now);
}

// The scenario of the issue: a user who expanded mmlu, sorted by Δ%, selected rows, scrolled and zoomed the timeline
// switches the theme (both ways, and the desktop switching it under "System"), records a note and shows the same
// comparison again, and finds everything where it was.
TEST_F(ViewStateTest, ThemeSwitchReEvaluationAndRefreshKeepTheUsersPlace) {
    const auto doc = mmluWithTimeline();
    if (!doc) GTEST_SKIP() << "shared fixtures not found";
    Theme* theme = Theme::instance();
    theme->setMode(ThemeMode::Light);
    MainWindow window;
    window.resize(1280, 820);
    window.show();
    window.showDocument(*doc, {}, QStringLiteral("mmlu"));
    ASSERT_NE(window.current(), nullptr);
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
    ComparisonView* view = window.comparisonView();
    TaskTableView* table = view->taskTable();
    TimelineView* timeline = view->timelineView();
    buildPlace(window);
    ASSERT_FALSE(HasFatalFailure());
    view->splitter()->setSizes({760, 440});
    const QList<int> splitterSizes = view->splitter()->sizes();

    const TableState before = tableState(table);
    const auto zoom = timeline->visibleRange();
    ASSERT_TRUE(timeline->isZoomed());
    QStringList expanded = before.expanded;
    expanded.sort();
    EXPECT_EQ(expanded,
              (QStringList{QStringLiteral("mmlu"), QStringLiteral("mmlu_humanities"), QStringLiteral("mmlu_stem")}))
        << describe(before);
    EXPECT_EQ(before.selected, (QStringList{QStringLiteral("mmlu_college_physics"), QStringLiteral("mmlu_stem")}));
    EXPECT_GT(before.scroll, 0);
    const QLineSeries* throughput = timeline->throughputSeries();
    ASSERT_NE(throughput, nullptr);
    QSignalSpy sourceResets(table->model(), &QAbstractItemModel::modelAboutToBeReset);
    QSignalSpy proxyResets(table->proxyModel(), &QAbstractItemModel::modelAboutToBeReset);
    saveShot(window, QStringLiteral("1-light-before"));

    // themeOnly: the same series objects too (restyled, not rebuilt); a re-evaluation may draw them again (the
    // change time can move), keeping the zoom and pan.
    const auto expectSamePlace = [&](const char* step, bool themeOnly = true) {
        SCOPED_TRACE(step);
        QApplication::processEvents();
        const TableState now = tableState(table);
        EXPECT_EQ(now, before) << "before: " << describe(before) << "\nnow:    " << describe(now);
        EXPECT_EQ(timeline->visibleRange(), zoom);
        if (themeOnly) {
            EXPECT_EQ(timeline->throughputSeries(), throughput);
        }
        EXPECT_EQ(view->splitter()->sizes(), splitterSizes);
        EXPECT_EQ(view->tabs()->currentIndex(), static_cast<int>(ComparisonView::EvalsTab));
        EXPECT_EQ(sourceResets.count(), 0);
        EXPECT_EQ(proxyResets.count(), 0);
    };
    const auto expectPainted = [&](bool dark, const char* step) {
        SCOPED_TRACE(step);
        const QColor cell = verdictCellColour(table, QStringLiteral("mmlu"));
        EXPECT_TRUE(dark ? isDarkColour(cell) : isLightColour(cell)) << cell.name().toStdString();
        const QColor chart = timeline->chart()->backgroundBrush().color();
        EXPECT_TRUE(dark ? isDarkColour(chart) : isLightColour(chart)) << chart.name().toStdString();
        const QColor runs = view->runsLabel()->palette().color(QPalette::WindowText);  // a caption: secondary text
        EXPECT_TRUE(dark ? runs.lightness() > 128 : runs.lightness() < 128) << runs.name().toStdString();
    };
    expectPainted(false, "light at the start");

    theme->setMode(ThemeMode::Dark);
    expectSamePlace("dark");
    expectPainted(true, "dark");
    saveShot(window, QStringLiteral("2-dark-after"));
    theme->setMode(ThemeMode::Light);
    expectSamePlace("light again");
    expectPainted(false, "light again");

    // "System", the desktop switching to dark at sunset (the portal's colour-scheme signal), and back.
    // The signal is delivered as the D-Bus connection would (the slot by name, the value wrapped in a variant).
    theme->setMode(ThemeMode::System);
    ASSERT_TRUE(QMetaObject::invokeMethod(
        theme, "portalSettingChanged", Q_ARG(QString, QStringLiteral("org.freedesktop.appearance")),
        Q_ARG(QString, QStringLiteral("color-scheme")), Q_ARG(QDBusVariant, QDBusVariant(QVariant::fromValue(1u)))));
    EXPECT_TRUE(theme->isDark());
    expectSamePlace("system dark");
    expectPainted(true, "system dark");
    saveShot(window, QStringLiteral("3-system-dark-after"));
    theme->followSystemColorScheme(2);
    EXPECT_FALSE(theme->isDark());
    expectSamePlace("system light");

    // A re-evaluation (a note recorded) and a refresh (the same comparison shown again).
    window.addNote(QStringLiteral("stem looks fine"), QStringLiteral("mmlu_stem"), QStringLiteral("tester"));
    EXPECT_EQ(window.current()->document.notes.size(), doc->notes.size() + 1);
    expectSamePlace("after a note", false);
    window.showDocument(window.current()->document, {}, QStringLiteral("mmlu"));
    expectSamePlace("shown again", false);
    saveShot(window, QStringLiteral("4-light-after-note-and-refresh"));
}

// The other views: the current tab and the splitter stay; the presentation keeps its slide (and stays light); the
// filter keeps filtering.
TEST_F(ViewStateTest, TabsFilterAndPresentationStayThroughThemeSwitches) {
    Theme* theme = Theme::instance();
    theme->setMode(ThemeMode::Light);
    MainWindow window;
    window.show();
    window.openDemo();
    ASSERT_NE(window.current(), nullptr);
    ComparisonView* view = window.comparisonView();
    TaskTableView* table = view->taskTable();
    table->filterEdit()->setText(QStringLiteral("mm"));
    const int filtered = table->proxyModel()->rowCount();
    ASSERT_GT(filtered, 0);
    ASSERT_LT(filtered, table->model()->rowCount());
    view->showTab(ComparisonView::ReviewTab);

    PresentationWindow* show = window.startPresentation();
    ASSERT_NE(show, nullptr);
    show->goTo(2);
    const PresentationSlideView* slide = show->currentSlide();
    const QColor slideBack = slide->palette().color(QPalette::Window);

    for (ThemeMode mode : {ThemeMode::Dark, ThemeMode::Light}) {
        SCOPED_TRACE(themeModeName(mode).toStdString());
        theme->setMode(mode);
        EXPECT_EQ(view->tabs()->currentIndex(), static_cast<int>(ComparisonView::ReviewTab));
        EXPECT_EQ(table->filterEdit()->text(), QStringLiteral("mm"));
        EXPECT_EQ(table->proxyModel()->rowCount(), filtered);
        EXPECT_EQ(show->currentIndex(), 2);
        EXPECT_EQ(show->currentSlide(), slide);  // not rebuilt
        EXPECT_EQ(slide->palette().color(QPalette::Window), slideBack);
        EXPECT_TRUE(isLightColour(slideBack));
    }
    show->leave();
}

// A widget with its own style sheet keeps the palette it was polished with (Qt's style-sheet style saves it then), so
// a theme switch at run time left the task tree, whose sheet only pads its items, light with grey text on a dark
// window. The tree's base, its header and its text follow the theme both ways.
TEST_F(ViewStateTest, StyledTaskTreeFollowsTheThemeBothWays) {
    Theme* theme = Theme::instance();
    theme->setMode(ThemeMode::Light);
    MainWindow window;
    window.show();
    window.openDemo();
    ASSERT_NE(window.current(), nullptr);
    QTreeView* tree = window.comparisonView()->taskTable()->treeView();
    ASSERT_FALSE(tree->styleSheet().isEmpty());  // the case this test is about
    for (ThemeMode mode : {ThemeMode::Dark, ThemeMode::Light, ThemeMode::Dark}) {
        SCOPED_TRACE(themeModeName(mode).toStdString());
        theme->setMode(mode);
        const bool dark = mode == ThemeMode::Dark;
        const QColor base = tree->viewport()->palette().color(QPalette::Base);
        const QColor header = tree->header()->palette().color(QPalette::Button);
        const QColor text = tree->palette().color(QPalette::Text);
        EXPECT_EQ(isDarkColour(base), dark) << base.name().toStdString();
        EXPECT_EQ(isLightColour(base), !dark) << base.name().toStdString();
        EXPECT_EQ(isDarkColour(header), dark) << header.name().toStdString();
        EXPECT_EQ(isLightColour(text), dark) << text.name().toStdString();
    }
}

// The review tab keeps the note being written and its task; the banner keeps its reasons expanded and its details
// open; the side panels keep their scroll position and repaint their badges and captions; the long-context chart is
// restyled, not rebuilt. Through two theme switches and a re-evaluation (a decision recorded).
TEST_F(ViewStateTest, ReviewBannerSidePanelsAndLongContextRepaintInPlace) {
    Theme* theme = Theme::instance();
    theme->setMode(ThemeMode::Light);
    MainWindow window;
    window.resize(1100, 700);
    window.show();
    window.openDemo();
    ASSERT_NE(window.current(), nullptr);
    ComparisonView* view = window.comparisonView();
    ReviewView* review = view->reviewView();
    review->focusComposer(QStringLiteral("gsm8k"));
    review->setDraft(QStringLiteral("half a note"));
    VerdictBanner* banner = view->verdictBanner();
    banner->setDetailsShown(true);
    auto* side = view->findChild<QScrollArea*>(QStringLiteral("sidePanel"));
    ASSERT_NE(side, nullptr);
    QApplication::processEvents();
    QScrollBar* sideBar = side->verticalScrollBar();
    if (sideBar->maximum() > 0) sideBar->setValue(sideBar->maximum() / 2);
    const int sideScroll = sideBar->value();
    const auto offBadgeBackground = [&view] {
        const auto badges = view->layersPanel()->findChildren<QLabel*>(QStringLiteral("badgeOff"));
        if (badges.isEmpty()) return QColor();
        const auto match =
            QRegularExpression(QStringLiteral("background: (#[0-9a-fA-F]{6})")).match(badges.first()->styleSheet());
        return match.hasMatch() ? QColor(match.captured(1)) : QColor();
    };
    const bool hasOffBadge = offBadgeBackground().isValid();

    LongContextPanel panel;
    panel.setReport(longContextReport());
    const QChartView* chartView = panel.findChild<QChartView*>(QStringLiteral("longContextChart"));
    ASSERT_NE(chartView, nullptr);
    const QChart* chart = chartView->chart();
    const QList<QAbstractSeries*> series = chart->series();
    ASSERT_FALSE(series.isEmpty());

    const auto expectSame = [&](const char* step) {
        SCOPED_TRACE(step);
        QApplication::processEvents();
        EXPECT_EQ(review->draft(), QStringLiteral("half a note"));
        EXPECT_EQ(review->composerTask()->currentData().toString(), QStringLiteral("gsm8k"));
        EXPECT_TRUE(banner->detailsShown());
        EXPECT_EQ(sideBar->value(), sideScroll);
        EXPECT_EQ(chartView->chart(), chart);
        EXPECT_EQ(chart->series(), series);
    };
    for (ThemeMode mode : {ThemeMode::Dark, ThemeMode::Light}) {
        const bool dark = mode == ThemeMode::Dark;
        theme->setMode(mode);
        expectSame(dark ? "dark" : "light");
        const QColor back = chart->backgroundBrush().color();
        EXPECT_TRUE(dark ? isDarkColour(back) : isLightColour(back)) << back.name().toStdString();
        // A label in the error tone (the decision's warnings): light red on dark, dark red on light.
        const auto* warnings = review->findChild<QLabel*>(QStringLiteral("decisionWarnings"));
        ASSERT_NE(warnings, nullptr);
        const auto tone = QRegularExpression(QStringLiteral("color: (#[0-9a-fA-F]{6})")).match(warnings->styleSheet());
        ASSERT_TRUE(tone.hasMatch()) << warnings->styleSheet().toStdString();
        const QColor red(tone.captured(1));
        EXPECT_TRUE(dark ? red.lightness() > 128 : red.lightness() < 128) << red.name().toStdString();
        EXPECT_GT(red.red(), red.green());
        if (hasOffBadge) {
            const QColor badge = offBadgeBackground();
            EXPECT_TRUE(dark ? badge.lightness() < 100 : badge.lightness() > 180) << badge.name().toStdString();
        }
    }
    ReviewDecision decision;
    decision.outcome = ReviewOutcome::ApprovedMonitor;
    decision.by = "tester";
    decision.at = "2026-12-02T04:00:00Z";
    decision.why = "alerting is on";
    const std::size_t decisions = window.current()->document.decisions.size();
    window.applyDecision(decision);
    ASSERT_EQ(window.current()->document.decisions.size(), decisions + 1);
    expectSame("after a decision");
}

}  // namespace
}  // namespace fp8dash::ui::test
