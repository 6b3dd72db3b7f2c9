// The desktop app as two processes: a running fp8dash takes the file a second start hands it (a double-click in the
// file manager), the second start exits at once; SIGTERM makes the first quit cleanly. Both are the real binary on
// Qt's offscreen platform, with a session folder (XDG_RUNTIME_DIR), settings and data of the test's own.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <thread>

#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "process.h"
#include "test_paths.h"

namespace fp8dash::test {
namespace {

// A child process left running in the background, killed with the object.
class Background {
public:
    explicit Background(const std::vector<std::string>& argv, const std::string& logPath)
        : m_pid(test::spawnInBackground(argv, logPath)) {}
    ~Background() {
        if (m_pid > 0 && !m_reaped) {
            ::kill(m_pid, SIGKILL);
            ::waitpid(m_pid, nullptr, 0);
        }
    }
    pid_t pid() const { return m_pid; }
    bool alive() {
        if (m_reaped) return false;
        int status = 0;
        const pid_t r = ::waitpid(m_pid, &status, WNOHANG);
        if (r == m_pid) {
            m_reaped = true;
            m_status = status;
            return false;
        }
        return true;
    }
    // Waits up to `seconds` for the process to end; its wait status, or -1 when it did not end.
    int waitExit(int seconds) {
        for (int i = 0; i < seconds * 20; ++i) {
            if (!alive()) return m_status;
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
        }
        return -1;
    }

private:
    pid_t m_pid = -1;
    bool m_reaped = false;
    int m_status = 0;
};

std::string readFile(const std::filesystem::path& p) {
    std::ifstream in(p);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

bool waitFor(const std::function<bool()>& condition, int seconds) {
    for (int i = 0; i < seconds * 20; ++i) {
        if (condition()) return true;
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    return condition();
}

TEST(GuiInstance, ASecondStartHandsItsFileToTheRunningAppAndExits) {
    TempDir home;
    const auto runtime = home.path() / "runtime";
    std::filesystem::create_directories(runtime);
    ::chmod(runtime.c_str(), 0700);
    // The environment both processes inherit: offscreen, no D-Bus (no keychain, no portal), private folders.
    ::setenv("QT_QPA_PLATFORM", "offscreen", 1);
    ::setenv("XDG_RUNTIME_DIR", runtime.c_str(), 1);
    ::setenv("XDG_CONFIG_HOME", (home.path() / "config").c_str(), 1);
    ::setenv("XDG_DATA_HOME", (home.path() / "data").c_str(), 1);
    ::setenv("DBUS_SESSION_BUS_ADDRESS", "unix:path=/nonexistent/fp8dash-test-bus", 1);
    ::unsetenv("DISPLAY");
    ::unsetenv("WAYLAND_DISPLAY");

    const std::string demo = FP8DASH_SOURCE_DIR "/resources/demo/llama3-8b-instruct-fp8.fp8cmp";
    const auto file = home.path() / "handed over.fp8cmp";
    std::filesystem::copy_file(demo, file);

    const auto log = home.path() / "first.log";
    Background first({FP8DASH_EXE}, log.string());
    ASSERT_GT(first.pid(), 0);
    const auto socket = runtime / "fp8dash-instance";
    ASSERT_TRUE(waitFor([&] { return std::filesystem::exists(socket); }, 30))
        << "the first fp8dash never listened; its output:\n"
        << readFile(log);

    // The second start: hands the file over and exits 0 at once, naming the running instance.
    const auto second = runProcess({FP8DASH_EXE, file.string()}, {}, 60);
    EXPECT_EQ(second.exitCode, 0) << second.err;
    EXPECT_NE(second.out.find("the running fp8dash (pid " + std::to_string(first.pid()) + ") opens 1 file(s)"),
              std::string::npos)
        << second.out << second.err;
    EXPECT_TRUE(first.alive());

    // The first one opened it: it is at the top of the recent files it keeps in its settings.
    const auto settings = home.path() / "config" / "fp8dash" / "fp8dash.conf";
    EXPECT_TRUE(waitFor([&] { return readFile(settings).find("handed over.fp8cmp") != std::string::npos; }, 30))
        << "settings:\n"
        << readFile(settings) << "\nlog:\n"
        << readFile(log);

    // SIGTERM: it quits cleanly (exit 0), and the next start becomes the instance itself.
    ASSERT_EQ(::kill(first.pid(), SIGTERM), 0);
    const int status = first.waitExit(30);
    ASSERT_NE(status, -1) << "fp8dash did not quit on SIGTERM";
    EXPECT_TRUE(WIFEXITED(status)) << "status " << status;
    EXPECT_EQ(WEXITSTATUS(status), 0) << readFile(log);

    const auto log2 = home.path() / "next.log";
    Background next({FP8DASH_EXE}, log2.string());
    EXPECT_TRUE(waitFor([&] { return std::filesystem::exists(socket) && next.alive(); }, 30)) << readFile(log2);
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
    EXPECT_TRUE(next.alive()) << "the next start should run on its own, not hand off to a dead one:\n"
                              << readFile(log2);
    ::kill(next.pid(), SIGTERM);
    EXPECT_NE(next.waitExit(30), -1);
}

}  // namespace
}  // namespace fp8dash::test
