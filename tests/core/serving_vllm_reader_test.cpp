// The vLLM bench reader (parseVllmBenchText), the dispatch (parseServingText) and the path reader (readServingPath),
// on the real InferenceX files (shared fixtures, read in place) and on files written in the published shape of each
// era (tests/data/serving/vllm, SOURCES.md there). Expected values come from the files' raw numbers read here with
// nlohmann, or from hand computation, never from the reader.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "fp8dash/core/serving_results.h"
#include "test_paths.h"

namespace fp8dash {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

std::string slurpText(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

fs::path vllmData() {
    return test::testData() / "serving" / "vllm";
}

fs::path inferenceXDir() {
    return test::sharedFixtures() / "serving" / "vllm-bench-serve";
}

fs::path inferenceXFile(int concurrency) {
    return inferenceXDir() / ("inferencex_gpt-oss-120b_concurrency_" + std::to_string(concurrency) +
                              "_req_rate_inf_gpus_16_ctx_8_gen_8.json");
}

#define REQUIRE_INFERENCEX()                                                                     \
    if (!fs::exists(inferenceXDir()))                                                            \
    GTEST_SKIP() << "shared fixtures not found under " << test::sharedFixtures() << " (serving/" \
                 << "vllm-bench-serve); conformance test skipped"

// The figures of one metric as the file writes them: mean/median/std and every pN key, ascending.
void expectMetric(const json& j, const std::string& m, const LatencyStats& got) {
    SCOPED_TRACE(m);
    ASSERT_TRUE(got.mean && got.median && got.stdDev);
    EXPECT_DOUBLE_EQ(*got.mean, j.at("mean_" + m + "_ms").get<double>());
    EXPECT_DOUBLE_EQ(*got.median, j.at("median_" + m + "_ms").get<double>());
    EXPECT_DOUBLE_EQ(*got.stdDev, j.at("std_" + m + "_ms").get<double>());
    std::vector<std::pair<double, double>> want;
    const std::string tail = "_" + m + "_ms";
    for (const auto& [k, v] : j.items()) {
        if (k.size() > tail.size() + 1 && k[0] == 'p' && k.compare(k.size() - tail.size(), tail.size(), tail) == 0)
            want.emplace_back(std::stod(k.substr(1, k.size() - tail.size() - 1)), v.get<double>());
    }
    std::sort(want.begin(), want.end());
    ASSERT_FALSE(want.empty());
    EXPECT_EQ(got.percentiles, want);
}

TEST(ServingVllmReader, InferenceXFilesFieldByField) {
    REQUIRE_INFERENCEX();
    for (int c : {4, 8, 16, 32, 64, 128, 256, 512}) {
        SCOPED_TRACE(c);
        const fs::path file = inferenceXFile(c);
        const json j = json::parse(slurpText(file));
        auto runs = readServingPath(file);
        ASSERT_TRUE(runs.ok()) << runs.error().message;
        ASSERT_EQ(runs->size(), 1u);
        const ServingRun& r = runs->front();
        EXPECT_EQ(r.source, file.string());
        EXPECT_EQ(r.tool, ServingTool::VllmBench);
        EXPECT_EQ(r.formatLabel, "benchmark_serving.py");  // best_of and "request_goodput:"
        EXPECT_EQ(r.model, j.at("model_id").get<std::string>());
        EXPECT_EQ(r.date, j.at("date").get<std::string>());
        EXPECT_EQ(r.load.axis, LoadAxis::Concurrency);
        EXPECT_EQ(r.load.value, j.at("max_concurrency").get<double>());
        EXPECT_FALSE(r.load.concurrencyCap);
        EXPECT_EQ(r.completed, j.at("completed").get<long long>());
        EXPECT_EQ(r.failed, 0);
        EXPECT_EQ(r.numPrompts, j.at("num_prompts").get<long long>());
        EXPECT_DOUBLE_EQ(*r.durationS, j.at("duration").get<double>());
        EXPECT_DOUBLE_EQ(*r.outputTokensPerS, j.at("output_throughput").get<double>());
        EXPECT_DOUBLE_EQ(*r.totalTokensPerS, j.at("total_token_throughput").get<double>());
        EXPECT_DOUBLE_EQ(*r.requestsPerS, j.at("request_throughput").get<double>());
        EXPECT_TRUE(j.at("request_goodput:").is_null());
        EXPECT_FALSE(r.goodputRequestsPerS);
        EXPECT_DOUBLE_EQ(*r.meanInputTokens,
                         j.at("total_input_tokens").get<double>() / j.at("completed").get<double>());
        EXPECT_DOUBLE_EQ(*r.meanOutputTokens,
                         j.at("total_output_tokens").get<double>() / j.at("completed").get<double>());
        const std::pair<const char*, ServingMetric> metrics[] = {{"ttft", ServingMetric::Ttft},
                                                                 {"tpot", ServingMetric::Tpot},
                                                                 {"itl", ServingMetric::Itl},
                                                                 {"e2el", ServingMetric::E2el}};
        for (const auto& [name, m] : metrics) expectMetric(j, name, r.metric(m));
        EXPECT_TRUE(r.requests.empty());
        EXPECT_TRUE(r.metadata.empty());  // every key of these files is a result key
        EXPECT_TRUE(r.warnings.empty());
    }
}

TEST(ServingVllmReader, InferenceXKnownFactsAndFolderOrder) {
    REQUIRE_INFERENCEX();
    auto runs = readServingPath(inferenceXDir());
    ASSERT_TRUE(runs.ok()) << runs.error().message;
    ASSERT_EQ(runs->size(), 8u);
    std::vector<double> loads;
    for (const ServingRun& r : *runs) loads.push_back(r.load.value);
    EXPECT_EQ(loads, (std::vector<double>{4, 8, 16, 32, 64, 128, 256, 512}));
    // notes/serving-benchmarks-2026.md: p99 TTFT 1,553.9 ms at concurrency 32 and 685.5 ms at 64 (not monotonic).
    EXPECT_EQ(*(*runs)[3].ttft.percentile(99), 1553.907009542454);
    EXPECT_NEAR(*(*runs)[4].ttft.percentile(99), 685.5, 0.05);
    EXPECT_GT(*(*runs)[3].ttft.percentile(99), *(*runs)[4].ttft.percentile(99));
}

TEST(ServingVllmReader, Era2024RateDrivenWithInputThroughputAndArrays) {
    const fs::path file = vllmData() / "benchmark_serving_2024-07_rate4.json";
    const std::string text = slurpText(file);
    const json j = json::parse(text);
    auto runs = parseVllmBenchText(text, "a.json");
    ASSERT_TRUE(runs.ok()) << runs.error().message;
    ASSERT_EQ(runs->size(), 1u);
    const ServingRun& r = runs->front();
    EXPECT_EQ(r.source, "a.json");
    EXPECT_EQ(r.formatLabel, "benchmark_serving.py");
    EXPECT_EQ(r.load, (ServingLoad{LoadAxis::RequestRate, 4.0, std::nullopt}));
    // 2024's input_throughput is input tokens/s: the total is it plus the output tokens/s.
    EXPECT_DOUBLE_EQ(*r.totalTokensPerS,
                     j.at("input_throughput").get<double>() + j.at("output_throughput").get<double>());
    EXPECT_EQ(r.completed, 4);
    EXPECT_EQ(r.failed, 1);  // no "failed" key in 2024: counted from "errors"
    // By hand from the arrays (s): successful requests 0, 1, 3, 4 (request 2 failed: error text, ttft 0, no tokens).
    ASSERT_EQ(r.requests.size(), 4u);
    EXPECT_EQ(r.requests.outputTokens, (std::vector<std::uint32_t>{4, 3, 1, 5}));
    EXPECT_FLOAT_EQ(r.requests.ttftMs[0], 120.0f);
    EXPECT_FLOAT_EQ(r.requests.e2elMs[0], 120.0f + 11 + 12 + 13);     // ttft + sum(itls)
    EXPECT_FLOAT_EQ(r.requests.tpotMs[0], (11.0f + 12 + 13) / 3.0f);  // (e2el - ttft) / (4 - 1)
    EXPECT_FLOAT_EQ(r.requests.e2elMs[1], 150.0f + 20 + 10);
    EXPECT_FLOAT_EQ(r.requests.tpotMs[1], 15.0f);
    EXPECT_FLOAT_EQ(r.requests.e2elMs[2], 200.0f);
    EXPECT_TRUE(std::isnan(r.requests.tpotMs[2]));  // one output token: no TPOT
    EXPECT_FLOAT_EQ(r.requests.tpotMs[3], (10.0f + 10 + 11 + 12) / 4.0f);
    EXPECT_DOUBLE_EQ(*r.meanOutputTokens, (4 + 3 + 1 + 5) / 4.0);
    EXPECT_DOUBLE_EQ(*r.meanInputTokens, (512 + 480 + 530 + 520) / 4.0);
    EXPECT_EQ(r.ttft.percentiles.size(), 1u);
    EXPECT_EQ(r.ttft.percentiles[0].first, 99);
    EXPECT_TRUE(r.e2el.empty());  // e2el was not asked for in 2024's default
}

TEST(ServingVllmReader, GoodputKeyWithColonAndMetadataKvDtype) {
    const fs::path file = vllmData() / "benchmark_serving_2024-11_goodput-colon.json";
    const json j = json::parse(slurpText(file));
    ASSERT_TRUE(j.contains("request_goodput:"));
    auto runs = parseVllmBenchText(slurpText(file), "b.json");
    ASSERT_TRUE(runs.ok()) << runs.error().message;
    const ServingRun& r = runs->front();
    EXPECT_EQ(r.load, (ServingLoad{LoadAxis::Concurrency, 16, std::nullopt}));
    EXPECT_FALSE(r.goodputRequestsPerS);
    EXPECT_EQ(r.kvCacheDtype, "fp8");
    EXPECT_EQ(r.servedEvidence, "--metadata kv_cache_dtype=fp8");
    EXPECT_EQ(r.metadata, (std::vector<std::pair<std::string, std::string>>{{"kv_cache_dtype", "fp8"}}));
    EXPECT_EQ(r.ttft.percentiles.size(), 2u);
    EXPECT_LT(r.ttft.percentiles[0].first, r.ttft.percentiles[1].first);
    expectMetric(j, "e2el", r.e2el);
}

TEST(ServingVllmReader, Era2026DetailedLabelMetadataPercentilesNoSecrets) {
    const fs::path file = vllmData() / "vllm_bench_serve_2026-03_detailed.json";
    const json j = json::parse(slurpText(file));
    auto runs = parseVllmBenchText(slurpText(file), "c.json");
    ASSERT_TRUE(runs.ok()) << runs.error().message;
    const ServingRun& r = runs->front();
    EXPECT_EQ(r.formatLabel, "vllm bench serve");
    EXPECT_EQ(r.label, "fp8-kv");
    EXPECT_EQ(r.completed, j.at("completed").get<long long>());
    EXPECT_EQ(r.failed, j.at("failed").get<long long>());
    EXPECT_EQ(r.dataset, "random");
    EXPECT_EQ(r.quantization, "fp8");
    EXPECT_EQ(r.kvCacheDtype, "fp8");
    EXPECT_DOUBLE_EQ(*r.goodputRequestsPerS, 1.0);
    for (const auto& [k, v] : r.metadata) {
        EXPECT_NE(k, "api_key");
        EXPECT_NE(k, "hf_token");
        EXPECT_EQ(v.find("sk-"), std::string::npos);
    }
    EXPECT_EQ(r.metadata.size(), 4u);  // variant, quantization, kv_cache_dtype, dataset_name
    EXPECT_EQ(r.metadata[0], (std::pair<std::string, std::string>{"variant", "W8A8 + FP8 KV"}));
    std::vector<double> ps;
    for (const auto& [p, v] : r.ttft.percentiles) ps.push_back(p);
    EXPECT_EQ(ps, (std::vector<double>{50, 90, 99, 99.9}));
    expectMetric(j, "ttft", r.ttft);
    expectMetric(j, "e2el", r.e2el);
    // Per request, from the raw arrays: e2el is vLLM's own latency where saved; failed requests are left out.
    const auto& lat = j.at("latencies");
    const auto& ttfts = j.at("ttfts");
    const auto& outs = j.at("output_lens");
    const auto& errs = j.at("errors");
    std::size_t k = 0;
    for (std::size_t i = 0; i < ttfts.size(); ++i) {
        if (!errs[i].get<std::string>().empty()) continue;
        ASSERT_LT(k, r.requests.size());
        const double e2el = lat[i].get<double>() * 1000, ttft = ttfts[i].get<double>() * 1000;
        EXPECT_FLOAT_EQ(r.requests.e2elMs[k], static_cast<float>(e2el));
        EXPECT_FLOAT_EQ(r.requests.ttftMs[k], static_cast<float>(ttft));
        const int n = outs[i].get<int>();
        if (n > 1)
            EXPECT_FLOAT_EQ(r.requests.tpotMs[k], static_cast<float>((e2el - ttft) / (n - 1)));
        else
            EXPECT_TRUE(std::isnan(r.requests.tpotMs[k]));
        ++k;
    }
    EXPECT_EQ(k, r.requests.size());
    // By hand: request 0 took 0.120 + 0.036 + 0.001 s; (157 - 120) / 3 ms per token after the first.
    EXPECT_FLOAT_EQ(r.requests.e2elMs[0], 157.0f);
    EXPECT_NEAR(r.requests.tpotMs[0], 37.0 / 3.0, 1e-4);
}

TEST(ServingVllmReader, ChunkGapsInEverySpelling) {
    // json.dump(indent=4) layout, an exponent (Python writes 1e-05), more digits than a 64-bit mantissa holds, an
    // empty gap list (a one-token answer): sums by hand.
    const std::string text = R"({"completed": 3, "request_throughput": 1.0,
    "ttfts": [0.5, 0.25, 0.125], "output_lens": [3, 2, 1], "errors": ["", "", null],
    "itls": [
        [
            1e-05,
            0.25
        ],
        [0.1234567890123456789012],
        []
    ]})";
    auto runs = parseVllmBenchText(text, "s.json");
    ASSERT_TRUE(runs.ok()) << runs.error().message;
    const ServingRequests& r = runs->front().requests;
    ASSERT_EQ(r.size(), 3u);
    EXPECT_FLOAT_EQ(r.e2elMs[0], 500.0f + 0.01f + 250.0f);
    EXPECT_FLOAT_EQ(r.tpotMs[0], (0.01f + 250.0f) / 2.0f);
    EXPECT_FLOAT_EQ(r.e2elMs[1], 250.0f + 123.4567890123456789f);
    EXPECT_FLOAT_EQ(r.tpotMs[1], 123.4567890123456789f);
    EXPECT_FLOAT_EQ(r.e2elMs[2], 125.0f);
    EXPECT_TRUE(std::isnan(r.tpotMs[2]));
    // Python's repr of a gap, 17-19 significant digits, read to the float it ends in.
    auto gaps = parseVllmBenchText(
        R"({"completed": 1, "ttfts": [0.0], "output_lens": [4], "itls": [[0.010471028359276345, 0.0099877310260385275, 0.01]]})",
        "r.json");
    ASSERT_TRUE(gaps.ok()) << gaps.error().message;
    EXPECT_FLOAT_EQ(gaps->front().requests.e2elMs[0],
                    static_cast<float>((0.010471028359276345 + 0.0099877310260385275 + 0.01) * 1000));
}

// Big files have their chunk gaps read before simdjson indexes the text (vllm_bench_reader.cpp): two appended
// results of 600 requests each (~250 KB), a key named like the list inside a string, sums computed here.
TEST(ServingVllmReader, BigDetailedResultsAppendedReadAlike) {
    std::string text;
    std::vector<std::vector<double>> want(2);
    for (int object = 0; object < 2; ++object) {
        std::string ttfts, outs, itls;
        for (int i = 0; i < 600; ++i) {
            const double ttft = 0.1 + 0.001 * i;
            double sum = 0;
            std::string gaps;
            for (int k = 0; k < 20; ++k) {
                const double g = 0.010471028359276345 + 1e-7 * (k + i + object);
                char buf[40];
                std::snprintf(buf, sizeof buf, "%.17g", g);
                gaps += (k ? ", " : "") + std::string(buf);
                sum += std::strtod(buf, nullptr);
            }
            want[object].push_back((ttft + sum) * 1000);
            ttfts += (i ? ", " : "") + std::to_string(ttft);
            outs += (i ? ", " : "") + std::string("21");
            itls += (i ? ", [" : "[") + gaps + "]";
        }
        text += std::string(object ? "\n" : "") + R"({"label": "a \"itls\": [1] in a string", "completed": 600, )" +
                R"("request_throughput": 1.0, "max_concurrency": 8, "ttfts": [)" + ttfts + R"(], "output_lens": [)" +
                outs + R"(], "itls": [)" + itls + "]}";
    }
    ASSERT_GT(text.size(), 200000u);
    auto runs = parseVllmBenchText(text, "big.json");
    ASSERT_TRUE(runs.ok()) << runs.error().message;
    ASSERT_EQ(runs->size(), 2u);
    for (int object = 0; object < 2; ++object) {
        const ServingRequests& r = (*runs)[object].requests;
        ASSERT_EQ(r.size(), 600u);
        for (std::size_t i = 0; i < 600; i += 97) {
            EXPECT_FLOAT_EQ(r.e2elMs[i], static_cast<float>(want[object][i]));
            EXPECT_FLOAT_EQ(r.tpotMs[i], static_cast<float>((want[object][i] - (0.1 + 0.001 * i) * 1000) / 20));
        }
    }
    EXPECT_EQ((*runs)[0].label, "a \"itls\": [1] in a string");
    // A broken gap deep in a big file is still named.
    std::string broken = text.substr(0, text.find('\n'));
    broken.replace(broken.rfind("0.0104"), 6, "\"x\"104");
    auto bad = parseVllmBenchText(broken, "big.json");
    ASSERT_FALSE(bad.ok());
    // The last gap spelled 0.0104... is in request 289 (the gaps grow by 1e-7 with the request).
    EXPECT_EQ(bad.error().message, "big.json: itls[289] is not a list of numbers (chunk gaps in seconds)");
}

TEST(ServingVllmReader, AppendResultFileIsOneRunPerObject) {
    const fs::path file = vllmData() / "vllm_bench_serve_append-result.json";
    const std::string text = slurpText(file);
    std::vector<json> objects;
    std::istringstream lines(text);
    for (std::string line; std::getline(lines, line);)
        if (!line.empty()) objects.push_back(json::parse(line));
    ASSERT_EQ(objects.size(), 3u);
    auto runs = parseVllmBenchText(text, "d.json");
    ASSERT_TRUE(runs.ok()) << runs.error().message;
    ASSERT_EQ(runs->size(), 3u);
    for (std::size_t i = 0; i < 3; ++i) {
        EXPECT_EQ((*runs)[i].source, "d.json#" + std::to_string(i + 1));
        EXPECT_EQ(*(*runs)[i].ttft.percentile(99), objects[i].at("p99_ttft_ms").get<double>());
    }
    EXPECT_EQ((*runs)[0].load, (ServingLoad{LoadAxis::Concurrency, 4, std::nullopt}));
    EXPECT_EQ((*runs)[1].load, (ServingLoad{LoadAxis::Concurrency, 8, std::nullopt}));
    EXPECT_EQ((*runs)[2].load, (ServingLoad{LoadAxis::RequestRate, 2.5, std::nullopt}));
}

TEST(ServingVllmReader, RateWithConcurrencyCapAndUnbounded) {
    auto capped = parseVllmBenchText(
        R"({"request_rate": 10.0, "max_concurrency": 32, "completed": 5, "request_throughput": 1.0})", "e.json");
    ASSERT_TRUE(capped.ok()) << capped.error().message;
    EXPECT_EQ(capped->front().load, (ServingLoad{LoadAxis::RequestRate, 10.0, 32.0}));
    auto unbounded = parseVllmBenchText(
        R"({"request_rate": "inf", "max_concurrency": null, "completed": 5, "request_throughput": 1.0,
            "std_ttft_ms": NaN})",
        "f.json");
    ASSERT_TRUE(unbounded.ok()) << unbounded.error().message;
    EXPECT_EQ(unbounded->front().load.axis, LoadAxis::Unbounded);
    EXPECT_TRUE(std::isnan(*unbounded->front().ttft.stdDev));  // Python's bare NaN token
}

TEST(ServingVllmReader, SweepTreeRunFilesOverSummary) {
    const fs::path root = vllmData() / "sweep";
    auto runs = readServingPath(root);
    ASSERT_TRUE(runs.ok()) << runs.error().message;
    // fp8: run=0..2 (its summary.json is not read again); auto: only a summary.json with 2 records.
    ASSERT_EQ(runs->size(), 5u);
    int fp8 = 0, autoKv = 0;
    for (const ServingRun& r : *runs) {
        EXPECT_EQ(r.formatLabel, "vllm bench sweep serve run");
        EXPECT_EQ(r.load, (ServingLoad{LoadAxis::Concurrency, 16, std::nullopt}));
        ASSERT_TRUE(r.runNumber);
        EXPECT_EQ(r.servedEvidence, "sweep parameter kv_cache_dtype=" + r.kvCacheDtype);
        const json j = r.kvCacheDtype == "fp8"
                           ? json::parse(slurpText(fs::path(r.source)))
                           : json::parse(slurpText(fs::path(r.source.substr(0, r.source.find('#')))))[*r.runNumber];
        EXPECT_EQ(*r.ttft.percentile(99), j.at("p99_ttft_ms").get<double>());
        EXPECT_EQ(*r.runNumber, j.at("run_number").get<int>());
        if (r.kvCacheDtype == "fp8") {
            ++fp8;
            EXPECT_NE(r.source.find("run="), std::string::npos);
            EXPECT_EQ(r.sweepCombination, "SERVE--kv_cache_dtype-fp8-BENCH--max_concurrency-16");
        } else {
            ++autoKv;
            EXPECT_NE(r.source.find("summary.json#"), std::string::npos);
        }
    }
    EXPECT_EQ(fp8, 3);
    EXPECT_EQ(autoKv, 2);
    for (std::size_t i = 1; i < runs->size(); ++i) EXPECT_LE(*(*runs)[i - 1].runNumber, *(*runs)[i].runNumber);
}

TEST(ServingVllmReader, AllFailedRunHasNoLatenciesAndThePathIsRefused) {
    const fs::path file = vllmData() / "vllm_bench_serve_0.25.1_all-failed.json";
    const json j = json::parse(slurpText(file));
    ASSERT_EQ(j.at("mean_ttft_ms").get<double>(), 0.0);  // what vLLM writes
    auto runs = parseVllmBenchText(slurpText(file), "g.json");
    ASSERT_TRUE(runs.ok()) << runs.error().message;
    const ServingRun& r = runs->front();
    EXPECT_TRUE(r.allFailed());
    EXPECT_EQ(r.failed, 100);
    for (ServingMetric m : {ServingMetric::Ttft, ServingMetric::Tpot, ServingMetric::Itl, ServingMetric::E2el})
        EXPECT_TRUE(r.metric(m).empty());
    auto refused = readServingPath(file);
    ASSERT_FALSE(refused.ok());
    EXPECT_EQ(refused.error().message, file.string() + ": every request failed (completed 0, failed 100)");
}

TEST(ServingVllmReader, ErrorsNameTheFileAndTheField) {
    auto s = parseVllmBenchText(R"({"completed": "12", "request_throughput": 1.0})", "x.json");
    ASSERT_FALSE(s.ok());
    EXPECT_EQ(s.error().message, "x.json: \"completed\" is a string, expected a number");
    auto itl = parseVllmBenchText(
        R"({"completed": 1, "request_throughput": 1.0, "ttfts": [0.1], "output_lens": [3], "itls": [[0.01, "a"]]})",
        "y.json");
    ASSERT_FALSE(itl.ok());
    EXPECT_NE(itl.error().message.find("y.json: itls"), std::string::npos) << itl.error().message;
    auto second = parseVllmBenchText("{\"completed\": 1}\n{\"completed\": false}", "z.json");
    ASSERT_FALSE(second.ok());
    EXPECT_EQ(second.error().message, "z.json#2: \"completed\" is a boolean, expected a number");
    auto cut = parseVllmBenchText(R"({"completed": 1, "request_throughput": 1.0, "mean_tt)", "w.json");
    ASSERT_FALSE(cut.ok());
    EXPECT_EQ(cut.error().message.rfind("w.json: ", 0), 0u) << cut.error().message;
    auto noResult = parseVllmBenchText(R"({"model": "x"})", "v.json");
    ASSERT_FALSE(noResult.ok());
    EXPECT_NE(noResult.error().message.find("\"completed\""), std::string::npos);
    auto other = parseServingText(R"({"hello": 1})", "u.json");
    ASSERT_FALSE(other.ok());
    EXPECT_EQ(other.error().message.rfind("u.json: not a serving benchmark result", 0), 0u);
}

TEST(ServingVllmReader, DispatchRecognisesVllmByContent) {
    const std::string text = slurpText(vllmData() / "vllm_bench_serve_append-result.json");
    auto runs = parseServingText(text, "t.json");
    ASSERT_TRUE(runs.ok()) << runs.error().message;
    EXPECT_EQ(runs->size(), 3u);
    EXPECT_EQ(runs->front().tool, ServingTool::VllmBench);
}

TEST(ServingVllmReader, FoldersRefusedWithoutResultsAndSkipNonResults) {
    test::TempDir dir;
    dir.write("notes.txt", "hello");
    dir.write("summary.csv", "a,b\n");
    dir.write("other.json", R"({"hello": 1})");
    auto none = readServingPath(dir.path());
    ASSERT_FALSE(none.ok());
    EXPECT_EQ(none.error().message.rfind(dir.path().string() + ": no serving benchmark results", 0), 0u);
    auto missing = readServingPath(dir.path() / "nope.json");
    ASSERT_FALSE(missing.ok());
    EXPECT_NE(missing.error().message.find("nope.json"), std::string::npos);
    auto alone = readServingPath(dir.path() / "other.json");  // a file given by name must be a result
    ASSERT_FALSE(alone.ok());
    dir.write("a/r.json",
              R"({"completed": 2, "request_throughput": 1.0, "max_concurrency": 4, "request_rate": "inf"})");
    dir.write("a/r.pytorch.json", "[]");
    auto one = readServingPath(dir.path());
    ASSERT_TRUE(one.ok()) << one.error().message;
    EXPECT_EQ(one->size(), 1u);
}

TEST(ServingVllmReader, ServerCommandBesideResultsGivesDtypeAndGpus) {
    test::TempDir dir;
    dir.write("run/result.json", R"({"completed": 2, "request_throughput": 1.0, "max_concurrency": 4})");
    dir.write("vllm_command.txt",
              "vllm serve Qwen/Qwen3-8B-FP8 --kv-cache-dtype=fp8 -tp 2 --quantization fp8 --mm-encoder-tp-mode data\n");
    auto runs = readServingPath(dir.path());
    ASSERT_TRUE(runs.ok()) << runs.error().message;
    const ServingRun& r = runs->front();
    EXPECT_EQ(r.kvCacheDtype, "fp8");
    EXPECT_EQ(r.quantization, "fp8");
    EXPECT_EQ(r.gpuCount, 2);
    EXPECT_EQ(r.servedEvidence, "server command in vllm_command.txt");
}

TEST(ServingVllmReader, InferenceXServerCommandGivesGpuCount) {
    const fs::path command =
        test::sharedFixtures() / "serving" / "aiperf" / "inferencex_kimik2.7_mxfp4_conc1_vllm_command.txt";
    if (!fs::exists(command)) GTEST_SKIP() << "shared fixture " << command << " not found";
    const std::string text = slurpText(command);
    ASSERT_NE(text.find("--tensor-parallel-size=4"), std::string::npos);
    ASSERT_EQ(text.find("--kv-cache-dtype"), std::string::npos);
    test::TempDir dir;
    dir.write("results/result.json", R"({"completed": 2, "request_throughput": 1.0, "max_concurrency": 1})");
    dir.write("results/inferencex_vllm_command.txt", text);
    auto runs = readServingPath(dir.path());
    ASSERT_TRUE(runs.ok()) << runs.error().message;
    EXPECT_EQ(runs->front().gpuCount, 4);
    EXPECT_EQ(runs->front().kvCacheDtype, "");  // the command does not say: nothing is made up
    EXPECT_EQ(runs->front().servedEvidence, "");
}

TEST(ServingVllmReader, ProgressCancelAndPreview) {
    std::vector<double> seen;
    ServingReadOptions options;
    options.progress = [&](double p) { seen.push_back(p); };
    options.keepRequests = false;
    auto runs = readServingPath(vllmData(), options);
    ASSERT_TRUE(runs.ok()) << runs.error().message;
    ASSERT_GE(seen.size(), 2u);
    EXPECT_EQ(seen.front(), 0.0);
    EXPECT_EQ(seen.back(), 1.0);
    EXPECT_TRUE(std::is_sorted(seen.begin(), seen.end()));
    for (const ServingRun& r : *runs) EXPECT_TRUE(r.requests.empty());
    // The all-failed file sits in this folder too: a folder with some good runs keeps it (completed 0, no latency).
    EXPECT_TRUE(std::any_of(runs->begin(), runs->end(), [](const ServingRun& r) { return r.allFailed(); }));
    ServingReadOptions cancel;
    cancel.cancelled = [] { return true; };
    auto stopped = readServingPath(vllmData(), cancel);
    ASSERT_FALSE(stopped.ok());
    EXPECT_EQ(stopped.error().message, "cancelled");
}

}  // namespace
}  // namespace fp8dash
