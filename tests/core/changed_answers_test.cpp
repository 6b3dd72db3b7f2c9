// The answers the candidate changed (ChangedAnswers, paired_task_result.h): lost / gained / unchanged per paired task,
// for the compared metric and filter, pooled over a group's subtasks, in the JSON, text and Markdown outputs, and the
// same after saving and reopening the comparison file. The lm-eval runs (results files and sample logs of a
// generative task with two filters and flips both ways, a group of two subtasks and a continuous-score task) are
// written by the test from a generated truth; every expected count is counted here from that truth.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <set>

#include "fp8dash/core/changed_answers.h"
#include "fp8dash/core/comparison_builder.h"
#include "fp8dash/core/comparison_file.h"
#include "fp8dash/core/number_format.h"
#include "fp8dash/core/paired_tasks.h"
#include "fp8dash/core/report_document.h"
#include "fp8dash/core/report_format.h"
#include "test_paths.h"

namespace fp8dash {
namespace {

namespace fs = std::filesystem;

// A deterministic pseudo-random stream (the generator's truth must be the same on every run).
struct Lcg {
    std::uint64_t s;
    double next() {
        s = s * 6364136223846793005ULL + 1442695040888963407ULL;
        return static_cast<double>(s >> 11) / 9007199254740992.0;
    }
};

// One task's per-document values on both sides, per filter.
struct TaskTruth {
    std::string metric;
    std::vector<std::string> filters;
    std::map<std::string, std::vector<double>> baseline, candidate;  // by filter
    std::map<std::string, std::vector<double>> candidate2;           // a third run: the candidate plus an FP8 KV cache
    const std::vector<double>& of(int run, const std::string& filter) const {
        return (run == 0 ? baseline : run == 1 ? candidate : candidate2).at(filter);
    }
};

struct Counts {
    std::uint64_t lost = 0, gained = 0, unchanged = 0;
};
// Counted from the truth, higher is better: lost = the value went down, gained = up.
Counts countOf(const std::vector<double>& b, const std::vector<double>& c) {
    Counts k;
    for (std::size_t i = 0; i < b.size(); ++i) {
        if (c[i] < b[i])
            ++k.lost;
        else if (c[i] > b[i])
            ++k.gained;
        else
            ++k.unchanged;
    }
    return k;
}

// 0/1 values with flips both ways: pLost of the right baseline answers go wrong, pGained of the wrong ones right.
void binaryValues(Lcg& r, std::size_t n, double pRight, double pLost, double pGained, std::vector<double>& b,
                  std::vector<double>& c) {
    for (std::size_t i = 0; i < n; ++i) {
        const double bv = r.next() < pRight ? 1.0 : 0.0;
        const double flip = r.next();
        const double cv = bv == 1.0 ? (flip < pLost ? 0.0 : 1.0) : (flip < pGained ? 1.0 : 0.0);
        b.push_back(bv);
        c.push_back(cv);
    }
}

std::map<std::string, TaskTruth> makeTruth() {
    Lcg r{20261205};
    std::map<std::string, TaskTruth> t;
    TaskTruth& gsm = t["gsm8k"];
    gsm.metric = "exact_match";
    gsm.filters = {"strict-match", "flexible-extract"};
    binaryValues(r, 410, 0.7, 0.08, 0.12, gsm.baseline["strict-match"], gsm.candidate["strict-match"]);
    binaryValues(r, 410, 0.8, 0.03, 0.30, gsm.baseline["flexible-extract"], gsm.candidate["flexible-extract"]);
    for (const char* sub : {"grp_a", "grp_b"}) {
        TaskTruth& s = t[sub];
        s.metric = "acc";
        s.filters = {"none"};
        binaryValues(r, sub[4] == 'a' ? 150 : 170, 0.6, 0.1, 0.15, s.baseline["none"], s.candidate["none"]);
    }
    TaskTruth& drop = t["drop"];  // a per-document F1: moves both ways, many documents equal
    drop.metric = "f1";
    drop.filters = {"none"};
    for (int i = 0; i < 320; ++i) {
        const double b = std::round(r.next() * 20) / 20;
        const double u = r.next();
        const double c = u < 0.5 ? b : u < 0.8 ? std::max(0.0, b - 0.25) : std::min(1.0, b + 0.2);
        drop.baseline["none"].push_back(b);
        drop.candidate["none"].push_back(c);
    }
    // The third run: the candidate's values with about one in seven moved (0/1 flipped, F1 moved by 0.1).
    for (auto& [task, tt] : t)
        for (const auto& [filter, values] : tt.candidate) {
            auto& v2 = tt.candidate2[filter];
            for (double v : values) {
                const bool move = r.next() < 0.15;
                v2.push_back(!move ? v : tt.metric == "f1" ? (v >= 0.5 ? v - 0.1 : v + 0.1) : 1.0 - v);
            }
        }
    return t;
}

double mean(const std::vector<double>& v) {
    double s = 0;
    for (double x : v) s += x;
    return s / static_cast<double>(v.size());
}

// The texts the generator writes, so that the examples can be checked against them.
std::string questionText(const std::string& task, std::size_t i) {
    return "Question " + std::to_string(i) + " of " + task + ": how many apples are left?";
}
// A run's raw response differs per run and per document; the filtered answer per value and filter (the two filters'
// rows of one document differ, so an example taken from the wrong filter's row shows).
std::string responseText(const std::string& task, std::size_t i, int run) {
    return "Run " + std::to_string(run) + " reasons about " + task + " document " + std::to_string(i) +
           " step by step. The answer is " + std::to_string(40 + (i + run) % 3) + ".";
}
std::string answerText(double v, const std::string& filter) {
    return (v == 1.0 ? std::string("42") : v == 0.0 ? std::string("41") : numfmt::general(v, 6)) + " [" + filter + "]";
}

// Writes one run (results file and sample logs, lm-eval's newer layout) and returns the results file.
fs::path writeRun(const test::TempDir& dir, const std::string& name, int run,
                  const std::map<std::string, TaskTruth>& truth) {
    const bool candidate = run > 0;
    const std::string date = "2026-12-05T1" + std::to_string(run) + "-00-00.000001";
    Json results = Json::object(), configs = Json::object(), hib = Json::object(), nSamples = Json::object();
    for (const auto& [task, tt] : truth) {
        Json row{{"alias", task}};
        Json filterList = Json::array();
        for (const auto& f : tt.filters) {
            const auto& v = tt.of(run, f);
            row[tt.metric + "," + f] = mean(v);
            row[tt.metric + "_stderr," + f] = 0.02;
            filterList.push_back({{"name", f}, {"filter", Json::array({{{"function", "take_first"}}})}});
        }
        results[task] = row;
        Json cfg{{"task", task}, {"output_type", tt.metric == "acc" ? "multiple_choice" : "generate_until"}};
        if (tt.filters.front() != "none") cfg["filter_list"] = filterList;
        configs[task] = cfg;
        hib[task] = {{tt.metric, true}};
        const auto n = tt.baseline.at(tt.filters.front()).size();
        nSamples[task] = {{"original", n}, {"effective", n}};

        std::string log;
        for (std::size_t i = 0; i < n; ++i)
            for (const auto& f : tt.filters) {
                const double v = tt.of(run, f)[i];
                Json line{{"doc_id", i}, {"doc", {{"question", questionText(task, i)}}}};
                if (tt.metric == "acc") {  // multiple choice: four log-likelihood requests, the target an index
                    const int chosen = v > 0.5 ? 2 : static_cast<int>(i % 2);
                    Json args = Json::object(), resps = Json::array(), filtered = Json::array();
                    for (int k = 0; k < 4; ++k) {
                        args["gen_args_" + std::to_string(k)] = {{"arg_0", "Q: " + questionText(task, i) + "\nA:"},
                                                                 {"arg_1", " choice " + std::to_string(k)}};
                        const std::string ll = std::string("(") + (k == chosen ? "-0.5" : "-3.25") + ", False)";
                        resps.push_back(Json::array({ll}));
                        filtered.push_back(ll);
                    }
                    line["arguments"] = args;
                    line["target"] = "2";
                    line["resps"] = resps;
                    line["filtered_resps"] = filtered;
                } else {
                    line["arguments"] = {{"gen_args_0",
                                          {{"arg_0", "Q: " + questionText(task, i) + "\nA:"},
                                           {"arg_1", {{"until", Json::array({"\n\n"})}}}}}};
                    line["target"] = "42";
                    line["resps"] = Json::array({Json::array({responseText(task, i, run)})});
                    line["filtered_resps"] = Json::array({answerText(v, f)});
                }
                line["filter"] = f;
                line["metrics"] = Json::array({tt.metric});
                line["doc_hash"] = "d" + task + std::to_string(i);
                line["prompt_hash"] = "p" + task + std::to_string(i);
                line[tt.metric] = v;
                log += line.dump() + "\n";
            }
        dir.write(name + "/samples_" + task + "_" + date + ".jsonl", log);
    }
    // The group: lm-eval's size-weighted score over both subtasks.
    std::vector<double> pooled =
        candidate ? truth.at("grp_a").candidate.at("none") : truth.at("grp_a").baseline.at("none");
    const auto& bv = candidate ? truth.at("grp_b").candidate.at("none") : truth.at("grp_b").baseline.at("none");
    pooled.insert(pooled.end(), bv.begin(), bv.end());
    results["grp"] = {{"alias", "grp"}, {"acc,none", mean(pooled)}, {"acc_stderr,none", 0.02}};
    hib["grp"] = {{"acc", true}};
    Json file{{"results", results},
              {"groups", {{"grp", results["grp"]}}},
              {"group_subtasks", {{"grp", {"grp_a", "grp_b"}}}},
              {"configs", configs},
              {"higher_is_better", hib},
              {"n-samples", nSamples},
              {"config",
               {{"model", "vllm"},
                {"model_args", run == 0   ? "pretrained=org/Model-8B"
                               : run == 1 ? "pretrained=org/Model-8B,quantization=fp8"
                                          : "pretrained=org/Model-8B,quantization=fp8,kv_cache_dtype=fp8"}}},
              {"model_name", "org/Model-8B"},
              {"lm_eval_version", "0.4.9"},
              {"date", 1796464800.0 + 3600.0 * run}};
    return dir.write(name + "/results_" + date + ".json", file.dump(1));
}

const TaskComparison* findTask(const ComparisonReport& r, const std::string& name) {
    for (const auto& t : r.tasks)
        if (t.task == name) return &t;
    return nullptr;
}

std::string pct1(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f", v);
    return buf;
}

// The sentence, built here from the counts: "FP8 changed 6.1 % of the answers: 4.4 % lost, 1.7 % gained (net −2.6 %".
std::string expectedSentenceStart(const Counts& k, const std::string& label) {
    const double n = static_cast<double>(k.lost + k.gained + k.unchanged);
    const double net = (static_cast<double>(k.gained) - static_cast<double>(k.lost)) * 100 / n;
    std::string netText = pct1(std::fabs(net));
    netText = netText == "0.0" ? netText : (net < 0 ? "−" : "+") + netText;
    return label + " changed " + pct1((k.lost + k.gained) * 100 / n) + " % of the answers: " + pct1(k.lost * 100 / n) +
           " % lost, " + pct1(k.gained * 100 / n) + " % gained (net " + netText + " %";
}

class ChangedAnswersTest : public ::testing::Test {
protected:
    void SetUp() override {
        truth = makeTruth();
        ComparisonInputs in;
        in.baselinePath = writeRun(dir, "bf16", 0, truth);
        in.candidatePath = writeRun(dir, "fp8", 1, truth);
        in.options.allowIncomparable = true;
        auto b = buildComparison(in);
        ASSERT_TRUE(b.ok()) << b.error().message;
        built = std::move(*b);
        ASSERT_TRUE(built.decision.evals.has_value());
    }
    // The truth's counts for the filter the comparison chose for the task.
    Counts expected(const ComparisonReport& r, const std::string& task) {
        const TaskComparison* t = findTask(r, task);
        EXPECT_NE(t, nullptr) << task;
        const TaskTruth& tt = truth.at(task);
        const std::string filter = t && !t->filter.empty() ? t->filter : tt.filters.front();
        return countOf(tt.baseline.at(filter), tt.candidate.at(filter));
    }
    void expectCounts(const ComparisonReport& r, const std::string& task, const Counts& k) {
        const TaskComparison* t = findTask(r, task);
        ASSERT_NE(t, nullptr) << task;
        ASSERT_TRUE(t->paired.has_value()) << task;
        ASSERT_TRUE(t->paired->changed.has_value()) << task;
        EXPECT_EQ(t->paired->changed->lost, k.lost) << task;
        EXPECT_EQ(t->paired->changed->gained, k.gained) << task;
        EXPECT_EQ(t->paired->changed->unchanged, k.unchanged) << task;
        EXPECT_EQ(t->paired->n, k.lost + k.gained + k.unchanged) << task;
    }

    test::TempDir dir;
    std::map<std::string, TaskTruth> truth;
    BuiltComparison built;
};

TEST_F(ChangedAnswersTest, CountsEqualTheTruthForTheComparedFilter) {
    const ComparisonReport& r = *built.decision.evals;
    const Counts gsm = expected(r, "gsm8k");
    expectCounts(r, "gsm8k", gsm);
    // The two filters flip differently, so counting the other filter would fail.
    const TaskComparison* t = findTask(r, "gsm8k");
    ASSERT_NE(t, nullptr);
    const std::string other = t->filter == "strict-match" ? "flexible-extract" : "strict-match";
    const Counts wrong = countOf(truth.at("gsm8k").baseline.at(other), truth.at("gsm8k").candidate.at(other));
    EXPECT_NE(wrong.lost * 1000 + wrong.gained, gsm.lost * 1000 + gsm.gained);
    EXPECT_GT(gsm.lost, 0u);
    EXPECT_GT(gsm.gained, 0u);
    // 0/1: the counts are McNemar's discordant pairs.
    EXPECT_EQ(t->paired->b10, gsm.lost);
    EXPECT_EQ(t->paired->b01, gsm.gained);

    // A metric that is not 0/1: documents whose value went down / up / stayed.
    const Counts drop = expected(r, "drop");
    EXPECT_GT(drop.lost, 0u);
    EXPECT_GT(drop.gained, 0u);
    EXPECT_GT(drop.unchanged, 0u);
    expectCounts(r, "drop", drop);
}

TEST_F(ChangedAnswersTest, AGroupPoolsItsSubtasksCounts) {
    const ComparisonReport& r = *built.decision.evals;
    const Counts a = countOf(truth.at("grp_a").baseline.at("none"), truth.at("grp_a").candidate.at("none"));
    const Counts b = countOf(truth.at("grp_b").baseline.at("none"), truth.at("grp_b").candidate.at("none"));
    expectCounts(r, "grp", Counts{a.lost + b.lost, a.gained + b.gained, a.unchanged + b.unchanged});
}

TEST_F(ChangedAnswersTest, JsonTextAndMarkdownCarryTheCounts) {
    const ComparisonReport& r = *built.decision.evals;
    const Json j = reportToJson(r);
    std::size_t seen = 0;
    for (const auto& task : j["tasks"]) {
        const std::string name = task["task"].get<std::string>();
        if (!truth.count(name) && name != "grp") continue;
        ASSERT_TRUE(task.contains("changed_answers")) << name;
        const Json& c = task["changed_answers"];
        ASSERT_TRUE(c.is_object()) << name;
        Counts k;
        if (name == "grp") {
            const Counts a = countOf(truth.at("grp_a").baseline.at("none"), truth.at("grp_a").candidate.at("none"));
            const Counts b = countOf(truth.at("grp_b").baseline.at("none"), truth.at("grp_b").candidate.at("none"));
            k = Counts{a.lost + b.lost, a.gained + b.gained, a.unchanged + b.unchanged};
        } else {
            k = expected(r, name);
        }
        const std::uint64_t n = k.lost + k.gained + k.unchanged;
        EXPECT_EQ(c["lost"].get<std::uint64_t>(), k.lost) << name;
        EXPECT_EQ(c["gained"].get<std::uint64_t>(), k.gained) << name;
        EXPECT_EQ(c["unchanged"].get<std::uint64_t>(), k.unchanged) << name;
        EXPECT_EQ(c["n"].get<std::uint64_t>(), n) << name;
        EXPECT_NEAR(c["rate_pct"].get<double>(), 100.0 * static_cast<double>(k.lost + k.gained) / n, 1e-9) << name;
        EXPECT_EQ(c["filter"].get<std::string>(), findTask(r, name)->filter) << name;
        // Every changed document is listed (fewer than the default 200 changed): as the examples test checks them.
        ASSERT_TRUE(c["examples"].is_array()) << name;
        EXPECT_EQ(c["examples"].size(), k.lost + k.gained) << name;
        EXPECT_EQ(c["examples_limit"].get<std::uint64_t>(), kDefaultAnswerExamples) << name;
        ++seen;
    }
    EXPECT_EQ(seen, 3u);  // gsm8k, grp, drop (the subtasks are under grp)

    const std::string sentence = expectedSentenceStart(expected(r, "gsm8k"), "FP8");
    EXPECT_NE(reportToText(r).find(sentence), std::string::npos) << sentence << "\n" << reportToText(r);
    // Markdown escapes nothing in it but keeps it whole on one bullet.
    EXPECT_NE(reportToMarkdown(r).find("- gsm8k: " + sentence), std::string::npos) << reportToMarkdown(r);
}

TEST_F(ChangedAnswersTest, TheSameAfterSavingAndReopening) {
    const ComparisonReport& before = *built.decision.evals;
    auto reopened = parseComparisonText(toJson(built.document).dump(), "saved.fp8cmp");
    ASSERT_TRUE(reopened.ok()) << reopened.error().message;
    auto r = reopened->evaluate();
    ASSERT_TRUE(r.ok()) << r.error().message;
    expectCounts(*r, "gsm8k", expected(before, "gsm8k"));
    expectCounts(*r, "drop", expected(before, "drop"));
    const Counts a = countOf(truth.at("grp_a").baseline.at("none"), truth.at("grp_a").candidate.at("none"));
    const Counts b = countOf(truth.at("grp_b").baseline.at("none"), truth.at("grp_b").candidate.at("none"));
    expectCounts(*r, "grp", Counts{a.lost + b.lost, a.gained + b.gained, a.unchanged + b.unchanged});

    // `report` on the saved file: every format states the line.
    auto decision = decide(*reopened);
    ASSERT_TRUE(decision.ok()) << decision.error().message;
    const std::string sentence = expectedSentenceStart(expected(before, "gsm8k"), "FP8");
    EXPECT_NE(reportToPlainText(*reopened, *decision).find(sentence), std::string::npos);
    EXPECT_NE(reportToMarkdownDocument(*reopened, *decision, {}).find(sentence), std::string::npos);
    EXPECT_NE(reportToHtml(*reopened, *decision, {}).find(sentence), std::string::npos);
    const Json j = comparisonToJson(*reopened, *decision);
    EXPECT_NE(j.dump().find("\"changed_answers\":{\"filter\""), std::string::npos);
}

TEST_F(ChangedAnswersTest, AnOlderFileWithoutTheCountsDerivesThemFromTheDiscordantPairs) {
    Json saved = toJson(built.document);
    ASSERT_TRUE(saved.contains("paired"));
    for (auto& [task, p] : saved["paired"].items()) {
        ASSERT_TRUE(p.contains("lost")) << task;
        p.erase("lost");
        p.erase("gained");
        p.erase("unchanged");
    }
    auto reopened = parseComparisonText(saved.dump(), "old.fp8cmp");
    ASSERT_TRUE(reopened.ok()) << reopened.error().message;
    auto r = reopened->evaluate();
    ASSERT_TRUE(r.ok()) << r.error().message;
    expectCounts(*r, "gsm8k", expected(*built.decision.evals, "gsm8k"));  // 0/1: from [b01, b10]
    const TaskComparison* drop = findTask(*r, "drop");
    ASSERT_NE(drop, nullptr);
    ASSERT_TRUE(drop->paired.has_value());
    EXPECT_FALSE(drop->paired->changed.has_value());  // not 0/1, not stored: unknown, not zero
    const Json json = reportToJson(*r);               // kept: a range over a member of a temporary would outlive it
    for (const auto& task : json["tasks"])
        if (task["task"] == "drop") {
            EXPECT_TRUE(task["changed_answers"].is_null());
        }
}

TEST_F(ChangedAnswersTest, CountsThatDoNotAddUpToNAreAnErrorNamingTheField) {
    Json saved = toJson(built.document);
    saved["paired"]["gsm8k"]["lost"] = saved["paired"]["gsm8k"]["lost"].get<std::uint64_t>() + 1;
    auto reopened = parseComparisonText(saved.dump(), "bad.fp8cmp");
    ASSERT_FALSE(reopened.ok());
    EXPECT_NE(reopened.error().message.find("bad.fp8cmp"), std::string::npos) << reopened.error().message;
    EXPECT_NE(reopened.error().message.find("lost + gained + unchanged must equal n"), std::string::npos)
        << reopened.error().message;
}

// Several candidates: each variant against the baseline, and the layer step between the two candidates (adding the
// FP8 KV cache), get their own counts, in the JSON and the text.
TEST_F(ChangedAnswersTest, EveryVariantAndLayerStepHasItsCounts) {
    ComparisonInputs in;
    in.baselinePath = writeRun(dir, "bf16", 0, truth);
    in.candidatePath = writeRun(dir, "fp8", 1, truth);
    in.moreCandidatePaths = {writeRun(dir, "fp8kv", 2, truth)};
    in.labels = {"BF16", "FP8 W8", "FP8 W8 KV"};
    in.options.allowIncomparable = true;
    auto b = buildComparison(in);
    ASSERT_TRUE(b.ok()) << b.error().message;
    ASSERT_TRUE(b->decision.variants.has_value());
    const VariantComparison& v = *b->decision.variants;
    ASSERT_EQ(v.variants.size(), 2u);
    for (int run = 1; run <= 2; ++run) {
        const ComparisonReport& r = v.variants[run - 1].report;
        const TaskComparison* t = findTask(r, "gsm8k");
        ASSERT_NE(t, nullptr);
        const auto& tt = truth.at("gsm8k");
        expectCounts(r, "gsm8k", countOf(tt.of(0, t->filter), tt.of(run, t->filter)));
        const Counts drop = countOf(truth.at("drop").of(0, "none"), truth.at("drop").of(run, "none"));
        expectCounts(r, "drop", drop);
    }
    const auto found = std::find_if(v.steps.begin(), v.steps.end(), [](const LayerStep& s) {
        return s.fromLabel == "FP8 W8" && s.toLabel == "FP8 W8 KV";
    });
    ASSERT_NE(found, v.steps.end()) << "no step adding the FP8 KV cache";
    const LayerStep& step = *found;
    const std::size_t stepIndex = static_cast<std::size_t>(found - v.steps.begin());
    const Json j = variantsToJson(v);
    const std::string text = variantsToText(v);
    for (const LayerStepTask& st : step.tasks) {
        if (st.task != "gsm8k" && st.task != "drop") continue;
        const TaskComparison* t = findTask(step.report, st.task);
        ASSERT_NE(t, nullptr);
        const Counts k = countOf(truth.at(st.task).of(1, t->filter), truth.at(st.task).of(2, t->filter));
        ASSERT_TRUE(st.changed.has_value()) << st.task;
        EXPECT_EQ(st.changed->lost, k.lost) << st.task;
        EXPECT_EQ(st.changed->gained, k.gained) << st.task;
        EXPECT_EQ(st.changed->unchanged, k.unchanged) << st.task;
        EXPECT_NE(text.find(expectedSentenceStart(k, "FP8 W8 KV")), std::string::npos) << text;
        bool inJson = false;
        for (const auto& jt : j["steps"][stepIndex]["tasks"])
            if (jt["task"] == st.task) {
                inJson = true;
                EXPECT_EQ(jt["changed_answers"]["lost"].get<std::uint64_t>(), k.lost);
                EXPECT_EQ(jt["changed_answers"]["gained"].get<std::uint64_t>(), k.gained);
            }
        EXPECT_TRUE(inJson) << st.task;
    }
}

// The documents themselves: every listed one is a real change of the kind it says, with both sides' texts as the
// logs have them for the compared filter; the set is every changed document (fewer than the limit), the lost first.
class ChangedExamplesTest : public ChangedAnswersTest {
protected:
    struct Change {
        std::string subtask;
        long long docId;
        bool lost;
        double bv, cv;
    };
    // The truth's changed documents of a task (or a group's subtasks) for the compared filter.
    std::vector<Change> changesOf(const std::string& task, const std::string& filter) {
        std::vector<Change> out;
        const std::vector<std::string> parts =
            task == "grp" ? std::vector<std::string>{"grp_a", "grp_b"} : std::vector<std::string>{task};
        for (const auto& part : parts) {
            const auto& b = truth.at(part).baseline.at(filter);
            const auto& c = truth.at(part).candidate.at(filter);
            for (std::size_t i = 0; i < b.size(); ++i)
                if (b[i] != c[i])
                    out.push_back({task == "grp" ? part : "", static_cast<long long>(i), c[i] < b[i], b[i], c[i]});
        }
        return out;
    }
    void expectExamples(const PairedTaskResult& p, const std::string& task, std::uint64_t limit) {
        SCOPED_TRACE(task);
        const auto truthChanges = changesOf(task, p.filter);
        std::size_t lost = 0;
        for (const auto& c : truthChanges) lost += c.lost;
        ASSERT_EQ(p.examplesLimit, std::optional<std::uint64_t>(limit));
        ASSERT_EQ(p.examples.size(), std::min<std::size_t>(limit, truthChanges.size()));
        // The lost first: as many lost as there are or as fit.
        const std::size_t lostShown = std::min<std::size_t>(lost, limit);
        for (std::size_t k = 0; k < p.examples.size(); ++k) EXPECT_EQ(p.examples[k].lost, k < lostShown) << k;
        std::set<std::pair<std::string, long long>> seen;
        for (const auto& e : p.examples) {
            SCOPED_TRACE("doc " + std::to_string(e.docId) + " " + e.subtask);
            EXPECT_TRUE(seen.insert({e.subtask, e.docId}).second);
            const auto it = std::find_if(truthChanges.begin(), truthChanges.end(),
                                         [&](const Change& c) { return c.subtask == e.subtask && c.docId == e.docId; });
            ASSERT_NE(it, truthChanges.end()) << "not a changed document";
            EXPECT_EQ(e.lost, it->lost);
            EXPECT_EQ(e.baseline.value, it->bv);
            EXPECT_EQ(e.candidate.value, it->cv);
            const std::string part = e.subtask.empty() ? task : e.subtask;
            const auto i = static_cast<std::size_t>(e.docId);
            EXPECT_EQ(e.question, questionText(part, i));
            if (task == "grp") {  // multiple choice: the chosen continuation, the target's choice named
                EXPECT_EQ(e.target, "2: choice 2");
                const auto chosen = [&](double v) { return v > 0.5 ? 2 : static_cast<int>(i % 2); };
                for (const auto& [side, v] : {std::pair{&e.baseline, it->bv}, std::pair{&e.candidate, it->cv}}) {
                    const int k = chosen(v);
                    EXPECT_EQ(side->answer,
                              std::to_string(k) + ": choice " + std::to_string(k) + " (highest log-likelihood, -0.5)");
                    std::string lls = "log-likelihood per choice:";
                    for (int c = 0; c < 4; ++c)
                        lls += std::string(c ? ", " : " ") + std::to_string(c) + ": " + (c == k ? "-0.5" : "-3.25");
                    EXPECT_EQ(side->response, lls);
                }
            } else {
                EXPECT_EQ(e.target, "42");
                EXPECT_EQ(e.baseline.answer, answerText(it->bv, p.filter));
                EXPECT_EQ(e.candidate.answer, answerText(it->cv, p.filter));
                EXPECT_EQ(e.baseline.response, responseText(part, i, 0));
                EXPECT_EQ(e.candidate.response, responseText(part, i, 1));
            }
        }
    }
    const PairedTaskResult& pairedOf(const ComparisonReport& r, const std::string& task) {
        const TaskComparison* t = findTask(r, task);
        EXPECT_TRUE(t && t->paired) << task;
        return *t->paired;
    }
};

TEST_F(ChangedExamplesTest, EveryChangedDocumentIsListedWithBothSidesTextsFromTheComparedFilter) {
    const ComparisonReport& r = *built.decision.evals;
    for (const char* task : {"gsm8k", "grp", "drop"}) expectExamples(pairedOf(r, task), task, kDefaultAnswerExamples);
    // The 0/1 task in doc_id order within each kind; a group's subtasks taken in turn.
    const auto& gsm = pairedOf(r, "gsm8k").examples;
    for (std::size_t k = 1; k < gsm.size(); ++k)
        if (gsm[k].lost == gsm[k - 1].lost) EXPECT_LT(gsm[k - 1].docId, gsm[k].docId);
    const auto& grp = pairedOf(r, "grp").examples;
    ASSERT_GE(grp.size(), 2u);
    EXPECT_EQ(grp[0].subtask, "grp_a");
    EXPECT_EQ(grp[1].subtask, "grp_b");
    // A metric that is not 0/1: the documents that moved most first.
    const auto& drop = pairedOf(r, "drop").examples;
    for (std::size_t k = 1; k < drop.size(); ++k)
        if (drop[k].lost == drop[k - 1].lost)
            EXPECT_GE(std::fabs(drop[k - 1].candidate.value - drop[k - 1].baseline.value),
                      std::fabs(drop[k].candidate.value - drop[k].baseline.value));
}

TEST_F(ChangedExamplesTest, TheLimitKeepsTheFirstLostAndZeroKeepsOnlyTheCounts) {
    for (std::uint64_t limit : {std::uint64_t{5}, std::uint64_t{0}}) {
        ComparisonInputs in;
        in.baselinePath = dir.path() / "bf16" / "results_2026-12-05T10-00-00.000001.json";
        in.candidatePath = dir.path() / "fp8" / "results_2026-12-05T11-00-00.000001.json";
        in.options.allowIncomparable = true;
        in.answerExamples = limit;
        auto b = buildComparison(in);
        ASSERT_TRUE(b.ok()) << b.error().message;
        const ComparisonReport& r = *b->decision.evals;
        for (const char* task : {"gsm8k", "grp", "drop"}) expectExamples(pairedOf(r, task), task, limit);
        if (limit == 5) {  // the 5 lowest doc_ids of the lost ones
            std::vector<long long> lostIds;
            for (const auto& c : changesOf("gsm8k", pairedOf(r, "gsm8k").filter))
                if (c.lost) lostIds.push_back(c.docId);
            ASSERT_GE(lostIds.size(), 5u);
            for (std::size_t k = 0; k < 5; ++k) EXPECT_EQ(pairedOf(r, "gsm8k").examples[k].docId, lostIds[k]);
        }
        const auto held = answerExamplesHeld(b->document);
        EXPECT_EQ(held.countsOnly, limit == 0);
        EXPECT_EQ(held.examples, limit == 0 ? 0u : 15u);
        EXPECT_NE(answerExamplesNotice(held).find(limit == 0 ? "only the counts" : "includes 15 changed answers"),
                  std::string::npos);
        // The file records which: a counts-only file reopens as counts only.
        auto reopened = parseComparisonText(toJson(b->document).dump(), "saved.fp8cmp");
        ASSERT_TRUE(reopened.ok()) << reopened.error().message;
        EXPECT_EQ(answerExamplesHeld(*reopened).countsOnly, limit == 0);
        EXPECT_EQ(answerExamplesHeld(*reopened).limit, std::optional<std::uint64_t>(limit));
    }
}

TEST_F(ChangedExamplesTest, TheSameAfterSavingAndReopening) {
    const std::string saved = toJson(built.document).dump();
    auto reopened = parseComparisonText(saved, "saved.fp8cmp");
    ASSERT_TRUE(reopened.ok()) << reopened.error().message;
    auto r = reopened->evaluate();
    ASSERT_TRUE(r.ok()) << r.error().message;
    for (const char* task : {"gsm8k", "grp", "drop"}) expectExamples(pairedOf(*r, task), task, kDefaultAnswerExamples);
    // Saved again, byte for byte the same.
    EXPECT_EQ(toJson(*reopened).dump(), saved);
    // Dropping them keeps the counts and records limit 0.
    ComparisonDocument doc = std::move(reopened).value();
    dropAnswerExamples(doc);
    auto again = parseComparisonText(toJson(doc).dump(), "saved.fp8cmp");
    ASSERT_TRUE(again.ok()) << again.error().message;
    EXPECT_TRUE(answerExamplesHeld(*again).countsOnly);
    auto r2 = again->evaluate();
    ASSERT_TRUE(r2.ok());
    expectCounts(*r2, "gsm8k", expected(*r, "gsm8k"));
    EXPECT_TRUE(pairedOf(*r2, "gsm8k").examples.empty());
}

TEST_F(ChangedExamplesTest, AHandEditedExampleWithAWrongFieldIsAnErrorNamingIt) {
    Json j = toJson(built.document);
    j["paired"]["gsm8k"]["examples"][0]["baseline"]["value"] = "high";
    auto bad = parseComparisonText(j.dump(), "saved.fp8cmp");
    ASSERT_FALSE(bad.ok());
    EXPECT_NE(bad.error().message.find("saved.fp8cmp"), std::string::npos) << bad.error().message;
    EXPECT_NE(bad.error().message.find("examples[0]"), std::string::npos) << bad.error().message;
    EXPECT_NE(bad.error().message.find("baseline.value"), std::string::npos) << bad.error().message;
    j = toJson(built.document);
    j["paired"]["gsm8k"]["examples"][1]["kind"] = "flipped";
    bad = parseComparisonText(j.dump(), "saved.fp8cmp");
    ASSERT_FALSE(bad.ok());
    EXPECT_NE(bad.error().message.find("kind"), std::string::npos) << bad.error().message;
    // A 1 MB answer in a hand-made file is held to its cut.
    j = toJson(built.document);
    j["paired"]["gsm8k"]["examples"][0]["candidate"]["response"] = std::string(1 << 20, 'x');
    auto big = parseComparisonText(j.dump(), "saved.fp8cmp");
    ASSERT_TRUE(big.ok()) << big.error().message;
    const auto& e = big->paired.at("gsm8k").examples[0];
    EXPECT_LT(e.candidate.response.size(), kAnswerTextBytes + 64);
    EXPECT_NE(e.candidate.response.find("[cut: 1,048,576 bytes in all]"), std::string::npos);
}

TEST(ChangedAnswersSentence, NetNeverReadsMinusZeroAndNoChangeSaysSo) {
    fp8dash::ChangedAnswers c;
    c.lost = 1;
    c.gained = 0;
    c.unchanged = 99999;  // net -0.001 %: rounds to zero, written without a sign
    const std::string s = changedAnswersSentence(c, "FP8 W8A8");
    EXPECT_EQ(s.find("−0.0"), std::string::npos) << s;
    EXPECT_EQ(s.find("-0.0"), std::string::npos) << s;
    EXPECT_NE(s.find("(net 0.0 %"), std::string::npos) << s;
    EXPECT_EQ(s.rfind("FP8 W8A8 changed ", 0), 0u) << s;
    fp8dash::ChangedAnswers none;
    none.unchanged = 1200;
    EXPECT_EQ(changedAnswersSentence(none, "FP8"), "FP8 changed none of the 1,200 answers");
}

}  // namespace
}  // namespace fp8dash
