// BenchView's charts: the roofline (with its hover text), the FP8 speedup and the KV-cache error.
#include "fp8dash/ui/bench_view.h"

#include <QApplication>
#include <QCategoryAxis>
#include <QChart>
#include <QChartView>
#include <QCheckBox>
#include <QComboBox>
#include <QElapsedTimer>
#include <QFrame>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLegend>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QPen>
#include <QPointer>
#include <QProgressBar>
#include <QPushButton>
#include <QScatterSeries>
#include <QScrollArea>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QToolTip>
#include <QVBoxLayout>
#include <QValueAxis>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <map>
#include <mutex>

#include "bench/bench_charts.h"
#include "bench/bench_kv.h"
#include "fp8dash/core/kv_headline.h"
#include "fp8dash/core/model_architecture.h"
#include "fp8dash/ui/background_job.h"
#include "fp8dash/ui/export_actions.h"
#include "fp8dash/ui/loaded_comparison.h"
#include "widgets/ui_style.h"

#include "bench/bench_view_parts.h"

namespace fp8dash::ui {

using namespace bench_view_parts;
using bench::ChartPanel;
using bench::fixed;
using bench::groupedInteger;
using bench::significant;

namespace {

// Why the GEMM charts have nothing to show, or an empty string when they have.
QString gemmEmptyReason(const std::optional<BenchResults>& r) {
    if (!r)
        return BenchView::tr(
            "No benchmark results yet: run them on this machine, or open a comparison that "
            "holds them.");
    if (!r->gemmSkipped.empty()) return BenchView::tr("GEMM not run: %1").arg(toQString(r->gemmSkipped));
    if (r->gemm.empty()) return BenchView::tr("GEMM not run.");
    for (const BenchGemmPoint& p : r->gemm) {
        if (measured(p)) return {};
    }
    return BenchView::tr("No GEMM case was measured: %1").arg(toQString(r->gemm.front().skipped));
}

}  // namespace

void BenchView::rebuildRoofline() {
    QChart* chart = m_roofline->chart();
    resetChart(chart);
    m_roofPoints.clear();
    const QString empty = gemmEmptyReason(m_results);
    if (!empty.isEmpty()) {
        m_roofline->showEmpty(empty);
        return;
    }
    const BenchResults& r = *m_results;

    auto* x = logAxis(tr("Arithmetic intensity (FLOP/byte)"), 10, QStringLiteral("%g"));
    auto* y = logAxis(tr("TFLOP/s"), 10, QStringLiteral("%g"));
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);

    double xLo = INFINITY, xHi = 0, yLo = INFINITY, yHi = 0;
    auto widen = [&](double ai, double tflops) {
        xLo = std::min(xLo, ai);
        xHi = std::max(xHi, ai);
        yLo = std::min(yLo, tflops);
        yHi = std::max(yHi, tflops);
    };
    QScatterSeries* bf16 = scatterSeries(tr("BF16"), kBf16Color);
    QScatterSeries* fp8 = scatterSeries(tr("FP8"), kFp8Color);
    QScatterSeries* fp8Fast = scatterSeries(tr("FP8 fast acc."), kFp8FastColor);
    std::vector<std::size_t> bf16Rows, fp8Rows, fastRows;
    for (std::size_t i = 0; i < r.gemm.size(); ++i) {
        const BenchGemmPoint& p = r.gemm[i];
        if (!measured(p) || isFp4(p)) continue;  // the roofline compares BF16 and FP8; FP4 rows are in the table
        const double ai = p.arithmeticIntensity();
        widen(ai, p.tflops);
        if (!isFp8(p)) {
            bf16->append(ai, p.tflops);
            bf16Rows.push_back(i);
        } else if (p.fastAccum) {
            fp8Fast->append(ai, p.tflops);
            fastRows.push_back(i);
        } else {
            fp8->append(ai, p.tflops);
            fp8Rows.push_back(i);
        }
    }
    // The roofs, when the device has a datasheet entry: compute ceilings from their ridge point on, and the bandwidth
    // diagonal (TFLOP/s = GB/s x FLOP/byte / 1000) up to the higher ridge.
    if (r.device.peak && r.device.peak->memoryBandwidthGBps > 0) {
        const BenchPeak& peak = *r.device.peak;
        const double bw = peak.memoryBandwidthGBps / 1000.0;  // TFLOP/s per FLOP/byte
        const double topPeak = std::max(peak.bf16DenseTflops, peak.fp8DenseTflops);
        const double diagStart = xLo / 4;
        const double ridgeTop = topPeak / bw;
        xLo = diagStart;
        xHi = std::max(xHi, ridgeTop * 4);
        yHi = std::max(yHi, topPeak);
        yLo = std::min(yLo, diagStart * bw);
        auto addRoof = [&](double tflops, const QString& name, const QColor& color) {
            if (tflops <= 0) return;
            QLineSeries* roof = lineSeries(name, color, Qt::DashLine);
            roof->append(tflops / bw, tflops);
            roof->append(xHi, tflops);
            attach(chart, roof, x, y);
        };
        // Short legend names (three charts share the width); the figures are in the device card.
        addRoof(peak.bf16DenseTflops, tr("BF16 roof"), kBf16Color);
        addRoof(peak.fp8DenseTflops, tr("FP8 roof"), kFp8Color);
        QLineSeries* diag = lineSeries(tr("Memory roof"), kBandwidthRoofColor, Qt::SolidLine);
        diag->append(diagStart, diagStart * bw);
        diag->append(ridgeTop, topPeak);
        attach(chart, diag, x, y);
    }
    for (auto [series, rows] : {std::pair{bf16, &bf16Rows}, std::pair{fp8, &fp8Rows}, std::pair{fp8Fast, &fastRows}}) {
        if (rows->empty()) {
            delete series;
            continue;
        }
        attach(chart, series, x, y);
        m_roofPoints.emplace_back(series, *rows);
        connect(series, &QScatterSeries::hovered, this,
                // An init-capture: Clang before 16 cannot capture a structured binding by name.
                [this, s = series](const QPointF& point, bool state) { roofPointHovered(s, point, state); });
    }
    bench::fitLogAxis(x, xLo, xHi);
    bench::fitLogAxis(y, yLo / 1.2, yHi * 1.3);
    m_roofline->showChart();
}

void BenchView::roofPointHovered(QScatterSeries* series, const QPointF& point, bool state) {
    if (!m_results) return;
    for (const auto& entry : m_roofPoints) {
        entry.first->setPointLabelsVisible(false);
        entry.first->clearPointsConfiguration(QXYSeries::PointConfiguration::LabelVisibility);
    }
    if (!state) {
        QToolTip::hideText();
        return;
    }
    for (const auto& [s, rows] : m_roofPoints) {
        if (s != series) continue;
        // The nearest point of the series (the hovered point is one of them, up to rounding).
        int best = -1;
        double bestDistance = INFINITY;
        for (int i = 0; i < series->count(); ++i) {
            const QPointF q = series->at(i);
            const double d = std::abs(std::log(q.x() / point.x())) + std::abs(std::log(q.y() / point.y()));
            if (d < bestDistance) {
                bestDistance = d;
                best = i;
            }
        }
        if (best < 0 || static_cast<std::size_t>(best) >= rows.size()) return;
        const BenchGemmPoint& p = m_results->gemm[rows[static_cast<std::size_t>(best)]];
        QString text = tr("%1 %2×%3×%4 %5: %6 TFLOP/s")
                           .arg(toQString(p.layer))
                           .arg(p.m)
                           .arg(p.n)
                           .arg(p.k)
                           .arg(precisionLabel(p), fixed(p.tflops, 1));
        if (p.roofTflops) {
            text += tr(", %1 % of its %2-bound roof (%3 TFLOP/s)")
                        .arg(fixed(p.percentOfRoof, 1), toQString(p.bound), fixed(*p.roofTflops, 1));
        }
        if (p.speedupVsBf16 > 0) text += tr(", %1× BF16").arg(fixed(p.speedupVsBf16, 2));
        m_hover->setText(text);
        // The hovered point's label in the chart itself: labels on for the series, off for every other point.
        series->setPointLabelsFormat(QStringLiteral("%1 M=%2").arg(toQString(p.layer)).arg(p.m));
        series->setPointLabelsClipping(false);
        for (int i = 0; i < series->count(); ++i) {
            series->setPointConfiguration(i, QXYSeries::PointConfiguration::LabelVisibility, i == best);
        }
        series->setPointLabelsVisible(true);
        QToolTip::showText(QCursor::pos(), text, m_roofline->chartView());
        return;
    }
}

void BenchView::rebuildSpeedup() {
    QChart* chart = m_speedup->chart();
    resetChart(chart);
    QString empty = gemmEmptyReason(m_results);
    // Per layer: the FP8 rows that have a BF16 partner, by M.
    std::map<std::string, std::vector<std::pair<int, double>>> byLayer;
    std::vector<std::string> order;
    if (empty.isEmpty()) {
        for (const BenchGemmPoint& p : m_results->gemm) {
            if (!isFp8(p) || p.fastAccum || p.speedupVsBf16 <= 0 || p.m <= 0 || p.layer == "square") continue;
            if (!byLayer.count(p.layer)) order.push_back(p.layer);
            byLayer[p.layer].emplace_back(p.m, p.speedupVsBf16);
        }
        if (byLayer.empty()) empty = tr("No FP8/BF16 pair of the model's layers was measured.");
    }
    if (!empty.isEmpty()) {
        m_speedup->showEmpty(empty);
        return;
    }
    std::vector<double> ms;
    for (const auto& [layer, points] : byLayer) {
        for (const auto& point : points) ms.push_back(point.first);
    }
    QCategoryAxis* x = bench::log2TokenAxis(tr("Tokens M (log₂ scale)"), ms);
    auto* y = new QValueAxis;
    y->setTitleText(tr("FP8 / BF16 (×)"));
    y->setLabelFormat(QStringLiteral("%.1f"));
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    double sHi = 1.0;
    int colour = 0;
    for (const std::string& layer : order) {
        auto& points = byLayer[layer];
        std::sort(points.begin(), points.end());
        QLineSeries* s = lineSeries(toQString(layer), kLineColors[colour++ % kLineColors.size()], Qt::SolidLine, 2.0);
        s->setPointsVisible(true);
        for (const auto& [m, speedup] : points) {
            s->append(bench::log2Of(m), speedup);
            sHi = std::max(sHi, speedup);
        }
        attach(chart, s, x, y);
    }
    QLineSeries* reference = lineSeries(tr("1.0× (no gain)"), kReferenceColor, Qt::DashLine, 1.2);
    reference->append(x->min(), 1.0);
    reference->append(x->max(), 1.0);
    attach(chart, reference, x, y);
    y->setRange(0, std::ceil(sHi * 1.1 * 2) / 2);
    y->applyNiceNumbers();
    m_speedup->showChart();
}

void BenchView::rebuildKvChart() {
    bench::fillKvChart(m_kvChart, m_results,
                       static_cast<bench::KvChartMetric>(std::max(0, m_kvMetric->currentIndex())));
    m_kvHeadline->setText(bench::kvHeadlineHtml(m_results));
    m_kvHeadline->setVisible(!m_kvHeadline->text().isEmpty());
}

}  // namespace fp8dash::ui
