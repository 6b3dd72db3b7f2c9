// DeviceQuery without a usable GPU: the CPU implementation, the FP8 rule, the names, and the CUDA implementation on a
// machine with no NVIDIA driver (skipped where a driver is present).
#include "fp8dash/gpu/device_query.h"

#include <gtest/gtest.h>

#include <dlfcn.h>

#include <string>

namespace fp8dash::gpu {
namespace {

// Independent of the code under test: the CUDA runtime finds the driver by loading libcuda.so.1.
bool driverLibraryLoadable() {
    void* handle = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_LOCAL);
    if (handle) dlclose(handle);
    return handle != nullptr;
}

TEST(CpuDeviceQuery, ReportsNotBuiltWithAReasonAndNoDevices) {
    const DeviceReport report = makeCpuDeviceQuery()->query();
    EXPECT_EQ(report.backend, "cpu");
    EXPECT_EQ(report.unavailable, Unavailable::NotBuilt);
    EXPECT_TRUE(report.devices.empty());
    EXPECT_FALSE(report.hasUsableDevice());
    EXPECT_NE(report.reason.find("no CUDA support"), std::string::npos) << report.reason;
    EXPECT_EQ(report.driverVersion, 0);
    EXPECT_EQ(report.runtimeVersion, 0);
}

TEST(CpuDeviceQuery, RepeatedQueriesAgree) {
    auto query = makeCpuDeviceQuery();
    const DeviceReport first = query->query();
    const DeviceReport second = query->query();
    EXPECT_EQ(first.unavailable, second.unavailable);
    EXPECT_EQ(first.reason, second.reason);
}

TEST(SupportsFp8, NeedsComputeCapability89OrNewer) {
    EXPECT_FALSE(supportsFp8(7, 5));  // Turing
    EXPECT_FALSE(supportsFp8(8, 0));  // A100
    EXPECT_FALSE(supportsFp8(8, 6));  // Ampere consumer
    EXPECT_FALSE(supportsFp8(8, 8));
    EXPECT_TRUE(supportsFp8(8, 9));   // Ada: RTX 4090, L40S
    EXPECT_TRUE(supportsFp8(9, 0));   // Hopper: H100, H200
    EXPECT_TRUE(supportsFp8(10, 0));  // Blackwell
    EXPECT_TRUE(supportsFp8(12, 0));
}

TEST(UnavailableName, NamesEveryValueDistinctly) {
    EXPECT_STREQ(unavailableName(Unavailable::None), "none");
    EXPECT_STREQ(unavailableName(Unavailable::NotBuilt), "not_built");
    EXPECT_STREQ(unavailableName(Unavailable::NoDriver), "no_driver");
    EXPECT_STREQ(unavailableName(Unavailable::DriverTooOld), "driver_too_old");
    EXPECT_STREQ(unavailableName(Unavailable::NoDevice), "no_device");
    EXPECT_STREQ(unavailableName(Unavailable::Error), "error");
    EXPECT_STREQ(unavailableName(static_cast<Unavailable>(99)), "error");
}

TEST(DeviceQueryFactory, MatchesTheBuild) {
    auto query = makeDeviceQuery();
    ASSERT_NE(query, nullptr);
    const DeviceReport report = query->query();
    if (builtWithCuda()) {
        EXPECT_EQ(report.backend, "cuda");
        EXPECT_GT(report.runtimeVersion, 0);
        EXPECT_NE(report.unavailable, Unavailable::NotBuilt);
    } else {
        EXPECT_EQ(report.backend, "cpu");
        EXPECT_EQ(report.unavailable, Unavailable::NotBuilt);
    }
}

// Whatever this machine has, the report is self-consistent.
TEST(DeviceQueryFactory, ReportIsConsistent) {
    const DeviceReport report = makeDeviceQuery()->query();
    if (report.unavailable == Unavailable::None) {
        EXPECT_FALSE(report.devices.empty());
        for (const DeviceInfo& d : report.devices) {
            EXPECT_EQ(d.fp8Supported, supportsFp8(d.computeMajor, d.computeMinor)) << d.name;
            EXPECT_LE(d.memoryFreeBytes, d.memoryTotalBytes) << d.name;
        }
    } else {
        EXPECT_TRUE(report.devices.empty());
        EXPECT_FALSE(report.reason.empty());
        EXPECT_FALSE(report.hasUsableDevice());
    }
}

TEST(CudaDeviceQuery, ReportsNoDriverWhereNoneIsInstalled) {
    if (!builtWithCuda()) GTEST_SKIP() << "this build has no CUDA implementation (configured without the CUDA toolkit)";
    if (driverLibraryLoadable())
        GTEST_SKIP() << "an NVIDIA driver (libcuda.so.1) is installed here; the no-driver path cannot be observed";

    auto query = makeDeviceQuery();
    const DeviceReport report = query->query();
    EXPECT_EQ(report.backend, "cuda");
    EXPECT_EQ(report.unavailable, Unavailable::NoDriver)
        << unavailableName(report.unavailable) << ": " << report.reason;
    EXPECT_EQ(report.driverVersion, 0);
    EXPECT_GE(report.runtimeVersion, 11000);  // 1000 * major + 10 * minor, and the project needs CUDA >= 11.8
    EXPECT_EQ(report.reason, "no NVIDIA driver is loaded (cudaDriverGetVersion reports 0)");
    EXPECT_TRUE(report.devices.empty());
    EXPECT_FALSE(report.hasUsableDevice());

    // No sticky runtime state: asking again gives the same answer.
    const DeviceReport again = query->query();
    EXPECT_EQ(again.unavailable, Unavailable::NoDriver);
    EXPECT_EQ(again.runtimeVersion, report.runtimeVersion);
}

}  // namespace
}  // namespace fp8dash::gpu
