// `fp8dash timeline --watch` (issue 28), the real binary against a stand-in Prometheus that evaluates the quality alert
// itself: true from kPendAt to kResolveAt. The watch replays from a past time (--replay-from: its clock moves by the
// interval at once, so nothing waits on the wall clock) and must print pending, firing (held for: 15m) and resolved at
// those times with the window means of the served scores; --fail-on investigate exits 3 at the firing; a refresh the
// server refuses is retried, not fatal; SIGTERM or SIGINT after its first line ends it with exit 0 and a summary.
#include <gtest/gtest.h>

#include <sys/wait.h>

#include <cmath>
#include <csignal>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <memory>
#include <mutex>
#include <sstream>
#include <thread>

#include "cli_runner.h"
#include "fp8dash/core/time_series.h"
#include "growing_prometheus.h"
#include "process.h"
#include "prometheus_server.h"
#include "test_http_server.h"
#include "test_paths.h"

namespace fp8dash {
namespace {

using fp8dash::test::growing::GrowingPrometheus;
using fp8dash::test::growing::kBase;
using fp8dash::test::growing::kBefore;
using fp8dash::test::growing::kDropAt;
using fp8dash::test::growing::kDuring;
using fp8dash::test::growing::kPendAt;
using fp8dash::test::growing::kQuality;
using fp8dash::test::growing::kResolveAt;
using fp8dash::test::growing::kStep;
using test::fp8dashCli;
using test::TestHttpServer;

std::string number(double v) {
    char buf[48];
    std::snprintf(buf, sizeof buf, "%.0f", v);
    return buf;
}

std::string threeDecimals(double v) {
    char buf[48];
    std::snprintf(buf, sizeof buf, "%.3f", v);
    return buf;
}

// The served scores' mean over (end - length, end] (Prometheus 3 windows: the server gives no build info).
double servedMean(double end, double length) {
    double sum = 0;
    int n = 0;
    for (double t = std::floor((end - length) / kStep) * kStep + kStep; t <= end; t += kStep, ++n)
        sum += t >= kDropAt && t < kResolveAt ? kDuring : kBefore;
    return sum / n;
}

std::vector<std::string> linesWith(const std::string& text, const std::string& what) {
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);)
        if (line.find(what) != std::string::npos) out.push_back(line);
    return out;
}

std::vector<std::string> watchArgs(const GrowingPrometheus& server, std::vector<std::string> extra) {
    std::vector<std::string> args = {"timeline", "--prometheus", server.url(), "--quality-query",
                                     kQuality,   "--watch",      "--last",     "1h"};
    args.insert(args.end(), extra.begin(), extra.end());
    return args;
}

TEST(CliWatch, PrintsEachAlertChangeWithTheWindowMeansAndSurvivesARefusedRefresh) {
    GrowingPrometheus server;
    server.refuseThroughputQueries(6, 4);  // the sixth refresh (R + 5m): all four attempts refused
    const double replayFrom = kBase + 10 * 60;
    auto r =
        fp8dashCli(watchArgs(server, {"--replay-from", number(replayFrom), "--interval", "60", "--for", "80m", "-v"}));
    ASSERT_EQ(r.exitCode, 0) << r.err << r.out;

    // One line per change, at the times the server's evaluation gives (firing: 15 minutes of pending).
    const double firingAt = kPendAt + 15 * 60;
    const auto pending = linesWith(r.out, "  pending  ");
    const auto firing = linesWith(r.out, "  firing  ");
    const auto resolved = linesWith(r.out, "  resolved  ");
    ASSERT_EQ(pending.size(), 1u) << r.out;
    ASSERT_EQ(firing.size(), 1u) << r.out;
    ASSERT_EQ(resolved.size(), 1u) << r.out;
    EXPECT_EQ(pending[0].rfind(formatTimeUtc(kPendAt), 0), 0u) << pending[0];
    EXPECT_EQ(firing[0].rfind(formatTimeUtc(firingAt), 0), 0u) << firing[0];
    EXPECT_EQ(resolved[0].rfind(formatTimeUtc(kResolveAt), 0), 0u) << resolved[0];
    // The window means at the firing: the last 30 minutes of scores, and the day before the last two hours.
    const double shortMean = servedMean(firingAt, 1800), baseline = servedMean(firingAt - 7200, 86400);
    EXPECT_NE(firing[0].find("30m mean " + threeDecimals(shortMean)), std::string::npos) << firing[0];
    EXPECT_NE(firing[0].find("baseline " + threeDecimals(baseline) + " (1d offset 2h)"), std::string::npos)
        << firing[0];
    EXPECT_NE(firing[0].find("fires below " + threeDecimals(baseline - 0.2)), std::string::npos) << firing[0];
    EXPECT_NE(firing[0].find("pending since " + formatTimeUtc(kPendAt)), std::string::npos) << firing[0];

    // The refused refresh: reported on stderr, retried after a back-off of twice the interval, the gap fetched then.
    const auto failed = linesWith(r.err, "refresh failed (1 time)");
    ASSERT_EQ(failed.size(), 1u) << r.err;
    EXPECT_NE(failed[0].find("retrying in 2m"), std::string::npos) << failed[0];
    // Refreshes every minute from R to R + 80m (81), less the refused one and the minute its back-off skipped.
    EXPECT_EQ(linesWith(r.out, "  refresh ").size(), 79u) << r.out;
    EXPECT_NE(r.out.find("watch ended (--for 80m is over): 79 refreshes, 3 alert changes: pending at " +
                         formatTimeUtc(kPendAt) + ", firing at " + formatTimeUtc(firingAt) + ", resolved at " +
                         formatTimeUtc(kResolveAt) + "; the alert is inactive"),
              std::string::npos)
        << r.out;

    // Only what is new: the first fetch covers the hour and the alert's look-back (1d + 2h); every later one the
    // previous end's last two steps and the new minutes (five after the refused refresh).
    const auto ranges = server.throughputRanges();
    ASSERT_EQ(ranges.size(), 79u);
    const double firstTo = std::floor(replayFrom / kStep) * kStep;
    EXPECT_EQ(ranges[0], (std::pair{firstTo - 3600 - 26 * 3600, firstTo}));
    for (std::size_t i = 1; i < ranges.size(); ++i) {
        EXPECT_EQ(ranges[i].first, ranges[i - 1].second - 2 * kStep) << i;
        EXPECT_LE(ranges[i].second - ranges[i].first, 5 * kStep) << i;
    }
}

TEST(CliWatch, FailOnInvestigateExitsThreeAsSoonAsTheAlertFires) {
    GrowingPrometheus server;
    auto r = fp8dashCli(
        watchArgs(server, {"--replay-from", number(kBase + 10 * 60), "--interval", "1m", "--fail-on", "investigate"}));
    EXPECT_EQ(r.exitCode, 3) << r.err << r.out;
    const double firingAt = kPendAt + 15 * 60;
    ASSERT_EQ(linesWith(r.out, "  firing  ").size(), 1u) << r.out;
    EXPECT_TRUE(linesWith(r.out, "  resolved  ").empty()) << r.out;
    EXPECT_NE(r.out.find("watch ended (the verdict reached --fail-on investigate)"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("the alert is firing since " + formatTimeUtc(firingAt)), std::string::npos) << r.out;
    // It stopped at the refresh that saw the firing: nothing asked past it.
    EXPECT_EQ(server.throughputRanges().back().second, firingAt);
}

TEST(CliWatch, SigtermOrCtrlCAfterTheFirstLineEndsItCleanlyWithASummary) {
    for (const int signal : {SIGTERM, SIGINT}) {
        SCOPED_TRACE(signal == SIGTERM ? "SIGTERM" : "SIGINT");
        GrowingPrometheus server;
        test::TempDir dir;
        const auto log = dir.path() / "watch.log";
        std::vector<std::string> argv = watchArgs(server, {"--interval", "10m"});
        argv.insert(argv.begin(), FP8DASH_EXE);
        std::string why;
        const pid_t pid = test::spawnInBackground(argv, log.string(), &why);
        ASSERT_GT(pid, 0) << why;
        auto readLog = [&] {
            std::ifstream in(log);
            std::stringstream s;
            s << in.rdbuf();
            return s.str();
        };
        // Waits for the line the watch writes after its first refresh (a condition, not a time; 60 s only if it hangs).
        bool started = false;
        for (int i = 0; i < 3000 && !started; ++i) {
            started = readLog().find("fp8dash: watching the last 1h") != std::string::npos;
            if (!started) std::this_thread::sleep_for(std::chrono::milliseconds(20));
        }
        if (!started) test::stopInBackground(pid, 1);
        ASSERT_TRUE(started) << readLog();
        ASSERT_EQ(::kill(pid, signal), 0);
        int status = 0;
        ASSERT_EQ(::waitpid(pid, &status, 0), pid);
        ASSERT_TRUE(WIFEXITED(status)) << "status " << status << "\n" << readLog();
        EXPECT_EQ(WEXITSTATUS(status), 0) << readLog();
        EXPECT_NE(
            readLog().find("watch ended (stopped by a signal): 1 refresh, 0 alert changes; the alert is inactive"),
            std::string::npos)
            << readLog();
    }
}

TEST(CliWatch, AWatchThatCannotStartExitsTwo) {
    const std::string url = "http://127.0.0.1:" + std::to_string(test::closedPort());
    auto r = fp8dashCli({"timeline", "--prometheus", url, "--watch", "--interval", "1s"});
    EXPECT_EQ(r.exitCode, 2) << r.err;
    EXPECT_NE(r.err.find("127.0.0.1"), std::string::npos) << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;

    auto noWatch = fp8dashCli({"timeline", "--prometheus", url, "--from", "1", "--to", "2", "--interval", "60"});
    EXPECT_EQ(noWatch.exitCode, 2);
    EXPECT_NE(noWatch.err.find("--interval belongs to --watch"), std::string::npos) << noWatch.err;
    auto withTo = fp8dashCli({"timeline", "--prometheus", url, "--watch", "--to", "2"});
    EXPECT_EQ(withTo.exitCode, 2);
    EXPECT_NE(withTo.err.find("not --to"), std::string::npos) << withTo.err;
    auto badDuration = fp8dashCli({"timeline", "--prometheus", url, "--watch", "--last", "6x"});
    EXPECT_EQ(badDuration.exitCode, 2);
    EXPECT_NE(badDuration.err.find("--last \"6x\": expected a positive duration"), std::string::npos)
        << badDuration.err;
}

// Against a real Prometheus (Debian's 2.42, backfilled with promtool), which evaluates the alert itself: the changes
// the watch prints while it replays three hours, a minute at a time, are those of one fixed-range `timeline` over the
// same hours (every refresh fetching only its minutes must agree with one fetch of everything).
TEST(CliWatchLive, TheChangesAWatchPrintsAreThoseOfOneFetchOfTheWholeRange) {
    if (const auto why = test::PrometheusServer::unavailableReason(); !why.empty()) GTEST_SKIP() << why;
    constexpr double kHour = 3600;
    const double start = std::floor(static_cast<double>(std::time(nullptr)) / kHour) * kHour - 4 * 24 * kHour;
    const double dipFrom = start + 30 * kHour, dipTo = start + 31 * kHour;
    std::ostringstream om;
    om << "# TYPE langfuse_score_value gauge\n";
    for (double t = start; t <= start + 40 * kHour; t += 60)
        om << "langfuse_score_value{name=\"llm_judge_domain\"} " << (t >= dipFrom && t < dipTo ? 3.5 : 4.25) << ' '
           << test::openMetricsNumber(t) << '\n';
    om << "# TYPE vllm:generation_tokens counter\n";
    for (double t = start; t <= start + 40 * kHour; t += 15)
        om << "vllm:generation_tokens_total " << test::openMetricsNumber(1000 * (t - start)) << ' '
           << test::openMetricsNumber(t) << '\n';
    om << "# EOF\n";
    test::PrometheusServerOptions options;
    options.openMetrics = om.str();
    options.maxBlockDuration = "24h";
    test::PrometheusServer server(options);
    ASSERT_TRUE(server.ok()) << server.error();

    const double replayFrom = dipFrom - kHour, forS = 3 * kHour;
    auto watch = fp8dashCli({"timeline", "--prometheus", server.baseUrl(), "--quality-query", kQuality, "--watch",
                             "--last", "1h", "--replay-from", number(replayFrom), "--interval", "1m", "--for", "3h"});
    ASSERT_EQ(watch.exitCode, 0) << watch.err << watch.out;
    // The snapshot: the watch's first fetch began a day, two hours and an hour before the replay's start.
    const double from = replayFrom - kHour - 26 * kHour, to = replayFrom + forS;
    auto snapshot = fp8dashCli({"timeline", "--prometheus", server.baseUrl(), "--quality-query", kQuality, "--from",
                                number(from), "--to", number(to), "--format", "json"});
    ASSERT_EQ(snapshot.exitCode, 0) << snapshot.err;
    const auto alerts = test::parseJson(snapshot)["alerts"];
    ASSERT_EQ(alerts.size(), 1u) << snapshot.out;
    const auto& a = alerts[0];
    ASSERT_TRUE(a["firing_at"].is_number() && a["resolved_at"].is_number()) << snapshot.out;
    const std::string expected = "3 alert changes: pending at " + formatTimeUtc(a["pending_at"].get<double>()) +
                                 ", firing at " + formatTimeUtc(a["firing_at"].get<double>()) + ", resolved at " +
                                 formatTimeUtc(a["resolved_at"].get<double>()) + "; the alert is inactive";
    EXPECT_NE(watch.out.find(expected), std::string::npos) << expected << "\n" << watch.out;
    // Within the dip, as the data has it: pending once the 30 minutes' mean falls 0.2 below the day's.
    EXPECT_GT(a["pending_at"].get<double>(), dipFrom);
    EXPECT_LT(a["resolved_at"].get<double>(), dipTo + kHour);
}

}  // namespace
}  // namespace fp8dash
