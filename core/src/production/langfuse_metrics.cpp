// The aggregate mode (shared/notes/langfuse-api-2026.md §4): GET /api/public/v2/metrics, view "scores-numeric",
// average and count per minute, filtered by score name, environment and trace tags. The server's ClickHouse does the
// work; the client keeps sum = average x count per bucket so that window means equal the raw scores' means.
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>

#include "fp8dash/core/json_text.h"
#include "production/langfuse_session.h"

namespace fp8dash {
namespace {

using json = nlohmann::json;
using detail::excerpt;
using detail::LangfuseSession;

constexpr const char* kMetricsPath = "/api/public/v2/metrics";
constexpr double kMinute = 60;
constexpr int kRowLimit = 1000;  // config.row_limit 1..1000; it counts the zero rows WITH FILL adds
// With a tags filter Langfuse counts a score only when its trace also started inside the request's span (notes §4):
// each request then reaches back as far as the raw mode lists traces (an hour: a judge scores a trace after it ran)
// and the minutes before the chunk are dropped, so a trace that started just before a chunk keeps its scores.
constexpr double kTraceLookbackS = 3600;

// The filters both queries share. No dataType filter: the view holds NUMERIC and BOOLEAN scores, the types the raw
// mode keeps, so that both modes read the same scores.
json metricFilters(const ScoreQuery& q) {
    json filters = json::array();
    if (!q.name.empty())
        filters.push_back({{"column", "name"}, {"operator", "="}, {"value", q.name}, {"type", "string"}});
    if (!q.environments.empty())
        filters.push_back(
            {{"column", "environment"}, {"operator", "any of"}, {"value", q.environments}, {"type", "stringOptions"}});
    if (!q.traceTags.empty())
        filters.push_back(
            {{"column", "tags"}, {"operator", "all of"}, {"value", q.traceTags}, {"type", "arrayOptions"}});
    return filters;
}

std::optional<double> numberIn(const json& row, const char* key) {
    const auto it = row.find(key);
    if (it == row.end() || it->is_null()) return std::nullopt;
    if (it->is_number()) return it->get<double>();
    if (it->is_string()) {  // ClickHouse's 64-bit counts may come as strings (notes §6)
        const std::string& s = it->get_ref<const std::string&>();
        char* end = nullptr;
        const double v = std::strtod(s.c_str(), &end);
        if (!s.empty() && end && *end == '\0' && std::isfinite(v)) return v;
    }
    return std::nullopt;
}

// One request of the Metrics API; a 404 teaches that the server has none (remembered by the caller).
Result<HttpResponse> metricsRequest(const LangfuseSession& session, const json& query, const Progress& progress,
                                    double fraction) {
    return session.get(kMetricsPath, {{"query", query.dump()}}, progress, fraction);
}

Error noMetricsApi(const LangfuseSession& session, const std::string& version) {
    return session.fail("Langfuse at " + session.shownBase() + " (" +
                        (version.empty() ? std::string("version not reported") : "version " + version) +
                        ") has no Metrics API (GET /api/public/v2/metrics: Langfuse v4 and Cloud), which the "
                        "aggregate mode needs; use the raw mode (--langfuse-mode raw)");
}

}  // namespace

Result<std::optional<double>> LangfuseClient::countScores(const ScoreQuery& query, const Progress& progress) const {
    LangfuseSession session(m_settings, m_http);
    if (auto ready = session.ready(); !ready) return ready.error();
    auto info = server(progress);
    if (!info) return info.error();
    if (info->metrics == false || !query.from || !query.to) return std::optional<double>{};
    json q{{"view", "scores-numeric"},
           {"metrics", json::array({{{"measure", "count"}, {"aggregation", "count"}}})},
           {"filters", metricFilters(query)},
           {"fromTimestamp", toIso8601(*query.from)},
           {"toTimestamp", toIso8601(*query.to - 0.001)},  // both inclusive here; the query's `to` is exclusive
           {"config", {{"row_limit", 1}}}};
    auto r = metricsRequest(session, q, progress, 0);
    if (!r) return r.error();
    const std::string where = "GET " + HttpClient::displayUrl(session.base() + kMetricsPath);
    if (r->status == 404) {
        LangfuseServerInfo updated = *info;
        updated.metrics = false;
        detail::rememberLangfuseServer(session.base(), updated);
        return std::optional<double>{};
    }
    if (r->status != 200) return session.statusError(where, *r);
    auto parsed = parseAnswerJson(r->body, where);  // a repeated key is refused, naming it
    if (!parsed) return session.fail(parsed.error().message);
    const json& doc = *parsed;
    const auto data = doc.is_object() ? doc.find("data") : doc.end();
    if (!doc.is_object() || data == doc.end() || !data->is_array())
        return session.fail(where + ": the response has no \"data\" list: " + excerpt(r->body, 120));
    if (!info->metrics) {
        LangfuseServerInfo updated = *info;
        updated.metrics = true;
        detail::rememberLangfuseServer(session.base(), updated);
    }
    if (data->empty()) return std::optional<double>(0.0);
    const auto n = (*data)[0].is_object() ? numberIn((*data)[0], "count_count") : std::nullopt;
    if (!n) return session.fail(where + ": data[0].count_count is not a number: " + excerpt((*data)[0].dump(), 80));
    return std::optional<double>(*n);
}

Result<std::vector<ScoreBucket>> LangfuseClient::scoreBuckets(const ScoreQuery& query, const Progress& progress) const {
    LangfuseSession session(m_settings, m_http);
    if (auto ready = session.ready(); !ready) return ready.error();
    if (!query.from || !query.to || !(*query.to > *query.from))
        return session.fail("Langfuse at " + session.shownBase() + ": the aggregate mode needs a time range");
    auto info = server(progress);
    if (!info) return info.error();
    if (info->metrics == false) return noMetricsApi(session, info->version);
    const std::string where0 = "GET " + HttpClient::displayUrl(session.base() + kMetricsPath);
    const detail::FetchMeter meter(progress);

    // Whole minutes from from's minute to the one holding the last instant before `to`; 1000 rows a request, of
    // which the look-back takes 60 where tags filter the traces.
    const double first = std::floor(*query.from / kMinute) * kMinute;
    const double end = std::floor((*query.to - 0.001) / kMinute) * kMinute + kMinute;  // exclusive
    const double lookback = query.traceTags.empty() ? 0 : kTraceLookbackS;
    const double span = kRowLimit * kMinute - lookback;  // the minutes each request keeps
    const auto chunks = static_cast<std::size_t>(std::ceil((end - first) / span));
    std::vector<ScoreBucket> out;
    double scores = 0;
    for (std::size_t c = 0; c < chunks; ++c) {
        if (progress.isCancelled()) return session.fail(where0 + ": cancelled");
        const double from = first + static_cast<double>(c) * span;
        const double to = std::min(end, from + span);
        // Both ends inclusive: the chunk's last instant is a millisecond before the next chunk's first minute. With
        // a look-back the request starts earlier; its rows before `from` are dropped below. (The range's first minute
        // then holds all its scores, also those before a `from` that is not on a whole minute.)
        json q{{"view", "scores-numeric"},
               {"metrics", json::array({{{"measure", "value"}, {"aggregation", "avg"}},
                                        {{"measure", "count"}, {"aggregation", "count"}}})},
               {"filters", metricFilters(query)},
               {"timeDimension", {{"granularity", "minute"}}},
               {"fromTimestamp", toIso8601(lookback > 0 ? from - lookback : std::max(from, *query.from))},
               {"toTimestamp", toIso8601(std::min(to, *query.to) - 0.001)},
               {"config", {{"row_limit", kRowLimit}}}};
        auto r = metricsRequest(session, q, progress, static_cast<double>(c) / static_cast<double>(chunks));
        if (!r) return r.error();
        const std::string where = where0 + " (" + toIso8601(from) + " to " + toIso8601(to) + ")";
        if (r->status == 404 && c == 0) {
            LangfuseServerInfo updated = *info;
            updated.metrics = false;
            detail::rememberLangfuseServer(session.base(), updated);
            return noMetricsApi(session, info->version);
        }
        if (r->status != 200) return session.statusError(where, *r);
        auto parsed = parseAnswerJson(r->body, where);  // a repeated key is refused, naming it
        if (!parsed) return session.fail(parsed.error().message);
        const json& doc = *parsed;
        const auto data = doc.is_object() ? doc.find("data") : doc.end();
        if (!doc.is_object() || data == doc.end() || !data->is_array())
            return session.fail(where + ": the response has no \"data\" list: " + excerpt(r->body, 120));
        if (data->size() >= static_cast<std::size_t>(kRowLimit) && to - from + lookback > kRowLimit * kMinute)
            return session.fail(where + ": more rows than minutes asked for");
        for (std::size_t i = 0; i < data->size(); ++i) {
            const json& row = (*data)[i];
            const std::string field = "data[" + std::to_string(i) + "]";
            if (!row.is_object()) return session.fail(where + ": " + field + " is not an object");
            const auto td = row.find("time_dimension");
            const auto t = td != row.end() && td->is_string() ? parseIso8601(td->get<std::string>()) : std::nullopt;
            if (!t) return session.fail(where + ": " + field + ".time_dimension is not an ISO 8601 time");
            const auto count = numberIn(row, "count_count");
            if (!count || *count < 0 || *count != std::floor(*count))
                return session.fail(where + ": " + field + ".count_count is not a count: " +
                                    excerpt(row.contains("count_count") ? row["count_count"].dump() : "missing", 60));
            if (*count == 0) continue;  // a zero row WITH FILL added: an empty minute (its avg means nothing)
            if (*t < from) continue;    // the look-back's minutes: the chunk before holds them
            const auto avg = numberIn(row, "avg_value");
            if (!avg) return session.fail(where + ": " + field + ".avg_value is not a number");
            out.push_back({*t, *avg * *count, *count});
            scores += *count;
        }
        if (!info->metrics) {
            LangfuseServerInfo updated = *info;
            updated.metrics = true;
            detail::rememberLangfuseServer(session.base(), updated);
            info->metrics = true;
        }
        meter(static_cast<double>(c + 1) / static_cast<double>(chunks),
              "Langfuse Metrics API: " + detail::thousands(scores) + " scores in " +
                  detail::thousands(static_cast<double>(out.size())) + " minutes (request " + std::to_string(c + 1) +
                  " of " + std::to_string(chunks) + ")");
    }
    std::stable_sort(out.begin(), out.end(), [](const ScoreBucket& a, const ScoreBucket& b) { return a.t < b.t; });
    return out;
}

}  // namespace fp8dash
