// The KV-cache capacity planner (DESIGN.md "KV-cache capacity"): capacity = (GPUs x memory x utilisation - weights -
// runtime overhead) / bytes per token, per tensor-parallel group, the overhead either flat or vLLM's own accounting
// (vllm_memory.h); GPU presets in capacity_gpus.cpp.
#include "fp8dash/core/capacity.h"

#include "fp8dash/core/number_format.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>

namespace fp8dash {
namespace {

std::string upper(StorageDtype d) {
    return d == StorageDtype::Fp8 ? "FP8" : "BF16";
}

std::uint64_t weightsBytesOf(const ModelArchitecture& m, WeightFormat f) {
    return weightBytesOf(m, f).total(m.layers);
}

// The room for KV cache of one variant (weights format, KV dtype) of the inputs, flat or by vLLM's accounting.
struct Room {
    std::uint64_t usable = 0;    // all GPUs
    std::uint64_t overhead = 0;  // all GPUs
    long long kvBytes = 0;       // may be negative: the weights and overhead do not fit
    std::uint64_t tokens = 0;
    std::optional<VllmMemoryPlan> plan;
};

Result<Room> roomFor(const CapacityInputs& in, WeightFormat weights, StorageDtype kv, int replication) {
    Room r;
    const auto tp = static_cast<std::uint64_t>(in.gpus);
    if (!in.vllm) {
        const auto gpus = tp;
        // Rounded to the byte, so that 4 x 80e9 x 0.92 is 294.4e9 exactly as on paper.
        r.usable = static_cast<std::uint64_t>(std::llround(static_cast<long double>(gpus * in.gpu.memoryBytes) *
                                                           static_cast<long double>(in.gpuUtilization)));
        r.overhead = gpus * static_cast<std::uint64_t>(std::llround(in.overheadGiB * 1073741824.0));
        r.kvBytes = static_cast<long long>(r.usable) - static_cast<long long>(weightsBytesOf(in.model, weights)) -
                    static_cast<long long>(r.overhead);
        const std::uint64_t perToken = in.model.kvBytesPerToken(kv) * static_cast<std::uint64_t>(replication);
        if (r.kvBytes > 0 && perToken > 0) r.tokens = static_cast<std::uint64_t>(r.kvBytes) / perToken;
        return r;
    }
    auto plan = planVllmMemory(in.model, weights, kv, in.gpu.memoryBytes, in.gpu.name + " " + in.gpu.displayName,
                               in.gpuUtilization, in.gpus, in.contextTokens, *in.vllm);
    if (!plan) return plan.error();
    const auto stages = static_cast<std::uint64_t>(plan->stages.size());
    r.usable = tp * stages * plan->requestedBytes;
    long long kvBytes = 0, deficit = 0;
    for (const VllmStage& st : plan->stages) {
        r.overhead += tp * (st.activationBytes + st.nonTorchBytes + st.cudaGraphBytes);
        if (st.poolBytes <= 0) deficit += st.poolBytes;
        // What vLLM allocates: the replica's blocks on every GPU of the stage.
        kvBytes += static_cast<long long>(tp * plan->blocks * static_cast<std::uint64_t>(plan->blockSize) *
                                          st.kvBytesPerToken);
    }
    r.kvBytes = deficit < 0 ? static_cast<long long>(tp) * deficit : kvBytes;
    r.tokens = deficit < 0 ? 0 : plan->tokens;
    r.plan = std::move(plan).value();
    return r;
}

DecodeVariant decodeFor(const CapacityInputs& in, double bandwidth, WeightFormat weights, StorageDtype kv,
                        int replication) {
    DecodeVariant d;
    d.weights = storageDtypeOf(weights);
    d.kv = kv;
    // In long double: a huge batch of long sequences can pass 2^64 bytes, where the estimate saturates.
    using L = long double;
    const std::uint64_t embedding = in.model.tieWordEmbeddings ? 0 : 2 * in.model.embeddingParameters();
    const L bytes = L(weightsBytesOf(in.model, weights) - embedding) +
                    L(in.decodeBatch) * L(in.contextTokens) * L(in.model.kvBytesPerToken(kv)) * L(replication);
    d.bytesPerStep = bytes >= L(UINT64_MAX) ? UINT64_MAX : static_cast<std::uint64_t>(bytes);
    d.stepSeconds = static_cast<double>(d.bytesPerStep) / bandwidth;
    d.tokensPerS = in.decodeBatch / d.stepSeconds;
    const auto room = roomFor(in, weights, kv, replication);
    d.batchFits = room && room->tokens / static_cast<std::uint64_t>(in.contextTokens) >=
                              static_cast<std::uint64_t>(in.decodeBatch);
    return d;
}

Json decodeVariantJson(const DecodeVariant& d) {
    return Json{{"weights", storageDtypeName(d.weights)}, {"kv", storageDtypeName(d.kv)},
                {"bytes_per_step", d.bytesPerStep},       {"step_seconds", d.stepSeconds},
                {"tokens_per_s", d.tokensPerS},           {"batch_fits", d.batchFits}};
}

template <class T>
Json optionalJson(const std::optional<T>& v) {
    return v ? Json(*v) : Json(nullptr);
}

std::string gibText(std::uint64_t bytes) {
    return numfmt::fixed(static_cast<double>(bytes) / 1073741824.0, 2);
}

// Per GPU of each stage, in GiB as vLLM prints them.
std::string vllmStagesText(const VllmMemoryPlan& p) {
    std::string t = "    per GPU: " + gibText(p.requestedBytes) + " GiB requested; profiling run of " +
                    numfmt::grouped(static_cast<std::uint64_t>(p.profile.maxNumBatchedTokens)) + " tokens (" +
                    p.profile.batchedTokensSource + "), " + std::to_string(p.profile.maxNumSeqs) + " sequences" +
                    (p.profile.cudaGraphsDeducted ? "; CUDA graphs deducted" : "; CUDA graphs not deducted") + "\n";
    for (std::size_t i = 0; i < p.stages.size(); ++i) {
        const VllmStage& st = p.stages[i];
        t += "    " +
             (p.stages.size() > 1 ? "stage " + std::to_string(i + 1) + " (" + std::to_string(st.layers) + " layers): "
                                  : std::string()) +
             "weights " + gibText(st.weightsBytes) + " GiB, activation peak " + gibText(st.activationBytes) +
             " GiB, non-torch " + gibText(st.nonTorchBytes) + " GiB" +
             (st.cudaGraphBytes ? ", CUDA graphs " + gibText(st.cudaGraphBytes) + " GiB" : std::string()) +
             ", KV pool " +
             (st.poolBytes > 0 ? gibText(static_cast<std::uint64_t>(st.poolBytes)) + " GiB = " +
                                     numfmt::grouped(st.blocks) + " blocks of " + std::to_string(p.blockSize)
                               : std::string("none")) +
             (p.stages.size() > 1 && static_cast<int>(i) == p.tightestStage ? " (the tightest)" : "") + "\n";
    }
    return t;
}

Json vllmPlanJson(const VllmMemoryPlan& p, const VllmServeSettings& s) {
    Json stages = Json::array();
    for (const VllmStage& st : p.stages)
        stages.push_back(Json{{"first_layer", st.firstLayer},
                              {"layers", st.layers},
                              {"weights_bytes", st.weightsBytes},
                              {"activation_peak_bytes", st.activationBytes},
                              {"non_torch_bytes", st.nonTorchBytes},
                              {"cuda_graph_bytes", st.cudaGraphBytes},
                              {"kv_pool_bytes", st.poolBytes},
                              {"kv_bytes_per_token", st.kvBytesPerToken},
                              {"blocks", st.blocks},
                              {"tokens", st.tokens}});
    return Json{{"version", p.profile.version.text},
                {"engine", p.profile.v1Engine ? "V1" : "V0"},
                {"max_num_batched_tokens", p.profile.maxNumBatchedTokens},
                {"max_num_batched_tokens_from", p.profile.batchedTokensSource},
                {"max_num_seqs", p.profile.maxNumSeqs},
                {"block_size", p.blockSize},
                {"tensor_parallel", p.tensorParallel},
                {"pipeline_parallel", p.pipelineParallel},
                {"custom_all_reduce", s.customAllReduce},
                {"cuda_graphs_deducted", p.profile.cudaGraphsDeducted},
                {"requested_bytes_per_gpu", p.requestedBytes},
                {"tightest_stage", p.tightestStage},
                {"blocks", p.blocks},
                {"stages", stages}};
}

}  // namespace

Result<CapacityResult> planCapacity(const CapacityInputs& in) {
    if (in.gpus < 1 || in.gpus > kMaxGpus)
        return Error{"the number of GPUs must be 1 to " + std::to_string(kMaxGpus) + " (got " +
                     std::to_string(in.gpus) + ")"};
    if (!(in.gpuUtilization > 0 && in.gpuUtilization <= 1))
        return Error{"the GPU memory utilisation must be in (0, 1] (got " + numfmt::fixed(in.gpuUtilization, 3) + ")"};
    if (in.contextTokens < 1 || in.contextTokens > kMaxContextTokens)
        return Error{"the context must be 1 to " + std::to_string(kMaxContextTokens) + " tokens (got " +
                     std::to_string(in.contextTokens) + ")"};
    if (!(in.overheadGiB >= 0 && in.overheadGiB <= kMaxGiB))
        return Error{"the runtime overhead must be 0 to 1e6 GiB (got " + numfmt::fixed(in.overheadGiB, 3) + ")"};
    if (static_cast<double>(in.gpu.memoryBytes) > kMaxGiB * 1073741824.0)
        return Error{"the memory per GPU must be at most 1e6 GiB"};
    if (in.decodeBatch < 1 || in.decodeBatch > kMaxDecodeBatch)
        return Error{"the decode batch must be 1 to " + std::to_string(kMaxDecodeBatch) + " (got " +
                     std::to_string(in.decodeBatch) + ")"};
    if (in.model.layers < 1 || in.model.kvHeads < 1 || in.model.headDim < 1)
        return Error{"model " + in.model.name + " has no attention layers to size"};

    CapacityResult r;
    r.inputs = in;
    r.parameters = in.model.parameterCount();
    r.kvBytesPerToken = in.model.kvBytesPerToken(in.kv);
    // vLLM gives each GPU max(1, kv_heads / tp) KV heads: past kv_heads GPUs the heads are copied, not split.
    r.kvReplication = in.gpus > in.model.kvHeads ? (in.gpus + in.model.kvHeads - 1) / in.model.kvHeads : 1;
    const WeightFormat format = in.weightsFormat();
    r.weightsBytes = weightsBytesOf(in.model, format);

    auto room = roomFor(in, format, in.kv, r.kvReplication);
    if (!room) return room.error();
    r.usableBytes = room->usable;
    r.overheadBytes = room->overhead;
    r.vllm = room->plan;
    const std::string gpusText = std::to_string(in.gpus * in.pipelineParallel());
    if (room->kvBytes <= 0) {
        r.shortfallBytes = static_cast<std::uint64_t>(-room->kvBytes);
        r.reason = "does not fit: the weights (" + formatBytes(r.weightsBytes) + ") and the runtime overhead (" +
                   formatBytes(r.overheadBytes) + ") need more than the usable memory (" + formatBytes(r.usableBytes) +
                   " = " + gpusText + " x " + formatBytes(in.gpu.memoryBytes) + " x " +
                   numfmt::fixed(in.gpuUtilization, 2) + "); " + formatBytes(r.shortfallBytes) +
                   " short, before any KV cache";
    } else {
        r.kvCacheBytes = static_cast<std::uint64_t>(room->kvBytes);
        r.maxTokens = room->tokens;
        r.maxSequences = r.maxTokens / static_cast<std::uint64_t>(in.contextTokens);
        if (r.maxSequences == 0)
            r.reason = "does not fit: the KV cache holds " + numfmt::grouped(r.maxTokens) +
                       " tokens, less than one sequence of " +
                       numfmt::grouped(static_cast<std::uint64_t>(in.contextTokens));
    }
    r.fits = r.maxSequences >= 1;

    if (in.gpu.bandwidthBytesPerS && *in.gpu.bandwidthBytesPerS > 0) {
        DecodeEstimate d;
        d.batch = in.decodeBatch;
        d.contextTokens = in.contextTokens;
        // Pipeline stages read their layers one after the other: a step runs at one stage's TP bandwidth.
        d.bandwidthBytesPerS = static_cast<double>(in.gpus) * *in.gpu.bandwidthBytesPerS;
        const auto variant = [&](WeightFormat w, StorageDtype kv) {
            return decodeFor(in, d.bandwidthBytesPerS, w, kv, r.kvReplication);
        };
        d.selected = variant(format, in.kv);
        d.bf16 = variant(WeightFormat::Bf16, StorageDtype::Bf16);
        d.fp8 = variant(WeightFormat::Fp8, StorageDtype::Fp8);
        d.fp8Speedup = d.fp8.tokensPerS / d.bf16.tokensPerS;
        r.decode = d;
    }
    return r;
}

std::string formatBytes(std::uint64_t bytes) {
    const double b = static_cast<double>(bytes);
    return numfmt::fixed(b / 1e9, 2) + " GB (" + numfmt::fixed(b / 1073741824.0, 2) + " GiB)";
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
    if (r.vllm) {  // the modelled overhead per GPU of the tightest stage
        const VllmStage& st = r.vllm->stages[static_cast<std::size_t>(r.vllm->tightestStage)];
        j["overhead_gib"] =
            static_cast<double>(st.activationBytes + st.nonTorchBytes + st.cudaGraphBytes) / 1073741824.0;
    }
    j["batch"] = in.decodeBatch;
    j["accounting"] = in.vllm ? "vllm" : "flat";
    j["weight_format"] = weightFormatName(in.weightsFormat());
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
                         {"memory_source", in.gpu.memorySource},
                         {"datasheet_memory_gb", optionalJson(in.gpu.datasheetMemoryGB)},
                         {"bandwidth_bytes_per_s", optionalJson(in.gpu.bandwidthBytesPerS)},
                         {"fp8_dense_tflops", optionalJson(in.gpu.fp8DenseTflops)},
                         {"bf16_dense_tflops", optionalJson(in.gpu.bf16DenseTflops)},
                         {"fp8_tensor_cores", in.gpu.fp8TensorCores},
                         {"fp4_tensor_cores", in.gpu.fp4TensorCores},
                         {"fp4_dense_tflops", optionalJson(in.gpu.fp4DenseTflops)}};
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
    j["vllm"] = r.vllm ? vllmPlanJson(*r.vllm, *in.vllm) : Json(nullptr);
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
         (in.gpu.source == "local" ? " (this machine, free memory)" : "") + ": weights " +
         (in.weightFormat ? std::string(weightFormatName(*in.weightFormat)) : upper(in.weights)) + ", KV cache " +
         upper(in.kv) + "\n";
    const auto line = [&t](const std::string& label, const std::string& value) {
        std::string l = "  " + label;
        l.resize(22, ' ');
        t += l + value + "\n";
    };
    std::string params = numfmt::fixed(static_cast<double>(r.parameters) / 1e9, 2) + " B";
    if (m.publishedParameters) params += " (published " + numfmt::fixed(*m.publishedParameters / 1e9, 2) + " B)";
    line("parameters", params);
    line("KV per token", numfmt::grouped(r.kvBytesPerToken) + " B = 2 x " + std::to_string(m.layers) + " layers x " +
                             std::to_string(m.kvHeads) + " KV heads x " + std::to_string(m.headDim) + " x " +
                             std::to_string(bytesPerElement(in.kv)) + " B" +
                             (r.kvReplication > 1 ? " (x" + std::to_string(r.kvReplication) +
                                                        ": more GPUs than KV heads, which vLLM copies)"
                                                  : ""));
    line("weights", formatBytes(r.weightsBytes));
    line("usable memory", formatBytes(r.usableBytes) + " = " + std::to_string(in.gpus * in.pipelineParallel()) + " x " +
                              formatBytes(in.gpu.memoryBytes) + " x " + numfmt::fixed(in.gpuUtilization, 2));
    if (r.vllm) {
        line("runtime overhead", formatBytes(r.overheadBytes) + ", vLLM " + r.vllm->profile.version.text + "'s " +
                                     "accounting (" + (r.vllm->profile.v1Engine ? "V1" : "V0") + ")");
        t += vllmStagesText(*r.vllm);
    } else {
        line("runtime overhead",
             formatBytes(r.overheadBytes) + ", " + numfmt::fixed(in.overheadGiB, 2) + " GiB per GPU (flat)");
    }
    if (r.shortfallBytes > 0) {
        line("KV cache", "none: " + formatBytes(r.shortfallBytes) + " short");
    } else {
        line("KV cache", formatBytes(r.kvCacheBytes));
        line("max tokens", numfmt::grouped(r.maxTokens));
        line("max sequences", numfmt::grouped(r.maxSequences) + " of " +
                                  numfmt::grouped(static_cast<std::uint64_t>(in.contextTokens)) + " tokens");
    }
    if (!r.fits) t += "  DOES NOT FIT: " + r.reason.substr(r.reason.find(':') + 2) + "\n";
    if (r.decode) {
        const DecodeEstimate& d = *r.decode;
        t += "  decode estimate, bandwidth-bound upper bound (batch " + std::to_string(d.batch) + " at " +
             numfmt::grouped(static_cast<std::uint64_t>(d.contextTokens)) + " tokens, " +
             numfmt::grouped(static_cast<std::uint64_t>(std::llround(d.bandwidthBytesPerS / 1e9))) + " GB/s):\n";
        const auto variant = [&](const char* label, const DecodeVariant& v) {
            line(std::string("  ") + label, numfmt::grouped(static_cast<std::uint64_t>(std::llround(v.tokensPerS))) +
                                                " tokens/s (" + formatBytes(v.bytesPerStep) + " read per step" +
                                                (v.batchFits ? ")" : "; the batch does not fit)"));
        };
        variant("as asked", d.selected);
        variant("BF16", d.bf16);
        variant("FP8", d.fp8);
        line("  FP8 / BF16", numfmt::fixed(d.fp8Speedup, 2) + "x");
    } else {
        t += "  decode estimate: none (no datasheet bandwidth for this GPU)\n";
    }
    return t;
}

}  // namespace fp8dash
