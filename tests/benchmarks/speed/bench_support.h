#pragma once
// Helpers of the Google Benchmark executables (tests/benchmarks/README.md): a child process timed from its spawn to
// its first line of output and to its exit, with its peak memory (for Python's json.load, curl, the fp8dash binary and
// the benchmarks' own load-only mode; test::runProcess captures output but times nothing), a scratch folder for
// generated files, and this process' peak memory. Executables are found with
// test::findExecutable (process.h). Header-only; one thread.

#include <benchmark/benchmark.h>
#include <fcntl.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "process.h"

extern char** environ;

namespace fp8dash::bench {

struct ChildRun {
    int exitCode = -1;            // -1: could not start it, or it did not exit normally
    std::string out;              // its standard output (standard error goes to ours)
    double wallSeconds = 0;       // from the spawn to its exit
    double firstLineSeconds = 0;  // from the spawn to the end of its first line of output (0 when none)
    long peakRssKiB = 0;          // its peak resident memory (wait4's ru_maxrss), KiB
};

// Runs argv (argv[0]: a path) with `extraEnv` ("NAME=value") added to the environment and waits for it.
inline ChildRun runChild(const std::vector<std::string>& argv, const std::vector<std::string>& extraEnv = {}) {
    ChildRun run;
    int outPipe[2];
    if (::pipe(outPipe) != 0) return run;
    std::vector<std::string> envStrings;
    for (char** e = environ; *e; ++e) envStrings.emplace_back(*e);
    for (const auto& kv : extraEnv) {
        const auto name = kv.substr(0, kv.find('=') + 1);
        std::erase_if(envStrings, [&](const std::string& s) { return s.rfind(name, 0) == 0; });
        envStrings.push_back(kv);
    }
    std::vector<char*> envp, args;
    for (auto& s : envStrings) envp.push_back(s.data());
    envp.push_back(nullptr);
    std::vector<std::string> argCopy = argv;
    for (auto& s : argCopy) args.push_back(s.data());
    args.push_back(nullptr);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, outPipe[1], 1);
    posix_spawn_file_actions_addclose(&actions, outPipe[0]);
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    pid_t pid = 0;
    const auto started = std::chrono::steady_clock::now();
    const int rc = ::posix_spawn(&pid, args[0], &actions, nullptr, args.data(), envp.data());
    posix_spawn_file_actions_destroy(&actions);
    ::close(outPipe[1]);
    if (rc != 0) {
        ::close(outPipe[0]);
        return run;
    }
    char buf[65536];
    for (ssize_t n; (n = ::read(outPipe[0], buf, sizeof buf)) != 0;) {
        if (n < 0) {
            if (errno == EINTR) continue;
            break;
        }
        run.out.append(buf, static_cast<std::size_t>(n));
        if (run.firstLineSeconds == 0 && run.out.find('\n') != std::string::npos)
            run.firstLineSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    }
    ::close(outPipe[0]);
    int status = 0;
    struct rusage usage {};
    while (::wait4(pid, &status, 0, &usage) < 0 && errno == EINTR) {
    }
    run.peakRssKiB = usage.ru_maxrss;
    run.wallSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    run.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return run;
}

// FP8DASH_BENCH_DIR, else a folder under the temporary directory made for this process and removed at its exit.
inline const std::filesystem::path& scratchDir() {
    struct Dir {
        std::filesystem::path path;
        bool owned = false;
        Dir() {
            if (const char* d = std::getenv("FP8DASH_BENCH_DIR"); d && *d) {
                path = d;
                std::filesystem::create_directories(path);
                return;
            }
            std::string tmpl = (std::filesystem::temp_directory_path() / "fp8dash-bench-XXXXXX").string();
            path = ::mkdtemp(tmpl.data());
            owned = true;
        }
        ~Dir() {
            std::error_code ec;
            if (owned) std::filesystem::remove_all(path, ec);
        }
    };
    static const Dir dir;
    return dir.path;
}

// Registers each benchmark once a round, `rounds` rounds, one after the other within a round ("NAME/round:K"), so
// that a machine shared with other work loads them alike; one iteration each, in milliseconds, timed manually (the
// function sets the iteration time) or by the wall clock.
struct RoundBenchmark {
    const char* name;
    void (*function)(benchmark::State&);
    bool manualTime;
};
inline void registerAlternatingRounds(const std::vector<RoundBenchmark>& benchmarks, int rounds = 3) {
    for (int round = 0; round < rounds; ++round)
        for (const auto& b : benchmarks) {
            auto* registered = benchmark::RegisterBenchmark(
                (std::string(b.name) + "/round:" + std::to_string(round + 1)).c_str(), b.function);
            (b.manualTime ? registered->UseManualTime() : registered->UseRealTime())
                ->Iterations(1)
                ->Unit(benchmark::kMillisecond);
        }
}

// Peak resident memory of this process since its exec, KiB (/proc/self/status VmHWM); 0 when unknown.
inline long selfPeakRssKiB() {
    std::ifstream status("/proc/self/status");
    for (std::string line; std::getline(status, line);)
        if (line.rfind("VmHWM:", 0) == 0) return std::strtol(line.c_str() + 6, nullptr, 10);
    return 0;
}

}  // namespace fp8dash::bench
