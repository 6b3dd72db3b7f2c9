#pragma once
// SIGTERM (logout, `kill`) and SIGINT (Ctrl+C in the terminal it was started from): every window autosaves what is
// unsaved, every background job is cancelled, and the application quits without asking, so the next start offers the
// work back. The quit is bounded (issue 26): QApplication's destructor waits for Qt's global thread pool without a
// limit, so a worker computing on (a 10-million-iteration bootstrap, a stuck read) kept the app alive for minutes.
// Now the process ends at most kTerminationGraceMs after the autosave, whatever the workers do (their results would
// be dropped anyway); and if the GUI thread does not take the signal within kTerminationGraceMs (its event loop held
// up), the process ends without that last autosave (the periodic one holds the work up to its last change), exit 1.

#include <QApplication>

namespace fp8dash::ui {

inline constexpr int kTerminationGraceMs = 1500;

// Installs the handlers; call once, before QApplication::exec(). The signal handler only writes a byte to two sockets:
// one wakes the GUI thread (autosave, cancel, quit), the other a watchdog thread that bounds what follows.
void quitOnTerminationSignals(QApplication& app);

}  // namespace fp8dash::ui
