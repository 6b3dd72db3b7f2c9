#pragma once
// One HTTP stack for the data sources (DESIGN.md): libcurl, synchronous, usable from the CLI without an event loop.
// Timeouts, TLS verification on by default, bounded retries with backoff where a retry can help, cancellation.
// An HttpClient is immutable after construction and may be used from several threads at once.

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "fp8dash/core/result.h"

namespace fp8dash {

using Headers = std::vector<std::pair<std::string, std::string>>;
using QueryParams = std::vector<std::pair<std::string, std::string>>;

// Extra request headers as a person types them: "Name: value" entries separated by `separator` (a newline in the
// timeline dialog's box; ';' in FP8DASH_PROMETHEUS_HEADERS, a one-line variable). Names and values are trimmed;
// blank entries are skipped. An entry without a name before its colon is an error naming `where` and the entry's
// number ("Extra headers, line 2: expected ..."); nothing is skipped silently.
Result<Headers> parseHeaderList(std::string_view text, std::string_view where, char separator = '\n');

// Progress and cancellation for long work. `cancelled` is polled often (every transfer tick, every backoff slice);
// `report` receives a fraction in [0, 1] and a short text. Both may be empty. Called from worker threads.
struct Progress {
    std::function<bool()> cancelled;
    std::function<void(double fraction, const std::string& what)> report;

    bool isCancelled() const { return cancelled && cancelled(); }
    void operator()(double fraction, const std::string& what) const {
        if (report) report(fraction, what);
    }
};

// Sleeps in short slices so that Cancel is honoured within ~50 ms (a retry's backoff); the last slice is only what is
// left. Returns false when cancelled.
bool sleepCancellable(double seconds, const Progress& progress);

struct HttpAuth {
    enum class Kind { None, Basic, Bearer };
    Kind kind = Kind::None;
    std::string user;      // Basic
    std::string password;  // Basic; never logged, never saved
    std::string token;     // Bearer; never logged, never saved
};

struct HttpOptions {
    HttpAuth auth;
    Headers headers;  // extra headers, e.g. X-Scope-OrgID (values are not logged either)
    bool verifyTls = true;
    std::string caFile;  // PEM bundle to trust instead of the system store, "" for the system store
    double connectTimeoutS = 10;
    double totalTimeoutS = 60;     // per attempt
    int maxRetries = 3;            // extra attempts after the first, only for retryable failures
    double retryBaseDelayS = 0.5;  // backoff: base * 2^attempt, capped at maxRetryDelayS
    double maxRetryDelayS = 30;    // also the cap for a server's Retry-After
    bool retryRateLimited = true;  // false: a 429 is returned at once, for a caller that waits (and says so) itself
    std::size_t maxResponseBytes = std::size_t{512} << 20;
};

struct HttpResponse {
    long status = 0;
    std::string body;
    Headers headers;  // lower-case names
    int attempts = 1;
    std::optional<std::string> header(const std::string& lowerName) const;
};

class HttpClient {
public:
    explicit HttpClient(HttpOptions options = {});

    // GET url?query. A response with any HTTP status is a value (callers read error bodies); transport failures,
    // timeouts, cancellation and oversized bodies are Errors whose message names the URL (without credentials).
    // 429 and 5xx responses are retried (honouring Retry-After) before being returned.
    Result<HttpResponse> get(const std::string& url, const QueryParams& query = {},
                             const Progress& progress = {}) const;

    // POST with a body (JSON by default), same rules as get(). Not retried on 5xx (not idempotent), only on 429.
    Result<HttpResponse> post(const std::string& url, const std::string& body,
                              const std::string& contentType = "application/json", const Progress& progress = {}) const;

    const HttpOptions& options() const { return m_options; }

    static std::string urlEncode(const std::string& text);
    // The URL as safe to show, store or log: user info ("user:pass@") and credential-looking query parameters
    // (access_token, token, api_key, key, password, secret, sig, ... and names ending so) removed, the other
    // parameters kept in order. Every URL fp8dash writes to a file, a report or a message passes through it.
    static std::string displayUrl(const std::string& url);
    // Whether displayUrl removes anything from `url`.
    static bool holdsCredentials(const std::string& url);

private:
    Result<HttpResponse> perform(const std::string& method, const std::string& url, const std::string* body,
                                 const std::string& contentType, const Progress& progress) const;
    HttpOptions m_options;
};

// Runs fn(i) for i in [0, count) on up to `parallel` threads; returns when all are done.
void runParallel(std::size_t count, std::size_t parallel, const std::function<void(std::size_t)>& fn);

}  // namespace fp8dash
