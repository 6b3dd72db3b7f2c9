#pragma once
// FrozenColumn: a tree view's first column kept in place while the other columns scroll sideways, the usual Qt way
// (Qt's "Frozen Column" example): an overlay QTreeView over the left edge of the tree, sharing its model and its
// selection model and showing the first column only. The overlay follows the tree: the vertical scroll position,
// the expanded rows, the first column's width, the sort indicator (a click on the overlay's header sorts the tree
// as a click on the tree's would) and the styling. It is shown only while the tree is scrolled sideways, so at rest
// every click lands on the tree itself; a right-click or double-click on the overlay reaches the tree's handlers.
// GUI thread only; owned by the tree (Qt parenting).

#include <QObject>

class QTreeView;
class QModelIndex;

namespace fp8dash::ui {

class FrozenColumn : public QObject {
    Q_OBJECT
public:
    explicit FrozenColumn(QTreeView* tree);

    QTreeView* overlay() const { return m_frozen; }
    // Copies the tree's expanded rows (expandAll, collapseAll and a model reset change them without one signal per
    // row) and hides every column but the first; called after such changes.
    void syncExpanded();

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void hideOtherColumns();
    void updateGeometry();
    void syncExpandedUnder(const QModelIndex& parent);
    void sortByFirstColumn();

    QTreeView* m_tree = nullptr;
    QTreeView* m_frozen = nullptr;
};

}  // namespace fp8dash::ui
