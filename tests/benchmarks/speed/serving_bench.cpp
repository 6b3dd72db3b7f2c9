// fp8dash-bench-serving (issue 40's speed target, ../README.md): reading `vllm bench serve --save-detailed` results
// generated at start into the scratch folder (FP8DASH_BENCH_DIR keeps them): per-request `input_lens`, `output_lens`,
// `ttfts`, `itls` (one chunk gap per output token after the first, 128-384 tokens a request), `latencies`,
// `start_times`, `generated_texts` (~4 bytes a token) and `errors`, written as Python's json.dump writes them (", "
// separators, shortest round-trip floats). Figures: one result of 100,000 requests (FP8DASH_BENCH_SERVING_REQUESTS
// changes it): bytes/s of parseVllmBenchText on one core (the text already in memory), of readServingPath (the file
// mapped from the page cache) and of its preview read (keepRequests false), and the peak resident memory of a child
// process that only reads the file (this executable again, --fp8dash-serving-load-only), against the file's size;
// and the sweep of the issue (5 variants x 8 load points, 3 GB): read and compared, bytes/s on one core, and a child's
// peak memory against the largest file.
#include <benchmark/benchmark.h>

#include <charconv>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <random>
#include <string>

#include "bench_support.h"
#include "fp8dash/core/serving_comparison.h"
#include "fp8dash/core/serving_results.h"

namespace fp8dash::bench {
namespace {

std::size_t requestCount() {
    if (const char* n = std::getenv("FP8DASH_BENCH_SERVING_REQUESTS"); n && *n) return std::strtoull(n, nullptr, 10);
    return 100'000;
}

// Buffered writing of Python-style JSON pieces.
class PyJsonWriter {
public:
    explicit PyJsonWriter(const std::filesystem::path& path) : m_file(std::fopen(path.c_str(), "wb")) {
        m_buf.reserve(1 << 20);
    }
    ~PyJsonWriter() {
        flush();
        if (m_file) std::fclose(m_file);
    }
    bool ok() const { return m_file != nullptr; }
    void raw(std::string_view s) {
        m_buf.append(s);
        if (m_buf.size() > (1u << 20)) flush();
    }
    void number(double x) {
        char tmp[32];
        const auto r = std::to_chars(tmp, tmp + sizeof tmp, x);  // shortest round-trip, as Python's repr
        std::string_view s(tmp, static_cast<std::size_t>(r.ptr - tmp));
        raw(s);
        if (s.find_first_of(".e") == std::string_view::npos) raw(".0");  // Python writes 2.0, not 2
    }
    void integer(long long x) { raw(std::to_string(x)); }

private:
    void flush() {
        if (m_file && !m_buf.empty()) std::fwrite(m_buf.data(), 1, m_buf.size(), m_file);
        m_buf.clear();
    }
    std::FILE* m_file;
    std::string m_buf;
};

// One generated --save-detailed result of n requests (label, model, concurrency and seed as given).
// speed scales the throughput figures and divides the chunk gaps.
void writeDetailed(const std::filesystem::path& p, std::size_t n, std::string_view label, int concurrency,
                   std::uint64_t seed, double speed = 1.0) {
    std::mt19937_64 rng(seed);
    std::uniform_int_distribution<int> outLen(128, 384), inLen(900, 1100);
    std::lognormal_distribution<double> gap(std::log(0.0104 / speed), 0.15), ttft(std::log(0.3), 0.6);
    std::vector<int> outs(n), ins(n);
    std::vector<double> ttfts(n), lat(n);
    for (std::size_t i = 0; i < n; ++i) {
        outs[i] = outLen(rng);
        ins[i] = inLen(rng);
    }
    PyJsonWriter w(p);
    w.raw(R"({"date": "20261201-120000", "endpoint_type": "openai", "backend": "openai", "label": ")");
    w.raw(label);
    w.raw(R"(", "model_id": "Qwen/Qwen3-8B", "tokenizer_id": "Qwen/Qwen3-8B", "num_prompts": )");
    w.integer(static_cast<long long>(n));
    w.raw(R"(, "kv_cache_dtype": "fp8", "request_rate": "inf", "burstiness": 1.0, "max_concurrency": )");
    w.integer(concurrency);
    w.raw(R"(, "duration": 1800.5, "completed": )");
    w.integer(static_cast<long long>(n));
    long long totalIn = 0, totalOut = 0;
    for (std::size_t i = 0; i < n; ++i) {
        totalIn += ins[i];
        totalOut += outs[i];
    }
    w.raw(R"(, "failed": 0, "total_input_tokens": )");
    w.integer(totalIn);
    w.raw(R"(, "total_output_tokens": )");
    w.integer(totalOut);
    w.raw(R"(, "request_throughput": )");
    w.number(55.5 * speed);
    w.raw(R"(, "request_goodput": null, "output_throughput": )");
    w.number(14218.3 * speed);
    w.raw(R"(, "total_token_throughput": )");
    w.number(69757.0 * speed);
    w.raw(R"(, "input_lens": [)");
    for (std::size_t i = 0; i < n; ++i) {
        if (i) w.raw(", ");
        w.integer(ins[i]);
    }
    w.raw(R"(], "output_lens": [)");
    for (std::size_t i = 0; i < n; ++i) {
        if (i) w.raw(", ");
        w.integer(outs[i]);
    }
    w.raw(R"(], "ttfts": [)");
    for (std::size_t i = 0; i < n; ++i) {
        ttfts[i] = ttft(rng);
        if (i) w.raw(", ");
        w.number(ttfts[i]);
    }
    w.raw(R"(], "itls": [)");
    for (std::size_t i = 0; i < n; ++i) {
        w.raw(i ? ", [" : "[");
        double sum = 0;
        for (int k = 1; k < outs[i]; ++k) {
            const double g = gap(rng);
            sum += g;
            if (k > 1) w.raw(", ");
            w.number(g);
        }
        w.raw("]");
        lat[i] = ttfts[i] + sum + 0.0004;
    }
    w.raw(R"(], "latencies": [)");
    for (std::size_t i = 0; i < n; ++i) {
        if (i) w.raw(", ");
        w.number(lat[i]);
    }
    w.raw(R"(], "start_times": [)");
    for (std::size_t i = 0; i < n; ++i) {
        if (i) w.raw(", ");
        w.number(81234.5 + static_cast<double>(i) * 0.018);
    }
    w.raw(R"(], "generated_texts": [)");
    static const std::string words = " the model answers the question with care and a \\\"quote\\\" now\\n";
    for (std::size_t i = 0; i < n; ++i) {
        w.raw(i ? ", \"" : "\"");
        std::string text;
        while (text.size() < static_cast<std::size_t>(outs[i]) * 4) text += words;
        w.raw(text);
        w.raw("\"");
    }
    w.raw(R"(], "errors": [)");
    for (std::size_t i = 0; i < n; ++i) w.raw(i ? ", \"\"" : "\"\"");
    w.raw(R"(], "max_output_tokens_per_s": 15000.0, "max_concurrent_requests": 64, "rtfx": 0.0, )"
          R"("mean_ttft_ms": 350.2, "median_ttft_ms": 300.1, "std_ttft_ms": 200.3, "p99_ttft_ms": 1200.4, )"
          R"("mean_tpot_ms": 10.5, "median_tpot_ms": 10.4, "std_tpot_ms": 0.2, "p99_tpot_ms": 11.0, )"
          R"("mean_itl_ms": 10.5, "median_itl_ms": 10.4, "std_itl_ms": 1.6, "p99_itl_ms": 15.0, )"
          R"("mean_e2el_ms": 3000.0, "median_e2el_ms": 2900.0, "std_e2el_ms": 900.0, "p99_e2el_ms": 5000.0})");
}

// The generated file (made once per process).
const std::filesystem::path& detailedFile() {
    static const std::filesystem::path path = [] {
        const std::size_t n = requestCount();
        const auto p = scratchDir() / ("vllm-detailed-" + std::to_string(n) + ".json");
        if (!std::filesystem::exists(p)) writeDetailed(p, n, "fp8", 64, 40);
        return p;
    }();
    return path;
}

const std::string& detailedText() {
    static const std::string text = [] {
        std::ifstream in(detailedFile(), std::ios::binary);
        return std::string(std::istreambuf_iterator<char>(in), {});
    }();
    return text;
}

void setBytes(benchmark::State& state, std::size_t bytes) {
    state.SetBytesProcessed(static_cast<std::int64_t>(bytes) * state.iterations());
    state.counters["file_MB"] = static_cast<double>(bytes) / 1e6;
}

// Parsing only: the text already in memory (parseVllmBenchText reads the itls lists from it and copies the rest into
// simdjson's padded storage).
void BM_VllmDetailedParse(benchmark::State& state) {
    const std::string& text = detailedText();
    for (auto _ : state) {
        auto runs = parseVllmBenchText(text, "detailed.json");
        if (!runs || runs->front().requests.size() != requestCount()) {
            state.SkipWithError(runs ? "wrong request count" : runs.error().message.c_str());
            return;
        }
        benchmark::DoNotOptimize(runs);
    }
    setBytes(state, text.size());
}

// The path reader on the file (page cache warm): mapped, not read.
void BM_VllmDetailedReadPath(benchmark::State& state) {
    const bool keep = state.range(0) != 0;
    ServingReadOptions options;
    options.keepRequests = keep;
    for (auto _ : state) {
        auto runs = readServingPath(detailedFile(), options);
        if (!runs) {
            state.SkipWithError(runs.error().message.c_str());
            return;
        }
        benchmark::DoNotOptimize(runs);
    }
    setBytes(state, static_cast<std::size_t>(std::filesystem::file_size(detailedFile())));
}

// Peak resident memory of a process that only reads the file with readServingPath (its wait4 ru_maxrss), against
// the file's size; "-" reads nothing (the executable's own baseline).
void BM_VllmDetailedReadPathPeakMemory(benchmark::State& state) {
    const auto bytes = static_cast<double>(std::filesystem::file_size(detailedFile()));
    const std::string self = std::filesystem::read_symlink("/proc/self/exe").string();
    for (auto _ : state) {
        const ChildRun run = runChild({self, "--fp8dash-serving-load-only", detailedFile().string()});
        const ChildRun idle = runChild({self, "--fp8dash-serving-load-only", "-"});
        if (run.exitCode != 0 || idle.exitCode != 0) {
            state.SkipWithError("the load-only child failed");
            return;
        }
        // The child's own VmHWM (its last line): wait4's ru_maxrss would also count this process' pages, which a
        // spawned child shares until its exec.
        const auto hwmKiB = [](const std::string& out) {
            const std::size_t line = out.rfind('\n', out.size() >= 2 ? out.size() - 2 : 0);
            return std::strtod(out.c_str() + (line == std::string::npos ? 0 : line + 1), nullptr);
        };
        const double peak = hwmKiB(run.out), baseline = hwmKiB(idle.out);
        state.SetIterationTime(run.wallSeconds);
        state.counters["peak_rss_MiB"] = peak / 1024.0;
        state.counters["baseline_rss_MiB"] = baseline / 1024.0;
        state.counters["peak_over_file"] = peak * 1024.0 / bytes;
        state.counters["file_MiB"] = bytes / 1048576.0;
    }
}

// The sweep of issue 40's target: 5 variants x 8 load points (concurrency 1-128), each point one --save-detailed file
// of FP8DASH_BENCH_SERVING_SWEEP_REQUESTS requests (11,250: 75 MB a file, 3.0 GB in all; the issue's "100 k requests"
// a point would be 670 MB a point, 27 GB: its 3 GB total is kept), one folder per variant, as `fp8dash serving` reads
// them: each folder read with readServingPath, then compareServing with an SLO.
std::size_t sweepRequests() {
    if (const char* n = std::getenv("FP8DASH_BENCH_SERVING_SWEEP_REQUESTS"); n && *n)
        return std::strtoull(n, nullptr, 10);
    return 11'250;
}

struct SweepTree {
    std::filesystem::path root;
    std::vector<std::string> labels;
    std::size_t bytes = 0, largest = 0;
};

const SweepTree& sweepTree() {
    static const SweepTree tree = [] {
        SweepTree t;
        const std::size_t n = sweepRequests();
        t.root = scratchDir() / ("vllm-sweep-" + std::to_string(n));
        t.labels = {"bf16", "fp8-w8a8", "fp8-w8a8-kv", "fp8-w8a8-kv-calibrated", "fp8-w8a8-kv-e5m2"};
        const double speeds[] = {1.0, 1.45, 1.52, 1.53, 1.5};
        for (std::size_t v = 0; v < t.labels.size(); ++v) {
            for (int k = 0; k < 8; ++k) {
                const auto dir = t.root / t.labels[v];
                std::filesystem::create_directories(dir);
                const auto file = dir / ("concurrency-" + std::to_string(1 << k) + ".json");
                if (!std::filesystem::exists(file))
                    writeDetailed(file, n, t.labels[v], 1 << k, 1000 * v + k, speeds[v] / (1 + 0.08 * k));
                const auto size = static_cast<std::size_t>(std::filesystem::file_size(file));
                t.bytes += size;
                t.largest = std::max(t.largest, size);
            }
        }
        return t;
    }();
    return tree;
}

// Reads the sweep's folders and compares them; the number of load points matched (0 on an error, printed).
std::size_t readAndCompareSweep(const SweepTree& t) {
    std::vector<ServingVariantInput> variants;
    for (const std::string& label : t.labels) {
        auto runs = readServingPath(t.root / label);
        if (!runs) {
            std::cerr << runs.error().message << "\n";
            return 0;
        }
        variants.push_back({label, std::move(runs).value()});
    }
    ServingOptions options;
    auto slo = parseServingSlo("ttft_p99=2000ms,tpot_p99=50ms");
    if (!slo) {
        std::cerr << slo.error().message << "\n";
        return 0;
    }
    options.slo = std::move(slo).value();
    const ServingComparison c = compareServing(variants, options);
    if (c.blocked()) {
        for (const ServingProblem& p : c.problems) std::cerr << p.text << "\n";
        return 0;
    }
    return c.variants.front().points.size();
}

void BM_VllmSweepReadAndCompare(benchmark::State& state) {
    const SweepTree& t = sweepTree();
    for (auto _ : state) {
        const std::size_t points = readAndCompareSweep(t);
        if (points != 8) {
            state.SkipWithError("the sweep did not compare at 8 load points");
            return;
        }
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(t.bytes) * state.iterations());
    state.counters["sweep_MB"] = static_cast<double>(t.bytes) / 1e6;
    state.counters["largest_file_MB"] = static_cast<double>(t.largest) / 1e6;
}

// Peak resident memory of a child that only reads and compares the sweep, against its largest file.
void BM_VllmSweepPeakMemory(benchmark::State& state) {
    const SweepTree& t = sweepTree();
    const std::string self = std::filesystem::read_symlink("/proc/self/exe").string();
    for (auto _ : state) {
        const ChildRun run = runChild({self, "--fp8dash-serving-sweep-only", t.root.string()});
        if (run.exitCode != 0) {
            state.SkipWithError("the sweep-only child failed");
            return;
        }
        const std::size_t line = run.out.rfind('\n', run.out.size() >= 2 ? run.out.size() - 2 : 0);
        const double peakKiB = std::strtod(run.out.c_str() + (line == std::string::npos ? 0 : line + 1), nullptr);
        state.SetIterationTime(run.wallSeconds);
        state.counters["peak_rss_MiB"] = peakKiB / 1024.0;
        state.counters["peak_over_largest_file"] = peakKiB * 1024.0 / static_cast<double>(t.largest);
    }
}

int loadOnly(const std::string& file) {
    if (file != "-") {
        auto runs = readServingPath(file);
        if (!runs) {
            std::cerr << runs.error().message << "\n";
            return 1;
        }
        std::cout << runs->front().requests.size() << " requests\n";
    }
    std::cout << selfPeakRssKiB() << " KiB\n";
    return 0;
}

}  // namespace
}  // namespace fp8dash::bench

int main(int argc, char** argv) {
    using namespace fp8dash::bench;
    if (argc == 3 && std::strcmp(argv[1], "--fp8dash-serving-load-only") == 0) return loadOnly(argv[2]);
    if (argc == 3 && std::strcmp(argv[1], "--fp8dash-serving-sweep-only") == 0) {
        const SweepTree& t = sweepTree();  // FP8DASH_BENCH_DIR and the request count as the parent's
        if (t.root != argv[2] || readAndCompareSweep(t) != 8) return 1;
        std::cout << selfPeakRssKiB() << " KiB\n";
        return 0;
    }
    std::cerr << "generating " << detailedFile() << " ...\n";
    std::cerr << std::filesystem::file_size(detailedFile()) / 1000000 << " MB\n";
    // Peak memory first: its children are spawned before this process holds the text.
    benchmark::RegisterBenchmark("BM_VllmDetailedReadPathPeakMemory", BM_VllmDetailedReadPathPeakMemory)
        ->UseManualTime()
        ->Iterations(1)
        ->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark("BM_VllmDetailedParse", BM_VllmDetailedParse)
        ->Unit(benchmark::kMillisecond)
        ->MinTime(3);
    benchmark::RegisterBenchmark("BM_VllmDetailedReadPath", BM_VllmDetailedReadPath)
        ->Arg(1)
        ->Arg(0)
        ->Unit(benchmark::kMillisecond)
        ->MinTime(3);
    benchmark::RegisterBenchmark("BM_VllmSweepPeakMemory", BM_VllmSweepPeakMemory)
        ->UseManualTime()
        ->Iterations(1)
        ->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark("BM_VllmSweepReadAndCompare", BM_VllmSweepReadAndCompare)
        ->Unit(benchmark::kMillisecond)
        ->MinTime(10);
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
