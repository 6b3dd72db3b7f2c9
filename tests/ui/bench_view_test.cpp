// The Local benchmarks tab: saved results (a hand-written benchmarks section read through core's parser) shown in the
// device card, the three charts and the tables, checked against figures computed here; skip reasons in the empty
// charts; a CPU-only run started from the view that lands in the document; Cancel; the Bench menu's shortcuts.
#include <QAbstractButton>
#include <QAbstractItemModel>
#include <QCategoryAxis>
#include <QChart>
#include <QChartView>
#include <QCheckBox>
#include <QComboBox>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QProgressBar>
#include <QPushButton>
#include <QScatterSeries>
#include <QScrollBar>
#include <QSignalSpy>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QValueAxis>
#include <QtTest>

#include <cmath>

#include "bench_test_json.h"
#include "fp8dash/ui/bench_table_models.h"
#include "fp8dash/ui/bench_view.h"
#include "fp8dash/ui/comparison_view.h"
#include "fp8dash/ui/main_window.h"
#include "fp8dash/ui/theme.h"
#include "gui_test_support.h"

namespace fp8dash::ui::test {
namespace {

class BenchViewTest : public GuiTest {};

// A run on an H200 as the comparison file keeps it: qkv and o at M = 1 and 128 in BF16 and FP8, a square FP8 case
// skipped for memory, read/copy bandwidth, one KV quantise kernel, three scalings x two contexts.
Json h200Json() {
    Json gemm = fp8dash::test::h200QkvAndOGemmRows();
    gemm.push_back(fp8dash::test::benchGemmRow("square", 8192, 8192, 8192, "fp8_e4m3", 0, 0, 0, 0, false,
                                               "out of memory (cudaMalloc of 402653184 bytes)"));
    const Json bandwidth = Json::array({fp8dash::test::benchBandwidthRow("read", 1073741824ull, 4.1e12, 85.4, 0.002),
                                        fp8dash::test::benchBandwidthRow("copy", 2147483648ull, 3.9e12, 81.25, 0.003)});
    const Json kernel = Json::array({Json{{"scaling", "per_head"},
                                          {"elements", 16777216},
                                          {"skipped", ""},
                                          {"samples", 30},
                                          {"noise", 0.01},
                                          {"converged", true},
                                          {"bytes_per_s", 3.0e12},
                                          {"percent_of_peak", 62.5},
                                          {"matches_cpu", true}}});
    return fp8dash::test::h200Run(gemm, bandwidth, fp8dash::test::h200KvRows(), kernel,
                                  Json::array({"clock throttled in 3 samples"}));
}

BenchResults parsed(const Json& j) {
    auto r = parseBenchResults(j, "test benchmarks");
    EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message);
    return r.ok() ? std::move(r).value() : BenchResults{};
}

ComparisonDocument documentWithBenchmarks(const BenchResults& results) {
    ComparisonDocument doc;
    doc.hasEvals = false;
    doc.created = "2026-11-29T15:00:00Z";
    doc.title = "H200 evidence";
    doc.benchmarks = results;
    return doc;
}

// FLOP per byte moved at least once: A and B in the input precision (2 or 1 bytes), D in BF16 (2 bytes).
double intensity(double m, double n, double k, double inputBytes) {
    return 2.0 * m * n * k / (inputBytes * (m * k + k * n) + 2.0 * m * n);
}

QString cell(const QAbstractItemModel* model, int row, int column) {
    return model->index(row, column).data(Qt::DisplayRole).toString();
}

template <class Series>
QList<Series*> seriesOf(const QChart* chart) {
    QList<Series*> out;
    for (QAbstractSeries* s : chart->series()) {
        // QScatterSeries derives from QXYSeries, not QLineSeries; qobject_cast keeps the kinds apart.
        if (auto* typed = qobject_cast<Series*>(s)) out << typed;
    }
    return out;
}

QLineSeries* lineNamed(const QChart* chart, const QString& name) {
    for (QLineSeries* s : seriesOf<QLineSeries>(chart)) {
        if (s->name() == name) return s;
    }
    return nullptr;
}

QScatterSeries* scatterNamed(const QChart* chart, const QString& name) {
    for (QScatterSeries* s : seriesOf<QScatterSeries>(chart)) {
        if (s->name() == name) return s;
    }
    return nullptr;
}

TEST_F(BenchViewTest, SavedResultsShowTheDeviceChartsAndTables) {
    const BenchResults results = parsed(h200Json());
    MainWindow window;
    window.resize(1280, 820);
    BenchView* view = window.comparisonView()->benchView();
    view->setLocalDevice(noGpu());  // opened on a machine without a GPU
    window.show();
    window.showDocument(documentWithBenchmarks(results), {}, QStringLiteral("h200"));
    window.showBenchmarks();
    EXPECT_EQ(window.comparisonView()->tabs()->currentWidget(), view);
    EXPECT_FALSE(window.isModified());

    // The device card: what the results were measured on, and this machine.
    const QString measured = view->measuredText();
    EXPECT_TRUE(measured.contains(QStringLiteral("NVIDIA H200 (sm_90, 132 SMs"))) << measured.toStdString();
    EXPECT_TRUE(measured.contains(QStringLiteral("2026-11-29 14:03 UTC")));
    EXPECT_TRUE(measured.contains(QStringLiteral("BF16 989, FP8 1979 TFLOP/s, 4800 GB/s")));
    EXPECT_TRUE(view->deviceText().contains(QStringLiteral("no GPU"))) << view->deviceText().toStdString();
    EXPECT_TRUE(view->runNoteText().contains(QStringLiteral("CPU only"))) << view->runNoteText().toStdString();
    EXPECT_TRUE(view->cpuOnlyCheck()->isChecked());
    EXPECT_FALSE(view->cpuOnlyCheck()->isEnabled());
    EXPECT_TRUE(view->runOptions().cpuOnly);
    EXPECT_EQ(view->modelCombo()->currentData().toString(), QStringLiteral("llama-3.1-8b"));

    // Tables: every GEMM row (the skipped one with its reason), bandwidth plus the KV kernel, every KV row.
    ASSERT_EQ(view->gemmModel()->rowCount(), 9);
    ASSERT_EQ(view->bandwidthModel()->rowCount(), 3);
    ASSERT_EQ(view->kvModel()->rowCount(), 6);
    EXPECT_EQ(cell(view->gemmModel(), 2, BenchView::GemmLayer), QStringLiteral("qkv"));
    EXPECT_EQ(cell(view->gemmModel(), 2, BenchView::GemmN), QStringLiteral("6,144"));
    EXPECT_EQ(cell(view->gemmModel(), 2, BenchView::GemmTflops), QStringLiteral("512.3"));
    EXPECT_EQ(cell(view->gemmModel(), 3, BenchView::GemmSpeedup), QStringLiteral("1.87×"));
    EXPECT_EQ(cell(view->gemmModel(), 3, BenchView::GemmPercentOfRoof), QStringLiteral("66.1 %"));
    EXPECT_EQ(cell(view->gemmModel(), 2, BenchView::GemmNoise), QStringLiteral("0.40 %"));
    EXPECT_EQ(cell(view->gemmModel(), 8, BenchView::GemmTflops), QStringLiteral("—"));
    EXPECT_TRUE(cell(view->gemmModel(), 8, BenchView::GemmNote).contains(QStringLiteral("out of memory")));
    EXPECT_EQ(cell(view->bandwidthModel(), 0, 2), QStringLiteral("4.10 TB/s"));
    EXPECT_EQ(cell(view->bandwidthModel(), 1, 1), QStringLiteral("2.00 GiB"));
    EXPECT_EQ(cell(view->bandwidthModel(), 2, 3), QStringLiteral("62.5 %"));
    EXPECT_EQ(cell(view->kvModel(), 1, BenchView::KvContext), QStringLiteral("4,096"));
    // none at 4K (h200KvRows): attention-output error 0.024, TVD half of it, K 0.031 x 1.1, 40 keys and 3 values
    // saturated, 5e8 elements/s.
    EXPECT_EQ(cell(view->kvModel(), 1, BenchView::KvAttnOutError), QStringLiteral("2.4%"));
    EXPECT_EQ(cell(view->kvModel(), 1, BenchView::KvAttnTvd), QStringLiteral("1.2%"));
    EXPECT_EQ(cell(view->kvModel(), 1, BenchView::KvKeyRmse), QStringLiteral("3.4%"));
    EXPECT_EQ(cell(view->kvModel(), 1, BenchView::KvKeySaturated), QStringLiteral("40"));
    EXPECT_EQ(cell(view->kvModel(), 1, BenchView::KvValueSaturated), QStringLiteral("3"));
    EXPECT_EQ(cell(view->kvModel(), 1, BenchView::KvElementsPerSecond), QStringLiteral("500 M/s"));
    EXPECT_TRUE(view->kvTable()->isColumnHidden(BenchView::KvLegacyAttnError));  // no row of an older fp8dash
    // Every metric column says what it measures (core's definitions, the README's words).
    for (int c = BenchView::KvAttnOutError; c < BenchView::KvColumnCount; ++c)
        EXPECT_FALSE(view->kvModel()->headerData(c, Qt::Horizontal, Qt::ToolTipRole).toString().isEmpty()) << c;
    EXPECT_TRUE(view->kvModel()
                    ->headerData(BenchView::KvAttnOutError, Qt::Horizontal, Qt::ToolTipRole)
                    .toString()
                    .contains(QStringLiteral("sqrt(Σ‖ô − o‖² / Σ‖o‖²)")));
    EXPECT_TRUE(view->kvModel()
                    ->headerData(BenchView::KvKeySaturated, Qt::Horizontal, Qt::ToolTipRole)
                    .toString()
                    .contains(QStringLiteral("448")));
    // The headline above the charts: per_tensor at 4K (0.0203), scale 1.0 saturating 40 + 3 values there.
    EXPECT_TRUE(view->kvHeadlineText().contains(
        QStringLiteral("attention-output error 2.0% (per_tensor scaling, 4K tokens; synthetic cache)")))
        << view->kvHeadlineText().toStdString();
    EXPECT_TRUE(view->kvHeadlineText().contains(QStringLiteral("43 values saturate")));

    // Sorting by TFLOP/s is numeric (512.3 after 1.6, not before it as text would be).
    view->gemmTable()->sortByColumn(BenchView::GemmTflops, Qt::DescendingOrder);
    EXPECT_EQ(cell(view->gemmModel(), 0, BenchView::GemmTflops), QStringLiteral("958.1"));
    EXPECT_EQ(cell(view->gemmModel(), 1, BenchView::GemmTflops), QStringLiteral("700.0"));

    // Roofline: four measured points per precision at their arithmetic intensity, the two compute roofs and the
    // bandwidth diagonal from the datasheet peak, log-log axes with units.
    EXPECT_TRUE(view->rooflineMessage().isEmpty()) << view->rooflineMessage().toStdString();
    QChart* roofline = view->rooflineChart();
    QScatterSeries* bf16 = scatterNamed(roofline, QStringLiteral("BF16"));
    QScatterSeries* fp8 = scatterNamed(roofline, QStringLiteral("FP8"));
    ASSERT_NE(bf16, nullptr);
    ASSERT_NE(fp8, nullptr);
    EXPECT_EQ(bf16->count(), 4);
    EXPECT_EQ(fp8->count(), 4);  // the skipped square case is not drawn
    EXPECT_DOUBLE_EQ(bf16->at(1).x(), intensity(128, 6144, 4096, 2));
    EXPECT_DOUBLE_EQ(bf16->at(1).y(), 512.34);
    EXPECT_DOUBLE_EQ(fp8->at(1).x(), intensity(128, 6144, 4096, 1));
    QLineSeries* bf16Roof = lineNamed(roofline, QStringLiteral("BF16 roof"));
    QLineSeries* fp8Roof = lineNamed(roofline, QStringLiteral("FP8 roof"));
    QLineSeries* memoryRoof = lineNamed(roofline, QStringLiteral("Memory roof"));
    ASSERT_NE(bf16Roof, nullptr);
    ASSERT_NE(fp8Roof, nullptr);
    ASSERT_NE(memoryRoof, nullptr);
    EXPECT_DOUBLE_EQ(bf16Roof->at(0).y(), 989.0);
    EXPECT_DOUBLE_EQ(bf16Roof->at(1).y(), 989.0);
    EXPECT_NEAR(bf16Roof->at(0).x(), 989.0 / 4.8, 1e-9);  // the ridge point: peak / bandwidth
    for (const QPointF& p : memoryRoof->points()) EXPECT_NEAR(p.y(), 4.8 * p.x(), 1e-9 * p.y());
    const auto xAxes = roofline->axes(Qt::Horizontal);
    const auto yAxes = roofline->axes(Qt::Vertical);
    ASSERT_EQ(xAxes.size(), 1);
    ASSERT_EQ(yAxes.size(), 1);
    EXPECT_NE(qobject_cast<QLogValueAxis*>(xAxes.first()), nullptr);
    EXPECT_NE(qobject_cast<QLogValueAxis*>(yAxes.first()), nullptr);
    EXPECT_TRUE(xAxes.first()->titleText().contains(QStringLiteral("FLOP/byte")));
    EXPECT_TRUE(yAxes.first()->titleText().contains(QStringLiteral("TFLOP/s")));
    EXPECT_FALSE(roofline->title().isEmpty());
    EXPECT_TRUE(roofline->legend()->isVisible());
    // Every point lies inside the axes' ranges.
    auto* xLog = qobject_cast<QLogValueAxis*>(xAxes.first());
    auto* yLog = qobject_cast<QLogValueAxis*>(yAxes.first());
    for (QScatterSeries* s : {bf16, fp8}) {
        for (const QPointF& p : s->points()) {
            EXPECT_GE(p.x(), xLog->min());
            EXPECT_LE(p.x(), xLog->max());
            EXPECT_GE(p.y(), yLog->min());
            EXPECT_LE(p.y(), yLog->max());
        }
    }

    // Hovering a point reads it out: layer, shape, throughput, % of roof.
    emit fp8->hovered(fp8->at(1), true);
    EXPECT_TRUE(view->hoverText().contains(QStringLiteral("qkv 128×6144×4096 FP8 E4M3: 958.1 TFLOP/s")))
        << view->hoverText().toStdString();
    EXPECT_TRUE(view->hoverText().contains(QStringLiteral("66.1 %")));
    EXPECT_TRUE(fp8->pointLabelsVisible());  // the hovered point's label only
    EXPECT_EQ(fp8->pointConfiguration(1).value(QXYSeries::PointConfiguration::LabelVisibility), QVariant(true));
    EXPECT_EQ(fp8->pointConfiguration(0).value(QXYSeries::PointConfiguration::LabelVisibility), QVariant(false));
    emit fp8->hovered(fp8->at(1), false);
    EXPECT_FALSE(fp8->pointLabelsVisible());

    // Speedup by M: one line per layer with its FP8 rows, and the 1.0 reference.
    EXPECT_TRUE(view->speedupMessage().isEmpty());
    QLineSeries* qkv = lineNamed(view->speedupChart(), QStringLiteral("qkv"));
    QLineSeries* o = lineNamed(view->speedupChart(), QStringLiteral("o"));
    ASSERT_NE(qkv, nullptr);
    ASSERT_NE(o, nullptr);
    ASSERT_EQ(qkv->count(), 2);
    EXPECT_EQ(qkv->at(0), QPointF(0, 1.78));  // x = log2(M): M = 1 and 128
    EXPECT_EQ(qkv->at(1), QPointF(7, 1.87));
    EXPECT_EQ(o->count(), 2);
    QLineSeries* reference = lineNamed(view->speedupChart(), QStringLiteral("1.0× (no gain)"));
    ASSERT_NE(reference, nullptr);
    EXPECT_DOUBLE_EQ(reference->at(0).y(), 1.0);
    EXPECT_EQ(seriesOf<QLineSeries>(view->speedupChart()).size(), 3);
    // The token axis labels the measured M values at their log2 places.
    const auto speedupX = view->speedupChart()->axes(Qt::Horizontal);
    ASSERT_EQ(speedupX.size(), 1);
    auto* tokens = qobject_cast<QCategoryAxis*>(speedupX.first());
    ASSERT_NE(tokens, nullptr);
    EXPECT_EQ(tokens->categoriesLabels(), (QStringList{QStringLiteral("1"), QStringLiteral("128")}));
    EXPECT_DOUBLE_EQ(tokens->endValue(QStringLiteral("128")), 7.0);
    EXPECT_TRUE(tokens->titleText().contains(QStringLiteral("Tokens M")));

    // KV error: the attention-output error (the headline metric), one line per scaling mode over the contexts, each
    // line and the chart carrying the metric's definition; the metric toggle switches to rel RMSE and to the TVD.
    EXPECT_TRUE(view->kvMessage().isEmpty());
    ASSERT_EQ(seriesOf<QLineSeries>(view->kvChart()).size(), 3);
    QLineSeries* perHead = lineNamed(view->kvChart(), QStringLiteral("per_head"));
    ASSERT_NE(perHead, nullptr);
    ASSERT_EQ(perHead->count(), 2);
    EXPECT_EQ(perHead->at(0), QPointF(10, std::log10(0.018)));   // x = log2(1024), y on a log10 percent axis
    EXPECT_EQ(perHead->at(1), QPointF(12, std::log10(0.0185)));  // x = log2(4096)
    for (QLineSeries* s : seriesOf<QLineSeries>(view->kvChart()))
        EXPECT_TRUE(s->property("toolTip").toString().contains(QStringLiteral("sqrt(Σ‖ô − o‖² / Σ‖o‖²)")))
            << s->name().toStdString();
    EXPECT_TRUE(view->kvView()->toolTip().startsWith(QStringLiteral("Attention-output error: ")));
    EXPECT_EQ(view->kvChart()->axes(Qt::Vertical).first()->titleText(), QStringLiteral("Output error"));
    EXPECT_EQ(view->kvChart()->title(), QStringLiteral("Attention-output error of an FP8 KV cache, by context"));
    view->kvMetricCombo()->setCurrentIndex(1);
    perHead = lineNamed(view->kvChart(), QStringLiteral("per_head"));
    ASSERT_NE(perHead, nullptr);
    EXPECT_EQ(perHead->at(1), QPointF(12, std::log10(0.026)));
    EXPECT_TRUE(perHead->property("toolTip").toString().contains(QStringLiteral("sqrt(Σ(x̂ − x)² / Σx²)")));
    view->kvMetricCombo()->setCurrentIndex(2);
    perHead = lineNamed(view->kvChart(), QStringLiteral("per_head"));
    ASSERT_NE(perHead, nullptr);
    EXPECT_EQ(perHead->at(1), QPointF(12, std::log10(0.0185 * 0.5)));
    EXPECT_TRUE(perHead->property("toolTip").toString().contains(QStringLiteral("½")));
    view->kvMetricCombo()->setCurrentIndex(0);
}

// Results saved by an older fp8dash (attn_rel_error, none of the new fields): the chart plots their K/V rel RMSE and
// says why, the old figure gets its own labelled column, and the headline is the K/V rel RMSE.
TEST_F(BenchViewTest, OlderResultsShowTheirOldFigureOnlyLabelled) {
    using fp8dash::test::benchKvLegacyRow;
    Json j = h200Json();
    j["kv"] =
        Json::array({benchKvLegacyRow("none", 1024, 0.03, 0.12), benchKvLegacyRow("per_tensor", 1024, 0.027, 0.10),
                     benchKvLegacyRow("per_tensor", 4096, 0.028, 0.11)});
    BenchView view;
    view.setLocalDevice(noGpu());
    const BenchResults results = parsed(j);
    view.setResults(&results);
    EXPECT_TRUE(view.kvMessage().isEmpty());
    EXPECT_EQ(view.kvMetricCombo()->currentIndex(), 0);  // the headline metric asked for; the file has none
    EXPECT_TRUE(view.kvChart()->axes(Qt::Vertical).first()->titleText().contains(QStringLiteral("K/V rel. RMSE")));
    EXPECT_TRUE(view.kvChart()->title().contains(QStringLiteral("saved before")))
        << view.kvChart()->title().toStdString();
    QLineSeries* perTensor = lineNamed(view.kvChart(), QStringLiteral("per_tensor"));
    ASSERT_NE(perTensor, nullptr);
    EXPECT_EQ(perTensor->at(1), QPointF(12, std::log10(0.028)));
    EXPECT_FALSE(view.kvTable()->isColumnHidden(BenchView::KvLegacyAttnError));
    EXPECT_EQ(cell(view.kvModel(), 2, BenchView::KvLegacyAttnError), QStringLiteral("0.11"));
    EXPECT_EQ(cell(view.kvModel(), 2, BenchView::KvAttnOutError), QStringLiteral("—"));
    EXPECT_EQ(cell(view.kvModel(), 2, BenchView::KvKeySaturated), QStringLiteral("—"));
    EXPECT_TRUE(view.kvHeadlineText().contains(QStringLiteral("K/V rel. RMSE 2.8% (per_tensor scaling, 4K tokens")))
        << view.kvHeadlineText().toStdString();
    EXPECT_TRUE(view.kvHeadlineText().contains(QStringLiteral("older fp8dash")));
    EXPECT_FALSE(view.kvHeadlineText().contains(QStringLiteral("11.0%")));
}

TEST_F(BenchViewTest, TheAttentionCellSaysHowSureItIs) {
    using fp8dash::test::benchKvRow;
    // per_tensor 6.0 % (2.6-14.0 %) and per_head 4.1 %, 1.9 points lower, -5.0 to +1.2: within the sampling error.
    Json perTensor = benchKvRow("per_tensor", 16384, 0.027, 0.06);
    perTensor["attn_rows"] = 256;
    perTensor["attn_heads"] = 16;
    perTensor["attn_out_ci95"] = Json::array({0.026, 0.14});
    Json perHead = benchKvRow("per_head", 16384, 0.027, 0.041);
    perHead["attn_out_ci95"] = Json::array({0.023, 0.072});
    perHead["attn_out_vs_per_tensor"] = {{"difference", -0.019}, {"ci95", Json::array({-0.05, 0.012})}};
    Json j = h200Json();
    j["kv"] = Json::array({perTensor, perHead});
    BenchView view;
    view.setLocalDevice(noGpu());
    const BenchResults results = parsed(j);
    view.setResults(&results);
    const QString first = view.kvModel()->index(0, BenchView::KvAttnOutError).data(Qt::ToolTipRole).toString();
    EXPECT_TRUE(first.contains(QStringLiteral("95% CI 2.6–14.0% (256 query rows over 16 heads)")))
        << first.toStdString();
    const QString second = view.kvModel()->index(1, BenchView::KvAttnOutError).data(Qt::ToolTipRole).toString();
    EXPECT_TRUE(
        second.contains(QStringLiteral("vs per_tensor: -1.90 points (95% CI -5.00 to 1.20): within the "
                                       "sampling error")))
        << second.toStdString();
    EXPECT_TRUE(view.kvHeadlineText().contains(QStringLiteral("95% CI 2.6–14.0%")))
        << view.kvHeadlineText().toStdString();
    EXPECT_TRUE(view.kvHeadlineText().contains(QStringLiteral("does not differ from per_tensor beyond the sampling")))
        << view.kvHeadlineText().toStdString();
}

TEST_F(BenchViewTest, SkippedSectionsSayWhyInPlaceOfTheirCharts) {
    Json j = h200Json();
    j["device"]["available"] = false;
    j["device"]["name"] = "";
    j["device"]["compute_capability"] = "";
    j["device"]["reason"] = "no NVIDIA driver is loaded";
    j["device"]["peak"] = nullptr;
    j["backend"] = "cpu";
    j["gemm"] = Json::array();
    j["gemm_skipped"] = "no usable GPU: no NVIDIA driver is loaded";
    j["bandwidth"] = Json::array();
    j["bandwidth_skipped"] = "no usable GPU: no NVIDIA driver is loaded";
    j["kv_kernel"] = Json::array();
    j["kv_backend"] = "cpu";
    BenchView view;
    view.setLocalDevice(noGpu());
    const BenchResults results = parsed(j);
    view.setResults(&results);
    EXPECT_EQ(view.rooflineMessage(), QStringLiteral("GEMM not run: no usable GPU: no NVIDIA driver is loaded"));
    EXPECT_EQ(view.speedupMessage(), QStringLiteral("GEMM not run: no usable GPU: no NVIDIA driver is loaded"));
    EXPECT_TRUE(view.kvMessage().isEmpty());
    EXPECT_TRUE(view.measuredText().contains(QStringLiteral("CPU (no GPU, as on this machine)")))
        << view.measuredText().toStdString();
    LocalDeviceStatus elsewhere = noGpu();
    elsewhere.reason = "no device";
    view.setLocalDevice(elsewhere);  // results from a machine whose reason differs: it is shown
    EXPECT_TRUE(view.measuredText().contains(QStringLiteral("CPU (no GPU: no NVIDIA driver is loaded)")))
        << view.measuredText().toStdString();
    EXPECT_EQ(view.gemmModel()->rowCount(), 1);  // "(not run)" with the reason
    EXPECT_TRUE(cell(view.gemmModel(), 0, BenchView::GemmNote).contains(QStringLiteral("no usable GPU")));

    j["kv"] = Json::array();
    j["kv_skipped"] = "not asked for";
    const BenchResults noKv = parsed(j);
    view.setResults(&noKv);
    EXPECT_EQ(view.kvMessage(), QStringLiteral("KV-cache experiment not run: not asked for"));

    view.setResults(nullptr);
    EXPECT_FALSE(view.rooflineMessage().isEmpty());
    EXPECT_EQ(view.gemmModel()->rowCount(), 0);
    EXPECT_EQ(view.kvModel()->rowCount(), 0);
    EXPECT_TRUE(view.rooflineChart()->series().isEmpty());
}

TEST_F(BenchViewTest, ACpuRunFromTheViewLandsInTheDocument) {
    MainWindow window;
    window.resize(1280, 820);
    window.show();
    window.showBenchmarks();  // no document yet: a new local-evidence one
    ASSERT_NE(window.current(), nullptr);
    EXPECT_FALSE(window.current()->document.hasEvals);
    EXPECT_FALSE(window.isModified());
    BenchView* view = window.comparisonView()->benchView();
    EXPECT_EQ(window.comparisonView()->tabs()->currentWidget(), view);
    view->setLocalDevice(noGpu());
    view->gemmCheck()->setChecked(false);
    view->bandwidthCheck()->setChecked(false);
    view->setKvContexts({64, 128});
    view->setKvLayers(1);
    const LocalBenchOptions options = view->runOptions();
    EXPECT_TRUE(options.cpuOnly);
    EXPECT_FALSE(options.gemm);
    EXPECT_EQ(options.kvContexts, (std::vector<int>{64, 128}));

    QSignalSpy applied(&window, &MainWindow::benchmarksApplied);
    QTest::mouseClick(view->runButton(), Qt::LeftButton);
    EXPECT_TRUE(view->isRunning());
    EXPECT_FALSE(view->runButton()->isEnabled());
    EXPECT_TRUE(view->cancelButton()->isVisible());
    ASSERT_TRUE(applied.wait(20000));
    EXPECT_FALSE(view->isRunning());
    EXPECT_FALSE(view->progressBar()->isVisible());

    ASSERT_NE(window.current(), nullptr);
    const auto& saved = window.current()->document.benchmarks;
    ASSERT_TRUE(saved.has_value());
    EXPECT_TRUE(window.isModified());
    EXPECT_TRUE(window.windowTitle().contains(QLatin1Char('*')));
    EXPECT_FALSE(saved->cancelled);
    EXPECT_TRUE(saved->gemm.empty());
    ASSERT_FALSE(saved->kv.empty());
    for (const BenchKvPoint& p : saved->kv) EXPECT_TRUE(p.context == 64 || p.context == 128) << p.context;
    EXPECT_EQ(view->kvModel()->rowCount(), static_cast<int>(saved->kv.size()));
    EXPECT_TRUE(view->kvMessage().isEmpty());
    EXPECT_FALSE(view->rooflineMessage().isEmpty());  // GEMM not asked for
    EXPECT_TRUE(view->statusText().contains(QStringLiteral("Finished"))) << view->statusText().toStdString();
}

// A document started by Bench › Run Benchmarks holds no eval runs and no timeline: saved, it must open again.
TEST_F(BenchViewTest, ALocalEvidenceDocumentSavesAndOpensAgain) {
    MainWindow window;
    window.showBenchmarks();
    BenchView* view = window.comparisonView()->benchView();
    view->setLocalDevice(noGpu());
    view->gemmCheck()->setChecked(false);
    view->bandwidthCheck()->setChecked(false);
    view->setKvContexts({64});
    view->setKvLayers(1);
    QSignalSpy applied(&window, &MainWindow::benchmarksApplied);
    window.runBenchmarks();
    ASSERT_TRUE(applied.wait(20000));
    ASSERT_TRUE(window.current()->document.benchmarks.has_value());
    const std::size_t rows = window.current()->document.benchmarks->kv.size();

    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("local.fp8cmp"));
    ASSERT_TRUE(window.saveTo(path).ok());
    EXPECT_FALSE(window.isModified());
    auto loaded = loadComparisonFile(path.toStdString());
    ASSERT_TRUE(loaded.ok()) << loaded.error().message;
    EXPECT_FALSE(loaded->hasEvals);
    ASSERT_TRUE(loaded->benchmarks.has_value());
    EXPECT_EQ(loaded->benchmarks->kv.size(), rows);

    MainWindow reopened;
    QSignalSpy shown(&reopened, &MainWindow::documentShown);
    reopened.openFileAsync(path);
    ASSERT_TRUE(shown.wait(20000));
    EXPECT_EQ(reopened.comparisonView()->benchView()->kvModel()->rowCount(), static_cast<int>(rows));
}

TEST_F(BenchViewTest, CancelRightAfterStartKeepsWhatFinishedAndSaysCancelled) {
    MainWindow window;
    window.showBenchmarks();
    BenchView* view = window.comparisonView()->benchView();
    view->setLocalDevice(noGpu());
    view->gemmCheck()->setChecked(false);
    view->bandwidthCheck()->setChecked(false);
    // Short contexts keep the test quick: the run notices Cancel at its next step at the latest, and a run that
    // reaches its end after Cancel is still reported cancelled.
    view->setKvContexts({256, 512});
    view->setKvLayers(1);
    QSignalSpy finished(view, &BenchView::runFinished);
    QSignalSpy failed(view, &BenchView::runFailed);
    window.runBenchmarks();
    ASSERT_TRUE(view->isRunning());
    view->cancelButton()->click();
    EXPECT_FALSE(view->cancelButton()->isEnabled());
    ASSERT_TRUE(finished.wait(20000));
    EXPECT_FALSE(view->isRunning());
    EXPECT_EQ(failed.count(), 0);
    ASSERT_EQ(finished.count(), 1);
    ASSERT_NE(window.current(), nullptr);
    const auto& saved = window.current()->document.benchmarks;
    ASSERT_TRUE(saved.has_value());
    EXPECT_TRUE(saved->cancelled);
    EXPECT_TRUE(view->statusText().contains(QStringLiteral("Cancelled"))) << view->statusText().toStdString();
    EXPECT_TRUE(view->measuredText().contains(QStringLiteral("cancelled")));
    EXPECT_TRUE(view->runButton()->isEnabled());
}

TEST_F(BenchViewTest, ARunFinishingAfterAnotherDocumentOpenedIsDropped) {
    MainWindow window;
    window.showBenchmarks();
    BenchView* view = window.comparisonView()->benchView();
    view->setLocalDevice(noGpu());
    view->gemmCheck()->setChecked(false);
    view->bandwidthCheck()->setChecked(false);
    view->setKvContexts({64});
    view->setKvLayers(1);
    QSignalSpy finished(view, &BenchView::runFinished);
    window.runBenchmarks();
    showEvalsOnly(window);  // another document while the run goes on
    ASSERT_TRUE(finished.wait(20000));
    ASSERT_NE(window.current(), nullptr);
    EXPECT_TRUE(window.current()->document.hasEvals);
    EXPECT_FALSE(window.current()->document.benchmarks.has_value());
    EXPECT_FALSE(window.isModified());
}

TEST_F(BenchViewTest, ABadOptionIsShownNotThrown) {
    BenchView view;
    view.setLocalDevice(noGpu());
    view.setKvContexts({0});  // out of range for core
    view.gemmCheck()->setChecked(false);
    view.bandwidthCheck()->setChecked(false);
    QSignalSpy failed(&view, &BenchView::runFailed);
    view.startRun();
    ASSERT_TRUE(failed.wait(20000));
    EXPECT_TRUE(view.statusText().contains(QStringLiteral("failed"))) << view.statusText().toStdString();
    EXPECT_FALSE(view.isRunning());
}

TEST_F(BenchViewTest, BenchMenuHasItsShortcutsWithoutClashes) {
    MainWindow window;
    const QStringList found = actionShortcuts(&window);
    // Tabs by their place among the visible ones (View › Go to Tab): with no document, Offline evals, Domain judge,
    // Production timeline, Serving, Local benchmarks (Ctrl+5), Capacity (Ctrl+6), Review.
    EXPECT_TRUE(found.contains(QStringLiteral("Show Local Benchmarks=Ctrl+5")))
        << found.join(QLatin1Char(' ')).toStdString();
    EXPECT_TRUE(found.contains(QStringLiteral("Run Benchmarks=Ctrl+B")));
    EXPECT_TRUE(found.contains(QStringLiteral("Show Capacity=Ctrl+6")));
    QStringList keys;
    for (const QString& entry : found) keys << entry.section(QLatin1Char('='), 1);
    QStringList unique = keys;
    unique.removeDuplicates();
    EXPECT_EQ(unique.size(), keys.size()) << keys.join(QLatin1Char(' ')).toStdString();
}

// "No clipped text": every single-line label of the benchmarks and capacity tabs gets its full width.
TEST_F(BenchViewTest, LabelsAreNotClippedAtTheDefaultSize) {
    const BenchResults results = parsed(h200Json());
    MainWindow window;
    window.resize(1280, 820);
    window.comparisonView()->benchView()->setLocalDevice(noGpu());
    window.show();
    window.showDocument(documentWithBenchmarks(results), {}, QStringLiteral("h200"));
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
    for (auto show : {&MainWindow::showBenchmarks, &MainWindow::showCapacity}) {
        (window.*show)();
        QTest::qWait(20);  // let the layouts settle
        QWidget* page = window.comparisonView()->tabs()->currentWidget();
        for (const QLabel* label : page->findChildren<QLabel*>()) {
            if (!label->isVisible() || label->wordWrap() || label->text().isEmpty()) continue;
            EXPECT_GE(label->width(), label->minimumSizeHint().width())
                << "clipped: \"" << label->text().toStdString() << "\"";
        }
    }
}

TEST_F(BenchViewTest, ControlsHaveAccessibleNames) {
    BenchView view;
    for (QWidget* w : std::initializer_list<QWidget*>{view.modelCombo(), view.gemmCheck(), view.bandwidthCheck(),
                                                      view.kvCheck(), view.cpuOnlyCheck(), view.runButton(),
                                                      view.cancelButton(), view.progressBar(), view.kvMetricCombo(),
                                                      view.gemmTable(), view.bandwidthTable(), view.kvTable()}) {
        EXPECT_FALSE(w->accessibleName().isEmpty()) << w->objectName().toStdString();
    }
}

}  // namespace
}  // namespace fp8dash::ui::test

namespace fp8dash::ui::test {
namespace {

// The horizontal and vertical ranges of a chart's first axes (what a zoom changes).
QList<double> axisRanges(const QChart* chart) {
    QList<double> out;
    for (const Qt::Orientation o : {Qt::Horizontal, Qt::Vertical}) {
        const auto axes = chart->axes(o);
        if (axes.isEmpty()) continue;
        if (const auto* log = qobject_cast<const QLogValueAxis*>(axes.first()))
            out << log->min() << log->max();
        else if (const auto* value = qobject_cast<const QValueAxis*>(axes.first()))
            out << value->min() << value->max();
    }
    return out;
}

// A theme switch (dark, then light again) repaints the tab in place: the tables keep their sort, selection and
// scroll, the tab and the splitter stay, a zoomed chart keeps its zoom and takes the palette's colours, and no table
// model is reset.
TEST_F(BenchViewTest, AThemeSwitchKeepsSortSelectionTabSplitterAndZoom) {
    const ThemeMode before = Theme::instance()->mode();
    Theme::instance()->setMode(ThemeMode::Light);
    BenchView view;
    view.setLocalDevice(noGpu());
    const BenchResults results = parsed(h200Json());
    view.setResults(&results);
    view.resize(1200, 900);
    view.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&view));
    QTableView* gemm = view.gemmTable();
    gemm->sortByColumn(BenchView::GemmTflops, Qt::DescendingOrder);
    gemm->selectRow(3);
    gemm->setFixedHeight(90);  // a few rows on screen: the rest scrolled to
    QCoreApplication::processEvents();
    gemm->verticalScrollBar()->setValue(gemm->verticalScrollBar()->maximum());
    const int scrolled = gemm->verticalScrollBar()->value();
    ASSERT_GT(scrolled, 0);
    const QString selectedLayer = view.gemmModel()->index(3, BenchView::GemmLayer).data().toString() +
                                  view.gemmModel()->index(3, BenchView::GemmTflops).data().toString();
    auto* tabs = view.findChild<QTabWidget*>(QStringLiteral("benchTables"));
    ASSERT_NE(tabs, nullptr);
    tabs->setCurrentIndex(2);
    auto* splitter = view.findChild<QSplitter*>(QStringLiteral("benchSplitter"));
    ASSERT_NE(splitter, nullptr);
    splitter->setSizes({500, 300});
    const QList<int> sizes = splitter->sizes();
    view.rooflineChart()->zoom(2.0);
    const QList<double> zoomed = axisRanges(view.rooflineChart());
    ASSERT_FALSE(zoomed.isEmpty());
    const int resets =
        view.gemmModel()->resetCount() + view.bandwidthModel()->resetCount() + view.kvModel()->resetCount();
    QSignalSpy gemmReset(view.gemmModel(), &QAbstractItemModel::modelReset);

    Theme::instance()->setMode(ThemeMode::Dark);
    EXPECT_LT(view.rooflineChart()->backgroundBrush().color().lightness(), 128);  // re-styled for the dark palette
    EXPECT_EQ(axisRanges(view.rooflineChart()), zoomed);
    Theme::instance()->setMode(ThemeMode::Light);
    EXPECT_EQ(view.rooflineChart()->backgroundBrush().color(), QColor(Qt::white));

    EXPECT_EQ(gemmReset.count(), 0);
    EXPECT_EQ(view.gemmModel()->resetCount() + view.bandwidthModel()->resetCount() + view.kvModel()->resetCount(),
              resets);
    EXPECT_EQ(gemm->horizontalHeader()->sortIndicatorSection(), BenchView::GemmTflops);
    EXPECT_EQ(gemm->horizontalHeader()->sortIndicatorOrder(), Qt::DescendingOrder);
    const QModelIndexList selected = gemm->selectionModel()->selectedRows();
    ASSERT_EQ(selected.size(), 1);
    EXPECT_EQ(selected.first().row(), 3);
    EXPECT_EQ(view.gemmModel()->index(3, BenchView::GemmLayer).data().toString() +
                  view.gemmModel()->index(3, BenchView::GemmTflops).data().toString(),
              selectedLayer);
    EXPECT_EQ(gemm->verticalScrollBar()->value(), scrolled);
    EXPECT_EQ(tabs->currentIndex(), 2);
    EXPECT_EQ(splitter->sizes(), sizes);
    EXPECT_EQ(axisRanges(view.rooflineChart()), zoomed);
    Theme::instance()->setMode(before);
}

}  // namespace
}  // namespace fp8dash::ui::test
