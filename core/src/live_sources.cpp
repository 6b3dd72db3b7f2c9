// Reachability of a saved comparison's live sources (live_sources.h).
#include "fp8dash/core/live_sources.h"

#include "fp8dash/core/http_client.h"

namespace fp8dash {
namespace {

LiveSourceCheck check(const std::string& what, const std::string& baseUrl, const std::string& path, double timeoutS) {
    HttpOptions o;
    o.connectTimeoutS = timeoutS;
    o.totalTimeoutS = timeoutS;
    o.maxRetries = 0;
    o.maxResponseBytes = 1 << 20;
    LiveSourceCheck c{what, HttpClient::displayUrl(baseUrl), false, {}};
    std::string url = baseUrl;
    while (!url.empty() && url.back() == '/') url.pop_back();
    auto response = HttpClient(o).get(url + path);
    if (response) {
        c.reachable = true;
        c.detail = "HTTP " + std::to_string(response->status);
    } else {
        c.detail = response.error().message;
    }
    return c;
}

}  // namespace

std::vector<LiveSourceCheck> checkTimelineSources(const TimelineSettings& s, double timeoutS) {
    std::vector<LiveSourceCheck> out;
    const bool usesPrometheus = s.fetchThroughput || s.qualitySource == QualitySource::Prometheus;
    // Prometheus (and Thanos, Mimir, VictoriaMetrics) answer /api/v1/status/buildinfo; any answer will do.
    if (usesPrometheus && !s.prometheusUrl.empty())
        out.push_back(check("Prometheus", s.prometheusUrl, "/api/v1/status/buildinfo", timeoutS));
    // Langfuse's public health endpoint needs no keys.
    if (s.qualitySource == QualitySource::Langfuse && !s.langfuseUrl.empty())
        out.push_back(check("Langfuse", s.langfuseUrl, "/api/public/health", timeoutS));
    return out;
}

}  // namespace fp8dash
