#pragma once
// Several FP8 variants against one baseline (README "Variants and layer steps"): each candidate compared with the
// baseline exactly as a two-run comparison (eval_comparison.h), the layer steps between two runs that differ in
// exactly one layer (BF16 -> W8A8, W8A8 -> W8A8 + FP8 KV, KV scales 1.0 -> calibrated) compared directly with the
// same machinery, and the recommendation: the most aggressive variant that passes. Pure functions over values;
// thread-safe.

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "fp8dash/core/eval_comparison.h"
#include "fp8dash/core/fp8_config.h"
#include "fp8dash/core/serving_comparison.h"
#include "fp8dash/core/verdict.h"

namespace fp8dash {

inline constexpr std::size_t kMaxCandidates = 8;

// When a variant passes (LLM Compressor's gate beside fp8dash's verdict): its overall verdict is at most `accept`
// and, with minRecoveryPct, every compared task's recovery is at least that (tasks without a recovery, a zero or
// negative baseline, are not held to it).
struct RecommendationOptions {
    Verdict accept = Verdict::Go;
    std::optional<double> minRecoveryPct;
    bool operator==(const RecommendationOptions&) const = default;
};

// One candidate's evidence against the baseline.
struct VariantEvidence {
    std::string label;
    ComparisonReport report;              // the candidate against the baseline, paired results and control applied
    std::optional<Verdict> judgeVerdict;  // the domain judge's verdict for this candidate, when scores were given
    std::string judgeReason;              // its first reason
};

// Two runs (the baseline is run 0, candidate k is run k) that differ in exactly one layer, in the direction that
// adds precision loss: `from` has the subset of low-precision layers (or, for KV scales, the scales 1.0).
struct LayerStepPlan {
    std::size_t from = 0;
    std::size_t to = 0;
    std::string layer;        // "weights", "kv_cache" or "kv_scales"
    std::string description;  // "adding the FP8 KV cache (scales 1.0)", "FP8 weights (W8A8)", "calibrated KV scales"
};
// The steps among the runs, in run order of `to`, then `from`. Runs with the same layers make no step.
std::vector<LayerStepPlan> findLayerSteps(const std::vector<Fp8Config>& runs);

struct LayerStepTask {
    std::string task;
    std::optional<double> deltaPct;
    std::optional<double> degradationPct;
    std::optional<ConfidenceInterval> lossCi95Pct;  // the interval of the loss (-delta where higher is better), %
    Verdict verdict = Verdict::Go;
    bool paired = false;   // the interval comes from the two runs' sample logs (else from lm-eval's standard errors)
    std::string sentence;  // "adding the FP8 KV cache (scales 1.0) costs 1.9% on gsm8k (95% CI 0.8–3.0%) on top of
                           // FP8 W8A8"
    // The answers `to` changed against `from` (paired logs only) and its sentence ("FP8 KV changed 3.0 % of the
    // answers: ...", changedAnswersSentence); empty when the logs were not paired or the counts are unknown.
    std::optional<ChangedAnswers> changed;
    std::string changedSentence;
};

struct LayerStep {
    LayerStepPlan plan;
    std::string fromLabel, toLabel;
    ComparisonReport report;  // `to` against `from`
    std::vector<LayerStepTask> tasks;
};

struct VariantResult {
    std::string label;
    Fp8Config config;
    ComparisonReport report;
    Verdict verdict = Verdict::Go;  // the evals' verdict, worst with the judge's when given
    std::optional<double> averageRecoveryPct;
    std::string worstTask;  // the task of the largest degradation; "" when every task improved or held
    std::optional<double> worstDegradationPct;
    bool passes = false;
    std::string failTask;    // when it does not pass: the task (or "domain judge") that failed it
    std::string failReason;  // and why, with the figure
    std::string buys;        // what its own layers buy, in words
};

struct Recommendation {
    std::optional<std::string> label;  // the recommended variant; nullopt when none passes
    RecommendationOptions options;
    std::string buys;    // what the recommended variant buys, from its own layers
    std::string reason;  // one sentence: why this one, or that none passes
    struct Rejected {
        std::string label, task, reason;
    };
    std::vector<Rejected> rejected;  // each variant that does not pass, with the task and figure that failed it
    // The deciding variant's verdict (VariantComparison::deciding): the recommended one's, or when none passes the
    // least severe variant's (DESIGN.md: adding a candidate never makes the decision worse than the best variant's).
    Verdict verdict = Verdict::Investigate;
    // What the recommended (else the deciding) variant buys on the team's server, measured (ServingGain::sentence),
    // or that the gain was not measured. The benefit never changes a verdict; it only orders the passing variants.
    std::string gain;
    bool gainMeasured = false;
    // Passing variants set aside because they buy nothing measurable over a less aggressive passing one (or are
    // slower), each with the sentence that says so.
    std::vector<Rejected> buysNothing;

    bool recommends(const std::string& variantLabel) const { return label && *label == variantLabel; }
};

struct VariantComparison {
    std::string baselineLabel;
    Fp8Config baselineConfig;
    Thresholds thresholds;
    std::vector<VariantResult> variants;  // the candidates in the order given
    std::vector<LayerStep> steps;
    Recommendation recommendation;
    // The variant the verdict is about (DESIGN.md "Degradation and the verdict"): the recommended one, or, when none
    // passes the gate, the one whose own verdict is least severe, ties broken as the recommendation breaks them (the
    // most aggressive, then the one that frees the most memory, then the smallest worst degradation, then the first).
    std::size_t deciding = 0;  // index into `variants`
    const VariantResult& decidingVariant() const { return variants.at(deciding); }
    // For each task, the step that costs it most (largest degradation), "" when no step degrades it.
    std::vector<std::pair<std::string, std::string>> costliestStep;  // (task, "FROM → TO")
};

// The recommendation's gate in words for people (no command-line flag): "GO only", "GO or MONITOR", "GO or MONITOR,
// every task recovering at least 99%".
std::string gateWords(const RecommendationOptions& options);

// What a variant's own layers buy (DESIGN.md: the KV-cache ×2 only where its KV cache is FP8): "FP8 weights: half
// the weight memory (≈ 8 GB less for 8B parameters), W8A8 matmuls on FP8 tensor cores (compute capability >= 8.9);
// FP8 KV cache: twice the KV-cache tokens in the same memory". "nothing: no low-precision layer" for none.
std::string variantBuys(const Fp8Config& config);

// Memory a variant frees against 16 bits, per weight parameter and per KV element (bytes), the order among variants
// the superset rule does not settle.
// Bytes per element of the block-scaled FP4 formats: NVFP4 is 4 bits and an E4M3 scale per 16 elements (4.5 bits;
// its per-tensor FP32 scale is negligible), MXFP4 4 bits and a UE8M0 scale per 32 (4.25 bits).
inline constexpr double kNvfp4BytesPerElement = 4.5 / 8;
inline constexpr double kMxfp4BytesPerElement = 4.25 / 8;

struct MemorySaving {
    double perParameter = 0;  // BF16 2 bytes -> FP8 1 byte: 1; INT4: 1.5; NVFP4: 1.4375; MXFP4: 1.46875
    double perKvElement = 0;  // FP8 KV: 1; NVFP4 KV: 1.4375
};
MemorySaving memorySaving(const RunLayers& layers);

// Whether a's low-precision layers are a strict superset of b's, or the same layers with a's weights at fewer bits
// and its activations at no more (NVFP4 W4A4 beyond FP8 W8A8, with the same KV cache).
bool moreAggressive(const RunLayers& a, const RunLayers& b);

// The variants, the steps and the recommendation. `steps` are the step reports the caller compared (findLayerSteps'
// plans, `to` against `from`, with their paired results applied); their tasks and sentences are derived here.
// `serving` (labels as the variants', the baseline first) weighs what each passing variant buys (DESIGN.md "What FP8
// buys"): a more aggressive variant whose measured gain over a less aggressive passing one is within the noise or
// negative is not recommended over it, and among the rest the one that buys the most beyond the noise is preferred.
// A blocked serving comparison weighs nothing.
VariantComparison summarizeVariants(const std::string& baselineLabel, const Fp8Config& baselineConfig,
                                    const Thresholds& thresholds, std::vector<VariantEvidence> variants,
                                    std::vector<LayerStep> steps, const RecommendationOptions& options,
                                    const ServingComparison* serving = nullptr);

// Labels for the runs (baseline first): the given ones, else derived from the layers (layersLabel); an empty given
// label is derived too (the New Comparison dialog's rows without a label). Derived labels that would repeat a label
// get " #2", " #3". Fails on a label count that does not match or a label given twice.
Result<std::vector<std::string>> variantLabels(const std::vector<Fp8Config>& runs,
                                               const std::vector<std::string>& given);

}  // namespace fp8dash
