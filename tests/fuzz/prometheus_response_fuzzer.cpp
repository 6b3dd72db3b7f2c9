// Fuzz target: Prometheus HTTP API responses (parsePrometheusResponse) as a success, a client error and a server
// error, and the FP8 switch detection over the series that come back (detectCacheDtypeChange, engine by engine in
// detectKvCacheSwitch, and the calculate_kv_scales risk).
#include <cmath>
#include <cstdint>
#include <string>

#include "fp8dash/core/prometheus_client.h"
#include "fp8dash/core/vllm_metrics.h"
#include "fuzz_support.h"

using namespace fp8dash;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string body(fuzz::text(data, size));
    const std::string where = "http://prometheus.fuzz:9090/api/v1/query_range";
    for (long status : {200L, 400L, 422L, 503L}) {
        auto r = parsePrometheusResponse(body, status, where);
        if (!r) {
            fuzz::checkErrorNames(r.error().message, where);
            continue;
        }
        fuzz::check(r->resultType == "matrix" || r->resultType == "vector" || r->resultType == "scalar" ||
                        r->resultType == "string",
                    "an unknown result type was accepted", r->resultType);
        for (const Series& s : r->series)
            for (std::size_t i = 0; i < s.samples.size(); ++i)
                fuzz::check(std::isfinite(s.samples[i].t), "a sample without a finite timestamp was accepted");
        if (auto change = detectCacheDtypeChange(r->series))
            fuzz::check(std::isfinite(change->at), "a detected change without a finite time");
        if (auto change = detectKvCacheSwitch(r->series))
            fuzz::check(std::isfinite(change->at), "a per-engine change without a finite time");
        if (auto risk = findKvScalesRisk(r->series))
            fuzz::check(std::isfinite(risk->since) && classifyKvCacheDtype(risk->cacheDtype).perTensorScales,
                        "a KV-scales risk without a time or for a dtype with its own scales");
    }
    return 0;
}
