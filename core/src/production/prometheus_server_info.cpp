// Which server answers the Prometheus API, and which range-selector semantics its engine has: classified from
// /api/v1/status/buildinfo (or its absence), asked once per base URL for the life of the process.
#include <cstdlib>
#include <map>
#include <mutex>

#include "production/prometheus_server_info.h"

#include "fp8dash/core/lm_eval_results.h"  // parseJsonText

namespace fp8dash {
namespace {

// The leading "major.minor" of a version such as "2.42.0+ds" or "v0.37.2"; nullopt when it does not start so.
std::optional<std::pair<int, int>> majorMinor(const std::string& version) {
    std::size_t i = version.rfind('v', 0) == 0 ? 1 : 0;
    const auto number = [&](int& out) {
        const std::size_t start = i;
        out = 0;
        while (i < version.size() && version[i] >= '0' && version[i] <= '9' && i - start < 6)
            out = out * 10 + (version[i++] - '0');
        return i > start;
    };
    int major = 0, minor = 0;
    if (!number(major)) return std::nullopt;
    if (i < version.size() && version[i] == '.') {
        ++i;
        if (!number(minor)) minor = 0;
    }
    return std::pair{major, minor};
}

bool atLeast(const std::optional<std::pair<int, int>>& v, int major, int minor) {
    return v && (v->first > major || (v->first == major && v->second >= minor));
}

std::string stringMember(const Json& object, const char* key) {
    const auto it = object.find(key);
    return it != object.end() && it->is_string() ? it->get<std::string>() : std::string();
}

ServerInfo prometheusInfo(const std::string& version, const std::string& details) {
    ServerInfo info;
    info.backend = PrometheusBackend::Prometheus;
    info.version = version;
    info.description = "Prometheus " + version + (details.empty() ? "" : " (" + details + ")");
    const auto v = majorMinor(version);
    info.windows = atLeast(v, 3, 0) ? WindowSemantics::Prometheus3 : WindowSemantics::Prometheus2;
    info.windowsReason =
        atLeast(v, 3, 0) ? "Prometheus 3 selects left-open windows" : "Prometheus 2 selects closed windows";
    return info;
}

// Thanos, Mimir and Cortex evaluate PromQL with the Prometheus engine they vendor. The releases from which that is
// Prometheus 3 (left-open windows) come from their release notes and are not tested here: the README says so, and
// --window-semantics overrides the choice.
ServerInfo engineInfo(PrometheusBackend backend, const std::string& name, const std::string& version, int major3,
                      int minor3) {
    ServerInfo info;
    info.backend = backend;
    info.version = version;
    info.description = name + (version.empty() ? "" : " " + version);
    const bool three = version.empty() || atLeast(majorMinor(version), major3, minor3);
    info.windows = three ? WindowSemantics::Prometheus3 : WindowSemantics::Prometheus2;
    info.windowsReason = name + (three ? (version.empty() ? " (version unknown: assumed current, " : " (") +
                                             std::string("Prometheus 3 engine) selects left-open windows")
                                       : " before " + std::to_string(major3) + "." + std::to_string(minor3) +
                                             " (Prometheus 2 engine) selects closed windows");
    return info;
}

ServerInfo victoriaMetricsInfo() {
    ServerInfo info;
    info.backend = PrometheusBackend::VictoriaMetrics;
    info.description = "VictoriaMetrics";
    info.windows = WindowSemantics::Prometheus3;
    info.windowsReason = "VictoriaMetrics' rollup windows are left-open, (t−d, t]";
    return info;
}

ServerInfo unknownInfo(const std::string& why) {
    ServerInfo info;
    info.description = "a Prometheus-compatible server (" + why + ")";
    info.windows = WindowSemantics::Prometheus3;
    info.windowsReason = "unknown server: assumed current Prometheus 3 (left-open windows)";
    return info;
}

std::mutex s_cacheMutex;
std::map<std::string, ServerInfo>& cache() {
    static std::map<std::string, ServerInfo> known;
    return known;
}

}  // namespace

namespace detail {

void rememberServerInfo(const std::string& baseUrl, const ServerInfo& info) {
    std::lock_guard lock(s_cacheMutex);
    cache()[baseUrl] = info;
}

std::optional<ServerInfo> rememberedServerInfo(const std::string& baseUrl) {
    std::lock_guard lock(s_cacheMutex);
    if (auto it = cache().find(baseUrl); it != cache().end()) return it->second;
    return std::nullopt;
}

}  // namespace detail

std::optional<ServerInfo> PrometheusClient::knownServerInfo() const {
    return detail::rememberedServerInfo(m_settings.baseUrl);
}

std::string prometheusBackendName(PrometheusBackend b) {
    switch (b) {
        case PrometheusBackend::Unknown:
            return "unknown";
        case PrometheusBackend::Prometheus:
            return "prometheus";
        case PrometheusBackend::Thanos:
            return "thanos";
        case PrometheusBackend::Mimir:
            return "mimir";
        case PrometheusBackend::Cortex:
            return "cortex";
        case PrometheusBackend::VictoriaMetrics:
            return "victoriametrics";
    }
    return "unknown";
}

std::optional<ServerInfo> classifyBuildInfo(long httpStatus, const std::string& body) {
    if (httpStatus == 400 || httpStatus == 404 || httpStatus == 405)
        return unknownInfo("no /api/v1/status/buildinfo: HTTP " + std::to_string(httpStatus));
    if (httpStatus < 200 || httpStatus >= 300) return std::nullopt;
    auto parsed = parseJsonText(body, "the build information");
    if (!parsed) return unknownInfo("its build information is not JSON");
    const Json& doc = *parsed;
    if (!doc.is_object() || stringMember(doc, "status") != "success" || !doc.contains("data") ||
        !doc["data"].is_object())
        return unknownInfo("no build information in its answer");
    const Json& d = doc["data"];
    const std::string version = stringMember(d, "version"), application = stringMember(d, "application");
    if (application.find("Mimir") != std::string::npos)
        return engineInfo(PrometheusBackend::Mimir, "Grafana Mimir", version, 2, 15);
    if (application.find("Cortex") != std::string::npos)
        return engineInfo(PrometheusBackend::Cortex, "Cortex", version, 1, 19);
    // VictoriaMetrics answers with a placeholder: {} (before v1.96) or {"version": "2.24.0"} (a Prometheus version it
    // reports so that Grafana picks its newer label API): no revision, branch or Go version, which every real
    // Prometheus build (2.14 and later) and Thanos report.
    if (d.empty() || (d.size() == 1 && d.contains("version"))) return victoriaMetricsInfo();
    if (version.empty()) return unknownInfo("its build information has no version");
    std::string details = stringMember(d, "revision");
    if (!details.empty()) details = "revision " + details;
    if (const std::string go = stringMember(d, "goVersion"); !go.empty()) details += (details.empty() ? "" : ", ") + go;
    // Thanos' versions are 0.x; Prometheus has had build information only since 2.14.
    if (const auto v = majorMinor(version); v && v->first == 0) {
        ServerInfo info = engineInfo(PrometheusBackend::Thanos, "Thanos", version, 0, 37);
        if (!details.empty()) info.description += " (" + details + ")";
        return info;
    }
    return prometheusInfo(version, details);
}

Result<ServerInfo> PrometheusClient::serverInfo(const Progress& progress) const {
    if (auto known = detail::rememberedServerInfo(m_settings.baseUrl)) return *known;
    const std::string url = m_settings.baseUrl + "/api/v1/status/buildinfo";
    const std::string shown = HttpClient::displayUrl(url);
    auto response = m_http.get(url, {}, progress);
    if (!response) {
        std::string why = response.error().message;
        if (const std::string prefix = "GET " + shown + ": "; why.rfind(prefix, 0) == 0)
            why = why.substr(prefix.size());
        return Error{"Prometheus at " + shown + ": " + why};
    }
    auto info = classifyBuildInfo(response->status, response->body);
    if (info) {
        detail::rememberServerInfo(m_settings.baseUrl, *info);
        return *info;
    }
    // Unavailable or rate-limited: the queries would meet the same. Refused (401, 403): a gateway may guard this path
    // alone, so the queries get their own answer; not remembered either way.
    const long status = response->status;
    if (status == 429 || status >= 500)
        return Error{"Prometheus at " + shown + ": HTTP " + std::to_string(status) +
                     (status == 429 ? " (too many requests: the server is rate-limiting)"
                                    : " (the server or a proxy in front of it is unavailable)")};
    return unknownInfo("it did not say which it is: HTTP " + std::to_string(status));
}

}  // namespace fp8dash
