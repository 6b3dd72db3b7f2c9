#include "fp8dash/ui/risk_flags_panel.h"

#include <QLabel>
#include <QVBoxLayout>

#include "fp8dash/ui/loaded_comparison.h"
#include "widgets/ui_style.h"
#include "widgets/untrusted_ui.h"

namespace fp8dash::ui {

RiskFlagsPanel::RiskFlagsPanel(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(6);
    m_title = style::sectionTitle(tr("Risk flags"), this);
    layout->addWidget(m_title);
    m_rows = new QVBoxLayout;
    m_rows->setSpacing(4);
    layout->addLayout(m_rows);
}

void RiskFlagsPanel::setRisks(const std::vector<RiskFlag>& risks) {
    style::clearLayout(m_rows);
    m_entries.clear();
    m_title->setText(risks.empty() ? tr("Risk flags") : tr("Risk flags (%1)").arg(risks.size()));
    if (risks.empty()) {
        m_rows->addWidget(style::caption(tr("No risk flags for these runs."), this));
        return;
    }
    for (const RiskFlag& risk : risks) {
        const QString subject = toQString(risk.subject);
        const QString message = toQString(risk.message);
        m_entries << (subject.isEmpty() ? message : subject + QStringLiteral(": ") + message);
        const QString html =
            subject.isEmpty() ? style::escaped(message)
                              : QStringLiteral("<b>%1</b>: %2").arg(style::escaped(subject), style::escaped(message));
        QLabel* row = style::iconRow(style::RowIcon::Warning, html, this);
        row->setToolTip(escapedTip(tr("Kind: %1").arg(toQString(risk.kind))));
        m_rows->addWidget(row);
    }
}

}  // namespace fp8dash::ui
