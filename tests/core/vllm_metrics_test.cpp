// vLLM V0/V1 metrics: cache dtype families, the engine-by-engine FP8 switch, the calculate_kv_scales risk, the pick
// inside the default throughput query, metric names in PromQL and the closest names for a missing one. Expected
// values come from vLLM's definitions (vllm/config/cache.py, vllm/v1/metrics/loggers.py) and the fixtures' text.
#include <gtest/gtest.h>

#include <algorithm>

#include "fp8dash/core/comparison_file.h"
#include "fp8dash/core/timeline.h"
#include "fp8dash/core/vllm_metrics.h"
#include "test_paths.h"
#include "vllm_fixture.h"

namespace fp8dash {
namespace {

// --- cache dtypes -------------------------------------------------------------------------------------------------

TEST(KvCacheDtype, EveryFp8VariantIsFp8AndOnlyPerTensorOnesNeedScales) {
    for (const char* d : {"fp8", "fp8_e4m3", "fp8_e5m2"}) {
        const auto info = classifyKvCacheDtype(d);
        EXPECT_EQ(info.family, KvCacheDtypeFamily::Fp8) << d;
        EXPECT_TRUE(info.perTensorScales) << d;
    }
    for (const char* d : {"fp8_inc", "fp8_ds_mla", "fp8_per_token_head", "fp8_some_future_layout"}) {
        const auto info = classifyKvCacheDtype(d);
        EXPECT_EQ(info.family, KvCacheDtypeFamily::Fp8) << d;
        EXPECT_FALSE(info.perTensorScales) << d;
    }
    EXPECT_EQ(classifyKvCacheDtype("FP8_E4M3").family, KvCacheDtypeFamily::Fp8);  // as a user may type it
}

TEST(KvCacheDtype, OtherLowPrecisionIsNamedNotJustNotFp8) {
    const std::pair<const char*, const char*> named[] = {{"nvfp4", "NVFP4"},
                                                         {"nvfp4_4over6", "NVFP4"},
                                                         {"nvfp4_ds_mla", "NVFP4"},
                                                         {"int8_per_token_head", "INT8"},
                                                         {"int4_per_token_head", "INT4"},
                                                         {"turboquant_k8v4", "TurboQuant"},
                                                         {"turboquant_3bit_nc", "TurboQuant"}};
    for (const auto& [dtype, word] : named) {
        const auto info = classifyKvCacheDtype(dtype);
        EXPECT_EQ(info.family, KvCacheDtypeFamily::OtherLowPrecision) << dtype;
        EXPECT_NE(info.description.find(word), std::string::npos) << dtype << ": " << info.description;
        EXPECT_FALSE(info.perTensorScales) << dtype;
    }
    EXPECT_EQ(describeKvCacheDtype("nvfp4"), "nvfp4 (4-bit NVFP4, not FP8)");
    EXPECT_EQ(describeKvCacheDtype("int8_per_token_head"),
              "int8_per_token_head (INT8 with a scale per token and head, not FP8)");
}

TEST(KvCacheDtype, ModelDtypesAndUnknownNames) {
    for (const char* d : {"auto", "bfloat16", "float16"}) {
        EXPECT_EQ(classifyKvCacheDtype(d).family, KvCacheDtypeFamily::ModelDtype) << d;
        EXPECT_EQ(describeKvCacheDtype(d), d);  // reports name them plainly, as they always did
    }
    EXPECT_EQ(describeKvCacheDtype("fp8"), "fp8");
    EXPECT_EQ(classifyKvCacheDtype("q4_k").family, KvCacheDtypeFamily::Unknown);
    EXPECT_EQ(describeKvCacheDtype("q4_k"), "q4_k (a cache dtype fp8dash does not know)");
}

// --- cache_config_info series -------------------------------------------------------------------------------------

Series infoSeries(Labels labels, const std::string& dtype, double from, double to, double step = 60) {
    labels["__name__"] = "vllm:cache_config_info";
    labels["cache_dtype"] = dtype;
    Series s{std::move(labels), {}};
    for (double t = from; t <= to; t += step) s.samples.push_back({t, 1});
    return s;
}

// The cache_config_info label sets of a fixture dump (without __name__).
std::vector<Labels> cacheConfigLabels(const std::filesystem::path& path) {
    std::vector<Labels> out;
    if (auto dump = test::readExposition(path.string()))
        for (const auto& s : *dump)
            if (s.name == "vllm:cache_config_info") out.push_back(Labels(s.labels.begin(), s.labels.end()));
    return out;
}

TEST(KvCacheSwitch, V0FixtureGivesWhatTheSingleGroupDetectorGives) {
    const auto v0 = cacheConfigLabels(test::sharedFixtures() / "vllm" / "metrics-sample.txt");
    if (v0.empty()) GTEST_SKIP() << "shared fixture vllm/metrics-sample.txt not found under " << test::sharedFixtures();
    ASSERT_EQ(v0.size(), 1u);
    EXPECT_EQ(v0[0].count("engine"), 0u);  // V0: one server, no engine label
    // The V0 server restarted with --kv-cache-dtype fp8 at 660 s; a roll-back case and an FP8-only range beside it.
    const std::vector<std::vector<Series>> cases = {
        {infoSeries(v0[0], "auto", 0, 600), infoSeries(v0[0], "fp8", 660, 900)},
        {infoSeries(v0[0], "fp8", 0, 240), infoSeries(v0[0], "auto", 300, 540), infoSeries(v0[0], "fp8", 600, 900)},
        {infoSeries(v0[0], "fp8", 0, 600), infoSeries(v0[0], "auto", 660, 900)},
        {infoSeries(v0[0], "fp8", 0, 600)},
    };
    const std::optional<double> expectedAt[] = {660, 600, std::nullopt, std::nullopt};
    for (std::size_t i = 0; i < std::size(cases); ++i) {
        const auto perEngine = detectKvCacheSwitch(cases[i]);
        const auto single = detectCacheDtypeChange(cases[i]);
        ASSERT_EQ(perEngine.has_value(), expectedAt[i].has_value()) << "case " << i;
        ASSERT_EQ(single.has_value(), perEngine.has_value()) << "case " << i;
        if (!perEngine) continue;
        EXPECT_EQ(perEngine->at, *expectedAt[i]) << "case " << i;
        EXPECT_EQ(perEngine->from, "auto");
        EXPECT_EQ(perEngine->to, "fp8");
        EXPECT_EQ(perEngine->at, single->at);
        EXPECT_EQ(perEngine->from, single->from);
        EXPECT_EQ(perEngine->to, single->to);
    }
}

TEST(KvCacheSwitch, V1EnginesAndDeploymentsAreReadApart) {
    const auto v1 = cacheConfigLabels(test::testData() / "vllm" / "metrics-v1-sample.txt");
    ASSERT_EQ(v1.size(), 2u);
    ASSERT_EQ(v1[0].at("engine"), "0");
    ASSERT_EQ(v1[1].at("engine"), "1");
    EXPECT_EQ(v1[0].count("model_name"), 0u);  // V1's cache_config_info carries engine, not model_name
    Labels e0 = v1[0], e1 = v1[1];
    e0["job"] = e1["job"] = "vllm-llama";
    // Another deployment in the same Prometheus, FP8 from the start (its engine is also "0").
    Labels other = v1[0];
    other["job"] = "vllm-qwen";
    const std::vector<Series> series = {infoSeries(e0, "auto", 0, 1140), infoSeries(e0, "fp8", 1200, 3600),
                                        infoSeries(e1, "auto", 0, 1740), infoSeries(e1, "fp8", 1800, 3600),
                                        infoSeries(other, "fp8_e4m3", 60, 3600)};
    // Read as one group, the other deployment's FP8 at 60 s would pass for the switch.
    ASSERT_TRUE(detectCacheDtypeChange(series).has_value());
    EXPECT_EQ(detectCacheDtypeChange(series)->at, 60);
    const auto change = detectKvCacheSwitch(series);
    ASSERT_TRUE(change.has_value());
    EXPECT_EQ(change->at, 1200);  // engine 0 switched first; engine 1 at 1800
    EXPECT_EQ(change->from, "auto");
    EXPECT_EQ(change->to, "fp8");
    // A pick by a label cache_config_info carries narrows it; model_name (which it lacks) narrows nothing.
    EXPECT_EQ(detectKvCacheSwitch(series, {{"engine", "1"}, {"job", "vllm-llama"}})->at, 1800);
    EXPECT_EQ(detectKvCacheSwitch(series, {{"model_name", "meta-llama/Llama-3.1-8B-Instruct"}})->at, 1200);
    EXPECT_FALSE(detectKvCacheSwitch(series, {{"job", "vllm-qwen"}}).has_value());
}

TEST(KvScalesRisk, RaisedForPerTensorFp8WithoutCalculatedScales) {
    const auto v1 = cacheConfigLabels(test::testData() / "vllm" / "metrics-v1-sample.txt");
    ASSERT_EQ(v1.size(), 2u);
    ASSERT_EQ(v1[0].at("cache_dtype"), "fp8");
    ASSERT_EQ(v1[0].at("calculate_kv_scales"), "False");
    std::vector<Series> series = {infoSeries(v1[0], "fp8", 600, 900), infoSeries(v1[1], "fp8", 300, 900)};
    const auto risk = findKvScalesRisk(series);
    ASSERT_TRUE(risk.has_value());
    EXPECT_EQ(risk->since, 300);
    EXPECT_EQ(risk->cacheDtype, "fp8");
    EXPECT_EQ(risk->where, (std::vector<std::string>{"{engine=\"0\"}", "{engine=\"1\"}"}));
    EXPECT_EQ(findKvScalesRisk(series, {{"engine", "0"}})->where, (std::vector<std::string>{"{engine=\"0\"}"}));
    EXPECT_EQ(findKvScalesRisk(series, {{"engine", "0"}})->since, 600);

    const std::string text = kvScalesRiskText(*risk);
    EXPECT_NE(text.find("calculate_kv_scales=False"), std::string::npos) << text;
    EXPECT_NE(text.find("32K"), std::string::npos) << text;
    EXPECT_NE(text.find("{engine=\"1\"}"), std::string::npos) << text;
    EXPECT_NE(text.find(formatTimeUtc(300)), std::string::npos) << text;
    // The server has the option (it reports the label); the upgrade path is a checkpoint with calibrated scales.
    EXPECT_NE(text.find("on this release --calculate-kv-scales computes them; from vLLM 0.28 on, which removed it, use "
                        "a checkpoint with calibrated KV scales"),
              std::string::npos)
        << text;

    // Scales calculated, a layout with its own scales, no FP8 at all, or a release without the label: no risk.
    Labels calculated = v1[0];
    calculated["calculate_kv_scales"] = "True";
    Labels unlabeled = v1[0];
    unlabeled.erase("calculate_kv_scales");
    EXPECT_FALSE(findKvScalesRisk({infoSeries(calculated, "fp8", 0, 600)}).has_value());
    EXPECT_FALSE(findKvScalesRisk({infoSeries(v1[0], "fp8_per_token_head", 0, 600)}).has_value());
    EXPECT_FALSE(findKvScalesRisk({infoSeries(v1[0], "nvfp4", 0, 600)}).has_value());
    EXPECT_FALSE(findKvScalesRisk({infoSeries(unlabeled, "fp8", 0, 600)}).has_value());
    const auto v0 = cacheConfigLabels(test::sharedFixtures() / "vllm" / "metrics-sample.txt");
    if (!v0.empty()) {
        EXPECT_EQ(v0[0].at("calculate_kv_scales"), "False");
        EXPECT_FALSE(findKvScalesRisk({infoSeries(v0[0], "auto", 0, 600)}).has_value());  // the model dtype
        const auto v0Risk = findKvScalesRisk({infoSeries(v0[0], "fp8_e5m2", 0, 600)});
        ASSERT_TRUE(v0Risk.has_value());
        EXPECT_TRUE(v0Risk->where.empty());  // V0: no engine to name
    }
}

// --- the pick and the default throughput query --------------------------------------------------------------------

TEST(ThroughputPick, GoesInsideTheDefaultSelectorOnly) {
    EXPECT_EQ(throughputQueryWithPick(kDefaultThroughputQuery, {{"model_name", "meta-llama/Llama-3.1-8B-Instruct"}}),
              "sum(rate(vllm:generation_tokens_total{model_name=\"meta-llama/Llama-3.1-8B-Instruct\"}[5m]))");
    EXPECT_EQ(throughputQueryWithPick(kDefaultThroughputQuery, {{"model_name", "a\"b\\c"}, {"engine", "1"}}),
              R"(sum(rate(vllm:generation_tokens_total{engine="1",model_name="a\"b\\c"}[5m])))");
    EXPECT_EQ(throughputQueryWithPick(kDefaultThroughputQuery, {}), kDefaultThroughputQuery);
    const std::string custom = "sum by (model_name) (rate(vllm:generation_tokens_total[1m]))";
    EXPECT_EQ(throughputQueryWithPick(custom, {{"model_name", "x"}}), custom);
}

TEST(ThroughputPick, ParsesPicksAndRefusesMalformedOnes) {
    auto p = parseSeriesPick(" model_name = \"Qwen/Qwen2.5-7B\" , engine=0 ");
    ASSERT_TRUE(p.ok()) << p.error().message;
    EXPECT_EQ(*p, (Labels{{"engine", "0"}, {"model_name", "Qwen/Qwen2.5-7B"}}));
    EXPECT_TRUE(parseSeriesPick("")->empty());
    auto bad = parseSeriesPick("model_name");
    ASSERT_FALSE(bad.ok());
    EXPECT_NE(bad.error().message.find("expected label=value"), std::string::npos) << bad.error().message;
}

// --- metric names ------------------------------------------------------------------------------------------------

TEST(MetricNames, FoundInPromqlWithoutFunctionsLabelsOrKeywords) {
    EXPECT_EQ(metricNamesInQuery(kDefaultThroughputQuery), (std::vector<std::string>{"vllm:generation_tokens_total"}));
    EXPECT_EQ(metricNamesInQuery(AlertRule().promql(kDefaultQualityQuery)),
              (std::vector<std::string>{"langfuse_score_value"}));
    EXPECT_EQ(metricNamesInQuery("sum by (model_name, engine) (rate(vllm:prompt_tokens_total{engine!=\"1\"}[5m])) / "
                                 "on(instance) group_left up"),
              (std::vector<std::string>{"vllm:prompt_tokens_total", "up"}));
    EXPECT_EQ(metricNamesInQuery("histogram_quantile(0.9, sum without (engine) "
                                 "(rate(vllm:e2e_request_latency_seconds_bucket[5m] offset 1h)))"),
              (std::vector<std::string>{"vllm:e2e_request_latency_seconds_bucket"}));
    EXPECT_TRUE(metricNamesInQuery("1.5 * 2").empty());
    EXPECT_TRUE(metricNamesInQuery("\"fp8\"").empty());
}

TEST(MetricNames, ClosestOnTheServerNamesTheRename) {
    auto dump = test::readExposition((test::testData() / "vllm" / "metrics-v1-sample.txt").string());
    ASSERT_TRUE(dump.has_value());
    std::vector<std::string> names = test::metricNames(*dump);
    names.push_back("langfuse_score_value");  // another exporter's metric on the same server
    ASSERT_EQ(std::count(names.begin(), names.end(), "vllm:gpu_cache_usage_perc"), 0);  // vLLM >= 0.12

    const auto forOld = closestMetricNames("vllm:gpu_cache_usage_perc", names);
    ASSERT_FALSE(forOld.empty());
    EXPECT_EQ(forOld.front(), "vllm:kv_cache_usage_perc");
    EXPECT_LE(forOld.size(), 5u);
    for (const auto& n : forOld) EXPECT_EQ(n.rfind("vllm:", 0), 0u) << n;  // same prefix only

    // No known rename: edit distance decides (the _total suffix is 6 edits; any other name is further).
    EXPECT_EQ(closestMetricNames("vllm:generation_tokens", names).front(), "vllm:generation_tokens_total");
    EXPECT_EQ(closestMetricNames("vllm:time_per_output_token_seconds_bucket", names).front(),
              "vllm:inter_token_latency_seconds_bucket");
    EXPECT_TRUE(closestMetricNames("sglang:gen_throughput", names).empty());
    EXPECT_EQ(closestMetricNames("langfuse_score", names), (std::vector<std::string>{"langfuse_score_value"}));

    std::string successor;
    const auto note = metricRenameNote("vllm:gpu_cache_usage_perc", &successor);
    ASSERT_TRUE(note.has_value());
    EXPECT_EQ(successor, "vllm:kv_cache_usage_perc");
    EXPECT_NE(note->find("0.12"), std::string::npos) << *note;
    EXPECT_FALSE(metricRenameNote("vllm:kv_cache_usage_perc").has_value());
}

// --- the risk on the timeline ------------------------------------------------------------------------------------

TEST(TimelineKvScalesRisk, ShownInReportsAndKeptInTheFileOnlyWhenRaised) {
    TimelineData d;
    d.settings.from = 1795000000;
    d.settings.to = d.settings.from + 7200;
    d.settings.changeAt = d.settings.from + 3600;
    const Json plainFile = timelineToJson(d);
    const TimelineReport plain = evaluateTimeline(d);
    EXPECT_FALSE(plainFile.contains("kv_scales_risk"));
    EXPECT_FALSE(timelineReportToJson(plain).contains("risks"));
    EXPECT_EQ(timelineReportToText(plain, d).find("Risk:"), std::string::npos);

    d.kvScalesRisk = KvScalesRisk{d.settings.from + 3600, "fp8_e4m3", {"{engine=\"0\"}", "{engine=\"1\"}"}};
    const TimelineReport r = evaluateTimeline(d);
    ASSERT_EQ(r.risks.size(), 1u);
    EXPECT_EQ(r.risks[0], kvScalesRiskText(*d.kvScalesRisk));
    EXPECT_EQ(timelineReportToJson(r)["risks"], Json::array({r.risks[0]}));
    EXPECT_NE(timelineReportToText(r, d).find("  Risk: FP8 KV cache without calculated scales"), std::string::npos);
    EXPECT_EQ(r.verdict, plain.verdict);  // a risk flag informs; it does not move the verdict

    const Json file = timelineToJson(d);
    ASSERT_TRUE(file.contains("kv_scales_risk"));
    EXPECT_EQ(file["kv_scales_risk"]["cache_dtype"], "fp8_e4m3");
    auto back = parseTimelineJson(file, "timeline");
    ASSERT_TRUE(back.ok()) << back.error().message;
    EXPECT_EQ(back->kvScalesRisk, d.kvScalesRisk);
    auto old = parseTimelineJson(plainFile, "timeline");  // a file from before the field opens as before
    ASSERT_TRUE(old.ok()) << old.error().message;
    EXPECT_FALSE(old->kvScalesRisk.has_value());

    // Through a saved comparison file (its own JSON writer) and back.
    test::TempDir dir;
    ComparisonDocument doc;
    doc.hasEvals = false;
    doc.timeline = d;
    ASSERT_TRUE(saveComparisonFile(doc, dir.path() / "risk.fp8cmp").ok());
    auto loaded = loadComparisonFile(dir.path() / "risk.fp8cmp");
    ASSERT_TRUE(loaded.ok()) << loaded.error().message;
    ASSERT_TRUE(loaded->timeline.has_value());
    EXPECT_EQ(loaded->timeline->kvScalesRisk, d.kvScalesRisk);

    Json broken = file;
    broken["kv_scales_risk"]["where"] = "engine 0";
    auto refused = parseTimelineJson(broken, "timeline");
    ASSERT_FALSE(refused.ok());
    EXPECT_EQ(refused.error().message, "timeline.kv_scales_risk.where must be a list of strings");
}

}  // namespace
}  // namespace fp8dash
