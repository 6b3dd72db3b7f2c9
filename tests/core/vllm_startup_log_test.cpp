// Reading real vLLM start-up logs (the quoted lines of the 14 runs of shared/fixtures/vllm-capacity, read in place)
// and the answers computed from them: each log's own figures come back exactly, an FP8 KV cache holds twice the
// tokens at the same pool, and other changes follow from the measured overheads (arithmetic in the comments).
#include "fp8dash/core/vllm_startup_log.h"

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>

#include "test_paths.h"

namespace fp8dash {
namespace {

Json startupLogRuns() {
    std::ifstream in(test::sharedFixtures() / "vllm-capacity" / "startup-logs.json");
    if (!in) return Json();
    return Json::parse(in);
}

template <class T>
std::optional<T> logField(const Json& run, const char* key) {
    const auto it = run.find(key);
    if (it == run.end() || it->is_null()) return std::nullopt;
    return it->get<T>();
}

VllmCalibration calibrate(const std::string& text, const VllmWhatIfRequest& req = {}) {
    auto log = parseVllmStartupLog(text, "server.log");
    if (!log) throw std::runtime_error(log.error().message);
    auto c = calibrateFromVllmLog(*log, req);
    if (!c) throw std::runtime_error(c.error().message);
    return std::move(c).value();
}

TEST(VllmStartupLog, EveryFixtureReproducedAndTwiceTheTokensInFp8) {
    const Json runs = startupLogRuns();
    if (runs.is_null()) GTEST_SKIP() << "shared fixture vllm-capacity/startup-logs.json not found";
    ASSERT_EQ(runs.size(), 14u);
    for (const Json& run : runs) {
        const std::string id = run.at("id").get<std::string>();
        SCOPED_TRACE(id);
        VllmWhatIfRequest req;
        // PR #10511's excerpt gives the pool only: its model (Llama 3 8B, Llama 3.1 8B's architecture) counts it.
        if (id == "H100-pr10511-llama3-8b") req.model = *findModelPreset("llama-3.1-8b");
        const VllmCalibration c = calibrate(run.at("quote").get<std::string>(), req);
        const VllmStartupLog& g = c.log;
        // The figures the log printed, exactly (the record holds what each log line says). The RTX 4080 record's
        // total, weights, activation and non-torch figures are its author's breakdown, not log lines; under
        // pipeline parallelism the log profiles each stage and the record's activation is the looser stage's, while
        // the reader keeps the tightest (9.6 GiB of non-KV memory, the one the tokens match).
        const bool breakdownOnly = id.rfind("RTX4080", 0) == 0;
        const bool stages = logField<int>(run, "pipeline_parallel_size").value_or(1) > 1;
        const auto same = [](const std::optional<double>& got, std::optional<double> want, const char* what) {
            if (!want) return;
            ASSERT_TRUE(got.has_value()) << what << " not read";
            EXPECT_DOUBLE_EQ(*got, *want) << what;
        };
        same(g.availableKvGiB, logField<double>(run, "available_kv_cache_gib"), "available KV cache memory");
        if (const auto v = logField<long long>(run, "num_gpu_blocks")) {
            ASSERT_TRUE(g.gpuBlocks.has_value());
            EXPECT_EQ(*g.gpuBlocks, *v);
        }
        if (const auto v = logField<double>(run, "max_concurrency")) {
            ASSERT_TRUE(c.answers[0].maxConcurrency.has_value());
            EXPECT_DOUBLE_EQ(*c.answers[0].maxConcurrency, *v);
        }
        if (const auto v = logField<double>(run, "gpu_memory_utilization"))
            EXPECT_DOUBLE_EQ(c.measured.utilization, *v);
        if (const auto v = logField<int>(run, "tensor_parallel_size")) EXPECT_EQ(c.measured.tensorParallel, *v);
        if (const auto v = logField<long long>(run, "max_model_len")) EXPECT_EQ(c.measured.maxModelLen, *v);
        if (!breakdownOnly) {
            if (const auto v = logField<double>(run, "gpu_total_memory_logged_gib")) {  // bytes in the PRO 6000's
                ASSERT_TRUE(g.totalGiB.has_value());
                EXPECT_NEAR(*g.totalGiB, *v, 0.005);
            }
            same(g.weightsGiB, logField<double>(run, "model_loading_weights"), "weights");
            same(g.nonTorchGiB, logField<double>(run, "non_torch_memory_gib"), "non-torch memory");
            if (!stages) same(g.activationGiB, logField<double>(run, "torch_peak_increase_gib"), "activation peak");
            if (!stages) same(g.nonKvGiB, logField<double>(run, "total_non_kv_cache_gib"), "total non-KV memory");
        }
        if (stages) same(g.nonKvGiB, 9.6, "the tightest stage's non-KV memory");
        EXPECT_EQ(c.measured.v1Engine, run.at("engine").get<std::string>() == "V1");

        // The tokens: the log's, or blocks x 16 (V0 logs print blocks), or the pool counted with the model.
        std::uint64_t tokens = 0;
        if (const auto v = logField<long long>(run, "gpu_kv_cache_tokens"))
            tokens = static_cast<std::uint64_t>(*v);
        else if (const auto b = logField<long long>(run, "num_gpu_blocks"))
            tokens = static_cast<std::uint64_t>(*b) * 16;
        else
            tokens = static_cast<std::uint64_t>(53.29 * 1073741824.0 / (16 * 131072)) * 16;  // 27,280 blocks
        EXPECT_EQ(c.answers[0].tokens, tokens);
        // The other KV dtype at the same pool: FP8 holds twice the tokens, BF16 half.
        const bool fp8 = logField<std::string>(run, "kv_cache_dtype").value_or("auto") == "fp8";
        ASSERT_GE(c.answers.size(), 2u);
        EXPECT_EQ(c.answers[1].label, fp8 ? "BF16 KV cache" : "FP8 KV cache");
        EXPECT_EQ(c.answers[1].tokens, fp8 ? tokens / 2 : tokens * 2);
    }
}

const char* kPlanner01 =
    "non-default args: {'model_tag': 'meta-llama/Llama-3.1-8B-Instruct', 'model': 'meta-llama/Llama-3.1-8B-Instruct', "
    "'max_model_len': 8192, 'gpu_memory_utilization': 0.95, 'enable_prefix_caching': False}\n"
    "worker init memory snapshot: torch_peak=0.0GiB, free_memory=78.68GiB, total_memory=79.19GiB, cuda_memory=0.51GiB, "
    "torch_memory=0.0GiB, non_torch_memory=0.51GiB, auto_measure=True\n"
    "Model loading took 14.99 GiB memory and 14.429680 seconds\n"
    "Memory profiling takes 17.96 seconds. Total non KV cache memory: 17.12GiB; torch peak memory increase: 1.89GiB; "
    "non-torch forward increase memory: 0.25GiB; weights memory: 14.99GiB.\n"
    "Available KV cache memory: 58.11 GiB\n"
    "GPU KV cache size: 476,016 tokens\n"
    "Maximum concurrency for 8,192 tokens per request: 58.11x\n";

// With the model, the answers are computed from the measured pool: FP8 weights free the linear layers' second byte
// on the GPU (6,979,321,856 B for Llama-3.1-8B), another utilisation moves the pool by (u' - u) x total.
TEST(VllmStartupLog, AnswersFromTheMeasuredOverheads) {
    VllmWhatIfRequest req;
    req.model = *findModelPreset("llama-3.1-8b");
    req.utilization = 0.90;
    req.context = 32768;
    const VllmCalibration c = calibrate(kPlanner01, req);
    EXPECT_DOUBLE_EQ(*c.log.nonTorchGiB, 0.25);            // the profiling line's, not the start-up snapshot's 0.51
    EXPECT_EQ(c.measured.kvBytesPerTokenPerGpu, 131072u);  // 2 x 32 x 8 x 128 x 2
    const double page = 16.0 * 131072;                     // bytes of one block
    const auto find = [&](const std::string& label) -> const VllmWhatIf& {
        for (const auto& a : c.answers)
            if (a.label == label) return a;
        throw std::runtime_error("no answer " + label);
    };
    const double pool = 58.11 * 1073741824.0;
    // FP8 weights: 32 layers x (2 x 4096 x 4096 + 2 x 4096 x 1024 + 3 x 4096 x 14336) = 6,979,321,856 weights,
    // one byte each saved.
    const double saved = 6979321856.0;
    EXPECT_EQ(find("FP8 weights").tokens, static_cast<std::uint64_t>(std::floor((pool + saved) / page)) * 16);
    EXPECT_EQ(find("FP8 weights + FP8 KV cache").tokens,
              static_cast<std::uint64_t>(std::floor((pool + saved) / (page / 2))) * 16);
    // Utilisation 0.90: (0.90 - 0.95) x 79.19 GiB = -3.9595 GiB.
    const double lower = pool - 0.05 * 79.19 * 1073741824.0;
    EXPECT_EQ(find("utilisation 0.90").tokens, static_cast<std::uint64_t>(std::floor(lower / page)) * 16);
    // V1: the pool does not depend on max_model_len; 476,016 tokens / 32,768 = 14.53 sequences.
    EXPECT_EQ(find("context 32,768").tokens, 476016u);
    EXPECT_NEAR(*find("context 32,768").maxConcurrency, 476016.0 / 32768, 1e-9);
    EXPECT_EQ(find("context 32,768 + FP8 KV cache").tokens, 952032u);
}

TEST(VllmStartupLog, ErrorsNameTheLineAndTheFigure) {
    auto bad = parseVllmStartupLog("INFO start\nGPU KV cache size: many tokens\n", "server.log");
    ASSERT_FALSE(bad);
    EXPECT_NE(bad.error().message.find("server.log:2"), std::string::npos) << bad.error().message;
    EXPECT_NE(bad.error().message.find("KV cache tokens"), std::string::npos) << bad.error().message;
    auto none = parseVllmStartupLog("INFO nothing about memory here\n", "server.log");
    ASSERT_FALSE(none);
    EXPECT_NE(none.error().message.find("no KV-cache sizing line"), std::string::npos) << none.error().message;
    // A malformed concurrency line, and a pool without tokens or a model to count them.
    EXPECT_FALSE(parseVllmStartupLog("GPU KV cache size: 10 tokens\nMaximum concurrency for x", "s.log"));
    auto poolOnly = parseVllmStartupLog("available_kv_cache_memory    53.29GiB\n", "s.log");
    ASSERT_TRUE(poolOnly);
    auto c = calibrateFromVllmLog(*poolOnly, {});
    ASSERT_FALSE(c);
    EXPECT_NE(c.error().message.find("--model"), std::string::npos) << c.error().message;
}

TEST(VllmStartupLog, ReadsAFileAndSaysWhichFile) {
    test::TempDir dir;
    const auto path = dir.path() / "server.log";
    std::ofstream(path) << kPlanner01;
    auto log = readVllmStartupLog(path);
    ASSERT_TRUE(log) << log.error().message;
    EXPECT_EQ(*log->kvTokens, 476016);
    auto missing = readVllmStartupLog(dir.path() / "absent.log");
    ASSERT_FALSE(missing);
    EXPECT_NE(missing.error().message.find("absent.log"), std::string::npos);
}

}  // namespace
}  // namespace fp8dash
