// The KV-cache chart and headline of the Local benchmarks tab (bench_kv.h).
#include "bench/bench_kv.h"

#include <QCategoryAxis>
#include <QChart>
#include <QChartView>
#include <QCursor>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QPen>
#include <QToolTip>

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <vector>

#include "bench/bench_charts.h"
#include "fp8dash/core/kv_headline.h"
#include "fp8dash/ui/bench_view.h"
#include "fp8dash/ui/export_actions.h"
#include "fp8dash/ui/loaded_comparison.h"
#include "widgets/ui_style.h"
#include "widgets/untrusted_ui.h"

namespace fp8dash::ui::bench {
namespace {

const QList<QColor> kKvColors = {QColor(0x1a, 0x73, 0xe8), QColor(0xd9, 0x48, 0x1c), QColor(0x1e, 0x8e, 0x3e),
                                 QColor(0x8e, 0x24, 0xaa), QColor(0xf2, 0x9e, 0x2e), QColor(0x00, 0x89, 0x7b)};

QString definition(const char* key) {
    return toQString(kvMetricDefinition(key));
}

}  // namespace

void fillKvChart(ChartPanel* panel, const std::optional<BenchResults>& results, KvChartMetric metric) {
    QChart* chart = panel->chart();
    chart->removeAllSeries();
    for (QAbstractAxis* axis : chart->axes()) {
        chart->removeAxis(axis);
        delete axis;
    }
    QString empty;
    if (!results) {
        empty =
            BenchView::tr("No benchmark results yet: run them on this machine, or open a comparison that holds them.");
    } else if (!results->kvSkipped.empty()) {
        empty = BenchView::tr("KV-cache experiment not run: %1").arg(toQString(results->kvSkipped));
    } else if (results->kv.empty()) {
        empty = BenchView::tr("KV-cache experiment not run.");
    }
    bool anyAttention = false;
    if (results)
        for (const BenchKvPoint& p : results->kv) anyAttention = anyAttention || p.hasAttentionMetrics;
    // Older results have no attention figures: the headline's fallback, K/V rel RMSE, saying so on the axis.
    if (!anyAttention && metric != KvChartMetric::KvRelRmse) metric = KvChartMetric::KvRelRmse;
    const auto valueOf = [metric](const BenchKvPoint& p) {
        switch (metric) {
            case KvChartMetric::AttentionOutput:
                return p.hasAttentionMetrics ? p.attnOutRelRmse : NAN;
            case KvChartMetric::AttentionTvd:
                return p.hasAttentionMetrics ? p.attnWeightTvd : NAN;
            case KvChartMetric::KvRelRmse:
                break;
        }
        return p.relRmse;
    };
    std::map<std::string, std::vector<std::pair<int, double>>> byScaling;
    std::vector<std::string> order;
    if (empty.isEmpty()) {
        for (const BenchKvPoint& p : results->kv) {
            const double v = valueOf(p);
            if (!(v > 0) || !std::isfinite(v) || p.context <= 0) continue;
            if (!byScaling.count(p.scaling)) order.push_back(p.scaling);
            byScaling[p.scaling].emplace_back(p.context, v);
        }
        if (byScaling.empty()) empty = BenchView::tr("Every KV-cache error is zero: nothing to draw on a log scale.");
    }
    if (!empty.isEmpty()) {
        panel->chartView()->setToolTip(QString());
        panel->showEmpty(empty);
        return;
    }
    QString title, shortTitle, tip;
    switch (metric) {
        case KvChartMetric::AttentionOutput:
            title = BenchView::tr("Attention-output error");
            shortTitle = BenchView::tr("Output error");
            tip = definition("attn_out_rel_rmse");
            break;
        case KvChartMetric::AttentionTvd:
            title = BenchView::tr("Attention TVD");
            shortTitle = BenchView::tr("TVD");
            tip = definition("attn_weight_tvd");
            break;
        case KvChartMetric::KvRelRmse:
            title = anyAttention ? BenchView::tr("K/V rel. RMSE")
                                 : BenchView::tr("K/V rel. RMSE (saved before the attention-output error)");
            shortTitle = BenchView::tr("K/V rel. RMSE");
            tip = definition("rel_rmse") + QLatin1Char(' ') + definition("key.rel_rmse");
            break;
    }
    std::vector<double> contexts;
    for (const auto& [scaling, points] : byScaling)
        for (const auto& point : points) contexts.push_back(point.first);
    QCategoryAxis* x = log2TokenAxis(BenchView::tr("Context tokens (log₂ scale)"), contexts);
    double vLo = INFINITY, vHi = 0;
    for (const auto& [scaling, points] : byScaling)
        for (const auto& point : points) {
            vLo = std::min(vLo, point.second);
            vHi = std::max(vHi, point.second);
        }
    // A log scale labelled in percent between the decades too (4.6% sits between "4%" and "5%"), its title short
    // enough for the chart's height at 1366 × 768 (the metric's full name is in the chart's title and tooltip).
    QCategoryAxis* y = logPercentAxis(shortTitle, vLo, vHi);
    chart->setTitle(BenchView::tr("%1 of an FP8 KV cache, by context").arg(title));
    chart->legend()->setAlignment(Qt::AlignRight);  // beside the lines: below them it was clipped on short windows
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    int colour = 0;
    QChartView* view = panel->chartView();
    for (const std::string& scaling : order) {
        auto& points = byScaling[scaling];
        std::sort(points.begin(), points.end());
        auto* s = new QLineSeries;
        s->setName(chartText(toQString(scaling)));  // from the results file
        QPen pen(kKvColors[colour++ % kKvColors.size()]);
        pen.setWidthF(2.0);
        s->setPen(pen);
        s->setPointsVisible(true);
        for (const auto& [context, v] : points) {
            s->append(log2Of(context), std::log10(v));
        }
        // The series' tooltip: the metric's definition, shown while the pointer is on the line.
        const QString seriesTip = QStringLiteral("%1 — %2: %3").arg(toQString(scaling), title, tip);
        s->setProperty("toolTip", seriesTip);
        QObject::connect(s, &QLineSeries::hovered, view, [view, seriesTip](const QPointF&, bool on) {
            if (on)
                QToolTip::showText(QCursor::pos(), seriesTip, view);
            else
                QToolTip::hideText();
        });
        chart->addSeries(s);
        s->attachAxis(x);
        s->attachAxis(y);
    }
    view->setToolTip(escapedTip(QStringLiteral("%1: %2").arg(title, tip)));
    panel->showChart();
}

QString kvHeadlineHtml(const std::optional<BenchResults>& results) {
    if (!results) return {};
    const auto h = kvHeadline(*results);
    if (!h) return {};
    // The model whose KV heads and head_dim shaped the cache, so a figure is never read as another model's.
    const QString of = results->model.empty()
                           ? QString()
                           : BenchView::tr(" of %1").arg(style::escaped(visibleText(toQString(results->model))));
    return BenchView::tr("<b>FP8 KV cache%1:</b> %2. %3")
        .arg(of, style::escaped(toQString(h->summary())), style::escaped(toQString(h->reading)));
}

}  // namespace fp8dash::ui::bench
