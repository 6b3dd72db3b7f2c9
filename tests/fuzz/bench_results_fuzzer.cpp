// Fuzz target: the gpu/ benchmark JSON read back (parseBenchResults: `fp8dash bench --format json`, the GPU runner's
// output, a comparison file's "benchmarks" section) and its text rendering.
#include <cstdint>
#include <string>

#include "fp8dash/core/local_bench.h"
#include "fuzz_support.h"

using namespace fp8dash;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string source = "fuzz/bench.json";
    auto json = parseJsonText(fuzz::text(data, size), source);
    if (!json) {
        fuzz::checkErrorNames(json.error().message, source);
        return 0;
    }
    auto r = parseBenchResults(*json, source);
    if (!r) {
        fuzz::checkErrorNames(r.error().message, source);
        return 0;
    }
    const std::string text = benchResultsToText(*r);
    fuzz::check(!text.empty(), "benchmark results render as nothing");
    return 0;
}
