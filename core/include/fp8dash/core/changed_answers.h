#pragma once
// The answers FP8 changed, document by document (README "The answers FP8 changed"): the examples a paired task keeps
// (ChangedAnswerExample, paired_task_result.h), read from the two sample logs' rows of each changed document after
// the pairing pass, which remembered where each row's line is (SampleRow::offset), so that the logs are never
// parsed twice; their bounded texts; their JSON; and what a comparison document holds of them, in words, for the
// privacy notices of the save dialog and `compare --save`. Pure functions; thread-safe.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "fp8dash/core/comparison_file.h"
#include "fp8dash/core/paired_task_result.h"
#include "fp8dash/core/result.h"

namespace fp8dash {

// kDefaultAnswerExamples and kAnswerTextBytes: paired_task_result.h.

// `text` as an example keeps it: bytes that are not UTF-8 replaced by U+FFFD, NUL bytes too; then, when longer than
// `maxBytes`, cut at the last whole UTF-8 sequence within it and marked "… [cut: 20,480 bytes in all]". Controls,
// escape sequences and bidi overrides are kept (each medium escapes them as it shows them). Costs O(maxBytes) beyond
// the scan for the length: a 1 MB response is read to its cut, then counted.
std::string boundedAnswerText(std::string_view text, std::size_t maxBytes = kAnswerTextBytes);

// The texts of one sample log row (one JSON line of samples_<task>_<date>.jsonl): the question (the doc's main text
// field: question, problem, query, prompt, input, instruction, text, sentence, goal, ctx, context, passage, premise,
// the first that is a string; else the prompt's last turn: gen_args_0's arg_0, its last chat message's content when it
// is a JSON list of messages, else its text after the last blank line), the target (a multiple-choice index names its
// choice: "2: Paris"), the filtered answer (filtered_resps: one text as is; log-likelihoods per choice as the chosen
// choice, its continuation and log-likelihood) and the raw response (resps: the texts, or the log-likelihood per
// choice). Each bounded by boundedAnswerText(maxBytes). `where` names the file and line in errors (not JSON, not an
// object, no integer doc_id).
struct SampleRowTexts {
    long long docId = 0;
    std::string filter;  // the row's label; "" without one
    std::string question;
    std::string target;
    std::string answer;
    std::string response;
};
Result<SampleRowTexts> sampleRowTexts(std::string_view line, const std::string& where,
                                      std::size_t maxBytes = kAnswerTextBytes);

// One example in the comparison JSON and file: {doc_id, kind: "lost"|"gained", subtask (a group's only), question,
// target, baseline: {answer, response, value}, candidate: {answer, response, value}}.
Json changedExampleToJson(const ChangedAnswerExample& e);
// Its inverse, for a file (untrusted): a wrong type or a missing field is an error naming `where` and the field; the
// texts are bounded again (a hand-edited file cannot make a view hold a 1 MB answer).
Result<ChangedAnswerExample> parseChangedExampleJson(const Json& j, const std::string& where);

// What a comparison document holds of the changed answers, for the privacy notices.
struct AnswerExamplesHeld {
    std::uint64_t examples = 0;          // documents kept, over every paired task of every candidate and step
    std::uint64_t tasks = 0;             // the paired tasks holding any
    std::optional<std::uint64_t> limit;  // the --answer-examples they were read with (the largest, if several)
    bool countsOnly = false;             // paired results exist and every one was made with --answer-examples 0
};
AnswerExamplesHeld answerExamplesHeld(const ComparisonDocument& doc);
// The notice, one sentence: "The file includes 412 changed answers from 5 tasks (the questions and both runs'
// responses, from the sample logs); --answer-examples 0 keeps only the counts." / "The file keeps only the counts of
// the changed answers (--answer-examples 0): no question or response." / "" when no task was paired.
// `commandLine`: the CLI's own words (its --answer-examples flag); else the words of New Comparison's field.
std::string answerExamplesNotice(const AnswerExamplesHeld& held, bool commandLine = false);

// Removes every example from the document (the counts stay) and records limit 0: the save dialog's "counts only".
void dropAnswerExamples(ComparisonDocument& doc);

}  // namespace fp8dash
