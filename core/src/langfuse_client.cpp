// Langfuse scores over the public API (shared/notes/data-formats.md §4; issue #3 "Data sources"). Offset pagination
// (page/limit) on /api/public/v2/scores, or on /api/public/scores for servers older than v3.53, which answer the v2
// path with 404. Filters are applied by the server; the client checks only what an older server may ignore.
#include "fp8dash/core/langfuse_client.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <ctime>
#include <unordered_set>

namespace fp8dash {
namespace {

using json = nlohmann::json;

constexpr int kMaxPageSize = 100;  // Langfuse answers 400 above this

std::string base64(const std::string& in) {
    static const char* table = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::string out;
    unsigned bits = 0;
    int count = 0;
    for (unsigned char c : in) {
        bits = (bits << 8) | c;
        count += 8;
        while (count >= 6) {
            count -= 6;
            out += table[(bits >> count) & 63];
        }
    }
    if (count > 0) out += table[(bits << (6 - count)) & 63];
    while (out.size() % 4) out += '=';
    return out;
}

void replaceAll(std::string& text, const std::string& what, const std::string& with) {
    if (what.empty()) return;
    for (auto pos = text.find(what); pos != std::string::npos; pos = text.find(what, pos + with.size()))
        text.replace(pos, what.size(), with);
}

// A short, single-line excerpt of a server's text for an error message.
std::string excerpt(const std::string& text, std::size_t max = 200) {
    std::string out;
    for (char c : text.substr(0, max)) out += (c == '\n' || c == '\r' || c == '\t') ? ' ' : c;
    if (text.size() > max) out += "…";
    return out;
}

std::string asText(const json& j) {
    return j.is_string() ? j.get<std::string>() : j.dump();
}

// Langfuse's error bodies are {"message": ..., "error": ...}; validation failures carry zod issues in "error"
// ([{"message": ..., "path": ["limit"]}, ...]); a 404 from an old server is an HTML page.
std::string serverMessage(const std::string& body) {
    const json doc = json::parse(body, nullptr, false);
    if (!doc.is_object()) return excerpt(body);
    std::string message;
    if (auto m = doc.find("message"); m != doc.end() && m->is_string()) message = m->get<std::string>();
    if (auto e = doc.find("error"); e != doc.end() && e->is_array()) {
        for (const auto& issue : *e) {
            if (!issue.is_object() || !issue.contains("message")) continue;
            std::string where;
            if (auto p = issue.find("path"); p != issue.end() && p->is_array())
                for (const auto& part : *p) where += (where.empty() ? "" : ".") + asText(part);
            message += (message.empty() ? "" : "; ") + (where.empty() ? "" : where + ": ") + asText(issue["message"]);
        }
    } else if (e != doc.end() && e->is_string() && message.empty()) {
        message = e->get<std::string>();
    }
    return message.empty() ? excerpt(body) : excerpt(message, 400);
}

int digits(const std::string& s, std::size_t& pos, int count) {
    if (pos + static_cast<std::size_t>(count) > s.size()) return -1;
    int v = 0;
    for (int i = 0; i < count; ++i) {
        const char c = s[pos + static_cast<std::size_t>(i)];
        if (c < '0' || c > '9') return -1;
        v = v * 10 + (c - '0');
    }
    pos += static_cast<std::size_t>(count);
    return v;
}

bool expect(const std::string& s, std::size_t& pos, char c) {
    if (pos < s.size() && s[pos] == c) {
        ++pos;
        return true;
    }
    return false;
}

int daysInMonth(int year, int month) {
    static const int days[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    const bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
    return month == 2 && leap ? 29 : days[month - 1];
}

}  // namespace

std::optional<double> parseIso8601(const std::string& text) {
    const std::string& s = text;
    std::size_t pos = 0;
    const int year = digits(s, pos, 4);
    if (year < 0 || !expect(s, pos, '-')) return std::nullopt;
    const int month = digits(s, pos, 2);
    if (month < 1 || month > 12 || !expect(s, pos, '-')) return std::nullopt;
    const int day = digits(s, pos, 2);
    if (day < 1 || day > daysInMonth(year, month)) return std::nullopt;
    if (!(expect(s, pos, 'T') || expect(s, pos, 't') || expect(s, pos, ' '))) return std::nullopt;
    const int hour = digits(s, pos, 2);
    if (hour < 0 || hour > 23 || !expect(s, pos, ':')) return std::nullopt;
    const int minute = digits(s, pos, 2);
    if (minute < 0 || minute > 59 || !expect(s, pos, ':')) return std::nullopt;
    const int second = digits(s, pos, 2);
    if (second < 0 || second > 60) return std::nullopt;  // 60: a leap second, folded into the next minute
    double fraction = 0;
    if (expect(s, pos, '.') || expect(s, pos, ',')) {
        const std::size_t start = pos;
        double scale = 0.1;
        while (pos < s.size() && s[pos] >= '0' && s[pos] <= '9') {
            fraction += (s[pos] - '0') * scale;
            scale /= 10;
            ++pos;
        }
        if (pos == start) return std::nullopt;
    }
    long offset = 0;
    if (expect(s, pos, 'Z') || expect(s, pos, 'z')) {
    } else if (pos < s.size() && (s[pos] == '+' || s[pos] == '-')) {
        const int sign = s[pos] == '-' ? -1 : 1;
        ++pos;
        const int oh = digits(s, pos, 2);
        if (oh < 0 || oh > 23) return std::nullopt;
        int om = 0;
        if (pos < s.size()) {
            expect(s, pos, ':');
            om = digits(s, pos, 2);
            if (om < 0 || om > 59) return std::nullopt;
        }
        offset = sign * (oh * 3600L + om * 60L);
    }
    if (pos != s.size()) return std::nullopt;
    std::tm tm{};
    tm.tm_year = year - 1900;
    tm.tm_mon = month - 1;
    tm.tm_mday = day;
    tm.tm_hour = hour;
    tm.tm_min = minute;
    tm.tm_sec = second;
    // timegm: the fields are UTC; mktime would apply the local zone.
    const std::time_t t = ::timegm(&tm);
    return static_cast<double>(t) - static_cast<double>(offset) + fraction;
}

std::string toIso8601(double unixSeconds) {
    if (!std::isfinite(unixSeconds)) return {};
    const double ms = std::round(unixSeconds * 1000);
    const double wholeSeconds = std::floor(ms / 1000);  // floor, so times before 1970 keep a positive fraction
    const auto whole = static_cast<std::time_t>(wholeSeconds);
    const int millis = static_cast<int>(ms - wholeSeconds * 1000);
    std::tm tm{};
    ::gmtime_r(&whole, &tm);
    char buf[64];
    std::snprintf(buf, sizeof buf, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday,
                  tm.tm_hour, tm.tm_min, tm.tm_sec, millis);
    return buf;
}

LangfuseClient::LangfuseClient(LangfuseSettings settings)
    : m_settings(std::move(settings)), m_http([this] {
          HttpOptions o = m_settings.http;
          o.auth.kind = HttpAuth::Kind::Basic;  // username = public key, password = secret key (§4.4)
          o.auth.user = m_settings.publicKey;
          o.auth.password = m_settings.secretKey;
          o.auth.token.clear();
          return o;
      }()) {}

Result<std::vector<Score>> LangfuseClient::scores(const ScoreQuery& query, const Progress& progress) const {
    std::string base = m_settings.baseUrl;
    while (!base.empty() && base.back() == '/') base.pop_back();
    const std::string shownBase = HttpClient::displayUrl(base);
    // Whatever a server echoes back, the secret (plain or inside the Basic header) never reaches a message.
    const std::string basicToken = base64(m_settings.publicKey + ":" + m_settings.secretKey);
    auto fail = [&](std::string message) {
        replaceAll(message, m_settings.secretKey, "***");
        replaceAll(message, basicToken, "***");
        return Error{std::move(message)};
    };
    if (base.empty()) return fail("Langfuse: no server URL given");
    if (m_settings.publicKey.empty() || m_settings.secretKey.empty())
        return fail("Langfuse at " + shownBase +
                    ": a public key and a secret key are both needed (LANGFUSE_PUBLIC_KEY, "
                    "LANGFUSE_SECRET_KEY)");

    const int limit = std::clamp(query.pageSize, 1, kMaxPageSize);
    const int maxPages = std::max(1, query.maxPages);
    bool legacy = false;
    std::vector<Score> out;
    std::unordered_set<std::string> seen;

    for (int page = 1;; ++page) {
        const std::string path = legacy ? "/api/public/scores" : "/api/public/v2/scores";
        const std::string url = base + path;
        const std::string shown = "GET " + HttpClient::displayUrl(url);
        if (progress.isCancelled()) return fail(shown + ": cancelled");
        if (page > maxPages)
            return fail(shown + ": the server was still returning scores after " + std::to_string(maxPages) +
                        " pages of " + std::to_string(limit) + "; giving up (narrow the time range or the filters)");

        QueryParams params = {{"page", std::to_string(page)}, {"limit", std::to_string(limit)}};
        if (!query.name.empty()) params.emplace_back("name", query.name);
        if (query.from) params.emplace_back("fromTimestamp", toIso8601(*query.from));
        if (query.to) params.emplace_back("toTimestamp", toIso8601(*query.to));
        for (const auto& tag : query.traceTags) params.emplace_back("traceTags", tag);
        for (const auto& env : query.environments) params.emplace_back("environment", env);

        auto response = m_http.get(url, params, progress);
        if (!response) return fail(response.error().message);
        const long status = response->status;
        if (status == 404 && page == 1 && !legacy) {
            legacy = true;  // a server older than v3.53: the same list lives at /api/public/scores
            --page;
            continue;
        }
        const std::string where = shown + (page > 1 ? " (page " + std::to_string(page) + ")" : "");
        if (status == 401)
            return fail(where + ": Langfuse rejected the keys (401): " + serverMessage(response->body) +
                        ". Check the public key (" + m_settings.publicKey +
                        ") and the secret key, and that they belong to a project on this server");
        if (status == 403) return fail(where + ": Langfuse refused access (403): " + serverMessage(response->body));
        if (status == 404)
            return fail(where +
                        ": not found (404); neither /api/public/v2/scores nor /api/public/scores answers here. "
                        "Is " +
                        shownBase + " the Langfuse base URL?");
        if (status == 429)
            return fail(where + ": Langfuse is rate limiting the requests (429) after " +
                        std::to_string(response->attempts) + " attempts; try again later");
        if (status == 400) return fail(where + ": Langfuse rejected the query (400): " + serverMessage(response->body));
        if (status != 200)
            return fail(where + ": HTTP " + std::to_string(status) + ": " + serverMessage(response->body));

        const json doc = json::parse(response->body, nullptr, false);
        if (doc.is_discarded() || !doc.is_object())
            return fail(where + ": the response is not a JSON object: " + excerpt(response->body, 120));
        const auto data = doc.find("data");
        if (data == doc.end() || !data->is_array()) return fail(where + ": the response has no \"data\" list");

        std::optional<long> totalPages;
        if (auto meta = doc.find("meta"); meta != doc.end() && !meta->is_null()) {
            if (!meta->is_object()) return fail(where + ": \"meta\" is not an object");
            if (auto tp = meta->find("totalPages"); tp != meta->end()) {
                if (!tp->is_number() || tp->get<double>() < 0)
                    return fail(where + ": meta.totalPages is not a number: " + excerpt(tp->dump(), 60));
                totalPages = static_cast<long>(tp->get<double>());
            }
        }

        for (std::size_t i = 0; i < data->size(); ++i) {
            const json& item = (*data)[i];
            const std::string field = "data[" + std::to_string(i) + "]";
            if (!item.is_object()) return fail(where + ": " + field + " is not an object");
            const auto id = item.find("id");
            if (id == item.end() || !id->is_string())
                return fail(where + ": " + field + ".id is missing or not a string");
            const auto dataType = item.find("dataType");
            const std::string type =
                dataType != item.end() && dataType->is_string() ? dataType->get<std::string>() : "NUMERIC";
            // NUMERIC values are the judge's points; BOOLEAN is 1/0. CATEGORICAL's value is only a mapping index.
            if (type != "NUMERIC" && type != "BOOLEAN") continue;
            if (auto name = item.find("name"); !query.name.empty() && name != item.end() && name->is_string() &&
                                               name->get<std::string>() != query.name)
                continue;  // a server that ignored the name filter
            const auto value = item.find("value");
            if (value == item.end() || !value->is_number())
                return fail(where + ": " + field + ".value is not a number: " +
                            (value == item.end() ? "missing" : excerpt(value->dump(), 60)));
            const auto ts = item.find("timestamp");
            std::optional<double> t;
            if (ts != item.end() && ts->is_string()) t = parseIso8601(ts->get<std::string>());
            if (!t)
                return fail(where + ": " + field + ".timestamp is not an ISO 8601 time: " +
                            (ts == item.end() ? "missing" : excerpt(ts->dump(), 60)));
            if (!query.environments.empty()) {
                // The older list has no environment filter and ignores the parameter: filter here, or refuse.
                const auto env = item.find("environment");
                if (env == item.end() || !env->is_string())
                    return fail(where + ": this Langfuse server does not report score environments (" + field +
                                ".environment is missing), so it cannot filter by environment; use trace tags");
                if (std::find(query.environments.begin(), query.environments.end(), env->get<std::string>()) ==
                    query.environments.end())
                    continue;
            }
            if (!seen.insert(id->get<std::string>()).second) continue;
            Score s;
            s.id = id->get<std::string>();
            if (auto trace = item.find("traceId"); trace != item.end() && trace->is_string())
                s.traceId = trace->get<std::string>();
            s.timestamp = *t;
            s.value = value->get<double>();
            out.push_back(std::move(s));
        }

        const double fraction = totalPages && *totalPages > 0 ? std::min(1.0, static_cast<double>(page) / *totalPages)
                                                              : 1.0 - 1.0 / (page + 1);
        progress(fraction, "Langfuse scores: page " + std::to_string(page) +
                               (totalPages ? " of " + std::to_string(*totalPages) : std::string()));
        if (data->empty() || (totalPages && page >= *totalPages)) break;
    }
    std::stable_sort(out.begin(), out.end(), [](const Score& a, const Score& b) {
        return a.timestamp != b.timestamp ? a.timestamp < b.timestamp : a.id < b.id;
    });
    return out;
}

Series scoresToSeries(const std::vector<Score>& scores, const std::string& name) {
    Series series;
    series.labels = {{"name", name}, {"source", "langfuse"}};
    series.samples.reserve(scores.size());
    for (const auto& s : scores)
        if (std::isfinite(s.value) && std::isfinite(s.timestamp)) series.samples.push_back({s.timestamp, s.value});
    std::stable_sort(series.samples.begin(), series.samples.end(),
                     [](const Sample& a, const Sample& b) { return a.t < b.t; });
    return series;
}

}  // namespace fp8dash
