// The offline notice in each theme, read from its pixels: on the dark theme its box is dark (it stayed light blue) and
// its text reads on it (WCAG 2 contrast ratio at least 4.5, computed here from the drawn colours).
#include <QApplication>
#include <QFrame>
#include <QImage>
#include <QLabel>
#include <QMap>

#include <cmath>

#include "fp8dash/ui/comparison_view.h"
#include "fp8dash/ui/theme.h"
#include "gui_test_support.h"

namespace fp8dash::ui::test {
namespace {

class NoticeThemeTest : public GuiTest {};

// WCAG 2.x relative luminance and contrast ratio.
double luminance(const QColor& c) {
    const auto channel = [](double v) {
        v /= 255.0;
        return v <= 0.04045 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4);
    };
    return 0.2126 * channel(c.red()) + 0.7152 * channel(c.green()) + 0.0722 * channel(c.blue());
}

double contrast(const QColor& a, const QColor& b) {
    const double la = luminance(a), lb = luminance(b);
    return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

struct Drawn {
    QColor background;  // the commonest colour of the box
    QColor text;        // the label's pixel farthest in luminance from it (a glyph's core)
};

Drawn drawnColours(QFrame* box, QLabel* label) {
    const QImage image = box->grab().toImage().convertToFormat(QImage::Format_RGB32);
    QMap<QRgb, int> counts;
    for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x) ++counts[image.pixel(x, y)];
    QRgb common = 0;
    int most = -1;
    for (auto it = counts.cbegin(); it != counts.cend(); ++it)
        if (it.value() > most) {
            most = it.value();
            common = it.key();
        }
    Drawn d{QColor(common), QColor(common)};
    const QRect textRect = label->geometry();
    double far = 0;
    for (int y = textRect.top(); y <= textRect.bottom() && y < image.height(); ++y)
        for (int x = textRect.left(); x <= textRect.right() && x < image.width(); ++x) {
            const QColor c(image.pixel(x, y));
            const double distance = std::abs(luminance(c) - luminance(d.background));
            if (distance > far) {
                far = distance;
                d.text = c;
            }
        }
    return d;
}

TEST_F(NoticeThemeTest, DarkNoticeIsDarkAndReadable) {
    const ThemeMode before = Theme::instance()->mode();
    ComparisonView view;
    view.resize(1000, 500);
    view.setOfflineNotice(
        QStringLiteral("<b>GPU benchmarks</b>: no usable GPU: no NVIDIA driver is loaded; Run Benchmarks measures "
                       "the KV-cache error on the CPU only."));
    view.show();
    auto* box = view.findChild<QFrame*>(QStringLiteral("offlineNotice"));
    auto* label = view.findChild<QLabel*>(QStringLiteral("offlineNoticeText"));
    ASSERT_NE(box, nullptr);
    ASSERT_NE(label, nullptr);
    ASSERT_TRUE(box->isVisible());

    Theme::instance()->setMode(ThemeMode::Dark);
    const Drawn dark = drawnColours(box, label);
    const QColor window = QApplication::palette().color(QPalette::Window);
    EXPECT_LT(luminance(window), 0.1) << "the dark theme's window is not dark";
    EXPECT_LT(luminance(dark.background), 0.1) << "the notice box is " << dark.background.name().toStdString();
    EXPECT_GE(contrast(dark.text, dark.background), 4.5)
        << dark.text.name().toStdString() << " on " << dark.background.name().toStdString();

    // The light theme keeps its light box, as readable.
    Theme::instance()->setMode(ThemeMode::Light);
    const Drawn light = drawnColours(box, label);
    EXPECT_GT(luminance(light.background), 0.6) << light.background.name().toStdString();
    EXPECT_GE(contrast(light.text, light.background), 4.5)
        << light.text.name().toStdString() << " on " << light.background.name().toStdString();
    Theme::instance()->setMode(before);
}

}  // namespace
}  // namespace fp8dash::ui::test
