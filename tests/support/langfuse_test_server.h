#pragma once
// A stand-in for Langfuse's public API on loopback, following shared/notes/langfuse-api-2026.md for what fp8dash
// uses, in the "personalities" of the servers people run:
//   V4           self-hosted v4 (write mode events_only) and Cloud's current API: GET /api/public/v3/scores (cursor
//                pages, strict parameters), /api/public/v2/observations (filter JSON), /api/public/v2/metrics;
//                /api/public/v2/scores, /api/public/scores and /api/public/traces answer 404 before authentication.
//   V3WithV2     v3.180 .. v3.x: v3 scores, /traces, /v2/scores and /scores; observations v2 and the Metrics API are
//                an opt-in preview, off: 404 LangfuseNotFoundError after authentication.
//   V3Before180  v3.53 .. v3.179: /v2/scores (page/limit, traceTags), /traces, /scores; no v3 scores (404 page).
//   PreV353      before v3.53: only /api/public/scores (no environment filter: it ignores the parameter).
// Every personality: GET /api/public/health (no auth) with its version, HTTP Basic auth with public:secret keys
// (401 {"message": ...} otherwise), then rate limiting (429 + Retry-After, Cloud's body), then validation (400
// {"message": "Invalid request data", "error": [zod issues]}). Lists newest first. Cloud (options.cloud): legacy
// reads carry "_deprecation" and answers X-RateLimit-* headers. Faults: malformed bodies, 429s.
// Thread-safe like TestHttpServer; the seeded scores are fixed at construction (indexed: a million scores serve fast).

#include <atomic>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "test_http_server.h"

namespace fp8dash::test {

struct LangfuseSeedScore {
    std::string id;
    std::string traceId;
    double timestamp = 0;  // unix seconds; served as ISO 8601 with milliseconds, "Z"
    double value = 0;
    std::vector<std::string> traceTags;  // the tags of the score's trace
    std::string environment = "default";
    std::string name = "llm_judge_domain";
    std::string dataType = "NUMERIC";  // or "BOOLEAN" (value 1/0), "CATEGORICAL" (stringValue is the category)
    std::string stringValue;           // BOOLEAN/CATEGORICAL only
    std::optional<double> traceStart;  // when the score's trace started (its root observation); default: timestamp
    std::string comment;               // v3 "details" / v2 "comment"; "" is served as null
};

class LangfuseTestServer {
public:
    enum class Personality { V4, V3WithV2, V3Before180, PreV353 };

    enum class Malformed {
        None,
        NotJson,             // the body is cut mid-JSON
        ValueNotNumber,      // data[0].value is a string
        BadTimestamp,        // data[0].timestamp is not ISO 8601
        DataNotArray,        // "data" is an object
        TotalPagesNotNumber  // meta.totalPages is a string
    };

    struct Options {
        std::string publicKey = "pk-lf-test-1234";
        std::string secretKey = "sk-lf-test-SECRET-5678";
        Personality personality = Personality::V3Before180;
        bool legacyOnly = false;    // the same as personality PreV353 (kept for older tests)
        bool cloud = false;         // Cloud: "_deprecation" on legacy reads, X-RateLimit-* headers
        int cloudListLimit = 1000;  // Cloud's X-RateLimit-Limit of the score and observation lists (30: free plan)
        bool reportVersion = true;  // /api/public/health names the version (else it answers 404)
        int rateLimitFirst = 0;     // the first N authenticated requests answer 429 with Retry-After
        int retryAfterS = 1;
        Malformed malformed = Malformed::None;
        // A hostile server that repeats itself (issue 26): Cursor: the cursor lists (v3 scores, observations v2)
        // ignore the cursor asked and answer their first page, with its cursor, again; Page: the page/limit lists
        // (v2 and legacy scores, traces) ignore `page` and answer page 1, claiming a billion items.
        enum class Repeats { None, Cursor, Page } repeats = Repeats::None;
    };

    explicit LangfuseTestServer(std::vector<LangfuseSeedScore> scores);
    LangfuseTestServer(std::vector<LangfuseSeedScore> scores, Options options);

    std::string baseUrl() const { return m_http.baseUrl(); }
    const Options& options() const { return m_options; }
    std::vector<TestHttpServer::Request> requests() const { return m_http.requests(); }
    std::size_t requestCount() const { return m_http.requestCount(); }
    std::string version() const;  // what /api/public/health says for the personality

    static std::string isoTimestamp(double unixSeconds);  // "2026-11-20T10:00:00.123Z"

    // An outage: while set, every request (health included) answers 503 with Retry-After: 1. Any thread.
    void setUnavailable(bool unavailable) { m_unavailable = unavailable; }

private:
    using Reply = TestHttpServer::Reply;
    using Request = TestHttpServer::Request;
    struct Trace {
        std::string id;
        double start = 0;
        std::vector<std::string> tags;
        std::string environment;
    };

    Reply handle(const Request& request);
    Reply listScores(const Request& request, bool legacy);  // /v2/scores, /scores
    Reply scoresV3(const Request& request);
    Reply observationsV2(const Request& request);
    Reply traces(const Request& request);
    Reply metrics(const Request& request);
    const Trace* traceOf(const LangfuseSeedScore& s) const;

    Options m_options;
    std::vector<LangfuseSeedScore> m_scores;  // sorted newest first (timestamp, then id, descending)
    std::vector<Trace> m_traces;              // sorted newest first (start, then id, descending)
    std::unordered_map<std::string, std::vector<std::size_t>> m_byTrace;  // trace id -> indices in m_scores
    std::unordered_map<std::string, std::size_t> m_traceIndex;            // trace id -> index in m_traces
    int m_authenticatedRequests = 0;                                      // guarded by m_mutex
    std::atomic<bool> m_unavailable{false};
    std::mutex m_mutex;
    TestHttpServer m_http;  // last: its threads start in its constructor and call handle()
};

}  // namespace fp8dash::test
