#pragma once
// The one number formatter of core's renderings (reports, the deck, benchmark and KV texts).
// Rules, decided once:
//  - fixed(v, decimals) is printf's "%.*f"; general(v, digits) is printf's "%.*g" (digits 6: "%g");
//  - a value that is not finite (NaN, ±infinity) reads "n/a": a figure that could not be computed;
//  - grouped(n) writes a count with a ',' between groups of three digits ("1,234,567");
//  - negative zero reads as zero ("0.00", not "-0.00"); a small negative value that rounds to zero keeps its sign
//    ("-0.001" with 2 decimals: "-0.00"), as printf writes it, so that a loss never reads as no change at all;
//  - signedFixed(v, decimals) writes the sign of a figure that is a distance from zero ("+1.2", "-0.7") and none
//    where it rounds to zero ("0.0", never "-0.0" or "+0.0"): a change in standard errors (σ) that rounds to zero
//    is no change in either direction (the Δ% beside it keeps the direction of a small loss).
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

inline std::string signedFixed(double v, int decimals) {
    if (!std::isfinite(v)) return "n/a";
    std::string text = fixed(v, decimals);
    if (text.find_first_not_of("-0.") == std::string::npos) return text[0] == '-' ? text.substr(1) : text;
    return v > 0 ? "+" + text : text;
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
