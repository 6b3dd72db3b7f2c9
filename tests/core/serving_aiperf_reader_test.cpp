// parseAiPerfText on a real AIPerf 0.8 run (shared/fixtures/serving/aiperf, read in place: InferenceX's Kimi-K2.7
// MXFP4 run with the server scrape beside it) and on exports written in the published shapes (tests/data/serving/
// aiperf, SOURCES.md there): an AIPerf run at a request rate with errors and a latency in seconds, and a GenAI-Perf
// export. Expected values come from the files' raw numbers, read here with nlohmann.
#include "fp8dash/core/json_text.h"
#include "fp8dash/core/serving_results.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "test_paths.h"

namespace fp8dash {
namespace {

std::string aiperfTestRead(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

const std::string kKimi = "inferencex_kimik2.7_mxfp4_conc1_";

std::filesystem::path aiperfShared(const std::string& name) {
    return test::sharedFixtures() / "serving" / "aiperf" / (kKimi + name);
}

std::filesystem::path aiperfData(const std::string& name) {
    return test::testData() / "serving" / "aiperf" / name;
}

// Checks a metric object's avg and percentiles (times in the object's unit; msPerUnit turns them into ms).
void expectMetric(const LatencyStats& got, const Json& m, double msPerUnit, const std::string& what) {
    ASSERT_TRUE(got.mean.has_value()) << what;
    EXPECT_DOUBLE_EQ(*got.mean, m.at("avg").get<double>() * msPerUnit) << what;
    std::size_t pcts = 0;
    for (const auto& [key, value] : m.items()) {
        if (key.size() < 2 || key[0] != 'p') continue;
        const double p = std::stod(key.substr(1));
        ++pcts;
        ASSERT_TRUE(got.percentile(p).has_value()) << what << " " << key;
        EXPECT_DOUBLE_EQ(*got.percentile(p), value.get<double>() * msPerUnit) << what << " " << key;
    }
    EXPECT_EQ(got.percentiles.size(), pcts) << what;
    if (m.contains("p50")) {
        ASSERT_TRUE(got.median.has_value()) << what;
        EXPECT_DOUBLE_EQ(*got.median, m.at("p50").get<double>() * msPerUnit) << what;
    }
    if (m.contains("std")) {
        EXPECT_DOUBLE_EQ(*got.stdDev, m.at("std").get<double>() * msPerUnit) << what;
    }
}

std::string aiperfAllText(const ServingRun& run) {
    std::string all = run.model + run.label + run.dataset + run.servedEvidence;
    for (const auto& [k, v] : run.metadata) all += k + "=" + v + ";";
    for (const auto& w : run.warnings) all += w + ";";
    return all;
}

TEST(ServingAiPerfReader, RealAiPerfRunWithServerScrape) {
    const auto json = aiperfShared("profile_export_aiperf.json");
    const auto csv = aiperfShared("server_metrics_export.csv");
    if (!std::filesystem::exists(json)) GTEST_SKIP() << "shared fixture " << json << " is absent";
    const std::string text = aiperfTestRead(json);
    const std::string scrape = aiperfTestRead(csv);
    const Json raw = Json::parse(text);
    const auto run = parseAiPerfText(text, "profile_export_aiperf.json", scrape);
    ASSERT_TRUE(run.ok()) << run.error().message;
    EXPECT_EQ(run->tool, ServingTool::AiPerf);
    EXPECT_EQ(run->toolVersion, raw.at("aiperf_version").get<std::string>());
    EXPECT_NE(run->formatLabel.find(raw.at("schema_version").get<std::string>()), std::string::npos);
    EXPECT_EQ(run->source, "profile_export_aiperf.json");
    EXPECT_EQ(run->date, raw.at("start_time").get<std::string>());
    const Json& config = raw.at("input_config");
    EXPECT_EQ(run->model, config.at("endpoint").at("model_names").at(0).get<std::string>());
    EXPECT_EQ(run->load.axis, LoadAxis::Concurrency);
    EXPECT_EQ(run->load.value, config.at("loadgen").at("concurrency").get<double>());
    EXPECT_EQ(run->dataset, config.at("input").at("public_dataset").get<std::string>());
    EXPECT_EQ(run->completed, raw.at("request_count").at("avg").get<long long>());
    ASSERT_TRUE(raw.at("error_summary").empty());
    EXPECT_EQ(run->failed, 0);
    // The metric map: inter_token_latency is per request (TPOT), inter_chunk_latency the pooled gaps (ITL).
    expectMetric(run->ttft, raw.at("time_to_first_token"), 1.0, "ttft");
    expectMetric(run->tpot, raw.at("inter_token_latency"), 1.0, "tpot = inter_token_latency");
    expectMetric(run->itl, raw.at("inter_chunk_latency"), 1.0, "itl = inter_chunk_latency");
    expectMetric(run->e2el, raw.at("request_latency"), 1.0, "e2el = request_latency");
    EXPECT_DOUBLE_EQ(*run->outputTokensPerS, raw.at("output_token_throughput").at("avg").get<double>());
    EXPECT_DOUBLE_EQ(*run->totalTokensPerS, raw.at("total_token_throughput").at("avg").get<double>());
    EXPECT_DOUBLE_EQ(*run->requestsPerS, raw.at("request_throughput").at("avg").get<double>());
    EXPECT_DOUBLE_EQ(*run->meanInputTokens, raw.at("input_sequence_length").at("avg").get<double>());
    EXPECT_DOUBLE_EQ(*run->meanOutputTokens, raw.at("output_sequence_length").at("avg").get<double>());
    ASSERT_EQ(raw.at("benchmark_duration").at("unit"), "sec");
    EXPECT_DOUBLE_EQ(*run->durationS, raw.at("benchmark_duration").at("avg").get<double>());
    // The KV-cache dtype from the scrape's vllm:cache_config_info row, found here by its text.
    const std::string marker = ",vllm:cache_config_info,cache_dtype,";
    const auto at = scrape.find(marker);
    ASSERT_NE(at, std::string::npos);
    const auto from = at + marker.size();
    const std::string dtype = scrape.substr(from, scrape.find(',', from) - from);
    EXPECT_EQ(run->kvCacheDtype, dtype);
    EXPECT_NE(run->servedEvidence.find("server_metrics_export.csv vllm:cache_config_info cache_dtype=" + dtype),
              std::string::npos)
        << run->servedEvidence;
    const auto cli = std::find_if(run->metadata.begin(), run->metadata.end(),
                                  [](const auto& kv) { return kv.first == "cli_command"; });
    ASSERT_NE(cli, run->metadata.end());
    EXPECT_EQ(cli->second, config.at("cli_command").get<std::string>());  // nothing secret in it to redact

    // Without the scrape, nothing is said about what was served.
    const auto bare = parseAiPerfText(text, "profile_export_aiperf.json");
    ASSERT_TRUE(bare.ok());
    EXPECT_EQ(bare->kvCacheDtype, "");
    EXPECT_EQ(bare->servedEvidence, "");
}

TEST(ServingAiPerfReader, RateLoadErrorsUnitsAndSecretsOfAnAiPerfExport) {
    const std::string text = aiperfTestRead(aiperfData("aiperf_rate_errors_profile_export_aiperf.json"));
    const Json raw = Json::parse(text);
    const auto run = parseAiPerfText(text, "rate.json");
    ASSERT_TRUE(run.ok()) << run.error().message;
    const Json& loadgen = raw.at("input_config").at("loadgen");
    EXPECT_EQ(run->load.axis, LoadAxis::RequestRate);
    EXPECT_EQ(run->load.value, loadgen.at("request_rate").get<double>());
    EXPECT_EQ(run->load.concurrencyCap, loadgen.at("concurrency").get<double>());
    EXPECT_EQ(run->numPrompts, loadgen.at("request_count").get<long long>());
    EXPECT_EQ(run->completed, raw.at("request_count").at("avg").get<long long>());
    EXPECT_EQ(run->failed, raw.at("error_request_count").at("avg").get<long long>());
    // request_latency is written in seconds here: turned into milliseconds by its unit.
    ASSERT_EQ(raw.at("request_latency").at("unit"), "sec");
    expectMetric(run->e2el, raw.at("request_latency"), 1000.0, "e2el from seconds");
    expectMetric(run->itl, raw.at("inter_chunk_latency"), 1.0, "itl");
    expectMetric(run->tpot, raw.at("inter_token_latency"), 1.0, "tpot");
    EXPECT_DOUBLE_EQ(*run->goodputRequestsPerS, raw.at("goodput").at("avg").get<double>());
    const std::string all = aiperfAllText(*run);
    for (const char* secret : {"sk-live", "abc123secret"})
        EXPECT_EQ(all.find(secret), std::string::npos) << secret << " kept in " << all;
    EXPECT_NE(all.find("--api-key <redacted>"), std::string::npos) << all;
    EXPECT_NE(all.find("--request-rate 8"), std::string::npos) << all;

    // error_summary counts the failures when error_request_count is absent.
    Json noCount = raw;
    noCount.erase("error_request_count");
    const auto fromSummary = parseAiPerfText(noCount.dump(), "rate.json");
    ASSERT_TRUE(fromSummary.ok()) << fromSummary.error().message;
    EXPECT_EQ(fromSummary->failed, raw.at("error_summary").at(0).at("count").get<long long>());
}

TEST(ServingAiPerfReader, GenAiPerfExport) {
    const std::string text = aiperfTestRead(aiperfData("genai_perf_profile_export_genai_perf.json"));
    const Json raw = Json::parse(text);
    const auto run = parseAiPerfText(text, "profile_export_genai_perf.json");
    ASSERT_TRUE(run.ok()) << run.error().message;
    const Json& config = raw.at("input_config");
    EXPECT_EQ(run->tool, ServingTool::GenAiPerf);
    EXPECT_EQ(run->model, config.at("model").at(0).get<std::string>());
    EXPECT_EQ(run->load.axis, LoadAxis::Concurrency);
    EXPECT_EQ(run->load.value, config.at("concurrency").get<double>());
    expectMetric(run->ttft, raw.at("time_to_first_token"), 1.0, "ttft");
    expectMetric(run->tpot, raw.at("inter_token_latency"), 1.0, "tpot = inter_token_latency");
    expectMetric(run->e2el, raw.at("request_latency"), 1.0, "e2el");
    EXPECT_TRUE(run->itl.empty()) << "GenAI-Perf writes no chunk gaps";
    EXPECT_DOUBLE_EQ(*run->outputTokensPerS, raw.at("output_token_throughput").at("avg").get<double>());
    EXPECT_DOUBLE_EQ(*run->requestsPerS, raw.at("request_throughput").at("avg").get<double>());
    // No request_count metric: the requests asked for are assumed, and said so.
    EXPECT_EQ(run->completed, config.at("request_count").get<long long>());
    ASSERT_FALSE(run->warnings.empty());
    EXPECT_NE(run->warnings.front().find("asked for are assumed"), std::string::npos) << run->warnings.front();
    EXPECT_NE(run->dataset.find("550"), std::string::npos) << run->dataset;
}

TEST(ServingAiPerfReader, EveryRequestFailedClearsLatencies) {
    Json raw = Json::parse(aiperfTestRead(aiperfData("aiperf_rate_errors_profile_export_aiperf.json")));
    raw["request_count"]["avg"] = 0;
    raw["error_request_count"]["avg"] = 480;
    const auto run = parseAiPerfText(raw.dump(), "failed.json");
    ASSERT_TRUE(run.ok()) << run.error().message;
    EXPECT_TRUE(run->allFailed());
    EXPECT_EQ(run->failed, 480);
    for (const auto m : {ServingMetric::Ttft, ServingMetric::Tpot, ServingMetric::Itl, ServingMetric::E2el})
        EXPECT_TRUE(run->metric(m).empty()) << servingMetricKey(m);
    EXPECT_FALSE(run->outputTokensPerS.has_value());
    EXPECT_FALSE(run->goodputRequestsPerS.has_value());
}

TEST(ServingAiPerfReader, UnknownUnitsAndWrongTypesAreErrorsNamingTheField) {
    const Json raw = Json::parse(aiperfTestRead(aiperfData("aiperf_rate_errors_profile_export_aiperf.json")));
    Json bad = raw;
    bad["time_to_first_token"]["unit"] = "fortnights";
    auto run = parseAiPerfText(bad.dump(), "units.json");
    ASSERT_FALSE(run.ok());
    EXPECT_NE(run.error().message.find("units.json: time_to_first_token.unit"), std::string::npos)
        << run.error().message;
    bad = raw;
    bad["output_token_throughput"]["unit"] = "tokens";
    run = parseAiPerfText(bad.dump(), "units.json");
    ASSERT_FALSE(run.ok());
    EXPECT_NE(run.error().message.find("output_token_throughput.unit"), std::string::npos) << run.error().message;
    bad = raw;
    bad["inter_token_latency"]["p99"] = "fast";
    run = parseAiPerfText(bad.dump(), "types.json");
    ASSERT_FALSE(run.ok());
    EXPECT_NE(run.error().message.find("inter_token_latency.p99"), std::string::npos) << run.error().message;
    for (const char* text : {"[]", "{\"benchmarks\": []}", "{", "{\"request_latency\": 3}"}) {
        run = parseAiPerfText(text, "other.json");
        ASSERT_FALSE(run.ok()) << text;
        EXPECT_NE(run.error().message.find("other.json"), std::string::npos) << run.error().message;
    }
}

TEST(ServingAiPerfReader, ServerScrapeGivesQuantizationAndGpuCountWhenPresent) {
    const std::string text = aiperfTestRead(aiperfData("aiperf_rate_errors_profile_export_aiperf.json"));
    const std::string csv =
        "# AIPerf Server Metrics Export (CSV)\n"
        "Endpoint,Type,Metric,Unit,avg\n"
        "gpu-box:8000,gauge,vllm:num_requests_running,requests,3.0\n"
        "\n"
        "Endpoint,Metric,Key,Value,Description\n"
        "gpu-box:8000,vllm:cache_config_info,cache_dtype,fp8_e4m3,\"Information of the CacheConfig, quoted\"\n"
        "gpu-box:8000,vllm:model_config_info,quantization,fp8,Model config\n"
        "gpu-box:8000,vllm:parallel_config_info,tensor_parallel_size,4,Parallel config\n"
        "gpu-box:8000,vllm:parallel_config_info,pipeline_parallel_size,2,Parallel config\n";
    const auto run = parseAiPerfText(text, "rate.json", csv);
    ASSERT_TRUE(run.ok()) << run.error().message;
    EXPECT_EQ(run->kvCacheDtype, "fp8_e4m3");
    EXPECT_EQ(run->quantization, "fp8");
    EXPECT_EQ(run->gpuCount, 8);
    EXPECT_NE(run->servedEvidence.find("vllm:model_config_info quantization=fp8"), std::string::npos)
        << run->servedEvidence;
}

}  // namespace
}  // namespace fp8dash
