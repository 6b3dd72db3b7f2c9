// DeviceQuery on a real GPU (label `gpu`): skips with the reason where no device is usable.
#include "fp8dash/gpu/device_query.h"

#include <gtest/gtest.h>

namespace fp8dash::gpu {
namespace {

TEST(CudaDeviceQueryOnDevice, ReportsEveryDeviceSanely) {
    if (!builtWithCuda()) GTEST_SKIP() << "this build has no CUDA implementation (configured without the CUDA toolkit)";
    const DeviceReport report = makeDeviceQuery()->query();
    if (!report.hasUsableDevice())
        GTEST_SKIP() << "no usable GPU (" << unavailableName(report.unavailable) << "): " << report.reason;

    EXPECT_EQ(report.backend, "cuda");
    EXPECT_GT(report.driverVersion, 0);
    EXPECT_GT(report.runtimeVersion, 0);
    int previousIndex = -1;
    for (const DeviceInfo& d : report.devices) {
        SCOPED_TRACE(d.name);
        EXPECT_GT(d.index, previousIndex);  // ascending, each device once
        previousIndex = d.index;
        EXPECT_FALSE(d.name.empty());
        EXPECT_GE(d.computeMajor, 5);  // CUDA 12+ supports nothing older than Maxwell
        EXPECT_GT(d.multiprocessors, 0);
        EXPECT_GT(d.memoryTotalBytes, 0u);
        EXPECT_GT(d.memoryFreeBytes, 0u);
        EXPECT_LE(d.memoryFreeBytes, d.memoryTotalBytes);
        EXPECT_EQ(d.fp8Supported, supportsFp8(d.computeMajor, d.computeMinor));
    }
}

TEST(CudaDeviceQueryOnDevice, RepeatedQueriesAgree) {
    if (!builtWithCuda()) GTEST_SKIP() << "this build has no CUDA implementation (configured without the CUDA toolkit)";
    auto query = makeDeviceQuery();
    const DeviceReport first = query->query();
    if (!first.hasUsableDevice())
        GTEST_SKIP() << "no usable GPU (" << unavailableName(first.unavailable) << "): " << first.reason;
    const DeviceReport second = query->query();
    ASSERT_EQ(second.devices.size(), first.devices.size());
    for (std::size_t i = 0; i < first.devices.size(); ++i) {
        EXPECT_EQ(second.devices[i].name, first.devices[i].name);
        EXPECT_EQ(second.devices[i].memoryTotalBytes, first.devices[i].memoryTotalBytes);
    }
}

}  // namespace
}  // namespace fp8dash::gpu
