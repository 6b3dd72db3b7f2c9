#pragma once
// Serving-benchmark results read into one shape, whichever tool wrote them (DESIGN.md "What FP8 buys";
// notes/serving-benchmarks-2026.md): vLLM's `benchmarks/benchmark_serving.py` and `vllm bench serve` (`--save-result`
// files, `--append-result` files holding several objects, `vllm bench sweep serve` output trees), GuideLLM reports
// (JSON and YAML, 0.2 to 0.7), AIPerf's `profile_export_aiperf.json` and GenAI-Perf's `profile_export_genai_perf.json`.
// The metrics are mapped by meaning, not by name (servingMetricMap()): `tpot` is always the per-request decode time per
// token (GuideLLM's and AIPerf's "inter token latency"), `itl` the pooled gaps between streamed chunks. Times are
// milliseconds everywhere (GuideLLM's request_latency is converted from seconds). Plain data; the readers are pure
// functions and thread-safe.

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "fp8dash/core/result.h"

namespace fp8dash {

enum class ServingTool { VllmBench, GuideLlm, AiPerf, GenAiPerf };
// "vLLM bench serve", "GuideLLM", "AIPerf", "GenAI-Perf"
const char* servingToolName(ServingTool tool);

// How the load of a point was set.
enum class LoadAxis {
    Concurrency,  // a fixed number of requests in flight: vLLM --max-concurrency with request_rate inf, GuideLLM
                  // synchronous (1) and concurrent (streams), AIPerf --concurrency
    RequestRate,  // requests sent at a rate (req/s): vLLM a finite --request-rate, GuideLLM constant and poisson,
                  // AIPerf --request-rate
    Unbounded,    // everything at once: vLLM request_rate inf without max_concurrency, GuideLLM throughput
};
const char* loadAxisName(LoadAxis axis);  // "concurrency", "rate", "unbounded"

struct ServingLoad {
    LoadAxis axis = LoadAxis::Unbounded;
    double value = 0;                      // requests in flight, or requests/s; 0 for Unbounded
    std::optional<double> concurrencyCap;  // a rate-driven vLLM run that also capped concurrency (--max-concurrency)
    bool operator==(const ServingLoad&) const = default;
};

// One latency metric of one run, in milliseconds; nullopt where the file lacks the figure.
struct LatencyStats {
    std::optional<double> mean, median, stdDev;
    // Every percentile the file has (p50 included where the file writes one), ascending by percentile:
    // {90, ms}, {99, ms}, {99.9, ms}.
    std::vector<std::pair<double, double>> percentiles;

    // The given percentile: an exact entry, else the median for 50; nullopt when the file has neither.
    std::optional<double> percentile(double p) const;
    bool empty() const { return !mean && !median && !stdDev && percentiles.empty(); }
    bool operator==(const LatencyStats&) const = default;
};

// The latency metrics by meaning (their vLLM names).
enum class ServingMetric {
    Ttft,  // time to first token
    Tpot,  // decode time per output token, per request: (latency - ttft) / (output tokens - 1)
    Itl,   // gaps between streamed chunks, pooled over every request (token-weighted)
    E2el,  // end-to-end request latency
};
const char* servingMetricKey(ServingMetric m);    // "ttft", "tpot", "itl", "e2el"
const char* servingMetricTitle(ServingMetric m);  // "time to first token", "time per output token", ...

// One row of the metric map: what each tool calls a meaning ("" where it has none). Documented in docs/serving.md.
struct ServingMetricMapping {
    std::string meaning;  // "output tokens/s", "requests/s", "ttft", "tpot", "itl", "e2el", "load"
    std::string vllm, guidellm, aiperf;
};
const std::vector<ServingMetricMapping>& servingMetricMap();

// Per-request figures of the successful requests, in file order, where the file has them (vLLM --save-detailed:
// `ttfts`, `itls`, `output_lens`). Every vector has one entry per request, or is empty.
struct ServingRequests {
    std::vector<float> ttftMs;
    std::vector<float> tpotMs;  // NaN for a request with at most one output token (vLLM leaves those out of TPOT)
    std::vector<float> e2elMs;  // ttft + the sum of the request's chunk gaps
    std::vector<std::uint32_t> outputTokens;
    std::size_t size() const { return ttftMs.size(); }
    bool empty() const { return ttftMs.empty(); }
    bool operator==(const ServingRequests&) const = default;
};

// One load point of one benchmark run.
struct ServingRun {
    // The file, with "#N" (1-based) for the N-th result of a file holding several (an --append-result file, a GuideLLM
    // report's N-th benchmark).
    std::string source;
    ServingTool tool = ServingTool::VllmBench;
    std::string toolVersion;  // "0.8.0" (AIPerf), "0.5.2" (GuideLLM metadata); "" when the file does not say
    std::string formatLabel;  // the shape read, e.g. "vllm bench serve", "vllm bench sweep serve run", "GuideLLM 0.4"
    std::string date;         // as recorded, "" when not
    std::string model;        // the model id as recorded (vLLM model_id, GuideLLM model, AIPerf model_names[0])
    std::string label;        // vLLM --label, GuideLLM's label "variant" (or "label"); "" when none
    // Everything else the file says about the run, in file order, values as text: vLLM --metadata keys, the serve and
    // bench parameters a sweep merged into each record, GuideLLM --label keys, AIPerf's cli_command. Never a secret
    // (an api_key is left out).
    std::vector<std::pair<std::string, std::string>> metadata;
    std::optional<int> runNumber;  // a sweep replicate's run=N
    std::string sweepCombination;  // a sweep's combination folder, e.g. "SERVE--fp8-BENCH--c16"

    ServingLoad load;

    // The workload, where recorded.
    std::string dataset;                                      // dataset name or path
    std::optional<double> meanInputTokens, meanOutputTokens;  // per successful request
    std::optional<long long> numPrompts;                      // requests the run was asked to send
    // The hardware, where the file or its side files say so.
    std::optional<int> gpuCount;
    std::string gpuName;

    // The outcome.
    long long completed = 0;  // successful requests
    long long failed = 0;     // failed, errored and incomplete requests
    std::optional<double> durationS;
    std::optional<double> outputTokensPerS, totalTokensPerS, requestsPerS;
    std::optional<double> goodputRequestsPerS;  // as recorded (vLLM does not save the SLO it used)
    // The per-request limits the recorded goodput counted against, in milliseconds by meaning, where the file says so
    // (GuideLLM's benchmark config.slo {ttft_ms, tpot_ms, e2el_ms}; its tpot_ms is compared with inter-token latency,
    // vLLM's TPOT); empty where it does not (vLLM and AIPerf do not save theirs). Also kept in metadata as
    // "goodput_slo".
    std::vector<std::pair<ServingMetric, double>> goodputSloMs;
    std::optional<double> sloAttainment;  // the share (0..1) of requests meeting every limit, as recorded (GuideLLM)
    LatencyStats ttft, tpot, itl, e2el;
    ServingRequests requests;

    // What was served, where the run says so (the tools do not record it): from the metadata, a sweep's serve
    // parameters, the AIPerf server scrape (vllm:cache_config_info) or a server command stored beside the results.
    std::string quantization;    // "fp8", "" when not said
    std::string kvCacheDtype;    // "fp8", "auto", "" when not said
    std::string servedEvidence;  // where those came from, e.g. "--metadata kv_cache_dtype=fp8"

    // Said about the file while reading it (a field of an unexpected type that was skipped, ...).
    std::vector<std::string> warnings;

    const LatencyStats& metric(ServingMetric m) const;
    // vLLM writes completed 0 and 0.0 for every latency when every request failed (and exits 0).
    bool allFailed() const { return completed == 0; }
    // failed / (completed + failed); 0 when nothing was sent.
    double failedShare() const;
};

// A model id as people read it: a Hugging Face cache path (".../models--openai--gpt-oss-120b/snapshots/<hash>/", what
// vLLM records when it served a local snapshot) reads as its repository ("openai/gpt-oss-120b"); anything else as it
// is, without a trailing '/'.
std::string servingModelDisplayName(std::string_view model);

// Reads results of any of the tools from text; the tool is recognised by the content. sourceName names the file in
// errors and in ServingRun::source.
Result<std::vector<ServingRun>> parseServingText(std::string_view text, const std::string& sourceName);
// One or several (--append-result: objects one after another) vLLM result objects, or a sweep's summary.json list.
Result<std::vector<ServingRun>> parseVllmBenchText(std::string_view text, const std::string& sourceName);
// A GuideLLM report, JSON or YAML: one run per benchmark.
Result<std::vector<ServingRun>> parseGuideLlmText(std::string_view text, const std::string& sourceName);
// An AIPerf or GenAI-Perf profile export; serverMetricsCsv is AIPerf's server_metrics_export.csv when present.
Result<ServingRun> parseAiPerfText(std::string_view text, const std::string& sourceName,
                                   std::string_view serverMetricsCsv = {});

struct ServingReadOptions {
    std::function<bool()> cancelled;       // polled between files; true stops with an Error "cancelled"
    std::function<void(double)> progress;  // 0..1 over the bytes to read
    bool keepRequests = true;              // false: per-request arrays are not kept (a preview)
};

// Reads a file or a folder of results: a result file of any tool; a vLLM file with appended results; a
// `vllm bench sweep serve` output tree (run=N.json replicates under each combination folder; a summary.json stands
// in only where a combination has no run files); a folder of result files of one benchmark; an AIPerf artifacts
// folder (profile_export_aiperf.json, with server_metrics_export.csv and command files beside it). Runs come in a
// stable order (by load, then replicate, then source). Errors name the path and what was wrong; a path whose every
// run failed is refused ("every request failed").
Result<std::vector<ServingRun>> readServingPath(const std::filesystem::path& path,
                                                const ServingReadOptions& options = {});

}  // namespace fp8dash
