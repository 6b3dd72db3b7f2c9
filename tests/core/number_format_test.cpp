// core's number formatter (number_format.h), table-driven: printf's digits, "n/a" for what is not finite, no "-0".
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>

#include "fp8dash/core/number_format.h"

namespace fp8dash {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNan = std::numeric_limits<double>::quiet_NaN();

TEST(NumberFormat, Fixed) {
    struct Case {
        double v;
        int decimals;
        const char* text;
    };
    const Case cases[] = {
        {0.0, 2, "0.00"},
        {-0.0, 2, "0.00"},
        {1.005, 1, "1.0"},
        {2.5, 0, "2"},  // round half even
        {-1.25, 1, "-1.2"},
        {-0.001, 2, "-0.00"},
        {1234.5678, 3, "1234.568"},
        {1e6, 0, "1000000"},
        {0.6581683520865973, 4, "0.6582"},
        {kNan, 2, "n/a"},
        {kInf, 2, "n/a"},
        {-kInf, 0, "n/a"},
    };
    for (const Case& c : cases) EXPECT_EQ(numfmt::fixed(c.v, c.decimals), c.text) << c.v << " " << c.decimals;
}

TEST(NumberFormat, General) {
    struct Case {
        double v;
        int digits;
        const char* text;
    };
    const Case cases[] = {
        {0.5, 6, "0.5"},
        {1.5, 6, "1.5"},
        {100, 6, "100"},
        {1e7, 6, "1e+07"},
        {0.0001234, 3, "0.000123"},
        {-0.0, 6, "0"},
        {123456789, 4, "1.235e+08"},
        {kNan, 6, "n/a"},
        {-kInf, 4, "n/a"},
    };
    for (const Case& c : cases) EXPECT_EQ(numfmt::general(c.v, c.digits), c.text) << c.v << " " << c.digits;
    EXPECT_EQ(numfmt::general(0.25), "0.25");  // six significant digits by default, as "%g"
}

TEST(NumberFormat, Grouped) {
    struct Case {
        std::uint64_t v;
        const char* text;
    };
    const Case cases[] = {
        {0, "0"},
        {7, "7"},
        {999, "999"},
        {1000, "1,000"},
        {65536, "65,536"},
        {131072, "131,072"},
        {1234567, "1,234,567"},
        {18446744073709551615ULL, "18,446,744,073,709,551,615"},
    };
    for (const Case& c : cases) EXPECT_EQ(numfmt::grouped(c.v), c.text) << c.v;
}

}  // namespace
}  // namespace fp8dash
