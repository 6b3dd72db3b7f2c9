// vLLM V1 in the timeline's GUI: the dialog's Models… menu lists the model_name values a server answers on
// /api/v1/label/model_name/values (a loopback server answering as the Prometheus HTTP API documents) and writes the
// pick; the timeline view shows the calculate_kv_scales risk and names the cache dtypes of a detected switch.
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QThreadPool>
#include <QToolButton>
#include <QtTest>

#include "fp8dash/ui/timeline_source_dialog.h"
#include "fp8dash/ui/timeline_view.h"
#include "gui_test_support.h"
#include "test_http_server.h"
#include "timeline_test_data.h"

namespace fp8dash::ui::test {
namespace {

using fp8dash::test::TestHttpServer;

class VllmPickTest : public GuiTest {
protected:
    void TearDown() override { EXPECT_TRUE(QThreadPool::globalInstance()->waitForDone(30000)); }
};

TestHttpServer::Reply labelValues(const TestHttpServer::Request& r) {
    if (r.path != "/api/v1/label/model_name/values") return TestHttpServer::Reply::json(404, R"({"status":"error"})");
    return TestHttpServer::Reply::json(
        200, R"({"status":"success","data":["Qwen/Qwen2.5-7B-Instruct","meta-llama/Llama-3.1-8B-Instruct"]})");
}

QMenu* openModelMenu(TimelineSourceDialog& dialog) {
    auto* button = dialog.findChild<QToolButton*>(QStringLiteral("modelPick"));
    if (!button) return nullptr;
    QTest::mouseClick(button, Qt::LeftButton);
    auto* menu = button->findChild<QMenu*>();
    if (!menu || !QTest::qWaitFor([menu] { return menu->isVisible(); }, 20000)) return nullptr;
    return menu;
}

TEST_F(VllmPickTest, ModelsMenuListsTheServersModelNamesAndWritesThePick) {
    TestHttpServer server(labelValues);
    TimelineSourceDialog dialog;
    TimelineSettings s;
    s.prometheusUrl = server.baseUrl();
    s.from = kFakePrometheusFrom;
    s.to = kFakePrometheusTo;
    dialog.setSettings(s);
    dialog.show();
    QMenu* menu = openModelMenu(dialog);
    ASSERT_NE(menu, nullptr);
    QStringList texts;
    for (QAction* a : menu->actions())
        if (!a->isSeparator()) texts << a->text();
    ASSERT_EQ(texts.size(), 3) << texts.join(QLatin1Char('|')).toStdString();
    EXPECT_EQ(texts[1], QStringLiteral("Qwen/Qwen2.5-7B-Instruct"));
    EXPECT_EQ(texts[2], QStringLiteral("meta-llama/Llama-3.1-8B-Instruct"));

    // The request: the label values of the throughput metric, in the dialog's range.
    const auto requests = server.requests();
    ASSERT_EQ(requests.size(), 1u);
    EXPECT_EQ(requests[0].queryValue("match[]"), std::optional<std::string>("vllm:generation_tokens_total"));
    EXPECT_TRUE(requests[0].queryValue("start").has_value());
    EXPECT_TRUE(requests[0].queryValue("end").has_value());

    auto* field = dialog.findChild<QLineEdit*>(QStringLiteral("seriesPick"));
    ASSERT_NE(field, nullptr);
    menu->actions().back()->trigger();
    EXPECT_EQ(field->text(), QStringLiteral("model_name=meta-llama/Llama-3.1-8B-Instruct"));
    auto request = dialog.request();
    ASSERT_TRUE(request.ok()) << request.error().message;
    EXPECT_EQ(request->settings.seriesPick, "model_name=meta-llama/Llama-3.1-8B-Instruct");
    menu->hide();
    menu = openModelMenu(dialog);
    ASSERT_NE(menu, nullptr);
    menu->actions().front()->trigger();  // All models
    EXPECT_TRUE(field->text().isEmpty());
    menu->hide();
}

TEST_F(VllmPickTest, ModelsMenuSaysWhyWhenTheServerCannotAnswer) {
    TimelineSourceDialog dialog;
    TimelineSettings s;
    s.prometheusUrl = "http://127.0.0.1:" + std::to_string(fp8dash::test::closedPort());
    s.from = kFakePrometheusFrom;
    s.to = kFakePrometheusTo;
    dialog.setSettings(s);
    dialog.show();
    QMenu* menu = openModelMenu(dialog);
    ASSERT_NE(menu, nullptr);
    ASSERT_EQ(menu->actions().size(), 1);
    EXPECT_FALSE(menu->actions()[0]->isEnabled());
    EXPECT_TRUE(menu->actions()[0]->text().contains(QString::fromStdString(s.prometheusUrl)))
        << menu->actions()[0]->text().toStdString();
    menu->hide();
}

TEST_F(VllmPickTest, TimelineViewShowsTheKvScalesRisk) {
    TimelineData data = dayTimeline();
    data.kvScalesRisk = KvScalesRisk{data.settings.from + 3600, "fp8", {"{engine=\"0\"}"}};
    data.detectedChange = DetectedChange{kChangeAt + 1800, "nvfp4", "fp8_e4m3"};  // not the change time in use
    TimelineView view;
    view.setTimeline(&data, nullptr);
    view.show();
    auto* warnings = view.findChild<QLabel*>(QStringLiteral("timelineWarnings"));
    ASSERT_NE(warnings, nullptr);
    EXPECT_FALSE(warnings->isHidden());
    EXPECT_TRUE(warnings->text().contains(QStringLiteral("⚠ Risk: FP8 KV cache without calculated scales")))
        << warnings->text().toStdString();
    EXPECT_TRUE(warnings->text().contains(QStringLiteral("{engine=\"0\"}")));
    bool named = false;
    for (auto* label : view.findChildren<QLabel*>())
        named |= label->text().contains(QStringLiteral("nvfp4 (4-bit NVFP4, not FP8) → fp8_e4m3 (FP8 E4M3"));
    EXPECT_TRUE(named);
}

}  // namespace
}  // namespace fp8dash::ui::test
