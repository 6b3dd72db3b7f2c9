#pragma once
// The samples TimelineView draws and reads out: the finite ones, the slice a zoom shows, the nearest to a time, and
// their points in Qt Charts' milliseconds. Internal to fp8dash_ui; pure functions.

#include <QColor>
#include <QList>
#include <QPointF>

#include <algorithm>
#include <cmath>
#include <iterator>
#include <optional>
#include <span>
#include <vector>

#include "fp8dash/core/time_series.h"

namespace fp8dash::ui::timeline_view_parts {

// The series' colours (their axes take the same hue) and the change marker's: near-black on a light chart,
// near-white on a dark one (ui_style's chart palette).
inline const QColor kThroughputColor(0x1a, 0x73, 0xe8);
inline const QColor kQualityColor(0x8e, 0x24, 0xaa);
inline QColor markerColor(bool darkChart) {
    return darkChart ? QColor(0xe8, 0xea, 0xed) : QColor(0x20, 0x21, 0x24);
}

inline qreal msOf(double unixSeconds) {
    return unixSeconds * 1000.0;
}

inline std::vector<Sample> finiteSamples(const std::optional<Series>& series) {
    std::vector<Sample> out;
    if (!series) return out;
    out.reserve(series->samples.size());
    // NaN and infinities cannot be drawn or read out; the figures (core) skip them the same way.
    for (const Sample& s : series->samples) {
        if (std::isfinite(s.v)) out.push_back(s);
    }
    return out;
}

// The samples to draw for [from, to]: those inside plus one neighbour on each side, so the line runs on to the edges
// of the plot instead of stopping at the last sample inside. A view of `all`, not a copy (1M samples a series).
inline std::span<const Sample> visibleSlice(const std::vector<Sample>& all, double from, double to) {
    auto lo = std::lower_bound(all.begin(), all.end(), from, [](const Sample& s, double t) { return s.t < t; });
    auto hi = std::upper_bound(all.begin(), all.end(), to, [](double t, const Sample& s) { return t < s.t; });
    if (lo != all.begin()) --lo;
    if (hi != all.end()) ++hi;
    return {lo, hi};
}

inline QList<QPointF> pointsOf(const std::vector<Sample>& samples) {
    QList<QPointF> points;
    points.reserve(static_cast<qsizetype>(samples.size()));
    for (const Sample& s : samples) points.append(QPointF(msOf(s.t), s.v));
    return points;
}

inline const Sample* nearestSample(const std::vector<Sample>& samples, double t) {
    if (samples.empty()) return nullptr;
    auto it = std::lower_bound(samples.begin(), samples.end(), t, [](const Sample& s, double x) { return s.t < x; });
    if (it == samples.end()) return &samples.back();
    if (it == samples.begin()) return &*it;
    const auto before = std::prev(it);
    return (t - before->t) <= (it->t - t) ? &*before : &*it;
}

}  // namespace fp8dash::ui::timeline_view_parts
