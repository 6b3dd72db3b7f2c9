#pragma once
// ForestPlot: a picture of the offline evals, one row per task: the task's loss (the degradation of the verdict,
// -Δ% where higher is better, +Δ% where lower is better; not clamped at 0, so an improvement sits left of the zero
// line) as a dot in its verdict's colour, its 95 % interval (TaskComparison::confidence) as a horizontal whisker,
// over the go / monitor / investigate bands of the report's thresholds, with a zero line and task names on the left
// (elided; the tooltip has the name and the figures). A custom-painted widget: whiskers, bands and row hit-testing
// are plain geometry, which Qt Charts makes awkward.
// Two ways to feed it: attach(TaskTableView*) follows the table (its proxy's top-level rows in the proxy's order and
// filter, updated on the proxy's reset, layout, insert, remove and data signals; the table's current row is
// highlighted and a click on a row selects its task in the table); setReport() draws a report's tasks itself, worst
// first (the report's picture, chart_snapshots.h). GUI thread only.

#include <QPointer>
#include <QString>
#include <QWidget>

#include <optional>
#include <vector>

#include "fp8dash/core/eval_comparison.h"

namespace fp8dash::ui {

class TaskTableView;

class ForestPlot : public QWidget {
    Q_OBJECT
public:
    struct Entry {
        QString task;                // the task's name as the file has it (TaskTableModel::TaskPathRole)
        std::optional<double> loss;  // % of |baseline|; absent for a zero baseline (no relative change)
        std::optional<double> low;   // the 95 % interval of the loss; absent without standard errors or pairs
        std::optional<double> high;
        Verdict verdict = Verdict::Go;
    };

    explicit ForestPlot(QWidget* parent = nullptr);

    void attach(TaskTableView* table);
    void setReport(const ComparisonReport& report);  // detached: the report's tasks, worst first
    // Draw in the light palette whatever the application's (the reports' pictures print on white).
    void setAlwaysLight(bool light);

    // What it draws, top to bottom; the thresholds the bands come from.
    const std::vector<Entry>& entries() const { return m_entries; }
    const Thresholds& thresholds() const { return m_thresholds; }
    // Geometry, in widget coordinates: the x of a loss, the value at an x, the band of row i (its full width), and
    // the axis' tick values (nice numbers covering the data and the thresholds).
    double xFor(double lossPct) const;
    double valueAt(double x) const;
    QRect rowRect(int i) const;
    std::vector<double> ticks() const;
    int rowAt(const QPoint& pos) const;  // -1 outside the rows
    // The height that shows every row at its natural height (the caller caps it).
    int naturalHeight() const;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

    // The entry of one task (exposed for the report picture and the tests).
    static Entry entryOf(const TaskComparison& t);

signals:
    void taskClicked(const QString& task);

protected:
    void paintEvent(QPaintEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    bool event(QEvent* event) override;

private:
    void rebuildFromTable();
    void layoutAxis();
    void fitHeight();
    QRect plotRect() const;
    int nameWidth() const;
    int rowHeight() const;

    QPointer<TaskTableView> m_table;
    std::vector<Entry> m_entries;
    Thresholds m_thresholds;
    double m_low = -0.5, m_high = 2.0;  // the axis' range (the first and last tick)
    double m_step = 0.5;
    QString m_current;  // the table's current task, highlighted
    bool m_alwaysLight = false;
};

}  // namespace fp8dash::ui
