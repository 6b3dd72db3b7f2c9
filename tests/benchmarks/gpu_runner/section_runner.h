#pragma once
// The runner's sections one at a time (GEMM, bandwidth, KV), the report written to its file after each, so a run
// stopped by a time limit (SIGTERM, then SIGKILL 20 s later) leaves the sections it finished on disk; and the plan of
// a run (--plan), printed without running anything.

#include "fp8dash/gpu/bench.h"

#include <functional>
#include <ostream>
#include <string>

namespace fp8dash::gpu::runner {

// What a section not reached says in a partial report (the file as it is between two sections).
inline constexpr const char* kPendingReason = "not run: the runner was stopped before this section";

// Runs each requested section of `request` as its own runBench request, in the order gemm, bandwidth, kv, and calls
// `written` with the report so far after each (pending sections marked with kPendingReason, cancelled = true), then
// returns the whole report. Sections not requested say what a single run of `request` says. Warnings are merged
// without repeats. A cancelled section ends the run; the sections after it say "cancelled".
BenchReport runSections(const BenchRequest& request, const BenchProgress& progress,
                        const std::function<void(const BenchReport&)>& written);

// The cases a run of `request` would measure, one line each, and an upper bound on the measured time; `device` says
// where they would run (a GPU name, or why the CPU).
void printPlan(std::ostream& out, const BenchRequest& request, const std::string& device);

// Writes `text` to `path` through a temporary file and a rename, so a reader never sees half a report. False on error.
bool writeFileAtomically(const std::string& path, const std::string& text);

}  // namespace fp8dash::gpu::runner
