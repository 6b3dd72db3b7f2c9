// The evals tab's long-context chart on the made RULER pair (tests/data/lm-eval-ruler; SOURCES.md there): one point
// per context length evaluated in both runs, at the degradation of the per-length mean computed here from the files;
// hidden for a comparison without per-length tasks; its snapshot for reports and slides; the slide draws it.
#include <QChartView>
#include <QScatterSeries>
#include <QtTest>

#include <cmath>
#include <fstream>

#include <nlohmann/json.hpp>

#include "fp8dash/core/lm_eval_paths.h"
#include "fp8dash/core/presentation_deck.h"
#include "fp8dash/ui/chart_snapshots.h"
#include "fp8dash/ui/comparison_view.h"
#include "fp8dash/ui/loaded_comparison.h"
#include "fp8dash/ui/long_context_panel.h"
#include "fp8dash/ui/presentation_slide_view.h"
#include "gui_test_support.h"

namespace fp8dash::ui::test {
namespace {

class LongContextPanelTest : public GuiTest {};

std::string rulerFile(const char* name) {
    return std::string(FP8DASH_TEST_DATA) + "/lm-eval-ruler/" + name;
}

LoadedComparison rulerPair() {
    auto b = readLmEvalPath(rulerFile("llama3.1-8b-instruct_ruler_bf16.json"));
    auto c = readLmEvalPath(rulerFile("llama3.1-8b-instruct_ruler_fp8kv.json"));
    EXPECT_TRUE(b && c);
    auto loaded =
        evaluateForDisplay(makeComparisonDocument({"BF16", "", *b}, {"FP8", "", *c}, {}), QStringLiteral("ruler"));
    EXPECT_TRUE(loaded.ok()) << (loaded.ok() ? "" : loaded.error().message);
    return std::move(loaded).value();
}

// The degradation of the mean over the 13 RULER tasks at each length, from the files' raw values.
std::vector<double> expectedDegradations() {
    std::ifstream bin(rulerFile("llama3.1-8b-instruct_ruler_bf16.json")),
        cin(rulerFile("llama3.1-8b-instruct_ruler_fp8kv.json"));
    const auto b = nlohmann::json::parse(bin), c = nlohmann::json::parse(cin);
    std::vector<double> out;
    for (const char* key : {"8192,none", "16384,none", "32768,none", "65536,none", "131072,none"}) {
        double sb = 0, sc = 0;
        for (const auto& task : b["group_subtasks"]["ruler"]) {
            sb += b["results"][task.get<std::string>()][key].get<double>();
            sc += c["results"][task.get<std::string>()][key].get<double>();
        }
        out.push_back(std::max(0.0, (sb - sc) / std::fabs(sb) * 100));
    }
    return out;
}

TEST_F(LongContextPanelTest, TheEvalsTabShowsOnePointPerContextLength) {
    ComparisonView view;
    view.resize(1400, 900);
    view.setComparison(rulerPair());
    view.show();
    LongContextPanel* panel = view.longContextPanel();
    ASSERT_NE(panel, nullptr);
    EXPECT_TRUE(panel->isVisibleTo(&view));
    ASSERT_NE(panel->points(), nullptr);
    const auto points = panel->points()->points();
    const auto expected = expectedDegradations();
    ASSERT_EQ(points.size(), static_cast<qsizetype>(expected.size()));
    for (std::size_t i = 0; i < expected.size(); ++i) {
        EXPECT_NEAR(points[i].y(), expected[i], 1e-9) << i;
        EXPECT_DOUBLE_EQ(points[i].x(), 13.0 + static_cast<double>(i));  // log2(8192) = 13, each length doubling
    }
    EXPECT_TRUE(panel->summaryText().contains(QStringLiteral("Worst: 128K (131072 tokens)")))
        << panel->summaryText().toStdString();
}

TEST_F(LongContextPanelTest, HiddenWithoutPerLengthTasks) {
    auto demo = loadComparisonForDisplay(QString::fromStdString(
        std::string(FP8DASH_TEST_DATA) + "/comparison-files/v1/demo-llama3-8b-instruct-fp8.fp8cmp"));
    ASSERT_TRUE(demo.ok());
    ComparisonView view;
    view.setComparison(rulerPair());
    view.setComparison(*demo);  // a RULER comparison before: nothing of it lingers
    view.show();
    EXPECT_FALSE(view.longContextPanel()->isVisibleTo(&view));
}

TEST_F(LongContextPanelTest, ItsSnapshotGoesToReportsAndTheSlideShowsIt) {
    const LoadedComparison loaded = rulerPair();
    const auto snapshots = renderChartSnapshots(loaded, QSize(640, 320), 1.0);
    ASSERT_EQ(snapshots.size(), 2u);  // the evals' forest plot, then this one
    EXPECT_EQ(snapshots.front().key, QStringLiteral("evals-forest"));
    EXPECT_EQ(snapshots.back().key, QStringLiteral("long-context"));
    EXPECT_EQ(snapshots.back().image.size(), QSize(640, 320));
    const PresentationDeck deck = buildPresentationDeck(loaded.document, loaded.decision);
    const auto at = deck.indexOf(PresentationStep::LongContext);
    ASSERT_TRUE(at);
    PresentationSlideView slide(deck, *at, QSize(1280, 720), snapshots);
    EXPECT_EQ(slide.step(), PresentationStep::LongContext);
    EXPECT_EQ(slide.chartKeys(), QStringList{QStringLiteral("long-context")});
}

}  // namespace
}  // namespace fp8dash::ui::test
