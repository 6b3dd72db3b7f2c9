#pragma once
// Paired tests of one compared task on the lm-eval per-sample logs of both runs: rows matched by doc_id
// within the task's filter, doc_hash and prompt_hash checked, then the exact McNemar test for 0/1 metrics or the
// Wilcoxon signed-rank test otherwise, a seeded paired-bootstrap interval of the delta, the confidence answer
// against the verdict bands and the equivalence check against the "go" margin. Pure functions; thread-safe.

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "fp8dash/core/eval_comparison.h"
#include "fp8dash/core/lm_eval_results.h"
#include "fp8dash/core/paired_task_result.h"
#include "fp8dash/core/result.h"
#include "fp8dash/core/sample_logs.h"
#include "fp8dash/core/statistics.h"
#include "fp8dash/core/verdict.h"

namespace fp8dash {

// Which task, metric and filter to pair: the choice EvalComparison made for the row.
struct PairedTaskSpec {
    std::string task;
    std::string metric;  // bare name, as the samples rows spell it: "exact_match", "acc"
    std::string filter;  // "strict-match", "none"
    bool higherIsBetter = true;
    // The results files' scores, to check that the logs belong to the runs (optional).
    std::optional<double> baselineScore;
    std::optional<double> candidateScore;

    static PairedTaskSpec fromComparison(const TaskComparison& row);
};

struct PairedOptions {
    Thresholds thresholds;              // band edges for the confidence answer
    double equivalenceMarginPct = 0.5;  // the TOST margin ("go" band)
    std::uint64_t seed = 20260821;      // bootstrap seed: the same inputs give the same interval
    int bootstrapIterations = 10000;
    std::size_t listedDocIds = 5;  // how many doc_ids the result lists per kind of exclusion
    // The changed documents kept per task (changed_answers.h), lost first; 0 keeps only the counts. Read from the
    // logs on disk after the pairing (pairTaskLogs, computePairedResults*); pairSampleLogs, given logs already in
    // memory, keeps none.
    std::uint64_t answerExamples = kDefaultAnswerExamples;
    std::size_t answerTextBytes = kAnswerTextBytes;  // the most bytes kept of one text
    std::string baselineLabel = "BF16";
    std::string candidateLabel = "FP8";
};

// Pairs two logs of one task. Fails (naming the file) when a log has no row for the filter, or no row of it has
// the metric.
Result<PairedTaskResult> pairSampleLogs(const SampleLog& baseline, const SampleLog& candidate,
                                        const PairedTaskSpec& spec, const PairedOptions& options = {});

// Either a result, or why there is none ("no logs" is not an error).
struct PairedOutcome {
    std::optional<PairedTaskResult> result;
    std::string noLogsReason;  // set when result is empty
};

// Finds the task's log in each index, reads both and pairs them. A side without a log gives noLogsReason; a log
// that cannot be read or paired is an error. Progress covers both files.
Result<PairedOutcome> pairTaskLogs(const SampleLogIndex& baseline, const SampleLogIndex& candidate,
                                   const PairedTaskSpec& spec, const PairedOptions& options = {},
                                   const SampleProgressFn& progress = {});

// The "paired" object of the comparison JSON: {n, discordant: [b01, b10] (null for a non-0/1 metric), p_value,
// ci95_pct, ci95_points, delta_pct, delta_points, test, metric, filter, baseline_mean, candidate_mean,
// hash_mismatches, hash_mismatch_doc_ids, only_in_baseline, only_in_candidate (counts) with their *_doc_ids,
// confidence, samples_needed, equivalent, warnings}. Intervals are [low, high] or null. Also, so that a saved result
// reads back whole (parsePairedJson): binary, doc_hash_mismatches, prompt_hash_mismatches, unchecked_hashes,
// degradation_ci95_pct, confidence_explanation, equivalence_margin_pct, summary.
// With `withExamples`, also "examples_limit" and "examples" (changed_answers.h), as the comparison file keeps them;
// the comparison JSON's task rows leave them to their "changed_answers".
Json pairedToJson(const PairedTaskResult& r, bool withExamples = true);

// The changed answers in one line, wherever the delta is stated: "FP8 changed 6.1 % of the answers: 4.4 % lost, 1.7 %
// gained (net −2.7 %; 58 lost, 22 gained, 1,239 unchanged)", the candidate's label first. Percentages with one
// decimal (number_format.h); a net that rounds to zero reads "0.0 %", never "−0.0 %"; a minus sign is U+2212.
std::string changedAnswersSentence(const ChangedAnswers& c, const std::string& candidateLabel);

// A task's "changed_answers" in the comparison JSON: {filter, lost, gained, unchanged, n, rate_pct, examples_limit,
// examples: [changedExampleToJson]}; null when the
// task was not paired (r is null), no pair was tested, or the counts are unknown (an older file of a non-0/1 metric).
Json changedAnswersToJson(const PairedTaskResult* r);

// The inverse of pairedToJson, for the comparison file's "paired" section. `where` names the place in errors
// ("comparison.fp8cmp: field paired.gsm8k"); a wrong type or a missing required field (task, metric, filter, test,
// n, p_value) is an error naming the field. Fields written by later versions are ignored.
Result<PairedTaskResult> parsePairedJson(const Json& j, const std::string& where);

// A paired result read from a comparison file (untrusted), held to what it can be checked against before it is shown
// for `row`, the compared task of the same metric and filter (paired_recheck.cpp says what exactly): the figures that
// follow from the record's own counts and means (the McNemar p-value, Δ in the metric's units, points and %, their
// intervals, the equivalence check at thresholds.goBelow, the summary) are re-derived in `r`, replacing the file's,
// with a warning naming those that differed. Returns "" when the record holds, else why it cannot be shown (it
// contradicts itself or the runs' scores beyond what its left-out documents explain), one clause each.
std::string recheckStoredPaired(PairedTaskResult& r, const TaskComparison& row, const Thresholds& thresholds,
                                const std::string& baselineLabel, const std::string& candidateLabel);

// The paired results of a whole comparison, from the sample logs beside both runs' results files.
struct PairedComputation {
    std::map<std::string, PairedTaskResult> results;  // by task name
    std::vector<std::string> notes;  // one sentence per task not paired, and why (no logs, a log that did not read)
};
// `baselinePath`/`candidatePath`: what readLmEvalPath was given for each run (a results file or an output folder).
// Pairs every compared top-level task with the metric and filter the report chose; options.thresholds, the margin
// and the labels are taken from the report. A task whose logs are missing, or cannot be read or paired, becomes a
// note (the logs are extra evidence, so they never stop a comparison); a results path that cannot be read again is
// an error, as is cancelling (progress: bytes read so far over all logs, and their total).
//
// A group without logs of its own (lm-eval writes none for groups) whose subtasks have logs on both sides gets one
// test pooled over all its subtasks' pairs (its leaves, through nested groups), with the group's metric and filter:
// each document counts once, so the pooled means are lm-eval's size-weighted group score (weight_by_size: true, as
// mmlu's group config sets it; the field's own default is false, an unweighted mean of the subtasks' scores); a
// warning says when they differ from the group's reported score. Its first
// warning says that it was pooled, from how many subtasks, and which subtasks were not pooled and why.
//
// The logs are read several files at once, up to std::thread::hardware_concurrency() threads; `progress` is
// called on the calling thread only (about ten times a second while reading), and returning false stops every
// reader.
Result<PairedComputation> computePairedResults(const ComparisonReport& report,
                                               const std::filesystem::path& baselinePath,
                                               const std::filesystem::path& candidatePath, PairedOptions options = {},
                                               const SampleProgressFn& progress = {});

// Several comparisons among one set of runs (a baseline and its candidates, and the layer steps between
// candidates): each comparison's paired results as computePairedResults gives them for its two runs, but each run's
// sample log of a task is read once however many comparisons use it, and freed once the last of them is paired.
// `runs`: each run's results as read from disk (their sourcePath locates the logs; not owned, outlive the call);
// each comparison names its report (labels, thresholds, tasks, the metric and filter of each) and its two runs by
// index into `runs`. Errors as computePairedResults' (cancelling); `progress` covers the bytes of every distinct log
// read.
struct PairedRunComparison {
    const ComparisonReport* report = nullptr;  // not owned; outlives the call
    std::size_t baseline = 0;
    std::size_t candidate = 0;
};
Result<std::vector<PairedComputation>> computePairedResultsAcrossRuns(
    const std::vector<const LmEvalResults*>& runs, const std::vector<PairedRunComparison>& comparisons,
    PairedOptions options = {}, const SampleProgressFn& progress = {});

}  // namespace fp8dash
