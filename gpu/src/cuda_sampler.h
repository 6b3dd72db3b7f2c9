#pragma once
// Internal to fp8dash_gpu (CUDA builds only): the sampling method on a device (bench.h's method, in nvbench's
// tradition): warm-up, the L2 flushed before each sample, CUDA events around the work, the SM clock over each sample
// from two clock-stamp kernels, and a blocking kernel that holds the stream while the host queues a sample, so the
// timed region starts with the work already queued.

#include "cuda_kernels.h"
#include "cuda_support.h"
#include "fp8dash/gpu/bench.h"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <functional>
#include <string>
#include <vector>

namespace fp8dash::gpu::detail {

inline constexpr std::uint64_t kBlockingTimeoutNs =
    200'000'000;                                     // the host queues a sample in microseconds; 0.2 s is a hang
inline constexpr double kMinClockWindowNs = 20'000;  // shorter windows: the global timer is too coarse to judge
inline constexpr double kSpinUpSeconds = 0.2;        // busy time before a section, so clocks leave idle

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

DeviceProps deviceProps(int index);

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
        : m_device(device), m_stream(stream), m_options(options) {
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
    void spinUp() {
        if (!m_flush.get()) return;
        const auto start = Clock::now();
        while (secondsSince(start) < kSpinUpSeconds) {
            for (int i = 0; i < 8; ++i)
                check(cudaMemsetAsync(m_flush.get(), i, m_flush.bytes(), m_stream), "cudaMemsetAsync (spin-up)");
            check(cudaStreamSynchronize(m_stream), "cudaStreamSynchronize (spin-up)");
        }
    }

    // Warm-up, then samples until the SampleController is satisfied (or the per-case cap passes with nothing kept).
    Outcome measure(const Enqueue& enqueue) {
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
        std::vector<double> keptClocksKHz;
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
                if (sample.clockKHz > 0) keptClocksKHz.push_back(sample.clockKHz);
                ++kept;
            }
            const double elapsed = secondsSince(start);
            if (controller.done(elapsed)) break;
            if (elapsed >= m_options.maxSecondsPerCase && kept == 0)
                break;  // every attempt was throttled or timed out: stop at the cap rather than spin
        }
        m_timedOutTotal += timedOut;

        Outcome outcome;
        outcome.stats = controller.stats();
        // The clock each case ran at (the median over its samples): a power-capped FP8 GEMM runs below the boost
        // clock legitimately, and the reader sees it here rather than through discarded samples.
        if (!keptClocksKHz.empty()) outcome.stats.smClockMHz = summarizeSamples(keptClocksKHz).medianSeconds / 1000.0;
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
                                  std::to_string(kBlockingTimeoutNs / 1'000'000) + " ms (" + std::to_string(timedOut) +
                                  " attempts)";
            }
        }
        return outcome;
    }

    // The median of `runs` samples taken exactly as measure() takes them (L2 flushed before each): cuBLASLt's
    // candidates are ranked under the conditions they are measured in, since the fastest with a warm L2 need not be
    // the fastest cold. 0 when no sample could be taken.
    double rankCold(const Enqueue& enqueue, int runs) {
        std::vector<double> seconds;
        for (int i = 0; i < runs; ++i) {
            const Sample sample = takeSample(enqueue);
            if (!sample.timedOut) seconds.push_back(sample.seconds);
        }
        return summarizeSamples(seconds).medianSeconds;
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
    void arm() {
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

    void flushL2() {
        if (m_flush.get()) {
            check(cudaMemsetAsync(m_flush.get(), m_flushValue, m_flush.bytes(), m_stream),
                  "cudaMemsetAsync (L2 flush)");
            m_flushValue = (m_flushValue + 1) & 0xFF;
        }
    }

    Sample takeSample(const Enqueue& enqueue) {
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
            sync->after.smCycles > sync->before.smCycles && m_device.clockKHz > 0) {
            const double ns = static_cast<double>(sync->after.globalNs - sync->before.globalNs);
            const double cycles = static_cast<double>(sync->after.smCycles - sync->before.smCycles);
            const double clockKHz = cycles / ns * 1e6;
            if (ns >= kMinClockWindowNs && clockKHz < 1.5 * m_device.clockKHz) {
                sample.clockKHz = clockKHz;
                sample.throttled =
                    m_options.throttleThreshold > 0 && clockKHz < m_options.throttleThreshold * m_device.clockKHz;
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

}  // namespace fp8dash::gpu::detail
