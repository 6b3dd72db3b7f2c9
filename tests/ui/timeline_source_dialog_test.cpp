// TimelineSourceDialog driven like a user against real HTTP servers on loopback (tests/support/test_http_server.h):
// Test Connection, a fetch that joins the document (and a saved file that holds no secret), Refresh with the
// session's credentials, Cancel during a fetch that never gets an answer, and a fetch error naming the URL. Then the
// keychain: credentials remembered (in a MemoryCredentialStore) fill the form again for the same URL only, Forget
// removes them, typed beats stored beats the environment, nothing remembered reaches a file or QSettings, and with
// the real QtKeychain store and no secret service the dialog says so and fetches all the same.
#include <QCheckBox>
#include <QComboBox>
#include <QElapsedTimer>
#include <QFile>
#include <QLineEdit>
#include <QLineSeries>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QThreadPool>
#include <QTimer>
#include <QtTest>

#include <atomic>
#include <chrono>
#include <cmath>
#include <string>
#include <thread>

#include "fp8dash/core/langfuse_client.h"
#include "fp8dash/ui/comparison_view.h"
#include "fp8dash/ui/main_window.h"
#include "fp8dash/ui/memory_credential_store.h"
#include "fp8dash/ui/timeline_source_dialog.h"
#include "fp8dash/ui/timeline_summary_card.h"
#include "fp8dash/ui/timeline_view.h"
#include "fp8dash/ui/verdict_banner.h"
#include "gui_test_support.h"
#include "langfuse_test_server.h"
#include "test_http_server.h"
#include "timeline_test_data.h"

namespace fp8dash::ui::test {
namespace {

using fp8dash::test::TestHttpServer;

class TimelineSourceDialogTest : public GuiTest {
protected:
    void SetUp() override {
        GuiTest::SetUp();
        fp8dash::forgetLangfuseServers();  // a server of an earlier test may have had the same port
        // The form falls back to these; the tests type their credentials instead.
        for (const char* name : {"FP8DASH_PROMETHEUS_TOKEN", "FP8DASH_PROMETHEUS_USER", "FP8DASH_PROMETHEUS_PASSWORD",
                                 "FP8DASH_PROMETHEUS_HEADERS", "LANGFUSE_PUBLIC_KEY", "LANGFUSE_SECRET_KEY"}) {
            qunsetenv(name);
        }
    }
    void TearDown() override {
        // No worker may outlive the test (and its server).
        EXPECT_TRUE(QThreadPool::globalInstance()->waitForDone(30000));
    }
};

constexpr const char* kToken = "s3cret-token-42";
constexpr const char* kTenant = "tenant-blue";
constexpr double kFrom = kFakePrometheusFrom;
constexpr double kTo = kFakePrometheusTo;
constexpr double kSwitch = kFakePrometheusSwitch;  // the fake Prometheus turns FP8 on here

TimelineSettings throughputOnly(const std::string& url) {
    TimelineSettings s;
    s.prometheusUrl = url;
    s.fetchThroughput = true;
    s.qualitySource = QualitySource::None;
    s.from = kFrom;
    s.to = kTo;
    s.step = 60;
    return s;
}

TimelineCredentials typedCredentials() {
    TimelineCredentials c;
    c.prometheusAuth.kind = HttpAuth::Kind::Bearer;
    c.prometheusAuth.token = kToken;
    c.prometheusHeaders = {{"X-Scope-OrgID", kTenant}};
    return c;
}

TEST_F(TimelineSourceDialogTest, TestConnectionShowsTheBuildInfoAndSendsTheCredentials) {
    TestHttpServer server(fakePrometheusReply);
    TimelineSourceDialog dialog;
    dialog.setSettings(throughputOnly(server.baseUrl()));
    dialog.setCredentials(typedCredentials());
    dialog.show();
    QSignalSpy tested(&dialog, &TimelineSourceDialog::connectionTested);
    QTest::mouseClick(dialog.testButton(), Qt::LeftButton);
    EXPECT_TRUE(dialog.isTesting());  // off the GUI thread: the click returned before the answer
    ASSERT_TRUE(tested.wait(20000));
    EXPECT_TRUE(tested.at(0).at(0).toBool());
    EXPECT_TRUE(dialog.connectionText().contains(QStringLiteral("2.53.1"))) << dialog.connectionText().toStdString();
    const auto requests = server.requests();
    ASSERT_EQ(requests.size(), 1u);
    EXPECT_EQ(requests[0].path, "/api/v1/status/buildinfo");
    EXPECT_EQ(requests[0].header("authorization"), std::string("Bearer ") + kToken);
    EXPECT_EQ(requests[0].header("x-scope-orgid"), kTenant);
}

TEST_F(TimelineSourceDialogTest, TestConnectionShowsTheExactError) {
    const std::string url = "http://127.0.0.1:" + std::to_string(fp8dash::test::closedPort());
    TimelineSourceDialog dialog;
    dialog.setSettings(throughputOnly(url));
    dialog.show();
    QSignalSpy tested(&dialog, &TimelineSourceDialog::connectionTested);
    dialog.testConnection();
    ASSERT_TRUE(tested.wait(30000));
    EXPECT_FALSE(tested.at(0).at(0).toBool());
    EXPECT_TRUE(dialog.connectionText().contains(QString::fromStdString(url))) << dialog.connectionText().toStdString();
}

// VictoriaMetrics answers build info with a placeholder: Test Connection names it, with the window edges a local
// alert evaluation would follow there; the "Alert windows" choice reaches the request and comes back from settings.
TEST_F(TimelineSourceDialogTest, TestConnectionNamesTheBackendAndTheWindowChoiceRoundTrips) {
    TestHttpServer vm([](const TestHttpServer::Request& r) {
        if (r.path == "/api/v1/status/buildinfo")
            return TestHttpServer::Reply::json(200, R"({"status":"success","data":{}})");
        return TestHttpServer::Reply::json(404, "{}");
    });
    TimelineSourceDialog dialog;
    TimelineSettings settings = throughputOnly(vm.baseUrl());
    settings.windowSemantics = WindowSemantics::Prometheus2;
    dialog.setSettings(settings);
    dialog.setCredentials(typedCredentials());
    dialog.show();
    QSignalSpy tested(&dialog, &TimelineSourceDialog::connectionTested);
    dialog.testConnection();
    ASSERT_TRUE(tested.wait(20000));
    EXPECT_TRUE(tested.at(0).at(0).toBool());
    const QString text = dialog.connectionText();
    EXPECT_TRUE(text.contains(QStringLiteral("Connected: VictoriaMetrics"))) << text.toStdString();
    EXPECT_TRUE(
        text.contains(QStringLiteral("Alert windows: prometheus3 (VictoriaMetrics' rollup windows are left-open")))
        << text.toStdString();

    auto* windows = dialog.findChild<QComboBox*>(QStringLiteral("windowSemantics"));
    ASSERT_NE(windows, nullptr);
    EXPECT_EQ(windows->currentIndex(), 1);
    auto request = dialog.request();
    ASSERT_TRUE(request.ok()) << request.error().message;
    EXPECT_EQ(request->settings.windowSemantics, WindowSemantics::Prometheus2);
    windows->setCurrentIndex(2);
    request = dialog.request();
    ASSERT_TRUE(request.ok()) << request.error().message;
    EXPECT_EQ(request->settings.windowSemantics, WindowSemantics::Prometheus3);
    windows->setCurrentIndex(0);
    request = dialog.request();
    ASSERT_TRUE(request.ok()) << request.error().message;
    EXPECT_FALSE(request->settings.windowSemantics.has_value());
}

TEST_F(TimelineSourceDialogTest, FetchedTimelineJoinsTheDocumentAndTheSavedFileHoldsNoSecret) {
    TestHttpServer server(fakePrometheusReply);
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    MainWindow window;
    window.show();
    window.openDemo();
    TimelineSourceDialog* dialog = window.connectTimeline();
    ASSERT_NE(dialog, nullptr);
    dialog->setSettings(throughputOnly(server.baseUrl()));
    dialog->setCredentials(typedCredentials());
    QSignalSpy applied(&window, &MainWindow::timelineApplied);
    QTest::mouseClick(dialog->fetchButton(), Qt::LeftButton);
    EXPECT_TRUE(dialog->isFetching());
    EXPECT_FALSE(dialog->fetchButton()->isEnabled());
    ASSERT_TRUE(applied.wait(30000)) << dialog->errorText().toStdString();

    // The document now holds the timeline; the window says it is not saved.
    ASSERT_NE(window.current(), nullptr);
    const auto& timeline = window.current()->document.timeline;
    ASSERT_TRUE(timeline.has_value());
    ASSERT_TRUE(timeline->throughput.has_value());
    EXPECT_EQ(timeline->throughput->samples.size(), 361u);  // 6 h at 60 s, both ends
    ASSERT_TRUE(timeline->detectedChange.has_value());
    EXPECT_DOUBLE_EQ(timeline->detectedChange->at, kSwitch);
    EXPECT_EQ(timeline->settings.prometheusAuth, "bearer");
    EXPECT_TRUE(window.isModified());
    EXPECT_TRUE(window.windowTitle().contains(QLatin1Char('*')));
    TimelineView* view = window.comparisonView()->timelineView();
    EXPECT_EQ(window.comparisonView()->tabs()->currentWidget(), view);
    ASSERT_NE(view->throughputSeries(), nullptr);
    EXPECT_EQ(view->throughputSeries()->count(), 361);
    EXPECT_EQ(view->qualitySeries(), nullptr);
    EXPECT_FALSE(view->suggestionText().isEmpty());  // vLLM's switch, on offer
    // No quality series: the timeline gives no verdict, so the evals' INVESTIGATE stands.
    EXPECT_EQ(window.comparisonView()->verdictBanner()->verdictText(), QStringLiteral("INVESTIGATE"));
    for (const auto& r : server.requests()) {
        EXPECT_EQ(r.header("authorization"), std::string("Bearer ") + kToken) << r.target;
        EXPECT_EQ(r.header("x-scope-orgid"), kTenant) << r.target;
    }

    // Saved: the settings and series go into the file, the token and the header's value never do.
    const QString path = dir.filePath(QStringLiteral("with-timeline.fp8cmp"));
    ASSERT_TRUE(window.saveTo(path).ok());
    EXPECT_FALSE(window.isModified());
    QFile file(path);
    ASSERT_TRUE(file.open(QIODevice::ReadOnly));
    const QByteArray bytes = file.readAll();
    EXPECT_FALSE(bytes.contains(kToken));
    EXPECT_FALSE(bytes.contains(kTenant));
    EXPECT_TRUE(bytes.contains("X-Scope-OrgID"));  // the header's name, so the next fetch asks for its value
    EXPECT_TRUE(bytes.contains("sum(rate(vllm:generation_tokens_total[5m]))"));
    // Nor do the settings of this session.
    EXPECT_FALSE(QSettings().allKeys().join(QLatin1Char(' ')).contains(QString::fromLatin1(kToken)));
    for (const QString& key : QSettings().allKeys()) {
        EXPECT_FALSE(QSettings().value(key).toString().contains(QString::fromLatin1(kToken))) << key.toStdString();
    }

    // Refresh fetches again at once, with the credentials typed earlier in this session.
    server.clearRequests();
    TimelineSourceDialog* again = window.refreshTimeline(kFrom, kTo);
    ASSERT_NE(again, nullptr);
    EXPECT_TRUE(again->isFetching());
    ASSERT_TRUE(applied.wait(30000)) << again->errorText().toStdString();
    ASSERT_GE(server.requestCount(), 1u);
    EXPECT_EQ(server.requests()[0].header("authorization"), std::string("Bearer ") + kToken);
}

TEST_F(TimelineSourceDialogTest, CancelDuringAFetchThatNeverGetsAnAnswerReturnsPromptly) {
    TestHttpServer server([](const TestHttpServer::Request&) {
        TestHttpServer::Reply reply;
        reply.neverAnswer = true;
        return reply;
    });
    MainWindow window;
    window.show();
    showEvalsOnly(window);
    const QString titleBefore = window.windowTitle();
    TimelineSourceDialog* dialog = window.connectTimeline();
    ASSERT_NE(dialog, nullptr);
    dialog->setSettings(throughputOnly(server.baseUrl()));
    QSignalSpy cancelled(dialog, &TimelineSourceDialog::fetchCancelled);
    QSignalSpy failed(dialog, &TimelineSourceDialog::fetchFailed);
    QTest::mouseClick(dialog->fetchButton(), Qt::LeftButton);
    ASSERT_TRUE(dialog->isFetching());
    QTRY_VERIFY_WITH_TIMEOUT(server.requestCount() >= 1, 10000);  // the request is out, the server silent
    QTest::qWait(100);
    EXPECT_TRUE(dialog->isFetching());  // still waiting: nothing answered

    QElapsedTimer clock;
    clock.start();
    QTest::mouseClick(dialog->cancelButton(), Qt::LeftButton);
    EXPECT_LT(clock.elapsed(), 500);  // the GUI thread never waits for the worker
    EXPECT_EQ(cancelled.count(), 1);
    EXPECT_FALSE(dialog->isFetching());
    EXPECT_TRUE(dialog->fetchButton()->isEnabled());
    EXPECT_TRUE(dialog->isVisible());  // Cancel stops the fetch; a second Cancel closes
    EXPECT_TRUE(dialog->statusText().contains(QStringLiteral("Cancelled"))) << dialog->statusText().toStdString();

    // The worker sees the flag and ends soon, without the server ever answering.
    clock.restart();
    EXPECT_TRUE(QThreadPool::globalInstance()->waitForDone(10000));
    EXPECT_LT(clock.elapsed(), 5000);
    QTest::qWait(50);
    EXPECT_EQ(failed.count(), 0);  // its "cancelled" result is dropped, not shown as an error
    EXPECT_TRUE(dialog->errorText().isEmpty());

    // The window is untouched and usable: the dialog closes, the document is as it was, a new dialog opens.
    dialog->reject();
    QTRY_VERIFY_WITH_TIMEOUT(window.sourceDialog() == nullptr, 5000);
    EXPECT_FALSE(window.isModified());
    EXPECT_EQ(window.windowTitle(), titleBefore);
    ASSERT_NE(window.current(), nullptr);
    EXPECT_FALSE(window.current()->document.timeline.has_value());
    EXPECT_FALSE(window.comparisonView()->timelineView()->hasTimeline());
    TimelineSourceDialog* next = window.connectTimeline();
    ASSERT_NE(next, nullptr);
    EXPECT_FALSE(next->isFetching());
    next->reject();
}

// Network faults (network_faults_test.cpp) through the dialog: each ends in an error naming the URL, the window keeps
// handling events while the fetch runs, and a connect that never completes is cancelled at once.
TEST_F(TimelineSourceDialogTest, NetworkFaultsEndInAMessageWhileTheWindowStaysResponsive) {
    TestHttpServer huge([](const TestHttpServer::Request&) {
        TestHttpServer::Reply reply;
        reply.streamBytes = std::uint64_t{1} << 30;
        return reply;
    });
    TestHttpServer unavailable([](const TestHttpServer::Request&) {
        return TestHttpServer::Reply(503, {{"Content-Type", "text/html"}}, "<html>maintenance</html>");
    });
    const std::vector<std::pair<std::string, std::string>> faults = {
        {huge.baseUrl(), "larger than 512 MiB"},
        {unavailable.baseUrl(), "503"},
        {"http://prometheus.fp8dash-test.invalid:9090", "cannot resolve the host name"},
    };
    MainWindow window;
    window.show();
    showEvalsOnly(window);
    for (const auto& [url, expected] : faults) {
        TimelineSourceDialog* dialog = window.connectTimeline();
        ASSERT_NE(dialog, nullptr);
        dialog->setSettings(throughputOnly(url));
        QSignalSpy failed(dialog, &TimelineSourceDialog::fetchFailed);
        QTest::mouseClick(dialog->fetchButton(), Qt::LeftButton);
        ASSERT_TRUE(failed.wait(60000)) << url;
        const QString message = failed.at(0).at(0).toString();
        EXPECT_TRUE(message.contains(QString::fromStdString(url))) << message.toStdString();
        EXPECT_TRUE(message.contains(QString::fromStdString(expected))) << message.toStdString();
        EXPECT_FALSE(window.isModified());
        dialog->reject();
        QTRY_VERIFY_WITH_TIMEOUT(window.sourceDialog() == nullptr, 5000);
    }

    // The window stays responsive while a fetch is under way: a server that holds its answer until the test has seen
    // the event loop run twenty timer ticks with the fetch still pending (no clock in it: a loaded machine only makes
    // it take longer), then answers with a body that is not Prometheus JSON.
    {
        std::atomic<bool> release{false};
        TestHttpServer held([&release](const TestHttpServer::Request&) {
            while (!release.load()) std::this_thread::sleep_for(std::chrono::milliseconds(2));
            return TestHttpServer::Reply(200, {{"Content-Type", "application/json"}}, "not json");
        });
        struct Release {  // whatever fails below, the server's thread is let go before it is joined
            std::atomic<bool>& flag;
            ~Release() { flag = true; }
        } letGo{release};
        TimelineSourceDialog* dialog = window.connectTimeline();
        ASSERT_NE(dialog, nullptr);
        dialog->setSettings(throughputOnly(held.baseUrl()));
        QSignalSpy failed(dialog, &TimelineSourceDialog::fetchFailed);
        int ticks = 0;
        QTimer ticker;
        QObject::connect(&ticker, &QTimer::timeout, [&ticks] { ++ticks; });
        ticker.start(1);
        QTest::mouseClick(dialog->fetchButton(), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(ticks >= 20, 60000);
        EXPECT_TRUE(dialog->isFetching());
        EXPECT_EQ(failed.count(), 0);
        release = true;
        ASSERT_TRUE(failed.wait(60000));
        ticker.stop();
        EXPECT_TRUE(failed.at(0).at(0).toString().contains(QString::fromStdString(held.baseUrl())))
            << failed.at(0).at(0).toString().toStdString();
        dialog->reject();
        QTRY_VERIFY_WITH_TIMEOUT(window.sourceDialog() == nullptr, 5000);
    }

    // A connect that never completes: Cancel ends it without waiting for the connect timeout.
    fp8dash::test::FullListener listener;
    TimelineSourceDialog* dialog = window.connectTimeline();
    ASSERT_NE(dialog, nullptr);
    dialog->setSettings(throughputOnly(listener.url("")));
    QSignalSpy cancelled(dialog, &TimelineSourceDialog::fetchCancelled);
    QTest::mouseClick(dialog->fetchButton(), Qt::LeftButton);
    QTest::qWait(300);
    ASSERT_TRUE(dialog->isFetching());
    QTest::mouseClick(dialog->cancelButton(), Qt::LeftButton);
    EXPECT_EQ(cancelled.count(), 1);
    EXPECT_FALSE(dialog->isFetching());
    QElapsedTimer clock;
    clock.start();
    EXPECT_TRUE(QThreadPool::globalInstance()->waitForDone(10000));
    EXPECT_LT(clock.elapsed(), 5000);  // well inside the 10 s connect timeout
    dialog->reject();
}

TEST_F(TimelineSourceDialogTest, AFetchErrorIsShownInTheDialogNamingTheUrl) {
    const std::string url = "http://127.0.0.1:" + std::to_string(fp8dash::test::closedPort());
    MainWindow window;
    window.show();
    showEvalsOnly(window);
    TimelineSourceDialog* dialog = window.connectTimeline();
    ASSERT_NE(dialog, nullptr);
    dialog->setSettings(throughputOnly(url));
    QSignalSpy failed(dialog, &TimelineSourceDialog::fetchFailed);
    QTest::mouseClick(dialog->fetchButton(), Qt::LeftButton);
    ASSERT_TRUE(failed.wait(60000));
    const QString message = failed.at(0).at(0).toString();
    EXPECT_TRUE(message.contains(QString::fromStdString(url))) << message.toStdString();
    EXPECT_EQ(dialog->errorText(), message);
    EXPECT_FALSE(dialog->isFetching());
    EXPECT_TRUE(dialog->fetchButton()->isEnabled());
    EXPECT_TRUE(dialog->isVisible());
    EXPECT_FALSE(window.isModified());
    EXPECT_FALSE(window.comparisonView()->timelineView()->hasTimeline());
    dialog->reject();
}

TEST_F(TimelineSourceDialogTest, AnIncompleteFormNamesTheFieldWithoutFetching) {
    TimelineSourceDialog dialog;
    TimelineSettings settings = throughputOnly("http://prometheus.test:9090");
    settings.prometheusAuth = "bearer";  // as a saved file says; the token itself was never saved
    dialog.setSettings(settings);
    QSignalSpy failed(&dialog, &TimelineSourceDialog::fetchFailed);
    dialog.startFetch();
    EXPECT_FALSE(dialog.isFetching());
    ASSERT_EQ(failed.count(), 1);
    EXPECT_TRUE(dialog.errorText().contains(QStringLiteral("Token"))) << dialog.errorText().toStdString();

    settings.prometheusAuth = "none";
    settings.prometheusUrl = "prometheus:9090";  // no scheme
    dialog.setSettings(settings);
    dialog.startFetch();
    EXPECT_TRUE(dialog.errorText().contains(QStringLiteral("Prometheus URL"))) << dialog.errorText().toStdString();

    settings.prometheusUrl = "http://prometheus.test:9090";
    settings.qualitySource = QualitySource::Langfuse;
    settings.langfuseUrl = "https://langfuse.test";
    dialog.setSettings(settings);
    dialog.startFetch();
    EXPECT_TRUE(dialog.errorText().contains(QStringLiteral("Langfuse keys"))) << dialog.errorText().toStdString();
    EXPECT_FALSE(dialog.isFetching());
}

// The keychain -------------------------------------------------------------------------------------------------------

QString fieldText(const TimelineSourceDialog& dialog, const char* objectName) {
    if (auto* line = dialog.findChild<QLineEdit*>(QString::fromLatin1(objectName))) return line->text();
    if (auto* plain = dialog.findChild<QPlainTextEdit*>(QString::fromLatin1(objectName))) return plain->toPlainText();
    ADD_FAILURE() << "no field " << objectName;
    return {};
}

void setField(TimelineSourceDialog& dialog, const char* objectName, const QString& text) {
    auto* line = dialog.findChild<QLineEdit*>(QString::fromLatin1(objectName));
    ASSERT_NE(line, nullptr) << objectName;
    line->setText(text);
}

// Waits until the dialog's keychain lookup (started when it opens or a URL changes) has answered.
void waitForLookup(TimelineSourceDialog& dialog) {
    QSignalSpy looked(&dialog, &TimelineSourceDialog::keychainLookedUp);
    if (dialog.isLookingUpKeychain()) {
        ASSERT_TRUE(looked.wait(20000));
    }
    EXPECT_FALSE(dialog.isLookingUpKeychain());
}

// Remembers typedCredentials() for the server's URL the way a user does: tick the box, Test Connection.
void rememberThroughTestConnection(const std::shared_ptr<MemoryCredentialStore>& store, const std::string& url) {
    TimelineSourceDialog dialog(nullptr, store);
    dialog.setSettings(throughputOnly(url));
    dialog.setCredentials(typedCredentials());
    dialog.show();
    waitForLookup(dialog);
    EXPECT_FALSE(dialog.rememberCheck()->isChecked());  // off by default
    QTest::mouseClick(dialog.rememberCheck(), Qt::LeftButton);
    ASSERT_TRUE(dialog.rememberCheck()->isChecked());
    QSignalSpy stored(&dialog, &TimelineSourceDialog::keychainStored);
    QTest::mouseClick(dialog.testButton(), Qt::LeftButton);
    ASSERT_TRUE(stored.wait(20000)) << dialog.connectionText().toStdString();
    EXPECT_TRUE(stored.at(0).at(0).toBool());
    EXPECT_TRUE(dialog.keychainText().contains(QStringLiteral("Saved"))) << dialog.keychainText().toStdString();
}

TEST_F(TimelineSourceDialogTest, RememberedCredentialsFillTheFormForTheSameUrlOnly) {
    TestHttpServer server(fakePrometheusReply);
    auto store = std::make_shared<MemoryCredentialStore>();
    rememberThroughTestConnection(store, server.baseUrl());
    const QString key = CredentialStore::prometheusKey(QString::fromStdString(server.baseUrl()));
    EXPECT_EQ(key, QStringLiteral("prometheus ") + QString::fromStdString(server.baseUrl()));
    ASSERT_TRUE(store->contains(key)) << store->keys().join(QLatin1Char(',')).toStdString();
    EXPECT_EQ(store->keys().size(), 1);

    // Reopened (a new session: nothing typed, the file says "none"): filled in from the keychain and marked so.
    TimelineSourceDialog reopened(nullptr, store);
    TimelineSettings settings = throughputOnly(server.baseUrl());
    reopened.setSettings(settings);
    reopened.show();
    waitForLookup(reopened);
    EXPECT_EQ(reopened.findChild<QComboBox*>(QStringLiteral("authMethod"))->currentIndex(), 2);  // bearer
    EXPECT_EQ(fieldText(reopened, "bearerToken"), QString::fromLatin1(kToken));
    EXPECT_EQ(fieldText(reopened, "extraHeaders"), QStringLiteral("X-Scope-OrgID: ") + QString::fromLatin1(kTenant));
    EXPECT_TRUE(reopened.keychainText().contains(QStringLiteral("from the system keychain")))
        << reopened.keychainText().toStdString();
    EXPECT_TRUE(reopened.rememberCheck()->isChecked());
    auto request = reopened.request();
    ASSERT_TRUE(request.ok()) << request.error().message;
    EXPECT_EQ(request->credentials.prometheusAuth.token, kToken);
    // ... and they reach the server.
    server.clearRequests();
    QSignalSpy tested(&reopened, &TimelineSourceDialog::connectionTested);
    reopened.testConnection();
    ASSERT_TRUE(tested.wait(20000));
    ASSERT_EQ(server.requestCount(), 1u);
    EXPECT_EQ(server.requests()[0].header("authorization"), std::string("Bearer ") + kToken);
    EXPECT_EQ(server.requests()[0].header("x-scope-orgid"), kTenant);

    // Another URL: the stored values leave the form; back to the first URL: they return.
    const QString other = QStringLiteral("http://127.0.0.1:") + QString::number(fp8dash::test::closedPort());
    setField(reopened, "prometheusUrl", other);
    waitForLookup(reopened);
    EXPECT_TRUE(fieldText(reopened, "bearerToken").isEmpty());
    EXPECT_TRUE(fieldText(reopened, "extraHeaders").isEmpty());
    setField(reopened, "prometheusUrl", QString::fromStdString(server.baseUrl()));
    waitForLookup(reopened);
    EXPECT_EQ(fieldText(reopened, "bearerToken"), QString::fromLatin1(kToken));

    // A dialog for another URL gets nothing.
    TimelineSourceDialog elsewhere(nullptr, store);
    elsewhere.setSettings(throughputOnly(other.toStdString()));
    elsewhere.show();
    waitForLookup(elsewhere);
    EXPECT_TRUE(fieldText(elsewhere, "bearerToken").isEmpty());
    EXPECT_TRUE(fieldText(elsewhere, "extraHeaders").isEmpty());
    EXPECT_FALSE(elsewhere.rememberCheck()->isChecked());
}

TEST_F(TimelineSourceDialogTest, LangfuseReadModeAndTheServersNoticesReachTheResult) {
    fp8dash::forgetLangfuseServers();
    std::vector<fp8dash::test::LangfuseSeedScore> scores;
    for (int i = 0; i < 12; ++i) {
        fp8dash::test::LangfuseSeedScore score;
        score.id = "s" + std::to_string(i);
        score.traceId = "t" + std::to_string(i);
        score.timestamp = kFrom + 600.0 * (i + 1);
        score.value = 4.0;
        scores.push_back(score);
    }
    fp8dash::test::LangfuseTestServer::Options o;
    o.personality = fp8dash::test::LangfuseTestServer::Personality::V3Before180;
    o.cloud = true;  // its /api/public/v2/scores answers carry "_deprecation"
    fp8dash::test::LangfuseTestServer langfuse(scores, o);
    TimelineSettings settings;
    settings.fetchThroughput = false;
    settings.qualitySource = QualitySource::Langfuse;
    settings.langfuseUrl = langfuse.baseUrl();
    settings.from = kFrom;
    settings.to = kTo;
    settings.step = 60;
    TimelineCredentials keys;
    keys.langfusePublicKey = langfuse.options().publicKey;
    keys.langfuseSecretKey = langfuse.options().secretKey;
    TimelineSourceDialog dialog(nullptr, std::make_shared<MemoryCredentialStore>());
    dialog.setSettings(settings);  // a raw timeline is refreshed in the automatic mode
    dialog.setCredentials(keys);
    dialog.show();
    waitForLookup(dialog);
    auto* mode = dialog.findChild<QComboBox*>(QStringLiteral("langfuseMode"));
    ASSERT_NE(mode, nullptr);
    EXPECT_EQ(mode->currentIndex(), static_cast<int>(fp8dash::LangfuseMode::Auto));
    auto request = dialog.request();
    ASSERT_TRUE(request.ok()) << request.error().message;
    EXPECT_EQ(request->settings.langfuseMode, fp8dash::LangfuseMode::Auto);
    QSignalSpy accepted(&dialog, &QDialog::accepted);
    dialog.startFetch();
    ASSERT_TRUE(accepted.wait(30000)) << dialog.errorText().toStdString();
    ASSERT_NE(dialog.result(), nullptr);
    EXPECT_EQ(dialog.result()->settings.langfuseMode, fp8dash::LangfuseMode::Raw);  // no Metrics API on v3.120
    const QStringList notices = dialog.sourceNotices();
    ASSERT_EQ(notices.size(), 1) << notices.join(QLatin1Char('\n')).toStdString();
    EXPECT_TRUE(notices[0].contains(QStringLiteral("GET /api/public/v3/scores"))) << notices[0].toStdString();
    EXPECT_TRUE(notices[0].contains(QStringLiteral("2026-11-16"))) << notices[0].toStdString();
}

TEST_F(TimelineSourceDialogTest, LangfuseKeysAreRememberedAfterASuccessfulFetch) {
    std::vector<fp8dash::test::LangfuseSeedScore> scores;
    for (int i = 0; i < 12; ++i) {
        fp8dash::test::LangfuseSeedScore score;
        score.id = "s" + std::to_string(i);
        score.traceId = "t" + std::to_string(i);
        score.timestamp = kFrom + 600.0 * (i + 1);
        score.value = 4.0 + 0.05 * i;
        scores.push_back(score);
    }
    fp8dash::test::LangfuseTestServer langfuse(scores);
    auto store = std::make_shared<MemoryCredentialStore>();
    TimelineSettings settings;
    settings.fetchThroughput = false;
    settings.qualitySource = QualitySource::Langfuse;
    settings.langfuseUrl = langfuse.baseUrl();
    settings.from = kFrom;
    settings.to = kTo;
    settings.step = 60;
    TimelineCredentials keys;
    keys.langfusePublicKey = langfuse.options().publicKey;
    keys.langfuseSecretKey = langfuse.options().secretKey;
    {
        TimelineSourceDialog dialog(nullptr, store);
        dialog.setSettings(settings);
        dialog.setCredentials(keys);
        dialog.show();
        waitForLookup(dialog);
        dialog.rememberCheck()->setChecked(true);
        QSignalSpy accepted(&dialog, &QDialog::accepted);
        QSignalSpy stored(&dialog, &TimelineSourceDialog::keychainStored);
        dialog.startFetch();
        ASSERT_TRUE(accepted.wait(30000)) << dialog.errorText().toStdString();
        ASSERT_NE(dialog.result(), nullptr);
        ASSERT_TRUE(stored.wait(5000));
        EXPECT_TRUE(stored.at(0).at(0).toBool());
    }
    const QString key = CredentialStore::langfuseKey(QString::fromStdString(langfuse.baseUrl()));
    ASSERT_TRUE(store->contains(key)) << store->keys().join(QLatin1Char(',')).toStdString();
    EXPECT_EQ(store->keys().size(), 1);  // Prometheus was not used: nothing stored for it

    TimelineSourceDialog reopened(nullptr, store);
    reopened.setSettings(settings);
    reopened.show();
    waitForLookup(reopened);
    EXPECT_EQ(fieldText(reopened, "langfusePublicKey"), QString::fromStdString(keys.langfusePublicKey));
    EXPECT_EQ(fieldText(reopened, "langfuseSecretKey"), QString::fromStdString(keys.langfuseSecretKey));
    auto request = reopened.request();
    ASSERT_TRUE(request.ok()) << request.error().message;
    EXPECT_EQ(request->credentials.langfuseSecretKey, keys.langfuseSecretKey);

    TimelineSettings elsewhere = settings;
    elsewhere.langfuseUrl = "https://langfuse.elsewhere.test";
    TimelineSourceDialog other(nullptr, store);
    other.setSettings(elsewhere);
    other.show();
    waitForLookup(other);
    EXPECT_TRUE(fieldText(other, "langfusePublicKey").isEmpty());
    EXPECT_TRUE(fieldText(other, "langfuseSecretKey").isEmpty());
    EXPECT_FALSE(other.request().ok());  // no keys typed, stored or in the environment
}

TEST_F(TimelineSourceDialogTest, ForgetRemovesTheRememberedCredentials) {
    TestHttpServer server(fakePrometheusReply);
    auto store = std::make_shared<MemoryCredentialStore>();
    rememberThroughTestConnection(store, server.baseUrl());
    const QString key = CredentialStore::prometheusKey(QString::fromStdString(server.baseUrl()));
    ASSERT_TRUE(store->contains(key));

    TimelineSourceDialog dialog(nullptr, store);
    dialog.setSettings(throughputOnly(server.baseUrl()));
    dialog.show();
    waitForLookup(dialog);
    ASSERT_EQ(fieldText(dialog, "bearerToken"), QString::fromLatin1(kToken));
    QSignalSpy forgotten(&dialog, &TimelineSourceDialog::keychainForgotten);
    QTest::mouseClick(dialog.forgetButton(), Qt::LeftButton);
    ASSERT_TRUE(forgotten.wait(5000));
    EXPECT_TRUE(forgotten.at(0).at(0).toBool());
    EXPECT_FALSE(store->contains(key));
    EXPECT_TRUE(store->keys().isEmpty());
    EXPECT_TRUE(fieldText(dialog, "bearerToken").isEmpty());  // what the keychain filled in goes too
    EXPECT_FALSE(dialog.rememberCheck()->isChecked());
    EXPECT_TRUE(dialog.keychainText().contains(QStringLiteral("Forgotten"))) << dialog.keychainText().toStdString();

    TimelineSourceDialog reopened(nullptr, store);
    reopened.setSettings(throughputOnly(server.baseUrl()));
    reopened.show();
    waitForLookup(reopened);
    EXPECT_TRUE(fieldText(reopened, "bearerToken").isEmpty());
}

TEST_F(TimelineSourceDialogTest, TypedBeatsTheKeychainWhichBeatsTheEnvironment) {
    TestHttpServer server(fakePrometheusReply);
    auto store = std::make_shared<MemoryCredentialStore>();
    rememberThroughTestConnection(store, server.baseUrl());  // stores kToken and the tenant header
    qputenv("FP8DASH_PROMETHEUS_TOKEN", "env-token");
    qputenv("FP8DASH_PROMETHEUS_HEADERS", "X-Scope-OrgID: env-tenant");
    const QString typedToken = QStringLiteral("typed-token");

    // Typed: kept, even though the keychain answers afterwards.
    TimelineSourceDialog typed(nullptr, store);
    typed.setSettings(throughputOnly(server.baseUrl()));
    setField(typed, "bearerToken", typedToken);
    typed.show();
    waitForLookup(typed);
    EXPECT_EQ(fieldText(typed, "bearerToken"), typedToken);
    auto r1 = typed.request();
    ASSERT_TRUE(r1.ok()) << r1.error().message;
    EXPECT_EQ(r1->credentials.prometheusAuth.token, typedToken.toStdString());
    // The header was not typed: it comes from the keychain, not the environment.
    ASSERT_EQ(r1->credentials.prometheusHeaders.size(), 1u);
    EXPECT_EQ(r1->credentials.prometheusHeaders[0].second, kTenant);

    // Nothing typed: the keychain, not the environment.
    TimelineSourceDialog stored(nullptr, store);
    stored.setSettings(throughputOnly(server.baseUrl()));
    stored.show();
    waitForLookup(stored);
    auto r2 = stored.request();
    ASSERT_TRUE(r2.ok()) << r2.error().message;
    EXPECT_EQ(r2->credentials.prometheusAuth.token, kToken);
    server.clearRequests();
    QSignalSpy tested(&stored, &TimelineSourceDialog::connectionTested);
    stored.testConnection();
    ASSERT_TRUE(tested.wait(20000));
    ASSERT_EQ(server.requestCount(), 1u);
    EXPECT_EQ(server.requests()[0].header("authorization"), std::string("Bearer ") + kToken);
    EXPECT_EQ(server.requests()[0].header("x-scope-orgid"), kTenant);

    // Nothing typed, nothing stored for this URL: the environment.
    TimelineSourceDialog environment(nullptr, store);
    TimelineSettings elsewhere = throughputOnly("http://prometheus.elsewhere.test:9090");
    elsewhere.prometheusAuth = "bearer";  // as the saved file says
    environment.setSettings(elsewhere);
    environment.show();
    waitForLookup(environment);
    auto r3 = environment.request();
    ASSERT_TRUE(r3.ok()) << r3.error().message;
    EXPECT_EQ(r3->credentials.prometheusAuth.kind, HttpAuth::Kind::Bearer);
    EXPECT_EQ(r3->credentials.prometheusAuth.token, "env-token");
    ASSERT_EQ(r3->credentials.prometheusHeaders.size(), 1u);
    EXPECT_EQ(r3->credentials.prometheusHeaders[0].second, "env-tenant");
    // The environment's values are not written into the keychain by a success.
    EXPECT_EQ(store->keys().size(), 1);
}

TEST_F(TimelineSourceDialogTest, RememberedSecretsReachNeitherTheFileNorTheSettingsAndRefreshFindsThem) {
    TestHttpServer server(fakePrometheusReply);
    auto store = std::make_shared<MemoryCredentialStore>();
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("remembered.fp8cmp"));
    {
        MainWindow window;
        window.setCredentialStore(store);
        window.show();
        window.openDemo();
        TimelineSourceDialog* dialog = window.connectTimeline();
        ASSERT_NE(dialog, nullptr);
        dialog->setSettings(throughputOnly(server.baseUrl()));
        dialog->setCredentials(typedCredentials());
        waitForLookup(*dialog);
        dialog->rememberCheck()->setChecked(true);
        QSignalSpy applied(&window, &MainWindow::timelineApplied);
        QTest::mouseClick(dialog->fetchButton(), Qt::LeftButton);
        ASSERT_TRUE(applied.wait(30000)) << dialog->errorText().toStdString();
        ASSERT_TRUE(store->contains(CredentialStore::prometheusKey(QString::fromStdString(server.baseUrl()))));
        ASSERT_TRUE(window.saveTo(path).ok());
    }
    QFile file(path);
    ASSERT_TRUE(file.open(QIODevice::ReadOnly));
    const QByteArray bytes = file.readAll();
    EXPECT_FALSE(bytes.contains(kToken));
    EXPECT_FALSE(bytes.contains(kTenant));
    QSettings settings;
    for (const QString& key : settings.allKeys()) {
        EXPECT_FALSE(key.contains(QString::fromLatin1(kToken))) << key.toStdString();
        const QByteArray value = settings.value(key).toByteArray();
        EXPECT_FALSE(value.contains(kToken)) << key.toStdString();
        EXPECT_FALSE(value.contains(kTenant)) << key.toStdString();
    }

    // A new session: the saved file, nothing typed. Refresh waits for the keychain and fetches with its credentials.
    QSettings().setValue(QStringLiteral("network/checkSourcesOnOpen"), true);  // the probe on open, allowed
    MainWindow window;
    window.setCredentialStore(store);
    window.show();
    QSignalSpy shown(&window, &MainWindow::documentShown);
    QSignalSpy checked(&window, &MainWindow::liveSourcesChecked);
    server.clearRequests();  // the first session's fetch
    window.openFileAsync(path);
    ASSERT_TRUE(shown.wait(20000));
    // Opening a saved timeline checks, in the background and without credentials, that its Prometheus is reachable.
    // That probe is over before the requests are cleared: otherwise it may land after the clear and be counted as a
    // request of the refresh (one without the Authorization header), depending on thread timing.
    if (checked.isEmpty()) {
        ASSERT_TRUE(checked.wait(20000));
    }
    ASSERT_GE(server.requestCount(), 1u);
    for (const auto& r : server.requests()) {
        EXPECT_EQ(r.path, "/api/v1/status/buildinfo");
        EXPECT_FALSE(r.header("authorization").has_value()) << "the reachability probe sends no credentials";
    }
    server.clearRequests();
    QSignalSpy applied(&window, &MainWindow::timelineApplied);
    TimelineSourceDialog* again = window.refreshTimeline(kFrom, kTo);
    ASSERT_NE(again, nullptr);
    ASSERT_TRUE(applied.wait(30000)) << again->errorText().toStdString();
    ASSERT_GE(server.requestCount(), 1u);
    for (const auto& r : server.requests()) {
        EXPECT_EQ(r.header("authorization"), std::string("Bearer ") + kToken) << r.target;
        EXPECT_EQ(r.header("x-scope-orgid"), kTenant) << r.target;
    }
}

TEST_F(TimelineSourceDialogTest, WithoutASecretServiceTheDialogSaysSoAndStillFetches) {
    // The real QtKeychain store. The fixture points D-Bus at nothing, as on a CI runner or a minimal desktop.
    TestHttpServer server(fakePrometheusReply);
    QElapsedTimer clock;
    clock.start();
    TimelineSourceDialog dialog;
    dialog.setSettings(throughputOnly(server.baseUrl()));
    dialog.setCredentials(typedCredentials());
    dialog.show();
    waitForLookup(dialog);
    EXPECT_LT(clock.elapsed(), 20000);  // bounded: the store's own timeout is 15 s
    EXPECT_FALSE(dialog.isKeychainAvailable());
    EXPECT_TRUE(dialog.keychainText().startsWith(QStringLiteral("The system keychain is not available: ")))
        << dialog.keychainText().toStdString();
    EXPECT_TRUE(dialog.keychainText().contains(QStringLiteral("credentials stay in memory for this session")));
    EXPECT_FALSE(dialog.keychainText().contains(QString::fromLatin1(kToken)));
    EXPECT_FALSE(dialog.rememberCheck()->isEnabled());
    EXPECT_FALSE(dialog.forgetButton()->isEnabled());
    EXPECT_TRUE(dialog.errorText().isEmpty());  // a note, not an error

    // Everything else works: the fetch goes out with the typed credentials.
    QSignalSpy accepted(&dialog, &QDialog::accepted);
    QTest::mouseClick(dialog.fetchButton(), Qt::LeftButton);
    EXPECT_TRUE(dialog.isFetching());
    ASSERT_TRUE(accepted.wait(30000)) << dialog.errorText().toStdString();
    ASSERT_NE(dialog.result(), nullptr);
    ASSERT_TRUE(dialog.result()->throughput.has_value());
    EXPECT_EQ(dialog.result()->throughput->samples.size(), 361u);
    EXPECT_FALSE(dialog.rememberCheck()->isEnabled());  // the end of the fetch does not re-enable it
    ASSERT_GE(server.requestCount(), 1u);
    EXPECT_EQ(server.requests()[0].header("authorization"), std::string("Bearer ") + kToken);
}

}  // namespace
}  // namespace fp8dash::ui::test
