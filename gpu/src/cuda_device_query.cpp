// The CUDA implementation of DeviceQuery. Host code only (runtime API), so the C++ compiler builds it; the runtime
// is linked statically and loads libcuda itself, which is why a machine without a driver gets an answer, not a crash.
#include "cuda_device_query.h"

#include <cuda_runtime_api.h>

#include <cstddef>
#include <exception>
#include <string>
#include <utility>

namespace fp8dash::gpu::detail {
namespace {

// 12080 -> "12.8" (CUDA encodes versions as 1000 * major + 10 * minor).
std::string versionText(int version)
{
    return std::to_string(version / 1000) + "." + std::to_string((version % 1000) / 10);
}

// Describes a failed call and clears the runtime's last-error slot, so a later, unrelated call is not blamed.
std::string failure(const char* call, cudaError_t error)
{
    cudaGetLastError();
    return std::string(call) + " failed: " + cudaGetErrorString(error) + " (" + cudaGetErrorName(error) + ")";
}

DeviceReport unavailable(DeviceReport report, Unavailable why, std::string reason)
{
    report.unavailable = why;
    report.reason = std::move(reason);
    report.devices.clear();
    return report;
}

class CudaDeviceQuery final : public DeviceQuery {
public:
    DeviceReport query() override
    {
        // The interface promises no exceptions; only allocation can throw here.
        try {
            return queryDevices();
        } catch (const std::exception& e) {
            return failedReport(std::string("device query failed: ") + e.what());
        } catch (...) {
            return failedReport("device query failed with an unknown exception");
        }
    }

private:
    static DeviceReport failedReport(std::string reason)
    {
        DeviceReport report;
        report.backend = "cuda";
        report.unavailable = Unavailable::Error;
        report.reason = std::move(reason);
        return report;
    }

    static DeviceReport queryDevices()
    {
        DeviceReport report;
        report.backend = "cuda";

        // The runtime version is compiled in and needs no driver; record it first so every report carries it.
        if (const cudaError_t e = cudaRuntimeGetVersion(&report.runtimeVersion); e != cudaSuccess)
            return unavailable(std::move(report), Unavailable::Error, failure("cudaRuntimeGetVersion", e));
        if (const cudaError_t e = cudaDriverGetVersion(&report.driverVersion); e != cudaSuccess)
            return unavailable(std::move(report), Unavailable::Error, failure("cudaDriverGetVersion", e));
        if (report.driverVersion == 0)
            return unavailable(std::move(report), Unavailable::NoDriver,
                               "no NVIDIA driver is loaded (cudaDriverGetVersion reports 0)");

        int count = 0;
        const cudaError_t countError = cudaGetDeviceCount(&count);
        if (countError == cudaErrorInsufficientDriver) {
            cudaGetLastError();
            return unavailable(std::move(report), Unavailable::DriverTooOld,
                               "the NVIDIA driver supports CUDA " + versionText(report.driverVersion) +
                                   " but this build uses the CUDA " + versionText(report.runtimeVersion) +
                                   " runtime; update the driver");
        }
        if (countError == cudaErrorNoDevice || (countError == cudaSuccess && count == 0)) {
            cudaGetLastError();
            return unavailable(std::move(report), Unavailable::NoDevice,
                               "the NVIDIA driver (CUDA " + versionText(report.driverVersion) +
                                   ") is loaded but reports no CUDA device");
        }
        if (countError != cudaSuccess)
            return unavailable(std::move(report), Unavailable::Error, failure("cudaGetDeviceCount", countError));

        // cudaSetDevice changes the calling thread's current device; put it back so callers see no side effect.
        int previous = -1;
        if (const cudaError_t e = cudaGetDevice(&previous); e != cudaSuccess) {
            cudaGetLastError();
            previous = -1;
        }

        std::string skipped;  // devices that could not be queried (e.g. busy in exclusive-process mode)
        auto skip = [&skipped](int index, const std::string& why) {
            skipped += (skipped.empty() ? "" : "; ") + ("device " + std::to_string(index) + ": " + why);
        };
        for (int i = 0; i < count; ++i) {
            cudaDeviceProp props{};
            if (const cudaError_t e = cudaGetDeviceProperties(&props, i); e != cudaSuccess) {
                skip(i, failure("cudaGetDeviceProperties", e));
                continue;
            }
            if (const cudaError_t e = cudaSetDevice(i); e != cudaSuccess) {
                skip(i, failure("cudaSetDevice", e));
                continue;
            }
            std::size_t freeBytes = 0;
            std::size_t totalBytes = 0;
            if (const cudaError_t e = cudaMemGetInfo(&freeBytes, &totalBytes); e != cudaSuccess) {
                skip(i, failure("cudaMemGetInfo", e));
                continue;
            }
            DeviceInfo info;
            info.index = i;
            info.name = props.name;
            info.computeMajor = props.major;
            info.computeMinor = props.minor;
            info.multiprocessors = props.multiProcessorCount;
            info.memoryTotalBytes = props.totalGlobalMem;
            info.memoryFreeBytes = freeBytes;
            info.fp8Supported = supportsFp8(props.major, props.minor);
            report.devices.push_back(std::move(info));
        }
        if (previous >= 0 && cudaSetDevice(previous) != cudaSuccess)
            cudaGetLastError();

        if (report.devices.empty())
            return unavailable(std::move(report), Unavailable::Error, "no CUDA device could be queried: " + skipped);
        report.unavailable = Unavailable::None;
        report.reason = skipped;
        return report;
    }
};

}  // namespace

std::unique_ptr<DeviceQuery> makeCudaDeviceQuery()
{
    return std::make_unique<CudaDeviceQuery>();
}

}  // namespace fp8dash::gpu::detail
