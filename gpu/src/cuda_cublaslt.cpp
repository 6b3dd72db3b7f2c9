// cuBLASLt loaded with dlopen (see cuda_cublaslt.h for why).
#include "cuda_cublaslt.h"

#include <dlfcn.h>

#include <vector>

namespace fp8dash::gpu::detail {
namespace {

#define FP8DASH_STRINGIFY_(x) #x
#define FP8DASH_STRINGIFY(x) FP8DASH_STRINGIFY_(x)

template <typename Fn>
bool resolve(void* library, const char* name, Fn& slot, std::string& error) {
    void* symbol = ::dlsym(library, name);
    if (!symbol) {
        error = std::string("the cuBLASLt library lacks ") + name;
        return false;
    }
    slot = reinterpret_cast<Fn>(symbol);
    return true;
}

CublasLtApi load() {
    CublasLtApi api;
    const std::string soname = "libcublasLt.so." FP8DASH_STRINGIFY(CUBLAS_VER_MAJOR);
    std::vector<std::string> candidates{soname};
#ifdef FP8DASH_CUDA_LIBRARY_DIR
    candidates.push_back(std::string(FP8DASH_CUDA_LIBRARY_DIR) + "/" + soname);
#endif
    void* library = nullptr;
    std::string tried;
    for (const std::string& candidate : candidates) {
        // RTLD_LOCAL: its symbols stay out of the global namespace; the handle lives for the process.
        library = ::dlopen(candidate.c_str(), RTLD_NOW | RTLD_LOCAL);
        if (library) {
            api.path = candidate;
            break;
        }
        const char* why = ::dlerror();
        tried += (tried.empty() ? "" : "; ") + (why ? std::string(why) : candidate + ": not found");
    }
    if (!library) {
        api.error = "cuBLASLt " FP8DASH_STRINGIFY(CUBLAS_VER_MAJOR) " (" + soname +
                    ", part of the CUDA toolkit or the nvidia-cublas package) could not be loaded: " + tried;
        return api;
    }
    std::string error;
    const bool ok = resolve(library, "cublasLtCreate", api.create, error) &&
                    resolve(library, "cublasLtDestroy", api.destroy, error) &&
                    resolve(library, "cublasLtGetVersion", api.getVersion, error) &&
                    resolve(library, "cublasLtGetStatusString", api.getStatusString, error) &&
                    resolve(library, "cublasLtMatmulDescCreate", api.matmulDescCreate, error) &&
                    resolve(library, "cublasLtMatmulDescDestroy", api.matmulDescDestroy, error) &&
                    resolve(library, "cublasLtMatmulDescSetAttribute", api.matmulDescSetAttribute, error) &&
                    resolve(library, "cublasLtMatrixLayoutCreate", api.matrixLayoutCreate, error) &&
                    resolve(library, "cublasLtMatrixLayoutDestroy", api.matrixLayoutDestroy, error) &&
                    resolve(library, "cublasLtMatmulPreferenceCreate", api.preferenceCreate, error) &&
                    resolve(library, "cublasLtMatmulPreferenceDestroy", api.preferenceDestroy, error) &&
                    resolve(library, "cublasLtMatmulPreferenceSetAttribute", api.preferenceSetAttribute, error) &&
                    resolve(library, "cublasLtMatmulAlgoGetHeuristic", api.algoGetHeuristic, error) &&
                    resolve(library, "cublasLtMatmul", api.matmul, error);
    if (!ok) {
        api.error = error + " (" + api.path + ")";
        return api;
    }
    // The ABI is stable within a major version only; the soname already pins it, this guards a renamed file.
    const std::size_t version = api.getVersion();
    if (version / 10000 != CUBLAS_VER_MAJOR) {
        api.error = api.path + " is cuBLASLt " + std::to_string(version) + ", but this build needs major version " +
                    FP8DASH_STRINGIFY(CUBLAS_VER_MAJOR);
        return api;
    }
    return api;
}

}  // namespace

std::string CublasLtApi::statusText(cublasStatus_t status) const {
    const char* name = getStatusString ? getStatusString(status) : nullptr;
    return std::string(name ? name : "cuBLAS status") + " (" + std::to_string(static_cast<int>(status)) + ")";
}

const CublasLtApi& cublasLt() {
    static const CublasLtApi api = load();  // C++11 magic static: loaded once, thread-safe
    return api;
}

}  // namespace fp8dash::gpu::detail
