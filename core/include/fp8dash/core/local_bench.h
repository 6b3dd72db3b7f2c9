#pragma once
// Benchmark orchestration over gpu/ (DESIGN.md): builds the benchmark request from a model preset, runs it on the
// GPU worker thread (or the CPU twin), and turns the gpu/ report into core types the UI shows and the comparison file
// keeps (ui never includes gpu/ headers). The JSON written by gpu/ (gpu::benchReportToJson) is the one format: it is
// what `fp8dash bench --format json` prints, what the Qt-free GPU runner writes, and what the comparison file's
// "benchmarks" section holds (plus "created"); core parses it back with parseBenchResults.
// runLocalBench is synchronous and takes a progress/cancel callback; every function is thread-safe.

#include <cstdint>
#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "fp8dash/core/capacity.h"
#include "fp8dash/core/lm_eval_results.h"
#include "fp8dash/core/result.h"

namespace fp8dash {

struct BenchSampleSummary {
    int samples = 0;
    int throttledSamples = 0;
    double medianSeconds = 0;
    double relStdDev = 0;  // the noise: sample standard deviation / mean
    bool converged = false;
    double smClockMHz = 0;  // "sm_clock_mhz": the median SM clock over the samples, where a GPU recorded it; 0: not
};

struct BenchGemmPoint {
    std::string layer;  // "qkv", "o", "gate_up", "down", "square"
    int m = 0, n = 0, k = 0;
    std::string precision;  // "bf16", "fp8_e4m3"
    bool fastAccum = false;
    std::string skipped;  // empty when measured
    BenchSampleSummary stats;
    int algorithmsTried = 0;
    double tflops = 0;
    double bytesPerSecond = 0;
    std::optional<double> roofTflops;  // attainable for this shape; nullopt without a peak-table entry
    std::string bound;                 // "compute", "memory", "" without a roof
    double percentOfRoof = 0;
    double speedupVsBf16 = 0;            // FP8 rows; 0 when not measured
    double arithmeticIntensity() const;  // FLOP per byte moved at least once (A, B in the precision, D in BF16)
};

struct BenchBandwidthPoint {
    std::string kernel;  // "read", "copy"
    std::uint64_t bytes = 0;
    std::string skipped;
    BenchSampleSummary stats;
    double bytesPerSecond = 0;
    double percentOfPeak = 0;
};

// One side (K or V) of a KV point. saturated and scales come from fp8dash 0.3 on; older files lack them.
struct BenchKvSide {
    double relRmse = 0;  // sqrt(sum (x_hat - x)^2 / sum x^2) over this side's elements
    double maxAbsError = 0;
    double cosine = 1;
    // Elements with |x / scale| > 448 (clamped by the codec); nullopt: not recorded.
    std::optional<std::uint64_t> saturated;
    std::vector<double> scales;  // [1.0] for none, one per layer (per_tensor), one per (layer, head) layer-major
};

// Where the sweep's K and V came from. kind is empty in files of older fp8dash (whose cache was always synthetic).
struct BenchKvSource {
    std::string kind;              // "synthetic" or "dump"
    std::string description;       // the generator and seed, or the dump's file name and dtype
    std::vector<long long> shape;  // [layers, kv_heads, tokens, head_dim] of the whole source; empty when unknown
};

// A 95 % confidence interval [low, high] (fractions).
struct BenchInterval {
    double low = 0;
    double high = 0;
    bool containsZero() const { return low <= 0 && high >= 0; }
};

struct BenchKvPoint {
    std::string scaling;  // "none", "per_tensor", "per_head"
    int context = 0;      // tokens
    BenchKvSource source;
    double relRmse = 0;  // K and V together
    double maxAbsError = 0;
    double cosine = 1;
    BenchKvSide key;
    BenchKvSide value;
    // The attention figures (kv-contract; NaN in rows of older fp8dash, see hasAttentionMetrics):
    double attnOutRelRmse = std::numeric_limits<double>::quiet_NaN();    // sqrt(sum |o_hat - o|^2 / sum |o|^2): THE
                                                                         // headline figure
    double attnOutCosine = std::numeric_limits<double>::quiet_NaN();     // mean cos(o_hat, o) over sampled query rows
    double attnWeightTvd = std::numeric_limits<double>::quiet_NaN();     // mean 1/2 sum_t |p_hat_t - p_t|
    double attnWeightTvdMax = std::numeric_limits<double>::quiet_NaN();  // the worst sampled row
    double attnEntropy = std::numeric_limits<double>::quiet_NaN();       // mean entropy (nats) of the exact rows
    bool hasAttentionMetrics = false;  // the row carries attn_out_rel_rmse (written by fp8dash 0.3 on)
    // How sure the attention-output error is (kv_interval.h in gpu; absent in files written before the intervals):
    std::uint64_t attnRows = 0;                // query rows sampled, over every layer and head (0: not recorded)
    std::uint64_t attnHeads = 0;               // (layer, head) units the intervals are computed over (0: not recorded)
    std::optional<BenchInterval> attnOutCi95;  // 95 % interval of attnOutRelRmse
    // attnOutRelRmse less per_tensor's at the same context, paired by head, and its 95 % interval (other modes' rows).
    std::optional<double> attnOutVsPerTensor;
    std::optional<BenchInterval> attnOutVsPerTensorCi95;
    // Older fp8dash's attention figure (attn_rel_error: relative to a near-zero exact output, so misleadingly large).
    // Shown only labelled as such, never as attnOutRelRmse; nullopt when the row does not carry it.
    std::optional<double> legacyAttnRelError;
    std::uint64_t elements = 0;
    double seconds = 0;
    double elementsPerSecond = 0;  // quantise throughput of whoever ran it (kvBackend)
};

struct BenchKvKernelPoint {
    std::string scaling;
    std::uint64_t elements = 0;
    std::string skipped;
    BenchSampleSummary stats;
    double bytesPerSecond = 0;
    double percentOfPeak = 0;
    bool matchesCpu = false;
};

struct BenchPeak {
    std::string name;  // datasheet display name
    double fp8DenseTflops = 0;
    double bf16DenseTflops = 0;
    double memoryBandwidthGBps = 0;
};

struct BenchDevice {
    bool available = false;  // a usable GPU ran (or could run) the GPU parts
    std::string backend;     // "cuda" or "cpu"
    std::string name;
    std::string computeCapability;  // "9.0"; "" without a GPU
    std::uint64_t memoryBytes = 0;
    int multiprocessors = 0;
    std::string reason;  // why there is no GPU, in words
    std::optional<BenchPeak> peak;
};

struct BenchResults {
    std::string created;  // ISO-8601 UTC, when it was run
    std::string backend;  // "cuda" or "cpu"
    std::string model;    // the preset (or config.json) whose shapes were used
    BenchDevice device;
    std::vector<BenchGemmPoint> gemm;
    std::string gemmSkipped;
    std::vector<BenchBandwidthPoint> bandwidth;
    std::string bandwidthSkipped;
    std::vector<BenchKvPoint> kv;
    std::string kvBackend;
    std::vector<BenchKvKernelPoint> kvKernel;
    std::string kvSkipped;
    std::vector<std::string> warnings;
    bool cancelled = false;
    Json raw;  // the section as written (gpu/ JSON plus "created"): printed and saved verbatim
};

// Validates and reads a "benchmarks" object; errors name `where` and the field.
Result<BenchResults> parseBenchResults(const Json& j, const std::string& where);

struct LocalBenchOptions {
    bool gemm = true;
    bool bandwidth = true;
    bool kv = true;
    bool cpuOnly = false;                // "--cpu": the CPU implementation even with a GPU
    std::string model = "llama-3.1-8b";  // a preset name, a config.json or a model folder
    std::vector<int> gemmTokens;         // M values; empty = the default 1, 8, 32, 128, 512, 2048, 8192
    bool square = true;                  // add the square 8192^3 case
    bool fp8FastAccum = false;
    std::vector<int> kvContexts;  // tokens; empty = 1K..128K on a GPU, 1K, 4K, 16K on the CPU
    int kvLayers = 4;             // layers of the synthetic K/V cache (the model's kv_heads x head_dim)
    std::string kvDump;  // "--kv-dump": a safetensors K/V dump of a real model (README); "" = the synthetic cache
};

// What a K/V dump holds, from its header alone (the file is not read further): shown before a run.
struct KvDumpInfo {
    std::string description;  // the file's base name, its dtype and the model its metadata names
    int layers = 0;
    int kvHeads = 0;
    int tokens = 0;
    int headDim = 0;
};
// Errors name the file and the tensor (a bad header, a missing tensor, a truncated file).
Result<KvDumpInfo> inspectKvDump(const std::string& path);
// A dump's default contexts: the standard ones shorter than its token count, ascending, then the count itself.
std::vector<int> defaultDumpContexts(const std::vector<int>& standard, int tokens);

// fraction in [0, 1], the step in words; return false to cancel (the results so far come back, cancelled = true).
using BenchProgressFn = std::function<bool(double fraction, const std::string& step)>;

// Errors: unknown model, bad option values. "No GPU" is not an error: the CPU parts run and device.reason says why.
Result<BenchResults> runLocalBench(const LocalBenchOptions& options, const BenchProgressFn& progress = {});

// The text of `fp8dash bench` (device, GEMM table with speedups and % of roof, bandwidth, KV error table).
std::string benchResultsToText(const BenchResults& r);

// What the Capacity view last showed, kept in the comparison file's "capacity" section so a reviewer sees the same
// table: the inputs of planCapacity (capacity.h) by name.
struct CapacitySettings {
    std::string model = "llama-3.1-8b";  // preset name or config.json path
    std::string gpu = "h100-sxm";        // preset key, or "local"
    int gpus = 1;
    std::string weights = "fp8";  // "bf16" | "fp8"
    std::string kv = "fp8";
    double gpuUtilization = 0.92;
    long long contextTokens = 8192;
    double overheadGiB = 2.0;
    // The vLLM release whose accounting sizes the plan: by default the release `fp8dash capacity` and `fp8dash plan`
    // follow (kDefaultVllmVersion), so settings made now give their token counts. Empty: the flat overheadGiB, what
    // sections saved before fp8dash followed vLLM's accounting mean (parseCapacitySettings reads a section without
    // "vllm_version" so: old files keep their figures). Saved as "vllm_version" only when set.
    std::string vllmVersion = kDefaultVllmVersion;
    bool operator==(const CapacitySettings&) const = default;
};
Json capacitySettingsToJson(const CapacitySettings& s);
Result<CapacitySettings> parseCapacitySettings(const Json& j, const std::string& where);

// The planner's inputs for saved settings: the model preset or config.json, the GPU preset or, for "local", this
// machine's GPUs (`local`: their query; nullptr when it has not run, which is then an error). Errors name the input.
Result<CapacityInputs> capacityInputsFromSettings(const CapacitySettings& settings, const LocalDeviceStatus* local);
// What the Capacity view and the reports show: the settings' plan beside the same group with everything in BF16.
struct CapacityComparison {
    CapacityResult bf16;
    CapacityResult selected;
};
Result<CapacityComparison> planCapacityComparison(const CapacitySettings& settings, const LocalDeviceStatus* local);

}  // namespace fp8dash
