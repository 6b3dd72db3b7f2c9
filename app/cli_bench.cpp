#include "cli_bench.h"
#include "cli_common.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <filesystem>
#include <ostream>

#include "cli.h"
#include "cli_args.h"
#include "fp8dash/core/comparison_file.h"
#include "fp8dash/core/local_bench.h"
#include "fp8dash/core/untrusted_text.h"
#include "terminal_stream.h"

namespace fp8dash::cli {
namespace {

// "1024,4096": whole numbers >= 1, comma-separated; the range per option is core's to check (runLocalBench).
std::vector<int> parseList(const std::string& option, const std::string& text) {
    std::vector<int> values;
    std::size_t start = 0;
    while (true) {
        const std::size_t comma = text.find(',', start);
        const std::string item = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
        const auto v = strictInteger(item, 1, INT_MAX);
        if (!v)
            throw UsageError{option + " \"" + text + "\": expected whole numbers of at least 1, separated by commas" +
                             (item.empty() ? "" : " (\"" + item + "\" is not one)")};
        values.push_back(static_cast<int>(*v));
        if (comma == std::string::npos) break;
        start = comma + 1;
    }
    return values;
}

// The terminal's progress line; nothing when stderr is a file or a pipe, so scripts and JSON readers see none.
BenchProgressFn terminalProgress(std::ostream& err) {
    if (!::isatty(STDERR_FILENO)) return {};
    return [&err, lastPercent = -1, lastStep = std::string()](double fraction, const std::string& step) mutable {
        const int pct = static_cast<int>(fraction * 100);
        if (pct != lastPercent || step != lastStep) {
            lastPercent = pct;
            lastStep = step;
            writeTerminalControl(err, "\r\033[K");
            err << "fp8dash: " << pct << "% " << step << (pct >= 100 ? "\n" : "") << std::flush;
        }
        return true;
    };
}

// --kv-dump measures the KV cache only and brings its own shape.
void checkKvDumpOptions(const LocalBenchOptions& options, const std::vector<std::string>& args) {
    if (options.kvDump.empty()) return;
    if (!options.kv) throw UsageError{"--kv-dump needs the kv part: fp8dash bench kv --kv-dump FILE"};
    if (std::any_of(args.begin(), args.end(),
                    [](const std::string& x) { return x == "--kv-layers" || x.rfind("--kv-layers=", 0) == 0; }))
        throw UsageError{"--kv-layers does not apply to --kv-dump: the dump's layers are all measured"};
}

}  // namespace

int runBench(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
    Args a(args);
    LocalBenchOptions options;
    bool json = false;
    std::string savePath, value;
    bool partGiven = false;
    while (!a.done()) {
        if (a.option("--model", value)) {
            if (value.empty()) throw UsageError{"--model needs a preset name or a config.json path"};
            options.model = value;
        } else if (a.flag("--cpu")) {
            options.cpuOnly = true;
        } else if (a.option("--contexts", value)) {
            options.kvContexts = parseList("--contexts", value);
        } else if (a.option("--tokens", value)) {
            options.gemmTokens = parseList("--tokens", value);
        } else if (a.option("--kv-layers", value)) {
            const std::vector<int> layers = parseList("--kv-layers", value);
            if (layers.size() != 1) throw UsageError{"--kv-layers \"" + value + "\": expected one whole number"};
            options.kvLayers = layers.front();
        } else if (a.option("--kv-dump", value)) {
            if (value.empty())
                throw UsageError{
                    "--kv-dump needs a safetensors file of K and V (see docs/benchmarks.md, \"Your own model's KV "
                    "cache\")"};
            options.kvDump = value;
        } else if (a.flag("--fast-accum")) {
            options.fp8FastAccum = true;
        } else if (a.option("--format", value)) {
            if (value != "text" && value != "json")
                throw UsageError{"--format \"" + value + "\": expected text or json"};
            json = value == "json";
        } else if (a.option("--save", value)) {
            if (value.empty()) throw UsageError{"--save needs a comparison file (FILE.fp8cmp)"};
            savePath = value;
        } else if (!partGiven &&
                   (a.peek() == "gemm" || a.peek() == "bandwidth" || a.peek() == "kv" || a.peek() == "all")) {
            const std::string part = a.next();
            partGiven = true;
            options.gemm = part == "gemm" || part == "all";
            options.bandwidth = part == "bandwidth" || part == "all";
            options.kv = part == "kv" || part == "all";
        } else {
            a.unknown("bench");
        }
    }

    checkKvDumpOptions(options, args);
    // The file must be there and load before minutes of measuring, not after.
    if (!savePath.empty()) {
        if (!std::filesystem::exists(savePath))
            throw UsageError{"--save " + savePath +
                             ": no such comparison file (bench adds its section to an existing one; create it "
                             "with compare --save or timeline --save)"};
        if (auto doc = loadComparisonFile(savePath); !doc)
            throw UsageError{"--save: cannot add the benchmarks: " + doc.error().message};
    }

    auto results = runLocalBench(options, terminalProgress(err));
    if (!results) throw UsageError{results.error().message};

    if (!savePath.empty()) {
        // Read again: the file may have changed while the benchmarks ran; only "benchmarks" is replaced.
        auto doc = loadComparisonFile(savePath);
        if (!doc) {
            err << "fp8dash: cannot add the benchmarks: " << errorText(doc.error().message) << "\n";
            return kExitBadInput;
        }
        doc->benchmarks = *results;
        if (auto saved = saveComparisonFile(*doc, savePath); !saved) {
            err << "fp8dash: cannot save: " << errorText(saved.error().message) << "\n";
            return kExitBadInput;
        }
        err << "fp8dash: saved the benchmarks to " << oneLine(savePath) << "\n";
    }
    if (json)
        out << results->raw.dump(2) << "\n";
    else
        out << benchResultsToText(*results);
    return kExitOk;
}

std::string benchUsage() {
    return "  fp8dash bench [gemm|bandwidth|kv|all] [options]\n"
           "                                 measure FP8 on this machine: GEMM FP8 vs BF16 (cuBLASLt), memory\n"
           "                                 bandwidth, KV-cache FP8 error; without a GPU, the KV error on the CPU\n"
           "      --model NAME|config.json   GEMM shapes and KV heads of this model (default llama-3.1-8b)\n"
           "      --tokens 1,8,...           GEMM M values (default 1,8,32,128,512,2048,8192)\n"
           "      --contexts 1024,4096       KV context lengths (default 1K-128K on a GPU, 1K-16K on the CPU)\n"
           "      --kv-layers N              layers of the synthetic KV cache (default 4)\n"
           "      --kv-dump FILE.safetensors the KV error of your own model's K/V cache (packaging/dump_kv_cache.py\n"
           "                                 writes one); contexts up to its token count (default: 1K, 4K... below\n"
           "                                 it, then all of it)\n"
           "      --fast-accum               also time FP8 with cuBLASLt fast accumulation\n"
           "      --cpu                      the CPU implementation even when a GPU is present\n"
           "      --format text|json, --save FILE.fp8cmp (adds to an existing comparison file)\n";
}

}  // namespace fp8dash::cli
