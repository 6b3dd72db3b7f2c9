// Markdown escaping and pipe tables (markdown_text.h).
#include "fp8dash/core/markdown_text.h"

#include <algorithm>

namespace fp8dash::markdown {

namespace {

bool blankOrEnd(std::string_view text, std::size_t i) {
    // cmark counts VT and FF as white space after a list marker too.
    return i >= text.size() || text[i] == ' ' || text[i] == '\t' || text[i] == '\n' || text[i] == '\r' ||
           text[i] == '\v' || text[i] == '\f';
}

// What could open a block where a line starts (the value's start, or after a line break inside it): leading blanks
// (four make an indented code block) as numeric references, and a list marker, a thematic break, a setext underline
// or a fence, escaped. The characters escaped everywhere (escape's set) need nothing more here.
void escapeLineStart(std::string_view text, std::size_t& i, std::string& out) {
    // One leading space is never structure (a block may be indented up to three); two or more could reach four
    // with the caller's own indentation, and one tab is four.
    std::size_t blanks = 0;
    while (i + blanks < text.size() && (text[i + blanks] == ' ' || text[i + blanks] == '\t')) ++blanks;
    if (blanks == 1 && text[i] == ' ') {
        out += ' ';
        ++i;
    }
    for (; blanks > 0 && i < text.size() && (text[i] == ' ' || text[i] == '\t'); ++i)
        out += text[i] == ' ' ? "&#32;" : "&#9;";
    if (i >= text.size()) return;
    const char c = text[i];
    if (c == '=' || ((c == '-' || c == '+') && (blankOrEnd(text, i + 1) || text[i + 1] == c))) {
        out += '\\';
        out += c;
        ++i;
        return;
    }
    std::size_t digits = 0;
    while (i + digits < text.size() && digits < 10 && text[i + digits] >= '0' && text[i + digits] <= '9') ++digits;
    if (digits >= 1 && digits <= 9 && i + digits < text.size() &&
        (text[i + digits] == '.' || text[i + digits] == ')') && blankOrEnd(text, i + digits + 1)) {
        out.append(text.substr(i, digits));
        out += '\\';
        out += text[i + digits];
        i += digits + 1;
    }
}

}  // namespace

std::string escape(std::string_view text, Where where) {
    return escape(text, where, Start::Line);
}

std::string escape(std::string_view text, Where where, Start start) {
    std::string out;
    out.reserve(text.size());
    std::size_t i = 0;
    if (where != Where::TableCell && start == Start::Line) escapeLineStart(text, i, out);
    while (i < text.size()) {
        const char c = text[i++];
        switch (c) {
            case '\\':
            case '`':
            case '*':
            case '_':
            case '[':
            case ']':
            case '<':
            case '>':
            case '|':
            case '#':
            case '~':
            case '&':
                out += '\\';
                out += c;
                break;
            case '\r':
                if (i < text.size() && text[i] == '\n') break;  // CR LF is one line break
                out += "&#13;";  // a lone CR is a line ending to a parser: kept as a character, not as a line
                break;
            case '\n':
                if (where == Where::Text && text.find_first_not_of("\r\n \t\v\f", i) == std::string_view::npos) {
                    out += "&#10;";  // the value's last line break: at a block's end "\" would be shown, not a break
                } else if (where == Where::Text) {
                    out += "\\\n";  // a hard line break that no following line can turn into a blank one
                    escapeLineStart(text, i, out);
                } else {
                    out += ' ';
                }
                break;
            default:
                out += c;
        }
    }
    return out;
}

std::string code(std::string_view text, Where where) {
    if (text.empty()) return "";
    if (text.find('`') != std::string_view::npos || text.find('\n') != std::string_view::npos)
        return escape(text, where);
    std::string out = "`";
    for (char c : text) {
        if (c == '|' && where == Where::TableCell)
            out += "\\|";
        else
            out += c;
    }
    return out + "`";
}

std::string codeBlock(std::string_view text) {
    // A fence one backtick longer than the longest run of backticks in the text (three at least): no line of the
    // text can close it.
    std::size_t longest = 0;
    for (std::size_t i = 0, run = 0; i < text.size(); ++i) {
        run = text[i] == '`' ? run + 1 : 0;
        longest = std::max(longest, run);
    }
    const std::string fence(std::max<std::size_t>(3, longest + 1), '`');
    std::string out = fence + "\n";
    out.append(text);
    if (!text.empty() && text.back() != '\n') out += '\n';
    return out + fence + "\n";
}

std::string table(const std::vector<std::string>& header, const std::vector<Align>& align,
                  const std::vector<std::vector<std::string>>& rows) {
    std::string out = "|";
    for (const auto& h : header) out += " " + escape(h, Where::TableCell) + " |";
    out += "\n|";
    for (std::size_t i = 0; i < header.size(); ++i) {
        const Align a = i < align.size() ? align[i] : Align::Left;
        out += a == Align::Right ? "---:|" : a == Align::Center ? ":---:|" : "---|";
    }
    out += "\n";
    for (const auto& row : rows) {
        out += "|";
        for (const auto& cell : row) out += " " + cell + " |";
        out += "\n";
    }
    return out;
}

}  // namespace fp8dash::markdown
