// "Measure My Model's KV Cache…" in the Local benchmarks tab: a small dump from the test writer chosen through the
// chooser hook, its shape in the confirmation before anything runs, the KV sweep over it landing in the document,
// Cancel, and a broken file named in the status line and a message box.
#include <QMessageBox>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

#include "fp8dash/ui/bench_view.h"
#include "fp8dash/ui/comparison_view.h"
#include "fp8dash/ui/main_window.h"
#include "gui_test_support.h"
#include "safetensors_writer.h"

namespace fp8dash::ui::test {
namespace {

class BenchKvDumpTest : public GuiTest {};

// A stacked BF16 dump [layers, kv_heads, tokens, head_dim] of values BF16 holds exactly.
std::string tinyDump(std::uint64_t layers, std::uint64_t heads, std::uint64_t tokens, std::uint64_t dim) {
    std::vector<std::uint16_t> k, v;
    for (std::uint64_t i = 0; i < layers * heads * tokens * dim; ++i) {
        k.push_back(fp8dash::test::bf16BitsOfExact(static_cast<float>(static_cast<int>(i % 29) - 14) * 0.5f));
        v.push_back(fp8dash::test::bf16BitsOfExact(static_cast<float>(static_cast<int>(i % 17) - 8) / 16.0f));
    }
    const std::vector<std::uint64_t> shape{layers, heads, tokens, dim};
    return fp8dash::test::safetensorsFile(
        {{"key", "BF16", shape, fp8dash::test::le16(k)}, {"value", "BF16", shape, fp8dash::test::le16(v)}},
        {{"model", "test/tiny"}});
}

// Writes bytes as name in dir; returns the path.
std::string writeIn(const QTemporaryDir& dir, const std::string& name, const std::string& bytes) {
    const std::string path = dir.filePath(QString::fromStdString(name)).toStdString();
    fp8dash::test::writeBinaryFile(path, bytes);
    return path;
}

// Asks the view to measure a dump, on a machine without a GPU; returns the confirmation it shows (null: none).
QMessageBox* askToMeasure(BenchView& view, const std::string& path) {
    view.setLocalDevice(noGpu());
    view.measureKvDump(QString::fromStdString(path));
    return view.findChild<QMessageBox*>(QStringLiteral("kvDumpConfirm"));
}

QPushButton* buttonNamed(QMessageBox* box, const QString& text) {
    for (QAbstractButton* b : box->buttons())
        if (b->text() == text) return qobject_cast<QPushButton*>(b);
    return nullptr;
}

TEST_F(BenchKvDumpTest, ShowsTheShapeThenSweepsTheDumpIntoTheDocument) {
    QTemporaryDir dir;
    const std::string path = writeIn(dir, "tiny.safetensors", tinyDump(2, 2, 48, 16));
    MainWindow window;
    window.showBenchmarks();
    BenchView* view = window.comparisonView()->benchView();
    view->setLocalDevice(noGpu());
    view->setKvDumpChooser([&] { return QString::fromStdString(path); });
    view->kvDumpButton()->click();

    auto* box = view->findChild<QMessageBox*>(QStringLiteral("kvDumpConfirm"));
    ASSERT_NE(box, nullptr);
    EXPECT_FALSE(view->isRunning());  // nothing runs before the user says so
    const QString shape = QStringLiteral(
        "tiny.safetensors (BF16, test/tiny): 2 layers × 2 KV heads × 48 tokens × "
        "16 dims");
    EXPECT_TRUE(box->text().contains(shape)) << box->text().toStdString();
    EXPECT_EQ(view->kvDumpText(), shape);

    QSignalSpy finished(view, &BenchView::runFinished);
    QSignalSpy failed(view, &BenchView::runFailed);
    QPushButton* measure = buttonNamed(box, QStringLiteral("Measure"));
    ASSERT_NE(measure, nullptr);
    measure->click();
    ASSERT_TRUE(view->isRunning());
    EXPECT_FALSE(view->kvDumpButton()->isEnabled());
    ASSERT_TRUE(finished.wait(20000));
    EXPECT_EQ(failed.count(), 0);
    EXPECT_TRUE(view->kvDumpButton()->isEnabled());
    ASSERT_NE(window.current(), nullptr);
    const auto& saved = window.current()->document.benchmarks;
    ASSERT_TRUE(saved.has_value());
    EXPECT_TRUE(saved->gemm.empty());  // the KV part alone
    EXPECT_TRUE(saved->bandwidth.empty());
    // The dump's default contexts: the standard ones below its 48 tokens (none), then all 48; three scalings.
    ASSERT_EQ(saved->kv.size(), 3u);
    for (const BenchKvPoint& p : saved->kv) EXPECT_EQ(p.context, 48);
}

TEST_F(BenchKvDumpTest, CancelInTheConfirmationRunsNothing) {
    QTemporaryDir dir;
    const std::string path = writeIn(dir, "tiny.safetensors", tinyDump(1, 1, 8, 4));
    BenchView view;
    QMessageBox* box = askToMeasure(view, path);
    ASSERT_NE(box, nullptr);
    box->button(QMessageBox::Cancel)->click();
    EXPECT_FALSE(view.isRunning());
}

TEST_F(BenchKvDumpTest, CancelDuringTheSweepKeepsWhatFinished) {
    QTemporaryDir dir;
    const std::string path = writeIn(dir, "tiny.safetensors", tinyDump(2, 2, 64, 16));
    BenchView view;
    QMessageBox* box = askToMeasure(view, path);
    ASSERT_NE(box, nullptr);
    QSignalSpy finished(&view, &BenchView::runFinished);
    buttonNamed(box, QStringLiteral("Measure"))->click();
    ASSERT_TRUE(view.isRunning());
    view.cancelButton()->click();
    ASSERT_TRUE(finished.wait(20000));
    ASSERT_EQ(finished.count(), 1);
    EXPECT_TRUE(view.statusText().contains(QStringLiteral("Cancelled"))) << view.statusText().toStdString();
}

TEST_F(BenchKvDumpTest, ABrokenDumpIsNamedAndNothingRuns) {
    QTemporaryDir dir;
    const std::string bytes = tinyDump(1, 2, 8, 4);
    const std::string path = writeIn(dir, "cut.safetensors", bytes.substr(0, bytes.size() - 6));
    BenchView view;
    view.setLocalDevice(noGpu());
    view.setKvDumpChooser([&] { return QString::fromStdString(path); });
    view.measureKvDump();
    EXPECT_FALSE(view.isRunning());
    EXPECT_EQ(view.findChild<QMessageBox*>(QStringLiteral("kvDumpConfirm")), nullptr);
    const QString status = view.statusText();
    EXPECT_TRUE(status.contains(QString::fromStdString(path))) << status.toStdString();
    EXPECT_TRUE(status.contains(QStringLiteral("tensor &quot;value&quot;"))) << status.toStdString();
    auto* error = view.findChild<QMessageBox*>(QStringLiteral("kvDumpError"));
    ASSERT_NE(error, nullptr);
    EXPECT_TRUE(error->text().contains(QStringLiteral("cut.safetensors: tensor \"value\": data_offsets")))
        << error->text().toStdString();
}

TEST_F(BenchKvDumpTest, TheBenchMenuOffersIt) {
    MainWindow window;
    QAction* found = nullptr;
    for (QAction* a : window.findChildren<QAction*>())
        if (a->text() == QStringLiteral("&Measure My Model's KV Cache…")) found = a;
    ASSERT_NE(found, nullptr);
    EXPECT_EQ(found->shortcut(), QKeySequence(QStringLiteral("Ctrl+Alt+B")));
}

}  // namespace
}  // namespace fp8dash::ui::test
