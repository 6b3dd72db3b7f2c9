// `fp8dash bench` as a user runs it: the JSON on this machine (no GPU here: the CPU parts, and the reason), one KV
// point recomputed directly with gpu/'s functions, --save into a copy of the demo comparison, and bad input.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

#include "cli_runner.h"
#include "fp8dash/core/comparison_file.h"
#include "fp8dash/gpu/kv_quant.h"
#include "process.h"
#include "test_paths.h"

namespace fp8dash {
namespace {

using test::fp8dashCli;
using test::parseJson;
using test::TempDir;

const std::vector<std::string> kTinyKv = {"bench",       "kv", "--cpu",    "--contexts", "256,512",
                                          "--kv-layers", "1",  "--format", "json"};

// ||q - x|| / ||x|| over K and V of the first `context` tokens, summed in double here.
double directRelRmse(gpu::KvScaling scaling, int context) {
    // Llama-3.1-8B (the default model): 8 KV heads of 128; one layer; the sweep's cache holds its longest context
    // (512) and its default seed (1).
    const gpu::KvShape shape{1, 8, 128, 512};
    const gpu::KvCache cache = gpu::generateKvCache(shape, 1);
    const gpu::KvScales scales = gpu::computeKvScales(cache, scaling, 1024);
    const gpu::KvCache restored = gpu::dequantizeKv(gpu::quantizeKv(cache, scales, context));
    double diff = 0, ref = 0;
    for (int head = 0; head < shape.kvHeads; ++head)
        for (int t = 0; t < context; ++t)
            for (int d = 0; d < shape.headDim; ++d) {
                const std::size_t in = shape.offset(0, head, t) + static_cast<std::size_t>(d);
                const std::size_t out = restored.shape.offset(0, head, t) + static_cast<std::size_t>(d);
                for (const auto* pair : {&cache.keys, &cache.values}) {
                    const double x = (*pair)[in];
                    const double q = pair == &cache.keys ? restored.keys[out] : restored.values[out];
                    diff += (q - x) * (q - x);
                    ref += x * x;
                }
            }
    return std::sqrt(diff / ref);
}

TEST(CliBench, KvOnTheCpuAsJson) {
    auto r = fp8dashCli(kTinyKv);
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_TRUE(r.err.empty()) << r.err;  // no progress line: stderr is not a terminal here
    const auto j = parseJson(r);
    for (const char* field :
         {"created", "backend", "model", "device", "gemm", "gemm_skipped", "bandwidth", "bandwidth_skipped", "kv",
          "kv_backend", "kv_kernel", "kv_skipped", "warnings", "cancelled"})
        EXPECT_TRUE(j.contains(field)) << field;
    for (const char* field : {"available", "name", "compute_capability", "memory_bytes", "reason"})
        EXPECT_TRUE(j["device"].contains(field)) << field;
    EXPECT_EQ(j["backend"], "cpu");
    EXPECT_EQ(j["kv_backend"], "cpu");
    EXPECT_EQ(j["model"], "llama-3.1-8b");
    EXPECT_EQ(j["cancelled"], false);
    EXPECT_TRUE(j["gemm"].empty());
    const std::string skipped = j["gemm_skipped"].get<std::string>();
    if (!j["device"]["available"].get<bool>()) {  // this machine: no GPU
        const std::string reason = j["device"]["reason"].get<std::string>();
        EXPECT_FALSE(reason.empty());
        EXPECT_EQ(j["device"]["name"], "");
        EXPECT_EQ(skipped, "no usable GPU: " + reason);
    } else {
        EXPECT_EQ(skipped.rfind("--cpu", 0), 0u) << skipped;
    }

    ASSERT_EQ(j["kv"].size(), 6u);
    const char* scalings[] = {"none", "per_tensor", "per_head"};
    for (std::size_t i = 0; i < 6; ++i) {
        const auto& p = j["kv"][i];
        EXPECT_EQ(p["scaling"], scalings[i / 2]) << i;
        const int context = i % 2 == 0 ? 256 : 512;
        EXPECT_EQ(p["context"], context) << i;
        EXPECT_EQ(p["elements"], 2 * 1 * 8 * 128 * context) << i;  // K and V, one layer, 8 heads of 128
        EXPECT_GT(p["cosine"].get<double>(), 0.0) << i;
        EXPECT_LE(p["cosine"].get<double>(), 1.0) << i;
        EXPECT_GT(p["rel_rmse"].get<double>(), 0.0) << i;
        EXPECT_GT(p["key"]["rel_rmse"].get<double>(), 0.0) << i;
    }
}

TEST(CliBench, KvPointMatchesADirectComputation) {
    auto r = fp8dashCli(kTinyKv);
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto j = parseJson(r);
    ASSERT_EQ(j["kv"].size(), 6u);
    // per_head at 512 tokens (scales from the whole cache) and none at 256 (scale 1): neither depends on the
    // calibration prefix. The sweep sums per head, then over the heads: ~1e-12 apart from this one running sum.
    const double perHead = directRelRmse(gpu::KvScaling::PerHead, 512);
    EXPECT_EQ(j["kv"][5]["scaling"], "per_head");
    EXPECT_NEAR(j["kv"][5]["rel_rmse"].get<double>(), perHead, 1e-10 * perHead);
    const double none = directRelRmse(gpu::KvScaling::None, 256);
    EXPECT_EQ(j["kv"][0]["scaling"], "none");
    EXPECT_NEAR(j["kv"][0]["rel_rmse"].get<double>(), none, 1e-10 * none);
}

TEST(CliBench, TextSaysWhyTheGpuPartsWereSkipped) {
    auto r = fp8dashCli({"bench", "kv", "--cpu", "--contexts=256", "--kv-layers=1"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(r.out.find("KV-cache quantisation to FP8 E4M3"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("per_tensor"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("GEMM"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("skipped: "), std::string::npos) << r.out;
}

TEST(CliBench, SaveAddsTheSectionToAnExistingComparison) {
    TempDir dir;
    const auto demo = std::filesystem::path(FP8DASH_SOURCE_DIR) / "resources/demo/llama3-8b-instruct-fp8.fp8cmp";
    const auto copy = dir.path() / "demo.fp8cmp";
    std::filesystem::copy_file(demo, copy);
    auto before = loadComparisonFile(copy);
    ASSERT_TRUE(before.ok()) << before.error().message;

    std::vector<std::string> args = kTinyKv;
    args.push_back("--save");
    args.push_back(copy.string());
    auto r = fp8dashCli(args);
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(r.err.find("saved the benchmarks to " + copy.string()), std::string::npos) << r.err;
    const auto printed = parseJson(r);

    auto after = loadComparisonFile(copy);
    ASSERT_TRUE(after.ok()) << after.error().message;
    ASSERT_TRUE(after->benchmarks.has_value());
    EXPECT_EQ(nlohmann::json::parse(after->benchmarks->raw.dump()), printed);  // the section is what was printed
    EXPECT_EQ(after->benchmarks->kv.size(), 6u);
    EXPECT_EQ(after->notes, before->notes);
    auto verdictBefore = before->evaluate(), verdictAfter = after->evaluate();
    ASSERT_TRUE(verdictBefore.ok() && verdictAfter.ok());
    EXPECT_EQ(verdictAfter->verdict, verdictBefore->verdict);

    // A second run replaces the section rather than adding another.
    auto again = fp8dashCli(args);
    ASSERT_EQ(again.exitCode, 0) << again.err;
    auto reloaded = loadComparisonFile(copy);
    ASSERT_TRUE(reloaded.ok());
    EXPECT_EQ(nlohmann::json::parse(reloaded->benchmarks->raw.dump()), parseJson(again));
}

TEST(CliBench, SaveNeedsAnExistingComparisonFile) {
    TempDir dir;
    const auto missing = dir.path() / "missing.fp8cmp";
    std::vector<std::string> args = kTinyKv;
    args.insert(args.end(), {"--save", missing.string()});
    auto r = fp8dashCli(args);
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_NE(r.err.find(missing.string()), std::string::npos) << r.err;
    EXPECT_FALSE(std::filesystem::exists(missing));

    const auto notComparison = dir.write("notes.fp8cmp", "{\"hello\": 1}");
    args.back() = notComparison.string();
    auto bad = fp8dashCli(args);
    EXPECT_EQ(bad.exitCode, 2);
    EXPECT_NE(bad.err.find(notComparison.string()), std::string::npos) << bad.err;
    EXPECT_TRUE(bad.out.empty());
}

TEST(CliBench, BadOptionsNameTheOption) {
    const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
        {{"bench", "kv", "--contexts", "256,abc"}, "--contexts \"256,abc\""},
        {{"bench", "kv", "--contexts", "0"}, "--contexts \"0\""},
        {{"bench", "--tokens", "1,,8"}, "--tokens \"1,,8\""},
        {{"bench", "kv", "--kv-layers", "two"}, "--kv-layers \"two\""},
        {{"bench", "kv", "--format", "xml"}, "--format \"xml\""},
        {{"bench", "kv", "--bogus"}, "bench: unknown argument --bogus"},
        {{"bench", "kv", "gemm"}, "bench: unknown argument gemm"},
        {{"bench", "kv", "--model"}, "--model needs a value"},
        {{"bench", "kv", "--cpu", "--kv-layers", "99"}, "KV layers 99 is out of range: llama-3.1-8b has 32 layers"},
        {{"bench", "kv", "--cpu", "--contexts", "2000000"}, "KV context length 2000000 is out of range"},
    };
    for (const auto& [args, expected] : cases) {
        auto r = fp8dashCli(args);
        EXPECT_EQ(r.exitCode, 2) << expected;
        EXPECT_NE(r.err.find(expected), std::string::npos) << r.err;
        EXPECT_TRUE(r.out.empty()) << r.out;
    }
}

TEST(CliBench, UnknownModelIsBadInput) {
    auto r = fp8dashCli({"bench", "kv", "--cpu", "--model", "gpt-9-mega", "--contexts", "256"});
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_NE(r.err.find("gpt-9-mega"), std::string::npos) << r.err;
}

TEST(CliBench, HelpListsBench) {
    auto r = fp8dashCli({"--help"});
    ASSERT_EQ(r.exitCode, 0);
    EXPECT_NE(r.out.find("fp8dash bench [gemm|bandwidth|kv|all]"), std::string::npos);
}

}  // namespace
}  // namespace fp8dash
