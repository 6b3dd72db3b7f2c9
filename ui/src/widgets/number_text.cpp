#include "fp8dash/ui/number_text.h"

#include <cmath>

namespace fp8dash::ui {

namespace {

QString nonFiniteText(double v, NonFinite style) {
    if (style == NonFinite::Dash) return QStringLiteral("—");
    if (std::isnan(v)) return QStringLiteral("NaN");
    return v > 0 ? QStringLiteral("+∞") : QStringLiteral("−∞");
}

// |v| with `decimals` decimals, and whether that text is all zeros (the value rounds to zero).
QString magnitude(double v, int decimals, bool* roundsToZero) {
    const QString digits = QString::number(std::fabs(v), 'f', decimals);
    *roundsToZero = digits.toDouble() == 0.0;
    return digits;
}

}  // namespace

QString fixedText(double v, int decimals, NonFinite nonFinite) {
    if (!std::isfinite(v)) return nonFiniteText(v, nonFinite);
    bool zero = false;
    const QString digits = magnitude(v, decimals, &zero);
    return (v < 0 && !zero ? QStringLiteral("-") : QString()) + digits;
}

QString signedText(double v, int decimals, NonFinite nonFinite) {
    if (!std::isfinite(v)) return nonFiniteText(v, nonFinite);
    bool zero = false;
    const QString digits = magnitude(v, decimals, &zero);
    if (zero) return digits;
    return (v < 0 ? QStringLiteral("−") : QStringLiteral("+")) + digits;
}

}  // namespace fp8dash::ui
