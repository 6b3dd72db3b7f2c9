#pragma once
// lm-eval per-sample logs (`--log_samples`): finding the samples_<task>_<date>.jsonl files that belong to a results
// file, and reading them line by line, keeping only what a paired test needs
// (../shared/notes/statistics-and-samples.md §2). Plain data and free functions; thread-safe.

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "fp8dash/core/lm_eval_results.h"
#include "fp8dash/core/result.h"

namespace fp8dash {

// What the reader needs to know about one task from its results file.
struct SampleTaskInfo {
    std::string task;
    // The task's filters in the order lm-eval runs them: the config's filter_list (configs.<task>.filter_list[].name)
    // when the results file has it, else the order of first appearance in the task's "<metric>,<filter>" keys.
    std::vector<std::string> filters;
    bool filtersFromConfig = false;
};

struct SampleLogFile {
    std::string task;
    std::filesystem::path path;
};

// The sample logs of one run.
struct SampleLogIndex {
    std::filesystem::path resultsFile;  // the results file the logs belong to
    std::string dateId;                 // "2026-08-21T10-15-30.123456" from its name; "" when it has none
    std::vector<SampleLogFile> files;   // samples_<task>_<dateId>.jsonl beside it, sorted by task
    std::vector<SampleTaskInfo> tasks;  // results file order
    // Why there are no logs, or which were left out (other dates); empty when every log matched.
    std::vector<std::string> notes;

    const SampleLogFile* file(std::string_view task) const;
    const SampleTaskInfo* taskInfo(std::string_view task) const;
};

// The sample logs beside a results file. `resultsFile` is the file a run was read from (LmEvalResults::sourcePath).
// Only files whose date id equals the results file's are taken (`results_<date>.json` ↔
// `samples_<task>_<date>.jsonl`); the others are named in `notes`. No logs is not an error (empty `files` and a
// note); an unreadable or malformed results file is.
Result<SampleLogIndex> findSampleLogs(const std::filesystem::path& resultsFile);
// The same for a path readLmEvalPath accepts (a results file or an lm-eval output folder); it picks the same file.
Result<SampleLogIndex> findSampleLogsForRunPath(const std::filesystem::path& runPath);
// The same for a run already read; a run embedded in a comparison file (no file on disk) has no logs.
Result<SampleLogIndex> findSampleLogs(const LmEvalResults& run);

// The task's filter order from a parsed results JSON object (see SampleTaskInfo::filters).
SampleTaskInfo sampleTaskInfo(const Json& resultsDoc, const TaskResult& task);

// The date id at the end of a results or samples file name ("results_2026-08-21T10-15-30.123456.json" gives
// "2026-08-21T10-15-30.123456"), or "" when the stem does not end in "_<YYYY-MM-DDTHH-MM-SS[.ffffff]>".
std::string dateIdOfFileName(std::string_view fileName);

// One row of a samples file: one (document, filter).
struct SampleRow {
    long long docId = 0;
    std::string docHash;  // "" when the row has none
    std::string promptHash;
    std::string targetHash;
    std::string filter;  // the row's label, or the one assigned by order (old layout)
    // Top-level numeric or boolean fields, doc_id excepted. With repeats (the 0.5 previews), a metric's top-level
    // value is lm-eval's own reduction of its repeats (the metric's `reduction`: take_first by default), which is
    // what the results file averages, so it is the per-document score the paired tests use.
    std::vector<std::pair<std::string, double>> values;
    // "scores_per_repeat" (lm-eval 0.5 previews, written when a task runs each document more than once): every
    // repeat's score per metric, before lm-eval's reduction. Kept to say how many repeats each side ran.
    std::vector<std::pair<std::string, std::vector<double>>> repeats;
    std::uint64_t line = 0;  // 1-based line in the file
    // Where the line is in the file: its first byte and its length (without the newline), so that the rows of the
    // changed documents can be read again, alone, once paired (changed_answers.h). In parseSampleLogText: in the text.
    std::uint64_t offset = 0;
    std::uint64_t length = 0;

    const double* value(std::string_view metric) const;
    const std::vector<double>* repeatScores(std::string_view metric) const;  // nullptr when the row has none
};

struct SampleLog {
    std::string task;
    std::string path;
    // Rows carry a "filter" label (lm-eval >= 0.4.7). When false, filters were assigned by order (see readSampleLog).
    bool labelled = true;
    std::vector<std::string> filters;  // as seen, order of first appearance
    std::vector<SampleRow> rows;       // file order
    std::vector<std::string> warnings;

    // The rows of one filter, in file order.
    std::vector<const SampleRow*> rowsFor(std::string_view filter) const;
};

// Progress: bytes read so far and the file size; return false to cancel.
using SampleProgressFn = std::function<bool(std::uint64_t bytesRead, std::uint64_t totalBytes)>;

// Reads a samples file line by line (files can be hundreds of MB; the doc, prompts and responses are dropped as
// each line is parsed). Errors name the file and the 1-based line: malformed JSON, a row that is not an object, a
// missing or non-integer doc_id, a non-string hash or filter.
//
// Old layout (lm-eval <= 0.4.6: no "filter" field): lm-eval wrote one row per (filter, document), looping over
// the filters outside the documents, so the k-th row of a doc_id belongs to the k-th filter of `info.filters`. The
// doubt: this trusts that the config's filter_list (or, without it, the results key order) is the order lm-eval
// applied the filters in. Both agree in every file we have seen; a doc_id with more rows than filters is an error;
// one with fewer is a warning. A file mixing labelled and unlabelled rows is an error.
// Labelled rows repeated for one (doc_id, filter) keep the first and warn (the file is opened in append mode).
Result<SampleLog> readSampleLog(const std::filesystem::path& file, const SampleTaskInfo& info,
                                const SampleProgressFn& progress = {});

// The same over text already in memory; `sourceName` is used in errors.
Result<SampleLog> parseSampleLogText(std::string_view text, const std::string& sourceName, const SampleTaskInfo& info);

// Speed: each row is read by simdjson's On-Demand API, touching only the fields above (doc, arguments, resps and
// filtered_resps are walked for their syntax, never built); a row it is not sure of (malformed JSON, a field of an
// unexpected type, a repeated key, Python's bare NaN, ...) is read again by the general reader (the whole row as a
// JSON tree), which gives every error message. Both read every row alike.
namespace detail {
// parseSampleLogText with the general reader only: what the fast path is tested against.
Result<SampleLog> parseSampleLogTextGeneral(std::string_view text, const std::string& sourceName,
                                            const SampleTaskInfo& info);
}  // namespace detail

}  // namespace fp8dash
