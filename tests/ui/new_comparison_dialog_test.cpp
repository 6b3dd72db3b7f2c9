// NewComparisonDialog driven like a user, without native dialogs: form -> worker -> save -> the file loads back.
#include <QCheckBox>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QThreadPool>
#include <QTreeView>
#include <QtTest>

#include "fp8dash/ui/comparison_view.h"
#include "fp8dash/ui/judge_view.h"
#include "fp8dash/ui/main_window.h"
#include "fp8dash/ui/new_comparison_dialog.h"
#include "fp8dash/ui/task_table_model.h"
#include "fp8dash/ui/task_table_view.h"
#include "fp8dash/ui/verdict_banner.h"
#include "gui_test_support.h"

namespace fp8dash::ui::test {
namespace {

class NewComparisonDialogTest : public GuiTest {};

TEST_F(NewComparisonDialogTest, ComparesSavesAndTheFileLoadsBack) {
    const std::string baseline = sharedFixture("lm-eval/llama3-8b-instruct_mmlu_v0.4.2.json");
    const std::string candidate = sharedFixture("lm-eval/llama3-8b-base_mmlu_v0.4.2.json");
    FP8DASH_REQUIRE_FIXTURE(baseline);
    FP8DASH_REQUIRE_FIXTURE(candidate);
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());

    // The candidate given as an lm-eval output folder (v0.4.3+ layout: <dir>/<model>/results_<time>.json).
    const QString runDir = dir.filePath(QStringLiteral("base-run"));
    ASSERT_TRUE(QDir().mkpath(runDir + QStringLiteral("/meta-llama__Meta-Llama-3-8B")));
    ASSERT_TRUE(QFile::copy(QString::fromStdString(candidate),
                            runDir + QStringLiteral("/meta-llama__Meta-Llama-3-8B/results_2024-05-01T10-00-00.json")));

    const QString savePath = dir.filePath(QStringLiteral("instruct-vs-base.fp8cmp"));
    NewComparisonDialog dialog;
    dialog.setBaselinePath(QString::fromStdString(baseline));
    dialog.setCandidatePath(runDir);
    dialog.setLabels(QStringLiteral("Instruct"), QStringLiteral("Base"));
    dialog.setThresholds(0.4, 2.0);
    dialog.setOverridesText(QStringLiteral("mmlu=acc\n"));
    dialog.setPresetSavePath(savePath);
    dialog.show();

    // Llama-3-8B is not a variant of Llama-3-8B-Instruct: refused inline, naming both checkpoints, nothing saved.
    QSignalSpy failed(&dialog, &NewComparisonDialog::comparisonFailed);
    QTest::mouseClick(dialog.compareButton(), Qt::LeftButton);
    ASSERT_TRUE(failed.wait(60000));
    EXPECT_TRUE(dialog.errorText().contains(QStringLiteral("not variants of one model")))
        << dialog.errorText().toStdString();
    EXPECT_TRUE(dialog.errorText().contains(QStringLiteral("meta-llama/Meta-Llama-3-8B-Instruct")));
    EXPECT_FALSE(QFileInfo::exists(savePath));
    // Compared anyway when the user allows it (the real group of 57 subjects is what this test is about).
    dialog.setAllowIncomparable(true);

    QSignalSpy accepted(&dialog, &QDialog::accepted);
    QTest::mouseClick(dialog.compareButton(), Qt::LeftButton);
    EXPECT_TRUE(dialog.isBusy());
    EXPECT_FALSE(dialog.compareButton()->isEnabled());
    ASSERT_TRUE(accepted.wait(60000)) << dialog.errorText().toStdString();
    EXPECT_FALSE(dialog.isBusy());
    EXPECT_EQ(dialog.savedPath(), QFileInfo(savePath).absoluteFilePath());
    ASSERT_NE(dialog.result(), nullptr);

    // The saved file loads back with the same settings and results.
    auto loaded = loadComparisonFile(savePath.toStdString());
    ASSERT_TRUE(loaded.ok()) << loaded.error().message;
    EXPECT_EQ(loaded->baseline.label, "Instruct");
    EXPECT_EQ(loaded->candidate.label, "Base");
    EXPECT_DOUBLE_EQ(loaded->options.thresholds.goBelow, 0.4);
    EXPECT_DOUBLE_EQ(loaded->options.thresholds.investigateAbove, 2.0);
    ASSERT_EQ(loaded->options.overrides.size(), 1u);
    EXPECT_EQ(loaded->options.overrides[0].toString(), "mmlu=acc");
    auto report = loaded->evaluate();
    ASSERT_TRUE(report.ok()) << report.error().message;
    EXPECT_EQ(report->verdict, dialog.result()->report.verdict);
    ASSERT_EQ(report->tasks.size(), dialog.result()->report.tasks.size());
    EXPECT_EQ(report->tasks[0].task, "mmlu");
    EXPECT_DOUBLE_EQ(report->tasks[0].candidate, dialog.result()->report.tasks[0].candidate);

    // And the window opens it.
    MainWindow window;
    QSignalSpy shown(&window, &MainWindow::documentShown);
    window.openFileAsync(savePath);
    ASSERT_TRUE(shown.wait(20000));
    const QAbstractItemModel* model = window.comparisonView()->taskTable()->treeView()->model();
    EXPECT_EQ(model->headerData(TaskTableModel::CandidateColumn, Qt::Horizontal).toString(), QStringLiteral("Base"));
    EXPECT_EQ(window.comparisonView()->verdictBanner()->verdictText(),
              QString::fromUtf8(verdictTitle(report->verdict).data()));
}

TEST_F(NewComparisonDialogTest, TheSameRunTwiceIsRefusedUnlessTheBoxIsChecked) {
    const std::string run = sharedFixture("lm-eval/llama3-8b-instruct_gsm8k_v0.4.2.json");
    FP8DASH_REQUIRE_FIXTURE(run);
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString savePath = dir.filePath(QStringLiteral("same.fp8cmp"));
    NewComparisonDialog dialog;
    dialog.setBaselinePath(QString::fromStdString(run));
    dialog.setCandidatePath(QString::fromStdString(run));
    dialog.setPresetSavePath(savePath);
    dialog.show();
    QSignalSpy accepted(&dialog, &QDialog::accepted);
    QTest::mouseClick(dialog.compareButton(), Qt::LeftButton);
    ASSERT_TRUE(QTest::qWaitFor([&] { return !dialog.isBusy(); }, 60000));
    EXPECT_TRUE(dialog.errorText().contains(QStringLiteral("identical: the same run twice?")))
        << dialog.errorText().toStdString();
    EXPECT_EQ(accepted.count(), 0);

    EXPECT_FALSE(dialog.allowIncomparableCheck()->toolTip().isEmpty());
    dialog.allowIncomparableCheck()->setChecked(true);
    QTest::mouseClick(dialog.compareButton(), Qt::LeftButton);
    ASSERT_TRUE(accepted.wait(60000)) << dialog.errorText().toStdString();
    ASSERT_NE(dialog.result(), nullptr);
    ASSERT_FALSE(dialog.result()->report.reasons.empty());
    EXPECT_EQ(dialog.result()->report.reasons.front().rfind("compared although not comparable", 0), 0u);
    auto loaded = loadComparisonFile(savePath.toStdString());
    ASSERT_TRUE(loaded.ok()) << loaded.error().message;
    EXPECT_TRUE(loaded->options.allowIncomparable);
}

TEST_F(NewComparisonDialogTest, InvalidFormStaysOpenWithAnInlineError) {
    NewComparisonDialog dialog;
    dialog.show();
    QSignalSpy accepted(&dialog, &QDialog::accepted);

    QTest::mouseClick(dialog.compareButton(), Qt::LeftButton);
    EXPECT_TRUE(dialog.errorText().contains(QStringLiteral("baseline"))) << dialog.errorText().toStdString();
    EXPECT_FALSE(dialog.isBusy());

    dialog.setBaselinePath(QStringLiteral("/tmp/a.json"));
    dialog.setCandidatePath(QStringLiteral("/tmp/b.json"));
    dialog.setOverridesText(QStringLiteral("gsm8k=exact_match,strict-match\nnot an override\n"));
    QTest::mouseClick(dialog.compareButton(), Qt::LeftButton);
    EXPECT_TRUE(dialog.errorText().contains(QStringLiteral("line 2"))) << dialog.errorText().toStdString();
    EXPECT_FALSE(dialog.isBusy());

    dialog.setOverridesText({});
    dialog.setThresholds(2.0, 1.0);  // go-below above investigate-above
    QTest::mouseClick(dialog.compareButton(), Qt::LeftButton);
    EXPECT_FALSE(dialog.errorText().isEmpty());
    EXPECT_FALSE(dialog.isBusy());
    EXPECT_EQ(accepted.count(), 0);
    EXPECT_TRUE(dialog.isVisible());
}

TEST_F(NewComparisonDialogTest, UnreadableRunIsReportedInlineNamingTheFile) {
    const std::string candidate = sharedFixture("lm-eval/llama3-8b-base_mmlu_v0.4.2.json");
    FP8DASH_REQUIRE_FIXTURE(candidate);
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    NewComparisonDialog dialog;
    dialog.setBaselinePath(dir.filePath(QStringLiteral("no-such-results.json")));
    dialog.setCandidatePath(QString::fromStdString(candidate));
    dialog.setPresetSavePath(dir.filePath(QStringLiteral("never.fp8cmp")));
    dialog.show();
    QSignalSpy failed(&dialog, &NewComparisonDialog::comparisonFailed);
    dialog.accept();
    ASSERT_TRUE(failed.wait(60000));
    EXPECT_TRUE(dialog.errorText().contains(QStringLiteral("no-such-results.json")))
        << dialog.errorText().toStdString();
    EXPECT_TRUE(dialog.errorText().startsWith(QStringLiteral("Baseline")));
    EXPECT_TRUE(dialog.isVisible());
    EXPECT_FALSE(QFileInfo::exists(dir.filePath(QStringLiteral("never.fp8cmp"))));
}

TEST_F(NewComparisonDialogTest, CancelWhileBusyAbandonsTheResult) {
    const std::string baseline = sharedFixture("lm-eval/llama3-8b-instruct_mmlu_v0.4.2.json");
    const std::string candidate = sharedFixture("lm-eval/llama3-8b-base_mmlu_v0.4.2.json");
    FP8DASH_REQUIRE_FIXTURE(baseline);
    FP8DASH_REQUIRE_FIXTURE(candidate);
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString savePath = dir.filePath(QStringLiteral("abandoned.fp8cmp"));
    NewComparisonDialog dialog;
    dialog.setBaselinePath(QString::fromStdString(baseline));
    dialog.setCandidatePath(QString::fromStdString(candidate));
    dialog.setPresetSavePath(savePath);
    dialog.show();
    QSignalSpy accepted(&dialog, &QDialog::accepted);
    QSignalSpy rejected(&dialog, &QDialog::rejected);

    dialog.accept();
    ASSERT_TRUE(dialog.isBusy());
    QTest::mouseClick(dialog.cancelButton(), Qt::LeftButton);
    EXPECT_FALSE(dialog.isBusy());
    EXPECT_TRUE(dialog.isVisible());  // first Cancel abandons the work, the form stays for another try
    EXPECT_TRUE(dialog.compareButton()->isEnabled());

    QThreadPool::globalInstance()->waitForDone();
    QTest::qWait(50);  // deliver the worker's finished signal: it must be dropped
    EXPECT_EQ(accepted.count(), 0);
    EXPECT_EQ(dialog.result(), nullptr);
    EXPECT_FALSE(QFileInfo::exists(savePath));

    QTest::mouseClick(dialog.cancelButton(), Qt::LeftButton);  // idle: Cancel closes
    EXPECT_EQ(rejected.count(), 1);
    EXPECT_FALSE(dialog.isVisible());
}

// Writes a JSON Lines score file and returns its path.
QString writeScores(const QTemporaryDir& dir, const QString& name,
                    const std::vector<std::pair<std::string, int>>& rows) {
    const QString path = dir.filePath(name);
    QFile file(path);
    EXPECT_TRUE(file.open(QIODevice::WriteOnly));
    for (const auto& [id, score] : rows) {
        file.write(QByteArray::fromStdString(Json{{"id", id}, {"score", score}}.dump() + "\n"));
    }
    return path;
}

TEST_F(NewComparisonDialogTest, JudgeFilesAloneBuildAJudgeOnlyComparison) {
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    // Means 4.5 and 4.25 over the four common ids: a 5.56 % degradation, INVESTIGATE.
    const QString baseline =
        writeScores(dir, QStringLiteral("baseline.jsonl"), {{"a", 5}, {"b", 4}, {"c", 5}, {"d", 4}});
    const QString candidate =
        writeScores(dir, QStringLiteral("candidate.jsonl"), {{"a", 5}, {"b", 4}, {"c", 4}, {"d", 4}});
    const QString savePath = dir.filePath(QStringLiteral("judge.fp8cmp"));
    NewComparisonDialog dialog;
    dialog.setJudgePaths(baseline, candidate);
    dialog.setCautious(true);
    EXPECT_FALSE(dialog.cautiousCheck()->toolTip().isEmpty());
    dialog.setPresetSavePath(savePath);
    dialog.show();
    QSignalSpy accepted(&dialog, &QDialog::accepted);
    QTest::mouseClick(dialog.compareButton(), Qt::LeftButton);
    ASSERT_TRUE(accepted.wait(60000)) << dialog.errorText().toStdString();
    ASSERT_NE(dialog.result(), nullptr);
    EXPECT_FALSE(dialog.result()->document.hasEvals);
    ASSERT_TRUE(dialog.result()->decision.judge.has_value());
    EXPECT_DOUBLE_EQ(dialog.result()->decision.judge->baselineMean, 4.5);
    EXPECT_DOUBLE_EQ(dialog.result()->decision.judge->candidateMean, 4.25);

    auto loaded = loadComparisonFile(savePath.toStdString());
    ASSERT_TRUE(loaded.ok()) << loaded.error().message;
    EXPECT_FALSE(loaded->hasEvals);
    EXPECT_TRUE(loaded->options.cautious);
    ASSERT_TRUE(loaded->judge.has_value());
    EXPECT_EQ(loaded->judge->baseline.samples.size(), 4u);

    MainWindow window;
    QSignalSpy shown(&window, &MainWindow::documentShown);
    window.openFileAsync(savePath);
    ASSERT_TRUE(shown.wait(20000));
    EXPECT_EQ(window.comparisonView()->verdictBanner()->verdictText(), QStringLiteral("INVESTIGATE"));
    JudgeView* judge = window.comparisonView()->judgeView();
    EXPECT_FALSE(judge->isEmptyState());
    EXPECT_TRUE(judge->meansText().contains(QStringLiteral("4.500"))) << judge->meansText().toStdString();
    EXPECT_TRUE(judge->meansText().contains(QStringLiteral("4.250"))) << judge->meansText().toStdString();
}

TEST_F(NewComparisonDialogTest, NeitherPairOrAHalfPairIsRefusedWithAClearMessage) {
    NewComparisonDialog dialog;
    dialog.show();
    QTest::mouseClick(dialog.compareButton(), Qt::LeftButton);
    EXPECT_TRUE(dialog.errorText().contains(QStringLiteral("judge score files"))) << dialog.errorText().toStdString();
    EXPECT_TRUE(dialog.errorText().contains(QStringLiteral("lm-eval runs")));

    dialog.setJudgePaths(QStringLiteral("/tmp/baseline.jsonl"), QString());
    QTest::mouseClick(dialog.compareButton(), Qt::LeftButton);
    EXPECT_TRUE(dialog.errorText().contains(QStringLiteral("candidate's judge score file")))
        << dialog.errorText().toStdString();

    dialog.setJudgePaths(QStringLiteral("/tmp/baseline.jsonl"), QStringLiteral("/tmp/candidate.jsonl"));
    dialog.setControlPath(QStringLiteral("/tmp/control.json"));
    QTest::mouseClick(dialog.compareButton(), Qt::LeftButton);
    EXPECT_TRUE(dialog.errorText().contains(QStringLiteral("control run"))) << dialog.errorText().toStdString();
    EXPECT_FALSE(dialog.isBusy());
}

TEST_F(NewComparisonDialogTest, UnreadableJudgeFileIsReportedNamingIt) {
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString baseline = writeScores(dir, QStringLiteral("baseline.jsonl"), {{"a", 5}});
    const QString bad = dir.filePath(QStringLiteral("candidate.jsonl"));
    {
        QFile file(bad);
        ASSERT_TRUE(file.open(QIODevice::WriteOnly));
        file.write("{\"id\": \"a\", \"score\": 9}\n");  // outside the 1-5 scale
    }
    NewComparisonDialog dialog;
    dialog.setJudgePaths(baseline, bad);
    dialog.setPresetSavePath(dir.filePath(QStringLiteral("never.fp8cmp")));
    dialog.show();
    QSignalSpy failed(&dialog, &NewComparisonDialog::comparisonFailed);
    dialog.accept();
    ASSERT_TRUE(failed.wait(60000));
    EXPECT_TRUE(dialog.errorText().startsWith(QStringLiteral("Candidate judge scores")))
        << dialog.errorText().toStdString();
    EXPECT_TRUE(dialog.errorText().contains(QStringLiteral("candidate.jsonl")));
    EXPECT_FALSE(QFileInfo::exists(dir.filePath(QStringLiteral("never.fp8cmp"))));
}

TEST_F(NewComparisonDialogTest, RunsWithSampleLogsArePairedAutomatically) {
    const QString root = QStringLiteral(FP8DASH_TEST_DATA "/lm-eval-samples/new-layout");
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    NewComparisonDialog dialog;
    dialog.setBaselinePath(root + QStringLiteral("/bf16"));
    dialog.setCandidatePath(root + QStringLiteral("/fp8"));
    dialog.setPresetSavePath(dir.filePath(QStringLiteral("paired.fp8cmp")));
    dialog.show();
    QSignalSpy accepted(&dialog, &QDialog::accepted);
    dialog.accept();
    ASSERT_TRUE(accepted.wait(60000)) << dialog.errorText().toStdString();
    ASSERT_NE(dialog.result(), nullptr);
    // make_samples.py writes logs for gsm8k, arc_challenge and drop: all three are paired, and saved.
    EXPECT_EQ(dialog.result()->document.paired.size(), 3u);
    auto loaded = loadComparisonFile(dir.filePath(QStringLiteral("paired.fp8cmp")).toStdString());
    ASSERT_TRUE(loaded.ok()) << loaded.error().message;
    ASSERT_EQ(loaded->paired.count("gsm8k"), 1u);
    EXPECT_EQ(loaded->paired.at("gsm8k").b10, 4u);
}

}  // namespace
}  // namespace fp8dash::ui::test
