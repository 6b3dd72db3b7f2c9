#include "fp8dash/ui/long_context_panel.h"

#include <QCategoryAxis>
#include <QChart>
#include <QChartView>
#include <QGraphicsLayout>
#include <QLabel>
#include <QLegend>
#include <QLineSeries>
#include <QScatterSeries>
#include <QVBoxLayout>
#include <QValueAxis>

#include <algorithm>
#include <cmath>

#include "fp8dash/ui/loaded_comparison.h"
#include "widgets/ui_style.h"

namespace fp8dash::ui {
namespace {

// Fills a chart with the degradation by context length: x is log2 of the length (each doubling one step, labelled
// "8K", "16K", ...), y the degradation in percent of the mean over the per-length tasks (a loss from a zero baseline
// has no percentage and is left out of the line). Returns the points series.
QScatterSeries* fillChart(QChart* chart, const ComparisonReport& report) {
    chart->removeAllSeries();
    for (QAbstractAxis* axis : chart->axes()) {
        chart->removeAxis(axis);
        delete axis;
    }
    auto* line = new QLineSeries;
    line->setName(QObject::tr("Degradation (mean of the per-length tasks)"));
    auto* points = new QScatterSeries;
    points->setName(QObject::tr("Context lengths"));
    points->setMarkerSize(9);
    auto* xAxis = new QCategoryAxis;
    xAxis->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
    xAxis->setTitleText(QObject::tr("Context length (tokens)"));
    double maxDeg = 0, minX = 0, maxX = 0;
    bool first = true;
    if (report.longContext) {
        for (const LengthComparison& l : report.longContext->lengths) {
            const double x = std::log2(static_cast<double>(l.length));
            xAxis->append(toQString(contextLengthLabel(l.length)), x);
            minX = first ? x : std::min(minX, x);
            maxX = first ? x : std::max(maxX, x);
            first = false;
            if (!l.degradationPct) continue;
            line->append(x, *l.degradationPct);
            points->append(x, *l.degradationPct);
            maxDeg = std::max(maxDeg, *l.degradationPct);
        }
    }
    const Thresholds& t = report.thresholds;
    const double pad = std::max(0.5, (maxX - minX) * 0.08);
    auto threshold = [&](double y, const QString& name, Verdict v) {
        auto* s = new QLineSeries;
        s->setName(name);
        s->append(minX - pad, y);
        s->append(maxX + pad, y);
        QPen pen(style::verdictColor(v));
        pen.setStyle(Qt::DashLine);
        pen.setWidthF(1.2);
        s->setPen(pen);
        return s;
    };
    QLineSeries* goLine = threshold(t.goBelow, QObject::tr("go below %1%").arg(t.goBelow), Verdict::Monitor);
    QLineSeries* invLine = threshold(t.investigateAbove, QObject::tr("investigate above %1%").arg(t.investigateAbove),
                                     Verdict::Investigate);
    points->setColor(style::verdictColor(report.longContext ? report.longContext->verdict : Verdict::Go));
    for (QAbstractSeries* s : {static_cast<QAbstractSeries*>(goLine), static_cast<QAbstractSeries*>(invLine),
                               static_cast<QAbstractSeries*>(line), static_cast<QAbstractSeries*>(points)})
        chart->addSeries(s);
    auto* yAxis = new QValueAxis;
    yAxis->setTitleText(QObject::tr("Degradation (%)"));
    yAxis->setRange(0, std::max(maxDeg, t.investigateAbove) * 1.15);
    yAxis->setLabelFormat(QStringLiteral("%.1f"));
    xAxis->setRange(minX - pad, maxX + pad);
    chart->addAxis(xAxis, Qt::AlignBottom);
    chart->addAxis(yAxis, Qt::AlignLeft);
    for (QAbstractSeries* s : chart->series()) {
        s->attachAxis(xAxis);
        s->attachAxis(yAxis);
    }
    return points;
}

QChart* newChart() {
    auto* chart = new QChart;
    chart->setTitle(QObject::tr("Degradation by context length"));
    chart->setAnimationOptions(QChart::NoAnimation);
    chart->setBackgroundRoundness(0);
    chart->setMargins(QMargins(2, 2, 2, 2));
    chart->layout()->setContentsMargins(0, 0, 0, 0);
    chart->legend()->setAlignment(Qt::AlignBottom);
    return chart;
}

QString summaryOf(const ComparisonReport& report) {
    if (!report.longContext) return {};
    const LongContextSummary& lc = *report.longContext;
    const LengthComparison* w = worstLength(lc.lengths);
    const QString figure = w && w->degradationPct ? QObject::tr("%1% degradation").arg(*w->degradationPct, 0, 'f', 2)
                                                  : QObject::tr("a loss from a zero baseline");
    return QObject::tr("Mean of %n per-length task(s) at each context length. Worst: %1 (%2 tokens), %3 — %4.", "",
                       static_cast<int>(lc.tasks))
        .arg(toQString(contextLengthLabel(lc.worstLength)), QString::number(lc.worstLength), figure,
             toQString(verdictTitle(lc.verdict)));
}

}  // namespace

LongContextPanel::LongContextPanel(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("longContextPanel"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(6);
    m_title = style::sectionTitle(tr("Long context"), this);
    layout->addWidget(m_title);
    m_summary = style::caption(QString(), this);
    m_summary->setObjectName(QStringLiteral("longContextSummary"));
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_summary);
    m_chart = newChart();
    m_view = new QChartView(m_chart, this);
    m_view->setObjectName(QStringLiteral("longContextChart"));
    m_view->setRenderHint(QPainter::Antialiasing);
    m_view->setAccessibleName(tr("Degradation by context length"));
    m_view->setMinimumSize(260, 240);
    layout->addWidget(m_view);
    hide();
    style::onThemeChange(this, [this] { style::adaptCharts(this); });  // the chart restyled in place
}

void LongContextPanel::setReport(const ComparisonReport& report) {
    m_points = fillChart(m_chart, report);
    m_summary->setText(summaryOf(report));
    setVisible(report.longContext.has_value());
}

QString LongContextPanel::summaryText() const {
    return m_summary->text();
}

QChartView* makeLongContextChartView(const ComparisonReport& report, QWidget* parent) {
    if (!report.longContext) return nullptr;
    QChart* chart = newChart();
    fillChart(chart, report);
    auto* view = new QChartView(chart, parent);
    view->setRenderHint(QPainter::Antialiasing);
    return view;
}

}  // namespace fp8dash::ui
