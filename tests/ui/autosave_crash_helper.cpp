// A desktop session that is killed (the other half of DocumentsTest.AnAutosaveSurvivesKillDashNine): the real
// MainWindow opens a comparison, a note is added and another is still being typed, the autosave runs; then this
// process prints "READY <recovery file>" and waits to be killed with SIGKILL, holding the recovery file's lock.
// Usage: fp8dash_autosave_crash_helper RECOVERY_DIR COMPARISON_FILE NOTE DRAFT
#include <QApplication>
#include <QSignalSpy>
#include <QStandardPaths>

#include <cstdio>

#include "fp8dash/ui/comparison_view.h"
#include "fp8dash/ui/main_window.h"
#include "fp8dash/ui/recovery_store.h"
#include "fp8dash/ui/review_view.h"

int main(int argc, char** argv) {
    if (argc != 5) {
        std::fprintf(stderr, "usage: %s RECOVERY_DIR COMPARISON_FILE NOTE DRAFT\n", argv[0]);
        return 2;
    }
    qputenv("QT_QPA_PLATFORM", "offscreen");
    qputenv("DBUS_SESSION_BUS_ADDRESS", "unix:path=/nonexistent/fp8dash-crash-helper-bus");
    QStandardPaths::setTestModeEnabled(true);
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("fp8dash-tests"));
    QApplication::setApplicationName(QStringLiteral("fp8dash-crash-helper"));
    fp8dash::ui::RecoveryStore::setDefaultDirectory(QString::fromLocal8Bit(argv[1]));
    fp8dash::ui::MainWindow window;
    window.show();
    QSignalSpy shown(&window, &fp8dash::ui::MainWindow::documentShown);
    window.openFileAsync(QString::fromLocal8Bit(argv[2]));
    if (!shown.wait(30000)) {
        std::fprintf(stderr, "the comparison did not open\n");
        return 1;
    }
    window.addNote(QString::fromLocal8Bit(argv[3]), QStringLiteral("gsm8k"), QStringLiteral("Ana"));
    window.comparisonView()->reviewView()->setDraft(QString::fromLocal8Bit(argv[4]));
    if (const auto s = window.autosaveNow(); !s) {
        std::fprintf(stderr, "autosave failed: %s\n", s.error().message.c_str());
        return 1;
    }
    std::printf("READY %s\n", window.recoveryFile().toLocal8Bit().constData());
    std::fflush(stdout);
    return QApplication::exec();  // until SIGKILL
}
