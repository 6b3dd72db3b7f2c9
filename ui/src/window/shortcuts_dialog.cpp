#include "fp8dash/ui/shortcuts_dialog.h"

#include <QAction>
#include <QDialogButtonBox>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QSet>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace fp8dash::ui {

namespace {

QString plainText(QString text) {
    // "&Save" -> "Save"; "&&" is a literal ampersand. The accelerator after a tab ("Open\tCtrl+O") is not text.
    text = text.section(QLatin1Char('\t'), 0, 0);
    text.replace(QStringLiteral("&&"), QStringLiteral("\x01"));
    text.remove(QLatin1Char('&'));
    text.replace(QLatin1Char('\x01'), QLatin1Char('&'));
    return text;
}

void walk(const QMenu* menu, const QString& group, const QString& prefix, QSet<const QAction*>& seen,
          QList<ShortcutEntry>& out) {
    for (QAction* action : menu->actions()) {
        if (action->isSeparator() || !action->isVisible()) continue;
        const QString path = prefix + QStringLiteral(" › ") + plainText(action->text());
        if (QMenu* sub = action->menu()) {
            walk(sub, group, path, seen, out);
            continue;
        }
        if (action->shortcuts().isEmpty() || seen.contains(action)) continue;
        seen.insert(action);
        QStringList keys;
        for (const QKeySequence& k : action->shortcuts()) keys << k.toString(QKeySequence::NativeText);
        out.push_back({group, path, keys, action});
    }
}

}  // namespace

QList<ShortcutEntry> menuShortcuts(const QMenuBar* bar) {
    QList<ShortcutEntry> out;
    QSet<const QAction*> seen;
    if (!bar) return out;
    for (QAction* top : bar->actions()) {
        if (!top->menu() || !top->isVisible()) continue;
        const QString group = plainText(top->text());
        walk(top->menu(), group, group, seen, out);
    }
    return out;
}

KeyboardShortcutsDialog::KeyboardShortcutsDialog(const QMenuBar* bar, QWidget* parent) : QDialog(parent) {
    setObjectName(QStringLiteral("keyboardShortcutsDialog"));
    setWindowTitle(tr("Keyboard Shortcuts"));
    auto* layout = new QVBoxLayout(this);
    m_filter = new QLineEdit(this);
    m_filter->setObjectName(QStringLiteral("shortcutsFilter"));
    m_filter->setPlaceholderText(tr("Filter by action or key"));
    m_filter->setClearButtonEnabled(true);
    m_filter->setAccessibleName(tr("Filter shortcuts"));
    layout->addWidget(m_filter);
    m_tree = new QTreeWidget(this);
    m_tree->setObjectName(QStringLiteral("shortcutsList"));
    m_tree->setColumnCount(2);
    m_tree->setHeaderLabels({tr("Action"), tr("Keys")});
    m_tree->setRootIsDecorated(false);
    m_tree->setUniformRowHeights(true);
    m_tree->setAccessibleName(tr("Keyboard shortcuts"));
    layout->addWidget(m_tree, 1);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);

    QTreeWidgetItem* group = nullptr;
    for (const ShortcutEntry& e : menuShortcuts(bar)) {
        if (!group || group->text(0) != e.group) {
            group = new QTreeWidgetItem(m_tree, {e.group});
            QFont bold = group->font(0);
            bold.setBold(true);
            group->setFont(0, bold);
            group->setFirstColumnSpanned(true);
            group->setFlags(Qt::ItemIsEnabled);
        }
        auto* item = new QTreeWidgetItem(group, {e.path, e.keys.join(QStringLiteral(", "))});
        item->setToolTip(0, e.action->statusTip());
    }
    m_tree->expandAll();
    m_tree->header()->setSectionResizeMode(0, QHeaderView::Stretch);
    m_tree->header()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
    m_tree->header()->setStretchLastSection(false);
    connect(m_filter, &QLineEdit::textChanged, this, &KeyboardShortcutsDialog::setFilter);
    resize(640, 600);
}

void KeyboardShortcutsDialog::setFilter(const QString& text) {
    if (m_filter->text() != text) m_filter->setText(text);  // calls back here once
    const QString needle = text.trimmed();
    for (int g = 0; g < m_tree->topLevelItemCount(); ++g) {
        QTreeWidgetItem* group = m_tree->topLevelItem(g);
        int shown = 0;
        for (int i = 0; i < group->childCount(); ++i) {
            QTreeWidgetItem* item = group->child(i);
            const bool match = needle.isEmpty() || item->text(0).contains(needle, Qt::CaseInsensitive) ||
                               item->text(1).contains(needle, Qt::CaseInsensitive);
            item->setHidden(!match);
            shown += match ? 1 : 0;
        }
        group->setHidden(shown == 0);
    }
}

int KeyboardShortcutsDialog::visibleCount() const {
    int n = 0;
    for (int g = 0; g < m_tree->topLevelItemCount(); ++g) {
        for (int i = 0; i < m_tree->topLevelItem(g)->childCount(); ++i)
            n += m_tree->topLevelItem(g)->child(i)->isHidden() ? 0 : 1;
    }
    return n;
}

}  // namespace fp8dash::ui
