#pragma once
// The GUI entry point for app/: builds the QApplication, hands the files to an fp8dash already running in this
// session when there is one (then returns at once; `--new-instance` among the arguments prevents it), offers the
// comparisons an earlier run left unsaved, opens the given comparison files (or the bundled demo when none is given
// and nothing was recovered), optionally straight into presentation mode, and runs the event loop. Call once, from
// the main thread.

#include <string>
#include <vector>

#include "fp8dash/ui/open_place.h"

namespace fp8dash::ui {

class MainWindow;

// filesToOpen: *.fp8cmp paths (UTF-8); each opens in its own window. present (`fp8dash --present [FILE]`): the
// first window goes straight into presentation mode once its document is shown (the bundled demo when no file is
// given, so a demo works with nothing connected); leaving the presentation shows that window. Returns the event
// loop's exit code.
// place (`--tab`, `--task`, `--candidate`): where the first window opens its document (open_place.h); handed to the
// running instance with the files.
int runGui(int argc, char** argv, const std::vector<std::string>& filesToOpen, bool present = false,
           const OpenPlace& place = {});

// The windows runGui opens, without the QApplication and the event loop (for runGui and the tests): the first
// MainWindow (each deletes itself on close). A file a window already shows (a recovered one) is brought forward.
MainWindow* openStartupWindows(const std::vector<std::string>& filesToOpen, bool present, const OpenPlace& place = {});

// What the running instance does with what a later start handed over (SingleInstance::openRequested): each file in
// the window that shows it, else the front window when that loses nothing, else a new one; no files: the front
// window comes forward. present and place apply to the first file's window. Returns that window.
MainWindow* openHandedOver(const QStringList& files, bool present, const OpenPlace& place = {});

}  // namespace fp8dash::ui
