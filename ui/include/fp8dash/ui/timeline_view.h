#pragma once
// TimelineView: the production timeline of a comparison (README "The production timeline"). One chart on one date-time
// axis: throughput on the left axis (tokens/s), judge quality on the right axis (points), a dashed marker labelled "FP8
// on" at the change time, the quality alert's episodes shaded (pending lighter, firing darker); before/after cards
// against the expected bands; a read-out of both series at the cursor; zoom and pan; a time-range picker for
// (re)fetching; the FP8 switch vLLM reports, offered as a suggestion. Without a timeline it invites the user to connect
// a data source. The series are kept at full resolution; only what is drawn is downsampled (LTTB, per visible range),
// and the figures come from core's evaluation of the full data. GUI thread only; owns its children through Qt
// parenting.

#include <QList>
#include <QString>
#include <QWidget>

#include <optional>
#include <utility>
#include <vector>

#include "fp8dash/core/timeline.h"

class QAreaSeries;
class QChart;
class QComboBox;
class QDateTimeAxis;
class QFrame;
class QGraphicsLineItem;
class QGraphicsSimpleTextItem;
class QLabel;
class QLineSeries;
class QPushButton;
class QStackedWidget;
class QValueAxis;

namespace fp8dash::ui {

class TimeRangePicker;
class TimelineChartView;
class TimelineSummaryCard;

class TimelineView : public QWidget {
    Q_OBJECT
public:
    static constexpr int kDefaultMaxDrawnPoints = 2000;

    // One shaded span of the quality alert, unix seconds: pending from pendingAt until it fired (or resolved, or the
    // end of the range); firing from firingAt until resolved (or the end of the range).
    struct AlertSpan {
        double from = 0;
        double to = 0;
        bool firing = false;
        bool operator==(const AlertSpan&) const = default;
    };
    static std::vector<AlertSpan> alertSpansOf(const TimelineData& data);

    explicit TimelineView(QWidget* parent = nullptr);
    ~TimelineView() override;

    // Shows a timeline with its evaluation; nullptr shows the empty state. The zoom is kept when the new data covers
    // the same range (e.g. only the change time moved).
    void setTimeline(const TimelineData* data, const TimelineReport* report);
    // A new document: no timeline, the range picker back at its default (the last 24 hours), no zoom kept.
    void resetView();
    bool hasTimeline() const { return m_data.has_value(); }

    // Points drawn per series for the visible range (the full data stays in memory).
    void setMaxDrawnPoints(int points);
    int maxDrawnPoints() const { return m_maxDrawnPoints; }

    // The visible time range, unix seconds. zoomTo clamps to the timeline's range and keeps at least a minute.
    std::pair<double, double> visibleRange() const { return {m_viewFrom, m_viewTo}; }
    std::pair<double, double> fullRange() const;
    void zoomTo(double from, double to);
    void zoomBy(double factor, double centre);  // factor < 1 zooms in
    void panBy(double fraction);                // of the visible span; positive: later
    void resetZoom();
    bool isZoomed() const;

    // Both series at time t: the nearest full-resolution sample of each, as the hover read-out shows it.
    QString readoutAt(double t) const;
    QString readoutText() const;  // what the read-out line shows now

    // The range a fetch uses.
    TimeRangePicker* rangePicker() const { return m_rangePicker; }

    // Live mode (issue 28): the refresh picker (Off, 30 s, 1 min, 5 min, 15 min) and the range it follows, relative
    // to now ("Last 6 h", "Last 24 h", "Since the switch"); the status line ("updated 14:02:11 · next in 42 s").
    enum LiveRange { LiveLast6Hours = 0, LiveLast24Hours = 1, LiveSinceSwitch = 2 };
    static constexpr int kLiveHoursBeforeSwitch = 6;    // "Since the switch" starts this long before it
    static const std::vector<double>& liveIntervals();  // seconds, in the picker's order after "Off"
    double liveIntervalS() const;                       // 0: off
    void setLiveIntervalS(double seconds);              // 0: off; emits liveSettingsChanged when it changes
    LiveRange liveRange() const;
    void setLiveStatus(const QString& text);
    QComboBox* liveRefreshBox() const { return m_liveRefresh; }
    QComboBox* liveRangeBox() const { return m_liveRange; }
    QLabel* liveStatusLabel() const { return m_liveStatus; }

    // For tests and accessibility: what is on screen.
    QChart* chart() const { return m_chart; }
    TimelineChartView* chartView() const { return m_chartView; }
    QDateTimeAxis* timeAxis() const { return m_timeAxis; }
    QValueAxis* throughputAxis() const { return m_throughputAxis; }
    QValueAxis* qualityAxis() const { return m_qualityAxis; }
    QLineSeries* throughputSeries() const { return m_throughputSeries; }  // nullptr without throughput
    QLineSeries* qualitySeries() const { return m_qualitySeries; }        // nullptr without quality
    QLineSeries* changeMarker() const { return m_markerSeries; }          // nullptr without a change time
    QString changeMarkerLabel() const;
    const std::vector<AlertSpan>& alertSpans() const { return m_spans; }
    const QList<QAreaSeries*>& alertSeries() const { return m_alertSeries; }  // one per span, same order
    QAreaSeries* rolloutSeries() const { return m_rolloutSeries; }  // a rolling update's span; nullptr without one
    TimelineSummaryCard* throughputCard() const { return m_throughputCard; }
    TimelineSummaryCard* qualityCard() const { return m_qualityCard; }
    TimelineSummaryCard* alertCard() const { return m_alertCard; }
    QString sourceText() const;
    QString suggestionText() const;  // the detected change on offer, empty when none is offered
    QPushButton* connectButton() const { return m_connectButton; }
    QPushButton* sourceButton() const { return m_sourceButton; }
    QPushButton* fetchButton() const { return m_fetchButton; }
    QPushButton* resetZoomButton() const { return m_resetZoomButton; }
    QPushButton* useDetectedChangeButton() const { return m_useChangeButton; }

signals:
    void connectRequested();                        // open the data-source dialog
    void refreshRequested(double from, double to);  // fetch again for the picked range
    void changeTimeChosen(double t);                // the user confirmed a change time (unix seconds)
    void liveSettingsChanged();                     // the refresh interval or the live range was picked

private:
    QWidget* buildEmptyPage();
    QWidget* buildContentPage();
    void rebuildSeries();
    void applyView();   // sets the time axis to the visible range and redraws what depends on it
    void applyTheme();  // the chart, the marker and the cards in the palette's colours (timeline_view_theme.cpp)
    void redrawSeries();
    void updateOverlays();  // marker label, hover line
    void updateCards();
    void updateHeader();
    void showReadout(std::optional<double> t);

    std::optional<TimelineData> m_data;
    std::optional<TimelineReport> m_report;
    std::vector<Sample> m_throughputSamples;  // finite samples, full resolution, for drawing and the read-out
    std::vector<Sample> m_qualitySamples;
    std::vector<AlertSpan> m_spans;
    double m_viewFrom = 0;
    double m_viewTo = 0;
    int m_maxDrawnPoints = kDefaultMaxDrawnPoints;
    std::optional<double> m_hoverTime;

    QStackedWidget* m_stack = nullptr;
    QWidget* m_emptyPage = nullptr;
    QWidget* m_contentPage = nullptr;
    TimeRangePicker* m_rangePicker = nullptr;
    QPushButton* m_fetchButton = nullptr;
    QComboBox* m_liveRefresh = nullptr;
    QComboBox* m_liveRange = nullptr;
    QLabel* m_liveStatus = nullptr;
    QPushButton* m_sourceButton = nullptr;
    QPushButton* m_resetZoomButton = nullptr;
    QPushButton* m_connectButton = nullptr;
    QLabel* m_sourceLabel = nullptr;
    QLabel* m_warningsLabel = nullptr;
    QFrame* m_suggestionBar = nullptr;
    QLabel* m_suggestionLabel = nullptr;
    QPushButton* m_useChangeButton = nullptr;
    QLabel* m_readout = nullptr;
    TimelineSummaryCard* m_throughputCard = nullptr;
    TimelineSummaryCard* m_qualityCard = nullptr;
    TimelineSummaryCard* m_alertCard = nullptr;

    QChart* m_chart = nullptr;
    TimelineChartView* m_chartView = nullptr;
    QDateTimeAxis* m_timeAxis = nullptr;
    QValueAxis* m_throughputAxis = nullptr;
    QValueAxis* m_qualityAxis = nullptr;
    QValueAxis* m_overlayAxis = nullptr;  // hidden, 0..1: spans and the marker fill the plot's height on it
    QLineSeries* m_throughputSeries = nullptr;
    QLineSeries* m_qualitySeries = nullptr;
    QLineSeries* m_markerSeries = nullptr;
    QList<QAreaSeries*> m_alertSeries;
    QAreaSeries* m_rolloutSeries = nullptr;
    QGraphicsSimpleTextItem* m_markerLabel = nullptr;
    QGraphicsLineItem* m_hoverLine = nullptr;
    bool m_applyingView = false;
};

}  // namespace fp8dash::ui
