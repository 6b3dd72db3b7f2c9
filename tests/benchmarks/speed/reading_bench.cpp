// fp8dash-bench-reading (speed target 1, ../README.md): reading lm-eval results (the shared fixtures, read in place)
// and a comparison file whose production timeline holds 10M points (made by core's own writer), against Python's
// json.load(open(F)) of the same files; the writer on the same document. Peak memory is that of a child process that
// only loads the file (this executable again, --fp8dash-load-only). Not a test: the figures go to README.md here.
#include <benchmark/benchmark.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <random>
#include <string>

#include "bench_support.h"
#include "fp8dash/core/comparison_file.h"
#include "fp8dash/core/lm_eval_results.h"

namespace fp8dash::bench {
namespace {

constexpr std::size_t kTimelinePoints = 10'000'000;  // throughput and quality, half each

// Python's reading, timed inside Python (the interpreter's start left out): seconds per json.load(open(F)) over
// `repeat` calls, and the process' peak resident memory (VmHWM, KiB).
constexpr const char* kPythonTimer =
    "import json, sys, time\n"
    "f, n = sys.argv[1], int(sys.argv[2])\n"
    "t = time.perf_counter()\n"
    "for _ in range(n): json.load(open(f))\n"
    "took = (time.perf_counter() - t) / n\n"
    "hwm = [l.split()[1] for l in open('/proc/self/status') if l.startswith('VmHWM:')][0]\n"
    "print(took, hwm)\n";

std::string python() {
    static const std::string path = test::findExecutable("python3");
    return path;
}

std::filesystem::path selfExecutable() {
    return std::filesystem::read_symlink("/proc/self/exe");
}

// A month-scale production timeline: throughput as Prometheus' rate() gives it (full-precision doubles) and judge
// quality on its 1-5 scale in tenths, both every 15 s, FP8 switched on half-way.
ComparisonDocument timelineDocument(std::size_t points) {
    ComparisonDocument doc;
    doc.hasEvals = false;
    doc.toolVersion = "bench";
    doc.title = "10M-point production timeline";
    TimelineData d;
    const std::size_t each = points / 2;
    d.settings.prometheusUrl = "http://prometheus.invalid:9090";
    d.settings.qualitySource = QualitySource::Prometheus;
    d.settings.from = 1795852800;
    d.settings.step = 15;
    d.settings.to = d.settings.from + 15.0 * static_cast<double>(each - 1);
    d.settings.changeAt = d.settings.from + 15.0 * static_cast<double>(each / 2);
    std::mt19937_64 rng(7);
    std::normal_distribution<double> noise(0, 25);
    Series throughput, quality;
    throughput.labels = {{"model_name", "llama-3.1-8b"}};
    throughput.samples.reserve(each);
    quality.samples.reserve(points - each);
    for (std::size_t i = 0; i < each; ++i) {
        const double t = d.settings.from + 15.0 * static_cast<double>(i);
        throughput.samples.push_back({t, (t < *d.settings.changeAt ? 1000.0 : 1450.0) + noise(rng)});
    }
    for (std::size_t i = 0; i < points - each; ++i) {
        const double t = d.settings.from + 15.0 * static_cast<double>(i);
        quality.samples.push_back({t, std::round(40.0 + noise(rng) / 10.0) / 10.0});
    }
    d.throughput = std::move(throughput);
    d.quality = std::move(quality);
    doc.timeline = std::move(d);
    return doc;
}

struct TimelineFile {
    ComparisonDocument doc;
    std::filesystem::path path;
    double bytes = 0;
};

const TimelineFile& timelineFile() {
    static const TimelineFile file = [] {
        TimelineFile f;
        f.doc = timelineDocument(kTimelinePoints);
        f.path = scratchDir() / "timeline-10M.fp8cmp";
        if (auto s = saveComparisonFile(f.doc, f.path); !s) {
            std::cerr << s.error().message << "\n";
            std::exit(1);
        }
        f.bytes = static_cast<double>(std::filesystem::file_size(f.path));
        return f;
    }();
    return file;
}

// The reading the comparison file had before the fast paths: the whole text through one JSON tree (nlohmann's parser
// for a text this size), then the document from the tree.
Result<ComparisonDocument> loadThroughTree(const std::filesystem::path& path) {
    auto text = readTextFile(path);
    if (!text) return text.error();
    auto tree = parseJsonText(*text, path.string());
    if (!tree) return tree.error();
    return parseComparisonJson(std::move(tree).value(), path.string());
}

void readLmEval(benchmark::State& state, std::filesystem::path path) {
    const auto bytes = static_cast<std::int64_t>(std::filesystem::file_size(path));
    for (auto _ : state) {
        auto r = readLmEvalPath(path);
        if (!r) {
            state.SkipWithError(r.error().message.c_str());
            return;
        }
        benchmark::DoNotOptimize(r);
    }
    state.SetBytesProcessed(bytes * static_cast<std::int64_t>(state.iterations()));
}

void pythonJsonLoad(benchmark::State& state, std::filesystem::path path, int repeat) {
    if (python().empty()) {
        state.SkipWithError("python3 is not on PATH");
        return;
    }
    const auto bytes = static_cast<double>(std::filesystem::file_size(path));
    long maxRss = 0;
    for (auto _ : state) {
        const ChildRun run = runChild({python(), "-c", kPythonTimer, path.string(), std::to_string(repeat)});
        if (run.exitCode != 0) {
            state.SkipWithError("python3 failed");
            return;
        }
        std::size_t used = 0;
        state.SetIterationTime(std::stod(run.out, &used));
        maxRss = std::max(maxRss, std::stol(run.out.substr(used)));
    }
    state.counters["bytes_per_second"] =
        benchmark::Counter(bytes * static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
    state.counters["peak_rss_MiB"] = static_cast<double>(maxRss) / 1024.0;
    state.counters["peak_rss_per_file_size"] = static_cast<double>(maxRss) * 1024.0 / bytes;
}

void BM_TimelineFileLoad(benchmark::State& state) {
    const TimelineFile& f = timelineFile();
    for (auto _ : state) {
        auto doc = loadComparisonFile(f.path);
        if (!doc ||
            doc->timeline->throughput->samples.size() + doc->timeline->quality->samples.size() != kTimelinePoints) {
            state.SkipWithError("the file did not read back");
            return;
        }
        benchmark::DoNotOptimize(doc);
    }
    state.counters["bytes_per_second"] =
        benchmark::Counter(f.bytes * static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
    state.counters["file_MB"] = f.bytes / 1e6;
    state.counters["points"] = static_cast<double>(kTimelinePoints);
}

void BM_TimelineFileLoadThroughTree(benchmark::State& state) {
    const TimelineFile& f = timelineFile();
    for (auto _ : state) {
        auto doc = loadThroughTree(f.path);
        if (!doc) {
            state.SkipWithError(doc.error().message.c_str());
            return;
        }
        benchmark::DoNotOptimize(doc);
    }
    state.counters["bytes_per_second"] =
        benchmark::Counter(f.bytes * static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}

void BM_TimelineFilePythonJsonLoad(benchmark::State& state) {
    pythonJsonLoad(state, timelineFile().path, 1);
    state.counters["file_MB"] = timelineFile().bytes / 1e6;
}

// Peak memory of a process that starts, loads the file (as `mode` reads it) and exits; and of one that only starts.
void peakMemory(benchmark::State& state, const char* mode) {
    const TimelineFile& f = timelineFile();
    long peak = 0, idle = 0;
    for (auto _ : state) {
        const ChildRun run = runChild({selfExecutable(), mode, f.path.string()});
        const ChildRun none = runChild({selfExecutable(), mode, "-"});
        if (run.exitCode != 0 || none.exitCode != 0) {
            state.SkipWithError("the load-only child failed");
            return;
        }
        state.SetIterationTime(run.wallSeconds);
        peak = std::max(peak, std::stol(run.out.substr(run.out.find(' '))));
        idle = std::max(idle, std::stol(none.out.substr(none.out.find(' '))));
    }
    state.counters["peak_rss_MiB"] = static_cast<double>(peak) / 1024.0;
    state.counters["idle_rss_MiB"] = static_cast<double>(idle) / 1024.0;
    state.counters["peak_rss_per_file_size"] = static_cast<double>(peak) * 1024.0 / f.bytes;
    state.counters["file_MB"] = f.bytes / 1e6;
}

void BM_TimelineFileLoadPeakMemory(benchmark::State& state) {
    peakMemory(state, "--fp8dash-load-only");
}
void BM_TimelineFileLoadThroughTreePeakMemory(benchmark::State& state) {
    peakMemory(state, "--fp8dash-load-only-tree");
}

void BM_TimelineFileSave(benchmark::State& state) {
    const TimelineFile& f = timelineFile();
    const auto out = scratchDir() / "timeline-10M-saved.fp8cmp";
    for (auto _ : state) {
        if (auto s = saveComparisonFile(f.doc, out); !s) {
            state.SkipWithError(s.error().message.c_str());
            return;
        }
    }
    const auto bytes = static_cast<double>(std::filesystem::file_size(out));
    state.counters["bytes_per_second"] =
        benchmark::Counter(bytes * static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
    std::filesystem::remove(out);
}

// The writer before the fast paths: the whole document as one nlohmann tree, pretty-printed (a line per sample).
void BM_TimelineFileSavePrevious(benchmark::State& state) {
    const TimelineFile& f = timelineFile();
    const auto out = scratchDir() / "timeline-10M-previous.fp8cmp";
    for (auto _ : state) {
        const std::string bytes = toJson(f.doc).dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
        if (auto s = writeFileAtomically(out, bytes); !s) {
            state.SkipWithError(s.error().message.c_str());
            return;
        }
    }
    const auto bytes = static_cast<double>(std::filesystem::file_size(out));
    state.counters["bytes_per_second"] =
        benchmark::Counter(bytes * static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
    state.counters["file_MB"] = bytes / 1e6;
    std::filesystem::remove(out);
}

// --fp8dash-load-only[-tree] FILE|-: load the file and exit (the peak-memory child); "-" loads nothing.
// Prints the points read and the process' peak resident memory (KiB).
int loadOnly(const std::string& mode, const std::string& file) {
    std::size_t points = 0;
    if (file != "-") {
        auto doc = mode == "--fp8dash-load-only" ? loadComparisonFile(file) : loadThroughTree(file);
        if (!doc) {
            std::cerr << doc.error().message << "\n";
            return 1;
        }
        points = doc->timeline->throughput->samples.size() + doc->timeline->quality->samples.size();
    }
    std::printf("%zu %ld\n", points, selfPeakRssKiB());
    return 0;
}

}  // namespace
}  // namespace fp8dash::bench

int main(int argc, char** argv) {
    using namespace fp8dash::bench;
    if (argc == 3 && std::strncmp(argv[1], "--fp8dash-load-only", 19) == 0) return loadOnly(argv[1], argv[2]);

    // The lm-eval fixtures, read in place; without the shared folder those benchmarks are left out, saying so.
    const std::filesystem::path fixtures = std::filesystem::path(FP8DASH_SHARED_FIXTURES) / "lm-eval";
    if (std::filesystem::is_directory(fixtures)) {
        std::vector<std::filesystem::path> files;
        for (const auto& e : std::filesystem::directory_iterator(fixtures))
            if (e.path().extension() == ".json") files.push_back(e.path());
        std::sort(files.begin(), files.end());
        for (const auto& file : files) {
            const std::string name = file.stem().string();
            benchmark::RegisterBenchmark(("BM_LmEvalRead/" + name).c_str(), readLmEval, file);
            // Enough calls per Python run for ~0.2 s, so its timer's resolution does not matter.
            const int repeat =
                static_cast<int>(std::max<std::uintmax_t>(20, 20'000'000 / std::filesystem::file_size(file)));
            benchmark::RegisterBenchmark(("BM_LmEvalPythonJsonLoad/" + name).c_str(), pythonJsonLoad, file, repeat)
                ->UseManualTime()
                ->Iterations(5)
                ->Unit(benchmark::kMicrosecond);
        }
    } else {
        std::cerr << "fp8dash-bench-reading: " << fixtures << " not found; the lm-eval benchmarks are left out\n";
    }
    benchmark::RegisterBenchmark("BM_TimelineFileLoad", BM_TimelineFileLoad)
        ->Iterations(3)
        ->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark("BM_TimelineFilePythonJsonLoad", BM_TimelineFilePythonJsonLoad)
        ->UseManualTime()
        ->Iterations(3)
        ->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark("BM_TimelineFileLoadPeakMemory", BM_TimelineFileLoadPeakMemory)
        ->UseManualTime()
        ->Iterations(1)
        ->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark("BM_TimelineFileSave", BM_TimelineFileSave)
        ->Iterations(3)
        ->Unit(benchmark::kMillisecond);
    // The paths before the fast ones, for comparison (slow, and several GB of memory).
    benchmark::RegisterBenchmark("BM_TimelineFileLoadThroughTree", BM_TimelineFileLoadThroughTree)
        ->Iterations(1)
        ->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark("BM_TimelineFileLoadThroughTreePeakMemory", BM_TimelineFileLoadThroughTreePeakMemory)
        ->UseManualTime()
        ->Iterations(1)
        ->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark("BM_TimelineFileSavePrevious", BM_TimelineFileSavePrevious)
        ->Iterations(1)
        ->Unit(benchmark::kMillisecond);
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
