// The vLLM reader's own `itls` scanner (core/src/serving/vllm_itls_scan.cpp: AVX2 digit columns for "0.<digits>"
// gaps, a scalar reader for every other spelling) and the mapped file the path reader reads big results through
// (mapped_file.cpp). Expected sums are the tokens read with std::strtod and added here in long double; both scanner
// paths are checked against them.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <unistd.h>

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "fp8dash/core/serving_results.h"
#include "serving/mapped_file.h"
#include "serving/vllm_itls_scan.h"
#include "test_paths.h"

namespace fp8dash {
namespace {

namespace fs = std::filesystem;

struct ScanResult {
    std::vector<double> sums;
    std::vector<std::uint32_t> counts;
    std::string error;
    std::size_t consumed = 0;
};

ScanResult scanItls(const std::string& text, bool scalarOnly) {
    detail::vllmItlsScalarOnlyForTests(scalarOnly);
    ScanResult out;
    // The scanner must read nothing past the end: the text is copied into storage of exactly its size.
    std::unique_ptr<char[]> exact(new char[text.size()]);
    std::memcpy(exact.get(), text.data(), text.size());
    try {
        const char* after =
            detail::vllmScanItls(exact.get(), exact.get() + text.size(), out.sums, out.counts, "t.json");
        out.consumed = static_cast<std::size_t>(after - exact.get());
    } catch (const detail::VllmReadFailure& failure) {
        out.error = failure.message;
    }
    detail::vllmItlsScalarOnlyForTests(false);
    return out;
}

// A gap in one of the spellings a file may hold: Python's repr (shortest round trip, exponent below 1e-4), fixed
// with many digits, an integer, a negative value.
std::string spellGap(std::mt19937_64& rng, double& value) {
    std::uniform_int_distribution<int> kind(0, 9);
    std::lognormal_distribution<double> gap(std::log(0.0104), 1.5);
    char buf[64];
    const double x = gap(rng);
    switch (kind(rng)) {
        case 0:  // many digits: 25 after the point (the columns' exact sum), or 31 (past them: the scalar reader)
            std::snprintf(buf, sizeof buf, rng() % 2 ? "%.25f" : "%.31f", x);
            break;
        case 1:
            std::snprintf(buf, sizeof buf, "%d", static_cast<int>(rng() % 3));
            break;
        case 2:
            std::snprintf(buf, sizeof buf, "-%.6f", x);
            break;
        case 3:
            std::snprintf(buf, sizeof buf, "%.3e", x);
            break;
        default: {
            const auto r = std::to_chars(buf, buf + sizeof buf - 1, x);
            *r.ptr = '\0';
        }
    }
    value = std::strtod(buf, nullptr);
    return buf;
}

TEST(ServingItlsScan, EverySpellingSumsLikeStrtodOnBothPaths) {
    std::mt19937_64 rng(4040);
    for (int round = 0; round < 40; ++round) {
        std::string text = "[";
        std::vector<long double> want;
        std::vector<std::uint32_t> wantCounts;
        const int requests = 1 + static_cast<int>(rng() % 30);
        const char* separators[] = {", ", ",", ",\n                ", " , "};
        const char* sep = separators[rng() % 4];
        for (int r = 0; r < requests; ++r) {
            text += r ? std::string(sep) + "[" : "[";
            const int n = static_cast<int>(rng() % 60);  // empty lists too (a failed request)
            long double sum = 0;
            for (int k = 0; k < n; ++k) {
                double v = 0;
                text += (k ? std::string(rng() % 8 ? ", " : sep) : std::string()) + spellGap(rng, v);
                sum += v;
            }
            text += rng() % 5 ? "]" : " ]";
            want.push_back(sum);
            wantCounts.push_back(static_cast<std::uint32_t>(n));
        }
        text += "]";
        for (const bool scalar : {false, true}) {
            SCOPED_TRACE(std::string(scalar ? "scalar" : "avx2") + " round " + std::to_string(round));
            const ScanResult got = scanItls(text, scalar);
            ASSERT_EQ(got.error, "");
            EXPECT_EQ(got.consumed, text.size());
            ASSERT_EQ(got.sums.size(), want.size());
            EXPECT_EQ(got.counts, wantCounts);
            for (std::size_t r = 0; r < want.size(); ++r)
                EXPECT_NEAR(got.sums[r], static_cast<double>(want[r]), 1e-12 * (1 + std::fabs(double(want[r]))))
                    << "request " << r;
        }
    }
}

// 20,000 gaps of 0.999999999 in one request: the 16-bit column counters are emptied before they overflow.
TEST(ServingItlsScan, LongRequestKeepsItsColumnsExact) {
    std::string text = "[[";
    for (int k = 0; k < 20000; ++k) text += k ? ", 0.999999999" : "0.999999999";
    text += "], [0.5]]";
    for (const bool scalar : {false, true}) {
        const ScanResult got = scanItls(text, scalar);
        ASSERT_EQ(got.error, "");
        ASSERT_EQ(got.sums.size(), 2u);
        EXPECT_EQ(got.counts[0], 20000u);
        EXPECT_NEAR(got.sums[0], 19999.99998, 19999.99998 * 1e-12);  // the scalar path adds doubles
        EXPECT_EQ(got.sums[1], 0.5);
    }
}

TEST(ServingItlsScan, BadGapsNameTheRequest) {
    const std::string pad(40, ' ');  // far from the end: the AVX2 path sees them
    for (const std::string& bad : {"[[0.1, 0.2], [0.3 0.4]]" + pad, "[[0.1], [0..4]]" + pad, "[[0.1], [0.4e]]" + pad,
                                   "[[0.1], [0.5, \"x\"]]" + pad, "[[0.1], [0.5,]]" + pad, "[[0.1], 0.5]" + pad}) {
        for (const bool scalar : {false, true}) {
            const ScanResult got = scanItls(bad, scalar);
            EXPECT_EQ(got.error, "t.json: itls[1] is not a list of numbers (chunk gaps in seconds)") << bad;
        }
    }
    // The outer list left open: the request after the last is named.
    EXPECT_EQ(scanItls("[[0.1], [0.5]" + pad, false).error,
              "t.json: itls[2] is not a list of numbers (chunk gaps in seconds)");
    EXPECT_EQ(scanItls("{}", false).error, "t.json: \"itls\" is not a list");
}

// A big result read through the path reader (mapped, above 16 MiB) gives what the text reader gives.
TEST(ServingItlsScan, MappedBigFileReadsLikeTheText) {
    const test::TempDir dir;
    const fs::path file = dir.path() / "big.json";
    std::string ttfts, outs, itls;
    std::mt19937_64 rng(16);
    std::vector<long double> e2el;
    for (int i = 0; i < 2500; ++i) {
        long double sum = 0;
        std::string gaps;
        for (int k = 0; k < 400; ++k) {
            double v = 0;
            gaps += (k ? ", " : "") + spellGap(rng, v);
            sum += v;
        }
        ttfts += (i ? ", " : "") + std::string("0.25");
        outs += (i ? ", " : "") + std::string("401");
        itls += (i ? ", [" : "[") + gaps + "]";
        e2el.push_back((0.25L + sum) * 1000);
    }
    const std::string text = R"({"completed": 2500, "request_throughput": 2.0, "max_concurrency": 16, "ttfts": [)" +
                             ttfts + R"(], "output_lens": [)" + outs + R"(], "itls": [)" + itls + "]}";
    ASSERT_GT(text.size(), std::size_t{16} << 20);
    std::ofstream(file, std::ios::binary) << text;
    auto fromPath = readServingPath(file);
    ASSERT_TRUE(fromPath.ok()) << fromPath.error().message;
    auto fromText = parseVllmBenchText(text, file.string());
    ASSERT_TRUE(fromText.ok()) << fromText.error().message;
    const ServingRequests& a = fromPath->front().requests;
    ASSERT_EQ(a.size(), 2500u);
    EXPECT_EQ(a.e2elMs, fromText->front().requests.e2elMs);
    for (std::size_t i = 0; i < a.size(); i += 251) EXPECT_FLOAT_EQ(a.e2elMs[i], static_cast<float>(e2el[i]));
}

// A mapped file cut short while it is read: the bytes past its new end read as zeros, never SIGBUS, and the mapping
// says so.
TEST(ServingItlsScan, MappedFileCutShortReadsZerosAndSaysSo) {
    const test::TempDir dir;
    const fs::path file = dir.path() / "cut.json";
    const std::size_t size = std::size_t{20} << 20;
    std::ofstream(file, std::ios::binary) << std::string(size, 'x');
    const int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
    ASSERT_GE(fd, 0);
    auto mapped = detail::MappedFile::map(fd, size);
    ::close(fd);
    ASSERT_TRUE(mapped.has_value());
    EXPECT_EQ(mapped->data()[size - 1], 'x');
    EXPECT_FALSE(mapped->cutShort());
    fs::resize_file(file, 4096);  // what Python's open(path, "w") and a new json.dump do to it
    volatile const char* bytes = mapped->data();
    EXPECT_EQ(bytes[100], 'x');
    EXPECT_EQ(bytes[size / 2], '\0');
    EXPECT_EQ(bytes[size - 1], '\0');
    EXPECT_TRUE(mapped->cutShort());
}

}  // namespace
}  // namespace fp8dash
