#pragma once
// Repainting on a theme change without creating the theme: views and models that paint with the palette's colours
// connect themselves to Theme::changed, but only where the application's Theme already exists (MainWindow creates
// it before its views). A process that draws views without a window (the report's chart snapshots) never applies the
// user's saved theme as a side effect. GUI thread only.

#include <QApplication>

#include <utility>

#include "fp8dash/ui/theme.h"

namespace fp8dash::ui {

// The application's Theme if Theme::instance() has run, else nullptr (it is a child of qApp).
inline Theme* existingTheme() {
    return qApp ? qApp->findChild<Theme*>(QString(), Qt::FindDirectChildrenOnly) : nullptr;
}

// Calls repaint(), in receiver's context, after every theme change; nothing without a Theme.
template <class Receiver, class Repaint>
void repaintOnThemeChange(Receiver* receiver, Repaint&& repaint) {
    if (Theme* theme = existingTheme())
        QObject::connect(theme, &Theme::changed, receiver, std::forward<Repaint>(repaint));
}

}  // namespace fp8dash::ui
