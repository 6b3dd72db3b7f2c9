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
};

// Every known GPU, in a stable order (Hopper, Ada, Blackwell).
std::span<const PeakSpec> peakTable();

// By preset key ("h100-sxm"), or by the device name as CUDA reports it ("NVIDIA H100 80GB HBM3"), case-insensitive,
// with or without the "NVIDIA " prefix. nullopt for any other GPU: it is measured without a roof. Names are matched
// whole, so "NVIDIA L40" is not an L40S and "Quadro RTX 6000" is not an RTX 6000 Ada.
std::optional<PeakSpec> findPeakSpec(std::string_view nameOrKey);

}  // namespace fp8dash::gpu
