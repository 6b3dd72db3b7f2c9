#pragma once
// The `capacity` and `plan` subcommands (README "Capacity and the plan"). Run without a display. Bad input throws
// UsageError; cli::run turns it (and any other exception) into the exit code.

#include <iosfwd>
#include <string>
#include <vector>

namespace fp8dash::cli {

// args excludes the subcommand's name. Exit codes as cli.h: 0 ran (a plan that does not fit still ran: its JSON and
// warnings say so), 2 bad input or usage, 1 internal error.
int runCapacity(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
int runPlan(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

// The usage lines of both subcommands, for `fp8dash --help`.
std::string capacityUsage();

}  // namespace fp8dash::cli
