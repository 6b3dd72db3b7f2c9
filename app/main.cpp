// fp8dash entry: CLI subcommands without a display; otherwise the desktop app (the bundled demo when no file is
// given), or with --present straight into presentation mode. With no display at all, the plain `fp8dash` (and
// `fp8dash --present`) prints the verdict report in the terminal instead.
#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

#include "cli.h"
#ifdef FP8DASH_WITH_GUI
#include "fp8dash/ui/gui_main.h"
#endif

namespace {

[[maybe_unused]] bool haveDisplay() {
    for (const char* var : {"DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"}) {
        const char* v = std::getenv(var);
        if (v && *v) return true;
    }
    return false;
}

// The files to open: arguments that are not toolkit options (-style fusion, -platform xcb, ...).
std::vector<std::string> filesFromArguments(const std::vector<std::string>& args) {
    static const std::vector<std::string> kValued = {
        "-platform", "-style",        "-stylesheet",  "-qwindowgeometry",    "-display",      "-geometry",
        "-session",  "-qwindowtitle", "-qwindowicon", "-platformpluginpath", "-platformtheme"};
    std::vector<std::string> files;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        if (a.size() > 1 && a[0] == '-') {
            if (std::find(kValued.begin(), kValued.end(), a) != kValued.end()) ++i;
            continue;
        }
        files.push_back(a);
    }
    return files;
}

}  // namespace

int main(int argc, char** argv) {
    std::vector<std::string> args(argv + 1, argv + argc);
    try {
        if (fp8dash::cli::isCliInvocation(args)) return fp8dash::cli::run(args, std::cout, std::cerr);
        const bool present = std::find(args.begin(), args.end(), "--present") != args.end();
        const std::vector<std::string> files = filesFromArguments(args);
        if (present && files.size() > 1) {
            std::cerr << "fp8dash: --present takes at most one comparison file (got " << files.size()
                      << ")\nRun 'fp8dash --help' for usage.\n";
            return fp8dash::cli::kExitBadInput;
        }
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
        return fp8dash::ui::runGui(argc, argv, files, present);
#endif
    } catch (const std::exception& e) {
        std::cerr << "fp8dash: internal error: " << e.what() << "\n";
        return fp8dash::cli::kExitInternal;
    } catch (...) {
        std::cerr << "fp8dash: internal error\n";
        return fp8dash::cli::kExitInternal;
    }
}
