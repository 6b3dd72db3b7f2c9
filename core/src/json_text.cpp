// Strict JSON reading with clear errors, plus the two allowances of lm_eval_results.h (Python's NaN/Infinity).
//
// Speed (lm-eval files must read within 1.5x of Python's json.load, tests/benchmarks/README.md): documents are parsed
// by simdjson (Debian's libsimdjson) and converted to nlohmann's ordered_json, which core reads; nlohmann's own parser
// is several times slower than Python's json module on lm-eval files. What is accepted and every error message stay
// nlohmann's: a document simdjson refuses is parsed again by nlohmann (which reports the error, or reads the few things
// simdjson refuses and nlohmann takes: a byte-order mark, integers beyond 64 bits, a trailing NUL), and the cases that
// simdjson reads differently from nlohmann ("-0", which nlohmann keeps as a signed integer, and \uD800-\uDFFF escapes)
// go to nlohmann directly. Very large texts go to nlohmann too (simdjson's index costs several bytes per input byte). A
// comparison file's timeline sample lists are lifted out by a scanner of their own before the rest is parsed
// (timeline_arrays.h).
//
// A key repeated in one object is refused (issue 26): JSON leaves its meaning open (Python and nlohmann keep the last
// value, other readers the first), so a file or an answer could show one reader one metric and another reader another.
// Both builders notice it where they insert the key (no extra pass); the simdjson one then hands the text to
// nlohmann's, whose error names the key and the path of its object.
#include <simdjson.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstring>
#include <fstream>
#include <limits>
#include <optional>
#include <system_error>
#include <unordered_set>
#include <vector>

#include "fp8dash/core/json_text.h"
#include "fp8dash/core/lm_eval_results.h"
#include "production/timeline_arrays.h"

namespace fp8dash {
namespace {

constexpr int kMaxDepth = 256;
// simdjson's index and tape take ~13 bytes per input byte at most; above this nlohmann's leaner DOM builder is used.
constexpr std::size_t kSimdjsonMaxBytes = std::size_t{16} << 20;
// Texts up to this size reuse the thread's parser (sample logs parse one small document per line).
constexpr std::size_t kReusedParserMaxBytes = std::size_t{1} << 20;

bool startsWithAt(std::string_view s, std::size_t at, std::string_view word) {
    return s.substr(at, word.size()) == word;
}

bool isWordChar(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

bool isJsonSpace(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

bool isDigit(char c) {
    return c >= '0' && c <= '9';
}

// A range of the input replaced by other text in what the parser reads.
struct Replacement {
    std::size_t from;
    std::size_t to;
    std::string_view with;
};

// Where a lifted array goes: the timeline path of the value being scanned.
enum class ArraySlot { None, ThroughputT, ThroughputV, QualityT, QualityV };

// Reads the body of a sample list from `open` (its '[') in one pass: JSON numbers (and, for "v", the value strings)
// separated by commas. Returns the index of the closing ']' and fills `out`, or npos when the list holds anything
// else (which nlohmann then reads and reports, as before).
std::size_t liftSampleList(std::string_view in, std::size_t open, bool values, std::vector<double>& out) {
    const std::size_t n = in.size();
    std::size_t p = open + 1;
    // Capacity from the commas up to the first ']' (a hint: a list with other content fails below anyway).
    const std::size_t hintEnd = std::min(n, in.find(']', p));
    out.clear();
    out.reserve(static_cast<std::size_t>(std::count(in.begin() + static_cast<std::ptrdiff_t>(p),
                                                    in.begin() + static_cast<std::ptrdiff_t>(hintEnd), ',')) +
                1);
    const auto skipSpace = [&] {
        while (p < n && isJsonSpace(in[p])) ++p;
    };
    skipSpace();
    if (p < n && in[p] == ']') return p;
    while (true) {
        skipSpace();
        if (p >= n) return std::string_view::npos;
        const char c = in[p];
        if (c == '-' || isDigit(c)) {
            // The JSON number grammar exactly (from_chars alone would take "01", "1." and "1e5" without checks).
            std::size_t q = p;
            if (in[q] == '-') ++q;
            if (q < n && in[q] == '0') {
                ++q;
            } else if (q < n && in[q] >= '1' && in[q] <= '9') {
                while (q < n && isDigit(in[q])) ++q;
            } else {
                return std::string_view::npos;
            }
            bool integer = true;
            if (q < n && in[q] == '.') {
                ++q;
                if (q >= n || !isDigit(in[q])) return std::string_view::npos;
                while (q < n && isDigit(in[q])) ++q;
                integer = false;
            }
            if (q < n && (in[q] == 'e' || in[q] == 'E')) {
                ++q;
                if (q < n && (in[q] == '+' || in[q] == '-')) ++q;
                if (q >= n || !isDigit(in[q])) return std::string_view::npos;
                while (q < n && isDigit(in[q])) ++q;
                integer = false;
            }
            double value = 0;
            // Correctly rounded, as nlohmann's strtod (floats) and its exact integers converted to double are.
            // Out of range (1e999, or an underflow libstdc++ reports): left to nlohmann, which says so or reads it.
            const auto r = std::from_chars(in.data() + p, in.data() + q, value);
            if (r.ec != std::errc() || r.ptr != in.data() + q) return std::string_view::npos;
            if (integer && value == 0) value = 0;  // nlohmann reads "-0" as the integer 0: +0.0 as a double
            out.push_back(value);
            p = q;
        } else if (c == '"' && values) {
            const std::size_t close = in.find('"', p + 1);
            if (close == std::string_view::npos) return std::string_view::npos;
            const std::string_view s = in.substr(p + 1, close - p - 1);
            if (s == "NaN")
                out.push_back(std::nan(""));
            else if (s == "+Inf" || s == "Inf")
                out.push_back(std::numeric_limits<double>::infinity());
            else if (s == "-Inf")
                out.push_back(-std::numeric_limits<double>::infinity());
            else
                return std::string_view::npos;  // other strings, escapes included: nlohmann's reading and message
            p = close + 1;
        } else {
            return std::string_view::npos;
        }
        skipSpace();
        if (p >= n) return std::string_view::npos;
        if (in[p] == ']') return p;
        if (in[p] != ',') return std::string_view::npos;
        ++p;
    }
}

// One pass outside strings: checks the nesting depth, rewrites NaN, Infinity and -Infinity tokens as strings, notes
// what simdjson would read differently, and (when `arrays` is given) lifts the timeline's sample lists out.
struct Prescan {
    std::vector<Replacement> replacements;
    bool nlohmannOnly = false;    // "-0" or a surrogate escape: nlohmann's reading differs from simdjson's
    bool abandonLifting = false;  // a key on the timeline's path has an escape: read the text without lifting
    bool lifted = false;          // some list was taken out of the text
    std::string problem;          // an error message, or "" when fine
};

// The objects and arrays open at a point of the scan, and what their keys mean for the timeline's sample lists.
class PrescanPath {
public:
    explicit PrescanPath(detail::TimelineArrays* arrays) : m_arrays(arrays) { m_stack.reserve(16); }

    void open(char kind) { m_stack.push_back({kind, kind == '{', {}}); }
    void close() {
        if (!m_stack.empty()) m_stack.pop_back();
    }
    // A ',' in an object: the next string is a key.
    void comma() {
        if (!m_stack.empty() && m_stack.back().kind == '{') m_stack.back().expectKey = true;
    }
    // A string starts: true when it is a key (its end is then given to keyRead).
    bool stringIsKey() {
        if (m_stack.empty() || m_stack.back().kind != '{' || !m_stack.back().expectKey) return false;
        m_stack.back().expectKey = false;
        return true;
    }

    // The timeline path of the innermost three objects, when they are timeline > throughput|quality > t|v.
    ArraySlot slotHere() const {
        if (!m_arrays) return ArraySlot::None;
        if (m_stack.size() != 3 || m_stack[0].kind != '{' || m_stack[1].kind != '{' || m_stack[2].kind != '{')
            return ArraySlot::None;
        if (m_stack[0].key != "timeline") return ArraySlot::None;
        const bool throughput = m_stack[1].key == "throughput";
        if (!throughput && m_stack[1].key != "quality") return ArraySlot::None;
        if (m_stack[2].key == "t") return throughput ? ArraySlot::ThroughputT : ArraySlot::QualityT;
        if (m_stack[2].key == "v") return throughput ? ArraySlot::ThroughputV : ArraySlot::QualityV;
        return ArraySlot::None;
    }

    std::optional<std::vector<double>>& slotArray(ArraySlot slot) {
        switch (slot) {
            case ArraySlot::ThroughputT:
                return m_arrays->throughput.t;
            case ArraySlot::ThroughputV:
                return m_arrays->throughput.v;
            case ArraySlot::QualityT:
                return m_arrays->quality.t;
            default:
                return m_arrays->quality.v;
        }
    }

    // A key repeated on the timeline's path: forget what was lifted under the earlier one (the parse then refuses the
    // repeat, and the error is the same with or without lifting). A key with an escape on that path may spell any of
    // them ("\u0074" is "t"): the text is then read without lifting (`abandonLifting`).
    void keyRead(std::string_view key, bool& abandonLifting) {
        if (!m_arrays) return;
        Frame& top = m_stack.back();
        top.key = key;
        const bool escaped = key.find('\\') != std::string_view::npos;
        const bool inTimeline = m_stack.size() >= 2 && m_stack[0].kind == '{' && m_stack[0].key == "timeline";
        const bool inSeries = m_stack.size() == 3 && inTimeline && m_stack[1].kind == '{' &&
                              (m_stack[1].key == "throughput" || m_stack[1].key == "quality");
        if (escaped && top.kind == '{' && (m_stack.size() == 1 || (m_stack.size() == 2 && inTimeline) || inSeries)) {
            abandonLifting = true;
        } else if (m_stack.size() == 1 && top.kind == '{' && key == "timeline") {
            *m_arrays = {};
        } else if (m_stack.size() == 2 && inTimeline && top.kind == '{') {
            if (key == "throughput")
                m_arrays->throughput = {};
            else if (key == "quality")
                m_arrays->quality = {};
        } else if (m_stack.size() == 3) {
            if (const ArraySlot slot = slotHere(); slot != ArraySlot::None) slotArray(slot).reset();
        }
    }

private:
    struct Frame {
        char kind;             // '{' or '['
        bool expectKey;        // in an object: the next string is a key
        std::string_view key;  // in an object: the key whose value is being read (raw, as in the file)
    };
    detail::TimelineArrays* m_arrays;
    std::vector<Frame> m_stack;
};

// A bare word outside strings at `i` (its first letter N, I or -): NaN, Infinity and -Infinity become strings; a "-0"
// that simdjson reads differently from nlohmann is noted. Returns the index of the last character consumed.
std::size_t prescanBareWord(std::string_view in, std::size_t i, Prescan& out) {
    const char c = in[i];
    std::string_view token;
    if (startsWithAt(in, i, "NaN"))
        token = "NaN";
    else if (startsWithAt(in, i, "Infinity"))
        token = "Infinity";
    else if (startsWithAt(in, i, "-Infinity"))
        token = "-Infinity";
    if (token.empty() || (i > 0 && isWordChar(in[i - 1])) ||
        (i + token.size() < in.size() && isWordChar(in[i + token.size()]))) {
        // nlohmann reads "-0" as a signed integer zero, simdjson as an integer that cannot tell.
        if (c == '-' && i + 1 < in.size() && in[i + 1] == '0' &&
            (i + 2 >= in.size() || (in[i + 2] != '.' && in[i + 2] != 'e' && in[i + 2] != 'E')))
            out.nlohmannOnly = true;
        return i;
    }
    static constexpr std::string_view kQuoted[] = {"\"NaN\"", "\"Infinity\"", "\"-Infinity\""};
    const std::string_view quoted = token == "NaN" ? kQuoted[0] : token == "Infinity" ? kQuoted[1] : kQuoted[2];
    out.replacements.push_back({i, i + token.size(), quoted});
    return i + token.size() - 1;
}

// Inside a string at `i`, not at a quote or backslash: the index just before the next one (most of a text is inside
// strings, so the scan jumps there).
std::size_t skipStringRun(std::string_view in, std::size_t i) {
    const char* from = in.data() + i;
    const std::size_t left = in.size() - i;
    const void* quote = std::memchr(from, '"', left);
    const std::size_t quoteAt = quote ? static_cast<std::size_t>(static_cast<const char*>(quote) - from) : left;
    const void* escape = std::memchr(from, '\\', quoteAt);
    return i + (escape ? static_cast<std::size_t>(static_cast<const char*>(escape) - from) : quoteAt) - 1;
}

Prescan prescan(std::string_view in, detail::TimelineArrays* arrays) {
    Prescan out;
    PrescanPath path(arrays);
    int depth = 0;
    bool inString = false;
    bool inKey = false;
    std::size_t keyStart = 0;
    for (std::size_t i = 0; i < in.size(); ++i) {
        const char c = in[i];
        if (inString) {
            if (c != '\\' && c != '"') {
                i = skipStringRun(in, i);
                continue;
            }
            if (c == '\\') {
                // \uD800-\uDFFF: simdjson and nlohmann differ on lone surrogates; nlohmann decides.
                if (i + 3 < in.size() && in[i + 1] == 'u' && (in[i + 2] == 'd' || in[i + 2] == 'D') &&
                    std::strchr("89abAB", in[i + 3]) != nullptr && in[i + 3] != '\0')
                    out.nlohmannOnly = true;
                ++i;
            } else if (c == '"') {
                inString = false;
                if (inKey) {
                    inKey = false;
                    path.keyRead(in.substr(keyStart, i - keyStart), out.abandonLifting);
                }
            }
            continue;
        }
        switch (c) {
            case '"':
                inString = true;
                if (path.stringIsKey()) {
                    inKey = true;
                    keyStart = i + 1;
                }
                break;
            case ',':
                path.comma();
                break;
            case '[':
                if (const ArraySlot slot = path.slotHere(); slot != ArraySlot::None) {
                    const bool values = slot == ArraySlot::ThroughputV || slot == ArraySlot::QualityV;
                    std::vector<double> lifted;
                    if (const std::size_t close = liftSampleList(in, i, values, lifted);
                        close != std::string_view::npos) {
                        path.slotArray(slot) = std::move(lifted);
                        out.lifted = true;
                        if (close > i + 1) out.replacements.push_back({i + 1, close, {}});
                        i = close;  // the ']': the list is read, and it nests nothing
                        break;
                    }
                }
                [[fallthrough]];
            case '{':
                if (++depth > kMaxDepth) {
                    out.problem =
                        "nesting deeper than " + std::to_string(kMaxDepth) + " levels at byte " + std::to_string(i);
                    return out;
                }
                path.open(c);
                break;
            case ']':
            case '}':
                --depth;
                path.close();
                break;
            default:
                if (c == 'N' || c == 'I' || c == '-') i = prescanBareWord(in, i, out);  // the only first letters
                break;
        }
    }
    return out;
}

std::string applyReplacements(std::string_view in, const std::vector<Replacement>& replacements) {
    std::size_t kept = in.size();
    for (const auto& r : replacements) kept -= r.to - r.from;
    std::string out;
    out.reserve(kept + 12 * replacements.size());
    std::size_t copiedUpTo = 0;
    for (const auto& r : replacements) {
        out.append(in.substr(copiedUpTo, r.from - copiedUpTo));
        out.append(r.with);
        copiedUpTo = r.to;
    }
    out.append(in.substr(copiedUpTo));
    return out;
}

// Thrown by toOrderedJson at a key repeated in one object: the text is then read by nlohmann's builder, which names it.
struct RepeatedKey {};

// simdjson's tree as the ordered_json nlohmann's parser builds: numbers typed as nlohmann types them (a
// non-negative integer is unsigned). A repeated key throws RepeatedKey.
Json toOrderedJson(simdjson::dom::element e) {
    using simdjson::dom::element_type;
    switch (e.type()) {
        case element_type::OBJECT: {
            const simdjson::dom::object object = e.get_object().value_unsafe();
            Json out = Json::object();
            auto& map = out.get_ref<Json::object_t&>();
            const std::size_t n = object.size();
            map.reserve(n);  // ordered_map's elements hold a const key: growing would copy every value below
            if (n <= 16) {
                for (const auto field : object) {
                    if (std::any_of(map.begin(), map.end(), [&](const auto& kv) { return kv.first == field.key; }))
                        throw RepeatedKey{};
                    map.emplace_back(std::string(field.key), toOrderedJson(field.value));
                }
            } else {
                std::unordered_set<std::string_view> seen;
                seen.reserve(n);
                for (const auto field : object) {
                    if (!seen.insert(field.key).second) throw RepeatedKey{};
                    map.emplace_back(std::string(field.key), toOrderedJson(field.value));
                }
            }
            return out;
        }
        case element_type::ARRAY: {
            const simdjson::dom::array array = e.get_array().value_unsafe();
            Json out = Json::array();
            auto& items = out.get_ref<Json::array_t&>();
            items.reserve(array.size());
            for (const auto item : array) items.push_back(toOrderedJson(item));
            return out;
        }
        case element_type::INT64: {
            const std::int64_t v = e.get_int64().value_unsafe();
            return v < 0 ? Json(v) : Json(static_cast<std::uint64_t>(v));
        }
        case element_type::UINT64:
            return Json(e.get_uint64().value_unsafe());
        case element_type::DOUBLE:
            return Json(e.get_double().value_unsafe());
        case element_type::STRING:
            return Json(std::string(e.get_string().value_unsafe()));
        case element_type::BOOL:
            return Json(e.get_bool().value_unsafe());
        case element_type::NULL_VALUE:
            return Json(nullptr);
    }
    return Json(nullptr);
}

std::optional<Json> parseWithSimdjson(std::string_view text) {
    const auto convert = [&](simdjson::dom::parser& parser) -> std::optional<Json> {
        simdjson::dom::element root;
        if (parser.parse(text.data(), text.size(), true).get(root) != simdjson::SUCCESS) return std::nullopt;
        try {
            return toOrderedJson(root);
        } catch (const RepeatedKey&) {
            return std::nullopt;  // nlohmann's builder below says which key, and where
        }
    };
    if (text.size() <= kReusedParserMaxBytes) {
        thread_local simdjson::dom::parser parser;
        return convert(parser);
    }
    simdjson::dom::parser parser;  // its buffers go with it
    return convert(parser);
}

// nlohmann's DOM builder (its json_sax_dom_parser, which Json::parse uses), except that a key already in its object
// stops the parse and is remembered: the tree, every other error and its message stay nlohmann's.
template <class J>
class StrictDomBuilder {
public:
    explicit StrictDomBuilder(J& root) : m_root(root) {}

    bool null() { return add(J(nullptr)); }
    bool boolean(bool v) { return add(J(v)); }
    bool number_integer(typename J::number_integer_t v) { return add(J(v)); }
    bool number_unsigned(typename J::number_unsigned_t v) { return add(J(v)); }
    bool number_float(typename J::number_float_t v, const typename J::string_t&) { return add(J(v)); }
    bool string(typename J::string_t& v) { return add(J(std::move(v))); }
    bool binary(typename J::binary_t& v) { return add(J(std::move(v))); }
    bool start_object(std::size_t) {
        m_open.push_back(place(J::object()));
        return true;
    }
    bool key(typename J::string_t& k) {
        auto& members = m_open.back()->template get_ref<typename J::object_t&>();
        const auto [at, inserted] = members.emplace(k, J());
        if (!inserted) {
            m_repeatedKey = k;
            m_repeatedIn = pathOfInnermost();
            return false;  // stops the parse
        }
        m_member = &at->second;
        return true;
    }
    bool end_object() {
        m_open.pop_back();
        return true;
    }
    bool start_array(std::size_t) {
        m_open.push_back(place(J::array()));
        return true;
    }
    bool end_array() {
        m_open.pop_back();
        return true;
    }
    template <class Exception>
    bool parse_error(std::size_t, const std::string&, const Exception& e) {
        throw e;  // as nlohmann's builder: parseWithNlohmann turns it into the message
    }

    const std::optional<std::string>& repeatedKey() const { return m_repeatedKey; }
    const std::string& repeatedIn() const { return m_repeatedIn; }

private:
    bool add(J v) {
        place(std::move(v));
        return true;
    }
    // Puts a value where the parse stands (the root, the end of the open array, or the member whose key was read) and
    // returns where it lies. Pointers into the open containers stay valid: a container grows only while it is the
    // innermost, and then none of its elements is open.
    J* place(J v) {
        if (m_open.empty()) {
            m_root = std::move(v);
            return &m_root;
        }
        if (m_open.back()->is_array()) {
            auto& items = m_open.back()->template get_ref<typename J::array_t&>();
            items.push_back(std::move(v));
            return &items.back();
        }
        *m_member = std::move(v);
        return m_member;
    }
    // The innermost open object's place: "results.gsm8k", "runs.baseline.results[2]", or "" for the top level.
    std::string pathOfInnermost() const {
        std::string path;
        for (std::size_t i = 1; i < m_open.size(); ++i) {
            const J& parent = *m_open[i - 1];
            if (parent.is_array()) {
                const auto& items = parent.template get_ref<const typename J::array_t&>();
                path += "[" + std::to_string(m_open[i] - items.data()) + "]";
                continue;
            }
            for (const auto& [k, v] : parent.template get_ref<const typename J::object_t&>())
                if (&v == m_open[i]) {
                    path += (path.empty() ? "" : ".") + k;
                    break;
                }
        }
        return path;
    }

    J& m_root;
    std::vector<J*> m_open;  // the open objects and arrays, outermost first
    J* m_member = nullptr;   // the member whose key was read last
    std::optional<std::string> m_repeatedKey;
    std::string m_repeatedIn;
};

std::string repeatedKeyMessage(const std::string& sourceName, const std::string& key, const std::string& in) {
    return sourceName + ": " + (in.empty() ? "" : in + ": ") + "key " +
           Json(key).dump(-1, ' ', false, Json::error_handler_t::replace) + " appears twice" +
           (in.empty() ? " at the top level" : "") +
           " (which of its values counts is not defined: fp8dash reads no repeated key)";
}

Result<Json> parseWithNlohmann(std::string_view text, const std::string& sourceName) {
    try {
        Json doc;
        StrictDomBuilder<Json> builder(doc);
        if (!Json::sax_parse(text, &builder) && builder.repeatedKey())
            return Error{repeatedKeyMessage(sourceName, *builder.repeatedKey(), builder.repeatedIn())};
        return doc;
    } catch (const nlohmann::json::exception& e) {
        // "[json.exception.parse_error.101] parse error at line 1, column 2: ..." -> keep the human part.
        // Numbers beyond double range (1e999) land here too, as out_of_range.406 "number overflow".
        std::string what = e.what();
        if (auto p = what.find("] "); p != std::string::npos) what = what.substr(p + 2);
        return Error{sourceName + ": not valid JSON (" + what + ")"};
    }
}

// parseAnswerJson: nlohmann's parse(text, nullptr, false) with the repeated-key rule.
template <class J>
Result<J> parseAnswer(std::string_view text, const std::string& sourceName) {
    J doc;
    StrictDomBuilder<J> builder(doc);
    try {
        if (J::sax_parse(text, &builder)) return doc;
    } catch (const nlohmann::json::exception&) {
        return J(J::value_t::discarded);
    }
    if (builder.repeatedKey())
        return Error{repeatedKeyMessage(sourceName, *builder.repeatedKey(), builder.repeatedIn())};
    return J(J::value_t::discarded);
}

Result<Json> parseChecked(std::string_view text, const std::string& sourceName, detail::TimelineArrays* arrays) {
    std::size_t firstNonSpace = text.find_first_not_of(" \t\r\n");
    if (firstNonSpace == std::string_view::npos) return Error{sourceName + ": the file is empty (expected JSON)"};
    Prescan scan = prescan(text, arrays);
    if (arrays && scan.abandonLifting) {
        *arrays = {};
        return parseChecked(text, sourceName, nullptr);
    }
    if (!scan.problem.empty()) {
        if (arrays) *arrays = {};
        return Error{sourceName + ": not valid JSON: " + scan.problem};
    }
    std::string rewrittenText;
    if (!scan.replacements.empty()) rewrittenText = applyReplacements(text, scan.replacements);
    const std::string_view parsed = scan.replacements.empty() ? text : std::string_view(rewrittenText);
    if (!scan.nlohmannOnly && parsed.size() <= kSimdjsonMaxBytes) {
        if (auto doc = parseWithSimdjson(parsed)) return std::move(*doc);
    }
    auto doc = parseWithNlohmann(parsed, sourceName);
    if (!doc && scan.lifted) {
        // The message names a line and column of the text without the lists: read the text as it is for it.
        *arrays = {};
        return parseChecked(text, sourceName, nullptr);
    }
    return doc;
}

}  // namespace

Result<Json> parseJsonText(std::string_view text, const std::string& sourceName) {
    return parseChecked(text, sourceName, nullptr);
}

Result<nlohmann::json> parseAnswerJson(std::string_view text, const std::string& sourceName) {
    return parseAnswer<nlohmann::json>(text, sourceName);
}

Result<Json> parseAnswerOrderedJson(std::string_view text, const std::string& sourceName) {
    return parseAnswer<Json>(text, sourceName);
}

namespace detail {

Result<Json> parseJsonTextLiftingTimelineArrays(std::string_view text, const std::string& sourceName,
                                                TimelineArrays& arrays) {
    arrays = {};
    return parseChecked(text, sourceName, &arrays);
}

}  // namespace detail

Result<std::string> readTextFile(const std::filesystem::path& path, std::size_t maxBytes) {
    std::error_code ec;
    const auto status = std::filesystem::status(path, ec);
    if (ec || !std::filesystem::exists(status)) return Error{path.string() + ": no such file"};
    if (std::filesystem::is_directory(status)) return Error{path.string() + ": is a directory, expected a file"};
    if (!std::filesystem::is_regular_file(status)) return Error{path.string() + ": is not a regular file"};
    const auto size = std::filesystem::file_size(path, ec);
    if (!ec && size > maxBytes)
        return Error{path.string() + ": is too large (" + std::to_string(size) + " bytes; the limit is " +
                     std::to_string(maxBytes) + ")"};
    std::ifstream in(path, std::ios::binary);
    if (!in) return Error{path.string() + ": cannot be opened: " + std::strerror(errno)};
    // One buffer of the file's size, read into directly (a string stream would hold the text twice).
    std::string text(ec ? 0 : static_cast<std::size_t>(size), '\0');
    in.read(text.data(), static_cast<std::streamsize>(text.size()));
    if (in.bad()) return Error{path.string() + ": read failed: " + std::strerror(errno)};
    text.resize(static_cast<std::size_t>(in.gcount()));
    if (in) {
        // The file grew since it was measured: take the rest too, up to the limit.
        char chunk[65536];
        while (in.read(chunk, sizeof chunk) || in.gcount() > 0) {
            text.append(chunk, static_cast<std::size_t>(in.gcount()));
            if (text.size() > maxBytes)
                return Error{path.string() + ": is too large (more than " + std::to_string(maxBytes) + " bytes)"};
        }
        if (in.bad()) return Error{path.string() + ": read failed: " + std::strerror(errno)};
    }
    return text;
}

}  // namespace fp8dash
