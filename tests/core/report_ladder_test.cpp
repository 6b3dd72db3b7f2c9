// The reports of several variants (report_document.h) on the generated ladder (tests/data/lm-eval-ladder) and the
// published Qwen3.5-27B set (tests/data/lm-eval-variants): every run named on the cover and in the footer, the "What
// each FP8 layer costs" section with each step's tasks, their figures and 95% intervals, and each evals table worst
// first. Expected figures and orders are computed here from the results files and expected.json (make_ladder.py's
// construction), not read back from fp8dash.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>

#include "fp8dash/core/comparison_builder.h"
#include "fp8dash/core/markdown_text.h"
#include "fp8dash/core/report_document.h"
#include "fp8dash/core/report_format.h"
#include "fp8dash/core/variant_text.h"
#include "test_paths.h"

namespace fp8dash {
namespace {

namespace fs = std::filesystem;

const fs::path kLadderDir = test::testData() / "lm-eval-ladder";
const fs::path kQwenDir = test::testData() / "lm-eval-variants" / "qwen3.5-27b";
// The ladder's runs by folder, with the labels fp8dash derives from their layers (variant_comparison_test checks
// those labels against the layers).
const std::vector<std::pair<std::string, std::string>> kLadderRuns = {
    {"bf16", "BF16"},
    {"w8a8", "FP8 W8A8"},
    {"w8a8-kv", "FP8 W8A8 + FP8 KV (scales 1.0)"},
    {"w8a8-kv-cal", "FP8 W8A8 + FP8 KV (calibrated scales)"}};

Result<BuiltComparison> buildRuns(const fs::path& root, const std::vector<std::string>& runs) {
    ComparisonInputs in;
    in.baselinePath = root / runs[0];
    in.candidatePath = root / runs[1];
    for (std::size_t k = 2; k < runs.size(); ++k) in.moreCandidatePaths.push_back(root / runs[k]);
    return buildComparison(in);
}

std::string twoDecimals(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2f", v);
    return std::string(buf) == "-0.00" ? "0.00" : buf;
}

std::vector<std::string> lines(const std::string& text) {
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string l; std::getline(in, l);) out.push_back(l);
    return out;
}

// The Markdown section under "## <title>" (to the next "## ").
std::vector<std::string> section(const std::string& md, const std::string& title) {
    std::vector<std::string> out;
    bool in = false;
    for (const auto& l : lines(md)) {
        if (l.rfind("## ", 0) == 0) {
            if (in) break;
            in = l == "## " + title;
            continue;
        }
        if (in) out.push_back(l);
    }
    return out;
}

// A table row's cells ("| a | b |" -> {"a", "b"}).
std::vector<std::string> cells(const std::string& row) {
    std::vector<std::string> out;
    std::string cur;
    for (std::size_t i = 1; i < row.size(); ++i) {
        if (row[i] == '|' && row[i - 1] != '\\') {
            out.push_back(cur.substr(cur.find_first_not_of(' ')));
            out.back().erase(out.back().find_last_not_of(' ') + 1);
            cur.clear();
        } else {
            cur += row[i];
        }
    }
    return out;
}

ReportContext context() {
    ReportContext ctx;
    ctx.source = "ladder.fp8cmp";
    ctx.generatedAt = "2026-12-07T10:00:00Z";
    ctx.toolVersion = "0.0.0-test";
    return ctx;
}

TEST(LadderReport, CoverAndFooterNameTheBaselineAndEveryVariant) {
    std::vector<std::string> dirs;
    for (const auto& [dir, label] : kLadderRuns) dirs.push_back(dir);
    auto built = buildRuns(kLadderDir, dirs);
    ASSERT_TRUE(built.ok()) << built.error().message;
    const std::string all = "BF16 vs FP8 W8A8, FP8 W8A8 + FP8 KV (scales 1.0), FP8 W8A8 + FP8 KV (calibrated scales)";
    const std::string md = reportToMarkdownDocument(built->document, built->decision, context());
    const std::string html = reportToHtml(built->document, built->decision, context());
    // The cover: every run in full.
    EXPECT_NE(md.find("- **Runs compared:** " + markdown::escape(all)), std::string::npos) << md.substr(0, 600);
    EXPECT_NE(html.find("<td>" + htmlEscape(all) + "</td>"), std::string::npos);
    // The footer and the PDF's page header: the same list (87 characters fit kRunningTitleChars).
    const auto footer = md.substr(md.rfind("\n---\n"));
    for (const auto& [dir, label] : kLadderRuns) {
        EXPECT_NE(footer.find(markdown::escape(label)), std::string::npos) << label << " not in " << footer;
        EXPECT_NE(reportRunningTitle(built->document).find(label), std::string::npos) << label;
    }
    EXPECT_EQ(reportRunningTitle(built->document), all);
    // One candidate: the title and the footer as before (no list).
    auto pair = buildRuns(kLadderDir, {"bf16", "w8a8"});
    ASSERT_TRUE(pair.ok()) << pair.error().message;
    EXPECT_EQ(reportRunningTitle(pair->document), reportTitle(pair->document));
    const std::string pairMd = reportToMarkdownDocument(pair->document, pair->decision, context());
    EXPECT_EQ(pairMd.find("Runs compared"), std::string::npos);
}

TEST(LadderReport, LongRunListsAreShortenedAtALabelWithTheCountLeftOut) {
    const std::vector<std::string> labels = {"FP8 W8A8", "FP8 W8A8 + FP8 KV (scales 1.0)",
                                             "FP8 W8A8 + FP8 KV (calibrated scales)"};
    EXPECT_EQ(variant_text::runsLineShort("BF16", labels, 200),
              "BF16 vs " + labels[0] + ", " + labels[1] + ", " + labels[2]);
    const std::string two = variant_text::runsLineShort("BF16", labels, 60);
    EXPECT_EQ(two, "BF16 vs " + labels[0] + ", " + labels[1] + " and 1 more");
    EXPECT_LE(two.size(), 60u);
    EXPECT_EQ(variant_text::runsLineShort("BF16", labels, 30), "BF16 vs FP8 W8A8 and 2 more");
    EXPECT_EQ(variant_text::runsLineShort("BF16", labels, 10), "BF16 vs 3 variants");
}

// "What each FP8 layer costs": each step's heading, then a row per task whose figure is -Δ% of the step's two runs
// (expected.json, from make_ladder.py's flips) and whose 95% interval holds it and is about as wide as a paired
// difference of proportions says (±1.96 · sd(d) / √n, d = the per-document difference, n = 1000).
TEST(LadderReport, LayerCostsSectionGivesEachStepsTasksWithTheirFiguresAndIntervals) {
    std::vector<std::string> dirs;
    std::map<std::string, std::string> dirOf;
    for (const auto& [dir, label] : kLadderRuns) dirs.push_back(dir), dirOf[label] = dir;
    auto built = buildRuns(kLadderDir, dirs);
    ASSERT_TRUE(built.ok()) << built.error().message;
    std::ifstream in(kLadderDir / "expected.json");
    const nlohmann::json e = nlohmann::json::parse(in);
    const std::string md = reportToMarkdownDocument(built->document, built->decision, context());
    const auto body = section(md, "What each FP8 layer costs");
    ASSERT_FALSE(body.empty()) << md;
    // The steps: two runs that differ in exactly one layer (make_ladder.py's ladder): 4 of them.
    const std::regex heading("^### (.+) → (.+) \\((.+)\\)$");
    std::size_t steps = 0, rows = 0;
    std::string from, to;
    for (const auto& l : body) {
        std::smatch m;
        if (std::regex_match(l, m, heading)) {
            // The label of "to" may hold a parenthesis: take the longest known label before " (".
            const std::string rest = m[2].str() + " (" + m[3].str() + ")";
            from = m[1].str();
            to.clear();
            for (const auto& [dir, label] : kLadderRuns)
                if (rest.rfind(label + " (", 0) == 0 && label.size() > to.size()) to = label;
            ASSERT_TRUE(dirOf.count(from)) << l;
            ASSERT_FALSE(to.empty()) << l;
            ++steps;
            continue;
        }
        if (l.rfind("| `", 0) != 0 || from.empty()) continue;
        const auto c = cells(l);
        ASSERT_EQ(c.size(), 5u) << l;
        const std::string task = c[0].substr(1, c[0].size() - 2);
        const std::string key = dirOf[from] + ">" + dirOf[to] + "/" + task;
        ASSERT_TRUE(e["pairs"].contains(key)) << key;
        const nlohmann::json& p = e["pairs"][key];
        const double delta = p["delta_pct"].get<double>();
        const std::string expected =
            -delta > 0.005 ? "costs " + twoDecimals(-delta) + "%"
                           : "changes by " + std::string(delta > 0.005 ? "+" : "") + twoDecimals(delta) + "%";
        EXPECT_EQ(c[1], expected) << key;
        // The interval, on the figure's scale: a cost's interval for a cost, the change's for a change.
        double lo = 0, hi = 0;
        ASSERT_EQ(std::sscanf(c[2].c_str(), "%lf to %lf%%", &lo, &hi), 2) << c[2];
        const double figure = -delta > 0.005 ? -delta : delta;
        EXPECT_LE(lo, figure + 0.005) << key;
        EXPECT_GE(hi, figure - 0.005) << key;
        const double n = 1000, b01 = p["b01"].get<double>(), b10 = p["b10"].get<double>();
        const double meanD = (b01 - b10) / n, varD = (b01 + b10) / n - meanD * meanD;
        const double half = 1.96 * std::sqrt(varD / n) * 100 / p["mean_from"].get<double>();
        EXPECT_NEAR((hi - lo) / 2, half, 0.25 * half) << key << ": " << c[2];
        EXPECT_EQ(c[3], "paired sample logs") << key;
        ++rows;
    }
    EXPECT_EQ(steps, 4u);
    EXPECT_EQ(rows, 8u);  // two tasks each
    // HTML and the text report carry the same section.
    const std::string html = reportToHtml(built->document, built->decision, context());
    EXPECT_NE(html.find("<h2>What each FP8 layer costs</h2>"), std::string::npos);
    const std::string text = reportToPlainText(built->document, built->decision);
    EXPECT_NE(text.find("What each FP8 layer costs"), std::string::npos);
    EXPECT_NE(text.find("costs " + twoDecimals(-e["pairs"]["w8a8>w8a8-kv/gsm8k"]["delta_pct"].get<double>()) + "%"),
              std::string::npos);
}

// Each candidate's evals table worst first, as the app and the forest plot: the verdict by the default thresholds
// (go below 0.5%, investigate above 1.5%) of each task's degradation from the results files, then the degradation; the
// file's order among equals.
TEST(LadderReport, EachEvalsTableIsWorstFirst) {
    const std::vector<std::pair<std::string, std::string>> runs = {
        {"bf16", "BF16"},
        {"fp8-kv", "BF16 + FP8 KV (scales 1.0)"},
        {"fp8-weights", "FP8 W8A8"},
        {"fp8-weights-kv", "FP8 W8A8 + FP8 KV (scales 1.0)"}};
    auto built = buildRuns(kQwenDir, {"bf16", "fp8-kv", "fp8-weights", "fp8-weights-kv"});
    ASSERT_TRUE(built.ok()) << built.error().message;
    const auto scores = [](const std::string& dir) {
        std::vector<std::pair<std::string, double>> out;  // in the file's order
        for (const auto& f : fs::directory_iterator(kQwenDir / dir)) {
            std::ifstream in(f.path());
            const auto j = nlohmann::ordered_json::parse(in);
            for (const auto& [task, r] : j["results"].items())
                for (const auto& [key, value] : r.items())
                    if (key.find("stderr") == std::string::npos && value.is_number()) {
                        out.emplace_back(task, value.get<double>());
                        break;
                    }
        }
        return out;
    };
    const auto base = scores("bf16");
    const std::string md = reportToMarkdownDocument(built->document, built->decision, context());
    bool differsFromFileOrder = false;
    for (std::size_t k = 1; k < runs.size(); ++k) {
        const auto cand = scores(runs[k].first);
        ASSERT_EQ(cand.size(), base.size());
        struct Row {
            std::string task;
            int band;
            double degradation;
        };
        std::vector<Row> expected;
        for (std::size_t i = 0; i < base.size(); ++i) {
            const double d = std::max(0.0, (base[i].second - cand[i].second) / std::fabs(base[i].second) * 100);
            expected.push_back({base[i].first, d < 0.5 ? 0 : d <= 1.5 ? 1 : 2, d});
        }
        std::vector<Row> sorted = expected;
        std::stable_sort(sorted.begin(), sorted.end(), [](const Row& a, const Row& b) {
            return a.band != b.band ? a.band > b.band : a.degradation > b.degradation + 1e-9;
        });
        std::vector<std::string> want, got;
        for (const auto& r : sorted) want.push_back(r.task);
        for (std::size_t i = 0; i < expected.size(); ++i) differsFromFileOrder |= expected[i].task != want[i];
        for (const auto& l : section(md, "Offline evals: " + runs[k].second))
            if (l.rfind("| `", 0) == 0) got.push_back(cells(l)[0].substr(1, cells(l)[0].size() - 2));
        EXPECT_EQ(got, want) << runs[k].second;
    }
    EXPECT_TRUE(differsFromFileOrder) << "the fixture no longer tests the order";
}

// The metric as a reader says it (readableMetric, the app's words), the results file's key beside it; the key alone
// where the words would only repeat it. The ladder's gsm8k reports exact_match under lm-eval's strict-match filter,
// arc_challenge acc with no filter (make_ladder.py).
TEST(LadderReport, MetricsAreReadableWithTheirKeyBeside) {
    auto built = buildRuns(kLadderDir, {"bf16", "w8a8"});
    ASSERT_TRUE(built.ok()) << built.error().message;
    const std::string md = reportToMarkdownDocument(built->document, built->decision, context());
    EXPECT_NE(md.find("| `gsm8k` | exact match (strict) · `exact_match,strict-match` |"), std::string::npos) << md;
    EXPECT_NE(md.find("| `arc_challenge` | `acc` |"), std::string::npos) << md;
}

}  // namespace
}  // namespace fp8dash
