#pragma once
// The synthetic K/V cache (the sweep's default source): what a Llama-class model's cache looks like, generated one
// layer at a time, each (layer, head) from its own seeded stream so a layer never needs the layers before it and the
// first T tokens are the same whatever count is loaded. KvGeneratorOptions (kv_quant.h) holds every parameter with
// its reason and source.
//
// Per (layer, head): gain g = layer gain (log-spaced over the layers) x head gain (log-uniform).
// - Keys, pre-RoPE: channel c = g * (mu_c + sigma_c * N(0, 1)); mu_c ~ N(0, keyMeanStd) for an ordinary channel,
//   +-[keyOutlierMin, keyOutlierMax] * keyStd for the keyOutlierChannels outlier channels (chosen among the lowest
//   RoPE frequencies), whose sigma is keyOutlierSpread * |mu_c|. Then RoPE as Llama applies it (rotate_half: channel
//   i pairs with i + headDim/2, angle = position * theta^(-2i/headDim)), in double, then rounded to BF16.
// - Values: channel c = g * valueStd * (mu_c + t_nu / sqrt(nu / (nu - 2))), mu_c ~ N(0, valueMeanStd), t_nu Student-t
//   (unit variance), rounded to BF16. No fixed outlier channels.
// - massiveLayer: that layer's K and V times massiveGain (values past 448).
// Deterministic for a seed on one standard library (std::normal_distribution and std::student_t_distribution are
// libstdc++'s here).
// Plain C++, no Qt, no CUDA.

#include "fp8dash/gpu/kv_quant.h"
#include "fp8dash/gpu/kv_source.h"

#include <cstdint>
#include <string>
#include <vector>

namespace fp8dash::gpu {

class SyntheticKvSource : public KvLayerSource {
public:
    // shape.tokens is how many tokens the source holds. threads: heads generated in parallel (0 = all cores); the
    // data does not depend on it. Throws std::invalid_argument for a non-positive dimension or an odd headDim
    // (RoPE rotates channel pairs).
    SyntheticKvSource(const KvShape& shape, std::uint64_t seed, const KvGeneratorOptions& options = {},
                      int threads = 0);

    KvShape shape() const override { return m_shape; }
    std::string kind() const override { return "synthetic"; }
    std::string description() const override;
    void loadLayer(int layer, int tokens, std::vector<float>& keys, std::vector<float>& values) override;

private:
    void generateHead(int layer, int head, int tokens, float* keys, float* values) const;

    KvShape m_shape;
    std::uint64_t m_seed;
    KvGeneratorOptions m_options;
    int m_threads;
};

}  // namespace fp8dash::gpu
