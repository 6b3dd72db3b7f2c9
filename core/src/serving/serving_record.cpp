// The comparison file's "serving" section (serving_record.h): runs written with their figures (never per-request
// arrays), read back with errors that name the field.
#include "fp8dash/core/serving_record.h"

#include <algorithm>
#include <cmath>

namespace fp8dash {

namespace {

const char* toolKey(ServingTool t) {
    switch (t) {
        case ServingTool::VllmBench:
            return "vllm";
        case ServingTool::GuideLlm:
            return "guidellm";
        case ServingTool::AiPerf:
            return "aiperf";
        case ServingTool::GenAiPerf:
            return "genai-perf";
    }
    return "vllm";
}

Json recordNumber(const std::optional<double>& v) {
    return v && std::isfinite(*v) ? Json(*v) : Json(nullptr);
}

Json latencyToJson(const LatencyStats& s) {
    Json p = Json::array();
    for (const auto& [q, v] : s.percentiles) p.push_back({q, v});
    return {{"mean", recordNumber(s.mean)},
            {"median", recordNumber(s.median)},
            {"std", recordNumber(s.stdDev)},
            {"percentiles", p}};
}

Json runToJson(const ServingRun& r) {
    Json j;
    j["source"] = r.source;
    j["tool"] = toolKey(r.tool);
    j["tool_version"] = r.toolVersion;
    j["format"] = r.formatLabel;
    j["date"] = r.date;
    j["model"] = r.model;
    j["label"] = r.label;
    Json meta = Json::array();
    for (const auto& [k, v] : r.metadata) meta.push_back({k, v});
    j["metadata"] = meta;
    j["run_number"] = r.runNumber ? Json(*r.runNumber) : Json(nullptr);
    j["sweep_combination"] = r.sweepCombination;
    j["load"] = {{"axis", loadAxisName(r.load.axis)},
                 {"value", r.load.value},
                 {"max_concurrency", recordNumber(r.load.concurrencyCap)}};
    j["dataset"] = r.dataset;
    j["mean_input_tokens"] = recordNumber(r.meanInputTokens);
    j["mean_output_tokens"] = recordNumber(r.meanOutputTokens);
    j["num_prompts"] = r.numPrompts ? Json(*r.numPrompts) : Json(nullptr);
    j["gpu_count"] = r.gpuCount ? Json(*r.gpuCount) : Json(nullptr);
    j["gpu_name"] = r.gpuName;
    j["completed"] = r.completed;
    j["failed"] = r.failed;
    j["duration_s"] = recordNumber(r.durationS);
    j["output_tokens_per_s"] = recordNumber(r.outputTokensPerS);
    j["total_tokens_per_s"] = recordNumber(r.totalTokensPerS);
    j["requests_per_s"] = recordNumber(r.requestsPerS);
    j["goodput_requests_per_s"] = recordNumber(r.goodputRequestsPerS);
    j["ttft_ms"] = latencyToJson(r.ttft);
    j["tpot_ms"] = latencyToJson(r.tpot);
    j["itl_ms"] = latencyToJson(r.itl);
    j["e2el_ms"] = latencyToJson(r.e2el);
    j["quantization"] = r.quantization;
    j["kv_cache_dtype"] = r.kvCacheDtype;
    j["served_evidence"] = r.servedEvidence;
    j["warnings"] = r.warnings;
    return j;
}

// Reading: every field optional (null or absent = not recorded), of the right type when present.
struct Reader {
    const Json& j;
    std::string where;

    Status bad(const char* key, const char* expected) const {
        return Error{where + "." + key + " must be " + expected};
    }
    Status str(const char* key, std::string& out) const {
        const auto it = j.find(key);
        if (it == j.end() || it->is_null()) return success();
        if (!it->is_string()) return bad(key, "a string");
        out = it->get<std::string>();
        return success();
    }
    Status num(const char* key, std::optional<double>& out) const {
        const auto it = j.find(key);
        if (it == j.end() || it->is_null()) return success();
        if (!it->is_number()) return bad(key, "a number or null");
        out = it->get<double>();
        return success();
    }
    Status count(const char* key, long long& out) const {
        const auto it = j.find(key);
        if (it == j.end() || it->is_null()) return success();
        if (!it->is_number_integer() || it->get<long long>() < 0) return bad(key, "a whole number of at least 0");
        out = it->get<long long>();
        return success();
    }
};

Result<LatencyStats> latencyFromJson(const Json& j, const std::string& where) {
    LatencyStats s;
    if (j.is_null()) return s;
    if (!j.is_object()) return Error{where + " must be an object"};
    const Reader r{j, where};
    for (auto [key, out] : {std::pair{"mean", &s.mean}, {"median", &s.median}, {"std", &s.stdDev}})
        if (auto ok = r.num(key, *out); !ok) return ok.error();
    if (const auto p = j.find("percentiles"); p != j.end() && !p->is_null()) {
        if (!p->is_array()) return Error{where + ".percentiles must be a list of [percentile, ms]"};
        for (const Json& e : *p) {
            if (!e.is_array() || e.size() != 2 || !e[0].is_number() || !e[1].is_number())
                return Error{where + ".percentiles must be a list of [percentile, ms]"};
            s.percentiles.emplace_back(e[0].get<double>(), e[1].get<double>());
        }
    }
    return s;
}

Status loadFromJson(const Json& j, const std::string& where, ServingLoad& load) {
    if (!j.is_object()) return Error{where + " must be an object"};
    const auto axis = j.find("axis");
    const std::string a = axis != j.end() && axis->is_string() ? axis->get<std::string>() : "";
    if (a == "concurrency")
        load.axis = LoadAxis::Concurrency;
    else if (a == "rate")
        load.axis = LoadAxis::RequestRate;
    else if (a == "unbounded")
        load.axis = LoadAxis::Unbounded;
    else
        return Error{where + ".axis must be \"concurrency\", \"rate\" or \"unbounded\""};
    std::optional<double> value;
    const Reader r{j, where};
    if (auto ok = r.num("value", value); !ok) return ok.error();
    if (auto ok = r.num("max_concurrency", load.concurrencyCap); !ok) return ok.error();
    if (load.axis != LoadAxis::Unbounded && (!value || !(*value > 0)))
        return Error{where + ".value must be a positive number"};
    load.value = value.value_or(0);
    return success();
}

Status intField(const Reader& r, const char* key, std::optional<int>& out) {
    std::optional<double> v;
    if (auto ok = r.num(key, v); !ok) return ok;
    if (v) {
        if (*v != std::floor(*v) || *v < 0 || *v > 1e6) return r.bad(key, "a whole number");
        out = static_cast<int>(*v);
    }
    return success();
}

Result<ServingRun> runFromJson(const Json& j, const std::string& where) {
    if (!j.is_object()) return Error{where + " must be an object"};
    ServingRun run;
    const Reader r{j, where};
    std::string tool;
    if (auto ok = r.str("tool", tool); !ok) return ok.error();
    if (tool == "vllm" || tool.empty())
        run.tool = ServingTool::VllmBench;
    else if (tool == "guidellm")
        run.tool = ServingTool::GuideLlm;
    else if (tool == "aiperf")
        run.tool = ServingTool::AiPerf;
    else if (tool == "genai-perf")
        run.tool = ServingTool::GenAiPerf;
    else
        return Error{where + ".tool \"" + tool + "\" is not vllm, guidellm, aiperf or genai-perf"};
    for (auto [key, out] : {std::pair{"source", &run.source},
                            {"tool_version", &run.toolVersion},
                            {"format", &run.formatLabel},
                            {"date", &run.date},
                            {"model", &run.model},
                            {"label", &run.label},
                            {"sweep_combination", &run.sweepCombination},
                            {"dataset", &run.dataset},
                            {"gpu_name", &run.gpuName},
                            {"quantization", &run.quantization},
                            {"kv_cache_dtype", &run.kvCacheDtype},
                            {"served_evidence", &run.servedEvidence}})
        if (auto ok = r.str(key, *out); !ok) return ok.error();
    for (auto [key, out] : {std::pair{"mean_input_tokens", &run.meanInputTokens},
                            {"mean_output_tokens", &run.meanOutputTokens},
                            {"duration_s", &run.durationS},
                            {"output_tokens_per_s", &run.outputTokensPerS},
                            {"total_tokens_per_s", &run.totalTokensPerS},
                            {"requests_per_s", &run.requestsPerS},
                            {"goodput_requests_per_s", &run.goodputRequestsPerS}})
        if (auto ok = r.num(key, *out); !ok) return ok.error();
    if (auto ok = r.count("completed", run.completed); !ok) return ok.error();
    if (auto ok = r.count("failed", run.failed); !ok) return ok.error();
    if (auto ok = intField(r, "run_number", run.runNumber); !ok) return ok.error();
    if (auto ok = intField(r, "gpu_count", run.gpuCount); !ok) return ok.error();
    std::optional<double> prompts;
    if (auto ok = r.num("num_prompts", prompts); !ok) return ok.error();
    if (prompts) run.numPrompts = static_cast<long long>(*prompts);
    if (const auto l = j.find("load"); l != j.end()) {
        if (auto ok = loadFromJson(*l, where + ".load", run.load); !ok) return ok.error();
    } else {
        return Error{where + ".load is missing"};
    }
    for (auto [key, out] :
         {std::pair{"ttft_ms", &run.ttft}, {"tpot_ms", &run.tpot}, {"itl_ms", &run.itl}, {"e2el_ms", &run.e2el}})
        if (const auto it = j.find(key); it != j.end()) {
            auto s = latencyFromJson(*it, where + "." + key);
            if (!s) return s.error();
            *out = std::move(s).value();
        }
    if (const auto m = j.find("metadata"); m != j.end() && !m->is_null()) {
        if (!m->is_array()) return Error{where + ".metadata must be a list of [key, value]"};
        for (const Json& e : *m) {
            if (!e.is_array() || e.size() != 2 || !e[0].is_string() || !e[1].is_string())
                return Error{where + ".metadata must be a list of [key, value] strings"};
            run.metadata.emplace_back(e[0].get<std::string>(), e[1].get<std::string>());
        }
    }
    if (const auto w = j.find("warnings"); w != j.end() && w->is_array())
        for (const Json& e : *w)
            if (e.is_string()) run.warnings.push_back(e.get<std::string>());
    return run;
}

}  // namespace

bool ServingSection::operator==(const ServingSection& o) const {
    return servingSectionToJson(*this) == servingSectionToJson(o);
}

ServingComparison compareServingSection(const ServingSection& s, const std::vector<std::string>& labels) {
    std::vector<ServingVariantInput> ordered;
    for (const std::string& l : labels)
        for (const ServingVariantInput& v : s.variants)
            if (v.label == l) ordered.push_back(v);
    ServingComparison c = compareServing(ordered, s.options);
    for (const ServingVariantInput& v : s.variants)
        if (std::find(labels.begin(), labels.end(), v.label) == labels.end())
            c.problems.push_back({true, "serving results for \"" + v.label + "\", which is no run of this comparison"});
    if (!labels.empty() && (ordered.empty() || ordered.front().label != labels.front()))
        c.problems.push_back({true, "no serving results for the baseline, " + labels.front() +
                                        ": the gain of each variant is measured against it"});
    return c;
}

Json servingSectionToJson(const ServingSection& s) {
    Json j;
    const ServingOptions& o = s.options;
    j["options"] = {{"slo", o.slo.empty() ? Json(nullptr) : Json(o.slo.text())},
                    {"target_load", recordNumber(o.targetLoad)},
                    {"gpu_hour_cost", recordNumber(o.gpuHourCost)},
                    {"gpus_per_replica", o.gpusPerReplica ? Json(*o.gpusPerReplica) : Json(nullptr)},
                    {"noise_pct", o.noisePct}};
    Json variants = Json::array();
    for (const ServingVariantInput& v : s.variants) {
        Json runs = Json::array();
        for (const ServingRun& r : v.runs) runs.push_back(runToJson(r));
        variants.push_back({{"label", v.label}, {"runs", runs}});
    }
    j["variants"] = variants;
    return j;
}

Result<ServingSection> parseServingSectionJson(const Json& j, const std::string& where) {
    if (!j.is_object()) return Error{where + " must be an object"};
    ServingSection s;
    if (const auto o = j.find("options"); o != j.end() && o->is_object()) {
        const Reader r{*o, where + ".options"};
        std::string slo;
        if (auto ok = r.str("slo", slo); !ok) return ok.error();
        if (!slo.empty()) {
            auto parsed = parseServingSlo(slo);
            if (!parsed) return Error{where + ".options.slo: " + parsed.error().message};
            s.options.slo = *parsed;
        }
        if (auto ok = r.num("target_load", s.options.targetLoad); !ok) return ok.error();
        if (auto ok = r.num("gpu_hour_cost", s.options.gpuHourCost); !ok) return ok.error();
        if (auto ok = intField(r, "gpus_per_replica", s.options.gpusPerReplica); !ok) return ok.error();
        std::optional<double> noise;
        if (auto ok = r.num("noise_pct", noise); !ok) return ok.error();
        if (noise) {
            if (!(*noise > 0)) return Error{where + ".options.noise_pct must be a positive number"};
            s.options.noisePct = *noise;
        }
    }
    const auto vs = j.find("variants");
    if (vs == j.end() || !vs->is_array()) return Error{where + ".variants must be a list"};
    for (std::size_t i = 0; i < vs->size(); ++i) {
        const Json& v = (*vs)[i];
        const std::string w = where + ".variants[" + std::to_string(i) + "]";
        if (!v.is_object() || !v.contains("label") || !v["label"].is_string())
            return Error{w + ".label must be a string"};
        ServingVariantInput in{v["label"].get<std::string>(), {}};
        const auto runs = v.find("runs");
        if (runs == v.end() || !runs->is_array()) return Error{w + ".runs must be a list"};
        for (std::size_t k = 0; k < runs->size(); ++k) {
            auto run = runFromJson((*runs)[k], w + ".runs[" + std::to_string(k) + "]");
            if (!run) return run.error();
            in.runs.push_back(std::move(run).value());
        }
        s.variants.push_back(std::move(in));
    }
    return s;
}

}  // namespace fp8dash
