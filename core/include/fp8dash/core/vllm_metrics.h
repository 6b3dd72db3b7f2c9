#pragma once
// vLLM's Prometheus metrics as they are across releases: V0 (one series per server, cache_config_info without engine)
// and V1 (one series per engine: `engine` and `model_name` labels; cache_config_info with `engine` and no
// `model_name`), the KV-cache dtypes vLLM accepts (vllm/config/cache.py CacheDType), the calculate_kv_scales risk,
// and the metric renames that leave an old query empty. Pure functions over plain data, thread-safe; the one
// function that asks a server (explainEmptyQuery) is synchronous and safe to call from any thread.

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "fp8dash/core/prometheus_client.h"
#include "fp8dash/core/time_series.h"

namespace fp8dash {

// What a cache_dtype stores. ModelDtype: no quantisation ("auto", "bfloat16", "float16"). Fp8: every FP8 variant
// (fp8, fp8_e4m3, fp8_e5m2, fp8_inc, fp8_ds_mla, fp8_per_token_head, and any later fp8_* name). OtherLowPrecision:
// quantised but not FP8 (nvfp4, nvfp4_4over6, nvfp4_ds_mla, int8_per_token_head, int4_per_token_head,
// turboquant_*). Unknown: a name fp8dash does not know.
enum class KvCacheDtypeFamily { ModelDtype, Fp8, OtherLowPrecision, Unknown };

struct KvCacheDtypeInfo {
    KvCacheDtypeFamily family = KvCacheDtypeFamily::Unknown;
    std::string description;  // "FP8 E4M3", "4-bit NVFP4, not FP8", "the model's dtype", ...
    // One K and one V scale per layer (fp8, fp8_e4m3, fp8_e5m2): without calculate_kv_scales (or scales in the
    // checkpoint) vLLM uses 1.0. The per-token-head and DeepSeek-MLA layouts compute their scales as they write, and
    // fp8_inc takes Intel Neural Compressor's calibrated ones, so the flag does not apply to them.
    bool perTensorScales = false;
};

KvCacheDtypeInfo classifyKvCacheDtype(std::string_view cacheDtype);

// The name for reports: "auto", "bfloat16", "float16" and "fp8" as they are (what reports always said); any other
// with its description, e.g. "nvfp4 (4-bit NVFP4, not FP8)", "fp8_ds_mla (FP8, DeepSeek MLA layout, ...)".
std::string describeKvCacheDtype(std::string_view cacheDtype);

// The switch to an FP8 KV cache as vllm:cache_config_info shows it, engine by engine: series are grouped by their
// deployment labels (job, model_name, engine; instance and pod are left out so that a rolling update, which
// replaces them, is still one deployment), detectCacheDtypeChange runs on each group, and the earliest switch wins.
// V0 series (no engine) form one group, so V0 answers are those of detectCacheDtypeChange. `pick` narrows the
// series by the labels they carry (V1's cache_config_info has no model_name, so model_name=... narrows nothing).
std::optional<DetectedChange> detectKvCacheSwitch(const std::vector<Series>& cacheConfigInfo, const Labels& pick = {});

// One deployment's (V1: one engine's) switch to an FP8 KV cache in vllm:cache_config_info, with what names it: the
// model (model_name on the series, or, as V1's cache_config_info has none, the model_name of the engine's
// vllm:generation_tokens_total series, matched on the labels both carry: job, instance, pod, namespace, engine), the
// engine, and the other deployment labels. Values as the labels hold them (untrusted text).
struct EngineSwitch {
    double at = 0;  // unix seconds: the first FP8 sample after a non-FP8 one
    std::string from;
    std::string to;
    std::string model;       // "" when no series names it (V0, or an engine two models share)
    std::string engine;      // "" for V0 series
    std::string deployment;  // {job="vllm"} etc. without engine and model_name; "" when none
    bool operator==(const EngineSwitch&) const = default;
};

// What fetchTimeline asks for the model behind each engine (group keeps one series per label set).
inline constexpr const char* kEngineModelQuery =
    "group by (job, instance, pod, namespace, engine, model_name) (vllm:generation_tokens_total)";

// Every deployment's switch, earliest first. `pick` narrows as for detectKvCacheSwitch and, where the series lack
// model_name, by the model found through `modelSeries` (the result of kEngineModelQuery; empty: no lookup).
std::vector<EngineSwitch> detectKvCacheSwitches(const std::vector<Series>& cacheConfigInfo, const Labels& pick = {},
                                                const std::vector<Series>& modelSeries = {});

// The switches grouped by model (by the deployment labels where no model is known), each group earliest first, the
// groups ordered by their first switch. One group: the change time is its first switch and a later last switch ends
// the rollout (a rolling update); several groups: switches of different models, which no change time can serve.
std::vector<std::vector<EngineSwitch>> kvCacheSwitchesByModel(const std::vector<EngineSwitch>& switches);

// "engine 0 of meta-llama/Llama-3.1-8B-Instruct", "engine 1 of {job=\"vllm\"}", "meta-llama/Llama-3.1-8B-Instruct",
// "vLLM" (a V0 server without labels).
std::string engineSwitchWho(const EngineSwitch& s);
// "change at 2026-11-20 14:02:00 UTC from cache_config_info: engine 0 of m switched to fp8_e4m3" (the first switch).
std::string detectedSwitchText(const std::vector<EngineSwitch>& modelSwitches);
// The rolling update: the last switch when later than the first; nullopt otherwise.
std::optional<double> kvCacheRolloutEnd(const std::vector<EngineSwitch>& modelSwitches);
// "rollout from 14:02:00 to 14:12:00 UTC (10 min): engine 0 at 14:02:00, engine 1 at 14:12:00"; "" without one.
std::string kvCacheRolloutText(const std::vector<EngineSwitch>& modelSwitches);
// "meta-llama/Llama-3.1-8B-Instruct (engine 0 at 2026-… UTC), Qwen/Qwen3-8B (engine 0 at …)": each model's first
// switch, for the error that asks to pick one.
std::string kvCacheSwitchModelsText(const std::vector<EngineSwitch>& firstOfEachModel);

// The seed's risk flag: an FP8 KV cache with per-tensor scales and calculate_kv_scales="False" in
// vllm:cache_config_info. Long contexts (> 32K tokens) accumulate error unless the checkpoint ships k/v scales.
struct KvScalesRisk {
    double since = 0;                // unix seconds: the first sample of such a series in the range
    std::string cacheDtype;          // of that series, e.g. "fp8"
    std::vector<std::string> where;  // its deployments, e.g. {engine="0", job="vllm"}; empty for V0 series
    bool operator==(const KvScalesRisk&) const = default;
};
std::optional<KvScalesRisk> findKvScalesRisk(const std::vector<Series>& cacheConfigInfo, const Labels& pick = {});
std::string kvScalesRiskText(const KvScalesRisk& risk);  // one sentence for reports

// The default throughput query with the pick's labels as matchers inside the selector, so that Prometheus picks the
// model's series before summing its engines: sum(rate(vllm:generation_tokens_total{model_name="m"}[5m])). Any other
// query is returned unchanged (the pick then applies to the series it returns).
std::string throughputQueryWithPick(const std::string& query, const Labels& pick);

// The pick narrowed to the labels `series` carry: a pick narrows a series only by the labels it has (as for
// vllm:cache_config_info), so model_name=... chooses the throughput's model and leaves a quality series without a
// model_name label as it is. The labels none of them carries are told through `notice` (the CLI's stderr, the app's
// notice area), one line naming the series (`what`, `query`) and why. `pick` is as the user wrote it; so is the
// result where every label is carried. A pick that does not parse is returned as it is (its error comes later).
std::string pickCarriedBy(const std::vector<Series>& series, const std::string& what, const std::string& query,
                          const std::string& pick, const std::function<void(const std::string&)>& notice);

// The metric names a PromQL expression selects (functions, keywords, label names, durations and strings left out),
// in order of appearance, without repeats.
std::vector<std::string> metricNamesInQuery(std::string_view promql);

// The names of `available` that share `missing`'s prefix ("vllm:" for vllm:x, "langfuse_" for langfuse_x), most
// similar first (edit distance), at most `limit`; a known successor of `missing` (metricRenameNote) comes first.
std::vector<std::string> closestMetricNames(std::string_view missing, const std::vector<std::string>& available,
                                            std::size_t limit = 5);

// What vLLM did with an old metric name, e.g. "vllm:gpu_cache_usage_perc was renamed vllm:kv_cache_usage_perc in
// vLLM 0.9 and removed in 0.12"; nullopt for names not known to have moved. `successor` gets the new name, if any.
std::optional<std::string> metricRenameNote(std::string_view name, std::string* successor = nullptr);

// Why a query came back with no series, in words, with what the server has instead: for every metric the query
// names that the server lacks in [from, to], the closest names it has (/api/v1/label/__name__/values, same prefix);
// for a metric it has, the values it holds for the pick's labels. `what` names the query ("throughput"). Never
// fails: a server that cannot list names gets the plain sentence.
std::string explainEmptyQuery(const PrometheusClient& client, const std::string& what, const std::string& promql,
                              double from, double to, const Labels& pick = {}, const Progress& progress = {});

}  // namespace fp8dash
