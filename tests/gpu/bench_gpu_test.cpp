// The CUDA microbenchmarks on a real GPU (label `gpu`): cuBLASLt GEMM against an FP32-accumulate CPU reference in
// double, the GPU KV quantiser against the CPU codec bit for bit, the bandwidth kernels and the report's JSON.
// Every test skips with the device query's reason where no device is usable (or the build has no CUDA).
#include "fp8dash/gpu/bench.h"
#include "fp8dash/gpu/device_query.h"
#include "fp8dash/gpu/fp4_codec.h"
#include "fp8dash/gpu/fp8_codec.h"
#include "fp8dash/gpu/kv_quant.h"

#ifdef FP8DASH_WITH_CUDA
#include "cuda_bench.h"
#endif

#include "json_check.h"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

namespace fp8dash::gpu {
namespace {

// The reason to skip, or "" when testDevice() is usable (and, with needFp8, has FP8 tensor cores).
std::string skipReason(bool needFp8 = false) {
    if (!builtWithCuda()) return "this build has no CUDA implementation (configured without the CUDA toolkit)";
    const DeviceReport report = makeDeviceQuery()->query();
    if (!report.hasUsableDevice())
        return "no usable GPU (" + std::string(unavailableName(report.unavailable)) + "): " + report.reason;
    const DeviceInfo& device = report.devices.front();
    if (needFp8 && !device.fp8Supported)
        return device.name + " (compute capability " + std::to_string(device.computeMajor) + "." +
               std::to_string(device.computeMinor) + ") has no FP8 tensor cores";
    return {};
}

#define FP8DASH_REQUIRE_GPU(needFp8)                                                        \
    do {                                                                                    \
        if (const std::string why = skipReason(needFp8); !why.empty()) GTEST_SKIP() << why; \
    } while (false)

#ifdef FP8DASH_WITH_CUDA

// The CUDA ordinal of the first usable device (not position 0 of the list: the listing skips devices it cannot
// query, so the first listed device need not be device 0). -1 without one.
int testDevice() {
    const DeviceReport report = makeDeviceQuery()->query();
    return report.hasUsableDevice() ? report.devices.front().index : -1;
}

// Quick sampling: these tests check results, not speed.
MeasureOptions quickMeasure() {
    MeasureOptions m;
    m.warmupRuns = 1;
    m.minSamples = 3;
    m.maxSamples = 20;
    m.maxSecondsPerCase = 0.3;
    return m;
}

// y (m x n) against scale * x . w^T computed in double; each element within relTol of its reference plus absTol of
// the sum of |products| (the rounding of an FP32 accumulation, whatever order cuBLASLt sums in).
void expectGemmClose(const GemmOnceOutput& out, const GemmShape& shape, double scale, double relTol, double absTol) {
    ASSERT_TRUE(out.error.empty()) << out.error;
    ASSERT_EQ(out.x.size(), static_cast<std::size_t>(shape.m) * shape.k);
    ASSERT_EQ(out.w.size(), static_cast<std::size_t>(shape.n) * shape.k);
    ASSERT_EQ(out.y.size(), static_cast<std::size_t>(shape.m) * shape.n);
    int failures = 0;
    double nonZero = 0;
    for (int i = 0; i < shape.m; ++i) {
        for (int j = 0; j < shape.n; ++j) {
            double sum = 0;
            double magnitude = 0;
            for (int kk = 0; kk < shape.k; ++kk) {
                const double p = static_cast<double>(out.x[static_cast<std::size_t>(i) * shape.k + kk]) *
                                 static_cast<double>(out.w[static_cast<std::size_t>(j) * shape.k + kk]);
                sum += p;
                magnitude += std::fabs(p);
            }
            const double reference = scale * sum;
            const double got = out.y[static_cast<std::size_t>(i) * shape.n + j];
            const double tolerance = relTol * std::fabs(reference) + absTol * std::fabs(scale) * magnitude;
            if (!(std::fabs(got - reference) <= tolerance) && ++failures <= 5)
                ADD_FAILURE() << "y[" << i << "][" << j << "] = " << got << ", reference " << reference
                              << " (tolerance " << tolerance << ")";
            nonZero += reference != 0 ? 1 : 0;
        }
    }
    EXPECT_EQ(failures, 0);
    EXPECT_GT(nonZero, 0.9 * shape.m * shape.n);  // the inputs are not degenerate
}

TEST(CudaGemmOnDevice, Bf16MatchesCpuReference) {
    FP8DASH_REQUIRE_GPU(false);
    const GemmShape shape{"test", 64, 128, 256};
    const GemmOnceOutput out = runGemmOnce(testDevice(), shape, GemmPrecision::Bf16, false, 1.0f, 1.0f, 5);
    // BF16 inputs in [-1, 1); products are exact in FP32, the output's BF16 rounding is 2^-9 relative.
    for (float v : out.x) ASSERT_TRUE(v >= -1.0f && v < 1.0f) << v;
    expectGemmClose(out, shape, 1.0, 1e-2, 1e-4);
}

TEST(CudaGemmOnDevice, Fp8MatchesCpuReferenceWithScales) {
    FP8DASH_REQUIRE_GPU(true);
    const GemmShape shape{"test", 64, 128, 256};
    // Powers of two: the scales are exact, so what is left is the accumulation and the BF16 output (2^-9). Hopper's
    // FP8 tensor cores keep only ~14 bits while they sum one k-chunk before cuBLASLt promotes it to FP32 (DeepSeek-V3
    // report, section 3.3.2), hence 2^-10 of the sum of |products|: still ~60x below what a wrong layout gives
    // (a different dot product: ~sum|p| / sqrt(k)).
    const GemmOnceOutput out = runGemmOnce(testDevice(), shape, GemmPrecision::Fp8E4m3, false, 0.5f, 4.0f, 9);
    for (float v : out.w) {
        ASSERT_FALSE(std::isnan(v));
        ASSERT_LE(std::fabs(v), 1.0f);
        // Every input is an E4M3 value: it survives a round trip through the codec.
        ASSERT_EQ(decodeFp8(encodeFp8(v, Fp8Format::E4M3, Saturation::None), Fp8Format::E4M3), v);
    }
    expectGemmClose(out, shape, 2.0, std::ldexp(1.0, -8), std::ldexp(1.0, -10));
}

TEST(CudaGemmOnDevice, Fp8FastAccumulationStaysClose) {
    FP8DASH_REQUIRE_GPU(true);
    const GemmShape shape{"test", 64, 128, 256};
    const GemmOnceOutput out = runGemmOnce(testDevice(), shape, GemmPrecision::Fp8E4m3, true, 1.0f, 1.0f, 13);
    // No promotion at all: ~14-bit sums over the whole k = 256, bounded by 256 x 2^-14 = 2^-6 of sum|p| at worst.
    expectGemmClose(out, shape, 1.0, std::ldexp(1.0, -8), std::ldexp(1.0, -6));
}

TEST(CudaGemmOnDevice, Fp8RejectsKNotMultipleOf16) {
    if (!builtWithCuda()) GTEST_SKIP() << "this build has no CUDA implementation";
    // Checked before the device is touched, so it runs without a GPU too.
    const GemmOnceOutput out =
        runGemmOnce(testDevice(), GemmShape{"odd", 64, 128, 100}, GemmPrecision::Fp8E4m3, false, 1, 1, 1);
    EXPECT_NE(out.error.find("multiple of 16"), std::string::npos) << out.error;
    EXPECT_NE(out.error.find("K=100"), std::string::npos) << out.error;
}

// A cache holding every finite BF16 value (and the infinities) once per tensor, so the quantiser meets every input
// the real cache can hold: zeros, subnormals, the saturation edge at 464 and beyond.
KvCache everyBf16Cache() {
    KvCache cache;
    cache.shape = KvShape{1, 2, 256, 128};  // 2 heads x 128 tokens x 256 = 65536 values per tensor
    cache.keys.resize(cache.shape.elementsPerTensor());
    cache.values.resize(cache.shape.elementsPerTensor());
    for (std::uint32_t i = 0; i < 65536; ++i) {
        float v = std::bit_cast<float>(i << 16);
        if (std::isnan(v))
            v = 0.0f;  // no NaN in a cache: x / scale keeps NaN, and NaN's code is not part of the contract
        cache.keys[i] = v;
        cache.values[65535 - i] = v;
    }
    return cache;
}

TEST(CudaKvQuantizerOnDevice, EveryBf16ValueMatchesCpuBitForBit) {
    FP8DASH_REQUIRE_GPU(false);
    const KvCache cache = everyBf16Cache();
    const KvQuantizer quantizer = makeCudaKvQuantizer(testDevice());
    // 1.0 (a raw cast), a scale that makes x / scale inexact, and a tiny one that pushes most values to saturation.
    for (const float scale : {1.0f, 0.37f, 3.0e-3f}) {
        SCOPED_TRACE(scale);
        KvScales scales;
        scales.scaling = KvScaling::PerHead;
        scales.kvHeads = 2;
        scales.key = {scale, scale * 2};
        scales.value = {scale / 3, scale};
        for (const int tokens : {128, 77}) {
            SCOPED_TRACE(tokens);
            const QuantizedKv gpu = quantizer(cache, scales, tokens);
            const QuantizedKv cpu = quantizeKv(cache, scales, tokens);
            EXPECT_EQ(gpu.shape.tokens, tokens);
            EXPECT_TRUE(gpu.keys == cpu.keys);
            EXPECT_TRUE(gpu.values == cpu.values);
        }
    }
}

TEST(CudaKvQuantizerOnDevice, GeneratedCacheMatchesCpuForEveryScaling) {
    FP8DASH_REQUIRE_GPU(false);
    const KvCache cache = generateKvCache(KvShape{3, 2, 64, 512}, 3);
    const KvQuantizer quantizer = makeCudaKvQuantizer(testDevice());
    for (const KvScaling scaling : {KvScaling::None, KvScaling::PerTensor, KvScaling::PerHead}) {
        SCOPED_TRACE(kvScalingName(scaling));
        const KvScales scales = computeKvScales(cache, scaling, 128);
        for (const int tokens : {512, 300, 1}) {
            const QuantizedKv gpu = quantizer(cache, scales, tokens);
            const QuantizedKv cpu = quantizeKv(cache, scales, tokens);
            ASSERT_EQ(gpu.keys.size(), cpu.keys.size());
            EXPECT_TRUE(gpu.keys == cpu.keys) << tokens << " tokens";
            EXPECT_TRUE(gpu.values == cpu.values) << tokens << " tokens";
        }
    }
    EXPECT_THROW(quantizer(cache, computeKvScales(cache, KvScaling::None, 1), 513), std::invalid_argument);
}

TEST(CudaBenchOnDevice, KvSectionMatchesTheCpuSweep) {
    FP8DASH_REQUIRE_GPU(false);
    BenchRequest request;
    request.deviceIndex = testDevice();
    request.gemm = false;
    request.bandwidth = false;
    request.kvSweep.shape = KvShape{2, 2, 64, 1};
    request.kvSweep.contexts = {64, 256};
    request.measure = quickMeasure();
    const BenchReport report = makeCudaBenchRunner()->run(request, {});
    EXPECT_EQ(report.backend, "cuda");
    EXPECT_EQ(report.kvBackend, "cuda");
    ASSERT_TRUE(report.kvSkipped.empty()) << report.kvSkipped;

    // The quantise kernel: one row per scaling, codes equal to the CPU codec's.
    ASSERT_EQ(report.kvKernel.size(), 3u);
    for (const KvKernelResult& row : report.kvKernel) {
        SCOPED_TRACE(kvScalingName(row.scaling));
        EXPECT_TRUE(row.skipped.empty()) << row.skipped;
        EXPECT_TRUE(row.matchesCpu);
        EXPECT_GT(row.elements, 0u);
        EXPECT_GT(row.bytesPerSecond, 0);
        EXPECT_GT(row.stats.samples, 0);
    }

    // The error sweep with GPU codes equals the CPU sweep of the same configuration, metric for metric.
    KvSweepConfig cpuConfig = request.kvSweep;
    const KvSweepResult cpu = runKvQuantSweep(cpuConfig);
    ASSERT_EQ(report.kv.size(), cpu.results.size());
    for (std::size_t i = 0; i < cpu.results.size(); ++i) {
        SCOPED_TRACE(i);
        EXPECT_EQ(report.kv[i].scaling, cpu.results[i].scaling);
        EXPECT_EQ(report.kv[i].context, cpu.results[i].context);
        EXPECT_DOUBLE_EQ(report.kv[i].key.relRmse, cpu.results[i].key.relRmse);
        EXPECT_DOUBLE_EQ(report.kv[i].value.maxAbsError, cpu.results[i].value.maxAbsError);
        EXPECT_DOUBLE_EQ(report.kv[i].attnOutRelRmse, cpu.results[i].attnOutRelRmse);
        EXPECT_DOUBLE_EQ(report.kv[i].attnWeightTvd, cpu.results[i].attnWeightTvd);
        EXPECT_EQ(report.kv[i].keySaturated, cpu.results[i].keySaturated);
        EXPECT_EQ(report.kv[i].valueSaturated, cpu.results[i].valueSaturated);
        EXPECT_EQ(report.kv[i].scales.key, cpu.results[i].scales.key);
    }
}

TEST(CudaBenchOnDevice, BandwidthKernelsMeasureAndTheJsonParses) {
    FP8DASH_REQUIRE_GPU(false);
    BenchRequest request;
    request.deviceIndex = testDevice();
    request.gemm = false;
    request.kv = false;
    request.bandwidthBytes = 64ull << 20;
    request.measure = quickMeasure();
    const BenchReport report = makeCudaBenchRunner()->run(request, {});
    ASSERT_TRUE(report.bandwidthSkipped.empty()) << report.bandwidthSkipped;
    ASSERT_EQ(report.bandwidth.size(), 2u);
    EXPECT_EQ(report.bandwidth[0].kernel, "read");
    EXPECT_EQ(report.bandwidth[0].bytes, 64ull << 20);
    EXPECT_EQ(report.bandwidth[1].kernel, "copy");
    EXPECT_EQ(report.bandwidth[1].bytes, 128ull << 20);
    for (const BandwidthResult& row : report.bandwidth) {
        SCOPED_TRACE(row.kernel);
        EXPECT_TRUE(row.skipped.empty()) << row.skipped;
        EXPECT_GT(row.stats.samples, 0);
        // Positive, and below any memory system there is (no GPU moves 100 TB/s).
        EXPECT_GT(row.bytesPerSecond, 1e9);
        EXPECT_LT(row.bytesPerSecond, 100e12);
        EXPECT_NEAR(row.bytesPerSecond, static_cast<double>(row.bytes) / row.stats.medianSeconds,
                    1e-9 * row.bytesPerSecond);
    }

    const std::string json = benchReportToJson(report);
    test::JsonReader reader;
    const auto document = reader.parse(json);
    ASSERT_TRUE(document) << reader.error() << "\n" << json;
    ASSERT_EQ(document->kind, test::JsonValue::Kind::Object);
    const test::JsonValue* backend = document->find("backend");
    ASSERT_NE(backend, nullptr);
    EXPECT_EQ(backend->string, "cuda");
    const test::JsonValue* bandwidth = document->find("bandwidth");
    ASSERT_NE(bandwidth, nullptr);
    ASSERT_EQ(bandwidth->kind, test::JsonValue::Kind::Array);
    EXPECT_EQ(bandwidth->items.size(), 2u);
}

TEST(CudaBenchOnDevice, GemmRowsForAGoodAndAMisalignedShape) {
    FP8DASH_REQUIRE_GPU(true);
    BenchRequest request;
    request.deviceIndex = testDevice();
    request.bandwidth = false;
    request.kv = false;
    request.gemmShapes = {GemmShape{"test", 256, 512, 1024}, GemmShape{"odd", 64, 128, 100}};
    request.fp8FastAccum = true;
    request.measure = quickMeasure();
    std::vector<double> fractions;
    const BenchReport report = makeCudaBenchRunner()->run(request, [&](double fraction, const std::string&) {
        fractions.push_back(fraction);
        return true;
    });
    ASSERT_TRUE(report.gemmSkipped.empty()) << report.gemmSkipped;
    ASSERT_EQ(report.gemm.size(), 6u);  // bf16, fp8, fp8 fast for each shape
    for (std::size_t i = 0; i < 3; ++i) {
        const GemmResult& row = report.gemm[i];
        SCOPED_TRACE(std::string(gemmPrecisionName(row.precision)) + (row.fastAccum ? " fast" : ""));
        EXPECT_TRUE(row.skipped.empty()) << row.skipped;
        EXPECT_GE(row.algorithmsTried, 1);
        EXPECT_GT(row.stats.samples, 0);
        EXPECT_NEAR(row.tflops, 2.0 * 256 * 512 * 1024 / row.stats.medianSeconds / 1e12, 1e-9 * row.tflops);
        if (row.precision == GemmPrecision::Fp8E4m3) {
            ASSERT_GT(report.gemm[0].stats.medianSeconds, 0);
            EXPECT_DOUBLE_EQ(row.speedupVsBf16, report.gemm[0].stats.medianSeconds / row.stats.medianSeconds);
        }
    }
    EXPECT_TRUE(report.gemm[3].skipped.empty()) << report.gemm[3].skipped;  // BF16 has no 16-byte rule
    EXPECT_NE(report.gemm[4].skipped.find("multiple of 16"), std::string::npos) << report.gemm[4].skipped;
    EXPECT_NE(report.gemm[5].skipped.find("multiple of 16"), std::string::npos) << report.gemm[5].skipped;
    ASSERT_FALSE(fractions.empty());
    EXPECT_DOUBLE_EQ(fractions.back(), 1.0);
    for (std::size_t i = 1; i < fractions.size(); ++i) EXPECT_GE(fractions[i], fractions[i - 1]);
}

TEST(CudaBenchOnDevice, CancelStopsAtTheFirstCase) {
    FP8DASH_REQUIRE_GPU(false);
    BenchRequest request;
    request.deviceIndex = testDevice();
    request.gemmShapes = {GemmShape{"test", 64, 128, 256}, GemmShape{"test", 128, 128, 256}};
    request.measure = quickMeasure();
    int calls = 0;
    const BenchReport report = makeCudaBenchRunner()->run(request, [&](double, const std::string&) {
        ++calls;
        return false;
    });
    EXPECT_TRUE(report.cancelled);
    EXPECT_EQ(calls, 1);
    EXPECT_LE(report.gemm.size(), 1u);
    EXPECT_TRUE(report.bandwidth.empty());
    EXPECT_TRUE(report.kv.empty());
}

// FP4 (issue 41): the reason to skip, or "" when the test device has FP4 tensor cores.
std::string fp4SkipReason() {
    if (const std::string why = skipReason(true); !why.empty()) return why;
    const DeviceInfo device = makeDeviceQuery()->query().devices.front();
    if (!hasFp4TensorCores(device.computeMajor, device.computeMinor))
        return device.name + " (compute capability " + std::to_string(device.computeMajor) + "." +
               std::to_string(device.computeMinor) + ") has no FP4 tensor cores (Blackwell, 10.0 or newer)";
    return {};
}

TEST(CudaGemmOnDevice, Nvfp4AndMxfp4MatchCpuReference) {
    if (const std::string why = fp4SkipReason(); !why.empty()) GTEST_SKIP() << why;
    const GemmShape shape{"test", 64, 128, 256};
    for (GemmPrecision precision : {GemmPrecision::Nvfp4, GemmPrecision::Mxfp4}) {
        SCOPED_TRACE(gemmPrecisionName(precision));
        const GemmOnceOutput out = runGemmOnce(testDevice(), shape, precision, false, 1.0f, 1.0f, 17);
        ASSERT_TRUE(out.error.empty()) << out.error;
        // Every input is an E2M1 value (block scales 1): it survives a round trip through the codec.
        for (float v : out.w) ASSERT_EQ(decodeE2M1(encodeE2M1(v)), v);
        // E2M1 x E2M1 products are exact in FP32 (at most 36, quarter steps); what is left is the BF16 output (2^-9)
        // and the accumulation order.
        expectGemmClose(out, shape, 1.0, std::ldexp(1.0, -8), std::ldexp(1.0, -10));
    }
}

// FP4 rows in the runner: measured on a GPU with FP4 tensor cores (MXFP4 may be refused by cuBLASLt on some parts:
// then it says so), skipped with kFp4NeedsTensorCores elsewhere; runGemmOnce refuses the same way.
TEST(CudaGemmOnDevice, Fp4RowsRunOrSayWhy) {
    FP8DASH_REQUIRE_GPU(false);
    const bool fp4 = fp4SkipReason().empty();
    BenchRequest request;
    request.deviceIndex = testDevice();
    request.bandwidth = false;
    request.kv = false;
    request.fp4 = true;
    request.gemmShapes = {GemmShape{"test", 256, 512, 1024}};
    request.measure = quickMeasure();
    const BenchReport report = makeCudaBenchRunner()->run(request, {});
    ASSERT_EQ(report.gemm.size(), 4u);  // bf16, fp8, nvfp4, mxfp4
    EXPECT_EQ(report.gemm[2].precision, GemmPrecision::Nvfp4);
    EXPECT_EQ(report.gemm[3].precision, GemmPrecision::Mxfp4);
    for (std::size_t i = 2; i < 4; ++i) {
        const GemmResult& row = report.gemm[i];
        SCOPED_TRACE(gemmPrecisionName(row.precision));
        if (!fp4) {
            EXPECT_EQ(row.skipped.rfind(kFp4NeedsTensorCores, 0), 0u) << row.skipped;
        } else if (row.precision == GemmPrecision::Nvfp4 || row.skipped.empty()) {
            EXPECT_TRUE(row.skipped.empty()) << row.skipped;
            EXPECT_GT(row.tflops, 0);
            EXPECT_GT(row.speedupVsBf16, 0);
        } else {
            EXPECT_NE(row.skipped.find("cuBLASLt"), std::string::npos) << row.skipped;
        }
    }
    if (!fp4) {
        const GemmOnceOutput out =
            runGemmOnce(testDevice(), GemmShape{"test", 64, 128, 256}, GemmPrecision::Nvfp4, false, 1, 1, 1);
        EXPECT_NE(out.error.find(kFp4NeedsTensorCores), std::string::npos) << out.error;
    }
}

#else  // no CUDA in this build: one test that says so

TEST(CudaBenchOnDevice, NeedsACudaBuild) {
    GTEST_SKIP() << skipReason();
}

#endif

}  // namespace
}  // namespace fp8dash::gpu
