#pragma once
// SIGINT and SIGTERM for a command that runs until stopped (timeline --watch, exporter): they set a flag and wake
// StopSignals::wait (a self-pipe), so the command ends between its rounds, or abandons a fetch through its Progress,
// and exits 0 with its summary. The old handlers come back when the object goes. One at a time per process.

#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <climits>
#include <csignal>

namespace fp8dash::cli {
namespace stop_signals_detail {

inline volatile std::sig_atomic_t g_stopRequested = 0;
inline int g_wakeFd = -1;

extern "C" inline void onStopSignal(int) {
    g_stopRequested = 1;
    if (g_wakeFd >= 0) {
        const char byte = 1;
        [[maybe_unused]] const auto n = ::write(g_wakeFd, &byte, 1);  // async-signal-safe; a full pipe already wakes
    }
}

}  // namespace stop_signals_detail

class StopSignals {
public:
    StopSignals() {
        if (::pipe2(m_pipe, O_CLOEXEC | O_NONBLOCK) != 0) m_pipe[0] = m_pipe[1] = -1;
        stop_signals_detail::g_stopRequested = 0;
        stop_signals_detail::g_wakeFd = m_pipe[1];
        struct sigaction sa {};
        sa.sa_handler = stop_signals_detail::onStopSignal;
        sigemptyset(&sa.sa_mask);
        sa.sa_flags = 0;  // no SA_RESTART: poll() returns at once with EINTR
        ::sigaction(SIGINT, &sa, &m_oldInt);
        ::sigaction(SIGTERM, &sa, &m_oldTerm);
    }
    ~StopSignals() {
        ::sigaction(SIGINT, &m_oldInt, nullptr);
        ::sigaction(SIGTERM, &m_oldTerm, nullptr);
        stop_signals_detail::g_wakeFd = -1;
        for (int fd : m_pipe)
            if (fd >= 0) ::close(fd);
    }
    StopSignals(const StopSignals&) = delete;
    StopSignals& operator=(const StopSignals&) = delete;

    bool requested() const { return stop_signals_detail::g_stopRequested != 0; }

    // Waits `seconds`, or less when a stop signal comes; true when one came.
    bool wait(double seconds) const {
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
        while (!requested()) {
            const auto left =
                std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
            if (left.count() <= 0) return false;
            pollfd p{m_pipe[0], POLLIN, 0};
            if (::poll(&p, 1, static_cast<int>(std::min<long long>(left.count(), INT_MAX))) > 0) {
                char buffer[16];
                while (::read(m_pipe[0], buffer, sizeof buffer) > 0) {
                }
            }
        }
        return true;
    }

private:
    int m_pipe[2] = {-1, -1};
    struct sigaction m_oldInt {};
    struct sigaction m_oldTerm {};
};

}  // namespace fp8dash::cli
