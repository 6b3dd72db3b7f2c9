#include "fp8dash/core/verdict.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <string>

namespace fp8dash {

std::string_view verdictName(Verdict v) {
    switch (v) {
        case Verdict::Go:
            return "go";
        case Verdict::Monitor:
            return "monitor";
        case Verdict::Investigate:
            return "investigate";
    }
    return "investigate";
}

std::string_view verdictTitle(Verdict v) {
    switch (v) {
        case Verdict::Go:
            return "GO";
        case Verdict::Monitor:
            return "MONITOR";
        case Verdict::Investigate:
            return "INVESTIGATE";
    }
    return "INVESTIGATE";
}

std::string_view verdictAdvice(Verdict v) {
    switch (v) {
        case Verdict::Go:
            return "Enable FP8 in production.";
        case Verdict::Monitor:
            return "Enable FP8 with active LLM-as-judge quality monitoring.";
        case Verdict::Investigate:
            return "Investigate before enabling FP8: a calibration problem or a model that does not suit FP8.";
    }
    return "";
}

std::optional<Verdict> parseVerdict(std::string_view name) {
    std::string lower;
    for (char c : name) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    for (Verdict v : {Verdict::Go, Verdict::Monitor, Verdict::Investigate})
        if (lower == verdictName(v)) return v;
    return std::nullopt;
}

Status Thresholds::validate() const {
    if (!std::isfinite(goBelow) || goBelow < 0)
        return Error{"go-below threshold must be a finite percentage >= 0, got " + std::to_string(goBelow)};
    if (!std::isfinite(investigateAbove) || investigateAbove < 0)
        return Error{"investigate-above threshold must be a finite percentage >= 0, got " +
                     std::to_string(investigateAbove)};
    if (goBelow > investigateAbove)
        return Error{"go-below threshold (" + std::to_string(goBelow) +
                     "%) must not exceed the investigate-above threshold (" + std::to_string(investigateAbove) + "%)"};
    return success();
}

Verdict verdictForDegradation(double degradationPct, const Thresholds& t) {
    // Round away binary noise so decimal inputs fall on the side decimal arithmetic puts them (see header).
    const double d = std::round(degradationPct * 1e9) / 1e9;
    if (d < t.goBelow) return Verdict::Go;
    if (d <= t.investigateAbove) return Verdict::Monitor;
    return Verdict::Investigate;
}

RelativeChange relativeChange(double baseline, double candidate, bool higherIsBetter, const Thresholds& t) {
    RelativeChange c;
    const double diff = candidate - baseline;
    if (baseline != 0) {
        c.deltaPct = diff / std::fabs(baseline) * 100.0;
        c.degradationPct = std::max(0.0, higherIsBetter ? -*c.deltaPct : *c.deltaPct);
        c.verdict = verdictForDegradation(*c.degradationPct, t);
    } else {
        c.verdict = (higherIsBetter ? diff < 0 : diff > 0) ? Verdict::Investigate : Verdict::Go;
    }
    return c;
}

}  // namespace fp8dash
