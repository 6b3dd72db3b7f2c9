#include "victoria_metrics_server.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <system_error>
#include <thread>
#include <vector>

#include "process.h"
#include "prometheus_server.h"  // freeLoopbackPort, loopbackGetStatus

namespace fp8dash::test {
namespace {

// A one-shot HTTP/1.0 POST on loopback: the status line's code and the body, or 0 when nothing answered.
int loopbackPost(int port, const std::string& path, const std::string& body, std::string& answer, int timeoutMs) {
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0) return 0;
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    addr.sin_port = htons(static_cast<uint16_t>(port));
    int status = 0;
    if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0) {
        const std::string request = "POST " + path + " HTTP/1.0\r\nHost: 127.0.0.1\r\nContent-Type: text/plain\r\n" +
                                    "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
        std::size_t sent = 0;
        while (sent < request.size()) {
            const ssize_t n = ::send(fd, request.data() + sent, request.size() - sent, MSG_NOSIGNAL);
            if (n <= 0) break;
            sent += static_cast<std::size_t>(n);
        }
        char buf[4096];
        pollfd p{fd, POLLIN, 0};
        while (sent == request.size() && ::poll(&p, 1, timeoutMs) > 0) {
            const ssize_t n = ::recv(fd, buf, sizeof buf, 0);
            if (n <= 0) break;  // HTTP/1.0: the server closes after the answer
            answer.append(buf, static_cast<std::size_t>(n));
        }
        if (const auto sp = answer.find(' '); answer.rfind("HTTP/", 0) == 0 && sp != std::string::npos)
            status = std::atoi(answer.c_str() + sp + 1);
    }
    ::close(fd);
    return status;
}

}  // namespace

std::string VictoriaMetricsServer::unavailableReason() {
    if (!findExecutable("victoria-metrics").empty()) return {};
    return "victoria-metrics not found on PATH: install Debian's `victoria-metrics` package "
           "(packaging/install-deps.sh --tests does) to run the tests against a real VictoriaMetrics";
}

VictoriaMetricsServer::VictoriaMetricsServer(const VictoriaMetricsServerOptions& options) {
    if (const std::string why = unavailableReason(); !why.empty()) {
        m_error = why;
        return;
    }
    std::string tmpl = (std::filesystem::temp_directory_path() / "fp8dash-victoriametrics-XXXXXX").string();
    if (!::mkdtemp(tmpl.data())) {
        m_error = std::string("cannot create a temporary folder: ") + std::strerror(errno);
        return;
    }
    m_dir = tmpl;
    if (start(options)) import(options.prometheusText);
}

VictoriaMetricsServer::~VictoriaMetricsServer() {
    stop();
    if (!m_dir.empty()) {
        std::error_code ec;
        std::filesystem::remove_all(m_dir, ec);
    }
}

std::string VictoriaMetricsServer::baseUrl() const {
    return "http://127.0.0.1:" + std::to_string(m_port);
}

std::string VictoriaMetricsServer::log() const {
    std::ifstream in(m_dir / "victoria-metrics.log", std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

bool VictoriaMetricsServer::start(const VictoriaMetricsServerOptions& options) {
    const std::string program = findExecutable("victoria-metrics");
    const auto logPath = m_dir / "victoria-metrics.log";
    for (int attempt = 0; attempt < 3; ++attempt) {
        m_port = freeLoopbackPort();
        const std::vector<std::string> args = {program, "-storageDataPath=" + (m_dir / "data").string(),
                                               "-httpListenAddr=127.0.0.1:" + std::to_string(m_port),
                                               "-retentionPeriod=10y", "-loggerLevel=WARN"};
        m_pid = spawnInBackground(args, logPath.string(), &m_error);
        if (m_pid < 0) return false;
        const auto deadline = std::chrono::steady_clock::now() +
                              std::chrono::milliseconds(static_cast<long>(options.readyTimeoutS * 1000));
        bool exited = false;
        while (std::chrono::steady_clock::now() < deadline) {
            int status = 0;
            if (::waitpid(m_pid, &status, WNOHANG) == m_pid) {
                exited = true;
                m_pid = -1;
                break;
            }
            if (loopbackGetStatus(m_port, "/health", "", 1000) == 200) return true;
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
        }
        const std::string output = log();
        if (exited && output.find("address already in use") != std::string::npos) continue;  // lost the port race
        stop();
        m_error = (exited ? "victoria-metrics exited during start-up"
                          : "victoria-metrics was not ready within " + std::to_string(options.readyTimeoutS) + " s") +
                  std::string("; its output:\n") + output;
        return false;
    }
    m_error = "victoria-metrics could not bind a loopback port (three tries); its output:\n" + log();
    return false;
}

bool VictoriaMetricsServer::import(const std::string& text) {
    std::string answer;
    const int status = loopbackPost(m_port, "/api/v1/import/prometheus", text, answer, 30000);
    if (status != 204 && status != 200) {
        m_error = "importing into victoria-metrics failed (HTTP " + std::to_string(status) + "): " + answer +
                  "\nits output:\n" + log();
        return false;
    }
    // Imported rows become searchable after an in-memory buffer is flushed (about a second); this flushes it now.
    if (const int flushed = loopbackGetStatus(m_port, "/internal/force_flush", "", 30000); flushed != 200) {
        m_error = "victoria-metrics' /internal/force_flush answered HTTP " + std::to_string(flushed);
        return false;
    }
    return true;
}

void VictoriaMetricsServer::stop() {
    stopInBackground(m_pid);
    m_pid = -1;
}

}  // namespace fp8dash::test
