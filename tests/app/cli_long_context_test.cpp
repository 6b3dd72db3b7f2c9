// `fp8dash compare` on the made RULER pair (tests/data/lm-eval-ruler; SOURCES.md there): the per-length table and
// the long_context JSON, the worst length deciding. Expected figures are computed here from the files.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>

#include <nlohmann/json.hpp>

#include "cli_runner.h"
#include "test_paths.h"

namespace fp8dash {
namespace {

using test::fp8dashCli;
using test::parseJson;

std::string ruler(const char* name) {
    return (test::testData() / "lm-eval-ruler" / name).string();
}

TEST(CliLongContext, ComparePrintsThePerLengthTableAndJson) {
    const std::string b = ruler("llama3.1-8b-instruct_ruler_bf16.json");
    const std::string c = ruler("llama3.1-8b-instruct_ruler_fp8kv.json");
    auto r = fp8dashCli({"compare", b, c, "--format", "json"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto j = parseJson(r);
    std::ifstream bin(b), cin(c);
    const auto rb = nlohmann::json::parse(bin), rc = nlohmann::json::parse(cin);
    double sb = 0, sc = 0;
    for (const auto& task : rb["group_subtasks"]["ruler"]) {
        sb += rb["results"][task.get<std::string>()]["131072,none"].get<double>();
        sc += rc["results"][task.get<std::string>()]["131072,none"].get<double>();
    }
    const auto& lc = j["long_context"];
    ASSERT_TRUE(lc.is_object());
    EXPECT_EQ(lc["lengths"], nlohmann::json({8192, 16384, 32768, 65536, 131072}));
    EXPECT_EQ(lc["worst_length"], 131072);
    EXPECT_NEAR(lc["by_length"][4]["degradation_pct"].get<double>(), (sb - sc) / sb * 100, 1e-9);
    EXPECT_EQ(j["verdict"], "investigate");
    EXPECT_EQ(j["tasks"][0]["task"], "ruler");
    EXPECT_EQ(j["tasks"][0]["by_length"].size(), 5u);

    auto text = fp8dashCli({"compare", b, c});
    EXPECT_NE(text.out.find("\nLong context\n"), std::string::npos) << text.out;
    EXPECT_NE(text.out.find("investigate (worst)"), std::string::npos) << text.out;
    auto md = fp8dashCli({"compare", b, c, "--format", "markdown"});
    EXPECT_NE(md.out.find("### Long context"), std::string::npos) << md.out << md.err;
}

}  // namespace
}  // namespace fp8dash
