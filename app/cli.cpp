#include "cli.h"
#include "cli_answers.h"
#include "cli_bench.h"
#include "cli_capacity.h"
#include "cli_common.h"
#include "cli_compare.h"
#include "cli_device.h"
#include "cli_export.h"
#include "cli_exporter.h"
#include "cli_judge.h"
#include "cli_report.h"
#include "cli_serving.h"
#include "cli_timeline.h"

#include <algorithm>
#include <ostream>

#include "cli_args.h"
#include "fp8dash/core/untrusted_text.h"
#include "fp8dash/core/version.h"
#include "terminal_stream.h"

namespace fp8dash::cli {

std::string usage() {
    return "fp8dash " FP8DASH_VERSION
           " — should this LLM deployment run in FP8? Decide with data.\n"
           "\n"
           "Usage:\n"
           "  fp8dash [FILE.fp8cmp ...]      open the desktop app (the bundled demo when no file is given);\n"
           "                                 with no display, print the verdict report instead; a running\n"
           "                                 fp8dash takes the files (--new-instance starts another one)\n"
           "  fp8dash FILE.fp8cmp [--tab NAME] [--task TASK] [--candidate LABEL]\n"
           "                                 open the file at a place: the tab by its title in any case (Offline\n"
           "                                 evals, Which layers, Domain judge, Production timeline, Local\n"
           "                                 benchmarks, Capacity, Review; '-' for a space), the task selected in the\n"
           "                                 Offline evals table, the candidate picked in its Candidate: picker\n"
           "  fp8dash --present [FILE.fp8cmp]  present the comparison full screen, one step of the decision per slide\n"
           "                                 (the bundled demo when no file is given): Right, Space or Page Down\n"
           "                                 next, Left or Page Up back, Home/End, N notes, Esc back to the window\n"
           "  fp8dash compare [BASELINE CANDIDATE [CANDIDATE ...]] [--judge-baseline F --judge-candidate F]\n"
           "                                 compare lm-eval results (a results JSON file or an output folder),\n"
           "                                 two LLM-as-judge score files (JSONL, CSV or JSON), or both; with\n"
           "                                 several candidates (8 at most), each FP8 variant against the baseline,\n"
           "                                 the layer steps and the variant to deploy\n"
           "      --label NAME               each run's label in order, the baseline's first (repeatable; default\n"
           "                                 BF16, FP8 for two runs, else named from each run's layers)\n"
           "      --accept go|monitor        a variant passes at this verdict or better (default go)\n"
           "      --min-recovery PCT         ... and only when every task recovers at least PCT % of the baseline\n"
           "      --judge-candidate F        repeatable: one judge score file per candidate, in their order\n"
           "      --metric TASK=METRIC[,FILTER]  use this metric for TASK (repeatable)\n"
           "      --go-below PCT             degradation below this is go (default 0.5)\n"
           "      --investigate-above PCT    degradation above this is investigate (default 1.5)\n"
           "      --baseline-label L, --candidate-label L   run labels (default BF16, FP8)\n"
           "      --format text|json|markdown\n"
           "      --save FILE.fp8cmp         save the comparison file; onto an existing one, its evals and judge\n"
           "                                 are replaced and the rest (timeline, benchmarks, capacity, notes,\n"
           "                                 review decisions) kept\n"
           "      --replace                  with --save: start the file over, keeping nothing\n"
           "      --fail-on monitor|investigate   exit 3 when the verdict is at least this\n"
           "      --judge-scale MIN-MAX      the judge's score range (default 1-5)\n"
           "      --judge-langfuse URL --judge-baseline-tag T --judge-candidate-tag T [--judge-score NAME]\n"
           "                                 judge scores from Langfuse instead of files, one trace tag (or\n"
           "                                 --judge-baseline-env E --judge-candidate-env E) per side; score name\n"
           "                                 default llm_judge_domain; LANGFUSE_PUBLIC_KEY, LANGFUSE_SECRET_KEY\n"
           "      --control BASELINE2        a second BF16 run: its spread is shown as each task's noise floor\n"
           "      --cautious                 a task (or judge) whose 95% interval straddles a band edge takes the\n"
           "                                 worse band\n"
           "      --map BASE_TASK=CAND_TASK  compare the baseline's BASE_TASK with the candidate's CAND_TASK\n"
           "                                 (repeatable; lm-eval's v0.3 -> v0.4 renamings are matched by themselves)\n"
           "      --allow-incomparable       compare tasks the comparability check blocks (different n-shot,\n"
           "                                 task version, --limit, chat template, generation settings; the same\n"
           "                                 run twice) anyway; the verdict says so\n"
           "      --no-sample-logs           ignore lm-eval's samples_*.jsonl beside the results (used when found,\n"
           "                                 for paired tests: McNemar, Wilcoxon, paired bootstrap)\n"
           "      --answer-examples N        the changed answers kept per paired task, lost first (default 200):\n"
           "                                 question, target and both runs' answers and responses, saved with\n"
           "                                 --save (stderr says how many); 0 keeps only the counts\n" +
           answersUsage() +
           "  fp8dash timeline --prometheus URL --from T --to T [--change-at T] [options]\n"
           "                                 throughput and quality around the FP8 switch, and the quality alert\n"
           "                                 (T: unix seconds or RFC 3339, e.g. 2026-11-20T10:00:00Z)\n"
           "      --step SECONDS             resolution and alert evaluation interval (default 60)\n"
           "      --throughput-query Q       default sum(rate(vllm:generation_tokens_total[5m])); --no-throughput\n"
           "      --pick LABEL=VALUE[,...]   choose where one Prometheus scrapes several deployments, e.g.\n"
           "                                 model_name=M (throughput: M's engines summed; default: everything)\n"
           "      --quality-query Q          quality from Prometheus, e.g. "
           "langfuse_score_value{name=\"llm_judge_domain\"}\n"
           "      --langfuse URL [--score-name NAME] [--tag TAG]... [--environment ENV]...\n"
           "                                 quality from Langfuse (LANGFUSE_PUBLIC_KEY, LANGFUSE_SECRET_KEY)\n"
           "      --langfuse-mode raw|aggregate|auto\n"
           "                                 raw: every score; aggregate: per-minute sums and counts from the\n"
           "                                 Metrics API (Langfuse v4, Cloud); auto (default): aggregate above\n"
           "                                 50,000 scores where the server has the Metrics API, else raw\n"
           "      --window-semantics prometheus2|prometheus3\n"
           "                                 the local alert's window edges: closed (2.x) or left-open (3.x);\n"
           "                                 default: the Prometheus server's own (none: prometheus3)\n"
           "      --ca-file PEM, --insecure, --timeout SECONDS\n"
           "      --format text|json, --save FILE.fp8cmp (adds to an existing file), --fail-on ...\n"
           "  fp8dash timeline --prometheus URL --watch [--last 6h | --from T] [--interval 60] [--for 6h] [-v]\n"
           "                                 follow the timeline as it runs: a line per alert change (pending,\n"
           "                                 firing, resolved; the window means), -v a line per refresh; each\n"
           "                                 refresh fetches only what is new; --fail-on investigate exits 3 once\n"
           "                                 the alert fires; Ctrl-C or SIGTERM ends it (exit 0) with a summary;\n"
           "                                 failed refreshes are retried with back-off (the first one is fatal)\n"
           "      --replay-from T            watch as from the past time T: the clock moves by --interval at once\n"
           "                                 until it reaches now, then the watch goes on live\n"
           "      Prometheus credentials: FP8DASH_PROMETHEUS_TOKEN (bearer), or FP8DASH_PROMETHEUS_USER and\n"
           "      FP8DASH_PROMETHEUS_PASSWORD (basic); extra headers: FP8DASH_PROMETHEUS_HEADERS=\"X-Scope-OrgID: "
           "t1\"\n"
           "  fp8dash report FILE.fp8cmp [--format text|json|markdown] [--out REPORT] [--fail-on ...]\n"
           "                                 re-derive the verdict from a saved comparison file alone\n"
           "      --out report.html|report.pdf|report.md|report.txt|report.json\n"
           "                                 write the whole report to a file, its format from the extension (HTML\n"
           "                                 and PDF with the charts); nothing on stdout unless --format is given\n"
           "  fp8dash demo [--format ...] [--out REPORT]   the report of the bundled demo comparison\n"
           "  fp8dash device [--format text|json]   the local GPU and its FP8 support\n" +
           capacityUsage() + servingUsage() + benchUsage() + judgeUsage() + exportUsage() + exporterUsage() +
           "  fp8dash --help | --version\n"
           "\n"
           "Verdict per task from the degradation d in the metric's good direction: d < 0.5% go,\n"
           "0.5% <= d <= 1.5% monitor, d > 1.5% investigate; the overall verdict is the worst of the tasks,\n"
           "the judge and the production timeline.\n"
           "Exit codes: 0 ran, 3 the verdict reached --fail-on, 2 bad input or usage, 1 internal error.\n";
}

bool isCliInvocation(const std::vector<std::string>& args) {
    if (args.empty()) return false;
    const std::string& first = args.front();
    return first == "compare" || first == "answers" || first == "report" || first == "demo" || first == "device" ||
           first == "timeline" || first == "capacity" || first == "plan" || first == "bench" || first == "judge" ||
           first == "export" || first == "exporter" || first == "serving" || first == "help" || first == "--help" ||
           first == "-h" || first == "--version" || first == "-V";
}

int run(const std::vector<std::string>& argv, std::ostream& rawOut, std::ostream& rawErr) {
    // Data from files and servers reaches the terminal with its controls shown, never acted on (terminal_stream.h).
    VisibleControlsBuf outBuf(rawOut), errBuf(rawErr);
    std::ostream out(&outBuf), err(&errBuf);
    try {
        if (argv.empty() || argv[0] == "--help" || argv[0] == "-h" || argv[0] == "help") {
            out << usage();
            return kExitOk;
        }
        if (argv[0] == "--version" || argv[0] == "-V") {
            out << "fp8dash " FP8DASH_VERSION "\n";
            return kExitOk;
        }
        Args a(std::vector<std::string>(argv.begin() + 1, argv.end()));
        if (!a.done() && (a.peek() == "--help" || a.peek() == "-h")) {
            out << usage();
            return kExitOk;
        }
        if (argv[0] == "compare") return cmdCompare(a, out, err);
        if (argv[0] == "answers") return cmdAnswers(a, out, err);
        if (argv[0] == "report") return cmdReport(a, false, out, err);
        if (argv[0] == "demo") return cmdReport(a, true, out, err);
        if (argv[0] == "device") return cmdDevice(a, out);
        if (argv[0] == "timeline") return cmdTimeline(a, out, err);
        if (argv[0] == "capacity") return runCapacity({argv.begin() + 1, argv.end()}, out, err);
        if (argv[0] == "plan") return runPlan({argv.begin() + 1, argv.end()}, out, err);
        if (argv[0] == "bench") return runBench({argv.begin() + 1, argv.end()}, out, err);
        if (argv[0] == "judge") return runJudge({argv.begin() + 1, argv.end()}, out, err);
        if (argv[0] == "export") return runExport({argv.begin() + 1, argv.end()}, out, err);
        if (argv[0] == "exporter") return runExporter({argv.begin() + 1, argv.end()}, out, err);
        if (argv[0] == "serving") return runServing({argv.begin() + 1, argv.end()}, out, err);
        throw UsageError{"unknown command " + argv[0]};
    } catch (const UsageError& e) {
        err << "fp8dash: " << errorText(e.message) << "\nRun 'fp8dash --help' for usage.\n";
        return kExitBadInput;
    } catch (const std::exception& e) {
        err << "fp8dash: internal error: " << e.what() << "\n";
        return kExitInternal;
    }
}

int printHeadless(const std::vector<std::string>& files, std::ostream& out, std::ostream& err) {
    if (files.empty()) return run({"demo"}, out, err);
    int worstExit = kExitOk;
    for (const auto& f : files) {
        worstExit = std::max(worstExit, run({"report", f}, out, err));
        out << "\n";
    }
    return worstExit;
}

}  // namespace fp8dash::cli
