#pragma once
// A new comparison assembled from its inputs, the one way for the CLI's `compare` and the GUI's New Comparison
// dialog: two lm-eval runs (results files or output folders) with an optional BF16 control run and the paired tests
// of their sample logs, and/or the two sides' LLM-as-judge scores (score files, or Langfuse trace selections).
// Callers parse their options into ComparisonInputs and present what comes back; the rules live here.

#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "fp8dash/core/comparison_file.h"
#include "fp8dash/core/judge_scores.h"
#include "fp8dash/core/langfuse_client.h"
#include "fp8dash/core/langfuse_judge.h"
#include "fp8dash/core/paired_task_result.h"
#include "fp8dash/core/result.h"
#include "fp8dash/core/sample_logs.h"
#include "fp8dash/core/serving_comparison.h"

namespace fp8dash {

// The judge scores of both sides from Langfuse: one trace selection per side.
struct LangfuseJudgeInputs {
    LangfuseSettings settings;  // URL, keys (never saved), notices
    LangfuseJudgeQuery baseline;
    LangfuseJudgeQuery candidate;
};

struct ComparisonInputs {
    std::string baselineLabel = "BF16";
    std::string candidateLabel = "FP8";
    // The lm-eval runs: both or neither. The control run (a second BF16 run, each task's noise floor) needs them.
    std::filesystem::path baselinePath;
    std::filesystem::path candidatePath;
    std::filesystem::path controlPath;
    bool readSampleLogs = true;  // pair the runs' samples_*.jsonl found beside the results
    // The changed documents kept per paired task (--answer-examples; changed_answers.h); 0 keeps only the counts.
    std::uint64_t answerExamples = kDefaultAnswerExamples;
    // The judge scores: score files (JSONL, CSV, JSON; both or neither), or Langfuse; not both.
    std::filesystem::path judgeBaselinePath;
    std::filesystem::path judgeCandidatePath;
    std::optional<LangfuseJudgeInputs> judgeLangfuse;
    JudgeScale judgeScale;
    // Several variants (README "Variants and layer steps"): the candidates after `candidatePath`, 7 at most;
    // `labels` name every run, the baseline's first (empty: baselineLabel/candidateLabel for two runs, else labels
    // derived from each run's layers); `moreJudgeCandidatePaths` the judge score files of those candidates (each
    // against judgeBaselinePath; empty, or one per candidate).
    std::vector<std::filesystem::path> moreCandidatePaths;
    std::vector<std::string> labels;
    std::vector<std::filesystem::path> moreJudgeCandidatePaths;
    RecommendationOptions recommendation;
    ComparisonOptions options;  // thresholds, overrides, task map, the cautious policy (the judge follows it)
    std::string title;          // empty: the default title ("<model>: BF16 vs FP8", "BF16 vs FP8: domain judge")
    // Serving benchmarks (DESIGN.md "What FP8 buys"): (run label, results file or folder) pairs, read with
    // readServingPath; each label must name a run (the evals' labels). Weighed by the recommendation, never by the
    // verdict. Needs the evals.
    std::vector<std::pair<std::string, std::filesystem::path>> servingPaths;
    ServingOptions servingOptions;

    bool hasEvals() const { return !baselinePath.empty() || !candidatePath.empty(); }
    bool hasJudge() const {
        return judgeLangfuse.has_value() || !judgeBaselinePath.empty() || !judgeCandidatePath.empty();
    }
};

struct BuiltComparison {
    ComparisonDocument document;
    Decision decision;
    // What was read, in order, as (label, source): "BF16" and "FP8" (the results files read), "BF16 control",
    // "judge BF16" and "judge FP8" (the score files, or the Langfuse selections in words).
    std::vector<std::pair<std::string, std::string>> inputs;
    // The sample-log pairing: its summary first ("sample logs: 3 of 4 tasks paired", or "sample logs: no task
    // paired (why); the confidence comes from lm-eval's standard errors"), then one line per task not paired when
    // some were. Empty when the logs were not read (no runs, or readSampleLogs false).
    std::vector<std::string> pairingNotes;
    // The judge scores' warnings (dropped duplicate scores, scores without a trace) and, from Langfuse, whether
    // the two sides could be paired by trace id.
    std::vector<std::string> judgeNotes;
};

// Reads the inputs and compares them. The callers check their options first (in their own words: the CLI names
// its flags, the dialog its fields); an incomplete pair here is an error all the same. Errors name the input
// ("baseline: ", "candidate: ", "control: ", "sample logs: ", "judge baseline: ", "judge candidate: ") and the file; an
// evaluation or decision problem (an incomparable pair, a bad metric override) comes bare. Sample logs that are missing
// or unusable become pairingNotes, never errors. `progress` (bytes of sample logs read, their total) may return false
// to cancel: the result is then an error. Thread-safe; meant to run off the GUI thread.
Result<BuiltComparison> buildComparison(const ComparisonInputs& inputs, const SampleProgressFn& progress = {});

}  // namespace fp8dash
