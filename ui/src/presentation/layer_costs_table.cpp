// The layer-costs slide's table (layer_costs_table.h).
#include "presentation/layer_costs_table.h"

#include <QFrame>
#include <QGridLayout>
#include <QLabel>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

#include "fp8dash/ui/loaded_comparison.h"
#include "widgets/ui_style.h"
#include "widgets/untrusted_ui.h"

namespace fp8dash::ui {

namespace {

// The deck's palette (presentation_slide_view.cpp): dark ink on white whatever the app's theme.
const QColor kStepInk(0x15, 0x18, 0x1d);
const QColor kStepQuiet(0x55, 0x5d, 0x69);
const QColor kStepRule(0xdc, 0xe0, 0xe6);

QLabel* costsLabel(QWidget* parent, const QString& text, int px, QFont::Weight weight, const QColor& color, bool wrap) {
    auto* label = new QLabel(visibleText(text), parent);  // labels are data: their controls shown
    QFont f = label->font();
    f.setPixelSize(px);
    f.setWeight(weight);
    label->setFont(f);
    label->setWordWrap(wrap);
    label->setTextFormat(Qt::PlainText);
    label->setStyleSheet(
        QStringLiteral("color: %1; background: transparent; border: none;").arg(color.name(QColor::HexRgb)));
    return label;
}

// "−2.65%" with the typographic minus, as the other slides write numbers.
QString costsNumbers(const std::string& text) {
    QString s = toQString(text);
    for (int i = 0; i + 1 < s.size(); ++i)
        if (s[i] == QLatin1Char('-') && (i == 0 || s[i - 1] == QLatin1Char(' ')) && s[i + 1].isDigit())
            s[i] = QChar(0x2212);
    return s;
}

}  // namespace

QWidget* makeLayerCostsTable(const PresentationSlide& slide, qreal unit, int height, QWidget* parent) {
    const auto px = [unit](qreal v) { return std::max(1, static_cast<int>(std::lround(v * unit))); };
    auto* table = new QWidget(parent);
    table->setObjectName(QStringLiteral("layerCostsTable"));
    table->setAccessibleName(QObject::tr("What each FP8 layer costs: every layer step's tasks"));
    auto* grid = new QGridLayout(table);
    grid->setContentsMargins(0, 0, 0, 0);
    grid->setHorizontalSpacing(0);
    grid->setVerticalSpacing(0);
    const int textPx = px(27), pad = px(16);
    const int headerHeight = px(21 * 2.4);
    const int minRow = px(27 * 1.9), maxRow = px(27 * 2.5);
    const int n = static_cast<int>(slide.stepRows.size());
    const int fit = std::max(1, (height - headerHeight) / minRow);
    const int shown = n <= fit ? n : fit - 1;
    const int rows = shown + (shown < n ? 1 : 0);
    const int rowHeight = std::clamp(rows > 0 ? (height - headerHeight) / rows : maxRow, minRow, maxRow);

    const auto rule = [&](int row, int span, int width, const QColor& color) {
        auto* b = new QFrame(table);
        b->setStyleSheet(QStringLiteral("QFrame { background: transparent; border: none; border-top: %1px solid %2; }")
                             .arg(width)
                             .arg(color.name(QColor::HexRgb)));
        grid->addWidget(b, row, 0, span, 5);
    };
    const QStringList header{QObject::tr("Layer step"), QObject::tr("Task"), QObject::tr("Cost or change"),
                             QObject::tr("95 % interval"), QObject::tr("Verdict")};
    for (int c = 0; c < header.size(); ++c) {
        auto* h = costsLabel(table, header[c].toUpper(), px(21), QFont::Bold, kStepQuiet, false);
        h->setFixedHeight(headerHeight);
        h->setContentsMargins(pad, 0, pad, 0);
        h->setAlignment((c == 4 ? Qt::AlignHCenter : c >= 2 ? Qt::AlignRight : Qt::AlignLeft) | Qt::AlignVCenter);
        grid->addWidget(h, 0, c);
    }
    for (int i = 0; i < shown;) {
        // A step's rows: its name spans them, a rule above the group.
        int end = i + 1;
        while (end < shown && !slide.stepRows[static_cast<std::size_t>(end)].firstOfStep) ++end;
        const SlideStepRow& first = slide.stepRows[static_cast<std::size_t>(i)];
        rule(i + 1, end - i, std::max(1, px(i == 0 ? 2 : 1)), i == 0 ? kStepInk : kStepRule);
        auto* name = new QWidget(table);
        auto* nl = new QVBoxLayout(name);
        nl->setContentsMargins(pad, px(10), pad, px(10));
        nl->setSpacing(px(2));
        auto* stepText = costsLabel(name, toQString(first.step), px(24), QFont::DemiBold, kStepInk, true);
        stepText->setObjectName(QStringLiteral("stepCell"));
        stepText->setProperty("column", QStringLiteral("step"));
        nl->addWidget(stepText);
        nl->addWidget(costsLabel(name, toQString(first.layer), px(21), QFont::Normal, kStepQuiet, true));
        nl->addStretch(1);
        grid->addWidget(name, i + 1, 0, end - i, 1);
        for (int k = i; k < end; ++k) {
            const SlideStepRow& r = slide.stepRows[static_cast<std::size_t>(k)];
            const auto cell = [&](const QString& text, const char* column, Qt::Alignment align, QFont::Weight w,
                                  const QColor& color) {
                auto* c = costsLabel(table, text, textPx, w, color, false);
                c->setObjectName(QStringLiteral("stepCell"));
                c->setProperty("task", toQString(r.task));
                c->setProperty("column", QString::fromLatin1(column));
                c->setAlignment(align | Qt::AlignVCenter);
                c->setFixedHeight(rowHeight);
                c->setContentsMargins(pad, 0, pad, 0);
                return c;
            };
            grid->addWidget(cell(toQString(r.task), "task", Qt::AlignLeft, QFont::DemiBold, kStepInk), k + 1, 1);
            grid->addWidget(cell(costsNumbers(r.figure), "figure", Qt::AlignRight, QFont::Bold,
                                 style::verdictTextColor(r.verdict, false)),
                            k + 1, 2);
            grid->addWidget(cell(costsNumbers(r.interval), "interval", Qt::AlignRight, QFont::Normal, kStepQuiet),
                            k + 1, 3);
            auto* pill = costsLabel(table, toQString(verdictTitle(r.verdict)), px(20), QFont::Bold, Qt::white, false);
            pill->setObjectName(QStringLiteral("stepCell"));
            pill->setProperty("task", toQString(r.task));
            pill->setProperty("column", QStringLiteral("verdict"));
            pill->setAlignment(Qt::AlignCenter);
            pill->setStyleSheet(QStringLiteral("color: white; background: %1; border-radius: %2px; padding: %3px %4px;")
                                    .arg(style::verdictColor(r.verdict).name(QColor::HexRgb))
                                    .arg(px(20) * 0.45)
                                    .arg(px(20) / 4)
                                    .arg(px(20) * 2 / 3));
            pill->setSizePolicy(QSizePolicy::Fixed, QSizePolicy::Fixed);
            grid->addWidget(pill, k + 1, 4, Qt::AlignCenter);
        }
        i = end;
    }
    if (shown < n) {
        auto* more =
            costsLabel(table, QObject::tr("+ %1 more rows: the report lists every step's tasks").arg(n - shown), px(24),
                       QFont::Normal, kStepQuiet, false);
        more->setObjectName(QStringLiteral("moreSteps"));
        more->setFixedHeight(rowHeight);
        more->setContentsMargins(pad, 0, pad, 0);
        rule(shown + 1, 1, std::max(1, px(1)), kStepRule);
        grid->addWidget(more, shown + 1, 0, 1, 5);
    }
    grid->setColumnStretch(0, 3);
    grid->setColumnStretch(1, 2);
    grid->setColumnStretch(2, 2);
    grid->setColumnStretch(3, 2);
    grid->setRowStretch(grid->rowCount(), 1);
    return table;
}

}  // namespace fp8dash::ui
