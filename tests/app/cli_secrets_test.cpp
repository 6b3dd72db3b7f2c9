// A whole command-line session with every credential fp8dash takes set, against loopback servers that require them
// (no secret may reach a file, a log or an output): production timelines from Prometheus (bearer token and tenant
// header, then basic auth) and Langfuse (public/secret key), the LLM-judge run (three API keys), the judge scores read
// from Langfuse, benchmarks saved into the file, every report format written, and a run with a wrong key. Then every
// file the session wrote (PDF text included) and everything it printed is searched for each secret, as written and as
// it travels (Basic auth's base64): none may appear. The servers must have received them, so the test cannot pass by
// not sending.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "cli_runner.h"
#include "fake_prometheus.h"
#include "langfuse_test_server.h"
#include "openai_test_server.h"
#include "process.h"
#include "test_http_server.h"
#include "test_paths.h"

namespace fp8dash {
namespace {

using test::FakePrometheus;
using test::LangfuseSeedScore;
using test::LangfuseTestServer;
using test::OpenAiTestServer;
using test::ProcessResult;
using test::TempDir;

// Each secret the session uses, by the variable that carries it.
const std::map<std::string, std::string> kSecrets = {
    {"FP8DASH_PROMETHEUS_TOKEN", "prom-bearer-SECRET-7c1f"},
    {"FP8DASH_PROMETHEUS_PASSWORD", "prom-pass-SECRET-2b9e"},
    {"LANGFUSE_SECRET_KEY", "sk-lf-SECRET-55d0"},
    {"FP8DASH_BASELINE_API_KEY", "key-bf16-SECRET-0a1"},
    {"FP8DASH_CANDIDATE_API_KEY", "key-fp8-SECRET-0b2"},
    {"FP8DASH_JUDGE_API_KEY", "key-judge-SECRET-0c3"},
};
const std::string kTenant = "tenant-SECRET-93a";  // a header value (X-Scope-OrgID) is a secret too
const std::string kUser = "prom-user";
const std::string kLangfusePublic = "pk-lf-public-4410";

std::string secret(const std::string& variable) {
    return kSecrets.at(variable);
}

// The binary with these variables set (through env(1)), and no display.
ProcessResult run(const std::map<std::string, std::string>& env, std::vector<std::string> args) {
    std::vector<std::string> argv = {"/usr/bin/env"};
    for (const auto& [k, v] : env) argv.push_back(k + "=" + v);
    argv.push_back(FP8DASH_EXE);
    argv.insert(argv.end(), args.begin(), args.end());
    return test::runProcess(argv, {"DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"}, 120);
}

std::string readAll(const std::filesystem::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

std::vector<LangfuseSeedScore> scores() {
    std::vector<LangfuseSeedScore> out;
    for (int i = 0; i < 40; ++i) {
        LangfuseSeedScore s;
        s.id = "score-" + std::to_string(i);
        s.traceId = "trace-" + std::to_string(i);
        s.timestamp = FakePrometheus::kFrom + 180.0 * i;
        s.value = i % 2 ? 4 : 4.5;
        s.traceTags = {i % 2 ? "precision:fp8" : "precision:bf16"};
        s.environment = "production";
        out.push_back(s);
    }
    return out;
}

TEST(CliSecrets, NoCredentialReachesAFileAReportOrTheOutput) {
    TempDir dir;
    const auto path = [&](const std::string& name) { return (dir.path() / name).string(); };
    std::vector<ProcessResult> outputs;
    const auto ran = [&](ProcessResult r, int expected = 0) {
        EXPECT_EQ(r.exitCode, expected) << r.out << r.err;
        outputs.push_back(std::move(r));
    };

    FakePrometheus prom;
    LangfuseTestServer::Options lfo;
    lfo.publicKey = kLangfusePublic;
    lfo.secretKey = secret("LANGFUSE_SECRET_KEY");
    LangfuseTestServer langfuse(scores(), lfo);
    const std::map<std::string, std::string> langfuseKeys = {{"LANGFUSE_PUBLIC_KEY", kLangfusePublic},
                                                             {"LANGFUSE_SECRET_KEY", secret("LANGFUSE_SECRET_KEY")}};
    const auto timelineArgs = [&](const std::string& save) {
        return std::vector<std::string>{"timeline",
                                        "--prometheus",
                                        prom.url(),
                                        "--from",
                                        std::to_string(static_cast<long long>(FakePrometheus::kFrom)),
                                        "--to",
                                        std::to_string(static_cast<long long>(FakePrometheus::kTo)),
                                        "--change-at",
                                        std::to_string(static_cast<long long>(FakePrometheus::kChange)),
                                        "--step",
                                        "60",
                                        "--langfuse",
                                        langfuse.baseUrl(),
                                        "--environment",
                                        "production",
                                        "--format",
                                        "json",
                                        "--save",
                                        save};
    };

    // 1. The timeline with a bearer token and a tenant header, quality from Langfuse.
    auto env = langfuseKeys;
    env["FP8DASH_PROMETHEUS_TOKEN"] = secret("FP8DASH_PROMETHEUS_TOKEN");
    env["FP8DASH_PROMETHEUS_HEADERS"] = "X-Scope-OrgID: " + kTenant;
    ran(run(env, timelineArgs(path("session.fp8cmp"))));
    // 2. Again with basic auth, into a second file.
    env = langfuseKeys;
    env["FP8DASH_PROMETHEUS_USER"] = kUser;
    env["FP8DASH_PROMETHEUS_PASSWORD"] = secret("FP8DASH_PROMETHEUS_PASSWORD");
    ran(run(env, timelineArgs(path("basic.fp8cmp"))));

    // 3. The LLM-judge run: three OpenAI-compatible servers, each requiring its key.
    const auto server = [](const std::string& key, const std::string& model, bool judge) {
        OpenAiTestServer::Options o;
        o.apiKey = key;
        o.models = {model};
        return std::make_unique<OpenAiTestServer>(
            [judge](const OpenAiTestServer::ChatRequest&) {
                return OpenAiTestServer::Answer(judge ? "Score: 4" : "The refund window is 30 days.");
            },
            o);
    };
    auto bf16 = server(secret("FP8DASH_BASELINE_API_KEY"), "bf16", false);
    auto fp8 = server(secret("FP8DASH_CANDIDATE_API_KEY"), "fp8", false);
    auto judge = server(secret("FP8DASH_JUDGE_API_KEY"), "judge", true);
    std::ofstream(dir.path() / "samples.jsonl")
        << R"({"id": "q1", "prompt": "How long is the refund window?", "expected": "30 days"})"
        << "\n"
        << R"({"id": "q2", "prompt": "Who approves refunds?", "expected": "The billing team"})"
        << "\n";
    ran(run({{"FP8DASH_BASELINE_API_KEY", secret("FP8DASH_BASELINE_API_KEY")},
             {"FP8DASH_CANDIDATE_API_KEY", secret("FP8DASH_CANDIDATE_API_KEY")},
             {"FP8DASH_JUDGE_API_KEY", secret("FP8DASH_JUDGE_API_KEY")}},
            {"judge", "--samples", path("samples.jsonl"), "--baseline-url", bf16->baseUrl(), "--candidate-url",
             fp8->baseUrl(), "--judge-url", judge->baseUrl(), "--judge-model", "judge", "--out-dir", path("judge-run"),
             "--format", "json"}));

    // 4. Judge scores from Langfuse into a comparison; benchmarks added to the first file.
    ran(run(langfuseKeys,
            {"compare", "--judge-langfuse", langfuse.baseUrl(), "--judge-baseline-tag", "precision:bf16",
             "--judge-candidate-tag", "precision:fp8", "--format", "json", "--save", path("langfuse-judge.fp8cmp")}));
    ran(run({}, {"bench", "kv", "--cpu", "--contexts", "256", "--kv-layers", "1", "--save", path("session.fp8cmp")}));

    // 5. Every report format, from the file alone.
    // (A CLI-only build, as the sanitizer build is, refuses PDF: its Qt libraries draw it.)
    for (const char* out : {"report.pdf", "report.html", "report.md", "report.txt", "report.json"})
        ran(run({}, {"report", path("session.fp8cmp"), "--out", path(out)}),
            std::string_view(out).ends_with(".pdf") && !FP8DASH_TEST_GUI ? 2 : 0);
    ran(run({}, {"report", path("session.fp8cmp"), "--format", "markdown"}));

    // 6. A wrong secret: the error says so without repeating it.
    ran(run({{"LANGFUSE_PUBLIC_KEY", kLangfusePublic}, {"LANGFUSE_SECRET_KEY", "sk-lf-WRONG-SECRET-dd"}},
            {"compare", "--judge-langfuse", langfuse.baseUrl(), "--judge-baseline-tag", "precision:bf16",
             "--judge-candidate-tag", "precision:fp8"}),
        2);
    EXPECT_NE(outputs.back().err.find("401"), std::string::npos) << outputs.back().err;

    // The servers did receive every credential (so the search below is not vacuous).
    bool bearer = false, tenant = false, basic = false;
    for (const auto& r : prom.server().requests()) {
        bearer |= r.header("authorization") == "Bearer " + secret("FP8DASH_PROMETHEUS_TOKEN");
        tenant |= r.header("x-scope-orgid") == kTenant;
        basic |= r.header("authorization") ==
                 "Basic " + test::base64Encode(kUser + ":" + secret("FP8DASH_PROMETHEUS_PASSWORD"));
    }
    EXPECT_TRUE(bearer && tenant && basic);
    EXPECT_GT(langfuse.requestCount(), 0u);
    for (const auto* s : {bf16.get(), fp8.get(), judge.get()}) EXPECT_GT(s->receivedCount(), 0u);

    // Every secret, as written and as sent on the wire.
    std::vector<std::string> needles = {kTenant, "sk-lf-WRONG-SECRET-dd",
                                        test::base64Encode(kUser + ":" + secret("FP8DASH_PROMETHEUS_PASSWORD")),
                                        test::base64Encode(kLangfusePublic + ":" + secret("LANGFUSE_SECRET_KEY"))};
    for (const auto& [variable, value] : kSecrets) needles.push_back(value);

    std::vector<std::pair<std::string, std::string>> haystacks;  // (what, text)
    std::size_t files = 0;
    for (const auto& entry : std::filesystem::recursive_directory_iterator(dir.path())) {
        if (!entry.is_regular_file()) continue;
        ++files;
        haystacks.emplace_back(entry.path().string(), readAll(entry.path()));
        if (entry.path().extension() == ".pdf" && std::filesystem::exists("/usr/bin/pdftotext")) {
            // A PDF's text streams are compressed: search its text too.
            const auto text = test::runProcess({"/usr/bin/pdftotext", entry.path().string(), "-"});
            EXPECT_EQ(text.exitCode, 0);
            EXPECT_NE(text.out.find("Verdict"), std::string::npos) << "the PDF's text was not read";
            haystacks.emplace_back(entry.path().string() + " (text)", text.out);
        }
    }
    EXPECT_GE(files, 10u);  // three comparisons, the judge run's files, five reports
    for (std::size_t i = 0; i < outputs.size(); ++i) {
        haystacks.emplace_back("stdout of command " + std::to_string(i + 1), outputs[i].out);
        haystacks.emplace_back("stderr of command " + std::to_string(i + 1), outputs[i].err);
    }
    for (const auto& [what, text] : haystacks)
        for (const auto& needle : needles) EXPECT_EQ(text.find(needle), std::string::npos) << needle << " in " << what;
    // What the files do say: which kind of credentials was used, never its value.
    EXPECT_NE(readAll(dir.path() / "session.fp8cmp").find("\"prometheus_auth\": \"bearer\""), std::string::npos);
    EXPECT_NE(readAll(dir.path() / "basic.fp8cmp").find("\"prometheus_auth\": \"basic\""), std::string::npos);
    EXPECT_NE(readAll(dir.path() / "session.fp8cmp").find("X-Scope-OrgID"), std::string::npos);
}

// Finding 4 of issue 26: credentials in a URL (user info, a token parameter) are used for the requests and reach no
// file, no report and no output; a notice says so, and the file holds the URL without them.
TEST(CliSecrets, CredentialsInAUrlAreUsedButNeverSaved) {
    TempDir dir;
    FakePrometheus prom;
    const std::string password = "url-pass-SECRET-61e", token = "url-token-SECRET-8d4";
    std::string url = prom.url();
    url.insert(url.find("://") + 3, kUser + ":" + password + "@");
    const auto saved = (dir.path() / "url.fp8cmp").string();
    const std::vector<std::string> window = {
        "--from",      std::to_string(static_cast<long long>(FakePrometheus::kFrom)),
        "--to",        std::to_string(static_cast<long long>(FakePrometheus::kTo)),
        "--change-at", std::to_string(static_cast<long long>(FakePrometheus::kChange)),
        "--step",      "60"};
    std::vector<std::string> args = {"timeline", "--prometheus", url};
    args.insert(args.end(), window.begin(), window.end());
    args.insert(args.end(), {"--save", saved});
    auto r = run({}, args);
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(r.err.find("the --prometheus URL carries credentials"), std::string::npos) << r.err;
    // The server got them: basic auth from the user info.
    bool basic = false;
    for (const auto& q : prom.server().requests())
        basic |= q.header("authorization") == "Basic " + test::base64Encode(kUser + ":" + password);
    EXPECT_TRUE(basic);
    // A token parameter in a base URL (which Prometheus' API does not take there: the run fails) is in no message.
    std::vector<std::string> tokenArgs = {"timeline", "--prometheus", prom.url() + "?access_token=" + token};
    tokenArgs.insert(tokenArgs.end(), window.begin(), window.end());
    auto t = run({}, tokenArgs);
    EXPECT_EQ(t.exitCode, 2) << t.err;
    EXPECT_NE(t.err.find("the --prometheus URL carries credentials"), std::string::npos) << t.err;
    // Nothing written or printed holds them; the file holds the URL without its user info.
    std::vector<std::pair<std::string, std::string>> haystacks = {
        {"stdout", r.out}, {"stderr", r.err}, {"token run's stdout", t.out}, {"token run's stderr", t.err}};
    for (const char* ext : {"html", "md", "txt", "json"}) {
        const auto out = (dir.path() / (std::string("url.") + ext)).string();
        auto rep = run({}, {"report", saved, "--out", out});
        EXPECT_EQ(rep.exitCode, 0) << rep.err;
        haystacks.push_back({out, readAll(out)});
    }
    const std::string file = readAll(saved);
    haystacks.push_back({saved, file});
    for (const auto& [what, text] : haystacks)
        for (const std::string& needle : {password, token, test::base64Encode(kUser + ":" + password)})
            EXPECT_EQ(text.find(needle), std::string::npos) << needle << " in " << what;
    EXPECT_NE(file.find("\"prometheus_url\": \"" + prom.url() + "\""), std::string::npos) << file.substr(0, 3000);
}

}  // namespace
}  // namespace fp8dash
