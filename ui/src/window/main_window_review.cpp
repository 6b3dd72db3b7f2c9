// MainWindow: the review actions (notes and decisions), each a document derived from the current one.
#include "fp8dash/ui/main_window.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QDir>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QRegularExpression>
#include <QScreen>
#include <QSettings>
#include <QSplitter>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTimer>
#include <QTreeView>
#include <QUrl>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include "bench/bench_charts.h"
#include "fp8dash/core/demo.h"
#include "fp8dash/core/live_sources.h"
#include "fp8dash/core/report_format.h"
#include "fp8dash/core/version.h"
#include "fp8dash/ui/background_job.h"
#include "fp8dash/ui/bench_view.h"
#include "fp8dash/ui/capacity_view.h"
#include "fp8dash/ui/comparison_view.h"
#include "fp8dash/ui/document_controller.h"
#include "fp8dash/ui/keychain_credential_store.h"
#include "fp8dash/ui/new_comparison_dialog.h"
#include "fp8dash/ui/notes_panel.h"
#include "fp8dash/ui/presentation_window.h"
#include "fp8dash/ui/report_exporter.h"
#include "fp8dash/ui/review_dialogs.h"
#include "fp8dash/ui/review_view.h"
#include "fp8dash/ui/run_judge_dialog.h"
#include "fp8dash/ui/task_table_view.h"
#include "fp8dash/ui/theme.h"
#include "fp8dash/ui/time_range_picker.h"
#include "fp8dash/ui/timeline_source_dialog.h"
#include "fp8dash/ui/timeline_view.h"
#include "fp8dash/ui/verdict_banner.h"
#include "widgets/ui_style.h"

#include "window/main_window_parts.h"

namespace fp8dash::ui {

QStringList MainWindow::taskNames() const {
    QStringList names;
    if (m_doc.current())
        for (const TaskComparison& t : m_doc.current()->report.tasks) names << toQString(t.task);
    return names;
}

bool MainWindow::applyReviewChange(ComparisonDocument doc, const QString& message) {
    if (!showDerived(std::move(doc))) return false;
    setModified(true);
    statusBar()->showMessage(message, 6000);
    emit reviewChanged();
    return true;
}

NoteDialog* MainWindow::openNoteDialog(const QString& task) {
    if (!m_doc.current()) return nullptr;
    if (m_noteDialog && m_noteDialog->isVisible()) {
        m_noteDialog->raise();
        return m_noteDialog;
    }
    auto* dialog = new NoteDialog(taskNames(), task, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QDialog::accepted, this,
            [this, dialog] { addNote(dialog->text(), dialog->task(), dialog->author()); });
    connect(dialog->textEdit(), &QPlainTextEdit::textChanged, this, &MainWindow::scheduleAutosave);
    m_noteDialog = dialog;
    dialog->open();
    return dialog;
}

NoteDialog* MainWindow::openEditNoteDialog(const QString& noteId) {
    if (!m_doc.current()) return nullptr;
    const auto& notes = m_doc.current()->document.notes;
    const auto it = std::find_if(notes.begin(), notes.end(), [&](const Note& n) { return toQString(n.id) == noteId; });
    if (it == notes.end()) return nullptr;
    auto* dialog = new NoteDialog(taskNames(), toQString(it->task), this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setNote(*it);
    dialog->authorEdit()->setReadOnly(true);  // a note keeps its author; the edit time says it changed
    connect(dialog, &QDialog::accepted, this,
            [this, dialog, noteId] { editNote(noteId, dialog->text(), dialog->task()); });
    connect(dialog->textEdit(), &QPlainTextEdit::textChanged, this, &MainWindow::scheduleAutosave);
    m_noteDialog = dialog;
    dialog->open();
    return dialog;
}

NoteDialog* MainWindow::noteDialog() const {
    return m_noteDialog.data();
}

void MainWindow::addNote(const QString& text, const QString& task, const QString& author) {
    if (!m_doc.current() || text.trimmed().isEmpty()) return;
    ComparisonDocument doc = m_doc.current()->document;
    Note note;
    note.id = doc.newNoteId();
    note.text = text.trimmed().toStdString();
    note.author = author.trimmed().toStdString();
    note.created = nowIso8601Utc();
    note.task = task.toStdString();
    doc.notes.push_back(std::move(note));
    applyReviewChange(std::move(doc), task.isEmpty()
                                          ? tr("Note added; save the comparison to keep it")
                                          : tr("Note about %1 added; save the comparison to keep it").arg(task));
}

bool MainWindow::editNote(const QString& noteId, const QString& text, const QString& task) {
    if (!m_doc.current() || text.trimmed().isEmpty()) return false;
    ComparisonDocument doc = m_doc.current()->document;
    auto it =
        std::find_if(doc.notes.begin(), doc.notes.end(), [&](const Note& n) { return toQString(n.id) == noteId; });
    if (it == doc.notes.end()) return false;
    if (toQString(it->text) == text.trimmed() && toQString(it->task) == task) return true;  // nothing changed
    it->text = text.trimmed().toStdString();
    it->task = task.toStdString();
    it->edited = nowIso8601Utc();
    return applyReviewChange(std::move(doc), tr("Note changed; save the comparison to keep it"));
}

bool MainWindow::deleteNote(const QString& noteId) {
    if (!m_doc.current()) return false;
    ComparisonDocument doc = m_doc.current()->document;
    const auto before = doc.notes.size();
    std::erase_if(doc.notes, [&](const Note& n) { return toQString(n.id) == noteId; });
    if (doc.notes.size() == before) return false;
    return applyReviewChange(std::move(doc), tr("Note deleted; save the comparison to make it final"));
}

void MainWindow::requestDeleteNote(const QString& noteId) {
    auto* box = new QMessageBox(QMessageBox::Question, tr("Delete Note"), tr("Delete this note from the comparison?"),
                                QMessageBox::Yes | QMessageBox::Cancel, this);
    box->setObjectName(QStringLiteral("deleteNoteBox"));
    box->setInformativeText(tr("Until the comparison is saved, the file keeps the note."));
    box->setDefaultButton(QMessageBox::Cancel);
    box->setAttribute(Qt::WA_DeleteOnClose);
    connect(box, &QMessageBox::finished, this, [this, noteId](int result) {
        if (result == QMessageBox::Yes) deleteNote(noteId);
    });
    box->open();
}

RecordDecisionDialog* MainWindow::recordDecision() {
    if (!m_doc.current()) return nullptr;
    if (m_decisionDialog && m_decisionDialog->isVisible()) {
        m_decisionDialog->raise();
        return m_decisionDialog;
    }
    auto* dialog =
        new RecordDecisionDialog(m_doc.current()->decision.verdict, m_doc.current()->document.currentDecision(), this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setEvidence(m_doc.current()->decision);  // several candidates: which variant
    if (!m_decisionDraft.isEmpty()) {
        dialog->reasonEdit()->setPlainText(m_decisionDraft);
        m_decisionDraft.clear();
    }
    connect(dialog, &QDialog::accepted, this, [this, dialog] { applyDecision(dialog->decision()); });
    connect(dialog, &RecordDecisionDialog::reasonEdited, this, &MainWindow::scheduleAutosave);
    connect(dialog, &QDialog::finished, this, &MainWindow::scheduleAutosave);
    m_decisionDialog = dialog;
    dialog->open();
    return dialog;
}

RecordDecisionDialog* MainWindow::decisionDialog() const {
    return m_decisionDialog.data();
}

void MainWindow::applyDecision(ReviewDecision decision) {
    if (!m_doc.current() || !decision.validate()) return;
    ComparisonDocument doc = m_doc.current()->document;
    const QString title = toQString(reviewOutcomeTitle(decision.outcome)) +
                          (decision.variant ? tr(", %1").arg(toQString(*decision.variant)) : QString());
    doc.decisions.push_back(std::move(decision));
    if (applyReviewChange(std::move(doc), tr("Decision recorded: %1; save the comparison to keep it").arg(title)))
        m_view->showTab(ComparisonView::ReviewTab);
}

}  // namespace fp8dash::ui
