// The behaviour follows Langfuse's Fern definitions (scores.yml, scores-v3.yml, observations.yml, trace.yml,
// metrics.yml) and its route code as shared/notes/langfuse-api-2026.md cites them: health without auth; in v4
// events_only mode the legacy routes answer 404 before auth; then auth, rate limiting, query validation; lists
// newest first; meta.totalPages = ceil(totalItems / limit). This file: dispatch, auth and the offset-paged lists;
// langfuse_test_server_v3.cpp: v3 scores, observations v2, traces, the Metrics API.
#include "langfuse_test_server.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <optional>
#include <set>

#include "langfuse_test_server_util.h"

namespace fp8dash::test {
namespace langfuse_detail {

// The server's own ISO 8601 reader (kept apart from the client's parser under test): date, 'T', time, optional
// fraction, then 'Z' or +-HH:MM.
std::optional<double> parseIso(const std::string& s) {
    int y, mo, d, h, mi, sec, consumed = 0;
    if (std::sscanf(s.c_str(), "%4d-%2d-%2dT%2d:%2d:%2d%n", &y, &mo, &d, &h, &mi, &sec, &consumed) != 6)
        return std::nullopt;
    std::size_t pos = static_cast<std::size_t>(consumed);
    double frac = 0;
    if (pos < s.size() && s[pos] == '.') {
        double scale = 0.1;
        ++pos;
        const std::size_t start = pos;
        while (pos < s.size() && std::isdigit(static_cast<unsigned char>(s[pos]))) {
            frac += (s[pos] - '0') * scale;
            scale /= 10;
            ++pos;
        }
        if (pos == start) return std::nullopt;
    }
    int offset = 0;
    if (pos < s.size() && s[pos] == 'Z') {
        ++pos;
    } else if (pos < s.size() && (s[pos] == '+' || s[pos] == '-')) {
        int oh, om;
        if (std::sscanf(s.c_str() + pos + 1, "%2d:%2d", &oh, &om) != 2) return std::nullopt;
        offset = (s[pos] == '-' ? -1 : 1) * (oh * 3600 + om * 60);
        pos += 6;
    } else {
        return std::nullopt;
    }
    if (pos != s.size()) return std::nullopt;
    std::tm tm{};
    tm.tm_year = y - 1900;
    tm.tm_mon = mo - 1;
    tm.tm_mday = d;
    tm.tm_hour = h;
    tm.tm_min = mi;
    tm.tm_sec = sec;
    return static_cast<double>(::timegm(&tm)) - offset + frac;
}

json zodIssue(const std::string& code, const std::string& message, const std::string& field) {
    return json{{"code", code}, {"message", message}, {"path", json::array({field})}};
}

Reply invalidRequest(json issues) {
    return Reply::json(400, json{{"message", "Invalid request data"}, {"error", std::move(issues)}}.dump());
}

// Next.js answers an unknown API route with its HTML 404 page.
Reply notFoundPage() {
    return Reply{404,
                 {{"Content-Type", "text/html; charset=utf-8"}},
                 "<!DOCTYPE html><html><head><title>404: This page could not be found</title></head>"
                 "<body><h1>404</h1><h2>This page could not be found.</h2></body></html>"};
}

// Integer query parameters as zod's z.coerce.number().int() sees them.
std::optional<long> intParam(const TestHttpServer::Request& r, const std::string& key, json& issues, long min,
                             std::optional<long> max, long fallback) {
    const auto text = r.queryValue(key);
    if (!text) return fallback;
    char* end = nullptr;
    const double v = std::strtod(text->c_str(), &end);
    if (text->empty() || *end != '\0' || !std::isfinite(v)) {
        issues.push_back(zodIssue("invalid_type", "Expected number, received nan", key));
        return std::nullopt;
    }
    if (v != std::floor(v)) {
        issues.push_back(zodIssue("invalid_type", "Expected integer, received float", key));
        return std::nullopt;
    }
    if (v < static_cast<double>(min)) {
        json issue = zodIssue("too_small", "Number must be greater than or equal to " + std::to_string(min), key);
        issue["minimum"] = min;
        issue["inclusive"] = true;
        issues.push_back(issue);
        return std::nullopt;
    }
    if (max && v > static_cast<double>(*max)) {
        json issue = zodIssue("too_big", "Number must be less than or equal to " + std::to_string(*max), key);
        issue["maximum"] = *max;
        issue["inclusive"] = true;
        issues.push_back(issue);
        return std::nullopt;
    }
    return static_cast<long>(v);
}

Reply errorReply(int status, const std::string& message, const std::string& errorClass) {
    return Reply::json(status, json{{"message", message}, {"error", errorClass}}.dump());
}

std::vector<std::string> splitComma(const std::string& s) {
    std::vector<std::string> out;
    std::size_t start = 0;
    while (start <= s.size()) {
        const auto end = std::min(s.find(',', start), s.size());
        if (end > start) out.push_back(s.substr(start, end - start));
        start = end + 1;
    }
    return out;
}

std::string base64UrlEncode(const std::string& in) {
    std::string out = base64Encode(in);
    while (!out.empty() && out.back() == '=') out.pop_back();
    for (char& c : out) c = c == '+' ? '-' : c == '/' ? '_' : c;
    return out;
}

std::string base64UrlDecode(const std::string& in, bool& ok) {
    ok = true;
    std::string out;
    unsigned bits = 0;
    int count = 0;
    for (char c : in) {
        int v = -1;
        if (c >= 'A' && c <= 'Z')
            v = c - 'A';
        else if (c >= 'a' && c <= 'z')
            v = c - 'a' + 26;
        else if (c >= '0' && c <= '9')
            v = c - '0' + 52;
        else if (c == '-' || c == '+')
            v = 62;
        else if (c == '_' || c == '/')
            v = 63;
        else if (c == '=')
            break;
        if (v < 0) {
            ok = false;
            return {};
        }
        bits = (bits << 6) | static_cast<unsigned>(v);
        count += 6;
        if (count >= 8) {
            count -= 8;
            out += static_cast<char>((bits >> count) & 0xFF);
        }
    }
    return out;
}

Reply finishScores(json body, const LangfuseTestServer::Options& options, bool deprecated) {
    if (deprecated && options.cloud)
        body["_deprecation"] = {{"message", "This endpoint is deprecated and will be removed."},
                                {"replacement", "GET /api/public/v3/scores"},
                                {"docsUrl", "https://langfuse.com/faq/all/deprecated-api-migration"},
                                {"sunsetAt", "2026-11-16"}};
    using Malformed = LangfuseTestServer::Malformed;
    switch (options.malformed) {
        case Malformed::None:
            break;
        case Malformed::NotJson: {
            const std::string text = body.dump();
            return Reply::json(200, text.substr(0, text.size() / 2));
        }
        case Malformed::ValueNotNumber:
            if (!body["data"].empty()) body["data"][0]["value"] = "four point five";
            break;
        case Malformed::BadTimestamp:
            if (!body["data"].empty()) body["data"][0]["timestamp"] = "yesterday at noon";
            break;
        case Malformed::DataNotArray:
            body["data"] = json{{"items", body["data"]}};
            break;
        case Malformed::TotalPagesNotNumber:
            body["meta"]["totalPages"] = "many";
            break;
    }
    return Reply::json(200, body.dump());
}

}  // namespace langfuse_detail

using namespace langfuse_detail;

std::string LangfuseTestServer::isoTimestamp(double unixSeconds) {
    const double ms = std::round(unixSeconds * 1000);
    const auto whole = static_cast<std::time_t>(std::floor(ms / 1000));
    const int millis = static_cast<int>(ms - static_cast<double>(whole) * 1000);
    std::tm tm{};
    ::gmtime_r(&whole, &tm);
    char buf[96];
    std::snprintf(buf, sizeof buf, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday,
                  tm.tm_hour, tm.tm_min, tm.tm_sec, millis);
    return buf;
}

LangfuseTestServer::LangfuseTestServer(std::vector<LangfuseSeedScore> scores)
    : LangfuseTestServer(std::move(scores), Options{}) {}

LangfuseTestServer::LangfuseTestServer(std::vector<LangfuseSeedScore> scores, Options options)
    : m_options(std::move(options)),
      m_scores(std::move(scores)),
      m_http([this](const TestHttpServer::Request& r) { return handle(r); }) {
    if (m_options.legacyOnly) m_options.personality = Personality::PreV353;
    std::stable_sort(m_scores.begin(), m_scores.end(), [](const auto& a, const auto& b) {
        return a.timestamp != b.timestamp ? a.timestamp > b.timestamp : a.id > b.id;
    });
    for (std::size_t i = 0; i < m_scores.size(); ++i) {
        const auto& s = m_scores[i];
        m_byTrace[s.traceId].push_back(i);
        const double start = s.traceStart.value_or(s.timestamp);
        auto [it, inserted] = m_traceIndex.emplace(s.traceId, m_traces.size());
        if (inserted)
            m_traces.push_back({s.traceId, start, s.traceTags, s.environment});
        else
            m_traces[it->second].start = std::min(m_traces[it->second].start, start);
    }
    std::sort(m_traces.begin(), m_traces.end(),
              [](const Trace& a, const Trace& b) { return a.start != b.start ? a.start > b.start : a.id > b.id; });
    for (std::size_t i = 0; i < m_traces.size(); ++i) m_traceIndex[m_traces[i].id] = i;
}

std::string LangfuseTestServer::version() const {
    switch (m_options.personality) {
        case Personality::V4:
            return "4.16.0";
        case Personality::V3WithV2:
            return "3.190.0";
        case Personality::V3Before180:
            return "3.120.0";
        case Personality::PreV353:
            return "3.40.0";
    }
    return "";
}

const LangfuseTestServer::Trace* LangfuseTestServer::traceOf(const LangfuseSeedScore& s) const {
    const auto it = m_traceIndex.find(s.traceId);
    return it == m_traceIndex.end() ? nullptr : &m_traces[it->second];
}

TestHttpServer::Reply LangfuseTestServer::handle(const TestHttpServer::Request& request) {
    if (m_unavailable) return Reply(503, {{"Retry-After", "1"}, {"Content-Type", "text/plain"}}, "Service Unavailable");
    const std::string& path = request.path;
    const Personality p = m_options.personality;
    if (path == "/api/public/health") {
        if (!m_options.reportVersion) return notFoundPage();
        return Reply::json(200, json{{"status", "OK"}, {"version", version()}}.dump());
    }
    const bool v3 = path == "/api/public/v3/scores", v2 = path == "/api/public/v2/scores",
               v1 = path == "/api/public/scores", observations = path == "/api/public/v2/observations",
               tracesList = path == "/api/public/traces", metricsApi = path == "/api/public/v2/metrics";
    // Routes the server does not have at all (Next.js' page), and v4 events_only's legacy routes (before auth).
    if ((v3 && (p == Personality::V3Before180 || p == Personality::PreV353)) || (v2 && p == Personality::PreV353) ||
        ((observations || metricsApi) && p == Personality::PreV353) ||
        (!v3 && !v2 && !v1 && !observations && !tracesList && !metricsApi))
        return notFoundPage();
    if (p == Personality::V4 && (v2 || v1 || tracesList))
        return Reply::json(404, json{{"message",
                                      "This endpoint is not available on deployments running in Langfuse v4 "
                                      "events_only mode. Learn more about Langfuse v4 at: "
                                      "https://langfuse.com/docs/v4"}}
                                    .dump());
    if (request.method != "GET")
        return Reply::json(405, json{{"message", "Method not allowed"}, {"error", "MethodNotAllowedError"}}.dump());

    const auto auth = request.header("authorization");
    if (!auth) return Reply::json(401, json{{"message", "No authorization header"}}.dump());
    if (auth->rfind("Bearer ", 0) == 0)
        return Reply::json(403, json{{"message", "Access denied - insufficient permissions for this endpoint"}}.dump());
    if (*auth != "Basic " + base64Encode(m_options.publicKey + ":" + m_options.secretKey))
        return Reply::json(
            401, json{{"message", "Invalid credentials. Confirm that you've configured the correct host."}}.dump());

    {
        std::lock_guard lock(m_mutex);
        if (m_authenticatedRequests++ < m_options.rateLimitFirst) {
            const long reset = static_cast<long>(std::time(nullptr)) + m_options.retryAfterS;
            return Reply{429,
                         {{"Retry-After", std::to_string(m_options.retryAfterS)},
                          {"X-RateLimit-Limit", "30"},
                          {"X-RateLimit-Remaining", "0"},
                          {"X-RateLimit-Reset", std::to_string(reset)}},
                         json{{"message", "Rate limit exceeded"},
                              {"code", "rate_limited"},
                              {"details",
                               {{"retryAfterSeconds", m_options.retryAfterS},
                                {"limit", 30},
                                {"remaining", 0},
                                {"resetAt", isoTimestamp(static_cast<double>(reset))}}}}
                             .dump()};
        }
    }
    // The v4 write-mode previews, off in every v3.x by default: after auth.
    if (observations && p != Personality::V4)
        return errorReply(404,
                          "The observations v2 API is only available in a Langfuse v4 write mode. Learn more about "
                          "Langfuse v4 at: https://langfuse.com/docs/v4",
                          "LangfuseNotFoundError");
    if (metricsApi && p != Personality::V4)
        return errorReply(404,
                          "The metrics v2 API is only available in a Langfuse v4 write mode. Learn more about "
                          "Langfuse v4 at: https://langfuse.com/docs/v4",
                          "LangfuseNotFoundError");
    Reply reply = v3             ? scoresV3(request)
                  : observations ? observationsV2(request)
                  : tracesList   ? traces(request)
                  : metricsApi   ? metrics(request)
                                 : listScores(request, v1);
    if (m_options.cloud) {
        reply.headers.emplace_back("X-RateLimit-Limit", metricsApi   ? std::string("100")
                                                        : tracesList ? std::string("30")
                                                                     : std::to_string(m_options.cloudListLimit));
        reply.headers.emplace_back("X-RateLimit-Remaining", "999");
    }
    return reply;
}

TestHttpServer::Reply LangfuseTestServer::listScores(const TestHttpServer::Request& request, bool legacy) {
    json issues = json::array();
    const auto page = intParam(request, "page", issues, 1, std::nullopt, 1);
    const auto limit = intParam(request, "limit", issues, 1, 100, 50);
    std::optional<double> from, to;
    for (const char* key : {"fromTimestamp", "toTimestamp"}) {
        if (const auto text = request.queryValue(key)) {
            const auto t = parseIso(*text);
            if (!t) issues.push_back(zodIssue("invalid_string", "Invalid datetime", key));
            (std::string(key) == "fromTimestamp" ? from : to) = t;
        }
    }
    if (!issues.empty()) return invalidRequest(issues);

    const auto name = request.queryValue("name");
    const auto tags = request.queryValues("traceTags");
    const auto environments = request.queryValues("environment");
    std::vector<const LangfuseSeedScore*> matching;
    for (const auto& s : m_scores) {
        if (name && s.name != *name) continue;
        if (from && s.timestamp < *from) continue;
        if (to && s.timestamp >= *to) continue;
        const bool allTags = std::all_of(tags.begin(), tags.end(), [&](const std::string& t) {
            return std::find(s.traceTags.begin(), s.traceTags.end(), t) != s.traceTags.end();
        });
        if (!allTags) continue;
        // The older list has no environment filter (data-formats.md §4.2): it ignores the parameter.
        if (!legacy && !environments.empty() &&
            std::find(environments.begin(), environments.end(), s.environment) == environments.end())
            continue;
        matching.push_back(&s);
    }

    const bool repeats = m_options.repeats == Options::Repeats::Page;
    const long totalItems = repeats ? 1'000'000'000L : static_cast<long>(matching.size());
    const long totalPages = (totalItems + *limit - 1) / *limit;
    json data = json::array();
    const long start = repeats ? 0 : (*page - 1) * *limit;
    for (long i = start; i < std::min(static_cast<long>(matching.size()), start + *limit); ++i) {
        const LangfuseSeedScore& s = *matching[static_cast<std::size_t>(i)];
        json item{{"id", s.id},
                  {"traceId", s.traceId},
                  {"sessionId", nullptr},
                  {"observationId", nullptr},
                  {"datasetRunId", nullptr},
                  {"name", s.name},
                  {"value", s.value},
                  {"dataType", s.dataType},
                  {"source", "API"},
                  {"timestamp", isoTimestamp(s.timestamp)},
                  {"createdAt", isoTimestamp(s.timestamp + 0.25)},
                  {"updatedAt", isoTimestamp(s.timestamp + 0.25)},
                  {"authorUserId", nullptr},
                  {"comment", s.comment.empty() ? json(nullptr) : json(s.comment)},
                  {"metadata", json::object()},
                  {"configId", nullptr},
                  {"queueId", nullptr}};
        if (s.dataType != "NUMERIC") item["stringValue"] = s.stringValue;
        json trace{{"userId", nullptr}, {"tags", s.traceTags}};
        if (!legacy) {
            item["environment"] = s.environment;
            trace["environment"] = s.environment;
            trace["sessionId"] = nullptr;
        }
        item["trace"] = std::move(trace);
        data.push_back(std::move(item));
    }
    json body{{"data", std::move(data)},
              {"meta", {{"page", *page}, {"limit", *limit}, {"totalItems", totalItems}, {"totalPages", totalPages}}}};
    return finishScores(std::move(body), m_options, true);
}

}  // namespace fp8dash::test
