#pragma once
// A stand-in for Langfuse's public scores API on loopback (shared/notes/data-formats.md §4), following the published
// API for what fp8dash uses: GET /api/public/v2/scores (v3.53+) and the older GET /api/public/scores, page/limit
// pagination (page >= 1, limit 1..100, default 50), the name / fromTimestamp (inclusive) / toTimestamp (exclusive) /
// traceTags (repeated, all required) / environment (repeated) filters, newest first, HTTP Basic auth with
// public:secret keys (401 {"message": ...} otherwise), 400 {"message": "Invalid request data", "error": [issues]} for
// invalid parameters. Faults: legacy servers (v2 answers 404), rate limiting (429 + Retry-After), malformed bodies.
// Thread-safe like TestHttpServer; the seeded scores are fixed at construction.

#include <string>
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
};

class LangfuseTestServer {
public:
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
        bool legacyOnly = false;  // a server older than v3.53: /api/public/v2/scores is 404, /api/public/scores works
        int rateLimitFirst = 0;   // the first N authenticated requests answer 429 with Retry-After
        int retryAfterS = 1;
        Malformed malformed = Malformed::None;
    };

    explicit LangfuseTestServer(std::vector<LangfuseSeedScore> scores);
    LangfuseTestServer(std::vector<LangfuseSeedScore> scores, Options options);

    std::string baseUrl() const { return m_http.baseUrl(); }
    const Options& options() const { return m_options; }
    std::vector<TestHttpServer::Request> requests() const { return m_http.requests(); }
    std::size_t requestCount() const { return m_http.requestCount(); }

    static std::string isoTimestamp(double unixSeconds);  // "2026-11-20T10:00:00.123Z"

private:
    TestHttpServer::Reply handle(const TestHttpServer::Request& request);
    TestHttpServer::Reply listScores(const TestHttpServer::Request& request, bool legacy);

    Options m_options;
    std::vector<LangfuseSeedScore> m_scores;  // sorted newest first, as Langfuse orders its list
    int m_authenticatedRequests = 0;          // guarded by m_mutex
    std::mutex m_mutex;
    TestHttpServer m_http;  // last: its threads start in its constructor and call handle()
};

}  // namespace fp8dash::test
