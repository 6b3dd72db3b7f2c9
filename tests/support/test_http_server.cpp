// Plain POSIX sockets so the HTTP client is tested against real TCP behaviour (refused connections, a peer that goes
// silent, a connection closed mid-body) rather than a mock of libcurl.
#include "test_http_server.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <stdexcept>

namespace fp8dash::test {
namespace {

constexpr int kReadTimeoutMs = 10000;  // a client that stalls mid-request is dropped
constexpr std::size_t kMaxRequestBytes = 16 << 20;

std::string lower(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
    return s;
}

std::string trim(const std::string& s) {
    const auto b = s.find_first_not_of(" \t\r\n");
    if (b == std::string::npos) return {};
    return s.substr(b, s.find_last_not_of(" \t\r\n") - b + 1);
}

const char* reasonPhrase(int status) {
    switch (status) {
        case 100:
            return "Continue";
        case 200:
            return "OK";
        case 204:
            return "No Content";
        case 301:
            return "Moved Permanently";
        case 302:
            return "Found";
        case 307:
            return "Temporary Redirect";
        case 308:
            return "Permanent Redirect";
        case 400:
            return "Bad Request";
        case 401:
            return "Unauthorized";
        case 403:
            return "Forbidden";
        case 404:
            return "Not Found";
        case 405:
            return "Method Not Allowed";
        case 422:
            return "Unprocessable Entity";
        case 429:
            return "Too Many Requests";
        case 500:
            return "Internal Server Error";
        case 502:
            return "Bad Gateway";
        case 503:
            return "Service Unavailable";
        case 504:
            return "Gateway Timeout";
        default:
            return "Status";
    }
}

bool sendAll(int fd, const char* data, std::size_t size) {
    while (size > 0) {
        const ssize_t n = ::send(fd, data, size, MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        data += n;
        size -= static_cast<std::size_t>(n);
    }
    return true;
}

void closeFd(int& fd) {
    if (fd >= 0) ::close(fd);
    fd = -1;
}

TestHttpServer::Pairs parseQuery(const std::string& text) {
    TestHttpServer::Pairs out;
    std::size_t start = 0;
    while (start <= text.size()) {
        const auto amp = text.find('&', start);
        const std::string part = text.substr(start, amp == std::string::npos ? std::string::npos : amp - start);
        if (!part.empty()) {
            const auto eq = part.find('=');
            if (eq == std::string::npos)
                out.emplace_back(percentDecode(part), "");
            else
                out.emplace_back(percentDecode(part.substr(0, eq)), percentDecode(part.substr(eq + 1)));
        }
        if (amp == std::string::npos) break;
        start = amp + 1;
    }
    return out;
}

}  // namespace

std::string percentDecode(const std::string& text) {
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (c == '+') {
            out += ' ';
        } else if (c == '%' && i + 2 < text.size() && std::isxdigit(static_cast<unsigned char>(text[i + 1])) &&
                   std::isxdigit(static_cast<unsigned char>(text[i + 2]))) {
            out += static_cast<char>(std::stoi(text.substr(i + 1, 2), nullptr, 16));
            i += 2;
        } else {
            out += c;
        }
    }
    return out;
}

std::optional<std::string> TestHttpServer::Request::header(const std::string& lowerName) const {
    for (const auto& [k, v] : headers)
        if (k == lowerName) return v;
    return std::nullopt;
}

std::optional<std::string> TestHttpServer::Request::queryValue(const std::string& key) const {
    for (const auto& [k, v] : query)
        if (k == key) return v;
    return std::nullopt;
}

std::vector<std::string> TestHttpServer::Request::queryValues(const std::string& key) const {
    std::vector<std::string> out;
    for (const auto& [k, v] : query)
        if (k == key) out.push_back(v);
    return out;
}

TestHttpServer::TestHttpServer(Handler handler) : m_handler(std::move(handler)) {
    if (::pipe2(m_wakePipe, O_CLOEXEC) != 0) throw std::runtime_error("TestHttpServer: pipe failed");
    m_listenFd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (m_listenFd < 0) throw std::runtime_error("TestHttpServer: socket failed");
    const int yes = 1;
    ::setsockopt(m_listenFd, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    addr.sin_port = 0;  // ephemeral: parallel test runs never collide
    socklen_t len = sizeof addr;
    if (::bind(m_listenFd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 || ::listen(m_listenFd, 64) != 0 ||
        ::getsockname(m_listenFd, reinterpret_cast<sockaddr*>(&addr), &len) != 0) {
        const std::string why = std::strerror(errno);
        closeFd(m_listenFd);
        closeFd(m_wakePipe[0]);
        closeFd(m_wakePipe[1]);
        throw std::runtime_error("TestHttpServer: cannot listen on 127.0.0.1: " + why);
    }
    m_port = ntohs(addr.sin_port);
    m_acceptThread = std::thread([this] { acceptLoop(); });
}

TestHttpServer::~TestHttpServer() {
    m_stopping = true;
    // One byte, never read: the pipe stays readable, so every poll() that includes it wakes now and later.
    const char byte = 1;
    [[maybe_unused]] const auto n = ::write(m_wakePipe[1], &byte, 1);
    if (m_acceptThread.joinable()) m_acceptThread.join();
    std::vector<Connection> connections;
    {
        std::lock_guard lock(m_mutex);
        connections.swap(m_connections);
    }
    for (auto& c : connections)
        if (c.thread.joinable()) c.thread.join();
    closeFd(m_listenFd);
    closeFd(m_wakePipe[0]);
    closeFd(m_wakePipe[1]);
}

std::string TestHttpServer::baseUrl() const {
    return "http://127.0.0.1:" + std::to_string(m_port);
}

std::string TestHttpServer::url(const std::string& path) const {
    return baseUrl() + path;
}

void TestHttpServer::setHandler(Handler handler) {
    std::lock_guard lock(m_mutex);
    m_handler = std::move(handler);
}

std::vector<TestHttpServer::Request> TestHttpServer::requests() const {
    std::lock_guard lock(m_mutex);
    return m_requests;
}

std::size_t TestHttpServer::requestCount() const {
    std::lock_guard lock(m_mutex);
    return m_requests.size();
}

void TestHttpServer::clearRequests() {
    std::lock_guard lock(m_mutex);
    m_requests.clear();
}

void TestHttpServer::acceptLoop() {
    while (!m_stopping) {
        pollfd fds[2] = {{m_listenFd, POLLIN, 0}, {m_wakePipe[0], POLLIN, 0}};
        if (::poll(fds, 2, -1) < 0) {
            if (errno == EINTR) continue;
            return;
        }
        if (fds[1].revents) return;
        if (!(fds[0].revents & POLLIN)) continue;
        const int fd = ::accept4(m_listenFd, nullptr, nullptr, SOCK_CLOEXEC);
        if (fd < 0) continue;
        auto done = std::make_shared<std::atomic<bool>>(false);
        std::lock_guard lock(m_mutex);
        // Reap finished connections so a long test does not accumulate threads.
        for (auto it = m_connections.begin(); it != m_connections.end();) {
            if (*it->done) {
                it->thread.join();
                it = m_connections.erase(it);
            } else {
                ++it;
            }
        }
        m_connections.push_back({std::thread([this, fd, done] {
                                     serve(fd);
                                     *done = true;
                                 }),
                                 done});
    }
}

bool TestHttpServer::waitForStopOrHangup(int fd, int timeoutMs) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeoutMs);
    for (;;) {
        if (m_stopping) return true;
        int wait = -1;
        if (timeoutMs >= 0) {
            const auto left =
                std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
            if (left.count() <= 0) return false;
            wait = static_cast<int>(left.count());
        }
        pollfd fds[2] = {{fd, POLLIN, 0}, {m_wakePipe[0], POLLIN, 0}};
        const int r = ::poll(fds, 2, wait);
        if (r < 0 && errno != EINTR) return true;
        if (r <= 0) continue;
        if (fds[1].revents) return true;
        if (fds[0].revents & (POLLHUP | POLLERR)) return true;
        if (fds[0].revents & POLLIN) {
            char buf[4096];
            const ssize_t n = ::recv(fd, buf, sizeof buf, 0);
            if (n <= 0) return true;  // the client gave up (timeout, cancel): nothing left to wait for
            // Extra bytes after the request (a pipelined request) are ignored: we answer one request per connection.
        }
    }
}

void TestHttpServer::serve(int fd) {
    // Read the request: the header block, then Content-Length bytes of body.
    std::string data;
    std::size_t headerEnd = std::string::npos;
    std::size_t contentLength = 0;
    bool sentContinue = false;
    Request request;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(kReadTimeoutMs);
    for (;;) {
        if (headerEnd != std::string::npos && data.size() >= headerEnd + 4 + contentLength) break;
        const auto left =
            std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now()).count();
        if (left <= 0 || m_stopping || data.size() > kMaxRequestBytes) {
            ::close(fd);
            return;
        }
        pollfd fds[2] = {{fd, POLLIN, 0}, {m_wakePipe[0], POLLIN, 0}};
        const int r = ::poll(fds, 2, static_cast<int>(left));
        if (r < 0 && errno == EINTR) continue;
        if (r < 0 || fds[1].revents) {
            ::close(fd);
            return;
        }
        if (r == 0) continue;
        char buf[8192];
        const ssize_t n = ::recv(fd, buf, sizeof buf, 0);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            ::close(fd);
            return;
        }
        data.append(buf, static_cast<std::size_t>(n));
        if (headerEnd == std::string::npos) {
            headerEnd = data.find("\r\n\r\n");
            if (headerEnd == std::string::npos) continue;
            const std::string head = data.substr(0, headerEnd);
            std::size_t lineEnd = head.find("\r\n");
            const std::string requestLine = head.substr(0, lineEnd);
            const auto sp1 = requestLine.find(' ');
            const auto sp2 = requestLine.find(' ', sp1 == std::string::npos ? 0 : sp1 + 1);
            if (sp1 == std::string::npos || sp2 == std::string::npos) {
                ::close(fd);
                return;
            }
            request.method = requestLine.substr(0, sp1);
            request.target = requestLine.substr(sp1 + 1, sp2 - sp1 - 1);
            const auto q = request.target.find('?');
            request.path = percentDecode(request.target.substr(0, q));
            if (q != std::string::npos) request.query = parseQuery(request.target.substr(q + 1));
            while (lineEnd != std::string::npos) {
                const auto next = head.find("\r\n", lineEnd + 2);
                const std::string line =
                    head.substr(lineEnd + 2, next == std::string::npos ? std::string::npos : next - lineEnd - 2);
                if (const auto colon = line.find(':'); colon != std::string::npos)
                    request.headers.emplace_back(lower(trim(line.substr(0, colon))), trim(line.substr(colon + 1)));
                lineEnd = next;
            }
            if (auto cl = request.header("content-length")) contentLength = std::stoul(*cl);
            if (auto expect = request.header("expect"); expect && lower(*expect) == "100-continue" && !sentContinue) {
                const std::string cont = "HTTP/1.1 100 Continue\r\n\r\n";
                sendAll(fd, cont.data(), cont.size());
                sentContinue = true;
            }
        }
    }
    request.body = data.substr(headerEnd + 4, contentLength);

    Handler handler;
    {
        std::lock_guard lock(m_mutex);
        m_requests.push_back(request);
        handler = m_handler;
    }
    Reply reply(404, "no handler");
    try {
        if (handler) reply = handler(request);
    } catch (const std::exception& e) {
        // A throwing handler must not take the test binary down with std::terminate on this thread.
        reply = Reply(500, std::string("test handler threw: ") + e.what());
    }

    if (reply.neverAnswer) {
        waitForStopOrHangup(fd, -1);
        ::close(fd);
        return;
    }
    if (reply.delayMs > 0 && waitForStopOrHangup(fd, reply.delayMs)) {
        ::close(fd);
        return;
    }

    std::string head = "HTTP/1.1 " + std::to_string(reply.status) + " " + reasonPhrase(reply.status) + "\r\n";
    bool hasContentType = false;
    for (const auto& [k, v] : reply.headers) {
        const std::string name = lower(k);
        if (name == "content-length" || name == "connection") continue;  // ours, always consistent
        if (name == "content-type") hasContentType = true;
        head += k + ": " + v + "\r\n";
    }
    if (!hasContentType) head += "Content-Type: application/json\r\n";
    if (reply.streamBytes) {
        if (reply.declareLength) head += "Content-Length: " + std::to_string(*reply.streamBytes) + "\r\n";
        head += "Connection: close\r\n\r\n";
        // Generated, never held in memory: a 1 GB answer costs this thread 64 KiB.
        const std::string chunk(64 * 1024, '7');
        std::uint64_t left = *reply.streamBytes;
        bool ok = sendAll(fd, head.data(), head.size());
        while (ok && left > 0 && !m_stopping) {
            const std::size_t n = static_cast<std::size_t>(std::min<std::uint64_t>(left, chunk.size()));
            ok = sendAll(fd, chunk.data(), n);
            left -= n;
        }
        ::shutdown(fd, SHUT_WR);
        waitForStopOrHangup(fd, 2000);
        ::close(fd);
        return;
    }
    head += "Content-Length: " + std::to_string(reply.body.size()) + "\r\nConnection: close\r\n\r\n";
    const std::size_t bodyBytes =
        reply.closeAfterBytes ? std::min(*reply.closeAfterBytes, reply.body.size()) : reply.body.size();
    if (sendAll(fd, head.data(), head.size())) sendAll(fd, reply.body.data(), bodyBytes);
    // Half-close first so the client reads everything we sent (and, when truncated, sees EOF short of Content-Length)
    // instead of a reset.
    ::shutdown(fd, SHUT_WR);
    waitForStopOrHangup(fd, 2000);
    ::close(fd);
}

int closedPort() {
    const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) throw std::runtime_error("closedPort: socket failed");
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof addr;
    if (::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 ||
        ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) != 0) {
        ::close(fd);
        throw std::runtime_error("closedPort: bind failed");
    }
    const int port = ntohs(addr.sin_port);
    ::close(fd);  // bound but never listening, now closed: a connect() to it is refused
    return port;
}

FullListener::FullListener() {
    m_fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (m_fd < 0) throw std::runtime_error("FullListener: socket failed");
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof addr;
    if (::bind(m_fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 || ::listen(m_fd, 0) != 0 ||
        ::getsockname(m_fd, reinterpret_cast<sockaddr*>(&addr), &len) != 0)
        throw std::runtime_error("FullListener: bind/listen failed");
    m_port = ntohs(addr.sin_port);
    // Fill the queue with connections that complete and are never accepted.
    for (int i = 0; i < 4; ++i) {
        const int c = ::socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
        ::connect(c, reinterpret_cast<sockaddr*>(&addr), sizeof addr);
        m_fillers.push_back(c);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
}

FullListener::~FullListener() {
    for (int c : m_fillers) ::close(c);
    ::close(m_fd);
}

std::string FullListener::url(const std::string& path) const {
    return "http://127.0.0.1:" + std::to_string(m_port) + path;
}

std::string base64Encode(const std::string& in) {
    static const char* table = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::string out;
    std::size_t i = 0;
    for (; i + 2 < in.size(); i += 3) {
        const unsigned v = (static_cast<unsigned char>(in[i]) << 16) | (static_cast<unsigned char>(in[i + 1]) << 8) |
                           static_cast<unsigned char>(in[i + 2]);
        out += table[(v >> 18) & 63];
        out += table[(v >> 12) & 63];
        out += table[(v >> 6) & 63];
        out += table[v & 63];
    }
    if (i + 1 == in.size()) {
        const unsigned v = static_cast<unsigned char>(in[i]) << 16;
        out += table[(v >> 18) & 63];
        out += table[(v >> 12) & 63];
        out += "==";
    } else if (i + 2 == in.size()) {
        const unsigned v = (static_cast<unsigned char>(in[i]) << 16) | (static_cast<unsigned char>(in[i + 1]) << 8);
        out += table[(v >> 18) & 63];
        out += table[(v >> 12) & 63];
        out += table[(v >> 6) & 63];
        out += '=';
    }
    return out;
}

}  // namespace fp8dash::test
