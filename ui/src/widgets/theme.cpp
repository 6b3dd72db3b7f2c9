#include "fp8dash/ui/theme.h"

#include <QApplication>
#include <QDBusConnection>
#include <QDBusInterface>
#include <QDBusReply>
#include <QDBusVariant>
#include <QSettings>
#include <QStyle>
#include <QStyleFactory>
#include <QWidget>

namespace fp8dash::ui {

namespace {

const QString kSettingsKey = QStringLiteral("view/theme");
const QString kPortalService = QStringLiteral("org.freedesktop.portal.Desktop");
const QString kPortalPath = QStringLiteral("/org/freedesktop/portal/desktop");
const QString kPortalSettings = QStringLiteral("org.freedesktop.portal.Settings");
const QString kAppearance = QStringLiteral("org.freedesktop.appearance");
const QString kColorScheme = QStringLiteral("color-scheme");

// The portal's color-scheme: 0 no preference, 1 prefer dark, 2 prefer light.
std::optional<bool> fromColorScheme(uint value) {
    if (value == 1) return true;
    if (value == 2) return false;
    return std::nullopt;
}

// Read() wraps the value in one more variant than ReadOne(); unwrap whatever arrives.
QVariant unwrapped(QVariant v) {
    while (v.canConvert<QDBusVariant>() && v.userType() == qMetaTypeId<QDBusVariant>())
        v = v.value<QDBusVariant>().variant();
    return v;
}

bool paletteIsDark(const QPalette& p) {
    return p.color(QPalette::Window).lightness() < 128;
}

}  // namespace

QString themeModeName(ThemeMode mode) {
    switch (mode) {
        case ThemeMode::System:
            return QStringLiteral("system");
        case ThemeMode::Light:
            return QStringLiteral("light");
        case ThemeMode::Dark:
            return QStringLiteral("dark");
    }
    return QStringLiteral("system");
}

std::optional<ThemeMode> parseThemeMode(const QString& name) {
    for (ThemeMode m : {ThemeMode::System, ThemeMode::Light, ThemeMode::Dark})
        if (name.trimmed().compare(themeModeName(m), Qt::CaseInsensitive) == 0) return m;
    return std::nullopt;
}

namespace {
Theme* g_theme = nullptr;  // a child of qApp, created by the first Theme::instance()
}  // namespace

Theme* Theme::instance() {
    if (!g_theme) g_theme = new Theme(qApp);
    return g_theme;
}

Theme* Theme::existing() {
    return g_theme;
}

Theme::Theme(QObject* parent) : QObject(parent) {
    m_platformStyle = QApplication::style()->name();
    m_platformPalette = QApplication::palette();
    m_mode = parseThemeMode(QSettings().value(kSettingsKey).toString()).value_or(ThemeMode::System);
    // Follow the desktop when its preference changes (only "System" listens to it).
    QDBusConnection::sessionBus().connect(kPortalService, kPortalPath, kPortalSettings,
                                          QStringLiteral("SettingChanged"), this,
                                          SLOT(portalSettingChanged(QString, QString, QDBusVariant)));
    apply();
}

void Theme::setMode(ThemeMode mode) {
    QSettings().setValue(kSettingsKey, themeModeName(mode));
    if (mode == m_mode) return;
    m_mode = mode;
    apply();
}

std::optional<bool> Theme::systemPrefersDark() {
    QDBusConnection bus = QDBusConnection::sessionBus();
    if (bus.isConnected()) {
        QDBusInterface portal(kPortalService, kPortalPath, kPortalSettings, bus);
        if (portal.isValid()) {
            portal.setTimeout(500);
            for (const char* method : {"ReadOne", "Read"}) {
                const QDBusMessage reply = portal.call(QLatin1String(method), kAppearance, kColorScheme);
                if (reply.type() == QDBusMessage::ReplyMessage && !reply.arguments().isEmpty()) {
                    return fromColorScheme(unwrapped(reply.arguments().first()).toUInt());
                }
            }
        }
    }
    // GNOME and others name a dark GTK theme variant "Name:dark".
    const QString gtk = qEnvironmentVariable("GTK_THEME");
    if (gtk.endsWith(QStringLiteral(":dark"), Qt::CaseInsensitive)) return true;
    if (!gtk.isEmpty()) return gtk.contains(QStringLiteral("dark"), Qt::CaseInsensitive);
    return std::nullopt;
}

QPalette Theme::darkPalette() {
    QPalette p;
    const QColor window(0x20, 0x22, 0x25), base(0x17, 0x19, 0x1c), alternate(0x24, 0x27, 0x2b);
    const QColor text(0xe8, 0xea, 0xed), disabled(0x80, 0x86, 0x8b), highlight(0x3d, 0x7b, 0xd9);
    p.setColor(QPalette::Window, window);
    p.setColor(QPalette::WindowText, text);
    p.setColor(QPalette::Base, base);
    p.setColor(QPalette::AlternateBase, alternate);
    p.setColor(QPalette::ToolTipBase, QColor(0x30, 0x33, 0x37));
    p.setColor(QPalette::ToolTipText, text);
    p.setColor(QPalette::PlaceholderText, disabled);
    p.setColor(QPalette::Text, text);
    p.setColor(QPalette::Button, QColor(0x2b, 0x2e, 0x32));
    p.setColor(QPalette::ButtonText, text);
    p.setColor(QPalette::BrightText, Qt::white);
    p.setColor(QPalette::Light, QColor(0x3a, 0x3d, 0x41));
    p.setColor(QPalette::Midlight, QColor(0x32, 0x35, 0x39));
    p.setColor(QPalette::Mid, QColor(0x26, 0x29, 0x2d));
    p.setColor(QPalette::Dark, QColor(0x12, 0x13, 0x15));
    p.setColor(QPalette::Shadow, Qt::black);
    p.setColor(QPalette::Highlight, highlight);
    p.setColor(QPalette::HighlightedText, Qt::white);
    p.setColor(QPalette::Link, QColor(0x8a, 0xb4, 0xf8));
    p.setColor(QPalette::LinkVisited, QColor(0xc5, 0x8a, 0xf9));
    for (QPalette::ColorRole role : {QPalette::WindowText, QPalette::Text, QPalette::ButtonText}) {
        p.setColor(QPalette::Disabled, role, disabled);
    }
    p.setColor(QPalette::Disabled, QPalette::Highlight, QColor(0x44, 0x47, 0x4b));
    return p;
}

void Theme::apply() {
    bool dark = false;
    switch (m_mode) {
        case ThemeMode::Dark:
            dark = true;
            break;
        case ThemeMode::Light:
            dark = false;
            break;
        case ThemeMode::System:
            // The desktop's latest signal wins over asking it again (the portal may answer the old value for a moment).
            dark = m_portalDark ? *m_portalDark : systemPrefersDark().value_or(paletteIsDark(m_platformPalette));
            break;
    }
    if (dark) {
        QApplication::setStyle(QStyleFactory::create(QStringLiteral("Fusion")));
        QApplication::setPalette(darkPalette());
    } else if (m_mode == ThemeMode::Light && paletteIsDark(m_platformPalette)) {
        // The platform is dark and the user wants light: Fusion's own light palette.
        QApplication::setStyle(QStyleFactory::create(QStringLiteral("Fusion")));
        QApplication::setPalette(QApplication::style()->standardPalette());
    } else {
        if (QApplication::style()->name().compare(m_platformStyle, Qt::CaseInsensitive) != 0)
            QApplication::setStyle(QStyleFactory::create(m_platformStyle));
        QApplication::setPalette(m_platformPalette);
    }
    // A widget with its own style sheet keeps the palette Qt's style-sheet style saved when it polished the widget, and
    // QApplication::setPalette does not reach it: setting the same sheet again repolishes it (and its children, which
    // inherit the sheet) with the palette just set. Without this, the task tree stayed light on a dark window.
    for (QWidget* widget : QApplication::allWidgets()) {
        if (!widget->styleSheet().isEmpty()) widget->setStyleSheet(widget->styleSheet());
    }
    const bool changedNow = dark != m_dark;
    m_dark = dark;
    if (changedNow) emit changed(dark);
}

void Theme::portalSettingChanged(const QString& group, const QString& key, const QDBusVariant& value) {
    if (group != kAppearance || key != kColorScheme) return;
    followSystemColorScheme(unwrapped(value.variant()).toUInt());
}

void Theme::followSystemColorScheme(uint colorScheme) {
    m_portalDark = fromColorScheme(colorScheme).value_or(paletteIsDark(m_platformPalette));
    if (m_mode != ThemeMode::System || *m_portalDark == m_dark) return;
    apply();
}

}  // namespace fp8dash::ui
