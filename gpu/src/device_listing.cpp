// The device listing's rules (device_listing.h), apart from the CUDA calls.
#include "device_listing.h"

#include <utility>

namespace fp8dash::gpu::detail {
namespace {

// 12080 -> "12.8" (CUDA encodes versions as 1000 * major + 10 * minor).
std::string versionText(int version) {
    return std::to_string(version / 1000) + "." + std::to_string((version % 1000) / 10);
}

DeviceReport unavailable(DeviceReport report, Unavailable why, std::string reason) {
    report.unavailable = why;
    report.reason = std::move(reason);
    report.devices.clear();
    return report;
}

std::string plural(std::size_t n, const char* word) {
    return std::to_string(n) + " " + word + (n == 1 ? "" : "s");
}

}  // namespace

DeviceReport listDevices(DeviceApi& api) {
    DeviceReport report;
    report.backend = "cuda";

    // The runtime version is compiled in and needs no driver; record it first so every report carries it.
    if (std::string e = api.runtimeVersion(report.runtimeVersion); !e.empty())
        return unavailable(std::move(report), Unavailable::Error, std::move(e));
    if (std::string e = api.driverVersion(report.driverVersion); !e.empty())
        return unavailable(std::move(report), Unavailable::Error, std::move(e));
    if (report.driverVersion == 0)
        return unavailable(std::move(report), Unavailable::NoDriver,
                           "no NVIDIA driver is loaded (cudaDriverGetVersion reports 0)");

    int count = 0;
    std::string countError;
    switch (api.deviceCount(count, countError)) {
        case DeviceApi::Count::InsufficientDriver:
            return unavailable(std::move(report), Unavailable::DriverTooOld,
                               "the NVIDIA driver supports CUDA " + versionText(report.driverVersion) +
                                   " but this build uses the CUDA " + versionText(report.runtimeVersion) +
                                   " runtime; update the driver");
        case DeviceApi::Count::NoDevice:
            count = 0;
            break;
        case DeviceApi::Count::Error:
            return unavailable(std::move(report), Unavailable::Error, std::move(countError));
        case DeviceApi::Count::Ok:
            break;
    }
    if (count <= 0)
        return unavailable(
            std::move(report), Unavailable::NoDevice,
            "the NVIDIA driver (CUDA " + versionText(report.driverVersion) + ") is loaded but reports no CUDA device");

    std::string skipped;  // devices that could not be queried
    auto skip = [&skipped](int index, const std::string& why) {
        skipped += (skipped.empty() ? "" : "; ") + ("device " + std::to_string(index) + ": " + why);
    };
    for (int i = 0; i < count; ++i) {
        DeviceApi::Attributes a;
        if (std::string e = api.attributes(i, a); !e.empty()) {
            skip(i, e);
            continue;
        }
        std::uint64_t freeBytes = 0;
        if (std::string e = api.freeBytes(i, freeBytes); !e.empty()) {
            skip(i, e);
            continue;
        }
        DeviceInfo info;
        info.index = i;  // the CUDA ordinal, whatever was skipped before it
        info.name = a.name;
        info.computeMajor = a.major;
        info.computeMinor = a.minor;
        info.multiprocessors = a.multiprocessors;
        info.memoryTotalBytes = a.totalBytes;
        info.memoryFreeBytes = freeBytes;
        info.fp8Supported = supportsFp8(a.major, a.minor);
        report.devices.push_back(std::move(info));
    }
    if (report.devices.empty())
        return unavailable(std::move(report), Unavailable::Error, "no CUDA device could be queried: " + skipped);
    report.unavailable = Unavailable::None;
    report.reason = skipped;
    return report;
}

const DeviceInfo* findDevice(const DeviceReport& report, int cudaIndex) {
    for (const DeviceInfo& d : report.devices) {
        if (d.index == cudaIndex) return &d;
    }
    return nullptr;
}

std::string cpuRunnerReason(const BenchRequest& request, const DeviceReport& report) {
    if (!report.hasUsableDevice()) {
        const std::string why =
            report.reason.empty() ? std::string(unavailableName(report.unavailable)) : report.reason;
        return "no usable GPU: " + why;
    }
    if (request.cpuOnly) return "--cpu: the CPU implementation was asked for; this part needs the GPU";
    return "the CPU implementation does not run this part (it needs the GPU)";
}

DeviceChoice chooseBenchDevice(const BenchRequest& request, const DeviceReport& report, bool cudaBuilt) {
    DeviceChoice choice;
    if (request.cpuOnly || !cudaBuilt || !report.hasUsableDevice()) {
        choice.cpuReason = cpuRunnerReason(request, report);
        return choice;
    }
    const DeviceInfo* device = findDevice(report, request.deviceIndex);
    if (!device) {
        std::string present;
        for (const DeviceInfo& d : report.devices) present += (present.empty() ? "" : ", ") + std::to_string(d.index);
        choice.cpuReason = "no usable GPU: device index " + std::to_string(request.deviceIndex) + " is not present (" +
                           plural(report.devices.size(), "usable device") + ": " + present +
                           (report.reason.empty() ? "" : "; " + report.reason) + ")";
        return choice;
    }
    if (!device->fp8Supported) {
        const std::string sm = std::to_string(device->computeMajor) + std::to_string(device->computeMinor);
        choice.cpuReason = "no usable GPU: " + device->name + " (device " + std::to_string(device->index) + ", sm_" +
                           sm + ") has no FP8 tensor cores (sm_" + sm +
                           "); the GPU benchmarks need compute capability 8.9 or newer (Ada, Hopper, Blackwell)";
        return choice;
    }
    choice.device = *device;
    return choice;
}

std::string noPeakWarning(const std::string& deviceName) {
    std::string lower;
    for (const char c : deviceName) lower += (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
    if (lower.find(" mig ") != std::string::npos || lower.ends_with(" mig"))
        return deviceName + " is a MIG instance: the datasheet roof is the whole GPU's, not this slice's: no % of peak";
    for (const char* part : {"h100 nvl", "h200 nvl", "h800", "gh200"}) {
        if (lower.find(part) != std::string::npos)
            return "no verified datasheet roof for " + deviceName +
                   " (its peak figures are unknown to fp8dash, not guessed): no % of peak";
    }
    return "no datasheet roof for " + deviceName + ": no % of peak";
}

}  // namespace fp8dash::gpu::detail
