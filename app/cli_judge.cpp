#include "cli_judge.h"
#include "cli_common.h"

#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <climits>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <ostream>
#include <sstream>

#include "cli.h"
#include "cli_args.h"
#include "fp8dash/core/judge_runner.h"
#include "fp8dash/core/untrusted_text.h"
#include "terminal_stream.h"

namespace fp8dash::cli {
namespace {

constexpr int kExitInterrupted = 130;  // the shell's convention for a SIGINT

std::atomic<bool> g_interrupted{false};
static_assert(std::atomic<bool>::is_always_lock_free, "set from a signal handler");

extern "C" void onInterrupt(int) {
    g_interrupted = true;
}

// Ctrl-C cancels the run (the workers stop, what is done stays on disk) instead of killing the process mid-write.
class InterruptGuard {
public:
    InterruptGuard() {
        g_interrupted = false;
        struct sigaction sa {};
        sa.sa_handler = onInterrupt;
        sigemptyset(&sa.sa_mask);
        m_installed = ::sigaction(SIGINT, &sa, &m_previous) == 0;
    }
    ~InterruptGuard() {
        if (m_installed) ::sigaction(SIGINT, &m_previous, nullptr);
    }
    InterruptGuard(const InterruptGuard&) = delete;
    InterruptGuard& operator=(const InterruptGuard&) = delete;

private:
    struct sigaction m_previous {};
    bool m_installed = false;
};

int parseInt(const std::string& option, const std::string& text, int min, int max) {
    const auto v = strictInteger(text, min, max);
    if (!v)
        throw UsageError{option + " \"" + text + "\": expected a whole number from " + std::to_string(min) + " to " +
                         std::to_string(max)};
    return static_cast<int>(*v);
}

double parsePositiveSeconds(const std::string& option, const std::string& text) {
    const auto v = strictDouble(text);
    if (!v || *v <= 0) throw UsageError{option + " \"" + text + "\": expected a positive number of seconds"};
    return *v;
}

std::string meanText(const std::optional<double>& mean) {
    if (!mean) return "-";
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2f", *mean);
    return buf;
}

}  // namespace

std::string judgeUsage() {
    return "  fp8dash judge --samples F --baseline-url U --candidate-url U --judge-url U --judge-model M --out-dir D\n"
           "                                 domain eval: each prompt to both deployments (OpenAI-compatible),\n"
           "                                 each answer rated 1-5 by the judge; writes D/baseline.jsonl,\n"
           "                                 D/candidate.jsonl, D/failures.jsonl, D/run.json; the same command\n"
           "                                 on the same D resumes (Ctrl-C keeps what is done, exit 130)\n"
           "      --baseline-model M, --candidate-model M   default: the first of GET /v1/models\n"
           "      --concurrency N (1-64, default 4), --max-tokens N (default 512), --rubric-file F\n"
           "      --timeout SECONDS (per request, default 300), --ca-file PEM, --insecure, --format text|json\n"
           "      Keys: FP8DASH_BASELINE_API_KEY, FP8DASH_CANDIDATE_API_KEY, FP8DASH_JUDGE_API_KEY (else\n"
           "      OPENAI_API_KEY), sent as Bearer, never written\n";
}

int runJudge(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
    Args a(args);
    JudgeRunSettings st;
    judgeKeysFromEnvironment(st);
    bool json = false;
    std::string rubricFile, value;
    while (!a.done()) {
        if (a.option("--samples", value))
            st.samplesPath = value;
        else if (a.option("--baseline-url", value))
            st.baseline.url = value;
        else if (a.option("--candidate-url", value))
            st.candidate.url = value;
        else if (a.option("--judge-url", value))
            st.judge.url = value;
        else if (a.option("--baseline-model", value))
            st.baseline.model = value;
        else if (a.option("--candidate-model", value))
            st.candidate.model = value;
        else if (a.option("--judge-model", value))
            st.judge.model = value;
        else if (a.option("--out-dir", value))
            st.outDir = value;
        else if (a.option("--concurrency", value))
            st.concurrency = parseInt("--concurrency", value, 1, 64);
        else if (a.option("--max-tokens", value))
            st.maxTokens = parseInt("--max-tokens", value, 1, INT_MAX);
        else if (a.option("--rubric-file", value))
            rubricFile = value;
        else if (a.option("--timeout", value))
            st.http.totalTimeoutS = parsePositiveSeconds("--timeout", value);
        else if (a.option("--ca-file", value))
            st.http.caFile = value;
        else if (a.flag("--insecure"))
            st.http.verifyTls = false;
        else if (a.option("--format", value)) {
            if (value != "text" && value != "json")
                throw UsageError{"--format \"" + value + "\": expected text or json"};
            json = value == "json";
        } else
            a.unknown("judge");
    }
    const std::pair<const char*, const std::string*> required[] = {
        {"--samples", &st.samplesPath}, {"--baseline-url", &st.baseline.url}, {"--candidate-url", &st.candidate.url},
        {"--judge-url", &st.judge.url}, {"--judge-model", &st.judge.model},   {"--out-dir", &st.outDir}};
    for (const auto& [option, v] : required)
        if (v->empty()) throw UsageError{std::string("judge needs ") + option};
    if (!rubricFile.empty()) {
        std::ifstream in(rubricFile, std::ios::binary);
        if (!in || std::filesystem::is_directory(rubricFile))
            throw UsageError{"--rubric-file " + rubricFile + ": cannot read"};
        std::stringstream ss;
        ss << in.rdbuf();
        st.rubric = ss.str();
    }
    if (auto ok = st.validate(); !ok) throw UsageError{ok.error().message};

    InterruptGuard guard;
    Progress progress;
    progress.cancelled = [] { return g_interrupted.load(); };
    std::mutex outputMutex;
    if (::isatty(STDERR_FILENO))
        progress.report = [&](double, const std::string& what) {
            std::lock_guard lock(outputMutex);
            writeTerminalControl(err, "\r");
            err << "fp8dash: judged " << oneLine(what) << std::flush;
            writeTerminalControl(err, "\033[K");
        };
    auto summary = runJudgeEval(st, progress);
    if (::isatty(STDERR_FILENO)) err << "\n";
    if (!summary) {
        err << "fp8dash: " << errorText(summary.error().message) << "\n";
        return kExitBadInput;
    }
    const JudgeRunSummary& s = *summary;
    const std::filesystem::path dir = s.outDir;
    if (json) {
        auto variant = [](const JudgeVariantSummary& v) {
            return nlohmann::ordered_json{
                {"model", v.model},
                {"scored", v.scored},
                {"failed", v.failed},
                {"mean_score", v.meanScore ? nlohmann::ordered_json(*v.meanScore) : nlohmann::ordered_json(nullptr)}};
        };
        out << nlohmann::ordered_json{{"out_dir", s.outDir},
                                      {"samples", s.samples},
                                      {"already_done", s.counts.alreadyDone},
                                      {"scored", s.counts.scored},
                                      {"failed", s.counts.failed},
                                      {"cancelled", s.cancelled},
                                      {"baseline", variant(s.baseline)},
                                      {"candidate", variant(s.candidate)},
                                      {"files",
                                       {{"baseline", (dir / "baseline.jsonl").string()},
                                        {"candidate", (dir / "candidate.jsonl").string()},
                                        {"failures", (dir / "failures.jsonl").string()},
                                        {"run", (dir / "run.json").string()}}}}
                   .dump(2)
            << "\n";
    } else {
        out << "Domain eval: " << s.samples << " samples, judge " << oneLine(st.judge.model) << "\n";
        if (s.counts.alreadyDone)
            out << "  resumed: " << s.counts.alreadyDone << " of " << s.counts.total << " already scored\n";
        for (const auto& [name, v] : {std::pair{"baseline ", &s.baseline}, std::pair{"candidate", &s.candidate}})
            out << "  " << name << " (" << oneLine(v->model) << "): " << v->scored << " scored, " << v->failed
                << " failed, mean score " << meanText(v->meanScore) << "\n";
        if (s.baseline.meanScore && s.candidate.meanScore && *s.baseline.meanScore > 0) {
            char buf[64];
            std::snprintf(buf, sizeof buf, "%+.1f%%",
                          (*s.candidate.meanScore - *s.baseline.meanScore) / *s.baseline.meanScore * 100);
            out << "  candidate vs baseline: " << buf << " on the mean score\n";
        }
        out << "Files: "
            << oneLine((dir / "baseline.jsonl").string() + ", " + (dir / "candidate.jsonl").string() + ", " +
                       (dir / "failures.jsonl").string() + ", " + (dir / "run.json").string())
            << "\n";
        if (s.counts.failed)
            out << s.counts.failed
                << " failed (reasons in failures.jsonl); running the same command again retries them\n";
    }
    if (s.cancelled) {
        err << "fp8dash: interrupted; " << s.counts.finished() << " of " << s.counts.total << " are kept in "
            << s.outDir << "; run the same command again to resume\n";
        return kExitInterrupted;
    }
    return kExitOk;
}

}  // namespace fp8dash::cli
