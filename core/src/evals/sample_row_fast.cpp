// The On-Demand fast path of the sample-log reader (sample_row_fast.h). The rules it mirrors are those of
// RowReader::add in sample_logs.cpp; every case where they could differ steps aside to it.
#include "evals/sample_row_fast.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <string_view>
#include <utility>
#include <vector>

namespace fp8dash::detail {
namespace {

namespace od = simdjson::ondemand;
using namespace std::string_view_literals;

// parseJsonText refuses nesting deeper than 256 levels; well below that the general reader decides.
constexpr int kMaxDepth = 200;

// A JSON number as the general reader's double: integers converted as nlohmann converts its integers, floats
// correctly rounded as by strtod. False for what they could read differently: integers beyond 64 bits (nlohmann
// reads them as floats) and a negative zero (nlohmann reads "-0" as the integer 0).
bool numberOf(od::value& v, double& out) {
    od::number n;
    if (v.get_number().get(n) != simdjson::SUCCESS) return false;
    switch (n.get_number_type()) {
        case od::number_type::signed_integer:
            out = static_cast<double>(n.get_int64());
            return true;
        case od::number_type::unsigned_integer:
            out = static_cast<double>(n.get_uint64());
            return true;
        case od::number_type::floating_point_number:
            out = n.get_double();
            return !(out == 0 && std::signbit(out));
    }
    return false;
}

// Python's NaN and infinities, which the general reader meets as these strings.
bool specialNumber(std::string_view s, double& out) {
    if (s == "NaN"sv)
        out = std::numeric_limits<double>::quiet_NaN();
    else if (s == "Infinity"sv)
        out = std::numeric_limits<double>::infinity();
    else if (s == "-Infinity"sv)
        out = -std::numeric_limits<double>::infinity();
    else
        return false;
    return true;
}

// Walks a value the test does not use, so that the iterator checks its syntax; builds nothing.
bool walk(od::value v, int depth) {
    od::json_type type;
    if (v.type().get(type) != simdjson::SUCCESS) return false;
    switch (type) {
        case od::json_type::array: {
            if (depth >= kMaxDepth) return false;
            od::array array;
            if (v.get_array().get(array) != simdjson::SUCCESS) return false;
            for (auto item : array) {
                od::value x;
                if (item.get(x) != simdjson::SUCCESS || !walk(x, depth + 1)) return false;
            }
            return true;
        }
        case od::json_type::object: {
            if (depth >= kMaxDepth) return false;
            od::object object;
            if (v.get_object().get(object) != simdjson::SUCCESS) return false;
            // The keys of the objects open in this walk, innermost last (one buffer for the thread: no allocation per
            // object): a key repeated in one object goes to the general reader, which refuses it, naming it.
            thread_local std::vector<std::string_view> openKeys;
            if (depth == 2) openKeys.clear();  // a walk starts at depth 2 (a row's field); nothing of an earlier one
            const std::size_t first = openKeys.size();
            bool fine = true;
            for (auto field : object) {
                od::field f;
                std::string_view key;
                if (std::move(field).get(f) != simdjson::SUCCESS || f.unescaped_key().get(key) != simdjson::SUCCESS ||
                    std::find(openKeys.begin() + static_cast<std::ptrdiff_t>(first), openKeys.end(), key) !=
                        openKeys.end()) {
                    fine = false;
                    break;
                }
                openKeys.push_back(key);
                if (!walk(f.value(), depth + 1)) {
                    fine = false;
                    break;
                }
            }
            openKeys.resize(first);
            return fine;
        }
        case od::json_type::number: {
            double x = 0;
            return numberOf(v, x);
        }
        case od::json_type::string: {
            std::string_view s;
            return v.get_string().get(s) == simdjson::SUCCESS;
        }
        case od::json_type::boolean: {
            bool b = false;
            return v.get_bool().get(b) == simdjson::SUCCESS;
        }
        case od::json_type::null: {
            bool isNull = false;
            return v.is_null().get(isNull) == simdjson::SUCCESS && isNull;
        }
    }
    return false;
}

// doc_id as the general reader takes it: an integer, or a float holding one (below 9e15).
bool docIdOf(od::value v, long long& out) {
    od::number n;
    if (v.get_number().get(n) != simdjson::SUCCESS) return false;
    switch (n.get_number_type()) {
        case od::number_type::signed_integer:
            out = n.get_int64();
            return true;
        case od::number_type::unsigned_integer:
            if (n.get_uint64() > static_cast<std::uint64_t>(std::numeric_limits<long long>::max())) return false;
            out = static_cast<long long>(n.get_uint64());
            return true;
        case od::number_type::floating_point_number: {
            const double d = n.get_double();
            if (!std::isfinite(d) || d != std::floor(d) || std::fabs(d) >= 9e15 || (d == 0 && std::signbit(d)))
                return false;
            out = static_cast<long long>(d);
            return true;
        }
    }
    return false;
}

// A hash: a string, or null (no hash). Anything else is the general reader's error.
bool hashOf(od::value v, std::string& out) {
    od::json_type type;
    if (v.type().get(type) != simdjson::SUCCESS) return false;
    if (type == od::json_type::null) {
        bool isNull = false;
        return v.is_null().get(isNull) == simdjson::SUCCESS && isNull;
    }
    std::string_view s;
    if (type != od::json_type::string || v.get_string().get(s) != simdjson::SUCCESS) return false;
    out.assign(s);
    return true;
}

// "scores_per_repeat": null, or an object of lists of numbers (booleans and Python's NaN/Infinity strings too).
bool repeatsOf(od::value v, SampleRow& row) {
    od::json_type type;
    if (v.type().get(type) != simdjson::SUCCESS) return false;
    if (type == od::json_type::null) {
        bool isNull = false;
        return v.is_null().get(isNull) == simdjson::SUCCESS && isNull;
    }
    od::object object;
    if (type != od::json_type::object || v.get_object().get(object) != simdjson::SUCCESS) return false;
    for (auto field : object) {
        od::field f;
        std::string_view key;
        if (std::move(field).get(f) != simdjson::SUCCESS || f.unescaped_key().get(key) != simdjson::SUCCESS)
            return false;
        for (const auto& [seen, scores] : row.repeats)
            if (seen == key) return false;  // a repeated key: the general reader refuses it, naming it
        od::array list;
        if (f.value().get_array().get(list) != simdjson::SUCCESS) return false;
        std::vector<double> scores;
        for (auto item : list) {
            od::value x;
            od::json_type t;
            if (item.get(x) != simdjson::SUCCESS || x.type().get(t) != simdjson::SUCCESS) return false;
            double score = 0;
            if (t == od::json_type::number) {
                if (!numberOf(x, score)) return false;
            } else if (t == od::json_type::boolean) {
                bool b = false;
                if (x.get_bool().get(b) != simdjson::SUCCESS) return false;
                score = b ? 1.0 : 0.0;
            } else if (t == od::json_type::string) {
                std::string_view s;
                if (x.get_string().get(s) != simdjson::SUCCESS || !specialNumber(s, score)) return false;
            } else {
                return false;
            }
            scores.push_back(score);
        }
        row.repeats.emplace_back(std::string(key), std::move(scores));
    }
    return true;
}

}  // namespace

bool FastRowParser::parse(const char* data, std::size_t size, std::size_t capacity, FastRow& out) {
    od::document doc;
    if (m_parser.iterate(simdjson::padded_string_view(data, size, capacity)).get(doc) != simdjson::SUCCESS)
        return false;
    od::object object;
    if (doc.get_object().get(object) != simdjson::SUCCESS) return false;

    out = FastRow{};
    SampleRow& row = out.row;
    m_keys.clear();
    m_listed.clear();
    m_textValues.clear();
    bool haveDocId = false;
    for (auto field : object) {
        od::field f;
        std::string_view key;
        if (std::move(field).get(f) != simdjson::SUCCESS || f.unescaped_key().get(key) != simdjson::SUCCESS)
            return false;
        if (std::find(m_keys.begin(), m_keys.end(), key) != m_keys.end())
            return false;  // the general reader refuses it
        m_keys.push_back(key);
        od::value v = f.value();
        if (key == "doc_id"sv) {
            if (!docIdOf(v, row.docId)) return false;
            haveDocId = true;
        } else if (key == "doc_hash"sv || key == "prompt_hash"sv || key == "target_hash"sv) {
            std::string& target = key == "doc_hash"sv      ? row.docHash
                                  : key == "prompt_hash"sv ? row.promptHash
                                                           : row.targetHash;
            if (!hashOf(v, target)) return false;
        } else if (key == "filter"sv) {
            std::string_view s;
            if (v.get_string().get(s) != simdjson::SUCCESS) return false;
            out.labelled = true;
            out.filter.assign(s);
        } else if (key == "scores_per_repeat"sv) {
            if (!repeatsOf(v, row)) return false;
        } else if (key == "metrics"sv) {
            od::json_type type;
            if (v.type().get(type) != simdjson::SUCCESS) return false;
            if (type != od::json_type::array) {
                if (!walk(v, 2)) return false;
                continue;
            }
            od::array list;
            if (v.get_array().get(list) != simdjson::SUCCESS) return false;
            for (auto item : list) {
                od::value x;
                od::json_type t;
                if (item.get(x) != simdjson::SUCCESS || x.type().get(t) != simdjson::SUCCESS) return false;
                if (t == od::json_type::string) {
                    std::string_view s;
                    if (x.get_string().get(s) != simdjson::SUCCESS) return false;
                    m_listed.emplace_back(s);
                } else if (!walk(x, 3)) {
                    return false;
                }
            }
        } else if (key == "doc"sv || key == "target"sv || key == "arguments"sv || key == "resps"sv ||
                   key == "filtered_resps"sv) {
            if (!walk(v, 2)) return false;
        } else {
            // A metric: numbers and booleans count; Python's NaN/Infinity strings count when "metrics" lists the key.
            od::json_type type;
            if (v.type().get(type) != simdjson::SUCCESS) return false;
            double x = 0;
            if (type == od::json_type::number) {
                if (!numberOf(v, x)) return false;
                row.values.emplace_back(std::string(key), x);
            } else if (type == od::json_type::boolean) {
                bool b = false;
                if (v.get_bool().get(b) != simdjson::SUCCESS) return false;
                row.values.emplace_back(std::string(key), b ? 1.0 : 0.0);
            } else if (type == od::json_type::string) {
                std::string_view s;
                if (v.get_string().get(s) != simdjson::SUCCESS) return false;
                if (specialNumber(s, x)) {
                    m_textValues.emplace_back(row.values.size(), key);
                    row.values.emplace_back(std::string(key), x);
                }
            } else if (!walk(v, 2)) {
                return false;
            }
        }
    }
    // Nothing may follow the row's object (the general reader refuses trailing text).
    if (doc.current_location().error() != simdjson::OUT_OF_BOUNDS) return false;
    if (!haveDocId) return false;
    // Text values count only when listed; drop the others, last first so that the indices stay right.
    for (auto it = m_textValues.rbegin(); it != m_textValues.rend(); ++it)
        if (std::find(m_listed.begin(), m_listed.end(), it->second) == m_listed.end())
            row.values.erase(row.values.begin() + static_cast<std::ptrdiff_t>(it->first));
    return true;
}

}  // namespace fp8dash::detail
