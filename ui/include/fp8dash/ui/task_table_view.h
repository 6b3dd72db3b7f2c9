#pragma once
// TaskTableView: the task table widget: a filter field over a sortable tree (TaskTableModel behind a
// QSortFilterProxyModel that sorts by TaskTableModel::SortRole and keeps a group's rows when a subtask matches), with
// a right-click menu to write a note about a task, and Changed Answers… (ChangedAnswersDialog: the documents a paired
// task's candidate changed; Ctrl+Shift+A, the right-click menu, or a double-click on the Changed cell). It starts
// worst first (sortWorstFirst) and keeps the Task column in place while the other columns scroll sideways. Where the
// pane is narrower than the columns, the Verdict stays in view and lower-priority columns yield (fitColumns).
// GUI thread only; owns the model, the proxy and the tree through Qt parenting.

#include <QWidget>

#include "fp8dash/core/eval_comparison.h"

class QAction;
class QLineEdit;
class QMenu;
class QModelIndex;
class QLabel;
class QSortFilterProxyModel;
class QTreeView;

namespace fp8dash::ui {

class TaskTableModel;
class ChangedAnswersDialog;
class FrozenColumn;

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

    // Worst first (the Verdict column descending: the verdict, then the degradation, as the slides order tasks): the
    // order a table starts in, and a new or reopened comparison's (MainWindow); a click on a header sorts otherwise.
    void sortWorstFirst();
    // The Task column kept in place while the others scroll sideways (shown only while they are scrolled).
    QTreeView* frozenTaskColumn() const;

    // The right-click menu for a row of the tree (an index of the proxy model; invalid: below the rows). The caller
    // owns it. The task a row shows ("" for none).
    QMenu* createContextMenu(const QModelIndex& proxyIndex);
    QString taskAt(const QModelIndex& proxyIndex) const;

    // Changed Answers… for a row (a subtask's: its group's, which holds the documents): the reason it cannot open (""
    // when it can), and the non-modal dialog it opens (the open one for that task is raised instead); nullptr when it
    // cannot. The action follows the current row: enabled when its paired result holds documents, else its tooltip and
    // status tip say why.
    QString changedAnswersUnavailableAt(const QModelIndex& proxyIndex) const;
    ChangedAnswersDialog* openChangedAnswers(const QModelIndex& proxyIndex);
    QAction* changedAnswersAction() const { return m_changedAnswers; }

    // The columns hidden for lack of room (fitColumns' rule: the Verdict never yields), by header text, in the order
    // they yielded; empty when every column with data is shown.
    QStringList columnsHiddenForRoom() const { return m_hiddenForRoom; }

signals:
    void addNoteRequested(const QString& task);  // "" = about the whole comparison

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void resizeColumns();
    void fitColumns();  // the rule for a pane narrower than the columns (task_table_view.cpp, docs/desktop-app.md)
    void updateChangedAnswersAction();
    struct Place;
    Place savePlace() const;
    void restorePlace(const Place& place);

    QLineEdit* m_filter = nullptr;
    QLabel* m_hint = nullptr;
    QTreeView* m_tree = nullptr;
    TaskTableModel* m_model = nullptr;
    QSortFilterProxyModel* m_proxy = nullptr;
    QAction* m_changedAnswers = nullptr;
    FrozenColumn* m_frozen = nullptr;
    QString m_hintText;           // the hint above the table, without the columns hidden for room
    QStringList m_hiddenForRoom;  // their header texts
    bool m_fitting = false;       // fitColumns' own resizes do not call it again
    bool m_fitPending = false;    // a fit is queued (a column's contents changed width)
};

}  // namespace fp8dash::ui
