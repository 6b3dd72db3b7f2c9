// `fp8dash compare` and the comparability check as a user meets it: the same file twice, an edited few-shot count,
// a v0.3 run against a v0.4 one, --map and --allow-incomparable. Expected values are read from the input files.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "cli_runner.h"
#include "test_paths.h"

namespace fp8dash {
namespace {

using test::fp8dashCli;
using test::parseJson;

std::string compat(const char* name) {
    return (test::testData() / "lm-eval-compat" / name).string();
}

nlohmann::json readJson(const std::filesystem::path& path) {
    std::ifstream in(path);
    std::stringstream ss;
    ss << in.rdbuf();
    return nlohmann::json::parse(ss.str());
}

constexpr const char* kIdentical = "the baseline and candidate results are identical: the same run twice?";

TEST(CliCompat, TheSameFileTwiceExits2UnlessAllowed) {
    FP8DASH_REQUIRE_FIXTURE(file, "qwen2.5-7b_multi-task_v0.4.8.json");
    auto r = fp8dashCli({"compare", file.string(), file.string()});
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_TRUE(r.out.empty()) << r.out;
    EXPECT_NE(r.err.find(kIdentical), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("--allow-incomparable"), std::string::npos) << r.err;

    r = fp8dashCli({"compare", file.string(), file.string(), "--allow-incomparable", "--format", "json"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto j = parseJson(r);
    EXPECT_EQ(j["tasks"].size(), readJson(file)["results"].size());
    EXPECT_EQ(j["reasons"][0], std::string("compared anyway although not comparable: ") + kIdentical);
    ASSERT_FALSE(j["comparability"].empty());
    EXPECT_EQ(j["comparability"][0]["field"], "results");
    EXPECT_EQ(j["comparability"][0]["severity"], "blocking");
    EXPECT_TRUE(j["comparability"][0]["task"].is_null());
    EXPECT_EQ(j["comparability"][0]["message"], kIdentical);

    r = fp8dashCli({"compare", file.string(), file.string(), "--allow-incomparable"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(r.out.find("compared anyway although not comparable"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("\nComparability\n  [blocking] " + std::string(kIdentical)), std::string::npos) << r.out;
}

TEST(CliCompat, AnEditedFewShotCountBlocksThatTask) {
    FP8DASH_REQUIRE_FIXTURE(original, "qwen2.5-7b_multi-task_v0.4.8.json");
    const std::string edited = compat("qwen2.5-7b_arc-challenge-25shot_v0.4.8.json");
    const auto before = readJson(original)["n-shot"]["arc_challenge"],
               after = readJson(edited)["n-shot"]["arc_challenge"];
    auto r = fp8dashCli({"compare", original.string(), edited, "--format", "json"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto j = parseJson(r);
    nlohmann::json reason;
    for (const auto& m : j["missing"])
        if (m["task"] == "arc_challenge") reason = m["reason"];
    EXPECT_EQ(reason, "not comparable: n-shot differs: baseline " + before.dump() + "-shot, candidate " + after.dump() +
                          "-shot");
    for (const auto& t : j["tasks"]) EXPECT_NE(t["task"], "arc_challenge");
    nlohmann::json nShot;
    for (const auto& i : j["comparability"])
        if (i["field"] == "n-shot") nShot = i;
    EXPECT_EQ(nShot["task"], "arc_challenge");
    EXPECT_EQ(nShot["baseline"], before);
    EXPECT_EQ(nShot["candidate"], after);
    EXPECT_EQ(nShot["severity"], "blocking");

    // Markdown: the blocked task under "Not compared", the check's finding under "Comparability".
    r = fp8dashCli({"compare", original.string(), edited, "--format", "markdown"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    // Escaped as CommonMark text (markdown_text.h): brackets and underscores with a backslash.
    EXPECT_NE(r.out.find("### Comparability\n\n- \\[blocking\\] arc\\_challenge: n-shot differs"), std::string::npos)
        << r.out;
}

TEST(CliCompat, AV03RunPairsWithV04NamesAndMapPairsByHand) {
    FP8DASH_REQUIRE_FIXTURE(v04, "llama3-8b-base_mmlu_v0.4.2.json");
    auto r = fp8dashCli({"compare", compat("llama3-8b-base_mmlu_v0.3-format.json"), v04.string(), "--format", "json"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    auto j = parseJson(r);
    EXPECT_EQ(j["tasks"].size(), 57u);
    EXPECT_EQ(j["comparability"][0]["field"], "task name");
    EXPECT_EQ(j["comparability"][0]["baseline"], "hendrycksTest-*");
    EXPECT_EQ(j["comparability"][0]["candidate"], "mmlu_*");

    // Pairing a task with one its run lacks names the flag.
    r = fp8dashCli({"compare", compat("llama3-8b-base_mmlu_v0.3-format.json"), v04.string(), "--map",
                    "hendrycksTest-anatomy=mmlu_anatomy_v2"});
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_NE(r.err.find("--map hendrycksTest-anatomy=mmlu_anatomy_v2: the candidate has no task \"mmlu_anatomy_v2\""),
              std::string::npos)
        << r.err;
    r = fp8dashCli({"compare", v04.string(), v04.string(), "--map", "no-equals-sign"});
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_NE(r.err.find("--map \"no-equals-sign\""), std::string::npos) << r.err;

    // --map pairs a v0.3 subject with another name by hand; the saved file keeps the pair.
    test::TempDir dir;
    const auto saved = (dir.path() / "mapped.fp8cmp").string();
    r = fp8dashCli({"compare", compat("llama3-8b-base_mmlu_v0.3-format.json"), v04.string(), "--map",
                    "hendrycksTest-anatomy=mmlu_astronomy", "--format", "json", "--save", saved});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    j = parseJson(r);
    const auto source = readJson(v04);
    bool found = false;
    for (const auto& t : j["tasks"])
        if (t["task"] == "hendrycksTest-anatomy") {
            found = true;
            EXPECT_EQ(t["candidate"], source["results"]["mmlu_astronomy"]["acc,none"]);
        }
    EXPECT_TRUE(found);
    // The mapped pair replaces two renamed ones: hendrycksTest-astronomy and mmlu_anatomy are left without a partner.
    EXPECT_EQ(j["tasks"].size(), 56u);
    EXPECT_EQ(readJson(saved)["settings"]["task_map"], nlohmann::json::array({"hendrycksTest-anatomy=mmlu_astronomy"}));
    r = fp8dashCli({"report", saved, "--format", "json"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_EQ(parseJson(r)["tasks"].size(), 56u);
}

}  // namespace
}  // namespace fp8dash
