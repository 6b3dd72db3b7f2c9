#pragma once
// LongContextPanel: the evals tab's long-context result (per-length tasks such as RULER): a chart of the
// degradation at each context length (the mean over the per-length tasks; points coloured by verdict, the go and
// investigate thresholds as dashed lines) and one line naming the worst length. Hidden when the comparison has no
// per-length task. GUI thread only; owns its children through Qt parenting.

#include <QWidget>

#include "fp8dash/core/eval_comparison.h"

class QChart;
class QChartView;
class QLabel;
class QScatterSeries;

namespace fp8dash::ui {

class LongContextPanel : public QWidget {
    Q_OBJECT
public:
    explicit LongContextPanel(QWidget* parent = nullptr);

    // Shows report.longContext, or hides the panel when it has none.
    void setReport(const ComparisonReport& report);

    QChartView* chartView() const { return m_view; }
    QScatterSeries* points() const { return m_points; }  // one point per length: (log2 of the length, degradation %)
    QString summaryText() const;                         // the line under the title, as shown

private:
    QLabel* m_title = nullptr;
    QLabel* m_summary = nullptr;
    QChart* m_chart = nullptr;
    QChartView* m_view = nullptr;
    QScatterSeries* m_points = nullptr;
};

// A fresh chart view of a report's long-context degradation (nullptr without one), for snapshots and export.
QChartView* makeLongContextChartView(const ComparisonReport& report, QWidget* parent = nullptr);

}  // namespace fp8dash::ui
