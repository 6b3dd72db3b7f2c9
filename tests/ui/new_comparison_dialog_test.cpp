// NewComparisonDialog driven like a user, without native dialogs: form -> worker -> save -> the file loads back.
#include <QCheckBox>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QLineEdit>
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

// Compare and Save…: one press, the comparison on a worker, then the save path (preset) and the dialog closes.
::testing::AssertionResult compareThenSave(NewComparisonDialog& dialog) {
    QSignalSpy compared(&dialog, &NewComparisonDialog::compared);
    QSignalSpy accepted(&dialog, &QDialog::accepted);
    QTest::mouseClick(dialog.compareAndSaveButton(), Qt::LeftButton);
    if (!compared.wait(60000))
        return ::testing::AssertionFailure() << "not compared: " << dialog.errorText().toStdString();
    if (!dialog.hasResult() || !dialog.resultText().startsWith("Verdict"))
        return ::testing::AssertionFailure() << "no result: " << dialog.resultText().toStdString();
    if (accepted.count() != 1 || dialog.savedPath().isEmpty())
        return ::testing::AssertionFailure() << "not saved: " << dialog.errorText().toStdString();
    return ::testing::AssertionSuccess();
}

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

    QSignalSpy compared(&dialog, &NewComparisonDialog::compared);
    QSignalSpy accepted(&dialog, &QDialog::accepted);
    QTest::mouseClick(dialog.compareAndSaveButton(), Qt::LeftButton);
    EXPECT_TRUE(dialog.isBusy());
    EXPECT_FALSE(dialog.compareButton()->isEnabled());
    EXPECT_FALSE(dialog.compareAndSaveButton()->isEnabled());
    ASSERT_TRUE(compared.wait(60000)) << dialog.errorText().toStdString();
    EXPECT_FALSE(dialog.isBusy());
    EXPECT_TRUE(dialog.resultText().contains(QStringLiteral("compared anyway although not comparable")))
        << dialog.resultText().toStdString();
    ASSERT_EQ(accepted.count(), 1) << dialog.errorText().toStdString();
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
    ASSERT_TRUE(compareThenSave(dialog));
    ASSERT_NE(dialog.result(), nullptr);
    ASSERT_FALSE(dialog.result()->report.reasons.empty());
    EXPECT_EQ(dialog.result()->report.reasons.front().rfind("compared anyway although not comparable", 0), 0u);
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
    ASSERT_TRUE(compareThenSave(dialog));
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
    ASSERT_TRUE(compareThenSave(dialog));
    ASSERT_NE(dialog.result(), nullptr);
    // make_samples.py writes logs for gsm8k, arc_challenge and drop: all three are paired, and saved.
    EXPECT_EQ(dialog.result()->document.paired.size(), 3u);
    auto loaded = loadComparisonFile(dir.filePath(QStringLiteral("paired.fp8cmp")).toStdString());
    ASSERT_TRUE(loaded.ok()) << loaded.error().message;
    ASSERT_EQ(loaded->paired.count("gsm8k"), 1u);
    EXPECT_EQ(loaded->paired.at("gsm8k").b10, 4u);
}

// The ladder of tests/data/lm-eval-ladder (make_ladder.py): BF16, FP8 W8A8, + FP8 KV (scales 1.0), + FP8 KV from a
// calibrated -FP8-KV checkpoint. Its expected.json gives gsm8k's change of each variant against BF16 (from the
// generator's construction): -0.53 %, -3.16 % and -0.79 %. In the bands (GO < 0.5 % <= MONITOR <= 1.5 % <
// INVESTIGATE) that is MONITOR, INVESTIGATE, MONITOR (arc_challenge stays within GO for all three); with "GO or
// MONITOR" accepted, the most aggressive passing variant is the calibrated-KV one (a superset of W8A8's layers;
// the scales-1.0 one, with the same layers, fails).
const QString kLadder = QStringLiteral(FP8DASH_TEST_DATA "/lm-eval-ladder");

Json ladderExpected() {
    QFile file(kLadder + QStringLiteral("/expected.json"));
    EXPECT_TRUE(file.open(QIODevice::ReadOnly));
    return Json::parse(file.readAll().toStdString());
}

Verdict bandOf(double deltaPct) {
    const double degradation = -deltaPct;
    return degradation < 0.5 ? Verdict::Go : degradation <= 1.5 ? Verdict::Monitor : Verdict::Investigate;
}

TEST_F(NewComparisonDialogTest, SeveralCandidatesShowTheirLayersAndTheRecommendation) {
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString savePath = dir.filePath(QStringLiteral("ladder.fp8cmp"));
    NewComparisonDialog dialog;
    dialog.setPresetSavePath(savePath);
    dialog.show();
    EXPECT_EQ(dialog.candidateCount(), 1);
    dialog.setBaselinePath(kLadder + QStringLiteral("/bf16"));
    dialog.setCandidatePath(kLadder + QStringLiteral("/w8a8"));
    EXPECT_EQ(dialog.addCandidate(kLadder + QStringLiteral("/w8a8-kv")), 1);
    EXPECT_EQ(dialog.addCandidate(kLadder + QStringLiteral("/w8a8-kv-cal")), 2);
    EXPECT_EQ(dialog.candidateCount(), 3);

    // Each run says what it is as soon as it is chosen: the model, the task count, the layers.
    ASSERT_TRUE(QTest::qWaitFor([&] { return !dialog.detectedText(3).isEmpty(); }, 20000));
    ASSERT_TRUE(QTest::qWaitFor([&] { return !dialog.detectedText(0).isEmpty(); }, 20000));
    const auto detectedLine = [&](int run, int n) {
        return dialog.detectedText(run).split(QLatin1Char('\n')).value(n);
    };
    EXPECT_TRUE(detectedLine(0, 0).startsWith(QStringLiteral("meta-llama/Llama-3.1-8B-Instruct · ")))
        << dialog.detectedText(0).toStdString();
    {
        // The task line lists the results file's tasks in its order (read here with nlohmann::json).
        QFile results(kLadder + QStringLiteral(
                                    "/bf16/meta-llama__Llama-3.1-8B-Instruct/results_2026-11-30T09-00-00.000001.json"));
        ASSERT_TRUE(results.open(QIODevice::ReadOnly));
        const Json doc = Json::parse(results.readAll().toStdString());
        QStringList names;
        for (const auto& [task, value] : doc.at("results").items()) names << QString::fromStdString(task);
        EXPECT_EQ(detectedLine(0, 1),
                  QStringLiteral("%1 tasks: %2").arg(names.size()).arg(names.join(QStringLiteral(", "))));
    }
    EXPECT_TRUE(detectedLine(0, 2).startsWith(QStringLiteral("Layers: BF16 — weights none")))
        << detectedLine(0, 2).toStdString();
    ASSERT_TRUE(QTest::qWaitFor([&] { return !dialog.detectedText(1).isEmpty(); }, 20000));
    EXPECT_TRUE(detectedLine(1, 0).startsWith(QStringLiteral("RedHatAI/Meta-Llama-3.1-8B-Instruct-FP8 · ")));
    EXPECT_TRUE(detectedLine(1, 2).startsWith(QStringLiteral("Layers: FP8 W8A8 — ")))
        << detectedLine(1, 2).toStdString();
    ASSERT_TRUE(QTest::qWaitFor([&] { return !dialog.detectedText(2).isEmpty(); }, 20000));
    EXPECT_TRUE(detectedLine(2, 2).startsWith(QStringLiteral("Layers: FP8 W8A8 + FP8 KV (scales 1.0) — ")))
        << dialog.detectedText(2).toStdString();
    EXPECT_TRUE(dialog.detectedText(3).startsWith(QStringLiteral("RedHatAI/Meta-Llama-3.1-8B-Instruct-FP8-KV")))
        << dialog.detectedText(3).toStdString();

    dialog.setRecommendationGate(Verdict::Monitor, std::nullopt);
    QSignalSpy compared(&dialog, &NewComparisonDialog::compared);
    QSignalSpy accepted(&dialog, &QDialog::accepted);
    dialog.compareAndSave();
    ASSERT_TRUE(compared.wait(60000)) << dialog.errorText().toStdString();
    const QString shown = dialog.resultText();
    EXPECT_TRUE(shown.contains(QStringLiteral("Recommended: FP8 W8A8 + FP8 KV (calibrated scales)")))
        << shown.toStdString();
    // One table row per variant, its verdict from gsm8k's change in expected.json (the plain text of a table puts
    // each cell on its own line).
    const Json expected = ladderExpected();
    const std::pair<const char*, const char*> variants[] = {{"w8a8", "FP8 W8A8"},
                                                            {"w8a8-kv", "FP8 W8A8 + FP8 KV (scales 1.0)"},
                                                            {"w8a8-kv-cal", "FP8 W8A8 + FP8 KV (calibrated scales)"}};
    for (const auto& [dirName, label] : variants) {
        const double delta = expected["pairs"][std::string("bf16>") + dirName + "/gsm8k"]["delta_pct"].get<double>();
        const QString line = QStringLiteral("%1\n%2\ngsm8k −%3 %")
                                 .arg(QString::fromUtf8(label), QString::fromUtf8(verdictTitle(bandOf(delta)).data()))
                                 .arg(-delta, 0, 'f', 2);
        EXPECT_TRUE(shown.contains(line)) << line.toStdString() << "\nin\n" << shown.toStdString();
    }

    ASSERT_EQ(accepted.count(), 1) << dialog.errorText().toStdString();
    auto loaded = loadComparisonFile(savePath.toStdString());
    ASSERT_TRUE(loaded.ok()) << loaded.error().message;
    ASSERT_EQ(loaded->moreCandidates.size(), 2u);
    EXPECT_EQ(loaded->baseline.label, "BF16");
    EXPECT_EQ(loaded->candidate.label, "FP8 W8A8");  // no label typed: named after its layers
    EXPECT_EQ(loaded->recommendation.accept, Verdict::Monitor);
    auto variantsBack = loaded->evaluateVariants();
    ASSERT_TRUE(variantsBack.ok()) << variantsBack.error().message;
    ASSERT_TRUE(variantsBack->recommendation.label.has_value());
    EXPECT_EQ(*variantsBack->recommendation.label, "FP8 W8A8 + FP8 KV (calibrated scales)");
}

TEST_F(NewComparisonDialogTest, CandidatesAreAddedMovedAndRemovedThenCompareClosesWithTheResult) {
    NewComparisonDialog dialog;
    dialog.show();
    dialog.setBaselinePath(kLadder + QStringLiteral("/bf16"));
    dialog.setCandidatePath(kLadder + QStringLiteral("/w8a8"));
    dialog.setCandidateLabel(0, QStringLiteral("weights"));
    ASSERT_EQ(dialog.addCandidate(kLadder + QStringLiteral("/w8a8-kv"), QStringLiteral("kv")), 1);
    dialog.moveCandidate(1, -1);
    EXPECT_EQ(dialog.candidatePath(0), kLadder + QStringLiteral("/w8a8-kv"));
    EXPECT_EQ(dialog.candidateLabel(0), QStringLiteral("kv"));
    EXPECT_EQ(dialog.candidatePath(1), kLadder + QStringLiteral("/w8a8"));
    dialog.moveCandidate(1, +1);  // already last: nothing moves
    EXPECT_EQ(dialog.candidatePath(1), kLadder + QStringLiteral("/w8a8"));
    // The first candidate row is always the one automation finds by name.
    auto* first = dialog.findChild<QLineEdit*>(QStringLiteral("candidatePath"));
    ASSERT_NE(first, nullptr);
    EXPECT_EQ(first->text(), dialog.candidatePath(0));
    dialog.removeCandidate(0);
    EXPECT_EQ(dialog.candidateCount(), 1);
    EXPECT_EQ(dialog.candidatePath(0), kLadder + QStringLiteral("/w8a8"));
    first = dialog.findChild<QLineEdit*>(QStringLiteral("candidatePath"));
    ASSERT_NE(first, nullptr);
    EXPECT_EQ(first->text(), kLadder + QStringLiteral("/w8a8"));
    dialog.removeCandidate(0);  // the last candidate stays
    EXPECT_EQ(dialog.candidateCount(), 1);

    // At most eight candidates; the add button says so.
    auto* add = dialog.findChild<QPushButton*>(QStringLiteral("addCandidate"));
    ASSERT_NE(add, nullptr);
    for (int i = 1; i < static_cast<int>(kMaxCandidates); ++i) EXPECT_EQ(dialog.addCandidate(), i);
    EXPECT_EQ(dialog.addCandidate(), -1);
    EXPECT_FALSE(add->isEnabled());
    // An empty row is named in the error, before anything is read.
    dialog.accept();
    EXPECT_TRUE(dialog.errorText().startsWith(QStringLiteral("Candidate 2:"))) << dialog.errorText().toStdString();
    EXPECT_FALSE(dialog.isBusy());
    while (dialog.candidateCount() > 1) dialog.removeCandidate(dialog.candidateCount() - 1);
    EXPECT_TRUE(add->isEnabled());

    // Compare: the dialog closes with the result, not saved.
    QSignalSpy compared(&dialog, &NewComparisonDialog::compared);
    QSignalSpy accepted(&dialog, &QDialog::accepted);
    dialog.accept();
    ASSERT_TRUE(compared.wait(60000)) << dialog.errorText().toStdString();
    EXPECT_TRUE(dialog.hasResult());
    EXPECT_EQ(accepted.count(), 1);
    EXPECT_TRUE(dialog.savedPath().isEmpty());
}

TEST_F(NewComparisonDialogTest, ALabelGivenTwiceIsRefusedNamingIt) {
    NewComparisonDialog dialog;
    dialog.show();
    dialog.setBaselinePath(kLadder + QStringLiteral("/bf16"));
    dialog.setCandidatePath(kLadder + QStringLiteral("/w8a8"));
    dialog.addCandidate(kLadder + QStringLiteral("/w8a8-kv"), QStringLiteral("FP8"));
    dialog.setCandidateLabel(0, QStringLiteral("FP8"));
    dialog.accept();
    EXPECT_TRUE(dialog.errorText().contains(QStringLiteral("“FP8” is given to two runs")))
        << dialog.errorText().toStdString();
    EXPECT_FALSE(dialog.isBusy());
}

}  // namespace
}  // namespace fp8dash::ui::test
