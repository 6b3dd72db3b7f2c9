#pragma once
// A stand-in Prometheus whose data grows, for the tests that follow a timeline as it runs (`timeline --watch`, the
// app's live timeline): it answers the timeline's range queries for whatever range is asked (as Prometheus does), but
// only with samples up to the data's end (setDataEnd; unbounded until set). Throughput is 1000 tok/s before kBase
// and 1500 after; quality kBefore, and kDuring in [kDropAt, kResolveAt); the alert's expression (Prometheus evaluates
// it) is true in [kPendAt, kResolveAt). It records the throughput queries' ranges, can refuse some of them (503,
// Retry-After: 0) and can answer every request with an error (422). Header-only.
#include <atomic>
#include <cstdio>
#include <limits>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "test_http_server.h"

namespace fp8dash::test::growing {

constexpr double kStep = 60;
constexpr double kBase = 1795000200;  // on the minute
constexpr double kDropAt = kBase + 20 * 60, kPendAt = kBase + 30 * 60, kResolveAt = kBase + 70 * 60;
constexpr double kBefore = 4.2, kDuring = 3.6;
inline const std::string kQuality = R"(langfuse_score_value{name="llm_judge_domain"})";

class GrowingPrometheus {
public:
    GrowingPrometheus() : m_server([this](const TestHttpServer::Request& r) { return answer(r); }) {}
    std::string url() const { return m_server.baseUrl(); }
    std::size_t requestCount() const { return m_server.requestCount(); }

    void setDataEnd(double t) { m_dataEnd = t; }
    void setFailing(bool failing) { m_failing = failing; }
    // Refuses the throughput queries numbered first .. first + count - 1 (1-based, counted as they arrive).
    void refuseThroughputQueries(int first, int count) {
        std::lock_guard lock(m_mutex);
        m_refuseFirst = first;
        m_refuseCount = count;
    }
    // The [start, end] of every throughput query answered, in order.
    std::vector<std::pair<double, double>> throughputRanges() const {
        std::lock_guard lock(m_mutex);
        return m_ranges;
    }

private:
    static std::string matrix(const std::string& labels, const std::vector<std::pair<double, double>>& points) {
        std::string values;
        for (const auto& [t, v] : points) {
            char buf[96];
            std::snprintf(buf, sizeof buf, "%s[%.0f,\"%.17g\"]", values.empty() ? "" : ",", t, v);
            values += buf;
        }
        return R"({"metric":)" + labels + R"(,"values":[)" + values + "]}";
    }
    TestHttpServer::Reply answer(const TestHttpServer::Request& r) {
        if (m_failing)
            return TestHttpServer::Reply::json(
                422, R"({"status":"error","errorType":"execution","error":"the storage is unavailable"})");
        if (r.path != "/api/v1/query_range") return TestHttpServer::Reply::json(404, "{}");
        const std::string q = r.queryValue("query").value_or("");
        const double from = std::stod(r.queryValue("start").value_or("0"));
        const double end = std::stod(r.queryValue("end").value_or("0"));
        const double to = std::min(end, m_dataEnd.load());
        const double step = std::stod(r.queryValue("step").value_or("60"));
        std::vector<std::pair<double, double>> points;
        std::string result;
        if (q == "sum(rate(vllm:generation_tokens_total[5m]))") {
            std::lock_guard lock(m_mutex);
            ++m_throughputQueries;
            if (m_throughputQueries >= m_refuseFirst && m_throughputQueries < m_refuseFirst + m_refuseCount)
                return TestHttpServer::Reply(503, {{"Retry-After", "0"}}, R"({"status":"error","error":"down"})");
            m_ranges.emplace_back(from, end);
            for (double t = from; t <= to; t += step) points.emplace_back(t, t >= kBase ? 1500 : 1000);
            result = matrix("{}", points);
        } else if (q == kQuality) {
            for (double t = from; t <= to; t += step)
                points.emplace_back(t, t >= kDropAt && t < kResolveAt ? kDuring : kBefore);
            result = matrix(R"({"name":"llm_judge_domain"})", points);
        } else if (q.rfind("avg_over_time(", 0) == 0) {
            for (double t = from; t <= to; t += step)
                if (t >= kPendAt && t < kResolveAt) points.emplace_back(t, kDuring);
            if (!points.empty()) result = matrix(R"({"name":"llm_judge_domain"})", points);
        }
        return TestHttpServer::Reply::json(
            200, R"({"status":"success","data":{"resultType":"matrix","result":[)" + result + "]}}");
    }

    mutable std::mutex m_mutex;
    int m_throughputQueries = 0, m_refuseFirst = 0, m_refuseCount = 0;
    std::vector<std::pair<double, double>> m_ranges;
    std::atomic<double> m_dataEnd{std::numeric_limits<double>::infinity()};
    std::atomic<bool> m_failing{false};
    TestHttpServer m_server;
};

}  // namespace fp8dash::test::growing
