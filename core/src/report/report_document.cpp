// The whole-comparison report (report_document.h): its entry points and the formats core writes. The report itself
// is built as data (report_model.h: report_sections.cpp, report_production_sections.cpp) and written as HTML
// (report_html.cpp) or Markdown (report_markdown.cpp), so both say the same.
#include "fp8dash/core/report_document.h"
#include "fp8dash/core/untrusted_text.h"

#include "fp8dash/core/paired_tasks.h"
#include "fp8dash/core/report_format.h"
#include "fp8dash/core/review.h"
#include "fp8dash/core/variant_text.h"
#include "report/changed_answers_report.h"
#include "report/report_model.h"
#include "text_util.h"

namespace fp8dash {

std::string reportTitle(const ComparisonDocument& doc) {
    if (!doc.title.empty()) return doc.title;
    if (doc.hasVariants()) return variant_text::runsLine(doc.baseline.label, variant_text::candidateLabels(doc));
    if (doc.hasEvals) return doc.baseline.label + " vs " + doc.candidate.label;
    return "FP8 comparison";
}

std::string reportRunningTitle(const ComparisonDocument& doc) {
    if (doc.hasVariants())
        return variant_text::runsLineShort(doc.baseline.label, variant_text::candidateLabels(doc), kRunningTitleChars);
    return reportTitle(doc);
}

std::string reportToHtml(const ComparisonDocument& doc, const Decision& decision, const ReportContext& context,
                         ReportHtmlFlavour flavour, int maxImageWidth) {
    return report_doc::writeHtml(report_doc::buildReport(doc, decision, context), flavour, maxImageWidth);
}

std::string reportToMarkdownDocument(const ComparisonDocument& doc, const Decision& decision,
                                     const ReportContext& context) {
    return report_doc::writeMarkdown(report_doc::buildReport(doc, decision, context));
}

std::optional<ReportFileFormat> reportFormatForPath(std::string_view path) {
    const auto slash = path.find_last_of('/');
    const std::string_view name = slash == std::string_view::npos ? path : path.substr(slash + 1);
    const auto dot = name.find_last_of('.');
    if (dot == std::string_view::npos || dot == 0) return std::nullopt;
    const std::string ext = text::lower(name.substr(dot + 1));
    if (ext == "html" || ext == "htm") return ReportFileFormat::Html;
    if (ext == "pdf") return ReportFileFormat::Pdf;
    if (ext == "md" || ext == "markdown") return ReportFileFormat::Markdown;
    if (ext == "txt") return ReportFileFormat::Text;
    if (ext == "json") return ReportFileFormat::Json;
    return std::nullopt;
}

std::string_view reportFormatSuffix(ReportFileFormat f) {
    switch (f) {
        case ReportFileFormat::Html:
            return "html";
        case ReportFileFormat::Pdf:
            return "pdf";
        case ReportFileFormat::Markdown:
            return "md";
        case ReportFileFormat::Text:
            return "txt";
        case ReportFileFormat::Json:
            return "json";
    }
    return "";
}

Json comparisonToJson(const ComparisonDocument& doc, const Decision& decision) {
    Json j = decisionToJson(decision);
    Json notes = Json::array();
    for (const Note& n : doc.notes)
        notes.push_back({{"id", n.id},
                         {"text", n.text},
                         {"author", n.author},
                         {"created", n.created},
                         {"edited", n.edited.empty() ? Json(nullptr) : Json(n.edited)},
                         {"task", n.task.empty() ? Json(nullptr) : Json(n.task)}});
    j["notes"] = std::move(notes);
    Json decisions = Json::array();
    for (const ReviewDecision& r : doc.decisions) decisions.push_back(reviewDecisionToJson(r));
    Json review = {{"decisions", std::move(decisions)}, {"current", nullptr}};
    if (const ReviewDecision* current = doc.currentDecision()) {
        const ReviewAssessment a = assessReview(*current, decision);
        review["current"] = reviewDecisionToJson(*current);
        review["overrides_verdict"] = a.overridesVerdict;
        review["evidence_changed"] = a.evidenceChanged;
        review["warnings"] = a.warnings;
    }
    j["review"] = std::move(review);
    return j;
}

namespace {

// The changed answers of one candidate's evals (changed_answers_report.h), as the HTML report lists them. Every text
// from data goes through wrapText (oneLine: a line break in it is shown, never made) and visibleControls (an escape
// sequence or a bidi override shown, never acted on), whatever prints it.
std::string changedAnswersText(const ComparisonReport& r, std::size_t maxExamples, const std::string& heading) {
    const auto tasks = answers_shown::tasksToShow(r, maxExamples);
    if (tasks.empty()) return "";
    const std::size_t chars = kReportAnswerExcerptChars;
    std::string out = "\n" + heading + "\n";
    const auto line = [&out](const std::string& text, const std::string& indent) {
        out += wrapText(visibleControls(text), 100, indent);
    };
    const auto shown = [chars](const std::string& text) {
        const answers_shown::Excerpt e = answers_shown::excerpt(text, chars);
        return e.cut ? e.text + " (" + answers_shown::cutNote(e, chars) + ")" : e.text;
    };
    line(answers_shown::introduction(r.candidateLabel, maxExamples, chars), "  ");
    for (const answers_shown::TaskAnswers& t : tasks) {
        line(t.task->task + ": " + changedAnswersSentence(*t.paired->changed, r.candidateLabel) +
                 ". Verdict: " + std::string(verdictTitle(t.task->verdict)) + ".",
             "  ");
        if (t.countsOnly) {
            line(answers_shown::countsOnlyLine(), "    ");
            continue;
        }
        if (t.lost.empty() && maxExamples > 0) {
            line(answers_shown::noLostLine(t, r.candidateLabel), "    ");
            continue;
        }
        for (std::size_t k = 0; k < t.lost.size(); ++k) {
            const ChangedAnswerExample& e = *t.lost[k];
            line(answers_shown::exampleTitle(e, k, t), "    ");
            line("question: " + shown(e.question), "      ");
            line("target: " + shown(e.target), "      ");
            for (const auto& [label, side] :
                 {std::pair{&r.baselineLabel, &e.baseline}, std::pair{&r.candidateLabel, &e.candidate}}) {
                line(*label + " answer (" + answers_shown::valueText(*t.paired, side->value) +
                         "): " + shown(side->answer),
                     "      ");
                line(*label + " response: " + shown(side->response), "      ");
            }
        }
        const std::string more = answers_shown::moreLine(t, t.lost.size());
        if (!more.empty()) line(more, "    ");
    }
    return out;
}

}  // namespace

std::string reportToPlainText(const ComparisonDocument& doc, const Decision& decision, std::size_t answerExamples) {
    std::string out = decisionToText(decision, doc, oneLine(reportTitle(doc)));  // the heading's one line
    if (decision.evals && !decision.variants) {
        out += changedAnswersText(*decision.evals, answerExamples, "Changed answers");
    } else if (decision.variants) {
        for (const VariantResult& v : decision.variants->variants)
            out += changedAnswersText(v.report, answerExamples, "Changed answers: " + oneLine(v.label));
    }
    // The review: the decision in force with its warnings, then the earlier ones (newest first).
    if (const ReviewDecision* current = doc.currentDecision()) {
        out += "\nReview decision\n";
        out += wrapText(reviewSummary(*current), 100, "  ");
        for (const auto& w : assessReview(*current, decision).warnings) out += wrapText("⚠ " + w, 100, "  ");
        for (std::size_t i = doc.decisions.size() - 1; i-- > 0;)
            out += wrapText("earlier: " + reviewSummary(doc.decisions[i]), 100, "  ");
    }
    if (doc.notes.empty()) return out;
    out += "\nNotes\n";
    for (const auto& n : doc.notes) {
        const std::string who = n.author + (n.created.empty() ? "" : (n.author.empty() ? "" : ", ") + n.created);
        const std::string line =
            (n.task.empty() ? "" : "[" + n.task + "] ") + n.text + (who.empty() ? "" : " (" + who + ")");
        out += wrapText(line, 100, "  ");
    }
    return out;
}

Result<std::string> renderReport(const ComparisonDocument& doc, const Decision& decision, const ReportContext& context,
                                 ReportFileFormat format) {
    switch (format) {
        case ReportFileFormat::Html:
            return reportToHtml(doc, decision, context);
        // A text, Markdown or JSON report is read in a terminal as often as in a viewer: its controls shown, never
        // acted on (untrusted_text.h; JSON stays valid). HTML escapes its text itself.
        case ReportFileFormat::Markdown:
            return visibleControls(reportToMarkdownDocument(doc, decision, context));
        case ReportFileFormat::Text:
            return visibleControls(reportToPlainText(doc, decision));
        case ReportFileFormat::Json:
            return visibleControls(comparisonToJson(doc, decision).dump(2) + "\n");
        case ReportFileFormat::Pdf:
            break;
    }
    return Error{"a PDF report is drawn by the desktop app's libraries (fp8dash_ui), not by core"};
}

}  // namespace fp8dash
