#include "fp8dash/ui/timeline_chart_view.h"

#include <QChart>
#include <QContextMenuEvent>
#include <QDateTime>
#include <QDateTimeAxis>
#include <QKeyEvent>
#include <QMenu>
#include <QMouseEvent>
#include <QRubberBand>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

#include "fp8dash/ui/export_actions.h"

namespace fp8dash::ui {

namespace {

constexpr double kZoomStep = 0.8;  // one wheel notch or "+" shows 80 % of the span
constexpr double kPanStep = 0.1;   // one arrow key moves a tenth of the span
constexpr int kMinDragPixels = 6;  // a shorter drag is a click, not a zoom

}  // namespace

TimelineChartView::TimelineChartView(QChart* chart, QWidget* parent) : QChartView(chart, parent) {
    setObjectName(QStringLiteral("timelineChart"));
    setRenderHint(QPainter::Antialiasing);
    setRubberBand(QChartView::NoRubberBand);  // ours: horizontal only, and it asks rather than zooms
    setMouseTracking(true);
    viewport()->setMouseTracking(true);
    setFocusPolicy(Qt::StrongFocus);
    m_band = new QRubberBand(QRubberBand::Rectangle, viewport());
    m_band->hide();
    setToolTip(
        tr("Drag to zoom into a time span · wheel to zoom · Shift+drag or arrow keys to pan · "
           "double-click or Home to reset · right-click for more"));
}

QRect TimelineChartView::plotAreaInViewport() const {
    if (!chart()) return {};
    return mapFromScene(chart()->mapToScene(chart()->plotArea())).boundingRect();
}

std::optional<std::pair<double, double>> TimelineChartView::axisRange() const {
    if (!chart()) return std::nullopt;
    const auto axes = chart()->axes(Qt::Horizontal);
    for (QAbstractAxis* axis : axes) {
        if (auto* time = qobject_cast<QDateTimeAxis*>(axis)) {
            return std::pair{time->min().toMSecsSinceEpoch() / 1000.0, time->max().toMSecsSinceEpoch() / 1000.0};
        }
    }
    return std::nullopt;
}

std::optional<double> TimelineChartView::timeAt(const QPoint& viewportPos) const {
    const auto range = axisRange();
    const QRect plot = plotAreaInViewport();
    if (!range || plot.width() <= 0 || !plot.adjusted(0, 0, 1, 1).contains(viewportPos)) return std::nullopt;
    const double f = static_cast<double>(viewportPos.x() - plot.left()) / plot.width();
    return range->first + f * (range->second - range->first);
}

double TimelineChartView::viewportXOf(double unixSeconds) const {
    const auto range = axisRange();
    const QRect plot = plotAreaInViewport();
    if (!range || range->second <= range->first) return plot.left();
    return plot.left() + (unixSeconds - range->first) / (range->second - range->first) * plot.width();
}

void TimelineChartView::mousePressEvent(QMouseEvent* event) {
    setFocus(Qt::MouseFocusReason);
    const QPoint pos = event->position().toPoint();
    const bool pan = event->button() == Qt::MiddleButton ||
                     (event->button() == Qt::LeftButton && (event->modifiers() & Qt::ShiftModifier));
    if (pan && timeAt(pos)) {
        m_panLast = pos;
        viewport()->setCursor(Qt::ClosedHandCursor);
        event->accept();
        return;
    }
    if (event->button() == Qt::LeftButton && timeAt(pos)) {
        m_bandStartX = pos.x();
        const QRect plot = plotAreaInViewport();
        m_band->setGeometry(QRect(pos.x(), plot.top(), 1, plot.height()));
        m_band->show();
        event->accept();
        return;
    }
    QChartView::mousePressEvent(event);
}

void TimelineChartView::mouseMoveEvent(QMouseEvent* event) {
    const QPoint pos = event->position().toPoint();
    if (m_panLast) {
        const QRect plot = plotAreaInViewport();
        if (plot.width() > 0) {
            // Dragging the data to the right shows earlier times.
            emit panRequested(-static_cast<double>(pos.x() - m_panLast->x()) / plot.width());
        }
        m_panLast = pos;
    } else if (m_bandStartX) {
        const QRect plot = plotAreaInViewport();
        const int x = std::clamp(pos.x(), plot.left(), plot.right());
        m_band->setGeometry(
            QRect(std::min(x, *m_bandStartX), plot.top(), std::abs(x - *m_bandStartX) + 1, plot.height()));
    }
    if (const auto t = timeAt(pos)) {
        emit hovered(*t);
    } else {
        emit hoverLeft();
    }
    QChartView::mouseMoveEvent(event);
}

void TimelineChartView::mouseReleaseEvent(QMouseEvent* event) {
    if (m_panLast && (event->button() == Qt::MiddleButton || event->button() == Qt::LeftButton)) {
        m_panLast.reset();
        viewport()->unsetCursor();
        event->accept();
        return;
    }
    if (m_bandStartX && event->button() == Qt::LeftButton) {
        const int startX = *m_bandStartX;
        m_bandStartX.reset();
        m_band->hide();
        const QRect plot = plotAreaInViewport();
        const int endX = std::clamp(event->position().toPoint().x(), plot.left(), plot.right());
        if (std::abs(endX - startX) >= kMinDragPixels) {
            const auto a = timeAt(QPoint(std::min(startX, endX), plot.center().y()));
            const auto b = timeAt(QPoint(std::max(startX, endX), plot.center().y()));
            if (a && b && *b > *a) emit zoomToRequested(*a, *b);
        }
        event->accept();
        return;
    }
    QChartView::mouseReleaseEvent(event);
}

void TimelineChartView::mouseDoubleClickEvent(QMouseEvent* event) {
    if (event->button() == Qt::LeftButton) {
        m_bandStartX.reset();
        m_band->hide();
        emit resetRequested();
        event->accept();
        return;
    }
    QChartView::mouseDoubleClickEvent(event);
}

void TimelineChartView::wheelEvent(QWheelEvent* event) {
    const auto t = timeAt(event->position().toPoint());
    const int delta = event->angleDelta().y();
    if (!t || delta == 0) {
        event->ignore();
        return;
    }
    // Whole notches: trackpads send many small deltas, each a fraction of a step.
    emit zoomRequested(std::pow(kZoomStep, delta / 120.0), *t);
    event->accept();
}

void TimelineChartView::keyPressEvent(QKeyEvent* event) {
    const double step = (event->modifiers() & Qt::ShiftModifier) ? 5 * kPanStep : kPanStep;
    const auto range = axisRange();
    const double centre = range ? (range->first + range->second) / 2 : 0;
    switch (event->key()) {
        case Qt::Key_Left:
            emit panRequested(-step);
            break;
        case Qt::Key_Right:
            emit panRequested(step);
            break;
        case Qt::Key_Plus:
        case Qt::Key_Equal:
            if (range) emit zoomRequested(kZoomStep, centre);
            break;
        case Qt::Key_Minus:
            if (range) emit zoomRequested(1 / kZoomStep, centre);
            break;
        case Qt::Key_Home:
        case Qt::Key_0:
            emit resetRequested();
            break;
        default:
            QChartView::keyPressEvent(event);
            return;
    }
    event->accept();
}

QMenu* TimelineChartView::createContextMenu(const QPoint& viewportPos) {
    const auto t = timeAt(viewportPos);
    auto* menu = new QMenu(this);
    if (t) {
        menu->addAction(tr("Set the FP8 Change Time Here"), this, [this, at = *t] { emit changeTimeRequested(at); });
        menu->addSeparator();
        menu->addAction(tr("Zoom In Here"), this, [this, at = *t] { emit zoomRequested(kZoomStep * kZoomStep, at); });
    }
    menu->addAction(tr("Reset Zoom"), this, &TimelineChartView::resetRequested);
    menu->addSeparator();
    exporting::addChartExportActions(menu, this, tr("Production timeline"), QStringLiteral("fp8dash-timeline"));
    return menu;
}

void TimelineChartView::contextMenuEvent(QContextMenuEvent* event) {
    QMenu* menu = createContextMenu(event->pos());
    menu->setAttribute(Qt::WA_DeleteOnClose);
    menu->popup(event->globalPos());
}

void TimelineChartView::leaveEvent(QEvent* event) {
    emit hoverLeft();
    QChartView::leaveEvent(event);
}

}  // namespace fp8dash::ui
