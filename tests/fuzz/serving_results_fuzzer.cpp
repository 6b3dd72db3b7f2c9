// Fuzz target: serving-benchmark results read from text (parseServingText: the tool recognised by the content, then
// the vLLM bench, GuideLLM or AIPerf reader). Invariants: nothing crashes; an error names the input; every run has
// non-negative counts; a run where every request failed shows no latency (vLLM writes 0.0 for each); percentiles
// ascend; the per-request vectors have one entry per request each.
#include <cstdint>
#include <string>

#include "fp8dash/core/serving_results.h"
#include "fuzz_support.h"

using namespace fp8dash;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string source = "fuzz/serving.json";
    auto runs = parseServingText(fuzz::text(data, size), source);
    if (!runs) {
        fuzz::checkErrorNames(runs.error().message, source);
        return 0;
    }
    for (const ServingRun& r : *runs) {
        fuzz::check(r.completed >= 0 && r.failed >= 0, "a negative request count");
        fuzz::check(r.source.find(source) == 0, "a run's source does not name the input", r.source);
        const double share = r.failedShare();
        fuzz::check(share >= 0 && share <= 1, "a failed share outside 0..1");
        if (r.allFailed())
            for (ServingMetric m : {ServingMetric::Ttft, ServingMetric::Tpot, ServingMetric::Itl, ServingMetric::E2el})
                fuzz::check(r.metric(m).empty(), "a run where every request failed shows a latency");
        for (ServingMetric m : {ServingMetric::Ttft, ServingMetric::Tpot, ServingMetric::Itl, ServingMetric::E2el}) {
            const auto& ps = r.metric(m).percentiles;
            for (std::size_t i = 1; i < ps.size(); ++i)
                fuzz::check(ps[i - 1].first <= ps[i].first, "percentiles out of order");
        }
        const std::size_t n = r.requests.size();
        fuzz::check(
            r.requests.tpotMs.size() == n && r.requests.e2elMs.size() == n && r.requests.outputTokens.size() == n,
            "per-request vectors of different lengths");
        fuzz::check(r.load.value >= 0 || r.load.axis != LoadAxis::Unbounded, "an unbounded load with a value");
    }
    return 0;
}
