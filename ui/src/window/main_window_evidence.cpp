// MainWindow: the evidence added to a document here: the production timeline (Connect, Refresh, the change time),
// local benchmarks and capacity, and the domain judge run.
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

void MainWindow::applyTimeline(TimelineData data) {
    ComparisonDocument doc = m_doc.documentOr(tr("Production timeline"));
    doc.timeline = std::move(data);
    if (!showDerived(std::move(doc))) return;
    setModified(true);
    m_view->showTab(ComparisonView::TimelineTab);
    statusBar()->showMessage(tr("Timeline fetched; save the comparison to keep it"), 8000);
    updateLive();  // a live view follows the new settings
    emit timelineApplied();
}

void MainWindow::setTimelineChangeTime(double unixSeconds) {
    if (!m_doc.current() || !m_doc.current()->document.timeline) return;
    ComparisonDocument doc = m_doc.current()->document;
    doc.timeline->settings.changeAt = unixSeconds;
    doc.timeline->settings.changeAtDetected = false;  // chosen by the user now
    if (!showDerived(std::move(doc))) return;
    setModified(true);
    m_view->showTab(ComparisonView::TimelineTab);
    statusBar()->showMessage(tr("FP8 change time set to %1").arg(toQString(formatTimeUtc(unixSeconds))), 8000);
}

void MainWindow::ensureDocument() {
    if (!m_doc.current()) showDocument(DocumentController::withoutRuns(tr("Local FP8 evidence")), {}, {});
}

void MainWindow::showBenchmarks() {
    ensureDocument();
    if (m_doc.current()) m_view->showTab(ComparisonView::BenchTab);
}

void MainWindow::showCapacity() {
    ensureDocument();
    if (m_doc.current()) m_view->showTab(ComparisonView::CapacityTab);
}

void MainWindow::runBenchmarks() {
    showBenchmarks();
    if (m_doc.current()) m_view->benchView()->startRun();
}

void MainWindow::benchRunFinished(const BenchResults& results) {
    m_cancelBenchAction->setEnabled(false);
    if (!m_doc.current() || m_benchSerial != m_doc.serial()) {
        // Measured for a document that is no longer shown: it must not land in another one.
        statusBar()->showMessage(tr("Benchmark results dropped: another comparison was opened during the run"), 10000);
        return;
    }
    applyBenchmarks(results);
}

void MainWindow::applyBenchmarks(BenchResults results) {
    ComparisonDocument doc = m_doc.documentOr(tr("Local FP8 evidence"));
    const bool cancelled = results.cancelled;
    doc.benchmarks = std::move(results);
    if (!showDerived(std::move(doc))) return;
    setModified(true);
    m_view->showTab(ComparisonView::BenchTab);
    statusBar()->showMessage(cancelled ? tr("Benchmarks cancelled; the partial results are in the comparison")
                                       : tr("Benchmarks finished; save the comparison to keep them"),
                             8000);
    emit benchmarksApplied();
}

TimelineSourceDialog* MainWindow::openSourceDialog(const TimelineSettings& settings, bool fetchNow) {
    if (m_sourceDialog && m_sourceDialog->isVisible()) {
        m_sourceDialog->raise();
        m_sourceDialog->activateWindow();
        return m_sourceDialog;
    }
    auto* dialog = new TimelineSourceDialog(this, m_credentialStore);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setSettings(settings);
    if (m_sessionCredentials) dialog->setCredentials(*m_sessionCredentials);
    // "Last 6 hours" stays "the last 6 hours" when fetched again later.
    const TimeRangePicker* viewPicker = m_view->timelineView()->rangePicker();
    if (viewPicker->preset() != TimeRangePicker::Custom) dialog->rangePicker()->setPreset(viewPicker->preset());
    connect(dialog, &QDialog::accepted, this, [this, dialog] {
        const TimelineData* data = dialog->result();
        if (!data) return;
        m_sessionCredentials = dialog->resultCredentials();
        m_sourceNotices = dialog->sourceNotices();  // shown in the notice area until the next fetch
        if (dialog->rangePicker()->preset() != TimeRangePicker::Custom) {
            m_view->timelineView()->rangePicker()->setPreset(dialog->rangePicker()->preset());
        }
        applyTimeline(*data);
    });
    // A closed dialog is deleted later; from now on it is not "the open one".
    connect(dialog, &QDialog::finished, this, [this, dialog] {
        if (m_sourceDialog == dialog) m_sourceDialog = nullptr;
    });
    m_sourceDialog = dialog;
    dialog->open();
    // Refresh in a new session: the credentials may still be on their way from the keychain.
    if (fetchNow) dialog->startFetchAfterKeychain();
    return dialog;
}

RunJudgeDialog* MainWindow::runDomainEval() {
    if (m_judgeDialog && m_judgeDialog->isVisible()) {
        m_judgeDialog->raise();
        m_judgeDialog->activateWindow();
        return m_judgeDialog;
    }
    auto* dialog = new RunJudgeDialog(this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &RunJudgeDialog::scoresReady, this, [this, dialog] {
        const JudgeSection* scores = dialog->scores();
        const JudgeRunSummary* summary = dialog->summary();
        if (!scores || !summary) return;
        applyJudge(*scores, toQString(summary->baseline.model), toQString(summary->candidate.model));
    });
    connect(dialog, &QDialog::finished, this, [this, dialog] {
        if (m_judgeDialog == dialog) m_judgeDialog = nullptr;
    });
    m_judgeDialog = dialog;
    dialog->open();
    return dialog;
}

RunJudgeDialog* MainWindow::judgeDialog() const {
    return m_judgeDialog.data();
}

void MainWindow::applyJudge(JudgeSection section, const QString& baselineLabel, const QString& candidateLabel) {
    ComparisonDocument doc;
    if (m_doc.current()) {
        doc = m_doc.current()->document;
    } else {
        const std::string baseline = baselineLabel.isEmpty() ? "BF16" : baselineLabel.toStdString();
        const std::string candidate = candidateLabel.isEmpty() ? "FP8" : candidateLabel.toStdString();
        doc = makeComparisonDocument({baseline, "", {}}, {candidate, "", {}}, {});
        doc.hasEvals = false;
        doc.title = baseline + " vs " + candidate + ": domain judge";
    }
    // A new run replaces the scores, not how the document reads them (scale, policy, bootstrap).
    section.options = doc.judge ? doc.judge->options : JudgeOptions{};
    if (!doc.judge) section.options.cautious = doc.options.cautious;
    doc.judge = std::move(section);
    if (!showDerived(std::move(doc))) return;
    setModified(true);
    m_view->showTab(ComparisonView::JudgeTab);
    statusBar()->showMessage(tr("Domain eval scores added; save the comparison to keep them"), 8000);
    emit judgeApplied();
}

void MainWindow::setCredentialStore(std::shared_ptr<CredentialStore> store) {
    m_credentialStore = store ? std::move(store) : std::make_shared<KeychainCredentialStore>();
}

TimelineSourceDialog* MainWindow::sourceDialog() const {
    return m_sourceDialog.data();
}

TimelineSourceDialog* MainWindow::connectTimeline() {
    if (m_doc.current() && m_doc.current()->document.timeline)
        return openSourceDialog(m_doc.current()->document.timeline->settings, false);
    TimelineSettings settings;
    const auto [from, to] = m_view->timelineView()->rangePicker()->range();
    settings.from = from;
    settings.to = to;
    return openSourceDialog(settings, false);
}

TimelineSourceDialog* MainWindow::refreshTimeline() {
    const auto [from, to] = m_view->timelineView()->rangePicker()->range();
    return refreshTimeline(from, to);
}

TimelineSourceDialog* MainWindow::refreshTimeline(double from, double to) {
    if (!m_doc.current() || !m_doc.current()->document.timeline) {
        TimelineSettings settings;
        settings.from = from;
        settings.to = to;
        return openSourceDialog(settings, false);
    }
    TimelineSettings settings = m_doc.current()->document.timeline->settings;
    settings.from = from;
    settings.to = to;
    return openSourceDialog(settings, true);
}

}  // namespace fp8dash::ui
