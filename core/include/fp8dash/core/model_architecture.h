#pragma once
// A dense decoder-only transformer as the capacity planner needs it (Llama / Qwen2 / Mistral style): the presets with
// the numbers of their official config.json, and the reading of a Hugging Face config.json. Counts are parameters,
// sizes bytes. Values are plain data; every function is thread-safe.

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "fp8dash/core/lm_eval_results.h"
#include "fp8dash/core/result.h"

namespace fp8dash {

// How a tensor is stored: BF16 (2 bytes per element) or FP8 E4M3 (1 byte).
enum class StorageDtype { Bf16, Fp8 };

const char* storageDtypeName(StorageDtype d);                          // "bf16", "fp8"
std::optional<StorageDtype> parseStorageDtype(std::string_view text);  // "bf16"/"bfloat16", "fp8"/"fp8_e4m3"
inline int bytesPerElement(StorageDtype d) {
    return d == StorageDtype::Fp8 ? 1 : 2;
}

struct ModelArchitecture {
    std::string name;       // preset name ("llama-3.1-8b") or the config.json path it was read from
    std::string hfRepo;     // what vLLM and lm-eval load: a Hugging Face id, or the folder holding config.json
    std::string modelType;  // config.json model_type: "llama", "qwen2", "mistral"
    bool fromConfigFile = false;

    int layers = 0;                  // num_hidden_layers
    int hiddenSize = 0;              // hidden_size
    int attentionHeads = 0;          // num_attention_heads
    int kvHeads = 0;                 // num_key_value_heads (GQA); equals attentionHeads when the config omits it
    int headDim = 0;                 // head_dim, else hidden_size / num_attention_heads
    int intermediateSize = 0;        // intermediate_size (MLP)
    int vocabSize = 0;               // vocab_size
    bool tieWordEmbeddings = false;  // the LM head shares the input embedding matrix
    bool qkvBias = false;            // q/k/v projections carry a bias (Qwen2; Llama's attention_bias)
    bool oBias = false;              // the output projection carries a bias (Llama's attention_bias)
    bool mlpBias = false;            // gate/up/down carry a bias (Llama's mlp_bias)
    bool qkNorm = false;             // an RMSNorm over each head's q and k (Qwen3): 2 x head_dim weights a layer
    // Parameters outside the decoder that a checkpoint loads beside it (a multimodal model's vision tower and
    // projector), kept 16-bit in every format; 0 for a text-only model.
    std::uint64_t extraParameters = 0;
    std::optional<long long> maxPositionEmbeddings;  // tokens; the longest context the model is configured for
    std::optional<double> publishedParameters;       // the total its model card publishes, when known

    // Parameter counts from the architecture (exact for these families).
    std::uint64_t embeddingParameters() const;    // vocab x hidden
    std::uint64_t lmHeadParameters() const;       // vocab x hidden, or 0 when tied to the embedding
    std::uint64_t linearParameters() const;       // every layer's q/k/v/o and gate/up/down weight matrices
    std::uint64_t normAndBiasParameters() const;  // RMSNorm weights (2 per layer + final) and the biases
    std::uint64_t parameterCount() const;         // the sum of the four above, and extraParameters

    // K and V of one token over all layers: 2 x layers x kv_heads x head_dim x bytes per element (DESIGN.md
    // "KV-cache capacity"). Bytes.
    std::uint64_t kvBytesPerToken(StorageDtype kv) const;

    // Bytes of the checkpoint in memory. BF16: 2 bytes per parameter. FP8 (an FP8 checkpoint, or vLLM's
    // --quantization fp8 of a BF16 one): the linear layers' weights take 1 byte; the embedding, the LM head, the norms
    // and the biases stay BF16. The per-tensor scales (one float per matrix) are left out: a few kilobytes.
    std::uint64_t weightsBytes(StorageDtype weights) const;
    // Bytes one decode step reads: all weights except the input embedding table, of which a step gathers only the
    // batch's rows (a tied table is read whole, as the LM head).
    std::uint64_t weightsBytesReadPerStep(StorageDtype weights) const;
};

// The presets, in a stable order: llama-3.1-8b, llama-3.1-70b, llama-3.1-405b, qwen2.5-7b, qwen2.5-14b, qwen2.5-72b,
// mistral-7b, llama-3-8b.
const std::vector<ModelArchitecture>& modelPresets();
const ModelArchitecture* findModelPreset(std::string_view name);  // case-insensitive; nullptr when unknown
std::string modelPresetNamesText();                               // "llama-3.1-8b, llama-3.1-70b, ..." for messages

// The base model a checkpoint's name stands for, as fp8dash's table names models: the repository name (after the last
// '/', a Hugging Face cache folder's "models--org--name", lm-eval's "org__name"), lower case, without the words
// (between '-' or '_') that say how it was tuned, packaged or quantised: instruct, chat, it, base, hf, and the
// quantisation and dtype markers of baseModelKey (fp8, dynamic, kv, w8a8, bf16, quantized.*, ...), and "Meta-Llama"
// read as "Llama". "Qwen/Qwen3.5-27B-FP8" -> "qwen3.5-27b", "meta-llama/Meta-Llama-3-8B-Instruct" -> "llama-3-8b",
// "mistralai/Mistral-7B-Instruct-v0.3" -> "mistral-7b-v0.3". Empty when nothing is left.
std::string baseModelName(std::string_view checkpoint);
// The preset a checkpoint is: its baseModelName equals a preset's name or the baseModelName of the preset's Hugging
// Face id. nullptr when the table does not hold it (a different size, release or family is another model).
const ModelArchitecture* findModelPresetForCheckpoint(std::string_view checkpoint);
// Whether two architectures have the same shapes, so every capacity and benchmark figure is the same for both
// (names, Hugging Face ids and the longest context may differ).
bool sameShapes(const ModelArchitecture& a, const ModelArchitecture& b);

// A Hugging Face config.json (LlamaForCausalLM, Qwen2ForCausalLM, MistralForCausalLM and configs of those model
// types). Errors name the file and the field.
Result<ModelArchitecture> readHfConfig(const std::filesystem::path& configJson);
Result<ModelArchitecture> parseHfConfig(const Json& config, const std::string& sourceName);

// A preset name, a config.json path, or a model folder holding a config.json.
Result<ModelArchitecture> resolveModel(const std::string& nameOrPath);

}  // namespace fp8dash
