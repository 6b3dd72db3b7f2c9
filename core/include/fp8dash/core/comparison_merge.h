#pragma once
// Two versions of one comparison meeting, without losing what either held (README "Trust model"):
// - updateEvidence: `compare --save` onto an existing file. The fresh evidence (eval runs with their paired tests,
//   control and variants; the judge section; the settings) replaces the file's; everything else the file held stays
//   (timeline, benchmarks, capacity inputs, notes, review decisions, sections of later versions), and the file's
//   evals or judge stay where the fresh comparison has none. A review decision is kept as recorded: its
//   verdictAtDecision against the new verdict shows it as "evidence changed" (review.h).
// - mergeComparisons: the app's open document ("mine") and the file as changed on disk ("theirs"). Notes by id
//   (a note of theirs under an id mine uses for another note gets a new id), decisions by content (ordered by time,
//   the latest in force), each section mine lacks taken from theirs, mine kept where both have one.
// Pure functions; thread-safe.

#include <string>
#include <vector>

#include "fp8dash/core/comparison_file.h"

namespace fp8dash {

struct EvidenceUpdate {
    ComparisonDocument document;
    std::vector<std::string> kept;  // what of the existing file stayed, in words: "the timeline", "3 notes", ...
    // The decision in force was recorded under another verdict than the updated evidence gives.
    bool decisionEvidenceChanged = false;
};
EvidenceUpdate updateEvidence(ComparisonDocument existing, ComparisonDocument fresh);

struct MergedComparison {
    ComparisonDocument document;
    std::vector<std::string> taken;  // what came from theirs, in words: "the timeline", "2 notes", ...
};
MergedComparison mergeComparisons(ComparisonDocument mine, const ComparisonDocument& theirs);

// "a", "a and b", "a, b and c".
std::string joinInWords(const std::vector<std::string>& items);

}  // namespace fp8dash
