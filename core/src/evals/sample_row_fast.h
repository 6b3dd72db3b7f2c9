#pragma once
// The fast path of the sample-log reader (sample_logs.cpp): one row read with simdjson's On-Demand API, touching
// only the fields a paired test needs. Private to core.
//
// It never reports an error. A row it reads is read exactly as the general reader (parseJsonText, then the
// field rules of sample_logs.cpp) reads it; anything it is not sure of (malformed JSON, a field of an unexpected
// type, a repeated key, a bare NaN, a number simdjson and nlohmann read differently, nesting near the depth
// limit) makes it step aside, and the general reader reads that row and says what is wrong. The
// fields it does not use (doc, arguments, resps, filtered_resps, target, ...) are walked by the iterator, which
// checks their syntax exactly as a full parse would, but nothing is built from them. (simdjson refuses a lone
// surrogate escape as nlohmann does, so such a row steps aside too; sample_logs_fast_test checks both.)
#include <simdjson.h>

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "fp8dash/core/sample_logs.h"

namespace fp8dash::detail {

// What a row holds for the reader's bookkeeping.
struct FastRow {
    SampleRow row;  // docId, hashes, values, repeats (filter and line are set by the caller)
    bool labelled = false;
    std::string filter;  // when labelled
};

class FastRowParser {
public:
    // `data` must stay readable up to data + capacity, and capacity >= size + simdjson::SIMDJSON_PADDING.
    // True when the row was read into `out`; false when the general reader must read it.
    bool parse(const char* data, std::size_t size, std::size_t capacity, FastRow& out);

private:
    simdjson::ondemand::parser m_parser;
    std::vector<std::string_view> m_keys;                                // the row's top-level keys, to find repeats
    std::vector<std::string> m_listed;                                   // the row's "metrics" list
    std::vector<std::pair<std::size_t, std::string_view>> m_textValues;  // (index in values, text) to settle
};

}  // namespace fp8dash::detail
