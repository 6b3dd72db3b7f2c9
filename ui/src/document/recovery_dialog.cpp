#include "fp8dash/ui/recovery_dialog.h"

#include <QDialogButtonBox>
#include <QDir>
#include <QFileInfo>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QVBoxLayout>

#include "fp8dash/ui/loaded_comparison.h"
#include "widgets/ui_style.h"
#include "widgets/untrusted_ui.h"

namespace fp8dash::ui {

RecoveryDialog::RecoveryDialog(QList<RecoveryOrphan> orphans, QWidget* parent)
    : QDialog(parent), m_orphans(std::move(orphans)) {
    setObjectName(QStringLiteral("recoveryDialog"));
    setWindowTitle(tr("Recover Unsaved Comparisons"));
    auto* layout = new QVBoxLayout(this);
    auto* heading = style::sectionTitle(m_orphans.size() == 1
                                            ? tr("fp8dash closed without saving a comparison")
                                            : tr("fp8dash closed without saving %1 comparisons").arg(m_orphans.size()),
                                        this);
    layout->addWidget(heading);
    layout->addWidget(style::caption(tr("They were autosaved with everything typed into them. Recover the ticked ones "
                                        "now; each opens as it was, with its changes still to be saved."),
                                     this));
    m_list = new QListWidget(this);
    m_list->setObjectName(QStringLiteral("recoveryList"));
    m_list->setAccessibleName(tr("Unsaved comparisons"));
    m_list->setMinimumSize(560, 160);
    for (const RecoveryOrphan& o : m_orphans) {
        QString text;
        if (o.record) {
            const RecoveryRecord& r = *o.record;
            const QString name = toQString(r.displayName.empty() ? std::string("Untitled comparison") : r.displayName);
            text = tr("%1 — autosaved %2").arg(name, toQString(readableTimestamp(r.savedAt)));
            text +=
                QLatin1Char('\n') +
                (r.originalPath.empty() ? tr("never saved to a file")
                                        : tr("changes to %1").arg(QDir::toNativeSeparators(toQString(r.originalPath))));
            if (!r.drafts.empty()) text += tr(" · with text still being typed");
        } else {
            text = tr("%1 — cannot be read: %2").arg(QFileInfo(o.file).fileName(), o.error);
        }
        auto* item = new QListWidgetItem(text, m_list);
        item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsUserCheckable | Qt::ItemIsSelectable);
        item->setCheckState(o.record ? Qt::Checked : Qt::Unchecked);
        item->setToolTip(escapedTip(QDir::toNativeSeparators(o.file)));
    }
    layout->addWidget(m_list, 1);
    auto* buttons = new QDialogButtonBox(this);
    m_recover = buttons->addButton(tr("&Recover"), QDialogButtonBox::AcceptRole);
    m_discard = buttons->addButton(tr("&Discard"), QDialogButtonBox::DestructiveRole);
    QPushButton* later = buttons->addButton(tr("Decide &Later"), QDialogButtonBox::RejectRole);
    m_recover->setDefault(true);
    connect(m_recover, &QPushButton::clicked, this, [this] {
        m_choice = Recover;
        accept();
    });
    connect(m_discard, &QPushButton::clicked, this, [this] {
        m_choice = Discard;
        accept();
    });
    connect(later, &QPushButton::clicked, this, [this] {
        m_choice = Later;
        reject();
    });
    layout->addWidget(buttons);
    connect(m_list, &QListWidget::itemChanged, this, &RecoveryDialog::updateButtons);
    updateButtons();
}

QList<RecoveryOrphan> RecoveryDialog::ticked() const {
    QList<RecoveryOrphan> out;
    for (int i = 0; i < m_list->count(); ++i)
        if (m_list->item(i)->checkState() == Qt::Checked) out << m_orphans[i];
    return out;
}

void RecoveryDialog::setTicked(int row, bool on) {
    if (QListWidgetItem* item = m_list->item(row)) item->setCheckState(on ? Qt::Checked : Qt::Unchecked);
}

void RecoveryDialog::updateButtons() {
    bool anyTicked = false, anyReadable = false;
    for (const RecoveryOrphan& o : ticked()) {
        anyTicked = true;
        anyReadable = anyReadable || o.record.has_value();
    }
    m_recover->setEnabled(anyReadable);
    m_discard->setEnabled(anyTicked);
}

}  // namespace fp8dash::ui
