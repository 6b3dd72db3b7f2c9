// Network faults a data source can throw at fp8dash, against real peers on loopback (each must end in a clear error
// naming the URL): a name that does not resolve, a connect that never completes, server errors, a TLS certificate for
// another host, and a response of 1 GB. Each ends in a clear message that names the URL, within its timeout, with
// bounded retries. (Connection refused, a server that never answers, a body cut short, 429 with Retry-After and a
// redirect loop are in http_client_test.cpp and prometheus_client_test.cpp.)
#include <gtest/gtest.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "fp8dash/core/http_client.h"
#include "fp8dash/core/prometheus_client.h"
#include "process.h"
#include "test_http_server.h"
#include "test_paths.h"

namespace fp8dash {
namespace {

using test::TestHttpServer;
using Clock = std::chrono::steady_clock;

double faultsSecondsSince(Clock::time_point start) {
    return std::chrono::duration<double>(Clock::now() - start).count();
}

HttpOptions options(double connectS, double totalS, int retries) {
    HttpOptions o;
    o.connectTimeoutS = connectS;
    o.totalTimeoutS = totalS;
    o.maxRetries = retries;
    o.retryBaseDelayS = 0.01;
    return o;
}

TEST(NetworkFaults, ANameThatDoesNotResolveIsAClearErrorWithoutRetries) {
    // .invalid never resolves (RFC 2606): the lookup fails, locally or at the resolver, and a retry cannot help.
    const std::string url = "http://prometheus.fp8dash-test.invalid:9090/api/v1/query";
    const auto start = Clock::now();
    auto r = HttpClient(options(5, 10, 3)).get(url, {{"query", "up"}});
    const double elapsed = faultsSecondsSince(start);
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error().message.find("cannot resolve the host name"), std::string::npos) << r.error().message;
    EXPECT_NE(r.error().message.find(url), std::string::npos) << r.error().message;
    EXPECT_EQ(r.error().message.find("attempts"), std::string::npos) << "a DNS failure is not retried";
    EXPECT_LT(elapsed, 10.0);
}

TEST(NetworkFaults, AConnectThatNeverCompletesTimesOutAndIsRetriedABoundedNumberOfTimes) {
    test::FullListener listener;
    const std::string url = "http://127.0.0.1:" + std::to_string(listener.port()) + "/api/v1/query";
    const auto start = Clock::now();
    auto r = HttpClient(options(0.5, 10, 2)).get(url);
    const double elapsed = faultsSecondsSince(start);
    ASSERT_FALSE(r.ok());
    // Nothing reached the server, so a retry may help: three attempts of 0.5 s each, then the message.
    EXPECT_NE(r.error().message.find("timed out"), std::string::npos) << r.error().message;
    EXPECT_NE(r.error().message.find("after 3 attempts"), std::string::npos) << r.error().message;
    EXPECT_NE(r.error().message.find(url), std::string::npos) << r.error().message;
    EXPECT_GE(elapsed, 1.4);
    EXPECT_LT(elapsed, 8.0);
}

class ServerErrors : public ::testing::TestWithParam<int> {};

TEST_P(ServerErrors, AreRetriedABoundedNumberOfTimesThenNamed) {
    const int status = GetParam();
    TestHttpServer server([status](const TestHttpServer::Request&) {
        // What a proxy in front of Prometheus answers: HTML, not Prometheus' JSON.
        return TestHttpServer::Reply(status, {{"Content-Type", "text/html"}},
                                     "<html><body>upstream down</body></html>");
    });
    PrometheusSettings s;
    s.baseUrl = server.baseUrl();
    s.http = options(2, 5, 2);
    const auto start = Clock::now();
    auto r = PrometheusClient(s).query("up", 1);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(server.requestCount(), 3u);  // the first try and two retries, no more
    EXPECT_NE(r.error().message.find(server.url("/api/v1/query")), std::string::npos) << r.error().message;
    EXPECT_NE(r.error().message.find(std::to_string(status)), std::string::npos) << r.error().message;
    EXPECT_LT(faultsSecondsSince(start), 5.0);
}

INSTANTIATE_TEST_SUITE_P(Status, ServerErrors, ::testing::Values(500, 502, 503),
                         [](const auto& p) { return "http" + std::to_string(p.param); });

TEST(NetworkFaults, AResponseOfOneGigabyteIsRefusedBeforeItIsRead) {
    TestHttpServer server([](const TestHttpServer::Request&) {
        TestHttpServer::Reply reply;
        reply.streamBytes = std::uint64_t{1} << 30;
        return reply;
    });
    const auto start = Clock::now();
    auto r = HttpClient(options(2, 30, 2)).get(server.url("/api/v1/query_range"));  // the default 512 MiB limit
    const double elapsed = faultsSecondsSince(start);
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error().message.find("the response is larger than 512 MiB"), std::string::npos) << r.error().message;
    EXPECT_NE(r.error().message.find(server.url("/api/v1/query_range")), std::string::npos);
    EXPECT_EQ(server.requestCount(), 1u);  // not retried: the answer would be as big again
    EXPECT_LT(elapsed, 10.0);
}

TEST(NetworkFaults, AnAnswerWithoutALengthIsCutOffAtTheLimit) {
    // No Content-Length: the body ends with the connection, so only the bytes read say how big it is.
    TestHttpServer server([](const TestHttpServer::Request&) {
        TestHttpServer::Reply reply;
        reply.streamBytes = std::uint64_t{1} << 30;
        reply.declareLength = false;
        return reply;
    });
    HttpOptions o = options(2, 30, 0);
    o.maxResponseBytes = std::size_t{16} << 20;  // the same path as 512 MiB, without holding 512 MiB in the test
    auto r = HttpClient(o).get(server.url("/big"));
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error().message.find("the response is larger than 16 MiB"), std::string::npos) << r.error().message;
}

// A TLS server of the real world (openssl s_server) whose certificate names another host.
class WrongHostTlsServer {
public:
    explicit WrongHostTlsServer(const std::filesystem::path& dir) {
        const auto cert = (dir / "wrong-host.pem").string();
        const auto key = (dir / "wrong-host.key").string();
        m_cert = cert;
        const auto made = test::runProcess(
            {openssl(), "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", cert, "-days", "2",
             "-subj", "/CN=wrong.example", "-addext", "subjectAltName=DNS:wrong.example"},
            {}, 60);
        if (made.exitCode != 0) {
            m_error = "openssl req failed: " + made.err;
            return;
        }
        m_port = test::closedPort();
        std::vector<std::string> argv = {openssl(), "s_server", "-quiet", "-www", "-accept", std::to_string(m_port),
                                         "-cert",   cert,       "-key",   key};
        m_pid = test::spawnInBackground(argv);
        // Ready when it accepts a TCP connection.
        for (int i = 0; i < 100 && m_pid > 0; ++i) {
            const int c = ::socket(AF_INET, SOCK_STREAM, 0);
            sockaddr_in addr{};
            addr.sin_family = AF_INET;
            addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
            addr.sin_port = htons(static_cast<uint16_t>(m_port));
            const bool up = ::connect(c, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0;
            ::close(c);
            if (up) return;
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
        }
        m_error = "openssl s_server did not start";
    }
    ~WrongHostTlsServer() {
        if (m_pid > 0) {
            ::kill(m_pid, SIGTERM);
            ::waitpid(m_pid, nullptr, 0);
        }
    }
    static std::string openssl() { return test::findExecutable("openssl"); }
    int port() const { return m_port; }
    const std::string& certFile() const { return m_cert; }
    const std::string& error() const { return m_error; }

private:
    pid_t m_pid = -1;
    int m_port = 0;
    std::string m_cert;
    std::string m_error;
};

TEST(NetworkFaults, ACertificateForAnotherHostIsRefusedSayingSo) {
    if (WrongHostTlsServer::openssl().empty()) GTEST_SKIP() << "openssl not installed (Debian's openssl package)";
    test::TempDir dir;
    WrongHostTlsServer server(dir.path());
    ASSERT_TRUE(server.error().empty()) << server.error();
    HttpOptions o = options(2, 5, 2);
    o.caFile = server.certFile();  // the certificate itself is trusted: only the host name is wrong
    const std::string url = "https://127.0.0.1:" + std::to_string(server.port()) + "/api/v1/query";
    auto r = HttpClient(o).get(url);
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error().message.find("TLS failure"), std::string::npos) << r.error().message;
    EXPECT_NE(r.error().message.find("host name"), std::string::npos) << r.error().message;
    EXPECT_NE(r.error().message.find("127.0.0.1"), std::string::npos) << r.error().message;
    EXPECT_NE(r.error().message.find(url), std::string::npos) << r.error().message;
    EXPECT_EQ(r.error().message.find("attempts"), std::string::npos) << "a certificate error is not retried";
    // With verification off (--insecure), the same server answers: the refusal above was the name, not the link.
    o.verifyTls = false;
    auto insecure = HttpClient(o).get(url);
    ASSERT_TRUE(insecure.ok()) << insecure.error().message;
    EXPECT_EQ(insecure->status, 200);
}

}  // namespace
}  // namespace fp8dash
