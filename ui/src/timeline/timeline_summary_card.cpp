#include "fp8dash/ui/timeline_summary_card.h"

#include <QLabel>
#include <QVBoxLayout>

#include "widgets/ui_style.h"
#include "widgets/untrusted_ui.h"

namespace fp8dash::ui {

TimelineSummaryCard::TimelineSummaryCard(const QString& title, QWidget* parent) : QFrame(parent) {
    setObjectName(QStringLiteral("timelineCard"));
    // The style sheet selects cards by this property: the owner may rename the card, and labels must not match.
    setProperty("summaryCard", true);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(12, 8, 10, 8);
    layout->setSpacing(2);

    m_title = plainLabel(title, this);
    m_title->setObjectName(QStringLiteral("cardTitle"));
    QFont titleFont = m_title->font();
    titleFont.setBold(true);
    m_title->setFont(titleFont);
    layout->addWidget(m_title);

    m_figure = plainLabel(QString(), this);
    m_figure->setObjectName(QStringLiteral("cardFigure"));
    QFont big = m_figure->font();
    big.setPointSizeF(big.pointSizeF() * 1.35);
    big.setBold(true);
    m_figure->setFont(big);
    m_figure->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_figure);

    m_delta = plainLabel(QString(), this);
    m_delta->setObjectName(QStringLiteral("cardDelta"));
    m_delta->setWordWrap(true);
    m_delta->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_delta);

    m_note = plainLabel(QString(), this);
    m_note->setObjectName(QStringLiteral("cardNote"));
    m_note->setWordWrap(true);
    m_note->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_note);

    setContent(QStringLiteral("—"), QString(), QString(), std::nullopt);
}

void TimelineSummaryCard::setContent(const QString& figure, const QString& delta, const QString& note,
                                     std::optional<Verdict> level) {
    m_level = level;
    m_figure->setText(figure);
    m_delta->setText(delta);
    m_delta->setVisible(!delta.isEmpty());
    m_note->setText(note);
    m_note->setVisible(!note.isEmpty());
    const QColor back = level ? style::verdictTint(*level) : palette().color(QPalette::AlternateBase);
    const QColor border = level ? style::verdictColor(*level) : style::secondaryTextColor();
    const QColor text = level ? style::verdictTextColor(*level) : palette().color(QPalette::WindowText);
    setStyleSheet(QStringLiteral("QFrame[summaryCard=\"true\"] { background: %1; border: 1px solid %2;"
                                 " border-left: 5px solid %2; border-radius: 6px; }"
                                 " QLabel { color: %3; background: transparent; border: none; }")
                      .arg(back.name(), border.name(), text.name()));
    setAccessibleDescription(this->text());
}

QString TimelineSummaryCard::titleText() const {
    return m_title->text();
}
QString TimelineSummaryCard::figureText() const {
    return m_figure->text();
}
QString TimelineSummaryCard::deltaText() const {
    return m_delta->text();
}
QString TimelineSummaryCard::noteText() const {
    return m_note->text();
}

QString TimelineSummaryCard::text() const {
    QStringList parts{m_title->text(), m_figure->text()};
    if (!m_delta->text().isEmpty()) parts << m_delta->text();
    if (!m_note->text().isEmpty()) parts << m_note->text();
    return parts.join(QLatin1Char('\n'));
}

}  // namespace fp8dash::ui
