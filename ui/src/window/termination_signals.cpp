#include "fp8dash/ui/termination_signals.h"

#include <QSocketNotifier>
#include <QWidget>

#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <thread>

#include <sys/socket.h>
#include <unistd.h>

#include "fp8dash/ui/background_job.h"
#include "fp8dash/ui/main_window.h"

namespace fp8dash::ui {
namespace {

int g_toGui[2] = {-1, -1};       // the signal handler writes [0]; the GUI thread's notifier reads [1]
int g_toWatchdog[2] = {-1, -1};  // the signal handler writes [0]; the watchdog reads [1]

void onTerminationSignal(int) {
    const char byte = 1;
    [[maybe_unused]] auto n = ::write(g_toGui[0], &byte, 1);
    n = ::write(g_toWatchdog[0], &byte, 1);
}

// What the GUI thread has done since the signal. Never destroyed: the watchdog may still wait on it while the process
// runs its exit handlers.
struct QuitState {
    std::mutex mutex;
    std::condition_variable changed;
    bool taken = false;      // the GUI thread took the signal
    bool autosaved = false;  // ... and every window autosaved
};
QuitState& quitState() {
    static auto* p = new QuitState;
    return *p;
}

void mark(bool QuitState::*what) {
    QuitState& p = quitState();
    {
        std::lock_guard lock(p.mutex);
        p.*what = true;
    }
    p.changed.notify_all();
}

// Waits for the signal, then for the GUI thread's autosave (however long a large document takes to write), then
// gives the normal exit kTerminationGraceMs before ending the process. Those waits are the bound itself, not a race:
// a process that exits normally before the grace ends never reaches _Exit.
void watchdog() {
    char byte = 0;
    while (::read(g_toWatchdog[1], &byte, 1) < 0 && errno == EINTR) {
    }
    const auto grace = std::chrono::milliseconds(kTerminationGraceMs);
    QuitState& p = quitState();
    std::unique_lock lock(p.mutex);
    if (!p.changed.wait_for(lock, grace, [&] { return p.taken; })) {
        std::fputs("fp8dash: the window did not answer the termination signal; quitting without a last autosave\n",
                   stderr);
        std::_Exit(1);
    }
    p.changed.wait(lock, [&] { return p.autosaved; });
    // A normal exit ends the process during this wait (the predicate only guards against spurious wake-ups).
    p.changed.wait_for(lock, grace, [] { return false; });
    // Still here: the exit waits for a worker (QApplication's destructor joins Qt's global thread pool).
    std::fputs("fp8dash: quitting without waiting for background work still running\n", stderr);
    std::fflush(stderr);
    std::_Exit(0);
}

}  // namespace

void quitOnTerminationSignals(QApplication& app) {
    if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, g_toGui) != 0 ||
        ::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, g_toWatchdog) != 0)
        return;
    auto* notifier = new QSocketNotifier(g_toGui[1], QSocketNotifier::Read, &app);
    QObject::connect(notifier, &QSocketNotifier::activated, &app, [notifier] {
        notifier->setEnabled(false);
        char byte = 0;
        [[maybe_unused]] const auto n = ::read(g_toGui[1], &byte, 1);
        mark(&QuitState::taken);
        for (MainWindow* window : MainWindow::windows()) (void)window->autosaveNow();
        // Every job stops at its next check and its result is dropped; work that never checks is not waited for.
        for (QWidget* top : QApplication::topLevelWidgets())
            for (BackgroundJob* job : top->findChildren<BackgroundJob*>()) job->cancel();
        mark(&QuitState::autosaved);
        QApplication::quit();
    });
    std::thread(watchdog).detach();
    struct sigaction action {};
    action.sa_handler = onTerminationSignal;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    ::sigaction(SIGTERM, &action, nullptr);
    ::sigaction(SIGINT, &action, nullptr);
}

}  // namespace fp8dash::ui
