#include "fp8dash/ui/task_table_view.h"

#include <QAction>
#include <QEvent>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QScrollBar>
#include <QSortFilterProxyModel>
#include <QTreeView>
#include <QVBoxLayout>

#include <algorithm>
#include <optional>

#include "fp8dash/ui/changed_answers_dialog.h"
#include "fp8dash/ui/export_actions.h"
#include "fp8dash/ui/loaded_comparison.h"
#include "fp8dash/ui/number_text.h"
#include "fp8dash/ui/task_table_model.h"
#include "widgets/frozen_column.h"
#include "widgets/ui_style.h"
#include "widgets/untrusted_ui.h"

namespace fp8dash::ui {

namespace {

// The Verdict column sorts worst first when descending, in the slides' order (core's worseFirst: the verdict, then
// the degradation); every other column by TaskTableModel::SortRole. The sort is stable: ties keep the file's order.
class TaskSortProxy : public QSortFilterProxyModel {
public:
    using QSortFilterProxyModel::QSortFilterProxyModel;

protected:
    bool lessThan(const QModelIndex& left, const QModelIndex& right) const override {
        if (left.column() == TaskTableModel::VerdictColumn) {
            const auto* model = static_cast<const TaskTableModel*>(sourceModel());
            const TaskComparison* a = model->comparisonAt(left);
            const TaskComparison* b = model->comparisonAt(right);
            if (a && b) return worseFirst(*b, *a);  // "less" is better: descending is worst first
        }
        return QSortFilterProxyModel::lessThan(left, right);
    }
};

}  // namespace

TaskTableView::TaskTableView(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(6);

    auto* top = new QHBoxLayout;
    top->setSpacing(12);
    m_filter = new QLineEdit(this);
    m_filter->setObjectName(QStringLiteral("taskFilter"));
    m_filter->setAccessibleName(tr("Filter tasks"));
    m_filter->setPlaceholderText(tr("Filter tasks…"));
    m_filter->setClearButtonEnabled(true);
    m_filter->setMaximumWidth(320);
    top->addWidget(m_filter, 1);
    m_hint = style::caption(
        tr("Worst first · click a header to sort · expand a group for its subtasks · hover a row for details"), this);
    top->addWidget(m_hint, 2);
    // The figure model cards give, beside the table's per-task Recovery column; set by setReport.
    auto* recovery = style::caption(QString(), this);
    recovery->setObjectName(QStringLiteral("averageRecovery"));
    recovery->setVisible(false);
    top->addWidget(recovery, 0);
    layout->addLayout(top);

    m_model = new TaskTableModel(this);
    m_proxy = new TaskSortProxy(this);
    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(TaskTableModel::SortRole);
    m_proxy->setSortCaseSensitivity(Qt::CaseInsensitive);
    m_proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    m_proxy->setFilterKeyColumn(TaskTableModel::TaskColumn);
    m_proxy->setRecursiveFilteringEnabled(true);  // a matching subtask keeps its group visible

    m_tree = new QTreeView(this);
    m_tree->setObjectName(QStringLiteral("taskTree"));
    m_tree->setAccessibleName(tr("Tasks compared"));
    m_tree->setModel(m_proxy);
    m_tree->setUniformRowHeights(true);
    m_tree->setAlternatingRowColors(true);
    m_tree->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_tree->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_tree->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_tree->setAllColumnsShowFocus(true);
    // Six pixels each side: ten columns and the Verdict still fit a 1366-pixel laptop screen.
    m_tree->setStyleSheet(QStringLiteral("QTreeView::item { padding: 4px 6px; }"));

    QHeaderView* header = m_tree->header();
    header->setStretchLastSection(false);
    header->setSectionsMovable(false);
    header->setSectionResizeMode(QHeaderView::ResizeToContents);
    // The metric column is as wide as its (readable) names, and takes the spare width when there is some (so the
    // table fills its pane without an empty band on the right); it never squeezes the Verdict off a laptop's screen.
    header->setSectionResizeMode(TaskTableModel::MetricColumn, QHeaderView::Interactive);
    header->setMinimumSectionSize(48);
    header->setDefaultAlignment(Qt::AlignLeft | Qt::AlignVCenter);
    // Worst first, as the slides; a click sorts by another column, a third click on the same header returns to the
    // file's order.
    header->setSortIndicatorClearable(true);
    header->setSortIndicator(TaskTableModel::VerdictColumn, Qt::DescendingOrder);
    m_tree->setSortingEnabled(true);
    layout->addWidget(m_tree, 1);
    // The Task column stays in place while the other columns scroll sideways.
    m_frozen = new FrozenColumn(m_tree);
    m_tree->viewport()->installEventFilter(this);
    connect(header, &QHeaderView::sectionResized, this, [this](int section) {
        if (section != TaskTableModel::MetricColumn) fitMetricColumn();
    });

    // One right-click menu: the notes about the task under the mouse, then the CSV export of the table.
    m_tree->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(m_tree, &QWidget::customContextMenuRequested, this, [this](const QPoint& pos) {
        QMenu* menu = createContextMenu(m_tree->indexAt(pos));
        menu->setAttribute(Qt::WA_DeleteOnClose);
        menu->popup(m_tree->viewport()->mapToGlobal(pos));
    });

    // Changed Answers…: the current row's documents. Its key belongs to the main window's View › Changed Answers of
    // the Current Task…, which triggers this action (one owner, window-wide: two actions with one key would be an
    // ambiguous shortcut that neither fires); the row's right-click menu shows the key.
    m_changedAnswers = new QAction(tr("C&hanged Answers…"), this);
    m_changedAnswers->setObjectName(QStringLiteral("changedAnswersAction"));
    m_changedAnswers->setEnabled(false);
    connect(m_changedAnswers, &QAction::triggered, this, [this] { openChangedAnswers(m_tree->currentIndex()); });
    connect(m_tree->selectionModel(), &QItemSelectionModel::currentChanged, this,
            &TaskTableView::updateChangedAnswersAction);
    connect(m_proxy, &QAbstractItemModel::modelReset, this, &TaskTableView::updateChangedAnswersAction);
    connect(m_proxy, &QAbstractItemModel::dataChanged, this, &TaskTableView::updateChangedAnswersAction);
    // A double-click on the Changed cell opens them (elsewhere it keeps expanding a group).
    connect(m_tree, &QAbstractItemView::doubleClicked, this, [this](const QModelIndex& index) {
        if (index.column() == TaskTableModel::ChangedColumn) openChangedAnswers(index);
    });

    connect(m_filter, &QLineEdit::textChanged, this, [this](const QString& text) {
        m_proxy->setFilterFixedString(text.trimmed());
        if (!text.trimmed().isEmpty()) m_tree->expandAll();  // show the matching subtasks, not just their groups
        m_frozen->syncExpanded();
    });
}

void TaskTableView::sortWorstFirst() {
    m_tree->sortByColumn(TaskTableModel::VerdictColumn, Qt::DescendingOrder);
}

QTreeView* TaskTableView::frozenTaskColumn() const {
    return m_frozen->overlay();
}

bool TaskTableView::eventFilter(QObject* watched, QEvent* event) {
    if (watched == m_tree->viewport() && event->type() == QEvent::Resize) fitMetricColumn();
    return QWidget::eventFilter(watched, event);
}

// The metric column: its names' width, or more where the pane has width to spare.
void TaskTableView::fitMetricColumn() {
    QHeaderView* header = m_tree->header();
    const int metric = TaskTableModel::MetricColumn;
    // QTreeView's override is protected; through the base it is public (and still the tree's, indentation included).
    const QAbstractItemView* view = m_tree;
    const int content = std::max(view->sizeHintForColumn(metric), header->sectionSizeHint(metric));
    const int others = header->length() - header->sectionSize(metric);
    const int spare = m_tree->viewport()->width() - others;
    const int width = std::max(content, spare);
    if (header->sectionSize(metric) != width) header->resizeSection(metric, width);
}

// The user's place by task name, for a model reset (rows keep no identity across one).
struct TaskTableView::Place {
    QStringList expanded;
    QStringList selected;
    QString current;
    int scroll = 0;
};

namespace {
void collectPlace(const QTreeView* tree, const QModelIndex& parent, QStringList& expanded) {
    const QAbstractItemModel* model = tree->model();
    for (int r = 0; r < model->rowCount(parent); ++r) {
        const QModelIndex row = model->index(r, 0, parent);
        if (!tree->isExpanded(row)) continue;
        expanded << row.data(TaskTableModel::TaskNameRole).toString();
        collectPlace(tree, row, expanded);
    }
}

void findRows(const QAbstractItemModel* model, const QModelIndex& parent, const QStringList& names,
              QModelIndexList& out) {
    for (int r = 0; r < model->rowCount(parent); ++r) {
        const QModelIndex row = model->index(r, 0, parent);
        if (names.contains(row.data(TaskTableModel::TaskNameRole).toString())) out << row;
        findRows(model, row, names, out);
    }
}
}  // namespace

TaskTableView::Place TaskTableView::savePlace() const {
    Place place;
    collectPlace(m_tree, {}, place.expanded);
    for (const QModelIndex& row : m_tree->selectionModel()->selectedRows()) {
        place.selected << row.data(TaskTableModel::TaskNameRole).toString();
    }
    place.current = m_tree->currentIndex().data(TaskTableModel::TaskNameRole).toString();
    place.scroll = m_tree->verticalScrollBar()->value();
    return place;
}

void TaskTableView::restorePlace(const Place& place) {
    QModelIndexList rows;
    findRows(m_proxy, {}, place.expanded, rows);
    for (const QModelIndex& row : rows) m_tree->expand(row);
    rows.clear();
    findRows(m_proxy, {}, place.selected, rows);
    QItemSelectionModel* selection = m_tree->selectionModel();
    for (const QModelIndex& row : rows) selection->select(row, QItemSelectionModel::Select | QItemSelectionModel::Rows);
    rows.clear();
    if (!place.current.isEmpty()) findRows(m_proxy, {}, {place.current}, rows);
    if (!rows.isEmpty()) {
        selection->setCurrentIndex(rows.first(), QItemSelectionModel::NoUpdate);
        m_tree->doItemsLayout();  // the scroll range of the expanded rows, before the value goes back
        m_tree->verticalScrollBar()->setValue(place.scroll);
    }
}

void TaskTableView::setReport(const ComparisonReport& report) {
    std::optional<Place> place;
    // Only a reset loses the place (the same rows are updated in place and keep it by themselves).
    const auto connection =
        connect(m_model, &QAbstractItemModel::modelAboutToBeReset, this, [this, &place] { place = savePlace(); });
    m_model->setReport(report);
    disconnect(connection);
    if (place) restorePlace(*place);
    if (auto* recovery = findChild<QLabel*>(QStringLiteral("averageRecovery"))) {
        recovery->setVisible(report.averageRecoveryPct.has_value());
        recovery->setText(report.averageRecoveryPct
                              ? tr("Average recovery: %1 %").arg(fixedText(*report.averageRecoveryPct, 2))
                              : QString());
        recovery->setToolTip(escapedTip(
            tr("Mean %1 / mean %2 × 100 over the compared higher-is-better tasks")
                .arg(QString::fromStdString(report.candidateLabel), QString::fromStdString(report.baselineLabel))));
    }
    // The statistics columns come after the verdict in the model (so the seed's column numbers stay); on screen
    // they sit beside Δ% and ±σ, and the verdict stays last. A model reset may restore the logical order.
    QHeaderView* header = m_tree->header();
    const int verdictAt = header->visualIndex(TaskTableModel::VerdictColumn);
    if (verdictAt >= 0 && verdictAt != header->count() - 1) header->moveSection(verdictAt, header->count() - 1);
    // Degradation and recovery right after Δ%, as in the text and the report.
    for (int c : {TaskTableModel::RecoveryColumn, TaskTableModel::DegradationColumn}) {
        const int at = header->visualIndex(c), to = header->visualIndex(TaskTableModel::DeltaColumn) + 1;
        if (at >= 0 && at != to) header->moveSection(at, to);
    }
    // Documents without the statistics look as they did before them.
    // The answers changed beside the paired p (before the verdict, which stays last).
    if (const int at = header->visualIndex(TaskTableModel::ChangedColumn),
        to = header->visualIndex(TaskTableModel::PairedPColumn) + 1;
        at >= 0 && at != to)
        header->moveSection(at, at < to ? to - 1 : to);
    for (int c : {TaskTableModel::ConfidenceColumn, TaskTableModel::PairedPColumn, TaskTableModel::NoiseFloorColumn,
                  TaskTableModel::ChangedColumn}) {
        m_tree->setColumnHidden(c, !m_model->columnHasData(c));
    }
    resizeColumns();
    m_frozen->syncExpanded();
    updateChangedAnswersAction();
}

namespace {
// The row that holds a row's paired documents: a subtask's group (the paired results are the top-level tasks').
QModelIndex pairedRow(const QModelIndex& proxyIndex) {
    QModelIndex row = proxyIndex.siblingAtColumn(TaskTableModel::TaskColumn);
    while (row.isValid() && row.parent().isValid()) row = row.parent();
    return row;
}
}  // namespace

QString TaskTableView::changedAnswersUnavailableAt(const QModelIndex& proxyIndex) const {
    const QModelIndex row = pairedRow(proxyIndex);
    const TaskComparison* t = row.isValid() ? m_model->comparisonAt(m_proxy->mapToSource(row)) : nullptr;
    if (!t) return tr("Choose a task.");
    return changedAnswersUnavailable(t->paired ? &*t->paired : nullptr);
}

ChangedAnswersDialog* TaskTableView::openChangedAnswers(const QModelIndex& proxyIndex) {
    const QModelIndex row = pairedRow(proxyIndex);
    const TaskComparison* t = row.isValid() ? m_model->comparisonAt(m_proxy->mapToSource(row)) : nullptr;
    if (!t || !changedAnswersUnavailable(t->paired ? &*t->paired : nullptr).isEmpty()) return nullptr;
    const QString task = toQString(t->task);
    const ComparisonReport& report = m_model->report();
    const QString baseline = toQString(report.baselineLabel), candidate = toQString(report.candidateLabel);
    // One window per task and candidate: the open one comes to the front.
    QWidget* owner = window();
    for (ChangedAnswersDialog* open : owner->findChildren<ChangedAnswersDialog*>()) {
        if (open->task() == task && open->property("candidate").toString() == candidate) {
            open->show();
            open->raise();
            open->activateWindow();
            return open;
        }
    }
    auto* dialog = new ChangedAnswersDialog(*t->paired, task, baseline, candidate, owner);
    dialog->setProperty("candidate", candidate);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->show();
    return dialog;
}

void TaskTableView::updateChangedAnswersAction() {
    const QModelIndex current = m_tree->currentIndex();
    const QString why = current.isValid() ? changedAnswersUnavailableAt(current) : tr("Choose a task.");
    m_changedAnswers->setEnabled(why.isEmpty());
    // The name from the file: its controls shown, an ampersand not a mnemonic.
    const QString task = visibleText(taskAt(pairedRow(current))).replace(QLatin1Char('&'), QStringLiteral("&&"));
    m_changedAnswers->setText(task.isEmpty() ? tr("C&hanged Answers…") : tr("C&hanged Answers of %1…").arg(task));
    const QString tip = why.isEmpty() ? tr("The documents whose answer changed, side by side") : why;
    m_changedAnswers->setToolTip(tip);
    m_changedAnswers->setStatusTip(tip);
}

QString TaskTableView::taskAt(const QModelIndex& proxyIndex) const {
    if (!proxyIndex.isValid()) return {};
    return proxyIndex.siblingAtColumn(TaskTableModel::TaskColumn).data(TaskTableModel::TaskPathRole).toString();
}

bool TaskTableView::selectTask(const QString& task) {
    if (task.isEmpty()) return false;
    const QModelIndexList hits =
        m_proxy->match(m_proxy->index(0, TaskTableModel::TaskColumn), TaskTableModel::TaskPathRole, task, 1,
                       Qt::MatchExactly | Qt::MatchRecursive);
    if (hits.isEmpty()) return false;
    const QModelIndex hit = hits.front();
    if (hit.parent().isValid()) m_tree->expand(hit.parent());
    m_tree->setCurrentIndex(hit);
    m_tree->selectionModel()->select(hit, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    m_tree->scrollTo(hit);
    m_tree->setFocus();
    return true;
}

QMenu* TaskTableView::createContextMenu(const QModelIndex& proxyIndex) {
    auto* menu = new QMenu(this);
    const QString task = taskAt(proxyIndex);
    if (!task.isEmpty()) {
        menu->addAction(tr("Add Note About %1…").arg(task), this, [this, task] { emit addNoteRequested(task); });
    }
    menu->addAction(tr("Add Note About the Comparison…"), this, [this] { emit addNoteRequested(QString()); });
    menu->addSeparator();
    if (!task.isEmpty()) {
        menu->setToolTipsVisible(true);  // a disabled Changed Answers… says why
        QAction* changed =
            menu->addAction(tr("C&hanged Answers…"), this,
                            [this, index = QPersistentModelIndex(proxyIndex)] { openChangedAnswers(index); });
        changed->setObjectName(QStringLiteral("changedAnswersMenuAction"));
        changed->setShortcut(changedAnswersShortcut());
        const QString why = changedAnswersUnavailableAt(proxyIndex);
        changed->setEnabled(why.isEmpty());
        changed->setToolTip(why.isEmpty() ? tr("The documents whose answer changed, side by side") : why);
        changed->setStatusTip(changed->toolTip());
        menu->addSeparator();
    }
    exporting::addTableExportAction(menu, m_tree, QStringLiteral("fp8dash-tasks"));
    return menu;
}

void TaskTableView::expandAll() {
    m_tree->expandAll();
    m_frozen->syncExpanded();
}
void TaskTableView::collapseAll() {
    m_tree->collapseAll();
    m_frozen->syncExpanded();
}

void TaskTableView::resizeColumns() {
    for (int c = 0; c < TaskTableModel::ColumnCount; ++c)
        if (c != TaskTableModel::MetricColumn) m_tree->resizeColumnToContents(c);
    fitMetricColumn();
}

}  // namespace fp8dash::ui
