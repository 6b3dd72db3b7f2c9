#include "fp8dash/ui/serving_chart.h"

#include <QApplication>
#include <QCategoryAxis>
#include <QChart>
#include <QChartView>
#include <QCursor>
#include <QFontMetrics>
#include <QGraphicsLayout>
#include <QGraphicsSimpleTextItem>
#include <QImage>
#include <QLabel>
#include <QLegend>
#include <QLegendMarker>
#include <QLineF>
#include <QLineSeries>
#include <QPainter>
#include <QPen>
#include <QScatterSeries>
#include <QToolTip>
#include <QVBoxLayout>
#include <QValueAxis>

#include <algorithm>
#include <cmath>

#include "fp8dash/core/number_format.h"
#include "fp8dash/ui/chart_snapshots.h"
#include "fp8dash/ui/export_actions.h"
#include "fp8dash/ui/loaded_comparison.h"
#include "widgets/ui_style.h"
#include "widgets/untrusted_ui.h"

namespace fp8dash::ui {
namespace {

// The variants' colours: the judge's and the benchmarks' baseline blue and candidate orange, then the benchmarks'
// line colours (bench_view_parts.h), so that a baseline is blue wherever the app draws one.
const QColor kServingColors[] = {QColor(0x1a, 0x73, 0xe8), QColor(0xd9, 0x48, 0x1c), QColor(0x1e, 0x8e, 0x3e),
                                 QColor(0x8e, 0x24, 0xaa), QColor(0xf2, 0x9e, 0x2e), QColor(0x00, 0x89, 0x7b)};

// Line colours as drawn: on a dark chart a little lighter, so that the blue and purple read on the dark background.
QColor servingDrawnColor(int i, bool dark) {
    const QColor c = ServingChart::variantColor(i);
    return dark ? c.lighter(135) : c;
}

// The chart's text colour (adaptChart's).
QColor servingChartText(bool dark) {
    return dark ? QApplication::palette().color(QPalette::Text) : QColor(0x40, 0x40, 0x40);
}

// adaptChart's light palette whatever the application's (a picture for a report or a slide).
void servingLightChart(QChartView* view) {
    QChart* chart = view->chart();
    const QColor text(0x40, 0x40, 0x40);
    chart->setBackgroundBrush(QColor(Qt::white));
    chart->setTitleBrush(text);
    chart->legend()->setLabelColor(text);
    for (QAbstractAxis* axis : chart->axes()) {
        axis->setLabelsColor(text);
        axis->setTitleBrush(text);
        axis->setGridLineColor(QColor(0xe0, 0xe0, 0xe0));
        axis->setLinePenColor(QColor(0xbd, 0xbd, 0xbd));
    }
    view->setBackgroundBrush(QColor(Qt::white));
}

// "2,310 ms", "48.7 ms", "9.84 ms".
QString servingMsText(double v) {
    if (std::fabs(v) >= 1000)
        return toQString(numfmt::grouped(static_cast<std::uint64_t>(std::llround(v)))) + QStringLiteral(" ms");
    return toQString(numfmt::fixed(v, std::fabs(v) >= 100 ? 1 : 2)) + QStringLiteral(" ms");
}

QString servingLoadTick(double v) {
    return toQString(numfmt::general(v, 4));
}

const ServingDelta& servingDeltaOf(const ServingPoint::LatencyDelta& d, double percentile) {
    if (percentile == 50) return d.p50;
    if (percentile == 90) return d.p90;
    if (percentile == 99) return d.p99;
    return d.mean;
}

// A cross (✕) in the colour: the marker of a load where every request failed.
QImage servingCrossImage(const QColor& color) {
    QImage image(28, 28, QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::transparent);
    QPainter painter(&image);
    painter.setRenderHint(QPainter::Antialiasing);
    QPen pen(color, 5, Qt::SolidLine, Qt::RoundCap);
    painter.setPen(pen);
    painter.drawLine(QPointF(5, 5), QPointF(23, 23));
    painter.drawLine(QPointF(23, 5), QPointF(5, 23));
    return image;
}

// A point the load axis can place: measured on the comparison's axis, at a positive load.
bool servingPlottable(const ServingComparison& c, const ServingPoint& p) {
    return p.load.axis == c.axis && p.load.axis != LoadAxis::Unbounded && p.load.value > 0;
}

// Whether the segment a–b passes through the rectangle r (a label's place).
bool servingSegmentCrosses(const QRectF& r, QPointF a, QPointF b) {
    if (r.contains(a) || r.contains(b)) return true;
    const QLineF segment(a, b);
    const QLineF edges[] = {{r.topLeft(), r.topRight()},
                            {r.topRight(), r.bottomRight()},
                            {r.bottomRight(), r.bottomLeft()},
                            {r.bottomLeft(), r.topLeft()}};
    for (const QLineF& edge : edges)
        if (segment.intersects(edge, nullptr) == QLineF::BoundedIntersection) return true;
    return false;
}

QString servingCapacityLabel(const ServingCapacity& cap) {
    return (cap.firstMissAt ? ServingChart::tr("capacity %1") : ServingChart::tr("capacity ≥ %1"))
        .arg(servingLoadTick(*cap.load));
}

}  // namespace

ServingChart::ServingChart(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    auto* chart = new QChart;
    chart->setAnimationOptions(QChart::NoAnimation);
    chart->setBackgroundRoundness(0);
    chart->setMargins(QMargins(4, 4, 4, 4));
    chart->layout()->setContentsMargins(0, 0, 0, 0);
    chart->legend()->setAlignment(Qt::AlignBottom);
    m_view = new QChartView(chart, this);
    m_view->setObjectName(QStringLiteral("servingChartView"));
    m_view->setRenderHint(QPainter::Antialiasing);
    m_view->setAccessibleName(tr("Throughput and latency against load"));
    m_view->setMinimumSize(320, 230);
    exporting::installChartExportMenu(m_view, tr("Serving: latency against load"),
                                      QStringLiteral("fp8dash-serving-chart"));
    layout->addWidget(m_view, 1);
    // The capacity labels follow their stars when the plot area moves (a resize, a longer axis label).
    connect(chart, &QChart::plotAreaChanged, this, [this] { placeCapacityLabels(); });
    m_hover = plainLabel(tr("Hover a point for its figures."), this);
    m_hover->setObjectName(QStringLiteral("servingHover"));
    m_hover->setWordWrap(true);
    m_hover->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_hover);
    m_caption = style::caption(QString(), this);
    m_caption->setObjectName(QStringLiteral("servingChartCaption"));
    m_caption->hide();
    layout->addWidget(m_caption);
    style::onThemeChange(this, [this] { restyle(); });
}

ServingChart::~ServingChart() = default;

QChart* ServingChart::chart() const {
    return m_view->chart();
}

QColor ServingChart::variantColor(int i) {
    constexpr int n = static_cast<int>(std::size(kServingColors));
    return kServingColors[((i % n) + n) % n];
}

QString ServingChart::statisticName(Statistic s) {
    const QString metric = s.metric == ServingMetric::Ttft   ? QStringLiteral("TTFT")
                           : s.metric == ServingMetric::Tpot ? QStringLiteral("TPOT")
                           : s.metric == ServingMetric::Itl  ? QStringLiteral("ITL")
                                                             : tr("E2E latency");
    if (s.percentile <= 0) return tr("mean %1").arg(metric);
    return QStringLiteral("p%1 %2").arg(servingLoadTick(s.percentile), metric);
}

ServingChart::Statistic ServingChart::openingStatistic(const ServingComparison& c) {
    if (c.slo.empty()) return {ServingMetric::Ttft, 99};
    const SloTarget& t = c.slo.targets.front();
    const bool charted = t.percentile == 50 || t.percentile == 90 || t.percentile == 99 || t.percentile == 0;
    return {t.metric, charted ? t.percentile : 99.0};
}

void ServingChart::setComparison(const ServingComparison& c) {
    m_c = c;
    m_hoverText.clear();
    m_hover->setText(tr("Hover a point for its figures."));
    rebuild();
}

void ServingChart::clear() {
    m_c.reset();
    m_hoverText.clear();
    rebuild();
}

void ServingChart::setQuantity(Quantity q) {
    if (q == m_quantity) return;
    m_quantity = q;
    rebuild();
}

void ServingChart::setStatistic(Statistic s) {
    if (s == m_statistic) return;
    m_statistic = s;
    rebuild();
}

QLineSeries* ServingChart::lineSeries(int variant) const {
    return variant >= 0 && variant < static_cast<int>(m_series.size()) ? m_series[std::size_t(variant)].line : nullptr;
}
QScatterSeries* ServingChart::capacitySeries(int variant) const {
    return variant >= 0 && variant < static_cast<int>(m_series.size()) ? m_series[std::size_t(variant)].capacity
                                                                       : nullptr;
}
QScatterSeries* ServingChart::failedSeries(int variant) const {
    return variant >= 0 && variant < static_cast<int>(m_series.size()) ? m_series[std::size_t(variant)].failed
                                                                       : nullptr;
}
std::vector<std::size_t> ServingChart::plottedPoints(int variant) const {
    return variant >= 0 && variant < static_cast<int>(m_series.size()) ? m_series[std::size_t(variant)].linePoints
                                                                       : std::vector<std::size_t>{};
}

double ServingChart::xOf(double load) const {
    return m_logX ? std::log2(load) : load;
}

double ServingChart::loadOfX(double x) const {
    return m_logX ? std::exp2(x) : x;
}

std::optional<double> ServingChart::valueOf(const ServingPoint& p) const {
    if (p.allFailed) return std::nullopt;
    if (m_quantity == Quantity::OutputTokensPerS) return p.figures.outputTokensPerS;
    const ServingPointFigures::Latency& l = p.figures.metric(m_statistic.metric);
    if (m_statistic.percentile == 50) return l.p50;
    if (m_statistic.percentile == 90) return l.p90;
    if (m_statistic.percentile == 99) return l.p99;
    if (m_statistic.percentile <= 0) return l.mean;
    return std::nullopt;
}

QString ServingChart::hoverText() const {
    return m_hoverText;
}

void ServingChart::setReadoutShown(bool shown) {
    m_hover->setVisible(shown);
}

QString ServingChart::captionText() const {
    return m_caption->isHidden() ? QString() : m_caption->text();
}

void ServingChart::rebuild() {
    QChart* chart = m_view->chart();
    chart->removeAllSeries();
    for (QAbstractAxis* axis : chart->axes()) {
        chart->removeAxis(axis);
        delete axis;
    }
    for (VariantSeries& s : m_series) delete s.label;
    m_series.clear();
    m_slo = nullptr;
    m_caption->clear();
    m_caption->hide();
    chart->setTitle(QString());
    if (!m_c || m_c->variants.empty()) return;
    const ServingComparison& c = *m_c;

    std::vector<double> loads;
    int unbounded = 0;
    double yMax = 0;
    bool anyFailed = false;
    for (const ServingVariantResult& v : c.variants)
        for (const ServingPoint& p : v.points) {
            if (!servingPlottable(c, p)) {
                ++unbounded;
                continue;
            }
            loads.push_back(p.load.value);
            anyFailed = anyFailed || p.allFailed;
            if (const auto y = valueOf(p)) yMax = std::max(yMax, *y);
        }
    std::sort(loads.begin(), loads.end());
    loads.erase(std::unique(loads.begin(), loads.end()), loads.end());
    m_logX = loads.size() >= 2 && loads.back() / loads.front() >= 8;

    const QString axisWords = c.axis == LoadAxis::RequestRate ? tr("Request rate (req/s)") : tr("Concurrent requests");
    QValueAxis* x = nullptr;
    double xLo = 0, xHi = 1;
    if (m_logX) {
        auto* cat = new QCategoryAxis;
        cat->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
        xLo = std::log2(loads.front()) - 0.35;
        xHi = std::log2(loads.back()) + 0.5;  // room for a capacity label on the last load
        cat->setStartValue(xLo);
        double last = -INFINITY;
        for (double l : loads) {
            if (std::log2(l) - last < 0.75) continue;  // closer than ~a doubling to a labelled load: unlabelled
            cat->append(servingLoadTick(l), std::log2(l));
            last = std::log2(l);
        }
        cat->setRange(xLo, xHi);
        cat->setTitleText(axisWords + tr(" (log₂ scale)"));
        x = cat;
    } else {
        x = new QValueAxis;
        xHi = loads.empty() ? 1 : loads.back() * 1.08;
        xLo = loads.empty() ? 0 : std::max(0.0, loads.front() - (xHi - loads.front()) * 0.08);
        x->setRange(xLo, xHi);
        x->setLabelFormat(QStringLiteral("%g"));
        x->setTitleText(axisWords);
    }
    // The SLO's limit on the statistic shown, if it has one: the y range must show it.
    std::optional<double> sloLimit;
    if (m_quantity == Quantity::Latency)
        for (const SloTarget& t : c.slo.targets)
            if (t.metric == m_statistic.metric && t.percentile == m_statistic.percentile) sloLimit = t.ms;
    if (sloLimit) yMax = std::max(yMax, *sloLimit);
    auto* y = new QValueAxis;
    y->setTitleText(m_quantity == Quantity::Latency ? statisticName(m_statistic) + tr(" (ms)") : tr("Output tokens/s"));
    y->setLabelFormat(QStringLiteral("%g"));
    // Headroom for the crosses of all-failed loads at the top, above any point and its capacity label.
    y->setRange(0, yMax > 0 ? yMax * (anyFailed ? 1.3 : 1.1) : 1);
    y->applyNiceNumbers();
    m_yTop = y->max();
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);

    for (int i = 0; i < static_cast<int>(c.variants.size()); ++i) addVariant(i);
    labelCapacities();
    // A capacity label is centred on its star: on the last load, half of it would pass the chart's right edge (a
    // picture for a report or a slide clips it there). The chart's right margin makes room for that half.
    int rightMargin = 4;
    for (const VariantSeries& s : m_series)
        if (!loads.empty() && s.capacity && s.capacity->pointLabelsVisible() &&
            s.capacity->at(0).x() >= xOf(loads.back()) - 1e-9)
            rightMargin = std::max(
                rightMargin,
                QFontMetrics(s.capacity->pointLabelsFont()).horizontalAdvance(s.capacity->pointLabelsFormat()) / 2);
    chart->setMargins(QMargins(4, 4, rightMargin, 4));
    if (sloLimit) addSloLine(xLo, xHi);
    placeCapacityLabels();

    QStringList notes;
    if (unbounded > 0)
        notes << tr("%n load point(s) sent every request at once (no load to place on the axis): see the table.", "",
                    unbounded);
    for (std::size_t i = 0; i < c.variants.size(); ++i)
        if (m_series[i].linePoints.empty() && m_series[i].failedPoints.empty())
            notes << tr("%1 has no %2 to plot.")
                         .arg(toQString(c.variants[i].label),
                              m_quantity == Quantity::Latency ? statisticName(m_statistic) : tr("output tokens/s"));
    m_caption->setText(notes.join(QLatin1Char(' ')));
    m_caption->setVisible(!notes.isEmpty());
    restyle();
}

void ServingChart::addVariant(int i) {
    const ServingComparison& c = *m_c;
    const ServingVariantResult& v = c.variants[std::size_t(i)];
    QChart* chart = m_view->chart();
    QAbstractAxis* x = chart->axes(Qt::Horizontal).value(0);
    QAbstractAxis* y = chart->axes(Qt::Vertical).value(0);
    VariantSeries s;
    auto* line = new QLineSeries;
    line->setName(chartText(toQString(v.label) + (i == 0 ? tr(" (baseline)") : QString())));
    line->setPointsVisible(true);
    line->setMarkerSize(6);
    for (std::size_t k = 0; k < v.points.size(); ++k) {
        const ServingPoint& p = v.points[k];
        if (!servingPlottable(c, p)) continue;
        if (p.allFailed) {
            s.failedPoints.push_back(k);
            continue;
        }
        const auto value = valueOf(p);
        if (!value) continue;
        line->append(xOf(p.load.value), *value);
        s.linePoints.push_back(k);
        if (v.capacity.load && std::fabs(p.load.value - *v.capacity.load) <= 1e-9 * std::max(1.0, p.load.value))
            s.capacityPoint = k;
    }
    // The line is added even without a point, so that the legend names every variant in its colour.
    chart->addSeries(line);
    line->attachAxis(x);
    line->attachAxis(y);
    s.line = line;
    connect(line, &QXYSeries::hovered, this,
            [this, i, line](const QPointF& point, bool state) { onHovered(i, line, point, state); });
    if (!s.failedPoints.empty()) {
        auto* failed = new QScatterSeries;
        // One legend entry says what a cross is (the first variant with one); the cross has its variant's colour.
        failed->setName(chartText(tr("✕ every request failed")));
        failed->setMarkerSize(14);
        for (std::size_t k : s.failedPoints) failed->append(xOf(v.points[k].load.value), m_yTop * 0.97);
        chart->addSeries(failed);
        failed->attachAxis(x);
        failed->attachAxis(y);
        bool first = true;
        for (const VariantSeries& before : m_series) first = first && !before.failed;
        if (!first) hideFromLegend(failed);
        s.failed = failed;
        connect(failed, &QXYSeries::hovered, this,
                [this, i, failed](const QPointF& point, bool state) { onHovered(i, failed, point, state); });
    }
    if (s.capacityPoint) {
        auto* cap = new QScatterSeries;
        cap->setName(chartText(tr("%1: capacity at the SLO").arg(toQString(v.label))));
        cap->setMarkerShape(QScatterSeries::MarkerShapeStar);
        cap->setMarkerSize(20);
        const ServingPoint& p = v.points[*s.capacityPoint];
        cap->append(xOf(p.load.value), *valueOf(p));
        // Qt Charts draws a point label above its point, across the SLO line just above a capacity star: the label is
        // an item of its own, placed by placeCapacityLabels. The series keeps the text (capacityLabel).
        cap->setPointLabelsFormat(servingCapacityLabel(v.capacity));
        cap->setPointLabelsVisible(false);
        QFont f = cap->pointLabelsFont();
        f.setBold(true);
        s.label = new QGraphicsSimpleTextItem(servingCapacityLabel(v.capacity), chart);
        s.label->setFont(f);
        s.label->setZValue(20);  // above the series
        chart->addSeries(cap);
        cap->attachAxis(x);
        cap->attachAxis(y);
        hideFromLegend(cap);
        s.capacity = cap;
        connect(cap, &QXYSeries::hovered, this,
                [this, i, cap](const QPointF& point, bool state) { onHovered(i, cap, point, state); });
    }
    m_series.push_back(s);
}

// One label per capacity load: variants whose capacity is the same load share the label of the highest star (in the
// chart's text colour then), since labels drawn a few pixels apart would overprint each other.
void ServingChart::labelCapacities() {
    for (std::size_t i = 0; i < m_series.size(); ++i) {
        VariantSeries& s = m_series[i];
        s.sharedLabel = false;
        if (!s.capacity) continue;
        const QPointF at = s.capacity->at(0);
        bool highest = true;
        for (std::size_t j = 0; j < m_series.size(); ++j) {
            const QScatterSeries* other = m_series[j].capacity;
            if (j == i || !other || other->at(0).x() != at.x()) continue;
            s.sharedLabel = true;
            if (other->at(0).y() > at.y() || (other->at(0).y() == at.y() && j < i)) highest = false;
        }
        if (s.label) s.label->setVisible(highest);
    }
}

// Each shown label beside its star, at the first place (above, below, right, left, then the diagonals) that crosses
// neither the SLO line nor a label placed before it nor a star nor a variant's line, and stays inside the plot; where
// every place does one of these, the one that does the least (cut off at the chart's edge counts most, then the SLO
// line, a label, a star, a line).
void ServingChart::placeCapacityLabels() {
    QChart* chart = m_view->chart();
    const QRectF plot = chart->plotArea();
    const QRectF visible = chart->rect();
    std::optional<double> sloY;
    if (m_slo && m_slo->count() > 0) sloY = chart->mapToPosition(m_slo->at(0), m_slo).y();
    std::vector<QRectF> stars;
    for (const VariantSeries& s : m_series)
        if (s.capacity && s.capacity->count() > 0) {
            const QPointF at = chart->mapToPosition(s.capacity->at(0), s.capacity);
            const qreal half = s.capacity->markerSize() / 2;
            stars.emplace_back(at.x() - half, at.y() - half, 2 * half, 2 * half);
        }
    std::vector<std::vector<QPointF>> lines;  // each variant's line as drawn
    for (const VariantSeries& s : m_series) {
        if (!s.line) continue;
        std::vector<QPointF> drawn;
        for (const QPointF& p : s.line->points()) drawn.push_back(chart->mapToPosition(p, s.line));
        lines.push_back(std::move(drawn));
    }
    std::vector<QRectF> placed;
    for (VariantSeries& s : m_series) {
        if (!s.label || !s.label->isVisible() || !s.capacity || s.capacity->count() == 0) continue;
        const QPointF at = chart->mapToPosition(s.capacity->at(0), s.capacity);
        const QRectF box = s.label->boundingRect();
        const qreal w = box.width(), h = box.height();
        const qreal r = s.capacity->markerSize() / 2 + 2, d = r * 0.75;
        const QPointF corners[] = {{at.x() - w / 2, at.y() - r - h}, {at.x() - w / 2, at.y() + r},
                                   {at.x() + r, at.y() - h / 2},     {at.x() - r - w, at.y() - h / 2},
                                   {at.x() + d, at.y() - d - h},     {at.x() + d, at.y() + d},
                                   {at.x() - d - w, at.y() - d - h}, {at.x() - d - w, at.y() + d}};
        int bestCost = -1;
        QRectF best;
        for (const QPointF& corner : corners) {
            const QRectF rect(corner, QSizeF(w, h));
            int cost = 0;
            if (sloY && rect.top() - 2 < *sloY && rect.bottom() + 2 > *sloY) cost += 1000;
            for (const QRectF& other : placed)
                if (rect.intersects(other)) cost += 100;
            for (const QRectF& star : stars)
                if (rect.intersects(star)) cost += 10;
            for (const std::vector<QPointF>& line : lines)
                for (std::size_t k = 1; k < line.size(); ++k)
                    if (servingSegmentCrosses(rect, line[k - 1], line[k])) {
                        cost += 3;  // legible across a line, but better beside it
                        break;
                    }
            if (!visible.contains(rect)) cost += 500;  // cut off at the chart's edge
            if (!plot.contains(rect)) cost += 1;
            if (bestCost < 0 || cost < bestCost) {
                bestCost = cost;
                best = rect;
            }
            if (cost == 0) break;
        }
        s.label->setPos(best.topLeft() - box.topLeft());
        placed.push_back(best);
    }
}

QString ServingChart::capacityLabel(int variant) const {
    const QScatterSeries* s = capacitySeries(variant);
    return s ? s->pointLabelsFormat() : QString();
}

bool ServingChart::capacityLabelShown(int variant) const {
    if (variant < 0 || variant >= static_cast<int>(m_series.size())) return false;
    const QGraphicsSimpleTextItem* label = m_series[std::size_t(variant)].label;
    return label && label->isVisible();
}

QRectF ServingChart::capacityLabelRect(int variant) const {
    if (!capacityLabelShown(variant)) return {};
    const QGraphicsSimpleTextItem* label = m_series[std::size_t(variant)].label;
    return label->mapRectToParent(label->boundingRect());
}

void ServingChart::addSloLine(double xLo, double xHi) {
    const ServingComparison& c = *m_c;
    QChart* chart = m_view->chart();
    for (const SloTarget& t : c.slo.targets) {
        if (t.metric != m_statistic.metric || t.percentile != m_statistic.percentile) continue;
        auto* slo = new QLineSeries;
        slo->setName(chartText(tr("SLO: %1").arg(toQString(t.words()))));
        slo->append(xLo, t.ms);
        slo->append(xHi, t.ms);
        chart->addSeries(slo);
        slo->attachAxis(chart->axes(Qt::Horizontal).value(0));
        slo->attachAxis(chart->axes(Qt::Vertical).value(0));
        m_slo = slo;
        return;
    }
}

void ServingChart::hideFromLegend(QXYSeries* s) {
    for (QLegendMarker* marker : m_view->chart()->legend()->markers(s)) marker->setVisible(false);
}

void ServingChart::setAlwaysLight(bool light) {
    m_alwaysLight = light;
    restyle();
}

void ServingChart::restyle() {
    const bool dark = !m_alwaysLight && style::darkPalette();
    if (m_alwaysLight)
        servingLightChart(m_view);
    else
        style::adaptChartView(m_view);
    const QColor text = servingChartText(dark);
    for (std::size_t i = 0; i < m_series.size(); ++i) {
        const QColor color = servingDrawnColor(static_cast<int>(i), dark);
        const VariantSeries& s = m_series[i];
        if (s.line) {
            QPen pen(color);
            pen.setWidthF(2.2);
            s.line->setPen(pen);
            s.line->setColor(color);
        }
        if (s.failed) {
            s.failed->setLightMarker(servingCrossImage(color));
            s.failed->setColor(color);
            // The legend entry's text draws the cross: no square in a variant's colour beside it.
            for (QLegendMarker* marker : m_view->chart()->legend()->markers(s.failed)) {
                marker->setBrush(QBrush(Qt::transparent));
                marker->setPen(QPen(Qt::transparent));
            }
        }
        if (s.capacity) {
            s.capacity->setColor(color);
            s.capacity->setBorderColor(text);
            s.capacity->setPointLabelsColor(s.sharedLabel ? text : dark ? color : color.darker(115));
            if (s.label) s.label->setBrush(s.sharedLabel ? text : dark ? color : color.darker(115));
        }
    }
    if (m_slo) {
        // Neutral, so that it never reads as a variant (orange and red are candidates' colours).
        QPen pen(dark ? QColor(0xbd, 0xc1, 0xc6) : QColor(0x3c, 0x40, 0x43));
        pen.setWidthF(1.8);
        pen.setStyle(Qt::DashLine);
        m_slo->setPen(pen);
    }
}

QImage ServingChart::renderImage(const ServingComparison& c, Quantity quantity, Statistic statistic, QSize logicalSize,
                                 qreal scale) {
    ServingChart chart;
    chart.setAlwaysLight(true);
    chart.m_quantity = quantity;
    chart.m_statistic = statistic;
    chart.setComparison(c);
    return renderChartImage(chart.chartView(), logicalSize, scale);
}

QString ServingChart::pointText(int variant, std::size_t point) const {
    if (!m_c || variant < 0 || variant >= static_cast<int>(m_c->variants.size())) return {};
    const ServingComparison& c = *m_c;
    const ServingVariantResult& v = c.variants[std::size_t(variant)];
    if (point >= v.points.size()) return {};
    const ServingPoint& p = v.points[point];
    QString text = tr("%1 at %2: ").arg(toQString(v.label), toQString(servingLoadWords(p.load, true)));
    if (p.allFailed)
        return text + tr("every request failed (%1 failed, none completed)")
                          .arg(toQString(numfmt::grouped(static_cast<std::uint64_t>(std::max(0LL, p.failed)))));
    const bool latency = m_quantity == Quantity::Latency;
    const auto value = valueOf(p);
    if (!value)
        return text + tr("no %1 in the files").arg(latency ? statisticName(m_statistic) : tr("output tokens/s"));
    text += latency
                ? statisticName(m_statistic) + QLatin1Char(' ') + servingMsText(*value)
                : toQString(numfmt::grouped(static_cast<std::uint64_t>(std::llround(*value)))) + tr(" output tokens/s");
    if (variant > 0 && p.hasBaseline) {
        const ServingDelta& d =
            latency ? servingDeltaOf(p.delta(m_statistic.metric), m_statistic.percentile) : p.outputTokensPerS;
        if (d.pct) {
            text += tr(", %1% against %2")
                        .arg(toQString(numfmt::signedFixed(*d.pct, 1)), toQString(c.variants.front().label));
            if (d.low && d.high)
                text += tr(" (95 % interval %1% to %2%)")
                            .arg(toQString(numfmt::signedFixed(*d.low, 1)), toQString(numfmt::signedFixed(*d.high, 1)));
            if (numfmt::signedFixed(*d.pct, 1) != "0.0") text += d.better ? tr(", better") : tr(", worse");
        }
    }
    if (p.replicates > 1) text += tr("; mean of %1 runs").arg(p.replicates);
    if (v.capacity.load && std::fabs(p.load.value - *v.capacity.load) <= 1e-9 * std::max(1.0, p.load.value))
        text += tr("; the capacity at the SLO");
    else if (p.meetsSlo && !*p.meetsSlo && !p.missed.empty())
        text += tr("; misses the SLO: %1").arg(toQString(p.missed.front()));
    return text;
}

void ServingChart::onHovered(int variant, QXYSeries* series, const QPointF& point, bool state) {
    if (!state) {
        QToolTip::hideText();
        return;
    }
    if (variant < 0 || variant >= static_cast<int>(m_series.size())) return;
    const VariantSeries& s = m_series[std::size_t(variant)];
    // The nearest point of the series on the load axis (the hovered one, up to rounding).
    int best = -1;
    double bestDistance = INFINITY;
    for (int k = 0; k < series->count(); ++k) {
        const double d = std::fabs(series->at(k).x() - point.x());
        if (d < bestDistance) {
            bestDistance = d;
            best = k;
        }
    }
    if (best < 0) return;
    std::optional<std::size_t> index;
    if (series == s.line && std::size_t(best) < s.linePoints.size()) index = s.linePoints[std::size_t(best)];
    if (series == s.failed && std::size_t(best) < s.failedPoints.size()) index = s.failedPoints[std::size_t(best)];
    if (series == s.capacity) index = s.capacityPoint;
    if (!index) return;
    m_hoverText = visibleText(pointText(variant, *index));  // as the label shows it
    setPlainText(m_hover, m_hoverText);
    if (isVisible()) QToolTip::showText(QCursor::pos(), escapedTip(m_hoverText), m_view);
    emit pointHovered(m_hoverText);
}

}  // namespace fp8dash::ui
