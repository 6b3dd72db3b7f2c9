// Untrusted text shown with its controls visible (untrusted_text.h).
#include "fp8dash/core/untrusted_text.h"

#include <cstdint>
#include <cstdio>

namespace fp8dash {

namespace {

// The length of the UTF-8 sequence at text[i] and its code point; 0 when the bytes there are not one (a stray
// continuation byte, an overlong form, a surrogate, beyond U+10FFFF, or cut short by the end of `text`).
std::size_t decode(std::string_view text, std::size_t i, char32_t& cp) {
    const auto b = [&](std::size_t k) { return static_cast<unsigned char>(text[i + k]); };
    const unsigned char c = b(0);
    std::size_t n = 0;
    char32_t min = 0;
    if (c < 0x80) {
        cp = c;
        return 1;
    }
    if (c >= 0xC2 && c <= 0xDF) {
        n = 2;
        cp = c & 0x1F;
        min = 0x80;
    } else if (c >= 0xE0 && c <= 0xEF) {
        n = 3;
        cp = c & 0x0F;
        min = 0x800;
    } else if (c >= 0xF0 && c <= 0xF4) {
        n = 4;
        cp = c & 0x07;
        min = 0x10000;
    } else {
        return 0;
    }
    if (i + n > text.size()) return 0;
    for (std::size_t k = 1; k < n; ++k) {
        if ((b(k) & 0xC0) != 0x80) return 0;
        cp = (cp << 6) | (b(k) & 0x3F);
    }
    if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
    return n;
}

bool shownEscaped(char32_t cp) {
    if (cp < 0x20) return cp != '\n' && cp != '\t';
    if (cp == 0x7F) return true;
    if (cp >= 0x80 && cp <= 0x9F) return true;
    if (cp >= 0x202A && cp <= 0x202E) return true;
    if (cp >= 0x2066 && cp <= 0x2069) return true;
    return cp == 0x200E || cp == 0x200F || cp == 0x061C || cp == 0x2028 || cp == 0x2029;
}

}  // namespace

std::string visibleControls(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    char buf[16];
    for (std::size_t i = 0; i < text.size();) {
        char32_t cp = 0;
        const std::size_t n = decode(text, i, cp);
        if (n == 0) {
            std::snprintf(buf, sizeof buf, "\\x%02X", static_cast<unsigned char>(text[i]));
            out += buf;
            ++i;
            continue;
        }
        if (shownEscaped(cp)) {
            std::snprintf(buf, sizeof buf, "\\u%04X", static_cast<unsigned>(cp));
            out += buf;
        } else {
            out.append(text.substr(i, n));
        }
        i += n;
    }
    return out;
}

std::string oneLine(std::string_view text) {
    // Line breaks: LF, VT, FF, CR; NEL (C2 85); LS, PS (E2 80 A8, E2 80 A9). The fast path keeps values without one.
    const auto isBreakAt = [&](std::size_t i) -> std::size_t {  // the length of the line break at i, or 0
        const auto c = static_cast<unsigned char>(text[i]);
        if (c >= 0x0A && c <= 0x0D) return 1;
        if (c == 0xC2 && i + 1 < text.size() && static_cast<unsigned char>(text[i + 1]) == 0x85) return 2;
        if (c == 0xE2 && i + 2 < text.size() && static_cast<unsigned char>(text[i + 1]) == 0x80 &&
            (static_cast<unsigned char>(text[i + 2]) == 0xA8 || static_cast<unsigned char>(text[i + 2]) == 0xA9))
            return 3;
        return 0;
    };
    std::size_t first = 0;
    while (first < text.size() && isBreakAt(first) == 0) ++first;
    if (first == text.size()) return std::string(text);
    std::string out(text.substr(0, first));
    out.reserve(text.size() + 8);
    for (std::size_t i = first; i < text.size();) {
        const std::size_t n = isBreakAt(i);
        if (n == 0) {
            out += text[i++];
            continue;
        }
        if (text[i] == '\n') {
            out += "\\n";
        } else {
            char32_t cp = static_cast<unsigned char>(text[i]);
            if (n == 2) cp = 0x85;
            if (n == 3) cp = static_cast<unsigned char>(text[i + 2]) == 0xA8 ? 0x2028 : 0x2029;
            char buf[16];
            std::snprintf(buf, sizeof buf, "\\u%04X", static_cast<unsigned>(cp));
            out += buf;
        }
        i += n;
    }
    return out;
}

std::size_t wholeUtf8Prefix(std::string_view text) {
    // Look back at most 3 bytes for the lead byte of a sequence the end cuts short.
    const std::size_t size = text.size();
    for (std::size_t back = 1; back <= 3 && back <= size; ++back) {
        const auto c = static_cast<unsigned char>(text[size - back]);
        if ((c & 0xC0) == 0x80) continue;  // a continuation byte: keep looking for its lead
        const std::size_t need = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 1;
        return need > back && c >= 0xC2 && c <= 0xF4 ? size - back : size;
    }
    return size;
}

}  // namespace fp8dash
