// Issue 29: the picture of the comparison (the evals tab's forest plot) and the judge tab at a laptop's 1366 × 768.
// The forest plot follows the task table's proxy (order, filter, sort), its bands are core's thresholds, its whiskers
// are each task's 95 % interval (computed here from the demo file's own numbers), a click selects the task, and the
// exported HTML report carries it. The judge card wraps instead of cutting text, its bar labels read on the light
// theme, its y ticks are nice numbers.
#include <QAbstractBarSeries>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QDir>
#include <QFontMetricsF>
#include <QFrame>
#include <QHeaderView>
#include <QImage>
#include <QLabel>
#include <QLineEdit>
#include <QRegularExpression>
#include <QScrollArea>
#include <QScrollBar>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTabWidget>
#include <QTextDocumentFragment>
#include <QTreeView>
#include <QValueAxis>
#include <QtTest>

#include <cmath>
#include <tuple>

#include "fp8dash/core/nice_ticks.h"
#include "fp8dash/ui/chart_snapshots.h"
#include "fp8dash/ui/comparison_view.h"
#include "fp8dash/ui/forest_plot.h"
#include "fp8dash/ui/judge_view.h"
#include "fp8dash/ui/main_window.h"
#include "fp8dash/ui/report_exporter.h"
#include "fp8dash/ui/task_table_model.h"
#include "fp8dash/ui/task_table_view.h"
#include "fp8dash/ui/theme.h"
#include "gui_test_support.h"

namespace fp8dash::ui::test {
namespace {

class ForestPlotTest : public GuiTest {};

// WCAG 2 relative luminance and contrast ratio.
double luminance(const QColor& c) {
    auto channel = [](double v) { return v <= 0.03928 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4); };
    return 0.2126 * channel(c.redF()) + 0.7152 * channel(c.greenF()) + 0.0722 * channel(c.blueF());
}
double contrast(const QColor& a, const QColor& b) {
    const double la = luminance(a), lb = luminance(b);
    return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

// The task names of the proxy's top-level rows, in its order.
QStringList proxyTasks(const TaskTableView* table) {
    QStringList names;
    const QSortFilterProxyModel* proxy = table->proxyModel();
    for (int r = 0; r < proxy->rowCount(); ++r)
        names << proxy->index(r, TaskTableModel::TaskColumn).data(TaskTableModel::TaskPathRole).toString();
    return names;
}
QStringList plotTasks(const ForestPlot* plot) {
    QStringList names;
    for (const ForestPlot::Entry& e : plot->entries()) names << e.task;
    return names;
}

// Whether a step is 1, 2, 2.5 or 5 times a power of ten.
bool niceStep(double step) {
    const double power = std::pow(10.0, std::floor(std::log10(step)));
    const double m = step / power;
    for (double nice : {1.0, 2.0, 2.5, 5.0, 10.0})
        if (std::abs(m - nice) < 1e-9) return true;
    return false;
}

// Shown and laid out as on a screen (the layouts' posted requests processed).
void settle(QWidget& window) {
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
    QApplication::processEvents();
}

struct Shown {
    MainWindow window;
    ComparisonView* view = nullptr;
    ForestPlot* plot = nullptr;
    TaskTableView* table = nullptr;
};

void showDemo(Shown& s, QSize size) {
    s.window.resize(size);
    s.window.show();
    s.window.openDemo();
    s.view = s.window.comparisonView();
    s.view->showTab(ComparisonView::EvalsTab);
    s.plot = s.view->findChild<ForestPlot*>();
    s.table = s.view->taskTable();
    settle(s.window);
    EXPECT_EQ(s.window.size(), size);
}

TEST_F(ForestPlotTest, FollowsTheTablesOrderFilterAndSort) {
    Shown s;
    showDemo(s, {1366, 768});
    ASSERT_NE(s.plot, nullptr);
    EXPECT_TRUE(s.plot->isVisible());
    // One entry per top-level row, in the proxy's order (whatever the default sort is).
    ASSERT_EQ(s.table->proxyModel()->rowCount(), 6);
    EXPECT_EQ(plotTasks(s.plot), proxyTasks(s.table));

    // A sort by task name (a layout change of the proxy), then the other way round.
    s.table->treeView()->sortByColumn(TaskTableModel::TaskColumn, Qt::AscendingOrder);
    QStringList sorted = proxyTasks(s.table);
    EXPECT_EQ(plotTasks(s.plot), sorted);
    QStringList byName = sorted;
    std::sort(byName.begin(), byName.end(),
              [](const QString& a, const QString& b) { return a.compare(b, Qt::CaseInsensitive) < 0; });
    EXPECT_EQ(sorted, byName);
    s.table->treeView()->sortByColumn(TaskTableModel::DegradationColumn, Qt::DescendingOrder);
    EXPECT_EQ(plotTasks(s.plot), proxyTasks(s.table));
    EXPECT_EQ(plotTasks(s.plot).front(), QStringLiteral("gsm8k"));  // the worst of the demo: 2.59 %

    // A filter: only the matching tasks, then all of them again.
    s.table->filterEdit()->setText(QStringLiteral("ar"));
    EXPECT_EQ(plotTasks(s.plot), proxyTasks(s.table));
    EXPECT_EQ(s.plot->entries().size(), static_cast<std::size_t>(s.table->proxyModel()->rowCount()));
    EXPECT_LT(s.plot->entries().size(), 6u);
    s.table->filterEdit()->setText(QStringLiteral("no such task"));
    EXPECT_TRUE(s.plot->entries().empty());
    s.table->filterEdit()->clear();
    EXPECT_EQ(s.plot->entries().size(), 6u);
}

TEST_F(ForestPlotTest, BandsAreCoresThresholdsAndWhiskersAreTheIntervals) {
    const ThemeMode before = Theme::instance()->mode();
    Theme::instance()->setMode(ThemeMode::Light);
    Shown s;
    showDemo(s, {1366, 768});
    ASSERT_NE(s.plot, nullptr);
    // The bands come from the report, which has core's defaults (the demo sets none).
    EXPECT_EQ(s.plot->thresholds(), Thresholds{});
    EXPECT_EQ(s.plot->thresholds(), s.table->model()->report().thresholds);
    // The ticks are nice numbers covering zero and the investigate edge.
    const std::vector<double> ticks = s.plot->ticks();
    ASSERT_GE(ticks.size(), 3u);
    EXPECT_TRUE(niceStep(ticks[1] - ticks[0])) << ticks[1] - ticks[0];
    EXPECT_LE(ticks.front(), 0.0);
    EXPECT_GE(ticks.back(), Thresholds{}.investigateAbove);

    QImage image = s.plot->grab().toImage();
    const qreal dpr = image.devicePixelRatio();
    auto pixel = [&](double x, double y) {
        return QColor(image.pixel(static_cast<int>(std::lround(x * dpr)), static_cast<int>(std::lround(y * dpr))));
    };
    // The band colours change exactly at core's thresholds: just left of goBelow is go's tint, just right monitor's;
    // likewise around investigateAbove (at the top of the first row, above its whisker and dot).
    const Thresholds core;
    const double y = s.plot->rowRect(0).top() + 2;
    const double go = s.plot->xFor(core.goBelow), inv = s.plot->xFor(core.investigateAbove);
    ASSERT_GT(inv - go, 12);                          // the monitor band is wide enough to sample inside it
    EXPECT_EQ(pixel(go - 3, y), pixel(go - 9, y));    // go's tint up to the edge
    EXPECT_NE(pixel(go - 3, y), pixel(go + 3, y));    // and another colour right after it
    EXPECT_EQ(pixel(go + 3, y), pixel(inv - 3, y));   // monitor's tint across its band
    EXPECT_NE(pixel(inv - 3, y), pixel(inv + 3, y));  // investigate's after the upper edge
    EXPECT_EQ(pixel(inv + 3, y), pixel(inv + 9, y));
    EXPECT_NE(pixel(go - 3, y), pixel(inv + 3, y));  // three different bands
    // The tints say their verdict: green, amber, red (the hue nearest each).
    EXPECT_GT(pixel(go - 3, y).green(), pixel(go - 3, y).red());
    EXPECT_GT(pixel(inv + 3, y).red(), pixel(inv + 3, y).green());
    EXPECT_GT(pixel(go + 3, y).red(), pixel(go + 3, y).blue());

    // Each whisker: the 95 % interval from lm-eval's standard errors in the demo file (unpaired):
    // loss ± 1.96 √(se_b² + se_c²) / |b| × 100, the loss being −Δ% (every demo metric is higher-is-better).
    const Json demo = demoJson();
    double largest = 2 * core.investigateAbove;
    for (const ForestPlot::Entry& e : s.plot->entries())
        if (e.loss) largest = std::max(largest, std::abs(*e.loss));
    const double cap = 2 * largest;
    for (std::size_t i = 0; i < s.plot->entries().size(); ++i) {
        const ForestPlot::Entry& e = s.plot->entries()[i];
        SCOPED_TRACE(e.task.toStdString());
        // The metric the row compares (its key, as the table's tooltip names it), read from the file itself.
        const TaskComparison* t = nullptr;
        for (const TaskComparison& c : s.table->model()->report().tasks)
            if (toQString(c.task) == e.task) t = &c;
        ASSERT_NE(t, nullptr);
        const std::string stderrKey = t->metricName + "_stderr," + t->filter;
        double value[2] = {0, 0}, se[2] = {0, 0};
        const char* sides[2] = {"baseline", "candidate"};
        for (int k = 0; k < 2; ++k) {
            const Json& results = demo["runs"][sides[k]]["results"]["results"][e.task.toStdString()];
            value[k] = results[t->metric].get<double>();
            se[k] = results[stderrKey].get<double>();
        }
        ASSERT_NE(value[0], 0.0);
        const double loss = -(value[1] - value[0]) / std::abs(value[0]) * 100.0;
        const double half = 1.96 * std::sqrt(se[0] * se[0] + se[1] * se[1]) / std::abs(value[0]) * 100.0;
        ASSERT_TRUE(e.loss && e.low && e.high);
        EXPECT_NEAR(*e.loss, loss, 1e-9);
        EXPECT_NEAR(*e.low, loss - half, 1e-9);
        EXPECT_NEAR(*e.high, loss + half, 1e-9);
        // The axis rule (forest_plot.h): an end within the cap (twice the larger of 2 × investigateAbove and the
        // largest |estimate|) lies on the axis and is drawn whole: dark whisker pixels just inside it, none a few
        // pixels beyond (unless a drawn line - zero, a band edge - sits there). An end off the axis is cut at its
        // edge with an arrow head (ink above and below the whisker's line, 6 px in from the edge).
        s.plot->scrollToRow(static_cast<int>(i));
        image = s.plot->grab().toImage();
        const QRect row = s.plot->rowRect(static_cast<int>(i));
        const double cy = row.center().y();  // the pixel row the whisker's line (centre + 0.5, 1.6 px) covers
        const int clipped = s.plot->clippedEnds(static_cast<int>(i));
        for (const auto& [end, inward, flag] : {std::tuple{*e.low, 1.0, int(ForestPlot::LowEndClipped)},
                                                std::tuple{*e.high, -1.0, int(ForestPlot::HighEndClipped)}}) {
            const bool onAxis = end >= ticks.front() && end <= ticks.back();
            if (std::abs(end) <= cap) {
                EXPECT_TRUE(onAxis) << end;
            }
            EXPECT_EQ((clipped & flag) != 0, !onAxis) << end;
            if (!onAxis) {
                const double edge = s.plot->xFor(end < ticks.front() ? ticks.front() : ticks.back());
                EXPECT_LT(luminance(pixel(edge + inward * 6, cy - 1)), 0.2) << end;
                EXPECT_LT(luminance(pixel(edge + inward * 6, cy + 2)), 0.2) << end;
                continue;
            }
            EXPECT_LT(luminance(pixel(s.plot->xFor(end) + inward, cy)), 0.2);
            const double beyond = s.plot->xFor(end) - inward * 5;
            bool nearLine = false;
            for (double line : {0.0, core.goBelow, core.investigateAbove})
                nearLine |= std::abs(s.plot->xFor(line) - beyond) < 3;
            if (!nearLine) {
                EXPECT_GT(luminance(pixel(beyond, cy)), 0.5) << beyond;
            }
        }
    }
    Theme::instance()->setMode(before);
}

TEST_F(ForestPlotTest, ClickingARowSelectsItsTaskInTheTable) {
    Shown s;
    showDemo(s, {1366, 768});
    ASSERT_NE(s.plot, nullptr);
    ASSERT_GE(s.plot->entries().size(), 3u);
    for (int i : {2, 0}) {
        const QString task = s.plot->entries()[static_cast<std::size_t>(i)].task;
        QTest::mouseClick(s.plot, Qt::LeftButton, Qt::NoModifier, s.plot->rowRect(i).center());
        EXPECT_EQ(s.table->treeView()->currentIndex().siblingAtColumn(0).data(TaskTableModel::TaskPathRole).toString(),
                  task);
        const QModelIndexList selected = s.table->treeView()->selectionModel()->selectedRows();
        ASSERT_EQ(selected.size(), 1);
        EXPECT_EQ(selected.front().data(TaskTableModel::TaskPathRole).toString(), task);
    }
    // Below the rows: nothing changes.
    const QModelIndex before = s.table->treeView()->currentIndex();
    QTest::mouseClick(s.plot, Qt::LeftButton, Qt::NoModifier, QPoint(s.plot->width() / 2, s.plot->height() - 3));
    EXPECT_EQ(s.table->treeView()->currentIndex(), before);
}

TEST_F(ForestPlotTest, TheExportedHtmlReportCarriesTheForestPlot) {
    auto loaded = loadComparisonForDisplay(QString::fromStdString(
        std::string(FP8DASH_TEST_DATA) + "/comparison-files/v1/demo-llama3-8b-instruct-fp8.fp8cmp"));
    ASSERT_TRUE(loaded.ok());
    ReportContext ctx;
    ctx.generatedAt = "2026-12-05T10:00:00Z";
    ctx.toolVersion = "0.0.0-test";
    ctx.charts = reportCharts(*loaded);
    auto html = reportBytes(*loaded, ReportFileFormat::Html, ctx);
    ASSERT_TRUE(html.ok()) << html.error().message;
    const QString text = QString::fromUtf8(*html);
    static const QRegularExpression figure(
        QStringLiteral("<figure id=\"chart-evals-forest\"><img src=\"data:image/png;base64,([A-Za-z0-9+/=]+)\"[^>]*"
                       "width=\"(\\d+)\" height=\"(\\d+)\""));
    const QRegularExpressionMatch m = figure.match(text);
    ASSERT_TRUE(m.hasMatch()) << "no forest plot in the HTML report";
    QImage image;
    ASSERT_TRUE(image.loadFromData(QByteArray::fromBase64(m.captured(1).toLatin1()), "PNG"));
    // Drawn at twice the size it is shown, as tall as its six rows need.
    EXPECT_EQ(image.width(), 2 * m.captured(2).toInt());
    EXPECT_EQ(image.height(), 2 * m.captured(3).toInt());
    ForestPlot reference;
    reference.setReport(loaded->report);
    EXPECT_EQ(m.captured(3).toInt(), reference.naturalHeight());
    // In the evals section, after its table.
    const qsizetype evals = text.indexOf(QStringLiteral("<section id=\"evals\">"));
    ASSERT_GE(evals, 0);
    EXPECT_GT(m.capturedStart(), text.indexOf(QStringLiteral("</table>"), evals));
    // Worst first in the report's picture.
    EXPECT_EQ(plotTasks(&reference).front(), QStringLiteral("gsm8k"));
}

// ---- the judge tab at 1366 × 768

// Every label under root shows its whole text: a wrapped one is as tall as its text needs at its width, an unwrapped
// one as wide as its text.
void expectNothingCut(QWidget* root) {
    for (QLabel* label : root->findChildren<QLabel*>()) {
        if (!label->isVisibleTo(root) || label->text().isEmpty()) continue;
        SCOPED_TRACE(label->objectName().toStdString() + ": " + label->text().left(60).toStdString());
        if (label->wordWrap()) {
            EXPECT_LE(label->heightForWidth(label->contentsRect().width() + label->contentsMargins().left() +
                                            label->contentsMargins().right()),
                      label->height());
        } else {
            const QString plain = label->textFormat() == Qt::RichText
                                      ? QTextDocumentFragment::fromHtml(label->text()).toPlainText()
                                      : label->text();
            for (const QString& line : plain.split(QLatin1Char('\n')))
                EXPECT_LE(label->fontMetrics().horizontalAdvance(line), label->contentsRect().width());
        }
    }
}

// The part of w its ancestors clip away can be scrolled into view (a scroll area above it scrolls at least as far).
bool reachable(QWidget* w) {
    const int hidden = w->height() - w->visibleRegion().boundingRect().height();
    if (hidden <= 0) return true;
    for (QWidget* p = w->parentWidget(); p; p = p->parentWidget())
        if (auto* scroll = qobject_cast<QScrollArea*>(p)) return scroll->verticalScrollBar()->maximum() >= hidden;
    return false;
}

TEST_F(ForestPlotTest, JudgeCardWrapsAtALaptopSizeAndItsChartReads) {
    const ThemeMode before = Theme::instance()->mode();
    Theme::instance()->setMode(ThemeMode::Light);
    Shown s;
    showDemo(s, {1366, 768});
    s.view->showTab(ComparisonView::JudgeTab);
    JudgeView* judge = s.view->judgeView();
    ASSERT_FALSE(judge->isEmptyState());
    QApplication::processEvents();
    QFrame* card = judge->findChild<QFrame*>(QStringLiteral("judgeCard"));
    ASSERT_NE(card, nullptr);
    expectNothingCut(card);
    EXPECT_TRUE(reachable(card));
    // The FP8 mean is there, and its label lies inside the card's scroll area's viewport (not scrolled away).
    EXPECT_TRUE(judge->meansText().contains(QStringLiteral("FP8: "))) << judge->meansText().toStdString();
    auto* means = card->findChild<QLabel*>(QStringLiteral("judgeMeans"));
    auto* scroll = judge->findChild<QScrollArea*>(QStringLiteral("judgeCardScroll"));
    ASSERT_TRUE(means && scroll);
    const QRect inViewport(means->mapTo(scroll->viewport(), QPoint(0, 0)), means->size());
    EXPECT_TRUE(scroll->viewport()->rect().contains(inViewport));
    // The chart pane as short as its splitter lets it be (a real laptop's window is shorter still than 768 px, under
    // its title bar and panel): the card scrolls, and still cuts nothing.
    auto* split = judge->findChild<QSplitter*>(QStringLiteral("judgeSplitter"));
    ASSERT_NE(split, nullptr);
    split->setSizes({1, 100000});
    QApplication::processEvents();
    expectNothingCut(card);
    EXPECT_TRUE(reachable(card));  // what the pane hides is a scroll away, not cut off

    // The bar labels above the bars: readable on the chart's background in the light theme and in the dark.
    for (const ThemeMode mode : {ThemeMode::Light, ThemeMode::Dark}) {
        Theme::instance()->setMode(mode);
        const QColor background = judge->chartView()->chart()->backgroundBrush().color();
        for (QBarSet* set : {judge->baselineSet(), judge->candidateSet()}) {
            ASSERT_NE(set, nullptr);
            EXPECT_GE(contrast(set->labelColor(), background), 4.5)
                << set->labelColor().name().toStdString() << " on " << background.name().toStdString();
        }
    }
    Theme::instance()->setMode(ThemeMode::Light);

    // The y ticks: 0, then whole nice steps up to the top, which is above the highest bar.
    const auto axes = judge->chartView()->chart()->axes(Qt::Vertical);
    ASSERT_EQ(axes.size(), 1);
    auto* y = qobject_cast<QValueAxis*>(axes.front());
    ASSERT_NE(y, nullptr);
    double highest = 0;
    for (QBarSet* set : {judge->baselineSet(), judge->candidateSet()})
        for (int i = 0; i < set->count(); ++i) highest = std::max(highest, set->at(i));
    EXPECT_EQ(y->min(), 0.0);
    EXPECT_EQ(y->tickType(), QValueAxis::TicksDynamic);
    EXPECT_EQ(y->tickAnchor(), 0.0);
    EXPECT_TRUE(niceStep(y->tickInterval())) << y->tickInterval();
    EXPECT_EQ(std::fmod(y->max(), y->tickInterval()), 0.0) << y->max();
    EXPECT_GT(y->max(), highest);
    EXPECT_LE((y->max() - y->tickInterval()), highest * 1.15);
    // Every tick label has room (Qt Charts hides labels that would overlap: at 1366 × 768 the old ticks lost two).
    const double intervals = y->max() / y->tickInterval();
    EXPECT_LE(intervals * QFontMetricsF(y->labelsFont()).height() * 1.5,
              judge->chartView()->chart()->plotArea().height())
        << intervals << " intervals in " << judge->chartView()->chart()->plotArea().height() << " px";
    Theme::instance()->setMode(before);
}

TEST_F(ForestPlotTest, JudgeCardNeedsNoScrollingOnALargeScreen) {
    Shown s;
    showDemo(s, {1920, 1080});
    s.view->showTab(ComparisonView::JudgeTab);
    QApplication::processEvents();
    auto* scroll = s.view->judgeView()->findChild<QScrollArea*>(QStringLiteral("judgeCardScroll"));
    ASSERT_NE(scroll, nullptr);
    QFrame* card = scroll->findChild<QFrame*>(QStringLiteral("judgeCard"));
    ASSERT_NE(card, nullptr);
    expectNothingCut(card);
    EXPECT_LE(card->height(), scroll->viewport()->height());
    EXPECT_EQ(scroll->verticalScrollBar()->maximum(), 0)
        << "card " << card->height() << " px in a " << scroll->viewport()->height() << " px viewport";
}

TEST_F(ForestPlotTest, JudgeEmptyStateWrapsItsCommandAtALaptopSize) {
    MainWindow window;
    window.resize(1366, 768);
    window.show();
    showEvalsOnly(window);  // no judge scores
    ComparisonView* view = window.comparisonView();
    view->showTab(ComparisonView::JudgeTab);
    JudgeView* judge = view->judgeView();
    ASSERT_TRUE(judge->isEmptyState());
    settle(window);
    EXPECT_TRUE(judge->emptyText().contains(QStringLiteral("Timeline › Run Domain Eval…")));
    expectNothingCut(judge);
}

TEST_F(ForestPlotTest, NiceTicksAreRoundNumbersCoveringTheRange) {
    // The judge chart's old ticks: a top of 114 in steps of 19. Nice: 0 … 120 in 20s.
    const NiceTicks t = niceTicks(0, 114, 6, true);
    EXPECT_EQ(t.step, 20);
    EXPECT_EQ(t.low, 0);
    EXPECT_EQ(t.high, 120);
    EXPECT_EQ(t.values(), (std::vector<double>{0, 20, 40, 60, 80, 100, 120}));
    const NiceTicks small = niceTicks(0, 3, 6, true);  // counts: whole steps only
    EXPECT_EQ(small.step, 1);
    const NiceTicks percent = niceTicks(-0.4, 4.1, 8);
    EXPECT_TRUE(niceStep(percent.step));
    EXPECT_LE(percent.low, -0.4);
    EXPECT_GE(percent.high, 4.1);
    EXPECT_LE(percent.count() - 1, 8);
}

}  // namespace
}  // namespace fp8dash::ui::test
