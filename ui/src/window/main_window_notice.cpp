// MainWindow: the offline notice (live sources and the GPU that cannot be reached from this machine).
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

void MainWindow::checkLiveSources() {
    m_liveCheck->cancel();  // another document: the check of the last one is dropped
    m_liveChecks.clear();
    updateOfflineNotice();
    if (!m_doc.current()) return;
    if (m_doc.current()->document.timeline &&
        QSettings().value(main_window_parts::kCheckSourcesOnOpenKey, false).toBool()) {
        const TimelineSettings settings = m_doc.current()->document.timeline->settings;
        m_liveCheck->start([settings](JobControl&) { return checkTimelineSources(settings); },
                           [this](std::vector<LiveSourceCheck> checks) {
                               m_liveChecks = std::move(checks);
                               updateOfflineNotice();
                               emit liveSourcesChecked();
                           });
    }
    // The device does not change with the document: a query still running is kept.
    if (m_doc.current()->document.benchmarks && !m_gpuUnavailable && !m_deviceQuery->isRunning()) {
        m_deviceQuery->watch(bench::localDeviceQuery(), [this](const LocalDeviceStatus& status) {
            m_gpuUnavailable = status.available ? QString() : toQString(status.reason);
            updateOfflineNotice();
        });
    }
}

void MainWindow::updateOfflineNotice() {
    QStringList keys;
    const QString offline = offlineNoticeHtml(&keys);
    const QString live = liveNoticeText();
    if (live.isEmpty() || !m_doc.current()) {
        m_view->setOfflineNotice(offline, keys);
        return;
    }
    m_view->setOfflineNotice(offline.isEmpty() ? live : live + QStringLiteral("<br>") + offline, keys);
}

void MainWindow::buildNoticeActions(QMenu* view) {
    // The notice's ✕: what it says this machine cannot do stays dismissed on this machine (the next document with a
    // timeline whose Prometheus cannot be reached from here, or with benchmarks and no GPU here, says nothing of it).
    connect(m_view, &ComparisonView::offlineNoticeDismissed, this, [this](const QStringList& keys) {
        if (keys.isEmpty()) return;  // only what the last fetch said: closed for this document, not for good
        QStringList dismissed = QSettings().value(main_window_parts::kDismissedNoticesKey).toStringList();
        for (const QString& key : keys)
            if (!dismissed.contains(key)) dismissed << key;
        QSettings().setValue(main_window_parts::kDismissedNoticesKey, dismissed);
        statusBar()->showMessage(tr("Notice closed: View › Show Closed Notices brings it back."), 8000);
    });
    QAction* show = view->addAction(tr("Show Closed &Notices"), this, [this] {
        QSettings().remove(main_window_parts::kDismissedNoticesKey);
        for (MainWindow* w : main_window_parts::allWindows()) {
            w->m_view->clearDismissedNotice();
            w->updateOfflineNotice();
        }
    });
    show->setObjectName(QStringLiteral("showClosedNotices"));
    show->setShortcut(QKeySequence(QStringLiteral("Ctrl+Alt+N")));
    show->setStatusTip(
        tr("Show again the notices closed with their ✕: what this machine cannot do with a comparison (a live source "
           "that cannot be reached from here, no usable GPU)"));
}

QString MainWindow::offlineNoticeHtml(QStringList* keys) const {
    if (!m_doc.current()) return {};
    const QStringList dismissed = QSettings().value(main_window_parts::kDismissedNoticesKey).toStringList();
    QStringList items, itemKeys;
    // One line for the timeline's sources that cannot be reached (their errors in the tooltip); placeholders (the
    // demo's .invalid addresses) are not real servers and are not mentioned; nor is a source whose notice was closed.
    QStringList unreachable, details;
    for (const LiveSourceCheck& c : m_liveChecks) {
        if (c.reachable || c.placeholder) continue;
        const QString key = QStringLiteral("unreachable ") + toQString(c.url);
        if (dismissed.contains(key)) continue;
        itemKeys << key;
        unreachable << tr("%1 at %2").arg(style::escaped(c.what), style::escaped(c.url));
        details << QStringLiteral("%1: %2").arg(toQString(c.what), toQString(c.detail));
    }
    if (!unreachable.isEmpty()) {
        items << tr("<b>Refresh the production timeline</b>: %1 cannot be reached from this machine (%2).")
                     .arg(unreachable.join(tr(" and ")), style::escaped(details.join(QStringLiteral("; "))));
    }
    if (m_doc.current()->document.benchmarks && m_gpuUnavailable && !m_gpuUnavailable->isEmpty() &&
        !dismissed.contains(QStringLiteral("gpu"))) {
        // Why there is no GPU is said once, in the Local benchmarks tab's device card (not here again).
        itemKeys << QStringLiteral("gpu");
        items << tr(
            "<b>GPU benchmarks</b>: this machine has no usable GPU (Local benchmarks says why); Run "
            "Benchmarks measures the KV-cache error on the CPU only.");
    }
    if (keys) *keys = itemKeys;
    // What the live servers said on the last fetch (a deprecated Langfuse endpoint and its replacement, ...).
    QStringList said;
    for (const QString& n : std::as_const(m_sourceNotices)) said << style::escaped(n);
    if (items.isEmpty() && said.isEmpty()) {
        return {};
    }
    if (items.isEmpty()) {
        QString html = tr("From the live sources on the last fetch:");
        html += QStringLiteral("<ul style=\"margin-top:2px; margin-bottom:0px; -qt-list-indent:1;\">");
        for (const QString& item : said) html += QStringLiteral("<li>") + item + QStringLiteral("</li>");
        return html + QStringLiteral("</ul>");
    }
    items << said;
    QString html = tr("Everything saved in this comparison is shown. Not available on this machine:");
    html += QStringLiteral("<ul style=\"margin-top:2px; margin-bottom:0px; -qt-list-indent:1;\">");
    for (const QString& item : items) html += QStringLiteral("<li>") + item + QStringLiteral("</li>");
    html += QStringLiteral("</ul>");
    return html;
}

QString MainWindow::offlineNoticeText() const {
    return m_view->offlineNoticeText();
}

}  // namespace fp8dash::ui
