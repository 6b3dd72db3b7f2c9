// Issue #5's statistics in the comparison: the confidence answer beside each verdict (from lm-eval's standard errors
// or from the paired tests of the sample logs), the equivalence check, the cautious policy, the control run's noise
// floor, the judge joining the overall verdict, and the comparison file's new sections. Expected figures are
// computed here by hand from the inputs, or come from tests/data/lm-eval-samples/expected.json (written by
// make_samples.py from its own construction).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <fstream>

#include "fp8dash/core/comparison_file.h"
#include "fp8dash/core/eval_comparison.h"
#include "fp8dash/core/paired_tasks.h"
#include "fp8dash/core/report_format.h"
#include "test_paths.h"

namespace fp8dash {
namespace {

namespace fs = std::filesystem;

std::string exact(double v) {
    char buf[40];
    std::snprintf(buf, sizeof buf, "%.17g", v);
    return buf;
}

// A one-task v0.4 results object: acc with its stderr (when se >= 0) and the effective sample count.
// `original`: the task's size (n-samples.original), n when 0; a run with --limit has n below it.
std::string runJson(double acc, double se, int n = 1000, const std::string& task = "arc_easy", int original = 0) {
    std::string entries = R"("acc,none": )" + exact(acc);
    if (se >= 0) entries += R"(, "acc_stderr,none": )" + exact(se);
    return R"({"results": {")" + task + R"(": {)" + entries + R"(}}, "n-samples": {")" + task + R"(": {"original": )" +
           std::to_string(original ? original : n) + R"(, "effective": )" + std::to_string(n) + "}}}";
}

LmEvalResults run(double acc, double se, int n = 1000, const std::string& task = "arc_easy", int original = 0) {
    auto r = parseLmEvalText(runJson(acc, se, n, task, original), "inline.json");
    if (!r) throw std::runtime_error(r.error().message);
    return std::move(r).value();
}

ComparisonReport compare(const LmEvalResults& b, const LmEvalResults& c, ComparisonOptions o = {}) {
    auto r = compareEvals(b, c, o);
    if (!r) throw std::runtime_error(r.error().message);
    return std::move(r).value();
}

TEST(TaskConfidence, FromTheStandardErrorsWhenNoLogs) {
    // 0.8 -> 0.797: degradation 0.375 %; half-width 1.96 * sqrt(0.01^2 + 0.01^2) / 0.8 * 100. Runs with --limit
    // 1000 of a 10,000,000-sample task, so that the samples that would decide it (about 766,000) exist.
    const auto r = compare(run(0.8, 0.01, 1000, "arc_easy", 10000000), run(0.797, 0.01, 1000, "arc_easy", 10000000));
    const auto& t = r.tasks.at(0);
    ASSERT_TRUE(t.confidence.has_value());
    const double deg = 0.003 / 0.8 * 100, half = 1.96 * std::sqrt(2e-4) / 0.8 * 100;
    EXPECT_NEAR(t.confidence->lowPct, deg - half, 1e-9);
    EXPECT_NEAR(t.confidence->highPct, deg + half, 1e-9);
    EXPECT_EQ(t.confidence->confidence, Confidence::Inconclusive);
    // Both edges are crossed; the go edge is the nearer (0.125 points away) and needs the most samples.
    ASSERT_TRUE(t.confidence->samplesNeeded.has_value());
    // (within 1: 0.8 - 0.797 is not exactly 0.003 in binary, and the ceiling sits near an integer)
    EXPECT_NEAR(static_cast<double>(*t.confidence->samplesNeeded),
                std::ceil(1000 * (half / (0.5 - deg)) * (half / (0.5 - deg))), 1.0);
    EXPECT_NE(t.confidence->explanation.find("standard errors"), std::string::npos) << t.confidence->explanation;
    // The whole task already used (1000 of 1000): no count, the task cannot decide it.
    const auto whole = compare(run(0.8, 0.01), run(0.797, 0.01)).tasks.at(0);
    EXPECT_FALSE(whole.confidence->samplesNeeded);
    EXPECT_EQ(whole.confidence->decidable, false);
    // TOST at 0.5 %: delta -0.375 % +- 1.6449 * 1.7678 % reaches far outside the margin.
    ASSERT_TRUE(t.equivalence.has_value());
    EXPECT_FALSE(t.equivalence->equivalent);
    EXPECT_NEAR(t.equivalence->lowPct, -0.375 - 1.6448536269514722 * std::sqrt(2e-4) / 0.8 * 100, 1e-6);
    // The default policy keeps the point estimate's band.
    EXPECT_EQ(t.verdict, Verdict::Go);
    EXPECT_EQ(r.verdict, Verdict::Go);
    EXPECT_NE(r.reasons.at(r.reasons.size() - 2).find("unsettled"), std::string::npos);
    EXPECT_NE(r.reasons.back().find("1 task compared"), std::string::npos);
}

TEST(TaskConfidence, ClearAndEquivalentWhenTheIntervalIsNarrow) {
    // 0.8 -> 0.8 with se 0.0005: half-width 1.96 * sqrt(5e-7) / 0.8 * 100 = 0.173 %, inside the go band; the
    // 90 % interval +-1.6449 * 0.0884 % lies inside +-0.5 %: equivalence shown.
    ComparisonOptions sameScores;  // two equal runs: refused as the same run twice unless allowed
    sameScores.allowIncomparable = true;
    const auto r = compare(run(0.8, 0.0005), run(0.8, 0.0005), sameScores);
    const auto& t = r.tasks.at(0);
    ASSERT_TRUE(t.confidence.has_value());
    EXPECT_EQ(t.confidence->confidence, Confidence::Clear);
    EXPECT_NEAR(t.confidence->highPct, 1.96 * std::sqrt(5e-7) / 0.8 * 100, 1e-9);
    EXPECT_FALSE(t.confidence->samplesNeeded.has_value());
    ASSERT_TRUE(t.equivalence.has_value());
    EXPECT_TRUE(t.equivalence->equivalent);
}

TEST(TaskConfidence, AbsentWithoutStandardErrorsOrLogs) {
    const auto r = compare(run(0.8, -1), run(0.797, -1));
    EXPECT_FALSE(r.tasks.at(0).confidence.has_value());
    EXPECT_FALSE(r.tasks.at(0).equivalence.has_value());
}

TEST(CautiousPolicy, AStraddlingTaskTakesTheWorseBand) {
    ComparisonOptions cautious;
    cautious.cautious = true;
    // se 0.01: the interval reaches 3.84 %, the investigate band.
    auto r = compare(run(0.8, 0.01), run(0.797, 0.01), cautious);
    EXPECT_EQ(r.tasks.at(0).pointVerdict, Verdict::Go);
    EXPECT_EQ(r.tasks.at(0).verdict, Verdict::Investigate);
    EXPECT_EQ(r.verdict, Verdict::Investigate);
    EXPECT_NE(r.tasks.at(0).reason.find("cautious policy"), std::string::npos) << r.tasks.at(0).reason;
    EXPECT_TRUE(r.cautious);
    // se 0.003: half-width 1.96 * sqrt(1.8e-5) / 0.8 * 100 = 1.039 %, so the interval tops out at 1.414 %: monitor.
    const double high = 0.375 + 1.96 * std::sqrt(1.8e-5) / 0.8 * 100;
    ASSERT_LT(high, 1.5);
    r = compare(run(0.8, 0.003), run(0.797, 0.003), cautious);
    EXPECT_EQ(r.tasks.at(0).verdict, Verdict::Monitor);
    EXPECT_EQ(r.verdict, Verdict::Monitor);
    // A clear task is untouched by the policy.
    r = compare(run(0.8, 0.0005), run(0.7985, 0.0005), cautious);  // 0.1875 +- 0.173: inside go
    ASSERT_EQ(r.tasks.at(0).confidence->confidence, Confidence::Clear);
    EXPECT_EQ(r.tasks.at(0).verdict, Verdict::Go);
}

TEST(ControlRun, NoiseFloorIsTheControlsSpread) {
    auto r = compare(run(0.8, 0.01), run(0.797, 0.01));
    auto notes = applyControlRun(r, run(0.795, 0.01), "BF16 rerun");
    EXPECT_TRUE(notes.empty());
    ASSERT_TRUE(r.tasks.at(0).noiseFloorPct.has_value());
    EXPECT_NEAR(*r.tasks.at(0).noiseFloorPct, 0.005 / 0.8 * 100, 1e-12);
    EXPECT_EQ(r.controlLabel, "BF16 rerun");
    EXPECT_EQ(r.verdict, Verdict::Go);  // shown, not applied
    // A control without the task: a note, no floor.
    notes = applyControlRun(r, run(0.5, 0.01, 100, "piqa"));
    EXPECT_FALSE(r.tasks.at(0).noiseFloorPct.has_value());
    ASSERT_EQ(notes.size(), 1u);
    EXPECT_NE(notes[0].find("arc_easy"), std::string::npos);
}

// ---- the paired tests on the sample-log fixtures ---------------------------------------------------------------

const fs::path kSamples = test::testData() / "lm-eval-samples";
const fs::path kBf16 =
    kSamples / "new-layout/bf16/meta-llama__Llama-3.1-8B-Instruct/results_2026-08-21T10-15-30.123456.json";
const fs::path kFp8 = kSamples / "new-layout/fp8/RedHatAI__Llama-3.1-8B-Instruct-FP8-dynamic";

Json expected() {
    std::ifstream in(kSamples / "expected.json");
    return Json::parse(in);
}

ComparisonDocument fixtureDocument() {
    auto b = readLmEvalPath(kBf16);
    auto c = readLmEvalPath(kFp8);
    if (!b || !c) throw std::runtime_error("fixture: " + (b ? c.error().message : b.error().message));
    ComparisonOptions o;
    o.overrides.push_back(MetricOverride::parse("arc_challenge=acc").value());
    return makeComparisonDocument({"BF16", b->sourcePath, std::move(b).value()},
                                  {"FP8", c->sourcePath, std::move(c).value()}, o);
}

TEST(PairedResults, ComputedFromTheLogsBesideBothRuns) {
    ComparisonDocument doc = fixtureDocument();
    auto report = doc.evaluate();
    ASSERT_TRUE(report.ok()) << report.error().message;
    auto paired = computePairedResults(*report, kBf16, kFp8);
    ASSERT_TRUE(paired.ok()) << paired.error().message;
    const Json e = expected();
    ASSERT_EQ(paired->results.count("gsm8k"), 1u);
    const auto& g = paired->results.at("gsm8k");
    EXPECT_EQ(g.filter, "strict-match");  // the comparison's choice for gsm8k
    EXPECT_EQ(g.n, e["new_gsm8k_strict"]["n"].get<std::uint64_t>());
    EXPECT_EQ(g.b01, e["new_gsm8k_strict"]["b01"].get<std::uint64_t>());
    EXPECT_EQ(g.b10, e["new_gsm8k_strict"]["b10"].get<std::uint64_t>());
    EXPECT_NEAR(g.pValue, e["new_gsm8k_strict"]["p_value"].get<double>(), 1e-12);
    const auto& a = paired->results.at("arc_challenge");
    EXPECT_EQ(a.metric, "acc");
    EXPECT_EQ(a.b01, e["new_arc_acc"]["b01"].get<std::uint64_t>());
    EXPECT_EQ(a.b10, e["new_arc_acc"]["b10"].get<std::uint64_t>());
    const auto& d = paired->results.at("drop");
    EXPECT_FALSE(d.binary);
    EXPECT_EQ(d.n, e["new_drop_f1"]["n"].get<std::uint64_t>());
    EXPECT_TRUE(paired->notes.empty());

    // Applied: the confidence comes from the paired interval (degradation = -delta for accuracies).
    const auto notes = applyPairedResults(*report, paired->results);
    EXPECT_TRUE(notes.empty());
    for (const auto& t : report->tasks) {
        ASSERT_TRUE(t.paired.has_value()) << t.task;
        ASSERT_TRUE(t.confidence.has_value()) << t.task;
        ASSERT_TRUE(t.paired->deltaPctCi.has_value());
        EXPECT_DOUBLE_EQ(t.confidence->lowPct, -t.paired->deltaPctCi->high) << t.task;
        EXPECT_DOUBLE_EQ(t.confidence->highPct, -t.paired->deltaPctCi->low) << t.task;
        EXPECT_EQ(t.confidence->explanation.rfind("From the paired test on " + std::to_string(t.paired->n), 0), 0u)
            << t.confidence->explanation;
    }
}

TEST(PairedResults, MismatchedMetricIsLeftOutWithANote) {
    auto report = compare(run(0.8, 0.01), run(0.797, 0.01));
    PairedTaskResult p;
    p.task = "arc_easy";
    p.metric = "acc_norm";
    p.filter = "none";
    p.test = "mcnemar_exact";
    auto notes = applyPairedResults(report, {{"arc_easy", p}, {"nope", p}});
    ASSERT_EQ(notes.size(), 2u);
    EXPECT_FALSE(report.tasks.at(0).paired.has_value());
    EXPECT_NE(notes[0].find("acc_norm"), std::string::npos) << notes[0];
    EXPECT_NE(notes[1].find("not a compared task"), std::string::npos) << notes[1];
}

TEST(PairedResults, NoLogsIsANoteNotAnError) {
    const fs::path seed = test::testData() / "lm-eval/seed-pair";
    auto b = readLmEvalPath(seed / "bf16");
    auto c = readLmEvalPath(seed / "fp8");
    ASSERT_TRUE(b.ok() && c.ok());
    auto report = compare(*b, *c);
    auto paired = computePairedResults(report, seed / "bf16", seed / "fp8");
    ASSERT_TRUE(paired.ok()) << paired.error().message;
    EXPECT_TRUE(paired->results.empty());
    EXPECT_EQ(paired->notes.size(), report.tasks.size());
}

TEST(ComparisonFilePaired, RoundTripsThroughSaveAndLoad) {
    ComparisonDocument doc = fixtureDocument();
    auto report = doc.evaluate();
    ASSERT_TRUE(report.ok());
    auto paired = computePairedResults(*report, kBf16, kFp8);
    ASSERT_TRUE(paired.ok());
    doc.paired = paired->results;
    doc.options.cautious = true;
    doc.control = RunRecord{"BF16 control", "", doc.baseline.results};
    test::TempDir dir;
    const auto path = dir.path() / "paired.fp8cmp";
    ASSERT_TRUE(saveComparisonFile(doc, path).ok());
    auto loaded = loadComparisonFile(path);
    ASSERT_TRUE(loaded.ok()) << loaded.error().message;
    EXPECT_TRUE(loaded->options.cautious);
    ASSERT_TRUE(loaded->control.has_value());
    EXPECT_EQ(loaded->control->label, "BF16 control");
    ASSERT_EQ(loaded->paired.size(), doc.paired.size());
    for (const auto& [task, r] : doc.paired) {
        ASSERT_EQ(loaded->paired.count(task), 1u) << task;
        EXPECT_EQ(pairedToJson(loaded->paired.at(task)), pairedToJson(r)) << task;
        EXPECT_EQ(loaded->paired.at(task).summary, r.summary);
    }
    EXPECT_EQ(toJson(*loaded), toJson(doc));
    // The offline decision is the same, task by task, with the paired results and the control applied.
    auto before = decide(doc), after = decide(*loaded);
    ASSERT_TRUE(before.ok() && after.ok());
    EXPECT_EQ(before->verdict, after->verdict);
    EXPECT_EQ(before->reasons, after->reasons);
    for (std::size_t i = 0; i < after->evals->tasks.size(); ++i) {
        const auto& t = after->evals->tasks[i];
        EXPECT_TRUE(t.paired.has_value()) << t.task;
        ASSERT_TRUE(t.noiseFloorPct.has_value());
        EXPECT_EQ(*t.noiseFloorPct, 0.0);  // the control is the baseline itself
        EXPECT_EQ(reportToJson(*after->evals)["tasks"][i], reportToJson(*before->evals)["tasks"][i]);
    }
}

TEST(ComparisonFilePaired, BadSectionNamesTheField) {
    ComparisonDocument doc = fixtureDocument();
    Json j = toJson(doc);
    j["paired"] = {{"gsm8k", {{"task", "gsm8k"}, {"filter", "none"}, {"test", "none"}, {"n", 0}, {"p_value", 1}}}};
    auto r = parseComparisonText(j.dump(), "x.fp8cmp");
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error().message.find("x.fp8cmp: field paired.gsm8k.metric is missing"), std::string::npos)
        << r.error().message;
    j["paired"]["gsm8k"]["metric"] = "exact_match";
    j["paired"]["gsm8k"]["discordant"] = {1, "two"};
    r = parseComparisonText(j.dump(), "x.fp8cmp");
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error().message.find("paired.gsm8k.discordant"), std::string::npos) << r.error().message;
    j["settings"]["cautious"] = "yes";
    j["paired"].erase("gsm8k");
    r = parseComparisonText(j.dump(), "x.fp8cmp");
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error().message.find("settings.cautious"), std::string::npos) << r.error().message;
}

TEST(ComparisonFileOld, TheDemoStillLoadsWithTheSameVerdict) {
    // The demo as fp8dash 0.1.0 shipped it (before the judge, paired results and the control run existed).
    const fs::path demo = fs::path(FP8DASH_TEST_DATA) / "comparison-files/v1/demo-llama3-8b-instruct-fp8.fp8cmp";
    auto doc = loadComparisonFile(demo);
    ASSERT_TRUE(doc.ok()) << doc.error().message;
    EXPECT_FALSE(doc->options.cautious);
    EXPECT_TRUE(doc->paired.empty());
    EXPECT_FALSE(doc->judge.has_value());
    EXPECT_FALSE(doc->control.has_value());
    auto d = decide(*doc);
    ASSERT_TRUE(d.ok()) << d.error().message;
    // gsm8k 75.96 -> 73.99 is a 2.59 % loss: investigate, under the default policy as before.
    ASSERT_TRUE(d->verdict.has_value());
    EXPECT_EQ(*d->verdict, Verdict::Investigate);
    for (const auto& t : d->evals->tasks) {
        if (t.task != "gsm8k") continue;
        EXPECT_NEAR(*t.degradationPct, (75.96 - 73.99) / 75.96 * 100, 0.01);
        EXPECT_EQ(t.verdict, t.pointVerdict);
    }
}

// ---- the judge in the comparison file and the decision ---------------------------------------------------------

std::string judgeSection(const std::vector<double>& b, const std::vector<double>& c) {
    auto side = [](const std::vector<double>& s) {
        Json samples = Json::array();
        for (std::size_t i = 0; i < s.size(); ++i)
            samples.push_back({{"id", "q" + std::to_string(i)}, {"score", s[i]}});
        return Json{{"source", "scores.jsonl"}, {"format", "jsonl"}, {"samples", samples}};
    };
    return Json{{"scale", {{"min", 1}, {"max", 5}}}, {"baseline", side(b)}, {"candidate", side(c)}}.dump();
}

TEST(ComparisonFileJudge, JudgeOnlyDocumentIsValid) {
    // Baseline mean 4.2, candidate 4.0: a 4.76 % degradation, investigate.
    const std::string text = R"({"format": "fp8dash-comparison", "version": 1, "title": "judge only", "judge": )" +
                             judgeSection({5, 4, 4, 5, 3}, {5, 4, 3, 5, 3}) + "}";
    auto doc = parseComparisonText(text, "judge.fp8cmp");
    ASSERT_TRUE(doc.ok()) << doc.error().message;
    EXPECT_FALSE(doc->hasEvals);
    ASSERT_TRUE(doc->judge.has_value());
    EXPECT_FALSE(doc->evaluate().ok());
    EXPECT_NE(doc->evaluate().error().message.find("judge"), std::string::npos);
    auto d = decide(*doc);
    ASSERT_TRUE(d.ok()) << d.error().message;
    ASSERT_TRUE(d->judge.has_value());
    EXPECT_DOUBLE_EQ(d->judge->baselineMean, 21.0 / 5);
    EXPECT_DOUBLE_EQ(d->judge->candidateMean, 20.0 / 5);
    EXPECT_NEAR(d->judge->degradationPct, (4.2 - 4.0) / 4.2 * 100, 1e-9);
    EXPECT_EQ(d->verdict, Verdict::Investigate);
    EXPECT_EQ(d->reasons.at(0).rfind("domain judge: ", 0), 0u);
    // Saved and read back: the same section, still judge-only.
    auto again = parseComparisonText(toJson(*doc).dump(), "again.fp8cmp");
    ASSERT_TRUE(again.ok()) << again.error().message;
    EXPECT_FALSE(again->hasEvals);
    EXPECT_EQ(again->judge->baseline, doc->judge->baseline);
    EXPECT_EQ(again->judge->candidate, doc->judge->candidate);
    // Neither runs, nor a timeline, nor a judge: still an error.
    EXPECT_FALSE(parseComparisonText(R"({"format": "fp8dash-comparison", "version": 1})", "empty.fp8cmp").ok());
}

TEST(ComparisonFileJudge, OverallVerdictIsTheWorstOfEvalsAndJudge) {
    const fs::path seed = test::testData() / "lm-eval/seed-pair";
    auto b = readLmEvalPath(seed / "bf16");
    auto c = readLmEvalPath(seed / "fp8");
    ASSERT_TRUE(b.ok() && c.ok());
    auto judgeOf = [](const std::vector<double>& bs, const std::vector<double>& cs) {
        return parseJudgeSection(Json::parse(judgeSection(bs, cs)), "judge").value();
    };
    // Evals go (the baseline against itself), judge investigate: investigate, the judge's reasons first.
    ComparisonOptions sameRun;  // one run against itself: refused unless allowed
    sameRun.allowIncomparable = true;
    ComparisonDocument doc = makeComparisonDocument({"BF16", "", *b}, {"FP8", "", *b}, sameRun);
    doc.judge = judgeOf({5, 4, 4, 5, 3}, {5, 4, 3, 5, 3});
    auto d = decide(doc);
    ASSERT_TRUE(d.ok()) << d.error().message;
    EXPECT_EQ(d->evals->verdict, Verdict::Go);
    EXPECT_EQ(d->judge->verdict, Verdict::Investigate);
    EXPECT_EQ(d->verdict, Verdict::Investigate);
    EXPECT_EQ(d->reasons.front().rfind("domain judge: ", 0), 0u) << d->reasons.front();
    // Evals investigate (the seed pair's gsm8k), judge go (identical scores): investigate, evals first.
    doc = makeComparisonDocument({"BF16", "", *b}, {"FP8", "", *c}, {});
    doc.judge = judgeOf({5, 4, 4, 5, 3}, {5, 4, 4, 5, 3});
    d = decide(doc);
    ASSERT_TRUE(d.ok());
    EXPECT_EQ(d->judge->verdict, Verdict::Go);
    EXPECT_EQ(d->verdict, Verdict::Investigate);
    EXPECT_EQ(d->reasons.front().rfind("offline evals: ", 0), 0u);
    EXPECT_EQ(d->reasons.back().rfind("domain judge: ", 0), 0u);
    // The renderings carry both.
    const Json j = decisionToJson(*d);
    EXPECT_EQ(j["verdict"], "investigate");
    EXPECT_EQ(j["evals_verdict"], "investigate");
    EXPECT_DOUBLE_EQ(j["judge"]["baseline_mean"].get<double>(), 4.2);
    const std::string text = decisionToText(*d, doc, "title");
    EXPECT_NE(text.find("Overall verdict: INVESTIGATE"), std::string::npos) << text;
    EXPECT_NE(text.find("Domain judge"), std::string::npos);
    EXPECT_NE(decisionToMarkdown(*d, doc, "title").find("### Domain judge"), std::string::npos);
    // The cautious setting is the document's, for the judge too.
    doc.options.cautious = true;
    doc.judge->options.cautious = false;
    auto judge = doc.evaluateJudge();
    ASSERT_TRUE(judge && judge->ok());
    const Json saved = toJson(doc);
    EXPECT_EQ(saved["judge"]["cautious"], true);
    EXPECT_EQ(saved["settings"]["cautious"], true);
}

}  // namespace
}  // namespace fp8dash
