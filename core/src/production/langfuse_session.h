#pragma once
// Private to core: what LangfuseClient's endpoints share. One request (429 waited out and reported, "_deprecation"
// turned into one notice, statuses into messages), the process-wide memory of servers, and progress with time left.

#include <chrono>
#include <optional>
#include <string>
#include <unordered_set>
#include <vector>

#include "fp8dash/core/http_client.h"
#include "fp8dash/core/langfuse_client.h"
#include "fp8dash/core/result.h"

namespace fp8dash::detail {

class LangfuseSession {
public:
    LangfuseSession(const LangfuseSettings& settings, const HttpClient& http);

    const std::string& base() const { return m_base; }            // without the trailing '/'
    const std::string& shownBase() const { return m_shownBase; }  // without user info
    // An Error whose text never holds the secret key (plain or inside the Basic header).
    Error fail(std::string message) const;
    // An error when the URL or a key is missing; before any request.
    Status ready() const;
    void notice(const std::string& text) const;

    // GET base + path. A 429 is waited out as Retry-After (or details.retryAfterSeconds) asks, up to maxRetries
    // times and kMaxRateLimitWaitS each, reported through progress (at `fraction`) and as a notice when long; a
    // "_deprecation" object in a 200 answer becomes one notice per server and path. Any other status is a value.
    Result<HttpResponse> get(const std::string& path, const QueryParams& params, const Progress& progress,
                             double fraction = 0) const;
    // The message for a status other than 200 (401 names the public key, 429 the attempts, 400 Langfuse's issues).
    Error statusError(const std::string& where, const HttpResponse& response) const;
    // One page of a score list: GET, then parseLangfuseScoresPage; the page's scores are appended to `into` (the
    // paged readers of the v1 and v3 APIs gather them alike) and the rest of the page returned. nullopt when the
    // first page (`firstPage`) is a 404: the server has no such list (the caller moves on); any other status but 200
    // is statusError. `where` names the request in messages.
    Result<std::optional<LangfuseScoresPage>> scoresPage(const std::string& path, const QueryParams& params,
                                                         const ScoreQuery& query, const std::string& where,
                                                         bool firstPage, const Progress& progress, double fraction,
                                                         std::vector<Score>& into) const;

    // The pace of the server: seconds a request takes (measured), or what its rate limit allows, whichever is longer.
    double secondsPerRequest() const;
    // A notice when `requests` more requests would take more than a few minutes at the server's pace.
    void warnIfLong(double requests, const std::string& what) const;

private:
    const LangfuseSettings& m_settings;
    const HttpClient& m_http;
    std::string m_base, m_shownBase, m_basicToken;
    mutable int m_requests = 0;
    mutable double m_requestSeconds = 0;
    mutable std::optional<double> m_limitPerMinute;  // X-RateLimit-Limit of the last rate-limited route
    mutable bool m_warnedLong = false;
};

inline constexpr double kMaxRateLimitWaitS = 300;  // a longer Retry-After is an error (the daily metrics limit)
inline constexpr double kLongFetchS = 180;         // "more than a few minutes": say so before going on

// The process-wide memory of servers (langfuse_server.cpp).
void rememberLangfuseServer(const std::string& base, const LangfuseServerInfo& info);

// Progress with counts and the time left, from the fraction done and the time since construction.
class FetchMeter {
public:
    explicit FetchMeter(const Progress& progress) : m_progress(progress), m_start(Clock::now()) {}
    void operator()(double fraction, const std::string& what) const;

private:
    using Clock = std::chrono::steady_clock;
    const Progress& m_progress;
    Clock::time_point m_start;
};

// Narrows a progress reporter to the part [lo, hi] of the whole.
inline Progress stage(const Progress& p, double lo, double hi) {
    Progress out;
    out.cancelled = p.cancelled;
    if (p.report) out.report = [p, lo, hi](double f, const std::string& what) { p.report(lo + (hi - lo) * f, what); };
    return out;
}

// Keeps one paged read bounded (issue 26, finding 8): a cursor answered twice, or a page whose items (their ids, in
// order) equal an earlier page's, ends the read with an error naming the URL: the server repeats itself, and waiting
// for maxPages would cost hours and gigabytes. What the read gathers is counted as each page arrives, against
// ScoreQuery's maxScores and maxTextBytes. `shown` names the request ("GET https://host/api/public/v3/scores").
class LangfuseReadGuard {
public:
    LangfuseReadGuard(const LangfuseSession& session, std::string shown, const ScoreQuery& query)
        : m_session(session), m_shown(std::move(shown)), m_query(query) {}
    // A new list (another batch of trace ids): its cursors and pages are its own; the budget goes on.
    void newList();
    // After page `pages` (requests so far) arrived: an error when its cursor or its items were seen before.
    Status page(const LangfuseScoresPage& page, int pages);
    // After the page's scores were appended to `all`: an error beyond the budget (only the new scores are counted).
    Status gathered(const std::vector<Score>& all, int pages);
    // Trace ids gathered so far and the bytes of every id received.
    Status gatheredIds(std::size_t count, std::size_t bytes, int pages) const;

private:
    Status overBudget(const std::string& what, std::size_t limit, int pages) const;
    const LangfuseSession& m_session;
    std::string m_shown;
    const ScoreQuery& m_query;
    std::unordered_set<std::string> m_cursors;
    std::unordered_set<std::size_t> m_pages;
    std::size_t m_counted = 0, m_textBytes = 0;
};

// Mixes `text` into the running hash `h` (order matters).
std::size_t hashCombine(std::size_t h, const std::string& text);

std::string thousands(double n);  // 1234567 -> "1,234,567"
std::string excerpt(const std::string& text, std::size_t max = 200);

// The endpoints (langfuse_v3.cpp, langfuse_client.cpp). `missing` is set (and nothing returned) when the first
// request answers 404: the server lacks the endpoint. Scores come in the server's order, possibly repeated.
Result<std::vector<std::string>> langfuseTraceIds(const LangfuseSession& session, LangfuseTraceApi api,
                                                  const ScoreQuery& query, const Progress& progress, bool& missing);
Result<std::vector<Score>> langfuseScoresV3(const LangfuseSession& session, const ScoreQuery& query,
                                            const std::vector<std::string>* traceIds, const Progress& progress,
                                            bool& missing);
Result<std::vector<Score>> langfuseScoresPaged(const LangfuseSession& session, const std::string& path,
                                               const ScoreQuery& query, const Progress& progress, bool& missing);

}  // namespace fp8dash::detail
