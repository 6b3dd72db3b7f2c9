#pragma once
// What the files of BenchView share (bench_view.cpp, bench_view_charts.cpp): the series colours, what a GEMM point
// is, the device's one-line description and the chart scaffolding. Internal to fp8dash_ui; GUI thread only.

#include <QAbstractAxis>
#include <QChart>
#include <QColor>
#include <QLineSeries>
#include <QList>
#include <QLogValueAxis>
#include <QPen>
#include <QScatterSeries>
#include <QString>
#include <QStringList>

#include "bench/bench_charts.h"
#include "fp8dash/core/local_bench.h"
#include "fp8dash/ui/bench_view.h"
#include "fp8dash/ui/loaded_comparison.h"

namespace fp8dash::ui::bench_view_parts {

inline const QColor kBf16Color(0x1a, 0x73, 0xe8);
inline const QColor kFp8Color(0xd9, 0x48, 0x1c);
inline const QColor kFp8FastColor(0xf2, 0x9e, 0x2e);
inline const QColor kBandwidthRoofColor(0x5f, 0x63, 0x68);
inline const QColor kReferenceColor(0x80, 0x86, 0x8b);
inline const QList<QColor> kLineColors = {QColor(0x1a, 0x73, 0xe8), QColor(0xd9, 0x48, 0x1c), QColor(0x1e, 0x8e, 0x3e),
                                          QColor(0x8e, 0x24, 0xaa), QColor(0xf2, 0x9e, 0x2e), QColor(0x00, 0x89, 0x7b)};

inline bool isFp8(const BenchGemmPoint& p) {
    return p.precision.rfind("fp8", 0) == 0;
}

inline bool isFp4(const BenchGemmPoint& p) {
    return p.precision == "nvfp4_e2m1" || p.precision == "mxfp4_e2m1";
}

inline QString precisionLabel(const BenchGemmPoint& p) {
    if (isFp8(p)) return p.fastAccum ? QStringLiteral("FP8 E4M3 (fast accum)") : QStringLiteral("FP8 E4M3");
    if (p.precision == "bf16") return QStringLiteral("BF16");
    if (p.precision == "nvfp4_e2m1") return QStringLiteral("NVFP4 (E2M1)");
    if (p.precision == "mxfp4_e2m1") return QStringLiteral("MXFP4 (E2M1)");
    return toQString(p.precision);
}

inline bool measured(const BenchGemmPoint& p) {
    return p.skipped.empty() && p.tflops > 0 && p.arithmeticIntensity() > 0;
}

// "NVIDIA H200 (sm_90, 132 SMs, 139.8 GiB)"
inline QString deviceDescription(const BenchDevice& d) {
    QStringList details;
    if (!d.computeCapability.empty()) details << bench::smText(d.computeCapability);
    if (d.multiprocessors > 0) details << BenchView::tr("%1 SMs").arg(d.multiprocessors);
    if (d.memoryBytes > 0) details << bench::bytesText(d.memoryBytes);
    const QString name = d.name.empty() ? BenchView::tr("an unnamed GPU") : toQString(d.name);
    return details.isEmpty() ? name : QStringLiteral("%1 (%2)").arg(name, details.join(QStringLiteral(", ")));
}

inline QLineSeries* lineSeries(const QString& name, const QColor& color, Qt::PenStyle style, qreal width = 1.6) {
    auto* s = new QLineSeries;
    s->setName(name);
    QPen pen(color);
    pen.setWidthF(width);
    pen.setStyle(style);
    s->setPen(pen);
    return s;
}

inline QScatterSeries* scatterSeries(const QString& name, const QColor& color) {
    auto* s = new QScatterSeries;
    s->setName(name);
    s->setColor(color);
    s->setBorderColor(color.darker(130));
    s->setMarkerSize(9);
    return s;
}

inline void resetChart(QChart* chart) {
    chart->removeAllSeries();
    for (QAbstractAxis* axis : chart->axes()) {
        chart->removeAxis(axis);
        delete axis;
    }
}

inline void attach(QChart* chart, QAbstractSeries* series, QAbstractAxis* x, QAbstractAxis* y) {
    chart->addSeries(series);
    series->attachAxis(x);
    series->attachAxis(y);
}

inline QLogValueAxis* logAxis(const QString& title, double base, const QString& format) {
    auto* axis = new QLogValueAxis;
    axis->setBase(base);
    axis->setTitleText(title);
    axis->setLabelFormat(format);
    axis->setMinorTickCount(base == 10 ? 8 : 0);
    QPen minor = axis->minorGridLinePen();
    minor.setColor(QColor(0xee, 0xee, 0xee));
    axis->setMinorGridLinePen(minor);
    return axis;
}

}  // namespace fp8dash::ui::bench_view_parts
