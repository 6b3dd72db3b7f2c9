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
// GUI thread only.
#include <QMessageBox>
#include <QString>

class QLabel;
class QWidget;

namespace fp8dash::ui {

// Free text from a file (a note, a decision's reason) as a view shows it: whole up to kShownChars characters, else
// that many and how long it is (a 200,000-character line laid out in a wrapped label stalls the window for seconds;
// the file, the reports and the edit dialogs keep it whole).
inline constexpr qsizetype kShownChars = 5000;
QString excerpt(const QString& text);

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
