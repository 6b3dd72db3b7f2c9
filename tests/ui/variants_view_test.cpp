// The "Which layers" tab and the evals tab's candidate picker, driven as a user would on the generated ladder
// (tests/data/lm-eval-ladder, make_ladder.py: gsm8k means 0.76 BF16, 0.756 W8A8, 0.736 + FP8 KV scales 1.0, 0.754 +
// calibrated KV; expected.json holds them). A two-run comparison has neither.
#include <gtest/gtest.h>

#include <QApplication>
#include <QComboBox>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QTabWidget>
#include <QTableWidget>
#include <QTest>
#include <QTreeView>

#include "fp8dash/ui/comparison_view.h"
#include "fp8dash/ui/loaded_comparison.h"
#include "fp8dash/ui/task_table_view.h"
#include "fp8dash/ui/variants_view.h"
#include "gui_test_support.h"

namespace fp8dash::ui {
namespace {

const QString kLadder = QStringLiteral(FP8DASH_TEST_DATA "/lm-eval-ladder");

LoadedComparison ladder(bool several) {
    NewComparisonRequest r;
    r.baselinePath = kLadder + QStringLiteral("/bf16");
    r.candidatePath = kLadder + QStringLiteral("/w8a8");
    r.baselineLabel = QString();
    r.candidateLabel = QString();
    if (several) {
        r.moreCandidatePaths = {kLadder + QStringLiteral("/w8a8-kv"), kLadder + QStringLiteral("/w8a8-kv-cal")};
        r.moreCandidateLabels = {QString(), QString()};
    } else {
        r.baselineLabel = QStringLiteral("BF16");
        r.candidateLabel = QStringLiteral("FP8");
    }
    r.recommendation.accept = Verdict::Monitor;
    auto built = buildNewComparison(r);
    EXPECT_TRUE(built.ok()) << (built.ok() ? "" : built.error().message);
    return built.ok() ? std::move(built).value() : LoadedComparison{};
}

class VariantsViewTest : public test::GuiTest {};

// "<b10> lost, <b01> gained" of one pair of runs in the ladder's expected.json (make_ladder.py's construction): the
// answers the second run lost and gained against the first on a 0/1 metric.
QString lostGained(const QString& pair) {
    QFile f(kLadder + QStringLiteral("/expected.json"));
    EXPECT_TRUE(f.open(QIODevice::ReadOnly));
    const QJsonObject p =
        QJsonDocument::fromJson(f.readAll()).object()[QStringLiteral("pairs")].toObject()[pair].toObject();
    EXPECT_FALSE(p.isEmpty()) << pair.toStdString();
    return QStringLiteral("%1 lost, %2 gained")
        .arg(p[QStringLiteral("b10")].toInt())
        .arg(p[QStringLiteral("b01")].toInt());
}

QString pct(double candidate, double baseline) {
    return QString::number(candidate, 'f', 4) + QStringLiteral(" (") +
           QString::number(candidate / baseline * 100, 'f', 2) + QStringLiteral("%)");
}

TEST_F(VariantsViewTest, TheWhichLayersTabShowsTheMatrixTheStepsAndTheRecommendation) {
    ComparisonView view;
    view.setComparison(ladder(true));
    view.resize(1366, 720);
    view.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&view));
    ASSERT_TRUE(view.tabs()->isTabVisible(ComparisonView::LayersTab));
    EXPECT_EQ(view.tabs()->widget(ComparisonView::LayersTab), view.variantsView());
    EXPECT_TRUE(view.tabs()
                    ->tabText(ComparisonView::LayersTab)
                    .contains(QStringLiteral("FP8 W8A8 + FP8 KV (calibrated scales)")));
    view.showTab(ComparisonView::LayersTab);
    VariantsView* v = view.variantsView();
    EXPECT_TRUE(v->recommendationText().startsWith(QStringLiteral("Enable FP8 W8A8 + FP8 KV (calibrated scales)\n")));
    EXPECT_TRUE(v->recommendationText().contains(QStringLiteral("FP8 W8A8 + FP8 KV (scales 1.0) does not pass")));

    QTableWidget* m = v->matrix();
    ASSERT_EQ(m->columnCount(), VariantsView::FirstVariantColumn + 3);
    ASSERT_EQ(m->rowCount(), 2);
    // Worst task first: gsm8k (3.16 % at worst) above arc_challenge (0.36 %).
    EXPECT_EQ(m->item(0, VariantsView::TaskColumn)->text(), QStringLiteral("gsm8k"));
    EXPECT_EQ(m->item(1, VariantsView::TaskColumn)->text(), QStringLiteral("arc_challenge"));
    EXPECT_EQ(m->item(0, VariantsView::FirstVariantColumn)->text(), pct(0.756, 0.76));
    EXPECT_EQ(m->item(0, VariantsView::FirstVariantColumn + 1)->text(), pct(0.736, 0.76));
    EXPECT_EQ(m->item(0, VariantsView::FirstVariantColumn + 2)->text(), pct(0.754, 0.76));
    // A cell's tooltip says how many answers that variant changed against the baseline.
    const QString cellTip = m->item(0, VariantsView::FirstVariantColumn + 1)->toolTip();
    EXPECT_TRUE(cellTip.contains(lostGained(QStringLiteral("bf16>w8a8-kv/gsm8k")))) << cellTip.toStdString();
    // Each variant's header: its verdict; the recommended one starred.
    EXPECT_TRUE(
        m->horizontalHeaderItem(VariantsView::FirstVariantColumn + 1)->text().contains(QStringLiteral("INVESTIGATE")));
    EXPECT_TRUE(m->horizontalHeaderItem(VariantsView::FirstVariantColumn + 2)->text().startsWith(QStringLiteral("★ ")));
    EXPECT_FALSE(m->horizontalHeaderItem(VariantsView::FirstVariantColumn)->text().startsWith(QStringLiteral("★ ")));
    // The investigate cell and the go cell are tinted differently.
    EXPECT_NE(m->item(0, VariantsView::FirstVariantColumn + 1)->background().color(),
              m->item(1, VariantsView::FirstVariantColumn + 1)->background().color());
    // Sorting by a variant's column orders by its degradation: ascending puts its smaller loss first.
    m->sortByColumn(VariantsView::FirstVariantColumn + 1, Qt::AscendingOrder);
    EXPECT_EQ(m->item(0, VariantsView::TaskColumn)->text(), QStringLiteral("arc_challenge"));

    // The steps: four, the KV step measured between the two runs that differ by it.
    QTableWidget* s = v->stepsTable();
    ASSERT_EQ(s->rowCount(), 4);
    bool kvStep = false;
    for (int r = 0; r < s->rowCount(); ++r)
        if (s->item(r, 0)->text().startsWith(QStringLiteral("FP8 W8A8 → FP8 W8A8 + FP8 KV (scales 1.0)"))) {
            kvStep = true;
            // gsm8k: (0.756 - 0.736) / 0.756 = 2.65 %
            EXPECT_TRUE(s->item(r, 1)->text().startsWith(
                QStringLiteral("costs %1%").arg((0.756 - 0.736) / 0.756 * 100, 0, 'f', 2)))
                << s->item(r, 1)->text().toStdString();
            // Its tooltip: the answers the KV cache changed on top of W8A8.
            const QString tip = s->item(r, 1)->toolTip();
            EXPECT_TRUE(tip.contains(QStringLiteral("FP8 W8A8 + FP8 KV (scales 1.0) changed "))) << tip.toStdString();
            EXPECT_TRUE(tip.contains(lostGained(QStringLiteral("w8a8>w8a8-kv/gsm8k")))) << tip.toStdString();
        }
    EXPECT_TRUE(kvStep);

    // Double-clicking a cell shows that candidate's task in the evals tab.
    m->sortByColumn(VariantsView::TaskColumn, Qt::DescendingOrder);
    emit m->cellDoubleClicked(0, VariantsView::FirstVariantColumn + 1);
    EXPECT_EQ(view.tabs()->currentIndex(), static_cast<int>(ComparisonView::EvalsTab));
    EXPECT_EQ(view.shownCandidate(), 1);
    EXPECT_TRUE(view.candidatePicker()->isVisible());
    EXPECT_EQ(view.taskTable()->taskAt(view.taskTable()->treeView()->currentIndex()), QStringLiteral("gsm8k"));
    // The picked candidate drives the task table: its FP8 column is the scales-1.0 run's.
    EXPECT_TRUE(view.runsLabel()->text().contains(QStringLiteral("FP8 W8A8 + FP8 KV (scales 1.0)")));

    // A re-evaluation with the same candidates keeps the one shown.
    view.setComparison(ladder(true));
    EXPECT_EQ(view.shownCandidate(), 1);
}

TEST_F(VariantsViewTest, ATwoRunComparisonHasNoWhichLayersTabNorPicker) {
    ComparisonView view;
    view.setComparison(ladder(true));
    view.showTab(ComparisonView::LayersTab);
    view.setComparison(ladder(false));
    EXPECT_FALSE(view.tabs()->isTabVisible(ComparisonView::LayersTab));
    EXPECT_EQ(view.tabs()->currentIndex(), static_cast<int>(ComparisonView::EvalsTab));
    EXPECT_TRUE(view.candidatePicker()->isHidden() || view.candidatePicker()->count() <= 1);
    EXPECT_EQ(view.variantsView()->matrix()->rowCount(), 0);
}

}  // namespace
}  // namespace fp8dash::ui
