// The timeline's quality from Langfuse: the mode (raw, aggregate, auto), the fetch, and the buckets' JSON.
#include "production/timeline_langfuse.h"

#include <cmath>

#include "fp8dash/core/langfuse_client.h"
#include "production/timeline_arrays.h"

namespace fp8dash {

std::string_view langfuseModeName(LangfuseMode m) {
    switch (m) {
        case LangfuseMode::Raw:
            return "raw";
        case LangfuseMode::Aggregate:
            return "aggregate";
        case LangfuseMode::Auto:
            return "auto";
    }
    return "raw";
}

std::optional<LangfuseMode> parseLangfuseMode(std::string_view text) {
    if (text == "raw") return LangfuseMode::Raw;
    if (text == "aggregate") return LangfuseMode::Aggregate;
    if (text == "auto") return LangfuseMode::Auto;
    return std::nullopt;
}

namespace detail {

Status fetchLangfuseQuality(TimelineData& data, const TimelineCredentials& cred, const Progress& progress) {
    const TimelineSettings& st = data.settings;
    LangfuseSettings ls;
    ls.baseUrl = st.langfuseUrl;
    ls.publicKey = cred.langfusePublicKey;
    ls.secretKey = cred.langfuseSecretKey;
    ls.http = cred.httpTemplate;
    ls.notice = cred.notice;
    if (ls.publicKey.empty() || ls.secretKey.empty())
        return Error{"Langfuse needs LANGFUSE_PUBLIC_KEY and LANGFUSE_SECRET_KEY in the environment"};
    ScoreQuery q;
    q.name = st.scoreName;
    // The alert's baseline looks back a day plus the offset before the first evaluation.
    q.from = st.qualityLookBack ? st.from - st.rule.longWindowS - st.rule.offsetS : st.from;
    q.to = st.to + 0.001;
    q.traceTags = st.traceTags;
    q.environments = st.environments;
    const LangfuseClient client(ls);

    LangfuseMode mode = st.langfuseMode;
    if (mode == LangfuseMode::Auto) {
        // One Metrics API request counts the scores (none where the server has no Metrics API: raw).
        auto count = client.countScores(q, progress);
        if (!count) return Error{"quality: " + count.error().message};
        mode = *count && **count > kLangfuseAutoAggregateScores ? LangfuseMode::Aggregate : LangfuseMode::Raw;
        q.expectedScores = *count;  // not asked again for the estimate of a long fetch
        if (mode == LangfuseMode::Aggregate && cred.notice)
            cred.notice("Langfuse: the range holds " + std::to_string(static_cast<long long>(**count)) +
                        " scores; reading them as per-minute sums and counts from the Metrics API (aggregate mode; "
                        "--langfuse-mode raw reads every score)");
    }
    data.settings.langfuseMode = mode;
    if (mode == LangfuseMode::Aggregate) {
        auto buckets = client.scoreBuckets(q, progress);
        if (!buckets) return Error{"quality: " + buckets.error().message};
        if (buckets->empty() && st.qualityLookBack)
            return Error{"quality: Langfuse has no score named \"" + st.scoreName + "\" for the chosen range and tags"};
        data.quality = bucketsToSeries(*buckets, st.scoreName);
        data.qualityBuckets = std::move(buckets).value();
    } else {
        auto scores = client.scores(q, progress);
        if (!scores) return Error{"quality: " + scores.error().message};
        if (scores->empty() && st.qualityLookBack)
            return Error{"quality: Langfuse has no score named \"" + st.scoreName + "\" for the chosen range and tags"};
        data.quality = scoresToSeries(*scores, st.scoreName);
        data.qualityBuckets.reset();
    }
    return success();
}

void appendBucketsText(std::string& out, const std::vector<ScoreBucket>& buckets, int indent) {
    const std::string inner(static_cast<std::size_t>(indent + 2), ' ');
    out += "{\n";
    const auto list = [&](const char* key, double ScoreBucket::*field, bool last) {
        out += inner + "\"" + key + "\": [";
        for (std::size_t i = 0; i < buckets.size(); ++i) {
            if (i) out += ',';
            appendSampleNumber(out, buckets[i].*field);
        }
        out += last ? "]\n" : "],\n";
    };
    list("count", &ScoreBucket::count, false);
    list("sum", &ScoreBucket::sum, false);
    list("t", &ScoreBucket::t, true);
    out += std::string(static_cast<std::size_t>(indent), ' ') + "}";
}

Result<std::vector<ScoreBucket>> bucketsFromJson(const Json& j, const std::string& where) {
    if (!j.is_object()) return Error{where + " must be an object with the lists t, sum and count"};
    const auto t = j.find("t"), sum = j.find("sum"), count = j.find("count");
    if (t == j.end() || sum == j.end() || count == j.end() || !t->is_array() || !sum->is_array() || !count->is_array())
        return Error{where + " must hold the lists t, sum and count"};
    if (t->size() != sum->size() || t->size() != count->size())
        return Error{where + ": t, sum and count have " + std::to_string(t->size()) + ", " +
                     std::to_string(sum->size()) + " and " + std::to_string(count->size()) + " entries"};
    std::vector<ScoreBucket> out;
    out.reserve(t->size());
    for (std::size_t i = 0; i < t->size(); ++i) {
        const std::string at = "[" + std::to_string(i) + "]";
        const Json &ti = (*t)[i], &si = (*sum)[i], &ci = (*count)[i];
        if (!ti.is_number() || !std::isfinite(ti.get<double>()) || std::fabs(ti.get<double>()) > 1e12)
            return Error{where + ".t" + at + " must be unix seconds (a finite number within +-1e12)"};
        if (!si.is_number() || !std::isfinite(si.get<double>()))
            return Error{where + ".sum" + at + " must be a finite number"};
        if (!ci.is_number() || !(ci.get<double>() >= 0) || ci.get<double>() > 1e15 ||
            ci.get<double>() != std::floor(ci.get<double>()))
            return Error{where + ".count" + at + " must be a whole number of scores"};
        if (!out.empty() && ti.get<double>() < out.back().t)
            return Error{where + ".t must ascend (entry " + std::to_string(i) + " goes back in time)"};
        out.push_back({ti.get<double>(), si.get<double>(), ci.get<double>()});
    }
    return out;
}

}  // namespace detail
}  // namespace fp8dash
