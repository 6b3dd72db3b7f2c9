#pragma once
// The pictures of the presentation's slides (presentation_slide_view.h): a chart snapshot fitted to its rectangle, and
// the capacity slide's bars. In the deck's light palette; GUI thread only.

#include <QColor>
#include <QImage>
#include <QPainter>
#include <QString>
#include <QWidget>

#include <vector>

#include "fp8dash/ui/chart_snapshots.h"
#include "fp8dash/ui/presentation_slide_view.h"

namespace fp8dash::ui::slide_pictures {

// A chart picture, scaled to fit its rectangle with its aspect kept and centred.
class FittedImage : public QWidget {
public:
    FittedImage(const ChartSnapshot& snapshot, QWidget* parent) : QWidget(parent), m_image(snapshot.image) {
        setObjectName(QStringLiteral("slideChart"));
        setProperty("chartKey", snapshot.key);
        setAccessibleName(snapshot.title);
        setAccessibleDescription(snapshot.caption);
        setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
        setMinimumSize(80, 60);
    }
    QSize sizeHint() const override { return m_image.deviceIndependentSize().toSize(); }

protected:
    void paintEvent(QPaintEvent*) override {
        if (m_image.isNull()) return;
        QPainter p(this);
        p.setRenderHint(QPainter::SmoothPixmapTransform);
        const QSizeF image = m_image.deviceIndependentSize();
        const QSizeF fitted = image.scaled(QSizeF(size()), Qt::KeepAspectRatio);
        const QRectF target(QPointF((width() - fitted.width()) / 2, (height() - fitted.height()) / 2), fitted);
        p.drawImage(target, m_image);
    }

private:
    QImage m_image;
};

// Two horizontal bars: BF16 beside the chosen dtypes, their lengths in proportion to the tokens that fit.
class CapacityBars : public QWidget {
public:
    struct Bar {
        QString label;
        double value = 0;
        QString valueText;
        QColor color;
    };
    CapacityBars(std::vector<Bar> bars, int px, const QColor& ink, QWidget* parent)
        : QWidget(parent), m_bars(std::move(bars)), m_px(px), m_ink(ink) {
        setObjectName(QStringLiteral("capacityBars"));
        setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
        setFixedHeight(static_cast<int>(m_bars.size()) * m_px * 3);
        QStringList parts;
        for (const Bar& b : m_bars) parts << b.label + QStringLiteral(": ") + b.valueText;
        setAccessibleName(PresentationSlideView::tr("KV-cache tokens: %1").arg(parts.join(QStringLiteral("; "))));
    }

protected:
    void paintEvent(QPaintEvent*) override {
        QPainter p(this);
        p.setRenderHint(QPainter::Antialiasing);
        QFont f = font();
        f.setPixelSize(m_px);
        f.setBold(true);
        p.setFont(f);
        const QFontMetrics fm(f);
        int labelWidth = 0;
        double max = 0;
        for (const Bar& b : m_bars) {
            labelWidth = std::max(labelWidth, fm.horizontalAdvance(b.label));
            max = std::max(max, b.value);
        }
        labelWidth += m_px;
        int valueWidth = 0;
        for (const Bar& b : m_bars) valueWidth = std::max(valueWidth, fm.horizontalAdvance(b.valueText));
        const int barSpace = std::max(10, width() - labelWidth - valueWidth - m_px);
        const int rowHeight = m_px * 3;
        for (std::size_t i = 0; i < m_bars.size(); ++i) {
            const Bar& b = m_bars[i];
            const int top = static_cast<int>(i) * rowHeight;
            const QRect labelRect(0, top, labelWidth, rowHeight);
            p.setPen(m_ink);
            p.drawText(labelRect, Qt::AlignVCenter | Qt::AlignLeft, b.label);
            const int length = max > 0 ? static_cast<int>(barSpace * (b.value / max)) : 0;
            const QRectF bar(labelWidth, top + rowHeight * 0.18, std::max(length, 2), rowHeight * 0.64);
            p.setPen(Qt::NoPen);
            p.setBrush(b.color);
            p.drawRoundedRect(bar, m_px * 0.25, m_px * 0.25);
            p.setPen(m_ink);
            p.drawText(QRect(labelWidth + std::max(length, 2) + m_px / 2, top, valueWidth + m_px, rowHeight),
                       Qt::AlignVCenter | Qt::AlignLeft, b.valueText);
        }
    }

private:
    std::vector<Bar> m_bars;
    int m_px;
    QColor m_ink;
};

}  // namespace fp8dash::ui::slide_pictures
