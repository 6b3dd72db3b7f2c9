#include "fp8dash/gpu/device_query.h"

#ifdef FP8DASH_WITH_CUDA
#include "cuda_device_query.h"
#endif

namespace fp8dash::gpu {

const char* unavailableName(Unavailable u) {
    switch (u) {
        case Unavailable::None:
            return "none";
        case Unavailable::NotBuilt:
            return "not_built";
        case Unavailable::NoDriver:
            return "no_driver";
        case Unavailable::DriverTooOld:
            return "driver_too_old";
        case Unavailable::NoDevice:
            return "no_device";
        case Unavailable::Error:
            return "error";
    }
    return "error";  // out-of-range value cast into the enum
}

namespace {

// A build without the toolkit still answers, so callers never need to special-case it.
class CpuDeviceQuery final : public DeviceQuery {
public:
    DeviceReport query() override {
        DeviceReport report;
        report.backend = "cpu";
        report.unavailable = Unavailable::NotBuilt;
        report.reason =
            "this build of fp8dash has no CUDA support (the CUDA toolkit was not found when it was "
            "built); GPU benchmarks are unavailable, CPU paths still work";
        return report;
    }
};

}  // namespace

std::unique_ptr<DeviceQuery> makeCpuDeviceQuery() {
    return std::make_unique<CpuDeviceQuery>();
}

bool builtWithCuda() {
#ifdef FP8DASH_WITH_CUDA
    return true;
#else
    return false;
#endif
}

std::unique_ptr<DeviceQuery> makeDeviceQuery() {
#ifdef FP8DASH_WITH_CUDA
    return detail::makeCudaDeviceQuery();
#else
    return makeCpuDeviceQuery();
#endif
}

}  // namespace fp8dash::gpu
