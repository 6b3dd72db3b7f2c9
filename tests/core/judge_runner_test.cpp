// The domain eval with an LLM judge against loopback servers that follow the OpenAI chat-completions API: two
// deployments answering fixed texts and a judge that rates by a rule the test knows (the quality written in the
// answer), so every expected score below is computed here from that rule, not read from the code under test.
#include "fp8dash/core/judge_runner.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <set>
#include <sstream>

#include "openai_test_server.h"
#include "test_paths.h"

namespace fp8dash {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;
using test::OpenAiTestServer;
using test::TempDir;

// The rule behind every score: sample i's baseline answer has quality 1 + i % 5; the candidate's is one lower on
// every third sample (i % 3 == 0), never below 1. Baseline over i = 0..9: 1,2,3,4,5,1,2,3,4,5 (sum 30, mean 3.0);
// candidate: 1,2,3,3,5,1,1,3,4,4 (sum 27, mean 2.7).
int baselineQuality(int i) {
    return 1 + i % 5;
}
int candidateQuality(int i) {
    return std::max(1, baselineQuality(i) - (i % 3 == 0 ? 1 : 0));
}

std::string sampleId(int i) {
    return "s" + std::to_string(i);
}
std::string prompt(int i) {
    return "Question " + std::to_string(i) + "?";
}
std::string runnerExpected(int i) {
    return "Expected " + std::to_string(i);
}
std::string answerText(int i, bool candidate) {
    return "Answer to " + std::to_string(i) + (candidate ? " (fp8)" : " (bf16)") + ": quality " +
           std::to_string(candidate ? candidateQuality(i) : baselineQuality(i));
}

std::string readText(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

std::vector<json> readLines(const fs::path& p) {
    std::vector<json> out;
    std::ifstream in(p);
    for (std::string line; std::getline(in, line);)
        if (!line.empty()) out.push_back(json::parse(line));
    return out;
}

std::map<std::string, json> byId(const std::vector<json>& lines) {
    std::map<std::string, json> out;
    for (const auto& l : lines) {
        EXPECT_TRUE(out.emplace(l["id"].get<std::string>(), l).second) << "duplicate id " << l["id"];
    }
    return out;
}

// What the judge saw: the sample index and quality from the "Model answer:" line, and whether the answer was fp8's.
struct Seen {
    int sample = -1;
    int quality = 0;
    bool candidate = false;
};
Seen seenBy(const OpenAiTestServer::ChatRequest& r) {
    const std::string& rubric = r.messages.front().content;
    Seen s;
    const auto at = rubric.find("Model answer: Answer to ");
    if (at == std::string::npos) return s;
    std::istringstream in(rubric.substr(at + 24));
    std::string variant, word;
    in >> s.sample >> variant >> word >> s.quality;
    s.candidate = variant == "(fp8):";
    return s;
}

// Three servers (baseline, candidate, judge), n samples, and settings pointing at them.
struct Rig {
    using JudgeStyle = std::function<OpenAiTestServer::Answer(const Seen&, bool reasked)>;

    explicit Rig(int n, JudgeStyle style = {}, OpenAiTestServer::Options baselineOptions = {},
                 OpenAiTestServer::Options candidateOptions = {}, OpenAiTestServer::Options judgeOptions = {},
                 std::function<OpenAiTestServer::Answer(int)> candidateFault = {})
        : samples(n),
          baseline(deployment(n, false, {}), withModel(std::move(baselineOptions), "bf16-model")),
          candidate(deployment(n, true, std::move(candidateFault)),
                    withModel(std::move(candidateOptions), "fp8-model")),
          judge(
              [style = std::move(style)](const OpenAiTestServer::ChatRequest& r) {
                  const Seen s = seenBy(r);
                  const bool reasked = r.messages.size() == 3 && r.lastUserContent() == kJudgeStrictInstruction;
                  if (style) return style(s, reasked);
                  return OpenAiTestServer::Answer(std::to_string(s.quality));
              },
              withModel(std::move(judgeOptions), "judge-model")) {
        std::string lines;
        for (int i = 0; i < n; ++i)
            lines += json{{"id", sampleId(i)}, {"prompt", prompt(i)}, {"expected", runnerExpected(i)}}.dump() + "\n";
        samplesPath = dir.write("samples.jsonl", lines);
        settings.samplesPath = samplesPath.string();
        settings.baseline.url = baseline.baseUrl();  // the model is asked from GET /v1/models
        settings.candidate.url = candidate.baseUrl() + "/v1/chat/completions";
        settings.candidate.model = "fp8-model";
        settings.judge.url = judge.baseUrl() + "/v1/";
        settings.judge.model = "judge-model";
        settings.concurrency = 4;
        settings.outDir = (dir.path() / "out").string();
        settings.http.retryBaseDelayS = 0.01;
        settings.http.maxRetryDelayS = 0.05;
        settings.http.totalTimeoutS = 10;
    }

    static OpenAiTestServer::Options withModel(OpenAiTestServer::Options o, const std::string& model) {
        o.models = {model};
        return o;
    }
    static OpenAiTestServer::Answerer deployment(int n, bool candidate,
                                                 std::function<OpenAiTestServer::Answer(int)> fault) {
        std::map<std::string, int> index;
        for (int i = 0; i < n; ++i) index[prompt(i)] = i;
        return [index, candidate, fault = std::move(fault)](const OpenAiTestServer::ChatRequest& r) {
            const auto it = index.find(r.lastUserContent());
            if (it == index.end()) return OpenAiTestServer::Answer("unknown prompt");
            if (fault) {
                auto a = fault(it->second);
                if (a.status != 200 || a.malformed != OpenAiTestServer::Malformed::None || a.delayMs) {
                    a.content = answerText(it->second, candidate);
                    return a;
                }
            }
            return OpenAiTestServer::Answer(answerText(it->second, candidate));
        };
    }

    fs::path out(const std::string& name) const { return fs::path(settings.outDir) / name; }

    int samples;
    TempDir dir;
    fs::path samplesPath;
    OpenAiTestServer baseline, candidate, judge;
    JudgeRunSettings settings;
};

// Every scored line of both files holds the score the rule gives, with its sample's texts.
void expectScoresFollowTheRule(const Rig& rig, const std::set<std::string>& missingBaseline = {},
                               const std::set<std::string>& missingCandidate = {}) {
    for (bool cand : {false, true}) {
        const auto lines = byId(readLines(rig.out(cand ? "candidate.jsonl" : "baseline.jsonl")));
        const auto& missing = cand ? missingCandidate : missingBaseline;
        EXPECT_EQ(lines.size(), static_cast<std::size_t>(rig.samples) - missing.size());
        for (int i = 0; i < rig.samples; ++i) {
            const auto it = lines.find(sampleId(i));
            if (missing.count(sampleId(i))) {
                EXPECT_EQ(it, lines.end()) << sampleId(i);
                continue;
            }
            ASSERT_NE(it, lines.end()) << (cand ? "candidate " : "baseline ") << sampleId(i);
            const json& r = it->second;
            EXPECT_EQ(r["score"], cand ? candidateQuality(i) : baselineQuality(i)) << sampleId(i);
            EXPECT_EQ(r["prompt"], prompt(i));
            EXPECT_EQ(r["expected"], runnerExpected(i));
            EXPECT_EQ(r["answer"], answerText(i, cand));
            EXPECT_TRUE(r["judge_reply"].is_string());
            EXPECT_TRUE(r["latency_s"].is_number());
            EXPECT_GE(r["latency_s"].get<double>(), 0.0);
            EXPECT_GE(r["judge_latency_s"].get<double>(), 0.0);
            EXPECT_EQ(r["model"], cand ? "fp8-model" : "bf16-model");
        }
    }
}

TEST(JudgeRunner, FullRunWritesBothScoreFiles) {
    Rig rig(10);
    std::vector<JudgeRunCounts> seen;
    std::mutex m;
    auto summary = runJudgeEval(rig.settings, {}, [&](const JudgeRunCounts& c) {
        std::lock_guard lock(m);
        seen.push_back(c);
    });
    ASSERT_TRUE(summary) << summary.error().message;
    expectScoresFollowTheRule(rig);
    EXPECT_EQ(readText(rig.out("failures.jsonl")), "");

    EXPECT_FALSE(summary->cancelled);
    EXPECT_EQ(summary->samples, 10u);
    EXPECT_EQ(summary->counts.total, 20u);
    EXPECT_EQ(summary->counts.scored, 20u);
    EXPECT_EQ(summary->counts.failed, 0u);
    EXPECT_EQ(summary->counts.alreadyDone, 0u);
    EXPECT_EQ(summary->baseline.model, "bf16-model");  // from GET /v1/models
    EXPECT_EQ(summary->candidate.model, "fp8-model");
    ASSERT_TRUE(summary->baseline.meanScore && summary->candidate.meanScore);
    EXPECT_DOUBLE_EQ(*summary->baseline.meanScore, 3.0);   // 30 / 10
    EXPECT_DOUBLE_EQ(*summary->candidate.meanScore, 2.7);  // 27 / 10

    // Progress: the start plus one report per finished unit, the last one at 20/20.
    ASSERT_EQ(seen.size(), 21u);
    EXPECT_EQ(seen.back().finished(), 20u);

    // Each prompt asked once per deployment, each answer judged once, as the API expects it.
    ASSERT_EQ(rig.baseline.receivedCount(), 10u);
    ASSERT_EQ(rig.candidate.receivedCount(), 10u);
    ASSERT_EQ(rig.judge.receivedCount(), 20u);
    for (const auto& r : rig.baseline.received()) {
        EXPECT_EQ(r.model, "bf16-model");
        ASSERT_TRUE(r.temperature && r.maxTokens);
        EXPECT_EQ(*r.temperature, 0.0);
        EXPECT_EQ(*r.maxTokens, 512);
        ASSERT_EQ(r.messages.size(), 1u);
        EXPECT_EQ(r.messages[0].role, "user");
        EXPECT_FALSE(r.authorization);  // no key configured: no header
    }
    std::set<std::string> judgePrompts;
    for (const auto& r : rig.judge.received()) {
        EXPECT_EQ(r.model, "judge-model");
        judgePrompts.insert(r.messages[0].content);
    }
    // The seed's rubric, filled in by hand for sample 3's baseline answer.
    EXPECT_EQ(judgePrompts.count("Rate this answer from 1 to 5 on accuracy and completeness.\n"
                                 "Question: Question 3?\nExpected answer: Expected 3\n"
                                 "Model answer: Answer to 3 (bf16): quality 4\n\n"
                                 "Reply with a number from 1 to 5 only."),
              1u);

    const json run = json::parse(readText(rig.out("run.json")));
    EXPECT_EQ(run["settings"]["baseline"]["model"], "bf16-model");
    EXPECT_EQ(run["settings"]["baseline"]["url"], rig.baseline.baseUrl());
    EXPECT_EQ(run["settings"]["candidate"]["url"], rig.candidate.baseUrl());
    EXPECT_EQ(run["settings"]["judge"]["url"], rig.judge.baseUrl());
    EXPECT_EQ(run["settings"]["judge"]["model"], "judge-model");
    EXPECT_EQ(run["settings"]["rubric"], kDefaultJudgeRubric);
    EXPECT_EQ(run["settings"]["max_tokens"], 512);
    EXPECT_EQ(run["concurrency"], 4);
    EXPECT_EQ(run["counts"]["baseline"]["scored"], 10);
    EXPECT_EQ(run["counts"]["candidate"]["scored"], 10);
    EXPECT_EQ(run["finished"], true);
}

TEST(JudgeRunner, RateLimitsAndServerErrorsAreRetried) {
    OpenAiTestServer::Options limited, failing;
    limited.rateLimitFirst = 2;  // Retry-After: 1, capped by maxRetryDelayS (0.05 s)
    failing.serverErrorFirst = 3;
    Rig rig(10, {}, limited, failing);
    rig.settings.concurrency = 2;
    auto summary = runJudgeEval(rig.settings);
    ASSERT_TRUE(summary) << summary.error().message;
    expectScoresFollowTheRule(rig);
    EXPECT_EQ(summary->counts.failed, 0u);
    EXPECT_EQ(rig.baseline.chatRequestCount(), 12u);   // 10 + 2 refused
    EXPECT_EQ(rig.candidate.chatRequestCount(), 13u);  // 10 + 3 failed
    // The attempts of each answer add up to every request sent.
    for (const auto& [file, total] : {std::pair{"baseline.jsonl", 12}, std::pair{"candidate.jsonl", 13}}) {
        int attempts = 0;
        for (const auto& r : readLines(rig.out(file))) attempts += r["attempts"].get<int>();
        EXPECT_EQ(attempts, total) << file;
    }
}

TEST(JudgeRunner, JudgeAnsweringInWordsOrVaguelyIsParsedOrAskedAgain) {
    static const char* const kWords[] = {"", "one", "two", "three", "four", "five"};
    // Every third sample gets an answer in words; sample 4 first gets a reply with several numbers, then the digit.
    Rig rig(10, [](const Seen& s, bool reasked) {
        if (reasked) return OpenAiTestServer::Answer(std::to_string(s.quality));
        if (s.sample == 4)
            return OpenAiTestServer::Answer("It gets 2 of the 3 key facts, so " + std::to_string(s.quality));
        if (s.sample % 3 == 0)
            return OpenAiTestServer::Answer(std::string("I would rate this a ") + kWords[s.quality] + " out of five");
        return OpenAiTestServer::Answer("**" + std::to_string(s.quality) + "**");
    });
    auto summary = runJudgeEval(rig.settings);
    ASSERT_TRUE(summary) << summary.error().message;
    expectScoresFollowTheRule(rig);
    EXPECT_EQ(rig.judge.receivedCount(), 22u);  // 20 + sample 4 asked again for each variant
    for (const char* file : {"baseline.jsonl", "candidate.jsonl"}) {
        const auto lines = byId(readLines(rig.out(file)));
        EXPECT_EQ(lines.at("s4")["judge_reasked"], true);
        EXPECT_EQ(lines.at("s4")["judge_first_reply"].get<std::string>().rfind("It gets 2 of the 3", 0), 0u);
        EXPECT_EQ(lines.at("s3")["judge_reasked"], false);
        EXPECT_EQ(lines.at("s3")["judge_reply"].get<std::string>().find("out of five") != std::string::npos, true);
    }
    // The second question carries the conversation: the rubric, the judge's reply, the strict instruction.
    int reasks = 0;
    for (const auto& r : rig.judge.received()) {
        if (r.messages.size() != 3) continue;
        ++reasks;
        EXPECT_EQ(r.messages[1].role, "assistant");
        EXPECT_EQ(r.messages[1].content.rfind("It gets 2 of the 3", 0), 0u);
        EXPECT_EQ(r.messages[2].content, "Answer with a single digit 1-5.");
    }
    EXPECT_EQ(reasks, 2);
}

TEST(JudgeRunner, JudgeUnparsableTwiceIsRecordedAsAFailure) {
    Rig rig(5, [](const Seen& s, bool) {
        if (s.sample == 2 && !s.candidate) return OpenAiTestServer::Answer("The answer is fine, mostly.");
        return OpenAiTestServer::Answer(std::to_string(s.quality));
    });
    auto summary = runJudgeEval(rig.settings);
    ASSERT_TRUE(summary) << summary.error().message;
    expectScoresFollowTheRule(rig, {"s2"});
    EXPECT_EQ(summary->counts.scored, 9u);
    EXPECT_EQ(summary->counts.failed, 1u);
    EXPECT_EQ(summary->baseline.failed, 1u);
    EXPECT_EQ(rig.judge.receivedCount(), 11u);  // 10 + one second try
    const auto failures = readLines(rig.out("failures.jsonl"));
    ASSERT_EQ(failures.size(), 1u);
    EXPECT_EQ(failures[0]["id"], "s2");
    EXPECT_EQ(failures[0]["variant"], "baseline");
    EXPECT_EQ(failures[0]["stage"], "judge");
    EXPECT_EQ(failures[0]["answer"], answerText(2, false));
    EXPECT_EQ(failures[0]["judge_reply"], "The answer is fine, mostly.");
    EXPECT_NE(failures[0]["reason"].get<std::string>().find("no single score 1-5, twice"), std::string::npos);
    // The baseline mean is over the 4 scored samples: (1 + 2 + 4 + 5) / 4.
    EXPECT_DOUBLE_EQ(*summary->baseline.meanScore, 3.0);
}

TEST(JudgeRunner, BrokenCompletionsAreFailuresNamingTheUrl) {
    using M = OpenAiTestServer::Malformed;
    Rig rig(6, {}, {}, {}, {}, [](int i) {
        OpenAiTestServer::Answer a;
        if (i == 1) a.malformed = M::NotJson;
        if (i == 2) a.malformed = M::NoChoices;
        if (i == 3) a.malformed = M::ContentNotText;
        if (i == 4) a.status = 500;                // every time: the retries run out
        if (i == 5) a.malformed = M::RepeatedKey;  // which "content" is the answer is not defined (issue 26)
        return a;
    });
    auto summary = runJudgeEval(rig.settings);
    ASSERT_TRUE(summary) << summary.error().message;
    expectScoresFollowTheRule(rig, {}, {"s1", "s2", "s3", "s4", "s5"});
    std::map<std::string, std::string> reasons;
    for (const auto& f : readLines(rig.out("failures.jsonl"))) {
        EXPECT_EQ(f["variant"], "candidate");
        EXPECT_EQ(f["stage"], "answer");
        reasons[f["id"]] = f["reason"];
    }
    ASSERT_EQ(reasons.size(), 5u);
    const std::string url = "POST " + rig.candidate.baseUrl() + "/v1/chat/completions";
    for (const auto& [id, reason] : reasons) EXPECT_EQ(reason.rfind(url + ": ", 0), 0u) << reason;
    EXPECT_NE(reasons["s1"].find("not JSON"), std::string::npos) << reasons["s1"];
    EXPECT_NE(reasons["s2"].find("\"choices\""), std::string::npos) << reasons["s2"];
    EXPECT_NE(reasons["s3"].find("choices[0].message.content"), std::string::npos) << reasons["s3"];
    EXPECT_NE(reasons["s4"].find("HTTP 500"), std::string::npos) << reasons["s4"];
    EXPECT_NE(reasons["s4"].find("after 4 attempts"), std::string::npos) << reasons["s4"];
    EXPECT_NE(reasons["s5"].find("choices[0].message: key \"content\" appears twice"), std::string::npos)
        << reasons["s5"];
    int s4Requests = 0;
    for (const auto& r : rig.candidate.received()) s4Requests += r.lastUserContent() == prompt(4);
    EXPECT_EQ(s4Requests, 4);  // the first try and serverErrorRetries = 3
}

TEST(JudgeRunner, SlowReplyTimesOutAsAFailure) {
    Rig rig(3, {}, {}, {}, {}, [](int i) {
        OpenAiTestServer::Answer a;
        if (i == 0) a.delayMs = 1000;
        return a;
    });
    rig.settings.http.totalTimeoutS = 0.3;
    auto summary = runJudgeEval(rig.settings);
    ASSERT_TRUE(summary) << summary.error().message;
    expectScoresFollowTheRule(rig, {}, {"s0"});
    const auto failures = readLines(rig.out("failures.jsonl"));
    ASSERT_EQ(failures.size(), 1u);
    EXPECT_NE(failures[0]["reason"].get<std::string>().find("timed out"), std::string::npos) << failures[0];
}

TEST(JudgeRunner, CancelKeepsWhatIsDoneAndResumeAsksOnlyTheRest) {
    Rig rig(10);
    rig.settings.concurrency = 2;
    std::atomic<bool> cancel{false};
    Progress progress;
    progress.cancelled = [&] { return cancel.load(); };
    auto first = runJudgeEval(rig.settings, progress, [&](const JudgeRunCounts& c) {
        if (c.scored >= 6) cancel = true;
    });
    ASSERT_TRUE(first) << first.error().message;
    EXPECT_TRUE(first->cancelled);
    const auto b1 = byId(readLines(rig.out("baseline.jsonl")));
    const auto c1 = byId(readLines(rig.out("candidate.jsonl")));
    const std::size_t done1 = b1.size() + c1.size();
    EXPECT_GE(done1, 6u);
    EXPECT_LT(done1, 20u);
    EXPECT_EQ(json::parse(readText(rig.out("run.json")))["cancelled"], true);

    // A crash while writing leaves half a line: the resumed run cuts it off.
    std::ofstream(rig.out("baseline.jsonl"), std::ios::app) << R"({"id": "s9", "score": 3, "prom)";

    const std::size_t baselineBefore = rig.baseline.receivedCount();
    const std::size_t candidateBefore = rig.candidate.receivedCount();
    auto second = runJudgeEval(rig.settings);
    ASSERT_TRUE(second) << second.error().message;
    EXPECT_FALSE(second->cancelled);
    EXPECT_EQ(second->counts.alreadyDone, done1);
    EXPECT_EQ(second->counts.scored, 20u - done1);
    EXPECT_GE(rig.baseline.receivedCount() - baselineBefore, 10u - b1.size());
    EXPECT_GE(rig.candidate.receivedCount() - candidateBefore, 10u - c1.size());
    // What the first run scored was asked exactly once over both runs: the resumed run did not ask it again. (Counted
    // by content, not by request totals: a request cut off by the cancel may reach the server late.)
    for (const auto& [server, done] : {std::pair{&rig.baseline, &b1}, std::pair{&rig.candidate, &c1}}) {
        std::map<std::string, int> asked;
        for (const auto& r : server->received()) ++asked[r.lastUserContent()];
        for (const auto& [id, rec] : *done) EXPECT_EQ(asked[rec["prompt"].get<std::string>()], 1) << id;
    }
    std::map<std::pair<int, bool>, int> judged;
    for (const auto& r : rig.judge.received()) {
        const Seen seen = seenBy(r);
        ++judged[{seen.sample, seen.candidate}];
    }
    for (int i = 0; i < 10; ++i) {
        if (b1.count(sampleId(i))) {
            EXPECT_EQ((judged[{i, false}]), 1) << sampleId(i);
        }
        if (c1.count(sampleId(i))) {
            EXPECT_EQ((judged[{i, true}]), 1) << sampleId(i);
        }
    }
    expectScoresFollowTheRule(rig);  // every line parses: the half line is gone, no id twice
    EXPECT_DOUBLE_EQ(*second->baseline.meanScore, 3.0);
    EXPECT_DOUBLE_EQ(*second->candidate.meanScore, 2.7);
    EXPECT_EQ(json::parse(readText(rig.out("run.json")))["finished"], true);

    // A third run finds nothing to do and asks nothing.
    const std::size_t judgeAfter = rig.judge.receivedCount();
    auto third = runJudgeEval(rig.settings);
    ASSERT_TRUE(third) << third.error().message;
    EXPECT_EQ(third->counts.alreadyDone, 20u);
    EXPECT_EQ(rig.judge.receivedCount(), judgeAfter);
}

TEST(JudgeRunner, ApiKeysAreSentAsBearerAndNeverWritten) {
    const std::string kb = "sk-base-SECRET-1111", kc = "sk-cand-SECRET-2222", kj = "sk-judge-SECRET-3333";
    OpenAiTestServer::Options ob, oc, oj;
    ob.apiKey = kb;
    oc.apiKey = kc;
    oj.apiKey = kj;
    Rig rig(4, {}, ob, oc, oj);
    rig.settings.baseline.apiKey = kb;
    rig.settings.candidate.apiKey = kc;
    rig.settings.judge.apiKey = kj;
    auto summary = runJudgeEval(rig.settings);
    ASSERT_TRUE(summary) << summary.error().message;
    expectScoresFollowTheRule(rig);
    for (const auto& [server, key] :
         {std::pair{&rig.baseline, kb}, std::pair{&rig.candidate, kc}, std::pair{&rig.judge, kj}}) {
        const auto requests = server->requests();
        ASSERT_FALSE(requests.empty());
        for (const auto& r : requests) EXPECT_EQ(r.header("authorization"), "Bearer " + key) << r.path;
    }

    // A wrong candidate key: every candidate sample fails with the server's 401, and no key reaches a file.
    rig.settings.candidate.apiKey = "sk-wrong-SECRET-9999";
    rig.settings.outDir = (rig.dir.path() / "out2").string();
    auto wrong = runJudgeEval(rig.settings);
    ASSERT_TRUE(wrong) << wrong.error().message;
    EXPECT_EQ(wrong->candidate.failed, 4u);
    for (const auto& f : readLines(rig.out("failures.jsonl")))
        EXPECT_NE(f["reason"].get<std::string>().find("HTTP 401"), std::string::npos) << f;

    for (const auto& entry : fs::recursive_directory_iterator(rig.dir.path())) {
        if (!entry.is_regular_file()) continue;
        const std::string content = readText(entry.path());
        for (const std::string& key : {kb, kc, kj, std::string("sk-wrong-SECRET-9999")})
            EXPECT_EQ(content.find(key), std::string::npos) << key << " in " << entry.path();
        EXPECT_EQ(content.find("SECRET"), std::string::npos) << entry.path();
    }
}

TEST(JudgeRunner, ResumeRefusesDifferentSettingsAndForeignFolders) {
    Rig rig(3);
    ASSERT_TRUE(runJudgeEval(rig.settings));
    auto other = rig.settings;
    other.judge.model = "another-judge";
    auto refused = runJudgeEval(other);
    ASSERT_FALSE(refused);
    EXPECT_NE(refused.error().message.find("judge model \"judge-model\", this one \"another-judge\""),
              std::string::npos)
        << refused.error().message;
    EXPECT_NE(refused.error().message.find("run.json"), std::string::npos);

    auto rubric = rig.settings;
    rubric.rubric = "Score {answer} against {expected}.";
    auto refusedRubric = runJudgeEval(rubric);
    ASSERT_FALSE(refusedRubric);
    EXPECT_NE(refusedRubric.error().message.find("rubric"), std::string::npos);

    // Score files without run.json belong to someone else.
    const auto foreign = rig.dir.write("foreign/baseline.jsonl", R"({"id": "s0", "score": 3})"
                                                                 "\n");
    auto f = rig.settings;
    f.outDir = foreign.parent_path().string();
    auto refusedForeign = runJudgeEval(f);
    ASSERT_FALSE(refusedForeign);
    EXPECT_NE(refusedForeign.error().message.find("baseline.jsonl"), std::string::npos);
}

TEST(JudgeRunner, ModelDiscoveryFailureNamesTheUrl) {
    OpenAiTestServer::Options noListing;
    noListing.modelsRoute = false;
    Rig rig(2, {}, noListing);
    auto r = runJudgeEval(rig.settings);
    ASSERT_FALSE(r);
    EXPECT_NE(r.error().message.find("GET " + rig.baseline.baseUrl() + "/v1/models"), std::string::npos)
        << r.error().message;
    EXPECT_NE(r.error().message.find("--baseline-model"), std::string::npos);
    EXPECT_EQ(rig.judge.receivedCount(), 0u);
    EXPECT_FALSE(fs::exists(rig.out("run.json")));
}

TEST(JudgeRunner, SettingsAreValidated) {
    JudgeRunSettings s;
    s.samplesPath = "x.jsonl";
    s.baseline.url = s.candidate.url = s.judge.url = "http://127.0.0.1:1";
    s.judge.model = "j";
    s.outDir = "out";
    EXPECT_TRUE(s.validate());
    auto bad = s;
    bad.concurrency = 0;
    EXPECT_NE(bad.validate().error().message.find("concurrency 0"), std::string::npos);
    bad.concurrency = 65;
    EXPECT_NE(bad.validate().error().message.find("1 to 64"), std::string::npos);
    bad = s;
    bad.judge.model.clear();
    EXPECT_NE(bad.validate().error().message.find("judge model"), std::string::npos);
    bad = s;
    bad.candidate.url = "127.0.0.1:8000";
    EXPECT_NE(bad.validate().error().message.find("candidate URL"), std::string::npos);
    bad = s;
    bad.rubric = "Rate the answer to {prompt}.";
    EXPECT_NE(bad.validate().error().message.find("{answer}"), std::string::npos);
}

TEST(JudgeRunner, SamplesFileErrorsNameLineAndField) {
    TempDir dir;
    auto message = [&](const std::string& content) {
        const auto p = dir.write("s.jsonl", content);
        auto r = readJudgeSamples(p.string());
        return r ? std::string("ok") : r.error().message;
    };
    EXPECT_NE(message("").find("no samples"), std::string::npos);
    EXPECT_NE(message(R"({"id": "a", "prompt": "p", "expected": "e"})"
                      "\n{oops\n")
                  .find("line 2: not valid JSON"),
              std::string::npos);
    EXPECT_NE(message(R"({"id": "a", "prompt": "p"})").find("line 1: \"expected\" is missing"), std::string::npos);
    EXPECT_NE(message(R"({"id": 1.5, "prompt": "p", "expected": "e"})").find("\"id\""), std::string::npos);
    EXPECT_NE(message(R"({"id": "a", "prompt": "p", "expected": "e"})"
                      "\n\n"
                      R"({"id": "a", "prompt": "q", "expected": "f"})")
                  .find("line 3: id \"a\" appears twice"),
              std::string::npos);
    auto missing = readJudgeSamples((dir.path() / "nope.jsonl").string());
    ASSERT_FALSE(missing);
    EXPECT_NE(missing.error().message.find("nope.jsonl"), std::string::npos);

    const auto ok = dir.write("ok.jsonl",
                              "\n"
                              R"({"id": 7, "prompt": "p", "expected": "e", "extra": true})"
                              "\n");
    auto samples = readJudgeSamples(ok.string());
    ASSERT_TRUE(samples) << samples.error().message;
    ASSERT_EQ(samples->size(), 1u);
    EXPECT_EQ((*samples)[0].id, 7);  // an integer id stays an integer
}

TEST(JudgeRunner, ParsesJudgeReplies) {
    const std::vector<std::pair<std::string, std::optional<int>>> cases = {
        {"4", 4},
        {" 5\n", 5},
        {"**3**", 3},
        {"4.", 4},
        {"Four.", 4},
        {"Score: 4", 4},
        {"score of 2", 2},
        {"Rating = 1", 1},
        {"The score is 5.", 5},
        {"4/5", 4},
        {"Score: 4/5", 4},
        {"I would rate this a four out of five", 4},
        {"3 out of 5 - mostly right", 3},
        {"Score (1-5): 2", 2},
        {"On a scale from 1 to 5, I give it 3.", 3},
        {"Score (1–5): 2", 2},  // an en dash
        {"4 - accurate and complete", 4},
        {"I give it 4", 4},
        {"It covers 3 out of 4 facts; score: 2", 2},  // "out of 4" is a count, not a scale
        // No single score:
        {"", std::nullopt},
        {"The answer is fine.", std::nullopt},
        {"It gets 2 of the 3 key facts, so 3", std::nullopt},
        {"Score: 4, but rating: 3", std::nullopt},
        {"7", std::nullopt},
        {"0", std::nullopt},
        {"3.5", std::nullopt},
        {"Score: 7/10", std::nullopt},
        {"Score: 6", std::nullopt},
        {"4/10", std::nullopt},
        {"It is the 4th answer", std::nullopt},
    };
    for (const auto& [reply, want] : cases) EXPECT_EQ(parseJudgeScore(reply), want) << "\"" << reply << "\"";
}

TEST(JudgeRunner, RubricPlaceholdersAreFilledOnce) {
    JudgeSample s{"a", "What is {answer}?", "E"};
    EXPECT_EQ(fillJudgeRubric("Q: {prompt} | E: {expected} | A: {answer} | {other}", s, "the {prompt}"),
              "Q: What is {answer}? | E: E | A: the {prompt} | {other}");
}

}  // namespace
}  // namespace fp8dash
