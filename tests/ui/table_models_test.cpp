// The bench, judge and capacity table models over plain core structs built here: rows, columns, the text shown,
// the exact value behind it (Qt::UserRole, also the sort key and the CSV's figure) and the sort.

#include <gtest/gtest.h>

#include <QColor>
#include <QSignalSpy>

#include "bench_test_json.h"
#include "fp8dash/ui/bench_table_models.h"
#include "fp8dash/ui/bench_view.h"
#include "fp8dash/ui/capacity_table_model.h"
#include "fp8dash/ui/capacity_view.h"
#include "fp8dash/ui/export_actions.h"
#include "fp8dash/ui/judge_drops_model.h"
#include "gui_test_support.h"

namespace fp8dash::ui {
namespace {

class TableModelsTest : public test::GuiTest {};

QString text(const QAbstractItemModel& m, int row, int column) {
    return m.index(row, column).data(Qt::DisplayRole).toString();
}

QVariant value(const QAbstractItemModel& m, int row, int column) {
    return m.index(row, column).data(Qt::UserRole);
}

BenchGemmPoint gemm(const std::string& layer, int m, const std::string& precision, double tflops) {
    BenchGemmPoint p;
    p.layer = layer;
    p.m = m;
    p.n = 4096;
    p.k = 14336;
    p.precision = precision;
    p.tflops = tflops;
    p.stats.samples = 20;
    p.stats.relStdDev = 0.004;
    p.stats.medianSeconds = 0.0021;
    p.roofTflops = 989.0;
    p.bound = "compute";
    p.percentOfRoof = tflops / 989.0 * 100.0;
    return p;
}

// Issue 41: the runner's FP4 rows read as people name the formats, and a row skipped for want of FP4 tensor cores
// says so in its note.
TEST_F(TableModelsTest, Fp4GemmRowsNameTheirFormat) {
    BenchResults r;
    r.gemm.push_back(gemm("qkv", 2048, "nvfp4_e2m1", 2061.6));
    r.gemm.back().speedupVsBf16 = 4.0;
    BenchGemmPoint skipped = gemm("qkv", 2048, "mxfp4_e2m1", 0);
    skipped.skipped = "FP4: needs FP4 tensor cores (Blackwell); compute capability 9.0 has none (10.0 or newer)";
    r.gemm.push_back(skipped);
    GemmTableModel model;
    model.setResults(&r);
    ASSERT_EQ(model.rowCount(), 2);
    EXPECT_EQ(text(model, 0, BenchView::GemmPrecision), QStringLiteral("NVFP4 (E2M1)"));
    EXPECT_EQ(text(model, 0, BenchView::GemmSpeedup), QStringLiteral("4.00×"));
    EXPECT_EQ(text(model, 1, BenchView::GemmPrecision), QStringLiteral("MXFP4 (E2M1)"));
    EXPECT_EQ(text(model, 1, BenchView::GemmNote),
              QStringLiteral("skipped: FP4: needs FP4 tensor cores (Blackwell); compute capability 9.0 has none "
                             "(10.0 or newer)"));
}

TEST_F(TableModelsTest, GemmRowsShowTheirFiguresAndSortByValueNotText) {
    BenchResults r;
    r.gemm.push_back(gemm("down", 16384, "bf16", 640.0));
    r.gemm.push_back(gemm("down", 2048, "fp8_e4m3", 1200.26));
    r.gemm.back().speedupVsBf16 = 1.876;
    BenchGemmPoint skipped = gemm("qkv", 512, "fp8_e4m3", 0);
    skipped.skipped = "out of memory";
    r.gemm.push_back(skipped);
    GemmTableModel model;
    model.setResults(&r);
    ASSERT_EQ(model.rowCount(), 3);
    ASSERT_EQ(model.columnCount(), BenchView::GemmColumnCount);
    EXPECT_EQ(model.headerData(BenchView::GemmNoise, Qt::Horizontal, exporting::kCsvUnitRole).toString(),
              QStringLiteral("fraction"));
    EXPECT_EQ(text(model, 0, BenchView::GemmM), QStringLiteral("16,384"));
    EXPECT_EQ(value(model, 0, BenchView::GemmM).toDouble(), 16384.0);
    EXPECT_EQ(text(model, 1, BenchView::GemmTflops), QStringLiteral("1200.3"));  // one decimal
    EXPECT_DOUBLE_EQ(value(model, 1, BenchView::GemmTflops).toDouble(), 1200.26);
    EXPECT_EQ(text(model, 1, BenchView::GemmSpeedup), QStringLiteral("1.88×"));
    EXPECT_EQ(text(model, 1, BenchView::GemmPrecision), QStringLiteral("FP8 E4M3"));
    EXPECT_EQ(text(model, 0, BenchView::GemmNoise), QStringLiteral("0.40 %"));
    EXPECT_DOUBLE_EQ(value(model, 0, BenchView::GemmNoise).toDouble(), 0.004);
    EXPECT_EQ(text(model, 2, BenchView::GemmTflops), QStringLiteral("—"));
    EXPECT_EQ(value(model, 2, BenchView::GemmTflops).toDouble(), -1.0);  // skipped rows sort first
    EXPECT_EQ(text(model, 2, BenchView::GemmNote), QStringLiteral("skipped: out of memory"));
    EXPECT_EQ(model.index(0, BenchView::GemmM).data(Qt::TextAlignmentRole).toInt(),
              int(Qt::AlignRight | Qt::AlignVCenter));

    // By M: 512 < 2,048 < 16,384 as numbers ("16,384" < "2,048" as text).
    model.sort(BenchView::GemmM, Qt::AscendingOrder);
    EXPECT_EQ(text(model, 0, BenchView::GemmM), QStringLiteral("512"));
    EXPECT_EQ(text(model, 1, BenchView::GemmM), QStringLiteral("2,048"));
    EXPECT_EQ(text(model, 2, BenchView::GemmM), QStringLiteral("16,384"));
    EXPECT_EQ(model.sourceRow(0), 2);
    model.sort(BenchView::GemmTflops, Qt::DescendingOrder);
    EXPECT_EQ(text(model, 0, BenchView::GemmTflops), QStringLiteral("1200.3"));
    EXPECT_EQ(text(model, 2, BenchView::GemmTflops), QStringLiteral("—"));
    // New results keep the user's sort.
    r.gemm.push_back(gemm("o", 64, "bf16", 2000.0));
    model.setResults(&r);
    EXPECT_EQ(text(model, 0, BenchView::GemmTflops), QStringLiteral("2000.0"));
    // The section skipped as a whole: one "(not run)" row with the reason.
    BenchResults none;
    none.gemmSkipped = "no usable GPU";
    model.setResults(&none);
    ASSERT_EQ(model.rowCount(), 1);
    EXPECT_EQ(text(model, 0, BenchView::GemmLayer), QStringLiteral("(not run)"));
    EXPECT_EQ(text(model, 0, BenchView::GemmNote), QStringLiteral("no usable GPU"));
}

// "sm_clock_mhz" of a GPU run: read by core (optional; a bad value is named) and shown in the noise cell's tooltip.
TEST_F(TableModelsTest, TheSmClockOfAGpuRunIsReadAndShown) {
    Json gemm = Json::array({fp8dash::test::benchGemmRow("qkv", 128, 6144, 4096, "fp8_e4m3", 512.3, 989, 51.8, 1.8),
                             fp8dash::test::benchGemmRow("qkv", 128, 6144, 4096, "bf16", 300, 989, 30, 0)});
    gemm[0]["sm_clock_mhz"] = 1755.5;
    auto r = parseBenchResults(fp8dash::test::h200Run(gemm, Json::array(), Json::array()), "run.json");
    ASSERT_TRUE(r.ok()) << r.error().message;
    EXPECT_EQ(r->gemm[0].stats.smClockMHz, 1755.5);
    EXPECT_EQ(r->gemm[1].stats.smClockMHz, 0.0);  // absent: not measured
    GemmTableModel model;
    model.setResults(&*r);
    EXPECT_TRUE(model.index(0, BenchView::GemmNoise)
                    .data(Qt::ToolTipRole)
                    .toString()
                    .endsWith(QStringLiteral("; SM clock 1,756 MHz")))
        << model.index(0, BenchView::GemmNoise).data(Qt::ToolTipRole).toString().toStdString();
    EXPECT_FALSE(
        model.index(1, BenchView::GemmNoise).data(Qt::ToolTipRole).toString().contains(QStringLiteral("SM clock")));
    gemm[0]["sm_clock_mhz"] = -1;
    auto bad = parseBenchResults(fp8dash::test::h200Run(gemm, Json::array(), Json::array()), "run.json");
    ASSERT_FALSE(bad.ok());
    EXPECT_NE(bad.error().message.find("sm_clock_mhz"), std::string::npos) << bad.error().message;
}

TEST_F(TableModelsTest, BandwidthRowsHoldBytesAndBytesPerSecondExactly) {
    BenchResults r;
    BenchBandwidthPoint read;
    read.kernel = "read";
    read.bytes = 2ull << 30;
    read.bytesPerSecond = 4.1e12;
    read.percentOfPeak = 85.4;
    read.stats.samples = 10;
    r.bandwidth.push_back(read);
    BenchKvKernelPoint kv;
    kv.scaling = "per_head";
    kv.elements = 1000;
    kv.bytesPerSecond = 2.5e12;
    kv.matchesCpu = true;
    r.kvKernel.push_back(kv);
    BandwidthTableModel model;
    model.setResults(&r);
    ASSERT_EQ(model.rowCount(), 2);
    ASSERT_EQ(model.columnCount(), 6);
    EXPECT_EQ(text(model, 0, 1), QStringLiteral("2.00 GiB"));
    EXPECT_EQ(value(model, 0, 1).toDouble(), 2147483648.0);
    EXPECT_EQ(text(model, 0, 2), QStringLiteral("4.10 TB/s"));
    EXPECT_EQ(value(model, 0, 2).toDouble(), 4.1e12);
    EXPECT_EQ(text(model, 0, 3), QStringLiteral("85.4 %"));
    EXPECT_EQ(text(model, 1, 0), QStringLiteral("KV quantise (per_head)"));
    EXPECT_EQ(value(model, 1, 1).toDouble(), 3000.0);  // one byte of code and two of BF16 per element
    EXPECT_EQ(text(model, 1, 5), QStringLiteral("codes match the CPU codec"));
    EXPECT_EQ(text(model, 1, 3), QStringLiteral("—"));  // no peak known
    EXPECT_EQ(model.headerData(2, Qt::Horizontal, exporting::kCsvUnitRole).toString(), QStringLiteral("B/s"));
    model.sort(2, Qt::AscendingOrder);
    EXPECT_EQ(text(model, 0, 0), QStringLiteral("KV quantise (per_head)"));
}

TEST_F(TableModelsTest, KvRowsShowFractionsAsPercentagesAndFlagTheOldFigure) {
    BenchResults r;
    BenchKvPoint a;
    a.scaling = "per_tensor";
    a.context = 4096;
    a.hasAttentionMetrics = true;
    a.attnOutRelRmse = 0.024;
    a.attnWeightTvd = 0.012;
    a.key.relRmse = 0.034;
    a.key.saturated = 40;
    a.value.saturated = 3;
    a.elementsPerSecond = 5e8;
    a.cosine = 0.9995;
    r.kv.push_back(a);
    BenchKvPoint old;
    old.scaling = "none";
    old.context = 1024;
    old.legacyAttnRelError = 0.11;
    r.kv.push_back(old);
    KvTableModel model;
    model.setResults(&r);
    ASSERT_EQ(model.rowCount(), 2);
    ASSERT_EQ(model.columnCount(), BenchView::KvColumnCount);
    EXPECT_TRUE(model.hasLegacyColumn());
    EXPECT_EQ(text(model, 0, BenchView::KvAttnOutError), QStringLiteral("2.4%"));
    EXPECT_DOUBLE_EQ(value(model, 0, BenchView::KvAttnOutError).toDouble(), 0.024);
    EXPECT_EQ(text(model, 0, BenchView::KvKeySaturated), QStringLiteral("40"));
    EXPECT_EQ(text(model, 0, BenchView::KvElementsPerSecond), QStringLiteral("500 M/s"));
    EXPECT_EQ(text(model, 0, BenchView::KvCosine), QStringLiteral("0.999500"));
    EXPECT_EQ(text(model, 1, BenchView::KvAttnOutError), QStringLiteral("—"));
    EXPECT_EQ(text(model, 1, BenchView::KvKeySaturated), QStringLiteral("—"));
    EXPECT_EQ(text(model, 1, BenchView::KvLegacyAttnError), QStringLiteral("0.11"));
    EXPECT_FALSE(model.index(0, BenchView::KvAttnOutError).data(Qt::ToolTipRole).toString().isEmpty());
    EXPECT_FALSE(model.headerData(BenchView::KvAttnOutError, Qt::Horizontal, Qt::ToolTipRole).toString().isEmpty());
    model.sort(BenchView::KvContext, Qt::AscendingOrder);
    EXPECT_EQ(text(model, 0, BenchView::KvScaling), QStringLiteral("none"));
    r.kv.pop_back();
    model.setResults(&r);
    EXPECT_FALSE(model.hasLegacyColumn());
}

TEST_F(TableModelsTest, JudgeDropsListTheTextsPresentAndColourTheChange) {
    JudgeComparison c;
    c.paired = true;
    JudgeDrop d;
    d.id = "q7";
    d.baseline = 5;
    d.candidate = 2.5;
    d.candidateFields = Json{{"answer", "first line\nsecond line"}, {"comment", "wrong unit"}};
    c.biggestDrops.push_back(d);
    JudgeDropsModel model;
    model.setDrops(&c, QStringLiteral("BF16"), QStringLiteral("FP8"));
    ASSERT_EQ(model.rowCount(), 1);
    QStringList headers;
    for (int col = 0; col < model.columnCount(); ++col) headers << model.headerData(col, Qt::Horizontal).toString();
    EXPECT_EQ(headers,
              (QStringList{QStringLiteral("ID"), QStringLiteral("BF16"), QStringLiteral("FP8"),
                           QStringLiteral("Change"), QStringLiteral("FP8 answer"), QStringLiteral("Judge comment")}));
    EXPECT_EQ(text(model, 0, JudgeDropsModel::IdColumn), QStringLiteral("q7"));
    EXPECT_EQ(text(model, 0, JudgeDropsModel::BaselineColumn), QStringLiteral("5"));
    EXPECT_EQ(text(model, 0, JudgeDropsModel::ChangeColumn), QStringLiteral("−2.50"));
    EXPECT_EQ(text(model, 0, 4), QStringLiteral("first line second line"));  // one line in the cell
    EXPECT_EQ(model.index(0, 4).data(Qt::ToolTipRole).toString(), QStringLiteral("first line\nsecond line"));
    EXPECT_TRUE(model.index(0, JudgeDropsModel::ChangeColumn).data(Qt::ForegroundRole).value<QColor>().isValid());
    EXPECT_FALSE(model.index(0, JudgeDropsModel::IdColumn).data(Qt::ForegroundRole).isValid());
    c.paired = false;  // unpaired files: no rows, no columns
    model.setDrops(&c, QStringLiteral("BF16"), QStringLiteral("FP8"));
    EXPECT_EQ(model.rowCount(), 0);
    EXPECT_EQ(model.columnCount(), 0);
}

CapacityResult capacityPlan(StorageDtype kv, std::uint64_t tokens, bool fits) {
    CapacityResult r;
    r.inputs.weights = StorageDtype::Bf16;
    r.inputs.kv = kv;
    r.parameters = 8'030'261'248;
    r.kvBytesPerToken = kv == StorageDtype::Fp8 ? 65536 : 131072;
    r.weightsBytes = 16'060'522'496;
    r.usableBytes = 76'000'000'000;
    r.kvCacheBytes = tokens * r.kvBytesPerToken;
    r.maxTokens = tokens;
    r.maxSequences = tokens / 8192;
    r.fits = fits;
    if (!fits) r.reason = "too small";
    return r;
}

TEST_F(TableModelsTest, CapacityColumnsHoldBothPlansAndTheirRatio) {
    const CapacityResult bf = capacityPlan(StorageDtype::Bf16, 400'000, true);
    const CapacityResult fp8 = capacityPlan(StorageDtype::Fp8, 800'000, false);
    CapacityTableModel model;
    EXPECT_EQ(text(model, CapacityView::MaxTokensRow, CapacityView::Bf16Column), QStringLiteral("—"));
    model.setPlans(&bf, &fp8);
    ASSERT_EQ(model.rowCount(), CapacityView::RowCount);
    ASSERT_EQ(model.columnCount(), CapacityView::ColumnCount);
    EXPECT_EQ(model.headerData(CapacityView::SelectedColumn, Qt::Horizontal).toString(),
              QStringLiteral("Chosen:\nBF16 weights, FP8 KV"));
    EXPECT_EQ(model.headerData(CapacityView::MaxTokensRow, Qt::Vertical).toString(),
              QStringLiteral("Max tokens in the KV cache"));
    EXPECT_EQ(text(model, CapacityView::MaxTokensRow, CapacityView::Bf16Column), QStringLiteral("400,000"));
    EXPECT_EQ(value(model, CapacityView::MaxTokensRow, CapacityView::SelectedColumn).toDouble(), 800000.0);
    EXPECT_EQ(text(model, CapacityView::MaxTokensRow, CapacityView::RatioColumn), QStringLiteral("×2.00"));
    EXPECT_EQ(text(model, CapacityView::KvPerTokenRow, CapacityView::RatioColumn), QStringLiteral("×0.50"));
    EXPECT_EQ(text(model, CapacityView::MaxSequencesRow, CapacityView::Bf16Column), QStringLiteral("48"));
    EXPECT_EQ(text(model, CapacityView::ParametersRow, CapacityView::Bf16Column), QStringLiteral("8.03 B"));
    EXPECT_EQ(text(model, CapacityView::FitsRow, CapacityView::SelectedColumn), QStringLiteral("no: too small"));
    EXPECT_TRUE(model.index(CapacityView::FitsRow, CapacityView::SelectedColumn)
                    .data(Qt::ForegroundRole)
                    .value<QColor>()
                    .isValid());
    EXPECT_EQ(text(model, CapacityView::FitsRow, CapacityView::RatioColumn), QStringLiteral("—"));
}

TEST_F(TableModelsTest, AThemeChangeRepaintsColoursWithoutAReset) {
    const CapacityResult bf = capacityPlan(StorageDtype::Bf16, 400'000, false);
    CapacityTableModel model;
    model.setPlans(&bf, &bf);
    const int resets = model.resetCount();
    QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
    model.repaintColours();
    EXPECT_EQ(reset.count(), 0);
    EXPECT_EQ(model.resetCount(), resets);
    ASSERT_EQ(changed.count(), 1);
    const auto roles = changed.at(0).at(2).value<QList<int>>();
    EXPECT_TRUE(roles.contains(Qt::ForegroundRole));
    EXPECT_EQ(changed.at(0).at(1).toModelIndex().row(), CapacityView::RowCount - 1);
}

}  // namespace
}  // namespace fp8dash::ui
