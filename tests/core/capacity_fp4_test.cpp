// Capacity for FP4 checkpoints and the FP4 rows of the benchmark text (issue 41): NVFP4 and MXFP4 weight bytes worked
// out by hand from the model's shapes, and an NVFP4 checkpoint planned on a B200 and on an RTX 5090 from their figures
// (datasheet bandwidth and label, the memory the device reports), every expected number derived in the comments.
#include "fp8dash/core/capacity.h"
#include "fp8dash/core/local_bench.h"
#include "fp8dash/core/model_architecture.h"
#include "fp8dash/core/vllm_memory.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <string>

namespace fp8dash {
namespace {

constexpr double kGiB = 1073741824.0;

// Llama-3.1-8B (config.json: 32 layers, hidden 4096, 32 heads, 8 KV heads, head_dim 128, intermediate 14336, vocab
// 128256, untied). Linear weights a layer: q 4096x4096 + k, v 4096x1024 each + o 4096x4096 + gate, up, down
// 3 x 4096x14336 = 16,777,216 x 2 + 4,194,304 x 2 + 176,160,768 = 218,103,808; x 32 layers = 6,979,321,856.
// Always 16-bit: two RMSNorms a layer (2 x 4096 x 2 bytes x 32 = 524,288), the embedding and the LM head
// (128,256 x 4096 x 2 bytes = 1,050,673,152 each), the final norm (8,192 bytes).
constexpr std::uint64_t kLlama8bLinear = 6979321856ull;
constexpr std::uint64_t kLlama8bSixteenBit = 524288ull + 2 * 1050673152ull + 8192ull;  // 2,101,878,784

// Llama-3.1-70B (80 layers, hidden 8192, 64 heads, 8 KV heads, head_dim 128, intermediate 28672, vocab 128256):
// a layer's linear weights 67,108,864 x 2 + 8,388,608 x 2 + 3 x 234,881,024 = 855,638,016; x 80 = 68,451,041,280.
// 16-bit rest: norms 2 x 8192 x 2 x 80 = 2,621,440, embedding and LM head 128,256 x 8192 x 2 = 2,101,346,304 each,
// final norm 16,384.
constexpr std::uint64_t kLlama70bLinear = 68451041280ull;
constexpr std::uint64_t kLlama70bSixteenBit = 2621440ull + 2 * 2101346304ull + 16384ull;

TEST(CapacityFp4, WeightBytesAreFourAndAHalfAndFourAndAQuarterBits) {
    const ModelArchitecture* m = findModelPreset("llama-3.1-8b");
    ASSERT_NE(m, nullptr);
    // NVFP4: half a byte a weight + one E4M3 byte per 16 = 0.5625 bytes: 3,489,660,928 + 436,207,616.
    EXPECT_EQ(weightBytesOf(*m, WeightFormat::Nvfp4).total(m->layers), 3925868544ull + kLlama8bSixteenBit);
    EXPECT_EQ(kLlama8bLinear * 9 / 16, 3925868544ull);
    // MXFP4: + one UE8M0 byte per 32 = 0.53125 bytes: 3,489,660,928 + 218,103,808.
    EXPECT_EQ(weightBytesOf(*m, WeightFormat::Mxfp4).total(m->layers), 3707764736ull + kLlama8bSixteenBit);
    EXPECT_EQ(kLlama8bLinear * 17 / 32, 3707764736ull);
    // Between INT4 (a 16-bit scale per 128: 0.515625 bytes) and FP8 (1 byte).
    EXPECT_LT(weightBytesOf(*m, WeightFormat::Nvfp4).total(m->layers),
              weightBytesOf(*m, WeightFormat::Fp8).total(m->layers));
    EXPECT_GT(weightBytesOf(*m, WeightFormat::Mxfp4).total(m->layers),
              weightBytesOf(*m, WeightFormat::Int4W4A16).total(m->layers));
}

TEST(CapacityFp4, FormatNamesAndVllmQuantizationNames) {
    EXPECT_STREQ(weightFormatName(WeightFormat::Nvfp4), "nvfp4");
    EXPECT_STREQ(weightFormatName(WeightFormat::Mxfp4), "mxfp4");
    for (const char* name : {"nvfp4", "NVFP4", "modelopt_fp4", "nvfp4a16", "w4a4_nvfp4"})
        EXPECT_EQ(parseWeightFormat(name), WeightFormat::Nvfp4) << name;
    for (const char* name : {"mxfp4", "MXFP4", "mxfp4_w4a4"}) EXPECT_EQ(parseWeightFormat(name), WeightFormat::Mxfp4);
    EXPECT_FALSE(parseWeightFormat("fp4").has_value());  // which one? refused rather than guessed
    EXPECT_NE(weightFormatNamesText().find("nvfp4"), std::string::npos);
}

CapacityInputs fp4Inputs(const char* model, const char* gpu, int gpus) {
    CapacityInputs in;
    in.model = *findModelPreset(model);
    in.gpu = *findGpuPreset(gpu);
    in.gpus = gpus;
    in.weights = StorageDtype::Fp8;  // the stand-in dtype; the format says NVFP4
    in.weightFormat = WeightFormat::Nvfp4;
    in.kv = StorageDtype::Bf16;
    in.gpuUtilization = 0.92;
    in.overheadGiB = 2.0;
    in.contextTokens = 8192;
    return in;
}

// Llama-3.1-70B NVFP4 weights: 68,451,041,280 x 9/16 = 38,503,710,720 + 4,205,330,432 = 42,709,041,152 bytes.
// One B200 (reports 178.35 GiB; datasheet 180 GB, 7.7 TB/s, FP4 tensor cores): usable = 178.35 GiB x 0.92; KV =
// usable - weights - 2 GiB; a token's BF16 KV = 2 x 80 layers x 8 heads x 128 x 2 bytes = 327,680.
// One RTX 5090 (reports 31.4 GiB, datasheet 32 GB): 31.4 GiB x 0.92 = 31.0e9 < 42.7e9: the weights do not fit; two
// (tensor parallel) leave 2 x 31.4 GiB x 0.92 - weights - 2 x 2 GiB for KV.
TEST(CapacityFp4, Nvfp4CheckpointOnB200AndRtx5090FromTheirFigures) {
    const std::uint64_t weights = kLlama70bLinear * 9 / 16 + kLlama70bSixteenBit;
    ASSERT_EQ(weights, 42709041152ull);

    const auto b200 = planCapacity(fp4Inputs("llama-3.1-70b", "b200", 1));
    ASSERT_TRUE(b200.ok()) << b200.error().message;
    EXPECT_EQ(b200->inputs.gpu.datasheetMemoryGB, 180.0);
    EXPECT_TRUE(b200->inputs.gpu.fp4TensorCores);
    EXPECT_EQ(b200->weightsBytes, weights);
    const auto b200Bytes = static_cast<std::uint64_t>(std::llround(178.35 * kGiB));
    const auto b200Usable = static_cast<std::uint64_t>(std::llround(static_cast<long double>(b200Bytes) * 0.92L));
    const std::uint64_t b200Kv = b200Usable - weights - static_cast<std::uint64_t>(2 * kGiB);
    EXPECT_EQ(b200->usableBytes, b200Usable);
    EXPECT_EQ(b200->kvCacheBytes, b200Kv);
    EXPECT_EQ(b200->maxTokens, b200Kv / 327680);
    EXPECT_GT(b200->maxTokens, 400000u);  // 131.3e9 / 327,680: about 400,772 tokens, 48 sequences of 8K
    EXPECT_TRUE(b200->fits);

    const auto one5090 = planCapacity(fp4Inputs("llama-3.1-70b", "rtx-5090", 1));
    ASSERT_TRUE(one5090.ok()) << one5090.error().message;
    EXPECT_EQ(one5090->inputs.gpu.datasheetMemoryGB, 32.0);
    EXPECT_TRUE(one5090->inputs.gpu.fp4TensorCores);
    EXPECT_FALSE(one5090->fits);
    const auto rtxBytes = static_cast<std::uint64_t>(std::llround(31.4 * kGiB));
    const auto rtxUsable = static_cast<std::uint64_t>(std::llround(static_cast<long double>(rtxBytes) * 0.92L));
    EXPECT_EQ(one5090->shortfallBytes, weights + static_cast<std::uint64_t>(2 * kGiB) - rtxUsable);  // ~13.8 GB

    const auto two5090 = planCapacity(fp4Inputs("llama-3.1-70b", "rtx-5090", 2));
    ASSERT_TRUE(two5090.ok()) << two5090.error().message;
    const auto twoUsable = static_cast<std::uint64_t>(std::llround(static_cast<long double>(2 * rtxBytes) * 0.92L));
    const std::uint64_t twoKv = twoUsable - weights - static_cast<std::uint64_t>(4 * kGiB);
    EXPECT_TRUE(two5090->fits);
    EXPECT_EQ(two5090->kvCacheBytes, twoKv);
    EXPECT_EQ(two5090->maxTokens, twoKv / 327680);  // about 45,875 tokens

    // The 8B NVFP4 checkpoint fits one RTX 5090: 6,027,747,328 bytes of weights; a token is 131,072 bytes of KV.
    const auto small = planCapacity(fp4Inputs("llama-3.1-8b", "rtx-5090", 1));
    ASSERT_TRUE(small.ok()) << small.error().message;
    EXPECT_EQ(small->weightsBytes, 6027747328ull);
    EXPECT_EQ(small->maxTokens, (rtxUsable - 6027747328ull - static_cast<std::uint64_t>(2 * kGiB)) / 131072);
}

TEST(CapacityFp4, BlackwellPresetsKnowTheirFp4TensorCores) {
    struct Case {
        const char* name;
        bool fp4;
        double fp4Tflops;  // 0: none
    };
    const Case cases[] = {
        {"NVIDIA B200", true, 9000},
        {"gb200", true, 10000},
        {"b300", true, 13125},
        {"rtx-pro-6000", true, 2000},
        {"NVIDIA GeForce RTX 5090", true, 1676},
        {"NVIDIA H100 80GB HBM3", false, 0},
        {"h200", false, 0},
        {"rtx-4090", false, 0},
        {"a100-80gb", false, 0},
    };
    for (const Case& c : cases) {
        const auto g = findGpuPreset(c.name);
        ASSERT_TRUE(g.has_value()) << c.name;
        EXPECT_EQ(g->fp4TensorCores, c.fp4) << c.name;
        if (c.fp4Tflops > 0)
            EXPECT_EQ(g->fp4DenseTflops, c.fp4Tflops) << c.name;
        else
            EXPECT_FALSE(g->fp4DenseTflops.has_value()) << c.name;
    }
    // A live group is FP4-capable only when every GPU of it is (compute capability 10 or newer).
    LocalDeviceStatus status;
    status.available = true;
    status.gpus = {LocalGpu{"NVIDIA GeForce RTX 5090", 12, 0, 170, 34000000000ull, 33000000000ull, true},
                   LocalGpu{"NVIDIA GeForce RTX 4090", 8, 9, 128, 25000000000ull, 24000000000ull, true}};
    EXPECT_TRUE(gpuFromLocalDevices(status, 1)->fp4TensorCores);
    EXPECT_FALSE(gpuFromLocalDevices(status, 2)->fp4TensorCores);
}

// The benchmark text with the runner's FP4 rows: skipped on a Hopper GPU (one line says why, not a line a row), and
// measured on a B200 (NVFP4 / MXFP4 columns, the speed-up over BF16 re-derived from the medians).
Json fp4BenchReport(const char* device, const char* cc, const char* nvfp4Skipped, double nvfp4Median) {
    Json j = Json::parse(R"({
      "backend": "cuda", "model": "llama-3.1-8b",
      "device": {"available": true, "compute_capability": "", "memory_bytes": 1, "reason": "", "backend": "cuda",
                 "multiprocessors": 132, "fp8_supported": true, "peak": null},
      "gemm": [
        {"layer": "qkv", "m": 2048, "n": 6144, "k": 4096, "precision": "bf16", "skipped": "", "samples": 10,
         "median_s": 0.0002, "noise": 0.001, "converged": true, "tflops": 515.4, "roof_tflops": null},
        {"layer": "qkv", "m": 2048, "n": 6144, "k": 4096, "precision": "fp8_e4m3", "skipped": "", "samples": 10,
         "median_s": 0.0001, "noise": 0.001, "converged": true, "tflops": 1030.8, "roof_tflops": null},
        {"layer": "qkv", "m": 2048, "n": 6144, "k": 4096, "precision": "nvfp4_e2m1", "skipped": "", "samples": 10,
         "median_s": 0, "noise": 0.001, "converged": true, "tflops": 0, "roof_tflops": null},
        {"layer": "qkv", "m": 2048, "n": 6144, "k": 4096, "precision": "mxfp4_e2m1", "skipped": "", "samples": 0,
         "median_s": 0, "noise": 0, "converged": false, "tflops": 0, "roof_tflops": null}
      ],
      "gemm_skipped": "", "bandwidth": [], "bandwidth_skipped": "not requested", "kv": [], "kv_kernel": [],
      "kv_skipped": "not requested", "warnings": [], "cancelled": false
    })");
    j["device"]["name"] = device;
    j["device"]["compute_capability"] = cc;
    j["gemm"][2]["skipped"] = nvfp4Skipped;
    j["gemm"][2]["median_s"] = nvfp4Median;
    j["gemm"][3]["skipped"] = nvfp4Skipped[0] != 0 ? nvfp4Skipped : "cuBLASLt has no algorithm for it";
    return j;
}

TEST(CapacityFp4, BenchTextSaysFp4NeedsTensorCoresOnHopper) {
    const std::string why = "FP4: needs FP4 tensor cores (Blackwell); compute capability 9.0 has none (10.0 or newer)";
    const auto r = parseBenchResults(fp4BenchReport("NVIDIA H200", "9.0", why.c_str(), 0), "run.json");
    ASSERT_TRUE(r.ok()) << r.error().message;
    const std::string text = benchResultsToText(*r);
    EXPECT_NE(text.find("FP4: needs FP4 tensor cores (Blackwell): the NVFP4 and MXFP4 rows were not run on NVIDIA "
                        "H200"),
              std::string::npos)
        << text;
    EXPECT_EQ(text.find("skipped qkv M=2048 nvfp4_e2m1"), std::string::npos) << text;  // not once a row
    EXPECT_EQ(text.find("NVFP4    MXFP4"), std::string::npos) << text;                 // no FP4 columns
    EXPECT_EQ(r->gemm[1].speedupVsBf16, 2.0);                                          // FP8 as before
}

TEST(CapacityFp4, BenchTextShowsMeasuredFp4Columns) {
    // NVFP4 in 0.00005 s: 2 x 2048 x 6144 x 4096 / 5e-5 / 1e12 = 2061.6 TFLOP/s, 4.00x BF16's 0.0002 s.
    const auto r = parseBenchResults(fp4BenchReport("NVIDIA B200", "10.0", "", 0.00005), "run.json");
    ASSERT_TRUE(r.ok()) << r.error().message;
    ASSERT_EQ(r->gemm.size(), 4u);
    EXPECT_NEAR(r->gemm[2].tflops, 2.0 * 2048 * 6144 * 4096 / 5e-5 / 1e12, 1e-6);
    EXPECT_DOUBLE_EQ(r->gemm[2].speedupVsBf16, 4.0);
    // Arithmetic intensity with 0.5625 bytes an input value (E2M1 + an E4M3 scale per 16) and a BF16 output.
    const double bytes = 2048.0 * 4096 * 0.5625 + 6144.0 * 4096 * 0.5625 + 2048.0 * 6144 * 2;
    EXPECT_DOUBLE_EQ(r->gemm[2].arithmeticIntensity(), 2.0 * 2048 * 6144 * 4096 / bytes);
    const std::string text = benchResultsToText(*r);
    EXPECT_NE(text.find("NVFP4    MXFP4"), std::string::npos) << text;  // the columns' header
    EXPECT_NE(text.find("2061.6"), std::string::npos) << text;
    EXPECT_NE(text.find("skipped qkv M=2048 mxfp4_e2m1: cuBLASLt has no algorithm for it"), std::string::npos) << text;
    EXPECT_EQ(text.find("needs FP4 tensor cores"), std::string::npos) << text;
}

}  // namespace
}  // namespace fp8dash
