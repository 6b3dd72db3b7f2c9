// How sure a verdict is (README "Statistics beside each verdict"): chosen from the 95% intervals of the evidence
// that gives the verdict, never from the verdict alone.
#include "fp8dash/core/verdict_certainty.h"

#include <algorithm>
#include <vector>

#include "fp8dash/core/statistics.h"

namespace fp8dash {

namespace {

// One piece of evidence with an interval: a compared task or the domain judge.
struct Evidence {
    std::string name;  // "gsm8k", "the domain judge"
    const ConfidenceAnswer* confidence = nullptr;
    Verdict verdict = Verdict::Go;
    Verdict pointVerdict = Verdict::Go;
    bool judge = false;
};

// The bands the degradation interval reaches (its low end clamped at 0, as the degradation is).
std::pair<Verdict, Verdict> bandsReached(const ConfidenceAnswer& c, const Thresholds& t) {
    return {verdictForDegradation(std::max(0.0, c.lowPct), t), verdictForDegradation(std::max(0.0, c.highPct), t)};
}

std::string possessive(const Evidence& e) {
    return e.judge ? "the domain judge's" : e.name + "'s";
}

std::string listed(const std::vector<std::string>& items) {
    std::string out;
    for (std::size_t i = 0; i < items.size(); ++i)
        out += (i == 0 ? "" : i + 1 == items.size() ? " and " : ", ") + items[i];
    return out;
}

// At most three named, then how many more.
constexpr std::size_t kNamed = 3;

std::string rangesText(const std::vector<const Evidence*>& open, const Thresholds& t) {
    std::vector<std::string> parts;
    for (std::size_t i = 0; i < open.size() && i < kNamed; ++i) {
        const auto [low, high] = bandsReached(*open[i]->confidence, t);
        const std::string range = "from " + std::string(verdictName(low)) + " to " + std::string(verdictName(high));
        parts.push_back(i == 0 ? possessive(*open[i]) + " 95% interval reaches " + range
                               : possessive(*open[i]) + " " + range);
    }
    if (open.size() > kNamed) parts.push_back(std::to_string(open.size() - kNamed) + " more likewise");
    return listed(parts);
}

// Whether more samples could settle the open intervals, from each one's own answer.
std::string samplesText(const std::vector<const Evidence*>& open) {
    std::vector<std::string> decidable, undecidable;
    for (const Evidence* e : open) {
        const ConfidenceAnswer& c = *e->confidence;
        if (c.samplesNeeded)
            decidable.push_back("about " + groupedCount(*c.samplesNeeded) + " samples would settle " +
                                (open.size() == 1 ? std::string("it") : e->name));
        else if (c.decidable == false)
            undecidable.push_back(e->name);
    }
    std::vector<std::string> parts;
    for (std::size_t i = 0; i < decidable.size() && i < kNamed; ++i) parts.push_back(decidable[i]);
    if (!undecidable.empty()) {
        if (open.size() == 1) {
            const ConfidenceAnswer& c = *open.front()->confidence;
            parts.push_back("more samples cannot settle it" +
                            (c.taskSize ? (open.front()->judge ? " (there are " : " (the task has ") +
                                              groupedCount(*c.taskSize) + ")"
                                        : std::string()));
        } else if (undecidable.size() == open.size()) {
            parts.push_back("more samples cannot settle them (each would need more than its task has)");
        } else {
            parts.push_back("more samples cannot settle " + listed(undecidable));
        }
    }
    std::string out;
    for (const std::string& p : parts) out += "; " + p;
    return out;
}

VerdictCertainty certaintyOf(Verdict verdict, const std::vector<Evidence>& all, const Thresholds& t, bool cautious,
                             const std::string& noIntervalBasis) {
    VerdictCertainty out;
    out.verdict = std::string(verdictTitle(verdict));
    std::vector<const Evidence*> deciding, open;
    Verdict cautiousVerdict = Verdict::Go, pointVerdict = Verdict::Go;
    for (const Evidence& e : all) {
        pointVerdict = worst(pointVerdict, e.pointVerdict);
        if (e.confidence) cautiousVerdict = worst(cautiousVerdict, bandsReached(*e.confidence, t).second);
        cautiousVerdict = worst(cautiousVerdict, e.verdict);
        if (e.verdict != verdict || !e.confidence) continue;
        deciding.push_back(&e);
        if (e.confidence->confidence == Confidence::Inconclusive) open.push_back(&e);
    }
    if (deciding.empty()) {
        out.qualifier = noIntervalBasis;
        return out;
    }
    const std::string band = std::string(verdictName(verdict));
    const std::string policy = cautious
                                   ? (pointVerdict != verdict ? "under the cautious policy (the estimate alone gives " +
                                                                    std::string(verdictTitle(pointVerdict)) + ")"
                                                              : "by the estimate and under the cautious policy")
                                   : "by the estimate";
    if (open.empty()) {
        if (deciding.size() == 1) {
            out.qualifier = policy + ", settled: " + possessive(*deciding.front()) + " 95% interval lies inside the " +
                            band + " band";
        } else {
            std::vector<std::string> names;
            for (std::size_t i = 0; i < deciding.size() && i < kNamed; ++i) names.push_back(deciding[i]->name);
            if (deciding.size() > kNamed) names.push_back(std::to_string(deciding.size() - kNamed) + " more");
            out.qualifier =
                policy + ", settled: the 95% intervals of " + listed(names) + " lie inside the " + band + " band";
        }
    } else {
        out.inconclusive = true;
        out.qualifier = policy + " — unsettled: " + rangesText(open, t) + samplesText(open);
    }
    if (!cautious && cautiousVerdict != verdict) {
        out.qualifier += "; the cautious policy (the worst band reached) would make it " +
                         std::string(verdictTitle(cautiousVerdict));
    } else if (!cautious && out.inconclusive) {
        out.qualifier += "; the cautious policy (the worst band reached) gives " +
                         std::string(verdictTitle(cautiousVerdict)) + " too";
    }
    return out;
}

void addTasks(std::vector<Evidence>& into, const ComparisonReport& r) {
    for (const TaskComparison& t : r.tasks)  // top-level tasks only: drill-down rows never count
        into.push_back({t.task, t.confidence ? &*t.confidence : nullptr, t.verdict, t.pointVerdict, false});
}

}  // namespace

VerdictCertainty verdictCertainty(const ComparisonReport& evals) {
    std::vector<Evidence> all;
    addTasks(all, evals);
    return certaintyOf(evals.verdict, all, evals.thresholds, evals.cautious,
                       "by the estimate; no standard errors to say how sure it is");
}

VerdictCertainty verdictCertainty(const Decision& d, const Thresholds& thresholds, bool cautious) {
    if (!d.verdict) return {};
    // Several candidates: d.evals and d.judge are the deciding variant's (decide()), so its intervals say it.
    std::vector<Evidence> all;
    if (d.evals) addTasks(all, *d.evals);
    if (d.judge)
        all.push_back({"the domain judge", &d.judge->confidence, d.judge->verdict, d.judge->pointVerdict, true});
    // Production gives its verdict without an interval (the means before and after, the quality alert).
    const bool fromProduction = d.timeline && d.timeline->verdict == d.verdict;
    const std::string basis = fromProduction ? "by production's figures (the quality alert and the means before and "
                                               "after; no interval to say how sure it is)"
                                             : "by the estimate; no standard errors to say how sure it is";
    // The evals' own thresholds where there are evals (the comparison's, and what their reasons used).
    return certaintyOf(*d.verdict, all, d.evals ? d.evals->thresholds : thresholds,
                       d.evals ? d.evals->cautious : cautious, basis);
}

}  // namespace fp8dash
