#pragma once
// A real VictoriaMetrics (Debian's `victoria-metrics`, single-node) on loopback over data a test generates: the
// server starts on a free 127.0.0.1 port with its storage in a temporary folder, the data goes in through its
// Prometheus text import (/api/v1/import/prometheus, timestamps in milliseconds), and /internal/force_flush makes it
// searchable at once. The process is stopped and its folder removed with the object. Not thread-safe; one owner.

#include <sys/types.h>

#include <filesystem>
#include <string>

namespace fp8dash::test {

struct VictoriaMetricsServerOptions {
    // Prometheus text exposition lines with a timestamp in milliseconds: `name{label="v"} value 1795852800000`.
    // Keep it within the retention (the harness keeps 10 years) and older than the present.
    std::string prometheusText;
    double readyTimeoutS = 60;
};

class VictoriaMetricsServer {
public:
    // Why no server can run here ("" when victoria-metrics is on PATH), for GTEST_SKIP.
    static std::string unavailableReason();

    explicit VictoriaMetricsServer(const VictoriaMetricsServerOptions& options);
    ~VictoriaMetricsServer();
    VictoriaMetricsServer(const VictoriaMetricsServer&) = delete;
    VictoriaMetricsServer& operator=(const VictoriaMetricsServer&) = delete;

    bool ok() const { return m_error.empty(); }
    const std::string& error() const { return m_error; }
    std::string baseUrl() const;  // "http://127.0.0.1:PORT"
    std::string log() const;      // what victoria-metrics wrote so far

private:
    bool start(const VictoriaMetricsServerOptions& options);
    bool import(const std::string& text);
    void stop();

    std::filesystem::path m_dir;
    std::string m_error;
    int m_port = 0;
    pid_t m_pid = -1;
};

}  // namespace fp8dash::test
