// fp8dash-gpu-bench: runs the FP8 microbenchmarks (gpu/bench.h) for the llama-3.1-8b linear layers and prints the
// report as JSON (gpu::benchReportToJson), without Qt or core, so the GPU machine's build (FP8DASH_GPU_ONLY) has it.
// Without a usable GPU (or with --cpu) it runs the CPU implementation and still exits 0: the JSON says why.
// The sections run one at a time and --out is rewritten after each (section_runner.h), so a time limit that kills
// the runner leaves what it finished.
#include "fp8dash/gpu/bench.h"
#include "fp8dash/gpu/device_query.h"
#include "section_runner.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace {

using namespace fp8dash::gpu;

// SIGTERM/SIGINT (e.g. `timeout`) cancel the run: the report of what finished is still printed.
std::atomic<int> g_stopRequested{0};
static_assert(std::atomic<int>::is_always_lock_free, "the signal handler needs a lock-free flag");

void requestStop(int) {
    g_stopRequested.store(1);
}

constexpr int kDefaultTokens[] = {1, 8, 32, 128, 512, 2048, 8192};
constexpr int kDefaultGpuContexts[] = {1024, 4096, 16384, 65536, 131072};
// 4 of the 32 layers (the sweep's cost grows with layers); tokens is set by the sweep from the contexts. The same
// request as core's runLocalBench for the llama-3.1-8b preset, so both give the same report.
constexpr KvShape kLlama31_8bKvShape{4, 8, 128, 1};

void printUsage(std::ostream& out) {
    out << "usage: fp8dash-gpu-bench [gemm|bandwidth|kv|all]... [options]\n"
           "  Runs the FP8 microbenchmarks for llama-3.1-8b and prints the report as JSON on stdout.\n"
           "  Sections: any of gemm, bandwidth, kv (default: all).\n"
           "options:\n"
           "  --cpu                  the CPU implementation even when a GPU is present\n"
           "  --out FILE             also write the JSON to FILE, rewritten after each section (a stopped run\n"
           "                         leaves the sections it finished; the others say they were not run)\n"
           "  --plan                 print the cases a run would measure and exit, measuring nothing\n"
           "  --tokens LIST          GEMM token counts (M), comma-separated (default 1,8,32,128,512,2048,8192)\n"
           "  --contexts LIST        KV sweep context lengths in tokens (default with a GPU\n"
           "                         1024,4096,16384,65536,131072; without one the CPU's 1024,4096,16384)\n"
           "  --no-square            leave out the 8192^3 GEMM\n"
           "  --fast-accum           also time FP8 with cuBLASLt's fast accumulation\n"
           "  --device N             CUDA device index (default 0)\n"
           "  --seconds-per-case S   wall-clock cap per case, warm-up included (default 1.5)\n"
           "  --bandwidth-bytes N    buffer size of the bandwidth kernels (default: 1 GiB, less when memory is short)\n"
           "  --quiet                no progress lines on stderr\n"
           "  --help                 this text\n";
}

// A whole decimal integer in [min, max], else nullopt.
std::optional<long> parseInteger(const std::string& text, long min, long max) {
    char* end = nullptr;
    errno = 0;
    const long value = std::strtol(text.c_str(), &end, 10);
    if (text.empty() || *end != '\0' || errno != 0 || value < min || value > max) return std::nullopt;
    return value;
}

// "1,8,32" -> {1, 8, 32}; nullopt when an entry is not a positive integer.
std::optional<std::vector<int>> parseList(std::string_view text) {
    std::vector<int> values;
    std::size_t start = 0;
    for (;;) {
        const std::size_t comma = text.find(',', start);
        const std::string item(
            text.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start));
        const std::optional<long> value = parseInteger(item, 1, 1'000'000'000);
        if (!value) return std::nullopt;
        values.push_back(static_cast<int>(*value));
        if (comma == std::string_view::npos) return values;
        start = comma + 1;
    }
}

struct Options {
    bool gemm = false;
    bool bandwidth = false;
    bool kv = false;
    bool cpu = false;
    bool square = true;
    bool fastAccum = false;
    bool quiet = false;
    bool plan = false;
    int device = 0;
    double secondsPerCase = 0;  // 0: MeasureOptions' default
    std::uint64_t bandwidthBytes = 0;
    std::string out;
    std::vector<int> tokens{std::begin(kDefaultTokens), std::end(kDefaultTokens)};
    std::optional<std::vector<int>> contexts;
};

// nullopt after printing the problem (or the help, with `help` set).
std::optional<Options> parseArguments(int argc, char** argv, bool& help) {
    Options options;
    bool anySection = false;
    auto fail = [](const std::string& message) {
        std::cerr << "fp8dash-gpu-bench: " << message << "\n";
        printUsage(std::cerr);
        return std::nullopt;
    };
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        auto value = [&]() -> std::optional<std::string> {
            if (i + 1 >= argc) return std::nullopt;
            return std::string(argv[++i]);
        };
        if (arg == "--help" || arg == "-h") {
            help = true;
            printUsage(std::cout);
            return std::nullopt;
        } else if (arg == "gemm" || arg == "bandwidth" || arg == "kv" || arg == "all") {
            anySection = true;
            options.gemm |= arg == "gemm" || arg == "all";
            options.bandwidth |= arg == "bandwidth" || arg == "all";
            options.kv |= arg == "kv" || arg == "all";
        } else if (arg == "--cpu") {
            options.cpu = true;
        } else if (arg == "--no-square") {
            options.square = false;
        } else if (arg == "--fast-accum") {
            options.fastAccum = true;
        } else if (arg == "--quiet") {
            options.quiet = true;
        } else if (arg == "--plan") {
            options.plan = true;
        } else if (arg == "--out") {
            const auto v = value();
            if (!v || v->empty()) return fail("--out needs a file name");
            options.out = *v;
        } else if (arg == "--tokens" || arg == "--contexts") {
            const auto v = value();
            const auto list = v ? parseList(*v) : std::nullopt;
            if (!list) return fail(arg + " needs a comma-separated list of positive integers, e.g. 1,8,32");
            if (arg == "--tokens")
                options.tokens = *list;
            else
                options.contexts = *list;
        } else if (arg == "--device") {
            const auto v = value();
            const std::optional<long> index = v ? parseInteger(*v, 0, 1024) : std::nullopt;
            if (!index) return fail("--device needs a device index (0, 1, ...)");
            options.device = static_cast<int>(*index);
        } else if (arg == "--seconds-per-case") {
            const auto v = value();
            char* end = nullptr;
            const double seconds = v ? std::strtod(v->c_str(), &end) : 0;
            if (!v || v->empty() || *end != '\0' || !std::isfinite(seconds) || seconds <= 0 || seconds > 600)
                return fail("--seconds-per-case needs a number of seconds in (0, 600]");
            options.secondsPerCase = seconds;
        } else if (arg == "--bandwidth-bytes") {
            const auto v = value();
            char* end = nullptr;
            errno = 0;
            const unsigned long long bytes = v ? std::strtoull(v->c_str(), &end, 10) : 0;
            if (!v || v->empty() || *end != '\0' || errno != 0 || bytes < 16 || (*v)[0] == '-')
                return fail("--bandwidth-bytes needs a byte count of at least 16");
            options.bandwidthBytes = bytes;
        } else {
            return fail("unknown argument '" + arg + "'");
        }
    }
    if (!anySection) options.gemm = options.bandwidth = options.kv = true;
    return options;
}

}  // namespace

int main(int argc, char** argv) {
    bool help = false;
    const std::optional<Options> parsed = parseArguments(argc, argv, help);
    if (!parsed) return help ? 0 : 2;
    const Options& options = *parsed;

    // The defaults that depend on the machine: the long contexts only where a GPU quantises them.
    const DeviceReport device = makeDeviceQuery()->query();
    const bool gpu = !options.cpu && device.hasUsableDevice();

    BenchRequest request;
    request.gemm = options.gemm;
    request.bandwidth = options.bandwidth;
    request.kv = options.kv;
    request.cpuOnly = options.cpu;
    request.deviceIndex = options.device;
    request.model = "llama-3.1-8b";
    try {
        request.gemmShapes = linearLayerShapes(kLlama31_8bDims, options.tokens, options.square);
    } catch (const std::exception& e) {
        std::cerr << "fp8dash-gpu-bench: " << e.what() << "\n";
        return 2;
    }
    request.fp8FastAccum = options.fastAccum;
    request.bandwidthBytes = options.bandwidthBytes;
    request.kvSweep.shape = kLlama31_8bKvShape;
    if (options.contexts)
        request.kvSweep.contexts = *options.contexts;
    else if (gpu)
        request.kvSweep.contexts.assign(std::begin(kDefaultGpuContexts), std::end(kDefaultGpuContexts));
    // The calibration prefix is the first prompt: a sweep of short contexts calibrates on at most its shortest.
    request.kvSweep.calibrationTokens =
        std::min(request.kvSweep.calibrationTokens,
                 *std::min_element(request.kvSweep.contexts.begin(), request.kvSweep.contexts.end()));
    if (options.secondsPerCase > 0) request.measure.maxSecondsPerCase = options.secondsPerCase;

    if (options.plan) {
        std::string where = options.cpu ? std::string("the CPU (--cpu)") : device.reason;
        for (const DeviceInfo& d : device.devices) {
            if (!options.cpu && d.index == options.device) where = d.name + " (device " + std::to_string(d.index) + ")";
        }
        if (where.empty()) where = "no usable GPU";
        runner::printPlan(std::cout, request, where);
        return 0;
    }

    std::signal(SIGTERM, requestStop);
    std::signal(SIGINT, requestStop);
    std::string lastStep;
    int lastPercent = -1;
    const BenchProgress progress = [&](double fraction, const std::string& step) {
        const int percent = static_cast<int>(fraction * 100);
        if (!options.quiet && (step != lastStep || percent >= lastPercent + 5)) {
            std::fprintf(stderr, "[%3d%%] %s\n", percent, step.c_str());
            lastStep = step;
            lastPercent = percent;
        }
        return g_stopRequested.load() == 0;
    };

    bool writeFailed = false;
    const auto written = [&](const BenchReport& soFar) {
        if (!options.out.empty() && !runner::writeFileAtomically(options.out, benchReportToJson(soFar) + "\n"))
            writeFailed = true;
    };
    const BenchReport report = runner::runSections(request, progress, written);
    std::cout << benchReportToJson(report) << "\n";
    std::cout.flush();
    if (writeFailed) {
        std::cerr << "fp8dash-gpu-bench: could not write " << options.out << "\n";
        return 1;
    }
    if (!options.quiet && !gpu)
        std::cerr << "fp8dash-gpu-bench: no GPU benchmarks ran: "
                  << (options.cpu ? std::string("--cpu") : device.reason) << "\n";
    return 0;
}
