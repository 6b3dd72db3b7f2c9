// Several variants against one baseline: the layer steps and the recommendation (variant_comparison.h; README
// "Variants and layer steps").
#include "fp8dash/core/variant_comparison.h"

#include <algorithm>
#include <set>

#include "fp8dash/core/number_format.h"
#include "fp8dash/core/paired_tasks.h"

namespace fp8dash {
namespace {

// Two decimals (eval_comparison.cpp's pct has three; the two share a unity batch).
std::string pct2(double v) {
    return numfmt::fixed(v, 2) + "%";
}

std::string signedPct(double v) {
    return (v > 0 ? "+" : "") + pct2(v);
}

bool isSubset(const std::vector<std::string>& a, const std::vector<std::string>& b) {
    return std::all_of(a.begin(), a.end(),
                       [&](const std::string& x) { return std::find(b.begin(), b.end(), x) != b.end(); });
}

std::string kvDescription(const RunLayers& l) {
    const std::string kv = l.fp8KvCache() ? "the FP8 KV cache" : "the " + l.kvCache.value + " KV cache";
    if (l.kvScales.value == "checkpoint") return kv + " (calibrated scales)";
    if (l.kvScales.value == "calculated") return kv + " (calculated scales)";
    if (l.kvScales.value == "1.0") return kv + " (scales 1.0)";
    return kv;
}

std::string weightsDescription(const Fp8Config& c) {
    std::string label = layersLabel(c);
    if (const auto plus = label.find(" + "); plus != std::string::npos) label.resize(plus);
    return label + " weights";
}

// The layers two runs differ in: weights (activations follow them), the KV cache, and its scales where both have an
// FP8 KV cache.
std::vector<std::string> differingLayers(const RunLayers& a, const RunLayers& b) {
    std::vector<std::string> out;
    if (a.weights.value != b.weights.value || a.activations.value != b.activations.value) out.emplace_back("weights");
    if (a.kvCache.value != b.kvCache.value) out.emplace_back("kv_cache");
    if (a.fp8KvCache() && b.fp8KvCache() && a.kvScales.value != b.kvScales.value) out.emplace_back("kv_scales");
    return out;
}

// The worst compared task: the largest degradation (ties: the first).
const TaskComparison* worstTaskOf(const ComparisonReport& r) {
    const TaskComparison* worst = nullptr;
    for (const auto& t : r.tasks)
        if (t.degradationPct && *t.degradationPct > 0 && (!worst || *t.degradationPct > *worst->degradationPct))
            worst = &t;
    return worst;
}

void judgeFailure(VariantResult& v, const VariantEvidence& e) {
    v.failTask = "domain judge";
    v.failReason = "the domain judge says " + std::string(verdictName(*e.judgeVerdict)) +
                   (e.judgeReason.empty() ? "" : ": " + e.judgeReason);
}

// Whether the variant passes, and if not, the task and figure that failed it.
void gate(VariantResult& v, const VariantEvidence& e, const RecommendationOptions& o) {
    v.passes = v.verdict <= o.accept;
    if (!v.passes) {
        if (e.judgeVerdict && *e.judgeVerdict > o.accept && e.report.verdict <= o.accept) {
            judgeFailure(v, e);
            return;
        }
        const TaskComparison* failing = nullptr;
        for (const auto& t : v.report.tasks)
            if (t.verdict > o.accept &&
                (!failing || t.verdict > failing->verdict ||
                 (t.verdict == failing->verdict && t.degradationPct.value_or(0) > failing->degradationPct.value_or(0))))
                failing = &t;
        if (failing) {
            v.failTask = failing->task;
            v.failReason = failing->task + " degrades " +
                           (failing->degradationPct ? pct2(*failing->degradationPct) : "n/a") + " (" +
                           std::string(verdictName(failing->verdict)) + ", above the gate: " + gateWords(o) + ")";
        } else if (e.judgeVerdict) {
            judgeFailure(v, e);
        }
        return;
    }
    if (!o.minRecoveryPct) return;
    const TaskComparison* lowest = nullptr;
    for (const auto& t : v.report.tasks)
        if (t.recoveryPct && *t.recoveryPct < *o.minRecoveryPct && (!lowest || *t.recoveryPct < *lowest->recoveryPct))
            lowest = &t;
    if (lowest) {
        v.passes = false;
        v.failTask = lowest->task;
        v.failReason = lowest->task + " recovers " + pct2(*lowest->recoveryPct) +
                       " of the baseline (under the gate's " + numfmt::general(*o.minRecoveryPct) + "%)";
    }
}

bool memoryDominates(const MemorySaving& a, const MemorySaving& b) {
    return a.perParameter >= b.perParameter && a.perKvElement >= b.perKvElement &&
           (a.perParameter > b.perParameter || a.perKvElement > b.perKvElement);
}

LayerStepTask stepTask(const LayerStep& s, const TaskComparison& t) {
    LayerStepTask out;
    out.task = t.task;
    out.deltaPct = t.deltaPct;
    out.degradationPct = t.degradationPct;
    out.verdict = t.verdict;
    out.paired = t.paired.has_value();
    if (t.paired && t.paired->changed && t.paired->changed->n() > 0) {
        out.changed = t.paired->changed;
        out.changedSentence = changedAnswersSentence(*out.changed, s.toLabel);
    }
    if (t.confidence) out.lossCi95Pct = ConfidenceInterval{t.confidence->lowPct, t.confidence->highPct, 0.95};
    std::string ci;
    if (out.lossCi95Pct) {
        // The interval of the cost, on the same scale as the figure before it.
        const bool cost = t.degradationPct && *t.degradationPct > 0;
        const double lo = cost ? out.lossCi95Pct->low : -out.lossCi95Pct->high;
        const double hi = cost ? out.lossCi95Pct->high : -out.lossCi95Pct->low;
        ci = " (95% CI " + numfmt::fixed(lo, 2) + "–" + numfmt::fixed(hi, 2) + "%)";
    }
    const std::string onTop = s.plan.from == 0 ? " against " + s.fromLabel : " on top of " + s.fromLabel;
    if (t.degradationPct && *t.degradationPct > 0)
        out.sentence = s.plan.description + " costs " + pct2(*t.degradationPct) + " on " + t.task + ci + onTop;
    else if (t.deltaPct)
        out.sentence = s.plan.description + " changes " + t.task + " by " + signedPct(*t.deltaPct) + ci + onTop;
    else
        out.sentence = s.plan.description + ": " + t.task + " has a zero score in " + s.fromLabel + onTop;
    return out;
}

}  // namespace

std::string gateWords(const RecommendationOptions& o) {
    std::string out = o.accept == Verdict::Go        ? "GO only"
                      : o.accept == Verdict::Monitor ? "GO or MONITOR"
                                                     : "any verdict";
    if (o.minRecoveryPct) out += ", every task recovering at least " + numfmt::general(*o.minRecoveryPct) + "%";
    return out;
}

MemorySaving memorySaving(const RunLayers& l) {
    MemorySaving m;
    const std::string& w = l.weights.value;
    if (w.starts_with("fp8") || w.starts_with("int8"))
        m.perParameter = 1.0;
    else if (w.starts_with("nvfp4"))
        m.perParameter = 2.0 - kNvfp4BytesPerElement;  // 4 bits and an E4M3 scale per 16 weights
    else if (w.starts_with("mxfp4"))
        m.perParameter = 2.0 - kMxfp4BytesPerElement;  // 4 bits and a UE8M0 scale per 32 weights
    else if (w.starts_with("int4"))
        m.perParameter = 1.5;
    else if (w == "gguf")
        m.perParameter = 1.0;  // the common Q8/Q4 mixes; the name does not say which
    if (l.kvCache.value.starts_with("nvfp4"))
        m.perKvElement = 2.0 - kNvfp4BytesPerElement;  // NVFP4 against a 16-bit KV cache
    else if (l.lowPrecisionKvCache())
        m.perKvElement = 1.0;  // FP8 (or INT8) against a 16-bit KV cache
    return m;
}

int weightBits(const std::string& w) {
    if (w == "none") return 16;
    if (w.starts_with("fp8") || w.starts_with("int8")) return 8;
    if (w.starts_with("int4") || w.starts_with("nvfp4") || w.starts_with("mxfp4")) return 4;
    return 0;  // GGUF, another format: not ordered by bits
}

int activationBits(const std::string& a) {
    if (a == "none") return 16;
    if (a == "fp4") return 4;
    return 8;  // fp8, fp8_dynamic, int8
}

bool moreAggressive(const RunLayers& a, const RunLayers& b) {
    const auto sa = a.lowPrecisionSet(), sb = b.lowPrecisionSet();
    if (sa.size() > sb.size() && isSubset(sb, sa)) return true;
    // The same layers with the weights at fewer bits: NVFP4 W4A4 beyond FP8 W8A8 (each with the same KV cache).
    const int wa = weightBits(a.weights.value), wb = weightBits(b.weights.value);
    return sa == sb && a.kvCache == b.kvCache && a.kvScales == b.kvScales && wa > 0 && wb > 0 && wa < wb &&
           activationBits(a.activations.value) <= activationBits(b.activations.value);
}

std::vector<LayerStepPlan> findLayerSteps(const std::vector<Fp8Config>& runs) {
    std::vector<LayerStepPlan> out;
    for (std::size_t to = 0; to < runs.size(); ++to)
        for (std::size_t from = 0; from < runs.size(); ++from) {
            if (from == to) continue;
            const RunLayers &f = runs[from].layers, &t = runs[to].layers;
            const auto diff = differingLayers(f, t);
            if (diff.size() != 1) continue;
            LayerStepPlan p{from, to, diff.front(), ""};
            if (p.layer == "weights" && !f.lowPrecisionWeights() && t.lowPrecisionWeights())
                p.description = "adding " + weightsDescription(runs[to]);
            else if (p.layer == "weights" && moreAggressive(t, f))  // FP8 W8A8 -> NVFP4 W4A4
                p.description = weightsDescription(runs[to]) + " instead of " + weightsDescription(runs[from]);
            else if (p.layer == "kv_cache" && !f.lowPrecisionKvCache() && t.lowPrecisionKvCache())
                p.description = "adding " + kvDescription(t);
            else if (p.layer == "kv_scales" && f.kvScales.value == "1.0")
                p.description = std::string(t.kvScales.value == "checkpoint" ? "calibrated" : "calculated") +
                                " KV scales instead of scales 1.0";
            else
                continue;  // the other direction, or two formats of one layer: no step that adds a layer
            out.push_back(std::move(p));
        }
    return out;
}

std::string variantBuys(const Fp8Config& c) {
    const RunLayers& l = c.layers;
    std::vector<std::string> parts;
    const MemorySaving m = memorySaving(l);
    if (l.lowPrecisionWeights()) {
        std::string w =
            weightsDescription(c) + ": " +
            (m.perParameter >= 1.4 ? "about a quarter of the 16-bit weight memory" : "half the 16-bit weight memory");
        if (c.paramsBillions)
            w += " (about " + numfmt::general(*c.paramsBillions * m.perParameter, 3) + " GB less for " +
                 numfmt::general(*c.paramsBillions, 3) + "B parameters)";
        if (l.activations.value.starts_with("fp8"))
            w += ", W8A8 matmuls on FP8 tensor cores (compute capability >= 8.9)";
        else if (l.activations.value == "fp4")
            w += ", W4A4 matmuls on FP4 tensor cores (Blackwell: compute capability 10.x and 12.x; on other GPUs "
                 "vLLM runs the weights through a weight-only W4A16 fallback kernel)";
        else if (l.activations.value == "none")
            w += "; weight-only: the matmuls still run in 16 bits";
        parts.push_back(std::move(w));
    }
    if (l.kvCache.value.starts_with("nvfp4"))
        parts.push_back(
            "NVFP4 KV cache: about 3.6 times the KV-cache tokens in the same memory (4 bits and a scale "
            "per 16 values; longer contexts or larger batches)");
    else if (l.lowPrecisionKvCache())
        parts.push_back((l.fp8KvCache() ? std::string("FP8") : l.kvCache.value) +
                        " KV cache: twice the KV-cache tokens in the same memory (longer contexts or larger batches)");
    if (parts.empty()) return "nothing: no low-precision layer";
    std::string out;
    for (const auto& p : parts) out += (out.empty() ? "" : "; ") + p;
    return out;
}

Result<std::vector<std::string>> variantLabels(const std::vector<Fp8Config>& runs,
                                               const std::vector<std::string>& given) {
    if (!given.empty() && given.size() != runs.size())
        return Error{"--label given " + std::to_string(given.size()) + " time" + (given.size() == 1 ? "" : "s") +
                     " for " + std::to_string(runs.size()) +
                     " runs: give one label per run, the baseline's first, or none"};
    // The given labels first (each its own), then the derived ones for the runs without one, numbered where they
    // would repeat a label already taken.
    std::set<std::string> seen;
    for (const auto& l : given) {
        if (!l.empty() && !seen.insert(l).second)
            return Error{"--label \"" + l + "\" is given twice: each run needs its own label"};
    }
    std::vector<std::string> labels;
    for (std::size_t k = 0; k < runs.size(); ++k) {
        if (!given.empty() && !given[k].empty()) {
            labels.push_back(given[k]);
            continue;
        }
        std::string base = layersLabel(runs[k]), l = base;
        for (int n = 2; !seen.insert(l).second; ++n) l = base + " #" + std::to_string(n);
        labels.push_back(std::move(l));
    }
    return labels;
}

namespace {

// The worst degradation of a step's tasks, in words: "1.94% on gsm8k", or "nothing on any task".
std::string stepCost(const LayerStep& s) {
    const TaskComparison* worst = nullptr;
    for (const auto& t : s.report.tasks)
        if (t.degradationPct && *t.degradationPct > 0 && (!worst || *t.degradationPct > *worst->degradationPct))
            worst = &t;
    return worst ? pct2(*worst->degradationPct) + " on " + worst->task : std::string("nothing on any task");
}

// The recommendation's gain sentence, and the passing variants the measured gain set aside with why.
void weighServingGain(VariantComparison& out, const std::vector<LayerStep>& steps, const ServingComparison* serving,
                      const std::vector<std::size_t>& finalists) {
    Recommendation& rec = out.recommendation;
    const VariantResult* chosen = out.variants.empty() ? nullptr : &out.variants[out.deciding];
    const ServingVariantResult* measured = serving && chosen ? serving->find(chosen->label) : nullptr;
    if (!serving) {
        rec.gain = "the serving gain was not measured (no serving benchmarks)";
    } else if (serving->blocked()) {
        rec.gain = "the serving gain was not weighed: " + serving->problems.front().text;
    } else if (!measured || !measured->gain) {
        rec.gain =
            chosen ? "the serving gain of " + chosen->label + " was not measured (no serving benchmarks for it)" : "";
    } else {
        rec.gain = measured->gain->sentence;
        rec.gainMeasured = measured->gain->measured;
    }
    if (!serving || serving->blocked() || !rec.label) return;
    for (std::size_t i = 0; i < out.variants.size(); ++i) {
        const VariantResult& v = out.variants[i];
        if (!v.passes || i == out.deciding || std::find(finalists.begin(), finalists.end(), i) != finalists.end())
            continue;
        if (!moreAggressive(v.config.layers, chosen->config.layers)) continue;
        const auto g = servingGain(*serving, chosen->label, v.label);
        if (!g || !g->measured || !(g->withinNoise || g->negative)) continue;
        const auto step = std::find_if(steps.begin(), steps.end(), [&](const LayerStep& s) {
            return s.fromLabel == chosen->label && s.toLabel == v.label;
        });
        const std::string what =
            step != steps.end() ? step->plan.description : "going from " + chosen->label + " to " + v.label;
        const std::string cost = step != steps.end()   ? stepCost(*step)
                                 : v.worstTask.empty() ? std::string("nothing on any task")
                                                       : pct2(*v.worstDegradationPct) + " on " + v.worstTask;
        const std::string figure = numfmt::signedFixed(*g->pct, 1) + "% " + g->basis;
        rec.buysNothing.push_back({v.label, "",
                                   what + " buys " + figure + (g->negative ? " (a loss)" : " (within the noise)") +
                                       " and costs " + cost + ": " + chosen->label + " is enough"});
    }
    if (rec.buysNothing.empty()) return;
    // Not "the most aggressive" any more: a more aggressive one passes too and was set aside for what it buys.
    const std::string most = " is the most aggressive variant that passes the gate (";
    if (const auto at = rec.reason.find(most); at != std::string::npos)
        rec.reason.replace(at, most.size(), " passes the gate (");
    rec.reason += "; " + rec.buysNothing.front().reason;
}

}  // namespace

VariantComparison summarizeVariants(const std::string& baselineLabel, const Fp8Config& baselineConfig,
                                    const Thresholds& thresholds, std::vector<VariantEvidence> variants,
                                    std::vector<LayerStep> steps, const RecommendationOptions& options,
                                    const ServingComparison* serving) {
    VariantComparison out;
    out.baselineLabel = baselineLabel;
    out.baselineConfig = baselineConfig;
    out.thresholds = thresholds;
    for (auto& e : variants) {
        VariantResult v;
        v.label = e.label;
        v.config = e.report.candidateConfig;
        v.report = e.report;
        v.verdict = e.report.verdict;
        if (e.judgeVerdict) v.verdict = worst(v.verdict, *e.judgeVerdict);
        v.averageRecoveryPct = e.report.averageRecoveryPct;
        if (const TaskComparison* w = worstTaskOf(e.report)) {
            v.worstTask = w->task;
            v.worstDegradationPct = w->degradationPct;
        } else {
            v.worstDegradationPct = 0.0;
        }
        v.buys = variantBuys(v.config);
        gate(v, e, options);
        out.variants.push_back(std::move(v));
    }

    // The recommendation: among the passing variants, those no other passing one is a strict superset of; then
    // those no other frees more memory than (per parameter and per KV element, both at least as much); then the
    // smallest worst degradation; then the first given.
    Recommendation& rec = out.recommendation;
    rec.options = options;
    std::vector<std::size_t> pool;
    for (std::size_t i = 0; i < out.variants.size(); ++i)
        if (out.variants[i].passes)
            pool.push_back(i);
        else
            rec.rejected.push_back({out.variants[i].label, out.variants[i].failTask, out.variants[i].failReason});
    const auto keep = [&](auto dominated) {
        std::vector<std::size_t> next;
        for (std::size_t i : pool)
            if (std::none_of(pool.begin(), pool.end(), [&](std::size_t j) { return j != i && dominated(j, i); }))
                next.push_back(i);
        if (!next.empty()) pool = std::move(next);  // a cycle of measured gains leaves the pool as it was
    };
    // The measured gain of `more` over `less` where the serving benchmarks have both (nullopt otherwise).
    const auto gainOver = [&](std::size_t less, std::size_t more) -> std::optional<ServingGain> {
        if (!serving || serving->blocked()) return std::nullopt;
        auto g = servingGain(*serving, out.variants[less].label, out.variants[more].label);
        if (!g || !g->measured) return std::nullopt;
        return g;
    };
    const auto buysNothing = [](const std::optional<ServingGain>& g) { return g && (g->withinNoise || g->negative); };
    const auto buysMore = [](const std::optional<ServingGain>& g) { return g && !g->withinNoise && !g->negative; };
    // The superset rule (weighed by the measured gain: a superset that buys nothing over its subset loses to it), then
    // the measured-gain rule, then the memory rule, over the pool.
    const auto narrow = [&] {
        keep([&](std::size_t j, std::size_t i) {
            const RunLayers& a = out.variants[j].config.layers;
            const RunLayers& b = out.variants[i].config.layers;
            if (moreAggressive(a, b)) return !buysNothing(gainOver(i, j));
            return moreAggressive(b, a) && buysNothing(gainOver(j, i));
        });
        keep([&](std::size_t j, std::size_t i) { return buysMore(gainOver(i, j)); });
        keep([&](std::size_t j, std::size_t i) {
            return memoryDominates(memorySaving(out.variants[j].config.layers),
                                   memorySaving(out.variants[i].config.layers));
        });
    };
    narrow();
    const auto smallestWorst = [&](const std::vector<std::size_t>& among) {
        return *std::min_element(among.begin(), among.end(), [&](std::size_t a, std::size_t b) {
            return out.variants[a].worstDegradationPct.value_or(0) < out.variants[b].worstDegradationPct.value_or(0);
        });
    };
    const std::string gate = gateWords(options);
    const auto worstWords = [&](const VariantResult& v) {
        return v.worstTask.empty() ? std::string("no task degrades")
                                   : "its worst task is " + v.worstTask + " (" + pct2(*v.worstDegradationPct) + ")";
    };
    if (!pool.empty()) {
        out.deciding = smallestWorst(pool);
        const VariantResult& v = out.variants[out.deciding];
        rec.label = v.label;
        rec.buys = v.buys;
        rec.reason = v.label + " is the most aggressive variant that passes the gate (" + gate + "): " + worstWords(v) +
                     ", " + std::string(verdictName(v.verdict));
    } else if (!out.variants.empty()) {
        // None passes: the verdict is about the least severe variant, ties broken as above.
        const Verdict least =
            std::min_element(out.variants.begin(), out.variants.end(), [](const auto& a, const auto& b) {
                return a.verdict < b.verdict;
            })->verdict;
        pool.clear();
        for (std::size_t i = 0; i < out.variants.size(); ++i)
            if (out.variants[i].verdict == least) pool.push_back(i);
        narrow();
        out.deciding = smallestWorst(pool);
        const VariantResult& v = out.variants[out.deciding];
        rec.reason = "no variant passes the gate (" + gate + "); the best is " + v.label + ", " +
                     std::string(verdictName(v.verdict)) + ": " + worstWords(v);
        rec.buys = "";
    }
    if (!out.variants.empty()) rec.verdict = out.variants[out.deciding].verdict;
    weighServingGain(out, steps, serving, pool);

    // The steps' tasks, and for each task the step that costs it most.
    std::vector<std::pair<std::string, std::pair<double, std::string>>> costliest;
    for (auto& s : steps) {
        s.tasks.clear();
        for (const auto& t : s.report.tasks) {
            s.tasks.push_back(stepTask(s, t));
            if (!t.degradationPct || *t.degradationPct <= 0) continue;
            const std::string name = s.fromLabel + " → " + s.toLabel;
            auto it =
                std::find_if(costliest.begin(), costliest.end(), [&](const auto& c) { return c.first == t.task; });
            if (it == costliest.end())
                costliest.push_back({t.task, {*t.degradationPct, name}});
            else if (*t.degradationPct > it->second.first)
                it->second = {*t.degradationPct, name};
        }
    }
    for (auto& [task, c] : costliest) out.costliestStep.emplace_back(task, c.second);
    out.steps = std::move(steps);
    return out;
}

}  // namespace fp8dash
