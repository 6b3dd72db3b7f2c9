#pragma once
// Whether a baseline and a candidate lm-eval run can be compared task by task (README "Comparable runs"), and the
// task names the harness renamed between versions. A difference that makes a delta meaningless (few-shot count, task
// version, sample count, prompts, chat template, generation settings) blocks the tasks it touches; harness version,
// seeds, batch size and max length are notes. Pure functions over values; thread-safe.

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "fp8dash/core/lm_eval_results.h"
#include "fp8dash/core/result.h"

namespace fp8dash {

enum class ComparabilitySeverity { Blocking, Note };
std::string_view severityName(ComparabilitySeverity s);  // "blocking" | "note"

struct ComparabilityItem {
    std::optional<std::string> task;  // absent: the whole run
    std::string field;                // lm-eval's key: "n-shot", "versions", "config.limit", "chat_template_sha", ...
    Json baseline;                    // the two values as the files hold them (null: not recorded)
    Json candidate;
    ComparabilitySeverity severity = ComparabilitySeverity::Note;
    std::string message;  // in words, naming the field and both values
    bool operator==(const ComparabilityItem&) const = default;
};

// --map BASE_TASK=CAND_TASK: compare the baseline's BASE_TASK with the candidate's CAND_TASK.
struct TaskMapping {
    std::string baseline;
    std::string candidate;

    static Result<TaskMapping> parse(std::string_view spec);
    std::string toString() const;  // back to BASE_TASK=CAND_TASK
    bool operator==(const TaskMapping&) const = default;
};

// Copies of both runs whose task names agree: the candidate's task of each --map pair takes the baseline's name (a
// task of that name the candidate has besides is left out, with a note), then a task one run names the v0.3 way and
// the other the v0.4 way takes its v0.4 name (v04TaskName). `notes` say what was matched. Fails, naming --map, when a
// pair names a task its run lacks.
struct MatchedRuns {
    LmEvalResults baseline;
    LmEvalResults candidate;
    std::vector<ComparabilityItem> notes;
};
Result<MatchedRuns> matchTaskNames(const LmEvalResults& baseline, const LmEvalResults& candidate,
                                   const std::vector<TaskMapping>& map);

// The v0.4 name of a task lm-eval v0.3 named otherwise (hendrycksTest-anatomy -> mmlu_anatomy, math_algebra ->
// hendrycks_math_algebra, ...); nullopt for any other name.
std::optional<std::string> v04TaskName(std::string_view v03Name);

struct ComparabilityCheck {
    std::vector<ComparabilityItem> items;        // run-level first, then by task in the baseline's order
    std::map<std::string, std::string> blocked;  // task (and each group above it) -> "not comparable: ..."
    bool identical = false;                      // every task and score the same in both runs
};

// Checks two runs whose task names already agree (matchTaskNames). A value one file does not record is not checked.
ComparabilityCheck checkComparability(const LmEvalResults& baseline, const LmEvalResults& candidate);

inline constexpr std::string_view kIdenticalRunsMessage =
    "the baseline and candidate results are identical: the same run twice?";

// The verdict's reason line when blocking differences were compared anyway (--allow-incomparable); empty otherwise.
std::vector<std::string> comparabilityReasons(const std::vector<ComparabilityItem>& items, bool allowIncomparable);

// Renderings: the JSON list ({task (null: the run), field, baseline, candidate, severity, message}) and one line per
// item ("[blocking] gsm8k: n-shot differs: baseline 5-shot, candidate 0-shot").
Json comparabilityToJson(const std::vector<ComparabilityItem>& items);
std::string comparabilityLine(const ComparabilityItem& item);

// When tasks are only in one run or the other: a hint naming a likely pair and --map; "" otherwise.
std::string renamingHint(const LmEvalResults& baseline, const LmEvalResults& candidate);

}  // namespace fp8dash
