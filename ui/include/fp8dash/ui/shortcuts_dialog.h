#pragma once
// KeyboardShortcutsDialog: Help › Keyboard Shortcuts, every action of a window's menus that has a key, read from the
// menus when the dialog opens (so it never lies): grouped by top-level menu, each as its menu path and text ("View ›
// Go to Tab › Show Domain Judge") with all its keys in the platform's notation, and a field that filters the list by
// either. An action in several menus is listed once, under the first. GUI thread only.

#include <QDialog>
#include <QList>
#include <QString>
#include <QStringList>

class QAction;
class QLineEdit;
class QMenuBar;
class QTreeWidget;

namespace fp8dash::ui {

struct ShortcutEntry {
    QString group;     // the top-level menu ("Edit")
    QString path;      // the menus and the action's text, mnemonics removed ("View › Go to Tab › Show Review")
    QStringList keys;  // every key of the action, native text ("Ctrl+6")
    QAction* action = nullptr;
};

// The visible actions with a key under `bar`, menu by menu in menu order (submenus where they stand).
QList<ShortcutEntry> menuShortcuts(const QMenuBar* bar);

class KeyboardShortcutsDialog : public QDialog {
    Q_OBJECT
public:
    explicit KeyboardShortcutsDialog(const QMenuBar* bar, QWidget* parent = nullptr);

    QTreeWidget* tree() const { return m_tree; }  // groups at the top level; each action a child: path, keys
    QLineEdit* filterEdit() const { return m_filter; }
    void setFilter(const QString& text);  // also what typing in the field does
    int visibleCount() const;             // the actions the filter leaves

private:
    QTreeWidget* m_tree = nullptr;
    QLineEdit* m_filter = nullptr;
};

}  // namespace fp8dash::ui
