// The ui's number formatter, table-driven: each row's expected text is written out by hand from the rules in
// number_text.h (not produced by the code).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "fp8dash/ui/number_text.h"

namespace fp8dash::ui::test {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

struct Row {
    double v;
    int decimals;
    NonFinite nonFinite;
    const char* fixed;  // UTF-8
    const char* signed_;
};

const Row kRows[] = {
    {1.5, 2, NonFinite::Dash, "1.50", "+1.50"},
    {-2.5949, 2, NonFinite::Dash, "-2.59", "−2.59"},
    {0.0, 2, NonFinite::Dash, "0.00", "0.00"},
    {-0.0, 2, NonFinite::Dash, "0.00", "0.00"},
    {-0.004, 2, NonFinite::Dash, "0.00", "0.00"},  // rounds to zero: no sign
    {0.004, 2, NonFinite::Dash, "0.00", "0.00"},
    {-0.005001, 2, NonFinite::Dash, "-0.01", "−0.01"},             // rounds away from zero: signed
    {1234567.891, 1, NonFinite::Dash, "1234567.9", "+1234567.9"},  // no grouping
    {0.7596, 4, NonFinite::Dash, "0.7596", "+0.7596"},
    {42.0, 0, NonFinite::Dash, "42", "+42"},
    {kNaN, 2, NonFinite::Dash, "—", "—"},
    {kInf, 2, NonFinite::Dash, "—", "—"},
    {-kInf, 2, NonFinite::Dash, "—", "—"},
    {kNaN, 2, NonFinite::Spelled, "NaN", "NaN"},
    {kInf, 3, NonFinite::Spelled, "+∞", "+∞"},
    {-kInf, 3, NonFinite::Spelled, "−∞", "−∞"},
    {-1.0, 3, NonFinite::Spelled, "-1.000", "−1.000"},
};

TEST(NumberTextTest, EveryRowFollowsTheRules) {
    for (const Row& r : kRows) {
        SCOPED_TRACE(testing::Message() << r.v << " with " << r.decimals << " decimals");
        EXPECT_EQ(fixedText(r.v, r.decimals, r.nonFinite), QString::fromUtf8(r.fixed));
        EXPECT_EQ(signedText(r.v, r.decimals, r.nonFinite), QString::fromUtf8(r.signed_));
    }
}

}  // namespace
}  // namespace fp8dash::ui::test
