// Markdown escaping and pipe tables (markdown_text.h).
#include "fp8dash/core/markdown_text.h"

namespace fp8dash::markdown {

std::string escape(std::string_view text, Where where) {
    std::string out;
    out.reserve(text.size());
    for (char c : text) {
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
                out += '\\';
                out += c;
                break;
            case '\r':
                break;
            case '\n':
                out += where == Where::TableCell ? " " : "  \n";
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
