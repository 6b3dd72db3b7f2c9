// fp8dash exporter's counters: whole finished minutes of Langfuse scores added once each (see the header).
#include "fp8dash/core/langfuse_exporter.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <optional>

#include "fp8dash/core/langfuse_client.h"
#include "fp8dash/core/monitoring_export.h"
#include "fp8dash/core/score_buckets.h"
#include "fp8dash/core/time_series.h"

namespace fp8dash {
namespace {

constexpr double kExporterMinute = kScoreBucketSeconds;

std::string joinedValues(const std::vector<std::string>& items) {
    std::string out;
    for (const auto& i : items) out += (out.empty() ? "" : ",") + i;
    return out;
}

// {score_name="…",tag="…",environment="…"}: the labels monitoring_export.cpp selects the series by.
std::string selectionLabels(const ExporterSelection& s) {
    std::string out = "{score_name=\"" + prometheusLabelValue(s.scoreName) + "\"";
    if (!s.traceTags.empty()) out += ",tag=\"" + prometheusLabelValue(joinedValues(s.traceTags)) + "\"";
    if (!s.environments.empty()) out += ",environment=\"" + prometheusLabelValue(joinedValues(s.environments)) + "\"";
    return out + "}";
}

void header(std::string& out, const char* name, const char* type, const char* help) {
    out += std::string("# HELP ") + name + " " + help + "\n";
    out += std::string("# TYPE ") + name + " " + type + "\n";
}

// Per-minute sums and counts of [from, to) for one selection: the Metrics API where the server has it, else the raw
// scores bucketed here. `mode` says which answered.
Result<std::vector<ScoreBucket>> fetchMinutes(const LangfuseClient& client, const ScoreQuery& q,
                                              const Progress& progress, std::string& mode) {
    auto info = client.server(progress);
    if (!info) return info.error();
    if (info->metrics != false) {
        auto buckets = client.scoreBuckets(q, progress);
        if (buckets) {
            mode = "metrics-api";
            return buckets;
        }
        // A server that answered 404 is now known to have no Metrics API: read its raw scores instead.
        auto again = client.server(progress);
        if (!again || again->metrics != false) return buckets.error();
    }
    auto scores = client.scores(q, progress);
    if (!scores) return scores.error();
    std::map<double, std::pair<long double, double>> minutes;
    for (const Score& s : *scores) {
        if (!std::isfinite(s.value)) continue;
        auto& m = minutes[std::floor(s.timestamp / kExporterMinute) * kExporterMinute];
        m.first += s.value;
        m.second += 1;
    }
    std::vector<ScoreBucket> out;
    out.reserve(minutes.size());
    for (const auto& [t, m] : minutes) out.push_back({t, static_cast<double>(m.first), m.second});
    mode = "raw scores";
    return out;
}

}  // namespace

std::string prometheusLabelValue(std::string_view value) {
    std::string out;
    out.reserve(value.size());
    for (const char c : value) {
        if (c == '\\')
            out += "\\\\";
        else if (c == '"')
            out += "\\\"";
        else if (c == '\n')
            out += "\\n";
        else
            out += c;
    }
    return out;
}

std::string prometheusSampleValue(double v) {
    if (std::isnan(v)) return "NaN";
    if (std::isinf(v)) return v > 0 ? "+Inf" : "-Inf";
    char text[40];
    for (int p = 1; p <= 17; ++p) {
        std::snprintf(text, sizeof text, "%.*g", p, v);
        if (std::strtod(text, nullptr) == v) return text;
    }
    std::snprintf(text, sizeof text, "%.17g", v);
    return text;
}

LangfuseScoreCounters::LangfuseScoreCounters(std::vector<ExporterSelection> selections, double firstMinute,
                                             double graceS)
    : m_graceS(graceS) {
    const double start = std::floor(firstMinute / kExporterMinute) * kExporterMinute;
    for (auto& s : selections) m_counters.push_back({std::move(s), 0, 0, start, {}});
}

Status LangfuseScoreCounters::update(const LangfuseClient& client, double now, const Progress& progress) {
    // The end of the last whole minute that ended graceS ago (exclusive).
    const double end = std::floor((now - m_graceS) / kExporterMinute) * kExporterMinute;
    std::vector<ExporterCounters> current = snapshot();
    std::optional<Error> failure;
    bool fetched = false;
    for (std::size_t i = 0; i < current.size(); ++i) {
        const ExporterCounters& c = current[i];
        if (!(end > c.countedTo)) continue;  // nothing finished since the last update
        ScoreQuery q;
        q.name = c.selection.scoreName;
        q.traceTags = c.selection.traceTags;
        q.environments = c.selection.environments;
        q.from = c.countedTo;
        q.to = end;
        std::string mode;
        auto minutes = fetchMinutes(client, q, progress, mode);
        fetched = true;
        if (!minutes) {
            if (!failure) failure = minutes.error();
            continue;
        }
        long double sum = 0;
        double count = 0;
        std::optional<double> negative;
        for (const ScoreBucket& b : *minutes) {
            if (b.t < c.countedTo || b.t >= end) continue;  // never a minute twice
            if (!(b.sum >= 0) && !negative) negative = b.t;
            sum += b.sum;
            count += b.count;
        }
        if (negative) {
            // A counter only grows: a drop would read as a reset and break every window mean over it (the same
            // refusal as `export monitoring`'s). Nothing is added and the minutes are asked again next time.
            if (!failure)
                failure = Error{"Langfuse scores \"" + c.selection.scoreName + "\" below zero (the minute of " +
                                formatTimeUtc(*negative) +
                                "): a counter of the scores' sum only grows, so fp8dash exporter cannot serve them"};
            continue;
        }
        std::lock_guard lock(m_mutex);
        ExporterCounters& target = m_counters[i];
        target.sum += sum;
        target.count += count;
        target.countedTo = end;
        target.mode = mode;
    }
    if (!fetched && !failure && !current.empty()) {
        // Nothing finished yet: before the first success, one minute before the counting starts is read (and not
        // counted) so that the health series say at once whether Langfuse answers and takes the keys.
        bool first = false;
        {
            std::lock_guard lock(m_mutex);
            first = m_lastSuccess == 0;
        }
        if (first) {
            ScoreQuery q;
            q.name = current[0].selection.scoreName;
            q.traceTags = current[0].selection.traceTags;
            q.environments = current[0].selection.environments;
            q.from = current[0].countedTo - kExporterMinute;
            q.to = current[0].countedTo;
            std::string mode;
            if (auto probe = fetchMinutes(client, q, progress, mode); !probe) failure = probe.error();
        }
    }
    std::lock_guard lock(m_mutex);
    if (failure) {
        m_up = false;
        m_fetchErrors += 1;
        return *failure;
    }
    m_up = true;
    m_lastSuccess = std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
    return success();
}

std::vector<ExporterCounters> LangfuseScoreCounters::snapshot() const {
    std::lock_guard lock(m_mutex);
    return m_counters;
}

double LangfuseScoreCounters::fetchErrors() const {
    std::lock_guard lock(m_mutex);
    return m_fetchErrors;
}

std::string LangfuseScoreCounters::exposition() const {
    std::lock_guard lock(m_mutex);
    std::string out;
    header(out, kLangfuseScoreSumMetric, "counter",
           "Sum of the Langfuse judge scores of the selection, added per whole minute once the minute and the grace "
           "after it have passed (fp8dash exporter).");
    for (const auto& c : m_counters)
        out += std::string(kLangfuseScoreSumMetric) + selectionLabels(c.selection) + " " +
               prometheusSampleValue(static_cast<double>(c.sum)) + "\n";
    header(out, kLangfuseScoreCountMetric, "counter",
           "Number of the Langfuse judge scores of the selection, added with the sum: increase(sum[w]) / "
           "increase(count[w]) is the window's mean score.");
    for (const auto& c : m_counters)
        out += std::string(kLangfuseScoreCountMetric) + selectionLabels(c.selection) + " " +
               prometheusSampleValue(c.count) + "\n";
    header(out, "fp8dash_exporter_counted_until_timestamp_seconds", "gauge",
           "The scores before this time (a whole minute) are in the counters.");
    for (const auto& c : m_counters)
        out += "fp8dash_exporter_counted_until_timestamp_seconds" + selectionLabels(c.selection) + " " +
               prometheusSampleValue(c.countedTo) + "\n";
    header(out, "fp8dash_exporter_up", "gauge", "1 when the last fetch from Langfuse succeeded, else 0.");
    out += "fp8dash_exporter_up " + std::string(m_up ? "1" : "0") + "\n";
    header(out, "fp8dash_exporter_last_success_timestamp_seconds", "gauge",
           "When the last successful fetch from Langfuse ended (unix seconds).");
    if (m_lastSuccess > 0)
        out += "fp8dash_exporter_last_success_timestamp_seconds " + prometheusSampleValue(m_lastSuccess) + "\n";
    header(out, "fp8dash_exporter_fetch_errors_total", "counter", "Fetches from Langfuse that failed.");
    out += "fp8dash_exporter_fetch_errors_total " + prometheusSampleValue(m_fetchErrors) + "\n";
    return out;
}

}  // namespace fp8dash
