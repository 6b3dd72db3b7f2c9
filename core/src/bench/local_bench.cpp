// Benchmark orchestration over gpu/ (local_bench.h): the request from a model preset, the run on gpu/'s worker
// thread, and the gpu/ JSON read back into core types.
#include "fp8dash/core/local_bench.h"
#include "fp8dash/core/number_format.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <sstream>
#include <stdexcept>
#include <tuple>

#include "bench/local_bench_dump.h"
#include "fp8dash/core/comparison_file.h"
#include "fp8dash/core/kv_headline.h"
#include "fp8dash/core/model_architecture.h"
#include "fp8dash/gpu/bench.h"
#include "fp8dash/gpu/device_query.h"

namespace fp8dash {
namespace {

// ---------------------------------------------------------------------------------------------------------------
// Reading the gpu/ JSON. A field error is thrown inside this file and becomes an Error at parseBenchResults.

struct FieldError {
    std::string message;
};

std::string typeName(const Json& v) {
    return v.is_null() ? "null" : v.type_name();
}

class ObjectReader {
public:
    ObjectReader(const Json& object, std::string where) : m_object(object), m_where(std::move(where)) {
        if (!object.is_object()) throw FieldError{m_where + " must be an object, found " + typeName(object)};
    }

    const std::string& where() const { return m_where; }
    std::string path(const char* key) const { return m_where + "." + key; }

    const Json* find(const char* key) const {
        auto it = m_object.find(key);
        return it == m_object.end() ? nullptr : &*it;
    }
    const Json& require(const char* key) const {
        const Json* v = find(key);
        if (!v) throw FieldError{path(key) + " is missing"};
        return *v;
    }

    std::string string(const char* key, bool required = false) const {
        const Json* v = required ? &require(key) : find(key);
        if (!v || (!required && v->is_null())) return {};
        if (!v->is_string()) throw FieldError{path(key) + " must be a string, found " + typeName(*v)};
        return v->get<std::string>();
    }
    bool boolean(const char* key, bool required = false) const {
        const Json* v = required ? &require(key) : find(key);
        if (!v) return false;
        if (!v->is_boolean()) throw FieldError{path(key) + " must be true or false, found " + typeName(*v)};
        return v->get<bool>();
    }
    // A whole number >= 0 that fits `max`.
    long long count(const char* key, bool required = false, long long max = std::numeric_limits<int>::max()) const {
        const Json* v = required ? &require(key) : find(key);
        if (!v) return 0;
        if (!v->is_number_integer() ||
            (v->is_number_unsigned() ? v->get<unsigned long long>() > static_cast<unsigned long long>(max)
                                     : v->get<long long>() < 0 || v->get<long long>() > max))
            throw FieldError{path(key) + " must be a whole number in [0, " + std::to_string(max) + "], found " +
                             v->dump()};
        return v->get<long long>();
    }
    std::uint64_t bytes(const char* key) const {
        return static_cast<std::uint64_t>(count(key, false, std::numeric_limits<long long>::max()));
    }
    // A measurement: a number, or null where the writer had no finite value (NaN here).
    double number(const char* key, bool required = false) const {
        const Json* v = required ? &require(key) : find(key);
        if (!v || v->is_null()) return std::numeric_limits<double>::quiet_NaN();
        if (!v->is_number()) throw FieldError{path(key) + " must be a number or null, found " + typeName(*v)};
        return v->get<double>();
    }
    double numberOr(const char* key, double fallback) const {
        const Json* v = find(key);
        return v ? number(key) : fallback;
    }
    std::optional<double> optionalNumber(const char* key) const {
        const Json* v = find(key);
        if (!v || v->is_null()) return std::nullopt;
        return number(key);
    }
    const Json& array(const char* key, bool required = false) const {
        static const Json empty = Json::array();
        const Json* v = required ? &require(key) : find(key);
        if (!v || (!required && v->is_null())) return empty;
        if (!v->is_array()) throw FieldError{path(key) + " must be a list, found " + typeName(*v)};
        return *v;
    }

private:
    const Json& m_object;
    std::string m_where;
};

BenchSampleSummary readStats(const ObjectReader& r) {
    BenchSampleSummary s;
    s.samples = static_cast<int>(r.count("samples"));
    s.throttledSamples = static_cast<int>(r.count("throttled_samples"));
    s.medianSeconds = r.numberOr("median_s", 0);
    s.relStdDev = r.numberOr("noise", 0);
    s.converged = r.boolean("converged");
    // Optional: written by GPU runs that recorded the clock; absent (older files, CPU runs) means not measured.
    if (const auto clock = r.optionalNumber("sm_clock_mhz")) {
        if (!std::isfinite(*clock) || *clock < 0)
            throw FieldError{r.path("sm_clock_mhz") + " must be a clock in MHz (0 or more), found " +
                             Json(*clock).dump()};
        s.smClockMHz = *clock;
    }
    return s;
}

BenchDevice readDevice(const Json& j, const std::string& where) {
    const ObjectReader r(j, where);
    BenchDevice d;
    d.available = r.boolean("available", true);
    d.backend = r.string("backend");
    d.name = r.string("name");
    d.computeCapability = r.string("compute_capability");
    d.memoryBytes = r.bytes("memory_bytes");
    d.multiprocessors = static_cast<int>(r.count("multiprocessors"));
    d.reason = r.string("reason");
    if (const Json* peak = r.find("peak"); peak && !peak->is_null()) {
        const ObjectReader p(*peak, r.path("peak"));
        BenchPeak bp;
        bp.name = p.string("name");
        bp.fp8DenseTflops = p.numberOr("fp8_dense_tflops", 0);
        bp.bf16DenseTflops = p.numberOr("bf16_dense_tflops", 0);
        bp.memoryBandwidthGBps = p.numberOr("memory_bandwidth_gbps", 0);
        d.peak = bp;
    }
    return d;
}

std::string itemWhere(const std::string& where, const char* key, std::size_t i) {
    return where + "." + key + "[" + std::to_string(i) + "]";
}

// One side of a KV row: the error figures, and (fp8dash 0.3 on) the saturated count and the scales used.
BenchKvSide readKvSide(const Json& j, const std::string& where) {
    const ObjectReader r(j, where);
    BenchKvSide side;
    side.relRmse = r.number("rel_rmse", true);
    side.maxAbsError = r.numberOr("max_abs_error", 0);
    side.cosine = r.numberOr("cosine", 1);
    if (const Json* n = r.find("saturated"); n && !n->is_null())
        side.saturated = static_cast<std::uint64_t>(r.count("saturated", true, std::numeric_limits<long long>::max()));
    const Json& scales = r.array("scales");
    for (std::size_t i = 0; i < scales.size(); ++i) {
        if (!scales[i].is_number())
            throw FieldError{itemWhere(where, "scales", i) + " must be a number, found " + typeName(scales[i])};
        side.scales.push_back(scales[i].get<double>());
    }
    return side;
}

// [low, high]: two numbers, low <= high.
BenchInterval readInterval(const Json& j, const std::string& where) {
    if (!j.is_array() || j.size() != 2 || !j[0].is_number() || !j[1].is_number() ||
        !(j[0].get<double>() <= j[1].get<double>()))
        throw FieldError{where + " must be [low, high], two numbers with low <= high, found " + j.dump()};
    return {j[0].get<double>(), j[1].get<double>()};
}

// The intervals of the attention-output error (optional: files before them have none of these fields).
void readKvIntervals(const ObjectReader& k, BenchKvPoint& p) {
    p.attnRows = static_cast<std::uint64_t>(k.count("attn_rows", false, std::numeric_limits<long long>::max()));
    p.attnHeads = static_cast<std::uint64_t>(k.count("attn_heads", false, std::numeric_limits<long long>::max()));
    if (const Json* ci = k.find("attn_out_ci95"); ci && !ci->is_null())
        p.attnOutCi95 = readInterval(*ci, k.path("attn_out_ci95"));
    if (const Json* vs = k.find("attn_out_vs_per_tensor"); vs && !vs->is_null()) {
        const ObjectReader d(*vs, k.path("attn_out_vs_per_tensor"));
        p.attnOutVsPerTensor = d.number("difference", true);
        p.attnOutVsPerTensorCi95 = readInterval(d.require("ci95"), d.path("ci95"));
    }
}

// The source of the sweep's K and V: {"kind", "description", "shape": [layers, kv_heads, tokens, head_dim]}.
BenchKvSource readKvSource(const Json& j, const std::string& where) {
    const ObjectReader r(j, where);
    BenchKvSource source;
    source.kind = r.string("kind", true);
    if (source.kind.empty()) throw FieldError{r.path("kind") + " must name the source (\"synthetic\" or \"dump\")"};
    source.description = r.string("description");
    const Json& shape = r.array("shape");
    if (!shape.empty() && shape.size() != 4)
        throw FieldError{r.path("shape") + " must hold 4 sizes [layers, kv_heads, tokens, head_dim], found " +
                         std::to_string(shape.size())};
    for (std::size_t i = 0; i < shape.size(); ++i) {
        if (!shape[i].is_number_integer() || shape[i].get<long long>() < 1)
            throw FieldError{itemWhere(where, "shape", i) + " must be a whole number >= 1, found " + shape[i].dump()};
        source.shape.push_back(shape[i].get<long long>());
    }
    return source;
}

// One point of the KV sweep (kv-contract). A row of an older fp8dash has attn_rel_error and none of the attention,
// saturation, scale or source fields: its figure is kept as legacyAttnRelError and the new ones stay NaN / unset.
BenchKvPoint readKvPoint(const Json& j, const std::string& where) {
    const ObjectReader k(j, where);
    BenchKvPoint p;
    p.scaling = k.string("scaling", true);
    p.context = static_cast<int>(k.count("context", true));
    if (const Json* source = k.find("source"); source && !source->is_null())
        p.source = readKvSource(*source, k.path("source"));
    p.relRmse = k.number("rel_rmse", true);
    p.maxAbsError = k.numberOr("max_abs_error", 0);
    p.cosine = k.numberOr("cosine", 1);
    if (const Json* key = k.find("key"); key && !key->is_null()) p.key = readKvSide(*key, k.path("key"));
    if (const Json* value = k.find("value"); value && !value->is_null()) p.value = readKvSide(*value, k.path("value"));
    p.hasAttentionMetrics = k.find("attn_out_rel_rmse") != nullptr;
    p.attnOutRelRmse = k.number("attn_out_rel_rmse");
    p.attnOutCosine = k.number("attn_out_cosine");
    p.attnWeightTvd = k.number("attn_weight_tvd");
    p.attnWeightTvdMax = k.number("attn_weight_tvd_max");
    p.attnEntropy = k.number("attn_entropy");
    readKvIntervals(k, p);
    if (k.find("attn_rel_error")) p.legacyAttnRelError = k.number("attn_rel_error");
    p.elements = k.bytes("elements");
    p.seconds = k.numberOr("seconds", 0);
    p.elementsPerSecond = k.numberOr("elements_per_s", 0);
    return p;
}

BenchResults readResults(const Json& j, const std::string& where) {
    const ObjectReader r(j, where);
    BenchResults out;
    out.created = r.string("created");
    out.backend = r.string("backend", true);
    out.model = r.string("model");
    out.device = readDevice(r.require("device"), r.path("device"));

    const Json& gemm = r.array("gemm", true);
    for (std::size_t i = 0; i < gemm.size(); ++i) {
        const ObjectReader g(gemm[i], itemWhere(where, "gemm", i));
        BenchGemmPoint p;
        p.layer = g.string("layer", true);
        p.m = static_cast<int>(g.count("m", true));
        p.n = static_cast<int>(g.count("n", true));
        p.k = static_cast<int>(g.count("k", true));
        p.precision = g.string("precision", true);
        p.fastAccum = g.boolean("fast_accum");
        p.skipped = g.string("skipped");
        p.stats = readStats(g);
        p.algorithmsTried = static_cast<int>(g.count("algorithms_tried"));
        p.tflops = g.numberOr("tflops", 0);
        p.bytesPerSecond = g.numberOr("bytes_per_s", 0);
        p.roofTflops = g.optionalNumber("roof_tflops");
        p.bound = g.string("bound");
        p.percentOfRoof = g.numberOr("percent_of_roof", 0);
        p.speedupVsBf16 = g.numberOr("speedup_vs_bf16", 0);
        out.gemm.push_back(std::move(p));
    }
    out.gemmSkipped = r.string("gemm_skipped");

    const Json& bandwidth = r.array("bandwidth", true);
    for (std::size_t i = 0; i < bandwidth.size(); ++i) {
        const ObjectReader b(bandwidth[i], itemWhere(where, "bandwidth", i));
        BenchBandwidthPoint p;
        p.kernel = b.string("kernel", true);
        p.bytes = b.bytes("bytes");
        p.skipped = b.string("skipped");
        p.stats = readStats(b);
        p.bytesPerSecond = b.numberOr("bytes_per_s", 0);
        p.percentOfPeak = b.numberOr("percent_of_peak", 0);
        out.bandwidth.push_back(std::move(p));
    }
    out.bandwidthSkipped = r.string("bandwidth_skipped");

    const Json& kv = r.array("kv", true);
    for (std::size_t i = 0; i < kv.size(); ++i) {
        out.kv.push_back(readKvPoint(kv[i], itemWhere(where, "kv", i)));
    }
    out.kvBackend = r.string("kv_backend");

    const Json& kernel = r.array("kv_kernel");
    for (std::size_t i = 0; i < kernel.size(); ++i) {
        const ObjectReader k(kernel[i], itemWhere(where, "kv_kernel", i));
        BenchKvKernelPoint p;
        p.scaling = k.string("scaling", true);
        p.elements = k.bytes("elements");
        p.skipped = k.string("skipped");
        p.stats = readStats(k);
        p.bytesPerSecond = k.numberOr("bytes_per_s", 0);
        p.percentOfPeak = k.numberOr("percent_of_peak", 0);
        p.matchesCpu = k.boolean("matches_cpu");
        out.kvKernel.push_back(std::move(p));
    }
    out.kvSkipped = r.string("kv_skipped");

    const Json& warnings = r.array("warnings");
    for (std::size_t i = 0; i < warnings.size(); ++i) {
        if (!warnings[i].is_string())
            throw FieldError{itemWhere(where, "warnings", i) + " must be a string, found " + typeName(warnings[i])};
        out.warnings.push_back(warnings[i].get<std::string>());
    }
    out.cancelled = r.boolean("cancelled");
    return out;
}

// ---------------------------------------------------------------------------------------------------------------
// Options

constexpr int kMaxBenchContextTokens = 1 << 20;  // 1M tokens: past every preset's max_position_embeddings
constexpr int kMaxGemmTokens = 65536;
const std::vector<int> kDefaultGemmTokens{1, 8, 32, 128, 512, 2048, 8192};
const std::vector<int> kGpuContexts{1024, 4096, 16384, 65536, 131072};
const std::vector<int> kCpuContexts{1024, 4096, 16384};

Status checkRange(const std::vector<int>& values, int min, int max, const char* what) {
    for (int v : values)
        if (v < min || v > max)
            return Error{std::string(what) + " " + std::to_string(v) + " is out of range: expected " +
                         std::to_string(min) + " to " + std::to_string(max)};
    return success();
}

// ---------------------------------------------------------------------------------------------------------------
// Text

using numfmt::fixed;
using numfmt::general;

std::string padRight(std::string s, std::size_t width) {
    if (s.size() < width) s.append(width - s.size(), ' ');
    return s;
}

std::string padLeft(std::string s, std::size_t width) {
    if (s.size() < width) s.insert(0, width - s.size(), ' ');
    return s;
}

std::string gigabytes(double bytes) {
    return fixed(bytes / 1e9, 1) + " GB";
}

std::string percent(double fraction100) {
    return fixed(fraction100, 0) + "%";
}

std::string noise(const BenchSampleSummary& s) {
    return fixed(s.relStdDev * 100.0, 1) + "%" + (s.converged ? "" : "*");
}

// Issue 26: the figures a benchmark section derives from its own medians (a GEMM row's TFLOP/s and % of its roof, an
// FP8 row's speedup over the BF16 row of the same shape, a bandwidth row's bytes/s and % of the peak) are computed
// again from the stored medians, shapes, roofs and peak as gpu/ computes them when it measures; a stored figure that
// disagrees (a hand-edited "speedup_vs_bf16": 9.0) is replaced in the results and in the section kept for output and
// saving, and a warning names the row, the field and both values. A figure within 0.5 % of its re-derived value
// is kept as stored: fp8dash writes full doubles (they read back to the bit), but a figure rounded by another writer
// is no claim to correct, and no hand edit that changes what a reader concludes fits in 0.5 %.
void rederiveRatios(BenchResults& r) {
    const auto agree = [](double stored, double derived) {
        return std::fabs(stored - derived) <= 0.005 * std::max(std::fabs(stored), std::fabs(derived));
    };
    const auto settle = [&](double& field, double derived, const char* section, std::size_t i, const char* key,
                            const std::string& row) {
        if (agree(field, derived)) return;
        const std::string warning = "benchmarks: " + std::string(section) + "[" + std::to_string(i) + "] (" + row +
                                    ") " + key + ": the file says " + numfmt::general(field, 6) +
                                    ", its own median gives " + numfmt::general(derived, 6) +
                                    "; shown as computed from the median";
        r.warnings.push_back(warning);
        if (r.raw.is_object() && r.raw.contains("warnings") && r.raw["warnings"].is_array())
            r.raw["warnings"].push_back(warning);
        field = derived;
        if (r.raw.is_object() && r.raw.contains(section) && r.raw[section].is_array() && i < r.raw[section].size() &&
            r.raw[section][i].is_object())
            r.raw[section][i][key] = derived;
    };
    const auto measured = [](const std::string& skipped, const BenchSampleSummary& s) {
        return skipped.empty() && s.medianSeconds > 0 && std::isfinite(s.medianSeconds);
    };
    for (std::size_t i = 0; i < r.gemm.size(); ++i) {
        BenchGemmPoint& p = r.gemm[i];
        if (!measured(p.skipped, p.stats) || p.m <= 0 || p.n <= 0 || p.k <= 0) continue;
        const std::string row = p.layer + " " + std::to_string(p.m) + "x" + std::to_string(p.n) + "x" +
                                std::to_string(p.k) + " " + p.precision;
        const double tflops = 2.0 * p.m * p.n * p.k / p.stats.medianSeconds / 1e12;
        settle(p.tflops, tflops, "gemm", i, "tflops", row);
        if (p.roofTflops && *p.roofTflops > 0)
            settle(p.percentOfRoof, tflops / *p.roofTflops * 100, "gemm", i, "percent_of_roof", row);
        if (p.precision == "bf16") continue;  // FP8 and FP4 rows: their speed-up over BF16
        const BenchGemmPoint* bf16 = nullptr;
        for (const BenchGemmPoint& q : r.gemm)
            if (q.precision == "bf16" && q.layer == p.layer && q.m == p.m && q.n == p.n && q.k == p.k &&
                measured(q.skipped, q.stats))
                bf16 = &q;
        settle(p.speedupVsBf16, bf16 ? bf16->stats.medianSeconds / p.stats.medianSeconds : 0.0, "gemm", i,
               "speedup_vs_bf16", row);
    }
    const double peakBytes = r.device.peak ? r.device.peak->memoryBandwidthGBps * 1e9 : 0.0;
    for (std::size_t i = 0; i < r.bandwidth.size(); ++i) {
        BenchBandwidthPoint& b = r.bandwidth[i];
        if (!measured(b.skipped, b.stats) || b.bytes == 0) continue;
        const double perSecond = static_cast<double>(b.bytes) / b.stats.medianSeconds;
        settle(b.bytesPerSecond, perSecond, "bandwidth", i, "bytes_per_s", b.kernel);
        if (peakBytes > 0)
            settle(b.percentOfPeak, perSecond / peakBytes * 100, "bandwidth", i, "percent_of_peak", b.kernel);
    }
}

}  // namespace

double BenchGemmPoint::arithmeticIntensity() const {
    const gpu::GemmPrecision p = gpu::parseGemmPrecision(precision).value_or(gpu::GemmPrecision::Bf16);
    const gpu::GemmShape shape{layer, m, n, k};
    const double bytes = shape.minBytes(p);
    return bytes > 0 ? shape.flops() / bytes : 0.0;
}

Result<BenchResults> parseBenchResults(const Json& j, const std::string& where) {
    try {
        BenchResults results = readResults(j, where);
        results.raw = j;
        rederiveRatios(results);
        return results;
    } catch (const FieldError& e) {
        return Error{e.message};
    } catch (const nlohmann::json::exception& e) {
        return Error{where + ": " + e.what()};
    }
}

Result<BenchResults> runLocalBench(const LocalBenchOptions& options, const BenchProgressFn& progress) {
    auto model = resolveModel(options.model);
    if (!model) return model.error();
    const ModelArchitecture& arch = *model;

    const std::vector<int>& tokens = options.gemmTokens.empty() ? kDefaultGemmTokens : options.gemmTokens;
    if (auto s = checkRange(tokens, 1, kMaxGemmTokens, "GEMM token count"); !s) return s.error();
    if (auto s = checkRange(options.kvContexts, 1, kMaxBenchContextTokens, "KV context length"); !s) return s.error();
    if (options.kvLayers < 1 || options.kvLayers > arch.layers)
        return Error{"KV layers " + std::to_string(options.kvLayers) + " is out of range: " + arch.name + " has " +
                     std::to_string(arch.layers) + " layers"};
    if (arch.kvHeads < 1 || arch.headDim < 1 || arch.hiddenSize < 1 || arch.intermediateSize < 1)
        return Error{arch.name + ": the model's shapes are incomplete (hidden, heads, kv heads, head dim, MLP size)"};

    gpu::BenchRequest request;
    request.gemm = options.gemm;
    request.bandwidth = options.bandwidth;
    request.kv = options.kv;
    request.cpuOnly = options.cpuOnly;
    request.model = arch.name;
    request.fp8FastAccum = options.fp8FastAccum;
    request.fp4 = true;  // NVFP4 / MXFP4 rows: measured on Blackwell, skipped with the reason elsewhere (issue 41)

    gpu::LinearDims dims;
    dims.hidden = arch.hiddenSize;
    dims.heads = arch.attentionHeads;
    dims.kvHeads = arch.kvHeads;
    dims.headDim = arch.headDim;
    dims.intermediate = arch.intermediateSize;
    try {
        request.gemmShapes = gpu::linearLayerShapes(dims, tokens, options.square);
    } catch (const std::invalid_argument& e) {
        return Error{arch.name + ": " + e.what()};
    }

    // Which implementation will run decides the default contexts: the CPU twin sweeps the short ones only.
    bool gpuWillRun = false;
    if (!options.cpuOnly && gpu::builtWithCuda()) gpuWillRun = gpu::makeDeviceQuery()->query().hasUsableDevice();
    request.kvSweep.shape = gpu::KvShape{options.kvLayers, arch.kvHeads, arch.headDim, 1};
    request.kvSweep.contexts =
        options.kvContexts.empty() ? (gpuWillRun ? kGpuContexts : kCpuContexts) : options.kvContexts;
    if (auto s = useKvDump(options, gpuWillRun ? kGpuContexts : kCpuContexts, request.kvSweep); !s) return s.error();
    // The calibration prefix is the first prompt; a sweep of short contexts calibrates on at most its shortest.
    request.kvSweep.calibrationTokens =
        std::min(request.kvSweep.calibrationTokens,
                 *std::min_element(request.kvSweep.contexts.begin(), request.kvSweep.contexts.end()));

    const gpu::BenchReport report = gpu::runBench(request, progress);

    Json gpuJson;
    try {
        gpuJson = Json::parse(gpu::benchReportToJson(report));
    } catch (const nlohmann::json::exception& e) {
        return Error{std::string("the benchmark report is not valid JSON (a bug): ") + e.what()};
    }
    // "created" first, then the gpu/ fields in their order (Json keeps insertion order).
    Json raw = Json::object();
    raw["created"] = nowIso8601Utc();
    for (auto& [key, value] : gpuJson.items()) raw[key] = std::move(value);
    return parseBenchResults(raw, "benchmark report");
}

namespace {

// The device line (name, compute capability, memory, SMs) and its datasheet figures, or why there is no GPU.
void benchDeviceText(std::ostream& out, const BenchResults& r) {
    const BenchDevice& d = r.device;
    if (d.available && !d.name.empty()) {
        out << "Device: " << d.name;
        std::vector<std::string> parts;
        if (!d.computeCapability.empty()) parts.push_back("cc " + d.computeCapability);
        if (d.memoryBytes > 0) parts.push_back(gigabytes(static_cast<double>(d.memoryBytes)));
        if (d.multiprocessors > 0) parts.push_back(std::to_string(d.multiprocessors) + " SMs");
        if (!parts.empty()) {
            out << " (";
            for (std::size_t i = 0; i < parts.size(); ++i) out << (i ? ", " : "") << parts[i];
            out << ")";
        }
        out << "\n";
        if (d.peak)
            out << "Datasheet (" << d.peak->name << "): FP8 " << general(d.peak->fp8DenseTflops, 6) << " / BF16 "
                << general(d.peak->bf16DenseTflops, 6) << " TFLOP/s dense, " << general(d.peak->memoryBandwidthGBps, 6)
                << " GB/s\n";
        else
            out << "Datasheet: not in fp8dash's table, so no % of peak\n";
    } else {
        out << "Device: no usable GPU — " << (d.reason.empty() ? "no reason given" : d.reason) << "\n";
    }
}

// GEMM: one row per shape, BF16 and FP8 side by side, then the shapes skipped and what "roof" means.
void benchGemmText(std::ostream& out, const BenchResults& r) {
    out << "\nGEMM (TFLOP/s, median; noise = relative standard deviation, * = not converged)\n";
    if (r.gemm.empty()) {
        out << "  skipped: " << (r.gemmSkipped.empty() ? "no results" : r.gemmSkipped) << "\n";
    } else {
        using Key = std::tuple<std::string, int, int, int>;
        struct Row {
            const BenchGemmPoint* bf16 = nullptr;
            const BenchGemmPoint* fp8 = nullptr;
            const BenchGemmPoint* fp8Fast = nullptr;
            const BenchGemmPoint* nvfp4 = nullptr;
            const BenchGemmPoint* mxfp4 = nullptr;
        };
        std::vector<Key> order;
        std::map<Key, Row> rows;
        bool anyFast = false;
        bool fp4Measured = false;  // FP4 columns only where an FP4 row ran (a Blackwell GPU)
        bool fp4NeedsTensorCores = false;
        for (const auto& g : r.gemm) {
            const Key key{g.layer, g.m, g.n, g.k};
            if (!rows.count(key)) order.push_back(key);
            Row& row = rows[key];
            const bool fp4 = g.precision == "nvfp4_e2m1" || g.precision == "mxfp4_e2m1";
            if (fp4) {
                (g.precision == "nvfp4_e2m1" ? row.nvfp4 : row.mxfp4) = &g;
                fp4Measured = fp4Measured || g.skipped.empty();
                fp4NeedsTensorCores = fp4NeedsTensorCores || g.skipped.rfind(gpu::kFp4NeedsTensorCores, 0) == 0;
            } else if (g.precision == "bf16") {
                row.bf16 = &g;
            } else if (g.fastAccum) {
                row.fp8Fast = &g, anyFast = true;
            } else {
                row.fp8 = &g;
            }
        }
        auto rate = [](const BenchGemmPoint* p) {
            if (!p) return std::string("-");
            if (!p->skipped.empty()) return std::string("skipped");
            return fixed(p->tflops, 1);
        };
        auto roof = [](const BenchGemmPoint* p) {
            if (!p || !p->skipped.empty() || !p->roofTflops) return std::string("-");
            return percent(p->percentOfRoof) + " " + (p->bound == "memory" ? "mem" : "cmp");
        };
        out << "  " << padRight("layer", 8) << padRight("M x N x K", 22) << padLeft("BF16", 9) << padLeft("FP8", 9)
            << padLeft("speedup", 9) << (anyFast ? padLeft("FP8 fast", 10) : "")
            << (fp4Measured ? padLeft("NVFP4", 9) + padLeft("MXFP4", 9) : "") << padLeft("BF16 roof", 11)
            << padLeft("FP8 roof", 11) << padLeft("noise", 9) << "\n";
        std::vector<std::string> reasons;
        for (const Key& key : order) {
            const Row& row = rows[key];
            const auto& [layer, m, n, k] = key;
            std::string speedup = "-";
            if (row.fp8 && row.fp8->skipped.empty() && row.fp8->speedupVsBf16 > 0)
                speedup = fixed(row.fp8->speedupVsBf16, 2) + "x";
            double worstNoise = 0;
            bool allConverged = true;
            for (const BenchGemmPoint* p : {row.bf16, row.fp8, row.fp8Fast, row.nvfp4, row.mxfp4}) {
                if (!p || !p->skipped.empty()) continue;
                worstNoise = std::max(worstNoise, p->stats.relStdDev);
                allConverged = allConverged && p->stats.converged;
            }
            out << "  " << padRight(layer, 8)
                << padRight(std::to_string(m) + " x " + std::to_string(n) + " x " + std::to_string(k), 22)
                << padLeft(rate(row.bf16), 9) << padLeft(rate(row.fp8), 9) << padLeft(speedup, 9)
                << (anyFast ? padLeft(rate(row.fp8Fast), 10) : "")
                << (fp4Measured ? padLeft(rate(row.nvfp4), 9) + padLeft(rate(row.mxfp4), 9) : "")
                << padLeft(roof(row.bf16), 11) << padLeft(roof(row.fp8), 11)
                << padLeft(noise(BenchSampleSummary{0, 0, 0, worstNoise, allConverged}), 9) << "\n";
            for (const BenchGemmPoint* p : {row.bf16, row.fp8, row.fp8Fast, row.nvfp4, row.mxfp4})
                if (p && !p->skipped.empty() &&
                    !(fp4NeedsTensorCores && p->skipped.rfind(gpu::kFp4NeedsTensorCores, 0) == 0))
                    reasons.push_back(layer + " M=" + std::to_string(m) + " " + p->precision + ": " + p->skipped);
        }
        for (const auto& reason : reasons) out << "  skipped " << reason << "\n";
        // One line for the FP4 rows a GPU without FP4 tensor cores skips (each row's JSON keeps its reason).
        if (fp4NeedsTensorCores)
            out << "  " << gpu::kFp4NeedsTensorCores << ": the NVFP4 and MXFP4 rows were not run on "
                << (r.device.name.empty() ? std::string("this GPU") : r.device.name) << "\n";
        out << "  roof: attainable TFLOP/s of the shape = min(datasheet peak, FLOP/byte x datasheet bandwidth); "
               "mem/cmp = memory- or compute-bound\n";
    }
}

}  // namespace

std::string benchResultsToText(const BenchResults& r) {
    std::ostringstream out;
    out << "Local FP8 benchmarks";
    if (!r.model.empty()) out << " for " << r.model;
    out << " (" << (r.backend.empty() ? "?" : r.backend) << " backend";
    if (!r.created.empty()) out << ", " << r.created;
    out << ")" << (r.cancelled ? " — CANCELLED, partial results" : "") << "\n";

    benchDeviceText(out, r);
    benchGemmText(out, r);

    out << "\nMemory bandwidth\n";
    if (r.bandwidth.empty()) {
        out << "  skipped: " << (r.bandwidthSkipped.empty() ? "no results" : r.bandwidthSkipped) << "\n";
    } else {
        for (const auto& b : r.bandwidth) {
            out << "  " << padRight(b.kernel, 6) << padLeft(gigabytes(static_cast<double>(b.bytes)), 10) << "  ";
            if (!b.skipped.empty()) {
                out << "skipped: " << b.skipped << "\n";
                continue;
            }
            out << padLeft(fixed(b.bytesPerSecond / 1e9, 0) + " GB/s", 12);
            if (b.percentOfPeak > 0) out << "  " << percent(b.percentOfPeak) << " of datasheet";
            out << "  noise " << noise(b.stats) << "\n";
        }
    }

    out << kvResultsText(r);  // the table, its source and the headline (kv_headline.h)
    if (!r.kvKernel.empty()) {
        out << "\nKV quantise kernel (BF16 in, E4M3 out)\n";
        for (const auto& k : r.kvKernel) {
            out << "  " << padRight(k.scaling, 12);
            if (!k.skipped.empty()) {
                out << "skipped: " << k.skipped << "\n";
                continue;
            }
            out << padLeft(fixed(k.bytesPerSecond / 1e9, 0) + " GB/s", 12);
            if (k.percentOfPeak > 0) out << "  " << percent(k.percentOfPeak) << " of datasheet";
            out << "  codes " << (k.matchesCpu ? "match" : "DIFFER FROM") << " the CPU codec  noise " << noise(k.stats)
                << "\n";
        }
    }
    if (!r.warnings.empty()) {
        out << "\nWarnings\n";
        for (const auto& w : r.warnings) out << "  " << w << "\n";
    }
    return out.str();
}

Json capacitySettingsToJson(const CapacitySettings& s) {
    Json j{{"model", s.model},
           {"gpu", s.gpu},
           {"gpus", s.gpus},
           {"weights", s.weights},
           {"kv", s.kv},
           {"gpu_utilization", s.gpuUtilization},
           {"context_tokens", s.contextTokens},
           {"overhead_gib", s.overheadGiB}};
    if (!s.vllmVersion.empty()) j["vllm_version"] = s.vllmVersion;  // optional: older files plan with the flat overhead
    return j;
}

Result<CapacitySettings> parseCapacitySettings(const Json& j, const std::string& where) {
    try {
        const ObjectReader r(j, where);
        CapacitySettings s;
        s.model = r.string("model", true);
        s.gpu = r.string("gpu", true);
        if (s.model.empty()) throw FieldError{r.path("model") + " must name a model"};
        if (s.gpu.empty()) throw FieldError{r.path("gpu") + " must name a GPU"};
        const long long gpus = r.count("gpus", true);
        if (gpus < 1) throw FieldError{r.path("gpus") + " must be at least 1, found " + std::to_string(gpus)};
        s.gpus = static_cast<int>(gpus);
        for (auto [key, field] : {std::pair{"weights", &s.weights}, std::pair{"kv", &s.kv}}) {
            *field = r.string(key, true);
            if (*field != "bf16" && *field != "fp8")
                throw FieldError{r.path(key) + " must be \"bf16\" or \"fp8\", found \"" + *field + "\""};
        }
        s.gpuUtilization = r.number("gpu_utilization", true);
        if (!(s.gpuUtilization > 0 && s.gpuUtilization <= 1))
            throw FieldError{r.path("gpu_utilization") + " must be a fraction in (0, 1], found " +
                             r.require("gpu_utilization").dump()};
        s.contextTokens = r.count("context_tokens", true, std::numeric_limits<long long>::max());
        if (s.contextTokens < 1)
            throw FieldError{r.path("context_tokens") + " must be at least 1, found " +
                             std::to_string(s.contextTokens)};
        s.overheadGiB = r.number("overhead_gib", true);
        if (!std::isfinite(s.overheadGiB) || s.overheadGiB < 0)
            throw FieldError{r.path("overhead_gib") + " must be a number of GiB >= 0, found " +
                             r.require("overhead_gib").dump()};
        s.vllmVersion = r.string("vllm_version");
        if (!s.vllmVersion.empty())
            if (auto v = parseVllmVersion(s.vllmVersion); !v)
                throw FieldError{r.path("vllm_version") + ": " + v.error().message};
        return s;
    } catch (const FieldError& e) {
        return Error{e.message};
    }
}

Result<CapacityInputs> capacityInputsFromSettings(const CapacitySettings& s, const LocalDeviceStatus* local) {
    CapacityInputs in;
    auto model = resolveModel(s.model);
    if (!model) return model.error();
    in.model = std::move(model).value();
    if (s.gpu == "local") {
        if (!local) return Error{"GPU \"local\": this machine's GPU has not been queried yet"};
        auto gpu = gpuFromLocalDevices(*local, s.gpus);
        if (!gpu) return Error{"GPU \"local\" (this machine): " + gpu.error().message};
        in.gpu = std::move(gpu).value();
    } else if (auto preset = findGpuPreset(s.gpu)) {
        in.gpu = *preset;
    } else {
        return Error{"unknown GPU \"" + s.gpu + "\": expected one of " + gpuPresetNamesText() + ", or local"};
    }
    const auto weights = parseStorageDtype(s.weights);
    if (!weights) return Error{"weights \"" + s.weights + "\": expected bf16 or fp8"};
    const auto kv = parseStorageDtype(s.kv);
    if (!kv) return Error{"kv \"" + s.kv + "\": expected bf16 or fp8"};
    in.gpus = s.gpus;
    in.weights = *weights;
    in.kv = *kv;
    in.gpuUtilization = s.gpuUtilization;
    in.contextTokens = s.contextTokens;
    in.overheadGiB = s.overheadGiB;
    if (!s.vllmVersion.empty()) {
        VllmServeSettings v;
        v.version = s.vllmVersion;
        in.vllm = v;
    }
    return in;
}

Result<CapacityComparison> planCapacityComparison(const CapacitySettings& s, const LocalDeviceStatus* local) {
    auto inputs = capacityInputsFromSettings(s, local);
    if (!inputs) return inputs.error();
    auto selected = planCapacity(*inputs);
    if (!selected) return selected.error();
    CapacityInputs bf16Inputs = *inputs;
    bf16Inputs.weights = StorageDtype::Bf16;
    bf16Inputs.kv = StorageDtype::Bf16;
    auto bf16 = planCapacity(bf16Inputs);
    if (!bf16) return bf16.error();
    return CapacityComparison{std::move(bf16).value(), std::move(selected).value()};
}

}  // namespace fp8dash
