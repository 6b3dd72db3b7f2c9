// Bounded work from hostile servers and files (issue 26, finding 8 and part of 9): a Langfuse server that repeats
// its cursor or its page ends the read at once, and what a read gathers is counted as pages arrive; a Prometheus
// answer's series and points are counted while it is read, and a range answer's samples outside the range, at a
// repeated time or out of order are repaired with a notice; a sample log with NUL bytes is refused at once. The
// servers are the loopback stand-ins the other tests use (the Langfuse one following the published API, here told
// to repeat itself); every expectation is computed from what the test served.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fp8dash/core/comparison_file.h"
#include "fp8dash/core/demo.h"
#include "fp8dash/core/judge_scores.h"
#include "fp8dash/core/langfuse_client.h"
#include "fp8dash/core/langfuse_judge.h"
#include "fp8dash/core/prometheus_client.h"
#include "fp8dash/core/sample_logs.h"
#include "langfuse_test_server.h"
#include "test_http_server.h"
#include "test_paths.h"

namespace fp8dash {
namespace {

using test::LangfuseSeedScore;
using test::LangfuseTestServer;
using test::TestHttpServer;
using Personality = LangfuseTestServer::Personality;
using Repeats = LangfuseTestServer::Options::Repeats;

constexpr double kT0 = 1795824000;  // 2026-11-28T00:00:00Z

bool has(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

// n scores, one a minute, each of its own trace tagged "precision:fp8".
std::vector<LangfuseSeedScore> seed(std::size_t n, const std::string& comment = {}) {
    std::vector<LangfuseSeedScore> out;
    for (std::size_t i = 0; i < n; ++i) {
        LangfuseSeedScore s;
        s.id = "score-" + std::to_string(100000 + i);
        s.traceId = "trace-" + std::to_string(100000 + i);
        s.timestamp = kT0 + 60.0 * static_cast<double>(i);
        s.value = 1 + static_cast<double>(i % 5);
        s.traceTags = {"precision:fp8"};
        s.comment = comment;
        out.push_back(std::move(s));
    }
    return out;
}

LangfuseTestServer::Options personality(Personality p, Repeats repeats = Repeats::None) {
    LangfuseTestServer::Options o;
    o.personality = p;
    o.repeats = repeats;
    return o;
}

LangfuseSettings settingsFor(const LangfuseTestServer& server) {
    forgetLangfuseServers();
    LangfuseSettings s;
    s.baseUrl = server.baseUrl();
    s.publicKey = server.options().publicKey;
    s.secretKey = server.options().secretKey;
    s.http.maxRetries = 1;
    return s;
}

std::vector<TestHttpServer::Request> asked(const LangfuseTestServer& server, const std::string& path) {
    std::vector<TestHttpServer::Request> out;
    for (const auto& r : server.requests())
        if (r.path == path) out.push_back(r);
    return out;
}

TEST(LangfuseBounds, ARepeatedCursorEndsTheScoresRead) {
    // The reproduction: a server answering the same cursor forever (100,000 requests and 2.4 GB before).
    LangfuseTestServer server(seed(250), personality(Personality::V4, Repeats::Cursor));
    auto r = LangfuseClient(settingsFor(server)).scores(ScoreQuery{});
    ASSERT_FALSE(r.ok());
    const auto v3 = asked(server, "/api/public/v3/scores");
    ASSERT_EQ(v3.size(), 2u) << r.error().message;  // the first page, then its cursor answered again
    const std::string cursor = v3[1].queryValue("cursor").value_or("");
    ASSERT_FALSE(cursor.empty());
    ASSERT_LE(cursor.size(), 200u);  // named whole (a longer one is cut, with "…")
    const std::string& m = r.error().message;
    EXPECT_TRUE(has(m, server.baseUrl() + "/api/public/v3/scores returned cursor " + cursor + " twice")) << m;
    EXPECT_TRUE(has(m, "the server repeats itself; stopped after 2 pages")) << m;
}

TEST(LangfuseBounds, ARepeatedCursorEndsTheTracesReadByTag) {
    // More traces than one observations page (1000) holds, so the first page has a cursor.
    LangfuseTestServer server(seed(1100), personality(Personality::V4, Repeats::Cursor));
    ScoreQuery q;
    q.traceTags = {"precision:fp8"};
    auto r = LangfuseClient(settingsFor(server)).scores(q);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(asked(server, "/api/public/v2/observations").size(), 2u) << r.error().message;
    EXPECT_TRUE(has(r.error().message, "/api/public/v2/observations returned cursor ")) << r.error().message;
    EXPECT_TRUE(has(r.error().message, "stopped after 2 pages")) << r.error().message;
}

TEST(LangfuseBounds, ARepeatedPageEndsTheOffsetReads) {
    // Servers that ignore `page` and claim a billion items: the scores list (v2 and the legacy one) and /traces.
    struct Case {
        Personality personality;
        std::vector<std::string> tags;
        std::string path;
    };
    const Case cases[] = {{Personality::V3Before180, {}, "/api/public/v2/scores"},
                          {Personality::PreV353, {}, "/api/public/scores"},
                          {Personality::V3WithV2, {"precision:fp8"}, "/api/public/traces"}};
    for (const auto& c : cases) {
        LangfuseTestServer server(seed(150), personality(c.personality, Repeats::Page));
        ScoreQuery q;
        q.traceTags = c.tags;
        auto r = LangfuseClient(settingsFor(server)).scores(q);
        ASSERT_FALSE(r.ok()) << c.path;
        const auto pages = asked(server, c.path);
        ASSERT_EQ(pages.size(), 2u) << r.error().message;
        EXPECT_EQ(pages[1].queryValue("page"), "2");
        // The page served twice held the first 100 (the list's limit) of what the server had.
        EXPECT_TRUE(has(r.error().message, server.baseUrl() + c.path + " returned the same page of 100 items twice"))
            << r.error().message;
        EXPECT_TRUE(has(r.error().message, "stopped after 2 pages")) << r.error().message;
    }
}

TEST(LangfuseBounds, TheJudgesLangfuseReadStopsToo) {
    LangfuseTestServer server(seed(250), personality(Personality::V4, Repeats::Cursor));
    LangfuseJudgeQuery q;
    auto r = fetchJudgeScoresFromLangfuse(settingsFor(server), q, JudgeScale{});
    ASSERT_FALSE(r.ok());
    EXPECT_TRUE(has(r.error().message, "twice: the server repeats itself")) << r.error().message;
    EXPECT_EQ(asked(server, "/api/public/v3/scores").size(), 2u);
}

TEST(LangfuseBounds, ScoresAreCountedAsPagesArrive) {
    // An honest server with more scores than the budget: the read stops on the page that passes it, not at the end.
    const std::size_t budget = 150, limit = 100;
    LangfuseTestServer server(seed(1000), personality(Personality::V4));
    ScoreQuery q;
    q.maxScores = budget;
    auto r = LangfuseClient(settingsFor(server)).scores(q);
    ASSERT_FALSE(r.ok());
    const std::size_t pages = budget / limit + 1;  // the first page whose scores pass the budget
    EXPECT_EQ(asked(server, "/api/public/v3/scores").size(), pages) << r.error().message;
    EXPECT_TRUE(has(r.error().message, "holds more than 150 scores, the limit of one read; stopped after " +
                                           std::to_string(pages) + " pages"))
        << r.error().message;
}

TEST(LangfuseBounds, CommentBytesAreCountedAsPagesArrive) {
    // Long comments (std::bad_alloc before): the bytes of ids and comments have a budget of their own.
    const std::string comment(20000, 'c');
    const auto seeded = seed(600, comment);
    const std::size_t budget = 3'000'000;
    LangfuseTestServer server(seeded, personality(Personality::V4));
    ScoreQuery q;
    q.maxTextBytes = budget;
    auto r = LangfuseClient(settingsFor(server)).scores(q);
    ASSERT_FALSE(r.ok());
    // Pages of 100, newest first: the page on which the running sum of text passes the budget.
    std::vector<LangfuseSeedScore> newest = seeded;
    std::reverse(newest.begin(), newest.end());
    std::size_t bytes = 0, pages = 0;
    for (std::size_t i = 0; i < newest.size() && bytes <= budget; ++i) {
        if (i % 100 == 0) ++pages;
        bytes +=
            newest[i].id.size() + newest[i].traceId.size() + newest[i].comment.size() + std::string("NUMERIC").size();
    }
    EXPECT_EQ(asked(server, "/api/public/v3/scores").size(), pages) << r.error().message;
    EXPECT_TRUE(has(r.error().message, "holds more than 3,000,000 bytes of score ids and comments"))
        << r.error().message;
}

// --- Prometheus ---------------------------------------------------------------------------------------------------

std::string tinySeries(std::size_t n) {
    std::string body = R"({"status":"success","data":{"resultType":"matrix","result":[)";
    for (std::size_t i = 0; i < n; ++i)
        body += (i ? "," : "") + (R"({"metric":{"i":")" + std::to_string(i) + R"("},"values":[[1,"1"]]})");
    return body + "]}}";
}

TEST(PrometheusBounds, ManyTinySeriesStopWhileCounting) {
    // The reproduction scaled down: tiny series past the budget. The answer is cut off after them, so only a reader
    // that stops at the limit (before the end, before any tree) gives the budget's error; one that builds first
    // reports the cut.
    PrometheusBudget budget;
    budget.maxSeries = 1000;
    const std::string big = tinySeries(200000);  // ~7 MB: over the size counted before any tree
    ASSERT_GT(big.size(), std::size_t{4} << 20);
    auto r = parsePrometheusResponse(big.substr(0, big.size() - 100), 200, "http://p/api/v1/query_range", budget,
                                     "count by (i) (x)");
    ASSERT_FALSE(r.ok());
    EXPECT_TRUE(has(r.error().message,
                    "Prometheus at http://p/api/v1/query_range: the answer to \"count by (i) (x)\" "
                    "holds more than 1,000 series"))
        << r.error().message;

    // Small answers over the budget: every reader counts (the fast one, and the general one that a warning which is
    // not a string sends the answer to).
    const std::string small = tinySeries(1001);
    for (const std::string& body : {small, R"({"warnings":[1],)" + small.substr(1)}) {
        auto s = parsePrometheusResponse(body, 200, "http://p", budget);
        ASSERT_FALSE(s.ok());
        EXPECT_TRUE(has(s.error().message, "more than 1,000 series")) << s.error().message;
    }
    EXPECT_TRUE(parsePrometheusResponse(tinySeries(1000), 200, "http://p", budget).ok());
}

TEST(PrometheusBounds, PointsAreCountedAcrossTheParts) {
    // Each part of a chunked range query is within the budget; together they are not.
    TestHttpServer server([](const TestHttpServer::Request& r) {
        const long start = std::stol(*r.queryValue("start")), end = std::stol(*r.queryValue("end"));
        std::string values;
        for (long t = start; t <= end; t += 10)
            values += (values.empty() ? "" : ",") + ("[" + std::to_string(t) + ",\"1\"]");
        return TestHttpServer::Reply::json(
            200, R"({"status":"success","data":{"resultType":"matrix","result":[{"metric":{},"values":[)" + values +
                     "]}]}}");
    });
    PrometheusSettings s;
    s.baseUrl = server.baseUrl();
    s.maxPointsPerQuery = 10;
    s.budget.maxPoints = 25;
    auto r = PrometheusClient(s).queryRange("up", 1000, 1290, 10, {}, 1);  // 30 points in 3 parts of 10
    ASSERT_FALSE(r.ok());
    EXPECT_TRUE(has(r.error().message, "the answer to \"up\" holds more than 25 points")) << r.error().message;
    EXPECT_TRUE(has(r.error().message, server.baseUrl() + "/api/v1/query_range")) << r.error().message;
    s.budget.maxPoints = 30;
    EXPECT_TRUE(PrometheusClient(s).queryRange("up", 1000, 1290, 10, {}, 1).ok());
}

TEST(PrometheusBounds, SamplesOutsideRepeatedAndUnorderedAreRepairedWithNotices) {
    // A server that answers [start, end] = [1000, 1100] with samples before and after it, a time twice (values 7
    // then 8) and times out of order.
    const std::vector<std::pair<double, double>> served = {{990, 1},  {1000, 2}, {1020, 3}, {1010, 4}, {1040, 7},
                                                           {1040, 8}, {1030, 5}, {1100, 6}, {1110, 9}};
    TestHttpServer server([&](const TestHttpServer::Request&) {
        std::string values;
        for (const auto& [t, v] : served)
            values += (values.empty() ? "" : ",") + ("[" + std::to_string(static_cast<long>(t)) + ",\"" +
                                                     std::to_string(static_cast<long>(v)) + "\"]");
        return TestHttpServer::Reply::json(200, R"({"status":"success","data":{"resultType":"matrix","result":[)"
                                                R"({"metric":{"job":"vllm"},"values":[)" +
                                                    values + "]}]}}");
    });
    PrometheusSettings s;
    s.baseUrl = server.baseUrl();
    auto r = PrometheusClient(s).queryRange("q", 1000, 1100, 10);
    ASSERT_TRUE(r.ok()) << r.error().message;
    // Expected: in range, ordered by time (stably), the first sample sent at each time.
    std::vector<std::pair<double, double>> expected;
    std::size_t outside = 0, repeated = 0;
    for (const auto& sv : served) {
        if (sv.first < 1000 || sv.first > 1100) {
            ++outside;
            continue;
        }
        if (std::any_of(expected.begin(), expected.end(), [&](const auto& e) { return e.first == sv.first; })) {
            ++repeated;
            continue;
        }
        expected.push_back(sv);
    }
    std::sort(expected.begin(), expected.end());
    ASSERT_EQ(r->series.size(), 1u);
    std::vector<std::pair<double, double>> got;
    for (const Sample& x : r->series[0].samples) got.emplace_back(x.t, x.v);
    EXPECT_EQ(got, expected);
    ASSERT_EQ(r->notices.size(), 3u);
    const std::string at = "Prometheus at " + server.baseUrl() + "/api/v1/query_range: ";
    EXPECT_EQ(r->notices[0], at + std::to_string(outside) +
                                 " samples of 1 series (e.g. {job=\"vllm\"}) lay outside the requested range 1000 to "
                                 "1100 and were dropped");
    EXPECT_TRUE(has(r->notices[1], at) && has(r->notices[1], "came out of time order and were sorted"))
        << r->notices[1];
    EXPECT_EQ(r->notices[2], at + std::to_string(repeated) +
                                 " sample of 1 series (e.g. {job=\"vllm\"}) repeated a time already sent; the first "
                                 "sample sent at each time was kept");

    // A server as documented gets no notice.
    TestHttpServer honest([](const TestHttpServer::Request&) {
        return TestHttpServer::Reply::json(200, R"({"status":"success","data":{"resultType":"matrix","result":[)"
                                                R"({"metric":{},"values":[[1000,"1"],[1010,"2"]]}]}})");
    });
    s.baseUrl = honest.baseUrl();
    auto clean = PrometheusClient(s).queryRange("q", 1000, 1010, 10);
    ASSERT_TRUE(clean.ok()) << clean.error().message;
    EXPECT_TRUE(clean->notices.empty());
}

// --- Values in a file that set work ---------------------------------------------------------------------------------

TEST(FileWorkBounds, BootstrapIterationsAreBoundedToWhatFp8dashWrites) {
    // The reproduction: a comparison file asking for 10,000,000 bootstrap iterations (93 s of `report` at 1,000
    // pairs). What fp8dash writes (the demo, saved by toJson) reads back; ten times that too; more is refused.
    auto demo = loadDemoComparison();
    ASSERT_TRUE(demo.ok()) << demo.error().message;
    ASSERT_TRUE(demo->judge.has_value());
    const Json written = toJson(*demo);
    const auto& iterations = written["judge"]["bootstrap"]["iterations"];
    ASSERT_TRUE(iterations.is_number_integer());
    EXPECT_EQ(iterations.get<int>(), JudgeOptions{}.bootstrapIterations);
    for (const long long n :
         {10LL * JudgeOptions{}.bootstrapIterations, 10'000'000LL, 10LL * kMaxBootstrapIterations}) {
        Json j = written;
        j["judge"]["bootstrap"]["iterations"] = n;
        auto r = parseComparisonJson(j, "shared.fp8cmp");
        if (n <= kMaxBootstrapIterations) {
            ASSERT_TRUE(r.ok()) << r.error().message;
            EXPECT_EQ(r->judge->options.bootstrapIterations, n);
        } else {
            ASSERT_FALSE(r.ok()) << n;
            EXPECT_TRUE(has(r.error().message, "judge.bootstrap.iterations must be an integer from 1 to 100000"))
                << r.error().message;
            EXPECT_TRUE(has(r.error().message, "not " + std::to_string(n))) << r.error().message;
        }
    }
}

// --- Sample logs --------------------------------------------------------------------------------------------------

TEST(SampleLogBounds, ALineOfNulBytesIsRefusedAtOnce) {
    // The reproduction: a log whose end is 2 GiB of NUL bytes (a file cut short and zero-filled). ftruncate extends
    // it without writing a byte, so the test costs no disk; before, the run of NULs was gathered whole as one line.
    test::TempDir dir;
    const auto file = dir.path() / "samples_t_2026-01-01T00-00-00.jsonl";
    const std::size_t rows = 3000;  // more than one 1 MB chunk of lines before the NULs
    {
        std::ofstream out(file, std::ios::binary);
        for (std::size_t i = 0; i < rows; ++i)
            out << "{\"doc_id\": " << i << ", \"filter\": \"none\", \"acc\": " << (i % 2) << ", \"pad\": \""
                << std::string(400, 'x') << "\"}\n";
    }
    const auto written = std::filesystem::file_size(file);
    ASSERT_EQ(::truncate(file.c_str(), static_cast<off_t>(written + (std::uint64_t{2} << 30))), 0);
    SampleTaskInfo info;
    info.task = "t";
    info.filters = {"none"};
    info.filtersFromConfig = true;
    auto log = readSampleLog(file, info);
    ASSERT_FALSE(log.ok());
    EXPECT_EQ(log.error().message, file.string() + " line " + std::to_string(rows + 1) + ": a NUL byte (at byte " +
                                       std::to_string(written) +
                                       " of the file): not JSON Lines; the file is damaged (cut short and "
                                       "zero-filled?)");

    // A NUL inside a line is refused with that line too.
    const auto inside = dir.path() / "samples_u_2026-01-01T00-00-00.jsonl";
    {
        std::ofstream out(inside, std::ios::binary);
        out << "{\"doc_id\": 0, \"filter\": \"none\", \"acc\": 1}\n{\"doc_id\": 1, \"filter\": \"none\"";
        out.put('\0');
        out << ", \"acc\": 1}\n";
    }
    auto bad = readSampleLog(inside, info);
    ASSERT_FALSE(bad.ok());
    EXPECT_TRUE(has(bad.error().message, inside.string() + " line 2: a NUL byte")) << bad.error().message;
}

}  // namespace
}  // namespace fp8dash
