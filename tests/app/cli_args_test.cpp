// The CLI's strict number reader (app/cli_args.h), table-driven: what each option number accepts and refuses.
#include <gtest/gtest.h>

#include <climits>
#include <optional>
#include <string>

#include "cli_args.h"

namespace fp8dash::cli {
namespace {

TEST(CliArgs, StrictDouble) {
    struct Case {
        const char* text;
        std::optional<double> value;
    };
    const Case cases[] = {
        {"0.5", 0.5},
        {"1", 1.0},
        {"-2.25", -2.25},
        {"1e3", 1000.0},
        {"0x10", 16.0},
        {" 0.5", 0.5},  // leading blanks are skipped, as strtod does
        {"", std::nullopt},
        {"0.5 ", std::nullopt},
        {"0.5%", std::nullopt},
        {"x", std::nullopt},
        {".", std::nullopt},
        {"inf", std::nullopt},
        {"-infinity", std::nullopt},
        {"nan", std::nullopt},
        {"1e999", std::nullopt},  // overflow
        {"1,5", std::nullopt},    // no locale decimal comma
    };
    for (const Case& c : cases) {
        const auto v = strictDouble(c.text);
        ASSERT_EQ(v.has_value(), c.value.has_value()) << '"' << c.text << '"';
        if (v) EXPECT_EQ(*v, *c.value) << '"' << c.text << '"';
    }
}

TEST(CliArgs, StrictInteger) {
    struct Case {
        const char* text;
        long long min, max;
        std::optional<long long> value;
    };
    const Case cases[] = {
        {"4", 1, 64, 4},
        {"1", 1, 64, 1},
        {"64", 1, 64, 64},
        {"65", 1, 64, std::nullopt},
        {"0", 1, 64, std::nullopt},
        {"-3", -5, 5, -3},
        {"007", 1, 64, 7},  // base 10, not octal
        {"2147483647", 1, INT_MAX, INT_MAX},
        {"2147483648", 1, INT_MAX, std::nullopt},
        {"99999999999999999999", 1, LLONG_MAX, std::nullopt},  // overflow
        {"", 1, 64, std::nullopt},
        {"4.0", 1, 64, std::nullopt},
        {"4k", 1, 64, std::nullopt},
        {"0x10", 1, 64, std::nullopt},
        {"4 ", 1, 64, std::nullopt},
    };
    for (const Case& c : cases) {
        const auto v = strictInteger(c.text, c.min, c.max);
        ASSERT_EQ(v.has_value(), c.value.has_value()) << '"' << c.text << '"';
        if (v) EXPECT_EQ(*v, *c.value) << '"' << c.text << '"';
    }
}

}  // namespace
}  // namespace fp8dash::cli
