// The Langfuse test server's current endpoints (shared/notes/langfuse-api-2026.md §2-§4): GET /api/public/v3/scores
// (strict parameters, cursor pages), /api/public/v2/observations (root observations, the filter JSON), /api/public/
// traces (page/limit, tags) and /api/public/v2/metrics (scores-numeric, WITH FILL, row_limit).
#include <algorithm>
#include <cmath>
#include <set>

#include "langfuse_test_server.h"
#include "langfuse_test_server_util.h"

namespace fp8dash::test {

using namespace langfuse_detail;

namespace {

bool hasAllTags(const std::vector<std::string>& have, const std::vector<std::string>& want) {
    return std::all_of(want.begin(), want.end(),
                       [&](const std::string& t) { return std::find(have.begin(), have.end(), t) != have.end(); });
}

bool hasAnyTag(const std::vector<std::string>& have, const std::vector<std::string>& want) {
    return std::any_of(want.begin(), want.end(),
                       [&](const std::string& t) { return std::find(have.begin(), have.end(), t) != have.end(); });
}

std::string upper(std::string s) {
    for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return s;
}

bool in(const std::vector<std::string>& list, const std::string& v) {
    return std::find(list.begin(), list.end(), v) != list.end();
}

// Time parameters: ISO 8601; zod's datetime({offset: true}).
void timeParam(const TestHttpServer::Request& r, const char* key, std::optional<double>& out, json& issues) {
    if (const auto text = r.queryValue(key); text && !text->empty()) {
        out = parseIso(*text);
        if (!out) issues.push_back(zodIssue("invalid_string", "Invalid datetime", key));
    }
}

}  // namespace

TestHttpServer::Reply LangfuseTestServer::scoresV3(const TestHttpServer::Request& request) {
    static const std::set<std::string> known = {
        "limit",         "cursor",   "fields",   "id",           "name",          "environment", "source",
        "dataType",      "configId", "queueId",  "authorUserId", "traceId",       "sessionId",   "experimentId",
        "observationId", "value",    "valueMin", "valueMax",     "fromTimestamp", "toTimestamp"};
    json issues = json::array();
    std::set<std::string> seen, unknown;
    for (const auto& [key, value] : request.query) {
        if (key == "traceTags" || key == "userId") {
            issues.push_back(zodIssue("custom",
                                      key + " filter requires a trace JOIN and is not supported in v3 — use v2 or "
                                            "omit this filter",
                                      key));
            continue;
        }
        if (!known.count(key))
            unknown.insert(key);
        else if (!seen.insert(key).second)
            issues.push_back(zodIssue("invalid_type", "Expected string, received array", key));
    }
    if (!unknown.empty()) {
        std::string list;
        for (const auto& k : unknown) list += (list.empty() ? "'" : ", '") + k + "'";
        json issue = zodIssue("unrecognized_keys", "Unrecognized key(s) in object: " + list, "");
        issue["path"] = json::array();
        issue["keys"] = unknown;
        issues.push_back(issue);
    }
    const auto limit = intParam(request, "limit", issues, 1, 100, 50);
    std::optional<double> from, to;
    timeParam(request, "fromTimestamp", from, issues);
    timeParam(request, "toTimestamp", to, issues);
    const auto ids = [&](const char* key) { return splitComma(request.queryValue(key).value_or("")); };
    const auto traceIds = ids("traceId"), names = ids("name"), envs = ids("environment");
    std::vector<std::string> types;
    for (const auto& t : ids("dataType")) types.push_back(upper(t));
    if (!ids("sessionId").empty() + !traceIds.empty() + !ids("experimentId").empty() > 1)
        issues.push_back(zodIssue("custom", "At most one of traceId, sessionId, experimentId may be specified", ""));
    if (!issues.empty()) return invalidRequest(issues);
    const auto fields = ids("fields");

    // The cursor: unpadded base64url of {"v":1,"lastTimestamp","lastId"}; rows after it in (timestamp, id) DESC.
    std::optional<std::pair<double, std::string>> after;
    if (const auto c = request.queryValue("cursor"); c && !c->empty()) {
        bool ok = false;
        const json doc = json::parse(base64UrlDecode(*c, ok), nullptr, false);
        std::optional<double> t;
        if (ok && doc.is_object() && doc.value("v", 0) == 1 && doc.contains("lastTimestamp") &&
            doc["lastTimestamp"].is_string() && doc.contains("lastId") && doc["lastId"].is_string())
            t = parseIso(doc["lastTimestamp"].get<std::string>());
        if (!t) return errorReply(400, "Invalid cursor format", "InvalidRequestError");
        after = std::pair{*t, doc["lastId"].get<std::string>()};
    }
    if (m_options.repeats == Options::Repeats::Cursor) after.reset();
    const auto keep = [&](const LangfuseSeedScore& s) {
        if (!names.empty() && !in(names, s.name)) return false;
        if (!envs.empty() && !in(envs, s.environment)) return false;
        if (!types.empty() && !in(types, s.dataType)) return false;
        if (from && s.timestamp < *from) return false;
        if (to && s.timestamp >= *to) return false;
        if (after) {
            // Millisecond timestamps in the cursor, as the server's own text has them.
            const double ts = std::round(s.timestamp * 1000) / 1000;
            if (ts > after->first || (ts == after->first && s.id >= after->second)) return false;
        }
        return true;
    };
    std::vector<const LangfuseSeedScore*> rows;  // up to limit + 1: whether a next page exists
    const auto wanted = static_cast<std::size_t>(*limit) + 1;
    if (!traceIds.empty()) {
        std::vector<std::size_t> idx;
        for (const auto& t : traceIds)
            if (auto it = m_byTrace.find(t); it != m_byTrace.end())
                idx.insert(idx.end(), it->second.begin(), it->second.end());
        std::sort(idx.begin(), idx.end());  // m_scores' order: newest first
        idx.erase(std::unique(idx.begin(), idx.end()), idx.end());
        for (std::size_t i : idx)
            if (keep(m_scores[i]) && rows.size() < wanted) rows.push_back(&m_scores[i]);
    } else {
        // Newest first: skip to the first score before `to` (or the cursor), then scan.
        const double top = after ? after->first + 0.001 : to.value_or(INFINITY);
        auto it = std::partition_point(m_scores.begin(), m_scores.end(),
                                       [&](const LangfuseSeedScore& s) { return s.timestamp >= top; });
        for (; it != m_scores.end() && rows.size() < wanted; ++it) {
            if (from && it->timestamp < *from) break;
            if (keep(*it)) rows.push_back(&*it);
        }
    }
    const bool more = rows.size() > static_cast<std::size_t>(*limit);
    if (more) rows.pop_back();
    json data = json::array();
    for (const LangfuseSeedScore* s : rows) {
        json item{{"id", s->id},
                  {"projectId", "project-test"},
                  {"name", s->name},
                  {"dataType", s->dataType},
                  {"source", "API"},
                  {"timestamp", isoTimestamp(s->timestamp)},
                  {"environment", s->environment},
                  {"createdAt", isoTimestamp(s->timestamp + 0.25)},
                  {"updatedAt", isoTimestamp(s->timestamp + 0.25)}};
        if (s->dataType == "NUMERIC")
            item["value"] = s->value;
        else if (s->dataType == "BOOLEAN")
            item["value"] = s->value != 0;
        else
            item["value"] = s->stringValue;
        if (in(fields, "details")) {
            item["comment"] = s->comment.empty() ? json(nullptr) : json(s->comment);
            item["configId"] = nullptr;
            item["metadata"] = json::object();
        }
        if (in(fields, "subject")) item["subject"] = {{"kind", "trace"}, {"id", s->traceId}};
        data.push_back(std::move(item));
    }
    json meta{{"limit", *limit}};
    if (more) {
        const auto* last = rows.back();
        meta["cursor"] = base64UrlEncode(
            json{{"v", 1}, {"lastTimestamp", isoTimestamp(last->timestamp)}, {"lastId", last->id}}.dump());
    }
    return finishScores(json{{"data", std::move(data)}, {"meta", std::move(meta)}}, m_options, false);
}

TestHttpServer::Reply LangfuseTestServer::observationsV2(const TestHttpServer::Request& request) {
    json issues = json::array();
    const auto limit = intParam(request, "limit", issues, 0, 1000, 50);
    std::optional<double> from, to;
    timeParam(request, "fromStartTime", from, issues);
    timeParam(request, "toStartTime", to, issues);
    std::vector<std::string> allOf, anyOf, noneOf;
    if (const auto f = request.queryValue("filter"); f && !f->empty()) {
        const json filter = json::parse(*f, nullptr, false);
        if (!filter.is_array()) {
            issues.push_back(zodIssue("custom", "Invalid filter: expected a JSON array", "filter"));
        } else {
            for (const auto& e : filter) {
                const bool tags =
                    e.is_object() && (e.value("column", "") == "tags" || e.value("column", "") == "traceTags");
                if (!tags || e.value("type", "") != "arrayOptions" || !e.contains("value") || !e["value"].is_array()) {
                    issues.push_back(zodIssue("custom", "Invalid filter entry: " + e.dump(), "filter"));
                    continue;
                }
                const std::string op = e.value("operator", "");
                auto& list = op == "all of" ? allOf : op == "any of" ? anyOf : noneOf;
                if (op != "all of" && op != "any of" && op != "none of")
                    issues.push_back(zodIssue("custom", "Invalid operator for arrayOptions: " + op, "filter"));
                for (const auto& v : e["value"])
                    if (v.is_string()) list.push_back(v.get<std::string>());
            }
        }
    }
    std::optional<std::pair<double, std::string>> after;
    if (const auto c = request.queryValue("cursor"); c && !c->empty()) {
        bool ok = false;
        const json doc = json::parse(base64UrlDecode(*c, ok), nullptr, false);
        if (!ok || !doc.is_object() || !doc.contains("lastStartTime") || !doc.contains("lastId") ||
            !doc["lastStartTime"].is_number() || !doc["lastId"].is_string())
            return errorReply(400, "Invalid cursor", "InvalidRequestError");
        after = std::pair{doc["lastStartTime"].get<double>(), doc["lastId"].get<std::string>()};
    }
    if (m_options.repeats == Options::Repeats::Cursor) after.reset();
    if (!issues.empty()) return invalidRequest(issues);
    const auto envs = request.queryValues("environment");
    const auto traceId = request.queryValue("traceId");
    const bool traceContext = in(splitComma(request.queryValue("fields").value_or("core,basic")), "trace_context");
    json data = json::array();
    std::optional<std::pair<double, std::string>> last;
    bool more = false;
    // Newest first, one root observation per trace: start after the cursor (and before `to`).
    auto first = m_traces.begin();
    if (after)
        first = std::partition_point(m_traces.begin(), m_traces.end(), [&](const Trace& t) {
            return t.start > after->first || (t.start == after->first && t.id >= after->second);
        });
    if (to)
        first = std::max(first, std::partition_point(m_traces.begin(), m_traces.end(),
                                                     [&](const Trace& t) { return t.start >= *to; }));
    for (auto it = first; it != m_traces.end(); ++it) {
        const Trace& t = *it;
        if (from && t.start < *from) break;
        if (!allOf.empty() && !hasAllTags(t.tags, allOf)) continue;
        if (!anyOf.empty() && !hasAnyTag(t.tags, anyOf)) continue;
        if (!noneOf.empty() && hasAnyTag(t.tags, noneOf)) continue;
        if (!envs.empty() && !in(envs, t.environment)) continue;
        if (traceId && t.id != *traceId) continue;
        if (data.size() >= static_cast<std::size_t>(*limit)) {
            more = true;
            break;
        }
        json item{{"id", "obs-" + t.id}, {"traceId", t.id}, {"startTime", isoTimestamp(t.start)}, {"type", "SPAN"}};
        if (traceContext) item["tags"] = t.tags;
        data.push_back(std::move(item));
        last = std::pair{t.start, t.id};
    }
    json meta = json::object();
    if (more && last)
        meta["cursor"] = base64UrlEncode(json{{"lastStartTime", last->first}, {"lastId", last->second}}.dump());
    return Reply::json(200, json{{"data", std::move(data)}, {"meta", std::move(meta)}}.dump());
}

TestHttpServer::Reply LangfuseTestServer::traces(const TestHttpServer::Request& request) {
    json issues = json::array();
    const auto page = intParam(request, "page", issues, 1, std::nullopt, 1);
    const auto limit = intParam(request, "limit", issues, 1, 100, 50);
    std::optional<double> from, to;
    timeParam(request, "fromTimestamp", from, issues);
    timeParam(request, "toTimestamp", to, issues);
    if (!issues.empty()) return invalidRequest(issues);
    std::vector<std::string> tags;  // repeatable, all must match; one value is split on commas
    for (const auto& t : request.queryValues("tags"))
        for (const auto& part : splitComma(t)) tags.push_back(part);
    const auto envs = request.queryValues("environment");
    std::vector<const Trace*> matching;
    for (const Trace& t : m_traces) {
        if (to && t.start >= *to) continue;
        if (from && t.start < *from) break;
        if (!hasAllTags(t.tags, tags)) continue;
        if (!envs.empty() && !in(envs, t.environment)) continue;
        matching.push_back(&t);
    }
    const bool repeats = m_options.repeats == Options::Repeats::Page;
    const long total = repeats ? 1'000'000'000L : static_cast<long>(matching.size());
    json data = json::array();
    const long start = repeats ? 0 : (*page - 1) * *limit;
    for (long i = start; i < std::min(static_cast<long>(matching.size()), start + *limit); ++i) {
        const Trace& t = *matching[static_cast<std::size_t>(i)];
        data.push_back(
            {{"id", t.id}, {"timestamp", isoTimestamp(t.start)}, {"tags", t.tags}, {"environment", t.environment}});
    }
    json body{
        {"data", std::move(data)},
        {"meta",
         {{"page", *page}, {"limit", *limit}, {"totalItems", total}, {"totalPages", (total + *limit - 1) / *limit}}}};
    if (m_options.cloud)
        body["_deprecation"] = {{"message", "This endpoint is deprecated."},
                                {"replacement", "GET /api/public/v2/observations"},
                                {"sunsetAt", "2026-11-16"}};
    return Reply::json(200, body.dump());
}

TestHttpServer::Reply LangfuseTestServer::metrics(const TestHttpServer::Request& request) {
    const auto text = request.queryValue("query");
    const json q = text ? json::parse(*text, nullptr, false) : json();
    if (!q.is_object()) return invalidRequest(json::array({zodIssue("custom", "Invalid JSON in query", "query")}));
    json issues = json::array();
    if (q.value("view", "") != "scores-numeric")
        issues.push_back(zodIssue("custom", "the test server knows only the view scores-numeric", "view"));
    std::optional<double> from, to;
    for (const char* key : {"fromTimestamp", "toTimestamp"}) {
        const auto t = q.contains(key) && q[key].is_string() ? parseIso(q[key].get<std::string>()) : std::nullopt;
        if (!t) issues.push_back(zodIssue("invalid_string", "Invalid datetime", key));
        (std::string(key) == "fromTimestamp" ? from : to) = t;
    }
    if (from && to && !(*from < *to))
        issues.push_back(zodIssue("custom", "fromTimestamp must be before toTimestamp", "fromTimestamp"));
    long rowLimit = 100;
    if (q.contains("config") && q["config"].contains("row_limit")) {
        const json& r = q["config"]["row_limit"];
        if (!r.is_number_integer() || r.get<long>() < 1 || r.get<long>() > 1000)
            issues.push_back(zodIssue("too_big", "row_limit must be 1..1000", "config.row_limit"));
        else
            rowLimit = r.get<long>();
    }
    std::vector<std::pair<std::string, std::string>> outputs;  // {"avg", "value"} -> avg_value
    if (!q.contains("metrics") || !q["metrics"].is_array() || q["metrics"].empty())
        issues.push_back(zodIssue("custom", "metrics must be a non-empty list", "metrics"));
    else
        for (const auto& m : q["metrics"]) {
            const std::string agg = m.value("aggregation", ""), measure = m.value("measure", "");
            if ((agg != "avg" && agg != "sum" && agg != "count") || (measure != "value" && measure != "count"))
                issues.push_back(zodIssue("custom", "the test server knows avg/sum/count of value/count", "metrics"));
            outputs.emplace_back(agg, measure);
        }
    std::vector<std::string> names, types, envs, allTags;
    bool tagsFilter = false;
    if (q.contains("filters")) {
        for (const auto& f : q["filters"]) {
            const std::string column = f.value("column", ""), op = f.value("operator", ""), type = f.value("type", "");
            if (column == "tags") {
                if (type != "arrayOptions" || !f.contains("value") || !f["value"].is_array()) {
                    return invalidRequest(json::array(
                        {zodIssue("custom",
                                  "Invalid filter for field 'tags': Filter type '" + type +
                                      "' is not supported for dimension type 'string[]'. Expected 'arrayOptions'.",
                                  "filters")}));
                }
                if (op != "all of")
                    issues.push_back(zodIssue("custom", "the test server knows 'all of' for tags", "filters"));
                tagsFilter = true;
                for (const auto& v : f["value"]) allTags.push_back(v.get<std::string>());
            } else if ((column == "name" || column == "dataType") && op == "=" && f.contains("value") &&
                       f["value"].is_string()) {
                (column == "name" ? names : types).push_back(f["value"].get<std::string>());
            } else if (column == "environment" && op == "any of" && f.contains("value") && f["value"].is_array()) {
                for (const auto& v : f["value"]) envs.push_back(v.get<std::string>());
            } else {
                issues.push_back(zodIssue("custom", "the test server does not know the filter " + f.dump(), "filters"));
            }
        }
    }
    double width = 0;
    if (q.contains("timeDimension") && !q["timeDimension"].is_null()) {
        const std::string g = q["timeDimension"].value("granularity", "");
        width = g == "minute" ? 60 : g == "hour" ? 3600 : g == "day" ? 86400 : 0;
        if (width == 0)
            issues.push_back(zodIssue("custom", "the test server knows minute, hour and day", "timeDimension"));
    }
    if (!issues.empty()) return invalidRequest(issues);

    // Scores in [from, to] (both inclusive), newest first in m_scores.
    struct Acc {
        double sum = 0, count = 0;
    };
    std::map<double, Acc> buckets;
    Acc all;
    auto it = std::partition_point(m_scores.begin(), m_scores.end(),
                                   [&](const LangfuseSeedScore& s) { return s.timestamp > *to; });
    for (; it != m_scores.end() && it->timestamp >= *from; ++it) {
        const LangfuseSeedScore& s = *it;
        if (s.dataType != "NUMERIC" && s.dataType != "BOOLEAN") continue;  // the view scores-numeric
        if (!names.empty() && !in(names, s.name)) continue;
        if (!types.empty() && !in(types, s.dataType)) continue;
        if (!envs.empty() && !in(envs, s.environment)) continue;
        if (tagsFilter) {
            // The tags come from the trace's root event, which must itself lie in [from, to] (notes §4).
            const Trace* t = traceOf(s);
            if (!t || !hasAllTags(t->tags, allTags) || t->start < *from || t->start > *to) continue;
        }
        Acc& a = width > 0 ? buckets[std::floor(s.timestamp / width) * width] : all;
        a.sum += s.value;
        a.count += 1;
    }
    const auto row = [&](const Acc& a) {
        json r = json::object();
        for (const auto& [agg, measure] : outputs) {
            const std::string key = agg + "_" + measure;
            if (measure == "count" || agg == "count")
                r[key] = a.count;
            else if (agg == "sum")
                r[key] = a.sum;
            else
                r[key] = a.count > 0 ? a.sum / a.count : 0.0;  // avg; 0 in the zero rows WITH FILL adds
        }
        return r;
    };
    json data = json::array();
    if (width > 0) {
        // WITH FILL: every bucket from from's to to's, in time order; row_limit counts the filled rows too.
        for (double t = std::floor(*from / width) * width; t <= *to && static_cast<long>(data.size()) < rowLimit;
             t += width) {
            const auto b = buckets.find(t);
            json r = row(b == buckets.end() ? Acc{} : b->second);
            r["time_dimension"] = isoTimestamp(t);
            data.push_back(std::move(r));
        }
    } else {
        data.push_back(row(all));
    }
    return Reply::json(200, json{{"data", std::move(data)}}.dump());
}

}  // namespace fp8dash::test
