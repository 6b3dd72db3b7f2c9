// The shared words and tables of several variants (fp8dash/core/variant_text.h).
#include "fp8dash/core/variant_text.h"

#include <algorithm>

#include "fp8dash/core/number_format.h"

namespace fp8dash::variant_text {

using numfmt::fixed;
using numfmt::general;

std::vector<std::string> taskOrder(const VariantComparison& v) {
    std::vector<std::string> out;
    for (const auto& variant : v.variants)
        for (const auto& t : variant.report.tasks)
            if (std::find(out.begin(), out.end(), t.task) == out.end()) out.push_back(t.task);
    return out;
}

const TaskComparison* taskOf(const VariantResult& v, const std::string& task) {
    for (const auto& t : v.report.tasks)
        if (t.task == task) return &t;
    return nullptr;
}

std::string cellValue(const TaskComparison& t) {
    return fixed(t.candidate, 4) + " (" + (t.recoveryPct ? fixed(*t.recoveryPct, 2) + "%" : std::string("n/a")) + ")";
}

std::string cell(const TaskComparison* t) {
    if (!t) return "—";
    return cellValue(*t) + " " + std::string(verdictName(t->verdict));
}

std::string gate(const RecommendationOptions& o) {
    return gateWords(o);
}

Table table(const VariantComparison& v) {
    Table t;
    t.header = {"Task", v.baselineLabel};
    for (const auto& variant : v.variants) t.header.push_back(variant.label);
    for (const auto& task : taskOrder(v)) {
        std::vector<std::string> row{task};
        std::vector<std::optional<Verdict>> verdicts{std::nullopt, std::nullopt};
        const TaskComparison* any = nullptr;
        for (const auto& variant : v.variants)
            if ((any = taskOf(variant, task))) break;
        row.push_back(any ? fixed(any->baseline, 4) : "—");
        for (const auto& variant : v.variants) {
            const TaskComparison* c = taskOf(variant, task);
            row.push_back(cell(c));
            verdicts.push_back(c ? std::optional<Verdict>(c->verdict) : std::nullopt);
        }
        t.rows.push_back(std::move(row));
        t.verdicts.push_back(std::move(verdicts));
    }
    std::vector<std::string> avg{"Average recovery", ""};
    std::vector<std::string> verdicts{"Verdict", ""};
    std::vector<std::optional<Verdict>> none(2), tones(2);
    for (const auto& variant : v.variants) {
        avg.push_back(variant.averageRecoveryPct ? fixed(*variant.averageRecoveryPct, 2) + "%" : "n/a");
        verdicts.push_back(std::string(verdictTitle(variant.verdict)) + (variant.passes ? " (passes)" : ""));
        none.push_back(std::nullopt);
        tones.push_back(variant.verdict);
    }
    t.rows.push_back(std::move(avg));
    t.rows.push_back(std::move(verdicts));
    t.verdicts.push_back(std::move(none));
    t.verdicts.push_back(std::move(tones));
    return t;
}

std::string stepTitle(const LayerStep& s) {
    return s.fromLabel + " → " + s.toLabel + " (" + s.plan.description + ")";
}

StepFigure stepFigure(const LayerStepTask& t) {
    const bool cost = t.degradationPct && *t.degradationPct > 0;
    StepFigure f;
    if (cost)
        f.text = "costs " + fixed(*t.degradationPct, 2) + "%";
    else if (t.deltaPct)
        f.text = "changes by " + std::string(*t.deltaPct > 0 ? "+" : "") + fixed(*t.deltaPct, 2) + "%";
    else
        f.text = "n/a";
    if (t.lossCi95Pct) {
        // The interval of the cost, or of the change, on the same scale as the figure (as the step's sentence).
        const double lo = cost ? t.lossCi95Pct->low : -t.lossCi95Pct->high;
        const double hi = cost ? t.lossCi95Pct->high : -t.lossCi95Pct->low;
        f.ci = "95% CI " + fixed(lo, 2) + "–" + fixed(hi, 2) + "%";
        f.range = fixed(lo, 2) + " to " + fixed(hi, 2) + "%";  // in a column of its own: no dash beside a minus
    }
    return f;
}

std::string runsLine(const std::string& baseline, const std::vector<std::string>& candidates) {
    std::string out = baseline + " vs ";
    for (std::size_t i = 0; i < candidates.size(); ++i) out += (i ? ", " : "") + candidates[i];
    return out;
}

namespace {
std::size_t codePoints(const std::string& s) {
    return static_cast<std::size_t>(
        std::count_if(s.begin(), s.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
}
}  // namespace

std::string runsLineShort(const std::string& baseline, const std::vector<std::string>& candidates,
                          std::size_t maxChars) {
    const std::string full = runsLine(baseline, candidates);
    if (candidates.size() < 2 || codePoints(full) <= maxChars) return full;
    // The most candidates that fit with the count of the rest after them (at least one is left out here).
    for (std::size_t shown = candidates.size() - 1; shown > 0; --shown) {
        std::string line = runsLine(
            baseline,
            std::vector<std::string>(candidates.begin(), candidates.begin() + static_cast<std::ptrdiff_t>(shown)));
        line += " and " + std::to_string(candidates.size() - shown) + " more";
        if (codePoints(line) <= maxChars) return line;
    }
    return baseline + " vs " + std::to_string(candidates.size()) + " variants";
}

std::vector<std::string> candidateLabels(const ComparisonDocument& doc) {
    std::vector<std::string> out{doc.candidate.label};
    for (const auto& c : doc.moreCandidates) out.push_back(c.run.label);
    return out;
}

std::string recommended(const VariantComparison& v) {
    const Recommendation& rec = v.recommendation;
    if (rec.label) return *rec.label;
    if (rec.verdict == Verdict::Investigate || v.variants.empty()) return "none — stay on " + v.baselineLabel;
    return "none passes the gate; the best is " + v.decidingVariant().label;
}

std::vector<std::string> recommendationLines(const VariantComparison& v) {
    const Recommendation& rec = v.recommendation;
    std::vector<std::string> out{rec.reason};
    if (rec.label) out.push_back("it buys: " + rec.buys);
    if (!rec.gain.empty()) out.push_back("on your server: " + rec.gain);
    for (std::size_t i = 1; i < rec.buysNothing.size(); ++i)
        out.push_back(rec.buysNothing[i].label + " is set aside: " + rec.buysNothing[i].reason);
    for (const auto& r : rec.rejected) out.push_back(r.label + " does not pass: " + r.reason);
    return out;
}

std::string layersLine(const RunLayers& l) {
    return "weights " + l.weights.value + " (" + l.weights.evidence + ") · KV cache " + l.kvCache.value +
           (l.fp8KvCache() ? ", scales " + l.kvScales.value + " (" + l.kvScales.evidence + ")" : "") +
           " · activations " + l.activations.value;
}

const Fp8Config* testedConfig(const Decision& d, std::string* label) {
    if (d.variants) {
        const Recommendation& rec = d.variants->recommendation;
        for (const auto& v : d.variants->variants)
            if (rec.recommends(v.label)) {
                if (label) *label = v.label + " (the recommended variant)";
                return &v.config;
            }
        return nullptr;
    }
    if (!d.evals) return nullptr;
    if (label) *label = d.evals->candidateLabel + " (the tested candidate)";
    return &d.evals->candidateConfig;
}

std::string untestedKvCacheNote(const Decision& d, bool settingsChooseFp8Kv) {
    if (!settingsChooseFp8Kv) return "";
    std::string label;
    const Fp8Config* tested = testedConfig(d, &label);
    if (d.variants && !tested)
        return "no variant passes, so no FP8 KV cache is recommended: the capacity settings' FP8 KV cache is not "
               "what the evals support";
    if (!tested || tested->kvCache) return "";
    return label +
           " has no FP8 KV cache: the capacity settings' FP8 KV cache, and the KV-cache tokens it adds, "
           "were not evaluated";
}

}  // namespace fp8dash::variant_text
