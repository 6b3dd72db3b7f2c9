#pragma once
// Internal to fp8dash_gpu: the device listing's rules in plain C++, apart from the CUDA calls, so tests can drive them
// with a fake runtime (several GPUs, one that cannot be queried, an old driver) on a machine without a GPU.
//
// The rules:
// - List devices by their attributes only. Since CUDA 12 cudaSetDevice (and cudaMemGetInfo) create a primary context
//   (~0.5 GiB of the GPU's memory each); the listing must not put one on every GPU of the machine. Free memory comes
//   from NVML, which needs no context; only where NVML is missing does the listing fall back to the runtime.
// - A device keeps its CUDA ordinal (DeviceInfo::index) even when another device before it is skipped: positions in
//   DeviceReport::devices and CUDA ordinals are not the same thing. Look devices up with findDevice.
// - The process lists its devices once and keeps the answer (DeviceReportCache): the set of devices the CUDA runtime
//   sees cannot change while a process runs (it enumerates them once, at initialisation).

#include "fp8dash/gpu/bench.h"
#include "fp8dash/gpu/device_query.h"

#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <string>

namespace fp8dash::gpu::detail {

// What the listing asks of the CUDA runtime (cuda_device_query.cpp) or of a fake (tests).
class DeviceApi {
public:
    enum class Count { Ok, InsufficientDriver, NoDevice, Error };
    struct Attributes {
        std::string name;
        int major = 0;
        int minor = 0;
        int multiprocessors = 0;
        std::uint64_t totalBytes = 0;
    };

    virtual ~DeviceApi() = default;
    // Each returns "" on success, else the failed call and its error in words.
    virtual std::string runtimeVersion(int& version) = 0;
    virtual std::string driverVersion(int& version) = 0;
    virtual Count deviceCount(int& count, std::string& error) = 0;
    virtual std::string attributes(int index, Attributes& out) = 0;  // must not create a context
    virtual std::string freeBytes(int index, std::uint64_t& out) = 0;
};

// The report of everything the runtime says, by the rules above. Never throws except std::bad_alloc.
DeviceReport listDevices(DeviceApi& api);

// The device with CUDA ordinal `cudaIndex`, or nullptr (not by position in report.devices).
const DeviceInfo* findDevice(const DeviceReport& report, int cudaIndex);

// Which device a benchmark request runs on, or why it runs on the CPU instead. `cudaBuilt`: this build has the CUDA
// runner. A device below compute capability 8.9 is refused here, up front: the kernels are built for sm_89 and newer
// (every kernel launch would fail with "no kernel image") and it has no FP8 tensor cores.
struct DeviceChoice {
    std::optional<DeviceInfo> device;  // set when the GPU runner runs
    std::string cpuReason;             // set otherwise: why the GPU parts do not run, in words
};
DeviceChoice chooseBenchDevice(const BenchRequest& request, const DeviceReport& report, bool cudaBuilt);
// Why the CPU implementation runs the GPU parts' place with this report (no usable GPU, --cpu, or the CPU runner).
std::string cpuRunnerReason(const BenchRequest& request, const DeviceReport& report);

// The warning for a GPU without a datasheet roof (findPeakSpec finds none), in words. A MIG instance is a slice of a
// GPU (its name ends "MIG 1g.18gb" and the like): the whole GPU's datasheet is not its roof. H100 NVL, H200 NVL, H800
// and GH200 are FP8 parts whose figures the project's sourced notes (shared/notes/gpu-facts.md §3.1) do not verify:
// unknown rather than guessed, so no % of peak.
std::string noPeakWarning(const std::string& deviceName);

// Runs `list` on the first get() and returns its answer from then on. Thread-safe.
class DeviceReportCache {
public:
    explicit DeviceReportCache(std::function<DeviceReport()> list) : m_list(std::move(list)) {}
    DeviceReport get() {
        std::call_once(m_once, [this] { m_report = m_list(); });
        return m_report;
    }

private:
    std::function<DeviceReport()> m_list;
    std::once_flag m_once;
    DeviceReport m_report;
};

}  // namespace fp8dash::gpu::detail
