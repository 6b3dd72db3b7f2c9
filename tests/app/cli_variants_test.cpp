// `fp8dash compare BASELINE CANDIDATE [CANDIDATE ...]`: the variants' JSON, text and Markdown, --label, --accept,
// --min-recovery, --fail-on on the recommended variant, --save, and the usage errors (exit 2). Figures are checked
// against the ladder's construction (tests/data/lm-eval-ladder/expected.json) and the published table
// (tests/data/lm-eval-variants/SOURCES.md).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli_runner.h"
#include "fp8dash/core/comparison_file.h"
#include "test_paths.h"

namespace fp8dash {
namespace {

using test::fp8dashCli;  // (a unity build had these from another file; a plain build needs them here)
using test::parseJson;

std::string ladder(const char* run) {
    return (test::testData() / "lm-eval-ladder" / run).string();
}
std::string qwen(const char* run) {
    return (test::testData() / "lm-eval-variants/qwen3.5-27b" / run).string();
}

TEST(CliVariants, JsonHasEveryVariantTheStepsAndTheRecommendation) {
    auto r = fp8dashCli({"compare", ladder("bf16"), ladder("w8a8"), ladder("w8a8-kv"), ladder("w8a8-kv-cal"),
                         "--accept", "monitor", "--format", "json"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto j = parseJson(r);
    ASSERT_EQ(j["variants"].size(), 3u);
    EXPECT_EQ(j["baseline"]["label"], "BF16");
    const auto& kv = j["variants"][1];
    EXPECT_EQ(kv["label"], "FP8 W8A8 + FP8 KV (scales 1.0)");
    EXPECT_EQ(kv["layers"]["weights"]["value"], "fp8");
    EXPECT_EQ(kv["layers"]["kv_cache"]["value"], "fp8");
    EXPECT_EQ(kv["layers"]["kv_scales"]["value"], "1.0");
    EXPECT_EQ(kv["layers"]["activations"]["value"], "fp8");
    EXPECT_EQ(kv["verdict"], "investigate");
    EXPECT_EQ(kv["worst_task"], "gsm8k");
    EXPECT_EQ(kv["tasks"].size(), 2u);
    EXPECT_TRUE(kv["tasks"][0].contains("paired"));
    std::ifstream in(test::testData() / "lm-eval-ladder/expected.json");
    const auto e = nlohmann::json::parse(in);
    const double b = e["means"]["bf16/gsm8k"], c = e["means"]["w8a8-kv/gsm8k"];
    EXPECT_DOUBLE_EQ(kv["tasks"][0]["delta_pct"].get<double>(), (c - b) / b * 100);
    // Steps with the labels and the one layer changed.
    bool kvStep = false;
    for (const auto& s : j["steps"])
        if (s["from"] == "FP8 W8A8" && s["to"] == "FP8 W8A8 + FP8 KV (scales 1.0)") {
            kvStep = true;
            EXPECT_EQ(s["layers_changed"], nlohmann::json::array({"kv_cache"}));
            EXPECT_EQ(s["tasks"][0]["task"], "gsm8k");
            EXPECT_TRUE(s["tasks"][0]["paired"].get<bool>());
            const auto& pair = e["pairs"]["w8a8>w8a8-kv/gsm8k"];
            EXPECT_NEAR(s["tasks"][0]["delta_pct"].get<double>(), pair["delta_pct"].get<double>(), 1e-9);
            EXPECT_EQ(s["tasks"][0]["ci95_pct"].size(), 2u);
        }
    EXPECT_TRUE(kvStep) << j["steps"].dump();
    EXPECT_EQ(j["recommendation"]["label"], "FP8 W8A8 + FP8 KV (calibrated scales)");
    EXPECT_EQ(j["recommendation"]["accept"], "monitor");
    EXPECT_TRUE(j["recommendation"]["min_recovery_pct"].is_null());
    ASSERT_EQ(j["recommendation"]["rejected"].size(), 1u);
    EXPECT_EQ(j["recommendation"]["rejected"][0]["task"], "gsm8k");
    EXPECT_EQ(j["verdict"], "monitor");
}

TEST(CliVariants, FailOnAppliesToTheDecidingVariant) {
    const std::vector<std::string> runs{"compare", ladder("bf16"), ladder("w8a8"), ladder("w8a8-kv")};
    // --accept go: W8A8 (0.53%, monitor) and scales 1.0 (3.16%) both fail. The verdict is the best variant's, W8A8's
    // monitor (issue 39: a candidate beside it never makes the decision worse): --fail-on investigate passes,
    // --fail-on monitor fails.
    auto args = runs;
    args.insert(args.end(), {"--no-sample-logs"});
    auto investigate = args;
    investigate.insert(investigate.end(), {"--fail-on", "investigate"});
    EXPECT_EQ(fp8dashCli(investigate).exitCode, 0);
    auto monitor = args;
    monitor.insert(monitor.end(), {"--fail-on", "monitor"});
    EXPECT_EQ(fp8dashCli(monitor).exitCode, 3);
    // --accept monitor: W8A8 passes; its verdict is monitor, below --fail-on investigate.
    investigate.insert(investigate.end(), {"--accept", "monitor"});
    EXPECT_EQ(fp8dashCli(investigate).exitCode, 0);
}

TEST(CliVariants, TextAndMarkdownShowTheTableStepsAndRecommendation) {
    auto r = fp8dashCli({"compare", qwen("bf16"), qwen("fp8-kv"), qwen("fp8-weights"), qwen("fp8-weights-kv"),
                         "--label", "BF16", "--label", "KV", "--label", "W", "--label", "W+KV"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(r.out.find("Recommendation: W+KV (gate: GO only)"), std::string::npos) << r.out;
    // aime25 92.0 of 92.7 recovers 99.24%; the average row of W+KV is 100.00%.
    EXPECT_NE(r.out.find("0.9200 (99.24%) monitor"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("Average recovery"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("BF16 → KV (adding the FP8 KV cache (scales 1.0))"), std::string::npos) << r.out;
    auto md = fp8dashCli(
        {"compare", qwen("bf16"), qwen("fp8-kv"), qwen("fp8-weights"), qwen("fp8-weights-kv"), "--format", "markdown"});
    ASSERT_EQ(md.exitCode, 0) << md.err;
    EXPECT_NE(md.out.find("## Recommendation: **FP8 W8A8 + FP8 KV (scales 1.0)**"), std::string::npos) << md.out;
    EXPECT_EQ(md.out.rfind("# BF16 vs 3 variants: Qwen/Qwen3.5-27B\n", 0), 0u) << md.out;
    EXPECT_NE(md.out.find("| Task |"), std::string::npos) << md.out;
    EXPECT_NE(md.out.find("## What each FP8 layer costs (layer steps)"), std::string::npos) << md.out;
}

// Runs of text in a line, split where two spaces or more stand: {end column, text}.
std::vector<std::pair<std::size_t, std::string>> cellsOf(const std::string& line) {
    std::vector<std::pair<std::size_t, std::string>> cells;
    for (std::size_t i = line.find_first_not_of(' '); i != std::string::npos;) {
        const std::size_t end = std::min(line.find("  ", i), line.size());
        cells.push_back({end, line.substr(i, end - i)});
        i = line.find_first_not_of(' ', end);
    }
    return cells;
}

// The text matrix with the ladder's long derived labels: the cells are right-aligned under their headers, two spaces
// at least apart, and each long label wraps within its column (its header lines, joined, give the label back).
TEST(CliVariants, TheTextMatrixWrapsLongLabelsWithinTheirColumns) {
    auto r = fp8dashCli({"compare", ladder("bf16"), ladder("w8a8"), ladder("w8a8-kv"), ladder("w8a8-kv-cal")});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto at = r.out.find("\nVariants (each cell");
    ASSERT_NE(at, std::string::npos) << r.out;
    std::vector<std::string> lines;
    std::istringstream in(r.out.substr(r.out.find('\n', at + 1) + 1));
    for (std::string l; std::getline(in, l) && !l.empty();) lines.push_back(l);
    // Two header lines, the two tasks, the average recovery and the verdict rows.
    ASSERT_EQ(lines.size(), 6u) << r.out;
    EXPECT_EQ(lines[2].rfind("  gsm8k ", 0), 0u) << r.out;
    // The task rows: the task and five cells, each column ending at the same character in every row.
    const auto gsm8k = cellsOf(lines[2]);
    ASSERT_EQ(gsm8k.size(), 5u) << lines[2];
    EXPECT_EQ(gsm8k[2].second, "0.7560 (99.47%) monitor");
    std::vector<std::size_t> ends;
    for (std::size_t c = 1; c < gsm8k.size(); ++c) ends.push_back(gsm8k[c].first);
    const auto arc = cellsOf(lines[3]);
    ASSERT_EQ(arc.size(), 5u) << lines[3];
    for (std::size_t c = 1; c < arc.size(); ++c) EXPECT_EQ(arc[c].first, ends[c - 1]) << lines[3];
    // The headers: each piece ends at its column's end; a column's pieces, top to bottom, are its label.
    const std::vector<std::string> labels = {"BF16", "FP8 W8A8", "FP8 W8A8 + FP8 KV (scales 1.0)",
                                             "FP8 W8A8 + FP8 KV (calibrated scales)"};
    std::vector<std::string> headers(ends.size());
    for (std::size_t h = 0; h < 2; ++h)
        for (const auto& [end, text] : cellsOf(lines[h])) {
            if (text == "Task") continue;
            const auto column = std::find(ends.begin(), ends.end(), end);
            ASSERT_NE(column, ends.end()) << "header piece \"" << text << "\" is not under a column\n" << r.out;
            auto& header = headers[static_cast<std::size_t>(column - ends.begin())];
            header += (header.empty() ? "" : " ") + text;
        }
    EXPECT_EQ(headers, labels) << r.out;
    for (const auto& l : lines) EXPECT_LE(l.size(), 110u) << l;
}

TEST(CliVariants, SaveAndReportGiveTheSameDecisionOffline) {
    const auto file = std::filesystem::temp_directory_path() / "fp8dash-cli-variants.fp8cmp";
    std::filesystem::remove(file);
    auto r = fp8dashCli({"compare", ladder("bf16"), ladder("w8a8"), ladder("w8a8-kv-cal"), "--accept", "monitor",
                         "--format", "json", "--save", file.string()});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    auto report = fp8dashCli({"report", file.string(), "--format", "json"});
    std::filesystem::remove(file);
    ASSERT_EQ(report.exitCode, 0) << report.err;
    auto a = parseJson(r), b = parseJson(report);
    EXPECT_EQ(a["recommendation"], b["recommendation"]);
    EXPECT_EQ(a["variants"].size(), b["variants"].size());
    EXPECT_EQ(b["recommendation"]["accept"], "monitor");
}

// The report of a saved several-candidate comparison: the variants section, each cell's value and recovery as the
// ladder was built (expected.json's means), the verdict from each variant's worst degradation, the recommendation,
// the FP8 configuration side by side and one evals section per variant; HTML has the same sections.
TEST(CliVariants, TheReportOfSeveralCandidatesSaysWhichLayersToEnable) {
    const auto dir = std::filesystem::temp_directory_path() / "fp8dash-cli-variants-report";
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    const auto file = dir / "ladder.fp8cmp";
    auto saved = fp8dashCli({"compare", ladder("bf16"), ladder("w8a8"), ladder("w8a8-kv"), ladder("w8a8-kv-cal"),
                             "--accept", "monitor", "--save", file.string()});
    ASSERT_EQ(saved.exitCode, 0) << saved.err;
    auto md = fp8dashCli({"report", file.string(), "--format", "markdown"});
    ASSERT_EQ(md.exitCode, 0) << md.err;
    const std::string& text = md.out;
    EXPECT_EQ(text.rfind("# BF16 vs 3 variants: meta-llama/Llama-3.1-8B-Instruct\n", 0), 0u) << text.substr(0, 200);
    EXPECT_NE(text.find("## Which FP8 layers to enable"), std::string::npos);
    EXPECT_NE(text.find("Recommendation: **FP8 W8A8 + FP8 KV (calibrated scales)** (gate: GO or MONITOR)"),
              std::string::npos);
    EXPECT_NE(text.find("## FP8 configuration"), std::string::npos);

    std::ifstream in(test::testData() / "lm-eval-ladder/expected.json");
    const auto e = nlohmann::json::parse(in);
    const auto cell = [&](const std::string& run, const std::string& task) {
        const double b = e["means"]["bf16/" + task], c = e["means"][run + "/" + task];
        const double degradation = (b - c) / b * 100;  // accuracy: higher is better
        const char* band = degradation < 0.5 ? "go" : degradation <= 1.5 ? "monitor" : "investigate";
        char buf[96];
        std::snprintf(buf, sizeof buf, "%.4f (%.2f%%) %s", c, c / b * 100, band);
        return std::string(buf);
    };
    const char* runs[] = {"w8a8", "w8a8-kv", "w8a8-kv-cal"};
    for (const char* task : {"gsm8k", "arc_challenge"}) {
        char base[32];
        std::snprintf(base, sizeof base, "%.4f", e["means"][std::string("bf16/") + task].get<double>());
        std::string row = std::string("| `") + task + "` | " + base;
        for (const char* run : runs) row += " | " + cell(run, task);
        row += " |";
        EXPECT_NE(text.find(row), std::string::npos) << row << "\nin\n" << text;
    }
    EXPECT_NE(text.find("| **Verdict** |  | **MONITOR (passes)** | **INVESTIGATE** | **MONITOR (passes)** |"),
              std::string::npos);
    for (const char* label : {"FP8 W8A8", "FP8 W8A8 + FP8 KV (scales 1.0)", "FP8 W8A8 + FP8 KV (calibrated scales)"})
        EXPECT_NE(text.find(std::string("## Offline evals: ") + label + "\n"), std::string::npos) << label;

    const auto html = dir / "ladder.html";
    auto written = fp8dashCli({"report", file.string(), "--out", html.string()});
    ASSERT_EQ(written.exitCode, 0) << written.err;
    std::ifstream h(html);
    const std::string page((std::istreambuf_iterator<char>(h)), std::istreambuf_iterator<char>());
    EXPECT_NE(page.find("<h2>Which FP8 layers to enable</h2>"), std::string::npos);
    EXPECT_NE(page.find("<h2>FP8 configuration</h2>"), std::string::npos);
    EXPECT_NE(page.find("FP8 W8A8 + FP8 KV (calibrated scales)</strong>"), std::string::npos);
    std::filesystem::remove_all(dir);
}

TEST(CliVariants, UsageErrorsExit2WithAClearMessage) {
    const auto fails = [](std::vector<std::string> args, const std::string& words) {
        auto r = fp8dashCli(args);
        EXPECT_EQ(r.exitCode, 2) << r.err;
        EXPECT_NE(r.err.find(words), std::string::npos) << r.err;
    };
    fails({"compare", ladder("bf16"), ladder("w8a8"), ladder("w8a8-kv"), "--label", "A", "--label", "B"},
          "--label given 2 times for 3 runs");
    fails(
        {"compare", ladder("bf16"), ladder("w8a8"), ladder("w8a8-kv"), "--label", "A", "--label", "B", "--label", "B"},
        "\"B\" is given twice");
    fails({"compare", ladder("bf16"), ladder("w8a8"), ladder("w8a8")}, "identical");
    fails({"compare", ladder("bf16"), ladder("bf16")}, "identical");
    fails({"compare", ladder("bf16"), ladder("w8a8"), ladder("w8a8-kv"), "--accept", "investigate"},
          "--accept \"investigate\": expected go or monitor");
    fails({"compare", ladder("bf16"), ladder("w8a8"), ladder("w8a8-kv"), "--min-recovery", "x"}, "--min-recovery");
    fails({"compare", ladder("bf16"), ladder("w8a8"), "--accept", "monitor"}, "choose among several candidates");
    std::vector<std::string> nine{"compare", ladder("bf16")};
    for (int i = 0; i < 9; ++i) nine.push_back(ladder("w8a8"));
    fails(nine, "8 candidates at most");
}

}  // namespace
}  // namespace fp8dash
