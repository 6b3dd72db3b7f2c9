#pragma once
// The rules a comparison's verdict is derived under, as a reviewer changes them after Compare (the app's Verdict rules
// panel; issue 39 "What-if gates"): the degradation thresholds, the policy (the point estimate's band, or cautious:
// the worst band the 95 % interval reaches) and, with several candidates, the recommendation's gate. They live in the
// comparison file (options.thresholds, options.cautious, variants' recommendation); decide() re-derives every verdict
// from the stored runs under them, so changing them needs no original file. Pure values; thread-safe.

#include <string>

#include "fp8dash/core/comparison_file.h"
#include "fp8dash/core/variant_comparison.h"
#include "fp8dash/core/verdict.h"

namespace fp8dash {

struct VerdictRules {
    Thresholds thresholds;
    bool cautious = false;
    RecommendationOptions gate;  // used with several candidates only
    bool operator==(const VerdictRules&) const = default;
};

// The rules a document holds now.
VerdictRules verdictRulesOf(const ComparisonDocument& doc);
// The document under other rules (everything else as it was).
void applyVerdictRules(ComparisonDocument& doc, const VerdictRules& rules);

// What is wrong with each field, one sentence for people ("" when the field is fine): a threshold that is not a
// number, negative, or a GO edge above the INVESTIGATE edge; a minimum recovery that is not a number or outside
// 0–100 %.
struct VerdictRulesProblems {
    std::string goBelow;
    std::string investigateAbove;
    std::string minRecovery;
    bool ok() const { return goBelow.empty() && investigateAbove.empty() && minRecovery.empty(); }
};
VerdictRulesProblems checkVerdictRules(const VerdictRules& rules);

// The rules in a line for people: "GO below 0.5 % · INVESTIGATE above 1.5 % · estimate · gate: GO or MONITOR, every
// task recovering at least 99 %" (the gate only when severalCandidates).
std::string verdictRulesText(const VerdictRules& rules, bool severalCandidates);

}  // namespace fp8dash
