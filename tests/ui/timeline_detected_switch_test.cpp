// The Production timeline source dialog without a change time, driven like a user against a Prometheus on loopback
// whose vllm:cache_config_info shows a rolling update (engine 0 switching to fp8_e4m3 at kSwitch, engine 1 fifteen
// minutes later; vllm:generation_tokens_total names the model): the fetched timeline uses engine 0's switch as the
// change time, the view says where it came from and shades the rollout; an entered time wins and the switch stays on
// offer; engines of two models switching give no change time, both named, until one model is picked. With
// FP8DASH_SWITCH_SHOTS set to a folder, the view is also saved there at 1366x768 and 1920x1080, light and dark (issue
// 41's look).
#include <QAreaSeries>
#include <QDir>
#include <QLineSeries>
#include <QPushButton>
#include <QSignalSpy>
#include <QThreadPool>

#include "fp8dash/ui/comparison_view.h"
#include "fp8dash/ui/main_window.h"
#include "fp8dash/ui/theme.h"
#include "fp8dash/ui/timeline_source_dialog.h"
#include "fp8dash/ui/timeline_view.h"
#include "gui_test_support.h"
#include "test_http_server.h"
#include "timeline_test_data.h"

namespace fp8dash::ui::test {
namespace {

using fp8dash::test::TestHttpServer;

constexpr double kSwitchAt = kFakePrometheusSwitch;
constexpr double kLastEngineAt = kSwitchAt + 900;
const char* const kSwitchModel = "meta-llama/Llama-3.1-70B-Instruct";

const char* const kOtherModel = "Qwen/Qwen3-8B";
bool s_twoModels = false;  // engine 1 serves kOtherModel (its own job) instead: switches of two models

// Throughput 1000 → 1500 tok/s at kSwitchAt; cache_config_info of engines 0 and 1 (job vllm), auto then fp8_e4m3;
// the engine-model lookup answers both engines with the model.
TestHttpServer::Reply rollingUpdateReply(const TestHttpServer::Request& r) {
    if (r.path == "/api/v1/status/buildinfo")
        return TestHttpServer::Reply::json(
            200, R"({"status":"success","data":{"version":"2.53.1","revision":"f8d1","branch":"HEAD",)"
                 R"("buildUser":"ci","buildDate":"20260101-00:00:00","goVersion":"go1.22.5"}})");
    if (r.path != "/api/v1/query_range") return TestHttpServer::Reply::json(404, R"({"status":"error"})");
    const double start = std::stod(r.queryValue("start").value_or("0"));
    const double end = std::stod(r.queryValue("end").value_or("0"));
    const double step = std::stod(r.queryValue("step").value_or("60"));
    const std::string query = r.queryValue("query").value_or("");
    const auto values = [&](double from, double to, auto value) {
        std::string out;
        for (double t = from; t <= to + 1e-9; t += step)
            out += std::string(out.empty() ? "" : ",") + "[" + std::to_string(static_cast<long long>(t)) + ",\"" +
                   value(t) + "\"]";
        return "[" + out + "]";
    };
    const auto one = [](double) { return std::string("1"); };
    std::string result;
    if (query == "vllm:cache_config_info") {
        for (const auto& [engine, at] : {std::pair<const char*, double>{"0", kSwitchAt}, {"1", kLastEngineAt}}) {
            const std::string job = s_twoModels && engine[0] == '1' ? "vllm-qwen" : "vllm";
            const std::string labels = std::string(R"("engine":")") + engine + R"(","job":")" + job + "\"";
            result += std::string(result.empty() ? "" : ",") + R"({"metric":{"cache_dtype":"auto",)" + labels +
                      R"(},"values":)" + values(start, std::min(end, at - step), one) + "}," +
                      R"({"metric":{"cache_dtype":"fp8_e4m3",)" + labels + R"(},"values":)" +
                      values(std::max(start, at), end, one) + "}";
        }
    } else if (query.rfind("group by", 0) == 0) {
        for (const char* engine : {"0", "1"}) {
            const bool other = s_twoModels && engine[0] == '1';
            result += std::string(result.empty() ? "" : ",") + R"({"metric":{"engine":")" + engine + R"(","job":")" +
                      (other ? "vllm-qwen" : "vllm") + R"(","model_name":")" + (other ? kOtherModel : kSwitchModel) +
                      R"("},"values":)" + values(start, end, one) + "}";
        }
    } else {
        result = R"({"metric":{},"values":)" +
                 values(start, end, [](double t) { return std::string(t < kSwitchAt ? "1000" : "1500"); }) + "}";
    }
    return TestHttpServer::Reply::json(
        200, R"({"status":"success","data":{"resultType":"matrix","result":[)" + result + "]}}");
}

class TimelineDetectedSwitchTest : public GuiTest {
protected:
    void TearDown() override {
        EXPECT_TRUE(QThreadPool::globalInstance()->waitForDone(30000));
        s_twoModels = false;
    }
    static TimelineSettings settingsFor(const std::string& url) {
        TimelineSettings s;
        s.prometheusUrl = url;
        s.qualitySource = QualitySource::None;
        s.from = kFakePrometheusFrom;
        s.to = kFakePrometheusTo;
        s.step = 60;
        return s;
    }
    // Opens the demo, fetches through the dialog with `settings`, and returns the view.
    static TimelineView* fetchInto(MainWindow& window, const TimelineSettings& settings) {
        window.show();
        window.openDemo();
        TimelineSourceDialog* dialog = window.connectTimeline();
        if (!dialog) return nullptr;
        dialog->setSettings(settings);
        QSignalSpy applied(&window, &MainWindow::timelineApplied);
        QTest::mouseClick(dialog->fetchButton(), Qt::LeftButton);
        if (!applied.wait(30000)) {
            ADD_FAILURE() << dialog->errorText().toStdString();
            return nullptr;
        }
        return window.comparisonView()->timelineView();
    }
};

TEST_F(TimelineDetectedSwitchTest, WithoutAChangeTimeTheDetectedSwitchIsUsedAndTheRolloutShaded) {
    TestHttpServer server(rollingUpdateReply);
    MainWindow window;
    TimelineView* view = fetchInto(window, settingsFor(server.baseUrl()));
    ASSERT_NE(view, nullptr);
    const auto& timeline = window.current()->document.timeline;
    ASSERT_TRUE(timeline.has_value());
    ASSERT_TRUE(timeline->settings.changeAt.has_value());
    EXPECT_DOUBLE_EQ(*timeline->settings.changeAt, kSwitchAt);
    EXPECT_TRUE(timeline->settings.changeAtDetected);
    // The marker at the switch; the card compares around it (1000 → 1500).
    ASSERT_NE(view->changeMarker(), nullptr);
    EXPECT_DOUBLE_EQ(view->changeMarker()->at(0).x(), kSwitchAt * 1000.0);
    // Where the time came from, with the rollout, and nothing to "use" (it is in use).
    const QString text = view->suggestionText();
    EXPECT_TRUE(text.contains(QStringLiteral("from cache_config_info: engine 0 of %1 switched to fp8_e4m3")
                                  .arg(QString::fromUtf8(kSwitchModel))))
        << text.toStdString();
    EXPECT_TRUE(text.contains(QStringLiteral("no change time was entered"))) << text.toStdString();
    EXPECT_TRUE(text.contains(QStringLiteral("engine 1 at"))) << text.toStdString();
    auto* use = view->findChild<QPushButton*>(QStringLiteral("useDetectedChange"));
    ASSERT_NE(use, nullptr);
    EXPECT_TRUE(use->isHidden());
    // The rollout, shaded from the first engine's switch to the last's.
    auto* rollout = view->rolloutSeries();
    ASSERT_NE(rollout, nullptr);
    ASSERT_EQ(rollout->upperSeries()->count(), 2);
    EXPECT_DOUBLE_EQ(rollout->upperSeries()->at(0).x(), kSwitchAt * 1000.0);
    EXPECT_DOUBLE_EQ(rollout->upperSeries()->at(1).x(), kLastEngineAt * 1000.0);

    if (const QString dir = qEnvironmentVariable("FP8DASH_SWITCH_SHOTS"); !dir.isEmpty()) {
        QDir().mkpath(dir);
        for (const ThemeMode mode : {ThemeMode::Light, ThemeMode::Dark}) {
            Theme::instance()->setMode(mode);
            for (const QSize size : {QSize(1366, 768), QSize(1920, 1080)}) {
                window.resize(size);
                QTest::qWait(200);
                const QString name = QStringLiteral("%1/timeline-%2-%3x%4.png")
                                         .arg(dir, themeModeName(mode))
                                         .arg(size.width())
                                         .arg(size.height());
                EXPECT_TRUE(window.grab().save(name)) << name.toStdString();
            }
        }
        Theme::instance()->setMode(ThemeMode::Light);
    }
}

TEST_F(TimelineDetectedSwitchTest, AnEnteredChangeTimeWinsAndTheSwitchStaysOnOffer) {
    TestHttpServer server(rollingUpdateReply);
    MainWindow window;
    auto settings = settingsFor(server.baseUrl());
    const double entered = kSwitchAt + 1800;
    settings.changeAt = entered;
    TimelineView* view = fetchInto(window, settings);
    ASSERT_NE(view, nullptr);
    const auto& timeline = window.current()->document.timeline;
    EXPECT_DOUBLE_EQ(*timeline->settings.changeAt, entered);
    EXPECT_FALSE(timeline->settings.changeAtDetected);
    EXPECT_EQ(view->rolloutSeries(), nullptr);
    EXPECT_TRUE(view->suggestionText().contains(QStringLiteral("The change time entered")))
        << view->suggestionText().toStdString();
    auto* use = view->findChild<QPushButton*>(QStringLiteral("useDetectedChange"));
    ASSERT_NE(use, nullptr);
    EXPECT_FALSE(use->isHidden());
    // Using it: the switch's time, chosen by the user now.
    QTest::mouseClick(use, Qt::LeftButton);
    EXPECT_DOUBLE_EQ(*window.current()->document.timeline->settings.changeAt, kSwitchAt);
    EXPECT_FALSE(window.current()->document.timeline->settings.changeAtDetected);
}

TEST_F(TimelineDetectedSwitchTest, SwitchesOfTwoModelsGiveNoChangeTimeAndNameBoth) {
    s_twoModels = true;
    TestHttpServer server(rollingUpdateReply);
    MainWindow window;
    TimelineView* view = fetchInto(window, settingsFor(server.baseUrl()));
    ASSERT_NE(view, nullptr);
    const auto& timeline = window.current()->document.timeline;
    EXPECT_FALSE(timeline->settings.changeAt.has_value());
    EXPECT_EQ(view->changeMarker(), nullptr);
    const QString text = view->suggestionText();
    EXPECT_TRUE(text.contains(QString::fromUtf8(kSwitchModel))) << text.toStdString();
    EXPECT_TRUE(text.contains(QString::fromUtf8(kOtherModel))) << text.toStdString();
    EXPECT_TRUE(text.contains(QStringLiteral("Series field"))) << text.toStdString();
    EXPECT_FALSE(text.contains(QStringLiteral("--"))) << "GUI words, no CLI flags: " << text.toStdString();
    if (const QString dir = qEnvironmentVariable("FP8DASH_SWITCH_SHOTS"); !dir.isEmpty()) {
        window.resize(1366, 768);
        QTest::qWait(200);
        EXPECT_TRUE(window.grab().save(dir + QStringLiteral("/timeline-two-models-light-1366x768.png")));
    }
    // Picking one model in the Series field: its switch is the change time.
    auto settings = settingsFor(server.baseUrl());
    settings.seriesPick = std::string("model_name=") + kOtherModel;
    MainWindow picked;
    TimelineView* pickedView = fetchInto(picked, settings);
    ASSERT_NE(pickedView, nullptr);
    EXPECT_EQ(picked.current()->document.timeline->settings.changeAt, kLastEngineAt);
    EXPECT_TRUE(
        pickedView->suggestionText().contains(QStringLiteral("engine 1 of %1").arg(QString::fromUtf8(kOtherModel))))
        << pickedView->suggestionText().toStdString();
}

}  // namespace
}  // namespace fp8dash::ui::test
