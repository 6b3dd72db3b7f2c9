#include "fp8dash/ui/presenter_console.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QMouseEvent>
#include <QPushButton>
#include <QTextBrowser>
#include <QVBoxLayout>

#include "fp8dash/core/review.h"
#include "fp8dash/ui/loaded_comparison.h"
#include "widgets/ui_style.h"
#include "widgets/untrusted_ui.h"

namespace fp8dash::ui {

namespace {

// The console is dark whatever the app's theme: it sits beside (or over) a bright deck and must not dazzle the
// presenter, and the notes must read at a glance.
constexpr const char* kConsoleBack = "#1c2027";
constexpr const char* kConsoleText = "#f1f3f5";
constexpr const char* kConsoleQuiet = "#aab2bd";

QLabel* consoleLabel(QWidget* parent, const QString& objectName, bool wrap = true) {
    auto* label = new QLabel(parent);
    label->setObjectName(objectName);
    label->setWordWrap(wrap);
    label->setTextFormat(Qt::PlainText);
    return label;
}

QString stepTitle(const PresentationSlide& slide) {
    return slide.step == PresentationStep::Cover ? PresenterConsole::tr("Cover")
                                                 : toQString(presentationStepName(slide.step));
}

}  // namespace

PresenterConsole::PresenterConsole(Form form, QWidget* parent) : QFrame(parent), m_form(form) {
    setObjectName(form == Form::Panel ? QStringLiteral("presenterNotesPanel") : QStringLiteral("presenterConsole"));
    setAccessibleName(form == Form::Panel ? tr("Presenter notes") : tr("Presenter console"));
    setFocusPolicy(Qt::NoFocus);  // keys belong to the presentation, which navigates
    setAutoFillBackground(true);

    m_position = consoleLabel(this, QStringLiteral("consolePosition"), false);
    m_title = consoleLabel(this, QStringLiteral("consoleTitle"));
    m_elapsed = consoleLabel(this, QStringLiteral("consoleElapsed"), false);
    m_elapsed->setAccessibleName(tr("Elapsed time"));
    m_talkHeading = consoleLabel(this, QStringLiteral("consoleTalkHeading"), false);
    m_talkHeading->setText(tr("Talking points"));
    m_talk = consoleLabel(this, QStringLiteral("consoleTalkingPoints"));
    m_talk->setTextInteractionFlags(Qt::NoTextInteraction);
    m_notesHeading = consoleLabel(this, QStringLiteral("consoleNotesHeading"), false);
    m_notesHeading->setText(tr("Notes"));
    m_notes = new QTextBrowser(this);
    m_notes->setObjectName(QStringLiteral("consoleNotes"));
    m_notes->setAccessibleName(tr("Notes for this slide"));
    m_notes->setFocusPolicy(Qt::NoFocus);  // scrolls with the wheel; arrow keys keep navigating the slides
    m_notes->setFrameShape(QFrame::NoFrame);
    m_notes->setOpenLinks(false);
    m_nextSlide = consoleLabel(this, QStringLiteral("consoleNextSlide"));
    setElapsedSeconds(0);

    auto* talkColumn = new QVBoxLayout;
    talkColumn->setSpacing(6);
    talkColumn->addWidget(m_talkHeading);
    talkColumn->addWidget(m_talk);
    talkColumn->addSpacing(8);
    talkColumn->addWidget(m_notesHeading);
    talkColumn->addWidget(m_notes, 1);

    if (form == Form::Panel) {
        auto* side = new QVBoxLayout;
        side->setSpacing(8);
        side->addWidget(m_position);
        side->addWidget(m_title);
        side->addStretch(1);
        side->addWidget(m_nextSlide);
        side->addWidget(m_elapsed, 0, Qt::AlignRight);
        auto* layout = new QHBoxLayout(this);
        layout->setContentsMargins(28, 20, 28, 20);
        layout->setSpacing(36);
        layout->addLayout(talkColumn, 3);
        layout->addLayout(side, 1);
    } else {
        m_previous = new QPushButton(tr("◀  Previous"), this);
        m_previous->setObjectName(QStringLiteral("consolePreviousButton"));
        m_previous->setAccessibleName(tr("Previous slide"));
        m_next = new QPushButton(tr("Next  ▶"), this);
        m_next->setObjectName(QStringLiteral("consoleNextButton"));
        m_next->setAccessibleName(tr("Next slide"));
        m_end = new QPushButton(tr("End presentation"), this);
        m_end->setObjectName(QStringLiteral("consoleEndButton"));
        m_end->setAccessibleName(tr("End the presentation"));
        for (QPushButton* b : {m_previous, m_next, m_end}) b->setFocusPolicy(Qt::NoFocus);  // Space must not click
        connect(m_previous, &QPushButton::clicked, this, &PresenterConsole::previousRequested);
        connect(m_next, &QPushButton::clicked, this, &PresenterConsole::nextRequested);
        connect(m_end, &QPushButton::clicked, this, &PresenterConsole::endRequested);

        auto* top = new QHBoxLayout;
        auto* heading = new QVBoxLayout;
        heading->addWidget(m_position);
        heading->addWidget(m_title);
        top->addLayout(heading, 1);
        top->addWidget(m_elapsed, 0, Qt::AlignTop | Qt::AlignRight);

        auto* middle = new QHBoxLayout;
        middle->setSpacing(48);
        middle->addLayout(talkColumn, 3);
        auto* side = new QVBoxLayout;
        side->addWidget(m_nextSlide);
        side->addStretch(1);
        middle->addLayout(side, 1);

        auto* buttons = new QHBoxLayout;
        buttons->addWidget(m_previous);
        buttons->addWidget(m_next);
        buttons->addStretch(1);
        buttons->addWidget(m_end);

        auto* layout = new QVBoxLayout(this);
        layout->setContentsMargins(48, 36, 48, 36);
        layout->setSpacing(24);
        layout->addLayout(top);
        layout->addLayout(middle, 1);
        layout->addLayout(buttons);
    }
    applyFonts();
}

void PresenterConsole::setTextPixelSize(int px) {
    m_textPx = std::max(10, px);
    applyFonts();
}

void PresenterConsole::applyFonts() {
    const int px = m_textPx;
    const bool window = m_form == Form::Window;
    const auto font = [this](int size, bool bold) {
        QFont f = this->font();
        f.setPixelSize(std::max(8, size));
        f.setBold(bold);
        return f;
    };
    m_position->setFont(font(px * 9 / 10, true));
    m_title->setFont(font(window ? px * 3 / 2 : px, true));
    m_elapsed->setFont(font(window ? px * 5 / 2 : px * 3 / 2, true));
    m_talkHeading->setFont(font(px * 8 / 10, true));
    m_notesHeading->setFont(font(px * 8 / 10, true));
    m_talk->setFont(font(window ? px * 6 / 5 : px, false));
    m_notes->setFont(font(px, false));
    m_nextSlide->setFont(font(px * 9 / 10, false));
    for (QPushButton* b : {m_previous, m_next, m_end}) {
        if (b) {
            b->setFont(font(px, true));
            b->setMinimumHeight(px * 2);
        }
    }
    setStyleSheet(QStringLiteral("QFrame#%1 { background: %2; %5 }"
                                 " QLabel { color: %3; background: transparent; }"
                                 " QLabel#consolePosition, QLabel#consoleTalkHeading, QLabel#consoleNotesHeading,"
                                 " QLabel#consoleNextSlide { color: %4; }"
                                 " QTextBrowser { color: %3; background: transparent; }"
                                 " QPushButton { color: %3; background: #2f3540; border: 1px solid #4a5261;"
                                 " border-radius: 6px; padding: 4px 18px; }"
                                 " QPushButton:pressed { background: #414959; }")
                      .arg(objectName(), QLatin1String(kConsoleBack), QLatin1String(kConsoleText),
                           QLatin1String(kConsoleQuiet),
                           m_form == Form::Panel ? QStringLiteral("border-top: 3px solid #3d4450;") : QString()));
}

void PresenterConsole::setSlide(const PresentationDeck& deck, std::size_t index) {
    if (index >= deck.slides.size()) return;
    const PresentationSlide& slide = deck.slides[index];
    m_position->setText(tr("%1 / %2 · %3").arg(index + 1).arg(deck.slides.size()).arg(stepTitle(slide)));
    setPlainText(m_title, toQString(slide.title));
    setPlainText(m_talk, toQString(slide.talkingPoints));

    QString html;
    const auto paragraph = [](const QString& inner) {
        return QStringLiteral("<p style=\"margin-bottom:10px\">") + inner + QStringLiteral("</p>");
    };
    if (!slide.review.empty()) {
        html += paragraph(tr("<b>Review decision:</b> %1").arg(style::escaped(excerpt(toQString(slide.review)))));
        for (const std::string& w : slide.reviewWarnings) html += paragraph(QStringLiteral("⚠ ") + style::escaped(w));
    }
    for (const std::string& reason : slide.moreReasons)
        html += paragraph(tr("<b>Also:</b> %1").arg(style::escaped(reason)));
    for (const Note& note : slide.notes) {
        QStringList by;
        if (!note.task.empty()) by << QStringLiteral("<b>%1</b>").arg(style::escaped(note.task));
        if (!note.author.empty()) by << style::escaped(note.author);
        if (!note.created.empty()) by << style::escaped(readableTimestamp(note.created));
        QString text = style::escaped(excerpt(toQString(note.text))).replace(QLatin1Char('\n'), QStringLiteral("<br>"));
        if (!by.isEmpty())
            text += QStringLiteral(" <span style=\"color:%1\">— %2</span>")
                        .arg(QLatin1String(kConsoleQuiet), by.join(QStringLiteral(", ")));
        html += paragraph(text);
    }
    m_notes->setHtml(html.isEmpty() ? QStringLiteral("<p style=\"color:%1\">%2</p>")
                                          .arg(QLatin1String(kConsoleQuiet), tr("No notes for this slide."))
                                    : html);
    m_notesHeading->setText(slide.notes.empty() ? tr("Notes") : tr("Notes (%1)").arg(slide.notes.size()));

    if (index + 1 < deck.slides.size()) {
        const PresentationSlide& next = deck.slides[index + 1];
        setPlainText(m_nextSlide, tr("Next: %1 — %2").arg(stepTitle(next), toQString(next.title)));
    } else {
        setPlainText(m_nextSlide, tr("Last slide"));
    }
}

void PresenterConsole::setElapsedSeconds(qint64 seconds) {
    const qint64 s = std::max<qint64>(0, seconds);
    const QString text =
        s >= 3600 ? QStringLiteral("%1:%2:%3")
                        .arg(s / 3600)
                        .arg((s / 60) % 60, 2, 10, QLatin1Char('0'))
                        .arg(s % 60, 2, 10, QLatin1Char('0'))
                  : QStringLiteral("%1:%2").arg(s / 60, 2, 10, QLatin1Char('0')).arg(s % 60, 2, 10, QLatin1Char('0'));
    m_elapsed->setText(text);
    m_elapsed->setAccessibleDescription(tr("%1 elapsed").arg(text));
}

void PresenterConsole::mousePressEvent(QMouseEvent* event) {
    event->accept();
}

QString PresenterConsole::positionText() const {
    return m_position->text();
}
QString PresenterConsole::titleText() const {
    return m_title->text();
}
QString PresenterConsole::talkingPointsText() const {
    return m_talk->text();
}
QString PresenterConsole::notesText() const {
    return m_notes->toPlainText();
}
QString PresenterConsole::nextText() const {
    return m_nextSlide->text();
}
QString PresenterConsole::elapsedText() const {
    return m_elapsed->text();
}

}  // namespace fp8dash::ui
