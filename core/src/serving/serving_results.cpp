// The shared parts of serving_results.h: names, the metric map, the accessors. The readers are in their own files
// (vllm_bench_reader.cpp, guidellm_reader.cpp, aiperf_reader.cpp, serving_paths.cpp).
#include "fp8dash/core/serving_results.h"

#include <algorithm>

namespace fp8dash {

const char* servingToolName(ServingTool tool) {
    switch (tool) {
        case ServingTool::VllmBench:
            return "vLLM bench serve";
        case ServingTool::GuideLlm:
            return "GuideLLM";
        case ServingTool::AiPerf:
            return "AIPerf";
        case ServingTool::GenAiPerf:
            return "GenAI-Perf";
    }
    return "?";
}

const char* loadAxisName(LoadAxis axis) {
    switch (axis) {
        case LoadAxis::Concurrency:
            return "concurrency";
        case LoadAxis::RequestRate:
            return "rate";
        case LoadAxis::Unbounded:
            return "unbounded";
    }
    return "?";
}

const char* servingMetricKey(ServingMetric m) {
    switch (m) {
        case ServingMetric::Ttft:
            return "ttft";
        case ServingMetric::Tpot:
            return "tpot";
        case ServingMetric::Itl:
            return "itl";
        case ServingMetric::E2el:
            return "e2el";
    }
    return "?";
}

const char* servingMetricTitle(ServingMetric m) {
    switch (m) {
        case ServingMetric::Ttft:
            return "time to first token";
        case ServingMetric::Tpot:
            return "time per output token";
        case ServingMetric::Itl:
            return "inter-chunk latency";
        case ServingMetric::E2el:
            return "end-to-end latency";
    }
    return "?";
}

// notes/serving-benchmarks-2026.md "One metric map", checked against each tool's writer.
const std::vector<ServingMetricMapping>& servingMetricMap() {
    static const std::vector<ServingMetricMapping> map = {
        {"output tokens/s", "output_throughput", "output_tokens_per_second.successful.mean",
         "output_token_throughput.avg"},
        {"total tokens/s", "total_token_throughput (before 2025: input_throughput + output_throughput)",
         "tokens_per_second.successful.mean", "total_token_throughput.avg"},
        {"requests/s", "request_throughput", "requests_per_second.successful.mean", "request_throughput.avg"},
        {"ttft", "mean/median/pN_ttft_ms", "time_to_first_token_ms.successful", "time_to_first_token"},
        {"tpot", "mean/median/pN_tpot_ms", "inter_token_latency_ms.successful", "inter_token_latency"},
        {"itl", "mean/median/pN_itl_ms", "", "inter_chunk_latency"},
        {"e2el", "mean/median/pN_e2el_ms", "request_latency.successful (seconds)", "request_latency"},
        {"goodput (requests/s within the SLO)", "request_goodput (its SLO not saved)",
         "request_goodput.successful.mean (its SLO: the benchmark's config.slo)",
         "goodput.avg (GenAI-Perf: request_goodput.avg)"},
        {"load", "max_concurrency / request_rate", "strategy streams / rate (synchronous: 1)",
         "input_config concurrency / request_rate"},
    };
    return map;
}

std::optional<double> LatencyStats::percentile(double p) const {
    for (const auto& [q, v] : percentiles)
        if (q == p) return v;
    if (p == 50) return median;
    return std::nullopt;
}

const LatencyStats& ServingRun::metric(ServingMetric m) const {
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

std::string servingModelDisplayName(std::string_view model) {
    const std::string_view marker = "models--";
    if (const auto at = model.find(marker); at != std::string_view::npos) {
        std::string_view rest = model.substr(at + marker.size());
        rest = rest.substr(0, rest.find('/'));
        std::string repo(rest);
        if (const auto sep = repo.find("--"); sep != std::string::npos && sep > 0 && sep + 2 < repo.size())
            return repo.substr(0, sep) + "/" + repo.substr(sep + 2);
        if (!repo.empty()) return repo;
    }
    while (model.size() > 1 && model.back() == '/') model.remove_suffix(1);
    return std::string(model);
}

double ServingRun::failedShare() const {
    const long long sent = completed + failed;
    return sent > 0 ? static_cast<double>(failed) / static_cast<double>(sent) : 0.0;
}

}  // namespace fp8dash
