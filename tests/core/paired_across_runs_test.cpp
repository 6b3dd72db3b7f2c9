// Several comparisons among one set of runs (computePairedResultsAcrossRuns): the layer ladder's baseline against
// its three candidates and the two layer steps between candidates, in one pass over the logs. The expected counts and
// means come from the ladder's construction (tests/data/lm-eval-ladder/expected.json, make_ladder.py); the bytes
// read are the sizes of the distinct sample log files, summed here from the folders.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "fp8dash/core/eval_comparison.h"
#include "fp8dash/core/lm_eval_results.h"
#include "fp8dash/core/paired_tasks.h"
#include "test_paths.h"

namespace fp8dash {
namespace {

namespace fs = std::filesystem;

const std::vector<std::string> kRuns = {"bf16", "w8a8", "w8a8-kv", "w8a8-kv-cal"};

fs::path ladder(const std::string& run = {}) {
    return test::testData() / "lm-eval-ladder" / run;
}

ComparisonReport compareRuns(const std::string& b, const std::string& c) {
    auto bRun = readLmEvalPath(ladder(b));
    auto cRun = readLmEvalPath(ladder(c));
    if (!bRun || !cRun) throw std::runtime_error((bRun ? cRun.error() : bRun.error()).message);
    ComparisonOptions options;
    options.allowIncomparable = b == c;  // a run against itself
    auto report = compareEvals(*bRun, *cRun, options, b, c);
    if (!report) throw std::runtime_error(report.error().message);
    return *report;
}

std::uint64_t sampleLogBytes(const fs::path& dir) {
    std::uint64_t bytes = 0;
    for (const auto& e : fs::recursive_directory_iterator(dir))
        if (e.path().extension() == ".jsonl") bytes += fs::file_size(e.path());
    return bytes;
}

LmEvalResults readRun(const std::string& run) {
    auto r = readLmEvalPath(ladder(run));
    if (!r) throw std::runtime_error(r.error().message);
    return *r;
}

struct Ladder {
    std::vector<fs::path> paths;
    std::vector<LmEvalResults> results;
    std::vector<const LmEvalResults*> runs;
    std::vector<std::pair<std::size_t, std::size_t>> pairs = {{0, 1}, {0, 2}, {0, 3}, {1, 2}, {2, 3}};
    std::vector<ComparisonReport> reports;
    std::vector<PairedRunComparison> comparisons;
    Ladder() {
        for (const auto& r : kRuns) {
            paths.push_back(ladder(r));
            results.push_back(readRun(r));
        }
        for (const auto& r : results) runs.push_back(&r);
        for (auto [b, c] : pairs) reports.push_back(compareRuns(kRuns[b], kRuns[c]));
        for (std::size_t i = 0; i < pairs.size(); ++i)
            comparisons.push_back({&reports[i], pairs[i].first, pairs[i].second});
    }
};

TEST(PairedAcrossRuns, EachRunsLogsAreReadOnceAndEveryComparisonIsPairedAsBuilt) {
    Ladder l;
    std::uint64_t lastDone = 0, lastTotal = 0;
    auto computed =
        computePairedResultsAcrossRuns(l.runs, l.comparisons, {}, [&](std::uint64_t done, std::uint64_t total) {
            lastDone = done;
            lastTotal = total;
            return true;
        });
    ASSERT_TRUE(computed.ok()) << computed.error().message;
    // Four runs, two logs each, read once: the baseline's serve its three candidates, W8A8's and W8A8 + KV's serve
    // their steps too. Pair by pair, the same comparisons would read 20 logs.
    const std::uint64_t distinct = sampleLogBytes(ladder());
    EXPECT_EQ(lastTotal, distinct);
    EXPECT_EQ(lastDone, distinct);
    std::uint64_t pairByPair = 0;
    for (auto [b, c] : l.pairs) pairByPair += sampleLogBytes(ladder(kRuns[b])) + sampleLogBytes(ladder(kRuns[c]));
    EXPECT_GT(pairByPair, 2 * distinct);

    std::ifstream in(ladder() / "expected.json");
    const auto e = nlohmann::json::parse(in);
    ASSERT_EQ(computed->size(), l.pairs.size());
    for (std::size_t i = 0; i < l.pairs.size(); ++i) {
        const std::string from = kRuns[l.pairs[i].first], to = kRuns[l.pairs[i].second];
        const PairedComputation& p = (*computed)[i];
        EXPECT_TRUE(p.notes.empty()) << from << ">" << to << ": " << p.notes.front();
        for (const std::string task : {"gsm8k", "arc_challenge"}) {
            SCOPED_TRACE(from + ">" + to + "/" + task);
            const auto& x = e["pairs"][from + ">" + to + "/" + task];
            ASSERT_EQ(p.results.count(task), 1u);
            const PairedTaskResult& r = p.results.at(task);
            EXPECT_EQ(r.b01, x["b01"].get<std::uint64_t>());
            EXPECT_EQ(r.b10, x["b10"].get<std::uint64_t>());
            EXPECT_NEAR(r.baselineMean, x["mean_from"].get<double>(), 1e-12);
            EXPECT_NEAR(r.candidateMean, x["mean_to"].get<double>(), 1e-12);
        }
    }
}

// Sharing the reads changes nothing in a comparison's results: each is what its two runs paired alone give, to the
// bit (the seeded bootstrap included).
TEST(PairedAcrossRuns, EachComparisonEqualsItsTwoRunsPairedAlone) {
    Ladder l;
    auto computed = computePairedResultsAcrossRuns(l.runs, l.comparisons);
    ASSERT_TRUE(computed.ok()) << computed.error().message;
    for (std::size_t i = 0; i < l.pairs.size(); ++i) {
        auto alone = computePairedResults(l.reports[i], l.paths[l.pairs[i].first], l.paths[l.pairs[i].second]);
        ASSERT_TRUE(alone.ok()) << alone.error().message;
        const PairedComputation& shared = (*computed)[i];
        ASSERT_EQ(shared.results.size(), alone->results.size());
        EXPECT_EQ(shared.notes, alone->notes);
        for (const auto& [task, a] : alone->results) {
            SCOPED_TRACE(kRuns[l.pairs[i].first] + ">" + kRuns[l.pairs[i].second] + "/" + task);
            const PairedTaskResult& s = shared.results.at(task);
            EXPECT_EQ(s.n, a.n);
            EXPECT_EQ(s.b01, a.b01);
            EXPECT_EQ(s.b10, a.b10);
            EXPECT_EQ(s.pValue, a.pValue);
            EXPECT_EQ(s.delta, a.delta);
            EXPECT_EQ(s.deltaCi.low, a.deltaCi.low);
            EXPECT_EQ(s.deltaCi.high, a.deltaCi.high);
            EXPECT_EQ(s.warnings, a.warnings);
            EXPECT_EQ(s.summary, a.summary);
        }
    }
}

// A run on both sides of a comparison (a run against itself) is one log per task, read once and paired with itself:
// every document's pair agrees.
TEST(PairedAcrossRuns, ARunAgainstItselfReadsItsLogsOnce) {
    const ComparisonReport report = compareRuns("w8a8", "w8a8");
    const LmEvalResults w8a8 = readRun("w8a8");
    std::uint64_t lastTotal = 0;
    auto computed =
        computePairedResultsAcrossRuns({&w8a8}, {{&report, 0, 0}}, {}, [&](std::uint64_t, std::uint64_t total) {
            lastTotal = total;
            return true;
        });
    ASSERT_TRUE(computed.ok()) << computed.error().message;
    EXPECT_EQ(lastTotal, sampleLogBytes(ladder("w8a8")));
    const PairedComputation& p = computed->front();
    ASSERT_EQ(p.results.count("gsm8k"), 1u);
    EXPECT_EQ(p.results.at("gsm8k").b01, 0u);
    EXPECT_EQ(p.results.at("gsm8k").b10, 0u);
    std::uint64_t rows = 0;  // the log's lines: one row each
    for (const auto& f : fs::recursive_directory_iterator(ladder("w8a8")))
        if (f.path().filename().string().rfind("samples_gsm8k_", 0) == 0) {
            std::ifstream log(f.path());
            for (std::string line; std::getline(log, line);) rows += !line.empty();
        }
    EXPECT_EQ(p.results.at("gsm8k").n, rows);
    EXPECT_GT(rows, 0u);
}

TEST(PairedAcrossRuns, ARunIndexOutOfRangeIsAnError) {
    const ComparisonReport report = compareRuns("bf16", "w8a8");
    const LmEvalResults bf16 = readRun("bf16");
    auto computed = computePairedResultsAcrossRuns({&bf16}, {{&report, 0, 1}});
    ASSERT_FALSE(computed.ok());
    EXPECT_EQ(computed.error().message, "no run 1 to pair");
}

TEST(PairedAcrossRuns, CancellingStopsTheReaders) {
    Ladder l;
    auto computed =
        computePairedResultsAcrossRuns(l.runs, l.comparisons, {}, [](std::uint64_t, std::uint64_t) { return false; });
    ASSERT_FALSE(computed.ok());
    EXPECT_EQ(computed.error().message, "reading the sample logs was cancelled");
}

}  // namespace
}  // namespace fp8dash
