// `fp8dash bench kv --kv-dump FILE` as a user runs it, with small dumps written by the test writer
// (support/safetensors_writer.h): its options, and every error naming the file.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "cli_runner.h"
#include "process.h"
#include "safetensors_writer.h"
#include "test_paths.h"

namespace fp8dash {
namespace {

using test::fp8dashCli;
using test::TempDir;

// A stacked BF16 dump [layers, kv_heads, tokens, head_dim] of small values (exact in BF16), K and V different.
std::string smallDump(std::uint64_t layers, std::uint64_t heads, std::uint64_t tokens, std::uint64_t dim) {
    std::vector<std::uint16_t> k, v;
    for (std::uint64_t i = 0; i < layers * heads * tokens * dim; ++i) {
        k.push_back(test::bf16BitsOfExact(static_cast<float>(static_cast<int>(i % 37) - 18) * 0.25f));
        v.push_back(test::bf16BitsOfExact(static_cast<float>(static_cast<int>(i % 23) - 11) / 32.0f));
    }
    const std::vector<std::uint64_t> shape{layers, heads, tokens, dim};
    return test::safetensorsFile({{"key", "BF16", shape, test::le16(k)}, {"value", "BF16", shape, test::le16(v)}},
                                 {{"model", "test/tiny"}});
}

TEST(CliKvDump, RunsTheSweepOnTheDumpAndSaysSo) {
    TempDir dir;
    const std::string path = dir.write("tiny.safetensors", smallDump(2, 3, 48, 8)).string();
    auto r = fp8dashCli({"bench", "kv", "--cpu", "--kv-dump", path, "--format", "json"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto j = test::parseJson(r);
    const auto& rows = j.at("kv");
    // The CPU's standard contexts (1K, 4K, 16K) below the dump's 48 tokens: none; then all 48. Three scalings.
    ASSERT_EQ(rows.size(), 3u);
    for (const auto& row : rows) {
        EXPECT_EQ(row.at("context"), 48);
        EXPECT_EQ(row.at("source").at("kind"), "dump");
        EXPECT_EQ(row.at("source").at("description"), "tiny.safetensors (BF16, test/tiny)");
        EXPECT_EQ(row.at("source").at("shape"), nlohmann::json::parse("[2, 3, 48, 8]"));
        // Scales: [1.0] for none, one per layer for per_tensor, one per (layer, head) for per_head.
        const std::string scaling = row.at("scaling");
        const std::size_t expected = scaling == "none" ? 1 : scaling == "per_tensor" ? 2 : 6;
        EXPECT_EQ(row.at("key").at("scales").size(), expected) << scaling;
        EXPECT_EQ(row.at("value").at("scales").size(), expected) << scaling;
    }
    // With --contexts, exactly those (each at most 48).
    auto some = fp8dashCli({"bench", "kv", "--cpu", "--kv-dump", path, "--contexts", "16,48", "--format", "json"});
    ASSERT_EQ(some.exitCode, 0) << some.err;
    EXPECT_EQ(test::parseJson(some).at("kv").size(), 6u);
}

TEST(CliKvDump, ContextsPastTheDumpNameTheFileAndItsTokens) {
    TempDir dir;
    const std::string path = dir.write("tiny.safetensors", smallDump(2, 2, 48, 8)).string();
    auto r = fp8dashCli({"bench", "kv", "--cpu", "--kv-dump", path, "--contexts", "16,64", "--format", "json"});
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_NE(r.err.find(path + ": KV context length 64 is more than the 48 tokens the dump holds"), std::string::npos)
        << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;
}

TEST(CliKvDump, ABrokenDumpIsNamedWithItsTensor) {
    TempDir dir;
    std::string bytes = smallDump(1, 1, 4, 2);
    const std::string path = dir.write("cut.safetensors", bytes.substr(0, bytes.size() - 2)).string();
    auto r = fp8dashCli({"bench", "kv", "--cpu", "--kv-dump", path});
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_NE(r.err.find(path + ": tensor \"value\": data_offsets"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("(a truncated file?)"), std::string::npos) << r.err;

    auto missing = fp8dashCli({"bench", "kv", "--cpu", "--kv-dump", (dir.path() / "none.safetensors").string()});
    EXPECT_EQ(missing.exitCode, 2);
    EXPECT_NE(missing.err.find("none.safetensors: cannot open"), std::string::npos) << missing.err;
}

TEST(CliKvDump, OptionsThatDoNotApplyAreRefused) {
    const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
        {{"bench", "gemm", "--kv-dump", "x.safetensors"}, "--kv-dump needs the kv part"},
        {{"bench", "kv", "--kv-dump", "x.safetensors", "--kv-layers", "2"}, "--kv-layers does not apply to --kv-dump"},
        {{"bench", "kv", "--kv-dump="}, "--kv-dump needs a safetensors file"},
        {{"bench", "kv", "--kv-dump"}, "--kv-dump needs a value"},
    };
    for (const auto& [args, expected] : cases) {
        auto r = fp8dashCli(args);
        EXPECT_EQ(r.exitCode, 2) << expected;
        EXPECT_NE(r.err.find(expected), std::string::npos) << r.err;
    }
}

TEST(CliKvDump, HelpListsTheFlag) {
    auto r = fp8dashCli({"--help"});
    ASSERT_EQ(r.exitCode, 0);
    EXPECT_NE(r.out.find("--kv-dump FILE.safetensors"), std::string::npos);
}

}  // namespace
}  // namespace fp8dash
