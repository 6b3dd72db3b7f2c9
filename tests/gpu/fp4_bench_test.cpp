// The FP4 GEMM rows' arithmetic and JSON, and the peak table's Blackwell entries and the FP4 tensor-core fact (issue
// 41): the figures as the datasheets print them (dense = "with sparsity" / 2), looked up by key and by the CUDA device
// name; hasFp4TensorCores by compute capability and by name.
#include "fp8dash/gpu/bench.h"
#include "fp8dash/gpu/peak_table.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

namespace fp8dash::gpu {
namespace {

TEST(PeakTableFp4, BlackwellGpusWithDatasheetFigures) {
    struct Case {
        const char* name;
        const char* key;
        double fp8, bf16, fp4, bandwidthGBps, memoryGB;
        int major, minor;
    };
    // Sparse datasheet figures halved: B200 FP8 9,000 -> 4,500, FP4 18,000 -> 9,000; GB200 rack FP4 1,440 PF / 72
    // GPUs = 20,000 -> 10,000; RTX 5090 3,352 AI TOPS -> 1,676; RTX PRO 6000 4,000 AI TOPS -> 2,000.
    const Case cases[] = {
        {"NVIDIA B200", "b200", 4500, 2250, 9000, 7700, 180, 10, 0},
        {"NVIDIA GB200", "gb200", 5000, 2500, 10000, 8000, 186, 10, 0},
        {"NVIDIA B300", "b300", 4500, 2250, 13125, 7700, 270, 10, 3},
        {"NVIDIA RTX PRO 6000 Blackwell Server Edition", "rtx-pro-6000", 1000, 500, 2000, 1792, 96, 12, 0},
        {"NVIDIA RTX PRO 6000 Blackwell Workstation Edition", "rtx-pro-6000", 1000, 500, 2000, 1792, 96, 12, 0},
        {"NVIDIA GeForce RTX 5090", "rtx-5090", 419, 209.5, 1676, 1792, 32, 12, 0},
    };
    for (const Case& c : cases) {
        for (const char* lookup : {c.name, c.key}) {
            const auto p = findPeakSpec(lookup);
            ASSERT_TRUE(p.has_value()) << lookup;
            EXPECT_EQ(p->key, c.key) << lookup;
            EXPECT_DOUBLE_EQ(p->fp8DenseTflops, c.fp8) << lookup;
            EXPECT_DOUBLE_EQ(p->bf16DenseTflops, c.bf16) << lookup;
            EXPECT_DOUBLE_EQ(p->fp4DenseTflops, c.fp4) << lookup;
            EXPECT_DOUBLE_EQ(p->memoryBandwidthGBps, c.bandwidthGBps) << lookup;
            EXPECT_DOUBLE_EQ(p->memoryGB, c.memoryGB) << lookup;
            EXPECT_TRUE(p->fp4TensorCores) << lookup;
            EXPECT_EQ(p->computeMajor, c.major) << lookup;
            EXPECT_EQ(p->computeMinor, c.minor) << lookup;
            EXPECT_FALSE(p->source.empty()) << lookup;
            EXPECT_TRUE(hasFp4TensorCores(lookup)) << lookup;
        }
        // Blackwell tensor math: FP4 at least twice FP8 (B300 and GB200's FP4 more than that), FP8 twice BF16.
        EXPECT_GE(c.fp4 / c.fp8, 2.0) << c.key;
        EXPECT_DOUBLE_EQ(c.fp8 / c.bf16, 2.0) << c.key;
    }
}

TEST(PeakTableFp4, EveryEntrySaysWhetherItHasFp4TensorCores) {
    int withFp4 = 0;
    for (const PeakSpec& p : peakTable()) {
        EXPECT_EQ(p.fp4TensorCores, p.computeMajor >= 10) << p.key;
        EXPECT_EQ(p.fp4TensorCores, p.fp4DenseTflops > 0) << p.key;
        EXPECT_GE(p.computeMajor * 10 + p.computeMinor, 89) << p.key << ": every entry has FP8 tensor cores";
        EXPECT_EQ(hasFp4TensorCores(p.key), p.fp4TensorCores) << p.key;
        withFp4 += p.fp4TensorCores ? 1 : 0;
    }
    EXPECT_EQ(withFp4, 5);  // B200, GB200, B300, RTX PRO 6000, RTX 5090
    for (const char* hopperOrAda : {"h100-sxm", "NVIDIA H100 80GB HBM3", "h200", "l40s", "rtx-4090", "rtx-6000-ada"})
        EXPECT_FALSE(hasFp4TensorCores(hopperOrAda)) << hopperOrAda;
    EXPECT_FALSE(hasFp4TensorCores("NVIDIA A100-SXM4-80GB"));  // unknown to the table: false
    EXPECT_FALSE(hasFp4TensorCores(""));
    EXPECT_FALSE(findPeakSpec("NVIDIA RTX PRO 6000 Blackwell Max-Q Workstation Edition").has_value());  // slower part
}

TEST(PeakTableFp4, ByComputeCapability) {
    EXPECT_FALSE(hasFp4TensorCores(8, 0));  // A100
    EXPECT_FALSE(hasFp4TensorCores(8, 9));  // Ada
    EXPECT_FALSE(hasFp4TensorCores(9, 0));  // Hopper
    EXPECT_TRUE(hasFp4TensorCores(10, 0));  // B200, GB200
    EXPECT_TRUE(hasFp4TensorCores(10, 3));  // B300
    EXPECT_TRUE(hasFp4TensorCores(11, 0));  // Thor
    EXPECT_TRUE(hasFp4TensorCores(12, 0));  // RTX 50xx, RTX PRO 6000 Blackwell
    EXPECT_TRUE(hasFp4TensorCores(12, 1));  // DGX Spark
}

TEST(Fp4Gemm, NamesBytesAndBlockScaleLayout) {
    for (GemmPrecision p : {GemmPrecision::Bf16, GemmPrecision::Fp8E4m3, GemmPrecision::Nvfp4, GemmPrecision::Mxfp4})
        EXPECT_EQ(parseGemmPrecision(gemmPrecisionName(p)), p);
    EXPECT_STREQ(gemmPrecisionName(GemmPrecision::Nvfp4), "nvfp4_e2m1");
    EXPECT_STREQ(gemmPrecisionName(GemmPrecision::Mxfp4), "mxfp4_e2m1");
    EXPECT_FALSE(parseGemmPrecision("fp4").has_value());
    EXPECT_TRUE(gemmIsFp4(GemmPrecision::Nvfp4));
    EXPECT_FALSE(gemmIsFp4(GemmPrecision::Fp8E4m3));
    EXPECT_DOUBLE_EQ(gemmInputBytes(GemmPrecision::Nvfp4), 9.0 / 16);   // 4 bits + 8 bits / 16
    EXPECT_DOUBLE_EQ(gemmInputBytes(GemmPrecision::Mxfp4), 17.0 / 32);  // 4 bits + 8 bits / 32
    // cuBLASLt's tiled scale layout: rows padded to 128, K / block to 4. 6144 x 4096 NVFP4: 6144 x 256 scales;
    // 64 rows x K 96: 128 x (6 -> 8) with 16-value blocks, 128 x (3 -> 4) with 32-value blocks.
    EXPECT_EQ(gemmBlockScaleBytes(GemmPrecision::Nvfp4, 6144, 4096), 6144u * 256u);
    EXPECT_EQ(gemmBlockScaleBytes(GemmPrecision::Nvfp4, 64, 96), 128u * 8u);
    EXPECT_EQ(gemmBlockScaleBytes(GemmPrecision::Mxfp4, 64, 96), 128u * 4u);
    EXPECT_EQ(gemmBlockScaleBytes(GemmPrecision::Fp8E4m3, 64, 96), 0u);
}

TEST(Fp4Gemm, RoofUsesTheFp4Peak) {
    const auto b200 = findPeakSpec("b200");
    ASSERT_TRUE(b200.has_value());
    // 8192^3 in NVFP4: 2 x 8192^3 FLOP over 8192^2 x (2 x 0.5625 + 2) bytes = 5242.88 FLOP/byte; x 7,700 GB/s =
    // 40,370 TFLOP/s of bandwidth roof, above the 9,000 FP4 peak: compute-bound at 9,000.
    const GemmRoof square = gemmRoof(GemmShape{"square", 8192, 8192, 8192}, GemmPrecision::Nvfp4, *b200);
    EXPECT_DOUBLE_EQ(square.attainableTflops, 9000.0);
    EXPECT_STREQ(square.bound, "compute");
    // Decode, M = 16, N = K = 8192: about 56 FLOP/byte x 7,700 GB/s = 434 TFLOP/s, far under 9,000: memory-bound.
    const GemmShape decode{"o", 16, 8192, 8192};
    const double bytes = 16.0 * 8192 * 0.5625 + 8192.0 * 8192 * 0.5625 + 16.0 * 8192 * 2;
    const GemmRoof roof = gemmRoof(decode, GemmPrecision::Nvfp4, *b200);
    EXPECT_STREQ(roof.bound, "memory");
    EXPECT_NEAR(roof.attainableTflops, 2.0 * 16 * 8192 * 8192 / bytes * 7700 / 1e3, 1e-9);
}

TEST(Fp4Gemm, JsonCarriesFp4RowsAndTheDeviceFact) {
    BenchReport r;
    r.backend = "cuda";
    DeviceInfo info;
    info.name = "NVIDIA GeForce RTX 5090";
    info.computeMajor = 12;
    info.computeMinor = 0;
    info.fp8Supported = true;
    r.device.devices = {info};
    r.peak = findPeakSpec(info.name);
    GemmResult row;
    row.shape = GemmShape{"qkv", 64, 6144, 4096};
    row.precision = GemmPrecision::Mxfp4;
    row.skipped = "cuBLASLt has no algorithm";
    r.gemm = {row};
    const auto j = nlohmann::json::parse(benchReportToJson(r));
    EXPECT_EQ(j["gemm"][0]["precision"], "mxfp4_e2m1");
    EXPECT_EQ(j["device"]["fp4_supported"], true);
    EXPECT_EQ(j["device"]["fp8_supported"], true);
    EXPECT_EQ(j["device"]["peak"]["fp4_dense_tflops"], 1676.0);
    info.computeMajor = 9;
    r.device.devices = {info};
    EXPECT_EQ(nlohmann::json::parse(benchReportToJson(r))["device"]["fp4_supported"], false);
}

}  // namespace
}  // namespace fp8dash::gpu
