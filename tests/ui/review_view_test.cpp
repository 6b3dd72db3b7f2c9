// The review in the desktop app: notes (composer, dialog, edit, delete, about a task), the recorded decision (the
// dialog's choices and warnings, the banner, the Review tab, the history), all saved in the file.
#include <QComboBox>
#include <QLineEdit>
#include <QMenu>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QtTest>

#include "fp8dash/core/demo.h"
#include "fp8dash/ui/comparison_view.h"
#include "fp8dash/ui/main_window.h"
#include "fp8dash/ui/notes_panel.h"
#include "fp8dash/ui/review_dialogs.h"
#include "fp8dash/ui/review_view.h"
#include "fp8dash/ui/task_table_view.h"
#include "fp8dash/ui/verdict_banner.h"
#include "gui_test_support.h"

namespace fp8dash::ui::test {
namespace {

class ReviewViewTest : public GuiTest {};

// The notes of the evals-only demo, read without core's loader.
std::vector<std::string> demoNoteTexts() {
    std::vector<std::string> texts;
    QFile f(QStringLiteral(FP8DASH_TEST_DATA "/comparison-files/v1/demo-llama3-8b-instruct-fp8.fp8cmp"));
    EXPECT_TRUE(f.open(QIODevice::ReadOnly));
    const Json demo = Json::parse(f.readAll().toStdString());
    for (const auto& n : demo["notes"]) texts.push_back(n["text"].get<std::string>());
    return texts;
}

Json savedJson(MainWindow& window, const QTemporaryDir& dir, const QString& name) {
    const QString path = dir.filePath(name);
    EXPECT_TRUE(window.saveTo(path).ok());
    QFile f(path);
    EXPECT_TRUE(f.open(QIODevice::ReadOnly));
    return Json::parse(f.readAll().toStdString());
}

TEST_F(ReviewViewTest, TheComposerAddsASignedNoteAboutATaskAndTheFileKeepsIt) {
    QTemporaryDir dir;
    MainWindow window;
    window.show();
    showEvalsOnly(window);
    ReviewView* review = window.comparisonView()->reviewView();
    EXPECT_FALSE(review->addNoteButton()->isEnabled());  // nothing written yet

    // "About" offers the whole comparison and the demo's six compared tasks.
    QStringList about;
    for (int i = 0; i < review->composerTask()->count(); ++i) about << review->composerTask()->itemData(i).toString();
    EXPECT_EQ(about, (QStringList{QString(), QStringLiteral("arc_challenge"), QStringLiteral("hellaswag"),
                                  QStringLiteral("mmlu"), QStringLiteral("truthfulqa_mc2"),
                                  QStringLiteral("winogrande"), QStringLiteral("gsm8k")}));

    review->focusComposer(QStringLiteral("gsm8k"));
    QTest::keyClicks(review->composer(), QStringLiteral("Re-run GSM8K with calculate_kv_scales before deciding."));
    review->composerAuthor()->setText(QStringLiteral("Ana Ruiz"));
    QSignalSpy changed(&window, &MainWindow::reviewChanged);
    QTest::mouseClick(review->addNoteButton(), Qt::LeftButton);
    ASSERT_EQ(changed.count(), 1);

    const auto& notes = window.current()->document.notes;
    ASSERT_EQ(notes.size(), demoNoteTexts().size() + 1);
    const Note& added = notes.back();
    EXPECT_EQ(added.text, "Re-run GSM8K with calculate_kv_scales before deciding.");
    EXPECT_EQ(added.task, "gsm8k");
    EXPECT_EQ(added.author, "Ana Ruiz");
    EXPECT_FALSE(added.created.empty());
    EXPECT_TRUE(review->draft().isEmpty());  // the composer is cleared
    EXPECT_TRUE(window.isModified());
    EXPECT_TRUE(window.windowTitle().contains(QLatin1Char('*')));
    // Both note lists show it: the side panel of the evals tab (read-only) and the Review tab.
    EXPECT_EQ(window.comparisonView()->notesPanel()->texts().last(), toQString(added.text));
    EXPECT_EQ(review->notesPanel()->texts().last(), toQString(added.text));
    EXPECT_EQ(window.comparisonView()->tabs()->tabText(ComparisonView::ReviewTab),
              QStringLiteral("Review · %1 notes").arg(notes.size()));
    // The name is remembered for the next note.
    EXPECT_EQ(reviewerName(), QStringLiteral("Ana Ruiz"));

    const Json saved = savedJson(window, dir, QStringLiteral("reviewed.fp8cmp"));
    ASSERT_EQ(saved["notes"].size(), notes.size());
    EXPECT_EQ(saved["notes"].back()["text"], added.text);
    EXPECT_EQ(saved["notes"].back()["task"], "gsm8k");
    EXPECT_EQ(saved["notes"].back()["author"], "Ana Ruiz");
    EXPECT_FALSE(window.isModified());
}

TEST_F(ReviewViewTest, TheTaskTableOffersANoteAboutTheTaskUnderTheMouse) {
    MainWindow window;
    window.show();
    showEvalsOnly(window);
    TaskTableView* table = window.comparisonView()->taskTable();
    const QModelIndex gsm8k = findTaskRow(table->proxyModel(), QStringLiteral("gsm8k"));
    ASSERT_TRUE(gsm8k.isValid());
    std::unique_ptr<QMenu> menu(table->createContextMenu(gsm8k));
    ASSERT_FALSE(menu->actions().isEmpty());
    QAction* about = menu->actions().first();
    EXPECT_EQ(about->text(), QStringLiteral("Add Note About gsm8k…"));
    // The same (one) right-click menu exports the table.
    QStringList texts;
    for (QAction* a : menu->actions()) texts << a->text().remove(QLatin1Char('&'));
    EXPECT_TRUE(texts.contains(QStringLiteral("Export Table as CSV…"))) << texts.join(QLatin1Char('|')).toStdString();
    about->trigger();
    EXPECT_EQ(window.comparisonView()->tabs()->currentIndex(), ComparisonView::ReviewTab);
    EXPECT_EQ(window.comparisonView()->reviewView()->composerTask()->currentData().toString(), QStringLiteral("gsm8k"));
}

TEST_F(ReviewViewTest, NotesAreEditedAndDeletedByIdAndTheEditIsDated) {
    MainWindow window;
    showEvalsOnly(window);
    window.addNote(QStringLiteral("first draft"), {}, QStringLiteral("Lee"));
    const std::string id = window.current()->document.notes.back().id;
    const std::string created = window.current()->document.notes.back().created;

    NoteDialog* dialog = window.openEditNoteDialog(toQString(id));
    ASSERT_NE(dialog, nullptr);
    EXPECT_EQ(dialog->textEdit()->toPlainText(), QStringLiteral("first draft"));
    EXPECT_TRUE(dialog->authorEdit()->isReadOnly());
    dialog->textEdit()->setPlainText(QStringLiteral("second thoughts"));
    dialog->taskCombo()->setCurrentIndex(dialog->taskCombo()->findData(QStringLiteral("mmlu")));
    dialog->accept();
    const Note& edited = window.current()->document.notes.back();
    EXPECT_EQ(edited.id, id);
    EXPECT_EQ(edited.text, "second thoughts");
    EXPECT_EQ(edited.task, "mmlu");
    EXPECT_EQ(edited.author, "Lee");
    EXPECT_EQ(edited.created, created);
    EXPECT_FALSE(edited.edited.empty());

    // Delete asks first; Cancel keeps the note, Yes removes it.
    const auto before = window.current()->document.notes.size();
    const auto answer = [&](QMessageBox::StandardButton button) {
        window.requestDeleteNote(toQString(id));
        auto* box = window.findChild<QMessageBox*>(QStringLiteral("deleteNoteBox"));
        ASSERT_NE(box, nullptr);
        box->button(button)->click();
        QCoreApplication::processEvents();
    };
    answer(QMessageBox::Cancel);
    EXPECT_EQ(window.current()->document.notes.size(), before);
    answer(QMessageBox::Yes);
    EXPECT_EQ(window.current()->document.notes.size(), before - 1);
    for (const Note& n : window.current()->document.notes) EXPECT_NE(n.id, id);
    EXPECT_FALSE(window.deleteNote(toQString(id)));  // gone already
}

TEST_F(ReviewViewTest, TheDecisionDialogSuggestsTheEvidenceAndWarnsOfAnOverride) {
    MainWindow window;
    window.show();
    showEvalsOnly(window);  // INVESTIGATE (gsm8k -2.6 %)
    RecordDecisionDialog* dialog = window.recordDecision();
    ASSERT_NE(dialog, nullptr);
    EXPECT_EQ(dialog->outcome(), ReviewOutcome::Rejected);  // what INVESTIGATE suggests
    EXPECT_TRUE(dialog->warningText().isEmpty());
    dialog->nameEdit()->setText(QStringLiteral("Ana Ruiz"));
    EXPECT_FALSE(dialog->okButton()->isEnabled());  // no reason yet

    dialog->outcomeButton(ReviewOutcome::ApprovedGo)->click();
    EXPECT_EQ(dialog->warningText(),
              QStringLiteral("⚠ \"Approved: go\" overrides the evidence's verdict INVESTIGATE. Say why below."));
    dialog->outcomeButton(ReviewOutcome::ApprovedMonitor)->click();
    EXPECT_TRUE(dialog->warningText().contains(QStringLiteral("overrides")));
    QTest::keyClicks(dialog->reasonEdit(), QStringLiteral("GSM8K is not part of this product's traffic."));
    ASSERT_TRUE(dialog->okButton()->isEnabled());
    dialog->okButton()->click();

    ASSERT_EQ(window.current()->document.decisions.size(), 1u);
    const ReviewDecision& d = window.current()->document.decisions.back();
    EXPECT_EQ(d.outcome, ReviewOutcome::ApprovedMonitor);
    EXPECT_EQ(d.by, "Ana Ruiz");
    EXPECT_EQ(d.why, "GSM8K is not part of this product's traffic.");
    EXPECT_EQ(d.verdictAtDecision, Verdict::Investigate);
    EXPECT_FALSE(d.at.empty());
    EXPECT_TRUE(window.isModified());

    // The banner shows it under the evidence's verdict, with the override said plainly.
    const VerdictBanner* banner = window.comparisonView()->verdictBanner();
    EXPECT_EQ(banner->verdictText(), QStringLiteral("INVESTIGATE"));  // the evidence's verdict does not change
    const QString strip = banner->decisionText();
    EXPECT_TRUE(strip.startsWith(QStringLiteral("Decision: Approved: monitor with quality alerting — by Ana Ruiz, ")))
        << strip.toStdString();
    EXPECT_TRUE(strip.contains(QStringLiteral("“GSM8K is not part of this product's traffic.”")));
    EXPECT_TRUE(
        strip.contains(QStringLiteral("⚠ \"Approved: monitor with quality alerting\" overrides the evidence's "
                                      "verdict INVESTIGATE.")));
    // The Review tab is in front with the same decision.
    EXPECT_EQ(window.comparisonView()->tabs()->currentIndex(), ComparisonView::ReviewTab);
    ReviewView* review = window.comparisonView()->reviewView();
    EXPECT_TRUE(
        review->decisionText().startsWith(QStringLiteral("Approved: monitor with quality alerting\nBy Ana Ruiz")));
    EXPECT_TRUE(review->warningsText().contains(QStringLiteral("overrides")));
    EXPECT_TRUE(review->historyTexts().isEmpty());
    EXPECT_EQ(window.comparisonView()->tabs()->tabText(ComparisonView::ReviewTab),
              QStringLiteral("Review · Approved: monitor with quality alerting"));
}

TEST_F(ReviewViewTest, ARevisedDecisionKeepsTheEarlierOneOnRecord) {
    QTemporaryDir dir;
    MainWindow window;
    showEvalsOnly(window);
    ReviewDecision first;
    first.outcome = ReviewOutcome::Rejected;
    first.by = "Ana";
    first.at = "2026-12-01T09:00:00Z";
    first.why = "GSM8K drops 2.6 %.";
    first.verdictAtDecision = Verdict::Investigate;
    window.applyDecision(first);
    RecordDecisionDialog* dialog = window.recordDecision();
    ASSERT_NE(dialog, nullptr);
    EXPECT_EQ(dialog->windowTitle(), QStringLiteral("Revise Decision"));
    EXPECT_EQ(dialog->outcome(), ReviewOutcome::Rejected);  // the one in force
    dialog->setOutcome(ReviewOutcome::ApprovedMonitor);
    dialog->nameEdit()->setText(QStringLiteral("Lee"));
    dialog->reasonEdit()->setPlainText(QStringLiteral("Re-run with KV scales recovered GSM8K."));
    dialog->accept();

    const auto& decisions = window.current()->document.decisions;
    ASSERT_EQ(decisions.size(), 2u);
    EXPECT_EQ(decisions[0], first);
    EXPECT_EQ(decisions[1].by, "Lee");
    const QStringList history = window.comparisonView()->reviewView()->historyTexts();
    ASSERT_EQ(history.size(), 1);
    EXPECT_EQ(history[0], toQString(reviewSummary(first)));

    const Json saved = savedJson(window, dir, QStringLiteral("revised.fp8cmp"));
    ASSERT_EQ(saved["review"]["decisions"].size(), 2u);
    EXPECT_EQ(saved["review"]["decisions"][0]["outcome"], "rejected");
    EXPECT_EQ(saved["review"]["decisions"][1]["outcome"], "approved_monitor");
    EXPECT_EQ(saved["review"]["decisions"][1]["verdict_at_decision"], "investigate");

    // Opened again, the file shows the same decision and history.
    MainWindow reader;
    QSignalSpy shown(&reader, &MainWindow::documentShown);
    reader.openFileAsync(dir.filePath(QStringLiteral("revised.fp8cmp")));
    ASSERT_TRUE(shown.wait(20000));
    EXPECT_EQ(reader.comparisonView()->reviewView()->historyTexts(), history);
    EXPECT_TRUE(reader.comparisonView()->verdictBanner()->decisionText().contains(QStringLiteral("by Lee")));
}

TEST_F(ReviewViewTest, WithoutADecisionTheBannerSaysSoAndItsButtonOpensTheDialog) {
    MainWindow window;
    window.show();
    showEvalsOnly(window);
    const VerdictBanner* banner = window.comparisonView()->verdictBanner();
    EXPECT_EQ(banner->decisionText(), QStringLiteral("Decision: none recorded yet"));
    EXPECT_EQ(window.decisionDialog(), nullptr);
    QTest::mouseClick(banner->recordButton(), Qt::LeftButton);
    EXPECT_NE(window.decisionDialog(), nullptr);
}

}  // namespace
}  // namespace fp8dash::ui::test
