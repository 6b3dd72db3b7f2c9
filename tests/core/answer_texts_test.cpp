// The texts of a changed answer (changed_answers.h): bounded texts (valid UTF-8, cut at a whole character with a
// visible mark, a 1 MB response held to its cut) and the question, target, answer and response of sample log rows in
// lm-eval's layouts (generate_until, multiple-choice log-likelihoods, a chat prompt, a doc without a text field). The
// rows are written here; each expected text is what the row holds, read by hand.
#include <gtest/gtest.h>

#include "fp8dash/core/changed_answers.h"

namespace fp8dash {
namespace {

TEST(BoundedAnswerText, ShortValidTextIsKeptAsItIs) {
    const std::string text = "Die Antwort ist 42 — ✓ 😀 \x1b[31mred\x1b[0m \u202Eevil";
    EXPECT_EQ(boundedAnswerText(text), text);  // controls are kept: each medium escapes them
    EXPECT_EQ(boundedAnswerText(""), "");
}

TEST(BoundedAnswerText, BytesThatAreNotUtf8AndNulAreReplaced) {
    const std::string replacement = "\xEF\xBF\xBD";
    EXPECT_EQ(boundedAnswerText(std::string("a\xFFz")), "a" + replacement + "z");
    EXPECT_EQ(boundedAnswerText(std::string("a\0z", 3)), "a" + replacement + "z");
    EXPECT_EQ(boundedAnswerText("\xC0\xAF"), replacement + replacement);                    // an overlong '/'
    EXPECT_EQ(boundedAnswerText("\xED\xA0\x80"), replacement + replacement + replacement);  // a surrogate
    EXPECT_EQ(boundedAnswerText("\xE2\x82"), replacement + replacement);                    // a cut sequence at the end
}

TEST(BoundedAnswerText, ALongTextIsCutAtAWholeCharacterWithAMark) {
    // 'é' is two bytes: with an odd limit the cut falls inside one, which must not be split.
    std::string text;
    for (int i = 0; i < 100; ++i) text += "é";
    const std::string cut = boundedAnswerText(text, 9);
    EXPECT_EQ(cut, "éééé… [cut: 200 bytes in all]");
    EXPECT_EQ(boundedAnswerText(text, 200), text);  // exactly the limit: not cut
    const std::string big(1 << 20, 'x');
    const std::string held = boundedAnswerText(big);
    EXPECT_EQ(held, std::string(kAnswerTextBytes, 'x') + "… [cut: 1,048,576 bytes in all]");
}

TEST(SampleRowTexts, AGenerativeRowGivesItsQuestionTargetAnswerAndResponse) {
    const std::string row =
        R"r({"doc_id": 7, "doc": {"question": "Janet has 3 apples...", "answer": "#### 5"}, "target": "5",)r"
        R"r( "arguments": {"gen_args_0": {"arg_0": "Q: a\nA: 1\n\nQ: Janet has 3 apples...\nA:", "arg_1": {"until": ["\n\n"]}}},)r"
        R"r( "resps": [["She eats one. The answer is 2."]], "filtered_resps": ["2"], "filter": "strict-match",)r"
        R"r( "exact_match": 0.0})r";
    auto t = sampleRowTexts(row, "samples.jsonl line 1");
    ASSERT_TRUE(t.ok()) << t.error().message;
    EXPECT_EQ(t->docId, 7);
    EXPECT_EQ(t->filter, "strict-match");
    EXPECT_EQ(t->question, "Janet has 3 apples...");
    EXPECT_EQ(t->target, "5");
    EXPECT_EQ(t->answer, "2");
    EXPECT_EQ(t->response, "She eats one. The answer is 2.");
}

TEST(SampleRowTexts, AMultipleChoiceRowNamesTheChosenAndTheTargetChoice) {
    const std::string row =
        R"r({"doc_id": 3, "doc": {"query": "The capital of France is"}, "target": 1,)r"
        R"r( "arguments": {"gen_args_0": {"arg_0": "The capital of France is", "arg_1": " Berlin"},)r"
        R"r( "gen_args_1": {"arg_0": "The capital of France is", "arg_1": " Paris"},)r"
        R"r( "gen_args_2": {"arg_0": "The capital of France is", "arg_1": " Rome"}},)r"
        R"r( "resps": [["(-4.5, False)"], ["(-7.25, False)"], ["(-1.125, True)"]],)r"
        R"r( "filtered_resps": ["(-4.5, False)", "(-7.25, False)", "(-1.125, True)"], "acc": 0.0})r";
    auto t = sampleRowTexts(row, "x");
    ASSERT_TRUE(t.ok()) << t.error().message;
    EXPECT_EQ(t->question, "The capital of France is");
    EXPECT_EQ(t->target, "1: Paris");
    EXPECT_EQ(t->answer, "2: Rome (highest log-likelihood, -1.125)");
    EXPECT_EQ(t->response, "log-likelihood per choice: 0: -4.5, 1: -7.25, 2: -1.125");
    EXPECT_EQ(t->filter, "");  // an old row without a label
}

TEST(SampleRowTexts, TheNewerLayoutKeepsEachLogLikelihoodTupleAsAListOfStrings) {
    // lm-eval 0.4.3 and later: sanitize_list keeps the (log-likelihood, is_greedy) tuple and stringifies its items.
    Json row{{"doc_id", 4},
             {"doc", {{"goal", "Open a jar"}}},
             {"target", 0},
             {"arguments",
              {{"gen_args_0", {{"arg_0", "Goal: Open a jar\nAnswer:"}, {"arg_1", " twist the lid"}}},
               {"gen_args_1", {{"arg_0", "Goal: Open a jar\nAnswer:"}, {"arg_1", " hit it with a hammer"}}}}},
             {"resps", Json::array({Json::array({Json::array({"-2.5", "True"})}),
                                    Json::array({Json::array({"-9.75", "False"})})})},
             {"filtered_resps", Json::array({Json::array({"-2.5", "True"}), Json::array({"-9.75", "False"})})}};
    auto t = sampleRowTexts(row.dump(), "x");
    ASSERT_TRUE(t.ok()) << t.error().message;
    EXPECT_EQ(t->question, "Open a jar");
    EXPECT_EQ(t->target, "0: twist the lid");
    EXPECT_EQ(t->answer, "0: twist the lid (highest log-likelihood, -2.5)");
    EXPECT_EQ(t->response, "log-likelihood per choice: 0: -2.5, 1: -9.75");
    // Two generated answers that merely look alike are not log-likelihoods.
    row["filtered_resps"] = Json::array({"(a, b)", "(c, d)"});
    t = sampleRowTexts(row.dump(), "x");
    ASSERT_TRUE(t.ok()) << t.error().message;
    EXPECT_EQ(t->answer, "(a, b)\n(c, d)");
}

TEST(SampleRowTexts, WithoutATextFieldThePromptsLastTurnIsTheQuestion) {
    // A chat prompt written as a JSON list of messages: the last user message.
    Json chat = Json::array({{{"role", "system"}, {"content", "Be brief."}},
                             {{"role", "user"}, {"content", "2+2?"}},
                             {{"role", "assistant"}, {"content", "4"}},
                             {{"role", "user"}, {"content", "And 3+3?"}}});
    Json row{{"doc_id", 1},
             {"doc", {{"id", 9}}},
             {"arguments", {{"gen_args_0", {{"arg_0", chat.dump()}, {"arg_1", Json::object()}}}}},
             {"resps", Json::array({Json::array({"6", "six"})})},
             {"filtered_resps", Json::array({"6"})}};
    auto t = sampleRowTexts(row.dump(), "x");
    ASSERT_TRUE(t.ok()) << t.error().message;
    EXPECT_EQ(t->question, "And 3+3?");
    EXPECT_EQ(t->response, "[1] 6\n[2] six");  // two repeats, numbered
    // A rendered few-shot prompt: the part after the last blank line that holds text.
    row["arguments"]["gen_args_0"]["arg_0"] = "Q: 1+1?\nA: 2\n\nQ: 5+5?\nA:\n\n";
    t = sampleRowTexts(row.dump(), "x");
    ASSERT_TRUE(t.ok()) << t.error().message;
    EXPECT_EQ(t->question, "Q: 5+5?\nA:");
    // The older list layout of the arguments.
    row["arguments"] = Json::array({Json::array({"Only turn", " cont"})});
    t = sampleRowTexts(row.dump(), "x");
    ASSERT_TRUE(t.ok()) << t.error().message;
    EXPECT_EQ(t->question, "Only turn");
}

TEST(SampleRowTexts, EveryTextIsBounded) {
    Json row{{"doc_id", 1},
             {"doc", {{"question", std::string(10000, 'q')}}},
             {"target", std::string(5000, 't')},
             {"resps", Json::array({Json::array({std::string(1 << 20, 'r')})})},
             {"filtered_resps", Json::array({std::string(6000, 'a')})}};
    auto t = sampleRowTexts(row.dump(), "x", 100);
    ASSERT_TRUE(t.ok()) << t.error().message;
    EXPECT_EQ(t->question, std::string(100, 'q') + "… [cut: 10,000 bytes in all]");
    EXPECT_EQ(t->target, std::string(100, 't') + "… [cut: 5,000 bytes in all]");
    EXPECT_EQ(t->answer, std::string(100, 'a') + "… [cut: 6,000 bytes in all]");
    EXPECT_EQ(t->response, std::string(100, 'r') + "… [cut: 1,048,576 bytes in all]");
}

TEST(SampleRowTexts, ARowThatIsNotASampleIsAnErrorNamingThePlace) {
    for (const char* line : {"not json", "[1, 2]", R"r({"doc": {}})r", R"r({"doc_id": "7"})r"}) {
        auto t = sampleRowTexts(line, "samples_gsm8k.jsonl at byte 120");
        ASSERT_FALSE(t.ok()) << line;
        EXPECT_NE(t.error().message.find("samples_gsm8k.jsonl at byte 120"), std::string::npos) << t.error().message;
    }
}

TEST(ChangedExampleJson, RoundTripsAndNamesAWrongField) {
    ChangedAnswerExample e;
    e.docId = 12;
    e.lost = false;
    e.subtask = "mmlu_anatomy";
    e.question = "Q\n<b>x</b>";
    e.target = "2: C";
    e.baseline = {"A", "resp A", 0};
    e.candidate = {"C", "resp C", 1};
    const Json j = changedExampleToJson(e);
    EXPECT_EQ(j["kind"], "gained");
    auto back = parseChangedExampleJson(j, "f.fp8cmp: paired.mmlu.examples[0]");
    ASSERT_TRUE(back.ok()) << back.error().message;
    EXPECT_EQ(changedExampleToJson(*back), j);
    Json bad = j;
    bad["candidate"]["answer"] = 3;
    auto err = parseChangedExampleJson(bad, "f.fp8cmp: paired.mmlu.examples[0]");
    ASSERT_FALSE(err.ok());
    EXPECT_EQ(err.error().message, "f.fp8cmp: paired.mmlu.examples[0]: candidate.answer must be a string");
}

}  // namespace
}  // namespace fp8dash
