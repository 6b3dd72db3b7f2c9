#pragma once
// The GUI entry point for app/: builds the QApplication, hands the files to an fp8dash already running in this
// session when there is one (then returns at once; `--new-instance` among the arguments prevents it), offers the
// comparisons an earlier run left unsaved, opens the given comparison files (or the bundled demo when none is given
// and nothing was recovered), optionally straight into presentation mode, and runs the event loop. Call once, from
// the main thread.

#include <string>
#include <vector>

namespace fp8dash::ui {

class MainWindow;

// filesToOpen: *.fp8cmp paths (UTF-8); each opens in its own window. present (`fp8dash --present [FILE]`): the
// first window goes straight into presentation mode once its document is shown (the bundled demo when no file is
// given, so a demo works with nothing connected); leaving the presentation shows that window. Returns the event
// loop's exit code.
int runGui(int argc, char** argv, const std::vector<std::string>& filesToOpen, bool present = false);

// The windows runGui opens, without the QApplication and the event loop (for runGui and the tests): the first
// MainWindow (each deletes itself on close). A file a window already shows (a recovered one) is brought forward.
MainWindow* openStartupWindows(const std::vector<std::string>& filesToOpen, bool present);

}  // namespace fp8dash::ui
