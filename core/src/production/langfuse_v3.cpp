// The current Langfuse reads (shared/notes/langfuse-api-2026.md §2, §3): GET /api/public/v3/scores by cursor, and
// the trace ids of a set of tags from GET /api/public/v2/observations (v4, Cloud) or GET /api/public/traces (v3.x),
// whose scores are then read by traceId in batches.
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <unordered_set>

#include "fp8dash/core/json_text.h"
#include "production/langfuse_session.h"

namespace fp8dash::detail {
namespace {

using json = nlohmann::json;

constexpr int kScoresLimit = 100;         // v3 scores: limit 1..100
constexpr int kObservationsLimit = 1000;  // observations v2: limit 0..1000
constexpr int kTracesLimit = 100;         // /traces: limit 1..100
constexpr std::size_t kTraceBatch = 100;  // trace ids per scores request (a URL of ~4 KB)
// Traces that started up to this long before the range may hold scores inside it (a judge scores a trace some
// seconds or minutes after it ran): they are listed too, and the scores' own time filter keeps what is in range.
constexpr double kTraceLookbackS = 3600;

std::string joined(const std::vector<std::string>& items) {
    std::string out;
    for (const auto& s : items) out += (out.empty() ? "" : ",") + s;
    return out;
}

// The ids of one page of traces or observations: data[i].traceId (observations) or data[i].id (traces).
Status readTraceIds(const std::string& body, const std::string& where, const char* key, std::vector<std::string>& ids,
                    std::optional<std::string>& cursor, std::optional<double>& total, std::size_t& items) {
    auto parsed = parseAnswerJson(body, where);  // a repeated key is refused, naming it
    if (!parsed) return parsed.error();
    const json& doc = *parsed;
    if (!doc.is_object()) return Error{where + ": the response is not a JSON object: " + excerpt(body, 120)};
    const auto data = doc.find("data");
    if (data == doc.end() || !data->is_array()) return Error{where + ": the response has no \"data\" list"};
    for (std::size_t i = 0; i < data->size(); ++i) {
        const json& item = (*data)[i];
        const auto id = item.is_object() ? item.find(key) : item.end();
        if (!item.is_object() || id == item.end() || !id->is_string())
            return Error{where + ": data[" + std::to_string(i) + "]." + key + " is missing or not a string"};
        ids.push_back(id->get<std::string>());
    }
    items = data->size();
    cursor.reset();
    if (auto meta = doc.find("meta"); meta != doc.end() && meta->is_object()) {
        if (auto c = meta->find("cursor"); c != meta->end() && c->is_string() && !c->get<std::string>().empty())
            cursor = c->get<std::string>();
        if (auto t = meta->find("totalItems"); t != meta->end() && t->is_number()) total = t->get<double>();
    }
    return success();
}

}  // namespace

Result<std::vector<std::string>> langfuseTraceIds(const LangfuseSession& session, LangfuseTraceApi api,
                                                  const ScoreQuery& query, const Progress& progress, bool& missing) {
    missing = false;
    const bool observations = api == LangfuseTraceApi::ObservationsV2;
    const std::string path = observations ? "/api/public/v2/observations" : "/api/public/traces";
    const std::string shown = "GET " + HttpClient::displayUrl(session.base() + path);
    const FetchMeter meter(progress);
    std::vector<std::string> ids;
    std::unordered_set<std::string> seen;
    std::optional<std::string> cursor;
    std::optional<double> total;
    const std::string tags = joined(query.traceTags);
    LangfuseReadGuard guard(session, shown, query);
    std::size_t idBytes = 0;
    for (int page = 1;; ++page) {
        if (page > std::max(1, query.maxPages))
            return session.fail(shown + ": the server was still returning traces after " +
                                std::to_string(query.maxPages) + " pages; giving up (narrow the time range)");
        QueryParams params;
        if (observations) {
            // No tags parameter: an arrayOptions filter on the root observations (notes §3A).
            json filter = json::array(
                {{{"type", "arrayOptions"}, {"column", "tags"}, {"operator", "all of"}, {"value", query.traceTags}}});
            params = {{"isRootObservation", "true"}, {"fields", "core"}, {"limit", std::to_string(kObservationsLimit)}};
            if (query.from) params.emplace_back("fromStartTime", toIso8601(*query.from - kTraceLookbackS));
            if (query.to) params.emplace_back("toStartTime", toIso8601(*query.to));
            params.emplace_back("filter", filter.dump());
            if (cursor) params.emplace_back("cursor", *cursor);
        } else {
            params = {{"page", std::to_string(page)}, {"limit", std::to_string(kTracesLimit)}, {"fields", "core"}};
            for (const auto& t : query.traceTags) params.emplace_back("tags", t);  // all must match
            if (query.from) params.emplace_back("fromTimestamp", toIso8601(*query.from - kTraceLookbackS));
            if (query.to) params.emplace_back("toTimestamp", toIso8601(*query.to));
        }
        const double pages = total ? std::ceil(*total / kTracesLimit) : 0;
        const double before = pages > 0 ? std::min(1.0, (page - 1) / pages) : 1.0 - 1.0 / page;
        auto r = session.get(path, params, progress, before);
        if (!r) return r.error();
        if (r->status == 404 && page == 1) {
            missing = true;
            return ids;
        }
        const std::string where = shown + (page > 1 ? " (page " + std::to_string(page) + ")" : "");
        if (r->status != 200) return session.statusError(where, *r);
        std::vector<std::string> got;
        std::size_t items = 0;
        if (auto st = readTraceIds(r->body, where, observations ? "traceId" : "id", got, cursor, total, items); !st)
            return session.fail(st.error().message);
        // Observations page by cursor, traces by number: either answered twice ends the read.
        LangfuseScoresPage seenPage;
        seenPage.items = items;
        seenPage.cursor = cursor;
        for (const auto& id : got) seenPage.contentHash = hashCombine(seenPage.contentHash, id);
        if (auto st = guard.page(seenPage, page); !st) return st.error();
        for (auto& id : got) {
            idBytes += id.size();
            if (seen.insert(id).second) ids.push_back(std::move(id));
        }
        if (auto st = guard.gatheredIds(ids.size(), idBytes, page); !st) return st.error();
        if (page == 1 && (total || query.expectedScores)) {
            // Traces (pages of 100 or 1000), then their scores (100 traces a request).
            const double n = total ? *total : *query.expectedScores;
            session.warnIfLong(
                std::ceil(n / (observations ? kObservationsLimit : kTracesLimit)) - 1 + std::ceil(n / kTraceBatch),
                "reading the traces tagged " + tags + " and their scores");
        }
        const double fraction = total && *total > 0 ? std::min(1.0, static_cast<double>(page) * kTracesLimit / *total)
                                                    : 1.0 - 1.0 / (page + 1);
        meter(fraction, "Langfuse traces tagged " + tags + ": " + thousands(static_cast<double>(ids.size())) +
                            (total ? " of " + thousands(*total) : std::string()) + " (page " + std::to_string(page) +
                            ")");
        const bool more = observations ? cursor.has_value() && items > 0
                                       : items > 0 && (!total || static_cast<double>(page) * kTracesLimit < *total);
        if (!more) break;
    }
    return ids;
}

Result<std::vector<Score>> langfuseScoresV3(const LangfuseSession& session, const ScoreQuery& query,
                                            const std::vector<std::string>* traceIds, const Progress& progress,
                                            bool& missing) {
    missing = false;
    const std::string path = "/api/public/v3/scores";
    const std::string shown = "GET " + HttpClient::displayUrl(session.base() + path);
    const FetchMeter meter(progress);
    const int limit = std::clamp(query.pageSize, 1, kScoresLimit);
    const std::size_t batches = traceIds ? (traceIds->size() + kTraceBatch - 1) / kTraceBatch : 1;
    if (traceIds && batches > 1)
        session.warnIfLong(static_cast<double>(batches),
                           "reading the scores of " + thousands(static_cast<double>(traceIds->size())) + " traces");
    std::vector<Score> out;
    int pages = 0;
    LangfuseReadGuard guard(session, shown, query);
    for (std::size_t b = 0; b < batches; ++b) {
        // subject: the trace id; details: the comment (the judge's reasoning).
        QueryParams base = {{"limit", std::to_string(limit)}, {"fields", "core,subject,details"}};
        if (!query.name.empty()) base.emplace_back("name", query.name);
        // NUMERIC and BOOLEAN as the older lists gave them; the judge asks for every type, to refuse a wrong one.
        if (!query.allDataTypes) base.emplace_back("dataType", "NUMERIC,BOOLEAN");
        if (!query.environments.empty()) base.emplace_back("environment", joined(query.environments));
        if (query.from) base.emplace_back("fromTimestamp", toIso8601(*query.from));
        if (query.to) base.emplace_back("toTimestamp", toIso8601(*query.to));
        if (traceIds) {
            const auto first = traceIds->begin() + static_cast<long>(b * kTraceBatch);
            const auto last = traceIds->begin() + static_cast<long>(std::min(traceIds->size(), (b + 1) * kTraceBatch));
            base.emplace_back("traceId", joined(std::vector<std::string>(first, last)));
        }
        std::optional<std::string> cursor;
        guard.newList();  // each batch of trace ids is a list of its own, with cursors of its own
        for (int page = 1;; ++page) {
            if (progress.isCancelled()) return session.fail(shown + ": cancelled");
            if (++pages > std::max(1, query.maxPages))
                return session.fail(shown + ": the server was still returning scores after " +
                                    std::to_string(query.maxPages) + " pages of " + std::to_string(limit) +
                                    "; giving up (narrow the time range or the filters)");
            QueryParams params = base;
            if (cursor) params.emplace_back("cursor", *cursor);
            const double done = traceIds ? static_cast<double>(b) / static_cast<double>(batches) : 1.0 - 1.0 / page;
            const std::string where = shown + (pages > 1 ? " (request " + std::to_string(pages) + ")" : "");
            auto read = session.scoresPage(path, params, query, where, pages == 1, progress, done, out);
            if (!read) return read.error();
            if (!*read) {
                missing = true;
                return out;
            }
            const LangfuseScoresPage& parsed = **read;
            if (auto st = guard.page(parsed, pages); !st) return st.error();
            if (auto st = guard.gathered(out, pages); !st) return st.error();
            cursor = parsed.cursor;
            if (pages == 1 && !traceIds && query.expectedScores)
                session.warnIfLong(std::ceil(*query.expectedScores / limit) - 1, "reading the scores");
            const double got = static_cast<double>(out.size());
            const bool known = !traceIds && query.expectedScores && *query.expectedScores > 0;
            const double fraction = traceIds
                                        ? static_cast<double>(b + (cursor ? 0.5 : 1.0)) / static_cast<double>(batches)
                                    : known ? std::min(cursor ? 0.99 : 1.0, got / *query.expectedScores)
                                            : 1.0 - 1.0 / (page + 1);
            meter(fraction,
                  "Langfuse scores: " + thousands(got) +
                      (known ? " of about " + thousands(*query.expectedScores) : std::string()) +
                      (traceIds ? " from trace batch " + std::to_string(b + 1) + " of " + std::to_string(batches)
                                : " (page " + std::to_string(page) + ")"));
            // The last page has no cursor (also when exactly `limit` rows remained); an empty page ends it too.
            if (!cursor || parsed.items == 0) break;
        }
    }
    return out;
}

}  // namespace fp8dash::detail
