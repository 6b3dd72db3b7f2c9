#pragma once
// The production timeline (README "The production timeline"): settings, the fetched series at full resolution, the
// before/after figures, the quality alert and the timeline's verdict. Stored in the comparison file's "timeline"
// section (never secrets). Values are plain data; functions are thread-safe.

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "fp8dash/core/http_client.h"
#include "fp8dash/core/lm_eval_results.h"
#include "fp8dash/core/prometheus_client.h"
#include "fp8dash/core/result.h"
#include "fp8dash/core/score_buckets.h"
#include "fp8dash/core/time_series.h"
#include "fp8dash/core/verdict.h"
#include "fp8dash/core/vllm_metrics.h"

namespace fp8dash {

inline constexpr const char* kDefaultThroughputQuery = "sum(rate(vllm:generation_tokens_total[5m]))";
inline constexpr const char* kDefaultQualityQuery = "langfuse_score_value{name=\"llm_judge_domain\"}";
inline constexpr const char* kDefaultScoreName = "llm_judge_domain";

enum class QualitySource { None, Prometheus, Langfuse };
std::string_view qualitySourceName(QualitySource s);  // "none", "prometheus", "langfuse"

// How Langfuse scores are read: every score (raw), per-minute sums and counts from the Metrics API (aggregate), or
// aggregate where the server has the Metrics API and the range holds more than kLangfuseAutoAggregateScores scores.
enum class LangfuseMode { Raw, Aggregate, Auto };
inline constexpr double kLangfuseAutoAggregateScores = 50000;
std::string_view langfuseModeName(LangfuseMode m);  // "raw", "aggregate", "auto"
std::optional<LangfuseMode> parseLangfuseMode(std::string_view text);

// Expected effects of FP8 in production (DESIGN.md "Production signals").
struct TimelineBands {
    double throughputLowPct = 40;  // Hopper: +40-60% decode throughput
    double throughputHighPct = 60;
    double qualityTolerance = 0.1;  // judge points either way
    double qualityProblem = 0.3;    // a drop beyond this that stays is a real problem
};

// Everything needed to fetch the series again; no secrets (auth is named, never stored).
struct TimelineSettings {
    std::string prometheusUrl;            // "" when throughput and quality both come from elsewhere
    std::string prometheusAuth = "none";  // "none", "basic", "bearer": which credentials the environment gives
    std::vector<std::string> prometheusHeaderNames;  // e.g. X-Scope-OrgID (values come from the environment)
    bool fetchThroughput = true;
    std::string throughputQuery = kDefaultThroughputQuery;
    // "label=value,..." to choose a model (model_name=...) or an engine where a query returns several series; "" sums
    // them. Throughput sums every series the pick matches (a model's engines); with the default throughput query
    // the pick goes inside the selector (throughputQueryWithPick). Quality needs exactly one match.
    std::string seriesPick;
    QualitySource qualitySource = QualitySource::None;
    std::string qualityQuery = kDefaultQualityQuery;  // when qualitySource == Prometheus
    std::string langfuseUrl;                          // when qualitySource == Langfuse
    std::string scoreName = kDefaultScoreName;
    std::vector<std::string> traceTags;  // e.g. "precision:fp8"
    std::vector<std::string> environments;
    // Asked for before a fetch; after it, the mode used (Raw or Aggregate). In the file only when aggregate.
    LangfuseMode langfuseMode = LangfuseMode::Raw;
    // Langfuse scores are read from a day and the offset before `from` (the alert's baseline) and a range without a
    // score is an error. A follower that holds the earlier scores (TimelineFollower) sets false: only [from, to] is
    // read, none is no error, and it evaluates the alert itself. Never saved.
    bool qualityLookBack = true;
    double from = 0;  // unix seconds
    double to = 0;
    double step = 60;                // seconds; also the alert's evaluation interval
    std::optional<double> changeAt;  // when FP8 went on: given by the user, or the switch vLLM reports (below)
    // changeAt is the first switch found in vllm:cache_config_info because none was given (TimelineData::
    // detectedSwitches says whose); a fetch with these settings detects it again. In the file as change_at_source.
    bool changeAtDetected = false;
    AlertRule rule;  // rule.windows: the semantics the alert was evaluated under (see TimelineData)
    TimelineBands bands;
    // The user's choice of window semantics for the local evaluation (CLI --window-semantics, the source dialog);
    // nullopt: automatic (the Prometheus server's own; with no Prometheus, Prometheus 3).
    std::optional<WindowSemantics> windowSemantics;
};

struct TimelineData {
    TimelineSettings settings;
    std::optional<Series> throughput;  // tokens/s, full resolution
    std::optional<Series> quality;     // judge points; raw scores for Langfuse (the minutes' means in the aggregate
                                       // mode), the query's samples for Prometheus
    std::optional<std::vector<ScoreBucket>> qualityBuckets;  // Langfuse's aggregate mode: sums and counts a minute,
                                                             // what the figures and the alert are computed from
    std::vector<AlertEpisode> alerts;  // Prometheus' own evaluation (quality in Prometheus) or local (Langfuse)
    std::string alertsEvaluatedBy;     // "prometheus", "local", or "" when there is no quality series
    std::optional<DetectedChange> detectedChange;  // the earliest switch in vllm:cache_config_info
    // Each engine's switch of the detected change's model, earliest first: the first is the change time where none
    // was given; a later last one ends the rollout (a rolling update). Empty in files written before.
    std::vector<EngineSwitch> detectedSwitches;
    // Without a change time, when engines of several models switched: each model's first switch (no change time is
    // chosen; the caller asks to pick one model). Never saved.
    std::vector<EngineSwitch> switchModels;
    std::vector<std::string> warnings;  // from the servers, verbatim (Prometheus 3's infos as "(info) ...")
    std::string server;  // which server answered the Prometheus API ("Prometheus 2.42.0+ds (...)", "VictoriaMetrics")
    // Why settings.rule.windows is what it is ("Prometheus 2 selects closed windows", "set by the user"); "" in files
    // written before the semantics were recorded (their alerts were evaluated with closed windows, Prometheus 2.x).
    std::string windowSemanticsBasis;
    std::optional<KvScalesRisk> kvScalesRisk;  // an FP8 KV cache with calculate_kv_scales=False (cache_config_info)
};

struct TimelineReport {
    std::optional<double> changeAt;
    std::string changeSource;  // "cache_config_info" (detected), "given" (the user's), "" without a change time
    // The detected switch in words ("change at ... from cache_config_info: engine 0 of m switched to fp8_e4m3"), or,
    // where a given time differs from it, that the given time overrides it; "" otherwise.
    std::string changeDetail;
    std::optional<double> rolloutEnd;  // the last engine's switch of a rolling update
    std::string rollout;               // "rollout from ... to ...: engine 0 at ..., engine 1 at ..."; "" without one
    PeriodSummary throughput;
    PeriodSummary quality;
    std::string throughputAssessment;  // in words, against +40-60%
    std::string qualityAssessment;     // in words, against +-0.1 / -0.3
    std::vector<AlertEpisode> alerts;
    std::optional<Verdict> verdict;  // absent without a quality series or a change time
    std::vector<std::string> reasons;
    std::optional<WindowSemantics> windowSemantics;  // with a quality series: the alert's window edges
    std::string server;                              // TimelineData::server
    std::vector<std::string> risks;  // risk flags from experience (the KV-scales one); they do not move the verdict
};

TimelineReport evaluateTimeline(const TimelineData& data);

// Credentials for fetching, from the environment or the keychain; never written anywhere.
struct TimelineCredentials {
    HttpAuth prometheusAuth;
    Headers prometheusHeaders;
    std::string headersError;  // FP8DASH_PROMETHEUS_HEADERS has an entry that is no "Name: value" (none are used)
    std::string langfusePublicKey;
    std::string langfuseSecretKey;
    HttpOptions httpTemplate;  // timeouts, TLS (verify, CA file), retries
    // Notices for the user while fetching (a deprecated Langfuse endpoint, a long fetch ahead, a rate-limit wait):
    // the CLI writes them to stderr, the app to its notice area. Called from the fetching thread; may be empty.
    std::function<void(const std::string&)> notice;
};

// Reads FP8DASH_PROMETHEUS_TOKEN (bearer), FP8DASH_PROMETHEUS_USER/FP8DASH_PROMETHEUS_PASSWORD (basic),
// FP8DASH_PROMETHEUS_HEADERS ("Name: value; Name2: value2", read by parseHeaderList), LANGFUSE_PUBLIC_KEY,
// LANGFUSE_SECRET_KEY.
TimelineCredentials credentialsFromEnvironment();

// Fetches the series the settings name, evaluates the alert (through Prometheus when quality lives there) and
// looks for the FP8 switch in vllm:cache_config_info. Progress covers all fetches; Cancel stops them.
Result<TimelineData> fetchTimeline(const TimelineSettings& settings, const TimelineCredentials& credentials,
                                   const Progress& progress = {});

// Uses the switches found in vllm:cache_config_info (detectKvCacheSwitches, earliest first): keeps the first model's
// in data.detectedSwitches and data.detectedChange and, where settings.changeAt is unset, makes its first switch the
// change time (settings.changeAtDetected); switches of several models leave it unset, each model's first switch in
// data.switchModels. fetchTimeline calls it; a given change time always wins.
void useDetectedSwitches(TimelineData& data, const std::vector<EngineSwitch>& switches);

// Recomputes what derives from the stored series (the local alert for Langfuse scores). Used after loading.
void recomputeDerived(TimelineData& data);

Json timelineToJson(const TimelineData& data);
Result<TimelineData> parseTimelineJson(const Json& j, const std::string& where);
Json timelineReportToJson(const TimelineReport& r);  // the CLI's stable JSON
std::string timelineReportToText(const TimelineReport& r, const TimelineData& data);

}  // namespace fp8dash
