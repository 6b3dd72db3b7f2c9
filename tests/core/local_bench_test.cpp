// Benchmark orchestration: the gpu/ JSON read back with validation (errors name the place and the field), the run on
// this machine's CPU against a direct run of gpu/'s sweep, option limits, the text, and the capacity settings.
#include "fp8dash/core/local_bench.h"

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "fp8dash/core/model_architecture.h"
#include "fp8dash/gpu/bench.h"
#include "fp8dash/gpu/kv_quant.h"

namespace fp8dash {
namespace {

// A report in gpu/'s layout, written by hand: one BF16/FP8 pair, a skipped shape, a bandwidth row and two KV points.
Json handReport() {
    return Json::parse(R"({
      "created": "2026-11-29T10:00:00Z",
      "backend": "cuda", "model": "llama-3.1-8b",
      "device": {"available": true, "name": "NVIDIA H200", "compute_capability": "9.0",
                 "memory_bytes": 150754820096, "reason": "", "backend": "cuda", "driver_version": 12080,
                 "runtime_version": 13000, "multiprocessors": 132, "fp8_supported": true,
                 "peak": {"name": "NVIDIA H200 SXM", "fp8_dense_tflops": 1979, "bf16_dense_tflops": 989,
                          "memory_bandwidth_gbps": 4800}},
      "gemm": [
        {"layer": "qkv", "m": 2048, "n": 6144, "k": 4096, "precision": "bf16", "fast_accum": false, "skipped": "",
         "samples": 40, "throttled_samples": 1, "median_s": 0.0002, "mean_s": 0.0002, "min_s": 0.0002,
         "max_s": 0.0002, "noise": 0.003, "converged": true, "algorithms_tried": 8, "tflops": 515.4,
         "bytes_per_s": 1e12, "roof_tflops": 989, "bound": "compute", "percent_of_roof": 52.1,
         "speedup_vs_bf16": 0, "max_rel_error": null},
        {"layer": "qkv", "m": 2048, "n": 6144, "k": 4096, "precision": "fp8_e4m3", "fast_accum": false,
         "skipped": "", "samples": 30, "throttled_samples": 0, "median_s": 0.000108, "noise": 0.012,
         "converged": false, "tflops": 954.2, "roof_tflops": 1979, "bound": "compute", "percent_of_roof": 48.2,
         "speedup_vs_bf16": 1.85},
        {"layer": "square", "m": 8192, "n": 8192, "k": 8192, "precision": "fp8_e4m3", "skipped": "out of memory",
         "roof_tflops": null}
      ],
      "gemm_skipped": "",
      "bandwidth": [{"kernel": "copy", "bytes": 2147483648, "skipped": "", "samples": 12, "noise": 0.001,
                     "converged": true, "bytes_per_s": 4.1e12, "percent_of_peak": 85.4}],
      "bandwidth_skipped": "",
      "kv": [
        {"scaling": "none", "context": 1024, "rel_rmse": 0.5, "max_abs_error": 100.25, "cosine": 0.87,
         "key": {"rel_rmse": 0.6, "max_abs_error": 100.25, "cosine": 0.8},
         "value": {"rel_rmse": 0.03, "max_abs_error": 0.01, "cosine": 0.9995},
         "attn_rel_error": 0.2, "elements": 2097152, "seconds": 0.01, "elements_per_s": 209715200},
        {"scaling": "per_head", "context": 1024, "rel_rmse": null, "max_abs_error": 0.5, "cosine": 0.9996,
         "key": {"rel_rmse": 0.025, "max_abs_error": 0.5, "cosine": 0.9997},
         "value": {"rel_rmse": 0.026, "max_abs_error": 0.002, "cosine": 0.9996},
         "attn_rel_error": 0.05, "elements": 2097152, "seconds": 0.01, "elements_per_s": 209715200}
      ],
      "kv_backend": "cuda",
      "kv_kernel": [{"scaling": "per_tensor", "elements": 2097152, "skipped": "", "samples": 20, "noise": 0.002,
                     "converged": true, "bytes_per_s": 3.2e12, "percent_of_peak": 66.7, "matches_cpu": true}],
      "kv_skipped": "",
      "warnings": ["clock throttled in 1 sample"],
      "cancelled": false
    })");
}

TEST(LocalBench, ParsesTheGpuJson) {
    auto r = parseBenchResults(handReport(), "run.json");
    ASSERT_TRUE(r.ok()) << r.error().message;
    EXPECT_EQ(r->created, "2026-11-29T10:00:00Z");
    EXPECT_EQ(r->backend, "cuda");
    EXPECT_EQ(r->model, "llama-3.1-8b");
    EXPECT_TRUE(r->device.available);
    EXPECT_EQ(r->device.name, "NVIDIA H200");
    EXPECT_EQ(r->device.computeCapability, "9.0");
    EXPECT_EQ(r->device.memoryBytes, 150754820096ull);
    EXPECT_EQ(r->device.multiprocessors, 132);
    ASSERT_TRUE(r->device.peak.has_value());
    EXPECT_EQ(r->device.peak->fp8DenseTflops, 1979);
    EXPECT_EQ(r->device.peak->memoryBandwidthGBps, 4800);
    ASSERT_EQ(r->gemm.size(), 3u);
    EXPECT_EQ(r->gemm[1].precision, "fp8_e4m3");
    EXPECT_EQ(r->gemm[1].stats.samples, 30);
    EXPECT_FALSE(r->gemm[1].stats.converged);
    EXPECT_EQ(r->gemm[1].stats.relStdDev, 0.012);
    EXPECT_EQ(r->gemm[1].speedupVsBf16, 1.85);
    EXPECT_EQ(r->gemm[0].roofTflops, 989.0);
    EXPECT_EQ(r->gemm[0].stats.throttledSamples, 1);
    EXPECT_EQ(r->gemm[0].algorithmsTried, 8);
    EXPECT_FALSE(r->gemm[2].roofTflops.has_value());
    EXPECT_EQ(r->gemm[2].skipped, "out of memory");
    ASSERT_EQ(r->bandwidth.size(), 1u);
    EXPECT_EQ(r->bandwidth[0].bytes, 2147483648ull);
    EXPECT_EQ(r->bandwidth[0].percentOfPeak, 85.4);
    ASSERT_EQ(r->kv.size(), 2u);
    EXPECT_EQ(r->kv[0].scaling, "none");
    EXPECT_EQ(r->kv[0].relRmse, 0.5);
    EXPECT_EQ(r->kv[0].key.relRmse, 0.6);
    EXPECT_EQ(r->kv[0].value.relRmse, 0.03);
    EXPECT_EQ(r->kv[0].value.maxAbsError, 0.01);
    EXPECT_EQ(r->kv[0].maxAbsError, 100.25);
    // A row of older fp8dash: its attention figure is the old metric, kept apart; the new fields stay unset.
    EXPECT_FALSE(r->kv[0].hasAttentionMetrics);
    EXPECT_EQ(r->kv[0].legacyAttnRelError, 0.2);
    EXPECT_TRUE(std::isnan(r->kv[0].attnOutRelRmse));
    EXPECT_FALSE(r->kv[0].key.saturated.has_value());
    EXPECT_TRUE(r->kv[0].key.scales.empty());
    EXPECT_TRUE(r->kv[0].source.kind.empty());
    EXPECT_EQ(r->kv[0].elements, 2097152u);
    EXPECT_TRUE(std::isnan(r->kv[1].relRmse));  // null: the writer had no finite value
    EXPECT_EQ(r->kvBackend, "cuda");
    ASSERT_EQ(r->kvKernel.size(), 1u);
    EXPECT_TRUE(r->kvKernel[0].matchesCpu);
    EXPECT_EQ(r->warnings, std::vector<std::string>{"clock throttled in 1 sample"});
    EXPECT_FALSE(r->cancelled);
    EXPECT_EQ(r->raw, handReport());
}

// Issue 26: what a benchmark row derives from its own median is computed again when read; a stored figure that says
// otherwise (a hand edit promising a 9x FP8 speedup) is replaced, in the results and in the section kept for output
// and saving, with a warning naming the row, the field and both values. The hand report's figures, rounded to a few
// digits, are kept as they are (ParsesTheGpuJson).
TEST(LocalBench, StoredRatiosThatContradictTheirMediansAreRecomputed) {
    Json tampered = handReport();
    tampered["gemm"][1]["speedup_vs_bf16"] = 9.0;
    tampered["gemm"][1]["tflops"] = 4000.0;
    tampered["gemm"][1]["percent_of_roof"] = 99.0;
    auto r = parseBenchResults(tampered, "run.json");
    ASSERT_TRUE(r.ok()) << r.error().message;
    // By hand, from the rows' medians: BF16 0.0002 s over FP8 0.000108 s; 2 * 2048 * 6144 * 4096 FLOP in 0.000108 s.
    const double speedup = 0.0002 / 0.000108;
    const double tflops = 2.0 * 2048 * 6144 * 4096 / 0.000108 / 1e12;
    EXPECT_DOUBLE_EQ(r->gemm[1].speedupVsBf16, speedup);
    EXPECT_DOUBLE_EQ(r->gemm[1].tflops, tflops);
    EXPECT_DOUBLE_EQ(r->gemm[1].percentOfRoof, tflops / 1979 * 100);
    EXPECT_DOUBLE_EQ(r->raw["gemm"][1]["speedup_vs_bf16"].get<double>(), speedup);
    EXPECT_DOUBLE_EQ(r->raw["gemm"][1]["tflops"].get<double>(), tflops);
    // The untouched rows stay as stored.
    EXPECT_EQ(r->gemm[0].tflops, 515.4);
    EXPECT_EQ(r->raw["gemm"][0], handReport()["gemm"][0]);
    ASSERT_EQ(r->warnings.size(), 4u);  // the file's own, then one per replaced figure
    EXPECT_EQ(r->warnings[0], "clock throttled in 1 sample");
    EXPECT_NE(r->warnings[3].find("gemm[1] (qkv 2048x6144x4096 fp8_e4m3) speedup_vs_bf16: the file says 9, its own "
                                  "median gives 1.85185"),
              std::string::npos)
        << r->warnings[3];
    EXPECT_EQ(r->raw["warnings"].size(), 4u);
}

struct BadCase {
    const char* name;
    std::function<void(Json&)> mutate;
    const char* expected;  // the message names where and the field
};

TEST(LocalBench, ValidationErrorsNameWhereAndTheField) {
    const std::vector<BadCase> cases = {
        {"missing backend", [](Json& j) { j.erase("backend"); }, "run.json.backend is missing"},
        {"device not an object", [](Json& j) { j["device"] = 3; }, "run.json.device must be an object"},
        {"available missing", [](Json& j) { j["device"].erase("available"); }, "run.json.device.available is missing"},
        {"gemm not a list", [](Json& j) { j["gemm"] = "x"; }, "run.json.gemm must be a list, found string"},
        {"m a string", [](Json& j) { j["gemm"][1]["m"] = "64"; }, "run.json.gemm[1].m must be a whole number"},
        {"negative n", [](Json& j) { j["gemm"][0]["n"] = -1; }, "run.json.gemm[0].n must be a whole number"},
        {"tflops text", [](Json& j) { j["gemm"][0]["tflops"] = "fast"; }, "run.json.gemm[0].tflops must be a number"},
        {"kv scaling missing", [](Json& j) { j["kv"][1].erase("scaling"); }, "run.json.kv[1].scaling is missing"},
        {"key rel_rmse", [](Json& j) { j["kv"][0]["key"]["rel_rmse"] = true; },
         "run.json.kv[0].key.rel_rmse must be a number"},
        {"bandwidth item", [](Json& j) { j["bandwidth"][0] = 1; }, "run.json.bandwidth[0] must be an object"},
        {"warning", [](Json& j) { j["warnings"][0] = 1; }, "run.json.warnings[0] must be a string"},
        {"cancelled", [](Json& j) { j["cancelled"] = "no"; }, "run.json.cancelled must be true or false"},
    };
    for (const auto& c : cases) {
        Json j = handReport();
        c.mutate(j);
        auto r = parseBenchResults(j, "run.json");
        ASSERT_FALSE(r.ok()) << c.name;
        EXPECT_NE(r.error().message.find(c.expected), std::string::npos) << c.name << ": " << r.error().message;
    }
    EXPECT_FALSE(parseBenchResults(Json::array(), "run.json").ok());
}

TEST(LocalBench, ArithmeticIntensityByHand) {
    BenchGemmPoint p;
    p.layer = "o";
    p.m = 1;
    p.n = 4096;
    p.k = 4096;
    p.precision = "fp8_e4m3";
    // 2 x 4096^2 FLOP over 4096 + 4096^2 + 2 x 4096 bytes.
    EXPECT_DOUBLE_EQ(p.arithmeticIntensity(), 33554432.0 / 16789504.0);
    p.precision = "bf16";
    EXPECT_DOUBLE_EQ(p.arithmeticIntensity(), 33554432.0 / (8192.0 + 33554432.0 + 8192.0));
}

LocalBenchOptions tinyKvOptions() {
    LocalBenchOptions o;
    o.gemm = false;
    o.bandwidth = false;
    o.kv = true;
    o.cpuOnly = true;
    o.kvContexts = {64, 128};
    o.kvLayers = 1;
    return o;
}

TEST(LocalBench, CpuRunMatchesADirectSweep) {
    std::vector<std::string> steps;
    auto r = runLocalBench(tinyKvOptions(), [&steps](double, const std::string& step) {
        steps.push_back(step);
        return true;
    });
    ASSERT_TRUE(r.ok()) << r.error().message;
    EXPECT_FALSE(steps.empty());
    EXPECT_EQ(r->backend, "cpu");
    EXPECT_EQ(r->kvBackend, "cpu");
    EXPECT_EQ(r->model, "llama-3.1-8b");
    EXPECT_TRUE(r->gemm.empty());
    EXPECT_FALSE(r->gemmSkipped.empty());
    EXPECT_FALSE(r->created.empty());
    ASSERT_TRUE(r->raw.is_object());
    EXPECT_EQ(r->raw.begin().key(), "created");  // first, then gpu/'s fields in their order
    EXPECT_EQ(r->raw["kv"].size(), 6u);
    if (!r->device.available) {
        EXPECT_FALSE(r->device.reason.empty());
    }

    // The same experiment through gpu/ directly: Llama-3.1-8B's 8 KV heads of 128, one layer, the calibration
    // prefix at most the shortest context.
    gpu::KvSweepConfig config;
    config.shape = gpu::KvShape{1, 8, 128, 1};
    config.contexts = {64, 128};
    config.calibrationTokens = 64;
    const gpu::KvSweepResult direct = gpu::runKvQuantSweep(config);
    ASSERT_EQ(r->kv.size(), direct.results.size());
    for (std::size_t i = 0; i < direct.results.size(); ++i) {
        EXPECT_EQ(r->kv[i].scaling, gpu::kvScalingName(direct.results[i].scaling));
        EXPECT_EQ(r->kv[i].context, direct.results[i].context);
        EXPECT_EQ(r->kv[i].relRmse, direct.results[i].combined.relRmse);  // exact: shortest round-trip JSON
        EXPECT_EQ(r->kv[i].key.relRmse, direct.results[i].key.relRmse);
        EXPECT_FALSE(r->kv[i].legacyAttnRelError.has_value());  // this producer no longer writes attn_rel_error
        EXPECT_EQ(r->kv[i].attnOutRelRmse, direct.results[i].attnOutRelRmse);
        EXPECT_EQ(r->kv[i].key.saturated, std::optional<std::uint64_t>(direct.results[i].keySaturated));
        EXPECT_EQ(r->kv[i].elements, 2u * 8u * 128u * static_cast<unsigned>(r->kv[i].context));
    }
}

TEST(LocalBench, OptionLimitsAreClearErrors) {
    auto expectError = [](LocalBenchOptions o, const std::string& part) {
        auto r = runLocalBench(o);
        ASSERT_FALSE(r.ok()) << part;
        EXPECT_NE(r.error().message.find(part), std::string::npos) << r.error().message;
    };
    LocalBenchOptions o = tinyKvOptions();
    o.kvLayers = 0;
    expectError(o, "KV layers 0 is out of range: llama-3.1-8b has 32 layers");
    o.kvLayers = 33;
    expectError(o, "KV layers 33");
    o = tinyKvOptions();
    o.kvContexts = {64, 0};
    expectError(o, "KV context length 0 is out of range: expected 1 to 1048576");
    o.kvContexts = {2000000};
    expectError(o, "KV context length 2000000");
    o = tinyKvOptions();
    o.gemmTokens = {1, 65537};
    expectError(o, "GEMM token count 65537 is out of range: expected 1 to 65536");
    o = tinyKvOptions();
    o.model = "no-such-model";
    expectError(o, "no-such-model");
}

TEST(LocalBench, TextShowsTablesAndReasons) {
    auto r = parseBenchResults(handReport(), "run.json");
    ASSERT_TRUE(r.ok()) << r.error().message;
    const std::string text = benchResultsToText(*r);
    EXPECT_NE(text.find("Device: NVIDIA H200 (cc 9.0, 150.8 GB, 132 SMs)"), std::string::npos) << text;
    EXPECT_NE(text.find("2048 x 6144 x 4096"), std::string::npos) << text;
    EXPECT_NE(text.find("515.4"), std::string::npos);
    EXPECT_NE(text.find("954.2"), std::string::npos);
    EXPECT_NE(text.find("1.85x"), std::string::npos);
    EXPECT_NE(text.find("52% cmp"), std::string::npos) << text;
    EXPECT_NE(text.find("1.2%*"), std::string::npos) << text;  // the worse noise of the pair, not converged
    EXPECT_NE(text.find("skipped square M=8192 fp8_e4m3: out of memory"), std::string::npos) << text;
    EXPECT_NE(text.find("4100 GB/s"), std::string::npos) << text;
    EXPECT_NE(text.find("per_head"), std::string::npos);
    // Rows of an older fp8dash: their attention figure in a column of its own, labelled, and a headline of K/V rel
    // RMSE. per_head's combined rel RMSE is null, so the headline falls back to none at 1K: 0.5 = 50.0%.
    EXPECT_NE(text.find("old attn*"), std::string::npos) << text;
    EXPECT_NE(text.find("not comparable"), std::string::npos) << text;
    EXPECT_NE(text.find("headline: K/V rel. RMSE 50.0% (none scaling, 1K tokens; synthetic cache)"), std::string::npos)
        << text;
    EXPECT_NE(text.find("older fp8dash"), std::string::npos) << text;
    EXPECT_EQ(text.find("attention-output error 20"), std::string::npos) << text;  // never the old figure as the new
    EXPECT_NE(text.find("clock throttled in 1 sample"), std::string::npos);

    Json noGpu = handReport();
    noGpu["device"] = Json{{"available", false}, {"reason", "no NVIDIA driver is loaded"}};
    noGpu["gemm"] = Json::array();
    noGpu["gemm_skipped"] = "no usable GPU: no NVIDIA driver is loaded";
    auto cpu = parseBenchResults(noGpu, "run.json");
    ASSERT_TRUE(cpu.ok()) << cpu.error().message;
    const std::string cpuText = benchResultsToText(*cpu);
    EXPECT_NE(cpuText.find("Device: no usable GPU — no NVIDIA driver is loaded"), std::string::npos) << cpuText;
    EXPECT_NE(cpuText.find("skipped: no usable GPU: no NVIDIA driver is loaded"), std::string::npos) << cpuText;
}

TEST(CapacitySettings, RoundTripAndValidation) {
    CapacitySettings s;
    s.model = "qwen2.5-72b";
    s.gpu = "h200";
    s.gpus = 4;
    s.weights = "bf16";
    s.kv = "fp8";
    s.gpuUtilization = 0.9;
    s.contextTokens = 32768;
    s.overheadGiB = 3.5;
    const Json j = capacitySettingsToJson(s);
    EXPECT_EQ(j["gpu_utilization"], 0.9);
    EXPECT_EQ(j["context_tokens"], 32768);
    EXPECT_EQ(j["overhead_gib"], 3.5);
    auto back = parseCapacitySettings(j, "f.fp8cmp: field capacity");
    ASSERT_TRUE(back.ok()) << back.error().message;
    EXPECT_EQ(*back, s);

    const std::vector<std::pair<std::function<void(Json&)>, std::string>> bad = {
        {[](Json& x) { x["gpus"] = 0; }, "f.fp8cmp: field capacity.gpus must be at least 1"},
        {[](Json& x) { x["gpu_utilization"] = 0; }, "capacity.gpu_utilization must be a fraction in (0, 1]"},
        {[](Json& x) { x["gpu_utilization"] = 1.01; }, "capacity.gpu_utilization must be a fraction in (0, 1]"},
        {[](Json& x) { x["context_tokens"] = 0; }, "capacity.context_tokens must be at least 1"},
        {[](Json& x) { x["weights"] = "int4"; }, "capacity.weights must be \"bf16\" or \"fp8\", found \"int4\""},
        {[](Json& x) { x["kv"] = 8; }, "capacity.kv must be a string"},
        {[](Json& x) { x.erase("model"); }, "capacity.model is missing"},
        {[](Json& x) { x["overhead_gib"] = -1; }, "capacity.overhead_gib must be a number of GiB >= 0"},
    };
    for (const auto& [mutate, expected] : bad) {
        Json x = j;
        mutate(x);
        auto r = parseCapacitySettings(x, "f.fp8cmp: field capacity");
        ASSERT_FALSE(r.ok()) << expected;
        EXPECT_NE(r.error().message.find(expected), std::string::npos) << r.error().message;
    }
}

}  // namespace
}  // namespace fp8dash
