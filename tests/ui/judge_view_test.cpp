// The Domain judge tab: distributions, the summary card, the biggest drops with their texts, the empty state, and
// the banner's decision over the judge. Expected figures are computed here by hand from the scores below.
#include <QAbstractItemModel>
#include <QAction>
#include <QBarSet>
#include <QFrame>
#include <QItemSelectionModel>
#include <QLabel>
#include <QSignalSpy>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QTextBrowser>
#include <QtTest>

#include <map>
#include <string>
#include <vector>

#include "fp8dash/core/judge_scores.h"
#include "fp8dash/ui/comparison_view.h"
#include "fp8dash/ui/judge_drops_model.h"
#include "fp8dash/ui/judge_view.h"
#include "fp8dash/ui/main_window.h"
#include "fp8dash/ui/theme.h"
#include "fp8dash/ui/verdict_banner.h"
#include "gui_test_support.h"

namespace fp8dash::ui::test {
namespace {

class JudgeViewTest : public GuiTest {};

struct JudgeSample {
    const char* id;
    int score;
};

// Paired by id: q1..q8 on both sides; q9 only in the baseline, q10 only in the candidate.
// Differences (candidate - baseline) on the pairs: q1 -1, q2 -2, q3 -3, the rest 0.
constexpr JudgeSample kBaseline[] = {{"q1", 5}, {"q2", 5}, {"q3", 4}, {"q4", 3}, {"q5", 4},
                                     {"q6", 2}, {"q7", 5}, {"q8", 3}, {"q9", 5}};
constexpr JudgeSample kCandidate[] = {{"q1", 4}, {"q2", 3}, {"q3", 1}, {"q4", 3}, {"q5", 4},
                                      {"q6", 2}, {"q7", 5}, {"q8", 3}, {"q10", 1}};

std::string promptOf(const std::string& id) {
    // Long and multi-line, so the detail pane has to show the whole text.
    return "Prompt of " + id + ": explain the clause.\nSecond line of " + id + " with more words to wrap.";
}

std::string jsonLines(const JudgeSample* samples, std::size_t n, const std::string& side) {
    std::string text;
    for (std::size_t i = 0; i < n; ++i) {
        Json row = {{"id", samples[i].id},
                    {"score", samples[i].score},
                    {"prompt", promptOf(samples[i].id)},
                    {"answer", side + " answer to " + samples[i].id},
                    {"comment", side + " judge note on " + samples[i].id}};
        text += row.dump() + "\n";
    }
    return text;
}

ComparisonDocument judgeDocument(bool cautious = false) {
    auto baseline = parseJudgeScores(jsonLines(kBaseline, std::size(kBaseline), "BF16"), "baseline.jsonl");
    auto candidate = parseJudgeScores(jsonLines(kCandidate, std::size(kCandidate), "FP8"), "candidate.jsonl");
    EXPECT_TRUE(baseline.ok()) << baseline.error().message;
    EXPECT_TRUE(candidate.ok()) << candidate.error().message;
    ComparisonDocument doc;
    doc.hasEvals = false;
    doc.title = "BF16 vs FP8: domain judge";
    doc.baseline.label = "BF16";
    doc.candidate.label = "FP8";
    doc.options.cautious = cautious;
    JudgeSection section;
    section.baseline = std::move(baseline).value();
    section.candidate = std::move(candidate).value();
    doc.judge = std::move(section);
    return doc;
}

TEST_F(JudgeViewTest, ShowsTheDistributionsTheSummaryAndTheDrops) {
    MainWindow window;
    window.show();
    window.showDocument(judgeDocument(), {}, QStringLiteral("judge"));
    ComparisonView* view = window.comparisonView();
    JudgeView* judge = view->judgeView();
    ASSERT_NE(judge, nullptr);
    EXPECT_FALSE(judge->isEmptyState());
    // A judge-only document opens on its judge tab; the evals tab is hidden.
    EXPECT_EQ(view->tabs()->currentWidget(), judge);
    EXPECT_FALSE(view->tabs()->isTabVisible(ComparisonView::EvalsTab));

    // Means over the 8 paired ids: 31/8 and 25/8.
    EXPECT_TRUE(judge->meansText().contains(QStringLiteral("BF16: 3.875"))) << judge->meansText().toStdString();
    EXPECT_TRUE(judge->meansText().contains(QStringLiteral("FP8: 3.125"))) << judge->meansText().toStdString();
    // Mean difference -6/8 = -0.75 points; -0.75 / 3.875 = -19.35 %.
    EXPECT_TRUE(judge->differenceText().startsWith(QStringLiteral("−0.750 points")))
        << judge->differenceText().toStdString();
    EXPECT_TRUE(judge->differenceText().contains(QStringLiteral("−19.35 %"))) << judge->differenceText().toStdString();
    // Wilcoxon signed-rank, exact: 3 non-zero differences with magnitudes 1, 2, 3, all negative, so W+ = 0 and
    // p = 2 * P(W+ <= 0) = 2 / 2^3 = 0.25.
    EXPECT_TRUE(judge->testText().contains(QStringLiteral("Wilcoxon"))) << judge->testText().toStdString();
    EXPECT_TRUE(judge->testText().contains(QStringLiteral("p = 0.25 (exact)"))) << judge->testText().toStdString();
    EXPECT_TRUE(judge->degradationText().startsWith(QStringLiteral("19.35 %")))
        << judge->degradationText().toStdString();
    // 19.35 % is far above the 1.5 % edge: INVESTIGATE.
    EXPECT_EQ(judge->verdictText(), QStringLiteral("INVESTIGATE"));
    // p >= 0.05 and no equivalence: the "no significant drop" wording, never "GO is shown".
    EXPECT_TRUE(
        judge->equivalenceText().startsWith(QStringLiteral("No significant drop, but equivalence is not shown")))
        << judge->equivalenceText().toStdString();
    EXPECT_TRUE(judge->samplesText().contains(QStringLiteral("8 pairs"))) << judge->samplesText().toStdString();
    EXPECT_TRUE(judge->samplesText().contains(QStringLiteral("only in BF16, left out: q9")));
    EXPECT_TRUE(judge->samplesText().contains(QStringLiteral("only in FP8, left out: q10")));

    // The bars: the histogram of the paired scores of each side, counted here.
    std::map<std::string, int> candidateById;
    for (const JudgeSample& s : kCandidate) candidateById[s.id] = s.score;
    std::vector<int> expectedBaseline(5, 0), expectedCandidate(5, 0);
    for (const JudgeSample& s : kBaseline) {
        if (!candidateById.count(s.id)) continue;
        ++expectedBaseline[static_cast<std::size_t>(s.score - 1)];
        ++expectedCandidate[static_cast<std::size_t>(candidateById[s.id] - 1)];
    }
    EXPECT_EQ(judge->categories(), (QStringList{QStringLiteral("1"), QStringLiteral("2"), QStringLiteral("3"),
                                                QStringLiteral("4"), QStringLiteral("5")}));
    ASSERT_NE(judge->baselineSet(), nullptr);
    ASSERT_NE(judge->candidateSet(), nullptr);
    ASSERT_EQ(judge->baselineSet()->count(), 5);
    ASSERT_EQ(judge->candidateSet()->count(), 5);
    for (int i = 0; i < 5; ++i) {
        EXPECT_EQ(judge->baselineSet()->at(i), expectedBaseline[static_cast<std::size_t>(i)]) << "score " << i + 1;
        EXPECT_EQ(judge->candidateSet()->at(i), expectedCandidate[static_cast<std::size_t>(i)]) << "score " << i + 1;
    }

    // The drops: the three pairs that fell, largest first, with the texts of both sides.
    const QAbstractItemModel* drops = judge->dropsModel();
    ASSERT_EQ(drops->rowCount(), 3);
    EXPECT_EQ(drops->index(0, 0).data().toString(), QStringLiteral("q3"));
    EXPECT_EQ(drops->index(1, 0).data().toString(), QStringLiteral("q2"));
    EXPECT_EQ(drops->index(2, 0).data().toString(), QStringLiteral("q1"));
    EXPECT_EQ(drops->index(0, 3).data().toString(), QStringLiteral("−3"));
    QStringList headers;
    for (int c = 0; c < drops->columnCount(); ++c) headers << drops->headerData(c, Qt::Horizontal).toString();
    EXPECT_EQ(headers, (QStringList{QStringLiteral("ID"), QStringLiteral("BF16"), QStringLiteral("FP8"),
                                    QStringLiteral("Change"), QStringLiteral("Prompt"), QStringLiteral("BF16 answer"),
                                    QStringLiteral("FP8 answer"), QStringLiteral("Judge comment")}));
    EXPECT_EQ(drops->index(0, 6).data().toString(), QStringLiteral("FP8 answer to q3"));

    // Clicking a row shows its full texts, line breaks and all, selectable.
    QTableView* table = judge->dropsTable();
    const QRect cell = table->visualRect(drops->index(1, 0));
    QTest::mouseClick(table->viewport(), Qt::LeftButton, Qt::NoModifier, cell.center());
    const QString detail = judge->detailPane()->toPlainText();
    EXPECT_TRUE(detail.contains(QString::fromStdString(promptOf("q2")))) << detail.toStdString();
    EXPECT_TRUE(detail.contains(QStringLiteral("BF16 answer to q2")));
    EXPECT_TRUE(detail.contains(QStringLiteral("FP8 answer to q2")));
    EXPECT_TRUE(detail.contains(QStringLiteral("FP8 judge note on q2")));
    EXPECT_TRUE(detail.contains(QStringLiteral("BF16 judge note on q2")));
    EXPECT_FALSE(detail.contains(QStringLiteral("q3")));
    EXPECT_TRUE(judge->detailPane()->textInteractionFlags() & Qt::TextSelectableByMouse);

    // The banner decides over the judge, and says so.
    VerdictBanner* banner = view->verdictBanner();
    EXPECT_EQ(banner->verdictText(), QStringLiteral("INVESTIGATE"));
    EXPECT_TRUE(banner->reasonsText().startsWith(QStringLiteral("domain judge: ")))
        << banner->reasonsText().toStdString();
    EXPECT_TRUE(banner->countsText().contains(QStringLiteral("domain judge: INVESTIGATE (8 pairs)")))
        << banner->countsText().toStdString();
    EXPECT_TRUE(view->tabs()->tabText(ComparisonView::JudgeTab).contains(QStringLiteral("INVESTIGATE")));
}

TEST_F(JudgeViewTest, UnpairedScoresAreComparedAsTwoGroupsWithoutDrops) {
    // No ids: the records carry only values.
    auto baseline = judgeScoresFromRecords({{"", 4, ""}, {"", 4, ""}, {"", 5, ""}, {"", 3, ""}}, "baseline scores");
    auto candidate =
        judgeScoresFromRecords({{"", 4, ""}, {"", 3, ""}, {"", 5, ""}, {"", 3, ""}, {"", 2, ""}}, "candidate scores");
    ASSERT_TRUE(baseline.ok()) << baseline.error().message;
    ASSERT_TRUE(candidate.ok()) << candidate.error().message;
    ComparisonDocument doc;
    doc.hasEvals = false;
    JudgeSection section;
    section.baseline = std::move(baseline).value();
    section.candidate = std::move(candidate).value();
    doc.judge = std::move(section);

    MainWindow window;
    window.showDocument(doc, {}, QStringLiteral("unpaired"));
    JudgeView* judge = window.comparisonView()->judgeView();
    ASSERT_FALSE(judge->isEmptyState());
    // Means over every sample: 16/4 and 17/5.
    EXPECT_TRUE(judge->meansText().contains(QStringLiteral(": 4.000"))) << judge->meansText().toStdString();
    EXPECT_TRUE(judge->meansText().contains(QStringLiteral(": 3.400"))) << judge->meansText().toStdString();
    EXPECT_TRUE(judge->samplesText().startsWith(QStringLiteral("Unpaired"))) << judge->samplesText().toStdString();
    EXPECT_TRUE(judge->testText().contains(QStringLiteral("Mann-Whitney"))) << judge->testText().toStdString();
    EXPECT_EQ(judge->dropsModel()->rowCount(), 0);
    EXPECT_TRUE(judge->dropsNote()->text().contains(QStringLiteral("ids"))) << judge->dropsNote()->text().toStdString();
    // Bars count every sample of each side.
    ASSERT_NE(judge->baselineSet(), nullptr);
    const double baselineBars[] = {0, 0, 1, 2, 1};
    const double candidateBars[] = {0, 1, 2, 1, 1};
    for (int i = 0; i < 5; ++i) {
        EXPECT_EQ(judge->baselineSet()->at(i), baselineBars[i]);
        EXPECT_EQ(judge->candidateSet()->at(i), candidateBars[i]);
    }
}

TEST_F(JudgeViewTest, DocumentWithoutJudgeScoresSaysHowToAddThem) {
    MainWindow window;
    showEvalsOnly(window);
    JudgeView* judge = window.comparisonView()->judgeView();
    EXPECT_TRUE(judge->isEmptyState());
    EXPECT_EQ(judge->baselineSet(), nullptr);
    const QString text = judge->emptyText();
    EXPECT_TRUE(text.contains(QStringLiteral("New Comparison"))) << text.toStdString();
    // The app's own ways, never the command line's flags (issue 39).
    EXPECT_TRUE(text.contains(QStringLiteral("Timeline › Run Domain Eval…")));
    EXPECT_FALSE(text.contains(QStringLiteral("--judge-baseline")));
    // An evals-only banner keeps the evals' own reasons (no prefixes).
    EXPECT_FALSE(window.comparisonView()->verdictBanner()->reasonsText().contains(QStringLiteral("domain judge")));

    // The judge tab's key is Ctrl+ its place among the visible tabs (View › Go to Tab; here after Offline evals).
    int place = 0;
    for (int i = 0; i <= ComparisonView::JudgeTab; ++i) place += window.comparisonView()->tabs()->isTabVisible(i);
    const QString key = QStringLiteral("Ctrl+%1").arg(place);
    EXPECT_EQ(place, 2);
    EXPECT_TRUE(actionShortcuts(&window).contains(QStringLiteral("Show Domain Judge=") + key))
        << actionShortcuts(&window).join(QLatin1Char(' ')).toStdString();
    QAction* show = nullptr;
    for (QAction* action : window.findChildren<QAction*>()) {
        if (action->shortcut() == QKeySequence(key)) show = action;
    }
    ASSERT_NE(show, nullptr);
    show->trigger();
    EXPECT_EQ(window.comparisonView()->tabs()->currentWidget(), judge);
}

TEST_F(JudgeViewTest, CautiousPolicyIsShownOnTheBanner) {
    MainWindow window;
    window.showDocument(judgeDocument(true), {}, QStringLiteral("judge"));
    EXPECT_TRUE(window.comparisonView()->verdictBanner()->thresholdsText().contains(QStringLiteral("Cautious policy")))
        << window.comparisonView()->verdictBanner()->thresholdsText().toStdString();
}

TEST_F(JudgeViewTest, BenchmarksOnlyDocumentExplainsWhyThereIsNoVerdict) {
    ComparisonDocument doc;
    doc.hasEvals = false;
    doc.title = "Local FP8 evidence";
    doc.capacity = CapacitySettings{};
    MainWindow window;
    window.showDocument(doc, {}, QStringLiteral("local"));
    const VerdictBanner* banner = window.comparisonView()->verdictBanner();
    EXPECT_EQ(banner->verdictText(), QStringLiteral("NO VERDICT"));
    const QString advice = banner->adviceText();
    EXPECT_TRUE(advice.contains(QStringLiteral("inform the decision but do not decide it"))) << advice.toStdString();
    EXPECT_TRUE(advice.contains(QStringLiteral("judge")));
    EXPECT_FALSE(advice.contains(QStringLiteral("quality series")));  // not the timeline's sentence
}

}  // namespace
}  // namespace fp8dash::ui::test

namespace fp8dash::ui::test {
namespace {

// A theme switch repaints the judge tab in place: the drops keep their selection and the detail its text, the
// splitters their sizes, the change column and the card take the palette's colours, and the model is not reset.
TEST_F(JudgeViewTest, AThemeSwitchRepaintsAndKeepsTheSelectionAndSplitters) {
    const ThemeMode before = Theme::instance()->mode();
    Theme::instance()->setMode(ThemeMode::Light);
    const ComparisonDocument doc = judgeDocument();
    auto comparison = compareJudgeScores(doc.judge->baseline, doc.judge->candidate);
    ASSERT_TRUE(comparison.ok()) << comparison.error().message;
    JudgeView view;
    view.resize(1200, 900);
    view.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&view));
    view.setJudge(&*doc.judge, &*comparison, QStringLiteral("BF16"), QStringLiteral("FP8"));
    ASSERT_EQ(view.dropsModel()->rowCount(), 3);
    view.selectDrop(1);
    const QString detail = view.detailPane()->toPlainText();
    QList<QList<int>> sizes;
    const auto splitters = view.findChildren<QSplitter*>();
    ASSERT_FALSE(splitters.isEmpty());
    for (QSplitter* s : splitters) {
        s->setSizes({s->orientation() == Qt::Vertical ? 500 : 700, 300});
        sizes << s->sizes();
    }
    const QModelIndex change = view.dropsModel()->index(0, JudgeDropsModel::ChangeColumn);
    const QColor lightChange = change.data(Qt::ForegroundRole).value<QColor>();
    const QString lightCard = view.findChild<QFrame*>(QStringLiteral("judgeCard"))->styleSheet();
    const int resets = view.dropsModel()->resetCount();
    QSignalSpy reset(view.dropsModel(), &QAbstractItemModel::modelReset);
    QSignalSpy repainted(view.dropsModel(), &QAbstractItemModel::dataChanged);

    Theme::instance()->setMode(ThemeMode::Dark);
    EXPECT_NE(view.dropsModel()->index(0, JudgeDropsModel::ChangeColumn).data(Qt::ForegroundRole).value<QColor>(),
              lightChange);
    EXPECT_NE(view.findChild<QFrame*>(QStringLiteral("judgeCard"))->styleSheet(), lightCard);
    Theme::instance()->setMode(ThemeMode::Light);

    EXPECT_EQ(reset.count(), 0);
    EXPECT_EQ(view.dropsModel()->resetCount(), resets);
    EXPECT_EQ(repainted.count(), 2);  // one repaint of the colour roles per switch
    EXPECT_EQ(view.findChild<QFrame*>(QStringLiteral("judgeCard"))->styleSheet(), lightCard);
    const QModelIndexList selected = view.dropsTable()->selectionModel()->selectedRows();
    ASSERT_EQ(selected.size(), 1);
    EXPECT_EQ(selected.first().row(), 1);
    EXPECT_EQ(view.dropsTable()->currentIndex().row(), 1);
    EXPECT_EQ(view.detailPane()->toPlainText(), detail);
    QList<QList<int>> after;
    for (QSplitter* s : view.findChildren<QSplitter*>()) after << s->sizes();
    EXPECT_EQ(after, sizes);
    Theme::instance()->setMode(before);
}

}  // namespace
}  // namespace fp8dash::ui::test
