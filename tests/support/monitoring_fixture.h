#pragma once
// Comparisons with a production timeline for the monitoring export's tests (monitoring_export.h): quality in
// Prometheus (the saved query's samples at the step) or from Langfuse (per-minute sums and counts), flat at 4.0
// judge points with one dip of an hour 28 h into the data, deep enough to fire the alert or not.

#include <cmath>
#include <ctime>
#include <string>

#include "fp8dash/core/comparison_file.h"
#include "fp8dash/core/score_buckets.h"
#include "fp8dash/core/timeline.h"

namespace fp8dash::test {

inline constexpr double kMonHour = 3600;
inline constexpr double kMonDipAt = 28 * kMonHour;  // from the data's start
inline constexpr double kMonDipMinutes = 60;

// Whole hours, three days ago: old enough for a backfilled Prometheus to serve it (its head block spans ~3 h).
inline double monitoringDataStart() {
    const auto now = static_cast<double>(std::time(nullptr));
    return std::floor(now / kMonHour) * kMonHour - 3 * 24 * kMonHour;
}

struct MonitoringCase {
    double start = 0;     // the data's start (unix seconds)
    double dipValue = 0;  // the judge points during the dip (4.0 outside it)
    std::string tag;      // a label value that keeps several cases apart in one Prometheus
    WindowSemantics recorded = WindowSemantics::Prometheus2;
};

inline ComparisonDocument monitoringDocument(TimelineData tl, const std::string& title) {
    ComparisonDocument doc;
    doc.hasEvals = false;
    doc.title = title;
    doc.timeline = std::move(tl);
    return doc;
}

// Quality in Prometheus: langfuse_score_value{name=..., instance=...} every minute for 30 h (one sample missing at
// 1 h), the timeline over the whole of it.
inline ComparisonDocument prometheusQualityDocument(const MonitoringCase& c, const std::string& title = "BF16 vs FP8") {
    TimelineData tl;
    auto& st = tl.settings;
    st.prometheusUrl = "http://127.0.0.1:9";
    st.qualitySource = QualitySource::Prometheus;
    st.qualityQuery = "langfuse_score_value{name=\"llm_judge_domain\",instance=\"" + c.tag + "\"}";
    st.seriesPick = "model_name=llama-3.1-8b-fp8";
    st.from = c.start;
    st.to = c.start + 30 * kMonHour;
    st.step = 60;
    st.changeAt = c.start + 27 * kMonHour;
    st.rule.windows = c.recorded;
    tl.windowSemanticsBasis = "set by the test";
    Series q;
    q.labels = {{"__name__", "langfuse_score_value"}, {"name", "llm_judge_domain"}, {"instance", c.tag}};
    for (double t = 0; t <= 30 * kMonHour; t += 60) {
        if (t == kMonHour) continue;  // a gap
        const bool dip = t >= kMonDipAt && t < kMonDipAt + kMonDipMinutes * 60;
        q.samples.push_back({c.start + t, dip ? c.dipValue : 4.0});
    }
    tl.quality = q;
    tl.alertsEvaluatedBy = "prometheus";
    return monitoringDocument(std::move(tl), title);
}

// Quality from Langfuse (aggregate mode): two scores a minute for 30 h; the timeline from 26 h (the baseline's
// history before it, as fetchTimeline reads it).
inline ComparisonDocument langfuseQualityDocument(const MonitoringCase& c, const std::string& title = "BF16 vs FP8") {
    TimelineData tl;
    auto& st = tl.settings;
    st.langfuseUrl = "http://127.0.0.1:9";
    st.qualitySource = QualitySource::Langfuse;
    st.langfuseMode = LangfuseMode::Aggregate;
    st.fetchThroughput = false;
    st.scoreName = "judge_" + c.tag;
    st.traceTags = {"precision:fp8"};
    st.from = c.start + 26 * kMonHour;
    st.to = c.start + 30 * kMonHour;
    st.step = 60;
    st.changeAt = c.start + 27 * kMonHour;
    st.rule.windows = c.recorded;
    tl.windowSemanticsBasis = "set by the test";
    std::vector<ScoreBucket> buckets;
    for (double t = 0; t < 30 * kMonHour; t += 60) {
        const bool dip = t >= kMonDipAt && t < kMonDipAt + kMonDipMinutes * 60;
        buckets.push_back({c.start + t, 2 * (dip ? c.dipValue : 4.0), 2});
    }
    tl.quality = bucketsToSeries(buckets, st.scoreName);
    tl.qualityBuckets = buckets;
    recomputeDerived(tl);
    return monitoringDocument(std::move(tl), title);
}

}  // namespace fp8dash::test
