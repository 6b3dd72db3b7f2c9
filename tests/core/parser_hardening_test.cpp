// Regression tests for what the fuzzers and sanitizers found (issue #7; tests/fuzz/regressions/README.md): each
// input that once crashed, threw through a boundary or broke an invariant now gives a clear error naming the file
// and the field, or reads correctly.
#include <gtest/gtest.h>

#include <string>

#include "fp8dash/core/judge_scores.h"

namespace fp8dash {
namespace {

// judge_scores/csv-windows-1252: a spreadsheet's "CSV" export in Windows-1252 (0x93 and 0x94 are its curly quotes).
TEST(ParserHardening, JudgeCsvThatIsNotUtf8IsRefusedWithTheLineAndByte) {
    const std::string text =
        "id,score,comment\r\nq1,4,\x93"
        "fine\x94\r\nq2,5,ok\r\n";
    auto r = parseJudgeScores(text, "scores.csv");
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().message,
              "scores.csv line 2: byte 6 (0x93) is not UTF-8 text; save the file as UTF-8 (a spreadsheet's \"CSV "
              "UTF-8\")");
}

TEST(ParserHardening, JudgeCsvBadByteOnTheFirstLineAndAtTheStart) {
    auto first = parseJudgeScores("\xFFid,score\nq1,4\n", "a.csv");
    ASSERT_FALSE(first.ok());
    EXPECT_NE(first.error().message.find("a.csv line 1: byte 1 (0xFF)"), std::string::npos) << first.error().message;
    auto header = parseJudgeScores("id,sc\xC3ore\nq1,4\n", "b.csv");  // 0xC3 followed by an ASCII letter
    ASSERT_FALSE(header.ok());
    EXPECT_NE(header.error().message.find("b.csv line 1: byte 6 (0xC3)"), std::string::npos) << header.error().message;
}

// What well-formed UTF-8 is (RFC 3629): overlong forms, surrogates, code points above U+10FFFF and a sequence cut
// off at the end of the file are not; two-, three- and four-byte characters are.
TEST(ParserHardening, JudgeCsvAcceptsUtf8AndRefusesMalformedSequences) {
    const std::string good =
        "id,score,comment\nq1,4,caf\xC3\xA9 \xE2\x80\x9Cok\xE2\x80\x9D \xF0\x9F\x91\x8D\nq2,3,\xC2\xB5s\n";
    auto r = parseJudgeScores(good, "good.csv");
    ASSERT_TRUE(r.ok()) << r.error().message;
    ASSERT_EQ(r->samples.size(), 2u);
    EXPECT_EQ(r->samples[0].fields["comment"], "caf\xC3\xA9 \xE2\x80\x9Cok\xE2\x80\x9D \xF0\x9F\x91\x8D");
    auto c = compareJudgeScores(*r, *r);
    ASSERT_TRUE(c.ok()) << c.error().message;
    EXPECT_NO_THROW((void)judgeComparisonToJson(*c).dump());

    for (const std::string bad :
         {"\xC0\xAF", "\xE0\x80\xAF", "\xED\xA0\x80", "\xF4\x90\x80\x80", "\xF8\x88\x80\x80", "\x80", "\xE2\x80"}) {
        const std::string text = "id,score,comment\nq1,4,x" + bad;  // the last one is cut off at the end
        auto e = parseJudgeScores(text, "bad.csv");
        ASSERT_FALSE(e.ok()) << "accepted the bytes of a " << bad.size() << "-byte malformed sequence";
        EXPECT_NE(e.error().message.find("bad.csv line 2: byte 7"), std::string::npos) << e.error().message;
    }
}

}  // namespace
}  // namespace fp8dash
