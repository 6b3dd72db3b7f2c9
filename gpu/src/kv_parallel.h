#pragma once
// A minimal fork-join loop for the KV sweep's per-head work (private to fp8dash_gpu).

#include <functional>

namespace fp8dash::gpu::detail {

// Worker count for a request: 0 = all cores (std::thread::hardware_concurrency, at least 1).
int resolveThreads(int requested);

// Runs fn(i) for i in [0, count) on up to `threads` threads (0 = all cores; 1 = the caller's thread only). Each index
// runs exactly once; the first exception thrown is rethrown on the caller's thread after every worker has stopped.
void parallelFor(int count, int threads, const std::function<void(int)>& fn);

}  // namespace fp8dash::gpu::detail
