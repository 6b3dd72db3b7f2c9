#pragma once
// The report of a whole comparison (README "Reports"), one self-contained document: title, file, dates
// and tool version; the overall verdict with its advice and every reason; the review decision in force (with
// assessReview's warnings) and the earlier ones; the FP8 configuration of both runs; the eval table (subtasks
// indented) with the tasks not compared, the risk flags and the statistics; the domain judge; the production
// timeline; the local benchmarks; the KV-cache capacity plan; the notes. Sections the document lacks are left out.
//
// As HTML (a page that needs nothing else: a stylesheet with print rules for A4, the charts embedded as
// data:image/png;base64 URIs) or in the flavour Qt's rich text understands (for the PDF writer, charts referenced by
// chartResourceName), and as Markdown (tables and text; charts, which Markdown cannot embed portably, are given by
// the tables of their data and a line saying the HTML and PDF reports draw them). The charts are input data (PNG
// bytes drawn by the ui); everything else derives from the document and its Decision, and the time of writing is
// an input too, so equal inputs give byte-equal output. All text is escaped. Pure functions; thread-safe.

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "fp8dash/core/comparison_file.h"
#include "fp8dash/core/result.h"

namespace fp8dash {

// A chart drawn for the report.
struct ReportChart {
    std::string key;      // "evals-forest" (several candidates: "evals-forest-<k>", the k-th candidate's, from 1),
                          // "long-context", "judge-distribution", "timeline", "bench-roofline", "bench-speedup",
                          // "bench-kv", "serving"
    std::string title;    // "Domain judge: score distribution"
    std::string caption;  // what it shows, one sentence; also the image's alternative text
    std::string png;      // the PNG file's bytes
    int width = 0;        // display size in CSS pixels (the image may have more pixels, e.g. twice as many for print)
    int height = 0;
};

// The changed answers in a report (README "The answers FP8 changed"): per monitor or investigate task whose paired
// result kept examples, the counts and the first kReportAnswerExamples lost answers (the file's order: the first lost
// ones the pairing kept), each text shown up to kReportAnswerExcerptChars characters (a visible "…" and a note that
// the comparison file holds the rest), so that a PDF page stays readable. The comparison file keeps each text up to
// kAnswerTextBytes (changed_answers.h).
inline constexpr std::size_t kReportAnswerExamples = 3;
inline constexpr std::size_t kReportAnswerExcerptChars = 600;

struct ReportContext {
    std::string source;       // the comparison file as the user named it, "the bundled demo", or "" (not saved)
    std::string generatedAt;  // when the report is written, ISO 8601 UTC (shown readable)
    std::string toolVersion;  // the fp8dash writing it
    // The charts, placed in their sections by key: judge-distribution with the judge, timeline with the production
    // timeline, bench-* with the benchmarks, serving with "What FP8 buys on your server". A chart whose section the
    // document lacks is left out.
    std::vector<ReportChart> charts;
    // The lost answers shown per monitor or investigate task (0: the counts only), and each text's excerpt length.
    std::size_t answerExamples = kReportAnswerExamples;
    std::size_t answerExcerptChars = kReportAnswerExcerptChars;
};

enum class ReportHtmlFlavour {
    Browser,   // a web page: the full stylesheet, charts as data: URIs
    RichText,  // QTextDocument's HTML subset (tables for boxes, its CSS subset); charts as chartResourceName(key)
};

// The name a RichText report gives a chart's image, for QTextDocument::addResource: "fp8dash-chart-<key>.png".
std::string chartResourceName(std::string_view key);

// The report's title: the document's title, else "<baseline label> vs <candidate label>" ("FP8 comparison" without
// runs); with several candidates every one of them ("BF16 vs FP8 W8A8, FP8 W8A8 + FP8 KV (scales 1.0), …": the cover
// names them all).
std::string reportTitle(const ComparisonDocument& doc);
// The title a page header repeats: reportTitle; with several candidates the runs by name instead (compare's own title,
// "BF16 vs 3 variants: <model>", names none), shortened to kRunningTitleChars (variant_text::runsLineShort: the
// candidates that fit, then "and N more"; the cover lists them all).
inline constexpr std::size_t kRunningTitleChars = 90;
std::string reportRunningTitle(const ComparisonDocument& doc);

// `decision` is decide(doc) (the caller has it already). `maxImageWidth` (CSS pixels, RichText only; 0: none) caps
// a chart's width so it fits the page, keeping its aspect ratio.
std::string reportToHtml(const ComparisonDocument& doc, const Decision& decision, const ReportContext& context,
                         ReportHtmlFlavour flavour = ReportHtmlFlavour::Browser, int maxImageWidth = 0);
std::string reportToMarkdownDocument(const ComparisonDocument& doc, const Decision& decision,
                                     const ReportContext& context);

// & < > " ' as character references; controls, bidi overrides and bad UTF-8 as visible escapes (visibleControls).
std::string htmlEscape(std::string_view text);

// The report's file formats. Text and JSON are what `fp8dash report` prints (decisionToText with the notes;
// decisionToJson, the stable JSON); PDF is drawn by the ui (report_exporter.h).
enum class ReportFileFormat { Html, Pdf, Markdown, Text, Json };
// By the file name's extension, case-insensitive: .html/.htm, .pdf, .md/.markdown, .txt, .json; nullopt otherwise.
std::optional<ReportFileFormat> reportFormatForPath(std::string_view path);
std::string_view reportFormatSuffix(ReportFileFormat f);  // "html", "pdf", "md", "txt", "json"

// `fp8dash report`'s text: decisionToText under the report's title, then the changed answers (as the HTML report
// shows them: the counts and the first `answerExamples` lost answers of each monitor or investigate task, each text
// cut at kReportAnswerExcerptChars), then the review decision in force (with its warnings) and the earlier ones, then
// the notes ("[task] text (author, time)"). Every text from data on one line, its controls shown.
std::string reportToPlainText(const ComparisonDocument& doc, const Decision& decision,
                              std::size_t answerExamples = kReportAnswerExamples);
// The stable JSON of every report (compare, timeline, report, demo, File › Export): decisionToJson's keys plus the
// document's "notes" and "review" (README "JSON output").
Json comparisonToJson(const ComparisonDocument& doc, const Decision& decision);
// The report in a format core writes: HTML (browser flavour), Markdown, text, JSON (indented, newline-terminated).
// PDF is an Error naming the ui.
Result<std::string> renderReport(const ComparisonDocument& doc, const Decision& decision, const ReportContext& context,
                                 ReportFileFormat format);

}  // namespace fp8dash
