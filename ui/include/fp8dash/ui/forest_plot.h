#pragma once
// ForestPlot: a picture of the offline evals, one row per task: the task's loss (the degradation of the verdict,
// -Δ% where higher is better, +Δ% where lower is better; not clamped at 0, so an improvement sits left of the zero
// line) as a dot in its verdict's colour, its 95 % interval (TaskComparison::confidence) as a horizontal whisker,
// over the go / monitor / investigate bands of the report's thresholds, with a zero line and task names on the left
// (elided; the tooltip has the name and the figures). A custom-painted widget: whiskers, bands and row hit-testing
// are plain geometry, which Qt Charts makes awkward.
//
// Rows (issue 39): every row has its own label, at any task count. A row is as tall as a line of the widget's font
// plus a margin (rowHeight(), from QFontMetrics), never thinner. The widget is no taller than its rows need
// (maximumHeight = naturalHeight()); when its container gives it less, the rows scroll inside it (a vertical scroll
// bar at the right, the mouse wheel, and the table's current task scrolled into view) while the band names above
// them and the axis below them stay in place, so the scale is always readable. It does not grow the Evals tab's
// column: ComparisonView gives it up to half the column (the demo's six rows whole at 1366 × 768), the table below
// keeps the rest.
//
// Axis (issue 39): the range covers zero, the bands up to twice the investigate edge (so go, monitor and the start
// of investigate are always wide enough to read), and every point estimate. Interval ends count only up to a cap:
// twice the larger of 2 × investigateAbove and the largest |estimate|. A wider interval does not stretch the axis:
// its bar is cut at the axis' edge and ends in an arrow head there (clippedEnds()), and the row's tooltip gives the
// whole interval. Nice ticks (nice_ticks.h) widen the range to whole steps.
//
// Two ways to feed it: attach(TaskTableView*) follows the table (its proxy's top-level rows in the proxy's order and
// filter, updated on the proxy's reset, layout, insert, remove and data signals; the table's current row is
// highlighted and a click on a row selects its task in the table). With several candidates the Evals tab's
// "Candidate:" picker sets the table's report (ComparisonView::showEvalsOf), so the plot shows the picked variant.
// setReport() draws a report's tasks itself, worst first (the report's picture, chart_snapshots.h), with the same
// row and axis rules, as tall as its rows (naturalHeight). GUI thread only.

#include <QPointer>
#include <QString>
#include <QWidget>

#include <optional>
#include <vector>

#include "fp8dash/core/eval_comparison.h"

class QPainter;
class QScrollBar;

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
    // Which ends of a row's interval lie beyond the axis (drawn cut at its edge with an arrow head).
    enum ClippedEnd { NoEndClipped = 0, LowEndClipped = 1, HighEndClipped = 2 };

    explicit ForestPlot(QWidget* parent = nullptr);

    void attach(TaskTableView* table);
    void setReport(const ComparisonReport& report);  // detached: the report's tasks, worst first
    // Draw in the light palette whatever the application's (the reports' pictures print on white).
    void setAlwaysLight(bool light);

    // What it draws, top to bottom; the thresholds the bands come from.
    const std::vector<Entry>& entries() const { return m_entries; }
    const Thresholds& thresholds() const { return m_thresholds; }
    // Geometry, in widget coordinates: the x of a loss, the value at an x, the band of row i (its full width, moved
    // by the scrolling; it may lie outside rowsViewport()), the rectangle row i's name is drawn in (inside its row),
    // the area the rows are shown in (between the band names and the axis), and the axis' tick values.
    double xFor(double lossPct) const;
    double valueAt(double x) const;
    QRect rowRect(int i) const;
    QRect labelRect(int i) const;
    QRect rowsViewport() const;
    std::vector<double> ticks() const;
    int rowAt(const QPoint& pos) const;  // -1 outside the shown rows
    int clippedEnds(int i) const;        // ClippedEnd flags of row i
    QString toolTipHtml(int i) const;    // what hovering row i shows
    // Rows: the height of one (from the font), the scrolling (0 when every row is shown), and scrolling row i into
    // the viewport.
    int rowHeight() const;
    int scrollOffset() const;
    void scrollToRow(int i);
    // The height that shows every row (the widget's maximum; the report's picture is drawn at it).
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
    void wheelEvent(QWheelEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    bool event(QEvent* event) override;

private:
    void rebuildFromTable();
    void layoutAxis();
    void fitHeight();
    void updateScrollBar();
    void paintBands(QPainter& p, const QRect& plot, bool dark);
    void paintRow(QPainter& p, int i, const QRect& plot, bool dark);
    QRect plotRect() const;
    int nameWidth() const;
    int topHeight() const;     // the band names
    int bottomHeight() const;  // the tick labels and the axis title
    int scrollBarWidth() const;

    QPointer<TaskTableView> m_table;
    QScrollBar* m_scroll = nullptr;
    std::vector<Entry> m_entries;
    Thresholds m_thresholds;
    double m_low = -0.5, m_high = 2.0;  // the axis' range (the first and last tick)
    double m_step = 0.5;
    QString m_current;  // the table's current task, highlighted
    bool m_alwaysLight = false;
};

}  // namespace fp8dash::ui
