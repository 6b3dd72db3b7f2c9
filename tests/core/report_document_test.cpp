// The whole-comparison report (report_document.h): HTML and Markdown goldens of a fixed input, and facts computed
// here from the files themselves. Goldens live in tests/data/reports/; FP8DASH_UPDATE_GOLDENS=1 rewrites them (the
// tests then skip, saying so); read the diff before committing.
#include "fp8dash/core/report_document.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <regex>
#include <sstream>

#include "report_test_document.h"
#include "test_http_server.h"  // base64Encode: an encoder independent of core's
#include "test_paths.h"

namespace fp8dash {
namespace {

const char* kSource = "tests/data/comparison-files/v1/paired-judge-control.fp8cmp";

std::string fakePng(const std::string& key) {
    return std::string("\x89PNG\r\n\x1a\n", 8) + "not really a PNG: " + key;
}

ReportContext fixedContext() {
    ReportContext ctx;
    ctx.source = kSource;
    ctx.generatedAt = "2026-12-02T09:30:00Z";
    ctx.toolVersion = "0.0.0-test";
    ctx.charts = {
        {"judge-distribution", "Domain judge: score distribution", "How many samples got each score.", fakePng("judge"),
         960, 480},
        {"timeline", "Production timeline", "Throughput and quality around the FP8 change.", fakePng("timeline"), 960,
         480},
        {"bench-kv", "KV-cache FP8 error by context length", "The error of an FP8 KV cache.", fakePng("kv"), 960, 480},
        {"bench-roofline", "GEMM roofline", "A chart whose section has no data (no GEMM rows).", fakePng("roof"), 960,
         480},
    };
    return ctx;
}

struct Rendered {
    ComparisonDocument doc;
    Decision decision;
    std::string html;
    std::string richText;
    std::string markdown;
};

const Rendered& rendered() {
    static const Rendered r = [] {
        Rendered out;
        out.doc = test::reportTestDocument();
        auto d = decide(out.doc);
        EXPECT_TRUE(d.ok()) << (d.ok() ? "" : d.error().message);
        out.decision = std::move(d).value();
        const ReportContext ctx = fixedContext();
        out.html = reportToHtml(out.doc, out.decision, ctx);
        out.richText = reportToHtml(out.doc, out.decision, ctx, ReportHtmlFlavour::RichText, 640);
        out.markdown = reportToMarkdownDocument(out.doc, out.decision, ctx);
        return out;
    }();
    return r;
}

std::string readFile(const std::filesystem::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

// Compares with the golden file, or rewrites it when FP8DASH_UPDATE_GOLDENS=1.
void checkGolden(const std::string& actual, const std::string& name) {
    const auto path = test::testData() / "reports" / name;
    const char* update = std::getenv("FP8DASH_UPDATE_GOLDENS");
    if (update && std::string(update) == "1") {
        std::filesystem::create_directories(path.parent_path());
        std::ofstream(path, std::ios::binary) << actual;
        GTEST_SKIP() << "rewrote " << path << " (FP8DASH_UPDATE_GOLDENS=1): review the diff";
    }
    ASSERT_TRUE(std::filesystem::exists(path)) << path << " is missing; run with FP8DASH_UPDATE_GOLDENS=1";
    const std::string golden = readFile(path);
    if (golden == actual) return;
    // The first differing line, to read the failure without a diff tool.
    std::istringstream a(actual), g(golden);
    std::string la, lg;
    int line = 1;
    while (std::getline(a, la) && std::getline(g, lg) && la == lg) ++line;
    FAIL() << name << " differs from the golden at line " << line << ":\n  golden: " << lg << "\n  actual: " << la
           << "\n(FP8DASH_UPDATE_GOLDENS=1 rewrites it when the change is intended)";
}

// The embedded images' bytes vary with the chart drawing; the golden keeps a placeholder.
std::string withoutImageBytes(const std::string& html) {
    static const std::regex data("data:image/png;base64,[A-Za-z0-9+/=]+");
    return std::regex_replace(html, data, "data:image/png;base64,(bytes)");
}

std::string pct3(double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%+.3f%%", v);
    return buf;
}

// The <tr> of the HTML's eval table whose first cell names the task (top-level rows have no arrow; each row is a
// link target, id "task-<name>": the names here need no escaping).
std::string htmlTaskRow(const std::string& html, const std::string& task) {
    const std::string marker = "<tr id=\"task-" + task + "\"><td><code>" + task + "</code></td>";
    const auto at = html.find(marker);
    if (at == std::string::npos) return "";
    return html.substr(at, html.find("</tr>", at) - at);
}

TEST(ReportDocument, HtmlGolden) {
    checkGolden(withoutImageBytes(rendered().html), "comparison-report.html");
}

TEST(ReportDocument, MarkdownGolden) {
    checkGolden(rendered().markdown, "comparison-report.md");
}

TEST(ReportDocument, RichTextGolden) {
    checkGolden(withoutImageBytes(rendered().richText), "comparison-report.richtext.html");
}

// Every compared task with its Δ% computed here from the results values of the file (the metric key the report
// chose, read straight from the JSON).
TEST(ReportDocument, EveryComparedTaskWithItsDeltaFromTheFile) {
    const Rendered& r = rendered();
    const Json file = Json::parse(readFile(test::reportTestDataFile("paired-judge-control.fp8cmp")));
    ASSERT_TRUE(r.decision.evals.has_value());
    ASSERT_EQ(r.decision.evals->tasks.size(), 3u);
    for (const auto& task : r.decision.evals->tasks) {
        const double b = file["runs"]["baseline"]["results"]["results"][task.task][task.metric].get<double>();
        const double c = file["runs"]["candidate"]["results"]["results"][task.task][task.metric].get<double>();
        const std::string delta = pct3((c - b) / b * 100);
        const std::string row = htmlTaskRow(r.html, task.task);
        ASSERT_FALSE(row.empty()) << task.task << " has no row";
        EXPECT_NE(row.find(">" + delta + "<"), std::string::npos) << task.task << ": " << delta << " in " << row;
        char value[32];
        std::snprintf(value, sizeof value, "%.4f", b);
        EXPECT_NE(row.find(value), std::string::npos) << task.task << " baseline " << value;
        // Markdown: the task's row, with the same Δ.
        const auto md = r.markdown.find("| `" + task.task + "` |");
        ASSERT_NE(md, std::string::npos) << task.task;
        const std::string mdRow = r.markdown.substr(md, r.markdown.find('\n', md) - md);
        EXPECT_NE(mdRow.find("| " + delta + " (noise ± "), std::string::npos) << mdRow;
    }
}

// A group's subtasks follow it, indented by depth (mmlu > mmlu_humanities > mmlu_philosophy in the seed pair).
TEST(ReportDocument, SubtasksIndentedBelowTheirGroup) {
    auto b = readLmEvalPath(test::testData() / "lm-eval/seed-pair/bf16");
    auto c = readLmEvalPath(test::testData() / "lm-eval/seed-pair/fp8");
    ASSERT_TRUE(b.ok() && c.ok());
    const ComparisonDocument doc = makeComparisonDocument({"BF16", "bf16", b.value()}, {"FP8", "fp8", c.value()}, {});
    auto d = decide(doc);
    ASSERT_TRUE(d.ok());
    const std::string html = reportToHtml(doc, *d, fixedContext());
    const std::string md = reportToMarkdownDocument(doc, *d, fixedContext());
    const auto group = html.find("<tr id=\"task-mmlu\"><td><code>mmlu</code></td>");
    const auto sub = html.find("<td class=\"indent1\">↳ <code>mmlu_humanities</code>");
    const auto subsub = html.find("<td class=\"indent2\">↳ <code>mmlu_philosophy</code>");
    ASSERT_NE(group, std::string::npos);
    ASSERT_NE(sub, std::string::npos);
    ASSERT_NE(subsub, std::string::npos);
    EXPECT_LT(group, sub);
    EXPECT_LT(sub, subsub);
    EXPECT_NE(md.find("| ↳ `mmlu_humanities` |"), std::string::npos);
    EXPECT_NE(md.find("| ↳ ↳ `mmlu_philosophy` |"), std::string::npos);
    EXPECT_NE(html.find("subtasks: shown, not counted toward the verdict"), std::string::npos);
    // The subtask's Δ% from its values in the two results files (the newest of each folder), computed here.
    const std::string metric = d->evals->tasks.front().subtasks.front().metric;
    const Json bf =
        Json::parse(readFile(test::testData() / "lm-eval/seed-pair/bf16/meta-llama__Meta-Llama-3.1-70B-Instruct/"
                                                "results_2026-11-20T10-00-00.000001.json"));
    const Json fp =
        Json::parse(readFile(test::testData() / "lm-eval/seed-pair/fp8/neuralmagic__Meta-Llama-3.1-70B-Instruct-FP8/"
                                                "results_2026-11-21T09-30-00.000001.json"));
    const double vb = bf["results"]["mmlu_humanities"][metric].get<double>();
    const double vc = fp["results"]["mmlu_humanities"][metric].get<double>();
    const std::string row = html.substr(sub, html.find("</tr>", sub) - sub);
    EXPECT_NE(row.find(">" + pct3((vc - vb) / vb * 100) + "<"), std::string::npos) << row;
}

TEST(ReportDocument, VerdictReviewAndWarnings) {
    const Rendered& r = rendered();
    // The timeline's alert fired after the change: the overall verdict is INVESTIGATE, shown red in a banner.
    ASSERT_TRUE(r.decision.verdict.has_value());
    EXPECT_EQ(*r.decision.verdict, Verdict::Investigate);
    EXPECT_NE(r.html.find("bgcolor=\"#c62828\""), std::string::npos);
    EXPECT_NE(r.html.find("<td class=\"title\">INVESTIGATE</td>"), std::string::npos);
    EXPECT_NE(r.html.find(htmlEscape(std::string(verdictAdvice(Verdict::Investigate)))), std::string::npos);
    for (const auto& reason : r.decision.reasons)
        EXPECT_NE(r.html.find(htmlEscape(reason)), std::string::npos) << reason;
    // The decision in force: Lee Chen's approval of "go", which overrides INVESTIGATE, recorded under MONITOR.
    EXPECT_NE(r.html.find("Approved: go"), std::string::npos);
    EXPECT_NE(r.html.find("Lee Chen"), std::string::npos);
    EXPECT_NE(r.html.find("2026-12-01 14:03 UTC"), std::string::npos);
    EXPECT_NE(r.html.find("The GSM8K drop is inside the noise floor of the control run."), std::string::npos);
    EXPECT_NE(r.html.find(htmlEscape("\"Approved: go\" overrides the evidence's verdict INVESTIGATE.")),
              std::string::npos);
    EXPECT_NE(r.html.find("the verdict was MONITOR when it was recorded and is INVESTIGATE now."), std::string::npos);
    // The earlier decision is listed too.
    EXPECT_NE(r.html.find("Earlier decisions"), std::string::npos);
    EXPECT_NE(r.html.find("Ana Ruiz"), std::string::npos);
    EXPECT_NE(r.markdown.find("Approved: monitor with quality alerting"), std::string::npos);
}

TEST(ReportDocument, EveryNoteEscaped) {
    const Rendered& r = rendered();
    ASSERT_EQ(r.doc.notes.size(), 4u);
    for (const Note& n : r.doc.notes) {
        const std::string firstLine = n.text.substr(0, n.text.find('\n'));
        EXPECT_NE(r.html.find(htmlEscape(firstLine)), std::string::npos) << firstLine;
        EXPECT_NE(r.html.find(htmlEscape(n.author)), std::string::npos) << n.author;
    }
    // Markup in a note is text, never markup.
    EXPECT_EQ(r.html.find("<b>gsm8k</b>"), std::string::npos);
    EXPECT_NE(
        r.html.find(
            "Check &lt;b&gt;gsm8k&lt;/b&gt; &amp; the &quot;flexible&quot; | filter&#39;s *score*<br>second line"),
        std::string::npos);
    EXPECT_NE(r.html.find("Mia &lt;QA&gt;"), std::string::npos);
    EXPECT_NE(r.html.find("edited 2026-12-01 15:30 UTC"), std::string::npos);
    // Markdown: escaped so that it renders as typed, and the table keeps its columns.
    EXPECT_NE(r.markdown.find("Check \\<b\\>gsm8k\\</b\\> \\& the \"flexible\" \\| filter's \\*score\\* second line"),
              std::string::npos);
}

TEST(ReportDocument, ChartsEmbeddedInTheirSections) {
    const Rendered& r = rendered();
    // Each image's bytes, base64-encoded by the test's own encoder, inside a data: URI in the right section.
    for (const char* key : {"judge", "timeline", "kv"}) {
        const std::string uri = "data:image/png;base64," + test::base64Encode(fakePng(key));
        EXPECT_NE(r.html.find("<img src=\"" + uri + "\""), std::string::npos) << key;
    }
    const auto judge = r.html.find("<section id=\"judge\">");
    const auto timeline = r.html.find("<section id=\"timeline\">");
    const auto bench = r.html.find("<section id=\"benchmarks\">");
    ASSERT_NE(judge, std::string::npos);
    ASSERT_NE(timeline, std::string::npos);
    ASSERT_NE(bench, std::string::npos);
    EXPECT_LT(judge, r.html.find("id=\"chart-judge-distribution\""));
    EXPECT_LT(r.html.find("id=\"chart-judge-distribution\""), timeline);
    EXPECT_LT(timeline, r.html.find("id=\"chart-timeline\""));
    EXPECT_LT(bench, r.html.find("id=\"chart-bench-kv\""));
    // The roofline has no GEMM rows to sit beside (a CPU run): it is left out.
    EXPECT_EQ(r.html.find("chart-bench-roofline"), std::string::npos);
    EXPECT_NE(r.html.find("alt=\"How many samples got each score.\""), std::string::npos);
    // Rich text names the images as resources instead, scaled to the width asked for.
    EXPECT_EQ(r.richText.find("data:image"), std::string::npos);
    EXPECT_NE(r.richText.find("<img src=\"" + chartResourceName("judge-distribution") +
                              "\" alt=\"How many samples "
                              "got each score.\" width=\"640\" height=\"320\">"),
              std::string::npos);
    // Print rules for the browser flavour.
    EXPECT_NE(r.html.find("@media print"), std::string::npos);
    EXPECT_NE(r.html.find("size: A4"), std::string::npos);
    EXPECT_NE(r.html.find("page-break-inside: avoid"), std::string::npos);
    // Markdown says where the charts are and gives the judge distribution as a table.
    EXPECT_NE(r.markdown.find("drawn in the HTML and PDF reports"), std::string::npos);
    EXPECT_NE(r.markdown.find("| Score | BF16 | FP8 |"), std::string::npos);
}

TEST(ReportDocument, JudgeDistributionCountsFromTheScoreFile) {
    const Rendered& r = rendered();
    // Counted here from the file's samples: the number of baseline scores equal to each value.
    const Json file = Json::parse(readFile(test::reportTestDataFile("paired-judge-control.fp8cmp")));
    std::map<int, int> baseline, candidate;
    for (const auto& s : file["judge"]["baseline"]["samples"])
        ++baseline[static_cast<int>(std::lround(s["score"].get<double>()))];
    for (const auto& s : file["judge"]["candidate"]["samples"])
        ++candidate[static_cast<int>(std::lround(s["score"].get<double>()))];
    for (int score = 1; score <= 5; ++score) {
        const std::string row = "| " + std::to_string(score) + " | " + std::to_string(baseline[score]) + " | " +
                                std::to_string(candidate[score]) + " |";
        EXPECT_NE(r.markdown.find(row), std::string::npos) << row;
    }
}

TEST(ReportDocument, TimelineFiguresComputedHere) {
    const Rendered& r = rendered();
    const TimelineData& data = *r.doc.timeline;
    double before = 0, after = 0;
    int nb = 0, na = 0;
    for (const Sample& s : data.throughput->samples) {
        if (s.t < test::kReportChangeAt)
            before += s.v, ++nb;
        else if (s.t >= test::kReportChangeAt + 300)
            after += s.v, ++na;
    }
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.1f (n=%d)", before / nb, nb);
    EXPECT_NE(r.html.find(buf), std::string::npos) << buf;
    std::snprintf(buf, sizeof buf, "%.1f (n=%d)", after / na, na);
    EXPECT_NE(r.html.find(buf), std::string::npos) << buf;
    std::snprintf(buf, sizeof buf, "%+.1f%%", (after / na - before / nb) / (before / nb) * 100);
    EXPECT_NE(r.html.find(buf), std::string::npos) << buf;
    // The alert fired: its firing time is in the alert table.
    ASSERT_FALSE(data.alerts.empty());
    ASSERT_TRUE(data.alerts.front().firingAt.has_value());
    EXPECT_NE(r.html.find(formatTimeUtc(*data.alerts.front().firingAt)), std::string::npos);
}

TEST(ReportDocument, CapacityTableFromTheModelShape) {
    const Rendered& r = rendered();
    // Llama 3.1 8B: 32 layers x 8 KV heads x head_dim 128, K and V: 2 bytes each in BF16, 1 in FP8.
    EXPECT_NE(r.html.find("<td class=\"r\">131,072 B</td><td class=\"r\">65,536 B</td>"), std::string::npos);
    EXPECT_NE(r.markdown.find("| KV bytes per token | 131,072 B | 65,536 B |"), std::string::npos);

    // The test document's section was saved before vLLM's accounting: its flat overhead is stated, no overhead row.
    ASSERT_TRUE(r.doc.capacity->vllmVersion.empty());
    EXPECT_NE(r.markdown.find("GiB per GPU; chosen:"), std::string::npos);
    EXPECT_EQ(r.markdown.find("| Runtime overhead |"), std::string::npos);
    // Made now: the overhead is vLLM's accounting, named in the paragraph and given per column in the table. Checked
    // against vLLM 0.19's own start-up log of this model on this GPU (fixtures/vllm-capacity, Llama-3.1-8B BF16 on
    // one H100): "1.89 GiB for peak activation, 0.25 GiB for non-torch memory", CUDA graphs not deducted: 2.14 GiB.
    ComparisonDocument now = r.doc;
    now.capacity->vllmVersion = "0.19";
    const std::string md = reportToMarkdownDocument(now, r.decision, fixedContext());
    EXPECT_NE(md.find("runtime overhead as vLLM 0.19 accounts it; chosen:"), std::string::npos);
    EXPECT_EQ(md.find("GiB per GPU; chosen:"), std::string::npos);
    const std::regex overheadRow(
        R"(\| Runtime overhead \| [0-9.]+ GB \(([0-9.]+) GiB\) \| [0-9.]+ GB \(([0-9.]+) GiB\) \|)");
    std::smatch m;
    ASSERT_TRUE(std::regex_search(md, m, overheadRow)) << md.substr(md.find("## KV-cache capacity"), 1500);
    EXPECT_NEAR(std::stod(m[1].str()), 1.89 + 0.25, 0.05);  // BF16 weights
    EXPECT_NEAR(std::stod(m[2].str()), 1.89 + 0.25, 0.05);  // FP8 weights: the activations are BF16 all the same

    ComparisonDocument local = r.doc;
    local.capacity->gpu = "local";
    const std::string html = reportToHtml(local, r.decision, fixedContext());
    EXPECT_NE(html.find("cannot be recomputed offline"), std::string::npos);
    EXPECT_EQ(html.find("KV bytes per token"), std::string::npos);
}

// Text as the Markdown report writes it: CommonMark's markup characters escaped with a backslash.
std::string mdEscaped(const std::string& text) {
    std::string out;
    for (char c : text) {
        if (std::string("\\`*_[]<>|#").find(c) != std::string::npos) out += '\\';
        out += c;
    }
    return out;
}

// The KV section: the headline (per_tensor at 4K, 0.0203 -> "2.0%"; none at 4K saturates 40 keys and 3 values), the
// table's new columns from the hand-written rows of h200KvRows(), and a definition per metric.
TEST(ReportDocument, KvSectionHeadlineColumnsAndDefinitions) {
    const Rendered& r = rendered();
    ComparisonDocument doc = r.doc;
    doc.benchmarks = test::reportTestGpuBench();
    const std::string md = reportToMarkdownDocument(doc, r.decision, fixedContext());
    EXPECT_NE(md.find("**" +
                      mdEscaped("Headline: attention-output error 2.0% (per_tensor scaling, 4K tokens; synthetic "
                                "cache).") +
                      "**"),
              std::string::npos)
        << md;
    EXPECT_NE(md.find("Without scales (scale 1.0"), std::string::npos);
    EXPECT_NE(md.find(" 43 values saturate at this context."), std::string::npos);
    EXPECT_NE(md.find("Source: synthetic cache (synthetic cache, seed 1; 1 layers × 2 KV heads × 4,096 tokens × 128)."),
              std::string::npos);
    EXPECT_NE(md.find("| Scaling | Context | Attention-output error | Attention TVD | K rel. RMSE | V rel. RMSE | "
                      "Saturated K / V | Elements/s |"),
              std::string::npos)
        << md;
    // none at 4K: attention 0.024 -> 2.4%, TVD 0.012 -> 1.2%, K 0.031 x 1.1 -> 3.4%, V 0.031 x 0.9 -> 2.8%, 40 / 3,
    // 5e8 elements/s -> 500 M/s.
    EXPECT_NE(md.find("| `none` | 4,096 | 2.4% | 1.2% | 3.4% | 2.8% | 40 / 3 | 500 M/s |"), std::string::npos) << md;
    EXPECT_EQ(md.find("Old attention figure"), std::string::npos);  // no older rows
    for (const char* name : {"**Attention-output error**: sqrt(Σ‖ô − o‖² / Σ‖o‖²)", "**Attention TVD**: ",
                             "**K rel. RMSE**: sqrt(Σ(x̂ − x)² / Σx²)", "**Saturated K / V**: ", "**Elements/s**: "})
        EXPECT_NE(md.find(name), std::string::npos) << name;
}

// A file of older fp8dash (judge-bench.fp8cmp's CPU run, in the golden document): its old attention figure sits in a
// column of its own, labelled not comparable, and the headline is its K/V rel RMSE.
TEST(ReportDocument, OlderKvRowsKeepTheirFigureApart) {
    const Rendered& r = rendered();
    double perTensor = NAN, oldAttention = NAN;
    for (const auto& k : r.doc.benchmarks->raw["kv"])
        if (k["scaling"] == "per_tensor") perTensor = k["rel_rmse"].get<double>(), oldAttention = k["attn_rel_error"];
    ASSERT_TRUE(std::isfinite(perTensor));
    char buf[256];
    std::snprintf(buf, sizeof buf, "Headline: K/V rel. RMSE %.1f%% (per_tensor scaling, 1K tokens; synthetic cache).",
                  perTensor * 100);
    EXPECT_NE(r.markdown.find("**" + mdEscaped(buf) + "**"), std::string::npos) << r.markdown;
    EXPECT_NE(r.markdown.find("| Old attention figure (not comparable) |"), std::string::npos);
    std::snprintf(buf, sizeof buf, "| %.3g |", oldAttention);  // the row's last cell
    EXPECT_NE(r.markdown.find(buf), std::string::npos) << buf;
    EXPECT_NE(r.markdown.find("**Old attention figure**: "), std::string::npos);
}

TEST(ReportDocument, SectionsTheDocumentLacksAreLeftOut) {
    auto doc = loadComparisonFile(test::reportTestDataFile("demo-llama3-8b-instruct-fp8.fp8cmp"));
    ASSERT_TRUE(doc.ok());
    auto d = decide(*doc);
    ASSERT_TRUE(d.ok());
    ReportContext ctx = fixedContext();
    const std::string html = reportToHtml(*doc, *d, ctx);
    const std::string md = reportToMarkdownDocument(*doc, *d, ctx);
    for (const char* id : {"verdict", "runs", "evals", "notes"})
        EXPECT_NE(html.find("<section id=\"" + std::string(id) + "\">"), std::string::npos) << id;
    for (const char* id : {"review", "judge", "timeline", "benchmarks", "capacity"})
        EXPECT_EQ(html.find("<section id=\"" + std::string(id) + "\">"), std::string::npos) << id;
    for (const char* heading : {"## Review decision", "## Domain judge", "## Production timeline",
                                "## Local benchmarks", "## KV-cache capacity", "### Statistics\n\n\n"})
        EXPECT_EQ(md.find(heading), std::string::npos) << heading;
    EXPECT_NE(html.find("No review decision is recorded"), std::string::npos);
    // No chart images for sections the document lacks, even when given.
    EXPECT_EQ(html.find("data:image"), std::string::npos);
    // A v1 file says it was upgraded.
    EXPECT_NE(html.find("version 1, upgraded to version 3 when read"), std::string::npos);
}

TEST(ReportDocument, WithoutChartsTheHtmlCarriesTheirData) {
    const Rendered& r = rendered();
    ReportContext ctx = fixedContext();
    ctx.charts.clear();
    const std::string html = reportToHtml(r.doc, r.decision, ctx);
    EXPECT_EQ(html.find("<img"), std::string::npos);
    EXPECT_NE(html.find("<h3>Score distribution</h3>"), std::string::npos);
}

TEST(ReportDocument, SameInputSameBytes) {
    const Rendered& r = rendered();
    EXPECT_EQ(reportToHtml(r.doc, r.decision, fixedContext()), r.html);
    EXPECT_EQ(reportToMarkdownDocument(r.doc, r.decision, fixedContext()), r.markdown);
}

TEST(ReportDocument, HtmlEscape) {
    EXPECT_EQ(htmlEscape("a<b>&\"c'"), "a&lt;b&gt;&amp;&quot;c&#39;");
    EXPECT_EQ(htmlEscape("Δ σ ↳"), "Δ σ ↳");
    // Issue 26: controls, a right-to-left override and bad UTF-8 are shown as escapes (a browser or the PDF would obey
    // the override and show "OG :tcidreV" as "Verdict: GO").
    EXPECT_EQ(htmlEscape("a\x1b[2K\r<b>\xe2\x80\xaeOG :tcidreV \xff"),
              "a\\u001B[2K\\u000D&lt;b&gt;\\u202EOG :tcidreV \\xFF");
}

}  // namespace
}  // namespace fp8dash
