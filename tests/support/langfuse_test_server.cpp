// The behaviour follows Langfuse's Fern definitions (score-v2.yml, score.yml) and its route code: auth before rate
// limiting before query validation; zod validation failures answer 400 with the issues; list ordered by timestamp,
// newest first; meta.totalPages = ceil(totalItems / limit).
#include "langfuse_test_server.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <optional>
#include <set>

namespace fp8dash::test {
namespace {

using Reply = TestHttpServer::Reply;
using json = nlohmann::json;


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

}  // namespace

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
    std::stable_sort(m_scores.begin(), m_scores.end(),
                     [](const auto& a, const auto& b) { return a.timestamp > b.timestamp; });
}

TestHttpServer::Reply LangfuseTestServer::handle(const TestHttpServer::Request& request) {
    const bool v2 = request.path == "/api/public/v2/scores";
    const bool v1 = request.path == "/api/public/scores";
    if ((!v2 && !v1) || (v2 && m_options.legacyOnly)) return notFoundPage();
    if (request.method != "GET")
        return Reply::json(405, json{{"message", "Method not allowed"}, {"error", "MethodNotAllowedError"}}.dump());

    const auto auth = request.header("authorization");
    if (!auth) return Reply::json(401, json{{"message", "No authorization header"}}.dump());
    if (*auth != "Basic " + base64Encode(m_options.publicKey + ":" + m_options.secretKey))
        return Reply::json(
            401, json{{"message", "Invalid credentials. Confirm that you've configured the correct host."}}.dump());

    {
        std::lock_guard lock(m_mutex);
        if (m_authenticatedRequests++ < m_options.rateLimitFirst) {
            return Reply{429,
                         {{"Retry-After", std::to_string(m_options.retryAfterS)},
                          {"X-RateLimit-Limit", "30"},
                          {"X-RateLimit-Remaining", "0"},
                          {"X-RateLimit-Reset", std::to_string(std::time(nullptr) + m_options.retryAfterS)}},
                         json{{"message", "Rate limit exceeded"}}.dump()};
        }
    }
    return listScores(request, v1);
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

    const long totalItems = static_cast<long>(matching.size());
    const long totalPages = (totalItems + *limit - 1) / *limit;
    json data = json::array();
    for (long i = (*page - 1) * *limit; i < std::min(totalItems, *page * *limit); ++i) {
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
                  {"comment", nullptr},
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

    switch (m_options.malformed) {
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

}  // namespace fp8dash::test
