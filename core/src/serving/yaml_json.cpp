// YAML to the JSON tree (yaml_json.h). yaml-cpp parses; the scan before it bounds its recursion, the conversion
// bounds what aliases may expand to.
#include "serving/yaml_json.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <string>
#include <unordered_set>

namespace fp8dash {

namespace {

// The scanner's state across lines: inside a quoted scalar (which may span lines), inside flow collections, inside a
// block scalar (| or >) whose content lines are text.
struct YamlScanState {
    char quote = 0;
    int flow = 0;
    int flowBase = 0;
    int blockScalarParent = -1;
    int deepest = 0;
};

bool yamlScanIsTokenStart(std::string_view line, std::size_t i) {
    if (i == 0) return true;
    const char p = line[i - 1];
    return p == ' ' || p == '\t' || p == '[' || p == '{' || p == ',';
}

// Does the line end with a block scalar indicator (`key: |`, `- >-`, `|2+`)?
bool yamlEndsWithBlockScalar(std::string_view rest) {
    while (!rest.empty() && (rest.back() == ' ' || rest.back() == '\r')) rest.remove_suffix(1);
    std::size_t i = rest.size();
    while (i > 0 && (rest[i - 1] == '+' || rest[i - 1] == '-' || (rest[i - 1] >= '0' && rest[i - 1] <= '9'))) --i;
    if (i == 0 || (rest[i - 1] != '|' && rest[i - 1] != '>')) return false;
    return i == 1 || rest[i - 2] == ' ';
}

void yamlScanLine(std::string_view line, YamlScanState& st) {
    std::size_t indent = 0;
    while (indent < line.size() && line[indent] == ' ') ++indent;
    std::string_view rest = line.substr(indent);
    if (st.blockScalarParent >= 0) {
        if (rest.empty() || rest == "\r" || static_cast<int>(indent) > st.blockScalarParent) return;
        st.blockScalarParent = -1;
    }
    std::size_t pos = 0;
    int levels = 0;
    if (st.quote == 0 && st.flow == 0) {
        if (rest.empty() || rest[0] == '#') return;
        // Block indicators opening nested collections on one line: "- - - x", "- key: v", "? key".
        while (pos < rest.size() && (rest[pos] == '-' || rest[pos] == '?' || rest[pos] == ':') &&
               (pos + 1 == rest.size() || rest[pos + 1] == ' ')) {
            ++levels;
            pos += 1;
            while (pos < rest.size() && rest[pos] == ' ') ++pos;
        }
        st.deepest = std::max(st.deepest, static_cast<int>(indent) + levels + 1);
    }
    const int base = static_cast<int>(indent) + levels + 1;
    for (std::size_t i = pos; i < rest.size(); ++i) {
        const char c = rest[i];
        if (st.quote == '\'') {
            if (c == '\'') {
                if (i + 1 < rest.size() && rest[i + 1] == '\'')
                    ++i;
                else
                    st.quote = 0;
            }
            continue;
        }
        if (st.quote == '"') {
            if (c == '\\')
                ++i;
            else if (c == '"')
                st.quote = 0;
            continue;
        }
        if (c == '#' && (i == 0 || rest[i - 1] == ' ' || rest[i - 1] == '\t')) break;
        const bool tokenStart = yamlScanIsTokenStart(rest, i);
        if ((c == '\'' || c == '"') && tokenStart) {
            st.quote = c;
        } else if ((c == '[' || c == '{') && (st.flow > 0 || tokenStart)) {
            if (st.flow == 0) st.flowBase = base;
            ++st.flow;
            st.deepest = std::max(st.deepest, st.flowBase + st.flow);
        } else if ((c == ']' || c == '}') && st.flow > 0) {
            --st.flow;
        }
    }
    if (st.quote == 0 && st.flow == 0 && yamlEndsWithBlockScalar(rest)) st.blockScalarParent = static_cast<int>(indent);
}

struct YamlConvert {
    const std::string& source;
    std::size_t budget;  // nodes left
    std::string error;
};

bool yamlIsOneOf(const std::string& s, std::initializer_list<const char*> words) {
    return std::any_of(words.begin(), words.end(), [&](const char* w) { return s == w; });
}

// A plain scalar typed as YAML 1.1 (PyYAML's safe_load) types it.
Json yamlPlainScalar(const std::string& s) {
    if (s.empty() || yamlIsOneOf(s, {"~", "null", "Null", "NULL"})) return nullptr;
    if (yamlIsOneOf(s, {"true", "True", "TRUE", "yes", "Yes", "YES", "on", "On", "ON"})) return true;
    if (yamlIsOneOf(s, {"false", "False", "FALSE", "no", "No", "NO", "off", "Off", "OFF"})) return false;
    if (yamlIsOneOf(s, {".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF"})) return "Infinity";
    if (yamlIsOneOf(s, {"-.inf", "-.Inf", "-.INF"})) return "-Infinity";
    if (yamlIsOneOf(s, {".nan", ".NaN", ".NAN"})) return "NaN";
    const char* first = s.data();
    const char* last = s.data() + s.size();
    const char* digits = (*first == '+' || *first == '-') ? first + 1 : first;
    if (digits == last) return s;
    const bool integral = std::all_of(digits, last, [](char c) { return c >= '0' && c <= '9'; });
    if (integral) {
        std::int64_t v = 0;
        const char* from = *first == '+' ? first + 1 : first;
        auto [ptr, ec] = std::from_chars(from, last, v);
        if (ec == std::errc() && ptr == last) return v;
    }
    // A float: digits with at most one '.', an optional exponent; at least one digit before the exponent.
    bool sawDigit = false, sawDot = false;
    const char* p = digits;
    for (; p != last && ((*p >= '0' && *p <= '9') || (*p == '.' && !sawDot)); ++p) {
        if (*p == '.')
            sawDot = true;
        else
            sawDigit = true;
    }
    if (!sawDigit) return s;
    if (p != last) {
        if (*p != 'e' && *p != 'E') return s;
        ++p;
        if (p != last && (*p == '+' || *p == '-')) ++p;
        if (p == last || !std::all_of(p, last, [](char c) { return c >= '0' && c <= '9'; })) return s;
    }
    const std::string text(s);
    char* end = nullptr;
    const double d = std::strtod(text.c_str(), &end);
    if (end != text.c_str() + text.size() || !std::isfinite(d)) return s;
    return d;
}

bool yamlToJson(const YAML::Node& node, Json& out, YamlConvert& cv, int depth) {
    if (cv.budget == 0) {
        cv.error = cv.source + ": the YAML expands past the node limit (aliases repeated too often?)";
        return false;
    }
    --cv.budget;
    if (depth > kYamlMaxDepth) {
        cv.error = cv.source + ": YAML nested deeper than " + std::to_string(kYamlMaxDepth) + " levels";
        return false;
    }
    switch (node.Type()) {
        case YAML::NodeType::Undefined:
        case YAML::NodeType::Null:
            out = nullptr;
            return true;
        case YAML::NodeType::Scalar: {
            const std::string& tag = node.Tag();
            if (tag == "!" || tag == "tag:yaml.org,2002:str")
                out = node.Scalar();
            else
                out = yamlPlainScalar(node.Scalar());
            return true;
        }
        case YAML::NodeType::Sequence: {
            out = Json::array();
            for (const auto& item : node) {
                Json child;
                if (!yamlToJson(item, child, cv, depth + 1)) return false;
                out.push_back(std::move(child));
            }
            return true;
        }
        case YAML::NodeType::Map: {
            out = Json::object();
            auto& members = out.get_ref<Json::object_t&>();
            std::unordered_set<std::string> seen;
            for (const auto& kv : node) {
                if (!kv.first.IsScalar()) {
                    cv.error = cv.source + ": line " + std::to_string(kv.first.Mark().line + 1) +
                               ": a mapping key that is not a scalar";
                    return false;
                }
                const std::string& key = kv.first.Scalar();
                if (!seen.insert(key).second) {
                    cv.error = cv.source + ": line " + std::to_string(kv.first.Mark().line + 1) + ": the key '" + key +
                               "' appears twice in one mapping";
                    return false;
                }
                Json child;
                if (!yamlToJson(kv.second, child, cv, depth + 1)) return false;
                members.emplace_back(key, std::move(child));
            }
            return true;
        }
    }
    out = nullptr;
    return true;
}

}  // namespace

int yamlNestingBound(std::string_view text) {
    YamlScanState st;
    std::size_t start = 0;
    while (start <= text.size()) {
        std::size_t end = text.find('\n', start);
        if (end == std::string_view::npos) end = text.size();
        yamlScanLine(text.substr(start, end - start), st);
        if (st.deepest > 1'000'000) break;
        start = end + 1;
    }
    return st.deepest;
}

Result<Json> parseYamlAsJson(std::string_view text, const std::string& sourceName) {
    const int bound = yamlNestingBound(text);
    if (bound > kYamlMaxDepth)
        return Error{sourceName + ": YAML nested (or indented) deeper than " + std::to_string(kYamlMaxDepth) +
                     " levels; refused"};
    if (text.find('\0') != std::string_view::npos) return Error{sourceName + ": a NUL byte in YAML text"};
    YAML::Node root;
    try {
        root = YAML::Load(std::string(text));
    } catch (const YAML::Exception& e) {
        return Error{sourceName + ": not valid YAML (line " + std::to_string(e.mark.line + 1) + ", column " +
                     std::to_string(e.mark.column + 1) + "): " + e.msg};
    } catch (const std::exception& e) {
        return Error{sourceName + ": not valid YAML: " + e.what()};
    }
    // Every node of the text costs at least a byte or two of it; an alias costs one node but expands to its target.
    YamlConvert cv{sourceName, text.size() + 1024, {}};
    Json out;
    try {
        if (!yamlToJson(root, out, cv, 0)) return Error{cv.error};
    } catch (const YAML::Exception& e) {
        return Error{sourceName + ": not valid YAML: " + e.msg};
    }
    return out;
}

}  // namespace fp8dash
