#pragma once
// Theme: light and dark, following the system by default. "System" reads the desktop's colour-scheme preference
// (the XDG desktop portal's org.freedesktop.appearance color-scheme, watched over D-Bus so a change on the desktop
// follows at once; else a GTK_THEME ending in ":dark"; else whether the platform's own palette is dark), since the
// Qt 6.4 of Debian 12 has no colour-scheme API of its own. Dark uses the Fusion style with a dark palette; the
// views' own colours (verdict tints, cards, charts) follow through ui_style's palette-aware helpers. The choice is
// kept in QSettings ("view/theme": system, light, dark). GUI thread only; one instance per application.
//
// How the views follow a theme change (the repaint protocol): a theme change never rebuilds a view and never resets a
// model, so the user's place (expansion, selection, current index, sort, filter, scroll, tab, chart zoom and pan,
// splitter sizes) stays as it was. Each view or model that paints with theme colours connects itself to
// Theme::changed (style::onThemeChange) and repaints: table models emit dataChanged(topLeft, bottomRight, {the colour
// roles}) over their rows (recursively for tree models); charts re-style their series, axes and brushes in place;
// views showing generated HTML or styled labels regenerate only that text or style sheet (the scroll position stays).
// Nobody answers Theme::changed by showing the comparison again. The presentation's slides are light on any theme
// (projectors) and do not change.

#include <QObject>
#include <QPalette>
#include <QString>

#include <optional>

class QDBusVariant;

namespace fp8dash::ui {

enum class ThemeMode { System, Light, Dark };
QString themeModeName(ThemeMode mode);  // "system", "light", "dark"
std::optional<ThemeMode> parseThemeMode(const QString& name);

class Theme : public QObject {
    Q_OBJECT
public:
    // The application's theme, created (and the saved mode applied) on first use; needs a QApplication.
    static Theme* instance();
    // The theme if instance() has run, else nullptr: what views use to follow theme changes without creating it.
    static Theme* existing();

    ThemeMode mode() const { return m_mode; }
    void setMode(ThemeMode mode);  // applies and remembers it
    bool isDark() const { return m_dark; }

    // The desktop's preference: true dark, false light, nullopt when it says nothing.
    static std::optional<bool> systemPrefersDark();
    static QPalette darkPalette();
    // What the desktop portal's colour-scheme signal does (tests simulate the desktop switching with it): the value
    // (0 no preference, 1 dark, 2 light) is remembered, and followed at once in the "System" mode.
    void followSystemColorScheme(uint colorScheme);

signals:
    void changed(bool dark);

private:
    explicit Theme(QObject* parent);
    void apply();
    Q_SLOT void portalSettingChanged(const QString& group, const QString& key, const QDBusVariant& value);

    ThemeMode m_mode = ThemeMode::System;
    bool m_dark = false;
    QString m_platformStyle;           // the style the application started with
    QPalette m_platformPalette;        // and its palette
    std::optional<bool> m_portalDark;  // the desktop's latest colour-scheme signal, when one came
};

}  // namespace fp8dash::ui
