// `fp8dash exporter` (issue 28), the real binary against the project's Langfuse test server: it starts during a
// Langfuse outage (serving zeros with fp8dash_exporter_up 0, retrying), then counts the scores of the recent past
// minutes once Langfuse answers, in the v4 (Metrics API) and v3 (raw scores) personalities; /metrics checked against
// the test server's scores summed here; SIGTERM and SIGINT end it with exit 0; bad --listen, a port in use and
// missing keys are clear errors with exit 2.
#include <gtest/gtest.h>

#include <string>

#include "cli_runner.h"
#include "exporter_fixture.h"

namespace fp8dash {
namespace {

using test::ExporterProcess;
using test::LangfuseTestServer;
using test::waitFor;
using Personality = LangfuseTestServer::Personality;

class CliExporter : public ::testing::TestWithParam<Personality> {};

TEST_P(CliExporter, SurvivesAnOutageThenServesTheScoresOfTheFinishedMinutes) {
    const auto scores = test::recentScores(test::wallNow());
    LangfuseTestServer::Options o;
    o.personality = GetParam();
    LangfuseTestServer server(scores, o);
    server.setUnavailable(true);
    ExporterProcess exporter(server, {"--tag", "precision:fp8", "--look-back", "15m", "--interval", "1"});
    ASSERT_TRUE(exporter.started()) << exporter.error();

    // The outage: it serves, says up 0 and counts the failed fetches, with zero counters.
    std::vector<test::Sample> s;
    ASSERT_TRUE(waitFor(30, [&] {
        s = exporter.scrape();
        return ExporterProcess::value(s, "fp8dash_exporter_fetch_errors_total") >= 1;
    })) << exporter.log();
    EXPECT_EQ(ExporterProcess::value(s, "fp8dash_exporter_up"), 0);
    EXPECT_EQ(ExporterProcess::value(s, "fp8dash_langfuse_score_count"), 0);
    EXPECT_EQ(ExporterProcess::value(s, "fp8dash_langfuse_score_sum"), 0);

    // Langfuse back: every score of the selection counted once.
    server.setUnavailable(false);
    const auto want = test::totalsWithTag(scores, "precision:fp8");
    ASSERT_GT(want.count, 10);
    ASSERT_TRUE(waitFor(30, [&] {
        s = exporter.scrape();
        return ExporterProcess::value(s, "fp8dash_exporter_up") == 1 &&
               ExporterProcess::value(s, "fp8dash_langfuse_score_count") == want.count;
    })) << exporter.log();
    const test::Sample* sum = test::findSample(s, "fp8dash_langfuse_score_sum");
    ASSERT_TRUE(sum);
    EXPECT_NEAR(sum->value, static_cast<double>(want.sum), 1e-9 * static_cast<double>(want.sum));
    EXPECT_EQ(sum->labels,
              (std::map<std::string, std::string>{{"score_name", "llm_judge_domain"}, {"tag", "precision:fp8"}}));
    EXPECT_GT(ExporterProcess::value(s, "fp8dash_exporter_last_success_timestamp_seconds"), test::wallNow() - 60);
    // The minutes counted end at a whole minute, at least the grace (2 min) before now and after the last score.
    const double until = ExporterProcess::value(s, "fp8dash_exporter_counted_until_timestamp_seconds");
    EXPECT_EQ(std::fmod(until, 60), 0);
    EXPECT_LE(until, test::wallNow() - 120);
    EXPECT_GT(until, scores.back().timestamp);

    EXPECT_EQ(exporter.terminate(GetParam() == Personality::V4 ? SIGTERM : SIGINT), 0) << exporter.log();
    const std::string log = exporter.log();
    EXPECT_NE(log.find("stopped; " + std::to_string(static_cast<int>(want.count)) + " scores counted"),
              std::string::npos)
        << log;
    EXPECT_EQ(log.find(server.options().secretKey), std::string::npos) << log;
}

INSTANTIATE_TEST_SUITE_P(Servers, CliExporter, ::testing::Values(Personality::V4, Personality::V3WithV2),
                         [](const auto& info) {
                             return info.param == Personality::V4 ? std::string("V4MetricsApi")
                                                                  : std::string("V3RawScores");
                         });

// A Langfuse that takes the request and never answers: the fetch hangs, yet /metrics answers at once (the counters
// as they are, up 0), and SIGTERM ends the exporter during that fetch with exit 0.
TEST(CliExporterHang, ScrapesAreAnsweredDuringAFetchThatHangsAndSigtermStopsIt) {
    test::TestHttpServer silent([](const test::TestHttpServer::Request&) {
        test::TestHttpServer::Reply r;
        r.neverAnswer = true;
        return r;
    });
    ExporterProcess exporter(silent.baseUrl(), "pk-lf-hang", "sk-lf-hang-SECRET", {"--timeout", "300"});
    ASSERT_TRUE(exporter.started()) << exporter.error();
    // The exporter is inside its first fetch once the server holds the request.
    ASSERT_TRUE(waitFor(30, [&] { return silent.requestCount() >= 1; })) << exporter.log();
    std::vector<test::Sample> s;
    ASSERT_TRUE(waitFor(30, [&] { return !(s = exporter.scrape()).empty(); })) << exporter.log();
    EXPECT_EQ(ExporterProcess::value(s, "fp8dash_exporter_up"), 0);
    EXPECT_EQ(ExporterProcess::value(s, "fp8dash_exporter_fetch_errors_total"), 0);  // not failed: still waiting
    EXPECT_EQ(ExporterProcess::value(s, "fp8dash_langfuse_score_count"), 0);
    EXPECT_EQ(silent.requestCount(), 1u);  // still the one request: the scrape did not wait for it
    EXPECT_EQ(exporter.terminate(), 0) << exporter.log();
    EXPECT_EQ(exporter.log().find("sk-lf-hang-SECRET"), std::string::npos) << exporter.log();
}

TEST(CliExporterErrors, APortInUseABadListenAndMissingKeysExit2) {
    LangfuseTestServer server(test::recentScores(test::wallNow()), {});
    ExporterProcess first(server, {"--interval", "60"});
    ASSERT_TRUE(first.started()) << first.error();
    ASSERT_TRUE(waitFor(30, [&] { return !first.scrape().empty(); })) << first.log();

    const std::string address = "127.0.0.1:" + std::to_string(first.port());
    auto r = test::fp8dashCli({"exporter", "--langfuse", server.baseUrl(), "--listen", address});
    EXPECT_EQ(r.exitCode, 2) << r.err;
    EXPECT_NE(r.err.find("cannot listen on " + address), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("in use"), std::string::npos) << r.err;

    for (const std::string bad : {"9464", "127.0.0.1:0", "127.0.0.1:70000", "::1:9464", "127.0.0.1:port"}) {
        r = test::fp8dashCli({"exporter", "--langfuse", server.baseUrl(), "--listen", bad});
        EXPECT_EQ(r.exitCode, 2) << bad << ": " << r.err;
        EXPECT_NE(r.err.find("--listen \"" + bad + "\""), std::string::npos) << r.err;
    }
    r = test::fp8dashCli({"exporter", "--langfuse", "ftp://example.org"});
    EXPECT_EQ(r.exitCode, 2) << r.err;
    EXPECT_NE(r.err.find("--langfuse \"ftp://example.org\""), std::string::npos) << r.err;

    r = test::runProcess({FP8DASH_EXE, "exporter", "--langfuse", server.baseUrl()},
                         {"LANGFUSE_PUBLIC_KEY", "LANGFUSE_SECRET_KEY", "DISPLAY"});
    EXPECT_EQ(r.exitCode, 2) << r.err;
    EXPECT_NE(r.err.find("LANGFUSE_PUBLIC_KEY and LANGFUSE_SECRET_KEY"), std::string::npos) << r.err;

    EXPECT_EQ(first.terminate(), 0) << first.log();
}

}  // namespace
}  // namespace fp8dash
