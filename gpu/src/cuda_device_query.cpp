// The CUDA implementation of DeviceQuery: the runtime calls behind device_listing.h's DeviceApi, and the process's one
// listing. Host code only (runtime API), so the C++ compiler builds it; the runtime is linked statically and loads
// libcuda itself, which is why a machine without a driver gets an answer, not a crash.
//
// No CUDA context is created here: device attributes need none, and free memory comes from NVML (libnvidia-ml, part
// of every NVIDIA driver, loaded with dlopen so the build needs no NVML header or library). Only where NVML cannot be
// loaded does free memory come from cudaMemGetInfo, which creates the device's primary context.
#include "cuda_device_query.h"

#include "device_listing.h"

#include <cuda_runtime_api.h>
#include <dlfcn.h>

#include <cstddef>
#include <exception>
#include <string>
#include <utility>

namespace fp8dash::gpu::detail {
namespace {

// Describes a failed call and clears the runtime's last-error slot, so a later, unrelated call is not blamed.
std::string failure(const char* call, cudaError_t error) {
    cudaGetLastError();
    return std::string(call) + " failed: " + cudaGetErrorString(error) + " (" + cudaGetErrorName(error) + ")";
}

// The four NVML entry points the listing needs, by their stable C ABI (nvml.h: nvmlReturn_t is an enum, 0 = success;
// nvmlMemory_t is {total, free, used} in bytes; nvmlDevice_t is an opaque pointer).
class Nvml {
public:
    Nvml() {
        m_library = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
        if (!m_library) return;
        m_init = reinterpret_cast<InitFn>(dlsym(m_library, "nvmlInit_v2"));
        m_shutdown = reinterpret_cast<ShutdownFn>(dlsym(m_library, "nvmlShutdown"));
        m_byBusId = reinterpret_cast<ByBusIdFn>(dlsym(m_library, "nvmlDeviceGetHandleByPciBusId_v2"));
        m_memory = reinterpret_cast<MemoryFn>(dlsym(m_library, "nvmlDeviceGetMemoryInfo"));
        m_ready = m_init && m_shutdown && m_byBusId && m_memory && m_init() == 0;
    }
    ~Nvml() {
        if (m_ready) m_shutdown();
        if (m_library) dlclose(m_library);
    }
    Nvml(const Nvml&) = delete;
    Nvml& operator=(const Nvml&) = delete;

    // Free bytes of the device at this PCI bus id, or false.
    bool freeBytes(const char* busId, std::uint64_t& out) const {
        if (!m_ready) return false;
        void* device = nullptr;
        Memory memory{};
        if (m_byBusId(busId, &device) != 0 || m_memory(device, &memory) != 0) return false;
        out = memory.free;
        return true;
    }

private:
    struct Memory {
        unsigned long long total;
        unsigned long long free;
        unsigned long long used;
    };
    using InitFn = int (*)();
    using ShutdownFn = int (*)();
    using ByBusIdFn = int (*)(const char*, void**);
    using MemoryFn = int (*)(void*, Memory*);

    void* m_library = nullptr;
    InitFn m_init = nullptr;
    ShutdownFn m_shutdown = nullptr;
    ByBusIdFn m_byBusId = nullptr;
    MemoryFn m_memory = nullptr;
    bool m_ready = false;
};

class CudaDeviceApi final : public DeviceApi {
public:
    std::string runtimeVersion(int& version) override {
        const cudaError_t e = cudaRuntimeGetVersion(&version);
        return e == cudaSuccess ? std::string() : failure("cudaRuntimeGetVersion", e);
    }

    std::string driverVersion(int& version) override {
        const cudaError_t e = cudaDriverGetVersion(&version);
        return e == cudaSuccess ? std::string() : failure("cudaDriverGetVersion", e);
    }

    Count deviceCount(int& count, std::string& error) override {
        const cudaError_t e = cudaGetDeviceCount(&count);
        if (e == cudaSuccess) return Count::Ok;
        error = failure("cudaGetDeviceCount", e);
        if (e == cudaErrorInsufficientDriver) return Count::InsufficientDriver;
        return e == cudaErrorNoDevice ? Count::NoDevice : Count::Error;
    }

    // cudaGetDeviceProperties reads attributes; since CUDA 12 it creates no context (cudaSetDevice would).
    std::string attributes(int index, Attributes& out) override {
        cudaDeviceProp props{};
        if (const cudaError_t e = cudaGetDeviceProperties(&props, index); e != cudaSuccess)
            return failure("cudaGetDeviceProperties", e);
        out.name = props.name;
        out.major = props.major;
        out.minor = props.minor;
        out.multiprocessors = props.multiProcessorCount;
        out.totalBytes = props.totalGlobalMem;
        return {};
    }

    std::string freeBytes(int index, std::uint64_t& out) override {
        char busId[32] = {};
        if (cudaDeviceGetPCIBusId(busId, sizeof busId, index) == cudaSuccess && m_nvml.freeBytes(busId, out)) return {};
        cudaGetLastError();
        return freeBytesFromContext(index, out);
    }

private:
    // The fallback: the device's primary context (cudaSetDevice), the calling thread's device put back after.
    static std::string freeBytesFromContext(int index, std::uint64_t& out) {
        int previous = -1;
        if (cudaGetDevice(&previous) != cudaSuccess) {
            cudaGetLastError();
            previous = -1;
        }
        std::string error;
        std::size_t freeBytes = 0;
        std::size_t totalBytes = 0;
        if (const cudaError_t e = cudaSetDevice(index); e != cudaSuccess)
            error = failure("cudaSetDevice", e);
        else if (const cudaError_t m = cudaMemGetInfo(&freeBytes, &totalBytes); m != cudaSuccess)
            error = failure("cudaMemGetInfo", m);
        out = freeBytes;
        if (previous >= 0 && previous != index && cudaSetDevice(previous) != cudaSuccess) cudaGetLastError();
        return error;
    }

    Nvml m_nvml;
};

DeviceReport failedReport(std::string reason) {
    DeviceReport report;
    report.backend = "cuda";
    report.unavailable = Unavailable::Error;
    report.reason = std::move(reason);
    return report;
}

DeviceReport listCudaDevices() {
    // The interface promises no exceptions; only allocation can throw here.
    try {
        CudaDeviceApi api;
        return listDevices(api);
    } catch (const std::exception& e) {
        return failedReport(std::string("device query failed: ") + e.what());
    } catch (...) {
        return failedReport("device query failed with an unknown exception");
    }
}

class CudaDeviceQuery final : public DeviceQuery {
public:
    // The process's one listing (device_listing.h says why once is enough).
    DeviceReport query() override {
        static DeviceReportCache cache(listCudaDevices);
        return cache.get();
    }
};

}  // namespace

std::unique_ptr<DeviceQuery> makeCudaDeviceQuery() {
    return std::make_unique<CudaDeviceQuery>();
}

}  // namespace fp8dash::gpu::detail
