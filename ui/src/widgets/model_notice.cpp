// The note about the model the Capacity and Local benchmarks figures are for (model_notice.h).
#include "widgets/model_notice.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QTextDocumentFragment>

#include "widgets/ui_style.h"

namespace fp8dash::ui {

ModelNotice::ModelNotice(const QString& objectName, QWidget* parent) : QFrame(parent) {
    setObjectName(objectName);
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(10, 6, 6, 6);
    layout->setSpacing(10);
    m_label = new QLabel(this);
    m_label->setObjectName(objectName + QStringLiteral("Text"));
    m_label->setWordWrap(true);
    m_label->setTextFormat(Qt::RichText);  // markup of ours, names escaped by the caller
    m_label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_label, 1);
    m_button = new QPushButton(this);
    m_button->setObjectName(objectName + QStringLiteral("Button"));
    m_button->setAccessibleName(tr("Use the compared model"));  // until setNote names the action
    m_button->hide();
    layout->addWidget(m_button, 0, Qt::AlignVCenter);
    paint();
    style::onThemeChange(this, [this] { paint(); });
    hide();
}

void ModelNotice::paint() {
    // A warning: the caution colour as the frame and the text, on the window's own background (readable in both
    // themes, as the caution text is everywhere); an information: the offline notice's blue box.
    const style::NoticeColors notice = style::noticeColors();
    const QColor caution = style::cautionTextColor();
    const bool warning = m_kind == Kind::Warning;
    const QString background = warning ? QStringLiteral("transparent") : notice.background.name();
    const QString border = warning ? caution.name() : notice.border.name();
    const QString text = warning ? caution.name() : notice.text.name();
    setStyleSheet(QStringLiteral("QFrame#%1 { background: %2; border: 1px solid %3; border-radius: 6px; }"
                                 " QFrame#%1 QLabel { color: %4; background: transparent; border: none; }")
                      .arg(objectName(), background, border, text));
}

void ModelNotice::setNote(const QString& html, Kind kind, const QString& buttonText) {
    m_kind = kind;
    paint();
    const QString glyph = kind == Kind::Warning ? QStringLiteral("⚠ ") : QStringLiteral("ℹ ");
    m_label->setText(html.isEmpty() ? QString() : glyph + html);
    m_button->setText(buttonText);
    if (!buttonText.isEmpty()) m_button->setAccessibleName(buttonText);
    m_button->setVisible(!buttonText.isEmpty());
    setVisible(!html.isEmpty());
}

QString ModelNotice::text() const {
    if (m_label->text().isEmpty()) return {};
    return QTextDocumentFragment::fromHtml(m_label->text()).toPlainText();
}

}  // namespace fp8dash::ui
