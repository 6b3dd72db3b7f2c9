// The Prometheus HTTP API client of the production timeline (response shapes in shared/notes/data-formats.md §3). Only
// the plain /api/v1 endpoints are used, so Thanos, Mimir, Cortex and VictoriaMetrics answer the same way.
#include "fp8dash/core/prometheus_client.h"

#include <algorithm>
#include <atomic>
#include <cctype>
#include <charconv>
#include <cmath>
#include <exception>
#include <limits>
#include <map>
#include <mutex>
#include <optional>
#include <string_view>
#include <utility>

#include <simdjson.h>
#include <nlohmann/json.hpp>

#include "fp8dash/core/lm_eval_results.h"  // parseJsonText
#include "production/prometheus_server_info.h"

namespace fp8dash {
namespace {

constexpr std::size_t kBodyExcerptChars = 200;

std::string atUrl(const std::string& displayUrl) {
    return "Prometheus at " + displayUrl;
}

// Unix milliseconds as the decimal seconds Prometheus parses ("1795852800", "1795852815.5"). Integer arithmetic keeps
// the text exact and free of the C locale (Qt sets LC_NUMERIC from the environment, which would turn '.' into ',').
std::string secondsText(long long ms) {
    const bool negative = ms < 0;
    const unsigned long long a =
        negative ? 0ull - static_cast<unsigned long long>(ms) : static_cast<unsigned long long>(ms);
    std::string text = (negative ? "-" : "") + std::to_string(a / 1000);
    if (const unsigned long long frac = a % 1000; frac != 0) {
        std::string digits = std::to_string(frac);
        digits.insert(0, 3 - digits.size(), '0');
        while (digits.back() == '0') digits.pop_back();
        text += '.' + digits;
    }
    return text;
}

std::string numberText(double v) {
    char buf[64];
    const auto r = std::to_chars(buf, buf + sizeof buf, v);  // shortest text that reads back as the same double
    return std::string(buf, r.ptr);
}

// Sample values arrive as strings: "1.5", "1e+06", "NaN", "+Inf", "-Inf". std::from_chars is locale-independent but
// takes no leading '+', hence the special cases.
std::optional<double> parseNumberText(std::string_view s) {
    if (s == "NaN" || s == "nan") return std::numeric_limits<double>::quiet_NaN();
    if (s == "+Inf" || s == "Inf" || s == "inf" || s == "+inf") return std::numeric_limits<double>::infinity();
    if (s == "-Inf" || s == "-inf") return -std::numeric_limits<double>::infinity();
    if (!s.empty() && s.front() == '+') s.remove_prefix(1);
    double v = 0;
    const auto r = std::from_chars(s.data(), s.data() + s.size(), v);
    if (r.ec != std::errc() || r.ptr != s.data() + s.size() || s.empty()) return std::nullopt;
    return v;
}

std::optional<double> jsonNumber(const Json& j) {
    if (j.is_number()) return j.get<double>();
    if (j.is_string()) return parseNumberText(j.get_ref<const std::string&>());
    return std::nullopt;
}

// The first ~200 characters of a body, on one line, for error messages.
std::string responseExcerpt(const std::string& body) {
    std::string out;
    for (std::size_t i = 0; i < body.size() && out.size() < kBodyExcerptChars; ++i) {
        const unsigned char c = static_cast<unsigned char>(body[i]);
        if (c == '\n' || c == '\r' || c == '\t')
            out += ' ';
        else if (c < 0x20 || c == 0x7f)
            out += '?';
        else
            out += static_cast<char>(c);
    }
    if (out.size() < body.size()) {
        // Cut at a character boundary: drop a UTF-8 sequence the limit split.
        std::size_t lead = out.size();
        while (lead > 0 && out.size() - lead < 4 && (static_cast<unsigned char>(out[lead - 1]) & 0xC0) == 0x80) --lead;
        if (lead > 0) {
            const unsigned char c = static_cast<unsigned char>(out[lead - 1]);
            const std::size_t need = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 1;
            if (out.size() - (lead - 1) < need) out.resize(lead - 1);
        }
        out += "...";
    }
    return "\"" + out + "\"";
}

std::string statusHint(long httpStatus) {
    switch (httpStatus) {
        case 401:
            return " (unauthorized: the server wants credentials or refused the ones given; check the user name and "
                   "password, or the token)";
        case 403:
            return " (forbidden: the credentials are not allowed to read this)";
        case 404:
            return " (not found: check the base URL; it is the address that serves /api/v1, e.g. http://host:9090; "
                   "Grafana Mimir and Cortex serve it under /prometheus, e.g. https://mimir.example/prometheus)";
        case 406:
            return " (not acceptable: the server could not write its answer in a format the request accepts; fp8dash "
                   "reads JSON, so a proxy may have changed the Accept header)";
        case 429:
            return " (too many requests: the server is rate-limiting)";
        case 499:
            return " (client closed request: the query was cancelled before it finished, usually because a proxy or "
                   "the client gave up waiting; raise the timeout, or ask for a shorter range or a coarser step)";
        case 502:
        case 503:
        case 504:
            return " (the server or a proxy in front of it is unavailable)";
        default:
            return "";
    }
}

struct Envelope {
    Json data;
    std::vector<std::string> warnings;
    std::vector<std::string> infos;
};

// Newer servers' error types that read better with a word of explanation (Prometheus 3: not_acceptable is HTTP 406,
// canceled HTTP 499).
std::string errorTypeHint(const std::string& errorType) {
    if (errorType == "not_acceptable")
        return " (the server could not encode its answer in a format the request accepts; fp8dash reads JSON, so a "
               "proxy may have changed the Accept header)";
    if (errorType == "canceled")
        return " (the server stopped the query because the request was cancelled or closed, usually a proxy's or the "
               "client's timeout; raise the timeout, or ask for a shorter range or a coarser step)";
    return "";
}

// {"status": "success"|"error", "data", "errorType", "error", "warnings"} -> data and warnings, or the error verbatim.
Result<Envelope> parseEnvelope(const std::string& body, long httpStatus, const std::string& url) {
    const std::string at = atUrl(url) + ": ";
    const std::string http = "HTTP " + std::to_string(httpStatus) + statusHint(httpStatus);
    if (body.find_first_not_of(" \t\r\n") == std::string::npos)
        return Error{at + http + ": empty response body (expected Prometheus API JSON)"};
    auto parsed = parseJsonText(body, "the response body");
    if (!parsed) {
        // An error status with a plain body (401 "Unauthorized", a proxy's HTML 502): the status says it all.
        if (httpStatus >= 400) return Error{at + http + "; it answered: " + responseExcerpt(body)};
        return Error{at + http + ": not Prometheus API JSON (" + parsed.error().message +
                     "); it begins: " + responseExcerpt(body)};
    }
    Json& parsedDoc = *parsed;
    const Json& doc = parsedDoc;
    if (!doc.is_object() || !doc.contains("status") || !doc["status"].is_string())
        return Error{at + http + ": JSON without a \"status\" field, not a Prometheus API response; it begins: " +
                     responseExcerpt(body)};
    const std::string& status = doc["status"].get_ref<const std::string&>();
    if (status == "error") {
        // Verbatim, as Prometheus wrote them: "bad_data: invalid parameter \"query\": 1:5: parse error: ...".
        std::string errorType =
            doc.contains("errorType") && doc["errorType"].is_string() ? doc["errorType"].get<std::string>() : "";
        std::string error = doc.contains("error") && doc["error"].is_string() ? doc["error"].get<std::string>() : "";
        if (error.empty()) error = "an error without a message (" + http + ")";
        return Error{at + (errorType.empty() ? "" : errorType + ": ") + error + errorTypeHint(errorType)};
    }
    if (status != "success")
        return Error{at + http + ": unknown status \"" + status +
                     "\" in the response; it begins: " + responseExcerpt(body)};
    Envelope e;
    if (auto w = doc.find("warnings"); w != doc.end() && w->is_array())
        for (const auto& item : *w) e.warnings.push_back(item.is_string() ? item.get<std::string>() : item.dump());
    if (auto w = doc.find("infos"); w != doc.end() && w->is_array())
        for (const auto& item : *w) e.infos.push_back(item.is_string() ? item.get<std::string>() : item.dump());
    const auto data = doc.find("data");
    if (data == doc.end()) return Error{at + http + ": a success response without \"data\""};
    e.data = std::move(*parsedDoc.find("data"));  // the document goes with this function: no copy of 11,000 samples
    return e;
}

// [t, "v"] -> Sample.
std::optional<Sample> parsePair(const Json& pair) {
    if (!pair.is_array() || pair.size() != 2) return std::nullopt;
    const auto t = jsonNumber(pair[0]);
    const auto v = jsonNumber(pair[1]);
    if (!t || !v) return std::nullopt;
    return Sample{*t, *v};
}

std::optional<Labels> parseLabels(const Json& metric) {
    Labels labels;
    if (metric.is_null()) return labels;
    if (!metric.is_object()) return std::nullopt;
    for (const auto& [k, v] : metric.items()) {
        if (!v.is_string()) return std::nullopt;
        labels[k] = v.get<std::string>();
    }
    return labels;
}

std::string countText(std::size_t n) {
    std::string digits = std::to_string(n), out;
    for (std::size_t i = 0; i < digits.size(); ++i) {
        if (i && (digits.size() - i) % 3 == 0) out += ',';
        out += digits[i];
    }
    return out;
}

// What one answer may hold, with the words of its error (issue 26: the URL, the query and the limit).
struct AnswerBudget {
    const PrometheusBudget& limits;
    const std::string& url;
    const std::string& query;
    Error series() const {
        return Error{atUrl(url) + ": the answer" + (query.empty() ? "" : " to \"" + query + "\"") +
                     " holds more than " + countText(limits.maxSeries) +
                     " series (or values), the limit of one answer; narrow the query or aggregate it (sum by ...)"};
    }
    Error points() const {
        return Error{atUrl(url) + ": the answer" + (query.empty() ? "" : " to \"" + query + "\"") +
                     " holds more than " + countText(limits.maxPoints) +
                     " points, the limit of one answer; raise the step, shorten the range or narrow the query"};
    }
};

// Counts, building nothing, the series (objects in data.result; strings in a "data" list: label values) and the
// points (pairs in a series' "values") of a body, and stops at the budget: memory stays that of the nesting depth.
// Only the budget stops it; a body it cannot read is left to the parsers, which say why.
class CountingSax : public nlohmann::json_sax<Json> {
public:
    explicit CountingSax(const PrometheusBudget& limits) : m_limits(limits) {}
    bool overSeries = false, overPoints = false;

    bool null() override { return true; }
    bool boolean(bool) override { return true; }
    bool number_integer(number_integer_t) override { return true; }
    bool number_unsigned(number_unsigned_t) override { return true; }
    bool number_float(number_float_t, const string_t&) override { return true; }
    bool binary(binary_t&) override { return true; }
    bool string(string_t&) override {
        // ["v1", "v2", ...] as data: label values
        if (m_stack.size() == 2 && m_stack[1].array && m_stack[1].key == Key::Data) return countSeries();
        return true;
    }
    bool key(string_t& k) override {
        m_key = k == "data" ? Key::Data : k == "result" ? Key::Result : k == "values" ? Key::Values : Key::Other;
        return true;
    }
    bool start_object(std::size_t) override {
        // root{ data{ result[ {series} ] } }
        if (m_stack.size() == 3 && m_stack[2].array && m_stack[2].key == Key::Result && m_stack[1].key == Key::Data &&
            !countSeries())
            return false;
        return push(false);
    }
    bool end_object() override { return pop(); }
    bool start_array(std::size_t) override {
        // {series}: "values": [ [t, "v"], ... ]
        if (m_stack.size() == 5 && m_stack[4].array && m_stack[4].key == Key::Values &&
            ++m_points > m_limits.maxPoints) {
            overPoints = true;
            return false;
        }
        return push(true);
    }
    bool end_array() override { return pop(); }
    bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) override { return false; }

private:
    enum class Key { None, Data, Result, Values, Other };
    struct Frame {
        bool array;
        Key key;  // the key this container stands under (None in an array or at the root)
    };
    bool push(bool array) {
        const bool inObject = !m_stack.empty() && !m_stack.back().array;
        m_stack.push_back({array, inObject ? m_key : Key::None});
        return true;
    }
    bool pop() {
        if (!m_stack.empty()) m_stack.pop_back();
        return true;
    }
    bool countSeries() {
        if (++m_series <= m_limits.maxSeries) return true;
        overSeries = true;
        return false;
    }
    const PrometheusBudget& m_limits;
    std::vector<Frame> m_stack;
    Key m_key = Key::None;
    std::size_t m_series = 0, m_points = 0;
};

// Bodies larger than this are counted (CountingSax) before any tree is built from them. The trees cost up to ~22
// times the body (6 million empty series: a 240 MB body, 5.3 GB), so a 512 MiB body could need 11 GB before its
// series could be counted; a counting pass costs no memory and stops at the limit, but reads at ~100-200 MB/s, so
// the answers that issue #7 made fast (a few MB at most: 11,000 points a series) skip it: their trees are small
// whatever they hold, and the parsers count as they build.
constexpr std::size_t kCountFirstBytes = std::size_t{4} << 20;

Status countWithinBudget(const std::string& body, const AnswerBudget& budget) {
    if (body.size() <= kCountFirstBytes) return success();
    CountingSax counter(budget.limits);
    Json::sax_parse(body, &counter);
    if (counter.overSeries) return budget.series();
    if (counter.overPoints) return budget.points();
    return success();
}

Result<QueryResult> parseData(const Envelope& envelope, const std::string& url, const AnswerBudget& budget) {
    const std::string at = atUrl(url) + ": ";
    const Json& data = envelope.data;
    QueryResult out;
    out.warnings = envelope.warnings;
    out.infos = envelope.infos;
    if (!data.is_object() || !data.contains("resultType") || !data["resultType"].is_string() ||
        !data.contains("result"))
        return Error{at +
                     "the response's \"data\" has no resultType/result; it begins: " + responseExcerpt(data.dump())};
    out.resultType = data["resultType"].get<std::string>();
    const Json& result = data["result"];
    const auto malformed = [&](const std::string& what) {
        return Error{at + "malformed " + out.resultType + " result: " + what};
    };
    if (out.resultType == "matrix" || out.resultType == "vector") {
        if (!result.is_array()) return malformed("\"result\" is not an array");
        const bool matrix = out.resultType == "matrix";
        if (result.size() > budget.limits.maxSeries) return budget.series();
        std::size_t points = 0;
        out.series.reserve(result.size());
        for (std::size_t i = 0; i < result.size(); ++i) {
            const Json& item = result[i];
            const std::string which = "series " + std::to_string(i + 1);
            if (!item.is_object()) return malformed(which + " is not an object");
            Series s;
            auto labels = parseLabels(item.contains("metric") ? item["metric"] : Json());
            if (!labels) return malformed(which + " has a \"metric\" that is not an object of strings");
            s.labels = std::move(*labels);
            if (matrix) {
                // Native-histogram series ("histograms", no "values") carry no float samples: they stay empty.
                if (auto values = item.find("values"); values != item.end()) {
                    if (!values->is_array()) return malformed(which + " has \"values\" that is not an array");
                    if ((points += values->size()) > budget.limits.maxPoints) return budget.points();
                    s.samples.reserve(values->size());
                    for (const auto& pair : *values) {
                        auto sample = parsePair(pair);
                        if (!sample)
                            return malformed(which + " has a sample that is not [time, \"value\"]: " + pair.dump());
                        s.samples.push_back(*sample);
                    }
                }
            } else if (auto value = item.find("value"); value != item.end()) {
                auto sample = parsePair(*value);
                if (!sample) return malformed(which + " has a value that is not [time, \"value\"]: " + value->dump());
                s.samples.push_back(*sample);
            }
            out.series.push_back(std::move(s));
        }
    } else if (out.resultType == "scalar") {
        auto sample = parsePair(result);
        if (!sample) return malformed("not [time, \"value\"]: " + result.dump());
        out.series.push_back(Series{{}, {*sample}});
    } else if (out.resultType == "string") {
        if (!result.is_array() || result.size() != 2 || !result[1].is_string())
            return malformed("not [time, \"text\"]: " + result.dump());
        out.text = result[1].get<std::string>();
    } else {
        return Error{at + "unknown resultType \"" + out.resultType + "\""};
    }
    return out;
}

// HttpClient names failures "GET <url>: why"; Prometheus messages read "Prometheus at <url>: why".
Error transportError(const Error& e, const std::string& url) {
    const std::string prefix = "GET " + url + ": ";
    if (e.message.rfind(prefix, 0) == 0) return Error{atUrl(url) + ": " + e.message.substr(prefix.size())};
    return Error{atUrl(url) + ": " + e.message};
}

std::string normalizedBase(std::string base) {
    while (!base.empty() && base.back() == '/') base.pop_back();
    // Users paste the API root as often as the server root.
    if (base.size() >= 7 && base.compare(base.size() - 7, 7, "/api/v1") == 0) base.resize(base.size() - 7);
    return base;
}

bool startsWithFp8(const std::string& dtype) {
    return dtype.size() >= 3 && std::tolower(static_cast<unsigned char>(dtype[0])) == 'f' &&
           std::tolower(static_cast<unsigned char>(dtype[1])) == 'p' && dtype[2] == '8';
}

// The common answer to a range query, a successful matrix, read straight from simdjson's tree into samples (issue
// #7: building the JSON tree of 11,000 [t, "v"] pairs cost more than Prometheus took to compute them). Reads exactly
// what parseEnvelope + parseData read from such a body; anything else (an error, another result type, a shape they
// would refuse, a repeated key (which parseJsonText refuses, naming it), what parseJsonText reads differently from
// simdjson) gives nullopt, and they decide.
std::optional<Result<QueryResult>> parseSuccessfulMatrix(const std::string& body, const AnswerBudget& budget) {
    using simdjson::dom::element;
    using simdjson::dom::element_type;
    // parseJsonText refuses nesting deeper than 256 levels: simdjson may not go deeper either. A thread keeps its
    // parser for bodies of chunk size; a larger one gets its own, freed after.
    constexpr std::size_t kMaxDepth = 256;
    constexpr std::size_t kKeptParserBytes = std::size_t{4} << 20;
    thread_local simdjson::dom::parser keptParser;
    simdjson::dom::parser ownParser;
    simdjson::dom::parser& parser = body.size() <= kKeptParserBytes ? keptParser : ownParser;
    if (parser.max_depth() != kMaxDepth &&
        parser.allocate(std::max<std::size_t>(body.size(), 4096), kMaxDepth) != simdjson::SUCCESS)
        return std::nullopt;
    element root;
    if (parser.parse(body.data(), body.size(), true).get(root) != simdjson::SUCCESS) return std::nullopt;
    simdjson::dom::object doc;
    if (root.get_object().get(doc) != simdjson::SUCCESS) return std::nullopt;
    // No key twice in the object (the envelope, its data, a series: a few keys each), as parseJsonText refuses one.
    const auto unique = [](simdjson::dom::object object) {
        std::vector<std::string_view> seen;
        for (const auto field : object) {
            if (std::find(seen.begin(), seen.end(), field.key) != seen.end()) return false;
            seen.push_back(field.key);
        }
        return true;
    };
    if (!unique(doc)) return std::nullopt;
    std::string_view status;
    if (doc["status"].get_string().get(status) != simdjson::SUCCESS || status != "success") return std::nullopt;
    QueryResult out;
    if (simdjson::dom::array warnings; doc["warnings"].get_array().get(warnings) == simdjson::SUCCESS) {
        for (const element w : warnings) {
            std::string_view text;
            if (w.get_string().get(text) != simdjson::SUCCESS) return std::nullopt;  // dumped by the general path
            out.warnings.emplace_back(text);
        }
    }
    if (simdjson::dom::array infos; doc["infos"].get_array().get(infos) == simdjson::SUCCESS) {
        for (const element w : infos) {
            std::string_view text;
            if (w.get_string().get(text) != simdjson::SUCCESS) return std::nullopt;
            out.infos.emplace_back(text);
        }
    }
    simdjson::dom::object data;
    if (doc["data"].get_object().get(data) != simdjson::SUCCESS || !unique(data)) return std::nullopt;
    std::string_view resultType;
    simdjson::dom::array result;
    if (data["resultType"].get_string().get(resultType) != simdjson::SUCCESS || resultType != "matrix" ||
        data["result"].get_array().get(result) != simdjson::SUCCESS)
        return std::nullopt;
    out.resultType = "matrix";
    if (result.size() > budget.limits.maxSeries) return Result<QueryResult>(budget.series());
    std::size_t points = 0;
    out.series.reserve(result.size());
    const auto number = [](element e) -> std::optional<double> {
        switch (e.type()) {
            case element_type::INT64:
                return static_cast<double>(e.get_int64().value_unsafe());
            case element_type::UINT64:
                return static_cast<double>(e.get_uint64().value_unsafe());
            case element_type::DOUBLE:
                return e.get_double().value_unsafe();
            case element_type::STRING:
                return parseNumberText(e.get_string().value_unsafe());
            default:
                return std::nullopt;
        }
    };
    for (const element item : result) {
        simdjson::dom::object series;
        if (item.get_object().get(series) != simdjson::SUCCESS || !unique(series)) return std::nullopt;
        Series s;
        if (element metric; series["metric"].get(metric) == simdjson::SUCCESS && !metric.is_null()) {
            simdjson::dom::object labels;
            if (metric.get_object().get(labels) != simdjson::SUCCESS) return std::nullopt;
            for (const auto label : labels) {
                std::string_view value;
                if (label.value.get_string().get(value) != simdjson::SUCCESS) return std::nullopt;
                if (!s.labels.emplace(std::string(label.key), std::string(value)).second)
                    return std::nullopt;  // a repeated label: parseJsonText refuses it, naming it
            }
        }
        if (element values; series["values"].get(values) == simdjson::SUCCESS) {
            simdjson::dom::array pairs;
            if (values.get_array().get(pairs) != simdjson::SUCCESS) return std::nullopt;
            if ((points += pairs.size()) > budget.limits.maxPoints) return Result<QueryResult>(budget.points());
            s.samples.reserve(pairs.size());
            for (const element pair : pairs) {
                simdjson::dom::array tv;
                if (pair.get_array().get(tv) != simdjson::SUCCESS || tv.size() != 2) return std::nullopt;
                const auto t = number(tv.at(0).value_unsafe());
                const auto v = number(tv.at(1).value_unsafe());
                if (!t || !v) return std::nullopt;
                s.samples.push_back({*t, *v});
            }
        }
        out.series.push_back(std::move(s));
    }
    return Result<QueryResult>(std::move(out));
}

// A range answer made what Prometheus documents (issue 26): samples in [start, end] on its grid, ascending, one per
// time. A server that sends others is answered with a repaired series and a notice per kind of repair: samples outside
// the range are dropped; unordered ones are sorted (stably: samples at one time stay in the order sent); of samples
// at one time, the first sent is kept (the parts arrive in time order, so that is the earlier part's).
struct SampleRepairs {
    struct Kind {
        std::size_t samples = 0, series = 0;
        std::string example;  // the first series repaired so
        void count(std::size_t n, const Labels& labels) {
            if (n == 0) return;
            if (series++ == 0) example = labelsToString(labels);
            samples += n;
        }
    };
    Kind outside, unordered, repeated;

    void apply(const Labels& labels, std::vector<Sample>& samples, long long startMs, long long endMs) {
        const auto before = samples.size();
        std::erase_if(samples, [&](const Sample& x) {
            // NaN and infinite times are outside any range; ms as Prometheus has them (rounding a double is exact).
            if (!std::isfinite(x.t) || std::fabs(x.t) > 1e15) return true;
            const long long ms = std::llround(x.t * 1000);
            return ms < startMs || ms > endMs;
        });
        outside.count(before - samples.size(), labels);
        const auto byTime = [](const Sample& a, const Sample& b) { return a.t < b.t; };
        if (!std::is_sorted(samples.begin(), samples.end(), byTime)) {
            std::size_t descents = 0;
            for (std::size_t i = 1; i < samples.size(); ++i) descents += samples[i].t < samples[i - 1].t;
            unordered.count(descents, labels);
            std::stable_sort(samples.begin(), samples.end(), byTime);
        }
        const auto sorted = samples.size();
        samples.erase(
            std::unique(samples.begin(), samples.end(), [](const Sample& a, const Sample& b) { return a.t == b.t; }),
            samples.end());
        repeated.count(sorted - samples.size(), labels);
    }

    void notices(std::vector<std::string>& out, const std::string& url, const std::string& start,
                 const std::string& end) const {
        const auto where = [&](const Kind& k) {
            return atUrl(url) + ": " + countText(k.samples) + " sample" + (k.samples == 1 ? "" : "s") + " of " +
                   countText(k.series) + " series (e.g. " + k.example + ")";
        };
        if (outside.samples)
            out.push_back(where(outside) + " lay outside the requested range " + start + " to " + end +
                          " and were dropped");
        if (unordered.samples) out.push_back(where(unordered) + " came out of time order and were sorted");
        if (repeated.samples)
            out.push_back(where(repeated) +
                          " repeated a time already sent; the first sample sent at each time was kept");
    }
};

}  // namespace

PrometheusClient::PrometheusClient(PrometheusSettings settings)
    : m_settings(std::move(settings)), m_http(m_settings.http) {
    m_settings.baseUrl = normalizedBase(m_settings.baseUrl);
}

Result<QueryResult> parsePrometheusResponse(const std::string& body, long httpStatus, const std::string& where,
                                            const PrometheusBudget& limits, const std::string& query) {
    const AnswerBudget budget{limits, where, query};
    if (auto st = countWithinBudget(body, budget); !st) return st.error();
    if (auto matrix = parseSuccessfulMatrix(body, budget)) return std::move(*matrix);
    try {
        auto envelope = parseEnvelope(body, httpStatus, where);
        if (!envelope) return envelope.error();
        return parseData(*envelope, where, budget);
    } catch (const std::exception& e) {  // nlohmann type errors on shapes the checks above did not foresee
        return Error{atUrl(where) + ": malformed response (" + e.what() + ")"};
    }
}

Result<QueryResult> PrometheusClient::fetch(const std::string& path, const QueryParams& params,
                                            const Progress& progress) const {
    const std::string url = m_settings.baseUrl + path;
    const std::string shown = HttpClient::displayUrl(url);
    auto response = m_http.get(url, params, progress);
    if (!response) return transportError(response.error(), shown);
    std::string query;
    for (const auto& [key, value] : params)
        if (key == "query") query = value;
    return parsePrometheusResponse(response->body, response->status, shown, m_settings.budget, query);
}

Result<std::string> PrometheusClient::buildInfo(const Progress& progress) const {
    const std::string url = m_settings.baseUrl + "/api/v1/status/buildinfo";
    const std::string shown = HttpClient::displayUrl(url);
    auto response = m_http.get(url, {}, progress);
    if (!response) return transportError(response.error(), shown);
    const auto server = classifyBuildInfo(response->status, response->body);
    if (server) detail::rememberServerInfo(m_settings.baseUrl, *server);
    // A backend that is not Prometheus itself goes by its own name (VictoriaMetrics reports a placeholder version).
    if (server && server->backend != PrometheusBackend::Prometheus && server->backend != PrometheusBackend::Unknown)
        return server->description;
    // VictoriaMetrics and some gateways answer queries but have no build info: say so rather than "not JSON".
    const auto noBuildInfo = [&](const std::string& why) {
        return Error{why +
                     ". The server may be Prometheus-compatible without /api/v1/status/buildinfo (e.g. "
                     "VictoriaMetrics or a gateway); queries may still work"};
    };
    try {
        auto envelope = parseEnvelope(response->body, response->status, shown);
        if (!envelope) {
            // Only "no such path" answers (or a 2xx that is not build info) suggest a server without the endpoint;
            // 401, 5xx and the like are what they say.
            const long st = response->status;
            const bool noSuchPath = st == 400 || st == 404 || st == 405 || (st >= 200 && st < 300);
            return noSuchPath ? noBuildInfo(envelope.error().message) : envelope.error();
        }
        const Json& d = envelope->data;
        const auto text = [&](const char* key) {
            return d.is_object() && d.contains(key) && d[key].is_string() ? d[key].get<std::string>() : std::string();
        };
        const std::string version = text("version");
        if (version.empty()) return noBuildInfo(atUrl(shown) + ": no \"version\" in the build information");
        std::string details = text("revision");
        if (!details.empty()) details = "revision " + details;
        if (const std::string go = text("goVersion"); !go.empty()) details += (details.empty() ? "" : ", ") + go;
        return "Prometheus " + version + (details.empty() ? "" : " (" + details + ")");
    } catch (const std::exception& e) {
        return Error{atUrl(shown) + ": malformed build information (" + e.what() + ")"};
    }
}

Result<std::vector<std::string>> PrometheusClient::labelValues(const std::string& label,
                                                               const std::vector<std::string>& match, double start,
                                                               double end, const Progress& progress) const {
    const std::string url = m_settings.baseUrl + "/api/v1/label/" + label + "/values";
    const std::string shown = HttpClient::displayUrl(url);
    // Label names are [a-zA-Z_][a-zA-Z0-9_]*: nothing in the path needs escaping.
    const bool validName = !label.empty() && !std::isdigit(static_cast<unsigned char>(label[0])) &&
                           std::all_of(label.begin(), label.end(),
                                       [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
    if (!validName) return Error{atUrl(shown) + ": \"" + label + "\" is not a label name"};
    QueryParams params;
    for (const auto& m : match) params.emplace_back("match[]", m);
    if (std::isfinite(start) && std::isfinite(end)) {
        params.emplace_back("start", secondsText(std::llround(start * 1000)));
        params.emplace_back("end", secondsText(std::llround(end * 1000)));
    }
    auto response = m_http.get(url, params, progress);
    if (!response) return transportError(response.error(), shown);
    try {
        const std::string what = "label " + label + " values";
        if (auto st = countWithinBudget(response->body, AnswerBudget{m_settings.budget, shown, what}); !st)
            return st.error();
        auto envelope = parseEnvelope(response->body, response->status, shown);
        if (!envelope) return envelope.error();
        if (envelope->data.is_array() && envelope->data.size() > m_settings.budget.maxSeries)
            return AnswerBudget{m_settings.budget, shown, what}.series();
        if (!envelope->data.is_array())
            return Error{atUrl(shown) +
                         ": the label values are not a list; it begins: " + responseExcerpt(envelope->data.dump())};
        std::vector<std::string> values;
        for (const auto& v : envelope->data)
            if (v.is_string()) values.push_back(v.get<std::string>());
        return values;
    } catch (const std::exception& e) {
        return Error{atUrl(shown) + ": malformed label values (" + e.what() + ")"};
    }
}

Result<QueryResult> PrometheusClient::query(const std::string& promql, double time, const Progress& progress) const {
    if (!std::isfinite(time))
        return Error{atUrl(HttpClient::displayUrl(m_settings.baseUrl)) + ": the query time is not a number"};
    progress(0, "Querying Prometheus");
    auto r = fetch("/api/v1/query", {{"query", promql}, {"time", secondsText(std::llround(time * 1000))}}, progress);
    if (r) progress(1, "Query done");
    return r;
}

Result<QueryResult> PrometheusClient::queryRange(const std::string& promql, double start, double end, double step,
                                                 const Progress& progress, int parallel) const {
    const std::string shown = HttpClient::displayUrl(m_settings.baseUrl + "/api/v1/query_range");
    if (!std::isfinite(start) || !std::isfinite(end) || !std::isfinite(step))
        return Error{atUrl(shown) + ": the start, end and step must be numbers"};
    // Prometheus works in whole milliseconds: times are rounded, the step's interval truncated to ms (step < 1 ms
    // would evaluate nothing useful).
    const long long startMs = std::llround(start * 1000);
    const long long endMs = std::llround(end * 1000);
    const long long stepMs = std::llround(step * 1000);
    if (stepMs < 1) return Error{atUrl(shown) + ": the step must be at least 1 ms (got " + numberText(step) + " s)"};
    if (endMs < startMs)
        return Error{atUrl(shown) + ": the end (" + secondsText(endMs) + ") is before the start (" +
                     secondsText(startMs) + ")"};

    const long long points = (endMs - startMs) / stepMs + 1;
    if (points > kMaxTotalPoints)
        return Error{atUrl(shown) + ": the range would return " + std::to_string(points) +
                     " points per series (more than " + std::to_string(kMaxTotalPoints) + "); raise the step"};
    const long long perChunk = std::max(1L, m_settings.maxPointsPerQuery);
    const std::size_t chunks = static_cast<std::size_t>((points + perChunk - 1) / perChunk);

    std::vector<std::optional<Result<QueryResult>>> results(chunks);
    std::mutex mutex;  // guards done, firstError, the totals and the progress report
    std::size_t done = 0;
    // The budget holds for the whole answer: each part is counted as it arrives (a part's own series and points were
    // counted while it was read), and the first part over the total stops the others.
    std::size_t seriesReceived = 0, pointsReceived = 0;
    const AnswerBudget budget{m_settings.budget, shown, promql};
    std::optional<Error> firstError;
    std::atomic<bool> failed{false};
    Progress chunkProgress;
    chunkProgress.cancelled = [&] { return failed.load() || progress.isCancelled(); };  // one failure stops the rest

    progress(0, chunks > 1 ? "Querying Prometheus in " + std::to_string(chunks) + " parts" : "Querying Prometheus");
    runParallel(chunks, static_cast<std::size_t>(std::max(1, parallel)), [&](std::size_t k) {
        if (chunkProgress.isCancelled()) return;
        // The same grid as one query: chunk k's first point is start + k * perChunk * step.
        const long long from = startMs + static_cast<long long>(k) * perChunk * stepMs;
        const long long to = std::min(endMs, from + (perChunk - 1) * stepMs);
        Result<QueryResult> r = Error{""};
        try {
            QueryParams params = {{"query", promql},
                                  {"start", secondsText(from)},
                                  {"end", secondsText(to)},
                                  {"step", secondsText(stepMs)}};
            if (m_settings.backend == PrometheusBackend::VictoriaMetrics) params.emplace_back("nocache", "1");
            if (m_settings.backend == PrometheusBackend::Thanos) {
                params.emplace_back("dedup", "true");
                params.emplace_back("partial_response", "false");
            }
            r = fetch("/api/v1/query_range", params, chunkProgress);
        } catch (const std::exception& e) {  // nothing may escape a worker thread
            r = Error{atUrl(shown) + ": " + e.what()};
        }
        std::lock_guard lock(mutex);
        if (r) {
            seriesReceived += r->series.size();
            for (const auto& series : r->series) pointsReceived += series.samples.size();
            if (seriesReceived > budget.limits.maxSeries)
                r = budget.series();
            else if (pointsReceived > budget.limits.maxPoints)
                r = budget.points();
        }
        if (!r) {
            if (!firstError) {
                firstError = r.error();
                if (chunks > 1)
                    firstError->message += " (part " + std::to_string(k + 1) + " of " + std::to_string(chunks) + ", " +
                                           secondsText(from) + " to " + secondsText(to) + ")";
            }
            failed = true;
            return;
        }
        results[k] = std::move(r);
        ++done;
        progress(static_cast<double>(done) / static_cast<double>(chunks),
                 "Fetched " + std::to_string(done) + " of " + std::to_string(chunks) + " parts");
    });
    // A cancel aborts transfers, which then fail: report the cancel, not the aborted part.
    if (progress.isCancelled()) return Error{atUrl(shown) + ": cancelled"};
    if (firstError) return *firstError;
    if (!std::all_of(results.begin(), results.end(), [](const auto& r) { return r.has_value(); }))
        return Error{atUrl(shown) + ": cancelled"};

    // Join: the same label set is the same series in every chunk; Prometheus returns each chunk sorted by time.
    QueryResult out;
    std::map<Labels, std::vector<Sample>> joined;
    for (auto& r : results) {
        QueryResult& part = r->value();
        if (out.resultType.empty()) out.resultType = part.resultType;
        for (auto& w : part.warnings)
            if (std::find(out.warnings.begin(), out.warnings.end(), w) == out.warnings.end()) out.warnings.push_back(w);
        for (auto& w : part.infos)
            if (std::find(out.infos.begin(), out.infos.end(), w) == out.infos.end()) out.infos.push_back(w);
        for (auto& s : part.series) {
            auto& samples = joined[s.labels];
            samples.insert(samples.end(), s.samples.begin(), s.samples.end());
        }
    }
    out.series.reserve(joined.size());
    SampleRepairs repairs;
    for (auto& [labels, samples] : joined) {
        repairs.apply(labels, samples, startMs, endMs);
        out.series.push_back(Series{labels, std::move(samples)});
    }
    repairs.notices(out.notices, shown, secondsText(startMs), secondsText(endMs));
    if (out.resultType.empty()) out.resultType = "matrix";
    return out;
}

std::optional<DetectedChange> detectCacheDtypeChange(const std::vector<Series>& cacheConfigInfo) {
    // The earliest sample of any non-FP8 series: an FP8 sample after it marks the switch (a deployment that ran FP8
    // from the start has no change to show).
    std::optional<double> firstNonFp8;
    for (const auto& s : cacheConfigInfo) {
        const auto dtype = s.labels.find("cache_dtype");
        if (dtype == s.labels.end() || startsWithFp8(dtype->second) || s.samples.empty()) continue;
        const double t = s.samples.front().t;
        if (!firstNonFp8 || t < *firstNonFp8) firstNonFp8 = t;
    }
    if (!firstNonFp8) return std::nullopt;

    std::optional<DetectedChange> change;
    for (const auto& s : cacheConfigInfo) {
        const auto dtype = s.labels.find("cache_dtype");
        if (dtype == s.labels.end() || !startsWithFp8(dtype->second)) continue;
        for (const auto& sample : s.samples) {
            if (sample.t <= *firstNonFp8) continue;
            if (!change || sample.t < change->at) change = DetectedChange{sample.t, {}, dtype->second};
            break;  // samples ascend: the first one after is this series' answer
        }
    }
    if (!change) return std::nullopt;
    // "from": the non-FP8 dtype seen last before the switch.
    double latest = -std::numeric_limits<double>::infinity();
    for (const auto& s : cacheConfigInfo) {
        const auto dtype = s.labels.find("cache_dtype");
        if (dtype == s.labels.end() || startsWithFp8(dtype->second)) continue;
        for (const auto& sample : s.samples)
            if (sample.t < change->at && sample.t > latest) {
                latest = sample.t;
                change->from = dtype->second;
            }
    }
    return change;
}

}  // namespace fp8dash
