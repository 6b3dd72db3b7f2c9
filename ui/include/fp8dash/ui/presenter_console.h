#pragma once
// What the presenter sees and the audience does not: the current slide (n / N, its step and title), the talking
// points generated from its facts, the comparison's notes that go with it, the next slide and the elapsed time.
// Two forms: a panel over the bottom of the slides (one screen; `N` toggles it) and a console window of its own on
// the presenter's screen (two screens), with Previous / Next / End buttons. It only shows; PresentationWindow
// navigates. GUI thread only; owns its child widgets through Qt parenting.

#include <QFrame>
#include <QString>

#include <cstddef>

#include "fp8dash/core/presentation_deck.h"

class QLabel;
class QPushButton;
class QTextBrowser;

namespace fp8dash::ui {

class PresenterConsole : public QFrame {
    Q_OBJECT
public:
    enum class Form { Panel, Window };
    explicit PresenterConsole(Form form, QWidget* parent = nullptr);

    Form form() const { return m_form; }
    // The deck must outlive the console's use of it until the next setSlide.
    void setSlide(const PresentationDeck& deck, std::size_t index);
    void setElapsedSeconds(qint64 seconds);
    // Type size in pixels for body text; the rest scales from it.
    void setTextPixelSize(int px);

    QString positionText() const;       // "3 / 7 · Domain judge"
    QString titleText() const;          // the current slide's title
    QString talkingPointsText() const;  // plain text
    QString notesText() const;          // plain text of the notes area: the review, further reasons, the notes
    QString nextText() const;           // "Next: Production timeline — …", or "Last slide"
    QString elapsedText() const;        // "12:04"

    // Window form: the buttons (nullptr in the panel form).
    QPushButton* previousButton() const { return m_previous; }
    QPushButton* nextButton() const { return m_next; }
    QPushButton* endButton() const { return m_end; }

signals:
    void previousRequested();
    void nextRequested();
    void endRequested();

protected:
    void mousePressEvent(QMouseEvent* event) override;  // taken here: a click on the notes is not "next slide"

private:
    void applyFonts();

    Form m_form;
    int m_textPx = 20;
    QLabel* m_position = nullptr;
    QLabel* m_title = nullptr;
    QLabel* m_elapsed = nullptr;
    QLabel* m_talkHeading = nullptr;
    QLabel* m_talk = nullptr;
    QLabel* m_notesHeading = nullptr;
    QTextBrowser* m_notes = nullptr;
    QLabel* m_nextSlide = nullptr;
    QPushButton* m_previous = nullptr;
    QPushButton* m_next = nullptr;
    QPushButton* m_end = nullptr;
};

}  // namespace fp8dash::ui
