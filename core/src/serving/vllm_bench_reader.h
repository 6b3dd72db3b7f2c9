#pragma once
// Internal to core: the vLLM reader with the per-request arrays optional (readServingPath's preview leaves them out),
// and the helpers serving_paths.cpp uses to tell a vLLM result and its side files.
#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "fp8dash/core/serving_results.h"

namespace fp8dash::detail {

// The text (not changed; nothing past data + size is read) read as a vLLM bench result. keepRequests false: the
// per-request arrays are skipped (ServingRun::requests stays empty). textRead, where given, is called once the text
// is no longer needed (its itls lists read, the rest copied for simdjson): a mapped file's pages can go.
Result<std::vector<ServingRun>> parseVllmBenchRaw(const char* data, std::size_t size, const std::string& sourceName,
                                                  bool keepRequests, const std::function<void()>& textRead = {});

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
