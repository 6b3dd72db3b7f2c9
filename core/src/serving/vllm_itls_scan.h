#pragma once
// Internal to core: the vLLM bench reader's scanner of the `itls` list of lists (vllm_itls_scan.cpp). Errors are
// thrown as VllmReadFailure, which parseVllmBenchPadded turns into an Error.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace fp8dash::detail {

struct VllmReadFailure {
    std::string message;
};
[[noreturn]] void vllmFail(std::string message);

// An `itls` list read before simdjson saw the text (vllmPrescanItls): where it lies in the text ('[' to the byte after
// its ']'), its per-request sums and counts, and where its (emptied) copy starts in the text simdjson reads.
struct VllmItlsRegion {
    std::size_t open = 0, close = 0;
    const char* start = nullptr;
    std::vector<double> sums;
    std::vector<std::uint32_t> counts;
};

// Texts above this size have their `itls` lists read before simdjson indexes them. Small, so that the fuzzer's inputs
// take this path too.
constexpr std::size_t kVllmPrescanBytes = std::size_t{4} << 10;

// Reads the list of lists starting at p (its '['; whitespace before it allowed) into per-request sums and counts of
// chunk gaps; returns the byte after its closing ']'. Reads nothing at or past `end`.
const char* vllmScanItls(const char* p, const char* end, std::vector<double>& sums, std::vector<std::uint32_t>& counts,
                         const std::string& where);

// Finds every `"itls": [` key of the text and reads its list (the text is not changed).
void vllmPrescanItls(const char* data, std::size_t size, std::vector<VllmItlsRegion>& regions,
                     const std::string& where);

// Tests: true reads every gap with the scalar scanner (the path of CPUs without AVX2).
void vllmItlsScalarOnlyForTests(bool scalarOnly);

}  // namespace fp8dash::detail
