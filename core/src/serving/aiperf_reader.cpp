// AIPerf's profile_export_aiperf.json and GenAI-Perf's profile_export_genai_perf.json (serving_results.h
// parseAiPerfText), with AIPerf's server_metrics_export.csv.
//   AIPerf 0.8 (schema_version "1.2"): top-level metric objects {unit, avg, p1 ... p99, min, max, std, count, sum},
//     keys left out when null; aiperf_version, start_time, error_summary [{error_details, count}], and input_config
//     {endpoint {model_names}, loadgen {concurrency, request_rate, request_count}, input {public_dataset, file},
//     cli_command}.
//   GenAI-Perf (triton-inference-server/perf_analyzer genai-perf/genai_perf/export_data/json_exporter.py): the same
//     metric objects plus input_config = the command's arguments (model [..], concurrency, request_rate,
//     request_count, input_dataset / input_file, synthetic_input_tokens_mean ...); newer releases nest them
//     (model_names, perf_analyzer.stimulus {concurrency | request_rate}).
// inter_token_latency is per request (vLLM's TPOT); inter_chunk_latency pools the chunk gaps (vLLM's ITL). Times are
// converted to milliseconds by each object's unit; an unknown unit is an error.
#include <algorithm>
#include <cmath>
#include <map>
#include <string>

#include "fp8dash/core/json_text.h"
#include "fp8dash/core/serving_results.h"
#include "serving/serving_json_util.h"

namespace fp8dash {

namespace {

struct AiPerfFail {
    std::string message;
};

struct AiPerfPlace {
    const std::string& source;
    [[noreturn]] void fail(const std::string& field, const std::string& what) const {
        throw AiPerfFail{source + ": " + field + ": " + what};
    }
};

const Json* aiperfChild(const Json* obj, const char* key) {
    if (obj == nullptr || !obj->is_object()) return nullptr;
    const auto it = obj->find(key);
    return (it == obj->end() || it->is_null()) ? nullptr : &*it;
}

const Json* aiperfObject(const Json* obj, const char* key) {
    const Json* v = aiperfChild(obj, key);
    return (v != nullptr && v->is_object()) ? v : nullptr;
}

std::optional<double> aiperfNumber(const Json* obj, const char* key, const std::string& path, const AiPerfPlace& at) {
    const Json* v = aiperfChild(obj, key);
    if (v == nullptr) return std::nullopt;
    bool wrongType = false;
    const auto d = servingJsonNumber(*v, wrongType);
    if (!wrongType) return d;
    at.fail(path + "." + key, std::string("expected a number, found ") + v->type_name());
}

// Milliseconds per unit of a time metric; nullopt for a unit that is not a time.
std::optional<double> aiperfMsPerUnit(const std::string& unit) {
    static const std::map<std::string, double> units = {
        {"ms", 1.0},  {"msec", 1.0},  {"milliseconds", 1.0},  {"s", 1000.0}, {"sec", 1000.0}, {"seconds", 1000.0},
        {"us", 1e-3}, {"usec", 1e-3}, {"microseconds", 1e-3}, {"ns", 1e-6},  {"nsec", 1e-6},  {"nanoseconds", 1e-6}};
    const auto it = units.find(unit);
    return it == units.end() ? std::nullopt : std::optional<double>(it->second);
}

const Json* aiperfMetric(const Json& root, const char* name, const AiPerfPlace& at) {
    const Json* m = aiperfChild(&root, name);
    if (m != nullptr && !m->is_object()) at.fail(name, std::string("expected an object, found ") + m->type_name());
    return m;
}

std::string aiperfUnit(const Json* m, const char* name, const AiPerfPlace& at) {
    const Json* u = aiperfChild(m, "unit");
    if (u == nullptr) return {};
    if (!u->is_string()) at.fail(std::string(name) + ".unit", "expected a string");
    return u->get<std::string>();
}

LatencyStats aiperfLatency(const Json& root, const char* name, const AiPerfPlace& at,
                           std::vector<std::string>& warnings) {
    LatencyStats out;
    const Json* m = aiperfMetric(root, name, at);
    if (m == nullptr) return out;
    const std::string unit = aiperfUnit(m, name, at);
    double scale = 1.0;
    if (unit.empty()) {
        warnings.push_back(std::string(name) + " has no unit; read as milliseconds");
    } else if (const auto ms = aiperfMsPerUnit(unit)) {
        scale = *ms;
    } else {
        at.fail(std::string(name) + ".unit", "'" + servingValueText(unit, 40) + "' is not a time unit fp8dash knows");
    }
    const auto scaled = [&](std::optional<double> v) { return v ? std::optional<double>(*v * scale) : v; };
    out.mean = scaled(aiperfNumber(m, "avg", name, at));
    out.stdDev = scaled(aiperfNumber(m, "std", name, at));
    for (const auto& [key, value] : m->items()) {
        const auto p = servingPercentileKey(key, false);
        if (!p) continue;
        if (const auto v = aiperfNumber(m, key.c_str(), name, at)) out.percentiles.emplace_back(*p, *v * scale);
    }
    std::sort(out.percentiles.begin(), out.percentiles.end());
    out.percentiles.erase(std::unique(out.percentiles.begin(), out.percentiles.end(),
                                      [](const auto& a, const auto& b) { return a.first == b.first; }),
                          out.percentiles.end());
    out.median = out.percentile(50);
    return out;
}

// The avg of a rate (per second) or a count metric.
std::optional<double> aiperfAvg(const Json& root, const char* name, bool perSecond, const AiPerfPlace& at) {
    const Json* m = aiperfMetric(root, name, at);
    if (m == nullptr) return std::nullopt;
    if (perSecond) {
        const std::string unit = aiperfUnit(m, name, at);
        // AIPerf writes "tokens/sec", "requests/sec"; GenAI-Perf "per sec".
        const bool ok = unit.empty() || unit.ends_with("/sec") || unit.ends_with("/s") || unit.ends_with("/second") ||
                        unit.ends_with("per sec") || unit.ends_with("per second");
        if (!ok) at.fail(std::string(name) + ".unit", "'" + servingValueText(unit, 40) + "' is not a rate per second");
    }
    return aiperfNumber(m, "avg", name, at);
}

long long aiperfCountOf(std::optional<double> v, const char* name, const AiPerfPlace& at) {
    if (!v) return 0;
    if (*v < 0 || *v > 1e15) at.fail(name, "not a count of requests");
    return std::llround(*v);
}

std::string aiperfFirstString(const Json* v) {
    if (v == nullptr) return {};
    if (v->is_string()) return v->get<std::string>();
    if (v->is_array() && !v->empty() && v->front().is_string()) return v->front().get<std::string>();
    return {};
}

void aiperfLoad(const Json* config, ServingRun& run, const AiPerfPlace& at) {
    const Json* loadgen = aiperfObject(config, "loadgen");
    const Json* stimulus = aiperfObject(aiperfObject(config, "perf_analyzer"), "stimulus");
    std::optional<double> concurrency, rate;
    for (const Json* from : {loadgen, stimulus, config}) {
        if (!concurrency) concurrency = aiperfNumber(from, "concurrency", "input_config", at);
        if (!rate) rate = aiperfNumber(from, "request_rate", "input_config", at);
    }
    if (rate && *rate > 0) {
        run.load.axis = LoadAxis::RequestRate;
        run.load.value = *rate;
        if (concurrency && *concurrency > 0) run.load.concurrencyCap = *concurrency;
    } else if (concurrency && *concurrency > 0) {
        run.load.axis = LoadAxis::Concurrency;
        run.load.value = *concurrency;
    } else {
        run.load.axis = LoadAxis::Concurrency;
        run.load.value = 1;
        run.warnings.push_back("the export does not record its load; the tool's default, concurrency 1, is assumed");
    }
}

void aiperfInputConfig(const Json& root, ServingRun& run, const AiPerfPlace& at) {
    const Json* config = aiperfObject(&root, "input_config");
    aiperfLoad(config, run, at);
    const Json* endpoint = aiperfObject(config, "endpoint");
    for (const Json* v :
         {aiperfChild(endpoint, "model_names"), aiperfChild(config, "model_names"), aiperfChild(config, "model")})
        if (run.model.empty()) run.model = aiperfFirstString(v);
    const Json* input = aiperfObject(config, "input");
    const Json* datasetInfo = aiperfObject(aiperfObject(&root, "metadata"), "dataset");
    for (const Json* v :
         {aiperfChild(input, "public_dataset"), aiperfChild(input, "file"), aiperfChild(datasetInfo, "hf_dataset_name"),
          aiperfChild(config, "input_dataset"), aiperfChild(config, "input_file")})
        if (run.dataset.empty() && v != nullptr && v->is_string()) run.dataset = servingValueText(*v);
    if (run.dataset.empty()) {
        const auto isl = aiperfNumber(config, "synthetic_input_tokens_mean", "input_config", at);
        const auto osl = aiperfNumber(config, "output_tokens_mean", "input_config", at);
        if (isl) {
            run.dataset = "synthetic " + servingValueText(Json(*isl)) + " input tokens";
            if (osl) run.dataset += ", " + servingValueText(Json(*osl)) + " output tokens";
        }
    }
    for (const Json* from : {aiperfObject(config, "loadgen"), config})
        if (const auto n = aiperfNumber(from, "request_count", "input_config", at); n && *n > 0 && !run.numPrompts)
            run.numPrompts = std::llround(*n);
    if (const Json* cli = aiperfChild(config, "cli_command"); cli != nullptr && cli->is_string())
        run.metadata.emplace_back("cli_command", servingRedactCommandLine(cli->get_ref<const std::string&>()));
    const std::string url = aiperfFirstString(aiperfChild(endpoint, "urls"));
    const std::string target = url.empty() ? aiperfFirstString(aiperfChild(config, "url")) : url;
    if (!target.empty()) run.metadata.emplace_back("target", servingUrlWithoutSecrets(target));
}

// One CSV line split into fields (double quotes with "" escapes).
std::vector<std::string> aiperfCsvFields(std::string_view line) {
    std::vector<std::string> out(1);
    bool quoted = false;
    for (std::size_t i = 0; i < line.size(); ++i) {
        const char c = line[i];
        if (quoted) {
            if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
                out.back() += '"';
                ++i;
            } else if (c == '"') {
                quoted = false;
            } else {
                out.back() += c;
            }
        } else if (c == '"') {
            quoted = true;
        } else if (c == ',') {
            out.emplace_back();
        } else if (c != '\r') {
            out.back() += c;
        }
    }
    return out;
}

// server_metrics_export.csv: the info sections (Endpoint,Metric,Key,Value,...) of the server's /metrics scrape.
void aiperfServerMetrics(std::string_view csv, ServingRun& run) {
    std::map<std::string, std::map<std::string, std::string>> info;  // metric -> key -> value
    int metricCol = -1, keyCol = -1, valueCol = -1;
    std::size_t start = 0;
    while (start < csv.size()) {
        std::size_t end = csv.find('\n', start);
        if (end == std::string_view::npos) end = csv.size();
        const std::string_view line = csv.substr(start, end - start);
        start = end + 1;
        if (line.empty() || line[0] == '#') continue;
        const auto fields = aiperfCsvFields(line);
        if (fields[0] == "Endpoint") {
            metricCol = keyCol = valueCol = -1;
            for (std::size_t i = 0; i < fields.size() && i < 64; ++i) {
                if (fields[i] == "Metric") metricCol = static_cast<int>(i);
                if (fields[i] == "Key") keyCol = static_cast<int>(i);
                if (fields[i] == "Value") valueCol = static_cast<int>(i);
            }
            continue;
        }
        const int need = std::max({metricCol, keyCol, valueCol});
        if (metricCol < 0 || keyCol < 0 || valueCol < 0 || static_cast<int>(fields.size()) <= need) continue;
        const std::string& metric = fields[static_cast<std::size_t>(metricCol)];
        if (!metric.ends_with("_info")) continue;
        info[metric].emplace(fields[static_cast<std::size_t>(keyCol)], fields[static_cast<std::size_t>(valueCol)]);
    }
    const auto evidence = [&](const std::string& metric, const std::string& key, const std::string& value) {
        if (!run.servedEvidence.empty()) run.servedEvidence += "; ";
        run.servedEvidence += "server_metrics_export.csv " + metric + " " + key + "=" + value;
    };
    const auto known = [](const std::string& v) { return !v.empty() && v != "None" && v != "null"; };
    if (const auto c = info.find("vllm:cache_config_info"); c != info.end()) {
        if (const auto d = c->second.find("cache_dtype"); d != c->second.end() && known(d->second)) {
            run.kvCacheDtype = d->second;
            evidence(c->first, "cache_dtype", d->second);
        }
    }
    for (const auto& [metric, keys] : info) {
        if (const auto q = keys.find("quantization"); q != keys.end() && known(q->second) && run.quantization.empty()) {
            run.quantization = q->second;
            evidence(metric, "quantization", q->second);
        }
        const auto tp = keys.find("tensor_parallel_size");
        if (tp == keys.end() || run.gpuCount) continue;
        long long gpus = 1;
        for (const char* k : {"tensor_parallel_size", "pipeline_parallel_size", "data_parallel_size"}) {
            const auto it = keys.find(k);
            if (it == keys.end()) continue;
            try {
                const long long n = std::stoll(it->second);
                if (n > 0 && n < 100000) gpus *= n;
            } catch (const std::exception&) {
            }
        }
        if (gpus > 0 && gpus < 1'000'000) {
            run.gpuCount = static_cast<int>(gpus);
            evidence(metric, "tensor_parallel_size", tp->second);
        }
    }
}

// Successful requests: request_count (AIPerf; GenAI-Perf from 2025); else the count of request_latency's samples;
// else the requested count or throughput x duration, said in a warning. Failed: error_request_count or error_summary.
void aiperfCounts(const Json& root, ServingRun& run, const AiPerfPlace& at) {
    if (const auto n = aiperfAvg(root, "request_count", false, at)) {
        run.completed = aiperfCountOf(n, "request_count", at);
    } else if (const auto c = aiperfNumber(aiperfMetric(root, "request_latency", at), "count", "request_latency", at)) {
        run.completed = aiperfCountOf(c, "request_latency.count", at);
    } else if (run.numPrompts) {
        run.completed = *run.numPrompts;
        run.warnings.push_back("the export does not count its successful requests; the " +
                               std::to_string(*run.numPrompts) + " requests asked for are assumed");
    } else {
        const auto rate = aiperfAvg(root, "request_throughput", true, at);
        const auto duration =
            aiperfNumber(aiperfMetric(root, "benchmark_duration", at), "avg", "benchmark_duration", at);
        if (!rate) at.fail("request_count", "missing: the export does not say how many requests succeeded");
        if (duration) {
            run.completed = aiperfCountOf(std::round(*rate * *duration), "request_count", at);
            run.warnings.push_back(
                "the export does not count its successful requests; request_throughput x "
                "benchmark_duration is used");
        } else {
            // GenAI-Perf measured over time windows without --request-count: how many is not written anywhere.
            run.completed = *rate > 0 ? 1 : 0;
            run.warnings.push_back("the export does not count its requests; only that some succeeded is known");
        }
    }
    const auto errorCount = aiperfAvg(root, "error_request_count", false, at);
    if (errorCount) {
        run.failed = aiperfCountOf(errorCount, "error_request_count", at);
        return;
    }
    const Json* summary = aiperfChild(&root, "error_summary");
    if (summary == nullptr) return;
    if (!summary->is_array()) at.fail("error_summary", "expected a list");
    long long failed = 0;
    for (const auto& entry : *summary)
        failed += aiperfCountOf(aiperfNumber(&entry, "count", "error_summary[]", at), "error_summary[].count", at);
    run.failed = failed;
}

}  // namespace

Result<ServingRun> parseAiPerfText(std::string_view text, const std::string& sourceName,
                                   std::string_view serverMetricsCsv) {
    auto parsed = parseJsonText(text, sourceName);
    if (!parsed) return parsed.error();
    const Json& root = *parsed;
    if (!root.is_object()) return Error{sourceName + ": not an AIPerf or GenAI-Perf export (expected an object)"};
    const AiPerfPlace at{sourceName};
    try {
        const bool hasMetrics = aiperfObject(&root, "request_throughput") != nullptr ||
                                aiperfObject(&root, "request_latency") != nullptr ||
                                aiperfObject(&root, "time_to_first_token") != nullptr;
        if (!hasMetrics)
            return Error{sourceName +
                         ": not an AIPerf or GenAI-Perf export (no request_throughput, request_latency or "
                         "time_to_first_token)"};
        ServingRun run;
        run.source = sourceName;
        const bool aiperf =
            aiperfChild(&root, "aiperf_version") != nullptr || aiperfChild(&root, "schema_version") != nullptr;
        run.tool = aiperf ? ServingTool::AiPerf : ServingTool::GenAiPerf;
        if (const Json* v = aiperfChild(&root, "aiperf_version"); v != nullptr && v->is_string())
            run.toolVersion = v->get<std::string>();
        if (aiperf) {
            const Json* schema = aiperfChild(&root, "schema_version");
            run.formatLabel = "AIPerf profile_export_aiperf.json";
            if (schema != nullptr && schema->is_string())
                run.formatLabel += " (schema " + schema->get<std::string>() + ")";
        } else {
            run.formatLabel = "GenAI-Perf profile_export_genai_perf.json";
        }
        if (const Json* d = aiperfChild(&root, "start_time"); d != nullptr && d->is_string())
            run.date = d->get<std::string>();
        aiperfInputConfig(root, run, at);
        aiperfCounts(root, run, at);
        if (const Json* c = aiperfChild(&root, "was_cancelled"); c != nullptr && c->is_boolean() && c->get<bool>())
            run.warnings.push_back("the run was cancelled before it finished");
        if (const auto duration = aiperfMetric(root, "benchmark_duration", at)) {
            const std::string unit = aiperfUnit(duration, "benchmark_duration", at);
            const auto ms = unit.empty() ? std::optional<double>(1000.0) : aiperfMsPerUnit(unit);
            if (!ms) at.fail("benchmark_duration.unit", "'" + servingValueText(unit, 40) + "' is not a time unit");
            if (const auto v = aiperfNumber(duration, "avg", "benchmark_duration", at)) run.durationS = *v * *ms / 1000;
        }
        run.meanInputTokens = aiperfAvg(root, "input_sequence_length", false, at);
        run.meanOutputTokens = aiperfAvg(root, "output_sequence_length", false, at);
        if (!serverMetricsCsv.empty()) aiperfServerMetrics(serverMetricsCsv, run);
        if (run.completed == 0) {
            // Nothing succeeded: whatever the export holds for latencies describes no served request.
            run.warnings.push_back("every request failed (" + std::to_string(run.failed) + " errors)");
            run.meanInputTokens.reset();
            run.meanOutputTokens.reset();
            return run;
        }
        run.outputTokensPerS = aiperfAvg(root, "output_token_throughput", true, at);
        run.totalTokensPerS = aiperfAvg(root, "total_token_throughput", true, at);
        run.requestsPerS = aiperfAvg(root, "request_throughput", true, at);
        run.goodputRequestsPerS = aiperfAvg(root, "goodput", true, at);
        if (!run.goodputRequestsPerS) run.goodputRequestsPerS = aiperfAvg(root, "request_goodput", true, at);
        run.ttft = aiperfLatency(root, "time_to_first_token", at, run.warnings);
        run.tpot = aiperfLatency(root, "inter_token_latency", at, run.warnings);
        run.itl = aiperfLatency(root, "inter_chunk_latency", at, run.warnings);
        run.e2el = aiperfLatency(root, "request_latency", at, run.warnings);
        return run;
    } catch (const AiPerfFail& e) {
        return Error{e.message};
    } catch (const std::exception& e) {
        return Error{sourceName + ": " + e.what()};
    }
}

}  // namespace fp8dash
