// The report's HTML writer (report_model.h): a self-contained web page (stylesheet with print rules, charts as data:
// URIs) or the subset Qt's rich text draws for the PDF (tables for boxes, charts by resource name).
#include <algorithm>
#include <cmath>
#include <set>
#include <string>

#include "fp8dash/core/untrusted_text.h"
#include "report/report_model.h"
#include "text_util.h"

namespace fp8dash::report_doc {
namespace {

struct Palette {
    const char* strong;  // banner background
    const char* tint;    // cell background
    const char* text;    // foreground on the tint
};
// The app's verdict colours (ui_style.cpp), so the report looks like the window.
Palette paletteOf(Tone t) {
    switch (t) {
        case Tone::Go:
            return {"#1e7d32", "#dff1e1", "#145a23"};
        case Tone::Monitor:
            return {"#b26a00", "#ffecc4", "#7a4500"};
        case Tone::Investigate:
            return {"#c62828", "#fbdcdc", "#9b1c1c"};
        case Tone::Warning:
            return {"#b26a00", "#ffecc4", "#7a4500"};
        case Tone::Muted:
            return {"#5f6368", "#eceff1", "#57606a"};
        case Tone::None:
            break;
    }
    return {"#5f6368", "#eceff1", "#1f2328"};
}

const char* kBrowserStyle = R"css(
:root { color-scheme: light; }
body { font-family: "DejaVu Sans", "Segoe UI", "Helvetica Neue", Arial, sans-serif; font-size: 17px; line-height: 1.45;
       color: #1f2328; background: #ffffff; max-width: 1180px; margin: 2em auto; padding: 0 1.5em; }
h1 { font-size: 2em; margin: 0 0 0.4em; }
h2 { font-size: 1.4em; margin: 1.6em 0 0.5em; padding-bottom: 0.2em; border-bottom: 2px solid #d0d7de; }
h3 { font-size: 1.1em; margin: 1.2em 0 0.4em; }
p, ul { margin: 0.4em 0 0.8em; }
li { margin: 0.15em 0; }
table { border-collapse: collapse; margin: 0.5em 0 1em; }
th, td { border: 1px solid #d0d7de; padding: 0.3em 0.6em; vertical-align: top; text-align: left; }
th { background: #f3f4f6; font-weight: 600; }
td.r, th.r { text-align: right; white-space: nowrap; font-variant-numeric: tabular-nums; }
td.c, th.c { text-align: center; white-space: nowrap; }
table.kv th, table.kv td { border: none; padding: 0.15em 1.2em 0.15em 0; }
table.kv td.label { color: #57606a; white-space: nowrap; }
table.meta { color: #57606a; }
table.banner { width: 100%; border: none; margin: 0.4em 0 0.8em; }
table.banner td { border: none; color: #ffffff; padding: 0.7em 1em; vertical-align: middle; }
table.banner td.title { font-size: 2em; font-weight: bold; white-space: nowrap; width: 1%; }
table.banner td.advice { font-size: 1.15em; }
.sub { display: block; font-size: 0.78em; color: #57606a; }
.indent1 { padding-left: 1.6em; } .indent2 { padding-left: 3em; } .indent3 { padding-left: 4.4em; }
code { font-family: "DejaVu Sans Mono", Menlo, Consolas, monospace; font-size: 0.9em; }
table.answers { width: 100%; table-layout: fixed; }
table.answers td { overflow-wrap: anywhere; }
table.answers tr > :first-child { width: 6.5em; }
figure { margin: 0.8em 0 1.2em; }
figure img { max-width: 100%; height: auto; border: 1px solid #d0d7de; }
figcaption { font-size: 0.9em; color: #57606a; margin-top: 0.3em; }
footer { margin-top: 2.5em; padding-top: 0.5em; border-top: 1px solid #d0d7de; color: #57606a; font-size: 0.85em; }
@page { size: A4; margin: 16mm 14mm; }
@media print {
  body { font-size: 10pt; max-width: none; margin: 0; padding: 0; }
  h2 { font-size: 14pt; }
  table, figure, tr, table.banner { break-inside: avoid; page-break-inside: avoid; }
  h2, h3 { break-after: avoid; page-break-after: avoid; }
  thead { display: table-header-group; }
  * { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
}
)css";

// Qt's rich text: no :root, @media or display; borders come from the table attributes. Sizes in pt follow the paint
// device (the PDF writer's resolution).
const char* kRichTextStyle = R"css(
body { font-family: "DejaVu Sans"; font-size: 9pt; color: #1f2328; }
h1 { font-size: 17pt; font-weight: bold; margin-bottom: 4px; }
h2 { font-size: 12.5pt; font-weight: bold; margin-top: 16px; margin-bottom: 4px; color: #1f2328; }
h3 { font-size: 10pt; font-weight: bold; margin-top: 10px; margin-bottom: 2px; }
p { margin-top: 3px; margin-bottom: 5px; }
li { margin-top: 1px; margin-bottom: 1px; }
table.grid { border-collapse: collapse; border-color: #c5ccd3; margin-top: 3px; margin-bottom: 8px; }
table.grid th { background-color: #eef0f3; font-weight: bold; text-align: left; }
table.evals { font-size: 7.5pt; }
table.evals code { font-size: 7pt; }
table.answers { font-size: 8pt; }
table.kv td.label { color: #57606a; padding-right: 10px; white-space: nowrap; }
table.meta { color: #57606a; }
/* Headers wrap at word boundaries (only the numbers below them do not): long nowrap headers took the width of the
   table's text columns, which Qt then broke a letter a line. */
th.r { text-align: right; }
th.c { text-align: center; }
td.r { text-align: right; white-space: nowrap; }
td.c { text-align: center; white-space: nowrap; }
td.nw { white-space: nowrap; }
table.banner td { color: #ffffff; }
td.title { font-size: 18pt; font-weight: bold; }
td.advice { font-size: 11pt; }
.sub { font-size: 7pt; color: #57606a; }
code { font-family: "DejaVu Sans Mono"; font-size: 8pt; }
p.figcaption { font-size: 8pt; color: #57606a; }
p.footer { font-size: 7.5pt; color: #57606a; }
)css";

class HtmlWriter {
public:
    HtmlWriter(ReportHtmlFlavour flavour, int maxImageWidth)
        : m_rich(flavour == ReportHtmlFlavour::RichText), m_maxWidth(maxImageWidth) {}

    std::string write(const Report& r) {
        m_out += "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
        m_out += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n";
        m_out += "<title>" + htmlEscape(r.title) + "</title>\n<style>" + (m_rich ? kRichTextStyle : kBrowserStyle) +
                 "</style>\n</head>\n<body>\n";
        m_out += "<h1>" + htmlEscape(r.title) + "</h1>\n";
        table(r.meta, "meta");
        for (const auto& s : r.sections) m_ids.insert(s.id);  // the sections' ids first: no row takes one
        for (const auto& s : r.sections) section(s);
        if (m_rich)
            m_out += "<p class=\"footer\">" + htmlEscape(r.footer) + "</p>\n";
        else
            m_out += "<footer>" + htmlEscape(r.footer) + "</footer>\n";
        m_out += "</body>\n</html>\n";
        return std::move(m_out);
    }

private:
    static std::string style(Tone t, bool fill) {
        if (t == Tone::None) return "";
        const Palette p = paletteOf(t);
        return fill ? std::string(" style=\"background-color:") + p.tint + ";color:" + p.text + "\""
                    : std::string(" style=\"color:") + p.text + "\"";
    }

    std::string spans(const Line& line) const {
        std::string out;
        for (const Span& s : line) {
            std::string text = htmlEscape(s.text);
            // Line breaks in free text (notes, reasons) stay line breaks.
            for (auto pos = text.find('\n'); pos != std::string::npos; pos = text.find('\n', pos + 4))
                text.replace(pos, 1, "<br>");
            if (s.code && m_rich && s.text.size() > kShortIdentifier) text = breakable(text);
            if (s.code) text = "<code>" + text + "</code>";
            if (s.strong) text = "<strong>" + text + "</strong>";
            if (s.tone != Tone::None) text = "<span" + style(s.tone, false) + ">" + text + "</span>";
            out += text;
        }
        return out;
    }

    // A short identifier ("per_tensor", "domain-003") stays on one line: its cell does not wrap (nowrap below), so
    // Qt's table layout gives its column the whole word instead of squeezing it to a letter a line.
    static constexpr std::size_t kShortIdentifier = 12;
    static bool shortIdentifier(const Cell& c) {
        return c.line.size() == 1 && c.line[0].code && c.line[0].text.size() <= kShortIdentifier && c.sub.empty() &&
               c.line[0].text.find_first_of(" \n") == std::string::npos;
    }

    // Qt's rich text breaks a long identifier anywhere when a column is narrow: offer a zero-width space after
    // ',', '/' and '_' instead ("mmlu_high_school_physics", "org/model"), and in a path after '-' too, where Unicode
    // line breaking offers none between digits ("results_2026-11-30T09-00-00.000001.json" in a column of five runs).
    static std::string breakable(const std::string& text) {
        const bool path = text.find('/') != std::string::npos;
        std::string out;
        for (char c : text) {
            out += c;
            if (c == ',' || c == '/' || c == '_' || (path && c == '-')) out += "\u200b";
        }
        return out;
    }

    static const char* alignClass(const Table& t, std::size_t i) {
        if (i >= t.align.size()) return "";
        return t.align[i] == Align::Right ? "r" : t.align[i] == Align::Center ? "c" : "";
    }

    void table(const Table& t, const std::string& extraClass = "") {
        std::string cls = t.keyValue ? "kv" : "grid";
        if (!t.cls.empty()) cls += " " + t.cls;
        if (!extraClass.empty()) cls += " " + extraClass;
        // Rich text draws borders from the attributes; a browser from the stylesheet.
        const bool border = m_rich && !t.keyValue;
        m_out += "<table class=\"" + cls + "\"" +
                 (border ? " border=\"1\" cellspacing=\"0\" cellpadding=\"3\" width=\"100%\"" : "") +
                 (m_rich && t.keyValue ? " cellspacing=\"0\" cellpadding=\"1\"" : "") + ">\n";
        if (!t.keyValue) {
            m_out += "<thead><tr>";
            for (std::size_t i = 0; i < t.header.size(); ++i) {
                const std::string a = alignClass(t, i);
                m_out += "<th" + (a.empty() ? "" : " class=\"" + a + "\"") + ">" + htmlEscape(t.header[i]) + "</th>";
            }
            m_out += "</tr></thead>\n";
        }
        m_out += "<tbody>\n";
        for (std::size_t r = 0; r < t.rows.size(); ++r) {
            const auto& row = t.rows[r];
            // A row a link can point at (the web page only: Qt's rich text has no use for it).
            const bool named = !m_rich && r < t.rowNames.size() && !t.rowNames[r].empty();
            m_out += named ? "<tr id=\"" + uniqueId(t.rowIdPrefix + fragmentEncodedRowName(t.rowNames[r])) + "\">"
                           : std::string("<tr>");
            for (std::size_t i = 0; i < row.size(); ++i) {
                const Cell& c = row[i];
                std::string classes = t.keyValue && i == 0 ? "label" : alignClass(t, i);
                if (m_rich && shortIdentifier(c) && classes.empty()) classes = "nw";
                // A metric's words over its key ("exact match (strict)" / "exact_match,strict-match") stay two whole
                // lines: Qt's layout narrows a column that may wrap below its longest word and then breaks words
                // anywhere ("exact_matc" / "h"); a cell that does not wrap keeps its width.
                if (m_rich && c.subCode && classes.empty()) classes = "nw";
                if (c.indent > 0 && !m_rich)
                    classes +=
                        (classes.empty() ? "" : " ") + std::string("indent") + std::to_string(std::min(c.indent, 3));
                std::string attrs = classes.empty() ? "" : " class=\"" + classes + "\"";
                if (c.fill != Tone::None) {
                    attrs += style(c.fill, true);
                    if (m_rich) attrs += std::string(" bgcolor=\"") + paletteOf(c.fill).tint + "\"";
                }
                std::string content = spans(c.line);
                if (c.indent > 0) {
                    // Rich text has no padding classes: it indents with non-breaking spaces before the arrow.
                    std::string lead;
                    for (int k = 0; m_rich && k < c.indent * 3; ++k) lead += "&nbsp;";
                    content = lead + "↳ " + content;
                }
                if (!c.sub.empty()) {
                    std::string sub = htmlEscape(c.sub);
                    if (c.subCode) sub = "<code>" + sub + "</code>";  // a whole line: the cell does not wrap (below)
                    content += m_rich ? "<br><span class=\"sub\">" + sub + "</span>"
                                      : "<span class=\"sub\">" + sub + "</span>";
                }
                m_out += "<td" + attrs + ">" + content + "</td>";
            }
            m_out += "</tr>\n";
        }
        m_out += "</tbody>\n</table>\n";
    }

    void banner(const Block& b) {
        const Palette p = paletteOf(b.verdict ? toneOf(*b.verdict) : Tone::Muted);
        if (!b.clean) {
            // A verdict with a caveat is never a solid verdict colour: dark grey, a dashed border in the verdict's
            // colour, and the word in its light tint (verdict_headline.h), in the browser and in the PDF alike.
            m_out += std::string(
                         "<table class=\"banner caveat\" width=\"100%\" cellspacing=\"0\" cellpadding=\"10\""
                         " bgcolor=\"#2f3336\" style=\"background-color:#2f3336; border:4px dashed ") +
                     p.strong + "\"><tr><td class=\"title\" style=\"color:" + p.tint + "\"><font color=\"" + p.tint +
                     "\">⚠ " + htmlEscape(b.bannerTitle) + "</font></td><td class=\"advice\">" + spans(b.line) +
                     "</td></tr></table>\n";
            return;
        }
        m_out += std::string("<table class=\"banner\" width=\"100%\" cellspacing=\"0\" cellpadding=\"10\" bgcolor=\"") +
                 p.strong + "\" style=\"background-color:" + p.strong + "\"><tr><td class=\"title\">" +
                 htmlEscape(b.bannerTitle) + "</td><td class=\"advice\">" + spans(b.line) + "</td></tr></table>\n";
    }

    void figure(const ReportChart& c) {
        int w = c.width, h = c.height;
        if (m_rich && m_maxWidth > 0 && w > m_maxWidth && w > 0) {
            h = static_cast<int>(std::lround(static_cast<double>(h) * m_maxWidth / w));
            w = m_maxWidth;
        }
        const std::string src = m_rich ? chartResourceName(c.key) : "data:image/png;base64," + text::base64(c.png);
        const std::string img = "<img src=\"" + htmlEscape(src) + "\" alt=\"" + htmlEscape(c.caption) + "\"" +
                                (w > 0 ? " width=\"" + std::to_string(w) + "\"" : "") +
                                (h > 0 ? " height=\"" + std::to_string(h) + "\"" : "") + ">";
        if (m_rich) {
            m_out += "<p class=\"figure\">" + img + "</p>\n<p class=\"figcaption\"><b>" + htmlEscape(c.title) +
                     ".</b> " + htmlEscape(c.caption) + "</p>\n";
        } else {
            m_out += "<figure id=\"chart-" + htmlEscape(c.key) + "\">" + img + "<figcaption><strong>" +
                     htmlEscape(c.title) + ".</strong> " + htmlEscape(c.caption) + "</figcaption></figure>\n";
        }
    }

    // The characters a URL fragment keeps as they are (RFC 3986's unreserved); every other byte is %XX, so the id is
    // what a browser looks for when the name is typed in a link, and is safe inside an attribute.
    static std::string fragmentEncodedRowName(const std::string& name) {
        static const char* hex = "0123456789ABCDEF";
        std::string out;
        for (const unsigned char c : name) {
            if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '.' ||
                c == '_' || c == '~') {
                out += static_cast<char>(c);
            } else {
                out += '%';
                out += hex[c >> 4];
                out += hex[c & 15];
            }
        }
        return out;
    }

    // `id`, or "<id>-2", "<id>-3" … when the page has it already (a task twice in one table).
    std::string uniqueId(const std::string& id) {
        std::string candidate = id;
        for (int n = 2; !m_ids.insert(candidate).second; ++n) candidate = id + "-" + std::to_string(n);
        return candidate;
    }

    void section(const Section& s) {
        m_out += m_rich ? "<div id=\"" + htmlEscape(s.id) + "\">\n" : "<section id=\"" + htmlEscape(s.id) + "\">\n";
        m_out += "<h2>" + htmlEscape(s.title) + "</h2>\n";
        for (const Block& b : s.blocks) {
            if (b.only == Only::Markdown) continue;
            switch (b.kind) {
                case Block::Kind::Paragraph:
                    m_out += "<p>" + spans(b.line) + "</p>\n";
                    break;
                case Block::Kind::Heading:
                    m_out += "<h3>" + spans(b.line) + "</h3>\n";
                    break;
                case Block::Kind::Bullets:
                    m_out += "<ul>\n";
                    for (const Line& item : b.items) m_out += "<li>" + spans(item) + "</li>\n";
                    m_out += "</ul>\n";
                    break;
                case Block::Kind::Table:
                    table(b.table);
                    break;
                case Block::Kind::Figure:
                    figure(*b.chart);
                    break;
                case Block::Kind::Banner:
                    banner(b);
                    break;
            }
        }
        m_out += m_rich ? "</div>\n" : "</section>\n";
    }

    bool m_rich;
    int m_maxWidth;
    std::string m_out;
    std::set<std::string> m_ids;  // the ids on the page so far
};

}  // namespace

std::string writeHtml(const Report& report, ReportHtmlFlavour flavour, int maxImageWidth) {
    return HtmlWriter(flavour, maxImageWidth).write(report);
}

}  // namespace fp8dash::report_doc

namespace fp8dash {

std::string htmlEscape(std::string_view raw) {
    // Controls, bidi overrides and bad UTF-8 shown as visible escapes first (untrusted_text.h): in a browser or the
    // PDF a right-to-left override reorders what a reviewer reads as it does on a terminal.
    const std::string text = visibleControls(raw);
    std::string out;
    out.reserve(text.size());
    for (char c : text) {
        switch (c) {
            case '&':
                out += "&amp;";
                break;
            case '<':
                out += "&lt;";
                break;
            case '>':
                out += "&gt;";
                break;
            case '"':
                out += "&quot;";
                break;
            case '\'':
                out += "&#39;";
                break;
            default:
                out += c;
        }
    }
    return out;
}

std::string chartResourceName(std::string_view key) {
    return "fp8dash-chart-" + std::string(key) + ".png";
}

}  // namespace fp8dash
