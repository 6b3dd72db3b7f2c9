// The KV-cache capacity planner (DESIGN.md "KV-cache capacity"): capacity = (GPUs x memory x utilisation - weights -
// runtime overhead) / bytes per token, per tensor-parallel group; GPU figures from gpu/'s datasheet peak table.
#include "fp8dash/core/capacity.h"

#include "fp8dash/gpu/peak_table.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>

namespace fp8dash {
namespace {

GpuSpec fromPeak(const gpu::PeakSpec& p) {
    GpuSpec g;
    g.name = std::string(p.key);
    g.displayName = std::string(p.displayName);
    g.source = "preset";
    g.memoryBytes = static_cast<std::uint64_t>(std::llround(p.memoryGB * 1e9));
    g.bandwidthBytesPerS = p.memoryBandwidthGBps * 1e9;
    g.fp8DenseTflops = p.fp8DenseTflops;
    g.bf16DenseTflops = p.bf16DenseTflops;
    g.fp8TensorCores = true;  // every GPU of the table is Ada, Hopper or Blackwell
    return g;
}

std::string groupThousands(std::uint64_t v) {
    std::string digits = std::to_string(v), out;
    for (std::size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
        out += digits[i];
    }
    return out;
}

std::string capacityFixed(double v, int decimals) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
    return buf;
}

std::string upper(StorageDtype d) { return d == StorageDtype::Fp8 ? "FP8" : "BF16"; }

struct Room {
    long long kvBytes = 0;  // may be negative: the weights and overhead do not fit
    std::uint64_t tokens = 0;
};

Room roomFor(const CapacityInputs& in, std::uint64_t usable, std::uint64_t overhead, StorageDtype weights,
             StorageDtype kv, int replication) {
    Room r;
    r.kvBytes = static_cast<long long>(usable) - static_cast<long long>(in.model.weightsBytes(weights)) -
                static_cast<long long>(overhead);
    const std::uint64_t perToken = in.model.kvBytesPerToken(kv) * static_cast<std::uint64_t>(replication);
    if (r.kvBytes > 0 && perToken > 0) r.tokens = static_cast<std::uint64_t>(r.kvBytes) / perToken;
    return r;
}

DecodeVariant decodeFor(const CapacityInputs& in, double bandwidth, std::uint64_t usable, std::uint64_t overhead,
                        StorageDtype weights, StorageDtype kv, int replication) {
    DecodeVariant d;
    d.weights = weights;
    d.kv = kv;
    // In long double: a huge batch of long sequences can pass 2^64 bytes, where the estimate saturates.
    using L = long double;
    const L bytes = L(in.model.weightsBytesReadPerStep(weights)) +
                    L(in.decodeBatch) * L(in.contextTokens) * L(in.model.kvBytesPerToken(kv)) * L(replication);
    d.bytesPerStep = bytes >= L(UINT64_MAX) ? UINT64_MAX : static_cast<std::uint64_t>(bytes);
    d.stepSeconds = static_cast<double>(d.bytesPerStep) / bandwidth;
    d.tokensPerS = in.decodeBatch / d.stepSeconds;
    const Room room = roomFor(in, usable, overhead, weights, kv, replication);
    d.batchFits =
        room.tokens / static_cast<std::uint64_t>(in.contextTokens) >= static_cast<std::uint64_t>(in.decodeBatch);
    return d;
}

Json decodeVariantJson(const DecodeVariant& d) {
    return Json{{"weights", storageDtypeName(d.weights)},
                {"kv", storageDtypeName(d.kv)},
                {"bytes_per_step", d.bytesPerStep},
                {"step_seconds", d.stepSeconds},
                {"tokens_per_s", d.tokensPerS},
                {"batch_fits", d.batchFits}};
}

template <class T>
Json optionalJson(const std::optional<T>& v) {
    return v ? Json(*v) : Json(nullptr);
}

}  // namespace

std::vector<std::string> gpuPresetNames() {
    std::vector<std::string> names;
    for (const auto& p : gpu::peakTable()) names.emplace_back(p.key);
    return names;
}

std::string gpuPresetNamesText() {
    std::string out;
    for (const auto& n : gpuPresetNames()) out += (out.empty() ? "" : ", ") + n;
    return out;
}

std::optional<GpuSpec> findGpuPreset(std::string_view nameOrDevice) {
    const auto p = gpu::findPeakSpec(nameOrDevice);
    if (!p) return std::nullopt;
    return fromPeak(*p);
}

Result<GpuSpec> gpuFromLocalDevices(const LocalDeviceStatus& status, int count) {
    if (!status.available || status.gpus.empty())
        return Error{"no usable GPU on this machine: " + (status.reason.empty() ? std::string("unknown reason")
                                                                                : status.reason)};
    if (count < 1 || static_cast<std::size_t>(count) > status.gpus.size())
        return Error{"--gpus " + std::to_string(count) + " asks for more GPUs than this machine has (" +
                     std::to_string(status.gpus.size()) + ")"};
    const LocalGpu& first = status.gpus.front();
    GpuSpec g;
    if (const auto p = gpu::findPeakSpec(first.name)) g = fromPeak(*p);
    g.name = first.name;
    g.displayName = first.name;
    g.source = "local";
    g.memoryBytes = first.memoryFreeBytes;
    g.fp8TensorCores = true;
    for (int i = 0; i < count; ++i) {
        g.memoryBytes = std::min(g.memoryBytes, status.gpus[static_cast<std::size_t>(i)].memoryFreeBytes);
        g.fp8TensorCores = g.fp8TensorCores && status.gpus[static_cast<std::size_t>(i)].fp8Supported;
    }
    return g;
}

Result<CapacityResult> planCapacity(const CapacityInputs& in) {
    if (in.gpus < 1 || in.gpus > kMaxGpus)
        return Error{"the number of GPUs must be 1 to " + std::to_string(kMaxGpus) + " (got " +
                     std::to_string(in.gpus) + ")"};
    if (!(in.gpuUtilization > 0 && in.gpuUtilization <= 1))
        return Error{"the GPU memory utilisation must be in (0, 1] (got " + capacityFixed(in.gpuUtilization, 3) + ")"};
    if (in.contextTokens < 1 || in.contextTokens > kMaxContextTokens)
        return Error{"the context must be 1 to " + std::to_string(kMaxContextTokens) + " tokens (got " +
                     std::to_string(in.contextTokens) + ")"};
    if (!(in.overheadGiB >= 0 && in.overheadGiB <= kMaxGiB))
        return Error{"the runtime overhead must be 0 to 1e6 GiB (got " + capacityFixed(in.overheadGiB, 3) + ")"};
    if (static_cast<double>(in.gpu.memoryBytes) > kMaxGiB * 1073741824.0)
        return Error{"the memory per GPU must be at most 1e6 GiB"};
    if (in.decodeBatch < 1 || in.decodeBatch > kMaxDecodeBatch)
        return Error{"the decode batch must be 1 to " + std::to_string(kMaxDecodeBatch) + " (got " +
                     std::to_string(in.decodeBatch) + ")"};
    if (in.model.layers < 1 || in.model.kvHeads < 1 || in.model.headDim < 1)
        return Error{"model " + in.model.name + " has no attention layers to size"};

    CapacityResult r;
    r.inputs = in;
    const auto gpus = static_cast<std::uint64_t>(in.gpus);
    r.parameters = in.model.parameterCount();
    r.kvBytesPerToken = in.model.kvBytesPerToken(in.kv);
    // vLLM gives each GPU max(1, kv_heads / tp) KV heads: past kv_heads GPUs the heads are copied, not split.
    r.kvReplication = in.gpus > in.model.kvHeads ? (in.gpus + in.model.kvHeads - 1) / in.model.kvHeads : 1;
    r.weightsBytes = in.model.weightsBytes(in.weights);
    // Rounded to the byte, so that 4 x 80e9 x 0.92 is 294.4e9 exactly as on paper.
    r.usableBytes = static_cast<std::uint64_t>(std::llround(static_cast<long double>(gpus * in.gpu.memoryBytes) *
                                                            static_cast<long double>(in.gpuUtilization)));
    r.overheadBytes = gpus * static_cast<std::uint64_t>(std::llround(in.overheadGiB * 1073741824.0));

    const Room room = roomFor(in, r.usableBytes, r.overheadBytes, in.weights, in.kv, r.kvReplication);
    if (room.kvBytes <= 0) {
        r.shortfallBytes = static_cast<std::uint64_t>(-room.kvBytes);
        r.reason = "does not fit: the weights (" + formatBytes(r.weightsBytes) + ") and the runtime overhead (" +
                   formatBytes(r.overheadBytes) + ") need more than the usable memory (" + formatBytes(r.usableBytes) +
                   " = " + std::to_string(in.gpus) + " x " + formatBytes(in.gpu.memoryBytes) + " x " +
                   capacityFixed(in.gpuUtilization, 2) + "); " + formatBytes(r.shortfallBytes) +
                   " short, before any KV cache";
    } else {
        r.kvCacheBytes = static_cast<std::uint64_t>(room.kvBytes);
        r.maxTokens = room.tokens;
        r.maxSequences = r.maxTokens / static_cast<std::uint64_t>(in.contextTokens);
        if (r.maxSequences == 0)
            r.reason = "does not fit: the KV cache holds " + groupThousands(r.maxTokens) +
                       " tokens, less than one sequence of " +
                       groupThousands(static_cast<std::uint64_t>(in.contextTokens));
    }
    r.fits = r.maxSequences >= 1;

    if (in.gpu.bandwidthBytesPerS && *in.gpu.bandwidthBytesPerS > 0) {
        DecodeEstimate d;
        d.batch = in.decodeBatch;
        d.contextTokens = in.contextTokens;
        d.bandwidthBytesPerS = static_cast<double>(in.gpus) * *in.gpu.bandwidthBytesPerS;
        const auto variant = [&](StorageDtype w, StorageDtype kv) {
            return decodeFor(in, d.bandwidthBytesPerS, r.usableBytes, r.overheadBytes, w, kv, r.kvReplication);
        };
        d.selected = variant(in.weights, in.kv);
        d.bf16 = variant(StorageDtype::Bf16, StorageDtype::Bf16);
        d.fp8 = variant(StorageDtype::Fp8, StorageDtype::Fp8);
        d.fp8Speedup = d.fp8.tokensPerS / d.bf16.tokensPerS;
        r.decode = d;
    }
    return r;
}

std::string formatBytes(std::uint64_t bytes) {
    const double b = static_cast<double>(bytes);
    return capacityFixed(b / 1e9, 2) + " GB (" + capacityFixed(b / 1073741824.0, 2) + " GiB)";
}

Json capacityToJson(const CapacityResult& r) {
    const CapacityInputs& in = r.inputs;
    const ModelArchitecture& m = in.model;
    Json j;
    j["model"] = m.name;
    j["gpu"] = in.gpu.name;
    j["gpus"] = in.gpus;
    j["weights"] = storageDtypeName(in.weights);
    j["kv"] = storageDtypeName(in.kv);
    j["gpu_util"] = in.gpuUtilization;
    j["context"] = in.contextTokens;
    j["overhead_gib"] = in.overheadGiB;
    j["batch"] = in.decodeBatch;
    j["model_architecture"] = Json{{"name", m.name},
                                   {"source", m.fromConfigFile ? "config" : "preset"},
                                   {"hf_repo", m.hfRepo},
                                   {"model_type", m.modelType},
                                   {"layers", m.layers},
                                   {"hidden_size", m.hiddenSize},
                                   {"attention_heads", m.attentionHeads},
                                   {"kv_heads", m.kvHeads},
                                   {"head_dim", m.headDim},
                                   {"intermediate_size", m.intermediateSize},
                                   {"vocab_size", m.vocabSize},
                                   {"tie_word_embeddings", m.tieWordEmbeddings},
                                   {"max_position_embeddings", optionalJson(m.maxPositionEmbeddings)},
                                   {"parameters", r.parameters},
                                   {"published_parameters", optionalJson(m.publishedParameters)}};
    j["gpu_spec"] = Json{{"name", in.gpu.name},
                         {"display_name", in.gpu.displayName},
                         {"source", in.gpu.source},
                         {"memory_bytes", in.gpu.memoryBytes},
                         {"bandwidth_bytes_per_s", optionalJson(in.gpu.bandwidthBytesPerS)},
                         {"fp8_dense_tflops", optionalJson(in.gpu.fp8DenseTflops)},
                         {"bf16_dense_tflops", optionalJson(in.gpu.bf16DenseTflops)},
                         {"fp8_tensor_cores", in.gpu.fp8TensorCores}};
    j["parameters"] = r.parameters;
    j["kv_bytes_per_token"] = r.kvBytesPerToken;
    j["kv_replication"] = r.kvReplication;
    j["weights_bytes"] = r.weightsBytes;
    j["usable_bytes"] = r.usableBytes;
    j["overhead_bytes"] = r.overheadBytes;
    j["kv_cache_bytes"] = r.kvCacheBytes;
    j["shortfall_bytes"] = r.shortfallBytes;
    j["max_tokens"] = r.maxTokens;
    j["max_sequences"] = r.maxSequences;
    j["fits"] = r.fits;
    j["reason"] = r.reason.empty() ? Json(nullptr) : Json(r.reason);
    if (r.decode) {
        const DecodeEstimate& d = *r.decode;
        j["decode_estimate"] = Json{{"bound", "memory bandwidth (an upper bound)"},
                                    {"batch", d.batch},
                                    {"context", d.contextTokens},
                                    {"bandwidth_bytes_per_s", d.bandwidthBytesPerS},
                                    {"tokens_per_s", d.selected.tokensPerS},
                                    {"selected", decodeVariantJson(d.selected)},
                                    {"bf16", decodeVariantJson(d.bf16)},
                                    {"fp8", decodeVariantJson(d.fp8)},
                                    {"fp8_speedup", d.fp8Speedup}};
    } else {
        j["decode_estimate"] = nullptr;
    }
    return j;
}

std::string capacityToText(const CapacityResult& r) {
    const CapacityInputs& in = r.inputs;
    const ModelArchitecture& m = in.model;
    std::string t;
    t += m.name + " on " + std::to_string(in.gpus) + " x " + in.gpu.displayName +
         (in.gpu.source == "local" ? " (this machine, free memory)" : "") + ": weights " + upper(in.weights) +
         ", KV cache " + upper(in.kv) + "\n";
    const auto line = [&t](const std::string& label, const std::string& value) {
        std::string l = "  " + label;
        l.resize(22, ' ');
        t += l + value + "\n";
    };
    std::string params = capacityFixed(static_cast<double>(r.parameters) / 1e9, 2) + " B";
    if (m.publishedParameters) params += " (published " + capacityFixed(*m.publishedParameters / 1e9, 2) + " B)";
    line("parameters", params);
    line("KV per token", groupThousands(r.kvBytesPerToken) + " B = 2 x " + std::to_string(m.layers) + " layers x " +
                             std::to_string(m.kvHeads) + " KV heads x " + std::to_string(m.headDim) + " x " +
                             std::to_string(bytesPerElement(in.kv)) + " B" +
                             (r.kvReplication > 1 ? " (x" + std::to_string(r.kvReplication) +
                                                        ": more GPUs than KV heads, which vLLM copies)"
                                                  : ""));
    line("weights", formatBytes(r.weightsBytes));
    line("usable memory", formatBytes(r.usableBytes) + " = " + std::to_string(in.gpus) + " x " +
                              formatBytes(in.gpu.memoryBytes) + " x " + capacityFixed(in.gpuUtilization, 2));
    line("runtime overhead", formatBytes(r.overheadBytes) + ", " + capacityFixed(in.overheadGiB, 2) + " GiB per GPU");
    if (r.shortfallBytes > 0) {
        line("KV cache", "none: " + formatBytes(r.shortfallBytes) + " short");
    } else {
        line("KV cache", formatBytes(r.kvCacheBytes));
        line("max tokens", groupThousands(r.maxTokens));
        line("max sequences", groupThousands(r.maxSequences) + " of " +
                                  groupThousands(static_cast<std::uint64_t>(in.contextTokens)) + " tokens");
    }
    if (!r.fits) t += "  DOES NOT FIT: " + r.reason.substr(r.reason.find(':') + 2) + "\n";
    if (r.decode) {
        const DecodeEstimate& d = *r.decode;
        t += "  decode estimate, bandwidth-bound upper bound (batch " + std::to_string(d.batch) + " at " +
             groupThousands(static_cast<std::uint64_t>(d.contextTokens)) + " tokens, " +
             groupThousands(static_cast<std::uint64_t>(std::llround(d.bandwidthBytesPerS / 1e9))) + " GB/s):\n";
        const auto variant = [&](const char* label, const DecodeVariant& v) {
            line(std::string("  ") + label, groupThousands(static_cast<std::uint64_t>(std::llround(v.tokensPerS))) +
                                                " tokens/s (" + formatBytes(v.bytesPerStep) + " read per step" +
                                                (v.batchFits ? ")" : "; the batch does not fit)"));
        };
        variant("as asked", d.selected);
        variant("BF16", d.bf16);
        variant("FP8", d.fp8);
        line("  FP8 / BF16", capacityFixed(d.fp8Speedup, 2) + "x");
    } else {
        t += "  decode estimate: none (no datasheet bandwidth for this GPU)\n";
    }
    return t;
}

}  // namespace fp8dash
