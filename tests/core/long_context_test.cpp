// Long context: RULER's per-length tasks compared length by length on a made pair in lm-eval's format
// (tests/data/lm-eval-ruler, make_fixtures.py; see its SOURCES.md). Expected figures are computed here from the raw
// JSON values with the sign convention written out (delta = (c - b) / |b| * 100; degradation the loss in the good
// direction; go < 0.5 <= monitor <= 1.5 < investigate), or typed from the generator's values.
#include "fp8dash/core/long_context.h"
#include "fp8dash/core/comparison_file.h"
#include "fp8dash/core/eval_comparison.h"
#include "fp8dash/core/lm_eval_results.h"
#include "fp8dash/core/presentation_deck.h"
#include "fp8dash/core/report_document.h"
#include "fp8dash/core/report_format.h"

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <map>

#include "test_paths.h"

namespace fp8dash {
namespace {

namespace fs = std::filesystem;

const std::vector<long long> kLengths = {8192, 16384, 32768, 65536, 131072};
const std::vector<std::string> kSubtasks = {"niah_single_1",   "niah_single_2",   "niah_single_3",   "niah_multikey_1",
                                            "niah_multikey_2", "niah_multikey_3", "niah_multiquery", "niah_multivalue",
                                            "ruler_vt",        "ruler_cwe",       "ruler_fwe",       "ruler_qa_squad",
                                            "ruler_qa_hotpot"};

fs::path rulerDir() {
    return test::testData() / "lm-eval-ruler";
}
fs::path baselinePath() {
    return rulerDir() / "llama3.1-8b-instruct_ruler_bf16.json";
}
fs::path candidatePath() {
    return rulerDir() / "llama3.1-8b-instruct_ruler_fp8kv.json";
}

LmEvalResults read(const fs::path& path) {
    auto r = readLmEvalPath(path);
    if (!r) throw std::runtime_error(r.error().message);
    return std::move(r).value();
}

nlohmann::json raw(const fs::path& path) {
    std::ifstream in(path);
    return nlohmann::json::parse(in);
}

ComparisonReport lcCompare(const LmEvalResults& b, const LmEvalResults& c, ComparisonOptions o = {}) {
    auto r = compareEvals(b, c, o);
    if (!r) throw std::runtime_error(r.error().message);
    return std::move(r).value();
}

const TaskComparison& lcRow(const std::vector<TaskComparison>& rows, const std::string& task) {
    for (const auto& t : rows)
        if (t.task == task) return t;
    throw std::runtime_error("no row " + task);
}

// The expected figures of one length, computed here.
struct Expected {
    double b, c, delta, degradation;
    Verdict verdict;
};
Expected lcExpected(double b, double c) {
    const double delta = (c - b) / std::fabs(b) * 100.0;
    const double degradation = delta < 0 ? -delta : 0.0;  // RULER: higher is better
    const Verdict v = degradation < 0.5 ? Verdict::Go : degradation <= 1.5 ? Verdict::Monitor : Verdict::Investigate;
    return {b, c, delta, degradation, v};
}

double rawValue(const nlohmann::json& doc, const std::string& task, long long length) {
    return doc["results"][task][std::to_string(length) + ",none"].get<double>();
}

class LongContextPair : public ::testing::Test {
protected:
    void SetUp() override {
        if (!fs::exists(baselinePath())) GTEST_SKIP() << "missing fixture " << baselinePath();
        baseline = read(baselinePath());
        candidate = read(candidatePath());
        rawB = raw(baselinePath());
        rawC = raw(candidatePath());
    }
    LmEvalResults baseline, candidate;
    nlohmann::json rawB, rawC;
};

TEST(LongContext, RecognisesContextLengthMetrics) {
    EXPECT_EQ(contextLengthOf("4096"), 4096);
    EXPECT_EQ(contextLengthOf("131072"), 131072);
    EXPECT_FALSE(contextLengthOf("acc"));
    EXPECT_FALSE(contextLengthOf("0"));
    EXPECT_FALSE(contextLengthOf("04096"));
    EXPECT_FALSE(contextLengthOf("4096x"));
    EXPECT_FALSE(contextLengthOf(""));
    EXPECT_EQ(contextLengthLabel(131072), "128K");
    EXPECT_EQ(contextLengthLabel(5000), "5000");
}

TEST_F(LongContextPair, RulerTasksAreRecognisedAndOthersAreNot) {
    for (const auto& name : kSubtasks) EXPECT_TRUE(isPerLengthTask(*baseline.task(name))) << name;
    EXPECT_TRUE(isPerLengthTask(*baseline.task("ruler")));  // the group: one metric, "4096"
    const auto other = read(test::testData() / "lm-eval-0.4.12/qwen2.5-7b_groups_v0.4.12.json");
    for (const auto& t : other.tasks) EXPECT_FALSE(isPerLengthTask(t)) << t.name;
}

TEST_F(LongContextPair, EachSubtaskIsComparedLengthByLengthSkippingMinusOne) {
    const auto r = lcCompare(baseline, candidate);
    ASSERT_EQ(r.tasks.size(), 1u);  // the group row; its subtasks beneath it
    const auto& group = r.tasks.front();
    EXPECT_EQ(group.task, "ruler");
    ASSERT_EQ(group.subtasks.size(), kSubtasks.size());
    for (const auto& name : kSubtasks) {
        const auto& sub = lcRow(group.subtasks, name);
        // 4096 is -1 in both runs (not evaluated): left out.
        ASSERT_EQ(rawValue(rawB, name, 4096), -1.0);
        ASSERT_EQ(sub.byLength.size(), kLengths.size()) << name;
        for (std::size_t i = 0; i < kLengths.size(); ++i) {
            const auto& l = sub.byLength[i];
            const Expected e = lcExpected(rawValue(rawB, name, kLengths[i]), rawValue(rawC, name, kLengths[i]));
            EXPECT_EQ(l.length, kLengths[i]);
            EXPECT_DOUBLE_EQ(l.baseline, e.b);
            EXPECT_DOUBLE_EQ(l.candidate, e.c);
            ASSERT_TRUE(l.deltaPct && l.degradationPct);
            EXPECT_NEAR(*l.deltaPct, e.delta, 1e-9) << name << " " << l.length;
            EXPECT_NEAR(*l.degradationPct, e.degradation, 1e-9) << name << " " << l.length;
            EXPECT_EQ(l.verdict, e.verdict) << name << " " << l.length;
        }
    }
    // Typed from the generator: niah_single_1 at 128K goes 0.994 -> 0.982, a 1.207% loss (monitor).
    const auto& n1 = lcRow(group.subtasks, "niah_single_1");
    EXPECT_NEAR(*n1.byLength.back().degradationPct, 0.012 / 0.994 * 100, 1e-9);
    EXPECT_EQ(n1.byLength.back().verdict, Verdict::Monitor);
}

TEST_F(LongContextPair, TheWorstLengthDecidesEachTask) {
    const auto r = lcCompare(baseline, candidate);
    for (const auto& sub : r.tasks.front().subtasks) {
        long long worst = 0;
        Expected w{};
        bool first = true;
        for (long long n : kLengths) {
            const Expected e = lcExpected(rawValue(rawB, sub.task, n), rawValue(rawC, sub.task, n));
            if (first || e.verdict > w.verdict || (e.verdict == w.verdict && e.degradation >= w.degradation)) {
                w = e;
                worst = n;
                first = false;
            }
        }
        EXPECT_EQ(sub.metric, std::to_string(worst) + ",none") << sub.task;
        EXPECT_DOUBLE_EQ(sub.baseline, w.b) << sub.task;
        EXPECT_DOUBLE_EQ(sub.candidate, w.c) << sub.task;
        EXPECT_NEAR(*sub.degradationPct, w.degradation, 1e-9) << sub.task;
        EXPECT_EQ(sub.verdict, w.verdict) << sub.task;
        EXPECT_NE(sub.reason.find("worst of 5 context lengths, at " + contextLengthLabel(worst)), std::string::npos)
            << sub.reason;
    }
    // The 8K length alone would be go for every task; the long lengths are what make this FP8 KV cache investigate.
    for (const auto& sub : r.tasks.front().subtasks) EXPECT_EQ(sub.byLength.front().verdict, Verdict::Go) << sub.task;
    EXPECT_EQ(r.verdict, Verdict::Investigate);
}

TEST_F(LongContextPair, TheGroupAndTheSummaryAreTheMeansOfTheSubtasksPerLength) {
    const auto r = lcCompare(baseline, candidate);
    const auto& group = r.tasks.front();
    ASSERT_TRUE(group.byLengthFromSubtasks);
    ASSERT_TRUE(r.longContext);
    const auto& lc = *r.longContext;
    EXPECT_EQ(lc.tasks, kSubtasks.size());
    ASSERT_EQ(lc.lengths.size(), kLengths.size());
    ASSERT_EQ(group.byLength.size(), kLengths.size());
    long long worst = 0;
    double worstDeg = -1;
    for (std::size_t i = 0; i < kLengths.size(); ++i) {
        double sb = 0, sc = 0;
        for (const auto& name : kSubtasks) {
            sb += rawValue(rawB, name, kLengths[i]);
            sc += rawValue(rawC, name, kLengths[i]);
        }
        const Expected e = lcExpected(sb / kSubtasks.size(), sc / kSubtasks.size());
        for (const auto* l : {&lc.lengths[i], &group.byLength[i]}) {
            EXPECT_EQ(l->length, kLengths[i]);
            EXPECT_NEAR(l->baseline, e.b, 1e-12);
            EXPECT_NEAR(l->candidate, e.c, 1e-12);
            EXPECT_NEAR(*l->degradationPct, e.degradation, 1e-9);
            EXPECT_EQ(l->verdict, e.verdict);
            EXPECT_EQ(l->tasks, kSubtasks.size());
        }
        if (e.degradation > worstDeg) {
            worstDeg = e.degradation;
            worst = kLengths[i];
        }
    }
    EXPECT_EQ(worst, 131072);  // degradation grows with length in the fixture
    EXPECT_EQ(lc.worstLength, worst);
    EXPECT_EQ(group.metric, "131072,none");
    EXPECT_EQ(lc.verdict, Verdict::Investigate);
    EXPECT_NE(group.reason.find("each the mean of the subtasks"), std::string::npos) << group.reason;
}

TEST_F(LongContextPair, ALengthOneRunDidNotEvaluateIsLeftOutOfThatTaskAndOfTheMean) {
    // niah_single_1 of the candidate as if 128K had no document (lm-eval writes -1).
    for (auto& t : candidate.tasks)
        if (t.name == "niah_single_1")
            for (auto& m : t.metrics)
                if (m.name == "131072") m.value = -1;
    const auto r = lcCompare(baseline, candidate);
    const auto& sub = lcRow(r.tasks.front().subtasks, "niah_single_1");
    ASSERT_EQ(sub.byLength.size(), 4u);
    EXPECT_EQ(sub.byLength.back().length, 65536);
    ASSERT_TRUE(r.longContext);
    EXPECT_EQ(r.longContext->lengths.back().length, 131072);
    EXPECT_EQ(r.longContext->lengths.back().tasks, kSubtasks.size() - 1);
    double sb = 0;
    for (const auto& name : kSubtasks)
        if (name != "niah_single_1") sb += rawValue(rawB, name, 131072);
    EXPECT_NEAR(r.longContext->lengths.back().baseline, sb / (kSubtasks.size() - 1), 1e-12);
}

TEST_F(LongContextPair, ATaskWithNoLengthInBothRunsIsNotComparedAndSaysWhy) {
    for (auto& t : candidate.tasks)
        if (t.name == "ruler_cwe")
            for (auto& m : t.metrics) m.value = -1;
    const auto r = lcCompare(baseline, candidate);
    const auto& group = r.tasks.front();
    EXPECT_EQ(group.subtasks.size(), kSubtasks.size() - 1);
    bool found = false;
    for (const auto& s : group.subtasksNotCompared)
        if (s.starts_with("ruler_cwe: no context length was evaluated in both runs")) {
            found = true;
            EXPECT_NE(s.find("8192: evaluated in the baseline, -1 in the candidate"), std::string::npos) << s;
            EXPECT_NE(s.find("4096: -1 in both runs"), std::string::npos) << s;
        }
    EXPECT_TRUE(found);
    EXPECT_EQ(r.longContext->tasks, kSubtasks.size() - 1);
}

TEST_F(LongContextPair, AMetricOverrideComparesThatOneLengthAsAPlainMetric) {
    ComparisonOptions o;
    o.overrides.push_back({"ruler_cwe", "8192", "none"});
    // The subtasks sit under the group's row; an override applies to them by name.
    const auto r = lcCompare(baseline, candidate, o);
    const auto& cwe = lcRow(r.tasks.front().subtasks, "ruler_cwe");
    EXPECT_TRUE(cwe.byLength.empty());
    EXPECT_EQ(cwe.metric, "8192,none");
    const Expected e = lcExpected(rawValue(rawB, "ruler_cwe", 8192), rawValue(rawC, "ruler_cwe", 8192));
    EXPECT_NEAR(*cwe.degradationPct, e.degradation, 1e-9);
}

TEST_F(LongContextPair, TheKvCacheRiskPointsAtTheLongContextTable) {
    const auto r = lcCompare(baseline, candidate);
    bool found = false;
    for (const auto& f : r.risks)
        if (f.kind == "kv_cache_without_scales") {
            found = true;
            EXPECT_EQ(f.subject, "FP8");
            EXPECT_NE(f.message.find("see the long-context table"), std::string::npos) << f.message;
            EXPECT_NE(f.message.find("at 128K (131072 tokens)"), std::string::npos) << f.message;
            char deg[32];
            std::snprintf(deg, sizeof deg, "%.3f%%", r.longContext->lengths.back().degradationPct.value());
            EXPECT_NE(f.message.find(deg), std::string::npos) << f.message;
        }
    EXPECT_TRUE(found);
}

TEST_F(LongContextPair, JsonCarriesByLengthRowsAndTheSummary) {
    const auto r = lcCompare(baseline, candidate);
    const Json j = reportToJson(r);
    const auto& lc = j.at("long_context");
    ASSERT_TRUE(lc.is_object());
    EXPECT_EQ(lc.at("lengths"), Json(kLengths));
    EXPECT_EQ(lc.at("worst_length"), 131072);
    EXPECT_EQ(lc.at("verdict"), "investigate");
    EXPECT_EQ(lc.at("tasks"), 13);
    ASSERT_EQ(lc.at("by_length").size(), kLengths.size());
    for (const char* key : {"length", "baseline", "candidate", "delta_pct", "degradation_pct", "verdict", "tasks"})
        EXPECT_TRUE(lc.at("by_length")[0].contains(key)) << key;
    const auto& group = j.at("tasks")[0];
    EXPECT_EQ(group.at("by_length").size(), kLengths.size());
    const auto& sub = group.at("subtasks")[0];
    EXPECT_EQ(sub.at("task"), "niah_single_1");
    ASSERT_EQ(sub.at("by_length").size(), kLengths.size());
    const auto& last = sub.at("by_length")[4];
    EXPECT_EQ(last.at("length"), 131072);
    EXPECT_DOUBLE_EQ(last.at("baseline").get<double>(), 0.994);
    EXPECT_DOUBLE_EQ(last.at("candidate").get<double>(), 0.982);
    EXPECT_NEAR(last.at("delta_pct").get<double>(), -0.012 / 0.994 * 100, 1e-9);
    EXPECT_EQ(last.at("verdict"), "monitor");
    EXPECT_FALSE(sub.at("by_length")[0].contains("tasks"));  // a leaf task's values are its own
}

TEST(LongContext, OtherComparisonsHaveANullSummaryAndNoByLength) {
    const auto p = test::testData() / "lm-eval-0.4.12/qwen2.5-7b_groups_v0.4.12.json";
    const auto run = read(p);
    ComparisonOptions sameRunTwice;
    sameRunTwice.allowIncomparable = true;  // the same file on both sides: refused as identical runs otherwise
    const auto r = lcCompare(run, run, sameRunTwice);
    EXPECT_FALSE(r.longContext);
    const Json j = reportToJson(r);
    EXPECT_TRUE(j.at("long_context").is_null());
    for (const auto& t : j.at("tasks")) EXPECT_FALSE(t.contains("by_length")) << t.at("task");
    EXPECT_EQ(reportToText(r).find("Long context"), std::string::npos);
}

TEST_F(LongContextPair, TextAndMarkdownShowTheLengthTable) {
    const auto r = lcCompare(baseline, candidate);
    double sb = 0, sc = 0;
    for (const auto& name : kSubtasks) {
        sb += rawValue(rawB, name, 131072);
        sc += rawValue(rawC, name, 131072);
    }
    const Expected e = lcExpected(sb / 13, sc / 13);
    char b[32], c[32], d[32];
    std::snprintf(b, sizeof b, "%.4f", e.b);
    std::snprintf(c, sizeof c, "%.4f", e.c);
    std::snprintf(d, sizeof d, "%.2f%%", e.degradation);
    const std::string md = reportToMarkdown(r);
    EXPECT_NE(md.find("### Long context"), std::string::npos);
    EXPECT_NE(md.find("| Length | Tokens | BF16 | FP8 | Δ | Degradation | Verdict |"), std::string::npos) << md;
    EXPECT_NE(md.find(std::string("| 128K | 131072 | ") + b + " | " + c + " | "), std::string::npos) << md;
    EXPECT_NE(md.find(std::string(d) + " | investigate (worst) |"), std::string::npos) << md;
    const std::string text = reportToText(r);
    EXPECT_NE(text.find("\nLong context\n"), std::string::npos);
    EXPECT_NE(text.find("The worst length here is 128K (131072 tokens):"), std::string::npos) << text;
    EXPECT_NE(text.find(std::string("  128K   131072 ") + b + " " + c + " "), std::string::npos) << text;
}

TEST_F(LongContextPair, AComparisonFileReDerivesTheLongContextResult) {
    const auto direct = lcCompare(baseline, candidate);
    auto doc = makeComparisonDocument({"BF16", baselinePath().string(), baseline},
                                      {"FP8", candidatePath().string(), candidate}, {});
    test::TempDir dir;
    const auto file = dir.path() / "ruler.fp8cmp";
    ASSERT_TRUE(saveComparisonFile(doc, file));
    auto loaded = loadComparisonFile(file);
    ASSERT_TRUE(loaded) << loaded.error().message;
    auto again = loaded->evaluate();
    ASSERT_TRUE(again) << again.error().message;
    EXPECT_EQ(reportToJson(*again).at("long_context"), reportToJson(direct).at("long_context"));
    EXPECT_EQ(reportToJson(*again).at("tasks"), reportToJson(direct).at("tasks"));
}

// The report's Long context section: the table in Markdown and HTML, the ui's chart placed in the section.
TEST_F(LongContextPair, TheReportHasALongContextSectionWithItsChart) {
    auto doc = makeComparisonDocument({"BF16", "", baseline}, {"FP8", "", candidate}, {});
    auto decision = decide(doc);
    ASSERT_TRUE(decision) << decision.error().message;
    ReportContext ctx;
    ctx.generatedAt = "2026-12-01T18:00:00Z";
    ctx.toolVersion = "test";
    ctx.charts.push_back({"long-context", "Degradation by context length", "per length", "PNGBYTES", 480, 240});
    const std::string md = reportToMarkdownDocument(doc, *decision, ctx);
    const auto at = md.find("\n## Long context\n");
    ASSERT_NE(at, std::string::npos) << md;
    EXPECT_LT(md.find("\n## Offline evals\n"), at);
    double sb = 0, sc = 0;
    for (const auto& name : kSubtasks) {
        sb += rawValue(rawB, name, 65536);
        sc += rawValue(rawC, name, 65536);
    }
    char b[32], c[32];
    std::snprintf(b, sizeof b, "%.4f", sb / 13);
    std::snprintf(c, sizeof c, "%.4f", sc / 13);
    EXPECT_NE(md.find(std::string("| 64K | 65536 | ") + b + " | " + c + " |"), std::string::npos) << md;
    EXPECT_NE(md.find("Chart “Degradation by context length”"), std::string::npos);
    const std::string html = reportToHtml(doc, *decision, ctx);
    const auto section = html.find("<section id=\"long-context\">");
    ASSERT_NE(section, std::string::npos);
    EXPECT_GT(html.find("id=\"chart-long-context\""), section);
    EXPECT_NE(html.find("investigate (worst)", section), std::string::npos);
}

TEST_F(LongContextPair, TheDeckHasALongContextSlideAfterTheEvals) {
    auto doc = makeComparisonDocument({"BF16", "", baseline}, {"FP8", "", candidate}, {});
    auto decision = decide(doc);
    ASSERT_TRUE(decision);
    const auto deck = buildPresentationDeck(doc, *decision);
    const auto evals = deck.indexOf(PresentationStep::Evals);
    const auto lc = deck.indexOf(PresentationStep::LongContext);
    ASSERT_TRUE(evals && lc);
    EXPECT_EQ(*lc, *evals + 1);
    const auto& s = deck.slides[*lc];
    EXPECT_EQ(presentationStepName(s.step), "Long context");
    EXPECT_EQ(s.verdict, Verdict::Investigate);
    ASSERT_EQ(s.figures.size(), kLengths.size());  // one per length, shortest first
    EXPECT_EQ(s.figures.front().label, "8K");
    EXPECT_EQ(s.figures.back().label, "128K");
    EXPECT_EQ(s.figures.back().level, Verdict::Investigate);
    EXPECT_EQ(s.charts, std::vector<std::string>{"long-context"});
    double sb = 0, sc = 0;
    for (const auto& name : kSubtasks) {
        sb += rawValue(rawB, name, 131072);
        sc += rawValue(rawC, name, 131072);
    }
    char title[96];
    std::snprintf(title, sizeof title, "At 128K context, FP8 loses %.2f%%", (sb - sc) / sb * 100);
    EXPECT_EQ(s.title, title);
    EXPECT_NE(s.talkingPoints.find("scales 1.0 (no calculated or calibrated scales)"), std::string::npos)
        << s.talkingPoints;
    EXPECT_EQ(s.talkingPoints.find("--calculate-kv-scales"), std::string::npos) << s.talkingPoints;
    // A comparison without per-length tasks has no such slide.
    const auto other = read(test::testData() / "lm-eval-0.4.12/qwen2.5-7b_groups_v0.4.12.json");
    ComparisonOptions sameRunTwice;
    sameRunTwice.allowIncomparable = true;  // the same file on both sides: refused as identical runs otherwise
    auto plain = makeComparisonDocument({"BF16", "", other}, {"FP8", "", other}, sameRunTwice);
    auto plainDecision = decide(plain);
    ASSERT_TRUE(plainDecision);
    EXPECT_FALSE(buildPresentationDeck(plain, *plainDecision).indexOf(PresentationStep::LongContext));
}

}  // namespace
}  // namespace fp8dash
