// The texts the monitoring export writes (monitoring_export.h): YAML double-quoted scalars, PromQL strings, Go
// template literals, Prometheus durations and promtool's input_series notation. Written by hand rather than through a
// YAML library: the files are a fixed shape of maps, lists and scalars, and every scalar goes through yamlQuoted,
// which escapes what YAML 1.1/1.2 forbid raw (the project uses no YAML library and none is needed for emitting).
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>

#include "fp8dash/core/monitoring_export.h"

namespace fp8dash {
namespace {

// Decodes one UTF-8 character at text[i]; returns its code point (U+FFFD for an invalid sequence) and advances i.
char32_t nextCodePoint(std::string_view text, std::size_t& i) {
    const auto b = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
    const unsigned char c = b(i);
    int len = 0;
    char32_t cp = 0;
    if (c < 0x80) {
        ++i;
        return c;
    }
    if ((c & 0xE0) == 0xC0) {
        len = 2;
        cp = c & 0x1F;
    } else if ((c & 0xF0) == 0xE0) {
        len = 3;
        cp = c & 0x0F;
    } else if ((c & 0xF8) == 0xF0) {
        len = 4;
        cp = c & 0x07;
    } else {
        ++i;
        return 0xFFFD;
    }
    if (i + static_cast<std::size_t>(len) > text.size()) {
        ++i;
        return 0xFFFD;
    }
    for (int k = 1; k < len; ++k) {
        const unsigned char cc = b(i + static_cast<std::size_t>(k));
        if ((cc & 0xC0) != 0x80) {
            ++i;
            return 0xFFFD;
        }
        cp = (cp << 6) | (cc & 0x3F);
    }
    // Overlong forms, surrogates and values past U+10FFFF are not characters.
    const bool overlong = (len == 2 && cp < 0x80) || (len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000);
    i += static_cast<std::size_t>(len);
    if (overlong || (cp >= 0xD800 && cp <= 0xDFFF) || cp > 0x10FFFF) return 0xFFFD;
    return cp;
}

void appendUtf8(std::string& out, char32_t cp) {
    if (cp < 0x80) {
        out += static_cast<char>(cp);
    } else if (cp < 0x800) {
        out += static_cast<char>(0xC0 | (cp >> 6));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
        out += static_cast<char>(0xE0 | (cp >> 12));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
        out += static_cast<char>(0xF0 | (cp >> 18));
        out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    }
}

// YAML's printable set (YAML 1.2 c-printable, which 1.1 shares): TAB, LF, CR, U+0020-U+007E, U+0085, U+00A0-U+D7FF,
// U+E000-U+FFFD, U+10000-U+10FFFF. Line breaks and NEL/LS/PS are escaped all the same (a quoted scalar folds them),
// as is U+FEFF (a byte-order mark inside a document is not allowed raw by every parser).
bool yamlRaw(char32_t cp) {
    if (cp >= 0x20 && cp <= 0x7E) return true;
    if (cp >= 0xA0 && cp <= 0xD7FF) return true;
    if (cp >= 0xE000 && cp <= 0xFFFD && cp != 0xFEFF) return cp != 0x2028 && cp != 0x2029;
    return cp >= 0x10000 && cp <= 0x10FFFF;
}

}  // namespace

std::string yamlQuoted(std::string_view text) {
    std::string out = "\"";
    for (std::size_t i = 0; i < text.size();) {
        const char32_t cp = nextCodePoint(text, i);
        if (cp == '"' || cp == '\\') {
            out += '\\';
            out += static_cast<char>(cp);
        } else if (cp == '\n') {
            out += "\\n";
        } else if (cp == '\t') {
            out += "\\t";
        } else if (cp == '\r') {
            out += "\\r";
        } else if (yamlRaw(cp)) {
            appendUtf8(out, cp);
        } else {
            char buf[16];
            std::snprintf(buf, sizeof buf, "\\u%04X", static_cast<unsigned>(cp));
            out += buf;
        }
    }
    return out + "\"";
}

std::string promqlQuoted(std::string_view text) {
    // PromQL strings take Go's escapes; control characters are written as \xNN so the literal stays on one line.
    std::string out = "\"";
    for (const char c : text) {
        const auto u = static_cast<unsigned char>(c);
        if (c == '"' || c == '\\') {
            out += '\\';
            out += c;
        } else if (c == '\n') {
            out += "\\n";
        } else if (u < 0x20 || u == 0x7F) {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\x%02x", u);
            out += buf;
        } else {
            out += c;
        }
    }
    return out + "\"";
}

std::string templateLiteral(std::string_view text) {
    // Only "{{" opens an action; it is written as an action printing "{{". A raw "}}" outside an action is text.
    std::string out;
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] == '{' && i + 1 < text.size() && text[i + 1] == '{') {
            out += "{{`{{`}}";
            ++i;
        } else {
            out += text[i];
        }
    }
    return out;
}

std::string prometheusDuration(double seconds) {
    auto s = static_cast<long long>(std::llround(seconds));
    if (s <= 0) return "0s";
    std::string out;
    for (const auto& [unit, size] : {std::pair{"d", 86400LL}, {"h", 3600LL}, {"m", 60LL}, {"s", 1LL}}) {
        if (s >= size) {
            out += std::to_string(s / size) + unit;
            s %= size;
        }
    }
    return out;
}

namespace {

// The shortest text that reads back as exactly v (promtool parses values with strconv.ParseFloat).
std::string exactNumber(double v) {
    if (std::isnan(v)) return "NaN";
    if (std::isinf(v)) return v > 0 ? "Inf" : "-Inf";
    // Plain decimals (series notation reads "1e+06+1x3" poorly); the shortest that round-trips.
    char buf[512];
    const bool plain = v == 0 || (std::fabs(v) >= 1e-9 && std::fabs(v) < 1e21);
    const auto r = plain ? std::to_chars(buf, buf + sizeof buf, v, std::chars_format::fixed)
                         : std::to_chars(buf, buf + sizeof buf, v);
    return std::string(buf, r.ptr);
}

}  // namespace

std::string promtoolValues(const std::vector<std::optional<double>>& values) {
    // promtool expands "a+bxn" by adding b n times to a (in float64): a run is kept only where that addition gives
    // every sample exactly; a run of gaps is "_xn" (n gaps).
    std::string out;
    const auto add = [&](const std::string& item) { out += (out.empty() ? "" : " ") + item; };
    std::size_t i = 0;
    while (i < values.size()) {
        if (!values[i]) {
            std::size_t j = i;
            while (j < values.size() && !values[j]) ++j;
            const std::size_t n = j - i;
            add(n == 1 ? "_" : "_x" + std::to_string(n));
            i = j;
            continue;
        }
        const double a = *values[i];
        std::size_t j = i + 1;
        double step = 0;
        if (std::isfinite(a) && j < values.size() && values[j] && std::isfinite(*values[j])) {
            step = *values[j] - a;
            double expect = a;
            while (j < values.size() && values[j] && std::isfinite(*values[j])) {
                const double next = expect + step;
                if (!(next == *values[j]) || std::signbit(next) != std::signbit(*values[j])) break;
                expect = next;
                ++j;
            }
        }
        const std::size_t n = j - i - 1;  // additions after a
        if (n >= 2 && std::isfinite(step) && exactNumber(step).find('e') == std::string::npos &&
            exactNumber(a).find('e') == std::string::npos) {
            const std::string b = exactNumber(step);
            add(exactNumber(a) + (step < 0 || std::signbit(step) ? "" : "+") + b + "x" + std::to_string(n));
            i = j;
        } else {
            add(exactNumber(a));
            ++i;
        }
    }
    return out;
}

}  // namespace fp8dash
