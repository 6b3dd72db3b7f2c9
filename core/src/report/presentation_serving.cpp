// The presentation's "What FP8 buys on your server" slide (presentation_deck.h): each candidate's measured gain as a
// big figure, the gain sentences as points beside the throughput–latency chart, the SLO under the title. Words for
// stakeholders, never command flags.
#include "fp8dash/core/number_format.h"
#include "fp8dash/core/serving_format.h"
#include "report/presentation_variants.h"

namespace fp8dash::deck_variants {

namespace {

// The candidate the slide is about: the recommended variant, else the deciding one, else the first candidate.
const ServingVariantResult* headlineVariant(const Decision& d, const ServingComparison& c) {
    if (d.variants) {
        const Recommendation& rec = d.variants->recommendation;
        const std::string label = rec.label ? *rec.label : d.variants->decidingVariant().label;
        if (const ServingVariantResult* v = c.find(label); v && v != &c.variants.front()) return v;
    }
    return c.variants.size() > 1 ? &c.variants[1] : nullptr;
}

SlideFigure gainFigure(const ServingComparison& c, const ServingVariantResult& v) {
    SlideFigure f{v.label, "\u2014", "not measured", std::nullopt};
    if (!v.gain || !v.gain->measured || !v.gain->pct) return f;
    const ServingGain& g = *v.gain;
    f.value = numfmt::signedFixed(*g.pct, 1) + "%";
    f.detail = "output tokens/s";
    const ServingCapacity& a = c.variants.front().capacity;
    if (!c.slo.empty() && a.load && v.capacity.load && *a.load != *v.capacity.load)
        f.detail += " · serves " + numfmt::general(*v.capacity.load, 4) + " vs " + numfmt::general(*a.load, 4) +
                    (c.axis == LoadAxis::Concurrency ? " concurrent" : " req/s");
    else if (!c.slo.empty())
        f.detail += " within the SLO";
    if (g.withinNoise) {
        f.detail = "within the noise";
        f.level = Verdict::Monitor;
    } else {
        f.level = g.negative ? Verdict::Investigate : Verdict::Go;
    }
    return f;
}

}  // namespace

std::optional<PresentationSlide> servingSlide(const Decision& d) {
    if (!d.serving || d.serving->variants.size() < 2) return std::nullopt;
    const ServingComparison& c = *d.serving;
    PresentationSlide s;
    s.step = PresentationStep::Serving;
    std::string tools;
    for (const std::string& t : c.variants.front().tools) tools += (tools.empty() ? "" : ", ") + t;
    s.subtitle = joined(
        {c.slo.empty() ? "no latency SLO set" : "SLO: " + c.slo.words(), tools.empty() ? "" : "measured with " + tools},
        " · ");
    if (c.blocked()) {
        s.title = "The serving benchmarks are not comparable";
        for (const ServingProblem& p : c.problems)
            if (p.blocking) s.points.push_back(p.text);
        s.talkingPoints = "The serving runs differ in more than FP8 (" + c.problems.front().text +
                          "): what FP8 buys was not measured here.";
        return s;
    }
    s.charts = {"serving"};  // the Serving tab's throughput–latency curve (ui's chart snapshot), where one is drawn
    for (std::size_t i = 1; i < c.variants.size(); ++i) {
        SlideFigure f = gainFigure(c, c.variants[i]);
        // With several variants, what the recommendation made of each: a gain is no reason on its own.
        if (d.variants) {
            const Recommendation& rec = d.variants->recommendation;
            for (const auto& r : rec.buysNothing)
                if (r.label == c.variants[i].label) {
                    f.detail = "set aside: buys nothing measurable over " + rec.label.value_or("");
                    f.level = Verdict::Monitor;
                }
            for (const VariantResult& v : d.variants->variants)
                if (v.label == c.variants[i].label && !v.passes) {
                    f.detail = "does not pass the quality gate";
                    f.level = Verdict::Investigate;
                }
        }
        s.figures.push_back(f);
        if (c.variants[i].gain) s.points.push_back(c.variants[i].gain->sentence);
    }
    const ServingVariantResult* v = headlineVariant(d, c);
    if (!v || !v->gain || !v->gain->measured || !v->gain->pct) {
        s.title = "What FP8 buys was not measured at a common load";
    } else if (v->gain->withinNoise) {
        s.title = v->label + " buys nothing measurable on your server";
    } else if (v->gain->negative) {
        s.title = v->label + " is slower on your server";
    } else {
        s.title = v->label + " serves " + numfmt::signedFixed(*v->gain->pct, 1) + "% more output tokens/s";
        s.gain = numfmt::signedFixed(*v->gain->pct, 1) + "% output tokens/s on your server";
    }
    if (v && v->gain) s.talkingPoints = v->gain->sentence + ".";
    return s;
}

}  // namespace fp8dash::deck_variants
