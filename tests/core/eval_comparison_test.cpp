// The comparison rules (README "The comparison rules"), case by case. Expected numbers are computed here from the
// inputs, not read back from the code under test.
#include "fp8dash/core/eval_comparison.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include "test_paths.h"

namespace fp8dash {
namespace {

LmEvalResults parse(const std::string& json) {
    auto r = parseLmEvalText(json, "inline.json");
    if (!r) throw std::runtime_error(r.error().message);
    return std::move(r).value();
}

// A one-task run: {"results": {task: {key: value, ...}}} plus optional extra top-level JSON.
LmEvalResults oneTask(const std::string& task, const std::string& entries, const std::string& extra = "") {
    return parse(R"({"results": {")" + task + R"(": {)" + entries + "}}" + (extra.empty() ? "" : ", " + extra) + "}");
}

// Several rules are shown on a run compared with itself. Two identical runs are refused unless allowed (tested in
// comparability_test.cpp), so the refusal is lifted here when, and only when, the check finds them identical.
ComparisonReport compare(const LmEvalResults& b, const LmEvalResults& c, ComparisonOptions o = {}) {
    if (checkComparability(b, c).identical) o.allowIncomparable = true;
    auto r = compareEvals(b, c, o);
    if (!r) throw std::runtime_error(r.error().message);
    return std::move(r).value();
}

const TaskComparison& row(const ComparisonReport& r, const std::string& task) {
    for (const auto& t : r.tasks)
        if (t.task == task) return t;
    throw std::runtime_error("no compared task " + task);
}

std::string exact(double v) {
    char buf[40];
    std::snprintf(buf, sizeof buf, "%.17g", v);
    return buf;
}

Verdict verdictOf(double baseline, double candidate, Thresholds t = {}) {
    ComparisonOptions o;
    o.thresholds = t;
    return compare(oneTask("t", R"("acc,none": )" + exact(baseline)),
                   oneTask("t", R"("acc,none": )" + exact(candidate)), o)
        .verdict;
}

TEST(VerdictBands, EdgesAreInclusiveForMonitor) {
    // Degradations in decimal: 0.4% go, 0.5% monitor, 1.5% monitor, 1.6% investigate (baseline 0.8).
    EXPECT_EQ(verdictOf(0.8, 0.7968), Verdict::Go);              // 0.4%
    EXPECT_EQ(verdictOf(0.8, 0.796), Verdict::Monitor);          // exactly 0.5%
    EXPECT_EQ(verdictOf(0.8, 0.7960001), Verdict::Go);           // 0.4999875%
    EXPECT_EQ(verdictOf(0.8, 0.788), Verdict::Monitor);          // exactly 1.5%
    EXPECT_EQ(verdictOf(0.8, 0.7879999), Verdict::Investigate);  // 1.5000125%
    EXPECT_EQ(verdictOf(0.8, 0.7872), Verdict::Investigate);     // 1.6%
    EXPECT_EQ(verdictOf(0.8, 0.9), Verdict::Go);                 // an improvement is zero degradation
    EXPECT_EQ(verdictOf(0.8, 0.8), Verdict::Go);
}

TEST(VerdictBands, ThresholdsAreOptions) {
    EXPECT_EQ(verdictOf(0.8, 0.7968, {0.25, 1.0}), Verdict::Monitor);     // 0.4% >= 0.25
    EXPECT_EQ(verdictOf(0.8, 0.788, {0.25, 1.0}), Verdict::Investigate);  // 1.5% > 1.0
    EXPECT_EQ(verdictOf(0.8, 0.788, {2.0, 3.0}), Verdict::Go);
    ComparisonOptions bad;
    bad.thresholds = {2.0, 1.0};
    auto r = compareEvals(oneTask("t", R"("acc,none": 1)"), oneTask("t", R"("acc,none": 1)"), bad);
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error().message.find("must not exceed"), std::string::npos);
}

TEST(Delta, FormulaStderrAndSigmas) {
    auto r = compare(oneTask("t", R"("acc,none": 0.75, "acc_stderr,none": 0.03)"),
                     oneTask("t", R"("acc,none": 0.72, "acc_stderr,none": 0.04)"));
    const auto& t = row(r, "t");
    EXPECT_DOUBLE_EQ(*t.deltaPct, (0.72 - 0.75) / 0.75 * 100);
    EXPECT_NEAR(*t.degradationPct, 4.0, 1e-12);
    EXPECT_DOUBLE_EQ(*t.baselineStderr, 0.03);
    EXPECT_DOUBLE_EQ(*t.candidateStderr, 0.04);
    EXPECT_NEAR(*t.sigmas, -0.03 / 0.05, 1e-12);  // sqrt(0.03^2 + 0.04^2) = 0.05
    EXPECT_EQ(t.verdict, Verdict::Investigate);
    EXPECT_NE(t.reason.find("inside the noise"), std::string::npos) << t.reason;
}

TEST(Delta, NoSigmasWithoutBothStderrs) {
    auto r = compare(oneTask("t", R"("acc,none": 0.5, "acc_stderr,none": "N/A")"),
                     oneTask("t", R"("acc,none": 0.5, "acc_stderr,none": 0.01)"));
    EXPECT_FALSE(row(r, "t").sigmas.has_value());
    EXPECT_FALSE(row(r, "t").baselineStderr.has_value());
}

TEST(Direction, LowerIsBetterFromTheFile) {
    const std::string hib = R"("higher_is_better": {"t": {"perplexity": false}})";
    auto worse =
        compare(oneTask("t", R"("perplexity,none": 10.0)", hib), oneTask("t", R"("perplexity,none": 10.2)", hib));
    EXPECT_FALSE(row(worse, "t").higherIsBetter);
    EXPECT_NEAR(*row(worse, "t").deltaPct, 2.0, 1e-9);
    EXPECT_NEAR(*row(worse, "t").degradationPct, 2.0, 1e-9);
    EXPECT_EQ(worse.verdict, Verdict::Investigate);
    auto better =
        compare(oneTask("t", R"("perplexity,none": 10.0)", hib), oneTask("t", R"("perplexity,none": 9.0)", hib));
    EXPECT_EQ(*row(better, "t").degradationPct, 0.0);
    EXPECT_EQ(better.verdict, Verdict::Go);
}

TEST(Direction, DefaultLowerIsBetterNames) {
    for (const char* m : {"perplexity", "word_perplexity", "byte_perplexity", "bits_per_byte", "ter"})
        EXPECT_FALSE(defaultHigherIsBetter(m)) << m;
    for (const char* m : {"acc", "bleu", "mcc", "exact_match", "f1"}) EXPECT_TRUE(defaultHigherIsBetter(m)) << m;
    auto r = compare(oneTask("w", R"("bits_per_byte,none": 0.60)"), oneTask("w", R"("bits_per_byte,none": 0.606)"));
    EXPECT_FALSE(row(r, "w").higherIsBetter);
    EXPECT_NEAR(*row(r, "w").degradationPct, 1.0, 1e-9);
    EXPECT_EQ(r.verdict, Verdict::Monitor);
}

TEST(Direction, FileOverridesDefault) {
    // A file may declare a normally lower-is-better name higher-is-better; the file wins.
    const std::string hib = R"("higher_is_better": {"t": {"ter": true}})";
    auto r = compare(oneTask("t", R"("ter,none": 1.0)", hib), oneTask("t", R"("ter,none": 0.9)", hib));
    EXPECT_TRUE(row(r, "t").higherIsBetter);
    EXPECT_NEAR(*row(r, "t").degradationPct, 10.0, 1e-9);
}

TEST(ZeroBaseline, IsReportedNotDivided) {
    auto same = compare(oneTask("t", R"("acc,none": 0)"), oneTask("t", R"("acc,none": 0)"));
    EXPECT_FALSE(row(same, "t").deltaPct.has_value());
    EXPECT_FALSE(row(same, "t").degradationPct.has_value());
    EXPECT_EQ(same.verdict, Verdict::Go);
    EXPECT_NE(row(same, "t").reason.find("baseline is 0"), std::string::npos);
    const std::string hib = R"("higher_is_better": {"t": {"bleu_diff": true}})";
    auto worse = compare(oneTask("t", R"("bleu_diff,none": 0)", hib), oneTask("t", R"("bleu_diff,none": -0.5)", hib));
    EXPECT_EQ(worse.verdict, Verdict::Investigate);
    EXPECT_FALSE(row(worse, "t").deltaPct.has_value());
}

TEST(PrimaryMetric, PreferenceOrder) {
    auto r = compare(oneTask("t", R"("acc,none": 0.5, "acc_norm,none": 0.6)"),
                     oneTask("t", R"("acc,none": 0.5, "acc_norm,none": 0.6)"));
    EXPECT_EQ(row(r, "t").metric, "acc_norm,none");
    r = compare(oneTask("t", R"("f1,none": 0.5, "exact_match,none": 0.6, "em,none": 0.1)"),
                oneTask("t", R"("f1,none": 0.5, "exact_match,none": 0.6, "em,none": 0.1)"));
    EXPECT_EQ(row(r, "t").metric, "exact_match,none");
    r = compare(oneTask("t", R"("mc1,none": 0.3, "mc2,none": 0.5, "pass@1,none": 0.2)"),
                oneTask("t", R"("mc1,none": 0.3, "mc2,none": 0.5, "pass@1,none": 0.2)"));
    EXPECT_EQ(row(r, "t").metric, "pass@1,none");
}

TEST(PrimaryMetric, HigherIsBetterThenFileOrder) {
    const std::string hib = R"("higher_is_better": {"t": {"bleu_max": true, "rouge1_max": true}})";
    auto r = compare(oneTask("t", R"("rouge1_max,none": 40, "bleu_max,none": 20)", hib),
                     oneTask("t", R"("rouge1_max,none": 40, "bleu_max,none": 20)", hib));
    EXPECT_EQ(row(r, "t").metric, "bleu_max,none");
    r = compare(oneTask("t", R"("rouge1_max,none": 40, "bleu_max,none": 20)"),
                oneTask("t", R"("rouge1_max,none": 40, "bleu_max,none": 20)"));
    EXPECT_EQ(row(r, "t").metric, "rouge1_max,none");
}

TEST(PrimaryMetric, FilterOrder) {
    const std::string entries =
        R"("exact_match,zeta": 0.1, "exact_match,flexible-extract": 0.2, "exact_match,alpha": 0.3,
                                   "exact_match,strict-match": 0.4)";
    auto r = compare(oneTask("g", entries), oneTask("g", entries));
    EXPECT_EQ(row(r, "g").metric, "exact_match,strict-match");
    const std::string noStrict =
        R"("exact_match,zeta": 0.1, "exact_match,alpha": 0.3, "exact_match,flexible-extract": 0.2)";
    r = compare(oneTask("g", noStrict), oneTask("g", noStrict));
    EXPECT_EQ(row(r, "g").metric, "exact_match,flexible-extract");
    const std::string custom = R"("exact_match,zeta": 0.1, "exact_match,alpha": 0.3)";
    r = compare(oneTask("g", custom), oneTask("g", custom));
    EXPECT_EQ(row(r, "g").metric, "exact_match,alpha");
}

TEST(PrimaryMetric, RealGsm8kIsStrictMatch) {
    FP8DASH_REQUIRE_FIXTURE(path, "llama3-8b-instruct_gsm8k_v0.4.2.json");
    auto run = readLmEvalPath(path);
    ASSERT_TRUE(run.ok());
    auto r = compare(*run, *run);
    EXPECT_EQ(row(r, "gsm8k").metric, "exact_match,strict-match");
    EXPECT_DOUBLE_EQ(row(r, "gsm8k").baseline, 0.7558756633813495);
}

TEST(Overrides, MetricAndFilter) {
    auto b =
        parse(R"({"results": {"gsm8k": {"exact_match,strict-match": 0.9, "exact_match,flexible-extract": 0.91}}})");
    auto c =
        parse(R"({"results": {"gsm8k": {"exact_match,strict-match": 0.873, "exact_match,flexible-extract": 0.905}}})");
    ComparisonOptions o;
    o.overrides.push_back(MetricOverride::parse("gsm8k=exact_match,flexible-extract").value());
    auto r = compare(b, c, o);
    EXPECT_EQ(row(r, "gsm8k").metric, "exact_match,flexible-extract");
    EXPECT_NEAR(*row(r, "gsm8k").degradationPct, (0.91 - 0.905) / 0.91 * 100, 1e-12);
    EXPECT_EQ(r.verdict, Verdict::Monitor);

    o.overrides = {MetricOverride::parse("gsm8k=exact_match").value()};  // filter chosen by the filter order
    EXPECT_EQ(row(compare(b, c, o), "gsm8k").metric, "exact_match,strict-match");

    o.overrides = {MetricOverride::parse("gsm8k=acc").value()};
    auto bad = compareEvals(b, c, o);
    ASSERT_FALSE(bad.ok());
    EXPECT_NE(bad.error().message.find("has no metric acc"), std::string::npos) << bad.error().message;
    EXPECT_NE(bad.error().message.find("exact_match,strict-match"), std::string::npos);

    o.overrides = {MetricOverride::parse("mmlu=acc").value()};
    bad = compareEvals(b, c, o);
    ASSERT_FALSE(bad.ok());
    EXPECT_NE(bad.error().message.find("no task \"mmlu\""), std::string::npos);
}

TEST(Overrides, ParseSyntax) {
    auto o = MetricOverride::parse(" gsm8k = exact_match , flexible-extract ");
    ASSERT_TRUE(o.ok());
    EXPECT_EQ(o->task, "gsm8k");
    EXPECT_EQ(o->metric, "exact_match");
    EXPECT_EQ(o->filter, "flexible-extract");
    EXPECT_EQ(o->toString(), "gsm8k=exact_match,flexible-extract");
    for (const char* bad : {"gsm8k", "=acc", "gsm8k=", "gsm8k=acc,", ""})
        EXPECT_FALSE(MetricOverride::parse(bad).ok()) << bad;
}

TEST(MissingTasks, OneSidedAndLackingMetric) {
    auto b = parse(R"({"results": {"a": {"acc,none": 0.5}, "b": {"acc,none": 0.5}, "c": {"acc_norm,none": 0.5},
                                   "g": {" ": " ", "alias": "g"}}})");
    auto c = parse(R"({"results": {"a": {"acc,none": 0.5}, "c": {"acc,none": 0.5}, "d": {"acc,none": 0.5},
                                   "g": {" ": " ", "alias": "g"}}})");
    auto r = compare(b, c);
    ASSERT_EQ(r.tasks.size(), 1u);
    EXPECT_EQ(r.tasks[0].task, "a");
    ASSERT_EQ(r.missing.size(), 4u);
    EXPECT_EQ(r.missing[0].task, "b");
    EXPECT_NE(r.missing[0].reason.find("only in the baseline"), std::string::npos);
    EXPECT_EQ(r.missing[1].task, "c");
    EXPECT_NE(r.missing[1].reason.find("candidate lacks acc_norm,none"), std::string::npos);
    EXPECT_EQ(r.missing[2].task, "g");
    EXPECT_NE(r.missing[2].reason.find("no score"), std::string::npos);
    EXPECT_EQ(r.missing[3].task, "d");
    EXPECT_NE(r.missing[3].reason.find("only in the candidate"), std::string::npos);
}

TEST(MissingTasks, NothingComparableIsAnError) {
    auto r = compareEvals(oneTask("a", R"("acc,none": 1)"), oneTask("b", R"("acc,none": 1)"), {});
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error().message.find("no task can be compared"), std::string::npos);
    EXPECT_NE(r.error().message.find("a: only in the baseline"), std::string::npos);
}

TEST(MissingTasks, NonFiniteValuesAreNotCompared) {
    auto r =
        compare(parse(R"({"results": {"a": {"acc,none": NaN}, "b": {"acc,none": 0.5}, "c": {"acc,none": 0.5}}})"),
                parse(R"({"results": {"a": {"acc,none": 0.5}, "b": {"acc,none": Infinity}, "c": {"acc,none": 0.5}}})"));
    ASSERT_EQ(r.tasks.size(), 1u);
    EXPECT_EQ(r.tasks[0].task, "c");
    ASSERT_EQ(r.missing.size(), 2u);
    EXPECT_EQ(r.missing[0].task, "a");
    EXPECT_NE(r.missing[0].reason.find("baseline's acc,none is not a finite number"), std::string::npos);
    EXPECT_EQ(r.missing[1].task, "b");
    EXPECT_NE(r.missing[1].reason.find("candidate's acc,none is not a finite number"), std::string::npos);
}

// Llama-3-8B base is not a variant of Llama-3-8B-Instruct: the comparison is refused naming both checkpoints, and
// compared anyway only when allowed, with the blocking item in the comparability list and the first reason.
TEST(DifferentModels, BaseAgainstInstructIsBlockedNamingBothCheckpoints) {
    FP8DASH_REQUIRE_FIXTURE(instruct, "llama3-8b-instruct_mmlu_v0.4.2.json");
    FP8DASH_REQUIRE_FIXTURE(base, "llama3-8b-base_mmlu_v0.4.2.json");
    auto b = readLmEvalPath(instruct), c = readLmEvalPath(base);
    ASSERT_TRUE(b.ok() && c.ok());
    auto refused = compareEvals(*b, *c, {});
    ASSERT_FALSE(refused.ok());
    const std::string& m = refused.error().message;
    EXPECT_NE(m.find("not variants of one model"), std::string::npos) << m;
    EXPECT_NE(m.find("baseline meta-llama/Meta-Llama-3-8B-Instruct, candidate meta-llama/Meta-Llama-3-8B "),
              std::string::npos)
        << m;
    EXPECT_NE(m.find("--allow-incomparable"), std::string::npos) << m;
    ComparisonOptions anyway;
    anyway.allowIncomparable = true;
    auto r = compareEvals(*b, *c, anyway);
    ASSERT_TRUE(r.ok()) << r.error().message;
    ASSERT_FALSE(r->comparability.empty());
    EXPECT_EQ(r->comparability.front().field, "model");
    EXPECT_EQ(r->comparability.front().severity, ComparabilitySeverity::Blocking);
    EXPECT_NE(r->reasons.front().find("different models"), std::string::npos) << r->reasons.front();
    // Neither is quantised: said in the reasons, right after the comparability line.
    ASSERT_GE(r->reasons.size(), 2u);
    EXPECT_NE(r->reasons[1].find("no FP8 or other low-precision layer"), std::string::npos) << r->reasons[1];
}

// An FP8 checkpoint of the baseline's model (another organisation, Meta's old repository name) is a variant.
TEST(DifferentModels, AnFp8CheckpointOfTheBaselinesModelIsAVariant) {
    const auto run = [](const std::string& pretrained) {
        auto r =
            parseLmEvalText(R"({"results": {"gsm8k": {"exact_match,strict-match": )" +
                                std::string(pretrained.find("FP8") != std::string::npos ? "0.74" : "0.75") +
                                R"(}}, "config": {"model": "vllm", "model_args": "pretrained=)" + pretrained + R"("}})",
                            pretrained);
        if (!r) throw std::runtime_error(r.error().message);
        return std::move(r).value();
    };
    for (const char* fp8 :
         {"neuralmagic/Meta-Llama-3-8B-Instruct-FP8", "RedHatAI/Meta-Llama-3-8B-Instruct-FP8-dynamic",
          "nm-testing/Meta-Llama-3-8B-Instruct-FP8-KV", "/models/Meta-Llama-3-8B-Instruct-W8A8-FP8"}) {
        auto r = compareEvals(run("meta-llama/Meta-Llama-3-8B-Instruct"), run(fp8), {});
        ASSERT_TRUE(r.ok()) << fp8 << ": " << r.error().message;
        for (const auto& item : r->comparability) EXPECT_NE(item.field, "model") << fp8;
        EXPECT_EQ(r->tasks.size(), 1u);
    }
    auto other =
        compareEvals(run("meta-llama/Meta-Llama-3-8B-Instruct"), run("neuralmagic/Meta-Llama-3-70B-Instruct-FP8"), {});
    EXPECT_FALSE(other.ok());
}

TEST(Groups, RealMmluPairComparesOnlyTheGroup) {
    FP8DASH_REQUIRE_FIXTURE(instruct, "llama3-8b-instruct_mmlu_v0.4.2.json");
    FP8DASH_REQUIRE_FIXTURE(base, "llama3-8b-base_mmlu_v0.4.2.json");
    auto b = readLmEvalPath(instruct), c = readLmEvalPath(base);
    ASSERT_TRUE(b.ok() && c.ok());
    // Two different models (DifferentModels below): compared anyway, for the group arithmetic of two real files.
    ComparisonOptions anyway;
    anyway.allowIncomparable = true;
    auto r = compare(*b, *c, anyway);
    ASSERT_EQ(r.tasks.size(), 1u);
    const auto& mmlu = row(r, "mmlu");
    EXPECT_TRUE(r.missing.empty());
    EXPECT_EQ(mmlu.metric, "acc,none");
    const double bv = 0.6581683520865973, cv = 0.6504059250818972;
    EXPECT_DOUBLE_EQ(*mmlu.deltaPct, (cv - bv) / bv * 100);  // -1.1794%
    EXPECT_EQ(mmlu.verdict, Verdict::Monitor);
    EXPECT_NEAR(*mmlu.sigmas, (cv - bv) / std::hypot(0.003793336441546875, 0.003784481420755855), 1e-12);
    // Drill-down: 4 categories, then their subjects (57 in all).
    ASSERT_EQ(mmlu.subtasks.size(), 4u);
    EXPECT_EQ(mmlu.subtasks[0].task, "mmlu_humanities");
    EXPECT_DOUBLE_EQ(mmlu.subtasks[0].baseline, 0.6063761955366631);
    EXPECT_DOUBLE_EQ(mmlu.subtasks[0].candidate, 0.5936238044633368);
    std::size_t subjects = 0;
    for (const auto& cat : mmlu.subtasks) subjects += cat.subtasks.size();
    EXPECT_EQ(subjects, 57u);
    const auto& humanities = mmlu.subtasks[0];
    auto formal = std::find_if(humanities.subtasks.begin(), humanities.subtasks.end(),
                               [](const TaskComparison& t) { return t.task == "mmlu_formal_logic"; });
    ASSERT_NE(formal, humanities.subtasks.end());
    EXPECT_DOUBLE_EQ(formal->baseline, 0.5079365079365079);
    EXPECT_DOUBLE_EQ(formal->candidate, 0.48412698412698413);
    // Overall = the worst compared task; subtasks do not count.
    EXPECT_EQ(r.verdict, Verdict::Monitor);
}

TEST(Groups, SeedPairFromOutputFolders) {
    auto b = readLmEvalPath(test::testData() / "lm-eval/seed-pair/bf16");
    auto c = readLmEvalPath(test::testData() / "lm-eval/seed-pair/fp8");
    ASSERT_TRUE(b.ok()) << b.error().message;
    ASSERT_TRUE(c.ok()) << c.error().message;
    auto r = compare(*b, *c);
    ASSERT_EQ(r.tasks.size(), 3u);  // mmlu, hellaswag, gsm8k; the mmlu subtasks are drill-down only
    EXPECT_EQ(row(r, "mmlu").verdict, Verdict::Monitor);  // 0.8 -> 0.796: 0.5%
    EXPECT_EQ(row(r, "hellaswag").metric, "acc_norm,none");
    EXPECT_EQ(row(r, "hellaswag").verdict, Verdict::Go);       // 0.85 -> 0.8466: 0.4%
    EXPECT_EQ(row(r, "gsm8k").verdict, Verdict::Investigate);  // 0.9 -> 0.873: 3%
    EXPECT_NEAR(*row(r, "gsm8k").degradationPct, 3.0, 1e-9);
    EXPECT_EQ(r.verdict, Verdict::Investigate);
    const auto& mmlu = row(r, "mmlu");
    ASSERT_EQ(mmlu.subtasks.size(), 2u);
    EXPECT_EQ(mmlu.subtasks[0].task, "mmlu_humanities");
    ASSERT_EQ(mmlu.subtasks[0].subtasks.size(), 2u);
    EXPECT_EQ(mmlu.subtasks[0].subtasks[1].task, "mmlu_formal_logic");
    EXPECT_NEAR(*mmlu.subtasks[0].subtasks[1].deltaPct, 4.0, 1e-9);
    // Reasons name the worst task; the counts add up.
    ASSERT_GE(r.reasons.size(), 2u);
    EXPECT_NE(r.reasons[0].find("gsm8k"), std::string::npos);
    EXPECT_NE(r.reasons.back().find("3 tasks compared: 1 go, 1 monitor, 1 investigate"), std::string::npos)
        << r.reasons.back();
    // Configuration and risks.
    EXPECT_FALSE(r.baselineConfig.anyFp8());
    EXPECT_TRUE(r.candidateConfig.weights && r.candidateConfig.kvCache && r.candidateConfig.kvScales);
    ASSERT_EQ(r.risks.size(), 1u);
    EXPECT_EQ(r.risks[0].kind, "fp8_sensitive_task");
    EXPECT_EQ(r.risks[0].subject, "gsm8k");
}

TEST(Groups, SelfListingGroupDoesNotLoop) {
    // g lists itself (ignored) and s; s and t list each other: the drill-down stops where it would loop.
    auto run = parse(R"({"results": {"g": {"acc,none": 0.5}, "s": {"acc,none": 0.4}, "t": {"acc,none": 0.3}},
                         "group_subtasks": {"g": ["g", "s"], "s": ["t"], "t": ["s"]}})");
    auto r = compare(run, run);
    ASSERT_EQ(r.tasks.size(), 1u);
    EXPECT_EQ(r.tasks[0].task, "g");
    ASSERT_EQ(r.tasks[0].subtasks.size(), 1u);
    const auto& s = r.tasks[0].subtasks[0];
    EXPECT_EQ(s.task, "s");
    ASSERT_EQ(s.subtasks.size(), 1u);
    EXPECT_EQ(s.subtasks[0].task, "t");
    EXPECT_TRUE(s.subtasks[0].subtasks.empty());
    ASSERT_EQ(s.subtasks[0].subtasksNotCompared.size(), 1u);
    EXPECT_NE(s.subtasks[0].subtasksNotCompared[0].find("loops"), std::string::npos);
}

TEST(Risks, SmallModelAndKvCacheWithoutScales) {
    auto b = readLmEvalPath(test::testData() / "lm-eval/ppl-bf16.json");
    auto c = readLmEvalPath(test::testData() / "lm-eval/ppl-fp8kv.json");
    ASSERT_TRUE(b.ok() && c.ok());
    auto r = compare(*b, *c);
    EXPECT_EQ(row(r, "wikitext").metric, "word_perplexity,none");  // first metric in the file
    EXPECT_FALSE(row(r, "wikitext").higherIsBetter);
    EXPECT_EQ(row(r, "wikitext").verdict, Verdict::Investigate);  // 10.0 -> 10.2 is a 2% loss
    EXPECT_EQ(row(r, "lambada_openai").metric, "acc,none");
    std::vector<std::string> kinds;
    for (const auto& f : r.risks) kinds.push_back(f.kind);
    EXPECT_EQ(kinds, (std::vector<std::string>{"small_model", "kv_cache_without_scales"}));
    EXPECT_NE(r.risks[0].message.find("1.5B"), std::string::npos) << r.risks[0].message;
}

TEST(Risks, SensitiveTaskNames) {
    for (const char* t : {"gsm8k", "gsm8k_cot", "minerva_math_algebra", "hendrycks_math", "humaneval", "mbpp_plus",
                          "MATH", "mathqa", "aime24", "apps"})
        EXPECT_TRUE(isFp8SensitiveTask(t)) << t;
    for (const char* t :
         {"hellaswag", "mmlu", "arc_challenge", "winogrande", "truthfulqa_mc2", "lambada_openai", "happs"})
        EXPECT_FALSE(isFp8SensitiveTask(t)) << t;
}

TEST(Risks, LimitedSamplesAndUnlabelledCandidate) {
    auto b =
        parse(R"({"results": {"t": {"acc,none": 0.5}}, "n-samples": {"t": {"original": 1000, "effective": 100}}})");
    auto r = compare(b, b);
    std::vector<std::string> kinds;
    for (const auto& f : r.risks) kinds.push_back(f.kind);
    EXPECT_EQ(kinds, (std::vector<std::string>{"candidate_without_fp8", "limited_samples", "limited_samples"}));
}

}  // namespace
}  // namespace fp8dash
