#pragma once
// The KV-cache evidence in one figure and one sentence, chosen in one place for the CLI table, the report, the slide
// and the Local benchmarks tab (the "headline rule"): the attention-output error (attn_out_rel_rmse) of per_tensor
// scaling (vLLM's --calculate-kv-scales) at the longest context measured with it, falling back to per_head, then
// none; beside it the none row's saturated count at the same context when it is non-zero (scale 1.0 is what vLLM
// uses without scales). Results of older fp8dash lack the attention-output error: their headline is the K/V relative
// RMSE, saying the file predates the metric; their old attention figure is never presented as the new one.
// Also the metrics' one-line definitions (the README's words), for report definition lists and tooltips.
// Pure functions of their arguments; thread-safe.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "fp8dash/core/local_bench.h"

namespace fp8dash {

struct KvHeadline {
    std::size_t row = 0;   // index of the headline point in BenchResults::kv
    bool legacy = false;   // every row predates attn_out_rel_rmse: value is the row's K/V rel RMSE (K and V together)
    double value = 0;      // the figure as a fraction
    std::string figure;    // value as a percentage: "2.7%"
    std::string metric;    // "attention-output error" or, legacy, "K/V rel. RMSE"
    std::string where;     // "per_tensor scaling, 16K tokens"
    std::string interval;  // "95% CI 4.2–7.8%" when the row carries its interval (empty in older files)
    // The other modes at the same context against this one, paired by head (kv_interval.h): which differ beyond the
    // sampling error and by how much, and which do not. Empty when the rows carry no paired differences.
    std::string comparison;
    std::optional<std::uint64_t> noneSaturated;  // K + V saturated of the none row at the same context, when > 0
    bool synthetic = true;                       // the cache was synthetic (always so in older files)
    std::string source;   // "synthetic cache" or "dump llama.safetensors (BF16), 32 × 8 × 32,768 × 128"
    std::string reading;  // how to read the figure: one sentence, plus the saturation note when there is one
    // "attention-output error 2.7% (95% CI 2.1–3.2%; per_tensor scaling, 16K tokens; synthetic cache)"
    std::string summary() const;
};

// nullopt when there is no KV row with a finite figure.
std::optional<KvHeadline> kvHeadline(const BenchResults& results);

// "2048" -> "2K", 131072 -> "128K", 1000 -> "1000".
std::string kvContextText(int tokens);
// A fraction as a percentage for the KV figures: 0.0268 -> "2.7%", 0.00412 -> "0.41%", 0.0000312 -> "0.0031%".
std::string kvPercentText(double fraction);
// An interval of fractions as percentages with one sign: (0.042, 0.078) -> "4.2–7.8%".
std::string kvRangeText(double low, double high);
// "synthetic cache" / "dump <description>, L × H × T × D" (the source of a row; older rows: "synthetic cache").
std::string kvSourceText(const BenchKvSource& source);

// The KV section of `fp8dash bench`'s text: the table (K and V rel RMSE, saturated K and V, attention-output error,
// attention TVD, elements per second; older files' attention figure in a labelled column of its own), the source, the
// headline with its reading, and the definitions in one line each. Starts with a blank line, ends with a newline.
std::string kvResultsText(const BenchResults& results);

// One metric of the KV table: a short column name, and its definition in one line (formula and meaning).
struct KvMetricDefinition {
    std::string key;         // the JSON field: "attn_out_rel_rmse", "key.rel_rmse", ...
    std::string name;        // "Attention-output error"
    std::string definition;  // one line
};
// In table order: attention-output error, attention-weight TVD, attention-output cosine, attention entropy, K rel
// RMSE, V rel RMSE, K/V rel RMSE, saturated, max abs error, cosine, elements per second, and the legacy figure.
const std::vector<KvMetricDefinition>& kvMetricDefinitions();
// The definition of one key (an empty string for an unknown key).
std::string kvMetricDefinition(const std::string& key);

}  // namespace fp8dash
