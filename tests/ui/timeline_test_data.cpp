#include "timeline_test_data.h"

#include "gui_test_support.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "fp8dash/core/demo.h"

namespace fp8dash::ui::test {

TimelineData dayTimeline() {
    TimelineData data;
    TimelineSettings& s = data.settings;
    s.prometheusUrl = "http://prometheus.test:9090";
    s.prometheusAuth = "bearer";
    s.prometheusHeaderNames = {"X-Scope-OrgID"};
    s.fetchThroughput = true;
    s.qualitySource = QualitySource::Langfuse;
    s.langfuseUrl = "https://langfuse.test";
    s.traceTags = {"precision:fp8"};
    s.from = kDayStart;
    s.to = kDayEnd;
    s.step = 60;
    s.changeAt = kChangeAt;

    Series throughput;
    int i = 0;
    for (double t = kDayStart; t <= kDayEnd; t += 15, ++i) {
        double level = 1000;
        if (t >= kChangeAt + 300) {
            level = 1500;
        } else if (t >= kChangeAt) {
            level = 1000 + 500 * (t - kChangeAt) / 300;  // the rate window fills
        }
        throughput.samples.push_back({t, level + (i % 2 == 0 ? 20.0 : -20.0)});
    }
    data.throughput = throughput;

    Series quality;
    i = 0;
    for (double t = kDayStart; t <= kDayEnd; t += 120, ++i) {
        double level = 4.2;
        if (t >= kDayStart + 5 * 3600 && t < kDayStart + 5 * 3600 + 40 * 60) level = 3.5;
        if (t >= kChangeAt) level = t < kChangeAt + 3600 ? 3.3 : 3.7;
        quality.samples.push_back({t, level + (i % 2 == 0 ? 0.1 : -0.1)});
    }
    data.quality = quality;
    data.detectedChange = DetectedChange{kDetectedChangeAt, "auto", "fp8"};
    recomputeDerived(data);  // Langfuse scores: the alert is evaluated locally
    return data;
}

ComparisonDocument documentWith(const TimelineData& timeline, bool withEvals, double goBelow, double investigateAbove) {
    ComparisonDocument doc;
    if (withEvals) {
        doc = evalsOnlyDemo();  // the demo's eval runs and notes, without its own judge, timeline and benchmarks
        doc.options.thresholds = Thresholds{goBelow, investigateAbove};
    } else {
        doc.hasEvals = false;
        doc.title = "Production timeline";
        doc.created = "2026-11-29T00:00:00Z";
    }
    doc.timeline = timeline;
    return doc;
}

// A Prometheus that answers the range queries fetchTimeline sends: throughput 1000 tok/s stepping to 1500 at
// kSwitch, and vllm:cache_config_info with cache_dtype auto, then fp8 from kSwitch.
fp8dash::test::TestHttpServer::Reply fakePrometheusReply(const fp8dash::test::TestHttpServer::Request& r) {
    using fp8dash::test::TestHttpServer;
    constexpr double kSwitch = kFakePrometheusSwitch;
    if (r.path == "/api/v1/status/buildinfo") {
        return TestHttpServer::Reply::json(
            200, R"({"status":"success","data":{"version":"2.53.1","revision":"f8d1","branch":"HEAD",)"
                 R"("buildUser":"ci","buildDate":"20260101-00:00:00","goVersion":"go1.22.5"}})");
    }
    if (r.path != "/api/v1/query_range") return TestHttpServer::Reply::json(404, R"({"status":"error"})");
    const double start = std::stod(r.queryValue("start").value_or("0"));
    const double end = std::stod(r.queryValue("end").value_or("0"));
    const double step = std::stod(r.queryValue("step").value_or("60"));
    const std::string query = r.queryValue("query").value_or("");
    auto values = [&](double from, double to, auto value) {
        std::string out;
        for (double t = from; t <= to + 1e-9; t += step) {
            if (!out.empty()) out += ",";
            out += "[" + std::to_string(static_cast<long long>(t)) + ",\"" + value(t) + "\"]";
        }
        return "[" + out + "]";
    };
    std::string result;
    if (query == "vllm:cache_config_info") {
        result = R"({"metric":{"__name__":"vllm:cache_config_info","cache_dtype":"auto"},"values":)" +
                 values(start, std::min(end, kSwitch - step), [](double) { return std::string("1"); }) + "}," +
                 R"({"metric":{"__name__":"vllm:cache_config_info","cache_dtype":"fp8"},"values":)" +
                 values(std::max(start, kSwitch), end, [](double) { return std::string("1"); }) + "}";
    } else {
        result = R"({"metric":{},"values":)" +
                 values(start, end, [](double t) { return std::string(t < kSwitch ? "1000" : "1500"); }) + "}";
    }
    return TestHttpServer::Reply::json(
        200, R"({"status":"success","data":{"resultType":"matrix","result":[)" + result + "]}}");
}

Means meansAround(const std::vector<Sample>& samples, double from, double to, double change) {
    double beforeSum = 0, afterSum = 0;
    int beforeCount = 0, afterCount = 0;
    for (const Sample& s : samples) {
        if (s.t < from || s.t > to || !std::isfinite(s.v)) continue;
        if (s.t < change) {
            beforeSum += s.v;
            ++beforeCount;
        } else if (s.t >= change + 300) {
            afterSum += s.v;
            ++afterCount;
        }
    }
    return {beforeSum / beforeCount, afterSum / afterCount};
}

std::vector<Span> expectedSpans(const std::vector<AlertEpisode>& alerts, double rangeEnd) {
    std::vector<Span> spans;
    for (const AlertEpisode& a : alerts) {
        const double pendingEnd = a.firingAt ? *a.firingAt : (a.resolvedAt ? *a.resolvedAt : rangeEnd);
        if (pendingEnd > a.pendingAt) spans.push_back({a.pendingAt, pendingEnd, false});
        if (a.firingAt) spans.push_back({*a.firingAt, a.resolvedAt ? *a.resolvedAt : rangeEnd, true});
    }
    return spans;
}

Sample nearest(const std::vector<Sample>& samples, double t) {
    Sample best = samples.front();
    for (const Sample& s : samples) {
        if (std::abs(s.t - t) < std::abs(best.t - t)) best = s;
    }
    return best;
}

}  // namespace fp8dash::ui::test
