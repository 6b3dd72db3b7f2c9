#pragma once
// Internal to fp8dash_gpu (CUDA builds only): the device kernels of the microbenchmarks behind plain launch functions,
// so the host code (cuda_bench.cpp) is compiled by the C++ compiler with the project's warnings. Every function only
// enqueues work on `stream` and returns the launch error (cudaGetLastError right after the launch); none synchronises.
// Sizes are in elements unless named bytes; pointers are device pointers unless said otherwise.

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

namespace fp8dash::gpu::detail {

// Deterministic pseudo-random fills (a hash of seed and index, so any range of a buffer can be regenerated).
// BF16 values uniform in [-1, 1), rounded to nearest even.
cudaError_t fillBf16Uniform(std::uint16_t* out, std::size_t n, std::uint64_t seed, cudaStream_t stream);
// E4M3 codes whose value lies in [-1, 1]: magnitude codes 0x00..0x38 (0x38 = 1.0) with a random sign; never NaN.
cudaError_t fillE4m3Unit(std::uint8_t* out, std::size_t n, std::uint64_t seed, cudaStream_t stream);
// Random 32-bit words (bandwidth buffers).
cudaError_t fillWords(std::uint32_t* out, std::size_t n, std::uint64_t seed, cudaStream_t stream);
// A synthetic BF16 K/V cache: element i = BF16(u * gains[i / blockElements]), u uniform in [-1, 1); gains holds one
// float per (layer, head) block.
cudaError_t fillKvBf16(std::uint16_t* out, std::size_t n, std::size_t blockElements, const float* gains,
                       std::uint64_t seed, cudaStream_t stream);

// Memory bandwidth. `bytes` must be a positive multiple of 16 and the pointers 16-byte aligned (cudaMalloc's are).
// read: loads every byte with 16-byte loads and folds them into a sum the compiler cannot discard (written to *sink
// only when it equals a constant, so practically never).
cudaError_t launchReadKernel(const void* buffer, std::size_t bytes, std::uint32_t* sink, int grid, int block,
                             cudaStream_t stream);
cudaError_t launchCopyKernel(void* dst, const void* src, std::size_t bytes, int grid, int block, cudaStream_t stream);
// A grid that fills the device for the bandwidth kernels (occupancy x multiprocessors) with 256-thread blocks.
cudaError_t bandwidthLaunchShape(bool copy, int multiprocessors, int* grid, int* block);

// KV quantisation: out[i] = E4M3 satfinite round-to-nearest-even code of (x[i] / scales[i / blockElements]), the
// division in IEEE float (no fast-math), so the codes equal the CPU codec's (fp8_codec.h) bit for bit.
// From floats (the error sweep's cache as it is on the host):
cudaError_t quantizeFloatToE4m3(const float* in, std::uint8_t* out, std::size_t n, const float* scales,
                                std::size_t blockElements, cudaStream_t stream);
// From BF16 (the throughput kernel: 2 bytes in, 1 out); vectorised by 8 when n and blockElements allow it.
cudaError_t quantizeBf16ToE4m3(const std::uint16_t* in, std::uint8_t* out, std::size_t n, const float* scales,
                               std::size_t blockElements, cudaStream_t stream);

// Clock check, as nvbench does it: one thread per multiprocessor, and the one that runs on SM 0 records the global
// timer (ns) and SM 0's cycle counter. Two stamps around a sample give the effective SM clock over it.
struct ClockStamp {
    std::uint64_t globalNs;
    std::uint64_t smCycles;
    std::uint32_t written;  // 1 when some block ran on SM 0 (the scheduler does not promise it)
    std::uint32_t pad;
};
// `stamp` may point into mapped pinned host memory (cudaHostAllocMapped, device alias).
cudaError_t launchClockStamp(ClockStamp* stamp, int multiprocessors, cudaStream_t stream);

// Holds the stream until *release becomes non-zero (host-mapped memory written by the host), so that every launch
// of a sample is queued before the GPU reaches the first timing event and launch latency is not measured (nvbench's
// "blocking kernel"). Gives up after timeoutNs and sets *timedOut to 1, so a host that never releases cannot hang
// the device.
cudaError_t launchBlockingKernel(const volatile int* release, volatile int* timedOut, std::uint64_t timeoutNs,
                                 cudaStream_t stream);

}  // namespace fp8dash::gpu::detail
