// The verdict's first line (verdict_headline.h): one rule for one or several candidates, every medium.
#include "fp8dash/core/verdict_headline.h"

namespace fp8dash {

namespace {

std::string jsonWords(const Json& v) {
    return v.is_string() ? v.get<std::string>() : v.is_null() ? std::string("not recorded") : v.dump();
}

// One blocking problem in a few words: "different models, A vs B", else the check's own sentence.
std::string problemWords(const ComparabilityItem& item) {
    if (item.field == "model")
        return "different models, " + jsonWords(item.baseline) + " vs " + jsonWords(item.candidate);
    return (item.task ? *item.task + ": " : std::string()) + item.message;
}

// What the verdict rests on, when a kind of evidence is missing.
std::string basisOf(const Decision& d) {
    const bool evals = d.evals.has_value(), judge = d.judge.has_value();
    const bool production = d.timeline && d.timeline->verdict;
    if (evals && judge && production) return "";
    std::vector<std::string> on, missing;
    (evals ? on : missing).push_back(evals ? "offline evals" : "no offline evals");
    (judge ? on : missing).push_back(judge ? "the domain judge" : "no domain judge");
    (production ? on : missing)
        .push_back(production   ? "production data"
                   : d.timeline ? "no production verdict"
                                : "no production data");
    std::string out = "on ";
    for (std::size_t i = 0; i < on.size(); ++i) out += (i == 0 ? "" : i + 1 == on.size() ? " and " : ", ") + on[i];
    out += ";";
    for (std::size_t i = 0; i < missing.size(); ++i) out += (i == 0 ? " " : ", ") + missing[i];
    return out;
}

}  // namespace

std::vector<std::string> verdictCaveats(const ComparisonReport& r) {
    std::vector<std::string> out;
    if (r.allowIncomparable) {
        std::vector<const ComparabilityItem*> blocking;
        for (const auto& i : r.comparability)
            if (i.severity == ComparabilitySeverity::Blocking) blocking.push_back(&i);
        if (!blocking.empty()) {
            std::string line = "not comparable: " + problemWords(*blocking.front());
            if (blocking.size() > 1)
                line += " (and " + std::to_string(blocking.size() - 1) + " more problem" +
                        (blocking.size() == 2 ? "" : "s") + ")";
            out.push_back(std::move(line));
        }
    }
    if (!r.candidateConfig.anyFp8() && !r.candidateConfig.layers.anyLowPrecision())
        out.push_back(r.candidateLabel + " has no FP8 or other low-precision layer");
    return out;
}

VerdictHeadline verdictHeadline(const Decision& d) {
    VerdictHeadline h;
    h.verdict = d.verdict;
    h.title = d.verdict ? std::string(verdictTitle(*d.verdict)) : std::string("NO VERDICT");
    if (!d.verdict) return h;
    h.basis = basisOf(d);
    if (d.evals) h.caveats = verdictCaveats(*d.evals);
    if (d.variants && !d.variants->variants.empty()) {
        const VariantComparison& v = *d.variants;
        const VariantResult& deciding = v.decidingVariant();
        h.deciding = deciding.label;
        if (v.recommendation.recommends(deciding.label)) {
            h.subject = *d.verdict == Verdict::Investigate ? "investigate before enabling " + deciding.label
                        : *d.verdict == Verdict::Monitor   ? "enable " + deciding.label + " with quality monitoring"
                                                           : "enable " + deciding.label;
        } else {
            h.subject = (*d.verdict == Verdict::Investigate ? "stay on " + v.baselineLabel + "; " : std::string()) +
                        "no variant passes the gate (" + gateWords(v.recommendation.options) + "); the best is " +
                        deciding.label;
        }
    }
    return h;
}

std::string VerdictHeadline::tail() const {
    std::string out = basis;
    const auto add = [&out](const std::string& part) {
        if (!part.empty()) out += (out.empty() ? "" : " — ") + part;
    };
    add(subject);
    for (const auto& c : caveats) add(c);
    return out;
}

namespace {
std::string sentenceCase(std::string s) {
    if (!s.empty() && s[0] >= 'a' && s[0] <= 'z') s[0] = static_cast<char>(s[0] - 'a' + 'A');
    return s;
}
}  // namespace

std::string VerdictHeadline::advice() const {
    if (!verdict) return "";
    if (!subject.empty()) return sentenceCase(subject) + ".";
    return std::string(verdictAdvice(*verdict));
}

std::vector<std::string> VerdictHeadline::notes() const {
    std::vector<std::string> out;
    if (!basis.empty()) out.push_back("Reached " + basis + ".");
    for (const auto& c : caveats) out.push_back("⚠ " + sentenceCase(c) + ".");
    return out;
}

Json verdictHeadlineToJson(const VerdictHeadline& h) {
    return {{"text", h.text()},
            {"deciding_variant", h.deciding.empty() ? Json(nullptr) : Json(h.deciding)},
            {"basis", h.basis.empty() ? Json(nullptr) : Json(h.basis)},
            {"caveats", h.caveats},
            {"clean", h.clean()}};
}

std::string VerdictHeadline::text() const {
    const std::string rest = tail();
    if (rest.empty()) return title;
    return title + (basis.empty() ? " — " : " ") + rest;
}

}  // namespace fp8dash
