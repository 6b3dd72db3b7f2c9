// Judge scores read from Langfuse against a loopback server that follows Langfuse's published scores API:
// two tags' scores become JudgeScores with the values given to the server, duplicates keep the latest, non-numeric
// scores are refused by id, and the unpaired comparison survives the comparison file.
#include "fp8dash/core/langfuse_judge.h"

#include <gtest/gtest.h>

#include <map>

#include "langfuse_test_server.h"

namespace fp8dash {
namespace {

using test::LangfuseSeedScore;
using test::LangfuseTestServer;

constexpr double kT0 = 1795824000;  // 2026-11-28T00:00:00Z

// Every test starts with no server remembered (a later test's loopback server may get an earlier one's port).
class ForgetLangfuseServers : public ::testing::EmptyTestEventListener {
    void OnTestStart(const ::testing::TestInfo&) override { forgetLangfuseServers(); }
};
const bool kForgetting = [] {
    ::testing::UnitTest::GetInstance()->listeners().Append(new ForgetLangfuseServers);
    return true;
}();

LangfuseSettings settingsFor(const LangfuseTestServer& server) {
    LangfuseSettings s;
    s.baseUrl = server.baseUrl();
    s.publicKey = server.options().publicKey;
    s.secretKey = server.options().secretKey;
    s.http.maxRetries = 0;
    s.http.totalTimeoutS = 10;
    return s;
}

LangfuseSeedScore score(std::string id, std::string trace, double t, double value, std::string tag,
                        std::string dataType = "NUMERIC") {
    LangfuseSeedScore s;
    s.id = std::move(id);
    s.traceId = std::move(trace);
    s.timestamp = t;
    s.value = value;
    s.traceTags = {std::move(tag), "service:chat"};
    s.dataType = std::move(dataType);
    if (s.dataType == "CATEGORICAL") s.stringValue = "good";
    if (s.dataType == "BOOLEAN") s.stringValue = value != 0 ? "True" : "False";
    return s;
}

LangfuseJudgeQuery tagQuery(const std::string& tag) {
    LangfuseJudgeQuery q;
    q.traceTags = {tag};
    return q;
}

// 130 BF16 scores (two pages of 100) and 40 FP8 scores, on different traces; a score of another name in between.
struct TwoDeployments {
    std::vector<LangfuseSeedScore> seed;
    std::map<std::string, double> bf16, fp8;  // trace -> value
};

TwoDeployments twoDeployments() {
    TwoDeployments d;
    for (int i = 0; i < 130; ++i) {
        const double v = 1 + (i * 7) % 5;  // 1..5
        d.seed.push_back(score("b" + std::to_string(i), "tb" + std::to_string(i), kT0 + i, v, "precision:bf16"));
        d.bf16["tb" + std::to_string(i)] = v;
    }
    for (int i = 0; i < 40; ++i) {
        const double v = i % 4 == 0 ? 2.5 : 4;  // a fractional score too
        d.seed.push_back(score("f" + std::to_string(i), "tf" + std::to_string(i), kT0 + 500 + i, v, "precision:fp8"));
        d.fp8["tf" + std::to_string(i)] = v;
    }
    auto other = score("x1", "tb3", kT0 + 3, 1, "precision:bf16");
    other.name = "helpfulness";
    d.seed.push_back(other);
    return d;
}

double meanOf(const std::map<std::string, double>& m) {
    double sum = 0;
    for (const auto& [k, v] : m) sum += v;
    return sum / static_cast<double>(m.size());
}

TEST(LangfuseJudge, TwoTagsBecomeJudgeScoresWithTheServersValues) {
    const TwoDeployments d = twoDeployments();
    LangfuseTestServer server(d.seed);
    const LangfuseSettings settings = settingsFor(server);

    auto b = fetchJudgeScoresFromLangfuse(settings, tagQuery("precision:bf16"));
    ASSERT_TRUE(b) << b.error().message;
    auto c = fetchJudgeScoresFromLangfuse(settings, tagQuery("precision:fp8"));
    ASSERT_TRUE(c) << c.error().message;

    EXPECT_EQ(b->source, "langfuse " + server.baseUrl() + " score llm_judge_domain tag precision:bf16");
    EXPECT_TRUE(b->hasIds);
    EXPECT_TRUE(b->warnings.empty());
    ASSERT_EQ(b->samples.size(), d.bf16.size());
    ASSERT_EQ(c->samples.size(), d.fp8.size());
    for (const auto& s : b->samples) {
        ASSERT_TRUE(d.bf16.count(s.id)) << s.id;
        EXPECT_EQ(s.score, d.bf16.at(s.id)) << s.id;
        EXPECT_EQ(s.fields.value("score_id", ""), "b" + s.id.substr(2));
    }
    for (const auto& s : c->samples) EXPECT_EQ(s.score, d.fp8.at(s.id)) << s.id;
    // Oldest first: the first BF16 score was given at kT0.
    EXPECT_EQ(b->samples.front().id, "tb0");
    EXPECT_EQ(b->samples.front().fields.value("timestamp", ""), "2026-11-28T00:00:00.000Z");

    // Different traces: no common id, so the comparison runs unpaired, over every score.
    EXPECT_FALSE(haveCommonIds(*b, *c));
    JudgeOptions o;
    o.bootstrapIterations = 200;
    EXPECT_FALSE(compareJudgeScores(*b, *c, o)) << "paired by id without a common trace must fail";
    o.pairById = false;
    auto cmp = compareJudgeScores(*b, *c, o);
    ASSERT_TRUE(cmp) << cmp.error().message;
    EXPECT_FALSE(cmp->paired);
    EXPECT_EQ(cmp->testName, "mann_whitney");
    EXPECT_DOUBLE_EQ(cmp->baselineMean, meanOf(d.bf16));
    EXPECT_DOUBLE_EQ(cmp->candidateMean, 0.25 * 2.5 + 0.75 * 4);  // 10 of 40 at 2.5, the rest 4
}

TEST(LangfuseJudge, EnvironmentAndTimeFiltersSelectOneSide) {
    std::vector<LangfuseSeedScore> seed;
    seed.push_back(score("a", "t1", kT0, 5, "x"));
    seed.push_back(score("b", "t2", kT0 + 10, 3, "x"));
    seed.push_back(score("c", "t3", kT0 + 20, 1, "x"));
    seed[1].environment = seed[2].environment = "fp8-canary";
    LangfuseTestServer server(seed);
    LangfuseJudgeQuery q;
    q.environments = {"fp8-canary"};
    q.to = kT0 + 20;  // exclusive: leaves out "c"
    auto r = fetchJudgeScoresFromLangfuse(settingsFor(server), q);
    ASSERT_TRUE(r) << r.error().message;
    ASSERT_EQ(r->samples.size(), 1u);
    EXPECT_EQ(r->samples[0].id, "t2");
    EXPECT_EQ(r->samples[0].score, 3);
    EXPECT_NE(r->source.find(" env fp8-canary"), std::string::npos) << r->source;
}

TEST(LangfuseJudge, ATraceScoredTwiceKeepsTheLatest) {
    std::vector<LangfuseSeedScore> seed;
    seed.push_back(score("old", "t1", kT0 + 100, 2, "precision:fp8"));
    seed.push_back(score("other", "t2", kT0 + 150, 4, "precision:fp8"));
    seed.push_back(score("new", "t1", kT0 + 200, 5, "precision:fp8"));
    seed.push_back(score("older", "t1", kT0 + 50, 1, "precision:fp8"));
    LangfuseTestServer server(seed);
    auto r = fetchJudgeScoresFromLangfuse(settingsFor(server), tagQuery("precision:fp8"));
    ASSERT_TRUE(r) << r.error().message;
    ASSERT_EQ(r->samples.size(), 2u);
    std::map<std::string, double> byTrace;
    for (const auto& s : r->samples) byTrace[s.id] = s.score;
    EXPECT_EQ(byTrace.at("t1"), 5);
    EXPECT_EQ(byTrace.at("t2"), 4);
    ASSERT_EQ(r->warnings.size(), 1u);
    EXPECT_NE(r->warnings[0].find("2 older score(s)"), std::string::npos) << r->warnings[0];
    EXPECT_NE(r->warnings[0].find("t1"), std::string::npos) << r->warnings[0];
}

TEST(LangfuseJudge, NonNumericScoresAreErrorsNamingTheScore) {
    for (const char* type : {"CATEGORICAL", "BOOLEAN"}) {
        std::vector<LangfuseSeedScore> seed;
        seed.push_back(score("fine", "t1", kT0, 4, "precision:fp8"));
        seed.push_back(score("odd-one", "t2", kT0 + 1, 1, "precision:fp8", type));
        LangfuseTestServer server(seed);
        auto r = fetchJudgeScoresFromLangfuse(settingsFor(server), tagQuery("precision:fp8"));
        ASSERT_FALSE(r) << type;
        EXPECT_NE(r.error().message.find("score odd-one"), std::string::npos) << r.error().message;
        EXPECT_NE(r.error().message.find(type), std::string::npos) << r.error().message;
        EXPECT_NE(r.error().message.find("NUMERIC"), std::string::npos) << r.error().message;
    }
}

TEST(LangfuseJudge, OutOfScaleEmptyAndBadKeysAreClearErrors) {
    std::vector<LangfuseSeedScore> seed;
    seed.push_back(score("s1", "t1", kT0, 4, "precision:fp8"));
    seed.push_back(score("s2", "t2", kT0 + 1, 7, "precision:fp8"));
    LangfuseTestServer server(seed);
    auto r = fetchJudgeScoresFromLangfuse(settingsFor(server), tagQuery("precision:fp8"));
    ASSERT_FALSE(r);
    EXPECT_NE(r.error().message.find("score s2 (trace t2) has the value 7, outside the judge's scale 1-5"),
              std::string::npos)
        << r.error().message;
    JudgeScale wide{0, 10};
    EXPECT_TRUE(fetchJudgeScoresFromLangfuse(settingsFor(server), tagQuery("precision:fp8"), wide));

    auto none = fetchJudgeScoresFromLangfuse(settingsFor(server), tagQuery("precision:bf16"));
    ASSERT_FALSE(none);
    EXPECT_NE(none.error().message.find("no trace scores for score name llm_judge_domain, trace tags precision:bf16"),
              std::string::npos)
        << none.error().message;

    LangfuseSettings wrong = settingsFor(server);
    wrong.secretKey = "sk-lf-wrong-SECRET";
    auto denied = fetchJudgeScoresFromLangfuse(wrong, tagQuery("precision:fp8"));
    ASSERT_FALSE(denied);
    EXPECT_NE(denied.error().message.find("401"), std::string::npos) << denied.error().message;
    EXPECT_EQ(denied.error().message.find("sk-lf-wrong-SECRET"), std::string::npos);
}

TEST(LangfuseJudge, UnpairedSettingSurvivesTheJudgeSection) {
    std::vector<LangfuseSeedScore> seed;
    seed.push_back(score("a", "t1", kT0, 4, "precision:bf16"));
    seed.push_back(score("b", "t2", kT0 + 1, 5, "precision:bf16"));
    seed.push_back(score("c", "t3", kT0 + 2, 3, "precision:fp8"));
    LangfuseTestServer server(seed);
    JudgeSection s;
    s.baseline = fetchJudgeScoresFromLangfuse(settingsFor(server), tagQuery("precision:bf16")).value();
    s.candidate = fetchJudgeScoresFromLangfuse(settingsFor(server), tagQuery("precision:fp8")).value();
    s.options.pairById = false;
    s.options.bootstrapIterations = 100;
    const Json j = judgeSectionToJson(s);
    EXPECT_EQ(j.at("pair_by_id"), false);
    auto back = parseJudgeSection(Json::parse(j.dump()), "judge");
    ASSERT_TRUE(back) << back.error().message;
    EXPECT_FALSE(back->options.pairById);
    auto cmp = compareJudgeScores(back->baseline, back->candidate, back->options);
    ASSERT_TRUE(cmp) << cmp.error().message;
    EXPECT_DOUBLE_EQ(cmp->baselineMean, 4.5);
    EXPECT_DOUBLE_EQ(cmp->candidateMean, 3);

    JudgeSection paired = s;
    paired.options.pairById = true;
    EXPECT_FALSE(judgeSectionToJson(paired).contains("pair_by_id"));  // older readers see what they always saw
    Json bad = j;
    bad["pair_by_id"] = "no";
    auto e = parseJudgeSection(bad, "judge");
    ASSERT_FALSE(e);
    EXPECT_EQ(e.error().message, "judge.pair_by_id must be true or false");
}

}  // namespace
}  // namespace fp8dash
