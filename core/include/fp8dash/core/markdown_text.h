#pragma once
// The Markdown core writes (CommonMark, with GitHub's pipe tables): one escaper and one table writer for all of it,
// the full report (report_markdown.cpp) and the CLI's renderings (report_format.cpp, long_context_format.cpp), so
// text from the files (task names, labels, notes, reasons) reads the same in each. Pure functions; thread-safe.

#include <string>
#include <string_view>
#include <vector>

namespace fp8dash::markdown {

// Where escaped text stands: running text (a paragraph, a list item, a heading) or a table cell.
enum class Where { Text, TableCell };

// Text shown as written. Each ASCII character that can start markup anywhere on a line is escaped with a backslash
// (CommonMark allows one before any ASCII punctuation): \ ` * _ [ ] < > # and '|', which would split a table cell.
// '\r' is dropped; '\n' is a hard line break ("  \n") in running text and a space in a table cell, where a line
// break would end the row. Everything else, UTF-8 included, is kept.
std::string escape(std::string_view text, Where where = Where::Text);

// An identifier (a task, metric, model) as a code span: `text`. Text holding a backtick or a line break is escaped
// text instead (a span cannot hold either plainly); in a table cell '|' is escaped inside the span too, as GitHub's
// tables split on it before reading spans. Empty text is "".
std::string code(std::string_view text, Where where = Where::Text);

enum class Align { Left, Right, Center };

// A pipe table, one line per row and a newline after each: the header cells are escaped here; `rows` are Markdown
// already (escaped with Where::TableCell). A column without an alignment is left-aligned.
std::string table(const std::vector<std::string>& header, const std::vector<Align>& align,
                  const std::vector<std::vector<std::string>>& rows);

}  // namespace fp8dash::markdown
