// linearLayerShapes (bench.h): the llama-3.1-8b GEMMs against shapes worked out by hand from its config.json
// (hidden 4096, 32 heads, 8 kv heads, head_dim 128, intermediate 14336).
#include "fp8dash/gpu/bench.h"

#include <gtest/gtest.h>

#include <stdexcept>
#include <vector>

namespace fp8dash::gpu {
namespace {

struct Expected {
    const char* layer;
    int m;
    int n;
    int k;
};

TEST(LinearLayerShapes, Llama31_8bByHand) {
    const std::vector<int> tokens{1, 512};
    const std::vector<GemmShape> shapes = linearLayerShapes(kLlama31_8bDims, tokens, true);
    // qkv: (32 + 2 * 8) * 128 = 6144 outputs; o: 32 * 128 = 4096 inputs; gate_up: 2 * 14336 = 28672 outputs.
    const Expected expected[] = {
        {"qkv", 1, 6144, 4096},   {"qkv", 512, 6144, 4096},    {"o", 1, 4096, 4096},
        {"o", 512, 4096, 4096},   {"gate_up", 1, 28672, 4096}, {"gate_up", 512, 28672, 4096},
        {"down", 1, 4096, 14336}, {"down", 512, 4096, 14336},  {"square", 8192, 8192, 8192},
    };
    ASSERT_EQ(shapes.size(), std::size(expected));
    for (std::size_t i = 0; i < shapes.size(); ++i) {
        SCOPED_TRACE(i);
        EXPECT_EQ(shapes[i].layer, expected[i].layer);
        EXPECT_EQ(shapes[i].m, expected[i].m);
        EXPECT_EQ(shapes[i].n, expected[i].n);
        EXPECT_EQ(shapes[i].k, expected[i].k);
    }
    // 2 * 512 * 28672 * 4096 = 120,259,084,288 FLOP for one gate_up GEMM at 512 tokens.
    EXPECT_DOUBLE_EQ(shapes[5].flops(), 120259084288.0);
}

TEST(LinearLayerShapes, WithoutSquareAndWithNoTokens) {
    const std::vector<int> tokens{8};
    const std::vector<GemmShape> shapes = linearLayerShapes(kLlama31_8bDims, tokens, false);
    ASSERT_EQ(shapes.size(), 4u);
    EXPECT_EQ(shapes.back().layer, "down");
    const std::vector<GemmShape> onlySquare = linearLayerShapes(kLlama31_8bDims, {}, true);
    ASSERT_EQ(onlySquare.size(), 1u);
    EXPECT_EQ(onlySquare[0].layer, "square");
}

TEST(LinearLayerShapes, RejectsBadDimensions) {
    const std::vector<int> good{1};
    const std::vector<int> zero{1, 0};
    EXPECT_THROW(linearLayerShapes(kLlama31_8bDims, zero, false), std::invalid_argument);
    LinearDims dims = kLlama31_8bDims;
    dims.kvHeads = 0;
    EXPECT_THROW(linearLayerShapes(dims, good, false), std::invalid_argument);
    dims = kLlama31_8bDims;
    dims.heads = 1 << 24;  // (2^24 + 16) * 128 = 2^31 + 2048 > INT_MAX
    EXPECT_THROW(linearLayerShapes(dims, good, false), std::invalid_argument);
}

}  // namespace
}  // namespace fp8dash::gpu
