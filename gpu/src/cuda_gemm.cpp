// One cuBLASLt GEMM as the benchmark runs it (cuda_gemm.h).
#include "cuda_gemm.h"

#include "cuda_kernels.h"

#include <library_types.h>

#include <algorithm>
#include <cstring>

namespace fp8dash::gpu::detail {

std::string shapeText(const GemmShape& shape) {
    return (shape.layer.empty() ? std::string("GEMM") : shape.layer) + " M=" + std::to_string(shape.m) +
           " N=" + std::to_string(shape.n) + " K=" + std::to_string(shape.k);
}

std::string caseText(const GemmShape& shape, GemmPrecision precision, bool fastAccum) {
    return "GEMM " + shapeText(shape) + " " + gemmPrecisionName(precision) + (fastAccum ? " (fast accumulation)" : "");
}

std::string shapeProblem(const GemmShape& shape, GemmPrecision precision) {
    if (shape.m < 1 || shape.n < 1 || shape.k < 1)
        return "invalid shape " + shapeText(shape) + ": every dimension must be positive";
    if (precision == GemmPrecision::Fp8E4m3) {
        if (shape.k % 16 != 0)
            return "FP8 GEMM needs K to be a multiple of 16 (16-byte aligned leading dimension of the E4M3 "
                   "operands); " +
                   shapeText(shape) + " is not";
        if (shape.n % 8 != 0)
            return "FP8 GEMM needs N to be a multiple of 8 (16-byte aligned leading dimension of the BF16 output); " +
                   shapeText(shape) + " is not";
    }
    return {};
}

GemmPlan::GemmPlan(const CublasLtApi& lt, cublasLtHandle_t handle, const GemmShape& shape, GemmPrecision precision,
                   bool fastAccum, const float* deviceScaleA, const float* deviceScaleB)
    : m_lt(lt), m_handle(handle), m_op(lt), m_a(lt), m_b(lt), m_d(lt) {
    checkLt(lt, lt.matmulDescCreate(m_op.out(), CUBLAS_COMPUTE_32F, CUDA_R_32F), "cublasLtMatmulDescCreate");
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
    checkLt(lt, lt.matrixLayoutCreate(m_a.out(), input, k, n, ldInput), "cublasLtMatrixLayoutCreate(A)");
    checkLt(lt, lt.matrixLayoutCreate(m_b.out(), input, k, m, ldInput), "cublasLtMatrixLayoutCreate(B)");
    checkLt(lt, lt.matrixLayoutCreate(m_d.out(), CUDA_R_16BF, n, m, static_cast<std::int64_t>(n)),
            "cublasLtMatrixLayoutCreate(D)");
}

std::vector<cublasLtMatmulAlgo_t> GemmPlan::candidates(std::size_t workspaceBytes, int count) const {
    LtPreference preference(m_lt);
    checkLt(m_lt, m_lt.preferenceCreate(preference.out()), "cublasLtMatmulPreferenceCreate");
    const std::uint64_t maxWorkspace = workspaceBytes;
    checkLt(m_lt,
            m_lt.preferenceSetAttribute(preference.get(), CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &maxWorkspace,
                                        sizeof maxWorkspace),
            "cublasLtMatmulPreferenceSetAttribute(MAX_WORKSPACE_BYTES)");
    std::vector<cublasLtMatmulHeuristicResult_t> results(static_cast<std::size_t>(count));
    int returned = 0;
    checkLt(m_lt,
            m_lt.algoGetHeuristic(m_handle, m_op.get(), m_a.get(), m_b.get(), m_d.get(), m_d.get(), preference.get(),
                                  count, results.data(), &returned),
            "cublasLtMatmulAlgoGetHeuristic");
    std::vector<cublasLtMatmulAlgo_t> algos;
    for (int i = 0; i < std::min(returned, count); ++i) {
        const auto& r = results[static_cast<std::size_t>(i)];
        if (r.state == CUBLAS_STATUS_SUCCESS && r.workspaceSize <= workspaceBytes) algos.push_back(r.algo);
    }
    return algos;
}

cublasStatus_t GemmPlan::run(const cublasLtMatmulAlgo_t& algo, const void* a, const void* b, void* d, void* workspace,
                             std::size_t workspaceBytes, cudaStream_t stream) const {
    const float alpha = 1.0f;
    const float beta = 0.0f;
    return m_lt.matmul(m_handle, m_op.get(), &alpha, a, m_a.get(), b, m_b.get(), &beta, d, m_d.get(), d, m_d.get(),
                       &algo, workspace, workspaceBytes, stream);
}

void GemmPlan::setAttribute(cublasLtMatmulDescAttributes_t attribute, const void* value, std::size_t size,
                            const char* name) {
    const cublasStatus_t status = m_lt.matmulDescSetAttribute(m_op.get(), attribute, value, size);
    if (status != CUBLAS_STATUS_SUCCESS)
        throw LtFailure(std::string("cublasLtMatmulDescSetAttribute(") + name + ") failed: " + m_lt.statusText(status),
                        status);
}

void fillGemmInputs(const GemmOperands& operands, const GemmShape& shape, GemmPrecision precision, std::uint64_t seed,
                    cudaStream_t stream) {
    const std::size_t wCount = static_cast<std::size_t>(shape.n) * static_cast<std::size_t>(shape.k);
    const std::size_t xCount = static_cast<std::size_t>(shape.m) * static_cast<std::size_t>(shape.k);
    if (precision == GemmPrecision::Fp8E4m3) {
        check(fillE4m3Unit(operands.w.as<std::uint8_t>(), wCount, seed, stream), "fill kernel launch");
        check(fillE4m3Unit(operands.x.as<std::uint8_t>(), xCount, seed + 1, stream), "fill kernel launch");
    } else {
        check(fillBf16Uniform(operands.w.as<std::uint16_t>(), wCount, seed, stream), "fill kernel launch");
        check(fillBf16Uniform(operands.x.as<std::uint16_t>(), xCount, seed + 1, stream), "fill kernel launch");
    }
}

float bf16ToFloat(std::uint16_t bits) {
    const std::uint32_t word = static_cast<std::uint32_t>(bits) << 16;
    float value;
    std::memcpy(&value, &word, sizeof value);
    return value;
}

}  // namespace fp8dash::gpu::detail
