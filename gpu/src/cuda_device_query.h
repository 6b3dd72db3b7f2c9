#pragma once
// Internal to fp8dash_gpu: the CUDA implementation's factory, compiled only when FP8DASH_WITH_CUDA is set.

#include "fp8dash/gpu/device_query.h"

#include <memory>

namespace fp8dash::gpu::detail {

std::unique_ptr<DeviceQuery> makeCudaDeviceQuery();

}  // namespace fp8dash::gpu::detail
