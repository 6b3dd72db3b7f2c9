#pragma once
// Datasheet peaks of the GPUs fp8dash knows: the roofs for the benchmarks' "% of peak" and the GPU presets of the
// capacity planner. Dense (non-sparse) tensor-core rates; NVIDIA's datasheets print "with sparsity", twice these.
// gpu/ is a leaf: plain C++, no Qt, no core. The table is constant data: every function here is thread-safe.

#include <optional>
#include <span>
#include <string_view>

namespace fp8dash::gpu {

struct PeakSpec {
    std::string_view key;            // preset name: "h100-sxm"
    std::string_view displayName;    // "NVIDIA H100 SXM"
    double fp8DenseTflops = 0;       // TFLOP/s (10^12 FLOP/s), dense FP8 (E4M3) tensor cores, FP32 accumulate
    double bf16DenseTflops = 0;      // TFLOP/s, dense BF16 tensor cores, FP32 accumulate
    double memoryBandwidthGBps = 0;  // GB/s (10^9 bytes/s), datasheet memory bandwidth
    double memoryGB = 0;             // GB (10^9 bytes) as the datasheet prints it; devices report a little more
    bool computeUnverified = false;  // the TFLOP/s could not be re-checked against a datasheet (conservative value)
    std::string_view source;         // the datasheet (or mirror) the figures come from
    // Keys added for the FP4 rungs (issue 41); 0 / false on the GPUs before Blackwell.
    double fp4DenseTflops = 0;    // TFLOP/s, dense FP4 (NVFP4 / MXFP4 E2M1, block-scaled) tensor cores
    bool fp4TensorCores = false;  // has FP4 tensor cores (Blackwell): NVFP4 runs natively, not a fallback kernel
    int computeMajor = 0;         // compute capability, e.g. 10.0 for B200, 12.0 for RTX 5090
    int computeMinor = 0;
};

// Every known GPU, in a stable order (Hopper, Ada, Blackwell, then the Blackwell GPUs added for FP4).
std::span<const PeakSpec> peakTable();

// By preset key ("h100-sxm"), or by the device name as CUDA reports it ("NVIDIA H100 80GB HBM3"), case-insensitive,
// with or without the "NVIDIA " prefix. nullopt for any other GPU: it is measured without a roof. Names are matched
// whole, so "NVIDIA L40" is not an L40S and "Quadro RTX 6000" is not an RTX 6000 Ada.
std::optional<PeakSpec> findPeakSpec(std::string_view nameOrKey);

// Whether a GPU has FP4 (E2M1 block-scaled: NVFP4, MXFP4) tensor cores: compute capability 10.x (B200, GB200, B300),
// 11.x (Thor) and 12.x (RTX 50xx, RTX PRO Blackwell, DGX Spark), i.e. major >= 10. Hopper (9.0) and Ada (8.9) have
// none: vLLM runs NVFP4 checkpoints there with a fallback kernel (weights dequantised, no FP4 tensor math).
bool hasFp4TensorCores(int computeMajor, int computeMinor);
// The same by preset key or CUDA device name (findPeakSpec's matching); false for a GPU the table does not know
// (findPeakSpec tells "unknown" from "no").
bool hasFp4TensorCores(std::string_view nameOrKey);

}  // namespace fp8dash::gpu
