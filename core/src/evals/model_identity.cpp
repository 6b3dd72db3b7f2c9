// Whether two checkpoints are variants of one model (model_identity.h). A checkpoint name is read as words: the
// organisation, a Hugging Face cache path and lm-eval's org__name folded away, split at separators (a dot between
// digits stays: "3.1", "v0.2", "qwen2.5"). Each word is one of:
// - packaging: quantisation and dtype markers (fp8, w8a8, awq, gptq, nvfp4, int4, bf16, ...), tools and formats (hf,
//   autoround, exl2, gguf, mlx, bnb, unsloth, llmcompressor, ...), group sizes and bit widths (128g, g128, 4bit,
//   8.0bpw), calibration (calib512, calibrated). These never make another model. Everything after the first
//   quantisation or tool word that follows a word of the model's own name ("Llama-2-13B-chat-GPTQ-4b-128g",
//   "...-w8a8-v2-quantized") is packaging too: the model's own name comes first in every published convention.
// - identity: everything else: the family and version ("llama", "3.1", "v0.3"), the size ("8b", "8x7b", "a3b"), the
//   context ("128k", "1m"), a release date ("2507"), the tuning (instruct, chat, it, base, math, coder, code, vision,
//   vl, distill, reasoning, thinking, ...) and any word fp8dash does not know ("nemotron", "abliterated"): a fine-
//   tune shares its tokenizer with its base, so an unknown word is taken to name a model.
// Two names with the same identity words (in order) are one model; a name of generic words only ("run-17", "final")
// says nothing. The tokenizer facts then veto: a different EOS,
// BOS or EOT token or chat template makes another model whatever the names; where a name says nothing (a local
// folder "fp8"), tokenizer facts recorded on both sides and equal make it a variant.
#include "fp8dash/core/model_identity.h"

#include <algorithm>
#include <regex>
#include <set>

#include "text_util.h"

namespace fp8dash {

namespace {

// Quantisation and dtype markers: what every FP8 checkpoint's name carries.
bool identityQuantWord(const std::string& t) {
    static const std::set<std::string> kWords = {
        "fp8",         "dynamic",     "block",     "static",       "kv",         "w8a8",     "w4a16",    "w8a16",
        "w4a4",        "w4a8",        "int2",      "int3",         "int4",       "int8",     "nf4",      "awq",
        "gptq",        "nvfp4",       "fp4",       "mxfp4",        "mxfp8",      "nvfp4a16", "mxfp4a16", "quantized",
        "quantised",   "quant",       "bf16",      "fp16",         "fp32",       "bfloat16", "float16",  "float8",
        "gguf",        "ggml",        "bnb",       "bitsandbytes", "2bit",       "3bit",     "4bit",     "5bit",
        "6bit",        "8bit",        "marlin",    "fp8kv",        "a16",        "a8",       "a4",       "e4m3",
        "e5m2",        "channelwise", "pertensor", "pertoken",     "compressed", "tensors",  "modelopt", "nvidia",
        "smoothquant", "spinquant",   "quarot",    "hqq",          "eetq",       "aqlm",     "quip",     "squeezellm",
        "sparse",      "pruned",      "2of4"};
    return kWords.count(t) > 0;
}

// Tools, formats, publishers' packaging, group sizes, bit widths and calibration: words a quantised checkpoint may
// carry that say nothing about the model.
bool identityToolWord(const std::string& t) {
    static const std::set<std::string> kWords = {
        "hf",          "autoround", "inc",   "exl2",          "exl3",        "mlx",     "onnx",
        "openvino",    "ov",        "ct2",   "llmcompressor", "unsloth",     "torchao", "optimum",
        "safetensors", "actorder",  "act",   "order",         "desc",        "true",    "false",
        "sym",         "asym",      "calib", "calibrated",    "calibration", "ptq",     "qat"};
    if (kWords.count(t) > 0) return true;
    static const std::regex kPatterns(
        "calib\\d+|\\d+g|g\\d+|gs\\d+|\\d+(\\.\\d+)?bpw|w\\d+a\\d+|w\\d+g\\d+|q\\d+(k|km|ks|kl|0|1)?|iq\\d+\\w*");
    return std::regex_match(t, kPatterns);
}

// What kind of identity word a word is, for the evidence: "size" ("8b", "0.5b", "135m", "8x7b", "a3b": active
// parameters of a mixture), "context" ("128k", "1m"), "version" ("3.1", "v0.3", "2507"), "tuning" (instruct, chat,
// base, math, coder, ...), or "" (a family or a word fp8dash does not know).
std::string identityKind(const std::string& t) {
    static const std::regex kSize("a?\\d+(\\.\\d+)?b|\\d+(\\.\\d+)?m|\\d+x\\d+(\\.\\d+)?b");
    static const std::regex kContext("\\d+k|1m");
    static const std::regex kVersion("v?\\d+(\\.\\d+)*");
    static const std::set<std::string> kTuning = {"instruct", "chat",   "it",      "base",    "math",      "coder",
                                                  "code",     "vision", "vl",      "distill", "reasoning", "thinking",
                                                  "reward",   "rm",     "preview", "omni",    "audio",     "guard"};
    if (kTuning.count(t) > 0) return "tuning";
    if (std::regex_match(t, kContext)) return "context";
    if (std::regex_match(t, kSize)) return "size";
    if (std::regex_match(t, kVersion)) return "version";
    return {};
}

// The name's words, lower case: the last path component (a Hugging Face cache folder read as its repository,
// lm-eval's org__name as name), split at separators; "meta" before "llama" left out (Meta renamed its repositories).
std::vector<std::string> identityWords(std::string_view checkpoint) {
    std::string name(checkpoint);
    if (const auto at = name.rfind("models--"); at != std::string::npos) {
        name = name.substr(at + 8);
        if (const auto slash = name.find('/'); slash != std::string::npos) name.resize(slash);
        if (const auto dash = name.rfind("--"); dash != std::string::npos) name = name.substr(dash + 2);
    }
    while (!name.empty() && (name.back() == '/' || name.back() == '\\')) name.pop_back();
    if (const auto slash = name.find_last_of("/\\"); slash != std::string::npos) name = name.substr(slash + 1);
    if (const auto org = name.rfind("__"); org != std::string::npos) name = name.substr(org + 2);
    const std::string l = text::lower(name);
    std::vector<std::string> words;
    std::string cur;
    const auto isDigit = [](char c) { return c >= '0' && c <= '9'; };
    for (std::size_t i = 0; i < l.size(); ++i) {
        const char ch = l[i];
        const bool keepDot = ch == '.' && i > 0 && i + 1 < l.size() && isDigit(l[i - 1]) && isDigit(l[i + 1]);
        if ((ch >= 'a' && ch <= 'z') || isDigit(ch) || keepDot) {
            cur += ch;
        } else if (!cur.empty()) {
            words.push_back(std::move(cur));
            cur.clear();
        }
    }
    if (!cur.empty()) words.push_back(std::move(cur));
    std::vector<std::string> out;
    for (std::size_t i = 0; i < words.size(); ++i)
        if (!(words[i] == "meta" && i + 1 < words.size() && words[i + 1].starts_with("llama"))) out.push_back(words[i]);
    return out;
}

struct IdentitySplit {
    std::vector<std::string> identity, quantisation, packaging;  // packaging: tool words and the tail
};

IdentitySplit identitySplit(std::string_view checkpoint) {
    IdentitySplit s;
    bool tail = false;
    for (std::string& w : identityWords(checkpoint)) {
        const bool quant = identityQuantWord(w);
        if (!tail && !quant && !identityToolWord(w)) {
            s.identity.push_back(std::move(w));
            continue;
        }
        tail = !s.identity.empty();
        (quant ? s.quantisation : s.packaging).push_back(std::move(w));
    }
    return s;
}

// Words of a local folder's name that name no model ("/checkpoints/run-17", "/models/final"): a name made only of
// these and numbers says nothing about the model.
bool identityGenericWord(const std::string& t) {
    static const std::set<std::string> kWords = {
        "run",   "runs",   "checkpoint", "checkpoints", "ckpt",      "model",    "models",
        "final", "latest", "merged",     "output",      "outputs",   "step",     "epoch",
        "best",  "last",   "export",     "exported",    "candidate", "baseline", "test",
        "tmp",   "new",    "old",        "current",     "weights",   "serving",  "deploy"};
    return kWords.count(t) > 0 ||
           std::all_of(t.begin(), t.end(), [](char c) { return (c >= '0' && c <= '9') || c == '.'; });
}

std::string identityKeyOf(const std::vector<std::string>& words) {
    if (std::all_of(words.begin(), words.end(), identityGenericWord)) return {};
    std::string key;
    for (const std::string& w : words)
        for (char c : w)
            if (c != '.') key += c;
    return key;
}

// Words of `a` that `b` lacks (as a multiset).
std::vector<std::string> identityOnlyIn(std::vector<std::string> a, std::vector<std::string> b) {
    std::sort(a.begin(), a.end());
    std::sort(b.begin(), b.end());
    std::vector<std::string> out;
    std::set_difference(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(out));
    return out;
}

std::string identityJoin(const std::vector<std::string>& words) {
    std::string out;
    for (const std::string& w : words) out += (out.empty() ? "\"" : ", \"") + w + "\"";
    return out;
}

// "another tuning, another size" for the identity words that differ.
std::string identityKinds(const std::vector<std::string>& words) {
    std::vector<std::string> kinds;
    for (const std::string& w : words)
        if (const std::string k = identityKind(w);
            !k.empty() && std::find(kinds.begin(), kinds.end(), k) == kinds.end())
            kinds.push_back(k);
    std::string out;
    for (const std::string& k : kinds) out += (out.empty() ? "another " : ", another ") + k;
    return out;
}

std::string identityFactText(const Json& v) {
    if (v.is_array() && !v.empty() && v[0].is_string()) return v[0].get<std::string>();  // [text, id]
    if (v.is_string()) return v.get<std::string>();
    return v.dump();
}

// The first tokenizer fact both record that differs ("" when none does); agree: both record at least one fact and
// every fact both record is equal.
std::string identityTokenizerDifference(const TokenizerFacts& a, const TokenizerFacts& b, bool& agree) {
    const std::pair<const char*, const Json TokenizerFacts::*> facts[] = {
        {"tokenizer_eos_token", &TokenizerFacts::eos},
        {"eot_token_id", &TokenizerFacts::eot},
        {"tokenizer_bos_token", &TokenizerFacts::bos},
        {"chat_template_sha", &TokenizerFacts::chatTemplateSha}};
    std::size_t compared = 0;
    for (const auto& [name, member] : facts) {
        const Json &x = a.*member, &y = b.*member;
        if (x.is_null() || y.is_null()) continue;
        ++compared;
        if (x != y) {
            agree = false;
            return std::string(name) + ": baseline " + identityFactText(x) + ", candidate " + identityFactText(y);
        }
    }
    agree = compared > 0;
    return {};
}

}  // namespace

bool TokenizerFacts::any() const {
    return !eos.is_null() || !bos.is_null() || !eot.is_null() || !chatTemplateSha.is_null();
}

TokenizerFacts tokenizerFactsOf(const Json& runSettings) {
    TokenizerFacts f;
    if (!runSettings.is_object()) return f;
    const auto take = [&](const char* key, Json& out) {
        if (auto it = runSettings.find(key); it != runSettings.end()) out = *it;
    };
    take("tokenizer_eos_token", f.eos);
    take("tokenizer_bos_token", f.bos);
    take("eot_token_id", f.eot);
    take("chat_template_sha", f.chatTemplateSha);
    // A BOS recorded as [null, "None"] says the tokenizer has none: a fact like any other.
    return f;
}

std::string modelIdentityKey(std::string_view checkpoint) {
    return identityKeyOf(identitySplit(checkpoint).identity);
}

ModelMatch matchModels(std::string_view a, std::string_view b, const TokenizerFacts& factsA,
                       const TokenizerFacts& factsB) {
    ModelMatch m;
    const IdentitySplit sa = identitySplit(a), sb = identitySplit(b);
    m.tokenizerDifference = identityTokenizerDifference(factsA, factsB, m.tokenizersAgree);
    const std::string ka = identityKeyOf(sa.identity), kb = identityKeyOf(sb.identity);
    const std::string names = std::string(a) + " and " + std::string(b);
    const auto onlyOne = [&](std::vector<std::string> IdentitySplit::*list, std::vector<std::string>& into) {
        for (auto& w : identityOnlyIn(sa.*list, sb.*list)) into.push_back(std::move(w));
        for (auto& w : identityOnlyIn(sb.*list, sa.*list)) into.push_back(std::move(w));
    };
    onlyOne(&IdentitySplit::quantisation, m.quantisationWords);
    onlyOne(&IdentitySplit::packaging, m.packagingWords);
    if (!m.tokenizerDifference.empty()) {
        m.relation = ModelRelation::Different;
        m.reason = "different tokenizers: " + m.tokenizerDifference;
        m.evidence = names + " have different tokenizers (" + m.tokenizerDifference + ")";
        return m;
    }
    if (ka.empty() || kb.empty()) {
        m.relation = m.tokenizersAgree ? ModelRelation::Variant : ModelRelation::Unknown;
        m.evidence = std::string(ka.empty() ? a : b) + " does not name a model" +
                     (m.tokenizersAgree ? "; the tokenizer facts of both runs agree: compared as variants"
                                        : " and no tokenizer fact decides: not checked");
        return m;
    }
    if (ka == kb) {
        m.relation =
            m.packagingWords.empty() && m.quantisationWords.empty() ? ModelRelation::Same : ModelRelation::Variant;
        if (!m.packagingWords.empty())
            m.evidence = names + " differ only by quantisation and packaging words (" + identityJoin(m.packagingWords) +
                         " make no other model)" + (m.tokenizersAgree ? "; their tokenizer facts agree" : "");
        return m;
    }
    // A word one name has in its own part and the other after its quantisation words ("...-Instruct-run3" against
    // "...-Instruct-FP8-run3") is in both names: no difference.
    const auto allOf = [](const IdentitySplit& x) {
        std::vector<std::string> all = x.identity;
        all.insert(all.end(), x.packaging.begin(), x.packaging.end());
        return all;
    };
    auto onlyA = identityOnlyIn(sa.identity, allOf(sb)), onlyB = identityOnlyIn(sb.identity, allOf(sa));
    if (onlyA.empty() && onlyB.empty() &&
        !(identityOnlyIn(sa.identity, sb.identity).empty() && identityOnlyIn(sb.identity, sa.identity).empty())) {
        m.relation = ModelRelation::Variant;
        m.evidence = names + " name one model (their words differ only in where the quantisation words stand)";
        return m;
    }
    m.identityWords = onlyA;
    m.identityWords.insert(m.identityWords.end(), onlyB.begin(), onlyB.end());
    m.relation = ModelRelation::Different;
    std::string words;
    if (!onlyA.empty()) words += identityJoin(onlyA) + " only in the baseline's name";
    if (!onlyB.empty()) words += (words.empty() ? "" : ", ") + identityJoin(onlyB) + " only in the candidate's";
    if (words.empty()) words = "the same words in another order";
    const std::string kinds = identityKinds(m.identityWords);
    m.reason = words + (kinds.empty() ? "" : ": " + kinds);
    m.evidence = names + " are different models (" + m.reason + ")";
    return m;
}

}  // namespace fp8dash
