#pragma once
// A Langfuse public API client for judge scores: GET /api/public/v2/scores (page/limit <= 100, all pages), falling
// back to /api/public/scores on servers older than v3.53; HTTP Basic auth with the public and secret keys.
// See shared/notes/data-formats.md §4. Synchronous; thread-safe.

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "fp8dash/core/http_client.h"
#include "fp8dash/core/result.h"
#include "fp8dash/core/time_series.h"

namespace fp8dash {

struct LangfuseSettings {
    std::string baseUrl;    // e.g. "https://cloud.langfuse.com" or a self-hosted URL
    std::string publicKey;  // pk-lf-...; from the environment or the keychain, never saved
    std::string secretKey;  // sk-lf-...; never saved, never logged
    HttpOptions http;       // TLS, timeouts, retries (the auth field is set from the keys)
};

struct ScoreQuery {
    std::string name = "llm_judge_domain";
    std::optional<double> from;             // unix seconds, inclusive (fromTimestamp)
    std::optional<double> to;               // unix seconds, exclusive (toTimestamp)
    std::vector<std::string> traceTags;     // all must match (traceTags, repeated), e.g. "precision:fp8"
    std::vector<std::string> environments;  // environment (repeated)
    int pageSize = 100;                     // Langfuse allows at most 100 (clamped to 1..100)
    int maxPages = 100000;                  // guard against a server whose pages never end: an error beyond this
    bool allDataTypes = false;              // also return CATEGORICAL (and unknown) scores, value NaN unless numeric,
                                            // so that a caller can refuse them by id rather than miss them
};

struct Score {
    std::string id;
    std::string traceId;
    double timestamp = 0;  // unix seconds
    double value = 0;
    std::string dataType = "NUMERIC";  // "NUMERIC", "BOOLEAN", "CATEGORICAL" (only with allDataTypes), ...
    std::string comment = {};          // the score's comment (the judge's reasoning), empty when none
};

class LangfuseClient {
public:
    explicit LangfuseClient(LangfuseSettings settings);

    // Every page of scores matching the query, oldest first, each score once (by id: offset pages shift when scores
    // arrive during the fetch). NUMERIC and BOOLEAN (1/0) scores are kept, CATEGORICAL and other types skipped
    // unless query.allDataTypes.
    // Honours 429 Retry-After (through HttpClient's retries); reports progress per page and stops on cancel; errors
    // name the URL and what went wrong (401: wrong keys; malformed body: which field) and never hold the secret key.
    Result<std::vector<Score>> scores(const ScoreQuery& query, const Progress& progress = {}) const;

private:
    LangfuseSettings m_settings;
    HttpClient m_http;
};

// One page of the score list as the server sent it (HTTP 200), parsed and filtered as LangfuseClient::scores does
// (data types, a name the server ignored, environments), without the de-duplication across pages. `where` is the
// request as shown in messages ("GET https://host/api/public/v2/scores (page 2)"); errors name it and the field.
// Pure; the client's only reading of a page, exposed for tests and the fuzzer.
struct LangfuseScoresPage {
    std::vector<Score> scores;       // kept scores, in page order
    std::size_t items = 0;           // entries of "data" (kept or not): 0 ends the paging
    std::optional<long> totalPages;  // meta.totalPages when the server sent it
};
Result<LangfuseScoresPage> parseLangfuseScoresPage(const std::string& body, const ScoreQuery& query,
                                                   const std::string& where);

// The readable part of a Langfuse error body ({"message", "error": [zod issues]}), else a one-line excerpt of it.
std::string langfuseServerMessage(const std::string& body);

// Scores as a time series (ascending, numeric values only).
Series scoresToSeries(const std::vector<Score>& scores, const std::string& name);

// ISO 8601 timestamps: parseIso8601 / toIso8601 in time_series.h.

}  // namespace fp8dash
