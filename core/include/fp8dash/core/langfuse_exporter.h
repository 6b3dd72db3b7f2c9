#pragma once
// What `fp8dash exporter` serves (issue 28, "Langfuse scores into Prometheus"): the judge scores of each selection
// (score name, trace tags, environments) as two counters, fp8dash_langfuse_score_sum and
// fp8dash_langfuse_score_count (monitoring_export.h names them; labels score_name, and tag / environment joined with
// "," when the selection has them), so that increase(sum[w]) / increase(count[w]) is the exact mean of the scores
// the window's scrapes added, as the exported rules read them. No widgets, no HTTP server: the app serves
// exposition() and calls update() from its fetching thread.
//
// Each score is counted once: a selection keeps a cursor, the start of the first minute not yet added. update(now)
// adds the whole minutes from the cursor up to the last one that ended `graceS` before now (Langfuse ingests
// asynchronously: a score can appear a little after its timestamp; the grace, 2 minutes by default, takes those
// in), then moves the cursor past them. A score that reaches Langfuse later than the grace after its minute ended
// is never counted; a minute is never asked twice. The minutes come from the Metrics API (sum = avg x count per
// minute, Langfuse v4 and Cloud) where the server has it, else from the raw scores (v3 /scores lists), bucketed by
// minute here: the same numbers either way. Langfuse's rate limits are the client's (429 + Retry-After waited out).
//
// A restart starts the counters from zero at its first minute (a counter reset, which increase() handles); the
// minutes between the last one the old process added and the new start are not counted. A look-back at start adds
// earlier minutes to the first value, which increase() never sees as an increase (use it for a first start).
//
// Thread-safe: update() from one thread at a time, exposition() and snapshot() from any thread at any time (they
// return at once with the counters as they are; a fetch never holds the lock).

#include <cstddef>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "fp8dash/core/http_client.h"
#include "fp8dash/core/result.h"

namespace fp8dash {

class LangfuseClient;

inline constexpr double kExporterGraceSeconds = 120;

struct ExporterSelection {
    std::string scoreName = "llm_judge_domain";
    std::vector<std::string> traceTags;     // all must be on the score's trace
    std::vector<std::string> environments;  // any of them
};

// The exporter's state of one selection, as served.
struct ExporterCounters {
    ExporterSelection selection;
    long double sum = 0;   // the scores' values added so far
    double count = 0;      // how many scores
    double countedTo = 0;  // unix seconds: the minutes before this are added (the cursor)
    std::string mode;      // "metrics-api" or "raw scores" once a fetch succeeded, else ""
};

class LangfuseScoreCounters {
public:
    // firstMinute: unix seconds, floored to a whole minute (the first minute counted).
    LangfuseScoreCounters(std::vector<ExporterSelection> selections, double firstMinute,
                          double graceS = kExporterGraceSeconds);

    // Adds the whole minutes that ended graceS before `now` (unix seconds) and are not added yet, for every
    // selection. A selection whose fetch fails keeps its counters and cursor (tried again next time) and the error
    // (naming the URL, never a key) is returned after the others are done; the health series count it. Before the
    // first success, an update with no minute to add still reads the minute before the start (not counted), so
    // that fp8dash_exporter_up tells at once whether Langfuse answers.
    Status update(const LangfuseClient& client, double now, const Progress& progress = {});

    // The Prometheus text exposition (format 0.0.4) of the counters and the exporter's health:
    //   fp8dash_langfuse_score_sum / _count{score_name, tag, environment}      counters
    //   fp8dash_exporter_counted_until_timestamp_seconds{same labels}          gauge: the cursor
    //   fp8dash_exporter_up                                                    gauge: 1 when the last fetch succeeded
    //   fp8dash_exporter_last_success_timestamp_seconds                        gauge (absent before one)
    //   fp8dash_exporter_fetch_errors_total                                    counter
    std::string exposition() const;

    std::vector<ExporterCounters> snapshot() const;
    double fetchErrors() const;

private:
    mutable std::mutex m_mutex;
    std::vector<ExporterCounters> m_counters;
    double m_graceS;
    bool m_up = false;
    double m_lastSuccess = 0;  // 0: none yet
    double m_fetchErrors = 0;
};

// A label value as the text exposition format writes it: backslash, double quote and line feed escaped.
std::string prometheusLabelValue(std::string_view value);

// A sample value for the exposition: the shortest text that reads back as the same double ("+Inf", "NaN" aside).
std::string prometheusSampleValue(double value);

}  // namespace fp8dash
