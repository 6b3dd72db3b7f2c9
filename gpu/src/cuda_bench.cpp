// The CUDA implementation of the microbenchmarks (bench.h): cuBLASLt GEMM (BF16 vs FP8 E4M3), memory bandwidth, the
// KV-cache quantise kernel, and the KV error sweep with the quantisation done on the GPU. Host code only: the kernels
// are in cuda_kernels.cu, cuBLASLt is loaded at run time (cuda_cublaslt.h).
//
// Error handling: every CUDA and cuBLASLt call is checked and a failure throws inside this file; each case catches
// it and records the reason as `skipped`. After a failure the device is probed: an error that the context keeps
// (illegal address, launch failure...) ends the run, and the cases not yet run are reported as not run.
#include "cuda_bench.h"

#include "cuda_cublaslt.h"
#include "cuda_kernels.h"
#include "fp8dash/gpu/fp8_codec.h"

#include <cuda_runtime_api.h>
#include <library_types.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <cstring>
#include <exception>
#include <functional>
#include <new>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace fp8dash::gpu {
namespace {

using detail::ClockStamp;
using detail::CublasLtApi;
using Clock = std::chrono::steady_clock;

constexpr std::size_t kGemmWorkspaceBytes = 32ull << 20;  // cuBLAS's recommendation for Hopper; plenty for Ada
constexpr int kGemmHeuristics = 8;                        // candidates timed per case
constexpr int kGemmTrialRuns = 3;                         // back-to-back runs per candidate
constexpr std::uint64_t kAutoBandwidthBytes = 1ull << 30;
constexpr int kKvKernelTokens = 128 * 1024;               // the throughput buffer: a 128K-token cache
constexpr std::uint64_t kBlockingTimeoutNs = 200'000'000;  // the host queues a sample in microseconds; 0.2 s is a hang
constexpr double kMinClockWindowNs = 20'000;              // shorter windows: the global timer is too coarse to judge
constexpr double kSpinUpSeconds = 0.2;                    // busy time before a section, so clocks leave idle

double secondsSince(Clock::time_point start)
{
    return std::chrono::duration<double>(Clock::now() - start).count();
}

std::string sizeText(std::uint64_t bytes)
{
    char text[32];
    if (bytes >= (1ull << 30))
        std::snprintf(text, sizeof text, "%.2f GiB", static_cast<double>(bytes) / static_cast<double>(1ull << 30));
    else if (bytes >= (1ull << 20))
        std::snprintf(text, sizeof text, "%.1f MiB", static_cast<double>(bytes) / static_cast<double>(1ull << 20));
    else
        std::snprintf(text, sizeof text, "%llu bytes", static_cast<unsigned long long>(bytes));
    return text;
}

// ---------------------------------------------------------------------------------------------------------------
// Errors

class CudaFailure : public std::runtime_error {
public:
    CudaFailure(const std::string& what, cudaError_t code) : std::runtime_error(what), m_code(code) {}
    cudaError_t code() const { return m_code; }

private:
    cudaError_t m_code;
};

class LtFailure : public std::runtime_error {
public:
    LtFailure(const std::string& what, cublasStatus_t status) : std::runtime_error(what), m_status(status) {}
    cublasStatus_t status() const { return m_status; }

private:
    cublasStatus_t m_status;
};

std::string cudaText(cudaError_t e)
{
    return std::string(cudaGetErrorString(e)) + " (" + cudaGetErrorName(e) + ")";
}

void check(cudaError_t e, const char* what)
{
    if (e != cudaSuccess)
        throw CudaFailure(std::string(what) + " failed: " + cudaText(e), e);
}

void checkLt(const CublasLtApi& lt, cublasStatus_t status, const char* what)
{
    if (status != CUBLAS_STATUS_SUCCESS)
        throw LtFailure(std::string(what) + " failed: " + lt.statusText(status), status);
}

// ---------------------------------------------------------------------------------------------------------------
// Owners of CUDA and cuBLASLt objects. Destructors ignore errors: after a failure there is nothing better to do.

class DeviceBuffer {
public:
    DeviceBuffer() = default;
    DeviceBuffer(std::size_t bytes, const std::string& what) : m_bytes(bytes)
    {
        if (bytes == 0)
            return;
        if (const cudaError_t e = cudaMalloc(&m_ptr, bytes); e != cudaSuccess) {
            m_ptr = nullptr;
            cudaGetLastError();  // out of memory is not sticky; clear it so later calls are not blamed
            throw CudaFailure("cudaMalloc of " + sizeText(bytes) + " for " + what + " failed: " + cudaText(e), e);
        }
    }
    ~DeviceBuffer() { reset(); }
    DeviceBuffer(DeviceBuffer&& other) noexcept
        : m_ptr(std::exchange(other.m_ptr, nullptr)), m_bytes(std::exchange(other.m_bytes, 0))
    {
    }
    DeviceBuffer& operator=(DeviceBuffer&& other) noexcept
    {
        if (this != &other) {
            reset();
            m_ptr = std::exchange(other.m_ptr, nullptr);
            m_bytes = std::exchange(other.m_bytes, 0);
        }
        return *this;
    }
    DeviceBuffer(const DeviceBuffer&) = delete;
    DeviceBuffer& operator=(const DeviceBuffer&) = delete;

    void reset()
    {
        if (m_ptr)
            cudaFree(m_ptr);
        m_ptr = nullptr;
        m_bytes = 0;
    }
    void* get() const { return m_ptr; }
    template <typename T>
    T* as() const
    {
        return static_cast<T*>(m_ptr);
    }
    std::size_t bytes() const { return m_bytes; }

private:
    void* m_ptr = nullptr;
    std::size_t m_bytes = 0;
};

class Stream {
public:
    Stream() { check(cudaStreamCreateWithFlags(&m_stream, cudaStreamNonBlocking), "cudaStreamCreateWithFlags"); }
    ~Stream() { cudaStreamDestroy(m_stream); }
    Stream(const Stream&) = delete;
    Stream& operator=(const Stream&) = delete;
    cudaStream_t get() const { return m_stream; }

private:
    cudaStream_t m_stream = nullptr;
};

class Event {
public:
    Event() { check(cudaEventCreate(&m_event), "cudaEventCreate"); }
    ~Event() { cudaEventDestroy(m_event); }
    Event(const Event&) = delete;
    Event& operator=(const Event&) = delete;
    cudaEvent_t get() const { return m_event; }

private:
    cudaEvent_t m_event = nullptr;
};

// Host memory the device reads and writes directly (the blocking kernel's flag, the clock stamps).
template <typename T>
class MappedHost {
public:
    MappedHost()
    {
        void* host = nullptr;
        check(cudaHostAlloc(&host, sizeof(T), cudaHostAllocMapped), "cudaHostAlloc (mapped)");
        m_host = static_cast<T*>(host);
        std::memset(static_cast<void*>(m_host), 0, sizeof(T));
        void* device = nullptr;
        if (const cudaError_t e = cudaHostGetDevicePointer(&device, host, 0); e != cudaSuccess) {
            cudaFreeHost(host);
            throw CudaFailure("cudaHostGetDevicePointer failed: " + cudaText(e), e);
        }
        m_device = static_cast<T*>(device);
    }
    ~MappedHost() { cudaFreeHost(m_host); }
    MappedHost(const MappedHost&) = delete;
    MappedHost& operator=(const MappedHost&) = delete;
    T* host() const { return m_host; }
    T* device() const { return m_device; }

private:
    T* m_host = nullptr;
    T* m_device = nullptr;
};

class LtHandle {
public:
    explicit LtHandle(const CublasLtApi& lt) : m_lt(lt) { checkLt(lt, lt.create(&m_handle), "cublasLtCreate"); }
    ~LtHandle() { m_lt.destroy(m_handle); }
    LtHandle(const LtHandle&) = delete;
    LtHandle& operator=(const LtHandle&) = delete;
    cublasLtHandle_t get() const { return m_handle; }

private:
    const CublasLtApi& m_lt;
    cublasLtHandle_t m_handle = nullptr;
};

// ---------------------------------------------------------------------------------------------------------------
// The device

struct DeviceProps {
    int index = 0;
    std::string name;
    int multiprocessors = 1;
    int l2Bytes = 0;
    int clockKHz = 0;  // the SM clock the device reports as its peak
    int major = 0;
    int minor = 0;
};

DeviceProps deviceProps(int index)
{
    cudaDeviceProp props{};
    check(cudaGetDeviceProperties(&props, index), "cudaGetDeviceProperties");
    DeviceProps out;
    out.index = index;
    out.name = props.name;
    out.multiprocessors = std::max(1, props.multiProcessorCount);
    out.l2Bytes = std::max(0, props.l2CacheSize);
    out.major = props.major;
    out.minor = props.minor;
    check(cudaDeviceGetAttribute(&out.clockKHz, cudaDevAttrClockRate, index), "cudaDeviceGetAttribute(ClockRate)");
    return out;
}

// ---------------------------------------------------------------------------------------------------------------
// The sampling method

// The blocking flag and the two clock stamps of a sample, in mapped host memory.
struct SampleSync {
    int release;
    int timedOut;
    ClockStamp before;
    ClockStamp after;
};

using Enqueue = std::function<void(cudaStream_t)>;

class Sampler {
public:
    struct Outcome {
        SampleStats stats;
        std::string skipped;  // why there is no figure
        std::string warning;  // a figure that needs a caveat (it comes from throttled samples)
    };

    Sampler(const DeviceProps& device, cudaStream_t stream, const MeasureOptions& options,
            std::vector<std::string>& warnings)
        : m_device(device), m_stream(stream), m_options(options)
    {
        if (m_options.flushL2 && device.l2Bytes > 0) {
            // Twice the L2: a memset of exactly its size can leave lines of the benchmark's data behind.
            const auto bytes = 2 * static_cast<std::size_t>(device.l2Bytes);
            try {
                m_flush = DeviceBuffer(bytes, "the L2 flush buffer");
            } catch (const CudaFailure& e) {
                warnings.push_back(std::string("L2 not flushed between samples: ") + e.what());
            }
        }
        // The blocking kernel's first launch loads its module; do it now, released, so it never happens while a
        // sample holds the stream (lazy loading may wait for the device to go idle).
        std::atomic_ref<int>(m_sync.host()->release).store(1);
        check(detail::launchBlockingKernel(&m_sync.device()->release, &m_sync.device()->timedOut, kBlockingTimeoutNs,
                                           m_stream),
              "blocking kernel launch");
        check(detail::launchClockStamp(&m_sync.device()->before, device.multiprocessors, m_stream),
              "clock stamp kernel launch");
        check(cudaStreamSynchronize(m_stream), "cudaStreamSynchronize");
    }

    // Keeps the GPU busy for a moment so its clocks leave the idle state before the first samples.
    void spinUp()
    {
        if (!m_flush.get())
            return;
        const auto start = Clock::now();
        while (secondsSince(start) < kSpinUpSeconds) {
            for (int i = 0; i < 8; ++i)
                check(cudaMemsetAsync(m_flush.get(), i, m_flush.bytes(), m_stream), "cudaMemsetAsync (spin-up)");
            check(cudaStreamSynchronize(m_stream), "cudaStreamSynchronize (spin-up)");
        }
    }

    // Warm-up, then samples until the SampleController is satisfied (or the per-case cap passes with nothing kept).
    Outcome measure(const Enqueue& enqueue)
    {
        const auto start = Clock::now();
        // At least one warm-up whatever the options say: it loads the kernels outside any blocked window.
        const int warmups = std::max(1, m_options.warmupRuns);
        for (int i = 0; i < warmups; ++i) {
            flushL2();
            enqueue(m_stream);
        }
        check(cudaStreamSynchronize(m_stream), "cudaStreamSynchronize after the warm-up");

        SampleController controller(m_options);
        int kept = 0;
        int throttled = 0;
        int timedOut = 0;
        double lowestClockKHz = 0;
        std::vector<double> throttledSeconds;
        for (;;) {
            const Sample sample = takeSample(enqueue);
            if (sample.timedOut) {
                ++timedOut;
            } else if (sample.throttled) {
                controller.addThrottled();
                throttledSeconds.push_back(sample.seconds);
                ++throttled;
                ++m_throttledTotal;
                lowestClockKHz = lowestClockKHz == 0 ? sample.clockKHz : std::min(lowestClockKHz, sample.clockKHz);
            } else {
                controller.add(sample.seconds);
                ++kept;
            }
            const double elapsed = secondsSince(start);
            if (controller.done(elapsed))
                break;
            if (elapsed >= m_options.maxSecondsPerCase && kept == 0)
                break;  // every attempt was throttled or timed out: stop at the cap rather than spin
        }
        m_timedOutTotal += timedOut;

        Outcome outcome;
        outcome.stats = controller.stats();
        if (outcome.stats.samples == 0) {
            if (throttled > 0) {
                // A GPU that never leaves its throttled state (power or thermal cap) still gets a figure, flagged:
                // samples == throttledSamples says where it came from. Better than no answer on such a machine.
                outcome.stats = summarizeSamples(throttledSeconds);
                outcome.stats.throttledSamples = throttled;
                outcome.stats.converged = false;
                outcome.warning = "every sample (" + std::to_string(throttled) + ") ran with the SM clock below " +
                                  std::to_string(static_cast<int>(std::lround(m_options.throttleThreshold * 100))) +
                                  "% of its peak " + std::to_string(m_device.clockKHz / 1000) + " MHz (lowest " +
                                  std::to_string(static_cast<int>(lowestClockKHz / 1000)) +
                                  " MHz); the figures come from throttled samples";
            } else {
                outcome.skipped = "no sample could be taken: the host did not queue the work within " +
                                  std::to_string(kBlockingTimeoutNs / 1'000'000) + " ms (" +
                                  std::to_string(timedOut) + " attempts)";
            }
        }
        return outcome;
    }

    // Seconds per run of `runs` back-to-back runs, L2 warm: a quick ranking of cuBLASLt's candidates.
    double timeHot(const Enqueue& enqueue, int runs)
    {
        arm();
        {
            Release release(m_sync.host());
            check(cudaEventRecord(m_start.get(), m_stream), "cudaEventRecord");
            for (int i = 0; i < runs; ++i)
                enqueue(m_stream);
            check(cudaEventRecord(m_stop.get(), m_stream), "cudaEventRecord");
        }
        check(cudaStreamSynchronize(m_stream), "cudaStreamSynchronize");
        float ms = 0;
        check(cudaEventElapsedTime(&ms, m_start.get(), m_stop.get()), "cudaEventElapsedTime");
        return static_cast<double>(ms) / 1e3 / std::max(1, runs);
    }

    int throttledTotal() const { return m_throttledTotal; }
    int timedOutTotal() const { return m_timedOutTotal; }

private:
    struct Sample {
        double seconds = 0;
        bool timedOut = false;
        bool throttled = false;
        double clockKHz = 0;
    };

    // Lets the blocking kernel go when the queueing scope ends, also when it ends by an exception.
    class Release {
    public:
        explicit Release(SampleSync* sync) : m_sync(sync) {}
        ~Release() { std::atomic_ref<int>(m_sync->release).store(1, std::memory_order_release); }
        Release(const Release&) = delete;
        Release& operator=(const Release&) = delete;

    private:
        SampleSync* m_sync;
    };

    // The stream is idle here (every sample ends with a synchronisation), so the host may rewrite the block.
    void arm()
    {
        SampleSync* sync = m_sync.host();
        std::atomic_ref<int>(sync->release).store(0, std::memory_order_relaxed);
        std::atomic_ref<int>(sync->timedOut).store(0, std::memory_order_relaxed);
        sync->before.written = 0;
        sync->after.written = 0;
        std::atomic_thread_fence(std::memory_order_seq_cst);
        check(detail::launchBlockingKernel(&m_sync.device()->release, &m_sync.device()->timedOut, kBlockingTimeoutNs,
                                           m_stream),
              "blocking kernel launch");
    }

    void flushL2()
    {
        if (m_flush.get()) {
            check(cudaMemsetAsync(m_flush.get(), m_flushValue, m_flush.bytes(), m_stream),
                  "cudaMemsetAsync (L2 flush)");
            m_flushValue = (m_flushValue + 1) & 0xFF;
        }
    }

    Sample takeSample(const Enqueue& enqueue)
    {
        arm();
        {
            Release release(m_sync.host());
            flushL2();
            check(detail::launchClockStamp(&m_sync.device()->before, m_device.multiprocessors, m_stream),
                  "clock stamp kernel launch");
            check(cudaEventRecord(m_start.get(), m_stream), "cudaEventRecord");
            enqueue(m_stream);
            check(cudaEventRecord(m_stop.get(), m_stream), "cudaEventRecord");
            check(detail::launchClockStamp(&m_sync.device()->after, m_device.multiprocessors, m_stream),
                  "clock stamp kernel launch");
        }
        check(cudaStreamSynchronize(m_stream), "cudaStreamSynchronize after a sample");
        float ms = 0;
        check(cudaEventElapsedTime(&ms, m_start.get(), m_stop.get()), "cudaEventElapsedTime");

        Sample sample;
        sample.seconds = static_cast<double>(ms) / 1e3;
        const SampleSync* sync = m_sync.host();
        sample.timedOut = std::atomic_ref<int>(m_sync.host()->timedOut).load() != 0;
        // Effective SM clock over the sample: SM 0's cycles over the global timer's nanoseconds. Unknown (never
        // "throttled") when no stamp landed on SM 0, the window is too short for the timer, or the figure is absurd.
        if (sync->before.written && sync->after.written && sync->after.globalNs > sync->before.globalNs &&
            sync->after.smCycles > sync->before.smCycles && m_device.clockKHz > 0 && m_options.throttleThreshold > 0) {
            const double ns = static_cast<double>(sync->after.globalNs - sync->before.globalNs);
            const double cycles = static_cast<double>(sync->after.smCycles - sync->before.smCycles);
            const double clockKHz = cycles / ns * 1e6;
            if (ns >= kMinClockWindowNs && clockKHz < 1.5 * m_device.clockKHz) {
                sample.clockKHz = clockKHz;
                sample.throttled = clockKHz < m_options.throttleThreshold * m_device.clockKHz;
            }
        }
        return sample;
    }

    const DeviceProps& m_device;
    cudaStream_t m_stream;
    MeasureOptions m_options;
    DeviceBuffer m_flush;
    int m_flushValue = 0;
    MappedHost<SampleSync> m_sync;
    Event m_start;
    Event m_stop;
    int m_throttledTotal = 0;
    int m_timedOutTotal = 0;
};

// ---------------------------------------------------------------------------------------------------------------
// GEMM

std::string shapeText(const GemmShape& shape)
{
    return (shape.layer.empty() ? std::string("GEMM") : shape.layer) + " M=" + std::to_string(shape.m) +
           " N=" + std::to_string(shape.n) + " K=" + std::to_string(shape.k);
}

std::string caseText(const GemmShape& shape, GemmPrecision precision, bool fastAccum)
{
    return "GEMM " + shapeText(shape) + " " + gemmPrecisionName(precision) + (fastAccum ? " (fast accumulation)" : "");
}

// Why cuBLASLt cannot run this shape, or "" (cuBLAS docs, cublasLtMatmul: FP8 needs 16-byte aligned leading
// dimensions; the TN layout makes K the leading dimension of both FP8 operands and N that of the BF16 output).
std::string shapeProblem(const GemmShape& shape, GemmPrecision precision)
{
    if (shape.m < 1 || shape.n < 1 || shape.k < 1)
        return "invalid shape " + shapeText(shape) + ": every dimension must be positive";
    if (precision == GemmPrecision::Fp8E4m3) {
        if (shape.k % 16 != 0)
            return "FP8 GEMM needs K to be a multiple of 16 (16-byte aligned leading dimension of the E4M3 "
                   "operands); " + shapeText(shape) + " is not";
        if (shape.n % 8 != 0)
            return "FP8 GEMM needs N to be a multiple of 8 (16-byte aligned leading dimension of the BF16 output); " +
                   shapeText(shape) + " is not";
    }
    return {};
}

// One matmul's descriptors. Row-major Y[m x n] = X[m x k] . W[n x k]^T is asked of column-major cuBLASLt as
// Y^T (n x m) = op(A) . op(B) with A = W stored k x n (lda = k), transa = T, and B = X stored k x m (ldb = k),
// transb = N; D (= C, beta 0) is BF16 n x m with ldd = n. Both operands are K-major: the "TN" layout that FP8 on Ada
// and Hopper requires, used for BF16 too so both precisions run the same problem.
class GemmPlan {
public:
    GemmPlan(const CublasLtApi& lt, cublasLtHandle_t handle, const GemmShape& shape, GemmPrecision precision,
             bool fastAccum, const float* deviceScaleA, const float* deviceScaleB)
        : m_lt(lt), m_handle(handle)
    {
        checkLt(lt, lt.matmulDescCreate(&m_op, CUBLAS_COMPUTE_32F, CUDA_R_32F), "cublasLtMatmulDescCreate");
        const cublasOperation_t transa = CUBLAS_OP_T;
        const cublasOperation_t transb = CUBLAS_OP_N;
        setAttribute(CUBLASLT_MATMUL_DESC_TRANSA, &transa, sizeof transa, "TRANSA");
        setAttribute(CUBLASLT_MATMUL_DESC_TRANSB, &transb, sizeof transb, "TRANSB");
        const bool fp8 = precision == GemmPrecision::Fp8E4m3;
        if (fp8) {
            // The attribute holds the device pointer itself: pass the address of the pointer variable.
            setAttribute(CUBLASLT_MATMUL_DESC_A_SCALE_POINTER, &deviceScaleA, sizeof deviceScaleA, "A_SCALE_POINTER");
            setAttribute(CUBLASLT_MATMUL_DESC_B_SCALE_POINTER, &deviceScaleB, sizeof deviceScaleB, "B_SCALE_POINTER");
            const std::int8_t fast = fastAccum ? 1 : 0;
            setAttribute(CUBLASLT_MATMUL_DESC_FAST_ACCUM, &fast, sizeof fast, "FAST_ACCUM");
        }
        const cudaDataType input = fp8 ? CUDA_R_8F_E4M3 : CUDA_R_16BF;
        const auto m = static_cast<std::uint64_t>(shape.m);
        const auto n = static_cast<std::uint64_t>(shape.n);
        const auto k = static_cast<std::uint64_t>(shape.k);
        const auto ldInput = static_cast<std::int64_t>(k);
        checkLt(lt, lt.matrixLayoutCreate(&m_a, input, k, n, ldInput), "cublasLtMatrixLayoutCreate(A)");
        checkLt(lt, lt.matrixLayoutCreate(&m_b, input, k, m, ldInput), "cublasLtMatrixLayoutCreate(B)");
        checkLt(lt, lt.matrixLayoutCreate(&m_d, CUDA_R_16BF, n, m, static_cast<std::int64_t>(n)),
                "cublasLtMatrixLayoutCreate(D)");
    }
    ~GemmPlan()
    {
        if (m_d)
            m_lt.matrixLayoutDestroy(m_d);
        if (m_b)
            m_lt.matrixLayoutDestroy(m_b);
        if (m_a)
            m_lt.matrixLayoutDestroy(m_a);
        if (m_op)
            m_lt.matmulDescDestroy(m_op);
    }
    GemmPlan(const GemmPlan&) = delete;
    GemmPlan& operator=(const GemmPlan&) = delete;

    // The heuristic's candidates that fit the workspace, best first.
    std::vector<cublasLtMatmulAlgo_t> candidates(std::size_t workspaceBytes, int count) const
    {
        cublasLtMatmulPreference_t preference = nullptr;
        checkLt(m_lt, m_lt.preferenceCreate(&preference), "cublasLtMatmulPreferenceCreate");
        struct PreferenceOwner {
            const CublasLtApi& lt;
            cublasLtMatmulPreference_t p;
            ~PreferenceOwner() { lt.preferenceDestroy(p); }
        } owner{m_lt, preference};
        const std::uint64_t maxWorkspace = workspaceBytes;
        checkLt(m_lt,
                m_lt.preferenceSetAttribute(preference, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &maxWorkspace,
                                            sizeof maxWorkspace),
                "cublasLtMatmulPreferenceSetAttribute(MAX_WORKSPACE_BYTES)");
        std::vector<cublasLtMatmulHeuristicResult_t> results(static_cast<std::size_t>(count));
        int returned = 0;
        checkLt(m_lt,
                m_lt.algoGetHeuristic(m_handle, m_op, m_a, m_b, m_d, m_d, preference, count, results.data(), &returned),
                "cublasLtMatmulAlgoGetHeuristic");
        std::vector<cublasLtMatmulAlgo_t> algos;
        for (int i = 0; i < std::min(returned, count); ++i) {
            const auto& r = results[static_cast<std::size_t>(i)];
            if (r.state == CUBLAS_STATUS_SUCCESS && r.workspaceSize <= workspaceBytes)
                algos.push_back(r.algo);
        }
        return algos;
    }

    cublasStatus_t run(const cublasLtMatmulAlgo_t& algo, const void* a, const void* b, void* d, void* workspace,
                       std::size_t workspaceBytes, cudaStream_t stream) const
    {
        const float alpha = 1.0f;
        const float beta = 0.0f;
        return m_lt.matmul(m_handle, m_op, &alpha, a, m_a, b, m_b, &beta, d, m_d, d, m_d, &algo, workspace,
                           workspaceBytes, stream);
    }

private:
    void setAttribute(cublasLtMatmulDescAttributes_t attribute, const void* value, std::size_t size, const char* name)
    {
        const cublasStatus_t status = m_lt.matmulDescSetAttribute(m_op, attribute, value, size);
        if (status != CUBLAS_STATUS_SUCCESS)
            throw LtFailure(std::string("cublasLtMatmulDescSetAttribute(") + name + ") failed: " +
                                m_lt.statusText(status),
                            status);
    }

    const CublasLtApi& m_lt;
    cublasLtHandle_t m_handle;
    cublasLtMatmulDesc_t m_op = nullptr;
    cublasLtMatrixLayout_t m_a = nullptr;
    cublasLtMatrixLayout_t m_b = nullptr;
    cublasLtMatrixLayout_t m_d = nullptr;
};

// Device memory of one shape, sized for BF16 (the larger input), reused by every precision of the shape.
struct GemmOperands {
    DeviceBuffer w;  // A: weights, n x k
    DeviceBuffer x;  // B: activations, m x k
    DeviceBuffer y;  // D: m x n, BF16

    GemmOperands(const GemmShape& shape, const std::string& what)
        : w(static_cast<std::size_t>(shape.n) * static_cast<std::size_t>(shape.k) * 2, what + " weights"),
          x(static_cast<std::size_t>(shape.m) * static_cast<std::size_t>(shape.k) * 2, what + " activations"),
          y(static_cast<std::size_t>(shape.m) * static_cast<std::size_t>(shape.n) * 2, what + " output")
    {
    }
};

void fillGemmInputs(const GemmOperands& operands, const GemmShape& shape, GemmPrecision precision,
                    std::uint64_t seed, cudaStream_t stream)
{
    const std::size_t wCount = static_cast<std::size_t>(shape.n) * static_cast<std::size_t>(shape.k);
    const std::size_t xCount = static_cast<std::size_t>(shape.m) * static_cast<std::size_t>(shape.k);
    if (precision == GemmPrecision::Fp8E4m3) {
        check(detail::fillE4m3Unit(operands.w.as<std::uint8_t>(), wCount, seed, stream), "fill kernel launch");
        check(detail::fillE4m3Unit(operands.x.as<std::uint8_t>(), xCount, seed + 1, stream), "fill kernel launch");
    } else {
        check(detail::fillBf16Uniform(operands.w.as<std::uint16_t>(), wCount, seed, stream), "fill kernel launch");
        check(detail::fillBf16Uniform(operands.x.as<std::uint16_t>(), xCount, seed + 1, stream), "fill kernel launch");
    }
}

float bf16ToFloat(std::uint16_t bits)
{
    const std::uint32_t word = static_cast<std::uint32_t>(bits) << 16;
    float value;
    std::memcpy(&value, &word, sizeof value);
    return value;
}

// ---------------------------------------------------------------------------------------------------------------
// KV

// Gains of the throughput buffer's (layer, head) blocks: 1/16 .. 16, so the three scalings give different scales.
std::vector<float> kvKernelGains(int blocks)
{
    std::vector<float> gains(static_cast<std::size_t>(blocks));
    for (int b = 0; b < blocks; ++b)
        gains[static_cast<std::size_t>(b)] = std::ldexp(1.0f, (b * 5) % 9 - 4);
    return gains;
}

// The scales each scaling would compute for values bounded by the gains (|x| < gain): the per-tensor scale from the
// layer's largest block (K's divisor), the per-head one from the block itself.
std::vector<float> kvKernelScales(KvScaling scaling, const std::vector<float>& gains, int layers, int kvHeads)
{
    std::vector<float> scales(gains.size(), 1.0f);
    for (int layer = 0; layer < layers; ++layer) {
        float layerMax = 0;
        for (int head = 0; head < kvHeads; ++head)
            layerMax = std::max(layerMax, gains[static_cast<std::size_t>(layer * kvHeads + head)]);
        for (int head = 0; head < kvHeads; ++head) {
            const auto b = static_cast<std::size_t>(layer * kvHeads + head);
            switch (scaling) {
            case KvScaling::None: scales[b] = 1.0f; break;
            case KvScaling::PerTensor: scales[b] = layerMax / kVllmKeyScaleDivisor; break;
            case KvScaling::PerHead: scales[b] = gains[b] / fp8MaxFinite(Fp8Format::E4M3); break;
            }
        }
    }
    return scales;
}

void checkKvArguments(const KvCache& cache, const KvScales& scales, int tokens)
{
    const KvShape& s = cache.shape;
    if (s.layers < 1 || s.kvHeads < 1 || s.headDim < 1 || s.tokens < 1)
        throw std::invalid_argument("kv_quant (GPU): every dimension of the KV shape must be positive");
    if (tokens < 1 || tokens > s.tokens)
        throw std::invalid_argument("kv_quant (GPU): tokens must be in [1, " + std::to_string(s.tokens) + "]");
    const auto blocks = static_cast<std::size_t>(s.layers) * static_cast<std::size_t>(s.kvHeads);
    if (scales.kvHeads != s.kvHeads || scales.key.size() != blocks || scales.value.size() != blocks)
        throw std::invalid_argument("kv_quant (GPU): the scales do not match the cache's shape");
    if (cache.keys.size() != s.elementsPerTensor() || cache.values.size() != s.elementsPerTensor())
        throw std::invalid_argument("kv_quant (GPU): the cache's arrays do not match its shape");
}

// Quantises the first `tokens` tokens of one tensor (K or V) layer by layer: a strided 2-D copy takes the head
// blocks' prefixes, the kernel quantises them, the codes come back densely packed ([layer][head][token][dim]).
void quantizeTensorOnGpu(const std::vector<float>& tensor, const std::vector<float>& scales, const KvShape& shape,
                         int tokens, std::uint8_t* out, const DeviceBuffer& input, const DeviceBuffer& codes,
                         const DeviceBuffer& deviceScales)
{
    const std::size_t prefix = static_cast<std::size_t>(tokens) * static_cast<std::size_t>(shape.headDim);
    const std::size_t block = static_cast<std::size_t>(shape.tokens) * static_cast<std::size_t>(shape.headDim);
    const auto heads = static_cast<std::size_t>(shape.kvHeads);
    const std::size_t layerCodes = heads * prefix;
    check(cudaMemcpy(deviceScales.get(), scales.data(), scales.size() * sizeof(float), cudaMemcpyHostToDevice),
          "cudaMemcpy (KV scales)");
    for (int layer = 0; layer < shape.layers; ++layer) {
        const float* source = tensor.data() + static_cast<std::size_t>(layer) * heads * block;
        check(cudaMemcpy2D(input.get(), prefix * sizeof(float), source, block * sizeof(float), prefix * sizeof(float),
                           heads, cudaMemcpyHostToDevice),
              "cudaMemcpy2D (KV cache to the GPU)");
        const float* layerScales = deviceScales.as<float>() + static_cast<std::size_t>(layer) * heads;
        check(detail::quantizeFloatToE4m3(input.as<float>(), codes.as<std::uint8_t>(), layerCodes, layerScales, prefix,
                                          nullptr),
              "KV quantise kernel launch");
        check(cudaMemcpy(out + static_cast<std::size_t>(layer) * layerCodes, codes.get(), layerCodes,
                         cudaMemcpyDeviceToHost),
              "cudaMemcpy (KV codes from the GPU)");
    }
}

// ---------------------------------------------------------------------------------------------------------------
// Progress over every planned case

class ProgressTracker {
public:
    ProgressTracker(const BenchProgress& callback, double total)
        : m_callback(callback), m_total(std::max(1.0, total))
    {
    }

    // After a case; false once the caller asked to stop.
    bool advance(double units, const std::string& step)
    {
        m_done += units;
        return report(m_done, step);
    }
    // Within a case (the KV sweep reports fractions of itself).
    bool within(double units, const std::string& step) { return report(m_done + units, step); }

    // The end: 1.0 whatever was skipped on the way.
    void finish()
    {
        m_done = m_total;
        report(m_done, "done");
    }

    bool cancelled() const { return m_cancelled; }

private:
    bool report(double done, const std::string& step)
    {
        if (m_cancelled)
            return false;
        if (m_callback && !m_callback(std::clamp(done / m_total, 0.0, 1.0), step))
            m_cancelled = true;
        return !m_cancelled;
    }

    const BenchProgress& m_callback;
    double m_total;
    double m_done = 0;
    bool m_cancelled = false;
};

// ---------------------------------------------------------------------------------------------------------------
// The runner

class CudaBenchRunner final : public BenchRunner {
public:
    BenchReport run(const BenchRequest& request, const BenchProgress& progress) override
    {
        BenchReport report;
        report.backend = "cuda";
        report.model = request.model;
        report.kvBackend = "cuda";
        try {
            report.device = makeDeviceQuery()->query();
            runAll(request, progress, report);
        } catch (const std::exception& e) {
            markRest(report, std::string("not run: ") + e.what());
        } catch (...) {
            markRest(report, "not run: an unknown exception");
        }
        // Leave the device as the next user expects it: nothing queued, no stale error.
        cudaDeviceSynchronize();
        cudaGetLastError();
        return report;
    }

private:
    // Every section that did not finish says why.
    static void markRest(BenchReport& report, const std::string& why)
    {
        if (report.gemmSkipped.empty() && report.gemm.empty())
            report.gemmSkipped = why;
        if (report.bandwidthSkipped.empty() && report.bandwidth.empty())
            report.bandwidthSkipped = why;
        if (report.kvSkipped.empty() && report.kv.empty() && report.kvKernel.empty())
            report.kvSkipped = why;
    }

    void runAll(const BenchRequest& request, const BenchProgress& progress, BenchReport& report)
    {
        check(cudaSetDevice(request.deviceIndex), "cudaSetDevice");
        m_device = deviceProps(request.deviceIndex);
        report.peak = findPeakSpec(m_device.name);
        m_fp8 = supportsFp8(m_device.major, m_device.minor);

        const int gemmCases = request.gemm ? static_cast<int>(request.gemmShapes.size()) *
                                                 (request.fp8FastAccum ? 3 : 2)
                                           : 0;
        const int bandwidthCases = request.bandwidth ? 2 : 0;
        const int kvKernelCases = request.kv ? static_cast<int>(request.kvSweep.scalings.size()) : 0;
        const double sweepUnits =
            request.kv ? static_cast<double>(request.kvSweep.scalings.size() * request.kvSweep.contexts.size()) + 1 : 0;
        ProgressTracker tracker(progress, gemmCases + bandwidthCases + kvKernelCases + sweepUnits);

        Stream stream;
        Sampler sampler(m_device, stream.get(), request.measure, report.warnings);
        m_stream = stream.get();

        if (!request.gemm)
            report.gemmSkipped = "not requested";
        else
            runGemm(request, report, sampler, tracker);

        if (!request.bandwidth)
            report.bandwidthSkipped = "not requested";
        else if (!stopped(tracker))
            runBandwidth(request, report, sampler, tracker);

        if (!request.kv) {
            report.kvSkipped = "not requested";
        } else if (!stopped(tracker)) {
            runKvKernel(request, report, sampler, tracker);
            if (!stopped(tracker))
                runKvSweep(request, report, tracker);
        }

        if (tracker.cancelled())
            report.cancelled = true;
        if (!m_fatal.empty()) {
            report.warnings.push_back("the CUDA context failed, the remaining cases were not run: " + m_fatal);
            markRest(report, "not run: the CUDA context failed earlier (" + m_fatal + ")");
        } else if (report.cancelled) {
            markRest(report, "cancelled");
        }
        if (sampler.throttledTotal() > 0) {
            const long percent = std::lround(request.measure.throttleThreshold * 100);
            report.warnings.push_back("clock throttled in " + std::to_string(sampler.throttledTotal()) +
                                      " samples (SM clock below " + std::to_string(percent) + "% of its peak " +
                                      std::to_string(m_device.clockKHz / 1000) +
                                      " MHz); discarded unless a case had no other samples");
        }
        if (sampler.timedOutTotal() > 0)
            report.warnings.push_back(std::to_string(sampler.timedOutTotal()) +
                                      " samples were discarded because the host queued their work too slowly");
        if (!report.cancelled)
            tracker.finish();
    }

    bool stopped(const ProgressTracker& tracker) const { return tracker.cancelled() || !m_fatal.empty(); }

    // After a failed case: clears what can be cleared and finds out whether the context survived.
    std::string recover(const std::string& reason)
    {
        cudaGetLastError();
        cudaError_t e = cudaStreamSynchronize(m_stream);
        if (e == cudaSuccess)
            e = cudaDeviceSynchronize();
        if (e != cudaSuccess && m_fatal.empty())
            m_fatal = cudaText(e) + " after: " + reason;
        cudaGetLastError();
        return reason;
    }

    // Runs one case body, turning every failure into the case's skip reason.
    template <typename Body>
    std::string guarded(const std::string& label, Body&& body)
    {
        try {
            body();
            return {};
        } catch (const CudaFailure& e) {
            const bool oom = e.code() == cudaErrorMemoryAllocation;
            return recover((oom ? "out of GPU memory: " : "") + label + ": " + e.what());
        } catch (const LtFailure& e) {
            const std::string why = e.status() == CUBLAS_STATUS_NOT_SUPPORTED
                                        ? label + ": not supported by cuBLASLt on this GPU: " + e.what()
                                        : label + ": " + e.what();
            return recover(why);
        } catch (const std::bad_alloc&) {
            return recover(label + ": out of host memory");
        } catch (const std::exception& e) {
            return recover(label + ": " + e.what());
        }
    }

    // ---- GEMM

    void runGemm(const BenchRequest& request, BenchReport& report, Sampler& sampler, ProgressTracker& tracker)
    {
        const CublasLtApi& lt = detail::cublasLt();
        if (!lt.loaded()) {
            report.gemmSkipped = lt.error;
            return;
        }
        std::unique_ptr<LtHandle> handle;
        DeviceBuffer workspace;
        DeviceBuffer unitScales;
        const std::string setupError = guarded("GEMM setup", [&] {
            handle = std::make_unique<LtHandle>(lt);
            workspace = DeviceBuffer(kGemmWorkspaceBytes, "the cuBLASLt workspace");
            unitScales = DeviceBuffer(2 * sizeof(float), "the FP8 scales");
            const float ones[2] = {1.0f, 1.0f};
            check(cudaMemcpy(unitScales.get(), ones, sizeof ones, cudaMemcpyHostToDevice), "cudaMemcpy (scales)");
            sampler.spinUp();
        });
        if (!setupError.empty()) {
            report.gemmSkipped = setupError;
            return;
        }

        std::vector<std::pair<GemmPrecision, bool>> variants{{GemmPrecision::Bf16, false},
                                                             {GemmPrecision::Fp8E4m3, false}};
        if (request.fp8FastAccum)
            variants.emplace_back(GemmPrecision::Fp8E4m3, true);

        for (const GemmShape& shape : request.gemmShapes) {
            if (stopped(tracker))
                return;
            std::vector<GemmResult> rows;
            std::unique_ptr<GemmOperands> operands;
            const std::string allocError = shapeProblem(shape, GemmPrecision::Bf16).empty()
                                               ? guarded(shapeText(shape), [&] {
                                                     operands = std::make_unique<GemmOperands>(shape, shapeText(shape));
                                                 })
                                               : shapeProblem(shape, GemmPrecision::Bf16);
            for (const auto& [precision, fastAccum] : variants) {
                if (stopped(tracker))
                    break;
                GemmResult row;
                row.shape = shape;
                row.precision = precision;
                row.fastAccum = fastAccum;
                const std::string label = caseText(shape, precision, fastAccum);
                if (!allocError.empty()) {
                    row.skipped = allocError;
                } else if (precision == GemmPrecision::Fp8E4m3 && !m_fp8) {
                    row.skipped = "compute capability " + std::to_string(m_device.major) + "." +
                                  std::to_string(m_device.minor) + " has no FP8 tensor cores (8.9 or newer needed)";
                } else if (const std::string problem = shapeProblem(shape, precision); !problem.empty()) {
                    row.skipped = problem;
                } else {
                    // The case sets row.skipped itself for a clean refusal (no algorithm, every sample throttled).
                    const std::string failure = guarded(label, [&] {
                        runGemmCase(lt, handle->get(), *operands, workspace, unitScales, sampler, report, row);
                    });
                    if (!failure.empty())
                        row.skipped = failure;
                }
                rows.push_back(std::move(row));
                tracker.advance(1, label);
            }
            // FP8 rows: the BF16 median of the same shape over theirs.
            const GemmResult* bf16 = nullptr;
            for (const GemmResult& row : rows) {
                if (row.precision == GemmPrecision::Bf16 && row.skipped.empty() && row.stats.medianSeconds > 0)
                    bf16 = &row;
            }
            for (GemmResult& row : rows) {
                if (bf16 && row.precision == GemmPrecision::Fp8E4m3 && row.skipped.empty() &&
                    row.stats.medianSeconds > 0)
                    row.speedupVsBf16 = bf16->stats.medianSeconds / row.stats.medianSeconds;
            }
            for (GemmResult& row : rows)
                report.gemm.push_back(std::move(row));
        }
    }

    void runGemmCase(const CublasLtApi& lt, cublasLtHandle_t handle, const GemmOperands& operands,
                     const DeviceBuffer& workspace, const DeviceBuffer& unitScales, Sampler& sampler,
                     BenchReport& report, GemmResult& row)
    {
        const GemmShape& shape = row.shape;
        fillGemmInputs(operands, shape, row.precision, 1, m_stream);
        const float* scaleA = unitScales.as<float>();
        const float* scaleB = unitScales.as<float>() + 1;
        const GemmPlan plan(lt, handle, shape, row.precision, row.fastAccum, scaleA, scaleB);
        const std::vector<cublasLtMatmulAlgo_t> algos = plan.candidates(workspace.bytes(), kGemmHeuristics);
        if (algos.empty()) {
            row.skipped = "cuBLASLt has no algorithm for " + caseText(shape, row.precision, row.fastAccum) +
                          " on this GPU";
            return;
        }

        auto enqueueWith = [&](const cublasLtMatmulAlgo_t& algo) {
            return [&lt, &plan, &operands, &workspace, algo](cudaStream_t stream) {
                checkLt(lt,
                        plan.run(algo, operands.w.get(), operands.x.get(), operands.y.get(), workspace.get(),
                                 workspace.bytes(), stream),
                        "cublasLtMatmul");
            };
        };

        // Each candidate: one untimed call (loads its kernel, weeds out those that refuse), then a short timing.
        const cublasLtMatmulAlgo_t* best = nullptr;
        double bestSeconds = 0;
        cublasStatus_t lastRefusal = CUBLAS_STATUS_SUCCESS;
        for (const cublasLtMatmulAlgo_t& algo : algos) {
            const cublasStatus_t status = plan.run(algo, operands.w.get(), operands.x.get(), operands.y.get(),
                                                   workspace.get(), workspace.bytes(), m_stream);
            if (status != CUBLAS_STATUS_SUCCESS) {
                lastRefusal = status;
                continue;
            }
            check(cudaStreamSynchronize(m_stream), "cudaStreamSynchronize (GEMM candidate)");
            const double seconds = sampler.timeHot(enqueueWith(algo), kGemmTrialRuns);
            ++row.algorithmsTried;
            if (!best || seconds < bestSeconds) {
                best = &algo;
                bestSeconds = seconds;
            }
        }
        if (!best) {
            row.skipped = "no cuBLASLt algorithm ran " + caseText(shape, row.precision, row.fastAccum) + ": " +
                          lt.statusText(lastRefusal);
            return;
        }

        const Sampler::Outcome outcome = sampler.measure(enqueueWith(*best));
        row.stats = outcome.stats;
        if (!outcome.skipped.empty()) {
            row.skipped = outcome.skipped;
            return;
        }
        if (!outcome.warning.empty())
            report.warnings.push_back(caseText(shape, row.precision, row.fastAccum) + ": " + outcome.warning);
        const double median = row.stats.medianSeconds;
        if (median > 0) {
            row.tflops = shape.flops() / median / 1e12;
            row.bytesPerSecond = shape.minBytes(row.precision) / median;
        }
        if (report.peak) {
            row.roof = gemmRoof(shape, row.precision, *report.peak);
            if (row.roof->attainableTflops > 0)
                row.percentOfRoof = row.tflops / row.roof->attainableTflops * 100;
        }
    }

    // ---- Bandwidth

    void runBandwidth(const BenchRequest& request, BenchReport& report, Sampler& sampler, ProgressTracker& tracker)
    {
        std::uint64_t bytes = request.bandwidthBytes;
        DeviceBuffer source;
        DeviceBuffer destination;
        int readGrid = 0;
        int readBlock = 0;
        int copyGrid = 0;
        int copyBlock = 0;
        const std::string setupError = guarded("bandwidth setup", [&] {
            std::size_t freeBytes = 0;
            std::size_t totalBytes = 0;
            check(cudaMemGetInfo(&freeBytes, &totalBytes), "cudaMemGetInfo");
            if (bytes == 0) {
                // Two buffers (the copy's) within 80 % of what is free; 1 GiB each when there is room.
                bytes = kAutoBandwidthBytes;
                const auto room = static_cast<std::uint64_t>(static_cast<double>(freeBytes) * 0.4);
                if (bytes > room)
                    bytes = room / (1ull << 20) * (1ull << 20);
            }
            bytes = bytes / 16 * 16;  // the kernels move 16-byte vectors
            if (bytes == 0)
                throw std::runtime_error("no room for a bandwidth buffer (" + sizeText(freeBytes) + " free)");
            source = DeviceBuffer(bytes, "the bandwidth source buffer");
            destination = DeviceBuffer(bytes, "the bandwidth destination buffer");
            check(detail::fillWords(source.as<std::uint32_t>(), bytes / 4, 7, m_stream), "fill kernel launch");
            check(cudaMemsetAsync(destination.get(), 0, bytes, m_stream), "cudaMemsetAsync");
            check(detail::bandwidthLaunchShape(false, m_device.multiprocessors, &readGrid, &readBlock),
                  "cudaOccupancyMaxActiveBlocksPerMultiprocessor (read kernel)");
            check(detail::bandwidthLaunchShape(true, m_device.multiprocessors, &copyGrid, &copyBlock),
                  "cudaOccupancyMaxActiveBlocksPerMultiprocessor (copy kernel)");
            check(cudaStreamSynchronize(m_stream), "cudaStreamSynchronize");
            sampler.spinUp();
        });
        if (!setupError.empty()) {
            report.bandwidthSkipped = setupError;
            return;
        }
        DeviceBuffer sink;
        for (const bool copy : {false, true}) {
            if (stopped(tracker))
                return;
            BandwidthResult result;
            result.kernel = copy ? "copy" : "read";
            result.bytes = copy ? 2 * bytes : bytes;
            const std::string label = "bandwidth " + result.kernel + " " + sizeText(bytes);
            const std::string failure = guarded(label, [&] {
                if (!sink.get())
                    sink = DeviceBuffer(sizeof(std::uint32_t), "the read kernel's sink");
                const Enqueue enqueue = [&](cudaStream_t stream) {
                    if (copy)
                        check(detail::launchCopyKernel(destination.get(), source.get(), bytes, copyGrid, copyBlock,
                                                       stream),
                              "copy kernel launch");
                    else
                        check(detail::launchReadKernel(source.get(), bytes, sink.as<std::uint32_t>(), readGrid,
                                                       readBlock, stream),
                              "read kernel launch");
                };
                const Sampler::Outcome outcome = sampler.measure(enqueue);
                result.stats = outcome.stats;
                if (!outcome.skipped.empty()) {
                    result.skipped = outcome.skipped;
                    return;
                }
                if (!outcome.warning.empty())
                    report.warnings.push_back(label + ": " + outcome.warning);
                if (result.stats.medianSeconds > 0)
                    result.bytesPerSecond = static_cast<double>(result.bytes) / result.stats.medianSeconds;
                if (report.peak && report.peak->memoryBandwidthGBps > 0)
                    result.percentOfPeak = result.bytesPerSecond / (report.peak->memoryBandwidthGBps * 1e9) * 100;
            });
            if (!failure.empty())
                result.skipped = failure;
            report.bandwidth.push_back(std::move(result));
            tracker.advance(1, label);
        }
    }

    // ---- KV quantise kernel

    void runKvKernel(const BenchRequest& request, BenchReport& report, Sampler& sampler, ProgressTracker& tracker)
    {
        const KvShape& shape = request.kvSweep.shape;
        if (shape.layers < 1 || shape.kvHeads < 1 || shape.headDim < 1) {
            report.kvSkipped = "invalid KV shape: layers, kv heads and head dim must be positive";
            return;
        }
        const int blocks = shape.layers * shape.kvHeads;
        std::size_t tokens = kKvKernelTokens;
        std::size_t blockElements = 0;
        std::size_t elements = 0;
        DeviceBuffer input;
        DeviceBuffer codes;
        DeviceBuffer scales;
        const std::vector<float> gains = kvKernelGains(blocks);
        const std::string setupError = guarded("KV quantise kernel setup", [&] {
            std::size_t freeBytes = 0;
            std::size_t totalBytes = 0;
            check(cudaMemGetInfo(&freeBytes, &totalBytes), "cudaMemGetInfo");
            const auto perToken = static_cast<std::size_t>(blocks) * static_cast<std::size_t>(shape.headDim) * 3;
            while (tokens > 1 && tokens * perToken > freeBytes / 2)
                tokens /= 2;
            blockElements = tokens * static_cast<std::size_t>(shape.headDim);
            elements = blockElements * static_cast<std::size_t>(blocks);
            input = DeviceBuffer(elements * 2, "the KV kernel's BF16 input");
            codes = DeviceBuffer(elements, "the KV kernel's codes");
            scales = DeviceBuffer(gains.size() * sizeof(float), "the KV kernel's scales");
            DeviceBuffer deviceGains(gains.size() * sizeof(float), "the KV kernel's gains");
            check(cudaMemcpy(deviceGains.get(), gains.data(), gains.size() * sizeof(float), cudaMemcpyHostToDevice),
                  "cudaMemcpy (gains)");
            check(detail::fillKvBf16(input.as<std::uint16_t>(), elements, blockElements, deviceGains.as<float>(), 11,
                                     m_stream),
                  "fill kernel launch");
            check(cudaStreamSynchronize(m_stream), "cudaStreamSynchronize");
            sampler.spinUp();
        });
        if (!setupError.empty()) {
            for (KvScaling scaling : request.kvSweep.scalings) {
                KvKernelResult result;
                result.scaling = scaling;
                result.skipped = setupError;
                report.kvKernel.push_back(std::move(result));
                tracker.advance(1, "KV quantise kernel");
            }
            return;
        }
        for (KvScaling scaling : request.kvSweep.scalings) {
            if (stopped(tracker))
                return;
            KvKernelResult result;
            result.scaling = scaling;
            result.elements = elements;
            const std::string label = std::string("KV quantise kernel ") + kvScalingName(scaling) + " " +
                                      std::to_string(tokens) + " tokens";
            const std::vector<float> hostScales = kvKernelScales(scaling, gains, shape.layers, shape.kvHeads);
            const std::string failure = guarded(label, [&] {
                check(cudaMemcpy(scales.get(), hostScales.data(), hostScales.size() * sizeof(float),
                                 cudaMemcpyHostToDevice),
                      "cudaMemcpy (scales)");
                const Enqueue enqueue = [&](cudaStream_t stream) {
                    check(detail::quantizeBf16ToE4m3(input.as<std::uint16_t>(), codes.as<std::uint8_t>(), elements,
                                                     scales.as<float>(), blockElements, stream),
                          "KV quantise kernel launch");
                };
                const Sampler::Outcome outcome = sampler.measure(enqueue);
                result.stats = outcome.stats;
                if (!outcome.skipped.empty()) {
                    result.skipped = outcome.skipped;
                    return;
                }
                if (!outcome.warning.empty())
                    report.warnings.push_back(label + ": " + outcome.warning);
                if (result.stats.medianSeconds > 0)
                    result.bytesPerSecond = 3.0 * static_cast<double>(elements) / result.stats.medianSeconds;
                if (report.peak && report.peak->memoryBandwidthGBps > 0)
                    result.percentOfPeak = result.bytesPerSecond / (report.peak->memoryBandwidthGBps * 1e9) * 100;
                result.matchesCpu = kernelMatchesCpu(input, codes, hostScales, blockElements, blocks);
            });
            if (!failure.empty())
                result.skipped = failure;
            report.kvKernel.push_back(std::move(result));
            tracker.advance(1, label);
        }
    }

    // The first, a middle and the last (layer, head) block's leading elements against the CPU codec.
    bool kernelMatchesCpu(const DeviceBuffer& input, const DeviceBuffer& codes, const std::vector<float>& scales,
                          std::size_t blockElements, int blocks)
    {
        const std::size_t count = std::min<std::size_t>(blockElements, 1u << 16);
        std::vector<std::uint16_t> raw(count);
        std::vector<float> values(count);
        std::vector<std::uint8_t> gpuCodes(count);
        std::vector<std::uint8_t> cpuCodes(count);
        for (const int block : {0, blocks / 2, blocks - 1}) {
            const std::size_t offset = static_cast<std::size_t>(block) * blockElements;
            check(cudaMemcpy(raw.data(), input.as<std::uint16_t>() + offset, count * 2, cudaMemcpyDeviceToHost),
                  "cudaMemcpy (KV input sample)");
            check(cudaMemcpy(gpuCodes.data(), codes.as<std::uint8_t>() + offset, count, cudaMemcpyDeviceToHost),
                  "cudaMemcpy (KV codes sample)");
            for (std::size_t i = 0; i < count; ++i)
                values[i] = bf16ToFloat(raw[i]);
            quantizeKvBlock(values.data(), cpuCodes.data(), count, scales[static_cast<std::size_t>(block)]);
            if (gpuCodes != cpuCodes)
                return false;
        }
        return true;
    }

    // ---- KV error sweep, quantised on the GPU

    void runKvSweep(const BenchRequest& request, BenchReport& report, ProgressTracker& tracker)
    {
        KvSweepConfig config = request.kvSweep;
        config.quantizer = makeCudaKvQuantizer(m_device.index);
        const std::string label = "KV-cache quantisation error (GPU quantiser)";
        const double units = static_cast<double>(config.scalings.size() * config.contexts.size()) + 1;
        const KvProgress kvProgress = [&](double fraction) { return tracker.within(fraction * units, label); };
        try {
            KvSweepResult sweep = runKvQuantSweep(config, kvProgress);
            report.kv = std::move(sweep.results);
            if (sweep.cancelled)
                report.cancelled = true;
        } catch (const std::bad_alloc&) {
            report.kv.clear();
            report.kvSkipped = "out of host memory for the KV-cache sweep (reduce the contexts or the layers)";
        } catch (const std::invalid_argument& e) {
            report.kv.clear();
            report.kvSkipped = std::string("the KV-cache sweep could not run: ") + e.what();
        } catch (const std::exception& e) {
            report.kv.clear();
            report.kvSkipped = recover(std::string("the KV-cache sweep's GPU quantiser failed: ") + e.what());
        }
        tracker.advance(units, label);
    }

    DeviceProps m_device;
    bool m_fp8 = false;
    cudaStream_t m_stream = nullptr;
    std::string m_fatal;  // the error that broke the CUDA context, if one did
};

}  // namespace

std::unique_ptr<BenchRunner> makeCudaBenchRunner()
{
    return std::make_unique<CudaBenchRunner>();
}

GemmOnceOutput runGemmOnce(int deviceIndex, const GemmShape& shape, GemmPrecision precision, bool fastAccum,
                           float scaleA, float scaleB, std::uint64_t seed)
{
    GemmOnceOutput output;
    try {
        if (const std::string problem = shapeProblem(shape, precision); !problem.empty())
            throw std::invalid_argument(problem);
        const CublasLtApi& lt = detail::cublasLt();
        if (!lt.loaded())
            throw std::runtime_error(lt.error);
        check(cudaSetDevice(deviceIndex), "cudaSetDevice");
        Stream stream;
        LtHandle handle(lt);
        DeviceBuffer workspace(kGemmWorkspaceBytes, "the cuBLASLt workspace");
        DeviceBuffer scales(2 * sizeof(float), "the FP8 scales");
        const float hostScales[2] = {scaleA, scaleB};
        check(cudaMemcpy(scales.get(), hostScales, sizeof hostScales, cudaMemcpyHostToDevice), "cudaMemcpy (scales)");
        const GemmOperands operands(shape, shapeText(shape));
        fillGemmInputs(operands, shape, precision, seed, stream.get());
        const GemmPlan plan(lt, handle.get(), shape, precision, fastAccum, scales.as<float>(),
                            scales.as<float>() + 1);
        const std::vector<cublasLtMatmulAlgo_t> algos = plan.candidates(workspace.bytes(), kGemmHeuristics);
        cublasStatus_t status = CUBLAS_STATUS_NOT_SUPPORTED;
        for (const cublasLtMatmulAlgo_t& algo : algos) {
            status = plan.run(algo, operands.w.get(), operands.x.get(), operands.y.get(), workspace.get(),
                              workspace.bytes(), stream.get());
            if (status == CUBLAS_STATUS_SUCCESS)
                break;
        }
        checkLt(lt, status, algos.empty() ? "cublasLtMatmulAlgoGetHeuristic (no algorithm)" : "cublasLtMatmul");
        check(cudaStreamSynchronize(stream.get()), "cudaStreamSynchronize");

        const std::size_t wCount = static_cast<std::size_t>(shape.n) * static_cast<std::size_t>(shape.k);
        const std::size_t xCount = static_cast<std::size_t>(shape.m) * static_cast<std::size_t>(shape.k);
        const std::size_t yCount = static_cast<std::size_t>(shape.m) * static_cast<std::size_t>(shape.n);
        auto decodeInput = [&](const DeviceBuffer& buffer, std::size_t count) {
            std::vector<float> out(count);
            if (precision == GemmPrecision::Fp8E4m3) {
                std::vector<std::uint8_t> raw(count);
                check(cudaMemcpy(raw.data(), buffer.get(), count, cudaMemcpyDeviceToHost), "cudaMemcpy (input)");
                decodeFp8(raw.data(), out.data(), count, Fp8Format::E4M3);
            } else {
                std::vector<std::uint16_t> raw(count);
                check(cudaMemcpy(raw.data(), buffer.get(), count * 2, cudaMemcpyDeviceToHost), "cudaMemcpy (input)");
                std::transform(raw.begin(), raw.end(), out.begin(), bf16ToFloat);
            }
            return out;
        };
        output.w = decodeInput(operands.w, wCount);
        output.x = decodeInput(operands.x, xCount);
        std::vector<std::uint16_t> rawY(yCount);
        check(cudaMemcpy(rawY.data(), operands.y.get(), yCount * 2, cudaMemcpyDeviceToHost), "cudaMemcpy (output)");
        output.y.resize(yCount);
        std::transform(rawY.begin(), rawY.end(), output.y.begin(), bf16ToFloat);
    } catch (const std::exception& e) {
        output = GemmOnceOutput{};
        output.error = e.what();
        cudaGetLastError();
    }
    return output;
}

KvQuantizer makeCudaKvQuantizer(int deviceIndex)
{
    return [deviceIndex](const KvCache& cache, const KvScales& scales, int tokens) {
        checkKvArguments(cache, scales, tokens);
        try {
            check(cudaSetDevice(deviceIndex), "cudaSetDevice");
            QuantizedKv quantized;
            quantized.shape = cache.shape;
            quantized.shape.tokens = tokens;
            quantized.scales = scales;
            quantized.keys.resize(quantized.shape.elementsPerTensor());
            quantized.values.resize(quantized.shape.elementsPerTensor());
            // One layer at a time bounds the device memory to kvHeads x tokens x headDim x 5 bytes.
            const std::size_t layerElements = static_cast<std::size_t>(cache.shape.kvHeads) *
                                              static_cast<std::size_t>(tokens) *
                                              static_cast<std::size_t>(cache.shape.headDim);
            const DeviceBuffer input(layerElements * sizeof(float), "one layer of the KV cache");
            const DeviceBuffer codes(layerElements, "one layer of KV codes");
            const DeviceBuffer deviceScales(scales.key.size() * sizeof(float), "the KV scales");
            quantizeTensorOnGpu(cache.keys, scales.key, cache.shape, tokens, quantized.keys.data(), input, codes,
                                deviceScales);
            quantizeTensorOnGpu(cache.values, scales.value, cache.shape, tokens, quantized.values.data(), input,
                                codes, deviceScales);
            return quantized;
        } catch (const CudaFailure& e) {
            cudaGetLastError();
            throw std::runtime_error(e.what());
        }
    };
}

}  // namespace fp8dash::gpu
