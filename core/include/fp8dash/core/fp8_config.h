#pragma once
// The FP8 configuration of one run, read from config.model_args and the model name (DESIGN.md "The three FP8
// layers (vLLM)"). Pure functions; thread-safe.

#include <optional>
#include <string>
#include <string_view>

#include "fp8dash/core/lm_eval_results.h"

namespace fp8dash {

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

    bool anyFp8() const { return weights || kvCache; }
};

Fp8Config detectFp8Config(const LmEvalResults& run);

// Parameter count in billions from a model name: "Meta-Llama-3-8B" -> 8, "Qwen2.5-0.5B" -> 0.5, "SmolLM-135M" ->
// 0.135, "Mixtral-8x7B" -> 56; nullopt when the name does not say.
std::optional<double> parseParamCountBillions(std::string_view modelName);

}  // namespace fp8dash
