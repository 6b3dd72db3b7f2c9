#pragma once
// LLM-as-judge scores read from Langfuse: one variant's scores of one name, selected by trace tag and/or
// environment, as JudgeScores for compareJudgeScores. Each sample's id is the score's trace id. Two deployments'
// traces are different requests, so their ids rarely meet: pair by id only when haveCommonIds says they do.

#include <optional>
#include <string>
#include <vector>

#include "fp8dash/core/judge_scores.h"
#include "fp8dash/core/langfuse_client.h"
#include "fp8dash/core/result.h"

namespace fp8dash {

// One side of the comparison in Langfuse.
struct LangfuseJudgeQuery {
    std::string scoreName = "llm_judge_domain";
    std::vector<std::string> traceTags;     // all must be on the trace, e.g. "precision:fp8"
    std::vector<std::string> environments;  // any of them
    std::optional<double> from;             // unix seconds, inclusive
    std::optional<double> to;               // unix seconds, exclusive
};

// "langfuse <url> score <name> tag <tag> env <env>": the JudgeScores source, for messages and the comparison file.
std::string langfuseJudgeSourceName(const LangfuseSettings& settings, const LangfuseJudgeQuery& query);

// Every matching score (all pages) as JudgeScores: id = trace id, fields {"comment" (when set), "score_id",
// "timestamp" (ISO 8601)}, oldest first. Several scores of one trace (a re-run judge): the latest by timestamp is
// kept and a warning says how many were dropped. Scores without a trace (session or dataset-run scores) are left
// out with a warning. Errors: a BOOLEAN or CATEGORICAL score, or a value outside `scale`, naming the score id; no
// score at all, naming the filters; everything LangfuseClient reports (keys, URL, malformed pages).
Result<JudgeScores> fetchJudgeScoresFromLangfuse(const LangfuseSettings& settings, const LangfuseJudgeQuery& query,
                                                 const JudgeScale& scale = {}, const Progress& progress = {});

}  // namespace fp8dash
