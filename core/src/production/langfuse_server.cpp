// What LangfuseClient's endpoints share (langfuse_session.h): the request with its 429 waits and deprecation notices,
// the status messages, the memory of servers and their detection (GET /api/public/health's version; notes §0).
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <map>
#include <mutex>
#include <set>
#include <thread>

#include "fp8dash/core/json_text.h"
#include "production/langfuse_session.h"
#include "text_util.h"

namespace fp8dash {
namespace {

using json = nlohmann::json;

std::mutex& cacheMutex() {
    static std::mutex m;
    return m;
}
std::map<std::string, LangfuseServerInfo>& serverCache() {
    static std::map<std::string, LangfuseServerInfo> c;
    return c;
}
std::set<std::string>& deprecationsSaid() {
    static std::set<std::string> s;
    return s;
}

void replaceAll(std::string& text, const std::string& what, const std::string& with) {
    if (what.empty()) return;
    for (auto pos = text.find(what); pos != std::string::npos; pos = text.find(what, pos + with.size()))
        text.replace(pos, what.size(), with);
}

std::string stripSlash(std::string base) {
    while (!base.empty() && base.back() == '/') base.pop_back();
    return base;
}

// "4.16.0" -> {4, 16}; nullopt for what is not a version.
std::optional<std::pair<int, int>> langfuseMajorMinor(const std::string& version) {
    int major = 0, minor = 0;
    if (std::sscanf(version.c_str(), "%d.%d", &major, &minor) != 2 || major < 0 || minor < 0) return std::nullopt;
    return std::pair{major, minor};
}

// Waits `seconds` in slices, false when cancelled.
bool waitCancellable(double seconds, const Progress& progress) {
    const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
    while (std::chrono::steady_clock::now() < end) {
        if (progress.isCancelled()) return false;
        std::this_thread::sleep_for(std::min<std::chrono::duration<double>>(std::chrono::milliseconds(50),
                                                                            end - std::chrono::steady_clock::now()));
    }
    return !progress.isCancelled();
}

std::optional<double> retryAfter(const HttpResponse& r) {
    if (auto h = r.header("retry-after")) {
        char* end = nullptr;
        const double s = std::strtod(h->c_str(), &end);
        if (end != h->c_str() && std::isfinite(s) && s >= 0) return s;
    }
    const json doc = json::parse(r.body, nullptr, false);
    if (doc.is_object())
        if (auto d = doc.find("details"); d != doc.end() && d->is_object())
            if (auto s = d->find("retryAfterSeconds"); s != d->end() && s->is_number() && s->get<double>() >= 0)
                return s->get<double>();
    return std::nullopt;
}

}  // namespace

std::string langfuseScoresApiPath(LangfuseScoresApi api) {
    switch (api) {
        case LangfuseScoresApi::V3:
            return "/api/public/v3/scores";
        case LangfuseScoresApi::V2:
            return "/api/public/v2/scores";
        case LangfuseScoresApi::Legacy:
            return "/api/public/scores";
    }
    return "/api/public/v3/scores";
}

std::optional<LangfuseServerInfo> knownLangfuseServer(const std::string& baseUrl) {
    std::lock_guard lock(cacheMutex());
    const auto it = serverCache().find(stripSlash(baseUrl));
    if (it == serverCache().end()) return std::nullopt;
    return it->second;
}

void forgetLangfuseServers() {
    std::lock_guard lock(cacheMutex());
    serverCache().clear();
    deprecationsSaid().clear();
}

namespace detail {

void rememberLangfuseServer(const std::string& base, const LangfuseServerInfo& info) {
    std::lock_guard lock(cacheMutex());
    serverCache()[stripSlash(base)] = info;
}

std::string thousands(double n) {
    char buf[40];
    std::snprintf(buf, sizeof buf, "%.0f", std::max(0.0, n));
    std::string digits = buf, out;
    for (std::size_t i = 0; i < digits.size(); ++i) {
        if (i && (digits.size() - i) % 3 == 0) out += ',';
        out += digits[i];
    }
    return out;
}

std::size_t hashCombine(std::size_t h, const std::string& text) {
    return (h ^ std::hash<std::string>{}(text)) * 1099511628211ULL + 0x9e3779b97f4a7c15ULL;
}

void LangfuseReadGuard::newList() {
    m_cursors.clear();
    m_pages.clear();
}

Status LangfuseReadGuard::page(const LangfuseScoresPage& page, int pages) {
    const std::string stopped = ": the server repeats itself; stopped after " + std::to_string(pages) + " pages";
    if (page.cursor && !m_cursors.insert(*page.cursor).second)
        return m_session.fail(m_shown + " returned cursor " + excerpt(*page.cursor, 200) + " twice" + stopped);
    if (page.items > 0 && !m_pages.insert(page.contentHash).second)
        return m_session.fail(m_shown + " returned the same page of " + std::to_string(page.items) +
                              " items twice (page " + std::to_string(pages) + " repeats an earlier one)" + stopped);
    return success();
}

Status LangfuseReadGuard::overBudget(const std::string& what, std::size_t limit, int pages) const {
    return m_session.fail(m_shown + ": the answer holds more than " + thousands(static_cast<double>(limit)) + " " +
                          what + ", the limit of one read; stopped after " + std::to_string(pages) +
                          " pages (narrow the time range or the filters)");
}

Status LangfuseReadGuard::gathered(const std::vector<Score>& all, int pages) {
    for (; m_counted < all.size(); ++m_counted) {
        const Score& s = all[m_counted];
        m_textBytes += s.id.size() + s.traceId.size() + s.comment.size() + s.dataType.size();
    }
    if (all.size() > m_query.maxScores) return overBudget("scores", m_query.maxScores, pages);
    if (m_textBytes > m_query.maxTextBytes)
        return overBudget("bytes of score ids and comments", m_query.maxTextBytes, pages);
    return success();
}

Status LangfuseReadGuard::gatheredIds(std::size_t count, std::size_t bytes, int pages) const {
    if (count > m_query.maxScores) return overBudget("traces", m_query.maxScores, pages);
    if (bytes > m_query.maxTextBytes) return overBudget("bytes of trace ids", m_query.maxTextBytes, pages);
    return success();
}

std::string excerpt(const std::string& text, std::size_t max) {
    std::string out;
    for (char c : text.substr(0, max)) out += (c == '\n' || c == '\r' || c == '\t') ? ' ' : c;
    if (text.size() > max) out += "…";
    return out;
}

void FetchMeter::operator()(double fraction, const std::string& what) const {
    fraction = std::clamp(fraction, 0.0, 1.0);
    std::string text = what;
    const double elapsed = std::chrono::duration<double>(Clock::now() - m_start).count();
    if (fraction > 0.02 && fraction < 1 && elapsed > 2) {
        const double left = elapsed / fraction * (1 - fraction);
        char buf[64];
        if (left < 90)
            std::snprintf(buf, sizeof buf, ", about %.0f s left", left);
        else if (left < 5400)
            std::snprintf(buf, sizeof buf, ", about %.0f min left", left / 60);
        else
            std::snprintf(buf, sizeof buf, ", about %.1f h left", left / 3600);
        text += buf;
    }
    m_progress(fraction, text);
}

LangfuseSession::LangfuseSession(const LangfuseSettings& settings, const HttpClient& http)
    : m_settings(settings),
      m_http(http),
      m_base(stripSlash(settings.baseUrl)),
      m_shownBase(HttpClient::displayUrl(m_base)),
      m_basicToken(text::base64(settings.publicKey + ":" + settings.secretKey)) {}

Error LangfuseSession::fail(std::string message) const {
    replaceAll(message, m_settings.secretKey, "***");
    replaceAll(message, m_basicToken, "***");
    return Error{std::move(message)};
}

Status LangfuseSession::ready() const {
    if (m_base.empty()) return fail("Langfuse: no server URL given");
    if (m_settings.publicKey.empty() || m_settings.secretKey.empty())
        return fail("Langfuse at " + m_shownBase +
                    ": a public key and a secret key are both needed (LANGFUSE_PUBLIC_KEY, LANGFUSE_SECRET_KEY)");
    return success();
}

void LangfuseSession::notice(const std::string& text) const {
    if (!m_settings.notice) return;
    std::string t = text;
    replaceAll(t, m_settings.secretKey, "***");
    replaceAll(t, m_basicToken, "***");
    m_settings.notice(t);
}

Result<HttpResponse> LangfuseSession::get(const std::string& path, const QueryParams& params, const Progress& progress,
                                          double fraction) const {
    const std::string url = m_base + path;
    const std::string shown = "GET " + HttpClient::displayUrl(url);
    const int maxWaits = std::max(0, m_settings.http.maxRetries);
    for (int attempt = 0;; ++attempt) {
        if (progress.isCancelled()) return fail(shown + ": cancelled");
        const auto started = std::chrono::steady_clock::now();
        auto r = m_http.get(url, params, progress);
        if (!r) return fail(r.error().message);
        ++m_requests;
        m_requestSeconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
        // The Metrics API's own limit is per hour or day: only the lists' per-minute limit sets the pace.
        if (auto limit = r->header("x-ratelimit-limit"); limit && path.find("/metrics") == std::string::npos) {
            char* end = nullptr;
            const double l = std::strtod(limit->c_str(), &end);
            if (end != limit->c_str() && l > 0) m_limitPerMinute = l;
        }
        r->attempts = attempt + 1;
        if (r->status == 429) {
            if (attempt >= maxWaits) return r;
            const double wait = retryAfter(*r).value_or(std::min(60.0, std::pow(2.0, attempt)));
            if (wait > kMaxRateLimitWaitS)
                return fail(shown + ": Langfuse is rate limiting the requests (429) and asks to wait " +
                            thousands(wait) + " s; try again later" +
                            (path.find("metrics") != std::string::npos
                                 ? " (the Metrics API's limit is per day or hour on Langfuse Cloud), or use the raw "
                                   "mode"
                                 : ", or use the aggregate mode for the timeline"));
            char buf[160];
            std::snprintf(buf, sizeof buf, "Langfuse rate limit (429): waiting %.0f s as the server asks", wait);
            progress(fraction, buf);
            if (wait >= 10) notice("Langfuse at " + m_shownBase + ": " + buf + " (Retry-After)");
            if (!waitCancellable(wait, progress)) return fail(shown + ": cancelled");
            continue;
        }
        if (r->status == 200 && r->body.find("\"_deprecation\"") != std::string::npos) {
            const json doc = json::parse(r->body, nullptr, false);
            if (doc.is_object())
                if (auto d = doc.find("_deprecation"); d != doc.end() && d->is_object()) {
                    bool first = false;
                    {
                        std::lock_guard lock(cacheMutex());
                        first = deprecationsSaid().insert(m_base + " " + path).second;
                    }
                    auto text = [&](const char* key) {
                        auto it = d->find(key);
                        return it != d->end() && it->is_string() ? it->get<std::string>() : std::string();
                    };
                    if (first)
                        notice("Langfuse at " + m_shownBase + ": GET " + path + " is deprecated" +
                               (text("message").empty() ? "" : " (" + excerpt(text("message"), 200) + ")") +
                               (text("replacement").empty() ? "" : "; its replacement is " + text("replacement")) +
                               (text("sunsetAt").empty() ? "" : "; it goes away on " + text("sunsetAt")));
                }
        }
        return r;
    }
}

Result<std::optional<LangfuseScoresPage>> LangfuseSession::scoresPage(const std::string& path,
                                                                      const QueryParams& params,
                                                                      const ScoreQuery& query, const std::string& where,
                                                                      bool firstPage, const Progress& progress,
                                                                      double fraction, std::vector<Score>& into) const {
    auto r = get(path, params, progress, fraction);
    if (!r) return r.error();
    if (r->status == 404 && firstPage) return std::optional<LangfuseScoresPage>{};
    if (r->status != 200) return statusError(where, *r);
    auto parsed = parseLangfuseScoresPage(r->body, query, where);
    if (!parsed) return fail(parsed.error().message);
    for (Score& s : parsed->scores) into.push_back(std::move(s));
    parsed->scores.clear();
    return std::optional<LangfuseScoresPage>(std::move(parsed).value());
}

Error LangfuseSession::statusError(const std::string& where, const HttpResponse& response) const {
    const long status = response.status;
    const std::string message = langfuseServerMessage(response.body);
    if (status == 401)
        return fail(where + ": Langfuse rejected the keys (401): " + message + ". Check the public key (" +
                    m_settings.publicKey + ") and the secret key, and that they belong to a project on this server");
    if (status == 403) return fail(where + ": Langfuse refused access (403): " + message);
    if (status == 404 || status == 410)
        return fail(where + ": not found (" + std::to_string(status) + "): " + message + ". Is " + m_shownBase +
                    " the Langfuse base URL?");
    if (status == 429)
        return fail(where + ": Langfuse is rate limiting the requests (429) after " +
                    std::to_string(response.attempts) + " attempts; try again later");
    if (status == 400) return fail(where + ": Langfuse rejected the query (400): " + message);
    return fail(where + ": HTTP " + std::to_string(status) + ": " + message);
}

double LangfuseSession::secondsPerRequest() const {
    const double measured = m_requests ? m_requestSeconds / m_requests : 0;
    return std::max(measured, m_limitPerMinute ? 60.0 / *m_limitPerMinute : 0.0);
}

void LangfuseSession::warnIfLong(double requests, const std::string& what) const {
    const double seconds = requests * secondsPerRequest();
    if (m_warnedLong || !(seconds > kLongFetchS)) return;
    m_warnedLong = true;
    char pace[96];
    if (m_limitPerMinute)
        std::snprintf(pace, sizeof pace, "the server's limit of %.0f requests a minute", *m_limitPerMinute);
    else
        std::snprintf(pace, sizeof pace, "%.2f s a request", secondsPerRequest());
    notice("Langfuse at " + m_shownBase + ": " + what + " needs about " + thousands(requests) + " more requests; at " +
           pace + " that takes about " + thousands(seconds / 60) +
           " min. The timeline's aggregate mode (--langfuse-mode aggregate; Aggregate in Timeline › Connect…) reads "
           "the quality series from the Metrics API in a few requests (the judge comparison needs the individual "
           "scores)");
}

}  // namespace detail

LangfuseClient::LangfuseClient(LangfuseSettings settings)
    : m_settings(std::move(settings)), m_http([this] {
          HttpOptions o = m_settings.http;
          o.auth.kind = HttpAuth::Kind::Basic;  // username = public key, password = secret key
          o.auth.user = m_settings.publicKey;
          o.auth.password = m_settings.secretKey;
          o.auth.token.clear();
          o.retryRateLimited = false;  // waited out by the session, which says so
          return o;
      }()) {}

// GET /api/public/health (no auth) names the version; the endpoints follow from it (notes §0). Without a version
// (an old or unusual server), v3 and observations are tried and the first 404 moves down (scores(), trace ids).
Result<LangfuseServerInfo> LangfuseClient::server(const Progress& progress) const {
    detail::LangfuseSession session(m_settings, m_http);
    if (auto ready = session.ready(); !ready) return ready.error();
    if (auto known = knownLangfuseServer(session.base())) return *known;
    auto r = session.get("/api/public/health", {}, progress);
    if (!r) return r.error();
    LangfuseServerInfo info;
    if (r->status == 200) {
        auto parsed = parseAnswerJson(r->body, "GET " + HttpClient::displayUrl(session.base() + "/api/public/health"));
        if (!parsed) return parsed.error();  // a repeated key: which version is meant is not defined
        const json& doc = *parsed;
        if (doc.is_object())
            if (auto v = doc.find("version"); v != doc.end() && v->is_string()) info.version = v->get<std::string>();
    }
    if (const auto v = langfuseMajorMinor(info.version)) {
        const auto [major, minor] = *v;
        if (major >= 4) {
            info.metrics = true;  // v4.3+ in write mode "legacy" has none: its 404 teaches that
        } else if (major == 3 && minor >= 180) {
            info.traces = LangfuseTraceApi::Traces;  // the Metrics API is an opt-in preview: asked when needed
        } else if (major == 3 && minor >= 53) {
            info.scores = LangfuseScoresApi::V2;  // v3 from 3.179 only behind a flag; v2 filters by trace tag
            info.traces = LangfuseTraceApi::None;
            info.metrics = false;  // 3.137-3.178 could answer from an empty events table: not trusted
        } else {
            info.scores = LangfuseScoresApi::Legacy;
            info.traces = LangfuseTraceApi::None;
            info.metrics = false;
        }
    }
    detail::rememberLangfuseServer(session.base(), info);
    return info;
}

}  // namespace fp8dash
