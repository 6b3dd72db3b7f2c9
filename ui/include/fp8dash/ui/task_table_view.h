#pragma once
// TaskTableView: the task table widget: a filter field over a sortable tree (TaskTableModel behind a
// QSortFilterProxyModel that sorts by TaskTableModel::SortRole and keeps a group's rows when a subtask matches), with
// a right-click menu to write a note about a task.
// GUI thread only; owns the model, the proxy and the tree through Qt parenting.

#include <QWidget>

#include "fp8dash/core/eval_comparison.h"

class QLineEdit;
class QMenu;
class QModelIndex;
class QLabel;
class QSortFilterProxyModel;
class QTreeView;

namespace fp8dash::ui {

class TaskTableModel;

class TaskTableView : public QWidget {
    Q_OBJECT
public:
    explicit TaskTableView(QWidget* parent = nullptr);

    // The same rows update in place (TaskTableModel); other rows reset the model, and the expanded groups, the
    // selection and the current row come back by task name (the scroll position too when the current row is still
    // there): a refresh that adds or drops a task keeps the user's place.
    void setReport(const ComparisonReport& report);

    QTreeView* treeView() const { return m_tree; }
    TaskTableModel* model() const { return m_model; }
    QSortFilterProxyModel* proxyModel() const { return m_proxy; }
    QLineEdit* filterEdit() const { return m_filter; }

    // Makes the task's row current and selected and scrolls to it (a subtask's group is expanded); false when no row
    // shows that task (filtered out, or not compared).
    bool selectTask(const QString& task);

    void expandAll();
    void collapseAll();

    // The right-click menu for a row of the tree (an index of the proxy model; invalid: below the rows). The caller
    // owns it. The task a row shows ("" for none).
    QMenu* createContextMenu(const QModelIndex& proxyIndex);
    QString taskAt(const QModelIndex& proxyIndex) const;

signals:
    void addNoteRequested(const QString& task);  // "" = about the whole comparison

private:
    void resizeColumns();
    struct Place;
    Place savePlace() const;
    void restorePlace(const Place& place);

    QLineEdit* m_filter = nullptr;
    QLabel* m_hint = nullptr;
    QTreeView* m_tree = nullptr;
    TaskTableModel* m_model = nullptr;
    QSortFilterProxyModel* m_proxy = nullptr;
};

}  // namespace fp8dash::ui
