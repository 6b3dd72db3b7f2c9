#include "fp8dash/ui/presentation_window.h"

#include <QCloseEvent>
#include <QGuiApplication>
#include <QKeyEvent>
#include <QLabel>
#include <QMouseEvent>
#include <QPushButton>
#include <QScreen>
#include <QSettings>
#include <QTimer>

#include <algorithm>

#include "fp8dash/ui/presentation_slide_view.h"
#include "fp8dash/ui/presenter_console.h"
#include "fp8dash/ui/screen_fit.h"

namespace fp8dash::ui {

PresentationWindow::PresentationWindow(LoadedComparison loaded, QWidget* parent)
    : QWidget(parent, Qt::Window), m_loaded(std::move(loaded)) {
    setObjectName(QStringLiteral("presentationWindow"));
    setAttribute(Qt::WA_DeleteOnClose);
    setFocusPolicy(Qt::StrongFocus);
    PresentationOptions options;
    options.answerSlide = answerSlideSetting();
    m_deck = buildPresentationDeck(m_loaded.document, m_loaded.decision, nullptr, options);
    const QString about = m_deck.model.empty() ? toQString(m_loaded.document.title) : toQString(m_deck.model);
    setWindowTitle(about.isEmpty() ? tr("fp8dash — presentation") : tr("%1 — fp8dash presentation").arg(about));
    setAccessibleName(tr("Presentation"));
    setAccessibleDescription(
        tr("Next: Right, Space or Page Down. Previous: Left or Page Up. Esc leaves. N shows the "
           "presenter notes."));
    QPalette pal = palette();
    pal.setColor(QPalette::Window, Qt::white);
    setPalette(pal);
    setAutoFillBackground(true);

    m_notesPanel = new PresenterConsole(PresenterConsole::Form::Panel, this);
    m_notesPanel->hide();

    m_blank = new QWidget(this);
    m_blank->setObjectName(QStringLiteral("presentationBlank"));
    m_blank->setAccessibleName(tr("Screen blanked"));
    m_blank->setAttribute(Qt::WA_StyledBackground);
    m_blank->setStyleSheet(QStringLiteral("background: black;"));
    m_blank->hide();

    m_jumpHint = new QLabel(this);
    m_jumpHint->setObjectName(QStringLiteral("presentationJumpHint"));
    m_jumpHint->setStyleSheet(
        QStringLiteral("color: white; background: rgba(28, 32, 39, 230); border-radius: 8px;"
                       " padding: 10px 18px;"));
    m_jumpHint->hide();

    m_tick = new QTimer(this);
    m_tick->setInterval(1000);
    connect(m_tick, &QTimer::timeout, this, &PresentationWindow::updateClock);
    showCurrent();
}

std::optional<bool> PresentationWindow::answerSlideSetting() {
    const QString v = QSettings().value(QLatin1String(kAnswerSlideKey), QStringLiteral("auto")).toString();
    if (v == QLatin1String("always")) return true;
    if (v == QLatin1String("never")) return false;
    return std::nullopt;
}

void PresentationWindow::setAnswerSlideSetting(std::optional<bool> show) {
    QSettings().setValue(QLatin1String(kAnswerSlideKey), !show   ? QStringLiteral("auto")
                                                         : *show ? QStringLiteral("always")
                                                                 : QStringLiteral("never"));
}

void PresentationWindow::watchScreen(QScreen* screen) {
    connect(screen, &QScreen::geometryChanged, this, &PresentationWindow::followScreens, Qt::UniqueConnection);
}

void PresentationWindow::followScreens() {
    if (m_finished) return;
    const QList<QScreen*> screens = QGuiApplication::screens();
    QList<ScreenInfo> infos;
    for (const QScreen* s : screens) infos.append({s->name(), s->geometry()});
    const SlidesPlacement placement = placeSlides(infos, screen() ? screen()->name() : QString(), m_presenterScreen);
    if (placement.screen < 0) return;
    QScreen* target = screens[placement.screen];
    if (screen() != target) setScreen(target);
    if (geometry() != placement.geometry) setGeometry(placement.geometry);
    if (isVisible() && !isFullScreen()) showFullScreen();
}

PresentationWindow::~PresentationWindow() {
    delete m_console.data();
}

void PresentationWindow::start(QScreen* presenterScreen, ConsoleMode console) {
    QScreen* presenter = presenterScreen ? presenterScreen : QGuiApplication::primaryScreen();
    QScreen* slides = presenter;
    for (QScreen* s : QGuiApplication::screens()) {
        if (s != presenter) {
            slides = s;  // the projector: a screen the presenter is not looking at
            break;
        }
    }
    if (slides) {
        setScreen(slides);
        setGeometry(slides->geometry());
    }
    m_presenterScreen = presenter ? presenter->name() : QString();
    connect(qApp, &QGuiApplication::screenAdded, this, [this](QScreen* screen) {
        watchScreen(screen);
        followScreens();
    });
    // Qt moves the windows of a removed screen before this signal; placeSlides decides again from what is left.
    connect(qApp, &QGuiApplication::screenRemoved, this,
            [this] { QTimer::singleShot(0, this, [this] { followScreens(); }); });
    for (QScreen* s : QGuiApplication::screens()) watchScreen(s);
    const bool ownScreen = slides && presenter && slides != presenter;
    if ((ownScreen || console == ConsoleMode::Always) && presenter && !m_console) {
        m_console = new PresenterConsole(PresenterConsole::Form::Window);
        m_console->setWindowTitle(tr("fp8dash — presenter console"));
        m_console->installEventFilter(this);
        connect(m_console, &PresenterConsole::previousRequested, this, &PresentationWindow::previous);
        connect(m_console, &PresenterConsole::nextRequested, this, &PresentationWindow::next);
        connect(m_console, &PresenterConsole::endRequested, this, &PresentationWindow::leave);
        m_console->setScreen(presenter);
        const QRect area = ownScreen ? presenter->geometry() : presenter->availableGeometry();
        m_console->setGeometry(ownScreen ? area : QRect(area.topLeft(), area.size() * 2 / 3));
        m_console->setTextPixelSize(std::max(16, area.height() / 40));
        m_console->setSlide(m_deck, static_cast<std::size_t>(m_index));
        if (ownScreen) {
            m_console->showFullScreen();
        } else {
            m_console->show();  // beside the slides on the same screen: a normal window the presenter can move
        }
    }
    showFullScreen();
    raise();
    activateWindow();
    setFocus(Qt::OtherFocusReason);
    m_clock.start();
    m_tick->start();
    updateClock();
}

void PresentationWindow::goTo(int index) {
    if (m_deck.slides.empty()) return;
    const int target = std::clamp(index, 0, slideCount() - 1);
    const bool moved = target != m_index || !m_slide;
    m_index = target;
    if (moved) {
        showCurrent();
        emit slideChanged(m_index);
    }
}

void PresentationWindow::next() {
    goTo(m_index + 1);
}
void PresentationWindow::previous() {
    goTo(m_index - 1);
}
void PresentationWindow::first() {
    goTo(0);
}
void PresentationWindow::last() {
    goTo(slideCount() - 1);
}

void PresentationWindow::leave() {
    close();  // closeEvent says finished(); WA_DeleteOnClose deletes the window, and with it the console
}

PresenterConsole* PresentationWindow::presenterConsole() const {
    return m_console;
}

bool PresentationWindow::isNotesPanelVisible() const {
    return m_notesPanel->isVisibleTo(this);
}

void PresentationWindow::setNotesPanelVisible(bool visible) {
    m_notesPanel->setVisible(visible);
    layoutOverlays();
}

bool PresentationWindow::isBlanked() const {
    return m_blank->isVisibleTo(this);
}

void PresentationWindow::setBlanked(bool blanked) {
    m_blank->setVisible(blanked);
    if (blanked) m_blank->raise();
}

const std::vector<ChartSnapshot>& PresentationWindow::chartsFor(const PresentationSlide& slide) {
    static const std::vector<ChartSnapshot> none;
    if (slide.charts.empty()) return none;
    if (size() != m_chartsForSize) {
        m_charts.clear();  // another screen size: the pictures are drawn again at the new one
        m_chartsForSize = size();
    }
    const auto request = PresentationSlideView::chartRequest(slide, size());
    const qreal scale = request.scale * std::max<qreal>(1.0, devicePixelRatioF());
    const auto key =
        std::make_tuple(request.logicalSize.width(), request.logicalSize.height(), static_cast<int>(scale * 1000));
    auto it = m_charts.find(key);
    if (it == m_charts.end())
        it = m_charts.emplace(key, renderChartSnapshots(m_loaded, request.logicalSize, scale)).first;
    return it->second;
}

void PresentationWindow::showCurrent() {
    if (m_deck.slides.empty()) return;
    const PresentationSlide& slide = m_deck.slides[static_cast<std::size_t>(m_index)];
    auto* view = new PresentationSlideView(m_deck, static_cast<std::size_t>(m_index), size(), chartsFor(slide), this);
    view->setGeometry(rect());
    view->show();
    delete m_slide;  // after the new one is up: no flash of the bare window between slides
    m_slide = view;
    m_slideSize = size();
    m_notesPanel->setSlide(m_deck, static_cast<std::size_t>(m_index));
    if (m_console) m_console->setSlide(m_deck, static_cast<std::size_t>(m_index));
    layoutOverlays();
}

void PresentationWindow::layoutOverlays() {
    const qreal unit = PresentationSlideView::unitFor(size());
    m_notesPanel->setTextPixelSize(static_cast<int>(std::max(14.0, 22 * unit)));
    const int panelHeight = std::max(160, height() * 38 / 100);
    m_notesPanel->setGeometry(0, height() - panelHeight, width(), panelHeight);
    m_notesPanel->raise();
    m_jumpHint->adjustSize();
    m_jumpHint->move(width() - m_jumpHint->width() - 24, 24);
    m_jumpHint->raise();
    m_blank->setGeometry(rect());
    m_blank->raise();
}

void PresentationWindow::updateClock() {
    const qint64 seconds = m_clock.isValid() ? m_clock.elapsed() / 1000 : 0;
    m_notesPanel->setElapsedSeconds(seconds);
    if (m_console) m_console->setElapsedSeconds(seconds);
}

bool PresentationWindow::handleKey(QKeyEvent* event) {
    const int key = event->key();
    const bool shift = event->modifiers() & Qt::ShiftModifier;
    enum class Move { None, Next, Previous, First, Last, Jump };
    Move move = Move::None;
    switch (key) {
        case Qt::Key_Right:
        case Qt::Key_Down:
        case Qt::Key_PageDown:
        case Qt::Key_MediaNext:
            move = Move::Next;
            break;
        case Qt::Key_Space:
            move = shift ? Move::Previous : Move::Next;
            break;
        case Qt::Key_Return:
        case Qt::Key_Enter:
            move = m_digits.isEmpty() ? Move::Next : Move::Jump;
            break;
        case Qt::Key_Left:
        case Qt::Key_Up:
        case Qt::Key_PageUp:
        case Qt::Key_MediaPrevious:
            move = Move::Previous;
            break;
        case Qt::Key_Backspace:
            if (!m_digits.isEmpty()) {
                m_digits.chop(1);
                m_jumpHint->setText(tr("Go to slide %1 ⏎").arg(m_digits));
                m_jumpHint->setVisible(!m_digits.isEmpty());
                layoutOverlays();
                return true;
            }
            move = Move::Previous;
            break;
        case Qt::Key_Home:
            move = Move::First;
            break;
        case Qt::Key_End:
            move = Move::Last;
            break;
        case Qt::Key_Escape:
            leave();
            return true;
        case Qt::Key_N:
            setNotesPanelVisible(!isNotesPanelVisible());
            return true;
        case Qt::Key_Period:
        case Qt::Key_B:
            setBlanked(!isBlanked());
            return true;
        case Qt::Key_F5:
            return true;  // a clicker's "start show" while the show runs: nothing to do, and nothing else gets it
        default:
            if (key >= Qt::Key_0 && key <= Qt::Key_9) {
                if (m_digits.size() < 3) m_digits += QChar(u'0' + (key - Qt::Key_0));
                m_jumpHint->setText(tr("Go to slide %1 ⏎").arg(m_digits));
                m_jumpHint->show();
                layoutOverlays();
                return true;
            }
            return false;
    }
    if (isBlanked()) {
        // Back to the slide it hid, without moving: the audience sees what they saw before.
        setBlanked(false);
        m_digits.clear();
        m_jumpHint->hide();
        return true;
    }
    const QString digits = m_digits;
    m_digits.clear();
    m_jumpHint->hide();
    switch (move) {
        case Move::Next:
            next();
            break;
        case Move::Previous:
            previous();
            break;
        case Move::First:
            first();
            break;
        case Move::Last:
            last();
            break;
        case Move::Jump: {
            const int n = digits.toInt();
            if (n >= 1 && n <= slideCount()) goTo(n - 1);
            break;
        }
        case Move::None:
            break;
    }
    return true;
}

void PresentationWindow::keyPressEvent(QKeyEvent* event) {
    if (handleKey(event)) {
        event->accept();
    } else {
        QWidget::keyPressEvent(event);
    }
}

void PresentationWindow::mousePressEvent(QMouseEvent* event) {
    if (event->button() != Qt::LeftButton && event->button() != Qt::RightButton) {
        QWidget::mousePressEvent(event);
        return;
    }
    event->accept();
    if (isBlanked()) {
        setBlanked(false);
        return;
    }
    if (event->button() == Qt::LeftButton) {
        next();
    } else {
        previous();
    }
}

void PresentationWindow::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    if (!m_slide || m_slideSize != size()) showCurrent();  // laid out again for the new size
    layoutOverlays();
}

void PresentationWindow::closeEvent(QCloseEvent* event) {
    m_tick->stop();
    if (m_console) {
        m_console->removeEventFilter(this);
        m_console->hide();
        m_console->deleteLater();
    }
    event->accept();
    if (!m_finished) {
        m_finished = true;
        emit finished();
    }
}

bool PresentationWindow::eventFilter(QObject* watched, QEvent* event) {
    if (watched == m_console) {
        if (event->type() == QEvent::KeyPress) {
            auto* key = static_cast<QKeyEvent*>(event);
            if (handleKey(key)) return true;
        } else if (event->type() == QEvent::Close && !m_finished) {
            // Closing the console ends the show (after the console's own close has run).
            QMetaObject::invokeMethod(this, &PresentationWindow::leave, Qt::QueuedConnection);
        }
    }
    return QWidget::eventFilter(watched, event);
}

}  // namespace fp8dash::ui
