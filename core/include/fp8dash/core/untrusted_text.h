#pragma once
// Untrusted text in a terminal or a plain-text file (README "Trust model"): task and model names, labels, notes,
// server answers and file paths come from files and servers fp8dash does not control. Written raw, an escape
// sequence in a task name can move the cursor and rewrite the verdict line on screen, a CR can overwrite a line, and a
// bidi override can reorder what a reviewer reads. visibleControls shows every such character as a visible escape
// instead, so that the text shown is the text that was there:
//  - C0 controls but newline and tab (ESC, CR, BEL, backspace, ...), DEL: \u001B, \u000D, \u007F;
//  - C1 controls (U+0080-U+009F, CSI among them): \u009B;
//  - bidi embeddings, overrides and isolates (U+202A-U+202E, U+2066-U+2069), the bidi marks (U+200E, U+200F, U+061C)
//    and the line and paragraph separators (U+2028, U+2029): \u202E;
//  - bytes that are not UTF-8: \xFF.
// The escapes are also valid JSON string escapes of the same characters, so a JSON document passed through stays
// valid and means the same (JSON writers never emit raw C0 controls or invalid UTF-8). Everything else, UTF-8
// included, is kept as it is.
#include <string>
#include <string_view>

namespace fp8dash {

std::string visibleControls(std::string_view text);

// One value from data (a task, model or run name, a label, a note, a server's message, a path) as a text output or a
// stderr message inserts it: on one line. visibleControls keeps newlines, which the output needs for its own lines,
// so a name "x\nVerdict: GO" would otherwise put a line reading "Verdict: GO" of its own under the real verdict.
// Every line break in the value is shown as a visible escape: LF as \n, CR, VT, FF, NEL (U+0085) and the line and
// paragraph separators (U+2028, U+2029) as visibleControls shows them (\u000D, ...), so that both filters together
// give the same text. A value without a line break is returned unchanged (a backslash stays a backslash). The text
// renderers apply it where they put a value into a line: report_text's pad (table cells) and wrapText (every
// wrapped paragraph) for most values, oneLine itself for the few values written directly; the CLI for every message
// that quotes a value. JSON escapes newlines itself; Markdown escapes them as structure (markdown_text.h).
std::string oneLine(std::string_view text);

// The length of the longest prefix of `text` that ends on a whole UTF-8 sequence (or an invalid byte): what a
// streaming filter may pass to visibleControls now; the rest (at most 3 bytes) waits for the next write.
std::size_t wholeUtf8Prefix(std::string_view text);

}  // namespace fp8dash
