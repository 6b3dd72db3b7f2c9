#pragma once
// A Prometheus HTTP API client (/api/v1/query_range, /api/v1/query, /api/v1/status/buildinfo), plain enough to work
// unchanged with Thanos, Mimir, Cortex and VictoriaMetrics. Synchronous; thread-safe (one instance may serve
// several threads). See shared/notes/data-formats.md §3 for the response shapes.

#include <string>
#include <vector>

#include "fp8dash/core/http_client.h"
#include "fp8dash/core/result.h"
#include "fp8dash/core/time_series.h"

namespace fp8dash {

struct PrometheusSettings {
    std::string baseUrl;  // e.g. "http://prometheus:9090" or "https://mimir.example/prometheus"; no trailing /api/v1
    HttpOptions http;     // auth, extra headers (X-Scope-OrgID), TLS, timeouts, retries
};

struct QueryResult {
    std::string resultType;             // "matrix", "vector", "scalar", "string"
    std::vector<Series> series;         // a scalar becomes one series without labels
    std::vector<std::string> warnings;  // Prometheus' warnings, verbatim
};

class PrometheusClient {
public:
    // Prometheus refuses range queries with more than 11,000 points per series.
    static constexpr long kMaxPointsPerQuery = 11000;

    explicit PrometheusClient(PrometheusSettings settings);

    // "Prometheus 2.42.0 (revision ..., go1.19.8)" or the exact error.
    Result<std::string> buildInfo(const Progress& progress = {}) const;

    // Instant query at `time` (unix seconds).
    Result<QueryResult> query(const std::string& promql, double time, const Progress& progress = {}) const;

    // Range query over [start, end] at `step` seconds. Ranges over the 11,000-point limit are split into chunks on
    // the same step grid, fetched concurrently (up to `parallel` at once) and joined seamlessly (no duplicate or
    // missing timestamp at the seams). Errors carry Prometheus' errorType and error verbatim, and name the URL.
    Result<QueryResult> queryRange(const std::string& promql, double start, double end, double step,
                                   const Progress& progress = {}, int parallel = 4) const;

    const PrometheusSettings& settings() const { return m_settings; }

private:
    Result<QueryResult> fetch(const std::string& path, const QueryParams& params, const Progress& progress) const;
    PrometheusSettings m_settings;
    HttpClient m_http;
};

// Parses a Prometheus API JSON body ({"status": "success"|"error", "data": ..., "errorType", "error", "warnings"});
// `where` names the URL in messages. Values arrive as strings ("1.5", "NaN", "+Inf", "-Inf").
Result<QueryResult> parsePrometheusResponse(const std::string& body, long httpStatus, const std::string& where);

// When FP8 went on, as vLLM reports it: the first time a vllm:cache_config_info series with an FP8 cache_dtype
// appears after one with a non-FP8 cache_dtype was seen. nullopt when the range shows no such change.
struct DetectedChange {
    double at = 0;
    std::string from;  // "auto"
    std::string to;    // "fp8"
};
std::optional<DetectedChange> detectCacheDtypeChange(const std::vector<Series>& cacheConfigInfo);

}  // namespace fp8dash
