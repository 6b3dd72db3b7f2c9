// The serving comparison in words (serving_format.h): the table's cells and tones, capacity and replica words, and
// the text and Markdown renderings. Expected figures are the inputs' own numbers, formatted by hand.
#include <gtest/gtest.h>

#include "fp8dash/core/serving_format.h"

using namespace fp8dash;

namespace {

ServingRun point(double concurrency, double outputTokS, double ttftP99) {
    ServingRun r;
    r.model = "meta-llama/Llama-3.1-8B-Instruct";
    r.load = {LoadAxis::Concurrency, concurrency, std::nullopt};
    r.completed = 100;
    r.outputTokensPerS = outputTokS;
    r.requestsPerS = outputTokS / 1000;
    r.ttft.median = ttftP99 / 2;
    r.ttft.percentiles = {{99, ttftP99}};
    r.tpot.percentiles = {{99, 20}};
    return r;
}

ServingComparison twoVariants() {
    ServingOptions o;
    o.slo = *parseServingSlo("ttft_p99=2000ms");
    o.targetLoad = 120;
    return compareServing({{"BF16", {point(8, 900, 500), point(24, 2000, 1900), point(40, 2600, 2500)}},
                           {"FP8 W8A8", {point(8, 1000, 400), point(24, 2300, 1200), point(40, 3100, 1900)}}},
                          o);
}

}  // namespace

TEST(ServingFormat, TableCellsAndTones) {
    const ServingComparison c = twoVariants();
    const ServingTable base = servingTable(c, c.variants[0]);
    ASSERT_EQ(base.rows.size(), 3u);
    EXPECT_EQ(base.rows[0][0], "8 concurrent");
    EXPECT_EQ(base.rows[0][2], "900.0");
    EXPECT_EQ(base.rows[0][3], "");  // the baseline has no Δ
    EXPECT_EQ(base.rows[1][2], "2,000");
    EXPECT_EQ(base.rows[2][6], "2,500 ms");
    EXPECT_EQ(base.rows[2][12], "missed: p99 TTFT 2,500 ms > 2,000 ms");
    EXPECT_EQ(base.tone[2][12], -1);
    EXPECT_EQ(base.rows[0][8], "\u2014");  // no TPOT p50 in the files
    const ServingTable fp8 = servingTable(c, c.variants[1]);
    // 1,000 vs 900 tok/s: +11.1 %; p99 TTFT 400 vs 500 ms: -20.0 % (good).
    EXPECT_EQ(fp8.rows[0][3], "+11.1%");
    EXPECT_EQ(fp8.tone[0][3], 1);
    EXPECT_EQ(fp8.rows[0][7], "-20.0%");
    EXPECT_EQ(fp8.tone[0][7], 1);
    EXPECT_EQ(fp8.rows[2][12], "met");
}

TEST(ServingFormat, CapacityAndReplicaWords) {
    const ServingComparison c = twoVariants();
    EXPECT_EQ(servingCapacityWords(c, c.variants[0]),
              "24 concurrent requests within p99 TTFT \u2264 2,000 ms (first missed at 40; about 26.7 by "
              "interpolation)");
    EXPECT_EQ(servingCapacityWords(c, c.variants[1]),
              "at least 40 concurrent requests within p99 TTFT \u2264 2,000 ms (every measured load meets it)");
    EXPECT_EQ(servingReplicaWords(c, c.variants[0]), "5 replicas of 1 GPU for 120 concurrent requests");
    EXPECT_EQ(servingReplicaWords(c, c.variants[1]), "3 replicas of 1 GPU for 120 concurrent requests");
}

TEST(ServingFormat, TextAndMarkdownCarryTheSentenceAndTables) {
    const ServingComparison c = twoVariants();
    const std::string text = servingToText(c);
    EXPECT_NE(text.find("SLO: p99 TTFT \u2264 2,000 ms\n"), std::string::npos) << text;
    EXPECT_NE(text.find("FP8 W8A8 buys +55.0% output tokens/s within p99 TTFT \u2264 2,000 ms against BF16, and"),
              std::string::npos)
        << text;
    EXPECT_NE(text.find("BF16 (baseline): meta-llama/Llama-3.1-8B-Instruct"), std::string::npos);
    const std::string md = servingToMarkdown(c, false);
    EXPECT_NE(md.find("## What FP8 buys on your server"), std::string::npos);
    EXPECT_NE(md.find("| Load |"), std::string::npos) << md;
    EXPECT_EQ(md.find("--slo"), std::string::npos);  // no CLI words outside the command line
    ServingOptions none;
    const ServingComparison n = compareServing({{"BF16", {point(8, 900, 500)}}}, none);
    EXPECT_NE(servingToText(n).find("--slo ttft_p99=2000ms"), std::string::npos);
    EXPECT_EQ(servingToMarkdown(n, false).find("--slo"), std::string::npos);
}
