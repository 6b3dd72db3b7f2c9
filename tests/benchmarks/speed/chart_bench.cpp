// fp8dash-bench-chart (speed target 3, ../README.md): the production timeline's chart with 1M points per series
// (throughput and quality), drawn by the app's own TimelineView at 1280 x 720 on the offscreen platform (or the one
// QT_QPA_PLATFORM names): a redraw of what is drawn after downsampling (2,000 points per series), and a pan (the
// visible range downsampled again from the full data, then drawn). Not a test: figures go to README.md here.
#include <benchmark/benchmark.h>

#include <QApplication>
#include <QChart>
#include <QImage>
#include <QLineSeries>
#include <QPainter>

#include <cmath>
#include <cstdlib>
#include <memory>
#include <random>

#include "fp8dash/core/timeline.h"
#include "fp8dash/ui/timeline_chart_view.h"
#include "fp8dash/ui/timeline_view.h"

namespace fp8dash::bench {
namespace {

constexpr std::size_t kPointsPerSeries = 1'000'000;

// A month of 1M throughput samples and 1M quality scores (one every 2.6 s), FP8 on half-way, one alert episode.
TimelineData timeline() {
    TimelineData d;
    d.settings.from = 1795852800;
    d.settings.to = d.settings.from + 30 * 86400.0;
    d.settings.step = 15;
    d.settings.changeAt = d.settings.from + 15 * 86400.0;
    d.settings.qualitySource = QualitySource::Prometheus;
    d.settings.prometheusUrl = "http://prometheus.invalid:9090";
    std::mt19937_64 rng(11);
    std::normal_distribution<double> noise(0, 40);
    Series throughput, quality;
    const double dt = (d.settings.to - d.settings.from) / static_cast<double>(kPointsPerSeries - 1);
    for (std::size_t i = 0; i < kPointsPerSeries; ++i) {
        const double t = d.settings.from + dt * static_cast<double>(i);
        const double daily = 250 * std::sin((t - d.settings.from) / 86400.0 * 2 * M_PI);
        throughput.samples.push_back({t, (t < *d.settings.changeAt ? 1000.0 : 1450.0) + daily + noise(rng)});
        quality.samples.push_back({t, std::clamp(4.2 + noise(rng) / 80.0, 1.0, 5.0)});
    }
    d.throughput = std::move(throughput);
    d.quality = std::move(quality);
    d.alerts.push_back(
        {*d.settings.changeAt + 86400, *d.settings.changeAt + 86400 + 900, *d.settings.changeAt + 90000});
    d.alertsEvaluatedBy = "prometheus";
    return d;
}

struct Chart {
    TimelineData data = timeline();
    TimelineReport report = evaluateTimeline(data);
    std::unique_ptr<ui::TimelineView> view = std::make_unique<ui::TimelineView>();
    Chart() {
        view->setTimeline(&data, &report);
        view->setAttribute(Qt::WA_DontShowOnScreen);
        view->resize(1280, 720);
        view->show();
        QCoreApplication::processEvents();
    }
};

Chart& chart() {
    static Chart c;
    return c;
}

// The chart view paints itself as it does on screen (QWidget::repaint: its paint event, now, into the backing store).
void BM_ChartRedraw(benchmark::State& state) {
    Chart& c = chart();
    for (auto _ : state) c.view->chartView()->viewport()->repaint();
    state.counters["drawn_points_per_series"] = static_cast<double>(c.view->throughputSeries()->count());
    state.counters["points_per_series"] = static_cast<double>(kPointsPerSeries);
}

// The same picture into an image at a scale (2: a high-DPI screen, and the reports' charts).
void BM_ChartRenderToImage(benchmark::State& state) {
    Chart& c = chart();
    const qreal scale = static_cast<qreal>(state.range(0));
    QImage image(c.view->chartView()->size() * scale, QImage::Format_ARGB32_Premultiplied);
    image.setDevicePixelRatio(scale);
    for (auto _ : state) {
        image.fill(Qt::white);
        QPainter painter(&image);
        painter.setRenderHint(QPainter::Antialiasing);
        static_cast<QWidget*>(c.view->chartView())->render(&painter, QPoint(), QRegion(), QWidget::DrawChildren);
    }
}

// A pan by a tenth of the visible range at a zoom (range(0) = the visible share of the month, in percent): the
// visible part of the full data downsampled again (LTTB) and the series replaced, then the chart drawn.
void BM_ChartPanAndRedraw(benchmark::State& state) {
    Chart& c = chart();
    const auto [from, to] = c.view->fullRange();
    const double span = (to - from) * static_cast<double>(state.range(0)) / 100.0;
    c.view->zoomTo(from, from + span);
    double direction = 0.1;
    for (auto _ : state) {
        const auto [viewFrom, viewTo] = c.view->visibleRange();
        if ((direction > 0 && viewTo >= to) || (direction < 0 && viewFrom <= from)) direction = -direction;
        c.view->panBy(direction);
        c.view->chartView()->viewport()->repaint();
    }
    c.view->resetZoom();
}

}  // namespace
}  // namespace fp8dash::bench

using namespace fp8dash::bench;

BENCHMARK(BM_ChartRedraw)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ChartRenderToImage)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ChartPanAndRedraw)->Arg(100)->Arg(10)->Arg(1)->Unit(benchmark::kMillisecond);

int main(int argc, char** argv) {
    if (!std::getenv("QT_QPA_PLATFORM")) ::setenv("QT_QPA_PLATFORM", "offscreen", 1);
    QApplication app(argc, argv);
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    chart().view.reset();  // widgets go before the QApplication
    return 0;
}
