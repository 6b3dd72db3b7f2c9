#pragma once
// A small threaded HTTP/1.1 server on loopback for client tests: real sockets, real HTTP, and scripted faults
// (a server that never answers, a body cut short, a slow answer). One thread accepts; one thread per connection.
// Every answer carries "Connection: close" (no keep-alive). Thread-safe: the handler runs on connection threads,
// and requests()/requestCount()/setHandler() may be called from any thread while the server runs.
//
// Usage:
//   TestHttpServer server([](const TestHttpServer::Request& r) {
//       return TestHttpServer::Reply{200, {{"Content-Type", "application/json"}}, R"({"ok":true})"};
//   });
//   client.get(server.url("/api/v1/query"), {{"query", "up"}});
//   EXPECT_EQ(server.requestCount(), 1u);
//   EXPECT_EQ(server.requests()[0].header("x-scope-orgid"), "tenant-a");

#include <atomic>
#include <cstddef>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace fp8dash::test {

class TestHttpServer {
public:
    using Pairs = std::vector<std::pair<std::string, std::string>>;

    struct Request {
        std::string method;  // "GET", "POST", ...
        std::string target;  // as sent: "/api/v1/query?query=up"
        std::string path;    // decoded path without the query: "/api/v1/query"
        Pairs query;         // decoded ('+' and %XX), in order; repeated keys kept
        Pairs headers;       // names lower-case, values as sent (trimmed)
        std::string body;

        std::optional<std::string> header(const std::string& lowerName) const;  // the first one
        std::optional<std::string> queryValue(const std::string& key) const;    // the first one
        std::vector<std::string> queryValues(const std::string& key) const;     // all, in order
    };

    struct Reply {
        Reply() = default;
        Reply(int status_, std::string body_) : status(status_), body(std::move(body_)) {}
        Reply(int status_, Pairs headers_, std::string body_)
            : status(status_), headers(std::move(headers_)), body(std::move(body_)) {}

        int status = 200;
        Pairs headers;  // Content-Length and Connection are added; Content-Type defaults to application/json
        std::string body;
        // Faults, for the client's error paths:
        bool neverAnswer = false;                    // read the request, then send nothing until the client hangs up
                                                     // or the server stops
        std::optional<std::size_t> closeAfterBytes;  // send the full Content-Length header, then only this many body
                                                     // bytes, then close: a truncated body
        int delayMs = 0;                             // wait this long before answering (interrupted by the stop)

        static Reply json(int status, std::string body) { return Reply(status, std::move(body)); }
    };

    using Handler = std::function<Reply(const Request&)>;

    // Binds 127.0.0.1 on an ephemeral port and starts serving; throws std::runtime_error when it cannot.
    explicit TestHttpServer(Handler handler);
    // Stops accepting, wakes every waiting connection (neverAnswer, delayMs) and joins all threads.
    ~TestHttpServer();
    TestHttpServer(const TestHttpServer&) = delete;
    TestHttpServer& operator=(const TestHttpServer&) = delete;

    int port() const { return m_port; }
    std::string baseUrl() const;                     // "http://127.0.0.1:PORT"
    std::string url(const std::string& path) const;  // baseUrl() + path

    void setHandler(Handler handler);
    std::vector<Request> requests() const;  // every complete request received so far, in arrival order
    std::size_t requestCount() const;
    void clearRequests();

private:
    void acceptLoop();
    void serve(int fd);
    bool waitForStopOrHangup(int fd, int timeoutMs);  // true when the server is stopping or the peer hung up

    Handler m_handler;
    mutable std::mutex m_mutex;  // guards m_handler, m_requests, m_connections
    std::vector<Request> m_requests;
    struct Connection {
        std::thread thread;
        std::shared_ptr<std::atomic<bool>> done;
    };
    std::vector<Connection> m_connections;
    std::atomic<bool> m_stopping{false};
    int m_listenFd = -1;
    int m_wakePipe[2] = {-1, -1};  // written on stop: wakes poll() in the accept loop and in waiting connections
    int m_port = 0;
    std::thread m_acceptThread;
};

// A loopback port that nothing listens on (bound, read back, closed): connecting to it is refused.
int closedPort();

// Standard base64 (RFC 4648, with padding), for building Basic auth headers in tests.
std::string base64Encode(const std::string& in);

// Percent-decoding for query strings ('+' is a space).
std::string percentDecode(const std::string& text);

}  // namespace fp8dash::test
