// The side panel of the demo: FP8 layers per run, risk flags, tasks not compared, notes.
#include <QLabel>
#include <QtTest>
#include <algorithm>

#include "fp8dash/ui/comparison_view.h"
#include "fp8dash/ui/fp8_layers_panel.h"
#include "fp8dash/ui/main_window.h"
#include "fp8dash/ui/missing_tasks_panel.h"
#include "fp8dash/ui/notes_panel.h"
#include "fp8dash/ui/risk_flags_panel.h"
#include "gui_test_support.h"

namespace fp8dash::ui::test {
namespace {

class SidePanelsTest : public GuiTest {};

TEST_F(SidePanelsTest, DemoLayersShowFp8WeightsAndActivationsOnTheCandidateOnly) {
    MainWindow window;
    window.openDemo();
    const Fp8LayersPanel* panel = window.comparisonView()->layersPanel();

    // The demo's model_args: the baseline says dtype=bfloat16; the candidate is an "-FP8" checkpoint with no
    // kv_cache_dtype. An FP8 checkpoint runs W8A8 in vLLM, so the candidate has FP8 weights and activations and
    // nothing else is FP8: 2 of the 6 badges are on, both in the candidate's card (the second).
    const auto on = panel->findChildren<QLabel*>(QStringLiteral("badgeOn"));
    const auto off = panel->findChildren<QLabel*>(QStringLiteral("badgeOff"));
    ASSERT_EQ(on.size(), 2);
    EXPECT_EQ(off.size(), 4);
    const auto cards = panel->findChildren<QWidget*>(QStringLiteral("runCard"));
    ASSERT_EQ(cards.size(), 2);
    EXPECT_EQ(cards[0]->findChildren<QLabel*>(QStringLiteral("badgeOn")).size(), 0);
    EXPECT_EQ(cards[1]->findChildren<QLabel*>(QStringLiteral("badgeOn")).size(), 2);
    for (const QLabel* badge : on) {
        EXPECT_TRUE(badge->text().startsWith(QStringLiteral("✓")));
        EXPECT_FALSE(badge->toolTip().isEmpty());
    }

    QStringList models;
    for (const QLabel* label : panel->findChildren<QLabel*>(QStringLiteral("runModel"))) {
        models << label->text().remove(QChar(0x200b));
    }
    EXPECT_EQ(models, (QStringList{QStringLiteral("meta-llama/Meta-Llama-3-8B-Instruct"),
                                   QStringLiteral("neuralmagic/Meta-Llama-3-8B-Instruct-FP8")}));
    QStringList headings;
    for (const QLabel* label : panel->findChildren<QLabel*>(QStringLiteral("runHeading"))) headings << label->text();
    ASSERT_EQ(headings.size(), 2);
    EXPECT_TRUE(headings[0].contains(QStringLiteral("BF16")));
    EXPECT_TRUE(headings[1].contains(QStringLiteral("FP8")));
}

TEST_F(SidePanelsTest, DemoFlagsGsm8kAsFp8Sensitive) {
    MainWindow window;
    window.openDemo();
    const QStringList risks = window.comparisonView()->riskFlagsPanel()->entries();
    EXPECT_TRUE(std::any_of(risks.begin(), risks.end(), [](const QString& r) {
        return r.startsWith(QStringLiteral("gsm8k"));
    })) << risks.join(QLatin1Char('\n')).toStdString();
}

TEST_F(SidePanelsTest, DemoNotesAreShownAsWritten) {
    MainWindow window;
    window.openDemo();
    const Json demo = demoJson();
    QStringList expected;
    for (const auto& note : demo["notes"]) expected << QString::fromStdString(note["text"].get<std::string>());
    ASSERT_FALSE(expected.isEmpty());
    EXPECT_EQ(window.comparisonView()->notesPanel()->texts(), expected);
    // Read-only: nothing in the panel is editable.
    for (const QLabel* label : window.comparisonView()->notesPanel()->findChildren<QLabel*>()) {
        EXPECT_FALSE(label->textInteractionFlags() & Qt::TextEditable);
    }
}

TEST_F(SidePanelsTest, MissingTasksAreListedWithTheirReason) {
    const std::string mmlu = sharedFixture("lm-eval/llama3-8b-instruct_mmlu_v0.4.2.json");
    const std::string withGsm8k = sharedFixture("lm-eval/llama3-8b-instruct_gsm8k_v0.4.2.json");
    FP8DASH_REQUIRE_FIXTURE(mmlu);
    FP8DASH_REQUIRE_FIXTURE(withGsm8k);
    // Baseline: mmlu + gsm8k merged into one run; candidate: mmlu only. gsm8k is then only in the baseline.
    auto base = readLmEvalPath(mmlu);
    auto extra = readLmEvalPath(withGsm8k);
    ASSERT_TRUE(base.ok() && extra.ok());
    LmEvalResults merged = base.value();
    for (const TaskResult& t : extra->tasks) merged.tasks.push_back(t);
    ComparisonDocument doc =
        makeComparisonDocument(RunRecord{"BF16", "", merged}, RunRecord{"FP8", "", base.value()}, ComparisonOptions{});
    MainWindow window;
    window.showDocument(doc, {});
    ASSERT_NE(window.current(), nullptr);
    const QStringList missing = window.comparisonView()->missingTasksPanel()->entries();
    EXPECT_TRUE(std::any_of(missing.begin(), missing.end(), [](const QString& m) {
        return m.startsWith(QStringLiteral("gsm8k: "));
    })) << missing.join(QLatin1Char('\n')).toStdString();
    EXPECT_EQ(missing.size(), static_cast<qsizetype>(window.current()->report.missing.size()));
}

TEST_F(SidePanelsTest, NotComparableTasksAndTheCheckShowBesideNotCompared) {
    const std::string original = sharedFixture("lm-eval/qwen2.5-7b_multi-task_v0.4.8.json");
    FP8DASH_REQUIRE_FIXTURE(original);
    // The same run with arc_challenge's few-shot count edited from 0 to 25 (tests/data/lm-eval-compat/SOURCES.md).
    const std::string edited = FP8DASH_TEST_DATA "/lm-eval-compat/qwen2.5-7b_arc-challenge-25shot_v0.4.8.json";
    MainWindow window;
    window.showDocument(documentFromRuns(original, edited), {});
    ASSERT_NE(window.current(), nullptr);
    const QStringList entries = window.comparisonView()->missingTasksPanel()->entries();
    const QString blocked = QStringLiteral(
        "arc_challenge: not comparable: n-shot differs: baseline 0-shot, candidate "
        "25-shot");
    const QString finding =
        QStringLiteral("[blocking] arc_challenge: n-shot differs: baseline 0-shot, candidate 25-shot");
    EXPECT_TRUE(entries.contains(blocked)) << entries.join(QLatin1Char('\n')).toStdString();
    EXPECT_TRUE(entries.contains(finding)) << entries.join(QLatin1Char('\n')).toStdString();
    EXPECT_EQ(entries.size(), static_cast<qsizetype>(window.current()->report.missing.size() +
                                                     window.current()->report.comparability.size()));
}

}  // namespace
}  // namespace fp8dash::ui::test
