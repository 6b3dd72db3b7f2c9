#pragma once
// The one number formatter of the ui: every figure a view shows with a fixed number of decimals goes through here,
// so the rules are decided once:
// - Decimals: QString::number(v, 'f', decimals) ("1.50", "-2.59"; C locale, '.' always, no grouping).
// - A value that rounds to zero is shown without a sign: "0.00", never "-0.00" (a tiny negative is not a loss).
// - Not a finite number: NonFinite::Dash shows "—" (a saved run with no value there, a chart's missing point);
//   NonFinite::Spelled shows "NaN", "+∞" or "−∞" (the task table: a broken input must be seen as such).
// - Signed: "+1.23" and "−1.23" (a real minus sign, U+2212, as in print), a rounded zero unsigned.
// Thread-safe (pure functions).

#include <QString>

namespace fp8dash::ui {

enum class NonFinite { Dash, Spelled };

QString fixedText(double v, int decimals, NonFinite nonFinite = NonFinite::Dash);
QString signedText(double v, int decimals, NonFinite nonFinite = NonFinite::Dash);

}  // namespace fp8dash::ui
