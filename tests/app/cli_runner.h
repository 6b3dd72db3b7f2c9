#pragma once
// Runs the real fp8dash binary as a user would, without a display, and reads its JSON output.

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "process.h"

namespace fp8dash::test {

inline ProcessResult fp8dashCli(std::vector<std::string> args) {
    args.insert(args.begin(), FP8DASH_EXE);
    return runProcess(args, {"DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"});
}

// stdout as JSON; a test failure (with both streams shown) when it is not.
inline nlohmann::json parseJson(const ProcessResult& r) {
    try {
        return nlohmann::json::parse(r.out);
    } catch (const std::exception& e) {
        ADD_FAILURE() << "stdout is not JSON: " << e.what() << "\n" << r.out << "\nstderr: " << r.err;
        return {};
    }
}

}  // namespace fp8dash::test
