#pragma once
// The review of a comparison: the decision a reviewer records (approved go / approved monitor with quality alerting /
// rejected; by whom, when, why) and how it stands against the verdict the evidence gives now. The comparison file
// keeps every decision ever recorded ("review": {"decisions": [...]}, oldest first; the last one is in force), so a
// revised decision leaves its predecessor on record. With several candidates a decision names the variant it approves
// or rejects (its label, "variant"); older files' decisions have none and read unchanged. Pure value types and
// functions; thread-safe.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "fp8dash/core/lm_eval_results.h"
#include "fp8dash/core/result.h"
#include "fp8dash/core/verdict.h"

namespace fp8dash {

struct Decision;  // comparison_file.h

enum class ReviewOutcome {
    ApprovedGo,       // enable FP8
    ApprovedMonitor,  // enable FP8 with LLM-as-judge quality alerting on
    Rejected,         // keep BF16
};

std::string_view reviewOutcomeName(ReviewOutcome o);   // "approved_go", "approved_monitor", "rejected" (file, JSON)
std::string_view reviewOutcomeTitle(ReviewOutcome o);  // "Approved: go", "Approved: monitor with quality alerting", ...
std::optional<ReviewOutcome> parseReviewOutcome(std::string_view name);  // the name, case-insensitive
// The verdict an outcome puts into effect: go, monitor, or none (rejected keeps BF16).
std::optional<Verdict> outcomeVerdict(ReviewOutcome o);

struct ReviewDecision {
    ReviewOutcome outcome = ReviewOutcome::Rejected;
    std::string by;                            // who decided (a name as typed)
    std::string at;                            // when, ISO 8601 UTC
    std::string why;                           // the rationale
    std::optional<Verdict> verdictAtDecision;  // the overall verdict the evidence gave when it was recorded
    std::string toolVersion;                   // the fp8dash that recorded it
    // The candidate approved or rejected (its label, e.g. "FP8 W8A8 + FP8 KV (calibrated scales)"); nullopt: the
    // comparison's only candidate, or a decision recorded before variants were named.
    std::optional<std::string> variant;
    bool operator==(const ReviewDecision&) const = default;

    // by, at and why present (non-blank); the message names the missing part.
    Status validate() const;
};

// A decision against the verdict the evidence gives now.
struct ReviewAssessment {
    // The decision is more permissive than the verdict (approved go while the verdict is monitor or investigate,
    // approved monitor while it is investigate): an override, shown as such.
    bool overridesVerdict = false;
    // The verdict changed since the decision was recorded (e.g. a timeline added afterwards fired the alert).
    bool evidenceChanged = false;
    std::vector<std::string> warnings;  // one sentence each, empty when the decision follows the current evidence
};
ReviewAssessment assessReview(const ReviewDecision& decision, std::optional<Verdict> currentVerdict);
// The same against everything the evidence gives now (decide()); with several candidates also: a variant the
// comparison does not hold (a warning, not a load error, so the file and its other decisions stay readable), and an
// approval of a variant other than the deciding one (the recommended variant, or when none passes the gate the one
// whose own verdict is least severe).
ReviewAssessment assessReview(const ReviewDecision& decision, const Decision& now);
// The deciding variant's label (see above); nullopt for a comparison without several candidates.
std::optional<std::string> reviewDecidingVariant(const Decision& now);

// One line for reports and the banner: "Approved: go — by Ana Ruiz, 2026-12-01 14:03 UTC: <why>"; with a variant
// "Approved: go, variant FP8 W8A8 — by ...".
std::string reviewSummary(const ReviewDecision& decision);
// "2026-12-01T14:03:05Z" -> "2026-12-01 14:03 UTC"; anything else as written.
std::string readableTimestamp(const std::string& iso8601);

Json reviewDecisionToJson(const ReviewDecision& decision);
// `where` names the element for errors ("review.json: field review.decisions[0]").
Result<ReviewDecision> parseReviewDecision(const Json& j, const std::string& where);

}  // namespace fp8dash
