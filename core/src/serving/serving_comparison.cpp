// The serving comparison (serving_comparison.h): load points matched across variants, Δ% against the baseline with
// a Welch interval where replicates allow, capacity at the SLO, the gain quoted for each candidate, replicas and cost.
// DESIGN.md "What FP8 buys (measured on the user's server)".
#include "fp8dash/core/serving_comparison.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <set>

#include <boost/math/distributions/students_t.hpp>

#include "fp8dash/core/fp8_config.h"
#include "fp8dash/core/number_format.h"
#include "serving/serving_words.h"

namespace fp8dash {

namespace {

using Figure = std::function<std::optional<double>(const ServingRun&)>;

bool sameLoadValue(double a, double b) {
    return std::fabs(a - b) <= 1e-9 * std::max(1.0, std::max(std::fabs(a), std::fabs(b)));
}

bool sameLoad(const ServingLoad& a, const ServingLoad& b) {
    return a.axis == b.axis && (a.axis == LoadAxis::Unbounded || sameLoadValue(a.value, b.value));
}

std::optional<double> meanOf(const std::vector<const ServingRun*>& runs, const Figure& f) {
    double sum = 0;
    int n = 0;
    for (const ServingRun* r : runs)
        if (auto v = r->allFailed() ? std::nullopt : f(*r); v && std::isfinite(*v)) {
            sum += *v;
            ++n;
        }
    if (n == 0) return std::nullopt;
    return sum / n;
}

std::vector<double> valuesOf(const std::vector<const ServingRun*>& runs, const Figure& f) {
    std::vector<double> out;
    for (const ServingRun* r : runs)
        if (auto v = r->allFailed() ? std::nullopt : f(*r); v && std::isfinite(*v)) out.push_back(*v);
    return out;
}

// A statistic of a latency metric: percentile 0 is the mean, 50 the median (or a p50 entry).
std::optional<double> statOf(const ServingRun& r, ServingMetric m, double percentile) {
    const LatencyStats& s = r.metric(m);
    if (percentile == 0) return s.mean;
    return s.percentile(percentile);
}

// Welch's interval of the difference of two means, as a % of the baseline's mean (the baseline's own uncertainty
// in the denominator is left out: a first-order interval, stated in docs/serving.md).
void welchInterval(const std::vector<double>& base, const std::vector<double>& cand, ServingDelta& d) {
    if (base.size() < 2 || cand.size() < 2 || !d.pct) return;
    auto meanVar = [](const std::vector<double>& x) {
        double m = 0;
        for (double v : x) m += v;
        m /= static_cast<double>(x.size());
        double ss = 0;
        for (double v : x) ss += (v - m) * (v - m);
        return std::pair{m, ss / static_cast<double>(x.size() - 1)};
    };
    const auto [mb, vb] = meanVar(base);
    const auto [mc, vc] = meanVar(cand);
    if (mb == 0) return;
    const double nb = static_cast<double>(base.size()), nc = static_cast<double>(cand.size());
    const double ab = vb / nb, ac = vc / nc;
    const double se = std::sqrt(ab + ac);
    double half = 0;
    if (se > 0) {
        const double df = (ab + ac) * (ab + ac) / (ab * ab / (nb - 1) + ac * ac / (nc - 1));
        half = boost::math::quantile(boost::math::students_t_distribution<double>(df), 0.975) * se;
    }
    const double diff = mc - mb;
    d.low = (diff - half) / std::fabs(mb) * 100;
    d.high = (diff + half) / std::fabs(mb) * 100;
}

ServingDelta deltaOf(const std::vector<const ServingRun*>& base, const std::vector<const ServingRun*>& cand,
                     const Figure& f, bool higherIsBetter) {
    ServingDelta d;
    const auto b = meanOf(base, f);
    const auto c = meanOf(cand, f);
    if (!b || !c || *b == 0) return d;
    d.pct = (*c - *b) / std::fabs(*b) * 100;
    d.better = higherIsBetter ? *d.pct > 0 : *d.pct < 0;
    welchInterval(valuesOf(base, f), valuesOf(cand, f), d);
    return d;
}

Figure outputFigure() {
    return [](const ServingRun& r) { return r.outputTokensPerS; };
}

Figure latencyFigure(ServingMetric m, double percentile) {
    return [m, percentile](const ServingRun& r) { return statOf(r, m, percentile); };
}

constexpr ServingMetric kMetrics[] = {ServingMetric::Ttft, ServingMetric::Tpot, ServingMetric::Itl,
                                      ServingMetric::E2el};

ServingPointFigures::Latency& latencyOf(ServingPointFigures& f, ServingMetric m) {
    switch (m) {
        case ServingMetric::Ttft:
            return f.ttft;
        case ServingMetric::Tpot:
            return f.tpot;
        case ServingMetric::Itl:
            return f.itl;
        case ServingMetric::E2el:
            return f.e2el;
    }
    return f.ttft;
}

// Requests/s meeting every target as a per-request limit; nullopt unless every replicate has per-request arrays
// covering each target's metric and a duration.
std::optional<double> goodputOf(const std::vector<const ServingRun*>& runs, const ServingSlo& slo) {
    if (slo.empty() || runs.empty()) return std::nullopt;
    double sum = 0;
    for (const ServingRun* r : runs) {
        const ServingRequests& q = r->requests;
        if (q.empty() || !r->durationS || *r->durationS <= 0) return std::nullopt;
        long long good = 0;
        for (std::size_t i = 0; i < q.size(); ++i) {
            bool ok = true;
            for (const SloTarget& t : slo.targets) {
                const std::vector<float>* v = t.metric == ServingMetric::Ttft   ? &q.ttftMs
                                              : t.metric == ServingMetric::Tpot ? &q.tpotMs
                                              : t.metric == ServingMetric::E2el ? &q.e2elMs
                                                                                : nullptr;
                if (v == nullptr || v->size() != q.size()) return std::nullopt;  // ITL is pooled, not per request
                const float x = (*v)[i];
                if (std::isnan(x)) continue;  // TPOT of a one-token answer: vLLM leaves it out
                if (x > t.ms) ok = false;
            }
            if (ok) ++good;
        }
        sum += static_cast<double>(good) / *r->durationS;
    }
    return sum / static_cast<double>(runs.size());
}

struct Group {
    ServingLoad load;
    std::vector<const ServingRun*> runs;
};

std::vector<Group> groupsOf(const std::vector<ServingRun>& runs, LoadAxis axis) {
    std::vector<Group> out;
    for (const ServingRun& r : runs) {
        if (r.load.axis != axis && r.load.axis != LoadAxis::Unbounded) continue;
        auto it = std::find_if(out.begin(), out.end(), [&](const Group& g) { return sameLoad(g.load, r.load); });
        if (it == out.end()) {
            out.push_back({r.load, {}});
            it = out.end() - 1;
        }
        it->runs.push_back(&r);
    }
    std::stable_sort(out.begin(), out.end(), [](const Group& a, const Group& b) {
        const bool ua = a.load.axis == LoadAxis::Unbounded, ub = b.load.axis == LoadAxis::Unbounded;
        if (ua != ub) return ub;
        return a.load.value < b.load.value;
    });
    return out;
}

void fillFigures(ServingPoint& p, const std::vector<const ServingRun*>& runs) {
    p.figures.outputTokensPerS = meanOf(runs, outputFigure());
    p.figures.totalTokensPerS = meanOf(runs, [](const ServingRun& r) { return r.totalTokensPerS; });
    p.figures.requestsPerS = meanOf(runs, [](const ServingRun& r) { return r.requestsPerS; });
    for (ServingMetric m : kMetrics) {
        ServingPointFigures::Latency& l = latencyOf(p.figures, m);
        l.mean = meanOf(runs, latencyFigure(m, 0));
        l.p50 = meanOf(runs, latencyFigure(m, 50));
        l.p90 = meanOf(runs, latencyFigure(m, 90));
        l.p99 = meanOf(runs, latencyFigure(m, 99));
    }
    p.outputTokensPerSRuns = valuesOf(runs, outputFigure());
}

void judgePoint(ServingPoint& p, const std::vector<const ServingRun*>& runs, const ServingSlo& slo) {
    if (slo.empty()) return;
    if (p.allFailed) {
        p.meetsSlo = false;
        p.missed.push_back("every request failed");
        return;
    }
    bool anyUnknown = false;
    for (const SloTarget& t : slo.targets) {
        const auto v = meanOf(runs, latencyFigure(t.metric, t.percentile));
        p.sloValues.push_back(v);
        if (!v) {
            anyUnknown = true;
            p.unknown.push_back(serving_words::statisticWords(t));
        } else if (*v > t.ms) {
            p.missed.push_back(serving_words::statisticWords(t) + " " + serving_words::ms(*v) + " > " +
                               serving_words::ms(t.ms));
        }
    }
    if (!p.missed.empty())
        p.meetsSlo = false;
    else if (!anyUnknown)
        p.meetsSlo = true;
}

void compareWithBaseline(ServingPoint& p, const std::vector<const ServingRun*>& base,
                         const std::vector<const ServingRun*>& cand) {
    p.hasBaseline = true;
    p.outputTokensPerS = deltaOf(base, cand, outputFigure(), true);
    p.totalTokensPerS = deltaOf(
        base, cand, [](const ServingRun& r) { return r.totalTokensPerS; }, true);
    p.requestsPerS = deltaOf(
        base, cand, [](const ServingRun& r) { return r.requestsPerS; }, true);
    for (ServingMetric m : kMetrics) {
        ServingPoint::LatencyDelta& d = p.delta(m);
        d.mean = deltaOf(base, cand, latencyFigure(m, 0), false);
        d.p50 = deltaOf(base, cand, latencyFigure(m, 50), false);
        d.p90 = deltaOf(base, cand, latencyFigure(m, 90), false);
        d.p99 = deltaOf(base, cand, latencyFigure(m, 99), false);
    }
}

// Linear interpolation of where each missed figure crosses its limit between the last point met and the first
// missed; the earliest crossing is the estimate.
std::optional<double> interpolatedCapacity(const ServingPoint& met, const ServingPoint& miss, const ServingSlo& slo) {
    if (miss.allFailed || met.sloValues.size() != slo.targets.size() || miss.sloValues.size() != slo.targets.size())
        return std::nullopt;
    std::optional<double> best;
    for (std::size_t i = 0; i < slo.targets.size(); ++i) {
        const auto a = met.sloValues[i], b = miss.sloValues[i];
        if (!a || !b) return std::nullopt;
        const double limit = slo.targets[i].ms;
        if (*b <= limit) continue;
        if (*b <= *a) return std::nullopt;  // worse than the limit but not rising: no line to follow
        const double at = met.load.value + (limit - *a) / (*b - *a) * (miss.load.value - met.load.value);
        if (!best || at < *best) best = at;
    }
    return best;
}

ServingCapacity capacityOf(const std::vector<ServingPoint>& points, const ServingSlo& slo, LoadAxis axis) {
    ServingCapacity c;
    c.axis = axis;
    if (slo.empty()) {
        c.unjudgedReason = "no SLO was given";
        return c;
    }
    if (axis == LoadAxis::Unbounded) {
        c.unjudgedReason = "every run sent all its requests at once: no load ladder to read a capacity from";
        return c;
    }
    const ServingPoint* lastMet = nullptr;
    bool missedOnce = false;
    for (const ServingPoint& p : points) {
        if (p.load.axis == LoadAxis::Unbounded) continue;
        if (!p.meetsSlo) {
            if (!missedOnce) {
                c.unjudgedReason = "the files give no " + p.unknown.front() + " at " + servingLoadWords(p.load);
                return c;
            }
            continue;  // after the first miss, a point that cannot be judged is not named as meeting it again
        }
        if (*p.meetsSlo) {
            if (missedOnce)
                c.metAgainAt.push_back(p.load.value);
            else
                lastMet = &p;
        } else if (!missedOnce) {
            missedOnce = true;
            c.firstMissAt = p.load.value;
            if (lastMet) c.interpolated = interpolatedCapacity(*lastMet, p, slo);
        }
    }
    c.judged = lastMet != nullptr || missedOnce;
    if (!c.judged) c.unjudgedReason = "no load point was measured";
    if (lastMet) {
        c.load = lastMet->load.value;
        c.outputTokensPerS = lastMet->figures.outputTokensPerS;
    }
    return c;
}

const ServingPoint* pointAt(const ServingVariantResult& v, const ServingLoad& load) {
    for (const ServingPoint& p : v.points)
        if (sameLoad(p.load, load)) return &p;
    return nullptr;
}

}  // namespace

std::string servingVariantLabel(const std::vector<ServingRun>& runs, const std::string& fallback) {
    if (runs.empty()) return fallback;
    const std::string& label = runs.front().label;
    if (!label.empty() && std::all_of(runs.begin(), runs.end(), [&](const ServingRun& r) { return r.label == label; }))
        return label;
    const ServingRun& r = runs.front();
    if (r.quantization.empty() && r.kvCacheDtype.empty() && r.model.empty()) return fallback;
    // The evals' layer names, from what was served: the same reading as an lm-eval run's model_args.
    LmEvalResults shell;
    shell.modelName = r.model;
    shell.modelBackend = "vllm";
    if (!r.model.empty()) shell.modelArgs.emplace_back("pretrained", r.model);
    if (!r.quantization.empty()) shell.modelArgs.emplace_back("quantization", r.quantization);
    if (!r.kvCacheDtype.empty()) shell.modelArgs.emplace_back("kv_cache_dtype", r.kvCacheDtype);
    const Fp8Config config = detectFp8Config(shell);
    // A model name alone that says nothing low-precision is no evidence of BF16 (the tools do not record the dtype).
    if (r.quantization.empty() && r.kvCacheDtype.empty() && !config.layers.anyLowPrecision()) return fallback;
    return layersLabel(config);
}

bool ServingComparison::blocked() const {
    return std::any_of(problems.begin(), problems.end(), [](const ServingProblem& p) { return p.blocking; });
}

const ServingVariantResult* ServingComparison::find(std::string_view label) const {
    for (const ServingVariantResult& v : variants)
        if (v.label == label) return &v;
    return nullptr;
}

ServingPoint::LatencyDelta& ServingPoint::delta(ServingMetric m) {
    switch (m) {
        case ServingMetric::Ttft:
            return ttft;
        case ServingMetric::Tpot:
            return tpot;
        case ServingMetric::Itl:
            return itl;
        case ServingMetric::E2el:
            return e2el;
    }
    return ttft;
}

const ServingPoint::LatencyDelta& ServingPoint::delta(ServingMetric m) const {
    return const_cast<ServingPoint&>(*this).delta(m);
}

const ServingPointFigures::Latency& ServingPointFigures::metric(ServingMetric m) const {
    return latencyOf(const_cast<ServingPointFigures&>(*this), m);
}

// Defined in serving_comparison_checks.cpp: the comparability problems, flags and notes.
void addServingProblems(const std::vector<ServingVariantInput>& inputs, ServingComparison& c);
LoadAxis servingAxisOf(const std::vector<ServingRun>& runs);

namespace {

ServingVariantResult variantOf(const ServingVariantInput& in, LoadAxis axis, const ServingOptions& o) {
    ServingVariantResult v;
    v.label = in.label;
    std::set<std::string> tools;
    for (const ServingRun& r : in.runs) {
        if (v.model.empty()) v.model = servingModelDisplayName(r.model);
        if (tools.insert(servingToolName(r.tool)).second) v.tools.push_back(servingToolName(r.tool));
        if (v.quantization.empty() && !r.quantization.empty()) v.quantization = r.quantization;
        if (v.kvCacheDtype.empty() && !r.kvCacheDtype.empty()) v.kvCacheDtype = r.kvCacheDtype;
        if (v.servedEvidence.empty() && !r.servedEvidence.empty()) v.servedEvidence = r.servedEvidence;
        if (!v.gpus && r.gpuCount) v.gpus = r.gpuCount;
    }
    if (o.gpusPerReplica) v.gpus = o.gpusPerReplica;
    for (const Group& g : groupsOf(in.runs, axis)) {
        ServingPoint p;
        p.load = g.load;
        p.replicates = static_cast<int>(g.runs.size());
        for (const ServingRun* r : g.runs) {
            p.completed += r->completed;
            p.failed += r->failed;
        }
        p.allFailed = p.completed == 0;
        if (!p.allFailed) {
            fillFigures(p, g.runs);
            p.goodputRequestsPerS = goodputOf(g.runs, o.slo);
        }
        judgePoint(p, g.runs, o.slo);
        v.points.push_back(std::move(p));
    }
    v.capacity = capacityOf(v.points, o.slo, axis);
    if (o.targetLoad && v.capacity.load && *v.capacity.load > 0)
        v.replicas = static_cast<long long>(std::ceil(*o.targetLoad / *v.capacity.load - 1e-9));
    if (o.gpuHourCost && v.capacity.outputTokensPerS && *v.capacity.outputTokensPerS > 0)
        v.costPerMillionOutputTokens =
            *o.gpuHourCost * v.gpus.value_or(1) / 3600.0 / *v.capacity.outputTokensPerS * 1e6;
    return v;
}

std::vector<const ServingRun*> runsAt(const ServingVariantInput& in, const ServingLoad& load) {
    std::vector<const ServingRun*> out;
    for (const ServingRun& r : in.runs)
        if (sameLoad(r.load, load)) out.push_back(&r);
    return out;
}

}  // namespace

// The gain of `to` over `from`: with an SLO, output tokens/s at each one's capacity load; without, output tokens/s at
// the highest load both measured. Replicates give a Welch interval; one run per side is judged against noisePct.
std::optional<ServingGain> servingGain(const ServingComparison& c, std::string_view from, std::string_view to) {
    const ServingVariantResult* a = c.find(from);
    const ServingVariantResult* b = c.find(to);
    if (!a || !b) return std::nullopt;
    ServingGain g;
    g.label = b->label;
    const ServingPoint* pa = nullptr;
    const ServingPoint* pb = nullptr;
    if (!c.slo.empty()) {
        g.basis = "output tokens/s within " + c.slo.words();
        if (a->capacity.load && b->capacity.load) {
            pa = pointAt(*a, {c.axis, *a->capacity.load, std::nullopt});
            pb = pointAt(*b, {c.axis, *b->capacity.load, std::nullopt});
        }
    } else {
        for (auto it = b->points.rbegin(); it != b->points.rend() && !pa; ++it) {
            if (it->allFailed) continue;
            const ServingPoint* other = pointAt(*a, it->load);
            if (other && !other->allFailed) {
                pa = other;
                pb = &*it;
            }
        }
        if (pb) {
            g.atLoad = pb->load.value;
            g.basis = "output tokens/s at " + servingLoadWords(pb->load, true);
        }
    }
    g.sentence = serving_words::gainSentence(c, *a, *b, g);  // "not measured" wording when pa/pb stay null
    if (!pa || !pb || !pa->figures.outputTokensPerS || !pb->figures.outputTokensPerS ||
        *pa->figures.outputTokensPerS == 0)
        return g;
    g.measured = true;
    const double x = *pa->figures.outputTokensPerS, y = *pb->figures.outputTokensPerS;
    g.pct = (y - x) / std::fabs(x) * 100;
    ServingDelta d;
    d.pct = g.pct;
    welchInterval(pa->outputTokensPerSRuns, pb->outputTokensPerSRuns, d);
    g.low = d.low;
    g.high = d.high;
    g.withinNoise = g.low ? (*g.low <= 0 && *g.high >= 0) : std::fabs(*g.pct) < c.options.noisePct;
    g.negative = !g.withinNoise && *g.pct < 0;
    g.sentence = serving_words::gainSentence(c, *a, *b, g);
    return g;
}

ServingComparison compareServing(const std::vector<ServingVariantInput>& inputs, const ServingOptions& options) {
    ServingComparison c;
    c.options = options;
    c.slo = options.slo;
    if (inputs.empty()) {
        c.problems.push_back({true, "no serving results were given"});
        return c;
    }
    c.axis = servingAxisOf(inputs.front().runs);
    for (const ServingVariantInput& in : inputs) c.variants.push_back(variantOf(in, c.axis, options));
    // Δ against the baseline at each load both measured.
    for (std::size_t i = 1; i < inputs.size(); ++i)
        for (ServingPoint& p : c.variants[i].points) {
            if (p.allFailed) continue;
            const auto base = runsAt(inputs.front(), p.load);
            if (base.empty() || std::all_of(base.begin(), base.end(), [](auto* r) { return r->allFailed(); })) continue;
            compareWithBaseline(p, base, runsAt(inputs[i], p.load));
        }
    addServingProblems(inputs, c);
    for (std::size_t i = 1; i < c.variants.size(); ++i)
        c.variants[i].gain = servingGain(c, c.variants.front().label, c.variants[i].label);
    return c;
}

}  // namespace fp8dash
