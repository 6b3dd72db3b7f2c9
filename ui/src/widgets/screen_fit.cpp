#include "fp8dash/ui/screen_fit.h"

#include <QGuiApplication>
#include <QScreen>
#include <QWidget>

#include <algorithm>

namespace fp8dash::ui {

QRect fitToScreen(const QRect& window, const QRect& available) {
    if (!window.isValid() || !available.isValid()) return window;
    const QSize size = window.size().boundedTo(available.size());
    // The top-left that keeps the whole window on the available area, as near as possible to where it was.
    const int x = std::clamp(window.x(), available.left(), available.left() + available.width() - size.width());
    const int y = std::clamp(window.y(), available.top(), available.top() + available.height() - size.height());
    return {QPoint(x, y), size};
}

QRect firstStartGeometry(const QRect& available) {
    constexpr int kTitleBar = 32;  // the window manager's frame above the client area, roughly
    if (available.width() <= 1600 || available.height() <= 900)
        return {available.topLeft(), QSize(available.width(), std::max(1, available.height() - kTitleBar))};
    const QSize size = QSize(std::max(1366, available.width() * 85 / 100), std::max(768, available.height() * 85 / 100))
                           .boundedTo(available.size() - QSize(0, kTitleBar));
    QRect out(QPoint(), size);
    out.moveCenter(available.center());
    return out;
}

namespace {
constexpr int kScreenFitTitleBar = 32;  // the window manager's title bar above a window's client area, roughly
constexpr int kScreenFitBorder = 4;     // and its border on each side
}  // namespace

QSize dialogSizeFor(const QSize& wanted, const QRect& available) {
    if (!available.isValid()) return wanted;
    const QSize room(available.width() - 2 * kScreenFitBorder,
                     available.height() - kScreenFitTitleBar - 2 * kScreenFitBorder);
    return wanted.boundedTo(room.expandedTo(QSize(1, 1)));
}

QRect availableGeometryFor(const QWidget* widget) {
    const QScreen* screen = nullptr;
    if (widget && widget->isVisible()) screen = widget->screen();
    if (!screen && widget && widget->parentWidget()) screen = widget->parentWidget()->window()->screen();
    if (!screen) screen = QGuiApplication::primaryScreen();
    return screen ? screen->availableGeometry() : QRect();
}

int screenFor(const QRect& window, const QList<QRect>& screens, int primary) {
    if (screens.isEmpty()) return -1;
    const QPoint centre = window.center();
    for (int i = 0; i < screens.size(); ++i) {
        if (screens[i].contains(centre)) return i;
    }
    int best = -1;
    qint64 bestArea = 0;
    for (int i = 0; i < screens.size(); ++i) {
        const QRect overlap = screens[i].intersected(window);
        const qint64 area = overlap.isEmpty() ? 0 : qint64(overlap.width()) * overlap.height();
        if (area > bestArea) {
            best = i;
            bestArea = area;
        }
    }
    if (best >= 0) return best;
    return primary >= 0 && primary < screens.size() ? primary : 0;
}

SlidesPlacement placeSlides(const QList<ScreenInfo>& screens, const QString& current, const QString& presenter) {
    SlidesPlacement placement;
    int other = -1, presenterAt = -1, currentAt = -1;
    for (int i = 0; i < screens.size(); ++i) {
        const QString& name = screens[i].name;
        if (!presenter.isEmpty() && name == presenter) {
            presenterAt = i;
        } else if (other < 0) {
            other = i;  // the first screen that is not the presenter's
        }
        if (!current.isEmpty() && name == current) currentAt = i;
    }
    if (currentAt >= 0 && currentAt != presenterAt) {
        placement.screen = currentAt;  // still there and not the presenter's: the slides stay
    } else if (other >= 0) {
        placement.screen = other;  // a projector came, or the slides' screen went: another screen than the presenter's
    } else {
        placement.screen = presenterAt;  // only the presenter's screen is left (or none)
    }
    if (placement.screen >= 0) placement.geometry = screens[placement.screen].geometry;
    return placement;
}

void fitWindowToScreen(QWidget* window) {
    const QList<QScreen*> screens = QGuiApplication::screens();
    QList<QRect> areas;
    for (const QScreen* s : screens) areas << s->availableGeometry();
    const int at =
        screenFor(window->geometry(), areas, static_cast<int>(screens.indexOf(QGuiApplication::primaryScreen())));
    if (at < 0) return;
    const QRect fitted = fitToScreen(window->geometry(), areas[at]);
    if (fitted != window->geometry()) window->setGeometry(fitted);
}

}  // namespace fp8dash::ui
