// Fuzz target: AIPerf / GenAI-Perf profile exports (parseAiPerfText). The input is the export, optionally followed by
// a line "#server_metrics_export.csv" and the server scrape's CSV.
#include <cstdint>
#include <string>

#include "fp8dash/core/serving_results.h"
#include "fuzz_support.h"

using namespace fp8dash;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string source = "fuzz/profile_export_aiperf.json";
    const std::string_view all = fuzz::text(data, size);
    const std::string_view marker = "\n#server_metrics_export.csv\n";
    const auto split = all.find(marker);
    const std::string_view json = all.substr(0, split);
    const std::string_view csv =
        split == std::string_view::npos ? std::string_view() : all.substr(split + marker.size());
    auto run = parseAiPerfText(json, source, csv);
    if (!run) {
        fuzz::checkErrorNames(run.error().message, source);
        return 0;
    }
    fuzz::check(run->tool == ServingTool::AiPerf || run->tool == ServingTool::GenAiPerf, "an export of another tool");
    fuzz::check(run->completed >= 0 && run->failed >= 0, "a negative request count");
    fuzz::check(run->load.axis != LoadAxis::Unbounded && run->load.value > 0, "an export without a positive load");
    for (const auto m : {ServingMetric::Ttft, ServingMetric::Tpot, ServingMetric::Itl, ServingMetric::E2el}) {
        const LatencyStats& s = run->metric(m);
        for (std::size_t i = 1; i < s.percentiles.size(); ++i)
            fuzz::check(s.percentiles[i - 1].first < s.percentiles[i].first, "percentiles not ascending");
        if (run->allFailed()) fuzz::check(s.empty(), "latencies kept when every request failed");
    }
    if (!run->kvCacheDtype.empty())
        fuzz::check(run->servedEvidence.find("cache_dtype=") != std::string::npos, "a KV dtype without its evidence");
    return 0;
}
