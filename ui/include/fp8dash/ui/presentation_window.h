#pragma once
// Presentation mode (README "The desktop app"): a presenter walks stakeholders through the decision on a
// projector, one step per full-screen slide in the order of the decision (core/presentation_deck.h: cover, offline
// evals, domain judge, production timeline, local benchmarks, capacity, verdict; steps without data left out), the
// type scaled to the screen.
//
// Keys (a clicker sends PageUp/PageDown, some also F5, Esc, "." or B):
//   next: Right, Down, Space, PageDown, Enter/Return, media-next; previous: Left, Up, Backspace, PageUp,
//   media-previous; Home / End: the first / last slide; digits then Enter: that slide (1-based; Backspace edits the
//   digits); Esc: leave; N: the presenter notes panel over the slides; "." or B: a black screen (the same key, or any
//   navigation key, brings the slide back without moving); F5 / Shift+F5 (a clicker's "start show"): nothing.
// Mouse: a left click is next, a right click previous. With two screens or more, the slides go to a screen other
// than the presenter's (where the main window is) and a PresenterConsole window fills the presenter's screen.
// Charts are drawn when their slide is first shown and kept for the window's size. The window keeps its own copy of
// the comparison, so the main window may change its document meanwhile. GUI thread only; deletes itself when
// closed (WA_DeleteOnClose) and owns its children and the console window.

#include <QElapsedTimer>
#include <QPointer>
#include <QWidget>

#include <map>
#include <optional>
#include <tuple>
#include <vector>

#include "fp8dash/core/presentation_deck.h"
#include "fp8dash/ui/chart_snapshots.h"
#include "fp8dash/ui/loaded_comparison.h"

class QLabel;
class QScreen;
class QTimer;

namespace fp8dash::ui {

class PresentationSlideView;
class PresenterConsole;

class PresentationWindow : public QWidget {
    Q_OBJECT
public:
    explicit PresentationWindow(LoadedComparison loaded, QWidget* parent = nullptr);
    ~PresentationWindow() override;

    // The presenter console window: Auto, on the presenter's screen when the slides have a screen of their own (with
    // one screen the N panel serves instead); Always, also with one screen, where it opens as a normal window under
    // the full-screen slides (what the tests use: the offscreen platform has one screen).
    enum class ConsoleMode { Auto, Always };
    // Shows the slides full screen and starts the clock. presenterScreen: the screen the presenter looks at (the
    // main window's); nullptr: the primary screen. The slides go to another screen when there is one. While it runs
    // the slides follow the screens: a screen added (a projector plugged in), removed or resized moves or resizes
    // them to stay full screen on a screen that is there (placeSlides in screen_fit.h).
    void start(QScreen* presenterScreen = nullptr, ConsoleMode console = ConsoleMode::Auto);

    // The answer slide ("One answer FP8 changed") as the user set it in View › Changed Answer Slide, kept in the
    // settings (key kAnswerSlideKey: "auto", "always", "never"): nullopt is automatic (answerSlideByDefault: only
    // beside a monitor or investigate verdict). A presenter showing confidential domain prompts turns it off once.
    static constexpr const char* kAnswerSlideKey = "presentation/answerSlide";
    static std::optional<bool> answerSlideSetting();
    static void setAnswerSlideSetting(std::optional<bool> show);

    const PresentationDeck& deck() const { return m_deck; }
    int currentIndex() const { return m_index; }
    int slideCount() const { return static_cast<int>(m_deck.slides.size()); }
    PresentationSlideView* currentSlide() const { return m_slide; }

    void goTo(int index);  // clamped to the deck
    void next();
    void previous();
    void first();
    void last();
    // Ends the presentation: emits finished() once, then closes the window (and the console).
    void leave();

    PresenterConsole* notesPanel() const { return m_notesPanel; }  // over the slides, hidden until N
    bool isNotesPanelVisible() const;
    void setNotesPanelVisible(bool visible);
    PresenterConsole* presenterConsole() const;  // the console window; nullptr with one screen
    bool isBlanked() const;
    QString pendingSlideNumber() const { return m_digits; }  // the digits typed so far

signals:
    void slideChanged(int index);
    void finished();

protected:
    void keyPressEvent(QKeyEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void closeEvent(QCloseEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    // Handles a key from the slides or the console; false when the key is not the presentation's.
    bool handleKey(QKeyEvent* event);
    void showCurrent();
    void layoutOverlays();
    void updateClock();
    void setBlanked(bool blanked);
    const std::vector<ChartSnapshot>& chartsFor(const PresentationSlide& slide);
    void watchScreen(QScreen* screen);
    void followScreens();  // the slides to placeSlides' screen and geometry

    LoadedComparison m_loaded;
    PresentationDeck m_deck;
    int m_index = 0;
    PresentationSlideView* m_slide = nullptr;
    QSize m_slideSize;  // the size m_slide was laid out for
    PresenterConsole* m_notesPanel = nullptr;
    QPointer<PresenterConsole> m_console;
    QWidget* m_blank = nullptr;
    QLabel* m_jumpHint = nullptr;
    QString m_digits;
    QElapsedTimer m_clock;
    QTimer* m_tick = nullptr;
    // Snapshots by (logical width, height, scale in thousandths), for the current window size.
    std::map<std::tuple<int, int, int>, std::vector<ChartSnapshot>> m_charts;
    QSize m_chartsForSize;
    bool m_finished = false;
    QString m_presenterScreen;  // the presenter's screen, by name ("" before start)
};

}  // namespace fp8dash::ui
