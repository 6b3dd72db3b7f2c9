// fp8dash-bench-codec (speed target 4, ../README.md): the software FP8 codec's throughput on one thread against a loop
// over the CUDA toolkit's own host conversions (cuda_fp8.h's __nv_cvt_float_to_fp8 / __nv_cvt_fp8_to_halfraw, compiled
// by the C++ compiler: tests/gpu/fp8_codec_reference.h), over the same inputs, which each benchmark also checks bit for
// bit. Without cuda_fp8.h the reference benchmarks skip with the reason. Not a test: figures go to README.md here.
#include <benchmark/benchmark.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "fp8_codec_reference.h"
#include "fp8dash/gpu/fp8_codec.h"

namespace fp8dash::gpu {
namespace {

constexpr std::size_t kValues = std::size_t{1} << 20;  // 4 MiB of floats in, 1 MiB of codes out

// What a KV cache or a weight tensor holds after scaling: mostly normal values across the format's range, some
// subnormal-range ones, some beyond the maximum, and a few zeros, infinities and NaNs.
const std::vector<float>& inputs() {
    static const std::vector<float> values = [] {
        std::vector<float> v(kValues);
        std::mt19937_64 rng(8);
        std::normal_distribution<float> normal(0.0f, 1.0f);
        std::uniform_real_distribution<float> exponent(-12.0f, 17.0f);
        for (auto& x : v) {
            const auto kind = rng() % 100;
            if (kind < 85)
                x = normal(rng) * 64.0f;
            else if (kind < 95)
                x = (rng() % 2 ? 1.0f : -1.0f) * std::exp2(exponent(rng));
            else if (kind < 97)
                x = 0.0f;
            else if (kind < 98)
                x = std::numeric_limits<float>::infinity() * (rng() % 2 ? 1.0f : -1.0f);
            else if (kind < 99)
                x = std::numeric_limits<float>::quiet_NaN();
            else
                x = std::bit_cast<float>(static_cast<std::uint32_t>(rng()));  // any bit pattern
        }
        return v;
    }();
    return values;
}

const std::vector<std::uint8_t>& codes() {
    static const std::vector<std::uint8_t> c = [] {
        std::vector<std::uint8_t> out(kValues);
        std::mt19937_64 rng(9);
        for (auto& x : out) x = static_cast<std::uint8_t>(rng());
        return out;
    }();
    return c;
}

enum class Impl { Fp8dash, Fp8dashBaseline, Toolkit };

void encode(benchmark::State& state, Fp8Format format, Saturation saturation, Impl impl) {
    if (impl == Impl::Toolkit && !reference::available()) {
        state.SkipWithError(reference::unavailableReason());
        return;
    }
    const auto& in = inputs();
    std::vector<std::uint8_t> out(in.size());
    for (auto _ : state) {
        switch (impl) {
            case Impl::Fp8dash:
                encodeFp8(in.data(), out.data(), in.size(), format, saturation);
                break;
            case Impl::Fp8dashBaseline:
                encodeFp8Baseline(in.data(), out.data(), in.size(), format, saturation);
                break;
            case Impl::Toolkit:
                reference::encode(in.data(), out.data(), in.size(), format, saturation);
                break;
        }
        benchmark::DoNotOptimize(out.data());
        benchmark::ClobberMemory();
    }
    state.SetItemsProcessed(static_cast<std::int64_t>(in.size()) * static_cast<std::int64_t>(state.iterations()));
    state.SetBytesProcessed(static_cast<std::int64_t>(in.size() * sizeof(float)) *
                            static_cast<std::int64_t>(state.iterations()));
    // Bit for bit against the toolkit over the inputs just timed.
    if (reference::available()) {
        std::vector<std::uint8_t> expected(in.size());
        reference::encode(in.data(), expected.data(), in.size(), format, saturation);
        std::size_t mismatches = 0;
        for (std::size_t i = 0; i < in.size(); ++i) mismatches += out[i] != expected[i];
        state.counters["mismatches"] = static_cast<double>(mismatches);
        if (mismatches) state.SkipWithError("the codes differ from cuda_fp8.h's");
    }
    if (impl == Impl::Fp8dash) state.SetLabel(fp8EncodeKernel());
}

void decode(benchmark::State& state, Fp8Format format, Impl impl) {
    if (impl == Impl::Toolkit && !reference::available()) {
        state.SkipWithError(reference::unavailableReason());
        return;
    }
    const auto& in = codes();
    std::vector<float> out(in.size());
    for (auto _ : state) {
        if (impl == Impl::Toolkit) {
            for (std::size_t i = 0; i < in.size(); ++i) out[i] = reference::decode(in[i], format);
        } else {
            decodeFp8(in.data(), out.data(), in.size(), format);
        }
        benchmark::DoNotOptimize(out.data());
        benchmark::ClobberMemory();
    }
    state.SetItemsProcessed(static_cast<std::int64_t>(in.size()) * static_cast<std::int64_t>(state.iterations()));
    if (reference::available()) {
        std::size_t mismatches = 0;
        for (std::size_t i = 0; i < in.size(); ++i)
            mismatches +=
                std::bit_cast<std::uint32_t>(out[i]) != std::bit_cast<std::uint32_t>(reference::decode(in[i], format));
        state.counters["mismatches"] = static_cast<double>(mismatches);
        if (mismatches) state.SkipWithError("the values differ from cuda_fp8.h's");
    }
}

struct Case {
    const char* name;
    Fp8Format format;
    Saturation saturation;
};
constexpr Case kCases[] = {{"E4M3/satfinite", Fp8Format::E4M3, Saturation::Finite},
                           {"E4M3/nosat", Fp8Format::E4M3, Saturation::None},
                           {"E5M2/satfinite", Fp8Format::E5M2, Saturation::Finite},
                           {"E5M2/nosat", Fp8Format::E5M2, Saturation::None}};

}  // namespace
}  // namespace fp8dash::gpu

int main(int argc, char** argv) {
    using namespace fp8dash::gpu;
    for (const Case& c : kCases) {
        const std::string name = c.name;
        benchmark::RegisterBenchmark(("BM_Encode/" + name + "/fp8dash").c_str(), encode, c.format, c.saturation,
                                     Impl::Fp8dash);
        benchmark::RegisterBenchmark(("BM_Encode/" + name + "/fp8dash-baseline").c_str(), encode, c.format,
                                     c.saturation, Impl::Fp8dashBaseline);
        benchmark::RegisterBenchmark(("BM_Encode/" + name + "/cuda_fp8.h").c_str(), encode, c.format, c.saturation,
                                     Impl::Toolkit);
    }
    for (const auto& [name, format] : {std::pair{"E4M3", Fp8Format::E4M3}, std::pair{"E5M2", Fp8Format::E5M2}}) {
        benchmark::RegisterBenchmark((std::string("BM_Decode/") + name + "/fp8dash").c_str(), decode, format,
                                     Impl::Fp8dash);
        benchmark::RegisterBenchmark((std::string("BM_Decode/") + name + "/cuda_fp8.h").c_str(), decode, format,
                                     Impl::Toolkit);
    }
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
