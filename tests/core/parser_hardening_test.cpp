// Regression tests for what the fuzzers and sanitizers found (tests/fuzz/regressions/README.md): each
// input that once crashed, threw through a boundary or broke an invariant now gives a clear error naming the file
// and the field, or reads correctly.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <sstream>
#include <string>

#include "fp8dash/core/comparison_file.h"
#include "fp8dash/core/json_text.h"
#include "fp8dash/core/judge_scores.h"
#include "fp8dash/core/langfuse_client.h"
#include "fp8dash/core/recovery_file.h"
#include "fp8dash/core/timeline.h"

namespace fp8dash {
namespace {

std::string readRegression(const std::string& name) {
    std::ifstream in(std::string(FP8DASH_SOURCE_DIR) + "/tests/fuzz/regressions/" + name, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

// A timeline-only comparison whose settings span `to - from` seconds at `step`, with Langfuse scores (so that the
// local alert is evaluated at every step).
std::string timelineDocument(double from, double to, double step) {
    Json doc = {{"format", "fp8dash-comparison"},
                {"version", 2},
                {"timeline",
                 {{"settings",
                   {{"quality_source", "langfuse"},
                    {"langfuse_url", "https://langfuse.example"},
                    {"from", from},
                    {"to", to},
                    {"step", step}}},
                  {"quality", {{"labels", Json::object()}, {"t", {from, from + step}}, {"v", {4.2, 4.1}}}}}}};
    return doc.dump();
}

// comparison_file/timeline-range-1.5e9-steps.fp8cmp: the demo's timeline with "to" grown two digits; opening it
// evaluated the alert at 1.5 billion times and ran out of memory. Now the file is refused, naming the field.
TEST(ParserHardening, ComparisonTimelineWithMoreStepsThanAFetchIsRefused) {
    const std::string text = readRegression("comparison_file/timeline-range-1.5e9-steps.fp8cmp");
    ASSERT_FALSE(text.empty());
    auto doc = parseComparisonText(text, "review.fp8cmp");
    ASSERT_FALSE(doc.ok());
    EXPECT_EQ(doc.error().message,
              "review.fp8cmp: field timeline.settings: the range from 1795615200 to 179580960080 at a step of 120 s "
              "has 1.48e+09 evaluation times, more than 5000000; raise the step");
}

TEST(ParserHardening, ComparisonTimelineStepsUpToTheFetchLimitAreRead) {
    // 5,000,000 evaluation times (the most a fetch asks for) is read; one more is not.
    auto most = parseComparisonText(timelineDocument(0, 4999999, 1), "most.fp8cmp");
    ASSERT_TRUE(most.ok()) << most.error().message;
    ASSERT_TRUE(most->timeline.has_value());
    EXPECT_EQ(most->timeline->settings.to, 4999999);
    auto over = parseComparisonText(timelineDocument(0, 5000000, 1), "over.fp8cmp");
    ASSERT_FALSE(over.ok());
    EXPECT_NE(over.error().message.find("over.fp8cmp: field timeline.settings: the range from 0 to 5000000 at a "
                                        "step of 1 s has 5e+06 evaluation times"),
              std::string::npos)
        << over.error().message;
}

// recovery_file/timeline-13-years-at-120-s.fp8recovery: the demo's recovery record with the timeline's "from" moved to
// 2013: 3.45 million evaluation times of the local alert, within the limit. Opening it took over 10 s under the
// sanitizers (a libFuzzer timeout) while the alert was evaluated window by window; in linear time it opens, and the
// alert episodes are those of the same grid cut to the days around the samples (no samples, no alert, before them).
TEST(ParserHardening, RecoveryFileWithAThirteenYearTimelineOpensWithTheSameAlerts) {
    const std::string text = readRegression("recovery_file/timeline-13-years-at-120-s.fp8recovery");
    ASSERT_FALSE(text.empty());
    auto longRange = parseRecoveryText(text, "r.fp8recovery");
    ASSERT_TRUE(longRange.ok()) << longRange.error().message;
    const TimelineData& whole = *longRange->document.timeline;
    ASSERT_EQ(whole.alertsEvaluatedBy, "local");
    EXPECT_GT((whole.settings.to - whole.settings.from) / whole.settings.step, 3.4e6);

    Json cut = Json::parse(text);
    Json& settings = cut["document"]["timeline"]["settings"];
    const double from = settings["from"].get<double>(), step = settings["step"].get<double>();
    const double firstSample = whole.quality->samples.front().t;
    settings["from"] = from + std::floor((firstSample - 3 * 86400 - from) / step) * step;  // the same grid
    cut["document"]["timeline"].erase("alerts");
    auto shortRange = parseRecoveryText(cut.dump(), "cut.fp8recovery");
    ASSERT_TRUE(shortRange.ok()) << shortRange.error().message;
    EXPECT_FALSE(whole.alerts.empty());  // the last scores fall below the day's mean by more than the margin
    EXPECT_EQ(whole.alerts, shortRange->document.timeline->alerts);
}

// comparison_file/alert-window-1.8e58-seconds.fp8cmp: the demo's timeline with rule.short_window_s = 1.8e58; the
// alert's millisecond arithmetic overflowed (UBSan: signed integer overflow in evaluateAlertCondition).
TEST(ParserHardening, ComparisonAlertWindowsAndTimesMustFitTheAlertArithmetic) {
    auto doc = parseComparisonText(readRegression("comparison_file/alert-window-1.8e58-seconds.fp8cmp"), "w.fp8cmp");
    ASSERT_FALSE(doc.ok());
    EXPECT_EQ(doc.error().message,
              "w.fp8cmp: field timeline.settings.rule.short_window_s must be a duration from 0 to 1e12 seconds (got "
              "1.8005555555555556e+58)");

    Json j = Json::parse(timelineDocument(0, 3600, 60));
    j["timeline"]["settings"]["rule"] = {{"hold_for_s", -1}};
    auto negative = parseComparisonText(j.dump(), "n.fp8cmp");
    ASSERT_FALSE(negative.ok());
    EXPECT_EQ(negative.error().message,
              "n.fp8cmp: field timeline.settings.rule.hold_for_s must be a duration from 0 to 1e12 seconds (got -1)");

    j = Json::parse(timelineDocument(1e300, 2e300, 1e300));
    auto far = parseComparisonText(j.dump(), "f.fp8cmp");
    ASSERT_FALSE(far.ok());
    EXPECT_NE(far.error().message.find("f.fp8cmp: field timeline.settings: from and to must be unix seconds within "
                                       "+-1e12"),
              std::string::npos)
        << far.error().message;

    j = Json::parse(timelineDocument(0, 3600, 60));
    j["timeline"]["settings"]["change_at"] = -5e12;
    auto change = parseComparisonText(j.dump(), "c.fp8cmp");
    ASSERT_FALSE(change.ok());
    EXPECT_EQ(change.error().message,
              "c.fp8cmp: field timeline.settings.change_at must be unix seconds within +-1e12 (got -5000000000000)");

    // The longest window allowed still evaluates (no samples fall in it twice; the alert never fires).
    j = Json::parse(timelineDocument(0, 3600, 60));
    j["timeline"]["settings"]["rule"] = {{"short_window_s", 1e12}, {"long_window_s", 1e12}, {"offset_s", 1e12}};
    auto longest = parseComparisonText(j.dump(), "l.fp8cmp");
    ASSERT_TRUE(longest.ok()) << longest.error().message;
    EXPECT_TRUE(longest->timeline->alerts.empty());
}

// The live fetch with Langfuse scores alone had no Prometheus to refuse such a range: refused before any request.
TEST(ParserHardening, LangfuseOnlyTimelineFetchRefusesTooManySteps) {
    TimelineSettings st;
    st.fetchThroughput = false;
    st.qualitySource = QualitySource::Langfuse;
    st.langfuseUrl = "http://127.0.0.1:9";  // never reached
    st.from = 0;
    st.to = 1e10;
    st.step = 1;
    auto r = fetchTimeline(st, {}, {});
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().message,
              "the range from 0 to 10000000000 at a step of 1 s has 1e+10 evaluation times, more than 5000000; raise "
              "the step");
}

// judge_scores/csv-windows-1252: a spreadsheet's "CSV" export in Windows-1252 (0x93 and 0x94 are its curly quotes).
// judge_scores/all-zero-on-0-10: a score file whose every score is 0 on a 0-10 scale, compared with itself (the fuzz
// target's invariant "no change", too strict): the comparison is refused, saying why and naming the file; a score
// above 0 on either side makes it a comparison again.
TEST(ParserHardening, JudgeScoresAllZeroOnAZeroToTenScaleCannotGiveADegradationInPercent) {
    std::string text = readRegression("judge_scores/all-zero-on-0-10");
    ASSERT_EQ(text.front(), '\x07');  // the target's first byte: JSON Lines by extension, the 0-10 scale
    text.erase(0, 1);
    JudgeOptions options;
    options.scale = JudgeScale{0, 10};
    options.bootstrapIterations = 50;
    auto scores = parseJudgeScores(text, "scores.jsonl", options.scale);
    ASSERT_TRUE(scores.ok()) << scores.error().message;
    auto c = compareJudgeScores(*scores, *scores, options);
    ASSERT_FALSE(c.ok());
    EXPECT_EQ(c.error().message,
              "scores.jsonl: the mean baseline score is 0; a degradation in % needs a positive baseline mean");
    auto some =
        parseJudgeScores("{\"id\": \"a\", \"score\": 0}\n{\"id\": \"b\", \"score\": 2}\n", "two.jsonl", options.scale);
    ASSERT_TRUE(some.ok()) << some.error().message;
    auto same = compareJudgeScores(*some, *some, options);
    ASSERT_TRUE(same.ok()) << same.error().message;
    EXPECT_EQ(same->degradationPct, 0);
}

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

// Issue 26: the readers that keep nlohmann's own tree (Langfuse's pages, the judge's endpoints) refuse a key repeated
// in one object as the shared reader does, naming it; what is no JSON at all stays theirs to describe.
TEST(ParserHardening, AServerAnswerWithARepeatedKeyIsRefusedNamingIt) {
    const std::string where = "GET https://langfuse.example/api/public/v2/scores";
    const std::string ok = R"({"data": [{"id": "s1", "value": 4}], "meta": {"page": 1, "totalPages": 1}})";
    auto read = parseAnswerJson(ok, where);
    ASSERT_TRUE(read.ok()) << read.error().message;
    EXPECT_EQ(*read, nlohmann::json::parse(ok));
    auto html = parseAnswerJson("<html>502 Bad Gateway</html>", where);
    ASSERT_TRUE(html.ok());
    EXPECT_TRUE(html->is_discarded());
    auto htmlPage = parseLangfuseScoresPage("<html>502 Bad Gateway</html>", {}, where);
    ASSERT_FALSE(htmlPage.ok());
    EXPECT_NE(htmlPage.error().message.find("the response is not a JSON object"), std::string::npos);
    // The second score holds its value twice: 1, then 5.
    const std::string repeated =
        R"({"data": [{"id": "s1", "value": 4}, {"id": "s2", "value": 1, "value": 5}], "meta": {"totalPages": 1}})";
    auto page = parseLangfuseScoresPage(repeated, {}, where);
    ASSERT_FALSE(page.ok());
    EXPECT_EQ(page.error().message.rfind(where + ": data[1]: key \"value\" appears twice (", 0), 0u)
        << page.error().message;
    auto ordered = parseAnswerOrderedJson(R"({"id": "s1", "score": 2, "score": 5})", "scores.jsonl line 3");
    ASSERT_FALSE(ordered.ok());
    EXPECT_EQ(ordered.error().message.rfind("scores.jsonl line 3: key \"score\" appears twice at the top level", 0), 0u)
        << ordered.error().message;
}

// langfuse_page/total-pages-1e300: meta.totalPages was converted to long whatever its size (undefined behaviour for
// 1e300, reported by UBSan); the page count must be one a server can have.
TEST(ParserHardening, LangfuseTotalPagesBeyondAnyServerIsAnError) {
    const std::string where = "GET https://langfuse.example/api/public/v2/scores";
    auto huge = parseLangfuseScoresPage(R"({"data": [], "meta": {"totalPages": 1e300}})", {}, where);
    ASSERT_FALSE(huge.ok());
    EXPECT_EQ(huge.error().message, where + ": meta.totalPages is not a page count: 1e+300");
    auto big = parseLangfuseScoresPage(R"({"data": [], "meta": {"totalPages": 4294967296}})", {}, where);
    ASSERT_FALSE(big.ok());
    EXPECT_NE(big.error().message.find("meta.totalPages is not a page count: 4294967296"), std::string::npos);
    // The largest page count that is kept, and an ordinary one.
    auto most = parseLangfuseScoresPage(R"({"data": [], "meta": {"totalPages": 2147483647}})", {}, where);
    ASSERT_TRUE(most.ok()) << most.error().message;
    EXPECT_EQ(most->totalPages, 2147483647L);
    auto two = parseLangfuseScoresPage(R"({"data": [], "meta": {"page": 1, "totalPages": 2}})", {}, where);
    ASSERT_TRUE(two.ok()) << two.error().message;
    EXPECT_EQ(two->totalPages, 2L);
    EXPECT_EQ(two->items, 0u);
}

}  // namespace
}  // namespace fp8dash
