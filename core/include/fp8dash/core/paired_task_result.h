#pragma once
// The result of the paired tests of one compared task (paired_tasks.h computes it). Its own header so that
// a TaskComparison (eval_comparison.h) can hold one while paired_tasks.h builds on eval_comparison.h. Plain data.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "fp8dash/core/statistics.h"

namespace fp8dash {

// The answers the candidate changed, document by document, on the compared metric and filter. For a 0/1 metric,
// lost = right in the baseline and wrong in the candidate (McNemar's b10 where higher is better), gained the other way
// (b01). For a metric that is not 0/1 (a per-document F1, a continuous score) a document counts as lost when its value
// moved in the bad direction (down where higher is better, up where lower is better), gained when it moved in the good
// one, unchanged when the two values are equal. lost + gained + unchanged = the pairs tested (PairedTaskResult::n).
struct ChangedAnswers {
    std::uint64_t lost = 0;
    std::uint64_t gained = 0;
    std::uint64_t unchanged = 0;

    std::uint64_t n() const { return lost + gained + unchanged; }
    // (lost + gained) / n, lost / n, gained / n and (gained - lost) / n, in %; 0 when n is 0.
    double ratePct() const { return pct(lost + gained); }
    double lostPct() const { return pct(lost); }
    double gainedPct() const { return pct(gained); }
    double netPct() const { return n() ? (static_cast<double>(gained) - static_cast<double>(lost)) * 100.0 / n() : 0; }

private:
    double pct(std::uint64_t k) const { return n() ? static_cast<double>(k) * 100.0 / static_cast<double>(n()) : 0; }
};

// --answer-examples' default: the changed documents kept per task (lost first). 0 keeps only the counts.
inline constexpr std::uint64_t kDefaultAnswerExamples = 200;
// The most bytes of one text (question, target, answer, response) kept, before its cut mark.
inline constexpr std::size_t kAnswerTextBytes = 4096;

// One side of a changed answer as its sample log row has it: the filtered answer (filtered_resps, the text the metric
// scored; for a multiple-choice task the chosen continuation), the raw response (resps) and the metric's value. The
// texts are bounded (boundedAnswerText, changed_answers.h): valid UTF-8, at most the cut, a visible mark where cut.
// They are model output and data-set text: every place that shows them escapes them for its medium.
struct AnswerSide {
    std::string answer;
    std::string response;
    double value = 0;
};

// One document whose value moved on the compared metric and filter (ChangedAnswers counts them): the evidence a
// reviewer reads. Read from the two sample log rows of the document after the pairing (changed_answers.h).
struct ChangedAnswerExample {
    long long docId = 0;
    bool lost = true;      // lost (moved in the bad direction) or gained
    std::string subtask;   // a group's: the subtask the document belongs to; "" for a task's own logs
    std::string question;  // the doc's main text field, else the prompt's last turn
    std::string target;
    AnswerSide baseline;
    AnswerSide candidate;
};

struct PairedTaskResult {
    std::string task;
    std::string metric;
    std::string filter;
    std::string test;       // "mcnemar_exact", "wilcoxon_signed_rank", or "none" when no pair is left
    bool binary = false;    // every paired value is 0 or 1
    std::uint64_t n = 0;    // pairs tested
    std::uint64_t b01 = 0;  // right only in the candidate (binary only)
    std::uint64_t b10 = 0;  // right only in the baseline
    // The answers changed, when pairs were tested; absent when n is 0, and in a file written before the counts were
    // saved for a metric that is not 0/1 (a 0/1 metric's are derived from its discordant pairs).
    std::optional<ChangedAnswers> changed;
    double pValue = 1;        // two-sided
    double baselineMean = 0;  // over the tested pairs
    double candidateMean = 0;
    double delta = 0;            // candidateMean - baselineMean, in the metric's units
    ConfidenceInterval deltaCi;  // 95 % paired bootstrap of the per-doc differences, metric units
    // Points (x100) when every value lies in [0, 1], as accuracies do; absent otherwise.
    std::optional<double> deltaPoints;
    std::optional<ConfidenceInterval> deltaPointsCi;
    // % of |baselineMean|; absent when the baseline mean is 0. The interval divides the bootstrap interval of the
    // difference by the observed baseline mean (the baseline's own sampling error is not propagated).
    std::optional<double> deltaPct;
    std::optional<ConfidenceInterval> deltaPctCi;
    std::optional<ConfidenceAnswer> confidence;    // on the degradation interval in %, when deltaPctCi is known
    std::optional<EquivalenceResult> equivalence;  // against +-equivalenceMarginPct, when n >= 2

    // Excluded from the test.
    std::uint64_t hashMismatches = 0;  // pairs whose doc_hash or prompt_hash differ
    std::uint64_t docHashMismatches = 0;
    std::uint64_t promptHashMismatches = 0;
    std::vector<long long> mismatchDocIds;  // the first few, ascending
    std::uint64_t onlyInBaseline = 0;
    std::uint64_t onlyInCandidate = 0;
    std::vector<long long> onlyInBaselineDocIds;  // the first few
    std::vector<long long> onlyInCandidateDocIds;
    std::uint64_t missingValues = 0;    // pairs where a side has no finite value of the metric
    std::uint64_t uncheckedHashes = 0;  // pairs tested although a side had no doc_hash/prompt_hash

    std::vector<std::string> warnings;  // each a sentence
    std::string summary;                // one line for a table cell or a tooltip

    // The changed documents themselves (changed_answers.h): up to `examplesLimit`, the lost first. For a 0/1 metric in
    // doc_id order (a group's subtasks taken in turn); otherwise the documents whose value moved most first.
    std::vector<ChangedAnswerExample> examples;
    // The --answer-examples the examples were read with (0: counts only, none read); absent in a file written before
    // the examples were saved, and in a result paired without them.
    std::optional<std::uint64_t> examplesLimit;
};

}  // namespace fp8dash
