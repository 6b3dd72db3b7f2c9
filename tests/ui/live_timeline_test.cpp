// The live production timeline (issue 28) in the real main window against a stand-in Prometheus whose data grows with
// a virtual clock: the test moves the clock and calls the tick the once-a-second timer would (the timer is off), so
// nothing waits on the wall clock. The server evaluates the alert expression itself (true from kPendAt to kResolveAt),
// as Prometheus does; the window must append the new points, tell each transition once (notifier and notes), stop
// fetching while hidden and catch up when shown, show a failed refresh in the notice area with the series kept, and
// never write the user's file on its own. Also File › Export Monitoring Rules… against core's exportMonitoring.
#include <gtest/gtest.h>

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QLabel>
#include <QLineSeries>
#include <QMessageBox>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

#include <atomic>
#include <cstdio>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "fp8dash/core/comparison_file.h"
#include "fp8dash/core/monitoring_export.h"
#include "fp8dash/core/timeline.h"
#include "fp8dash/ui/comparison_view.h"
#include "fp8dash/ui/live_timeline.h"
#include "fp8dash/ui/main_window.h"
#include "fp8dash/ui/timeline_view.h"
#include "growing_prometheus.h"
#include "gui_test_support.h"
#include "test_http_server.h"

namespace fp8dash::ui {
namespace {

using fp8dash::test::TestHttpServer;
using fp8dash::test::growing::GrowingPrometheus;
using fp8dash::test::growing::kBase;
using fp8dash::test::growing::kBefore;
using fp8dash::test::growing::kDropAt;
using fp8dash::test::growing::kDuring;
using fp8dash::test::growing::kPendAt;
using fp8dash::test::growing::kQuality;
using fp8dash::test::growing::kResolveAt;
using fp8dash::test::growing::kStep;

constexpr double kFiringAt = kPendAt + 15 * 60;  // the rule's for: 15m

class RecordingNotifier : public DesktopNotifier {
public:
    bool notify(const QString& title, const QString& body) override {
        told.push_back({title, body});
        return true;
    }
    QString kind() const override { return QStringLiteral("test"); }
    std::vector<std::pair<QString, QString>> told;
};

TimelineSettings settingsFor(const GrowingPrometheus& server) {
    TimelineSettings s;
    s.prometheusUrl = server.url();
    s.qualitySource = QualitySource::Prometheus;
    s.qualityQuery = kQuality;
    s.step = kStep;
    s.changeAt = kBase;
    return s;
}

int notesContaining(const MainWindow& window, const std::string& what) {
    int n = 0;
    for (const Note& note : window.current()->document.notes)
        if (note.text.find(what) != std::string::npos) ++n;
    return n;
}

QByteArray readAll(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

class LiveTimelineTest : public test::GuiTest {};

TEST_F(LiveTimelineTest, FollowsGrowingDataTellsEachTransitionOncePausesWhileHiddenAndKeepsSeriesOnErrors) {
    GrowingPrometheus server;
    auto now = std::make_shared<std::atomic<double>>(kBase + 10 * 60);
    server.setDataEnd(*now);

    // The snapshot the user fetched and saved (as Timeline › Connect… would fetch it).
    TimelineSettings snapshot = settingsFor(server);
    snapshot.from = *now - 3600;
    snapshot.to = *now;
    auto fetched = fetchTimeline(snapshot, {});
    ASSERT_TRUE(fetched) << fetched.error().message;
    MainWindow window;
    auto notifier = std::make_shared<RecordingNotifier>();
    window.setDesktopNotifier(notifier);
    window.applyTimeline(*fetched);
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("live.fp8cmp"));
    ASSERT_TRUE(window.saveTo(path));
    const QByteArray saved = readAll(path);
    ASSERT_FALSE(window.isModified());
    window.resize(1200, 800);
    window.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));

    LiveTimeline* live = window.liveTimeline();
    live->setAutoTick(false);
    live->setClock([now] { return now->load(); });
    TimelineView* view = window.comparisonView()->timelineView();
    QSignalSpy refreshed(&window, &MainWindow::liveRefreshed);
    auto refreshAt = [&](double t) {
        *now = t;
        server.setDataEnd(t);
        const int before = refreshed.count();
        live->tick();
        return refreshed.count() > before || refreshed.wait(30000);
    };
    auto lastX = [](QLineSeries* s) { return s && s->count() ? s->at(s->count() - 1).x() / 1000 : 0.0; };

    // Live, the last 6 hours, every minute: the first refresh fetches the window at once.
    view->liveRangeBox()->setCurrentIndex(TimelineView::LiveLast6Hours);
    view->setLiveIntervalS(60);
    ASSERT_TRUE(live->isLive());
    ASSERT_TRUE(refreshed.count() > 0 || refreshed.wait(30000));
    EXPECT_EQ(lastX(view->throughputSeries()), kBase + 10 * 60);
    EXPECT_TRUE(notifier->told.empty());
    EXPECT_TRUE(view->liveStatusLabel()->text().contains(QStringLiteral("next in 60 s")))
        << view->liveStatusLabel()->text().toStdString();
    EXPECT_TRUE(view->liveStatusLabel()->text().startsWith(QStringLiteral("updated ")));

    // Not due yet: a tick fetches nothing.
    const std::size_t requestsBefore = server.requestCount();
    live->tick();
    EXPECT_FALSE(live->isFetching());
    EXPECT_EQ(server.requestCount(), requestsBefore);

    // The data grows past the alert's start: the new points are in the chart, pending is told once.
    ASSERT_TRUE(refreshAt(kBase + 35 * 60));
    EXPECT_EQ(lastX(view->throughputSeries()), kBase + 35 * 60);
    EXPECT_EQ(lastX(view->qualitySeries()), kBase + 35 * 60);
    ASSERT_EQ(notifier->told.size(), 1u);
    EXPECT_TRUE(notifier->told[0].first.contains(QStringLiteral("pending")));
    EXPECT_EQ(notesContaining(window, "quality alert is pending at " + formatTimeUtc(kPendAt)), 1);
    // A later refresh with nothing new to tell: no second notice, no second note.
    ASSERT_TRUE(refreshAt(kBase + 36 * 60));
    EXPECT_EQ(notifier->told.size(), 1u);
    EXPECT_EQ(notesContaining(window, "quality alert is pending"), 1);

    // The live view never wrote the user's file: the document is modified, the file as saved.
    EXPECT_TRUE(window.isModified());
    EXPECT_EQ(readAll(path), saved);

    // Hidden: no fetch at all, however late it gets.
    window.hide();
    QTRY_VERIFY(live->isPaused());
    const std::size_t requestsHidden = server.requestCount();
    const int fetchesHidden = live->fetchesStarted();
    *now = kBase + 50 * 60;
    server.setDataEnd(*now);
    live->tick();
    live->tick();
    EXPECT_EQ(server.requestCount(), requestsHidden);
    EXPECT_EQ(live->fetchesStarted(), fetchesHidden);
    EXPECT_TRUE(view->liveStatusLabel()->text().contains(QStringLiteral("paused")));

    // Shown again: it catches up at once, the firing is told once, the points up to now appear.
    const int refreshesHidden = refreshed.count();
    window.show();
    ASSERT_TRUE(refreshed.wait(30000) || refreshed.count() > refreshesHidden);
    EXPECT_GT(server.requestCount(), requestsHidden);
    EXPECT_EQ(lastX(view->throughputSeries()), kBase + 50 * 60);
    ASSERT_EQ(notifier->told.size(), 2u);
    EXPECT_TRUE(notifier->told[1].first.contains(QStringLiteral("firing")));
    EXPECT_EQ(notesContaining(window, "quality alert is firing at " + formatTimeUtc(kFiringAt)), 1);
    EXPECT_EQ(notesContaining(window, "quality alert is pending"), 1);

    // The server fails: the notice area says so, no dialog, the series stay, the next try is 2x the interval later.
    const int throughputPoints = view->throughputSeries()->count();
    server.setFailing(true);
    QSignalSpy failed(live, &LiveTimeline::failed);
    *now = kBase + 51 * 60;
    live->tick();
    ASSERT_TRUE(failed.count() > 0 || failed.wait(30000));
    EXPECT_TRUE(window.liveNoticeText().contains(QStringLiteral("refresh failed")));
    EXPECT_TRUE(window.liveNoticeText().contains(QStringLiteral("the storage is unavailable")))
        << window.liveNoticeText().toStdString();
    EXPECT_TRUE(window.offlineNoticeText().contains(QStringLiteral("refresh failed")));
    EXPECT_EQ(QApplication::activeModalWidget(), nullptr);
    EXPECT_EQ(window.findChild<QMessageBox*>(), nullptr);
    ASSERT_NE(view->throughputSeries(), nullptr);
    EXPECT_EQ(view->throughputSeries()->count(), throughputPoints);
    ASSERT_TRUE(live->nextAt().has_value());
    EXPECT_EQ(*live->nextAt(), kBase + 51 * 60 + 2 * 60);
    // A second failure: 4x.
    *now = *live->nextAt();
    live->tick();
    ASSERT_TRUE(failed.count() > 1 || failed.wait(30000));
    EXPECT_EQ(*live->nextAt(), *now + 4 * 60);

    // The server is back: the missed minutes arrive, the notice goes.
    server.setFailing(false);
    ASSERT_TRUE(refreshAt(*live->nextAt()));
    EXPECT_EQ(lastX(view->throughputSeries()), *now);
    EXPECT_FALSE(window.liveNoticeText().contains(QStringLiteral("failed")));
    EXPECT_TRUE(window.liveNoticeText().contains(QStringLiteral("firing")));  // the last transition told stays
    EXPECT_FALSE(window.offlineNoticeText().contains(QStringLiteral("failed")));

    // Off: live mode ends, the data stays.
    view->setLiveIntervalS(0);
    EXPECT_FALSE(live->isLive());
    EXPECT_TRUE(view->liveStatusLabel()->text().isEmpty());
    EXPECT_EQ(lastX(view->throughputSeries()), *now);

    // On again while the alert still fires: a new follower tells the active episode again (its first refresh), but
    // the window has told it already: no second notification, no second note.
    ASSERT_LT(*now, kResolveAt);
    const int before = refreshed.count();
    view->setLiveIntervalS(30);
    ASSERT_TRUE(refreshed.count() > before || refreshed.wait(30000));
    EXPECT_EQ(notifier->told.size(), 2u);
    EXPECT_EQ(notesContaining(window, "quality alert is pending"), 1);
    EXPECT_EQ(notesContaining(window, "quality alert is firing"), 1);
    EXPECT_TRUE(view->liveStatusLabel()->text().contains(QStringLiteral("next in 30 s")));

    // A zoom the user chose stays while the window moves on.
    view->zoomTo(kBase, kBase + 30 * 60);
    const auto zoomed = view->visibleRange();
    ASSERT_TRUE(view->isZoomed());
    ASSERT_TRUE(refreshAt(*now + 60));
    EXPECT_EQ(view->visibleRange(), zoomed);
}

TEST_F(LiveTimelineTest, AMinimisedWindowFetchesNothingAndCatchesUpWhenRestored) {
    GrowingPrometheus server;
    auto now = std::make_shared<std::atomic<double>>(kBase);
    server.setDataEnd(*now);
    TimelineSettings snapshot = settingsFor(server);
    snapshot.from = *now - 3600;
    snapshot.to = *now;
    auto fetched = fetchTimeline(snapshot, {});
    ASSERT_TRUE(fetched) << fetched.error().message;
    MainWindow window;
    window.setDesktopNotifier(std::make_shared<RecordingNotifier>());
    window.applyTimeline(*fetched);
    window.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
    LiveTimeline* live = window.liveTimeline();
    live->setAutoTick(false);
    live->setClock([now] { return now->load(); });
    QSignalSpy refreshed(&window, &MainWindow::liveRefreshed);
    TimelineView* view = window.comparisonView()->timelineView();
    // Since the switch: from the hours before it (for the before/after figures) to now.
    view->liveRangeBox()->setCurrentIndex(TimelineView::LiveSinceSwitch);
    view->setLiveIntervalS(300);
    ASSERT_TRUE(refreshed.count() > 0 || refreshed.wait(30000));
    ASSERT_TRUE(window.current()->document.timeline->throughput.has_value());
    EXPECT_EQ(window.current()->document.timeline->throughput->samples.front().t,
              kBase - TimelineView::kLiveHoursBeforeSwitch * 3600);

    window.showMinimized();
    QTRY_VERIFY(live->isPaused());
    const std::size_t requests = server.requestCount();
    *now = kBase + 20 * 60;
    server.setDataEnd(*now);
    live->tick();
    EXPECT_EQ(server.requestCount(), requests);

    window.showNormal();
    QTRY_VERIFY(!live->isPaused());
    ASSERT_TRUE(refreshed.count() > 1 || refreshed.wait(30000));
    EXPECT_GT(server.requestCount(), requests);
    QLineSeries* tp = view->throughputSeries();
    ASSERT_NE(tp, nullptr);
    EXPECT_EQ(tp->at(tp->count() - 1).x() / 1000, kBase + 20 * 60);
}

TEST_F(LiveTimelineTest, TurningLiveOffCancelsTheFetchInFlight) {
    // A server that takes its time: live goes off while the fetch waits, and its result never lands.
    std::atomic<int> requests{0};
    TestHttpServer server([&](const TestHttpServer::Request&) {
        ++requests;
        TestHttpServer::Reply r =
            TestHttpServer::Reply::json(200, R"({"status":"success","data":{"resultType":"matrix","result":[]}})");
        r.neverAnswer = true;
        return r;
    });
    TimelineData data;
    data.settings.prometheusUrl = server.baseUrl();
    data.settings.from = kBase - 3600;
    data.settings.to = kBase;
    Series tp;
    for (double t = data.settings.from; t <= data.settings.to; t += kStep) tp.samples.push_back({t, 1000});
    data.throughput = tp;
    MainWindow window;
    window.setDesktopNotifier(std::make_shared<RecordingNotifier>());
    window.applyTimeline(data);
    window.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
    LiveTimeline* live = window.liveTimeline();
    live->setAutoTick(false);
    live->setClock([] { return kBase + 600; });
    QSignalSpy refreshed(&window, &MainWindow::liveRefreshed);
    TimelineView* view = window.comparisonView()->timelineView();
    view->setLiveIntervalS(30);
    ASSERT_TRUE(live->isFetching());
    QTRY_VERIFY(requests.load() > 0);
    view->setLiveIntervalS(0);
    EXPECT_FALSE(live->isFetching());
    EXPECT_FALSE(live->isLive());
    EXPECT_EQ(refreshed.count(), 0);
    EXPECT_EQ(view->throughputSeries()->count(), static_cast<int>(tp.samples.size()));
}

TEST_F(LiveTimelineTest, ExportMonitoringRulesWritesCoresThreeFilesAndAsksBeforeReplacing) {
    // A comparison whose timeline has a firing episode, fetched from the stand-in server.
    GrowingPrometheus server;
    server.setDataEnd(kBase + 90 * 60);
    TimelineSettings s = settingsFor(server);
    s.from = kBase - 3 * 3600;
    s.to = kBase + 90 * 60;
    auto fetched = fetchTimeline(s, {});
    ASSERT_TRUE(fetched) << fetched.error().message;

    MainWindow window;
    test::showEvalsOnly(window);  // no timeline: nothing to export, and the action says why
    EXPECT_FALSE(window.exportMonitoringAction()->isEnabled());
    EXPECT_TRUE(window.exportMonitoringAction()->toolTip().contains(QStringLiteral("no production timeline")));

    window.applyTimeline(*fetched);
    ASSERT_TRUE(window.exportMonitoringAction()->isEnabled());
    auto expected = exportMonitoring(window.current()->document);
    ASSERT_TRUE(expected) << expected.error().message;

    QTemporaryDir dir;
    const QString out = dir.filePath(QStringLiteral("monitoring"));
    QSignalSpy exported(&window, &MainWindow::monitoringExported);
    EXPECT_EQ(window.exportMonitoringInto(out), nullptr);
    ASSERT_TRUE(exported.wait(30000));
    EXPECT_EQ(exported.at(0).at(1).toString(), QString());
    const QString rules = QDir(out).filePath(QString::fromUtf8(kMonitoringRulesFile));
    const QString unitTest = QDir(out).filePath(QString::fromUtf8(kMonitoringTestFile));
    const QString dashboard = QDir(out).filePath(QString::fromUtf8(kMonitoringDashboardFile));
    EXPECT_EQ(readAll(rules).toStdString(), expected->rulesYaml);
    EXPECT_EQ(readAll(unitTest).toStdString(), expected->testYaml);
    EXPECT_EQ(readAll(dashboard).toStdString(), expected->dashboardJson);
    EXPECT_NE(expected->rulesYaml.find(kMonitoringAlertName), std::string::npos);

    // Files of those names: asked first; Cancel writes nothing.
    {
        QFile f(rules);
        ASSERT_TRUE(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write("mine\n");
    }
    QMessageBox* box = window.exportMonitoringInto(out);
    ASSERT_NE(box, nullptr);
    EXPECT_TRUE(box->text().contains(QString::fromUtf8(kMonitoringRulesFile)));
    box->button(QMessageBox::Cancel)->click();
    QCoreApplication::processEvents();
    EXPECT_EQ(exported.count(), 1);
    EXPECT_EQ(readAll(rules), QByteArray("mine\n"));
    // Yes replaces them.
    box = window.exportMonitoringInto(out);
    ASSERT_NE(box, nullptr);
    box->button(QMessageBox::Yes)->click();
    ASSERT_TRUE(exported.count() > 1 || exported.wait(30000));
    EXPECT_EQ(readAll(rules).toStdString(), expected->rulesYaml);
}

}  // namespace
}  // namespace fp8dash::ui
