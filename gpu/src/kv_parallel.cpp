#include "kv_parallel.h"

#include <algorithm>
#include <atomic>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace fp8dash::gpu::detail {

int resolveThreads(int requested) {
    if (requested > 0) return requested;
    return std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
}

void parallelFor(int count, int threads, const std::function<void(int)>& fn) {
    if (count <= 0) return;
    const int workers = std::min(count, resolveThreads(threads));
    if (workers == 1) {
        for (int i = 0; i < count; ++i) fn(i);
        return;
    }
    std::atomic<int> next{0};
    std::atomic<bool> failed{false};
    std::exception_ptr error;
    std::mutex errorMutex;
    auto work = [&]() {
        for (int i = next++; i < count && !failed; i = next++) {
            try {
                fn(i);
            } catch (...) {
                const std::lock_guard lock(errorMutex);
                if (!error) error = std::current_exception();
                failed = true;
            }
        }
    };
    {
        std::vector<std::jthread> pool;
        pool.reserve(static_cast<std::size_t>(workers - 1));
        for (int w = 1; w < workers; ++w) pool.emplace_back(work);
        work();  // the caller's thread is one of the workers
    }            // jthreads join here
    if (error) std::rethrow_exception(error);
}

}  // namespace fp8dash::gpu::detail
