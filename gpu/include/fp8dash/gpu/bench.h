#pragma once
// The FP8 microbenchmarks behind one plain C++ interface (DESIGN.md "gpu/"): GEMM (cuBLASLt BF16 vs FP8 E4M3),
// memory bandwidth (read and copy kernels), and the KV-cache quantisation experiment (error by scaling mode and
// context length, and the quantise kernel's throughput).
//
// Two implementations: CUDA (compiled when the toolkit is found: gpu/src/cuda_bench.cpp and the files it names) and
// CPU (always). The CPU
// one runs what needs no GPU (the KV error sweep on the software codec) and records GEMM and bandwidth as skipped
// with the reason. makeBenchRunner() always succeeds.
//
// Method, in nvbench's tradition: warm-up runs, CUDA events around each sample, the L2 cache flushed between
// samples, at least MeasureOptions::minSamples samples, stop when the relative standard deviation of the samples
// falls to targetRelStdDev or at the per-case time cap, report the median, the noise and the SM clock the case ran
// at. Samples are not dropped for a low clock by default: a power-capped FP8 GEMM runs below the boost clock
// legitimately, and dropping those would keep only the fastest samples; throttleThreshold > 0 turns dropping on. Every
// CUDA call is checked: a case that cannot run (out of memory, unsupported by cuBLASLt, no algorithm) is recorded as
// skipped with its reason.
//
// Threads: all GPU work of the process runs on one dedicated worker thread (runBench queues onto it); runBench may
// be called from any thread and blocks until its request is done. Progress is reported from the worker thread.
// gpu/ is a leaf: no Qt, no core.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "fp8dash/gpu/device_query.h"
#include "fp8dash/gpu/kv_quant.h"
#include "fp8dash/gpu/peak_table.h"

namespace fp8dash::gpu {

// ---------------------------------------------------------------------------------------------------------------
// Sampling method (pure C++, shared by the CUDA implementation and its tests)

struct MeasureOptions {
    int warmupRuns = 3;
    int minSamples = 10;
    int maxSamples = 2000;
    double targetRelStdDev = 0.005;  // 0.5 %
    double maxSecondsPerCase = 1.5;  // wall-clock cap per case, warm-up included
    bool flushL2 = true;             // overwrite an L2-sized buffer before each sample ("cold" measurement)
    // > 0: a sample whose SM clock is below this fraction of the peak is discarded (nvbench's 0.75); 0: kept (the
    // default, see above), the clock recorded per case in SampleStats::smClockMHz.
    double throttleThreshold = 0;
};

struct SampleStats {
    int samples = 0;           // kept samples
    int throttledSamples = 0;  // discarded because the SM clock was throttled
    double medianSeconds = 0;
    double meanSeconds = 0;
    double minSeconds = 0;
    double maxSeconds = 0;
    double relStdDev = 0;    // sample standard deviation / mean: the noise
    bool converged = false;  // stopped because relStdDev <= target (false: stopped at the time or sample cap)
    double smClockMHz = 0;   // GPU: median effective SM clock over the kept samples; 0 when not measured
};

// Median, mean, min, max and relative standard deviation (n - 1 denominator; 0 for fewer than 2 samples).
SampleStats summarizeSamples(std::span<const double> seconds);

// Decides when to stop sampling one case. add() each kept sample; done() after each.
class SampleController {
public:
    explicit SampleController(const MeasureOptions& options);
    void add(double seconds);
    void addThrottled();
    // True when there are >= minSamples and the noise is <= target, or maxSamples reached, or elapsedSeconds (wall
    // time spent on this case so far) passed maxSecondsPerCase with at least one sample (minSamples is not waited
    // for past the cap: a slow case reports what it has, with converged = false).
    bool done(double elapsedSeconds) const;
    SampleStats stats() const;

private:
    MeasureOptions m_options;
    std::vector<double> m_samples;
    int m_throttled = 0;
};

// ---------------------------------------------------------------------------------------------------------------
// GEMM

enum class GemmPrecision {
    Bf16,     // BF16 x BF16 -> BF16, FP32 accumulate
    Fp8E4m3,  // E4M3 x E4M3 -> BF16, FP32 accumulate, per-tensor scales through the A/B scale pointers
    // Issue 41: block-scaled FP4 (fp4_codec.h), E2M1 x E2M1 -> BF16, FP32 accumulate; only on GPUs with FP4 tensor
    // cores (hasFp4TensorCores), skipped with "FP4: needs FP4 tensor cores (Blackwell)" elsewhere.
    Nvfp4,  // CUDA_R_4F_E2M1 with CUBLASLT_MATMUL_MATRIX_SCALE_VEC16_UE4M3 block scales
    Mxfp4,  // CUDA_R_4F_E2M1 with CUBLASLT_MATMUL_MATRIX_SCALE_VEC32_UE8M0 block scales
};
const char* gemmPrecisionName(GemmPrecision p);  // "bf16", "fp8_e4m3", "nvfp4_e2m1", "mxfp4_e2m1"
// The name back; nullopt for any other text.
std::optional<GemmPrecision> parseGemmPrecision(std::string_view name);
bool gemmIsFp4(GemmPrecision p);
// Bytes an input value takes in memory, block scales included: 2, 1, 0.5625 (4 bits + an E4M3 byte per 16),
// 0.53125 (4 bits + a UE8M0 byte per 32).
double gemmInputBytes(GemmPrecision p);
// The reason an FP4 row is skipped on a GPU without FP4 tensor cores; it starts every such row's `skipped`.
inline constexpr const char* kFp4NeedsTensorCores = "FP4: needs FP4 tensor cores (Blackwell)";
// Bytes of one FP4 operand's block scales as cuBLASLt lays them out (cuBLAS docs, "1D block scaling factors
// layout"): the operand's outer dimension padded to 128 rows, its K / block size padded to 4 columns, a byte each.
// 0 for BF16 and FP8.
std::size_t gemmBlockScaleBytes(GemmPrecision p, int outer, int k);

// D[m x n] = A[m x k] . B[k x n]: m = tokens (the batch), n = output features, k = input features of one linear
// layer. cuBLASLt sees the "TN" layout FP8 needs (weights transposed, K the leading dimension of both operands).
struct GemmShape {
    std::string layer;  // "qkv", "o", "gate_up", "down" for a model's linear layers, "square" for 8192^3
    int m = 0;
    int n = 0;
    int k = 0;
    double flops() const { return 2.0 * m * n * k; }
    // Bytes moved at least once: A and B in the input precision, D in BF16.
    double minBytes(GemmPrecision p) const;
};

// The roofline of one shape on one GPU: attainable = min(peak FLOP/s, arithmetic intensity x bandwidth).
struct GemmRoof {
    double attainableTflops = 0;
    const char* bound = "";  // "compute" or "memory"
};
GemmRoof gemmRoof(const GemmShape& shape, GemmPrecision p, const PeakSpec& peak);

struct GemmResult {
    GemmShape shape;
    GemmPrecision precision = GemmPrecision::Bf16;
    bool fastAccum = false;  // FP8 only: CUBLASLT_MATMUL_DESC_FAST_ACCUM
    std::string skipped;     // empty when measured, else why not (OOM, unsupported, no algorithm, cancelled)
    SampleStats stats;
    int algorithmsTried = 0;       // heuristic candidates timed; the best is reported
    double tflops = 0;             // shape.flops() / median / 1e12
    double bytesPerSecond = 0;     // shape.minBytes() / median
    std::optional<GemmRoof> roof;  // nullopt for a GPU without a peak-table entry
    double percentOfRoof = 0;      // tflops / roof->attainableTflops * 100 when there is a roof
    double speedupVsBf16 =
        0;                    // FP8 and FP4 rows: BF16 median / the row's median, same shape (0 when either is missing)
    double maxRelError = -1;  // vs an FP32 reference on a sampled block when verified (tests), -1 otherwise
};

// ---------------------------------------------------------------------------------------------------------------
// Memory bandwidth

struct BandwidthResult {
    std::string kernel;       // "read" (sum of a buffer) or "copy" (buffer to buffer)
    std::uint64_t bytes = 0;  // bytes moved per run: the buffer for read, twice it for copy
    std::string skipped;
    SampleStats stats;
    double bytesPerSecond = 0;
    double percentOfPeak = 0;  // vs the datasheet bandwidth; 0 without a roof
};

// The KV quantise kernel: BF16 K/V in, E4M3 codes out, one scale per (layer, head). Bytes = 2 in + 1 out per element.
struct KvKernelResult {
    KvScaling scaling = KvScaling::PerTensor;
    std::uint64_t elements = 0;
    std::string skipped;
    SampleStats stats;
    double bytesPerSecond = 0;
    double percentOfPeak = 0;
    bool matchesCpu = false;  // the codes of a sampled block equal the CPU codec's, bit for bit
};

// ---------------------------------------------------------------------------------------------------------------
// A run

struct BenchRequest {
    bool gemm = true;
    bool bandwidth = true;
    bool kv = true;
    bool cpuOnly = false;  // the CPU implementation even when a GPU is present ("--cpu")
    int deviceIndex = 0;
    std::string model;                  // label of the shapes' model preset, for the report
    std::vector<GemmShape> gemmShapes;  // chosen by the caller (core builds them from a model preset)
    bool fp8FastAccum = false;          // also time FP8 with fast accumulation (extra rows)
    bool fp4 = false;                   // also NVFP4 and MXFP4 rows (skipped with the reason without FP4 tensor cores)
    std::uint64_t bandwidthBytes = 0;   // buffer size for the bandwidth kernels; 0 = automatic (1 GiB, less if short)
    KvSweepConfig kvSweep;              // the error sweep (CPU twin: the same config, a smaller default context list)
    MeasureOptions measure;
};

struct BenchReport {
    std::string backend;  // "cuda" or "cpu": who ran it
    DeviceReport device;
    std::optional<PeakSpec> peak;  // the device's datasheet entry, when known
    std::string model;
    std::vector<GemmResult> gemm;
    std::string gemmSkipped;  // the whole section not run (no GPU, not asked), with the reason; "" when run
    std::vector<BandwidthResult> bandwidth;
    std::string bandwidthSkipped;
    std::vector<KvQuantResult> kv;         // error sweep
    std::string kvBackend;                 // "cuda" (quantised on the GPU) or "cpu" (software codec)
    std::vector<KvKernelResult> kvKernel;  // empty on the CPU
    std::string kvSkipped;
    std::vector<std::string> warnings;  // e.g. "clock throttled in 12 samples", "no roof for <GPU>"
    bool cancelled = false;
};

// fraction in [0, 1] and the step in words ("GEMM qkv M=64 fp8_e4m3"); return false to cancel. A cancelled run returns
// what it finished, cancelled = true.
using BenchProgress = std::function<bool(double fraction, const std::string& step)>;

class BenchRunner {
public:
    virtual ~BenchRunner() = default;
    virtual BenchReport run(const BenchRequest& request, const BenchProgress& progress) = 0;  // never throws
};

std::unique_ptr<BenchRunner> makeBenchRunner();     // CUDA when built with it, else CPU
std::unique_ptr<BenchRunner> makeCpuBenchRunner();  // always the CPU implementation

// Runs the request on the process's dedicated GPU worker thread (started on first use, one job at a time) with the
// CUDA runner unless request.cpuOnly or no CUDA build, and blocks until done. Any thread may call it.
BenchReport runBench(const BenchRequest& request, const BenchProgress& progress = {});

// The JSON of `fp8dash bench --format json` and of the Qt-free benchmark runner (one writer for both; hand-written
// because gpu/ must build on the GPU machine with no package registry): { "backend", "model",
// "device": {available, name, compute_capability, memory_bytes, reason, backend, driver_version, runtime_version,
// multiprocessors, peak: {name, fp8_dense_tflops, bf16_dense_tflops, memory_bandwidth_gbps} | null},
// "gemm": [...], "gemm_skipped", "bandwidth": [...], "bandwidth_skipped", "kv": [...], "kv_backend", "kv_kernel":
// [...], "kv_skipped", "warnings": [...], "cancelled" }. Field names in bench_json.cpp; stable.
std::string benchReportToJson(const BenchReport& report, int indent = 2);

// ---------------------------------------------------------------------------------------------------------------
// Linear-layer GEMM shapes of a decoder block, without core's model presets (the Qt-free runner needs them too; core
// uses the same function, so both give the same rows).

// A decoder block's linear dimensions (Hugging Face config.json: hidden_size, num_attention_heads,
// num_key_value_heads, head_dim, intermediate_size).
struct LinearDims {
    int hidden = 0;
    int heads = 0;
    int kvHeads = 0;
    int headDim = 0;
    int intermediate = 0;
};

inline constexpr LinearDims kLlama31_8bDims{4096, 32, 8, 128, 14336};

// For each layer in the order qkv, o, gate_up, down, one shape per entry of `tokens` (m = tokens, in that order):
// qkv n = (heads + 2 kvHeads) headDim, k = hidden; o n = hidden, k = heads headDim; gate_up n = 2 intermediate,
// k = hidden; down n = hidden, k = intermediate. `square` appends one 8192^3 shape ("square"). Throws
// std::invalid_argument for a non-positive dimension or token count, or a dimension whose product overflows int.
std::vector<GemmShape> linearLayerShapes(const LinearDims& dims, std::span<const int> tokens, bool square);

}  // namespace fp8dash::gpu
