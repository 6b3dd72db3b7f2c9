// The CLI's stable JSON and the text/Markdown renderings.
#include "fp8dash/core/report_format.h"

#include <gtest/gtest.h>

#include "fp8dash/core/demo.h"
#include "test_paths.h"

namespace fp8dash {
namespace {

ComparisonReport seedReport() {
    auto b = readLmEvalPath(test::testData() / "lm-eval/seed-pair/bf16");
    auto c = readLmEvalPath(test::testData() / "lm-eval/seed-pair/fp8");
    return compareEvals(b.value(), c.value(), {}).value();
}

TEST(ReportJson, StableFieldsAtFullPrecision) {
    const Json j = reportToJson(seedReport());
    EXPECT_EQ(j["verdict"], "investigate");
    EXPECT_EQ(j["thresholds"]["go_below"], 0.5);
    EXPECT_EQ(j["thresholds"]["investigate_above"], 1.5);
    ASSERT_EQ(j["tasks"].size(), 3u);
    const Json& gsm = j["tasks"][2];
    for (const char* key : {"task", "metric", "baseline", "candidate", "delta_pct", "degradation_pct",
                            "higher_is_better", "baseline_stderr", "candidate_stderr", "verdict", "subtasks"})
        EXPECT_TRUE(gsm.contains(key)) << key;
    EXPECT_EQ(gsm["task"], "gsm8k");
    EXPECT_EQ(gsm["metric"], "exact_match,strict-match");
    EXPECT_EQ(gsm["baseline"].get<double>(), 0.9);
    EXPECT_EQ(gsm["candidate"].get<double>(), 0.873);
    EXPECT_EQ(gsm["delta_pct"].get<double>(), (0.873 - 0.9) / 0.9 * 100.0);  // full precision, bit for bit
    EXPECT_EQ(gsm["verdict"], "investigate");
    EXPECT_EQ(gsm["baseline_stderr"].get<double>(), 0.0118);
    const Json& mmlu = j["tasks"][0];
    ASSERT_EQ(mmlu["subtasks"].size(), 2u);
    EXPECT_EQ(mmlu["subtasks"][0]["task"], "mmlu_humanities");
    EXPECT_EQ(mmlu["subtasks"][0]["subtasks"][0]["task"], "mmlu_philosophy");
    EXPECT_TRUE(j["missing"].is_array());
    EXPECT_EQ(j["risks"][0]["kind"], "fp8_sensitive_task");
    EXPECT_EQ(j["runs"]["candidate"]["weights_fp8"], true);
    EXPECT_EQ(j["runs"]["candidate"]["kv_cache_fp8"], true);
    EXPECT_EQ(j["runs"]["candidate"]["kv_scales"], true);
    EXPECT_EQ(j["runs"]["baseline"]["weights_fp8"], false);
    // Parses back to the same numbers (nothing lost in printing).
    const Json back = Json::parse(j.dump());
    EXPECT_EQ(back["tasks"][2]["delta_pct"].get<double>(), gsm["delta_pct"].get<double>());
}

TEST(ReportJson, ZeroBaselineGivesNulls) {
    auto b = parseLmEvalText(R"({"results": {"t": {"acc,none": 0}}})", "b").value();
    ComparisonOptions sameRun;  // one run against itself: refused unless allowed
    sameRun.allowIncomparable = true;
    auto r = compareEvals(b, b, sameRun).value();
    const Json j = reportToJson(r);
    EXPECT_TRUE(j["tasks"][0]["delta_pct"].is_null());
    EXPECT_TRUE(j["tasks"][0]["degradation_pct"].is_null());
    EXPECT_TRUE(j["tasks"][0]["baseline_stderr"].is_null());
}

TEST(ReportText, VerdictTableRunsAndRisks) {
    const std::string text = reportToText(seedReport());
    EXPECT_EQ(text.rfind("Verdict: INVESTIGATE", 0), 0u) << text;
    EXPECT_NE(text.find("gsm8k"), std::string::npos);
    EXPECT_NE(text.find("-3.000%"), std::string::npos);
    EXPECT_NE(text.find("  - mmlu_humanities"), std::string::npos);
    EXPECT_NE(text.find("weights FP8 · KV cache FP8 (fp8, with scales) · activations FP8"), std::string::npos);
    EXPECT_NE(text.find("Risk flags"), std::string::npos);
}

TEST(ReportMarkdown, TablesAndNesting) {
    const std::string md = reportToMarkdown(seedReport());
    EXPECT_EQ(md.rfind("## Verdict: **INVESTIGATE**", 0), 0u);
    // Text from the files is escaped as CommonMark text (markdown_text.h): '_' and '<' with a backslash.
    EXPECT_NE(md.find("| gsm8k | exact\\_match,strict-match | 0.9000 | 0.8730 | -3.000% |"), std::string::npos) << md;
    EXPECT_NE(md.find("| ↳ ↳ mmlu\\_formal\\_logic |"), std::string::npos) << md;
    EXPECT_NE(md.find("Thresholds: go \\< 0.5%, monitor 0.5–1.5%, investigate \\> 1.5%."), std::string::npos) << md;
}

TEST(Formatting, PercentSigmasWrap) {
    EXPECT_EQ(formatPercent(std::nullopt), "n/a");
    EXPECT_EQ(formatPercent(-2.5934), "-2.59%");
    EXPECT_EQ(formatPercent(0.6188, 3), "+0.619%");
    EXPECT_EQ(formatSigmas(-1.24), "-1.2σ");
    EXPECT_EQ(wrapText("aaa bbb ccc", 9, "  "), "  aaa bbb\n  ccc\n");
}

}  // namespace
}  // namespace fp8dash
