#include "widgets/ui_style.h"

#include <QAbstractAxis>
#include <QAbstractBarSeries>
#include <QApplication>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QLabel>
#include <QLayout>
#include <QLegend>
#include <QWidget>

#include "fp8dash/ui/theme.h"
#include "widgets/untrusted_ui.h"

// Q_INIT_RESOURCE must be used outside any namespace; referencing the initialiser also keeps the static library's
// resource object in the link.
static void registerFp8dashResources() {
    Q_INIT_RESOURCE(fp8dash);
}

namespace fp8dash::ui {
void initUiResources() {
    static const bool done = [] {
        registerFp8dashResources();
        return true;
    }();
    (void)done;
}
}  // namespace fp8dash::ui

namespace fp8dash::ui::style {

QColor verdictColor(Verdict v) {
    switch (v) {
        case Verdict::Go:
            return QColor(0x1e, 0x7d, 0x32);
        case Verdict::Monitor:
            return QColor(0xb2, 0x6a, 0x00);  // dark amber: white text stays readable on it
        case Verdict::Investigate:
            return QColor(0xc6, 0x28, 0x28);
    }
    return Qt::gray;
}

bool darkPalette() {
    return QApplication::palette().color(QPalette::Window).lightness() < 128;
}

QColor verdictTint(Verdict v) {
    return verdictTint(v, darkPalette());
}

QColor verdictTint(Verdict v, bool dark) {
    if (dark) {
        // Deep tints under light text: the colour still says the verdict, the text stays readable.
        switch (v) {
            case Verdict::Go:
                return QColor(0x1d, 0x3b, 0x24);
            case Verdict::Monitor:
                return QColor(0x4a, 0x36, 0x10);
            case Verdict::Investigate:
                return QColor(0x52, 0x20, 0x20);
        }
    }
    switch (v) {
        case Verdict::Go:
            return QColor(0xdf, 0xf1, 0xe1);
        case Verdict::Monitor:
            return QColor(0xff, 0xec, 0xc4);
        case Verdict::Investigate:
            return QColor(0xfb, 0xdc, 0xdc);
    }
    return Qt::white;
}

QColor verdictTextColor(Verdict v) {
    return verdictTextColor(v, darkPalette());
}

QColor verdictTextColor(Verdict v, bool dark) {
    if (dark) {
        switch (v) {
            case Verdict::Go:
                return QColor(0xa8, 0xdb, 0xb0);
            case Verdict::Monitor:
                return QColor(0xff, 0xd5, 0x80);
            case Verdict::Investigate:
                return QColor(0xff, 0xb4, 0xab);
        }
    }
    switch (v) {
        case Verdict::Go:
            return QColor(0x14, 0x5a, 0x23);
        case Verdict::Monitor:
            return QColor(0x7a, 0x45, 0x00);
        case Verdict::Investigate:
            return QColor(0x9b, 0x1c, 0x1c);
    }
    return Qt::black;
}

QColor secondaryTextColor() {
    // Two thirds of the way from the background to the text colour: quieter than text, still easy to read, and
    // right on dark palettes too.
    const QPalette p = QApplication::palette();
    const QColor text = p.color(QPalette::Active, QPalette::WindowText);
    const QColor back = p.color(QPalette::Active, QPalette::Window);
    auto mix = [](int a, int b) { return (2 * a + b) / 3; };
    return QColor(mix(text.red(), back.red()), mix(text.green(), back.green()), mix(text.blue(), back.blue()));
}

QColor errorTextColor() {
    return darkPalette() ? QColor(0xff, 0xb4, 0xab) : QColor(0x9b, 0x1c, 0x1c);
}

QColor cautionTextColor() {
    return darkPalette() ? QColor(0xff, 0xd5, 0x80) : QColor(0x7a, 0x45, 0x00);
}

QColor successTextColor() {
    return darkPalette() ? QColor(0xa8, 0xdb, 0xb0) : QColor(0x14, 0x5a, 0x23);
}

NoticeColors noticeColors() {
    if (darkPalette()) return {QColor(0x1a, 0x2a, 0x42), QColor(0x3d, 0x5f, 0x8f), QColor(0xc6, 0xda, 0xfc)};
    return {QColor(0xe8, 0xf0, 0xfe), QColor(0xae, 0xcb, 0xfa), QColor(0x17, 0x4e, 0xa6)};
}

QString colorRule(const QColor& color, bool bold) {
    return QStringLiteral("QLabel { color: %1;%2 }")
        .arg(color.name(), bold ? QStringLiteral(" font-weight: bold;") : QString());
}

void onThemeChange(QObject* context, std::function<void()> repaint) {
    // Only where the application's Theme exists (MainWindow creates it before its views): a process that draws views
    // without a window (the report's chart snapshots) must not apply the user's saved theme as a side effect.
    if (Theme* theme = Theme::existing())
        QObject::connect(theme, &Theme::changed, context, [repaint = std::move(repaint)] { repaint(); });
}

namespace {
const char* const kToneProperty = "fp8dashTextTone";  // int(TextTone) + 1; 0 none
const char* const kToneBoldProperty = "fp8dashTextToneBold";
const char* const kToneFollowsProperty = "fp8dashTextToneFollows";

QColor toneColor(TextTone tone) {
    switch (tone) {
        case TextTone::Error:
            return errorTextColor();
        case TextTone::Caution:
            return cautionTextColor();
        case TextTone::Success:
            return successTextColor();
    }
    return errorTextColor();
}

void paintTone(QLabel* label) {
    const int tone = label->property(kToneProperty).toInt();
    label->setStyleSheet(
        tone > 0 ? colorRule(toneColor(static_cast<TextTone>(tone - 1)), label->property(kToneBoldProperty).toBool())
                 : QString());
}
}  // namespace

void setTextTone(QLabel* label, std::optional<TextTone> tone, bool bold) {
    label->setProperty(kToneProperty, tone ? static_cast<int>(*tone) + 1 : 0);
    label->setProperty(kToneBoldProperty, bold);
    paintTone(label);
    if (!label->property(kToneFollowsProperty).toBool()) {
        label->setProperty(kToneFollowsProperty, true);
        onThemeChange(label, [label] { paintTone(label); });
    }
}

QLabel* sectionTitle(const QString& text, QWidget* parent) {
    auto* label = plainLabel(text, parent);
    QFont f = label->font();
    f.setBold(true);
    f.setPointSizeF(f.pointSizeF() * 1.1);
    label->setFont(f);
    label->setWordWrap(true);
    return label;
}

QLabel* caption(const QString& text, QWidget* parent) {
    auto* label = plainLabel(text, parent);
    label->setWordWrap(true);
    const auto paint = [label] {
        QPalette p = label->palette();
        p.setColor(QPalette::WindowText, secondaryTextColor());
        label->setPalette(p);
    };
    paint();
    onThemeChange(label, paint);
    return label;
}

QLabel* iconRow(RowIcon icon, const QString& html, QWidget* parent) {
    // One rich-text label (a two-cell table: glyph, text) rather than an icon widget beside a wrapped label: a single
    // label reports its height for a width exactly, so rows neither clip nor leave gaps, and wrapped lines stay
    // indented under the text.
    const QString glyph = icon == RowIcon::Warning ? QStringLiteral("<span style=\"color:#b26a00;\">⚠</span>")
                                                   : QStringLiteral("<span style=\"color:#1a73e8;\">ℹ</span>");
    auto* label = new QLabel(QStringLiteral("<table cellspacing=\"0\" cellpadding=\"0\"><tr>"
                                            "<td valign=\"top\" style=\"padding-right:8px;\">%1</td>"
                                            "<td valign=\"top\">%2</td></tr></table>")
                                 .arg(glyph, html),
                             parent);
    label->setTextFormat(Qt::RichText);
    label->setWordWrap(true);
    label->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    // No setSizePolicy() here: it would drop the height-for-width flag that word wrap sets, and the layout would
    // then reserve the height of the text at its narrow "size hint" width.
    return label;
}

QLabel* badge(bool on, const QString& text, const QString& toolTip, QWidget* parent) {
    auto* label = plainLabel((on ? QStringLiteral("✓ ") : QStringLiteral("✗ ")) + text, parent);
    label->setObjectName(on ? QStringLiteral("badgeOn") : QStringLiteral("badgeOff"));
    const auto paint = [label, on] {
        label->setStyleSheet(on ? QStringLiteral("QLabel { background: #1e7d32; color: white; font-weight: bold;"
                                                 " border-radius: 4px; padding: 2px 8px; }")
                             : darkPalette() ? QStringLiteral("QLabel { background: #3a3d41; color: #c4c7cc;"
                                                              " border-radius: 4px; padding: 2px 8px; }")
                                             : QStringLiteral("QLabel { background: #e3e5e8; color: #3c4043;"
                                                              " border-radius: 4px; padding: 2px 8px; }"));
    };
    paint();
    if (!on) onThemeChange(label, paint);
    label->setToolTip(escapedTip(toolTip));
    label->setSizePolicy(QSizePolicy::Maximum, QSizePolicy::Fixed);
    return label;
}

void adaptChart(QChart* chart) {
    const bool dark = darkPalette();
    const QPalette p = QApplication::palette();
    const QColor background = dark ? p.color(QPalette::Base) : QColor(Qt::white);
    const QColor text = dark ? p.color(QPalette::Text) : QColor(0x40, 0x40, 0x40);
    const QColor grid = dark ? QColor(0x3c, 0x40, 0x44) : QColor(0xe0, 0xe0, 0xe0);
    chart->setBackgroundBrush(background);
    chart->setTitleBrush(text);
    chart->legend()->setLabelColor(text);
    // Value labels drawn above the bars sit on the chart's background: its text colour (Qt's light theme draws them
    // white, which vanished on white). Labels inside a bar keep the colour chosen for its fill.
    for (QAbstractSeries* series : chart->series()) {
        auto* bars = qobject_cast<QAbstractBarSeries*>(series);
        if (!bars || bars->labelsPosition() != QAbstractBarSeries::LabelsOutsideEnd) continue;
        for (QBarSet* set : bars->barSets()) set->setLabelColor(text);
    }
    for (QAbstractAxis* axis : chart->axes()) {
        // Axes coloured like their series keep their hue, brightened where it would not read on a dark background.
        // Always from the hue the axis had when first adapted (kept on the axis), so that switching the theme back and
        // forth does not drift it (lighter(170) and darker(170) are not each other's inverse).
        static const char* const kBaseLabels = "fp8dashBaseLabelsColor";
        if (!axis->property(kBaseLabels).isValid()) axis->setProperty(kBaseLabels, axis->labelsColor());
        QColor labels = axis->property(kBaseLabels).value<QColor>();
        const bool neutral = labels.saturation() < 40;
        if (neutral) {
            labels = text;
        } else if (dark && labels.lightness() < 140) {
            labels = labels.lighter(170);
        } else if (!dark && labels.lightness() > 160) {
            labels = labels.darker(170);
        }
        axis->setLabelsColor(labels);
        axis->setTitleBrush(labels);
        axis->setGridLineColor(grid);
        axis->setMinorGridLineColor(dark ? grid.darker(120) : QColor(0xee, 0xee, 0xee));
        axis->setLinePenColor(dark ? QColor(0x5f, 0x63, 0x68) : QColor(0xbd, 0xbd, 0xbd));
    }
}

void adaptChartView(QChartView* view) {
    if (view->chart()) adaptChart(view->chart());
    view->setBackgroundBrush(darkPalette() ? QApplication::palette().color(QPalette::Base) : QColor(Qt::white));
}

void adaptCharts(QWidget* root) {
    for (QChartView* view : root->findChildren<QChartView*>()) adaptChartView(view);
}

void clearLayout(QLayout* layout) {
    while (QLayoutItem* item = layout->takeAt(0)) {
        if (QWidget* w = item->widget()) delete w;
        if (QLayout* child = item->layout()) {
            clearLayout(child);
        }
        delete item;
    }
}

// Data in our rich text: its controls and bidi overrides shown (untrusted_ui.h), then HTML-escaped.
QString escaped(const std::string& utf8) {
    return visibleText(QString::fromStdString(utf8)).toHtmlEscaped();
}
QString escaped(const QString& text) {
    return visibleText(text).toHtmlEscaped();
}

QString breakable(const QString& text) {
    QString out = text;
    out.replace(QLatin1Char('/'), QStringLiteral("/\u200b"));
    return out;
}

}  // namespace fp8dash::ui::style
