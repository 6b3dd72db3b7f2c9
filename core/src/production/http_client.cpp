// libcurl behind HttpClient. Why libcurl: it is the well-kept HTTP/TLS stack Debian ships, works without an event
// loop (the CLI), and gives per-transfer timeouts, proxies and TLS options for free.
#include "fp8dash/core/http_client.h"

#include <cctype>

#include "text_util.h"

#include <curl/curl.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <ctime>
#include <mutex>
#include <random>
#include <thread>

namespace fp8dash {

using text::lower;
using text::trim;
namespace {

void ensureCurlGlobal() {
    static std::once_flag once;
    std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

struct Transfer {
    std::string body;
    Headers headers;
    std::size_t limit = 0;
    bool overLimit = false;
    const Progress* progress = nullptr;
};

size_t onBody(char* data, size_t size, size_t count, void* user) {
    auto* t = static_cast<Transfer*>(user);
    const size_t n = size * count;
    if (t->body.size() + n > t->limit) {
        t->overLimit = true;
        return 0;  // aborts the transfer with CURLE_WRITE_ERROR
    }
    t->body.append(data, n);
    return n;
}

size_t onHeader(char* data, size_t size, size_t count, void* user) {
    auto* t = static_cast<Transfer*>(user);
    const size_t n = size * count;
    std::string line(data, n);
    if (line.rfind("HTTP/", 0) == 0) t->headers.clear();  // a new response (after a redirect or 100-continue)
    if (auto colon = line.find(':'); colon != std::string::npos) {
        t->headers.emplace_back(lower(trim(line.substr(0, colon))), trim(line.substr(colon + 1)));
        // A response that announces more than the limit is refused before its body is read (a 1 GB answer costs
        // nothing); one without a length is cut off once it passes the limit (onBody).
        if (t->headers.back().first == "content-length") {
            char* end = nullptr;
            const unsigned long long length = std::strtoull(t->headers.back().second.c_str(), &end, 10);
            if (end && *end == '\0' && length > t->limit) {
                t->overLimit = true;
                return 0;  // aborts the transfer with CURLE_WRITE_ERROR
            }
        }
    }
    return n;
}

int onProgress(void* user, curl_off_t, curl_off_t, curl_off_t, curl_off_t) {
    auto* t = static_cast<Transfer*>(user);
    return t->progress && t->progress->isCancelled() ? 1 : 0;
}

// Retry-After: delay-seconds or an HTTP-date.
std::optional<double> retryAfterSeconds(const HttpResponse& r) {
    auto v = r.header("retry-after");
    if (!v) return std::nullopt;
    char* end = nullptr;
    const double s = std::strtod(v->c_str(), &end);
    if (end != v->c_str() && *end == '\0' && std::isfinite(s) && s >= 0) return s;
    const time_t when = curl_getdate(v->c_str(), nullptr);
    if (when > 0) return std::max(0.0, std::difftime(when, std::time(nullptr)));
    return std::nullopt;
}

// `connected`: whether the attempt reached the server. A timeout before connecting may pass on a second try; one
// after the request was sent means a slow query, and sending it again would only load the server once more.
bool retryableCurlError(CURLcode c, bool connected) {
    switch (c) {
        case CURLE_OPERATION_TIMEDOUT:
            return !connected;
        case CURLE_COULDNT_CONNECT:
        case CURLE_GOT_NOTHING:
        case CURLE_SEND_ERROR:
        case CURLE_RECV_ERROR:
        case CURLE_PARTIAL_FILE:
        case CURLE_HTTP2:
        case CURLE_HTTP2_STREAM:
            return true;
        default:
            return false;  // DNS failures, TLS failures, bad URLs: a retry cannot help
    }
}

std::string curlErrorText(CURLcode code, const char* buffer) {
    std::string detail = buffer && *buffer ? buffer : curl_easy_strerror(code);
    switch (code) {
        case CURLE_COULDNT_RESOLVE_HOST:
            return "cannot resolve the host name (" + detail + ")";
        case CURLE_COULDNT_CONNECT:
            return "connection refused or unreachable (" + detail + ")";
        case CURLE_OPERATION_TIMEDOUT:
            return "timed out (" + detail + ")";
        case CURLE_PEER_FAILED_VERIFICATION:
        case CURLE_SSL_CONNECT_ERROR:
        case CURLE_SSL_CACERT_BADFILE:
            return "TLS failure (" + detail + ")";
        case CURLE_TOO_MANY_REDIRECTS:
            return "too many redirects (" + detail + ")";
        case CURLE_GOT_NOTHING:
            return "the server closed the connection without answering";
        case CURLE_PARTIAL_FILE:
        case CURLE_RECV_ERROR:
            return "the response was cut off (" + detail + ")";
        default:
            return detail;
    }
}

// "512 MiB" for whole mebibytes, otherwise "N bytes": a limit below 1 MiB must not read "0 MiB".
std::string byteSize(std::size_t bytes) {
    constexpr std::size_t mib = std::size_t{1} << 20;
    if (bytes >= mib && bytes % mib == 0) return std::to_string(bytes / mib) + " MiB";
    return std::to_string(bytes) + " bytes";
}

}  // namespace

bool sleepCancellable(double seconds, const Progress& progress) {
    const auto until =
        std::chrono::steady_clock::now() +
        std::chrono::duration_cast<std::chrono::steady_clock::duration>(std::chrono::duration<double>(seconds));
    for (auto now = std::chrono::steady_clock::now(); now < until; now = std::chrono::steady_clock::now()) {
        if (progress.isCancelled()) return false;
        // The last slice is only what is left: a 10 ms backoff must not take 50 ms.
        std::this_thread::sleep_for(
            std::min<std::chrono::steady_clock::duration>(until - now, std::chrono::milliseconds(50)));
    }
    return !progress.isCancelled();
}

std::optional<std::string> HttpResponse::header(const std::string& lowerName) const {
    for (const auto& [k, v] : headers)
        if (k == lowerName) return v;
    return std::nullopt;
}

HttpClient::HttpClient(HttpOptions options) : m_options(std::move(options)) {
    ensureCurlGlobal();
}

std::string HttpClient::urlEncode(const std::string& text) {
    std::string out;
    static const char* hex = "0123456789ABCDEF";
    for (unsigned char c : text) {
        // RFC 3986 unreserved characters, ASCII only: std::isalnum follows the C locale, which the GUI sets from the
        // environment (in a Latin-1 locale it would pass bytes such as 0xE9 through unencoded).
        const bool unreserved = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
                                c == '-' || c == '_' || c == '.' || c == '~';
        if (unreserved) {
            out += static_cast<char>(c);
        } else {
            out += '%';
            out += hex[c >> 4];
            out += hex[c & 15];
        }
    }
    return out;
}

namespace {

// A query parameter that carries a credential by its name: access_token, token, api_key, apikey, key, password,
// secret, sig, signature, auth, and names ending so (id_token, x-api-key, client_secret, sas_sig, ...).
bool credentialParameter(std::string name) {
    for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    for (std::size_t at; (at = name.find('-')) != std::string::npos;) name[at] = '_';
    static const char* kExact[] = {"access_token",  "token",      "api_key",     "apikey",  "key",       "password",
                                   "passwd",        "pwd",        "secret",      "sig",     "signature", "auth",
                                   "authorization", "credential", "credentials", "session", "sessionid", "code"};
    for (const char* e : kExact)
        if (name == e) return true;
    static const char* kSuffixes[] = {"_token", "token",    "_key", "apikey",    "_secret",
                                      "secret", "password", "_sig", "signature", "credential"};
    for (const char* suffix : kSuffixes) {
        const std::string_view sv(suffix);
        if (name.size() > sv.size() && name.compare(name.size() - sv.size(), sv.size(), sv) == 0) return true;
    }
    return false;
}

}  // namespace

std::string HttpClient::displayUrl(const std::string& url) {
    std::string out = url;
    // User info ("user:pass@") before the host.
    if (const auto scheme = out.find("://"); scheme != std::string::npos) {
        const auto hostStart = scheme + 3;
        const auto pathStart = out.find_first_of("/?#", hostStart);
        const auto at = out.rfind('@', pathStart == std::string::npos ? out.size() : pathStart);
        if (at != std::string::npos && at >= hostStart) out = out.substr(0, hostStart) + out.substr(at + 1);
    }
    // Credential-looking query parameters.
    const auto q = out.find('?');
    if (q == std::string::npos) return out;
    const auto hash = out.find('#', q);
    const std::string query = out.substr(q + 1, hash == std::string::npos ? std::string::npos : hash - q - 1);
    std::string kept;
    for (std::size_t i = 0; i <= query.size();) {
        const std::size_t end = std::min(query.find('&', i), query.size());
        const std::string param = query.substr(i, end - i);
        if (!param.empty() && !credentialParameter(param.substr(0, param.find('='))))
            kept += (kept.empty() ? "" : "&") + param;
        i = end + 1;
    }
    return out.substr(0, q) + (kept.empty() ? "" : "?" + kept) + (hash == std::string::npos ? "" : out.substr(hash));
}

bool HttpClient::holdsCredentials(const std::string& url) {
    return displayUrl(url) != url;
}

Result<HttpResponse> HttpClient::get(const std::string& url, const QueryParams& query, const Progress& progress) const {
    std::string full = url;
    if (!query.empty()) {
        full += url.find('?') == std::string::npos ? '?' : '&';
        for (std::size_t i = 0; i < query.size(); ++i) {
            if (i) full += '&';
            full += urlEncode(query[i].first);
            full += '=';
            full += urlEncode(query[i].second);
        }
    }
    return perform("GET", full, nullptr, {}, progress);
}

Result<HttpResponse> HttpClient::post(const std::string& url, const std::string& body, const std::string& contentType,
                                      const Progress& progress) const {
    return perform("POST", url, &body, contentType, progress);
}

Result<HttpResponse> HttpClient::perform(const std::string& method, const std::string& url, const std::string* body,
                                         const std::string& contentType, const Progress& progress) const {
    const std::string shown = method + " " + displayUrl(url.substr(0, url.find('?')));
    std::mt19937 jitter(std::random_device{}());
    for (int attempt = 0;; ++attempt) {
        if (progress.isCancelled()) return Error{shown + ": cancelled"};
        CURL* curl = curl_easy_init();
        if (!curl) return Error{shown + ": cannot start an HTTP transfer (libcurl init failed)"};
        Transfer t;
        t.limit = m_options.maxResponseBytes;
        t.progress = &progress;
        char errorBuffer[CURL_ERROR_SIZE] = {0};
        curl_slist* headerList = nullptr;
        for (const auto& [k, v] : m_options.headers) headerList = curl_slist_append(headerList, (k + ": " + v).c_str());
        if (body) headerList = curl_slist_append(headerList, ("Content-Type: " + contentType).c_str());

        curl_easy_setopt(curl, CURLOPT_URL, url.c_str());
        curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, errorBuffer);
        curl_easy_setopt(curl, CURLOPT_PROTOCOLS_STR, "http,https");
        curl_easy_setopt(curl, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
        curl_easy_setopt(curl, CURLOPT_FOLLOWLOCATION, 1L);
        curl_easy_setopt(curl, CURLOPT_MAXREDIRS, 5L);
        curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);  // threads: no SIGALRM for DNS timeouts
        curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT_MS, static_cast<long>(m_options.connectTimeoutS * 1000));
        curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS, static_cast<long>(m_options.totalTimeoutS * 1000));
        curl_easy_setopt(curl, CURLOPT_ACCEPT_ENCODING, "");  // gzip/deflate when the server offers it
        curl_easy_setopt(curl, CURLOPT_USERAGENT, "fp8dash");
        curl_easy_setopt(curl, CURLOPT_SSL_VERIFYPEER, m_options.verifyTls ? 1L : 0L);
        curl_easy_setopt(curl, CURLOPT_SSL_VERIFYHOST, m_options.verifyTls ? 2L : 0L);
        if (!m_options.caFile.empty()) curl_easy_setopt(curl, CURLOPT_CAINFO, m_options.caFile.c_str());
        switch (m_options.auth.kind) {
            case HttpAuth::Kind::Basic:
                curl_easy_setopt(curl, CURLOPT_HTTPAUTH, CURLAUTH_BASIC);
                curl_easy_setopt(curl, CURLOPT_USERNAME, m_options.auth.user.c_str());
                curl_easy_setopt(curl, CURLOPT_PASSWORD, m_options.auth.password.c_str());
                break;
            case HttpAuth::Kind::Bearer:
                curl_easy_setopt(curl, CURLOPT_HTTPAUTH, CURLAUTH_BEARER);
                curl_easy_setopt(curl, CURLOPT_XOAUTH2_BEARER, m_options.auth.token.c_str());
                break;
            case HttpAuth::Kind::None:
                break;
        }
        if (headerList) curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headerList);
        if (body) {
            curl_easy_setopt(curl, CURLOPT_POST, 1L);
            curl_easy_setopt(curl, CURLOPT_POSTFIELDS, body->data());
            curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(body->size()));
        }
        curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, onBody);
        curl_easy_setopt(curl, CURLOPT_WRITEDATA, &t);
        curl_easy_setopt(curl, CURLOPT_HEADERFUNCTION, onHeader);
        curl_easy_setopt(curl, CURLOPT_HEADERDATA, &t);
        curl_easy_setopt(curl, CURLOPT_XFERINFOFUNCTION, onProgress);
        curl_easy_setopt(curl, CURLOPT_XFERINFODATA, &t);
        curl_easy_setopt(curl, CURLOPT_NOPROGRESS, 0L);

        const CURLcode code = curl_easy_perform(curl);
        long status = 0;
        curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &status);
        curl_off_t connectMicros = 0;
        curl_easy_getinfo(curl, CURLINFO_CONNECT_TIME_T, &connectMicros);
        curl_slist_free_all(headerList);
        curl_easy_cleanup(curl);

        const bool lastAttempt = attempt >= m_options.maxRetries;
        double delay = std::min(m_options.maxRetryDelayS, m_options.retryBaseDelayS * std::pow(2.0, attempt));
        delay *= std::uniform_real_distribution<double>(0.8, 1.2)(jitter);
        if (code != CURLE_OK) {
            if (code == CURLE_ABORTED_BY_CALLBACK) return Error{shown + ": cancelled"};
            if (t.overLimit)
                return Error{shown + ": the response is larger than " + byteSize(m_options.maxResponseBytes) +
                             "; narrow the time range or raise the step"};
            const std::string why = curlErrorText(code, errorBuffer);
            if (lastAttempt || !retryableCurlError(code, connectMicros > 0))
                return Error{shown + ": " + why +
                             (attempt ? " (after " + std::to_string(attempt + 1) + " attempts)" : "")};
            if (!sleepCancellable(delay, progress)) return Error{shown + ": cancelled"};
            continue;
        }
        HttpResponse r;
        r.status = status;
        r.body = std::move(t.body);
        r.headers = std::move(t.headers);
        r.attempts = attempt + 1;
        const bool retryStatus = (status == 429 && m_options.retryRateLimited) ||
                                 (!body && (status == 500 || status == 502 || status == 503 || status == 504));
        if (retryStatus && !lastAttempt) {
            if (auto after = retryAfterSeconds(r)) delay = std::min(*after, m_options.maxRetryDelayS);
            if (!sleepCancellable(delay, progress)) return Error{shown + ": cancelled"};
            continue;
        }
        return r;
    }
}

void runParallel(std::size_t count, std::size_t parallel, const std::function<void(std::size_t)>& fn) {
    if (count == 0) return;
    parallel = std::max<std::size_t>(1, std::min(parallel, count));
    std::atomic<std::size_t> next{0};
    std::vector<std::thread> threads;
    for (std::size_t w = 0; w < parallel; ++w)
        threads.emplace_back([&] {
            for (std::size_t i = next++; i < count; i = next++) fn(i);
        });
    for (auto& th : threads) th.join();
}

Result<Headers> parseHeaderList(std::string_view text, std::string_view where, char separator) {
    Headers headers;
    std::size_t start = 0, number = 0;
    while (start <= text.size()) {
        std::size_t end = text.find(separator, start);
        if (end == std::string_view::npos) end = text.size();
        ++number;
        const std::string entry = text::trim(text.substr(start, end - start));
        start = end + 1;
        if (entry.empty()) continue;
        const std::size_t colon = entry.find(':');
        if (colon == std::string::npos || text::trim(std::string_view(entry).substr(0, colon)).empty()) {
            return Error{std::string(where) + (separator == '\n' ? ", line " : ", entry ") + std::to_string(number) +
                         ": expected “Name: value”, e.g. “X-Scope-OrgID: tenant-a”."};
        }
        headers.emplace_back(text::trim(std::string_view(entry).substr(0, colon)),
                             text::trim(std::string_view(entry).substr(colon + 1)));
    }
    return headers;
}

}  // namespace fp8dash
