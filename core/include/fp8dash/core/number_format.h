#pragma once
// The one number formatter of core's renderings (reports, the deck, benchmark and KV texts).
// Rules, decided once:
//  - fixed(v, decimals) is printf's "%.*f"; general(v, digits) is printf's "%.*g" (digits 6: "%g");
//  - a value that is not finite (NaN, ±infinity) reads "n/a": a figure that could not be computed;
//  - grouped(n) writes a count with a ',' between groups of three digits ("1,234,567");
//  - negative zero reads as zero ("0.00", not "-0.00"); a small negative value that rounds to zero keeps its sign
//    ("-0.001" with 2 decimals: "-0.00"), as printf writes it, so that a loss never reads as no change at all.
// Locale-independent: core never sets LC_NUMERIC, so printf's decimal point is '.'.

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>

namespace fp8dash::numfmt {

inline std::string fixed(double v, int decimals) {
    if (!std::isfinite(v)) return "n/a";
    char buf[400];                                              // "%.*f" of 1e308 with a few decimals fits
    std::snprintf(buf, sizeof buf, "%.*f", decimals, v + 0.0);  // + 0.0 turns -0.0 into 0.0
    return buf;
}

inline std::string general(double v, int digits = 6) {
    if (!std::isfinite(v)) return "n/a";
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*g", digits, v + 0.0);
    return buf;
}

inline std::string grouped(std::uint64_t v) {
    const std::string digits = std::to_string(v);
    std::string out;
    for (std::size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
        out += digits[i];
    }
    return out;
}

}  // namespace fp8dash::numfmt
