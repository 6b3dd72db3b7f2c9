// The device's properties for the sampler (cuda_sampler.h).
#include "cuda_sampler.h"

namespace fp8dash::gpu::detail {

DeviceProps deviceProps(int index) {
    cudaDeviceProp props{};
    check(cudaGetDeviceProperties(&props, index), "cudaGetDeviceProperties");
    DeviceProps out;
    out.index = index;
    out.name = props.name;
    out.multiprocessors = std::max(1, props.multiProcessorCount);
    out.l2Bytes = std::max(0, props.l2CacheSize);
    out.major = props.major;
    out.minor = props.minor;
    check(cudaDeviceGetAttribute(&out.clockKHz, cudaDevAttrClockRate, index), "cudaDeviceGetAttribute(ClockRate)");
    return out;
}

}  // namespace fp8dash::gpu::detail
