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

// An `itls` list read before simdjson saw the text (vllmPrescanItls), found again by where it starts.
struct VllmItlsRegion {
    const char* start = nullptr;
    std::vector<double> sums;
    std::vector<std::uint32_t> counts;
};

// Texts above this size have their `itls` lists read and blanked before simdjson indexes them. Small, so that the
// fuzzer's inputs take this path too.
constexpr std::size_t kVllmPrescanBytes = std::size_t{4} << 10;

// Reads the list of lists starting at p (its '['; whitespace before it allowed) into per-request sums and counts of
// chunk gaps; returns the byte after its closing ']'. Reads up to 32 bytes past `end` (the text's padding).
const char* vllmScanItls(const char* p, const char* end, std::vector<double>& sums, std::vector<std::uint32_t>& counts,
                         const std::string& where);

// Finds every `"itls": [` key of the text, reads its list and blanks it (spaces between the brackets).
void vllmPrescanItls(char* data, std::size_t size, std::vector<VllmItlsRegion>& regions, const std::string& where);

}  // namespace fp8dash::detail
