#pragma once
// The desktop app's command line (no subcommand): comparison files, --present, --new-instance, the toolkit's own
// options (-platform xcb, -style fusion, ...) and the place to open at: --tab NAME, --task TASK, --candidate LABEL
// (each also as --name=VALUE). Which names exist is only known once the file is read; the window checks them
// (fp8dash/ui/open_place.h). Header-only, no Qt, so the CLI tests read it directly.

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

namespace fp8dash::cli {

struct GuiArguments {
    std::vector<std::string> files;
    bool present = false;
    bool newInstance = false;
    std::string tab;        // a tab's visible title, any case ("Offline evals", "capacity"); "" for none
    std::string task;       // a task of the Offline evals table
    std::string candidate;  // a candidate's label (the Offline evals tab's "Candidate:" picker)
    // What is wrong with the command line, for "fp8dash: <error>" (exit 2); nullopt when it is usable.
    std::optional<std::string> error;

    bool hasPlace() const { return !tab.empty() || !task.empty() || !candidate.empty(); }
};

inline GuiArguments parseGuiArguments(const std::vector<std::string>& args) {
    // Qt's options that take a value: the value is not a file.
    static const std::vector<std::string> kToolkitValued = {
        "-platform", "-style",        "-stylesheet",  "-qwindowgeometry",    "-display",      "-geometry",
        "-session",  "-qwindowtitle", "-qwindowicon", "-platformpluginpath", "-platformtheme"};
    GuiArguments out;
    const auto fail = [&out](std::string message) {
        if (!out.error) out.error = std::move(message);
    };
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        bool matched = false;
        for (const auto& [name, field] : {std::pair<const char*, std::string*>{"--tab", &out.tab},
                                          std::pair<const char*, std::string*>{"--task", &out.task},
                                          std::pair<const char*, std::string*>{"--candidate", &out.candidate}}) {
            const std::string option = name;
            std::optional<std::string> value;
            if (a == option) {
                if (i + 1 >= args.size()) {
                    fail(option + " needs a value (" + option + " NAME)");
                    matched = true;
                    break;
                }
                value = args[++i];
            } else if (a.rfind(option + "=", 0) == 0) {
                value = a.substr(option.size() + 1);
            } else {
                continue;
            }
            matched = true;
            if (value && value->empty()) fail(option + " needs a value, not an empty one");
            if (value && !field->empty() && *field != *value) fail(option + " is given twice");
            if (value) *field = *value;
            break;
        }
        if (matched) continue;
        if (a == "--present") {
            out.present = true;
        } else if (a == "--new-instance") {
            out.newInstance = true;
        } else if (a.size() > 1 && a[0] == '-') {
            if (std::find(kToolkitValued.begin(), kToolkitValued.end(), a) != kToolkitValued.end()) ++i;
        } else {
            out.files.push_back(a);
        }
    }
    if (out.present && out.files.size() > 1)
        fail("--present takes at most one comparison file (got " + std::to_string(out.files.size()) + ")");
    if (out.hasPlace() && out.files.size() > 1)
        fail("--tab, --task and --candidate open one comparison file at that place (got " +
             std::to_string(out.files.size()) + " files)");
    return out;
}

}  // namespace fp8dash::cli
