// The Local benchmarks tab as a newcomer meets it on a laptop without a GPU (issue 29): the demo's CPU run opened at
// 1366 × 768 on a machine whose device probe (injected, as the other bench tests do) says there is no NVIDIA driver.
// The missing driver is said once; the charts with nothing to draw are not shown as empty frames, one empty state says
// what to do instead; the KV chart's log axis is labelled between decades around the headline figure, its title fits
// the chart's height and its legend is inside the chart.
#include <QCategoryAxis>
#include <QChart>
#include <QChartView>
#include <QFontMetricsF>
#include <QLabel>
#include <QLegend>
#include <QTabWidget>
#include <QTableView>
#include <QTest>
#include <QXYSeries>

#include <cmath>

#include "fp8dash/core/demo.h"
#include "fp8dash/core/kv_headline.h"
#include "fp8dash/ui/bench_view.h"
#include "fp8dash/ui/comparison_view.h"
#include "fp8dash/ui/main_window.h"
#include "gui_test_support.h"

namespace fp8dash::ui::test {
namespace {

class BenchFirstLookTest : public GuiTest {};

ComparisonDocument demoDocument() {
    auto demo = loadDemoComparison();
    EXPECT_TRUE(demo.ok()) << (demo.ok() ? "" : demo.error().message);
    return demo.ok() ? std::move(demo).value() : ComparisonDocument{};
}

// This machine as the laptop: no NVIDIA driver, in the words the demo's run recorded for its own machine.
LocalDeviceStatus laptop(const ComparisonDocument& demo) {
    LocalDeviceStatus s = noGpu();
    if (demo.benchmarks && !demo.benchmarks->device.reason.empty()) s.reason = demo.benchmarks->device.reason;
    return s;
}

struct Shown {
    MainWindow window;
    BenchView* view = nullptr;
};

void showDemoBenchmarks(Shown& s, const ComparisonDocument& demo) {
    s.window.resize(1366, 768);
    s.view = s.window.comparisonView()->benchView();
    s.view->setLocalDevice(laptop(demo));
    s.window.show();
    s.window.showDocument(demo, {}, QStringLiteral("demo"));
    s.window.showBenchmarks();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&s.window));
    QTest::qWait(20);  // let the layouts settle
}

TEST_F(BenchFirstLookTest, NoDriverIsSaidOnceAndEmptyChartsAreNotFramed) {
    const ComparisonDocument demo = demoDocument();
    ASSERT_TRUE(demo.benchmarks.has_value());
    ASSERT_FALSE(demo.benchmarks->gemmSkipped.empty());  // the demo's run had no GPU: GEMM skipped, KV on the CPU
    Shown s;
    showDemoBenchmarks(s, demo);
    ASSERT_EQ(s.window.comparisonView()->tabs()->currentWidget(), s.view);

    QStringList saying;
    for (const QLabel* label : s.window.findChildren<QLabel*>())
        if (label->isVisible() && label->text().contains(QStringLiteral("NVIDIA driver"))) saying << label->text();
    EXPECT_EQ(saying.size(), 1) << saying.join(QStringLiteral("\n")).toStdString();

    // No chart frame is shown with nothing in it: a shown chart has no empty message.
    for (const char* name : {"rooflineChart", "speedupChart", "kvErrorChart"}) {
        const QWidget* panel = s.view->findChild<QWidget*>(QString::fromLatin1(name));
        ASSERT_NE(panel, nullptr) << name;
        const QString message = QString::fromLatin1(name) == QStringLiteral("kvErrorChart") ? s.view->kvMessage()
                                : QString::fromLatin1(name) == QStringLiteral("rooflineChart")
                                    ? s.view->rooflineMessage()
                                    : s.view->speedupMessage();
        EXPECT_FALSE(panel->isVisible() && !message.isEmpty())
            << name << " is an empty frame: " << message.toStdString();
    }
    EXPECT_FALSE(s.view->findChild<QWidget*>(QStringLiteral("rooflineChart"))->isVisible());
    EXPECT_TRUE(s.view->findChild<QWidget*>(QStringLiteral("kvErrorChart"))->isVisible());
    // One empty state in their place, saying what to do (on a GPU machine, in the app), not why again.
    const QString empty = s.view->chartsEmptyText();
    EXPECT_FALSE(empty.contains(QStringLiteral("--save"))) << empty.toStdString();
    EXPECT_TRUE(empty.contains(QStringLiteral("Run Benchmarks"))) << empty.toStdString();
    // The tables of the parts that were not run step aside: the KV table is the one shown.
    auto* tables = s.view->findChild<QTabWidget*>(QStringLiteral("benchTables"));
    ASSERT_NE(tables, nullptr);
    EXPECT_FALSE(tables->isTabVisible(0));
    EXPECT_FALSE(tables->isTabVisible(1));
    EXPECT_EQ(tables->currentWidget(), static_cast<QWidget*>(s.view->kvTable()));
}

TEST_F(BenchFirstLookTest, TheKvAxisCanBeReadAtTheHeadlineAndFits) {
    const ComparisonDocument demo = demoDocument();
    ASSERT_TRUE(demo.benchmarks.has_value());
    const auto headline = kvHeadline(*demo.benchmarks);
    ASSERT_TRUE(headline.has_value());
    Shown s;
    showDemoBenchmarks(s, demo);
    QChart* chart = s.view->kvChart();
    const auto axes = chart->axes(Qt::Vertical);
    ASSERT_EQ(axes.size(), 1);
    auto* y = qobject_cast<QCategoryAxis*>(axes.first());
    ASSERT_NE(y, nullptr);

    // Labels in percent at log10 of their value; at least three; the headline inside the range, with a label at most
    // a factor 1.5 below it and one at most 1.5 above (0.01 and 0.1 alone were a factor 10 apart).
    const QStringList labels = y->categoriesLabels();
    ASSERT_GE(labels.size(), 3) << labels.join(QLatin1Char(' ')).toStdString();
    double below = 0, above = INFINITY;
    bool betweenDecades = false;
    for (const QString& label : labels) {
        ASSERT_TRUE(label.endsWith(QLatin1Char('%'))) << label.toStdString();
        bool ok = false;
        const double fraction = label.chopped(1).toDouble(&ok) / 100;
        ASSERT_TRUE(ok) << label.toStdString();
        EXPECT_NEAR(y->endValue(label), std::log10(fraction), 1e-9) << label.toStdString();
        const double exponent = std::log10(fraction);
        betweenDecades = betweenDecades || std::abs(exponent - std::round(exponent)) > 1e-6;
        if (fraction <= headline->value) below = std::max(below, fraction);
        if (fraction >= headline->value) above = std::min(above, fraction);
    }
    EXPECT_TRUE(betweenDecades) << labels.join(QLatin1Char(' ')).toStdString();
    const double at = std::log10(headline->value);
    EXPECT_GE(at, y->min());
    EXPECT_LE(at, y->max());
    ASSERT_GT(below, 0) << "no label below " << headline->value;
    ASSERT_TRUE(std::isfinite(above)) << "no label above " << headline->value;
    EXPECT_LE(headline->value / below, 1.5);
    EXPECT_LE(above / headline->value, 1.5);
    // The headline point itself is on the chart: some series passes through log10 of its value.
    bool plotted = false;
    for (QAbstractSeries* series : chart->series())
        if (auto* line = qobject_cast<QXYSeries*>(series))
            for (const QPointF& p : line->points()) plotted = plotted || std::abs(p.y() - at) < 1e-12;
    EXPECT_TRUE(plotted);

    // At 1366 × 768: the axis title fits the plot's height (it was elided "Attention-out…") and the legend lies
    // inside the chart's view (it was cut at the bottom).
    const QFontMetricsF fm(y->titleFont());
    EXPECT_LE(fm.horizontalAdvance(y->titleText()), chart->plotArea().height())
        << y->titleText().toStdString() << " in " << chart->plotArea().height() << " px";
    const QRectF legend = chart->mapRectToScene(chart->legend()->geometry());
    const QRectF viewRect(QPointF(0, 0), s.view->kvView()->viewport()->size());
    EXPECT_TRUE(viewRect.contains(legend))
        << "legend " << legend.x() << "," << legend.y() << " " << legend.width() << "×" << legend.height()
        << " outside " << viewRect.width() << "×" << viewRect.height();
}

}  // namespace
}  // namespace fp8dash::ui::test
