#include "fp8dash/core/local_device.h"

#include "fp8dash/gpu/device_query.h"

#include <cstdio>

namespace fp8dash {

namespace {

// "NVIDIA H200 (sm_90, 140.4 GiB, FP8 yes)": memory in binary GiB, the unit nvidia-smi's MiB figures scale to.
std::string describe(const LocalGpu& gpu) {
    char memory[32];
    std::snprintf(memory, sizeof memory, "%.1f",
                  static_cast<double>(gpu.memoryTotalBytes) / (1024.0 * 1024.0 * 1024.0));
    return gpu.name + " (sm_" + std::to_string(gpu.computeMajor) + std::to_string(gpu.computeMinor) + ", " + memory +
           " GiB, FP8 " + (gpu.fp8Supported ? "yes" : "no") + ")";
}

}  // namespace

std::string LocalDeviceStatus::summary() const {
    if (!available || gpus.empty()) return "no GPU: " + (reason.empty() ? std::string("unknown reason") : reason);
    std::string line;
    for (const LocalGpu& gpu : gpus) {
        if (!line.empty()) line += "; ";
        line += describe(gpu);
    }
    return line;
}

LocalDeviceStatus queryLocalDevices() {
    // A DeviceQuery of its own per call (instances are not shared between threads); the CUDA one answers from the
    // process's one device listing, so repeated calls create no CUDA context and cost nothing.
    const gpu::DeviceReport report = gpu::makeDeviceQuery()->query();

    LocalDeviceStatus status;
    status.backend = report.backend;
    status.available = report.hasUsableDevice();
    status.unavailableCode = status.available ? std::string() : gpu::unavailableName(report.unavailable);
    status.reason = report.reason;
    status.driverVersion = report.driverVersion;
    status.runtimeVersion = report.runtimeVersion;
    status.gpus.reserve(report.devices.size());
    for (const gpu::DeviceInfo& d : report.devices) {
        status.gpus.push_back(LocalGpu{d.name, d.computeMajor, d.computeMinor, d.multiprocessors, d.memoryTotalBytes,
                                       d.memoryFreeBytes, d.fp8Supported});
    }
    return status;
}

}  // namespace fp8dash
