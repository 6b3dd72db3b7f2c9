// Issue 27, the app: the answers FP8 changed, beside every paired task (the task table's Changed column) and the
// documents themselves (Changed Answers…, ChangedAnswersDialog), driven through the real main window offscreen: the
// kind and text filters, keyboard navigation, the side panes and their highlighted words, Copy, hostile text shown as
// the text it is, the reasons it cannot open, the save question's "Keep only the counts" and the New Comparison
// dialog's answer examples. The runs are the sample-log fixtures of tests/data/lm-eval-samples (their expected.json
// holds the counts their generator made); gsm8k's documents are replaced by ones made here, hostile strings included.
#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QFileInfo>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPointer>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QSpinBox>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTextBlock>
#include <QTextBrowser>
#include <QTextDocument>
#include <QTimer>
#include <QToolButton>
#include <QTreeView>
#include <QtTest>

#include <filesystem>
#include <fstream>
#include <set>

#include "fp8dash/core/changed_answers.h"
#include "fp8dash/core/comparison_file.h"
#include "fp8dash/core/paired_tasks.h"
#include "fp8dash/ui/changed_answers_dialog.h"
#include "fp8dash/ui/comparison_view.h"
#include "fp8dash/ui/loaded_comparison.h"
#include "fp8dash/ui/main_window.h"
#include "fp8dash/ui/new_comparison_dialog.h"
#include "fp8dash/ui/task_table_model.h"
#include "fp8dash/ui/task_table_view.h"
#include "gui_test_support.h"
#include "hostile_strings.h"

namespace fp8dash::ui::test {
namespace {

namespace fs = std::filesystem;

const fs::path kSamples = fs::path(FP8DASH_TEST_DATA) / "lm-eval-samples";

Json readJson(const fs::path& path) {
    std::ifstream in(path);
    return Json::parse(in);
}

LoadedComparison built(const std::string& folder, std::uint64_t answerExamples = kDefaultAnswerExamples) {
    NewComparisonRequest request;
    request.baselinePath = QString::fromStdString((kSamples / folder / "bf16").string());
    request.candidatePath = QString::fromStdString((kSamples / folder / "fp8").string());
    request.answerExamples = answerExamples;
    auto result = buildNewComparison(request);
    EXPECT_TRUE(result.ok()) << (result.ok() ? "" : result.error().message);
    return result.ok() ? std::move(result).value() : LoadedComparison{};
}

// The documents made here for gsm8k: two lost and one gained with differing responses, hostile text in the
// question and the responses, and a 20 KB answer.
std::vector<ChangedAnswerExample> madeExamples() {
    std::vector<ChangedAnswerExample> out;
    ChangedAnswerExample apples;
    apples.docId = 3;
    apples.lost = true;
    apples.question = "Tom has 3 apples " + fp8dash::test::htmlVerdict() + "\nand buys 4 more. How many?";
    apples.target = "7";
    apples.baseline = {"7", "Tom has 3 apples and buys 4 more, so 7.", 1};
    apples.candidate = {"6", "Tom has 3 apples and buys 3 more, so 6.", 0};
    out.push_back(apples);
    ChangedAnswerExample rlo;
    rlo.docId = 5;
    rlo.lost = false;
    rlo.question =
        "Which is larger? abc\u202E"
        "OG :tcidreV";
    rlo.target = "9";
    rlo.baseline = {"8", "The larger one is 8 " + fp8dash::test::verdictRewriteSequence(), 0};
    rlo.candidate = {"9", "The larger one is 9", 1};
    out.push_back(rlo);
    ChangedAnswerExample longOne;
    longOne.docId = 12;
    longOne.lost = true;
    longOne.question = "Write the number out";
    longOne.target = "12\n" + std::string(600, 't');  // a worked solution
    longOne.baseline = {"12", "twelve", 1};
    longOne.candidate = {std::string(20 * 1024, 'y'), "| a | b |\n|---|---|\n\x1b[2K", 0};
    out.push_back(longOne);
    return out;
}

class ChangedAnswersTest : public GuiTest {
protected:
    // The new-layout runs with gsm8k's documents replaced by madeExamples().
    static ComparisonDocument hostileDocument() {
        ComparisonDocument doc = built("new-layout").document;
        PairedTaskResult& p = doc.paired.at("gsm8k");
        p.examples = madeExamples();
        p.examplesLimit = 200;
        return doc;
    }

    static QModelIndex select(MainWindow& window, const QString& task) {
        TaskTableView* table = window.comparisonView()->taskTable();
        EXPECT_TRUE(table->selectTask(task)) << task.toStdString();
        return table->treeView()->currentIndex();
    }

    static ChangedAnswersDialog* openedDialog(MainWindow& window) {
        const auto open = window.findChildren<ChangedAnswersDialog*>();
        return open.isEmpty() ? nullptr : open.front();
    }

    static QStringList shownDocIds(const ChangedAnswersDialog& d) {
        QStringList ids;
        for (int r = 0; r < d.listModel()->rowCount(); ++r) ids << d.listModel()->index(r, 0).data().toString();
        return ids;
    }

    // The words of a pane, split by whether they carry the highlight's background.
    static void highlighted(const QTextBrowser* pane, QStringList& marked, QStringList& plain) {
        for (QTextBlock b = pane->document()->begin(); b.isValid(); b = b.next()) {
            for (auto it = b.begin(); !it.atEnd(); ++it) {
                const QTextFragment f = it.fragment();
                const bool on = f.charFormat().background().style() != Qt::NoBrush &&
                                f.charFormat().background().color() == ChangedAnswersDialog::highlightColor();
                (on ? marked : plain) << f.text().split(QLatin1Char(' '), Qt::SkipEmptyParts);
            }
        }
    }
};

TEST_F(ChangedAnswersTest, ChangedColumnCountsTheGroupsAnswersBothWays) {
    const Json expected = readJson(kSamples / "group" / "expected.json");
    const int b01 = expected["all"]["b01"].get<int>(), b10 = expected["all"]["b10"].get<int>();
    const int n = expected["all"]["n"].get<int>();
    MainWindow window;
    window.showDocument(built("group").document, {}, QStringLiteral("group"));
    const QTreeView* tree = window.comparisonView()->taskTable()->treeView();
    const QAbstractItemModel* model = tree->model();
    EXPECT_FALSE(tree->isColumnHidden(TaskTableModel::ChangedColumn));
    EXPECT_EQ(model->headerData(TaskTableModel::ChangedColumn, Qt::Horizontal).toString(), QStringLiteral("Changed"));
    const QModelIndex mmlu = findTaskRow(model, QStringLiteral("mmlu"));
    ASSERT_TRUE(mmlu.isValid());
    const QModelIndex cell = model->index(mmlu.row(), TaskTableModel::ChangedColumn);
    EXPECT_EQ(cell.data().toString(), QStringLiteral("\u2212%1 / +%2").arg(b10).arg(b01));
    EXPECT_NEAR(cell.data(TaskTableModel::SortRole).toDouble(), 100.0 * (b01 + b10) / n, 1e-9);
    const QString tip = cell.data(Qt::ToolTipRole).toString();
    EXPECT_TRUE(tip.contains(QStringLiteral("%1 lost, %2 gained").arg(b10).arg(b01))) << tip.toStdString();
    // Its subtasks' rows are the group's documents: no counts of their own.
    ASSERT_GT(model->rowCount(mmlu), 0);
    EXPECT_TRUE(model->index(0, TaskTableModel::ChangedColumn, mmlu).data().toString().isEmpty());
    // The column sits right after Paired p; the verdict stays last.
    EXPECT_EQ(tree->header()->visualIndex(TaskTableModel::ChangedColumn),
              tree->header()->visualIndex(TaskTableModel::PairedPColumn) + 1);

    // A document without paired logs looks as before: no Changed column.
    MainWindow plain;
    plain.showDocument(evalsOnlyDemo(), {}, QStringLiteral("demo"));
    EXPECT_TRUE(plain.comparisonView()->taskTable()->treeView()->isColumnHidden(TaskTableModel::ChangedColumn));
}

// A group lists its subtasks' documents, each named with its subtask; the lost ones are the group's lost count.
TEST_F(ChangedAnswersTest, AGroupsDocumentsNameTheirSubtask) {
    const Json expected = readJson(kSamples / "group" / "expected.json");
    std::set<QString> subtasks;
    for (const auto& s : expected["subtasks"]) subtasks.insert(QString::fromStdString(s.get<std::string>()));
    MainWindow window;
    window.showDocument(built("group").document, {}, QStringLiteral("group"));
    // From a subtask's row: the group's documents.
    const QTreeView* tree = window.comparisonView()->taskTable()->treeView();
    const QModelIndex mmlu = findTaskRow(tree->model(), QStringLiteral("mmlu"));
    ASSERT_TRUE(mmlu.isValid());
    const QModelIndex subtaskRow = tree->model()->index(0, 0, mmlu);
    ChangedAnswersDialog* d = window.comparisonView()->taskTable()->openChangedAnswers(subtaskRow);
    ASSERT_NE(d, nullptr);
    EXPECT_EQ(d->task(), QStringLiteral("mmlu"));
    EXPECT_FALSE(d->listView()->isColumnHidden(2));  // Subtask
    const int total = expected["all"]["b01"].get<int>() + expected["all"]["b10"].get<int>();
    ASSERT_EQ(d->listModel()->rowCount(), total);
    for (int r = 0; r < total; ++r) {
        const QString subtask = d->listModel()->index(r, 2).data().toString();
        EXPECT_TRUE(subtasks.count(subtask)) << subtask.toStdString();
    }
    d->setKinds(ChangedAnswersDialog::Kinds::Lost);
    EXPECT_EQ(d->listModel()->rowCount(), expected["all"]["b10"].get<int>());
    d->setKinds(ChangedAnswersDialog::Kinds::Gained);
    EXPECT_EQ(d->listModel()->rowCount(), expected["all"]["b01"].get<int>());
    // Each listed document is a real change of its kind: the metric values moved that way.
    for (int r = 0; r < d->listModel()->rowCount(); ++r) {
        d->listView()->setCurrentIndex(d->listModel()->index(r, 0));
        const ChangedAnswerExample* e = d->currentExample();
        ASSERT_NE(e, nullptr);
        EXPECT_FALSE(e->lost);
        EXPECT_GT(e->candidate.value, e->baseline.value);
    }
}

TEST_F(ChangedAnswersTest, FilterNavigateHighlightAndCopy) {
    MainWindow window;
    window.resize(1366, 768);
    window.showDocument(hostileDocument(), {}, QStringLiteral("hostile"));
    TaskTableView* table = window.comparisonView()->taskTable();
    select(window, QStringLiteral("gsm8k"));
    QAction* action = table->changedAnswersAction();
    ASSERT_TRUE(action->isEnabled()) << action->toolTip().toStdString();
    QAction* viewAction = window.findChild<QAction*>(QStringLiteral("viewChangedAnswersAction"));
    ASSERT_NE(viewAction, nullptr);
    EXPECT_EQ(viewAction->shortcut(), QKeySequence(QStringLiteral("Ctrl+Shift+A")));
    // The right-click menu offers it too, for the row under the mouse.
    std::unique_ptr<QMenu> menu(table->createContextMenu(table->treeView()->currentIndex()));
    QAction* fromMenu = menu->findChild<QAction*>(QStringLiteral("changedAnswersMenuAction"));
    ASSERT_NE(fromMenu, nullptr);
    EXPECT_TRUE(fromMenu->isEnabled());
    // The key, where the table has focus.
    window.show();
    window.activateWindow();
    ASSERT_TRUE(QTest::qWaitForWindowActive(&window));
    table->treeView()->setFocus();
    QTest::keyClick(table->treeView(), Qt::Key_A, Qt::ControlModifier | Qt::ShiftModifier);
    ChangedAnswersDialog* d = openedDialog(window);
    ASSERT_NE(d, nullptr);
    EXPECT_FALSE(d->isModal());
    EXPECT_TRUE(d->isVisible());
    const ComparisonDocument doc = hostileDocument();
    const PairedTaskResult& p = doc.paired.at("gsm8k");
    ASSERT_TRUE(p.changed.has_value());
    EXPECT_EQ(d->countsLabel()->text(), QString::fromStdString(changedAnswersSentence(*p.changed, "FP8")) + ".");

    // The file's order, lost first as kept; the first is current, with the list focused.
    EXPECT_EQ(shownDocIds(*d), (QStringList{"3", "5", "12"}));
    ASSERT_NE(d->currentExample(), nullptr);
    EXPECT_EQ(d->currentExample()->docId, 3);

    // Kind filter: lost only, gained only, all.
    d->findChild<QToolButton*>(QStringLiteral("showLost"))->click();
    EXPECT_EQ(shownDocIds(*d), (QStringList{"3", "12"}));
    d->findChild<QToolButton*>(QStringLiteral("showGained"))->click();
    EXPECT_EQ(shownDocIds(*d), (QStringList{"5"}));
    d->findChild<QToolButton*>(QStringLiteral("showAll"))->click();
    EXPECT_EQ(shownDocIds(*d), (QStringList{"3", "5", "12"}));
    // Text filter: in the question, a response, an answer (case-insensitive); nothing found clears the panes.
    QTest::keyClicks(d->filterEdit(), QStringLiteral("APPLES"));
    EXPECT_EQ(shownDocIds(*d), (QStringList{"3"}));
    d->filterEdit()->setText(QStringLiteral("larger one is 9"));
    EXPECT_EQ(shownDocIds(*d), (QStringList{"5"}));
    d->filterEdit()->setText(QStringLiteral("yyyy"));
    EXPECT_EQ(shownDocIds(*d), (QStringList{"12"}));
    d->filterEdit()->setText(QStringLiteral("no such words"));
    EXPECT_TRUE(shownDocIds(*d).isEmpty());
    EXPECT_EQ(d->currentExample(), nullptr);
    EXPECT_TRUE(d->responseView(ChangedAnswersDialog::Candidate)->toPlainText().isEmpty());
    EXPECT_FALSE(d->copyButton()->isEnabled());
    d->filterEdit()->clear();
    ASSERT_EQ(shownDocIds(*d).size(), 3);

    // Keyboard: Down and J go on, K and Up go back, within the list.
    d->listView()->setFocus();
    d->listView()->setCurrentIndex(d->listModel()->index(0, 0));
    QTest::keyClick(d->listView(), Qt::Key_J);
    EXPECT_EQ(d->currentExample()->docId, 5);
    QTest::keyClick(d->listView(), Qt::Key_Down);
    EXPECT_EQ(d->currentExample()->docId, 12);
    QTest::keyClick(d->listView(), Qt::Key_J);  // the last stays
    EXPECT_EQ(d->currentExample()->docId, 12);
    QTest::keyClick(d->listView(), Qt::Key_K);
    EXPECT_EQ(d->currentExample()->docId, 5);
    QTest::keyClick(d->listView(), Qt::Key_Up);
    ASSERT_EQ(d->currentExample()->docId, 3);

    // The selected document: question, target, each side under its label and value.
    const std::vector<ChangedAnswerExample> made = madeExamples();
    const ChangedAnswerExample& apples = made[0];
    EXPECT_EQ(d->questionView()->toPlainText(), QString::fromStdString(apples.question));
    EXPECT_EQ(d->targetLabel()->text(), QStringLiteral("Target: 7"));
    EXPECT_EQ(d->sideTitle(ChangedAnswersDialog::Baseline)->text(),
              QStringLiteral("BF16 · exact_match (strict-match) 1"));
    EXPECT_EQ(d->sideTitle(ChangedAnswersDialog::Candidate)->text(),
              QStringLiteral("FP8 · exact_match (strict-match) 0"));
    EXPECT_EQ(d->answerView(ChangedAnswersDialog::Baseline)->toPlainText(), QStringLiteral("7"));
    EXPECT_EQ(d->answerView(ChangedAnswersDialog::Candidate)->toPlainText(), QStringLiteral("6"));
    EXPECT_EQ(d->responseView(ChangedAnswersDialog::Baseline)->toPlainText(),
              QString::fromStdString(apples.baseline.response));
    // The highlighted difference: only the words one side has, in that side's pane.
    QStringList marked, plain;
    highlighted(d->responseView(ChangedAnswersDialog::Baseline), marked, plain);
    EXPECT_EQ(marked, (QStringList{"4", "7."}));
    EXPECT_EQ(plain, (QStringList{"Tom", "has", "3", "apples", "and", "buys", "more,", "so"}));
    marked.clear();
    plain.clear();
    highlighted(d->responseView(ChangedAnswersDialog::Candidate), marked, plain);
    EXPECT_EQ(marked, (QStringList{"3", "6."}));
    EXPECT_TRUE(plain.contains(QStringLiteral("apples")));
    EXPECT_FALSE(plain.contains(QStringLiteral("6.")));

    // Copy: the document as plain text, both sides with their labels.
    QApplication::clipboard()->clear();
    d->copyButton()->click();
    const QString copied = QApplication::clipboard()->text();
    for (const QString& part :
         {QStringLiteral("gsm8k · doc 3 · lost"), QString::fromStdString(apples.question), QStringLiteral("Target: 7"),
          QStringLiteral("BF16 · exact_match (strict-match) 1"), QStringLiteral("Answer: 7"),
          QString::fromStdString(apples.baseline.response), QStringLiteral("FP8 · exact_match (strict-match) 0"),
          QStringLiteral("Answer: 6"), QString::fromStdString(apples.candidate.response)})
        EXPECT_TRUE(copied.contains(part)) << part.toStdString() << "\nin:\n" << copied.toStdString();
    EXPECT_LT(copied.indexOf(QStringLiteral("BF16 ·")), copied.indexOf(QStringLiteral("FP8 ·")));
    // Ctrl+C in the list does the same.
    QApplication::clipboard()->clear();
    QTest::keyClick(d->listView(), Qt::Key_C, Qt::ControlModifier);
    EXPECT_EQ(QApplication::clipboard()->text(), copied);

    // Hostile text: every document's texts shown with their controls and overrides visible, markup as text.
    for (int r = 0; r < 3; ++r) {
        d->listView()->setCurrentIndex(d->listModel()->index(r, 0));
        QStringList shown;
        for (const QLabel* l : d->findChildren<QLabel*>()) {
            EXPECT_NE(l->textFormat(), Qt::RichText) << l->objectName().toStdString();
            shown << l->text();
        }
        for (const QPlainTextEdit* e : d->findChildren<QPlainTextEdit*>()) shown << e->toPlainText();
        for (const QTextBrowser* b : d->findChildren<QTextBrowser*>()) shown << b->toPlainText();
        for (int row = 0; row < d->listModel()->rowCount(); ++row)
            for (int c = 0; c < d->listModel()->columnCount(); ++c)
                shown << d->listModel()->index(row, c).data().toString();
        shown << d->windowTitle();
        d->copyToClipboard();
        shown << QApplication::clipboard()->text();
        for (const QString& s : shown) EXPECT_EQ(rawControl(s), 0) << s.left(200).toStdString();
        if (d->currentExample()->docId == 5) {
            EXPECT_TRUE(d->questionView()->toPlainText().contains(QStringLiteral("\\u202EOG :tcidreV")));
            EXPECT_TRUE(
                d->responseView(ChangedAnswersDialog::Baseline)->toPlainText().contains(QStringLiteral("\\u001B[2A")));
        }
        if (d->currentExample()->docId == 3)
            EXPECT_TRUE(d->questionView()->toPlainText().contains(QStringLiteral("<h1 style=color:green>")));
        if (d->currentExample()->docId == 12) {
            // A 20 KB answer: shown to its cut (4 KB and the mark), not whole.
            const QString answer = d->answerView(ChangedAnswersDialog::Candidate)->toPlainText();
            EXPECT_LE(answer.size(), static_cast<qsizetype>(kAnswerTextBytes + 100));
            EXPECT_TRUE(answer.contains(QStringLiteral("cut"))) << answer.right(80).toStdString();
            EXPECT_TRUE(
                d->responseView(ChangedAnswersDialog::Candidate)->toPlainText().contains(QStringLiteral("|---|")));
            // A long target: its start in the label, whole in the tooltip and the copy.
            EXPECT_LE(d->targetLabel()->text().size(), 320);
            EXPECT_TRUE(d->targetLabel()->toolTip().contains(QString(600, QLatin1Char('t'))));
            d->copyToClipboard();
            EXPECT_TRUE(QApplication::clipboard()->text().contains(QString(600, QLatin1Char('t'))));
        }
    }

    // Opening it again raises the same window; Esc closes it.
    EXPECT_EQ(table->openChangedAnswers(table->treeView()->currentIndex()), d);
    QPointer<ChangedAnswersDialog> guard(d);
    QTest::keyClick(d->listView(), Qt::Key_Escape);
    QApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
    EXPECT_TRUE(guard.isNull() || !guard->isVisible());
    // The menu bar's View › Changed Answers of the Current Task… opens the current task's documents too.
    viewAction->trigger();
    ChangedAnswersDialog* again = openedDialog(window);
    ASSERT_NE(again, nullptr);
    EXPECT_TRUE(again->isVisible());
}

// Counts only, or a file from before the documents were kept: the action says why instead of opening.
TEST_F(ChangedAnswersTest, WithoutDocumentsTheActionSaysWhy) {
    ComparisonDocument doc = hostileDocument();
    doc.paired.at("gsm8k").examples.clear();
    doc.paired.at("gsm8k").examplesLimit = 0;
    doc.paired.at("arc_challenge").examples.clear();
    doc.paired.at("arc_challenge").examplesLimit.reset();
    MainWindow window;
    window.showDocument(doc, {}, QStringLiteral("counts only"));
    TaskTableView* table = window.comparisonView()->taskTable();
    const QModelIndex gsm8k = select(window, QStringLiteral("gsm8k"));
    EXPECT_FALSE(table->changedAnswersAction()->isEnabled());
    EXPECT_TRUE(table->changedAnswersAction()->toolTip().contains(
        QStringLiteral("keeps only the counts (it was made with 0 answer examples per task)")))
        << table->changedAnswersAction()->toolTip().toStdString();
    EXPECT_EQ(table->openChangedAnswers(gsm8k), nullptr);
    std::unique_ptr<QMenu> menu(table->createContextMenu(gsm8k));
    QAction* fromMenu = menu->findChild<QAction*>(QStringLiteral("changedAnswersMenuAction"));
    ASSERT_NE(fromMenu, nullptr);
    EXPECT_FALSE(fromMenu->isEnabled());
    EXPECT_TRUE(fromMenu->toolTip().contains(QStringLiteral("0 answer examples per task")));
    // The Changed cell still counts, and its tooltip says why there is no document.
    const QString tip = gsm8k.siblingAtColumn(TaskTableModel::ChangedColumn).data(Qt::ToolTipRole).toString();
    EXPECT_TRUE(tip.contains(QStringLiteral("0 answer examples per task"))) << tip.toStdString();

    select(window, QStringLiteral("arc_challenge"));
    EXPECT_FALSE(table->changedAnswersAction()->isEnabled());
    EXPECT_TRUE(table->changedAnswersAction()->toolTip().contains(
        QStringLiteral("saved before fp8dash kept the documents: compare again with the sample logs")))
        << table->changedAnswersAction()->toolTip().toStdString();
    table->changedAnswersAction()->trigger();  // disabled: nothing opens
    EXPECT_EQ(openedDialog(window), nullptr);
    // View › Changed Answers of the Current Task… says why in the status bar instead.
    QAction* viewAction = window.findChild<QAction*>(QStringLiteral("viewChangedAnswersAction"));
    ASSERT_NE(viewAction, nullptr);
    select(window, QStringLiteral("gsm8k"));
    viewAction->trigger();
    EXPECT_EQ(openedDialog(window), nullptr);
    EXPECT_TRUE(window.statusBar()->currentMessage().contains(QStringLiteral("0 answer examples per task")))
        << window.statusBar()->currentMessage().toStdString();
}

// Save As: the question names what the file would hold; "Keep only the counts" saves the counts without a document.
TEST_F(ChangedAnswersTest, SaveAsCanKeepOnlyTheCounts) {
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const ComparisonDocument doc = hostileDocument();
    const AnswerExamplesHeld held = answerExamplesHeld(doc);
    std::uint64_t examples = 0, tasks = 0;
    for (const auto& [task, p] : doc.paired) {
        examples += p.examples.size();
        tasks += p.examples.empty() ? 0 : 1;
    }
    ASSERT_GT(examples, 0u);
    ASSERT_EQ(held.examples, examples);

    for (bool countsOnly : {false, true}) {
        MainWindow window;
        window.showDocument(doc, {}, QStringLiteral("to save"));
        select(window, QStringLiteral("gsm8k"));
        window.comparisonView()->taskTable()->changedAnswersAction()->trigger();
        ASSERT_NE(openedDialog(window), nullptr);
        QString asked;
        QTimer::singleShot(0, &window, [&] {
            auto* box = window.findChild<QMessageBox*>(QStringLiteral("answerExamplesBox"));
            if (!box) return;
            asked = box->text();
            box->findChild<QCheckBox*>(QStringLiteral("keepOnlyCounts"))->setChecked(countsOnly);
            box->findChild<QPushButton*>(QStringLiteral("answerExamplesSave"))->click();
        });
        const QString path = dir.filePath(countsOnly ? "counts.fp8cmp" : "examples.fp8cmp");
        const Status saved = window.saveAsTo(path);
        ASSERT_TRUE(saved.ok()) << saved.error().message;
        EXPECT_EQ(asked, QStringLiteral("The file includes %1 changed answers from %2 tasks (questions and responses).")
                             .arg(examples)
                             .arg(tasks));
        auto reread = loadComparisonFile(path.toStdString());
        ASSERT_TRUE(reread.ok()) << reread.error().message;
        const AnswerExamplesHeld after = answerExamplesHeld(*reread);
        EXPECT_EQ(after.examples, countsOnly ? 0u : examples);
        EXPECT_EQ(after.countsOnly, countsOnly);
        // The counts stay either way.
        for (const auto& [task, p] : doc.paired) {
            ASSERT_EQ(reread->paired.count(task), 1u);
            ASSERT_EQ(reread->paired.at(task).changed.has_value(), p.changed.has_value());
            if (p.changed) EXPECT_EQ(reread->paired.at(task).changed->lost, p.changed->lost);
        }
        // The window shows what it saved: without the documents the action says why, their windows are closed.
        select(window, QStringLiteral("gsm8k"));
        EXPECT_EQ(window.comparisonView()->taskTable()->changedAnswersAction()->isEnabled(), !countsOnly);
        QApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
        if (countsOnly) {
            for (ChangedAnswersDialog* open : window.findChildren<ChangedAnswersDialog*>())
                EXPECT_FALSE(open->isVisible());
        }
        EXPECT_FALSE(window.isModified());
    }

    // Cancel writes nothing.
    MainWindow window;
    window.showDocument(doc, {}, QStringLiteral("to save"));
    QTimer::singleShot(0, &window, [&] {
        if (auto* box = window.findChild<QMessageBox*>(QStringLiteral("answerExamplesBox")))
            box->button(QMessageBox::Cancel)->click();
    });
    const QString path = dir.filePath("cancelled.fp8cmp");
    EXPECT_FALSE(window.saveAsTo(path).ok());
    EXPECT_FALSE(QFileInfo::exists(path));
}

// The New Comparison dialog's "Answer examples per task" goes into the request, and 0 builds a counts-only file.
TEST_F(ChangedAnswersTest, NewComparisonAnswerExamples) {
    NewComparisonDialog dialog;
    QSpinBox* spin = dialog.answerExamplesSpin();
    ASSERT_NE(spin, nullptr);
    EXPECT_EQ(spin->value(), static_cast<int>(kDefaultAnswerExamples));
    EXPECT_EQ(spin->minimum(), 0);
    EXPECT_EQ(spin->maximum(), 10000);
    EXPECT_TRUE(spin->toolTip().contains(QStringLiteral("0 keeps only the counts")));
    dialog.setBaselinePath(QString::fromStdString((kSamples / "new-layout" / "bf16").string()));
    dialog.setCandidatePath(QString::fromStdString((kSamples / "new-layout" / "fp8").string()));
    spin->setValue(0);
    auto request = dialog.request();
    ASSERT_TRUE(request.ok()) << request.error().message;
    EXPECT_EQ(request->answerExamples, 0u);
    auto zero = buildNewComparison(*request);
    ASSERT_TRUE(zero.ok()) << zero.error().message;
    const AnswerExamplesHeld none = answerExamplesHeld(zero->document);
    EXPECT_EQ(none.examples, 0u);
    EXPECT_TRUE(none.countsOnly);
    spin->setValue(1);
    request = dialog.request();
    ASSERT_TRUE(request.ok());
    auto one = buildNewComparison(*request);
    ASSERT_TRUE(one.ok()) << one.error().message;
    for (const auto& [task, p] : one->document.paired) {
        EXPECT_LE(p.examples.size(), 2u) << task;  // one per kind at most
        EXPECT_EQ(p.examplesLimit, std::optional<std::uint64_t>(1)) << task;
    }
    EXPECT_GT(answerExamplesHeld(one->document).examples, 0u);
}

}  // namespace
}  // namespace fp8dash::ui::test
