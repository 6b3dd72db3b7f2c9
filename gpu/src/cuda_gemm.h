#pragma once
// Internal to fp8dash_gpu (CUDA builds only): one cuBLASLt GEMM as the benchmark runs it: the shape rules, the plan
// (descriptors, each in its own owner), the operands and their generators.

#include "cuda_support.h"
#include "fp8dash/gpu/bench.h"

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace fp8dash::gpu::detail {

inline constexpr std::size_t kGemmWorkspaceBytes = 32ull << 20;  // cuBLAS's recommendation for Hopper; plenty for Ada
inline constexpr int kGemmHeuristics = 8;                        // candidates ranked per case

std::string shapeText(const GemmShape& shape);  // "qkv M=64 N=6144 K=4096"
std::string caseText(const GemmShape& shape, GemmPrecision precision, bool fastAccum);
// Why cuBLASLt cannot run this shape, or "" (cuBLAS docs, cublasLtMatmul: FP8 needs 16-byte aligned leading
// dimensions; the TN layout makes K the leading dimension of both FP8 operands and N that of the BF16 output).
std::string shapeProblem(const GemmShape& shape, GemmPrecision precision);

// One matmul's descriptors. Row-major Y[m x n] = X[m x k] . W[n x k]^T is asked of column-major cuBLASLt as
// Y^T (n x m) = op(A) . op(B) with A = W stored k x n (lda = k), transa = T, and B = X stored k x m (ldb = k),
// transb = N; D (= C, beta 0) is BF16 n x m with ldd = n. Both operands are K-major: the "TN" layout that FP8 on Ada
// and Hopper requires, used for BF16 too so both precisions run the same problem.
class GemmPlan {
public:
    // Throws LtFailure naming the call that failed; the descriptors created before it are destroyed.
    // deviceScaleA/B: FP8, one float each (the per-tensor scales); FP4, the operands' block scales (E4M3 for NVFP4,
    // UE8M0 for MXFP4, gemmBlockScaleBytes each, in cuBLASLt's tiled layout); unused for BF16.
    GemmPlan(const CublasLtApi& lt, cublasLtHandle_t handle, const GemmShape& shape, GemmPrecision precision,
             bool fastAccum, const void* deviceScaleA, const void* deviceScaleB);

    // The heuristic's candidates that fit the workspace, best first.
    std::vector<cublasLtMatmulAlgo_t> candidates(std::size_t workspaceBytes, int count) const;

    cublasStatus_t run(const cublasLtMatmulAlgo_t& algo, const void* a, const void* b, void* d, void* workspace,
                       std::size_t workspaceBytes, cudaStream_t stream) const;

private:
    void setAttribute(cublasLtMatmulDescAttributes_t attribute, const void* value, std::size_t size, const char* name);

    const CublasLtApi& m_lt;
    cublasLtHandle_t m_handle;
    LtMatmulDesc m_op;
    LtMatrixLayout m_a;
    LtMatrixLayout m_b;
    LtMatrixLayout m_d;
};

// Device memory of one shape, sized for BF16 (the larger input), reused by every precision of the shape; the FP4
// block scales sized for NVFP4 (16-value blocks: more scales than MXFP4's 32), allocated only when asked for.
struct GemmOperands {
    DeviceBuffer w;        // A: weights, n x k
    DeviceBuffer x;        // B: activations, m x k
    DeviceBuffer y;        // D: m x n, BF16
    DeviceBuffer wScales;  // FP4 block scales of A
    DeviceBuffer xScales;  // FP4 block scales of B

    GemmOperands(const GemmShape& shape, const std::string& what, bool fp4 = false)
        : w(static_cast<std::size_t>(shape.n) * static_cast<std::size_t>(shape.k) * 2, what + " weights"),
          x(static_cast<std::size_t>(shape.m) * static_cast<std::size_t>(shape.k) * 2, what + " activations"),
          y(static_cast<std::size_t>(shape.m) * static_cast<std::size_t>(shape.n) * 2, what + " output") {
        if (!fp4) return;
        wScales = DeviceBuffer(gemmBlockScaleBytes(GemmPrecision::Nvfp4, shape.n, shape.k), what + " weight scales");
        xScales =
            DeviceBuffer(gemmBlockScaleBytes(GemmPrecision::Nvfp4, shape.m, shape.k), what + " activation scales");
    }
};

// Whether the toolkit fp8dash was built with (cuBLAS 12.8 or newer) and the loaded cuBLASLt can run FP4 GEMMs: ""
// when they can, else why not.
std::string fp4GemmUnavailable(const CublasLtApi& lt);

void fillGemmInputs(const GemmOperands& operands, const GemmShape& shape, GemmPrecision precision, std::uint64_t seed,
                    cudaStream_t stream);

float bf16ToFloat(std::uint16_t bits);

}  // namespace fp8dash::gpu::detail
