// parseGuideLlmText on GuideLLM's own 0.2 test asset (shared/fixtures/serving/guidellm, read in place) and on reports
// written in the published shapes of 0.4, 0.6 and 0.7 (tests/data/serving/guidellm, SOURCES.md there), JSON and
// YAML. Expected values come from the files' raw numbers (read here with nlohmann), seconds turned to milliseconds
// here, or from the numbers the YAML was written with (write_shapes.py), never from the reader.
#include "fp8dash/core/json_text.h"
#include "fp8dash/core/serving_results.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>

#include "test_paths.h"

namespace fp8dash {
namespace {

std::string guideTestRead(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

std::filesystem::path guideData(const std::string& name) {
    return test::testData() / "serving" / "guidellm" / name;
}

// Every text a run keeps, to look for secrets in.
std::string guideAllText(const ServingRun& run) {
    std::string all = run.source + run.toolVersion + run.formatLabel + run.date + run.model + run.label + run.dataset +
                      run.quantization + run.kvCacheDtype + run.servedEvidence;
    for (const auto& [k, v] : run.metadata) all += k + "=" + v + ";";
    for (const auto& w : run.warnings) all += w + ";";
    return all;
}

void expectSecretsGone(const ServingRun& run) {
    const std::string all = guideAllText(run);
    for (const char* secret : {"hunter2", "sk-test", "sk-live", "hf_abc", "api_key=", "**********"})
        EXPECT_EQ(all.find(secret), std::string::npos) << secret << " kept in " << all;
}

// A successful distribution's statistics as the reader must give them (scale: 1000 for seconds).
void expectStats(const LatencyStats& got, const Json& dist, double scale, const std::string& what) {
    const Json& ok = dist.at("successful");
    ASSERT_TRUE(got.mean.has_value()) << what;
    EXPECT_DOUBLE_EQ(*got.mean, ok.at("mean").get<double>() * scale) << what;
    EXPECT_DOUBLE_EQ(*got.median, ok.at("median").get<double>() * scale) << what;
    EXPECT_DOUBLE_EQ(*got.stdDev, ok.at("std_dev").get<double>() * scale) << what;
    const Json& p = ok.at("percentiles");
    const std::pair<const char*, double> keys[] = {{"p001", 0.1}, {"p01", 1},  {"p05", 5},    {"p10", 10},
                                                   {"p25", 25},   {"p50", 50}, {"p75", 75},   {"p90", 90},
                                                   {"p95", 95},   {"p99", 99}, {"p999", 99.9}};
    std::size_t written = 0;
    for (const auto& [key, pct] : keys) {
        if (!p.contains(key)) continue;  // GuideLLM 0.2 writes no p50 (its median stands in)
        ++written;
        ASSERT_TRUE(got.percentile(pct).has_value()) << what << " " << key;
        EXPECT_DOUBLE_EQ(*got.percentile(pct), p.at(key).get<double>() * scale) << what << " " << key;
    }
    EXPECT_EQ(written, p.size()) << what << ": a percentile key the test does not know";
    EXPECT_EQ(got.percentiles.size(), written) << what;
    EXPECT_DOUBLE_EQ(*got.percentile(50), (p.contains("p50") ? p.at("p50") : ok.at("median")).get<double>() * scale);
    for (std::size_t i = 1; i < got.percentiles.size(); ++i)
        EXPECT_LT(got.percentiles[i - 1].first, got.percentiles[i].first) << what;
}

// The metric map of one benchmark against its raw JSON.
void expectBenchmark(const ServingRun& run, const Json& bench, const Json& totals) {
    const Json& m = bench.at("metrics");
    EXPECT_EQ(run.tool, ServingTool::GuideLlm);
    EXPECT_EQ(run.completed, totals.at("successful").get<long long>());
    EXPECT_EQ(run.failed, totals.at("errored").get<long long>() + totals.at("incomplete").get<long long>());
    expectStats(run.ttft, m.at("time_to_first_token_ms"), 1.0, "ttft");
    expectStats(run.tpot, m.at("inter_token_latency_ms"), 1.0, "tpot = inter_token_latency_ms");
    expectStats(run.e2el, m.at("request_latency"), 1000.0, "e2el = request_latency seconds");
    EXPECT_TRUE(run.itl.empty()) << "GuideLLM has no pooled chunk gaps";
    // time_per_output_token_ms includes the first token: it is not TPOT.
    EXPECT_NE(*run.tpot.mean, m.at("time_per_output_token_ms").at("successful").at("mean").get<double>());
    const auto mean = [&](const char* name) { return m.at(name).at("successful").at("mean").get<double>(); };
    EXPECT_DOUBLE_EQ(*run.outputTokensPerS, mean("output_tokens_per_second"));
    EXPECT_DOUBLE_EQ(*run.totalTokensPerS, mean("tokens_per_second"));
    EXPECT_DOUBLE_EQ(*run.requestsPerS, mean("requests_per_second"));
    EXPECT_DOUBLE_EQ(*run.meanInputTokens, mean("prompt_token_count"));
    EXPECT_DOUBLE_EQ(*run.meanOutputTokens, mean("output_token_count"));
    EXPECT_DOUBLE_EQ(*run.durationS, bench.at("duration").get<double>());
}

TEST(ServingGuideLlmReader, GuideLlmOwnV02AssetMapsEveryMetricByMeaning) {
    const auto path = test::sharedFixtures() / "serving" / "guidellm" / "guidellm-repo_v0.2_benchmarks_stripped.json";
    if (!std::filesystem::exists(path)) GTEST_SKIP() << "shared fixture " << path << " is absent";
    const std::string text = guideTestRead(path);
    const Json raw = Json::parse(text);
    const auto runs = parseGuideLlmText(text, "v02.json");
    ASSERT_TRUE(runs.ok()) << runs.error().message;
    ASSERT_EQ(runs->size(), raw.at("benchmarks").size());
    const Json& bench = raw.at("benchmarks").at(0);
    const ServingRun& run = runs->at(0);
    EXPECT_EQ(run.source, "v02.json#1");
    EXPECT_NE(run.formatLabel.find("0.2"), std::string::npos) << run.formatLabel;
    ASSERT_EQ(bench.at("args").at("strategy").at("type_"), "synchronous");
    EXPECT_EQ(run.load.axis, LoadAxis::Concurrency);
    EXPECT_EQ(run.load.value, 1);
    EXPECT_EQ(run.model, bench.at("worker").at("backend_model").get<std::string>());
    EXPECT_EQ(run.dataset, bench.at("request_loader").at("data").get<std::string>());
    expectBenchmark(run, bench, bench.at("request_totals"));
    // Throughput is the mean over time windows, never the peak window.
    const Json& out = bench.at("metrics").at("output_tokens_per_second").at("successful");
    EXPECT_LT(*run.outputTokensPerS, out.at("max").get<double>());
    EXPECT_EQ(run.failed, 1) << "the asset's one incomplete request is counted as failed";
}

TEST(ServingGuideLlmReader, V04ArgsAndConcurrentStreams) {
    const auto path = guideData("guidellm_v0.4_concurrent.json");
    const std::string text = guideTestRead(path);
    const Json raw = Json::parse(text);
    const auto runs = parseGuideLlmText(text, path.filename().string());
    ASSERT_TRUE(runs.ok()) << runs.error().message;
    ASSERT_EQ(runs->size(), 2u);
    for (std::size_t i = 0; i < 2; ++i) {
        const Json& bench = raw.at("benchmarks").at(i);
        const ServingRun& run = runs->at(i);
        EXPECT_EQ(run.source, path.filename().string() + "#" + std::to_string(i + 1));
        EXPECT_NE(run.formatLabel.find("0.4"), std::string::npos);
        EXPECT_EQ(run.load.axis, LoadAxis::Concurrency);
        EXPECT_EQ(run.load.value, bench.at("config").at("strategy").at("streams").get<double>());
        EXPECT_EQ(run.model, bench.at("config").at("backend").at("model").get<std::string>());
        EXPECT_EQ(run.dataset, raw.at("args").at("data").at(0).get<std::string>());
        EXPECT_EQ(run.numPrompts, raw.at("args").at("max_requests").get<long long>());
        expectBenchmark(run, bench, bench.at("metrics").at("request_totals"));
        expectSecretsGone(run);
    }
    // The second point's errored and incomplete requests are counted (7 + 3 of 400).
    EXPECT_EQ(runs->at(1).failed, 10);
    EXPECT_NEAR(runs->at(1).failedShare(), 10.0 / 400.0, 1e-12);
}

TEST(ServingGuideLlmReader, V06MetadataThroughputAndPoisson) {
    const auto path = guideData("guidellm_v0.6_throughput_poisson.json");
    const std::string text = guideTestRead(path);
    const Json raw = Json::parse(text);
    const auto runs = parseGuideLlmText(text, "v06.json");
    ASSERT_TRUE(runs.ok()) << runs.error().message;
    ASSERT_EQ(runs->size(), 2u);
    EXPECT_EQ(runs->at(0).toolVersion, raw.at("metadata").at("guidellm_version").get<std::string>());
    EXPECT_NE(runs->at(0).formatLabel.find("0.5-0.6"), std::string::npos);
    EXPECT_EQ(runs->at(0).load.axis, LoadAxis::Unbounded);
    EXPECT_EQ(runs->at(0).load.concurrencyCap, 512);
    const Json& poisson = raw.at("benchmarks").at(1).at("config").at("strategy");
    EXPECT_EQ(runs->at(1).load.axis, LoadAxis::RequestRate);
    EXPECT_EQ(runs->at(1).load.value, poisson.at("rate").get<double>());
    EXPECT_EQ(runs->at(1).load.concurrencyCap, poisson.at("max_concurrency").get<double>());
    EXPECT_EQ(runs->at(1).model, raw.at("args").at("backend_kwargs").at("model").get<std::string>());
    for (std::size_t i = 0; i < 2; ++i) {
        const Json& bench = raw.at("benchmarks").at(i);
        expectBenchmark(runs->at(i), bench, bench.at("metrics").at("request_totals"));
        expectSecretsGone(runs->at(i));
    }
}

TEST(ServingGuideLlmReader, V07LabelsGiveVariantAndWhatWasServed) {
    const auto path = guideData("guidellm_v0.7_labels.json");
    const std::string text = guideTestRead(path);
    const Json raw = Json::parse(text);
    const auto runs = parseGuideLlmText(text, "v07.json");
    ASSERT_TRUE(runs.ok()) << runs.error().message;
    ASSERT_EQ(runs->size(), 2u);
    const Json& labels = raw.at("config").at("metadata").at("labels");
    for (std::size_t i = 0; i < 2; ++i) {
        const ServingRun& run = runs->at(i);
        const Json& bench = raw.at("benchmarks").at(i);
        EXPECT_NE(run.formatLabel.find("0.7"), std::string::npos);
        EXPECT_EQ(run.toolVersion, "0.7.3");
        EXPECT_EQ(run.label, labels.at("variant").get<std::string>());
        EXPECT_EQ(run.quantization, labels.at("quantization").get<std::string>());
        EXPECT_EQ(run.kvCacheDtype, labels.at("kv_cache_dtype").get<std::string>());
        EXPECT_NE(run.servedEvidence.find("kv_cache_dtype=fp8"), std::string::npos) << run.servedEvidence;
        EXPECT_EQ(run.dataset, raw.at("config").at("spec").at("data").at(0).at("source").get<std::string>());
        const auto team = std::find(run.metadata.begin(), run.metadata.end(),
                                    std::pair<std::string, std::string>("team", "inference"));
        EXPECT_NE(team, run.metadata.end());
        EXPECT_EQ(run.load.value, bench.at("config").at("strategy").at("streams").get<double>());
        expectBenchmark(run, bench, bench.at("metrics").at("request_totals"));
        expectSecretsGone(run);  // the api_token label and the data source's token are left out
    }
}

// The same 0.7 report as JSON and as YAML (PyYAML's dump of the same dict) reads to the same runs.
TEST(ServingGuideLlmReader, YamlAndJsonOfOneReportGiveTheSameRuns) {
    const auto json = parseGuideLlmText(guideTestRead(guideData("guidellm_v0.7_labels.json")), "r");
    const auto yaml = parseGuideLlmText(guideTestRead(guideData("guidellm_v0.7_labels.yaml")), "r");
    ASSERT_TRUE(json.ok()) << json.error().message;
    ASSERT_TRUE(yaml.ok()) << yaml.error().message;
    ASSERT_EQ(json->size(), yaml->size());
    for (std::size_t i = 0; i < json->size(); ++i) {
        const ServingRun& a = json->at(i);
        const ServingRun& b = yaml->at(i);
        EXPECT_EQ(a.source, b.source);
        EXPECT_EQ(a.model, b.model);
        EXPECT_EQ(a.label, b.label);
        EXPECT_EQ(a.dataset, b.dataset);
        EXPECT_EQ(a.kvCacheDtype, b.kvCacheDtype);
        EXPECT_EQ(a.load, b.load);
        EXPECT_EQ(a.completed, b.completed);
        EXPECT_EQ(a.failed, b.failed);
        EXPECT_EQ(a.outputTokensPerS, b.outputTokensPerS);
        EXPECT_EQ(a.ttft, b.ttft);
        EXPECT_EQ(a.tpot, b.tpot);
        EXPECT_EQ(a.e2el, b.e2el);
        EXPECT_EQ(a.durationS, b.durationS);
        // PyYAML sorts the labels' keys; the set is the same.
        auto ma = a.metadata, mb = b.metadata;
        std::sort(ma.begin(), ma.end());
        std::sort(mb.begin(), mb.end());
        EXPECT_EQ(ma, mb);
    }
}

// The YAML report: values from write_shapes.py's numbers (ttft 55 ms, itl 10 ms, latency 2.7 s around which the
// distribution was written: mean = 1.02 x, p50 = 1 x, p99 = 1.3 x, p999 = 1.6 x).
TEST(ServingGuideLlmReader, V07YamlReadLikeJsonAndAllFailedPointHasNoLatencies) {
    const auto path = guideData("guidellm_v0.7_allfailed.yaml");
    const auto runs = parseGuideLlmText(guideTestRead(path), "v07.yaml");
    ASSERT_TRUE(runs.ok()) << runs.error().message;
    ASSERT_EQ(runs->size(), 2u);
    const ServingRun& ok = runs->at(0);
    EXPECT_EQ(ok.label, "bf16-baseline");
    EXPECT_EQ(ok.kvCacheDtype, "auto");
    EXPECT_EQ(ok.load.axis, LoadAxis::RequestRate);
    EXPECT_EQ(ok.load.value, 4.0);
    EXPECT_FALSE(ok.load.concurrencyCap.has_value());
    EXPECT_EQ(ok.completed, 240);
    EXPECT_DOUBLE_EQ(*ok.ttft.mean, 55.0 * 1.02);
    EXPECT_DOUBLE_EQ(*ok.ttft.percentile(99), 55.0 * 1.3);
    EXPECT_DOUBLE_EQ(*ok.tpot.median, 10.0);
    EXPECT_NEAR(*ok.e2el.mean, 2.7 * 1.02 * 1000.0, 1e-6);
    EXPECT_NEAR(*ok.e2el.percentile(99.9), 2.7 * 1.6 * 1000.0, 1e-6);
    EXPECT_DOUBLE_EQ(*ok.outputTokensPerS, 4.0 * 256.0 * 1.02);
    EXPECT_EQ(ok.model, "meta-llama/Llama-3.1-8B-Instruct-FP8");
    expectSecretsGone(ok);

    const ServingRun& failed = runs->at(1);
    EXPECT_TRUE(failed.allFailed());
    EXPECT_EQ(failed.failed, 312);
    EXPECT_EQ(failed.load.value, 64.0);
    EXPECT_EQ(failed.load.concurrencyCap, 128.0);
    for (const auto m : {ServingMetric::Ttft, ServingMetric::Tpot, ServingMetric::Itl, ServingMetric::E2el})
        EXPECT_TRUE(failed.metric(m).empty()) << servingMetricKey(m) << " must be absent, not 0.0";
    EXPECT_FALSE(failed.outputTokensPerS.has_value());
    EXPECT_FALSE(failed.requestsPerS.has_value());
    ASSERT_FALSE(failed.warnings.empty());
    EXPECT_NE(failed.warnings.back().find("every request failed"), std::string::npos);
}

Json guideV04Raw() {
    return Json::parse(guideTestRead(guideData("guidellm_v0.4_concurrent.json")));
}

TEST(ServingGuideLlmReader, TargetKeptWithoutCredentialsOrQuery) {
    Json raw = guideV04Raw();
    for (auto& bench : raw["benchmarks"]) bench["config"].erase("backend");  // the target then comes from args
    const auto runs = parseGuideLlmText(raw.dump(), "v04.json");
    ASSERT_TRUE(runs.ok()) << runs.error().message;
    const auto& md = runs->at(0).metadata;
    const auto target = std::find_if(md.begin(), md.end(), [](const auto& kv) { return kv.first == "target"; });
    ASSERT_NE(target, md.end());
    EXPECT_EQ(target->second, "http://gpu-box:8000/v1");  // args.target without "bench:hunter2@" and "?api_key=..."
    EXPECT_EQ(runs->at(0).model, raw["args"]["model"].get<std::string>());
    expectSecretsGone(runs->at(0));
}

TEST(ServingGuideLlmReader, ErrorsNameFileBenchmarkAndField) {
    Json raw = guideV04Raw();
    raw["benchmarks"][1]["metrics"]["request_latency"]["successful"]["mean"] = "slow";
    auto runs = parseGuideLlmText(raw.dump(), "bad.json");
    ASSERT_FALSE(runs.ok());
    EXPECT_NE(runs.error().message.find("bad.json"), std::string::npos) << runs.error().message;
    EXPECT_NE(runs.error().message.find("benchmark 2"), std::string::npos) << runs.error().message;
    EXPECT_NE(runs.error().message.find("metrics.request_latency.successful.mean"), std::string::npos)
        << runs.error().message;

    raw = guideV04Raw();
    raw["benchmarks"][0]["config"]["strategy"]["type_"] = "lunar";
    runs = parseGuideLlmText(raw.dump(), "bad.json");
    ASSERT_FALSE(runs.ok());
    EXPECT_NE(runs.error().message.find("benchmark 1: config.strategy.type_"), std::string::npos)
        << runs.error().message;

    raw = guideV04Raw();
    raw["benchmarks"][0]["config"]["strategy"].erase("streams");
    runs = parseGuideLlmText(raw.dump(), "bad.json");
    ASSERT_FALSE(runs.ok());
    EXPECT_NE(runs.error().message.find("config.strategy.streams"), std::string::npos) << runs.error().message;

    for (const char* text : {"{\"results\": {}}", "[1, 2]", "benchmarks: 3\n", "{\"benchmarks\": []}"}) {
        runs = parseGuideLlmText(text, "other.json");
        ASSERT_FALSE(runs.ok()) << text;
        EXPECT_NE(runs.error().message.find("other.json"), std::string::npos) << runs.error().message;
    }
}

// Goodput, after 0.7.3 (GuideLLM PR #1085): metrics.request_goodput.successful.mean is the recorded goodput (the field
// vLLM's request_goodput fills), metrics.slo_attainment the share meeting every objective, and the objectives come from
// the benchmark's config.slo, else the report's config.spec.metrics.slo. Expected values from the raw JSON.
TEST(ServingGuideLlmReader, GoodputAndTheSloItCountedAgainst) {
    const auto path = guideData("guidellm_goodput_after_0.7.3.json");
    const std::string text = guideTestRead(path);
    const Json raw = Json::parse(text);
    const auto runs = parseGuideLlmText(text, "goodput.json");
    ASSERT_TRUE(runs.ok()) << runs.error().message;
    ASSERT_EQ(runs->size(), 3u);
    const Json& specSlo = raw.at("config").at("spec").at("metrics").at("slo");
    for (std::size_t i = 0; i < 3; ++i) {
        const ServingRun& run = runs->at(i);
        const Json& bench = raw.at("benchmarks").at(i);
        const Json& m = bench.at("metrics");
        expectBenchmark(run, bench, m.at("request_totals"));
        // The objectives by meaning: GuideLLM compares tpot_ms with inter-token latency (vLLM's TPOT).
        const Json& slo = bench.at("config").contains("slo") ? bench.at("config").at("slo") : specSlo;
        std::vector<std::pair<ServingMetric, double>> want;
        if (!slo.at("ttft_ms").is_null()) want.emplace_back(ServingMetric::Ttft, slo.at("ttft_ms").get<double>());
        if (!slo.at("tpot_ms").is_null()) want.emplace_back(ServingMetric::Tpot, slo.at("tpot_ms").get<double>());
        if (!slo.at("e2el_ms").is_null()) want.emplace_back(ServingMetric::E2el, slo.at("e2el_ms").get<double>());
        ASSERT_EQ(want.size(), 2u) << "the file sets ttft and tpot, leaves e2el unset";
        EXPECT_EQ(run.goodputSloMs, want) << "benchmark " << i + 1;
        const auto meta = std::find_if(run.metadata.begin(), run.metadata.end(),
                                       [](const auto& kv) { return kv.first == "goodput_slo"; });
        ASSERT_NE(meta, run.metadata.end());
        EXPECT_EQ(meta->second, "ttft_ms<=200, tpot_ms<=50");
        if (m.at("request_goodput").is_null()) {
            EXPECT_FALSE(run.goodputRequestsPerS) << "null goodput (nothing could be judged) is not zero";
            EXPECT_FALSE(run.sloAttainment);
            continue;
        }
        const double goodput = m.at("request_goodput").at("successful").at("mean").get<double>();
        ASSERT_TRUE(run.goodputRequestsPerS.has_value());
        EXPECT_DOUBLE_EQ(*run.goodputRequestsPerS, goodput);
        EXPECT_LE(*run.goodputRequestsPerS, *run.requestsPerS) << "conforming requests are a subset";
        // Attainment is conforming / determined requests (errored count against it).
        const Json& byTtft = m.at("slo_attainment_by_metric").at("ttft_ms");
        ASSERT_TRUE(run.sloAttainment.has_value());
        EXPECT_DOUBLE_EQ(*run.sloAttainment, m.at("slo_attainment").get<double>());
        EXPECT_NEAR(*run.sloAttainment,
                    byTtft.at("conforming_requests").get<double>() / m.at("slo_determined_requests").get<double>(),
                    1e-12);
    }
    EXPECT_FALSE(raw.at("benchmarks").at(2).at("config").contains("slo")) << "the third falls back to the spec";

    // Reports from before goodput have none.
    const auto older = parseGuideLlmText(guideTestRead(guideData("guidellm_v0.7_labels.json")), "v07.json");
    ASSERT_TRUE(older.ok());
    for (const ServingRun& run : *older) {
        EXPECT_FALSE(run.goodputRequestsPerS);
        EXPECT_FALSE(run.sloAttainment);
        EXPECT_TRUE(run.goodputSloMs.empty());
    }

    // Bad values name the benchmark and the field.
    Json bad = raw;
    bad["benchmarks"][1]["metrics"]["slo_attainment"] = 1.5;
    auto refused = parseGuideLlmText(bad.dump(), "bad.json");
    ASSERT_FALSE(refused.ok());
    EXPECT_NE(refused.error().message.find("benchmark 2: metrics.slo_attainment"), std::string::npos)
        << refused.error().message;
    bad = raw;
    bad["benchmarks"][0]["config"]["slo"]["ttft_ms"] = -3;
    refused = parseGuideLlmText(bad.dump(), "bad.json");
    ASSERT_FALSE(refused.ok());
    EXPECT_NE(refused.error().message.find("benchmark 1: config.slo.ttft_ms"), std::string::npos)
        << refused.error().message;
}

TEST(ServingGuideLlmReader, YamlBombsAndDeepNestingAreRefused) {
    // Deep flow nesting: yaml-cpp recurses per level; refused before it parses.
    std::string deep = "benchmarks: " + std::string(5000, '[') + std::string(5000, ']') + "\n";
    auto runs = parseGuideLlmText(deep, "deep.yaml");
    ASSERT_FALSE(runs.ok());
    EXPECT_NE(runs.error().message.find("deeper than 256"), std::string::npos) << runs.error().message;
    // Deep block nesting by sequence indicators on one line.
    std::string dashes = "benchmarks:\n";
    for (int i = 0; i < 400; ++i) dashes += "- ";
    dashes += "x\n";
    runs = parseGuideLlmText(dashes, "dashes.yaml");
    ASSERT_FALSE(runs.ok());
    EXPECT_NE(runs.error().message.find("deeper than 256"), std::string::npos) << runs.error().message;
    // An alias bomb (each level doubles the one before): refused while expanding, not after.
    std::string bomb = "a0: &a0 [x, x]\n";
    for (int i = 1; i < 40; ++i)
        bomb += "a" + std::to_string(i) + ": &a" + std::to_string(i) + " [*a" + std::to_string(i - 1) + ", *a" +
                std::to_string(i - 1) + "]\n";
    bomb += "benchmarks: [*a39]\n";
    runs = parseGuideLlmText(bomb, "bomb.yaml");
    ASSERT_FALSE(runs.ok());
    EXPECT_NE(runs.error().message.find("node limit"), std::string::npos) << runs.error().message;
    // Broken YAML names the line.
    runs = parseGuideLlmText("benchmarks:\n  - a: [1, 2\n  - b: }\n", "broken.yaml");
    ASSERT_FALSE(runs.ok());
    EXPECT_NE(runs.error().message.find("broken.yaml"), std::string::npos) << runs.error().message;
    EXPECT_NE(runs.error().message.find("line"), std::string::npos) << runs.error().message;
    // Text with brackets inside quoted and block scalars does not count as nesting.
    std::string prose = "note: |\n";
    for (int i = 0; i < 300; ++i) prose += "  - [[[ not nesting " + std::to_string(i) + "\n";
    prose += "quoted: \"" + std::string(300, '[') + "\"\nbenchmarks: []\n";
    runs = parseGuideLlmText(prose, "prose.yaml");
    ASSERT_FALSE(runs.ok());
    EXPECT_NE(runs.error().message.find("holds no benchmarks"), std::string::npos) << runs.error().message;
}

}  // namespace
}  // namespace fp8dash
