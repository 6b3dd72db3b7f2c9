// `fp8dash judge` as a user runs it, against loopback OpenAI-compatible servers hosted by this test: the summary (its
// means computed here by hand), the files, keys from the environment, resume, and exit codes for bad input.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "cli_runner.h"
#include "openai_test_server.h"
#include "process.h"
#include "test_paths.h"

namespace fp8dash {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;
using test::fp8dashCli;
using test::OpenAiTestServer;
using test::parseJson;
using test::TempDir;

const char* const kKeyVariables[] = {"FP8DASH_BASELINE_API_KEY", "FP8DASH_CANDIDATE_API_KEY", "FP8DASH_JUDGE_API_KEY",
                                     "OPENAI_API_KEY"};

// Keys set for one test and removed after it, so that no test sees another's (or the caller's) keys.
class KeyEnvironment {
public:
    KeyEnvironment() {
        for (const char* v : kKeyVariables) ::unsetenv(v);
    }
    ~KeyEnvironment() {
        for (const char* v : kKeyVariables) ::unsetenv(v);
    }
    void set(const char* name, const std::string& value) { ::setenv(name, value.c_str(), 1); }
};

std::string readText(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

std::size_t lineCount(const fs::path& p) {
    std::ifstream in(p);
    std::size_t n = 0;
    for (std::string line; std::getline(in, line);) n += !line.empty();
    return n;
}

// Prompt "Q<i>"; the baseline answers "quality <1 + i % 5>", the candidate "quality <1 + (i + 1) % 5>"; the judge
// replies with the quality it reads. Over i = 0..3: baseline 1,2,3,4 (mean 2.5), candidate 2,3,4,5 (mean 3.5).
struct Servers {
    explicit Servers(OpenAiTestServer::Options b = {}, OpenAiTestServer::Options c = {},
                     OpenAiTestServer::Options j = {})
        : baseline(answerer(0), named(std::move(b), "bf16")),
          candidate(answerer(1), named(std::move(c), "fp8")),
          judge(
              [](const OpenAiTestServer::ChatRequest& r) {
                  const std::string& rubric = r.messages.front().content;
                  const auto at = rubric.find("quality ");
                  return OpenAiTestServer::Answer(at == std::string::npos ? "no idea" : rubric.substr(at + 8, 1));
              },
              named(std::move(j), "judge")) {}

    static OpenAiTestServer::Options named(OpenAiTestServer::Options o, const std::string& model) {
        o.models = {model};
        return o;
    }
    static OpenAiTestServer::Answerer answerer(int shift) {
        return [shift](const OpenAiTestServer::ChatRequest& r) {
            const int i = std::atoi(r.lastUserContent().c_str() + 1);
            return OpenAiTestServer::Answer("quality " + std::to_string(1 + (i + shift) % 5));
        };
    }

    OpenAiTestServer baseline, candidate, judge;
};

std::string samplesText(int n) {
    std::string s;
    for (int i = 0; i < n; ++i)
        s +=
            json{{"id", "q" + std::to_string(i)}, {"prompt", "Q" + std::to_string(i)}, {"expected", "E"}}.dump() + "\n";
    return s;
}

std::vector<std::string> judgeArgs(const Servers& s, const fs::path& samples, const fs::path& out) {
    return {"judge",           "--samples",           samples.string(), "--baseline-url",          s.baseline.baseUrl(),
            "--candidate-url", s.candidate.baseUrl(), "--judge-url",    s.judge.baseUrl() + "/v1", "--judge-model",
            "judge",           "--out-dir",           out.string(),     "--concurrency",           "3"};
}

TEST(CliJudge, RunsTheEvalWithKeysFromTheEnvironment) {
    KeyEnvironment env;
    const std::string kb = "sk-b-SECRET-0001", kAll = "sk-all-SECRET-0002";
    env.set("FP8DASH_BASELINE_API_KEY", kb);
    env.set("OPENAI_API_KEY", kAll);  // the fallback for the candidate and the judge
    OpenAiTestServer::Options ob, oc, oj;
    ob.apiKey = kb;
    oc.apiKey = kAll;
    oj.apiKey = kAll;
    Servers servers(ob, oc, oj);
    TempDir dir;
    const auto samples = dir.write("samples.jsonl", samplesText(4));
    const auto out = dir.path() / "eval";
    auto args = judgeArgs(servers, samples, out);
    args.insert(args.end(), {"--format", "json"});
    const auto r = fp8dashCli(args);
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const json j = parseJson(r);
    EXPECT_EQ(j["samples"], 4);
    EXPECT_EQ(j["scored"], 8);
    EXPECT_EQ(j["failed"], 0);
    EXPECT_EQ(j["cancelled"], false);
    EXPECT_EQ(j["baseline"]["model"], "bf16");  // from GET /v1/models
    EXPECT_EQ(j["candidate"]["model"], "fp8");
    EXPECT_DOUBLE_EQ(j["baseline"]["mean_score"].get<double>(), 2.5);
    EXPECT_DOUBLE_EQ(j["candidate"]["mean_score"].get<double>(), 3.5);
    EXPECT_EQ(lineCount(out / "baseline.jsonl"), 4u);
    EXPECT_EQ(lineCount(out / "candidate.jsonl"), 4u);
    EXPECT_EQ(lineCount(out / "failures.jsonl"), 0u);
    EXPECT_TRUE(fs::exists(out / "run.json"));

    for (const auto& [server, key] :
         {std::pair{&servers.baseline, kb}, std::pair{&servers.candidate, kAll}, std::pair{&servers.judge, kAll}}) {
        ASSERT_FALSE(server->requests().empty());
        for (const auto& req : server->requests()) EXPECT_EQ(req.header("authorization"), "Bearer " + key);
    }
    EXPECT_EQ(r.out.find("SECRET"), std::string::npos);
    EXPECT_EQ(r.err.find("SECRET"), std::string::npos);
    for (const auto& e : fs::directory_iterator(out))
        EXPECT_EQ(readText(e.path()).find("SECRET"), std::string::npos) << e.path();

    // The same command again resumes: everything is already scored, nothing is asked.
    const std::size_t judged = servers.judge.receivedCount();
    const auto again = fp8dashCli(judgeArgs(servers, samples, out));
    ASSERT_EQ(again.exitCode, 0) << again.err;
    EXPECT_NE(again.out.find("resumed: 8 of 8 already scored"), std::string::npos) << again.out;
    EXPECT_NE(again.out.find("mean score 2.50"), std::string::npos) << again.out;
    EXPECT_NE(again.out.find("+40.0%"), std::string::npos) << again.out;  // (3.5 - 2.5) / 2.5
    EXPECT_EQ(servers.judge.receivedCount(), judged);
}

TEST(CliJudge, BadInputExitsTwoNamingTheProblem) {
    KeyEnvironment env;
    Servers servers;
    TempDir dir;
    const auto samples = dir.write("samples.jsonl", samplesText(2));
    const auto out = dir.path() / "eval";

    auto missing = judgeArgs(servers, dir.path() / "no-such-samples.jsonl", out);
    auto r = fp8dashCli(missing);
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_NE(r.err.find("no-such-samples.jsonl"), std::string::npos) << r.err;
    EXPECT_EQ(servers.judge.receivedCount(), 0u);

    const auto broken = dir.write("broken.jsonl", samplesText(1) + "{\"id\": \"x\", \"prompt\": 3}\n");
    r = fp8dashCli(judgeArgs(servers, broken, out));
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_NE(r.err.find("broken.jsonl line 2: \"prompt\""), std::string::npos) << r.err;

    auto noJudgeModel = judgeArgs(servers, samples, out);
    noJudgeModel.erase(noJudgeModel.begin() + 9, noJudgeModel.begin() + 11);  // "--judge-model", "judge"
    r = fp8dashCli(noJudgeModel);
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_NE(r.err.find("judge needs --judge-model"), std::string::npos) << r.err;

    for (const char* n : {"0", "65", "four"}) {
        auto args = judgeArgs(servers, samples, out);
        args.back() = n;  // --concurrency
        r = fp8dashCli(args);
        EXPECT_EQ(r.exitCode, 2) << n;
        EXPECT_NE(r.err.find("--concurrency \"" + std::string(n) + "\": expected a whole number from 1 to 64"),
                  std::string::npos)
            << r.err;
    }

    auto unknown = judgeArgs(servers, samples, out);
    unknown.push_back("--temperature");
    r = fp8dashCli(unknown);
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_NE(r.err.find("judge: unknown argument --temperature"), std::string::npos) << r.err;

    auto rubric = judgeArgs(servers, samples, out);
    rubric.insert(rubric.end(), {"--rubric-file", (dir.path() / "no-rubric.txt").string()});
    r = fp8dashCli(rubric);
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_NE(r.err.find("no-rubric.txt"), std::string::npos) << r.err;

    // A deployment whose model cannot be found: the URL is named.
    OpenAiTestServer::Options noListing;
    noListing.modelsRoute = false;
    Servers unlisted(noListing);
    r = fp8dashCli(judgeArgs(unlisted, samples, out));
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_NE(r.err.find(unlisted.baseline.baseUrl() + "/v1/models"), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(out / "baseline.jsonl"));
}

TEST(CliJudge, ACustomRubricIsSentToTheJudge) {
    KeyEnvironment env;
    Servers servers;
    TempDir dir;
    const auto samples = dir.write("samples.jsonl", samplesText(1));
    const auto rubricFile = dir.write("rubric.txt", "Grade {answer} for {prompt}; one digit.");
    auto args = judgeArgs(servers, samples, dir.path() / "eval");
    args.insert(args.end(), {"--rubric-file", rubricFile.string(), "--baseline-model", "bf16", "--max-tokens", "64"});
    const auto r = fp8dashCli(args);
    ASSERT_EQ(r.exitCode, 0) << r.err;
    std::set<std::string> prompts;
    for (const auto& req : servers.judge.received()) {
        prompts.insert(req.messages[0].content);
        EXPECT_EQ(req.maxTokens, 64);
    }
    // Q0: the baseline says "quality 1", the candidate "quality 2".
    EXPECT_EQ(prompts,
              (std::set<std::string>{"Grade quality 1 for Q0; one digit.", "Grade quality 2 for Q0; one digit."}));
    EXPECT_EQ(json::parse(readText(dir.path() / "eval" / "run.json"))["settings"]["rubric"],
              "Grade {answer} for {prompt}; one digit.");
}

}  // namespace
}  // namespace fp8dash
