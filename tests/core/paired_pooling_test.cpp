// A group's paired test pooled from its subtasks' sample logs (computePairedResults). The fixture is an mmlu-shaped
// group of nested groups (tests/data/lm-eval-samples/group, made by make_group_samples.py); the expected counts and
// means come from its construction (group/expected.json), the p-value is recomputed here from the binomial sum.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <thread>

#include "fp8dash/core/eval_comparison.h"
#include "fp8dash/core/lm_eval_results.h"
#include "fp8dash/core/paired_tasks.h"
#include "test_paths.h"

namespace fp8dash {
namespace {

namespace fs = std::filesystem;

fs::path groupDir() {
    return test::testData() / "lm-eval-samples/group";
}
constexpr const char* kBf16 = "bf16/meta-llama__Llama-3.1-8B-Instruct";
constexpr const char* kFp8 = "fp8/RedHatAI__Llama-3.1-8B-Instruct-FP8-dynamic";

nlohmann::json poolingExpected() {
    std::ifstream in(groupDir() / "expected.json");
    return nlohmann::json::parse(in);
}

double exactMcNemar(unsigned b01, unsigned b10) {
    const unsigned n = b01 + b10, k = std::min(b01, b10);
    if (n == 0) return 1.0;
    long double term = std::pow(0.5L, static_cast<long double>(n));
    long double sum = 0;
    for (unsigned i = 0; i <= k; ++i) {
        sum += term;
        term = term * (n - i) / (i + 1);
    }
    return static_cast<double>(std::min(1.0L, 2 * sum));
}

bool poolingAnyContains(const std::vector<std::string>& items, const std::string& part) {
    for (const auto& s : items)
        if (s.find(part) != std::string::npos) return true;
    return false;
}

ComparisonReport compareFolders(const fs::path& b, const fs::path& c) {
    auto bRun = readLmEvalPath(b);
    auto cRun = readLmEvalPath(c);
    if (!bRun || !cRun) throw std::runtime_error((bRun ? cRun.error() : bRun.error()).message);
    auto report = compareEvals(*bRun, *cRun, {});
    if (!report) throw std::runtime_error(report.error().message);
    return *report;
}

TEST(PairedPooling, AGroupIsTestedOnAllItsSubtasksPairs) {
    const auto e = poolingExpected();
    ComparisonReport report = compareFolders(groupDir() / kBf16, groupDir() / kFp8);
    auto paired = computePairedResults(report, groupDir() / kBf16, groupDir() / kFp8);
    ASSERT_TRUE(paired.ok()) << paired.error().message;
    ASSERT_EQ(paired->results.count("mmlu"), 1u) << (paired->notes.empty() ? "" : paired->notes.front());
    const PairedTaskResult& r = paired->results.at("mmlu");
    EXPECT_EQ(r.test, "mcnemar_exact");
    EXPECT_TRUE(r.binary);
    EXPECT_EQ(r.metric, "acc");
    EXPECT_EQ(r.filter, "none");
    EXPECT_EQ(r.n, e["all"]["n"].get<std::uint64_t>());
    EXPECT_EQ(r.b01, e["all"]["b01"].get<std::uint64_t>());
    EXPECT_EQ(r.b10, e["all"]["b10"].get<std::uint64_t>());
    EXPECT_NEAR(r.pValue, exactMcNemar(e["all"]["b01"].get<unsigned>(), e["all"]["b10"].get<unsigned>()), 1e-12);
    EXPECT_NEAR(r.pValue, e["all"]["p_value"].get<double>(), 1e-12);
    // Each document counts once: the pooled means are lm-eval's size-weighted group score, not the mean of the
    // subtasks' scores.
    EXPECT_NEAR(r.baselineMean, e["all"]["baseline_mean"].get<double>(), 1e-12);
    EXPECT_NEAR(r.candidateMean, e["all"]["candidate_mean"].get<double>(), 1e-12);
    EXPECT_GT(std::fabs(r.baselineMean - e["all"]["unweighted_baseline"].get<double>()), 1e-3);
    ASSERT_FALSE(r.warnings.empty());
    EXPECT_NE(r.warnings.front().find("pooled from the sample logs of 3 subtask(s) of mmlu"), std::string::npos)
        << r.warnings.front();
    EXPECT_EQ(r.warnings.front().find("not pooled"), std::string::npos) << r.warnings.front();
    EXPECT_FALSE(poolingAnyContains(r.warnings, "differs from"));  // the pooled means are the results file's scores
    EXPECT_TRUE(paired->notes.empty()) << paired->notes.front();

    // Applied, the group row carries the paired test and its confidence comes from it.
    applyPairedResults(report, paired->results);
    const auto row = std::find_if(report.tasks.begin(), report.tasks.end(),
                                  [](const TaskComparison& t) { return t.task == "mmlu"; });
    ASSERT_NE(row, report.tasks.end());
    ASSERT_TRUE(row->paired.has_value());
    EXPECT_EQ(row->paired->n, r.n);
    ASSERT_TRUE(row->confidence.has_value());
    EXPECT_NE(row->confidence->explanation.find("paired test on " + std::to_string(r.n)), std::string::npos)
        << row->confidence->explanation;
}

TEST(PairedPooling, ASubtaskWithoutLogsIsNamedAndLeftOut) {
    const auto e = poolingExpected();
    test::TempDir dir;
    fs::copy(groupDir(), dir.path(), fs::copy_options::recursive);
    fs::remove(dir.path() / kFp8 / "samples_mmlu_anatomy_2026-12-01T11-30-00.000001.jsonl");
    ComparisonReport report = compareFolders(dir.path() / kBf16, dir.path() / kFp8);
    auto paired = computePairedResults(report, dir.path() / kBf16, dir.path() / kFp8);
    ASSERT_TRUE(paired.ok()) << paired.error().message;
    ASSERT_EQ(paired->results.count("mmlu"), 1u);
    const PairedTaskResult& r = paired->results.at("mmlu");
    EXPECT_EQ(r.n, e["without_anatomy"]["n"].get<std::uint64_t>());
    EXPECT_EQ(r.b01, e["without_anatomy"]["b01"].get<std::uint64_t>());
    EXPECT_EQ(r.b10, e["without_anatomy"]["b10"].get<std::uint64_t>());
    EXPECT_NEAR(r.baselineMean, e["without_anatomy"]["baseline_mean"].get<double>(), 1e-12);
    EXPECT_NE(r.warnings.front().find("pooled from the sample logs of 2 subtask(s)"), std::string::npos);
    EXPECT_NE(r.warnings.front().find("mmlu_anatomy (no FP8 log)"), std::string::npos) << r.warnings.front();
    // Without a subtask, the pooled means are not the group's score: said.
    EXPECT_TRUE(poolingAnyContains(r.warnings, "differs from mmlu's score")) << r.warnings.size();
}

TEST(PairedPooling, AGroupWithoutAnyLogsIsOneNote) {
    test::TempDir dir;
    fs::copy(groupDir(), dir.path(), fs::copy_options::recursive);
    for (const auto& e : fs::recursive_directory_iterator(dir.path()))
        if (e.path().extension() == ".jsonl" && e.path().string().find("/fp8/") != std::string::npos)
            fs::remove(e.path());
    ComparisonReport report = compareFolders(dir.path() / kBf16, dir.path() / kFp8);
    auto paired = computePairedResults(report, dir.path() / kBf16, dir.path() / kFp8);
    ASSERT_TRUE(paired.ok()) << paired.error().message;
    EXPECT_TRUE(paired->results.empty());
    ASSERT_EQ(paired->notes.size(), report.tasks.size());
    EXPECT_NE(paired->notes.front().find("mmlu: not paired"), std::string::npos) << paired->notes.front();
    EXPECT_NE(paired->notes.front().find("nor have its 3 subtasks logs on both sides"), std::string::npos)
        << paired->notes.front();
}

// The logs are read on several threads; the progress callback runs on the caller's, and ends at the logs' total.
TEST(PairedPooling, ProgressIsReportedOnTheCallingThread) {
    ComparisonReport report = compareFolders(groupDir() / kBf16, groupDir() / kFp8);
    std::uint64_t logBytes = 0;
    for (const auto& e : fs::recursive_directory_iterator(groupDir()))
        if (e.path().extension() == ".jsonl") logBytes += fs::file_size(e.path());
    const auto caller = std::this_thread::get_id();
    bool sameThread = true;
    std::uint64_t lastDone = 0, lastTotal = 0, calls = 0;
    auto paired = computePairedResults(report, groupDir() / kBf16, groupDir() / kFp8, {},
                                       [&](std::uint64_t done, std::uint64_t total) {
                                           sameThread = sameThread && std::this_thread::get_id() == caller;
                                           lastDone = done;
                                           lastTotal = total;
                                           ++calls;
                                           return true;
                                       });
    ASSERT_TRUE(paired.ok()) << paired.error().message;
    EXPECT_TRUE(sameThread);
    EXPECT_GE(calls, 1u);
    EXPECT_EQ(lastTotal, logBytes);
    EXPECT_EQ(lastDone, logBytes);
}

TEST(PairedPooling, CancellingStopsTheReaders) {
    ComparisonReport report = compareFolders(groupDir() / kBf16, groupDir() / kFp8);
    auto paired = computePairedResults(report, groupDir() / kBf16, groupDir() / kFp8, {},
                                       [](std::uint64_t, std::uint64_t) { return false; });
    ASSERT_FALSE(paired.ok());
    EXPECT_NE(paired.error().message.find("cancelled"), std::string::npos);
}

}  // namespace
}  // namespace fp8dash
