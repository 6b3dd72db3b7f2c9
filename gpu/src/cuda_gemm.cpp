// One cuBLASLt GEMM as the benchmark runs it (cuda_gemm.h).
#include "cuda_gemm.h"

#include "cuda_kernels.h"

#include <library_types.h>

#include <algorithm>
#include <cstring>

// Block-scaled FP4 (CUDA_R_4F_E2M1, CUBLASLT_MATMUL_MATRIX_SCALE_VEC16_UE4M3 / VEC32_UE8M0) is in cuBLAS 12.8 and
// newer headers.
#if defined(CUBLAS_VER_MAJOR) && (CUBLAS_VER_MAJOR * 100 + CUBLAS_VER_MINOR >= 1208)
#define FP8DASH_CUBLASLT_HAS_FP4 1
#else
#define FP8DASH_CUBLASLT_HAS_FP4 0
#endif

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
    if (gemmIsFp4(precision)) {
        // Two values a byte: K a multiple of 32 keeps each operand's leading dimension 16-byte aligned and every row
        // whole blocks of 16 (NVFP4) or 32 (MXFP4) values.
        if (shape.k % 32 != 0)
            return "FP4 GEMM needs K to be a multiple of 32 (16-byte aligned rows of packed E2M1 values, whole scale "
                   "blocks); " +
                   shapeText(shape) + " is not";
        if (shape.n % 8 != 0)
            return "FP4 GEMM needs N to be a multiple of 8 (16-byte aligned leading dimension of the BF16 output); " +
                   shapeText(shape) + " is not";
    }
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
                   bool fastAccum, const void* deviceScaleA, const void* deviceScaleB)
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
    cudaDataType input = fp8 ? CUDA_R_8F_E4M3 : CUDA_R_16BF;
    if (gemmIsFp4(precision)) {
#if FP8DASH_CUBLASLT_HAS_FP4
        // NVIDIA's LtNvfp4Matmul sample (CUDALibrarySamples, cuBLASLt): the scale modes, then the block-scale arrays
        // as the A/B scale pointers; the per-tensor scales of NVFP4 would go in alpha (1 here: unit block scales).
        const cublasLtMatmulMatrixScale_t mode = precision == GemmPrecision::Nvfp4
                                                     ? CUBLASLT_MATMUL_MATRIX_SCALE_VEC16_UE4M3
                                                     : CUBLASLT_MATMUL_MATRIX_SCALE_VEC32_UE8M0;
        setAttribute(CUBLASLT_MATMUL_DESC_A_SCALE_MODE, &mode, sizeof mode, "A_SCALE_MODE");
        setAttribute(CUBLASLT_MATMUL_DESC_B_SCALE_MODE, &mode, sizeof mode, "B_SCALE_MODE");
        setAttribute(CUBLASLT_MATMUL_DESC_A_SCALE_POINTER, &deviceScaleA, sizeof deviceScaleA, "A_SCALE_POINTER");
        setAttribute(CUBLASLT_MATMUL_DESC_B_SCALE_POINTER, &deviceScaleB, sizeof deviceScaleB, "B_SCALE_POINTER");
        input = CUDA_R_4F_E2M1;
#else
        throw LtFailure("FP4 GEMM: fp8dash was built with a CUDA toolkit older than 12.8 (no CUDA_R_4F_E2M1)",
                        CUBLAS_STATUS_NOT_SUPPORTED);
#endif
    }
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
    if (gemmIsFp4(precision)) {
        // Any byte is two valid E2M1 codes (the format has no NaN): the E4M3 generator's bytes serve; every block
        // scale is 1 (E4M3 0x38, UE8M0 127), so the product is that of the decoded E2M1 values.
        check(fillE4m3Unit(operands.w.as<std::uint8_t>(), (wCount + 1) / 2, seed, stream), "fill kernel launch");
        check(fillE4m3Unit(operands.x.as<std::uint8_t>(), (xCount + 1) / 2, seed + 1, stream), "fill kernel launch");
        const int one = precision == GemmPrecision::Nvfp4 ? 0x38 : 127;
        check(cudaMemsetAsync(operands.wScales.get(), one, gemmBlockScaleBytes(precision, shape.n, shape.k), stream),
              "cudaMemsetAsync (weight scales)");
        check(cudaMemsetAsync(operands.xScales.get(), one, gemmBlockScaleBytes(precision, shape.m, shape.k), stream),
              "cudaMemsetAsync (activation scales)");
    } else if (precision == GemmPrecision::Fp8E4m3) {
        check(fillE4m3Unit(operands.w.as<std::uint8_t>(), wCount, seed, stream), "fill kernel launch");
        check(fillE4m3Unit(operands.x.as<std::uint8_t>(), xCount, seed + 1, stream), "fill kernel launch");
    } else {
        check(fillBf16Uniform(operands.w.as<std::uint16_t>(), wCount, seed, stream), "fill kernel launch");
        check(fillBf16Uniform(operands.x.as<std::uint16_t>(), xCount, seed + 1, stream), "fill kernel launch");
    }
}

std::string fp4GemmUnavailable(const CublasLtApi& lt) {
#if FP8DASH_CUBLASLT_HAS_FP4
    // Block-scaled FP4 arrived in cuBLAS 12.8 (CUDA 12.8); the version reads major x 10000 + minor x 100 + patch.
    const std::size_t version = lt.getVersion ? lt.getVersion() : 0;
    if (version < 120800)
        return "FP4 GEMM needs cuBLASLt 12.8 or newer; the loaded " + lt.path + " is version " +
               std::to_string(version);
    return {};
#else
    (void)lt;
    return "FP4 GEMM: fp8dash was built with a CUDA toolkit older than 12.8 (no block-scaled FP4 in its cuBLASLt)";
#endif
}

float bf16ToFloat(std::uint16_t bits) {
    const std::uint32_t word = static_cast<std::uint32_t>(bits) << 16;
    float value;
    std::memcpy(&value, &word, sizeof value);
    return value;
}

}  // namespace fp8dash::gpu::detail
