// A desktop session that is sent SIGTERM while a worker computes on (the other half of
// DocumentsTest.SigtermQuitsWhileAWorkerComputesAndAutosavesFirst): the real MainWindow opens a comparison, a note is
// added (unsaved), the app's own termination handling is installed, and a task that never ends occupies Qt's global
// thread pool, as a bootstrap of 100,000 iterations over 50,000 pairs (tens of seconds, no cancel checks) would.
// Then it prints "READY" and runs the event loop until the signal ends it.
// Usage: fp8dash_sigterm_helper RECOVERY_DIR COMPARISON_FILE NOTE
#include <QApplication>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QtConcurrent/QtConcurrentRun>

#include <cstdio>
#include <future>

#include "fp8dash/ui/main_window.h"
#include "fp8dash/ui/recovery_store.h"
#include "fp8dash/ui/termination_signals.h"

int main(int argc, char** argv) {
    if (argc != 4) {
        std::fprintf(stderr, "usage: %s RECOVERY_DIR COMPARISON_FILE NOTE\n", argv[0]);
        return 2;
    }
    qputenv("QT_QPA_PLATFORM", "offscreen");
    qputenv("DBUS_SESSION_BUS_ADDRESS", "unix:path=/nonexistent/fp8dash-sigterm-helper-bus");
    QStandardPaths::setTestModeEnabled(true);
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("fp8dash-tests"));
    QApplication::setApplicationName(QStringLiteral("fp8dash-sigterm-helper"));
    fp8dash::ui::RecoveryStore::setDefaultDirectory(QString::fromLocal8Bit(argv[1]));
    fp8dash::ui::quitOnTerminationSignals(app);
    auto* window = new fp8dash::ui::MainWindow;
    window->show();
    QSignalSpy shown(window, &fp8dash::ui::MainWindow::documentShown);
    window->openFileAsync(QString::fromLocal8Bit(argv[2]));
    if (!shown.wait(60000)) {
        std::fprintf(stderr, "the comparison did not open\n");
        return 1;
    }
    window->addNote(QString::fromLocal8Bit(argv[3]), QStringLiteral("gsm8k"), QStringLiteral("Ana"));
    // Work that never ends and never looks at a cancel flag: only a bounded quit ends this process.
    static std::promise<void> never;
    std::shared_future<void> blocked = never.get_future().share();
    (void)QtConcurrent::run([blocked] { blocked.wait(); });
    std::printf("READY\n");
    std::fflush(stdout);
    return QApplication::exec();
}
