#pragma once
// The serving comparison in words: the CLI's text and Markdown (`fp8dash serving`), and the per-load table that the
// reports, the slide and the app's Serving tab show (docs/serving.md). Pure functions; thread-safe.

#include <string>
#include <vector>

#include "fp8dash/core/serving_comparison.h"

namespace fp8dash {

// One variant's table: a row per load point. Δ cells are against the baseline at the same load ("" for the
// baseline and where it has no such point); a figure the files lack is "—".
struct ServingTable {
    std::vector<std::string> header;  // Load, Runs, Output tok/s, Δ, Req/s, TTFT p50, TTFT p99, Δ, TPOT p50, TPOT p99,
                                      // Δ, E2E p99, SLO
    std::vector<std::vector<std::string>> rows;
    // Per row and column: +1 where the cell's change is good, -1 where bad, 0 otherwise (for colouring).
    std::vector<std::vector<int>> tone;
};
ServingTable servingTable(const ServingComparison& c, const ServingVariantResult& v);

// "24 concurrent requests within p99 TTFT ≤ 2,000 ms (first missed at 40; about 26.7 by interpolation); met again
// at 64", or why it was not judged.
std::string servingCapacityWords(const ServingComparison& c, const ServingVariantResult& v);
// "5 replicas of 2 GPUs for 120 concurrent requests; 1.00 per million output tokens at the SLO", or "".
std::string servingReplicaWords(const ServingComparison& c, const ServingVariantResult& v);

// The whole comparison: what FP8 buys (one sentence per candidate), the problems, then each variant's capacity and
// table. `commandLine` adds CLI hints (e.g. how to give an SLO) where true; reports and the app pass false.
std::string servingToText(const ServingComparison& c, bool commandLine = true);
std::string servingToMarkdown(const ServingComparison& c, bool commandLine = true);

}  // namespace fp8dash
