// Issue 40, the serving benchmarks wired into the app, driven as a user does at 1366 × 768: the Serving tab of the
// main window shows the open document's serving comparison (its empty state without one; `--tab serving` finds it),
// New Comparison takes each run's serving results (typed or dropped onto the row, previewed off the GUI thread, the
// SLO, the load to serve) into the comparison it builds, and the Which layers tab says what each variant buys.
// The runs are the generated ladder (tests/data/lm-eval-ladder). The serving results are the real InferenceX
// gpt-oss-120b sweep (concurrency 4..512) copied here under the ladder's model id (the same-model rule: serving results
// must measure the model the evals measured), as it is for the baseline and for the candidates with output tokens/s
// × a factor and every latency × a factor; every expected figure is computed here from the
// files' raw numbers with nlohmann, not through fp8dash's reader. FP8DASH_SCREENSHOT_DIR, when set, receives the
// Serving tab at 1366 × 768 and 1920 × 1080, light and dark.
#include <QApplication>
#include <QChartView>
#include <QComboBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QDropEvent>
#include <QGroupBox>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QMimeData>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QUrl>

#include <algorithm>
#include <cmath>
#include <fstream>

#include <nlohmann/json.hpp>

#include "fp8dash/ui/capacity_measured.h"
#include "fp8dash/ui/capacity_view.h"
#include "fp8dash/ui/comparison_view.h"
#include "fp8dash/ui/loaded_comparison.h"
#include "fp8dash/ui/main_window.h"
#include "fp8dash/ui/new_comparison_dialog.h"
#include "fp8dash/ui/open_place.h"
#include "fp8dash/ui/serving_view.h"
#include "fp8dash/ui/theme.h"
#include "fp8dash/ui/variants_view.h"
#include "gui_test_support.h"

namespace fp8dash::ui::test {
namespace {

const int kWireLoads[] = {4, 8, 16, 32, 64, 128, 256, 512};

std::string sweepDir() {
    return sharedFixture("serving/vllm-bench-serve");
}
std::string sweepFileName(int concurrency) {
    return "inferencex_gpt-oss-120b_concurrency_" + std::to_string(concurrency) +
           "_req_rate_inf_gpus_16_ctx_8_gen_8.json";
}
nlohmann::json rawSweepFile(int concurrency) {
    std::ifstream in(sweepDir() + "/" + sweepFileName(concurrency));
    return nlohmann::json::parse(in);
}

// The sweep again under `dir`, each file's throughputs × speed and every latency (*_ms) × latency; same names, so
// the same GPU count as the real files, and the ladder's model id (the evals' model: fp8dash refuses serving results
// of another model).
void writeScaledSweep(const QString& dir, double speed, double latency) {
    QDir().mkpath(dir);
    for (int c : kWireLoads) {
        nlohmann::json j = rawSweepFile(c);
        j["model_id"] = j["tokenizer_id"] = "meta-llama/Llama-3.1-8B-Instruct";
        for (auto it = j.begin(); it != j.end(); ++it) {
            const std::string& key = it.key();
            if (!it->is_number()) continue;
            if (key == "output_throughput" || key == "total_token_throughput" || key == "request_throughput")
                *it = it->get<double>() * speed;
            else if (key.size() > 3 && key.compare(key.size() - 3, 3, "_ms") == 0)
                *it = it->get<double>() * latency;
        }
        std::ofstream out((dir + QLatin1Char('/')).toStdString() + sweepFileName(c));
        out << j.dump(2);
    }
}

QString ladderDir() {
    return QStringLiteral(FP8DASH_TEST_DATA "/lm-eval-ladder");
}

// The ladder's labels (derived from each run's layers, as serving_decision_test names them).
const char* kW8a8 = "FP8 W8A8";
const char* kKvCal = "FP8 W8A8 + FP8 KV (calibrated scales)";

constexpr double kW8a8Speed = 1.15, kW8a8Latency = 0.9;     // FP8 W8A8: +15 % output tokens/s
constexpr double kKvSpeed = 1.25, kKvLatency = 0.85;        // + FP8 KV (scales 1.0): fails the quality gate anyway
constexpr double kKvCalSpeed = 1.155, kKvCalLatency = 0.9;  // calibrated: +0.4 % over W8A8, within the 2 % noise

struct ServingLadder {
    QTemporaryDir dir;
    LoadedComparison loaded;
};

// The ladder with every run's serving results, built as New Comparison builds it (labels left empty: derived).
std::unique_ptr<ServingLadder> servingLadder() {
    auto s = std::make_unique<ServingLadder>();
    const QString root = s->dir.path();
    writeScaledSweep(root + QStringLiteral("/bf16"), 1.0, 1.0);
    writeScaledSweep(root + QStringLiteral("/w8a8"), kW8a8Speed, kW8a8Latency);
    writeScaledSweep(root + QStringLiteral("/kv"), kKvSpeed, kKvLatency);
    writeScaledSweep(root + QStringLiteral("/kv-cal"), kKvCalSpeed, kKvCalLatency);
    NewComparisonRequest r;
    r.baselinePath = ladderDir() + QStringLiteral("/bf16");
    r.candidatePath = ladderDir() + QStringLiteral("/w8a8");
    r.moreCandidatePaths = {ladderDir() + QStringLiteral("/w8a8-kv"), ladderDir() + QStringLiteral("/w8a8-kv-cal")};
    r.moreCandidateLabels = {QString(), QString()};
    r.baselineLabel = QStringLiteral("BF16");
    r.candidateLabel = QString();
    r.recommendation.accept = Verdict::Monitor;
    r.servingPaths = {root + QStringLiteral("/bf16"), root + QStringLiteral("/w8a8"), root + QStringLiteral("/kv"),
                      root + QStringLiteral("/kv-cal")};
    auto built = buildNewComparison(r);
    EXPECT_TRUE(built.ok()) << (built.ok() ? "" : built.error().message);
    if (built.ok()) s->loaded = std::move(built).value();
    return s;
}

// "+15.0%": a gain in the words of the sentences (one decimal, signed).
QString pctWords(double pct) {
    return QStringLiteral("%1%2%").arg(pct >= 0 ? QStringLiteral("+") : QString()).arg(pct, 0, 'f', 1);
}

void showWindow(MainWindow& window, QSize size) {
    window.resize(size);
    window.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
}

void shootServing(MainWindow& window, const QString& name, ComparisonView::Tab tab = ComparisonView::ServingTab) {
    if (qEnvironmentVariableIsEmpty("FP8DASH_SCREENSHOT_DIR")) return;
    for (const QSize size : {QSize(1366, 768), QSize(1920, 1080)}) {
        for (const ThemeMode mode : {ThemeMode::Light, ThemeMode::Dark}) {
            Theme::instance()->setMode(mode);
            window.resize(size);
            window.comparisonView()->showTab(tab);
            QTest::qWait(50);
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

// A file dropped onto a widget, as a file manager drops it.
void dropFile(QWidget* target, const QString& path) {
    QMimeData mime;
    mime.setUrls({QUrl::fromLocalFile(path)});
    const QPoint at = target->rect().center();
    QDragEnterEvent enter(at, Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(target, &enter);
    ASSERT_TRUE(enter.isAccepted());
    QDropEvent drop(QPointF(at), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(target, &drop);
    ASSERT_TRUE(drop.isAccepted());
}

#define REQUIRE_INFERENCEX() FP8DASH_REQUIRE_FIXTURE(sweepDir() + "/" + sweepFileName(4))

}  // namespace

class ServingWireTest : public GuiTest {};

TEST_F(ServingWireTest, TheServingTabShowsTheDocumentsServingComparison) {
    REQUIRE_INFERENCEX();
    auto ladder = servingLadder();
    ASSERT_TRUE(ladder->loaded.document.serving);
    MainWindow window;
    showWindow(window, {1366, 768});
    window.showDocument(ladder->loaded.document, {}, QStringLiteral("ladder"));
    ComparisonView* view = window.comparisonView();
    QTabWidget* tabs = view->tabs();
    // Its place: after the production timeline, before the local benchmarks; a tab of its own name.
    ASSERT_TRUE(tabs->isTabVisible(ComparisonView::ServingTab));
    EXPECT_EQ(tabs->widget(ComparisonView::ServingTab), view->servingView());
    EXPECT_EQ(tabs->tabText(ComparisonView::ServingTab), QStringLiteral("Serving"));
    EXPECT_EQ(tabs->tabText(ComparisonView::ServingTab - 1).section(QStringLiteral(" · "), 0, 0),
              QStringLiteral("Production timeline"));
    EXPECT_EQ(tabs->tabText(ComparisonView::ServingTab + 1), QStringLiteral("Local benchmarks"));
    // View › Go to Tab has it, and a click brings it to the front.
    QAction* go = window.tabAction(ComparisonView::ServingTab);
    ASSERT_NE(go, nullptr);
    EXPECT_TRUE(go->isVisible() && go->isEnabled());
    go->trigger();
    EXPECT_EQ(tabs->currentIndex(), static_cast<int>(ComparisonView::ServingTab));

    ServingView* serving = view->servingView();
    EXPECT_FALSE(serving->isEmptyShown());
    ASSERT_NE(serving->comparison(), nullptr);
    ASSERT_EQ(serving->comparison()->variants.size(), 4u);
    EXPECT_EQ(serving->comparison()->variants[0].label, "BF16");
    EXPECT_EQ(serving->comparison()->variants[1].label, kW8a8);
    // No SLO: each gain is quoted at the highest load every variant measured (512), the file's output tokens/s × the
    // factor against the file's own: +15.0 %, +25.0 %, +15.5 %.
    const double base512 = rawSweepFile(512)["output_throughput"].get<double>();
    const double expected[] = {(base512 * kW8a8Speed - base512) / base512 * 100,
                               (base512 * kKvSpeed - base512) / base512 * 100,
                               (base512 * kKvCalSpeed - base512) / base512 * 100};
    ASSERT_EQ(serving->gainTexts().size(), 3);
    for (int i = 0; i < 3; ++i) {
        EXPECT_NE(serving->gainTexts()[i].indexOf(pctWords(expected[i]) + QStringLiteral(" output tokens/s")), -1)
            << serving->gainTexts()[i].toStdString();
        EXPECT_NE(serving->gainTexts()[i].indexOf(QStringLiteral("512")), -1) << serving->gainTexts()[i].toStdString();
    }
    // The table of the first candidate: a row per load of the sweep.
    EXPECT_EQ(serving->table()->model()->rowCount(), static_cast<int>(std::size(kWireLoads)));

    // `fp8dash FILE --tab serving` finds the tab by its name.
    tabs->setCurrentIndex(ComparisonView::EvalsTab);
    EXPECT_TRUE(placeTabTitles(window).contains(QStringLiteral("Serving")));
    const QList<PlaceProblem> problems = goToPlace(window, OpenPlace{QStringLiteral("serving"), {}, {}});
    EXPECT_TRUE(problems.isEmpty());
    EXPECT_EQ(tabs->currentIndex(), static_cast<int>(ComparisonView::ServingTab));
    shootServing(window, QStringLiteral("serving-tab"));
}

TEST_F(ServingWireTest, ASavedComparisonOpensOnItsServingResults) {
    REQUIRE_INFERENCEX();
    auto ladder = servingLadder();
    QTemporaryDir dir;
    const QString path = dir.path() + QStringLiteral("/ladder.fp8cmp");
    ASSERT_TRUE(saveComparisonFile(ladder->loaded.document, toFsPath(path)).ok());
    MainWindow window;
    showWindow(window, {1366, 768});
    QSignalSpy shown(&window, &MainWindow::documentShown);
    window.openFileAsync(path);  // read and evaluated on a worker
    ASSERT_TRUE(shown.wait(30000));
    ServingView* serving = window.comparisonView()->servingView();
    EXPECT_FALSE(serving->isEmptyShown());
    ASSERT_NE(serving->comparison(), nullptr);
    ASSERT_EQ(serving->comparison()->variants.size(), 4u);
    // The figures kept in the file are the runs': the same gains as when the results were read.
    ASSERT_TRUE(ladder->loaded.decision.serving);
    for (std::size_t i = 1; i < 4; ++i) {
        ASSERT_TRUE(serving->comparison()->variants[i].gain && ladder->loaded.decision.serving->variants[i].gain);
        EXPECT_EQ(serving->comparison()->variants[i].gain->sentence,
                  ladder->loaded.decision.serving->variants[i].gain->sentence);
    }
    ASSERT_FALSE(window.comparisonView()->variantsView()->gainTexts().isEmpty());
}

TEST_F(ServingWireTest, WithoutServingResultsTheTabShowsItsEmptyState) {
    MainWindow window;
    showWindow(window, {1366, 768});
    showEvalsOnly(window);  // the demo as 0.1.0 shipped it: no serving results (the bundled demo has some)
    ASSERT_NE(window.current(), nullptr);
    ASSERT_FALSE(window.current()->document.serving);
    ComparisonView* view = window.comparisonView();
    EXPECT_TRUE(view->tabs()->isTabVisible(ComparisonView::ServingTab));
    view->showTab(ComparisonView::ServingTab);
    EXPECT_TRUE(view->servingView()->isEmptyShown());
    EXPECT_EQ(view->servingView()->comparison(), nullptr);
    // A document with serving results, then one without: nothing of the first lingers.
    REQUIRE_INFERENCEX();
    auto ladder = servingLadder();
    window.showDocument(ladder->loaded.document, {}, QStringLiteral("ladder"));
    EXPECT_FALSE(view->servingView()->isEmptyShown());
    view->servingView()->tableVariantCombo()->setCurrentIndex(2);                  // the user's choice of table
    window.showDocument(window.current()->document, {}, QStringLiteral("again"));  // the same: still shown, as it was
    EXPECT_FALSE(view->servingView()->isEmptyShown());
    EXPECT_EQ(view->servingView()->tableVariantCombo()->currentIndex(), 2);
    ComparisonDocument without = ladder->loaded.document;
    without.serving.reset();
    window.showDocument(without, {}, QStringLiteral("without"));
    EXPECT_TRUE(view->servingView()->isEmptyShown());
    shootServing(window, QStringLiteral("serving-tab-empty"));
}

TEST_F(ServingWireTest, TheWhichLayersTabSaysWhatEachVariantBuysAndWhichIsSetAside) {
    REQUIRE_INFERENCEX();
    auto ladder = servingLadder();
    const Decision& d = ladder->loaded.decision;
    ASSERT_TRUE(d.variants && d.serving);
    MainWindow window;
    showWindow(window, {1366, 768});
    window.showDocument(ladder->loaded.document, {}, QStringLiteral("ladder"));
    ComparisonView* view = window.comparisonView();
    view->showTab(ComparisonView::LayersTab);
    VariantsView* layers = view->variantsView();
    // The calibrated KV cache buys (1.155 − 1.15) / 1.15 = +0.43 % over FP8 W8A8 at 512: under the 2 % noise, and
    // it costs on gsm8k: set aside, FP8 W8A8 recommended (the scales-1.0 variant fails the gate at 3.2 %).
    EXPECT_LT((kKvCalSpeed - kW8a8Speed) / kW8a8Speed * 100, 2.0);
    EXPECT_EQ(d.variants->recommendation.label, std::optional<std::string>(kW8a8));
    const QStringList gains = layers->gainTexts();
    ASSERT_EQ(gains.size(), 3) << gains.join(QLatin1Char('|')).toStdString();
    const double base512 = rawSweepFile(512)["output_throughput"].get<double>();
    EXPECT_TRUE(gains[0].startsWith(QStringLiteral("FP8 W8A8 buys ") +
                                    pctWords((base512 * kW8a8Speed - base512) / base512 * 100)))
        << gains[0].toStdString();
    EXPECT_TRUE(gains[2].startsWith(QString::fromUtf8(kKvCal) + QStringLiteral(" is set aside: ")))
        << gains[2].toStdString();
    EXPECT_NE(gains[2].indexOf(QStringLiteral("within the noise")), -1) << gains[2].toStdString();
    // The scales-1.0 variant's +25 % is measured, but it fails the quality gate: said with it.
    ASSERT_FALSE(d.variants->variants[1].passes);
    EXPECT_NE(gains[1].indexOf(pctWords((base512 * kKvSpeed - base512) / base512 * 100)), -1) << gains[1].toStdString();
    EXPECT_NE(gains[1].indexOf(QStringLiteral("does not pass the gate")), -1) << gains[1].toStdString();
    EXPECT_EQ(gains[0].indexOf(QStringLiteral("does not pass")), -1) << gains[0].toStdString();
    EXPECT_TRUE(layers->variantHeaderText(2).endsWith(QStringLiteral("set aside")))
        << layers->variantHeaderText(2).toStdString();
    EXPECT_FALSE(layers->variantHeaderText(0).endsWith(QStringLiteral("set aside")));
    // The matrix's headers carry the gain; the recommendation card its sentence.
    EXPECT_NE(layers->variantHeaderText(0).indexOf(pctWords((base512 * kW8a8Speed - base512) / base512 * 100) +
                                                   QStringLiteral(" tok/s")),
              -1)
        << layers->variantHeaderText(0).toStdString();
    EXPECT_NE(layers->recommendationText().indexOf(QStringLiteral("on your server: ") +
                                                   QString::fromStdString(d.variants->recommendation.gain)),
              -1)
        << layers->recommendationText().toStdString();
    // The tab title names the recommended variant.
    EXPECT_NE(view->tabs()->tabText(ComparisonView::LayersTab).indexOf(QString::fromUtf8(kW8a8)), -1);
    shootServing(window, QStringLiteral("which-layers"), ComparisonView::LayersTab);
}

TEST_F(ServingWireTest, TheCapacityTabShowsTheMeasuredCapacityBesideTheModel) {
    REQUIRE_INFERENCEX();
    auto ladder = servingLadder();
    ComparisonDocument doc = ladder->loaded.document;
    ASSERT_TRUE(doc.serving);
    doc.serving->options.slo = *parseServingSlo("ttft_p99=1000ms");
    MainWindow window;
    showWindow(window, {1366, 768});
    window.showDocument(doc, {}, QStringLiteral("ladder at an SLO"));
    window.showCapacity();
    CapacityView* capacity = window.comparisonView()->capacityView();
    // Each variant's capacity: the highest load before the first whose p99 TTFT (the file's × the variant's factor)
    // exceeds 1,000 ms.
    const auto capacityOf = [](double latency) {
        double load = 0;
        for (int c : kWireLoads) {
            if (rawSweepFile(c)["p99_ttft_ms"].get<double>() * latency > 1000) break;
            load = c;
        }
        return load;
    };
    const double base = capacityOf(1), w8a8 = capacityOf(kW8a8Latency), kv = capacityOf(kKvLatency),
                 kvCal = capacityOf(kKvCalLatency);
    ASSERT_GT(base, 0);
    const QString text = capacity->measuredText();
    ASSERT_FALSE(text.isEmpty());
    EXPECT_NE(text.indexOf(QStringLiteral("BF16: %1 concurrent requests within p99 TTFT ≤ 1,000 ms").arg(base)), -1)
        << text.toStdString();
    EXPECT_NE(text.indexOf(QStringLiteral("FP8 W8A8: %1 concurrent requests").arg(w8a8)), -1) << text.toStdString();
    // The model's KV-token ratio (its own plans, the input here) against the best measured ratio.
    const CapacityResult* sel = capacity->selectedResult();
    const CapacityResult* bf = capacity->bf16Result();
    ASSERT_TRUE(sel && bf && bf->maxTokens > 0);
    const double model = double(sel->maxTokens) / double(bf->maxTokens);
    const double measured = std::max({w8a8, kv, kvCal}) / base;
    if (model >= 1.2 && measured < 1 + (model - 1) / 2) {
        EXPECT_NE(text.indexOf(QStringLiteral("the KV cache is not what limits this load")), -1) << text.toStdString();
    } else {
        EXPECT_EQ(text.indexOf(QStringLiteral("the KV cache is not what limits this load")), -1) << text.toStdString();
    }
    shootServing(window, QStringLiteral("capacity-measured"), ComparisonView::CapacityTab);
    // Without serving results the section is gone.
    doc.serving.reset();
    window.showDocument(doc, {}, QStringLiteral("without"));
    EXPECT_TRUE(capacity->measuredText().isEmpty());
}

TEST_F(ServingWireTest, NewComparisonTakesServingResultsPreviewsThemAndBuildsWithTheSlo) {
    REQUIRE_INFERENCEX();
    QTemporaryDir dir;
    const QString fp8 = dir.path() + QStringLiteral("/fp8"), bf16 = dir.path() + QStringLiteral("/bf16");
    writeScaledSweep(fp8, kW8a8Speed, kW8a8Latency);
    writeScaledSweep(bf16, 1.0, 1.0);
    NewComparisonDialog dialog;
    dialog.resize(900, 700);
    dialog.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&dialog));
    dialog.setBaselinePath(ladderDir() + QStringLiteral("/bf16"));
    dialog.setCandidatePath(ladderDir() + QStringLiteral("/w8a8"));
    // Without serving results the SLO is not asked for.
    EXPECT_FALSE(dialog.servingBox()->isVisibleTo(&dialog));

    // The baseline's: typed. The candidate's: a folder dropped onto the row's serving line.
    QLineEdit* baselineServing = dialog.servingPathEdit(0);
    ASSERT_NE(baselineServing, nullptr);
    baselineServing->setFocus();
    QTest::keyClicks(baselineServing, bf16);
    QWidget* candidateField = dialog.servingPathEdit(1)->parentWidget();
    dropFile(candidateField, fp8);
    EXPECT_EQ(dialog.servingPath(1), QDir::toNativeSeparators(fp8));
    EXPECT_TRUE(dialog.servingBox()->isVisibleTo(&dialog));

    // The preview, read on a worker: the load points and their range from the files' max_concurrency keys.
    int lo = 1 << 30, hi = 0;
    for (int c : kWireLoads) {
        const int k = rawSweepFile(c)["max_concurrency"].get<int>();
        lo = std::min(lo, k);
        hi = std::max(hi, k);
    }
    const QString range = QStringLiteral("concurrency %1–%2").arg(lo).arg(hi);
    for (int run = 0; run < 2; ++run) {
        QTRY_VERIFY_WITH_TIMEOUT(!dialog.servingPreviewText(run).isEmpty(), 10000);
        const QString preview = dialog.servingPreviewText(run);
        EXPECT_TRUE(
            preview.startsWith(QStringLiteral("%1 load points · vLLM bench serve · ").arg(std::size(kWireLoads))))
            << preview.toStdString();
        EXPECT_NE(preview.indexOf(range), -1) << preview.toStdString();
        EXPECT_FALSE(dialog.isServingPreviewError(run));
    }

    // The SLO, set as a user sets it: p99 TTFT ≤ 1,000 ms; the words say it.
    QDoubleSpinBox* ttft = dialog.sloTtftSpin();
    ttft->setFocus();
    ttft->selectAll();
    QTest::keyClicks(ttft, QStringLiteral("1000"));
    QTest::keyClick(ttft, Qt::Key_Tab);
    EXPECT_EQ(ttft->value(), 1000.0);
    EXPECT_EQ(dialog.sloPercentileCombo()->currentText(), QStringLiteral("p99"));
    EXPECT_NE(dialog.sloWords().indexOf(QStringLiteral("p99 TTFT ≤ 1,000 ms")), -1) << dialog.sloWords().toStdString();
    dialog.targetLoadSpin()->setValue(100);
    if (!qEnvironmentVariableIsEmpty("FP8DASH_SCREENSHOT_DIR")) {
        for (const QSize size : {QSize(1366, 768), QSize(1920, 1080)})
            for (const ThemeMode mode : {ThemeMode::Light, ThemeMode::Dark}) {
                Theme::instance()->setMode(mode);
                dialog.resize(size);
                dialog.formScrollArea()->ensureWidgetVisible(dialog.servingBox());
                QTest::qWait(50);
                saveScreenshot(dialog,
                               QStringLiteral("new-comparison-serving-%1x%2-%3.png")
                                   .arg(size.width())
                                   .arg(size.height())
                                   .arg(mode == ThemeMode::Dark ? QStringLiteral("dark") : QStringLiteral("light")));
            }
        Theme::instance()->setMode(ThemeMode::Light);
        dialog.resize(900, 740);
        dialog.formScrollArea()->ensureWidgetVisible(dialog.servingBox());
        QTest::qWait(50);
        saveScreenshot(dialog, QStringLiteral("new-comparison-serving.png"));
    }

    QTest::mouseClick(dialog.compareButton(), Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(dialog.hasResult() || !dialog.errorText().isEmpty(), 30000);
    ASSERT_TRUE(dialog.hasResult()) << dialog.errorText().toStdString();
    const LoadedComparison& result = *dialog.result();
    ASSERT_TRUE(result.document.serving);
    const ServingSection& section = *result.document.serving;
    ASSERT_EQ(section.variants.size(), 2u);
    EXPECT_EQ(section.variants[0].label, "BF16");
    EXPECT_EQ(section.variants[1].label, "FP8");
    EXPECT_EQ(section.variants[0].runs.size(), std::size(kWireLoads));
    EXPECT_EQ(section.options.slo.text(), "ttft_p99=1000ms");
    EXPECT_EQ(section.options.targetLoad, std::optional<double>(100));
    EXPECT_FALSE(section.options.gpuHourCost);
    // The baseline's capacity at p99 TTFT ≤ 1,000 ms: the highest load before the first whose p99 TTFT exceeds it,
    // from the files' p99_ttft_ms.
    double capacity = 0;
    for (int c : kWireLoads) {
        if (rawSweepFile(c)["p99_ttft_ms"].get<double>() > 1000) break;
        capacity = c;
    }
    ASSERT_GT(capacity, 0);
    ASSERT_TRUE(result.decision.serving);
    EXPECT_EQ(result.decision.serving->variants[0].capacity.load, std::optional<double>(capacity));
    // The dialog's summary says what FP8 buys, in the core's sentence.
    ASSERT_TRUE(result.decision.serving->variants[1].gain);
    EXPECT_NE(dialog.resultText().indexOf(QString::fromStdString(result.decision.serving->variants[1].gain->sentence)),
              -1)
        << dialog.resultText().toStdString();
    // The comparison it built, in the main window at 1366 × 768: the Serving tab shows the chart at a readable height
    // and every one of the 8 loads' rows without scrolling (the card, its capacity and replica lines besides), and the
    // SLO line and the capacity stars.
    MainWindow window;
    showWindow(window, {1366, 768});
    window.showDocument(result.document, {}, QStringLiteral("slo"));
    window.comparisonView()->showTab(ComparisonView::ServingTab);
    QTest::qWait(50);
    ServingView* serving = window.comparisonView()->servingView();
    ASSERT_TRUE(serving->isVisible());
    EXPECT_GE(serving->chart()->chartView()->height(), 220);
    const QTableView* table = serving->table();
    ASSERT_EQ(table->model()->rowCount(), static_cast<int>(std::size(kWireLoads)));
    EXPECT_LE(table->verticalHeader()->length(), table->viewport()->height())
        << "the table shows " << table->viewport()->height() << " of its rows' " << table->verticalHeader()->length()
        << " px";
    EXPECT_FALSE(serving->replicaText().isEmpty());
    for (const QScrollArea* area : serving->findChildren<QScrollArea*>())
        if (area->objectName() != QStringLiteral("servingCardScroll") && area->isVisible())
            EXPECT_FALSE(area->verticalScrollBar()->isVisible()) << area->objectName().toStdString();
    shootServing(window, QStringLiteral("serving-tab-slo"));
}

// The noise threshold reaches the comparison: FP8 at +1.5 % output tokens/s (one run per load each) buys nothing
// measurable under the default ±2 %, and buys +1.5 % once the threshold is lowered to 1 %.
TEST_F(ServingWireTest, NewComparisonsNoiseThresholdDecidesWhetherASmallGainCounts) {
    REQUIRE_INFERENCEX();
    QTemporaryDir dir;
    const QString fp8 = dir.path() + QStringLiteral("/fp8"), bf16 = dir.path() + QStringLiteral("/bf16");
    constexpr double kSmallSpeed = 1.015;
    writeScaledSweep(fp8, kSmallSpeed, 1.0);
    writeScaledSweep(bf16, 1.0, 1.0);
    // Without an SLO the gain is output tokens/s at the highest load both measured: 512, from the raw files.
    const double base = rawSweepFile(512)["output_throughput"].get<double>();
    const double gainPct = (base * kSmallSpeed - base) / base * 100;
    ASSERT_GT(gainPct, 1.0);
    ASSERT_LT(gainPct, 2.0);
    const auto build = [&](std::optional<double> noise) -> std::string {
        NewComparisonDialog dialog;
        dialog.resize(900, 700);
        dialog.show();
        EXPECT_TRUE(QTest::qWaitForWindowExposed(&dialog));
        dialog.setBaselinePath(ladderDir() + QStringLiteral("/bf16"));
        dialog.setCandidatePath(ladderDir() + QStringLiteral("/w8a8"));
        dialog.setServingPath(0, bf16);
        dialog.setServingPath(1, fp8);
        QDoubleSpinBox* spin = dialog.noisePctSpin();
        EXPECT_TRUE(spin->isVisibleTo(&dialog));
        EXPECT_EQ(spin->value(), 2.0) << "the default is ServingOptions' 2 %";
        EXPECT_NE(dialog.noiseWords().indexOf(
                      QStringLiteral("Gains smaller than ±%1 % count as noise").arg(QLocale().toString(2.0, 'f', 1))),
                  -1)
            << dialog.noiseWords().toStdString();
        EXPECT_FALSE(spin->toolTip().isEmpty());
        if (noise) {
            spin->setFocus();
            spin->selectAll();
            QTest::keyClicks(spin, QLocale().toString(*noise, 'f', 1));
            QTest::keyClick(spin, Qt::Key_Tab);
            EXPECT_EQ(spin->value(), *noise);
            EXPECT_NE(dialog.noiseWords().indexOf(QStringLiteral("±%1 %").arg(QLocale().toString(*noise, 'f', 1))), -1)
                << dialog.noiseWords().toStdString();
        }
        QTest::mouseClick(dialog.compareButton(), Qt::LeftButton);
        (void)QTest::qWaitFor([&] { return dialog.hasResult() || !dialog.errorText().isEmpty(); }, 30000);
        if (!dialog.hasResult()) {
            ADD_FAILURE() << dialog.errorText().toStdString();
            return {};
        }
        const LoadedComparison& result = *dialog.result();
        EXPECT_TRUE(result.document.serving && result.decision.serving);
        if (!result.document.serving || !result.decision.serving) return {};
        EXPECT_EQ(result.document.serving->options.noisePct, noise.value_or(2.0));
        const auto& gain = result.decision.serving->variants[1].gain;
        EXPECT_TRUE(gain.has_value());
        if (!gain) return {};
        EXPECT_NE(dialog.resultText().indexOf(QString::fromStdString(gain->sentence)), -1)
            << dialog.resultText().toStdString();
        return gain->sentence;
    };
    const std::string byDefault = build(std::nullopt);
    EXPECT_NE(byDefault.find("FP8 buys nothing measurable over BF16"), std::string::npos) << byDefault;
    const std::string lowered = build(1.0);
    EXPECT_EQ(lowered.find("nothing measurable"), std::string::npos) << lowered;
    EXPECT_EQ(lowered.rfind("FP8 buys " + pctWords(gainPct).toStdString(), 0), 0u) << lowered;
}

// A GuideLLM report with its own goodput SLO (after 0.7.3): the preview's tooltip names the limits GuideLLM counted
// its goodput against (the report's config.slo, read here from the raw JSON), and that capacity is judged at the
// team's SLO instead.
TEST_F(ServingWireTest, NewComparisonsPreviewNamesTheToolsOwnGoodputSlo) {
    const QString report = QStringLiteral(FP8DASH_TEST_DATA "/serving/guidellm/guidellm_goodput_after_0.7.3.json");
    std::ifstream in(report.toStdString());
    const nlohmann::json raw = nlohmann::json::parse(in);
    const nlohmann::json& slo = raw["benchmarks"][0]["config"]["slo"];
    ASSERT_TRUE(slo["e2el_ms"].is_null());
    const QString limits = QStringLiteral("TTFT ≤ %1 ms, TPOT ≤ %2 ms")
                               .arg(slo["ttft_ms"].get<double>(), 0, 'g', 6)
                               .arg(slo["tpot_ms"].get<double>(), 0, 'g', 6);
    NewComparisonDialog dialog;
    dialog.resize(900, 700);
    dialog.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&dialog));
    dialog.setServingPath(0, report);
    QTRY_VERIFY_WITH_TIMEOUT(!dialog.servingPreviewText(0).isEmpty(), 10000);
    EXPECT_FALSE(dialog.isServingPreviewError(0)) << dialog.servingPreviewText(0).toStdString();
    QString tip;
    for (const QLabel* label : dialog.findChildren<QLabel*>(QStringLiteral("servingPreview")))
        if (label->isVisibleTo(&dialog) && label->text() == dialog.servingPreviewText(0)) tip = label->toolTip();
    EXPECT_NE(tip.indexOf(limits), -1) << tip.toStdString();
    EXPECT_NE(tip.indexOf(QStringLiteral("capacity is judged at your SLO")), -1) << tip.toStdString();
}

TEST_F(ServingWireTest, NewComparisonSaysWhatIsWrongWithServingResults) {
    QTemporaryDir dir;
    const QString junk = dir.path() + QStringLiteral("/bench.json");
    {
        std::ofstream out(junk.toStdString());
        out << "{\"date\": \"20260101\", \"completed\": ";
    }
    NewComparisonDialog dialog;
    dialog.resize(900, 700);
    dialog.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&dialog));
    dialog.setBaselinePath(ladderDir() + QStringLiteral("/bf16"));
    dialog.setCandidatePath(ladderDir() + QStringLiteral("/w8a8"));
    dialog.setServingPath(0, junk);
    dialog.setServingPath(1, QStringLiteral(FP8DASH_TEST_DATA "/serving/vllm/vllm_bench_serve_0.25.1_all-failed.json"));
    for (int run = 0; run < 2; ++run) {
        QTRY_VERIFY_WITH_TIMEOUT(!dialog.servingPreviewText(run).isEmpty(), 10000);
        EXPECT_TRUE(dialog.isServingPreviewError(run)) << dialog.servingPreviewText(run).toStdString();
    }
    EXPECT_NE(dialog.servingPreviewText(0).indexOf(QStringLiteral("bench.json")), -1)
        << dialog.servingPreviewText(0).toStdString();
    EXPECT_NE(dialog.servingPreviewText(1).indexOf(QStringLiteral("every request failed")), -1)
        << dialog.servingPreviewText(1).toStdString();
    if (!qEnvironmentVariableIsEmpty("FP8DASH_SCREENSHOT_DIR")) {
        Theme::instance()->setMode(ThemeMode::Dark);
        QTest::qWait(50);
        saveScreenshot(dialog, QStringLiteral("new-comparison-serving-errors-dark.png"));
        Theme::instance()->setMode(ThemeMode::Light);
    }
    // A folder dropped on the rest of the row is the run's lm-eval results.
    QWidget* row = dialog.servingPathEdit(1)->parentWidget()->parentWidget();
    dropFile(row, ladderDir() + QStringLiteral("/w8a8-kv"));
    EXPECT_EQ(dialog.candidatePath(0), QDir::toNativeSeparators(ladderDir() + QStringLiteral("/w8a8-kv")));
    // Serving results on a row without its lm-eval run: the form says so before reading anything.
    dialog.setServingPath(1, QString());
    dialog.setCandidatePath(QString());
    dialog.setServingPath(1, QString::fromStdString(sweepDir()));
    auto request = dialog.request();
    ASSERT_FALSE(request.ok());
    EXPECT_NE(request.error().message.find("candidate"), std::string::npos) << request.error().message;
}

// Measured beside modelled, in words (capacity_measured.h): each branch on a comparison written here, its capacities
// set as compareServing would set them.
namespace {

ServingComparison capacities(std::optional<double> base, bool baseAtTop, std::optional<double> fp8, bool fp8AtTop) {
    ServingComparison c;
    c.slo = *parseServingSlo("ttft_p99=2000ms");
    c.axis = LoadAxis::Concurrency;
    const auto variant = [](const char* label, std::optional<double> load, bool atTop) {
        ServingVariantResult v;
        v.label = label;
        v.capacity.judged = true;
        v.capacity.load = load;
        if (!atTop) v.capacity.firstMissAt = load.value_or(0) * 2 + 1;
        return v;
    };
    c.variants = {variant("BF16", base, baseAtTop), variant("FP8", fp8, fp8AtTop)};
    return c;
}

}  // namespace

TEST(MeasuredCapacityWords, SaysWhereTheMeasuredCapacityAndTheKvModelDisagree) {
    // ×2 KV tokens modelled, +10 % measured: the KV cache is not what limits the load.
    MeasuredCapacityWords w = measuredCapacityWords(capacities(40, false, 44, false), 2.0);
    ASSERT_EQ(w.variants.size(), 2);
    EXPECT_EQ(w.variants[0], QStringLiteral("BF16: 40 concurrent requests within p99 TTFT ≤ 2,000 ms"));
    EXPECT_EQ(w.variants[1],
              QStringLiteral("FP8: 44 concurrent requests within p99 TTFT ≤ 2,000 ms (×1.10 of BF16's)"));
    EXPECT_NE(w.verdict.indexOf(QStringLiteral("rose only +10 %")), -1) << w.verdict.toStdString();
    EXPECT_NE(w.verdict.indexOf(QStringLiteral("the KV cache is not what limits this load")), -1);
    // ×2 modelled, ×1.9 measured: in line.
    w = measuredCapacityWords(capacities(40, false, 76, false), 2.0);
    EXPECT_NE(w.verdict.indexOf(QStringLiteral("in line")), -1) << w.verdict.toStdString();
    // ×1.12 modelled (FP8 weights only), ×1.5 measured: more than KV room.
    w = measuredCapacityWords(capacities(40, false, 60, false), 1.12);
    EXPECT_NE(w.verdict.indexOf(QStringLiteral("rose more than the KV-cache model")), -1) << w.verdict.toStdString();
    // Every measured load met by both: no capacity to compare, said so.
    w = measuredCapacityWords(capacities(512, true, 512, true), 2.0);
    EXPECT_TRUE(w.variants[1].startsWith(QStringLiteral("FP8: at least 512"))) << w.variants[1].toStdString();
    EXPECT_NE(w.verdict.indexOf(QStringLiteral("benchmark higher loads")), -1) << w.verdict.toStdString();
    // No model plan: the measured lines only.
    w = measuredCapacityWords(capacities(40, false, 44, false), std::nullopt);
    EXPECT_EQ(w.variants.size(), 2);
    EXPECT_TRUE(w.verdict.isEmpty());
    // No SLO: nothing measured, and where to set one.
    ServingComparison noSlo = capacities(40, false, 44, false);
    noSlo.slo = {};
    w = measuredCapacityWords(noSlo, 2.0);
    ASSERT_EQ(w.variants.size(), 1);
    EXPECT_NE(w.variants[0].indexOf(QStringLiteral("New Comparison's latency SLO")), -1);
    EXPECT_TRUE(w.verdict.isEmpty());
    // Not comparable: nothing weighed against the model.
    ServingComparison blocked = capacities(40, false, 44, false);
    blocked.problems.push_back({true, "different models"});
    EXPECT_TRUE(measuredCapacityWords(blocked, 2.0).verdict.isEmpty());
}

}  // namespace fp8dash::ui::test
