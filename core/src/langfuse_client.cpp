// Langfuse scores over the public API (shared/notes/data-formats.md §4; issue #3 "Data sources"). Offset pagination
// (page/limit) on /api/public/v2/scores, or on /api/public/scores for servers older than v3.53, which answer the v2
// path with 404. Filters are applied by the server; the client checks only what an older server may ignore.
#include "fp8dash/core/langfuse_client.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <ctime>
#include <limits>
#include <unordered_set>

#include "text_util.h"

namespace fp8dash {
namespace {

using json = nlohmann::json;

constexpr int kMaxPageSize = 100;  // Langfuse answers 400 above this

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

}  // namespace

Result<LangfuseScoresPage> parseLangfuseScoresPage(const std::string& body, const ScoreQuery& query,
                                                   const std::string& where) {
    LangfuseScoresPage page;
    const json doc = json::parse(body, nullptr, false);
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
    }

    for (std::size_t i = 0; i < data->size(); ++i) {
        const json& item = (*data)[i];
        const std::string field = "data[" + std::to_string(i) + "]";
        if (!item.is_object()) return Error{where + ": " + field + " is not an object"};
        const auto id = item.find("id");
        if (id == item.end() || !id->is_string()) return Error{where + ": " + field + ".id is missing or not a string"};
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
        if (numericType && (value == item.end() || !value->is_number()))
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
        if (auto trace = item.find("traceId"); trace != item.end() && trace->is_string())
            s.traceId = trace->get<std::string>();
        s.timestamp = *t;
        s.value =
            value != item.end() && value->is_number() ? value->get<double>() : std::numeric_limits<double>::quiet_NaN();
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
    const std::string basicToken = text::base64(m_settings.publicKey + ":" + m_settings.secretKey);
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

        auto parsed = parseLangfuseScoresPage(response->body, query, where);
        if (!parsed) return fail(parsed.error().message);
        for (Score& s : parsed->scores)
            if (seen.insert(s.id).second) out.push_back(std::move(s));
        const std::optional<long> totalPages = parsed->totalPages;

        const double fraction = totalPages && *totalPages > 0 ? std::min(1.0, static_cast<double>(page) / *totalPages)
                                                              : 1.0 - 1.0 / (page + 1);
        progress(fraction, "Langfuse scores: page " + std::to_string(page) +
                               (totalPages ? " of " + std::to_string(*totalPages) : std::string()));
        if (parsed->items == 0 || (totalPages && page >= *totalPages)) break;
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
