#include "fp8dash/gpu/kv_synthetic.h"

#include "kv_parallel.h"

#include <algorithm>
#include <cmath>
#include <random>
#include <sstream>
#include <stdexcept>

namespace fp8dash::gpu {
namespace {

// The stream of one (layer, head): seeded from the seed and both indices, so any head of any layer is generated on
// its own, in any order and on any thread.
std::mt19937_64 headStream(std::uint64_t seed, int layer, int head) {
    std::seed_seq sequence{static_cast<std::uint32_t>(seed), static_cast<std::uint32_t>(seed >> 32),
                           static_cast<std::uint32_t>(layer), static_cast<std::uint32_t>(head), 0x4b56u};
    return std::mt19937_64(sequence);
}

double logUniform(std::mt19937_64& rng, double lo, double hi) {
    std::uniform_real_distribution<double> u(std::log(lo), std::log(hi));
    return std::exp(u(rng));
}

}  // namespace

SyntheticKvSource::SyntheticKvSource(const KvShape& shape, std::uint64_t seed, const KvGeneratorOptions& options,
                                     int threads)
    : m_shape(shape), m_seed(seed), m_options(options), m_threads(threads) {
    if (shape.layers < 1 || shape.kvHeads < 1 || shape.headDim < 1 || shape.tokens < 1)
        throw std::invalid_argument("kv_quant: every dimension of the KV shape must be positive");
    if (shape.headDim % 2 != 0)
        throw std::invalid_argument("kv_quant: the synthetic cache needs an even head_dim (RoPE rotates pairs)");
}

std::string SyntheticKvSource::description() const {
    std::ostringstream out;
    out << "fp8dash synthetic cache, seed " << m_seed << ": keys with RoPE (theta " << m_options.ropeTheta << ") and "
        << m_options.keyOutlierChannels << " outlier channels per head, values Student-t(" << m_options.valueTailDof
        << ")";
    if (m_options.massiveLayer >= 0 && m_options.massiveLayer < m_shape.layers)
        out << ", layer " << m_options.massiveLayer << " x" << m_options.massiveGain << " (massive activations)";
    return out.str();
}

void SyntheticKvSource::loadLayer(int layer, int tokens, std::vector<float>& keys, std::vector<float>& values) {
    if (layer < 0 || layer >= m_shape.layers)
        throw std::invalid_argument("kv_quant: layer " + std::to_string(layer) + " is outside the synthetic cache's " +
                                    std::to_string(m_shape.layers) + " layers");
    if (tokens < 1 || tokens > m_shape.tokens)
        throw std::invalid_argument("kv_quant: the synthetic cache holds " + std::to_string(m_shape.tokens) +
                                    " tokens, not " + std::to_string(tokens));
    const std::size_t block = static_cast<std::size_t>(tokens) * static_cast<std::size_t>(m_shape.headDim);
    keys.resize(block * static_cast<std::size_t>(m_shape.kvHeads));
    values.resize(keys.size());
    detail::parallelFor(m_shape.kvHeads, m_threads, [&](int head) {
        const std::size_t offset = static_cast<std::size_t>(head) * block;
        generateHead(layer, head, tokens, keys.data() + offset, values.data() + offset);
    });
}

void SyntheticKvSource::generateHead(int layer, int head, int tokens, float* keys, float* values) const {
    const KvGeneratorOptions& o = m_options;
    const int dim = m_shape.headDim;
    const int half = dim / 2;
    const auto udim = static_cast<std::size_t>(dim);
    std::mt19937_64 rng = headStream(m_seed, layer, head);
    std::normal_distribution<double> normal(0.0, 1.0);

    // Log-spaced so the first and last layers sit at the two ends of the range whatever the seed.
    const double t = m_shape.layers > 1 ? static_cast<double>(layer) / (m_shape.layers - 1) : 0.5;
    double gain = std::exp(std::log(o.layerGainMin) + t * (std::log(o.layerGainMax) - std::log(o.layerGainMin)));
    gain *= logUniform(rng, o.headGainMin, o.headGainMax);
    if (layer == o.massiveLayer) gain *= o.massiveGain;

    // Keys' channel offsets and spreads, then the outlier channels among the lowest RoPE frequencies: pair indices
    // i in [dim/4, dim/2) and their partners i + dim/2.
    std::vector<double> keyMean(udim);
    std::vector<double> keySpread(udim, o.keyStd);
    for (double& m : keyMean) m = normal(rng) * o.keyMeanStd;
    std::vector<int> lowFrequency;
    for (int i = half / 2; i < half; ++i) {
        lowFrequency.push_back(i);
        lowFrequency.push_back(i + half);
    }
    const int outliers = std::clamp(o.keyOutlierChannels, 0, static_cast<int>(lowFrequency.size()));
    for (int k = 0; k < outliers; ++k) {
        // A partial Fisher-Yates shuffle: k-th pick from the ones not yet taken.
        std::uniform_int_distribution<std::size_t> pick(static_cast<std::size_t>(k), lowFrequency.size() - 1);
        std::swap(lowFrequency[static_cast<std::size_t>(k)], lowFrequency[pick(rng)]);
        const auto c = static_cast<std::size_t>(lowFrequency[static_cast<std::size_t>(k)]);
        const double magnitude = logUniform(rng, o.keyOutlierMin, o.keyOutlierMax) * o.keyStd;
        keyMean[c] = (rng() & 1u) ? magnitude : -magnitude;
        keySpread[c] = o.keyOutlierSpread * magnitude;
    }
    std::vector<double> valueMean(udim);
    for (double& m : valueMean) m = normal(rng) * o.valueMeanStd;
    std::student_t_distribution<double> studentT(o.valueTailDof);
    const double unitT = o.valueTailDof > 2 ? std::sqrt((o.valueTailDof - 2) / o.valueTailDof) : 1.0;

    std::vector<double> inverseFrequency(static_cast<std::size_t>(half));
    for (int i = 0; i < half; ++i)
        inverseFrequency[static_cast<std::size_t>(i)] = std::pow(o.ropeTheta, -2.0 * i / dim);

    std::vector<double> raw(udim);
    for (int token = 0; token < tokens; ++token) {
        float* k = keys + static_cast<std::size_t>(token) * udim;
        float* v = values + static_cast<std::size_t>(token) * udim;
        for (std::size_t c = 0; c < udim; ++c) raw[c] = gain * (keyMean[c] + keySpread[c] * normal(rng));
        for (std::size_t c = 0; c < udim; ++c)
            v[c] = roundToBf16(static_cast<float>(gain * o.valueStd * (valueMean[c] + studentT(rng) * unitT)));
        for (int i = 0; i < half; ++i) {
            const double angle = token * inverseFrequency[static_cast<std::size_t>(i)];
            const double c = std::cos(angle);
            const double s = std::sin(angle);
            const double x = raw[static_cast<std::size_t>(i)];
            const double y = raw[static_cast<std::size_t>(i + half)];
            k[i] = roundToBf16(static_cast<float>(x * c - y * s));
            k[i + half] = roundToBf16(static_cast<float>(x * s + y * c));
        }
    }
}

}  // namespace fp8dash::gpu
