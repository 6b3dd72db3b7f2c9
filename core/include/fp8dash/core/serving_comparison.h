#pragma once
// What FP8 buys, measured: serving-benchmark runs of the baseline and its FP8 variants compared at matched load
// points, capacity at the team's latency SLO, and what that means in replicas and money (DESIGN.md "What FP8 buys
// (measured on the user's server)"; docs/serving.md). Pure functions over plain data; thread-safe.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "fp8dash/core/result.h"
#include "fp8dash/core/serving_results.h"

namespace fp8dash {

// One latency target: the given percentile of a metric at most `ms`.
struct SloTarget {
    ServingMetric metric = ServingMetric::Ttft;
    double percentile = 99;  // 50, 90, 99, 99.9; 0 means the mean
    double ms = 0;
    bool operator==(const SloTarget&) const = default;
    std::string key() const;    // "ttft_p99", "tpot_mean"
    std::string words() const;  // "p99 TTFT ≤ 2,000 ms"
};

struct ServingSlo {
    std::vector<SloTarget> targets;
    bool empty() const { return targets.empty(); }
    std::string text() const;   // "ttft_p99=2000ms,tpot_p99=50ms" (parseServingSlo reads it back)
    std::string words() const;  // "p99 TTFT ≤ 2,000 ms and p99 TPOT ≤ 50 ms"
    bool operator==(const ServingSlo&) const = default;
};

// "ttft_p99=2000ms,tpot_p99=50ms,e2el_p99=8s": metric ttft|tpot|itl|e2el, statistic p50|p90|p99|p99.9|mean (any
// pN), a limit in ms or s (a bare number is ms). Errors name the part that was wrong.
Result<ServingSlo> parseServingSlo(std::string_view text);

// The runs of one variant: label as the user gave it (or as the files say), all its load points and replicates.
struct ServingVariantInput {
    std::string label;
    std::vector<ServingRun> runs;
};

// A name for a variant the user gave no label: the label its runs share (vLLM --label, GuideLLM's "variant"), else
// what its runs say was served, named as the evals name layers ("FP8 W8A8 + FP8 KV (scales 1.0)", "BF16"), else
// `fallback` (the file or folder name). "" never: fallback is returned when nothing else says.
std::string servingVariantLabel(const std::vector<ServingRun>& runs, const std::string& fallback);

struct ServingOptions {
    ServingSlo slo;
    // What the load means for replicas: the load to serve (on the comparison's load axis: concurrent requests, or
    // requests/s) and, optionally, the GPU-hour price (any currency) for the cost per million output tokens.
    std::optional<double> targetLoad;
    std::optional<double> gpuHourCost;
    std::optional<int> gpusPerReplica;  // default: what the runs say, else 1
    // Below this measured gain (%) a single run per side cannot tell a gain from run-to-run spread (vLLM's own perf
    // dashboards move by 1-3 % between identical runs); with replicates the 95 % interval decides instead.
    double noisePct = 2.0;
    double failedShareFlag = 0.01;  // a point with more failed requests than this share is flagged with the count
};

// A figure's change against the baseline at the same load, in % of the baseline's value (the magnitude rule of the
// evals): positive = larger. `better` says whether that is good for this figure (throughput up, latency down).
struct ServingDelta {
    std::optional<double> pct;
    std::optional<double> low, high;  // 95 % interval, only with >= 2 replicates on both sides
    bool better = false;              // the change is in the good direction (false also when pct is 0 or absent)
};

// The figures of one variant at one load: each the mean over the replicates measured there.
struct ServingPointFigures {
    std::optional<double> outputTokensPerS, totalTokensPerS, requestsPerS;
    struct Latency {
        std::optional<double> mean, p50, p90, p99;
    };
    Latency ttft, tpot, itl, e2el;
    const Latency& metric(ServingMetric m) const;
};

struct ServingPoint {
    ServingLoad load;
    int replicates = 0;
    long long completed = 0, failed = 0;  // over the replicates
    bool allFailed = false;               // every request of every replicate failed: no figures, misses any SLO
    ServingPointFigures figures;
    // Requests/s meeting every SLO target as a per-request limit, from per-request arrays, where every replicate has
    // them (the SLO of vLLM's own request_goodput is not saved, so it is recomputed).
    std::optional<double> goodputRequestsPerS;
    std::vector<std::optional<double>> sloValues;  // each SLO target's statistic here (mean over replicates)
    std::optional<bool> meetsSlo;                  // nullopt without an SLO or when a target's figure is missing
    std::vector<std::string> missed;               // "p99 TTFT 2,310 ms > 2,000 ms"
    std::vector<std::string> unknown;              // targets the files give no figure for ("p99.9 TPOT")
    // Against the baseline at the same load (candidates only; empty where the baseline has no such point).
    bool hasBaseline = false;
    ServingDelta outputTokensPerS, totalTokensPerS, requestsPerS;
    struct LatencyDelta {
        ServingDelta mean, p50, p90, p99;
    };
    LatencyDelta ttft, tpot, itl, e2el;
    const LatencyDelta& delta(ServingMetric m) const;  // ttft, tpot, itl or e2el by meaning
    LatencyDelta& delta(ServingMetric m);
    // Replicate values of output tokens/s, for the interval (kept for the comparison of two candidates).
    std::vector<double> outputTokensPerSRuns;
};

// Capacity at the SLO (DESIGN.md): the highest measured load before the first point that misses any target. Sweeps
// are not monotonic, so a later point that meets the SLO again is named; an estimate between the last point met and
// the first missed, interpolated linearly in each missed figure, is marked as an estimate.
struct ServingCapacity {
    LoadAxis axis = LoadAxis::Concurrency;
    std::optional<double> load;          // nullopt: the lowest measured load already misses (or nothing judged)
    std::optional<double> firstMissAt;   // nullopt: every measured load meets the SLO (capacity is at least `load`)
    std::vector<double> metAgainAt;      // loads after the first miss that meet it again
    std::optional<double> interpolated;  // estimate between load and firstMissAt
    bool judged = false;                 // false: no SLO, or a target's figure was missing at the deciding point
    std::string unjudgedReason;
    std::optional<double> outputTokensPerS;  // the variant's output tokens/s at `load`
};

// The figures to quote for a candidate against the baseline: "what FP8 buys".
struct ServingGain {
    std::string label;
    // With an SLO: output tokens/s served at the capacity load of each (the throughput within the SLO); without one:
    // output tokens/s at the highest load both measured. Δ % with its interval where replicates allow.
    std::optional<double> pct, low, high;
    std::string basis;  // "output tokens/s within p99 TTFT ≤ 2,000 ms" / "output tokens/s at 64 concurrent"
    std::optional<double> atLoad;  // the load quoted (without an SLO)
    bool measured = false;         // false: no common figure to compare
    bool withinNoise = false;      // interval includes 0, or |pct| < noisePct with one run per side
    bool negative = false;         // a loss beyond the noise
    std::string sentence;          // one sentence for reasons, reports and slides
};

struct ServingVariantResult {
    std::string label;
    std::string model;
    std::vector<std::string> tools;                          // servingToolName of every tool among its runs
    std::string quantization, kvCacheDtype, servedEvidence;  // what the runs say was served
    std::optional<int> gpus;                                 // GPUs per replica, from the runs or the options
    std::vector<ServingPoint> points;                        // ascending load (unbounded last)
    ServingCapacity capacity;
    std::optional<ServingGain> gain;  // candidates only
    // With a target load: replicas needed (each `gpus` GPUs) at the capacity load; with a price, the cost of a
    // million output tokens at the capacity load.
    std::optional<long long> replicas;
    std::optional<double> costPerMillionOutputTokens;
    std::vector<std::string> flags;  // "3.8 % of requests failed at concurrency 64 (12 of 320)"
};

struct ServingProblem {
    bool blocking = false;
    std::string text;
};

struct ServingComparison {
    ServingSlo slo;
    ServingOptions options;
    LoadAxis axis = LoadAxis::Concurrency;       // the load axis the points are matched on
    std::vector<ServingVariantResult> variants;  // the baseline first
    std::vector<ServingProblem> problems;        // blocking ones: the variants are not comparable
    std::vector<std::string> notes;              // "tools mixed: compared through the mapped metrics"
    bool blocked() const;
    const ServingVariantResult* find(std::string_view label) const;
};

// Compares variants[0] (the baseline) with the others. Never fails: what cannot be compared is a blocking problem
// that names both sides and the figures.
ServingComparison compareServing(const std::vector<ServingVariantInput>& variants, const ServingOptions& options);

// The gain of variant `to` over variant `from` (two labels of the comparison), measured as ServingGain says: how
// the recommendation asks whether a more aggressive variant buys anything over a less aggressive one. nullopt when
// either label is unknown.
std::optional<ServingGain> servingGain(const ServingComparison& c, std::string_view from, std::string_view to);

// The stable JSON of docs/serving.md (keys only ever added): {slo, axis, variants: [{label, model, tool, points: [...],
// capacity, gain, ...}], problems, notes}.
nlohmann::ordered_json servingToJson(const ServingComparison& c);

// Load in words: "8 concurrent", "2.5 req/s", "unbounded" (and "8 concurrent requests" with requests = true).
std::string servingLoadWords(const ServingLoad& load, bool long_ = false);
std::string servingLoadValueWords(LoadAxis axis, double value, bool long_ = false);

}  // namespace fp8dash
