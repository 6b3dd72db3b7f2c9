#pragma once
// Reading lm-evaluation-harness results (v0.3 and v0.4.x formats; see shared/notes/data-formats.md §1).
// The reader keeps what a comparison needs, in file order, and can write it back as an lm-eval-format JSON
// object, which is how a comparison file stores each run. Values are plain data; functions are thread-safe.

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "fp8dash/core/json_text.h"
#include "fp8dash/core/result.h"

namespace fp8dash {

// One "<metric>,<filter>" entry of a task (v0.3: "<metric>", filter "none").
struct MetricValue {
    std::string name;               // bare metric name, e.g. "exact_match"
    std::string filter;             // e.g. "strict-match"; "none" for v0.3 files
    std::string key;                // the results-file key, e.g. "exact_match,strict-match", or "acc" in v0.3
    double value = 0;               // may be NaN or infinite when the file says so; comparisons reject those
    std::optional<double> stderr_;  // absent when missing or "N/A"
};

// What a run records about how one task was set up, for the comparability check (comparability.h): values as the
// file holds them, null when it does not say.
struct TaskSettings {
    Json version;           // versions[task]: a number (1.0), sometimes a string
    Json hash;              // task_hashes[task] (written with --log_samples from v0.4.3)
    Json generationKwargs;  // configs[task].generation_kwargs
    Json numFewshot;        // configs[task].num_fewshot
    Json outputType;        // configs[task].output_type ("generate_until", "multiple_choice", ...)
};

struct TaskResult {
    std::string name;
    std::string alias;                                         // as in the file (indentation kept); may be empty
    std::vector<MetricValue> metrics;                          // file order
    std::vector<std::pair<std::string, bool>> higherIsBetter;  // file order, bare metric names
    std::optional<long long> nShot;
    std::optional<long long> nSamplesOriginal;
    std::optional<long long> nSamplesEffective;
    TaskSettings settings;

    const MetricValue* find(std::string_view name, std::string_view filter) const;
    std::optional<bool> higherIsBetterFor(std::string_view metric) const;
};

struct LmEvalResults {
    std::string sourcePath;     // the file it was read from ("" when embedded in a comparison file)
    std::string formatLabel;    // "v0.3" or "v0.4"
    std::string lmEvalVersion;  // "0.4.10.dev0" when the file says so, else ""
    std::string gitHash;
    std::string modelBackend;                                    // config.model: "hf", "vllm", ...
    std::vector<std::pair<std::string, std::string>> modelArgs;  // config.model_args, string or object form
    std::string modelName;                                       // model_name, else pretrained= of model_args
    std::optional<double> date;                                  // unix seconds
    std::vector<TaskResult> tasks;                               // file order of "results"
    std::vector<std::pair<std::string, std::vector<std::string>>> groupSubtasks;  // file order
    // The run-level settings the comparability check reads, under lm-eval's own keys and only those the file has:
    // "config" holds limit, gen_kwargs, num_fewshot (v0.3), the four seeds, batch_size and apply_chat_template; the
    // rest are top-level keys (chat_template_sha, fewshot_as_multiturn, system_instruction_sha, max_length, and
    // chat_template only when the file has no sha for it).
    Json runSettings = Json::object();

    const TaskResult* task(std::string_view name) const;
    const std::vector<std::string>* subtasksOf(std::string_view group) const;  // nullptr when not a group
    std::optional<std::string> modelArg(std::string_view key) const;

    // The lm-eval-format JSON object this was read from, reduced to what the comparison reads
    // (results, group_subtasks, higher_is_better, n-shot, n-samples, config, model_name, date, and what the
    // comparability check reads: versions, task_hashes, configs' generation settings, the run settings above).
    Json toJson() const;
};

// A results JSON file, or an lm-eval output directory: the newest results file in it (results_<date>.json or
// <stem>_<date>.json, else a plain results.json), else the same in its single model sub-folder; see lm_eval_paths.h.
Result<LmEvalResults> readLmEvalPath(const std::filesystem::path& path);

// Parses results JSON text; sourceName is used in error messages (a file path or "baseline run in X.fp8cmp").
Result<LmEvalResults> parseLmEvalText(std::string_view text, const std::string& sourceName);
Result<LmEvalResults> parseLmEvalJson(const Json& doc, const std::string& sourceName);

// parseJsonText and readTextFile: json_text.h.

}  // namespace fp8dash
