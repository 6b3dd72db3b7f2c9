// buildComparison, the one assembly of a new comparison for the CLI and the GUI: the runs, the control, the sample
// logs' paired tests and their notes, the judge scores, the title, and errors that name the input and the file.
// Expected figures come from tests/data/lm-eval-samples/expected.json (make_samples.py, from its construction) or are
// computed here by hand from the scores written.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "fp8dash/core/comparison_builder.h"
#include "test_paths.h"

namespace fp8dash {
namespace {

namespace fs = std::filesystem;
using Json = nlohmann::json;

const fs::path kLogs = test::testData() / "lm-eval-samples";
const fs::path kBf16Run =
    kLogs / "new-layout/bf16/meta-llama__Llama-3.1-8B-Instruct/results_2026-08-21T10-15-30.123456.json";
const fs::path kFp8Run = kLogs / "new-layout/fp8/RedHatAI__Llama-3.1-8B-Instruct-FP8-dynamic";

Json expectedFigures() {
    std::ifstream in(kLogs / "expected.json");
    return Json::parse(in);
}

ComparisonInputs evalInputs() {
    ComparisonInputs in;
    in.baselinePath = kBf16Run;
    in.candidatePath = kFp8Run;
    return in;
}

TEST(BuildComparison, RunsWithTheirSampleLogsAndAControl) {
    ComparisonInputs in = evalInputs();
    in.controlPath = kBf16Run;
    in.options.allowIncomparable = true;  // the control is the baseline file itself
    auto built = buildComparison(in);
    ASSERT_TRUE(built.ok()) << built.error().message;
    const ComparisonDocument& doc = built->document;
    EXPECT_TRUE(doc.hasEvals);
    ASSERT_TRUE(doc.control.has_value());
    EXPECT_EQ(doc.control->label, "BF16 control");
    EXPECT_FALSE(doc.judge.has_value());

    const Json e = expectedFigures();
    ASSERT_EQ(doc.paired.count("gsm8k"), 1u);
    EXPECT_EQ(doc.paired.at("gsm8k").b01, e["new_gsm8k_strict"]["b01"].get<std::uint64_t>());
    EXPECT_EQ(doc.paired.at("gsm8k").b10, e["new_gsm8k_strict"]["b10"].get<std::uint64_t>());
    // gsm8k, arc_challenge and drop all have logs on both sides.
    ASSERT_EQ(built->pairingNotes.size(), 1u);
    EXPECT_EQ(built->pairingNotes[0], "sample logs: 3 of 3 tasks paired");

    ASSERT_EQ(built->inputs.size(), 3u);
    EXPECT_EQ(built->inputs[0].first, "BF16");
    EXPECT_EQ(fs::path(built->inputs[0].second), kBf16Run);
    EXPECT_EQ(built->inputs[1].first, "FP8");
    EXPECT_EQ(fs::path(built->inputs[1].second).filename(), "results_2026-08-21T14-02-11.654321.json");
    EXPECT_EQ(built->inputs[2].first, "BF16 control");
    ASSERT_TRUE(built->decision.evals.has_value());
    EXPECT_EQ(built->decision.evals->tasks.size(), 3u);
}

TEST(BuildComparison, WithoutSampleLogsNothingIsPairedAndNothingNoted) {
    ComparisonInputs in = evalInputs();
    in.readSampleLogs = false;
    auto built = buildComparison(in);
    ASSERT_TRUE(built.ok()) << built.error().message;
    EXPECT_TRUE(built->document.paired.empty());
    EXPECT_TRUE(built->pairingNotes.empty());
}

TEST(BuildComparison, RunsWithoutLogsSayWhyNothingWasPaired) {
    // The seed pair has no samples_*.jsonl beside its results.
    ComparisonInputs in;
    in.baselinePath = test::testData() / "lm-eval/seed-pair/bf16";
    in.candidatePath = test::testData() / "lm-eval/seed-pair/fp8";
    in.options.allowIncomparable = true;
    auto built = buildComparison(in);
    ASSERT_TRUE(built.ok()) << built.error().message;
    ASSERT_EQ(built->pairingNotes.size(), 1u);
    const std::string& note = built->pairingNotes[0];
    EXPECT_EQ(note.rfind("sample logs: no task paired (", 0), 0u) << note;
    EXPECT_NE(note.find("; the confidence comes from lm-eval's standard errors"), std::string::npos) << note;
}

TEST(BuildComparison, JudgeScoresAloneMakeAJudgeDocument) {
    test::TempDir dir;
    // Baseline 5,4,3,4 (mean 4), candidate 4,4,3,3 (mean 3.5), paired by id.
    const auto b = dir.write("b.jsonl",
                             "{\"id\": \"a\", \"score\": 5}\n{\"id\": \"b\", \"score\": 4}\n"
                             "{\"id\": \"c\", \"score\": 3}\n{\"id\": \"d\", \"score\": 4}\n");
    const auto c = dir.write("c.csv", "id,score\na,4\nb,4\nc,3\nd,3\n");
    ComparisonInputs in;
    in.baselineLabel = "bf16";
    in.candidateLabel = "w8a8";
    in.judgeBaselinePath = b;
    in.judgeCandidatePath = c;
    auto built = buildComparison(in);
    ASSERT_TRUE(built.ok()) << built.error().message;
    EXPECT_FALSE(built->document.hasEvals);
    EXPECT_EQ(built->document.title, "bf16 vs w8a8: domain judge");
    ASSERT_TRUE(built->decision.judge.has_value());
    EXPECT_TRUE(built->decision.judge->paired);
    EXPECT_EQ(built->decision.judge->nPairs, 4u);
    EXPECT_DOUBLE_EQ(built->decision.judge->baselineMean, 4.0);
    EXPECT_DOUBLE_EQ(built->decision.judge->candidateMean, 3.5);
    EXPECT_TRUE(built->pairingNotes.empty());
    ASSERT_EQ(built->inputs.size(), 2u);
    EXPECT_EQ(built->inputs[0], (std::pair<std::string, std::string>{"judge bf16", b.string()}));
    EXPECT_EQ(built->inputs[1], (std::pair<std::string, std::string>{"judge w8a8", c.string()}));

    in.title = "Support bot, FP8 weights";
    built = buildComparison(in);
    ASSERT_TRUE(built.ok()) << built.error().message;
    EXPECT_EQ(built->document.title, "Support bot, FP8 weights");
}

TEST(BuildComparison, ErrorsNameTheInputAndTheFile) {
    ComparisonInputs in = evalInputs();
    in.candidatePath = kLogs / "no-such-run.json";
    auto built = buildComparison(in);
    ASSERT_FALSE(built.ok());
    EXPECT_EQ(built.error().message.rfind("candidate: ", 0), 0u) << built.error().message;
    EXPECT_NE(built.error().message.find("no-such-run.json"), std::string::npos) << built.error().message;

    in = evalInputs();
    in.controlPath = kLogs / "missing-control";
    built = buildComparison(in);
    ASSERT_FALSE(built.ok());
    EXPECT_EQ(built.error().message.rfind("control: ", 0), 0u) << built.error().message;

    test::TempDir dir;
    in = ComparisonInputs{};
    in.judgeBaselinePath = dir.write("b.jsonl", "{\"id\": \"a\", \"score\": 5}\n");
    in.judgeCandidatePath = dir.write("c.jsonl", "{\"id\": \"a\", \"score\": 9}\n");  // outside 1-5
    built = buildComparison(in);
    ASSERT_FALSE(built.ok());
    EXPECT_EQ(built.error().message.rfind("judge candidate: ", 0), 0u) << built.error().message;
    EXPECT_NE(built.error().message.find("c.jsonl"), std::string::npos) << built.error().message;

    in = ComparisonInputs{};
    in.judgeBaselinePath = dir.path() / "b.jsonl";  // no candidate
    EXPECT_FALSE(buildComparison(in).ok());
    in = ComparisonInputs{};
    in.controlPath = kBf16Run;  // a control without runs
    EXPECT_FALSE(buildComparison(in).ok());
    EXPECT_FALSE(buildComparison(ComparisonInputs{}).ok());
}

TEST(BuildComparison, ACancelledReadOfTheLogsIsAnError) {
    auto built = buildComparison(evalInputs(), [](std::uint64_t, std::uint64_t) { return false; });
    ASSERT_FALSE(built.ok());
    EXPECT_EQ(built.error().message.rfind("sample logs: ", 0), 0u) << built.error().message;
}

}  // namespace
}  // namespace fp8dash
