// Model presets and Hugging Face config.json reading for the capacity planner (DESIGN.md "KV-cache capacity").
#include "fp8dash/core/model_architecture.h"

#include "text_util.h"

#include <climits>
#include <cstdio>

namespace fp8dash {

using text::lower;
using text::trim;

const char* storageDtypeName(StorageDtype d) {
    return d == StorageDtype::Fp8 ? "fp8" : "bf16";
}

std::optional<StorageDtype> parseStorageDtype(std::string_view text) {
    const std::string t = lower(trim(text));
    if (t == "bf16" || t == "bfloat16") return StorageDtype::Bf16;
    if (t == "fp8" || t == "fp8_e4m3" || t == "e4m3") return StorageDtype::Fp8;
    return std::nullopt;
}

namespace {
using U = std::uint64_t;
}  // namespace

std::uint64_t ModelArchitecture::embeddingParameters() const {
    return U(vocabSize) * U(hiddenSize);
}

std::uint64_t ModelArchitecture::lmHeadParameters() const {
    return tieWordEmbeddings ? 0 : U(vocabSize) * U(hiddenSize);
}

std::uint64_t ModelArchitecture::linearParameters() const {
    const U h = U(hiddenSize), q = U(attentionHeads) * U(headDim), kv = U(kvHeads) * U(headDim);
    // q_proj h->q, k_proj and v_proj h->kv (GQA), o_proj q->h; gate_proj and up_proj h->inter, down_proj inter->h.
    const U perLayer = h * q + 2 * h * kv + q * h + 3 * h * U(intermediateSize);
    return perLayer * U(layers);
}

std::uint64_t ModelArchitecture::normAndBiasParameters() const {
    const U h = U(hiddenSize);
    // input_layernorm and post_attention_layernorm per layer, and the final norm.
    U perLayer = 2 * h;
    if (qkvBias) perLayer += (U(attentionHeads) + 2 * U(kvHeads)) * U(headDim);
    if (oBias) perLayer += h;
    if (mlpBias) perLayer += 2 * U(intermediateSize) + h;
    if (qkNorm) perLayer += 2 * U(headDim);
    return perLayer * U(layers) + h;
}

std::uint64_t ModelArchitecture::parameterCount() const {
    return embeddingParameters() + lmHeadParameters() + linearParameters() + normAndBiasParameters() + extraParameters;
}

std::uint64_t ModelArchitecture::kvBytesPerToken(StorageDtype kv) const {
    return 2 * U(layers) * U(kvHeads) * U(headDim) * U(bytesPerElement(kv));
}

std::uint64_t ModelArchitecture::weightsBytes(StorageDtype weights) const {
    if (weights == StorageDtype::Bf16) return 2 * parameterCount();
    // FP8 checkpoints (llm-compressor's, and vLLM's on-the-fly --quantization fp8) quantise the Linear layers of the
    // decoder only: the embedding, the LM head, the norms, the biases and a vision tower stay BF16.
    return linearParameters() +
           2 * (embeddingParameters() + lmHeadParameters() + normAndBiasParameters() + extraParameters);
}

std::uint64_t ModelArchitecture::weightsBytesReadPerStep(StorageDtype weights) const {
    return weightsBytes(weights) - (tieWordEmbeddings ? 0 : 2 * embeddingParameters());
}

namespace {

// Each preset is its official config.json (Hugging Face, the model owner's repository); publishedParameters is the
// total its model card or the Hub's safetensors metadata gives.
ModelArchitecture preset(const char* name, const char* repo, const char* type, int layers, int hidden, int heads,
                         int kvHeads, int intermediate, int vocab, bool qkvBias, long long maxPositions,
                         double published) {
    ModelArchitecture m;
    m.name = name;
    m.hfRepo = repo;
    m.modelType = type;
    m.layers = layers;
    m.hiddenSize = hidden;
    m.attentionHeads = heads;
    m.kvHeads = kvHeads;
    m.headDim = hidden / heads;  // none of these configs sets head_dim; all come to 128
    m.intermediateSize = intermediate;
    m.vocabSize = vocab;
    m.tieWordEmbeddings = false;  // "tie_word_embeddings": false in all of them
    m.qkvBias = qkvBias;
    m.maxPositionEmbeddings = maxPositions;
    m.publishedParameters = published;
    return m;
}

std::vector<ModelArchitecture> makePresets() {
    return {
        // meta-llama/Llama-3.1-8B config.json; 8.03B parameters (Hub safetensors metadata).
        preset("llama-3.1-8b", "meta-llama/Llama-3.1-8B", "llama", 32, 4096, 32, 8, 14336, 128256, false, 131072,
               8.03e9),
        // meta-llama/Llama-3.1-70B; 70.6B.
        preset("llama-3.1-70b", "meta-llama/Llama-3.1-70B", "llama", 80, 8192, 64, 8, 28672, 128256, false, 131072,
               70.6e9),
        // meta-llama/Llama-3.1-405B (8 KV heads in the official config; some third-party copies say 16); 405B as Meta
        // names it (the Hub's metadata rounds it to 406B).
        preset("llama-3.1-405b", "meta-llama/Llama-3.1-405B", "llama", 126, 16384, 128, 8, 53248, 128256, false, 131072,
               405e9),
        // Qwen/Qwen2.5-7B (q/k/v carry a bias in every Qwen2 model); card: 7.61B parameters, 6.53B non-embedding.
        preset("qwen2.5-7b", "Qwen/Qwen2.5-7B", "qwen2", 28, 3584, 28, 4, 18944, 152064, true, 131072, 7.61e9),
        // Qwen/Qwen2.5-14B; card: 14.7B, 13.1B non-embedding.
        preset("qwen2.5-14b", "Qwen/Qwen2.5-14B", "qwen2", 48, 5120, 40, 8, 13824, 152064, true, 131072, 14.7e9),
        // Qwen/Qwen2.5-72B; card: 72.7B, 70.0B non-embedding.
        preset("qwen2.5-72b", "Qwen/Qwen2.5-72B", "qwen2", 80, 8192, 64, 8, 29568, 152064, true, 131072, 72.7e9),
        // mistralai/Mistral-7B-v0.3 (vocabulary extended to 32768, no sliding window); 7.25B.
        preset("mistral-7b", "mistralai/Mistral-7B-v0.3", "mistral", 32, 4096, 32, 8, 14336, 32768, false, 32768,
               7.25e9),
        // meta-llama/Meta-Llama-3-8B: Llama 3.1 8B's shapes with an 8K context (max_position_embeddings 8192, no
        // rope_scaling); 8.03B. Last, so that the seven before it keep their places.
        preset("llama-3-8b", "meta-llama/Meta-Llama-3-8B", "llama", 32, 4096, 32, 8, 14336, 128256, false, 8192,
               8.03e9),
    };
}

}  // namespace

const std::vector<ModelArchitecture>& modelPresets() {
    static const std::vector<ModelArchitecture> presets = makePresets();
    return presets;
}

const ModelArchitecture* findModelPreset(std::string_view name) {
    const std::string n = lower(trim(name));
    for (const auto& p : modelPresets())
        if (p.name == n) return &p;
    return nullptr;
}

namespace {

// Words of a checkpoint's name that say how it was tuned, packaged or quantised, not which architecture it is: the
// quantisation and dtype markers baseModelKey (fp8_config.h) drops, and the tuning words, which baseModelKey keeps
// (an instruct model is another model for a comparison, but the same shapes for capacity).
bool isVariantWord(std::string_view word) {
    static constexpr std::string_view kWords[] = {
        "instruct",    "chat",      "it",       "base",       "hf",      "fp8",  "dynamic",  "block",   "static",
        "kv",          "w8a8",      "w4a16",    "w8a16",      "w4a4",    "w4a8", "int8",     "int4",    "awq",
        "gptq",        "nvfp4",     "fp4",      "mxfp4",      "bf16",    "fp16", "bfloat16", "float16", "gguf",
        "bnb",         "4bit",      "8bit",     "marlin",     "fp8kv",   "a16",  "a8",       "e4m3",    "e5m2",
        "channelwise", "pertensor", "pertoken", "compressed", "modelopt"};
    for (std::string_view w : kWords)
        if (word == w) return true;
    return word.starts_with("quantized");  // "quantized.w8a8"
}

}  // namespace

std::string baseModelName(std::string_view checkpoint) {
    std::string name = lower(trim(checkpoint));
    // A Hugging Face cache folder: ".../models--org--name/snapshots/<hash>".
    if (const auto at = name.rfind("models--"); at != std::string::npos) {
        name = name.substr(at + 8);
        if (const auto slash = name.find('/'); slash != std::string::npos) name.resize(slash);
        if (const auto dash = name.rfind("--"); dash != std::string::npos) name = name.substr(dash + 2);
    }
    while (!name.empty() && (name.back() == '/' || name.back() == '\\')) name.pop_back();
    if (const auto slash = name.find_last_of("/\\"); slash != std::string::npos) name.erase(0, slash + 1);
    if (const auto org = name.rfind("__"); org != std::string::npos) name.erase(0, org + 2);  // lm-eval's org__name
    std::vector<std::string> words;
    std::string word;
    for (std::size_t i = 0; i <= name.size(); ++i) {
        if (i == name.size() || name[i] == '-' || name[i] == '_' || name[i] == ' ') {
            if (!word.empty() && !isVariantWord(word)) words.push_back(word);
            word.clear();
        } else {
            word += name[i];
        }
    }
    // "Meta-Llama-3-8B" is Meta's name for Llama 3 8B.
    if (words.size() > 1 && words[0] == "meta" && words[1].starts_with("llama")) words.erase(words.begin());
    std::string out;
    for (const std::string& w : words) out += (out.empty() ? "" : "-") + w;
    return out;
}

const ModelArchitecture* findModelPresetForCheckpoint(std::string_view checkpoint) {
    const std::string base = baseModelName(checkpoint);
    if (base.empty()) return nullptr;
    for (const auto& p : modelPresets())
        if (p.name == base || baseModelName(p.hfRepo) == base) return &p;
    return nullptr;
}

bool sameShapes(const ModelArchitecture& a, const ModelArchitecture& b) {
    return a.layers == b.layers && a.hiddenSize == b.hiddenSize && a.attentionHeads == b.attentionHeads &&
           a.kvHeads == b.kvHeads && a.headDim == b.headDim && a.intermediateSize == b.intermediateSize &&
           a.vocabSize == b.vocabSize && a.tieWordEmbeddings == b.tieWordEmbeddings && a.qkvBias == b.qkvBias &&
           a.oBias == b.oBias && a.mlpBias == b.mlpBias && a.qkNorm == b.qkNorm &&
           a.extraParameters == b.extraParameters;
}

std::string modelPresetNamesText() {
    std::string out;
    for (const auto& p : modelPresets()) out += (out.empty() ? "" : ", ") + p.name;
    return out;
}

namespace {

class ConfigReader {
public:
    ConfigReader(const Json& j, const std::string& source) : m_j(j), m_source(source) {}

    Error error(const std::string& field, const std::string& what) const {
        return Error{m_source + ": field \"" + field + "\" " + what};
    }

    // A positive integer that fits an int; nullopt when absent or null and not required.
    Result<std::optional<int>> positiveInt(const char* field, bool required) const {
        const auto it = m_j.find(field);
        if (it == m_j.end() || it->is_null()) {
            if (required) return error(field, "is missing");
            return std::optional<int>();
        }
        if (!it->is_number_integer()) return error(field, "must be a positive integer (got " + it->dump() + ")");
        const long long v = it->get<long long>();
        if (v <= 0 || v > INT_MAX) return error(field, "must be a positive integer (got " + it->dump() + ")");
        return std::optional<int>(static_cast<int>(v));
    }

    Result<bool> boolean(const char* field, bool fallback) const {
        const auto it = m_j.find(field);
        if (it == m_j.end() || it->is_null()) return fallback;
        if (!it->is_boolean()) return error(field, "must be true or false (got " + it->dump() + ")");
        return it->get<bool>();
    }

private:
    const Json& m_j;
    const std::string& m_source;
};

// The model_type, from "model_type", else from "architectures".
Result<std::string> modelTypeOf(const Json& j, const std::string& source) {
    static const std::vector<std::pair<std::string, std::string>> kArchitectures = {
        {"LlamaForCausalLM", "llama"},
        {"MistralForCausalLM", "mistral"},
        {"Qwen2ForCausalLM", "qwen2"},
        {"Qwen3ForCausalLM", "qwen3"},
        {"Mistral3ForConditionalGeneration", "mistral3"}};
    std::string type;
    if (auto it = j.find("model_type"); it != j.end() && !it->is_null()) {
        if (!it->is_string()) return Error{source + ": field \"model_type\" must be a string (got " + it->dump() + ")"};
        type = it->get<std::string>();
    } else if (auto a = j.find("architectures"); a != j.end() && a->is_array()) {
        for (const auto& name : *a)
            for (const auto& [arch, t] : kArchitectures)
                if (name.is_string() && name.get<std::string>() == arch) type = t;
        if (type.empty())
            return Error{source + ": field \"architectures\" names no supported model (" + a->dump() +
                         "); fp8dash reads LlamaForCausalLM, MistralForCausalLM and Qwen2ForCausalLM configs"};
    } else {
        return Error{source + ": field \"model_type\" is missing (and there is no \"architectures\")"};
    }
    if (type != "llama" && type != "mistral" && type != "qwen2" && type != "qwen3" && type != "mistral3")
        return Error{
            source + ": field \"model_type\" is \"" + type +
            "\", which fp8dash does not size; it reads dense llama, mistral, mistral3, qwen2 and qwen3 configs"};
    return type;
}

Result<ModelArchitecture> parseMistral3Config(const Json& j, const std::string& sourceName);

}  // namespace

Result<ModelArchitecture> parseHfConfig(const Json& j, const std::string& sourceName) {
    if (!j.is_object()) return Error{sourceName + ": not a Hugging Face config (the JSON is not an object)"};
    auto type = modelTypeOf(j, sourceName);
    if (!type) return type.error();
    if (*type == "mistral3") return parseMistral3Config(j, sourceName);
    for (const char* moe : {"num_experts", "num_local_experts", "n_routed_experts"})
        if (auto it = j.find(moe); it != j.end() && it->is_number() && it->get<double>() > 0)
            return Error{sourceName + ": field \"" + moe +
                         "\" says this is a mixture-of-experts model, which fp8dash does not size"};

    const ConfigReader r(j, sourceName);
    ModelArchitecture m;
    m.name = sourceName;
    m.modelType = *type;
    m.fromConfigFile = true;
    struct Field {
        const char* name;
        int* target;
    };
    for (const Field& f : {Field{"num_hidden_layers", &m.layers}, Field{"hidden_size", &m.hiddenSize},
                           Field{"num_attention_heads", &m.attentionHeads},
                           Field{"intermediate_size", &m.intermediateSize}, Field{"vocab_size", &m.vocabSize}}) {
        auto v = r.positiveInt(f.name, true);
        if (!v) return v.error();
        *f.target = **v;
    }

    auto kv = r.positiveInt("num_key_value_heads", false);
    if (!kv) return kv.error();
    m.kvHeads = kv->value_or(m.attentionHeads);  // absent: multi-head attention, as transformers defaults it
    if (m.attentionHeads % m.kvHeads != 0)
        return r.error("num_key_value_heads", "(" + std::to_string(m.kvHeads) + ") must divide num_attention_heads (" +
                                                  std::to_string(m.attentionHeads) + ")");

    auto headDim = r.positiveInt("head_dim", false);
    if (!headDim) return headDim.error();
    if (*headDim) {
        m.headDim = **headDim;
    } else {
        if (m.hiddenSize % m.attentionHeads != 0)
            return r.error("head_dim", "is missing and hidden_size (" + std::to_string(m.hiddenSize) +
                                           ") is not a multiple of num_attention_heads (" +
                                           std::to_string(m.attentionHeads) + ")");
        m.headDim = m.hiddenSize / m.attentionHeads;
    }

    // transformers' LlamaConfig, MistralConfig and Qwen2Config all default tie_word_embeddings to false.
    auto tie = r.boolean("tie_word_embeddings", false);
    if (!tie) return tie.error();
    m.tieWordEmbeddings = *tie;
    if (m.modelType == "qwen3") {
        m.qkNorm = true;  // Qwen3Attention: RMSNorm over each head's q and k, no q/k/v bias unless attention_bias
        auto attentionBias = r.boolean("attention_bias", false);
        if (!attentionBias) return attentionBias.error();
        m.qkvBias = m.oBias = *attentionBias;
    } else if (m.modelType == "qwen2") {
        m.qkvBias = true;  // Qwen2Attention: bias on q/k/v, none on o
    } else if (m.modelType == "llama") {
        auto attentionBias = r.boolean("attention_bias", false);
        if (!attentionBias) return attentionBias.error();
        m.qkvBias = m.oBias = *attentionBias;
        auto mlpBias = r.boolean("mlp_bias", false);
        if (!mlpBias) return mlpBias.error();
        m.mlpBias = *mlpBias;
    }
    auto maxPositions = r.positiveInt("max_position_embeddings", false);
    if (!maxPositions) return maxPositions.error();
    if (*maxPositions) m.maxPositionEmbeddings = **maxPositions;

    // Sizes far beyond any model (a quadrillion parameters, a terabyte of KV per token) would overflow the byte
    // arithmetic: refuse them here, computed where they cannot overflow.
    using L = long double;
    const L h = m.hiddenSize, q = L(m.attentionHeads) * m.headDim, kvDim = L(m.kvHeads) * m.headDim;
    const L params = L(m.layers) * (2 * h * q + 2 * h * kvDim + 3 * h * m.intermediateSize + 2 * h + q + 2 * kvDim) +
                     2 * L(m.vocabSize) * h;
    if (params > 1e15L) {
        char count[32];
        std::snprintf(count, sizeof count, "%.3g", static_cast<double>(params));
        return Error{sourceName + ": describes about " + count + " parameters, beyond what fp8dash sizes (1e15)"};
    }
    if (2 * L(m.layers) * kvDim * 2 > 1e12L)
        return Error{sourceName + ": describes a KV cache of over a terabyte per token, beyond what fp8dash sizes"};
    return m;
}

namespace {

// Mistral3ForConditionalGeneration (Mistral Small 3.1): a Mistral text decoder in "text_config" and a Pixtral vision
// tower with its projector, which vLLM loads beside it and which stays 16-bit. The tower: a patch convolution
// (channels x patch^2 x hidden), per layer q/k/v/o (4 x hidden^2), gate/up/down (3 x hidden x intermediate) and two
// norms, and a pre-norm; the projector: a norm, the patch merger (merge^2 x hidden -> hidden) and two linear layers
// (hidden -> text hidden -> text hidden, with biases when multimodal_projector_bias).
Result<ModelArchitecture> parseMistral3Config(const Json& j, const std::string& sourceName) {
    const auto text = j.find("text_config");
    if (text == j.end() || !text->is_object())
        return Error{sourceName + ": field \"text_config\" is missing (a mistral3 config keeps its decoder there)"};
    Json decoder = *text;
    decoder["model_type"] = "mistral";
    auto m = parseHfConfig(decoder, sourceName + " (text_config)");
    if (!m) return m;
    m->name = sourceName;
    m->modelType = "mistral3";
    const auto vision = j.find("vision_config");
    if (vision == j.end() || !vision->is_object()) return m;
    const std::string visionSource = sourceName + " (vision_config)";
    const ConfigReader v(*vision, visionSource);
    int h = 0, inter = 0, layers = 0, patch = 0, channels = 3;
    struct Field {
        const char* name;
        int* target;
    };
    for (const Field& f : {Field{"hidden_size", &h}, Field{"intermediate_size", &inter},
                           Field{"num_hidden_layers", &layers}, Field{"patch_size", &patch}}) {
        auto value = v.positiveInt(f.name, true);
        if (!value) return value.error();
        *f.target = **value;
    }
    auto ch = v.positiveInt("num_channels", false);
    if (!ch) return ch.error();
    channels = ch->value_or(3);
    const ConfigReader top(j, sourceName);
    auto merge = top.positiveInt("spatial_merge_size", false);
    if (!merge) return merge.error();
    auto bias = top.boolean("multimodal_projector_bias", false);
    if (!bias) return bias.error();
    using U = std::uint64_t;
    const U H = U(h), T = U(m->hiddenSize), g = U(merge->value_or(1));
    const U tower = U(channels) * U(patch) * U(patch) * H + H + U(layers) * (4 * H * H + 3 * H * U(inter) + 2 * H);
    const U projector = H + g * g * H * H + H * T + T * T + (*bias ? 2 * T : 0);
    m->extraParameters = tower + projector;
    return m;
}

}  // namespace

Result<ModelArchitecture> readHfConfig(const std::filesystem::path& configJson) {
    auto text = readTextFile(configJson, 16u << 20);
    if (!text) return text.error();
    auto json = parseJsonText(*text, configJson.string());
    if (!json) return json.error();
    auto m = parseHfConfig(*json, configJson.string());
    if (!m) return m;
    const auto folder = configJson.parent_path();
    m->hfRepo = folder.empty() ? std::string(".") : folder.string();
    return m;
}

Result<ModelArchitecture> resolveModel(const std::string& nameOrPath) {
    if (const ModelArchitecture* p = findModelPreset(nameOrPath)) return *p;
    std::error_code ec;
    const std::filesystem::path path(nameOrPath);
    if (std::filesystem::is_directory(path, ec)) {
        if (!std::filesystem::exists(path / "config.json", ec))
            return Error{nameOrPath + ": no config.json in this folder"};
        return readHfConfig(path / "config.json");
    }
    if (std::filesystem::exists(path, ec)) return readHfConfig(path);
    if (nameOrPath.find('/') != std::string::npos || nameOrPath.ends_with(".json"))
        return Error{nameOrPath + ": no such file (expected a Hugging Face config.json or a model preset: " +
                     modelPresetNamesText() + ")"};
    return Error{"unknown model \"" + nameOrPath + "\": expected a preset (" + modelPresetNamesText() +
                 ") or the path of a Hugging Face config.json"};
}

}  // namespace fp8dash
