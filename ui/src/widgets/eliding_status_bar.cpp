#include "fp8dash/ui/eliding_status_bar.h"

#include <QHelpEvent>
#include <QPainter>
#include <QSizeGrip>
#include <QStyleOption>
#include <QToolTip>

#include <algorithm>

#include "widgets/untrusted_ui.h"

namespace fp8dash::ui {

namespace {
constexpr int kMessageLeft = 6;
constexpr int kGap = 12;  // between the message's end and the permanent widget's frame
}  // namespace

ElidingStatusBar::ElidingStatusBar(QWidget* parent) : QStatusBar(parent) {}

QRect ElidingStatusBar::messageRect() const {
    int right = width() - kGap;
    // While a message is shown QStatusBar hides its normal widgets: the visible children are the permanent ones.
    for (const QWidget* w : findChildren<QWidget*>(Qt::FindDirectChildrenOnly)) {
        if (!w->isVisible() || qobject_cast<const QSizeGrip*>(w)) continue;
        right = std::min(right, w->geometry().left() - kGap);
    }
    return QRect(kMessageLeft, 0, std::max(0, right - kMessageLeft), height());
}

QString ElidingStatusBar::shownMessage() const {
    const QString message = currentMessage();
    if (message.isEmpty()) return {};
    return fontMetrics().elidedText(message, Qt::ElideRight, messageRect().width());
}

// QStatusBar draws its message across the whole bar, over (or under) the permanent widgets; this draws the same panel
// and frames, and the message elided to the room there is.
void ElidingStatusBar::paintEvent(QPaintEvent* event) {
    if (currentMessage().isEmpty()) {
        QStatusBar::paintEvent(event);
        return;
    }
    QPainter p(this);
    QStyleOption panel;
    panel.initFrom(this);
    style()->drawPrimitive(QStyle::PE_PanelStatusBar, &panel, &p, this);
    for (QWidget* w : findChildren<QWidget*>(Qt::FindDirectChildrenOnly)) {
        if (!w->isVisible() || qobject_cast<QSizeGrip*>(w)) continue;
        QStyleOption frame(0);
        frame.rect = w->geometry().adjusted(-2, -1, 2, 1);
        frame.palette = palette();
        frame.state = QStyle::State_None;
        style()->drawPrimitive(QStyle::PE_FrameStatusBarItem, &frame, &p, w);
    }
    p.setPen(palette().windowText().color());
    p.drawText(messageRect(), Qt::AlignLeading | Qt::AlignVCenter | Qt::TextSingleLine, shownMessage());
}

void ElidingStatusBar::resizeEvent(QResizeEvent* event) {
    // A long path yields: at most 45 % of the bar, elided in the middle; the message keeps the rest.
    for (ElidedLabel* label : findChildren<ElidedLabel*>(Qt::FindDirectChildrenOnly))
        label->setMaximumWidth(std::max(120, width() * 45 / 100));
    QStatusBar::resizeEvent(event);
}

ElidedLabel::ElidedLabel(QWidget* parent) : QLabel(parent) {
    setTextFormat(Qt::PlainText);
}

QString ElidedLabel::shownText() const {
    return fontMetrics().elidedText(text(), Qt::ElideMiddle, contentsRect().width());
}

QSize ElidedLabel::sizeHint() const {
    const QMargins m = contentsMargins();
    return {fontMetrics().horizontalAdvance(text()) + m.left() + m.right() + 2, QLabel::sizeHint().height()};
}

QSize ElidedLabel::minimumSizeHint() const {
    const QMargins m = contentsMargins();
    return {
        std::min(sizeHint().width(), fontMetrics().horizontalAdvance(QStringLiteral("…/…")) * 3 + m.left() + m.right()),
        QLabel::minimumSizeHint().height()};
}

void ElidedLabel::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.setPen(palette().windowText().color());
    p.drawText(contentsRect(), int(alignment()) | Qt::TextSingleLine, shownText());
}

bool ElidedLabel::event(QEvent* event) {
    if (event->type() == QEvent::ToolTip && toolTip().isEmpty()) {
        auto* help = static_cast<QHelpEvent*>(event);
        if (shownText() != text()) {
            QToolTip::showText(help->globalPos(), escapedTip(text()), this);
        } else {
            QToolTip::hideText();
        }
        return true;
    }
    return QLabel::event(event);
}

}  // namespace fp8dash::ui
