// Updating a comparison's evidence and merging two versions of it (comparison_merge.h).
#include "fp8dash/core/comparison_merge.h"

#include <algorithm>
#include <utility>

#include "fp8dash/core/version.h"

namespace fp8dash {
namespace {

std::string counted(std::size_t n, const char* one, const char* many) {
    return std::to_string(n) + " " + (n == 1 ? one : many);
}

// The eval runs and what belongs to them, moved from `from` to `to`.
void moveEvals(ComparisonDocument& to, ComparisonDocument&& from) {
    to.hasEvals = from.hasEvals;
    to.baseline = std::move(from.baseline);
    to.candidate = std::move(from.candidate);
    to.control = std::move(from.control);
    to.paired = std::move(from.paired);
    to.moreCandidates = std::move(from.moreCandidates);
    to.stepPaired = std::move(from.stepPaired);
    to.recommendation = std::move(from.recommendation);
}

// The same note in two versions: same id, same author and creation time (an edit changes text and "edited" only).
bool sameNote(const Note& a, const Note& b) {
    return a.id == b.id && a.author == b.author && a.created == b.created;
}

}  // namespace

std::string joinInWords(const std::vector<std::string>& items) {
    std::string out;
    for (std::size_t i = 0; i < items.size(); ++i) {
        if (i > 0) out += i + 1 == items.size() ? " and " : ", ";
        out += items[i];
    }
    return out;
}

EvidenceUpdate updateEvidence(ComparisonDocument existing, ComparisonDocument fresh) {
    EvidenceUpdate u;
    ComparisonDocument& doc = u.document;
    doc = std::move(existing);
    std::optional<ServingSection> freshServing = std::move(fresh.serving);
    if (freshServing)
        doc.serving = std::move(freshServing);
    else if (doc.serving)
        u.kept.push_back("the serving benchmarks");
    if (fresh.hasEvals) {
        moveEvals(doc, std::move(fresh));
        doc.title = std::move(fresh.title);  // the title names the runs
    } else if (doc.hasEvals) {
        u.kept.push_back("the eval runs");
    }
    if (fresh.judge) {
        doc.judge = std::move(fresh.judge);
    } else if (doc.judge) {
        u.kept.push_back("the judge scores");
    }
    doc.options = std::move(fresh.options);  // the command's thresholds, overrides and policy
    doc.toolVersion = fresh.toolVersion.empty() ? std::string(FP8DASH_VERSION) : fresh.toolVersion;
    if (doc.created.empty()) doc.created = fresh.created;
    doc.migrations.clear();
    if (doc.timeline) u.kept.push_back("the timeline");
    if (doc.benchmarks) u.kept.push_back("the benchmarks");
    if (doc.capacity) u.kept.push_back("the capacity inputs");
    if (!doc.notes.empty()) u.kept.push_back(counted(doc.notes.size(), "note", "notes"));
    if (!doc.decisions.empty()) u.kept.push_back(counted(doc.decisions.size(), "review decision", "review decisions"));
    for (const auto& [key, value] : doc.otherSections.items()) u.kept.push_back("the section \"" + key + "\"");
    if (const ReviewDecision* d = doc.currentDecision()) {
        auto decision = decide(doc);
        const std::optional<Verdict> now = decision ? decision->verdict : std::nullopt;
        u.decisionEvidenceChanged = assessReview(*d, now).evidenceChanged;
    }
    return u;
}

MergedComparison mergeComparisons(ComparisonDocument mine, const ComparisonDocument& theirs) {
    MergedComparison m;
    ComparisonDocument& doc = m.document;
    doc = std::move(mine);
    if (!doc.hasEvals && theirs.hasEvals) {
        doc.hasEvals = true;
        doc.baseline = theirs.baseline;
        doc.candidate = theirs.candidate;
        doc.control = theirs.control;
        doc.paired = theirs.paired;
        doc.moreCandidates = theirs.moreCandidates;
        doc.stepPaired = theirs.stepPaired;
        doc.recommendation = theirs.recommendation;
        m.taken.push_back("the eval runs");
    }
    // A section only theirs has is taken; where both have one, mine stays.
    const auto takeMissing = [&m](auto& mineSection, const auto& theirSection, const char* words) {
        if (mineSection || !theirSection) return;
        mineSection = theirSection;
        m.taken.push_back(words);
    };
    takeMissing(doc.judge, theirs.judge, "the judge scores");
    takeMissing(doc.timeline, theirs.timeline, "the timeline");
    takeMissing(doc.benchmarks, theirs.benchmarks, "the benchmarks");
    takeMissing(doc.capacity, theirs.capacity, "the capacity inputs");
    for (const auto& [key, value] : theirs.otherSections.items()) {
        if (doc.otherSections.contains(key)) continue;
        doc.otherSections[key] = value;
        m.taken.push_back("the section \"" + key + "\"");
    }
    std::size_t notes = 0;
    const std::vector<Note> myNotes = doc.notes;  // before any of theirs joins
    for (const Note& n : theirs.notes) {
        // Both have it: mine (with my edits) stays.
        if (std::any_of(myNotes.begin(), myNotes.end(), [&](const Note& x) { return sameNote(x, n); })) continue;
        // Taken before under a new id (a merge, then this file again).
        if (std::any_of(doc.notes.begin(), doc.notes.end(), [&](const Note& x) {
                return x.author == n.author && x.created == n.created && x.text == n.text && x.task == n.task;
            }))
            continue;
        Note added = n;
        const bool idTaken =
            std::any_of(doc.notes.begin(), doc.notes.end(), [&](const Note& x) { return x.id == n.id; });
        if (idTaken || added.id.empty()) added.id = newNoteId(doc.notes);  // another note has its id
        doc.notes.push_back(std::move(added));
        ++notes;
    }
    if (notes) m.taken.push_back(counted(notes, "note", "notes"));
    std::size_t decisions = 0;
    for (const ReviewDecision& d : theirs.decisions) {
        if (std::find(doc.decisions.begin(), doc.decisions.end(), d) != doc.decisions.end()) continue;
        doc.decisions.push_back(d);
        ++decisions;
    }
    if (decisions) {
        m.taken.push_back(counted(decisions, "review decision", "review decisions"));
        // Oldest first, so the latest decision of either reviewer is the one in force (ISO 8601 UTC sorts as text).
        std::stable_sort(doc.decisions.begin(), doc.decisions.end(),
                         [](const ReviewDecision& a, const ReviewDecision& b) { return a.at < b.at; });
    }
    return m;
}

}  // namespace fp8dash
