// The device listing's rules (gpu/src/device_listing.h) through a fake CUDA runtime: several GPUs with one that cannot
// be queried, old and missing drivers, the choice of the benchmark's device by CUDA ordinal, GPUs without FP8, the
// once-per-process listing and the warnings for GPUs without a datasheet roof. No GPU needed.
#include "device_listing.h"

#include <gtest/gtest.h>

#include <atomic>
#include <map>
#include <string>
#include <thread>
#include <vector>

namespace fp8dash::gpu::detail {
namespace {

// A machine as the runtime would describe it. A device listed in `broken` fails its attribute query (busy in
// exclusive-process mode, for example); one in `noFree` fails the free-memory query.
class FakeApi final : public DeviceApi {
public:
    int driver = 13000;
    int runtime = 13000;
    Count countStatus = Count::Ok;
    std::vector<Attributes> devices;
    std::map<int, std::string> broken;
    std::map<int, std::string> noFree;
    std::map<int, std::uint64_t> free;
    int attributeCalls = 0;

    std::string runtimeVersion(int& version) override {
        version = runtime;
        return {};
    }
    std::string driverVersion(int& version) override {
        version = driver;
        return {};
    }
    Count deviceCount(int& count, std::string& error) override {
        count = static_cast<int>(devices.size());
        if (countStatus == Count::Error)
            error = "cudaGetDeviceCount failed: initialization error (cudaErrorInitializationError)";
        return countStatus;
    }
    std::string attributes(int index, Attributes& out) override {
        ++attributeCalls;
        if (auto it = broken.find(index); it != broken.end()) return it->second;
        out = devices.at(static_cast<std::size_t>(index));
        return {};
    }
    std::string freeBytes(int index, std::uint64_t& out) override {
        if (auto it = noFree.find(index); it != noFree.end()) return it->second;
        out = free.count(index) ? free[index] : 1000;
        return {};
    }
};

DeviceApi::Attributes gpu(const std::string& name, int major, int minor, std::uint64_t total = 2000) {
    DeviceApi::Attributes a;
    a.name = name;
    a.major = major;
    a.minor = minor;
    a.multiprocessors = 132;
    a.totalBytes = total;
    return a;
}

// Three H200-class GPUs where the middle one is busy: the listing keeps devices 0 and 2 under their own ordinals.
FakeApi threeGpusMiddleBusy() {
    FakeApi api;
    api.devices = {gpu("GPU zero", 9, 0), gpu("GPU one", 9, 0), gpu("GPU two", 8, 9)};
    api.broken[1] = "cudaGetDeviceProperties failed: device busy (cudaErrorDevicesUnavailable)";
    api.free[2] = 777;
    return api;
}

TEST(DeviceListing, KeepsCudaOrdinalsWhenADeviceBeforeIsSkipped) {
    FakeApi api = threeGpusMiddleBusy();
    const DeviceReport report = listDevices(api);
    ASSERT_TRUE(report.hasUsableDevice()) << report.reason;
    ASSERT_EQ(report.devices.size(), 2u);
    EXPECT_EQ(report.devices[0].index, 0);
    EXPECT_EQ(report.devices[0].name, "GPU zero");
    EXPECT_EQ(report.devices[1].index, 2);
    EXPECT_EQ(report.devices[1].name, "GPU two");
    EXPECT_EQ(report.devices[1].memoryFreeBytes, 777u);
    EXPECT_EQ(report.devices[1].memoryTotalBytes, 2000u);
    EXPECT_TRUE(report.devices[1].fp8Supported);  // 8.9
    EXPECT_EQ(report.reason, "device 1: cudaGetDeviceProperties failed: device busy (cudaErrorDevicesUnavailable)");
}

TEST(DeviceListing, ADeviceWithoutFreeMemoryIsSkippedWithTheReason) {
    FakeApi api;
    api.devices = {gpu("A", 9, 0), gpu("B", 9, 0)};
    api.noFree[0] = "cudaMemGetInfo failed: out of memory (cudaErrorMemoryAllocation)";
    const DeviceReport report = listDevices(api);
    ASSERT_EQ(report.devices.size(), 1u);
    EXPECT_EQ(report.devices[0].index, 1);
    EXPECT_EQ(report.reason, "device 0: cudaMemGetInfo failed: out of memory (cudaErrorMemoryAllocation)");
}

TEST(DeviceListing, NoDeviceQueryableIsAnErrorNamingEach) {
    FakeApi api;
    api.devices = {gpu("A", 9, 0), gpu("B", 9, 0)};
    api.broken[0] = "x failed";
    api.broken[1] = "y failed";
    const DeviceReport report = listDevices(api);
    EXPECT_EQ(report.unavailable, Unavailable::Error);
    EXPECT_TRUE(report.devices.empty());
    EXPECT_EQ(report.reason, "no CUDA device could be queried: device 0: x failed; device 1: y failed");
}

TEST(DeviceListing, DriverStatesAreToldApart) {
    FakeApi none;
    none.driver = 0;
    EXPECT_EQ(listDevices(none).unavailable, Unavailable::NoDriver);
    EXPECT_EQ(none.attributeCalls, 0);

    FakeApi old;
    old.driver = 12080;
    old.countStatus = DeviceApi::Count::InsufficientDriver;
    const DeviceReport tooOld = listDevices(old);
    EXPECT_EQ(tooOld.unavailable, Unavailable::DriverTooOld);
    EXPECT_EQ(tooOld.reason,
              "the NVIDIA driver supports CUDA 12.8 but this build uses the CUDA 13.0 runtime; update the driver");
    EXPECT_EQ(tooOld.driverVersion, 12080);
    EXPECT_EQ(tooOld.runtimeVersion, 13000);

    FakeApi empty;
    EXPECT_EQ(listDevices(empty).unavailable, Unavailable::NoDevice);

    FakeApi failing;
    failing.devices = {gpu("A", 9, 0)};
    failing.countStatus = DeviceApi::Count::Error;
    const DeviceReport failed = listDevices(failing);
    EXPECT_EQ(failed.unavailable, Unavailable::Error);
    EXPECT_EQ(failed.reason, "cudaGetDeviceCount failed: initialization error (cudaErrorInitializationError)");
}

TEST(ChooseBenchDevice, FindsTheRequestedCudaOrdinalNotThePosition) {
    FakeApi api = threeGpusMiddleBusy();
    const DeviceReport report = listDevices(api);
    BenchRequest request;
    request.deviceIndex = 2;  // position 1 in the list
    const DeviceChoice two = chooseBenchDevice(request, report, true);
    ASSERT_TRUE(two.device.has_value()) << two.cpuReason;
    EXPECT_EQ(two.device->name, "GPU two");
    EXPECT_EQ(two.device->index, 2);

    request.deviceIndex = 0;
    const DeviceChoice zero = chooseBenchDevice(request, report, true);
    ASSERT_TRUE(zero.device.has_value()) << zero.cpuReason;
    EXPECT_EQ(zero.device->name, "GPU zero");
}

TEST(ChooseBenchDevice, RefusesASkippedOrMissingOrdinalNamingWhatIsThere) {
    FakeApi api = threeGpusMiddleBusy();
    const DeviceReport report = listDevices(api);
    BenchRequest request;
    request.deviceIndex = 1;  // the busy one: position 1 exists, ordinal 1 does not
    const DeviceChoice busy = chooseBenchDevice(request, report, true);
    EXPECT_FALSE(busy.device.has_value());
    EXPECT_EQ(busy.cpuReason,
              "no usable GPU: device index 1 is not present (2 usable devices: 0, 2; " + report.reason + ")");
    request.deviceIndex = 3;
    EXPECT_FALSE(chooseBenchDevice(request, report, true).device.has_value());
}

TEST(ChooseBenchDevice, SaysUpFrontThatAGpuBelowSm89HasNoFp8) {
    FakeApi api;
    api.devices = {gpu("NVIDIA A100-SXM4-80GB", 8, 0)};
    const DeviceReport report = listDevices(api);
    ASSERT_TRUE(report.hasUsableDevice());
    const DeviceChoice choice = chooseBenchDevice(BenchRequest{}, report, true);
    EXPECT_FALSE(choice.device.has_value());
    EXPECT_NE(choice.cpuReason.find("NVIDIA A100-SXM4-80GB (device 0, sm_80) has no FP8 tensor cores (sm_80)"),
              std::string::npos)
        << choice.cpuReason;
}

TEST(ChooseBenchDevice, CpuOnlyOrNoCudaBuildOrNoGpuRunOnTheCpu) {
    FakeApi api;
    api.devices = {gpu("H", 9, 0)};
    const DeviceReport report = listDevices(api);
    BenchRequest cpu;
    cpu.cpuOnly = true;
    EXPECT_EQ(chooseBenchDevice(cpu, report, true).cpuReason,
              "--cpu: the CPU implementation was asked for; this part needs the GPU");
    EXPECT_FALSE(chooseBenchDevice(BenchRequest{}, report, false).device.has_value());

    FakeApi none;
    none.driver = 0;
    EXPECT_EQ(chooseBenchDevice(BenchRequest{}, listDevices(none), true).cpuReason,
              "no usable GPU: no NVIDIA driver is loaded (cudaDriverGetVersion reports 0)");
}

TEST(DeviceReportCache, ListsOnceWhateverTheNumberOfQueriesAndThreads) {
    std::atomic<int> listings{0};
    DeviceReportCache cache([&listings] {
        ++listings;
        DeviceReport r;
        r.backend = "cuda";
        r.reason = "listed";
        return r;
    });
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t)
        threads.emplace_back([&cache] {
            for (int i = 0; i < 5; ++i) EXPECT_EQ(cache.get().reason, "listed");
        });
    for (std::thread& t : threads) t.join();
    EXPECT_EQ(listings.load(), 1);
}

TEST(NoPeakWarning, NamesMigSlicesAndUnverifiedPartsApart) {
    EXPECT_EQ(noPeakWarning("NVIDIA H100 80GB HBM3 MIG 1g.10gb"),
              "NVIDIA H100 80GB HBM3 MIG 1g.10gb is a MIG instance: the datasheet roof is the whole GPU's, not this "
              "slice's: no % of peak");
    EXPECT_EQ(noPeakWarning("NVIDIA H800"),
              "no verified datasheet roof for NVIDIA H800 (its peak figures are unknown to fp8dash, not guessed): no % "
              "of peak");
    for (const char* name : {"NVIDIA H100 NVL", "NVIDIA H200 NVL", "NVIDIA GH200 480GB"})
        EXPECT_NE(noPeakWarning(name).find("no verified datasheet roof"), std::string::npos) << name;
    EXPECT_EQ(noPeakWarning("NVIDIA L4"), "no datasheet roof for NVIDIA L4: no % of peak");
}

}  // namespace
}  // namespace fp8dash::gpu::detail
