// linearLayerShapes (bench.h): the GEMMs of one decoder block's linear layers, for core and the Qt-free runner alike.
#include "fp8dash/gpu/bench.h"

#include <climits>
#include <cstdint>
#include <stdexcept>
#include <string>

namespace fp8dash::gpu {
namespace {

int checkedProduct(std::int64_t a, std::int64_t b, const char* what) {
    const std::int64_t product = a * b;  // both are positive ints: the product fits in 64 bits
    if (product > INT_MAX)
        throw std::invalid_argument(std::string("linearLayerShapes: ") + what + " does not fit in an int");
    return static_cast<int>(product);
}

void requirePositive(int value, const char* field) {
    if (value < 1)
        throw std::invalid_argument(std::string("linearLayerShapes: ") + field + " must be positive, got " +
                                    std::to_string(value));
}

}  // namespace

std::vector<GemmShape> linearLayerShapes(const LinearDims& dims, std::span<const int> tokens, bool square) {
    requirePositive(dims.hidden, "hidden");
    requirePositive(dims.heads, "heads");
    requirePositive(dims.kvHeads, "kvHeads");
    requirePositive(dims.headDim, "headDim");
    requirePositive(dims.intermediate, "intermediate");
    for (int t : tokens) requirePositive(t, "tokens");

    const int qkvN = checkedProduct(static_cast<std::int64_t>(dims.heads) + 2 * static_cast<std::int64_t>(dims.kvHeads),
                                    dims.headDim, "(heads + 2 kvHeads) headDim");
    const int attentionWidth = checkedProduct(dims.heads, dims.headDim, "heads headDim");
    const int gateUpN = checkedProduct(2, dims.intermediate, "2 intermediate");

    struct Layer {
        const char* name;
        int n;
        int k;
    };
    const Layer layers[] = {
        {"qkv", qkvN, dims.hidden},
        {"o", dims.hidden, attentionWidth},
        {"gate_up", gateUpN, dims.hidden},
        {"down", dims.hidden, dims.intermediate},
    };

    std::vector<GemmShape> shapes;
    shapes.reserve(std::size(layers) * tokens.size() + 1);
    for (const Layer& layer : layers) {
        for (int t : tokens) shapes.push_back(GemmShape{layer.name, t, layer.n, layer.k});
    }
    if (square) shapes.push_back(GemmShape{"square", 8192, 8192, 8192});
    return shapes;
}

}  // namespace fp8dash::gpu
