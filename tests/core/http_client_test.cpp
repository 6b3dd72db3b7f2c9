// HttpClient against a real HTTP server on loopback: what arrives on the wire, and every fault path ends in a clear,
// prompt error (DESIGN.md: nothing hangs; messages name the URL, never the credentials).
#include "fp8dash/core/http_client.h"

#include <gtest/gtest.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <thread>

#include <atomic>
#include <chrono>
#include <thread>

#include "test_http_server.h"

namespace fp8dash {
namespace {

using test::TestHttpServer;
using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point start) {
    return std::chrono::duration<double>(Clock::now() - start).count();
}

HttpOptions fastOptions() {
    HttpOptions o;
    o.connectTimeoutS = 5;
    o.totalTimeoutS = 10;
    o.maxRetries = 0;
    o.retryBaseDelayS = 0.01;
    return o;
}

TEST(HttpClientTest, GetEncodesTheQueryAndTheServerDecodesItBack) {
    TestHttpServer server([](const TestHttpServer::Request&) { return TestHttpServer::Reply(200, R"({"ok":true})"); });
    const HttpClient client(fastOptions());
    const QueryParams query = {{"query", "sum(rate(vllm:generation_tokens_total[5m]))"},
                               {"traceTags", "precision:fp8"},
                               {"traceTags", "a b&c=d+e/f?"},
                               {"name", "caf\xC3\xA9 100%"}};
    auto r = client.get(server.url("/api/v1/query_range"), query);
    ASSERT_TRUE(r.ok()) << r.error().message;
    EXPECT_EQ(r->status, 200);
    EXPECT_EQ(r->body, R"({"ok":true})");
    EXPECT_EQ(r->attempts, 1);
    EXPECT_EQ(r->header("content-type"), "application/json");

    const auto requests = server.requests();
    ASSERT_EQ(requests.size(), 1u);
    EXPECT_EQ(requests[0].method, "GET");
    EXPECT_EQ(requests[0].path, "/api/v1/query_range");
    EXPECT_EQ(requests[0].query, query);  // order and repeated keys preserved, every reserved character round-trips
    EXPECT_EQ(requests[0].queryValues("traceTags"), (std::vector<std::string>{"precision:fp8", "a b&c=d+e/f?"}));
    EXPECT_EQ(requests[0].header("user-agent"), "fp8dash");
}

TEST(HttpClientTest, BasicAuthAndExtraHeadersArrive) {
    TestHttpServer server([](const TestHttpServer::Request&) { return TestHttpServer::Reply(200, "{}"); });
    HttpOptions o = fastOptions();
    o.auth.kind = HttpAuth::Kind::Basic;
    o.auth.user = "alice";
    o.auth.password = "s3cr:et";
    o.headers = {{"X-Scope-OrgID", "tenant-a"}, {"X-Custom", "v 1"}};
    auto r = HttpClient(o).get(server.url("/api/v1/status/buildinfo"));
    ASSERT_TRUE(r.ok()) << r.error().message;
    const auto req = server.requests().at(0);
    EXPECT_EQ(req.header("authorization"), "Basic YWxpY2U6czNjcjpldA==");  // base64("alice:s3cr:et")
    EXPECT_EQ(req.header("x-scope-orgid"), "tenant-a");
    EXPECT_EQ(req.header("x-custom"), "v 1");
}

TEST(HttpClientTest, BearerTokenArrives) {
    TestHttpServer server([](const TestHttpServer::Request&) { return TestHttpServer::Reply(200, "{}"); });
    HttpOptions o = fastOptions();
    o.auth.kind = HttpAuth::Kind::Bearer;
    o.auth.token = "tok-123.abc";
    auto r = HttpClient(o).get(server.url("/q"));
    ASSERT_TRUE(r.ok()) << r.error().message;
    EXPECT_EQ(server.requests().at(0).header("authorization"), "Bearer tok-123.abc");
}

TEST(HttpClientTest, NoAuthSendsNoAuthorizationHeader) {
    TestHttpServer server([](const TestHttpServer::Request&) { return TestHttpServer::Reply(200, "{}"); });
    auto r = HttpClient(fastOptions()).get(server.url("/q"));
    ASSERT_TRUE(r.ok()) << r.error().message;
    EXPECT_FALSE(server.requests().at(0).header("authorization").has_value());
}

TEST(HttpClientTest, PostSendsTheBodyAndIsNotRetriedOn5xx) {
    TestHttpServer server([](const TestHttpServer::Request&) { return TestHttpServer::Reply(500, "{}"); });
    HttpOptions o = fastOptions();
    o.maxRetries = 3;
    auto r = HttpClient(o).post(server.url("/api/v1/query"), R"({"a":1})", "application/json");
    ASSERT_TRUE(r.ok()) << r.error().message;
    EXPECT_EQ(r->status, 500);
    EXPECT_EQ(r->attempts, 1);
    ASSERT_EQ(server.requestCount(), 1u);
    const auto req = server.requests()[0];
    EXPECT_EQ(req.method, "POST");
    EXPECT_EQ(req.body, R"({"a":1})");
    EXPECT_EQ(req.header("content-type"), "application/json");
}

TEST(HttpClientTest, ConnectionRefusedIsAQuickClearErrorNamingTheUrl) {
    const int port = test::closedPort();
    HttpOptions o = fastOptions();
    o.maxRetries = 1;
    const std::string url = "http://127.0.0.1:" + std::to_string(port) + "/api/v1/query";
    const auto start = Clock::now();
    auto r = HttpClient(o).get(url, {{"query", "up"}});
    const double elapsed = secondsSince(start);
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error().message.find(url), std::string::npos) << r.error().message;
    EXPECT_NE(r.error().message.find("refused"), std::string::npos) << r.error().message;
    EXPECT_NE(r.error().message.find("2 attempts"), std::string::npos) << r.error().message;
    EXPECT_LT(elapsed, 3.0);
}

TEST(HttpClientTest, CredentialsInTheUrlNeverAppearInErrors) {
    const int port = test::closedPort();
    const std::string url = "http://bob:hunter2pw@127.0.0.1:" + std::to_string(port) + "/api";
    auto r = HttpClient(fastOptions()).get(url);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().message.find("hunter2pw"), std::string::npos) << r.error().message;
    EXPECT_EQ(r.error().message.find("bob"), std::string::npos) << r.error().message;
    EXPECT_NE(r.error().message.find("http://127.0.0.1:" + std::to_string(port) + "/api"), std::string::npos);
}

TEST(HttpClientTest, ServerThatNeverAnswersTimesOut) {
    TestHttpServer server([](const TestHttpServer::Request&) {
        TestHttpServer::Reply reply;
        reply.neverAnswer = true;
        return reply;
    });
    HttpOptions o = fastOptions();
    o.totalTimeoutS = 1;
    const auto start = Clock::now();
    auto r = HttpClient(o).get(server.url("/slow"));
    const double elapsed = secondsSince(start);
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error().message.find("timed out"), std::string::npos) << r.error().message;
    EXPECT_NE(r.error().message.find(server.url("/slow")), std::string::npos) << r.error().message;
    EXPECT_GE(elapsed, 0.9);
    EXPECT_LT(elapsed, 4.0);
    EXPECT_EQ(server.requestCount(), 1u);
}

TEST(HttpClientTest, SlowButTimelyAnswerSucceeds) {
    TestHttpServer server([](const TestHttpServer::Request&) {
        TestHttpServer::Reply reply(200, "{}");
        reply.delayMs = 300;
        return reply;
    });
    const auto start = Clock::now();
    auto r = HttpClient(fastOptions()).get(server.url("/q"));
    ASSERT_TRUE(r.ok()) << r.error().message;
    EXPECT_EQ(r->status, 200);
    EXPECT_GE(secondsSince(start), 0.29);
}

TEST(HttpClientTest, ServerErrorsAreRetriedUntilSuccess) {
    std::atomic<int> calls{0};
    TestHttpServer server([&](const TestHttpServer::Request&) {
        return ++calls <= 2 ? TestHttpServer::Reply(500, R"({"error":"boom"})") : TestHttpServer::Reply(200, "{}");
    });
    HttpOptions o = fastOptions();
    o.maxRetries = 3;
    auto r = HttpClient(o).get(server.url("/q"));
    ASSERT_TRUE(r.ok()) << r.error().message;
    EXPECT_EQ(r->status, 200);
    EXPECT_EQ(r->attempts, 3);
    EXPECT_EQ(server.requestCount(), 3u);
}

TEST(HttpClientTest, RetryAfterIsHonoured) {
    std::atomic<int> calls{0};
    TestHttpServer server([&](const TestHttpServer::Request&) {
        if (++calls == 1) return TestHttpServer::Reply(429, {{"Retry-After", "1"}}, R"({"message":"slow down"})");
        return TestHttpServer::Reply(200, "{}");
    });
    HttpOptions o = fastOptions();
    o.maxRetries = 2;
    o.retryBaseDelayS = 0.01;  // the backoff alone would retry after ~10 ms
    const auto start = Clock::now();
    auto r = HttpClient(o).get(server.url("/q"));
    const double elapsed = secondsSince(start);
    ASSERT_TRUE(r.ok()) << r.error().message;
    EXPECT_EQ(r->status, 200);
    EXPECT_EQ(r->attempts, 2);
    EXPECT_GE(elapsed, 1.0);
    EXPECT_LT(elapsed, 3.0);
}

TEST(HttpClientTest, RetriesAreBoundedAndTheLastResponseIsReturned) {
    TestHttpServer server([](const TestHttpServer::Request&) { return TestHttpServer::Reply(503, "unavailable"); });
    HttpOptions o = fastOptions();
    o.maxRetries = 2;
    auto r = HttpClient(o).get(server.url("/q"));
    ASSERT_TRUE(r.ok()) << r.error().message;
    EXPECT_EQ(r->status, 503);
    EXPECT_EQ(r->body, "unavailable");
    EXPECT_EQ(r->attempts, 3);
    EXPECT_EQ(server.requestCount(), 3u);
}

TEST(HttpClientTest, ClientErrorsAreNotRetried) {
    TestHttpServer server([](const TestHttpServer::Request&) { return TestHttpServer::Reply(404, "nope"); });
    HttpOptions o = fastOptions();
    o.maxRetries = 3;
    auto r = HttpClient(o).get(server.url("/q"));
    ASSERT_TRUE(r.ok()) << r.error().message;
    EXPECT_EQ(r->status, 404);
    EXPECT_EQ(server.requestCount(), 1u);
}

TEST(HttpClientTest, TruncatedBodyIsAnError) {
    TestHttpServer server([](const TestHttpServer::Request&) {
        TestHttpServer::Reply reply(200, std::string(1000, 'x'));
        reply.closeAfterBytes = 100;
        return reply;
    });
    HttpOptions o = fastOptions();
    o.maxRetries = 1;
    const auto start = Clock::now();
    auto r = HttpClient(o).get(server.url("/q"));
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error().message.find("cut off"), std::string::npos) << r.error().message;
    EXPECT_NE(r.error().message.find(server.url("/q")), std::string::npos) << r.error().message;
    EXPECT_EQ(server.requestCount(), 2u);  // a cut connection is worth one more try
    EXPECT_LT(secondsSince(start), 4.0);
}

TEST(HttpClientTest, ResponseOverTheLimitIsAnError) {
    TestHttpServer server(
        [](const TestHttpServer::Request&) { return TestHttpServer::Reply(200, std::string(50000, 'y')); });
    HttpOptions o = fastOptions();
    o.maxRetries = 2;
    o.maxResponseBytes = 10000;
    auto r = HttpClient(o).get(server.url("/big"));
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error().message.find("larger than"), std::string::npos) << r.error().message;
    EXPECT_NE(r.error().message.find("10000 bytes"), std::string::npos) << r.error().message;
    EXPECT_EQ(server.requestCount(), 1u);  // retrying cannot make it smaller
}

TEST(HttpClientTest, CancelDuringAHangingRequestReturnsPromptly) {
    TestHttpServer server([](const TestHttpServer::Request&) {
        TestHttpServer::Reply reply;
        reply.neverAnswer = true;
        return reply;
    });
    HttpOptions o = fastOptions();
    o.totalTimeoutS = 30;
    std::atomic<bool> cancel{false};
    Progress progress;
    progress.cancelled = [&] { return cancel.load(); };
    std::thread canceller([&] {
        while (server.requestCount() == 0) std::this_thread::sleep_for(std::chrono::milliseconds(5));
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
        cancel = true;
    });
    const auto start = Clock::now();
    auto r = HttpClient(o).get(server.url("/hang"), {}, progress);
    const double elapsed = secondsSince(start);
    canceller.join();
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error().message.find("cancelled"), std::string::npos) << r.error().message;
    EXPECT_LT(elapsed, 3.0);
}

TEST(HttpClientTest, CancelDuringTheBackoffReturnsPromptly) {
    TestHttpServer server([](const TestHttpServer::Request&) {
        return TestHttpServer::Reply(429, {{"Retry-After", "20"}}, "{}");
    });
    HttpOptions o = fastOptions();
    o.maxRetries = 3;
    std::atomic<bool> cancel{false};
    Progress progress;
    progress.cancelled = [&] { return cancel.load(); };
    std::thread canceller([&] {
        while (server.requestCount() == 0) std::this_thread::sleep_for(std::chrono::milliseconds(5));
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
        cancel = true;
    });
    const auto start = Clock::now();
    auto r = HttpClient(o).get(server.url("/q"), {}, progress);
    const double elapsed = secondsSince(start);
    canceller.join();
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error().message.find("cancelled"), std::string::npos) << r.error().message;
    EXPECT_LT(elapsed, 2.0);
    EXPECT_EQ(server.requestCount(), 1u);
}

TEST(HttpClientTest, RedirectLoopIsTooManyRedirects) {
    TestHttpServer server([](const TestHttpServer::Request&) {
        return TestHttpServer::Reply(302, {{"Location", "/loop"}}, "");
    });
    auto r = HttpClient(fastOptions()).get(server.url("/loop"));
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error().message.find("too many redirects"), std::string::npos) << r.error().message;
    EXPECT_NE(r.error().message.find(server.url("/loop")), std::string::npos) << r.error().message;
}

TEST(HttpClientTest, RedirectIsFollowed) {
    TestHttpServer server([](const TestHttpServer::Request& req) {
        if (req.path == "/old") return TestHttpServer::Reply(301, {{"Location", "/new?x=1"}}, "");
        return TestHttpServer::Reply(200, "here");
    });
    auto r = HttpClient(fastOptions()).get(server.url("/old"));
    ASSERT_TRUE(r.ok()) << r.error().message;
    EXPECT_EQ(r->status, 200);
    EXPECT_EQ(r->body, "here");
    const auto requests = server.requests();
    ASSERT_EQ(requests.size(), 2u);
    EXPECT_EQ(requests[1].path, "/new");
    EXPECT_EQ(requests[1].queryValue("x"), "1");
}

TEST(HttpClientTest, DisplayUrlStripsUserInfoAndCredentialParameters) {
    EXPECT_EQ(HttpClient::displayUrl("https://user:pass@prom.example:9090/api/v1/query?x=1"),
              "https://prom.example:9090/api/v1/query?x=1");
    EXPECT_EQ(HttpClient::displayUrl("https://token@prom.example"), "https://prom.example");
    EXPECT_EQ(HttpClient::displayUrl("http://prom.example:9090/path"), "http://prom.example:9090/path");
    EXPECT_EQ(HttpClient::displayUrl("http://prom.example/search?mail=a@b.c"), "http://prom.example/search?mail=a@b.c");
    EXPECT_EQ(HttpClient::displayUrl("not a url"), "not a url");
    // Credential-looking parameters go, the others stay in order (issue 26, finding 4).
    EXPECT_EQ(HttpClient::displayUrl("https://lf.example/api?access_token=abc&project=p1"),
              "https://lf.example/api?project=p1");
    EXPECT_EQ(HttpClient::displayUrl("https://h.example/?a=1&API_KEY=x&b=2&X-Api-Key=y&client_secret=z&sig=s#frag"),
              "https://h.example/?a=1&b=2#frag");
    EXPECT_EQ(HttpClient::displayUrl("https://u:p@h.example/p?token=t"), "https://h.example/p");
    EXPECT_EQ(HttpClient::displayUrl("https://h.example/p?password"), "https://h.example/p");
    EXPECT_EQ(HttpClient::displayUrl("https://h.example/p?monkey=1&keyboard=2"),
              "https://h.example/p?monkey=1&keyboard=2");
    EXPECT_TRUE(HttpClient::holdsCredentials("https://h.example/p?id_token=t"));
    EXPECT_FALSE(HttpClient::holdsCredentials("https://h.example/p?step=60"));
}

TEST(HttpClientTest, UrlEncodeEscapesReservedCharacters) {
    EXPECT_EQ(HttpClient::urlEncode("a-b_c.d~e"), "a-b_c.d~e");
    EXPECT_EQ(HttpClient::urlEncode("a b&c=d"), "a%20b%26c%3Dd");
    EXPECT_EQ(HttpClient::urlEncode("{name=\"x\"}[5m]"), "%7Bname%3D%22x%22%7D%5B5m%5D");
    EXPECT_EQ(HttpClient::urlEncode("\xC3\xA9"), "%C3%A9");
}

TEST(HttpClientTest, RunParallelRunsEveryIndexOnce) {
    std::vector<std::atomic<int>> hits(100);
    runParallel(hits.size(), 4, [&](std::size_t i) { ++hits[i]; });
    for (const auto& h : hits) EXPECT_EQ(h.load(), 1);
}

}  // namespace
}  // namespace fp8dash

namespace fp8dash {
namespace {

// https:// to a server that answers in plain text at once (as a plain-HTTP server does to a TLS hello): the
// handshake fails, and the message says it is about TLS and names the URL.
TEST(HttpClientTls, HandshakeFailureIsAClearTlsError) {
    const int listener = ::socket(AF_INET, SOCK_STREAM, 0);
    ASSERT_GE(listener, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ASSERT_EQ(::bind(listener, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
    ASSERT_EQ(::listen(listener, 4), 0);
    socklen_t len = sizeof addr;
    ::getsockname(listener, reinterpret_cast<sockaddr*>(&addr), &len);
    const int port = ntohs(addr.sin_port);
    std::thread server([listener] {
        const int c = ::accept(listener, nullptr, nullptr);
        if (c < 0) return;
        const char reply[] = "HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n";
        [[maybe_unused]] auto n = ::write(c, reply, sizeof reply - 1);
        ::shutdown(c, SHUT_RDWR);
        ::close(c);
    });
    HttpOptions o;
    o.maxRetries = 0;
    o.totalTimeoutS = 5;
    const std::string url = "https://127.0.0.1:" + std::to_string(port) + "/api/v1/query";
    auto r = HttpClient(o).get(url);
    server.join();
    ::close(listener);
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error().message.find("TLS failure"), std::string::npos) << r.error().message;
    EXPECT_NE(r.error().message.find(url), std::string::npos) << r.error().message;
}

}  // namespace
}  // namespace fp8dash
