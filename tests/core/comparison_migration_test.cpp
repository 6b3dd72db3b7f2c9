// Old comparison files open in this build: one test per earlier format version, over files that version's fp8dash
// wrote (tests/data/comparison-files/vN, see its README), checked against what that fp8dash itself reported.
#include "fp8dash/core/comparison_migrations.h"

#include <gtest/gtest.h>

#include <cstring>

#include <set>
#include <string>

#include "fp8dash/core/comparison_file.h"
#include "fp8dash/core/report_format.h"
#include "test_paths.h"

namespace fp8dash {
namespace {

using test::TempDir;

std::filesystem::path v1(const std::string& name) {
    return test::testData() / "comparison-files/v1" / name;
}

Json migrationReadJson(const std::filesystem::path& p) {
    return Json::parse(readTextFile(p).value());
}

// Keys whose values changed on purpose since 0.1.0, checked by their own tests instead: the one sign convention
// (degradation_ci95_pct is clamped at 0 like degradation_pct), statements chosen from the intervals
// (confidence_explanation), and samples needed never beyond the task's size (samples_needed; and the reason line
// that lists the inconclusive tasks with them). The verdicts, values and every other reason stay as 0.1.0 printed.
bool changedByDesign(const std::string& key, const Json& expected) {
    if (key == "degradation_ci95_pct" || key == "confidence_explanation" || key == "samples_needed") return true;
    return expected.is_string() &&
           expected.get<std::string>().find("inconclusive, the 95% interval") != std::string::npos;
}

// One intended change since 0.1.0 inside otherwise unchanged text: a σ that rounds to zero is written "0.0σ" (issue
// 29: negative zero is never shown), where 0.1.0 printed "-0.0σ" or "+0.0σ". The recorded text is read as it would
// read now; every other character must still match. A figure such as "-10.0σ" keeps its sign: only a signed zero
// that is not part of a longer number ("-0.0σ" right after a space or at the start) is rewritten.
std::string withoutSignedZeroSigmas(std::string text) {
    for (const char* signedZero : {"-0.0σ", "+0.0σ"}) {
        const std::string from = signedZero;
        for (std::size_t at = text.find(from); at != std::string::npos; at = text.find(from, at)) {
            const bool standsAlone = at == 0 || text[at - 1] == ' ' || text[at - 1] == '(';
            if (standsAlone) text.erase(at, 1);
            at += standsAlone ? from.size() - 1 : from.size();
        }
    }
    return text;
}

// Issue 39's words, one for each question: "settled" / "unsettled" (is the verdict's band decided?) where 0.1.0 said
// "clear" / "inconclusive", and the GUI's names for the CLI's flags. Only these exact phrases are rewritten.
std::string inIssue39Words(std::string text) {
    static const std::pair<const char*, const char*> kWords[] = {
        {", clear)", ", settled)"},
        {", inconclusive)", ", unsettled)"},
        {"(--cautious counts the worse band)", "(the cautious policy counts the worse band)"},
        {" samples would decide)", " samples would settle it)"},
        {"]; inconclusive", "]; unsettled"},
        {"]; clear", "]; settled"}};
    for (const auto& [from, to] : kWords)
        for (std::size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + std::strlen(to)))
            text.replace(at, std::strlen(from), to);
    return text;
}

// Every key of `expected` is in `actual` with the same value; objects recurse, so keys added later are allowed.
void expectSubset(const Json& expected, const Json& actual, const std::string& where) {
    if (expected.is_object() && actual.is_object()) {
        for (const auto& [key, value] : expected.items()) {
            ASSERT_TRUE(actual.contains(key)) << where << "." << key << " is gone";
            if (changedByDesign(key, value)) continue;
            expectSubset(value, actual[key], where + "." + key);
        }
        return;
    }
    if (changedByDesign("", expected) && actual.is_string()) {
        EXPECT_NE(actual.get<std::string>().find("unsettled, the 95% interval"), std::string::npos) << where;
        return;
    }
    if (expected.is_array() && actual.is_array()) {
        ASSERT_EQ(expected.size(), actual.size()) << where;
        for (std::size_t i = 0; i < expected.size(); ++i)
            expectSubset(expected[i], actual[i], where + "[" + std::to_string(i) + "]");
        return;
    }
    if (expected.is_string() && actual.is_string()) {
        EXPECT_EQ(inIssue39Words(withoutSignedZeroSigmas(expected.get<std::string>())), actual.get<std::string>())
            << where;
        return;
    }
    EXPECT_EQ(expected, actual) << where;
}

class Version1Files : public ::testing::TestWithParam<std::string> {};

TEST_P(Version1Files, OpenAndGiveWhatFp8dash010Reported) {
    const auto path = v1(GetParam() + ".fp8cmp");
    const Json raw = migrationReadJson(path);
    ASSERT_EQ(raw["version"], 1);  // the file really is a version-1 file
    auto doc = loadComparisonFile(path);
    ASSERT_TRUE(doc.ok()) << doc.error().message;
    EXPECT_EQ(doc->version, 1);
    ASSERT_EQ(doc->migrations.size(), 2u);
    EXPECT_EQ(doc->migrations[0].rfind("version 1 -> 2: ", 0), 0u) << doc->migrations[0];
    EXPECT_EQ(doc->migrations[1].rfind("version 2 -> 3: ", 0), 0u) << doc->migrations[1];
    EXPECT_TRUE(doc->decisions.empty());

    // Notes keep their text, author, date and task, in order, and each has a unique id now.
    ASSERT_EQ(doc->notes.size(), raw["notes"].size());
    std::set<std::string> ids;
    for (std::size_t i = 0; i < doc->notes.size(); ++i) {
        const Json& n = raw["notes"][i];
        EXPECT_EQ(doc->notes[i].text, n["text"]);
        EXPECT_EQ(doc->notes[i].author, n.value("author", ""));
        EXPECT_EQ(doc->notes[i].created, n.value("created", ""));
        EXPECT_EQ(doc->notes[i].task, n.value("task", ""));
        EXPECT_FALSE(doc->notes[i].id.empty());
        ids.insert(doc->notes[i].id);
    }
    EXPECT_EQ(ids.size(), doc->notes.size());

    // The same verdict, tasks, judge figures and reasons as fp8dash 0.1.0 printed for this file.
    auto decision = decide(*doc);
    ASSERT_TRUE(decision.ok()) << decision.error().message;
    const Json expected = migrationReadJson(v1(GetParam() + ".report-0.1.0.json"));
    expectSubset(expected, decisionToJson(*decision), GetParam());

    // Saved again, it is a version-2 file that reads back to the same document.
    TempDir dir;
    const auto again = dir.path() / "again.fp8cmp";
    ASSERT_TRUE(saveComparisonFile(*doc, again).ok());
    EXPECT_EQ(migrationReadJson(again)["version"], kComparisonVersionWithoutServing);  // no serving section
    auto reread = loadComparisonFile(again);
    ASSERT_TRUE(reread.ok()) << reread.error().message;
    EXPECT_TRUE(reread->migrations.empty());
    EXPECT_EQ(reread->notes, doc->notes);
    EXPECT_EQ(toJson(*reread).dump(), toJson(*doc).dump());
}

INSTANTIATE_TEST_SUITE_P(Files, Version1Files,
                         ::testing::Values("demo-llama3-8b-instruct-fp8", "paired-judge-control", "judge-bench"),
                         [](const auto& p) {
                             std::string name = p.param;
                             for (char& c : name)
                                 if (c == '-') c = '_';
                             return name;
                         });

TEST(Version1Files, NoteIdsFollowPositionAndKeepHandEditedOnes) {
    // The third note already carried "n2"; the second, by position n2 too, gets "n2-1".
    auto doc = loadComparisonFile(v1("paired-judge-control.fp8cmp"));
    ASSERT_TRUE(doc.ok()) << doc.error().message;
    ASSERT_EQ(doc->notes.size(), 3u);
    EXPECT_EQ(doc->notes[0].id, "n1");
    EXPECT_EQ(doc->notes[1].id, "n2-1");
    EXPECT_EQ(doc->notes[2].id, "n2");
    EXPECT_EQ(doc->notes[1].task, "gsm8k");
    EXPECT_EQ(doc->newNoteId(), "n3");
    // The unknown section of a later feature survives the migration and the next save.
    ASSERT_TRUE(doc->otherSections.contains("x_future_section"));
    EXPECT_EQ(toJson(*doc)["x_future_section"]["kept"], "verbatim");
    EXPECT_EQ(doc->migrations[0], "version 1 -> 2: 2 note ids assigned, review section added");
}

TEST(Version1Files, ThePairedResultsAndTheBenchmarksSurvive) {
    auto paired = loadComparisonFile(v1("paired-judge-control.fp8cmp"));
    ASSERT_TRUE(paired.ok()) << paired.error().message;
    EXPECT_EQ(paired->paired.size(), migrationReadJson(v1("paired-judge-control.fp8cmp"))["paired"].size());
    ASSERT_TRUE(paired->control.has_value());
    auto bench = loadComparisonFile(v1("judge-bench.fp8cmp"));
    ASSERT_TRUE(bench.ok()) << bench.error().message;
    EXPECT_FALSE(bench->hasEvals);
    ASSERT_TRUE(bench->benchmarks.has_value());
    EXPECT_EQ(bench->benchmarks->raw, migrationReadJson(v1("judge-bench.fp8cmp"))["benchmarks"]);
}

TEST(Migrations, StepsRunInOrderAndRefuseWhatTheyCannotRead) {
    Json j = {{"format", "fp8dash-comparison"}, {"version", 1}, {"notes", Json::array({{{"text", "a"}}})}};
    std::vector<std::string> applied;
    ASSERT_TRUE(migrateComparisonJson(j, 1, "x.fp8cmp", &applied).ok());
    EXPECT_EQ(j["version"], kComparisonVersion);
    EXPECT_EQ(j["notes"][0]["id"], "n1");
    EXPECT_EQ(j["review"]["decisions"], Json::array());
    // 1 -> 2 and 2 -> 3 are logged; 3 -> 4 changes nothing a file has (it adds the optional serving section).
    EXPECT_EQ(applied.size(), static_cast<std::size_t>(kComparisonVersionWithoutServing - 1));

    Json bad = {{"version", 1}, {"notes", "not a list"}};
    auto refused = migrateComparisonJson(bad, 1, "y.fp8cmp");
    ASSERT_FALSE(refused.ok());
    EXPECT_EQ(refused.error().message, "y.fp8cmp: field notes must be a list");
    EXPECT_FALSE(migrateComparisonJson(j, 0, "z.fp8cmp").ok());
    EXPECT_FALSE(migrateComparisonJson(j, kComparisonVersion + 1, "z.fp8cmp").ok());
}

TEST(Migrations, NewerFilesAreRefusedSayingSo) {
    TempDir dir;
    Json j = migrationReadJson(v1("demo-llama3-8b-instruct-fp8.fp8cmp"));
    j["version"] = kComparisonVersion + 1;
    const auto path = dir.write("from-the-future.fp8cmp", j.dump());
    auto loaded = loadComparisonFile(path);
    ASSERT_FALSE(loaded.ok());
    EXPECT_EQ(loaded.error().message, path.string() + ": was written by a newer fp8dash (comparison format version " +
                                          std::to_string(kComparisonVersion + 1) + "; this build reads up to version " +
                                          std::to_string(kComparisonVersion) + "). Update fp8dash to open it.");
}

}  // namespace
}  // namespace fp8dash
