// The CUDA implementation of the microbenchmarks (bench.h): the runner that plans every case, runs it and records a
// failure as the case's reason; cuBLASLt GEMM (BF16 vs FP8 E4M3), memory bandwidth, the KV-cache quantise kernel, and
// the KV error sweep with the quantisation done on the GPU. Host code only: the kernels are in cuda_kernels.cu,
// cuBLASLt is loaded at run time (cuda_cublaslt.h). Its pieces: cuda_support.h (errors, owners of CUDA objects),
// cuda_sampler.h (the sampling method), cuda_gemm.h (one GEMM's plan), cuda_kv.h (the KV pieces).
//
// Error handling: every CUDA and cuBLASLt call is checked and a failure throws; each case catches it and records the
// reason as `skipped`. After a failure the device is probed: an error that the context keeps (illegal address,
// launch failure...) ends the run, and the cases not yet run are reported as not run.
#include "cuda_bench.h"

#include "cuda_cublaslt.h"
#include "cuda_gemm.h"
#include "cuda_kernels.h"
#include "cuda_kv.h"
#include "cuda_sampler.h"
#include "cuda_support.h"
#include "fp8dash/gpu/fp4_codec.h"
#include "fp8dash/gpu/fp8_codec.h"
#include "fp8dash/gpu/peak_table.h"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <exception>
#include <new>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace fp8dash::gpu {
namespace {

using namespace detail;

constexpr int kGemmRankSamples = 3;  // samples per cuBLASLt candidate when ranking them
constexpr std::uint64_t kAutoBandwidthBytes = 1ull << 30;

// ---------------------------------------------------------------------------------------------------------------
// Progress over every planned case

class ProgressTracker {
public:
    ProgressTracker(const BenchProgress& callback, double total)
        : m_callback(callback), m_total(std::max(1.0, total)) {}

    // After a case; false once the caller asked to stop.
    bool advance(double units, const std::string& step) {
        m_done += units;
        return report(m_done, step);
    }
    // Within a case (the KV sweep reports fractions of itself).
    bool within(double units, const std::string& step) { return report(m_done + units, step); }

    // The end: 1.0 whatever was skipped on the way.
    void finish() {
        m_done = m_total;
        report(m_done, "done");
    }

    bool cancelled() const { return m_cancelled; }

private:
    bool report(double done, const std::string& step) {
        if (m_cancelled) return false;
        if (m_callback && !m_callback(std::clamp(done / m_total, 0.0, 1.0), step)) m_cancelled = true;
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
    BenchReport run(const BenchRequest& request, const BenchProgress& progress) override {
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
    static void markRest(BenchReport& report, const std::string& why) {
        if (report.gemmSkipped.empty() && report.gemm.empty()) report.gemmSkipped = why;
        if (report.bandwidthSkipped.empty() && report.bandwidth.empty()) report.bandwidthSkipped = why;
        if (report.kvSkipped.empty() && report.kv.empty() && report.kvKernel.empty()) report.kvSkipped = why;
    }

    void runAll(const BenchRequest& request, const BenchProgress& progress, BenchReport& report) {
        check(cudaSetDevice(request.deviceIndex), "cudaSetDevice");
        m_device = deviceProps(request.deviceIndex);
        report.peak = findPeakSpec(m_device.name);
        m_fp8 = supportsFp8(m_device.major, m_device.minor);

        const int perShape = 2 + (request.fp8FastAccum ? 1 : 0) + (request.fp4 ? 2 : 0);
        const int gemmCases = request.gemm ? static_cast<int>(request.gemmShapes.size()) * perShape : 0;
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
            if (!stopped(tracker)) runKvSweep(request, report, tracker);
        }

        if (tracker.cancelled()) report.cancelled = true;
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
        if (!report.cancelled) tracker.finish();
    }

    bool stopped(const ProgressTracker& tracker) const { return tracker.cancelled() || !m_fatal.empty(); }

    // After a failed case: clears what can be cleared and finds out whether the context survived.
    std::string recover(const std::string& reason) {
        cudaGetLastError();
        cudaError_t e = cudaStreamSynchronize(m_stream);
        if (e == cudaSuccess) e = cudaDeviceSynchronize();
        if (e != cudaSuccess && m_fatal.empty()) m_fatal = cudaText(e) + " after: " + reason;
        cudaGetLastError();
        return reason;
    }

    // Runs one case body, turning every failure into the case's skip reason.
    template <typename Body>
    std::string guarded(const std::string& label, Body&& body) {
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

    void runGemm(const BenchRequest& request, BenchReport& report, Sampler& sampler, ProgressTracker& tracker) {
        const CublasLtApi& lt = cublasLt();
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
            // On the GEMMs' stream (a pageable cudaMemcpy may return before its data lands), waited for while `ones`
            // is still in scope.
            check(cudaMemcpyAsync(unitScales.get(), ones, sizeof ones, cudaMemcpyHostToDevice, m_stream),
                  "cudaMemcpyAsync (scales)");
            check(cudaStreamSynchronize(m_stream), "cudaStreamSynchronize (scales)");
            sampler.spinUp();
        });
        if (!setupError.empty()) {
            report.gemmSkipped = setupError;
            return;
        }

        std::vector<std::pair<GemmPrecision, bool>> variants{{GemmPrecision::Bf16, false},
                                                             {GemmPrecision::Fp8E4m3, false}};
        if (request.fp8FastAccum) variants.emplace_back(GemmPrecision::Fp8E4m3, true);
        std::string fp4Problem;  // why the FP4 rows cannot run on this GPU / build, "" when they can
        if (request.fp4) {
            variants.emplace_back(GemmPrecision::Nvfp4, false);
            variants.emplace_back(GemmPrecision::Mxfp4, false);
            if (!hasFp4TensorCores(m_device.major, m_device.minor))
                fp4Problem = std::string(kFp4NeedsTensorCores) + "; compute capability " +
                             std::to_string(m_device.major) + "." + std::to_string(m_device.minor) +
                             " has none (10.0 or newer)";
            else
                fp4Problem = fp4GemmUnavailable(lt);
        }

        for (const GemmShape& shape : request.gemmShapes) {
            if (stopped(tracker)) return;
            std::vector<GemmResult> rows;
            std::unique_ptr<GemmOperands> operands;
            const std::string allocError =
                shapeProblem(shape, GemmPrecision::Bf16).empty()
                    ? guarded(shapeText(shape),
                              [&] {
                                  operands = std::make_unique<GemmOperands>(shape, shapeText(shape),
                                                                            request.fp4 && fp4Problem.empty());
                              })
                    : shapeProblem(shape, GemmPrecision::Bf16);
            for (const auto& [precision, fastAccum] : variants) {
                if (stopped(tracker)) break;
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
                } else if (gemmIsFp4(precision) && !fp4Problem.empty()) {
                    row.skipped = fp4Problem;
                } else if (const std::string problem = shapeProblem(shape, precision); !problem.empty()) {
                    row.skipped = problem;
                } else {
                    // The case sets row.skipped itself for a clean refusal (no algorithm, every sample throttled).
                    const std::string failure = guarded(label, [&] {
                        runGemmCase(lt, handle->get(), *operands, workspace, unitScales, sampler, report, row);
                    });
                    if (!failure.empty()) row.skipped = failure;
                }
                rows.push_back(std::move(row));
                tracker.advance(1, label);
            }
            // FP8 and FP4 rows: the BF16 median of the same shape over theirs.
            const GemmResult* bf16 = nullptr;
            for (const GemmResult& row : rows) {
                if (row.precision == GemmPrecision::Bf16 && row.skipped.empty() && row.stats.medianSeconds > 0)
                    bf16 = &row;
            }
            for (GemmResult& row : rows) {
                if (bf16 && row.precision != GemmPrecision::Bf16 && row.skipped.empty() && row.stats.medianSeconds > 0)
                    row.speedupVsBf16 = bf16->stats.medianSeconds / row.stats.medianSeconds;
            }
            for (GemmResult& row : rows) report.gemm.push_back(std::move(row));
        }
    }

    void runGemmCase(const CublasLtApi& lt, cublasLtHandle_t handle, const GemmOperands& operands,
                     const DeviceBuffer& workspace, const DeviceBuffer& unitScales, Sampler& sampler,
                     BenchReport& report, GemmResult& row) {
        const GemmShape& shape = row.shape;
        fillGemmInputs(operands, shape, row.precision, 1, m_stream);
        const bool fp4 = gemmIsFp4(row.precision);
        const void* scaleA = fp4 ? operands.wScales.get() : static_cast<const void*>(unitScales.as<float>());
        const void* scaleB = fp4 ? operands.xScales.get() : static_cast<const void*>(unitScales.as<float>() + 1);
        const GemmPlan plan(lt, handle, shape, row.precision, row.fastAccum, scaleA, scaleB);
        const std::vector<cublasLtMatmulAlgo_t> algos = plan.candidates(workspace.bytes(), kGemmHeuristics);
        if (algos.empty()) {
            row.skipped =
                "cuBLASLt has no algorithm for " + caseText(shape, row.precision, row.fastAccum) + " on this GPU";
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

        // Each candidate: one untimed call (loads its kernel, weeds out those that refuse), then a few samples taken
        // as the measurement takes them (L2 flushed): ranked the way the winner is then measured.
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
            const double seconds = sampler.rankCold(enqueueWith(algo), kGemmRankSamples);
            if (seconds <= 0) continue;
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
            if (row.roof->attainableTflops > 0) row.percentOfRoof = row.tflops / row.roof->attainableTflops * 100;
        }
    }

    // ---- Bandwidth

    void runBandwidth(const BenchRequest& request, BenchReport& report, Sampler& sampler, ProgressTracker& tracker) {
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
                if (bytes > room) bytes = room / (1ull << 20) * (1ull << 20);
            }
            bytes = bytes / 16 * 16;  // the kernels move 16-byte vectors
            if (bytes == 0)
                throw std::runtime_error("no room for a bandwidth buffer (" + sizeText(freeBytes) + " free)");
            source = DeviceBuffer(bytes, "the bandwidth source buffer");
            destination = DeviceBuffer(bytes, "the bandwidth destination buffer");
            check(fillWords(source.as<std::uint32_t>(), bytes / 4, 7, m_stream), "fill kernel launch");
            check(cudaMemsetAsync(destination.get(), 0, bytes, m_stream), "cudaMemsetAsync");
            check(bandwidthLaunchShape(false, m_device.multiprocessors, &readGrid, &readBlock),
                  "cudaOccupancyMaxActiveBlocksPerMultiprocessor (read kernel)");
            check(bandwidthLaunchShape(true, m_device.multiprocessors, &copyGrid, &copyBlock),
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
            if (stopped(tracker)) return;
            BandwidthResult result;
            result.kernel = copy ? "copy" : "read";
            result.bytes = copy ? 2 * bytes : bytes;
            const std::string label = "bandwidth " + result.kernel + " " + sizeText(bytes);
            const std::string failure = guarded(label, [&] {
                if (!sink.get()) sink = DeviceBuffer(sizeof(std::uint32_t), "the read kernel's sink");
                const Enqueue enqueue = [&](cudaStream_t stream) {
                    if (copy)
                        check(launchCopyKernel(destination.get(), source.get(), bytes, copyGrid, copyBlock, stream),
                              "copy kernel launch");
                    else
                        check(launchReadKernel(source.get(), bytes, sink.as<std::uint32_t>(), readGrid, readBlock,
                                               stream),
                              "read kernel launch");
                };
                const Sampler::Outcome outcome = sampler.measure(enqueue);
                result.stats = outcome.stats;
                if (!outcome.skipped.empty()) {
                    result.skipped = outcome.skipped;
                    return;
                }
                if (!outcome.warning.empty()) report.warnings.push_back(label + ": " + outcome.warning);
                if (result.stats.medianSeconds > 0)
                    result.bytesPerSecond = static_cast<double>(result.bytes) / result.stats.medianSeconds;
                if (report.peak && report.peak->memoryBandwidthGBps > 0)
                    result.percentOfPeak = result.bytesPerSecond / (report.peak->memoryBandwidthGBps * 1e9) * 100;
            });
            if (!failure.empty()) result.skipped = failure;
            report.bandwidth.push_back(std::move(result));
            tracker.advance(1, label);
        }
    }

    // ---- KV quantise kernel

    void runKvKernel(const BenchRequest& request, BenchReport& report, Sampler& sampler, ProgressTracker& tracker) {
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
            while (tokens > 1 && tokens * perToken > freeBytes / 2) tokens /= 2;
            blockElements = tokens * static_cast<std::size_t>(shape.headDim);
            elements = blockElements * static_cast<std::size_t>(blocks);
            input = DeviceBuffer(elements * 2, "the KV kernel's BF16 input");
            codes = DeviceBuffer(elements, "the KV kernel's codes");
            scales = DeviceBuffer(gains.size() * sizeof(float), "the KV kernel's scales");
            DeviceBuffer deviceGains(gains.size() * sizeof(float), "the KV kernel's gains");
            check(cudaMemcpyAsync(deviceGains.get(), gains.data(), gains.size() * sizeof(float), cudaMemcpyHostToDevice,
                                  m_stream),
                  "cudaMemcpyAsync (gains)");
            check(fillKvBf16(input.as<std::uint16_t>(), elements, blockElements, deviceGains.as<float>(), 11, m_stream),
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
            if (stopped(tracker)) return;
            KvKernelResult result;
            result.scaling = scaling;
            result.elements = elements;
            const std::string label =
                std::string("KV quantise kernel ") + kvScalingName(scaling) + " " + std::to_string(tokens) + " tokens";
            const std::vector<float> hostScales = kvKernelScales(scaling, gains, shape.layers, shape.kvHeads);
            const std::string failure = guarded(label, [&] {
                // On the kernel's stream, ahead of its launches; hostScales outlives the measurement.
                check(cudaMemcpyAsync(scales.get(), hostScales.data(), hostScales.size() * sizeof(float),
                                      cudaMemcpyHostToDevice, m_stream),
                      "cudaMemcpyAsync (scales)");
                const Enqueue enqueue = [&](cudaStream_t stream) {
                    check(quantizeBf16ToE4m3(input.as<std::uint16_t>(), codes.as<std::uint8_t>(), elements,
                                             scales.as<float>(), blockElements, stream),
                          "KV quantise kernel launch");
                };
                const Sampler::Outcome outcome = sampler.measure(enqueue);
                result.stats = outcome.stats;
                if (!outcome.skipped.empty()) {
                    result.skipped = outcome.skipped;
                    return;
                }
                if (!outcome.warning.empty()) report.warnings.push_back(label + ": " + outcome.warning);
                if (result.stats.medianSeconds > 0)
                    result.bytesPerSecond = 3.0 * static_cast<double>(elements) / result.stats.medianSeconds;
                if (report.peak && report.peak->memoryBandwidthGBps > 0)
                    result.percentOfPeak = result.bytesPerSecond / (report.peak->memoryBandwidthGBps * 1e9) * 100;
                result.matchesCpu = kernelMatchesCpu(input, codes, hostScales, blockElements, blocks);
            });
            if (!failure.empty()) result.skipped = failure;
            report.kvKernel.push_back(std::move(result));
            tracker.advance(1, label);
        }
    }

    // The first, a middle and the last (layer, head) block's leading elements against the CPU codec.
    bool kernelMatchesCpu(const DeviceBuffer& input, const DeviceBuffer& codes, const std::vector<float>& scales,
                          std::size_t blockElements, int blocks) {
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
            for (std::size_t i = 0; i < count; ++i) values[i] = bf16ToFloat(raw[i]);
            quantizeKvBlock(values.data(), cpuCodes.data(), count, scales[static_cast<std::size_t>(block)]);
            if (gpuCodes != cpuCodes) return false;
        }
        return true;
    }

    // ---- KV error sweep, quantised on the GPU

    void runKvSweep(const BenchRequest& request, BenchReport& report, ProgressTracker& tracker) {
        KvSweepConfig config = request.kvSweep;
        config.quantizer = makeCudaKvQuantizer(m_device.index);
        const std::string label = "KV-cache quantisation error (GPU quantiser)";
        const double units = static_cast<double>(config.scalings.size() * config.contexts.size()) + 1;
        const KvProgress kvProgress = [&](double fraction) { return tracker.within(fraction * units, label); };
        try {
            KvSweepResult sweep = runKvQuantSweep(config, kvProgress);
            report.kv = std::move(sweep.results);
            if (sweep.cancelled) report.cancelled = true;
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

std::unique_ptr<BenchRunner> makeCudaBenchRunner() {
    return std::make_unique<CudaBenchRunner>();
}

GemmOnceOutput runGemmOnce(int deviceIndex, const GemmShape& shape, GemmPrecision precision, bool fastAccum,
                           float scaleA, float scaleB, std::uint64_t seed) {
    GemmOnceOutput output;
    try {
        if (const std::string problem = shapeProblem(shape, precision); !problem.empty())
            throw std::invalid_argument(problem);
        const CublasLtApi& lt = cublasLt();
        if (!lt.loaded()) throw std::runtime_error(lt.error);
        check(cudaSetDevice(deviceIndex), "cudaSetDevice");
        Stream stream;
        LtHandle handle(lt);
        DeviceBuffer workspace(kGemmWorkspaceBytes, "the cuBLASLt workspace");
        DeviceBuffer scales(2 * sizeof(float), "the FP8 scales");
        const float hostScales[2] = {scaleA, scaleB};
        check(cudaMemcpyAsync(scales.get(), hostScales, sizeof hostScales, cudaMemcpyHostToDevice, stream.get()),
              "cudaMemcpyAsync (scales)");
        const bool fp4 = gemmIsFp4(precision);
        if (fp4) {
            const DeviceProps props = deviceProps(deviceIndex);
            if (!hasFp4TensorCores(props.major, props.minor)) throw std::runtime_error(kFp4NeedsTensorCores);
            if (const std::string why = fp4GemmUnavailable(lt); !why.empty()) throw std::runtime_error(why);
        }
        const GemmOperands operands(shape, shapeText(shape), fp4);
        fillGemmInputs(operands, shape, precision, seed, stream.get());
        const void* planScaleA = fp4 ? operands.wScales.get() : static_cast<const void*>(scales.as<float>());
        const void* planScaleB = fp4 ? operands.xScales.get() : static_cast<const void*>(scales.as<float>() + 1);
        const GemmPlan plan(lt, handle.get(), shape, precision, fastAccum, planScaleA, planScaleB);
        const std::vector<cublasLtMatmulAlgo_t> algos = plan.candidates(workspace.bytes(), kGemmHeuristics);
        cublasStatus_t status = CUBLAS_STATUS_NOT_SUPPORTED;
        for (const cublasLtMatmulAlgo_t& algo : algos) {
            status = plan.run(algo, operands.w.get(), operands.x.get(), operands.y.get(), workspace.get(),
                              workspace.bytes(), stream.get());
            if (status == CUBLAS_STATUS_SUCCESS) break;
        }
        checkLt(lt, status, algos.empty() ? "cublasLtMatmulAlgoGetHeuristic (no algorithm)" : "cublasLtMatmul");
        check(cudaStreamSynchronize(stream.get()), "cudaStreamSynchronize");

        const std::size_t wCount = static_cast<std::size_t>(shape.n) * static_cast<std::size_t>(shape.k);
        const std::size_t xCount = static_cast<std::size_t>(shape.m) * static_cast<std::size_t>(shape.k);
        const std::size_t yCount = static_cast<std::size_t>(shape.m) * static_cast<std::size_t>(shape.n);
        auto decodeInput = [&](const DeviceBuffer& buffer, std::size_t count) {
            std::vector<float> out(count);
            if (fp4) {
                // Packed two a byte, value 2i in the low nibble; every block scale is 1.
                std::vector<std::uint8_t> raw((count + 1) / 2);
                check(cudaMemcpy(raw.data(), buffer.get(), raw.size(), cudaMemcpyDeviceToHost), "cudaMemcpy (input)");
                for (std::size_t i = 0; i < count; ++i)
                    out[i] = decodeE2M1(static_cast<std::uint8_t>(i % 2 == 0 ? raw[i / 2] & 0x0F : raw[i / 2] >> 4));
            } else if (precision == GemmPrecision::Fp8E4m3) {
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

}  // namespace fp8dash::gpu
