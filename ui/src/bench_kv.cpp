// The KV-cache chart, table and headline of the Local benchmarks tab (bench_kv.h).
#include "bench_kv.h"

#include <QCategoryAxis>
#include <QChart>
#include <QChartView>
#include <QCursor>
#include <QHeaderView>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QPen>
#include <QStandardItemModel>
#include <QTableView>
#include <QToolTip>

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <vector>

#include "bench_charts.h"
#include "fp8dash/core/kv_headline.h"
#include "fp8dash/ui/bench_view.h"
#include "fp8dash/ui/export_actions.h"
#include "fp8dash/ui/loaded_comparison.h"
#include "ui_style.h"

namespace fp8dash::ui::bench {
namespace {

const QList<QColor> kKvColors = {QColor(0x1a, 0x73, 0xe8), QColor(0xd9, 0x48, 0x1c), QColor(0x1e, 0x8e, 0x3e),
                                 QColor(0x8e, 0x24, 0xaa), QColor(0xf2, 0x9e, 0x2e), QColor(0x00, 0x89, 0x7b)};

QString definition(const char* key) {
    return toQString(kvMetricDefinition(key));
}

// A table cell holding a fraction shown as a percentage (the CSV keeps the fraction); "—" where there is none.
QStandardItem* fractionItem(bool has, double v) {
    if (!has || !std::isfinite(v)) return numberItem(-1, QStringLiteral("—"));
    return numberItem(v, toQString(kvPercentText(v)));
}

QStandardItem* countItem(const std::optional<std::uint64_t>& n) {
    if (!n) return numberItem(-1, QStringLiteral("—"));
    return numberItem(static_cast<double>(*n), groupedInteger(*n));
}

// 2.15e9 -> "2,150 M/s" (the CSV keeps elements per second).
QString elementsPerSecondText(double v) {
    if (v >= 1e6) return BenchView::tr("%1 M/s").arg(groupedInteger(static_cast<std::uint64_t>(std::llround(v / 1e6))));
    return BenchView::tr("%1/s").arg(significant(v, 3));
}

QString scalesToolTip(const char* side, const BenchKvSide& s) {
    if (s.scales.empty()) return {};
    double lo = s.scales.front(), hi = s.scales.front();
    for (double v : s.scales) lo = std::min(lo, v), hi = std::max(hi, v);
    return BenchView::tr("%1 scales: %2 of them, %3 to %4")
        .arg(QLatin1String(side))
        .arg(s.scales.size())
        .arg(significant(lo, 4), significant(hi, 4));
}

// How sure the row's attention-output error is, one line each, for the cell's tooltip: its 95 % interval and sample,
// and its paired difference from per_tensor (kv_interval.h). Empty for rows saved before the intervals.
QString intervalToolTip(const BenchKvPoint& p) {
    QString tip;
    if (p.attnOutCi95)
        tip += BenchView::tr("95% CI %1 (%2 query rows over %3 heads)\n")
                   .arg(toQString(kvRangeText(p.attnOutCi95->low, p.attnOutCi95->high)))
                   .arg(p.attnRows)
                   .arg(p.attnHeads);
    if (p.attnOutVsPerTensor && p.attnOutVsPerTensorCi95 && std::isfinite(*p.attnOutVsPerTensor)) {
        const BenchInterval& ci = *p.attnOutVsPerTensorCi95;
        const auto points = [](double fraction) { return fixedText(fraction * 100, 2); };
        tip += BenchView::tr("vs per_tensor: %1 points (95% CI %2 to %3): %4\n")
                   .arg(points(*p.attnOutVsPerTensor), points(ci.low), points(ci.high),
                        ci.containsZero() ? BenchView::tr("within the sampling error")
                                          : BenchView::tr("a real difference"));
    }
    return tip;
}

}  // namespace

void setupKvTable(QStandardItemModel* model) {
    struct Column {
        QString title;
        const char* key;   // kvMetricDefinitions key; nullptr: no definition
        const char* unit;  // the CSV's unit; nullptr: the cell's own
    };
    const std::vector<Column> columns = {
        {BenchView::tr("Scaling"), nullptr, nullptr},
        {BenchView::tr("Context (tokens)"), nullptr, nullptr},
        {BenchView::tr("Attention-output error"), "attn_out_rel_rmse", "fraction"},
        {BenchView::tr("Attention TVD"), "attn_weight_tvd", "fraction"},
        {BenchView::tr("K rel. RMSE"), "key.rel_rmse", "fraction"},
        {BenchView::tr("V rel. RMSE"), "value.rel_rmse", "fraction"},
        {BenchView::tr("Saturated K"), "saturated", nullptr},
        {BenchView::tr("Saturated V"), "saturated", nullptr},
        {BenchView::tr("Elements/s"), "elements_per_s", "1/s"},
        {BenchView::tr("K/V rel. RMSE"), "rel_rmse", "fraction"},
        {BenchView::tr("Max abs error"), "max_abs_error", nullptr},
        {BenchView::tr("Cosine"), "cosine", nullptr},
        {BenchView::tr("Old attention figure (not comparable)"), "attn_rel_error", nullptr},
    };
    model->setColumnCount(static_cast<int>(columns.size()));
    for (int c = 0; c < static_cast<int>(columns.size()); ++c) {
        const Column& col = columns[static_cast<std::size_t>(c)];
        model->setHeaderData(c, Qt::Horizontal, col.title, Qt::DisplayRole);
        if (col.key) model->setHeaderData(c, Qt::Horizontal, definition(col.key), Qt::ToolTipRole);
        if (col.unit) model->setHeaderData(c, Qt::Horizontal, QString::fromLatin1(col.unit), exporting::kCsvUnitRole);
    }
    model->setHeaderData(BenchView::KvScaling, Qt::Horizontal,
                         BenchView::tr("none: scale 1.0 (vLLM without scales); per_tensor: one scale per layer from "
                                       "the first prompt (vLLM's --calculate-kv-scales); per_head: amax/448 per head"),
                         Qt::ToolTipRole);
}

void fillKvTable(QStandardItemModel* model, QTableView* table, const BenchResults& r) {
    bool legacyColumn = false;
    for (const BenchKvPoint& p : r.kv) {
        const bool a = p.hasAttentionMetrics;
        QList<QStandardItem*> row;
        row << textItem(toQString(p.scaling))
            << numberItem(p.context, groupedInteger(static_cast<std::uint64_t>(p.context)))
            << fractionItem(a, p.attnOutRelRmse) << fractionItem(a, p.attnWeightTvd)
            << fractionItem(true, p.key.relRmse) << fractionItem(true, p.value.relRmse) << countItem(p.key.saturated)
            << countItem(p.value.saturated)
            << (p.elementsPerSecond > 0 ? numberItem(p.elementsPerSecond, elementsPerSecondText(p.elementsPerSecond))
                                        : numberItem(-1, QStringLiteral("—")))
            << fractionItem(true, p.relRmse) << numberItem(p.maxAbsError, significant(p.maxAbsError))
            << numberItem(p.cosine, fixed(p.cosine, 6));
        const bool legacy = !a && p.legacyAttnRelError;
        legacyColumn = legacyColumn || legacy;
        row << (legacy ? numberItem(*p.legacyAttnRelError, significant(*p.legacyAttnRelError))
                       : numberItem(-1, QStringLiteral("—")));
        if (a) {
            row[BenchView::KvAttnOutError]->setToolTip(
                intervalToolTip(p) + BenchView::tr("cosine %1, attention entropy %2 nats, worst row's TVD %3")
                                         .arg(fixed(p.attnOutCosine, 6), fixed(p.attnEntropy, 2),
                                              toQString(kvPercentText(p.attnWeightTvdMax))));
        }
        row[BenchView::KvKeySaturated]->setToolTip(scalesToolTip("K", p.key));
        row[BenchView::KvValueSaturated]->setToolTip(scalesToolTip("V", p.value));
        model->appendRow(row);
    }
    table->setColumnHidden(BenchView::KvLegacyAttnError, !legacyColumn);
}

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
    QString title, tip;
    switch (metric) {
        case KvChartMetric::AttentionOutput:
            title = BenchView::tr("Attention-output error");
            tip = definition("attn_out_rel_rmse");
            break;
        case KvChartMetric::AttentionTvd:
            title = BenchView::tr("Attention TVD");
            tip = definition("attn_weight_tvd");
            break;
        case KvChartMetric::KvRelRmse:
            title = anyAttention ? BenchView::tr("K/V rel. RMSE")
                                 : BenchView::tr("K/V rel. RMSE (saved before the attention-output error)");
            tip = definition("rel_rmse") + QLatin1Char(' ') + definition("key.rel_rmse");
            break;
    }
    std::vector<double> contexts;
    for (const auto& [scaling, points] : byScaling)
        for (const auto& point : points) contexts.push_back(point.first);
    QCategoryAxis* x = log2TokenAxis(BenchView::tr("Context tokens (log₂ scale)"), contexts);
    auto* y = new QLogValueAxis;
    y->setBase(10);
    y->setTitleText(title);
    y->setLabelFormat(QStringLiteral("%g"));
    y->setMinorTickCount(8);
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    double vLo = INFINITY, vHi = 0;
    int colour = 0;
    QChartView* view = panel->chartView();
    for (const std::string& scaling : order) {
        auto& points = byScaling[scaling];
        std::sort(points.begin(), points.end());
        auto* s = new QLineSeries;
        s->setName(toQString(scaling));
        QPen pen(kKvColors[colour++ % kKvColors.size()]);
        pen.setWidthF(2.0);
        s->setPen(pen);
        s->setPointsVisible(true);
        for (const auto& [context, v] : points) {
            s->append(log2Of(context), v);
            vLo = std::min(vLo, v);
            vHi = std::max(vHi, v);
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
    fitLogAxis(y, vLo, vHi);
    view->setToolTip(QStringLiteral("%1: %2").arg(title, tip));
    panel->showChart();
}

QString kvHeadlineHtml(const std::optional<BenchResults>& results) {
    if (!results) return {};
    const auto h = kvHeadline(*results);
    if (!h) return {};
    return BenchView::tr("<b>FP8 KV cache:</b> %1. %2")
        .arg(style::escaped(toQString(h->summary())), style::escaped(toQString(h->reading)));
}

}  // namespace fp8dash::ui::bench
