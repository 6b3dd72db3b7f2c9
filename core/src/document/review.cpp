// A recorded review decision and its assessment against the current verdict (review.h).
#include "fp8dash/core/review.h"

#include <algorithm>

#include "fp8dash/core/comparison_file.h"
#include "text_util.h"

namespace fp8dash {

std::string_view reviewOutcomeName(ReviewOutcome o) {
    switch (o) {
        case ReviewOutcome::ApprovedGo:
            return "approved_go";
        case ReviewOutcome::ApprovedMonitor:
            return "approved_monitor";
        case ReviewOutcome::Rejected:
            return "rejected";
    }
    return "rejected";
}

std::string_view reviewOutcomeTitle(ReviewOutcome o) {
    switch (o) {
        case ReviewOutcome::ApprovedGo:
            return "Approved: go";
        case ReviewOutcome::ApprovedMonitor:
            return "Approved: monitor with quality alerting";
        case ReviewOutcome::Rejected:
            return "Rejected";
    }
    return "Rejected";
}

std::optional<ReviewOutcome> parseReviewOutcome(std::string_view name) {
    const std::string lower = text::lower(text::trim(name));
    for (ReviewOutcome o : {ReviewOutcome::ApprovedGo, ReviewOutcome::ApprovedMonitor, ReviewOutcome::Rejected})
        if (lower == reviewOutcomeName(o)) return o;
    return std::nullopt;
}

std::optional<Verdict> outcomeVerdict(ReviewOutcome o) {
    switch (o) {
        case ReviewOutcome::ApprovedGo:
            return Verdict::Go;
        case ReviewOutcome::ApprovedMonitor:
            return Verdict::Monitor;
        case ReviewOutcome::Rejected:
            return std::nullopt;
    }
    return std::nullopt;
}

Status ReviewDecision::validate() const {
    if (text::trim(by).empty()) return Error{"the decision needs the name of who made it"};
    if (text::trim(at).empty()) return Error{"the decision needs the time it was made"};
    if (text::trim(why).empty()) return Error{"the decision needs its reason"};
    return success();
}

ReviewAssessment assessReview(const ReviewDecision& decision, std::optional<Verdict> currentVerdict) {
    ReviewAssessment a;
    const std::string title(reviewOutcomeTitle(decision.outcome));
    if (const auto put = outcomeVerdict(decision.outcome); put && currentVerdict && *put < *currentVerdict) {
        a.overridesVerdict = true;
        a.warnings.push_back("\"" + title + "\" overrides the evidence's verdict " +
                             std::string(verdictTitle(*currentVerdict)) + ".");
    }
    if (decision.verdictAtDecision != currentVerdict) {
        a.evidenceChanged = true;
        const auto name = [](std::optional<Verdict> v) {
            return v ? std::string(verdictTitle(*v)) : std::string("no verdict");
        };
        a.warnings.push_back("The evidence changed after the decision: the verdict was " +
                             name(decision.verdictAtDecision) + " when it was recorded and is " + name(currentVerdict) +
                             " now.");
    }
    return a;
}

std::optional<std::string> reviewDecidingVariant(const Decision& now) {
    if (!now.variants || now.variants->variants.empty()) return std::nullopt;
    return now.variants->decidingVariant().label;  // decide()'s own rule (variant_comparison.h)
}

ReviewAssessment assessReview(const ReviewDecision& decision, const Decision& now) {
    ReviewAssessment a = assessReview(decision, now.verdict);
    if (!decision.variant) return a;  // a decision of a two-run comparison, or one recorded before variants
    std::vector<std::string> labels;
    if (now.variants)
        for (const auto& v : now.variants->variants) labels.push_back(v.label);
    else if (now.evals)
        labels.push_back(now.evals->candidateLabel);
    if (std::find(labels.begin(), labels.end(), *decision.variant) == labels.end()) {
        std::string known;
        for (const auto& l : labels) known += (known.empty() ? "" : ", ") + ("\"" + l + "\"");
        a.warnings.push_back("The decision names the variant \"" + *decision.variant +
                             "\", which this comparison does not hold" +
                             (known.empty() ? std::string(".") : " (its candidates: " + known + ")."));
        return a;
    }
    const auto deciding = reviewDecidingVariant(now);
    if (outcomeVerdict(decision.outcome) && deciding && *deciding != *decision.variant) {
        const bool recommended = now.variants->recommendation.label.has_value();
        a.warnings.push_back("The approved variant " + *decision.variant + " is not the " +
                             (recommended ? "recommended" : "deciding") + " one, " + *deciding + ".");
    }
    return a;
}

std::string readableTimestamp(const std::string& iso) {
    // "YYYY-MM-DDTHH:MM[:SS[.fff]]Z" -> "YYYY-MM-DD HH:MM UTC"; other forms (offsets, dates alone) stay as written.
    if (iso.size() >= 17 && iso[4] == '-' && iso[7] == '-' && iso[10] == 'T' && iso[13] == ':' && iso.back() == 'Z')
        return iso.substr(0, 10) + " " + iso.substr(11, 5) + " UTC";
    return iso;
}

std::string reviewSummary(const ReviewDecision& d) {
    std::string s(reviewOutcomeTitle(d.outcome));
    if (d.variant) s += ", variant " + *d.variant;
    s += " — by " + (d.by.empty() ? std::string("(unnamed)") : d.by);
    if (!d.at.empty()) s += ", " + readableTimestamp(d.at);
    if (!d.why.empty()) s += ": " + d.why;
    return s;
}

Json reviewDecisionToJson(const ReviewDecision& d) {
    Json j = Json::object();
    j["outcome"] = reviewOutcomeName(d.outcome);
    j["by"] = d.by;
    j["at"] = d.at;
    j["why"] = d.why;
    j["verdict_at_decision"] = d.verdictAtDecision ? Json(verdictName(*d.verdictAtDecision)) : Json(nullptr);
    if (!d.toolVersion.empty()) j["tool_version"] = d.toolVersion;
    if (d.variant) j["variant"] = *d.variant;  // absent for a decision without one, as older files have it
    return j;
}

Result<ReviewDecision> parseReviewDecision(const Json& j, const std::string& where) {
    if (!j.is_object()) return Error{where + " must be an object, found " + j.type_name()};
    ReviewDecision d;
    const auto str = [&](const char* key, std::string& out, bool required) -> Status {
        auto it = j.find(key);
        if (it == j.end() || it->is_null()) {
            if (required) return Error{where + "." + key + " is missing"};
            return success();
        }
        if (!it->is_string()) return Error{where + "." + key + " must be a string, found " + it->type_name()};
        out = it->get<std::string>();
        return success();
    };
    std::string outcome;
    if (auto s = str("outcome", outcome, true); !s) return s.error();
    auto parsed = parseReviewOutcome(outcome);
    if (!parsed)
        return Error{where + ".outcome \"" + outcome +
                     "\" is not one of \"approved_go\", \"approved_monitor\", \"rejected\""};
    d.outcome = *parsed;
    if (auto s = str("by", d.by, true); !s) return s.error();
    if (auto s = str("at", d.at, true); !s) return s.error();
    if (auto s = str("why", d.why, true); !s) return s.error();
    if (auto s = str("tool_version", d.toolVersion, false); !s) return s.error();
    std::string variant;
    if (auto s = str("variant", variant, false); !s) return s.error();
    if (j.contains("variant") && !j["variant"].is_null()) {
        if (text::trim(variant).empty())
            return Error{where + ".variant is empty: give the candidate's label or leave it out"};
        d.variant = variant;
    }
    std::string verdict;
    if (auto s = str("verdict_at_decision", verdict, false); !s) return s.error();
    if (!verdict.empty()) {
        d.verdictAtDecision = parseVerdict(verdict);
        if (!d.verdictAtDecision)
            return Error{where + ".verdict_at_decision \"" + verdict + "\" is not go, monitor or investigate"};
    }
    return d;
}

}  // namespace fp8dash
