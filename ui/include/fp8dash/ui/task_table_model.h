#pragma once
// TaskTableModel: the compared tasks of a ComparisonReport as a tree (groups have their subtasks as children).
// Columns: Task, Metric, baseline value, candidate value (headers are the run labels), Δ%, ±σ, Verdict, then the
// statistics of the comparison (README "The comparison rules"): Confidence (clear / inconclusive (n≈N)), Paired p (the
// paired test on the sample logs) and Noise floor (from a control run), then Degradation (%) and Recovery (%, candidate
// / baseline), and Changed (the answers lost and gained on the paired sample logs); a view hides Confidence, Paired p,
// Noise floor and Changed when columnHasData() says no row has them, so a document without them looks as before.
// Display text is rounded (values 4 decimals, Δ% signed 2 decimals, σ 1 decimal); SortRole carries the exact number so
// a QSortFilterProxyModel sorts numerically. Holds its own copy of the report. GUI thread only. A report with the same
// rows (the same tasks and subtasks, in the same order: a re-evaluation, a note, a refresh) updates the rows in place
// with dataChanged, so the views keep expansion, selection, sort and scroll; anything else resets the model. A theme
// change emits dataChanged for the colour roles over every row (theme.h).

#include <QAbstractItemModel>

#include <memory>
#include <vector>

#include "fp8dash/core/eval_comparison.h"

namespace fp8dash::ui {

class TaskTableModel : public QAbstractItemModel {
    Q_OBJECT
public:
    enum Column {
        TaskColumn,
        MetricColumn,
        BaselineColumn,
        CandidateColumn,
        DeltaColumn,
        SigmaColumn,
        VerdictColumn,
        ConfidenceColumn,
        PairedPColumn,
        NoiseFloorColumn,
        DegradationColumn,  // after the seed's columns (their numbers stay); the view shows them beside Δ%
        RecoveryColumn,
        // The answers the candidate changed on the paired logs: "−58 / +22" (lost / gained); sorts by the change rate.
        ChangedColumn,
        ColumnCount
    };
    enum Role {
        SortRole = Qt::UserRole,  // double for numbers (missing ones sort first), int for the verdict, else text
        VerdictRole,              // int(Verdict) of the row
        TaskNameRole,             // the task name (QString), any column
        IsSubtaskRole,            // bool: a drill-down row that does not count toward the verdict
        // The task column's name as the file has it (QString): DisplayRole shows its controls escaped (untrusted_ui.h),
        // so a note's task and a lookup by name use this. A subtask's path under its group, as DisplayRole.
        TaskPathRole,
    };

    explicit TaskTableModel(QObject* parent = nullptr);
    ~TaskTableModel() override;

    void setReport(const ComparisonReport& report);
    void clear();
    // dataChanged over every row (subtasks included) for the roles that paint with theme colours; on Theme::changed.
    void repaintColours();
    const ComparisonReport& report() const { return m_report; }

    // The comparison behind an index of this model (not of a proxy); nullptr for an invalid index.
    const TaskComparison* comparisonAt(const QModelIndex& index) const;
    // Whether any top-level row has something to show in a column (always true for the columns of the seed).
    bool columnHasData(int column) const;

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;

private:
    struct Node;
    static void addNodes(std::vector<std::unique_ptr<Node>>& into, const std::vector<TaskComparison>& tasks,
                         Node* parent);
    void buildNodes();
    static bool sameRows(const std::vector<TaskComparison>& a, const std::vector<TaskComparison>& b);
    static void repoint(std::vector<std::unique_ptr<Node>>& nodes, const std::vector<TaskComparison>& tasks);
    void emitChanged(const QModelIndex& parent, const QList<int>& roles);
    const Node* nodeOf(const QModelIndex& index) const;
    QVariant displayText(const TaskComparison& t, int column, bool subtaskRow) const;
    QVariant sortValue(const TaskComparison& t, int column) const;
    QString toolTip(const TaskComparison& t, int column, bool subtaskRow) const;

    ComparisonReport m_report;
    std::vector<std::unique_ptr<Node>> m_roots;
    bool m_hasConfidence = false;
    bool m_hasPaired = false;
    bool m_hasNoiseFloor = false;
    bool m_hasChanged = false;
};

}  // namespace fp8dash::ui
