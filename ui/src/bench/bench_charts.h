#pragma once
// Shared pieces of the Bench and Capacity views: number formatting for their tables, the chart scaffolding (a chart
// with its empty-state text in one widget, log axes that fit the data) and the one query of this machine's GPU both
// views share. GUI thread only, except localDeviceQuery(), which may be called from the GUI thread and runs the query
// on a QtConcurrent worker once per process.

#include <QFuture>
#include <QString>
#include <QWidget>

#include <cstdint>
#include <string>
#include <vector>

#include "fp8dash/core/local_device.h"

class QCategoryAxis;
class QChart;
class QChartView;
class QLabel;
class QLogValueAxis;
class QStackedWidget;

namespace fp8dash::ui::bench {

// ---- formatting
QString groupedInteger(std::uint64_t v);  // 131072 -> "131,072"
QString fixed(double v, int decimals);
QString significant(double v, int digits = 3);         // 0.0273 -> "0.0273", 1.2e-5 -> "1.2e-05"
QString bytesPerSecondText(double bytesPerSecond);     // "3.21 TB/s", "812 GB/s" (10^9 / 10^12)
QString bytesText(std::uint64_t bytes);                // "1.00 GiB", "512 MiB", "131,072 B"
QString smText(const std::string& computeCapability);  // "9.0" -> "sm_90"; "" -> ""
QString createdText(const std::string& iso8601);       // "2026-11-29T14:03:05Z" -> "2026-11-29 14:03 UTC"

// ---- charts
// A chart with its empty-state text: shows the chart when it has data, otherwise a centred wrapped message.
class ChartPanel : public QWidget {
    Q_OBJECT
public:
    ChartPanel(const QString& title, QWidget* parent = nullptr);

    QChart* chart() const { return m_chart; }
    QChartView* chartView() const { return m_view; }
    void showChart();
    void showEmpty(const QString& text);
    bool isEmptyShown() const;
    QString emptyText() const;  // the message shown, empty while the chart is shown

private:
    QStackedWidget* m_stack = nullptr;
    QChart* m_chart = nullptr;
    QChartView* m_view = nullptr;
    QLabel* m_empty = nullptr;
};

// Sets a log axis to whole powers of its base around [lo, hi] (both > 0); a single value gets one step each side.
void fitLogAxis(QLogValueAxis* axis, double lo, double hi);

// A log2 axis for token counts whose ticks sit on the values measured: series put log2(value) on x (log2Of), the
// axis labels those places "1", "8", "2K", "128K". Values closer than ~one doubling to a labelled one stay unlabelled.
QCategoryAxis* log2TokenAxis(const QString& title, std::vector<double> values);
double log2Of(double v);
// A log10 axis for fractions shown as percentages: series put log10(value) on y, the axis labels marks at 1, 2, 3, 5
// (more of them on a narrow span: 1, 1.2, 1.5, 2, 2.5, ...) times powers of ten, "2%", "4%", "5%", from the mark at
// or below lo to the one at or above hi, at least three of them, so a value between decades can be read off.
QCategoryAxis* logPercentAxis(const QString& title, double lo, double hi);
QString percentLabel(double fraction);  // 0.046 -> "4.6%"
QString tokenCountLabel(double v);      // 2048 -> "2K", 131072 -> "128K", 1000 -> "1000"

// ---- this machine's GPU
// The process's one query of the local GPU (core's queryLocalDevices, ~100 ms with a driver), started on first call.
QFuture<LocalDeviceStatus> localDeviceQuery();

}  // namespace fp8dash::ui::bench
