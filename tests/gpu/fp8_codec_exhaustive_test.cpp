// The software FP8 codec against cuda_fp8.h's host conversion (__nv_cvt_float_to_fp8) for every one of the 2^32 float
// bit patterns, in both formats and both saturation modes: four sweeps, each split over all hardware threads. Both
// encoder kernels are checked: the one the CPU picks and, when that is AVX2, the baseline one too. Skipped with the
// reason where the toolkit header was not found at configure time (fp8_codec_test.cpp still checks hand values).
// Sanitizer and -O0 builds check a strided subset instead (see patternStep); optimised builds, CI's included, do all
// of E4M3 satfinite (the conversion fp8dash measures with) and the strided subset of the other three;
// FP8DASH_FULL_SWEEP=1 does all of all four.
#include "fp8dash/gpu/fp8_codec.h"

#include "fp8_codec_reference.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <iomanip>
#include <iostream>
#include <mutex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace fp8dash::gpu {
namespace {

struct Sweep {
    Fp8Format format;
    Saturation saturation;
    const char* name;
};

struct Mismatch {
    std::uint32_t bits;
    const char* kernel;
    std::uint8_t expected;
    std::uint8_t actual;
};

// Names the sweep in gtest's messages instead of dumping its bytes.
void PrintTo(const Sweep& sweep, std::ostream* os) {
    *os << sweep.name;
}

constexpr std::uint64_t kAllPatterns = std::uint64_t{1} << 32;
constexpr std::size_t kBlock = std::size_t{1} << 16;  // 64 Ki floats per work item: 65536 items per full sweep
constexpr std::size_t kExamplesKept = 8;

// Sanitizer and unoptimised builds run ~20x slower and would pass the test timeout; they check every 61st pattern
// (a prime, so every sign, exponent and low-mantissa residue still occurs), enough for ASan/UBSan to see every path.
// Optimised builds (the CI preset, RelWithDebInfo) always sweep all 2^32; FP8DASH_FULL_SWEEP=1 forces it anywhere.
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__) || !defined(__OPTIMIZE__)
constexpr bool kInstrumentedBuild = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || __has_feature(undefined_behavior_sanitizer)
constexpr bool kInstrumentedBuild = true;
#else
constexpr bool kInstrumentedBuild = false;
#endif
#else
constexpr bool kInstrumentedBuild = false;
#endif

// Only E4M3 with saturation to the largest finite value, the conversion fp8dash measures with (the KV cache), sweeps
// every pattern in optimised builds; the other three take the same stride as sanitizer builds. They share the
// encoder's code paths, and their full sweeps were three quarters of the exhaustive suite's time (3 x 50 s of the CI
// suite's 418 s of test time). FP8DASH_FULL_SWEEP=1 sweeps every pattern of all four.
std::uint64_t patternStep(const Sweep& sweep) {
    const char* force = std::getenv("FP8DASH_FULL_SWEEP");
    const bool forced = force != nullptr && std::string(force) == "1";
    if (forced) return 1;
    const bool measured = sweep.format == Fp8Format::E4M3 && sweep.saturation == Saturation::Finite;
    return kInstrumentedBuild || !measured ? 61 : 1;
}

class Fp8CodecExhaustive : public ::testing::TestWithParam<Sweep> {};

TEST_P(Fp8CodecExhaustive, EveryFloatEncodesLikeTheToolkit) {
    if (!reference::available()) GTEST_SKIP() << reference::unavailableReason();
    const Sweep sweep = GetParam();
    const std::string activeKernel = fp8EncodeKernel();
    const bool checkBaselineToo = activeKernel != "baseline";
    const unsigned threadCount = std::max(1u, std::thread::hardware_concurrency());
    const std::uint64_t step = patternStep(sweep);
    const std::uint64_t patternCount = (kAllPatterns + step - 1) / step;  // bit patterns 0, step, 2 * step, ...

    std::atomic<std::uint64_t> nextBlock{0};
    std::atomic<std::uint64_t> mismatchCount{0};
    std::mutex examplesMutex;
    std::vector<Mismatch> examples;

    auto record = [&](const std::vector<Mismatch>& found) {
        const std::lock_guard lock(examplesMutex);
        examples.insert(examples.end(), found.begin(), found.end());
        std::sort(examples.begin(), examples.end(),
                  [](const Mismatch& a, const Mismatch& b) { return a.bits < b.bits; });
        if (examples.size() > kExamplesKept) examples.resize(kExamplesKept);
    };

    auto compare = [&](const float* input, std::size_t n, const std::uint8_t* expected, const std::uint8_t* actual,
                       const char* kernel) {
        if (std::memcmp(expected, actual, n) == 0) return;
        std::vector<Mismatch> found;
        std::uint64_t count = 0;
        for (std::size_t j = 0; j < n; ++j) {
            if (expected[j] == actual[j]) continue;
            ++count;
            if (found.size() < kExamplesKept)
                found.push_back({std::bit_cast<std::uint32_t>(input[j]), kernel, expected[j], actual[j]});
        }
        mismatchCount += count;
        record(found);
    };

    auto worker = [&] {
        std::vector<float> input(kBlock);
        std::vector<std::uint8_t> expected(kBlock), active(kBlock), baseline(kBlock);
        for (;;) {
            const std::uint64_t first = nextBlock.fetch_add(1) * kBlock;  // index of the block's first pattern
            if (first >= patternCount) return;
            const auto n = static_cast<std::size_t>(std::min<std::uint64_t>(kBlock, patternCount - first));
            for (std::size_t j = 0; j < n; ++j)
                input[j] = std::bit_cast<float>(static_cast<std::uint32_t>((first + j) * step));
            reference::encode(input.data(), expected.data(), n, sweep.format, sweep.saturation);
            encodeFp8(input.data(), active.data(), n, sweep.format, sweep.saturation);
            compare(input.data(), n, expected.data(), active.data(), activeKernel.c_str());
            if (checkBaselineToo) {
                encodeFp8Baseline(input.data(), baseline.data(), n, sweep.format, sweep.saturation);
                compare(input.data(), n, expected.data(), baseline.data(), "baseline");
            }
        }
    };

    const auto start = std::chrono::steady_clock::now();
    std::vector<std::thread> threads;
    for (unsigned t = 0; t < threadCount; ++t) threads.emplace_back(worker);
    for (std::thread& t : threads) t.join();
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

    const std::string coverage =
        step == 1 ? std::string("all 2^32 floats")
                  : "one float in " + std::to_string(step) + " (" + std::to_string(patternCount) +
                        " patterns: sanitizer or unoptimised build; FP8DASH_FULL_SWEEP=1 sweeps all 2^32)";
    std::cout << "[ sweep    ] " << sweep.name << ": " << coverage << " vs " << reference::headerPath() << ", kernel "
              << activeKernel << (checkBaselineToo ? " + baseline" : "") << ", " << threadCount << " threads, "
              << std::fixed << std::setprecision(2) << seconds << " s, " << mismatchCount.load()
              << " mismatches (all kernels)\n";
    RecordProperty("seconds", std::to_string(seconds));
    RecordProperty("kernel", activeKernel);
    RecordProperty("patterns", std::to_string(patternCount));
    RecordProperty("reference", reference::headerPath());

    std::ostringstream firstFew;
    for (const Mismatch& m : examples)
        firstFew << "\n  float bits 0x" << std::hex << std::setw(8) << std::setfill('0') << m.bits << " ("
                 << std::defaultfloat << std::bit_cast<float>(m.bits) << "), " << m.kernel << ": cuda_fp8.h 0x"
                 << std::setw(2) << int(m.expected) << ", codec 0x" << std::setw(2) << int(m.actual) << std::dec;
    EXPECT_EQ(mismatchCount.load(), 0u) << "first mismatches (lowest bit patterns):" << firstFew.str();
}

INSTANTIATE_TEST_SUITE_P(AllFloats, Fp8CodecExhaustive,
                         ::testing::Values(Sweep{Fp8Format::E4M3, Saturation::None, "E4M3_nosat"},
                                           Sweep{Fp8Format::E4M3, Saturation::Finite, "E4M3_satfinite"},
                                           Sweep{Fp8Format::E5M2, Saturation::None, "E5M2_nosat"},
                                           Sweep{Fp8Format::E5M2, Saturation::Finite, "E5M2_satfinite"}),
                         [](const ::testing::TestParamInfo<Sweep>& param) { return std::string(param.param.name); });

}  // namespace
}  // namespace fp8dash::gpu
