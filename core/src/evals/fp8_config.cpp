// FP8 layers of a run (DESIGN.md "The three FP8 layers (vLLM)"), from config.model_args and the checkpoint name.
#include "fp8dash/core/fp8_config.h"

#include "text_util.h"

#include <algorithm>
#include <cctype>
#include <regex>

namespace fp8dash {

using text::lower;
using text::trim;
namespace {

bool isTrue(std::string_view v) {
    const auto l = lower(v);
    return l == "true" || l == "1" || l == "yes";
}

// "fp8" as a name component: -FP8, _fp8, FP8-dynamic, ...-FP8-KV; not inside a longer word.
bool nameSaysFp8(std::string_view name) {
    static const std::regex re("(^|[^a-z0-9])fp8([^a-z0-9]|$)");
    const auto l = lower(name);
    return std::regex_search(l, re);
}

// Checkpoints made with KV-cache scales say so after FP8: "-FP8-KV", "-FP8-K-V".
bool nameCarriesKvScales(std::string_view name) {
    static const std::regex re("fp8[-_](kv|k-v)([^a-z0-9]|$)");
    const auto l = lower(name);
    return std::regex_search(l, re);
}

}  // namespace

std::optional<double> parseParamCountBillions(std::string_view modelName) {
    // A count is a number (optionally "NxM" for mixtures of experts) followed by B or M, standing alone as a name
    // component: "Llama-3-8B", "qwen2.5-7B", ".../huggingface/7B", "Mixtral-8x7B", "SmolLM-135M".
    static const std::regex re("(^|[^A-Za-z0-9.])(\\d+(?:\\.\\d+)?)(?:[xX](\\d+(?:\\.\\d+)?))?([bBmM])(?![A-Za-z0-9])");
    const std::string name(modelName);
    std::optional<double> millions;
    for (auto it = std::sregex_iterator(name.begin(), name.end(), re); it != std::sregex_iterator(); ++it) {
        const auto& m = *it;
        double n = std::stod(m[2].str());
        if (m[3].matched) n *= std::stod(m[3].str());
        const char unit = static_cast<char>(std::tolower(static_cast<unsigned char>(m[4].str()[0])));
        if (unit == 'b') return n;
        if (!millions) millions = n / 1000.0;
    }
    return millions;
}

Fp8Config detectFp8Config(const LmEvalResults& run) {
    Fp8Config c;
    c.backend = run.modelBackend;
    c.model = run.modelArg("pretrained").value_or(run.modelName);
    if (c.model.empty()) c.model = run.modelName;
    c.dtype = run.modelArg("dtype").value_or("");
    c.quantization = run.modelArg("quantization").value_or("");

    if (lower(c.quantization).find("fp8") != std::string::npos) {
        c.weights = true;
        c.weightsEvidence = "quantization=" + c.quantization;
    } else if (nameSaysFp8(c.model)) {
        c.weights = true;
        c.weightsEvidence = "FP8 checkpoint " + c.model;
    } else if (nameSaysFp8(run.modelName)) {
        c.weights = true;
        c.weightsEvidence = "FP8 checkpoint " + run.modelName;
    }

    c.kvCacheDtype = run.modelArg("kv_cache_dtype").value_or("");
    c.kvCache = lower(c.kvCacheDtype).starts_with("fp8");

    if (auto s = run.modelArg("calculate_kv_scales"); s && isTrue(*s)) {
        c.kvScales = true;
        c.kvScalesEvidence = "calculate_kv_scales=" + *s;
    } else if (nameCarriesKvScales(c.model)) {
        c.kvScales = true;
        c.kvScalesEvidence = "KV scales in checkpoint " + c.model;
    }

    c.activations = c.weights;
    c.paramsBillions = parseParamCountBillions(c.model);
    if (!c.paramsBillions && !run.modelName.empty()) c.paramsBillions = parseParamCountBillions(run.modelName);
    return c;
}

}  // namespace fp8dash
