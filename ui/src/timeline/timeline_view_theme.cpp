// TimelineView's answer to a theme change (theme.h): the chart, its axes, the change marker and the summary cards
// take the new palette's colours in place. Nothing is rebuilt, so the zoom, the pan, the series and the read-out stay.
#include <QAbstractSeries>
#include <QChart>
#include <QFrame>
#include <QGraphicsSimpleTextItem>
#include <QLineSeries>
#include <QPen>

#include "fp8dash/ui/timeline_chart_view.h"
#include "fp8dash/ui/timeline_view.h"
#include "timeline/timeline_view_parts.h"
#include "widgets/ui_style.h"

namespace fp8dash::ui {

void TimelineView::applyTheme() {
    const bool dark = style::darkPalette();
    style::adaptChartView(m_chartView);  // the axes keep the hues the constructor gave them (adaptChart's rule)
    const QColor marker = timeline_view_parts::markerColor(dark);
    m_markerLabel->setBrush(marker);
    if (m_markerSeries) {
        QPen pen = m_markerSeries->pen();
        pen.setColor(marker);
        m_markerSeries->setPen(pen);
    }
    // The note above the chart (the switch vLLM reports): a pale blue bar on light, a deep blue one on dark.
    m_suggestionBar->setStyleSheet(
        dark ? QStringLiteral("QFrame#changeSuggestion { background: #1b2b44; border: 1px solid #3c5a8a; "
                              "border-radius: 6px; } QFrame#changeSuggestion QLabel { color: #c6dafc; "
                              "background: transparent; border: none; }")
             : QStringLiteral("QFrame#changeSuggestion { background: #e8f0fe; border: 1px solid #aecbfa; "
                              "border-radius: 6px; } QFrame#changeSuggestion QLabel { color: #174ea6; "
                              "background: transparent; border: none; }"));
    if (m_data && m_report) updateCards();  // the cards' verdict tints
}

}  // namespace fp8dash::ui
