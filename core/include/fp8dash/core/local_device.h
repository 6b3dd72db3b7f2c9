#pragma once
// The local GPU as core sees it (ui never includes gpu/ headers; it gets these core types). Thread-safe.

#include <cstdint>
#include <string>
#include <vector>

namespace fp8dash {

struct LocalGpu {
    std::string name;
    int computeMajor = 0;
    int computeMinor = 0;
    int multiprocessors = 0;
    std::uint64_t memoryTotalBytes = 0;
    std::uint64_t memoryFreeBytes = 0;
    bool fp8Supported = false;
};

struct LocalDeviceStatus {
    std::string backend;          // "cuda" or "cpu"
    bool available = false;       // a usable GPU is present
    std::string unavailableCode;  // "not_built", "no_driver", "driver_too_old", "no_device", "error"; "" when available
    std::string reason;           // in words
    int driverVersion = 0;
    int runtimeVersion = 0;
    std::vector<LocalGpu> gpus;

    std::string summary() const;  // one line: "NVIDIA H200 (sm_90, 140.4 GiB, FP8 yes)", or "no GPU: <reason>"
};

LocalDeviceStatus queryLocalDevices();

}  // namespace fp8dash
