#pragma once
// Whether two checkpoints are variants of one model (issue 41; docs/comparing-evals.md "Same model"),
// decided from the evidence a run carries: the checkpoint names and the tokenizer facts lm-eval records since 0.4.3.
// Pure functions.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "fp8dash/core/json_text.h"

namespace fp8dash {

// lm-eval's top-level tokenizer facts as the file holds them (null: not recorded): tokenizer_eos_token and
// tokenizer_bos_token ([text, id]), eot_token_id, chat_template_sha.
struct TokenizerFacts {
    Json eos, bos, eot, chatTemplateSha;
    bool any() const;
};
TokenizerFacts tokenizerFactsOf(const Json& runSettings);  // LmEvalResults::runSettings (a JSON object)

enum class ModelRelation {
    Same,       // the names are one model's, word for word (after organisation, case and separators)
    Variant,    // the names differ only by quantisation, tool, packaging and calibration words
    Different,  // an identity word differs, or the tokenizers do
    Unknown,    // a name says nothing about the model (a local folder "fp8") and no tokenizer fact decides
};

struct ModelMatch {
    ModelRelation relation = ModelRelation::Unknown;
    // Words only one name has that make no other model: quantisation markers ("fp8", "gptq") and tool, packaging
    // and calibration words ("hf", "autoround", "calib512", what follows a quantisation word).
    std::vector<std::string> quantisationWords, packagingWords;
    std::vector<std::string> identityWords;  // words only one name has that do ("instruct", "3.1", "70b")
    std::string tokenizerDifference;         // "tokenizer_eos_token: baseline <|eot_id|>, candidate <|end_of_text|>"
    bool tokenizersAgree = false;            // both record tokenizer facts and every fact both record is equal
    // For people: why, naming both checkpoints and the evidence; "" for names that differ by quantisation markers
    // only (every FP8 checkpoint's case: nothing to say).
    std::string evidence;
    // Different only: the evidence without the names ("\"instruct\" only in the candidate's: another tuning").
    std::string reason;
    bool sameModel() const { return relation != ModelRelation::Different; }
};

// a is the baseline's checkpoint, b the candidate's.
ModelMatch matchModels(std::string_view a, std::string_view b, const TokenizerFacts& factsA = {},
                       const TokenizerFacts& factsB = {});

// The model a checkpoint is a variant of, as a comparison key: the identity words of its name, lower-case, without
// separators ("neuralmagic/Meta-Llama-3-8B-Instruct-FP8" -> "llama38binstruct"); "" when the name says nothing.
std::string modelIdentityKey(std::string_view checkpoint);

}  // namespace fp8dash
