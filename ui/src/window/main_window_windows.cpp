// MainWindow: the window registry and open-routing (which window shows a file), recent files, drag and drop.
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

#include "widgets/untrusted_ui.h"
#include "window/main_window_parts.h"

namespace fp8dash::ui {

QList<MainWindow*> MainWindow::windows() {
    return main_window_parts::allWindows();
}

MainWindow* MainWindow::windowShowing(const QString& path) {
    const QString absolute = QFileInfo(path).absoluteFilePath();
    for (MainWindow* w : main_window_parts::allWindows()) {
        if (w->m_doc.shows(absolute) || (w->m_loadingPath && *w->m_loadingPath == absolute)) return w;
    }
    return nullptr;
}

MainWindow* MainWindow::newWindow() {
    auto* window = new MainWindow;
    window->setAttribute(Qt::WA_DeleteOnClose);
    window->setCredentialStore(m_credentialStore);
    window->setRecoveryStore(m_recoveryStore);
    window->show();
    return window;
}

bool MainWindow::canReplaceDocument() const {
    return !m_doc.isModified() && drafts().empty();  // a load still running is superseded, like any other
}

MainWindow* MainWindow::windowFor(const QString& path) {
    if (MainWindow* showing = path.isEmpty() ? nullptr : windowShowing(path)) return showing;
    return canReplaceDocument() ? this : newWindow();
}

MainWindow* MainWindow::openFile(const QString& path) {
    const QString absolute = QFileInfo(path).absoluteFilePath();
    MainWindow* target = windowFor(absolute);
    if (target->m_doc.path() == absolute || (target->m_loadingPath && *target->m_loadingPath == absolute)) {
        target->statusBar()->showMessage(tr("%1 is open in this window").arg(QFileInfo(absolute).fileName()), 5000);
    } else {
        target->openFileAsync(absolute);
    }
    target->show();
    target->raise();
    target->activateWindow();
    return target;
}

void MainWindow::addRecentFile(const QString& path) {
    QSettings settings;
    QStringList files = settings.value(QStringLiteral("recentFiles")).toStringList();
    files.removeAll(path);
    files.prepend(path);
    while (files.size() > main_window_parts::kMaxRecentFiles) files.removeLast();
    settings.setValue(QStringLiteral("recentFiles"), files);
}

void MainWindow::rebuildRecentMenu() {
    m_recentMenu->clear();
    const QStringList files = QSettings().value(QStringLiteral("recentFiles")).toStringList();
    int n = 0;
    for (const QString& file : files) {
        ++n;
        QAction* action = m_recentMenu->addAction(QStringLiteral("&%1  %2").arg(n).arg(QFileInfo(file).fileName()),
                                                  this, [this, file] { openFile(file); });
        action->setStatusTip(QDir::toNativeSeparators(file));
        action->setToolTip(escapedTip(QDir::toNativeSeparators(file)));
    }
    if (files.isEmpty()) {
        m_recentMenu->addAction(tr("No recent files"))->setEnabled(false);
    } else {
        m_recentMenu->addSeparator();
        m_recentMenu->addAction(tr("Clear List"), this, [] { QSettings().remove(QStringLiteral("recentFiles")); });
    }
}

QString MainWindow::lastDirectory() const {
    const QString dir = QSettings().value(QStringLiteral("lastDirectory")).toString();
    return !dir.isEmpty() && QFileInfo(dir).isDir() ? dir : QDir::homePath();
}

void MainWindow::rememberDirectory(const QString& fileOrDir) {
    const QFileInfo info(fileOrDir);
    QSettings().setValue(QStringLiteral("lastDirectory"), info.isDir() ? info.absoluteFilePath() : info.absolutePath());
}

bool MainWindow::canOpenDrop(const QMimeData* data) {
    return !comparisonFilesIn(data).isEmpty();
}

QStringList MainWindow::comparisonFilesIn(const QMimeData* data) {
    QStringList files;
    if (!data || !data->hasUrls()) return files;
    for (const QUrl& url : data->urls()) {
        if (!url.isLocalFile()) continue;
        const QString path = url.toLocalFile();
        if (QFileInfo(path).suffix().compare(main_window_parts::comparisonSuffix(), Qt::CaseInsensitive) == 0)
            files << path;
    }
    return files;
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event) {
    if (canOpenDrop(event->mimeData())) {
        event->acceptProposedAction();
    } else {
        event->ignore();
    }
}

void MainWindow::dragMoveEvent(QDragMoveEvent* event) {
    if (canOpenDrop(event->mimeData())) {
        event->acceptProposedAction();
    } else {
        event->ignore();
    }
}

void MainWindow::dropEvent(QDropEvent* event) {
    const QStringList files = comparisonFilesIn(event->mimeData());
    if (files.isEmpty()) {
        event->ignore();
        return;
    }
    event->acceptProposedAction();
    // The first file here (unless that would replace unsaved changes), each further one in a window of its own.
    MainWindow* first = openFile(files.first());
    for (qsizetype i = 1; i < files.size(); ++i) {
        if (MainWindow* showing = windowShowing(files[i])) {
            showing->raise();
        } else {
            first->newWindow()->openFileAsync(files[i]);
        }
    }
}

}  // namespace fp8dash::ui
