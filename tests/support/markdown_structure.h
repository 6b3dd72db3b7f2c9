#pragma once
// Markdown read back with cmark, CommonMark's reference parser (Debian's libcmark): the blocks of a document and the
// text of its inlines, for the untrusted-text tests and the Markdown escaper's fuzz target. Header-only.
#include <cmark.h>

#include <string>
#include <vector>

namespace fp8dash::test {

// The parsed Markdown: its blocks (type names, nested) and the text of its inlines (breaks as '\n').
struct Parsed {
    std::vector<std::string> blocks;  // "paragraph", "list/item/paragraph", "heading", ...
    std::string text;
    std::vector<std::string> inlineKinds;  // anything but text and line breaks
};

inline Parsed parse(const std::string& markdown) {
    Parsed p;
    cmark_node* doc = cmark_parse_document(markdown.data(), markdown.size(), CMARK_OPT_DEFAULT);
    cmark_iter* it = cmark_iter_new(doc);
    std::vector<std::string> path;
    for (cmark_event_type ev; (ev = cmark_iter_next(it)) != CMARK_EVENT_DONE;) {
        cmark_node* node = cmark_iter_get_node(it);
        const cmark_node_type type = cmark_node_get_type(node);
        if (type == CMARK_NODE_DOCUMENT) continue;
        const bool block = type >= CMARK_NODE_FIRST_BLOCK && type <= CMARK_NODE_LAST_BLOCK;
        if (block) {
            if (ev == CMARK_EVENT_ENTER) {
                path.push_back(cmark_node_get_type_string(node));
                std::string joined;
                for (const auto& part : path) joined += (joined.empty() ? "" : "/") + part;
                p.blocks.push_back(joined);
            }
            // cmark sends leaf blocks (code, HTML, thematic break) an ENTER only; every other block an EXIT too.
            const bool leaf =
                type == CMARK_NODE_CODE_BLOCK || type == CMARK_NODE_HTML_BLOCK || type == CMARK_NODE_THEMATIC_BREAK;
            if (ev == CMARK_EVENT_EXIT || leaf) path.pop_back();
            continue;
        }
        if (ev != CMARK_EVENT_ENTER) continue;
        if (type == CMARK_NODE_TEXT) {
            p.text += cmark_node_get_literal(node);
        } else if (type == CMARK_NODE_SOFTBREAK || type == CMARK_NODE_LINEBREAK) {
            p.text += '\n';
        } else {
            p.inlineKinds.push_back(cmark_node_get_type_string(node));
        }
    }
    cmark_iter_free(it);
    cmark_node_free(doc);
    return p;
}

// The text a reader is to see: CR LF as LF, each line without the blanks at its ends (spaces, tabs, VT, FF: the
// parser drops them there).
inline std::string normalized(std::string s, bool oneLine) {
    for (std::size_t at; (at = s.find("\r\n")) != std::string::npos;) s.replace(at, 2, "\n");
    if (oneLine)
        for (char& c : s)
            if (c == '\n') c = ' ';
    std::string out, line;
    const auto flush = [&](bool newline) {
        const auto b = line.find_first_not_of(" \t\v\f"), e = line.find_last_not_of(" \t\v\f");
        out += b == std::string::npos ? "" : line.substr(b, e - b + 1);
        if (newline) out += '\n';
        line.clear();
    };
    for (char c : s) {
        if (c == '\n')
            flush(true);
        else
            line += c;
    }
    flush(false);
    if (oneLine) {
        const auto b = out.find_first_not_of(" \t\v\f"), e = out.find_last_not_of(" \t\v\f");
        out = b == std::string::npos ? "" : out.substr(b, e - b + 1);
    }
    return out;
}

}  // namespace fp8dash::test
