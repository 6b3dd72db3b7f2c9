#include "fp8dash/ui/timeline_view.h"
#include "fp8dash/core/http_client.h"

#include <QAreaSeries>
#include <QChart>
#include <QComboBox>
#include <QDateTime>
#include <QDateTimeAxis>
#include <QFrame>
#include <QGraphicsItem>
#include <QGraphicsLayout>
#include <QGraphicsLineItem>
#include <QGraphicsSimpleTextItem>
#include <QHBoxLayout>
#include <QLabel>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QPen>
#include <QPushButton>
#include <QScrollArea>
#include <QStackedWidget>
#include <QVBoxLayout>
#include <QValueAxis>

#include <algorithm>
#include <cmath>
#include <span>
#include <string_view>

#include "fp8dash/ui/loaded_comparison.h"
#include "fp8dash/ui/number_text.h"
#include "fp8dash/ui/time_range_picker.h"
#include "fp8dash/ui/timeline_chart_view.h"
#include "fp8dash/ui/timeline_summary_card.h"
#include "timeline/timeline_switch_notice.h"
#include "timeline/timeline_view_parts.h"
#include "widgets/ui_style.h"
#include "widgets/untrusted_ui.h"

namespace fp8dash::ui {

namespace {

QString liveIntervalText(double s) {
    return s < 60 ? TimelineView::tr("%1 s").arg(s) : TimelineView::tr("%1 min").arg(s / 60);
}

using namespace timeline_view_parts;

const QColor kPendingFill(0xf9, 0xa8, 0x25, 70);  // amber, light: the condition holds, not yet for long enough
const QColor kFiringFill(0xc6, 0x28, 0x28, 90);   // red, darker: the alert fired
constexpr double kMinVisibleSpanS = 60;
constexpr int kMinDrawnPoints = 10;  // LTTB needs a few buckets to keep the shape

QDateTime viewUtcTime(double unixSeconds) {
    return QDateTime::fromMSecsSinceEpoch(static_cast<qint64>(std::llround(unixSeconds * 1000.0)), Qt::UTC);
}

QString timeOfDay(double unixSeconds) {
    return viewUtcTime(unixSeconds).toString(QStringLiteral("HH:mm:ss"));
}

QString viewFixed(double v, int decimals) {
    return fixedText(v, decimals);
}

// Qt Charts paints every segment of a line series on every repaint of the area it covers, a hover line moving over it
// included: 2,000 segments of an antialiased 1.4-1.8 px pen cost ~9 ms a series (BM_ChartRedraw,
// tests/benchmarks/README.md). Its line items are kept as device-pixel caches instead
// (QGraphicsItem::DeviceCoordinateCache): a repaint that changes nothing blits them, a change (new points, pen, size,
// scale) draws them once again. Qt Charts keeps those items private; they are found by their class name, so a Qt that
// names them otherwise draws them uncached, as before.
void cacheLineItems(QGraphicsItem* item) {
    if (const QGraphicsObject* object = item->toGraphicsObject();
        object && std::string_view(object->metaObject()->className()).ends_with("LineChartItem"))
        item->setCacheMode(QGraphicsItem::DeviceCoordinateCache);
    for (QGraphicsItem* child : item->childItems()) cacheLineItems(child);
}

void hideLegendEntry(QChart* chart, QAbstractSeries* series) {
    for (QLegendMarker* marker : chart->legend()->markers(series)) marker->setVisible(false);
}

QString timeAxisTitle(double at) {
    // Qt Charts labels a date-time axis in local time; say which, so the labels agree with the UTC read-outs.
    const int offset = viewUtcTime(at).toLocalTime().offsetFromUtc();
    if (offset == 0) return TimelineView::tr("Time (UTC)");
    const int minutes = std::abs(offset) / 60;
    return TimelineView::tr("Time (local, UTC%1%2:%3)")
        .arg(offset < 0 ? QStringLiteral("−") : QStringLiteral("+"))
        .arg(minutes / 60, 2, 10, QLatin1Char('0'))
        .arg(minutes % 60, 2, 10, QLatin1Char('0'));
}

}  // namespace

std::vector<TimelineView::AlertSpan> TimelineView::alertSpansOf(const TimelineData& data) {
    std::vector<AlertSpan> spans;
    const double end = data.settings.to;
    for (const AlertEpisode& a : data.alerts) {
        // Pending lasts until the alert fires, or until it resolves without firing, or to the end of the range.
        const double pendingEnd = a.firingAt ? *a.firingAt : a.resolvedAt.value_or(std::max(end, a.pendingAt));
        if (pendingEnd > a.pendingAt) spans.push_back({a.pendingAt, pendingEnd, false});
        if (a.firingAt) spans.push_back({*a.firingAt, a.resolvedAt.value_or(std::max(end, *a.firingAt)), true});
    }
    return spans;
}

TimelineView::TimelineView(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("timelineView"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(8, 8, 8, 4);
    layout->setSpacing(8);

    auto* bar = new QHBoxLayout;
    bar->setSpacing(6);
    bar->addWidget(new QLabel(tr("Range:"), this));
    m_rangePicker = new TimeRangePicker(this);
    bar->addWidget(m_rangePicker);
    m_fetchButton = new QPushButton(tr("Fetch"), this);
    m_fetchButton->setObjectName(QStringLiteral("fetchButton"));
    m_fetchButton->setToolTip(tr("Fetch the series again for this range (Timeline › Refresh)"));
    bar->addWidget(m_fetchButton);
    bar->addStretch(1);
    m_resetZoomButton = new QPushButton(tr("Reset Zoom"), this);
    m_resetZoomButton->setObjectName(QStringLiteral("resetZoomButton"));
    m_resetZoomButton->setToolTip(tr("Show the whole fetched range (Home, or double-click the chart)"));
    bar->addWidget(m_resetZoomButton);
    m_sourceButton = new QPushButton(tr("Data Source…"), this);
    m_sourceButton->setObjectName(QStringLiteral("sourceButton"));
    m_sourceButton->setToolTip(tr("Prometheus and Langfuse: URLs, queries, authentication (Timeline › Connect…)"));
    bar->addWidget(m_sourceButton);
    layout->addLayout(bar);
    // Live mode: its own row, so that the range's times keep their width.
    auto* live = new QHBoxLayout;
    live->setSpacing(6);
    live->addWidget(new QLabel(tr("Live:"), this));
    m_liveRefresh = new QComboBox(this);
    m_liveRefresh->setObjectName(QStringLiteral("liveRefresh"));
    m_liveRefresh->addItem(tr("Off"), 0.0);
    for (double s : liveIntervals()) m_liveRefresh->addItem(tr("Every %1").arg(liveIntervalText(s)), s);
    m_liveRefresh->setToolTip(
        tr("Follow the deployment: fetch what is new at this interval, re-evaluate the quality alert and notify its "
           "changes. Nothing is saved on its own: Save keeps a snapshot."));
    live->addWidget(m_liveRefresh);
    m_liveRange = new QComboBox(this);
    m_liveRange->setObjectName(QStringLiteral("liveRange"));
    m_liveRange->addItem(tr("Last 6 h"));
    m_liveRange->addItem(tr("Last 24 h"));
    m_liveRange->addItem(tr("Since the switch"));
    m_liveRange->setToolTip(tr("The range live mode shows; it moves with time. Since the switch starts %1 hours "
                               "before the FP8 change time, for the before/after figures")
                                .arg(kLiveHoursBeforeSwitch));
    live->addWidget(m_liveRange);
    m_liveStatus = style::caption(QString(), this);
    m_liveStatus->setWordWrap(false);
    m_liveStatus->setObjectName(QStringLiteral("liveStatus"));
    live->addWidget(m_liveStatus);
    live->addStretch(1);
    layout->addLayout(live);

    m_stack = new QStackedWidget(this);
    m_emptyPage = buildEmptyPage();
    m_contentPage = buildContentPage();
    m_stack->addWidget(m_emptyPage);
    m_stack->addWidget(m_contentPage);
    layout->addWidget(m_stack, 1);

    connect(m_fetchButton, &QPushButton::clicked, this, [this] {
        const auto [from, to] = m_rangePicker->range();
        emit refreshRequested(from, to);
    });
    connect(m_sourceButton, &QPushButton::clicked, this, &TimelineView::connectRequested);
    connect(m_liveRefresh, &QComboBox::currentIndexChanged, this, &TimelineView::liveSettingsChanged);
    connect(m_liveRange, &QComboBox::currentIndexChanged, this, &TimelineView::liveSettingsChanged);
    connect(m_connectButton, &QPushButton::clicked, this, &TimelineView::connectRequested);
    connect(m_resetZoomButton, &QPushButton::clicked, this, &TimelineView::resetZoom);
    connect(m_useChangeButton, &QPushButton::clicked, this, [this] {
        if (m_data && m_data->detectedChange) emit changeTimeChosen(m_data->detectedChange->at);
    });

    connect(m_chartView, &TimelineChartView::hovered, this, [this](double t) { showReadout(t); });
    connect(m_chartView, &TimelineChartView::hoverLeft, this, [this] { showReadout(std::nullopt); });
    connect(m_chartView, &TimelineChartView::zoomToRequested, this, &TimelineView::zoomTo);
    connect(m_chartView, &TimelineChartView::zoomRequested, this, &TimelineView::zoomBy);
    connect(m_chartView, &TimelineChartView::panRequested, this, &TimelineView::panBy);
    connect(m_chartView, &TimelineChartView::resetRequested, this, &TimelineView::resetZoom);
    connect(m_chartView, &TimelineChartView::changeTimeRequested, this, &TimelineView::changeTimeChosen);
    connect(m_chart, &QChart::plotAreaChanged, this, &TimelineView::updateOverlays);
    connect(m_timeAxis, &QDateTimeAxis::rangeChanged, this, [this](const QDateTime& min, const QDateTime& max) {
        if (m_applyingView || !m_data) return;
        // A range set from elsewhere (Qt Charts itself): follow it and draw the data for it.
        m_viewFrom = min.toMSecsSinceEpoch() / 1000.0;
        m_viewTo = max.toMSecsSinceEpoch() / 1000.0;
        redrawSeries();
        updateOverlays();
    });

    setTimeline(nullptr, nullptr);
    style::onThemeChange(this, [this] { applyTheme(); });  // restyled in place: zoom, pan and read-out stay
    if (style::darkPalette()) applyTheme();                // a dark start: the note bar's dark colours too
}

TimelineView::~TimelineView() = default;

const std::vector<double>& TimelineView::liveIntervals() {
    static const std::vector<double> intervals = {30, 60, 300, 900};
    return intervals;
}

double TimelineView::liveIntervalS() const {
    return m_liveRefresh->currentData().toDouble();
}

void TimelineView::setLiveIntervalS(double seconds) {
    const int i = m_liveRefresh->findData(seconds);
    m_liveRefresh->setCurrentIndex(i < 0 ? 0 : i);
}

TimelineView::LiveRange TimelineView::liveRange() const {
    return static_cast<LiveRange>(std::max(0, m_liveRange->currentIndex()));
}

void TimelineView::setLiveStatus(const QString& text) {
    m_liveStatus->setText(text);
}

QWidget* TimelineView::buildEmptyPage() {
    auto* page = new QWidget(this);
    page->setObjectName(QStringLiteral("timelineEmptyPage"));
    auto* outer = new QVBoxLayout(page);
    outer->addStretch(1);
    auto* title = style::sectionTitle(tr("No production timeline yet"), page);
    title->setAlignment(Qt::AlignCenter);
    outer->addWidget(title);
    auto* text = style::caption(
        tr("Plot serving throughput from Prometheus and judge quality from Langfuse (or a score metric in "
           "Prometheus) on one time axis around the moment FP8 went on, and evaluate the quality alert exactly as "
           "Prometheus would. Expected on Hopper: throughput +40–60%, quality within ±0.1 points."),
        page);
    text->setAlignment(Qt::AlignCenter);
    // A fixed width and the matching height: the stacked page does not pass height-for-width down to the label.
    text->setFixedWidth(560);
    text->setMinimumHeight(text->heightForWidth(560));
    outer->addWidget(text, 0, Qt::AlignHCenter);
    m_connectButton = new QPushButton(tr("Connect to Prometheus / Langfuse…"), page);
    m_connectButton->setObjectName(QStringLiteral("connectButton"));
    m_connectButton->setDefault(true);
    outer->addSpacing(8);
    outer->addWidget(m_connectButton, 0, Qt::AlignHCenter);
    outer->addStretch(2);
    return page;
}

QWidget* TimelineView::buildContentPage() {
    auto* page = new QWidget(this);
    page->setObjectName(QStringLiteral("timelineContentPage"));
    auto* v = new QVBoxLayout(page);
    v->setContentsMargins(0, 0, 0, 0);
    v->setSpacing(6);

    m_sourceLabel = style::caption(QString(), page);
    m_sourceLabel->setObjectName(QStringLiteral("timelineSource"));
    m_sourceLabel->setTextFormat(Qt::PlainText);  // its server name, URLs, score name and tags come from the file
    m_sourceLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    v->addWidget(m_sourceLabel);

    m_warningsLabel = new QLabel(page);
    m_warningsLabel->setObjectName(QStringLiteral("timelineWarnings"));
    m_warningsLabel->setWordWrap(true);
    m_warningsLabel->setTextFormat(Qt::PlainText);
    m_warningsLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    style::setTextTone(m_warningsLabel, style::TextTone::Caution);
    v->addWidget(m_warningsLabel);

    m_suggestionBar = new QFrame(page);
    m_suggestionBar->setObjectName(QStringLiteral("changeSuggestion"));
    m_suggestionBar->setStyleSheet(
        QStringLiteral("QFrame#changeSuggestion { background: #e8f0fe; border: 1px solid #aecbfa; border-radius: 6px; }"
                       " QFrame#changeSuggestion QLabel { color: #174ea6; background: transparent; border: none; }"));
    auto* suggestion = new QHBoxLayout(m_suggestionBar);
    suggestion->setContentsMargins(10, 6, 8, 6);
    m_suggestionLabel = new QLabel(m_suggestionBar);
    m_suggestionLabel->setWordWrap(true);
    m_suggestionLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    suggestion->addWidget(m_suggestionLabel, 1);
    m_useChangeButton = new QPushButton(tr("Use This Change Time"), m_suggestionBar);
    m_useChangeButton->setObjectName(QStringLiteral("useDetectedChange"));
    suggestion->addWidget(m_useChangeButton);
    v->addWidget(m_suggestionBar);

    auto* body = new QHBoxLayout;
    body->setSpacing(10);
    auto* left = new QVBoxLayout;
    left->setSpacing(2);
    m_readout = new QLabel(page);
    m_readout->setObjectName(QStringLiteral("hoverReadout"));
    m_readout->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_readout->setMinimumWidth(100);  // long read-outs are elided by the layout rather than widening the window
    left->addWidget(m_readout);

    m_chart = new QChart;
    m_chart->setAnimationOptions(QChart::NoAnimation);
    m_chart->setBackgroundRoundness(0);
    m_chart->setMargins(QMargins(4, 4, 4, 4));
    m_chart->layout()->setContentsMargins(0, 0, 0, 0);
    m_chart->legend()->setAlignment(Qt::AlignBottom);

    m_timeAxis = new QDateTimeAxis(m_chart);
    m_timeAxis->setTickCount(7);
    m_throughputAxis = new QValueAxis(m_chart);
    m_throughputAxis->setTitleText(tr("Throughput (tokens/s)"));
    m_throughputAxis->setLabelFormat(QStringLiteral("%.0f"));
    m_throughputAxis->setTitleBrush(kThroughputColor);
    m_throughputAxis->setLabelsColor(kThroughputColor.darker(130));
    m_qualityAxis = new QValueAxis(m_chart);
    m_qualityAxis->setTitleText(tr("Quality (judge points)"));
    m_qualityAxis->setLabelFormat(QStringLiteral("%.1f"));
    m_qualityAxis->setTitleBrush(kQualityColor);
    m_qualityAxis->setLabelsColor(kQualityColor.darker(120));
    m_qualityAxis->setGridLineVisible(false);  // one grid (throughput's) is enough
    m_overlayAxis = new QValueAxis(m_chart);
    m_overlayAxis->setRange(0, 1);
    m_overlayAxis->setVisible(false);
    m_chart->addAxis(m_timeAxis, Qt::AlignBottom);
    m_chart->addAxis(m_throughputAxis, Qt::AlignLeft);
    m_chart->addAxis(m_qualityAxis, Qt::AlignRight);
    m_chart->addAxis(m_overlayAxis, Qt::AlignRight);

    m_chartView = new TimelineChartView(m_chart, page);
    m_chartView->setMinimumHeight(260);

    m_markerLabel = new QGraphicsSimpleTextItem(tr("FP8 on"), m_chart);
    QFont markerFont = m_markerLabel->font();
    markerFont.setBold(true);
    m_markerLabel->setFont(markerFont);
    m_markerLabel->setBrush(markerColor(style::darkPalette()));
    m_markerLabel->setZValue(100);
    m_markerLabel->hide();
    m_hoverLine = new QGraphicsLineItem(m_chart);
    QPen hoverPen(QColor(0x5f, 0x63, 0x68));
    hoverPen.setStyle(Qt::DotLine);
    hoverPen.setCosmetic(true);
    m_hoverLine->setPen(hoverPen);
    m_hoverLine->setZValue(100);
    m_hoverLine->hide();

    left->addWidget(m_chartView, 1);
    body->addLayout(left, 1);

    // The cards scroll rather than clip when the window is short.
    auto* cardsScroll = new QScrollArea(page);
    cardsScroll->setObjectName(QStringLiteral("timelineCards"));
    cardsScroll->setWidgetResizable(true);
    cardsScroll->setFrameShape(QFrame::NoFrame);
    cardsScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    auto* cardsPage = new QWidget(cardsScroll);
    auto* cards = new QVBoxLayout(cardsPage);
    cards->setContentsMargins(0, 0, 0, 0);
    cards->setSpacing(8);
    m_throughputCard = new TimelineSummaryCard(tr("Throughput (tokens/s)"), cardsPage);
    m_throughputCard->setObjectName(QStringLiteral("throughputCard"));
    m_qualityCard = new TimelineSummaryCard(tr("Quality (judge points)"), cardsPage);
    m_qualityCard->setObjectName(QStringLiteral("qualityCard"));
    m_alertCard = new TimelineSummaryCard(tr("Quality alert"), cardsPage);
    m_alertCard->setObjectName(QStringLiteral("alertCard"));
    for (TimelineSummaryCard* card : {m_throughputCard, m_qualityCard, m_alertCard}) cards->addWidget(card);
    cards->addStretch(1);
    cardsScroll->setWidget(cardsPage);
    cardsScroll->setFixedWidth(290);
    body->addWidget(cardsScroll, 0);
    v->addLayout(body, 1);
    return page;
}

void TimelineView::resetView() {
    setTimeline(nullptr, nullptr);
    m_viewFrom = m_viewTo = 0;
    m_rangePicker->setPreset(TimeRangePicker::Last24Hours);
}

void TimelineView::setTimeline(const TimelineData* data, const TimelineReport* report) {
    if (!data) {
        m_data.reset();
        m_report.reset();
        m_throughputSamples.clear();
        m_qualitySamples.clear();
        m_spans.clear();
        m_chart->removeAllSeries();
        m_throughputSeries = m_qualitySeries = m_markerSeries = nullptr;
        m_alertSeries.clear();
        m_rolloutSeries = nullptr;
        m_markerLabel->hide();
        m_hoverLine->hide();
        m_stack->setCurrentWidget(m_emptyPage);
        m_resetZoomButton->setEnabled(false);
        m_fetchButton->setToolTip(tr("Choose a data source first"));
        return;
    }
    const bool sameRange =
        m_data && m_data->settings.from == data->settings.from && m_data->settings.to == data->settings.to;
    const std::pair<double, double> keptView{m_viewFrom, m_viewTo};
    const bool wasZoomed = isZoomed();

    m_data = *data;
    m_report = report ? *report : evaluateTimeline(*data);
    m_throughputSamples = finiteSamples(m_data->throughput);
    m_qualitySamples = finiteSamples(m_data->quality);
    m_spans = alertSpansOf(*m_data);
    const TimelineSettings& st = m_data->settings;

    // Value axes from the full data inside the range, so zooming and panning never rescale them.
    double throughputMax = 0;
    for (const Sample& s : m_throughputSamples) {
        if (s.t >= st.from && s.t <= st.to) throughputMax = std::max(throughputMax, s.v);
    }
    m_throughputAxis->setRange(0, throughputMax > 0 ? throughputMax * 1.08 : 1.0);
    m_throughputAxis->applyNiceNumbers();
    double qualityMin = 1, qualityMax = 5;  // judge points are 1-5; widen only for scores outside that scale
    for (const Sample& s : m_qualitySamples) {
        qualityMin = std::min(qualityMin, std::floor(s.v));
        qualityMax = std::max(qualityMax, std::ceil(s.v));
    }
    m_qualityAxis->setRange(qualityMin, qualityMax);
    m_qualityAxis->setTickCount(qualityMax - qualityMin <= 10 ? static_cast<int>(qualityMax - qualityMin) + 1 : 5);
    m_timeAxis->setTitleText(timeAxisTitle(st.from));

    rebuildSeries();
    if (sameRange) {
        m_viewFrom = keptView.first;
        m_viewTo = keptView.second;
    } else if (wasZoomed && liveIntervalS() > 0 && keptView.second > st.from && keptView.first < st.to) {
        // Live: the window moves on every refresh; the part the user zoomed into stays on screen.
        m_viewFrom = std::max(keptView.first, st.from);
        m_viewTo = std::min(keptView.second, st.to);
    } else {
        m_viewFrom = st.from;
        m_viewTo = st.to;
    }
    // A preset that just fetched this data (same span, ending now) stays a preset, so Fetch gets the latest hours;
    // anything else (a file from last week) shows its own times.
    const auto preset = m_rangePicker->preset();
    const double now = static_cast<double>(QDateTime::currentSecsSinceEpoch());
    const bool fetchedWithPreset = preset != TimeRangePicker::Custom &&
                                   std::abs((st.to - st.from) - TimeRangePicker::presetSeconds(preset)) <= 90 &&
                                   std::abs(now - st.to) <= 15 * 60;
    if (!fetchedWithPreset) m_rangePicker->setRange(st.from, st.to);
    m_fetchButton->setToolTip(tr("Fetch the series again for this range (Timeline › Refresh)"));
    m_stack->setCurrentWidget(m_contentPage);
    updateHeader();
    updateCards();
    applyView();
    // Qt Charts keeps an axis' size from its first layout when its range changes while the chart is hidden (a tab
    // not in front), which truncates the labels to "2…"; a visibility change makes it measure the labels again.
    for (QAbstractAxis* axis : {static_cast<QAbstractAxis*>(m_timeAxis), static_cast<QAbstractAxis*>(m_throughputAxis),
                                static_cast<QAbstractAxis*>(m_qualityAxis)}) {
        axis->setVisible(false);
    }
    m_timeAxis->setVisible(true);
    m_throughputAxis->setVisible(m_data->throughput.has_value());
    m_qualityAxis->setVisible(m_data->quality.has_value());
    showReadout(std::nullopt);
}

void TimelineView::rebuildSeries() {
    m_chart->removeAllSeries();  // deletes them; each area's boundary lines are its children
    m_throughputSeries = m_qualitySeries = m_markerSeries = nullptr;
    m_alertSeries.clear();
    m_rolloutSeries = nullptr;
    if (!m_data) return;

    // Series added later are drawn on top: the shaded spans first, the lines last.
    bool pendingInLegend = false;
    bool firingInLegend = false;
    for (const AlertSpan& span : m_spans) {
        auto* upper = new QLineSeries;
        upper->append(msOf(span.from), 1);
        upper->append(msOf(span.to), 1);
        auto* lower = new QLineSeries;
        lower->append(msOf(span.from), 0);
        lower->append(msOf(span.to), 0);
        auto* area = new QAreaSeries(upper, lower);
        area->setName(span.firing ? tr("Alert firing") : tr("Alert pending"));
        area->setBrush(span.firing ? kFiringFill : kPendingFill);
        area->setPen(Qt::NoPen);
        m_chart->addSeries(area);
        upper->setParent(area);  // QAreaSeries does not own its boundaries
        lower->setParent(area);
        area->attachAxis(m_timeAxis);
        area->attachAxis(m_overlayAxis);
        bool& shown = span.firing ? firingInLegend : pendingInLegend;
        if (shown) hideLegendEntry(m_chart, area);
        shown = true;
        m_alertSeries.append(area);
    }

    if (m_report && m_report->rolloutEnd && m_data->settings.changeAt) {  // engines of a rolling update switching
        m_rolloutSeries = rolloutArea(*m_data->settings.changeAt, *m_report->rolloutEnd);
        m_chart->addSeries(m_rolloutSeries);
        m_rolloutSeries->attachAxis(m_timeAxis);
        m_rolloutSeries->attachAxis(m_overlayAxis);
    }
    if (const auto change = m_data->settings.changeAt) {
        m_markerSeries = new QLineSeries;
        m_markerSeries->setName(tr("FP8 on"));
        m_markerSeries->append(msOf(*change), 0);
        m_markerSeries->append(msOf(*change), 1);
        QPen pen(markerColor(style::darkPalette()));
        m_markerLabel->setBrush(markerColor(style::darkPalette()));
        pen.setWidthF(1.6);
        pen.setStyle(Qt::DashLine);
        m_markerSeries->setPen(pen);
        m_chart->addSeries(m_markerSeries);
        m_markerSeries->attachAxis(m_timeAxis);
        m_markerSeries->attachAxis(m_overlayAxis);
    }

    if (m_data->quality) {
        m_qualitySeries = new QLineSeries;
        m_qualitySeries->setName(m_data->settings.qualitySource == QualitySource::Langfuse
                                     ? tr("Quality: judge scores (Langfuse)")
                                     : tr("Quality: judge points"));
        QPen pen(kQualityColor);
        pen.setWidthF(1.4);
        m_qualitySeries->setPen(pen);
        m_chart->addSeries(m_qualitySeries);
        m_qualitySeries->attachAxis(m_timeAxis);
        m_qualitySeries->attachAxis(m_qualityAxis);
    }
    if (m_data->throughput) {
        m_throughputSeries = new QLineSeries;
        m_throughputSeries->setName(tr("Throughput (tokens/s)"));
        QPen pen(kThroughputColor);
        pen.setWidthF(1.8);
        m_throughputSeries->setPen(pen);
        m_chart->addSeries(m_throughputSeries);
        m_throughputSeries->attachAxis(m_timeAxis);
        m_throughputSeries->attachAxis(m_throughputAxis);
    }
    cacheLineItems(m_chart);
}

void TimelineView::setMaxDrawnPoints(int points) {
    m_maxDrawnPoints = std::max(points, kMinDrawnPoints);
    redrawSeries();
}

std::pair<double, double> TimelineView::fullRange() const {
    if (!m_data) return {0, 0};
    return {m_data->settings.from, m_data->settings.to};
}

bool TimelineView::isZoomed() const {
    const auto [from, to] = fullRange();
    return m_data && (m_viewFrom > from || m_viewTo < to);
}

void TimelineView::zoomTo(double from, double to) {
    if (!m_data) return;
    const auto [fullFrom, fullTo] = fullRange();
    const double fullSpan = fullTo - fullFrom;
    const double span = std::max(to - from, std::min(kMinVisibleSpanS, fullSpan));
    if (!(span < fullSpan)) {
        m_viewFrom = fullFrom;
        m_viewTo = fullTo;
    } else {
        // Keep the span; slide it back inside the fetched range.
        from = std::clamp(from, fullFrom, fullTo - span);
        m_viewFrom = from;
        m_viewTo = from + span;
    }
    applyView();
}

void TimelineView::zoomBy(double factor, double centre) {
    if (!m_data || !(factor > 0)) return;
    const double span = m_viewTo - m_viewFrom;
    const double newSpan = span * factor;
    const double f = span > 0 ? (centre - m_viewFrom) / span : 0.5;  // the time under the cursor stays put
    const double from = centre - f * newSpan;
    zoomTo(from, from + newSpan);
}

void TimelineView::panBy(double fraction) {
    const double delta = fraction * (m_viewTo - m_viewFrom);
    zoomTo(m_viewFrom + delta, m_viewTo + delta);
}

void TimelineView::resetZoom() {
    if (!m_data) return;
    zoomTo(m_data->settings.from, m_data->settings.to);
}

void TimelineView::applyView() {
    if (!m_data) return;
    m_applyingView = true;
    m_timeAxis->setRange(viewUtcTime(m_viewFrom), viewUtcTime(m_viewTo));
    const double span = m_viewTo - m_viewFrom;
    m_timeAxis->setFormat(span <= 2 * 3600     ? QStringLiteral("MM-dd HH:mm:ss")
                          : span <= 10 * 86400 ? QStringLiteral("MM-dd HH:mm")
                                               : QStringLiteral("yyyy-MM-dd"));
    m_applyingView = false;
    redrawSeries();
    updateOverlays();
    m_resetZoomButton->setEnabled(isZoomed());
}

void TimelineView::redrawSeries() {
    // Only the visible range is downsampled, from the full data: zooming in shows every sample again.
    const auto draw = [this](QLineSeries* series, const std::vector<Sample>& samples) {
        if (!series) return;
        const auto slice = visibleSlice(samples, m_viewFrom, m_viewTo);
        series->replace(pointsOf(downsampleLttb(slice, static_cast<std::size_t>(m_maxDrawnPoints))));
    };
    draw(m_throughputSeries, m_throughputSamples);
    draw(m_qualitySeries, m_qualitySamples);
}

void TimelineView::updateOverlays() {
    const QRectF plot = m_chart->plotArea();
    const double span = m_viewTo - m_viewFrom;
    auto xOf = [&](double t) { return plot.left() + (t - m_viewFrom) / span * plot.width(); };
    const auto change = m_data ? m_data->settings.changeAt : std::nullopt;
    if (change && span > 0 && *change >= m_viewFrom && *change <= m_viewTo && plot.width() > 0) {
        const double x = xOf(*change);
        const double w = m_markerLabel->boundingRect().width();
        // Right of the line, or left of it where it would run past the plot's right edge.
        const double labelX = x + 5 + w <= plot.right() ? x + 5 : x - 5 - w;
        m_markerLabel->setPos(labelX, plot.top() + 3);
        m_markerLabel->show();
    } else {
        m_markerLabel->hide();
    }
    if (m_hoverTime && span > 0 && *m_hoverTime >= m_viewFrom && *m_hoverTime <= m_viewTo) {
        const double x = xOf(*m_hoverTime);
        m_hoverLine->setLine(x, plot.top(), x, plot.bottom());
        m_hoverLine->show();
    } else {
        m_hoverLine->hide();
    }
}

QString TimelineView::changeMarkerLabel() const {
    return m_markerSeries ? m_markerLabel->text() : QString();
}

QString TimelineView::readoutAt(double t) const {
    QStringList parts{toQString(formatTimeUtc(t))};
    if (m_data && m_data->throughput) {
        if (const Sample* s = nearestSample(m_throughputSamples, t)) {
            parts << tr("throughput %1 tokens/s (%2)").arg(viewFixed(s->v, 1), timeOfDay(s->t));
        } else {
            parts << tr("throughput: no samples");
        }
    }
    if (m_data && m_data->quality) {
        if (const Sample* s = nearestSample(m_qualitySamples, t)) {
            parts << tr("quality %1 (%2)").arg(viewFixed(s->v, 2), timeOfDay(s->t));
        } else {
            parts << tr("quality: no samples");
        }
    }
    return parts.join(QStringLiteral("   ·   "));
}

QString TimelineView::readoutText() const {
    return m_readout->text();
}

void TimelineView::showReadout(std::optional<double> t) {
    m_hoverTime = t;
    m_readout->setText(t ? readoutAt(*t)
                         : tr("Hover over the chart to read both series · drag to zoom · Shift+drag or arrow keys to "
                              "pan · double-click to reset"));
    updateOverlays();
}

QString TimelineView::sourceText() const {
    return m_sourceLabel->text();
}

QString TimelineView::suggestionText() const {
    return m_suggestionBar->isHidden() ? QString() : m_suggestionLabel->text();
}

}  // namespace fp8dash::ui
