// Judge scores from Langfuse: LangfuseClient's pages reduced to one numeric score per trace, then the checks every
// judge source shares (judgeScoresFromRecords).
#include "fp8dash/core/langfuse_judge.h"

#include <cmath>
#include <cstdio>
#include <unordered_map>

#include "fp8dash/core/time_series.h"

namespace fp8dash {
namespace {

std::string judgeNumber(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", v);
    return buf;
}

std::string judgeJoined(const std::vector<std::string>& items) {
    std::string out;
    for (const auto& s : items) out += (out.empty() ? "" : ", ") + s;
    return out;
}

}  // namespace

std::string langfuseJudgeSourceName(const LangfuseSettings& settings, const LangfuseJudgeQuery& query) {
    std::string base = settings.baseUrl;
    while (!base.empty() && base.back() == '/') base.pop_back();
    std::string out = "langfuse " + HttpClient::displayUrl(base) + " score " + query.scoreName;
    for (const auto& t : query.traceTags) out += " tag " + t;
    for (const auto& e : query.environments) out += " env " + e;
    return out;
}

Result<JudgeScores> fetchJudgeScoresFromLangfuse(const LangfuseSettings& settings, const LangfuseJudgeQuery& query,
                                                 const JudgeScale& scale, const Progress& progress) {
    if (auto st = scale.validate(); !st) return st.error();
    const std::string source = langfuseJudgeSourceName(settings, query);
    if (query.scoreName.empty()) return Error{source + ": no score name given"};

    ScoreQuery q;
    q.name = query.scoreName;
    q.traceTags = query.traceTags;
    q.environments = query.environments;
    q.from = query.from;
    q.to = query.to;
    q.allDataTypes = true;  // a categorical judge must be an error, not an empty or partial comparison
    auto scores = LangfuseClient(settings).scores(q, progress);
    if (!scores) return scores.error();

    // Oldest first from the client, so a later score of the same trace replaces the earlier one.
    std::vector<const Score*> kept;
    std::unordered_map<std::string, std::size_t> byTrace;
    std::size_t replaced = 0, withoutTrace = 0;
    std::string firstReplacedTrace, firstWithoutTrace;
    for (const Score& s : *scores) {
        if (s.dataType != "NUMERIC")
            return Error{source + ": score " + s.id + (s.traceId.empty() ? "" : " (trace " + s.traceId + ")") +
                         " is a " + s.dataType + " score; the judge comparison needs NUMERIC scores (1-5 points)"};
        if (!std::isfinite(s.value) || s.value < scale.min || s.value > scale.max)
            return Error{source + ": score " + s.id + (s.traceId.empty() ? "" : " (trace " + s.traceId + ")") +
                         " has the value " + judgeNumber(s.value) + ", outside the judge's scale " +
                         judgeNumber(scale.min) + "-" + judgeNumber(scale.max)};
        if (s.traceId.empty()) {
            if (withoutTrace++ == 0) firstWithoutTrace = s.id;
            continue;
        }
        if (auto [it, inserted] = byTrace.emplace(s.traceId, kept.size()); !inserted) {
            if (replaced++ == 0) firstReplacedTrace = s.traceId;
            kept[it->second] = &s;
        } else {
            kept.push_back(&s);
        }
    }
    if (kept.empty()) {
        std::string filters = "score name " + query.scoreName;
        if (!query.traceTags.empty()) filters += ", trace tags " + judgeJoined(query.traceTags);
        if (!query.environments.empty()) filters += ", environments " + judgeJoined(query.environments);
        if (query.from) filters += ", from " + toIso8601(*query.from);
        if (query.to) filters += ", to " + toIso8601(*query.to);
        return Error{source + ": Langfuse has no trace scores for " + filters +
                     (withoutTrace ? " (" + std::to_string(withoutTrace) + " without a trace)" : "")};
    }

    std::vector<JudgeRecord> records;
    records.reserve(kept.size());
    for (const Score* s : kept) records.push_back({s->traceId, s->value, s->comment});
    auto out = judgeScoresFromRecords(records, source, scale);
    if (!out) return out.error();
    for (std::size_t i = 0; i < kept.size(); ++i) {
        out->samples[i].fields["score_id"] = kept[i]->id;
        out->samples[i].fields["timestamp"] = toIso8601(kept[i]->timestamp);
    }
    if (replaced)
        out->warnings.push_back(source + ": " + std::to_string(replaced) +
                                " older score(s) of traces scored more than once were dropped, keeping each "
                                "trace's latest (e.g. trace " +
                                firstReplacedTrace + ")");
    if (withoutTrace)
        out->warnings.push_back(source + ": " + std::to_string(withoutTrace) +
                                " score(s) without a trace (session or dataset-run scores) were left out (e.g. "
                                "score " +
                                firstWithoutTrace + ")");
    return out;
}

}  // namespace fp8dash
