#pragma once
// TimelineChartView: the chart widget of the production timeline and its interaction. Hovering reports the time under
// the cursor; a left-button drag selects a time span to zoom into (rubber band); the wheel zooms around the cursor;
// Shift+drag or a middle-button drag pans; the arrow keys pan, + and - zoom, Home or a double click resets; the
// context menu offers the same, "Set the FP8 change time here" and "Export Chart as PNG…/SVG…". It reports what the
// user asked for and changes nothing itself (export aside): TimelineView owns the visible range. Times are unix
// seconds. GUI thread only.

#include <QChartView>
#include <QPoint>

#include <optional>

class QMenu;
class QRubberBand;

namespace fp8dash::ui {

class TimelineChartView : public QChartView {
    Q_OBJECT
public:
    explicit TimelineChartView(QChart* chart, QWidget* parent = nullptr);

    // The time at a viewport position, from the chart's date-time axis and plot area; nullopt outside the plot area.
    std::optional<double> timeAt(const QPoint& viewportPos) const;
    // The viewport x coordinate of a time (may lie outside the plot area).
    double viewportXOf(double unixSeconds) const;
    QRect plotAreaInViewport() const;
    // The context menu for a viewport position (the caller owns it; the view pops it up on a right click).
    QMenu* createContextMenu(const QPoint& viewportPos);

signals:
    void hovered(double t);
    void hoverLeft();
    void zoomToRequested(double from, double to);
    void zoomRequested(double factor, double centre);  // factor < 1 zooms in, around centre
    void panRequested(double fraction);                // of the visible span; positive: later
    void resetRequested();
    void changeTimeRequested(double t);

protected:
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void contextMenuEvent(QContextMenuEvent* event) override;
    void leaveEvent(QEvent* event) override;

private:
    std::optional<std::pair<double, double>> axisRange() const;  // the visible range, unix seconds

    QRubberBand* m_band = nullptr;
    std::optional<int> m_bandStartX;  // viewport x where a zoom drag started
    std::optional<QPoint> m_panLast;  // last position of a pan drag
};

}  // namespace fp8dash::ui
