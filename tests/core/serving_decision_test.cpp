// Serving benchmarks in the decision (DESIGN.md "What FP8 buys"): on the generated ladder (tests/data/lm-eval-ladder,
// gate GO or MONITOR: FP8 W8A8 passes at 0.53 % on gsm8k, + FP8 KV (scales 1.0) fails at 3.2 %, + FP8 KV (calibrated)
// passes at 0.79 %) the recommendation follows the measured gain exactly where it says so, and the verdict never
// moves. The serving figures are written here (one load point per variant; the gains are their ratios).
#include <gtest/gtest.h>

#include "fp8dash/core/comparison_builder.h"
#include "fp8dash/core/comparison_file.h"
#include "test_paths.h"

using namespace fp8dash;

namespace {

const char* kW8a8 = "FP8 W8A8";
const char* kKv = "FP8 W8A8 + FP8 KV (scales 1.0)";
const char* kKvCal = "FP8 W8A8 + FP8 KV (calibrated scales)";

ComparisonDocument ladder() {
    const auto dir = test::testData() / "lm-eval-ladder";
    ComparisonInputs in;
    in.baselinePath = dir / "bf16";
    in.candidatePath = dir / "w8a8";
    in.moreCandidatePaths = {dir / "w8a8-kv", dir / "w8a8-kv-cal"};
    in.recommendation.accept = Verdict::Monitor;
    auto built = buildComparison(in);
    if (!built) throw std::runtime_error(built.error().message);
    return std::move(built).value().document;
}

ServingRun at8(double outputTokS) {
    ServingRun r;
    r.source = "bench.json";
    r.model = "meta-llama/Llama-3.1-8B-Instruct";
    r.load = {LoadAxis::Concurrency, 8, std::nullopt};
    r.completed = 80;
    r.meanInputTokens = 1024;
    r.meanOutputTokens = 256;
    r.outputTokensPerS = outputTokS;
    r.ttft.percentiles = {{99, 300}};
    return r;
}

ServingSection serving(double w8a8, double kv, double kvCal) {
    ServingSection s;
    s.variants = {{"BF16", {at8(1000)}}, {kW8a8, {at8(w8a8)}}, {kKv, {at8(kv)}}, {kKvCal, {at8(kvCal)}}};
    return s;
}

}  // namespace

TEST(ServingDecision, WithoutServingTheRecommendationIsAsBeforeAndSaysSo) {
    const ComparisonDocument doc = ladder();
    ASSERT_EQ(doc.baseline.label, "BF16");
    const auto d = decide(doc);
    ASSERT_TRUE(d.ok()) << d.error().message;
    const Recommendation& rec = d->variants->recommendation;
    EXPECT_EQ(rec.label, kKvCal);
    EXPECT_EQ(rec.gain, "the serving gain was not measured (no serving benchmarks)");
    EXPECT_FALSE(rec.gainMeasured);
    EXPECT_FALSE(d->serving);
    EXPECT_EQ(*d->verdict, Verdict::Monitor);
}

TEST(ServingDecision, AKvStepThatBuysNothingIsNotRecommended) {
    ComparisonDocument doc = ladder();
    const auto before = decide(doc);
    ASSERT_TRUE(before.ok());
    // The calibrated KV variant serves 1,508 tok/s against FP8 W8A8's 1,500: +0.53 %, under the 2 % noise.
    doc.serving = serving(1500, 1900, 1508);
    const auto d = decide(doc);
    ASSERT_TRUE(d.ok()) << d.error().message;
    const Recommendation& rec = d->variants->recommendation;
    EXPECT_EQ(rec.label, kW8a8);
    ASSERT_EQ(rec.buysNothing.size(), 1u);
    EXPECT_EQ(rec.buysNothing[0].label, kKvCal);
    EXPECT_NE(rec.reason.find("buys +0.5% output tokens/s at 8 concurrent requests (within the noise) and costs"),
              std::string::npos)
        << rec.reason;
    EXPECT_NE(rec.reason.find(": FP8 W8A8 is enough"), std::string::npos) << rec.reason;
    EXPECT_EQ(rec.reason.find("most aggressive"), std::string::npos) << rec.reason;
    EXPECT_TRUE(rec.gainMeasured);
    EXPECT_EQ(rec.gain, "FP8 W8A8 buys +50.0% output tokens/s at 8 concurrent requests against BF16");
    // The verdict is the quality verdict of the variant the decision is about: FP8 W8A8's own (MONITOR, as the
    // calibrated variant's was); the +90 % of the failing scales-1.0 variant buys it nothing.
    EXPECT_EQ(*d->verdict, *before->verdict);
    EXPECT_EQ(d->variants->decidingVariant().label, kW8a8);
    EXPECT_FALSE(d->variants->variants[1].passes);
    const auto& reasons = d->reasons;
    EXPECT_NE(std::find(reasons.begin(), reasons.end(), "serving: " + rec.gain), reasons.end());
}

TEST(ServingDecision, AKvStepThatBuysMoreThanTheNoiseStaysRecommended) {
    ComparisonDocument doc = ladder();
    doc.serving = serving(1500, 1900, 1800);  // +20 % over FP8 W8A8
    const auto d = decide(doc);
    ASSERT_TRUE(d.ok()) << d.error().message;
    EXPECT_EQ(d->variants->recommendation.label, kKvCal);
    EXPECT_TRUE(d->variants->recommendation.buysNothing.empty());
    EXPECT_EQ(d->variants->recommendation.gain,
              std::string(kKvCal) + " buys +80.0% output tokens/s at 8 concurrent requests against BF16");
}

TEST(ServingDecision, AThroughputGainNeverTurnsInvestigateIntoGo) {
    ComparisonDocument doc = ladder();
    doc.recommendation.accept = Verdict::Go;  // nothing passes GO only: the best is FP8 W8A8 (MONITOR)
    const auto before = decide(doc);
    doc.serving = serving(1010, 5000, 1020);
    const auto d = decide(doc);
    ASSERT_TRUE(d.ok() && before.ok());
    EXPECT_FALSE(d->variants->recommendation.label);
    EXPECT_EQ(*d->verdict, *before->verdict);
    // The best of the MONITOR variants is weighed like the passing ones: the calibrated KV cache buys +1 % over
    // FP8 W8A8, within the noise, so the decision is about FP8 W8A8 now; its verdict is the same MONITOR.
    EXPECT_EQ(before->variants->decidingVariant().label, kKvCal);
    EXPECT_EQ(d->variants->decidingVariant().label, kW8a8);
    EXPECT_EQ(d->variants->decidingVariant().verdict, before->variants->decidingVariant().verdict);
}

TEST(ServingDecision, BlockedServingWeighsNothing) {
    ComparisonDocument doc = ladder();
    ServingSection s = serving(1500, 1900, 1508);
    s.variants[3].runs[0].model = "Qwen/Qwen3-8B-FP8";  // another model: not comparable
    doc.serving = s;
    const auto d = decide(doc);
    ASSERT_TRUE(d.ok());
    EXPECT_EQ(d->variants->recommendation.label, kKvCal);  // as without serving data
    EXPECT_EQ(d->variants->recommendation.gain.rfind("the serving gain was not weighed: not comparable: different "
                                                     "models",
                                                     0),
              0u)
        << d->variants->recommendation.gain;
}

TEST(ServingDecision, TheSectionRoundTripsAndSetsTheVersion) {
    ComparisonDocument doc = ladder();
    EXPECT_EQ(toJson(doc)["version"], 3);  // nothing of version 4 in it: readable by every fp8dash that read it
    ServingSection s = serving(1500, 1900, 1508);
    s.options.slo = *parseServingSlo("ttft_p99=2000ms");
    s.options.targetLoad = 64;
    s.variants[1].runs[0].metadata = {{"quantization", "fp8"}};
    s.variants[1].runs[0].requests.ttftMs = {1, 2};  // per-request arrays are not kept in the file
    doc.serving = s;
    const Json j = toJson(doc);
    EXPECT_EQ(j["version"], 4);
    auto back = parseComparisonText(j.dump(2), "x.fp8cmp");
    ASSERT_TRUE(back.ok()) << back.error().message;
    ASSERT_TRUE(back->serving);
    EXPECT_TRUE(back->migrations.empty());
    s.variants[1].runs[0].requests = {};
    EXPECT_EQ(*back->serving, s);
    EXPECT_EQ(back->serving->options.slo.text(), "ttft_p99=2000ms");
    EXPECT_EQ(back->serving->variants[1].runs[0].metadata, s.variants[1].runs[0].metadata);
    // Bad fields are named.
    Json bad = j;
    bad["serving"]["variants"][1]["runs"][0]["completed"] = "many";
    auto refused = parseComparisonText(bad.dump(), "x.fp8cmp");
    ASSERT_FALSE(refused.ok());
    EXPECT_EQ(refused.error().message,
              "x.fp8cmp: field serving.variants[1].runs[0].completed must be a whole number of at least 0");
    bad = j;
    bad["serving"]["options"]["slo"] = "ttft_p99=soon";
    refused = parseComparisonText(bad.dump(), "x.fp8cmp");
    ASSERT_FALSE(refused.ok());
    EXPECT_NE(refused.error().message.find("field serving.options.slo: SLO target"), std::string::npos);
}

TEST(ServingDecision, ServingResultsOfAnotherModelThanTheEvalsAreNotComparable) {
    ComparisonDocument doc = ladder();
    ServingSection s = serving(1500, 1900, 1508);
    for (auto& v : s.variants) v.runs[0].model = "openai/gpt-oss-120b";  // every serving run: another model
    doc.serving = s;
    const auto d = decide(doc);
    ASSERT_TRUE(d.ok()) << d.error().message;
    ASSERT_TRUE(d->serving);
    ASSERT_TRUE(d->serving->blocked());
    EXPECT_EQ(d->serving->problems.front().text,
              "not comparable: the serving results of BF16 measured openai/gpt-oss-120b, its evals "
              "meta-llama/Llama-3.1-8B-Instruct");
    EXPECT_EQ(d->variants->recommendation.label, kKvCal);  // not weighed: as without serving data
}
