// Untrusted text (issue 26): visibleControls shows every control, bidi override and invalid byte as a visible escape,
// keeps everything else, and keeps JSON valid; the Markdown escaper never lets a value make structure. The structure
// is read back with cmark, CommonMark's reference parser (Debian's libcmark): an escaped value, in each place the
// writers put one, parses to the one block that place makes, and its text is the value's.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "fp8dash/core/markdown_text.h"
#include "fp8dash/core/untrusted_text.h"
#include "hostile_strings.h"
#include "markdown_structure.h"

namespace fp8dash {
namespace {

using test::validUtf8;

using test::normalized;
using test::parse;
using test::Parsed;

TEST(VisibleControls, ShowsControlsBidiAndBadBytesAndKeepsTheRest) {
    EXPECT_EQ(visibleControls("a\x1b[2Kb"), "a\\u001B[2Kb");
    EXPECT_EQ(visibleControls("x\ry"), "x\\u000Dy");
    EXPECT_EQ(visibleControls("bell\x07 del\x7f"), "bell\\u0007 del\\u007F");
    EXPECT_EQ(visibleControls("\xc2\x9b"
                              "2J"),
              "\\u009B2J");
    EXPECT_EQ(visibleControls("a\xe2\x80\xae"
                              "b"),
              "a\\u202Eb");
    EXPECT_EQ(visibleControls("\xe2\x81\xa6i\xe2\x81\xa9 \xe2\x80\x8f \xe2\x80\xa8"),
              "\\u2066i\\u2069 \\u200F \\u2028");
    EXPECT_EQ(visibleControls("bad \xff\xfe \xc3"), "bad \\xFF\\xFE \\xC3");
    EXPECT_EQ(visibleControls("\xc0\xaf overlong, \xed\xa0\x80 surrogate"),
              "\\xC0\\xAF overlong, \\xED\\xA0\\x80 surrogate");
    const std::string kept = "line\n\ttab caf\xc3\xa9 \xe2\x80\x93 \xe2\x98\x85 \xf0\x9f\x94\xa5 \xe2\x80\x8b";
    EXPECT_EQ(visibleControls(kept), kept);
    for (const auto& s : test::hostileStrings()) {
        const std::string shown = visibleControls(s);
        for (unsigned char c : shown) {
            EXPECT_TRUE(c >= 0x20 || c == '\n' || c == '\t') << "a control is left in " << shown.substr(0, 80);
        }
        EXPECT_TRUE(validUtf8(shown)) << shown.substr(0, 80);
        EXPECT_EQ(shown.find("\xe2\x80\xae"), std::string::npos);
        EXPECT_EQ(shown.find("\xc2\x9b"), std::string::npos);
    }
}

// A JSON document through the filter stays valid and means the same: the escapes are JSON's own.
TEST(VisibleControls, JsonStaysValidAndMeansTheSame) {
    nlohmann::json doc = nlohmann::json::array();
    for (const auto& s : test::hostileStrings())
        if (validUtf8(s)) doc.push_back(s);
    const std::string dumped = doc.dump(2);
    const auto back = nlohmann::json::parse(visibleControls(dumped));
    EXPECT_EQ(back, doc);
}

TEST(VisibleControls, AStreamMayPassOnlyWholeUtf8Sequences) {
    EXPECT_EQ(wholeUtf8Prefix("abc"), 3u);
    EXPECT_EQ(wholeUtf8Prefix("ab\xe2\x80"), 2u);      // an arrow cut after two of its three bytes
    EXPECT_EQ(wholeUtf8Prefix("ab\xe2\x80\x93"), 5u);  // whole
    EXPECT_EQ(wholeUtf8Prefix("ab\xf0"), 2u);
    EXPECT_EQ(wholeUtf8Prefix("ab\xff"), 3u);  // not a lead byte: passed on (and shown escaped)
    EXPECT_EQ(wholeUtf8Prefix("\x80\x80\x80\x80"), 4u);
    // Split anywhere, a sequence shown in pieces is the sequence shown whole.
    const std::string s = test::verdictRewriteSequence() + "\xe2\x80\xae\xe2\x98\x85";
    for (std::size_t cut = 0; cut <= s.size(); ++cut) {
        std::string pending = s.substr(0, cut), out;
        const std::size_t n = wholeUtf8Prefix(pending);
        out += visibleControls(pending.substr(0, n));
        out += visibleControls(pending.substr(n) + s.substr(cut));
        EXPECT_EQ(out, visibleControls(s)) << cut;
    }
}

// oneLine: a value's line breaks shown, never made (the text outputs' newline variant of finding 1); a value without
// one unchanged, backslashes included; with visibleControls after it, no line break of the value survives, and the
// line breaks visibleControls already escaped come out the same either way.
TEST(OneLine, ShowsEveryLineBreakOfAValue) {
    EXPECT_EQ(oneLine("x\nVerdict: GO"), "x\\nVerdict: GO");
    EXPECT_EQ(oneLine("a\r\nb"), "a\\u000D\\nb");
    EXPECT_EQ(oneLine("v\vf\f"), "v\\u000Bf\\u000C");
    EXPECT_EQ(oneLine("nel\xc2\x85 ls\xe2\x80\xa8 ps\xe2\x80\xa9"), "nel\\u0085 ls\\u2028 ps\\u2029");
    for (const std::string kept : {"", "plain", "C:\\runs\\n1 \\n", "tab\there", "\xe2\x80\x94 \xe2\x86\x92 \xc3\xa9",
                                   "\xe2\x80\xa7 \xe2\x80\xaa", "bad \xff \xc2"})
        EXPECT_EQ(oneLine(kept), kept);
    for (const auto& s : test::hostileStrings()) {
        const std::string shown = visibleControls(oneLine(s));
        EXPECT_EQ(shown.find('\n'), std::string::npos) << shown.substr(0, 200);
        // Both filters agree on what visibleControls escapes itself: only LF is oneLine's own.
        std::string lfOnly = s;
        for (std::size_t at = lfOnly.find('\n'); at != std::string::npos; at = lfOnly.find('\n', at + 2))
            lfOnly.replace(at, 1, "\\n");
        EXPECT_EQ(shown, visibleControls(lfOnly)) << shown.substr(0, 200);
    }
}

std::vector<std::string> structuralCorpus() {
    std::vector<std::string> out;
    for (const auto& s : test::hostileStrings())
        if (validUtf8(s) && s.size() < 10000) out.push_back(s);  // cmark replaces bad bytes; the long one below
    out.push_back(std::string(5000, '-') + "\n" + std::string(5000, '='));
    return out;
}

TEST(MarkdownEscape, AValueAtALineStartIsOneParagraphWithItsText) {
    for (const auto& v : structuralCorpus()) {
        SCOPED_TRACE(v.substr(0, 60));
        const Parsed p = parse(markdown::escape(v) + "\n");
        EXPECT_EQ(p.blocks, std::vector<std::string>{"paragraph"}) << markdown::escape(v);
        EXPECT_TRUE(p.inlineKinds.empty()) << p.inlineKinds.front();
        EXPECT_EQ(normalized(p.text, false), normalized(v, false)) << markdown::escape(v);
    }
}

TEST(MarkdownEscape, AValueInAListItemStaysInItsItem) {
    for (const auto& v : structuralCorpus()) {
        SCOPED_TRACE(v.substr(0, 60));
        const Parsed p = parse("- " + markdown::escape(v) + "\n- next\n");
        const std::vector<std::string> expected = {"list", "list/item", "list/item/paragraph", "list/item",
                                                   "list/item/paragraph"};
        EXPECT_EQ(p.blocks, expected) << markdown::escape(v);
        EXPECT_TRUE(p.inlineKinds.empty());
        EXPECT_EQ(normalized(p.text, false), normalized(v, false) + "next") << markdown::escape(v);
    }
}

TEST(MarkdownEscape, AValueAfterTextOnItsLineIsOneParagraph) {
    for (const auto& v : structuralCorpus()) {
        SCOPED_TRACE(v.substr(0, 60));
        const std::string md =
            "Before: " + markdown::escape(v, markdown::Where::Text, markdown::Start::MidLine) + " after\n";
        const Parsed p = parse(md);
        EXPECT_EQ(p.blocks, std::vector<std::string>{"paragraph"}) << md;
        EXPECT_TRUE(p.inlineKinds.empty());
        EXPECT_EQ(normalized(p.text, false), normalized("Before: " + v + " after", false)) << md;
    }
}

TEST(MarkdownEscape, AValueInAHeadingIsTheWholeHeading) {
    for (const auto& v : structuralCorpus()) {
        SCOPED_TRACE(v.substr(0, 60));
        const Parsed p = parse("## " + markdown::escape(v, markdown::Where::Heading) + "\n\nbody\n");
        EXPECT_EQ(p.blocks, (std::vector<std::string>{"heading", "paragraph"})) << markdown::escape(v);
        EXPECT_TRUE(p.inlineKinds.empty());
        ASSERT_GE(p.text.size(), 4u);
        EXPECT_EQ(p.text.substr(p.text.size() - 4), "body");
        EXPECT_EQ(normalized(p.text.substr(0, p.text.size() - 4), true), normalized(v, true));
    }
}

// cmark has no pipe tables (a GitHub extension): a cell is one line, and each of its pipes is escaped.
TEST(MarkdownEscape, AValueInATableCellStaysInItsCell) {
    for (const auto& v : structuralCorpus()) {
        const std::string cell = markdown::escape(v, markdown::Where::TableCell);
        EXPECT_EQ(cell.find('\n'), std::string::npos);
        EXPECT_EQ(cell.find('\r'), std::string::npos);
        for (std::size_t at = cell.find('|'); at != std::string::npos; at = cell.find('|', at + 1)) {
            std::size_t slashes = 0;
            while (at > slashes && cell[at - 1 - slashes] == '\\') ++slashes;
            EXPECT_EQ(slashes % 2, 1u) << cell;
        }
    }
}

// A code block's fence is longer than any run of backticks in its text: none of its lines closes it.
TEST(MarkdownEscape, ACodeBlockHoldsAnyText) {
    for (const auto& v : structuralCorpus()) {
        const std::string text = v + "\n```\n````` \n~~~\n";
        const Parsed p = parse(markdown::codeBlock(text) + "after\n");
        EXPECT_EQ(p.blocks, (std::vector<std::string>{"code_block", "paragraph"})) << markdown::codeBlock(text);
    }
}

}  // namespace
}  // namespace fp8dash
