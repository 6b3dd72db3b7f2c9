// The *.fp8cmp file: round trip, offline re-derivation, validation errors, atomic writes, the bundled demo.
#include "fp8dash/core/comparison_file.h"

#include <gtest/gtest.h>

#include <functional>

#include <sys/stat.h>

#include "fp8dash/core/demo.h"
#include "fp8dash/core/report_format.h"
#include "test_paths.h"

namespace fp8dash {
namespace {

using test::TempDir;

ComparisonDocument seedDocument() {
    auto b = readLmEvalPath(test::testData() / "lm-eval/seed-pair/bf16");
    auto c = readLmEvalPath(test::testData() / "lm-eval/seed-pair/fp8");
    if (!b || !c) throw std::runtime_error("seed pair unreadable");
    ComparisonOptions o;
    o.thresholds = {0.4, 2.0};
    o.overrides.push_back(MetricOverride::parse("gsm8k=exact_match,flexible-extract").value());
    const std::string bs = b->sourcePath, cs = c->sourcePath;
    auto doc = makeComparisonDocument({"BF16", bs, std::move(b).value()}, {"FP8", cs, std::move(c).value()}, o);
    doc.notes.push_back({"n1", "GSM8K drop is inside the noise?", "ana", "2026-11-29T10:00:00Z", "", "gsm8k"});
    return doc;
}

std::string readAll(const std::filesystem::path& p) {
    return readTextFile(p).value();
}

TEST(ComparisonFile, RoundTripReDerivesTheSameReport) {
    TempDir dir;
    const auto doc = seedDocument();
    const auto path = dir.path() / "seed.fp8cmp";
    ASSERT_TRUE(saveComparisonFile(doc, path).ok());
    auto loaded = loadComparisonFile(path);
    ASSERT_TRUE(loaded.ok()) << loaded.error().message;
    EXPECT_EQ(loaded->options, doc.options);
    EXPECT_EQ(loaded->notes, doc.notes);
    EXPECT_EQ(loaded->title, doc.title);
    EXPECT_EQ(loaded->baseline.label, "BF16");
    EXPECT_EQ(loaded->baseline.sourcePath, doc.baseline.sourcePath);
    auto before = doc.evaluate(), after = loaded->evaluate();
    ASSERT_TRUE(before.ok() && after.ok());
    EXPECT_EQ(reportToJson(*before).dump(), reportToJson(*after).dump());
    // The overrides and thresholds travel with the file: flexible-extract 0.91 -> 0.905 is 0.549% (monitor at 0.4/2.0).
    EXPECT_EQ(after->tasks[2].metric, "exact_match,flexible-extract");
    EXPECT_EQ(after->verdict, Verdict::Monitor);
    // Saving the loaded document again gives the same bytes.
    const auto again = dir.path() / "again.fp8cmp";
    ASSERT_TRUE(saveComparisonFile(*loaded, again).ok());
    EXPECT_EQ(readAll(path), readAll(again));
}

TEST(ComparisonFile, UnknownSectionsOfLaterFeaturesAreKept) {
    TempDir dir;
    auto j = toJson(seedDocument());
    j["later_feature"] = {{"series", Json::array({1, 2, 3})}};  // a section a later version adds
    const auto path = dir.write("with-later-feature.fp8cmp", j.dump());
    auto loaded = loadComparisonFile(path);
    ASSERT_TRUE(loaded.ok()) << loaded.error().message;
    EXPECT_EQ(toJson(*loaded)["later_feature"], j["later_feature"]);
}

// The "benchmarks" and "capacity" sections: kept as written, read back, validated with the file's name, and never
// part of the verdict.
Json benchmarksSection() {
    return Json::parse(R"({"created": "2026-11-29T10:00:00Z", "backend": "cpu", "model": "llama-3.1-8b",
        "device": {"available": false, "name": "", "compute_capability": "", "memory_bytes": 0,
                   "reason": "no NVIDIA driver is loaded", "backend": "cpu", "peak": null},
        "gemm": [], "gemm_skipped": "no usable GPU: no NVIDIA driver is loaded",
        "bandwidth": [], "bandwidth_skipped": "no usable GPU: no NVIDIA driver is loaded",
        "kv": [{"scaling": "per_tensor", "context": 1024, "rel_rmse": 0.0281, "max_abs_error": 0.75,
                "cosine": 0.99961, "key": {"rel_rmse": 0.029, "max_abs_error": 0.75, "cosine": 0.9996},
                "value": {"rel_rmse": 0.027, "max_abs_error": 0.001, "cosine": 0.9996},
                "attn_rel_error": 0.12, "elements": 2097152, "seconds": 0.02, "elements_per_s": 104857600}],
        "kv_backend": "cpu", "kv_kernel": [], "kv_skipped": "", "warnings": [], "cancelled": false})");
}

TEST(ComparisonFile, BenchmarksAndCapacityRoundTripWithoutChangingTheVerdict) {
    TempDir dir;
    auto doc = seedDocument();
    const auto plainPath = dir.path() / "plain.fp8cmp";
    ASSERT_TRUE(saveComparisonFile(doc, plainPath).ok());

    auto bench = parseBenchResults(benchmarksSection(), "section");
    ASSERT_TRUE(bench.ok()) << bench.error().message;
    doc.benchmarks = *bench;
    CapacitySettings capacity;
    capacity.model = "llama-3.1-70b";
    capacity.gpu = "h100-sxm";
    capacity.gpus = 2;
    capacity.weights = "fp8";
    capacity.kv = "bf16";
    capacity.gpuUtilization = 0.85;
    capacity.contextTokens = 16384;
    capacity.overheadGiB = 1.5;
    doc.capacity = capacity;

    const auto path = dir.path() / "with-sections.fp8cmp";
    ASSERT_TRUE(saveComparisonFile(doc, path).ok());
    auto loaded = loadComparisonFile(path);
    ASSERT_TRUE(loaded.ok()) << loaded.error().message;
    ASSERT_TRUE(loaded->benchmarks.has_value());
    EXPECT_EQ(loaded->benchmarks->raw, benchmarksSection());  // saved verbatim
    EXPECT_EQ(loaded->benchmarks->created, "2026-11-29T10:00:00Z");
    EXPECT_EQ(loaded->benchmarks->device.reason, "no NVIDIA driver is loaded");
    ASSERT_EQ(loaded->benchmarks->kv.size(), 1u);
    EXPECT_EQ(loaded->benchmarks->kv[0].relRmse, 0.0281);
    ASSERT_TRUE(loaded->capacity.has_value());
    EXPECT_EQ(*loaded->capacity, capacity);
    EXPECT_FALSE(loaded->otherSections.contains("benchmarks"));

    // Same bytes when saved again; the same decision as the file without the sections.
    const auto again = dir.path() / "again.fp8cmp";
    ASSERT_TRUE(saveComparisonFile(*loaded, again).ok());
    EXPECT_EQ(readAll(path), readAll(again));
    auto plain = loadComparisonFile(plainPath);
    ASSERT_TRUE(plain.ok());
    EXPECT_FALSE(plain->benchmarks.has_value());
    EXPECT_FALSE(plain->capacity.has_value());
    auto withSections = decide(*loaded), without = decide(*plain);
    ASSERT_TRUE(withSections.ok() && without.ok());
    EXPECT_EQ(withSections->verdict, without->verdict);
    EXPECT_EQ(withSections->reasons, without->reasons);
}

TEST(ComparisonFile, FilesFromBeforeTheSectionsStillLoad) {
    // The demo as fp8dash 0.1.0 shipped it: evals only.
    auto demo = loadComparisonFile(test::testData() / "comparison-files/v1/demo-llama3-8b-instruct-fp8.fp8cmp");
    ASSERT_TRUE(demo.ok()) << demo.error().message;
    EXPECT_FALSE(demo->benchmarks.has_value());
    EXPECT_FALSE(demo->capacity.has_value());
    const Json j = toJson(*demo);
    EXPECT_FALSE(j.contains("benchmarks"));
    EXPECT_FALSE(j.contains("capacity"));
}

TEST(ComparisonFile, BadSectionsNameTheFileAndField) {
    TempDir dir;
    auto base = toJson(seedDocument());
    const std::vector<std::pair<std::function<void(Json&)>, std::string>> cases = {
        {[](Json& j) {
             j["benchmarks"] = benchmarksSection();
             j["benchmarks"]["kv"][0]["context"] = "1K";
         },
         "field benchmarks.kv[0].context must be a whole number"},
        {[](Json& j) {
             j["benchmarks"] = benchmarksSection();
             j["benchmarks"].erase("device");
         },
         "field benchmarks.device is missing"},
        {[](Json& j) { j["benchmarks"] = 7; }, "field benchmarks must be an object"},
        {[](Json& j) {
             j["capacity"] = capacitySettingsToJson({});
             j["capacity"]["gpus"] = 0;
         },
         "field capacity.gpus must be at least 1"},
    };
    for (const auto& [edit, expected] : cases) {
        Json j = base;
        edit(j);
        const auto path = dir.write("bad-section.fp8cmp", j.dump());
        auto loaded = loadComparisonFile(path);
        ASSERT_FALSE(loaded.ok()) << expected;
        EXPECT_NE(loaded.error().message.find(path.string() + ": " + expected), std::string::npos)
            << loaded.error().message;
    }
}

TEST(ComparisonFile, NewerVersionIsRefused) {
    TempDir dir;
    auto j = toJson(seedDocument());
    j["version"] = kComparisonVersion + 1;
    const auto path = dir.write("future.fp8cmp", j.dump());
    auto loaded = loadComparisonFile(path);
    ASSERT_FALSE(loaded.ok());
    EXPECT_NE(loaded.error().message.find("newer fp8dash"), std::string::npos);
    EXPECT_NE(loaded.error().message.find(path.string()), std::string::npos);
}

struct BadDoc {
    const char* name;
    std::function<void(Json&)> edit;
    const char* expected;
};

class ComparisonFileBad : public ::testing::TestWithParam<BadDoc> {};

TEST_P(ComparisonFileBad, ClearErrorNamingFileAndField) {
    TempDir dir;
    auto j = toJson(seedDocument());
    GetParam().edit(j);
    const auto path = dir.write("bad.fp8cmp", j.dump());
    auto loaded = loadComparisonFile(path);
    ASSERT_FALSE(loaded.ok());
    EXPECT_NE(loaded.error().message.find(path.string()), std::string::npos) << loaded.error().message;
    EXPECT_NE(loaded.error().message.find(GetParam().expected), std::string::npos) << loaded.error().message;
}

INSTANTIATE_TEST_SUITE_P(
    Cases, ComparisonFileBad,
    ::testing::Values(
        BadDoc{"no_format", [](Json& j) { j.erase("format"); }, "not an fp8dash comparison file"},
        BadDoc{"other_format", [](Json& j) { j["format"] = "lm-eval"; }, "not an fp8dash comparison file"},
        BadDoc{"version_string", [](Json& j) { j["version"] = "1"; }, "\"version\" must be a positive integer"},
        BadDoc{"no_runs", [](Json& j) { j.erase("runs"); }, "field runs is missing"},
        BadDoc{"no_candidate", [](Json& j) { j["runs"].erase("candidate"); }, "runs.candidate is missing"},
        BadDoc{"results_type", [](Json& j) { j["runs"]["baseline"]["results"] = 3; }, "runs.baseline.results"},
        BadDoc{"label_type", [](Json& j) { j["runs"]["baseline"]["label"] = 3; },
               "runs.baseline.label must be a string"},
        BadDoc{"threshold_type", [](Json& j) { j["settings"]["thresholds"]["go_below"] = "half"; },
               "settings.thresholds.go_below must be a finite number"},
        BadDoc{"threshold_order", [](Json& j) { j["settings"]["thresholds"]["go_below"] = 5; }, "must not exceed"},
        BadDoc{"override_syntax", [](Json& j) { j["settings"]["metric_overrides"] = Json::array({"gsm8k"}); },
               "settings.metric_overrides"},
        BadDoc{"note_text", [](Json& j) { j["notes"][0].erase("text"); }, "notes[0].text must be a string"},
        BadDoc{"notes_type", [](Json& j) { j["notes"] = "x"; }, "field notes must be a list"}),
    [](const auto& p) { return std::string(p.param.name); });

TEST(ComparisonFile, NonJsonInputs) {
    TempDir dir;
    for (const std::string& text : {std::string(), std::string("{\"format\": \"fp8dash-comparison\", "),
                                    std::string("\x00\x01\x02", 3), std::string("[]")}) {
        auto loaded = loadComparisonFile(dir.write("x.fp8cmp", text));
        EXPECT_FALSE(loaded.ok());
    }
    auto isDir = loadComparisonFile(dir.path());
    ASSERT_FALSE(isDir.ok());
    EXPECT_NE(isDir.error().message.find("is a directory"), std::string::npos);
}

TEST(AtomicWrite, ReplacesWholeFileAndKeepsPermissions) {
    TempDir dir;
    const auto path = dir.write("f.fp8cmp", "old contents");
    ::chmod(path.c_str(), 0640);
    ASSERT_TRUE(writeFileAtomically(path, "new").ok());
    EXPECT_EQ(readAll(path), "new");
    struct stat st {};
    ASSERT_EQ(::stat(path.c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 0777, 0640u);
    // No temporary file is left behind.
    int entries = 0;
    for ([[maybe_unused]] const auto& e : std::filesystem::directory_iterator(dir.path())) ++entries;
    EXPECT_EQ(entries, 1);
}

TEST(AtomicWrite, FailureLeavesTheOldFileAndSaysWhy) {
    TempDir dir;
    auto noFolder = writeFileAtomically(dir.path() / "missing-folder" / "f.fp8cmp", "x");
    ASSERT_FALSE(noFolder.ok());
    EXPECT_NE(noFolder.error().message.find("missing-folder"), std::string::npos);
    std::filesystem::create_directories(dir.path() / "target.fp8cmp");
    auto ontoDir = writeFileAtomically(dir.path() / "target.fp8cmp", "x");
    ASSERT_FALSE(ontoDir.ok());
    EXPECT_TRUE(std::filesystem::is_directory(dir.path() / "target.fp8cmp"));
}

TEST(Demo, BundledDemoGivesInvestigateFromGsm8k) {
    auto doc = loadDemoComparison();
    ASSERT_TRUE(doc.ok()) << doc.error().message;
    auto r = doc->evaluate();
    ASSERT_TRUE(r.ok()) << r.error().message;
    EXPECT_EQ(r->verdict, Verdict::Investigate);
    ASSERT_EQ(r->tasks.size(), 6u);
    // Model-card figures: gsm8k 75.96 -> 73.99, the average 68.71 -> 68.22 holds.
    const auto& gsm = r->tasks[5];
    EXPECT_EQ(gsm.task, "gsm8k");
    EXPECT_NEAR(*gsm.deltaPct, (0.7399 - 0.7596) / 0.7596 * 100, 1e-9);
    EXPECT_EQ(gsm.verdict, Verdict::Investigate);
    EXPECT_EQ(r->tasks[0].task, "arc_challenge");
    EXPECT_EQ(r->tasks[0].verdict, Verdict::Monitor);  // 62.54 -> 61.77 = 1.23%
    EXPECT_EQ(r->tasks[2].task, "mmlu");
    EXPECT_EQ(r->tasks[2].verdict, Verdict::Go);  // 66.60 -> 66.27 = 0.495%
    double avgB = 0, avgC = 0;
    for (const auto& t : r->tasks) avgB += t.baseline / 6, avgC += t.candidate / 6;
    EXPECT_NEAR(avgB, 0.6871, 1e-4);  // the card averaged unrounded scores
    EXPECT_NEAR(avgC, 0.6822, 1e-4);
    EXPECT_TRUE(r->candidateConfig.weights);
    EXPECT_FALSE(r->baselineConfig.anyFp8());
    ASSERT_FALSE(doc->notes.empty());
    EXPECT_NE(doc->notes[0].text.find("neuralmagic/Meta-Llama-3-8B-Instruct-FP8"), std::string::npos);
}

TEST(Demo, EveryStepOfTheDecisionIsInTheDemoAndConsistent) {
    auto doc = loadDemoComparison();
    ASSERT_TRUE(doc.ok()) << doc.error().message;
    ASSERT_TRUE(doc->judge && doc->timeline && doc->benchmarks && doc->capacity);
    // The stored alerts are what the rule gives on the stored series (evaluated again here, locally).
    TimelineData again = *doc->timeline;
    recomputeDerived(again);
    EXPECT_EQ(again.alertsEvaluatedBy, "local");
    ASSERT_EQ(again.alerts.size(), doc->timeline->alerts.size());
    auto d = decide(*doc);
    ASSERT_TRUE(d.ok()) << d.error().message;
    EXPECT_EQ(d->verdict, Verdict::Investigate);  // gsm8k, as in 0.1.0's demo
    ASSERT_TRUE(d->judge && d->timeline);
    EXPECT_EQ(d->judge->verdict, Verdict::Monitor);
    EXPECT_EQ(d->timeline->verdict, Verdict::Go);
    // The judge's means, computed here from the stored scores.
    double b = 0, c = 0;
    for (const auto& s : doc->judge->baseline.samples) b += s.score;
    for (const auto& s : doc->judge->candidate.samples) c += s.score;
    b /= static_cast<double>(doc->judge->baseline.samples.size());
    c /= static_cast<double>(doc->judge->candidate.samples.size());
    EXPECT_NEAR(d->judge->baselineMean, b, 1e-12);
    EXPECT_NEAR(d->judge->candidateMean, c, 1e-12);
    EXPECT_NEAR(d->judge->degradationPct, (b - c) / b * 100, 1e-9);
    // The benchmarks are a CPU run: the KV sweep measured, GEMM and bandwidth skipped with the reason.
    EXPECT_FALSE(doc->benchmarks->kv.empty());
    EXPECT_TRUE(doc->benchmarks->gemm.empty());
    // A decision is on record, and the notes say which parts are illustrative.
    ASSERT_NE(doc->currentDecision(), nullptr);
    EXPECT_EQ(doc->currentDecision()->outcome, ReviewOutcome::Rejected);
    bool illustrative = false;
    for (const auto& n : doc->notes) illustrative = illustrative || n.text.find("illustrative") != std::string::npos;
    EXPECT_TRUE(illustrative);
}

}  // namespace
}  // namespace fp8dash
