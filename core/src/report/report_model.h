#pragma once
// The whole-comparison report as data (report_document.h): sections of blocks (paragraphs, lists, tables, figures)
// that one builder fills (report_sections.cpp, report_production_sections.cpp) and two writers turn into HTML
// (report_html.cpp) and Markdown (report_markdown.cpp), so both say the same. Internal to core.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "fp8dash/core/comparison_file.h"
#include "fp8dash/core/report_document.h"

namespace fp8dash::report_doc {

enum class Tone { None, Go, Monitor, Investigate, Muted, Warning };

inline Tone toneOf(Verdict v) {
    switch (v) {
        case Verdict::Go:
            return Tone::Go;
        case Verdict::Monitor:
            return Tone::Monitor;
        case Verdict::Investigate:
            return Tone::Investigate;
    }
    return Tone::None;
}

// A piece of inline text.
struct Span {
    std::string text;
    bool strong = false;
    bool code = false;  // an identifier: a task, metric, model or query
    Tone tone = Tone::None;
};
using Line = std::vector<Span>;

inline Line plain(std::string text) {
    return {Span{std::move(text)}};
}
inline Line strong(std::string text, Tone tone = Tone::None) {
    return {Span{std::move(text), true, false, tone}};
}
inline Line code(std::string text) {
    return {Span{std::move(text), false, true}};
}
inline Line toned(std::string text, Tone tone) {
    return {Span{std::move(text), false, false, tone}};
}
inline Line operator+(Line a, const Line& b) {
    a.insert(a.end(), b.begin(), b.end());
    return a;
}

struct Cell {
    Cell() = default;
    explicit Cell(Line l) : line(std::move(l)) {}
    Line line;
    std::string sub;         // a second, smaller line (a standard error); Markdown appends it
    bool subCode = false;    // the sub line is an identifier (a results-file key): code, after " · " in Markdown
    int indent = 0;          // subtask depth
    Tone fill = Tone::None;  // a tinted cell (verdicts)
};
inline Cell cell(std::string text) {
    return Cell{plain(std::move(text))};
}

enum class Align { Left, Right, Center };

struct Table {
    std::vector<std::string> header;
    std::vector<Align> align;  // per column; Left when absent
    std::vector<std::vector<Cell>> rows;
    bool keyValue = false;  // a two-column fact sheet: the first column is a label
    std::string cls;        // an extra class for the stylesheet ("evals": the wide task table)
    // Rows a link can point at (the task table's, "report.html#task-gsm8k"): each row's name ("" or absent: none).
    // The web page's writer makes it the row's id: rowIdPrefix + the name percent-encoded as a URL fragment (the
    // characters A-Z a-z 0-9 - . _ ~ kept, every other byte %XX), so a browser finds it from the name typed in a link;
    // a name already used on the page gets "-2", "-3".
    std::vector<std::string> rowNames;
    std::string rowIdPrefix = "task-";
};

enum class Only { Both, Html, Markdown };

struct Block {
    enum class Kind { Paragraph, Bullets, Table, Figure, Heading, Banner };
    Kind kind = Kind::Paragraph;
    Only only = Only::Both;
    Line line;                // Paragraph, Heading, Banner (the advice)
    std::vector<Line> items;  // Bullets
    Table table;
    const ReportChart* chart = nullptr;  // Figure
    std::optional<Verdict> verdict;      // Banner
    std::string bannerTitle;             // Banner: "GO", "NO VERDICT"
    bool clean = true;                   // Banner: false for a verdict with a caveat (verdict_headline.h)
};

struct Section {
    std::string id;
    std::string title;
    std::vector<Block> blocks;

    void paragraph(Line l, Only only = Only::Both) {
        Block b;
        b.line = std::move(l);
        b.only = only;
        blocks.push_back(std::move(b));
    }
    void heading(std::string text) {
        Block b;
        b.kind = Block::Kind::Heading;
        b.line = plain(std::move(text));
        blocks.push_back(std::move(b));
    }
    void bullets(std::vector<Line> items) {
        if (items.empty()) return;
        Block b;
        b.kind = Block::Kind::Bullets;
        b.items = std::move(items);
        blocks.push_back(std::move(b));
    }
    void table(Table t, Only only = Only::Both) {
        Block b;
        b.kind = Block::Kind::Table;
        b.table = std::move(t);
        b.only = only;
        blocks.push_back(std::move(b));
    }
    void figure(const ReportChart* chart) {
        if (!chart) return;
        Block b;
        b.kind = Block::Kind::Figure;
        b.chart = chart;
        blocks.push_back(std::move(b));
    }
};

struct Report {
    std::string title;
    Table meta;
    std::vector<Section> sections;
    std::string footer;
};

// The report of `doc` (the sections it has data for), then written by either writer.
Report buildReport(const ComparisonDocument& doc, const Decision& d, const ReportContext& ctx);
std::string writeHtml(const Report& report, ReportHtmlFlavour flavour, int maxImageWidth);
std::string writeMarkdown(const Report& report);

}  // namespace fp8dash::report_doc
