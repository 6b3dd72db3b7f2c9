// Edit › Copy and Copy as Markdown: the selected rows of a table or tree view, as the user sees them
// (export_actions.h).
#include <QAbstractItemView>
#include <QApplication>
#include <QClipboard>
#include <QItemSelectionModel>
#include <QMenu>
#include <QMimeData>
#include <QTableView>
#include <QTreeView>

#include "fp8dash/core/markdown_text.h"
#include "fp8dash/ui/export_actions.h"

namespace fp8dash::ui::exporting {

namespace {

// The rows with a selected cell, in the model's order (the view's sorting proxy is its model): depth-first, so a
// group's selected subtasks follow it.
void collectSelectedRows(const QAbstractItemView* view, const QModelIndex& parent, QList<QModelIndex>& rows) {
    const QAbstractItemModel* model = view->model();
    const QItemSelectionModel* selection = view->selectionModel();
    const auto* table = qobject_cast<const QTableView*>(view);
    const auto* tree = qobject_cast<const QTreeView*>(view);
    for (int row = 0; row < model->rowCount(parent); ++row) {
        const QModelIndex first = model->index(row, 0, parent);
        const bool hidden = (table && table->isRowHidden(row)) || (tree && tree->isRowHidden(row, parent));
        if (!hidden) {
            bool selected = false;
            for (int column = 0; column < model->columnCount(parent) && !selected; ++column)
                selected = selection->isSelected(model->index(row, column, parent));
            if (selected) rows << first;
        }
        if (tree && model->hasChildren(first)) collectSelectedRows(view, first, rows);
    }
}

QList<QModelIndex> selectedRows(const QAbstractItemView* view) {
    QList<QModelIndex> rows;
    if (view && view->model() && view->selectionModel()) collectSelectedRows(view, {}, rows);
    return rows;
}

QString headerText(const QAbstractItemView* view, int column) {
    return view->model()->headerData(column, Qt::Horizontal, Qt::DisplayRole).toString();
}

QString cellText(const QModelIndex& row, int column) {
    return row.sibling(row.row(), column).data(Qt::DisplayRole).toString();
}

// One TSV field: a tab or a line break inside the text would start another cell or row, so each becomes a space.
QString tsvField(QString text) {
    for (QChar& c : text) {
        if (c == QLatin1Char('\t') || c == QLatin1Char('\n') || c == QLatin1Char('\r') || c == QChar(0x2028) ||
            c == QChar(0x2029))
            c = QLatin1Char(' ');
    }
    return text;
}

}  // namespace

bool hasSelectedRows(const QAbstractItemView* view) {
    return view && view->selectionModel() && view->selectionModel()->hasSelection() && !selectedRows(view).isEmpty();
}

QString selectedRowsTsv(const QAbstractItemView* view) {
    const QList<QModelIndex> rows = selectedRows(view);
    if (rows.isEmpty()) return {};
    const QList<int> columns = visibleColumns(view);
    QStringList lines;
    QStringList header;
    for (int column : columns) header << tsvField(headerText(view, column));
    lines << header.join(QLatin1Char('\t'));
    for (const QModelIndex& row : rows) {
        QStringList fields;
        for (int column : columns) fields << tsvField(cellText(row, column));
        lines << fields.join(QLatin1Char('\t'));
    }
    return lines.join(QLatin1Char('\n')) + QLatin1Char('\n');
}

QString selectedRowsMarkdown(const QAbstractItemView* view) {
    const QList<QModelIndex> rows = selectedRows(view);
    if (rows.isEmpty()) return {};
    const QList<int> columns = visibleColumns(view);
    std::vector<std::string> header;
    std::vector<markdown::Align> align;
    for (int column : columns) {
        header.push_back(headerText(view, column).toStdString());
        // Numbers right-aligned where the table shows them so (the first selected row's alignment).
        const int a = rows.front().sibling(rows.front().row(), column).data(Qt::TextAlignmentRole).toInt();
        align.push_back((a & Qt::AlignRight) ? markdown::Align::Right : markdown::Align::Left);
    }
    std::vector<std::vector<std::string>> body;
    for (const QModelIndex& row : rows) {
        std::vector<std::string>& cells = body.emplace_back();
        for (int column : columns)
            cells.push_back(markdown::escape(cellText(row, column).toStdString(), markdown::Where::TableCell));
    }
    return QString::fromStdString(markdown::table(header, align, body));
}

bool copySelectedRows(const QAbstractItemView* view, bool asMarkdown) {
    const QString text = asMarkdown ? selectedRowsMarkdown(view) : selectedRowsTsv(view);
    if (text.isEmpty()) return false;
    auto* data = new QMimeData;
    data->setText(text);  // text/plain only: the cells as shown, nothing a receiver could read as markup
    QApplication::clipboard()->setMimeData(data);
    return true;
}

void addTableCopyActions(QMenu* menu, QAbstractItemView* view) {
    const bool any = hasSelectedRows(view);
    const QString why = QObject::tr("Select one or more rows first");
    QAction* copy = menu->addAction(QObject::tr("&Copy"));
    copy->setObjectName(QStringLiteral("copyRows"));
    copy->setShortcut(QKeySequence::Copy);
    QAction* copyMarkdown = menu->addAction(QObject::tr("Copy as &Markdown"));
    copyMarkdown->setObjectName(QStringLiteral("copyRowsMarkdown"));
    copyMarkdown->setShortcut(QKeySequence(QStringLiteral("Ctrl+Shift+C")));
    for (QAction* action : {copy, copyMarkdown}) {
        action->setEnabled(any);
        action->setShortcutContext(Qt::WidgetShortcut);  // the menu shows the key; the Edit menu's action has it
        if (!any) action->setStatusTip(why);
    }
    copy->setToolTip(QObject::tr("The selected rows as tab-separated text, with the visible columns' headers"));
    copyMarkdown->setToolTip(QObject::tr("The selected rows as a Markdown table"));
    QObject::connect(copy, &QAction::triggered, view, [view] { copySelectedRows(view, false); });
    QObject::connect(copyMarkdown, &QAction::triggered, view, [view] { copySelectedRows(view, true); });
}

}  // namespace fp8dash::ui::exporting
