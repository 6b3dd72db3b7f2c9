#pragma once
// The go / monitor / investigate rule (DESIGN.md "Degradation and the verdict"). Pure functions; thread-safe.

#include <optional>
#include <string>
#include <string_view>

#include "fp8dash/core/result.h"

namespace fp8dash {

// Ordered from best to worst, so the overall verdict is the maximum.
enum class Verdict { Go = 0, Monitor = 1, Investigate = 2 };

std::string_view verdictName(Verdict v);                     // "go", "monitor", "investigate" (JSON and CLI spelling)
std::string_view verdictTitle(Verdict v);                    // "GO", "MONITOR", "INVESTIGATE" (banner spelling)
std::string_view verdictAdvice(Verdict v);                   // one sentence: what the team should do
std::optional<Verdict> parseVerdict(std::string_view name);  // accepts the name, case-insensitive
inline Verdict worst(Verdict a, Verdict b) {
    return a > b ? a : b;
}

// Degradation thresholds in percent. degradation < goBelow -> go; goBelow <= d <= investigateAbove -> monitor;
// d > investigateAbove -> investigate.
struct Thresholds {
    double goBelow = 0.5;
    double investigateAbove = 1.5;

    // Both finite, 0 <= goBelow <= investigateAbove; the message names the offending option.
    Status validate() const;
    bool operator==(const Thresholds&) const = default;
};

// The verdict of one degradation (percent, >= 0). Band edges are compared after rounding the degradation to
// 1e-9 points, so 0.796 against 0.8 (0.5% in decimal arithmetic, 0.5000000000000004 in binary) is at the edge.
Verdict verdictForDegradation(double degradationPct, const Thresholds& t);

// The one sign convention (README "Sign convention"), for a whole task and for one context length alike:
// deltaPct = (candidate - baseline) / |baseline| * 100; degradationPct = max(0, -deltaPct) where higher is better,
// max(0, deltaPct) where lower is better; the verdict is the band of the degradation. A baseline of exactly 0 has no
// relative change (both absent): on the absolute difference, not worse is go and worse is investigate (a loss from 0
// cannot be bounded).
struct RelativeChange {
    std::optional<double> deltaPct;
    std::optional<double> degradationPct;
    Verdict verdict = Verdict::Go;
};
RelativeChange relativeChange(double baseline, double candidate, bool higherIsBetter, const Thresholds& t);

}  // namespace fp8dash
