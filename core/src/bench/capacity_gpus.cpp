// The capacity planner's GPU presets: gpu/'s datasheet peak table (bandwidth, tensor rates, the datasheet memory
// label) with the memory the device reports, which is what vLLM sizes from (README "Capacity and the plan"), and a few
// GPUs seen in real vLLM start-up logs that have no roof in gpu/'s table (memory only, no decode estimate).
#include "fp8dash/core/capacity.h"

#include "fp8dash/gpu/peak_table.h"
#include "text_util.h"

#include <algorithm>
#include <cmath>

namespace fp8dash {
namespace {

constexpr double kBytesPerGiB = 1073741824.0;

// What cudaMemGetInfo / torch report as total memory, per GPU, with where the figure was seen. vLLM prints it
// rounded to 0.01 GiB ("total_memory=79.19GiB"), so a preset is exact to about 5 MiB.
struct DeviceMemory {
    std::string_view key;
    double gib;
    std::string_view source;
};
constexpr DeviceMemory kDeviceMemory[] = {
    {"h100-sxm", 79.19,
     "vLLM 0.19.0 start-up logs on NVIDIA H100 80GB HBM3 (llm-d-planner PR #205): total_memory=79.19GiB"},
    {"h100-pcie", 79.19, "PyTorch on an H100 PCIe reports 79.19 GiB, as the SXM part (public training report)"},
    {"h200", 139.81, "PyTorch on H200: \"a total capacity of 139.81 GiB\" (public out-of-memory reports)"},
    {"l40s", 44.39, "PyTorch on L40S: 44.39 GiB usable (public reports)"},
    {"rtx-4090", 23.5, "issue 17: vLLM sizes an RTX 4090 from 23.5 GiB (to 0.1 GiB; RTX 3090 logs show 23.58)"},
    {"rtx-6000-ada", 47.5,
     "estimate: 49,140 MiB less the ~0.45 GiB the driver keeps (as on H100 and RTX 3090); no log seen"},
    {"b200", 178.35, "PyTorch on B200: 178.34-178.36 GiB (public reports)"},
    {"rtx-pro-6000", 101976440832.0 / kBytesPerGiB,
     "vLLM 0.28.0 run metadata on an RTX PRO 6000 Blackwell Server Edition (casys-kaist/LLMServingSim): "
     "device_total_memory_bytes 101976440832"},
    {"rtx-5090", 31.4,
     "mmapeak on an RTX 5090 (main-horse.github.io/posts/5090-mm-perf): \"Total global memory: 31.4 GiB\" (to 0.1 "
     "GiB)"},
};

// GPUs of the fixture logs outside gpu/'s table: their memory as the logs show it, no datasheet roofs.
struct MemoryOnlyPreset {
    std::string_view key;
    std::string_view displayName;
    double datasheetGB;
    double gib;
    bool fp8TensorCores;
    std::string_view source;
    std::string_view alias1, alias2;  // CUDA device names, lower case without "nvidia "
};
constexpr MemoryOnlyPreset kMemoryOnly[] = {
    {"a100-80gb", "NVIDIA A100 80GB", 80, 79.28, false,
     "derived from two vLLM 0.10.1.1 logs on one A100 80GB (dennislee22/vLLM-benchmarking): (24.83 - 5.01 GiB) / "
     "(0.50 - 0.25)",
     "a100-sxm4-80gb", "a100 80gb pcie"},
    {"rtx-3090", "NVIDIA GeForce RTX 3090", 24, 23.58, false,
     "vLLM issue #10517 start-up log: total_gpu_memory=23.58GiB", "geforce rtx 3090", "rtx 3090"},
    {"rtx-4080", "NVIDIA GeForce RTX 4080", 16, 15.99, true,
     "vLLM 0.26.0 log analysed in akiyax/kvcache-lab: 15.99 GiB (16,376 MiB)", "geforce rtx 4080", "rtx 4080"},
};

std::string presetNameKey(std::string_view s) {
    std::string n = text::lower(text::trim(s));
    if (n.rfind("nvidia ", 0) == 0) n.erase(0, 7);
    std::replace(n.begin(), n.end(), '_', '-');
    return n;
}

GpuSpec specFromPeak(const gpu::PeakSpec& p) {
    GpuSpec g;
    g.name = std::string(p.key);
    g.displayName = std::string(p.displayName);
    g.source = "preset";
    g.datasheetMemoryGB = p.memoryGB;
    g.memoryBytes = static_cast<std::uint64_t>(std::llround(p.memoryGB * 1e9));
    g.memorySource = "datasheet label (no device-reported figure known)";
    for (const DeviceMemory& d : kDeviceMemory)
        if (d.key == p.key) {
            g.memoryBytes = static_cast<std::uint64_t>(std::llround(d.gib * kBytesPerGiB));
            g.memorySource = std::string(d.source);
        }
    g.bandwidthBytesPerS = p.memoryBandwidthGBps * 1e9;
    g.fp8DenseTflops = p.fp8DenseTflops;
    g.bf16DenseTflops = p.bf16DenseTflops;
    g.fp8TensorCores = true;  // every GPU of the table is Ada, Hopper or Blackwell
    g.fp4TensorCores = p.fp4TensorCores;
    if (p.fp4DenseTflops > 0) g.fp4DenseTflops = p.fp4DenseTflops;
    return g;
}

GpuSpec specFromMemoryOnly(const MemoryOnlyPreset& p) {
    GpuSpec g;
    g.name = std::string(p.key);
    g.displayName = std::string(p.displayName);
    g.source = "preset";
    g.datasheetMemoryGB = p.datasheetGB;
    g.memoryBytes = static_cast<std::uint64_t>(std::llround(p.gib * kBytesPerGiB));
    g.memorySource = std::string(p.source);
    g.fp8TensorCores = p.fp8TensorCores;
    return g;
}

}  // namespace

std::vector<std::string> gpuPresetNames() {
    std::vector<std::string> names;
    for (const auto& p : gpu::peakTable()) names.emplace_back(p.key);
    for (const auto& p : kMemoryOnly) names.emplace_back(p.key);
    return names;
}

std::string gpuPresetNamesText() {
    std::string out;
    for (const auto& n : gpuPresetNames()) out += (out.empty() ? "" : ", ") + n;
    return out;
}

std::optional<GpuSpec> findGpuPreset(std::string_view nameOrDevice) {
    if (const auto p = gpu::findPeakSpec(nameOrDevice)) return specFromPeak(*p);
    const std::string n = presetNameKey(nameOrDevice);
    if (n.empty()) return std::nullopt;
    for (const MemoryOnlyPreset& p : kMemoryOnly)
        if (n == p.key || n == presetNameKey(p.displayName) || n == p.alias1 || n == p.alias2)
            return specFromMemoryOnly(p);
    return std::nullopt;
}

Result<GpuSpec> gpuFromLocalDevices(const LocalDeviceStatus& status, int count) {
    if (!status.available || status.gpus.empty())
        return Error{"no usable GPU on this machine: " +
                     (status.reason.empty() ? std::string("unknown reason") : status.reason)};
    if (count < 1 || static_cast<std::size_t>(count) > status.gpus.size())
        return Error{"--gpus " + std::to_string(count) + " asks for more GPUs than this machine has (" +
                     std::to_string(status.gpus.size()) + ")"};
    const LocalGpu& first = status.gpus.front();
    GpuSpec g;
    if (const auto p = gpu::findPeakSpec(first.name)) g = specFromPeak(*p);
    g.name = first.name;
    g.displayName = first.name;
    g.source = "local";
    g.memoryBytes = first.memoryFreeBytes;
    g.memorySource = "this machine: the free memory of the fullest GPU of the group";
    g.fp8TensorCores = true;
    g.fp4TensorCores = true;
    for (int i = 0; i < count; ++i) {
        const LocalGpu& gpu = status.gpus[static_cast<std::size_t>(i)];
        g.memoryBytes = std::min(g.memoryBytes, gpu.memoryFreeBytes);
        g.fp8TensorCores = g.fp8TensorCores && gpu.fp8Supported;
        g.fp4TensorCores = g.fp4TensorCores && gpu::hasFp4TensorCores(gpu.computeMajor, gpu.computeMinor);
    }
    return g;
}

}  // namespace fp8dash
