// LLM-as-judge scores: every file format read from generated files, pairing by id, errors naming the line, and the
// comparison's figures against values computed by hand (the arithmetic is in the comments).
#include "fp8dash/core/judge_scores.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "test_paths.h"

namespace fp8dash {
namespace {

using test::TempDir;

// The reference set: baseline 5 4 4 3 5 2 4 5 (sum 32, mean 4.0), candidate 5 4 3 3 5 2 4 4 (sum 30, mean 3.75).
// mean difference -0.25 = -6.25 % of 4.0 -> degradation 6.25 % -> investigate. Drops: q3 (4 -> 3), q8 (5 -> 4).
const std::vector<double> kBaseline = {5, 4, 4, 3, 5, 2, 4, 5};
const std::vector<double> kCandidate = {5, 4, 3, 3, 5, 2, 4, 4};

std::string jsonl(const std::vector<double>& scores) {
    std::string out;
    for (std::size_t i = 0; i < scores.size(); ++i) {
        out += "{\"id\": \"q" + std::to_string(i + 1) + "\", \"score\": " + std::to_string(scores[i]) +
               ", \"prompt\": \"prompt " + std::to_string(i + 1) + "\", \"answer\": \"answer b" +
               std::to_string(i + 1) + "\"}\n";
        if (i == 3) out += "\n";  // a blank line is allowed
    }
    return out;
}

JudgeScores read(const std::string& text, const std::string& name, const JudgeScale& scale = {}) {
    auto r = parseJudgeScores(text, name, scale);
    if (!r) throw std::runtime_error(r.error().message);
    return std::move(r).value();
}

JudgeComparison compare(const JudgeScores& b, const JudgeScores& c, JudgeOptions o = {}) {
    o.bootstrapIterations = 2000;
    auto r = compareJudgeScores(b, c, o);
    if (!r) throw std::runtime_error(r.error().message);
    return std::move(r).value();
}

std::string errorOf(const std::string& text, const std::string& name, const JudgeScale& scale = {}) {
    auto r = parseJudgeScores(text, name, scale);
    if (r) return "(no error)";
    return r.error().message;
}

// Candidate as CSV with a header, CRLF line ends, and quoted fields holding commas, doubled quotes and a line break.
const char* kCandidateCsv =
    "id,score,prompt,comment\r\n"
    "q1,5,prompt 1,fine\r\n"
    "q2,4,\"prompt 2, with a comma\",ok\r\n"
    "q3,3,prompt 3,\"the judge said \"\"wrong\"\"\r\nand more\"\r\n"
    "q4,3,prompt 4,\r\n"
    "q5,5,prompt 5,x\r\n"
    "q6,2,prompt 6,x\r\n"
    "q7,\"4\",prompt 7,x\r\n"
    "q8,4,prompt 8,\"last\"\r\n";

TEST(JudgeScores, JsonLinesAgainstCsvPaired) {
    TempDir dir;
    auto b = loadJudgeScores(dir.write("bf16.jsonl", jsonl(kBaseline)));
    auto c = loadJudgeScores(dir.write("fp8.csv", kCandidateCsv));
    ASSERT_TRUE(b) << b.error().message;
    ASSERT_TRUE(c) << c.error().message;
    EXPECT_EQ(b->format, JudgeFileFormat::JsonLines);
    EXPECT_EQ(c->format, JudgeFileFormat::Csv);
    EXPECT_TRUE(b->hasIds);
    ASSERT_EQ(c->samples.size(), 8u);
    EXPECT_EQ(c->samples[1].fields["prompt"], "prompt 2, with a comma");
    EXPECT_EQ(c->samples[2].fields["comment"], "the judge said \"wrong\"\r\nand more");
    EXPECT_EQ(c->samples[3].fields["comment"], "");
    EXPECT_EQ(c->samples[6].score, 4.0);  // a quoted number
    EXPECT_EQ(b->samples[0].fields["answer"], "answer b1");
    EXPECT_FALSE(b->samples[0].fields.contains("id"));
    EXPECT_FALSE(b->samples[0].fields.contains("score"));

    const JudgeComparison r = compare(*b, *c);
    EXPECT_TRUE(r.paired);
    EXPECT_EQ(r.nPairs, 8u);
    EXPECT_EQ(r.nBaseline, 8u);
    EXPECT_EQ(r.nCandidate, 8u);
    EXPECT_DOUBLE_EQ(r.baselineMean, 4.0);
    EXPECT_DOUBLE_EQ(r.candidateMean, 3.75);
    EXPECT_DOUBLE_EQ(r.meanDiff, -0.25);
    EXPECT_DOUBLE_EQ(r.deltaPct, -6.25);
    EXPECT_DOUBLE_EQ(r.degradationPct, 6.25);
    EXPECT_EQ(r.verdict, Verdict::Investigate);
    EXPECT_EQ(r.testName, "wilcoxon");
    // Differences 0 0 -1 0 0 0 0 -1: two non-zero, tied -> normal approximation. W+ = 0, mean = 2 * 3 / 4 = 1.5,
    // var = 2 * 3 * 5 / 24 - (2^3 - 2) / 48 = 1.125, z = -(1.5 - 0.5) / sqrt(1.125).
    const double z = -1.0 / std::sqrt(1.125);
    EXPECT_NEAR(r.test.z, z, 1e-12);
    EXPECT_NEAR(r.test.pValue, std::erfc(std::abs(z) / std::sqrt(2.0)), 1e-12);  // 0.3458
    // The bootstrap of those differences: every resample mean is -k / 8 for the k drops it drew, so at most 0;
    // the interval contains the estimate.
    EXPECT_LE(r.meanDiffCi.low, -0.25);
    EXPECT_GE(r.meanDiffCi.high, -0.25);
    EXPECT_LE(r.meanDiffCi.high, 0.0);
    // Degradation interval = -ci / 4 * 100.
    EXPECT_DOUBLE_EQ(r.confidence.lowPct, -r.meanDiffCi.high / 4 * 100);
    EXPECT_DOUBLE_EQ(r.confidence.highPct, -r.meanDiffCi.low / 4 * 100);
    // Standard error of the differences: s^2 = (2 * 0.75^2 + 6 * 0.25^2) / 7 = 1.5 / 7; se = sqrt(1.5 / 7 / 8).
    EXPECT_NEAR(r.standardErrorPct, std::sqrt(1.5 / 7 / 8) / 4 * 100, 1e-12);
    EXPECT_FALSE(r.equivalence.equivalent);

    // Histograms of 1..5: baseline 0 1 1 3 3, candidate 0 1 2 3 2.
    EXPECT_EQ(r.distributionFrom, 1);
    EXPECT_EQ(r.baselineDistribution, (std::vector<std::uint64_t>{0, 1, 1, 3, 3}));
    EXPECT_EQ(r.candidateDistribution, (std::vector<std::uint64_t>{0, 1, 2, 3, 2}));

    ASSERT_EQ(r.biggestDrops.size(), 2u);
    EXPECT_EQ(r.biggestDrops[0].id, "q3");
    EXPECT_EQ(r.biggestDrops[0].baseline, 4.0);
    EXPECT_EQ(r.biggestDrops[0].candidate, 3.0);
    EXPECT_EQ(r.biggestDrops[0].baselineFields["answer"], "answer b3");
    EXPECT_EQ(r.biggestDrops[0].candidateFields["comment"], "the judge said \"wrong\"\r\nand more");
    EXPECT_EQ(r.biggestDrops[1].id, "q8");
    EXPECT_TRUE(r.onlyInBaseline.empty());
    EXPECT_TRUE(r.onlyInCandidate.empty());
}

TEST(JudgeScores, JsonArrayOfNumbersIsUnpaired) {
    const JudgeScores b = read("[5, 4, 4, 3, 5, 2, 4, 5]", "bf16.json");
    const JudgeScores c = read("[5, 4, 3, 3,\n 5, 2, 4, 4]\n", "fp8.json");
    EXPECT_EQ(b.format, JudgeFileFormat::JsonArray);
    EXPECT_FALSE(b.hasIds);
    const JudgeComparison r = compare(b, c);
    EXPECT_FALSE(r.paired);
    EXPECT_EQ(r.nPairs, 0u);
    EXPECT_DOUBLE_EQ(r.baselineMean, 4.0);
    EXPECT_DOUBLE_EQ(r.candidateMean, 3.75);
    EXPECT_DOUBLE_EQ(r.degradationPct, 6.25);
    EXPECT_EQ(r.verdict, Verdict::Investigate);
    EXPECT_EQ(r.testName, "mann_whitney");
    // U of the candidate by counting pairs (above: 1, tie: 1/2) = 27; pooled ties 2 x2, 3 x3, 4 x6, 5 x5:
    // sum(t^3 - t) = 6 + 24 + 210 + 120 = 360; var = 64 / 12 * (17 - 360 / 240) = 82.6667;
    // z = -(32 - 27 - 0.5) / sqrt(var).
    EXPECT_DOUBLE_EQ(r.test.statistic, 27.0);
    const double z = -4.5 / std::sqrt(64.0 / 12.0 * (17.0 - 360.0 / 240.0));
    EXPECT_NEAR(r.test.z, z, 1e-12);
    EXPECT_NEAR(r.test.pValue, std::erfc(std::abs(z) / std::sqrt(2.0)), 1e-12);
    // Unpaired standard error: s_b^2 = 8 / 7 (squares of 1 0 0 -1 1 -2 0 1 around 4), s_c^2 = 7.5 / 7
    // (1.25 .25 -.75 -.75 1.25 -1.75 .25 .25 around 3.75): se = sqrt(8/7/8 + 7.5/7/8).
    EXPECT_NEAR(r.standardErrorPct, std::sqrt(8.0 / 7 / 8 + 7.5 / 7 / 8) / 4 * 100, 1e-12);
    EXPECT_TRUE(r.biggestDrops.empty());
}

TEST(JudgeScores, JsonArrayOfObjectsWithIntegerIds) {
    std::string b = "[";
    for (std::size_t i = 0; i < kBaseline.size(); ++i)
        b += (i ? "," : "") + std::string("{\"id\": ") + std::to_string(i + 1) +
             ", \"score\": " + std::to_string(kBaseline[i]) + ", \"comment\": \"c" + std::to_string(i + 1) + "\"}";
    b += "]";
    std::string c = "id,score\n";
    for (std::size_t i = 0; i < kCandidate.size(); ++i)
        c += std::to_string(i + 1) + "," + std::to_string(kCandidate[i]) + "\n";
    const JudgeScores bs = read(b, "bf16.json"), cs = read(c, "fp8.csv");
    EXPECT_EQ(bs.samples[0].id, "1");  // integers normalised to text, so they meet the CSV's ids
    EXPECT_EQ(bs.samples[7].fields["comment"], "c8");
    const JudgeComparison r = compare(bs, cs);
    EXPECT_TRUE(r.paired);
    EXPECT_EQ(r.nPairs, 8u);
    EXPECT_DOUBLE_EQ(r.degradationPct, 6.25);
    ASSERT_EQ(r.biggestDrops.size(), 2u);
    EXPECT_EQ(r.biggestDrops[0].id, "3");
    EXPECT_EQ(r.biggestDrops[0].baselineFields["comment"], "c3");
}

TEST(JudgeScores, PairingShuffledWithMissingIds) {
    // Candidate in another order, without q3, with an extra q9.
    const std::string c =
        "{\"id\": \"q8\", \"score\": 4}\n{\"id\": \"q9\", \"score\": 1}\n{\"id\": \"q1\", \"score\": 5}\n"
        "{\"id\": \"q6\", \"score\": 2}\n{\"id\": \"q2\", \"score\": 4}\n{\"id\": \"q7\", \"score\": 4}\n"
        "{\"id\": \"q5\", \"score\": 5}\n{\"id\": \"q4\", \"score\": 3}\n";
    const JudgeComparison r = compare(read(jsonl(kBaseline), "bf16.jsonl"), read(c, "fp8.jsonl"));
    EXPECT_TRUE(r.paired);
    EXPECT_EQ(r.nPairs, 7u);
    EXPECT_EQ(r.nCandidate, 8u);
    EXPECT_EQ(r.onlyInBaseline, std::vector<std::string>{"q3"});
    EXPECT_EQ(r.onlyInCandidate, std::vector<std::string>{"q9"});
    // Over the 7 pairs: baseline 5 4 3 5 2 4 5 = 28 / 7 = 4; candidate 5 4 3 5 2 4 4 = 27 / 7.
    EXPECT_DOUBLE_EQ(r.baselineMean, 4.0);
    EXPECT_NEAR(r.candidateMean, 27.0 / 7.0, 1e-12);
    EXPECT_NEAR(r.degradationPct, (1.0 / 7.0) / 4.0 * 100, 1e-12);  // 3.571 %
    ASSERT_EQ(r.biggestDrops.size(), 1u);
    EXPECT_EQ(r.biggestDrops[0].id, "q8");

    // No id in common: an error naming both files.
    auto none = compareJudgeScores(read("{\"id\": \"a\", \"score\": 3}", "x.jsonl"),
                                   read("{\"id\": \"b\", \"score\": 3}", "y.jsonl"));
    ASSERT_FALSE(none);
    EXPECT_NE(none.error().message.find("x.jsonl"), std::string::npos);
    EXPECT_NE(none.error().message.find("y.jsonl"), std::string::npos);
}

TEST(JudgeScores, BadLinesNameTheFileAndLine) {
    struct Case {
        std::string text, name, expect;
    };
    const std::vector<Case> cases = {
        {"{\"id\": 1, \"score\": 4}\n{\"id\": 2, \"score\": \"good\"}\n", "s.jsonl",
         "s.jsonl line 2: score \"good\" is not a number"},
        {"{\"id\": 1, \"score\": 4}\n\n{\"id\": 2, \"score\": 6}\n", "s.jsonl",
         "s.jsonl line 3: score 6 is outside the judge's scale [1, 5]"},
        {"{\"id\": 1, \"score\": 4}\n{\"id\": 2, \"score\": 0}\n", "s.jsonl", "line 2: score 0 is outside"},
        {"{\"id\": \"a\", \"score\": 4}\n{\"id\": \"b\", \"score\": 3}\n{\"id\": \"a\", \"score\": 2}\n", "s.jsonl",
         "s.jsonl line 3: duplicate id \"a\" (first at line 1)"},
        {"{\"id\": 1, \"score\": 4}\n{\"id\": 2, \"score\": 4\n", "s.jsonl", "s.jsonl line 2: not valid JSON"},
        {"{\"id\": 1, \"score\": 4}\n{\"id\": 2, \"rating\": 4}\n", "s.jsonl", "s.jsonl line 2: no \"score\" field"},
        {"{\"id\": 1, \"score\": 4}\n{\"score\": 4}\n", "s.jsonl", "s.jsonl line 2: has no id, while line 1 has one"},
        {"{\"id\": 1.5, \"score\": 4}\n", "s.jsonl", "s.jsonl line 1: the id 1.5 is neither a string nor an integer"},
        {"{\"id\": 1, \"score\": true}\n", "s.jsonl", "s.jsonl line 1: score true is not a number"},
        {"[[1], 2]\n", "s.jsonl", "s.jsonl [0]: expected a score or an object"},  // a .jsonl holding an array
        {"id,rating\nq1,4\n", "s.csv", "s.csv line 1: the header has no \"score\" column (it has: id, rating)"},
        {"id,score\r\nq1,4\r\nq2,abc\r\n", "s.csv", "s.csv line 3: score \"abc\" is not a number"},
        {"id,score,c\r\nq1,4,\"a\r\nb\"\r\nq2,9,x\r\n", "s.csv",
         "s.csv line 4: score 9 is outside"},  // line after a break
        {"id,score\nq1,4\nq1,5\n", "s.csv", "s.csv line 3: duplicate id \"q1\" (first at line 2)"},
        {"id,score\nq1,4,extra\n", "s.csv", "s.csv line 2: has 3 fields, the header has 2"},
        {"id,score\nq1,\n", "s.csv", "s.csv line 2: the score is empty"},
        {"id,score\nq1,\"4\n", "s.csv", "s.csv line 2: a quoted field is not closed"},
        {"id,score\n", "s.csv", "s.csv: no scores after the header"},
        {"[4, 5, \"x\"]", "s.json", "s.json [2]: score \"x\" is not a number"},
        {"[4, 5, 7]", "s.json", "s.json [2]: score 7 is outside"},
        {"[4, null]", "s.json", "s.json [1]: expected a score or an object"},
        {"[]", "s.json", "s.json: the array holds no scores"},
        {"", "s.jsonl", "s.jsonl: the file is empty"},
        {"  \r\n\n", "s.csv", "s.csv: the file is empty"},
        {"[4, NaN]", "s.json", "s.json [1]: score nan is not a finite number"},
    };
    for (const auto& c : cases) {
        const std::string e = errorOf(c.text, c.name);
        EXPECT_NE(e.find(c.expect), std::string::npos) << "text: " << c.text << "\nerror: " << e;
    }
}

TEST(JudgeScores, FormatDetection) {
    // JSON Lines saved as .json, and as a file without an extension.
    const std::string lines = "{\"id\": \"a\", \"score\": 4}\n{\"id\": \"b\", \"score\": 5}\n";
    EXPECT_EQ(read(lines, "scores.json").format, JudgeFileFormat::JsonLines);
    EXPECT_EQ(read(lines, "scores").format, JudgeFileFormat::JsonLines);
    EXPECT_EQ(read(lines, "scores.ndjson").format, JudgeFileFormat::JsonLines);
    EXPECT_EQ(read("[4, 5]", "scores.txt").format, JudgeFileFormat::JsonArray);
    EXPECT_EQ(read("[4, 5]", "scores.jsonl").format, JudgeFileFormat::JsonArray);
    EXPECT_EQ(read("\xEF\xBB\xBFscore\n4\n5\n", "export.txt").format, JudgeFileFormat::Csv);  // BOM, no ids
    EXPECT_EQ(read("Score\n4\n", "x.CSV").samples[0].score, 4.0);  // header names are case-insensitive
    // An explicit format wins over the extension.
    auto explicitCsv = parseJudgeScores("id,score\na,4\n", "scores.json", {}, JudgeFileFormat::Csv);
    ASSERT_TRUE(explicitCsv) << explicitCsv.error().message;
    EXPECT_EQ(explicitCsv->samples[0].id, "a");
    // A pretty-printed object in a .json file is read as JSON Lines and says so.
    const std::string e = errorOf("{\n  \"id\": 1,\n  \"score\": 4\n}\n", "one.json");
    EXPECT_NE(e.find("one.json line 1"), std::string::npos) << e;
    EXPECT_NE(e.find("read as JSON Lines"), std::string::npos) << e;
    // A missing file.
    auto missing = loadJudgeScores("/nonexistent/scores.jsonl");
    ASSERT_FALSE(missing);
    EXPECT_NE(missing.error().message.find("/nonexistent/scores.jsonl"), std::string::npos);
}

TEST(JudgeScores, ScaleAndNonIntegerScores) {
    // 0-10 scale: 7 is fine, 11 is not; 11 bins from 0.
    JudgeScale ten{0, 10};
    const JudgeScores b = read("[7, 8, 10, 0]", "b.json", ten);
    EXPECT_NE(errorOf("[7, 11]", "c.json", ten).find("c.json [1]: score 11 is outside the judge's scale [0, 10]"),
              std::string::npos);
    JudgeOptions o;
    o.scale = ten;
    const JudgeComparison r = compare(b, read("[7, 8, 9, 1]", "c.json", ten), o);
    EXPECT_EQ(r.distributionFrom, 0);
    EXPECT_EQ(r.baselineDistribution, (std::vector<std::uint64_t>{1, 0, 0, 0, 0, 0, 0, 1, 1, 0, 1}));
    // Means 25 / 4 = 6.25 and 25 / 4: no degradation.
    EXPECT_DOUBLE_EQ(r.degradationPct, 0.0);
    EXPECT_EQ(r.verdict, Verdict::Go);

    // Non-integer scores are binned by rounding (half away from zero): 4.5 -> 5, 2.49 -> 2, 1.5 -> 2, 3.2 -> 3.
    const JudgeComparison f = compare(read("[4.5, 2.49, 1.5, 3.2]", "b.json"), read("[4, 4, 4, 4]", "c.json"));
    EXPECT_EQ(f.baselineDistribution, (std::vector<std::uint64_t>{0, 2, 1, 0, 1}));
    EXPECT_EQ(f.candidateDistribution, (std::vector<std::uint64_t>{0, 0, 0, 4, 0}));
    // 11.69 / 4 = 2.9225 -> 4: an improvement of (4 - 2.9225) / 2.9225 = 36.9 %, zero degradation.
    EXPECT_NEAR(f.deltaPct, (4 - 2.9225) / 2.9225 * 100, 1e-9);
    EXPECT_EQ(f.degradationPct, 0.0);

    EXPECT_FALSE(parseJudgeScores("[1]", "x.json", JudgeScale{5, 1}));  // an inverted scale
}

// 50 samples, all 4 in the baseline; the candidate equal except the listed changes.
std::pair<JudgeScores, JudgeScores> fifty(const std::vector<std::pair<int, double>>& changes) {
    std::vector<JudgeRecord> b, c;
    for (int i = 0; i < 50; ++i) {
        b.push_back({"s" + std::to_string(i), 4.0, ""});
        c.push_back({"s" + std::to_string(i), 4.0, "fine"});
    }
    for (auto [i, v] : changes) c[static_cast<std::size_t>(i)].value = v;
    return {judgeScoresFromRecords(b, "langfuse:bf16").value(), judgeScoresFromRecords(c, "langfuse:fp8").value()};
}

TEST(JudgeComparison, BandsConfidenceAndCautiousPolicy) {
    // Identical: no degradation, a zero-width interval, clear, equivalent.
    auto [b0, c0] = fifty({});
    const JudgeComparison same = compare(b0, c0);
    EXPECT_EQ(same.verdict, Verdict::Go);
    EXPECT_EQ(same.meanDiffCi.low, 0.0);
    EXPECT_EQ(same.meanDiffCi.high, 0.0);
    EXPECT_EQ(same.confidence.confidence, Confidence::Clear);
    EXPECT_TRUE(same.equivalence.equivalent);
    EXPECT_EQ(same.test.pValue, 1.0);

    // One sample 4 -> 2: mean 198 / 50 = 3.96, degradation 1.0 % -> monitor. The interval of the mean difference
    // runs from below -0.04 up to 0 (most resamples miss the one drop), so the degradation interval crosses 0.5 and
    // 1.5: inconclusive.
    auto [b1, c1] = fifty({{7, 2.0}});
    const JudgeComparison one = compare(b1, c1);
    EXPECT_NEAR(one.degradationPct, 1.0, 1e-9);
    EXPECT_EQ(one.pointVerdict, Verdict::Monitor);
    EXPECT_EQ(one.verdict, Verdict::Monitor);
    EXPECT_EQ(one.confidence.confidence, Confidence::Inconclusive);
    EXPECT_EQ(one.meanDiffCi.high, 0.0);
    EXPECT_GT(one.confidence.highPct, 1.5);
    ASSERT_TRUE(one.confidence.samplesNeeded);
    EXPECT_GT(*one.confidence.samplesNeeded, 50u);
    EXPECT_FALSE(one.equivalence.equivalent);
    ASSERT_EQ(one.biggestDrops.size(), 1u);
    EXPECT_EQ(one.biggestDrops[0].id, "s7");
    EXPECT_EQ(one.biggestDrops[0].candidateFields["comment"], "fine");

    JudgeOptions cautious;
    cautious.cautious = true;
    const JudgeComparison worst = compare(b1, c1, cautious);
    EXPECT_EQ(worst.pointVerdict, Verdict::Monitor);
    EXPECT_EQ(worst.verdict, Verdict::Investigate);  // the interval reaches past 1.5
    EXPECT_NE(worst.reason.find("cautious"), std::string::npos);

    // Mixed ups and downs that cancel: point go, interval across 0.5 -> cautious makes it at least monitor.
    auto [b2, c2] = fifty({{3, 5.0}, {9, 3.0}, {20, 5.0}, {31, 3.0}});
    const JudgeComparison mixed = compare(b2, c2, cautious);
    EXPECT_EQ(mixed.degradationPct, 0.0);
    EXPECT_EQ(mixed.pointVerdict, Verdict::Go);
    EXPECT_EQ(mixed.confidence.confidence, Confidence::Inconclusive);
    EXPECT_EQ(mixed.verdict, mixed.confidence.highPct > 1.5 ? Verdict::Investigate : Verdict::Monitor);
    EXPECT_EQ(compare(b2, c2).verdict, Verdict::Go);

    // Same seed, same figures; the seed is an option.
    const JudgeComparison again = compare(b1, c1);
    EXPECT_EQ(again.meanDiffCi.low, one.meanDiffCi.low);
    JudgeOptions otherSeed;
    otherSeed.seed = 12345;
    otherSeed.bootstrapIterations = 2000;
    EXPECT_TRUE(compareJudgeScores(b1, c1, otherSeed));

    // Thresholds come from the options: go below 2 % makes the 1 % drop "go".
    JudgeOptions loose;
    loose.thresholds = {2.0, 3.0};
    EXPECT_EQ(compare(b1, c1, loose).verdict, Verdict::Go);
    JudgeOptions bad;
    bad.thresholds = {2.0, 1.0};
    EXPECT_FALSE(compareJudgeScores(b1, c1, bad));
}

TEST(JudgeComparison, RecordsSeamChecksLikeTheFiles) {
    auto dup = judgeScoresFromRecords({{"t1", 4, ""}, {"t1", 3, ""}}, "langfuse:llm_judge_domain");
    ASSERT_FALSE(dup);
    EXPECT_NE(dup.error().message.find("langfuse:llm_judge_domain record 1: duplicate id \"t1\""), std::string::npos)
        << dup.error().message;
    auto out = judgeScoresFromRecords({{"t1", 7, ""}}, "langfuse:x");
    ASSERT_FALSE(out);
    EXPECT_NE(out.error().message.find("record 0: score 7 is outside"), std::string::npos);
    auto ok = judgeScoresFromRecords({{"t1", 4, "short answer"}, {"t2", 5, ""}}, "langfuse:x");
    ASSERT_TRUE(ok);
    EXPECT_TRUE(ok->hasIds);
    EXPECT_EQ(ok->samples[0].fields["comment"], "short answer");
    EXPECT_FALSE(ok->samples[1].fields.contains("comment"));
    EXPECT_FALSE(judgeScoresFromRecords({}, "langfuse:x"));
}

// The sign convention: the degradation interval is clamped at 0 like the degradation, so that it holds its point.
// The fixture pair swapped: the candidate improves 3.75 -> 4.0, a degradation of 0.
TEST(JudgeComparison, TheDegradationIntervalHoldsItsPointForAnImprovement) {
    const JudgeComparison r = compare(read(kCandidateCsv, "fp8.csv"), read(jsonl(kBaseline), "bf16.jsonl"));
    const Json k = judgeComparisonToJson(r)["judge"];
    EXPECT_EQ(k["degradation_pct"], 0.0);
    EXPECT_GT(k["delta_pct"].get<double>(), 0.0);
    const double low = k["degradation_ci95"][0].get<double>(), high = k["degradation_ci95"][1].get<double>();
    EXPECT_GE(low, 0.0);
    EXPECT_LE(low, 0.0) << "the interval must hold the point 0";
    EXPECT_GE(high, 0.0);
}

TEST(JudgeComparison, JsonForTheCli) {
    const JudgeComparison r = compare(read(jsonl(kBaseline), "bf16.jsonl"), read(kCandidateCsv, "fp8.csv"));
    const Json j = judgeComparisonToJson(r);
    ASSERT_TRUE(j.contains("judge"));
    const Json& k = j["judge"];
    EXPECT_EQ(k["baseline_mean"], 4.0);
    EXPECT_EQ(k["candidate_mean"], 3.75);
    EXPECT_EQ(k["degradation_pct"], 6.25);
    EXPECT_EQ(k["verdict"], "investigate");
    EXPECT_EQ(k["paired"], true);
    EXPECT_EQ(k["n_pairs"], 8);
    EXPECT_EQ(k["n_baseline"], 8);
    EXPECT_EQ(k["n_candidate"], 8);
    EXPECT_EQ(k["mean_diff"], -0.25);
    ASSERT_TRUE(k["ci95"].is_array());
    EXPECT_EQ(k["ci95"][0], r.meanDiffCi.low);
    EXPECT_EQ(k["ci95"][1], r.meanDiffCi.high);
    EXPECT_EQ(k["p_value"], r.test.pValue);
    EXPECT_EQ(k["test"], "wilcoxon");
    EXPECT_TRUE(k["confidence"] == "clear" || k["confidence"] == "inconclusive");
    EXPECT_TRUE(k["samples_needed"].is_null() || k["samples_needed"].is_number_unsigned());
    EXPECT_EQ(k["equivalent"], false);
    EXPECT_EQ(k["distribution"]["baseline"], Json::array({0, 1, 1, 3, 3}));
    EXPECT_EQ(k["distribution"]["candidate"], Json::array({0, 1, 2, 3, 2}));
    EXPECT_EQ(k["only_in_baseline"], Json::array());
    EXPECT_EQ(k["only_in_candidate"], Json::array());
    ASSERT_EQ(k["biggest_drops"].size(), 2u);
    EXPECT_EQ(k["biggest_drops"][0]["id"], "q3");
    EXPECT_EQ(k["biggest_drops"][0]["baseline"], 4.0);
    EXPECT_EQ(k["biggest_drops"][0]["candidate"], 3.0);
    EXPECT_EQ(k["biggest_drops"][0]["diff"], -1.0);
    EXPECT_EQ(k["biggest_drops"][0]["baseline_fields"]["prompt"], "prompt 3");
    EXPECT_EQ(k["biggest_drops"][0]["candidate_fields"]["prompt"], "prompt 3");
}

TEST(JudgeSection, RoundTripsAndReDerivesTheSameFigures) {
    JudgeSection s;
    s.baseline = read(jsonl(kBaseline), "bf16.jsonl");
    s.candidate = read(kCandidateCsv, "fp8.csv");
    s.options.cautious = true;
    s.options.seed = 77;
    s.options.bootstrapIterations = 1500;
    s.options.topDrops = 1;
    const Json j = judgeSectionToJson(s);
    EXPECT_EQ(j["scale"]["min"], 1.0);
    EXPECT_EQ(j["baseline"]["source"], "bf16.jsonl");
    EXPECT_EQ(j["candidate"]["format"], "csv");
    EXPECT_EQ(j["candidate"]["samples"][2]["fields"]["comment"], "the judge said \"wrong\"\r\nand more");

    auto back = parseJudgeSection(Json::parse(j.dump()), "c.fp8cmp: judge");
    ASSERT_TRUE(back) << back.error().message;
    EXPECT_EQ(back->baseline, s.baseline);
    EXPECT_EQ(back->candidate, s.candidate);
    EXPECT_EQ(back->options, s.options);
    const Json before = judgeComparisonToJson(compareJudgeScores(s.baseline, s.candidate, s.options).value());
    const Json after =
        judgeComparisonToJson(compareJudgeScores(back->baseline, back->candidate, back->options).value());
    EXPECT_EQ(before, after);
    EXPECT_EQ(after["judge"]["biggest_drops"].size(), 1u);

    // Unpaired samples (no ids) round-trip too.
    JudgeSection u;
    u.baseline = read("[4, 5]", "a.json");
    u.candidate = read("[3, 5]", "b.json");
    auto ub = parseJudgeSection(judgeSectionToJson(u), "judge");
    ASSERT_TRUE(ub) << ub.error().message;
    EXPECT_EQ(ub->baseline, u.baseline);

    // Bad sections name the place.
    Json bad = j;
    bad["candidate"]["samples"][1]["score"] = 9;
    auto e = parseJudgeSection(bad, "c.fp8cmp: judge");
    ASSERT_FALSE(e);
    EXPECT_NE(e.error().message.find("c.fp8cmp: judge.candidate.samples[1]: score 9 is outside"), std::string::npos)
        << e.error().message;
    bad = j;
    bad.erase("baseline");
    e = parseJudgeSection(bad, "judge");
    ASSERT_FALSE(e);
    EXPECT_NE(e.error().message.find("judge.baseline is missing"), std::string::npos);
    bad = j;
    bad["scale"]["max"] = "5";
    EXPECT_FALSE(parseJudgeSection(bad, "judge"));
    bad = j;
    bad["candidate"]["samples"] = Json::array();
    e = parseJudgeSection(bad, "judge");
    ASSERT_FALSE(e);
    EXPECT_NE(e.error().message.find("judge.candidate.samples is empty"), std::string::npos);
}

}  // namespace
}  // namespace fp8dash
