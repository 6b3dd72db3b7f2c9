#pragma once
// Production timelines with known figures for the ui tests, built in the test (no server): a day at 15 s for
// throughput (1000 tok/s stepping to 1500 tok/s at the change, a 5-minute ramp between), Langfuse judge scores every
// 2 minutes (4.2 before, a 40-minute dip to 3.5 in the morning, 3.3 for the hour after the change, then 3.7), each
// value alternating ±0.1 / ±20 around its level so the means are easy to compute independently.

#include <QString>

#include <optional>
#include <vector>

#include "fp8dash/core/comparison_file.h"
#include "fp8dash/core/timeline.h"
#include "test_http_server.h"

namespace fp8dash::ui::test {

inline constexpr double kDayStart = 1795824000;  // 2026-11-28 00:00:00 UTC
inline constexpr double kDayEnd = kDayStart + 24 * 3600;
inline constexpr double kChangeAt = kDayStart + 12 * 3600;  // FP8 on at noon
inline constexpr double kDetectedChangeAt = kChangeAt + 40;

// Throughput, quality (Langfuse source, local alert via recomputeDerived), change time and a detected switch.
TimelineData dayTimeline();

// A document: the 0.1.0 demo's eval runs (evalsOnlyDemo) with the given thresholds (goBelow, investigateAbove) plus the
// timeline, or a timeline-only document when withEvals is false.
ComparisonDocument documentWith(const TimelineData& timeline, bool withEvals, double goBelow = 0.5,
                                double investigateAbove = 1.5);

// A Prometheus for fetchTimeline (a TestHttpServer handler): /api/v1/status/buildinfo, and range queries answered
// with throughput 1000 tok/s stepping to 1500 at kFakePrometheusSwitch and vllm:cache_config_info going from
// cache_dtype auto to fp8 there; fetch [kFakePrometheusFrom, kFakePrometheusTo].
inline constexpr double kFakePrometheusFrom = kDayStart;
inline constexpr double kFakePrometheusTo = kDayStart + 6 * 3600;
inline constexpr double kFakePrometheusSwitch = kDayStart + 3 * 3600;
fp8dash::test::TestHttpServer::Reply fakePrometheusReply(const fp8dash::test::TestHttpServer::Request& r);

// Figures computed here, independently of core: before = t < change, after = t >= change + 300 s, within [from, to].
struct Means {
    double before = 0;
    double after = 0;
};
Means meansAround(const std::vector<Sample>& samples, double from, double to, double change);

// The shaded spans the alerts imply (pending until fired/resolved/end; firing until resolved/end), in order.
struct Span {
    double from = 0;
    double to = 0;
    bool firing = false;
};
std::vector<Span> expectedSpans(const std::vector<AlertEpisode>& alerts, double rangeEnd);

// The sample nearest to t (ties go to the earlier one).
Sample nearest(const std::vector<Sample>& samples, double t);

}  // namespace fp8dash::ui::test
