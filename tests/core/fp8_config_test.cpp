#include "fp8dash/core/fp8_config.h"

#include <gtest/gtest.h>

#include "test_paths.h"

namespace fp8dash {
namespace {

LmEvalResults runWithArgs(const std::string& modelArgsJson, const std::string& modelName = "") {
    std::string doc = R"({"results": {"t": {"acc,none": 0.5}}, "config": {"model": "vllm", "model_args": )" +
                      modelArgsJson + "}" + (modelName.empty() ? "" : R"(, "model_name": ")" + modelName + "\"") + "}";
    auto r = parseLmEvalText(doc, "t.json");
    if (!r) throw std::runtime_error(r.error().message);
    return std::move(r).value();
}

TEST(Fp8Config, SeedFp8RunHasAllThreeLayers) {
    auto c = detectFp8Config(runWithArgs(
        R"("pretrained=neuralmagic/Meta-Llama-3.1-70B-Instruct-FP8,quantization=fp8,kv_cache_dtype=fp8,calculate_kv_scales=true")"));
    EXPECT_TRUE(c.weights);
    EXPECT_EQ(c.weightsEvidence, "quantization=fp8");
    EXPECT_TRUE(c.kvCache);
    EXPECT_EQ(c.kvCacheDtype, "fp8");
    EXPECT_TRUE(c.kvScales);
    EXPECT_TRUE(c.activations);
    EXPECT_EQ(c.model, "neuralmagic/Meta-Llama-3.1-70B-Instruct-FP8");
    EXPECT_EQ(c.paramsBillions, 70.0);
}

TEST(Fp8Config, Bf16BaselineHasNone) {
    auto c = detectFp8Config(runWithArgs(R"("pretrained=meta-llama/Meta-Llama-3.1-70B-Instruct,dtype=bfloat16")"));
    EXPECT_FALSE(c.weights);
    EXPECT_FALSE(c.kvCache);
    EXPECT_FALSE(c.kvScales);
    EXPECT_FALSE(c.activations);
    EXPECT_EQ(c.dtype, "bfloat16");
    EXPECT_FALSE(c.anyFp8());
}

TEST(Fp8Config, CheckpointNameMeansFp8Weights) {
    for (const char* name : {"RedHatAI/Meta-Llama-3.1-8B-Instruct-FP8-dynamic",
                             "neuralmagic/Mistral-7B-Instruct-v0.3-FP8", "org/model_fp8", "Qwen/Qwen3-8B-FP8"}) {
        auto c = detectFp8Config(runWithArgs(std::string(R"({"pretrained": ")") + name + "\"}"));
        EXPECT_TRUE(c.weights) << name;
        EXPECT_NE(c.weightsEvidence.find(name), std::string::npos) << name;
    }
    for (const char* name : {"neuralmagic/Meta-Llama-3-8B-Instruct-quantized.w8a8", "org/fp80-model", "org/afp8x"}) {
        auto c = detectFp8Config(runWithArgs(std::string(R"({"pretrained": ")") + name + "\"}"));
        EXPECT_FALSE(c.weights) << name;
    }
}

TEST(Fp8Config, KvCacheVariantsAndScalesFromObjectArgs) {
    auto c = detectFp8Config(
        runWithArgs(R"({"pretrained": "m/Llama-3-8B", "kv_cache_dtype": "fp8_e4m3", "calculate_kv_scales": true})"));
    EXPECT_TRUE(c.kvCache);
    EXPECT_EQ(c.kvCacheDtype, "fp8_e4m3");
    EXPECT_TRUE(c.kvScales);  // a JSON boolean in the v0.4.10 object form
    EXPECT_FALSE(c.weights);
    EXPECT_FALSE(c.activations);

    auto noScales =
        detectFp8Config(runWithArgs(R"("pretrained=m/Llama-3-8B,kv_cache_dtype=fp8_e5m2,calculate_kv_scales=False")"));
    EXPECT_TRUE(noScales.kvCache);
    EXPECT_FALSE(noScales.kvScales);

    auto auto_ = detectFp8Config(runWithArgs(R"("pretrained=m/Llama-3-8B,kv_cache_dtype=auto")"));
    EXPECT_FALSE(auto_.kvCache);

    auto shipped =
        detectFp8Config(runWithArgs(R"("pretrained=neuralmagic/Meta-Llama-3-70B-Instruct-FP8-KV,kv_cache_dtype=fp8")"));
    EXPECT_TRUE(shipped.kvScales);
    EXPECT_NE(shipped.kvScalesEvidence.find("checkpoint"), std::string::npos);
}

TEST(Fp8Config, ModelNameFallbackWhenNoPretrained) {
    auto c = detectFp8Config(runWithArgs(R"("base_url=http://x/v1,tokenized_requests=False")", "org/Model-3B-FP8"));
    EXPECT_TRUE(c.weights);
    EXPECT_EQ(c.paramsBillions, 3.0);
}

TEST(ParamCount, ReadsCommonNamingSchemes) {
    EXPECT_EQ(parseParamCountBillions("meta-llama/Meta-Llama-3-8B-Instruct"), 8.0);
    EXPECT_EQ(parseParamCountBillions("qwen/qwen2.5-7B"), 7.0);
    EXPECT_EQ(parseParamCountBillions("Qwen/Qwen2.5-0.5B-Instruct"), 0.5);
    EXPECT_EQ(parseParamCountBillions("google/gemma-2b"), 2.0);
    EXPECT_EQ(parseParamCountBillions("mistralai/Mixtral-8x7B-v0.1"), 56.0);
    EXPECT_DOUBLE_EQ(*parseParamCountBillions("HuggingFaceTB/SmolLM-135M"), 0.135);
    EXPECT_EQ(parseParamCountBillions("/models/LLaMA/huggingface/7B"), 7.0);
    EXPECT_EQ(parseParamCountBillions("meta-llama/Llama-3.1-70B"), 70.0);
    EXPECT_FALSE(parseParamCountBillions("saucam/PowerBot").has_value());
    EXPECT_FALSE(parseParamCountBillions("org/model-8bit").has_value());
    EXPECT_FALSE(parseParamCountBillions("").has_value());
}

TEST(Fp8Config, RealFixturesAreNotFp8) {
    FP8DASH_REQUIRE_FIXTURE(path, "gemma-2b-vllm-bf16_afrimmlu_na-stderr_v0.4.10dev.json");
    auto r = readLmEvalPath(path);
    ASSERT_TRUE(r.ok());
    auto c = detectFp8Config(*r);
    EXPECT_FALSE(c.anyFp8());
    EXPECT_EQ(c.dtype, "bfloat16");
    EXPECT_EQ(c.backend, "vllm");
    EXPECT_EQ(c.paramsBillions, 2.0);
}

}  // namespace
}  // namespace fp8dash
