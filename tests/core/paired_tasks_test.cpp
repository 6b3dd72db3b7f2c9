// Paired tests per task on lm-eval sample logs. Expected counts come from the fixtures' construction
// (tests/data/lm-eval-samples/expected.json, written by make_samples.py) or from the synthetic logs built here;
// p-values are recomputed in the test from the binomial sum.
#include "fp8dash/core/paired_tasks.h"

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>

#include "test_paths.h"

namespace fp8dash {
namespace {

namespace fs = std::filesystem;
using test::TempDir;

fs::path pairedSamplesDir() {
    return test::testData() / "lm-eval-samples";
}
fs::path pairedNewBf16() {
    return pairedSamplesDir() / "new-layout/bf16/meta-llama__Llama-3.1-8B-Instruct";
}
fs::path pairedNewFp8() {
    return pairedSamplesDir() / "new-layout/fp8/RedHatAI__Llama-3.1-8B-Instruct-FP8-dynamic";
}
fs::path pairedOldBf16() {
    return pairedSamplesDir() / "old-layout/bf16/meta-llama__Llama-3.1-8B-Instruct";
}
fs::path oldFp8() {
    return pairedSamplesDir() / "old-layout/fp8/RedHatAI__Llama-3.1-8B-Instruct-FP8-dynamic";
}

nlohmann::json pairedExpected(const std::string& key) {
    std::ifstream in(pairedSamplesDir() / "expected.json");
    return nlohmann::json::parse(in).at(key);
}

bool pairedAnyContains(const std::vector<std::string>& items, const std::string& part) {
    for (const auto& s : items)
        if (s.find(part) != std::string::npos) return true;
    return false;
}

// 2 * P[X <= k], X ~ Binomial(n, 1/2), capped at 1: summed directly in long double.
double pairedExactMcNemar(unsigned b01, unsigned b10) {
    const unsigned n = b01 + b10, k = std::min(b01, b10);
    if (n == 0) return 1.0;
    long double term = std::pow(0.5L, static_cast<long double>(n));  // C(n, 0) / 2^n
    long double sum = 0;
    for (unsigned i = 0; i <= k; ++i) {
        sum += term;
        term = term * (n - i) / (i + 1);
    }
    return static_cast<double>(std::min(1.0L, 2 * sum));
}

PairedTaskSpec spec(std::string task, std::string metric, std::string filter, bool higherIsBetter = true) {
    PairedTaskSpec s;
    s.task = std::move(task);
    s.metric = std::move(metric);
    s.filter = std::move(filter);
    s.higherIsBetter = higherIsBetter;
    return s;
}

PairedTaskResult pairFolders(const fs::path& b, const fs::path& c, const PairedTaskSpec& s) {
    auto bi = findSampleLogsForRunPath(b);
    auto ci = findSampleLogsForRunPath(c);
    EXPECT_TRUE(bi.ok() && ci.ok());
    auto out = pairTaskLogs(*bi, *ci, s);
    EXPECT_TRUE(out.ok()) << out.error().message;
    EXPECT_TRUE(out->result.has_value()) << out->noLogsReason;
    return *out->result;
}

void expectBinary(const PairedTaskResult& r, const nlohmann::json& e) {
    EXPECT_EQ(r.test, "mcnemar_exact");
    EXPECT_TRUE(r.binary);
    EXPECT_EQ(r.n, e["n"].get<std::uint64_t>());
    EXPECT_EQ(r.b01, e["b01"].get<std::uint64_t>());
    EXPECT_EQ(r.b10, e["b10"].get<std::uint64_t>());
    EXPECT_NEAR(r.pValue, e["p_value"].get<double>(), 1e-12);
    EXPECT_NEAR(r.pValue, pairedExactMcNemar(static_cast<unsigned>(r.b01), static_cast<unsigned>(r.b10)), 1e-12);
    EXPECT_NEAR(r.baselineMean, e["baseline_mean"].get<double>(), 1e-12);
    EXPECT_NEAR(r.candidateMean, e["candidate_mean"].get<double>(), 1e-12);
    ASSERT_TRUE(r.deltaPoints.has_value());
    EXPECT_NEAR(*r.deltaPoints, e["delta_points"].get<double>(), 1e-9);
    ASSERT_TRUE(r.deltaPointsCi.has_value());
    EXPECT_LE(r.deltaPointsCi->low, *r.deltaPoints);
    EXPECT_GE(r.deltaPointsCi->high, *r.deltaPoints);
    ASSERT_TRUE(r.deltaPct.has_value());
    EXPECT_NEAR(*r.deltaPct, *r.deltaPoints / r.baselineMean, 1e-9);
    EXPECT_TRUE(pairedAnyContains(r.warnings, "< 300: the normal approximation is unreliable; the exact McNemar test"));
}

TEST(PairedTasks, NewLayoutGsm8kExcludesChangedPrompts) {
    const auto r = pairFolders(pairedNewBf16(), pairedNewFp8(), spec("gsm8k", "exact_match", "strict-match"));
    const auto e = pairedExpected("new_gsm8k_strict");
    expectBinary(r, e);
    EXPECT_EQ(r.hashMismatches, 2u);
    EXPECT_EQ(r.promptHashMismatches, 2u);
    EXPECT_EQ(r.docHashMismatches, 0u);
    EXPECT_EQ(r.mismatchDocIds, e["prompt_mismatch_doc_ids"].get<std::vector<long long>>());
    EXPECT_TRUE(pairedAnyContains(r.warnings, "not the same test, so they are left out"));
    EXPECT_EQ(r.onlyInBaseline + r.onlyInCandidate + r.uncheckedHashes + r.missingValues, 0u);

    const auto flexible =
        pairFolders(pairedNewBf16(), pairedNewFp8(), spec("gsm8k", "exact_match", "flexible-extract"));
    expectBinary(flexible, pairedExpected("new_gsm8k_flexible"));
}

TEST(PairedTasks, NewLayoutArcReportsDocsOnOneSide) {
    const auto r = pairFolders(pairedNewBf16(), pairedNewFp8(), spec("arc_challenge", "acc", "none"));
    const auto e = pairedExpected("new_arc_acc");
    expectBinary(r, e);
    EXPECT_EQ(r.docHashMismatches, 1u);
    EXPECT_EQ(r.mismatchDocIds, e["doc_mismatch_doc_ids"].get<std::vector<long long>>());
    EXPECT_EQ(r.onlyInBaseline, 1u);
    EXPECT_EQ(r.onlyInCandidate, 1u);
    EXPECT_EQ(r.onlyInBaselineDocIds, e["only_in_baseline"].get<std::vector<long long>>());
    EXPECT_EQ(r.onlyInCandidateDocIds, e["only_in_candidate"].get<std::vector<long long>>());
    EXPECT_TRUE(pairedAnyContains(r.warnings, "only in the BF16 log (13) and 1 only in the FP8 log (14)"));
}

TEST(PairedTasks, OldLayoutPairsByAssignedFilter) {
    expectBinary(pairFolders(pairedOldBf16(), oldFp8(), spec("gsm8k", "exact_match", "strict-match")),
                 pairedExpected("old_gsm8k_strict"));
    const auto flexible = pairFolders(pairedOldBf16(), oldFp8(), spec("gsm8k", "exact_match", "flexible-extract"));
    expectBinary(flexible, pairedExpected("old_gsm8k_flexible"));
    EXPECT_TRUE(pairedAnyContains(flexible.warnings, "no \"filter\" field"));
}

// A continuous metric: Wilcoxon, and a bootstrap interval close to the t interval of the mean difference.
TEST(PairedTasks, ContinuousMetricUsesWilcoxonAndBootstrap) {
    const auto r = pairFolders(pairedNewBf16(), pairedNewFp8(), spec("drop", "f1", "none"));
    const auto e = pairedExpected("new_drop_f1");
    EXPECT_EQ(r.test, "wilcoxon_signed_rank");
    EXPECT_FALSE(r.binary);
    EXPECT_EQ(r.n, e["n"].get<std::uint64_t>());
    EXPECT_NEAR(r.delta, e["mean_difference"].get<double>(), 1e-12);
    EXPECT_NEAR(r.baselineMean, e["baseline_mean"].get<double>(), 1e-12);
    EXPECT_GT(r.pValue, 0.0);
    EXPECT_LE(r.pValue, 1.0);
    const double se = e["difference_stderr"].get<double>();
    EXPECT_LE(r.deltaCi.low, r.delta);
    EXPECT_GE(r.deltaCi.high, r.delta);
    // Percentile bootstrap vs 1.96 SE: close on 12 documents, not equal (the bootstrap's SE uses n, not n - 1).
    EXPECT_NEAR(r.deltaCi.high - r.deltaCi.low, 2 * 1.96 * se, 0.6 * se);
    ASSERT_TRUE(r.deltaPoints.has_value());  // f1 lies in [0, 1]
    EXPECT_NEAR(*r.deltaPoints, 100 * r.delta, 1e-9);
    EXPECT_TRUE(pairedAnyContains(r.warnings, "n = 12 < 300"));
    const auto j = pairedToJson(r);
    EXPECT_TRUE(j["discordant"].is_null());
    EXPECT_EQ(j["test"], "wilcoxon_signed_rank");
}

// The whole comparison: each row's spec comes from compareEvals, and the logs agree with the results files.
TEST(PairedTasks, SpecsFromTheComparisonMatchTheResultsScores) {
    auto b = readLmEvalPath(pairedNewBf16());
    auto c = readLmEvalPath(pairedNewFp8());
    ASSERT_TRUE(b.ok() && c.ok());
    auto report = compareEvals(*b, *c, {});
    ASSERT_TRUE(report.ok()) << report.error().message;
    auto bi = findSampleLogs(*b);
    auto ci = findSampleLogs(*c);
    ASSERT_TRUE(bi.ok() && ci.ok());
    int paired = 0;
    for (const auto& row : report->tasks) {
        const auto s = PairedTaskSpec::fromComparison(row);
        EXPECT_EQ(s.metric, row.metricName);
        EXPECT_EQ(s.filter, row.filter);
        auto out = pairTaskLogs(*bi, *ci, s);
        ASSERT_TRUE(out.ok()) << out.error().message;
        ASSERT_TRUE(out->result) << out->noLogsReason;
        EXPECT_FALSE(pairedAnyContains(out->result->warnings, "differs from its results file")) << row.task;
        ++paired;
    }
    EXPECT_EQ(paired, 3);

    // A score the log does not average to is flagged.
    auto s = spec("drop", "f1", "none");
    s.baselineScore = 0.5;
    auto out = pairTaskLogs(*bi, *ci, s);
    ASSERT_TRUE(out.ok() && out->result);
    EXPECT_TRUE(pairedAnyContains(out->result->warnings, "baseline log's mean f1"));
}

TEST(PairedTasks, NoLogsIsAReasonNotAnError) {
    TempDir dir;
    const auto results = dir.write("results_2026-01-02T03-04-05.000001.json",
                                   R"({"results": {"gsm8k": {"exact_match,strict-match": 0.5}}})");
    auto bare = findSampleLogs(results);
    auto withLogs = findSampleLogsForRunPath(pairedNewFp8());
    ASSERT_TRUE(bare.ok() && withLogs.ok());
    auto out = pairTaskLogs(*bare, *withLogs, spec("gsm8k", "exact_match", "strict-match"));
    ASSERT_TRUE(out.ok());
    EXPECT_FALSE(out->result);
    EXPECT_NE(out->noLogsReason.find("BF16 run has no sample log for gsm8k"), std::string::npos) << out->noLogsReason;
    EXPECT_NE(out->noLogsReason.find("--log_samples"), std::string::npos) << out->noLogsReason;

    auto neither = pairTaskLogs(*withLogs, *withLogs, spec("mmlu", "acc", "none"));
    ASSERT_TRUE(neither.ok());
    EXPECT_FALSE(neither->result);
    EXPECT_NE(neither->noLogsReason.find("nor has the FP8 run"), std::string::npos) << neither->noLogsReason;
}

// ---- synthetic logs with known counts -------------------------------------------------------------------------

SampleLog makeLog(const std::string& path, const std::vector<double>& values, const std::string& metric = "acc") {
    SampleLog log;
    log.task = "t";
    log.path = path;
    log.filters = {"none"};
    for (std::size_t i = 0; i < values.size(); ++i) {
        SampleRow row;
        row.docId = static_cast<long long>(i);
        row.docHash = "d" + std::to_string(i);
        row.promptHash = "p" + std::to_string(i);
        row.filter = "none";
        row.values = {{metric, values[i]}};
        row.line = i + 1;
        log.rows.push_back(row);
    }
    return log;
}

// n = 400: 30 right only in FP8, 50 only in BF16, 270 both right, 50 both wrong.
std::pair<std::vector<double>, std::vector<double>> knownTable() {
    std::vector<double> b, c;
    auto add = [&](int count, double bv, double cv) {
        for (int i = 0; i < count; ++i) b.push_back(bv), c.push_back(cv);
    };
    add(30, 0, 1);
    add(50, 1, 0);
    add(270, 1, 1);
    add(50, 0, 0);
    return {b, c};
}

TEST(PairedTasks, McNemarOnAKnownTable) {
    const auto [b, c] = knownTable();
    auto r = pairSampleLogs(makeLog("b.jsonl", b), makeLog("c.jsonl", c), spec("t", "acc", "none"));
    ASSERT_TRUE(r.ok()) << r.error().message;
    EXPECT_EQ(r->n, 400u);
    EXPECT_EQ(r->b01, 30u);
    EXPECT_EQ(r->b10, 50u);
    EXPECT_NEAR(r->pValue, pairedExactMcNemar(30, 50), 1e-12);
    EXPECT_DOUBLE_EQ(r->baselineMean, 320.0 / 400);
    EXPECT_DOUBLE_EQ(r->candidateMean, 300.0 / 400);
    EXPECT_NEAR(*r->deltaPoints, -5.0, 1e-12);
    EXPECT_NEAR(*r->deltaPct, -6.25, 1e-12);
    // The paired SE of the difference: sqrt((b01 + b10)/n - d^2) / sqrt(n), with n in the variance as the
    // bootstrap has it; the percentile interval is close to +-1.96 SE.
    const double d = -0.05, se = std::sqrt(80.0 / 400 - d * d) / std::sqrt(400.0);
    EXPECT_NEAR(r->deltaCi.low, d - 1.96 * se, 0.004);
    EXPECT_NEAR(r->deltaCi.high, d + 1.96 * se, 0.004);
    EXPECT_NEAR(r->deltaPctCi->low, r->deltaCi.low / 0.8 * 100, 1e-9);
    EXPECT_FALSE(pairedAnyContains(r->warnings, "< 300"));
    // Degradation 6.25 %, interval about [0.8, 11.7] %: across the 1.5 % edge, so inconclusive, and not equivalent.
    ASSERT_TRUE(r->confidence && r->equivalence);
    EXPECT_EQ(r->confidence->confidence, Confidence::Inconclusive);
    EXPECT_NEAR(r->confidence->lowPct, -r->deltaPctCi->high, 1e-9);
    EXPECT_NEAR(r->confidence->highPct, -r->deltaPctCi->low, 1e-9);
    EXPECT_FALSE(r->equivalence->equivalent);
    // TOST interval: delta % +- z(0.95) * SE %, with the sample SD (n - 1) of the differences.
    const double sd = std::sqrt((80.0 / 400 - d * d) * 400 / 399);
    const double sePct = sd / std::sqrt(400.0) / 0.8 * 100;
    EXPECT_NEAR(r->equivalence->lowPct, -6.25 - 1.6448536269514722 * sePct, 1e-6);

    // Same seed, same interval; the summary names both labels and the counts.
    auto again = pairSampleLogs(makeLog("b.jsonl", b), makeLog("c.jsonl", c), spec("t", "acc", "none"));
    EXPECT_EQ(again->deltaCi.low, r->deltaCi.low);
    EXPECT_EQ(again->deltaCi.high, r->deltaCi.high);
    EXPECT_NE(r->summary.find("30 right only in FP8, 50 only in BF16"), std::string::npos) << r->summary;
}

TEST(PairedTasks, IdenticalRunsAreClearAndEquivalent) {
    const auto [b, c] = knownTable();
    (void)c;
    auto r = pairSampleLogs(makeLog("b.jsonl", b), makeLog("c.jsonl", b), spec("t", "acc", "none"));
    ASSERT_TRUE(r.ok());
    EXPECT_EQ(r->b01 + r->b10, 0u);
    EXPECT_EQ(r->pValue, 1.0);
    EXPECT_EQ(r->deltaCi.low, 0.0);
    EXPECT_EQ(r->deltaCi.high, 0.0);
    EXPECT_EQ(r->confidence->confidence, Confidence::Clear);
    EXPECT_TRUE(r->equivalence->equivalent);
}

// 2000 pairs, 5 discordant each way: delta 0, SE% = sqrt(10/1999)/sqrt(2000)/0.8*100 ~ 0.198, so the 90 % interval
// (+-0.326 %) lies inside +-0.5 %.
TEST(PairedTasks, FewBalancedDiscordancesOnManyItemsAreEquivalent) {
    std::vector<double> b(2000, 0.0), c(2000, 0.0);
    for (int i = 0; i < 1600; ++i) b[i] = c[i] = 1;
    for (int i = 1600; i < 1605; ++i) c[i] = 1;  // right only in FP8
    for (int i = 0; i < 5; ++i) c[i] = 0;        // right only in BF16
    auto r = pairSampleLogs(makeLog("b.jsonl", b), makeLog("c.jsonl", c), spec("t", "acc", "none"));
    ASSERT_TRUE(r.ok());
    EXPECT_EQ(r->b01, 5u);
    EXPECT_EQ(r->b10, 5u);
    EXPECT_EQ(r->pValue, 1.0);
    ASSERT_TRUE(r->equivalence);
    const double sePct = std::sqrt(10.0 / 1999) / std::sqrt(2000.0) / 0.8 * 100;
    EXPECT_NEAR(r->equivalence->highPct, 1.6448536269514722 * sePct, 1e-6);
    EXPECT_TRUE(r->equivalence->equivalent);
}

// For a lower-is-better metric, a higher candidate is a degradation.
TEST(PairedTasks, DirectionSetsTheDegradationSign) {
    std::vector<double> b, c;
    for (int i = 0; i < 50; ++i) {
        b.push_back(2.0 + 0.01 * (i % 7));
        c.push_back(b.back() + 0.2 + 0.01 * (i % 3));
    }
    auto lower = pairSampleLogs(makeLog("b", b, "perplexity"), makeLog("c", c, "perplexity"),
                                spec("t", "perplexity", "none", false));
    ASSERT_TRUE(lower.ok());
    EXPECT_EQ(lower->test, "wilcoxon_signed_rank");
    EXPECT_FALSE(lower->deltaPoints.has_value());  // values outside [0, 1]: no points
    EXPECT_GT(lower->confidence->lowPct, 0.0);
    EXPECT_LT(lower->pValue, 1e-6);  // every one of 50 differences positive
    auto higher = pairSampleLogs(makeLog("b", b, "perplexity"), makeLog("c", c, "perplexity"),
                                 spec("t", "perplexity", "none", true));
    EXPECT_LT(higher->confidence->highPct, 0.0);
}

TEST(PairedTasks, MismatchListsAreCappedAndAllExcludedGivesNoTest) {
    std::vector<double> v(8, 1.0);
    auto b = makeLog("b.jsonl", v), c = makeLog("c.jsonl", v);
    for (auto& row : c.rows) row.promptHash += "x";
    auto r = pairSampleLogs(b, c, spec("t", "acc", "none"));
    ASSERT_TRUE(r.ok());
    EXPECT_EQ(r->hashMismatches, 8u);
    EXPECT_EQ(r->mismatchDocIds, (std::vector<long long>{0, 1, 2, 3, 4}));
    EXPECT_TRUE(pairedAnyContains(r->warnings, "doc_ids 0, 1, 2, 3, 4, …"));
    EXPECT_EQ(r->test, "none");
    EXPECT_EQ(r->n, 0u);
    EXPECT_FALSE(r->confidence);
    const auto j = pairedToJson(*r);
    EXPECT_TRUE(j["ci95_pct"].is_null());
    EXPECT_TRUE(j["confidence"].is_null());
    EXPECT_EQ(j["hash_mismatches"], 8);
}

TEST(PairedTasks, MissingHashesAndValuesAreCounted) {
    auto b = makeLog("b.jsonl", {1, 0, 1, 1}), c = makeLog("c.jsonl", {1, 1, 0, 1});
    b.rows[0].docHash.clear();
    c.rows[3].values = {{"acc_norm", 1.0}};
    auto r = pairSampleLogs(b, c, spec("t", "acc", "none"));
    ASSERT_TRUE(r.ok());
    EXPECT_EQ(r->n, 3u);
    EXPECT_EQ(r->uncheckedHashes, 1u);
    EXPECT_EQ(r->missingValues, 1u);
    EXPECT_EQ(r->b01, 1u);
    EXPECT_EQ(r->b10, 1u);
    EXPECT_TRUE(pairedAnyContains(r->warnings, "no doc_hash or prompt_hash"));
}

TEST(PairedTasks, MissingFilterOrMetricIsAnErrorNamingTheFile) {
    auto b = makeLog("b.jsonl", {1, 0}), c = makeLog("c.jsonl", {1, 1});
    auto noFilter = pairSampleLogs(b, c, spec("t", "acc", "strict-match"));
    ASSERT_FALSE(noFilter.ok());
    EXPECT_NE(noFilter.error().message.find("b.jsonl: no rows for filter \"strict-match\""), std::string::npos)
        << noFilter.error().message;
    auto noMetric = pairSampleLogs(b, c, spec("t", "exact_match", "none"));
    ASSERT_FALSE(noMetric.ok());
    EXPECT_NE(noMetric.error().message.find("b.jsonl"), std::string::npos);
    EXPECT_NE(noMetric.error().message.find("rows have: acc"), std::string::npos) << noMetric.error().message;
}

TEST(PairedTasks, JsonCarriesTheIssueFields) {
    const auto [b, c] = knownTable();
    auto r = pairSampleLogs(makeLog("b.jsonl", b), makeLog("c.jsonl", c), spec("t", "acc", "none"));
    ASSERT_TRUE(r.ok());
    const auto j = pairedToJson(*r);
    EXPECT_EQ(j["n"], 400);
    EXPECT_EQ(j["discordant"], Json::array({30, 50}));
    EXPECT_NEAR(j["p_value"].get<double>(), pairedExactMcNemar(30, 50), 1e-12);
    ASSERT_TRUE(j["ci95_pct"].is_array());
    EXPECT_EQ(j["ci95_pct"].size(), 2u);
    EXPECT_DOUBLE_EQ(j["ci95_pct"][0].get<double>(), r->deltaPctCi->low);
    EXPECT_DOUBLE_EQ(j["ci95_points"][1].get<double>(), r->deltaPointsCi->high);
    EXPECT_EQ(j["test"], "mcnemar_exact");
    EXPECT_EQ(j["hash_mismatches"], 0);
    EXPECT_EQ(j["only_in_baseline"], 0);
    EXPECT_EQ(j["only_in_candidate"], 0);
    EXPECT_EQ(j["confidence"], "inconclusive");
    EXPECT_TRUE(j["samples_needed"].is_number_unsigned());
    EXPECT_EQ(j["samples_needed"].get<std::uint64_t>(), *r->confidence->samplesNeeded);
    EXPECT_EQ(j["equivalent"], false);
    EXPECT_NEAR(j["delta_points"].get<double>(), -5.0, 1e-12);
    EXPECT_TRUE(j["warnings"].is_array());
}

}  // namespace
}  // namespace fp8dash
