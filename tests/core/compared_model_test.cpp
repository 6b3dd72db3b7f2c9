// The compared model of the Capacity and Local benchmarks tabs (compared_model.h, model_architecture.h): a
// checkpoint's name reduced to its base model and matched against fp8dash's table of architectures. The architecture
// facts asserted here are the models' published config.json values (Hugging Face, the owners' repositories), written
// out below, not read from the table under test.
#include <gtest/gtest.h>

#include <unistd.h>

#include <fstream>

#include "fp8dash/core/compared_model.h"
#include "fp8dash/core/comparison_builder.h"
#include "fp8dash/core/comparison_file.h"
#include "fp8dash/core/demo.h"
#include "fp8dash/core/model_architecture.h"
#include "test_paths.h"

namespace fp8dash {
namespace {

namespace fs = std::filesystem;

TEST(BaseModelName, DropsTheOrganisationTuningAndQuantisationWords) {
    struct Case {
        const char* checkpoint;
        const char* base;
    };
    const Case cases[] = {
        {"Qwen/Qwen3.5-27B", "qwen3.5-27b"},
        {"Qwen/Qwen3.5-27B-FP8", "qwen3.5-27b"},
        {"meta-llama/Meta-Llama-3-8B-Instruct", "llama-3-8b"},
        {"neuralmagic/Meta-Llama-3-8B-Instruct-FP8", "llama-3-8b"},
        {"RedHatAI/Meta-Llama-3.1-8B-Instruct-FP8-dynamic", "llama-3.1-8b"},
        {"meta-llama/Llama-3.1-70B-Instruct", "llama-3.1-70b"},
        {"neuralmagic/Llama-3.1-8B-Instruct-quantized.w8a8", "llama-3.1-8b"},
        {"mistralai/Mistral-7B-Instruct-v0.3", "mistral-7b-v0.3"},
        {"Qwen__Qwen2.5-7B-Instruct", "qwen2.5-7b"},  // lm-eval's org__name
        {"/root/.cache/huggingface/hub/models--Qwen--Qwen2.5-14B-Instruct/snapshots/0123abcd", "qwen2.5-14b"},
        {"/models/Meta-Llama-3-8B-Instruct/", "llama-3-8b"},  // a local folder
        {"  META-LLAMA/META-LLAMA-3-8B  ", "llama-3-8b"},
        {"", ""},
        {"fp8", ""},  // a folder named after its quantisation says nothing about the model
    };
    for (const Case& c : cases) EXPECT_EQ(baseModelName(c.checkpoint), c.base) << c.checkpoint;
}

// meta-llama/Meta-Llama-3-8B config.json: num_hidden_layers 32, hidden_size 4096, num_attention_heads 32,
// num_key_value_heads 8, intermediate_size 14336, vocab_size 128256, max_position_embeddings 8192,
// tie_word_embeddings false. Llama 3.1 8B has the same shapes with max_position_embeddings 131072.
TEST(ModelPresetForCheckpoint, Llama3EightBIsItsOwnPresetWithLlama31EightBsShapes) {
    for (const char* checkpoint : {"meta-llama/Meta-Llama-3-8B-Instruct", "neuralmagic/Meta-Llama-3-8B-Instruct-FP8",
                                   "meta-llama/Meta-Llama-3-8B"}) {
        const ModelArchitecture* m = findModelPresetForCheckpoint(checkpoint);
        ASSERT_NE(m, nullptr) << checkpoint;
        EXPECT_EQ(m->layers, 32) << checkpoint;
        EXPECT_EQ(m->hiddenSize, 4096);
        EXPECT_EQ(m->attentionHeads, 32);
        EXPECT_EQ(m->kvHeads, 8);
        EXPECT_EQ(m->headDim, 4096 / 32);
        EXPECT_EQ(m->intermediateSize, 14336);
        EXPECT_EQ(m->vocabSize, 128256);
        EXPECT_FALSE(m->tieWordEmbeddings);
        EXPECT_EQ(m->maxPositionEmbeddings, 8192) << checkpoint << ": Llama 3's 8K context, not 3.1's 128K";
        EXPECT_EQ(m->hfRepo, "meta-llama/Meta-Llama-3-8B");
        // K and V: 2 x 32 layers x 8 heads x 128 x 2 bytes = 131,072 in BF16; parameters as Llama 3.1 8B's by hand
        // (capacity_test.cpp): 8,030,261,248; the model card's 8.03B.
        EXPECT_EQ(m->kvBytesPerToken(StorageDtype::Bf16), 2u * 32 * 8 * 128 * 2);
        EXPECT_EQ(m->parameterCount(), 8030261248ull);
    }
    const ModelArchitecture* l3 = findModelPresetForCheckpoint("meta-llama/Meta-Llama-3-8B-Instruct");
    const ModelArchitecture* l31 = findModelPresetForCheckpoint("meta-llama/Llama-3.1-8B-Instruct");
    ASSERT_NE(l3, nullptr);
    ASSERT_NE(l31, nullptr);
    EXPECT_NE(l3->name, l31->name);
    EXPECT_EQ(l31->maxPositionEmbeddings, 131072);
    EXPECT_TRUE(sameShapes(*l3, *l31));
}

// Published config.json values: Qwen/Qwen2.5-7B 28 layers, 4 KV heads, hidden 3584 over 28 heads; Qwen/Qwen2.5-72B
// 80 layers, 8 KV heads; meta-llama/Llama-3.1-70B 80 layers, 8 KV heads, hidden 8192; mistralai/Mistral-7B-v0.3
// vocab_size 32768.
TEST(ModelPresetForCheckpoint, OtherFamiliesMatchByTheirRepositoryName) {
    const ModelArchitecture* q7 = findModelPresetForCheckpoint("Qwen/Qwen2.5-7B-Instruct");
    ASSERT_NE(q7, nullptr);
    EXPECT_EQ(q7->layers, 28);
    EXPECT_EQ(q7->kvHeads, 4);
    EXPECT_EQ(q7->headDim, 3584 / 28);
    const ModelArchitecture* q72 = findModelPresetForCheckpoint("Qwen/Qwen2.5-72B-Instruct-FP8");
    ASSERT_NE(q72, nullptr);
    EXPECT_EQ(q72->layers, 80);
    EXPECT_EQ(q72->kvHeads, 8);
    const ModelArchitecture* l70 = findModelPresetForCheckpoint("RedHatAI/Meta-Llama-3.1-70B-Instruct-FP8");
    ASSERT_NE(l70, nullptr);
    EXPECT_EQ(l70->layers, 80);
    EXPECT_EQ(l70->hiddenSize, 8192);
    const ModelArchitecture* mistral = findModelPresetForCheckpoint("mistralai/Mistral-7B-Instruct-v0.3");
    ASSERT_NE(mistral, nullptr);
    EXPECT_EQ(mistral->vocabSize, 32768);
}

// Another size, release or family is another model: never matched to a neighbour's figures.
TEST(ModelPresetForCheckpoint, ModelsTheTableDoesNotHoldAreUnknown) {
    for (const char* checkpoint : {"Qwen/Qwen3.5-27B", "Qwen/Qwen3.5-27B-FP8", "Qwen/Qwen3-30B-A3B-Thinking-2507-FP8",
                                   "meta-llama/Llama-3.2-1B", "mistralai/Mistral-7B-v0.1", "Qwen/Qwen2.5-32B-Instruct",
                                   "meta-llama/Meta-Llama-3-70B-Instruct", "google/gemma-2b-it", "", "fp8"})
        EXPECT_EQ(findModelPresetForCheckpoint(checkpoint), nullptr) << checkpoint;
}

ComparisonDocument qwenComparison() {
    const fs::path root = test::testData() / "lm-eval-variants" / "qwen3.5-27b";
    ComparisonInputs in;
    in.baselinePath = root / "bf16";
    in.candidatePath = root / "fp8-weights-kv";
    in.moreCandidatePaths = {root / "fp8-kv", root / "fp8-weights"};
    auto built = buildComparison(in);
    EXPECT_TRUE(built.ok()) << (built.ok() ? "" : built.error().message);
    return built.ok() ? built->document : ComparisonDocument{};
}

TEST(ComparedModel, AQwen35ComparisonIsUnknownAndEveryPresetIsAnotherModel) {
    const ComparedModel c = comparedModelOf(qwenComparison());
    EXPECT_EQ(c.checkpoint, "Qwen/Qwen3.5-27B");  // the baseline run's model_name
    EXPECT_TRUE(c.named());
    EXPECT_FALSE(c.known());
    EXPECT_EQ(c.settingsModel, "");
    for (const ModelArchitecture& p : modelPresets()) EXPECT_EQ(modelMatch(p.name, c), ModelMatch::Different) << p.name;
    EXPECT_EQ(modelMatch("", c), ModelMatch::Different);
}

TEST(ComparedModel, TheDemoIsLlama3EightBAndItsCapacitySectionIsForIt) {
    auto demo = loadDemoComparison();
    ASSERT_TRUE(demo.ok()) << demo.error().message;
    const ComparedModel c = comparedModelOf(*demo);
    EXPECT_EQ(c.checkpoint, "meta-llama/Meta-Llama-3-8B-Instruct");
    ASSERT_TRUE(c.known());
    EXPECT_EQ(c.architecture->maxPositionEmbeddings, 8192);
    ASSERT_TRUE(demo->capacity.has_value());
    EXPECT_EQ(modelMatch(demo->capacity->model, c), ModelMatch::Same);
    // Its benchmarks were measured with Llama 3.1 8B's shapes: the same architecture, said so.
    ASSERT_TRUE(demo->benchmarks.has_value());
    EXPECT_EQ(modelMatch(demo->benchmarks->model, c), ModelMatch::SameShapes);
    EXPECT_EQ(modelMatch("llama-3.1-70b", c), ModelMatch::Different);
    EXPECT_EQ(modelMatch("mistral-7b", c), ModelMatch::Different);  // 32 layers x 8 x 128 too, but another vocabulary
}

TEST(ComparedModel, RunsThatNameNoModelHaveNoComparedModel) {
    ComparisonDocument doc;
    doc.hasEvals = false;
    const ComparedModel c = comparedModelOf(doc);
    EXPECT_FALSE(c.named());
    EXPECT_EQ(modelMatch("llama-3.1-8b", c), ModelMatch::NoComparedModel);
}

// A checkpoint that is a folder on this machine is read from its own config.json; a config.json chosen for a plan is
// the compared model when its folder names it.
TEST(ComparedModel, AConfigJsonBesideTheCheckpointIsRead) {
    const fs::path dir = fs::temp_directory_path() / ("fp8dash-compared-" + std::to_string(::getpid()));
    const fs::path folder = dir / "Qwen3.5-27B";
    fs::create_directories(folder);
    {
        std::ofstream f(folder / "config.json");
        f << R"({"model_type": "qwen3", "num_hidden_layers": 4, "hidden_size": 1024, "num_attention_heads": 8,
                 "num_key_value_heads": 2, "head_dim": 128, "intermediate_size": 3072, "vocab_size": 1000})";
    }
    const ComparedModel local = comparedModelFor(folder.string());
    ASSERT_TRUE(local.known());
    EXPECT_EQ(local.architecture->layers, 4);
    EXPECT_EQ(local.architecture->kvBytesPerToken(StorageDtype::Bf16), 2u * 4 * 2 * 128 * 2);
    EXPECT_EQ(local.settingsModel, (folder / "config.json").string());
    EXPECT_EQ(modelMatch(local.settingsModel, local), ModelMatch::Same);

    // The Hub's Qwen3.5-27B is unknown; a config.json in a folder named after it is taken as it.
    const ComparedModel hub = comparedModelFor("Qwen/Qwen3.5-27B-FP8");
    EXPECT_FALSE(hub.known());
    EXPECT_EQ(modelMatch((folder / "config.json").string(), hub), ModelMatch::Same);
    EXPECT_EQ(modelMatch((dir / "other" / "config.json").string(), hub), ModelMatch::Unchecked);
    fs::remove_all(dir);
}

}  // namespace
}  // namespace fp8dash
