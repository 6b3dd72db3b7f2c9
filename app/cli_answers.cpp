#include "cli_answers.h"

#include <algorithm>
#include <map>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "cli.h"
#include "cli_common.h"
#include "fp8dash/core/changed_answers.h"
#include "fp8dash/core/comparison_builder.h"
#include "fp8dash/core/comparison_file.h"
#include "fp8dash/core/comparison_merge.h"
#include "fp8dash/core/markdown_text.h"
#include "fp8dash/core/number_format.h"
#include "fp8dash/core/paired_tasks.h"
#include "fp8dash/core/untrusted_text.h"

namespace fp8dash::cli {
namespace {

enum class Kind { All, Lost, Gained };

// The paired results `answers` reads, with the labels of the two runs they pair.
struct Source {
    const std::map<std::string, PairedTaskResult>* paired = nullptr;
    std::string baselineLabel, candidateLabel;
};

// Why `task` has no paired result, when it is a task of the runs: the pairing note naming it (two runs), else what
// a comparison file without it means.
std::string notPairedWhy(const std::string& task, const ComparisonDocument& doc, const Source& src,
                         const std::vector<std::string>* pairingNotes) {
    for (const auto& [group, subtasks] : doc.baseline.results.groupSubtasks)
        if (std::find(subtasks.begin(), subtasks.end(), task) != subtasks.end() && src.paired->count(group))
            return "it is a subtask of the group " + oneLine(group) + ": its documents are listed under --task " +
                   oneLine(group) + ", each naming its subtask";
    if (pairingNotes) {
        if (pairingNotes->empty()) return "the sample logs were not read";
        // The note on this task ("<task>: not paired: ..."), else the summary, which names the tasks when none was.
        for (const std::string& note : *pairingNotes)
            if (note.rfind(task + ": ", 0) == 0 || note.find("(" + task + ": ") != std::string::npos)
                return oneLine(note);
        return oneLine(pairingNotes->front());
    }
    return "the comparison file holds no paired result for it (no sample logs, samples_<task>_<date>.jsonl, were "
           "found beside both runs' results when it was compared, or --no-sample-logs was given)";
}

bool isRunTask(const ComparisonDocument& doc, const std::string& task) {
    for (const RunRecord* run : {&doc.baseline, &doc.candidate})
        if (run->results.task(task) || run->results.subtasksOf(task)) return true;
    return false;
}

// Why the comparison leaves out the stored paired result of `task` for the chosen candidate ("" when it is shown, or
// when the comparison cannot be evaluated: then nothing is shown anywhere but here, and the examples stand alone).
std::string leftOutWhy(const ComparisonDocument& doc, const Source& src, const std::string& task) {
    const auto fromReport = [&](const ComparisonReport& report) -> std::string {
        for (const TaskComparison& t : report.tasks)
            if (t.task == task) return t.pairedLeftOut;
        return "";
    };
    if (src.paired == &doc.paired) {
        auto report = doc.evaluate();
        return report ? fromReport(*report) : "";
    }
    if (!doc.hasVariants()) return "";
    auto variants = doc.evaluateVariants();
    if (!variants) return "";
    for (const auto& v : variants->variants)
        if (v.label == src.candidateLabel) return fromReport(v.report);
    return "";
}

std::string pairedList(const std::map<std::string, PairedTaskResult>& paired) {
    if (paired.empty()) return ": none was paired (the sample logs were not read or not found)";
    std::string out = "; the paired tasks:";
    for (const auto& [name, r] : paired) out += "\n  " + oneLine(name);
    return out;
}

// "29 lost (all of them), 12 gained (the first 12 of 40)": what the listing shows of each kind it shows.
std::string listedWords(const PairedTaskResult& r, const std::vector<const ChangedAnswerExample*>& shown, Kind kind) {
    const ChangedAnswers& c = *r.changed;
    std::uint64_t lost = 0, gained = 0;
    for (const auto* e : shown) ++(e->lost ? lost : gained);
    const auto part = [](std::uint64_t listed, std::uint64_t all, const char* what) {
        std::string s = numfmt::grouped(listed) + " " + what;
        if (all == 0) return s;
        if (listed == 0) return "none of the " + numfmt::grouped(all) + " " + what;
        if (listed >= all) return s + (all == 1 ? " (the only one)" : " (all of them)");
        return s + " (the first " + numfmt::grouped(listed) + " of " + numfmt::grouped(all) + ")";
    };
    std::string out = "Listed: ";
    if (kind != Kind::Gained) out += part(lost, c.lost, "lost");
    if (kind == Kind::All) out += ", ";
    if (kind != Kind::Lost) out += part(gained, c.gained, "gained");
    const std::uint64_t listed = lost + gained, wanted = kind == Kind::Lost     ? c.lost
                                                         : kind == Kind::Gained ? c.gained
                                                                                : c.lost + c.gained;
    if (listed < wanted && r.examplesLimit)
        out += "; " + numfmt::grouped(*r.examplesLimit) +
               " changed answers per task are kept at most, lost first "
               "(--answer-examples " +
               numfmt::grouped(*r.examplesLimit) + ")";
    return out + ".";
}

std::string valueText(double v) {
    return numfmt::general(v);
}

// Text: a one-line value on its label's line; a text with line breaks under it, indented, each line as written with
// its controls shown.
void textField(std::ostream& out, const std::string& indent, const std::string& label, const std::string& text) {
    if (text.empty()) {
        out << indent << label << ": (empty)\n";
        return;
    }
    if (text.find('\n') == std::string::npos) {
        out << indent << label << ": " << oneLine(text) << "\n";
        return;
    }
    out << indent << label << ":\n";
    const std::string shown = visibleControls(text);
    std::size_t start = 0;
    while (start <= shown.size()) {
        const std::size_t end = shown.find('\n', start);
        const std::string_view line =
            std::string_view(shown).substr(start, end == std::string::npos ? std::string::npos : end - start);
        out << indent << "    " << line << "\n";
        if (end == std::string::npos) break;
        start = end + 1;
    }
}

void printText(const std::string& task, const PairedTaskResult& r, const Source& src,
               const std::vector<const ChangedAnswerExample*>& shown, Kind kind, std::ostream& out) {
    out << "Changed answers: " << oneLine(task) << " (" << oneLine(r.metric) << ", filter " << oneLine(r.filter)
        << "), " << oneLine(src.baselineLabel) << " vs " << oneLine(src.candidateLabel) << "\n"
        << oneLine(changedAnswersSentence(*r.changed, src.candidateLabel)) << "\n"
        << listedWords(r, shown, kind) << "\n";
    std::size_t i = 0;
    for (const ChangedAnswerExample* e : shown) {
        out << "\n[" << ++i << "/" << shown.size() << "] doc_id " << e->docId << ": " << (e->lost ? "lost" : "gained")
            << " (" << oneLine(src.candidateLabel) << (e->lost ? " worse" : " better") << ")\n";
        if (!e->subtask.empty()) out << "  subtask: " << oneLine(e->subtask) << "\n";
        textField(out, "  ", "question", e->question);
        textField(out, "  ", "target", e->target);
        for (const auto& [label, side] :
             {std::pair{&src.baselineLabel, &e->baseline}, std::pair{&src.candidateLabel, &e->candidate}}) {
            out << "  " << oneLine(*label) << ": value " << valueText(side->value) << "\n";
            textField(out, "    ", "answer", side->answer);
            textField(out, "    ", "response", side->response);
        }
    }
}

// Markdown: every value through markdown_text.h's escapers, the responses in fenced code blocks (the fence longer than
// any backtick run in them: nothing in a response closes it or becomes a table, a heading or HTML); controls shown.
std::string mdText(std::string_view text, markdown::Where where = markdown::Where::Text,
                   markdown::Start start = markdown::Start::Line) {
    if (text.empty()) return "*(empty)*";
    return visibleControls(markdown::escape(text, where, start));
}

void printMarkdown(const std::string& task, const PairedTaskResult& r, const Source& src,
                   const std::vector<const ChangedAnswerExample*>& shown, Kind kind, std::ostream& out) {
    using markdown::Start;
    using markdown::Where;
    out << "# Changed answers: " << mdText(task, Where::Heading) << "\n\n"
        << mdText(src.baselineLabel, Where::Text) << " vs " << mdText(src.candidateLabel, Where::Text, Start::MidLine)
        << "; metric " << visibleControls(markdown::code(r.metric)) << ", filter "
        << visibleControls(markdown::code(r.filter)) << ".\n\n"
        << mdText(changedAnswersSentence(*r.changed, src.candidateLabel)) << "\n\n"
        << mdText(listedWords(r, shown, kind)) << "\n";
    std::size_t i = 0;
    for (const ChangedAnswerExample* e : shown) {
        out << "\n## " << ++i << ". doc_id " << e->docId << ": " << (e->lost ? "lost" : "gained") << "\n\n";
        if (!e->subtask.empty()) out << "Subtask: " << visibleControls(markdown::code(e->subtask)) << "\n\n";
        out << "**Question**\n\n" << mdText(e->question) << "\n\n";
        out << "**Target:** " << mdText(e->target, Where::Text, Start::MidLine) << "\n";
        for (const auto& [label, side] :
             {std::pair{&src.baselineLabel, &e->baseline}, std::pair{&src.candidateLabel, &e->candidate}}) {
            out << "\n### " << mdText(*label, Where::Heading) << ": value " << valueText(side->value) << "\n\n"
                << "Answer: " << mdText(side->answer, Where::Text, Start::MidLine) << "\n\n"
                << "Response:\n\n"
                << (side->response.empty() ? std::string("*(empty)*\n")
                                           : markdown::codeBlock(visibleControls(side->response)));
        }
    }
}

void printJson(const std::string& task, const PairedTaskResult& r, const Source& src,
               const std::vector<const ChangedAnswerExample*>& shown, Kind kind, std::ostream& out) {
    Json j = changedAnswersToJson(&r);
    Json examples = Json::array();
    for (const auto* e : shown) examples.push_back(changedExampleToJson(*e));
    j["examples"] = std::move(examples);
    j["task"] = task;
    j["metric"] = r.metric;
    j["baseline_label"] = src.baselineLabel;
    j["candidate_label"] = src.candidateLabel;
    j["kind"] = kind == Kind::Lost ? "lost" : kind == Kind::Gained ? "gained" : "all";
    out << j.dump(2, ' ', false, Json::error_handler_t::replace) << "\n";
}

}  // namespace

std::string answersUsage() {
    return "  fp8dash answers FILE.fp8cmp|BASELINE CANDIDATE --task T [--lost|--gained] [--format text|json|markdown]\n"
           "                                 the documents whose answer the candidate changed on T's compared metric\n"
           "                                 (lost first): question, target, each run's answer, response and value;\n"
           "                                 from a saved comparison, or from two lm-eval runs' sample logs; a group\n"
           "                                 lists its subtasks' documents, each naming its subtask\n"
           "      --candidate LABEL          a variants file: this candidate's documents (default: the first)\n"
           "      --answer-examples N        two runs: the documents kept (default 200, lost first)\n"
           "      --baseline-label L, --candidate-label L, --metric TASK=METRIC[,FILTER], --map B=C,\n"
           "      --allow-incomparable       two runs: as for compare\n";
}

int cmdAnswers(Args& a, std::ostream& out, std::ostream& err) {
    std::vector<std::string> positional;
    std::string task, candidate, value, baselineLabel = "BF16", candidateLabel = "FP8";
    Format format = Format::Text;
    Kind kind = Kind::All;
    bool lost = false, gained = false, runOnly = false;
    std::optional<std::uint64_t> examples;
    ComparisonOptions options;
    while (!a.done()) {
        if (a.option("--task", value)) {
            if (value.empty()) throw UsageError{"--task needs a task or group name"};
            task = value;
        } else if (a.flag("--lost")) {
            lost = true;
        } else if (a.flag("--gained")) {
            gained = true;
        } else if (a.option("--format", value)) {
            format = parseFormat(value);
        } else if (a.option("--candidate", value)) {
            candidate = value;
        } else if (a.option("--answer-examples", value)) {
            examples = parseAnswerExamples(value);
        } else if (a.option("--baseline-label", value)) {
            baselineLabel = value;
            runOnly = true;
        } else if (a.option("--candidate-label", value)) {
            candidateLabel = value;
            runOnly = true;
        } else if (a.option("--metric", value)) {
            auto o = MetricOverride::parse(value);
            if (!o) throw UsageError{o.error().message};
            options.overrides.push_back(std::move(o).value());
            runOnly = true;
        } else if (a.option("--map", value)) {
            auto m = TaskMapping::parse(value);
            if (!m) throw UsageError{m.error().message};
            options.taskMap.push_back(std::move(m).value());
            runOnly = true;
        } else if (a.flag("--allow-incomparable")) {
            options.allowIncomparable = true;
            runOnly = true;
        } else if (a.peek().size() > 1 && a.peek()[0] == '-') {
            throw UsageError{"answers: unknown option " + a.peek()};
        } else {
            positional.push_back(a.next());
        }
    }
    if (positional.empty() || positional.size() > 2)
        throw UsageError{
            "answers needs a comparison file (FILE.fp8cmp) or two lm-eval runs (BASELINE CANDIDATE), got " +
            std::to_string(positional.size()) + " paths"};
    if (task.empty()) throw UsageError{"answers needs --task T (a task or group of the comparison)"};
    if (lost && gained) throw UsageError{"answers: choose --lost or --gained (neither lists both)"};
    kind = lost ? Kind::Lost : gained ? Kind::Gained : Kind::All;
    const bool fromFile = positional.size() == 1;
    if (fromFile && (examples || runOnly))
        throw UsageError{
            "answers: --answer-examples, --baseline-label, --candidate-label, --metric, --map and --allow-incomparable "
            "go with two lm-eval runs; a comparison file shows what it was saved with"};
    if (!fromFile && !candidate.empty())
        throw UsageError{
            "answers: --candidate chooses among a comparison file's candidates; two runs have one "
            "(--candidate-label names it)"};

    ComparisonDocument doc;
    std::vector<std::string> pairingNotes;
    if (fromFile) {
        auto loaded = loadComparisonFile(positional[0]);
        if (!loaded) {
            err << "fp8dash: " << errorText(loaded.error().message) << "\n";
            return kExitBadInput;
        }
        doc = std::move(loaded).value();
        if (!doc.hasEvals) {
            err << "fp8dash: answers: " << oneLine(positional[0])
                << " holds no lm-eval runs, so no paired task (its evidence is a judge, a timeline, benchmarks or "
                   "capacity)\n";
            return kExitBadInput;
        }
    } else {
        ComparisonInputs inputs;
        inputs.baselinePath = positional[0];
        inputs.candidatePath = positional[1];
        inputs.baselineLabel = baselineLabel;
        inputs.candidateLabel = candidateLabel;
        inputs.answerExamples = examples.value_or(kDefaultAnswerExamples);
        inputs.options = options;
        int lastTenth = -1;
        auto built = buildComparison(inputs, sampleLogProgress(err, lastTenth));
        if (!built) {
            err << "fp8dash: " << errorText(built.error().message) << "\n";
            return kExitBadInput;
        }
        doc = std::move(built->document);
        pairingNotes = std::move(built->pairingNotes);
    }

    Source src{&doc.paired, doc.baseline.label, doc.candidate.label};
    if (!candidate.empty() && candidate != doc.candidate.label) {
        const auto found = std::find_if(doc.moreCandidates.begin(), doc.moreCandidates.end(),
                                        [&](const CandidateRecord& c) { return c.run.label == candidate; });
        if (found == doc.moreCandidates.end()) {
            std::string labels = "\n  " + oneLine(doc.candidate.label);
            for (const auto& c : doc.moreCandidates) labels += "\n  " + oneLine(c.run.label);
            err << "fp8dash: "
                << errorText("answers: no candidate labelled \"" + oneLine(candidate) + "\" in " +
                             oneLine(positional[0]) + "; its candidates:" + labels)
                << "\n";
            return kExitBadInput;
        }
        src.paired = &found->paired;
        src.candidateLabel = found->run.label;
    }

    const auto it = src.paired->find(task);
    if (it == src.paired->end()) {
        const std::string shown = "\"" + oneLine(task) + "\"";
        if (isRunTask(doc, task))
            err << "fp8dash: answers: " << shown
                << " was not paired: " << notPairedWhy(task, doc, src, fromFile ? nullptr : &pairingNotes) << "\n";
        else
            err << "fp8dash: "
                << errorText("answers: no task " + shown + " in the comparison" + pairedList(*src.paired)) << "\n";
        return kExitBadInput;
    }
    const PairedTaskResult& r = it->second;
    const std::string name = "\"" + oneLine(task) + "\"";
    // A file is untrusted: a paired result that the comparison leaves out (it contradicts itself or the runs' scores,
    // recheckStoredPaired) is not shown here either, as `report` and the app do not show it.
    if (fromFile) {
        if (const std::string why = leftOutWhy(doc, src, task); !why.empty()) {
            err << "fp8dash: answers: " << name << ": the comparison leaves the file's paired result out, as it does "
                << "not hold: " << oneLine(why) << "\n";
            return kExitBadInput;
        }
    }
    if (!r.changed || r.changed->n() == 0) {
        err << "fp8dash: answers: " << name
            << ": the changed answers are not known (no pair was tested, or the file was saved before fp8dash counted "
               "them for a metric that is not 0/1)\n";
        return kExitBadInput;
    }
    const std::string counts = oneLine(changedAnswersSentence(*r.changed, src.candidateLabel));
    if (r.examples.empty() && r.changed->lost + r.changed->gained > 0) {
        if (!r.examplesLimit)
            err << "fp8dash: answers: " << name
                << ": the comparison file was saved by an fp8dash that kept only the counts, not the documents ("
                << counts << "); run fp8dash compare on the runs again to see them\n";
        else if (*r.examplesLimit == 0)
            err << "fp8dash: answers: " << name << ": --answer-examples 0 was used: only the counts are saved ("
                << counts << ")\n";
        else
            err << "fp8dash: answers: " << name << ": no changed answer was kept (" << counts << ")\n";
        return kExitBadInput;
    }

    std::vector<const ChangedAnswerExample*> shown;
    for (const auto& e : r.examples)
        if (kind == Kind::All || e.lost == (kind == Kind::Lost)) shown.push_back(&e);
    std::stable_partition(shown.begin(), shown.end(), [](const ChangedAnswerExample* e) { return e->lost; });
    switch (format) {
        case Format::Text:
            printText(task, r, src, shown, kind, out);
            break;
        case Format::Markdown:
            printMarkdown(task, r, src, shown, kind, out);
            break;
        case Format::Json:
            printJson(task, r, src, shown, kind, out);
            break;
    }
    return kExitOk;
}

}  // namespace fp8dash::cli
