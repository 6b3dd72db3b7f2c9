// FP8 layers of a run (DESIGN.md "The three FP8 layers (vLLM)"), from config.model_args and the checkpoint name.
#include "fp8dash/core/fp8_config.h"

#include "fp8dash/core/model_identity.h"

#include "text_util.h"

#include <algorithm>
#include <cctype>
#include <regex>
#include <set>
#include <vector>

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

// A checkpoint name's components, lower-case: "RedHatAI/Meta-Llama-3.1-8B-Instruct-FP8-dynamic" gives
// {redhatai, meta, llama, 3, 1, 8b, instruct, fp8, dynamic}.
std::vector<std::string> nameTokens(std::string_view name) {
    std::vector<std::string> out;
    std::string cur;
    for (char ch : lower(name)) {
        if ((ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9')) {
            cur += ch;
        } else if (!cur.empty()) {
            out.push_back(std::move(cur));
            cur.clear();
        }
    }
    if (!cur.empty()) out.push_back(std::move(cur));
    return out;
}

bool hasToken(const std::vector<std::string>& tokens, std::string_view t) {
    return std::find(tokens.begin(), tokens.end(), t) != tokens.end();
}

// The weights format a checkpoint's name states (the conventions of Red Hat AI / Neural Magic, LLM Compressor,
// TheBloke, NVIDIA ModelOpt and Hugging Face), or "" when it states none.
std::string weightsFromName(std::string_view name) {
    const auto t = nameTokens(name);
    if (nameSaysFp8(name)) {
        if (hasToken(t, "block")) return "fp8_block";
        if (hasToken(t, "dynamic")) return "fp8_dynamic";
        return "fp8";
    }
    // FP4 (Blackwell): LLM Compressor's NVFP4 / MXFP4 schemes quantise the activations too (W4A4); NVFP4A16 and
    // MXFP4A16 (and a W4A16 word beside them) are weight-only. NVIDIA ModelOpt names its NVFP4 checkpoints "-FP4".
    const bool a16 = hasToken(t, "nvfp4a16") || hasToken(t, "mxfp4a16") || hasToken(t, "w4a16") || hasToken(t, "a16");
    if (hasToken(t, "nvfp4") || hasToken(t, "fp4") || hasToken(t, "nvfp4a16")) return a16 ? "nvfp4_a16" : "nvfp4";
    if (hasToken(t, "mxfp4") || hasToken(t, "mxfp4a16")) return a16 ? "mxfp4_a16" : "mxfp4";
    if (hasToken(t, "awq")) return "int4_awq";
    if (hasToken(t, "gptq")) return hasToken(t, "int8") || hasToken(t, "8bit") ? "int8_weight_only" : "int4_gptq";
    if (hasToken(t, "w8a8") || hasToken(t, "int8")) return "int8";
    if (hasToken(t, "w8a16")) return "int8_weight_only";
    if (hasToken(t, "w4a16") || hasToken(t, "int4")) return "int4";
    if (hasToken(t, "bnb") || hasToken(t, "4bit")) return "int4_bnb";
    if (hasToken(t, "gguf")) return "gguf";
    return "";
}

// The weights format of vLLM's quantization= value, or "" for a container whose format is in the checkpoint
// (compressed-tensors: the name says it).
std::string weightsFromQuantization(std::string_view quantization) {
    const auto q = lower(quantization);
    if (q.empty() || q == "none" || q == "compressed-tensors" || q == "compressed_tensors") return "";
    if (q == "ptpc_fp8" || q == "fbgemm_fp8") return "fp8_dynamic";  // per-channel weights, per-token activations
    if (q == "modelopt_fp4" || q == "nvfp4") return "nvfp4";
    // vLLM's mxfp4 method (gpt-oss) keeps 16-bit activations outside FlashInfer's Blackwell kernels.
    if (q == "mxfp4") return "mxfp4_a16";
    if (q.find("fp8") != std::string::npos || q == "modelopt") return "fp8";
    if (q.starts_with("awq")) return "int4_awq";
    if (q.starts_with("gptq")) return "int4_gptq";
    if (q == "experts_int8") return "int8";
    if (q == "bitsandbytes") return "int4_bnb";
    return q;  // another format, named as vLLM names it
}

std::string activationsOf(const std::string& weights) {
    if (weights == "fp8") return "fp8";
    if (weights == "fp8_dynamic" || weights == "fp8_block") return "fp8_dynamic";
    if (weights == "int8") return "int8";
    if (weights == "nvfp4" || weights == "mxfp4") return "fp4";  // W4A4; the _a16 forms are weight-only
    return "none";  // weight-only formats (W4A16, W8A16, GGUF, bitsandbytes) and BF16
}

RunLayers detectLayers(const Fp8Config& c, const LmEvalResults& run) {
    RunLayers l;
    if (const std::string q = weightsFromQuantization(c.quantization); !q.empty()) {
        l.weights = {q, "quantization=" + c.quantization};
    } else {
        for (const std::string* name : {&c.model, &run.modelName}) {
            if (const std::string w = weightsFromName(*name); !w.empty()) {
                l.weights = {w, "checkpoint name " + *name};
                break;
            }
        }
    }
    if (l.weights.value == "none")
        l.weights.evidence = c.dtype.empty() ? "no quantization in model_args and none in the checkpoint name"
                                             : "dtype=" + c.dtype + ", no quantization";
    const std::string act = activationsOf(l.weights.value);
    if (act == "none")
        l.activations = {"none", l.lowPrecisionWeights() ? "inferred: a weight-only format keeps activations in 16 bits"
                                                         : "inferred: 16-bit weights, 16-bit activations"};
    else
        l.activations = {act, "inferred: vLLM runs " + l.weights.value + " weights with " + act +
                                  " activations (W8A8 on compute capability >= 8.9)"};

    const std::string kv = lower(c.kvCacheDtype);
    if (kv.empty())
        l.kvCache = {"none", "no kv_cache_dtype in model_args: vLLM's default, the model dtype"};
    else if (kv == "auto" || kv == "bfloat16" || kv == "float16" || kv == "half" || kv == "bf16" || kv == "fp16")
        l.kvCache = {"none", "kv_cache_dtype=" + c.kvCacheDtype + ": the model dtype"};
    else
        l.kvCache = {kv, "kv_cache_dtype=" + c.kvCacheDtype};

    if (!l.fp8KvCache()) {
        l.kvScales = {"none", "no FP8 KV cache"};
    } else if (auto s = run.modelArg("calculate_kv_scales"); s && isTrue(*s)) {
        l.kvScales = {"calculated", "calculate_kv_scales=" + *s + " (vLLM computed them at start-up)"};
    } else if (nameCarriesKvScales(c.model)) {
        l.kvScales = {"checkpoint", "calibrated KV scales in checkpoint " + c.model};
    } else {
        l.kvScales = {"1.0",
                      "no calculate_kv_scales and no KV-scale marker (-FP8-KV) in the checkpoint name: vLLM "
                      "stores K and V with scale 1.0"};
    }
    return l;
}

}  // namespace

std::vector<std::string> RunLayers::lowPrecisionSet() const {
    std::vector<std::string> out;
    if (lowPrecisionWeights()) out.emplace_back("weights");
    if (activations.value != "none") out.emplace_back("activations");
    if (lowPrecisionKvCache()) out.emplace_back("kv_cache");
    return out;
}

std::string layersLabel(const Fp8Config& config) {
    const RunLayers& l = config.layers;
    const std::string dt = lower(config.dtype);
    const std::string sixteen = (dt == "float16" || dt == "half" || dt == "fp16") ? "FP16" : "BF16";
    static const std::pair<const char*, const char*> kWeights[] = {{"fp8", "FP8 W8A8"},
                                                                   {"fp8_dynamic", "FP8 W8A8 dynamic"},
                                                                   {"fp8_block", "FP8 W8A8 block"},
                                                                   {"int8", "INT8 W8A8"},
                                                                   {"int8_weight_only", "INT8 W8A16"},
                                                                   {"int4_awq", "INT4 AWQ W4A16"},
                                                                   {"int4_gptq", "INT4 GPTQ W4A16"},
                                                                   {"int4", "INT4 W4A16"},
                                                                   {"int4_bnb", "INT4 bitsandbytes"},
                                                                   {"nvfp4", "NVFP4 W4A4"},
                                                                   {"nvfp4_a16", "NVFP4 W4A16"},
                                                                   {"mxfp4", "MXFP4 W4A4"},
                                                                   {"mxfp4_a16", "MXFP4 W4A16"},
                                                                   {"gguf", "GGUF"}};
    std::string weights = sixteen;
    if (l.lowPrecisionWeights()) {
        weights = l.weights.value;
        for (const auto& [value, name] : kWeights)
            if (l.weights.value == value) weights = name;
    }
    if (!l.lowPrecisionKvCache()) return weights;
    std::string kv = l.fp8KvCache()                         ? "FP8 KV"
                     : l.kvCache.value.starts_with("nvfp4") ? "NVFP4 KV"
                                                            : l.kvCache.value + " KV";
    if (l.kvScales.value == "checkpoint")
        kv += " (calibrated scales)";
    else if (l.kvScales.value == "calculated")
        kv += " (calculated scales)";
    else if (l.kvScales.value == "1.0")
        kv += " (scales 1.0)";
    return weights + " + " + kv;
}

std::string baseModelKey(std::string_view checkpoint) {
    return modelIdentityKey(checkpoint);
}

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
    c.layers = detectLayers(c, run);
    c.paramsBillions = parseParamCountBillions(c.model);
    if (!c.paramsBillions && !run.modelName.empty()) c.paramsBillions = parseParamCountBillions(run.modelName);
    return c;
}

}  // namespace fp8dash
