#pragma once
// Runs a program to completion and captures its output: the CLI tests exercise the real binary, as a user would.

#include <string>
#include <vector>

namespace fp8dash::test {

struct ProcessResult {
    int exitCode = -1;     // -1 when it did not exit normally (killed by a signal: a crash)
    int signal = 0;
    std::string out;
    std::string err;
};

// argv[0] is the program path. `unsetEnv` names variables removed from the environment (e.g. DISPLAY).
// Gives up and kills the child after timeoutSeconds.
ProcessResult runProcess(const std::vector<std::string>& argv, const std::vector<std::string>& unsetEnv = {},
                         int timeoutSeconds = 60);

}  // namespace fp8dash::test
