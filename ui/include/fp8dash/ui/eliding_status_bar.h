#pragma once
// A status bar whose temporary message never runs into its permanent widgets (the document's location): the message
// is drawn elided ("…") in the room left of them, with a gap; and a one-line label that elides its text in the middle
// to the width it is given (the full text in its tooltip), for a file path that yields to the message on a narrow
// window (the status bar caps such a label at 45 % of its width). GUI thread only.

#include <QLabel>
#include <QStatusBar>

namespace fp8dash::ui {

class ElidingStatusBar : public QStatusBar {
    Q_OBJECT
public:
    explicit ElidingStatusBar(QWidget* parent = nullptr);
    // Where the temporary message is drawn (this widget's coordinates): from the left edge to a gap before the first
    // visible permanent widget; and the message as drawn there ("" when none).
    QRect messageRect() const;
    QString shownMessage() const;

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
};

class ElidedLabel : public QLabel {
    Q_OBJECT
public:
    explicit ElidedLabel(QWidget* parent = nullptr);
    QString shownText() const;  // text() elided in the middle to the label's width
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent* event) override;
    bool event(QEvent* event) override;  // the tooltip: the whole text when it is elided
};

}  // namespace fp8dash::ui
