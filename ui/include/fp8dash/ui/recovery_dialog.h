#pragma once
// RecoveryDialog: at start, the comparisons an earlier fp8dash left unsaved (it crashed, or the machine went down):
// each with its name, the file it belongs to and when it was autosaved, ticked to be recovered. Recover opens the
// ticked ones (each in a window, as they were, marked modified); Discard removes the ticked ones for good; Later
// keeps them all for the next start. Unreadable ones are listed with the reason and can only be discarded.
// GUI thread only.

#include <QDialog>
#include <QList>

#include "fp8dash/ui/recovery_store.h"

class QListWidget;
class QPushButton;

namespace fp8dash::ui {

class RecoveryDialog : public QDialog {
    Q_OBJECT
public:
    enum Choice { Later = 0, Recover = 1, Discard = 2 };

    RecoveryDialog(QList<RecoveryOrphan> orphans, QWidget* parent = nullptr);

    QList<RecoveryOrphan> ticked() const;  // the orphans ticked now
    void setTicked(int row, bool ticked);
    QListWidget* list() const { return m_list; }
    QPushButton* recoverButton() const { return m_recover; }
    QPushButton* discardButton() const { return m_discard; }
    Choice choice() const { return m_choice; }

private:
    void updateButtons();

    QList<RecoveryOrphan> m_orphans;
    QListWidget* m_list = nullptr;
    QPushButton* m_recover = nullptr;
    QPushButton* m_discard = nullptr;
    Choice m_choice = Later;
};

}  // namespace fp8dash::ui
