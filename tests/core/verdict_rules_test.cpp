// The verdict rules changed after Compare (verdict_rules.h) and the reviewer's sign-off of one variant (review.h's
// ReviewDecision::variant), on the generated ladder (tests/data/lm-eval-ladder, make_ladder.py). The expected
// recommendations are worked out here from the ladder's means in expected.json: gsm8k 0.76 BF16, 0.756 W8A8 (0.526 %
// lost), 0.736 + FP8 KV scales 1.0 (3.16 %), 0.754 + calibrated KV (0.789 %); arc_challenge loses at most 0.364 %.
#include "fp8dash/core/verdict_rules.h"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>

#include "fp8dash/core/comparison_builder.h"
#include "fp8dash/core/monitoring_export.h"
#include "fp8dash/core/presentation_deck.h"
#include "fp8dash/core/report_document.h"
#include "fp8dash/core/review.h"
#include "test_paths.h"

namespace fp8dash {
namespace {

const std::string kW8a8 = "FP8 W8A8";
const std::string kKv = "FP8 W8A8 + FP8 KV (scales 1.0)";
const std::string kKvCal = "FP8 W8A8 + FP8 KV (calibrated scales)";

std::filesystem::path ladderDir() {
    return std::filesystem::path(FP8DASH_TEST_DATA) / "lm-eval-ladder";
}

ComparisonDocument ladderDocument() {
    ComparisonInputs in;
    in.baselinePath = ladderDir() / "bf16";
    in.candidatePath = ladderDir() / "w8a8";
    in.moreCandidatePaths = {ladderDir() / "w8a8-kv", ladderDir() / "w8a8-kv-cal"};
    auto built = buildComparison(in);
    EXPECT_TRUE(built.ok()) << (built.ok() ? "" : built.error().message);
    return built.ok() ? built->document : ComparisonDocument{};
}

// gsm8k's loss of one ladder run against BF16, in percent, from expected.json's means.
double gsm8kLossPct(const std::string& run) {
    std::ifstream in(ladderDir() / "expected.json");
    const Json j = Json::parse(in);
    const double b = j["means"]["bf16/gsm8k"].get<double>(), c = j["means"][run + "/gsm8k"].get<double>();
    return (b - c) / b * 100;
}

Verdict bandOf(double lossPct, double goBelow, double investigateAbove) {
    return lossPct < goBelow ? Verdict::Go : lossPct > investigateAbove ? Verdict::Investigate : Verdict::Monitor;
}

ReviewDecision signedOff(ReviewOutcome o, std::optional<std::string> variant, std::optional<Verdict> at) {
    ReviewDecision d;
    d.outcome = o;
    d.by = "Ana Ruiz";
    d.at = "2026-12-01T14:03:05Z";
    d.why = "the calibrated scales hold on our traffic";
    d.verdictAtDecision = at;
    d.variant = std::move(variant);
    return d;
}

TEST(VerdictRules, ReadAndAppliedOnTheDocumentsFields) {
    ComparisonDocument doc = ladderDocument();
    VerdictRules r = verdictRulesOf(doc);
    EXPECT_EQ(r.thresholds, doc.options.thresholds);
    EXPECT_EQ(r.cautious, doc.options.cautious);
    EXPECT_EQ(r.gate, doc.recommendation);
    r.thresholds = {1.0, 2.0};
    r.cautious = true;
    r.gate.accept = Verdict::Monitor;
    r.gate.minRecoveryPct = 99.0;
    applyVerdictRules(doc, r);
    EXPECT_EQ(doc.options.thresholds.goBelow, 1.0);
    EXPECT_EQ(doc.options.thresholds.investigateAbove, 2.0);
    EXPECT_TRUE(doc.options.cautious);
    EXPECT_EQ(doc.recommendation.accept, Verdict::Monitor);
    EXPECT_EQ(doc.recommendation.minRecoveryPct, 99.0);
    EXPECT_EQ(verdictRulesOf(doc), r);
}

TEST(VerdictRules, InvalidFieldsAreNamedOneByOne) {
    VerdictRules r;
    EXPECT_TRUE(checkVerdictRules(r).ok());
    r.thresholds.goBelow = std::numeric_limits<double>::quiet_NaN();
    auto p = checkVerdictRules(r);
    EXPECT_FALSE(p.goBelow.empty());
    EXPECT_TRUE(p.investigateAbove.empty());
    r.thresholds = {0.5, -1};
    p = checkVerdictRules(r);
    EXPECT_TRUE(p.goBelow.empty());
    EXPECT_NE(p.investigateAbove.find("negative"), std::string::npos);
    r.thresholds = {2, 1};  // GO's edge above INVESTIGATE's: both fields say so
    p = checkVerdictRules(r);
    EXPECT_NE(p.goBelow.find("must not exceed"), std::string::npos);
    EXPECT_FALSE(p.investigateAbove.empty());
    r.thresholds = {1, 1};  // equal edges are allowed: no MONITOR band
    EXPECT_TRUE(checkVerdictRules(r).ok());
    for (double bad : {-0.1, 100.5, std::numeric_limits<double>::infinity()}) {
        r.gate.minRecoveryPct = bad;
        EXPECT_FALSE(checkVerdictRules(r).minRecovery.empty()) << bad;
    }
    r.gate.minRecoveryPct = 99;
    EXPECT_TRUE(checkVerdictRules(r).ok());
}

// decide() re-derives the recommendation from the stored runs under the new rules, as worked out by hand.
TEST(VerdictRules, DecideReDerivesTheRecommendationFromTheStoredRuns) {
    ComparisonDocument doc = ladderDocument();
    ASSERT_TRUE(doc.hasVariants());
    const double w8a8 = gsm8kLossPct("w8a8"), kv = gsm8kLossPct("w8a8-kv"), cal = gsm8kLossPct("w8a8-kv-cal");
    // The default rules: GO below 0.5 %, INVESTIGATE above 1.5 %, gate GO only. No variant is GO.
    ASSERT_EQ(bandOf(w8a8, 0.5, 1.5), Verdict::Monitor);
    ASSERT_EQ(bandOf(cal, 0.5, 1.5), Verdict::Monitor);
    ASSERT_EQ(bandOf(kv, 0.5, 1.5), Verdict::Investigate);
    auto d = decide(doc);
    ASSERT_TRUE(d.ok()) << d.error().message;
    ASSERT_TRUE(d->variants);
    EXPECT_FALSE(d->variants->recommendation.label);
    // The deciding variant then is the least severe: W8A8 and calibrated KV are both MONITOR, and the tie goes as the
    // recommendation breaks it, to the more aggressive (calibrated KV adds the KV cache to W8A8's layers), although
    // W8A8 loses less.
    ASSERT_LT(w8a8, cal);
    EXPECT_EQ(reviewDecidingVariant(*d), kKvCal);

    // Gate GO or MONITOR: both MONITOR variants pass; the calibrated KV one adds a layer to W8A8 (more aggressive).
    VerdictRules r = verdictRulesOf(doc);
    r.gate.accept = Verdict::Monitor;
    applyVerdictRules(doc, r);
    d = decide(doc);
    ASSERT_TRUE(d.ok());
    EXPECT_EQ(d->variants->recommendation.label, kKvCal);
    EXPECT_EQ(d->variants->recommendation.verdict, Verdict::Monitor);
    EXPECT_EQ(reviewDecidingVariant(*d), kKvCal);

    // GO below 1 % (gate GO only again): W8A8 and calibrated KV are GO; the calibrated KV one is recommended, GO.
    r.gate.accept = Verdict::Go;
    r.thresholds = {1.0, 1.5};
    ASSERT_EQ(bandOf(cal, 1.0, 1.5), Verdict::Go);
    applyVerdictRules(doc, r);
    d = decide(doc);
    ASSERT_TRUE(d.ok());
    EXPECT_EQ(d->variants->recommendation.label, kKvCal);
    EXPECT_EQ(d->variants->recommendation.verdict, Verdict::Go);

    // A minimum recovery above the calibrated variant's gsm8k recovery (0.754 / 0.76 = 99.21 %) leaves W8A8
    // (99.47 %).
    r.gate.minRecoveryPct = 99.3;
    ASSERT_LT(0.754 / 0.76 * 100, 99.3);
    ASSERT_GT(0.756 / 0.76 * 100, 99.3);
    applyVerdictRules(doc, r);
    d = decide(doc);
    ASSERT_TRUE(d.ok());
    EXPECT_EQ(d->variants->recommendation.label, kW8a8);
}

TEST(VerdictRules, TextSaysTheRulesInWords) {
    VerdictRules r;
    r.gate.accept = Verdict::Monitor;
    r.gate.minRecoveryPct = 99;
    EXPECT_EQ(verdictRulesText(r, false), "GO below 0.5 % · INVESTIGATE above 1.5 % · estimate");
    EXPECT_EQ(verdictRulesText(r, true),
              "GO below 0.5 % · INVESTIGATE above 1.5 % · estimate · gate: GO or MONITOR, every task recovering at "
              "least 99 %");
}

// The variant round-trips through the file's JSON; a decision without one writes no "variant" key and reads back
// without one (older files read unchanged).
TEST(ReviewVariant, RoundTripsWithAndWithoutAVariant) {
    const ReviewDecision with = signedOff(ReviewOutcome::ApprovedMonitor, kKvCal, Verdict::Monitor);
    const Json j = reviewDecisionToJson(with);
    EXPECT_EQ(j.at("variant"), kKvCal);
    auto back = parseReviewDecision(j, "review.decisions[0]");
    ASSERT_TRUE(back.ok()) << back.error().message;
    EXPECT_EQ(*back, with);

    const ReviewDecision without = signedOff(ReviewOutcome::Rejected, std::nullopt, Verdict::Investigate);
    const Json k = reviewDecisionToJson(without);
    EXPECT_FALSE(k.contains("variant"));
    back = parseReviewDecision(k, "review.decisions[0]");
    ASSERT_TRUE(back.ok());
    EXPECT_EQ(*back, without);
    EXPECT_FALSE(back->variant);

    Json bad = j;
    bad["variant"] = 3;
    auto refused = parseReviewDecision(bad, "review.decisions[0]");
    ASSERT_FALSE(refused.ok());
    EXPECT_NE(refused.error().message.find("review.decisions[0].variant"), std::string::npos);
    bad["variant"] = " ";
    EXPECT_FALSE(parseReviewDecision(bad, "review.decisions[0]").ok());
}

// The bundled demo's decisions (recorded before variants were named) read unchanged and write back as they were
// written, without a "variant"; a ladder document with a signed-off variant survives the file.
TEST(ReviewVariant, OldFilesKeepTheirDecisionsAndTheVariantSurvivesTheFile) {
    const std::filesystem::path demo =
        std::filesystem::path(FP8DASH_SOURCE_DIR) / "resources/demo/llama3-8b-instruct-fp8.fp8cmp";
    std::ifstream in(demo);
    const Json raw = Json::parse(in);
    const Json& decisions = raw.at("review").at("decisions");
    ASSERT_FALSE(decisions.empty());
    auto old = loadComparisonFile(demo);
    ASSERT_TRUE(old.ok()) << old.error().message;
    ASSERT_EQ(old->decisions.size(), decisions.size());
    for (std::size_t i = 0; i < decisions.size(); ++i) {
        EXPECT_FALSE(decisions[i].contains("variant"));
        EXPECT_FALSE(old->decisions[i].variant);
        EXPECT_EQ(old->decisions[i].by, decisions[i]["by"].get<std::string>());
        EXPECT_EQ(old->decisions[i].why, decisions[i]["why"].get<std::string>());
        EXPECT_EQ(reviewDecisionToJson(old->decisions[i]), decisions[i]);
    }
    // Its assessment is what it was before variants: the plain verdict comparison.
    auto d = decide(*old);
    ASSERT_TRUE(d.ok());
    EXPECT_EQ(assessReview(old->decisions.back(), *d).warnings,
              assessReview(old->decisions.back(), d->verdict).warnings);

    ComparisonDocument doc = ladderDocument();
    doc.decisions.push_back(signedOff(ReviewOutcome::ApprovedMonitor, kKvCal, Verdict::Monitor));
    auto back = parseComparisonJson(toJson(doc), "ladder.fp8cmp");
    ASSERT_TRUE(back.ok()) << back.error().message;
    ASSERT_EQ(back->decisions.size(), 1u);
    EXPECT_EQ(back->decisions[0].variant, kKvCal);
}

TEST(ReviewVariant, AssessmentWarnsOfAnotherVariantThanTheDecidingOneAndOfAnUnknownOne) {
    ComparisonDocument doc = ladderDocument();
    VerdictRules r = verdictRulesOf(doc);
    r.gate.accept = Verdict::Monitor;  // recommended: calibrated KV, MONITOR (worked out above)
    applyVerdictRules(doc, r);
    auto d = decide(doc);
    ASSERT_TRUE(d.ok());
    ASSERT_EQ(d->verdict, Verdict::Monitor);

    auto a = assessReview(signedOff(ReviewOutcome::ApprovedMonitor, kKvCal, d->verdict), *d);
    EXPECT_TRUE(a.warnings.empty()) << a.warnings.front();
    a = assessReview(signedOff(ReviewOutcome::ApprovedMonitor, kW8a8, d->verdict), *d);
    ASSERT_EQ(a.warnings.size(), 1u);
    EXPECT_NE(a.warnings[0].find("not the recommended one, " + kKvCal), std::string::npos) << a.warnings[0];
    // Rejecting another variant than the recommended one is no approval: no warning.
    EXPECT_TRUE(assessReview(signedOff(ReviewOutcome::Rejected, kKv, d->verdict), *d).warnings.empty());
    a = assessReview(signedOff(ReviewOutcome::ApprovedMonitor, "FP8 W4A16", d->verdict), *d);
    ASSERT_EQ(a.warnings.size(), 1u);
    EXPECT_NE(a.warnings[0].find("\"FP8 W4A16\", which this comparison does not hold"), std::string::npos);
    EXPECT_NE(a.warnings[0].find(kKv), std::string::npos);
    // A decision recorded when the evidence said INVESTIGATE (another gate or thresholds) shows the evidence
    // changed, as any decision does.
    a = assessReview(signedOff(ReviewOutcome::ApprovedMonitor, kKvCal, Verdict::Investigate), *d);
    EXPECT_TRUE(a.evidenceChanged);
    // The summary names the variant.
    EXPECT_EQ(reviewSummary(signedOff(ReviewOutcome::ApprovedMonitor, kKvCal, std::nullopt)),
              "Approved: monitor with quality alerting, variant " + kKvCal +
                  " — by Ana Ruiz, 2026-12-01 14:03 UTC: the calibrated scales hold on our traffic");
}

// The signed-off variant in every medium that shows the decision: the Markdown, HTML and text reports (the review
// section's Variant row and the history's Variant column), the JSON, the verdict slide and the monitoring export.
TEST(ReviewVariant, ReportsSlidesAndTheMonitoringExportNameTheVariant) {
    ComparisonDocument doc = ladderDocument();
    doc.decisions.push_back(signedOff(ReviewOutcome::Rejected, std::nullopt, Verdict::Investigate));  // an older one
    doc.decisions.push_back(signedOff(ReviewOutcome::Rejected, kKv, Verdict::Investigate));
    doc.decisions.push_back(signedOff(ReviewOutcome::ApprovedMonitor, kKvCal, Verdict::Monitor));
    auto d = decide(doc);
    ASSERT_TRUE(d.ok());
    ReportContext context;
    const std::string md = reportToMarkdownDocument(doc, *d, context);
    EXPECT_NE(md.find("| **Variant** | " + kKvCal + " |"), std::string::npos) << md;
    EXPECT_NE(md.find("| When | Outcome | Variant | By |"), std::string::npos)
        << md.substr(md.find("Earlier decisions"));                        // the history's column
    EXPECT_NE(md.find("| Rejected | — | Ana Ruiz |"), std::string::npos);  // the oldest one had none
    EXPECT_NE(md.find("| Rejected | " + kKv + " | Ana Ruiz |"), std::string::npos);
    const std::string html = reportToHtml(doc, *d, context);
    EXPECT_NE(html.find(htmlEscape(kKvCal)), std::string::npos);
    EXPECT_NE(reportToPlainText(doc, *d).find("variant " + kKvCal), std::string::npos);
    EXPECT_EQ(comparisonToJson(doc, *d)["review"]["current"]["variant"], kKvCal);
    const PresentationDeck deck = buildPresentationDeck(doc, *d);
    EXPECT_NE(deck.slides.back().review.find("variant " + kKvCal), std::string::npos);
    EXPECT_NE(deck.slides.back().talkingPoints.find("for " + kKvCal), std::string::npos);

    // The demo carries a production timeline: its exported rules name the decision in force and its variant.
    auto demo =
        loadComparisonFile(std::filesystem::path(FP8DASH_SOURCE_DIR) / "resources/demo/llama3-8b-instruct-fp8.fp8cmp");
    ASSERT_TRUE(demo.ok());
    demo->decisions.push_back(signedOff(ReviewOutcome::ApprovedMonitor, "FP8 W8A8", Verdict::Monitor));
    auto exported = exportMonitoring(*demo);
    ASSERT_TRUE(exported.ok()) << exported.error().message;
    EXPECT_EQ(exported->decision,
              "Approved: monitor with quality alerting, variant FP8 W8A8 — by Ana Ruiz, 2026-12-01 14:03 UTC");
    EXPECT_NE(exported->rulesYaml.find("review_decision"), std::string::npos);
    EXPECT_NE(exported->rulesYaml.find("variant FP8 W8A8"), std::string::npos);
}

}  // namespace
}  // namespace fp8dash
