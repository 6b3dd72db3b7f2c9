// The rules a verdict is derived under, changed after Compare (verdict_rules.h).
#include "fp8dash/core/verdict_rules.h"

#include <cmath>

#include "fp8dash/core/number_format.h"

namespace fp8dash {

VerdictRules verdictRulesOf(const ComparisonDocument& doc) {
    VerdictRules r;
    r.thresholds = doc.options.thresholds;
    r.cautious = doc.options.cautious;
    r.gate = doc.recommendation;
    return r;
}

void applyVerdictRules(ComparisonDocument& doc, const VerdictRules& rules) {
    doc.options.thresholds = rules.thresholds;
    doc.options.cautious = rules.cautious;
    doc.recommendation = rules.gate;
}

VerdictRulesProblems checkVerdictRules(const VerdictRules& rules) {
    VerdictRulesProblems p;
    const double go = rules.thresholds.goBelow, inv = rules.thresholds.investigateAbove;
    const auto edge = [](double v) -> std::string {
        if (!std::isfinite(v)) return "Give a number of percent, such as 0.5.";
        if (v < 0) return "A degradation threshold cannot be negative.";
        return {};
    };
    p.goBelow = edge(go);
    p.investigateAbove = edge(inv);
    if (p.goBelow.empty() && p.investigateAbove.empty() && go > inv) {
        p.goBelow =
            "GO below " + numfmt::general(go) + " % must not exceed INVESTIGATE above " + numfmt::general(inv) + " %.";
        p.investigateAbove = "INVESTIGATE above must be at least GO below (" + numfmt::general(go) + " %).";
    }
    if (rules.gate.minRecoveryPct) {
        const double m = *rules.gate.minRecoveryPct;
        if (!std::isfinite(m))
            p.minRecovery = "Give a number of percent, such as 99.";
        else if (m < 0 || m > 100)
            p.minRecovery = "A minimum recovery is between 0 and 100 %.";
    }
    return p;
}

std::string verdictRulesText(const VerdictRules& rules, bool severalCandidates) {
    std::string s = "GO below " + numfmt::general(rules.thresholds.goBelow) + " % · INVESTIGATE above " +
                    numfmt::general(rules.thresholds.investigateAbove) + " % · " +
                    (rules.cautious ? "cautious" : "estimate");
    if (severalCandidates) {
        s += std::string(" · gate: ") + (rules.gate.accept == Verdict::Go ? "GO only" : "GO or MONITOR");
        if (rules.gate.minRecoveryPct)
            s += ", every task recovering at least " + numfmt::general(*rules.gate.minRecoveryPct) + " %";
    }
    return s;
}

}  // namespace fp8dash
