// fp8dash-bench-variants: `fp8dash compare` of several FP8 candidates against one baseline, with sample logs, against
// the two-run compare of the same logs (the speed target of issue 25: at most 2.5x the two-run compare on 2 cores,
// peak memory under 250 MiB). Five runs of the paired benchmark's shape (sample_log_shape.h: 40,000 rows of one
// multiple-choice task, 475 MB a log) are generated into the scratch folder at the start: BF16, FP8 W8A8, W8A8 + FP8 KV
// (scales 1.0), W8A8 + calibrated KV (an -FP8-KV checkpoint) and FP8 KV alone, each candidate flipping its own share
// of the baseline's answers. Each measurement is the real binary as a user runs it (`fp8dash compare ... --format
// json`), timed from its spawn to its exit, its peak memory from wait4; the two shapes alternate, three rounds each.
// FP8DASH_BENCH_BINARY runs another fp8dash binary instead of this build's (a change against its base commit).
// Not a test: the figures go to ../README.md and results/.
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "bench_support.h"
#include "sample_log_shape.h"

namespace fp8dash::bench {
namespace {

namespace fs = std::filesystem;

struct RunSpec {
    const char* folder;
    const char* date;
    const char* modelArgs;
    unsigned flipOneIn;  // the share of the baseline's answers this run flips (0: the baseline)
};

// The ladder of tests/data/lm-eval-ladder at the paired benchmark's size, and FP8 KV alone.
const RunSpec kRuns[] = {
    {"bf16", "2026-12-02T09-00-00.000001", "pretrained=meta-llama/Llama-3.1-8B-Instruct,dtype=bfloat16", 0},
    {"w8a8", "2026-12-02T11-00-00.000001", "pretrained=RedHatAI/Meta-Llama-3.1-8B-Instruct-FP8,dtype=auto", 60},
    {"w8a8-kv", "2026-12-02T13-00-00.000001",
     "pretrained=RedHatAI/Meta-Llama-3.1-8B-Instruct-FP8,dtype=auto,kv_cache_dtype=fp8", 25},
    {"w8a8-kv-cal", "2026-12-02T15-00-00.000001",
     "pretrained=RedHatAI/Meta-Llama-3.1-8B-Instruct-FP8-KV,dtype=auto,kv_cache_dtype=fp8", 45},
    {"kv", "2026-12-02T17-00-00.000001",
     "pretrained=meta-llama/Llama-3.1-8B-Instruct,dtype=bfloat16,kv_cache_dtype=fp8", 35},
};
constexpr std::size_t kRunCount = std::size(kRuns);

struct Runs {
    std::vector<fs::path> dirs;
    double bytes = 0;  // every log
    std::size_t rows = 0;
};

// Generated once per process (kept between runs when FP8DASH_BENCH_DIR is set: the rows depend on the count only).
const Runs& runs() {
    static const Runs generated = [] {
        Runs r;
        r.rows = rowCount();
        const fs::path root = scratchDir() / ("variant-logs-" + std::to_string(r.rows));
        std::vector<fs::path> logs, results;
        for (const RunSpec& spec : kRuns) {
            r.dirs.push_back(root / spec.folder);
            fs::create_directories(r.dirs.back());
            logs.push_back(r.dirs.back() / (std::string("samples_") + kTask + "_" + spec.date + ".jsonl"));
            results.push_back(r.dirs.back() / (std::string("results_") + spec.date + ".json"));
        }
        bool whole = true;
        for (const auto& f : results) whole = whole && fs::exists(f);
        if (!whole) {
            std::vector<std::ofstream> out;
            for (const auto& f : logs) out.emplace_back(f, std::ios::binary);
            std::mt19937_64 rng(29);
            std::vector<std::size_t> right(kRunCount, 0);
            for (std::size_t doc = 0; doc < r.rows; ++doc) {
                const std::string prompt = promptText(rng, 2700);
                const std::string docHash = hex64(rng), promptHash = hex64(rng), targetHash = hex64(rng);
                const bool baseline = rng() % 4 != 0;
                for (std::size_t k = 0; k < kRunCount; ++k) {
                    const unsigned flip = kRuns[k].flipOneIn;
                    const bool acc = flip != 0 && rng() % flip == 0 ? !baseline : baseline;
                    right[k] += acc;
                    writeRow(out[k], doc, prompt, docHash, promptHash, targetHash, 0, acc, acc, rng);
                }
            }
            for (auto& o : out) o.close();
            // The results files last: their presence says the logs are whole.
            for (std::size_t k = 0; k < kRunCount; ++k)
                writeResults(results[k], static_cast<double>(right[k]) / static_cast<double>(r.rows), r.rows,
                             kRuns[k].modelArgs);
        }
        for (const auto& f : logs) r.bytes += static_cast<double>(fs::file_size(f));
        return r;
    }();
    return generated;
}

// `fp8dash compare` of the baseline and the first `candidates` candidates, as a user runs it.
void compareRuns(benchmark::State& state, std::size_t candidates) {
    const Runs& r = runs();
    const char* other = std::getenv("FP8DASH_BENCH_BINARY");  // another build, to measure a change against
    std::vector<std::string> argv = {other && *other ? other : FP8DASH_BINARY, "compare"};
    for (std::size_t k = 0; k <= candidates; ++k) argv.push_back(r.dirs[k].string());
    argv.insert(argv.end(), {"--format", "json"});
    long peak = 0;
    for (auto _ : state) {
        const ChildRun run = runChild(argv, {"QT_QPA_PLATFORM=offscreen"});
        // compare exits 0 with its report (no --fail-on); every task is paired from the logs.
        if (run.exitCode != 0 || run.out.find("\"paired\"") == std::string::npos) {
            state.SkipWithError(
                ("fp8dash compare failed or paired nothing (exit " + std::to_string(run.exitCode) + ")").c_str());
            return;
        }
        state.SetIterationTime(run.wallSeconds);
        peak = std::max(peak, run.peakRssKiB);
    }
    state.counters["peak_rss_MiB"] = static_cast<double>(peak) / 1024.0;
    state.counters["logs_MB"] = r.bytes / 1e6 * static_cast<double>(candidates + 1) / static_cast<double>(kRunCount);
    state.counters["runs"] = static_cast<double>(candidates + 1);
}

void BM_VariantsCompareTwoRuns(benchmark::State& state) {
    compareRuns(state, 1);
}
void BM_VariantsCompareFourCandidates(benchmark::State& state) {
    compareRuns(state, kRunCount - 1);
}

}  // namespace
}  // namespace fp8dash::bench

int main(int argc, char** argv) {
    using namespace fp8dash::bench;
    // The two shapes alternate, so that a machine shared with other work loads both alike.
    registerAlternatingRounds({{"BM_VariantsCompareTwoRuns", BM_VariantsCompareTwoRuns, true},
                               {"BM_VariantsCompareFourCandidates", BM_VariantsCompareFourCandidates, true}});
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
