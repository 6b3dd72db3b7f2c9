// File › New Comparison… end to end (issue 29): Compare opens the result in the window unsaved (the title says so,
// Save asks where, autosave keeps it recoverable), each picked run previews what it holds, the task-pairing editor
// replaces the --map advice, the dialog fits a 1366 × 768 screen, a new document starts from its own view state, and
// the status bar's message and the document's location never overlap. Real widgets, offscreen.
#include <QAction>
#include <QComboBox>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QProcess>
#include <QPushButton>
#include <QScreen>
#include <QScrollArea>
#include <QScrollBar>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStatusBar>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QtTest>

#include <fstream>
#include <sstream>

#include "fp8dash/core/comparison_builder.h"
#include "fp8dash/core/demo.h"
#include "fp8dash/core/eval_comparison.h"
#include "fp8dash/core/recovery_file.h"
#include "fp8dash/ui/comparison_view.h"
#include "fp8dash/ui/eliding_status_bar.h"
#include "fp8dash/ui/main_window.h"
#include "fp8dash/ui/new_comparison_dialog.h"
#include "fp8dash/ui/recovery_store.h"
#include "fp8dash/ui/time_range_picker.h"
#include "fp8dash/ui/timeline_view.h"
#include "fp8dash/ui/verdict_banner.h"
#include "gui_test_support.h"

namespace fp8dash::ui::test {
namespace {

class NewComparisonFlowTest : public GuiTest {};

const QString kLadderRuns = QStringLiteral(FP8DASH_TEST_DATA "/lm-eval-ladder");

Json readJsonFile(const std::string& path) {
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    return Json::parse(text.str());
}

QAction* fileAction(MainWindow& window, const QString& text) {
    for (QAction* a : window.menuBar()->actions()) {
        if (!a->menu()) continue;
        for (QAction* item : a->menu()->actions())
            if (item->text() == text) return item;
    }
    return nullptr;
}

// Core's comparison of the same two runs, as the dialog's defaults give it (labels BF16 / FP8, no answer examples).
Result<BuiltComparison> coreComparison(const QString& baseline, const QString& candidate,
                                       std::vector<TaskMapping> map = {}) {
    ComparisonInputs inputs;
    inputs.baselinePath = baseline.toStdString();
    inputs.candidatePath = candidate.toStdString();
    inputs.answerExamples = 0;
    inputs.options.taskMap = std::move(map);
    return buildComparison(inputs);
}

TEST_F(NewComparisonFlowTest, CompareOpensAnUnsavedResultThatSaveAsksAPathFor) {
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    MainWindow window;
    window.setRecoveryStore(std::make_shared<RecoveryStore>(dir.filePath(QStringLiteral("recovery"))));
    window.resize(1100, 560);
    window.show();
    window.openDemo();
    ComparisonView* view = window.comparisonView();
    // The demo's view state: its timeline's own dates in the range picker, the side panel scrolled down.
    TimeRangePicker* picker = view->timelineView()->rangePicker();
    ASSERT_EQ(picker->preset(), TimeRangePicker::Custom);
    QScrollBar* sideBar = view->sidePanel()->verticalScrollBar();
    ASSERT_TRUE(QTest::qWaitFor([&] { return sideBar->maximum() > 0; }, 5000)) << "the side panel does not scroll";
    sideBar->setValue(sideBar->maximum());
    ASSERT_GT(sideBar->value(), 0);

    QAction* newAction = fileAction(window, QStringLiteral("&New Comparison…"));
    ASSERT_NE(newAction, nullptr);
    newAction->trigger();
    auto* dialog = window.findChild<NewComparisonDialog*>();
    ASSERT_NE(dialog, nullptr);
    EXPECT_EQ(dialog->compareButton()->text(), QStringLiteral("&Compare"));
    const QString baseline = kLadderRuns + QStringLiteral("/bf16"), candidate = kLadderRuns + QStringLiteral("/w8a8");
    dialog->setBaselinePath(baseline);
    dialog->setCandidatePath(candidate);
    dialog->answerExamplesSpin()->setValue(0);
    QSignalSpy shown(&window, &MainWindow::documentShown);
    QTest::mouseClick(dialog->compareButton(), Qt::LeftButton);
    ASSERT_TRUE(shown.wait(60000)) << dialog->errorText().toStdString();

    // Shown at once, not saved: no file, modified, the title says so.
    EXPECT_TRUE(window.documentPath().isEmpty());
    EXPECT_TRUE(window.isModified());
    EXPECT_TRUE(window.windowTitle().contains(QStringLiteral("* — unsaved"))) << window.windowTitle().toStdString();
    auto expected = coreComparison(baseline, candidate);
    ASSERT_TRUE(expected.ok()) << expected.error().message;
    ASSERT_NE(window.current(), nullptr);
    ASSERT_TRUE(expected->decision.verdict.has_value());
    EXPECT_EQ(window.current()->decision.verdict, expected->decision.verdict);
    EXPECT_EQ(view->verdictBanner()->verdictText(),
              QString::fromUtf8(verdictTitle(*expected->decision.verdict).data()));
    ASSERT_EQ(window.current()->report.tasks.size(), expected->decision.evals->tasks.size());

    // The new document's own view state: no timeline, so the picker is at a fresh picker's preset; scrolled to top.
    const TimeRangePicker fresh;
    EXPECT_EQ(picker->preset(), fresh.preset());
    EXPECT_EQ(sideBar->value(), sideBar->minimum());

    // Recoverable like any edit: the autosave holds it.
    ASSERT_TRUE(window.autosaveNow().ok());
    ASSERT_FALSE(window.recoveryFile().isEmpty());
    auto recovered = loadRecoveryFile(window.recoveryFile().toStdString());
    ASSERT_TRUE(recovered.ok()) << recovered.error().message;
    EXPECT_EQ(recovered->document.title, window.current()->document.title);
    EXPECT_TRUE(recovered->originalPath.empty());

    // File › Save on it asks where (Save As) the first time.
    QStringList asked;
    const QString savePath = dir.filePath(QStringLiteral("new.fp8cmp"));
    window.setSavePathChooser([&](const QString& suggested) {
        asked << suggested;
        return savePath;
    });
    QAction* saveAction = fileAction(window, QStringLiteral("&Save"));
    ASSERT_NE(saveAction, nullptr);
    saveAction->trigger();
    ASSERT_EQ(asked.size(), 1);
    EXPECT_TRUE(asked.front().endsWith(QStringLiteral(".fp8cmp"))) << asked.front().toStdString();
    EXPECT_EQ(window.documentPath(), QFileInfo(savePath).absoluteFilePath());
    EXPECT_FALSE(window.isModified());
    EXPECT_EQ(window.windowTitle(), QStringLiteral("new.fp8cmp — fp8dash"));
    auto saved = loadComparisonFile(savePath.toStdString());
    ASSERT_TRUE(saved.ok()) << saved.error().message;
    auto decided = decide(*saved);
    ASSERT_TRUE(decided.ok()) << decided.error().message;
    EXPECT_EQ(decided->verdict, expected->decision.verdict);
    // A second Save writes the same file without asking.
    saveAction->trigger();
    EXPECT_EQ(asked.size(), 1);
}

// What the file says, read here with nlohmann::json: the model, the task count, the harness version (or commit).
struct FileFacts {
    QString model;
    std::size_t tasks = 0;
    QString harness;
    QString date;  // the "date" field (unix seconds), as UTC minutes
};
FileFacts factsOf(const std::string& path) {
    const Json doc = readJsonFile(path);
    FileFacts f;
    f.model = QString::fromStdString(doc.at("model_name").get<std::string>());
    f.tasks = doc.at("results").size();
    f.date = QDateTime::fromSecsSinceEpoch(static_cast<qint64>(doc.at("date").get<double>()), Qt::UTC)
                 .toString(QStringLiteral("yyyy-MM-dd HH:mm 'UTC'"));
    f.harness = doc.contains("lm_eval_version")
                    ? QStringLiteral("lm-eval ") + QString::fromStdString(doc["lm_eval_version"].get<std::string>())
                    : QStringLiteral("lm-eval git ") + QString::fromStdString(doc.at("git_hash").get<std::string>());
    return f;
}

TEST_F(NewComparisonFlowTest, EachPickedRunPreviewsWhatItHoldsAndAnUnreadableOneIsNamed) {
    const std::string gemma = sharedFixture("lm-eval/gemma-2b-vllm-bf16_afrimmlu_na-stderr_v0.4.10dev.json");
    const std::string qwen = sharedFixture("lm-eval/qwen2.5-7b_multi-task_v0.4.8.json");
    FP8DASH_REQUIRE_FIXTURE(gemma);
    FP8DASH_REQUIRE_FIXTURE(qwen);
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    NewComparisonDialog dialog;
    dialog.show();
    dialog.setBaselinePath(QString::fromStdString(gemma));
    dialog.setCandidatePath(QString::fromStdString(qwen));
    ASSERT_TRUE(
        QTest::qWaitFor([&] { return !dialog.detectedText(0).isEmpty() && !dialog.detectedText(1).isEmpty(); }, 20000));
    for (const auto& [run, path] : {std::pair{0, gemma}, std::pair{1, qwen}}) {
        const FileFacts f = factsOf(path);
        const QStringList lines = dialog.detectedText(run).split(QLatin1Char('\n'));
        ASSERT_EQ(lines.size(), 3) << dialog.detectedText(run).toStdString();
        const QStringList parts = lines[0].split(QStringLiteral(" · "));
        ASSERT_EQ(parts.size(), 3) << lines[0].toStdString();
        EXPECT_EQ(parts[0], f.model);
        EXPECT_EQ(parts[1], f.harness);
        EXPECT_EQ(parts[2], f.date);
        const QString count = f.tasks == 1 ? QStringLiteral("1 task: ") : QStringLiteral("%1 tasks: ").arg(f.tasks);
        EXPECT_TRUE(lines[1].startsWith(count)) << lines[1].toStdString();
        EXPECT_TRUE(lines[2].startsWith(QStringLiteral("Layers: "))) << lines[2].toStdString();
        EXPECT_TRUE(lines[2].contains(QStringLiteral("weights ")) && lines[2].contains(QStringLiteral("KV cache ")) &&
                    lines[2].contains(QStringLiteral("KV scales ")))
            << lines[2].toStdString();
    }
    // qwen's tasks (more than three): the first three by name in the file's order, then how many more.
    {
        const Json doc = readJsonFile(qwen);
        const std::size_t count = doc.at("results").size();
        ASSERT_GT(count, 3u);
        QStringList firstThree;
        for (const auto& [task, value] : doc.at("results").items())
            if (firstThree.size() < 3) firstThree << QString::fromStdString(task);
        const QString expected = QStringLiteral("%1 tasks: %2, … (+%3)")
                                     .arg(count)
                                     .arg(firstThree.join(QStringLiteral(", ")))
                                     .arg(count - 3);
        EXPECT_EQ(dialog.detectedText(1).split(QLatin1Char('\n')).value(1), expected);
    }

    // A file that is not lm-eval's results: the error names it.
    const QString bad = dir.filePath(QStringLiteral("not-results.json"));
    {
        QFile file(bad);
        ASSERT_TRUE(file.open(QIODevice::WriteOnly));
        file.write("{\"hello\": 1}");
    }
    dialog.setBaselinePath(bad);
    ASSERT_TRUE(QTest::qWaitFor([&] { return !dialog.detectedText(0).isEmpty(); }, 20000));
    EXPECT_TRUE(dialog.detectedText(0).startsWith(QStringLiteral("Cannot read it:")))
        << dialog.detectedText(0).toStdString();
    EXPECT_TRUE(dialog.detectedText(0).contains(QStringLiteral("not-results.json")))
        << dialog.detectedText(0).toStdString();
}

// Renames a task wherever a v0.4 results file names it.
void renameTask(Json& doc, const std::string& from, const std::string& to) {
    for (const char* key : {"results", "n-shot", "versions", "configs", "n-samples", "higher_is_better"}) {
        if (!doc.contains(key) || !doc[key].contains(from)) continue;
        Json value = doc[key][from];
        doc[key].erase(from);
        doc[key][to] = std::move(value);
    }
}

TEST_F(NewComparisonFlowTest, ATaskPairMadeInTheEditorComparesAsCoreWithTheSameMap) {
    const std::string baselineFile = sharedFixture("lm-eval/llama3-8b-instruct_gsm8k_v0.4.2.json");
    FP8DASH_REQUIRE_FIXTURE(baselineFile);
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    // The candidate: the same run under another task name (as gsm8k_cot_llama would be), 1.2 % lower.
    Json doc = readJsonFile(baselineFile);
    Json& scores = doc["results"]["gsm8k"];
    for (auto& [key, value] : scores.items())
        if (key.rfind("exact_match,", 0) == 0 && value.is_number()) value = value.get<double>() * 0.988;
    renameTask(doc, "gsm8k", "gsm8k_cot_llama");
    const QString candidate = dir.filePath(QStringLiteral("candidate.json"));
    {
        QFile file(candidate);
        ASSERT_TRUE(file.open(QIODevice::WriteOnly));
        file.write(QByteArray::fromStdString(doc.dump()));
    }
    const QString baseline = QString::fromStdString(baselineFile);

    NewComparisonDialog dialog;
    dialog.show();
    dialog.setBaselinePath(baseline);
    dialog.setCandidatePath(candidate);
    ASSERT_TRUE(QTest::qWaitFor([&] { return dialog.isTaskPairingShown(); }, 20000));
    QTableWidget* table = dialog.taskPairingTable();
    ASSERT_EQ(table->rowCount(), 1);
    EXPECT_EQ(table->item(0, 0)->text(), QStringLiteral("gsm8k"));
    auto* combo = qobject_cast<QComboBox*>(table->cellWidget(0, 1));
    ASSERT_NE(combo, nullptr);
    EXPECT_EQ(combo->currentData().toString(), QStringLiteral("gsm8k_cot_llama"));  // core's suggestion

    // Left unpaired: nothing to compare, and the advice names the editor, not the CLI's flag.
    combo->setCurrentIndex(0);
    QSignalSpy failed(&dialog, &NewComparisonDialog::comparisonFailed);
    dialog.accept();
    ASSERT_TRUE(failed.wait(60000));
    EXPECT_TRUE(dialog.errorText().contains(QStringLiteral("Task pairing"))) << dialog.errorText().toStdString();
    EXPECT_FALSE(dialog.errorText().contains(QStringLiteral("--map"))) << dialog.errorText().toStdString();
    // The error box does not squeeze the metric overrides: still four lines, overlapping nothing.
    QWidget* overrides = dialog.metricOverridesEdit();
    EXPECT_GE(overrides->height(), overrides->fontMetrics().lineSpacing() * 4);
    auto* errorLabel = dialog.findChild<QLabel*>(QStringLiteral("errorLabel"));
    ASSERT_NE(errorLabel, nullptr);
    const QRect overridesRect(overrides->mapTo(&dialog, QPoint(0, 0)), overrides->size());
    const QRect errorRect(errorLabel->mapTo(&dialog, QPoint(0, 0)), errorLabel->size());
    EXPECT_FALSE(overridesRect.intersects(errorRect));

    // Paired by the user in the editor: the same comparison as core with that map.
    combo->setCurrentIndex(combo->findData(QStringLiteral("gsm8k_cot_llama")));
    auto request = dialog.request();
    ASSERT_TRUE(request.ok()) << request.error().message;
    ASSERT_EQ(request->options.taskMap.size(), 1u);
    QSignalSpy compared(&dialog, &NewComparisonDialog::compared);
    dialog.accept();
    ASSERT_TRUE(compared.wait(60000)) << dialog.errorText().toStdString();
    ASSERT_NE(dialog.result(), nullptr);
    auto expected = coreComparison(baseline, candidate, {{"gsm8k", "gsm8k_cot_llama"}});
    ASSERT_TRUE(expected.ok()) << expected.error().message;
    const ComparisonReport& mine = dialog.result()->report;
    ASSERT_EQ(mine.tasks.size(), expected->decision.evals->tasks.size());
    ASSERT_EQ(mine.tasks.size(), 1u);
    EXPECT_EQ(mine.tasks[0].task, "gsm8k");
    EXPECT_DOUBLE_EQ(mine.tasks[0].candidate, expected->decision.evals->tasks[0].candidate);
    EXPECT_EQ(mine.verdict, expected->decision.evals->verdict);
    EXPECT_EQ(dialog.result()->decision.verdict, expected->decision.verdict);
}

// Run by TheDialogFitsALaptopScreen in a process of its own whose offscreen screen is 1366 × 768.
TEST_F(NewComparisonFlowTest, ChildDialogOnALaptopScreen) {
    if (qEnvironmentVariableIsEmpty("FP8DASH_NEW_COMPARISON_CHILD")) GTEST_SKIP() << "run by the test below";
    QScreen* screen = QGuiApplication::primaryScreen();
    ASSERT_EQ(screen->geometry(), QRect(0, 0, 1366, 768));
    const QRect available = screen->availableGeometry();
    NewComparisonDialog dialog;
    dialog.setBaselinePath(kLadderRuns + QStringLiteral("/bf16"));
    dialog.setCandidatePath(kLadderRuns + QStringLiteral("/w8a8"));
    dialog.show();
    ASSERT_TRUE(QTest::qWaitFor([&] { return !dialog.detectedText(1).isEmpty(); }, 20000));
    // The form is taller than the room there is: it scrolls inside, and the dialog stays within the screen.
    QScrollArea* scroll = dialog.formScrollArea();
    EXPECT_GT(scroll->widget()->sizeHint().height(), available.height());
    EXPECT_LE(dialog.frameGeometry().height(), available.height());
    EXPECT_TRUE(available.contains(dialog.frameGeometry()))
        << dialog.frameGeometry().y() << " " << dialog.frameGeometry().height();
    for (QPushButton* button : {dialog.compareButton(), dialog.compareAndSaveButton(), dialog.cancelButton()}) {
        EXPECT_TRUE(button->isVisible());
        const QRect inDialog(button->mapTo(&dialog, QPoint(0, 0)), button->size());
        EXPECT_TRUE(dialog.rect().contains(inDialog)) << button->text().toStdString();
    }
    std::printf("fp8dash-new-comparison-child-done\n");
}

TEST_F(NewComparisonFlowTest, TheDialogFitsALaptopScreen) {
    if (!qEnvironmentVariableIsEmpty("FP8DASH_NEW_COMPARISON_CHILD")) GTEST_SKIP() << "the child itself";
    runChildOnScreens(R"({"screens": [
        {"name": "laptop", "x": 0, "y": 0, "width": 1366, "height": 768, "logicalDpi": 96, "dpr": 1.0}]})",
                      QStringLiteral("FP8DASH_NEW_COMPARISON_CHILD"),
                      QStringLiteral("NewComparisonFlowTest.ChildDialogOnALaptopScreen"),
                      QStringLiteral("fp8dash-new-comparison-child-done"));
}

TEST_F(NewComparisonFlowTest, TheStatusMessageAndTheDocumentLocationDoNotOverlap) {
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    // A long location: nested folders with long names.
    QString folder = dir.path();
    for (int i = 0; i < 4; ++i) folder += QStringLiteral("/a-rather-long-folder-name-%1").arg(i);
    ASSERT_TRUE(QDir().mkpath(folder));
    const QString path = folder + QStringLiteral("/llama3-8b-instruct-bf16-vs-fp8-review.fp8cmp");
    ASSERT_TRUE(saveComparisonFile(loadDemoComparison().value(), path.toStdString()).ok());

    MainWindow window;
    window.resize(1000, 600);
    window.show();
    QSignalSpy shown(&window, &MainWindow::documentShown);
    window.openFileAsync(path);
    ASSERT_TRUE(shown.wait(20000));
    auto* bar = qobject_cast<ElidingStatusBar*>(window.statusBar());
    ASSERT_NE(bar, nullptr);
    auto* location = window.findChild<ElidedLabel*>(QStringLiteral("documentLocation"));
    ASSERT_NE(location, nullptr);
    ASSERT_EQ(location->text(), QDir::toNativeSeparators(path));
    const QString message = QStringLiteral("Opened %1 · sample logs: 3 of 3 tasks paired; nothing else to say here")
                                .arg(QDir::toNativeSeparators(path));
    bar->showMessage(message);
    QTest::qWait(0);  // deliver the layout
    QCoreApplication::processEvents();
    ASSERT_TRUE(location->isVisible());

    // The location yields (at most 45 % of the bar, elided in the middle, drawn within its own width) ...
    EXPECT_LE(location->width(), bar->width() * 45 / 100 + 1);
    EXPECT_NE(location->shownText(), location->text());
    EXPECT_LE(location->fontMetrics().horizontalAdvance(location->shownText()), location->contentsRect().width());
    // ... and the message ends before it, elided to the room left.
    const QRect messageRect = bar->messageRect();
    EXPECT_LT(messageRect.right(), location->geometry().left());
    EXPECT_GT(messageRect.width(), bar->width() / 3);
    EXPECT_TRUE(bar->shownMessage().endsWith(QStringLiteral("…"))) << bar->shownMessage().toStdString();
    EXPECT_LE(bar->fontMetrics().horizontalAdvance(bar->shownMessage()), messageRect.width());
    // A short message is drawn whole.
    bar->showMessage(QStringLiteral("Saved"));
    EXPECT_EQ(bar->shownMessage(), QStringLiteral("Saved"));
}

}  // namespace
}  // namespace fp8dash::ui::test
