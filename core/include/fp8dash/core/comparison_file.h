#pragma once
// The comparison file (*.fp8cmp): versioned JSON holding everything needed to re-derive the verdict offline.
// Layout (version 3; comparison_migrations.h reads versions 1 and 2 and says what changed):
//   { "format": "fp8dash-comparison", "version": 2, "tool_version": "0.2.0", "created": "<ISO-8601 UTC>",
//     "title": "...", "settings": { "thresholds": {"go_below": 0.5, "investigate_above": 1.5},
//                                   "metric_overrides": ["gsm8k=exact_match,flexible-extract"],
//                                   "cautious": false },
//     "runs": { "baseline": {"label": "BF16", "source": "<path>", "results": <lm-eval results object>},
//               "candidate": {...}, "control": {...} (optional: a BF16-vs-BF16 rerun, the noise floor) },
//     "paired": { "<task>": <pairedToJson> } (optional: the paired tests of the sample logs; the logs stay out),
//     "judge": { judgeSectionToJson: both score lists, scale, bootstrap } (optional; judge_scores.h),
//     "notes": [ {"id": "n1", "text": "...", "author": "...", "created": "...", "edited": "..." (optional),
//                 "task": "gsm8k" (optional)} ],
//     "review": { "decisions": [ reviewDecisionToJson, oldest first; the last is in force ] },
//     "timeline": { settings, throughput/quality series at full resolution, alerts } (optional; timeline.h),
//     "benchmarks": { gpu/ bench JSON + "created" } (optional; local_bench.h),
//     "capacity": { model, gpu, gpus, weights, kv, gpu_utilization, context_tokens, overhead_gib } (optional),
//     <later sections>: kept verbatim when this build does not know them }
// "runs" may be absent when the file holds other evidence: a production timeline, a judge comparison, benchmarks or
// capacity inputs.
// Files from a newer format version are refused. Never holds secrets. Functions are thread-safe.

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "fp8dash/core/eval_comparison.h"
#include "fp8dash/core/judge_scores.h"
#include "fp8dash/core/lm_eval_results.h"
#include "fp8dash/core/local_bench.h"
#include "fp8dash/core/result.h"
#include "fp8dash/core/review.h"
#include "fp8dash/core/serving_record.h"
#include "fp8dash/core/timeline.h"
#include "fp8dash/core/variant_comparison.h"

namespace fp8dash {

inline constexpr std::string_view kComparisonFormat = "fp8dash-comparison";
// Version 3 adds the "variants" section (several candidates, README "Variants and layer steps"); a version-2 file
// holds one candidate and reads unchanged.
// Version 4 only adds the optional "serving" section: a file without one is written as version 3, so that every
// fp8dash that read it before still does, and one with serving evidence is refused cleanly by those that cannot.
inline constexpr int kComparisonVersion = 4;
inline constexpr int kComparisonVersionWithoutServing = 3;

struct Note {
    std::string id;  // unique in the document (newNoteId); edits and deletions name it
    std::string text;
    std::string author;
    std::string created;  // ISO-8601
    std::string edited;   // ISO-8601 of the last edit; empty: never edited
    std::string task;     // empty: about the whole comparison
    bool operator==(const Note&) const = default;
};

// An id none of the notes has: "n<k>", one past the largest k in use.
std::string newNoteId(const std::vector<Note>& notes);

struct RunRecord {
    std::string label;       // "BF16", "FP8"
    std::string sourcePath;  // where it was read from, informative only
    LmEvalResults results;
};

// A candidate beyond the first (the first is ComparisonDocument::candidate, its paired tests `paired`, its judge
// scores `judge`).
struct CandidateRecord {
    RunRecord run;
    std::map<std::string, PairedTaskResult> paired;  // against the baseline, by task
    std::optional<JudgeSection> judge;               // the baseline's and this candidate's judge scores
};

// The paired tests of one layer step (two runs that differ in one layer), by the runs' labels.
struct StepPairedRecord {
    std::string from, to;
    std::map<std::string, PairedTaskResult> paired;
};

struct ComparisonDocument {
    int version = kComparisonVersion;     // the format version the file was written in (older ones are migrated)
    std::vector<std::string> migrations;  // the upgrade steps applied when it was read (empty: current format)
    std::string toolVersion;
    std::string created;
    std::string title;
    bool hasEvals = true;  // false for a comparison without "runs" (a timeline, judge, benchmarks or capacity only)
    RunRecord baseline;
    RunRecord candidate;
    std::optional<RunRecord> control;  // "runs.control": a BF16-vs-BF16 rerun, shown as each task's noise floor
    ComparisonOptions options;
    std::map<std::string, PairedTaskResult> paired;  // "paired": per task, from the sample logs (evals only)
    std::optional<JudgeSection> judge;  // "judge": both sides' scores; thresholds and cautious come from options
    std::vector<Note> notes;
    std::vector<ReviewDecision> decisions;  // "review.decisions": oldest first; the last one is in force
    std::optional<TimelineData> timeline;
    std::optional<BenchResults> benchmarks;    // "benchmarks": the last local benchmark run (local_bench.h)
    std::optional<CapacitySettings> capacity;  // "capacity": the Capacity view's inputs
    std::optional<ServingSection> serving;     // "serving" (version 4): serving benchmarks per run label
    Json otherSections = Json::object();       // sections of later versions' features, kept verbatim
    // "variants" (version 3): the candidates after the first, the layer steps' paired tests, the recommendation's
    // gate. Empty: a two-run comparison.
    std::vector<CandidateRecord> moreCandidates;
    std::vector<StepPairedRecord> stepPaired;
    RecommendationOptions recommendation;

    bool hasVariants() const { return hasEvals && !moreCandidates.empty(); }

    // The decision in force, or nullptr when none was recorded.
    const ReviewDecision* currentDecision() const { return decisions.empty() ? nullptr : &decisions.back(); }
    // An id no note of this document has ("n<k>").
    std::string newNoteId() const;

    // The offline evals with the paired results and the control run applied; an Error when !hasEvals.
    Result<ComparisonReport> evaluate() const;
    // The judge comparison under the document's thresholds and policy; nullopt without a judge section.
    std::optional<Result<JudgeComparison>> evaluateJudge() const;
    // Every candidate against the baseline, the layer steps and the recommendation; an Error when !hasVariants().
    Result<VariantComparison> evaluateVariants() const;
    // The same with the serving comparison already made (evaluateServing's; decide() makes it once for both).
    Result<VariantComparison> evaluateVariants(const std::optional<ServingComparison>& serving) const;
    // The serving benchmarks compared, baseline first in run order; nullopt without a serving section.
    std::optional<ServingComparison> evaluateServing() const;
    // The runs' labels: the baseline's, the candidate's, then the further candidates' (empty without evals).
    std::vector<std::string> runLabels() const;
};

// The decision over everything a comparison holds (DESIGN.md: the worst of the evals, the judge comparison and the
// production check). Reasons are prefixed "offline evals: ", "domain judge: ", "production: ", worst signal first.
struct Decision {
    std::optional<Verdict> verdict;    // absent when nothing gives one
    std::vector<std::string> reasons;  // the overall verdict in words, most important first
    // The offline evals and the domain judge the verdict is about: with several candidates, the deciding variant's
    // (variants->deciding; its paired results, control run and judge scores applied), else the one candidate's.
    std::optional<ComparisonReport> evals;
    std::optional<JudgeComparison> judge;
    std::optional<TimelineReport> timeline;
    // Several candidates: every variant, the layer steps, the recommendation and the deciding variant, whose own
    // verdict (worst with production's) is the overall one (DESIGN.md "Degradation and the verdict").
    std::optional<VariantComparison> variants;
    // The serving benchmarks, when the comparison holds them: what FP8 buys, said beside the verdict, never in it.
    std::optional<ServingComparison> serving;
};
Result<Decision> decide(const ComparisonDocument& doc);

// A new document for two runs; created = now, toolVersion = this build.
ComparisonDocument makeComparisonDocument(RunRecord baseline, RunRecord candidate, ComparisonOptions options);

Json toJson(const ComparisonDocument& doc);
Result<ComparisonDocument> parseComparisonText(std::string_view text, const std::string& sourceName);
Result<ComparisonDocument> parseComparisonJson(Json j, const std::string& sourceName);  // j: the parsed file
Result<ComparisonDocument> loadComparisonFile(const std::filesystem::path& path);

// Atomic: writes a temporary file in the same folder, flushes it to disk, then renames it over the target.
// On failure the old file is untouched and the message names the path and the reason. A new file gets 0666 less the
// umask; a replaced one keeps its mode, owner and group; through a symbolic link the link's final target is
// replaced, beside itself, and the link stays (atomic_file.cpp). compare --save merges first: comparison_merge.h.
Status saveComparisonFile(const ComparisonDocument& doc, const std::filesystem::path& path);
Status writeFileAtomically(const std::filesystem::path& path, std::string_view bytes);

std::string nowIso8601Utc();

}  // namespace fp8dash
