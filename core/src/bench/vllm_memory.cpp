// vLLM's memory accounting for the capacity planner (README "Capacity and the plan", "how close to vLLM"). The
// constants are calibrated on the real start-up logs in shared/fixtures/vllm-capacity (vLLM 0.6 to 0.28) and named
// where they are used; the shape of the formula is vLLM's determine_available_memory:
// requested (utilisation x total) - (weights + torch peak increase + non-torch increase) [- CUDA-graph estimate].
#include "fp8dash/core/vllm_memory.h"

#include "text_util.h"

#include <algorithm>
#include <charconv>
#include <cmath>

namespace fp8dash {
namespace {

using U = std::uint64_t;
constexpr double kGiB = 1073741824.0;

U gib(double v) {
    return static_cast<U>(std::llround(v * kGiB));
}

// Non-torch memory per GPU at TP 1: 0.25 GiB in every V1 log of 0.19 (H100), 0.35 GiB in the V0 log of issue
// #10517 (RTX 3090). Tensor parallelism adds the custom all-reduce and NCCL buffers: 2.07 - 0.25 = 1.82 GiB per GPU
// at TP 2 in 0.19 (H100), 3.58 - 1.79 = 1.79 GiB in PR #10511's V0 run. Without custom all-reduce the RTX PRO 6000
// TP-2 run of 0.28 leaves no room for more than the TP-1 figure.
constexpr double kNonTorchV1GiB = 0.25;
constexpr double kNonTorchV0GiB = 0.35;
constexpr double kAllReduceGiB = 1.82;
// The sampler's share of the profiling run: FP32 logits for every row and the copies sampling makes of them. Fitted
// on 0.19's H100 logs: Llama-3.1-8B 1.89 GiB, Qwen3-8B 2.21 GiB, Mistral-Small-24B 2.03 GiB at 1,024 rows.
constexpr double kSamplerCopies = 3.75;

struct FormatName {
    WeightFormat format;
    const char* name;
};
constexpr FormatName kFormatNames[] = {
    {WeightFormat::Bf16, "bf16"},
    {WeightFormat::Fp16, "fp16"},
    {WeightFormat::Fp8, "fp8"},
    {WeightFormat::Fp8Channel, "fp8-channel"},
    {WeightFormat::Fp8Dynamic, "fp8-dynamic"},
    {WeightFormat::Int8W8A8, "int8"},
    {WeightFormat::Int4W4A16, "int4"},
    {WeightFormat::Int4Awq, "int4-awq"},
    {WeightFormat::Nvfp4, "nvfp4"},
    {WeightFormat::Mxfp4, "mxfp4"},
};

bool containsCi(std::string_view haystack, std::string_view needle) {
    return text::lower(haystack).find(needle) != std::string::npos;
}

// vLLM's get_pp_indices: layers // pp per stage, the remainder one each to the stages before the last.
std::vector<int> stageLayers(int layers, int pp) {
    std::vector<int> parts(static_cast<std::size_t>(pp), layers / pp);
    const int remaining = layers % pp;
    for (int i = 2; i < remaining + 2; ++i) ++parts[static_cast<std::size_t>(pp - i)];
    return parts;
}

}  // namespace

const char* weightFormatName(WeightFormat f) {
    for (const auto& n : kFormatNames)
        if (n.format == f) return n.name;
    return "bf16";
}

std::string weightFormatNamesText() {
    std::string out;
    for (const auto& n : kFormatNames) out += (out.empty() ? "" : ", ") + std::string(n.name);
    return out;
}

std::optional<WeightFormat> parseWeightFormat(std::string_view textIn) {
    const std::string t = text::lower(text::trim(textIn));
    for (const auto& n : kFormatNames)
        if (t == n.name) return n.format;
    if (t == "bfloat16") return WeightFormat::Bf16;
    if (t == "float16" || t == "half") return WeightFormat::Fp16;
    if (t == "fp8_e4m3" || t == "e4m3" || t == "fp8-tensor") return WeightFormat::Fp8;
    if (t == "fp8_dynamic" || t == "fp8-dyn") return WeightFormat::Fp8Dynamic;
    if (t == "fp8_channel") return WeightFormat::Fp8Channel;
    if (t == "w8a8" || t == "int8-w8a8" || t == "int8_w8a8") return WeightFormat::Int8W8A8;
    if (t == "w4a16" || t == "int4-w4a16" || t == "gptq" || t == "gptq_marlin") return WeightFormat::Int4W4A16;
    if (t == "awq" || t == "awq_marlin" || t == "int4_awq") return WeightFormat::Int4Awq;
    if (t == "modelopt_fp4" || t == "nvfp4a16" || t == "nvfp4-w4a4" || t == "nvfp4_w4a4" || t == "w4a4_nvfp4" ||
        t == "nvfp4-w4a16" || t == "w4a16_nvfp4")
        return WeightFormat::Nvfp4;
    if (t == "mxfp4_w4a4" || t == "mxfp4-w4a4" || t == "mxfp4a16" || t == "w4a16_mxfp4") return WeightFormat::Mxfp4;
    return std::nullopt;
}

WeightFormat weightFormatOf(StorageDtype d) {
    return d == StorageDtype::Fp8 ? WeightFormat::Fp8 : WeightFormat::Bf16;
}

StorageDtype storageDtypeOf(WeightFormat f) {
    return f == WeightFormat::Bf16 || f == WeightFormat::Fp16 ? StorageDtype::Bf16 : StorageDtype::Fp8;
}

WeightBytes weightBytesOf(const ModelArchitecture& m, WeightFormat f, int groupSize) {
    WeightBytes b;
    const U layers = static_cast<U>(std::max(m.layers, 1));
    const U linear = m.linearParameters() / layers;
    const U h = U(m.hiddenSize), q = U(m.attentionHeads) * U(m.headDim), kv = U(m.kvHeads) * U(m.headDim);
    const U outChannels = q + 2 * kv + h + 2 * U(m.intermediateSize) + h;  // q, k, v, o, gate, up, down
    switch (f) {
        case WeightFormat::Bf16:
        case WeightFormat::Fp16:
            b.linearPerLayer = 2 * linear;
            break;
        case WeightFormat::Fp8:
            b.linearPerLayer = linear;
            break;  // one FP32 scale a matrix: a few bytes, left out
        case WeightFormat::Fp8Channel:
        case WeightFormat::Fp8Dynamic:
        case WeightFormat::Int8W8A8:
            b.linearPerLayer = linear + 4 * outChannels;
            break;  // FP32 scale per channel
        case WeightFormat::Int4W4A16:
        case WeightFormat::Int4Awq: {
            const U groups = linear / static_cast<U>(std::max(groupSize, 1));
            // Half a byte a weight, a 16-bit scale a group, and for AWQ a 4-bit zero point a group.
            b.linearPerLayer = linear / 2 + 2 * groups + (f == WeightFormat::Int4Awq ? groups / 2 : 0);
            break;
        }
        case WeightFormat::Nvfp4:
            // Half a byte a weight and one E4M3 byte a block of 16 (the FP32 global scales, a few bytes a matrix,
            // left out as FP8's per-tensor scale is): 4.5 bits a weight.
            b.linearPerLayer = linear / 2 + linear / 16;
            break;
        case WeightFormat::Mxfp4:
            b.linearPerLayer = linear / 2 + linear / 32;  // one UE8M0 byte a block of 32: 4.25 bits a weight
            break;
    }
    const U normsAndBiases = m.normAndBiasParameters() - h;  // less the final norm
    b.normAndBiasPerLayer = 2 * (normsAndBiases / layers);
    b.embedding = 2 * m.embeddingParameters();
    b.lmHead = 2 * m.lmHeadParameters();
    b.finalNorm = 2 * h;
    b.extra = 2 * m.extraParameters;
    return b;
}

Result<VllmVersion> parseVllmVersion(std::string_view textIn) {
    std::string t = text::trim(textIn);
    VllmVersion v;
    v.text = t;
    if (!t.empty() && (t[0] == 'v' || t[0] == 'V')) t.erase(0, 1);
    int* parts[] = {&v.major, &v.minor, &v.patch};
    const char* p = t.data();
    const char* end = t.data() + t.size();
    int count = 0;
    while (count < 3 && p < end) {
        const auto [next, ec] = std::from_chars(p, end, *parts[count]);
        if (ec != std::errc() || next == p) break;
        ++count;
        p = next;
        if (p < end && *p == '.')
            ++p;
        else
            break;
    }
    if (count < 2) return Error{"vLLM version \"" + v.text + "\": expected a release such as 0.19 or 0.6.4"};
    return v;
}

Result<VllmProfile> vllmProfileFor(const VllmServeSettings& s, std::uint64_t gpuMemoryBytes, std::string_view gpuName,
                                   long long contextTokens) {
    auto version = parseVllmVersion(s.version);
    if (!version) return version.error();
    VllmProfile p;
    p.version = *version;
    p.v1Engine = !(p.version < VllmVersion{0, 8, 0, {}});  // V1 became the default engine in 0.8.0
    p.cudaGraphsDeducted = s.deductCudaGraphs.value_or(false) && !s.enforceEager;
    if (p.v1Engine) {
        // EngineArgs' defaults for the API server: 8192 tokens / 1024 sequences on big GPUs, else 2048 / 256. 0.8
        // picked the big ones by name (H100, H200); later releases by memory (>= 70 GiB) except the A100.
        bool big = false;
        if (p.version < VllmVersion{0, 9, 0, {}})
            big = containsCi(gpuName, "h100") || containsCi(gpuName, "h200");
        else
            big = static_cast<double>(gpuMemoryBytes) >= 70 * kGiB && !containsCi(gpuName, "a100");
        p.maxNumBatchedTokens = big ? 8192 : 2048;
        p.maxNumSeqs = big ? 1024 : 256;
        p.batchedTokensSource = big ? "vLLM's default for GPUs of 70 GiB or more (not A100)"
                                    : "vLLM's default for GPUs under 70 GiB and the A100";
    } else {
        // V0 without chunked prefill profiles a whole max_model_len (at least 2048 tokens); it turns chunked prefill
        // on for contexts over 32K, with 2048-token chunks.
        p.maxNumBatchedTokens = contextTokens > 32768 ? 2048 : std::max<long long>(contextTokens, 2048);
        p.maxNumSeqs = 256;
        p.batchedTokensSource = "the V0 engine: max(max_model_len, 2048)";
    }
    if (s.maxNumBatchedTokens) {
        p.maxNumBatchedTokens = *s.maxNumBatchedTokens;
        p.batchedTokensSource = "--max-num-batched-tokens";
    }
    if (s.maxNumSeqs) p.maxNumSeqs = *s.maxNumSeqs;
    return p;
}

std::uint64_t vllmActivationPeakBytes(const ModelArchitecture& m, int tensorParallel, long long batchedTokens,
                                      int samplerRows, bool lastStage) {
    using L = long double;
    const L tp = std::max(tensorParallel, 1);
    // The MLP's gate/up output (2 x intermediate), its activation (intermediate) and ~3 hidden-sized buffers, 2 bytes
    // each: 2.06 GiB at 20,000 tokens and 2.99 GiB at 29,000 for Llama-3.1-8B in the V0 logs of issue #10517.
    const L forward = L(batchedTokens) * 2 * (3 * L(m.intermediateSize) / tp + 3 * L(m.hiddenSize));
    L peak = forward;
    if (lastStage) {
        const L rows = std::min<L>(samplerRows, L(batchedTokens));
        const L sampler = kSamplerCopies * rows * L(m.vocabSize) * 4 + L(batchedTokens) * L(m.hiddenSize) * 2;
        peak = std::max(peak, sampler);
    }
    return static_cast<U>(std::llround(static_cast<double>(peak)));
}

std::uint64_t vllmNonTorchBytes(const VllmProfile& p, int tensorParallel, bool customAllReduce) {
    double g = p.v1Engine ? kNonTorchV1GiB : kNonTorchV0GiB;
    if (tensorParallel >= 2 && customAllReduce) g += kAllReduceGiB;
    return gib(g);
}

std::uint64_t vllmCudaGraphBytes(int tensorParallel) {
    return gib(tensorParallel >= 2 ? 1.69 : 0.84);
}

Result<VllmMemoryPlan> planVllmMemory(const ModelArchitecture& m, WeightFormat weights, StorageDtype kv,
                                      std::uint64_t gpuMemoryBytes, std::string_view gpuName, double utilization,
                                      int tensorParallel, long long contextTokens, const VllmServeSettings& s) {
    auto profile = vllmProfileFor(s, gpuMemoryBytes, gpuName, contextTokens);
    if (!profile) return profile.error();
    if (s.pipelineParallel < 1 || s.pipelineParallel > m.layers)
        return Error{"the pipeline-parallel size must be 1 to the model's " + std::to_string(m.layers) +
                     " layers (got " + std::to_string(s.pipelineParallel) + ")"};
    if (s.blockSize < 1 || s.blockSize > 1024)
        return Error{"the block size must be 1 to 1024 tokens (got " + std::to_string(s.blockSize) + ")"};
    if (profile->maxNumBatchedTokens < 1 || profile->maxNumBatchedTokens > (1ll << 24))
        return Error{"max_num_batched_tokens must be 1 to 16777216 (got " +
                     std::to_string(profile->maxNumBatchedTokens) + ")"};
    if (profile->maxNumSeqs < 1 || profile->maxNumSeqs > (1 << 20))
        return Error{"max_num_seqs must be 1 to 1048576 (got " + std::to_string(profile->maxNumSeqs) + ")"};

    VllmMemoryPlan plan;
    plan.profile = *profile;
    plan.tensorParallel = std::max(tensorParallel, 1);
    plan.pipelineParallel = s.pipelineParallel;
    plan.blockSize = s.blockSize;
    plan.requestedBytes =
        static_cast<U>(std::llround(static_cast<long double>(gpuMemoryBytes) * static_cast<long double>(utilization)));
    const U tp = static_cast<U>(plan.tensorParallel);
    const WeightBytes wb = weightBytesOf(m, weights, kDefaultGroupSize);
    // vLLM keeps at least one KV head on each GPU: past kv_heads GPUs the heads are copied, not split.
    const U kvHeadsPerGpu = std::max<U>(1, (U(m.kvHeads) + tp - 1) / tp);
    const U nonTorch = vllmNonTorchBytes(plan.profile, plan.tensorParallel, s.customAllReduce);
    const U graphs = plan.profile.cudaGraphsDeducted ? vllmCudaGraphBytes(plan.tensorParallel) : 0;

    const std::vector<int> parts = stageLayers(m.layers, s.pipelineParallel);
    int first = 0;
    for (std::size_t i = 0; i < parts.size(); ++i) {
        const bool isFirst = i == 0, isLast = i + 1 == parts.size();
        VllmStage st;
        st.firstLayer = first;
        st.layers = parts[i];
        first += parts[i];
        const U layers = static_cast<U>(st.layers);
        // Linear layers, the vocabulary-parallel embedding and LM head are split over TP; norms are copied.
        U w = wb.linearPerLayer * layers / tp + wb.normAndBiasPerLayer * layers;
        if (isFirst) w += (wb.embedding + wb.extra) / tp;
        if (isLast) {
            w += wb.finalNorm;
            // A tied LM head is the embedding itself, unless the last stage is another GPU.
            w += (m.tieWordEmbeddings ? (isFirst ? 0 : wb.embedding) : wb.lmHead) / tp;
        }
        st.weightsBytes = w;
        st.activationBytes = vllmActivationPeakBytes(m, plan.tensorParallel, plan.profile.maxNumBatchedTokens,
                                                     plan.profile.maxNumSeqs, isLast);
        st.nonTorchBytes = nonTorch;
        st.cudaGraphBytes = graphs;
        st.poolBytes = static_cast<long long>(plan.requestedBytes) -
                       static_cast<long long>(st.weightsBytes + st.activationBytes + st.nonTorchBytes + graphs);
        st.kvBytesPerToken = 2 * layers * kvHeadsPerGpu * U(m.headDim) * U(bytesPerElement(kv));
        const U page = static_cast<U>(s.blockSize) * st.kvBytesPerToken;
        if (st.poolBytes > 0 && page > 0) st.blocks = static_cast<U>(st.poolBytes) / page;
        st.tokens = st.blocks * static_cast<U>(s.blockSize);
        plan.stages.push_back(st);
    }
    for (std::size_t i = 1; i < plan.stages.size(); ++i)
        if (plan.stages[i].tokens < plan.stages[static_cast<std::size_t>(plan.tightestStage)].tokens ||
            (plan.stages[i].tokens == plan.stages[static_cast<std::size_t>(plan.tightestStage)].tokens &&
             plan.stages[i].poolBytes < plan.stages[static_cast<std::size_t>(plan.tightestStage)].poolBytes))
            plan.tightestStage = static_cast<int>(i);
    const VllmStage& tight = plan.stages[static_cast<std::size_t>(plan.tightestStage)];
    plan.tokens = tight.tokens;
    plan.blocks = tight.blocks;
    return plan;
}

}  // namespace fp8dash
