#pragma once
// `fp8dash exporter` as a test runs it: the real binary in the background against a Langfuse test server (its keys
// in the environment), on a free loopback port; /metrics scraped with core's HTTP client; scores in the recent past
// minutes of the wall clock, so that the exporter's first fetch holds them all. Waits are bounded polls of a
// condition, never a fixed sleep.
#include <gtest/gtest.h>

#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "fp8dash/core/http_client.h"
#include "langfuse_test_server.h"
#include "process.h"
#include "prometheus_exposition.h"
#include "prometheus_server.h"
#include "test_http_server.h"

namespace fp8dash::test {

inline double wallNow() {
    return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

// Polls `done` every 100 ms for at most timeoutS; true when it held.
inline bool waitFor(double timeoutS, const std::function<bool()>& done) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeoutS);
    while (std::chrono::steady_clock::now() < deadline) {
        if (done()) return true;
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    return done();
}

// Four scores a minute over the minutes 10 .. 4 before the current one, half tagged precision:fp8 (the selection
// the tests export), the rest precision:bf16; values that are no round numbers.
inline std::vector<LangfuseSeedScore> recentScores(double now) {
    const double minute = std::floor(now / 60) * 60;
    std::vector<LangfuseSeedScore> out;
    int n = 0;
    for (int m = 10; m >= 4; --m)
        for (int k = 0; k < 4; ++k, ++n) {
            LangfuseSeedScore s;
            s.id = "score-" + std::to_string(n);
            s.traceId = "trace-" + std::to_string(n);
            s.timestamp = minute - m * 60 + 3 + 14 * k;
            s.value = 1 + std::fmod(0.731 * n + 0.29 * k, 4.0);
            s.traceTags = {n % 2 ? "precision:fp8" : "precision:bf16"};
            out.push_back(s);
        }
    return out;
}

struct ScoreTotals {
    long double sum = 0;
    double count = 0;
};
inline ScoreTotals totalsWithTag(const std::vector<LangfuseSeedScore>& scores, const std::string& tag) {
    ScoreTotals t;
    for (const auto& s : scores)
        for (const auto& g : s.traceTags)
            if (g == tag) t.sum += s.value, t.count += 1;
    return t;
}

class ExporterProcess {
public:
    // Starts `fp8dash exporter ARGS --listen 127.0.0.1:PORT` with the server's keys in the environment.
    ExporterProcess(const LangfuseTestServer& server, std::vector<std::string> args)
        : ExporterProcess(server.baseUrl(), server.options().publicKey, server.options().secretKey, std::move(args)) {}
    ExporterProcess(const std::string& langfuseUrl, const std::string& publicKey, const std::string& secretKey,
                    std::vector<std::string> args) {
        ::setenv("LANGFUSE_PUBLIC_KEY", publicKey.c_str(), 1);
        ::setenv("LANGFUSE_SECRET_KEY", secretKey.c_str(), 1);
        m_port = freeLoopbackPort();
        m_log = (std::filesystem::temp_directory_path() /
                 ("fp8dash-exporter-" + std::to_string(::getpid()) + "-" + std::to_string(m_port) + ".log"))
                    .string();
        args.insert(args.begin(), {FP8DASH_EXE, "exporter", "--langfuse", langfuseUrl});
        args.push_back("--listen");
        args.push_back("127.0.0.1:" + std::to_string(m_port));
        m_pid = spawnInBackground(args, m_log, &m_error);
    }
    ~ExporterProcess() {
        stopInBackground(m_pid, 5);
        std::remove(m_log.c_str());
    }
    ExporterProcess(const ExporterProcess&) = delete;
    ExporterProcess& operator=(const ExporterProcess&) = delete;

    bool started() const { return m_pid > 0; }
    const std::string& error() const { return m_error; }
    int port() const { return m_port; }
    std::string log() const {
        std::ifstream in(m_log);
        std::stringstream ss;
        ss << in.rdbuf();
        return ss.str();
    }
    // /metrics now: its samples, or none when it does not answer (yet).
    std::vector<Sample> scrape() const {
        HttpOptions o;
        o.maxRetries = 0;
        o.totalTimeoutS = 5;
        o.connectTimeoutS = 2;
        const auto r = HttpClient(o).get("http://127.0.0.1:" + std::to_string(m_port) + "/metrics");
        if (!r || r->status != 200) return {};
        return parseExposition(r->body);
    }
    static double value(const std::vector<Sample>& samples, const std::string& name, double otherwise = -1) {
        const Sample* s = findSample(samples, name);
        return s ? s->value : otherwise;
    }
    // SIGTERM and the exit status (-1: not exited normally).
    int terminate(int signal = SIGTERM) {
        if (m_pid <= 0) return -1;
        ::kill(m_pid, signal);
        int status = 0;
        const bool exited = waitFor(10, [&] { return ::waitpid(m_pid, &status, WNOHANG) == m_pid; });
        if (!exited) return -1;
        m_pid = -1;
        return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    }

private:
    pid_t m_pid = -1;
    int m_port = 0;
    std::string m_log;
    std::string m_error;
};

}  // namespace fp8dash::test
