#pragma once
// The GUI entry point for app/: builds the QApplication, opens the given comparison files (or the bundled demo when
// none is given) and runs the event loop. Call once, from the main thread.

#include <string>
#include <vector>

namespace fp8dash::ui {

// filesToOpen: *.fp8cmp paths (UTF-8); each opens in its own window. Returns the event loop's exit code.
int runGui(int argc, char** argv, const std::vector<std::string>& filesToOpen);

}  // namespace fp8dash::ui
