#pragma once
// Internal to core: the vLLM reader on a buffer the caller has padded for simdjson, so that a file read by
// readServingPath (serving_paths.cpp) is parsed in place, without the copy parseVllmBenchText makes of a string_view.
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "fp8dash/core/serving_results.h"

namespace fp8dash::detail {

// Bytes a buffer handed to parseVllmBenchPadded must have readable after its text (simdjson's SIMDJSON_PADDING).
std::size_t vllmBenchPadding();

// data[0 .. size) is the text; data[size .. size + vllmBenchPadding()) must be allocated (any content). The text is
// changed while reading (a big file's `itls` lists are blanked once read). keepRequests false: the per-request arrays
// are skipped (ServingRun::requests stays empty).
Result<std::vector<ServingRun>> parseVllmBenchPadded(char* data, std::size_t size, const std::string& sourceName,
                                                     bool keepRequests);

// Whether the text looks like a vLLM bench result (object, appended objects, or a sweep summary list): the keys
// every era writes near the top ("completed" with "request_throughput" or a *_ttft_ms / *_e2el_ms figure).
bool looksLikeVllmBench(std::string_view text);

// Reads a `vllm serve` command line stored beside results (a *vllm_command*.txt side file): --kv-cache-dtype,
// --quantization / -q, and -tp / --tensor-parallel-size (times --pipeline-parallel-size and --data-parallel-size where
// given) as a GPU count.
struct ServeCommandHints {
    std::string quantization, kvCacheDtype;
    int gpuCount = 0;  // 0 when the command does not say
};
ServeCommandHints serveCommandHints(std::string_view commandText);

}  // namespace fp8dash::detail
