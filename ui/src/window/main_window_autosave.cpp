// MainWindow: autosave to the crash-recovery file and recovery from it.
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

// The timer that autosaves a moment after the last change, and the one background write at a time.
void MainWindow::setUpAutosave() {
    m_autosaveTimer = new QTimer(this);
    m_autosaveTimer->setSingleShot(true);
    m_autosaveTimer->setInterval(main_window_parts::kAutosaveDelayMs);
    connect(m_autosaveTimer, &QTimer::timeout, this, &MainWindow::autosaveInBackground);
    m_autosaveWatcher = new QFutureWatcher<Status>(this);
    connect(m_autosaveWatcher, &QFutureWatcherBase::finished, this, [this] {
        const Status written = m_autosaveWatcher->future().result();
        if (m_discardAfterWrite) {
            // Saved or discarded while the write ran: what it wrote is not wanted any more.
            m_discardAfterWrite = false;
            if (m_recoverySlot) m_recoverySlot->discard();
        } else if (!written) {
            statusBar()->showMessage(tr("Autosave failed: %1").arg(toQString(written.error().message)), 10000);
        } else if (m_recoverySlot) {
            emit autosaved(m_recoverySlot->filePath());
        }
        if (m_autosaveAgain) {
            m_autosaveAgain = false;
            autosaveInBackground();
        }
    });
}

void MainWindow::setRecoveryStore(std::shared_ptr<RecoveryStore> store) {
    if (!store) store = std::make_shared<RecoveryStore>();
    if (m_recoverySlot) {
        discardRecovery();
        m_recoverySlot.reset();
    }
    m_recoveryStore = std::move(store);
}

std::map<std::string, std::string> MainWindow::drafts() const {
    std::map<std::string, std::string> out;
    const auto put = [&](const char* key, const QString& text) {
        if (!text.trimmed().isEmpty()) out[key] = text.toStdString();
    };
    put("note", m_view->reviewView()->draft());
    if (m_noteDialog) put("note_dialog", m_noteDialog->textEdit()->toPlainText());
    if (m_decisionDialog)
        put("decision_why", m_decisionDialog->reasonEdit()->toPlainText());
    else
        put("decision_why", m_decisionDraft);
    return out;
}

void MainWindow::scheduleAutosave() {
    m_autosaveTimer->start();
}

void MainWindow::discardRecovery() {
    if (m_autosaveWatcher->isRunning()) m_discardAfterWrite = true;  // and again once the write in flight ends
    if (m_recoverySlot) m_recoverySlot->discard();
}

QString MainWindow::recoveryFile() const {
    return m_recoverySlot ? m_recoverySlot->filePath() : QString();
}

Result<bool> MainWindow::prepareAutosave(RecoveryRecord& record) {
    const auto typed = drafts();
    if (!m_doc.current() || (!m_doc.isModified() && typed.empty())) {
        discardRecovery();
        return false;
    }
    if (!m_recoverySlot) {
        QString error;
        m_recoverySlot = m_recoveryStore->claim(&error);
        if (!m_recoverySlot) return Error{error.toStdString()};
    }
    record.document = m_doc.current()->document;
    record.originalPath = m_doc.path().toStdString();
    record.displayName = m_doc.displayName().toStdString();
    record.savedAt = nowIso8601Utc();
    record.pid = static_cast<long long>(QCoreApplication::applicationPid());
    record.drafts = typed;
    return true;
}

Status MainWindow::autosaveNow() {
    m_autosaveTimer->stop();
    m_autosaveWatcher->waitForFinished();
    RecoveryRecord record;
    const auto needed = prepareAutosave(record);
    if (!needed) return needed.error();
    if (!*needed) return success();
    const Status written = m_recoverySlot->write(record);
    if (written) emit autosaved(m_recoverySlot->filePath());
    return written;
}

void MainWindow::autosaveInBackground() {
    // One write at a time; a change during it is written right after.
    if (m_autosaveWatcher->isRunning()) {
        m_autosaveAgain = true;
        return;
    }
    RecoveryRecord record;
    const auto needed = prepareAutosave(record);
    if (!needed) {
        statusBar()->showMessage(tr("Autosave failed: %1").arg(toQString(needed.error().message)), 10000);
        return;
    }
    if (!*needed) return;
    // The document is copied here; serialising and writing it (seconds for a timeline of millions of points) runs
    // on a worker, so typing is never held up by it.
    const std::filesystem::path file = toFsPath(m_recoverySlot->filePath());
    m_autosaveWatcher->setFuture(
        QtConcurrent::run([record = std::move(record), file]() { return saveRecoveryFile(record, file); }));
}

bool MainWindow::recover(const RecoveryOrphan& orphan) {
    if (!orphan.record) return false;
    auto slot = m_recoveryStore->adopt(orphan.file);
    if (!slot) return false;  // another fp8dash recovered it meanwhile
    const RecoveryRecord& r = *orphan.record;
    const QString path = toQString(r.originalPath);
    const QString source = path.isEmpty() ? toQString(r.displayName) : path;
    auto loaded = evaluateForDisplay(r.document, source);
    if (!loaded) {
        showError(tr("Could not recover"), tr("Could not show the recovered “%1”.").arg(toQString(r.displayName)),
                  toQString(loaded.error().message));
        return false;
    }
    m_load->cancel();
    clearLoading();
    display(std::move(loaded).value(), path, path.isEmpty() ? toQString(r.displayName) : QString());
    m_recoverySlot = std::move(slot);
    // Typed text first: a note still being written goes back into the composer, a decision's reason into the next
    // Record Decision dialog.
    QString note = r.drafts.count("note") ? toQString(r.drafts.at("note")) : QString();
    if (r.drafts.count("note_dialog")) {
        const QString fromDialog = toQString(r.drafts.at("note_dialog"));
        note = note.isEmpty() ? fromDialog : note + QStringLiteral("\n\n") + fromDialog;
    }
    if (!note.isEmpty()) m_view->reviewView()->setDraft(note);
    if (r.drafts.count("decision_why")) m_decisionDraft = toQString(r.drafts.at("decision_why"));
    setModified(true);
    statusBar()->showMessage(tr("Recovered “%1” as it was at %2; save it to keep it")
                                 .arg(m_doc.displayName(), toQString(readableTimestamp(r.savedAt))),
                             15000);
    if (!note.isEmpty() || !m_decisionDraft.isEmpty()) m_view->showTab(ComparisonView::ReviewTab);
    return true;
}

}  // namespace fp8dash::ui
