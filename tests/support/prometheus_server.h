#pragma once
// A real Prometheus (Debian's 2.42 `prometheus` + `promtool`) on loopback over data a test generates: the OpenMetrics
// text is backfilled with `promtool tsdb create-blocks-from openmetrics`, then `prometheus` serves that TSDB on a free
// 127.0.0.1 port, optionally behind basic auth (--web.config.file). The process is stopped and its folder removed
// with the object. Recipe and pitfalls: shared/notes/data-formats.md §3.6-3.7. Not thread-safe; one owner.

#include <sys/types.h>

#include <filesystem>
#include <string>
#include <vector>

namespace fp8dash::test {

// A port the kernel just handed out on 127.0.0.1 and that is free again (0 when none): a server binds it a moment
// later, a rare race its harness answers by trying another port.
// A number as the backfill and import texts need it: 17 significant digits (round-trips a double), C locale.
std::string openMetricsNumber(double v);

int freeLoopbackPort();

// A one-shot HTTP/1.0 GET on loopback, independent of the client under test: the status code, or 0 when nothing
// answered within timeoutMs. `authorization`: the Authorization header's value, or "".
int loopbackGetStatus(int port, const std::string& path, const std::string& authorization, int timeoutMs);

struct PrometheusServerOptions {
    // Backfill input: OpenMetrics text, timestamps in unix seconds, time-ordered per series, ending with "# EOF".
    // Keep it older than ~3 h (the head block's span) so that promtool's blocks are all served.
    std::string openMetrics;
    // promtool's --max-block-duration (e.g. "24h"): days of data in fewer blocks backfill and open faster. "": 2 h.
    std::string maxBlockDuration;
    // Basic auth for every endpoint when basicAuthUser is set: Prometheus checks the bcrypt hash; the harness
    // sends the plain password only for its own readiness poll.
    std::string basicAuthUser;
    std::string basicAuthBcrypt;
    std::string basicAuthPassword;
    double readyTimeoutS = 60;
    // Targets the server scrapes itself ("host:port" on loopback, path /metrics) every scrapeInterval (e.g. "1s"),
    // as job "fp8dash": for an exporter under test. With no openMetrics, nothing is backfilled.
    std::vector<std::string> scrapeTargets;
    std::string scrapeInterval = "15s";
};

class PrometheusServer {
public:
    // Why no server can run here ("" when prometheus and promtool are on PATH), for GTEST_SKIP.
    static std::string unavailableReason();

    // Backfills, starts and waits for /-/ready. On failure ok() is false and error() says what happened, with the
    // tools' output.
    explicit PrometheusServer(const PrometheusServerOptions& options);
    ~PrometheusServer();
    PrometheusServer(const PrometheusServer&) = delete;
    PrometheusServer& operator=(const PrometheusServer&) = delete;

    bool ok() const { return m_error.empty(); }
    const std::string& error() const { return m_error; }
    int port() const { return m_port; }
    std::string baseUrl() const;  // "http://127.0.0.1:PORT"
    std::string log() const;      // what prometheus wrote so far (stdout and stderr)

private:
    bool backfill(const PrometheusServerOptions& options);
    bool start(const PrometheusServerOptions& options);
    void stop();

    std::filesystem::path m_dir;  // config, log and TSDB; removed by the destructor
    std::string m_error;
    int m_port = 0;
    pid_t m_pid = -1;
};

}  // namespace fp8dash::test
