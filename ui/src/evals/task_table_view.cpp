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
#include <QStyle>
#include <QStyleOptionHeader>
#include <QTreeView>
#include <QVBoxLayout>

#include <algorithm>
#include <limits>
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

// The tree's header: a run label longer than its section is elided in the middle ("FP8 W8…ted scales)"), keeping
// both ends, rather than cut at the edge (the style sheet's header draws a long text clipped); the header's tooltip
// has the whole label (TaskTableModel).
class TaskHeaderView : public QHeaderView {
public:
    using QHeaderView::QHeaderView;

protected:
    // Only what is painted is elided: the size hint (sectionSizeFromContents) measures the whole label.
    void paintSection(QPainter* painter, const QRect& rect, int logicalIndex) const override {
        m_painting = true;
        QHeaderView::paintSection(painter, rect, logicalIndex);
        m_painting = false;
    }
    void initStyleOptionForIndex(QStyleOptionHeader* option, int logicalIndex) const override {
        QHeaderView::initStyleOptionForIndex(option, logicalIndex);
        if (!m_painting) return;
        int room = sectionSize(logicalIndex) - 2 * style()->pixelMetric(QStyle::PM_HeaderMargin, option, this) - 8;
        if (isSortIndicatorShown() && sortIndicatorSection() == logicalIndex)
            room -= style()->pixelMetric(QStyle::PM_HeaderMarkSize, option, this);
        if (room > 0 && option->fontMetrics.horizontalAdvance(option->text) > room)
            option->text = option->fontMetrics.elidedText(option->text, Qt::ElideMiddle, room);
    }

private:
    mutable bool m_painting = false;
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
    m_hintText = tr("Worst first · click a header to sort · expand a group for its subtasks · hover a row for details");
    m_hint = style::caption(m_hintText, this);
    m_hint->setObjectName(QStringLiteral("taskTableHint"));
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
    m_tree->setHeader(new TaskHeaderView(Qt::Horizontal, m_tree));
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
    // It and the run-label columns are sized by fitColumns, which narrows them first where room is short.
    header->setSectionResizeMode(TaskTableModel::MetricColumn, QHeaderView::Interactive);
    header->setSectionResizeMode(TaskTableModel::BaselineColumn, QHeaderView::Interactive);
    header->setSectionResizeMode(TaskTableModel::CandidateColumn, QHeaderView::Interactive);
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
    // A column sized to its contents changes width when its rows do (another candidate, a group opened): fit again,
    // once, after the tree has laid them out.
    connect(header, &QHeaderView::sectionResized, this, [this](int section) {
        if (section == TaskTableModel::MetricColumn || m_fitPending) return;
        m_fitPending = true;
        QMetaObject::invokeMethod(
            this,
            [this] {
                m_fitPending = false;
                fitColumns();
            },
            Qt::QueuedConnection);
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
    if (watched == m_tree->viewport() && event->type() == QEvent::Resize) fitColumns();
    return QWidget::eventFilter(watched, event);
}

namespace {
// The columns that hide when narrowing is not enough, the least needed first: Recovery (Δ% says the same), the noise
// floor (a control run's), Changed (the Changed Answers window and the Paired p tooltip keep the counts), Paired p
// (the Confidence column says whether the change is decided). Never the Verdict, the Task, the figures or Confidence.
constexpr int kTaskColumnsYieldOrder[] = {TaskTableModel::RecoveryColumn, TaskTableModel::NoiseFloorColumn,
                                          TaskTableModel::ChangedColumn, TaskTableModel::PairedPColumn};
constexpr int kRunLabelMinChars = 12;   // a shortened run label keeps about this many characters
constexpr int kMetricNarrowChars = 16;  // a narrowed metric name, elided (whole in the row's tooltip)
}  // namespace

// The rule for a pane narrower than the columns (issue 39, docs/desktop-app.md "The evals table on a small screen"):
// the Verdict column stays in view, and the others yield in this order until the columns fit:
//  1. the run-label columns (Baseline, Candidate: "FP8 W8A8 + FP8 KV (calibrated scales)") narrow to their numbers'
//     width, at least kRunLabelMinChars; the header elides the label in the middle (TaskHeaderView), its tooltip has
//     it whole;
//  2. the metric narrows to kMetricNarrowChars, elided (the row's tooltip has the name and the key);
//  3. whole columns hide, kTaskColumnsYieldOrder's order; the hint above the table names them.
// With room to spare nothing yields and the metric takes the spare width. Where even that is not enough (a pane
// narrower than Task, the figures and the Verdict), the table scrolls sideways with the Task column frozen.
void TaskTableView::fitColumns() {
    if (m_fitting) return;
    m_fitting = true;
    QHeaderView* header = m_tree->header();
    // QTreeView's override is protected; through the base it is public (and still the tree's, indentation included).
    const QAbstractItemView* view = m_tree;
    // The width a column's contents need, as QHeaderView::ResizeToContents computes it; a shown column sized to its
    // contents that the header has not shrunk yet counts at its present width (the safe side: a second fit follows).
    const auto natural = [&](int c) {
        int width = std::max({view->sizeHintForColumn(c), header->sectionSizeHint(c), header->minimumSectionSize()});
        if (!m_tree->isColumnHidden(c) && header->sectionResizeMode(c) == QHeaderView::ResizeToContents)
            width = std::max(width, header->sectionSize(c));
        return width;
    };
    // Not on screen yet, the viewport has no real width: nothing yields until it is shown (its resize fits again).
    const int available = m_tree->isVisible() ? m_tree->viewport()->width() : std::numeric_limits<int>::max() / 2;
    const int charWidth = m_tree->fontMetrics().averageCharWidth();
    const int padding = 2 * 6 + 8;  // the items' padding (the style sheet) and a little air
    // Every column with data, at its natural width.
    int widths[TaskTableModel::ColumnCount] = {};
    int total = 0;
    for (int c = 0; c < TaskTableModel::ColumnCount; ++c) {
        if (!m_model->columnHasData(c)) continue;
        widths[c] = natural(c);
        total += widths[c];
    }
    for (int c : {TaskTableModel::BaselineColumn, TaskTableModel::CandidateColumn}) {
        if (total <= available) break;
        const int narrowed = std::max(view->sizeHintForColumn(c), kRunLabelMinChars * charWidth + padding);
        if (narrowed >= widths[c]) continue;
        total -= widths[c] - narrowed;
        widths[c] = narrowed;
    }
    const int metric = TaskTableModel::MetricColumn;
    if (total > available) {
        const int narrowed = std::min(widths[metric], kMetricNarrowChars * charWidth + padding);
        total -= widths[metric] - narrowed;
        widths[metric] = narrowed;
    }
    QStringList hidden;
    for (int c : kTaskColumnsYieldOrder) {
        if (total <= available) break;
        if (widths[c] == 0) continue;
        total -= widths[c];
        widths[c] = 0;
        hidden << m_model->headerData(c, Qt::Horizontal, Qt::DisplayRole).toString();
    }
    // The spare width, if any, gives the run labels back what they need, then goes to the metric.
    if (m_tree->isVisible()) {
        int spare = std::max(0, available - total);
        for (int c : {TaskTableModel::BaselineColumn, TaskTableModel::CandidateColumn}) {
            const int back = widths[c] > 0 ? std::min(spare, natural(c) - widths[c]) : 0;
            widths[c] += std::max(0, back);
            spare -= std::max(0, back);
        }
        widths[metric] += spare;
    }
    QVariantList forRoom;  // what Copy and the CSV export still write (export_actions.h visibleColumns)
    for (int c = 0; c < TaskTableModel::ColumnCount; ++c) {
        m_tree->setColumnHidden(c, widths[c] == 0);
        if (widths[c] == 0 && m_model->columnHasData(c)) forRoom << c;
    }
    m_tree->setProperty(exporting::kHiddenForRoomProperty, forRoom);
    for (int c : {metric, int(TaskTableModel::BaselineColumn), int(TaskTableModel::CandidateColumn)})
        if (widths[c] > 0 && header->sectionSize(c) != widths[c]) header->resizeSection(c, widths[c]);
    if (hidden != m_hiddenForRoom) {
        m_hiddenForRoom = hidden;
        m_hint->setText(
            hidden.isEmpty()
                ? m_hintText
                : m_hintText +
                      tr(" · hidden for room: %1 (a wider window shows them)").arg(hidden.join(QStringLiteral(", "))));
    }
    m_fitting = false;
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
    // Which columns show (those with data, less any that yield for room) is fitColumns' to say.
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
    fitColumns();
}

}  // namespace fp8dash::ui
