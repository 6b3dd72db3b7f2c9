// lm-eval 0.4.10-0.4.12 and the 0.5 previews: results files (tests/data/lm-eval-0.4.12, edited real files; see its
// SOURCES.md), <stem>_<date>.json outputs, "::" task paths, and sample lines with scores_per_repeat
// (tests/data/lm-eval-samples/preview-0.5, make_samples.py). Expected values are typed from the real files, computed
// here with lm-eval's formulas, or come from expected.json (written from the fixtures' construction).
#include "fp8dash/core/eval_comparison.h"
#include "fp8dash/core/fp8_config.h"
#include "fp8dash/core/lm_eval_paths.h"
#include "fp8dash/core/lm_eval_results.h"
#include "fp8dash/core/paired_tasks.h"
#include "fp8dash/core/report_format.h"
#include "fp8dash/core/sample_logs.h"

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>

#include "test_paths.h"

namespace fp8dash {
namespace {

namespace fs = std::filesystem;
using test::TempDir;

fs::path newerDir() {
    return test::testData() / "lm-eval-0.4.12";
}
fs::path previewDir() {
    return test::testData() / "lm-eval-samples/preview-0.5";
}

LmEvalResults newerRead(const fs::path& path) {
    auto r = readLmEvalPath(path);
    if (!r) throw std::runtime_error(r.error().message);
    return std::move(r).value();
}

// A run compared with itself shows how its tasks pair and nest; identical runs are refused unless allowed
// (comparability_test.cpp), so the refusal is lifted when, and only when, the check finds them identical.
ComparisonReport newerCompare(const LmEvalResults& b, const LmEvalResults& c) {
    ComparisonOptions o;
    o.allowIncomparable = checkComparability(b, c).identical;
    auto r = compareEvals(b, c, o);
    if (!r) throw std::runtime_error(r.error().message);
    return std::move(r).value();
}

std::vector<std::string> names(const std::vector<TaskComparison>& rows) {
    std::vector<std::string> out;
    for (const auto& t : rows) out.push_back(t.task);
    return out;
}

const TaskComparison& newerRow(const std::vector<TaskComparison>& rows, const std::string& task) {
    for (const auto& t : rows)
        if (t.task == task) return t;
    throw std::runtime_error("no row " + task);
}

std::string missingReason(const ComparisonReport& r, const std::string& task) {
    for (const auto& m : r.missing)
        if (m.task == task) return m.reason;
    return "(not missing)";
}

bool newerAnyContains(const std::vector<std::string>& items, const std::string& part) {
    for (const auto& s : items)
        if (s.find(part) != std::string::npos) return true;
    return false;
}

// ---- results files ---------------------------------------------------------------------------------------------

TEST(LmEval0412, ObjectModelArgsWithTypedValuesGiveTheFp8Layers) {
    const auto run = newerRead(newerDir() / "gemma-2b-vllm-fp8_afrimmlu_v0.4.12.json");
    EXPECT_EQ(run.lmEvalVersion, "0.4.12");
    EXPECT_EQ(run.modelBackend, "vllm");
    EXPECT_EQ(run.modelName, "google/gemma-2b");
    EXPECT_EQ(run.modelArg("calculate_kv_scales"), "true");  // a JSON boolean
    EXPECT_EQ(run.modelArg("max_model_len"), "4096");        // a JSON integer
    EXPECT_EQ(run.modelArg("gpu_memory_utilization"), "0.7");
    const Fp8Config c = detectFp8Config(run);
    EXPECT_TRUE(c.weights);
    EXPECT_EQ(c.weightsEvidence, "quantization=fp8");
    EXPECT_TRUE(c.kvCache);
    EXPECT_EQ(c.kvCacheDtype, "fp8_e4m3");
    EXPECT_TRUE(c.kvScales);
    EXPECT_EQ(c.kvScalesEvidence, "calculate_kv_scales=true");

    // name, alias and sample_len are not metrics; "N/A" is no stderr. Values typed from the real file.
    const TaskResult* t = run.task("afrimmlu_direct_swa_prompt_1");
    ASSERT_NE(t, nullptr);
    ASSERT_EQ(t->metrics.size(), 2u);
    EXPECT_EQ(t->metrics[0].key, "acc,none");
    EXPECT_DOUBLE_EQ(t->metrics[0].value, 0.226);
    EXPECT_DOUBLE_EQ(*t->metrics[0].stderr_, 0.018722956449139915);
    EXPECT_EQ(t->metrics[1].key, "f1,none");
    EXPECT_DOUBLE_EQ(t->metrics[1].value, 0.21785667126908828);
    EXPECT_FALSE(t->metrics[1].stderr_.has_value());
    EXPECT_EQ(t->alias, "afrimmlu_direct_swa_prompt_1");
    EXPECT_EQ(t->nSamplesEffective, 500);
}

TEST(LmEval0412, GroupEntryKeysAreNotMetrics) {
    const auto run = newerRead(newerDir() / "qwen2.5-7b_groups_v0.4.12.json");
    EXPECT_EQ(run.formatLabel, "v0.4");
    EXPECT_EQ(run.modelArgs,
              (std::vector<std::pair<std::string, std::string>>{
                  {"pretrained", "qwen/qwen2.5-7B"}, {"trust_remote_code", "true"}, {"dtype", "float32"}}));
    for (const auto& t : run.tasks)
        for (const auto& m : t.metrics) {
            EXPECT_NE(m.name, "name") << t.name;
            EXPECT_NE(m.name, "sample_len") << t.name;
            EXPECT_NE(m.name, "sample_count") << t.name;
            EXPECT_NE(m.key.find(','), std::string::npos) << t.name << " " << m.key;
        }
    const TaskResult* arc = run.task("arc");
    ASSERT_NE(arc, nullptr);
    ASSERT_EQ(arc->metrics.size(), 2u);  // acc and acc_norm; sample_len and sample_count are bookkeeping
    EXPECT_EQ(arc->metrics[0].key, "acc,none");
    EXPECT_EQ(arc->metrics[1].key, "acc_norm,none");
    // arc_challenge (1172 docs) and arc_easy (2376), values typed from the real qwen file: the size-weighted mean.
    EXPECT_NEAR(arc->metrics[0].value, (0.4786689419795222 * 1172 + 0.8042929292929293 * 2376) / 3548, 1e-15);
    EXPECT_NEAR(arc->metrics[1].value, (0.5110921501706485 * 1172 + 0.773989898989899 * 2376) / 3548, 1e-15);
    const TaskResult* glue = run.task("glue");
    ASSERT_NE(glue, nullptr);
    EXPECT_TRUE(glue->metrics.empty());  // {"alias", "name"}: a group without an aggregate
    ASSERT_NE(run.subtasksOf("glue"), nullptr);
    EXPECT_EQ(run.subtasksOf("glue")->size(), 9u);
}

// A group without an aggregate has no row; its subtasks are compared at the top level instead of being lost.
TEST(LmEval0412, SubtasksOfAGroupWithoutAggregateAreComparedAtTheTopLevel) {
    const auto run = newerRead(newerDir() / "qwen2.5-7b_groups_v0.4.12.json");
    const auto r = newerCompare(run, run);
    EXPECT_EQ(names(r.tasks),
              (std::vector<std::string>{"cola", "hellaswag", "lambada_openai", "mnli", "mnli_mismatch", "mrpc", "piqa",
                                        "qnli", "qqp", "rte", "sst2", "winogrande", "wnli", "arc"}));
    EXPECT_EQ(names(newerRow(r.tasks, "arc").subtasks), (std::vector<std::string>{"arc_easy", "arc_challenge"}));
    EXPECT_NE(
        missingReason(r, "glue").find("a group without an aggregate metric); its subtasks are compared on their own"),
        std::string::npos)
        << missingReason(r, "glue");
    EXPECT_EQ(r.missing.size(), 1u);
}

TEST(LmEval05Preview, TaskPathsHelpers) {
    EXPECT_EQ(taskLeafName("glue::nli::rte"), "rte");
    EXPECT_EQ(taskLeafName("rte"), "rte");
    EXPECT_EQ(taskNameUnder("glue::nli::rte", "glue::nli"), "rte");
    EXPECT_EQ(taskNameUnder("glue::nli", "glue"), "nli");
    EXPECT_EQ(taskNameUnder("glue::nli::rte", "glue"), "nli::rte");
    EXPECT_EQ(taskNameUnder("mmlu_formal_logic", "mmlu_humanities"), "mmlu_formal_logic");
    EXPECT_EQ(taskNameUnder("gluey::x", "glue"), "gluey::x");
    EXPECT_EQ(taskNameUnder("glue::", "glue"), "glue::");
}

TEST(LmEval05Preview, PathsGroupUnderTheirGroupsAndShowBelowThem) {
    const auto run = newerRead(newerDir() / "qwen2.5-7b_groups_v0.5-preview.json");
    EXPECT_EQ(run.lmEvalVersion, "0.5.0.dev2");
    EXPECT_EQ(run.task("arc::arc_easy")->alias, "arc_easy");
    const auto r = newerCompare(run, run);
    EXPECT_EQ(names(r.tasks),
              (std::vector<std::string>{"glue::cola", "hellaswag", "lambada_openai", "glue::mrpc", "piqa", "glue::qqp",
                                        "glue::sst2", "winogrande", "arc", "glue::nli"}));
    EXPECT_EQ(names(newerRow(r.tasks, "arc").subtasks),
              (std::vector<std::string>{"arc::arc_easy", "arc::arc_challenge"}));
    const auto& nli = newerRow(r.tasks, "glue::nli");
    EXPECT_EQ(names(nli.subtasks), (std::vector<std::string>{"glue::nli::mnli", "glue::nli::mnli_mismatch",
                                                             "glue::nli::qnli", "glue::nli::rte", "glue::nli::wnli"}));
    // The inline subgroup's aggregate, from the real values: size-weighted over mnli, mnli_mismatch, qnli, rte, wnli.
    const double expectedNli = (0.6279164544065207 * 9815 + 0.6227624084621644 * 9832 + 0.653670144609189 * 5463 +
                                0.8158844765342961 * 277 + 0.7183098591549296 * 71) /
                               (9815 + 9832 + 5463 + 277 + 71);
    EXPECT_NEAR(nli.baseline, expectedNli, 1e-15);
    EXPECT_NE(missingReason(r, "glue").find("compared on their own"), std::string::npos);

    // Below its group a row shows the rest of its path; at the top level the whole path.
    const std::string text = reportToText(r);
    // (the task table is indented by two spaces; a subtask by two more and "- ")
    EXPECT_NE(text.find("\n    - rte "), std::string::npos) << text;
    EXPECT_NE(text.find("\n    - arc_easy "), std::string::npos) << text;
    EXPECT_EQ(text.find("- glue::nli::rte"), std::string::npos) << text;
    EXPECT_NE(text.find("\n  glue::cola "), std::string::npos) << text;
    // JSON keeps the paths: they are the tasks' identities.
    EXPECT_NE(reportToJson(r).dump().find("\"glue::nli::rte\""), std::string::npos);
}

// A 0.4.12 baseline against a 0.5-preview candidate of the same run: subtasks pair by their last path segment.
TEST(LmEval05Preview, PathsPairWithTheNamesOfAnOlderRun) {
    const auto older = newerRead(newerDir() / "qwen2.5-7b_groups_v0.4.12.json");
    const auto preview = newerRead(newerDir() / "qwen2.5-7b_groups_v0.5-preview.json");
    const auto r = newerCompare(older, preview);
    const auto& arc = newerRow(r.tasks, "arc");
    ASSERT_EQ(names(arc.subtasks), (std::vector<std::string>{"arc_easy", "arc_challenge"}));
    EXPECT_DOUBLE_EQ(arc.subtasks[0].candidate, 0.773989898989899);  // arc::arc_easy's acc_norm (preferred to acc)
    EXPECT_TRUE(arc.subtasksNotCompared.empty());
    // Top level: glue's subtasks, "cola" (0.4.12) and "glue::cola" (preview), pair by the last segment ...
    EXPECT_DOUBLE_EQ(newerRow(r.tasks, "cola").candidate, 0.2610560070016465);
    EXPECT_DOUBLE_EQ(newerRow(r.tasks, "qqp").candidate, 0.8605738313133812);
    // ... but the preview holds mnli inside its subgroup glue::nli, so mnli has no top-level counterpart.
    EXPECT_NE(missingReason(r, "mnli").find("only in the baseline"), std::string::npos) << missingReason(r, "mnli");
    EXPECT_NE(missingReason(r, "glue::nli").find("only in the candidate"), std::string::npos);
    EXPECT_EQ(missingReason(r, "glue::cola"), "(not missing)");
}

// ---- <stem>_<date>.json outputs ---------------------------------------------------------------------------------

TEST(LmEvalFolders, StemDateFilesAreFoundNewestFirst) {
    TempDir dir;
    dir.write("out/fp8_2026-11-02T10-00-00.json", R"({"results": {"piqa": {"acc,none": 0.1}}})");
    dir.write("out/fp8_2026-11-03T09-00-00.500000.json", R"({"results": {"piqa": {"acc,none": 0.3}}})");
    dir.write("out/fp8_2026-11-02T23-59-59.999999.json", R"({"results": {"piqa": {"acc,none": 0.2}}})");
    dir.write("out/notes_final.json", "not results");  // no date id: not a results file
    dir.write("out/fp8.json", "not results");
    dir.write("out/samples_piqa_2026-11-03T09-00-00.500000.jsonl", "");
    const auto run = newerRead(dir.path() / "out");
    EXPECT_NE(run.sourcePath.find("fp8_2026-11-03T09-00-00.500000.json"), std::string::npos) << run.sourcePath;
    EXPECT_DOUBLE_EQ(run.task("piqa")->metrics[0].value, 0.3);

    // The same in the single model folder, and the samples beside a <stem>_<date>.json belong to it.
    dir.write("nested/model/run_2026-11-04T08-00-00.json", R"({"results": {"piqa": {"acc,none": 0.4}}})");
    EXPECT_DOUBLE_EQ(newerRead(dir.path() / "nested").task("piqa")->metrics[0].value, 0.4);
}

TEST(LmEvalFolders, SeveralStemsAreSeveralRunsAndAreRefused) {
    TempDir dir;
    dir.write("two/bf16_2026-11-02T10-00-00.json", R"({"results": {}})");
    dir.write("two/fp8_2026-11-01T10-00-00.json", R"({"results": {}})");
    dir.write("two/fp8_2026-11-03T10-00-00.json", R"({"results": {}})");
    auto two = readLmEvalPath(dir.path() / "two");
    ASSERT_FALSE(two.ok());
    const std::string& m = two.error().message;
    EXPECT_NE(m.find((dir.path() / "two").string() + ": holds the results of several lm-eval runs"), std::string::npos)
        << m;
    EXPECT_NE(m.find("bf16_<date>.json (newest: bf16_2026-11-02T10-00-00.json)"), std::string::npos) << m;
    EXPECT_NE(m.find("fp8_<date>.json (newest: fp8_2026-11-03T10-00-00.json)"), std::string::npos) << m;
    EXPECT_NE(m.find("pass the file to compare"), std::string::npos) << m;

    // results_<date>.json beside <stem>_<date>.json: two runs as well, whichever is newer.
    dir.write("mixed/results_2026-11-05T10-00-00.json", R"({"results": {}})");
    dir.write("mixed/fp8_2026-11-01T10-00-00.json", R"({"results": {}})");
    auto mixed = readLmEvalPath(dir.path() / "mixed");
    ASSERT_FALSE(mixed.ok());
    EXPECT_NE(mixed.error().message.find("results_<date>.json (newest: results_2026-11-05T10-00-00.json)"),
              std::string::npos)
        << mixed.error().message;

    // A plain results.json beside dated files is the older layout: the dated file wins, as before.
    dir.write("plain/results.json", R"({"results": {"piqa": {"acc,none": 0.1}}})");
    dir.write("plain/run_2026-11-05T10-00-00.json", R"({"results": {"piqa": {"acc,none": 0.9}}})");
    EXPECT_DOUBLE_EQ(newerRead(dir.path() / "plain").task("piqa")->metrics[0].value, 0.9);
}

// 0.5 names a sample log by the task's path: samples_glue::cola_<date>.jsonl belongs to the task glue::cola.
TEST(LmEvalFolders, SampleLogsOfPathNamedTasksAreFound) {
    TempDir dir;
    const auto results = dir.write("out/run_2026-11-04T08-00-00.json",
                                   R"({"results": {"glue::cola": {"name": "glue::cola", "mcc,none": 0.2}}})");
    dir.write("out/samples_glue::cola_2026-11-04T08-00-00.jsonl", "");
    auto index = findSampleLogs(results);
    ASSERT_TRUE(index.ok()) << index.error().message;
    ASSERT_EQ(index->files.size(), 1u);
    EXPECT_EQ(index->files[0].task, "glue::cola");
    EXPECT_NE(index->file("glue::cola"), nullptr);
    EXPECT_TRUE(index->notes.empty());
}

// ---- sample lines with scores_per_repeat -------------------------------------------------------------------------

nlohmann::json expectedPreview() {
    std::ifstream in(test::testData() / "lm-eval-samples/expected.json");
    return nlohmann::json::parse(in).at("preview_gsm8k_take_first");
}

TEST(LmEval05Preview, SampleLinesKeepTheirRepeatsBesideTheReducedValue) {
    auto index = findSampleLogsForRunPath(previewDir() / "bf16");
    ASSERT_TRUE(index.ok()) << index.error().message;
    EXPECT_EQ(index->resultsFile.filename(), "llama-bf16_2026-11-02T10-00-00.000001.json");
    EXPECT_EQ(index->dateId, "2026-11-02T10-00-00.000001");
    ASSERT_EQ(index->files.size(), 1u);
    auto log = readSampleLog(index->files[0].path, *index->taskInfo("gsm8k"));
    ASSERT_TRUE(log.ok()) << log.error().message;
    const auto e = expectedPreview();
    ASSERT_EQ(log->rows.size(), e["n"].get<std::size_t>());
    double firstSum = 0, repeatSum = 0;
    for (const auto& r : log->rows) {
        const auto* scores = r.repeatScores("exact_match");
        ASSERT_NE(scores, nullptr) << "line " << r.line;
        ASSERT_EQ(scores->size(), e["repeats"].get<std::size_t>());
        ASSERT_NE(r.value("exact_match"), nullptr);
        EXPECT_EQ(*r.value("exact_match"), scores->front());  // take_first, as constructed
        EXPECT_EQ(r.values.size(), 1u);                       // nothing of scores_per_repeat leaks into values
        firstSum += scores->front();
        double s = 0;
        for (double v : *scores) s += v;
        repeatSum += s / static_cast<double>(scores->size());
    }
    const double n = static_cast<double>(log->rows.size());
    EXPECT_NEAR(firstSum / n, e["baseline_mean"].get<double>(), 1e-12);
    EXPECT_NEAR(repeatSum / n, e["baseline_repeat_mean"].get<double>(), 1e-12);
}

TEST(LmEval05Preview, PairedTestUsesLmEvalsReducedPerDocumentScore) {
    auto bi = findSampleLogsForRunPath(previewDir() / "bf16");
    auto ci = findSampleLogsForRunPath(previewDir() / "fp8");
    ASSERT_TRUE(bi.ok() && ci.ok());
    const auto bRun = newerRead(previewDir() / "bf16");
    const auto cRun = newerRead(previewDir() / "fp8");
    PairedTaskSpec spec;
    spec.task = "gsm8k";
    spec.metric = "exact_match";
    spec.filter = "strict-match";
    spec.baselineScore = bRun.task("gsm8k")->metrics[0].value;
    spec.candidateScore = cRun.task("gsm8k")->metrics[0].value;
    auto out = pairTaskLogs(*bi, *ci, spec);
    ASSERT_TRUE(out.ok()) << out.error().message;
    ASSERT_TRUE(out->result.has_value()) << out->noLogsReason;
    const PairedTaskResult& r = *out->result;
    const auto e = expectedPreview();
    EXPECT_EQ(r.test, "mcnemar_exact");
    EXPECT_EQ(r.n, e["n"].get<std::uint64_t>());
    EXPECT_EQ(r.b01, e["b01"].get<std::uint64_t>());
    EXPECT_EQ(r.b10, e["b10"].get<std::uint64_t>());
    EXPECT_NEAR(r.pValue, e["p_value"].get<double>(), 1e-12);
    EXPECT_NEAR(r.baselineMean, e["baseline_mean"].get<double>(), 1e-12);
    EXPECT_NEAR(r.candidateMean, e["candidate_mean"].get<double>(), 1e-12);
    // The construction makes the mean over repeats differ from lm-eval's reduced value on both sides.
    EXPECT_GT(std::fabs(r.baselineMean - e["baseline_repeat_mean"].get<double>()), 0.05);
    EXPECT_GT(std::fabs(r.candidateMean - e["candidate_repeat_mean"].get<double>()), 0.02);
    // The logs agree with the results files (no "differs from its results file" warning), and the repeats are named.
    EXPECT_FALSE(newerAnyContains(r.warnings, "differs from its results file")) << r.summary;
    EXPECT_TRUE(newerAnyContains(r.warnings, "scores_per_repeat: 4 repeat(s) per document in BF16, 4 in FP8"));
    EXPECT_FALSE(newerAnyContains(r.warnings, "repeated the documents differently"));
}

SampleTaskInfo noneFilter() {
    SampleTaskInfo i;
    i.task = "t";
    i.filters = {"none"};
    i.filtersFromConfig = true;
    return i;
}

TEST(LmEval05Preview, DifferentRepeatCountsAreAWarning) {
    auto b = parseSampleLogText(
        "{\"doc_id\": 0, \"filter\": \"none\", \"acc\": 1, \"scores_per_repeat\": {\"acc\": "
        "[1, 0]}}\n{\"doc_id\": 1, \"filter\": \"none\", \"acc\": 0, \"scores_per_repeat\": "
        "{\"acc\": [0, 0]}}\n",
        "b.jsonl", noneFilter());
    auto c = parseSampleLogText(
        "{\"doc_id\": 0, \"filter\": \"none\", \"acc\": 1}\n{\"doc_id\": 1, \"filter\": \"none\", "
        "\"acc\": 1}\n",
        "c.jsonl", noneFilter());
    ASSERT_TRUE(b.ok() && c.ok());
    PairedTaskSpec spec;
    spec.task = "t";
    spec.metric = "acc";
    spec.filter = "none";
    auto r = pairSampleLogs(*b, *c, spec);
    ASSERT_TRUE(r.ok()) << r.error().message;
    EXPECT_TRUE(newerAnyContains(r->warnings, "2 repeat(s) per document in BF16, 1 in FP8"));
    EXPECT_TRUE(newerAnyContains(r->warnings, "repeated the documents differently (2 against 1 times)"));
    EXPECT_EQ(r->b01, 1u);  // doc 1: 0 -> 1 on the reduced values
    EXPECT_EQ(r->b10, 0u);
}

TEST(LmEval05Preview, MalformedScoresPerRepeatIsAnErrorNamingTheLine) {
    struct Case {
        const char* text;
        const char* what;
    };
    const Case cases[] = {
        {"{\"doc_id\": 0, \"acc\": 1, \"scores_per_repeat\": [1, 0]}\n",
         "field \"scores_per_repeat\" must be an object of score lists by metric, found array"},
        {"{\"doc_id\": 0, \"acc\": 1, \"scores_per_repeat\": {\"acc\": 1}}\n",
         "field scores_per_repeat.acc must be a list of scores, found number"},
        {"{\"doc_id\": 0, \"acc\": 1, \"scores_per_repeat\": {\"acc\": [1, \"x\"]}}\n",
         "field scores_per_repeat.acc must hold numbers, found the string \"x\""},
    };
    for (const auto& c : cases) {
        auto r = parseSampleLogText(c.text, "x.jsonl", noneFilter());
        ASSERT_FALSE(r.ok()) << c.text;
        EXPECT_NE(r.error().message.find(std::string("x.jsonl line 1: ") + c.what), std::string::npos)
            << r.error().message;
    }
    // NaN (Python's bare token) is a number here, as in the metric values.
    auto nan = parseSampleLogText("{\"doc_id\": 0, \"acc\": 1, \"scores_per_repeat\": {\"acc\": [NaN, 1]}}\n",
                                  "x.jsonl", noneFilter());
    ASSERT_TRUE(nan.ok()) << nan.error().message;
    EXPECT_TRUE(std::isnan(nan->rows[0].repeatScores("acc")->front()));
}

}  // namespace
}  // namespace fp8dash
