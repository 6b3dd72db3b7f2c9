#include "fp8dash/ui/missing_tasks_panel.h"

#include <QLabel>
#include <QVBoxLayout>

#include "fp8dash/ui/loaded_comparison.h"
#include "widgets/ui_style.h"

namespace fp8dash::ui {

MissingTasksPanel::MissingTasksPanel(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(6);
    m_title = style::sectionTitle(tr("Not compared"), this);
    layout->addWidget(m_title);
    m_rows = new QVBoxLayout;
    m_rows->setSpacing(4);
    layout->addLayout(m_rows);
}

namespace {

// Subtasks of compared groups that one side lacks, at any depth, with the group they belong to.
void collectSubtaskGaps(const TaskComparison& t, std::vector<std::pair<QString, QString>>& out) {
    for (const std::string& s : t.subtasksNotCompared) out.emplace_back(toQString(t.task), toQString(s));
    for (const TaskComparison& sub : t.subtasks) collectSubtaskGaps(sub, out);
}

}  // namespace

void MissingTasksPanel::setReport(const ComparisonReport& report) {
    style::clearLayout(m_rows);
    m_entries.clear();

    std::vector<std::pair<QString, QString>> gaps;
    for (const TaskComparison& t : report.tasks) collectSubtaskGaps(t, gaps);
    const int count = static_cast<int>(report.missing.size() + gaps.size());
    m_title->setText(count == 0 ? tr("Not compared") : tr("Not compared (%1)").arg(count));
    if (count == 0) m_rows->addWidget(style::caption(tr("Every task in both runs was compared."), this));
    for (const MissingTask& m : report.missing) {
        const QString task = toQString(m.task);
        const QString reason = toQString(m.reason);
        m_entries << task + QStringLiteral(": ") + reason;
        m_rows->addWidget(
            style::iconRow(style::RowIcon::Info,
                           QStringLiteral("<b>%1</b>: %2").arg(style::escaped(task), style::escaped(reason)), this));
    }
    for (const auto& [group, what] : gaps) {
        m_entries << tr("in %1: %2").arg(group, what);
        m_rows->addWidget(style::iconRow(
            style::RowIcon::Info, tr("in <b>%1</b>: %2").arg(style::escaped(group), style::escaped(what)), this));
    }
    addComparability(report);
}

// The comparability check beside the tasks it left out: blocking differences with a warning icon, notes (harness
// version, seeds, renamed tasks matched) with an info icon; each row's text as comparabilityLine words it.
void MissingTasksPanel::addComparability(const ComparisonReport& report) {
    if (report.comparability.empty()) return;
    m_rows->addWidget(style::sectionTitle(tr("Comparability"), this));
    for (const ComparabilityItem& item : report.comparability) {
        const QString line = toQString(comparabilityLine(item));
        m_entries << line;
        const bool blocking = item.severity == ComparabilitySeverity::Blocking;
        m_rows->addWidget(
            style::iconRow(blocking ? style::RowIcon::Warning : style::RowIcon::Info, style::escaped(line), this));
    }
}

}  // namespace fp8dash::ui
