// The Serving tab's view (serving_view.h) driven as a user sees it at 1366 × 768: the "What FP8 buys" card, the
// throughput–latency chart (one line per variant, the capacity stars, the SLO line, the all-failed cross, the
// statistic combo, the hover read-out), the per-load table and the empty state. The baseline is the real InferenceX
// gpt-oss-120b sweep (concurrency 4..512, read here from the files' raw keys with nlohmann, not through fp8dash's
// reader); the two candidates are that sweep scaled by factors written below, so every expected figure is the file's
// number times a factor, computed here.
#include <QApplication>
#include <QCategoryAxis>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QHeaderView>
#include <QLabel>
#include <QLegend>
#include <QLegendMarker>
#include <QLineF>
#include <QLineSeries>
#include <QMenu>
#include <QScatterSeries>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QValueAxis>

#include <cmath>
#include <fstream>

#include <nlohmann/json.hpp>

#include "fp8dash/core/serving_comparison.h"
#include "fp8dash/core/serving_format.h"
#include "fp8dash/ui/export_actions.h"
#include "fp8dash/ui/loaded_comparison.h"
#include "fp8dash/ui/serving_chart.h"
#include "fp8dash/ui/serving_table_model.h"
#include "fp8dash/ui/serving_view.h"
#include "fp8dash/ui/theme.h"
#include "gui_test_support.h"

namespace fp8dash::ui::test {
namespace {

const int kLoads[] = {4, 8, 16, 32, 64, 128, 256, 512};

// The raw figures of one InferenceX file (what the expectations are computed from).
struct RawPoint {
    double outputTokS = 0, requestsS = 0;
    double ttftP99 = 0, ttftP50 = 0, tpotP99 = 0, e2elMean = 0;
    nlohmann::json j;
};

std::string inferenceXFile(int concurrency) {
    return sharedFixture("serving/vllm-bench-serve/inferencex_gpt-oss-120b_concurrency_" + std::to_string(concurrency) +
                         "_req_rate_inf_gpus_16_ctx_8_gen_8.json");
}

RawPoint raw(int concurrency) {
    std::ifstream in(inferenceXFile(concurrency));
    RawPoint r;
    r.j = nlohmann::json::parse(in);
    r.outputTokS = r.j["output_throughput"];
    r.requestsS = r.j["request_throughput"];
    r.ttftP99 = r.j["p99_ttft_ms"];
    r.ttftP50 = r.j["median_ttft_ms"];
    r.tpotP99 = r.j["p99_tpot_ms"];
    r.e2elMean = r.j["mean_e2el_ms"];
    return r;
}

// One file as a ServingRun, its throughput times `speed` and its latencies times `latency`.
ServingRun scaledRun(int concurrency, double speed, double latency) {
    const RawPoint p = raw(concurrency);
    const nlohmann::json& j = p.j;
    ServingRun r;
    r.source = inferenceXFile(concurrency);
    r.model = j["model_id"];
    r.load = {LoadAxis::Concurrency, double(concurrency), std::nullopt};
    r.completed = j["completed"];
    r.meanInputTokens = j["total_input_tokens"].get<double>() / j["completed"].get<double>();
    r.meanOutputTokens = j["total_output_tokens"].get<double>() / j["completed"].get<double>();
    r.outputTokensPerS = p.outputTokS * speed;
    r.requestsPerS = p.requestsS * speed;
    for (auto [m, key] : {std::pair{&r.ttft, "ttft"}, {&r.tpot, "tpot"}, {&r.itl, "itl"}, {&r.e2el, "e2el"}}) {
        const std::string k = key;
        m->mean = j["mean_" + k + "_ms"].get<double>() * latency;
        m->median = j["median_" + k + "_ms"].get<double>() * latency;
        m->percentiles = {{90, j["p90_" + k + "_ms"].get<double>() * latency},
                          {99, j["p99_" + k + "_ms"].get<double>() * latency},
                          {99.9, j["p99.9_" + k + "_ms"].get<double>() * latency}};
    }
    return r;
}

// vLLM's file of a run where every request failed: completed 0, every latency 0.0.
ServingRun allFailedRun(int concurrency) {
    ServingRun r = scaledRun(concurrency, 0, 0);
    r.failed = r.completed;
    r.completed = 0;
    return r;
}

constexpr double kW8A8Speed = 1.15, kW8A8Latency = 0.8;  // FP8 W8A8: +15 % tok/s, latencies × 0.8
constexpr double kKvSpeed = 1.16, kKvLatency = 0.95;     // + FP8 KV: +16 %, latencies × 0.95, 512 all failed

ServingComparison threeVariants() {
    std::vector<ServingRun> base, w8a8, kv;
    for (int c : kLoads) {
        base.push_back(scaledRun(c, 1, 1));
        w8a8.push_back(scaledRun(c, kW8A8Speed, kW8A8Latency));
        kv.push_back(c == 512 ? allFailedRun(c) : scaledRun(c, kKvSpeed, kKvLatency));
    }
    ServingOptions o;
    o.slo = *parseServingSlo("ttft_p99=2000ms,tpot_p99=20ms");
    o.targetLoad = 1000;
    return compareServing({{"BF16", base}, {"FP8 W8A8", w8a8}, {"FP8 W8A8 + FP8 KV", kv}}, o);
}

// The text colour a label's style sheet sets (style::setTextTone writes "QLabel { color: #rrggbb; ... }").
QColor styleColour(const QLabel* label) {
    const QString sheet = label->styleSheet();
    const int at = sheet.indexOf(QStringLiteral("color: #"));
    return at < 0 ? QColor() : QColor(sheet.mid(at + 7, 7));
}

// A one-point run of a made-up model with the given output tokens/s (for the card's tones).
ServingRun onePoint(double outputTokS) {
    ServingRun r;
    r.model = "meta-llama/Llama-3.1-8B-Instruct";
    r.load = {LoadAxis::Concurrency, 8, std::nullopt};
    r.completed = 100;
    r.outputTokensPerS = outputTokS;
    r.ttft.percentiles = {{99, 500}};
    return r;
}

#define REQUIRE_SWEEP() FP8DASH_REQUIRE_FIXTURE(inferenceXFile(4))

void showAt(ServingView& view, QSize size) {
    view.resize(size);
    view.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&view));
    QTest::qWait(20);  // let the layouts settle
}

// The loads a series is drawn at (x is log₂ of the load on the log axis).
std::vector<double> loadsOf(const ServingChart& chart, const QXYSeries* s) {
    std::vector<double> out;
    for (int i = 0; i < s->count(); ++i) out.push_back(std::round(chart.loadOfX(s->at(i).x()) * 1000) / 1000);
    return out;
}

}  // namespace

class ServingViewTest : public GuiTest {};

TEST_F(ServingViewTest, CardSaysWhatEachCandidateBuysInTheCoresWords) {
    REQUIRE_SWEEP();
    const ServingComparison c = threeVariants();
    ServingView view;
    view.setComparison(c);
    showAt(view, {1366, 768});
    EXPECT_FALSE(view.isEmptyShown());
    ASSERT_EQ(view.gainTexts().size(), 2);
    for (int i = 0; i < 2; ++i) {
        ASSERT_TRUE(c.variants[std::size_t(i) + 1].gain);
        EXPECT_EQ(view.gainTexts()[i], toQString(c.variants[std::size_t(i) + 1].gain->sentence));
    }
    // At the SLO (p99 TTFT ≤ 2 s, p99 TPOT ≤ 20 ms), the baseline holds to 256 (TPOT 22.29 ms at 512); W8A8's
    // latencies × 0.8 meet it at 512 too (TTFT 1,795.8, TPOT 17.8): a gain; the KV variant fails at 512: capacity 256
    // like the baseline, with 16 % more tokens/s there: also a gain beyond the 2 % noise.
    EXPECT_TRUE(view.gainTexts()[0].startsWith(QStringLiteral("FP8 W8A8 buys +"))) << view.gainTexts()[0].toStdString();
    EXPECT_NE(view.sloText().indexOf(toQString(c.slo.words())), -1) << view.sloText().toStdString();
    // Gains beyond the noise: in the success colour (green over red), bold.
    for (QLabel* label : view.gainLabels()) {
        const QColor colour = styleColour(label);
        EXPECT_GT(colour.green(), colour.red()) << label->styleSheet().toStdString();
        EXPECT_NE(label->styleSheet().indexOf(QStringLiteral("bold")), -1);
    }
    EXPECT_EQ(view.cardTitle(), QStringLiteral("What FP8 buys on your server"));
    // The KV variant's load where every request failed is said on the card, with the variant's name.
    ASSERT_EQ(c.variants[2].flags.size(), 1u);
    EXPECT_TRUE(view.problemTexts().contains(toQString("FP8 W8A8 + FP8 KV: " + c.variants[2].flags[0])))
        << view.problemTexts().join(QLatin1Char('|')).toStdString();
    EXPECT_NE(c.variants[2].flags[0].find("every request failed at 512"), std::string::npos);
}

TEST_F(ServingViewTest, ChartHasALinePerVariantWithCapacityStarsAtTheCoresCapacity) {
    REQUIRE_SWEEP();
    const ServingComparison c = threeVariants();
    ServingView view;
    view.setComparison(c);
    showAt(view, {1366, 768});
    const ServingChart& chart = *view.chart();
    // 4..512 spans 128×: a log₂ load axis, one labelled tick per measured load.
    EXPECT_TRUE(chart.logLoadAxis());
    auto* x = qobject_cast<QCategoryAxis*>(chart.chart()->axes(Qt::Horizontal).value(0));
    ASSERT_NE(x, nullptr);
    EXPECT_EQ(x->categoriesLabels(), (QStringList{"4", "8", "16", "32", "64", "128", "256", "512"}));
    // Default statistic: the SLO's first target, p99 TTFT.
    EXPECT_EQ(chart.statistic(), (ServingChart::Statistic{ServingMetric::Ttft, 99}));
    EXPECT_EQ(view.statisticCombo()->currentText(), QStringLiteral("p99 TTFT"));
    const std::vector<double> all = {4, 8, 16, 32, 64, 128, 256, 512};
    for (int v = 0; v < 3; ++v) {
        QLineSeries* line = chart.lineSeries(v);
        ASSERT_NE(line, nullptr);
        const std::vector<double> expected = v == 2 ? std::vector<double>(all.begin(), all.end() - 1) : all;
        EXPECT_EQ(loadsOf(chart, line), expected) << v;
        EXPECT_EQ(line->pen().color(), v == 0 ? ServingChart::variantColor(0) : ServingChart::variantColor(v));
    }
    // y is p99 TTFT: the file's figure times the variant's latency factor.
    for (int i = 0; i < 8; ++i) {
        const double ttft = raw(kLoads[i]).ttftP99;
        EXPECT_NEAR(chart.lineSeries(0)->at(i).y(), ttft, 1e-6);
        EXPECT_NEAR(chart.lineSeries(1)->at(i).y(), ttft * kW8A8Latency, 1e-6);
        if (i < 7) {
            EXPECT_NEAR(chart.lineSeries(2)->at(i).y(), ttft * kKvLatency, 1e-6);
        }
    }
    // The capacity stars at the core's capacity loads, worked out by hand above: 256, 512 (at least), 256.
    const double expectedCapacity[] = {256, 512, 256};
    for (int v = 0; v < 3; ++v) {
        QScatterSeries* star = chart.capacitySeries(v);
        ASSERT_NE(star, nullptr) << v;
        ASSERT_EQ(star->count(), 1);
        ASSERT_TRUE(c.variants[std::size_t(v)].capacity.load);
        EXPECT_EQ(*c.variants[std::size_t(v)].capacity.load, expectedCapacity[v]);
        EXPECT_NEAR(chart.loadOfX(star->at(0).x()), expectedCapacity[v], 1e-9);
        EXPECT_EQ(star->markerShape(), QScatterSeries::MarkerShapeStar);
        EXPECT_EQ(chart.capacityLabel(v), v == 1 ? QStringLiteral("capacity ≥ 512") : QStringLiteral("capacity 256"));
    }
    // BF16 and the KV variant share the capacity 256: one label, drawn by the higher star (BF16's p99 TTFT there is
    // the file's 1,578.5 ms, the KV variant's × 0.95), so the two never overprint.
    EXPECT_TRUE(chart.capacityLabelShown(0));
    EXPECT_FALSE(chart.capacityLabelShown(2));
    EXPECT_TRUE(chart.capacityLabelShown(1));
    // The labels shown cross neither the SLO line (at 2,000 ms, where the chart maps it) nor each other, and sit
    // beside their own star.
    QChart* qc = chart.chart();
    const double sloY = qc->mapToPosition(QPointF(chart.sloSeries()->at(0).x(), 2000), chart.sloSeries()).y();
    std::vector<QRectF> labels;
    for (int v : {0, 1}) {
        const QRectF box = chart.capacityLabelRect(v);
        ASSERT_FALSE(box.isEmpty()) << v;
        EXPECT_FALSE(box.top() <= sloY && box.bottom() >= sloY)
            << "capacity label " << v << " " << box.top() << ".." << box.bottom() << " crosses the SLO at " << sloY;
        const QPointF star = qc->mapToPosition(chart.capacitySeries(v)->at(0), chart.capacitySeries(v));
        EXPECT_LT(QLineF(star, box.center()).length(), box.width() / 2 + 40) << "label " << v << " is by its star";
        EXPECT_TRUE(QRectF(qc->rect()).contains(box)) << "label " << v << " is cut off at the chart's edge";
        for (const QRectF& other : labels) EXPECT_FALSE(box.intersects(other)) << v;
        labels.push_back(box);
    }
    // The all-failed load of the KV variant: a cross at the top, not a point on its line.
    QScatterSeries* failed = chart.failedSeries(2);
    ASSERT_NE(failed, nullptr);
    ASSERT_EQ(failed->count(), 1);
    EXPECT_NEAR(chart.loadOfX(failed->at(0).x()), 512, 1e-9);
    auto* y = qobject_cast<QValueAxis*>(chart.chart()->axes(Qt::Vertical).value(0));
    ASSERT_NE(y, nullptr);
    EXPECT_GT(failed->at(0).y(), 0.9 * y->max());
    EXPECT_EQ(chart.failedSeries(0), nullptr);
    // The SLO line at 2,000 ms, dashed.
    ASSERT_NE(chart.sloSeries(), nullptr);
    EXPECT_EQ(chart.sloSeries()->at(0).y(), 2000);
    EXPECT_EQ(chart.sloSeries()->pen().style(), Qt::DashLine);
    // The legend names the variants, what a cross means and the SLO; not the capacity stars (they are labelled).
    QStringList legend;
    for (QLegendMarker* m : chart.chart()->legend()->markers())
        if (m->isVisible()) legend << m->label();
    EXPECT_EQ(legend, (QStringList{"BF16 (baseline)", "FP8 W8A8", "FP8 W8A8 + FP8 KV", "✕ every request failed",
                                   "SLO: " + toQString(c.slo.targets[0].words())}));
}

TEST_F(ServingViewTest, StatisticComboChangesTheYValuesAndTheSloLine) {
    REQUIRE_SWEEP();
    ServingView view;
    view.setComparison(threeVariants());
    showAt(view, {1366, 768});
    ServingChart& chart = *view.chart();
    QComboBox* combo = view.statisticCombo();
    // p50 TTFT: the file's median; no SLO target on it, so no SLO line.
    combo->setCurrentIndex(combo->findText(QStringLiteral("p50 TTFT")));
    EXPECT_EQ(chart.statistic(), (ServingChart::Statistic{ServingMetric::Ttft, 50}));
    for (int i = 0; i < 8; ++i) EXPECT_NEAR(chart.lineSeries(0)->at(i).y(), raw(kLoads[i]).ttftP50, 1e-6);
    EXPECT_EQ(chart.sloSeries(), nullptr);
    // p99 TPOT: the SLO's second target, 20 ms.
    combo->setCurrentIndex(combo->findText(QStringLiteral("p99 TPOT")));
    for (int i = 0; i < 8; ++i)
        EXPECT_NEAR(chart.lineSeries(1)->at(i).y(), raw(kLoads[i]).tpotP99 * kW8A8Latency, 1e-6);
    ASSERT_NE(chart.sloSeries(), nullptr);
    EXPECT_EQ(chart.sloSeries()->at(0).y(), 20);
    // mean E2E latency.
    combo->setCurrentIndex(combo->findText(QStringLiteral("mean E2E latency")));
    for (int i = 0; i < 8; ++i) EXPECT_NEAR(chart.lineSeries(0)->at(i).y(), raw(kLoads[i]).e2elMean, 1e-6);
    // Output tokens/s instead of a latency: the statistic combo is off, no SLO line, the capacity star stays.
    view.quantityCombo()->setCurrentIndex(1);
    EXPECT_FALSE(combo->isEnabled());
    auto* y = qobject_cast<QValueAxis*>(chart.chart()->axes(Qt::Vertical).value(0));
    ASSERT_NE(y, nullptr);
    EXPECT_EQ(y->titleText(), QStringLiteral("Output tokens/s"));
    EXPECT_GE(y->max(), raw(512).outputTokS * kW8A8Speed);
    for (int i = 0; i < 8; ++i)
        EXPECT_NEAR(chart.lineSeries(1)->at(i).y(), raw(kLoads[i]).outputTokS * kW8A8Speed, 1e-6);
    EXPECT_EQ(chart.sloSeries(), nullptr);
    ASSERT_NE(chart.capacitySeries(0), nullptr);
    EXPECT_NEAR(chart.capacitySeries(0)->at(0).y(), raw(256).outputTokS, 1e-6);
    // A new comparison keeps the user's choice of statistic.
    view.quantityCombo()->setCurrentIndex(0);
    view.setComparison(threeVariants());
    EXPECT_EQ(combo->currentText(), QStringLiteral("mean E2E latency"));
}

TEST_F(ServingViewTest, HoveringAPointReadsOutVariantLoadValueAndDelta) {
    REQUIRE_SWEEP();
    ServingView view;
    view.setComparison(threeVariants());
    showAt(view, {1366, 768});
    ServingChart& chart = *view.chart();
    QLineSeries* w8a8 = chart.lineSeries(1);
    ASSERT_NE(w8a8, nullptr);
    emit w8a8->hovered(w8a8->at(4), true);  // concurrency 64
    // p99 TTFT × 0.8: −20.0 % against BF16, lower latency is better.
    const double ttft = raw(64).ttftP99 * kW8A8Latency;
    const QString expectedValue = QString::number(ttft, 'f', ttft >= 100 ? 1 : 2) + QStringLiteral(" ms");
    EXPECT_TRUE(
        chart.hoverText().startsWith(QStringLiteral("FP8 W8A8 at 64 concurrent requests: p99 TTFT ") + expectedValue))
        << chart.hoverText().toStdString();
    EXPECT_NE(chart.hoverText().indexOf(QStringLiteral("-20.0% against BF16, better")), -1)
        << chart.hoverText().toStdString();
    QScatterSeries* failed = chart.failedSeries(2);
    ASSERT_NE(failed, nullptr);
    emit failed->hovered(failed->at(0), true);
    EXPECT_NE(chart.hoverText().indexOf(QStringLiteral("every request failed")), -1) << chart.hoverText().toStdString();
    EXPECT_TRUE(chart.hoverText().startsWith(QStringLiteral("FP8 W8A8 + FP8 KV at 512 concurrent requests")));
    // The read-out is on screen: under the card at 1366 wide (the chart keeps the height), under the chart when
    // narrow.
    for (const int width : {1366, 900}) {
        view.resize(width, 768);
        QTest::qWait(20);
        const QLabel* readout = view.readoutLabel();
        ASSERT_NE(readout, nullptr);
        EXPECT_TRUE(readout->isVisible()) << width;
        EXPECT_EQ(readout->text(), chart.hoverText()) << width;
        const QRect inView(readout->mapTo(&view, QPoint(0, 0)), readout->size());
        const QRect chartInView(chart.chartView()->mapTo(&view, QPoint(0, 0)), chart.chartView()->size());
        if (width == 1366)
            EXPECT_GT(inView.left(), chartInView.right()) << "beside the chart";
        else
            EXPECT_GT(inView.top(), chartInView.bottom()) << "under the chart";
    }
}

TEST_F(ServingViewTest, TableRowsAreTheCoresTableWithTonesInTheGoodAndBadColours) {
    REQUIRE_SWEEP();
    const ServingComparison c = threeVariants();
    ServingView view;
    view.setComparison(c);
    showAt(view, {1366, 768});
    EXPECT_EQ(view.tableVariantCombo()->count(), 3);
    EXPECT_EQ(view.tableVariantCombo()->currentIndex(), 1);  // the first candidate
    for (int v : {1, 2, 0}) {
        view.tableVariantCombo()->setCurrentIndex(v);
        const ServingTable t = servingTable(c, c.variants[std::size_t(v)]);
        const QAbstractItemModel* m = view.table()->model();
        ASSERT_EQ(m->rowCount(), static_cast<int>(t.rows.size()));
        ASSERT_EQ(m->columnCount(), static_cast<int>(t.header.size()));
        for (int col = 0; col < m->columnCount(); ++col)
            EXPECT_EQ(m->headerData(col, Qt::Horizontal).toString(), toQString(t.header[std::size_t(col)]));
        for (int r = 0; r < m->rowCount(); ++r)
            for (int col = 0; col < m->columnCount(); ++col) {
                const QModelIndex index = m->index(r, col);
                EXPECT_EQ(index.data().toString(), toQString(t.rows[std::size_t(r)][std::size_t(col)])) << r << col;
                const QVariant fg = index.data(Qt::ForegroundRole);
                const int tone = t.tone[std::size_t(r)][std::size_t(col)];
                if (tone == 0) {
                    EXPECT_FALSE(fg.isValid()) << r << " " << col;
                } else {
                    ASSERT_TRUE(fg.isValid()) << r << " " << col;
                    const QColor colour = fg.value<QColor>();
                    // Good: green over red; bad: red over green.
                    if (tone > 0)
                        EXPECT_GT(colour.green(), colour.red()) << r << " " << col;
                    else
                        EXPECT_GT(colour.red(), colour.green()) << r << " " << col;
                }
            }
        EXPECT_EQ(view.capacityText(),
                  QStringLiteral("Capacity: ") + toQString(servingCapacityWords(c, c.variants[std::size_t(v)])));
    }
    // W8A8 at 64: output tok/s × 1.15 is +15.0 %, in the good colour; its exact value is the CSV's.
    view.tableVariantCombo()->setCurrentIndex(1);
    const QAbstractItemModel* m = view.table()->model();
    EXPECT_EQ(m->index(4, 3).data().toString(), QStringLiteral("+15.0%"));
    EXPECT_NEAR(m->index(4, 2).data(Qt::UserRole).toDouble(), raw(64).outputTokS * kW8A8Speed, 1e-9);
    EXPECT_NEAR(m->index(4, 3).data(Qt::UserRole).toDouble(), 15.0, 1e-9);
    // 1,000 concurrent users at a capacity of 256: 4 replicas of the baseline, 2 of W8A8's 512.
    EXPECT_NE(view.replicaText().indexOf(QStringLiteral("2 replicas")), -1) << view.replicaText().toStdString();
    view.tableVariantCombo()->setCurrentIndex(0);
    EXPECT_NE(view.replicaText().indexOf(QStringLiteral("4 replicas")), -1) << view.replicaText().toStdString();
}

TEST_F(ServingViewTest, NothingIsClippedAt1366x768AndTheControlsAreNamed) {
    REQUIRE_SWEEP();
    ServingView view;
    view.setComparison(threeVariants());
    showAt(view, {1366, 768});
    EXPECT_EQ(clippedSlideLabels(&view).join(QLatin1Char('\n')).toStdString(), "");
    for (const QLabel* label : view.findChildren<QLabel*>()) {
        if (!label->isVisible() || label->wordWrap() || label->text().isEmpty()) continue;
        EXPECT_GE(label->width(), label->minimumSizeHint().width()) << "clipped: " << label->text().toStdString();
    }
    // The table's rows all show without scrolling, and the chart keeps a readable height.
    EXPECT_GE(view.chart()->chartView()->height(), 250);
    const QTableView* table = view.table();
    const int rowsHeight = table->horizontalHeader()->height() + table->verticalHeader()->length();
    EXPECT_LE(rowsHeight, table->viewport()->height() + table->horizontalHeader()->height()) << rowsHeight;
    for (QWidget* w :
         std::initializer_list<QWidget*>{view.quantityCombo(), view.statisticCombo(), view.tableVariantCombo(),
                                         view.table(), view.chart()->chartView()})
        EXPECT_FALSE(w->accessibleName().isEmpty()) << w->objectName().toStdString();
    saveScreenshot(view, QStringLiteral("serving-1366x768.png"));
}

TEST_F(ServingViewTest, EmptyStateSaysHowToAddServingResults) {
    ServingView view;
    showAt(view, {1366, 768});
    EXPECT_TRUE(view.isEmptyShown());
    auto* empty = view.findChild<QLabel*>(QStringLiteral("servingEmpty"));
    ASSERT_NE(empty, nullptr);
    EXPECT_TRUE(empty->isVisible());
    EXPECT_NE(empty->text().indexOf(QStringLiteral("vLLM bench serve, GuideLLM, AIPerf")), -1);
    EXPECT_NE(empty->text().indexOf(QStringLiteral("New Comparison")), -1);
    EXPECT_EQ(empty->text().indexOf(QStringLiteral("--")), -1);  // words for people, no command-line flags
    for (QSize size : {QSize(1366, 768), QSize(1920, 1080), QSize(800, 600)}) {
        view.resize(size);
        QTest::qWait(20);
        EXPECT_EQ(clippedSlideLabels(&view).join(QLatin1Char('\n')).toStdString(), "") << size.width();
        EXPECT_GE(empty->width(), std::min(600, size.width() / 2)) << size.width();  // not squeezed to its hint
    }
    if (inferenceXFile(4).empty()) return;
    view.setComparison(threeVariants());
    EXPECT_FALSE(view.isEmptyShown());
    view.clear();
    EXPECT_TRUE(view.isEmptyShown());
    EXPECT_EQ(view.tableModel()->rowCount(), 0);
    EXPECT_TRUE(view.gainTexts().isEmpty());
    view.setComparison(ServingComparison{});  // no variants: the empty state too
    EXPECT_TRUE(view.isEmptyShown());
}

// The card's colours: +1 % with one run each is within the 2 % noise (caution: amber, red above blue, green above
// blue), −10 % is a loss (error: red above green), +10 % a gain (success: green above red).
TEST_F(ServingViewTest, GainSentencesAreColouredByGainNoiseAndLoss) {
    const ServingComparison c = compareServing(
        {{"BF16", {onePoint(1000)}}, {"up", {onePoint(1100)}}, {"same", {onePoint(1010)}}, {"down", {onePoint(900)}}},
        {});
    ServingView view;
    view.setComparison(c);
    showAt(view, {1366, 768});
    ASSERT_EQ(view.gainLabels().size(), 3);
    const QColor up = styleColour(view.gainLabels()[0]), same = styleColour(view.gainLabels()[1]),
                 down = styleColour(view.gainLabels()[2]);
    EXPECT_GT(up.green(), up.red());
    EXPECT_GT(same.red(), same.blue());
    EXPECT_GT(same.green(), same.blue());
    EXPECT_GT(down.red(), down.green());
    for (int i = 0; i < 3; ++i)
        EXPECT_EQ(view.gainTexts()[i], toQString(c.variants[std::size_t(i) + 1].gain->sentence));
}

TEST_F(ServingViewTest, BlockingProblemIsProminentAndNotesAreShown) {
    ServingRun a = onePoint(1000);
    ServingRun b = a;
    b.model = "Qwen/Qwen3-8B";
    const ServingComparison c = compareServing({{"BF16", {a}}, {"FP8", {b}}}, {});
    ASSERT_TRUE(c.blocked());
    ServingView view;
    view.setComparison(c);
    showAt(view, {1366, 768});
    ASSERT_FALSE(view.problemTexts().isEmpty());
    EXPECT_TRUE(view.problemTexts()[0].startsWith(QStringLiteral("Not comparable: ")));
    EXPECT_EQ(view.problemTexts()[0].indexOf(QStringLiteral("comparable"), 16, Qt::CaseInsensitive), -1)
        << view.problemTexts()[0].toStdString();  // said once
    // Both models are named.
    EXPECT_NE(view.problemTexts()[0].indexOf(QStringLiteral("Qwen/Qwen3-8B")), -1);
    EXPECT_NE(view.problemTexts()[0].indexOf(QStringLiteral("meta-llama/Llama-3.1-8B-Instruct")), -1);
    auto* blocking = view.findChild<QLabel*>(QStringLiteral("servingBlockingProblem"));
    ASSERT_NE(blocking, nullptr);
    EXPECT_TRUE(blocking->isVisible());
    EXPECT_NE(blocking->styleSheet().indexOf(QStringLiteral("bold")), -1);
    // No SLO: said in words, with no command-line flag.
    EXPECT_NE(view.sloText().indexOf(QStringLiteral("No latency SLO")), -1);
    EXPECT_EQ(view.sloText().indexOf(QStringLiteral("--")), -1);
    EXPECT_EQ(clippedSlideLabels(&view).join(QLatin1Char('\n')).toStdString(), "");
}

// Loads set as request rates 1, 2 and 4 req/s span only 4×: a linear axis in req/s. A point that sent everything at
// once has no place on it: the table has it, and the caption under the chart says so.
TEST_F(ServingViewTest, RatesSpanningLessThan8xAreOnALinearAxisAndUnboundedLoadsInTheTable) {
    auto rateRun = [](double rate, double outputTokS) {
        ServingRun r = onePoint(outputTokS);
        r.load = {LoadAxis::RequestRate, rate, std::nullopt};
        return r;
    };
    ServingRun unbounded = onePoint(5000);
    unbounded.load = {LoadAxis::Unbounded, 0, std::nullopt};
    ServingRun unboundedFp8 = unbounded;
    unboundedFp8.outputTokensPerS = 5500;
    const ServingComparison c =
        compareServing({{"BF16", {rateRun(1, 900), rateRun(2, 1700), rateRun(4, 3000), unbounded}},
                        {"FP8", {rateRun(1, 950), rateRun(2, 1900), rateRun(4, 3400), unboundedFp8}}},
                       {});
    ServingView view;
    view.setComparison(c);
    showAt(view, {1366, 768});
    const ServingChart& chart = *view.chart();
    EXPECT_FALSE(chart.logLoadAxis());
    auto* x = qobject_cast<QValueAxis*>(chart.chart()->axes(Qt::Horizontal).value(0));
    ASSERT_NE(x, nullptr);
    EXPECT_EQ(qobject_cast<QCategoryAxis*>(x), nullptr);
    EXPECT_EQ(x->titleText(), QStringLiteral("Request rate (req/s)"));
    for (int v = 0; v < 2; ++v) EXPECT_EQ(loadsOf(chart, chart.lineSeries(v)), (std::vector<double>{1, 2, 4}));
    EXPECT_LE(x->min(), 1);
    EXPECT_GE(x->max(), 4);
    EXPECT_NE(chart.captionText().indexOf(QStringLiteral("see the table")), -1) << chart.captionText().toStdString();
    EXPECT_EQ(view.tableModel()->rowCount(), 4);  // the unbounded point is a row of the table
    EXPECT_EQ(clippedSlideLabels(&view).join(QLatin1Char('\n')).toStdString(), "");
}

// "Export like the other charts": the chart's context menu offers PNG and SVG, and both write the chart as drawn.
TEST_F(ServingViewTest, ChartExportsAsPngAndSvg) {
    REQUIRE_SWEEP();
    ServingView view;
    view.setComparison(threeVariants());
    showAt(view, {1366, 768});
    QChartView* chartView = view.chart()->chartView();
    EXPECT_EQ(chartView->contextMenuPolicy(), Qt::CustomContextMenu);
    std::unique_ptr<QMenu> menu(exporting::createChartExportMenu(chartView, QStringLiteral("Serving"), {}));
    EXPECT_NE(menu->findChild<QAction*>(QStringLiteral("exportChartPng")), nullptr);
    EXPECT_NE(menu->findChild<QAction*>(QStringLiteral("exportChartSvg")), nullptr);
    QTemporaryDir dir;
    const QString png = dir.filePath(QStringLiteral("serving.png")), svg = dir.filePath(QStringLiteral("serving.svg"));
    ASSERT_TRUE(exporting::writeChartPng(chartView, png).ok());
    ASSERT_TRUE(exporting::writeChartSvg(chartView, svg, QStringLiteral("Serving")).ok());
    const QImage image(png);
    EXPECT_EQ(image.width(), chartView->width() * 2);
    QFile file(svg);
    ASSERT_TRUE(file.open(QIODevice::ReadOnly));
    const QByteArray text = file.readAll();
    EXPECT_NE(text.indexOf("FP8 W8A8"), -1);
    EXPECT_NE(text.indexOf("capacity 256"), -1);
}

// The statistic shown first is the SLO's first target's; one the chart has no statistic for (p99.9) gives that
// metric's p99; without an SLO, p99 TTFT.
TEST_F(ServingViewTest, DefaultStatisticFollowsTheSlosFirstTarget) {
    ServingRun r = onePoint(1000);
    r.tpot.percentiles = {{99, 20}, {99.9, 30}};
    r.e2el.mean = 900;
    auto shownFor = [&](const char* slo) {
        ServingOptions o;
        if (*slo) o.slo = *parseServingSlo(slo);
        ServingView view;
        view.setComparison(compareServing({{"BF16", {r}}, {"FP8", {r}}}, o));
        return view.chart()->statistic();
    };
    EXPECT_EQ(shownFor("e2el_mean=2s,ttft_p99=1s"), (ServingChart::Statistic{ServingMetric::E2el, 0}));
    EXPECT_EQ(shownFor("tpot_p90=40ms"), (ServingChart::Statistic{ServingMetric::Tpot, 90}));
    EXPECT_EQ(shownFor("tpot_p99.9=50ms"), (ServingChart::Statistic{ServingMetric::Tpot, 99}));
    EXPECT_EQ(shownFor(""), (ServingChart::Statistic{ServingMetric::Ttft, 99}));
}

// Labels come from files (vLLM --label, GuideLLM's "variant"): markup in one is shown as text, never rendered, and a
// bidi override is shown as an escape (untrusted_ui.h).
TEST_F(ServingViewTest, VariantLabelsFromFilesAreShownAsText) {
    const std::string hostile = "<b style=color:green>GO</b>\u202Ex";
    const ServingComparison c = compareServing({{"BF16", {onePoint(1000)}}, {hostile, {onePoint(1100)}}}, {});
    ServingView view;
    view.setComparison(c);
    showAt(view, {1366, 768});
    const QString legend = view.chart()->lineSeries(1)->name();
    EXPECT_EQ(legend.indexOf(QStringLiteral("<b")), -1) << legend.toStdString();  // escaped for Qt Charts' HTML
    EXPECT_NE(legend.indexOf(QStringLiteral("&lt;b")), -1) << legend.toStdString();
    EXPECT_EQ(rawControl(view.tableVariantCombo()->itemText(1)), 0);
    for (const QLabel* label : view.findChildren<QLabel*>()) {
        if (label->text().indexOf(QStringLiteral("GO")) < 0) continue;
        EXPECT_EQ(label->textFormat(), Qt::PlainText) << label->objectName().toStdString();
        EXPECT_EQ(rawControl(label->text()), 0) << label->objectName().toStdString();
    }
    emit view.chart()->lineSeries(1)->hovered(view.chart()->lineSeries(1)->at(0), true);
    EXPECT_EQ(rawControl(view.chart()->hoverText()), 0);
}

// The chart as a picture for a report or a slide: light even in the dark theme, at the asked size.
TEST_F(ServingViewTest, ChartPictureIsLightWhateverTheTheme) {
    REQUIRE_SWEEP();
    const ThemeMode before = Theme::instance()->mode();
    Theme::instance()->setMode(ThemeMode::Dark);
    const QImage image = ServingChart::renderImage(threeVariants(), ServingChart::Quantity::Latency,
                                                   {ServingMetric::Ttft, 99}, {960, 480}, 2.0);
    Theme::instance()->setMode(before);
    ASSERT_EQ(image.size(), QSize(1920, 960));
    EXPECT_GT(image.pixelColor(4, 4).lightness(), 240);
    EXPECT_GT(image.pixelColor(1900, 940).lightness(), 240);
    if (!qEnvironmentVariableIsEmpty("FP8DASH_SCREENSHOT_DIR"))
        image.save(qEnvironmentVariable("FP8DASH_SCREENSHOT_DIR") + QStringLiteral("/serving-chart-picture.png"));
}

// Pictures for a person to look at ($FP8DASH_SCREENSHOT_DIR): 1366 × 768 and 1920 × 1080, light and dark, with a
// point hovered.
TEST_F(ServingViewTest, Screenshots) {
    REQUIRE_SWEEP();
    if (qEnvironmentVariableIsEmpty("FP8DASH_SCREENSHOT_DIR")) GTEST_SKIP() << "FP8DASH_SCREENSHOT_DIR not set";
    const ThemeMode before = Theme::instance()->mode();
    for (ThemeMode mode : {ThemeMode::Light, ThemeMode::Dark}) {
        Theme::instance()->setMode(mode);
        for (QSize size : {QSize(1366, 768), QSize(1920, 1080), QSize(1024, 700)}) {  // 1024: the card above the chart
            ServingView view;
            view.setComparison(threeVariants());
            showAt(view, size);
            QLineSeries* w8a8 = view.chart()->lineSeries(1);
            emit w8a8->hovered(w8a8->at(4), true);
            EXPECT_EQ(clippedSlideLabels(&view).join(QLatin1Char('\n')).toStdString(), "") << size.width();
            saveScreenshot(
                view,
                QStringLiteral("serving-%1x%2-%3.png").arg(size.width()).arg(size.height()).arg(themeModeName(mode)));
        }
    }
    // The throughput plot, a comparison that is not comparable, and the empty state, in the light theme.
    Theme::instance()->setMode(ThemeMode::Light);
    ServingView view;
    view.setComparison(threeVariants());
    showAt(view, {1366, 768});
    view.quantityCombo()->setCurrentIndex(1);
    view.tableVariantCombo()->setCurrentIndex(2);  // the variant with a load where every request failed
    QTest::qWait(20);
    saveScreenshot(view, QStringLiteral("serving-1366x768-throughput.png"));
    ServingRun other = scaledRun(64, 1, 1);
    other.model = "Qwen/Qwen3-8B";
    std::vector<ServingRun> base;
    for (int c : kLoads) base.push_back(scaledRun(c, 1, 1));
    view.setComparison(compareServing({{"BF16", base}, {"FP8", {other}}}, {}));
    QTest::qWait(20);
    saveScreenshot(view, QStringLiteral("serving-1366x768-not-comparable.png"));
    view.clear();
    QTest::qWait(20);
    saveScreenshot(view, QStringLiteral("serving-1366x768-empty.png"));
    Theme::instance()->setMode(before);
}

// A theme change repaints the chart in place: the same series (no rebuild, so a hovered read-out stays), the chart's
// background follows the palette, and the legend's cross entry stays without a coloured square.
TEST_F(ServingViewTest, ThemeChangeRestylesTheChartInPlace) {
    REQUIRE_SWEEP();
    const ThemeMode before = Theme::instance()->mode();
    Theme::instance()->setMode(ThemeMode::Light);
    ServingView view;
    view.setComparison(threeVariants());
    showAt(view, {1366, 768});
    ServingChart& chart = *view.chart();
    QLineSeries* line = chart.lineSeries(1);
    emit line->hovered(line->at(2), true);
    const QString hovered = chart.hoverText();
    const QColor lightBackground = chart.chart()->backgroundBrush().color();
    Theme::instance()->setMode(ThemeMode::Dark);
    QApplication::processEvents();
    EXPECT_EQ(chart.lineSeries(1), line);
    EXPECT_EQ(chart.hoverText(), hovered);
    EXPECT_NE(chart.chart()->backgroundBrush().color(), lightBackground);
    EXPECT_LT(chart.chart()->backgroundBrush().color().lightness(), 128);
    for (QLegendMarker* m : chart.chart()->legend()->markers(chart.failedSeries(2))) {
        EXPECT_EQ(m->brush().color().alpha(), 0);
        EXPECT_EQ(m->pen().color().alpha(), 0);
    }
    Theme::instance()->setMode(before);
}

}  // namespace fp8dash::ui::test
