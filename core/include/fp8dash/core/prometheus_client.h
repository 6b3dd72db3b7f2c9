#pragma once
// A Prometheus HTTP API client (/api/v1/query_range, /api/v1/query, /api/v1/status/buildinfo), plain enough to work
// unchanged with Thanos, Mimir, Cortex and VictoriaMetrics. Synchronous; thread-safe (one instance may serve
// several threads). See shared/notes/data-formats.md §3 for the response shapes.

#include <cmath>
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "fp8dash/core/http_client.h"
#include "fp8dash/core/result.h"
#include "fp8dash/core/time_series.h"

namespace fp8dash {

// Which server answers the Prometheus API (from /api/v1/status/buildinfo or its absence; serverInfo()).
enum class PrometheusBackend { Unknown, Prometheus, Thanos, Mimir, Cortex, VictoriaMetrics };
std::string prometheusBackendName(PrometheusBackend b);  // "unknown", "prometheus", "thanos", ...

// What one answer may hold (issue 26: 6 million tiny series once cost 5.3 GB before an error), counted while the body
// is read, before its series are built: series (or label values) and points, summed over the parts of a chunked range
// query. Beyond either, an error naming the URL, the query and the limit.
struct PrometheusBudget {
    std::size_t maxSeries = 100'000;
    std::size_t maxPoints = 20'000'000;  // 320 MB of samples
};

struct PrometheusSettings {
    std::string baseUrl;  // e.g. "http://prometheus:9090" or "https://mimir.example/prometheus"; no trailing /api/v1
    HttpOptions http;     // auth, extra headers (X-Scope-OrgID), TLS, timeouts, retries
    // Points per series in one range request; longer ranges are split. Prometheus refuses more than 11,000; a back
    // end with a lower limit (or a test forcing chunking) sets less.
    long maxPointsPerQuery = 11000;
    // The backend, when known (fetchTimeline sets it from serverInfo()): range queries then carry its parameters.
    // VictoriaMetrics: nocache=1, so that it evaluates at exactly start + k * step (with its cache on it rounds the
    // start down to a multiple of the step). Thanos: dedup=true (replicas of an HA pair count once) and
    // partial_response=false (a store that does not answer fails the query instead of silently lowering a sum).
    PrometheusBackend backend = PrometheusBackend::Unknown;
    PrometheusBudget budget;
};

// What a server says about itself, and the range-selector semantics its PromQL engine has.
struct ServerInfo {
    PrometheusBackend backend = PrometheusBackend::Unknown;
    std::string version;      // as reported ("2.42.0+ds", "0.37.2"); "" when the server gives none
    std::string description;  // "Prometheus 2.42.0+ds (revision ..., go1.19.8)", "VictoriaMetrics", ...
    WindowSemantics windows = WindowSemantics::Prometheus3;
    std::string windowsReason;  // why these windows, in words
};

// The answer to GET <base>/api/v1/status/buildinfo classified: Prometheus (revision and Go version beside the
// version; major 3 and later left-open), Thanos (version 0.x), Mimir / Cortex ("application"), VictoriaMetrics (its
// placeholder answers: an empty "data", or only a "version" — 2.24.0, which it reports to please Grafana), or a
// compatible server without the endpoint (400/404/405, or not build info). nullopt for answers that say nothing
// about the server (401, 403, 429, 5xx).
std::optional<ServerInfo> classifyBuildInfo(long httpStatus, const std::string& body);

struct QueryResult {
    std::string resultType;             // "matrix", "vector", "scalar", "string"
    std::vector<Series> series;         // a scalar becomes one series without labels
    std::vector<std::string> warnings;  // Prometheus' warnings, verbatim
    std::vector<std::string> infos;     // Prometheus 3's "infos" (informational annotations), verbatim
    std::string text;                   // the value of a "string" result (which has no series)
    // fp8dash's own remarks on the answer, one line each naming the URL: a range answer's samples outside the range
    // (dropped), at a repeated time (the first the server sent kept) or out of order (sorted).
    std::vector<std::string> notices;
};

class PrometheusClient {
public:
    // Prometheus refuses range queries with more than 11,000 points per series.
    static constexpr long kMaxPointsPerQuery = 11000;
    // A range query is refused before any request when it would return more points per series than this (a month at
    // 1 s is 2.6 million): raise the step instead.
    static constexpr long long kMaxTotalPoints = 5'000'000;

    explicit PrometheusClient(PrometheusSettings settings);

    // "Prometheus 2.42.0 (revision ..., go1.19.8)" or the exact error; another backend by its name ("VictoriaMetrics",
    // "Grafana Mimir 2.17.0"). Always asks (Test Connection), and refreshes what serverInfo() remembers.
    Result<std::string> buildInfo(const Progress& progress = {}) const;

    // The backend and its window semantics (classifyBuildInfo), asked once per base URL for the life of the process
    // (also when the answer was "no build info"). A transport error, 429 or 5xx is an error; 401, 403 and the like
    // give an unknown server (a gateway may guard this path alone); neither is remembered.
    Result<ServerInfo> serverInfo(const Progress& progress = {}) const;
    // What serverInfo() or buildInfo() learnt about this base URL so far; nullopt when nothing yet.
    std::optional<ServerInfo> knownServerInfo() const;

    // Instant query at `time` (unix seconds, sent to the millisecond).
    Result<QueryResult> query(const std::string& promql, double time, const Progress& progress = {}) const;

    // Range query over [start, end] at `step` seconds (times and step are rounded to milliseconds, as Prometheus
    // does). Ranges over settings().maxPointsPerQuery points are split into chunks on the same step grid (chunk k
    // starts at start + k * maxPointsPerQuery * step), fetched concurrently (up to `parallel` at once) and joined
    // seamlessly: series matched by their full label set, timestamps unique and ascending, series ordered by labels;
    // samples outside [start, end] are dropped, repeated times keep the first sample sent, unordered ones are sorted,
    // each with a notice (a server that does so is not Prometheus as documented).
    // Progress reports the fraction of chunks done. Errors carry Prometheus' errorType and error verbatim, and name
    // the URL.
    Result<QueryResult> queryRange(const std::string& promql, double start, double end, double step,
                                   const Progress& progress = {}, int parallel = 4) const;

    // /api/v1/label/<label>/values: the values of one label (`__name__` gives the metric names), narrowed to series
    // matching the selectors in `match` and to [start, end] when both are finite (unix seconds). Sorted as the server
    // sends them. Errors as for query().
    Result<std::vector<std::string>> labelValues(const std::string& label, const std::vector<std::string>& match = {},
                                                 double start = NAN, double end = NAN,
                                                 const Progress& progress = {}) const;

    const PrometheusSettings& settings() const { return m_settings; }

private:
    Result<QueryResult> fetch(const std::string& path, const QueryParams& params, const Progress& progress) const;
    PrometheusSettings m_settings;
    HttpClient m_http;
};

// Parses a Prometheus API JSON body ({"status": "success"|"error", "data": ..., "errorType", "error", "warnings"});
// `where` is the URL as shown (HttpClient::displayUrl). Values arrive as strings ("1.5", "NaN", "+Inf", "-Inf").
// Messages read "Prometheus at <where>: <errorType>: <error>" (verbatim), or name the HTTP status and the first
// ~200 characters of a body that is not Prometheus API JSON (a proxy's HTML page, "Unauthorized", a cut-off body).
// Series and points are counted against `budget` as they are read (`query`, when given, is named in its message).
Result<QueryResult> parsePrometheusResponse(const std::string& body, long httpStatus, const std::string& where,
                                            const PrometheusBudget& budget = {}, const std::string& query = {});

// When FP8 went on, as vLLM reports it: the first time a vllm:cache_config_info series with an FP8 cache_dtype
// appears after one with a non-FP8 cache_dtype was seen. nullopt when the range shows no such change.
struct DetectedChange {
    double at = 0;
    std::string from;  // "auto"
    std::string to;    // "fp8"
};
std::optional<DetectedChange> detectCacheDtypeChange(const std::vector<Series>& cacheConfigInfo);

}  // namespace fp8dash
