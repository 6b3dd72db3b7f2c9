#pragma once
// A Langfuse public API client for judge scores (shared/notes/langfuse-api-2026.md). Which endpoints a server has is
// found once per base URL (GET /api/public/health's version, then the first 404) and remembered for the process:
//   - GET /api/public/v3/scores (Cloud, self-hosted v3.180+ and v4): cursor pages of 100; trace tags select traces
//     first (v4: GET /api/public/v2/observations with an arrayOptions "tags" filter on root observations; v3.x:
//     GET /api/public/traces?tags=), then their scores by traceId in batches;
//   - GET /api/public/v2/scores (v3.53 .. v3.179, where v3 is missing), page/limit with traceTags;
//   - GET /api/public/scores before v3.53;
//   - GET /api/public/v2/metrics (v4, Cloud): average and count of numeric scores per minute (the aggregate mode).
// HTTP Basic auth with the public and secret keys. 429 + Retry-After is waited out (cancellable, reported); a
// "_deprecation" object in an answer becomes one notice per server and replacement. Synchronous; thread-safe.

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "fp8dash/core/http_client.h"
#include "fp8dash/core/result.h"
#include "fp8dash/core/score_buckets.h"
#include "fp8dash/core/time_series.h"

namespace fp8dash {

struct LangfuseSettings {
    std::string baseUrl;    // e.g. "https://cloud.langfuse.com" or a self-hosted URL
    std::string publicKey;  // pk-lf-...; from the environment or the keychain, never saved
    std::string secretKey;  // sk-lf-...; never saved, never logged
    HttpOptions http;       // TLS, timeouts, retries (the auth field is set from the keys; maxRetries also bounds
                            // the waits for 429 answers of one request)
    // What the user should read besides progress (a deprecated endpoint, a fetch that will take long, a long wait
    // for the rate limit): one line each, no secrets. Called from the fetching thread; may be empty.
    std::function<void(const std::string&)> notice;
};

struct ScoreQuery {
    std::string name = "llm_judge_domain";
    std::optional<double> from;             // unix seconds, inclusive (fromTimestamp)
    std::optional<double> to;               // unix seconds, exclusive (toTimestamp)
    std::vector<std::string> traceTags;     // all must be on the score's trace, e.g. "precision:fp8"
    std::vector<std::string> environments;  // any of them (the score's environment)
    int pageSize = 100;                     // Langfuse allows at most 100 (clamped to 1..100)
    int maxPages = 100000;                  // guard against a server whose pages never end: an error beyond this
    // The budget of one read, checked as each page arrives (issue 26: a server that never stops sending ends in an
    // error naming the URL, not in std::bad_alloc): the scores (and trace ids) gathered, and the bytes of their text
    // (ids, trace ids, comments). A repeated cursor or a page equal to an earlier one is an error at once.
    std::size_t maxScores = 5'000'000;
    std::size_t maxTextBytes = std::size_t{1} << 30;
    bool allDataTypes = false;  // also return CATEGORICAL (and unknown) scores, value NaN unless numeric,
                                // so that a caller can refuse them by id rather than miss them
    // How many scores the query holds, when the caller knows (countScores): for the estimate of a long fetch. Where
    // it is absent and the server has the Metrics API, scores() asks it once.
    std::optional<double> expectedScores;
};

struct Score {
    std::string id;
    std::string traceId;
    double timestamp = 0;  // unix seconds
    double value = 0;
    std::string dataType = "NUMERIC";  // "NUMERIC", "BOOLEAN", "CATEGORICAL" (only with allDataTypes), ...
    std::string comment = {};          // the score's comment (the judge's reasoning), empty when none
};

// What a Langfuse server serves, as found by LangfuseClient::server().
enum class LangfuseScoresApi { V3, V2, Legacy };               // /v3/scores, /v2/scores, /scores
enum class LangfuseTraceApi { ObservationsV2, Traces, None };  // trace ids by tag (None: v2/legacy filter by tag)
struct LangfuseServerInfo {
    std::string version;  // from /api/public/health ("4.16.0"), "" when it did not say
    LangfuseScoresApi scores = LangfuseScoresApi::V3;
    LangfuseTraceApi traces = LangfuseTraceApi::ObservationsV2;
    std::optional<bool> metrics;  // GET /api/public/v2/metrics answers: known once asked or implied by the version
};
std::string langfuseScoresApiPath(LangfuseScoresApi api);  // "/api/public/v3/scores", ...
// The process-wide memory of servers (keyed by base URL): never ask a 404 twice. forget...: for tests.
std::optional<LangfuseServerInfo> knownLangfuseServer(const std::string& baseUrl);
void forgetLangfuseServers();

class LangfuseClient {
public:
    explicit LangfuseClient(LangfuseSettings settings);

    // What the server serves (one health request, remembered for the process' life with what later 404s teach).
    Result<LangfuseServerInfo> server(const Progress& progress = {}) const;

    // Every score matching the query, oldest first, each score once (by id). NUMERIC and BOOLEAN (1/0) scores are
    // kept, CATEGORICAL and other types skipped unless query.allDataTypes. Progress says what is fetched (traces,
    // then scores, counts, time left) and stops on cancel; errors name the URL and what went wrong (401: wrong keys;
    // malformed body: which field) and never hold the secret key.
    Result<std::vector<Score>> scores(const ScoreQuery& query, const Progress& progress = {}) const;

    // The aggregate mode: numeric scores (NUMERIC and BOOLEAN, as the raw mode keeps) per minute from the Metrics API
    // (avg and count; sum = avg x count), chunks of at most 1000 minutes, empty minutes dropped. from/to are needed;
    // buckets start at whole minutes from from's minute to to's. An error when the server has no Metrics API.
    Result<std::vector<ScoreBucket>> scoreBuckets(const ScoreQuery& query, const Progress& progress = {}) const;

    // How many numeric scores the query holds, from one Metrics API request; nullopt where the server has none.
    Result<std::optional<double>> countScores(const ScoreQuery& query, const Progress& progress = {}) const;

private:
    LangfuseSettings m_settings;
    HttpClient m_http;
};

// One page of the score list as the server sent it (HTTP 200), parsed and filtered as LangfuseClient::scores does
// (data types, a name the server ignored, environments), without the de-duplication across pages. `where` is the
// request as shown in messages ("GET https://host/api/public/v2/scores (page 2)"); errors name it and the field.
// v3 pages (typed "value": a number, true/false for BOOLEAN, a string otherwise) and their meta.cursor too.
// Pure; the client's only reading of a page, exposed for tests and the fuzzer.
struct LangfuseScoresPage {
    std::vector<Score> scores;          // kept scores, in page order
    std::size_t items = 0;              // entries of "data" (kept or not): 0 ends the paging
    std::optional<long> totalPages;     // meta.totalPages when the server sent it
    std::optional<double> totalItems;   // meta.totalItems when the server sent it
    std::optional<std::string> cursor;  // meta.cursor (v3) when the server sent one: absent on the last page
    std::size_t contentHash = 0;        // a hash of every data[i].id in order: a page answered twice has the same
};
Result<LangfuseScoresPage> parseLangfuseScoresPage(const std::string& body, const ScoreQuery& query,
                                                   const std::string& where);

// The readable part of a Langfuse error body ({"message", "error": [zod issues]}), else a one-line excerpt of it.
std::string langfuseServerMessage(const std::string& body);

// Scores as a time series (ascending, numeric values only).
Series scoresToSeries(const std::vector<Score>& scores, const std::string& name);

// ISO 8601 timestamps: parseIso8601 / toIso8601 in time_series.h.

}  // namespace fp8dash
