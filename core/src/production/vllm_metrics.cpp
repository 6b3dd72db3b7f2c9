// vLLM's metrics across releases: KV-cache dtype families, the engine-by-engine switch, the calculate_kv_scales risk,
// the pick inside the default throughput query, and the words for a query that returns nothing.
#include "fp8dash/core/vllm_metrics.h"
#include "fp8dash/core/untrusted_text.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>
#include <set>

#include "fp8dash/core/kv_scales_advice.h"
#include "fp8dash/core/vllm_metrics_json.h"
#include "text_util.h"

namespace fp8dash {
namespace {

bool startsWith(std::string_view s, std::string_view prefix) {
    return s.size() >= prefix.size() && s.substr(0, prefix.size()) == prefix;
}

// vllm/config/cache.py CacheDType (the literals of vLLM 0.11 to the current release) and the names V0 accepted.
struct KnownDtype {
    std::string_view name;
    KvCacheDtypeFamily family;
    std::string_view description;
    bool perTensorScales;
};
constexpr KnownDtype kKnownDtypes[] = {
    {"auto", KvCacheDtypeFamily::ModelDtype, "the model's dtype", false},
    {"bfloat16", KvCacheDtypeFamily::ModelDtype, "BF16, unquantised", false},
    {"float16", KvCacheDtypeFamily::ModelDtype, "FP16, unquantised", false},
    {"half", KvCacheDtypeFamily::ModelDtype, "FP16, unquantised", false},
    {"float32", KvCacheDtypeFamily::ModelDtype, "FP32, unquantised", false},
    {"float", KvCacheDtypeFamily::ModelDtype, "FP32, unquantised", false},
    {"fp8", KvCacheDtypeFamily::Fp8, "FP8, E4M3 on CUDA and ROCm, one scale per layer", true},
    {"fp8_e4m3", KvCacheDtypeFamily::Fp8, "FP8 E4M3, one scale per layer", true},
    {"fp8_e5m2", KvCacheDtypeFamily::Fp8, "FP8 E5M2, one scale per layer", true},
    {"fp8_inc", KvCacheDtypeFamily::Fp8, "FP8 through Intel Neural Compressor (Gaudi), calibrated scales", false},
    {"fp8_ds_mla", KvCacheDtypeFamily::Fp8, "FP8, DeepSeek MLA layout with a scale per tile", false},
    {"fp8_per_token_head", KvCacheDtypeFamily::Fp8, "FP8 with a scale per token and head", false},
    {"nvfp4", KvCacheDtypeFamily::OtherLowPrecision, "4-bit NVFP4, not FP8", false},
    {"nvfp4_4over6", KvCacheDtypeFamily::OtherLowPrecision, "4-bit NVFP4 with 4-over-6 scales, not FP8", false},
    {"nvfp4_ds_mla", KvCacheDtypeFamily::OtherLowPrecision, "4-bit NVFP4, DeepSeek MLA layout, not FP8", false},
    {"int8_per_token_head", KvCacheDtypeFamily::OtherLowPrecision, "INT8 with a scale per token and head, not FP8",
     false},
    {"int4_per_token_head", KvCacheDtypeFamily::OtherLowPrecision, "INT4 with a scale per token and head, not FP8",
     false},
    {"turboquant_k8v4", KvCacheDtypeFamily::OtherLowPrecision, "TurboQuant, 8-bit K and 4-bit V, not FP8", false},
    {"turboquant_4bit_nc", KvCacheDtypeFamily::OtherLowPrecision, "TurboQuant 4-bit, not FP8", false},
    {"turboquant_k3v4_nc", KvCacheDtypeFamily::OtherLowPrecision, "TurboQuant, 3-bit K and 4-bit V, not FP8", false},
    {"turboquant_3bit_nc", KvCacheDtypeFamily::OtherLowPrecision, "TurboQuant 3-bit, not FP8", false},
};

// The labels that tell one deployment (and engine) from another in cache_config_info. instance and pod are left
// out: a rolling update replaces them while the deployment stays the same.
constexpr std::string_view kDeploymentLabels[] = {"job", "model_name", "engine"};

Labels deploymentKey(const Labels& labels) {
    Labels key;
    for (const auto name : kDeploymentLabels)
        if (auto it = labels.find(std::string(name)); it != labels.end()) key.insert(*it);
    return key;
}

// The series whose labels agree with every pick label they carry (a label a series lacks narrows nothing).
std::vector<Series> narrowedByPick(const std::vector<Series>& series, const Labels& pick) {
    std::vector<Series> out;
    for (const auto& s : series) {
        bool keep = true;
        for (const auto& [k, v] : pick)
            if (auto it = s.labels.find(k); it != s.labels.end() && it->second != v) keep = false;
        if (keep) out.push_back(s);
    }
    return out;
}

std::string promqlString(const std::string& value) {
    std::string out = "\"";
    for (const char c : value) {
        if (c == '\\' || c == '"') out += '\\';
        if (c == '\n') {
            out += "\\n";
            continue;
        }
        out += c;
    }
    return out + "\"";
}

bool identStart(char c) {
    return std::isalpha(static_cast<unsigned char>(c)) || c == '_' || c == ':';
}
bool identChar(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == ':';
}

// Aggregations, binary operators and modifiers: words of PromQL that are not metric names.
bool promqlKeyword(std::string_view w) {
    static const std::set<std::string_view> words = {
        "sum",     "avg",      "min",          "max",         "count",  "stddev",      "stdvar", "topk",
        "bottomk", "quantile", "count_values", "group",       "limitk", "limit_ratio", "by",     "without",
        "on",      "ignoring", "group_left",   "group_right", "offset", "bool",        "and",    "or",
        "unless",  "atan2",    "inf",          "nan",         "Inf",    "NaN"};
    return words.count(w) > 0;
}
bool groupingKeyword(std::string_view w) {
    return w == "by" || w == "without" || w == "on" || w == "ignoring" || w == "group_left" || w == "group_right";
}

// Skips from an opening bracket to just past its closing one, stepping over strings.
std::size_t skipBracketed(std::string_view q, std::size_t i, char open, char close) {
    int depth = 0;
    for (; i < q.size(); ++i) {
        const char c = q[i];
        if (c == '"' || c == '\'' || c == '`') {
            const char quote = c;
            for (++i; i < q.size() && q[i] != quote; ++i)
                if (q[i] == '\\' && quote != '`') ++i;
            continue;
        }
        if (c == open) ++depth;
        if (c == close && --depth == 0) return i + 1;
    }
    return q.size();
}

std::size_t editDistance(std::string_view a, std::string_view b) {
    std::vector<std::size_t> row(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        std::size_t diagonal = row[0];
        row[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j) {
            const std::size_t above = row[j];
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
            diagonal = above;
        }
    }
    return row[b.size()];
}

// "vllm:" for vllm:x; "langfuse_" for langfuse_score_value; the whole name when it has neither.
std::string_view namePrefix(std::string_view name) {
    if (auto colon = name.find(':'); colon != std::string_view::npos) return name.substr(0, colon + 1);
    if (auto underscore = name.find('_'); underscore != std::string_view::npos) return name.substr(0, underscore + 1);
    return name;
}

std::string joined(const std::vector<std::string>& items, const std::string& separator) {
    std::string out;
    for (const auto& item : items) out += (out.empty() ? "" : separator) + item;
    return out;
}

}  // namespace

KvCacheDtypeInfo classifyKvCacheDtype(std::string_view cacheDtype) {
    const std::string name = text::lower(std::string(cacheDtype));
    for (const auto& d : kKnownDtypes)
        if (name == d.name) return {d.family, std::string(d.description), d.perTensorScales};
    // Names of later releases, by the family their prefix announces.
    if (startsWith(name, "fp8")) return {KvCacheDtypeFamily::Fp8, "an FP8 variant fp8dash does not know", false};
    if (startsWith(name, "nvfp4") || startsWith(name, "mxfp4") || startsWith(name, "fp4"))
        return {KvCacheDtypeFamily::OtherLowPrecision, "4-bit floating point, not FP8", false};
    if (startsWith(name, "int8")) return {KvCacheDtypeFamily::OtherLowPrecision, "INT8, not FP8", false};
    if (startsWith(name, "int4")) return {KvCacheDtypeFamily::OtherLowPrecision, "INT4, not FP8", false};
    if (startsWith(name, "turboquant")) return {KvCacheDtypeFamily::OtherLowPrecision, "TurboQuant, not FP8", false};
    return {KvCacheDtypeFamily::Unknown, "a cache dtype fp8dash does not know", false};
}

std::string describeKvCacheDtype(std::string_view cacheDtype) {
    if (cacheDtype == "auto" || cacheDtype == "bfloat16" || cacheDtype == "float16" || cacheDtype == "fp8")
        return std::string(cacheDtype);
    return std::string(cacheDtype) + " (" + classifyKvCacheDtype(cacheDtype).description + ")";
}

std::optional<DetectedChange> detectKvCacheSwitch(const std::vector<Series>& cacheConfigInfo, const Labels& pick) {
    std::map<Labels, std::vector<Series>> groups;
    for (auto& s : narrowedByPick(cacheConfigInfo, pick)) groups[deploymentKey(s.labels)].push_back(std::move(s));
    std::optional<DetectedChange> earliest;
    for (const auto& [key, series] : groups) {
        auto change = detectCacheDtypeChange(series);
        if (change && (!earliest || change->at < earliest->at)) earliest = std::move(change);
    }
    return earliest;
}

std::optional<KvScalesRisk> findKvScalesRisk(const std::vector<Series>& cacheConfigInfo, const Labels& pick) {
    std::optional<KvScalesRisk> risk;
    std::set<std::string> where;
    for (const auto& s : narrowedByPick(cacheConfigInfo, pick)) {
        const auto dtype = s.labels.find("cache_dtype");
        const auto scales = s.labels.find("calculate_kv_scales");
        if (dtype == s.labels.end() || scales == s.labels.end() || s.samples.empty()) continue;
        // vLLM writes str(bool): "False"; newer releases that dropped the field have no label (no risk is claimed).
        if (text::lower(scales->second) != "false" || !classifyKvCacheDtype(dtype->second).perTensorScales) continue;
        const double first = s.samples.front().t;
        if (!risk || first < risk->since) risk = KvScalesRisk{first, dtype->second, {}};
        if (const Labels key = deploymentKey(s.labels); !key.empty()) where.insert(labelsToString(key));
    }
    if (risk) risk->where.assign(where.begin(), where.end());
    return risk;
}

std::string kvScalesRiskText(const KvScalesRisk& risk) {
    return "FP8 KV cache without calculated scales: vllm:cache_config_info shows cache_dtype " +
           describeKvCacheDtype(risk.cacheDtype) + " with calculate_kv_scales=False from " + formatTimeUtc(risk.since) +
           (risk.where.empty() ? std::string() : " on " + joined(risk.where, ", ")) +
           "; unless the checkpoint ships k/v scales vLLM scales K and V by 1.0, and long contexts (> 32K tokens) "
           "accumulate error (on this release --calculate-kv-scales computes them; from vLLM " +
           kVllmReleaseWithoutCalculateKvScales + " on, which removed it, " + kvScalesAdvice() + ")";
}

Json kvScalesRiskToJson(const KvScalesRisk& risk) {
    return Json{{"since", risk.since}, {"cache_dtype", risk.cacheDtype}, {"where", risk.where}};
}

Result<KvScalesRisk> kvScalesRiskFromJson(const Json& j, const std::string& where) {
    if (!j.is_object()) return Error{where + " must be an object"};
    KvScalesRisk risk;
    const auto since = j.find("since");
    if (since == j.end() || !since->is_number() || !std::isfinite(since->get<double>()))
        return Error{where + ".since must be a finite number (unix seconds)"};
    risk.since = since->get<double>();
    const auto dtype = j.find("cache_dtype");
    if (dtype == j.end() || !dtype->is_string()) return Error{where + ".cache_dtype must be a string"};
    risk.cacheDtype = dtype->get<std::string>();
    if (auto places = j.find("where"); places != j.end() && !places->is_null()) {
        if (!places->is_array()) return Error{where + ".where must be a list of strings"};
        for (const auto& e : *places) {
            if (!e.is_string()) return Error{where + ".where must be a list of strings"};
            risk.where.push_back(e.get<std::string>());
        }
    }
    return risk;
}

std::string pickCarriedBy(const std::vector<Series>& series, const std::string& what, const std::string& query,
                          const std::string& pick, const std::function<void(const std::string&)>& notice) {
    auto want = parseSeriesPick(pick);
    if (!want || want->empty() || series.empty()) return pick;
    std::string kept, missing;
    for (const auto& [k, v] : *want) {
        const bool carried =
            std::any_of(series.begin(), series.end(), [&k = k](const Series& s) { return s.labels.count(k) != 0; });
        if (carried)
            kept += (kept.empty() ? "" : ",") + k + "=\"" + v + "\"";
        else
            missing += (missing.empty() ? "" : ", ") + k;
    }
    if (missing.empty()) return pick;
    if (notice)
        notice("--pick " + pick + ": the " + what + " series (" + query + ") has no " + missing +
               " label, so the pick leaves it as it is" + (kept.empty() ? "" : " (narrowed by " + kept + ")"));
    return kept;
}

std::string throughputQueryWithPick(const std::string& query, const Labels& pick) {
    const std::string selector = "vllm:generation_tokens_total";
    if (pick.empty() || query != "sum(rate(" + selector + "[5m]))") return query;
    std::string matchers;
    for (const auto& [k, v] : pick) matchers += (matchers.empty() ? "" : ",") + k + "=" + promqlString(v);
    return "sum(rate(" + selector + "{" + matchers + "}[5m]))";
}

std::vector<std::string> metricNamesInQuery(std::string_view q) {
    std::vector<std::string> names;
    std::size_t i = 0;
    while (i < q.size()) {
        const char c = q[i];
        if (c == '"' || c == '\'' || c == '`') {
            const char quote = c;
            for (++i; i < q.size() && q[i] != quote; ++i)
                if (q[i] == '\\' && quote != '`') ++i;
            ++i;
        } else if (c == '{') {
            i = skipBracketed(q, i, '{', '}');
        } else if (c == '[') {
            i = skipBracketed(q, i, '[', ']');
        } else if (std::isdigit(static_cast<unsigned char>(c)) || c == '.') {
            while (i < q.size() && (identChar(q[i]) || q[i] == '.')) ++i;  // numbers and durations: 0.2, 5m, 1e3
        } else if (identStart(c)) {
            const std::size_t start = i;
            while (i < q.size() && identChar(q[i])) ++i;
            const std::string_view word = q.substr(start, i - start);
            std::size_t next = i;
            while (next < q.size() && std::isspace(static_cast<unsigned char>(q[next]))) ++next;
            if (groupingKeyword(word)) {
                if (next < q.size() && q[next] == '(') i = skipBracketed(q, next, '(', ')');  // label names
            } else if (!promqlKeyword(word) && !(next < q.size() && q[next] == '(')) {
                if (std::find(names.begin(), names.end(), word) == names.end()) names.emplace_back(word);
            }
        } else {
            ++i;
        }
    }
    return names;
}

std::optional<std::string> metricRenameNote(std::string_view name, std::string* successor) {
    struct Rename {
        std::string_view old, now, note;
    };
    // From vLLM's own metric definitions (vllm/v1/metrics/loggers.py) and the release notes.
    static constexpr Rename renames[] = {
        {"vllm:gpu_cache_usage_perc", "vllm:kv_cache_usage_perc", "renamed in vLLM 0.9 and removed in 0.12"},
        {"vllm:gpu_prefix_cache_queries_total", "vllm:prefix_cache_queries_total", "renamed in vLLM 0.9"},
        {"vllm:gpu_prefix_cache_hits_total", "vllm:prefix_cache_hits_total", "renamed in vLLM 0.9"},
        {"vllm:time_per_output_token_seconds", "vllm:inter_token_latency_seconds", "renamed in vLLM V1"},
        {"vllm:cpu_cache_usage_perc", "", "V0 only (V1 keeps no CPU KV cache)"},
        {"vllm:num_requests_swapped", "", "V0 only (V1 does not swap)"},
        {"vllm:gpu_prefix_cache_hit_rate", "vllm:prefix_cache_hits_total",
         "V0 only; in V1 the hit rate is rate(vllm:prefix_cache_hits_total) / rate(vllm:prefix_cache_queries_total)"},
        {"vllm:avg_generation_throughput_toks_per_s", "vllm:generation_tokens_total",
         "V0 only; in V1 throughput is rate(vllm:generation_tokens_total[5m])"},
        {"vllm:avg_prompt_throughput_toks_per_s", "vllm:prompt_tokens_total",
         "V0 only; in V1 it is rate(vllm:prompt_tokens_total[5m])"},
    };
    for (const auto& r : renames) {
        // Histograms are queried by their _bucket/_sum/_count series: the base name decides.
        const bool same = name == r.old || (startsWith(name, r.old) && (name.substr(r.old.size()) == "_bucket" ||
                                                                        name.substr(r.old.size()) == "_sum" ||
                                                                        name.substr(r.old.size()) == "_count"));
        if (!same) continue;
        if (successor)
            *successor = r.now.empty() ? std::string() : std::string(r.now) + std::string(name.substr(r.old.size()));
        if (r.now.empty()) return std::string(name) + " is " + std::string(r.note);
        return std::string(r.old) + " was " + std::string(r.note) +
               (startsWith(r.note, "renamed") ? " (now " + std::string(r.now) + ")" : "");
    }
    return std::nullopt;
}

std::vector<std::string> closestMetricNames(std::string_view missing, const std::vector<std::string>& available,
                                            std::size_t limit) {
    const std::string_view prefix = namePrefix(missing);
    std::string successor;
    metricRenameNote(missing, &successor);
    std::vector<std::pair<std::size_t, std::string>> ranked;
    for (const auto& name : available) {
        if (!startsWith(name, prefix) || name == missing) continue;
        const std::size_t distance = name == successor ? 0 : editDistance(missing, name) + 1;
        ranked.emplace_back(distance, name);
    }
    std::sort(ranked.begin(), ranked.end());
    std::vector<std::string> out;
    for (std::size_t i = 0; i < ranked.size() && i < limit; ++i) out.push_back(ranked[i].second);
    return out;
}

std::string explainEmptyQuery(const PrometheusClient& client, const std::string& what, const std::string& promql,
                              double from, double to, const Labels& pick, const Progress& progress) {
    std::string out = "the " + what + " query returned no series in the chosen range";
    const auto names = metricNamesInQuery(promql);
    if (names.empty()) return out;
    auto inRange = client.labelValues("__name__", {}, from, to, progress);
    if (!inRange) return out + " (the server's metric names could not be listed: " + inRange.error().message + ")";
    for (const auto& name : names) {
        if (std::find(inRange->begin(), inRange->end(), name) != inRange->end()) {
            // The metric is there: the labels (a pick, or matchers in the query) leave nothing.
            for (const auto& [label, value] : pick) {
                auto values = client.labelValues(label, {name}, from, to, progress);
                if (!values) continue;
                // One line per item of the listing, whatever the server's names hold (untrusted_text.h).
                out += "\n  " + oneLine(name + " has no series with " + label + "=\"" + value + "\"; " +
                                        (values->empty() ? "its series carry no " + label + " label"
                                                         : "its " + label + " values: " + joined(*values, ", ")));
            }
            continue;
        }
        out += "\n  the server has no metric " + oneLine(name) + " in this range";
        if (auto note = metricRenameNote(name)) out += "; " + *note;
        const auto closest = closestMetricNames(name, *inRange);
        const std::string prefix(namePrefix(name));
        if (!closest.empty())
            out += "; the closest it has: " + joined(closest, ", ");
        else
            out += "; it has no metric starting with " + prefix + " in this range";
    }
    return out;
}

}  // namespace fp8dash
