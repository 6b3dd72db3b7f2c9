#pragma once
// The `device` subcommand: the local GPU and its FP8 support, as text or JSON.

#include <iosfwd>

#include "cli_args.h"

namespace fp8dash::cli {

int cmdDevice(Args& a, std::ostream& out);

}  // namespace fp8dash::cli
