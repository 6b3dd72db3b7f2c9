// The plain C++ half of the microbenchmarks (bench.h): the sampling method, the roofline, the CPU runner, and the
// process's one GPU worker thread behind runBench.
#include "fp8dash/gpu/bench.h"

#include <algorithm>
#include <cmath>
#include <condition_variable>
#include <deque>
#include <exception>
#include <future>
#include <mutex>
#include <new>
#include <stdexcept>
#include <thread>
#include <utility>

#include "device_listing.h"

#ifdef FP8DASH_WITH_CUDA
#include "cuda_bench.h"
#endif

namespace fp8dash::gpu {

// ---------------------------------------------------------------------------------------------------------------
// Sampling

SampleStats summarizeSamples(std::span<const double> seconds) {
    SampleStats stats;
    stats.samples = static_cast<int>(seconds.size());
    if (seconds.empty()) return stats;
    std::vector<double> sorted(seconds.begin(), seconds.end());
    std::sort(sorted.begin(), sorted.end());
    const std::size_t n = sorted.size();
    stats.medianSeconds = n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0;
    stats.minSeconds = sorted.front();
    stats.maxSeconds = sorted.back();
    double sum = 0;
    for (double s : sorted) sum += s;
    stats.meanSeconds = sum / static_cast<double>(n);
    // Identical samples have no noise: said exactly, since their floating-point mean may differ from them in the
    // last bit.
    if (n >= 2 && stats.meanSeconds > 0 && stats.minSeconds != stats.maxSeconds) {
        // Two passes (sum of squared deviations from the mean) rather than sum x^2 - n mean^2, which cancels
        // catastrophically for samples that agree to many digits: exactly the converged case.
        double squares = 0;
        for (double s : sorted) squares += (s - stats.meanSeconds) * (s - stats.meanSeconds);
        stats.relStdDev = std::sqrt(squares / static_cast<double>(n - 1)) / stats.meanSeconds;
    }
    return stats;
}

SampleController::SampleController(const MeasureOptions& options) : m_options(options) {}

void SampleController::add(double seconds) {
    m_samples.push_back(seconds);
}

void SampleController::addThrottled() {
    ++m_throttled;
}

bool SampleController::done(double elapsedSeconds) const {
    const auto kept = static_cast<int>(m_samples.size());
    if (kept >= std::max(1, m_options.maxSamples)) return true;
    if (kept >= std::max(1, m_options.minSamples) && summarizeSamples(m_samples).relStdDev <= m_options.targetRelStdDev)
        return true;
    if (elapsedSeconds >= m_options.maxSecondsPerCase) {
        // Past the cap a case reports what it has. A GPU that throttles every sample would otherwise never stop:
        // attempts (kept + throttled) reaching maxSamples end it too, with no samples and converged = false.
        if (kept >= 1 || kept + m_throttled >= std::max(1, m_options.maxSamples)) return true;
    }
    return false;
}

SampleStats SampleController::stats() const {
    SampleStats stats = summarizeSamples(m_samples);
    stats.throttledSamples = m_throttled;
    stats.converged =
        stats.samples >= std::max(1, m_options.minSamples) && stats.relStdDev <= m_options.targetRelStdDev;
    return stats;
}

// ---------------------------------------------------------------------------------------------------------------
// GEMM arithmetic

const char* gemmPrecisionName(GemmPrecision p) {
    switch (p) {
        case GemmPrecision::Bf16:
            return "bf16";
        case GemmPrecision::Fp8E4m3:
            return "fp8_e4m3";
        case GemmPrecision::Nvfp4:
            return "nvfp4_e2m1";
        case GemmPrecision::Mxfp4:
            return "mxfp4_e2m1";
    }
    return "unknown";
}

std::optional<GemmPrecision> parseGemmPrecision(std::string_view name) {
    for (GemmPrecision p : {GemmPrecision::Bf16, GemmPrecision::Fp8E4m3, GemmPrecision::Nvfp4, GemmPrecision::Mxfp4})
        if (name == gemmPrecisionName(p)) return p;
    return std::nullopt;
}

bool gemmIsFp4(GemmPrecision p) {
    return p == GemmPrecision::Nvfp4 || p == GemmPrecision::Mxfp4;
}

double gemmInputBytes(GemmPrecision p) {
    switch (p) {
        case GemmPrecision::Bf16:
            return 2.0;
        case GemmPrecision::Fp8E4m3:
            return 1.0;
        case GemmPrecision::Nvfp4:
            return 0.5 + 1.0 / 16;  // half a byte a value, an E4M3 scale a block of 16
        case GemmPrecision::Mxfp4:
            return 0.5 + 1.0 / 32;  // a UE8M0 scale a block of 32
    }
    return 2.0;
}

std::size_t gemmBlockScaleBytes(GemmPrecision p, int outer, int k) {
    if (!gemmIsFp4(p) || outer <= 0 || k <= 0) return 0;
    const std::size_t block = p == GemmPrecision::Nvfp4 ? 16 : 32;
    const auto roundUp = [](std::size_t v, std::size_t to) { return (v + to - 1) / to * to; };
    const std::size_t rows = roundUp(static_cast<std::size_t>(outer), 128);
    const std::size_t columns = roundUp((static_cast<std::size_t>(k) + block - 1) / block, 4);
    return rows * columns;
}

double GemmShape::minBytes(GemmPrecision p) const {
    const double in = gemmInputBytes(p);
    const double md = m;
    const double nd = n;
    const double kd = k;
    return md * kd * in + kd * nd * in + md * nd * 2.0;  // D is BF16 for every precision
}

GemmRoof gemmRoof(const GemmShape& shape, GemmPrecision p, const PeakSpec& peak) {
    const double computeTflops = p == GemmPrecision::Fp8E4m3 ? peak.fp8DenseTflops
                                 : gemmIsFp4(p)              ? peak.fp4DenseTflops
                                                             : peak.bf16DenseTflops;
    const double bytes = shape.minBytes(p);
    // FLOP/byte x GB/s = GFLOP/s; / 1e3 = TFLOP/s.
    const double memoryTflops = bytes > 0 ? shape.flops() / bytes * peak.memoryBandwidthGBps / 1e3 : 0.0;
    GemmRoof roof;
    if (memoryTflops < computeTflops) {
        roof.attainableTflops = memoryTflops;
        roof.bound = "memory";
    } else {
        roof.attainableTflops = computeTflops;
        roof.bound = "compute";
    }
    return roof;
}

// ---------------------------------------------------------------------------------------------------------------
// The CPU runner

namespace {

// The CPU implementation over a device report someone already took (runBench's, so the reasons match the machine).
// gpuReason: why the GPU parts are not run here, in words.
BenchReport runOnCpu(const BenchRequest& request, const BenchProgress& progress, DeviceReport device,
                     const std::string& gpuReason) {
    BenchReport report;
    report.backend = "cpu";
    report.device = std::move(device);
    report.model = request.model;
    report.kvBackend = "cpu";
    // A part that was not asked for still says why the GPU would not have run it when there is no GPU: that is the
    // reason a reader needs; "not requested" only when a GPU was there to use.
    const bool gpuThere = report.device.hasUsableDevice();
    report.gemmSkipped = request.gemm || !gpuThere ? gpuReason : "not requested";
    report.bandwidthSkipped = request.bandwidth || !gpuThere ? gpuReason : "not requested";
    // The error sweep is the KV section; its quantise kernel (kvKernel) is GPU-only and stays empty here, which
    // kvBackend = "cpu" says.
    if (!request.kv) {
        report.kvSkipped = "not requested";
    } else {
        KvSweepConfig config = request.kvSweep;
        config.quantizer = {};  // the software codec, whatever the caller put there
        const KvProgress kvProgress = [&progress](double fraction) {
            return !progress || progress(fraction, "KV-cache quantisation error (CPU codec)");
        };
        try {
            KvSweepResult sweep = runKvQuantSweep(config, kvProgress);
            report.kv = std::move(sweep.results);
            report.cancelled = sweep.cancelled;
        } catch (const std::bad_alloc&) {
            report.kvSkipped = "out of memory for the KV-cache sweep (reduce the contexts or the layers)";
            report.kv.clear();
        } catch (const std::exception& e) {
            report.kvSkipped = std::string("the KV-cache sweep could not run: ") + e.what();
            report.kv.clear();
        }
    }
    if (!report.cancelled && progress && !progress(1.0, "done")) report.cancelled = true;
    return report;
}

class CpuBenchRunner final : public BenchRunner {
public:
    BenchReport run(const BenchRequest& request, const BenchProgress& progress) override {
        // The real query (the CPU one in a build without CUDA), so "no GPU" says why in this machine's terms.
        DeviceReport device = makeDeviceQuery()->query();
        const std::string reason = detail::cpuRunnerReason(request, device);
        return runOnCpu(request, progress, std::move(device), reason);
    }
};

// ---------------------------------------------------------------------------------------------------------------
// The GPU worker thread

// One thread runs every benchmark job of the process, one at a time: CUDA contexts, cuBLASLt handles and clock
// readings then belong to one thread, and two benchmarks never share the GPU (they would measure each other).
//
// Lifetime: a function-local static whose destructor stops the thread at exit. It asks a running job to stop (its
// progress callback starts returning false, which every runner checks between samples), drops queued jobs (their
// callers' futures see a broken promise and return a cancelled report) and joins. Static destruction runs in the
// reverse order of construction, so anything a job uses must be constructed before this object: the constructor
// therefore runs one device query on the new thread before it returns, which initialises the CUDA runtime's static
// state first; the runtime's teardown then comes after this destructor, never under a running job.
class GpuWorker {
public:
    GpuWorker() {
        m_thread = std::thread([this] { loop(); });
        std::promise<void> warmed;
        std::future<void> ready = warmed.get_future();
        submit([&warmed] {
            (void)makeDeviceQuery()->query();
            warmed.set_value();
        });
        ready.wait();
    }

    ~GpuWorker() {
        {
            std::lock_guard lock(m_mutex);
            m_stopping = true;
            m_jobs.clear();
        }
        m_wake.notify_all();
        if (m_thread.joinable()) {
            // exit() called from a job itself cannot wait for that job.
            if (m_thread.get_id() == std::this_thread::get_id())
                m_thread.detach();
            else
                m_thread.join();
        }
    }

    GpuWorker(const GpuWorker&) = delete;
    GpuWorker& operator=(const GpuWorker&) = delete;

    void submit(std::function<void()> job) {
        {
            std::lock_guard lock(m_mutex);
            if (m_stopping) return;  // the job is destroyed unrun: its caller's promise breaks
            m_jobs.push_back(std::move(job));
        }
        m_wake.notify_one();
    }

    bool stopping() const {
        std::lock_guard lock(m_mutex);
        return m_stopping;
    }

private:
    void loop() {
        for (;;) {
            std::function<void()> job;
            {
                std::unique_lock lock(m_mutex);
                m_wake.wait(lock, [this] { return m_stopping || !m_jobs.empty(); });
                if (m_stopping) return;
                job = std::move(m_jobs.front());
                m_jobs.pop_front();
            }
            job();
        }
    }

    mutable std::mutex m_mutex;
    std::condition_variable m_wake;
    std::deque<std::function<void()>> m_jobs;
    bool m_stopping = false;
    std::thread m_thread;
};

GpuWorker& gpuWorker() {
    static GpuWorker worker;
    return worker;
}

// On the worker thread: picks the implementation and runs it; never throws.
BenchReport runOnWorker(const BenchRequest& request, const BenchProgress& progress) {
    DeviceReport device;
    try {
        device = makeDeviceQuery()->query();
    } catch (const std::exception& e) {
        device = makeCpuDeviceQuery()->query();
        device.reason = std::string("the device query failed: ") + e.what();
    }
    // By CUDA ordinal, not by position in the list: the listing skips devices it cannot query.
    const detail::DeviceChoice choice = detail::chooseBenchDevice(request, device, builtWithCuda());
    if (!choice.device) return runOnCpu(request, progress, std::move(device), choice.cpuReason);

    BenchReport report;
    try {
        report = makeBenchRunner()->run(request, progress);
    } catch (const std::exception& e) {
        // Runners never throw; a bug that does still becomes a report rather than a dead worker thread.
        report = runOnCpu(request, progress, device, std::string("the GPU benchmark failed: ") + e.what());
        report.warnings.push_back(std::string("the GPU runner failed: ") + e.what());
        return report;
    }
    // The report describes the device that ran it.
    const DeviceInfo& used = *choice.device;
    if (report.device.devices.empty()) report.device = device;
    report.device.devices = {used};
    if (!report.peak) report.peak = findPeakSpec(used.name);
    if (!report.peak && report.backend == "cuda") {
        const std::string warning = detail::noPeakWarning(used.name);
        if (std::find(report.warnings.begin(), report.warnings.end(), warning) == report.warnings.end())
            report.warnings.push_back(warning);
    }
    return report;
}

}  // namespace

std::unique_ptr<BenchRunner> makeCpuBenchRunner() {
    return std::make_unique<CpuBenchRunner>();
}

std::unique_ptr<BenchRunner> makeBenchRunner() {
#ifdef FP8DASH_WITH_CUDA
    return makeCudaBenchRunner();
#else
    return makeCpuBenchRunner();
#endif
}

BenchReport runBench(const BenchRequest& request, const BenchProgress& progress) {
    GpuWorker& worker = gpuWorker();
    auto promise = std::make_shared<std::promise<BenchReport>>();
    std::future<BenchReport> result = promise->get_future();
    // The job holds the only reference to the promise: a job dropped unrun (process exit) breaks it, and get() below
    // returns instead of waiting forever. The progress callback also stops a running job at exit.
    worker.submit([promise = std::move(promise), &request, &progress, &worker] {
        const BenchProgress guarded = [&progress, &worker](double fraction, const std::string& step) {
            if (worker.stopping()) return false;
            return !progress || progress(fraction, step);
        };
        try {
            promise->set_value(runOnWorker(request, guarded));
        } catch (...) {
            promise->set_exception(std::current_exception());
        }
    });
    try {
        return result.get();
    } catch (const std::exception& e) {
        BenchReport report;
        report.model = request.model;
        report.cancelled = true;
        report.gemmSkipped = report.bandwidthSkipped = report.kvSkipped =
            std::string("not run: the benchmark worker stopped (") + e.what() + ")";
        return report;
    }
}

}  // namespace fp8dash::gpu
