#pragma once
// What GPU this machine has for the FP8 microbenchmarks, behind one interface: the CUDA implementation when the
// toolkit was found at build time, else the CPU implementation that says why there is no device.
// gpu/ is a leaf: plain C++, no Qt, no core. Instances are not shared between threads; create one per thread.

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace fp8dash::gpu {

// Why there is no usable GPU (None when there is one).
enum class Unavailable {
    None,          // at least one device is usable
    NotBuilt,      // this build has no CUDA implementation (toolkit not found at build time)
    NoDriver,      // no NVIDIA driver: cudaDriverGetVersion reports 0
    DriverTooOld,  // the driver is older than the CUDA runtime this build uses
    NoDevice,      // a driver, but no CUDA device
    Error,         // another CUDA error; see reason
};

struct DeviceInfo {
    int index = 0;
    std::string name;      // "NVIDIA H200"
    int computeMajor = 0;  // 9 for Hopper, 8 (minor 9) for Ada
    int computeMinor = 0;
    int multiprocessors = 0;
    std::uint64_t memoryTotalBytes = 0;  // bytes, as the device reports them
    std::uint64_t memoryFreeBytes = 0;   // bytes free when queried (other processes' use included)
    bool fp8Supported = false;           // compute capability >= 8.9 (Ada, Hopper and newer)
};

struct DeviceReport {
    std::string backend;  // "cuda" or "cpu"
    Unavailable unavailable = Unavailable::NotBuilt;
    std::string reason;      // in words, for the user; when devices are usable, empty unless some were skipped
    int driverVersion = 0;   // CUDA driver API version (e.g. 12080), 0 when none
    int runtimeVersion = 0;  // CUDA runtime version this build uses, 0 for the CPU backend
    std::vector<DeviceInfo> devices;

    bool hasUsableDevice() const { return unavailable == Unavailable::None && !devices.empty(); }
};

const char* unavailableName(Unavailable u);  // "none", "not_built", "no_driver", "driver_too_old", "no_device", "error"

class DeviceQuery {
public:
    virtual ~DeviceQuery() = default;
    virtual DeviceReport query() = 0;  // never throws; never crashes without a driver
};

// The factory always succeeds: the CUDA implementation when built with CUDA, else the CPU one.
std::unique_ptr<DeviceQuery> makeDeviceQuery();
// Always the CPU implementation (tests, and "--cpu" paths).
std::unique_ptr<DeviceQuery> makeCpuDeviceQuery();

// True when this build contains the CUDA implementation.
bool builtWithCuda();

// fp8 support rule, shared by both implementations: compute capability >= 8.9.
inline bool supportsFp8(int major, int minor) {
    return major > 8 || (major == 8 && minor >= 9);
}

}  // namespace fp8dash::gpu
