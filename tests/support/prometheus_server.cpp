#include "prometheus_server.h"
#include "test_http_server.h"

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
#include <locale>
#include <sstream>
#include <system_error>
#include <thread>
#include <vector>

#include "process.h"

namespace fp8dash::test {

// A port the kernel just handed out on 127.0.0.1 and that is free again; prometheus binds it a moment later (a
// rare race, which start() answers by trying another port).
std::string openMetricsNumber(double v) {
    std::ostringstream s;
    s.imbue(std::locale::classic());
    s.precision(17);
    s << v;
    return s.str();
}

int freeLoopbackPort() {
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0) return 0;
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    addr.sin_port = 0;
    socklen_t len = sizeof addr;
    int port = 0;
    if (::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0 &&
        ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) == 0)
        port = ntohs(addr.sin_port);
    ::close(fd);
    return port;
}

// A one-shot HTTP/1.0 GET on loopback, independent of the client under test. Returns the status code, or 0 when
// nothing answered within timeoutMs.
int loopbackGetStatus(int port, const std::string& path, const std::string& authorization, int timeoutMs) {
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0) return 0;
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    addr.sin_port = htons(static_cast<uint16_t>(port));
    int status = 0;
    if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0) {
        std::string request = "GET " + path + " HTTP/1.0\r\nHost: 127.0.0.1\r\n";
        if (!authorization.empty()) request += "Authorization: " + authorization + "\r\n";
        request += "\r\n";
        if (::send(fd, request.data(), request.size(), MSG_NOSIGNAL) == static_cast<ssize_t>(request.size())) {
            std::string head;
            char buf[512];
            pollfd p{fd, POLLIN, 0};
            while (head.find("\r\n") == std::string::npos && ::poll(&p, 1, timeoutMs) > 0) {
                const ssize_t n = ::recv(fd, buf, sizeof buf, 0);
                if (n <= 0) break;
                head.append(buf, static_cast<std::size_t>(n));
            }
            // "HTTP/1.1 200 OK"
            if (const auto sp = head.find(' '); head.rfind("HTTP/", 0) == 0 && sp != std::string::npos)
                status = std::atoi(head.c_str() + sp + 1);
        }
    }
    ::close(fd);
    return status;
}

namespace {

std::string readFile(const std::filesystem::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

void writeFile(const std::filesystem::path& p, const std::string& text) {
    std::ofstream(p, std::ios::binary) << text;
}

}  // namespace

std::string PrometheusServer::unavailableReason() {
    std::string missing;
    for (const char* tool : {"prometheus", "promtool"})
        if (findExecutable(tool).empty()) missing += std::string(missing.empty() ? "" : " and ") + tool;
    if (missing.empty()) return {};
    return missing +
           " not found on PATH: install Debian's `prometheus` package (packaging/install-deps.sh does) to "
           "run the tests against a real Prometheus";
}

PrometheusServer::PrometheusServer(const PrometheusServerOptions& options) {
    if (const std::string why = unavailableReason(); !why.empty()) {
        m_error = why;
        return;
    }
    std::string tmpl = (std::filesystem::temp_directory_path() / "fp8dash-prometheus-XXXXXX").string();
    if (!::mkdtemp(tmpl.data())) {
        m_error = std::string("cannot create a temporary folder: ") + std::strerror(errno);
        return;
    }
    m_dir = tmpl;
    if (backfill(options)) start(options);
}

PrometheusServer::~PrometheusServer() {
    stop();
    if (!m_dir.empty()) {
        std::error_code ec;
        std::filesystem::remove_all(m_dir, ec);
    }
}

std::string PrometheusServer::baseUrl() const {
    return "http://127.0.0.1:" + std::to_string(m_port);
}

std::string PrometheusServer::log() const {
    return readFile(m_dir / "prometheus.log");
}

bool PrometheusServer::backfill(const PrometheusServerOptions& options) {
    if (options.openMetrics.empty()) return true;  // a server that only scrapes
    const auto input = m_dir / "backfill.om.txt";
    writeFile(input, options.openMetrics);
    std::vector<std::string> args = {findExecutable("promtool"), "tsdb", "create-blocks-from", "openmetrics"};
    if (!options.maxBlockDuration.empty()) args.push_back("--max-block-duration=" + options.maxBlockDuration);
    args.push_back(input.string());
    args.push_back((m_dir / "data").string());
    const auto r = runProcess(args, {}, 120);
    if (r.exitCode != 0) {
        m_error = "promtool tsdb create-blocks-from openmetrics failed (exit " + std::to_string(r.exitCode) +
                  "): " + r.out + r.err;
        return false;
    }
    return true;
}

bool PrometheusServer::start(const PrometheusServerOptions& options) {
    std::string config = "global:\n  scrape_interval: " + options.scrapeInterval + "\n";
    if (options.scrapeTargets.empty()) {
        config += "scrape_configs: []\n";
    } else {
        config += "scrape_configs:\n  - job_name: fp8dash\n    scrape_interval: " + options.scrapeInterval +
                  "\n    scrape_timeout: " + options.scrapeInterval + "\n    static_configs:\n      - targets:\n";
        for (const auto& t : options.scrapeTargets) config += "          - '" + t + "'\n";
    }
    writeFile(m_dir / "prom.yml", config);
    std::string authorization;
    if (!options.basicAuthUser.empty()) {
        writeFile(m_dir / "web.yml",
                  "basic_auth_users:\n  " + options.basicAuthUser + ": '" + options.basicAuthBcrypt + "'\n");
        authorization = "Basic " + base64Encode(options.basicAuthUser + ":" + options.basicAuthPassword);
    }
    const std::string prometheus = findExecutable("prometheus");
    const auto logPath = m_dir / "prometheus.log";

    for (int attempt = 0; attempt < 3; ++attempt) {
        m_port = freeLoopbackPort();
        std::vector<std::string> args = {prometheus, "--config.file=" + (m_dir / "prom.yml").string(),
                                         "--storage.tsdb.path=" + (m_dir / "data").string(),
                                         "--web.listen-address=127.0.0.1:" + std::to_string(m_port),
                                         "--storage.tsdb.retention.time=3650d"};
        if (!options.basicAuthUser.empty()) args.push_back("--web.config.file=" + (m_dir / "web.yml").string());
        m_pid = spawnInBackground(args, logPath.string(), &m_error);
        if (m_pid < 0) return false;

        // Ready when /-/ready says 200: the TSDB is open and queries see the backfilled blocks.
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
            if (loopbackGetStatus(m_port, "/-/ready", authorization, 1000) == 200) return true;
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
        }
        const std::string output = log();
        if (exited && output.find("address already in use") != std::string::npos) continue;  // lost the port race
        stop();
        m_error = (exited ? "prometheus exited during start-up"
                          : "prometheus was not ready within " + std::to_string(options.readyTimeoutS) + " s") +
                  std::string("; its output:\n") + output;
        return false;
    }
    m_error = "prometheus could not bind a loopback port (three tries); its output:\n" + log();
    return false;
}

void PrometheusServer::stop() {
    stopInBackground(m_pid);
    m_pid = -1;
}

}  // namespace fp8dash::test
