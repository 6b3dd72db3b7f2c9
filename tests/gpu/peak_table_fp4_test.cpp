// The peak table's Blackwell entries and the FP4 tensor-core fact (issue 41): the figures as the datasheets print
// them (dense = "with sparsity" / 2), looked up by key and by the CUDA device name; hasFp4TensorCores by compute
// capability and by name.
#include "fp8dash/gpu/peak_table.h"

#include <gtest/gtest.h>

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

}  // namespace
}  // namespace fp8dash::gpu
