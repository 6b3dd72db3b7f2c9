// Reachability of a saved comparison's live sources (live_sources.h).
#include "fp8dash/core/live_sources.h"

#include "fp8dash/core/http_client.h"

namespace fp8dash {
namespace {

// The host of an http(s) URL, lower case ("" when there is none).
std::string hostOf(const std::string& url) {
    std::size_t start = url.find("://");
    start = start == std::string::npos ? 0 : start + 3;
    std::size_t end = url.find_first_of("/?#", start);
    std::string authority = url.substr(start, end == std::string::npos ? std::string::npos : end - start);
    if (const auto at = authority.rfind('@'); at != std::string::npos) authority = authority.substr(at + 1);
    if (!authority.empty() && authority[0] == '[') return authority.substr(0, authority.find(']') + 1);
    std::string host = authority.substr(0, authority.find(':'));
    for (char& c : host) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
    return host;
}

bool isPlaceholderHost(const std::string& host) {
    const std::string suffix = ".invalid";
    return host == "invalid" ||
           (host.size() > suffix.size() && host.compare(host.size() - suffix.size(), suffix.size(), suffix) == 0);
}

LiveSourceCheck check(const std::string& what, const std::string& baseUrl, const std::string& path, double timeoutS) {
    HttpOptions o;
    o.connectTimeoutS = timeoutS;
    o.totalTimeoutS = timeoutS;
    o.maxRetries = 0;
    o.maxResponseBytes = 1 << 20;
    LiveSourceCheck c{what, HttpClient::displayUrl(baseUrl), false, false, {}};
    if (isPlaceholderHost(hostOf(baseUrl))) {
        c.placeholder = true;
        c.detail = "a placeholder address (.invalid)";
        return c;
    }
    std::string url = baseUrl;
    while (!url.empty() && url.back() == '/') url.pop_back();
    auto response = HttpClient(o).get(url + path);
    if (response) {
        c.reachable = true;
        c.detail = "HTTP " + std::to_string(response->status);
    } else {
        // The client's message starts with "GET <url>: "; the URL is shown beside it already.
        c.detail = response.error().message;
        if (const auto colon = c.detail.find(": "); c.detail.rfind("GET ", 0) == 0 && colon != std::string::npos)
            c.detail = c.detail.substr(colon + 2);
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
