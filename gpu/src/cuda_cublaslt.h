#pragma once
// Internal to fp8dash_gpu (CUDA builds only): cuBLASLt, loaded at run time with dlopen.
//
// Why not link it: the static archive is not in every toolkit (this one ships only libcublasLt.so) and would add
// hundreds of MB to every executable that links fp8dash_gpu; the shared library would make the whole application
// (GUI and CLI included) fail to start on a machine without the CUDA toolkit, although only the GEMM benchmark needs
// it. Loaded on demand, a missing library only skips the GEMM rows, with the reason.

#include <cublasLt.h>

#include <string>

namespace fp8dash::gpu::detail {

// The entry points fp8dash uses, typed from the toolkit's own declarations.
struct CublasLtApi {
    decltype(&::cublasLtCreate) create = nullptr;
    decltype(&::cublasLtDestroy) destroy = nullptr;
    decltype(&::cublasLtGetVersion) getVersion = nullptr;
    decltype(&::cublasLtGetStatusString) getStatusString = nullptr;
    decltype(&::cublasLtMatmulDescCreate) matmulDescCreate = nullptr;
    decltype(&::cublasLtMatmulDescDestroy) matmulDescDestroy = nullptr;
    decltype(&::cublasLtMatmulDescSetAttribute) matmulDescSetAttribute = nullptr;
    decltype(&::cublasLtMatrixLayoutCreate) matrixLayoutCreate = nullptr;
    decltype(&::cublasLtMatrixLayoutDestroy) matrixLayoutDestroy = nullptr;
    decltype(&::cublasLtMatmulPreferenceCreate) preferenceCreate = nullptr;
    decltype(&::cublasLtMatmulPreferenceDestroy) preferenceDestroy = nullptr;
    decltype(&::cublasLtMatmulPreferenceSetAttribute) preferenceSetAttribute = nullptr;
    decltype(&::cublasLtMatmulAlgoGetHeuristic) algoGetHeuristic = nullptr;
    decltype(&::cublasLtMatmul) matmul = nullptr;

    std::string path;   // the library that was loaded
    std::string error;  // why it could not be loaded; empty when loaded

    bool loaded() const { return error.empty(); }
    // "CUBLAS_STATUS_NOT_SUPPORTED" and the like, with the number.
    std::string statusText(cublasStatus_t status) const;
};

// Loads once per process (thread-safe) and returns the same object afterwards; never throws. Looks for the
// library of the major version the headers describe (libcublasLt.so.<major>) on the loader's path, then in the
// toolkit's library folder found at build time.
const CublasLtApi& cublasLt();

}  // namespace fp8dash::gpu::detail
