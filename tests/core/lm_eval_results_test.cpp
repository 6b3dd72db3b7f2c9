// The lm-eval reader on every real fixture (values typed from the files) and on malformed input.
#include "fp8dash/core/lm_eval_results.h"

#include <gtest/gtest.h>

#include <cmath>

#include "test_paths.h"

namespace fp8dash {
namespace {

using test::TempDir;

const MetricValue& metric(const LmEvalResults& r, const std::string& task, const std::string& name,
                          const std::string& filter) {
    const TaskResult* t = r.task(task);
    if (!t) throw std::runtime_error("no task " + task);
    const MetricValue* m = t->find(name, filter);
    if (!m) throw std::runtime_error("no metric " + name + "," + filter + " in " + task);
    return *m;
}

TEST(LmEvalFixtures, V042MmluGroupWithSubtasks) {
    FP8DASH_REQUIRE_FIXTURE(path, "llama3-8b-instruct_mmlu_v0.4.2.json");
    auto r = readLmEvalPath(path);
    ASSERT_TRUE(r.ok()) << r.error().message;
    EXPECT_EQ(r->formatLabel, "v0.4");
    EXPECT_EQ(r->tasks.size(), 62u);  // 1 group + 4 categories + 57 subjects
    EXPECT_DOUBLE_EQ(metric(*r, "mmlu", "acc", "none").value, 0.6581683520865973);
    EXPECT_DOUBLE_EQ(*metric(*r, "mmlu", "acc", "none").stderr_, 0.003793336441546875);
    EXPECT_DOUBLE_EQ(metric(*r, "mmlu_humanities", "acc", "none").value, 0.6063761955366631);
    EXPECT_DOUBLE_EQ(metric(*r, "mmlu_formal_logic", "acc", "none").value, 0.5079365079365079);
    EXPECT_EQ(r->task("mmlu_formal_logic")->alias, "  - formal_logic");
    ASSERT_NE(r->subtasksOf("mmlu"), nullptr);
    EXPECT_EQ(*r->subtasksOf("mmlu"),
              (std::vector<std::string>{"mmlu_humanities", "mmlu_social_sciences", "mmlu_other", "mmlu_stem"}));
    EXPECT_EQ(r->subtasksOf("mmlu_stem")->size(), 19u);
    EXPECT_EQ(r->task("mmlu")->nShot, 0);
    EXPECT_EQ(r->task("mmlu_anatomy")->nShot, 5);
    EXPECT_EQ(r->modelBackend, "hf");
    EXPECT_EQ(r->modelName, "meta-llama/Meta-Llama-3-8B-Instruct");  // from pretrained= (no model_name in v0.4.2)
    EXPECT_EQ(r->modelArg("dtype"), "auto");
    EXPECT_EQ(r->gitHash, "3196e907");
    EXPECT_DOUBLE_EQ(*r->date, 1713522926.6591973);
}

TEST(LmEvalFixtures, V042Gsm8kTwoFilters) {
    FP8DASH_REQUIRE_FIXTURE(path, "llama3-8b-instruct_gsm8k_v0.4.2.json");
    auto r = readLmEvalPath(path);
    ASSERT_TRUE(r.ok()) << r.error().message;
    const auto& strict = metric(*r, "gsm8k", "exact_match", "strict-match");
    EXPECT_DOUBLE_EQ(strict.value, 0.7558756633813495);
    EXPECT_DOUBLE_EQ(*strict.stderr_, 0.011832404674077592);
    EXPECT_EQ(strict.key, "exact_match,strict-match");
    EXPECT_DOUBLE_EQ(metric(*r, "gsm8k", "exact_match", "flexible-extract").value, 0.7528430629264594);
    EXPECT_EQ(r->task("gsm8k")->find("acc", "none"), nullptr);  // the seed script's acc,none does not exist
    EXPECT_EQ(r->task("gsm8k")->nShot, 5);
}

TEST(LmEvalFixtures, V042TruthfulqaMixedGroup) {
    FP8DASH_REQUIRE_FIXTURE(path, "llama3-8b-instruct_truthfulqa_v0.4.2.json");
    auto r = readLmEvalPath(path);
    ASSERT_TRUE(r.ok()) << r.error().message;
    EXPECT_DOUBLE_EQ(metric(*r, "truthfulqa", "acc", "none").value, 0.43972315197022993);
    EXPECT_DOUBLE_EQ(metric(*r, "truthfulqa", "rouge2_diff", "none").value, -1.6711423661602383);
    EXPECT_DOUBLE_EQ(metric(*r, "truthfulqa_mc2", "acc", "none").value, 0.5171452023492725);
    EXPECT_DOUBLE_EQ(metric(*r, "truthfulqa_mc1", "acc", "none").value, 0.3623011015911873);
    EXPECT_EQ(r->task("truthfulqa")->metrics.size(), 13u);  // 13 metrics, each with its stderr
    EXPECT_EQ(*r->subtasksOf("truthfulqa"),
              (std::vector<std::string>{"truthfulqa_mc2", "truthfulqa_mc1", "truthfulqa_gen"}));
}

TEST(LmEvalFixtures, V043ArcWithSamplesAndModelName) {
    FP8DASH_REQUIRE_FIXTURE(path, "powerbot-8b_arc-challenge_v0.4.3ish.json");
    auto r = readLmEvalPath(path);
    ASSERT_TRUE(r.ok()) << r.error().message;
    EXPECT_DOUBLE_EQ(metric(*r, "arc_challenge", "acc", "none").value, 0.5793515358361775);
    EXPECT_DOUBLE_EQ(metric(*r, "arc_challenge", "acc_norm", "none").value, 0.6092150170648464);
    EXPECT_DOUBLE_EQ(*metric(*r, "arc_challenge", "acc_norm", "none").stderr_, 0.014258563880513778);
    EXPECT_EQ(r->task("arc_challenge")->nSamplesOriginal, 1172);
    EXPECT_EQ(r->task("arc_challenge")->nSamplesEffective, 1172);
    EXPECT_EQ(r->task("arc_challenge")->nShot, 25);
    EXPECT_EQ(r->modelName, "saucam/PowerBot-8B");
}

TEST(LmEvalFixtures, V048HigherIsBetterAndPerplexity) {
    FP8DASH_REQUIRE_FIXTURE(path, "qwen2.5-7b_multi-task_v0.4.8.json");
    auto r = readLmEvalPath(path);
    ASSERT_TRUE(r.ok()) << r.error().message;
    EXPECT_EQ(r->tasks.size(), 15u);
    EXPECT_DOUBLE_EQ(metric(*r, "lambada_openai", "perplexity", "none").value, 3.708735802873878);
    EXPECT_EQ(r->task("lambada_openai")->higherIsBetterFor("perplexity"), false);
    EXPECT_EQ(r->task("lambada_openai")->higherIsBetterFor("acc"), true);
    EXPECT_DOUBLE_EQ(metric(*r, "cola", "mcc", "none").value, 0.2610560070016465);
    EXPECT_EQ(r->task("mnli")->nSamplesOriginal, 9815);
    EXPECT_EQ(r->modelArg("dtype"), "float32");
    EXPECT_EQ(r->modelArg("trust_remote_code"), "True");
    EXPECT_EQ(r->modelName, "qwen/qwen2.5-7B");
}

TEST(LmEvalFixtures, V0410ObjectModelArgsAndNaStderr) {
    FP8DASH_REQUIRE_FIXTURE(path, "gemma-2b-vllm-bf16_afrimmlu_na-stderr_v0.4.10dev.json");
    auto r = readLmEvalPath(path);
    ASSERT_TRUE(r.ok()) << r.error().message;
    const auto& acc = metric(*r, "afrimmlu_direct_swa_prompt_1", "acc", "none");
    EXPECT_DOUBLE_EQ(acc.value, 0.226);
    EXPECT_DOUBLE_EQ(*acc.stderr_, 0.018722956449139915);
    const auto& f1 = metric(*r, "afrimmlu_direct_swa_prompt_1", "f1", "none");
    EXPECT_DOUBLE_EQ(f1.value, 0.21785667126908828);
    EXPECT_FALSE(f1.stderr_.has_value());  // "N/A"
    EXPECT_EQ(r->modelArg("pretrained"), "google/gemma-2b");
    EXPECT_EQ(r->modelArg("dtype"), "bfloat16");
    EXPECT_EQ(r->modelArg("gpu_memory_utilization"), "0.7");
    EXPECT_EQ(r->modelBackend, "vllm");
    EXPECT_EQ(r->lmEvalVersion, "0.4.10.dev0");
}

TEST(LmEvalFixtures, V03FlatKeysWithoutFilters) {
    FP8DASH_REQUIRE_FIXTURE(path, "llama-7b_common-sense_v0.3-format.json");
    auto r = readLmEvalPath(path);
    ASSERT_TRUE(r.ok()) << r.error().message;
    EXPECT_EQ(r->formatLabel, "v0.3");
    EXPECT_EQ(r->tasks.size(), 12u);
    const auto& acc = metric(*r, "piqa", "acc", "none");
    EXPECT_EQ(acc.key, "acc");
    EXPECT_DOUBLE_EQ(acc.value, 0.7818280739934712);
    EXPECT_DOUBLE_EQ(*acc.stderr_, 0.009636081958374381);
    EXPECT_DOUBLE_EQ(metric(*r, "hellaswag", "acc_norm", "none").value, 0.7298346942840072);
    EXPECT_DOUBLE_EQ(metric(*r, "openbookqa", "acc_norm", "none").value, 0.424);
    EXPECT_TRUE(r->groupSubtasks.empty());
    EXPECT_EQ(r->modelArg("pretrained"), "/gaueko1/hizkuntza-ereduak/LLaMA/lm/huggingface/7B");
    EXPECT_EQ(r->modelBackend, "hf-causal-experimental");
}

TEST(LmEvalFixtures, EveryFixtureReadsAndRoundTrips) {
    const auto dir = test::sharedFixtures() / "lm-eval";
    if (!std::filesystem::exists(dir)) GTEST_SKIP() << "shared fixtures folder " << dir << " is absent";
    int files = 0;
    for (const auto& e : std::filesystem::directory_iterator(dir)) {
        auto r = readLmEvalPath(e.path());
        ASSERT_TRUE(r.ok()) << e.path() << ": " << r.error().message;
        EXPECT_FALSE(r->tasks.empty()) << e.path();
        // What a comparison file stores must read back to the same tasks, metrics and errors.
        auto back = parseLmEvalJson(r->toJson(), "round trip");
        ASSERT_TRUE(back.ok()) << back.error().message;
        ASSERT_EQ(back->tasks.size(), r->tasks.size());
        for (std::size_t i = 0; i < r->tasks.size(); ++i) {
            ASSERT_EQ(back->tasks[i].metrics.size(), r->tasks[i].metrics.size()) << r->tasks[i].name;
            for (std::size_t k = 0; k < r->tasks[i].metrics.size(); ++k) {
                EXPECT_EQ(back->tasks[i].metrics[k].key, r->tasks[i].metrics[k].key);
                EXPECT_EQ(back->tasks[i].metrics[k].value, r->tasks[i].metrics[k].value);
                EXPECT_EQ(back->tasks[i].metrics[k].stderr_, r->tasks[i].metrics[k].stderr_);
            }
        }
        EXPECT_EQ(back->groupSubtasks, r->groupSubtasks);
        EXPECT_EQ(back->modelArgs, r->modelArgs);
        EXPECT_EQ(back->formatLabel, r->formatLabel);
        ++files;
    }
    EXPECT_GE(files, 8);
}

TEST(LmEvalDirectories, PicksNewestResultsInSingleModelFolder) {
    auto r = readLmEvalPath(test::testData() / "lm-eval/seed-pair/fp8");
    ASSERT_TRUE(r.ok()) << r.error().message;
    EXPECT_NE(r->sourcePath.find("results_2026-11-21T09-30-00"), std::string::npos) << r->sourcePath;
    EXPECT_DOUBLE_EQ(metric(*r, "gsm8k", "exact_match", "strict-match").value, 0.873);
}

TEST(LmEvalDirectories, ResultsDirectlyInFolderAndPlainResultsJson) {
    TempDir dir;
    const std::string doc = R"({"results": {"piqa": {"acc,none": 0.5}}})";
    dir.write("out/results.json", doc);
    auto plain = readLmEvalPath(dir.path() / "out");
    ASSERT_TRUE(plain.ok()) << plain.error().message;
    EXPECT_NE(plain->sourcePath.find("results.json"), std::string::npos);
    dir.write("out/results_2025-01-02T00-00-00.1.json", R"({"results": {"piqa": {"acc,none": 0.7}}})");
    auto stamped = readLmEvalPath(dir.path() / "out");
    ASSERT_TRUE(stamped.ok());
    EXPECT_DOUBLE_EQ(metric(*stamped, "piqa", "acc", "none").value, 0.7);
}

TEST(LmEvalDirectories, ClearErrorsForEmptyAndAmbiguousFolders) {
    TempDir dir;
    std::filesystem::create_directories(dir.path() / "empty");
    auto empty = readLmEvalPath(dir.path() / "empty");
    ASSERT_FALSE(empty.ok());
    EXPECT_NE(empty.error().message.find("no lm-eval results file"), std::string::npos);
    EXPECT_NE(empty.error().message.find((dir.path() / "empty").string()), std::string::npos);

    dir.write("two/a/results_1.json", "{}");
    dir.write("two/b/results_1.json", "{}");
    auto two = readLmEvalPath(dir.path() / "two");
    ASSERT_FALSE(two.ok());
    EXPECT_NE(two.error().message.find("several model folders (a, b)"), std::string::npos) << two.error().message;

    auto missing = readLmEvalPath(dir.path() / "nope.json");
    ASSERT_FALSE(missing.ok());
    EXPECT_NE(missing.error().message.find("nope.json: no such file"), std::string::npos);
}

struct BadInput {
    const char* name;
    std::string text;
    const char* expected;  // a fragment of the error message
};

class LmEvalBadInput : public ::testing::TestWithParam<BadInput> {};

TEST_P(LmEvalBadInput, GivesAClearErrorNamingTheFile) {
    TempDir dir;
    const auto path = dir.write("bad.json", GetParam().text);
    auto r = readLmEvalPath(path);
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error().message.find(path.string()), std::string::npos) << r.error().message;
    EXPECT_NE(r.error().message.find(GetParam().expected), std::string::npos) << r.error().message;
}

INSTANTIATE_TEST_SUITE_P(
    Cases, LmEvalBadInput,
    ::testing::Values(BadInput{"empty", "", "empty"}, BadInput{"blank", "  \n ", "empty"},
                      BadInput{"truncated", R"({"results": {"piqa": {"acc,none": 0.5)", "not valid JSON"},
                      BadInput{"binary", std::string("\x89PNG\r\n\x1a\n\0\0\0", 11), "not valid JSON"},
                      BadInput{"array", "[1, 2]", "expected a JSON object"},
                      BadInput{"no_results", R"({"config": {}})", "field \"results\" is missing"},
                      BadInput{"results_list", R"({"results": [1]})", "field \"results\" must be an object"},
                      BadInput{"task_string", R"({"results": {"piqa": "high"}})", "results.piqa must be an object"},
                      BadInput{"deep", std::string(100000, '[') + std::string(100000, ']'), "nesting deeper"},
                      BadInput{"group_subtasks_type", R"({"results": {}, "group_subtasks": {"g": "x"}})",
                               "group_subtasks.g must be a list"},
                      BadInput{"model_args_type", R"({"results": {}, "config": {"model_args": 5}})",
                               "config.model_args must be a string or an object"}),
    [](const auto& p) { return std::string(p.param.name); });

TEST(LmEvalValues, PythonNanAndHugeNumbersAreKeptAsNonFinite) {
    auto r = parseLmEvalText(
        R"({"results": {"t": {"acc,none": NaN, "acc_stderr,none": Infinity, "f1,none": Infinity, "mcc,none": -Infinity,
            "alias": "NaN is fine inside strings"}}})",
        "x.json");
    ASSERT_TRUE(r.ok()) << r.error().message;
    const TaskResult* t = r->task("t");
    ASSERT_NE(t, nullptr);
    EXPECT_TRUE(std::isnan(t->find("acc", "none")->value));
    EXPECT_FALSE(t->find("acc", "none")->stderr_.has_value());
    EXPECT_TRUE(std::isinf(t->find("f1", "none")->value));
    EXPECT_LT(t->find("mcc", "none")->value, 0);
    EXPECT_EQ(t->alias, "NaN is fine inside strings");
}

TEST(LmEvalValues, NumbersBeyondDoubleRangeAreAnError) {
    auto r = parseLmEvalText(R"({"results": {"t": {"acc,none": 1e999}}})", "huge.json");
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().message, "huge.json: not valid JSON (number overflow parsing '1e999')");
}

TEST(LmEvalValues, NonNumericValuesAreNotMetrics) {
    auto r = parseLmEvalText(R"({"results": {"t": {"acc,none": 0.5, "samples": 12, "note,none": "text",
                                  "flag,none": true, " ": " "}}})",
                             "x.json");
    ASSERT_TRUE(r.ok()) << r.error().message;
    ASSERT_EQ(r->task("t")->metrics.size(), 1u);
    EXPECT_EQ(r->task("t")->metrics[0].key, "acc,none");
}

TEST(LmEvalValues, MetricKeysSplitAtTheFirstComma) {
    auto r = parseLmEvalText(R"({"results": {"t": {"acc,custom,extract": 0.25, "acc_stderr,custom,extract": 0.01}}})",
                             "x.json");
    ASSERT_TRUE(r.ok()) << r.error().message;
    const MetricValue* m = r->task("t")->find("acc", "custom,extract");
    ASSERT_NE(m, nullptr);
    EXPECT_DOUBLE_EQ(*m->stderr_, 0.01);
}

}  // namespace
}  // namespace fp8dash
