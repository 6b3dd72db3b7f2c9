#include "report/changed_answers_report.h"

#include "fp8dash/core/number_format.h"

namespace fp8dash::answers_shown {

std::vector<TaskAnswers> tasksToShow(const ComparisonReport& report, std::size_t maxExamples) {
    std::vector<TaskAnswers> out;
    for (const TaskComparison& t : report.tasks) {
        // Go tasks need no evidence beyond their counts (the statistics line states them); monitor and investigate
        // are where a reviewer reads the documents before deciding.
        if (t.verdict == Verdict::Go || !t.paired || !t.paired->changed || t.paired->changed->n() == 0) continue;
        const PairedTaskResult& p = *t.paired;
        const bool countsOnly = p.examplesLimit && *p.examplesLimit == 0;
        if (!countsOnly && p.examples.empty()) continue;  // paired without the documents (an older file)
        TaskAnswers a;
        a.task = &t;
        a.paired = &p;
        a.countsOnly = countsOnly;
        for (const ChangedAnswerExample& e : p.examples) {
            if (!e.lost) continue;
            ++a.lostKept;
            if (a.lost.size() < maxExamples) a.lost.push_back(&e);
        }
        out.push_back(std::move(a));
    }
    return out;
}

std::string introduction(const std::string& candidateLabel, std::size_t maxExamples, std::size_t excerptChars) {
    return "The answers " + candidateLabel +
           " changed on each monitor or investigate task, from the sample logs: the counts, then the first " +
           std::to_string(maxExamples) + " documents " + candidateLabel +
           " lost (right in the baseline, wrong in the candidate; for a metric that is not 0/1, moved in the bad "
           "direction), with the question, the target and both runs' answer, response and value. Each text is shown "
           "up to " +
           std::to_string(excerptChars) +
           " characters on one line; the comparison file holds it up to 4 KB. The texts are model output and "
           "data-set text, shown as written.";
}

std::string countsOnlyLine() {
    return "Only the counts were kept (0 answer examples per task): no question or response is in the file.";
}

std::string noLostLine(const TaskAnswers& t, const std::string& candidateLabel) {
    if (t.paired->changed->lost == 0) return candidateLabel + " lost no answer on this task.";
    return "The file keeps no lost answer of this task (" + std::to_string(t.paired->examples.size()) +
           " changed answers kept).";
}

std::string exampleTitle(const ChangedAnswerExample& e, std::size_t index, const TaskAnswers& t) {
    return "Lost answer " + std::to_string(index + 1) + " of " + numfmt::grouped(t.paired->changed->lost) +
           ": doc_id " + std::to_string(e.docId) + (e.subtask.empty() ? "" : ", subtask " + e.subtask);
}

std::string moreLine(const TaskAnswers& t, std::size_t shown) {
    const std::uint64_t lost = t.paired->changed->lost;
    if (shown >= lost) return "";
    std::string s = numfmt::grouped(shown) + " of the " + numfmt::grouped(lost) + " lost answers shown";
    if (t.lostKept > shown)
        s += "; the comparison file holds " + numfmt::grouped(t.lostKept) + " of them (at most " +
             (t.paired->examplesLimit ? numfmt::grouped(*t.paired->examplesLimit) : std::string("?")) +
             " answer examples per task)";
    return s + ".";
}

Excerpt excerpt(const std::string& text, std::size_t chars) {
    Excerpt e;
    if (text.empty()) {
        e.text = "(empty)";
        return e;
    }
    std::size_t cutAt = text.size();
    for (std::size_t i = 0; i < text.size(); ++i) {
        if ((static_cast<unsigned char>(text[i]) & 0xC0) == 0x80) continue;  // a continuation byte
        if (e.chars == chars) cutAt = i;
        ++e.chars;
    }
    e.cut = cutAt < text.size();
    e.text = text.substr(0, cutAt);
    for (char& c : e.text)
        if (c == '\n' || c == '\r' || c == '\t') c = ' ';
    if (e.cut) e.text += "…";
    return e;
}

std::string cutNote(const Excerpt& e, std::size_t chars) {
    return "the first " + numfmt::grouped(chars) + " of " + numfmt::grouped(e.chars) +
           " characters; the comparison file holds the rest";
}

std::string valueText(const PairedTaskResult& p, double value) {
    return (p.metric.empty() ? std::string("value") : p.metric) + " " + numfmt::general(value);
}

}  // namespace fp8dash::answers_shown
