// fp8dash entry: CLI subcommands without a display; otherwise the desktop app (the bundled demo when no file is
// given), or with --present straight into presentation mode. With no display at all, the plain `fp8dash` (and
// `fp8dash --present`) prints the verdict report in the terminal instead.
#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

#include "cli.h"
#include "gui_args.h"
#ifdef FP8DASH_WITH_GUI
#include <QString>

#include "fp8dash/ui/gui_main.h"
#include "fp8dash/ui/open_place.h"
#endif

namespace {

[[maybe_unused]] bool haveDisplay() {
    for (const char* var : {"DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"}) {
        const char* v = std::getenv(var);
        if (v && *v) return true;
    }
    return false;
}

}  // namespace

int main(int argc, char** argv) {
    std::vector<std::string> args(argv + 1, argv + argc);
    try {
        if (fp8dash::cli::isCliInvocation(args)) return fp8dash::cli::run(args, std::cout, std::cerr);
        const fp8dash::cli::GuiArguments guiArgs = fp8dash::cli::parseGuiArguments(args);
        if (guiArgs.error) {
            std::cerr << "fp8dash: " << *guiArgs.error << "\nRun 'fp8dash --help' for usage.\n";
            return fp8dash::cli::kExitBadInput;
        }
        const bool present = guiArgs.present;
        const std::vector<std::string>& files = guiArgs.files;
#ifdef FP8DASH_WITH_GUI
        const bool gui = haveDisplay();
#else
        const bool gui = false;  // a CLI-only build (FP8DASH_BUILD_GUI=OFF)
#endif
        if (!gui) {
            std::cerr << "fp8dash: no display (DISPLAY and WAYLAND_DISPLAY are unset); printing the verdict report "
                      << (present ? "instead of presenting" : "instead of opening the window") << ".\n\n";
            return fp8dash::cli::printHeadless(files, std::cout, std::cerr);
        }
#ifdef FP8DASH_WITH_GUI
        return fp8dash::ui::runGui(argc, argv, files, present,
                                   {QString::fromStdString(guiArgs.tab), QString::fromStdString(guiArgs.task),
                                    QString::fromStdString(guiArgs.candidate)});
#endif
    } catch (const std::exception& e) {
        std::cerr << "fp8dash: internal error: " << e.what() << "\n";
        return fp8dash::cli::kExitInternal;
    } catch (...) {
        std::cerr << "fp8dash: internal error\n";
        return fp8dash::cli::kExitInternal;
    }
}
