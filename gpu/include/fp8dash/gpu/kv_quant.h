#pragma once
// KV-cache quantisation experiment, CPU implementation: what storing the K/V cache as FP8 E4M3 (vLLM's
// `--kv-cache-dtype fp8`) costs in accuracy, by scaling mode and context length, against the BF16 cache it replaces.
//
// - K/V from a KvLayerSource (kv_source.h), one layer at a time: the realistic synthetic cache (kv_synthetic.h) or a
//   dump of a real model's cache.
// - E4M3 quantisation with Saturation::Finite (what vLLM's FP8 KV cache stores): code = E4M3(x / scale),
//   dequantised = decode(code) * scale, both in float as the kernels do.
// - Error metrics (relative RMSE, max abs error, cosine, saturated counts) and the attention's (output error
//   normalised by the exact outputs' RMS, softmax-row total variation, entropy) over causal query rows, all
//   accumulated in double.
//
// Layout of every cache here: [layer][kv_head][token][head_dim], row-major, so one (layer, head) is one contiguous
// block and a context of T tokens is the first T * head_dim floats of each block.
// Plain C++, no Qt, no CUDA. Every function is pure and reentrant (safe from any thread); runKvQuantSweep runs on
// the caller's thread and calls its progress callback there (its per-head work goes to its own worker threads), so
// a UI runs it on a worker thread.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "fp8dash/gpu/kv_interval.h"

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

// The synthetic cache's knobs (kv_synthetic.h generates it), in one place with a line each on why. Magnitudes are in
// the model's activation units (the BF16 values the cache would hold). The sources:
//  [KIVI]    Liu et al. 2024, "KIVI: A Tuning-Free Asymmetric 2bit Quantization for KV Cache", arXiv 2402.02750, §3.1
//            and Fig. 2: the key cache has a few fixed outlier *channels* of large magnitude; the value cache has no
//            fixed outlier channels.
//  [KVQuant] Hooper et al. 2024, "KVQuant", arXiv 2401.18079, §3.1 and Fig. 2: pre-RoPE keys have outlier channels
//            of consistently large magnitude, RoPE mixes each pair of channels by position; values are per-token.
//  [Llama3]  Llama 3 / 3.1 config.json: rope_theta 500000, head_dim 128, rotate_half pairs (i, i + head_dim/2).
//  [RoPE-LF] Barbero et al. 2025, "Round and Round We Go! What makes Rotary Positional Encodings useful?", ICLR 2025:
//            the large-norm key/query channels sit at the lowest RoPE frequencies.
//  [MassAct] Sun et al. 2024, "Massive Activations in Large Language Models", arXiv 2402.17762: a few activations
//            reach 100-1000x the median, in a few layers only.
// The defaults keep every |K| and |V| below 448 (as in most models, where a raw cast loses nothing to saturation);
// massiveLayer >= 0 makes one layer's values pass 448, the case where scale 1.0 saturates and `none` stands apart.
struct KvGeneratorOptions {
    float keyStd = 1.0f;             // spread of an ordinary pre-RoPE K channel (unit scale; the gains set the level)
    float keyMeanStd = 0.5f;         // per-channel offset of K, N(0, this): key channels have a fixed bias [KIVI]
    int keyOutlierChannels = 4;      // outlier channels per head (of 128), at the low RoPE frequencies [KIVI][RoPE-LF]
    float keyOutlierMin = 6.0f;      // their magnitude: offset +-[6, 16] x keyStd, log-uniform, about an order of
    float keyOutlierMax = 16.0f;     // magnitude above the ordinary channels, as KIVI Fig. 2 and KVQuant Fig. 2 plot
    float keyOutlierSpread = 0.25f;  // an outlier channel's spread relative to its offset: consistent across tokens
    double ropeTheta = 500000.0;     // RoPE base [Llama3]; keys are stored after RoPE, as vLLM's cache holds them
    float valueStd = 0.5f;           // spread of a V channel: values are smaller than keys in Llama-class models
    float valueMeanStd = 1.0f;       // per-channel offset of V, N(0, this x valueStd)
    double valueTailDof = 5.0;       // V noise is Student-t with this many degrees of freedom (heavier tails than a
                                     // normal, finite kurtosis), scaled to unit variance; no fixed channels [KIVI]
    float layerGainMin = 0.5f;       // per-layer gain, log-spaced from min (layer 0) to max (last layer): layers
    float layerGainMax = 2.0f;       // differ in scale, which per-layer scales absorb and scale 1.0 does not
    float headGainMin = 0.7f;        // per-(layer, head) gain, log-uniform in [min, max]: heads differ less than
    float headGainMax = 1.4f;        // layers, which is what per_head scaling can still buy
    int massiveLayer = -1;           // -1: off. A layer index: that layer's K and V are multiplied by massiveGain,
    float massiveGain = 40.0f;       // so its outlier keys reach ~|600|+ and tails of V pass 448 [MassAct]
};

// A K/V cache of one shape; keys and values each hold shape.elementsPerTensor() floats.
struct KvCache {
    KvShape shape;
    std::vector<float> keys;
    std::vector<float> values;
};

// float -> bfloat16 (round to nearest, ties to even) -> float. NaN stays NaN; infinities stay.
float roundToBf16(float value);

// The whole synthetic cache at once (SyntheticKvSource in kv_synthetic.h, every layer loaded): for tests and small
// shapes; the sweep loads one layer at a time instead. Throws std::invalid_argument for a non-positive dimension.
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

// The same rule for one layer (a cache with shape.layers == 1, all its loaded tokens): what the layer-by-layer sweep
// uses. Returns kvHeads key and value scales.
KvScales computeLayerKvScales(const KvCache& layer, KvScaling scaling, int calibrationTokens);

// Elements of one block with |x / scale| > 448 (the quotient in float, as the codec computes it): the values the
// codec clamps to 448 (Saturation::Finite). NaN is not counted.
std::uint64_t countSaturated(const float* data, std::size_t n, float scale);

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

    // Sized for the first `tokens` tokens of a cache of `cacheShape`, made with `scales` (the buffers keep their
    // capacity, so codes reused from point to point are not allocated again); the codes themselves are left as they
    // are.
    void resizeFor(const KvShape& cacheShape, const KvScales& codeScales, int tokens) {
        shape = cacheShape;
        shape.tokens = tokens;
        scales = codeScales;
        keys.resize(shape.elementsPerTensor());
        values.resize(shape.elementsPerTensor());
    }
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
    // Adds another accumulator's sums (max for the max): merging per-head accumulators in a fixed order gives the
    // same doubles whatever thread computed each head.
    void merge(const ErrorAccumulator& other);
    TensorError result() const;

private:
    double m_diffSquares = 0;
    double m_refSquares = 0;
    double m_approxSquares = 0;
    double m_dot = 0;
    double m_maxAbs = 0;
};

TensorError compareTensors(std::span<const float> reference, std::span<const float> approx);

// The sweep's attention measurement for one head and one context (kv_attention.cpp). Query rows sit at positions
// p_j = (j + 1) * context / rows - 1, j = 0 .. rows - 1 (rows = min(queryRows, context)), so the last row sees the
// whole context; each attends causally to tokens 0 .. p_j.
// The query of row p is beta * (k_p - mean(k_0 .. k_p)): the exact (BF16) key at the row's position less the mean
// key of the row's tokens. A dump holds no queries, and a head's query and key at one position are correlated in
// trained models (shared position through RoPE, shared content), so the key there is the stand-in, for synthetic
// data and dumps alike. The mean is removed because softmax ignores whatever is common to all logits, and the
// outlier channels' shared offset would otherwise dominate every dot product (and the logits' rounding error with
// it). beta, the temperature, is one per head, as in a trained head: set so that the reference row, at position
// r = min(temperatureTokens, context) - 1, has entropy min(targetEntropy, ln(r + 1) / 2) nats (safeguarded Newton on
// beta; entropy falls as beta grows), then used for every row, so rows over more tokens spread their weight as real
// attention does. The same query meets the FP8 keys (only the cache is quantised). All in double.
struct ExactAttention {
    int headDim = 0;
    double beta = 1;                           // the head's temperature
    std::vector<std::size_t> positions;        // each row's position p
    std::vector<std::vector<double>> queries;  // each row's scaled query (headDim values)
    std::vector<std::vector<double>> weights;  // each row's exact softmax (p + 1 values)
    std::vector<std::vector<double>> outputs;  // each row's exact output (headDim values)
    std::vector<double> entropies;             // each row's entropy (nats)
};

struct AttentionSums {
    double diffSquares = 0;  // sum over rows of ||o_fp8 - o_exact||^2
    double refSquares = 0;   // sum over rows of ||o_exact||^2
    double cosineSum = 0;    // sum over rows of cos(o_fp8, o_exact) (1 when both are zero)
    double tvdSum = 0;       // sum over rows of 1/2 sum_t |p_fp8_t - p_exact_t|
    double tvdMax = 0;       // the largest row TVD
    double entropySum = 0;   // sum over rows of -sum_t p_exact_t ln p_exact_t (nats)
    std::uint64_t rows = 0;

    void merge(const AttentionSums& other);
};

// keys/values: the exact head ([token][dim], at least context tokens). Throws std::invalid_argument for a
// non-positive context, headDim or queryRows, or inputs smaller than context * headDim.
ExactAttention exactAttention(std::span<const float> keys, std::span<const float> values, int context, int headDim,
                              int queryRows, double targetEntropy, int temperatureTokens);
// The same rows over the dequantised head (approxKeys/approxValues, same layout).
AttentionSums compareAttention(const ExactAttention& exact, std::span<const float> approxKeys,
                               std::span<const float> approxValues);

// One (scaling, context) point of the sweep.
struct KvQuantResult {
    KvScaling scaling = KvScaling::None;
    int context = 0;  // tokens
    TensorError key;  // over all layers and heads, the first `context` tokens
    TensorError value;
    TensorError combined;              // K and V together
    std::uint64_t keySaturated = 0;    // elements of K in this point's first `context` tokens with |x / scale| > 448
    std::uint64_t valueSaturated = 0;  // (counted before the codec clamps them to 448)
    KvScales scales;              // the scales used (per (layer, head); PerTensor repeats a layer's scale per head)
    double attnOutRelRmse = 0;    // sqrt(sum ||o_fp8 - o||^2 / sum ||o||^2) over every sampled query row of every layer
                                  // and head: attention-output error normalised by the RMS of the exact outputs.
                                  // THE HEADLINE FIGURE.
    double attnOutCosine = 1;     // mean over sampled query rows of cos(o_fp8, o)
    double attnWeightTvd = 0;     // mean over sampled query rows of 1/2 sum_t |p_fp8_t - p_t| (softmax rows, causal)
    double attnWeightTvdMax = 0;  // the worst sampled row
    double attnEntropy = 0;       // mean entropy (nats) of the exact softmax rows: how peaked attention is
    std::uint64_t attnRows = 0;   // query rows sampled, over every layer and head
    AttentionHeadSums attnHeads;  // the attention sums per (layer, head): the sampling units of the intervals
    KvInterval attnOutCi95;       // 95 % interval of attnOutRelRmse over the (layer, head) units (kv_interval.h)
    // This mode's attnOutRelRmse less per_tensor's at the same context, paired by head, with its 95 % interval; set
    // on the other modes' points when the sweep measured per_tensor too.
    std::optional<KvDifference> attnOutVsPerTensor;
    std::string sourceKind;         // "synthetic" or "dump" (KvLayerSource::kind())
    std::string sourceDescription;  // KvLayerSource::description()
    KvShape sourceShape;            // the source's full shape (tokens = all it holds)
    std::size_t elements = 0;       // K + V elements quantised for this point
    double seconds = 0;             // wall time of the quantise step alone (x / scale and encode), K and V, summed over
                                    // the layers; on the CPU the heads are quantised on all the sweep's threads
    double elementsPerSecond() const { return seconds > 0 ? static_cast<double>(elements) / seconds : 0; }
};

// Quantises the first `tokens` tokens of a cache with the given scales; the CPU's quantizeKv by default, the CUDA
// runner's kernel on a GPU (it must return the same codes, bit for bit). The sweep calls it once per (layer,
// scaling, context) with a one-layer cache (shape.layers == 1), from the sweep's thread.
using KvQuantizer = std::function<QuantizedKv(const KvCache& cache, const KvScales& scales, int tokens)>;

struct KvSweepConfig {
    KvShape shape;                                 // tokens is ignored: the cache holds max(contexts) tokens
    std::vector<int> contexts{1024, 4096, 16384};  // tokens; a small CPU default, any list works
    std::vector<KvScaling> scalings{KvScaling::None, KvScaling::PerTensor, KvScaling::PerHead};
    std::uint64_t seed = 1;
    int calibrationTokens = 1024;  // PerTensor's "first pass": the first prompt's tokens
    int queryRows = 32;            // sampled query rows per (layer, head, context), spread over the context. 32,
                                   // not 16: at 16K tokens one row's error can be many times another's, and 16 rows
                                   // left per_tensor's figure 6.0 % (95 % CI 2.6-14 %) against 4.1-4.5 % for the other
                                   // modes on the same cache; 32 rows cost ~20 % more sweep time
    double targetEntropy = 3.0;    // nats of each head's reference row (below): e^3 ~ 20 tokens' worth of weight out
                                   // of a thousand, the sparse rows H2O (Zhang et al. 2023, §3: >95% of the weights
                                   // near zero) and StreamingLLM (Xiao et al. 2024) report
    int temperatureTokens = 1024;  // each head's temperature is set on the row that sees the first this-many tokens
                                   // (or the whole context, when shorter) and kept for every row: longer rows then
                                   // spread their weight as a trained head does; attnEntropy reports what they reach
    int threads = 0;               // worker threads for the CPU work, split by head; 0 = all cores. Results are
                                   // bit-identical for any count (per-head sums merged in head order)
    KvGeneratorOptions generator;
    KvQuantizer quantizer;  // empty: quantizeKv on the CPU
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

// The whole experiment (kv_sweep.cpp), layer by layer: load one layer (max(contexts) tokens) from the source,
// compute each mode's scales from it, quantise each context, accumulate; memory is O(one layer). Steps are
// layers x scalings x contexts; progress after each, cancel between them. Every point sums over all layers, so a
// cancelled sweep returns no points. Deterministic except for the seconds, whatever config.threads is.
// Throws std::invalid_argument for an empty or non-positive context list, a bad shape, or a context longer than the
// source holds; KvSourceError from the source.
KvSweepResult runKvQuantSweep(const KvSweepConfig& config, const KvProgress& progress = {});

}  // namespace fp8dash::gpu
