// GuideLLM reports (serving_results.h parseGuideLlmText), JSON or YAML, every era of vllm-project/guidellm:
//   0.2-0.3 (v0.2.1 cff0799, v0.3.1 121dcdc): {"benchmarks": [...]}; each benchmark carries args.strategy,
//     worker.backend_model / backend_target, request_loader.data, request_totals and metrics.
//   0.4 (v0.4.0 f6175cd): {"args", "benchmarks"}; args.model / args.target / args.data; each benchmark's
//     config.strategy and config.backend {target, model}; request_totals moved under metrics.
//   0.5-0.6 (v0.5.0, v0.6.1 e82b62a): adds "metadata" {version 1, guidellm_version}; 0.6 moved target and model to
//     args.backend_kwargs.
//   0.7 (v0.7.3 3938355): {"metadata" {version 2}, "config" {metadata {labels}, spec {backend, profile, data}},
//     "benchmarks"}.
// Strategies (scheduler strategies.py): synchronous, concurrent {streams}, throughput {max_concurrency}, constant and
// poisson {rate, max_concurrency}. Metrics are StatusDistributionSummary {successful, errored, incomplete, total} of
// {mean, median, std_dev, count, percentiles {p001 ... p999}}: only `successful` is read; request_latency is seconds.
// GuideLLM's inter_token_latency_ms is vLLM's TPOT; its time_per_output_token_ms includes the first token and is not
// read.
// Goodput (after 0.7.3: vllm-project/guidellm PR #1085, schemas/benchmark/goodput.py GoodputSLO, GenerativeMetrics):
// `--metrics '{"kind":"generative","slo":{"ttft_ms":200,"tpot_ms":50}}'` puts the objectives in each benchmark's
// config.slo {ttft_ms, tpot_ms, e2el_ms} (null where unset; the report's config.spec.metrics.slo too) and adds
// metrics.request_goodput (a StatusDistributionSummary of conforming requests/s; successful.mean is read, as for
// requests_per_second) and metrics.slo_attainment (0..1); both null without objectives or when no request could be
// judged. GuideLLM compares tpot_ms with inter_token_latency_ms, so the limits map to ttft / tpot / e2el by meaning.
#include <algorithm>
#include <cmath>
#include <sstream>
#include <string>

#include "fp8dash/core/json_text.h"
#include "fp8dash/core/serving_results.h"
#include "serving/serving_json_util.h"
#include "serving/yaml_json.h"

namespace fp8dash {

namespace {

struct GuideLlmFail {
    std::string message;
};

// Where a benchmark's fields are read from, for errors: "<file>: benchmark 2: metrics.request_latency: ...".
struct GuideLlmPlace {
    const std::string& source;
    int index;  // 1-based; 0 for the report's own fields
    [[noreturn]] void fail(const std::string& field, const std::string& what) const {
        std::string where = source + ": ";
        if (index > 0) where += "benchmark " + std::to_string(index) + ": ";
        throw GuideLlmFail{where + field + ": " + what};
    }
};

const Json* guideChild(const Json* obj, const char* key) {
    if (obj == nullptr || !obj->is_object()) return nullptr;
    const auto it = obj->find(key);
    return (it == obj->end() || it->is_null()) ? nullptr : &*it;
}

const Json* guideObject(const Json* obj, const char* key, const std::string& path, const GuideLlmPlace& at) {
    const Json* v = guideChild(obj, key);
    if (v != nullptr && !v->is_object())
        at.fail(path.empty() ? key : path + "." + key, std::string("expected an object, found ") + v->type_name());
    return v;
}

std::optional<double> guideNumber(const Json* obj, const char* key, const std::string& path, const GuideLlmPlace& at) {
    const Json* v = guideChild(obj, key);
    if (v == nullptr) return std::nullopt;
    bool wrongType = false;
    const auto d = servingJsonNumber(*v, wrongType);
    if (!wrongType) return d;
    at.fail(path + "." + key, std::string("expected a number, found ") + v->type_name());
}

std::string guideString(const Json* obj, const char* key) {
    const Json* v = guideChild(obj, key);
    return (v != nullptr && v->is_string()) ? v->get<std::string>() : std::string();
}

long long guideCount(const Json* obj, const char* key, const std::string& path, const GuideLlmPlace& at) {
    const auto v = guideNumber(obj, key, path, at);
    if (!v) return 0;
    if (*v < 0 || *v > 1e15) at.fail(path + "." + key, "not a count of requests");
    return std::llround(*v);
}

// metrics.<name>.successful as latency statistics, each value multiplied by scale (1000 for seconds).
LatencyStats guideLatency(const Json* metrics, const char* name, double scale, const GuideLlmPlace& at) {
    LatencyStats out;
    const std::string path = std::string("metrics.") + name;
    const Json* dist = guideObject(metrics, name, "metrics", at);
    const Json* ok = guideObject(dist, "successful", path, at);
    if (ok == nullptr) return out;
    const std::string okPath = path + ".successful";
    if (const auto count = guideNumber(ok, "count", okPath, at); count && *count <= 0) return out;
    const auto scaled = [&](std::optional<double> v) { return v ? std::optional<double>(*v * scale) : v; };
    out.mean = scaled(guideNumber(ok, "mean", okPath, at));
    out.median = scaled(guideNumber(ok, "median", okPath, at));
    out.stdDev = scaled(guideNumber(ok, "std_dev", okPath, at));
    if (const Json* pcts = guideObject(ok, "percentiles", okPath, at)) {
        for (const auto& [key, value] : pcts->items()) {
            const auto p = servingPercentileKey(key, true);
            if (!p) continue;
            if (const auto v = guideNumber(pcts, key.c_str(), okPath + ".percentiles", at))
                out.percentiles.emplace_back(*p, *v * scale);
        }
        std::sort(out.percentiles.begin(), out.percentiles.end());
        out.percentiles.erase(std::unique(out.percentiles.begin(), out.percentiles.end(),
                                          [](const auto& a, const auto& b) { return a.first == b.first; }),
                              out.percentiles.end());
    }
    return out;
}

std::optional<double> guideMean(const Json* metrics, const char* name, const GuideLlmPlace& at) {
    const std::string path = std::string("metrics.") + name;
    const Json* ok = guideObject(guideObject(metrics, name, "metrics", at), "successful", path, at);
    return guideNumber(ok, "mean", path + ".successful", at);
}

ServingLoad guideLoad(const Json& bench, const GuideLlmPlace& at, std::vector<std::string>& warnings) {
    std::string path = "config.strategy";
    const Json* strategy = guideObject(guideObject(&bench, "config", "", at), "strategy", "config", at);
    if (strategy == nullptr) {
        path = "args.strategy";
        strategy = guideObject(guideObject(&bench, "args", "", at), "strategy", "args", at);
    }
    if (strategy == nullptr) at.fail("config.strategy", "missing: the benchmark does not say how its load was set");
    const Json* typeValue = guideChild(strategy, "type_");
    if (typeValue == nullptr || !typeValue->is_string()) at.fail(path + ".type_", "missing or not a string");
    const std::string type = typeValue->get<std::string>();
    const auto positive = [&](const char* key) {
        const auto v = guideNumber(strategy, key, path, at);
        if (!v || *v <= 0) at.fail(path + "." + key, "missing or not a positive number");
        return *v;
    };
    ServingLoad load;
    if (type == "synchronous") {
        load.axis = LoadAxis::Concurrency;
        load.value = 1;
    } else if (type == "concurrent") {
        load.axis = LoadAxis::Concurrency;
        load.value = positive("streams");
    } else if (type == "throughput") {
        load.axis = LoadAxis::Unbounded;
        load.concurrencyCap = guideNumber(strategy, "max_concurrency", path, at);
    } else if (type == "constant" || type == "poisson") {
        load.axis = LoadAxis::RequestRate;
        load.value = positive("rate");
        load.concurrencyCap = guideNumber(strategy, "max_concurrency", path, at);
    } else if (type == "trace") {
        load.axis = LoadAxis::Unbounded;
        warnings.push_back("benchmark " + std::to_string(at.index) +
                           " replays a trace: its load is the trace's timing, not a fixed concurrency or rate");
    } else {
        at.fail(path + ".type_", "unknown strategy '" + servingValueText(*typeValue, 40) + "'");
    }
    return load;
}

// A GoodputSLO object ({ttft_ms, tpot_ms, e2el_ms}, null or absent where unset) as limits by meaning.
std::vector<std::pair<ServingMetric, double>> guideSloLimits(const Json* slo, const std::string& path,
                                                             const GuideLlmPlace& at) {
    std::vector<std::pair<ServingMetric, double>> out;
    if (slo == nullptr) return out;
    const std::pair<const char*, ServingMetric> keys[] = {
        {"ttft_ms", ServingMetric::Ttft}, {"tpot_ms", ServingMetric::Tpot}, {"e2el_ms", ServingMetric::E2el}};
    for (const auto& [key, metric] : keys) {
        const auto v = guideNumber(slo, key, path, at);
        if (!v) continue;
        if (!(*v > 0) || !std::isfinite(*v)) at.fail(path + "." + key, "not a positive number of milliseconds");
        out.emplace_back(metric, *v);
    }
    return out;
}

// The limits as the file names them, for the run's metadata: "ttft_ms<=200, tpot_ms<=50".
std::string guideSloText(const std::vector<std::pair<ServingMetric, double>>& limits) {
    std::string out;
    for (const auto& [metric, ms] : limits) {
        if (!out.empty()) out += ", ";
        std::ostringstream number;
        number << ms;
        out += std::string(servingMetricKey(metric)) + "_ms<=" + number.str();
    }
    return out;
}

// What the report as a whole says (args / config / metadata), applied to each benchmark.
struct GuideReportInfo {
    std::string formatLabel, toolVersion, model, target, dataset;
    std::optional<long long> numPrompts;
    std::vector<std::pair<ServingMetric, double>> goodputSlo;  // config.spec.metrics.slo
    std::vector<std::pair<std::string, std::string>> labels;
    std::vector<std::string> warnings;
};

std::string guideDatasetText(const Json& data) {
    if (data.is_array()) {
        std::string out;
        for (const auto& item : data) {
            const std::string one = guideDatasetText(item);
            if (one.empty()) continue;
            if (!out.empty()) out += ", ";
            out += one;
            if (out.size() > 240) break;
        }
        return out;
    }
    if (data.is_object()) {
        for (const char* key : {"path", "source", "name", "dataset"})
            if (const Json* v = guideChild(&data, key); v != nullptr && v->is_string()) return servingValueText(*v);
    }
    return data.is_null() ? std::string() : servingValueText(data);
}

GuideReportInfo guideReportInfo(const Json& root, const std::string& source) {
    const GuideLlmPlace at{source, 0};
    GuideReportInfo info;
    const Json* metadata = guideObject(&root, "metadata", "", at);
    const Json* config = guideObject(&root, "config", "", at);
    const Json* args = guideObject(&root, "args", "", at);
    const auto version = guideNumber(metadata, "version", "metadata", at);
    info.toolVersion = guideString(metadata, "guidellm_version");
    if (config != nullptr || (version && *version >= 2)) {
        info.formatLabel = "GuideLLM 0.7 report";
        if (version && *version > 2)
            info.warnings.push_back("report schema version " + std::to_string(std::llround(*version)) +
                                    " is newer than fp8dash knows (2); read as version 2");
    } else if (metadata != nullptr) {
        info.formatLabel = "GuideLLM 0.5-0.6 report";
    } else if (args != nullptr) {
        info.formatLabel = "GuideLLM 0.4 report";
    } else {
        info.formatLabel = "GuideLLM 0.2-0.3 report";
    }
    const Json* spec = guideObject(config, "spec", "config", at);
    const Json* scenario = spec != nullptr ? spec : config;
    const Json* backendArgs = guideObject(args, "backend_kwargs", "args", at);
    const Json* specBackend = guideChild(scenario, "backend");
    if (specBackend != nullptr && !specBackend->is_object()) specBackend = nullptr;
    for (const Json* from : {args, backendArgs, specBackend}) {
        if (info.model.empty()) info.model = guideString(from, "model");
        if (info.target.empty()) info.target = guideString(from, "target");
    }
    for (const Json* from : {args, scenario})
        if (const Json* data = guideChild(from, "data"); data != nullptr && info.dataset.empty())
            info.dataset = guideDatasetText(*data);
    if (const auto maxRequests = guideNumber(args, "max_requests", "args", at); maxRequests && *maxRequests > 0)
        info.numPrompts = std::llround(*maxRequests);
    const Json* specMetrics = guideObject(spec, "metrics", "config.spec", at);
    info.goodputSlo =
        guideSloLimits(guideObject(specMetrics, "slo", "config.spec.metrics", at), "config.spec.metrics.slo", at);
    const Json* labels = guideObject(guideObject(config, "metadata", "config", at), "labels", "config.metadata", at);
    if (labels != nullptr) {
        for (const auto& [key, value] : labels->items()) {
            const std::string text = servingValueText(value);
            if (servingLooksSecretKey(key) || servingLooksSecretValue(text)) {
                info.warnings.push_back("the label '" + key + "' looks like a secret and was left out");
                continue;
            }
            info.labels.emplace_back(key, text);
        }
    }
    return info;
}

void guideServedFromLabels(ServingRun& run) {
    for (const auto& [key, value] : run.metadata) {
        if (key == "variant" || (key == "label" && run.label.empty())) run.label = value;
        const bool quant = key == "quantization";
        const bool kv = key == "kv_cache_dtype" || key == "kv-cache-dtype";
        if (!quant && !kv) continue;
        (quant ? run.quantization : run.kvCacheDtype) = value;
        if (!run.servedEvidence.empty()) run.servedEvidence += "; ";
        run.servedEvidence += "GuideLLM label " + key + "=" + value;
    }
}

void guideRequestTotals(const Json& bench, ServingRun& run, const GuideLlmPlace& at) {
    std::string path = "request_totals";
    const Json* metrics = guideObject(&bench, "metrics", "", at);
    const Json* totals = guideObject(&bench, "request_totals", "", at);
    if (totals == nullptr) {
        path = "metrics.request_totals";
        totals = guideObject(metrics, "request_totals", "metrics", at);
    }
    if (totals == nullptr) {
        path = "scheduler_metrics.requests_made";
        totals = guideObject(guideObject(&bench, "scheduler_metrics", "", at), "requests_made", path, at);
    }
    if (totals == nullptr) {
        path = "run_stats.requests_made";
        totals = guideObject(guideObject(&bench, "run_stats", "", at), "requests_made", path, at);
    }
    if (totals == nullptr) at.fail("request_totals", "missing: the benchmark does not count its requests");
    run.completed = guideCount(totals, "successful", path, at);
    run.failed = guideCount(totals, "errored", path, at) + guideCount(totals, "incomplete", path, at);
}

// The goodput GuideLLM recorded (see the top of the file) and the objectives it counted against.
void guideGoodput(const Json& bench, const Json* metrics, const GuideReportInfo& info, ServingRun& run,
                  const GuideLlmPlace& at) {
    const Json* goodput = guideObject(metrics, "request_goodput", "metrics", at);
    const Json* ok = guideObject(goodput, "successful", "metrics.request_goodput", at);
    run.goodputRequestsPerS = guideNumber(ok, "mean", "metrics.request_goodput.successful", at);
    if (run.goodputRequestsPerS && (*run.goodputRequestsPerS < 0 || !std::isfinite(*run.goodputRequestsPerS)))
        at.fail("metrics.request_goodput.successful.mean", "not a rate of requests");
    run.sloAttainment = guideNumber(metrics, "slo_attainment", "metrics", at);
    if (run.sloAttainment && !(*run.sloAttainment >= 0 && *run.sloAttainment <= 1))
        at.fail("metrics.slo_attainment", "not a share between 0 and 1");
    run.goodputSloMs =
        guideSloLimits(guideObject(guideObject(&bench, "config", "", at), "slo", "config", at), "config.slo", at);
    if (run.goodputSloMs.empty()) run.goodputSloMs = info.goodputSlo;
    if (!run.goodputSloMs.empty()) run.metadata.emplace_back("goodput_slo", guideSloText(run.goodputSloMs));
}

ServingRun guideBenchmark(const Json& bench, int index, const GuideReportInfo& info, const std::string& source) {
    const GuideLlmPlace at{source, index};
    if (!bench.is_object()) at.fail("benchmarks[" + std::to_string(index - 1) + "]", "expected an object");
    ServingRun run;
    run.source = source + "#" + std::to_string(index);
    run.tool = ServingTool::GuideLlm;
    run.toolVersion = info.toolVersion;
    run.formatLabel = info.formatLabel;
    run.load = guideLoad(bench, at, run.warnings);

    const Json* config = guideObject(&bench, "config", "", at);
    const Json* backend = guideChild(config, "backend");
    if (backend != nullptr && !backend->is_object()) backend = nullptr;
    const Json* worker = guideObject(&bench, "worker", "", at);
    run.model = guideString(backend, "model");
    if (run.model.empty()) run.model = guideString(worker, "backend_model");
    if (run.model.empty()) run.model = info.model;
    std::string target = guideString(backend, "target");
    if (target.empty()) target = guideString(worker, "backend_target");
    if (target.empty()) target = info.target;
    if (const Json* loader = guideObject(&bench, "request_loader", "", at))
        if (const Json* data = guideChild(loader, "data")) run.dataset = guideDatasetText(*data);
    if (run.dataset.empty()) run.dataset = info.dataset;
    run.numPrompts = info.numPrompts;
    if (const auto maxNumber = guideNumber(guideObject(&bench, "args", "", at), "max_number", "args", at);
        maxNumber && *maxNumber > 0)
        run.numPrompts = std::llround(*maxNumber);

    run.metadata = info.labels;
    if (!target.empty()) run.metadata.emplace_back("target", servingUrlWithoutSecrets(target));
    guideServedFromLabels(run);

    const auto start = guideNumber(&bench, "start_time", "", at);
    const auto end = guideNumber(&bench, "end_time", "", at);
    if (start) run.date = servingIsoTimeFromEpoch(*start);
    run.durationS = guideNumber(&bench, "duration", "", at);
    if (!run.durationS && start && end && *end >= *start) run.durationS = *end - *start;

    guideRequestTotals(bench, run, at);
    const Json* metrics = guideObject(&bench, "metrics", "", at);
    if (metrics == nullptr) at.fail("metrics", "missing");
    run.meanInputTokens = guideMean(metrics, "prompt_token_count", at);
    run.meanOutputTokens = guideMean(metrics, "output_token_count", at);
    if (run.completed == 0) {
        // Every request failed: GuideLLM writes zeros for the successful distributions; nothing here is a latency.
        run.warnings.push_back("benchmark " + std::to_string(index) + ": every request failed (" +
                               std::to_string(run.failed) + " errored or incomplete)");
        run.meanInputTokens.reset();
        run.meanOutputTokens.reset();
        return run;
    }
    run.outputTokensPerS = guideMean(metrics, "output_tokens_per_second", at);
    run.totalTokensPerS = guideMean(metrics, "tokens_per_second", at);
    run.requestsPerS = guideMean(metrics, "requests_per_second", at);
    run.ttft = guideLatency(metrics, "time_to_first_token_ms", 1.0, at);
    run.tpot = guideLatency(metrics, "inter_token_latency_ms", 1.0, at);
    run.e2el = guideLatency(metrics, "request_latency", 1000.0, at);  // seconds
    guideGoodput(bench, metrics, info, run, at);
    return run;
}

Result<Json> guideParseText(std::string_view text, const std::string& sourceName) {
    std::size_t i = 0;
    while (i < text.size() && (text[i] == ' ' || text[i] == '\t' || text[i] == '\r' || text[i] == '\n')) ++i;
    if (text.substr(i, 3) == "\xEF\xBB\xBF") i += 3;  // a byte-order mark
    if (i < text.size() && text[i] == '{') return parseJsonText(text, sourceName);
    return parseYamlAsJson(text, sourceName);
}

}  // namespace

Result<std::vector<ServingRun>> parseGuideLlmText(std::string_view text, const std::string& sourceName) {
    auto parsed = guideParseText(text, sourceName);
    if (!parsed) return parsed.error();
    const Json& root = *parsed;
    if (!root.is_object()) return Error{sourceName + ": not a GuideLLM report (expected a mapping at the top level)"};
    const auto benchmarks = root.find("benchmarks");
    if (benchmarks == root.end() || !benchmarks->is_array())
        return Error{sourceName + ": not a GuideLLM report (no 'benchmarks' list)"};
    if (benchmarks->empty()) return Error{sourceName + ": the GuideLLM report holds no benchmarks"};
    try {
        const GuideReportInfo info = guideReportInfo(root, sourceName);
        std::vector<ServingRun> runs;
        runs.reserve(benchmarks->size());
        int index = 0;
        for (const auto& bench : *benchmarks) {
            runs.push_back(guideBenchmark(bench, ++index, info, sourceName));
            if (index == 1)
                runs.back().warnings.insert(runs.back().warnings.begin(), info.warnings.begin(), info.warnings.end());
        }
        return runs;
    } catch (const GuideLlmFail& e) {
        return Error{e.message};
    } catch (const std::exception& e) {
        return Error{sourceName + ": " + e.what()};
    }
}

}  // namespace fp8dash
