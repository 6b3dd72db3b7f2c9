// The capacity planner against what vLLM itself printed at start-up: the 14 real runs of
// shared/fixtures/vllm-capacity (read in place). Each run's settings go to planCapacity with vLLM's accounting and the
// GPU preset (its device-reported memory, not the log's); the token count must be within 5 % of vLLM's, or 15 % where
// the KV pool is under a tenth of the usable memory (the README's table is this test's output).
#include "fp8dash/core/capacity.h"
#include "fp8dash/core/local_bench.h"
#include "fp8dash/core/model_architecture.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>

#include "test_paths.h"

namespace fp8dash {
namespace {

Json fixtureRuns() {
    const auto path = test::sharedFixtures() / "vllm-capacity" / "startup-logs.json";
    std::ifstream in(path);
    if (!in) return Json();
    return Json::parse(in);
}

// The model of each run, by the id its log names: a preset or a config.json under tests/data/capacity (the
// official config's fields), and the weight format its checkpoint is stored in.
struct RunModel {
    std::string model;
    WeightFormat format = WeightFormat::Bf16;
};
RunModel modelOf(const std::string& modelId) {
    const std::string data = (test::testData() / "capacity").string() + "/";
    if (modelId.find("quantized.w4a16") != std::string::npos) return {"llama-3.1-8b", WeightFormat::Int4W4A16};
    if (modelId.find("Llama-3.1-8B") != std::string::npos || modelId.find("Meta-Llama-3-8B") != std::string::npos)
        return {"llama-3.1-8b", WeightFormat::Bf16};  // Llama 3 8B has Llama 3.1 8B's architecture
    if (modelId.find("Qwen3-8B") != std::string::npos) return {data + "qwen3-8b.config.json", WeightFormat::Bf16};
    if (modelId.find("Qwen3-32B") != std::string::npos) return {data + "qwen3-32b.config.json", WeightFormat::Bf16};
    if (modelId.find("Mistral-Small-3.1") != std::string::npos)
        return {data + "mistral-small-3.1-24b.config.json", WeightFormat::Bf16};
    if (modelId.find("Qwen2.5-7B-Instruct-AWQ") != std::string::npos) return {"qwen2.5-7b", WeightFormat::Int4Awq};
    if (modelId.find("Qwen2-7B") != std::string::npos) return {"qwen2.5-7b", WeightFormat::Bf16};  // same shape
    throw std::runtime_error("no model for " + modelId);
}

std::string gpuOf(const std::string& gpuModel) {
    if (gpuModel.find("H100") != std::string::npos) return "h100-sxm";
    if (gpuModel.find("A100") != std::string::npos) return "a100-80gb";
    if (gpuModel.find("RTX 3090") != std::string::npos) return "rtx-3090";
    if (gpuModel.find("RTX 4080") != std::string::npos) return "rtx-4080";
    if (gpuModel.find("RTX PRO 6000") != std::string::npos) return "rtx-pro-6000";
    throw std::runtime_error("no GPU preset for " + gpuModel);
}

template <class T>
std::optional<T> field(const Json& run, const char* key) {
    const auto it = run.find(key);
    if (it == run.end() || it->is_null()) return std::nullopt;
    return it->get<T>();
}

struct Outcome {
    std::string id;
    double expected = 0, planned = 0;  // tokens, or GiB of pool where the log gives no tokens
    bool tokens = true;
    double tolerance = 0.05;
};

Outcome planRun(const Json& run) {
    Outcome o;
    o.id = run.at("id").get<std::string>();
    const RunModel rm = modelOf(run.at("model_id").get<std::string>());
    CapacityInputs in;
    in.model = resolveModel(rm.model).value();
    in.weightFormat = rm.format;
    in.gpu = findGpuPreset(gpuOf(run.at("gpu_model").get<std::string>())).value();
    in.gpus = field<int>(run, "tensor_parallel_size").value_or(1);
    in.kv =
        field<std::string>(run, "kv_cache_dtype").value_or("auto") == "fp8" ? StorageDtype::Fp8 : StorageDtype::Bf16;
    in.gpuUtilization = field<double>(run, "gpu_memory_utilization").value_or(0.9);
    in.contextTokens = field<long long>(run, "max_model_len").value_or(8192);  // PR #10511: the model's 8192
    VllmServeSettings s;
    // The V0 logs name no release; their wordings are those of 0.6.4 (issue #10517) and 0.6.5 (PR #10511).
    s.version = field<std::string>(run, "vllm_version").value_or("0.6.4");
    s.pipelineParallel = field<int>(run, "pipeline_parallel_size").value_or(1);
    s.maxNumBatchedTokens = field<long long>(run, "max_num_batched_tokens");
    if (const auto seqs = field<long long>(run, "max_num_seqs")) s.maxNumSeqs = static_cast<int>(*seqs);
    s.blockSize = field<int>(run, "block_size").value_or(16);
    // The RTX PRO 6000 run passed disable_custom_all_reduce=True (its engine_kwargs).
    s.customAllReduce =
        run.at("quote").get<std::string>().find("\"disable_custom_all_reduce\": true") == std::string::npos;
    in.vllm = s;
    const CapacityResult r = planCapacity(in).value();

    const auto tokens = field<long long>(run, "gpu_kv_cache_tokens");
    const auto blocks = field<long long>(run, "num_gpu_blocks");
    const auto pool = field<double>(run, "available_kv_cache_gib");
    const double usableGiB = in.gpuUtilization * static_cast<double>(in.gpu.memoryBytes) / 1073741824.0;
    if (tokens || blocks) {
        o.expected = static_cast<double>(tokens ? *tokens : *blocks * s.blockSize);
        o.planned = static_cast<double>(r.maxTokens);
    } else {
        o.tokens = false;
        o.expected = *pool;
        const VllmStage& st = r.vllm->stages[static_cast<std::size_t>(r.vllm->tightestStage)];
        o.planned = static_cast<double>(st.poolBytes) / 1073741824.0;
    }
    // The pool vLLM reported (else its tokens at the planned bytes per token) against a tenth of the usable memory.
    double poolGiB = pool ? *pool : 0;
    if (!pool) {
        const VllmStage& st = r.vllm->stages[static_cast<std::size_t>(r.vllm->tightestStage)];
        poolGiB = o.expected * static_cast<double>(st.kvBytesPerToken) / 1073741824.0;
    }
    if (poolGiB < usableGiB / 10) o.tolerance = 0.15;
    return o;
}

TEST(VllmCapacityFixtures, EveryStartUpWithinToleranceOfVllm) {
    const Json runs = fixtureRuns();
    if (runs.is_null())
        GTEST_SKIP() << "shared fixture vllm-capacity/startup-logs.json not found under " << test::sharedFixtures();
    ASSERT_EQ(runs.size(), 14u);
    std::printf("| run | vLLM | fp8dash | difference |\n|---|---|---|---|\n");
    for (const Json& run : runs) {
        const Outcome o = planRun(run);
        const double diff = o.planned / o.expected - 1;
        if (o.tokens)
            std::printf("| %s | %.0f | %.0f | %+.1f %% |\n", o.id.c_str(), o.expected, o.planned, 100 * diff);
        else
            std::printf("| %s | %.2f GiB | %.2f GiB | %+.1f %% |\n", o.id.c_str(), o.expected, o.planned, 100 * diff);
        EXPECT_LE(std::fabs(diff), o.tolerance)
            << o.id << ": vLLM " << o.expected << ", fp8dash " << o.planned << " (tolerance " << o.tolerance << ")";
    }
}

}  // namespace
}  // namespace fp8dash

namespace fp8dash {
namespace {

// Saved capacity settings: without "vllm_version" (every file written before vLLM's accounting) they plan with
// their flat overhead, as saved; with it, by that release's accounting. The key is written only when set.
TEST(VllmCapacitySettings, OldFilesKeepTheFlatOverheadNewOnesNameTheRelease) {
    CapacitySettings old;
    old.vllmVersion.clear();  // as written before vLLM's accounting
    Json j = capacitySettingsToJson(old);
    EXPECT_FALSE(j.contains("vllm_version"));
    auto flat = capacityInputsFromSettings(*parseCapacitySettings(j, "capacity"), nullptr);
    ASSERT_TRUE(flat);
    EXPECT_FALSE(flat->vllm.has_value());

    CapacitySettings now;  // settings made now follow the release `capacity` defaults to
    EXPECT_EQ(now.vllmVersion, kDefaultVllmVersion);
    now.vllmVersion = "0.28";
    j = capacitySettingsToJson(now);
    EXPECT_EQ(j["vllm_version"], "0.28");
    auto parsed = parseCapacitySettings(j, "capacity");
    ASSERT_TRUE(parsed);
    EXPECT_EQ(*parsed, now);
    auto vllm = capacityInputsFromSettings(*parsed, nullptr);
    ASSERT_TRUE(vllm);
    ASSERT_TRUE(vllm->vllm.has_value());
    EXPECT_EQ(vllm->vllm->version, "0.28");

    j["vllm_version"] = "newest";
    auto bad = parseCapacitySettings(j, "capacity");
    ASSERT_FALSE(bad);
    EXPECT_NE(bad.error().message.find("capacity.vllm_version"), std::string::npos) << bad.error().message;
}

}  // namespace
}  // namespace fp8dash
