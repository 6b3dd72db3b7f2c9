// Several FP8 variants against one baseline (variant_comparison.h, README "Variants and layer steps"): each
// variant's verdict and average recovery, the layer steps measured between the two runs that differ by one layer, and
// the recommendation. Expected figures are computed here from the published table (tests/data/lm-eval-variants,
// SOURCES.md) and from the ladder's construction (tests/data/lm-eval-ladder/expected.json, make_ladder.py), not read
// back from fp8dash.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>

#include "fp8dash/core/comparison_builder.h"
#include "fp8dash/core/comparison_file.h"
#include "fp8dash/core/report_format.h"
#include "fp8dash/core/variant_comparison.h"
#include "test_paths.h"

namespace fp8dash {
namespace {

namespace fs = std::filesystem;

const fs::path kPublished = test::testData() / "lm-eval-variants";
const fs::path kLadder = test::testData() / "lm-eval-ladder";

ComparisonInputs variantInputs(const fs::path& root, const std::vector<std::string>& runs) {
    ComparisonInputs in;
    in.baselinePath = root / runs[0];
    in.candidatePath = root / runs[1];
    for (std::size_t k = 2; k < runs.size(); ++k) in.moreCandidatePaths.push_back(root / runs[k]);
    return in;
}

const VariantResult& variant(const VariantComparison& v, const std::string& label) {
    for (const auto& r : v.variants)
        if (r.label == label) return r;
    throw std::runtime_error("no variant " + label);
}

// The vLLM blog's 2x2 (Qwen3.5-27B, figure 8): BF16, BF16 + FP8 KV, FP8 weights, FP8 weights + FP8 KV.
TEST(Variants, PublishedTableGivesEachVerdictTheAverageRecoveryAndTheRecommendation) {
    auto built =
        buildComparison(variantInputs(kPublished / "qwen3.5-27b", {"bf16", "fp8-kv", "fp8-weights", "fp8-weights-kv"}));
    ASSERT_TRUE(built.ok()) << built.error().message;
    ASSERT_TRUE(built->decision.variants.has_value());
    const VariantComparison& v = *built->decision.variants;
    ASSERT_EQ(v.variants.size(), 3u);
    // The table (aime25, gpqa, lcb, math500), in percent as published.
    const double bf16[] = {92.7, 86.9, 79.4, 85.4}, kv[] = {92.0, 86.5, 79.6, 85.3}, w[] = {92.7, 86.7, 79.8, 84.9},
                 wkv[] = {93.3, 86.5, 79.2, 85.4};
    const auto avg = [&](const double* c) {
        double sb = 0, sc = 0;
        for (int i = 0; i < 4; ++i) sb += bf16[i], sc += c[i];
        return sc / sb * 100;
    };
    const VariantResult& vkv = variant(v, "BF16 + FP8 KV (scales 1.0)");
    const VariantResult& vw = variant(v, "FP8 W8A8");
    const VariantResult& vwkv = variant(v, "FP8 W8A8 + FP8 KV (scales 1.0)");
    EXPECT_NEAR(*vkv.averageRecoveryPct, avg(kv), 1e-9);
    EXPECT_NEAR(*vw.averageRecoveryPct, avg(w), 1e-9);
    EXPECT_NEAR(*vwkv.averageRecoveryPct, avg(wkv), 1e-9);
    // aime25 92.7 -> 92.0 is a 0.755% loss: monitor; math500 85.4 -> 84.9 is 0.585%: monitor; FP8 + FP8 KV's worst
    // is gpqa 86.9 -> 86.5, 0.460%: go.
    EXPECT_EQ(vkv.verdict, Verdict::Monitor);
    EXPECT_EQ(vkv.worstTask, "aime25");
    EXPECT_NEAR(*vkv.worstDegradationPct, (92.7 - 92.0) / 92.7 * 100, 1e-9);
    EXPECT_EQ(vw.verdict, Verdict::Monitor);
    EXPECT_EQ(vw.worstTask, "minerva_math500");
    EXPECT_EQ(vwkv.verdict, Verdict::Go);
    EXPECT_NEAR(*vwkv.worstDegradationPct, (86.9 - 86.5) / 86.9 * 100, 1e-9);
    // Only FP8 + FP8 KV passes --accept go, and it is also the most aggressive (a superset of both others).
    EXPECT_EQ(v.recommendation.label, "FP8 W8A8 + FP8 KV (scales 1.0)");
    EXPECT_EQ(v.recommendation.verdict, Verdict::Go);
    ASSERT_EQ(v.recommendation.rejected.size(), 2u);
    EXPECT_EQ(v.recommendation.rejected[0].task, "aime25");
    EXPECT_EQ(v.recommendation.rejected[1].task, "minerva_math500");
    EXPECT_NE(v.recommendation.buys.find("twice the KV-cache tokens"), std::string::npos);
    // The overall verdict follows the recommended variant.
    EXPECT_EQ(built->decision.verdict, Verdict::Go);

    // Under --accept monitor all three pass; the superset rule still picks weights + KV cache.
    ComparisonInputs in =
        variantInputs(kPublished / "qwen3.5-27b", {"bf16", "fp8-kv", "fp8-weights", "fp8-weights-kv"});
    in.recommendation.accept = Verdict::Monitor;
    auto monitor = buildComparison(in);
    ASSERT_TRUE(monitor.ok()) << monitor.error().message;
    EXPECT_EQ(monitor->decision.variants->recommendation.label, "FP8 W8A8 + FP8 KV (scales 1.0)");
    EXPECT_TRUE(monitor->decision.variants->recommendation.rejected.empty());
    // Among the two that no superset orders (weights only, KV only), with the superset left out: neither frees more
    // memory on both counts, so the smaller worst degradation wins (math500 0.585% < aime25 0.755%).
    ComparisonInputs two = variantInputs(kPublished / "qwen3.5-27b", {"bf16", "fp8-kv", "fp8-weights"});
    two.recommendation.accept = Verdict::Monitor;
    auto pair = buildComparison(two);
    ASSERT_TRUE(pair.ok()) << pair.error().message;
    EXPECT_EQ(pair->decision.variants->recommendation.label, "FP8 W8A8");
}

// Figure 7 (Qwen3-30B-A3B-Thinking-2507): no variant passes, each rejected with the task that failed it.
TEST(Variants, NoVariantPassingSaysSoAndCountsAsInvestigate) {
    auto built = buildComparison(
        variantInputs(kPublished / "qwen3-30b-a3b-thinking-2507", {"bf16", "fp8-kv", "fp8-weights", "fp8-weights-kv"}));
    ASSERT_TRUE(built.ok()) << built.error().message;
    const VariantComparison& v = *built->decision.variants;
    EXPECT_FALSE(v.recommendation.label.has_value());
    EXPECT_EQ(v.recommendation.verdict, Verdict::Investigate);
    EXPECT_EQ(built->decision.verdict, Verdict::Investigate);
    ASSERT_EQ(v.recommendation.rejected.size(), 3u);
    // gpqa 72.8 -> 70.7 (2.88%); lcb 65.4 -> 64.4 (1.53%); lcb 65.4 -> 63.5 (2.91%).
    EXPECT_EQ(v.recommendation.rejected[0].task, "gpqa_diamond_cot_zeroshot");
    EXPECT_EQ(v.recommendation.rejected[1].task, "livecodebench_v6");
    EXPECT_EQ(v.recommendation.rejected[2].task, "livecodebench_v6");
    EXPECT_NE(v.recommendation.rejected[2].reason.find("2.91%"), std::string::npos)
        << v.recommendation.rejected[2].reason;
    EXPECT_NE(v.recommendation.reason.find("no variant passes"), std::string::npos);
}

Json ladderExpected() {
    std::ifstream in(kLadder / "expected.json");
    return Json::parse(in);
}

const LayerStep* step(const VariantComparison& v, const std::string& from, const std::string& to) {
    for (const auto& s : v.steps)
        if (s.fromLabel == from && s.toLabel == to) return &s;
    return nullptr;
}

// The ladder BF16 / W8A8 / W8A8 + FP8 KV (scales 1.0) / W8A8 + calibrated KV, with sample logs: the KV step is measured
// between the two runs that differ by it, paired, and the recommendation follows the superset rule.
TEST(Variants, LadderMeasuresEachLayerStepPairedAndRecommendsBySuperset) {
    ComparisonInputs in = variantInputs(kLadder, {"bf16", "w8a8", "w8a8-kv", "w8a8-kv-cal"});
    in.recommendation.accept = Verdict::Monitor;
    auto built = buildComparison(in);
    ASSERT_TRUE(built.ok()) << built.error().message;
    const VariantComparison& v = *built->decision.variants;
    const Json e = ladderExpected();
    const std::string w8a8 = "FP8 W8A8", kv1 = "FP8 W8A8 + FP8 KV (scales 1.0)",
                      kvCal = "FP8 W8A8 + FP8 KV (calibrated scales)";
    EXPECT_EQ(variant(v, kv1).config.layers.kvScales.value, "1.0");
    EXPECT_EQ(variant(v, kvCal).config.layers.kvScales.value, "checkpoint");

    // Steps: BF16 -> W8A8 (weights), W8A8 -> either KV variant (the KV cache), KV 1.0 -> calibrated (the scales).
    // BF16 differs from the KV variants in two layers: no step.
    EXPECT_EQ(v.steps.size(), 4u);
    EXPECT_EQ(step(v, "BF16", kv1), nullptr);
    const LayerStep* kvStep = step(v, w8a8, kv1);
    ASSERT_NE(kvStep, nullptr);
    EXPECT_EQ(kvStep->plan.layer, "kv_cache");
    const Json& kvPair = e["pairs"]["w8a8>w8a8-kv/gsm8k"];
    const auto& gsm = kvStep->report.tasks.front();
    ASSERT_EQ(gsm.task, "gsm8k");
    ASSERT_TRUE(gsm.paired.has_value());
    EXPECT_EQ(gsm.paired->b01, kvPair["b01"].get<std::uint64_t>());  // 5 gained
    EXPECT_EQ(gsm.paired->b10, kvPair["b10"].get<std::uint64_t>());  // 25 lost
    EXPECT_NEAR(*gsm.deltaPct, kvPair["delta_pct"].get<double>(), 1e-9);
    ASSERT_FALSE(kvStep->tasks.empty());
    EXPECT_TRUE(kvStep->tasks.front().paired);
    EXPECT_EQ(kvStep->tasks.front().sentence.substr(0, 53), "adding the FP8 KV cache (scales 1.0) costs 2.65% on g");
    const LayerStep* scales = step(v, kv1, kvCal);
    ASSERT_NE(scales, nullptr);
    EXPECT_EQ(scales->plan.layer, "kv_scales");
    const Json& scalePair = e["pairs"]["w8a8-kv>w8a8-kv-cal/gsm8k"];
    EXPECT_EQ(scales->report.tasks.front().paired->b01, scalePair["b01"].get<std::uint64_t>());
    EXPECT_EQ(scales->report.tasks.front().paired->b10, scalePair["b10"].get<std::uint64_t>());
    // gsm8k's costliest step is the KV cache with scales 1.0 (2.65% against 0.53% for the weights).
    ASSERT_FALSE(v.costliestStep.empty());
    EXPECT_EQ(v.costliestStep.front().first, "gsm8k");
    EXPECT_EQ(v.costliestStep.front().second, w8a8 + " → " + kv1);

    // Against BF16: W8A8 0.53% and calibrated 0.79% are monitor (pass), scales 1.0 3.16% is investigate (fails).
    const auto deg = [&](const char* run) {
        const double b = e["means"]["bf16/gsm8k"].get<double>(),
                     c = e["means"][std::string(run) + "/gsm8k"].get<double>();
        return (b - c) / b * 100;
    };
    EXPECT_NEAR(*variant(v, kv1).worstDegradationPct, deg("w8a8-kv"), 1e-9);
    EXPECT_FALSE(variant(v, kv1).passes);
    EXPECT_TRUE(variant(v, w8a8).passes);
    EXPECT_TRUE(variant(v, kvCal).passes);
    // The superset rule: calibrated KV adds the KV cache to W8A8's layers, so it is chosen over W8A8.
    EXPECT_EQ(v.recommendation.label, kvCal);
    ASSERT_EQ(v.recommendation.rejected.size(), 1u);
    EXPECT_EQ(v.recommendation.rejected[0].label, kv1);
    EXPECT_EQ(v.recommendation.rejected[0].task, "gsm8k");

    // --min-recovery 99.3: calibrated KV recovers 754/760 = 99.21% on gsm8k, so W8A8 (99.47%) is the one.
    in.recommendation.minRecoveryPct = 99.3;
    auto strict = buildComparison(in);
    ASSERT_TRUE(strict.ok()) << strict.error().message;
    EXPECT_EQ(strict->decision.variants->recommendation.label, w8a8);

    // The comparison file keeps it all: saved, loaded and re-derived offline, the same recommendation and steps.
    const fs::path file = fs::temp_directory_path() / "fp8dash-ladder-test.fp8cmp";
    ASSERT_TRUE(saveComparisonFile(built->document, file).ok());
    auto loaded = loadComparisonFile(file);
    fs::remove(file);
    ASSERT_TRUE(loaded.ok()) << loaded.error().message;
    EXPECT_EQ(loaded->version, 3);
    auto again = decide(*loaded);
    ASSERT_TRUE(again.ok()) << again.error().message;
    ASSERT_TRUE(again->variants.has_value());
    EXPECT_EQ(again->variants->recommendation.label, kvCal);
    EXPECT_EQ(decisionToJson(*again).dump(), decisionToJson(built->decision).dump());
}

TEST(Variants, BadInputIsAClearError) {
    // A candidate identical to another: named both.
    auto same = buildComparison(variantInputs(kLadder, {"bf16", "w8a8", "w8a8"}));
    ASSERT_FALSE(same.ok());
    EXPECT_NE(same.error().message.find("identical"), std::string::npos) << same.error().message;
    EXPECT_NE(same.error().message.find("FP8 W8A8 #2"), std::string::npos) << same.error().message;
    // Duplicate labels, a label count that does not match.
    ComparisonInputs dup = variantInputs(kLadder, {"bf16", "w8a8", "w8a8-kv"});
    dup.labels = {"BF16", "FP8", "FP8"};
    auto d = buildComparison(dup);
    ASSERT_FALSE(d.ok());
    EXPECT_NE(d.error().message.find("\"FP8\" is given twice"), std::string::npos) << d.error().message;
    dup.labels = {"BF16", "FP8"};
    d = buildComparison(dup);
    ASSERT_FALSE(d.ok());
    EXPECT_NE(d.error().message.find("--label given 2 times for 3 runs"), std::string::npos) << d.error().message;
    // More than 8 candidates.
    std::vector<std::string> nine{"bf16"};
    for (int i = 0; i < 9; ++i) nine.push_back("w8a8");
    auto many = buildComparison(variantInputs(kLadder, nine));
    ASSERT_FALSE(many.ok());
    EXPECT_NE(many.error().message.find("8 candidates at most"), std::string::npos) << many.error().message;
}

TEST(Layers, EachLayerWithItsEvidenceAndALabel) {
    const auto config = [](const std::string& args) {
        auto r = parseLmEvalText(
            R"({"results": {"t": {"acc,none": 0.5}}, "config": {"model": "vllm", "model_args": ")" + args + "\"}}",
            "t.json");
        if (!r) throw std::runtime_error(r.error().message);
        return detectFp8Config(*r);
    };
    struct Case {
        const char* args;
        const char* weights;
        const char* kv;
        const char* scales;
        const char* activations;
        const char* label;
    };
    const Case cases[] = {
        {"pretrained=meta-llama/Llama-3.1-8B-Instruct,dtype=bfloat16", "none", "none", "none", "none", "BF16"},
        {"pretrained=RedHatAI/Meta-Llama-3.1-8B-Instruct-FP8-dynamic", "fp8_dynamic", "none", "none", "fp8_dynamic",
         "FP8 W8A8 dynamic"},
        {"pretrained=Qwen/Qwen3-8B-FP8-BLOCK,kv_cache_dtype=fp8_e4m3", "fp8_block", "fp8_e4m3", "1.0", "fp8_dynamic",
         "FP8 W8A8 block + FP8 KV (scales 1.0)"},
        {"pretrained=m/Llama-3-8B,quantization=fp8,kv_cache_dtype=fp8,calculate_kv_scales=true", "fp8", "fp8",
         "calculated", "fp8", "FP8 W8A8 + FP8 KV (calculated scales)"},
        {"pretrained=neuralmagic/Meta-Llama-3-8B-Instruct-FP8-KV,kv_cache_dtype=fp8", "fp8", "fp8", "checkpoint", "fp8",
         "FP8 W8A8 + FP8 KV (calibrated scales)"},
        {"pretrained=m/Llama-3-8B,dtype=float16,kv_cache_dtype=fp8_e5m2", "none", "fp8_e5m2", "1.0", "none",
         "FP16 + FP8 KV (scales 1.0)"},
        {"pretrained=neuralmagic/Meta-Llama-3-8B-Instruct-quantized.w8a8", "int8", "none", "none", "int8", "INT8 W8A8"},
        {"pretrained=hugging-quants/Meta-Llama-3.1-8B-Instruct-AWQ-INT4", "int4_awq", "none", "none", "none",
         "INT4 AWQ W4A16"},
        {"pretrained=m/Llama-3-8B,quantization=gptq_marlin", "int4_gptq", "none", "none", "none", "INT4 GPTQ W4A16"},
        {"pretrained=nvidia/Llama-3.1-8B-Instruct-NVFP4", "nvfp4", "none", "none", "fp4", "NVFP4 W4A4"},
        // FP4 (Blackwell): NVIDIA's "-FP4" checkpoints are NVFP4; LLM Compressor's NVFP4A16 / MXFP4A16 weight-only;
        // vLLM's mxfp4 method (gpt-oss) keeps 16-bit activations; an NVFP4 KV cache is named for what it is.
        {"pretrained=nvidia/Llama-3.3-70B-Instruct-FP4", "nvfp4", "none", "none", "fp4", "NVFP4 W4A4"},
        {"pretrained=RedHatAI/Qwen3-8B-NVFP4A16", "nvfp4_a16", "none", "none", "none", "NVFP4 W4A16"},
        {"pretrained=m/Qwen3-8B-MXFP4", "mxfp4", "none", "none", "fp4", "MXFP4 W4A4"},
        {"pretrained=m/Qwen3-8B-MXFP4A16", "mxfp4_a16", "none", "none", "none", "MXFP4 W4A16"},
        {"pretrained=openai/gpt-oss-20b,quantization=mxfp4", "mxfp4_a16", "none", "none", "none", "MXFP4 W4A16"},
        {"pretrained=m/Qwen3-8B,quantization=modelopt_fp4,kv_cache_dtype=fp8", "nvfp4", "fp8", "1.0", "fp4",
         "NVFP4 W4A4 + FP8 KV (scales 1.0)"},
        {"pretrained=m/Qwen3-8B-NVFP4,kv_cache_dtype=nvfp4", "nvfp4", "nvfp4", "none", "fp4", "NVFP4 W4A4 + NVFP4 KV"},
        {"pretrained=m/Llama-3-8B,kv_cache_dtype=auto", "none", "none", "none", "none", "BF16"},
    };
    for (const auto& c : cases) {
        const Fp8Config cfg = config(c.args);
        EXPECT_EQ(cfg.layers.weights.value, c.weights) << c.args;
        EXPECT_EQ(cfg.layers.kvCache.value, c.kv) << c.args;
        EXPECT_EQ(cfg.layers.kvScales.value, c.scales) << c.args;
        EXPECT_EQ(cfg.layers.activations.value, c.activations) << c.args;
        EXPECT_EQ(layersLabel(cfg), c.label) << c.args;
        EXPECT_FALSE(cfg.layers.weights.evidence.empty()) << c.args;
        EXPECT_FALSE(cfg.layers.kvScales.evidence.empty()) << c.args;
    }
}

// The FP4 rungs beyond FP8 (issue 41): FP8 W8A8 -> NVFP4 W4A4 is a layer step (the weights at fewer bits), the
// NVFP4 rung is the more aggressive, and what each buys is counted from the formats' own bytes: NVFP4 4 bits and an
// E4M3 scale per 16 values (0.5625 bytes a value), MXFP4 4 bits and a UE8M0 scale per 32 (0.53125).
TEST(Layers, Fp4RungsStepOrderAndBuys) {
    const auto config = [](const std::string& args) {
        auto r = parseLmEvalText(
            R"({"results": {"t": {"acc,none": 0.5}}, "config": {"model": "vllm", "model_args": ")" + args + "\"}}",
            "t.json");
        if (!r) throw std::runtime_error(r.error().message);
        return detectFp8Config(*r);
    };
    const std::vector<Fp8Config> runs = {
        config("pretrained=meta-llama/Llama-3.1-8B-Instruct"),
        config("pretrained=RedHatAI/Meta-Llama-3.1-8B-Instruct-FP8"),
        config("pretrained=nvidia/Llama-3.1-8B-Instruct-FP4"),
        config("pretrained=m/Llama-3.1-8B-Instruct-MXFP4"),
        config("pretrained=RedHatAI/Meta-Llama-3.1-8B-Instruct-NVFP4A16"),
    };
    const RunLayers &bf16 = runs[0].layers, &fp8 = runs[1].layers, &nvfp4 = runs[2].layers, &mxfp4 = runs[3].layers,
                    &nvfp4a16 = runs[4].layers;
    EXPECT_TRUE(moreAggressive(nvfp4, fp8));
    EXPECT_FALSE(moreAggressive(fp8, nvfp4));
    EXPECT_TRUE(moreAggressive(mxfp4, fp8));
    EXPECT_FALSE(moreAggressive(nvfp4, mxfp4));  // the same bits: memory decides between them
    EXPECT_FALSE(moreAggressive(mxfp4, nvfp4));
    EXPECT_FALSE(moreAggressive(nvfp4a16, fp8));  // fewer weight bits, more activation bits: not ordered
    EXPECT_TRUE(moreAggressive(nvfp4, bf16));
    // The steps: each FP4 W4A4 rung on top of FP8 W8A8, in words.
    std::vector<std::string> described;
    for (const LayerStepPlan& p : findLayerSteps(runs))
        if (p.from == 1) described.push_back(p.description);
    EXPECT_NE(std::find(described.begin(), described.end(), "NVFP4 W4A4 weights instead of FP8 W8A8 weights"),
              described.end());
    EXPECT_NE(std::find(described.begin(), described.end(), "MXFP4 W4A4 weights instead of FP8 W8A8 weights"),
              described.end());
    // What each saves per weight against 16 bits, from the formats' bytes.
    EXPECT_DOUBLE_EQ(memorySaving(nvfp4).perParameter, 2.0 - (4.0 + 8.0 / 16) / 8);
    EXPECT_DOUBLE_EQ(memorySaving(mxfp4).perParameter, 2.0 - (4.0 + 8.0 / 32) / 8);
    EXPECT_DOUBLE_EQ(memorySaving(fp8).perParameter, 1.0);
    const std::string buys = variantBuys(runs[2]);
    EXPECT_NE(buys.find("about a quarter of the 16-bit weight memory"), std::string::npos) << buys;
    EXPECT_NE(buys.find("about 11.5 GB less for 8B parameters"), std::string::npos) << buys;  // 8 x 1.4375
    EXPECT_NE(buys.find("FP4 tensor cores (Blackwell"), std::string::npos) << buys;
    EXPECT_NE(buys.find("fallback kernel"), std::string::npos) << buys;
}

// An NVFP4 W4A4 candidate on a GPU without FP4 tensor cores (the GPU the comparison's other evidence names): the
// risk names the GPU and the fallback; on Blackwell, with a weight-only FP4 candidate, or without a known GPU, none.
TEST(Layers, Fp4OnAGpuWithoutFp4TensorCoresIsARisk) {
    const auto run = [](const std::string& model, const char* score) {
        auto r = parseLmEvalText(R"({"results": {"gsm8k": {"exact_match,strict-match": )" + std::string(score) +
                                     R"(}}, "config": )"
                                     R"({"model": "vllm", "model_args": "pretrained=)" +
                                     model + "\"}}",
                                 model + ".json");
        if (!r) throw std::runtime_error(r.error().message);
        return std::move(r).value();
    };
    const auto riskOf = [&](const std::string& candidate, const std::function<void(ComparisonDocument&)>& gpu) {
        ComparisonDocument doc;
        doc.baseline = {"BF16", "b.json", run("meta-llama/Llama-3.1-8B-Instruct", "0.851")};
        doc.candidate = {"FP4", "c.json", run(candidate, "0.774")};
        gpu(doc);
        auto report = doc.evaluate();
        if (!report) throw std::runtime_error(report.error().message);
        for (const RiskFlag& f : report->risks)
            if (f.kind == "fp4_without_fp4_tensor_cores") return f.message;
        return std::string();
    };
    const auto capacityOn = [](const char* gpu) {
        return [gpu](ComparisonDocument& d) {
            d.capacity = CapacitySettings{};
            d.capacity->gpu = gpu;
        };
    };
    const std::string hopper = riskOf("nvidia/Llama-3.1-8B-Instruct-FP4", capacityOn("h100-sxm"));
    EXPECT_NE(hopper.find("FP4 is NVFP4 W4A4, but NVIDIA H100 SXM (compute capability 9.0), the GPU of the Capacity "
                          "view's GPU, has no FP4 tensor cores"),
              std::string::npos)
        << hopper;
    EXPECT_NE(hopper.find("fallback kernel"), std::string::npos);
    EXPECT_EQ(riskOf("nvidia/Llama-3.1-8B-Instruct-FP4", capacityOn("b200")), "");
    EXPECT_EQ(riskOf("RedHatAI/Meta-Llama-3.1-8B-Instruct-NVFP4A16", capacityOn("h100-sxm")), "");
    EXPECT_EQ(riskOf("nvidia/Llama-3.1-8B-Instruct-FP4", [](ComparisonDocument&) {}), "");
    // The local benchmarks' device decides first, by its compute capability.
    const std::string ada = riskOf("m/Llama-3.1-8B-Instruct-MXFP4", [](ComparisonDocument& d) {
        d.benchmarks = BenchResults{};
        d.benchmarks->device.available = true;
        d.benchmarks->device.name = "NVIDIA GeForce RTX 4090";
        d.benchmarks->device.computeCapability = "8.9";
        d.capacity = CapacitySettings{};
        d.capacity->gpu = "b200";
    });
    EXPECT_NE(ada.find("is MXFP4 W4A4, but NVIDIA GeForce RTX 4090 (compute capability 8.9), the GPU of the local "
                       "benchmarks"),
              std::string::npos)
        << ada;
}

TEST(Layers, BaseModelKeysTellVariantsFromOtherModels) {
    EXPECT_EQ(baseModelKey("meta-llama/Meta-Llama-3-8B-Instruct"),
              baseModelKey("neuralmagic/Meta-Llama-3-8B-Instruct-FP8"));
    EXPECT_EQ(baseModelKey("meta-llama/Llama-3.1-8B-Instruct"),
              baseModelKey("RedHatAI/Meta-Llama-3.1-8B-Instruct-FP8-dynamic"));
    EXPECT_EQ(baseModelKey("Qwen/Qwen2.5-7B-Instruct"), baseModelKey("Qwen/Qwen2.5-7B-Instruct-AWQ"));
    EXPECT_EQ(baseModelKey("meta-llama/Llama-3.1-8B-Instruct"),
              baseModelKey("/root/.cache/huggingface/hub/models--meta-llama--Llama-3.1-8B-Instruct/snapshots/0e9e39f"));
    EXPECT_EQ(baseModelKey("meta-llama__Meta-Llama-3-8B-Instruct"),
              baseModelKey("meta-llama/Meta-Llama-3-8B-Instruct"));
    EXPECT_NE(baseModelKey("meta-llama/Meta-Llama-3-8B"), baseModelKey("meta-llama/Meta-Llama-3-8B-Instruct"));
    EXPECT_NE(baseModelKey("meta-llama/Llama-3.1-8B-Instruct"), baseModelKey("meta-llama/Llama-3.1-70B-Instruct"));
    EXPECT_EQ(baseModelKey("/models/fp8"), "");  // says nothing about the model: not checked
    EXPECT_EQ(baseModelKey(""), "");
}

}  // namespace
}  // namespace fp8dash
