// The Capacity tab: its numbers are planCapacity's for the same inputs (what `fp8dash capacity --format json` prints),
// one checked by hand; the BF16 column beside the chosen dtypes; this machine's GPU; a config.json model; bad inputs
// shown as errors; the inputs saved into the document and restored from a file.
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFile>
#include <QFileInfo>
#include <QFormLayout>
#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QtTest>

#include "fp8dash/core/capacity.h"
#include "fp8dash/core/vllm_memory.h"
#include "fp8dash/ui/capacity_table_model.h"
#include "fp8dash/ui/capacity_view.h"
#include "fp8dash/ui/comparison_view.h"
#include "fp8dash/ui/main_window.h"
#include "fp8dash/ui/theme.h"
#include "gui_test_support.h"

namespace fp8dash::ui::test {
namespace {

class CapacityViewTest : public GuiTest {};

// planCapacity's inputs built here from the presets, the way the CLI does for the same options.
// vllm: the release whose accounting sizes the plan (a fresh tab's), or nullptr for the flat overhead.
CapacityResult plan(const std::string& model, const std::string& gpu, int gpus, StorageDtype weights, StorageDtype kv,
                    double utilisation, long long context, double overhead, const char* vllm = kDefaultVllmVersion) {
    CapacityInputs in;
    const ModelArchitecture* m = findModelPreset(model);
    EXPECT_NE(m, nullptr) << model;
    in.model = *m;
    const auto g = findGpuPreset(gpu);
    EXPECT_TRUE(g.has_value()) << gpu;
    in.gpu = *g;
    in.gpus = gpus;
    in.weights = weights;
    in.kv = kv;
    in.gpuUtilization = utilisation;
    in.contextTokens = context;
    in.overheadGiB = overhead;
    if (vllm) {
        VllmServeSettings v;
        v.version = vllm;
        in.vllm = v;
    }
    auto r = planCapacity(in);
    EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message);
    return std::move(r).value();
}

double value(const CapacityView& view, int row, int column) {
    return view.tableModel()->index(row, column).data(Qt::UserRole).toDouble();
}
QString text(const CapacityView& view, int row, int column) {
    return view.tableModel()->index(row, column).data(Qt::DisplayRole).toString();
}

// The decode estimate is for 32 sequences (the seed article's batch): where they do not fit at the context, the text
// says so for the variant that cannot hold them. 8B on one H100 at 32K: BF16 holds 13 (456,704 tokens, vLLM's
// accounting), FP8 weights and KV 31 (1,019,904): neither holds 32; at the default 8K both do.
TEST_F(CapacityViewTest, DecodeSaysWhereItsBatchDoesNotFit) {
    CapacityView view;
    view.setLocalDevice(noGpu());
    EXPECT_FALSE(view.decodeText().contains(QStringLiteral("do not fit"))) << view.decodeText().toStdString();
    CapacitySettings s = view.settings();
    s.contextTokens = 32768;
    view.setSettings(&s);
    EXPECT_TRUE(view.decodeText().contains(
        QStringLiteral("32 sequences of 32,768 tokens do not fit in the BF16 and FP8 KV cache")))
        << view.decodeText().toStdString();
}

TEST_F(CapacityViewTest, DefaultsMatchPlanCapacityAndTheHandComputedKvBytes) {
    CapacityView view;
    view.setLocalDevice(noGpu());
    const CapacitySettings s = view.settings();
    CapacitySettings fresh;  // capacity.h's defaults: llama-3.1-8b on one H100 SXM, FP8 weights and KV...
    fresh.vllmVersion = kDefaultVllmVersion;  // ...sized as vLLM sizes it
    EXPECT_EQ(s, fresh);
    ASSERT_NE(view.selectedResult(), nullptr) << view.errorText().toStdString();
    ASSERT_NE(view.bf16Result(), nullptr);

    const CapacityResult fp8 =
        plan("llama-3.1-8b", "h100-sxm", 1, StorageDtype::Fp8, StorageDtype::Fp8, 0.92, 8192, 2.0);
    const CapacityResult bf16 =
        plan("llama-3.1-8b", "h100-sxm", 1, StorageDtype::Bf16, StorageDtype::Bf16, 0.92, 8192, 2.0);
    EXPECT_EQ(capacityToJson(*view.selectedResult()), capacityToJson(fp8));
    EXPECT_EQ(capacityToJson(*view.bf16Result()), capacityToJson(bf16));

    // By hand: 2 (K and V) x 32 layers x 8 KV heads x 128 head dim x 2 bytes (BF16) = 131072; FP8 halves it.
    EXPECT_EQ(value(view, CapacityView::KvPerTokenRow, CapacityView::Bf16Column), 131072.0);
    EXPECT_EQ(value(view, CapacityView::KvPerTokenRow, CapacityView::SelectedColumn), 65536.0);
    EXPECT_TRUE(text(view, CapacityView::KvPerTokenRow, CapacityView::Bf16Column).contains(QStringLiteral("131,072")));
    EXPECT_EQ(text(view, CapacityView::KvPerTokenRow, CapacityView::RatioColumn), QStringLiteral("×0.50"));

    // The table shows the plans' figures.
    EXPECT_EQ(value(view, CapacityView::MaxTokensRow, CapacityView::SelectedColumn), double(fp8.maxTokens));
    EXPECT_EQ(value(view, CapacityView::MaxTokensRow, CapacityView::Bf16Column), double(bf16.maxTokens));
    EXPECT_EQ(value(view, CapacityView::MaxSequencesRow, CapacityView::SelectedColumn), double(fp8.maxSequences));
    EXPECT_EQ(text(view, CapacityView::WeightsRow, CapacityView::SelectedColumn),
              QString::fromStdString(formatBytes(fp8.weightsBytes)));
    EXPECT_EQ(text(view, CapacityView::KvCacheRow, CapacityView::Bf16Column),
              QString::fromStdString(formatBytes(bf16.kvCacheBytes)));
    EXPECT_EQ(text(view, CapacityView::FitsRow, CapacityView::SelectedColumn), QStringLiteral("yes"));
    ASSERT_TRUE(fp8.decode.has_value());
    EXPECT_EQ(value(view, CapacityView::DecodeRow, CapacityView::SelectedColumn), fp8.decode->selected.tokensPerS);
    EXPECT_EQ(value(view, CapacityView::DecodeRow, CapacityView::Bf16Column), bf16.decode->selected.tokensPerS);
    EXPECT_TRUE(view.decodeText().contains(QStringLiteral("×") + QString::number(fp8.decode->fp8Speedup, 'f', 2)))
        << view.decodeText().toStdString();
    // The max tokens agree with the definition: KV cache bytes / bytes per token.
    EXPECT_EQ(fp8.maxTokens, fp8.kvCacheBytes / fp8.kvBytesPerToken);
}

TEST_F(CapacityViewTest, EditedInputsFollowPlanCapacityLiveAndAreAnnounced) {
    CapacityView view;
    view.setLocalDevice(noGpu());
    QSignalSpy edited(&view, &CapacityView::settingsEdited);
    view.modelCombo()->setCurrentIndex(view.modelCombo()->findData(QStringLiteral("llama-3.1-70b")));
    view.gpusSpin()->setValue(4);
    view.weightsCombo()->setCurrentIndex(view.weightsCombo()->findData(QStringLiteral("bf16")));
    view.contextSpin()->setValue(32768);
    view.utilizationSpin()->setValue(0.9);
    EXPECT_TRUE(view.overheadSpin()->isEnabled() == false);  // vLLM's accounting models the overhead
    view.accountingCombo()->setCurrentIndex(view.accountingCombo()->findData(QString()));
    EXPECT_TRUE(view.overheadSpin()->isEnabled());
    view.overheadSpin()->setValue(3.5);
    EXPECT_EQ(edited.count(), 7);
    const CapacitySettings last = edited.last().at(0).value<CapacitySettings>();
    EXPECT_EQ(last, view.settings());
    EXPECT_EQ(last.model, "llama-3.1-70b");
    EXPECT_EQ(last.gpus, 4);
    EXPECT_EQ(last.weights, "bf16");
    EXPECT_EQ(last.kv, "fp8");
    EXPECT_EQ(last.vllmVersion, "");
    ASSERT_NE(view.selectedResult(), nullptr) << view.errorText().toStdString();
    const CapacityResult expected =
        plan("llama-3.1-70b", "h100-sxm", 4, StorageDtype::Bf16, StorageDtype::Fp8, 0.9, 32768, 3.5, nullptr);
    EXPECT_EQ(capacityToJson(*view.selectedResult()), capacityToJson(expected));
    // 70B: 80 layers x 8 KV heads x 128 x 2 x 2 bytes.
    EXPECT_EQ(value(view, CapacityView::KvPerTokenRow, CapacityView::Bf16Column), 2.0 * 80 * 8 * 128 * 2);

    // A model that does not fit says so in the table.
    view.gpusSpin()->setValue(1);
    view.weightsCombo()->setCurrentIndex(view.weightsCombo()->findData(QStringLiteral("bf16")));
    ASSERT_NE(view.selectedResult(), nullptr);
    EXPECT_FALSE(view.selectedResult()->fits);
    EXPECT_TRUE(text(view, CapacityView::FitsRow, CapacityView::SelectedColumn).startsWith(QStringLiteral("no: ")));
}

TEST_F(CapacityViewTest, ThisMachineIsOfferedWithAGpuAndExplainedWithout) {
    LocalDeviceStatus local;
    local.backend = "cuda";
    local.available = true;
    LocalGpu gpu;
    gpu.name = "NVIDIA H100 80GB HBM3";
    gpu.computeMajor = 9;
    gpu.memoryTotalBytes = 85'520'809'984ull;
    gpu.memoryFreeBytes = 84'000'000'000ull;
    gpu.fp8Supported = true;
    local.gpus = {gpu};

    CapacityView view;
    view.setLocalDevice(local);
    const int index = view.gpuCombo()->findData(QStringLiteral("local"));
    ASSERT_GE(index, 0);
    EXPECT_TRUE(view.gpuCombo()->itemText(index).contains(QStringLiteral("NVIDIA H100 80GB HBM3")));
    view.gpuCombo()->setCurrentIndex(index);
    ASSERT_NE(view.selectedResult(), nullptr) << view.errorText().toStdString();
    EXPECT_EQ(view.selectedResult()->inputs.gpu.source, "local");
    EXPECT_EQ(view.selectedResult()->inputs.gpu.memoryBytes, gpu.memoryFreeBytes);
    // As the CLI's --gpu local: core's gpuFromLocalDevices for the same status.
    CapacitySettings s = view.settings();
    auto inputs = CapacityView::inputsFor(s, &local);
    ASSERT_TRUE(inputs.ok());
    auto expected = planCapacity(*inputs);
    ASSERT_TRUE(expected.ok());
    EXPECT_EQ(capacityToJson(*view.selectedResult()), capacityToJson(*expected));

    view.gpusSpin()->setValue(2);  // more GPUs than this machine has
    EXPECT_EQ(view.selectedResult(), nullptr);
    EXPECT_TRUE(view.errorText().contains(QStringLiteral("more GPUs than this machine has")))
        << view.errorText().toStdString();

    // A file saved with "local", opened where there is no GPU: the choice stays, and the reason is shown.
    CapacityView other;
    other.setLocalDevice(noGpu());
    s.gpus = 1;
    other.setSettings(&s);
    EXPECT_EQ(other.settings(), s);
    EXPECT_EQ(other.selectedResult(), nullptr);
    EXPECT_TRUE(other.errorText().contains(QStringLiteral("no NVIDIA driver is loaded")))
        << other.errorText().toStdString();
}

TEST_F(CapacityViewTest, AConfigJsonModelIsReadAndABadOneIsShown) {
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("config.json"));
    QFile file(path);
    ASSERT_TRUE(file.open(QIODevice::WriteOnly));
    file.write(R"({"model_type": "llama", "architectures": ["LlamaForCausalLM"], "num_hidden_layers": 16,
                   "hidden_size": 2048, "num_attention_heads": 32, "num_key_value_heads": 8,
                   "intermediate_size": 8192, "vocab_size": 128256, "tie_word_embeddings": true})");
    file.close();

    CapacityView view;
    view.setLocalDevice(noGpu());
    QSignalSpy edited(&view, &CapacityView::settingsEdited);
    ASSERT_TRUE(view.loadConfigFile(path)) << view.errorText().toStdString();
    EXPECT_EQ(edited.count(), 1);
    EXPECT_EQ(QString::fromStdString(view.settings().model), QFileInfo(path).absoluteFilePath());
    ASSERT_NE(view.bf16Result(), nullptr) << view.errorText().toStdString();
    // head_dim = 2048 / 32 = 64: 2 x 16 x 8 x 64 x 2 bytes.
    EXPECT_EQ(view.bf16Result()->kvBytesPerToken, 2u * 16 * 8 * 64 * 2);

    const QString bad = dir.filePath(QStringLiteral("bad.json"));
    QFile badFile(bad);
    ASSERT_TRUE(badFile.open(QIODevice::WriteOnly));
    badFile.write(R"({"model_type": "llama", "hidden_size": 2048})");
    badFile.close();
    EXPECT_FALSE(view.loadConfigFile(bad));
    EXPECT_TRUE(view.errorText().contains(QStringLiteral("num_hidden_layers"))) << view.errorText().toStdString();
    EXPECT_EQ(QString::fromStdString(view.settings().model), QFileInfo(path).absoluteFilePath());  // kept
}

TEST_F(CapacityViewTest, InputsAreSavedIntoTheDocumentAndRestoredFromTheFile) {
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("capacity.fp8cmp"));
    CapacitySettings expected;
    {
        MainWindow window;
        showEvalsOnly(window);
        ASSERT_NE(window.current(), nullptr);
        EXPECT_FALSE(window.current()->document.capacity.has_value());
        window.showCapacity();
        CapacityView* view = window.comparisonView()->capacityView();
        EXPECT_EQ(window.comparisonView()->tabs()->currentWidget(), view);
        view->setLocalDevice(noGpu());
        EXPECT_FALSE(window.isModified());  // showing it changes nothing
        view->gpuCombo()->setCurrentIndex(view->gpuCombo()->findData(QStringLiteral("h200")));
        view->gpusSpin()->setValue(2);
        view->kvCombo()->setCurrentIndex(view->kvCombo()->findData(QStringLiteral("bf16")));
        view->contextSpin()->setValue(16384);
        EXPECT_TRUE(window.isModified());
        ASSERT_TRUE(window.current()->document.capacity.has_value());
        expected = *window.current()->document.capacity;
        EXPECT_EQ(expected, view->settings());
        EXPECT_EQ(expected.gpu, "h200");
        EXPECT_EQ(expected.gpus, 2);
        EXPECT_EQ(expected.kv, "bf16");
        EXPECT_EQ(expected.contextTokens, 16384);
        ASSERT_TRUE(window.saveTo(path).ok());
    }
    // The file holds the section (read with core's loader)...
    auto doc = loadComparisonFile(path.toStdString());
    ASSERT_TRUE(doc.ok()) << doc.error().message;
    ASSERT_TRUE(doc->capacity.has_value());
    EXPECT_EQ(*doc->capacity, expected);
    // ...and a window opening it shows those inputs, unmodified.
    MainWindow window;
    QSignalSpy shown(&window, &MainWindow::documentShown);
    window.openFileAsync(path);
    ASSERT_TRUE(shown.wait(20000));
    CapacityView* view = window.comparisonView()->capacityView();
    EXPECT_EQ(view->settings(), expected);
    EXPECT_EQ(view->gpusSpin()->value(), 2);
    EXPECT_FALSE(window.isModified());
    ASSERT_NE(view->selectedResult(), nullptr);
    // The runs are Meta-Llama-3-8B-Instruct: a new plan is for it (llama-3-8b), the compared model (issue 39).
    EXPECT_EQ(expected.model, "llama-3-8b");
    EXPECT_EQ(capacityToJson(*view->selectedResult()),
              capacityToJson(plan("llama-3-8b", "h200", 2, StorageDtype::Fp8, StorageDtype::Bf16, 0.92, 16384, 2.0)));

    // The demo's section: the defaults for its own model, saved before vLLM's accounting (no vllm_version: the flat
    // overhead).
    window.openDemo();
    CapacitySettings demo;
    demo.model = "llama-3-8b";
    demo.vllmVersion.clear();
    EXPECT_EQ(view->settings(), demo);
}

// "Open vLLM Log…": read off the GUI thread; what vLLM measured and the same server with an FP8 KV cache (twice the
// 476,016 tokens of this H100 run at the same 58.11 GiB); a line it cannot read is named in the error.
TEST_F(CapacityViewTest, OpenVllmLogShowsWhatVllmMeasuredAndTheFp8Answers) {
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString good = dir.filePath(QStringLiteral("server.log"));
    {
        QFile f(good);
        ASSERT_TRUE(f.open(QIODevice::WriteOnly));
        f.write(
            "INFO Model loading took 14.99 GiB memory and 14.4 seconds\n"
            "INFO Available KV cache memory: 58.11 GiB\n"
            "INFO GPU KV cache size: 476,016 tokens\n"
            "INFO Maximum concurrency for 8,192 tokens per request: 58.11x\n");
    }
    CapacityView view;
    view.setLocalDevice(noGpu());
    QSignalSpy read(&view, &CapacityView::vllmLogRead);
    view.openVllmLog(good);
    ASSERT_TRUE(read.wait(10000));
    EXPECT_TRUE(view.errorText().isEmpty()) << view.errorText().toStdString();
    EXPECT_TRUE(view.vllmLogText().contains(QStringLiteral("476,016 tokens"))) << view.vllmLogText().toStdString();
    EXPECT_TRUE(view.vllmLogText().contains(QStringLiteral("FP8 KV cache"))) << view.vllmLogText().toStdString();
    EXPECT_TRUE(view.vllmLogText().contains(QStringLiteral("952,032 tokens"))) << view.vllmLogText().toStdString();
    EXPECT_TRUE(view.vllmLogButton()->isEnabled());

    const QString bad = dir.filePath(QStringLiteral("bad.log"));
    {
        QFile f(bad);
        ASSERT_TRUE(f.open(QIODevice::WriteOnly));
        f.write("INFO start\nINFO GPU KV cache size: ??? tokens\n");
    }
    view.openVllmLog(bad);
    ASSERT_TRUE(read.wait(10000));
    EXPECT_TRUE(view.errorText().contains(QStringLiteral("bad.log:2"))) << view.errorText().toStdString();
    EXPECT_TRUE(view.vllmLogText().isEmpty());
}

TEST_F(CapacityViewTest, InputsHaveAccessibleNames) {
    CapacityView view;
    for (QWidget* w : std::initializer_list<QWidget*>{view.modelCombo(), view.configButton(), view.gpuCombo(),
                                                      view.gpusSpin(), view.weightsCombo(), view.kvCombo(),
                                                      view.utilizationSpin(), view.contextSpin(), view.overheadSpin(),
                                                      view.table(), view.accountingCombo(), view.vllmLogButton()}) {
        EXPECT_FALSE(w->accessibleName().isEmpty()) << w->objectName().toStdString();
    }
}

}  // namespace
}  // namespace fp8dash::ui::test

namespace fp8dash::ui::test {
namespace {

// A theme switch repaints the capacity tab in place: the inputs and the plan stay, the table keeps its selection,
// a plan that does not fit says so in the palette's colour, and the model is not reset.
TEST_F(CapacityViewTest, AThemeSwitchRepaintsAndKeepsInputsAndSelection) {
    const ThemeMode before = Theme::instance()->mode();
    Theme::instance()->setMode(ThemeMode::Light);
    CapacityView view;
    view.setLocalDevice(noGpu());
    view.show();
    view.modelCombo()->setCurrentIndex(view.modelCombo()->findData(QStringLiteral("llama-3.1-70b")));
    view.weightsCombo()->setCurrentIndex(view.weightsCombo()->findData(QStringLiteral("bf16")));  // 141 GB on one
    const CapacitySettings settings = view.settings();
    ASSERT_NE(view.selectedResult(), nullptr);
    ASSERT_FALSE(view.selectedResult()->fits);
    view.table()->setCurrentIndex(view.tableModel()->index(CapacityView::MaxTokensRow, CapacityView::RatioColumn));
    const QModelIndex fits = view.tableModel()->index(CapacityView::FitsRow, CapacityView::SelectedColumn);
    const QColor light = fits.data(Qt::ForegroundRole).value<QColor>();
    ASSERT_TRUE(light.isValid());
    const int resets = view.tableModel()->resetCount();
    QSignalSpy reset(view.tableModel(), &QAbstractItemModel::modelReset);
    QSignalSpy edited(&view, &CapacityView::settingsEdited);

    Theme::instance()->setMode(ThemeMode::Dark);
    EXPECT_NE(view.tableModel()
                  ->index(CapacityView::FitsRow, CapacityView::SelectedColumn)
                  .data(Qt::ForegroundRole)
                  .value<QColor>(),
              light);
    Theme::instance()->setMode(ThemeMode::Light);

    EXPECT_EQ(reset.count(), 0);
    EXPECT_EQ(view.tableModel()->resetCount(), resets);
    EXPECT_EQ(edited.count(), 0);  // not an edit of the user's
    EXPECT_EQ(view.settings(), settings);
    EXPECT_EQ(view.table()->currentIndex().row(), CapacityView::MaxTokensRow);
    EXPECT_EQ(view.table()->currentIndex().column(), CapacityView::RatioColumn);
    Theme::instance()->setMode(before);
}

// Issue 29: the memory-accounting choice in plain words ("Accounting: Flat overhead per GPU" was shown raw), with how
// each choice counts the memory in its tooltip.
TEST_F(CapacityViewTest, TheMemoryAccountingChoiceIsInPlainWords) {
    CapacityView view;
    view.setLocalDevice(noGpu());
    QComboBox* combo = view.accountingCombo();
    const int flat = combo->findData(QString());
    ASSERT_GE(flat, 0);
    combo->setCurrentIndex(flat);
    QLabel* label = nullptr;
    for (QFormLayout* form : view.findChildren<QFormLayout*>())
        if (QWidget* w = form->labelForField(combo)) label = qobject_cast<QLabel*>(w);
    ASSERT_NE(label, nullptr);
    const QString shown = label->text().remove(QLatin1Char('&')) + QLatin1Char(' ') + combo->currentText();
    EXPECT_FALSE(shown.contains(QStringLiteral("Accounting"), Qt::CaseInsensitive)) << shown.toStdString();
    EXPECT_FALSE(shown.contains(QStringLiteral("Flat overhead"), Qt::CaseInsensitive)) << shown.toStdString();
    EXPECT_TRUE(shown.contains(QStringLiteral("memory"), Qt::CaseInsensitive)) << shown.toStdString();
    EXPECT_TRUE(shown.contains(QStringLiteral("overhead"), Qt::CaseInsensitive)) << shown.toStdString();
    // The detail is a tooltip away: the flat figure's and vLLM's own accounting.
    const QString flatTip = combo->itemData(flat, Qt::ToolTipRole).toString();
    EXPECT_TRUE(flatTip.contains(QStringLiteral("flat overhead per GPU"))) << flatTip.toStdString();
    const int vllm = combo->findData(QString::fromLatin1(kDefaultVllmVersion));
    ASSERT_GE(vllm, 0);
    EXPECT_TRUE(combo->itemData(vllm, Qt::ToolTipRole).toString().contains(QStringLiteral("profiling run")));
}

}  // namespace
}  // namespace fp8dash::ui::test
