// The KV sweep's rows as the contract writes them, read back (every field, and older rows kept apart); the headline
// rule (per_tensor at its longest context, then per_head, then none; scale 1.0's saturation beside it; older files
// headlined by K/V rel RMSE); the CLI text of the KV section. Expectations are worked out here from the hand-written
// rows, not taken from the code's output.
#include "fp8dash/core/kv_headline.h"

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdio>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "fp8dash/core/comparison_file.h"
#include "test_paths.h"

namespace fp8dash {
namespace {

// One contract row, written out in full by hand.
Json contractRow() {
    return Json::parse(R"json({
      "scaling": "per_head", "context": 2048,
      "source": {"kind": "dump", "description": "llama-3.1-8b-kv.safetensors (BF16)", "shape": [2, 2, 32768, 128]},
      "rel_rmse": 0.0262, "max_abs_error": 0.75, "cosine": 0.99966,
      "key":   {"rel_rmse": 0.0265, "max_abs_error": 0.75, "cosine": 0.99965, "saturated": 0,
                "scales": [0.011, 0.012, 0.021, 0.022]},
      "value": {"rel_rmse": 0.0259, "max_abs_error": 0.0625, "cosine": 0.99967, "saturated": 7,
                "scales": [0.0031, 0.0032, 0.0041, 0.0042]},
      "attn_out_rel_rmse": 0.0193, "attn_out_cosine": 0.99981, "attn_weight_tvd": 0.0112,
      "attn_weight_tvd_max": 0.0407, "attn_entropy": 2.71,
      "elements": 2097152, "seconds": 0.004, "elements_per_s": 524288000
    })json");
}

Json run(Json kv) {
    Json j;
    j["created"] = "2026-12-01T10:00:00Z";
    j["backend"] = "cpu";
    j["model"] = "llama-3.1-8b";
    j["device"] = Json{{"available", false}, {"reason", "no NVIDIA driver is loaded"}};
    j["gemm"] = Json::array();
    j["gemm_skipped"] = "no usable GPU";
    j["bandwidth"] = Json::array();
    j["kv"] = std::move(kv);
    j["kv_backend"] = "cpu";
    return j;
}

BenchResults parsed(const Json& j) {
    auto r = parseBenchResults(j, "run.json");
    EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message);
    return r.ok() ? std::move(r).value() : BenchResults{};
}

// A synthetic-cache row with the figures a test picks (only what the headline reads).
Json row(const std::string& scaling, int context, double attnOut, std::uint64_t keySat = 0, std::uint64_t valueSat = 0,
         double relRmse = 0.027) {
    return Json{
        {"scaling", scaling},
        {"context", context},
        {"source", {{"kind", "synthetic"}, {"description", "seed 1"}, {"shape", Json::array({4, 8, 16384, 128})}}},
        {"rel_rmse", relRmse},
        {"key", {{"rel_rmse", relRmse}, {"saturated", keySat}, {"scales", Json::array({1.0})}}},
        {"value", {{"rel_rmse", relRmse}, {"saturated", valueSat}, {"scales", Json::array({1.0})}}},
        {"attn_out_rel_rmse", attnOut},
        {"attn_weight_tvd", attnOut / 2},
        {"elements_per_s", 4.0e8}};
}

std::string pct1(double fraction) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f%%", fraction * 100);
    return buf;
}

TEST(KvRows, EveryContractFieldIsRead) {
    const BenchResults r = parsed(run(Json::array({contractRow()})));
    ASSERT_EQ(r.kv.size(), 1u);
    const BenchKvPoint& p = r.kv[0];
    EXPECT_EQ(p.scaling, "per_head");
    EXPECT_EQ(p.context, 2048);
    EXPECT_EQ(p.source.kind, "dump");
    EXPECT_EQ(p.source.description, "llama-3.1-8b-kv.safetensors (BF16)");
    EXPECT_EQ(p.source.shape, (std::vector<long long>{2, 2, 32768, 128}));
    EXPECT_EQ(p.relRmse, 0.0262);
    EXPECT_EQ(p.key.relRmse, 0.0265);
    EXPECT_EQ(p.key.cosine, 0.99965);
    EXPECT_EQ(p.key.saturated, 0u);
    EXPECT_EQ(p.key.scales, (std::vector<double>{0.011, 0.012, 0.021, 0.022}));
    EXPECT_EQ(p.value.maxAbsError, 0.0625);
    EXPECT_EQ(p.value.saturated, 7u);
    EXPECT_EQ(p.value.scales.size(), 4u);  // one per (layer, head): 2 x 2
    EXPECT_TRUE(p.hasAttentionMetrics);
    EXPECT_EQ(p.attnOutRelRmse, 0.0193);
    EXPECT_EQ(p.attnOutCosine, 0.99981);
    EXPECT_EQ(p.attnWeightTvd, 0.0112);
    EXPECT_EQ(p.attnWeightTvdMax, 0.0407);
    EXPECT_EQ(p.attnEntropy, 2.71);
    EXPECT_FALSE(p.legacyAttnRelError.has_value());
    EXPECT_EQ(p.elements, 2097152u);
    EXPECT_EQ(p.seconds, 0.004);
    EXPECT_EQ(p.elementsPerSecond, 524288000.0);
}

TEST(KvRows, BadContractFieldsAreClearErrors) {
    struct Case {
        std::function<void(Json&)> mutate;
        const char* expected;
    };
    const std::vector<Case> cases = {
        {[](Json& k) { k["key"]["saturated"] = -1; }, "run.json.kv[0].key.saturated must be a whole number"},
        {[](Json& k) {
             k["value"]["scales"] = Json::array({0.1, "x"});
         },
         "run.json.kv[0].value.scales[1] must be a number, found string"},
        {[](Json& k) { k["value"]["scales"] = 2; }, "run.json.kv[0].value.scales must be a list"},
        {[](Json& k) {
             k["source"]["shape"] = Json::array({1, 2, 3});
         },
         "run.json.kv[0].source.shape must hold 4 sizes [layers, kv_heads, tokens, head_dim], found 3"},
        {[](Json& k) { k["source"]["shape"][2] = 0; }, "run.json.kv[0].source.shape[2] must be a whole number >= 1"},
        {[](Json& k) { k["source"].erase("kind"); }, "run.json.kv[0].source.kind is missing"},
        {[](Json& k) { k["source"] = "dump"; }, "run.json.kv[0].source must be an object"},
        {[](Json& k) { k["attn_out_rel_rmse"] = "small"; }, "run.json.kv[0].attn_out_rel_rmse must be a number"},
    };
    for (const Case& c : cases) {
        Json k = contractRow();
        c.mutate(k);
        auto r = parseBenchResults(run(Json::array({k})), "run.json");
        ASSERT_FALSE(r.ok()) << c.expected;
        EXPECT_NE(r.error().message.find(c.expected), std::string::npos) << r.error().message;
    }
}

TEST(KvHeadlineRule, PerTensorAtItsLongestContextWithScaleOnesSaturation) {
    // per_head reaches 16K, per_tensor only 4K: per_tensor (what vLLM runs) wins, at 4K; none at 4K saturates 40 + 3.
    const BenchResults r = parsed(run(
        Json::array({row("none", 1024, 0.021, 12, 0), row("none", 4096, 0.024, 40, 3), row("per_tensor", 1024, 0.019),
                     row("per_tensor", 4096, 0.0203), row("per_head", 4096, 0.0185), row("per_head", 16384, 0.0188)})));
    const auto h = kvHeadline(r);
    ASSERT_TRUE(h.has_value());
    EXPECT_EQ(h->row, 3u);
    EXPECT_FALSE(h->legacy);
    EXPECT_EQ(h->value, 0.0203);
    EXPECT_EQ(h->figure, pct1(0.0203));
    EXPECT_EQ(h->where, "per_tensor scaling, 4K tokens");
    EXPECT_EQ(h->noneSaturated, 43u);
    EXPECT_TRUE(h->synthetic);
    EXPECT_EQ(h->summary(), "attention-output error 2.0% (per_tensor scaling, 4K tokens; synthetic cache)");
    EXPECT_NE(h->reading.find("2–3 %"), std::string::npos) << h->reading;
    EXPECT_NE(h->reading.find("saturated values"), std::string::npos) << h->reading;
    EXPECT_NE(h->reading.find("Without scales (scale 1.0"), std::string::npos) << h->reading;
    EXPECT_NE(h->reading.find(" 43 values saturate"), std::string::npos) << h->reading;
    // The way to scales on the current vLLM, which has no --calculate-kv-scales: a calibrated checkpoint.
    EXPECT_NE(h->reading.find("at this context. For scales on vLLM 0.28, use a checkpoint with calibrated KV scales"),
              std::string::npos)
        << h->reading;
    EXPECT_EQ(h->reading.find("--calculate-kv-scales"), std::string::npos) << h->reading;
}

TEST(KvHeadlineRule, FallsBackToPerHeadThenNone) {
    auto h = kvHeadline(parsed(
        run(Json::array({row("none", 4096, 0.024), row("per_head", 1024, 0.018), row("per_head", 4096, 0.0185)}))));
    ASSERT_TRUE(h.has_value());
    EXPECT_EQ(h->row, 2u);
    EXPECT_EQ(h->where, "per_head scaling, 4K tokens");
    EXPECT_FALSE(h->noneSaturated.has_value());  // none saturated nothing: no note
    EXPECT_EQ(h->reading.find("Without scales"), std::string::npos);

    h = kvHeadline(parsed(run(Json::array({row("none", 1024, 0.021, 5, 0), row("none", 2000, 0.022, 9, 1)}))));
    ASSERT_TRUE(h.has_value());
    EXPECT_EQ(h->row, 1u);
    EXPECT_EQ(h->where, "none scaling, 2000 tokens");
    EXPECT_EQ(h->noneSaturated, 10u);

    // A per_tensor row without a finite figure (null) does not count: per_head takes over.
    Json rows = Json::array({row("per_tensor", 4096, 0), row("per_head", 1024, 0.0031)});
    rows[0]["attn_out_rel_rmse"] = nullptr;
    h = kvHeadline(parsed(run(rows)));
    ASSERT_TRUE(h.has_value());
    EXPECT_EQ(h->row, 1u);
    EXPECT_EQ(h->figure, "0.31%");  // under 1 %: two decimals

    EXPECT_FALSE(kvHeadline(parsed(run(Json::array()))).has_value());
}

TEST(KvHeadlineRule, ADumpIsTheModelsOwnCache) {
    Json dump = contractRow();  // per_head at 2K, from a dump
    const auto h = kvHeadline(parsed(run(Json::array({dump}))));
    ASSERT_TRUE(h.has_value());
    EXPECT_FALSE(h->synthetic);
    EXPECT_EQ(h->summary(), "attention-output error 1.9% (per_head scaling, 2K tokens; the model's own K/V)");
    EXPECT_EQ(
        h->source,
        "dump of a model's K/V (llama-3.1-8b-kv.safetensors (BF16); 2 layers × 2 KV heads × 32,768 tokens × 128)");
    // The row's own saturated values (7 V) are said too.
    EXPECT_NE(h->reading.find("With per_head scaling 7 values saturate"), std::string::npos) << h->reading;
}

TEST(KvHeadlineRule, OlderFilesAreHeadlinedByKvRelRmseNeverByTheOldFigure) {
    // judge-bench.fp8cmp: a CPU run saved by fp8dash 0.1 (attn_rel_error, none of the new fields), 1024 tokens.
    auto doc = loadComparisonFile(test::testData() / "comparison-files/v1/judge-bench.fp8cmp");
    ASSERT_TRUE(doc.ok()) << doc.error().message;
    ASSERT_TRUE(doc->benchmarks.has_value());
    const BenchResults& r = *doc->benchmarks;
    // The per_tensor row's rel_rmse straight from the file's JSON.
    double perTensor = NAN;
    for (const auto& k : r.raw["kv"])
        if (k["scaling"] == "per_tensor") perTensor = k["rel_rmse"].get<double>();
    ASSERT_TRUE(std::isfinite(perTensor));
    for (const BenchKvPoint& p : r.kv) {
        EXPECT_FALSE(p.hasAttentionMetrics);
        EXPECT_TRUE(p.legacyAttnRelError.has_value());
    }
    const auto h = kvHeadline(r);
    ASSERT_TRUE(h.has_value());
    EXPECT_TRUE(h->legacy);
    EXPECT_EQ(h->metric, "K/V rel. RMSE");
    EXPECT_EQ(h->value, perTensor);
    EXPECT_EQ(h->figure, pct1(perTensor));
    EXPECT_NE(h->reading.find("older fp8dash"), std::string::npos);
    EXPECT_NE(h->reading.find("not comparable"), std::string::npos);

    // The bundled demo opens too, whichever fp8dash saved its benchmarks.
    auto demo =
        loadComparisonFile(std::filesystem::path(FP8DASH_SOURCE_DIR) / "resources/demo/llama3-8b-instruct-fp8.fp8cmp");
    ASSERT_TRUE(demo.ok()) << demo.error().message;
    ASSERT_TRUE(demo->benchmarks.has_value());
    EXPECT_TRUE(kvHeadline(*demo->benchmarks).has_value());
}

TEST(KvText, TableSourceHeadlineAndDefinitions) {
    const BenchResults r = parsed(run(Json::array({row("none", 4096, 0.024, 40, 3), contractRow()})));
    const std::string text = kvResultsText(r);
    for (const char* column : {"K rel RMSE", "V rel RMSE", "K sat", "V sat", "attn out err", "attn TVD", "Melem/s"})
        EXPECT_NE(text.find(column), std::string::npos) << column << "\n" << text;
    EXPECT_EQ(text.find("old attn"), std::string::npos) << text;  // no older rows: no legacy column
    // The none row: K 0.027, saturated 40 / 3, attention 0.024, TVD 0.012, 400 Melem/s.
    const std::string noneRow =
        text.substr(text.find("  none "), text.find('\n', text.find("  none ")) - text.find("  none "));
    for (const char* cell : {"0.027", " 40 ", " 3 ", "0.024", "0.012", "400"})
        EXPECT_NE(noneRow.find(cell), std::string::npos) << cell << " in: " << noneRow;
    EXPECT_NE(text.find("source: synthetic cache (seed 1; 4 layers × 8 KV heads × 16,384 tokens × 128)"),
              std::string::npos)
        << text;
    // No per_tensor row: per_head at 2K (the dump row) is the headline.
    EXPECT_NE(text.find("headline: attention-output error 1.9% (per_head scaling, 2K tokens; the model's own K/V)"),
              std::string::npos)
        << text;
    EXPECT_NE(text.find("sqrt(sum (x_hat - x)^2 / sum x^2)"), std::string::npos) << text;
}

// Rows that carry their intervals (sample, 95 % interval, paired difference from per_tensor).
Json withIntervals(Json k, double low, double high, std::optional<std::array<double, 3>> vsPerTensor = std::nullopt) {
    k["attn_rows"] = 256;
    k["attn_heads"] = 16;
    k["attn_out_ci95"] = Json::array({low, high});
    if (vsPerTensor)
        k["attn_out_vs_per_tensor"] = {{"difference", (*vsPerTensor)[0]},
                                       {"ci95", Json::array({(*vsPerTensor)[1], (*vsPerTensor)[2]})}};
    return k;
}

TEST(KvIntervals, AreReadAndBadOnesNamed) {
    const BenchResults r = parsed(run(Json::array(
        {withIntervals(row("per_tensor", 4096, 0.06), 0.026, 0.14),
         withIntervals(row("per_head", 4096, 0.041), 0.023, 0.072, std::array<double, 3>{-0.019, -0.05, 0.012})})));
    ASSERT_EQ(r.kv.size(), 2u);
    EXPECT_EQ(r.kv[0].attnRows, 256u);
    EXPECT_EQ(r.kv[0].attnHeads, 16u);
    ASSERT_TRUE(r.kv[0].attnOutCi95.has_value());
    EXPECT_EQ(r.kv[0].attnOutCi95->low, 0.026);
    EXPECT_EQ(r.kv[0].attnOutCi95->high, 0.14);
    EXPECT_FALSE(r.kv[0].attnOutVsPerTensor.has_value());
    EXPECT_EQ(r.kv[1].attnOutVsPerTensor, -0.019);
    EXPECT_EQ(r.kv[1].attnOutVsPerTensorCi95->low, -0.05);
    // Rows without them (every file written before the intervals) read as "not recorded".
    const BenchResults old = parsed(run(Json::array({contractRow()})));
    EXPECT_EQ(old.kv[0].attnRows, 0u);
    EXPECT_FALSE(old.kv[0].attnOutCi95.has_value());

    const std::pair<std::function<void(Json&)>, const char*> bad[] = {
        {[](Json& k) {
             k["attn_out_ci95"] = Json::array({0.2, 0.1});
         },
         "run.json.kv[0].attn_out_ci95 must be [low, high], two numbers with low <= high, found [0.2,0.1]"},
        {[](Json& k) { k["attn_out_ci95"] = 0.1; }, "run.json.kv[0].attn_out_ci95 must be [low, high]"},
        {[](Json& k) {
             k["attn_out_vs_per_tensor"] = {{"difference", 0.01}};
         },
         "run.json.kv[0].attn_out_vs_per_tensor.ci95 is missing"},
        {[](Json& k) { k["attn_rows"] = -3; }, "run.json.kv[0].attn_rows must be a whole number"},
    };
    for (const auto& [mutate, expected] : bad) {
        Json k = contractRow();
        mutate(k);
        auto parsedRun = parseBenchResults(run(Json::array({k})), "run.json");
        ASSERT_FALSE(parsedRun.ok()) << expected;
        EXPECT_NE(parsedRun.error().message.find(expected), std::string::npos) << parsedRun.error().message;
    }
}

TEST(KvIntervals, HeadlineCarriesItsIntervalAndSaysWhichModesReallyDiffer) {
    // At 16K: per_head's paired difference from per_tensor includes zero (-1.9 points, -5.0 to +1.2); none's does not
    // (+20.5 points, 18.0 to 23.0). At 1K nothing is compared (the headline is at the longest context).
    const BenchResults r = parsed(run(Json::array(
        {withIntervals(row("none", 1024, 0.024), 0.023, 0.025, std::array<double, 3>{0.0001, -0.001, 0.0012}),
         withIntervals(row("none", 16384, 0.265, 380000, 0), 0.2, 0.33, std::array<double, 3>{0.205, 0.18, 0.23}),
         withIntervals(row("per_tensor", 1024, 0.0239), 0.023, 0.025),
         withIntervals(row("per_tensor", 16384, 0.06), 0.026, 0.14),
         withIntervals(row("per_head", 16384, 0.041), 0.023, 0.072, std::array<double, 3>{-0.019, -0.05, 0.012})})));
    const auto h = kvHeadline(r);
    ASSERT_TRUE(h.has_value());
    EXPECT_EQ(h->row, 3u);
    EXPECT_EQ(h->interval, "95% CI 2.6–14.0%");
    EXPECT_EQ(h->summary(),
              "attention-output error 6.0% (95% CI 2.6–14.0%; per_tensor scaling, 16K tokens; synthetic cache)");
    EXPECT_EQ(h->comparison,
              "At 16K tokens: none is higher by 20.5 percentage points (26.5% against 6.0%; 95% CI of the paired "
              "difference 18.0–23.0 points). per_head (4.1%) does not differ from per_tensor beyond the sampling "
              "error: the 95% interval of the paired difference includes zero (256 query rows over 16 heads).");
    EXPECT_NE(h->reading.find(h->comparison), std::string::npos);
    EXPECT_NE(h->reading.find("380,000 values saturate"), std::string::npos) << h->reading;

    // A mode lower than per_tensor beyond doubt reads "lower", its interval from the smaller drop to the larger.
    const BenchResults lower = parsed(run(Json::array(
        {withIntervals(row("per_tensor", 4096, 0.05), 0.04, 0.06),
         withIntervals(row("per_head", 4096, 0.03), 0.025, 0.035, std::array<double, 3>{-0.02, -0.031, -0.009})})));
    EXPECT_EQ(kvHeadline(lower)->comparison,
              "At 4K tokens: per_head is lower by 2.0 percentage points (3.0% against 5.0%; 95% CI of the paired "
              "difference 0.90–3.1 points).");

    // The table gains a 95% CI column only when some row has one: older files' tables stay as they were.
    const std::string text = kvResultsText(r);
    EXPECT_NE(text.find("95% CI"), std::string::npos);
    EXPECT_NE(text.find("0.026–0.14"), std::string::npos) << text;
    EXPECT_EQ(kvResultsText(parsed(run(Json::array({contractRow()})))).find("95% CI"), std::string::npos);
}

TEST(KvText, DefinitionsCoverEveryTableMetric) {
    for (const char* key :
         {"attn_out_rel_rmse", "attn_weight_tvd", "attn_out_cosine", "attn_entropy", "key.rel_rmse", "value.rel_rmse",
          "rel_rmse", "saturated", "elements_per_s", "attn_rel_error", "attn_out_ci95"})
        EXPECT_FALSE(kvMetricDefinition(key).empty()) << key;
    EXPECT_NE(kvMetricDefinition("attn_out_rel_rmse").find("sqrt(Σ‖ô − o‖² / Σ‖o‖²)"), std::string::npos);
    EXPECT_NE(kvMetricDefinition("saturated").find("448"), std::string::npos);
    EXPECT_TRUE(kvMetricDefinition("no_such_metric").empty());
}

}  // namespace
}  // namespace fp8dash
