#pragma once
// Internal to fp8dash_gpu (CUDA builds only): the CUDA implementation of BenchRunner, and hooks the GPU tests use to
// check its pieces against independent CPU computations.

#include "fp8dash/gpu/bench.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace fp8dash::gpu {

// runBench uses it only with a usable device and !request.cpuOnly; it still checks every CUDA call: a failure
// becomes a skipped case with the reason, a broken device context skips the rest. Never throws. Call it on one
// thread at a time (runBench's worker); it creates and destroys its stream, cuBLASLt handle and buffers per run.
std::unique_ptr<BenchRunner> makeCudaBenchRunner();

// ---- Test hooks ---------------------------------------------------------------------------------------------------

// One GEMM exactly as the benchmark sets it up (TN layout, FP32 compute, BF16 output, per-tensor scales for FP8),
// with the first heuristic algorithm that runs, on inputs from the benchmark's generators. Matrices come back
// decoded to float, row-major: x is m x k (activations), w is n x k (weights), y = scaleA scaleB x w^T is m x n.
// FP4 (NVFP4, MXFP4): every block scale is 1 and scaleA / scaleB are not used (y = x w^T of the decoded E2M1
// values); the error says kFp4NeedsTensorCores on a GPU without FP4 tensor cores.
struct GemmOnceOutput {
    std::string error;  // empty on success
    std::vector<float> x;
    std::vector<float> w;
    std::vector<float> y;
};
GemmOnceOutput runGemmOnce(int deviceIndex, const GemmShape& shape, GemmPrecision precision, bool fastAccum,
                           float scaleA, float scaleB, std::uint64_t seed);

// The error sweep's quantizer on the GPU (kv_quant.h KvQuantizer): same arguments, same codes as quantizeKv, bit for
// bit. Runs on the calling thread with device `deviceIndex`; throws std::invalid_argument for arguments quantizeKv
// rejects and std::runtime_error (naming the CUDA call) when the GPU fails.
KvQuantizer makeCudaKvQuantizer(int deviceIndex);

}  // namespace fp8dash::gpu
