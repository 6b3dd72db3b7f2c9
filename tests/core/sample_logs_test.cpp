// Finding and reading lm-eval per-sample logs. Fixtures: tests/data/lm-eval-samples (make_samples.py; expected.json
// holds values computed there from the construction, not by reading the files back).
#include "fp8dash/core/sample_logs.h"

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <map>
#include <sstream>

#include "test_paths.h"

namespace fp8dash {
namespace {

namespace fs = std::filesystem;
using test::TempDir;

const char* const kBf16Date = "2026-08-21T10-15-30.123456";
const char* const kBf16OldDate = "2026-08-20T09-00-00.000001";
const char* const kFp8Date = "2026-08-21T14-02-11.654321";
const char* const kStaleDate = "2026-08-19T08-00-00.000001";

fs::path samplesDir() {
    return test::testData() / "lm-eval-samples";
}
fs::path newBf16() {
    return samplesDir() / "new-layout/bf16/meta-llama__Llama-3.1-8B-Instruct";
}
fs::path newFp8() {
    return samplesDir() / "new-layout/fp8/RedHatAI__Llama-3.1-8B-Instruct-FP8-dynamic";
}
fs::path oldBf16() {
    return samplesDir() / "old-layout/bf16/meta-llama__Llama-3.1-8B-Instruct";
}

nlohmann::json expected() {
    std::ifstream in(samplesDir() / "expected.json");
    return nlohmann::json::parse(in);
}

bool anyContains(const std::vector<std::string>& items, const std::string& part) {
    for (const auto& s : items)
        if (s.find(part) != std::string::npos) return true;
    return false;
}

double meanOf(const SampleLog& log, const std::string& filter, const std::string& metric) {
    double sum = 0;
    int n = 0;
    for (const auto* r : log.rowsFor(filter)) {
        const double* v = r->value(metric);
        EXPECT_NE(v, nullptr) << "line " << r->line;
        if (v) sum += *v, ++n;
    }
    return n ? sum / n : -1;
}

SampleTaskInfo info(std::string task, std::vector<std::string> filters) {
    SampleTaskInfo i;
    i.task = std::move(task);
    i.filters = std::move(filters);
    i.filtersFromConfig = true;
    return i;
}

TEST(SampleLogs, DateIdOfFileName) {
    EXPECT_EQ(dateIdOfFileName("results_2026-08-21T10-15-30.123456.json"), "2026-08-21T10-15-30.123456");
    EXPECT_EQ(dateIdOfFileName("samples_arc_challenge_2026-08-21T10-15-30.123456.jsonl"), "2026-08-21T10-15-30.123456");
    EXPECT_EQ(dateIdOfFileName("samples_gsm8k_2026-08-21T10-15-30.jsonl"), "2026-08-21T10-15-30");
    EXPECT_EQ(dateIdOfFileName("results.json"), "");
    EXPECT_EQ(dateIdOfFileName("results_latest.json"), "");
    EXPECT_EQ(dateIdOfFileName("results_2026-08-21 10:15:30.json"), "");
    EXPECT_EQ(dateIdOfFileName("results_2026-08-21T10-15-30..json"), "");
}

TEST(SampleLogs, FolderPicksTheNewestResultsAndItsLogs) {
    auto index = findSampleLogsForRunPath(newBf16().parent_path());  // the model sub-folder is found
    ASSERT_TRUE(index.ok()) << index.error().message;
    EXPECT_EQ(index->resultsFile.filename().string(), std::string("results_") + kBf16Date + ".json");
    EXPECT_EQ(index->dateId, kBf16Date);
    ASSERT_EQ(index->files.size(), 3u);
    EXPECT_EQ(index->files[0].task, "arc_challenge");
    EXPECT_EQ(index->files[1].task, "drop");
    EXPECT_EQ(index->files[2].task, "gsm8k");
    EXPECT_EQ(index->files[2].path.filename().string(), std::string("samples_gsm8k_") + kBf16Date + ".jsonl");
    ASSERT_EQ(index->notes.size(), 1u);
    EXPECT_NE(index->notes[0].find(kBf16OldDate), std::string::npos) << index->notes[0];
}

TEST(SampleLogs, AnOlderResultsFileGetsItsOwnLogs) {
    auto index = findSampleLogs(newBf16() / (std::string("results_") + kBf16OldDate + ".json"));
    ASSERT_TRUE(index.ok()) << index.error().message;
    ASSERT_EQ(index->files.size(), 1u);
    EXPECT_EQ(index->files[0].path.filename().string(), std::string("samples_gsm8k_") + kBf16OldDate + ".jsonl");
    EXPECT_EQ(index->file("arc_challenge"), nullptr);
    auto log = readSampleLog(index->files[0].path, *index->taskInfo("gsm8k"));
    ASSERT_TRUE(log.ok()) << log.error().message;
    const auto docs = expected()["older_bf16_gsm8k_docs"].get<std::size_t>();
    EXPECT_EQ(log->rowsFor("strict-match").size(), docs);
    EXPECT_EQ(log->rowsFor("flexible-extract").size(), docs);
}

TEST(SampleLogs, StaleLogsOfOtherDatesAreLeftOutAndNamed) {
    auto index = findSampleLogsForRunPath(newFp8());
    ASSERT_TRUE(index.ok()) << index.error().message;
    EXPECT_EQ(index->dateId, kFp8Date);
    ASSERT_NE(index->file("arc_challenge"), nullptr);
    EXPECT_EQ(index->file("arc_challenge")->path.filename().string(),
              std::string("samples_arc_challenge_") + kFp8Date + ".jsonl");
    EXPECT_TRUE(anyContains(index->notes, kStaleDate));
}

TEST(SampleLogs, NoLogWithTheResultsDateIsReportedNotAnError) {
    TempDir dir;
    const auto results = dir.write("results_2026-01-02T03-04-05.000001.json",
                                   R"({"results": {"gsm8k": {"exact_match,strict-match": 0.5}}})");
    dir.write("samples_gsm8k_2026-01-01T00-00-00.000001.jsonl", R"({"doc_id": 0, "exact_match": 1.0})"
                                                                "\n");
    auto index = findSampleLogs(results);
    ASSERT_TRUE(index.ok()) << index.error().message;
    EXPECT_TRUE(index->files.empty());
    ASSERT_EQ(index->notes.size(), 1u);
    EXPECT_NE(index->notes[0].find("2026-01-02T03-04-05.000001"), std::string::npos) << index->notes[0];
    EXPECT_NE(index->notes[0].find("2026-01-01T00-00-00.000001"), std::string::npos) << index->notes[0];

    TempDir empty;
    const auto lone = empty.write("results_2026-01-02T03-04-05.000001.json",
                                  R"({"results": {"gsm8k": {"exact_match,strict-match": 0.5}}})");
    auto none = findSampleLogs(lone);
    ASSERT_TRUE(none.ok());
    EXPECT_TRUE(none->files.empty());
    EXPECT_TRUE(anyContains(none->notes, "--log_samples"));

    TempDir plain;
    const auto undated = plain.write("results.json", R"({"results": {"gsm8k": {"exact_match,strict-match": 0.5}}})");
    plain.write("samples_gsm8k_2026-01-01T00-00-00.000001.jsonl", R"({"doc_id": 0})"
                                                                  "\n");
    auto noDate = findSampleLogs(undated);
    ASSERT_TRUE(noDate.ok());
    EXPECT_TRUE(noDate->files.empty());
    EXPECT_TRUE(anyContains(noDate->notes, "no date id"));
}

TEST(SampleLogs, RunWithoutAFileOnDiskHasNoLogs) {
    LmEvalResults run;
    run.sourcePath = "baseline run in x.fp8cmp";
    auto index = findSampleLogs(run);
    ASSERT_TRUE(index.ok());
    EXPECT_TRUE(index->files.empty());
    EXPECT_TRUE(anyContains(index->notes, "not read from a results file"));
}

TEST(SampleLogs, BadResultsFileIsAnError) {
    TempDir dir;
    const auto bad = dir.write("results_2026-01-02T03-04-05.000001.json", "{\"results\": ");
    auto index = findSampleLogs(bad);
    ASSERT_FALSE(index.ok());
    EXPECT_NE(index.error().message.find(bad.string()), std::string::npos) << index.error().message;
}

TEST(SampleLogs, FilterOrderComesFromTheConfigElseTheResultsKeys) {
    auto index = findSampleLogs(newBf16() / (std::string("results_") + kBf16Date + ".json"));
    ASSERT_TRUE(index.ok());
    const auto* gsm = index->taskInfo("gsm8k");
    ASSERT_NE(gsm, nullptr);
    EXPECT_TRUE(gsm->filtersFromConfig);
    EXPECT_EQ(gsm->filters, (std::vector<std::string>{"strict-match", "flexible-extract"}));
    const auto* arc = index->taskInfo("arc_challenge");
    ASSERT_NE(arc, nullptr);
    EXPECT_FALSE(arc->filtersFromConfig);
    EXPECT_EQ(arc->filters, (std::vector<std::string>{"none"}));

    // The config wins over a results file that lists the filters the other way round.
    const auto doc = Json::parse(R"({"results": {"gsm8k": {"exact_match,flexible-extract": 0.8,
        "exact_match_stderr,flexible-extract": 0.01, "exact_match,strict-match": 0.7}},
        "configs": {"gsm8k": {"filter_list": [{"name": "strict-match"}, {"name": "flexible-extract"}]}}})");
    auto run = parseLmEvalJson(doc, "r.json");
    ASSERT_TRUE(run.ok());
    auto fromConfig = sampleTaskInfo(doc, run->tasks.at(0));
    EXPECT_EQ(fromConfig.filters, (std::vector<std::string>{"strict-match", "flexible-extract"}));
    Json noConfig = doc;
    noConfig.erase("configs");
    auto fromKeys = sampleTaskInfo(noConfig, run->tasks.at(0));
    EXPECT_FALSE(fromKeys.filtersFromConfig);
    EXPECT_EQ(fromKeys.filters, (std::vector<std::string>{"flexible-extract", "strict-match"}));
}

// The new layout: every row is compared with a direct nlohmann reading of the same file.
TEST(SampleLogs, NewLayoutRowsMatchTheFile) {
    const auto file = newBf16() / (std::string("samples_gsm8k_") + kBf16Date + ".jsonl");
    auto log = readSampleLog(file, info("gsm8k", {"strict-match", "flexible-extract"}));
    ASSERT_TRUE(log.ok()) << log.error().message;
    EXPECT_TRUE(log->labelled);
    EXPECT_EQ(log->filters, (std::vector<std::string>{"strict-match", "flexible-extract"}));
    EXPECT_TRUE(log->warnings.empty());

    std::ifstream in(file);
    std::string line;
    std::size_t i = 0;
    while (std::getline(in, line)) {
        const auto j = nlohmann::json::parse(line);
        ASSERT_LT(i, log->rows.size());
        const auto& row = log->rows[i++];
        EXPECT_EQ(row.line, i);
        EXPECT_EQ(row.docId, j["doc_id"].get<long long>());
        EXPECT_EQ(row.filter, j["filter"].get<std::string>());
        EXPECT_EQ(row.docHash, j["doc_hash"].get<std::string>());
        EXPECT_EQ(row.promptHash, j["prompt_hash"].get<std::string>());
        EXPECT_EQ(row.targetHash, j["target_hash"].get<std::string>());
        ASSERT_NE(row.value("exact_match"), nullptr);
        EXPECT_EQ(*row.value("exact_match"), j["exact_match"].get<double>());
        EXPECT_EQ(row.values.size(), 1u);  // doc, resps, arguments... are not kept
    }
    EXPECT_EQ(i, log->rows.size());
}

// The old layout (lm-eval 0.4.3): all strict-match rows, then all flexible-extract rows, unlabelled. The means per
// filter come from the generator's construction; strict and flexible differ, so a swapped assignment fails.
TEST(SampleLogs, OldLayoutFiltersAreAssignedByOrder) {
    auto index = findSampleLogsForRunPath(oldBf16());
    ASSERT_TRUE(index.ok()) << index.error().message;
    ASSERT_NE(index->file("gsm8k"), nullptr);
    auto log = readSampleLog(index->file("gsm8k")->path, *index->taskInfo("gsm8k"));
    ASSERT_TRUE(log.ok()) << log.error().message;
    EXPECT_FALSE(log->labelled);
    EXPECT_EQ(log->filters, (std::vector<std::string>{"strict-match", "flexible-extract"}));
    ASSERT_EQ(log->rows.size(), 32u);
    for (std::size_t i = 0; i < 16; ++i) {
        EXPECT_EQ(log->rows[i].filter, "strict-match");
        EXPECT_EQ(log->rows[16 + i].filter, "flexible-extract");
        EXPECT_EQ(log->rows[16 + i].docId, static_cast<long long>(i));
    }
    const auto e = expected();
    EXPECT_DOUBLE_EQ(meanOf(*log, "strict-match", "exact_match"), e["old_gsm8k_strict"]["baseline_mean"].get<double>());
    EXPECT_DOUBLE_EQ(meanOf(*log, "flexible-extract", "exact_match"),
                     e["old_gsm8k_flexible"]["baseline_mean"].get<double>());
    EXPECT_TRUE(anyContains(log->warnings, "filter_list"));
}

// Gathered from several ranks, rows interleave (rank 0: filter 1 then 2; rank 1: filter 1 then 2); what counts is the
// order of appearance per doc_id.
TEST(SampleLogs, OldLayoutAssignmentIsPerDocument) {
    const std::string text = R"({"doc_id": 0, "exact_match": 0.0}
{"doc_id": 2, "exact_match": 0.0}
{"doc_id": 0, "exact_match": 1.0}
{"doc_id": 2, "exact_match": 1.0}
{"doc_id": 1, "exact_match": 0.0}
{"doc_id": 1, "exact_match": 1.0}
)";
    auto log = parseSampleLogText(text, "s.jsonl", info("gsm8k", {"strict-match", "flexible-extract"}));
    ASSERT_TRUE(log.ok()) << log.error().message;
    for (const auto& row : log->rows) {
        ASSERT_NE(row.value("exact_match"), nullptr);
        EXPECT_EQ(row.filter, *row.value("exact_match") == 0.0 ? "strict-match" : "flexible-extract")
            << "doc " << row.docId << " line " << row.line;
    }
    // Without a config, the warning says where the order came from.
    SampleTaskInfo fromKeys = info("gsm8k", {"strict-match", "flexible-extract"});
    fromKeys.filtersFromConfig = false;
    auto again = parseSampleLogText(text, "s.jsonl", fromKeys);
    ASSERT_TRUE(again.ok());
    EXPECT_TRUE(anyContains(again->warnings, "key order"));
}

TEST(SampleLogs, OldLayoutWithMoreRowsThanFiltersIsAnError) {
    const std::string text = "{\"doc_id\": 4, \"acc\": 1}\n{\"doc_id\": 4, \"acc\": 0}\n";
    auto log = parseSampleLogText(text, "arc.jsonl", info("arc_easy", {"none"}));
    ASSERT_FALSE(log.ok());
    EXPECT_NE(log.error().message.find("arc.jsonl line 2"), std::string::npos) << log.error().message;
    EXPECT_NE(log.error().message.find("doc_id 4"), std::string::npos) << log.error().message;

    auto fewer = parseSampleLogText("{\"doc_id\": 4, \"acc\": 1}\n", "g.jsonl", info("gsm8k", {"a", "b"}));
    ASSERT_TRUE(fewer.ok());
    EXPECT_TRUE(anyContains(fewer->warnings, "fewer rows"));
}

TEST(SampleLogs, ErrorsNameTheFileAndLine) {
    TempDir dir;
    const auto file = dir.write("samples_t_2026-01-01T00-00-00.jsonl",
                                "{\"doc_id\": 0, \"filter\": \"none\", \"acc\": 1}\n"
                                "\n"
                                "{\"doc_id\": 1, \"filter\": \"none\", \"acc\": 1\n");
    auto bad = readSampleLog(file, info("t", {"none"}));
    ASSERT_FALSE(bad.ok());
    EXPECT_NE(bad.error().message.find(file.string() + " line 3"), std::string::npos) << bad.error().message;
    EXPECT_NE(bad.error().message.find("not valid JSON"), std::string::npos) << bad.error().message;

    struct Case {
        const char* text;
        const char* line;
        const char* what;
    };
    const Case cases[] = {
        {"{\"doc_id\": 0, \"acc\": 1}\n{\"acc\": 1}\n", "line 2", "\"doc_id\" is missing"},
        {"{\"doc_id\": \"7\", \"acc\": 1}\n", "line 1", "integer"},
        {"{\"doc_id\": 1.5, \"acc\": 1}\n", "line 1", "integer"},
        {"[1, 2]\n", "line 1", "JSON object"},
        {"{\"doc_id\": 0, \"doc_hash\": 5}\n", "line 1", "doc_hash"},
        {"{\"doc_id\": 0, \"filter\": 3}\n", "line 1", "filter"},
        {"{\"doc_id\": 0, \"filter\": \"none\"}\n{\"doc_id\": 1}\n", "line 2", "mixes"},
        {"{\"doc_id\": 0}\n{\"doc_id\": 1, \"filter\": \"none\"}\n", "line 2", "mixes"},
    };
    for (const auto& c : cases) {
        auto r = parseSampleLogText(c.text, "x.jsonl", info("t", {"none"}));
        ASSERT_FALSE(r.ok()) << c.text;
        EXPECT_NE(r.error().message.find(std::string("x.jsonl ") + c.line), std::string::npos) << r.error().message;
        EXPECT_NE(r.error().message.find(c.what), std::string::npos) << r.error().message;
    }
    auto missing = readSampleLog(dir.path() / "nope.jsonl", info("t", {"none"}));
    ASSERT_FALSE(missing.ok());
    EXPECT_NE(missing.error().message.find("nope.jsonl"), std::string::npos);
}

TEST(SampleLogs, RepeatedLabelledRowsKeepTheFirst) {
    const std::string text =
        "{\"doc_id\": 0, \"filter\": \"none\", \"acc\": 1.0}\r\n"
        "{\"doc_id\": 1, \"filter\": \"none\", \"acc\": 0.0}\r\n"
        "   \r\n"
        "{\"doc_id\": 0, \"filter\": \"none\", \"acc\": 0.0}\r\n";
    auto log = parseSampleLogText(text, "x.jsonl", info("t", {"none"}));
    ASSERT_TRUE(log.ok()) << log.error().message;
    ASSERT_EQ(log->rows.size(), 2u);
    EXPECT_EQ(*log->rows[0].value("acc"), 1.0);
    EXPECT_TRUE(anyContains(log->warnings, "line 4, a repeat of line 1"));
}

TEST(SampleLogs, MetricValuesBooleansAndNaN) {
    const std::string text = R"({"doc_id": 0, "filter": "none", "metrics": ["strict_acc", "f1"], "strict_acc": true,)"
                             R"( "f1": NaN, "target": "NaN", "doc": {"x": 1}})"
                             "\n";
    auto log = parseSampleLogText(text, "x.jsonl", info("ifeval", {"none"}));
    ASSERT_TRUE(log.ok()) << log.error().message;
    ASSERT_EQ(log->rows.size(), 1u);
    ASSERT_NE(log->rows[0].value("strict_acc"), nullptr);
    EXPECT_EQ(*log->rows[0].value("strict_acc"), 1.0);
    ASSERT_NE(log->rows[0].value("f1"), nullptr);
    EXPECT_TRUE(std::isnan(*log->rows[0].value("f1")));
    EXPECT_EQ(log->rows[0].value("target"), nullptr);
    EXPECT_EQ(log->rows[0].value("doc_id"), nullptr);
}

TEST(SampleLogs, ProgressAndCancel) {
    const auto file = newBf16() / (std::string("samples_drop_") + kBf16Date + ".jsonl");
    const auto size = fs::file_size(file);
    std::uint64_t last = 0, total = 0;
    auto ok = readSampleLog(file, info("drop", {"none"}), [&](std::uint64_t done, std::uint64_t all) {
        last = done;
        total = all;
        return true;
    });
    ASSERT_TRUE(ok.ok());
    EXPECT_EQ(total, size);
    EXPECT_EQ(last, size);
    auto cancelled = readSampleLog(file, info("drop", {"none"}), [](std::uint64_t, std::uint64_t) { return false; });
    ASSERT_FALSE(cancelled.ok());
    EXPECT_NE(cancelled.error().message.find("cancelled"), std::string::npos);
}

}  // namespace
}  // namespace fp8dash
