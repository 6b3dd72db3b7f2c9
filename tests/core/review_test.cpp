// The review: recorded decisions in the comparison file, their assessment against the verdict, note ids, and the
// crash-recovery file.
#include "fp8dash/core/review.h"

#include <gtest/gtest.h>

#include <functional>
#include <set>

#include "fp8dash/core/comparison_file.h"
#include "fp8dash/core/recovery_file.h"
#include "test_paths.h"

namespace fp8dash {
namespace {

using test::TempDir;

// The demo as fp8dash 0.1.0 shipped it: evals and two notes, no decision.
ComparisonDocument evalsDemo() {
    return loadComparisonFile(test::testData() / "comparison-files/v1/demo-llama3-8b-instruct-fp8.fp8cmp").value();
}

ReviewDecision decision(ReviewOutcome o, std::optional<Verdict> at) {
    ReviewDecision d;
    d.outcome = o;
    d.by = "Ana Ruiz";
    d.at = "2026-12-01T14:03:05Z";
    d.why = "GSM8K is not used by this product; the domain judge holds.";
    d.verdictAtDecision = at;
    d.toolVersion = "0.2.0";
    return d;
}

TEST(ReviewOutcome, NamesRoundTripAndUnknownNamesAreRefused) {
    for (ReviewOutcome o : {ReviewOutcome::ApprovedGo, ReviewOutcome::ApprovedMonitor, ReviewOutcome::Rejected})
        EXPECT_EQ(parseReviewOutcome(reviewOutcomeName(o)), o);
    EXPECT_EQ(parseReviewOutcome(" Approved_Go "), ReviewOutcome::ApprovedGo);
    EXPECT_FALSE(parseReviewOutcome("approved"));
    EXPECT_EQ(outcomeVerdict(ReviewOutcome::ApprovedGo), Verdict::Go);
    EXPECT_EQ(outcomeVerdict(ReviewOutcome::ApprovedMonitor), Verdict::Monitor);
    EXPECT_FALSE(outcomeVerdict(ReviewOutcome::Rejected));
}

TEST(ReviewDecision, NeedsWhoWhenAndWhy) {
    ReviewDecision d = decision(ReviewOutcome::Rejected, Verdict::Investigate);
    EXPECT_TRUE(d.validate().ok());
    d.why = "  ";
    ASSERT_FALSE(d.validate().ok());
    EXPECT_NE(d.validate().error().message.find("reason"), std::string::npos);
    d = decision(ReviewOutcome::Rejected, Verdict::Investigate);
    d.by.clear();
    EXPECT_NE(d.validate().error().message.find("who"), std::string::npos);
}

TEST(ReviewAssessment, OverrideOnlyWhenMorePermissiveThanTheVerdict) {
    // Every outcome against every verdict: an override is an approval whose verdict is better than the evidence's.
    const ReviewOutcome outcomes[] = {ReviewOutcome::ApprovedGo, ReviewOutcome::ApprovedMonitor,
                                      ReviewOutcome::Rejected};
    const Verdict verdicts[] = {Verdict::Go, Verdict::Monitor, Verdict::Investigate};
    const bool expected[3][3] = {
        // go      monitor investigate   (the evidence's verdict)
        {false, true, true},    // approved go
        {false, false, true},   // approved monitor
        {false, false, false},  // rejected: never more permissive
    };
    for (int o = 0; o < 3; ++o)
        for (int v = 0; v < 3; ++v) {
            const auto a = assessReview(decision(outcomes[o], verdicts[v]), verdicts[v]);
            EXPECT_EQ(a.overridesVerdict, expected[o][v]) << o << " " << v;
            EXPECT_FALSE(a.evidenceChanged);
            EXPECT_EQ(a.warnings.size(), expected[o][v] ? 1u : 0u);
        }
    const auto overridden =
        assessReview(decision(ReviewOutcome::ApprovedGo, Verdict::Investigate), Verdict::Investigate);
    EXPECT_EQ(overridden.warnings[0], "\"Approved: go\" overrides the evidence's verdict INVESTIGATE.");
}

TEST(ReviewAssessment, EvidenceChangedSinceTheDecision) {
    // Approved monitor when the verdict was MONITOR; a timeline added later fired the alert: INVESTIGATE now.
    const auto a = assessReview(decision(ReviewOutcome::ApprovedMonitor, Verdict::Monitor), Verdict::Investigate);
    EXPECT_TRUE(a.evidenceChanged);
    EXPECT_TRUE(a.overridesVerdict);
    ASSERT_EQ(a.warnings.size(), 2u);
    EXPECT_EQ(a.warnings[1],
              "The evidence changed after the decision: the verdict was MONITOR when it was recorded and is "
              "INVESTIGATE now.");
    const auto none = assessReview(decision(ReviewOutcome::Rejected, std::nullopt), Verdict::Go);
    EXPECT_TRUE(none.evidenceChanged);
    EXPECT_NE(none.warnings[0].find("was no verdict when"), std::string::npos);
}

TEST(ReviewDecision, SummaryAndTimestamps) {
    EXPECT_EQ(reviewSummary(decision(ReviewOutcome::Rejected, Verdict::Investigate)),
              "Rejected — by Ana Ruiz, 2026-12-01 14:03 UTC: GSM8K is not used by this product; the domain judge "
              "holds.");
    EXPECT_EQ(readableTimestamp("2026-12-01T14:03:05.250Z"), "2026-12-01 14:03 UTC");
    EXPECT_EQ(readableTimestamp("2026-12-01T14:03:05+02:00"), "2026-12-01T14:03:05+02:00");
    EXPECT_EQ(readableTimestamp("yesterday"), "yesterday");
}

TEST(ReviewInFile, DecisionsAndNoteIdsRoundTrip) {
    TempDir dir;
    auto doc = evalsDemo();
    doc.decisions.push_back(decision(ReviewOutcome::ApprovedMonitor, Verdict::Investigate));
    doc.decisions.push_back(decision(ReviewOutcome::Rejected, Verdict::Investigate));
    doc.decisions.back().by = "Lee Chen";
    Note edited{doc.newNoteId(),
                "Re-run GSM8K with calculate_kv_scales.",
                "Lee Chen",
                "2026-12-01T15:00:00Z",
                "2026-12-01T15:10:00Z",
                "gsm8k"};
    doc.notes.push_back(edited);
    const auto path = dir.path() / "review.fp8cmp";
    ASSERT_TRUE(saveComparisonFile(doc, path).ok());

    // The file as JSON, read without core's loader: version 3, the review section, unique ids.
    const Json j = Json::parse(readTextFile(path).value());
    EXPECT_EQ(j["version"], 3);
    ASSERT_EQ(j["review"]["decisions"].size(), 2u);
    EXPECT_EQ(j["review"]["decisions"][0]["outcome"], "approved_monitor");
    EXPECT_EQ(j["review"]["decisions"][0]["verdict_at_decision"], "investigate");
    EXPECT_EQ(j["review"]["decisions"][1]["by"], "Lee Chen");
    std::set<std::string> ids;
    for (const auto& n : j["notes"]) ids.insert(n["id"].get<std::string>());
    EXPECT_EQ(ids.size(), j["notes"].size());
    EXPECT_EQ(j["notes"].back()["edited"], "2026-12-01T15:10:00Z");

    auto loaded = loadComparisonFile(path);
    ASSERT_TRUE(loaded.ok()) << loaded.error().message;
    EXPECT_EQ(loaded->decisions, doc.decisions);
    EXPECT_EQ(loaded->notes, doc.notes);
    ASSERT_NE(loaded->currentDecision(), nullptr);
    EXPECT_EQ(loaded->currentDecision()->outcome, ReviewOutcome::Rejected);
    EXPECT_TRUE(loaded->migrations.empty());
    EXPECT_EQ(loaded->version, kComparisonVersionWithoutServing);
}

TEST(ReviewInFile, NewNoteIdsAreUnique) {
    std::vector<Note> notes;
    EXPECT_EQ(newNoteId(notes), "n1");
    notes.push_back({"n7", "a", "", "", "", ""});
    notes.push_back({"custom", "b", "", "", "", ""});
    EXPECT_EQ(newNoteId(notes), "n8");
    notes.push_back({"n8", "c", "", "", "", ""});
    EXPECT_EQ(newNoteId(notes), "n9");
    // A note added by code without an id gets one in the file.
    ComparisonDocument doc = evalsDemo();
    doc.notes.push_back({"", "no id yet", "", "", "", ""});
    const Json j = toJson(doc);
    EXPECT_EQ(j["notes"].back()["id"], "n" + std::to_string(doc.notes.size()));
}

TEST(ReviewInFile, BadReviewSectionsNameTheField) {
    TempDir dir;
    auto doc = evalsDemo();
    doc.decisions.push_back(decision(ReviewOutcome::ApprovedGo, Verdict::Investigate));
    const Json base = toJson(doc);
    const std::vector<std::pair<std::function<void(Json&)>, std::string>> cases = {
        {[](Json& j) { j["review"] = 1; }, "field review must be an object"},
        {[](Json& j) { j["review"]["decisions"] = "x"; }, "field review.decisions must be a list"},
        {[](Json& j) { j["review"]["decisions"][0]["outcome"] = "yes"; },
         "field review.decisions[0].outcome \"yes\" is not one of"},
        {[](Json& j) { j["review"]["decisions"][0].erase("by"); }, "field review.decisions[0].by is missing"},
        {[](Json& j) { j["review"]["decisions"][0]["verdict_at_decision"] = "maybe"; },
         "field review.decisions[0].verdict_at_decision \"maybe\" is not go, monitor or investigate"},
        {[](Json& j) { j["notes"][1]["id"] = j["notes"][0]["id"]; }, "field notes[1].id \"n1\" is used by an earlier"},
        {[](Json& j) { j["notes"][0].erase("id"); }, "field notes[0].id must be a non-empty string"},
    };
    for (const auto& [edit, expected] : cases) {
        Json j = base;
        edit(j);
        const auto path = dir.write("bad-review.fp8cmp", j.dump());
        auto loaded = loadComparisonFile(path);
        ASSERT_FALSE(loaded.ok()) << expected;
        EXPECT_NE(loaded.error().message.find(path.string() + ": " + expected), std::string::npos)
            << loaded.error().message;
    }
}

TEST(RecoveryFile, KeepsTheDocumentItsOriginAndTheDrafts) {
    TempDir dir;
    RecoveryRecord r;
    r.document = evalsDemo();
    r.document.notes.push_back({"", "typed before the crash", "Ana", "2026-12-01T10:00:00Z", "", ""});
    r.document.decisions.push_back(decision(ReviewOutcome::Rejected, Verdict::Investigate));
    r.originalPath = "/home/ana/reviews/llama.fp8cmp";
    r.displayName = "llama.fp8cmp";
    r.savedAt = "2026-12-01T10:00:05Z";
    r.pid = 4242;
    r.drafts["note"] = "half a sentence";
    r.drafts["empty"] = "";
    const auto path = dir.path() / "recovery.json";
    ASSERT_TRUE(saveRecoveryFile(r, path).ok());
    const Json j = Json::parse(readTextFile(path).value());
    EXPECT_EQ(j["format"], "fp8dash-recovery");
    EXPECT_FALSE(j["drafts"].contains("empty"));
    auto back = loadRecoveryFile(path);
    ASSERT_TRUE(back.ok()) << back.error().message;
    EXPECT_EQ(back->originalPath, r.originalPath);
    EXPECT_EQ(back->displayName, "llama.fp8cmp");
    EXPECT_EQ(back->pid, 4242);
    EXPECT_EQ(back->drafts.at("note"), "half a sentence");
    EXPECT_EQ(back->document.notes.back().text, "typed before the crash");
    EXPECT_FALSE(back->document.notes.back().id.empty());
    EXPECT_EQ(back->document.decisions, r.document.decisions);
    EXPECT_EQ(back->document.evaluate()->verdict, Verdict::Investigate);

    const auto broken = dir.write("broken.json", "{\"format\": \"fp8dash-recovery\", \"version\": 1}");
    auto missing = loadRecoveryFile(broken);
    ASSERT_FALSE(missing.ok());
    EXPECT_NE(missing.error().message.find("field document is missing"), std::string::npos);
    auto other = loadRecoveryFile(dir.write("other.json", "{\"format\": \"fp8dash-comparison\"}"));
    ASSERT_FALSE(other.ok());
    EXPECT_NE(other.error().message.find("not an fp8dash recovery file"), std::string::npos);
}

}  // namespace
}  // namespace fp8dash
