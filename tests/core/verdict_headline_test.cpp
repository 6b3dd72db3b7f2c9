// The verdict's first line and the deciding variant (verdict_headline.h, DESIGN.md "Degradation and the verdict"):
// with several candidates the verdict is the deciding variant's, told with its own counts and intervals; a forced or
// FP8-less comparison carries its caveat in every medium; a verdict that lacks a kind of evidence says so. The
// expected verdicts come from the fixtures' own figures (tests/data/lm-eval-ladder/expected.json, the published table
// of tests/data/lm-eval-variants/SOURCES.md), not from fp8dash.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "fp8dash/core/comparison_builder.h"
#include "fp8dash/core/comparison_file.h"
#include "fp8dash/core/demo.h"
#include "fp8dash/core/presentation_deck.h"
#include "fp8dash/core/report_document.h"
#include "fp8dash/core/report_format.h"
#include "fp8dash/core/verdict_certainty.h"
#include "fp8dash/core/verdict_headline.h"
#include "test_paths.h"

namespace fp8dash {
namespace {

namespace fs = std::filesystem;

const fs::path kHlLadder = test::testData() / "lm-eval-ladder";
const fs::path kHlQwen = test::testData() / "lm-eval-variants" / "qwen3.5-27b";
const std::string kHlW8a8 = "FP8 W8A8", kHlKv1 = "FP8 W8A8 + FP8 KV (scales 1.0)",
                  kHlKvCal = "FP8 W8A8 + FP8 KV (calibrated scales)";

ComparisonInputs hlInputs(const fs::path& root, const std::vector<std::string>& runs) {
    ComparisonInputs in;
    in.baselinePath = root / runs[0];
    in.candidatePath = root / runs[1];
    for (std::size_t k = 2; k < runs.size(); ++k) in.moreCandidatePaths.push_back(root / runs[k]);
    return in;
}

Json hlLadderMeans() {
    std::ifstream in(kHlLadder / "expected.json");
    return Json::parse(in)["means"];
}

// gsm8k's degradation of a ladder run against BF16, from the means the ladder was built with.
double hlLadderLoss(const std::string& run) {
    const Json m = hlLadderMeans();
    const double b = m["bf16/gsm8k"].get<double>(), c = m[run + "/gsm8k"].get<double>();
    return (b - c) / b * 100;
}

// The first line from `prefix` on, with the text report's wrapped continuations (indented two spaces, not a bullet)
// joined back.
std::string hlFirstLineAfter(const std::string& text, const std::string& prefix) {
    const auto at = text.find(prefix);
    if (at == std::string::npos) return "";
    std::string line;
    std::size_t end = text.find('\n', at);
    line = text.substr(at, end - at);
    while (end != std::string::npos && text.compare(end + 1, 2, "  ") == 0 &&
           text.compare(end + 1, std::string("  • ").size(), "  • ") != 0) {
        const std::size_t next = text.find('\n', end + 1);
        line += " " + text.substr(end + 3, next == std::string::npos ? std::string::npos : next - end - 3);
        end = next;
    }
    return line;
}

// The ladder under the default gate (GO only): W8A8 loses 0.53 % and calibrated KV 0.79 % on gsm8k (both MONITOR),
// KV with scales 1.0 3.16 % (INVESTIGATE). No variant passes, and the verdict is the best variant's MONITOR, not
// INVESTIGATE: the tie between the two MONITOR variants goes to the superset (calibrated KV adds the KV cache).
TEST(DecidingVariant, NoVariantPassingTakesTheLeastSevereNotTheWorst) {
    ASSERT_GE(hlLadderLoss("w8a8"), 0.5);
    ASSERT_LE(hlLadderLoss("w8a8"), 1.5);
    ASSERT_GE(hlLadderLoss("w8a8-kv-cal"), 0.5);
    ASSERT_LE(hlLadderLoss("w8a8-kv-cal"), 1.5);
    ASSERT_GT(hlLadderLoss("w8a8-kv"), 1.5);
    auto built = buildComparison(hlInputs(kHlLadder, {"bf16", "w8a8", "w8a8-kv", "w8a8-kv-cal"}));
    ASSERT_TRUE(built.ok()) << built.error().message;
    const Decision& d = built->decision;
    ASSERT_TRUE(d.variants.has_value());
    EXPECT_FALSE(d.variants->recommendation.label.has_value());
    EXPECT_EQ(d.variants->decidingVariant().label, kHlKvCal);
    EXPECT_EQ(d.verdict, Verdict::Monitor);
    // The evals the verdict is told with are the deciding variant's, not the first candidate's.
    ASSERT_TRUE(d.evals.has_value());
    EXPECT_EQ(d.evals->candidateLabel, kHlKvCal);
    const VerdictHeadline h = verdictHeadline(d);
    EXPECT_EQ(h.deciding, kHlKvCal);
    EXPECT_EQ(h.subject, "no variant passes the gate (GO only); the best is " + kHlKvCal);
    EXPECT_EQ(h.basis, "on offline evals; no domain judge, no production data");
    EXPECT_TRUE(h.clean());
    EXPECT_EQ(h.text(), "MONITOR on offline evals; no domain judge, no production data — " + h.subject);
    // Beside it, each other variant's failing task and figure.
    const auto said = [&](const std::string& words) {
        for (const auto& r : d.reasons)
            if (r.find(words) != std::string::npos) return true;
        return false;
    };
    EXPECT_TRUE(said(kHlW8a8 + " does not pass: gsm8k degrades 0.53%")) << testing::PrintToString(d.reasons);
    EXPECT_TRUE(said(kHlKv1 + " does not pass: gsm8k degrades 3.16%")) << testing::PrintToString(d.reasons);
    // How sure is the deciding variant's own (its intervals), never the old "each variant's intervals are in its
    // report".
    const VerdictCertainty sure = verdictCertainty(d, built->document.options.thresholds, false);
    EXPECT_EQ(sure.verdict, "MONITOR");
    EXPECT_EQ(sure.qualifier.find("recommended variant's estimates"), std::string::npos) << sure.qualifier;
    EXPECT_NE(sure.qualifier.find("gsm8k"), std::string::npos) << sure.qualifier;

    // Adding a candidate never makes the decision worse than the best variant's: W8A8 alone is MONITOR, and so is
    // W8A8 beside the INVESTIGATE variant.
    auto alone = buildComparison(hlInputs(kHlLadder, {"bf16", "w8a8"}));
    auto beside = buildComparison(hlInputs(kHlLadder, {"bf16", "w8a8", "w8a8-kv"}));
    ASSERT_TRUE(alone.ok() && beside.ok());
    EXPECT_EQ(alone->decision.verdict, Verdict::Monitor);
    EXPECT_EQ(beside->decision.verdict, Verdict::Monitor);
    EXPECT_EQ(beside->decision.variants->decidingVariant().label, kHlW8a8);

    // The gate GO or MONITOR: calibrated KV passes and is recommended (the superset rule), so the subject says
    // to enable it with monitoring.
    ComparisonInputs monitor = hlInputs(kHlLadder, {"bf16", "w8a8", "w8a8-kv", "w8a8-kv-cal"});
    monitor.recommendation.accept = Verdict::Monitor;
    auto passing = buildComparison(monitor);
    ASSERT_TRUE(passing.ok());
    EXPECT_EQ(verdictHeadline(passing->decision).subject, "enable " + kHlKvCal + " with quality monitoring");
}

// The Qwen3.5-27B table (SOURCES.md): only FP8 weights + FP8 KV passes GO (its worst task gpqa, 0.46 %), so the
// verdict, its counts and its reasons are that variant's: all four of its tasks are GO, where the first candidate
// (KV only) has a MONITOR task.
TEST(DecidingVariant, CountsAndReasonsAreTheDecidingVariants) {
    auto built = buildComparison(hlInputs(kHlQwen, {"bf16", "fp8-kv", "fp8-weights", "fp8-weights-kv"}));
    ASSERT_TRUE(built.ok()) << built.error().message;
    const Decision& d = built->decision;
    EXPECT_EQ(d.verdict, Verdict::Go);
    ASSERT_TRUE(d.evals.has_value());
    EXPECT_EQ(d.evals->candidateLabel, "FP8 W8A8 + FP8 KV (scales 1.0)");
    // Its four tasks against BF16, from the published table: aime25 93.3 vs 92.7, gpqa 86.5 vs 86.9 (0.46 %),
    // lcb 79.2 vs 79.4 (0.25 %), math500 85.4 vs 85.4: every one below 0.5 %.
    ASSERT_EQ(d.evals->tasks.size(), 4u);
    for (const auto& t : d.evals->tasks) EXPECT_EQ(t.verdict, Verdict::Go) << t.task;
    EXPECT_EQ(verdictHeadline(d).subject, "enable FP8 W8A8 + FP8 KV (scales 1.0)");
    EXPECT_EQ(verdictHeadline(d).advice(), "Enable FP8 W8A8 + FP8 KV (scales 1.0).");
    // The first reason says why this variant; the MONITOR variants are named as not passing.
    ASSERT_FALSE(d.reasons.empty());
    EXPECT_EQ(d.reasons.front().rfind("variants: FP8 W8A8 + FP8 KV (scales 1.0) is the most aggressive", 0), 0u)
        << d.reasons.front();
}

// A copy of a ladder run with its model renamed (another model, or the BF16 model without FP8).
fs::path hlRenamedRun(const test::TempDir& dir, const std::string& run, const std::string& from,
                      const std::string& to) {
    for (const auto& entry : fs::recursive_directory_iterator(kHlLadder / run)) {
        const std::string name = entry.path().filename().string();
        if (!entry.is_regular_file() || name.rfind("results_", 0) != 0) continue;
        std::ifstream in(entry.path());
        std::stringstream text;
        text << in.rdbuf();
        std::string s = text.str();
        for (std::size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size()))
            s.replace(at, from.size(), to);
        return dir.write(run + "/" + name, s);
    }
    return {};
}

// Every medium's first line carries the caveat, and none draws it as a clean verdict.
void hlExpectCaveatEverywhere(const ComparisonDocument& doc, const Decision& d, const std::string& caveat) {
    const VerdictHeadline h = verdictHeadline(d);
    ASSERT_FALSE(h.clean());
    EXPECT_NE(h.text().find(caveat), std::string::npos) << h.text();
    const std::string text = decisionToText(d, doc, "heading");
    EXPECT_NE(hlFirstLineAfter(text, "Verdict: ").find(caveat), std::string::npos) << text.substr(0, 400);
    const std::string md = decisionToMarkdown(d, doc, "heading");
    EXPECT_NE(hlFirstLineAfter(md, "## Verdict: ").find(caveat), std::string::npos) << md.substr(0, 400);
    const Json j = decisionToJson(d);
    EXPECT_NE(j["headline"]["text"].get<std::string>().find(caveat), std::string::npos);
    EXPECT_FALSE(j["headline"]["clean"].get<bool>());
    const std::string html = reportToHtml(doc, d, {});
    const auto banner = html.find("<table class=\"banner caveat\"");
    ASSERT_NE(banner, std::string::npos);
    const std::string bannerHtml = html.substr(banner, html.find("</table>", banner) - banner);
    EXPECT_NE(bannerHtml.find("⚠"), std::string::npos);
    const PresentationDeck deck = buildPresentationDeck(doc, d);
    const auto at = deck.indexOf(PresentationStep::Verdict);
    ASSERT_TRUE(at.has_value());
    const PresentationSlide& slide = deck.slides[*at];
    EXPECT_FALSE(slide.clean);
    bool onSlide = false;
    for (const auto& n : slide.headlineNotes) onSlide = onSlide || n.find(caveat.substr(1)) != std::string::npos;
    EXPECT_TRUE(onSlide) << testing::PrintToString(slide.headlineNotes);
}

// Compared past "different models" (New Comparison's "Compare … anyway"): the first line says so in every medium.
TEST(VerdictHeadline, AForcedComparisonNeverLooksClean) {
    test::TempDir dir;
    const fs::path other = hlRenamedRun(dir, "w8a8", "Meta-Llama-3.1-8B-Instruct", "Mistral-7B-Instruct-v0.3");
    ASSERT_FALSE(other.empty());
    ComparisonInputs in;
    in.baselinePath = kHlLadder / "bf16";
    in.candidatePath = other;
    EXPECT_FALSE(buildComparison(in).ok());  // blocked without the override
    in.options.allowIncomparable = true;
    auto built = buildComparison(in);
    ASSERT_TRUE(built.ok()) << built.error().message;
    const std::string caveat =
        "not comparable: different models, meta-llama/Llama-3.1-8B-Instruct vs "
        "RedHatAI/Mistral-7B-Instruct-v0.3-FP8";
    EXPECT_EQ(verdictHeadline(built->decision).caveats, std::vector<std::string>{caveat});
    hlExpectCaveatEverywhere(built->document, built->decision, caveat);
}

// The "FP8" run is the BF16 model again (no FP8 layer by its arguments or name): said in the first line.
TEST(VerdictHeadline, ACandidateWithoutALowPrecisionLayerIsSaid) {
    test::TempDir dir;
    const fs::path same =
        hlRenamedRun(dir, "w8a8", "RedHatAI/Meta-Llama-3.1-8B-Instruct-FP8", "meta-llama/Llama-3.1-8B-Instruct");
    ASSERT_FALSE(same.empty());
    ComparisonInputs in;
    in.baselinePath = kHlLadder / "bf16";
    in.candidatePath = same;
    auto built = buildComparison(in);
    ASSERT_TRUE(built.ok()) << built.error().message;
    hlExpectCaveatEverywhere(built->document, built->decision, "FP8 has no FP8 or other low-precision layer");
}

}  // namespace
}  // namespace fp8dash

namespace fp8dash {
namespace {

// The flags of fp8dash's own command line that have a control in the app (New Comparison, the Verdict rules): a
// report or a slide names the control, never the flag (issue 39, "Words for people"). The CLI's terminal text keeps
// them.
const char* const kGuiControlledFlags[] = {"--cautious",          "--accept",         "--allow-incomparable",
                                           "--answer-examples",   "--min-recovery",   "--go-below",
                                           "--investigate-above", "--judge-baseline", "--judge-candidate",
                                           "--no-sample-logs"};

std::string hlFlagIn(const std::string& text) {
    for (const char* flag : kGuiControlledFlags)
        if (text.find(flag) != std::string::npos) return flag;
    return "";
}

void hlExpectNoFlags(const ComparisonDocument& doc, const Decision& d, const std::string& what) {
    for (const auto format : {ReportFileFormat::Html, ReportFileFormat::Markdown}) {
        auto rendered = renderReport(doc, d, {}, format);
        ASSERT_TRUE(rendered.ok()) << rendered.error().message;
        EXPECT_EQ(hlFlagIn(*rendered), "") << what << " " << reportFormatSuffix(format);
    }
    const std::string rich = reportToHtml(doc, d, {}, ReportHtmlFlavour::RichText);  // the PDF's source
    EXPECT_EQ(hlFlagIn(rich), "") << what << " (PDF)";
    const PresentationDeck deck = buildPresentationDeck(doc, d);
    for (const PresentationSlide& s : deck.slides) {
        std::string all = s.title + "\n" + s.subtitle + "\n" + s.talkingPoints + "\n" + s.summary + "\n" + s.gain;
        for (const auto& f : s.figures) all += "\n" + f.label + " " + f.value + " " + f.detail;
        for (const auto& p : s.points) all += "\n" + p;
        for (const auto& r : s.moreReasons) all += "\n" + r;
        for (const auto& n : s.headlineNotes) all += "\n" + n;
        EXPECT_EQ(hlFlagIn(all), "") << what << ", slide " << presentationStepName(s.step) << ": " << all;
    }
}

TEST(WordsForPeople, NoReportOrSlideNamesACommandLineFlag) {
    auto demo = loadDemoComparison();
    ASSERT_TRUE(demo.ok()) << demo.error().message;
    auto demoDecision = decide(*demo);
    ASSERT_TRUE(demoDecision.ok());
    hlExpectNoFlags(*demo, *demoDecision, "the demo");
    // The cautious policy, a gate with a minimum recovery, and a ladder none of whose variants passes.
    ComparisonInputs ladder = hlInputs(kHlLadder, {"bf16", "w8a8", "w8a8-kv", "w8a8-kv-cal"});
    ladder.options.cautious = true;
    ladder.recommendation.minRecoveryPct = 99.5;
    auto built = buildComparison(ladder);
    ASSERT_TRUE(built.ok()) << built.error().message;
    hlExpectNoFlags(built->document, built->decision, "the ladder");
    auto qwen = buildComparison(hlInputs(kHlQwen, {"bf16", "fp8-kv", "fp8-weights", "fp8-weights-kv"}));
    ASSERT_TRUE(qwen.ok());
    hlExpectNoFlags(qwen->document, qwen->decision, "the Qwen3.5 set");
    // A forced comparison: its caveat and reasons in the words of New Comparison's checkbox.
    test::TempDir dir;
    ComparisonInputs forced;
    forced.baselinePath = kHlLadder / "bf16";
    forced.candidatePath = hlRenamedRun(dir, "w8a8", "Meta-Llama-3.1-8B-Instruct", "Mistral-7B-Instruct-v0.3");
    forced.options.allowIncomparable = true;
    auto f = buildComparison(forced);
    ASSERT_TRUE(f.ok()) << f.error().message;
    hlExpectNoFlags(f->document, f->decision, "a forced comparison");
}

}  // namespace
}  // namespace fp8dash

namespace fp8dash {
namespace {

// Several candidates: every medium's first line, reasons and "how sure" are core's (verdictHeadline, decide()'s
// reasons, verdictCertainty), so the text, Markdown, HTML (and so the PDF, drawn from the same HTML), JSON and the
// slides cannot tell another story than the banner.
TEST(VerdictHeadline, EveryMediumTellsCoresHeadlineReasonsAndCertaintyForALadder) {
    auto built = buildComparison(hlInputs(kHlLadder, {"bf16", "w8a8", "w8a8-kv", "w8a8-kv-cal"}));
    ASSERT_TRUE(built.ok()) << built.error().message;
    const ComparisonDocument& doc = built->document;
    const Decision& d = built->decision;
    const VerdictHeadline h = verdictHeadline(d);
    const std::string sure = verdictCertainty(d, doc.options.thresholds, doc.options.cautious).sentence();
    ASSERT_FALSE(sure.empty());
    ASSERT_FALSE(d.reasons.empty());

    const std::string text = decisionToText(d, doc, "heading");
    EXPECT_EQ(hlFirstLineAfter(text, "Overall verdict: "), "Overall verdict: " + h.text());
    EXPECT_EQ(hlFirstLineAfter(text, "How sure: "), "How sure: " + sure + ".");
    // Each reason whole (the line after the last one, "How sure", reads as a continuation here: a prefix check).
    for (const auto& r : d.reasons)
        EXPECT_EQ(hlFirstLineAfter(text, "• " + r.substr(0, 40)).rfind("• " + r, 0), 0u) << r;

    const std::string md = decisionToMarkdown(d, doc, "heading");
    EXPECT_NE(md.find("## Overall verdict: **" + h.title + "**"), std::string::npos);
    EXPECT_NE(md.find(h.subject.substr(0, 30)), std::string::npos);  // escaped parentheses aside
    EXPECT_NE(md.find("**How sure:** "), std::string::npos);

    const Json j = decisionToJson(d);
    EXPECT_EQ(j["headline"]["text"], h.text());
    EXPECT_EQ(j["headline"]["deciding_variant"], h.deciding);
    EXPECT_EQ(j["verdict"], std::string(verdictName(*d.verdict)));
    EXPECT_EQ(j["reasons"].get<std::vector<std::string>>(), d.reasons);

    const std::string html = reportToHtml(doc, d, {});
    const auto banner = html.find("<table class=\"banner\"");
    ASSERT_NE(banner, std::string::npos);
    const std::string bannerHtml = html.substr(banner, html.find("</table>", banner) - banner);
    EXPECT_NE(bannerHtml.find(">" + h.title + "<"), std::string::npos);
    EXPECT_NE(bannerHtml.find(htmlEscape(h.advice())), std::string::npos) << bannerHtml;
    EXPECT_NE(html.find(htmlEscape("How sure: " + sure + ".")), std::string::npos);
    for (const auto& r : d.reasons) EXPECT_NE(html.find(htmlEscape(r)), std::string::npos) << r;

    const PresentationDeck deck = buildPresentationDeck(doc, d);
    const auto at = deck.indexOf(PresentationStep::Verdict);
    ASSERT_TRUE(at.has_value());
    const PresentationSlide& slide = deck.slides[*at];
    EXPECT_EQ(slide.title, h.title);
    EXPECT_EQ(slide.subtitle, h.advice());
    EXPECT_EQ(slide.headlineNotes, h.notes());
    EXPECT_EQ(slide.moreReasons, d.reasons);
    EXPECT_EQ(slide.verdict, d.verdict);
}

}  // namespace
}  // namespace fp8dash
