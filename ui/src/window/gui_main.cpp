#include "fp8dash/ui/gui_main.h"

#include <QApplication>
#include <QFileInfo>
#include <QIcon>
#include <QJsonObject>
#include <QTimer>

#include <clocale>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fstream>
#include <iostream>
#include <sstream>

#include <unistd.h>

#include "fp8dash/core/version.h"
#include "fp8dash/ui/main_window.h"
#include "fp8dash/ui/recovery_dialog.h"
#include "fp8dash/ui/recovery_store.h"
#include "fp8dash/ui/single_instance.h"
#include "fp8dash/ui/termination_signals.h"
#include "widgets/ui_style.h"

namespace fp8dash::ui {

namespace {

QIcon applicationIcon() {
    QIcon icon;
    for (int size : {48, 128, 256}) icon.addFile(QStringLiteral(":/icons/fp8dash-%1.png").arg(size), QSize(size, size));
    icon.addFile(QStringLiteral(":/icons/fp8dash.svg"));
    return icon;
}

bool hasFlag(int argc, char** argv, const char* flag) {
    for (int i = 1; i < argc; ++i)
        if (std::strcmp(argv[i], flag) == 0) return true;
    return false;
}

MainWindow* showNewWindow() {
    auto* window = new MainWindow;
    window->setAttribute(Qt::WA_DeleteOnClose);
    window->show();
    return window;
}

void presentWhenShown(MainWindow* window, const QString& path);

// Comparisons an earlier run left unsaved: offered before anything else opens. Returns how many were recovered.
int offerRecovery() {
    RecoveryStore store;
    const QList<RecoveryOrphan> orphans = store.orphans();
    if (orphans.isEmpty()) return 0;
    RecoveryDialog dialog(orphans);
    dialog.exec();
    int recovered = 0;
    for (const RecoveryOrphan& orphan : dialog.ticked()) {
        if (dialog.choice() == RecoveryDialog::Discard) {
            store.discard(orphan.file);
        } else if (dialog.choice() == RecoveryDialog::Recover && orphan.record) {
            MainWindow* window = showNewWindow();
            if (window->recover(orphan)) {
                ++recovered;
            } else {
                window->close();
            }
        }
    }
    return recovered;
}

// Presents `window`'s document once it is on screen (now, when it already is; a file loads off the GUI thread).
void presentWhenShown(MainWindow* window, const QString& path) {
    if (window->current() && !window->isLoading() && (path.isEmpty() || window->documentPath() == path)) {
        window->startPresentation();
        return;
    }
    QObject::connect(
        window, &MainWindow::documentShown, window, [window] { window->startPresentation(); },
        Qt::SingleShotConnection);
}

// Milliseconds since this process started: /proc/self/stat's start time (clock ticks after boot) against
// CLOCK_BOOTTIME, the clock it counts on. Resolution: one clock tick (10 ms); -1 when /proc is not there.
double msSinceProcessStart() {
    std::ifstream stat("/proc/self/stat");
    std::string line;
    if (!std::getline(stat, line)) return -1;
    const auto close = line.rfind(')');  // the command name may hold spaces and parentheses
    if (close == std::string::npos) return -1;
    std::istringstream fields(line.substr(close + 2));
    std::string field;
    for (int i = 3; i <= 22 && fields >> field; ++i) {
        if (i != 22) continue;
        timespec now{};
        ::clock_gettime(CLOCK_BOOTTIME, &now);
        const double started = std::strtod(field.c_str(), nullptr) / static_cast<double>(::sysconf(_SC_CLK_TCK));
        return (static_cast<double>(now.tv_sec) + static_cast<double>(now.tv_nsec) * 1e-9 - started) * 1000.0;
    }
    return -1;
}

// FP8DASH_STARTUP_PROBE=1 (the start-up benchmark, tests/benchmarks/README.md): once a window of `first` has painted a
// frame with its document in it, prints when that was, counted from the process' start, and quits. Watches the paint
// events of the whole application; exists only when asked for.
class StartupProbe : public QObject {
public:
    StartupProbe(MainWindow* window, double applicationAt, double windowAt)
        : QObject(qApp), m_window(window), m_applicationAt(applicationAt), m_windowAt(windowAt) {
        qApp->installEventFilter(this);
    }

protected:
    bool eventFilter(QObject* watched, QEvent* event) override {
        if (m_done || event->type() != QEvent::Paint || !watched->isWidgetType()) return false;
        auto* widget = static_cast<QWidget*>(watched);
        if (widget->window() != m_window || !m_window->current()) return false;
        m_done = true;
        const double paintedAt = msSinceProcessStart();
        // After this event the repaint manager paints the rest of the frame and flushes it; then the line.
        QTimer::singleShot(0, this, [this, paintedAt] {
            std::printf(
                "fp8dash: first frame painted %.0f ms after the process started (QApplication ready at %.0f ms, "
                "window with the document shown at %.0f ms, frame flushed at %.0f ms)\n",
                paintedAt, m_applicationAt, m_windowAt, msSinceProcessStart());
            std::fflush(stdout);
            QCoreApplication::exit(0);
        });
        return false;
    }

private:
    MainWindow* m_window;
    double m_applicationAt;
    double m_windowAt;
    bool m_done = false;
};

}  // namespace

MainWindow* openHandedOver(const QStringList& files, bool present, const OpenPlace& place) {
    MainWindow* front = qobject_cast<MainWindow*>(QApplication::activeWindow());
    if (!front && !MainWindow::windows().isEmpty()) front = MainWindow::windows().constLast();
    if (!front) front = showNewWindow();
    if (files.isEmpty()) {
        front->show();
        front->raise();
        front->activateWindow();
        goToPlaceWhenShown(front, {}, place);
        if (present) presentWhenShown(front, {});
        return front;
    }
    MainWindow* first = nullptr;
    for (const QString& file : files) {
        front = front->openFile(file);
        if (!first) first = front;
    }
    goToPlaceWhenShown(first, files.first(), place);
    if (present) presentWhenShown(first, files.first());
    return first;
}

MainWindow* openStartupWindows(const std::vector<std::string>& filesToOpen, bool present, const OpenPlace& place) {
    MainWindow* first = nullptr;
    const auto open = [&](const std::string* file) {
        if (file) {
            // Shown already (recovered just now): that window, not a second copy.
            const QString absolute = QFileInfo(QString::fromStdString(*file)).absoluteFilePath();
            if (MainWindow* showing = MainWindow::windowShowing(absolute)) {
                showing->raise();
                if (!first) {
                    first = showing;
                    goToPlaceWhenShown(showing, absolute, place);
                    if (present) presentWhenShown(showing, absolute);
                }
                return;
            }
        }
        auto* window = new MainWindow;
        window->setAttribute(Qt::WA_DeleteOnClose);
        if (!first) {
            first = window;
            // Once it shows this file (absolute, as the window names it), or the demo.
            goToPlaceWhenShown(window, file ? QFileInfo(QString::fromStdString(*file)).absoluteFilePath() : QString(),
                               place);
            // Into the presentation as soon as the document is on screen (a file loads off the GUI thread).
            if (present)
                QObject::connect(
                    window, &MainWindow::documentShown, window, [window] { window->startPresentation(); },
                    Qt::SingleShotConnection);
        }
        window->show();
        if (file) {
            window->openFileAsync(QString::fromStdString(*file));
        } else {
            window->openDemo();
        }
    };
    if (filesToOpen.empty()) open(nullptr);
    for (const std::string& file : filesToOpen) open(&file);
    return first;
}

int runGui(int argc, char** argv, const std::vector<std::string>& filesToOpen, bool present, const OpenPlace& place) {
    initUiResources();
    QApplication app(argc, argv);
    // QApplication adopts the user's C locale; core formats and parses numbers with printf/strtod (PromQL, JSON
    // numbers, times), which must keep '.' as the decimal point. Qt's own display formatting uses QLocale.
    std::setlocale(LC_NUMERIC, "C");
    QApplication::setApplicationName(QStringLiteral("fp8dash"));
    QApplication::setOrganizationName(QStringLiteral("fp8dash"));
    QApplication::setApplicationVersion(QStringLiteral(FP8DASH_VERSION));
    QApplication::setDesktopFileName(
        QStringLiteral("io.github.fp8dash.Fp8dash"));  // the .desktop file's id (packaging/)
    QApplication::setWindowIcon(applicationIcon());

    // Without a desktop environment Qt falls back to 9 pt, which is small on today's screens.
    QFont font = QApplication::font();
    if (font.pointSizeF() > 0 && font.pointSizeF() < 10) {
        font.setPointSizeF(10);
        QApplication::setFont(font);
    }

    QStringList files;
    for (const std::string& file : filesToOpen) files << QFileInfo(QString::fromStdString(file)).absoluteFilePath();

    // One fp8dash per session: a running one takes the files (a double-click in the file manager while it runs).
    auto* instance = new SingleInstance(&app);
    const bool single = !hasFlag(argc, argv, "--new-instance");
    const QString server = SingleInstance::defaultServerName();
    if (single) {
        if (const auto handed = SingleInstance::handOff(files, present, server, 3000, place)) {
            std::cout << "fp8dash: the running fp8dash (pid " << handed->pid << ") "
                      << (present ? "presents " : "opens ")
                      << (files.isEmpty() ? std::string(present ? "its comparison" : "its window")
                                          : std::to_string(handed->files) + " file(s)")
                      << "\n";
            return 0;
        }
    }
    QObject::connect(instance, &SingleInstance::openRequested, instance,
                     [](const QStringList& handed, bool handedPresent, const QJsonObject& handedPlace) {
                         openHandedOver(handed, handedPresent, OpenPlace::fromJson(handedPlace));
                     });
    quitOnTerminationSignals(app);

    const bool probe =
        std::getenv("FP8DASH_STARTUP_PROBE") && std::strcmp(std::getenv("FP8DASH_STARTUP_PROBE"), "1") == 0;
    const double applicationAt = probe ? msSinceProcessStart() : 0;
    const int recovered = offerRecovery();
    // With nothing asked for, the recovered windows are the start (the demo only when there are none).
    MainWindow* first = nullptr;
    if (!filesToOpen.empty() || recovered == 0 || present || !place.isEmpty())
        first = openStartupWindows(filesToOpen, present, place);
    if (probe && first) new StartupProbe(first, applicationAt, msSinceProcessStart());
    // Listen only now, with the windows built and the event loop about to run: a start that connects gets its answer
    // at once. Listening before the (slow, on a loaded machine) startup let a second start wait out handOff's reply
    // timeout and open a second window beside the first.
    if (single && !instance->listen(server)) {
        std::cerr << "fp8dash: cannot listen on " << server.toStdString()
                  << "; files opened from elsewhere start another fp8dash\n";
    }
    return QApplication::exec();
}

}  // namespace fp8dash::ui
