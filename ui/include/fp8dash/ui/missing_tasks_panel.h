#pragma once
// MissingTasksPanel: what could not be compared: tasks only one run has or whose metric one run lacks, and the
// subtasks of compared groups that one side lacks, each with the reason; below them the comparability check's
// findings (blocking differences and notes). GUI thread only.

#include <QStringList>
#include <QWidget>

#include "fp8dash/core/eval_comparison.h"

class QLabel;
class QVBoxLayout;

namespace fp8dash::ui {

class MissingTasksPanel : public QWidget {
    Q_OBJECT
public:
    explicit MissingTasksPanel(QWidget* parent = nullptr);

    void setReport(const ComparisonReport& report);
    QStringList entries() const { return m_entries; }  // plain text of each row, as shown

private:
    void addComparability(const ComparisonReport& report);

    QLabel* m_title = nullptr;
    QVBoxLayout* m_rows = nullptr;
    QStringList m_entries;
};

}  // namespace fp8dash::ui
