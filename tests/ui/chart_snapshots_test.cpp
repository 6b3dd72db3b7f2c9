// Chart snapshots: the charts a document has, drawn offscreen by the app's own views, as images and SVG.
#include <QChartView>
#include <QImage>
#include <QSet>

#include "fp8dash/ui/chart_snapshots.h"
#include "gui_test_support.h"

namespace fp8dash::ui::test {
namespace {

class ChartSnapshotsTest : public GuiTest {};

// Distinct colours of an image, sampled on a grid: a blank or single-colour picture has one or two.
int distinctColours(const QImage& image) {
    QSet<QRgb> colours;
    for (int y = 0; y < image.height(); y += 7)
        for (int x = 0; x < image.width(); x += 7) colours.insert(image.pixel(x, y));
    return static_cast<int>(colours.size());
}

LoadedComparison judgeAndBenchmarks() {
    auto loaded = loadComparisonForDisplay(
        QString::fromStdString(std::string(FP8DASH_TEST_DATA) + "/comparison-files/v1/judge-bench.fp8cmp"));
    EXPECT_TRUE(loaded.ok()) << (loaded.ok() ? "" : loaded.error().message);
    return std::move(loaded).value();
}

TEST_F(ChartSnapshotsTest, OneImagePerChartWithDataAtTheAskedSize) {
    const LoadedComparison loaded = judgeAndBenchmarks();
    // The file holds judge scores and a CPU benchmark run: the KV error sweep, no GEMM rows (no GPU).
    const auto snapshots = renderChartSnapshots(loaded, QSize(800, 400), 2.0);
    QStringList keys;
    for (const auto& s : snapshots) keys << s.key;
    EXPECT_EQ(keys, (QStringList{QStringLiteral("judge-distribution"), QStringLiteral("bench-kv")}));
    for (const auto& s : snapshots) {
        EXPECT_EQ(s.image.size(), QSize(1600, 800)) << s.key.toStdString();
        EXPECT_DOUBLE_EQ(s.image.devicePixelRatio(), 2.0);
        EXPECT_GT(distinctColours(s.image), 20) << s.key.toStdString() << " looks blank";
        EXPECT_FALSE(s.title.isEmpty());
        EXPECT_FALSE(s.caption.isEmpty());
    }
    const QByteArray png = pngBytes(snapshots.front().image);
    EXPECT_TRUE(png.startsWith("\x89PNG\r\n\x1a\n"));
    QImage back;
    ASSERT_TRUE(back.loadFromData(png, "PNG"));
    EXPECT_EQ(back.size(), QSize(1600, 800));
}

TEST_F(ChartSnapshotsTest, AnEvalsOnlyDocumentGivesItsForestPlotOnly) {
    auto demo = loadComparisonForDisplay(QString::fromStdString(
        std::string(FP8DASH_TEST_DATA) + "/comparison-files/v1/demo-llama3-8b-instruct-fp8.fp8cmp"));
    ASSERT_TRUE(demo.ok());
    const auto snapshots = renderChartSnapshots(*demo, QSize(800, 400), 2.0);
    ASSERT_EQ(snapshots.size(), 1u);  // evals only: the picture of the table, nothing else
    EXPECT_EQ(snapshots.front().key, QStringLiteral("evals-forest"));
    EXPECT_EQ(snapshots.front().image.width(), 1600);  // the asked width; as tall as its six tasks need
    EXPECT_GT(distinctColours(snapshots.front().image), 20);
}

TEST_F(ChartSnapshotsTest, ADocumentWithoutChartsGivesNone) {
    ComparisonDocument doc;  // no evals, no judge, no timeline, no benchmarks
    doc.hasEvals = false;
    auto loaded = evaluateForDisplay(doc, QStringLiteral("empty"));
    ASSERT_TRUE(loaded.ok()) << loaded.error().message;
    EXPECT_TRUE(renderChartSnapshots(*loaded).empty());
}

}  // namespace
}  // namespace fp8dash::ui::test
