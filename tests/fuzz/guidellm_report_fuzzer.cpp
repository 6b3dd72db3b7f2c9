// Fuzz target: GuideLLM reports (parseGuideLlmText), JSON and YAML (the YAML through yaml-cpp into the same JSON tree:
// nesting bounded before parsing, alias expansion capped), every era's shape.
#include <cstdint>
#include <string>

#include "fp8dash/core/serving_results.h"
#include "fuzz_support.h"

using namespace fp8dash;

namespace {

void checkGuideStats(const LatencyStats& s, const char* what) {
    for (std::size_t i = 1; i < s.percentiles.size(); ++i)
        fuzz::check(s.percentiles[i - 1].first < s.percentiles[i].first, "percentiles not ascending", what);
    for (const auto& [p, v] : s.percentiles) fuzz::check(p >= 0 && p <= 100, "a percentile outside 0..100", what);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string source = "fuzz/benchmarks.yaml";
    auto runs = parseGuideLlmText(fuzz::text(data, size), source);
    if (!runs) {
        fuzz::checkErrorNames(runs.error().message, source);
        return 0;
    }
    fuzz::check(!runs->empty(), "a report read with no benchmarks");
    int index = 0;
    for (const ServingRun& run : *runs) {
        fuzz::check(run.source == source + "#" + std::to_string(++index), "a run's source is not file#N", run.source);
        fuzz::check(run.tool == ServingTool::GuideLlm, "a GuideLLM run of another tool");
        fuzz::check(run.completed >= 0 && run.failed >= 0, "a negative request count");
        fuzz::check(run.load.value >= 0, "a negative load");
        if (run.load.axis != LoadAxis::Unbounded) fuzz::check(run.load.value > 0, "a zero concurrency or rate");
        fuzz::check(run.itl.empty(), "GuideLLM has no pooled chunk gaps, yet itl was read");
        for (const auto m : {ServingMetric::Ttft, ServingMetric::Tpot, ServingMetric::Itl, ServingMetric::E2el}) {
            checkGuideStats(run.metric(m), servingMetricKey(m));
            if (run.allFailed()) fuzz::check(run.metric(m).empty(), "latencies kept when every request failed");
        }
        if (run.allFailed()) fuzz::check(!run.outputTokensPerS, "throughput kept when every request failed");
        for (const auto& [key, value] : run.metadata)
            fuzz::check(key.find("api_key") == std::string::npos, "an api_key kept in the metadata", key);
    }
    return 0;
}
