// fp8dash-bench-samples: the paired tests on big lm-eval --log_samples files, against a plain Python loop
// (sample_logs_pairing.py beside this file: json.loads per line and the same pairing). The shape is the one measured
// in the issue that asked for speed: two logs of 40,000 rows of one multiple-choice task, ~4 KB few-shot prompts,
// four choices, ~460 MB each; generated into the scratch folder at the start (FP8DASH_BENCH_SAMPLE_ROWS changes the
// row count). Not a test: the figures go to README.md here and results/.
#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <random>
#include <string>
#include <thread>

#include "bench_support.h"
#include "fp8dash/core/eval_comparison.h"
#include "fp8dash/core/lm_eval_results.h"
#include "fp8dash/core/paired_tasks.h"
#include "fp8dash/core/sample_logs.h"
#include "sample_log_shape.h"

namespace fp8dash::bench {
namespace {

constexpr const char* kBaselineDate = "2026-12-01T10-00-00.000001";
constexpr const char* kCandidateDate = "2026-12-01T14-00-00.000001";

struct Pair {
    std::filesystem::path baselineDir, candidateDir, baselineLog, candidateLog;
    double bytes = 0;  // both logs
    std::size_t rows = 0;
    double baselineAcc = 0, candidateAcc = 0;
};

const Pair& logs() {
    static const Pair pair = [] {
        Pair p;
        p.rows = rowCount();
        // Kept between runs when FP8DASH_BENCH_DIR is set (the rows are the same for the same count).
        const auto root = scratchDir() / ("sample-logs-" + std::to_string(p.rows));
        p.baselineDir = root / "bf16";
        p.candidateDir = root / "fp8";
        std::filesystem::create_directories(p.baselineDir);
        std::filesystem::create_directories(p.candidateDir);
        p.baselineLog = p.baselineDir / (std::string("samples_") + kTask + "_" + kBaselineDate + ".jsonl");
        p.candidateLog = p.candidateDir / (std::string("samples_") + kTask + "_" + kCandidateDate + ".jsonl");
        const auto bResults = p.baselineDir / (std::string("results_") + kBaselineDate + ".json");
        const auto cResults = p.candidateDir / (std::string("results_") + kCandidateDate + ".json");
        if (std::filesystem::exists(bResults) && std::filesystem::exists(cResults)) {
            p.bytes = static_cast<double>(std::filesystem::file_size(p.baselineLog) +
                                          std::filesystem::file_size(p.candidateLog));
            return p;
        }
        std::ofstream b(p.baselineLog, std::ios::binary), c(p.candidateLog, std::ios::binary);
        std::mt19937_64 rng(13);
        std::size_t bRight = 0, cRight = 0;
        for (std::size_t doc = 0; doc < p.rows; ++doc) {
            // ~2.7 KB of prompt per choice: four choices make the ~11.5 KB rows of the measured logs.
            const std::string prompt = promptText(rng, 2700);
            const std::string docHash = hex64(rng), promptHash = hex64(rng), targetHash = hex64(rng);
            const bool bAcc = rng() % 4 != 0;
            const bool cAcc = rng() % 50 == 0 ? !bAcc : bAcc;  // 2 % of the answers flip under FP8
            bRight += bAcc;
            cRight += cAcc;
            writeRow(b, doc, prompt, docHash, promptHash, targetHash, 0, bAcc, bAcc, rng);
            writeRow(c, doc, prompt, docHash, promptHash, targetHash, 0, cAcc, cAcc, rng);
        }
        b.close();
        c.close();
        p.baselineAcc = static_cast<double>(bRight) / static_cast<double>(p.rows);
        p.candidateAcc = static_cast<double>(cRight) / static_cast<double>(p.rows);
        // The results files last: their presence says the logs are whole.
        writeResults(bResults, p.baselineAcc, p.rows, "pretrained=meta-llama/Llama-3.1-8B-Instruct");
        writeResults(cResults, p.candidateAcc, p.rows, "pretrained=RedHatAI/Llama-3.1-8B-Instruct-FP8-dynamic");
        p.bytes =
            static_cast<double>(std::filesystem::file_size(p.baselineLog) + std::filesystem::file_size(p.candidateLog));
        return p;
    }();
    return pair;
}

void counters(benchmark::State& state, const Pair& p) {
    state.counters["bytes_per_second"] =
        benchmark::Counter(p.bytes * static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
    state.counters["logs_MB"] = p.bytes / 1e6;
    state.counters["rows"] = static_cast<double>(p.rows);
}

// What `fp8dash compare` does with the logs beside two runs: find them, read both (two threads), pair, test.
// bootstrapIterations 0 leaves out the paired bootstrap, so that the work is the Python baseline's.
void comparePaired(benchmark::State& state, int bootstrapIterations) {
    const Pair& p = logs();
    auto b = readLmEvalPath(p.baselineDir);
    auto c = readLmEvalPath(p.candidateDir);
    if (!b || !c) {
        state.SkipWithError((b ? c.error() : b.error()).message.c_str());
        return;
    }
    auto report = compareEvals(*b, *c, {});
    if (!report) {
        state.SkipWithError(report.error().message.c_str());
        return;
    }
    PairedOptions options;
    options.bootstrapIterations = bootstrapIterations;
    for (auto _ : state) {
        auto paired = computePairedResults(*report, p.baselineDir, p.candidateDir, options);
        if (!paired || paired->results.count(kTask) == 0 || paired->results.at(kTask).n != p.rows) {
            state.SkipWithError(paired ? "the task was not paired" : paired.error().message.c_str());
            return;
        }
        benchmark::DoNotOptimize(paired);
    }
    counters(state, p);
    state.counters["peak_rss_MiB"] = static_cast<double>(selfPeakRssKiB()) / 1024.0;
}

void BM_SamplesComparePairedNoBootstrap(benchmark::State& state) {
    comparePaired(state, 0);
}
void BM_SamplesComparePaired(benchmark::State& state) {
    comparePaired(state, PairedOptions{}.bootstrapIterations);
}

// One log on one thread: the reader's own speed.
void BM_SamplesReadOneLog(benchmark::State& state) {
    const Pair& p = logs();
    SampleTaskInfo info;
    info.task = kTask;
    info.filters = {"none"};
    for (auto _ : state) {
        auto log = readSampleLog(p.baselineLog, info);
        if (!log || log->rows.size() != p.rows) {
            state.SkipWithError(log ? "rows missing" : log.error().message.c_str());
            return;
        }
        benchmark::DoNotOptimize(log);
    }
    state.counters["bytes_per_second"] = benchmark::Counter(
        static_cast<double>(std::filesystem::file_size(p.baselineLog)) * static_cast<double>(state.iterations()),
        benchmark::Counter::kIsRate);
}

// The reader before the On-Demand fast path, for comparison: every row through the general reader (a JSON tree per
// line), the file read whole first.
void BM_SamplesReadOneLogGeneral(benchmark::State& state) {
    const Pair& p = logs();
    SampleTaskInfo info;
    info.task = kTask;
    info.filters = {"none"};
    for (auto _ : state) {
        auto text = readTextFile(p.baselineLog);
        if (!text) {
            state.SkipWithError(text.error().message.c_str());
            return;
        }
        auto log = detail::parseSampleLogTextGeneral(*text, p.baselineLog.string(), info);
        if (!log || log->rows.size() != p.rows) {
            state.SkipWithError(log ? "rows missing" : log.error().message.c_str());
            return;
        }
        benchmark::DoNotOptimize(log);
    }
    state.counters["bytes_per_second"] = benchmark::Counter(
        static_cast<double>(std::filesystem::file_size(p.baselineLog)) * static_cast<double>(state.iterations()),
        benchmark::Counter::kIsRate);
}

void BM_SamplesPythonPairing(benchmark::State& state) {
    static const std::string python = test::findExecutable("python3");
    if (python.empty()) {
        state.SkipWithError("python3 is not on PATH");
        return;
    }
    const Pair& p = logs();
    const std::string script = std::string(FP8DASH_BENCH_SOURCE_DIR) + "/sample_logs_pairing.py";
    long maxRss = 0;
    for (auto _ : state) {
        const ChildRun run = runChild({python, script, p.baselineLog.string(), p.candidateLog.string(), "acc", "none"});
        if (run.exitCode != 0) {
            state.SkipWithError("sample_logs_pairing.py failed");
            return;
        }
        std::size_t used = 0;
        state.SetIterationTime(std::stod(run.out, &used));
        maxRss = std::max(maxRss, std::stol(run.out.substr(used)));
    }
    counters(state, p);
    state.counters["peak_rss_MiB"] = static_cast<double>(maxRss) / 1024.0;
}

}  // namespace
}  // namespace fp8dash::bench

int main(int argc, char** argv) {
    using namespace fp8dash::bench;
    // Python and fp8dash alternate, so that a machine shared with other work loads both alike.
    registerAlternatingRounds({{"BM_SamplesPythonPairing", BM_SamplesPythonPairing, true},
                               {"BM_SamplesComparePairedNoBootstrap", BM_SamplesComparePairedNoBootstrap, false}});
    benchmark::RegisterBenchmark("BM_SamplesComparePaired", BM_SamplesComparePaired)
        ->UseRealTime()
        ->Iterations(3)
        ->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark("BM_SamplesReadOneLog", BM_SamplesReadOneLog)
        ->UseRealTime()
        ->Iterations(3)
        ->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark("BM_SamplesReadOneLogGeneral", BM_SamplesReadOneLogGeneral)
        ->UseRealTime()
        ->Iterations(1)
        ->Unit(benchmark::kMillisecond);
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
