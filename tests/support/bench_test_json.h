#pragma once
// Benchmark runs as the comparison file keeps them (gpu/'s JSON, the "benchmarks" section), with figures the tests
// choose: one row of each kind, an H200's device record, and a whole run around them. Header-only; needs
// nlohmann-json (through core's Json).

#include <cstdint>
#include <string>

#include "fp8dash/core/lm_eval_results.h"

namespace fp8dash::test {

// One GEMM row: measured unless `skipped` gives the reason. Its median is the one its TFLOP/s come from (2mnk FLOP at
// that rate), as gpu/ writes it: fp8dash computes the figures again from the median when it reads a run (issue 26), so
// a row's TFLOP/s, % of roof and speedup must agree with its median (to 0.5 %) to be shown as given.
inline Json benchGemmRow(const std::string& layer, int m, int n, int k, const std::string& precision, double tflops,
                         double roofTflops, double percentOfRoof, double speedup, bool fastAccum = false,
                         const std::string& skipped = "") {
    return Json{{"layer", layer},
                {"m", m},
                {"n", n},
                {"k", k},
                {"precision", precision},
                {"fast_accum", fastAccum},
                {"skipped", skipped},
                {"samples", skipped.empty() ? 40 : 0},
                {"throttled_samples", 0},
                {"median_s", tflops > 0 ? 2.0 * m * n * k / (tflops * 1e12) : 1e-4},
                {"noise", 0.004},
                {"converged", true},
                {"algorithms_tried", 8},
                {"tflops", tflops},
                {"bytes_per_s", 1e12},
                {"roof_tflops", skipped.empty() ? Json(roofTflops) : Json(nullptr)},
                {"bound", skipped.empty() ? "compute" : ""},
                {"percent_of_roof", percentOfRoof},
                {"speedup_vs_bf16", speedup}};
}

inline Json benchBandwidthRow(const std::string& kernel, std::uint64_t bytes, double bytesPerSecond,
                              double percentOfPeak, double noise) {
    return Json{{"kernel", kernel},
                {"bytes", bytes},
                {"skipped", ""},
                {"samples", 20},
                {"noise", noise},
                {"converged", true},
                {"bytes_per_s", bytesPerSecond},
                {"percent_of_peak", percentOfPeak}};
}

// One point of the KV-cache error sweep as fp8dash writes it now (the KV sweep contract): K's error is 1.1 and V's 0.9
// times the combined one; the attention-weight TVD is half the attention-output error and its worst row the error
// itself; scales [1.0] for none, one per layer (one layer here) for per_tensor, one per (layer, head) (two heads)
// for per_head; a synthetic source of 1 layer x 2 KV heads x 4096 tokens x 128.
inline Json benchKvRow(const std::string& scaling, int context, double relRmse, double attnOutRelRmse,
                       std::uint64_t keySaturated = 0, std::uint64_t valueSaturated = 0) {
    const Json scales = scaling == "none"         ? Json::array({1.0})
                        : scaling == "per_tensor" ? Json::array({0.05})
                                                  : Json::array({0.02, 0.03});
    return Json{{"scaling", scaling},
                {"context", context},
                {"source",
                 {{"kind", "synthetic"},
                  {"description", "synthetic cache, seed 1"},
                  {"shape", Json::array({1, 2, 4096, 128})}}},
                {"rel_rmse", relRmse},
                {"max_abs_error", 0.5},
                {"cosine", 0.9995},
                {"key",
                 {{"rel_rmse", relRmse * 1.1},
                  {"max_abs_error", 0.5},
                  {"cosine", 0.999},
                  {"saturated", keySaturated},
                  {"scales", scales}}},
                {"value",
                 {{"rel_rmse", relRmse * 0.9},
                  {"max_abs_error", 0.25},
                  {"cosine", 0.999},
                  {"saturated", valueSaturated},
                  {"scales", scales}}},
                {"attn_out_rel_rmse", attnOutRelRmse},
                {"attn_out_cosine", 0.9998},
                {"attn_weight_tvd", attnOutRelRmse * 0.5},
                {"attn_weight_tvd_max", attnOutRelRmse},
                {"attn_entropy", 3.25},
                {"elements", 1048576},
                {"seconds", 0.002},
                {"elements_per_s", 5e8}};
}

// A row as fp8dash before the KV sweep contract wrote it: attn_rel_error, no saturation, scales, attention figures or
// source.
inline Json benchKvLegacyRow(const std::string& scaling, int context, double relRmse, double attnRelError) {
    return Json{{"scaling", scaling},
                {"context", context},
                {"rel_rmse", relRmse},
                {"max_abs_error", 0.5},
                {"cosine", 0.9995},
                {"key", {{"rel_rmse", relRmse * 1.1}, {"max_abs_error", 0.5}, {"cosine", 0.999}}},
                {"value", {{"rel_rmse", relRmse * 0.9}, {"max_abs_error", 0.25}, {"cosine", 0.999}}},
                {"attn_rel_error", attnRelError},
                {"elements", 1048576},
                {"elements_per_s", 5e8}};
}

inline Json h200Device() {
    return {{"available", true},
            {"name", "NVIDIA H200"},
            {"compute_capability", "9.0"},
            {"memory_bytes", 150754820096ull},
            {"reason", ""},
            {"backend", "cuda"},
            {"driver_version", 13000},
            {"runtime_version", 13000},
            {"multiprocessors", 132},
            {"fp8_supported", true},
            {"peak",
             {{"name", "NVIDIA H200 SXM"},
              {"fp8_dense_tflops", 1979.0},
              {"bf16_dense_tflops", 989.0},
              {"memory_bandwidth_gbps", 4800.0}}}};
}

// A whole run on the H200 of llama-3.1-8b's shapes, created 2026-11-29T14:03:05Z, with the given rows.
inline Json h200Run(Json gemm, Json bandwidth, Json kv, Json kvKernel = Json::array(), Json warnings = Json::array()) {
    Json j;
    j["created"] = "2026-11-29T14:03:05Z";
    j["backend"] = "cuda";
    j["model"] = "llama-3.1-8b";
    j["device"] = h200Device();
    j["gemm"] = std::move(gemm);
    j["gemm_skipped"] = "";
    j["bandwidth"] = std::move(bandwidth);
    j["bandwidth_skipped"] = "";
    j["kv"] = std::move(kv);
    j["kv_backend"] = "cuda";
    j["kv_kernel"] = std::move(kvKernel);
    j["kv_skipped"] = "";
    j["warnings"] = std::move(warnings);
    j["cancelled"] = false;
    return j;
}

// The GEMM rows most tests use: qkv and o at M = 1 and 128, BF16 and FP8, with these figures.
inline Json h200QkvAndOGemmRows() {
    return Json::array({benchGemmRow("qkv", 1, 6144, 4096, "bf16", 0.9, 4.7, 19.1, 0),
                        benchGemmRow("qkv", 1, 6144, 4096, "fp8_e4m3", 1.6, 9.4, 17.0, 1.78),
                        benchGemmRow("qkv", 128, 6144, 4096, "bf16", 512.34, 760.1, 67.4, 0),
                        benchGemmRow("qkv", 128, 6144, 4096, "fp8_e4m3", 958.1, 1450.2, 66.1, 1.87),
                        benchGemmRow("o", 1, 4096, 4096, "bf16", 0.8, 4.7, 17.0, 0),
                        benchGemmRow("o", 1, 4096, 4096, "fp8_e4m3", 1.5, 9.3, 16.1, 1.88),
                        benchGemmRow("o", 128, 4096, 4096, "bf16", 430.0, 740.0, 58.1, 0),
                        benchGemmRow("o", 128, 4096, 4096, "fp8_e4m3", 700.0, 1400.0, 50.0, 1.63)});
}

// Three scalings at 1K and 4K tokens; scale 1.0 (none) saturates 12 keys at 1K and 40 keys and 3 values at 4K.
inline Json h200KvRows() {
    return Json::array({benchKvRow("none", 1024, 0.03, 0.021, 12, 0), benchKvRow("none", 4096, 0.031, 0.024, 40, 3),
                        benchKvRow("per_tensor", 1024, 0.027, 0.019), benchKvRow("per_tensor", 4096, 0.027, 0.0203),
                        benchKvRow("per_head", 1024, 0.026, 0.018), benchKvRow("per_head", 4096, 0.026, 0.0185)});
}

}  // namespace fp8dash::test
