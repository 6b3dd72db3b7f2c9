// The Qt-free runner's sections (tests/benchmarks/gpu_runner/section_runner.h) on the CPU implementation: the report
// written after each section with the sections not reached marked, the whole report equal to one single run, and a
// cancelled section ending the run.
#include "section_runner.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace fp8dash::gpu::runner {
namespace {

BenchRequest cpuRequest() {
    BenchRequest r;
    r.cpuOnly = true;
    r.model = "test";
    r.kvSweep.shape = KvShape{1, 2, 16, 1};
    r.kvSweep.contexts = {32, 64};
    r.kvSweep.calibrationTokens = 16;
    return r;
}

// The JSON without the wall-clock figures of the KV rows, which differ between any two runs.
std::string withoutTimings(const std::string& json) {
    std::string out;
    std::size_t start = 0;
    while (start < json.size()) {
        std::size_t end = json.find('\n', start);
        if (end == std::string::npos) end = json.size();
        const std::string line = json.substr(start, end - start);
        if (line.find("\"seconds\"") == std::string::npos && line.find("\"elements_per_s\"") == std::string::npos)
            out += line + "\n";
        start = end + 1;
    }
    return out;
}

TEST(SectionRunner, WritesAfterEachSectionAndEndsWithTheSingleRunsReport) {
    const BenchRequest request = cpuRequest();
    std::vector<BenchReport> writes;
    const BenchReport report = runSections(request, {}, [&](const BenchReport& r) { writes.push_back(r); });
    ASSERT_EQ(writes.size(), 3u);  // after gemm, after bandwidth, the whole

    // After the first section: the two others not reached, the file says it is incomplete.
    EXPECT_TRUE(writes[0].cancelled);
    EXPECT_EQ(writes[0].bandwidthSkipped, kPendingReason);
    EXPECT_EQ(writes[0].kvSkipped, kPendingReason);
    EXPECT_TRUE(writes[0].kv.empty());
    EXPECT_EQ(writes[1].bandwidthSkipped, writes[2].bandwidthSkipped);
    EXPECT_EQ(writes[1].kvSkipped, kPendingReason);

    EXPECT_FALSE(report.cancelled);
    EXPECT_EQ(benchReportToJson(writes[2]), benchReportToJson(report));
    ASSERT_EQ(report.kv.size(), request.kvSweep.scalings.size() * request.kvSweep.contexts.size());
    // One run of the whole request gives the same report, timings apart.
    EXPECT_EQ(withoutTimings(benchReportToJson(report)), withoutTimings(benchReportToJson(runBench(request))));
}

TEST(SectionRunner, SectionsNotRequestedSayWhatASingleRunSays) {
    BenchRequest request = cpuRequest();
    request.bandwidth = false;
    request.gemm = false;
    int writes = 0;
    const BenchReport report = runSections(request, {}, [&](const BenchReport&) { ++writes; });
    EXPECT_EQ(writes, 1);
    const BenchReport single = runBench(request);
    EXPECT_EQ(report.gemmSkipped, single.gemmSkipped);
    EXPECT_EQ(report.bandwidthSkipped, single.bandwidthSkipped);
    EXPECT_FALSE(report.kv.empty());
}

TEST(SectionRunner, ACancelledSectionEndsTheRun) {
    const BenchRequest request = cpuRequest();
    // Stop at the first progress report of the second section (bandwidth: 1/3 .. 2/3 of the whole).
    const BenchProgress progress = [](double fraction, const std::string&) { return fraction < 0.5; };
    std::vector<BenchReport> writes;
    const BenchReport report = runSections(request, progress, [&](const BenchReport& r) { writes.push_back(r); });
    EXPECT_TRUE(report.cancelled);
    EXPECT_EQ(report.kvSkipped, "cancelled");
    EXPECT_TRUE(report.kv.empty());
    ASSERT_FALSE(writes.empty());
    EXPECT_EQ(benchReportToJson(writes.back()), benchReportToJson(report));
}

}  // namespace
}  // namespace fp8dash::gpu::runner
