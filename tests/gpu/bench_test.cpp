// The plain C++ half of the microbenchmarks: sample statistics and the stopping rule against hand-computed numbers,
// the roofline by hand, the CPU runner against a direct run of the KV sweep, the one worker thread, and the JSON
// writer read back with nlohmann (an independent parser).
#include "fp8dash/gpu/bench.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <cmath>
#include <limits>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

namespace fp8dash::gpu {
namespace {

TEST(BenchStats, MedianMeanAndNoiseByHand) {
    // {4, 1, 3, 2}: sorted 1 2 3 4, median (2 + 3) / 2 = 2.5, mean 2.5; squared deviations 2.25 + 0.25 + 0.25 + 2.25
    // = 5, / (n - 1) = 5/3, sd = 1.290994..., / mean = 0.516397...
    const std::vector<double> even{4, 1, 3, 2};
    const SampleStats s = summarizeSamples(even);
    EXPECT_EQ(s.samples, 4);
    EXPECT_DOUBLE_EQ(s.medianSeconds, 2.5);
    EXPECT_DOUBLE_EQ(s.meanSeconds, 2.5);
    EXPECT_DOUBLE_EQ(s.minSeconds, 1);
    EXPECT_DOUBLE_EQ(s.maxSeconds, 4);
    EXPECT_NEAR(s.relStdDev, std::sqrt(5.0 / 3.0) / 2.5, 1e-15);

    // Odd: the middle one. {3, 10, 2}: median 3, mean 5, deviations 4 + 25 + 9 = 38, / 2 = 19.
    const std::vector<double> odd{3, 10, 2};
    const SampleStats o = summarizeSamples(odd);
    EXPECT_DOUBLE_EQ(o.medianSeconds, 3);
    EXPECT_DOUBLE_EQ(o.meanSeconds, 5);
    EXPECT_NEAR(o.relStdDev, std::sqrt(19.0) / 5.0, 1e-15);

    const std::vector<double> one{0.25};
    const SampleStats single = summarizeSamples(one);
    EXPECT_EQ(single.samples, 1);
    EXPECT_DOUBLE_EQ(single.medianSeconds, 0.25);
    EXPECT_EQ(single.relStdDev, 0.0);

    const SampleStats none = summarizeSamples({});
    EXPECT_EQ(none.samples, 0);
    EXPECT_EQ(none.medianSeconds, 0.0);

    // Identical samples: exactly no noise. Samples a few ulps apart: a tiny noise, not a cancellation artefact of
    // sum x^2 - n mean^2 (which loses every digit here). 1 + {0, 2, 4, 6} ulp (every partial sum exact): mean
    // 1 + 3 ulp, deviations -3, -1, 1, 3 ulp, sd sqrt(20 / 3) ulp.
    const std::vector<double> same(50, 1.2345678901234e-3);
    EXPECT_EQ(summarizeSamples(same).relStdDev, 0.0);
    const double ulp = std::ldexp(1.0, -52);
    const std::vector<double> close{1.0, 1.0 + 2 * ulp, 1.0 + 4 * ulp, 1.0 + 6 * ulp};
    EXPECT_NEAR(summarizeSamples(close).relStdDev, std::sqrt(20.0 / 3.0) * ulp, 0.01 * ulp);
}

MeasureOptions smallOptions() {
    MeasureOptions o;
    o.minSamples = 3;
    o.maxSamples = 6;
    o.targetRelStdDev = 0.01;
    o.maxSecondsPerCase = 10;
    return o;
}

TEST(BenchStats, ControllerStopsWhenQuietAfterMinSamples) {
    SampleController c(smallOptions());
    EXPECT_FALSE(c.done(0));
    c.add(1.0);
    c.add(1.0);
    EXPECT_FALSE(c.done(0.1));  // quiet, but fewer than minSamples
    c.add(1.0);
    EXPECT_TRUE(c.done(0.1));
    const SampleStats s = c.stats();
    EXPECT_EQ(s.samples, 3);
    EXPECT_TRUE(s.converged);
}

TEST(BenchStats, ControllerStopsAtMaxSamplesUnconverged) {
    SampleController c(smallOptions());
    for (int i = 0; i < 5; ++i) {
        c.add(i % 2 == 0 ? 1.0 : 2.0);  // ~35% noise, never under 1%
        EXPECT_FALSE(c.done(0.1)) << i;
    }
    c.add(1.0);
    EXPECT_TRUE(c.done(0.1));
    EXPECT_FALSE(c.stats().converged);
    EXPECT_EQ(c.stats().samples, 6);
}

TEST(BenchStats, ControllerTimeCapNeedsOneSampleAndCountsThrottled) {
    SampleController c(smallOptions());
    c.addThrottled();
    EXPECT_FALSE(c.done(11));  // past the cap, but nothing kept yet
    c.add(2.0);
    EXPECT_FALSE(c.done(9.9));
    EXPECT_TRUE(c.done(10.0));  // a slow case reports what it has
    const SampleStats s = c.stats();
    EXPECT_EQ(s.samples, 1);
    EXPECT_EQ(s.throttledSamples, 1);
    EXPECT_FALSE(s.converged);
    EXPECT_DOUBLE_EQ(s.medianSeconds, 2.0);

    // A GPU that throttles every sample still ends: past the cap after maxSamples attempts.
    SampleController throttled(smallOptions());
    for (int i = 0; i < 6; ++i) throttled.addThrottled();
    EXPECT_FALSE(throttled.done(1));
    EXPECT_TRUE(throttled.done(10));
    EXPECT_EQ(throttled.stats().samples, 0);
    EXPECT_EQ(throttled.stats().throttledSamples, 6);
}

TEST(BenchGemm, NamesBytesAndRoofByHand) {
    EXPECT_STREQ(gemmPrecisionName(GemmPrecision::Bf16), "bf16");
    EXPECT_STREQ(gemmPrecisionName(GemmPrecision::Fp8E4m3), "fp8_e4m3");
    EXPECT_EQ(gemmInputBytes(GemmPrecision::Bf16), 2);
    EXPECT_EQ(gemmInputBytes(GemmPrecision::Fp8E4m3), 1);

    // Decode, one token through a 4096 x 4096 layer in FP8: A 1 x 4096 bytes, B 4096^2 bytes, D 4096 x 2 bytes.
    const GemmShape decode{"o", 1, 4096, 4096};
    EXPECT_DOUBLE_EQ(decode.flops(), 33554432.0);
    EXPECT_DOUBLE_EQ(decode.minBytes(GemmPrecision::Fp8E4m3), 4096.0 + 16777216.0 + 8192.0);
    EXPECT_DOUBLE_EQ(decode.minBytes(GemmPrecision::Bf16), 8192.0 + 33554432.0 + 8192.0);

    PeakSpec peak;
    peak.fp8DenseTflops = 1979;
    peak.bf16DenseTflops = 989;
    peak.memoryBandwidthGBps = 3350;
    // 33,554,432 / 16,789,504 FLOP/byte x 3350 GB/s = 6695.06 GFLOP/s = 6.695 TFLOP/s: memory-bound.
    const GemmRoof r = gemmRoof(decode, GemmPrecision::Fp8E4m3, peak);
    EXPECT_STREQ(r.bound, "memory");
    EXPECT_NEAR(r.attainableTflops, 33554432.0 / 16789504.0 * 3350.0 / 1000.0, 1e-12);

    // 8192^3 in BF16: 2730.7 FLOP/byte x 3.35 TB/s = 9148 TFLOP/s > 989: compute-bound at the BF16 peak.
    const GemmShape square{"square", 8192, 8192, 8192};
    EXPECT_DOUBLE_EQ(square.minBytes(GemmPrecision::Bf16), 3.0 * 8192.0 * 8192.0 * 2.0);
    const GemmRoof s = gemmRoof(square, GemmPrecision::Bf16, peak);
    EXPECT_STREQ(s.bound, "compute");
    EXPECT_DOUBLE_EQ(s.attainableTflops, 989);
    EXPECT_DOUBLE_EQ(gemmRoof(square, GemmPrecision::Fp8E4m3, peak).attainableTflops, 1979);
}

BenchRequest smallKvRequest() {
    BenchRequest request;
    request.gemm = true;
    request.bandwidth = false;
    request.kv = true;
    request.model = "tiny";
    request.gemmShapes = {GemmShape{"o", 8, 256, 256}};
    request.kvSweep.shape = KvShape{2, 2, 32, 1};
    request.kvSweep.contexts = {64, 128};
    request.kvSweep.calibrationTokens = 64;
    request.kvSweep.seed = 7;
    return request;
}

TEST(BenchCpu, RunsTheKvSweepAndSaysWhyTheGpuPartsDidNot) {
    const BenchRequest request = smallKvRequest();
    std::vector<double> fractions;
    const BenchReport report = makeCpuBenchRunner()->run(request, [&fractions](double f, const std::string& step) {
        EXPECT_FALSE(step.empty());
        fractions.push_back(f);
        return true;
    });
    EXPECT_EQ(report.backend, "cpu");
    EXPECT_EQ(report.kvBackend, "cpu");
    EXPECT_EQ(report.model, "tiny");
    EXPECT_TRUE(report.gemm.empty());
    EXPECT_TRUE(report.bandwidth.empty());
    EXPECT_TRUE(report.kvKernel.empty());
    EXPECT_FALSE(report.cancelled);
    EXPECT_TRUE(report.kvSkipped.empty()) << report.kvSkipped;
    EXPECT_FALSE(report.peak.has_value());
    if (!report.device.hasUsableDevice()) {
        EXPECT_EQ(report.gemmSkipped, "no usable GPU: " + report.device.reason);
        EXPECT_EQ(report.bandwidthSkipped, report.gemmSkipped);  // not asked, but the GPU reason is the one to give
    } else {
        EXPECT_FALSE(report.gemmSkipped.empty());
    }
    ASSERT_FALSE(fractions.empty());
    EXPECT_DOUBLE_EQ(fractions.back(), 1.0);

    // The same sweep run directly: same points, same errors (deterministic but for the seconds).
    const KvSweepResult direct = runKvQuantSweep(request.kvSweep);
    ASSERT_EQ(report.kv.size(), direct.results.size());
    ASSERT_EQ(report.kv.size(), 6u);
    for (std::size_t i = 0; i < direct.results.size(); ++i) {
        EXPECT_EQ(report.kv[i].scaling, direct.results[i].scaling);
        EXPECT_EQ(report.kv[i].context, direct.results[i].context);
        EXPECT_EQ(report.kv[i].combined.relRmse, direct.results[i].combined.relRmse);
        EXPECT_EQ(report.kv[i].attnOutRelRmse, direct.results[i].attnOutRelRmse);
        EXPECT_EQ(report.kv[i].attnWeightTvd, direct.results[i].attnWeightTvd);
    }
}

TEST(BenchCpu, CancelAndBadConfigComeBackAsValues) {
    BenchRequest request = smallKvRequest();
    const BenchReport cancelled = makeCpuBenchRunner()->run(request, [](double, const std::string&) { return false; });
    EXPECT_TRUE(cancelled.cancelled);
    EXPECT_TRUE(cancelled.kv.empty());

    request.kvSweep.contexts = {0};
    const BenchReport bad = makeCpuBenchRunner()->run(request, {});
    EXPECT_TRUE(bad.kv.empty());
    EXPECT_NE(bad.kvSkipped.find("could not run"), std::string::npos) << bad.kvSkipped;

    request.kv = false;
    EXPECT_EQ(makeCpuBenchRunner()->run(request, {}).kvSkipped, "not requested");
}

TEST(BenchWorker, OneThreadRunsEveryJob) {
    // Four callers at once: every job reports progress from the same thread, never a caller's, and every caller gets
    // its own result.
    std::mutex mutex;
    std::set<std::thread::id> workerThreads;
    std::set<std::thread::id> callerThreads;
    std::vector<BenchReport> reports(4);
    std::vector<std::thread> callers;
    for (int i = 0; i < 4; ++i) {
        callers.emplace_back([&, i] {
            BenchRequest request = smallKvRequest();
            request.cpuOnly = true;
            request.model = "caller " + std::to_string(i);
            {
                std::lock_guard lock(mutex);
                callerThreads.insert(std::this_thread::get_id());
            }
            reports[static_cast<std::size_t>(i)] = runBench(request, [&](double, const std::string&) {
                std::lock_guard lock(mutex);
                workerThreads.insert(std::this_thread::get_id());
                return true;
            });
        });
    }
    for (auto& t : callers) t.join();
    ASSERT_EQ(workerThreads.size(), 1u);
    EXPECT_EQ(callerThreads.count(*workerThreads.begin()), 0u);
    EXPECT_NE(*workerThreads.begin(), std::this_thread::get_id());
    for (int i = 0; i < 4; ++i) {
        const BenchReport& r = reports[static_cast<std::size_t>(i)];
        EXPECT_EQ(r.model, "caller " + std::to_string(i));
        EXPECT_EQ(r.backend, "cpu");
        ASSERT_EQ(r.kv.size(), 6u);
        EXPECT_EQ(r.kv[0].combined.relRmse, reports[0].kv[0].combined.relRmse);
        if (r.device.hasUsableDevice())
            EXPECT_EQ(r.gemmSkipped.rfind("--cpu", 0), 0u) << r.gemmSkipped;
        else
            EXPECT_EQ(r.gemmSkipped, "no usable GPU: " + r.device.reason);
    }
}

// ---------------------------------------------------------------------------------------------------------------
// JSON

BenchReport handBuiltReport() {
    BenchReport r;
    r.backend = "cuda";
    r.model = "llama-3.1-8b";
    r.device.backend = "cuda";
    r.device.unavailable = Unavailable::None;
    r.device.driverVersion = 12080;
    r.device.runtimeVersion = 13000;
    DeviceInfo info;
    info.name = "NVIDIA H200";
    info.computeMajor = 9;
    info.computeMinor = 0;
    info.multiprocessors = 132;
    info.memoryTotalBytes = 150754820096ull;
    info.fp8Supported = true;
    r.device.devices = {info};
    r.peak = findPeakSpec("h200");

    GemmResult bf16;
    bf16.shape = GemmShape{"qkv", 64, 6144, 4096};
    bf16.precision = GemmPrecision::Bf16;
    bf16.stats.samples = 40;
    bf16.stats.throttledSamples = 2;
    bf16.stats.medianSeconds = 1.25e-5;
    bf16.stats.meanSeconds = 1.3e-5;
    bf16.stats.minSeconds = 1.2e-5;
    bf16.stats.maxSeconds = 1.5e-5;
    bf16.stats.relStdDev = 0.004;
    bf16.stats.converged = true;
    bf16.algorithmsTried = 8;
    bf16.tflops = 257.698037760;
    bf16.bytesPerSecond = 4.1e12;
    bf16.roof = GemmRoof{321.5, "memory"};
    bf16.percentOfRoof = 80.15;
    GemmResult fp8 = bf16;
    fp8.precision = GemmPrecision::Fp8E4m3;
    fp8.fastAccum = true;
    fp8.roof.reset();
    fp8.speedupVsBf16 = 1.75;
    fp8.maxRelError = 0.01;
    fp8.stats.smClockMHz = 1755.5;  // measured on a GPU; bf16's 0 = not measured
    GemmResult skipped;
    skipped.shape = GemmShape{"square", 8192, 8192, 8192};
    skipped.precision = GemmPrecision::Fp8E4m3;
    skipped.skipped = "out of memory";
    r.gemm = {bf16, fp8, skipped};

    BandwidthResult read;
    read.kernel = "read";
    read.bytes = 1ull << 30;
    read.bytesPerSecond = 4.2e12;
    read.percentOfPeak = 87.5;
    read.stats.samples = 10;
    r.bandwidth = {read};
    r.bandwidthSkipped = "";

    KvQuantResult kv;
    kv.scaling = KvScaling::PerTensor;
    kv.context = 4096;
    kv.key = TensorError{0.031, 12.5, 0.9995};
    kv.value = TensorError{0.027, 0.25, 0.9996};
    kv.combined = TensorError{0.0305, 12.5, 0.99952};
    kv.keySaturated = 3;
    kv.valueSaturated = 0;
    kv.scales.scaling = KvScaling::PerTensor;
    kv.scales.kvHeads = 2;
    kv.scales.key = {0.5f, 0.5f, 0.25f, 0.25f};  // 2 layers x 2 heads: per_tensor repeats a layer's scale
    kv.scales.value = {0.125f, 0.125f, 2.0f, 2.0f};
    kv.attnOutRelRmse = 0.031;
    kv.attnOutCosine = 0.9994;
    kv.attnWeightTvd = 0.012;
    kv.attnWeightTvdMax = 0.05;
    kv.attnEntropy = 2.9;
    kv.sourceKind = "dump";
    kv.sourceDescription = "llama.safetensors, bf16";
    kv.sourceShape = KvShape{2, 2, 128, 8192};
    kv.elements = 8388608;
    kv.seconds = 0.5;
    r.kv = {kv};
    r.kvBackend = "cuda";
    KvKernelResult kernel;
    kernel.scaling = KvScaling::PerHead;
    kernel.elements = 8388608;
    kernel.bytesPerSecond = 3.0e12;
    kernel.matchesCpu = true;
    r.kvKernel = {kernel};
    r.warnings = {"clock throttled in 2 samples"};
    return r;
}

TEST(BenchJson, FieldsAndValuesOfAHandBuiltReport) {
    const BenchReport r = handBuiltReport();
    const nlohmann::json j = nlohmann::json::parse(benchReportToJson(r));
    EXPECT_EQ(j["backend"], "cuda");
    EXPECT_EQ(j["model"], "llama-3.1-8b");

    const auto& d = j["device"];
    EXPECT_EQ(d["available"], true);
    EXPECT_EQ(d["name"], "NVIDIA H200");
    EXPECT_EQ(d["compute_capability"], "9.0");
    EXPECT_EQ(d["memory_bytes"], 150754820096ull);
    EXPECT_EQ(d["reason"], "");
    EXPECT_EQ(d["backend"], "cuda");
    EXPECT_EQ(d["driver_version"], 12080);
    EXPECT_EQ(d["runtime_version"], 13000);
    EXPECT_EQ(d["multiprocessors"], 132);
    EXPECT_EQ(d["fp8_supported"], true);
    ASSERT_TRUE(d["peak"].is_object());
    EXPECT_EQ(d["peak"]["name"], std::string(r.peak->displayName));
    EXPECT_EQ(d["peak"]["fp8_dense_tflops"], r.peak->fp8DenseTflops);
    EXPECT_EQ(d["peak"]["bf16_dense_tflops"], r.peak->bf16DenseTflops);
    EXPECT_EQ(d["peak"]["memory_bandwidth_gbps"], r.peak->memoryBandwidthGBps);

    ASSERT_EQ(j["gemm"].size(), 3u);
    const auto& g = j["gemm"][0];
    EXPECT_EQ(g["layer"], "qkv");
    EXPECT_EQ(g["m"], 64);
    EXPECT_EQ(g["n"], 6144);
    EXPECT_EQ(g["k"], 4096);
    EXPECT_EQ(g["precision"], "bf16");
    EXPECT_EQ(g["fast_accum"], false);
    EXPECT_EQ(g["skipped"], "");
    EXPECT_EQ(g["samples"], 40);
    EXPECT_EQ(g["throttled_samples"], 2);
    // Shortest round-trip text: the parsed doubles are the very same values.
    EXPECT_EQ(g["median_s"].get<double>(), 1.25e-5);
    EXPECT_EQ(g["mean_s"].get<double>(), 1.3e-5);
    EXPECT_EQ(g["min_s"].get<double>(), 1.2e-5);
    EXPECT_EQ(g["max_s"].get<double>(), 1.5e-5);
    EXPECT_EQ(g["noise"].get<double>(), 0.004);
    EXPECT_EQ(g["converged"], true);
    EXPECT_EQ(g["algorithms_tried"], 8);
    EXPECT_EQ(g["tflops"].get<double>(), 257.698037760);
    EXPECT_EQ(g["bytes_per_s"].get<double>(), 4.1e12);
    EXPECT_EQ(g["roof_tflops"].get<double>(), 321.5);
    EXPECT_EQ(g["bound"], "memory");
    EXPECT_EQ(g["percent_of_roof"].get<double>(), 80.15);
    EXPECT_EQ(g["speedup_vs_bf16"].get<double>(), 0.0);
    EXPECT_TRUE(g["max_rel_error"].is_null());
    const auto& f = j["gemm"][1];
    EXPECT_EQ(f["precision"], "fp8_e4m3");
    EXPECT_EQ(f["fast_accum"], true);
    EXPECT_TRUE(f["roof_tflops"].is_null());
    EXPECT_EQ(f["bound"], "");
    EXPECT_EQ(f["speedup_vs_bf16"].get<double>(), 1.75);
    EXPECT_EQ(f["max_rel_error"].get<double>(), 0.01);
    // The clock a case ran at is written only where it was measured, so reports without it are unchanged.
    EXPECT_EQ(f["sm_clock_mhz"].get<double>(), 1755.5);
    EXPECT_FALSE(g.contains("sm_clock_mhz"));
    EXPECT_EQ(j["gemm"][2]["skipped"], "out of memory");
    EXPECT_EQ(j["gemm_skipped"], "");

    ASSERT_EQ(j["bandwidth"].size(), 1u);
    EXPECT_EQ(j["bandwidth"][0]["kernel"], "read");
    EXPECT_EQ(j["bandwidth"][0]["bytes"], 1073741824ull);
    EXPECT_EQ(j["bandwidth"][0]["bytes_per_s"].get<double>(), 4.2e12);
    EXPECT_EQ(j["bandwidth"][0]["percent_of_peak"].get<double>(), 87.5);
    EXPECT_EQ(j["bandwidth"][0]["samples"], 10);
    EXPECT_EQ(j["bandwidth_skipped"], "");

    ASSERT_EQ(j["kv"].size(), 1u);
    const auto& k = j["kv"][0];
    EXPECT_EQ(k["scaling"], "per_tensor");
    EXPECT_EQ(k["context"], 4096);
    EXPECT_EQ(k["rel_rmse"].get<double>(), 0.0305);  // the combined error
    EXPECT_EQ(k["max_abs_error"].get<double>(), 12.5);
    EXPECT_EQ(k["cosine"].get<double>(), 0.99952);
    EXPECT_EQ(k["key"]["rel_rmse"].get<double>(), 0.031);
    EXPECT_EQ(k["key"]["max_abs_error"].get<double>(), 12.5);
    EXPECT_EQ(k["key"]["cosine"].get<double>(), 0.9995);
    EXPECT_EQ(k["value"]["rel_rmse"].get<double>(), 0.027);
    EXPECT_EQ(k["value"]["max_abs_error"].get<double>(), 0.25);
    EXPECT_FALSE(k.contains("attn_rel_error"));  // the old, misleading metric is no longer written
    EXPECT_EQ(k["key"]["saturated"], 3);
    EXPECT_EQ(k["value"]["saturated"], 0);
    EXPECT_EQ(k["key"]["scales"], nlohmann::json::parse("[0.5, 0.25]"));  // one per layer for per_tensor
    EXPECT_EQ(k["value"]["scales"], nlohmann::json::parse("[0.125, 2.0]"));
    EXPECT_EQ(k["attn_out_rel_rmse"].get<double>(), 0.031);
    EXPECT_EQ(k["attn_out_cosine"].get<double>(), 0.9994);
    EXPECT_EQ(k["attn_weight_tvd"].get<double>(), 0.012);
    EXPECT_EQ(k["attn_weight_tvd_max"].get<double>(), 0.05);
    EXPECT_EQ(k["attn_entropy"].get<double>(), 2.9);
    EXPECT_EQ(k["source"]["kind"], "dump");
    EXPECT_EQ(k["source"]["description"], "llama.safetensors, bf16");
    EXPECT_EQ(k["source"]["shape"], nlohmann::json::parse("[2, 2, 8192, 128]"));  // [layers, kv_heads, tokens, dim]
    EXPECT_EQ(k["elements"], 8388608);
    EXPECT_EQ(k["seconds"].get<double>(), 0.5);
    EXPECT_EQ(k["elements_per_s"].get<double>(), 16777216.0);
    EXPECT_EQ(j["kv_backend"], "cuda");
    ASSERT_EQ(j["kv_kernel"].size(), 1u);
    EXPECT_EQ(j["kv_kernel"][0]["scaling"], "per_head");
    EXPECT_EQ(j["kv_kernel"][0]["elements"], 8388608);
    EXPECT_EQ(j["kv_kernel"][0]["matches_cpu"], true);
    EXPECT_EQ(j["kv_kernel"][0]["bytes_per_s"].get<double>(), 3.0e12);
    EXPECT_EQ(j["kv_skipped"], "");
    EXPECT_EQ(j["warnings"], nlohmann::json::array({"clock throttled in 2 samples"}));
    EXPECT_EQ(j["cancelled"], false);

    // Compact output is the same document.
    EXPECT_EQ(nlohmann::json::parse(benchReportToJson(r, 0)), j);
    EXPECT_EQ(benchReportToJson(r, 0).find('\n'), std::string::npos);
}

TEST(BenchJson, NoGpuReportHasEmptyDeviceAndNullPeak) {
    BenchReport r;
    r.backend = "cpu";
    r.device.backend = "cpu";
    r.device.unavailable = Unavailable::NotBuilt;
    r.device.reason = "built without CUDA";
    r.gemmSkipped = "no usable GPU: built without CUDA";
    const nlohmann::json j = nlohmann::json::parse(benchReportToJson(r));
    EXPECT_EQ(j["device"]["available"], false);
    EXPECT_EQ(j["device"]["name"], "");
    EXPECT_EQ(j["device"]["compute_capability"], "");
    EXPECT_EQ(j["device"]["memory_bytes"], 0);
    EXPECT_EQ(j["device"]["reason"], "built without CUDA");
    EXPECT_TRUE(j["device"]["peak"].is_null());
    EXPECT_TRUE(j["gemm"].is_array() && j["gemm"].empty());
    EXPECT_TRUE(j["kv_kernel"].is_array() && j["kv_kernel"].empty());
    EXPECT_TRUE(j["warnings"].is_array() && j["warnings"].empty());
    EXPECT_EQ(j["gemm_skipped"], "no usable GPU: built without CUDA");
}

TEST(BenchJson, StringsAreEscapedAndUtf8PassesThrough) {
    BenchReport r;
    const std::string tricky = std::string("a \"quoted\" \\ path\nline\ttab\r\b\f") + '\x01' + '\x1f' + '\x7f' +
                               " caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x9A\x80";
    r.model = tricky;
    r.warnings = {tricky};
    const std::string text = benchReportToJson(r);
    const nlohmann::json j = nlohmann::json::parse(text);
    EXPECT_EQ(j["model"], tricky);
    EXPECT_EQ(j["warnings"][0], tricky);
    EXPECT_NE(text.find("\\u0001"), std::string::npos);
    EXPECT_NE(text.find("\\u001f"), std::string::npos);
    EXPECT_NE(text.find("caf\xC3\xA9"), std::string::npos);  // UTF-8 written as is, not as \u escapes

    // Bytes that are not UTF-8 (a lone continuation byte, a truncated sequence, an overlong, a surrogate) become
    // U+FFFD, so the document still parses.
    r.model = std::string("x\x80y\xC3") + "z\xC0\xAF" + "w\xED\xA0\x80";
    const nlohmann::json bad = nlohmann::json::parse(benchReportToJson(r));
    EXPECT_EQ(bad["model"], "x\xEF\xBF\xBDy\xEF\xBF\xBDz\xEF\xBF\xBD\xEF\xBF\xBDw\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD");
}

TEST(BenchJson, NonFiniteNumbersAreNullAndOthersRoundTrip) {
    BenchReport r;
    KvQuantResult kv;
    kv.combined.relRmse = std::numeric_limits<double>::quiet_NaN();
    kv.key.relRmse = std::numeric_limits<double>::infinity();
    kv.value.relRmse = -std::numeric_limits<double>::infinity();
    kv.attnOutRelRmse = 0.1;
    kv.seconds = 1e-300;
    kv.combined.maxAbsError = 123456789.123456789;
    r.kv = {kv};
    const nlohmann::json j = nlohmann::json::parse(benchReportToJson(r));
    const auto& k = j["kv"][0];
    EXPECT_TRUE(k["rel_rmse"].is_null());
    EXPECT_TRUE(k["key"]["rel_rmse"].is_null());
    EXPECT_TRUE(k["value"]["rel_rmse"].is_null());
    EXPECT_EQ(k["attn_out_rel_rmse"].get<double>(), 0.1);
    EXPECT_EQ(k["key"]["scales"], nlohmann::json::parse("[1.0]"));  // none: scale 1.0, written once
    EXPECT_EQ(k["seconds"].get<double>(), 1e-300);
    EXPECT_EQ(k["max_abs_error"].get<double>(), 123456789.123456789);
    EXPECT_EQ(k["elements_per_s"].get<double>(), 0.0);
}

TEST(BenchJson, PerHeadScalesAreWrittenLayerMajor) {
    BenchReport r;
    KvQuantResult kv;
    kv.scaling = KvScaling::PerHead;
    kv.scales.scaling = KvScaling::PerHead;
    kv.scales.kvHeads = 2;
    kv.scales.key = {1.5f, 0.75f, 3.0f, 0.375f};
    kv.scales.value = {0.5f, 0.25f, 0.125f, 4.0f};
    r.kv = {kv};
    const nlohmann::json j = nlohmann::json::parse(benchReportToJson(r));
    EXPECT_EQ(j["kv"][0]["key"]["scales"], nlohmann::json::parse("[1.5, 0.75, 3.0, 0.375]"));
    EXPECT_EQ(j["kv"][0]["value"]["scales"], nlohmann::json::parse("[0.5, 0.25, 0.125, 4.0]"));
}

}  // namespace
}  // namespace fp8dash::gpu
