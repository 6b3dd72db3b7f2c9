// What makes serving runs comparable, and what a reader of the comparison must be told (DESIGN.md "What FP8 buys":
// same workload, same GPUs, same model; a run whose requests all failed is refused). Problems are blocking where the
// figures would mislead; flags and notes otherwise.
#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "fp8dash/core/fp8_config.h"
#include "fp8dash/core/number_format.h"
#include "fp8dash/core/serving_comparison.h"
#include "serving/serving_words.h"

namespace fp8dash {

namespace {

// Identical datasets and seeds give identical prompts: input lengths may differ only by tokenisation noise. Output
// lengths differ when answers end at EOS (no --ignore-eos): a little is expected, much is another workload.
constexpr double kInputTolerancePct = 2.0;
constexpr double kOutputNotePct = 2.0;
constexpr double kOutputTolerancePct = 10.0;

std::optional<double> meanTokens(const std::vector<ServingRun>& runs, bool input) {
    double sum = 0;
    int n = 0;
    for (const ServingRun& r : runs) {
        if (r.allFailed()) continue;
        const auto v = input ? r.meanInputTokens : r.meanOutputTokens;
        if (v && std::isfinite(*v)) {
            sum += *v;
            ++n;
        }
    }
    if (n == 0) return std::nullopt;
    return sum / n;
}

std::string firstOf(const std::vector<ServingRun>& runs, std::string ServingRun::*field) {
    for (const ServingRun& r : runs)
        if (!(r.*field).empty()) return r.*field;
    return {};
}

std::optional<int> gpusOf(const std::vector<ServingRun>& runs) {
    for (const ServingRun& r : runs)
        if (r.gpuCount) return r.gpuCount;
    return std::nullopt;
}

std::string tokens(double v) {
    return numfmt::grouped(static_cast<std::uint64_t>(std::llround(std::max(0.0, v)))) + " tokens";
}

std::string loadsList(const std::vector<ServingPoint>& points) {
    std::string out;
    for (const ServingPoint& p : points) out += (out.empty() ? "" : ", ") + servingLoadWords(p.load);
    return out.empty() ? "none" : out;
}

void checkWorkload(const ServingVariantInput& base, const ServingVariantInput& cand, ServingComparison& c) {
    const std::string pair = " (" + base.label + ") vs ";
    for (bool input : {true, false}) {
        const auto a = meanTokens(base.runs, input), b = meanTokens(cand.runs, input);
        if (!a || !b || *a <= 0) continue;
        const double diff = std::fabs(*b - *a) / *a * 100;
        const std::string what = input ? "mean input " : "mean output ";
        const std::string figures = what + tokens(*a) + pair + tokens(*b) + " (" + cand.label + ")";
        if (diff > (input ? kInputTolerancePct : kOutputTolerancePct))
            c.problems.push_back({true, "not comparable: different workloads, " + figures});
        else if (!input && diff > kOutputNotePct)
            c.notes.push_back("output lengths differ by " + numfmt::fixed(diff, 1) + "%: " + figures +
                              "; answers ended at EOS (benchmark with --ignore-eos for equal lengths)");
    }
    const std::string da = firstOf(base.runs, &ServingRun::dataset), db = firstOf(cand.runs, &ServingRun::dataset);
    if (!da.empty() && !db.empty() && da != db)
        c.problems.push_back({true, "not comparable: different datasets, " + da + pair + db + " (" + cand.label + ")"});
}

void checkHardware(const ServingVariantInput& base, const ServingVariantInput& cand, ServingComparison& c) {
    const std::string pair = " (" + base.label + ") vs ";
    const auto ga = gpusOf(base.runs), gb = gpusOf(cand.runs);
    if (ga && gb && *ga != *gb)
        c.problems.push_back({true, "not comparable: different GPU counts, " + std::to_string(*ga) + pair +
                                        std::to_string(*gb) + " (" + cand.label + ")"});
    const std::string na = firstOf(base.runs, &ServingRun::gpuName), nb = firstOf(cand.runs, &ServingRun::gpuName);
    if (!na.empty() && !nb.empty() && na != nb)
        c.problems.push_back({true, "not comparable: different GPUs, " + na + pair + nb + " (" + cand.label + ")"});
}

void checkModel(const ServingVariantInput& base, const ServingVariantInput& cand, ServingComparison& c) {
    const std::string ma = firstOf(base.runs, &ServingRun::model), mb = firstOf(cand.runs, &ServingRun::model);
    const std::string ka = baseModelKey(ma), kb = baseModelKey(mb);
    if (!ka.empty() && !kb.empty() && ka != kb)
        c.problems.push_back({true, "not comparable: different models, " + servingModelDisplayName(ma) + " (" +
                                        base.label + ") vs " + servingModelDisplayName(mb) + " (" + cand.label + ")"});
}

void checkLoads(const ServingVariantResult& base, const ServingVariantInput& in, const ServingVariantResult& cand,
                ServingComparison& c) {
    const bool anyOnAxis = std::any_of(in.runs.begin(), in.runs.end(), [&](const ServingRun& r) {
        return r.load.axis == c.axis || r.load.axis == LoadAxis::Unbounded;
    });
    if (!in.runs.empty() && !anyOnAxis) {
        c.problems.push_back({true, "not comparable: " + cand.label + " was measured by " +
                                        loadAxisName(in.runs.front().load.axis) + ", " + base.label + " by " +
                                        loadAxisName(c.axis) + ": no load in common"});
        return;
    }
    const bool common =
        std::any_of(cand.points.begin(), cand.points.end(), [](const ServingPoint& p) { return p.hasBaseline; });
    if (!cand.points.empty() && !base.points.empty() && !common)
        c.problems.push_back({true, "no load point in common: " + base.label + " at " + loadsList(base.points) + "; " +
                                        cand.label + " at " + loadsList(cand.points)});
}

void flagPoints(const ServingVariantInput& in, ServingVariantResult& v, const ServingComparison& c) {
    const long long offAxis = std::count_if(in.runs.begin(), in.runs.end(), [&](const ServingRun& r) {
        return r.load.axis != c.axis && r.load.axis != LoadAxis::Unbounded;
    });
    if (offAxis > 0 && offAxis < static_cast<long long>(in.runs.size()))
        v.flags.push_back(std::to_string(offAxis) + (offAxis == 1 ? " run" : " runs") + " measured by another load (" +
                          "not " + loadAxisName(c.axis) + ") left out");
    for (const ServingPoint& p : v.points) {
        const std::string at = " at " + servingLoadWords(p.load);
        if (p.allFailed)
            v.flags.push_back("every request failed" + at + " (completed 0, failed " +
                              numfmt::grouped(static_cast<std::uint64_t>(p.failed)) +
                              "): refused, counted as missing the SLO");
        else if (const long long sent = p.completed + p.failed;
                 sent > 0 && static_cast<double>(p.failed) / static_cast<double>(sent) > c.options.failedShareFlag)
            v.flags.push_back(numfmt::fixed(100.0 * static_cast<double>(p.failed) / static_cast<double>(sent), 1) +
                              "% of requests failed" + at + " (" +
                              numfmt::grouped(static_cast<std::uint64_t>(p.failed)) + " of " +
                              numfmt::grouped(static_cast<std::uint64_t>(sent)) + ")");
    }
}

}  // namespace

LoadAxis servingAxisOf(const std::vector<ServingRun>& runs) {
    std::map<LoadAxis, int> count;
    for (const ServingRun& r : runs)
        if (r.load.axis != LoadAxis::Unbounded) ++count[r.load.axis];
    if (count.empty()) return LoadAxis::Unbounded;
    return count[LoadAxis::RequestRate] > count[LoadAxis::Concurrency] ? LoadAxis::RequestRate : LoadAxis::Concurrency;
}

void addServingProblems(const std::vector<ServingVariantInput>& inputs, ServingComparison& c) {
    std::set<std::string> tools;
    for (std::size_t i = 0; i < inputs.size(); ++i) {
        const ServingVariantInput& in = inputs[i];
        ServingVariantResult& v = c.variants[i];
        if (in.runs.empty()) c.problems.push_back({true, in.label + ": no serving results"});
        for (const ServingRun& r : in.runs) tools.insert(servingToolName(r.tool));
        flagPoints(in, v, c);
        if (i == 0 || in.runs.empty() || inputs.front().runs.empty()) continue;
        checkModel(inputs.front(), in, c);
        checkWorkload(inputs.front(), in, c);
        checkHardware(inputs.front(), in, c);
        checkLoads(c.variants.front(), in, v, c);
    }
    if (tools.size() > 1) {
        std::string list;
        for (const std::string& t : tools) list += (list.empty() ? "" : ", ") + t;
        c.notes.push_back("tools mixed (" + list +
                          "): compared through the mapped metrics (docs/serving.md); GuideLLM has no pooled "
                          "inter-chunk latency");
    }
    // One run per point cannot give an interval: said once, plainly, with what the noise rule does instead.
    bool replicated = false;
    for (const ServingVariantResult& v : c.variants)
        for (const ServingPoint& p : v.points) replicated = replicated || p.replicates > 1;
    if (c.variants.size() > 1 && !replicated)
        c.notes.push_back("one run per load: no interval for any change; a gain under \u00b1" +
                          numfmt::general(c.options.noisePct, 3) +
                          "% is read as run-to-run spread (repeat each load 3 times to measure the spread instead)");
    for (std::size_t k = 0; k < c.slo.targets.size(); ++k) {
        bool anywhere = false;
        for (const ServingVariantResult& v : c.variants)
            for (const ServingPoint& p : v.points)
                if (k < p.sloValues.size() && p.sloValues[k]) anywhere = true;
        if (!anywhere)
            c.notes.push_back("no file gives " + serving_words::statisticWords(c.slo.targets[k]) +
                              ": set the SLO on a statistic the files have");
    }
}

}  // namespace fp8dash
