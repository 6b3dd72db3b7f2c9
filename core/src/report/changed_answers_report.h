#pragma once
// The changed answers as the reports and the slides show them (README "The answers FP8 changed"): which tasks, which
// documents (the first lost ones the file kept, in its order), and each text as a short excerpt. The HTML, PDF and
// Markdown reports (report_sections.cpp), the plain-text report (report_document.cpp) and the deck's answer slide
// (presentation_deck.cpp) all choose through here, so that they show the same documents. Internal to core; pure.

#include <cstddef>
#include <string>
#include <vector>

#include "fp8dash/core/eval_comparison.h"
#include "fp8dash/core/paired_task_result.h"

namespace fp8dash::answers_shown {

// A monitor or investigate task whose paired result has examples, or was paired with --answer-examples 0 (then only
// its counts are shown, with a line saying so).
struct TaskAnswers {
    const TaskComparison* task = nullptr;
    const PairedTaskResult* paired = nullptr;
    bool countsOnly = false;                        // examplesLimit == 0
    std::vector<const ChangedAnswerExample*> lost;  // the first `maxExamples` lost examples, in the file's order
    std::size_t lostKept = 0;                       // the lost examples the file holds
};

// The top-level tasks of `report` to show, in the report's task order; each with its changed counts (n > 0).
std::vector<TaskAnswers> tasksToShow(const ComparisonReport& report, std::size_t maxExamples);

// The explanation said once above the tasks.
std::string introduction(const std::string& candidateLabel, std::size_t maxExamples, std::size_t excerptChars);
// "Only the counts were kept (0 answer examples per task): no question or response is in the file."
std::string countsOnlyLine();
// The line when none of the kept examples is a lost one.
std::string noLostLine(const TaskAnswers& t, const std::string& candidateLabel);
// "Lost answer 1 of 58: doc_id 12" (", subtask mmlu_x" for a group's).
std::string exampleTitle(const ChangedAnswerExample& e, std::size_t index, const TaskAnswers& t);
// What the shown examples leave out: "3 of the 58 lost answers shown; the comparison file holds 200 of them." ("" when
// every lost answer is shown).
std::string moreLine(const TaskAnswers& t, std::size_t shown);

// A text as a report shows it: line breaks and tabs as spaces, at most `chars` code points, "…" where cut, "(empty)"
// for an empty text. Controls and bidi overrides are kept: each medium escapes them (htmlEscape, the Markdown writer's
// visibleControls, oneLine/visibleControls for the text).
struct Excerpt {
    std::string text;
    bool cut = false;
    std::size_t chars = 0;  // the whole text's code points
};
Excerpt excerpt(const std::string& text, std::size_t chars);
// The note under a cut excerpt: "the first 600 of 4,117 characters; the comparison file holds the rest".
std::string cutNote(const Excerpt& e, std::size_t chars);

// The metric's value as the sides' rows show it: "exact_match 1".
std::string valueText(const PairedTaskResult& p, double value);

}  // namespace fp8dash::answers_shown
