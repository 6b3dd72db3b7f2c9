#pragma once
// Where windows go on the screens there are: pure functions (rectangles in, rectangles out), so every case is tested
// without the screens themselves.
//  - fitToScreen: a restored window geometry made to fit the available geometry of the screen it opens on (no larger
//    than it, moved onto it), so a window remembered on a large monitor opens whole on a laptop.
//  - screenFor: the screen a window opens on: the one holding its centre, else the one it overlaps most, else the
//    primary screen.
//  - placeSlides: the screen and geometry of the full-screen presentation as screens come, go or change size.

#include <QList>
#include <QRect>
#include <QString>

class QWidget;

namespace fp8dash::ui {

QRect fitToScreen(const QRect& window, const QRect& available);

// The main window's geometry on a first start (nothing remembered), in the available geometry of the screen it
// opens on: a laptop's screen (up to 1600 × 900 available) wholly, less a title bar's height (the evals table needs
// every pixel of its width); a larger one 85 % of it each way, at least 1366 × 768 (where that fits), centred.
QRect firstStartGeometry(const QRect& available);

// A dialog's size on a screen: the size it asks for, no larger than the available geometry less a window frame (a title
// bar and borders): a fixed 1100 × 760 does not fit the 736 pixels a 1366 × 768 laptop leaves under its panel.
QSize dialogSizeFor(const QSize& wanted, const QRect& available);
// The available geometry of the screen a widget opens on: its own once shown, else its parent window's, else the
// primary screen's; an empty rectangle without screens.
QRect availableGeometryFor(const QWidget* widget);

// Index into screens; primary when the window is on none of them; -1 with no screens.
int screenFor(const QRect& window, const QList<QRect>& screens, int primary);

struct ScreenInfo {
    QString name;
    QRect geometry;
};
struct SlidesPlacement {
    int screen = -1;  // index into the screens; -1: there is no screen
    QRect geometry;   // that screen's whole geometry (the slides are full screen)
};
// The slides go to a screen other than the presenter's (a projector), staying on the one they are on while it is
// there; with only the presenter's screen they share it. `current` and `presenter` are screen names ("" none or
// unknown). Called again whenever a screen is added, removed or resized.
SlidesPlacement placeSlides(const QList<ScreenInfo>& screens, const QString& current, const QString& presenter);

// Applies screenFor and fitToScreen to a top-level widget with the application's screens (the available geometry:
// without panels and docks). The window's minimum size still wins on a screen smaller than it.
void fitWindowToScreen(QWidget* window);

}  // namespace fp8dash::ui
