// Issue 39: a forest plot that reads. One label per row at any task count (15 tasks at 1366 × 768, the demo's six
// with the banner's Details open in a short pane), the rows scrolling inside the plot while the axis stays; an axis
// that one wide interval (±34 %) does not stretch, so the 0.5 / 1.5 % bands stay wide, that interval cut at the edge
// with an arrow and its whole value in the tooltip; the Evals tab's "Candidate:" picker drives the plot; the report's
// picture follows the same rules. The documents are lm-eval files written here with known standard errors, so the
// intervals are computed in the test (unpaired: loss ± 1.96 √(se_b² + se_c²) / |b| × 100).
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QHelpEvent>
#include <QImage>
#include <QJsonDocument>
#include <QJsonObject>
#include <QScrollBar>
#include <QSplitter>
#include <QTemporaryDir>
#include <QTextDocumentFragment>
#include <QToolTip>
#include <QtTest>

#include <cmath>

#include "fp8dash/ui/chart_snapshots.h"
#include "fp8dash/ui/comparison_view.h"
#include "fp8dash/ui/forest_plot.h"
#include "fp8dash/ui/loaded_comparison.h"
#include "fp8dash/ui/main_window.h"
#include "fp8dash/ui/task_table_model.h"
#include "fp8dash/ui/task_table_view.h"
#include "fp8dash/ui/theme.h"
#include "fp8dash/ui/verdict_banner.h"
#include "gui_test_support.h"

namespace fp8dash::ui::test {
namespace {

class ForestPlotRowsTest : public GuiTest {};

constexpr double kForestBaseline = 0.5;     // every task's baseline accuracy
constexpr double kForestNarrowSe = 0.0018;  // ±1.96 √2 · 0.0018 / 0.5 · 100 ≈ ±1.0 %
constexpr double kForestWideSe = 0.0613;    // ≈ ±34 %

struct ForestSyntheticTask {
    QString name;
    double candidate;  // the candidate's accuracy (the baseline's is kForestBaseline)
    double se;         // both sides' standard error
};

// The loss and the 95 % interval of a synthetic task, computed here (higher is better: loss = −Δ%).
struct ForestExpected {
    double loss, low, high;
};
ForestExpected forestExpectedOf(const ForestSyntheticTask& t) {
    const double loss = -(t.candidate - kForestBaseline) / kForestBaseline * 100;
    const double half = 1.96 * std::sqrt(2 * t.se * t.se) / kForestBaseline * 100;
    return {loss, loss - half, loss + half};
}

// `count` tasks with names of realistic length, small losses, ±1 % intervals; with `wideAt` >= 0 that task's
// interval is ±34 %.
std::vector<ForestSyntheticTask> forestSyntheticTasks(int count, int wideAt = -1) {
    std::vector<ForestSyntheticTask> tasks;
    for (int i = 0; i < count; ++i) {
        const double candidate = kForestBaseline * (1 - (0.1 * (i % 7) - 0.2) / 100);  // losses −0.2 … +0.4 %
        tasks.push_back({QStringLiteral("mmlu_subject_%1_task").arg(i + 1, 2, 10, QLatin1Char('0')), candidate,
                         i == wideAt ? kForestWideSe : kForestNarrowSe});
    }
    return tasks;
}

void writeForestRun(const QString& dir, const std::vector<ForestSyntheticTask>& tasks, bool candidate) {
    ASSERT_TRUE(QDir().mkpath(dir));
    QJsonObject results, higher;
    for (const ForestSyntheticTask& t : tasks) {
        results[t.name] = QJsonObject{{QStringLiteral("alias"), t.name},
                                      {QStringLiteral("acc,none"), candidate ? t.candidate : kForestBaseline},
                                      {QStringLiteral("acc_stderr,none"), t.se}};
        higher[t.name] = QJsonObject{{QStringLiteral("acc"), true}};
    }
    const QString model = candidate ? QStringLiteral("RedHatAI/Meta-Llama-3.1-8B-Instruct-FP8")
                                    : QStringLiteral("meta-llama/Meta-Llama-3.1-8B-Instruct");
    const QJsonObject root{
        {QStringLiteral("results"), results},
        {QStringLiteral("higher_is_better"), higher},
        {QStringLiteral("model_name"), model},
        {QStringLiteral("config"), QJsonObject{{QStringLiteral("model"), QStringLiteral("vllm")},
                                               {QStringLiteral("model_args"), QStringLiteral("pretrained=") + model}}}};
    QFile f(dir + QStringLiteral("/results_2026-01-01T00-00-00.json"));
    ASSERT_TRUE(f.open(QIODevice::WriteOnly));
    f.write(QJsonDocument(root).toJson());
}

ComparisonDocument forestSyntheticDocument(const QTemporaryDir& tmp, const std::vector<ForestSyntheticTask>& tasks) {
    const QString base = tmp.filePath(QStringLiteral("bf16")), cand = tmp.filePath(QStringLiteral("fp8"));
    writeForestRun(base, tasks, false);
    writeForestRun(cand, tasks, true);
    return documentFromRuns(base.toStdString(), cand.toStdString());
}

struct ForestRowsWindow {
    MainWindow window;
    ComparisonView* view = nullptr;
    ForestPlot* plot = nullptr;
};

void showForestRowsWindow(ForestRowsWindow& w, QSize size, const ComparisonDocument* doc) {
    w.window.resize(size);
    w.window.show();
    if (doc) {
        w.window.showDocument(*doc, {}, QStringLiteral("synthetic"));
    } else {
        w.window.openDemo();
    }
    w.view = w.window.comparisonView();
    w.view->setOfflineNotice({});
    w.view->showTab(ComparisonView::EvalsTab);
    w.plot = w.view->findChild<ForestPlot*>();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&w.window));
    QApplication::processEvents();
    ASSERT_NE(w.plot, nullptr);
}

// Whether some pixel of `r` (widget coordinates) in the grabbed image differs clearly from the plot's background
// (the first pixel of the label's row, left of the names: nothing is drawn there).
bool forestLabelHasInk(const QImage& image, const QRect& r, const QColor& background) {
    const qreal dpr = image.devicePixelRatio();
    for (int y = r.top(); y <= r.bottom(); ++y)
        for (int x = r.left(); x <= r.right(); ++x) {
            const QColor c(image.pixel(static_cast<int>(x * dpr), static_cast<int>(y * dpr)));
            if (std::abs(c.lightness() - background.lightness()) > 80) return true;
        }
    return false;
}

// Every row has its own label: a rectangle a line of the font tall, inside its row, disjoint from the others, in
// the rows' order; scrolled into view, it lies in the rows' viewport and ink is drawn in it.
void expectOneForestLabelPerRow(ForestPlot* plot) {
    const int rows = static_cast<int>(plot->entries().size());
    ASSERT_GT(rows, 0);
    const int lineHeight = QFontMetrics(plot->font()).height();
    EXPECT_GE(plot->rowHeight(), lineHeight);
    for (int i = 0; i < rows; ++i) {
        SCOPED_TRACE(i);
        const QRect label = plot->labelRect(i);
        EXPECT_GE(label.height(), lineHeight);
        EXPECT_GE(label.width(), QFontMetrics(plot->font()).horizontalAdvance(QStringLiteral("mmlu_sub")));
        EXPECT_TRUE(plot->rowRect(i).contains(label));
        if (i > 0) {
            EXPECT_FALSE(label.intersects(plot->labelRect(i - 1)));
            EXPECT_GT(label.top(), plot->labelRect(i - 1).bottom());
        }
    }
    int drawn = 0;
    for (int i = 0; i < rows; ++i) {
        plot->scrollToRow(i);
        QApplication::processEvents();
        const QRect label = plot->labelRect(i);
        EXPECT_TRUE(plot->rowsViewport().contains(label)) << i;
        const QImage image = plot->grab().toImage();
        const QColor background(image.pixel(1, static_cast<int>((label.center().y()) * image.devicePixelRatio())));
        if (forestLabelHasInk(image, label, background)) ++drawn;
    }
    EXPECT_EQ(drawn, rows);
    plot->scrollToRow(0);
}

TEST_F(ForestPlotRowsTest, FifteenTasksHaveFifteenLabelsAtALaptopSize) {
    QTemporaryDir tmp;
    const ComparisonDocument doc = forestSyntheticDocument(tmp, forestSyntheticTasks(15));
    for (const QSize size : {QSize(1366, 768), QSize(1920, 1080)}) {
        SCOPED_TRACE(size.width());
        ForestRowsWindow w;
        showForestRowsWindow(w, size, &doc);
        ASSERT_EQ(w.plot->entries().size(), 15u);
        saveScreenshot(w.window, QStringLiteral("evals-15-tasks-%1x%2.png").arg(size.width()).arg(size.height()));
        expectOneForestLabelPerRow(w.plot);
        // The rows that do not fit scroll inside the plot; the axis below them stays on screen.
        auto* scroll = w.plot->findChild<QScrollBar*>(QStringLiteral("forestPlotScroll"));
        ASSERT_NE(scroll, nullptr);
        const bool fits = 15 * w.plot->rowHeight() <= w.plot->rowsViewport().height();
        EXPECT_EQ(scroll->isVisible(), !fits);
        if (!fits) {
            EXPECT_EQ(scroll->maximum(), 15 * w.plot->rowHeight() - w.plot->rowsViewport().height());
            EXPECT_LE(w.plot->rowsViewport().bottom(), w.plot->height());
        }
        // Selecting the last task in the table brings its row into the plot's view.
        w.view->taskTable()->selectTask(w.plot->entries().back().task);
        QApplication::processEvents();
        EXPECT_TRUE(w.plot->rowsViewport().contains(w.plot->rowRect(14)));
    }
}

TEST_F(ForestPlotRowsTest, SixTasksKeepSixLabelsWithTheDetailsOpenAndAShortPane) {
    ForestRowsWindow w;
    showForestRowsWindow(w, {1366, 768}, nullptr);
    ASSERT_EQ(w.plot->entries().size(), 6u);
    w.view->findChild<VerdictBanner*>()->setDetailsShown(true);
    QApplication::processEvents();
    expectOneForestLabelPerRow(w.plot);
    // The pane dragged as short as its splitter allows: still one label per row (the rest a scroll away).
    auto* column = w.view->findChild<QSplitter*>(QStringLiteral("evalsColumn"));
    ASSERT_NE(column, nullptr);
    column->setSizes({1, 100000});
    QApplication::processEvents();
    EXPECT_LT(w.plot->height(), w.plot->naturalHeight());
    EXPECT_GE(w.plot->rowsViewport().height(), w.plot->rowHeight());
    expectOneForestLabelPerRow(w.plot);
    w.view->findChild<VerdictBanner*>()->setDetailsShown(false);
}

TEST_F(ForestPlotRowsTest, AWideIntervalIsCutWithAnArrowAndDoesNotStretchTheAxis) {
    const ThemeMode before = Theme::instance()->mode();
    Theme::instance()->setMode(ThemeMode::Light);
    QTemporaryDir tmp;
    const std::vector<ForestSyntheticTask> tasks = forestSyntheticTasks(15, 7);
    const ForestExpected wide = forestExpectedOf(tasks[7]);
    ASSERT_GT(wide.high - wide.loss, 30);  // the construction: a ±34 % interval
    const ComparisonDocument doc = forestSyntheticDocument(tmp, tasks);
    ForestRowsWindow w;
    showForestRowsWindow(w, {1366, 768}, &doc);
    ForestPlot* plot = w.plot;
    ASSERT_EQ(plot->entries().size(), 15u);
    saveScreenshot(w.window, QStringLiteral("evals-wide-interval-1366x768.png"));

    // The axis spans a few percent, not ±34: the go stretch (0 to 0.5 %) and the monitor band (0.5 to 1.5 %) are wide.
    const std::vector<double> ticks = plot->ticks();
    EXPECT_LT(ticks.back(), 10.0);
    EXPECT_GT(ticks.front(), -10.0);
    const Thresholds t = plot->thresholds();
    EXPECT_GE(plot->xFor(t.goBelow) - plot->xFor(0), 40.0);
    EXPECT_GE(plot->xFor(t.investigateAbove) - plot->xFor(t.goBelow), 80.0);
    // Every point estimate is on the axis.
    for (const ForestSyntheticTask& s : tasks) {
        EXPECT_GE(forestExpectedOf(s).loss, ticks.front());
        EXPECT_LE(forestExpectedOf(s).loss, ticks.back());
    }

    int wideRow = -1;
    for (int i = 0; i < 15; ++i) {
        const ForestPlot::Entry& e = plot->entries()[static_cast<std::size_t>(i)];
        if (e.task == tasks[7].name) wideRow = i;
        const bool isWide = e.task == tasks[7].name;
        EXPECT_EQ(plot->clippedEnds(i),
                  isWide ? ForestPlot::LowEndClipped | ForestPlot::HighEndClipped : ForestPlot::NoEndClipped)
            << e.task.toStdString();
    }
    ASSERT_GE(wideRow, 0);

    // Drawn: at each edge of the axis an arrow head (ink above and below the whisker's line, 6 px in from the
    // edge) on the wide row; no such ink on a narrow row there.
    const int narrowRow = wideRow == 0 ? 1 : 0;
    const auto arrowInk = [&](int row, double edgeX, double inward) {
        plot->scrollToRow(row);
        QApplication::processEvents();
        const QImage image = plot->grab().toImage();
        const qreal dpr = image.devicePixelRatio();
        const double cy = plot->rowRect(row).center().y() + 0.5;
        int dark = 0;
        for (const double dy : {-2.0, 2.0}) {
            const QColor c(
                image.pixel(static_cast<int>((edgeX + inward * 6) * dpr), static_cast<int>((cy + dy) * dpr)));
            if (c.lightness() < 100) ++dark;
        }
        return dark;
    };
    const double left = plot->xFor(ticks.front()), right = plot->xFor(ticks.back());
    EXPECT_EQ(arrowInk(wideRow, right, -1), 2);
    EXPECT_EQ(arrowInk(wideRow, left, 1), 2);
    EXPECT_EQ(arrowInk(narrowRow, right, -1), 0);
    EXPECT_EQ(arrowInk(narrowRow, left, 1), 0);

    // The tooltip has the whole interval, as computed here, and says the bar is cut.
    const QString tip = QTextDocumentFragment::fromHtml(plot->toolTipHtml(wideRow)).toPlainText();
    EXPECT_TRUE(tip.contains(QString::number(wide.low, 'f', 2) + QStringLiteral(" % to ") +
                             QString::number(wide.high, 'f', 2) + QStringLiteral(" %")))
        << tip.toStdString();
    EXPECT_TRUE(tip.contains(QStringLiteral("beyond the axis"))) << tip.toStdString();
    const QString narrowTip = QTextDocumentFragment::fromHtml(plot->toolTipHtml(narrowRow)).toPlainText();
    EXPECT_FALSE(narrowTip.contains(QStringLiteral("beyond the axis")));
    // Hovering the row shows that text.
    plot->scrollToRow(wideRow);
    QApplication::processEvents();
    const QPoint at = plot->rowRect(wideRow).center();
    QHelpEvent help(QEvent::ToolTip, at, plot->mapToGlobal(at));
    QApplication::sendEvent(plot, &help);
    EXPECT_TRUE(
        QTextDocumentFragment::fromHtml(QToolTip::text()).toPlainText().contains(QString::number(wide.high, 'f', 2)));
    QToolTip::hideText();

    // The report's picture: the same axis at the same width, every row shown with its label, no scrolling.
    ForestPlot picture;
    picture.setAlwaysLight(true);
    picture.setReport(w.view->taskTable()->model()->report());
    picture.setAttribute(Qt::WA_DontShowOnScreen);
    picture.resize(plot->width(), picture.naturalHeight());
    picture.show();
    QApplication::processEvents();
    EXPECT_EQ(picture.ticks(), plot->ticks());
    EXPECT_EQ(picture.scrollOffset(), 0);
    EXPECT_EQ(picture.rowsViewport().height(), 15 * picture.rowHeight());
    expectOneForestLabelPerRow(&picture);
    saveScreenshot(picture, QStringLiteral("report-picture-wide-interval.png"));
    const QImage rendered = renderForestPlotImage(picture, 800, 2.0);
    EXPECT_EQ(rendered.height(), 2 * picture.naturalHeight());
    Theme::instance()->setMode(before);
}

const QString kForestQwen = QStringLiteral(FP8DASH_TEST_DATA "/lm-eval-variants/qwen3.5-27b");

LoadedComparison forestQwenVariants() {
    NewComparisonRequest r;
    r.baselinePath = kForestQwen + QStringLiteral("/bf16");
    r.candidatePath = kForestQwen + QStringLiteral("/fp8-kv");
    r.moreCandidatePaths = {kForestQwen + QStringLiteral("/fp8-weights"),
                            kForestQwen + QStringLiteral("/fp8-weights-kv")};
    r.moreCandidateLabels = {QString(), QString()};
    r.baselineLabel = QString();
    r.candidateLabel = QString();
    auto built = buildNewComparison(r);
    EXPECT_TRUE(built.ok()) << (built.ok() ? "" : built.error().message);
    return built.ok() ? std::move(built).value() : LoadedComparison{};
}

void showForestQwen(ForestRowsWindow& w, QSize size) {
    w.window.resize(size);
    w.window.show();
    w.window.showNewComparison(forestQwenVariants(), {});
    w.view = w.window.comparisonView();
    w.view->setOfflineNotice({});
    w.view->showTab(ComparisonView::EvalsTab);
    w.plot = w.view->findChild<ForestPlot*>();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&w.window));
    QApplication::processEvents();
    ASSERT_NE(w.plot, nullptr);
}

// The "results" object of the one lm-eval file in a run folder of the Qwen3.5 set.
QJsonObject forestQwenResults(const QString& run) {
    QDir d(kForestQwen + run);
    const QStringList files = d.entryList({QStringLiteral("results_*.json")});
    EXPECT_EQ(files.size(), 1) << run.toStdString();
    QFile f(d.filePath(files.value(0)));
    EXPECT_TRUE(f.open(QIODevice::ReadOnly));
    return QJsonDocument::fromJson(f.readAll()).object()[QStringLiteral("results")].toObject();
}

TEST_F(ForestPlotRowsTest, TheCandidatePickerChoosesTheVariantThePlotShows) {
    ForestRowsWindow w;
    showForestQwen(w, {1366, 768});
    auto* picker = w.view->findChild<QComboBox*>(QStringLiteral("candidatePicker"));
    ASSERT_NE(picker, nullptr);
    ASSERT_EQ(picker->count(), 3);
    // Each candidate's losses, read from its lm-eval file here (the candidates in the order given).
    const QStringList runs{QStringLiteral("/fp8-kv"), QStringLiteral("/fp8-weights"),
                           QStringLiteral("/fp8-weights-kv")};
    const QJsonObject baseline = forestQwenResults(QStringLiteral("/bf16"));
    for (int k = 0; k < 3; ++k) {
        SCOPED_TRACE(k);
        picker->setCurrentIndex(k);
        QApplication::processEvents();
        const QJsonObject candidate = forestQwenResults(runs[k]);
        ASSERT_EQ(w.plot->entries().size(), static_cast<std::size_t>(baseline.size()));
        for (const ForestPlot::Entry& e : w.plot->entries()) {
            const QJsonObject b = baseline[e.task].toObject(), c = candidate[e.task].toObject();
            QString metric;
            for (auto it = b.begin(); it != b.end(); ++it)
                if (it.key() != QStringLiteral("alias") && !it.key().contains(QStringLiteral("_stderr")))
                    metric = it.key();
            ASSERT_FALSE(metric.isEmpty()) << e.task.toStdString();
            const double bv = b[metric].toDouble(), cv = c[metric].toDouble();
            ASSERT_TRUE(e.loss.has_value());
            EXPECT_NEAR(*e.loss, -(cv - bv) / bv * 100, 1e-9) << e.task.toStdString();
        }
        expectOneForestLabelPerRow(w.plot);
    }
}

// The W8A8 / +KV / +calibrated-KV ladder at 1366 × 768 with the banner's Details open: each candidate picked, one
// label per row, and a row says in its tooltip that its interval is cut exactly when an end lies off the axis.
TEST_F(ForestPlotRowsTest, TheLadderReadsForEachCandidateWithTheDetailsOpen) {
    const QString ladder = QStringLiteral(FP8DASH_TEST_DATA "/lm-eval-ladder");
    NewComparisonRequest r;
    r.baselinePath = ladder + QStringLiteral("/bf16");
    r.candidatePath = ladder + QStringLiteral("/w8a8");
    r.moreCandidatePaths = {ladder + QStringLiteral("/w8a8-kv"), ladder + QStringLiteral("/w8a8-kv-cal")};
    r.moreCandidateLabels = {QString(), QString()};
    auto built = buildNewComparison(r);
    ASSERT_TRUE(built.ok()) << built.error().message;
    ForestRowsWindow w;
    w.window.resize(1366, 768);
    w.window.show();
    w.window.showNewComparison(*built, {});
    w.view = w.window.comparisonView();
    w.view->setOfflineNotice({});
    w.view->showTab(ComparisonView::EvalsTab);
    w.plot = w.view->findChild<ForestPlot*>();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&w.window));
    ASSERT_NE(w.plot, nullptr);
    w.view->findChild<VerdictBanner*>()->setDetailsShown(true);
    auto* picker = w.view->findChild<QComboBox*>(QStringLiteral("candidatePicker"));
    ASSERT_NE(picker, nullptr);
    ASSERT_EQ(picker->count(), 3);
    for (int k = 0; k < picker->count(); ++k) {
        SCOPED_TRACE(k);
        picker->setCurrentIndex(k);
        QApplication::processEvents();
        saveScreenshot(w.window, QStringLiteral("evals-ladder-%1-1366x768-details.png").arg(k));
        expectOneForestLabelPerRow(w.plot);
        const std::vector<double> ticks = w.plot->ticks();
        for (int i = 0; i < static_cast<int>(w.plot->entries().size()); ++i) {
            const ForestPlot::Entry& e = w.plot->entries()[static_cast<std::size_t>(i)];
            const bool off = e.low && e.high && (*e.low < ticks.front() || *e.high > ticks.back());
            EXPECT_EQ(w.plot->clippedEnds(i) != ForestPlot::NoEndClipped, off) << e.task.toStdString();
            EXPECT_EQ(w.plot->toolTipHtml(i).contains(QStringLiteral("beyond the axis")), off);
        }
    }
    w.view->findChild<VerdictBanner*>()->setDetailsShown(false);
}

// The Evals tab at both sizes and in both themes, on the Qwen3.5 set and on the demo: one label per row, with the
// banner's Details closed and open (pictures into $FP8DASH_SCREENSHOT_DIR when it is set).
TEST_F(ForestPlotRowsTest, EveryRowReadsAtBothSizesAndInBothThemes) {
    const ThemeMode before = Theme::instance()->mode();
    for (const ThemeMode mode : {ThemeMode::Light, ThemeMode::Dark}) {
        Theme::instance()->setMode(mode);
        for (const QSize size : {QSize(1366, 768), QSize(1920, 1080)}) {
            for (const bool qwen : {true, false}) {
                SCOPED_TRACE((qwen ? "qwen " : "demo ") + std::to_string(size.width()));
                ForestRowsWindow w;
                if (qwen) {
                    showForestQwen(w, size);
                } else {
                    showForestRowsWindow(w, size, nullptr);
                }
                const QString name =
                    QStringLiteral("evals-%1-%2x%3-%4")
                        .arg(qwen ? QStringLiteral("qwen3.5") : QStringLiteral("demo"))
                        .arg(size.width())
                        .arg(size.height())
                        .arg(mode == ThemeMode::Dark ? QStringLiteral("dark") : QStringLiteral("light"));
                saveScreenshot(w.window, name + QStringLiteral(".png"));
                expectOneForestLabelPerRow(w.plot);
                auto* banner = w.view->findChild<VerdictBanner*>();
                banner->setDetailsShown(true);
                QApplication::processEvents();
                saveScreenshot(w.window, name + QStringLiteral("-details.png"));
                expectOneForestLabelPerRow(w.plot);
                banner->setDetailsShown(false);
            }
        }
    }
    Theme::instance()->setMode(before);
}

}  // namespace
}  // namespace fp8dash::ui::test
