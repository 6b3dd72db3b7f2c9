#pragma once
// Export of what a view shows (README "Reports"), shared by every view: a chart as PNG or SVG and a
// table as CSV, offered in the view's context menu ("Export Chart as PNG…", "Export Chart as SVG…", "Export Table as
// CSV…"). The dialog asks for a path; writing is a function of that path (writeChartPng, writeChartSvg,
// writeTableCsv), which is what the tests call. Files are written atomically; a failure is shown in a message box
// naming the file, a success in the window's status bar. GUI thread only.
//
// CSV (tableCsv): RFC 4180 (comma-separated, CRLF line ends, a field with a comma, quote or line break in double
// quotes, quotes doubled), UTF-8 without a byte-order mark, a header row of the column titles. The columns and rows
// are the ones on screen: visible columns in their on-screen order, rows in the view's sort order and filter (a
// tree's collapsed children included). A tree's rows are flattened, each preceded by "Depth" (0 for a top-level row)
// and "Parent" (the first column of the row above it in the tree, empty at the top). Numbers are written at full
// precision (the shortest text that reads back to the same double) where the model holds the exact value as its
// sort value (Qt::UserRole) and the cell shows that value rounded; the cell's text otherwise ("—" and "n/a", which
// mean no value, become an empty field). Where the exact value is in another unit than the text ("3.21 TB/s" for
// 3.21e12 bytes/s), the model names the unit in its header's kCsvUnitRole and the header says it ("Bandwidth (B/s)").

#include <QString>

#include <functional>

#include "fp8dash/core/result.h"

class QAbstractItemView;
class QChartView;
class QMenu;
class QWidget;

namespace fp8dash::ui::exporting {

// Header data role (horizontal header, per column) naming the unit of the column's exact values, e.g. "B/s".
inline constexpr int kCsvUnitRole = Qt::UserRole + 40;

// The chart as its view draws it on screen, at the view's size: PNG with twice the pixels, SVG as vectors. A view
// that is not on screen cannot be drawn at its size: that is an error.
Status writeChartPng(QChartView* view, const QString& path);
Status writeChartSvg(QChartView* view, const QString& path, const QString& title);

// The table of a QTableView or QTreeView as CSV (see above), and written to a file.
QString tableCsv(const QAbstractItemView* view);
// The columns a table or tree view shows, as logical indexes in the header's on-screen order (moved sections
// followed, hidden ones left out, except those the view hid only for lack of room: the logical indexes in its
// kHiddenForRoomProperty, a QVariantList of int); a list view's one column. What the CSV export and Copy write.
inline constexpr char kHiddenForRoomProperty[] = "fp8dashHiddenForRoom";
QList<int> visibleColumns(const QAbstractItemView* view);
Status writeTableCsv(const QAbstractItemView* view, const QString& path);

// The actions for a chart's context menu (appended to `menu`); `title` names the chart in the SVG and the dialog,
// `baseName` is the suggested file name without its extension (empty: "fp8dash-<title in lower case>").
void addChartExportActions(QMenu* menu, QChartView* view, const QString& title, const QString& baseName);
// A context menu with those actions on a chart view that has none of its own.
void installChartExportMenu(QChartView* view, const QString& title, const QString& baseName);
// A context menu with Copy, Copy as Markdown and "Export Table as CSV…" on a table or tree view.
void addTableExportAction(QMenu* menu, QAbstractItemView* view, const QString& baseName);
void installTableExportMenu(QAbstractItemView* view, const QString& baseName);
// Edit › Copy and Copy as Markdown (table_copy.cpp): the rows with a selected cell, in the order shown (a tree's
// selected subtasks after their group), the visible columns in the header's order with a header row, each cell's text
// as displayed (DisplayRole). TSV: tab-separated, a tab or line break inside a cell becomes a space, so each value
// stays one cell; Markdown: a GitHub pipe table, cells escaped (markdown_text.h). "" when no row is selected.
bool hasSelectedRows(const QAbstractItemView* view);
QString selectedRowsTsv(const QAbstractItemView* view);
QString selectedRowsMarkdown(const QAbstractItemView* view);
// Puts one of them on the clipboard as text/plain; false (the clipboard untouched) when no row is selected.
bool copySelectedRows(const QAbstractItemView* view, bool asMarkdown);
// Copy and Copy as Markdown for a table's context menu (disabled, with a status tip, when nothing is selected).
void addTableCopyActions(QMenu* menu, QAbstractItemView* view);

// The menu the installed context menu shows, for tests (the caller owns it).
QMenu* createChartExportMenu(QChartView* view, const QString& title, const QString& baseName);
QMenu* createTableExportMenu(QAbstractItemView* view, const QString& baseName);

// A save dialog in the last folder used (suggestedName in it), then write(path) with a busy cursor; the suffix is
// added when the name typed has none. The outcome goes to a message box (failure) or the status bar (success).
void exportWithDialog(QWidget* parent, const QString& caption, const QString& suggestedName, const QString& filter,
                      const QString& suffix, const std::function<Status(const QString& path)>& write);

}  // namespace fp8dash::ui::exporting
