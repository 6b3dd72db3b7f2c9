// The fp8dash binary as a user runs it: subcommands, the stable JSON, exit codes, and bad input that must give a
// clear message (never a crash or a hang). Expected figures are computed here from the input files.
#include <gtest/gtest.h>

#include <fstream>

#include <cmath>
#include <nlohmann/json.hpp>

#include "cli_runner.h"
#include "fake_prometheus.h"
#include "fp8dash/core/comparison_file.h"
#include "process.h"
#include "test_http_server.h"
#include "test_paths.h"

namespace fp8dash {
namespace {

using test::fp8dashCli;
using test::parseJson;
using test::ProcessResult;
using test::TempDir;

std::string seed(const char* side) {
    return (test::testData() / "lm-eval/seed-pair" / side).string();
}

TEST(CliCompare, JsonOnTheSeedPair) {
    auto r = fp8dashCli({"compare", seed("bf16"), seed("fp8"), "--format", "json"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto j = parseJson(r);
    EXPECT_EQ(j["verdict"], "investigate");
    ASSERT_EQ(j["tasks"].size(), 3u);
    EXPECT_EQ(j["tasks"][2]["task"], "gsm8k");
    EXPECT_EQ(j["tasks"][2]["metric"], "exact_match,strict-match");
    EXPECT_DOUBLE_EQ(j["tasks"][2]["delta_pct"].get<double>(), (0.873 - 0.9) / 0.9 * 100);
    EXPECT_EQ(j["runs"]["candidate"]["kv_cache_fp8"], true);
    EXPECT_TRUE(r.err.empty()) << r.err;
}

TEST(CliCompare, RealFilesMmluInstructVsBase) {
    FP8DASH_REQUIRE_FIXTURE(instruct, "llama3-8b-instruct_mmlu_v0.4.2.json");
    FP8DASH_REQUIRE_FIXTURE(base, "llama3-8b-base_mmlu_v0.4.2.json");
    // Two different models: refused (exit 2, both named), compared with --allow-incomparable for the arithmetic.
    auto refused = fp8dashCli({"compare", instruct.string(), base.string(), "--format=json"});
    EXPECT_EQ(refused.exitCode, 2);
    EXPECT_NE(refused.err.find("baseline meta-llama/Meta-Llama-3-8B-Instruct, candidate meta-llama/Meta-Llama-3-8B "),
              std::string::npos)
        << refused.err;
    auto r = fp8dashCli({"compare", instruct.string(), base.string(), "--format=json", "--allow-incomparable"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto j = parseJson(r);
    ASSERT_EQ(j["tasks"].size(), 1u);
    const double b = 0.6581683520865973, c = 0.6504059250818972;
    EXPECT_DOUBLE_EQ(j["tasks"][0]["delta_pct"].get<double>(), (c - b) / b * 100);
    EXPECT_EQ(j["tasks"][0]["verdict"], "monitor");
    EXPECT_EQ(j["tasks"][0]["subtasks"].size(), 4u);
    EXPECT_EQ(j["verdict"], "monitor");
    EXPECT_EQ(j["comparability"][0]["field"], "model");
}

TEST(CliCompare, OptionsChangeTheVerdict) {
    auto r = fp8dashCli(
        {"compare", seed("bf16"), seed("fp8"), "--format", "json", "--metric", "gsm8k=exact_match,flexible-extract"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_EQ(parseJson(r)["verdict"], "monitor");  // 0.91 -> 0.905 is 0.55%; mmlu is at 0.5%
    r = fp8dashCli(
        {"compare", seed("bf16"), seed("fp8"), "--format", "json", "--go-below", "0.6", "--investigate-above", "3.5"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto j = parseJson(r);
    EXPECT_EQ(j["verdict"], "monitor");  // gsm8k 3% <= 3.5; mmlu 0.5% < 0.6 is go
    EXPECT_EQ(j["tasks"][0]["verdict"], "go");
    EXPECT_EQ(j["thresholds"]["go_below"], 0.6);
}

TEST(CliCompare, FailOnExitCodes) {
    EXPECT_EQ(fp8dashCli({"compare", seed("bf16"), seed("fp8"), "--fail-on", "investigate"}).exitCode, 3);
    EXPECT_EQ(fp8dashCli({"compare", seed("bf16"), seed("fp8"), "--fail-on", "monitor"}).exitCode, 3);
    // A go verdict passes the gate (one run against itself, which is refused unless allowed).
    EXPECT_EQ(
        fp8dashCli({"compare", seed("bf16"), seed("bf16"), "--allow-incomparable", "--fail-on", "monitor"}).exitCode,
        0);
    auto r = fp8dashCli({"compare", seed("bf16"), seed("fp8"), "--fail-on", "go"});
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_NE(r.err.find("expected monitor or investigate"), std::string::npos);
}

TEST(CliCompare, TextAndMarkdown) {
    auto text = fp8dashCli({"compare", seed("bf16"), seed("fp8")});
    ASSERT_EQ(text.exitCode, 0);
    EXPECT_NE(text.out.find("Verdict: INVESTIGATE"), std::string::npos) << text.out;
    EXPECT_NE(text.out.find("gsm8k"), std::string::npos);
    auto md = fp8dashCli({"compare", seed("bf16"), seed("fp8"), "--format", "markdown"});
    ASSERT_EQ(md.exitCode, 0);
    EXPECT_NE(md.out.find("## Verdict: **INVESTIGATE**"), std::string::npos);
}

TEST(CliSaveAndReport, ReportReDerivesFromTheFileAlone) {
    TempDir dir;
    const auto saved = dir.path() / "seed.fp8cmp";
    auto c = fp8dashCli({"compare", seed("bf16"), seed("fp8"), "--format", "json", "--save", saved.string(), "--metric",
                         "gsm8k=exact_match", "--baseline-label", "bf16-prod"});
    ASSERT_EQ(c.exitCode, 0) << c.err;
    EXPECT_NE(c.err.find("saved the comparison"), std::string::npos);
    // Copy the file elsewhere: the report must not need the original results files.
    const auto moved = dir.path() / "elsewhere" / "copy.fp8cmp";
    std::filesystem::create_directories(moved.parent_path());
    std::filesystem::copy_file(saved, moved);
    auto r = fp8dashCli({"report", moved.string(), "--format", "json"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_EQ(parseJson(r), parseJson(c));
    EXPECT_EQ(parseJson(r)["runs"]["baseline"]["label"], "bf16-prod");
    EXPECT_EQ(fp8dashCli({"report", moved.string(), "--fail-on", "investigate"}).exitCode, 3);
}

TEST(CliDemo, HeadlessStartPrintsTheDemoVerdict) {
    auto r = fp8dashCli({});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(r.err.find("no display"), std::string::npos);
    EXPECT_NE(r.out.find("Overall verdict: INVESTIGATE"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("gsm8k"), std::string::npos);
    EXPECT_NE(r.out.find("-2.593%"), std::string::npos);  // (73.99 - 75.96) / 75.96
    // The demo walks through every step: the judge and production have their parts too.
    EXPECT_NE(r.out.find("Domain judge"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("Production timeline"), std::string::npos) << r.out;
    auto j = fp8dashCli({"demo", "--format", "json"});
    ASSERT_EQ(j.exitCode, 0);
    const Json demo = parseJson(j);
    EXPECT_EQ(demo["verdict"], "investigate");
    EXPECT_EQ(demo["evals_verdict"], "investigate");
    EXPECT_EQ(demo["judge"]["verdict"], "monitor");
    EXPECT_EQ(demo["timeline"]["verdict"], "go");
}

TEST(CliReport, TheReviewAndTheNotesOfASavedFile) {
    // The bundled demo's file, read here as plain JSON for the expected values.
    std::ifstream in(FP8DASH_SOURCE_DIR "/resources/demo/llama3-8b-instruct-fp8.fp8cmp");
    const Json file = Json::parse(in);
    auto j =
        fp8dashCli({"report", FP8DASH_SOURCE_DIR "/resources/demo/llama3-8b-instruct-fp8.fp8cmp", "--format", "json"});
    ASSERT_EQ(j.exitCode, 0) << j.err;
    const Json r = parseJson(j);
    ASSERT_EQ(r["notes"].size(), file["notes"].size());
    for (std::size_t i = 0; i < r["notes"].size(); ++i) {
        EXPECT_EQ(r["notes"][i]["text"], file["notes"][i]["text"]);
        EXPECT_EQ(r["notes"][i]["id"], file["notes"][i]["id"]);
    }
    const Json& last = file["review"]["decisions"].back();
    EXPECT_EQ(r["review"]["current"]["outcome"], last["outcome"]);
    EXPECT_EQ(r["review"]["current"]["by"], last["by"]);
    EXPECT_EQ(r["review"]["overrides_verdict"], false);  // rejected never overrides
    EXPECT_EQ(r["review"]["decisions"].size(), file["review"]["decisions"].size());

    auto text = fp8dashCli({"report", FP8DASH_SOURCE_DIR "/resources/demo/llama3-8b-instruct-fp8.fp8cmp"});
    EXPECT_NE(text.out.find("Review decision\n  Rejected — by " + last["by"].get<std::string>()), std::string::npos)
        << text.out;

    // A version-1 file: read (stderr says it was migrated), no decision yet.
    auto old = fp8dashCli({"report", FP8DASH_TEST_DATA "/comparison-files/v1/judge-bench.fp8cmp", "--format", "json"});
    ASSERT_EQ(old.exitCode, 0) << old.err;
    EXPECT_NE(old.err.find("read from comparison format 1 (version 1 -> 2"), std::string::npos) << old.err;
    EXPECT_TRUE(parseJson(old)["review"]["current"].is_null());
}

// `fp8dash --present [FILE]`: --present is an option, not a file. Without a display it prints what it would present
// (the same report as `fp8dash [FILE]`); more than one file is a usage error. (The presentation itself is tested
// in tests/ui.)
TEST(CliPresent, PresentIsNotAFileAndFallsBackToTheReportWithoutADisplay) {
    const std::string file = (test::testData() / "comparison-files/v1/judge-bench.fp8cmp").string();
    const auto report = fp8dashCli({"report", file});
    ASSERT_EQ(report.exitCode, 0) << report.err;
    for (const auto& args :
         {std::vector<std::string>{"--present", file}, std::vector<std::string>{file, "--present"}}) {
        const auto r = fp8dashCli(args);
        EXPECT_EQ(r.exitCode, 0) << r.err;
        EXPECT_EQ(r.out, report.out + "\n") << args[0];  // that file's report, and nothing about a file "--present"
        EXPECT_NE(r.err.find("instead of presenting"), std::string::npos) << r.err;
    }
    // No file: the bundled demo, as plain `fp8dash` prints it.
    const auto demo = fp8dashCli({});
    const auto present = fp8dashCli({"--present"});
    EXPECT_EQ(present.exitCode, demo.exitCode);
    EXPECT_EQ(present.out, demo.out);
    EXPECT_FALSE(present.out.empty());
    // A plain file still opens as before (headless: its report).
    EXPECT_EQ(fp8dashCli({file}).out, report.out + "\n");

    const auto two = fp8dashCli({"--present", file, file});
    EXPECT_EQ(two.exitCode, 2);
    EXPECT_NE(two.err.find("--present takes at most one comparison file"), std::string::npos) << two.err;
    EXPECT_TRUE(two.out.empty());
}

TEST(CliMisc, HelpVersionDevice) {
    auto h = fp8dashCli({"--help"});
    EXPECT_EQ(h.exitCode, 0);
    for (const char* word : {"compare", "report", "demo", "device", "--fail-on", "--metric", "--present"})
        EXPECT_NE(h.out.find(word), std::string::npos) << word;
    auto v = fp8dashCli({"--version"});
    EXPECT_EQ(v.exitCode, 0);
    EXPECT_EQ(v.out.rfind("fp8dash ", 0), 0u);
    auto d = fp8dashCli({"device", "--format", "json"});
    ASSERT_EQ(d.exitCode, 0) << d.err;
    const auto j = parseJson(d);
    EXPECT_TRUE(j.contains("available"));
    if (!j["available"].get<bool>()) {
        EXPECT_FALSE(j["reason"].get<std::string>().empty());
    }
}

TEST(CliUsage, BadUsageIsExitTwoWithAMessage) {
    struct Case {
        std::vector<std::string> args;
        const char* expected;
    };
    const std::vector<Case> cases = {
        {{"compare", seed("bf16")}, "BASELINE and at least one CANDIDATE"},
        {{"compare", seed("bf16"), seed("fp8"), "--bogus"}, "unknown option --bogus"},
        {{"compare", seed("bf16"), seed("fp8"), "--format", "xml"}, "expected text, json or markdown"},
        {{"compare", seed("bf16"), seed("fp8"), "--go-below", "abc"}, "--go-below \"abc\""},
        {{"compare", seed("bf16"), seed("fp8"), "--go-below", "2", "--investigate-above", "1"}, "must not exceed"},
        {{"compare", seed("bf16"), seed("fp8"), "--go-below", "nan"}, "--go-below"},
        {{"compare", seed("bf16"), seed("fp8"), "--metric", "gsm8k"}, "--metric \"gsm8k\""},
        {{"compare", seed("bf16"), seed("fp8"), "--metric", "nope=acc"}, "no task \"nope\""},
        {{"compare", seed("bf16"), seed("fp8"), "--metric"}, "--metric needs a value"},
        {{"report"}, "exactly one comparison file"},
        {{"frobnicate"}, "frobnicate: no such file"},  // not a command: taken as a file to open
    };
    for (const auto& c : cases) {
        auto r = fp8dashCli(c.args);
        EXPECT_EQ(r.exitCode, 2) << c.expected << "\n" << r.err;
        EXPECT_NE(r.err.find(c.expected), std::string::npos) << r.err;
    }
}

TEST(CliBadInput, NeverACrashNeverAHang) {
    TempDir dir;
    const std::string good = seed("bf16");
    std::vector<std::pair<std::filesystem::path, std::string>> inputs = {
        {dir.write("empty.json", ""), "empty"},
        {dir.write("truncated.json", R"({"results": {"gsm8k": {"exact_match,strict-match": 0.9)"), "not valid JSON"},
        // 12 bytes, the literal's own (14 read past its end: found by AddressSanitizer).
        {dir.write("binary.json", std::string("\x7f"
                                              "ELF\x02\x01\x01\0\0\0\xff\xfe",
                                              12)),
         "not valid JSON"},
        {dir.write("types.json", R"({"results": {"gsm8k": [0.9]}})"), "results.gsm8k must be an object"},
        {dir.write("nan.json", R"({"results": {"gsm8k": {"exact_match,strict-match": NaN}}})"), "not a finite number"},
        {dir.write("huge.json", R"({"results": {"gsm8k": {"exact_match,strict-match": 1e999}}})"), "number overflow"},
        {dir.write("deep.json", std::string(200000, '[')), "nesting deeper"},
        {dir.write("other.json", R"({"results": {"piqa": {"acc,none": 0.5}}})"), "no task can be compared"},
        {dir.write("utf8.json", "{\"results\": {\"\xff\xfe\": {}}}"), "not valid JSON"},
        {dir.path() / "does-not-exist.json", "no such file"},
        {dir.path(), "no lm-eval results file"},
    };
    for (const auto& [path, expected] : inputs) {
        auto r = fp8dashCli({"compare", good, path.string(), "--format", "json"});
        EXPECT_EQ(r.signal, 0) << path << " crashed";
        EXPECT_EQ(r.exitCode, 2) << path << "\n" << r.err;
        EXPECT_NE(r.err.find(expected), std::string::npos) << path << ": " << r.err;
        if (expected != std::string("no task can be compared")) {
            EXPECT_NE(r.err.find(path.string()), std::string::npos) << "the message must name the file: " << r.err;
        }
        EXPECT_TRUE(r.out.empty()) << r.out;
    }
    // The same inputs as comparison files for `report`.
    for (const auto& [path, expected] : inputs) {
        auto r = fp8dashCli({"report", path.string()});
        EXPECT_EQ(r.signal, 0) << path << " crashed";
        EXPECT_EQ(r.exitCode, 2) << path << "\n" << r.err;
        EXPECT_NE(r.err.find(path.string()), std::string::npos) << r.err;
    }
}

TEST(CliBadInput, SaveFailureKeepsTheOldFile) {
    TempDir dir;
    const auto target = dir.path() / "no-such-folder" / "out.fp8cmp";
    auto r = fp8dashCli({"compare", seed("bf16"), seed("fp8"), "--save", target.string()});
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_NE(r.err.find("cannot save"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("no-such-folder"), std::string::npos);
}

}  // namespace
}  // namespace fp8dash

namespace fp8dash {
namespace {

using test::FakePrometheus;

TEST(CliTimeline, FiguresJsonAndNoSecretsInTheSavedFile) {
    FakePrometheus prom;
    TempDir dir;
    const auto saved = dir.path() / "timeline.fp8cmp";
    ::setenv("FP8DASH_PROMETHEUS_TOKEN", "s3cr3t-token-value", 1);
    ::setenv("FP8DASH_PROMETHEUS_HEADERS", "X-Scope-OrgID: tenant-a", 1);
    auto r =
        fp8dashCli({"timeline", "--prometheus", prom.url(), "--from", "1795000000", "--to", "2026-11-18T13:06:40Z",
                    "--change-at", "1795003600", "--step", "60", "--quality-query",
                    R"(langfuse_score_value{name="llm_judge_domain"})", "--format", "json", "--save", saved.string()});
    ::unsetenv("FP8DASH_PROMETHEUS_TOKEN");
    ::unsetenv("FP8DASH_PROMETHEUS_HEADERS");
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto j = parseJson(r);
    EXPECT_DOUBLE_EQ(j["change_at"].get<double>(), FakePrometheus::kChange);
    EXPECT_DOUBLE_EQ(j["throughput"]["before_mean"].get<double>(), 1000);
    EXPECT_DOUBLE_EQ(j["throughput"]["after_mean"].get<double>(), 1500);
    EXPECT_DOUBLE_EQ(j["throughput"]["delta_pct"].get<double>(), 50);
    EXPECT_NEAR(j["quality"]["delta_points"].get<double>(), -0.05, 1e-9);
    EXPECT_TRUE(j["alerts"].empty());
    EXPECT_EQ(j["verdict"], "go");
    EXPECT_EQ(j["alerts_evaluated_by"], "prometheus");
    EXPECT_DOUBLE_EQ(j["detected_change"]["at"].get<double>(), FakePrometheus::kChange);
    // The credentials reached the server...
    bool sawToken = false, sawTenant = false;
    for (const auto& req : prom.server().requests()) {
        sawToken |= req.header("authorization") == std::optional<std::string>("Bearer s3cr3t-token-value");
        sawTenant |= req.header("x-scope-orgid") == std::optional<std::string>("tenant-a");
    }
    EXPECT_TRUE(sawToken);
    EXPECT_TRUE(sawTenant);
    // ...and nowhere else: not in the file, not in the output.
    const std::string file = readTextFile(saved).value();
    EXPECT_EQ(file.find("s3cr3t"), std::string::npos);
    EXPECT_EQ(file.find("tenant-a"), std::string::npos);
    EXPECT_EQ(r.out.find("s3cr3t"), std::string::npos);
    EXPECT_EQ(r.err.find("s3cr3t"), std::string::npos);
    // The saved file re-derives the same figures offline.
    auto report = fp8dashCli({"report", saved.string(), "--format", "json"});
    ASSERT_EQ(report.exitCode, 0) << report.err;
    const auto rj = parseJson(report);
    EXPECT_EQ(rj["timeline"]["throughput"], j["throughput"]);
    EXPECT_EQ(rj["verdict"], "go");
}

TEST(CliTimeline, AddsToAnExistingComparisonAndClearErrors) {
    FakePrometheus prom;
    TempDir dir;
    const auto saved = dir.path() / "both.fp8cmp";
    ASSERT_EQ(fp8dashCli({"compare", seed("bf16"), seed("fp8"), "--save", saved.string()}).exitCode, 0);
    auto r = fp8dashCli({"timeline", "--prometheus", prom.url(), "--from", "1795000000", "--to", "1795007200",
                         "--change-at", "1795003600", "--save", saved.string()});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    auto doc = loadComparisonFile(saved);
    ASSERT_TRUE(doc.ok()) << doc.error().message;
    EXPECT_TRUE(doc->hasEvals);
    ASSERT_TRUE(doc->timeline.has_value());
    EXPECT_FALSE(doc->timeline->quality.has_value());  // throughput only: the evals' verdict stands
    auto report = fp8dashCli({"report", saved.string(), "--format", "json"});
    EXPECT_EQ(parseJson(report)["verdict"], "investigate");

    const int closed = test::closedPort();
    auto refused = fp8dashCli({"timeline", "--prometheus", "http://127.0.0.1:" + std::to_string(closed), "--from",
                               "1795000000", "--to", "1795007200"});
    EXPECT_EQ(refused.exitCode, 2);
    EXPECT_NE(refused.err.find("127.0.0.1:" + std::to_string(closed)), std::string::npos) << refused.err;
    EXPECT_NE(refused.err.find("connection refused"), std::string::npos) << refused.err;
    auto noRange = fp8dashCli({"timeline", "--prometheus", prom.url()});
    EXPECT_EQ(noRange.exitCode, 2);
    EXPECT_NE(noRange.err.find("needs --from and --to"), std::string::npos);
    auto badTime = fp8dashCli({"timeline", "--prometheus", prom.url(), "--from", "yesterday", "--to", "1"});
    EXPECT_EQ(badTime.exitCode, 2);
    EXPECT_NE(badTime.err.find("--from \"yesterday\""), std::string::npos);
}

}  // namespace
}  // namespace fp8dash
