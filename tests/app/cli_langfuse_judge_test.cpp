// `fp8dash compare --judge-langfuse`: judge scores of two trace tags read from a loopback server that follows
// Langfuse's published scores API, with the keys from the environment.
#include <gtest/gtest.h>

#include "cli_runner.h"
#include "langfuse_test_server.h"

namespace fp8dash {
namespace {

using test::LangfuseSeedScore;
using test::LangfuseTestServer;

constexpr double kT0 = 1795824000;  // 2026-11-28T00:00:00Z

// The binary with the Langfuse keys set (through env(1): the test process's environment stays as it is).
test::ProcessResult withKeys(const LangfuseTestServer& server, std::vector<std::string> args) {
    std::vector<std::string> argv = {"/usr/bin/env", "LANGFUSE_PUBLIC_KEY=" + server.options().publicKey,
                                     "LANGFUSE_SECRET_KEY=" + server.options().secretKey, FP8DASH_EXE};
    argv.insert(argv.end(), args.begin(), args.end());
    return test::runProcess(argv, {"DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"});
}

std::vector<LangfuseSeedScore> seed() {
    // BF16: 5, 4, 4, 3 (mean 4); FP8: 4, 4, 3 (mean 11/3), on other traces; t-b1 scored twice (the latest, 4, counts).
    const std::vector<std::pair<std::string, double>> bf16 = {
        {"t-b0", 5}, {"t-b1", 2}, {"t-b2", 4}, {"t-b3", 3}, {"t-b1", 4}};
    const std::vector<std::pair<std::string, double>> fp8 = {{"t-f0", 4}, {"t-f1", 4}, {"t-f2", 3}};
    std::vector<LangfuseSeedScore> out;
    int i = 0;
    for (auto [list, tag] : {std::pair{&bf16, "precision:bf16"}, std::pair{&fp8, "precision:fp8"}})
        for (const auto& [trace, value] : *list) {
            LangfuseSeedScore s;
            s.id = "score-" + std::to_string(i);
            s.traceId = trace;
            s.timestamp = kT0 + 60.0 * i++;
            s.value = value;
            s.traceTags = {tag};
            out.push_back(s);
        }
    return out;
}

TEST(CliCompareLangfuseJudge, TwoTagsGiveTheJudgeMeans) {
    LangfuseTestServer server(seed());
    auto r = withKeys(server, {"compare", "--judge-langfuse", server.baseUrl(), "--judge-baseline-tag",
                               "precision:bf16", "--judge-candidate-tag", "precision:fp8", "--format", "json"});
    ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
    const auto j = test::parseJson(r);
    const auto& judge = j["judge"];
    EXPECT_DOUBLE_EQ(judge["baseline_mean"].get<double>(), (5.0 + 4 + 4 + 3) / 4);
    EXPECT_DOUBLE_EQ(judge["candidate_mean"].get<double>(), 11.0 / 3);
    EXPECT_EQ(judge["paired"], false);
    EXPECT_EQ(judge["n_baseline"], 4);
    EXPECT_EQ(judge["n_candidate"], 3);
    EXPECT_EQ(judge["baseline_source"], "langfuse " + server.baseUrl() + " score llm_judge_domain tag precision:bf16");
    EXPECT_NE(r.err.find("unpaired"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("keeping each trace's latest (e.g. trace t-b1)"), std::string::npos) << r.err;
    EXPECT_EQ(r.err.find(server.options().secretKey), std::string::npos);
    EXPECT_EQ(r.out.find(server.options().secretKey), std::string::npos);
}

TEST(CliCompareLangfuseJudge, MissingKeysAreAUsageErrorNamingTheVariables) {
    LangfuseTestServer server(seed());
    auto r = test::runProcess(
        {FP8DASH_EXE, "compare", "--judge-langfuse", server.baseUrl(), "--judge-baseline-tag", "precision:bf16",
         "--judge-candidate-tag", "precision:fp8"},
        {"DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM", "LANGFUSE_PUBLIC_KEY", "LANGFUSE_SECRET_KEY"});
    EXPECT_EQ(r.exitCode, 2) << r.out << r.err;
    EXPECT_NE(r.err.find("LANGFUSE_PUBLIC_KEY and LANGFUSE_SECRET_KEY"), std::string::npos) << r.err;
    EXPECT_EQ(server.requestCount(), 0u);
}

TEST(CliCompareLangfuseJudge, UsageErrors) {
    LangfuseTestServer server(seed());
    const std::string url = server.baseUrl();
    struct Case {
        std::vector<std::string> args;
        std::string message;
    };
    const std::vector<Case> cases = {
        {{"--judge-langfuse", url, "--judge-baseline-tag", "a", "--judge-candidate-tag", "b", "--judge-baseline",
          "x.jsonl", "--judge-candidate", "y.jsonl"},
         "choose one judge source"},
        {{"--judge-langfuse", url, "--judge-baseline-tag", "a"}, "needs --judge-candidate-tag or -env"},
        {{"--judge-langfuse", url, "--judge-baseline-env", "e", "--judge-candidate-env", "e"}, "the same Langfuse"},
        {{"--judge-baseline-tag", "a", "--judge-candidate-tag", "b"}, "need --judge-langfuse URL"},
    };
    for (const auto& c : cases) {
        std::vector<std::string> args = {"compare"};
        args.insert(args.end(), c.args.begin(), c.args.end());
        auto r = withKeys(server, args);
        EXPECT_EQ(r.exitCode, 2) << c.message << "\n" << r.err;
        EXPECT_NE(r.err.find(c.message), std::string::npos) << r.err;
    }
    EXPECT_EQ(server.requestCount(), 0u);
}

TEST(CliCompareLangfuseJudge, ServerErrorsAreBadInput) {
    LangfuseTestServer server(seed());
    auto r = withKeys(server, {"compare", "--judge-langfuse", server.baseUrl(), "--judge-baseline-tag",
                               "precision:none", "--judge-candidate-tag", "precision:fp8"});
    EXPECT_EQ(r.exitCode, 2) << r.out << r.err;
    EXPECT_NE(r.err.find("judge baseline: langfuse"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("precision:none"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace fp8dash
