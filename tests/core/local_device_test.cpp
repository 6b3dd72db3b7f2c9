#include "fp8dash/core/local_device.h"

#include <gtest/gtest.h>

namespace fp8dash {
namespace {

TEST(LocalDevice, SummaryOfGpusAndOfTheReason) {
    LocalDeviceStatus s;
    s.available = true;
    s.gpus.push_back({"NVIDIA H200", 9, 0, 132, 150754820096ull, 0, true});  // 140.4 GiB
    s.gpus.push_back({"NVIDIA GeForce RTX 3090", 8, 6, 82, 24ull << 30, 0, false});
    EXPECT_EQ(s.summary(),
              "NVIDIA H200 (sm_90, 140.4 GiB, FP8 yes); NVIDIA GeForce RTX 3090 (sm_86, 24.0 GiB, FP8 no)");
    LocalDeviceStatus none;
    none.reason = "no NVIDIA driver is loaded (cudaDriverGetVersion reports 0)";
    EXPECT_EQ(none.summary(), "no GPU: no NVIDIA driver is loaded (cudaDriverGetVersion reports 0)");
}

TEST(LocalDevice, QueryAlwaysAnswers) {
    const LocalDeviceStatus s = queryLocalDevices();
    EXPECT_TRUE(s.backend == "cpu" || s.backend == "cuda") << s.backend;
    if (s.available) {
        EXPECT_FALSE(s.gpus.empty());
        EXPECT_TRUE(s.unavailableCode.empty());
    } else {
        EXPECT_TRUE(s.gpus.empty());
        EXPECT_FALSE(s.reason.empty());
        EXPECT_FALSE(s.unavailableCode.empty());
    }
}

}  // namespace
}  // namespace fp8dash
