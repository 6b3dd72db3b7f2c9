#pragma once
// Pictures of a comparison's charts as the app's own views draw them (the domain judge's score distribution, the
// production timeline, the local benchmarks' roofline, FP8 speedup and KV-cache error, the serving throughput–latency
// curve), for reports, the presentation mode and chart export. Each chart is drawn by a fresh, never-shown instance of
// its view, in the light chart palette (it prints and projects well whatever the app's theme), at a logical size and
// a scale: 960 × 480 at scale 2 is a 1920 × 960 pixel image whose text has the size it has in a 960-pixel-wide view.
// Needs a QApplication (the offscreen platform will do); GUI thread only.

#include <QByteArray>
#include <QImage>
#include <QSize>
#include <QString>

#include <optional>
#include <vector>

#include "fp8dash/core/serving_comparison.h"
#include "fp8dash/ui/loaded_comparison.h"

class QChart;
class QChartView;

namespace fp8dash::ui {

struct ChartSnapshot {
    QString key;      // "evals-forest" (several candidates: "evals-forest-1", "evals-forest-2", …), "long-context",
                      // "judge-distribution", "timeline", "bench-roofline", "bench-speedup", "bench-kv", "serving"
    QString title;    // "Domain judge: score distribution"
    QString caption;  // what it shows, one sentence (the image's alternative text)
    QImage image;     // logicalSize × scale pixels, devicePixelRatio = scale
};

// The charts the document has data for, in the order of the decision (evals, judge, timeline, benchmarks, serving); the
// evals' forest plot ("evals-forest") is as tall as its tasks need, the others logicalSize. A chart whose
// section holds nothing to draw (benchmarks skipped on a machine without a GPU) is left out.
std::vector<ChartSnapshot> renderChartSnapshots(const LoadedComparison& loaded, QSize logicalSize = {960, 480},
                                                qreal scale = 2.0);

// The serving comparison's throughput–latency chart ("serving"): the Serving tab's curve at the statistic the tab
// opens with (ServingChart::openingStatistic: the SLO's first target, else p99 TTFT), its SLO line and capacity
// stars; nullopt where no variant has a load the axis can place (unbounded loads only: the tables say it all).
std::optional<ChartSnapshot> servingSnapshot(const ServingComparison& c, QSize logicalSize = {960, 480},
                                             qreal scale = 2.0);
// A chart as its view draws it, resized to logicalSize first (the view is left at that size).
QImage renderChartImage(QChartView* view, QSize logicalSize, qreal scale = 2.0);
// The evals' forest plot at a logical width, as tall as its rows need (naturalHeight), in the light palette.
class ForestPlot;
QImage renderForestPlotImage(ForestPlot& plot, int logicalWidth, qreal scale = 2.0);
// The same chart as an SVG document (vector: text and lines stay sharp at any size); title names the drawing.
QByteArray renderChartSvg(QChartView* view, QSize logicalSize, const QString& title);
QByteArray pngBytes(const QImage& image);

}  // namespace fp8dash::ui
