// Issue 39, "Tabs about the compared model": the Capacity and Local benchmarks tabs plan and measure the model the
// comparison's runs name, never another model's figures as this one's. A Qwen3.5-27B comparison (a model outside
// fp8dash's table) shows "Unknown: choose the model" and no plan, and figures for another model say so; the demo
// (Meta-Llama-3-8B-Instruct) shows its own model. Expected figures are computed here from the models' published
// config.json values. FP8DASH_SCREENSHOT_DIR, when set, receives both tabs at 1366 x 768 and 1920 x 1080, light and
// dark.
#include <QComboBox>
#include <QLabel>
#include <QPushButton>
#include <QTabWidget>
#include <QtTest>

#include "fp8dash/core/comparison_builder.h"
#include "fp8dash/core/local_bench.h"
#include "fp8dash/ui/bench_view.h"
#include "fp8dash/ui/capacity_table_model.h"
#include "fp8dash/ui/capacity_view.h"
#include "fp8dash/ui/comparison_view.h"
#include "fp8dash/ui/main_window.h"
#include "fp8dash/ui/theme.h"
#include "gui_test_support.h"
#include "test_paths.h"

namespace fp8dash::ui::test {
namespace {

class ComparedModelTabsTest : public GuiTest {
protected:
    void TearDown() override { Theme::instance()->setMode(ThemeMode::Light); }
};

// The vLLM blog's Qwen3.5-27B 2x2 (tests/data/lm-eval-variants): BF16 against three FP8 variants.
ComparisonDocument qwen35Comparison() {
    const std::filesystem::path root = fp8dash::test::testData() / "lm-eval-variants" / "qwen3.5-27b";
    ComparisonInputs in;
    in.baselinePath = root / "bf16";
    in.candidatePath = root / "fp8-weights-kv";
    in.moreCandidatePaths = {root / "fp8-kv", root / "fp8-weights"};
    auto built = buildComparison(in);
    EXPECT_TRUE(built.ok()) << (built.ok() ? "" : built.error().message);
    return built.ok() ? built->document : ComparisonDocument{};
}

// Results of a CPU run of the KV sweep with Llama 3.1 8B's shapes, as the demo holds them.
BenchResults llama31KvResults() {
    const Json demo = demoJson();
    auto r = parseBenchResults(demo.at("benchmarks"), "demo benchmarks");
    EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message);
    EXPECT_EQ(r->model, "llama-3.1-8b");
    return r.ok() ? *r : BenchResults{};
}

QString labelText(const QWidget* root, const char* objectName) {
    const auto* label = root->findChild<QLabel*>(QString::fromLatin1(objectName));
    return label ? label->text() : QString();
}

// Every label a user reads on a tab, and the current choice of each combo box (not the lists of presets).
QString visibleWords(const QWidget* root) {
    QString words;
    for (const QLabel* label : root->findChildren<QLabel*>())
        if (label->isVisibleTo(root)) words += label->text() + QLatin1Char('\n');
    for (const QComboBox* combo : root->findChildren<QComboBox*>())
        if (combo->isVisibleTo(root)) words += combo->currentText() + QLatin1Char('\n');
    return words;
}

void shoot(MainWindow& window, ComparisonView::Tab tab, const QString& name) {
    if (qEnvironmentVariableIsEmpty("FP8DASH_SCREENSHOT_DIR")) return;
    for (const QSize size : {QSize(1366, 768), QSize(1920, 1080)}) {
        for (const ThemeMode mode : {ThemeMode::Light, ThemeMode::Dark}) {
            Theme::instance()->setMode(mode);
            window.resize(size);
            window.comparisonView()->showTab(tab);
            QCoreApplication::processEvents();
            saveScreenshot(window,
                           QStringLiteral("%1-%2x%3-%4.png")
                               .arg(name)
                               .arg(size.width())
                               .arg(size.height())
                               .arg(mode == ThemeMode::Dark ? QStringLiteral("dark") : QStringLiteral("light")));
        }
    }
    Theme::instance()->setMode(ThemeMode::Light);
}

TEST_F(ComparedModelTabsTest, AQwen35ComparisonShowsModelUnknownNeverLlama) {
    MainWindow window;
    window.resize(1366, 768);
    window.show();
    window.showDocument(qwen35Comparison(), {}, QStringLiteral("qwen3.5-27b"));
    ASSERT_NE(window.current(), nullptr);
    ASSERT_EQ(window.current()->document.baseline.results.modelName, "Qwen/Qwen3.5-27B");

    // Capacity: no plan, Model says the model is unknown, and the note asks for it by the runs' name.
    window.showCapacity();
    CapacityView* capacity = window.comparisonView()->capacityView();
    capacity->setLocalDevice(noGpu());
    EXPECT_EQ(capacity->modelCombo()->currentData().toString(), QString());
    EXPECT_TRUE(capacity->modelCombo()->currentText().contains(QStringLiteral("Unknown")));
    EXPECT_EQ(capacity->selectedResult(), nullptr);
    EXPECT_EQ(capacity->bf16Result(), nullptr);
    EXPECT_EQ(capacity->errorText(), QString());  // not an error: a question
    const QString note = capacity->modelNoteText();
    EXPECT_TRUE(note.contains(QStringLiteral("Qwen/Qwen3.5-27B"))) << note.toStdString();
    EXPECT_TRUE(note.contains(QStringLiteral("not in fp8dash's table"))) << note.toStdString();
    EXPECT_TRUE(note.contains(QStringLiteral("config.json"))) << note.toStdString();
    EXPECT_FALSE(visibleWords(capacity).contains(QStringLiteral("llama"), Qt::CaseInsensitive))
        << visibleWords(capacity).toStdString();
    for (int row = 0; row < capacity->tableModel()->rowCount(); ++row)
        for (int column = 0; column < capacity->tableModel()->columnCount(); ++column)
            EXPECT_EQ(capacity->tableModel()->index(row, column).data().toString(), QStringLiteral("—"))
                << row << "," << column << ": no figure without a model";
    EXPECT_FALSE(window.isModified());  // showing it changes nothing
    shoot(window, ComparisonView::CapacityTab, QStringLiteral("capacity-qwen35-unknown"));

    // Benchmarks: Run needs a model; the note names the compared one.
    window.comparisonView()->showTab(ComparisonView::BenchTab);
    BenchView* bench = window.comparisonView()->benchView();
    bench->setLocalDevice(noGpu());
    EXPECT_EQ(bench->modelCombo()->currentData().toString(), QString());
    EXPECT_FALSE(bench->runButton()->isEnabled());
    EXPECT_TRUE(bench->modelNoteText().contains(QStringLiteral("Qwen/Qwen3.5-27B")))
        << bench->modelNoteText().toStdString();
    EXPECT_FALSE(visibleWords(bench).contains(QStringLiteral("llama"), Qt::CaseInsensitive))
        << visibleWords(bench).toStdString();
    shoot(window, ComparisonView::BenchTab, QStringLiteral("bench-qwen35-unknown"));

    // Choosing an architecture plans it, said to be another model than the compared one, and is kept.
    capacity->modelCombo()->setCurrentIndex(capacity->modelCombo()->findData(QStringLiteral("qwen2.5-72b")));
    ASSERT_NE(capacity->selectedResult(), nullptr) << capacity->errorText().toStdString();
    // Qwen/Qwen2.5-72B config.json: 80 layers, 8 KV heads, head_dim 8192 / 64 = 128; FP8 KV: 1 byte an element.
    EXPECT_EQ(capacity->selectedResult()->kvBytesPerToken, 2u * 80 * 8 * 128 * 1);
    EXPECT_TRUE(
        capacity->modelNoteText().contains(QStringLiteral("These figures are for qwen2.5-72b, not the compared")))
        << capacity->modelNoteText().toStdString();
    EXPECT_FALSE(capacity->useComparedButton()->isVisibleTo(capacity));  // the compared model is unknown
    ASSERT_TRUE(window.current()->document.capacity.has_value());
    EXPECT_EQ(window.current()->document.capacity->model, "qwen2.5-72b");
    bench->modelCombo()->setCurrentIndex(bench->modelCombo()->findData(QStringLiteral("qwen2.5-7b")));
    EXPECT_TRUE(bench->runButton()->isEnabled());
}

// Figures saved for another model say so: results measured with Llama 3.1 8B's shapes and a capacity plan for it, in
// a Qwen3.5-27B comparison.
TEST_F(ComparedModelTabsTest, SavedFiguresForAnotherModelSaySo) {
    ComparisonDocument doc = qwen35Comparison();
    CapacitySettings saved;
    saved.model = "llama-3.1-8b";
    doc.capacity = saved;
    doc.benchmarks = llama31KvResults();
    MainWindow window;
    window.resize(1366, 768);
    window.show();
    window.showDocument(doc, {}, QStringLiteral("qwen3.5-27b with llama figures"));
    CapacityView* capacity = window.comparisonView()->capacityView();
    capacity->setLocalDevice(noGpu());
    EXPECT_EQ(capacity->settings(), saved);  // the saved plan is shown as saved...
    const QString note = capacity->modelNoteText();
    EXPECT_TRUE(note.contains(QStringLiteral("These figures are for llama-3.1-8b, not the compared model")))
        << note.toStdString();  // ...and said to be another model's
    EXPECT_TRUE(note.contains(QStringLiteral("Qwen/Qwen3.5-27B"))) << note.toStdString();
    window.comparisonView()->showTab(ComparisonView::CapacityTab);
    shoot(window, ComparisonView::CapacityTab, QStringLiteral("capacity-qwen35-saved-llama"));

    BenchView* bench = window.comparisonView()->benchView();
    bench->setLocalDevice(noGpu());
    EXPECT_TRUE(bench->modelNoteText().contains(
        QStringLiteral("These results use llama-3.1-8b's layer shapes and KV heads, not the compared model's")))
        << bench->modelNoteText().toStdString();
    EXPECT_TRUE(bench->kvHeadlineText().contains(QStringLiteral("FP8 KV cache of llama-3.1-8b:")))
        << bench->kvHeadlineText().toStdString();
    EXPECT_EQ(bench->modelCombo()->currentData().toString(), QString());  // the next run: the compared model, unknown
    shoot(window, ComparisonView::BenchTab, QStringLiteral("bench-qwen35-saved-llama"));
}

// A compared model the table knows: a plan saved for another model offers "Plan for …", which plans the compared
// model and keeps it in the document.
TEST_F(ComparedModelTabsTest, PlanForTheComparedModelReplacesAnotherModelsPlan) {
    ComparisonDocument doc = qwen35Comparison();
    doc.baseline.results.modelName = "Qwen/Qwen2.5-7B-Instruct";
    doc.candidate.results.modelName = "Qwen/Qwen2.5-7B-Instruct-FP8";
    CapacitySettings saved;
    saved.model = "llama-3.1-70b";
    doc.capacity = saved;
    MainWindow window;
    window.showDocument(doc, {}, QStringLiteral("qwen2.5-7b"));
    CapacityView* capacity = window.comparisonView()->capacityView();
    capacity->setLocalDevice(noGpu());
    EXPECT_TRUE(
        capacity->modelNoteText().contains(QStringLiteral("the compared runs' model is Qwen/Qwen2.5-7B-Instruct")))
        << capacity->modelNoteText().toStdString();
    ASSERT_TRUE(capacity->useComparedButton()->isVisibleTo(capacity));
    EXPECT_TRUE(capacity->useComparedButton()->text().contains(QStringLiteral("qwen2.5-7b")));
    window.show();
    shoot(window, ComparisonView::CapacityTab, QStringLiteral("capacity-qwen25-saved-llama70b"));
    QTest::mouseClick(capacity->useComparedButton(), Qt::LeftButton);
    EXPECT_EQ(capacity->settings().model, "qwen2.5-7b");
    EXPECT_EQ(capacity->modelNoteText(), QString());
    ASSERT_NE(capacity->selectedResult(), nullptr);
    // Qwen/Qwen2.5-7B config.json: 28 layers, 4 KV heads, head_dim 3584 / 28 = 128.
    EXPECT_EQ(capacity->selectedResult()->kvBytesPerToken, 2u * 28 * 4 * 128 * 1);
    ASSERT_TRUE(window.current()->document.capacity.has_value());
    EXPECT_EQ(window.current()->document.capacity->model, "qwen2.5-7b");
    EXPECT_TRUE(window.isModified());

    // Without a saved plan, a new one is for the compared model, and the next benchmark run uses its shapes.
    doc.capacity.reset();
    MainWindow fresh;
    fresh.showDocument(doc, {}, QStringLiteral("qwen2.5-7b fresh"));
    EXPECT_EQ(fresh.comparisonView()->capacityView()->settings().model, "qwen2.5-7b");
    EXPECT_EQ(fresh.comparisonView()->benchView()->modelCombo()->currentData().toString(),
              QStringLiteral("qwen2.5-7b"));
    EXPECT_EQ(fresh.comparisonView()->benchView()->runOptions().model, "qwen2.5-7b");
}

// The demo compares Meta-Llama-3-8B-Instruct: its capacity plan is for Llama 3 8B, and its benchmarks, measured with
// Llama 3.1 8B's shapes, are said to have the same architecture.
TEST_F(ComparedModelTabsTest, TheDemoShowsItsOwnModel) {
    MainWindow window;
    window.resize(1366, 768);
    window.show();
    window.openDemo();
    ASSERT_NE(window.current(), nullptr);
    CapacityView* capacity = window.comparisonView()->capacityView();
    capacity->setLocalDevice(noGpu());
    EXPECT_EQ(capacity->settings().model, "llama-3-8b");
    EXPECT_EQ(capacity->modelNoteText(), QString());
    EXPECT_TRUE(labelText(capacity, "capacitySummary").contains(QStringLiteral("llama-3-8b")))
        << labelText(capacity, "capacitySummary").toStdString();
    EXPECT_FALSE(labelText(capacity, "capacitySummary").contains(QStringLiteral("llama-3.1")));
    EXPECT_TRUE(labelText(capacity, "capacityModelInfo").contains(QStringLiteral("the compared runs' model")))
        << labelText(capacity, "capacityModelInfo").toStdString();
    ASSERT_NE(capacity->selectedResult(), nullptr);
    // meta-llama/Meta-Llama-3-8B config.json: 32 layers, 8 KV heads, head_dim 4096 / 32 = 128; FP8 KV.
    EXPECT_EQ(capacity->selectedResult()->kvBytesPerToken, 2u * 32 * 8 * 128 * 1);
    EXPECT_FALSE(window.isModified());
    shoot(window, ComparisonView::CapacityTab, QStringLiteral("capacity-demo"));

    BenchView* bench = window.comparisonView()->benchView();
    bench->setLocalDevice(noGpu());
    const QString note = bench->modelNoteText();
    EXPECT_TRUE(
        note.contains(QStringLiteral("llama-3.1-8b's layer shapes and KV heads, the same architecture as the "
                                     "compared runs' model, meta-llama/Meta-Llama-3-8B-Instruct")))
        << note.toStdString();
    EXPECT_TRUE(bench->kvHeadlineText().contains(QStringLiteral("FP8 KV cache of llama-3.1-8b:")))
        << bench->kvHeadlineText().toStdString();
    EXPECT_EQ(bench->modelCombo()->currentData().toString(), QStringLiteral("llama-3-8b"));  // the next run
    shoot(window, ComparisonView::BenchTab, QStringLiteral("bench-demo"));
}

}  // namespace
}  // namespace fp8dash::ui::test
