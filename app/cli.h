#pragma once
// The command-line interface (subcommands compare, report, demo, device). Runs without a display or an event loop.

#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

namespace fp8dash::cli {

// Exit codes (README "Command line"): 0 ran, 3 the verdict reached --fail-on, 2 bad input or usage, 1 internal error.
inline constexpr int kExitOk = 0;
inline constexpr int kExitInternal = 1;
inline constexpr int kExitBadInput = 2;
inline constexpr int kExitFailOn = 3;

// Whether argv names a CLI subcommand (or --help/--version) rather than files for the GUI.
bool isCliInvocation(const std::vector<std::string>& args);

// Runs a subcommand; args excludes the program name. Never throws.
int run(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

// With no display: prints the report of the given comparison files, or of the bundled demo when none is given.
int printHeadless(const std::vector<std::string>& files, std::ostream& out, std::ostream& err);

std::string usage();

}  // namespace fp8dash::cli
