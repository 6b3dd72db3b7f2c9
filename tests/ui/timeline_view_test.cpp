// The production timeline on screen: a saved timeline opened in the main window, checked from the widgets (series
// and their axes, downsampling, the change marker, the alert spans, the before/after cards, the read-out, zoom and
// pan) against figures computed here; and the overall verdict in the banner (the worse of evals and timeline).
#include <QAreaSeries>
#include <QChart>
#include <QDateTimeAxis>
#include <QDateTimeEdit>
#include <QFile>
#include <QGraphicsItem>
#include <QImage>
#include <QLabel>
#include <QLineSeries>
#include <QPushButton>
#include <QSignalSpy>
#include <QStackedWidget>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QValueAxis>
#include <QtTest>

#include <algorithm>
#include <cmath>

#include "fp8dash/ui/chart_snapshots.h"
#include "fp8dash/ui/comparison_view.h"
#include "fp8dash/ui/main_window.h"
#include "fp8dash/ui/task_table_model.h"
#include "fp8dash/ui/task_table_view.h"
#include "fp8dash/ui/time_range_picker.h"
#include "fp8dash/ui/timeline_chart_view.h"
#include "fp8dash/ui/timeline_source_dialog.h"
#include "fp8dash/ui/timeline_summary_card.h"
#include "fp8dash/ui/timeline_view.h"
#include "fp8dash/ui/verdict_banner.h"
#include "gui_test_support.h"
#include "timeline_test_data.h"

namespace fp8dash::ui::test {
namespace {

class TimelineViewTest : public GuiTest {};

qreal ms(double unixSeconds) {
    return unixSeconds * 1000.0;
}

// Saves the document with core's writer and opens it in the window the way a user does (off the GUI thread).
void openSaved(MainWindow& window, const ComparisonDocument& doc, const QString& path) {
    ASSERT_TRUE(saveComparisonFile(doc, path.toStdString()).ok());
    QSignalSpy shown(&window, &MainWindow::documentShown);
    window.openFileAsync(path);
    ASSERT_TRUE(shown.wait(20000));
}

bool attachedTo(QAbstractSeries* series, QAbstractAxis* axis) {
    return series->attachedAxes().contains(axis);
}

// The samples the view draws for [from, to] at full resolution: those inside plus one neighbour on each side.
std::vector<Sample> expectedSlice(const std::vector<Sample>& all, double from, double to) {
    std::size_t first = 0;
    while (first < all.size() && all[first].t < from) ++first;
    std::size_t last = first;
    while (last < all.size() && all[last].t <= to) ++last;
    if (first > 0) --first;
    if (last < all.size()) ++last;
    return {all.begin() + static_cast<std::ptrdiff_t>(first), all.begin() + static_cast<std::ptrdiff_t>(last)};
}

QString fixed(double v, int decimals) {
    return QString::number(v, 'f', decimals);
}

TEST_F(TimelineViewTest, SavedTimelineShowsBothSeriesTheMarkerTheAlertsAndTheFigures) {
    const TimelineData data = dayTimeline();
    ASSERT_TRUE(data.throughput && data.quality);
    ASSERT_FALSE(data.alerts.empty()) << "the dips must raise the alert";
    // Evals all GO under loose thresholds (5 % / 10 %): the timeline decides the overall verdict here.
    const ComparisonDocument doc = documentWith(data, true, 5.0, 10.0);
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());

    MainWindow window;
    window.resize(1280, 820);
    window.show();
    openSaved(window, doc, dir.filePath(QStringLiteral("day.fp8cmp")));
    ComparisonView* view = window.comparisonView();
    view->showTab(ComparisonView::TimelineTab);
    TimelineView* timeline = view->timelineView();
    ASSERT_TRUE(timeline->hasTimeline());
    QTest::qWait(20);

    // Both tabs, the timeline in front.
    EXPECT_TRUE(view->tabs()->isTabVisible(ComparisonView::EvalsTab));
    EXPECT_EQ(view->tabs()->currentWidget(), timeline);

    // One chart, one date-time axis at the bottom shared by both series; throughput on the left, quality right.
    QChart* chart = timeline->chart();
    QLineSeries* throughput = timeline->throughputSeries();
    QLineSeries* quality = timeline->qualitySeries();
    ASSERT_NE(throughput, nullptr);
    ASSERT_NE(quality, nullptr);
    EXPECT_EQ(throughput->chart(), chart);
    EXPECT_EQ(quality->chart(), chart);
    const auto horizontal = chart->axes(Qt::Horizontal);
    ASSERT_EQ(horizontal.size(), 1);
    auto* timeAxis = qobject_cast<QDateTimeAxis*>(horizontal.first());
    ASSERT_NE(timeAxis, nullptr);
    EXPECT_EQ(timeAxis->alignment(), Qt::AlignBottom);
    EXPECT_TRUE(attachedTo(throughput, timeAxis));
    EXPECT_TRUE(attachedTo(quality, timeAxis));
    const auto throughputY = chart->axes(Qt::Vertical, throughput);
    const auto qualityY = chart->axes(Qt::Vertical, quality);
    ASSERT_EQ(throughputY.size(), 1);
    ASSERT_EQ(qualityY.size(), 1);
    EXPECT_EQ(throughputY.first()->alignment(), Qt::AlignLeft);
    EXPECT_EQ(qualityY.first()->alignment(), Qt::AlignRight);
    EXPECT_TRUE(throughputY.first()->titleText().contains(QStringLiteral("tokens/s")));
    EXPECT_TRUE(qualityY.first()->titleText().contains(QStringLiteral("judge points")));
    EXPECT_TRUE(throughputY.first()->isVisible());
    EXPECT_TRUE(qualityY.first()->isVisible());
    auto* qualityAxis = qobject_cast<QValueAxis*>(qualityY.first());
    ASSERT_NE(qualityAxis, nullptr);
    EXPECT_DOUBLE_EQ(qualityAxis->min(), 1.0);  // the judge's 1-5 scale
    EXPECT_DOUBLE_EQ(qualityAxis->max(), 5.0);
    EXPECT_EQ(timeAxis->min().toMSecsSinceEpoch(), static_cast<qint64>(ms(kDayStart)));
    EXPECT_EQ(timeAxis->max().toMSecsSinceEpoch(), static_cast<qint64>(ms(kDayEnd)));

    // Throughput: 5761 samples at 15 s, drawn as at most 2000 points, keeping the first and the last.
    const auto& tp = data.throughput->samples;
    ASSERT_EQ(tp.size(), 5761u);
    const int threshold = timeline->maxDrawnPoints();
    EXPECT_EQ(threshold, TimelineView::kDefaultMaxDrawnPoints);
    EXPECT_LE(throughput->count(), threshold);
    EXPECT_GE(throughput->count(), threshold * 9 / 10);  // downsampled, not thinned to nothing
    EXPECT_EQ(throughput->at(0), QPointF(ms(tp.front().t), tp.front().v));
    EXPECT_EQ(throughput->at(throughput->count() - 1), QPointF(ms(tp.back().t), tp.back().v));
    // Quality: 721 scores fit under the threshold and are all drawn.
    const auto& qs = data.quality->samples;
    ASSERT_EQ(quality->count(), static_cast<int>(qs.size()));
    for (int i = 0; i < quality->count(); i += 97) EXPECT_EQ(quality->at(i), QPointF(ms(qs[i].t), qs[i].v));

    // The change marker: a vertical line at changeAt, labelled "FP8 on".
    QLineSeries* marker = timeline->changeMarker();
    ASSERT_NE(marker, nullptr);
    ASSERT_EQ(marker->count(), 2);
    EXPECT_EQ(marker->at(0).x(), ms(kChangeAt));
    EXPECT_EQ(marker->at(1).x(), ms(kChangeAt));
    EXPECT_NE(marker->at(0).y(), marker->at(1).y());
    EXPECT_TRUE(attachedTo(marker, timeAxis));
    EXPECT_EQ(timeline->changeMarkerLabel(), QStringLiteral("FP8 on"));

    // The alert spans: as many as the episodes imply, at their times, pending lighter than firing.
    const std::vector<Span> spans = expectedSpans(data.alerts, kDayEnd);
    const QList<QAreaSeries*> areas = timeline->alertSeries();
    ASSERT_EQ(areas.size(), static_cast<qsizetype>(spans.size()));
    bool sawFiring = false;
    for (qsizetype i = 0; i < areas.size(); ++i) {
        QAreaSeries* area = areas[i];
        const Span& span = spans[static_cast<std::size_t>(i)];
        ASSERT_NE(area->upperSeries(), nullptr);
        EXPECT_EQ(area->upperSeries()->at(0).x(), ms(span.from)) << "span " << i;
        EXPECT_EQ(area->upperSeries()->at(area->upperSeries()->count() - 1).x(), ms(span.to)) << "span " << i;
        EXPECT_EQ(area->name(), span.firing ? QStringLiteral("Alert firing") : QStringLiteral("Alert pending"));
        EXPECT_TRUE(attachedTo(area, timeAxis));
        const QColor colour = area->brush().color();
        if (span.firing) {
            sawFiring = true;
            EXPECT_GT(colour.alpha(), 0);
        }
    }
    EXPECT_TRUE(sawFiring);
    for (QAreaSeries* a : areas) {
        for (QAreaSeries* b : areas) {
            if (a->name() == QStringLiteral("Alert pending") && b->name() == QStringLiteral("Alert firing")) {
                EXPECT_GT(a->brush().color().lightness(), b->brush().color().lightness()) << "pending is lighter";
            }
        }
    }

    // The cards: before/after means computed here from the same samples.
    const Means t = meansAround(tp, kDayStart, kDayEnd, kChangeAt);
    const Means q = meansAround(qs, kDayStart, kDayEnd, kChangeAt);
    EXPECT_NEAR(t.before, 1000.0, 1e-9);
    EXPECT_NEAR(t.after, 1500.0, 0.01);
    const double deltaPct = (t.after - t.before) / t.before * 100;
    EXPECT_EQ(timeline->throughputCard()->figureText(),
              QStringLiteral("%1 → %2").arg(fixed(t.before, 1), fixed(t.after, 1)));
    EXPECT_EQ(timeline->throughputCard()->figureText(), QStringLiteral("1000.0 → 1500.0"));
    EXPECT_TRUE(timeline->throughputCard()->deltaText().startsWith(QStringLiteral("+%1%").arg(fixed(deltaPct, 1))))
        << timeline->throughputCard()->deltaText().toStdString();
    EXPECT_TRUE(timeline->throughputCard()->deltaText().startsWith(QStringLiteral("+50.0%")));
    EXPECT_TRUE(timeline->throughputCard()->deltaText().contains(QStringLiteral("+40–60%")));
    EXPECT_EQ(timeline->throughputCard()->level(), Verdict::Go);  // inside the expected band
    const double deltaPoints = q.after - q.before;
    EXPECT_LT(deltaPoints, -0.3);
    EXPECT_EQ(timeline->qualityCard()->figureText(),
              QStringLiteral("%1 → %2").arg(fixed(q.before, 2), fixed(q.after, 2)));
    EXPECT_TRUE(timeline->qualityCard()->deltaText().startsWith(fixed(deltaPoints, 2) + QStringLiteral(" points")))
        << timeline->qualityCard()->deltaText().toStdString();
    EXPECT_EQ(timeline->qualityCard()->level(), Verdict::Investigate);  // a drop beyond 0.3 points
    EXPECT_EQ(timeline->alertCard()->level(), Verdict::Investigate);    // it fired after the change

    // The banner: the worse of the evals (all GO here) and the timeline (INVESTIGATE), with the reasons.
    auto evals = doc.evaluate();
    ASSERT_TRUE(evals.ok());
    EXPECT_EQ(evals->verdict, Verdict::Go);
    const Verdict timelineVerdict = Verdict::Investigate;  // quality fell more than 0.3 points, and the alert fired
    const Verdict overall = worst(evals->verdict, timelineVerdict);
    const VerdictBanner* banner = view->verdictBanner();
    EXPECT_EQ(banner->verdictText(), toQString(verdictTitle(overall)));
    EXPECT_EQ(banner->overallVerdict(), overall);
    EXPECT_TRUE(banner->reasonsText().contains(QStringLiteral("production: the quality alert fired")))
        << banner->reasonsText().toStdString();
    EXPECT_TRUE(banner->reasonsText().contains(QStringLiteral("offline evals:")));
    EXPECT_TRUE(banner->countsText().contains(QStringLiteral("production: INVESTIGATE")));
    // The eval table keeps its own verdicts: gsm8k (-2.59 %) is GO under 5 %.
    const QAbstractItemModel* model = view->taskTable()->model();
    const QModelIndex gsm8k = findTaskRow(model, QStringLiteral("gsm8k"));
    ASSERT_TRUE(gsm8k.isValid());
    EXPECT_EQ(cellText(model, gsm8k, TaskTableModel::VerdictColumn), QStringLiteral("GO"));

    // The source line and the detected switch on offer (40 s after the change time in use).
    EXPECT_TRUE(timeline->sourceText().contains(QStringLiteral("http://prometheus.test:9090")));
    EXPECT_TRUE(timeline->suggestionText().contains(toQString(formatTimeUtc(kDetectedChangeAt))))
        << timeline->suggestionText().toStdString();
    EXPECT_FALSE(window.isModified());
}

// The header names the backend that answered and the alert's window edges (the reason in the tooltip).
TEST_F(TimelineViewTest, HeaderNamesTheServerAndTheWindowSemantics) {
    TimelineData data = dayTimeline();
    ASSERT_TRUE(data.quality.has_value());
    data.server = "VictoriaMetrics";
    data.settings.rule.windows = WindowSemantics::Prometheus3;
    data.windowSemanticsBasis = "VictoriaMetrics' rollup windows are left-open, (t−d, t]";
    recomputeDerived(data);
    MainWindow window;
    window.show();
    window.showDocument(documentWith(data, false), {}, QStringLiteral("backend"));
    TimelineView* timeline = window.comparisonView()->timelineView();
    const QString header = timeline->sourceText();
    EXPECT_TRUE(header.contains(QStringLiteral("Throughput: VictoriaMetrics at http://prometheus.test:9090")))
        << header.toStdString();
    // Issue 29: plain words on screen, the interval notation only in the tooltip.
    EXPECT_TRUE(header.contains(QStringLiteral("alert windows as Prometheus 3 counts them"))) << header.toStdString();
    EXPECT_FALSE(header.contains(QStringLiteral("t−r"))) << header.toStdString();
    const QString tip = timeline->findChild<QLabel*>(QStringLiteral("timelineSource"))->toolTip();
    EXPECT_TRUE(tip.contains(QStringLiteral("Alert windows: VictoriaMetrics' rollup windows are left-open")))
        << tip.toStdString();
    EXPECT_TRUE(tip.contains(QStringLiteral("Prometheus 3.x windows, left-open (t−r, t]"))) << tip.toStdString();
}

// Issue 29: the demo's timeline (Prometheus 2.x windows) says so in words; "closed [t−r, t]" is in the tooltip only.
TEST_F(TimelineViewTest, TheDemoTimelineSaysItsAlertWindowsInWords) {
    TimelineData data = dayTimeline();
    ASSERT_TRUE(data.quality.has_value());
    data.settings.rule.windows = WindowSemantics::Prometheus2;
    data.windowSemanticsBasis.clear();
    recomputeDerived(data);
    MainWindow window;
    window.show();
    window.showDocument(documentWith(data, false), {}, QStringLiteral("windows"));
    TimelineView* timeline = window.comparisonView()->timelineView();
    const QString header = timeline->sourceText();
    EXPECT_TRUE(header.contains(QStringLiteral("alert windows as Prometheus 2 counts them"))) << header.toStdString();
    EXPECT_FALSE(header.contains(QStringLiteral("[t"))) << header.toStdString();
    EXPECT_FALSE(header.contains(QStringLiteral("2.x"))) << header.toStdString();
    const QString tip = timeline->findChild<QLabel*>(QStringLiteral("timelineSource"))->toolTip();
    EXPECT_TRUE(tip.contains(QStringLiteral("Prometheus 2.x windows, closed [t−r, t]"))) << tip.toStdString();
}

// Issue 26, finding 3: the source line shows a hostile server name and score name as the text they are, never as
// rich text (a big green "VERDICT: GO", coloured text, a local image).
TEST_F(TimelineViewTest, TheSourceLineShowsMarkupFromTheFileAsText) {
    TimelineData data = dayTimeline();
    const std::string fake = "<h1 style='color:green'>&#10004; VERDICT: GO</h1><img src='file:///etc/x.png'>";
    data.server = fake;
    data.settings.scoreName = "<b>approved</b>";
    data.windowSemanticsBasis = "<font color=red>SRE</font>";
    recomputeDerived(data);
    MainWindow window;
    window.show();
    window.showDocument(documentWith(data, false), {}, QStringLiteral("hostile"));
    auto* label = window.comparisonView()->timelineView()->findChild<QLabel*>(QStringLiteral("timelineSource"));
    ASSERT_NE(label, nullptr);
    EXPECT_EQ(label->textFormat(), Qt::PlainText);
    EXPECT_TRUE(label->text().contains(QString::fromStdString(fake))) << label->text().toStdString();
    EXPECT_TRUE(label->text().contains(QStringLiteral("<b>approved</b>"))) << label->text().toStdString();
    // The tooltip is markup made here: the file's words in it are escaped.
    EXPECT_TRUE(label->toolTip().contains(QStringLiteral("&lt;font color=red&gt;SRE&lt;/font&gt;")))
        << label->toolTip().toStdString();
    EXPECT_FALSE(label->toolTip().contains(QStringLiteral("<font"))) << label->toolTip().toStdString();
}

TEST_F(TimelineViewTest, ZoomRedrawsFromTheFullDataAndPanningKeepsTheSpan) {
    const TimelineData data = dayTimeline();
    MainWindow window;
    window.resize(1280, 820);
    window.show();
    window.showDocument(documentWith(data, false), {}, QStringLiteral("day"));
    ComparisonView* view = window.comparisonView();
    // A timeline-only document: no evals tab, the timeline in front.
    EXPECT_FALSE(view->tabs()->isTabVisible(ComparisonView::EvalsTab));
    TimelineView* timeline = view->timelineView();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
    const auto& tp = data.throughput->samples;

    // Two hours around the change: 481 samples inside plus a neighbour each side, every one of them drawn.
    const double from = kChangeAt - 3600, to = kChangeAt + 3600;
    timeline->zoomTo(from, to);
    EXPECT_TRUE(timeline->isZoomed());
    EXPECT_TRUE(timeline->resetZoomButton()->isEnabled());
    EXPECT_EQ(timeline->visibleRange(), std::make_pair(from, to));
    const std::vector<Sample> slice = expectedSlice(tp, from, to);
    ASSERT_EQ(slice.size(), 483u);
    QLineSeries* throughput = timeline->throughputSeries();
    ASSERT_EQ(throughput->count(), static_cast<int>(slice.size()));
    for (std::size_t i = 0; i < slice.size(); i += 40) {
        EXPECT_EQ(throughput->at(static_cast<int>(i)), QPointF(ms(slice[i].t), slice[i].v));
    }
    EXPECT_EQ(timeline->timeAxis()->min().toMSecsSinceEpoch(), static_cast<qint64>(ms(from)));

    // A lower threshold downsamples the same visible range again, still from the full data, ends kept.
    timeline->setMaxDrawnPoints(100);
    ASSERT_EQ(throughput->count(), 100);
    EXPECT_EQ(throughput->at(0), QPointF(ms(slice.front().t), slice.front().v));
    EXPECT_EQ(throughput->at(99), QPointF(ms(slice.back().t), slice.back().v));
    timeline->setMaxDrawnPoints(TimelineView::kDefaultMaxDrawnPoints);

    // The keyboard pans by a tenth of the span and keeps it; Home resets.
    TimelineChartView* chartView = timeline->chartView();
    chartView->setFocus();
    QTest::keyClick(chartView, Qt::Key_Right);
    EXPECT_DOUBLE_EQ(timeline->visibleRange().first, from + 720);
    EXPECT_DOUBLE_EQ(timeline->visibleRange().second, to + 720);
    QTest::keyClick(chartView, Qt::Key_Minus);  // zoom out around the centre
    EXPECT_GT(timeline->visibleRange().second - timeline->visibleRange().first, to - from);
    QTest::keyClick(chartView, Qt::Key_Home);
    EXPECT_FALSE(timeline->isZoomed());
    EXPECT_EQ(timeline->visibleRange(), std::make_pair(kDayStart, kDayEnd));
    EXPECT_EQ(throughput->at(0).x(), ms(tp.front().t));

    // Panning never leaves the fetched range.
    timeline->zoomTo(kDayEnd - 1800, kDayEnd);
    timeline->panBy(3.0);
    EXPECT_DOUBLE_EQ(timeline->visibleRange().second, kDayEnd);
    EXPECT_DOUBLE_EQ(timeline->visibleRange().first, kDayEnd - 1800);

    // A rubber band dragged across the plot zooms into the span under it.
    timeline->resetZoom();
    QTest::qWait(20);
    const QRect plot = chartView->plotAreaInViewport();
    ASSERT_GT(plot.width(), 100);
    const QPoint start(plot.left() + plot.width() / 4, plot.center().y());
    const QPoint end(plot.left() + plot.width() / 2, plot.center().y());
    const auto expectedFrom = chartView->timeAt(start);
    const auto expectedTo = chartView->timeAt(end);
    ASSERT_TRUE(expectedFrom && expectedTo);
    QTest::mousePress(chartView->viewport(), Qt::LeftButton, Qt::NoModifier, start);
    QTest::mouseMove(chartView->viewport(), end);
    QTest::mouseRelease(chartView->viewport(), Qt::LeftButton, Qt::NoModifier, end);
    EXPECT_NEAR(timeline->visibleRange().first, *expectedFrom, 1e-6);
    EXPECT_NEAR(timeline->visibleRange().second, *expectedTo, 1e-6);
    EXPECT_NEAR(*expectedTo - *expectedFrom, 6 * 3600, 6 * 3600 * 0.02);  // a quarter of the day
    QTest::mouseDClick(chartView->viewport(), Qt::LeftButton, Qt::NoModifier, plot.center());
    EXPECT_FALSE(timeline->isZoomed());
}

TEST_F(TimelineViewTest, HoverReadsBothSeriesAtTheCursor) {
    const TimelineData data = dayTimeline();
    MainWindow window;
    window.resize(1280, 820);
    window.show();
    window.showDocument(documentWith(data, false), {}, QStringLiteral("day"));
    TimelineView* timeline = window.comparisonView()->timelineView();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
    TimelineChartView* chartView = timeline->chartView();
    const QRect plot = chartView->plotAreaInViewport();
    const QPoint pos(plot.left() + plot.width() * 3 / 5, plot.center().y());
    const auto t = chartView->timeAt(pos);
    ASSERT_TRUE(t.has_value());

    // The mouse cursor is shared by every test of the program: an earlier test (in a shuffled order) can leave it at
    // this very point, and a move to where it already is delivers no hover. Move off the plot first.
    QTest::mouseMove(chartView->viewport(), QPoint(1, 1));
    QTest::mouseMove(chartView->viewport(), pos);
    const QString readout = timeline->readoutText();
    const Sample tp = nearest(data.throughput->samples, *t);
    const Sample qs = nearest(data.quality->samples, *t);
    EXPECT_TRUE(readout.contains(QStringLiteral("throughput %1 tokens/s").arg(fixed(tp.v, 1))))
        << readout.toStdString() << " at " << formatTimeUtc(*t);
    EXPECT_TRUE(readout.contains(QStringLiteral("quality %1").arg(fixed(qs.v, 2)))) << readout.toStdString();
    EXPECT_TRUE(readout.contains(
        QDateTime::fromSecsSinceEpoch(static_cast<qint64>(tp.t), Qt::UTC).toString(QStringLiteral("HH:mm:ss"))));
    EXPECT_EQ(readout, timeline->readoutAt(*t));
}

TEST_F(TimelineViewTest, ExplicitAlertEpisodesAreShadedExactly) {
    // Quality exported to Prometheus: the alerts are Prometheus' own and are kept as stored.
    TimelineData data;
    data.settings.prometheusUrl = "http://prometheus.test:9090";
    data.settings.fetchThroughput = false;
    data.settings.qualitySource = QualitySource::Prometheus;
    data.settings.from = kDayStart;
    data.settings.to = kDayEnd;
    data.settings.changeAt = kChangeAt;
    Series quality;
    for (double t = kDayStart; t <= kDayEnd; t += 60) quality.samples.push_back({t, 4.2});
    data.quality = quality;
    data.alertsEvaluatedBy = "prometheus";
    const double h = 3600;
    data.alerts = {
        AlertEpisode{kDayStart + 2 * h, std::nullopt, kDayStart + 2 * h + 600},  // pending, resolved unfired
        AlertEpisode{kDayStart + 12 * h + 1200, kDayStart + 12 * h + 2100, kDayStart + 14 * h},  // fired, resolved
        AlertEpisode{kDayStart + 20 * h, kDayStart + 20 * h + 900, std::nullopt},  // still firing at the end
    };
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    MainWindow window;
    window.show();
    openSaved(window, documentWith(data, false), dir.filePath(QStringLiteral("prom-alerts.fp8cmp")));
    ComparisonView* view = window.comparisonView();
    TimelineView* timeline = view->timelineView();
    EXPECT_FALSE(view->tabs()->isTabVisible(ComparisonView::EvalsTab));
    EXPECT_EQ(view->tabs()->currentWidget(), timeline);

    // Without throughput: no throughput series, its axis hidden; the rest still works.
    EXPECT_EQ(timeline->throughputSeries(), nullptr);
    EXPECT_FALSE(timeline->throughputAxis()->isVisible());
    ASSERT_NE(timeline->qualitySeries(), nullptr);

    const std::vector<TimelineView::AlertSpan> expected = {
        {kDayStart + 2 * h, kDayStart + 2 * h + 600, false},
        {kDayStart + 12 * h + 1200, kDayStart + 12 * h + 2100, false},
        {kDayStart + 12 * h + 2100, kDayStart + 14 * h, true},
        {kDayStart + 20 * h, kDayStart + 20 * h + 900, false},
        {kDayStart + 20 * h + 900, kDayEnd, true},
    };
    EXPECT_EQ(timeline->alertSpans(), expected);
    const QList<QAreaSeries*> areas = timeline->alertSeries();
    ASSERT_EQ(areas.size(), 5);
    for (qsizetype i = 0; i < areas.size(); ++i) {
        const auto& span = expected[static_cast<std::size_t>(i)];
        EXPECT_EQ(areas[i]->upperSeries()->at(0).x(), ms(span.from));
        EXPECT_EQ(areas[i]->upperSeries()->at(1).x(), ms(span.to));
        EXPECT_EQ(areas[i]->lowerSeries()->at(0).x(), ms(span.from));
    }

    // The alert fired after the change: INVESTIGATE, although quality held.
    EXPECT_EQ(view->verdictBanner()->verdictText(), QStringLiteral("INVESTIGATE"));
    EXPECT_EQ(timeline->alertCard()->figureText(), QStringLiteral("Fired after the change"));
    EXPECT_TRUE(timeline->alertCard()->deltaText().contains(QStringLiteral("3 episodes")));
    EXPECT_TRUE(timeline->alertCard()->deltaText().contains(QStringLiteral("Prometheus")));
    EXPECT_EQ(timeline->qualityCard()->level(), Verdict::Go);
    EXPECT_EQ(timeline->throughputCard()->figureText(), QStringLiteral("—"));
}

TEST_F(TimelineViewTest, OverallVerdictIsTheWorseOfEvalsAndTimeline) {
    // Evals MONITOR (gsm8k -2.59 % and arc_challenge -1.23 % under 0.5 % / 3 %), production healthy (GO).
    TimelineData healthy = dayTimeline();
    for (Sample& s : healthy.quality->samples) s.v = 4.2;
    recomputeDerived(healthy);
    ASSERT_TRUE(healthy.alerts.empty());
    const ComparisonDocument doc = documentWith(healthy, true, 0.5, 3.0);
    auto evals = doc.evaluate();
    ASSERT_TRUE(evals.ok());
    ASSERT_EQ(evals->verdict, Verdict::Monitor);

    MainWindow window;
    window.showDocument(doc, {}, QStringLiteral("healthy"));
    const VerdictBanner* banner = window.comparisonView()->verdictBanner();
    EXPECT_EQ(banner->overallVerdict(), worst(evals->verdict, Verdict::Go));
    EXPECT_EQ(banner->verdictText(), QStringLiteral("MONITOR"));
    EXPECT_TRUE(banner->countsText().contains(QStringLiteral("production: GO"))) << banner->countsText().toStdString();
    EXPECT_EQ(window.comparisonView()->timelineView()->qualityCard()->level(), Verdict::Go);

    // The same evals with the quality drop: production is worse and decides.
    window.showDocument(documentWith(dayTimeline(), true, 0.5, 3.0), {}, QStringLiteral("drop"));
    EXPECT_EQ(banner->verdictText(), QStringLiteral("INVESTIGATE"));
    EXPECT_TRUE(banner->reasonsText().startsWith(QStringLiteral("production:"))) << banner->reasonsText().toStdString();
}

TEST_F(TimelineViewTest, UsingTheDetectedChangeTimeReevaluatesAndMarksTheDocumentModified) {
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    TimelineData data = dayTimeline();
    data.settings.changeAt.reset();  // not confirmed yet: only the suggestion
    MainWindow window;
    window.show();
    const QString path = dir.filePath(QStringLiteral("unconfirmed.fp8cmp"));
    openSaved(window, documentWith(data, false), path);
    TimelineView* timeline = window.comparisonView()->timelineView();
    EXPECT_EQ(timeline->changeMarker(), nullptr);
    EXPECT_EQ(window.comparisonView()->verdictBanner()->verdictText(), QStringLiteral("NO VERDICT"));
    EXPECT_FALSE(timeline->suggestionText().isEmpty());

    QTest::mouseClick(timeline->useDetectedChangeButton(), Qt::LeftButton);
    ASSERT_NE(timeline->changeMarker(), nullptr);
    EXPECT_EQ(timeline->changeMarker()->at(0).x(), ms(kDetectedChangeAt));
    EXPECT_TRUE(timeline->suggestionText().isEmpty());  // nothing left to suggest
    EXPECT_TRUE(window.isModified());
    EXPECT_TRUE(window.windowTitle().startsWith(QStringLiteral("unconfirmed.fp8cmp*")))
        << window.windowTitle().toStdString();
    EXPECT_EQ(window.comparisonView()->verdictBanner()->verdictText(), QStringLiteral("INVESTIGATE"));

    // Saved, it reads back with the confirmed change time, and the window is clean again.
    ASSERT_TRUE(window.saveTo(path).ok());
    EXPECT_FALSE(window.isModified());
    auto loaded = loadComparisonFile(path.toStdString());
    ASSERT_TRUE(loaded.ok()) << loaded.error().message;
    ASSERT_TRUE(loaded->timeline && loaded->timeline->settings.changeAt);
    EXPECT_DOUBLE_EQ(*loaded->timeline->settings.changeAt, kDetectedChangeAt);
}

TEST_F(TimelineViewTest, ADocumentWithoutTimelineInvitesToConnect) {
    MainWindow window;
    window.show();
    showEvalsOnly(window);
    TimelineView* timeline = window.comparisonView()->timelineView();
    EXPECT_FALSE(timeline->hasTimeline());
    ASSERT_NE(timeline->connectButton(), nullptr);
    EXPECT_EQ(timeline->connectButton()->text(), QStringLiteral("Connect to Prometheus / Langfuse…"));
    EXPECT_EQ(timeline->throughputSeries(), nullptr);
    EXPECT_EQ(window.sourceDialog(), nullptr);
    window.comparisonView()->showTab(ComparisonView::TimelineTab);
    QTest::mouseClick(timeline->connectButton(), Qt::LeftButton);
    ASSERT_NE(window.sourceDialog(), nullptr);
    EXPECT_TRUE(window.sourceDialog()->isVisible());
    window.sourceDialog()->reject();
}

TEST_F(TimelineViewTest, TimelineMenuHasConnectAndRefresh) {
    MainWindow window;
    const QStringList found = actionShortcuts(&window);
    EXPECT_TRUE(found.contains(QStringLiteral("Connect…=Ctrl+T"))) << found.join(QLatin1Char(' ')).toStdString();
    EXPECT_TRUE(found.contains(QStringLiteral("Refresh=Ctrl+R")));
}

TEST_F(TimelineViewTest, RangePresetsCoverTheirSpanEndingNow) {
    TimeRangePicker picker;
    for (auto [preset, span] :
         {std::pair{TimeRangePicker::Last6Hours, 6 * 3600.0}, std::pair{TimeRangePicker::Last24Hours, 24 * 3600.0},
          std::pair{TimeRangePicker::Last7Days, 7 * 86400.0}}) {
        picker.setPreset(preset);
        const auto [from, to] = picker.range();
        EXPECT_DOUBLE_EQ(to - from, span);
        EXPECT_NEAR(to, static_cast<double>(QDateTime::currentSecsSinceEpoch()), 61);
    }
    picker.setRange(kDayStart, kDayEnd);
    EXPECT_EQ(picker.preset(), TimeRangePicker::Custom);
    EXPECT_EQ(picker.range(), std::make_pair(kDayStart, kDayEnd));
    EXPECT_EQ(picker.fromEdit()->dateTime().toSecsSinceEpoch(), static_cast<qint64>(kDayStart));
    EXPECT_EQ(picker.fromEdit()->timeSpec(), Qt::UTC);
}

// "No clipped text": every single-line label of the timeline tab gets its full width at the default size.
void setCacheModeOfAll(QGraphicsItem* item, QGraphicsItem::CacheMode mode) {
    item->setCacheMode(mode);
    for (QGraphicsItem* child : item->childItems()) setCacheModeOfAll(child, mode);
}

bool anyCached(QGraphicsItem* item) {
    if (item->cacheMode() != QGraphicsItem::NoCache) return true;
    const auto children = item->childItems();
    return std::any_of(children.begin(), children.end(), [](QGraphicsItem* c) { return anyCached(c); });
}

// On screen the lines are drawn from device-pixel caches (so that a repaint does not redraw every segment); a
// picture of the chart is drawn without them: the PNG is the one drawn with nothing cached, the SVG holds vectors.
TEST_F(TimelineViewTest, ChartPicturesAreDrawnDirectlyNotFromTheScreenCaches) {
    TimelineView view;
    const TimelineData data = dayTimeline();
    view.setTimeline(&data, nullptr);
    view.resize(1100, 640);
    view.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&view));
    view.chartView()->viewport()->repaint();
    ASSERT_TRUE(anyCached(view.chart()));  // the line series, on screen

    const QSize size = view.chartView()->size();
    const QImage withCaches = renderChartImage(view.chartView(), size, 2.0);
    const QByteArray svg = renderChartSvg(view.chartView(), size, QStringLiteral("timeline"));
    EXPECT_TRUE(anyCached(view.chart()));  // given back after the pictures
    EXPECT_EQ(svg.indexOf("<image"), -1);  // lines as paths, not a bitmap of them
    EXPECT_NE(svg.indexOf("<path"), -1);

    setCacheModeOfAll(view.chart(), QGraphicsItem::NoCache);
    const QImage direct = renderChartImage(view.chartView(), size, 2.0);
    ASSERT_EQ(withCaches.size(), direct.size());
    EXPECT_TRUE(withCaches == direct);
}

TEST_F(TimelineViewTest, LabelsAreNotClippedAtTheDefaultSize) {
    MainWindow window;
    window.resize(1280, 820);
    window.show();
    window.showDocument(documentWith(dayTimeline(), true), {}, QStringLiteral("day"));
    window.comparisonView()->showTab(ComparisonView::TimelineTab);
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
    QTest::qWait(20);
    for (const QLabel* label : window.comparisonView()->timelineView()->findChildren<QLabel*>()) {
        if (!label->isVisible() || label->wordWrap() || label->text().isEmpty()) continue;
        if (label->objectName() == QStringLiteral("hoverReadout")) continue;  // elided by design when narrow
        EXPECT_GE(label->width(), label->minimumSizeHint().width())
            << "clipped: \"" << label->text().toStdString() << "\"";
    }
}

}  // namespace
}  // namespace fp8dash::ui::test
