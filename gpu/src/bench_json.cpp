// benchReportToJson (bench.h): the one JSON of a benchmark run. Hand-written rather than nlohmann because gpu/ is a
// leaf that must also build alone on the GPU machine, where no package registry can be reached; the writer is small
// and its output is checked by parsing it with nlohmann in the tests. Field names are a stable format: core parses
// them back (local_bench.cpp) and comparison files keep them.
#include "fp8dash/gpu/bench.h"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace fp8dash::gpu {
namespace {

// A streaming writer with optional pretty-printing. Callers pair begin/end correctly (this file only).
class JsonWriter {
public:
    explicit JsonWriter(int indent) : m_indent(indent < 0 ? 0 : indent) {}

    void beginObject() { open('{'); }
    void endObject() { close('}'); }
    void beginArray() { open('['); }
    void endArray() { close(']'); }

    // The key of the next value inside an object.
    void key(std::string_view name) {
        separate();
        writeString(name);
        m_out += m_indent > 0 ? ": " : ":";
        m_afterKey = true;
    }

    void value(std::string_view s) {
        separate();
        writeString(s);
    }
    void value(const char* s) { value(std::string_view(s ? s : "")); }
    void value(const std::string& s) { value(std::string_view(s)); }
    void value(bool b) {
        separate();
        m_out += b ? "true" : "false";
    }
    void value(int v) { integer(static_cast<long long>(v)); }
    void value(long long v) { integer(v); }
    void value(std::uint64_t v) {
        separate();
        char buffer[32];
        const auto end = std::to_chars(buffer, buffer + sizeof buffer, v).ptr;
        m_out.append(buffer, end);
    }
    // Shortest text that reads back as the same double; JSON has no NaN or infinity, so those are null.
    void value(double v) {
        separate();
        if (!std::isfinite(v)) {
            m_out += "null";
            return;
        }
        char buffer[64];
        const auto end = std::to_chars(buffer, buffer + sizeof buffer, v).ptr;
        m_out.append(buffer, end);
    }
    void null() {
        separate();
        m_out += "null";
    }

    template <class T>
    void field(std::string_view name, const T& v) {
        key(name);
        value(v);
    }

    std::string take() { return std::move(m_out); }

private:
    void integer(long long v) {
        separate();
        char buffer[32];
        const auto end = std::to_chars(buffer, buffer + sizeof buffer, v).ptr;
        m_out.append(buffer, end);
    }

    void newline() {
        if (m_indent == 0) return;
        m_out += '\n';
        m_out.append(static_cast<std::size_t>(m_depth * m_indent), ' ');
    }

    // Before any value or key: a comma after a sibling, and the line break of pretty output. A value right after
    // its key goes on the key's line.
    void separate() {
        if (m_afterKey) {
            m_afterKey = false;
            return;
        }
        if (m_depth == 0) return;
        if (!m_first) m_out += ',';
        m_first = false;
        newline();
    }

    void open(char bracket) {
        separate();
        m_out += bracket;
        ++m_depth;
        m_first = true;
    }

    void close(char bracket) {
        --m_depth;
        if (!m_first) newline();  // an empty container stays "{}" / "[]"
        m_out += bracket;
        m_first = false;
    }

    // Quotes, backslashes and control characters escaped; valid UTF-8 passed through as is; a byte that is not
    // part of valid UTF-8 (a driver string in another encoding) becomes U+FFFD so the document always parses.
    void writeString(std::string_view s) {
        static constexpr char kHex[] = "0123456789abcdef";
        m_out += '"';
        std::size_t i = 0;
        while (i < s.size()) {
            const auto c = static_cast<unsigned char>(s[i]);
            if (c < 0x80) {
                switch (c) {
                    case '"':
                        m_out += "\\\"";
                        break;
                    case '\\':
                        m_out += "\\\\";
                        break;
                    case '\b':
                        m_out += "\\b";
                        break;
                    case '\f':
                        m_out += "\\f";
                        break;
                    case '\n':
                        m_out += "\\n";
                        break;
                    case '\r':
                        m_out += "\\r";
                        break;
                    case '\t':
                        m_out += "\\t";
                        break;
                    default:
                        if (c < 0x20) {
                            m_out += "\\u00";
                            m_out += kHex[c >> 4];
                            m_out += kHex[c & 0xF];
                        } else {
                            m_out += static_cast<char>(c);
                        }
                }
                ++i;
                continue;
            }
            const std::size_t length = utf8SequenceLength(s, i);
            if (length == 0) {
                m_out += "\\ufffd";
                ++i;
            } else {
                m_out.append(s.substr(i, length));
                i += length;
            }
        }
        m_out += '"';
    }

    // Length of the well-formed UTF-8 sequence starting at s[i] (RFC 3629: no overlongs, no surrogates, at most
    // U+10FFFF), or 0 when it is not one.
    static std::size_t utf8SequenceLength(std::string_view s, std::size_t i) {
        const auto byte = [&s](std::size_t at) { return static_cast<unsigned char>(s[at]); };
        const unsigned char lead = byte(i);
        std::size_t length = 0;
        unsigned char low = 0x80;
        unsigned char high = 0xBF;
        if (lead >= 0xC2 && lead <= 0xDF) {
            length = 2;
        } else if (lead >= 0xE0 && lead <= 0xEF) {
            length = 3;
            if (lead == 0xE0) low = 0xA0;   // overlong
            if (lead == 0xED) high = 0x9F;  // surrogates
        } else if (lead >= 0xF0 && lead <= 0xF4) {
            length = 4;
            if (lead == 0xF0) low = 0x90;   // overlong
            if (lead == 0xF4) high = 0x8F;  // past U+10FFFF
        } else {
            return 0;
        }
        if (i + length > s.size()) return 0;
        if (byte(i + 1) < low || byte(i + 1) > high) return 0;
        for (std::size_t k = 2; k < length; ++k) {
            if (byte(i + k) < 0x80 || byte(i + k) > 0xBF) return 0;
        }
        return length;
    }

    std::string m_out;
    int m_indent;
    int m_depth = 0;
    bool m_first = true;
    bool m_afterKey = false;
};

// The fields every measured case shares.
void writeStats(JsonWriter& w, const SampleStats& s) {
    w.field("samples", s.samples);
    w.field("throttled_samples", s.throttledSamples);
    w.field("median_s", s.medianSeconds);
    w.field("mean_s", s.meanSeconds);
    w.field("min_s", s.minSeconds);
    w.field("max_s", s.maxSeconds);
    w.field("noise", s.relStdDev);
    w.field("converged", s.converged);
    // Only where a GPU measured it, so reports without it (every CPU report) stay as they were.
    if (s.smClockMHz > 0) w.field("sm_clock_mhz", s.smClockMHz);
}

void writeDevice(JsonWriter& w, const BenchReport& r) {
    const DeviceReport& d = r.device;
    // The device that ran (runBench keeps only that one); the first when a runner left several.
    const DeviceInfo* info = d.devices.empty() ? nullptr : &d.devices.front();
    w.beginObject();
    w.field("available", d.hasUsableDevice());
    w.field("name", info ? info->name : std::string());
    w.field("compute_capability",
            info ? std::to_string(info->computeMajor) + "." + std::to_string(info->computeMinor) : std::string());
    w.field("memory_bytes", info ? info->memoryTotalBytes : std::uint64_t{0});
    w.field("reason", d.reason);
    w.field("backend", d.backend);
    w.field("driver_version", d.driverVersion);
    w.field("runtime_version", d.runtimeVersion);
    w.field("multiprocessors", info ? info->multiprocessors : 0);
    w.field("fp8_supported", info ? info->fp8Supported : false);
    w.field("fp4_supported", info ? hasFp4TensorCores(info->computeMajor, info->computeMinor) : false);
    w.key("peak");
    if (r.peak) {
        w.beginObject();
        w.field("name", r.peak->displayName);
        w.field("fp8_dense_tflops", r.peak->fp8DenseTflops);
        w.field("bf16_dense_tflops", r.peak->bf16DenseTflops);
        w.field("memory_bandwidth_gbps", r.peak->memoryBandwidthGBps);
        w.field("fp4_dense_tflops", r.peak->fp4DenseTflops);
        w.endObject();
    } else {
        w.null();
    }
    w.endObject();
}

void writeGemm(JsonWriter& w, const GemmResult& g) {
    w.beginObject();
    w.field("layer", g.shape.layer);
    w.field("m", g.shape.m);
    w.field("n", g.shape.n);
    w.field("k", g.shape.k);
    w.field("precision", gemmPrecisionName(g.precision));
    w.field("fast_accum", g.fastAccum);
    w.field("skipped", g.skipped);
    writeStats(w, g.stats);
    w.field("algorithms_tried", g.algorithmsTried);
    w.field("tflops", g.tflops);
    w.field("bytes_per_s", g.bytesPerSecond);
    w.key("roof_tflops");
    if (g.roof)
        w.value(g.roof->attainableTflops);
    else
        w.null();
    w.field("bound", g.roof ? g.roof->bound : "");
    w.field("percent_of_roof", g.percentOfRoof);
    w.field("speedup_vs_bf16", g.speedupVsBf16);
    w.key("max_rel_error");  // null when the case was not verified against a reference
    if (g.maxRelError >= 0)
        w.value(g.maxRelError);
    else
        w.null();
    w.endObject();
}

void writeBandwidth(JsonWriter& w, const BandwidthResult& b) {
    w.beginObject();
    w.field("kernel", b.kernel);
    w.field("bytes", b.bytes);
    w.field("skipped", b.skipped);
    writeStats(w, b.stats);
    w.field("bytes_per_s", b.bytesPerSecond);
    w.field("percent_of_peak", b.percentOfPeak);
    w.endObject();
}

// The scales a KV point used, as few as say it all: [1.0] for none, one per layer for per_tensor, one per (layer,
// head), layer-major, for per_head.
void writeKvScales(JsonWriter& w, const KvScales& scales, const std::vector<float>& perHead) {
    w.key("scales");
    w.beginArray();
    if (scales.scaling == KvScaling::None) {
        w.value(1.0);
    } else {
        const std::size_t step =
            scales.scaling == KvScaling::PerTensor && scales.kvHeads > 0 ? static_cast<std::size_t>(scales.kvHeads) : 1;
        for (std::size_t i = 0; i < perHead.size(); i += step) w.value(static_cast<double>(perHead[i]));
    }
    w.endArray();
}

// One side (K or V) of a KV point: its errors, the values it saturated and the scales, so anyone can recompute them.
void writeKvSide(JsonWriter& w, const TensorError& e, std::uint64_t saturated, const KvScales& scales,
                 const std::vector<float>& perHead) {
    w.beginObject();
    w.field("rel_rmse", e.relRmse);
    w.field("max_abs_error", e.maxAbsError);
    w.field("cosine", e.cosine);
    w.field("saturated", saturated);
    writeKvScales(w, scales, perHead);
    w.endObject();
}

void writeKvSource(JsonWriter& w, const KvQuantResult& k) {
    w.key("source");
    w.beginObject();
    w.field("kind", k.sourceKind);
    w.field("description", k.sourceDescription);
    w.key("shape");
    w.beginArray();
    for (int d : {k.sourceShape.layers, k.sourceShape.kvHeads, k.sourceShape.tokens, k.sourceShape.headDim}) w.value(d);
    w.endArray();
    w.endObject();
}

void writeInterval(JsonWriter& w, std::string_view name, const KvInterval& interval) {
    w.key(name);
    w.beginArray();
    w.value(interval.low);
    w.value(interval.high);
    w.endArray();
}

// How sure the attention-output error is (kv_interval.h): the sample, the 95 % interval, and the paired difference
// from per_tensor at the same context; each written only when the sweep could compute it.
void writeKvIntervals(JsonWriter& w, const KvQuantResult& k) {
    w.field("attn_rows", k.attnRows);
    w.field("attn_heads", static_cast<std::uint64_t>(k.attnHeads.diffSquares.size()));
    if (k.attnOutCi95.valid()) writeInterval(w, "attn_out_ci95", k.attnOutCi95);
    if (k.attnOutVsPerTensor) {
        w.key("attn_out_vs_per_tensor");
        w.beginObject();
        w.field("difference", k.attnOutVsPerTensor->difference);
        writeInterval(w, "ci95", k.attnOutVsPerTensor->ci95);
        w.endObject();
    }
}

void writeKv(JsonWriter& w, const KvQuantResult& k) {
    w.beginObject();
    w.field("scaling", kvScalingName(k.scaling));
    w.field("context", k.context);
    writeKvSource(w, k);
    w.field("rel_rmse", k.combined.relRmse);
    w.field("max_abs_error", k.combined.maxAbsError);
    w.field("cosine", k.combined.cosine);
    w.key("key");
    writeKvSide(w, k.key, k.keySaturated, k.scales, k.scales.key);
    w.key("value");
    writeKvSide(w, k.value, k.valueSaturated, k.scales, k.scales.value);
    w.field("attn_out_rel_rmse", k.attnOutRelRmse);
    w.field("attn_out_cosine", k.attnOutCosine);
    w.field("attn_weight_tvd", k.attnWeightTvd);
    w.field("attn_weight_tvd_max", k.attnWeightTvdMax);
    w.field("attn_entropy", k.attnEntropy);
    writeKvIntervals(w, k);
    w.field("elements", static_cast<std::uint64_t>(k.elements));
    w.field("seconds", k.seconds);
    w.field("elements_per_s", k.elementsPerSecond());
    w.endObject();
}

void writeKvKernel(JsonWriter& w, const KvKernelResult& k) {
    w.beginObject();
    w.field("scaling", kvScalingName(k.scaling));
    w.field("elements", k.elements);
    w.field("skipped", k.skipped);
    writeStats(w, k.stats);
    w.field("bytes_per_s", k.bytesPerSecond);
    w.field("percent_of_peak", k.percentOfPeak);
    w.field("matches_cpu", k.matchesCpu);
    w.endObject();
}

template <class T, class Fn>
void writeArray(JsonWriter& w, std::string_view name, const std::vector<T>& items, Fn writeOne) {
    w.key(name);
    w.beginArray();
    for (const T& item : items) writeOne(w, item);
    w.endArray();
}

}  // namespace

std::string benchReportToJson(const BenchReport& report, int indent) {
    JsonWriter w(indent);
    w.beginObject();
    w.field("backend", report.backend);
    w.field("model", report.model);
    w.key("device");
    writeDevice(w, report);
    writeArray(w, "gemm", report.gemm, writeGemm);
    w.field("gemm_skipped", report.gemmSkipped);
    writeArray(w, "bandwidth", report.bandwidth, writeBandwidth);
    w.field("bandwidth_skipped", report.bandwidthSkipped);
    writeArray(w, "kv", report.kv, writeKv);
    w.field("kv_backend", report.kvBackend);
    writeArray(w, "kv_kernel", report.kvKernel, writeKvKernel);
    w.field("kv_skipped", report.kvSkipped);
    writeArray(w, "warnings", report.warnings, [](JsonWriter& writer, const std::string& s) { writer.value(s); });
    w.field("cancelled", report.cancelled);
    w.endObject();
    return w.take();
}

}  // namespace fp8dash::gpu
