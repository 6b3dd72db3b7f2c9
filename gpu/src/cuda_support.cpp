// The CUDA errors and owners (cuda_support.h).
#include "cuda_support.h"

#include <cstdio>

namespace fp8dash::gpu::detail {

std::string sizeText(std::uint64_t bytes) {
    char text[32];
    if (bytes >= (1ull << 30))
        std::snprintf(text, sizeof text, "%.2f GiB", static_cast<double>(bytes) / static_cast<double>(1ull << 30));
    else if (bytes >= (1ull << 20))
        std::snprintf(text, sizeof text, "%.1f MiB", static_cast<double>(bytes) / static_cast<double>(1ull << 20));
    else
        std::snprintf(text, sizeof text, "%llu bytes", static_cast<unsigned long long>(bytes));
    return text;
}

std::string cudaText(cudaError_t e) {
    return std::string(cudaGetErrorString(e)) + " (" + cudaGetErrorName(e) + ")";
}

void check(cudaError_t e, const char* what) {
    if (e != cudaSuccess) throw CudaFailure(std::string(what) + " failed: " + cudaText(e), e);
}

void checkLt(const CublasLtApi& lt, cublasStatus_t status, const char* what) {
    if (status != CUBLAS_STATUS_SUCCESS)
        throw LtFailure(std::string(what) + " failed: " + lt.statusText(status), status);
}

}  // namespace fp8dash::gpu::detail
