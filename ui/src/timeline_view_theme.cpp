// TimelineView's answer to a theme change (theme.h): the chart, its axes, the change marker and the summary cards
// take the new palette's colours in place. Nothing is rebuilt, so the zoom, the pan, the series and the read-out stay.
#include <QAbstractSeries>
#include <QApplication>
#include <QChart>
#include <QGraphicsSimpleTextItem>
#include <QLineSeries>
#include <QPen>
#include <QValueAxis>

#include "fp8dash/ui/timeline_chart_view.h"
#include "fp8dash/ui/timeline_view.h"
#include "timeline_view_parts.h"
#include "ui_style.h"

namespace fp8dash::ui {

void TimelineView::applyTheme() {
    using timeline_view_parts::kQualityColor;
    using timeline_view_parts::kThroughputColor;
    const bool dark = style::darkPalette();
    // The axes' own hues first, as the constructor set them: adaptChart lightens or darkens them for the palette, and
    // starting again from them keeps switching back and forth from drifting.
    m_throughputAxis->setTitleBrush(kThroughputColor);
    m_throughputAxis->setLabelsColor(kThroughputColor.darker(130));
    m_qualityAxis->setTitleBrush(kQualityColor);
    m_qualityAxis->setLabelsColor(kQualityColor.darker(120));
    style::adaptChart(m_chart);
    m_chartView->setBackgroundBrush(dark ? QApplication::palette().color(QPalette::Base) : QColor(Qt::white));
    const QColor marker = timeline_view_parts::markerColor(dark);
    m_markerLabel->setBrush(marker);
    if (m_markerSeries) {
        QPen pen = m_markerSeries->pen();
        pen.setColor(marker);
        m_markerSeries->setPen(pen);
    }
    if (m_data && m_report) updateCards();  // the cards' verdict tints
}

}  // namespace fp8dash::ui
