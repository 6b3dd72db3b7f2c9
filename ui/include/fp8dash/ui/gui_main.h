#pragma once
// The GUI entry point for app/: builds the QApplication, hands the files to an fp8dash already running in this
// session when there is one (then returns at once; `--new-instance` among the arguments prevents it), offers the
// comparisons an earlier run left unsaved, opens the given comparison files (or the bundled demo when none is given
// and nothing was recovered) and runs the event loop. Call once, from the main thread.

#include <string>
#include <vector>

namespace fp8dash::ui {

// filesToOpen: *.fp8cmp paths (UTF-8); each opens in its own window. Returns the event loop's exit code.
int runGui(int argc, char** argv, const std::vector<std::string>& filesToOpen);

}  // namespace fp8dash::ui
