#pragma once
// Text from files and servers in widgets (README "Trust model", issue 26). Names of models, tasks and runs, labels,
// notes and their authors, review decisions, server names, URLs, queries, tags, device names and error messages that
// quote any of them come from files and servers fp8dash does not control. Qt reads a string as rich text wherever it
// "looks like" markup (Qt::mightBeRichText: a tag in its first line), so a name such as
// `<h1 style=color:green>VERDICT: GO</h1><img src=file:///etc/passwd>` would show as a big green verdict and a local
// image. The rule, for every widget that shows such text:
//  - a label that shows data is plain text: plainLabel / setPlainText (never a bare setText on an AutoText label);
//  - a label that mixes our markup with data is Qt::RichText and escapes every data part (style::escaped); a tooltip
//    that does is richTip(html);
//  - a tooltip that holds data is escapedTip(text): where Qt would read it as markup (a tag in its first line), rich
//    text of the escaped text, which shows the text itself; otherwise the text unchanged (Qt shows it plain);
//  - Qt Charts renders chart titles, axis titles, category labels and legend names (series and bar set names) as
//    rich text, always: data there goes through chartText;
//  - a message box that quotes data: plainMessageBox (its text and informative text plain);
//  - QTextBrowser/QTextEdit: setHtml of escaped parts, or setPlainText.
// Plain by construction, nothing to do: table and tree cells (no delegate renders markup), buttons, check boxes, group
// boxes, tab titles, combo box items, window titles and status bar messages.
//
// Controls and bidi overrides (the CLI's rule, untrusted_text.h): plain text still acts on them. A right-to-left
// override (U+202E) in a name reorders what follows it ("\u202EOG :tcidreV" reads "Verdict: GO"), an ESC, CR or
// backspace is drawn as a box or nothing. visibleText shows each as a visible escape (\u202E, \u001B), as the CLI and
// the reports do. Where it is applied, decided once: not in toQString (which also converts paths, URLs, and the text
// an edit dialog loads and writes back to the file: that must stay what it is), but in the sinks that show data, so
// that every view is covered by the few functions it already goes through:
//  - plainLabel / setPlainText, escapedTip, chartText, excerpt and plainMessageBox (text and informative text): a
//    plain label that shows data gets its text through setPlainText every time it is set, not a bare setText;
//    a combo box item that names data, visibleText (its item data keeps the name);
//  - style::escaped, which every data part of our rich text goes through (labels, rich tooltips, text browsers);
//  - the display and tooltip text of the item models of data: RowTableModel (every table of data derives from it)
//    and TaskTableModel.
// Edit fields (a note or a decision being edited) keep the text as it is: they edit it. untrusted_views_test walks
// every widget of a hostile comparison and fails on any raw control or bidi override it shows.
// GUI thread only.
#include <QMessageBox>
#include <QString>

class QLabel;
class QWidget;

namespace fp8dash::ui {

// Free text from a file (a note, a decision's reason) as a view shows it: whole up to kShownChars characters, else
// that many and how long it is (a 200,000-character line laid out in a wrapped label stalls the window for seconds;
// the file, the reports and the edit dialogs keep it whole). Its controls shown (visibleText).
inline constexpr qsizetype kShownChars = 5000;
QString excerpt(const QString& text);

// Text from data as a view shows it: C0 controls but newline and tab, DEL, C1 controls, bidi embeddings, overrides,
// isolates and marks (U+202A-U+202E, U+2066-U+2069, U+200E, U+200F, U+061C) and the line and paragraph separators
// (U+2028, U+2029) as visible escapes ("\u202E"); everything else unchanged. The same characters as the CLI's
// visibleControls.
QString visibleText(const QString& text);

QLabel* plainLabel(const QString& text, QWidget* parent = nullptr);  // a QLabel with Qt::PlainText
void setPlainText(QLabel* label, const QString& text);               // Qt::PlainText, then the text
// A tooltip that shows `text` as it is: unchanged where Qt shows it as plain text, else escaped rich text (newlines
// kept as line breaks).
QString escapedTip(const QString& text);
// A tooltip of markup of ours whose data parts are escaped (style::escaped): marked as rich text, so that Qt never
// guesses it plain (and shows "&lt;" or "<b>"); empty for empty html.
QString richTip(const QString& html);
// Text for a Qt Charts title, axis title, category or series name: escaped (Qt Charts renders it as HTML).
QString chartText(const QString& text);
// A window-modal-ready message box whose text and informative text are shown as plain text (deleted on close).
QMessageBox* plainMessageBox(QMessageBox::Icon icon, const QString& title, const QString& text,
                             const QString& informative, QMessageBox::StandardButtons buttons, QWidget* parent);

}  // namespace fp8dash::ui
