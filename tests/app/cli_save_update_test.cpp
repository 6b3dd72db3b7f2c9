// `compare --save` onto an existing comparison file (issue 26, finding 5), through the real binary: the README's CI
// gate, run again after a reviewer added a timeline, notes, a decision and a section of a later version, keeps all of
// them and says so; --replace starts over; a file that is not a comparison is refused and left as it was.
#include <gtest/gtest.h>

#include <sys/stat.h>

#include <cctype>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "cli_runner.h"
#include "fp8dash/core/comparison_file.h"
#include "fp8dash/core/demo.h"
#include "test_paths.h"

namespace fp8dash {
namespace {

using test::fp8dashCli;
using test::parseJson;
using test::TempDir;
namespace fs = std::filesystem;

std::string seed(const char* side) {
    return (test::testData() / "lm-eval/seed-pair" / side).string();
}

std::string readAll(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

ComparisonDocument load(const fs::path& p) {
    auto doc = loadComparisonFile(p);
    if (!doc) {
        ADD_FAILURE() << doc.error().message;
        return {};
    }
    return std::move(doc).value();
}

// The README's CI gate, word for word, on the seed pair.
std::vector<std::string> ciGate(const fs::path& file) {
    return {"compare", seed("bf16"), seed("fp8"), "--save", file.string(), "--fail-on", "investigate"};
}

TEST(CliSaveUpdate, TheCiGateRunAgainKeepsTheReviewWork) {
    TempDir dir;
    const fs::path file = dir.path() / "review.fp8cmp";
    // The verdict the evals give, from the JSON output: the gate's exit code follows it.
    const auto json = fp8dashCli({"compare", seed("bf16"), seed("fp8"), "--format", "json"});
    ASSERT_EQ(json.exitCode, 0) << json.err;
    const std::string verdict = parseJson(json)["verdict"];
    const int gateExit = verdict == "investigate" ? 3 : 0;

    auto first = fp8dashCli(ciGate(file));
    ASSERT_EQ(first.exitCode, gateExit) << first.err;
    EXPECT_NE(first.err.find("saved the comparison to " + file.string()), std::string::npos) << first.err;

    // A reviewer's work on the file: a production timeline (what timeline --save adds), two notes, a decision
    // recorded under another verdict than the evals give, and a section this build does not know.
    ComparisonDocument reviewed = load(file);
    const ComparisonDocument demo = loadDemoComparison().value();
    reviewed.timeline = demo.timeline;
    reviewed.notes.push_back(
        {"n1", "gsm8k drop is real: re-run with FP8_DYNAMIC", "ana", "2026-12-05T09:00:00Z", "", "gsm8k"});
    reviewed.notes.push_back({"n2", "alerting wired to #fp8-rollout", "bo", "2026-12-05T09:05:00Z", "", ""});
    ReviewDecision decision;
    decision.outcome = ReviewOutcome::ApprovedMonitor;
    decision.by = "ana";
    decision.at = "2026-12-05T09:10:00Z";
    decision.why = "approved with alerting";
    decision.verdictAtDecision = verdict == "go" ? Verdict::Monitor : Verdict::Go;  // not today's verdict
    reviewed.decisions.push_back(decision);
    reviewed.otherSections["later_feature"] = Json{{"kept", "verbatim"}};
    ASSERT_TRUE(saveComparisonFile(reviewed, file).ok());

    // The same gate, twice in a row: same exit code, the work kept and named.
    std::string lastErr;
    for (int run = 0; run < 2; ++run) {
        auto again = fp8dashCli(ciGate(file));
        lastErr = again.err;
        ASSERT_EQ(again.exitCode, gateExit) << again.err;
        EXPECT_NE(again.err.find("kept the timeline, 2 notes, 1 review decision and the section \"later_feature\" of " +
                                 file.string() + "; --replace starts over"),
                  std::string::npos)
            << again.err;
        EXPECT_NE(again.err.find("evidence changed"), std::string::npos) << again.err;
        const ComparisonDocument after = load(file);
        EXPECT_EQ(after.notes, reviewed.notes);
        EXPECT_EQ(after.decisions, reviewed.decisions);
        ASSERT_TRUE(after.timeline.has_value());
        ASSERT_TRUE(after.timeline->throughput.has_value());
        EXPECT_EQ(after.timeline->throughput->samples.size(), demo.timeline->throughput->samples.size());
        EXPECT_EQ(after.otherSections.value("later_feature", Json()), (Json{{"kept", "verbatim"}}));
        EXPECT_TRUE(after.hasEvals);
        EXPECT_EQ(after.candidate.results.tasks.size(), reviewed.candidate.results.tasks.size());
    }

    // The report of the updated file shows the decision against the evidence of now.
    auto report = fp8dashCli({"report", file.string(), "--format", "json"});
    EXPECT_NE(report.out.find("evidence changed after the decision"), std::string::npos) << report.out;
    // What the gate printed is the evals' verdict; where the kept timeline makes the saved file's overall verdict
    // (the report's) another one, the gate says which, so that nobody reads one for the other.
    const std::string overall = parseJson(report)["verdict"];
    const std::string said = "the saved comparison's overall verdict is ";
    if (overall != verdict) {
        std::string upper = overall;
        for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
        EXPECT_NE(lastErr.find(said + upper + " (fp8dash report " + file.string() + ")"), std::string::npos)
            << overall << " vs " << verdict << "\n"
            << lastErr;
    } else {
        EXPECT_EQ(lastErr.find(said), std::string::npos) << lastErr;
    }

    // --replace starts over: the evals only.
    auto replaced = fp8dashCli({"compare", seed("bf16"), seed("fp8"), "--save", file.string(), "--replace"});
    ASSERT_EQ(replaced.exitCode, 0) << replaced.err;
    EXPECT_EQ(replaced.err.find("kept"), std::string::npos) << replaced.err;
    const ComparisonDocument fresh = load(file);
    EXPECT_TRUE(fresh.notes.empty());
    EXPECT_TRUE(fresh.decisions.empty());
    EXPECT_FALSE(fresh.timeline.has_value());
    EXPECT_TRUE(fresh.otherSections.empty());
}

TEST(CliSaveUpdate, AFileThatIsNotAComparisonIsRefusedAndLeftAsItWas) {
    TempDir dir;
    const std::vector<std::pair<std::string, std::string>> files = {
        {"notes.fp8cmp", "my review notes, not JSON\n"},
        {"results.fp8cmp", readAll(fs::path(seed("fp8")) / "neuralmagic__Meta-Llama-3.1-70B-Instruct-FP8" /
                                   "results_2026-11-21T09-30-00.000001.json")},
        {"future.fp8cmp", "{\"format\": \"fp8dash-comparison\", \"version\": 99, \"runs\": {}}\n"},
    };
    for (const auto& [name, bytes] : files) {
        const fs::path file = dir.write(name, bytes);
        auto r = fp8dashCli({"compare", seed("bf16"), seed("fp8"), "--save", file.string()});
        EXPECT_EQ(r.exitCode, 2) << name << ": " << r.err;
        EXPECT_NE(r.err.find(file.string()), std::string::npos) << r.err;
        EXPECT_NE(r.err.find("--replace"), std::string::npos) << r.err;
        EXPECT_EQ(readAll(file), bytes) << name;
        EXPECT_TRUE(r.out.empty()) << r.out;
        // Refused before any work: with a candidate that is not there, the file is what the message is about.
        auto early = fp8dashCli({"compare", seed("bf16"), (dir.path() / "missing").string(), "--save", file.string()});
        EXPECT_EQ(early.exitCode, 2) << early.err;
        EXPECT_NE(early.err.find("is there and is not a comparison"), std::string::npos) << early.err;
        EXPECT_EQ(early.err.find((dir.path() / "missing").string()), std::string::npos) << early.err;
    }
    auto usage = fp8dashCli({"compare", seed("bf16"), seed("fp8"), "--replace"});
    EXPECT_EQ(usage.exitCode, 2);
    EXPECT_NE(usage.err.find("--replace goes with --save"), std::string::npos) << usage.err;
}

// Finding 7 through the binary: under umask 077 the comparison and every report it writes are 0600; a report saved
// through a link replaces the link's target and the link stays.
TEST(CliSaveUpdate, FilesFollowTheUmaskAndReportsGoThroughLinks) {
    TempDir dir;
    const fs::path file = dir.path() / "private.fp8cmp";
    const mode_t old = ::umask(077);  // the binary inherits it
    auto saved = fp8dashCli({"compare", seed("bf16"), seed("fp8"), "--save", file.string()});
    std::vector<test::ProcessResult> reports;
    for (const char* name : {"r.md", "r.txt", "r.json", "r.html"})
        reports.push_back(fp8dashCli({"report", file.string(), "--out", (dir.path() / name).string()}));
    ::umask(old);
    ASSERT_EQ(saved.exitCode, 0) << saved.err;
    for (const auto& r : reports) ASSERT_EQ(r.exitCode, 0) << r.err;
    for (const char* name : {"private.fp8cmp", "r.md", "r.txt", "r.json", "r.html"}) {
        struct stat st {};
        ASSERT_EQ(::stat((dir.path() / name).c_str(), &st), 0) << name;
        EXPECT_EQ(st.st_mode & 0777, 0600u) << name;
    }

    fs::create_directories(dir.path() / "shared");
    const fs::path target = dir.write("shared/report.md", "stale report\n");
    const fs::path link = dir.path() / "report.md";
    fs::create_symlink("shared/report.md", link);
    auto r = fp8dashCli({"report", file.string(), "--out", link.string()});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_TRUE(fs::is_symlink(fs::symlink_status(link)));
    const std::string written = readAll(target);  // the report, written through the link
    EXPECT_NE(written.find("gsm8k"), std::string::npos) << written;
    EXPECT_EQ(written.find("stale report"), std::string::npos);
}

}  // namespace
}  // namespace fp8dash
