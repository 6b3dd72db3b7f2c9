#pragma once
// The domain eval with an LLM judge (seed step 4, DESIGN.md "Domain judge"): every sample's prompt goes to the BF16
// and the FP8 deployment (OpenAI-compatible POST /v1/chat/completions, temperature 0), then a judge model rates each
// answer 1-5 against the expected answer. Results land in an output folder as JSON Lines, one object per sample:
//   baseline.jsonl, candidate.jsonl  {"id", "score" (1-5), "prompt", "expected", "answer", "judge_reply",
//                                     "latency_s", "judge_latency_s", "model", "attempts", "finish_reason",
//                                     "judge_reasked" [, "judge_first_reply"]}
//   failures.jsonl                   {"id", "variant", "stage" ("answer"|"judge"), "reason" [, "answer",
//                                     "judge_reply"]}: failed samples never reach a score file
//   run.json                         the settings without secrets (display URLs, models, rubric, max_tokens),
//                                     started/updated, counts; what a resumed run checks
// A run on a folder that already holds run.json resumes it: samples already scored (per variant) are skipped, a
// half-written last line left by a crash is cut off, earlier failures are retried (failures.jsonl is started afresh).
// API keys are sent as "Authorization: Bearer" and never written to a file or a message.
// Langfuse posting is not done here (the Langfuse client only reads scores).

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "fp8dash/core/http_client.h"
#include "fp8dash/core/result.h"

namespace fp8dash {

struct JudgeSample {
    nlohmann::ordered_json id;  // a string or an integer, written back as it was given
    std::string prompt;
    std::string expected;
};

// JSON Lines, one {"id", "prompt", "expected"} object a line (other fields ignored; blank lines skipped). Errors name
// the file, the line and the field; ids must be unique.
Result<std::vector<JudgeSample>> readJudgeSamples(const std::string& path);

// An OpenAI-compatible server. url: its base ("http://host:8000"), "http://host:8000/v1" or the full
// ".../v1/chat/completions" are all accepted. model: "" asks GET /v1/models and takes the first id.
struct ChatEndpoint {
    std::string url;
    std::string model;
    std::string apiKey;  // "" for none; never saved, never logged
};

// The seed's rubric; {prompt}, {expected} and {answer} are replaced (once each place, never inside substituted text).
inline constexpr const char* kDefaultJudgeRubric =
    "Rate this answer from 1 to 5 on accuracy and completeness.\n"
    "Question: {prompt}\n"
    "Expected answer: {expected}\n"
    "Model answer: {answer}\n"
    "\n"
    "Reply with a number from 1 to 5 only.";
// Sent (after the judge's first reply) when that reply held no single score.
inline constexpr const char* kJudgeStrictInstruction = "Answer with a single digit 1-5.";

struct JudgeRunSettings {
    std::string samplesPath;
    ChatEndpoint baseline;   // the BF16 deployment
    ChatEndpoint candidate;  // the FP8 deployment
    ChatEndpoint judge;      // judge.model is required
    std::string rubric = kDefaultJudgeRubric;
    int maxTokens = 512;         // max_tokens for the answers and the judge's replies
    int concurrency = 4;         // workers, 1..64
    int serverErrorRetries = 3;  // extra attempts after a 5xx reply (see judge_runner.cpp)
    std::string outDir;
    HttpOptions http = defaultHttp();  // timeouts, TLS, 429 retries; auth is set per endpoint from its apiKey

    static HttpOptions defaultHttp() {
        HttpOptions h;
        h.totalTimeoutS = 300;  // a long answer under load
        h.maxRetries = 5;
        return h;
    }
    Status validate() const;  // ranges and required fields, each message naming the setting
};

// Fills the endpoints' apiKey from FP8DASH_BASELINE_API_KEY, FP8DASH_CANDIDATE_API_KEY, FP8DASH_JUDGE_API_KEY, with
// OPENAI_API_KEY as the fallback for each.
void judgeKeysFromEnvironment(JudgeRunSettings& settings);

// Work units are (sample, variant) pairs: total = 2 x samples.
struct JudgeRunCounts {
    std::size_t total = 0;
    std::size_t alreadyDone = 0;  // scored by an earlier run in the same folder (skipped)
    std::size_t scored = 0;       // by this run
    std::size_t failed = 0;       // by this run
    std::optional<double> etaS;   // from this run's rate so far; absent until something finished
    std::size_t finished() const { return alreadyDone + scored + failed; }
};

struct JudgeVariantSummary {
    std::string model;
    std::size_t scored = 0;  // lines in the score file (this run and earlier ones)
    std::size_t failed = 0;  // this run
    std::optional<double> meanScore;
};

struct JudgeRunSummary {
    JudgeRunCounts counts;
    bool cancelled = false;  // what was done is kept; running again resumes
    std::size_t samples = 0;
    JudgeVariantSummary baseline, candidate;
    std::string outDir;
};

// Runs (or resumes) the eval. Setup problems (settings, samples file, model discovery, an out-dir from another run)
// are Errors; a sample that fails is recorded in failures.jsonl and the run goes on. Cancellation (progress.cancelled)
// stops the workers within ~50 ms and returns the summary with cancelled = true. progress.report gets the finished
// fraction and "12/20 done, 1 failed, ETA 34 s"; onCounts the same as numbers. Both are called from worker threads,
// one call at a time.
Result<JudgeRunSummary> runJudgeEval(const JudgeRunSettings& settings, const Progress& progress = {},
                                     const std::function<void(const JudgeRunCounts&)>& onCounts = {});

// The judge's reply as a score, or nothing when it holds no single score 1-5. Rules, on the lower-cased reply with
// markdown emphasis, quotes and brackets read as spaces and scale mentions ("1-5", "1 to 5") removed:
//  1. Explicit forms: "score: 4", "score of 4", "score is 4", "rating = 4", "rated 4", "grade: 4", "4/5",
//     "4 out of 5", "four out of five" (one..five also accepted as words here). A number over another scale
//     ("7/10") counts as an invalid candidate. When any explicit form is present, the score is their single value
//     if they all agree and it is 1-5; otherwise there is none.
//  2. Otherwise the reply as a whole may be one number word ("Four."), or else every standalone number in it is
//     collected (digits, decimals such as 3.5 included): exactly one distinct value that is a whole 1-5 is the score
//     ("4", "**4**", "4.", "4 - accurate and complete", "I give it 4"); none, several different ones, or one out of
//     range is no score.
std::optional<int> parseJudgeScore(const std::string& reply);

// The rubric with {prompt}, {expected} and {answer} filled in.
std::string fillJudgeRubric(const std::string& rubric, const JudgeSample& sample, const std::string& answer);

}  // namespace fp8dash
