// The report's Markdown writer (report_model.h): headings, lists and pipe tables through the one Markdown escaper
// (markdown_text.h); a chart is its caption line and data table, which the builder adds for Markdown.
#include "fp8dash/core/markdown_text.h"
#include "report/report_model.h"

namespace fp8dash::report_doc {
namespace {

using markdown::Where;

std::string mdSpans(const Line& line, Where where) {
    std::string out;
    for (const Span& s : line) {
        const auto start = out.empty() ? markdown::Start::Line : markdown::Start::MidLine;
        std::string text = s.code ? markdown::code(s.text, where) : markdown::escape(s.text, where, start);
        if (s.strong && !text.empty()) text = "**" + text + "**";
        out += text;
    }
    return out;
}

markdown::Align mdAlign(Align a) {
    return a == Align::Right    ? markdown::Align::Right
           : a == Align::Center ? markdown::Align::Center
                                : markdown::Align::Left;
}

std::string mdTable(const Table& t) {
    std::vector<markdown::Align> align;
    for (Align a : t.align) align.push_back(mdAlign(a));
    std::vector<std::vector<std::string>> rows;
    for (const auto& row : t.rows) {
        std::vector<std::string> cells;
        for (const Cell& c : row) {
            std::string text;
            for (int d = 0; d < c.indent; ++d) text += "↳ ";
            text += mdSpans(c.line, Where::TableCell);
            if (!c.sub.empty())
                text += c.subCode ? " · " + markdown::code(c.sub, Where::TableCell)
                                  : " (" + markdown::escape(c.sub, Where::TableCell) + ")";
            if (t.keyValue && &c == &row.front()) text = text.empty() ? text : "**" + text + "**";
            cells.push_back(std::move(text));
        }
        rows.push_back(std::move(cells));
    }
    return markdown::table(t.header, align, rows);
}

std::string mdBlock(const Block& b) {
    switch (b.kind) {
        case Block::Kind::Paragraph:
            return "\n" + mdSpans(b.line, Where::Text) + "\n";
        case Block::Kind::Heading:
            return "\n### " + mdSpans(b.line, Where::Heading) + "\n";
        case Block::Kind::Bullets: {
            std::string out = "\n";
            for (const Line& item : b.items) out += "- " + mdSpans(item, Where::Text) + "\n";
            return out;
        }
        case Block::Kind::Table:
            return "\n" + mdTable(b.table);
        case Block::Kind::Figure:
            return "";  // Markdown has the chart's line and data table instead
        case Block::Kind::Banner:
            return "\n" + std::string(b.clean ? "" : "⚠ ") + "**" + markdown::escape(b.bannerTitle) + "** — " +
                   mdSpans(b.line, Where::Text) + "\n";
    }
    return "";
}

}  // namespace

std::string writeMarkdown(const Report& r) {
    std::string out = "# " + markdown::escape(r.title, Where::Heading) + "\n\n";
    for (const auto& row : r.meta.rows)
        out += "- **" + mdSpans(row[0].line, Where::Text) + ":** " + mdSpans(row[1].line, Where::Text) + "\n";
    for (const auto& s : r.sections) {
        out += "\n## " + markdown::escape(s.title, Where::Heading) + "\n";
        for (const Block& b : s.blocks)
            if (b.only != Only::Html) out += mdBlock(b);
    }
    out += "\n---\n\n" + markdown::escape(r.footer) + "\n";
    return out;
}

}  // namespace fp8dash::report_doc
