#pragma once
// Shared look of the views: verdict colours, section titles, icon rows, badges. GUI thread only.

#include <QColor>
#include <QString>
#include <QStyle>

#include <functional>
#include <optional>

#include "fp8dash/core/verdict.h"

class QChart;
class QChartView;
class QLabel;
class QLayout;
class QObject;
class QWidget;

namespace fp8dash::ui {
// Registers the icon resources of fp8dash_resources (idempotent); call before the first QIcon(":/icons/...").
void initUiResources();
}  // namespace fp8dash::ui

namespace fp8dash::ui::style {

QColor verdictColor(Verdict v);      // strong colour: banner background (white text on it reads well)
QColor verdictTint(Verdict v);       // light background for table cells
QColor verdictTextColor(Verdict v);  // dark foreground on the tint
// The same for a given palette, whatever the application's (the presentation's slides are always light).
QColor verdictTint(Verdict v, bool dark);
QColor verdictTextColor(Verdict v, bool dark);
QColor secondaryTextColor();  // subtask rows, captions
bool darkPalette();           // the application palette is dark (Theme's dark mode, or a dark desktop)
// Text colours that read on the palette's window colour, light or dark.
QColor errorTextColor();                                    // errors, warnings that need action
QColor cautionTextColor();                                  // cautions
QColor successTextColor();                                  // "it worked"
QString colorRule(const QColor& color, bool bold = false);  // "QLabel { color: #...; }" for setStyleSheet
// An information box (the offline notice): a blue tint on light, a deep blue on dark, its text readable on either
// (WCAG contrast above 7).
struct NoticeColors {
    QColor background, border, text;
};
NoticeColors noticeColors();
// A label's text in one of those tones (nullopt: the palette's own text colour), kept in the palette's version of the
// tone after every theme change (the label's style sheet is its own: this sets it).
enum class TextTone { Error, Caution, Success };
void setTextTone(QLabel* label, std::optional<TextTone> tone, bool bold = false);

// Calls repaint after every theme change while context lives (Theme::changed; the repaint protocol in theme.h); nothing
// where no Theme was created (Theme::existing), so drawing views without a window never applies the saved theme.
void onThemeChange(QObject* context, std::function<void()> repaint);

// caption and badge follow theme changes themselves. sectionTitle, caption and badge are plain text (they often show
// names from files: untrusted_ui.h); a caption that shows markup of ours sets Qt::RichText itself and escapes data.
QLabel* sectionTitle(const QString& text, QWidget* parent = nullptr);
QLabel* caption(const QString& text, QWidget* parent = nullptr);  // secondary, wrapped
enum class RowIcon { Warning, Info };
// A coloured glyph beside wrapped rich text (html: data in it escaped), selectable so a user can copy it.
QLabel* iconRow(RowIcon icon, const QString& html, QWidget* parent = nullptr);
// A pill: "✓ FP8" on green or "✗ ..." on grey.
QLabel* badge(bool on, const QString& text, const QString& toolTip, QWidget* parent = nullptr);

// Charts in the palette's colours (white on light, the base colour on dark), text and grid to match; axes coloured
// like their series keep their hue. adaptCharts does it for every chart view under root.
void adaptChart(QChart* chart);
void adaptChartView(QChartView* view);  // its chart, and the view's own background around it
void adaptCharts(QWidget* root);

void clearLayout(QLayout* layout);         // deletes the layout's widgets and nested layouts
QString escaped(const std::string& utf8);  // HTML-escaped
QString escaped(const QString& text);
QString breakable(const QString& text);  // plain text with break opportunities after '/' (long model ids)

}  // namespace fp8dash::ui::style
