#pragma once
// KV-cache quantisation experiment, CPU implementation: what storing the K/V cache as FP8 E4M3 (vLLM's
// `--kv-cache-dtype fp8`) costs in accuracy, by scaling mode and context length, against the BF16 cache it replaces.
//
// - A deterministic synthetic K/V cache (seeded std::mt19937_64) with outlier channels, rounded to BF16.
// - E4M3 quantisation with Saturation::Finite (what vLLM's FP8 KV cache stores): code = E4M3(x / scale),
//   dequantised = decode(code) * scale, both in float as the kernels do.
// - Error metrics (relative RMSE, max abs error, cosine) and the relative error of one attention output per head,
//   all accumulated in double.
//
// Layout of every cache here: [layer][kv_head][token][head_dim], row-major, so one (layer, head) is one contiguous
// block and a context of T tokens is the first T * head_dim floats of each block.
// Plain C++, no Qt, no CUDA. Every function is pure and reentrant (safe from any thread); runKvQuantSweep runs on
// the caller's thread and calls its progress callback there, so a UI runs it on a worker thread.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <vector>

namespace fp8dash::gpu {

class KvLayerSource;  // kv_source.h

enum class KvScaling {
    None,       // scale 1.0: vLLM without --calculate-kv-scales or checkpoint scales; |x| > 448 saturates to 448
    PerTensor,  // vLLM --calculate-kv-scales: one scale per layer, K = amax/200, V = amax/100, fixed after the
                // first pass (the calibration prefix), so later tokens may still saturate
    PerHead,    // one scale per (layer, kv_head) = amax/448 over the whole cache: an oracle, the upper bound of
                // what finer-grained scaling can buy
};

// "none", "per_tensor", "per_head".
const char* kvScalingName(KvScaling scaling);

// vLLM's divisors (vllm/envs.py K_SCALE_CONSTANT, V_SCALE_CONSTANT): the stored |K| max is ~200 and |V| max ~100,
// which leaves 2.24x / 4.48x headroom under 448 for tokens after the first pass.
inline constexpr float kVllmKeyScaleDivisor = 200.0f;
inline constexpr float kVllmValueScaleDivisor = 100.0f;

struct KvShape {
    int layers = 4;
    int kvHeads = 4;
    int headDim = 64;
    int tokens = 16384;

    // Floats in one of K or V: layers * kvHeads * tokens * headDim.
    std::size_t elementsPerTensor() const;
    // Offset of (layer, head, token, 0) in a cache of this shape.
    std::size_t offset(int layer, int head, int token) const;
};

// The synthetic data's knobs. Magnitudes are in the model's activation units (the BF16 values).
struct KvGeneratorOptions {
    float keyStd = 0.5f;             // standard deviation of an ordinary K channel before the gains
    float valueStd = 0.05f;          // ... of an ordinary V channel
    float layerGainMin = 0.25f;      // per-layer gain, log-spaced from min (layer 0) to max (last layer): wide
    float layerGainMax = 4.0f;       // enough that scale 1.0 meets both of its failure modes (see generateKvCache)
    float headGainMin = 0.5f;        // per-(layer, head) gain, log-uniform random in [min, max]
    float headGainMax = 2.0f;
    int outlierChannelsPerHead = 2;  // channels per head scaled up, chosen at random per (layer, head)
    float keyOutlierMin = 10.0f;     // K outlier channels: factor log-uniform in [10, 50]
    float keyOutlierMax = 50.0f;
    float valueOutlierMin = 2.0f;    // V outliers are milder
    float valueOutlierMax = 5.0f;
};

// A K/V cache of one shape; keys and values each hold shape.elementsPerTensor() floats.
struct KvCache {
    KvShape shape;
    std::vector<float> keys;
    std::vector<float> values;
};

// float -> bfloat16 (round to nearest, ties to even) -> float. NaN stays NaN; infinities stay.
float roundToBf16(float value);

// The synthetic cache: every value is N(0, std) * layer gain * head gain (* the outlier factor on outlier channels),
// then rounded to BF16. With the defaults the last layer's K outliers pass 448 (scale 1.0 saturates) and the first
// layers' V bulk sits below E4M3's smallest normal 2^-6 (scale 1.0 loses it to subnormals). Same shape, seed and
// options give the same cache on every platform with the same std::normal_distribution (libstdc++ here).
// Throws std::invalid_argument for a non-positive dimension.
KvCache generateKvCache(const KvShape& shape, std::uint64_t seed, const KvGeneratorOptions& options = {});

// Scales per (layer, kv_head), index layer * kvHeads + head; PerTensor repeats the layer's scale over its heads and
// None holds 1.0 everywhere, so quantisation needs one code path.
struct KvScales {
    KvScaling scaling = KvScaling::None;
    int kvHeads = 0;
    std::vector<float> key;
    std::vector<float> value;

    float keyScale(int layer, int head) const { return key[static_cast<std::size_t>(layer * kvHeads + head)]; }
    float valueScale(int layer, int head) const { return value[static_cast<std::size_t>(layer * kvHeads + head)]; }
};

// PerTensor: amax over the first calibrationTokens tokens (clamped to the cache) of each layer, divided by 200 (K)
// or 100 (V) in float, as vLLM's calc_kv_scales does. PerHead: amax over all tokens of the (layer, head) / 448.
// An all-zero block gets scale 1.0. Throws std::invalid_argument for calibrationTokens < 1.
KvScales computeKvScales(const KvCache& cache, KvScaling scaling, int calibrationTokens);

// One block: out[i] = E4M3 code of (in[i] / scale) with Saturation::Finite; and back: out[i] = decode(in[i]) * scale.
// n may be 0. Arrays must not overlap.
void quantizeKvBlock(const float* in, std::uint8_t* out, std::size_t n, float scale);
void dequantizeKvBlock(const std::uint8_t* in, float* out, std::size_t n, float scale);

// The first `tokens` tokens of a cache, quantised: codes in the same layout with shape.tokens == tokens.
struct QuantizedKv {
    KvShape shape;
    KvScales scales;
    std::vector<std::uint8_t> keys;
    std::vector<std::uint8_t> values;
};

// Throws std::invalid_argument when tokens is outside [1, cache.shape.tokens] or the scales do not fit the shape.
QuantizedKv quantizeKv(const KvCache& cache, const KvScales& scales, int tokens);
KvCache dequantizeKv(const QuantizedKv& quantized);

struct TensorError {
    double relRmse = 0;      // ||q - x|| / ||x|| (0 when both are zero)
    double maxAbsError = 0;  // max |q - x|, in the values' units
    double cosine = 1;       // <q, x> / (||q|| ||x||) (1 when both are zero)
};

// Sums in double over any number of blocks; add() the pairs, then result().
class ErrorAccumulator {
public:
    void add(std::span<const float> reference, std::span<const float> approx);
    TensorError result() const;

private:
    double m_diffSquares = 0;
    double m_refSquares = 0;
    double m_approxSquares = 0;
    double m_dot = 0;
    double m_maxAbs = 0;
};

TensorError compareTensors(std::span<const float> reference, std::span<const float> approx);

// softmax(q . K^T / sqrt(headDim)) . V in double for one head: keys and values hold tokens * headDim floats
// ([token][dim]), query headDim floats; returns headDim values. Throws std::invalid_argument for tokens < 1.
std::vector<double> attentionOutput(std::span<const float> query, std::span<const float> keys,
                                    std::span<const float> values, int tokens, int headDim);
// ||o_approx - o_ref|| / ||o_ref|| for the same query over two caches of one head.
double attentionRelativeError(std::span<const float> query, std::span<const float> refKeys,
                              std::span<const float> refValues, std::span<const float> approxKeys,
                              std::span<const float> approxValues, int tokens, int headDim);

// One (scaling, context) point of the sweep.
struct KvQuantResult {
    KvScaling scaling = KvScaling::None;
    int context = 0;             // tokens
    TensorError key;             // over all layers and heads, the first `context` tokens
    TensorError value;
    TensorError combined;        // K and V together
    double attnRelError = 0;     // attention-output relative error, mean over kv heads and the sampled layers
    std::size_t elements = 0;    // K + V elements quantised for this point
    double seconds = 0;          // wall time of the quantise step alone (x / scale and encode), K and V
    double elementsPerSecond() const { return seconds > 0 ? static_cast<double>(elements) / seconds : 0; }
};

// Quantises the first `tokens` tokens of a cache with the given scales; the CPU's quantizeKv by default, the CUDA
// runner's kernel on a GPU (it must return the same codes, bit for bit).
using KvQuantizer = std::function<QuantizedKv(const KvCache& cache, const KvScales& scales, int tokens)>;

struct KvSweepConfig {
    KvShape shape;                                  // tokens is ignored: the cache holds max(contexts) tokens
    std::vector<int> contexts{1024, 4096, 16384};   // tokens; a small CPU default, any list works
    std::vector<KvScaling> scalings{KvScaling::None, KvScaling::PerTensor, KvScaling::PerHead};
    std::uint64_t seed = 1;
    int calibrationTokens = 1024;  // PerTensor's "first pass": the first prompt's tokens
    int attentionLayers = 4;       // layers sampled for the attention error, evenly spaced (all when fewer)
    double logitStd = 3.0;         // each query is scaled so its BF16 attention logits have this standard deviation
    KvGeneratorOptions generator;
    KvQuantizer quantizer;         // empty: quantizeKv on the CPU
    // Where K and V come from: empty means the synthetic cache of `shape` (and `seed`, `generator`); a dump
    // (kv_dump.h) brings its own shape, and `shape` is then ignored.
    std::shared_ptr<KvLayerSource> source;
};

struct KvSweepResult {
    std::vector<KvQuantResult> results;  // scalings in config order, each over contexts in config order
    bool cancelled = false;
};

// Fraction done in [0, 1]; return false to stop. Called on the sweep's thread after each step.
using KvProgress = std::function<bool(double fraction)>;

// The whole experiment. Deterministic except for the seconds. A cancelled sweep returns the points finished so far.
// Throws std::invalid_argument for an empty or non-positive context list or a bad shape.
KvSweepResult runKvQuantSweep(const KvSweepConfig& config, const KvProgress& progress = {});

}  // namespace fp8dash::gpu
