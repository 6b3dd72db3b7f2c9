// fp8dash-gpu-bench, the Qt-free runner, as a process: its arguments and its JSON (checked with a reader of its own,
// json_check.h). --cpu keeps it off any GPU, so this runs everywhere.
#include "json_check.h"

#include <gtest/gtest.h>

#include <sys/wait.h>
#include <array>
#include <cstdio>
#include <string>

namespace fp8dash::test {
namespace {

struct RunnerRun {
    int exitCode = -1;
    std::string out;  // stdout only; progress and errors go to stderr
};

RunnerRun runRunner(const std::string& arguments) {
    RunnerRun run;
    const std::string command = std::string("'") + FP8DASH_GPU_BENCH_RUNNER + "' " + arguments + " 2>/dev/null";
    FILE* pipe = ::popen(command.c_str(), "r");
    if (!pipe) return run;
    std::array<char, 4096> buffer;
    std::size_t n = 0;
    while ((n = std::fread(buffer.data(), 1, buffer.size(), pipe)) > 0) run.out.append(buffer.data(), n);
    const int status = ::pclose(pipe);
    run.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return run;
}

TEST(GpuBenchRunner, CpuKvSweepPrintsTheReportAsJson) {
    const RunnerRun run = runRunner("kv --cpu --contexts 32,64 --quiet");
    ASSERT_EQ(run.exitCode, 0) << run.out;
    JsonReader reader;
    const auto document = reader.parse(run.out);
    ASSERT_TRUE(document) << reader.error() << "\n" << run.out;
    ASSERT_EQ(document->kind, JsonValue::Kind::Object);
    const JsonValue* backend = document->find("backend");
    ASSERT_NE(backend, nullptr);
    EXPECT_EQ(backend->string, "cpu");
    const JsonValue* model = document->find("model");
    ASSERT_NE(model, nullptr);
    EXPECT_EQ(model->string, "llama-3.1-8b");
    // Three scalings x two contexts, and the GPU-only parts say why they did not run.
    const JsonValue* kv = document->find("kv");
    ASSERT_NE(kv, nullptr);
    EXPECT_EQ(kv->items.size(), 6u);
    const JsonValue* gemmSkipped = document->find("gemm_skipped");
    ASSERT_NE(gemmSkipped, nullptr);
    EXPECT_FALSE(gemmSkipped->string.empty());
}

TEST(GpuBenchRunner, OutFileHoldsTheReportPrintedAndPlanMeasuresNothing) {
    const std::string out = ::testing::TempDir() + "fp8dash-gpu-bench-out.json";
    std::remove(out.c_str());
    const RunnerRun run = runRunner("kv --cpu --contexts 32 --quiet --out '" + out + "'");
    ASSERT_EQ(run.exitCode, 0);
    std::FILE* file = std::fopen(out.c_str(), "rb");
    ASSERT_NE(file, nullptr) << out;
    std::string written;
    std::array<char, 4096> buffer;
    std::size_t n = 0;
    while ((n = std::fread(buffer.data(), 1, buffer.size(), file)) > 0) written.append(buffer.data(), n);
    std::fclose(file);
    EXPECT_EQ(written, run.out);
    std::remove(out.c_str());

    // --plan: the cases in words, no JSON, nothing run (a run of 8192 tokens would take far longer than this test).
    const RunnerRun plan = runRunner("--cpu --plan --tokens 8 --contexts 1024,4096");
    EXPECT_EQ(plan.exitCode, 0);
    EXPECT_NE(plan.out.find("plan: gemm: 5 shapes x 2 (bf16, fp8_e4m3) = 10 cases"), std::string::npos) << plan.out;
    EXPECT_NE(plan.out.find("plan:   square M=8192 N=8192 K=8192"), std::string::npos) << plan.out;
    EXPECT_NE(plan.out.find("contexts 1024 4096"), std::string::npos) << plan.out;
    EXPECT_EQ(plan.out.find('{'), std::string::npos) << plan.out;
}

TEST(GpuBenchRunner, RejectsBadArguments) {
    EXPECT_EQ(runRunner("--tokens 1,x").exitCode, 2);
    EXPECT_EQ(runRunner("--contexts 0").exitCode, 2);
    EXPECT_EQ(runRunner("--seconds-per-case -1").exitCode, 2);
    EXPECT_EQ(runRunner("gemm --frobnicate").exitCode, 2);
    EXPECT_EQ(runRunner("--help").exitCode, 0);
}

}  // namespace
}  // namespace fp8dash::test
