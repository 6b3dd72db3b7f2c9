// fp8dash-bench-startup (speed target 5, ../README.md): the real fp8dash binary from its start to its first painted
// frame with the bundled demo in it. Each run starts `fp8dash --new-instance` with FP8DASH_STARTUP_PROBE=1 (it prints
// one line once that frame is painted and flushed, then quits: ui/src/gui_main.cpp) in fresh settings, data and runtime
// folders (no recovery offer, no running instance); the time is from the spawn to that line. The platform is the one
// QT_QPA_PLATFORM names (offscreen when unset; xcb under Xvfb or a desktop). Not a test: figures go to README.md.
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "bench_support.h"

namespace fp8dash::bench {
namespace {

void BM_GuiStartToFirstPaintedFrame(benchmark::State& state) {
    double reportedMs = 0;
    for (auto _ : state) {
        std::string home = (scratchDir() / "home-XXXXXX").string();
        if (!::mkdtemp(home.data())) {
            state.SkipWithError("cannot make a home folder");
            return;
        }
        std::filesystem::permissions(home, std::filesystem::perms::owner_all);
        const ChildRun run = runChild(
            {FP8DASH_BINARY, "--new-instance"},
            {"FP8DASH_STARTUP_PROBE=1", "HOME=" + home, "XDG_CONFIG_HOME=" + home + "/config",
             "XDG_DATA_HOME=" + home + "/data", "XDG_CACHE_HOME=" + home + "/cache", "XDG_RUNTIME_DIR=" + home});
        std::filesystem::remove_all(home);
        const auto at = run.out.find("painted ");
        if (run.exitCode != 0 || at == std::string::npos || run.firstLineSeconds == 0) {
            state.SkipWithError(("fp8dash did not report a painted frame: " + run.out).c_str());
            return;
        }
        state.SetIterationTime(run.firstLineSeconds);
        reportedMs += std::stod(run.out.substr(at + 8));
    }
    state.counters["reported_by_fp8dash_ms"] = reportedMs / static_cast<double>(state.iterations());
    const char* platform = std::getenv("QT_QPA_PLATFORM");
    state.SetLabel(platform ? platform : "offscreen");
}

}  // namespace
}  // namespace fp8dash::bench

using fp8dash::bench::BM_GuiStartToFirstPaintedFrame;
BENCHMARK(BM_GuiStartToFirstPaintedFrame)->UseManualTime()->Iterations(10)->Unit(benchmark::kMillisecond);

int main(int argc, char** argv) {
    if (!std::getenv("QT_QPA_PLATFORM")) ::setenv("QT_QPA_PLATFORM", "offscreen", 1);
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
