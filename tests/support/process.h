#pragma once
// Runs a program to completion and captures its output: the CLI tests exercise the real binary, as a user would.

#include <sys/types.h>

#include <string>
#include <vector>

namespace fp8dash::test {

struct ProcessResult {
    int exitCode = -1;  // -1 when it did not exit normally (killed by a signal: a crash)
    int signal = 0;
    std::string out;
    std::string err;
};

// argv[0] is the program path. `unsetEnv` names variables removed from the environment (e.g. DISPLAY).
// Gives up and kills the child after timeoutSeconds.
ProcessResult runProcess(const std::vector<std::string>& argv, const std::vector<std::string>& unsetEnv = {},
                         int timeoutSeconds = 60);

// The full path of an executable file `name` on PATH (else /usr/local/bin, /usr/bin, /bin), or "" when there is none.
std::string findExecutable(const std::string& name);

// Starts argv (argv[0]: the program path) and returns at once: standard input from /dev/null, standard output and
// error both to `logPath` (created or truncated). The child's pid, or -1 with the reason in `error` when given.
// The caller signals and reaps it.
pid_t spawnInBackground(const std::vector<std::string>& argv, const std::string& logPath = "/dev/null",
                        std::string* error = nullptr);

// Stops a child started by spawnInBackground: SIGTERM, then SIGKILL if it has not exited within graceSeconds; reaps
// it. Does nothing for pid <= 0.
void stopInBackground(pid_t pid, int graceSeconds = 10);

}  // namespace fp8dash::test
