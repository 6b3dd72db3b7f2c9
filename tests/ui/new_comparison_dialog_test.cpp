// NewComparisonDialog driven like a user, without native dialogs: form -> worker -> save -> the file loads back.
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

}  // namespace
}  // namespace fp8dash::ui::test
