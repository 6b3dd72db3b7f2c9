#pragma once
// LLM-as-judge scores of the domain samples (DESIGN.md step 2): reading score files, comparing the baseline
// (BF16) and candidate (FP8) scores with the statistics of statistics.h, and the judge's JSON (CLI/report) and
// comparison-file section. Plain data; every function is thread-safe and deterministic (the bootstrap is seeded).
//
// Score files (format by extension: .jsonl/.ndjson, .csv, .json; by content otherwise, or for a .json file holding
// one object per line):
//   JSON Lines   {"id": "q17", "score": 4, "prompt": "...", "answer": "...", "comment": "..."} per line
//   CSV          a header row naming "id" (optional) and "score" columns; RFC 4180 quoting, CRLF or LF
//   JSON array   [4, 5, 3] (no ids) or [{"id": ..., "score": ...}, ...]
// Fields other than id and score are kept, in file order, for the drill-down. ids may be strings or integers
// (normalised to their decimal text). A score may be a number or a numeric string. Errors name the file and the
// 1-based line (JSON array: the 0-based element index, "[3]").

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "fp8dash/core/lm_eval_results.h"  // Json
#include "fp8dash/core/result.h"
#include "fp8dash/core/statistics.h"
#include "fp8dash/core/verdict.h"

namespace fp8dash {

// The judge's scale: scores outside [min, max] are errors.
struct JudgeScale {
    double min = 1;
    double max = 5;
    Status validate() const;  // finite, min < max
    bool operator==(const JudgeScale&) const = default;
};

enum class JudgeFileFormat { Auto, JsonLines, Csv, JsonArray };
const char* judgeFileFormatName(JudgeFileFormat f);  // "auto", "jsonl", "csv", "json"

struct JudgeScore {
    std::string id;  // empty when the source has no ids
    double score = 0;
    Json fields = Json::object();  // every other field (prompt, answer, comment, ...); CSV columns as strings
    bool operator==(const JudgeScore&) const = default;
};

struct JudgeScores {
    std::string source;  // the file name (or "langfuse <url> score <name> ..."), for messages
    JudgeFileFormat format = JudgeFileFormat::Auto;  // what it was read as
    bool hasIds = false;                             // every sample has an id (a file has ids on all samples or none)
    std::vector<JudgeScore> samples;                 // file order, never empty when read successfully
    std::vector<std::string> warnings;  // what the reader resolved on its own (Langfuse: duplicates); not saved
    bool operator==(const JudgeScores&) const = default;
};

// Parses score-file text. `sourceName` names the file in errors; its extension picks the format under Auto.
Result<JudgeScores> parseJudgeScores(std::string_view text, const std::string& sourceName, const JudgeScale& scale = {},
                                     JudgeFileFormat format = JudgeFileFormat::Auto);
Result<JudgeScores> loadJudgeScores(const std::filesystem::path& path, const JudgeScale& scale = {},
                                    JudgeFileFormat format = JudgeFileFormat::Auto);

// The seam for scores that come from elsewhere (Langfuse): one record per score. Applies the same checks
// as the files (scale, finite, duplicate ids); errors name `sourceName` and the 0-based record index. A non-empty
// comment is kept as the "comment" field. Empty ids: all records must have one or none.
struct JudgeRecord {
    std::string id;
    double value = 0;
    std::string comment;
};
Result<JudgeScores> judgeScoresFromRecords(const std::vector<JudgeRecord>& records, const std::string& sourceName,
                                           const JudgeScale& scale = {});

// The most bootstrap iterations a comparison file may ask for (issue 26): ten times the 10,000 that fp8dash writes
// (no command writes another number), so a shared file cannot make `report` or the app compute for half an hour
// (10 million iterations over 20,000 pairs); more gains nothing (the interval's ends move by well under 0.1 %).
inline constexpr int kMaxBootstrapIterations = 100'000;

struct JudgeOptions {
    Thresholds thresholds;
    JudgeScale scale;
    bool cautious = false;            // an inconclusive interval counts as the worst band it reaches
    std::uint64_t seed = 20260821;    // bootstrap seed: the same seed gives the same interval on every platform
    int bootstrapIterations = 10000;  // what every fp8dash command writes; a file may hold 1..kMaxBootstrapIterations
    int topDrops = 10;                // how many of the biggest drops to list
    // false: compare unpaired even when both sides have ids, e.g. Langfuse trace ids of two deployments, which name
    // different requests (see haveCommonIds). Saved in the judge section as "pair_by_id" when false.
    bool pairById = true;
    bool operator==(const JudgeOptions&) const = default;
};

// A paired sample whose score fell (candidate < baseline), with both sides' kept fields.
struct JudgeDrop {
    std::string id;
    double baseline = 0;
    double candidate = 0;
    Json baselineFields = Json::object();
    Json candidateFields = Json::object();
};

struct JudgeComparison {
    bool paired = false;          // both sides have ids (and pairById): samples matched by id
    std::uint64_t nPairs = 0;     // paired: the ids in both files (0 when unpaired)
    std::uint64_t nBaseline = 0;  // samples in each file
    std::uint64_t nCandidate = 0;
    // Means over the compared samples (paired: the common ids only; unpaired: every sample).
    double baselineMean = 0;
    double candidateMean = 0;
    double deltaPct = 0;                 // (candidate - baseline) / baseline * 100
    double degradationPct = 0;           // max(0, -deltaPct)
    double meanDiff = 0;                 // candidate - baseline, score points
    ConfidenceInterval meanDiffCi;       // 95 %, seeded percentile bootstrap (paired differences, or both sides)
    double standardErrorPct = 0;         // of the mean difference, % of the baseline mean
    RankTest test;                       // Wilcoxon signed-rank (paired) or Mann-Whitney U
    std::string testName;                // "wilcoxon", "mann_whitney"
    ConfidenceAnswer confidence;         // on the degradation interval (-ci / baseline mean * 100)
    EquivalenceResult equivalence;       // TOST at the "go" edge (thresholds.goBelow)
    Verdict pointVerdict = Verdict::Go;  // the band of degradationPct
    Verdict verdict = Verdict::Go;       // pointVerdict, or with `cautious` the worst band the interval reaches
    std::string reason;                  // the verdict in words
    // Histogram of each side: bin i counts scores that round to round(scale.min) + i (non-integer scores are
    // binned by rounding, half away from zero), up to round(scale.max). Empty beyond 1000 bins.
    int distributionFrom = 1;
    std::vector<std::uint64_t> baselineDistribution;
    std::vector<std::uint64_t> candidateDistribution;
    std::vector<std::string> onlyInBaseline;  // paired: ids of one side only, in file order
    std::vector<std::string> onlyInCandidate;
    std::vector<JudgeDrop> biggestDrops;  // paired: largest drop first (ties: baseline file order)
    JudgeScale scale;
    std::string baselineSource;
    std::string candidateSource;
};

// Both sides have ids and at least one id is on both sides.
bool haveCommonIds(const JudgeScores& a, const JudgeScores& b);

// Fails on invalid options, an empty side, paired files without a common id, or a baseline mean of 0.
Result<JudgeComparison> compareJudgeScores(const JudgeScores& baseline, const JudgeScores& candidate,
                                           const JudgeOptions& options = {});

// The CLI/report JSON: {"judge": {baseline_mean, candidate_mean, delta_pct, degradation_pct, degradation_ci95,
// verdict, point_verdict, reason, paired, n_pairs, n_baseline, n_candidate, mean_diff, ci95 [low, high], p_value,
// test, test_exact, z, confidence, samples_needed (null when none), confidence_explanation, equivalent,
// equivalence_ci90_pct, scale [min, max], distribution {from, baseline: [...], candidate: [...]}, only_in_baseline,
// only_in_candidate, biggest_drops [{id, baseline, candidate, diff, baseline_fields, candidate_fields}],
// baseline_source, candidate_source}}.
Json judgeComparisonToJson(const JudgeComparison& c);

// The comparison file's "judge" section: both score lists with their kept fields, the scale, the source names and
// the bootstrap settings, so that the judge comparison re-derives offline to the same figures.
//   {"scale": {"min": 1, "max": 5}, "cautious": false, "bootstrap": {"seed": ..., "iterations": ...},
//    "top_drops": 10, ["pair_by_id": false,] "baseline": {"source": "...", "format": "jsonl", "samples": [{"id": ...,
//    "score": ..., "fields": {...}}, ...]}, "candidate": {...}}
// ("id" absent for samples without one). The thresholds stay in the comparison's settings.
struct JudgeSection {
    JudgeScores baseline;
    JudgeScores candidate;
    JudgeOptions options;  // thresholds are not stored here (they come from the comparison's settings)
};
Json judgeSectionToJson(const JudgeSection& section);
// `where` names the place in errors, e.g. "comparison.fp8cmp: judge".
Result<JudgeSection> parseJudgeSection(const Json& j, const std::string& where);

}  // namespace fp8dash
