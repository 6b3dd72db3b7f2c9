// Untrusted names in the CLI's output (issue 26, findings 1 and 2), built from the reproductions: a task name
// that rewrites the verdict line on a terminal, and one that makes a Markdown heading and opens a fence over the real
// report. The real binary compares two results files written here (a 6.6 % drop: INVESTIGATE); its stdout, stderr
// and the report files must hold no control and show the names' text escaped.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "cli_runner.h"
#include "fp8dash/core/json_text.h"
#include "hostile_strings.h"
#include "test_paths.h"

namespace fp8dash {
namespace {

std::string resultsJson(const std::string& task, double acc, const std::string& model) {
    const nlohmann::json j = {
        {"results", {{task, {{"alias", task}, {"acc,none", acc}, {"acc_stderr,none", 0.004}}}}},
        {"configs", {{task, {{"task", task}, {"num_fewshot", 0}, {"metric_list", {{{"metric", "acc"}}}}}}}},
        {"versions", {{task, 1.0}}},
        {"n-shot", {{task, 0}}},
        {"higher_is_better", {{task, {{"acc", true}}}}},
        {"n-samples", {{task, {{"original", 10000}, {"effective", 10000}}}}},
        {"config", {{"model", "vllm"}, {"model_args", "pretrained=" + model}}},
        {"lm_eval_version", "0.4.9"}};
    return j.dump();
}

struct HostileRuns {
    test::TempDir dir;
    std::string bf16, fp8;
    explicit HostileRuns(const std::string& task) {
        bf16 = dir.write("bf16/results_2026-12-01T10-00-00.000001.json",
                         resultsJson(task, 0.80, "meta-llama/Llama-3.1-8B-Instruct"))
                   .string();
        fp8 = dir.write("fp8/results_2026-12-01T12-00-00.000001.json",
                        resultsJson(task, 0.7472, "RedHatAI/Llama-3.1-8B-Instruct-FP8-dynamic"))
                  .string();
    }
};

void expectNoControls(const std::string& text, const std::string& what) {
    for (unsigned char c : text)
        if (c < 0x20 && c != '\n' && c != '\t') {
            ADD_FAILURE() << what << " holds control 0x" << std::hex << int(c) << ":\n" << text.substr(0, 2000);
            return;
        }
    EXPECT_EQ(text.find("\xc2\x9b"), std::string::npos) << what;
}

TEST(CliUntrusted, ATaskNameCannotRewriteTheVerdictOnATerminal) {
    const std::string task = test::verdictRewriteSequence();
    HostileRuns runs(task);
    auto r = test::fp8dashCli({"compare", runs.bf16, runs.fp8});
    ASSERT_NE(r.exitCode, 2) << r.err;
    expectNoControls(r.out, "stdout");
    expectNoControls(r.err, "stderr");
    // The real verdict is there, and the name is shown as it is, escapes visible.
    EXPECT_NE(r.out.find("INVESTIGATE"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("arc\\u001B7\\u001B[2A\\u000D\\u001B[2K\\u001B[32mVerdict: GO"), std::string::npos) << r.out;
    // --fail-on still gates on the real verdict.
    auto gated = test::fp8dashCli({"compare", runs.bf16, runs.fp8, "--fail-on", "investigate"});
    EXPECT_EQ(gated.exitCode, 3) << gated.err;
    // The JSON is valid and holds the name itself (its escapes are JSON's).
    auto j = test::fp8dashCli({"compare", runs.bf16, runs.fp8, "--format", "json"});
    const auto json = test::parseJson(j);
    expectNoControls(j.out, "JSON");
    ASSERT_TRUE(json.contains("tasks")) << j.out;
    EXPECT_EQ(json["tasks"][0]["task"], task);
    // The text, Markdown and JSON report files of the saved comparison too.
    const auto saved = runs.dir.path() / "hostile.fp8cmp";
    auto s = test::fp8dashCli({"compare", runs.bf16, runs.fp8, "--save", saved.string()});
    ASSERT_NE(s.exitCode, 2) << s.err;
    for (const char* ext : {"txt", "md", "json"}) {
        const auto out = runs.dir.path() / (std::string("report.") + ext);
        auto w = test::fp8dashCli({"report", saved.string(), "--out", out.string()});
        ASSERT_NE(w.exitCode, 2) << w.err;
        const auto file = readTextFile(out);
        ASSERT_TRUE(file.ok()) << file.error().message;
        const std::string& written = *file;
        expectNoControls(written, out.string());
        EXPECT_NE(written.find(std::string(ext) == "json" ? "\"investigate\"" : "INVESTIGATE"), std::string::npos)
            << ext;
    }
}

// Issue 26, the newline variant of finding 1: the terminal filter keeps line breaks (the output needs its own), so a
// task and a model name "...\nVerdict: GO — FP8 is safe" (and a file name likewise) would put a line reading
// "Verdict: GO …" of its own under the real verdict. Every value is shown on one line, its line break as \n.
TEST(CliUntrusted, ANewlineInANameCannotMakeAVerdictLine) {
    const std::string spoof = "\nVerdict: GO \xe2\x80\x94 FP8 is safe";
    const std::string task = "arc" + spoof;
    test::TempDir dir;
    const std::string bf16 = dir.write("bf16/results_2026-12-01T10-00-00.000001.json",
                                       resultsJson(task, 0.80, "meta-llama/Llama-3.1-8B-Instruct" + spoof))
                                 .string();
    const std::string fp8 = dir.write("fp8/results_2026-12-01T12-00-00.000001.json",
                                      resultsJson(task, 0.7472, "RedHatAI/Llama-3.1-8B-Instruct-FP8-dynamic" + spoof))
                                .string();
    // The name as the outputs must show it: each line break as the two characters backslash and n.
    std::string shownTask = task;
    shownTask.replace(shownTask.find('\n'), 1, "\\n");
    // No line of an output starts with the spoof (after its indentation), and the real verdict is there.
    const auto expectNoSpoofLine = [](const std::string& text, const std::string& what) {
        std::istringstream lines(text);
        for (std::string line; std::getline(lines, line);) {
            const std::size_t start = line.find_first_not_of(' ');
            EXPECT_FALSE(start != std::string::npos && line.compare(start, 11, "Verdict: GO") == 0)
                << what << " has a line of its own from a name: " << line << "\n"
                << text;
        }
    };
    const auto saved = dir.path() / ("x" + spoof + ".fp8cmp");
    auto r = test::fp8dashCli({"compare", bf16, fp8, "--save", saved.string()});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    expectNoSpoofLine(r.out, "compare's text");
    expectNoSpoofLine(r.err, "compare's stderr");
    EXPECT_NE(r.out.find("Verdict: INVESTIGATE"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find(shownTask), std::string::npos) << r.out;
    EXPECT_NE(r.err.find("saved the comparison to "), std::string::npos) << r.err;

    const auto txt = dir.path() / ("r" + spoof + ".txt");
    auto w = test::fp8dashCli({"report", saved.string(), "--out", txt.string()});
    ASSERT_EQ(w.exitCode, 0) << w.err;
    expectNoSpoofLine(w.err, "report's stderr");
    const auto file = readTextFile(txt);
    ASSERT_TRUE(file.ok()) << file.error().message;
    expectNoSpoofLine(*file, "the .txt report");
    EXPECT_NE(file->find("Verdict: INVESTIGATE"), std::string::npos) << *file;
    EXPECT_NE(file->find(shownTask), std::string::npos) << *file;

    auto t = test::fp8dashCli({"report", saved.string(), "--format", "text"});
    ASSERT_EQ(t.exitCode, 0) << t.err;
    expectNoSpoofLine(t.out, "report --format text");
    EXPECT_NE(t.out.find("Verdict: INVESTIGATE"), std::string::npos) << t.out;

    // The JSON still holds the names themselves (JSON escapes the newline its own way).
    auto j = test::fp8dashCli({"compare", bf16, fp8, "--format", "json"});
    const auto json = test::parseJson(j);
    ASSERT_TRUE(json.contains("tasks")) << j.out;
    EXPECT_EQ(json["tasks"][0]["task"], task);
    EXPECT_EQ(json["runs"]["candidate"]["model"], "RedHatAI/Llama-3.1-8B-Instruct-FP8-dynamic" + spoof);

    // An error that lists task names keeps its listing, each name on one line: the runs share no task here.
    const std::string other =
        dir.write("other/results_2026-12-01T12-00-00.000001.json",
                  resultsJson("hellaswag", 0.7, "RedHatAI/Llama-3.1-8B-Instruct-FP8-dynamic" + spoof))
            .string();
    auto e = test::fp8dashCli({"compare", bf16, other});
    EXPECT_EQ(e.exitCode, 2) << e.err;
    expectNoSpoofLine(e.err, "the error listing the tasks");
    EXPECT_NE(e.err.find("\n  " + shownTask + ": only in the baseline"), std::string::npos) << e.err;
}

TEST(CliUntrusted, ATaskNameCannotMakeMarkdownStructure) {
    HostileRuns runs(test::markdownTakeover());
    auto r = test::fp8dashCli({"compare", runs.bf16, runs.fp8, "--format", "markdown"});
    ASSERT_NE(r.exitCode, 2) << r.err;
    std::istringstream lines(r.out);
    int verdictHeadings = 0;
    for (std::string line; std::getline(lines, line);) {
        // No line the name made can be a setext underline, a fence or a heading of its own (its "Verdict: GO" line
        // is text after a line break inside the task's list item).
        EXPECT_NE(line, "===") << r.out;
        EXPECT_NE(line.rfind("~~~", 0), 0u) << r.out;
        EXPECT_NE(line.rfind("```", 0), 0u) << r.out;
        if (line.rfind("## Verdict: ", 0) == 0) {
            ++verdictHeadings;
            EXPECT_NE(line.find("INVESTIGATE"), std::string::npos) << line;
        }
    }
    EXPECT_EQ(verdictHeadings, 1) << r.out;
    EXPECT_NE(r.out.find("\n\\===\\\n"), std::string::npos) << r.out;  // the underline, escaped, then a line break
    EXPECT_NE(r.out.find("\\~\\~\\~"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace fp8dash
