// Which tool wrote a result (parseServingText) and reading a file or a folder of results (readServingPath):
// serving_results.h. Big files are mapped, small ones read (servingReadFile); a vLLM file's reader copies only what
// simdjson must index (peak memory: the file's pages plus that copy); GuideLLM and AIPerf files go to their readers as
// text. Up to 4 GiB per file (simdjson's limit for one document).
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <system_error>
#include <utility>

#include "fp8dash/core/serving_results.h"
#include "serving/mapped_file.h"
#include "serving/vllm_bench_reader.h"

namespace fp8dash {
namespace {

namespace fs = std::filesystem;

enum class ServingFileKind { Vllm, GuideLlm, AiPerf, Unknown };

bool servingHeadHas(std::string_view head, std::string_view needle) {
    return head.find(needle) != std::string_view::npos;
}

// The tool, from the content: GuideLLM reports have a "benchmarks" list (YAML: a `benchmarks:` line), AIPerf and
// GenAI-Perf exports metric objects named "time_to_first_token" / "request_latency" and an "input_config", vLLM
// results "completed" with request_throughput or *_ttft_ms figures. Only the head is searched: every tool writes
// these before its per-request data.
ServingFileKind servingKindOf(std::string_view text) {
    std::size_t p = text.substr(0, 3) == "\xEF\xBB\xBF" ? 3 : 0;
    while (p < text.size() && std::isspace(static_cast<unsigned char>(text[p]))) ++p;
    if (p >= text.size()) return ServingFileKind::Unknown;
    const std::string_view head = text.substr(p, std::size_t{1} << 20);
    if (head.front() != '{' && head.front() != '[') {
        // YAML (GuideLLM writes its report as YAML too): a top-level `benchmarks:` key.
        const bool yamlBenchmarks = head.rfind("benchmarks:", 0) == 0 || servingHeadHas(head, "\nbenchmarks:");
        return yamlBenchmarks ? ServingFileKind::GuideLlm : ServingFileKind::Unknown;
    }
    if (servingHeadHas(head, "\"benchmarks\"")) return ServingFileKind::GuideLlm;
    if (servingHeadHas(head, "\"input_config\"") || servingHeadHas(head, "\"time_to_first_token\"") ||
        (servingHeadHas(head, "\"request_latency\"") && servingHeadHas(head, "\"unit\"")))
        return ServingFileKind::AiPerf;
    if (detail::looksLikeVllmBench(text)) return ServingFileKind::Vllm;
    return ServingFileKind::Unknown;
}

std::string servingNotAResult(const std::string& source) {
    return source +
           ": not a serving benchmark result (a vLLM bench serve JSON, a GuideLLM report or an AIPerf / "
           "GenAI-Perf profile export)";
}

// A file's text: big files mapped (read-only, private: the page cache's pages, no copy into the process; a vLLM
// file's reader copies only what simdjson must index, vllm_bench_reader.cpp), small ones read into memory.
struct ServingFileText {
    const char* bytes = nullptr;
    std::size_t size = 0;
    std::unique_ptr<char[]> owned;
    std::optional<detail::MappedFile> mapped;
    std::string_view view() const { return {bytes, size}; }
};

constexpr std::uint64_t kServingMaxFileBytes = (std::uint64_t{4} << 30) - 1;
constexpr std::uint64_t kServingMapBytes = std::uint64_t{16} << 20;

Result<ServingFileText> servingReadFile(const fs::path& path) {
    const std::string name = path.string();
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return Error{name + ": cannot open (" + std::strerror(errno) + ")"};
    struct stat st {};
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        ::close(fd);
        return Error{name + ": not a regular file"};
    }
    const auto size = static_cast<std::uint64_t>(st.st_size);
    if (size > kServingMaxFileBytes) {
        ::close(fd);
        return Error{name + ": " + std::to_string(size) + " bytes, more than the 4 GiB a result file may have"};
    }
    ServingFileText out;
    if (size >= kServingMapBytes) {
        if (auto mapped = detail::MappedFile::map(fd, static_cast<std::size_t>(size))) {
            out.mapped.emplace(std::move(*mapped));
            ::close(fd);
            out.bytes = out.mapped->data();
            out.size = out.mapped->size();
            return out;
        }
    }
    out.owned.reset(new (std::nothrow) char[size + 1]);
    if (!out.owned) {
        ::close(fd);
        return Error{name + ": out of memory reading " + std::to_string(size) + " bytes"};
    }
    std::size_t done = 0;
    while (done < size) {
        const ssize_t n = ::read(fd, out.owned.get() + done, static_cast<std::size_t>(size) - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        done += static_cast<std::size_t>(n);
    }
    const int readErrno = errno;
    ::close(fd);
    if (done != size) return Error{name + ": read error (" + std::strerror(readErrno) + ")"};
    out.bytes = out.owned.get();
    out.size = done;
    return out;
}

bool servingEndsWith(std::string_view s, std::string_view tail) {
    return s.size() >= tail.size() && s.substr(s.size() - tail.size()) == tail;
}

// run=N.json -> N
std::optional<int> servingRunFileNumber(const std::string& fileName) {
    if (fileName.rfind("run=", 0) != 0 || !servingEndsWith(fileName, ".json")) return std::nullopt;
    const std::string digits = fileName.substr(4, fileName.size() - 9);
    if (digits.empty() || digits.size() > 6 || !std::all_of(digits.begin(), digits.end(), ::isdigit))
        return std::nullopt;
    return std::stoi(digits);
}

// Files in a folder that are never results (read silently past): vLLM's .pytorch.json twins and timeline plots,
// AIPerf's inputs.json and per-record JSONL, CSVs, logs.
bool servingCandidateFile(const fs::path& file) {
    const std::string name = file.filename().string();
    const std::string ext = file.extension().string();
    if (ext != ".json" && ext != ".yaml" && ext != ".yml") return false;
    return !servingEndsWith(name, ".pytorch.json") && name != "inputs.json" && name.front() != '.';
}

// The command files stored beside results (InferenceX keeps `vllm_command.txt` next to the AIPerf artifacts folder):
// in the result's folder and its parent, the server command first.
detail::ServeCommandHints servingSideHints(const fs::path& resultFile, std::string& evidence) {
    detail::ServeCommandHints hints;
    std::error_code ec;
    for (const fs::path& dir : {resultFile.parent_path(), resultFile.parent_path().parent_path()}) {
        if (dir.empty() || !fs::is_directory(dir, ec)) continue;
        std::vector<fs::path> commands, clientCommands;
        for (const auto& entry : fs::directory_iterator(dir, ec)) {
            const std::string name = entry.path().filename().string();
            if (!entry.is_regular_file(ec) || entry.path().extension() != ".txt") continue;
            if (name.find("vllm_command") != std::string::npos || name.find("serve_command") != std::string::npos)
                commands.push_back(entry.path());
            else if (name.find("benchmark_command") != std::string::npos)
                clientCommands.push_back(entry.path());
        }
        std::sort(commands.begin(), commands.end());
        std::sort(clientCommands.begin(), clientCommands.end());
        commands.insert(commands.end(), clientCommands.begin(), clientCommands.end());  // the server's first
        for (const fs::path& command : commands) {
            auto text = servingReadFile(command);
            if (!text || text->size > (1u << 20)) continue;
            const detail::ServeCommandHints h = detail::serveCommandHints(text->view());
            if (h.quantization.empty() && h.kvCacheDtype.empty() && h.gpuCount == 0) continue;
            evidence = "server command in " + command.filename().string();
            return h;
        }
    }
    return hints;
}

void servingApplyHints(std::vector<ServingRun>& runs, const detail::ServeCommandHints& hints,
                       const std::string& evidence) {
    for (ServingRun& run : runs) {
        bool used = false;
        if (run.quantization.empty() && !hints.quantization.empty()) {
            run.quantization = hints.quantization;
            used = true;
        }
        if (run.kvCacheDtype.empty() && !hints.kvCacheDtype.empty()) {
            run.kvCacheDtype = hints.kvCacheDtype;
            used = true;
        }
        if (!run.gpuCount && hints.gpuCount > 0) run.gpuCount = hints.gpuCount;
        if (used) run.servedEvidence += (run.servedEvidence.empty() ? "" : "; ") + evidence;
    }
}

// The AIPerf server scrape beside a profile export: "<prefix>profile_export_aiperf.json" ->
// "<prefix>server_metrics_export.csv".
std::string servingMetricsCsvBeside(const fs::path& file) {
    const std::string name = file.filename().string();
    for (std::string_view tail : {"profile_export_aiperf.json", "profile_export_genai_perf.json"}) {
        if (!servingEndsWith(name, tail)) continue;
        const fs::path csv =
            file.parent_path() / (name.substr(0, name.size() - tail.size()) + "server_metrics_export.csv");
        std::error_code ec;
        if (!fs::is_regular_file(csv, ec)) return {};
        auto text = servingReadFile(csv);
        return text ? std::string(text->view()) : std::string();
    }
    return {};
}

// One file: its runs; an empty list (no Error) for a file in a folder that is no result.
Result<std::vector<ServingRun>> servingReadOne(const fs::path& file, bool inFolder, bool keepRequests) {
    auto text = servingReadFile(file);
    if (!text) return text.error();
    const std::string source = file.string();
    const ServingFileKind kind = servingKindOf(text->view());
    Result<std::vector<ServingRun>> runs = std::vector<ServingRun>{};
    switch (kind) {
        case ServingFileKind::Vllm:
            runs = detail::parseVllmBenchRaw(text->bytes, text->size, source, keepRequests, [&text] {
                if (text->mapped) text->mapped->release();
            });
            break;
        case ServingFileKind::GuideLlm:
            runs = parseGuideLlmText(text->view(), source);
            break;
        case ServingFileKind::AiPerf: {
            auto run = parseAiPerfText(text->view(), source, servingMetricsCsvBeside(file));
            if (!run) return run.error();
            runs = std::vector<ServingRun>{std::move(run).value()};
            break;
        }
        case ServingFileKind::Unknown:
            if (inFolder) return std::vector<ServingRun>{};
            return Error{servingNotAResult(source)};
    }
    if (text->mapped && text->mapped->cutShort())
        return Error{source + ": the file was cut short while it was read (is a benchmark writing it?): read it again"};
    if (!runs) return runs;
    const std::string fileName = file.filename().string();
    const std::optional<int> runFile = servingRunFileNumber(fileName);
    const bool sweepFile = runFile || fileName == "summary.json";
    std::string evidence;
    const detail::ServeCommandHints hints = servingSideHints(file, evidence);
    for (ServingRun& run : *runs) {
        if (sweepFile) run.sweepCombination = file.parent_path().filename().string();
        if (runFile && !run.runNumber) run.runNumber = *runFile;
        if (!keepRequests) run.requests = ServingRequests{};
    }
    servingApplyHints(*runs, hints, evidence);
    return runs;
}

// The files to read under a folder, in path order: result candidates, with a sweep combination's summary.json only
// where the combination has no run=N.json, and GenAI-Perf's export only where no AIPerf export sits beside it.
std::vector<fs::path> servingFolderFiles(const fs::path& dir, std::error_code& ec) {
    std::vector<fs::path> all;
    for (auto it = fs::recursive_directory_iterator(dir, fs::directory_options::skip_permission_denied, ec);
         !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
        std::error_code fileEc;
        if (it->is_regular_file(fileEc) && servingCandidateFile(it->path())) all.push_back(it->path());
    }
    std::sort(all.begin(), all.end());
    std::set<fs::path> dirsWithRuns, dirsWithAiPerf;
    for (const fs::path& f : all) {
        if (servingRunFileNumber(f.filename().string())) dirsWithRuns.insert(f.parent_path());
        if (servingEndsWith(f.filename().string(), "profile_export_aiperf.json"))
            dirsWithAiPerf.insert(f.parent_path());
    }
    std::vector<fs::path> out;
    for (const fs::path& f : all) {
        const std::string name = f.filename().string();
        if (name == "summary.json" && dirsWithRuns.count(f.parent_path())) continue;
        if (servingEndsWith(name, "profile_export_genai_perf.json") && dirsWithAiPerf.count(f.parent_path())) continue;
        out.push_back(f);
    }
    return out;
}

bool servingRunBefore(const ServingRun& a, const ServingRun& b) {
    if (a.load.axis != b.load.axis) return static_cast<int>(a.load.axis) < static_cast<int>(b.load.axis);
    if (a.load.value != b.load.value) return a.load.value < b.load.value;
    const double capA = a.load.concurrencyCap.value_or(-1), capB = b.load.concurrencyCap.value_or(-1);
    if (capA != capB) return capA < capB;
    const int runA = a.runNumber.value_or(-1), runB = b.runNumber.value_or(-1);
    if (runA != runB) return runA < runB;
    return a.source < b.source;
}

}  // namespace

namespace detail {

ServeCommandHints serveCommandHints(std::string_view commandText) {
    std::vector<std::string> words;
    std::string word;
    for (char c : commandText) {
        if (std::isspace(static_cast<unsigned char>(c)) || c == '\\') {
            if (!word.empty()) words.push_back(std::move(word));
            word.clear();
        } else if (c != '"' && c != '\'') {
            word += c;
        }
    }
    if (!word.empty()) words.push_back(std::move(word));
    ServeCommandHints hints;
    int tp = 0, pp = 0, dp = 0;
    const auto number = [](const std::string& s) {
        int v = 0;
        for (char c : s) {
            if (!std::isdigit(static_cast<unsigned char>(c)) || v > 100000) return 0;
            v = v * 10 + (c - '0');
        }
        return v;
    };
    for (std::size_t i = 0; i < words.size(); ++i) {
        std::string flag = words[i], value;
        const std::size_t eq = flag.find('=');
        if (flag.rfind("-", 0) != 0) continue;
        if (eq != std::string::npos) {
            value = flag.substr(eq + 1);
            flag.resize(eq);
        } else if (i + 1 < words.size() && words[i + 1].rfind("-", 0) != 0) {
            value = words[i + 1];
        }
        std::replace(flag.begin(), flag.end(), '_', '-');
        if (flag == "--kv-cache-dtype") hints.kvCacheDtype = value;
        if (flag == "--quantization" || flag == "-q") hints.quantization = value;
        if (flag == "--tensor-parallel-size" || flag == "-tp") tp = number(value);
        if (flag == "--pipeline-parallel-size" || flag == "-pp") pp = number(value);
        if (flag == "--data-parallel-size" || flag == "-dp") dp = number(value);
    }
    if (tp > 0 || pp > 0 || dp > 0) hints.gpuCount = std::max(tp, 1) * std::max(pp, 1) * std::max(dp, 1);
    return hints;
}

}  // namespace detail

Result<std::vector<ServingRun>> parseServingText(std::string_view text, const std::string& sourceName) {
    switch (servingKindOf(text)) {
        case ServingFileKind::Vllm:
            return parseVllmBenchText(text, sourceName);
        case ServingFileKind::GuideLlm:
            return parseGuideLlmText(text, sourceName);
        case ServingFileKind::AiPerf: {
            auto run = parseAiPerfText(text, sourceName);
            if (!run) return run.error();
            return std::vector<ServingRun>{std::move(run).value()};
        }
        case ServingFileKind::Unknown:
            break;
    }
    return Error{servingNotAResult(sourceName)};
}

Result<std::vector<ServingRun>> readServingPath(const fs::path& path, const ServingReadOptions& options) {
    const std::string name = path.string();
    std::error_code ec;
    const fs::file_status status = fs::status(path, ec);
    if (ec || !fs::exists(status)) return Error{name + ": no such file or folder"};
    const bool folder = fs::is_directory(status);
    std::vector<fs::path> files;
    if (folder) {
        files = servingFolderFiles(path, ec);
        if (ec) return Error{name + ": cannot list the folder (" + ec.message() + ")"};
    } else {
        files.push_back(path);
    }
    std::uintmax_t total = 0, done = 0;
    std::vector<std::uintmax_t> sizes;
    for (const fs::path& f : files) {
        std::error_code sizeEc;
        const std::uintmax_t s = fs::file_size(f, sizeEc);
        sizes.push_back(sizeEc ? 0 : s);
        total += sizes.back();
    }
    if (options.progress) options.progress(0.0);
    std::vector<ServingRun> runs;
    for (std::size_t i = 0; i < files.size(); ++i) {
        if (options.cancelled && options.cancelled()) return Error{"cancelled"};
        auto some = servingReadOne(files[i], folder, options.keepRequests);
        if (!some) return some.error();
        for (ServingRun& r : *some) runs.push_back(std::move(r));
        done += sizes[i];
        if (options.progress && total > 0) options.progress(static_cast<double>(done) / static_cast<double>(total));
    }
    if (runs.empty())
        return Error{name +
                     ": no serving benchmark results in this folder (vLLM bench serve JSON, GuideLLM reports, "
                     "AIPerf / GenAI-Perf profile exports)"};
    if (std::all_of(runs.begin(), runs.end(), [](const ServingRun& r) { return r.allFailed(); })) {
        long long failed = 0;
        for (const ServingRun& r : runs) failed += r.failed;
        return Error{name + ": every request failed (completed 0, failed " + std::to_string(failed) + ")"};
    }
    std::stable_sort(runs.begin(), runs.end(), servingRunBefore);
    if (options.progress) options.progress(1.0);
    return runs;
}

}  // namespace fp8dash
