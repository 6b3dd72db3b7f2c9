// The SLO's text form, the words of the serving comparison and its stable JSON (docs/serving.md "JSON": keys are
// only ever added; null where the files have no such figure).
#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "fp8dash/core/number_format.h"
#include "fp8dash/core/serving_comparison.h"
#include "serving/serving_words.h"
#include "text_util.h"

namespace fp8dash {

namespace {

std::optional<double> numberPrefix(const std::string& s, std::size_t& used) {
    if (s.empty() || !(std::isdigit(static_cast<unsigned char>(s[0])) || s[0] == '.')) return std::nullopt;
    char* end = nullptr;
    const double v = std::strtod(s.c_str(), &end);
    used = static_cast<std::size_t>(end - s.c_str());
    if (used == 0 || !std::isfinite(v)) return std::nullopt;
    return v;
}

Result<SloTarget> parseTarget(const std::string& part) {
    const std::string where = "SLO target \"" + part + "\": ";
    const auto eq = part.find('=');
    if (eq == std::string::npos) return Error{where + "expected metric_statistic=limit, e.g. ttft_p99=2000ms"};
    const std::string name = text::trim(std::string_view(part).substr(0, eq));
    const std::string limit = text::trim(std::string_view(part).substr(eq + 1));
    const auto us = name.find('_');
    if (us == std::string::npos) return Error{where + "expected metric_statistic, e.g. ttft_p99 or tpot_mean"};
    SloTarget t;
    const std::string metric = name.substr(0, us), stat = name.substr(us + 1);
    if (metric == "ttft")
        t.metric = ServingMetric::Ttft;
    else if (metric == "tpot")
        t.metric = ServingMetric::Tpot;
    else if (metric == "itl")
        t.metric = ServingMetric::Itl;
    else if (metric == "e2el" || metric == "e2e")
        t.metric = ServingMetric::E2el;
    else
        return Error{where + "unknown metric \"" + metric + "\" (ttft, tpot, itl or e2el)"};
    std::size_t used = 0;
    if (stat == "mean")
        t.percentile = 0;
    else if (stat == "median")
        t.percentile = 50;
    else if (stat.size() > 1 && stat[0] == 'p') {
        const auto p = numberPrefix(stat.substr(1), used);
        if (!p || used != stat.size() - 1 || *p <= 0 || *p >= 100)
            return Error{where + "the statistic \"" + stat + "\" is not a percentile between p0 and p100"};
        t.percentile = *p;
    } else {
        return Error{where + "unknown statistic \"" + stat + "\" (mean, median or a percentile such as p99)"};
    }
    const auto v = numberPrefix(limit, used);
    if (!v || *v <= 0) return Error{where + "the limit \"" + limit + "\" is not a positive number of ms or s"};
    const std::string unit = limit.substr(used);
    if (unit.empty() || unit == "ms")
        t.ms = *v;
    else if (unit == "s")
        t.ms = *v * 1000;
    else
        return Error{where + "unknown unit \"" + unit + "\" (ms or s)"};
    return t;
}

nlohmann::ordered_json opt(const std::optional<double>& v) {
    if (!v || !std::isfinite(*v)) return nullptr;
    return *v;
}

nlohmann::ordered_json loadJson(const ServingLoad& l) {
    nlohmann::ordered_json j = nlohmann::ordered_json::object();
    if (l.axis == LoadAxis::Unbounded) {
        j["unbounded"] = true;
    } else {
        const bool whole = std::floor(l.value) == l.value && std::fabs(l.value) < 1e15;
        nlohmann::ordered_json v =
            whole ? nlohmann::ordered_json(static_cast<long long>(l.value)) : nlohmann::ordered_json(l.value);
        j[l.axis == LoadAxis::Concurrency ? "concurrency" : "rate"] = v;
    }
    if (l.concurrencyCap) j["max_concurrency"] = static_cast<long long>(*l.concurrencyCap);
    return j;
}

nlohmann::ordered_json latencyJson(const ServingPointFigures::Latency& l) {
    return {{"mean", opt(l.mean)}, {"p50", opt(l.p50)}, {"p90", opt(l.p90)}, {"p99", opt(l.p99)}};
}

nlohmann::ordered_json deltaJson(const ServingPoint::LatencyDelta& d) {
    return {{"mean", opt(d.mean.pct)}, {"p50", opt(d.p50.pct)}, {"p90", opt(d.p90.pct)}, {"p99", opt(d.p99.pct)}};
}

void addInterval(nlohmann::ordered_json& j, const std::string& key, const ServingDelta& d) {
    if (d.low && d.high) j[key] = {*d.low, *d.high};
}

nlohmann::ordered_json pointJson(const ServingPoint& p) {
    nlohmann::ordered_json j;
    j["load"] = loadJson(p.load);
    j["replicates"] = p.replicates;
    j["completed"] = p.completed;
    j["failed"] = p.failed;
    j["all_failed"] = p.allFailed;
    j["output_tokens_per_s"] = opt(p.figures.outputTokensPerS);
    j["total_tokens_per_s"] = opt(p.figures.totalTokensPerS);
    j["requests_per_s"] = opt(p.figures.requestsPerS);
    j["ttft_ms"] = latencyJson(p.figures.ttft);
    j["tpot_ms"] = latencyJson(p.figures.tpot);
    j["itl_ms"] = latencyJson(p.figures.itl);
    j["e2el_ms"] = latencyJson(p.figures.e2el);
    j["goodput_requests_per_s"] = opt(p.goodputRequestsPerS);
    j["meets_slo"] = p.meetsSlo ? nlohmann::ordered_json(*p.meetsSlo) : nlohmann::ordered_json(nullptr);
    j["missed"] = p.missed;
    if (!p.hasBaseline) {
        j["delta_pct"] = nullptr;
        return j;
    }
    j["delta_pct"] = {{"output_tokens_per_s", opt(p.outputTokensPerS.pct)},
                      {"total_tokens_per_s", opt(p.totalTokensPerS.pct)},
                      {"requests_per_s", opt(p.requestsPerS.pct)},
                      {"ttft_ms", deltaJson(p.ttft)},
                      {"tpot_ms", deltaJson(p.tpot)},
                      {"itl_ms", deltaJson(p.itl)},
                      {"e2el_ms", deltaJson(p.e2el)}};
    nlohmann::ordered_json iv = nlohmann::ordered_json::object();
    addInterval(iv, "output_tokens_per_s", p.outputTokensPerS);
    addInterval(iv, "total_tokens_per_s", p.totalTokensPerS);
    addInterval(iv, "requests_per_s", p.requestsPerS);
    j["delta_interval_pct"] = iv;
    return j;
}

nlohmann::ordered_json capacityJson(const ServingCapacity& c) {
    nlohmann::ordered_json j;
    j["axis"] = loadAxisName(c.axis);
    j["judged"] = c.judged;
    j["load"] = opt(c.load);
    j["first_miss_at"] = opt(c.firstMissAt);
    j["met_again_at"] = c.metAgainAt;
    j["interpolated"] = opt(c.interpolated);
    j["output_tokens_per_s"] = opt(c.outputTokensPerS);
    j["reason"] = c.judged ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(c.unjudgedReason);
    return j;
}

nlohmann::ordered_json gainJson(const std::optional<ServingGain>& g) {
    if (!g) return nullptr;
    return {
        {"measured", g->measured},        {"pct", opt(g->pct)},      {"low", opt(g->low)}, {"high", opt(g->high)},
        {"within_noise", g->withinNoise}, {"negative", g->negative}, {"basis", g->basis},  {"at_load", opt(g->atLoad)},
        {"sentence", g->sentence}};
}

}  // namespace

Result<ServingSlo> parseServingSlo(std::string_view text) {
    ServingSlo slo;
    std::size_t start = 0;
    const std::string all(text);
    while (start <= all.size()) {
        const auto comma = all.find(',', start);
        const std::string part = text::trim(
            std::string_view(all).substr(start, comma == std::string::npos ? std::string::npos : comma - start));
        if (!part.empty()) {
            auto t = parseTarget(part);
            if (!t) return t.error();
            for (const SloTarget& have : slo.targets)
                if (have.key() == t->key()) return Error{"SLO: " + t->key() + " is given twice"};
            slo.targets.push_back(*t);
        }
        if (comma == std::string::npos) break;
        start = comma + 1;
    }
    if (slo.targets.empty()) return Error{"SLO \"" + all + "\": no target, e.g. ttft_p99=2000ms,tpot_p99=50ms"};
    return slo;
}

std::string SloTarget::key() const {
    std::string stat = percentile == 0 ? "mean" : "p" + numfmt::general(percentile, 10);
    return std::string(servingMetricKey(metric)) + "_" + stat;
}

std::string SloTarget::words() const {
    return serving_words::statisticWords(*this) + " \u2264 " + serving_words::limitMs(ms);
}

std::string ServingSlo::text() const {
    std::string out;
    for (const SloTarget& t : targets)
        out += (out.empty() ? "" : ",") + t.key() + "=" + numfmt::general(t.ms, 12) + "ms";
    return out;
}

std::string ServingSlo::words() const {
    std::string out;
    for (std::size_t i = 0; i < targets.size(); ++i)
        out += (i == 0 ? "" : i + 1 == targets.size() ? " and " : ", ") + targets[i].words();
    return out;
}

std::string servingLoadValueWords(LoadAxis axis, double value, bool long_) {
    const std::string n = serving_words::loadCount(value);
    switch (axis) {
        case LoadAxis::Concurrency:
            return n + (long_ ? (value == 1 ? " concurrent request" : " concurrent requests") : " concurrent");
        case LoadAxis::RequestRate:
            return n + " req/s";
        case LoadAxis::Unbounded:
            return long_ ? "all requests at once" : "unbounded";
    }
    return n;
}

std::string servingLoadWords(const ServingLoad& load, bool long_) {
    return servingLoadValueWords(load.axis, load.value, long_);
}

nlohmann::ordered_json servingToJson(const ServingComparison& c) {
    nlohmann::ordered_json j;
    if (c.slo.empty()) {
        j["slo"] = nullptr;
    } else {
        nlohmann::ordered_json targets = nlohmann::ordered_json::array();
        for (const SloTarget& t : c.slo.targets)
            targets.push_back({{"metric", servingMetricKey(t.metric)},
                               {"statistic", t.percentile == 0 ? "mean" : "p" + numfmt::general(t.percentile, 10)},
                               {"ms", t.ms}});
        j["slo"] = {{"text", c.slo.text()}, {"targets", targets}};
    }
    j["axis"] = loadAxisName(c.axis);
    nlohmann::ordered_json variants = nlohmann::ordered_json::array();
    for (const ServingVariantResult& v : c.variants) {
        nlohmann::ordered_json jv;
        jv["label"] = v.label;
        jv["model"] = v.model;
        jv["tool"] = v.tools.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(v.tools.front());
        jv["tools"] = v.tools;
        jv["served"] = {{"quantization", v.quantization.empty() ? nlohmann::ordered_json(nullptr)
                                                                : nlohmann::ordered_json(v.quantization)},
                        {"kv_cache_dtype", v.kvCacheDtype.empty() ? nlohmann::ordered_json(nullptr)
                                                                  : nlohmann::ordered_json(v.kvCacheDtype)},
                        {"evidence", v.servedEvidence}};
        jv["gpus_per_replica"] = v.gpus ? nlohmann::ordered_json(*v.gpus) : nlohmann::ordered_json(nullptr);
        nlohmann::ordered_json points = nlohmann::ordered_json::array();
        for (const ServingPoint& p : v.points) points.push_back(pointJson(p));
        jv["points"] = points;
        jv["capacity"] = capacityJson(v.capacity);
        jv["gain"] = gainJson(v.gain);
        jv["replicas"] = v.replicas ? nlohmann::ordered_json(*v.replicas) : nlohmann::ordered_json(nullptr);
        jv["cost_per_million_output_tokens"] = opt(v.costPerMillionOutputTokens);
        jv["flags"] = v.flags;
        variants.push_back(jv);
    }
    j["variants"] = variants;
    nlohmann::ordered_json problems = nlohmann::ordered_json::array();
    for (const ServingProblem& p : c.problems) problems.push_back({{"blocking", p.blocking}, {"text", p.text}});
    j["problems"] = problems;
    j["notes"] = c.notes;
    j["target_load"] = opt(c.options.targetLoad);
    j["gpu_hour_cost"] = opt(c.options.gpuHourCost);
    j["noise_pct"] = c.options.noisePct;
    return j;
}

namespace serving_words {

std::string ms(double v) {
    if (!std::isfinite(v)) return "n/a";
    if (std::fabs(v) >= 100) return numfmt::grouped(static_cast<std::uint64_t>(std::llround(std::fabs(v)))) + " ms";
    return numfmt::fixed(v, std::fabs(v) >= 10 ? 1 : 2) + " ms";
}

std::string limitMs(double v) {
    if (std::floor(v) == v && v >= 0 && v < 1e15) return numfmt::grouped(static_cast<std::uint64_t>(v)) + " ms";
    return numfmt::general(v, 6) + " ms";
}

std::string pct(double v) {
    return numfmt::signedFixed(v, 1) + "%";
}

std::string statisticWords(const SloTarget& t) {
    static const char* names[] = {"TTFT", "TPOT", "ITL", "E2E latency"};
    const std::string stat = t.percentile == 0 ? "mean" : "p" + numfmt::general(t.percentile, 10);
    return stat + " " + names[static_cast<int>(t.metric)];
}

std::string loadCount(double v) {
    if (std::floor(v) == v && std::fabs(v) < 1e15) return numfmt::grouped(static_cast<std::uint64_t>(std::fabs(v)));
    return numfmt::general(v, 4);
}

namespace {

std::string capacityWords(const ServingCapacity& c) {
    return (c.firstMissAt ? "" : "at least ") + loadCount(*c.load);
}

std::string notMeasured(const ServingComparison& c, const ServingVariantResult& from, const ServingVariantResult& to) {
    if (c.slo.empty())
        return to.label + ": no load measured for both it and " + from.label + ": the gain was not measured";
    if (!to.capacity.judged)
        return to.label + ": its capacity at the SLO was not judged (" + to.capacity.unjudgedReason + ")";
    if (!from.capacity.judged)
        return to.label + ": " + from.label + "'s capacity at the SLO was not judged (" + from.capacity.unjudgedReason +
               ")";
    if (!to.capacity.load && !from.capacity.load)
        return "neither " + from.label + " nor " + to.label + " meets " + c.slo.words() + " at any measured load";
    if (!to.capacity.load) return to.label + " misses " + c.slo.words() + " at every measured load";
    return to.label + " meets " + c.slo.words() + " up to " + servingLoadValueWords(c.axis, *to.capacity.load, true) +
           "; " + from.label + " misses it at every measured load";
}

}  // namespace

std::string gainSentence(const ServingComparison& c, const ServingVariantResult& from, const ServingVariantResult& to,
                         const ServingGain& g) {
    if (!g.measured || !g.pct) return notMeasured(c, from, to);
    std::string figure = pct(*g.pct) + " " + g.basis;
    if (g.low && g.high) figure += " (95% interval " + pct(*g.low) + " to " + pct(*g.high) + ")";
    if (g.withinNoise) {
        const std::string why = g.low ? "its interval includes no change"
                                      : "under the \u00b1" + numfmt::general(c.options.noisePct, 3) +
                                            "% that one run each cannot tell from run-to-run spread";
        return to.label + " buys nothing measurable over " + from.label + ": " + figure + ", " + why;
    }
    if (g.negative) return to.label + " is slower than " + from.label + " here: " + figure;
    std::string s = to.label + " buys " + figure + " against " + from.label;
    const ServingCapacity& a = from.capacity;
    const ServingCapacity& b = to.capacity;
    if (!c.slo.empty() && a.load && b.load && *a.load != *b.load) {
        s += ", and serves " + capacityWords(b) + " instead of " + capacityWords(a) + " " +
             (c.axis == LoadAxis::Concurrency ? "concurrent requests" : "req/s");
        if (from.replicas && to.replicas && c.options.targetLoad)
            s += ": " + std::to_string(*to.replicas) + (*to.replicas == 1 ? " replica" : " replicas") + " instead of " +
                 std::to_string(*from.replicas) + " for " + servingLoadValueWords(c.axis, *c.options.targetLoad, true);
    }
    return s;
}

}  // namespace serving_words

}  // namespace fp8dash
