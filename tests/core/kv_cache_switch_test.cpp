// The switch found in vllm:cache_config_info as the timeline's change time: each engine's switch named by the model
// its vllm:generation_tokens_total series carries, a rolling update's first and last switch, switches of two models
// (no change time; each model named), a given time that wins, and the file. The series are the V1 fixture's label
// sets (tests/data/vllm/metrics-v1-sample.txt) with times chosen here; every expected time follows from them.
#include <gtest/gtest.h>

#include <ctime>
#include <fstream>

#include "fp8dash/core/comparison_file.h"
#include "fp8dash/core/json_text.h"
#include "fp8dash/core/timeline.h"
#include "fp8dash/core/vllm_metrics.h"
#include "test_paths.h"
#include "vllm_fixture.h"

namespace fp8dash {
namespace {

constexpr double kSwitchT0 = 1'764'000'000;  // 2025-11-24 16:00:00 UTC
const char* const kSwitchLlama = "meta-llama/Llama-3.1-70B-Instruct";
const char* const kSwitchQwen = "Qwen/Qwen3-8B";

// The fixture's cache_config_info label sets (engine 0 and 1), as written.
std::vector<Labels> switchFixtureLabels() {
    auto dump = test::readExposition((test::testData() / "vllm" / "metrics-v1-sample.txt").string());
    std::vector<Labels> out;
    if (!dump) return out;
    for (const auto& s : *dump)
        if (s.name == "vllm:cache_config_info") out.emplace_back(s.labels.begin(), s.labels.end());
    return out;
}

// One cache_config_info series of `dtype`, a sample a minute in [from, to].
Series switchInfoSeries(Labels labels, const std::string& dtype, double from, double to) {
    labels["cache_dtype"] = dtype;
    Series s;
    s.labels = std::move(labels);
    for (double t = from; t <= to; t += 60) s.samples.push_back({t, 1.0});
    return s;
}

// The engine's auto series up to a minute before `switchAt`, then its FP8 one.
void addEngine(std::vector<Series>& out, Labels labels, double switchAt, const std::string& to = "fp8") {
    out.push_back(switchInfoSeries(labels, "auto", kSwitchT0 - 3600, switchAt - 60));
    out.push_back(switchInfoSeries(labels, to, switchAt, kSwitchT0 + 7200));
}

// kEngineModelQuery's answer: one series per engine with its model.
Series modelOf(const std::string& job, const std::string& engine, const std::string& model) {
    Series s;
    s.labels = {{"job", job}, {"engine", engine}, {"model_name", model}};
    s.samples = {{kSwitchT0, 1}};
    return s;
}

// The test's own clock text (strftime), so that formatTimeUtc is not its own oracle.
std::string utc(double t, const char* format) {
    const std::time_t tt = static_cast<std::time_t>(t);
    std::tm tm{};
    gmtime_r(&tt, &tm);
    char buf[64];
    std::strftime(buf, sizeof buf, format, &tm);
    return buf;
}

class KvSwitchAsChange : public ::testing::Test {
protected:
    void SetUp() override {
        const auto fixture = switchFixtureLabels();
        ASSERT_EQ(fixture.size(), 2u) << "tests/data/vllm/metrics-v1-sample.txt";
        engine0 = fixture[0], engine1 = fixture[1];
        engine0["job"] = engine1["job"] = "vllm-llama";
        engine2 = engine0;
        engine2["engine"] = "2";
    }
    // A rolling update of llama: engine 0 at T0, engine 1 five minutes later, engine 2 fifteen.
    std::vector<Series> rollingUpdate(const std::string& to = "fp8_e4m3") const {
        std::vector<Series> out;
        addEngine(out, engine0, kSwitchT0, to);
        addEngine(out, engine1, kSwitchT0 + 300, to);
        addEngine(out, engine2, kSwitchT0 + 900, to);
        return out;
    }
    std::vector<Series> llamaModels() const {
        return {modelOf("vllm-llama", "0", kSwitchLlama), modelOf("vllm-llama", "1", kSwitchLlama),
                modelOf("vllm-llama", "2", kSwitchLlama)};
    }
    // Throughput 1000 tok/s before T0, 1500 after, a sample a minute over [T0 - 1 h, T0 + 2 h].
    static TimelineData throughputData() {
        TimelineData d;
        d.settings.from = kSwitchT0 - 3600;
        d.settings.to = kSwitchT0 + 7200;
        Series s;
        for (double t = d.settings.from; t <= d.settings.to; t += 60)
            s.samples.push_back({t, t < kSwitchT0 ? 1000.0 : 1500.0});
        d.throughput = s;
        return d;
    }
    Labels engine0, engine1, engine2;
};

TEST_F(KvSwitchAsChange, EachEngineIsNamedByTheModelItsOtherSeriesCarry) {
    const auto switches = detectKvCacheSwitches(rollingUpdate(), {}, llamaModels());
    ASSERT_EQ(switches.size(), 3u);
    const double expectedAt[] = {kSwitchT0, kSwitchT0 + 300, kSwitchT0 + 900};
    for (std::size_t i = 0; i < 3; ++i) {
        EXPECT_EQ(switches[i].at, expectedAt[i]) << i;
        EXPECT_EQ(switches[i].engine, std::to_string(i));
        EXPECT_EQ(switches[i].model, kSwitchLlama);
        EXPECT_EQ(switches[i].from, "auto");
        EXPECT_EQ(switches[i].to, "fp8_e4m3");
        EXPECT_EQ(switches[i].deployment, "{job=\"vllm-llama\"}");
    }
    EXPECT_EQ(engineSwitchWho(switches[0]), std::string("engine 0 of ") + kSwitchLlama);
    // Without the lookup the engine is named by its deployment; an engine number two models share names no model.
    EXPECT_EQ(detectKvCacheSwitches(rollingUpdate())[0].model, "");
    EXPECT_EQ(engineSwitchWho(detectKvCacheSwitches(rollingUpdate())[0]), "engine 0 of {job=\"vllm-llama\"}");
    Labels bare = engine0;
    bare.erase("job");
    std::vector<Series> shared;
    addEngine(shared, bare, kSwitchT0);
    const auto ambiguous =
        detectKvCacheSwitches(shared, {}, {modelOf("a", "0", kSwitchLlama), modelOf("b", "0", kSwitchQwen)});
    ASSERT_EQ(ambiguous.size(), 1u);
    EXPECT_EQ(ambiguous[0].model, "");
    EXPECT_EQ(engineSwitchWho(ambiguous[0]), "engine 0");
}

TEST_F(KvSwitchAsChange, ARollingUpdateGivesTheFirstSwitchAndTheRolloutToTheLast) {
    auto d = throughputData();
    useDetectedSwitches(d, detectKvCacheSwitches(rollingUpdate(), {}, llamaModels()));
    ASSERT_TRUE(d.settings.changeAt.has_value());
    EXPECT_EQ(*d.settings.changeAt, kSwitchT0);
    EXPECT_TRUE(d.settings.changeAtDetected);
    EXPECT_TRUE(d.switchModels.empty());
    const auto r = evaluateTimeline(d);
    EXPECT_EQ(r.changeSource, "cache_config_info");
    EXPECT_EQ(r.changeDetail, "change at " + utc(kSwitchT0, "%Y-%m-%d %H:%M:%S UTC") +
                                  " from cache_config_info: engine 0 of " + kSwitchLlama + " switched to fp8_e4m3");
    ASSERT_TRUE(r.rolloutEnd.has_value());
    EXPECT_EQ(*r.rolloutEnd, kSwitchT0 + 900);
    EXPECT_EQ(r.rollout, "rollout from " + utc(kSwitchT0, "%H:%M:%S") + " to " + utc(kSwitchT0 + 900, "%H:%M:%S UTC") +
                             " (15 min): engine 0 at " + utc(kSwitchT0, "%H:%M:%S") + ", engine 1 at " +
                             utc(kSwitchT0 + 300, "%H:%M:%S") + ", engine 2 at " + utc(kSwitchT0 + 900, "%H:%M:%S"));
    // The before/after figures are taken around the detected switch: 1000 → 1500 tok/s.
    ASSERT_TRUE(r.throughput.deltaPct().has_value());
    EXPECT_NEAR(*r.throughput.deltaPct(), 50, 1e-9);
    const std::string text = timelineReportToText(r, d);
    EXPECT_NE(text.find(r.changeDetail), std::string::npos) << text;
    EXPECT_NE(text.find(r.rollout), std::string::npos) << text;
    const auto j = timelineReportToJson(r);
    EXPECT_EQ(j["change_source"], "cache_config_info");
    EXPECT_EQ(j["rollout"]["to"].get<double>(), kSwitchT0 + 900);

    // All engines at once: a change time, no rollout.
    std::vector<Series> together;
    addEngine(together, engine0, kSwitchT0);
    addEngine(together, engine1, kSwitchT0);
    auto same = throughputData();
    useDetectedSwitches(same, detectKvCacheSwitches(together, {}, llamaModels()));
    const auto r2 = evaluateTimeline(same);
    EXPECT_EQ(*r2.changeAt, kSwitchT0);
    EXPECT_FALSE(r2.rolloutEnd.has_value());
    EXPECT_TRUE(r2.rollout.empty());
}

TEST_F(KvSwitchAsChange, SwitchesOfTwoModelsGiveNoChangeTimeAndNameBoth) {
    auto series = rollingUpdate();
    Labels qwen = engine0;
    qwen["job"] = "vllm-qwen";
    addEngine(series, qwen, kSwitchT0 + 1800, "fp8");
    auto models = llamaModels();
    models.push_back(modelOf("vllm-qwen", "0", kSwitchQwen));
    const auto switches = detectKvCacheSwitches(series, {}, models);
    ASSERT_EQ(kvCacheSwitchesByModel(switches).size(), 2u);

    auto d = throughputData();
    useDetectedSwitches(d, switches);
    EXPECT_FALSE(d.settings.changeAt.has_value());
    ASSERT_EQ(d.switchModels.size(), 2u);
    EXPECT_EQ(d.switchModels[0].model, kSwitchLlama);
    EXPECT_EQ(d.switchModels[1].model, kSwitchQwen);
    EXPECT_EQ(d.switchModels[1].at, kSwitchT0 + 1800);
    const auto r = evaluateTimeline(d);
    EXPECT_FALSE(r.verdict.has_value());
    ASSERT_FALSE(r.reasons.empty());
    EXPECT_NE(r.reasons.front().find(kSwitchLlama), std::string::npos) << r.reasons.front();
    EXPECT_NE(r.reasons.front().find(kSwitchQwen), std::string::npos) << r.reasons.front();
    EXPECT_NE(r.reasons.front().find("pick one model"), std::string::npos) << r.reasons.front();

    // A model pick narrows V1's series (which carry no model_name) by the model their engine serves.
    const auto picked = detectKvCacheSwitches(series, {{"model_name", kSwitchQwen}}, models);
    ASSERT_EQ(picked.size(), 1u);
    EXPECT_EQ(picked[0].at, kSwitchT0 + 1800);
    auto one = throughputData();
    useDetectedSwitches(one, picked);
    EXPECT_EQ(one.settings.changeAt, kSwitchT0 + 1800);
}

TEST_F(KvSwitchAsChange, AGivenTimeWinsAndSaysItOverridesTheSwitch) {
    auto d = throughputData();
    const double given = kSwitchT0 + 120;
    d.settings.changeAt = given;
    useDetectedSwitches(d, detectKvCacheSwitches(rollingUpdate(), {}, llamaModels()));
    EXPECT_EQ(*d.settings.changeAt, given);
    EXPECT_FALSE(d.settings.changeAtDetected);
    const auto r = evaluateTimeline(d);
    EXPECT_EQ(r.changeSource, "given");
    EXPECT_EQ(r.changeDetail, "the change time given (" + utc(given, "%Y-%m-%d %H:%M:%S UTC") +
                                  ") overrides the switch found in cache_config_info at " +
                                  utc(kSwitchT0, "%Y-%m-%d %H:%M:%S UTC") + " (engine 0 of " + kSwitchLlama +
                                  " switched to fp8_e4m3)");
    // The same time as the switch: nothing to say.
    auto same = throughputData();
    same.settings.changeAt = kSwitchT0;
    useDetectedSwitches(same, detectKvCacheSwitches(rollingUpdate(), {}, llamaModels()));
    EXPECT_TRUE(evaluateTimeline(same).changeDetail.empty());
}

TEST_F(KvSwitchAsChange, TheFileKeepsWhereTheChangeTimeCameFrom) {
    auto d = throughputData();
    useDetectedSwitches(d, detectKvCacheSwitches(rollingUpdate(), {}, llamaModels()));
    ComparisonDocument doc;
    doc.hasEvals = false;
    doc.title = "detected switch";
    doc.timeline = d;
    test::TempDir dir;
    const auto path = dir.path() / "switch.fp8cmp";
    ASSERT_TRUE(saveComparisonFile(doc, path).ok());
    auto loaded = loadComparisonFile(path);
    ASSERT_TRUE(loaded.ok()) << loaded.error().message;
    const auto& t = *loaded->timeline;
    EXPECT_TRUE(t.settings.changeAtDetected);
    EXPECT_EQ(t.settings.changeAt, kSwitchT0);
    EXPECT_EQ(t.detectedSwitches, d.detectedSwitches);
    EXPECT_EQ(evaluateTimeline(t).rollout, evaluateTimeline(d).rollout);

    // A source fp8dash does not write is refused, naming the field.
    std::string text = readTextFile(path).value();
    const std::string source = "\"change_at_source\": \"cache_config_info\"";
    const auto at = text.find(source);
    ASSERT_NE(at, std::string::npos);
    text.replace(at, source.size(), "\"change_at_source\": \"guess\"");
    const auto bad = dir.path() / "bad.fp8cmp";
    std::ofstream(bad) << text;
    auto refused = loadComparisonFile(bad);
    ASSERT_FALSE(refused.ok());
    EXPECT_NE(refused.error().message.find("change_at_source"), std::string::npos) << refused.error().message;
}

}  // namespace
}  // namespace fp8dash
