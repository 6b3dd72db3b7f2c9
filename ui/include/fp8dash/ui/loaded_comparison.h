#pragma once
// A comparison document together with its evaluated report, and the background jobs that produce one: loading a
// *.fp8cmp file, and building a new comparison from two lm-eval runs and/or two judge score files (with the paired
// tests of the runs' sample logs and an optional control run). The jobs are synchronous, pure functions over values,
// meant to run on a QtConcurrent worker; they return errors as values naming the file.

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

#include <QMetaType>
#include <QString>
#include <QStringList>

#include "fp8dash/core/comparison_file.h"
#include "fp8dash/core/eval_comparison.h"
#include "fp8dash/core/paired_task_result.h"
#include "fp8dash/core/result.h"
#include "fp8dash/core/sample_logs.h"
#include "fp8dash/core/variant_comparison.h"

namespace fp8dash::ui {

struct LoadedComparison {
    ComparisonDocument document;
    ComparisonReport report;  // the offline evals; empty (no tasks) for a timeline-only document
    Decision decision;        // the overall verdict over the evals, the judge and the production timeline
    // What building it could not use, one sentence each (tasks whose sample logs were missing or unreadable); the
    // first line sums up the pairing. Empty for a loaded file.
    QStringList buildNotes;
};

// Loads and evaluates a comparison file. Thread-safe.
Result<LoadedComparison> loadComparisonForDisplay(const QString& path);

// Evaluates a document already in memory (the demo, a freshly built comparison, a document whose timeline was just
// fetched). Fast enough for the GUI thread: the evals and the timeline's figures are linear in the data. Thread-safe.
Result<LoadedComparison> evaluateForDisplay(ComparisonDocument document, const QString& sourceName);

// Either pair of inputs (the lm-eval runs, the judge score files) or both; at least one complete pair. With several
// candidates the judge scores are the first candidate's.
struct NewComparisonRequest {
    QString baselinePath;  // an lm-eval results file or output directory; empty with candidatePath: no evals
    QString candidatePath;
    QString controlPath;        // optional: a BF16-vs-BF16 rerun (results file or folder), the noise floor; needs evals
    QString judgeBaselinePath;  // optional: judge score files (.jsonl, .csv, .json), both or neither
    QString judgeCandidatePath;
    QString baselineLabel = QStringLiteral("BF16");
    QString candidateLabel = QStringLiteral("FP8");
    // Several variants (README "Variants and layer steps"): the candidates after the first, with their labels (one
    // per path; an empty label, here or the first candidate's, is derived from the run's layers), and the
    // recommendation's gate. Empty: a two-run comparison.
    QStringList moreCandidatePaths;
    QStringList moreCandidateLabels;
    RecommendationOptions recommendation;
    QString title;               // empty: "<model>: <baseline label> vs <candidate label>"
    ComparisonOptions options;   // thresholds, overrides, the cautious policy (the judge follows it too)
    bool readSampleLogs = true;  // pair the runs' --log_samples files when they are beside the results
    // The changed documents kept per paired task (--answer-examples; changed_answers.h); 0 keeps only the counts.
    std::uint64_t answerExamples = kDefaultAnswerExamples;

    // Serving benchmarks (docs/serving.md), by run: [0] the baseline's results file or folder, [1] the first
    // candidate's, then the further candidates' in order; "" (or missing) for a run without. Read under each run's
    // label (a label left empty is the one derived from the run's layers) into ComparisonInputs::servingPaths.
    QStringList servingPaths;
    ServingOptions serving;  // the SLO, target load, GPU-hour price

    bool hasServing() const {
        return std::any_of(servingPaths.begin(), servingPaths.end(), [](const QString& p) { return !p.isEmpty(); });
    }
    bool hasEvals() const { return !baselinePath.isEmpty() || !candidatePath.isEmpty(); }
    bool hasJudge() const { return !judgeBaselinePath.isEmpty() || !judgeCandidatePath.isEmpty(); }
    // Which pair is incomplete, a control without runs, or neither pair: the message says what to choose.
    Status validate() const;
};

// Reads the inputs and compares them. Errors say which input failed and name the file. Sample logs that are missing
// or unreadable become buildNotes, never errors. `progress` (bytes of sample logs read, their total) may return
// false to cancel: the result is then an error. Thread-safe.
Result<LoadedComparison> buildNewComparison(const NewComparisonRequest& request, const SampleProgressFn& progress = {});

// UTF-8 conversions between Qt and the std/filesystem types of core.
std::filesystem::path toFsPath(const QString& path);
inline QString toQString(const std::string& utf8) {
    return QString::fromStdString(utf8);
}
inline QString toQString(std::string_view utf8) {
    return QString::fromUtf8(utf8.data(), static_cast<qsizetype>(utf8.size()));
}

}  // namespace fp8dash::ui
