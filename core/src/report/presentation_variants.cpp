// The presentation's slides of several variants (presentation_variants.h).
#include "report/presentation_variants.h"

#include <algorithm>
#include <cctype>

#include "fp8dash/core/eval_comparison.h"
#include "fp8dash/core/number_format.h"
#include "fp8dash/core/variant_comparison.h"
#include "fp8dash/core/variant_text.h"

namespace fp8dash::deck_variants {

using numfmt::fixed;

std::string joined(const std::vector<std::string>& parts, const std::string& separator) {
    std::string out;
    for (const auto& p : parts) {
        if (p.empty()) continue;
        if (!out.empty()) out += separator;
        out += p;
    }
    return out;
}

namespace {

// What a variant's own layers buy, in a few words for the verdict slide (the ×2 KV-cache tokens only with a
// low-precision KV cache; variantBuys says it in full).
std::string shortBuys(const RunLayers& l) {
    std::vector<std::string> parts;
    if (l.lowPrecisionWeights())
        parts.push_back(std::string(memorySaving(l).perParameter >= 1.5 ? "a quarter" : "half") + " the weight memory" +
                        (l.activations.value.starts_with("fp8") ? ", FP8 matmuls" : ""));
    if (l.lowPrecisionKvCache()) parts.push_back("twice the KV-cache tokens");
    return joined(parts, ", ");
}

}  // namespace

std::optional<PresentationSlide> variantsSlide(const Decision& decision) {
    if (!decision.variants) return std::nullopt;
    const VariantComparison& v = *decision.variants;
    const Recommendation& rec = v.recommendation;
    const Thresholds& t = v.thresholds;
    PresentationSlide s;
    s.step = PresentationStep::Variants;
    s.verdict = rec.verdict;
    // None passing: the verdict is the best variant's (variant_comparison.h's deciding one), said as such.
    const std::string best = v.variants.empty() ? std::string() : v.decidingVariant().label;
    s.title = rec.label                             ? "Enable " + *rec.label
              : rec.verdict == Verdict::Investigate ? "No FP8 variant passes: stay on " + v.baselineLabel
                                                    : "No variant passes the gate; the best is " + best;
    s.subtitle = "Each variant's worst degradation against " + v.baselineLabel + ": go below " + fixed(t.goBelow, 1) +
                 "%, monitor " + fixed(t.goBelow, 1) + "–" + fixed(t.investigateAbove, 1) + "%, investigate above " +
                 fixed(t.investigateAbove, 1) + "% (gate: " + variant_text::gate(rec.options) + ")";
    const VariantResult* chosen = nullptr;
    for (const VariantResult& x : v.variants) {
        const double worst = x.worstDegradationPct.value_or(0);
        const bool recommended = rec.recommends(x.label);
        if (recommended) chosen = &x;
        std::string detail = x.worstTask.empty() ? "no task degrades" : "worst: " + x.worstTask;
        detail += " · " + std::string(verdictName(x.verdict));
        if (recommended)
            detail = "✓ recommended · " + detail;
        else if (!x.passes && !x.failReason.empty())
            detail += " · does not pass";
        s.figures.push_back({x.label, fixed(worst, 2) + "%", detail, x.verdict});
        // Under the figures, each variant's forest plot (ui/chart_snapshots.h: "evals-forest-<k>", from 1).
        s.charts.push_back("evals-forest-" + std::to_string(s.figures.size()));
    }
    if (chosen) {
        s.summary =
            "enable " + chosen->label + " (worst task " + fixed(chosen->worstDegradationPct.value_or(0), 2) + "%)";
        s.gain = shortBuys(chosen->config.layers);
        s.points.push_back("What it buys: " + rec.buys);
    } else {
        s.summary = "no FP8 variant passes the gate (" + variant_text::gate(rec.options) + "); the best is " + best;
    }
    std::string talk = rec.reason + ".";
    if (chosen) talk += " It buys: " + rec.buys + ".";
    for (const auto& r : rec.rejected) talk += " " + r.label + " does not pass: " + r.reason + ".";
    s.talkingPoints = talk;
    return s;
}

// What each FP8 layer costs: the steps in their order, each step's tasks worst first (the verdict, then the
// degradation); the title names the costliest task of any step.
std::optional<PresentationSlide> layerCostsSlide(const Decision& decision) {
    if (!decision.variants || decision.variants->steps.empty()) return std::nullopt;
    const VariantComparison& v = *decision.variants;
    PresentationSlide s;
    s.step = PresentationStep::LayerCosts;
    const LayerStep* costliestStep = nullptr;
    const LayerStepTask* costliest = nullptr;
    std::vector<std::string> talk;
    for (const LayerStep& step : v.steps) {
        std::vector<const LayerStepTask*> tasks;
        for (const LayerStepTask& t : step.tasks) tasks.push_back(&t);
        std::stable_sort(tasks.begin(), tasks.end(), [](const LayerStepTask* a, const LayerStepTask* b) {
            return worseFirst(a->verdict, a->degradationPct, b->verdict, b->degradationPct);
        });
        for (std::size_t i = 0; i < tasks.size(); ++i) {
            const LayerStepTask& t = *tasks[i];
            const variant_text::StepFigure f = variant_text::stepFigure(t);
            s.stepRows.push_back({step.fromLabel + " → " + step.toLabel, step.plan.description, t.task, f.text, f.range,
                                  t.verdict, i == 0});
            if (t.degradationPct && *t.degradationPct > 0 &&
                (!costliest || *t.degradationPct > *costliest->degradationPct)) {
                costliest = &t;
                costliestStep = &step;
            }
        }
        if (!tasks.empty()) talk.push_back(tasks.front()->sentence);
    }
    if (costliest) {
        std::string layer = costliestStep->plan.description;
        if (!layer.empty()) layer[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(layer[0])));
        s.title = layer + " costs " + fixed(*costliest->degradationPct, 2) + "% on " + costliest->task;
    } else {
        s.title = "No FP8 layer costs a task accuracy";
    }
    const std::size_t n = v.steps.size();
    s.subtitle = std::to_string(n) + (n == 1 ? " layer step" : " layer steps") +
                 ": two runs that differ in exactly one layer, compared directly, with 95% intervals";
    std::string line = joined(talk, "; ");
    if (!line.empty()) line[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(line[0])));
    s.talkingPoints = line.empty() ? std::string() : "Each step's costliest task: " + line + ".";
    return s;
}

}  // namespace fp8dash::deck_variants
