// The comparability check and the task-name matching (comparability.h) on real lm-eval files and copies of them
// edited here or in tests/data/lm-eval-compat (SOURCES.md there). Expected values are read from the input files with
// nlohmann::json, not from the code under test.
#include "fp8dash/core/comparability.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <sstream>

#include "fp8dash/core/comparison_file.h"
#include "fp8dash/core/eval_comparison.h"
#include "fp8dash/core/task_pairing.h"
#include "test_paths.h"

namespace fp8dash {
namespace {

Json readJson(const std::filesystem::path& path) {
    std::ifstream in(path);
    std::stringstream ss;
    ss << in.rdbuf();
    return Json::parse(ss.str());
}

LmEvalResults fromJson(const Json& doc, const std::string& name = "edited.json") {
    auto r = parseLmEvalJson(doc, name);
    if (!r) throw std::runtime_error(r.error().message);
    return std::move(r).value();
}

LmEvalResults fromFile(const std::filesystem::path& path) {
    auto r = readLmEvalPath(path);
    if (!r) throw std::runtime_error(r.error().message);
    return std::move(r).value();
}

std::filesystem::path compatData(const char* name) {
    return test::testData() / "lm-eval-compat" / name;
}

const MissingTask* missing(const ComparisonReport& r, const std::string& task) {
    for (const auto& m : r.missing)
        if (m.task == task) return &m;
    return nullptr;
}

const ComparabilityItem* item(const std::vector<ComparabilityItem>& items, const std::string& field) {
    for (const auto& i : items)
        if (i.field == field) return &i;
    return nullptr;
}

bool compared(const ComparisonReport& r, const std::string& task) {
    return std::any_of(r.tasks.begin(), r.tasks.end(), [&](const TaskComparison& t) { return t.task == task; });
}

// Renames a task everywhere a v0.4 file names it.
void renameInJson(Json& doc, const std::string& from, const std::string& to) {
    for (const char* key : {"results", "n-shot", "versions", "configs", "n-samples", "higher_is_better"}) {
        if (!doc.contains(key) || !doc[key].contains(from)) continue;
        Json value = doc[key][from];
        doc[key].erase(from);
        doc[key][to] = std::move(value);
    }
    if (!doc.contains("group_subtasks")) return;
    Json groups = Json::object();
    for (auto& [group, subs] : doc["group_subtasks"].items()) {
        for (auto& s : subs)
            if (s == from) s = to;
        groups[group == from ? to : group] = subs;
    }
    doc["group_subtasks"] = std::move(groups);
}

TEST(Comparability, TheSameRunTwiceIsRefusedAndComparedOnlyWhenAllowed) {
    const auto path = test::testData() / "lm-eval-0.4.12/qwen2.5-7b_groups_v0.4.12.json";
    const LmEvalResults run = fromFile(path);
    auto refused = compareEvals(run, run, {});
    ASSERT_FALSE(refused);
    EXPECT_EQ(refused.error().message.rfind(kIdenticalRunsMessage, 0), 0u) << refused.error().message;
    EXPECT_NE(refused.error().message.find("--allow-incomparable"), std::string::npos);

    ComparisonOptions allow;
    allow.allowIncomparable = true;
    auto r = compareEvals(run, run, allow);
    ASSERT_TRUE(r) << r.error().message;
    const auto* identical = item(r->comparability, "results");
    ASSERT_NE(identical, nullptr);
    EXPECT_EQ(identical->severity, ComparabilitySeverity::Blocking);
    EXPECT_FALSE(identical->task.has_value());
    EXPECT_EQ(identical->message, kIdenticalRunsMessage);
    ASSERT_FALSE(r->reasons.empty());
    EXPECT_EQ(r->reasons.front(), "compared anyway although not comparable: " + std::string(kIdenticalRunsMessage));
    EXPECT_TRUE(compared(*r, "piqa"));
}

TEST(Comparability, ADifferentFewShotCountBlocksThatTaskNamingBothValues) {
    FP8DASH_REQUIRE_FIXTURE(original, "qwen2.5-7b_multi-task_v0.4.8.json");
    const Json edited = readJson(compatData("qwen2.5-7b_arc-challenge-25shot_v0.4.8.json"));
    const Json source = readJson(original);
    const long long before = source["n-shot"]["arc_challenge"].get<long long>();
    const long long after = edited["n-shot"]["arc_challenge"].get<long long>();
    ASSERT_NE(before, after);

    auto r = compareEvals(fromFile(original), fromJson(edited), {});
    ASSERT_TRUE(r) << r.error().message;
    const MissingTask* m = missing(*r, "arc_challenge");
    ASSERT_NE(m, nullptr);
    EXPECT_EQ(m->reason, "not comparable: n-shot differs: baseline " + std::to_string(before) + "-shot, candidate " +
                             std::to_string(after) + "-shot");
    EXPECT_FALSE(compared(*r, "arc_challenge"));
    EXPECT_EQ(r->tasks.size(), source["results"].size() - 1);  // every other task is compared
    const auto* nShot = item(r->comparability, "n-shot");
    ASSERT_NE(nShot, nullptr);
    EXPECT_EQ(nShot->task, std::optional<std::string>("arc_challenge"));
    EXPECT_EQ(nShot->baseline, before);
    EXPECT_EQ(nShot->candidate, after);
    EXPECT_EQ(nShot->severity, ComparabilitySeverity::Blocking);
    EXPECT_EQ(item(r->comparability, "results"), nullptr);  // the same scores under other settings: not one run

    ComparisonOptions allow;
    allow.allowIncomparable = true;
    auto anyway = compareEvals(fromFile(original), fromJson(edited), allow);
    ASSERT_TRUE(anyway) << anyway.error().message;
    EXPECT_TRUE(compared(*anyway, "arc_challenge"));
    EXPECT_EQ(anyway->reasons.front(), "compared anyway although not comparable: arc_challenge: " + nShot->message);
}

TEST(Comparability, AV03MmluRunMatchesV04NamesInBothDirections) {
    FP8DASH_REQUIRE_FIXTURE(v04Path, "llama3-8b-base_mmlu_v0.4.2.json");
    const LmEvalResults v03 = fromFile(compatData("llama3-8b-base_mmlu_v0.3-format.json"));
    const LmEvalResults v04 = fromFile(v04Path);
    const Json v04Json = readJson(v04Path);
    const double anatomy = v04Json["results"]["mmlu_anatomy"]["acc,none"].get<double>();

    for (const bool v03IsBaseline : {true, false}) {
        SCOPED_TRACE(v03IsBaseline ? "v0.3 baseline" : "v0.3 candidate");
        auto r = v03IsBaseline ? compareEvals(v03, v04, {}) : compareEvals(v04, v03, {});
        ASSERT_TRUE(r) << r.error().message;
        EXPECT_EQ(r->tasks.size(), 57u);
        const auto row = std::find_if(r->tasks.begin(), r->tasks.end(),
                                      [](const TaskComparison& t) { return t.task == "mmlu_anatomy"; });
        ASSERT_NE(row, r->tasks.end());
        EXPECT_EQ(row->baseline, anatomy);
        EXPECT_EQ(row->candidate, anatomy);
        const auto* renamed = item(r->comparability, "task name");
        ASSERT_NE(renamed, nullptr);
        EXPECT_EQ(renamed->severity, ComparabilitySeverity::Note);
        EXPECT_EQ(renamed->baseline, v03IsBaseline ? "hendrycksTest-*" : "mmlu_*");
        EXPECT_EQ(renamed->candidate, v03IsBaseline ? "mmlu_*" : "hendrycksTest-*");
        EXPECT_EQ(renamed->message.rfind("57 tasks: lm-eval v0.4 renamed hendrycksTest-*", 0), 0u);
        EXPECT_NE(missing(*r, "mmlu"), nullptr);  // the v0.4 group has no v0.3 counterpart
        // The two numbering schemes of task versions are not compared; the harness versions are a note.
        EXPECT_EQ(item(r->comparability, "versions"), nullptr);
        ASSERT_NE(item(r->comparability, "lm_eval_version"), nullptr);
        EXPECT_EQ(item(r->comparability, "lm_eval_version")->severity, ComparabilitySeverity::Note);
    }
}

TEST(Comparability, AV03RunOfAnotherFewShotCountIsNotComparable) {
    FP8DASH_REQUIRE_FIXTURE(v04Path, "llama3-8b-base_mmlu_v0.4.2.json");
    Json v03 = readJson(compatData("llama3-8b-base_mmlu_v0.3-format.json"));
    v03["config"]["num_fewshot"] = 0;  // one count for the whole v0.3 run
    auto r = compareEvals(fromJson(v03), fromFile(v04Path), {});
    ASSERT_FALSE(r);
    const std::string& e = r.error().message;
    EXPECT_NE(e.find("no task can be compared"), std::string::npos) << e;
    EXPECT_NE(e.find("not comparable: n-shot differs: baseline 0-shot, candidate 5-shot"), std::string::npos) << e;
    EXPECT_NE(e.find("--allow-incomparable"), std::string::npos) << e;
}

TEST(Comparability, RenamingTable) {
    EXPECT_EQ(v04TaskName("hendrycksTest-anatomy"), "mmlu_anatomy");
    EXPECT_EQ(v04TaskName("hendrycksTest-high_school_us_history"), "mmlu_high_school_us_history");
    EXPECT_EQ(v04TaskName("math_algebra"), "hendrycks_math_algebra");
    EXPECT_EQ(v04TaskName("math_asdiv"), "asdiv");
    EXPECT_EQ(v04TaskName("headqa"), "headqa_es");
    EXPECT_EQ(v04TaskName("squad2"), "squadv2");
    EXPECT_EQ(v04TaskName("hendrycksTest-"), std::nullopt);
    EXPECT_EQ(v04TaskName("gsm8k"), std::nullopt);
    EXPECT_EQ(v04TaskName("mmlu_anatomy"), std::nullopt);
}

TEST(Comparability, MapPairsTwoTasksByHand) {
    FP8DASH_REQUIRE_FIXTURE(path, "llama3-8b-instruct_gsm8k_v0.4.2.json");
    const LmEvalResults baseline = fromFile(path);
    Json renamed = readJson(path);
    renameInJson(renamed, "gsm8k", "gsm8k_cot_llama");
    const LmEvalResults candidate = fromJson(renamed);

    auto none = compareEvals(baseline, candidate, {});
    ASSERT_FALSE(none);
    EXPECT_NE(none.error().message.find("--map gsm8k=gsm8k_cot_llama"), std::string::npos) << none.error().message;

    ComparisonOptions mapped;
    mapped.taskMap.push_back({"gsm8k", "gsm8k_cot_llama"});
    // Paired, the two are the same run under two names: refused as such.
    auto same = compareEvals(baseline, candidate, mapped);
    ASSERT_FALSE(same);
    EXPECT_EQ(same.error().message.rfind(kIdenticalRunsMessage, 0), 0u) << same.error().message;

    mapped.allowIncomparable = true;
    auto r = compareEvals(baseline, candidate, mapped);
    ASSERT_TRUE(r) << r.error().message;
    ASSERT_EQ(r->tasks.size(), 1u);
    EXPECT_EQ(r->tasks[0].task, "gsm8k");
    const auto* note = item(r->comparability, "task name");
    ASSERT_NE(note, nullptr);
    EXPECT_EQ(note->baseline, "gsm8k");
    EXPECT_EQ(note->candidate, "gsm8k_cot_llama");
    EXPECT_EQ(note->severity, ComparabilitySeverity::Note);

    ComparisonOptions wrong;
    wrong.taskMap.push_back({"gsm8k", "gsm8k_cot"});
    auto bad = compareEvals(baseline, candidate, wrong);
    ASSERT_FALSE(bad);
    EXPECT_EQ(bad.error().message, "--map gsm8k=gsm8k_cot: the candidate has no task \"gsm8k_cot\"");
    wrong.taskMap = {{"gsm8k_cot_llama", "gsm8k"}};
    bad = compareEvals(baseline, candidate, wrong);
    ASSERT_FALSE(bad);
    EXPECT_EQ(bad.error().message,
              "--map gsm8k_cot_llama=gsm8k: the baseline has no task \"gsm8k_cot_llama\" (the candidate has one)");
}

// The task-pairing editor's lists: the tasks only one run has, and the pairs that share a stem (gsm8k and
// gsm8k_cot_llama), each task in one pair at most; a name shared by both runs, or one the v0.3 -> v0.4 renamings
// match, is not listed.
TEST(Comparability, UnmatchedTasksListsEachSideAndSuggestsPairsByStem) {
    FP8DASH_REQUIRE_FIXTURE(path, "llama3-8b-instruct_gsm8k_v0.4.2.json");
    const LmEvalResults baseline = fromFile(path);
    ASSERT_NE(baseline.task("gsm8k"), nullptr);
    EXPECT_TRUE(unmatchedTasks(baseline, baseline).baselineOnly.empty());

    Json renamed = readJson(path);
    renameInJson(renamed, "gsm8k", "gsm8k_cot_llama");
    const LmEvalResults candidate = fromJson(renamed);
    const UnmatchedTasks u = unmatchedTasks(baseline, candidate);
    EXPECT_EQ(u.baselineOnly, std::vector<std::string>{"gsm8k"});
    EXPECT_EQ(u.candidateOnly, std::vector<std::string>{"gsm8k_cot_llama"});
    ASSERT_EQ(u.suggested.size(), 1u);
    EXPECT_EQ(u.suggested[0], (TaskMapping{"gsm8k", "gsm8k_cot_llama"}));

    // A name sharing fewer than three characters is not suggested.
    Json unrelated = readJson(path);
    renameInJson(unrelated, "gsm8k", "gxx");
    const UnmatchedTasks none = unmatchedTasks(baseline, fromJson(unrelated));
    EXPECT_EQ(none.candidateOnly, std::vector<std::string>{"gxx"});
    EXPECT_TRUE(none.suggested.empty());
}

TEST(Comparability, MapParsing) {
    auto m = TaskMapping::parse(" gsm8k = gsm8k_cot_llama ");
    ASSERT_TRUE(m);
    EXPECT_EQ(m->baseline, "gsm8k");
    EXPECT_EQ(m->candidate, "gsm8k_cot_llama");
    EXPECT_EQ(m->toString(), "gsm8k=gsm8k_cot_llama");
    for (const char* bad : {"gsm8k", "=x", "x=", ""}) {
        auto r = TaskMapping::parse(bad);
        ASSERT_FALSE(r) << bad;
        EXPECT_NE(r.error().message.find("--map"), std::string::npos);
    }
}

// The qwen v0.4.12 file with settings edited in memory; one score moves so that the runs are not identical.
struct EditedPair {
    Json baseline;
    Json candidate;
    EditedPair() {
        baseline = readJson(test::testData() / "lm-eval-0.4.12/qwen2.5-7b_groups_v0.4.12.json");
        candidate = baseline;
        candidate["results"]["arc_easy"]["acc,none"] =
            candidate["results"]["arc_easy"]["acc,none"].get<double>() - 0.001;
    }
    Result<ComparisonReport> compare(ComparisonOptions o = {}) const {
        return compareEvals(fromJson(baseline, "b.json"), fromJson(candidate, "c.json"), o);
    }
};

TEST(Comparability, AChatTemplateInOneRunOnlyBlocksEveryTask) {
    EditedPair p;
    p.candidate["chat_template"] = "{{ messages }}";
    p.candidate["chat_template_sha"] = "5f2c";
    auto r = p.compare();
    ASSERT_FALSE(r);
    EXPECT_NE(r.error().message.find("apply_chat_template: baseline false, candidate true"), std::string::npos)
        << r.error().message;

    p.baseline["chat_template"] = "{{ other }}";
    p.baseline["chat_template_sha"] = "9a01";
    r = p.compare();
    ASSERT_FALSE(r);
    EXPECT_NE(r.error().message.find("chat_template_sha: baseline 9a01, candidate 5f2c"), std::string::npos)
        << r.error().message;
    ComparisonOptions allow;
    allow.allowIncomparable = true;
    r = p.compare(allow);
    ASSERT_TRUE(r) << r.error().message;
    const auto* sha = item(r->comparability, "chat_template_sha");
    ASSERT_NE(sha, nullptr);
    EXPECT_FALSE(sha->task.has_value());
    EXPECT_EQ(sha->severity, ComparabilitySeverity::Blocking);
}

TEST(Comparability, LimitAndGenerationSettingsBlockOnlyWhereTheyMatter) {
    EditedPair p;
    p.candidate["config"]["limit"] = 100;
    p.candidate["n-samples"]["arc_easy"]["effective"] = 100;
    p.candidate["config"]["gen_kwargs"] = {{"temperature", 0.6}};
    p.candidate["config"]["batch_size"] = "auto";
    auto r = p.compare();
    ASSERT_TRUE(r) << r.error().message;
    // The per-task sample counts decide: arc_easy ran on 100 samples, the other tasks ran whole in both.
    const long long whole = p.baseline["n-samples"]["arc_easy"]["effective"].get<long long>();
    const std::string samples =
        "the number of samples evaluated (n-samples.effective, set by --limit) differs: "
        "baseline " +
        std::to_string(whole) + ", candidate 100";
    const auto* effective = item(r->comparability, "n-samples.effective");
    ASSERT_NE(effective, nullptr);
    EXPECT_EQ(effective->task, std::optional<std::string>("arc_easy"));
    EXPECT_EQ(effective->message, samples);
    EXPECT_TRUE(compared(*r, "piqa"));
    const auto* limit = item(r->comparability, "config.limit");
    ASSERT_NE(limit, nullptr);
    EXPECT_EQ(limit->severity, ComparabilitySeverity::Note);
    // Every task here scores log-likelihoods, which --gen_kwargs does not touch.
    const auto* gen = item(r->comparability, "config.gen_kwargs");
    ASSERT_NE(gen, nullptr);
    EXPECT_EQ(gen->severity, ComparabilitySeverity::Note);
    const auto* batch = item(r->comparability, "config.batch_size");
    ASSERT_NE(batch, nullptr);
    EXPECT_EQ(batch->severity, ComparabilitySeverity::Note);
    EXPECT_EQ(batch->candidate, "auto");
    // The group arc holds arc_easy: it is not compared either.
    const MissingTask* group = missing(*r, "arc");
    ASSERT_NE(group, nullptr);
    EXPECT_EQ(group->reason, "not comparable: its subtask arc_easy: " + samples);
}

TEST(Comparability, SettingsSurviveTheComparisonFile) {
    EditedPair p;
    p.candidate["n-shot"]["piqa"] = 5;
    ComparisonOptions options;
    options.taskMap.push_back({"wnli", "wnli"});
    options.allowIncomparable = true;
    auto doc = makeComparisonDocument({"BF16", "b.json", fromJson(p.baseline, "b.json")},
                                      {"FP8", "c.json", fromJson(p.candidate, "c.json")}, options);
    auto before = doc.evaluate();
    ASSERT_TRUE(before) << before.error().message;
    test::TempDir dir;
    const auto file = dir.path() / "compat.fp8cmp";
    ASSERT_TRUE(saveComparisonFile(doc, file));
    auto loaded = loadComparisonFile(file);
    ASSERT_TRUE(loaded) << loaded.error().message;
    EXPECT_EQ(loaded->options, options);
    auto after = loaded->evaluate();
    ASSERT_TRUE(after) << after.error().message;
    EXPECT_EQ(after->comparability, before->comparability);
    const auto* nShot = item(after->comparability, "n-shot");
    ASSERT_NE(nShot, nullptr);
    EXPECT_EQ(nShot->task, std::optional<std::string>("piqa"));
    EXPECT_TRUE(compared(*after, "piqa"));  // allowed, as the file says
}

}  // namespace
}  // namespace fp8dash
