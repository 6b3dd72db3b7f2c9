#pragma once
// Checks shared by the CLI tests that read fp8dash's text, Markdown and PDF outputs of untrusted strings (the
// reports, `answers`): a file's bytes, no raw control or bidi character, the Markdown read back with cmark, a tool
// found on the PATH's usual places. Inline: the tests' unity batch holds several of these files.
#include <cmark.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace fp8dash::test {

inline std::string readFile(const std::filesystem::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

// The text without blanks (a PDF's text breaks lines where it likes).
inline std::string withoutBlanks(const std::string& s) {
    std::string out;
    for (char c : s)
        if (c != ' ' && c != '\n' && c != '\t' && c != '\r' && c != '\f') out += c;
    return out;
}

// "" when none of /usr/bin, /usr/local/bin, /bin has it.
inline std::string tool(const std::string& name) {
    for (const char* dir : {"/usr/bin/", "/usr/local/bin/", "/bin/"})
        if (std::filesystem::exists(std::string(dir) + name)) return std::string(dir) + name;
    return "";
}

// No raw C0 control but newline and tab, no DEL, no C1 CSI, no right-to-left override or bidi pop.
inline void expectNoControls(const std::string& text, const std::string& what) {
    for (unsigned char c : text)
        if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7f) {
            ADD_FAILURE() << what << " holds control 0x" << std::hex << int(c);
            return;
        }
    EXPECT_EQ(text.find("\xc2\x9b"), std::string::npos) << what << ": a C1 CSI";
    EXPECT_EQ(text.find("\xe2\x80\xae"), std::string::npos) << what << ": a right-to-left override";
    EXPECT_EQ(text.find("\xe2\x80\xac"), std::string::npos) << what << ": a bidi pop";
}

// The Markdown read back with cmark: the text of its headings, its raw HTML, its code blocks, and what a reader sees.
struct MarkdownRead {
    std::vector<std::string> headings, html, codeBlocks;
    std::string text;  // text, code spans and code blocks
};
inline MarkdownRead readMarkdown(const std::string& md) {
    MarkdownRead r;
    cmark_node* doc = cmark_parse_document(md.data(), md.size(), CMARK_OPT_DEFAULT);
    cmark_iter* it = cmark_iter_new(doc);
    std::string* heading = nullptr;
    for (cmark_event_type ev; (ev = cmark_iter_next(it)) != CMARK_EVENT_DONE;) {
        cmark_node* node = cmark_iter_get_node(it);
        const cmark_node_type type = cmark_node_get_type(node);
        const char* literal = cmark_node_get_literal(node);
        const std::string text = literal ? literal : "";
        if (type == CMARK_NODE_HEADING) {
            if (ev == CMARK_EVENT_ENTER) {
                r.headings.emplace_back();
                heading = &r.headings.back();
            } else {
                heading = nullptr;
            }
        } else if (ev != CMARK_EVENT_ENTER) {
            continue;
        } else if (type == CMARK_NODE_HTML_BLOCK || type == CMARK_NODE_HTML_INLINE) {
            r.html.push_back(text);
        } else if (type == CMARK_NODE_CODE_BLOCK || type == CMARK_NODE_CODE || type == CMARK_NODE_TEXT) {
            if (type == CMARK_NODE_CODE_BLOCK) r.codeBlocks.push_back(text);
            r.text += text;
            if (heading) *heading += text;
        } else if (type == CMARK_NODE_SOFTBREAK || type == CMARK_NODE_LINEBREAK) {
            r.text += ' ';
        }
    }
    cmark_iter_free(it);
    cmark_node_free(doc);
    return r;
}

}  // namespace fp8dash::test
