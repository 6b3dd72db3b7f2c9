#pragma once
// RowTableModel: the read-only table model behind the bench, judge and capacity tables. A subclass takes plain core
// structs (BenchResults, JudgeComparison, CapacityResult), turns each into a row of TableCells once, and hands them
// to setTable; the model serves them in the roles the views, the CSV export and the copy action read:
//   DisplayRole  the cell's text;  Qt::UserRole  its exact value, also the sort key (the CSV writes it);
//   ToolTipRole  its tooltip;      TextAlignmentRole  right for numbers;
//   ForegroundRole  the tone's colour, read from the palette when asked (never stored).
// sort() orders the rows by Qt::UserRole (stable, numbers as numbers, anything else as text) and keeps the order
// across setTable. A theme change never resets the model: it emits dataChanged for the colour roles over every cell,
// so selections, sort and scroll stay (style::onThemeChange: where the application has a Theme). GUI thread only.

#include <QAbstractTableModel>
#include <QList>
#include <QString>
#include <QVariant>

#include <vector>

namespace fp8dash::ui {

struct TableCell {
    // Investigate: the verdict's "look here" text colour; Good and Bad: a change in the good or the bad direction (the
    // palette's success and error text colours).
    enum class Tone { Plain, Investigate, Good, Bad };
    QString text;
    QVariant value;  // Qt::UserRole: exact value and sort key; invalid: none
    QString toolTip;
    bool number = false;  // right-aligned
    Tone tone = Tone::Plain;
};

struct TableHeader {
    QString title;
    QString toolTip;
    QString csvUnit;  // exporting::kCsvUnitRole; empty: none
};

class RowTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    explicit RowTableModel(QObject* parent = nullptr);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    void sort(int column, Qt::SortOrder order = Qt::AscendingOrder) override;

    // The row of the data a displayed row shows (the order setTable was given), for a view that looks up its struct.
    int sourceRow(int row) const;
    int sortColumn() const { return m_sortColumn; }

    // How many times the model was reset (new data): a theme change must leave it unchanged.
    int resetCount() const { return m_resets; }

    // Emits dataChanged for the colour roles over every cell (what a theme change does).
    void repaintColours();

protected:
    // Replaces the headers and rows (one model reset); the sort chosen before is applied again.
    void setTable(std::vector<TableHeader> columns, std::vector<std::vector<TableCell>> rows,
                  std::vector<TableHeader> rowHeaders = {});

private:
    const TableCell* cellAt(const QModelIndex& index) const;
    void applySort();

    std::vector<TableHeader> m_columns;
    std::vector<TableHeader> m_rowHeaders;  // vertical headers; empty: row numbers
    std::vector<std::vector<TableCell>> m_rows;
    std::vector<int> m_order;  // displayed row -> m_rows index
    int m_sortColumn = -1;
    Qt::SortOrder m_sortOrder = Qt::AscendingOrder;
    int m_resets = 0;
};

}  // namespace fp8dash::ui
