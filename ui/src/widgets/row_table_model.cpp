#include "fp8dash/ui/row_table_model.h"

#include <QColor>

#include <algorithm>
#include <numeric>

#include "fp8dash/ui/export_actions.h"
#include "widgets/ui_style.h"
#include "widgets/untrusted_ui.h"

namespace fp8dash::ui {
namespace {

bool isNumber(const QVariant& v) {
    switch (v.typeId()) {
        case QMetaType::Double:
        case QMetaType::Float:
        case QMetaType::Int:
        case QMetaType::UInt:
        case QMetaType::LongLong:
        case QMetaType::ULongLong:
            return true;
        default:
            return false;
    }
}

// The sort key order: numbers by value, anything else by its text; a number sorts before text.
bool rowValueLess(const QVariant& a, const QVariant& b) {
    const bool an = isNumber(a), bn = isNumber(b);
    if (an && bn) return a.toDouble() < b.toDouble();
    if (an != bn) return an;
    return a.toString() < b.toString();
}

}  // namespace

RowTableModel::RowTableModel(QObject* parent) : QAbstractTableModel(parent) {
    // A theme change repaints the colours in place: no reset, so the view keeps its selection, sort and scroll.
    style::onThemeChange(this, [this] { repaintColours(); });
}

int RowTableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_order.size());
}

int RowTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_columns.size());
}

int RowTableModel::sourceRow(int row) const {
    if (row < 0 || row >= static_cast<int>(m_order.size())) return -1;
    return m_order[static_cast<std::size_t>(row)];
}

const TableCell* RowTableModel::cellAt(const QModelIndex& index) const {
    if (!index.isValid() || index.parent().isValid()) return nullptr;
    const int source = sourceRow(index.row());
    if (source < 0) return nullptr;
    const auto& row = m_rows[static_cast<std::size_t>(source)];
    if (index.column() < 0 || index.column() >= static_cast<int>(row.size())) return nullptr;
    return &row[static_cast<std::size_t>(index.column())];
}

QVariant RowTableModel::data(const QModelIndex& index, int role) const {
    const TableCell* cell = cellAt(index);
    if (!cell) return {};
    switch (role) {
        case Qt::DisplayRole:
            return visibleText(cell->text);  // data: its controls shown (untrusted_ui.h)
        case Qt::UserRole:
            return cell->value;
        case Qt::ToolTipRole:
            return cell->toolTip.isEmpty() ? QVariant() : QVariant(escapedTip(cell->toolTip));
        case Qt::TextAlignmentRole:
            return cell->number ? QVariant(Qt::AlignRight | Qt::AlignVCenter) : QVariant();
        case Qt::ForegroundRole:
            if (cell->tone == TableCell::Tone::Investigate) return style::verdictTextColor(Verdict::Investigate);
            if (cell->tone == TableCell::Tone::Good) return style::successTextColor();
            if (cell->tone == TableCell::Tone::Bad) return style::errorTextColor();
            return {};
        default:
            return {};
    }
}

QVariant RowTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    const auto& headers = orientation == Qt::Horizontal ? m_columns : m_rowHeaders;
    if (section < 0 || section >= static_cast<int>(headers.size())) {
        return QAbstractTableModel::headerData(section, orientation, role);
    }
    const TableHeader& h = headers[static_cast<std::size_t>(section)];
    switch (role) {
        case Qt::DisplayRole:
            return visibleText(h.title);
        case Qt::ToolTipRole:
            return h.toolTip.isEmpty() ? QVariant() : QVariant(escapedTip(h.toolTip));
        case exporting::kCsvUnitRole:
            return h.csvUnit.isEmpty() ? QVariant() : QVariant(h.csvUnit);
        default:
            return {};
    }
}

void RowTableModel::setTable(std::vector<TableHeader> columns, std::vector<std::vector<TableCell>> rows,
                             std::vector<TableHeader> rowHeaders) {
    beginResetModel();
    m_columns = std::move(columns);
    m_rows = std::move(rows);
    m_rowHeaders = std::move(rowHeaders);
    m_order.resize(m_rows.size());
    std::iota(m_order.begin(), m_order.end(), 0);
    if (m_sortColumn >= static_cast<int>(m_columns.size())) m_sortColumn = -1;
    applySort();
    ++m_resets;
    endResetModel();
}

void RowTableModel::applySort() {
    std::iota(m_order.begin(), m_order.end(), 0);  // stable from the data's own order, as a fresh sort would be
    if (m_sortColumn < 0) return;
    const auto key = [this](int row) -> QVariant {
        const auto& cells = m_rows[static_cast<std::size_t>(row)];
        const auto column = static_cast<std::size_t>(m_sortColumn);
        return column < cells.size() ? cells[column].value : QVariant();
    };
    std::stable_sort(m_order.begin(), m_order.end(), [&](int a, int b) {
        return m_sortOrder == Qt::AscendingOrder ? rowValueLess(key(a), key(b)) : rowValueLess(key(b), key(a));
    });
}

void RowTableModel::sort(int column, Qt::SortOrder order) {
    emit layoutAboutToBeChanged({}, QAbstractItemModel::VerticalSortHint);
    const std::vector<int> before = m_order;
    m_sortColumn = column >= 0 && column < static_cast<int>(m_columns.size()) ? column : -1;
    m_sortOrder = order;
    applySort();
    std::vector<int> newRowOf(m_order.size());
    for (std::size_t row = 0; row < m_order.size(); ++row) newRowOf[static_cast<std::size_t>(m_order[row])] = int(row);
    QModelIndexList from, to;
    for (const QModelIndex& index : persistentIndexList()) {
        from << index;
        const int source = before[static_cast<std::size_t>(index.row())];
        to << this->index(newRowOf[static_cast<std::size_t>(source)], index.column());
    }
    changePersistentIndexList(from, to);
    emit layoutChanged({}, QAbstractItemModel::VerticalSortHint);
}

void RowTableModel::repaintColours() {
    if (m_order.empty() || m_columns.empty()) return;
    emit dataChanged(index(0, 0), index(rowCount() - 1, columnCount() - 1), {Qt::ForegroundRole, Qt::BackgroundRole});
}

}  // namespace fp8dash::ui
