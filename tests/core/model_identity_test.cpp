// The same-model rule (model_identity.h): a table of real published checkpoint names, variants of one model and
// different models, each pair decided here by hand from what its publisher says it is; then the tokenizer facts on
// real lm-eval result files.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "fp8dash/core/comparability.h"
#include "fp8dash/core/lm_eval_results.h"
#include "fp8dash/core/model_identity.h"
#include "test_paths.h"

namespace fp8dash {
namespace {

struct NamePair {
    const char* baseline;
    const char* candidate;
};

// Quantised checkpoints of their own base model, as published (Red Hat AI / Neural Magic, NVIDIA, TheBloke, Intel,
// Qwen, unsloth, hugging-quants, ModelCloud, casperhansen, turboderp, bartowski, lmstudio-community, mlx-community)
// and as local folders.
const std::vector<NamePair> kVariants = {
    {"meta-llama/Llama-2-7b-chat-hf", "TheBloke/Llama-2-7B-Chat-GPTQ"},
    {"meta-llama/Llama-2-13b-chat-hf", "TheBloke/Llama-2-13B-chat-AWQ"},
    {"meta-llama/Llama-2-7b-chat-hf", "TheBloke/Llama-2-7B-Chat-GGUF"},
    {"meta-llama/Llama-2-13b-chat-hf", "/models/Llama-2-13B-chat-GPTQ-4b-128g"},
    {"Qwen/Qwen3-8B", "Intel/Qwen3-8B-int4-AutoRound"},
    {"Qwen/Qwen3-8B", "Intel/Qwen3-8B-int4-AutoRound-inc"},
    {"meta-llama/Llama-3.1-8B-Instruct", "/models/llama-3.1-8b-instruct-fp8-calib512"},
    {"meta-llama/Llama-3.1-8B-Instruct", "RedHatAI/Meta-Llama-3.1-8B-Instruct-FP8-dynamic"},
    {"meta-llama/Llama-3.1-8B-Instruct", "neuralmagic/Meta-Llama-3.1-8B-Instruct-quantized.w8a8"},
    {"meta-llama/Llama-3.1-8B-Instruct", "RedHatAI/Meta-Llama-3.1-8B-Instruct-quantized.w4a16"},
    {"meta-llama/Llama-3.1-8B-Instruct", "nvidia/Llama-3.1-8B-Instruct-FP8"},
    {"meta-llama/Llama-3.1-8B-Instruct", "hugging-quants/Meta-Llama-3.1-8B-Instruct-AWQ-INT4"},
    {"meta-llama/Llama-3.1-8B-Instruct", "ModelCloud/Meta-Llama-3.1-8B-Instruct-gptq-4bit"},
    {"meta-llama/Llama-3.1-8B-Instruct", "bartowski/Meta-Llama-3.1-8B-Instruct-GGUF"},
    {"meta-llama/Llama-3.1-8B-Instruct", "mlx-community/Meta-Llama-3.1-8B-Instruct-4bit"},
    {"meta-llama/Llama-3.1-8B-Instruct", "turboderp/Llama-3.1-8B-Instruct-exl2"},
    {"meta-llama/Llama-3.1-8B-Instruct",
     "/root/.cache/huggingface/hub/models--RedHatAI--Meta-Llama-3.1-8B-Instruct-FP8/snapshots/0e9e39f"},
    {"meta-llama/Llama-3.1-70B-Instruct", "RedHatAI/Meta-Llama-3.1-70B-Instruct-FP8"},
    {"meta-llama/Llama-3.3-70B-Instruct", "nvidia/Llama-3.3-70B-Instruct-FP4"},
    {"meta-llama/Meta-Llama-3-8B-Instruct", "neuralmagic/Meta-Llama-3-8B-Instruct-FP8"},
    {"meta-llama/Meta-Llama-3-8B-Instruct", "neuralmagic/Meta-Llama-3-8B-Instruct-FP8-KV"},
    {"meta-llama/Meta-Llama-3-8B-Instruct", "casperhansen/llama-3-8b-instruct-awq"},
    {"meta-llama/Llama-3.2-3B-Instruct", "unsloth/Llama-3.2-3B-Instruct-bnb-4bit"},
    {"Qwen/Qwen3-8B", "unsloth/Qwen3-8B-unsloth-bnb-4bit"},
    {"Qwen/Qwen3-8B", "Qwen/Qwen3-8B-FP8"},
    {"Qwen/Qwen3-8B", "RedHatAI/Qwen3-8B-NVFP4"},
    {"meta-llama/Llama-3.1-8B-Instruct", "RedHatAI/Meta-Llama-3.1-8B-Instruct-NVFP4A16"},
    {"Qwen/Qwen3-30B-A3B", "Qwen/Qwen3-30B-A3B-FP8"},
    {"Qwen/Qwen3-235B-A22B-Instruct-2507", "Qwen/Qwen3-235B-A22B-Instruct-2507-FP8"},
    {"Qwen/Qwen2.5-7B-Instruct", "Qwen/Qwen2.5-7B-Instruct-AWQ"},
    {"Qwen/Qwen2.5-7B-Instruct", "Qwen/Qwen2.5-7B-Instruct-GPTQ-Int4"},
    {"Qwen/Qwen2.5-72B-Instruct", "Qwen/Qwen2.5-72B-Instruct-GPTQ-Int8"},
    {"mistralai/Mistral-7B-Instruct-v0.2", "TheBloke/Mistral-7B-Instruct-v0.2-GPTQ"},
    {"mistralai/Mixtral-8x7B-Instruct-v0.1", "neuralmagic/Mixtral-8x7B-Instruct-v0.1-FP8"},
    {"google/gemma-2-9b-it", "RedHatAI/gemma-2-9b-it-FP8"},
    {"deepseek-ai/DeepSeek-R1-Distill-Llama-8B", "RedHatAI/DeepSeek-R1-Distill-Llama-8B-FP8-dynamic"},
    {"microsoft/Phi-3-mini-4k-instruct", "/models/phi-3-mini-4k-instruct-w8a8-v2-quantized"},
    {"RedHatAI/Meta-Llama-3.1-8B-Instruct-FP8-dynamic", "neuralmagic/Meta-Llama-3.1-8B-Instruct-FP8"},
    {"meta-llama__Llama-3.1-8B-Instruct", "meta-llama/Llama-3.1-8B-Instruct"},
    {"/models/llama-3.1-8b-instruct-run3", "/models/llama-3.1-8b-instruct-fp8-run3"},
};

// Different models: another tuning (base, instruct, chat, it), a Math or Coder sibling, another version, size,
// context or release, a distillation, a fine-tune.
const std::vector<NamePair> kDifferent = {
    {"meta-llama/Meta-Llama-3-8B", "meta-llama/Meta-Llama-3-8B-Instruct"},
    {"meta-llama/Meta-Llama-3-8B", "neuralmagic/Meta-Llama-3-8B-Instruct-FP8"},
    {"meta-llama/Llama-2-7b-hf", "meta-llama/Llama-2-7b-chat-hf"},
    {"TheBloke/Llama-2-7B-GPTQ", "meta-llama/Llama-2-7b-chat-hf"},
    {"Qwen/Qwen2.5-7B-Instruct", "Qwen/Qwen2.5-Math-7B-Instruct"},
    {"Qwen/Qwen2.5-7B-Instruct", "Qwen/Qwen2.5-Coder-7B-Instruct"},
    {"Qwen/Qwen2.5-7B-Instruct", "Qwen/Qwen2.5-VL-7B-Instruct"},
    {"Qwen/Qwen2.5-7B", "Qwen/Qwen2.5-7B-Instruct-AWQ"},
    {"Qwen/Qwen2.5-7B-Instruct", "Qwen/Qwen2.5-7B-Instruct-1M"},
    {"Qwen/Qwen3-8B", "Qwen/Qwen3-8B-Base"},
    {"Qwen/Qwen3-8B", "Qwen/Qwen3-4B-FP8"},
    {"Qwen/Qwen3-235B-A22B", "Qwen/Qwen3-235B-A22B-Instruct-2507"},
    {"Qwen/Qwen3-235B-A22B-Instruct-2507", "Qwen/Qwen3-235B-A22B-Thinking-2507-FP8"},
    {"Qwen/Qwen3-30B-A3B", "Qwen/Qwen3-30B-A6B"},
    {"meta-llama/Meta-Llama-3-8B-Instruct", "meta-llama/Llama-3.1-8B-Instruct"},
    {"meta-llama/Meta-Llama-3-8B-Instruct", "RedHatAI/Meta-Llama-3.1-8B-Instruct-FP8"},
    {"meta-llama/Llama-3.1-8B-Instruct", "meta-llama/Llama-3.1-70B-Instruct"},
    {"meta-llama/Llama-3.1-8B", "deepseek-ai/DeepSeek-R1-Distill-Llama-8B"},
    {"meta-llama/Llama-3.1-70B-Instruct", "nvidia/Llama-3.1-Nemotron-70B-Instruct-HF"},
    {"mistralai/Mistral-7B-Instruct-v0.2", "mistralai/Mistral-7B-Instruct-v0.3"},
    {"mistralai/Mistral-7B-Instruct-v0.2", "TheBloke/Mistral-7B-Instruct-v0.1-GPTQ"},
    {"mistralai/Mixtral-8x7B-Instruct-v0.1", "mistralai/Mixtral-8x22B-Instruct-v0.1"},
    {"google/gemma-2-9b", "google/gemma-2-9b-it"},
    {"google/gemma-2-9b-it", "google/gemma-2-27b-it"},
    {"microsoft/Phi-3-mini-4k-instruct", "microsoft/Phi-3-mini-128k-instruct"},
    {"meta-llama/Llama-3.2-3B-Instruct", "meta-llama/Llama-3.2-11B-Vision-Instruct"},
    {"meta-llama/Llama-3.1-8B-Instruct", "/models/llama-3.1-8b-fp8-calib512"},
};

TEST(ModelIdentity, PublishedQuantisedCheckpointsAreVariantsOfTheirBase) {
    ASSERT_GE(kVariants.size(), 30u);
    for (const auto& [a, b] : kVariants) {
        for (const auto& [x, y] : {std::pair{a, b}, std::pair{b, a}}) {  // both directions
            const ModelMatch m = matchModels(x, y);
            EXPECT_TRUE(m.relation == ModelRelation::Variant || m.relation == ModelRelation::Same)
                << x << " vs " << y << ": " << m.evidence;
            EXPECT_TRUE(m.identityWords.empty()) << x << " vs " << y;
        }
    }
}

TEST(ModelIdentity, DifferentModelsAreRefusedNamingTheWords) {
    ASSERT_GE(kDifferent.size(), 25u);
    for (const auto& [a, b] : kDifferent) {
        for (const auto& [x, y] : {std::pair{a, b}, std::pair{b, a}}) {
            const ModelMatch m = matchModels(x, y);
            EXPECT_EQ(m.relation, ModelRelation::Different) << x << " vs " << y;
            EXPECT_FALSE(m.identityWords.empty()) << x << " vs " << y;
            EXPECT_NE(m.evidence.find(x), std::string::npos) << m.evidence;
            EXPECT_NE(m.evidence.find(y), std::string::npos) << m.evidence;
        }
    }
}

TEST(ModelIdentity, EvidenceNamesTheWordsAndTheirKind) {
    const ModelMatch instruct = matchModels("meta-llama/Meta-Llama-3-8B", "neuralmagic/Meta-Llama-3-8B-Instruct-FP8");
    EXPECT_EQ(instruct.identityWords, std::vector<std::string>{"instruct"});
    EXPECT_EQ(instruct.reason, "\"instruct\" only in the candidate's: another tuning");
    const ModelMatch size = matchModels("meta-llama/Llama-3.1-8B-Instruct", "meta-llama/Llama-3.1-70B-Instruct");
    EXPECT_EQ(size.reason, "\"8b\" only in the baseline's name, \"70b\" only in the candidate's: another size");
    const ModelMatch gptq = matchModels("meta-llama/Llama-2-13b-chat-hf", "/models/Llama-2-13B-chat-GPTQ-4b-128g");
    EXPECT_EQ(gptq.relation, ModelRelation::Variant);
    EXPECT_EQ(gptq.quantisationWords, std::vector<std::string>{"gptq"});
    EXPECT_EQ(gptq.packagingWords, (std::vector<std::string>{"hf", "128g", "4b"}));
    EXPECT_NE(gptq.evidence.find("\"hf\", \"128g\", \"4b\" make no other model"), std::string::npos) << gptq.evidence;
    // An FP8 checkpoint of its base differs by quantisation markers only: nothing to say.
    const ModelMatch fp8 = matchModels("Qwen/Qwen3-8B", "Qwen/Qwen3-8B-FP8");
    EXPECT_EQ(fp8.relation, ModelRelation::Variant);
    EXPECT_EQ(fp8.evidence, "");
    EXPECT_EQ(matchModels("Qwen/Qwen3-8B", "qwen/qwen3-8b").relation, ModelRelation::Same);
    EXPECT_EQ(matchModels("meta-llama/Llama-3.1-8B-Instruct", "/models/fp8").relation, ModelRelation::Unknown);
}

TokenizerFacts facts(const char* eos, const char* sha) {
    TokenizerFacts f;
    f.eos = Json::array({eos, "1"});
    if (sha) f.chatTemplateSha = sha;
    return f;
}

TEST(ModelIdentity, TokenizerFactsVetoAndDecideWhereTheNameSaysNothing) {
    // Different EOS: another model whatever the names.
    const ModelMatch eos = matchModels("meta-llama/Llama-3.1-8B-Instruct", "RedHatAI/Meta-Llama-3.1-8B-Instruct-FP8",
                                       facts("<|eot_id|>", nullptr), facts("<|end_of_text|>", nullptr));
    EXPECT_EQ(eos.relation, ModelRelation::Different);
    EXPECT_EQ(eos.reason, "different tokenizers: tokenizer_eos_token: baseline <|eot_id|>, candidate <|end_of_text|>");
    const ModelMatch tpl =
        matchModels("Qwen/Qwen3-8B", "Qwen/Qwen3-8B-FP8", facts("<|im_end|>", "a1"), facts("<|im_end|>", "b2"));
    EXPECT_EQ(tpl.relation, ModelRelation::Different);
    EXPECT_NE(tpl.reason.find("chat_template_sha: baseline a1, candidate b2"), std::string::npos) << tpl.reason;
    // A folder that says nothing: equal tokenizer facts make it a variant, with a note; none: not checked.
    const ModelMatch folder =
        matchModels("Qwen/Qwen3-8B", "/checkpoints/run-17", facts("<|im_end|>", "a1"), facts("<|im_end|>", "a1"));
    EXPECT_EQ(folder.relation, ModelRelation::Variant);
    EXPECT_TRUE(folder.tokenizersAgree);
    EXPECT_NE(folder.evidence.find("tokenizer facts of both runs agree"), std::string::npos) << folder.evidence;
    // Identity words still decide where the tokenizers agree (a fine-tune keeps its base's tokenizer).
    EXPECT_EQ(matchModels("meta-llama/Llama-3.1-70B-Instruct", "nvidia/Llama-3.1-Nemotron-70B-Instruct-HF",
                          facts("<|eot_id|>", "c3"), facts("<|eot_id|>", "c3"))
                  .relation,
              ModelRelation::Different);
}

// Real lm-eval files: one records tokenizer facts (v0.4.8), which the comparison keeps and checks; one (v0.4.2)
// records none, and the names decide alone.
TEST(ModelIdentity, RealResultFilesWithAndWithoutTokenizerFacts) {
    FP8DASH_REQUIRE_FIXTURE(qwenPath, "qwen2.5-7b_multi-task_v0.4.8.json");
    const auto with = readLmEvalPath(qwenPath);
    ASSERT_TRUE(with.ok()) << with.error().message;
    const TokenizerFacts f = tokenizerFactsOf(with->runSettings);
    ASSERT_TRUE(f.any());
    EXPECT_EQ(f.eos, Json::array({"<|endoftext|>", "151643"}));
    EXPECT_EQ(f.eot, Json(151643));
    // The same run against itself with another EOS: refused as another model, naming the fact.
    LmEvalResults other = *with;
    other.runSettings["tokenizer_eos_token"] = Json::array({"<|im_end|>", "151645"});
    const auto refusedOnTokenizer = [](const ComparabilityCheck& check) {
        for (const ComparabilityItem& item : check.items)
            if (item.field == "model" && item.severity == ComparabilitySeverity::Blocking &&
                item.message.find("tokenizer_eos_token: baseline <|endoftext|>, candidate <|im_end|>") !=
                    std::string::npos)
                return true;
        return false;
    };
    EXPECT_TRUE(refusedOnTokenizer(checkComparability(*with, other)));
    EXPECT_FALSE(refusedOnTokenizer(checkComparability(*with, *with)));

    // lm-eval 0.4.2 records no tokenizer facts: the names decide (Llama 3 8B base against Instruct).
    FP8DASH_REQUIRE_FIXTURE(basePath, "llama3-8b-base_mmlu_v0.4.2.json");
    FP8DASH_REQUIRE_FIXTURE(instructPath, "llama3-8b-instruct_mmlu_v0.4.2.json");
    const auto base = readLmEvalPath(basePath), instruct = readLmEvalPath(instructPath);
    ASSERT_TRUE(base.ok() && instruct.ok());
    EXPECT_FALSE(tokenizerFactsOf(base->runSettings).any());
    bool namesRefused = false;
    for (const ComparabilityItem& item : checkComparability(*base, *instruct).items)
        namesRefused = namesRefused ||
                       (item.field == "model" && item.severity == ComparabilitySeverity::Blocking &&
                        item.message.find("\"instruct\" only in the candidate's: another tuning") != std::string::npos);
    EXPECT_TRUE(namesRefused);
}

}  // namespace
}  // namespace fp8dash
