#include "widgets/frozen_column.h"

#include <QEvent>
#include <QHeaderView>
#include <QScrollBar>
#include <QSignalBlocker>
#include <QTreeView>

namespace fp8dash::ui {

FrozenColumn::FrozenColumn(QTreeView* tree) : QObject(tree), m_tree(tree) {
    m_frozen = new QTreeView(tree);  // a child of the tree (not of its viewport): it covers the header too
    m_frozen->setObjectName(tree->objectName() + QStringLiteral("Frozen"));
    m_frozen->setModel(tree->model());
    m_frozen->setSelectionModel(tree->selectionModel());
    m_frozen->setFocusPolicy(Qt::NoFocus);
    m_frozen->setFrameShape(QFrame::NoFrame);
    m_frozen->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_frozen->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_frozen->setVerticalScrollMode(tree->verticalScrollMode());
    m_frozen->setUniformRowHeights(tree->uniformRowHeights());
    m_frozen->setAlternatingRowColors(tree->alternatingRowColors());
    m_frozen->setSelectionBehavior(tree->selectionBehavior());
    m_frozen->setSelectionMode(tree->selectionMode());
    m_frozen->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_frozen->setRootIsDecorated(tree->rootIsDecorated());
    m_frozen->setIndentation(tree->indentation());
    m_frozen->setAccessibleName(tree->accessibleName());
    m_frozen->setAttribute(Qt::WA_Hover, tree->testAttribute(Qt::WA_Hover));
    QHeaderView* header = m_frozen->header();
    header->setSectionsMovable(false);
    header->setStretchLastSection(false);
    header->setSectionResizeMode(QHeaderView::Fixed);
    header->setDefaultAlignment(tree->header()->defaultAlignment());
    header->setSortIndicatorShown(true);
    header->setSectionsClickable(true);
    header->setSortIndicator(tree->header()->sortIndicatorSection(), tree->header()->sortIndicatorOrder());
    hideOtherColumns();

    // Both ways: rows scroll together, and a group opened on either side opens on the other.
    connect(m_frozen->verticalScrollBar(), &QAbstractSlider::valueChanged, tree->verticalScrollBar(),
            &QAbstractSlider::setValue);
    connect(tree->verticalScrollBar(), &QAbstractSlider::valueChanged, m_frozen->verticalScrollBar(),
            &QAbstractSlider::setValue);
    connect(tree, &QTreeView::expanded, m_frozen, &QTreeView::expand);
    connect(tree, &QTreeView::collapsed, m_frozen, &QTreeView::collapse);
    connect(m_frozen, &QTreeView::expanded, tree, &QTreeView::expand);
    connect(m_frozen, &QTreeView::collapsed, tree, &QTreeView::collapse);
    // The first column's width and the sort indicator follow the tree's header; a click on the overlay's header
    // sorts the tree.
    connect(tree->header(), &QHeaderView::sectionResized, this, [this](int section, int, int size) {
        if (section != 0) return;
        m_frozen->setColumnWidth(0, size);
        updateGeometry();
    });
    connect(tree->header(), &QHeaderView::geometriesChanged, this, &FrozenColumn::updateGeometry);
    connect(tree->header(), &QHeaderView::sortIndicatorChanged, this, [this](int section, Qt::SortOrder order) {
        const QSignalBlocker block(m_frozen->header());
        m_frozen->header()->setSortIndicator(section, order);
    });
    connect(header, &QHeaderView::sectionClicked, this, [this](int section) {
        if (section == 0) sortByFirstColumn();
    });
    connect(tree->horizontalScrollBar(), &QAbstractSlider::valueChanged, this, &FrozenColumn::updateGeometry);
    connect(tree->horizontalScrollBar(), &QAbstractSlider::rangeChanged, this, &FrozenColumn::updateGeometry);
    // The tree's handlers answer a right-click and a double-click on the overlay, at the same row.
    m_frozen->setContextMenuPolicy(tree->contextMenuPolicy());
    connect(m_frozen, &QWidget::customContextMenuRequested, this, [this](const QPoint& pos) {
        const QPoint at = m_tree->viewport()->mapFromGlobal(m_frozen->viewport()->mapToGlobal(pos));
        emit m_tree->customContextMenuRequested(at);
    });
    connect(m_frozen, &QAbstractItemView::doubleClicked, tree, &QAbstractItemView::doubleClicked);
    connect(tree->model(), &QAbstractItemModel::modelReset, this, &FrozenColumn::syncExpanded);
    connect(tree->model(), &QAbstractItemModel::columnsInserted, this, &FrozenColumn::hideOtherColumns);
    connect(tree->model(), &QAbstractItemModel::layoutChanged, this, &FrozenColumn::updateGeometry);
    tree->installEventFilter(this);
    m_frozen->hide();
}

void FrozenColumn::hideOtherColumns() {
    const int columns = m_tree->model() ? m_tree->model()->columnCount() : 0;
    for (int c = 1; c < columns; ++c) m_frozen->setColumnHidden(c, true);
    m_frozen->setColumnWidth(0, m_tree->columnWidth(0));
}

// As QHeaderView flips its own indicator: the section's initial order, then the other, then (clearable) none.
void FrozenColumn::sortByFirstColumn() {
    QHeaderView* header = m_tree->header();
    const QVariant initial = m_tree->model()->headerData(0, Qt::Horizontal, Qt::InitialSortOrderRole);
    const Qt::SortOrder first =
        initial.canConvert<int>() ? static_cast<Qt::SortOrder>(initial.toInt()) : Qt::AscendingOrder;
    const Qt::SortOrder other = first == Qt::AscendingOrder ? Qt::DescendingOrder : Qt::AscendingOrder;
    if (header->sortIndicatorSection() != 0)
        header->setSortIndicator(0, first);
    else if (header->sortIndicatorOrder() == first)
        header->setSortIndicator(0, other);
    else if (header->isSortIndicatorClearable())
        header->setSortIndicator(-1, Qt::AscendingOrder);
    else
        header->setSortIndicator(0, first);
}

void FrozenColumn::syncExpanded() {
    hideOtherColumns();
    syncExpandedUnder({});
    updateGeometry();
}

void FrozenColumn::syncExpandedUnder(const QModelIndex& parent) {
    const QAbstractItemModel* model = m_tree->model();
    for (int r = 0; r < model->rowCount(parent); ++r) {
        const QModelIndex row = model->index(r, 0, parent);
        if (!model->hasChildren(row)) continue;
        const QSignalBlocker block(m_frozen);  // no echo back to the tree
        m_frozen->setExpanded(row, m_tree->isExpanded(row));
        syncExpandedUnder(row);
    }
}

void FrozenColumn::updateGeometry() {
    const int frame = m_tree->frameWidth();
    const int width = m_tree->columnWidth(0);
    m_frozen->setGeometry(frame, frame, width, m_tree->header()->height() + m_tree->viewport()->height());
    m_frozen->setColumnWidth(0, width);
    // Only while the other columns have scrolled under it: at rest the tree shows its own first column.
    const bool scrolled = m_tree->horizontalScrollBar()->value() > 0 && !m_tree->isColumnHidden(0);
    if (!scrolled) {
        m_frozen->hide();
        return;
    }
    m_frozen->raise();
    m_frozen->show();
    m_frozen->doItemsLayout();  // the scroll range now, so the position below is not clamped to a stale one
    m_frozen->verticalScrollBar()->setValue(m_tree->verticalScrollBar()->value());
}

bool FrozenColumn::eventFilter(QObject* watched, QEvent* event) {
    if (watched == m_tree && (event->type() == QEvent::Resize || event->type() == QEvent::StyleChange ||
                              event->type() == QEvent::FontChange || event->type() == QEvent::PaletteChange))
        updateGeometry();
    return QObject::eventFilter(watched, event);
}

}  // namespace fp8dash::ui
