#pragma once
// Small text helpers shared by core's sources (private to core). ASCII only, locale-independent.

#include <string>
#include <string_view>

namespace fp8dash::text {

inline bool isSpace(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

inline std::string trim(std::string_view s) {
    std::size_t b = 0, e = s.size();
    while (b < e && isSpace(s[b])) ++b;
    while (e > b && isSpace(s[e - 1])) --e;
    return std::string(s.substr(b, e - b));
}

inline std::string lower(std::string_view s) {
    std::string out(s);
    for (char& c : out)
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    return out;
}

// Standard base64 (RFC 4648, with padding): Basic auth headers, images embedded in HTML reports.
inline std::string base64(std::string_view in) {
    static constexpr char kTable[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::string out;
    out.reserve((in.size() + 2) / 3 * 4);
    unsigned bits = 0;
    int count = 0;
    for (unsigned char c : in) {
        bits = (bits << 8) | c;
        count += 8;
        while (count >= 6) {
            count -= 6;
            out += kTable[(bits >> count) & 63];
        }
    }
    if (count > 0) out += kTable[(bits << (6 - count)) & 63];
    while (out.size() % 4) out += '=';
    return out;
}

}  // namespace fp8dash::text
