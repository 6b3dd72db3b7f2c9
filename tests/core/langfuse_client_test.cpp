// LangfuseClient against a loopback server that follows Langfuse's published scores API (pagination, filters,
// auth, rate limits, old servers, malformed bodies), plus the ISO 8601 conversions.
#include "fp8dash/core/langfuse_client.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <map>
#include <set>

#include "langfuse_test_server.h"
#include "test_http_server.h"

namespace fp8dash {
namespace {

using test::LangfuseSeedScore;
using test::LangfuseTestServer;
using test::TestHttpServer;

constexpr double kT0 = 1795824000;  // 2026-11-28T00:00:00Z (date -u -d @1795824000)

// Every test starts with no server remembered (a later test's loopback server may get an earlier one's port).
class ForgetLangfuseServers : public ::testing::EmptyTestEventListener {
    void OnTestStart(const ::testing::TestInfo&) override { forgetLangfuseServers(); }
};
const bool kForgetting = [] {
    ::testing::UnitTest::GetInstance()->listeners().Append(new ForgetLangfuseServers);
    return true;
}();

// The requests of the score lists: all but the version check (GET /api/public/health, once per server).
std::vector<TestHttpServer::Request> listRequests(const LangfuseTestServer& server) {
    std::vector<TestHttpServer::Request> out;
    for (auto& r : server.requests())
        if (r.path != "/api/public/health") out.push_back(std::move(r));
    return out;
}

// A hand-made server's version check: a v3.53..v3.179 server (offset-paged /api/public/v2/scores).
bool answerHealth(const TestHttpServer::Request& r, TestHttpServer::Reply& reply) {
    if (r.path != "/api/public/health") return false;
    reply = TestHttpServer::Reply(200, R"({"status":"OK","version":"3.120.0"})");
    return true;
}

LangfuseSettings settingsFor(const LangfuseTestServer& server) {
    LangfuseSettings s;
    s.baseUrl = server.baseUrl();
    s.publicKey = server.options().publicKey;
    s.secretKey = server.options().secretKey;
    s.http.maxRetries = 2;
    s.http.retryBaseDelayS = 0.01;
    s.http.totalTimeoutS = 10;
    return s;
}

// n scores, one a minute from kT0, value cycling 1..5, ids "s0000".., alternating precision tags and environments.
std::vector<LangfuseSeedScore> seed(int n) {
    std::vector<LangfuseSeedScore> out;
    for (int i = 0; i < n; ++i) {
        LangfuseSeedScore s;
        char id[16];
        std::snprintf(id, sizeof id, "s%04d", i);
        s.id = id;
        s.traceId = "trace-" + std::to_string(i);
        s.timestamp = kT0 + 60.0 * i + 0.125;
        s.value = 1 + i % 5;
        s.traceTags = {i % 2 ? "precision:fp8" : "precision:bf16", "service:chat"};
        s.environment = i % 3 == 0 ? "staging" : "production";
        out.push_back(s);
    }
    return out;
}

std::set<std::string> ids(const std::vector<Score>& scores) {
    std::set<std::string> out;
    for (const auto& s : scores) out.insert(s.id);
    return out;
}

TEST(LangfuseClientTest, FetchesEveryPageOnceOldestFirst) {
    LangfuseTestServer server(seed(1234));
    std::vector<double> fractions;
    Progress progress;
    progress.report = [&](double f, const std::string&) { fractions.push_back(f); };
    auto r = LangfuseClient(settingsFor(server)).scores(ScoreQuery{}, progress);
    ASSERT_TRUE(r.ok()) << r.error().message;
    ASSERT_EQ(r->size(), 1234u);
    EXPECT_EQ(ids(*r).size(), 1234u);
    for (std::size_t i = 0; i < r->size(); ++i) {
        // Oldest first although the server sends newest first: score i is at kT0 + 60 i (+ 125 ms).
        EXPECT_EQ((*r)[i].id, "s" + std::string(4 - std::to_string(i).size(), '0') + std::to_string(i));
        EXPECT_DOUBLE_EQ((*r)[i].timestamp, kT0 + 60.0 * static_cast<double>(i) + 0.125);
        EXPECT_DOUBLE_EQ((*r)[i].value, 1.0 + static_cast<double>(i % 5));
        EXPECT_EQ((*r)[i].traceId, "trace-" + std::to_string(i));
    }

    // ceil(1234 / 100) = 13 pages, each asked for exactly once, with Basic auth and limit=100.
    const auto requests = listRequests(server);
    ASSERT_EQ(requests.size(), 13u);
    for (std::size_t p = 0; p < requests.size(); ++p) {
        EXPECT_EQ(requests[p].path, "/api/public/v2/scores");
        EXPECT_EQ(requests[p].queryValue("page"), std::to_string(p + 1));
        EXPECT_EQ(requests[p].queryValue("limit"), "100");
        EXPECT_EQ(requests[p].queryValue("name"), "llm_judge_domain");
        // base64("pk-lf-test-1234:sk-lf-test-SECRET-5678"), computed outside the code under test
        EXPECT_EQ(requests[p].header("authorization"), "Basic cGstbGYtdGVzdC0xMjM0OnNrLWxmLXRlc3QtU0VDUkVULTU2Nzg=");
    }
    ASSERT_EQ(fractions.size(), 13u);
    EXPECT_NEAR(fractions.front(), 1.0 / 13, 1e-12);
    EXPECT_DOUBLE_EQ(fractions.back(), 1.0);
    EXPECT_TRUE(std::is_sorted(fractions.begin(), fractions.end()));
}

TEST(LangfuseClientTest, SmallPagesAndAnExactMultiple) {
    LangfuseTestServer server(seed(40));
    ScoreQuery q;
    q.pageSize = 10;
    auto r = LangfuseClient(settingsFor(server)).scores(q);
    ASSERT_TRUE(r.ok()) << r.error().message;
    EXPECT_EQ(r->size(), 40u);
    EXPECT_EQ(listRequests(server).size(), 4u);  // totalPages = 4: no extra request for an empty fifth page
}

TEST(LangfuseClientTest, PageSizeAboveTheLimitIsClampedNotRejected) {
    LangfuseTestServer server(seed(150));
    ScoreQuery q;
    q.pageSize = 500;
    auto r = LangfuseClient(settingsFor(server)).scores(q);
    ASSERT_TRUE(r.ok()) << r.error().message;
    EXPECT_EQ(r->size(), 150u);
    EXPECT_EQ(listRequests(server).at(0).queryValue("limit"), "100");
}

TEST(LangfuseClientTest, TheServerRejectsALimitOver100LikeLangfuse) {
    // The stand-in itself: Langfuse's zod validation answers 400 with the issues.
    LangfuseTestServer server(seed(5));
    HttpOptions o;
    o.auth.kind = HttpAuth::Kind::Basic;
    o.auth.user = server.options().publicKey;
    o.auth.password = server.options().secretKey;
    auto r = HttpClient(o).get(server.baseUrl() + "/api/public/v2/scores", {{"limit", "101"}});
    ASSERT_TRUE(r.ok()) << r.error().message;
    EXPECT_EQ(r->status, 400);
    EXPECT_NE(r->body.find("\"Invalid request data\""), std::string::npos) << r->body;
    EXPECT_NE(r->body.find("\"limit\""), std::string::npos) << r->body;
}

TEST(LangfuseClientTest, EmptyResultIsAnEmptyListAfterOneRequest) {
    LangfuseTestServer server(seed(10));
    ScoreQuery q;
    q.name = "no_such_score";
    auto r = LangfuseClient(settingsFor(server)).scores(q);
    ASSERT_TRUE(r.ok()) << r.error().message;
    EXPECT_TRUE(r->empty());
    EXPECT_EQ(listRequests(server).size(), 1u);
}

TEST(LangfuseClientTest, FiltersAreSentAndAppliedByTheServer) {
    auto scores = seed(300);
    LangfuseSeedScore other = scores[10];
    other.id = "other-name";
    other.name = "helpfulness";
    scores.push_back(other);
    LangfuseTestServer server(scores);

    ScoreQuery q;
    q.from = kT0 + 60 * 20;  // inclusive: s0020 is in
    q.to = kT0 + 60 * 200;   // exclusive, but the scores sit 125 ms after the minute: s0199 is in, s0200 is out
    q.traceTags = {"precision:fp8", "service:chat"};
    q.environments = {"production"};
    q.pageSize = 7;
    auto r = LangfuseClient(settingsFor(server)).scores(q);
    ASSERT_TRUE(r.ok()) << r.error().message;

    std::set<std::string> expected;  // odd i (fp8), i % 3 != 0 (production), 20 <= i < 200
    for (int i = 20; i < 200; ++i)
        if (i % 2 == 1 && i % 3 != 0) {
            char id[16];
            std::snprintf(id, sizeof id, "s%04d", i);
            expected.insert(id);
        }
    EXPECT_EQ(ids(*r), expected);
    EXPECT_EQ(r->size(), expected.size());

    const auto req = listRequests(server).at(0);
    EXPECT_EQ(req.queryValue("name"), "llm_judge_domain");
    EXPECT_EQ(req.queryValue("fromTimestamp"), "2026-11-28T00:20:00.000Z");
    EXPECT_EQ(req.queryValue("toTimestamp"), "2026-11-28T03:20:00.000Z");
    EXPECT_EQ(req.queryValues("traceTags"), (std::vector<std::string>{"precision:fp8", "service:chat"}));
    EXPECT_EQ(req.queryValues("environment"), (std::vector<std::string>{"production"}));
    // ceil(|expected| / 7) pages
    EXPECT_EQ(listRequests(server).size(), (expected.size() + 6) / 7);
}

TEST(LangfuseClientTest, WrongKeysAre401AndTheSecretNeverAppears) {
    LangfuseTestServer server(seed(3));
    LangfuseSettings s = settingsFor(server);
    s.secretKey = "sk-lf-WRONG-very-secret-value";
    auto r = LangfuseClient(s).scores(ScoreQuery{});
    ASSERT_FALSE(r.ok());
    const std::string& m = r.error().message;
    EXPECT_NE(m.find("Langfuse rejected the keys (401)"), std::string::npos) << m;
    EXPECT_NE(m.find(server.baseUrl() + "/api/public/v2/scores"), std::string::npos) << m;
    EXPECT_NE(m.find("Invalid credentials"), std::string::npos) << m;  // Langfuse's own message is passed on
    EXPECT_EQ(m.find("sk-lf-WRONG-very-secret-value"), std::string::npos) << m;
    EXPECT_EQ(listRequests(server).size(), 1u);  // 401 is not retried
}

TEST(LangfuseClientTest, SecretEchoedByAServerIsScrubbed) {
    const std::string secret = "sk-lf-echo-me-please";
    TestHttpServer server([&](const TestHttpServer::Request& r) {
        return TestHttpServer::Reply(
            500, R"({"message":"bad header )" + r.header("authorization").value_or("") + " secret=" + secret + "\"}");
    });
    LangfuseSettings s;
    s.baseUrl = server.baseUrl();
    s.publicKey = "pk-lf-1";
    s.secretKey = secret;
    s.http.maxRetries = 0;
    auto r = LangfuseClient(s).scores(ScoreQuery{});
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error().message.find("HTTP 500"), std::string::npos) << r.error().message;
    EXPECT_EQ(r.error().message.find(secret), std::string::npos) << r.error().message;
    // base64("pk-lf-1:sk-lf-echo-me-please") decodes to the secret: it must not appear either
    EXPECT_EQ(r.error().message.find("cGstbGYtMTpzay1sZi1lY2hvLW1lLXBsZWFzZQ=="), std::string::npos)
        << r.error().message;
}

TEST(LangfuseClientTest, RateLimitedThenSuccessHonoursRetryAfter) {
    LangfuseTestServer::Options o;
    o.rateLimitFirst = 1;
    o.retryAfterS = 1;
    LangfuseTestServer server(seed(250), o);
    const auto start = std::chrono::steady_clock::now();
    auto r = LangfuseClient(settingsFor(server)).scores(ScoreQuery{});
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    ASSERT_TRUE(r.ok()) << r.error().message;
    EXPECT_EQ(r->size(), 250u);
    EXPECT_EQ(listRequests(server).size(), 4u);  // 429, then pages 1..3
    EXPECT_GE(elapsed, 1.0);                     // waited for Retry-After, not the 10 ms backoff
    const auto requests = listRequests(server);
    EXPECT_EQ(requests[0].queryValue("page"), "1");
    EXPECT_EQ(requests[1].queryValue("page"), "1");
}

TEST(LangfuseClientTest, PersistentRateLimitIsAClearError) {
    LangfuseTestServer::Options o;
    o.rateLimitFirst = 100;
    o.retryAfterS = 0;
    LangfuseTestServer server(seed(5), o);
    auto r = LangfuseClient(settingsFor(server)).scores(ScoreQuery{});
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error().message.find("rate limiting"), std::string::npos) << r.error().message;
    EXPECT_NE(r.error().message.find("(429) after 3 attempts"), std::string::npos) << r.error().message;
    EXPECT_EQ(listRequests(server).size(), 3u);
}

TEST(LangfuseClientTest, OlderServerFallsBackToTheLegacyList) {
    LangfuseTestServer::Options o;
    o.legacyOnly = true;
    LangfuseTestServer server(seed(230), o);
    ScoreQuery q;
    q.traceTags = {"precision:bf16"};
    auto r = LangfuseClient(settingsFor(server)).scores(q);
    ASSERT_TRUE(r.ok()) << r.error().message;
    EXPECT_EQ(r->size(), 115u);  // even i in 0..229
    for (const auto& s : *r) EXPECT_EQ(std::stoi(s.id.substr(1)) % 2, 0) << s.id;
    // Its version (3.40.0, before v3.53) sends the client to the legacy list at once: pages 1 and 2.
    const auto requests = server.requests();
    ASSERT_EQ(requests.size(), 3u);
    EXPECT_EQ(requests[0].path, "/api/public/health");
    EXPECT_EQ(requests[1].path, "/api/public/scores");
    EXPECT_EQ(requests[1].queryValue("page"), "1");
    EXPECT_EQ(requests[2].path, "/api/public/scores");
    EXPECT_EQ(requests[2].queryValue("page"), "2");
}

TEST(LangfuseClientTest, LegacyServerCannotFilterByEnvironmentAndSaysSo) {
    LangfuseTestServer::Options o;
    o.legacyOnly = true;
    LangfuseTestServer server(seed(20), o);
    ScoreQuery q;
    q.environments = {"production"};
    auto r = LangfuseClient(settingsFor(server)).scores(q);
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error().message.find("environment"), std::string::npos) << r.error().message;
    EXPECT_NE(r.error().message.find("/api/public/scores"), std::string::npos) << r.error().message;
}

TEST(LangfuseClientTest, ValidationErrorsPassOnLangfusesIssues) {
    TestHttpServer server([](const TestHttpServer::Request&) {
        return TestHttpServer::Reply(
            400, R"({"message":"Invalid request data","error":[{"code":"invalid_string","message":"Invalid datetime",)"
                 R"("path":["fromTimestamp"]}]})");
    });
    LangfuseSettings s;
    s.baseUrl = server.baseUrl();
    s.publicKey = "pk";
    s.secretKey = "sk";
    auto r = LangfuseClient(s).scores(ScoreQuery{});
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error().message.find("(400): Invalid request data; fromTimestamp: Invalid datetime"), std::string::npos)
        << r.error().message;
}

TEST(LangfuseClientTest, NotALangfuseServerIs404Error) {
    TestHttpServer server([](const TestHttpServer::Request&) { return TestHttpServer::Reply(404, "not here"); });
    LangfuseSettings s;
    s.baseUrl = server.baseUrl() + "/";
    s.publicKey = "pk";
    s.secretKey = "sk";
    auto r = LangfuseClient(s).scores(ScoreQuery{});
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error().message.find("404"), std::string::npos) << r.error().message;
    EXPECT_NE(r.error().message.find(server.baseUrl() + "/api/public/scores"), std::string::npos) << r.error().message;
    // No version (health 404): v3, then v2, then the legacy path, each answering 404, each asked once.
    const auto requests = server.requests();
    ASSERT_EQ(requests.size(), 4u);
    EXPECT_EQ(requests[1].path, "/api/public/v3/scores");
    EXPECT_EQ(requests[2].path, "/api/public/v2/scores");
    EXPECT_EQ(requests[3].path, "/api/public/scores");
}

struct MalformedCase {
    LangfuseTestServer::Malformed kind;
    const char* expectedText;
};

class LangfuseMalformedTest : public ::testing::TestWithParam<MalformedCase> {};

TEST_P(LangfuseMalformedTest, NamesTheFieldAndTheUrl) {
    LangfuseTestServer::Options o;
    o.malformed = GetParam().kind;
    LangfuseTestServer server(seed(20), o);
    auto r = LangfuseClient(settingsFor(server)).scores(ScoreQuery{});
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error().message.find(GetParam().expectedText), std::string::npos) << r.error().message;
    EXPECT_NE(r.error().message.find(server.baseUrl() + "/api/public/v2/scores"), std::string::npos)
        << r.error().message;
    EXPECT_EQ(r.error().message.find(server.options().secretKey), std::string::npos);
}

INSTANTIATE_TEST_SUITE_P(
    Bodies, LangfuseMalformedTest,
    ::testing::Values(MalformedCase{LangfuseTestServer::Malformed::NotJson, "not a JSON object"},
                      MalformedCase{LangfuseTestServer::Malformed::ValueNotNumber,
                                    "data[0].value is not a number: \"four point five\""},
                      MalformedCase{LangfuseTestServer::Malformed::BadTimestamp,
                                    "data[0].timestamp is not an ISO 8601 time: \"yesterday at noon\""},
                      MalformedCase{LangfuseTestServer::Malformed::DataNotArray, "no \"data\" list"},
                      MalformedCase{LangfuseTestServer::Malformed::TotalPagesNotNumber,
                                    "meta.totalPages is not a number"}));

TEST(LangfuseClientTest, NumericAndBooleanKeptCategoricalSkipped) {
    auto scores = seed(3);
    scores[1].dataType = "BOOLEAN";
    scores[1].value = 1;
    scores[1].stringValue = "True";
    scores[2].dataType = "CATEGORICAL";
    scores[2].value = 0;
    scores[2].stringValue = "good";
    LangfuseTestServer server(scores);
    auto r = LangfuseClient(settingsFor(server)).scores(ScoreQuery{});
    ASSERT_TRUE(r.ok()) << r.error().message;
    ASSERT_EQ(r->size(), 2u);
    EXPECT_EQ((*r)[0].id, "s0000");
    EXPECT_DOUBLE_EQ((*r)[0].value, 1.0);
    EXPECT_EQ((*r)[1].id, "s0001");
    EXPECT_DOUBLE_EQ((*r)[1].value, 1.0);
}

TEST(LangfuseClientTest, ServerWhosePagesNeverEndIsStoppedWithAClearError) {
    // Always a full page and a huge totalPages: a broken proxy or a server ignoring "page".
    TestHttpServer server([](const TestHttpServer::Request& req) {
        if (TestHttpServer::Reply health; answerHealth(req, health)) return health;
        const std::string page = req.queryValue("page").value_or("1");
        const std::string item = R"({"id":"p)" + page +
                                 R"(","traceId":"t","name":"llm_judge_domain","value":3,)"
                                 R"("dataType":"NUMERIC","timestamp":"2026-11-28T00:00:00.000Z"})";
        const std::string meta =
            R"({"page":)" + page + R"(,"limit":1,"totalItems":1000000000,"totalPages":1000000000})";
        return TestHttpServer::Reply(200, R"({"data":[)" + item + R"(],"meta":)" + meta + "}");
    });
    LangfuseSettings s;
    s.baseUrl = server.baseUrl();
    s.publicKey = "pk";
    s.secretKey = "sk";
    ScoreQuery q;
    q.maxPages = 25;
    auto r = LangfuseClient(s).scores(q);
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error().message.find("after 25 pages"), std::string::npos) << r.error().message;
    EXPECT_EQ(server.requestCount(), 26u);  // the version check, then 25 pages
}

TEST(LangfuseClientTest, DuplicatesAcrossShiftedPagesAreKeptOnce) {
    // Offset pages shift when new scores arrive mid-fetch: page 2 repeats the last score of page 1.
    TestHttpServer server([](const TestHttpServer::Request& req) {
        if (TestHttpServer::Reply health; answerHealth(req, health)) return health;
        const bool first = req.queryValue("page") == "1";
        const std::string item = R"({"id":"%ID%","traceId":"t","name":"llm_judge_domain","value":4,)"
                                 R"("dataType":"NUMERIC","timestamp":"%TS%"})";
        auto make = [&](const std::string& id, const std::string& ts) {
            std::string s = item;
            s.replace(s.find("%ID%"), 4, id);
            s.replace(s.find("%TS%"), 4, ts);
            return s;
        };
        const std::string data = first ? make("b", "2026-11-28T00:02:00Z") + "," + make("a", "2026-11-28T00:01:00Z")
                                       : make("a", "2026-11-28T00:01:00Z") + "," + make("z", "2026-11-28T00:00:00Z");
        return TestHttpServer::Reply(
            200, "{\"data\":[" + data + R"(],"meta":{"page":1,"limit":2,"totalItems":4,"totalPages":2}})");
    });
    LangfuseSettings s;
    s.baseUrl = server.baseUrl();
    s.publicKey = "pk";
    s.secretKey = "sk";
    ScoreQuery q;
    q.pageSize = 2;
    auto r = LangfuseClient(s).scores(q);
    ASSERT_TRUE(r.ok()) << r.error().message;
    ASSERT_EQ(r->size(), 3u);
    EXPECT_EQ((*r)[0].id, "z");
    EXPECT_EQ((*r)[1].id, "a");
    EXPECT_EQ((*r)[2].id, "b");
}

TEST(LangfuseClientTest, CancelStopsBetweenPages) {
    LangfuseTestServer server(seed(1000));
    std::atomic<bool> cancel{false};
    Progress progress;
    progress.cancelled = [&] { return cancel.load(); };
    progress.report = [&](double, const std::string&) { cancel = true; };  // cancel after the first page
    auto r = LangfuseClient(settingsFor(server)).scores(ScoreQuery{}, progress);
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error().message.find("cancelled"), std::string::npos) << r.error().message;
    EXPECT_EQ(listRequests(server).size(), 1u);
}

TEST(LangfuseClientTest, MissingKeysAreAnErrorBeforeAnyRequest) {
    LangfuseTestServer server(seed(1));
    LangfuseSettings s = settingsFor(server);
    s.secretKey.clear();
    auto r = LangfuseClient(s).scores(ScoreQuery{});
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error().message.find("secret key"), std::string::npos) << r.error().message;
    EXPECT_EQ(server.requestCount(), 0u);
}

TEST(LangfuseClientTest, ConnectionRefusedNamesTheUrl) {
    LangfuseSettings s;
    s.baseUrl = "http://127.0.0.1:" + std::to_string(test::closedPort());
    s.publicKey = "pk";
    s.secretKey = "sk-refused-secret";
    s.http.maxRetries = 0;
    auto r = LangfuseClient(s).scores(ScoreQuery{});
    ASSERT_FALSE(r.ok());
    // The first request, the version check, is the one refused.
    EXPECT_NE(r.error().message.find(s.baseUrl + "/api/public/health"), std::string::npos) << r.error().message;
    EXPECT_EQ(r.error().message.find("sk-refused-secret"), std::string::npos);
}

TEST(LangfuseIso8601Test, ParsesLangfuseTimestampsAndOffsets) {
    // Reference values from `date -u -d '2026-11-28T00:00:00Z' +%s` = 1795824000.
    EXPECT_EQ(parseIso8601("2026-11-28T00:00:00Z"), 1795824000.0);
    EXPECT_EQ(parseIso8601("2026-11-28T00:00:00.500Z"), 1795824000.5);
    EXPECT_NEAR(parseIso8601("2026-11-28T00:00:00.123456Z").value_or(0), 1795824000.123456, 1e-6);
    EXPECT_EQ(parseIso8601("2026-11-28T02:00:00+02:00"), 1795824000.0);
    EXPECT_EQ(parseIso8601("2026-11-27T19:30:00-0430"), 1795824000.0);
    EXPECT_EQ(parseIso8601("2026-11-28T05:00:00+05"), 1795824000.0);
    EXPECT_EQ(parseIso8601("2026-11-28 00:00:00"), 1795824000.0);  // no zone: UTC
    EXPECT_EQ(parseIso8601("1970-01-01T00:00:00Z"), 0.0);
    EXPECT_EQ(parseIso8601("2024-02-29T12:00:00Z"), 1709208000.0);  // leap day
    EXPECT_EQ(parseIso8601("1969-12-31T23:59:59.250Z"), -0.75);
}

TEST(LangfuseIso8601Test, RejectsWhatIsNotATime) {
    for (const char* bad :
         {"", "yesterday", "2026-11-28", "2026-13-01T00:00:00Z", "2026-02-30T00:00:00Z", "2025-02-29T00:00:00Z",
          "2026-11-28T24:00:00Z", "2026-11-28T00:60:00Z", "2026-11-28T00:00:00.Z", "2026-11-28T00:00:00Zjunk",
          "2026-11-28T00:00:00+2:00", "+2026-11-28T00:00:00Z", "2026-11-28T00:00"})
        EXPECT_FALSE(parseIso8601(bad).has_value()) << bad;
}

TEST(LangfuseIso8601Test, FormatsWithMillisecondsAndRoundTrips) {
    EXPECT_EQ(toIso8601(1795824000), "2026-11-28T00:00:00.000Z");
    EXPECT_EQ(toIso8601(1795824000.1234), "2026-11-28T00:00:00.123Z");
    EXPECT_EQ(toIso8601(1795824000.9996), "2026-11-28T00:00:01.000Z");  // rounds into the next second
    EXPECT_EQ(toIso8601(0), "1970-01-01T00:00:00.000Z");
    EXPECT_EQ(toIso8601(-0.75), "1969-12-31T23:59:59.250Z");
    EXPECT_EQ(toIso8601(std::nan("")), "");
    for (double t : {0.0, 1.001, 1709208000.5, 1795824000.125, 4102444799.999, -86400.5}) {
        const auto back = parseIso8601(toIso8601(t));
        ASSERT_TRUE(back.has_value()) << t;
        EXPECT_NEAR(*back, t, 1e-6) << toIso8601(t);
    }
    // And the test server's independent formatter agrees with ours.
    EXPECT_EQ(LangfuseTestServer::isoTimestamp(1795824000.125), toIso8601(1795824000.125));
}

TEST(LangfuseScoresToSeriesTest, SortsAscendingAndDropsNonFinite) {
    std::vector<Score> scores = {
        {"c", "t", 300, 3.5}, {"a", "t", 100, 4.0}, {"b", "t", 200, std::nan("")}, {"d", "t", 150, 2.0}};
    const Series s = scoresToSeries(scores, "llm_judge_domain");
    ASSERT_EQ(s.samples.size(), 3u);
    EXPECT_EQ(s.samples[0], (Sample{100, 4.0}));
    EXPECT_EQ(s.samples[1], (Sample{150, 2.0}));
    EXPECT_EQ(s.samples[2], (Sample{300, 3.5}));
    EXPECT_EQ(s.labels.at("name"), "llm_judge_domain");
}

}  // namespace
}  // namespace fp8dash
