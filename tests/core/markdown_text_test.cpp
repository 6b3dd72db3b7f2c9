// The one Markdown escaper and table writer of core (markdown_text.h), case by case. The expected strings are written
// here from CommonMark's rules (a backslash before ASCII punctuation shows it literally; GitHub's tables split cells
// on '|' before reading code spans), not taken from the code's output.
#include "fp8dash/core/markdown_text.h"

#include <gtest/gtest.h>

#include <string>

namespace fp8dash {
namespace {

using markdown::Where;

struct EscapeCase {
    const char* name;
    std::string input;
    std::string text;  // escaped for running text
    std::string cell;  // escaped for a table cell
};

TEST(MarkdownText, EscapesWhatWouldStartMarkup) {
    const EscapeCase cases[] = {
        {"empty", "", "", ""},
        {"plain words and digits", "GSM8K 0.5 percent", "GSM8K 0.5 percent", "GSM8K 0.5 percent"},
        {"underscores of a task name", "mmlu_high_school", "mmlu\\_high\\_school", "mmlu\\_high\\_school"},
        {"emphasis stars", "*not* bold", "\\*not\\* bold", "\\*not\\* bold"},
        {"a link's brackets", "[a](b)", "\\[a\\](b)", "\\[a\\](b)"},
        {"an HTML tag", "<think>", "\\<think\\>", "\\<think\\>"},
        {"a code span's backticks", "`x`", "\\`x\\`", "\\`x\\`"},
        {"a heading's hash", "# 1", "\\# 1", "\\# 1"},
        {"a backslash itself", "a\\b", "a\\\\b", "a\\\\b"},
        {"a table's pipe", "|Δ| / x", "\\|Δ\\| / x", "\\|Δ\\| / x"},
        {"a threshold's less-than", "go < 0.5%", "go \\< 0.5%", "go \\< 0.5%"},
        {"line break: a backslash ends the line (no following line can be blank)", "one\ntwo", "one\\\ntwo", "one two"},
        {"CR LF is one line break", "one\r\ntwo", "one\\\ntwo", "one two"},
        {"a lone CR, a line ending to a parser, is a character reference", "one\rtwo", "one&#13;two", "one&#13;two"},
        {"the last line break is a character reference", "one\n", "one&#10;", "one "},
        {"a line start after a break: setext underline, list, fence, code", "a\n===\n- b\n1. c\n~~~\n    d",
         "a\\\n\\===\\\n\\- b\\\n1\\. c\\\n\\~\\~\\~\\\n&#32;&#32;&#32;&#32;d", "a === - b 1. c \\~\\~\\~     d"},
        {"a list marker at the value's start", "- x", "\\- x", "- x"},
        {"tildes (strike-through, fences) and ampersands (references)", "~x~ &amp;", "\\~x\\~ \\&amp;",
         "\\~x\\~ \\&amp;"},
        {"UTF-8 kept", "Δ% ± σ — “x” ↳", "Δ% ± σ — “x” ↳", "Δ% ± σ — “x” ↳"},
        {"punctuation that starts nothing inline", "a.b,c;d:e!f?g(h)i-j+k=l'm\"n/o%p",
         "a.b,c;d:e!f?g(h)i-j+k=l'm\"n/o%p", "a.b,c;d:e!f?g(h)i-j+k=l'm\"n/o%p"},
    };
    for (const auto& c : cases) {
        EXPECT_EQ(markdown::escape(c.input), c.text) << c.name;
        EXPECT_EQ(markdown::escape(c.input, Where::Text), c.text) << c.name;
        EXPECT_EQ(markdown::escape(c.input, Where::TableCell), c.cell) << c.name;
    }
}

TEST(MarkdownText, CodeSpansKeepIdentifiersAndFallBackToEscapedText) {
    struct Case {
        const char* name;
        std::string input;
        std::string text;
        std::string cell;
    };
    const Case cases[] = {
        {"empty", "", "", ""},
        {"task name, underscores kept", "mmlu_high_school", "`mmlu_high_school`", "`mmlu_high_school`"},
        {"model path", "org/Model-8B", "`org/Model-8B`", "`org/Model-8B`"},
        {"a pipe splits a table cell even in a span", "a|b", "`a|b`", "`a\\|b`"},
        {"a backtick cannot stand in a plain span", "a`b", "a\\`b", "a\\`b"},
        {"a line break neither", "a\nb_c", "a\\\nb\\_c", "a b\\_c"},
    };
    for (const auto& c : cases) {
        EXPECT_EQ(markdown::code(c.input), c.text) << c.name;
        EXPECT_EQ(markdown::code(c.input, Where::TableCell), c.cell) << c.name;
    }
}

TEST(MarkdownText, TablesHaveOneLinePerRowAndTheirAlignmentRule) {
    using markdown::Align;
    EXPECT_EQ(markdown::table({"Task", "Δ%", "Verdict"}, {Align::Left, Align::Right, Align::Center},
                              {{"`gsm8k`", "-0.500%", "GO"}, {"a\\_b", "", "(go)"}}),
              "| Task | Δ% | Verdict |\n"
              "|---|---:|:---:|\n"
              "| `gsm8k` | -0.500% | GO |\n"
              "| a\\_b |  | (go) |\n");
    // Header cells are escaped here; a column without an alignment is left-aligned.
    EXPECT_EQ(markdown::table({"a|b", "c_d"}, {}, {}), "| a\\|b | c\\_d |\n|---|---|\n");
    EXPECT_EQ(markdown::table({"", ""}, {Align::Right}, {{"x", "y"}}), "|  |  |\n|---:|---|\n| x | y |\n");
}

}  // namespace
}  // namespace fp8dash
