// The software E2M1 encoder against cuda_fp4.h's host conversion (__nv_cvt_float_to_fp4, __NV_E2M1) for every one of
// the 2^32 float bit patterns, rounding to nearest even (what quantisers and the hardware use); rounding toward zero
// checks every 61st pattern (a prime: every sign, exponent and low-mantissa residue occurs) unless
// FP8DASH_FULL_SWEEP=1. Sanitizer and -O0 builds take the stride for both. Split over all hardware threads. Skipped
// with the reason where the toolkit header was not found at configure time (fp4_codec_test.cpp still checks hand
// values).
#include "fp8dash/gpu/fp4_codec.h"

#include "fp4_codec_reference.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <iomanip>
#include <iostream>
#include <mutex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace fp8dash::gpu {
namespace {

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__) || !defined(__OPTIMIZE__)
constexpr bool kFp4InstrumentedBuild = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || __has_feature(undefined_behavior_sanitizer)
constexpr bool kFp4InstrumentedBuild = true;
#else
constexpr bool kFp4InstrumentedBuild = false;
#endif
#else
constexpr bool kFp4InstrumentedBuild = false;
#endif

constexpr std::uint64_t kFp4AllPatterns = std::uint64_t{1} << 32;
constexpr std::size_t kFp4Block = std::size_t{1} << 16;
constexpr std::size_t kFp4ExamplesKept = 8;

struct Fp4Sweep {
    Fp4Rounding rounding;
    const char* name;
};

void PrintTo(const Fp4Sweep& sweep, std::ostream* os) {
    *os << sweep.name;
}

std::uint64_t fp4PatternStep(const Fp4Sweep& sweep) {
    const char* force = std::getenv("FP8DASH_FULL_SWEEP");
    if (force != nullptr && std::string(force) == "1") return 1;
    return kFp4InstrumentedBuild || sweep.rounding != Fp4Rounding::NearestEven ? 61 : 1;
}

class Fp4CodecExhaustive : public ::testing::TestWithParam<Fp4Sweep> {};

TEST_P(Fp4CodecExhaustive, EveryFloatEncodesLikeTheToolkit) {
    if (!reference::fp4Available()) GTEST_SKIP() << reference::fp4UnavailableReason();
    const Fp4Sweep sweep = GetParam();
    const unsigned threadCount = std::max(1u, std::thread::hardware_concurrency());
    const std::uint64_t step = fp4PatternStep(sweep);
    const std::uint64_t patternCount = (kFp4AllPatterns + step - 1) / step;

    std::atomic<std::uint64_t> nextBlock{0};
    std::atomic<std::uint64_t> mismatchCount{0};
    std::mutex examplesMutex;
    std::vector<std::uint32_t> examples;  // bit patterns of the first mismatches

    auto worker = [&] {
        std::vector<float> input(kFp4Block);
        std::vector<std::uint8_t> expected(kFp4Block);
        for (;;) {
            const std::uint64_t first = nextBlock.fetch_add(1) * kFp4Block;
            if (first >= patternCount) return;
            const auto n = static_cast<std::size_t>(std::min<std::uint64_t>(kFp4Block, patternCount - first));
            for (std::size_t j = 0; j < n; ++j)
                input[j] = std::bit_cast<float>(static_cast<std::uint32_t>((first + j) * step));
            reference::encodeE2M1(input.data(), expected.data(), n, sweep.rounding);
            std::vector<std::uint32_t> found;
            std::uint64_t count = 0;
            for (std::size_t j = 0; j < n; ++j) {
                if (encodeE2M1(input[j], sweep.rounding) == expected[j]) continue;
                ++count;
                if (found.size() < kFp4ExamplesKept) found.push_back(std::bit_cast<std::uint32_t>(input[j]));
            }
            if (count == 0) continue;
            mismatchCount += count;
            const std::lock_guard lock(examplesMutex);
            examples.insert(examples.end(), found.begin(), found.end());
            std::sort(examples.begin(), examples.end());
            if (examples.size() > kFp4ExamplesKept) examples.resize(kFp4ExamplesKept);
        }
    };

    const auto start = std::chrono::steady_clock::now();
    std::vector<std::thread> threads;
    for (unsigned t = 0; t < threadCount; ++t) threads.emplace_back(worker);
    for (std::thread& t : threads) t.join();
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

    const std::string coverage =
        step == 1 ? std::string("all 2^32 floats")
                  : "one float in " + std::to_string(step) + " (" + std::to_string(patternCount) + " patterns)";
    std::cout << "[ sweep    ] E2M1 " << sweep.name << ": " << coverage << " vs " << reference::fp4HeaderPath() << ", "
              << threadCount << " threads, " << std::fixed << std::setprecision(2) << seconds << " s, "
              << mismatchCount.load() << " mismatches\n";
    RecordProperty("seconds", std::to_string(seconds));
    RecordProperty("patterns", std::to_string(patternCount));

    std::ostringstream firstFew;
    for (std::uint32_t bits : examples)
        firstFew << "\n  float bits 0x" << std::hex << std::setw(8) << std::setfill('0') << bits << " ("
                 << std::defaultfloat << std::bit_cast<float>(bits) << "): cuda_fp4.h 0x"
                 << int(reference::encodeE2M1(std::bit_cast<float>(bits), sweep.rounding)) << ", codec 0x"
                 << int(encodeE2M1(std::bit_cast<float>(bits), sweep.rounding)) << std::dec;
    EXPECT_EQ(mismatchCount.load(), 0u) << "first mismatches (lowest bit patterns):" << firstFew.str();
}

INSTANTIATE_TEST_SUITE_P(AllFloats, Fp4CodecExhaustive,
                         ::testing::Values(Fp4Sweep{Fp4Rounding::NearestEven, "nearest_even"},
                                           Fp4Sweep{Fp4Rounding::TowardZero, "toward_zero"}),
                         [](const ::testing::TestParamInfo<Fp4Sweep>& param) { return std::string(param.param.name); });

}  // namespace
}  // namespace fp8dash::gpu
