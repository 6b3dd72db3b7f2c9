#include "fp8dash/ui/capacity_measured.h"

#include <QObject>

#include <cmath>

#include "fp8dash/ui/loaded_comparison.h"

namespace fp8dash::ui {

namespace {

QString measuredLoadWords(const ServingComparison& c, double load) {
    return toQString(servingLoadValueWords(c.axis, load, true));
}

QString measuredRatioWords(double ratio) {
    return QStringLiteral("×%1").arg(ratio, 0, 'f', 2);
}

QString measuredPctWords(double ratio) {
    const double pct = (ratio - 1) * 100;
    return QStringLiteral("%1%2 %").arg(pct >= 0 ? QStringLiteral("+") : QString()).arg(pct, 0, 'f', 0);
}

// "did not change", "rose only +10 %", "fell by 5 %": the measured capacity against the baseline's.
QString measuredChangeWords(double ratio) {
    if (std::abs(ratio - 1) < 0.005) return QObject::tr("did not change");
    if (ratio > 1) return QObject::tr("rose only %1").arg(measuredPctWords(ratio));
    return QObject::tr("fell by %1 %").arg((1 - ratio) * 100, 0, 'f', 0);
}

}  // namespace

MeasuredCapacityWords measuredCapacityWords(const ServingComparison& c, std::optional<double> modelRatio) {
    MeasuredCapacityWords out;
    if (c.variants.empty()) return out;
    if (c.slo.empty()) {
        out.variants << QObject::tr(
            "No latency SLO in this comparison, so no capacity was measured: New Comparison's latency SLO sets one.");
        return out;
    }
    const QString slo = toQString(c.slo.words());
    const ServingCapacity& base = c.variants.front().capacity;
    const bool baseKnown = base.judged && base.load && *base.load > 0;
    // The best candidate's measured capacity over the baseline's; a capacity every measured load met is a lower bound.
    std::optional<double> best;
    QString bestLabel;
    bool bestIsLowerBound = false;
    for (std::size_t i = 0; i < c.variants.size(); ++i) {
        const ServingVariantResult& v = c.variants[i];
        const ServingCapacity& cap = v.capacity;
        QString line;
        if (!cap.judged) {
            line = QObject::tr("%1: not judged (%2)").arg(toQString(v.label), toQString(cap.unjudgedReason));
        } else if (!cap.load) {
            line = QObject::tr("%1: even the lowest measured load misses %2").arg(toQString(v.label), slo);
        } else {
            const bool atLeast = !cap.firstMissAt;
            line = QObject::tr("%1: %2%3 within %4")
                       .arg(toQString(v.label), atLeast ? QObject::tr("at least ") : QString(),
                            measuredLoadWords(c, *cap.load), slo);
            if (i > 0 && baseKnown) {
                const double ratio = *cap.load / *base.load;
                line +=
                    QObject::tr(" (%1 of %2's)").arg(measuredRatioWords(ratio), toQString(c.variants.front().label));
                // Ties go to the later, more aggressive variant: the one whose KV cache the model's dtypes describe.
                if (!best || ratio >= *best) {
                    best = ratio;
                    bestLabel = toQString(v.label);
                    bestIsLowerBound = atLeast;
                }
            }
        }
        out.variants << line;
    }
    if (!best || !modelRatio || *modelRatio <= 0 || c.blocked()) return out;
    const double model = *modelRatio;
    const bool baseAtTop = !base.firstMissAt;
    if (baseAtTop && bestIsLowerBound) {
        out.verdict = QObject::tr(
                          "Every measured load met the SLO for %1 and %2: benchmark higher loads to see which capacity "
                          "the KV-cache "
                          "model's %3 predicts.")
                          .arg(toQString(c.variants.front().label), bestLabel, measuredRatioWords(model));
    } else if (model >= 1.2 && *best < 1 + (model - 1) / 2 && !bestIsLowerBound) {
        out.verdict =
            QObject::tr(
                "The model says the chosen dtypes hold %1 the KV-cache tokens of BF16, but the measured capacity at "
                "the SLO %2 (%3): the KV cache is not what limits this load.")
                .arg(measuredRatioWords(model), measuredChangeWords(*best), bestLabel);
    } else if (*best > model * 1.1) {
        out.verdict = QObject::tr(
                          "The measured capacity rose more than the KV-cache model's %1 (%2 for %3): more than "
                          "KV-cache room limits this load (FP8 matmuls, shorter queues).")
                          .arg(measuredRatioWords(model), measuredPctWords(*best), bestLabel);
    } else {
        out.verdict = QObject::tr("The measured capacity (%1 for %2) is in line with the KV-cache model's %3.")
                          .arg(measuredRatioWords(*best), bestLabel, measuredRatioWords(model));
    }
    return out;
}

}  // namespace fp8dash::ui
