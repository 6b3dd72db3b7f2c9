#pragma once
// A small strict JSON reader for tests (RFC 8259 syntax; numbers as double): the GPU-only build has no JSON library,
// and the report writer (bench_json.cpp) must not be checked with its own code.

#include <cctype>
#include <cstdlib>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace fp8dash::test {

struct JsonValue {
    enum class Kind { Null, Bool, Number, String, Array, Object } kind = Kind::Null;
    bool boolean = false;
    double number = 0;
    std::string string;
    std::vector<JsonValue> items;
    std::map<std::string, JsonValue> members;

    const JsonValue* find(const std::string& key) const {
        const auto it = members.find(key);
        return it == members.end() ? nullptr : &it->second;
    }
};

class JsonReader {
public:
    // The document, or nullopt with error() saying where it broke.
    std::optional<JsonValue> parse(const std::string& text) {
        m_text = &text;
        m_pos = 0;
        m_error.clear();
        JsonValue value;
        if (!parseValue(value, 0)) return std::nullopt;
        skipSpace();
        if (m_pos != text.size()) {
            fail("trailing characters");
            return std::nullopt;
        }
        return value;
    }
    const std::string& error() const { return m_error; }

private:
    bool fail(const std::string& what) {
        if (m_error.empty()) m_error = what + " at offset " + std::to_string(m_pos);
        return false;
    }
    void skipSpace() {
        while (m_pos < m_text->size()) {
            const char c = (*m_text)[m_pos];
            if (c != ' ' && c != '\t' && c != '\r' && c != '\n') break;
            ++m_pos;
        }
    }
    bool literal(const char* word) {
        const std::string w(word);
        if (m_text->compare(m_pos, w.size(), w) != 0) return false;
        m_pos += w.size();
        return true;
    }
    bool parseString(std::string& out) {
        if (m_pos >= m_text->size() || (*m_text)[m_pos] != '"') return fail("expected a string");
        ++m_pos;
        while (m_pos < m_text->size()) {
            const char c = (*m_text)[m_pos++];
            if (c == '"') return true;
            if (static_cast<unsigned char>(c) < 0x20) return fail("control character in a string");
            if (c != '\\') {
                out += c;
                continue;
            }
            if (m_pos >= m_text->size()) break;
            const char e = (*m_text)[m_pos++];
            switch (e) {
                case '"':
                    out += '"';
                    break;
                case '\\':
                    out += '\\';
                    break;
                case '/':
                    out += '/';
                    break;
                case 'b':
                    out += '\b';
                    break;
                case 'f':
                    out += '\f';
                    break;
                case 'n':
                    out += '\n';
                    break;
                case 'r':
                    out += '\r';
                    break;
                case 't':
                    out += '\t';
                    break;
                case 'u':
                    for (int i = 0; i < 4; ++i) {
                        if (m_pos >= m_text->size() || !std::isxdigit(static_cast<unsigned char>((*m_text)[m_pos])))
                            return fail("bad \\u escape");
                        ++m_pos;
                    }
                    out += '?';  // the tests compare ASCII text only
                    break;
                default:
                    return fail("bad escape");
            }
        }
        return fail("unterminated string");
    }
    bool parseNumber(double& out) {
        const std::size_t start = m_pos;
        auto digits = [&] {
            const std::size_t from = m_pos;
            while (m_pos < m_text->size() && std::isdigit(static_cast<unsigned char>((*m_text)[m_pos]))) ++m_pos;
            return m_pos > from;
        };
        if (m_pos < m_text->size() && (*m_text)[m_pos] == '-') ++m_pos;
        if (m_pos < m_text->size() && (*m_text)[m_pos] == '0')
            ++m_pos;
        else if (!digits())
            return fail("bad number");
        if (m_pos < m_text->size() && (*m_text)[m_pos] == '.') {
            ++m_pos;
            if (!digits()) return fail("bad fraction");
        }
        if (m_pos < m_text->size() && ((*m_text)[m_pos] == 'e' || (*m_text)[m_pos] == 'E')) {
            ++m_pos;
            if (m_pos < m_text->size() && ((*m_text)[m_pos] == '+' || (*m_text)[m_pos] == '-')) ++m_pos;
            if (!digits()) return fail("bad exponent");
        }
        out = std::strtod(m_text->substr(start, m_pos - start).c_str(), nullptr);
        return true;
    }
    bool parseValue(JsonValue& value, int depth) {
        if (depth > 64) return fail("nested too deeply");
        skipSpace();
        if (m_pos >= m_text->size()) return fail("unexpected end");
        const char c = (*m_text)[m_pos];
        if (c == '{') {
            value.kind = JsonValue::Kind::Object;
            ++m_pos;
            skipSpace();
            if (m_pos < m_text->size() && (*m_text)[m_pos] == '}') {
                ++m_pos;
                return true;
            }
            for (;;) {
                skipSpace();
                std::string key;
                if (!parseString(key)) return false;
                skipSpace();
                if (m_pos >= m_text->size() || (*m_text)[m_pos] != ':') return fail("expected ':'");
                ++m_pos;
                JsonValue member;
                if (!parseValue(member, depth + 1)) return false;
                if (!value.members.emplace(key, std::move(member)).second) return fail("duplicate key " + key);
                skipSpace();
                if (m_pos < m_text->size() && (*m_text)[m_pos] == ',') {
                    ++m_pos;
                    continue;
                }
                if (m_pos < m_text->size() && (*m_text)[m_pos] == '}') {
                    ++m_pos;
                    return true;
                }
                return fail("expected ',' or '}'");
            }
        }
        if (c == '[') {
            value.kind = JsonValue::Kind::Array;
            ++m_pos;
            skipSpace();
            if (m_pos < m_text->size() && (*m_text)[m_pos] == ']') {
                ++m_pos;
                return true;
            }
            for (;;) {
                JsonValue item;
                if (!parseValue(item, depth + 1)) return false;
                value.items.push_back(std::move(item));
                skipSpace();
                if (m_pos < m_text->size() && (*m_text)[m_pos] == ',') {
                    ++m_pos;
                    continue;
                }
                if (m_pos < m_text->size() && (*m_text)[m_pos] == ']') {
                    ++m_pos;
                    return true;
                }
                return fail("expected ',' or ']'");
            }
        }
        if (c == '"') {
            value.kind = JsonValue::Kind::String;
            return parseString(value.string);
        }
        if (literal("true")) {
            value.kind = JsonValue::Kind::Bool;
            value.boolean = true;
            return true;
        }
        if (literal("false")) {
            value.kind = JsonValue::Kind::Bool;
            return true;
        }
        if (literal("null")) {
            value.kind = JsonValue::Kind::Null;
            return true;
        }
        value.kind = JsonValue::Kind::Number;
        return parseNumber(value.number);
    }

    const std::string* m_text = nullptr;
    std::size_t m_pos = 0;
    std::string m_error;
};

}  // namespace fp8dash::test
