// Reading a vLLM start-up log (the sizing lines of vLLM 0.4 to current, V0 and V1) and the what-if answers computed
// from the user's measured overheads (README "Capacity and the plan", `capacity --from-vllm-log`).
#include "fp8dash/core/vllm_startup_log.h"

#include "fp8dash/core/number_format.h"

#include "fp8dash/core/lm_eval_results.h"
#include "text_util.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>

namespace fp8dash {
namespace {

constexpr double kLogGiB = 1073741824.0;

bool keyChar(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-';
}

// The position just after `key` in line when it stands as a whole word (quotes and punctuation around it are fine),
// or npos. Searches every occurrence.
std::size_t findKey(std::string_view line, std::string_view key, std::size_t from = 0) {
    for (std::size_t p = line.find(key, from); p != std::string_view::npos; p = line.find(key, p + 1)) {
        const bool startOk = p == 0 || !keyChar(line[p - 1]) || !keyChar(key.front());
        const std::size_t e = p + key.size();
        const bool endOk = e >= line.size() || !keyChar(line[e]) || !keyChar(key.back());
        if (startOk && endOk) return e;
    }
    return std::string_view::npos;
}

// Skips the separators between a key and its value: spaces, quotes, ':' and '=' and '('.
std::size_t skipSeparators(std::string_view line, std::size_t p) {
    while (p < line.size() && (line[p] == ' ' || line[p] == '\t' || line[p] == '\'' || line[p] == '"' ||
                               line[p] == ':' || line[p] == '=' || line[p] == '('))
        ++p;
    return p;
}

// A number at p ("476,016", "58.11", "0.95"); thousands separators allowed. nullopt when none starts there.
std::optional<double> numberAt(std::string_view line, std::size_t p, std::size_t* end = nullptr) {
    std::string digits;
    std::size_t i = p;
    bool any = false, dot = false;
    if (i < line.size() && line[i] == '-') digits += line[i++];
    for (; i < line.size(); ++i) {
        const char c = line[i];
        if (c >= '0' && c <= '9') {
            digits += c;
            any = true;
        } else if (c == ',' && any && !dot && i + 3 < line.size() + 1 && i + 1 < line.size() &&
                   std::isdigit(static_cast<unsigned char>(line[i + 1]))) {
            continue;  // "476,016"
        } else if (c == '.' && !dot && i + 1 < line.size() && std::isdigit(static_cast<unsigned char>(line[i + 1]))) {
            digits += c;
            dot = true;
        } else {
            break;
        }
    }
    if (!any) return std::nullopt;
    if (end) *end = i;
    return std::strtod(digits.c_str(), nullptr);
}

// The number that ends just before position p ("14.99 GiB for weight": the number before " GiB for weight").
std::optional<double> numberBefore(std::string_view line, std::size_t p) {
    while (p > 0 && (line[p - 1] == ' ' || line[p - 1] == '\t')) --p;
    std::size_t b = p;
    while (b > 0 && (std::isdigit(static_cast<unsigned char>(line[b - 1])) || line[b - 1] == '.')) --b;
    if (b == p) return std::nullopt;
    return numberAt(line, b);
}

// A word value at p: up to a quote, comma, brace, bracket or space.
std::string wordAt(std::string_view line, std::size_t p) {
    std::size_t e = p;
    while (e < line.size() && line[e] != '\'' && line[e] != '"' && line[e] != ',' && line[e] != '}' && line[e] != ')' &&
           line[e] != ' ' && line[e] != '\t')
        ++e;
    return std::string(line.substr(p, e - p));
}

class LogReader {
public:
    explicit LogReader(const std::string& source) { m_log.source = source; }

    // A figure that must be a number where its marker stands: an error names the line and the figure.
    Result<bool> strict(std::string_view line, int lineNo, std::string_view marker, std::optional<double>& out,
                        const char* figure) {
        const std::size_t p = line.find(marker);
        if (p == std::string_view::npos) return false;
        std::size_t q = p + marker.size();
        while (q < line.size() && (line[q] == ' ' || line[q] == '\t')) ++q;
        const auto v = numberAt(line, q);
        if (!v || !std::isfinite(*v) || *v < 0) {
            std::string quoted(line.substr(p, std::min<std::size_t>(marker.size() + 24, line.size() - p)));
            return Error{m_log.source + ":" + std::to_string(lineNo) + ": could not read the " + figure + " from \"" +
                         quoted + "\""};
        }
        out = *v;
        m_log.lines.emplace_back(figure, lineNo);
        return true;
    }

    // A key's value when the line holds one (lenient: "None", "null" and words leave it unset).
    template <class T>
    void number(std::string_view line, int lineNo, std::initializer_list<std::string_view> keys, std::optional<T>& out,
                const char* figure) {
        for (std::string_view key : keys) {
            for (std::size_t p = findKey(line, key); p != std::string_view::npos; p = findKey(line, key, p)) {
                const auto v = numberAt(line, skipSeparators(line, p));
                if (v && std::isfinite(*v) && *v >= 0) {
                    out = static_cast<T>(*v);
                    m_log.lines.emplace_back(figure, lineNo);
                    return;
                }
            }
        }
    }

    void word(std::string_view line, int lineNo, std::initializer_list<std::string_view> keys,
              std::optional<std::string>& out, const char* figure) {
        for (std::string_view key : keys) {
            const std::size_t p = findKey(line, key);
            if (p == std::string_view::npos) continue;
            const std::string w = wordAt(line, skipSeparators(line, p));
            if (w.empty() || w == "None" || w == "null") continue;
            out = w;
            m_log.lines.emplace_back(figure, lineNo);
            return;
        }
    }

    Result<bool> readLine(std::string_view line, int lineNo);
    VllmStartupLog& log() { return m_log; }
    std::optional<double> peakTorchAbsolute;  // V0 before PR #10511: the torch peak including the weights

private:
    void profilingLine(std::string_view line, int lineNo);
    VllmStartupLog m_log;
};

void LogReader::profilingLine(std::string_view line, int lineNo) {
    // "Memory profiling takes 17.96 seconds. Total non KV cache memory: 17.12GiB; torch peak memory increase: 1.89GiB;
    // non-torch forward increase memory: 0.25GiB; weights memory: 14.99GiB." One per pipeline stage: the stage with
    // the most non-KV memory is the tightest, and its figures are kept.
    ++m_log.profilingStages;
    std::optional<double> nonKv, peak, nonTorch, weights;
    number(line, lineNo, {"Total non KV cache memory"}, nonKv, "total non-KV memory");
    number(line, lineNo, {"torch peak memory increase"}, peak, "activation peak");
    number(line, lineNo, {"non-torch forward increase memory"}, nonTorch, "non-torch memory");
    number(line, lineNo, {"weights memory"}, weights, "weights");
    if (nonKv && (!m_log.nonKvGiB || *nonKv > *m_log.nonKvGiB)) {
        m_log.nonKvGiB = nonKv;
        if (peak) m_log.activationGiB = peak;
        if (nonTorch) m_log.nonTorchGiB = nonTorch;
        if (weights) m_log.weightsGiB = weights;
    }
}

Result<bool> LogReader::readLine(std::string_view line, int lineNo) {
    VllmStartupLog& g = m_log;
    // The sizing lines: a malformed figure here is an error that names the line.
    std::optional<double> v;
    for (auto [marker, figure] : {std::pair<std::string_view, const char*>{"GPU KV cache size:", "KV cache tokens"},
                                  {"Available KV cache memory:", "available KV cache memory"},
                                  {"Model loading took", "weights"},
                                  {"Loading model weights took", "weights"},
                                  {"GPU blocks:", "number of GPU blocks"}}) {
        auto r = strict(line, lineNo, marker, v, figure);
        if (!r) return r.error();
        if (!*r) continue;
        if (marker == "GPU KV cache size:")
            g.kvTokens = static_cast<long long>(*v);
        else if (marker == "Available KV cache memory:")
            g.availableKvGiB = v;
        else if (marker == "GPU blocks:")
            g.gpuBlocks = static_cast<long long>(*v);
        else
            g.weightsGiB = v;
    }
    if (const std::size_t p = line.find("Maximum concurrency for "); p != std::string_view::npos) {
        std::size_t e = 0;
        const auto tokens = numberAt(line, p + 24, &e);
        const std::size_t x = line.find("per request:", p);
        const auto conc = x == std::string_view::npos ? std::nullopt : numberAt(line, skipSeparators(line, x + 12));
        if (!tokens || !conc)
            return Error{g.source + ":" + std::to_string(lineNo) + ": could not read the maximum concurrency from \"" +
                         std::string(line.substr(p, std::min<std::size_t>(60, line.size() - p))) + "\""};
        g.concurrencyTokens = static_cast<long long>(*tokens);
        g.maxConcurrency = conc;
        g.lines.emplace_back("maximum concurrency", lineNo);
    }
    if (line.find("Memory profiling takes") != std::string_view::npos) profilingLine(line, lineNo);

    // Settings and the other figures, in every wording seen: lenient.
    number(line, lineNo, {"num_gpu_blocks is", "\"num_gpu_blocks\"", "'num_gpu_blocks'"}, g.gpuBlocks,
           "number of GPU blocks");
    number(line, lineNo, {"\"num_kv_tokens\"", "\"kv_cache_size_tokens\""}, g.kvTokens, "KV cache tokens");
    if (!g.maxConcurrency)
        number(line, lineNo, {"\"kv_cache_max_concurrency\""}, g.maxConcurrency, "maximum concurrency");
    number(line, lineNo, {"available_kv_cache_memory", "kv_cache_size"}, g.availableKvGiB, "available KV cache memory");
    number(line, lineNo, {"model weights take"}, g.weightsGiB, "weights");
    number(line, lineNo, {"PyTorch activation peak memory"}, g.activationGiB, "activation peak");
    number(line, lineNo, {"peak_torch_memory"}, peakTorchAbsolute, "torch peak (with the weights)");
    if (line.find("memory snapshot") == std::string_view::npos)
        number(line, lineNo, {"non_torch_memory"}, g.nonTorchGiB, "non-torch memory");
    number(line, lineNo, {"CUDA graph pool memory"}, g.cudaGraphGiB, "CUDA graph memory");
    if (line.find("Graph capturing finished") != std::string_view::npos)
        number(line, lineNo, {"took"}, g.cudaGraphGiB, "CUDA graph memory");
    number(line, lineNo, {"total_memory", "total_gpu_memory"}, g.totalGiB, "total GPU memory");
    if (const std::size_t p = line.find("Free memory on device ("); p != std::string_view::npos) {
        const std::size_t slash = line.find('/', p);
        if (slash != std::string_view::npos)
            if (const auto t = numberAt(line, slash + 1)) g.totalGiB = t;
    }
    if (std::optional<double> bytes;
        (number(line, lineNo, {"\"device_total_memory_bytes\""}, bytes, "total GPU memory"), bytes))
        g.totalGiB = *bytes / kLogGiB;
    // "Actual usage is 14.99 GiB for weight, 1.89 GiB for peak activation, 0.25 GiB for non-torch memory, and 0.91 GiB
    // for CUDAGraph memory" (later releases: "... for consumed memory (weights + non-torch)").
    for (auto [marker, field] : {std::pair<std::string_view, std::optional<double>*>{"GiB for weight", &g.weightsGiB},
                                 {"GiB for peak activation", &g.activationGiB},
                                 {"GiB for non-torch memory", &g.nonTorchGiB},
                                 {"GiB for CUDAGraph memory", &g.cudaGraphGiB}})
        if (const std::size_t p = line.find(marker); p != std::string_view::npos && !*field)
            if (const auto n = numberBefore(line, p)) *field = n;
    if (const std::size_t p = line.find("Desired GPU memory utilization is ("); p != std::string_view::npos) {
        std::size_t e = 0;
        if (const auto u = numberAt(line, p + 35, &e)) {
            g.utilization = u;
            if (const auto req = numberAt(line, skipSeparators(line, e + 1))) g.requestedGiB = req;
        }
    }
    number(line, lineNo, {"the current vLLM instance can use"}, g.requestedGiB, "requested memory");
    number(line, lineNo, {"gpu_memory_utilization", "--gpu-memory-utilization"}, g.utilization, "utilisation");
    number(line, lineNo, {"max_model_len", "--max-model-len", "max seq len"}, g.maxModelLen, "max_model_len");
    number(line, lineNo, {"max_num_batched_tokens to", "max_num_batched_tokens", "--max-num-batched-tokens"},
           g.maxNumBatchedTokens, "max_num_batched_tokens");
    number(line, lineNo, {"max_num_seqs to", "max_num_seqs", "--max-num-seqs"}, g.maxNumSeqs, "max_num_seqs");
    number(line, lineNo, {"tensor_parallel_size", "--tensor-parallel-size", "-tp"}, g.tensorParallel,
           "tensor-parallel size");
    number(line, lineNo, {"pipeline_parallel_size", "--pipeline-parallel-size", "-pp"}, g.pipelineParallel,
           "pipeline-parallel size");
    number(line, lineNo, {"block_size", "--block-size"}, g.blockSize, "block size");
    word(line, lineNo, {"kv_cache_dtype", "--kv-cache-dtype"}, g.kvCacheDtype, "KV cache dtype");
    word(line, lineNo, {"'dtype'", "\"dtype\"", "--dtype", " dtype="}, g.dtype, "dtype");
    word(line, lineNo, {"'quantization'", "\"quantization\"", "--quantization", " quantization="}, g.quantization,
         "quantization");
    word(line, lineNo, {"'model'", "\"model\"", "vllm serve"}, g.model, "model");
    word(line, lineNo, {"LLM engine (v", "\"vllm_version\"", "API server version"}, g.version, "vLLM version");
    if (line.find("V1 LLM engine") != std::string_view::npos || line.find("EngineCore") != std::string_view::npos)
        g.engine = "V1";
    if (!g.engine && (line.find("Memory profiling results") != std::string_view::npos ||
                      line.find("GPU blocks:") != std::string_view::npos))
        g.engine = "V0";  // the V0 worker's wordings
    if (line.find("'enforce_eager': True") != std::string_view::npos ||
        line.find("--enforce-eager") != std::string_view::npos)
        g.enforceEager = true;
    if (line.find("disable_custom_all_reduce\": true") != std::string_view::npos ||
        line.find("'disable_custom_all_reduce': True") != std::string_view::npos ||
        line.find("--disable-custom-all-reduce") != std::string_view::npos)
        g.customAllReduceDisabled = true;
    return true;
}

}  // namespace

Result<VllmStartupLog> parseVllmStartupLog(std::string_view text, const std::string& source) {
    LogReader reader(source);
    int lineNo = 0;
    std::size_t start = 0;
    while (start <= text.size()) {
        std::size_t end = text.find('\n', start);
        if (end == std::string_view::npos) end = text.size();
        std::string_view line = text.substr(start, end - start);
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        ++lineNo;
        auto r = reader.readLine(line, lineNo);
        if (!r) return r.error();
        if (end == text.size()) break;
        start = end + 1;
    }
    VllmStartupLog& g = reader.log();
    if (!g.activationGiB && reader.peakTorchAbsolute && g.weightsGiB)
        g.activationGiB = *reader.peakTorchAbsolute - *g.weightsGiB;  // V0's absolute peak, less the weights
    if (g.version && !g.version->empty() && (g.version->front() == 'v' || g.version->front() == 'V'))
        g.version->erase(0, 1);
    if (!g.kvTokens && !g.gpuBlocks && !g.availableKvGiB)
        return Error{source +
                     ": no KV-cache sizing line found (expected \"GPU KV cache size: N tokens\", \"# GPU "
                     "blocks: N\" or \"Available KV cache memory: X GiB\" as vLLM prints at start-up)"};
    return std::move(g);
}

Result<VllmStartupLog> readVllmStartupLog(const std::filesystem::path& path) {
    auto text = readTextFile(path, 64u << 20);
    if (!text) return text.error();
    return parseVllmStartupLog(*text, path.string());
}

namespace {

std::optional<WeightFormat> formatFromLog(const VllmStartupLog& g) {
    if (g.quantization) return parseWeightFormat(*g.quantization);
    if (g.dtype) {
        const std::string d = text::lower(*g.dtype);
        if (d == "float16" || d == "half") return WeightFormat::Fp16;
        if (d == "bfloat16" || d == "auto") return WeightFormat::Bf16;
    }
    return std::nullopt;
}

// K and V bytes per token on one GPU of the tightest (largest) stage.
std::uint64_t modelBytesPerTokenPerGpu(const ModelArchitecture& m, int tp, int pp, bool fp8) {
    const std::uint64_t layers = static_cast<std::uint64_t>((m.layers + pp - 1) / std::max(pp, 1));
    const std::uint64_t heads = std::max<std::uint64_t>(1, (static_cast<std::uint64_t>(m.kvHeads) + tp - 1) / tp);
    return 2 * layers * heads * static_cast<std::uint64_t>(m.headDim) * (fp8 ? 1 : 2);
}

struct Base {
    double poolBytes = 0;    // per GPU, as logged (or blocks x page)
    std::uint64_t page = 0;  // bytes per block at the logged KV dtype
};

VllmWhatIf answerFor(const VllmMeasured& me, const Base& base, std::string label, bool fp8Kv, double deltaBytes,
                     double utilization, long long context, std::optional<WeightFormat> weights, std::string basis) {
    VllmWhatIf a;
    a.label = std::move(label);
    a.fp8Kv = fp8Kv;
    a.weights = weights;
    a.utilization = utilization;
    a.context = context;
    a.basis = std::move(basis);
    const double pool = base.poolBytes + deltaBytes;
    a.poolGiB = pool / kLogGiB;
    std::uint64_t page = base.page;
    if (fp8Kv != me.fp8Kv) page = fp8Kv ? page / 2 : page * 2;
    if (deltaBytes == 0 && me.blocks > 0) {
        // The same pool: the blocks scale exactly with the bytes per element.
        a.blocks = fp8Kv == me.fp8Kv ? me.blocks : fp8Kv ? me.blocks * 2 : me.blocks / 2;
    } else if (pool > 0 && page > 0) {
        a.blocks = static_cast<std::uint64_t>(std::floor(pool / static_cast<double>(page)));
    }
    a.tokens = a.blocks * static_cast<std::uint64_t>(me.blockSize);
    if (context > 0) {
        a.maxConcurrency = static_cast<double>(a.tokens) / static_cast<double>(context);
        a.fits = a.tokens >= static_cast<std::uint64_t>(context);
    }
    return a;
}

}  // namespace

Result<VllmCalibration> calibrateFromVllmLog(const VllmStartupLog& log, const VllmWhatIfRequest& req) {
    VllmCalibration c;
    c.log = log;
    VllmMeasured& me = c.measured;
    me.utilization = log.utilization.value_or(kVllmDefaultUtilization);
    me.totalGiB = log.totalGiB;
    if (!me.totalGiB && log.requestedGiB && me.utilization > 0) me.totalGiB = *log.requestedGiB / me.utilization;
    me.availableKvGiB = log.availableKvGiB;
    me.tensorParallel = std::max(log.tensorParallel.value_or(1), 1);
    me.pipelineParallel = std::max(log.pipelineParallel.value_or(1), 1);
    me.maxModelLen = log.maxModelLen.value_or(log.concurrencyTokens.value_or(0));
    me.fp8Kv = log.kvCacheDtype && text::lower(*log.kvCacheDtype).rfind("fp8", 0) == 0;
    me.weights = formatFromLog(log);
    if (log.engine) {
        me.v1Engine = *log.engine == "V1";
    } else if (log.version) {
        auto v = parseVllmVersion(*log.version);
        me.v1Engine = !v || !(*v < VllmVersion{0, 8, 0, {}});
    }
    me.blockSize = log.blockSize.value_or(16);
    if (!log.blockSize && log.kvTokens && log.gpuBlocks && *log.gpuBlocks > 0 && *log.kvTokens % *log.gpuBlocks == 0)
        me.blockSize = static_cast<int>(*log.kvTokens / *log.gpuBlocks);
    if (me.blockSize < 1) me.blockSize = 16;
    const auto bs = static_cast<std::uint64_t>(me.blockSize);
    if (log.gpuBlocks) me.blocks = static_cast<std::uint64_t>(*log.gpuBlocks);
    if (log.kvTokens) me.tokens = static_cast<std::uint64_t>(*log.kvTokens);
    if (!me.tokens && me.blocks) me.tokens = me.blocks * bs;
    if (!me.blocks && me.tokens) me.blocks = me.tokens / bs;

    if (req.model) {
        me.kvBytesPerTokenPerGpu =
            modelBytesPerTokenPerGpu(*req.model, me.tensorParallel, me.pipelineParallel, me.fp8Kv);
        me.kvBytesFromModel = true;
    } else if (me.tokens && me.availableKvGiB && *me.availableKvGiB > 0) {
        // pool / tokens, to the nearest 128 bytes (2 x layers x heads x head_dim x bytes is a multiple of 128 for
        // every head_dim of 64 and more): exact for large pools, approximate for pools of a few GiB.
        const double perToken = *me.availableKvGiB * kLogGiB / static_cast<double>(me.tokens);
        me.kvBytesPerTokenPerGpu = static_cast<std::uint64_t>(std::llround(perToken / 128.0)) * 128;
    }
    if (!me.tokens && !me.kvBytesPerTokenPerGpu)
        return Error{log.source + ": the log gives the KV pool (" +
                     (me.availableKvGiB ? numfmt::fixed(*me.availableKvGiB, 2) + " GiB" : std::string("?")) +
                     ") but no token or block count; name the model (--model) to count its tokens"};

    Base base;
    base.page = bs * me.kvBytesPerTokenPerGpu;
    base.poolBytes = me.availableKvGiB ? *me.availableKvGiB * kLogGiB : static_cast<double>(me.blocks * base.page);
    if (!me.tokens && base.page > 0) {  // a V0 log with the pool only: count it with the model
        me.blocks = static_cast<std::uint64_t>(std::floor(base.poolBytes / static_cast<double>(base.page)));
        me.tokens = me.blocks * bs;
    }
    const long long ctx = me.maxModelLen;
    const std::string kvName = me.fp8Kv ? "FP8" : "BF16";

    VllmWhatIf logged =
        answerFor(me, base, "as logged", me.fp8Kv, 0, me.utilization, ctx, me.weights, "what vLLM reported");
    logged.tokens = me.tokens;
    logged.blocks = me.blocks;
    if (log.maxConcurrency) logged.maxConcurrency = *log.maxConcurrency;
    c.answers.push_back(logged);
    c.answers.push_back(
        answerFor(me, base, me.fp8Kv ? "BF16 KV cache" : "FP8 KV cache", !me.fp8Kv, 0, me.utilization, ctx, me.weights,
                  std::string("the same pool; ") + (me.fp8Kv ? "2 bytes" : "1 byte") + " per element instead of " +
                      (me.fp8Kv ? "1" : "2") + " (" + kvName + " logged)"));

    // FP8 weights: the pool grows by what FP8 saves on this GPU; needs the model and 16-bit weights in the log.
    const bool sixteenBit = !me.weights || *me.weights == WeightFormat::Bf16 || *me.weights == WeightFormat::Fp16;
    std::vector<WeightFormat> tries;
    if (sixteenBit) tries.push_back(WeightFormat::Fp8);
    if (req.weights && (tries.empty() || *req.weights != tries.front())) tries.push_back(*req.weights);
    const auto gpusPerCopy = static_cast<double>(me.tensorParallel * me.pipelineParallel);
    for (WeightFormat f : tries) {
        if (!req.model) {
            c.notes.push_back(std::string("weights in ") + weightFormatName(f) +
                              ": name the model (--model) to count what they save");
            break;
        }
        const WeightFormat from = me.weights.value_or(WeightFormat::Bf16);
        const double saved = (static_cast<double>(weightBytesOf(*req.model, from).total(req.model->layers)) -
                              static_cast<double>(weightBytesOf(*req.model, f).total(req.model->layers))) /
                             gpusPerCopy;
        const std::string basis = "the pool plus the " + numfmt::fixed(saved / kLogGiB, 2) + " GiB per GPU that " +
                                  weightFormatName(f) + " weights save over " + weightFormatName(from) +
                                  " (counted from the architecture)";
        const std::string name = f == WeightFormat::Fp8 ? "FP8" : weightFormatName(f);
        c.answers.push_back(answerFor(me, base, name + " weights", me.fp8Kv, saved, me.utilization, ctx, f, basis));
        c.answers.push_back(answerFor(me, base, name + " weights + FP8 KV cache", true, saved, me.utilization, ctx, f,
                                      basis + "; FP8 KV cache"));
    }
    if (!sixteenBit)
        c.notes.push_back(std::string("the logged weights are already ") + weightFormatName(*me.weights) +
                          ": no FP8-weights answer");

    if (req.utilization) {
        if (!me.totalGiB) {
            c.notes.push_back("another utilisation: the log does not give the GPU's total memory");
        } else {
            const double delta = (*req.utilization - me.utilization) * *me.totalGiB * kLogGiB;
            const std::string label = "utilisation " + numfmt::fixed(*req.utilization, 2);
            const std::string basis = "the pool " + std::string(delta >= 0 ? "plus " : "less ") +
                                      numfmt::fixed(std::fabs(delta) / kLogGiB, 2) + " GiB = (" +
                                      numfmt::fixed(*req.utilization, 2) + " - " + numfmt::fixed(me.utilization, 2) +
                                      ") x " + numfmt::fixed(*me.totalGiB, 2) + " GiB";
            c.answers.push_back(answerFor(me, base, label, me.fp8Kv, delta, *req.utilization, ctx, me.weights, basis));
            c.answers.push_back(answerFor(me, base, label + " + FP8 KV cache", true, delta, *req.utilization, ctx,
                                          me.weights, basis + "; FP8 KV cache"));
        }
    }
    if (req.context) {
        double delta = 0;
        std::string basis = "V1 sizes the pool without max_model_len: the same pool, another concurrency";
        if (!me.v1Engine) {
            // V0 profiles a whole max_model_len (at least 2048 tokens, chunked past 32K): the activation peak scales.
            const auto batch = [](long long c2) { return c2 > 32768 ? 2048.0 : std::max(2048.0, double(c2)); };
            if (log.activationGiB && ctx > 0) {
                const double act = *log.activationGiB * kLogGiB;
                delta = -act * (batch(*req.context) / batch(ctx) - 1);
                basis = "V0 profiles max_model_len tokens: the measured activation peak of " +
                        numfmt::fixed(*log.activationGiB, 2) + " GiB scaled to " +
                        numfmt::grouped(static_cast<std::uint64_t>(batch(*req.context))) + " tokens";
            } else {
                c.notes.push_back("another context on V0: the log gives no activation peak; the pool is kept");
            }
        }
        const std::string label = "context " + numfmt::grouped(static_cast<std::uint64_t>(*req.context));
        c.answers.push_back(
            answerFor(me, base, label, me.fp8Kv, delta, me.utilization, *req.context, me.weights, basis));
        c.answers.push_back(answerFor(me, base, label + " + FP8 KV cache", true, delta, me.utilization, *req.context,
                                      me.weights, basis + "; FP8 KV cache"));
    }
    return c;
}

namespace {

template <class T>
Json logOptional(const std::optional<T>& v) {
    return v ? Json(*v) : Json(nullptr);
}

}  // namespace

Json vllmCalibrationToJson(const VllmCalibration& c) {
    const VllmStartupLog& g = c.log;
    const VllmMeasured& me = c.measured;
    Json logged{{"source", g.source},
                {"vllm_version", logOptional(g.version)},
                {"engine", me.v1Engine ? "V1" : "V0"},
                {"model", logOptional(g.model)},
                {"kv_cache_dtype", logOptional(g.kvCacheDtype)},
                {"dtype", logOptional(g.dtype)},
                {"quantization", logOptional(g.quantization)},
                {"total_gib", logOptional(g.totalGiB)},
                {"gpu_memory_utilization", logOptional(g.utilization)},
                {"requested_gib", logOptional(g.requestedGiB)},
                {"weights_gib", logOptional(g.weightsGiB)},
                {"activation_peak_gib", logOptional(g.activationGiB)},
                {"non_torch_gib", logOptional(g.nonTorchGiB)},
                {"non_kv_total_gib", logOptional(g.nonKvGiB)},
                {"cuda_graph_gib", logOptional(g.cudaGraphGiB)},
                {"available_kv_cache_gib", logOptional(g.availableKvGiB)},
                {"gpu_kv_cache_tokens", logOptional(g.kvTokens)},
                {"num_gpu_blocks", logOptional(g.gpuBlocks)},
                {"max_concurrency", logOptional(g.maxConcurrency)},
                {"max_concurrency_tokens", logOptional(g.concurrencyTokens)},
                {"max_model_len", logOptional(g.maxModelLen)},
                {"max_num_batched_tokens", logOptional(g.maxNumBatchedTokens)},
                {"max_num_seqs", logOptional(g.maxNumSeqs)},
                {"tensor_parallel_size", logOptional(g.tensorParallel)},
                {"pipeline_parallel_size", logOptional(g.pipelineParallel)},
                {"block_size", logOptional(g.blockSize)},
                {"profiling_stages", g.profilingStages}};
    Json answers = Json::array();
    for (const VllmWhatIf& a : c.answers)
        answers.push_back(Json{{"label", a.label},
                               {"kv", a.fp8Kv ? "fp8" : "bf16"},
                               {"weights", a.weights ? Json(weightFormatName(*a.weights)) : Json(nullptr)},
                               {"gpu_memory_utilization", a.utilization},
                               {"context", a.context},
                               {"kv_pool_gib", a.poolGiB},
                               {"blocks", a.blocks},
                               {"tokens", a.tokens},
                               {"max_concurrency", logOptional(a.maxConcurrency)},
                               {"fits", a.fits},
                               {"basis", a.basis}});
    return Json{{"log", logged},
                {"measured", Json{{"tokens", me.tokens},
                                  {"blocks", me.blocks},
                                  {"block_size", me.blockSize},
                                  {"kv_bytes_per_token_per_gpu", me.kvBytesPerTokenPerGpu},
                                  {"kv_bytes_from", me.kvBytesFromModel ? "model" : "pool / tokens"}}},
                {"answers", answers},
                {"notes", c.notes}};
}

std::string vllmCalibrationToText(const VllmCalibration& c) {
    const VllmStartupLog& g = c.log;
    const VllmMeasured& me = c.measured;
    std::string t = "vLLM start-up log " + g.source + " (" + (g.version ? "vLLM " + *g.version + ", " : "") +
                    (me.v1Engine ? "V1" : "V0") + " engine" + (g.model ? ", " + *g.model : "") + ")\n";
    const auto line = [&t](const std::string& label, const std::string& value) {
        std::string l = "  " + label;
        l.resize(std::max<std::size_t>(l.size() + 2, 30), ' ');
        t += l + value + "\n";
    };
    const auto gibOr = [](const std::optional<double>& v) { return v ? numfmt::fixed(*v, 2) + " GiB" : "not logged"; };
    t += "What vLLM measured (per GPU):\n";
    line("total memory", gibOr(g.totalGiB));
    line("utilisation", numfmt::fixed(me.utilization, 2) + (g.utilization ? "" : " (vLLM's default; not logged)"));
    line("weights", gibOr(g.weightsGiB));
    line("activation peak", gibOr(g.activationGiB));
    line("non-torch memory", gibOr(g.nonTorchGiB));
    if (g.cudaGraphGiB) line("CUDA graphs", numfmt::fixed(*g.cudaGraphGiB, 2) + " GiB");
    line("available KV cache memory", gibOr(g.availableKvGiB));
    line("GPU KV cache size", numfmt::grouped(me.tokens) + " tokens = " + numfmt::grouped(me.blocks) + " blocks of " +
                                  std::to_string(me.blockSize) + (g.kvTokens || g.gpuBlocks ? "" : " (counted)"));
    if (g.maxConcurrency)
        line("maximum concurrency", numfmt::fixed(*g.maxConcurrency, 2) + "x for " +
                                        numfmt::grouped(static_cast<std::uint64_t>(g.concurrencyTokens.value_or(0))) +
                                        " tokens per request");
    t += "The same server (from these overheads; KV bytes per token per GPU " +
         numfmt::grouped(me.kvBytesPerTokenPerGpu) +
         (me.kvBytesFromModel ? ", from the model" : ", from pool / tokens") + "):\n";
    for (const VllmWhatIf& a : c.answers) {
        std::string v = numfmt::grouped(a.tokens) + " tokens, pool " + numfmt::fixed(a.poolGiB, 2) + " GiB";
        if (a.maxConcurrency) v += ", " + numfmt::fixed(*a.maxConcurrency, 2) + "x";
        if (!a.fits) v += ", DOES NOT FIT one sequence";
        line(a.label, v);
        if (a.label != "as logged") t += "      (" + a.basis + ")\n";
    }
    for (const std::string& n : c.notes) t += "  note: " + n + "\n";
    return t;
}

}  // namespace fp8dash
