#pragma once
// The FP8 configuration of one run, read from config.model_args and the model name (DESIGN.md "The three FP8
// layers (vLLM)"). Pure functions; thread-safe.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "fp8dash/core/lm_eval_results.h"

namespace fp8dash {

// One layer's format and why fp8dash thinks so (README "Variants and layer steps").
struct LayerSetting {
    // weights: "none", "fp8" (per-tensor), "fp8_dynamic" (per-channel weights, per-token dynamic activations),
    //          "fp8_block", "int8", "int8_weight_only", "int4_awq", "int4_gptq", "int4", "int4_bnb", "nvfp4" (W4A4),
    //          "nvfp4_a16" (W4A16), "mxfp4" (W4A4), "mxfp4_a16" (W4A16), "gguf", or the quantization= value as given;
    // kv_cache: "none" (the model dtype) or the fp8* dtype as given ("fp8", "fp8_e4m3", "fp8_e5m2"), another as given;
    // kv_scales: "none" (no FP8 KV cache), "checkpoint" (calibrated, stored in the checkpoint), "calculated"
    //            (calculate_kv_scales=true at start-up, vLLM before the option's removal), "1.0";
    // activations: "none", "fp8", "fp8_dynamic", "int8", "fp4".
    std::string value = "none";
    std::string evidence;  // the model_args key or checkpoint name it was read from, or "inferred: ..."
    bool operator==(const LayerSetting&) const = default;
};

struct RunLayers {
    LayerSetting weights, kvCache, kvScales, activations;
    bool operator==(const RunLayers&) const = default;

    bool lowPrecisionWeights() const { return weights.value != "none"; }
    bool fp8KvCache() const { return kvCache.value.starts_with("fp8"); }
    bool lowPrecisionKvCache() const { return kvCache.value != "none"; }
    bool anyLowPrecision() const { return lowPrecisionWeights() || lowPrecisionKvCache(); }
    // The layers kept in low precision, as the superset rule orders variants: "weights", "activations",
    // "kv_cache" (scales are a property of the KV cache, not a layer of their own).
    std::vector<std::string> lowPrecisionSet() const;
};

struct Fp8Config {
    std::string model;         // checkpoint id (pretrained=... or model_name)
    std::string backend;       // lm-eval model backend: "vllm", "hf", ...
    std::string dtype;         // dtype= of model_args ("bfloat16", "auto", ...), "" when not given
    std::string quantization;  // quantization= of model_args, "" when not given

    bool weights = false;         // FP8 weights: quantization=fp8* or an FP8 checkpoint name (-FP8, -FP8-dynamic)
    std::string weightsEvidence;  // why: "quantization=fp8" or "checkpoint name ...-FP8"
    bool kvCache = false;         // kv_cache_dtype=fp8*
    std::string kvCacheDtype;     // as given, "" when not given (vLLM's default "auto" = the model dtype)
    bool kvScales = false;        // calculate_kv_scales=true, or a checkpoint that ships KV scales (-FP8-KV)
    std::string kvScalesEvidence;
    // Inferred, not recorded by lm-eval: vLLM runs FP8 weights as W8A8 (FP8 activations, per-token dynamic scales)
    // on compute capability >= 8.9, which is what an FP8 checkpoint's card means by "FP8 weights and activations".
    bool activations = false;
    std::optional<double> paramsBillions;  // from the model name ("8B", "0.5B", "8x7B" -> 56), when it says
    RunLayers layers;  // every layer's format with its evidence (FP8 and the other low-precision formats)

    bool anyFp8() const { return weights || kvCache; }
};

Fp8Config detectFp8Config(const LmEvalResults& run);

// A name for a run made from its layers, for a variant the user gave no label: "BF16", "FP8 W8A8",
// "FP8 W8A8 dynamic + FP8 KV (scales 1.0)", "BF16 + FP8 KV (calibrated scales)", "INT4 AWQ W4A16".
std::string layersLabel(const Fp8Config& config);

// The model a checkpoint is a variant of, as a comparison key: modelIdentityKey (model_identity.h), the identity
// words of its name without its organisation, quantisation, tool and packaging words, lower-case, without separators,
// and "Meta-Llama" read as "Llama" (Meta renamed its repositories).
// "neuralmagic/Meta-Llama-3-8B-Instruct-FP8" and "meta-llama/Meta-Llama-3-8B-Instruct" give "llama38binstruct";
// "Meta-Llama-3-8B" gives "llama38b". A Hugging Face cache path (".../models--org--name/snapshots/<hash>") reads as its
// repository. "" when nothing is left (a local folder named "fp8"): the name does not say which model it is. Where
// lm-eval's tokenizer facts are at hand, matchModels decides with them.
std::string baseModelKey(std::string_view checkpoint);

// Parameter count in billions from a model name: "Meta-Llama-3-8B" -> 8, "Qwen2.5-0.5B" -> 0.5, "SmolLM-135M" ->
// 0.135, "Mixtral-8x7B" -> 56; nullopt when the name does not say.
std::optional<double> parseParamCountBillions(std::string_view modelName);

}  // namespace fp8dash
