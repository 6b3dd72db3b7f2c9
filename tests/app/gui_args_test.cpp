// The desktop app's command line (app/gui_args.h), table-driven: files, --present, --new-instance, Qt's own options
// and the place to open at (--tab, --task, --candidate, each as "--name VALUE" or "--name=VALUE"), and what it refuses.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "gui_args.h"

namespace fp8dash::cli {
namespace {

using GuiArgList = std::vector<std::string>;

TEST(GuiArgs, FilesFlagsAndThePlace) {
    struct Case {
        GuiArgList args;
        GuiArgList files;
        std::string tab, task, candidate;
        bool present = false;
        bool newInstance = false;
    };
    const Case cases[] = {
        {{}, {}, "", "", ""},
        {{"a.fp8cmp"}, {"a.fp8cmp"}, "", "", ""},
        {{"a.fp8cmp", "b.fp8cmp"}, {"a.fp8cmp", "b.fp8cmp"}, "", "", ""},
        {{"a.fp8cmp", "--tab", "Offline evals"}, {"a.fp8cmp"}, "Offline evals", "", ""},
        {{"--tab=review", "a.fp8cmp"}, {"a.fp8cmp"}, "review", "", ""},
        {{"a.fp8cmp", "--task", "gsm8k", "--candidate", "FP8 W8A8"}, {"a.fp8cmp"}, "", "gsm8k", "FP8 W8A8"},
        {{"a.fp8cmp", "--candidate=FP8 W8A8 + FP8 KV (calibrated scales)", "--task=arc_challenge", "--tab", "capacity"},
         {"a.fp8cmp"},
         "capacity",
         "arc_challenge",
         "FP8 W8A8 + FP8 KV (calibrated scales)"},
        // A task named like an option or a file is the task: the value is the next argument, whatever it is.
        {{"--task", "--present", "a.fp8cmp"}, {"a.fp8cmp"}, "", "--present", ""},
        {{"--task", "b.fp8cmp", "a.fp8cmp"}, {"a.fp8cmp"}, "", "b.fp8cmp", ""},
        // Qt's options with a value: the value is not a file; the place still applies to the demo (no file).
        {{"-platform", "offscreen", "--tab", "Capacity"}, {}, "Capacity", "", ""},
        {{"-style", "fusion", "a.fp8cmp"}, {"a.fp8cmp"}, "", "", ""},
        {{"--present", "a.fp8cmp", "--tab", "Review"}, {"a.fp8cmp"}, "Review", "", "", true},
        {{"--new-instance", "a.fp8cmp"}, {"a.fp8cmp"}, "", "", "", false, true},
        // The same value twice is no contradiction.
        {{"a.fp8cmp", "--tab", "Review", "--tab=Review"}, {"a.fp8cmp"}, "Review", "", ""},
    };
    for (const Case& c : cases) {
        std::string joined;
        for (const auto& a : c.args) joined += "[" + a + "] ";
        const GuiArguments g = parseGuiArguments(c.args);
        EXPECT_FALSE(g.error) << joined << ": " << g.error.value_or("");
        EXPECT_EQ(g.files, c.files) << joined;
        EXPECT_EQ(g.tab, c.tab) << joined;
        EXPECT_EQ(g.task, c.task) << joined;
        EXPECT_EQ(g.candidate, c.candidate) << joined;
        EXPECT_EQ(g.present, c.present) << joined;
        EXPECT_EQ(g.newInstance, c.newInstance) << joined;
        EXPECT_EQ(g.hasPlace(), !c.tab.empty() || !c.task.empty() || !c.candidate.empty()) << joined;
    }
}

TEST(GuiArgs, WhatItRefusesNamesTheOption) {
    struct Case {
        GuiArgList args;
        std::string saying;  // the message names this
    };
    const Case cases[] = {
        {{"a.fp8cmp", "--tab"}, "--tab needs a value"},
        {{"a.fp8cmp", "--task"}, "--task needs a value"},
        {{"a.fp8cmp", "--candidate"}, "--candidate needs a value"},
        {{"a.fp8cmp", "--task="}, "--task needs a value"},
        {{"a.fp8cmp", "--tab", "Review", "--tab", "Capacity"}, "--tab is given twice"},
        {{"a.fp8cmp", "b.fp8cmp", "--task", "gsm8k"}, "one comparison file"},
        {{"--present", "a.fp8cmp", "b.fp8cmp"}, "--present takes at most one comparison file (got 2)"},
    };
    for (const Case& c : cases) {
        std::string joined;
        for (const auto& a : c.args) joined += "[" + a + "] ";
        const GuiArguments g = parseGuiArguments(c.args);
        ASSERT_TRUE(g.error) << joined;
        EXPECT_NE(g.error->find(c.saying), std::string::npos) << joined << ": " << *g.error;
    }
}

}  // namespace
}  // namespace fp8dash::cli
