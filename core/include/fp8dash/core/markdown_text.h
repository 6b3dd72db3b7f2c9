#pragma once
// The Markdown core writes (CommonMark, with GitHub's pipe tables): one escaper and one table writer for all of it,
// the full report (report_markdown.cpp) and the CLI's renderings (report_format.cpp, long_context_format.cpp), so
// text from the files (task names, labels, notes, reasons) reads the same in each. Pure functions; thread-safe.

#include <string>
#include <string_view>
#include <vector>

namespace fp8dash::markdown {

// Where escaped text stands: running text (a paragraph, a list item), a heading (one line) or a table cell.
enum class Where { Text, Heading, TableCell };

// Text shown as written, and never structure: no value can open or close a block, whatever it holds. Each ASCII
// character that can start markup anywhere on a line is escaped with a backslash (CommonMark allows one before any
// ASCII punctuation): \ ` * _ [ ] < > # ~ & and '|', which would split a table cell. Where a line starts (the value's
// start, and after a line break in it) a tab or two blanks or more become numeric references (&#32;: no indented code
// block) and a list marker ("- ", "+ ", "1. ", "1) "), a thematic break or setext underline ("---", "==="), is escaped.
// '\n' is a hard line break ("\" at the end of the line: the next line can never be blank, so the paragraph goes on) in
// running text (the value's trailing line breaks &#10;, as "\" ending a block is shown), and a space in a heading or a
// table cell, which a line break would end. CR LF is one line break; a lone CR, a line ending to a parser, is &#13;.
// The other controls are kept for the writer, which shows them (untrusted_text.h). Everything else, UTF-8 included, is
// kept.
std::string escape(std::string_view text, Where where = Where::Text);
// Where the text stands on its line: it may start it (the default), or it follows other text on the line (a span
// after the first), where only its own line breaks start lines.
enum class Start { Line, MidLine };
std::string escape(std::string_view text, Where where, Start start);

// An identifier (a task, metric, model) as a code span: `text`. Text holding a backtick or a line break is escaped
// text instead (a span cannot hold either plainly); in a table cell '|' is escaped inside the span too, as GitHub's
// tables split on it before reading spans. Empty text is "".
std::string code(std::string_view text, Where where = Where::Text);

// Preformatted text as a fenced code block, the fence longer than any run of backticks in it, so that no line of
// the text closes it; a newline is added where the text does not end with one.
std::string codeBlock(std::string_view text);

enum class Align { Left, Right, Center };

// A pipe table, one line per row and a newline after each: the header cells are escaped here; `rows` are Markdown
// already (escaped with Where::TableCell). A column without an alignment is left-aligned.
std::string table(const std::vector<std::string>& header, const std::vector<Align>& align,
                  const std::vector<std::vector<std::string>>& rows);

}  // namespace fp8dash::markdown
