#include "fp8dash/ui/chart_snapshots.h"

#include <QBuffer>
#include <QChart>
#include <QChartView>
#include <QCoreApplication>
#include <QGraphicsItem>
#include <QPainter>
#include <QSvgGenerator>

#include <memory>
#include <utility>
#include <vector>

#include "bench/bench_charts.h"
#include "fp8dash/ui/bench_view.h"
#include "fp8dash/ui/forest_plot.h"
#include "fp8dash/ui/judge_view.h"
#include "fp8dash/ui/long_context_panel.h"
#include "fp8dash/ui/serving_chart.h"
#include "fp8dash/ui/timeline_chart_view.h"
#include "fp8dash/ui/timeline_view.h"

namespace fp8dash::ui {

namespace {

// A view that is not on screen gets its size, polish and layout the way a shown one would, without a window ever
// appearing (WA_DontShowOnScreen): chart layouts and the timeline's overlays follow the size before it is drawn.
void prepareOffscreen(QChartView* view, QSize logicalSize) {
    if (view->isVisible() && view->size() == logicalSize) return;
    if (!view->isVisible()) {
        if (view->parentWidget()) view->setParent(nullptr);  // a page of a hidden view: drawn on its own
        view->setAttribute(Qt::WA_DontShowOnScreen);
        view->resize(logicalSize);
        view->show();
    } else {
        view->resize(logicalSize);
    }
    QCoreApplication::sendPostedEvents();  // the chart's layout request, then the overlays that follow the plot area
}

// Items a view draws from device-pixel caches on screen (the timeline's lines, TimelineView) are drawn directly for a
// picture: a cache is a bitmap (an SVG would embed it as an image) aligned to whole device pixels (at scale 2 a line
// would move by up to half a pixel). Their cache modes come back afterwards.
class DirectDrawing {
public:
    explicit DirectDrawing(QChartView* view) {
        if (view->chart()) uncache(view->chart());
    }
    ~DirectDrawing() {
        for (const auto& [item, mode] : m_cached) item->setCacheMode(mode);
    }
    DirectDrawing(const DirectDrawing&) = delete;
    DirectDrawing& operator=(const DirectDrawing&) = delete;

private:
    void uncache(QGraphicsItem* item) {
        if (item->cacheMode() != QGraphicsItem::NoCache) {
            m_cached.emplace_back(item, item->cacheMode());
            item->setCacheMode(QGraphicsItem::NoCache);
        }
        for (QGraphicsItem* child : item->childItems()) uncache(child);
    }
    std::vector<std::pair<QGraphicsItem*, QGraphicsItem::CacheMode>> m_cached;
};

}  // namespace

QImage renderChartImage(QChartView* view, QSize logicalSize, qreal scale) {
    prepareOffscreen(view, logicalSize);
    const DirectDrawing direct(view);
    const QSize size = view->size();
    QImage image(size * scale, QImage::Format_ARGB32_Premultiplied);
    image.setDevicePixelRatio(scale);
    image.fill(Qt::white);
    QPainter painter(&image);
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setRenderHint(QPainter::TextAntialiasing);
    // QWidget::render (QGraphicsView::render would draw the scene alone, without the view's own widgets).
    static_cast<QWidget*>(view)->render(&painter, QPoint(), QRegion(), QWidget::DrawChildren);
    painter.end();
    return image;
}

QImage renderForestPlotImage(ForestPlot& plot, int logicalWidth, qreal scale) {
    plot.setAttribute(Qt::WA_DontShowOnScreen);
    plot.resize(logicalWidth, plot.naturalHeight());
    QImage image(plot.size() * scale, QImage::Format_ARGB32_Premultiplied);
    image.setDevicePixelRatio(scale);
    image.fill(Qt::white);
    QPainter painter(&image);
    plot.render(&painter, QPoint(), QRegion(), QWidget::DrawChildren);
    painter.end();
    return image;
}

QByteArray renderChartSvg(QChartView* view, QSize logicalSize, const QString& title) {
    prepareOffscreen(view, logicalSize);
    const DirectDrawing direct(view);
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    QSvgGenerator svg;
    svg.setOutputDevice(&buffer);
    svg.setSize(view->size());
    svg.setViewBox(QRect(QPoint(0, 0), view->size()));
    svg.setTitle(title);
    svg.setDescription(QStringLiteral("Drawn by fp8dash %1").arg(QCoreApplication::applicationVersion()));
    QPainter painter(&svg);
    painter.setRenderHint(QPainter::Antialiasing);
    // QWidget::render (QGraphicsView::render would draw the scene alone, without the view's own widgets).
    static_cast<QWidget*>(view)->render(&painter, QPoint(), QRegion(), QWidget::DrawChildren);
    painter.end();
    return bytes;
}

QByteArray pngBytes(const QImage& image) {
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    image.save(&buffer, "PNG");
    return bytes;
}

std::vector<ChartSnapshot> renderChartSnapshots(const LoadedComparison& loaded, QSize logicalSize, qreal scale) {
    const ComparisonDocument& doc = loaded.document;
    const Decision& decision = loaded.decision;
    std::vector<ChartSnapshot> out;
    const QString baselineLabel = doc.hasEvals ? toQString(doc.baseline.label) : QStringLiteral("BF16");
    const QString candidateLabel = doc.hasEvals ? toQString(doc.candidate.label) : QStringLiteral("FP8");

    // Each view is a throwaway: its chart views are detached and drawn on their own, then everything is deleted.
    const auto take = [&](QChartView* view, const QString& key, const QString& title, const QString& caption) {
        std::unique_ptr<QChartView> owned(view);
        out.push_back({key, title, caption, renderChartImage(view, logicalSize, scale)});
    };

    // The forest plot of the evals, worst first, as tall as its rows need: a two-run comparison's ("evals-forest"),
    // or with several candidates one per candidate ("evals-forest-1", "evals-forest-2", …, in the candidates' order,
    // each in its own evals section of the report), as the app's plot shows the candidate picked.
    const auto forest = [&](const ComparisonReport& report, const QString& key, const QString& title) {
        if (report.tasks.empty()) return;
        ForestPlot plot;
        plot.setAlwaysLight(true);
        plot.setReport(report);
        out.push_back({key, title,
                       QObject::tr("Each task's degradation (dot) and its 95 % interval (bar) over the go, monitor "
                                   "and investigate bands, worst first."),
                       renderForestPlotImage(plot, logicalSize.width(), scale)});
    };
    if (doc.hasEvals && decision.evals && !decision.variants)
        forest(*decision.evals, QStringLiteral("evals-forest"), QObject::tr("Degradation by task"));
    if (doc.hasEvals && decision.variants) {
        for (std::size_t k = 0; k < decision.variants->variants.size(); ++k) {
            const VariantResult& v = decision.variants->variants[k];
            forest(v.report, QStringLiteral("evals-forest-%1").arg(k + 1),
                   QObject::tr("Degradation by task: %1 against %2")
                       .arg(toQString(v.label), toQString(decision.variants->baselineLabel)));
        }
    }
    if (decision.evals && decision.evals->longContext)
        take(makeLongContextChartView(*decision.evals), QStringLiteral("long-context"),
             QObject::tr("Degradation by context length"),
             QObject::tr("The mean degradation of the per-length tasks (RULER) at each context length, against the "
                         "go and investigate thresholds."));
    if (doc.judge && decision.judge) {
        auto view = std::make_unique<JudgeView>();
        view->setJudge(&*doc.judge, &*decision.judge, baselineLabel, candidateLabel);
        if (!view->isEmptyState())
            take(view->chartView(), QStringLiteral("judge-distribution"),
                 QObject::tr("Domain judge: score distribution"),
                 QObject::tr("How many samples each side's judge scores fell on, %1 beside %2.")
                     .arg(baselineLabel, candidateLabel));
    }
    if (doc.timeline) {
        auto view = std::make_unique<TimelineView>();
        view->setTimeline(&*doc.timeline, decision.timeline ? &*decision.timeline : nullptr);
        if (view->hasTimeline())
            take(view->chartView(), QStringLiteral("timeline"), QObject::tr("Production timeline"),
                 QObject::tr("Serving throughput and judge quality on one time axis around the FP8 change, with "
                             "the quality alert's pending and firing spans."));
    }
    if (doc.benchmarks) {
        auto view = std::make_unique<BenchView>();
        view->setResults(&*doc.benchmarks);
        if (view->rooflineMessage().isEmpty())
            take(view->rooflineView(), QStringLiteral("bench-roofline"), QObject::tr("GEMM roofline: BF16 and FP8"),
                 QObject::tr("Measured TFLOP/s of each GEMM shape against its arithmetic intensity, under the "
                             "datasheet's compute and bandwidth roofs."));
        if (view->speedupMessage().isEmpty())
            take(view->speedupView(), QStringLiteral("bench-speedup"), QObject::tr("FP8 speedup by batch size"),
                 QObject::tr("FP8 over BF16 time for each linear layer of one decoder block, by tokens per batch."));
        if (view->kvMessage().isEmpty())
            take(view->kvView(), QStringLiteral("bench-kv"), QObject::tr("KV-cache FP8 error by context length"),
                 QObject::tr("The error of storing the K/V cache in FP8 E4M3 with each scaling, by context length."));
    }
    if (decision.serving) {
        if (auto serving = servingSnapshot(*decision.serving, logicalSize, scale)) out.push_back(std::move(*serving));
    }
    return out;
}

std::optional<ChartSnapshot> servingSnapshot(const ServingComparison& c, QSize logicalSize, qreal scale) {
    // Only where the load axis has a point to place (a comparison of unbounded loads alone is in the tables only).
    bool plottable = false;
    for (const ServingVariantResult& v : c.variants)
        for (const ServingPoint& p : v.points)
            plottable = plottable || (p.load.axis == c.axis && p.load.axis != LoadAxis::Unbounded && p.load.value > 0);
    if (!plottable) return std::nullopt;
    const ServingChart::Statistic st = ServingChart::openingStatistic(c);
    const QString stat = ServingChart::statisticName(st);
    const QString load = c.axis == LoadAxis::RequestRate ? QObject::tr("request rate") : QObject::tr("concurrency");
    bool sloLine = false;
    for (const SloTarget& t : c.slo.targets)
        sloLine = sloLine || (t.metric == st.metric && t.percentile == st.percentile);
    QString caption;
    if (sloLine)
        caption = QObject::tr(
                      "Each variant's %1 at each measured %2, with the SLO's limit as a dashed line and each "
                      "variant's capacity at the SLO as a star.")
                      .arg(stat, load);
    else if (!c.slo.empty())
        caption = QObject::tr(
                      "Each variant's %1 at each measured %2, with each variant's capacity at the SLO as a "
                      "star.")
                      .arg(stat, load);
    else
        caption =
            QObject::tr("Each variant's %1 at each measured %2; no latency SLO was set, so no capacity is marked.")
                .arg(stat, load);
    return ChartSnapshot{QStringLiteral("serving"), QObject::tr("Serving: %1 against %2").arg(stat, load), caption,
                         ServingChart::renderImage(c, ServingChart::Quantity::Latency, st, logicalSize, scale)};
}

}  // namespace fp8dash::ui
