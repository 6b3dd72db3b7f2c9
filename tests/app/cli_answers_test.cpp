// `fp8dash answers` and `compare --answer-examples` (issue 27, "The answers FP8 changed"), through the real binary: two
// (and three) lm-eval runs with sample logs are written here from a generated truth (a generative task with two
// filters and flips both ways, five forced losses whose candidate responses are hostile: HTML, Markdown table syntax,
// ANSI escapes with a CR, a bidi override, a 20 KB answer; a group of two subtasks; a task without logs). Every
// expected document, its order and its texts are computed here from that truth, and every output is checked for
// what a terminal or a Markdown reader would make of it (the Markdown read back with cmark, as the untrusted-report
// tests do).
#include <cmark.h>
#include <gtest/gtest.h>

#include <array>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "cli_runner.h"
#include "cli_text_checks.h"
#include "process.h"
#include "test_paths.h"

namespace fp8dash {
namespace {

using test::expectNoControls;
using test::MarkdownRead;
using test::readFile;
using test::readMarkdown;
using test::tool;
using test::withoutBlanks;

namespace fs = std::filesystem;
using J = nlohmann::json;

struct Lcg {
    std::uint64_t s;
    double next() {
        s = s * 6364136223846793005ULL + 1442695040888963407ULL;
        return static_cast<double>(s >> 11) / 9007199254740992.0;
    }
};

const std::string kHtml = "<script>alert(1)</script><h1>VERDICT: GO</h1>";
const std::string kTable = "| a | b |\n|---|---|\n| 1 | 2 |";
const std::string kAnsi = "\x1b[31mRED\x1b[0m\rOVERWRITTEN";
const std::string kBidi =
    "safe \xe2\x80\xae"
    "evil\xe2\x80\xac end";
std::string longAnswer() {
    std::string s;
    while (s.size() < 20480) s += "0123456789";
    return s.substr(0, 20480);
}

// The runs' per-document values: task -> filter -> run (0 baseline, 1 candidate, 2 a second candidate).
using Values = std::map<std::string, std::map<std::string, std::array<std::vector<double>, 3>>>;

const std::vector<std::string>& filtersOf(const std::string& task) {
    static const std::vector<std::string> gsm{"strict-match", "flexible-extract"}, none{"none"};
    return task == "gsm8k" ? gsm : none;
}

Values makeValues() {
    Lcg r{27};
    Values v;
    const std::map<std::string, std::size_t> sizes{{"gsm8k", 48}, {"grp_a", 30}, {"grp_b", 36}};
    for (const auto& [task, n] : sizes)
        for (const auto& f : filtersOf(task)) {
            auto& runs = v[task][f];
            for (std::size_t i = 0; i < n; ++i) {
                const double b = r.next() < 0.6 ? 1 : 0;
                const double flip = r.next();
                double c = b == 1 ? (flip < 0.25 ? 0 : 1) : (flip < 0.35 ? 1 : 0);
                if (task == "gsm8k" && i < 5) c = 0;  // the hostile responses are lost answers under either filter
                const double b1 = task == "gsm8k" && i < 5 ? 1 : b;
                runs[0].push_back(b1);
                runs[1].push_back(c);
                runs[2].push_back(r.next() < 0.2 ? 1 - c : c);
            }
        }
    return v;
}

std::string questionOf(const std::string& task, std::size_t i) {
    return "Question " + std::to_string(i) + " of " + task + (i == 2 ? "\nits second line" : "");
}
std::string targetOf(std::size_t i) {
    return "T" + std::to_string(i);
}
std::string responseOf(const std::string& task, int run, std::size_t i) {
    if (task == "gsm8k" && run == 1 && i < 4) return std::array{kHtml, kTable, kAnsi, kBidi}[i];
    return "Run " + std::to_string(run) + " on " + task + " doc " + std::to_string(i) + ":\nthe answer follows.";
}
std::string answerOf(const std::string& task, int run, const std::string& filter, std::size_t i, double value) {
    if (task == "gsm8k" && run == 1 && i == 4) return longAnswer();
    return value > 0.5 ? targetOf(i) : "wrong-" + filter + "-" + std::to_string(run);
}

double mean(const std::vector<double>& v) {
    double s = 0;
    for (double x : v) s += x;
    return v.empty() ? 0 : s / static_cast<double>(v.size());
}

// One run in lm-eval's layout: results_<date>.json and samples_<task>_<date>.jsonl (none for "nolog").
fs::path writeRun(const test::TempDir& dir, const std::string& name, int run, const Values& values) {
    const std::string date = "2026-12-05T1" + std::to_string(run) + "-00-00.000001";
    J results = J::object(), configs = J::object(), hib = J::object(), nSamples = J::object();
    std::vector<double> pooled;
    for (const auto& [task, byFilter] : values) {
        J row{{"alias", task}};
        J filterList = J::array();
        for (const auto& f : filtersOf(task)) {
            row["exact_match," + f] = mean(byFilter.at(f)[run]);
            row["exact_match_stderr," + f] = 0.02;
            filterList.push_back({{"name", f}, {"filter", J::array({{{"function", "take_first"}}})}});
        }
        results[task] = row;
        J cfg{{"task", task}, {"output_type", "generate_until"}};
        if (task == "gsm8k") cfg["filter_list"] = filterList;
        configs[task] = cfg;
        hib[task] = {{"exact_match", true}};
        const std::size_t n = byFilter.begin()->second[0].size();
        nSamples[task] = {{"original", n}, {"effective", n}};
        if (task != "gsm8k")
            pooled.insert(pooled.end(), byFilter.at("none")[run].begin(), byFilter.at("none")[run].end());
        std::string log;
        for (std::size_t i = 0; i < n; ++i)
            for (const auto& f : filtersOf(task)) {
                const double v = byFilter.at(f)[run][i];
                J line{{"doc_id", i},
                       {"doc", {{"question", questionOf(task, i)}}},
                       {"target", targetOf(i)},
                       {"arguments", {{"gen_args_0", {{"arg_0", "Q: " + questionOf(task, i) + "\nA:"}}}}},
                       {"resps", J::array({J::array({responseOf(task, run, i)})})},
                       {"filtered_resps", J::array({answerOf(task, run, f, i, v)})},
                       {"filter", f},
                       {"metrics", J::array({"exact_match"})},
                       {"doc_hash", "d" + task + std::to_string(i)},
                       {"prompt_hash", "p" + task + std::to_string(i)},
                       {"exact_match", v}};
                log += line.dump() + "\n";
            }
        dir.write(name + "/samples_" + task + "_" + date + ".jsonl", log);
    }
    results["nolog"] = {{"alias", "nolog"}, {"exact_match,none", 0.5 + 0.01 * run}, {"exact_match_stderr,none", 0.02}};
    configs["nolog"] = {{"task", "nolog"}, {"output_type", "generate_until"}};
    hib["nolog"] = {{"exact_match", true}};
    results["grp"] = {{"alias", "grp"}, {"exact_match,none", mean(pooled)}, {"exact_match_stderr,none", 0.02}};
    hib["grp"] = {{"exact_match", true}};
    J file{{"results", results},
           {"groups", {{"grp", results["grp"]}}},
           {"group_subtasks", {{"grp", {"grp_a", "grp_b"}}}},
           {"configs", configs},
           {"higher_is_better", hib},
           {"n-samples", nSamples},
           {"config",
            {{"model", "vllm"},
             {"model_args", run == 0   ? "pretrained=org/Model-8B"
                            : run == 1 ? "pretrained=org/Model-8B,quantization=fp8"
                                       : "pretrained=org/Model-8B,quantization=fp8,kv_cache_dtype=fp8"}}},
           {"model_name", "org/Model-8B"},
           {"lm_eval_version", "0.4.9"},
           {"date", 1796464800.0 + 3600.0 * run}};
    return dir.write(name + "/results_" + date + ".json", file.dump(1));
}

// The documents `answers` must list, in order: the lost (baseline right, candidate wrong) by doc_id, then the gained.
struct Expected {
    std::string subtask;
    std::size_t doc;
    bool lost;
    bool operator==(const Expected&) const = default;
};
std::vector<Expected> expectedOf(const Values& v, const std::vector<std::string>& tasks, const std::string& filter,
                                 int run) {
    std::vector<Expected> lost, gained;
    for (const auto& task : tasks) {
        const auto& runs = v.at(task).at(filter);
        for (std::size_t i = 0; i < runs[0].size(); ++i) {
            if (runs[0][i] > runs[run][i]) lost.push_back({tasks.size() > 1 ? task : "", i, true});
            if (runs[0][i] < runs[run][i]) gained.push_back({tasks.size() > 1 ? task : "", i, false});
        }
    }
    lost.insert(lost.end(), gained.begin(), gained.end());
    return lost;
}

class AnswersCli : public ::testing::Test {
protected:
    void SetUp() override {
        values = makeValues();
        bf16 = writeRun(dir, "bf16", 0, values).string();
        fp8 = writeRun(dir, "fp8", 1, values).string();
    }

    // The filter `answers` reports for gsm8k (one of the two), and the documents of that filter.
    std::string gsmFilter(const J& j) {
        const std::string f = j.value("filter", "");
        EXPECT_TRUE(f == "strict-match" || f == "flexible-extract") << f;
        return f == "flexible-extract" ? f : "strict-match";
    }

    // Each example in `j` is the expected document with both sides' texts as the logs hold them.
    void expectExamples(const J& j, const std::vector<Expected>& want, const std::string& filter, int run,
                        const std::string& what) {
        ASSERT_TRUE(j.contains("examples")) << what << j.dump(1).substr(0, 2000);
        const J& ex = j["examples"];
        ASSERT_EQ(ex.size(), want.size()) << what;
        for (std::size_t k = 0; k < want.size(); ++k) {
            const Expected& w = want[k];
            const std::string task = w.subtask.empty() ? "gsm8k" : w.subtask;
            const J& e = ex[k];
            ASSERT_EQ(e["doc_id"].get<std::size_t>(), w.doc) << what << " #" << k;
            EXPECT_EQ(e["kind"], w.lost ? "lost" : "gained") << what << " #" << k;
            EXPECT_EQ(e.value("subtask", ""), w.subtask) << what << " #" << k;
            EXPECT_EQ(e["question"], questionOf(task, w.doc)) << what << " #" << k;
            EXPECT_EQ(e["target"], targetOf(w.doc)) << what << " #" << k;
            for (const auto& [side, r] : {std::pair{"baseline", 0}, std::pair{"candidate", run}}) {
                const double v = values.at(task).at(filter)[r][w.doc];
                std::string answer = answerOf(task, r, filter, w.doc, v);
                if (answer.size() > 4096) answer = answer.substr(0, 4096) + "… [cut: 20,480 bytes in all]";
                EXPECT_EQ(e[side]["answer"], answer) << what << " #" << k << " " << side;
                EXPECT_EQ(e[side]["response"], responseOf(task, r, w.doc)) << what << " #" << k << " " << side;
                EXPECT_EQ(e[side]["value"].get<double>(), v) << what << " #" << k << " " << side;
            }
        }
    }

    test::TempDir dir;
    Values values;
    std::string bf16, fp8;
};

TEST_F(AnswersCli, FromTheRunsAndTheSavedFileTheChangedDocumentsLostFirst) {
    const auto runs = test::fp8dashCli({"answers", bf16, fp8, "--task", "gsm8k", "--format", "json"});
    ASSERT_EQ(runs.exitCode, 0) << runs.err;
    const J j = test::parseJson(runs);
    const std::string filter = gsmFilter(j);
    const auto want = expectedOf(values, {"gsm8k"}, filter, 1);
    // The two filters flip differently: listing the other filter's documents would fail.
    ASSERT_NE(expectedOf(values, {"gsm8k"}, filter == "strict-match" ? "flexible-extract" : "strict-match", 1), want);
    std::size_t lost = 0;
    for (const auto& w : want) lost += w.lost;
    EXPECT_EQ(j["lost"].get<std::size_t>(), lost);
    EXPECT_EQ(j["gained"].get<std::size_t>(), want.size() - lost);
    EXPECT_EQ(j["baseline_label"], "BF16");
    EXPECT_EQ(j["candidate_label"], "FP8");
    expectExamples(j, want, filter, 1, "runs");

    // Saved, then read back: the same documents. stderr says what the file holds.
    const std::string file = (dir.path() / "c.fp8cmp").string();
    const auto saved = test::fp8dashCli({"compare", bf16, fp8, "--save", file, "--format", "json"});
    ASSERT_TRUE(saved.exitCode == 0 || saved.exitCode == 3) << saved.err;
    const auto grp = expectedOf(values, {"grp_a", "grp_b"}, "none", 1);
    const std::string notice =
        "The file includes " + std::to_string(want.size() + grp.size()) + " changed answers from 2 tasks";
    EXPECT_NE(saved.err.find(notice), std::string::npos) << notice << "\n" << saved.err;
    const auto fromFile = test::fp8dashCli({"answers", file, "--task", "gsm8k", "--format", "json"});
    ASSERT_EQ(fromFile.exitCode, 0) << fromFile.err;
    expectExamples(test::parseJson(fromFile), want, filter, 1, "file");

    // --lost and --gained: only that kind, in the same order.
    for (const bool wantLost : {true, false}) {
        std::vector<Expected> kind;
        for (const auto& w : want)
            if (w.lost == wantLost) kind.push_back(w);
        const auto r = test::fp8dashCli(
            {"answers", file, "--task", "gsm8k", wantLost ? "--lost" : "--gained", "--format", "json"});
        ASSERT_EQ(r.exitCode, 0) << r.err;
        expectExamples(test::parseJson(r), kind, filter, 1, wantLost ? "--lost" : "--gained");
    }

    // A group: its subtasks' documents, each naming its subtask; every lost before any gained.
    const auto g = test::fp8dashCli({"answers", file, "--task", "grp", "--format", "json"});
    ASSERT_EQ(g.exitCode, 0) << g.err;
    const J gj = test::parseJson(g);
    std::set<std::tuple<bool, std::string, std::size_t>> wantSet, got;
    for (const auto& w : grp) wantSet.insert({w.lost, w.subtask, w.doc});
    bool seenGained = false;
    for (const auto& e : gj["examples"]) {
        const bool isLost = e["kind"] == "lost";
        EXPECT_FALSE(isLost && seenGained) << "a lost answer after a gained one";
        seenGained = seenGained || !isLost;
        got.insert({isLost, e["subtask"].get<std::string>(), e["doc_id"].get<std::size_t>()});
        const std::string sub = e["subtask"];
        const std::size_t doc = e["doc_id"];
        EXPECT_EQ(e["question"], questionOf(sub, doc));
        EXPECT_EQ(e["candidate"]["response"], responseOf(sub, 1, doc));
    }
    EXPECT_EQ(got, wantSet);

    // --answer-examples 5 on the runs: the first five lost, nothing gained.
    const auto five =
        test::fp8dashCli({"answers", bf16, fp8, "--task", "gsm8k", "--answer-examples", "5", "--format", "json"});
    ASSERT_EQ(five.exitCode, 0) << five.err;
    expectExamples(test::parseJson(five), std::vector<Expected>(want.begin(), want.begin() + 5), filter, 1, "5");
    // ... so --gained lists none, and says why.
    const auto noneGained =
        test::fp8dashCli({"answers", bf16, fp8, "--task", "gsm8k", "--answer-examples", "5", "--gained"});
    ASSERT_EQ(noneGained.exitCode, 0) << noneGained.err;
    EXPECT_NE(noneGained.out.find("Listed: none of the " + std::to_string(want.size() - lost) +
                                  " gained; 5 changed answers per task are kept at most, lost first"),
              std::string::npos)
        << noneGained.out;
    EXPECT_EQ(noneGained.out.find("doc_id"), std::string::npos) << noneGained.out;
}

TEST_F(AnswersCli, TextShowsEveryTextWithItsControlsVisible) {
    const auto r = test::fp8dashCli({"answers", bf16, fp8, "--task", "gsm8k"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    expectNoControls(r.out, "text");
    const auto j = test::parseJson(test::fp8dashCli({"answers", bf16, fp8, "--task", "gsm8k", "--format", "json"}));
    const auto want = expectedOf(values, {"gsm8k"}, gsmFilter(j), 1);
    // The listed doc_ids, in order.
    std::vector<std::size_t> listed;
    const std::regex item(R"(\n\[(\d+)/(\d+)\] doc_id (\d+): (lost|gained))");
    for (auto it = std::sregex_iterator(r.out.begin(), r.out.end(), item); it != std::sregex_iterator(); ++it) {
        listed.push_back(std::stoul((*it)[3]));
        EXPECT_EQ((*it)[4] == "lost", want[listed.size() - 1].lost);
    }
    std::vector<std::size_t> wantIds;
    for (const auto& w : want) wantIds.push_back(w.doc);
    EXPECT_EQ(listed, wantIds);
    EXPECT_NE(r.out.find("\\u001B[31mRED\\u001B[0m\\u000DOVERWRITTEN"), std::string::npos) << r.out.substr(0, 3000);
    EXPECT_NE(r.out.find("safe \\u202Eevil\\u202C end"), std::string::npos);
    EXPECT_NE(r.out.find(kHtml), std::string::npos);  // shown as the text it is
    // The 20 KB answer: its first 4096 bytes and the mark, never more.
    EXPECT_NE(r.out.find(longAnswer().substr(0, 4096) + "… [cut: 20,480 bytes in all]"), std::string::npos);
    EXPECT_EQ(r.out.find(longAnswer().substr(0, 4097)), std::string::npos);
    // A multi-line question keeps its line break, indented under its label.
    EXPECT_NE(r.out.find("  question:\n      Question 2 of gsm8k\n      its second line\n"), std::string::npos)
        << r.out.substr(0, 2500);
    EXPECT_NE(r.out.find("  FP8: value 0\n"), std::string::npos);
}

// The lines outside fenced code blocks that GitHub would read as a table's delimiter row.
std::vector<std::string> tableRowsOutsideFences(const std::string& md) {
    std::vector<std::string> rows;
    std::istringstream in(md);
    std::string line, fence;
    const std::regex delimiter(R"(^\s*\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)+\|?\s*$)");
    while (std::getline(in, line)) {
        const std::size_t ticks = line.find_first_not_of('`');
        const std::string run = line.substr(0, ticks == std::string::npos ? line.size() : ticks);
        if (fence.empty() && run.size() >= 3) {
            fence = run;
        } else if (!fence.empty()) {
            if (run.size() >= fence.size() && line.find_first_not_of("` ") == std::string::npos) fence.clear();
        } else if (std::regex_match(line, delimiter)) {
            rows.push_back(line);
        }
    }
    return rows;
}

TEST_F(AnswersCli, MarkdownMakesNoStructureOfTheTexts) {
    const auto r = test::fp8dashCli({"answers", bf16, fp8, "--task", "gsm8k", "--format", "markdown"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    expectNoControls(r.out, "markdown");
    const auto j = test::parseJson(test::fp8dashCli({"answers", bf16, fp8, "--task", "gsm8k", "--format", "json"}));
    const auto want = expectedOf(values, {"gsm8k"}, gsmFilter(j), 1);
    const MarkdownRead md = readMarkdown(r.out);
    EXPECT_TRUE(md.html.empty()) << md.html.front();
    // Our headings only: the title, and per document its own and one per run.
    ASSERT_EQ(md.headings.size(), 1 + 3 * want.size());
    EXPECT_EQ(md.headings[0], "Changed answers: gsm8k");
    for (std::size_t k = 0; k < want.size(); ++k) {
        EXPECT_EQ(md.headings[1 + 3 * k], std::to_string(k + 1) + ". doc_id " + std::to_string(want[k].doc) + ": " +
                                              (want[k].lost ? "lost" : "gained"));
        EXPECT_EQ(md.headings[2 + 3 * k].rfind("BF16: value ", 0), 0u) << md.headings[2 + 3 * k];
        EXPECT_EQ(md.headings[3 + 3 * k].rfind("FP8: value ", 0), 0u) << md.headings[3 + 3 * k];
    }
    // The responses are code blocks, shown as written (controls visible); the table syntax makes no table.
    const auto has = [&](const std::string& block) {
        return std::find(md.codeBlocks.begin(), md.codeBlocks.end(), block) != md.codeBlocks.end();
    };
    EXPECT_TRUE(has(kTable + "\n"));
    EXPECT_TRUE(has(kHtml + "\n"));
    EXPECT_TRUE(has("\\u001B[31mRED\\u001B[0m\\u000DOVERWRITTEN\n"));
    EXPECT_TRUE(has("safe \\u202Eevil\\u202C end\n"));
    EXPECT_TRUE(tableRowsOutsideFences(r.out).empty()) << tableRowsOutsideFences(r.out).front();
    EXPECT_EQ(r.out.find(longAnswer().substr(0, 4097)), std::string::npos);
}

TEST_F(AnswersCli, CountsOnlyAndWhatCannotBeShownSayWhy) {
    const std::string file = (dir.path() / "c.fp8cmp").string();
    auto saved = test::fp8dashCli({"compare", bf16, fp8, "--save", file});
    ASSERT_TRUE(saved.exitCode == 0 || saved.exitCode == 3) << saved.err;
    ASSERT_EQ(test::fp8dashCli({"answers", file, "--task", "gsm8k"}).exitCode, 0);
    // --answer-examples 0 onto the same file: the new evals replace the examples.
    saved = test::fp8dashCli({"compare", bf16, fp8, "--save", file, "--answer-examples", "0"});
    ASSERT_TRUE(saved.exitCode == 0 || saved.exitCode == 3) << saved.err;
    EXPECT_NE(saved.err.find("The file keeps only the counts of the changed answers (--answer-examples 0)"),
              std::string::npos)
        << saved.err;
    EXPECT_EQ(saved.err.find("The file includes"), std::string::npos) << saved.err;
    const J stored = J::parse(readFile(file));
    EXPECT_TRUE(stored["paired"]["gsm8k"]["examples"].empty());
    auto r = test::fp8dashCli({"answers", file, "--task", "gsm8k"});
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_TRUE(r.out.empty()) << r.out;
    EXPECT_NE(r.err.find("--answer-examples 0 was used: only the counts are saved"), std::string::npos) << r.err;

    // An older file, saved before the documents were kept: no examples and no limit.
    saved = test::fp8dashCli({"compare", bf16, fp8, "--save", file});
    J old = J::parse(readFile(file));
    ASSERT_FALSE(old["paired"]["gsm8k"]["examples"].empty());
    old["paired"]["gsm8k"].erase("examples");
    old["paired"]["gsm8k"].erase("examples_limit");
    const auto oldFile = dir.write("old.fp8cmp", old.dump(1)).string();
    r = test::fp8dashCli({"answers", oldFile, "--task", "gsm8k"});
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_NE(r.err.find("kept only the counts, not the documents"), std::string::npos) << r.err;

    // A hand-edited file whose paired result contradicts the runs' scores: left out of the comparison, and here.
    J edited = J::parse(readFile(file));
    edited["paired"]["gsm8k"]["baseline_mean"] = 0.01;
    const auto editedFile = dir.write("edited.fp8cmp", edited.dump(1)).string();
    r = test::fp8dashCli({"answers", editedFile, "--task", "gsm8k"});
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_TRUE(r.out.empty()) << r.out;
    EXPECT_NE(r.err.find("leaves the file's paired result out"), std::string::npos) << r.err;

    // An unknown task lists the paired ones; a task without logs says it was not paired.
    r = test::fp8dashCli({"answers", file, "--task", "nosuch"});
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_NE(r.err.find("no task \"nosuch\""), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("\n  gsm8k\n"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("\n  grp\n"), std::string::npos) << r.err;
    for (const std::vector<std::string>& args : {std::vector<std::string>{"answers", file, "--task", "nolog"},
                                                 std::vector<std::string>{"answers", bf16, fp8, "--task", "nolog"}}) {
        r = test::fp8dashCli(args);
        EXPECT_EQ(r.exitCode, 2);
        EXPECT_NE(r.err.find("\"nolog\" was not paired"), std::string::npos) << r.err;
        // Why: the file was compared without its logs; from the runs, the pairing's own note on the task.
        EXPECT_NE(r.err.find(args[1] == file ? "no paired result for it" : "no sample log for nolog"),
                  std::string::npos)
            << r.err;
    }
    r = test::fp8dashCli({"answers", file, "--task", "grp_a"});
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_NE(r.err.find("--task grp"), std::string::npos) << r.err;

    // Usage errors name the option.
    for (const std::string bad : {"-1", "x", "1.5", ""}) {
        r = test::fp8dashCli({"compare", bf16, fp8, "--answer-examples", bad});
        EXPECT_EQ(r.exitCode, 2) << bad;
        EXPECT_NE(r.err.find("--answer-examples \"" + bad + "\": expected a whole number"), std::string::npos) << r.err;
        r = test::fp8dashCli({"answers", bf16, fp8, "--task", "gsm8k", "--answer-examples", bad});
        EXPECT_EQ(r.exitCode, 2) << bad;
    }
    EXPECT_EQ(test::fp8dashCli({"answers", file}).exitCode, 2);
    EXPECT_EQ(test::fp8dashCli({"answers", file, "--task", "gsm8k", "--lost", "--gained"}).exitCode, 2);
    EXPECT_EQ(test::fp8dashCli({"answers", file, "--task", "gsm8k", "--answer-examples", "3"}).exitCode, 2);
}

TEST_F(AnswersCli, AnotherCandidateOfAVariantsFile) {
    const std::string kv = writeRun(dir, "fp8kv", 2, values).string();
    const std::string file = (dir.path() / "v.fp8cmp").string();
    const auto saved = test::fp8dashCli(
        {"compare", bf16, fp8, kv, "--label", "BF16", "--label", "W8", "--label", "W8 KV", "--save", file});
    ASSERT_TRUE(saved.exitCode == 0 || saved.exitCode == 3) << saved.err;
    for (const auto& [label, run] : {std::pair{"W8", 1}, std::pair{"W8 KV", 2}}) {
        const auto r = test::fp8dashCli({"answers", file, "--task", "gsm8k", "--candidate", label, "--format", "json"});
        ASSERT_EQ(r.exitCode, 0) << r.err;
        const J j = test::parseJson(r);
        EXPECT_EQ(j["candidate_label"], label);
        const std::string filter = gsmFilter(j);
        expectExamples(j, expectedOf(values, {"gsm8k"}, filter, run), filter, run, label);
    }
    const auto r = test::fp8dashCli({"answers", file, "--task", "gsm8k", "--candidate", "nope"});
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_NE(r.err.find("\n  W8\n  W8 KV"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace fp8dash
