// compare --save onto an existing comparison (issue 26, finding 5) and the app's merge with a file changed on disk
// (finding 6), on the bundled demo (evals, judge, timeline, benchmarks, capacity, notes and a decision) and the seed
// pair's lm-eval runs.
#include "fp8dash/core/comparison_merge.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "fp8dash/core/demo.h"
#include "test_paths.h"

namespace fp8dash {
namespace {

using test::TempDir;
namespace fs = std::filesystem;

ComparisonDocument demo() {
    auto doc = loadDemoComparison();
    if (!doc) throw std::runtime_error(doc.error().message);
    return std::move(doc).value();
}

// What `compare results/bf16 results/fp8` builds: the seed pair's runs, no judge.
ComparisonDocument freshCompare() {
    auto b = readLmEvalPath(test::testData() / "lm-eval/seed-pair/bf16");
    auto c = readLmEvalPath(test::testData() / "lm-eval/seed-pair/fp8");
    if (!b || !c) throw std::runtime_error("seed pair unreadable");
    const std::string bs = b->sourcePath, cs = c->sourcePath;
    ComparisonOptions o;
    o.thresholds = {0.4, 2.0};
    return makeComparisonDocument({"BF16", bs, std::move(b).value()}, {"FP8", cs, std::move(c).value()}, o);
}

bool hasNoteText(const ComparisonDocument& doc, const std::string& text) {
    return std::any_of(doc.notes.begin(), doc.notes.end(), [&](const Note& n) { return n.text == text; });
}

TEST(UpdateEvidence, ReplacesTheEvalsAndKeepsEverythingElseTheFileHeld) {
    TempDir dir;
    ComparisonDocument existing = demo();
    existing.otherSections["later_feature"] = Json{{"kept", true}};
    const std::size_t notes = existing.notes.size();
    const std::size_t decisions = existing.decisions.size();
    ASSERT_GT(notes, 0u);
    ASSERT_GT(decisions, 0u);
    ASSERT_TRUE(existing.timeline && existing.benchmarks && existing.capacity && existing.judge);
    const fs::path path = dir.path() / "review.fp8cmp";
    ASSERT_TRUE(saveComparisonFile(existing, path).ok());
    auto onDisk = loadComparisonFile(path);
    ASSERT_TRUE(onDisk.ok()) << onDisk.error().message;

    const ComparisonDocument fresh = freshCompare();
    EvidenceUpdate u = updateEvidence(std::move(onDisk).value(), fresh);
    const ComparisonDocument& doc = u.document;
    // The evals and the settings are the fresh comparison's.
    EXPECT_EQ(doc.baseline.sourcePath, fresh.baseline.sourcePath);
    EXPECT_EQ(doc.candidate.sourcePath, fresh.candidate.sourcePath);
    EXPECT_EQ(doc.candidate.results.tasks.size(), fresh.candidate.results.tasks.size());
    EXPECT_EQ(doc.title, fresh.title);
    EXPECT_EQ(doc.options.thresholds.goBelow, 0.4);
    EXPECT_EQ(doc.created, existing.created);  // the file was created when it was
    // Everything else is the file's.
    EXPECT_EQ(doc.notes, existing.notes);
    EXPECT_EQ(doc.decisions, existing.decisions);
    ASSERT_TRUE(doc.timeline.has_value());
    ASSERT_TRUE(doc.timeline->throughput && existing.timeline->throughput);
    EXPECT_EQ(doc.timeline->throughput->samples.size(), existing.timeline->throughput->samples.size());
    EXPECT_TRUE(doc.benchmarks.has_value());
    ASSERT_TRUE(doc.capacity.has_value());
    EXPECT_EQ(doc.capacity->model, existing.capacity->model);
    ASSERT_TRUE(doc.judge.has_value());  // the fresh comparison has no judge: the file's stays
    EXPECT_EQ(doc.otherSections.value("later_feature", Json()), (Json{{"kept", true}}));
    ASSERT_TRUE(doc.serving.has_value());  // the demo's serving benchmarks stay too
    const std::vector<std::string> kept = {"the serving benchmarks",
                                           "the judge scores",
                                           "the timeline",
                                           "the benchmarks",
                                           "the capacity inputs",
                                           std::to_string(notes) + " notes",
                                           std::to_string(decisions) + " review decision" + (decisions == 1 ? "" : "s"),
                                           "the section \"later_feature\""};
    EXPECT_EQ(u.kept, kept);
    // The decision stays as recorded; it reads "evidence changed" exactly when the updated verdict differs.
    auto now = decide(doc);
    ASSERT_TRUE(now.ok()) << now.error().message;
    EXPECT_EQ(u.decisionEvidenceChanged, now->verdict != existing.decisions.back().verdictAtDecision);

    // Saved and read back, the same holds.
    ASSERT_TRUE(saveComparisonFile(doc, path).ok());
    auto back = loadComparisonFile(path);
    ASSERT_TRUE(back.ok()) << back.error().message;
    EXPECT_EQ(back->notes, existing.notes);
    EXPECT_EQ(back->decisions, existing.decisions);
    EXPECT_TRUE(back->timeline && back->benchmarks && back->capacity && back->judge);
    EXPECT_EQ(back->baseline.sourcePath, fresh.baseline.sourcePath);
}

TEST(UpdateEvidence, AFreshJudgeReplacesTheFilesAndAFileWithoutRunsGetsThem) {
    ComparisonDocument timelineOnly = demo();
    timelineOnly.hasEvals = false;
    timelineOnly.judge.reset();
    timelineOnly.notes.clear();
    timelineOnly.decisions.clear();
    const ComparisonDocument fresh = freshCompare();
    EvidenceUpdate u = updateEvidence(timelineOnly, fresh);
    EXPECT_TRUE(u.document.hasEvals);
    EXPECT_FALSE(u.document.judge.has_value());
    EXPECT_EQ(u.kept, (std::vector<std::string>{"the serving benchmarks", "the timeline", "the benchmarks",
                                                "the capacity inputs"}));
    EXPECT_FALSE(u.decisionEvidenceChanged);

    // A judge-only compare onto a file with evals: the judge is new, the evals stay.
    ComparisonDocument judgeOnly;
    judgeOnly.hasEvals = false;
    judgeOnly.judge = demo().judge;
    judgeOnly.judge->baseline.samples.resize(judgeOnly.judge->baseline.samples.size() / 2);
    EvidenceUpdate v = updateEvidence(fresh, judgeOnly);
    EXPECT_TRUE(v.document.hasEvals);
    EXPECT_EQ(v.document.baseline.sourcePath, fresh.baseline.sourcePath);
    ASSERT_TRUE(v.document.judge.has_value());
    EXPECT_EQ(v.document.judge->baseline.samples.size(), judgeOnly.judge->baseline.samples.size());
    EXPECT_EQ(v.kept, (std::vector<std::string>{"the eval runs"}));
}

TEST(MergeComparisons, NotesAndDecisionsOfBothAndTheSectionsOnlyTheyHave) {
    const ComparisonDocument loaded = demo();  // what both started from
    // Mine: opened before the timeline was added; I edit n1, add a note and a decision.
    ComparisonDocument mine = loaded;
    mine.timeline.reset();
    mine.otherSections["mine_only"] = 1;
    mine.notes.front().text = "my edit";
    mine.notes.front().edited = "2026-12-05T10:00:00Z";
    const std::string mineId = mine.newNoteId();
    mine.notes.push_back({mineId, "mine: re-run gsm8k", "ana", "2026-12-05T10:01:00Z", "", "gsm8k"});
    ReviewDecision mineDecision = mine.decisions.back();
    mineDecision.by = "ana";
    mineDecision.at = "2026-12-05T10:02:00Z";
    mine.decisions.push_back(mineDecision);
    // Theirs: the same document with its timeline, another reviewer's note under the same new id, a later decision.
    ComparisonDocument theirs = loaded;
    theirs.notes.push_back({mineId, "theirs: the alert is noise", "bo", "2026-12-05T09:59:00Z", "", ""});
    ReviewDecision theirDecision = theirs.decisions.back();
    theirDecision.by = "bo";
    theirDecision.at = "2026-12-05T10:03:00Z";
    theirs.decisions.push_back(theirDecision);
    theirs.otherSections["mine_only"] = 2;  // both have it: mine stays
    theirs.otherSections["theirs_only"] = true;

    MergedComparison m = mergeComparisons(mine, theirs);
    const ComparisonDocument& doc = m.document;
    ASSERT_TRUE(doc.timeline.has_value());
    ASSERT_TRUE(doc.timeline->throughput.has_value());
    EXPECT_EQ(doc.timeline->throughput->samples.size(), loaded.timeline->throughput->samples.size());
    EXPECT_EQ(doc.notes.size(), loaded.notes.size() + 2);
    EXPECT_EQ(doc.notes.front().text, "my edit");
    EXPECT_TRUE(hasNoteText(doc, "mine: re-run gsm8k"));
    EXPECT_TRUE(hasNoteText(doc, "theirs: the alert is noise"));
    for (std::size_t i = 0; i < doc.notes.size(); ++i)
        for (std::size_t k = i + 1; k < doc.notes.size(); ++k) EXPECT_NE(doc.notes[i].id, doc.notes[k].id);
    ASSERT_EQ(doc.decisions.size(), loaded.decisions.size() + 2);
    EXPECT_EQ(doc.currentDecision()->by, "bo");  // the latest of either is in force
    EXPECT_EQ(doc.decisions[doc.decisions.size() - 2].by, "ana");
    EXPECT_EQ(doc.otherSections.value("mine_only", 0), 1);
    EXPECT_EQ(doc.otherSections.value("theirs_only", false), true);
    EXPECT_EQ(m.taken,
              (std::vector<std::string>{"the timeline", "the section \"theirs_only\"", "1 note", "1 review decision"}));

    // Merging the same file twice adds nothing more.
    MergedComparison again = mergeComparisons(doc, theirs);
    EXPECT_EQ(again.document.notes.size(), doc.notes.size());
    EXPECT_EQ(again.document.decisions.size(), doc.decisions.size());
    EXPECT_TRUE(again.taken.empty());
}

// Their notes take ids mine used meanwhile: each gets a new id, and one renamed never hides another of theirs that
// holds the id it was given (same author and time, as one reviewer's quick notes have).
TEST(MergeComparisons, TheirNotesUnderIdsMineUsedAllArrive) {
    ComparisonDocument base;
    base.hasEvals = false;
    base.notes.push_back({"n1", "shared", "ana", "2026-12-05T09:00:00Z", "", ""});
    ComparisonDocument mine = base, theirs = base;
    mine.notes.push_back({"n2", "mine", "ana", "2026-12-05T10:00:00Z", "", ""});
    theirs.notes.push_back({"n2", "theirs first", "bo", "2026-12-05T11:00:00Z", "", ""});
    theirs.notes.push_back({"n3", "theirs second", "bo", "2026-12-05T11:00:00Z", "", ""});
    const MergedComparison m = mergeComparisons(mine, theirs);
    ASSERT_EQ(m.document.notes.size(), 4u);
    for (const char* text : {"shared", "mine", "theirs first", "theirs second"})
        EXPECT_TRUE(hasNoteText(m.document, text)) << text;
    for (std::size_t i = 0; i < m.document.notes.size(); ++i)
        for (std::size_t k = i + 1; k < m.document.notes.size(); ++k)
            EXPECT_NE(m.document.notes[i].id, m.document.notes[k].id);
    EXPECT_EQ(mergeComparisons(m.document, theirs).document.notes.size(), 4u);  // again: nothing more
}

// Mine has no eval runs (a timeline-only document), theirs got them from compare --save: they join mine.
TEST(MergeComparisons, EvalRunsOnlyTheyHaveJoinMine) {
    ComparisonDocument mine = demo();
    mine.hasEvals = false;
    const ComparisonDocument theirs = freshCompare();
    const MergedComparison m = mergeComparisons(mine, theirs);
    EXPECT_TRUE(m.document.hasEvals);
    EXPECT_EQ(m.document.baseline.sourcePath, theirs.baseline.sourcePath);
    EXPECT_EQ(m.document.candidate.results.tasks.size(), theirs.candidate.results.tasks.size());
    EXPECT_TRUE(m.document.timeline.has_value());  // mine's stays
    EXPECT_EQ(m.taken, (std::vector<std::string>{"the eval runs"}));
    EXPECT_TRUE(m.document.evaluate().ok());
}

TEST(MergeComparisons, JoinInWords) {
    EXPECT_EQ(joinInWords({}), "");
    EXPECT_EQ(joinInWords({"a"}), "a");
    EXPECT_EQ(joinInWords({"a", "b"}), "a and b");
    EXPECT_EQ(joinInWords({"a", "b", "c"}), "a, b and c");
}

}  // namespace
}  // namespace fp8dash
