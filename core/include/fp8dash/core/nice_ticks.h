#pragma once
// "Nice" axis ticks (Heckbert's labelling): a step of 1, 2, 2.5 or 5 times a power of ten and the range widened to
// whole steps, so an axis reads 0 / 20 / 40 / 60 / 80 / 100 rather than 19 / 38 / 57 / 76 / 95. Used by the charts
// of the app (the judge distribution, the forest plot of the evals) and by the reports' drawings. Pure; thread-safe.

#include <algorithm>
#include <cmath>
#include <vector>

namespace fp8dash {

struct NiceTicks {
    double low = 0;   // the first tick, <= the range's low end
    double high = 1;  // the last tick, >= the range's high end
    double step = 1;  // > 0
    // The ticks from low to high (the last one exactly high, without rounding drift).
    std::vector<double> values() const {
        std::vector<double> out;
        const int n = static_cast<int>(std::lround((high - low) / step));
        for (int i = 0; i <= n; ++i) out.push_back(i == n ? high : low + step * i);
        return out;
    }
    int count() const { return static_cast<int>(std::lround((high - low) / step)) + 1; }
};

// A step of 1, 2, 2.5 or 5 × 10^k at least `rough` (> 0); integerOnly leaves out 2.5 × 10^k below 10.
inline double niceStep(double rough, bool integerOnly = false) {
    if (!(rough > 0) || !std::isfinite(rough)) return 1;
    const double power = std::pow(10.0, std::floor(std::log10(rough)));
    for (double m : {1.0, 2.0, 2.5, 5.0, 10.0}) {
        const double step = m * power;
        if (integerOnly && step < 1) continue;
        if (integerOnly && m == 2.5 && power < 10) continue;
        if (step >= rough * (1 - 1e-12)) return step;
    }
    return 10 * power;
}

// Ticks covering [lo, hi] with at most about maxTicks intervals (>= 1). A degenerate range (lo == hi, or not finite)
// gets one step on each side. integerOnly: whole-number steps (counts).
inline NiceTicks niceTicks(double lo, double hi, int maxTicks = 6, bool integerOnly = false) {
    if (!std::isfinite(lo) || !std::isfinite(hi)) lo = 0, hi = 1;
    if (lo > hi) std::swap(lo, hi);
    if (hi - lo < 1e-12) {
        const double pad = std::max(std::abs(lo) * 0.1, integerOnly ? 1.0 : 1e-6);
        lo -= pad, hi += pad;
    }
    maxTicks = std::max(1, maxTicks);
    NiceTicks t;
    t.step = niceStep((hi - lo) / maxTicks, integerOnly);
    // Widen to whole steps; a small tolerance keeps a range that ends on a step from gaining one more.
    t.low = std::floor(lo / t.step + 1e-9) * t.step;
    t.high = std::ceil(hi / t.step - 1e-9) * t.step;
    // The widening can add intervals past maxTicks: the next step up then.
    while (t.count() - 1 > maxTicks) {
        t.step = niceStep(t.step * 1.0001, integerOnly);
        t.low = std::floor(lo / t.step + 1e-9) * t.step;
        t.high = std::ceil(hi / t.step - 1e-9) * t.step;
    }
    if (t.low == 0) t.low = 0;  // never -0
    return t;
}

}  // namespace fp8dash
