// Langfuse scores over the public API (shared/notes/langfuse-api-2026.md): which list a server has, the page reader
// every list shares, and the offset paging of /api/public/v2/scores (v3.53 .. v3.179) and /api/public/scores (older).
// Filters are applied by the server; the client checks only what an older server may ignore.
#include "fp8dash/core/langfuse_client.h"
#include "fp8dash/core/json_text.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <ctime>
#include <limits>
#include <unordered_set>

#include "production/langfuse_session.h"

namespace fp8dash {
namespace {

using json = nlohmann::json;
using detail::excerpt;
using detail::FetchMeter;
using detail::thousands;

constexpr int kMaxPageSize = 100;  // Langfuse answers 400 above this

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

}  // namespace

Result<LangfuseScoresPage> parseLangfuseScoresPage(const std::string& body, const ScoreQuery& query,
                                                   const std::string& where) {
    LangfuseScoresPage page;
    auto parsed = parseAnswerJson(body, where);  // a repeated key is refused, naming it
    if (!parsed) return parsed.error();
    const json& doc = *parsed;
    if (doc.is_discarded() || !doc.is_object())
        return Error{where + ": the response is not a JSON object: " + excerpt(body, 120)};
    const auto data = doc.find("data");
    if (data == doc.end() || !data->is_array()) return Error{where + ": the response has no \"data\" list"};

    if (auto meta = doc.find("meta"); meta != doc.end() && !meta->is_null()) {
        if (!meta->is_object()) return Error{where + ": \"meta\" is not an object"};
        if (auto tp = meta->find("totalPages"); tp != meta->end()) {
            if (!tp->is_number() || tp->get<double>() < 0)
                return Error{where + ": meta.totalPages is not a number: " + excerpt(tp->dump(), 60)};
            // Converting a double beyond long's range is undefined (UBSan found 1e300); no server has 2^31 pages.
            if (tp->get<double>() > std::numeric_limits<int>::max())
                return Error{where + ": meta.totalPages is not a page count: " + excerpt(tp->dump(), 60)};
            page.totalPages = static_cast<long>(tp->get<double>());
        }
        if (auto ti = meta->find("totalItems"); ti != meta->end() && ti->is_number() && ti->get<double>() >= 0)
            page.totalItems = ti->get<double>();
        if (auto c = meta->find("cursor"); c != meta->end() && !c->is_null()) {
            if (!c->is_string()) return Error{where + ": meta.cursor is not a string: " + excerpt(c->dump(), 60)};
            if (!c->get<std::string>().empty()) page.cursor = c->get<std::string>();
        }
    }

    for (std::size_t i = 0; i < data->size(); ++i) {
        const json& item = (*data)[i];
        const std::string field = "data[" + std::to_string(i) + "]";
        if (!item.is_object()) return Error{where + ": " + field + " is not an object"};
        const auto id = item.find("id");
        if (id == item.end() || !id->is_string()) return Error{where + ": " + field + ".id is missing or not a string"};
        page.contentHash = detail::hashCombine(page.contentHash, id->get_ref<const std::string&>());
        const auto dataType = item.find("dataType");
        const std::string type =
            dataType != item.end() && dataType->is_string() ? dataType->get<std::string>() : "NUMERIC";
        // NUMERIC values are the judge's points; BOOLEAN is 1/0. CATEGORICAL's value is only a mapping index.
        const bool numericType = type == "NUMERIC" || type == "BOOLEAN";
        if (!numericType && !query.allDataTypes) continue;
        if (auto name = item.find("name");
            !query.name.empty() && name != item.end() && name->is_string() && name->get<std::string>() != query.name)
            continue;  // a server that ignored the name filter
        const auto value = item.find("value");
        // v3's typed value: BOOLEAN scores are true/false there (1/0 in the older lists).
        const bool boolean = value != item.end() && value->is_boolean() && type == "BOOLEAN";
        if (numericType && !boolean && (value == item.end() || !value->is_number()))
            return Error{where + ": " + field +
                         ".value is not a number: " + (value == item.end() ? "missing" : excerpt(value->dump(), 60))};
        const auto ts = item.find("timestamp");
        std::optional<double> t;
        if (ts != item.end() && ts->is_string()) t = parseIso8601(ts->get<std::string>());
        if (!t)
            return Error{where + ": " + field + ".timestamp is not an ISO 8601 time: " +
                         (ts == item.end() ? "missing" : excerpt(ts->dump(), 60))};
        if (!query.environments.empty()) {
            // The older list has no environment filter and ignores the parameter: filter here, or refuse.
            const auto env = item.find("environment");
            if (env == item.end() || !env->is_string())
                return Error{where + ": this Langfuse server does not report score environments (" + field +
                             ".environment is missing), so it cannot filter by environment; use trace tags"};
            if (std::find(query.environments.begin(), query.environments.end(), env->get<std::string>()) ==
                query.environments.end())
                continue;
        }
        Score s;
        s.id = id->get<std::string>();
        if (auto trace = item.find("traceId"); trace != item.end() && trace->is_string()) {
            s.traceId = trace->get<std::string>();
        } else if (auto subject = item.find("subject"); subject != item.end() && subject->is_object()) {
            // v3 (fields=subject): {"kind": "trace", "id": ...}, or a traceId beside an observation's id.
            if (auto tid = subject->find("traceId"); tid != subject->end() && tid->is_string())
                s.traceId = tid->get<std::string>();
            else if (auto kind = subject->find("kind"), sid = subject->find("id");
                     kind != subject->end() && sid != subject->end() && *kind == "trace" && sid->is_string())
                s.traceId = sid->get<std::string>();
        }
        s.timestamp = *t;
        s.value = boolean                                     ? (value->get<bool>() ? 1.0 : 0.0)
                  : value != item.end() && value->is_number() ? value->get<double>()
                                                              : std::numeric_limits<double>::quiet_NaN();
        s.dataType = type;
        if (auto comment = item.find("comment"); comment != item.end() && comment->is_string())
            s.comment = comment->get<std::string>();
        page.scores.push_back(std::move(s));
    }
    page.items = data->size();
    return page;
}

std::string langfuseServerMessage(const std::string& body) {
    return serverMessage(body);
}

namespace detail {

// Offset paging (page/limit) of the older lists, every page until an empty one or meta.totalPages.
Result<std::vector<Score>> langfuseScoresPaged(const LangfuseSession& session, const std::string& path,
                                               const ScoreQuery& query, const Progress& progress, bool& missing) {
    missing = false;
    const int limit = std::clamp(query.pageSize, 1, kMaxPageSize);
    const int maxPages = std::max(1, query.maxPages);
    const std::string shown = "GET " + HttpClient::displayUrl(session.base() + path);
    const FetchMeter meter(progress);
    std::vector<Score> out;
    std::optional<long> totalPages;
    LangfuseReadGuard guard(session, shown, query);
    for (int page = 1;; ++page) {
        if (progress.isCancelled()) return session.fail(shown + ": cancelled");
        if (page > maxPages)
            return session.fail(shown + ": the server was still returning scores after " + std::to_string(maxPages) +
                                " pages of " + std::to_string(limit) +
                                "; giving up (narrow the time range or the filters)");
        QueryParams params = {{"page", std::to_string(page)}, {"limit", std::to_string(limit)}};
        if (!query.name.empty()) params.emplace_back("name", query.name);
        if (query.from) params.emplace_back("fromTimestamp", toIso8601(*query.from));
        if (query.to) params.emplace_back("toTimestamp", toIso8601(*query.to));
        for (const auto& tag : query.traceTags) params.emplace_back("traceTags", tag);
        for (const auto& env : query.environments) params.emplace_back("environment", env);

        const double done = totalPages && *totalPages > 0 ? std::min(1.0, static_cast<double>(page - 1) / *totalPages)
                                                          : 1.0 - 1.0 / page;
        const std::string where = shown + (page > 1 ? " (page " + std::to_string(page) + ")" : "");
        auto read = session.scoresPage(path, params, query, where, page == 1, progress, done, out);
        if (!read) return read.error();
        if (!*read) {
            missing = true;
            return out;
        }
        const LangfuseScoresPage& parsed = **read;
        // A server that ignores `page` answers page 1 again and again (with a totalPages it never reaches).
        if (auto st = guard.page(parsed, page); !st) return st.error();
        if (auto st = guard.gathered(out, page); !st) return st.error();
        totalPages = parsed.totalPages;
        if (page == 1 && totalPages) session.warnIfLong(static_cast<double>(*totalPages - 1), "reading the scores");

        const double fraction = totalPages && *totalPages > 0 ? std::min(1.0, static_cast<double>(page) / *totalPages)
                                                              : 1.0 - 1.0 / (page + 1);
        meter(fraction, "Langfuse scores: page " + std::to_string(page) +
                            (totalPages ? " of " + std::to_string(*totalPages) : std::string()) + ", " +
                            thousands(static_cast<double>(out.size())) + " scores" +
                            (parsed.totalItems ? " of " + thousands(*parsed.totalItems) : std::string()));
        if (parsed.items == 0 || (totalPages && page >= *totalPages)) break;
    }
    return out;
}

}  // namespace detail

namespace {

// Each score once (by id: offset pages shift when scores arrive during the fetch), oldest first.
std::vector<Score> oncePerIdOldestFirst(std::vector<Score> scores) {
    std::vector<Score> out;
    out.reserve(scores.size());
    std::unordered_set<std::string> seen;
    for (Score& s : scores)
        if (seen.insert(s.id).second) out.push_back(std::move(s));
    std::stable_sort(out.begin(), out.end(), [](const Score& a, const Score& b) {
        return a.timestamp != b.timestamp ? a.timestamp < b.timestamp : a.id < b.id;
    });
    return out;
}

}  // namespace

Result<std::vector<Score>> LangfuseClient::scores(const ScoreQuery& query, const Progress& progress) const {
    detail::LangfuseSession session(m_settings, m_http);
    if (auto ready = session.ready(); !ready) return ready.error();
    auto found = server(progress);
    if (!found) return found.error();
    LangfuseServerInfo info = *found;
    bool missing = false;
    ScoreQuery counted = query;
    if (!counted.expectedScores && info.scores == LangfuseScoresApi::V3 && info.metrics == true && query.from &&
        query.to) {
        // One Metrics API request tells how long the fetch will be (said before it starts, when long). Only an
        // estimate: where it fails (the Metrics API's own rate limit), the fetch goes on without it.
        auto n = countScores(query, progress);
        if (n)
            counted.expectedScores = *n;
        else if (progress.isCancelled())
            return n.error();
    }

    // v3 (Cloud, v3.180+, v4): without tags one cursor list; with tags, the tagged traces first, then their scores.
    if (info.scores == LangfuseScoresApi::V3) {
        std::optional<std::vector<std::string>> traceIds;
        if (!query.traceTags.empty()) {
            for (;;) {
                if (info.traces == LangfuseTraceApi::None) info.traces = LangfuseTraceApi::Traces;
                auto ids =
                    detail::langfuseTraceIds(session, info.traces, counted, detail::stage(progress, 0, 0.3), missing);
                if (!ids) return ids.error();
                if (!missing) {
                    traceIds = std::move(ids).value();
                    break;
                }
                if (info.traces == LangfuseTraceApi::Traces) {
                    // Neither list of traces: a v3.180+ server without /traces is not one we know; v2 filters by tag.
                    info.scores = LangfuseScoresApi::V2;
                    info.traces = LangfuseTraceApi::None;
                    break;
                }
                info.traces = LangfuseTraceApi::Traces;  // v4 in write mode "legacy": no observations v2
                detail::rememberLangfuseServer(session.base(), info);
            }
        }
        if (info.scores == LangfuseScoresApi::V3) {
            if (traceIds && traceIds->empty()) return std::vector<Score>{};
            auto got = detail::langfuseScoresV3(session, counted, traceIds ? &*traceIds : nullptr,
                                                traceIds ? detail::stage(progress, 0.3, 1) : progress, missing);
            if (!got) return got.error();
            if (!missing) {
                detail::rememberLangfuseServer(session.base(), info);
                return oncePerIdOldestFirst(std::move(got).value());
            }
            info.scores = LangfuseScoresApi::V2;  // v3 is missing (v3.179 without its flag, or older)
            info.traces = LangfuseTraceApi::None;
        }
        detail::rememberLangfuseServer(session.base(), info);
    }
    if (info.scores == LangfuseScoresApi::V2) {
        auto got = detail::langfuseScoresPaged(session, langfuseScoresApiPath(LangfuseScoresApi::V2), query, progress,
                                               missing);
        if (!got) return got.error();
        if (!missing) return oncePerIdOldestFirst(std::move(got).value());
        info.scores = LangfuseScoresApi::Legacy;  // older than v3.53: the same list lives at /api/public/scores
        info.metrics = false;
        detail::rememberLangfuseServer(session.base(), info);
    }
    auto got = detail::langfuseScoresPaged(session, langfuseScoresApiPath(LangfuseScoresApi::Legacy), query, progress,
                                           missing);
    if (!got) return got.error();
    if (missing)
        return session.fail("GET " + session.shownBase() +
                            "/api/public/scores: not found (404); none of /api/public/v3/scores, /api/public/v2/scores "
                            "and /api/public/scores answers here. Is " +
                            session.shownBase() + " the Langfuse base URL?");
    return oncePerIdOldestFirst(std::move(got).value());
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
