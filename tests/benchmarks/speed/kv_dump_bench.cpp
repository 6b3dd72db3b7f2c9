// fp8dash-bench-kvdump: the KV error sweep over a 2 GiB K/V dump (16 layers x 8 KV heads x 32,768 tokens x 128 dims,
// BF16: 1 GiB each of K and V; a dump larger than the 2 GiB the issue allows the sweep), as `fp8dash bench kv --kv-dump
// FILE --cpu` runs it: its wall time and the process' peak memory (getrusage ru_maxrss), which the dump reader and the
// layer-by-layer sweep must keep within 2 GiB. The dump is written once into the scratch folder (FP8DASH_BENCH_DIR
// keeps it between runs), streamed one (layer, head) at a time so the writing does not raise the peak. Contexts: 1K,
// 4K, 16K and all 32K tokens (the CLI's default for this dump on the CPU); FP8DASH_BENCH_KV_CONTEXTS="a,b,..." changes
// them. Not a test: the figures go to README.md.
#include <benchmark/benchmark.h>
#include <sys/resource.h>

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <random>
#include <string>
#include <vector>

#include "bench_support.h"
#include "fp8dash/gpu/kv_dump.h"
#include "fp8dash/gpu/kv_quant.h"
#include "safetensors_writer.h"

namespace fp8dash::bench {
namespace {

constexpr std::uint64_t kLayers = 16, kHeads = 8, kTokens = 32768, kDim = 128;

// BF16 bits of a float (round to nearest even; the values here are finite).
std::uint16_t toBf16(float f) {
    std::uint32_t b = test::floatBits(f);
    b += 0x7fffu + ((b >> 16) & 1u);
    return static_cast<std::uint16_t>(b >> 16);
}

// Keys N(0, 1) with two outlier channels x 20 per head, values N(0, 0.3) with a per-channel offset, a per-layer
// gain from 0.5 to 4: enough structure for the sweep to do its real work; the figures here are time and memory.
std::string writeDump() {
    const auto path = (scratchDir() / "kv-2gib.safetensors").string();
    const std::uint64_t tensorBytes = kLayers * kHeads * kTokens * kDim * 2;
    const std::vector<std::uint64_t> shape{kLayers, kHeads, kTokens, kDim};
    const std::string prefix = test::safetensorsPrefix(test::safetensorsHeader(
        {{"key", "BF16", shape, tensorBytes}, {"value", "BF16", shape, tensorBytes}}, {{"model", "synthetic/2gib"}}));
    std::error_code ec;
    if (std::filesystem::file_size(path, ec) == prefix.size() + 2 * tensorBytes) return path;  // kept from before

    const auto start = std::chrono::steady_clock::now();
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(prefix.data(), static_cast<std::streamsize>(prefix.size()));
    std::mt19937_64 rng(42);
    std::normal_distribution<float> normal;
    std::vector<std::uint16_t> block(kTokens * kDim);
    for (int side = 0; side < 2; ++side)
        for (std::uint64_t l = 0; l < kLayers; ++l) {
            const float gain = 0.5f * std::pow(8.0f, static_cast<float>(l) / (kLayers - 1));
            for (std::uint64_t h = 0; h < kHeads; ++h) {
                for (std::uint64_t t = 0; t < kTokens; ++t)
                    for (std::uint64_t d = 0; d < kDim; ++d) {
                        const float x = side == 0 ? normal(rng) * (d == 3 || d == 67 ? 20.0f : 1.0f)
                                                  : 0.3f * normal(rng) + 0.05f * static_cast<float>(d % 7);
                        block[t * kDim + d] = toBf16(gain * x);
                    }
                const std::string bytes = test::le16(block);
                out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
            }
        }
    out.close();
    std::cerr << "fp8dash-bench-kvdump: wrote " << path << " (" << (prefix.size() + 2 * tensorBytes) / 1048576.0
              << " MiB) in " << std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count()
              << " s\n";
    return path;
}

std::vector<int> contexts() {
    std::vector<int> out;
    if (const char* env = std::getenv("FP8DASH_BENCH_KV_CONTEXTS"); env && *env) {
        const std::string text = env;
        for (std::size_t start = 0;;) {
            const std::size_t comma = text.find(',', start);
            out.push_back(std::atoi(text.substr(start, comma - start).c_str()));
            if (comma == std::string::npos) return out;
            start = comma + 1;
        }
    }
    return {1024, 4096, 16384, static_cast<int>(kTokens)};
}

void BM_KvSweepOn2GiBDump(benchmark::State& state) {
    const std::string path = writeDump();
    gpu::KvSweepConfig config;
    config.contexts = contexts();
    std::size_t elements = 0;
    for (auto _ : state) {
        config.source = gpu::openKvDump(path);
        const gpu::KvSweepResult result = gpu::runKvQuantSweep(config);
        for (const auto& r : result.results) elements += r.elements;
        benchmark::DoNotOptimize(result.results.data());
    }
    rusage usage{};
    ::getrusage(RUSAGE_SELF, &usage);
    state.counters["peak_rss_MiB"] = static_cast<double>(usage.ru_maxrss) / 1024.0;  // ru_maxrss: KiB on Linux
    state.counters["dump_MiB"] = static_cast<double>(std::filesystem::file_size(path)) / 1048576.0;
    state.counters["elements_per_s"] = benchmark::Counter(static_cast<double>(elements), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_KvSweepOn2GiBDump)->Iterations(1)->Unit(benchmark::kSecond)->UseRealTime();

}  // namespace
}  // namespace fp8dash::bench

BENCHMARK_MAIN();
