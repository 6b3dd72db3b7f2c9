// `fp8dash timeline --langfuse` and `compare --judge-langfuse` against the Langfuse servers people run: a server that
// speaks only the current API (v4 events_only: v2 answers 404) gives the same numbers as a v3 server with v2, on the
// same data; the aggregate mode (Metrics API) gives the raw mode's before/after means and alert episodes; Cloud's
// deprecations become one line on stderr. Expected means are computed here from the seeded scores.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <string>

#include "cli_runner.h"
#include "fp8dash/core/time_series.h"
#include "langfuse_test_server.h"

namespace fp8dash {
namespace {

using test::LangfuseSeedScore;
using test::LangfuseTestServer;
using Personality = LangfuseTestServer::Personality;

constexpr double kServersT0 = 1795824000;         // 2026-11-28T00:00:00Z
constexpr double kFrom = kServersT0 + 26 * 3600;  // the alert's baseline (1d offset 2h) is in the data
constexpr double kTo = kFrom + 8 * 3600;
constexpr double kChange = kFrom + 3600;

test::ProcessResult serversWithKeys(const LangfuseTestServer& server, std::vector<std::string> args) {
    std::vector<std::string> argv = {"/usr/bin/env", "LANGFUSE_PUBLIC_KEY=" + server.options().publicKey,
                                     "LANGFUSE_SECRET_KEY=" + server.options().secretKey, FP8DASH_EXE};
    argv.insert(argv.end(), args.begin(), args.end());
    return test::runProcess(argv, {"DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"});
}

LangfuseTestServer::Options personality(Personality p) {
    LangfuseTestServer::Options o;
    o.personality = p;
    return o;
}

// 34 hours of FP8 scores every ~41 s (never on a minute's edge), around 4.2, a dip to 3.5 from +2 h for an hour; BF16
// traffic beside it at 4.4 under its own tag. Each score on its own trace.
std::vector<LangfuseSeedScore> timelineSeed() {
    std::vector<LangfuseSeedScore> out;
    int i = 0;
    for (double t = kServersT0 + 0.3; t < kTo; t += 41.3, ++i) {
        LangfuseSeedScore s;
        s.id = "q" + std::to_string(i);
        s.traceId = "t" + std::to_string(i);
        s.timestamp = t;
        const bool dip = t >= kFrom + 2 * 3600 && t < kFrom + 3 * 3600;
        // The sine keeps window means off the threshold: an exact tie would leave the decision to rounding.
        s.value = (dip ? 3.5 : 4.2) + ((i * 7) % 9 - 4) * 0.05 + 0.01 * std::sin(i);
        s.traceTags = {"precision:fp8", "service:chat"};
        out.push_back(s);
        if (i % 2 == 0) {
            LangfuseSeedScore b = s;
            b.id = "b" + std::to_string(i);
            b.traceId = "u" + std::to_string(i);
            b.value = 4.4;
            b.traceTags = {"precision:bf16", "service:chat"};
            out.push_back(b);
        }
    }
    return out;
}

std::vector<std::string> timelineArgs(const LangfuseTestServer& server, const std::string& mode) {
    return {"timeline",
            "--no-throughput",
            "--langfuse",
            server.baseUrl(),
            "--tag",
            "precision:fp8",
            "--from",
            std::to_string(static_cast<long long>(kFrom)),
            "--to",
            std::to_string(static_cast<long long>(kTo)),
            "--change-at",
            std::to_string(static_cast<long long>(kChange)),
            "--langfuse-mode",
            mode,
            "--format",
            "json"};
}

TEST(CliLangfuseServers, TimelineGivesTheSameNumbersFromEveryServerAndMode) {
    const auto seeded = timelineSeed();
    double bs = 0, bn = 0, as = 0, an = 0;  // from <= t < change; t >= change + 5 min, t <= to
    for (const auto& s : seeded) {
        if (s.traceTags[0] != "precision:fp8" || s.timestamp < kFrom || s.timestamp > kTo) continue;
        if (s.timestamp < kChange)
            bs += s.value, bn += 1;
        else if (s.timestamp >= kChange + 300)
            as += s.value, an += 1;
    }
    LangfuseTestServer v4(seeded, personality(Personality::V4));
    LangfuseTestServer v3(seeded, personality(Personality::V3WithV2));
    struct Run {
        const LangfuseTestServer* server;
        std::string mode;
    };
    std::vector<nlohmann::json> results;
    for (const Run& run : {Run{&v4, "raw"}, Run{&v3, "raw"}, Run{&v4, "aggregate"}, Run{&v4, "auto"}}) {
        SCOPED_TRACE(run.server->version() + " " + run.mode);
        auto r = serversWithKeys(*run.server, timelineArgs(*run.server, run.mode));
        ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
        const auto j = test::parseJson(r);
        const auto& q = j["quality"];
        EXPECT_NEAR(q["before_mean"].get<double>(), bs / bn, 1e-9);
        EXPECT_NEAR(q["after_mean"].get<double>(), as / an, 1e-9);
        EXPECT_EQ(q["before_count"].get<double>(), bn);
        EXPECT_EQ(q["after_count"].get<double>(), an);
        EXPECT_EQ(j.contains("langfuse_mode"), run.mode == "aggregate") << j.dump(2);
        results.push_back(j);
    }
    // The dip fires the alert, and every server and mode finds the same episodes and verdict.
    ASSERT_FALSE(results[0]["alerts"].empty());
    EXPECT_FALSE(results[0]["alerts"][0]["firing_at"].is_null());
    for (std::size_t i = 1; i < results.size(); ++i) {
        EXPECT_EQ(results[i]["alerts"], results[0]["alerts"]) << i;
        EXPECT_EQ(results[i]["verdict"], results[0]["verdict"]) << i;
    }
    // v4 was never asked for what it no longer has.
    for (const auto& req : v4.requests()) {
        EXPECT_NE(req.path, "/api/public/v2/scores");
        EXPECT_NE(req.path, "/api/public/traces");
    }
}

TEST(CliLangfuseServers, JudgeComparisonIsTheSameFromV4AndFromV3WithV2) {
    std::vector<LangfuseSeedScore> seeded;
    double bSum = 0, fSum = 0;
    int bN = 0, fN = 0;
    for (int i = 0; i < 260; ++i) {
        LangfuseSeedScore s;
        s.id = "s" + std::to_string(i);
        s.traceId = "tr" + std::to_string(i);
        s.timestamp = kServersT0 + 17.0 * i;
        const bool fp8 = i % 3 == 0;
        s.value = fp8 ? 1 + (i % 4) : 2 + (i % 3);
        s.traceTags = {fp8 ? "precision:fp8" : "precision:bf16"};
        (fp8 ? fSum : bSum) += s.value;
        ++(fp8 ? fN : bN);
        seeded.push_back(s);
    }
    std::vector<nlohmann::json> judges;
    for (const Personality p : {Personality::V4, Personality::V3WithV2}) {
        LangfuseTestServer server(seeded, personality(p));
        auto r =
            serversWithKeys(server, {"compare", "--judge-langfuse", server.baseUrl(), "--judge-baseline-tag",
                                     "precision:bf16", "--judge-candidate-tag", "precision:fp8", "--format", "json"});
        ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
        const auto judge = test::parseJson(r)["judge"];
        EXPECT_DOUBLE_EQ(judge["baseline_mean"].get<double>(), bSum / bN);
        EXPECT_DOUBLE_EQ(judge["candidate_mean"].get<double>(), fSum / fN);
        EXPECT_EQ(judge["n_baseline"], bN);
        EXPECT_EQ(judge["n_candidate"], fN);
        judges.push_back(judge);
    }
    for (const char* key : {"baseline_mean", "candidate_mean", "n_baseline", "n_candidate", "paired"})
        EXPECT_EQ(judges[0][key], judges[1][key]) << key;
}

TEST(CliLangfuseServers, CloudDeprecationIsOneLineOnStderr) {
    auto o = personality(Personality::V3WithV2);
    o.cloud = true;  // /traces carries "_deprecation" (its replacement: observations v2)
    LangfuseTestServer server(timelineSeed(), o);
    auto r = serversWithKeys(server, {"compare", "--judge-langfuse", server.baseUrl(), "--judge-baseline-tag",
                                      "precision:bf16", "--judge-candidate-tag", "precision:fp8", "--format", "json"});
    ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
    std::size_t lines = 0;  // lines of stderr that speak of a deprecation
    std::size_t start = 0;
    while (start < r.err.size()) {
        const std::size_t end = std::min(r.err.find('\n', start), r.err.size());
        if (r.err.substr(start, end - start).find("deprecated") != std::string::npos) ++lines;
        start = end + 1;
    }
    EXPECT_EQ(lines, 1u) << r.err;
    EXPECT_NE(r.err.find("GET /api/public/traces is deprecated"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("GET /api/public/v2/observations"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("2026-11-16"), std::string::npos) << r.err;
    EXPECT_EQ(r.err.find(server.options().secretKey), std::string::npos);
}

TEST(CliLangfuseServers, AnUnknownModeIsAUsageError) {
    LangfuseTestServer server({}, personality(Personality::V4));
    auto r = serversWithKeys(server, timelineArgs(server, "fast"));
    EXPECT_EQ(r.exitCode, 2) << r.out << r.err;
    EXPECT_NE(r.err.find("--langfuse-mode must be raw, aggregate or auto"), std::string::npos) << r.err;
    EXPECT_EQ(server.requestCount(), 0u);
}

// Issue 28: `timeline --watch` over Langfuse scores (v4, raw and aggregate): the look-back read once, then only the new
// minutes; the changes the watch prints while it replays four hours over the dip are those of one fixed-range
// timeline over the same hours (fp8dash evaluates the alert in both, from the same scores).
TEST(CliLangfuseServers, AWatchReadsTheNewMinutesAndTellsTheChangesOfOneFetch) {
    const double replayFrom = kFrom + 3600, forS = 3 * 3600;
    for (const std::string mode : {"raw", "aggregate"}) {
        SCOPED_TRACE(mode);
        LangfuseTestServer watchServer(timelineSeed(), personality(Personality::V4));
        LangfuseTestServer server(timelineSeed(), personality(Personality::V4));  // for the snapshot
        auto watch = serversWithKeys(
            watchServer, {"timeline", "--no-throughput", "--langfuse", watchServer.baseUrl(), "--tag", "precision:fp8",
                          "--langfuse-mode", mode, "--watch", "--last", "1h", "--replay-from",
                          std::to_string(static_cast<long long>(replayFrom)), "--interval", "1m", "--for", "3h"});
        ASSERT_EQ(watch.exitCode, 0) << watch.err << watch.out;
        auto snapshot = serversWithKeys(
            server, {"timeline", "--no-throughput", "--langfuse", server.baseUrl(), "--tag", "precision:fp8",
                     "--langfuse-mode", mode, "--from", std::to_string(static_cast<long long>(replayFrom - 3600)),
                     "--to", std::to_string(static_cast<long long>(replayFrom + forS)), "--format", "json"});
        ASSERT_EQ(snapshot.exitCode, 0) << snapshot.err;
        const auto alerts = test::parseJson(snapshot)["alerts"];
        ASSERT_EQ(alerts.size(), 1u) << snapshot.out;
        const auto& a = alerts[0];
        ASSERT_TRUE(a["firing_at"].is_number() && a["resolved_at"].is_number()) << snapshot.out;
        const std::string expected = "3 alert changes: pending at " + formatTimeUtc(a["pending_at"].get<double>()) +
                                     ", firing at " + formatTimeUtc(a["firing_at"].get<double>()) + ", resolved at " +
                                     formatTimeUtc(a["resolved_at"].get<double>()) + "; the alert is inactive";
        EXPECT_NE(watch.out.find(expected), std::string::npos) << expected << "\n" << watch.out << watch.err;

        // What the watch read: the scores from a day and two hours before its first hour once, then two minutes
        // again and the new one at each refresh (179 after the first), each reaching an hour further back for the
        // traces the tags filter on (kTraceLookbackS). Re-reading the look-back would be 180 reads of over a day.
        std::set<std::pair<double, double>> ranges;  // a range read page by page counts once
        for (const auto& r : watchServer.requests()) {
            // The score lists take fromTimestamp and toTimestamp; the Metrics API has them in its JSON query.
            auto fromText = r.queryValue("fromTimestamp"), toText = r.queryValue("toTimestamp");
            if (r.path == "/api/public/v2/metrics") {
                const auto query = nlohmann::json::parse(r.queryValue("query").value_or("{}"), nullptr, false);
                if (!query.is_object() || !query.contains("fromTimestamp") || !query.contains("toTimestamp")) continue;
                fromText = query["fromTimestamp"].get<std::string>();
                toText = query["toTimestamp"].get<std::string>();
            } else if (r.path.find("scores") == std::string::npos) {
                continue;
            }
            if (!fromText || !toText) continue;
            const auto from = parseIso8601(*fromText), to = parseIso8601(*toText);
            ASSERT_TRUE(from && to) << *fromText << " " << *toText;
            ranges.emplace(*from, *to);
        }
        const auto longReads =
            std::count_if(ranges.begin(), ranges.end(), [](const auto& r) { return r.second - r.first > 2 * 3600; });
        EXPECT_GE(ranges.size(), 180u);
        EXPECT_GE(longReads, 1);
        EXPECT_LE(longReads, 3) << ranges.size() << " ranges";
    }
}

}  // namespace
}  // namespace fp8dash
