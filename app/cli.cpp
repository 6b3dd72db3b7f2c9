#include "cli.h"
#include "cli_bench.h"
#include "cli_capacity.h"
#include "cli_judge.h"
#include "cli_report.h"

#include <algorithm>
#include <unistd.h>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <ostream>

#include "cli_args.h"
#include "fp8dash/core/comparison_file.h"
#include "fp8dash/core/demo.h"
#include "fp8dash/core/eval_comparison.h"
#include "fp8dash/core/judge_scores.h"
#include "fp8dash/core/langfuse_judge.h"
#include "fp8dash/core/lm_eval_results.h"
#include "fp8dash/core/local_device.h"
#include "fp8dash/core/paired_tasks.h"
#include "fp8dash/core/report_document.h"
#include "fp8dash/core/report_format.h"
#include "fp8dash/core/timeline.h"
#include "fp8dash/core/version.h"

namespace fp8dash::cli {
namespace {

enum class Format { Text, Json, Markdown };

double parsePercent(const std::string& option, const std::string& text) {
    errno = 0;
    char* end = nullptr;
    const double v = std::strtod(text.c_str(), &end);
    if (text.empty() || end != text.c_str() + text.size() || errno == ERANGE || !std::isfinite(v) || v < 0)
        throw UsageError{option + " \"" + text + "\": expected a percentage such as 0.5"};
    return v;
}

Format parseFormat(const std::string& text) {
    if (text == "text") return Format::Text;
    if (text == "json") return Format::Json;
    if (text == "markdown" || text == "md") return Format::Markdown;
    throw UsageError{"--format \"" + text + "\": expected text, json or markdown"};
}

Verdict parseFailOn(const std::string& text) {
    auto v = parseVerdict(text);
    if (!v || *v == Verdict::Go) throw UsageError{"--fail-on \"" + text + "\": expected monitor or investigate"};
    return *v;
}

// --judge-scale MIN-MAX, e.g. "1-5" or "0-10" (the separator is the first '-' after the first character, so a
// negative minimum reads too: "-1-1").
JudgeScale parseJudgeScale(const std::string& text) {
    const auto bad = [&] { return UsageError{"--judge-scale \"" + text + "\": expected MIN-MAX such as 1-5"}; };
    const auto dash = text.find('-', 1);
    if (text.empty() || dash == std::string::npos) throw bad();
    JudgeScale scale;
    for (auto [part, out] : {std::pair{text.substr(0, dash), &scale.min}, std::pair{text.substr(dash + 1), &scale.max}}) {
        errno = 0;
        char* end = nullptr;
        *out = std::strtod(part.c_str(), &end);
        if (part.empty() || end != part.c_str() + part.size() || errno == ERANGE) throw bad();
    }
    if (auto ok = scale.validate(); !ok) throw UsageError{"--judge-scale \"" + text + "\": " + ok.error().message};
    return scale;
}

// Prints the decision over everything a document holds in the chosen format.
void printDecision(const Decision& d, const ComparisonDocument& doc, Format format, const std::string& heading,
                   std::ostream& out) {
    switch (format) {
    case Format::Json: out << comparisonToJson(doc, d).dump(2) << "\n"; break;
    case Format::Markdown: out << decisionToMarkdown(d, doc, heading); break;
    case Format::Text: out << decisionToText(d, doc, heading); break;
    }
}

int exitFor(const Decision& d, std::optional<Verdict> failOn) {
    return failOn && d.verdict && *d.verdict >= *failOn ? kExitFailOn : kExitOk;
}

// The paired tests from the sample logs beside both results files (issue #5), into the document. The note line
// says how many tasks were paired, or why none; it goes to stderr in text and Markdown (JSON shows "paired").
Status addPairedResults(ComparisonDocument& doc, const std::string& baselinePath, const std::string& candidatePath,
                        bool note, std::ostream& err) {
    auto report = doc.evaluate();
    if (!report) return report.error();
    SampleProgressFn progress;
    int lastTenth = -1;
    if (::isatty(STDERR_FILENO))
        progress = [&err, &lastTenth](std::uint64_t done, std::uint64_t total) {
            const int tenth = total ? static_cast<int>(10 * done / total) : 10;
            if (tenth != lastTenth && total > (64u << 20)) {  // only when reading takes a while
                lastTenth = tenth;
                err << "\rfp8dash: reading sample logs… " << tenth * 10 << "%" << (tenth >= 10 ? "\n" : "")
                    << std::flush;
            }
            return true;
        };
    auto paired = computePairedResults(*report, baselinePath, candidatePath, {}, progress);
    if (!paired) return paired.error();
    doc.paired = std::move(paired->results);
    if (note) {
        const std::size_t n = doc.paired.size(), total = report->tasks.size();
        if (n == 0) {
            err << "fp8dash: sample logs: no task paired";
            err << (paired->notes.empty() ? std::string() : " (" + paired->notes.front() + ")");
            err << "; the confidence comes from lm-eval's standard errors\n";
        } else {
            err << "fp8dash: sample logs: " << n << " of " << total << " task" << (total == 1 ? "" : "s")
                << " paired\n";
            for (const auto& line : paired->notes) err << "fp8dash:   " << line << "\n";
        }
    }
    return success();
}

int cmdCompare(Args& a, std::ostream& out, std::ostream& err) {
    std::vector<std::string> positional;
    ComparisonOptions options;
    Format format = Format::Text;
    std::optional<Verdict> failOn;
    std::string savePath, baselineLabel = "BF16", candidateLabel = "FP8", value;
    std::string judgeBaselinePath, judgeCandidatePath, controlPath;
    JudgeScale scale;
    std::string judgeLangfuseUrl;  // scores from Langfuse instead of files
    LangfuseJudgeQuery judgeLfBaseline, judgeLfCandidate;
    bool sampleLogs = true;
    while (!a.done()) {
        if (a.option("--metric", value)) {
            auto o = MetricOverride::parse(value);
            if (!o) throw UsageError{o.error().message};
            options.overrides.push_back(std::move(o).value());
        } else if (a.option("--go-below", value)) {
            options.thresholds.goBelow = parsePercent("--go-below", value);
        } else if (a.option("--investigate-above", value)) {
            options.thresholds.investigateAbove = parsePercent("--investigate-above", value);
        } else if (a.option("--format", value)) {
            format = parseFormat(value);
        } else if (a.option("--save", value)) {
            savePath = value;
        } else if (a.option("--fail-on", value)) {
            failOn = parseFailOn(value);
        } else if (a.option("--baseline-label", value)) {
            baselineLabel = value;
        } else if (a.option("--candidate-label", value)) {
            candidateLabel = value;
        } else if (a.option("--judge-baseline", value)) {
            judgeBaselinePath = value;
        } else if (a.option("--judge-candidate", value)) {
            judgeCandidatePath = value;
        } else if (a.option("--judge-scale", value)) {
            scale = parseJudgeScale(value);
        } else if (a.option("--judge-langfuse", value)) {
            judgeLangfuseUrl = value;
        } else if (a.option("--judge-score", value)) {
            judgeLfBaseline.scoreName = judgeLfCandidate.scoreName = value;
        } else if (a.option("--judge-baseline-tag", value)) {
            judgeLfBaseline.traceTags.push_back(value);
        } else if (a.option("--judge-candidate-tag", value)) {
            judgeLfCandidate.traceTags.push_back(value);
        } else if (a.option("--judge-baseline-env", value)) {
            judgeLfBaseline.environments.push_back(value);
        } else if (a.option("--judge-candidate-env", value)) {
            judgeLfCandidate.environments.push_back(value);
        } else if (a.option("--control", value)) {
            controlPath = value;
        } else if (a.flag("--cautious")) {
            options.cautious = true;
        } else if (a.flag("--allow-incomparable")) {
            options.allowIncomparable = true;
        } else if (a.option("--map", value)) {
            auto m = TaskMapping::parse(value);
            if (!m) throw UsageError{m.error().message};
            options.taskMap.push_back(std::move(m).value());
        } else if (a.flag("--no-sample-logs")) {
            sampleLogs = false;
        } else if (a.peek().size() > 1 && a.peek()[0] == '-') {
            throw UsageError{"compare: unknown option " + a.peek()};
        } else {
            positional.push_back(a.next());
        }
    }
    const bool langfuseJudge = !judgeLangfuseUrl.empty();
    const bool judgeSelectors = !judgeLfBaseline.traceTags.empty() || !judgeLfBaseline.environments.empty() ||
                                !judgeLfCandidate.traceTags.empty() || !judgeLfCandidate.environments.empty();
    if (judgeSelectors && !langfuseJudge)
        throw UsageError{"compare: --judge-baseline-tag/-env and --judge-candidate-tag/-env need --judge-langfuse URL"};
    if (langfuseJudge && (!judgeBaselinePath.empty() || !judgeCandidatePath.empty()))
        throw UsageError{"compare: choose one judge source: score files (--judge-baseline, --judge-candidate) or "
                         "--judge-langfuse"};
    LangfuseSettings langfuse;
    if (langfuseJudge) {
        for (auto* q : {&judgeLfBaseline, &judgeLfCandidate})
            if (q->traceTags.empty() && q->environments.empty())
                throw UsageError{std::string("compare: --judge-langfuse needs --judge-") +
                                 (q == &judgeLfBaseline ? "baseline" : "candidate") + "-tag or -env"};
        if (judgeLfBaseline.traceTags == judgeLfCandidate.traceTags &&
            judgeLfBaseline.environments == judgeLfCandidate.environments)
            throw UsageError{"compare: the baseline and candidate select the same Langfuse scores (same tags and "
                             "environments)"};
        const TimelineCredentials cred = credentialsFromEnvironment();
        std::string missing;
        if (cred.langfusePublicKey.empty()) missing = "LANGFUSE_PUBLIC_KEY";
        if (cred.langfuseSecretKey.empty())
            missing += (missing.empty() ? "" : " and ") + std::string("LANGFUSE_SECRET_KEY");
        if (!missing.empty()) throw UsageError{"compare: --judge-langfuse needs " + missing + " in the environment"};
        langfuse = {judgeLangfuseUrl, cred.langfusePublicKey, cred.langfuseSecretKey, cred.httpTemplate, {}};
        // Deprecated endpoints, a long fetch ahead, rate-limit waits: one line each on stderr. (The judge needs every
        // score: it has no aggregate mode.)
        langfuse.notice = [&err](const std::string& text) { err << "fp8dash: " << text << "\n" << std::flush; };
    }
    const bool judge = langfuseJudge || !judgeBaselinePath.empty() || !judgeCandidatePath.empty();
    if (judge && !langfuseJudge && judgeCandidatePath.empty()) throw UsageError{"compare: --judge-baseline needs --judge-candidate"};
    if (judge && !langfuseJudge && judgeBaselinePath.empty()) throw UsageError{"compare: --judge-candidate needs --judge-baseline"};
    if (positional.empty() && !judge)
        throw UsageError{"compare needs BASELINE CANDIDATE (two lm-eval results), --judge-baseline F "
                         "--judge-candidate F (two judge score files) or --judge-langfuse URL, or both"};
    if (!positional.empty() && positional.size() != 2)
        throw UsageError{"compare needs exactly two paths, BASELINE and CANDIDATE (got " +
                         std::to_string(positional.size()) + ")"};
    if (!controlPath.empty() && positional.empty())
        throw UsageError{"compare: --control needs BASELINE and CANDIDATE (it is the noise floor of the lm-eval runs)"};
    if (auto ok = options.thresholds.validate(); !ok) throw UsageError{ok.error().message};

    ComparisonDocument doc;
    std::string heading;
    if (!positional.empty()) {
        auto baseline = readLmEvalPath(positional[0]);
        if (!baseline) {
            err << "fp8dash: baseline: " << baseline.error().message << "\n";
            return kExitBadInput;
        }
        auto candidate = readLmEvalPath(positional[1]);
        if (!candidate) {
            err << "fp8dash: candidate: " << candidate.error().message << "\n";
            return kExitBadInput;
        }
        const std::string baselineSource = baseline->sourcePath, candidateSource = candidate->sourcePath;
        doc = makeComparisonDocument({baselineLabel, baselineSource, std::move(baseline).value()},
                                     {candidateLabel, candidateSource, std::move(candidate).value()}, options);
        heading = baselineLabel + " = " + baselineSource + "\n" + candidateLabel + " = " + candidateSource;
        if (!controlPath.empty()) {
            auto control = readLmEvalPath(controlPath);
            if (!control) {
                err << "fp8dash: control: " << control.error().message << "\n";
                return kExitBadInput;
            }
            const std::string source = control->sourcePath;
            doc.control = RunRecord{baselineLabel + " control", source, std::move(control).value()};
            heading += "\n" + doc.control->label + " = " + source;
        }
        if (auto ok = doc.evaluate(); !ok) {
            err << "fp8dash: " << ok.error().message << "\n";
            return kExitBadInput;
        }
        if (sampleLogs) {
            if (auto ok = addPairedResults(doc, positional[0], positional[1], format != Format::Json, err); !ok) {
                err << "fp8dash: sample logs: " << ok.error().message << "\n";
                return kExitBadInput;
            }
        }
    } else {
        doc = makeComparisonDocument({baselineLabel, "", {}}, {candidateLabel, "", {}}, options);
        doc.hasEvals = false;
        doc.title = baselineLabel + " vs " + candidateLabel + ": domain judge";
    }
    if (judge) {
        JudgeSection section;
        section.options.scale = scale;
        section.options.cautious = options.cautious;
        auto b = langfuseJudge ? fetchJudgeScoresFromLangfuse(langfuse, judgeLfBaseline, scale)
                               : loadJudgeScores(judgeBaselinePath, scale);
        if (!b) {
            err << "fp8dash: judge baseline: " << b.error().message << "\n";
            return kExitBadInput;
        }
        auto c = langfuseJudge ? fetchJudgeScoresFromLangfuse(langfuse, judgeLfCandidate, scale)
                               : loadJudgeScores(judgeCandidatePath, scale);
        if (!c) {
            err << "fp8dash: judge candidate: " << c.error().message << "\n";
            return kExitBadInput;
        }
        section.baseline = std::move(b).value();
        section.candidate = std::move(c).value();
        if (langfuseJudge) {
            for (const auto* side : {&section.baseline, &section.candidate})
                for (const auto& w : side->warnings) err << "fp8dash: judge: " << w << "\n";
            // Two deployments' traces are different requests: pair by trace id only where the ids meet.
            section.options.pairById = haveCommonIds(section.baseline, section.candidate);
            if (!section.options.pairById)
                err << "fp8dash: judge: no trace is scored on both sides; comparing the scores unpaired\n";
            judgeBaselinePath = section.baseline.source;
            judgeCandidatePath = section.candidate.source;
        }
        doc.judge = std::move(section);
        heading += std::string(heading.empty() ? "" : "\n") + "judge " + baselineLabel + " = " + judgeBaselinePath +
                   "\njudge " + candidateLabel + " = " + judgeCandidatePath;
    }
    auto decision = decide(doc);
    if (!decision) {
        err << "fp8dash: " << decision.error().message << "\n";
        return kExitBadInput;
    }
    if (!savePath.empty()) {
        if (auto saved = saveComparisonFile(doc, savePath); !saved) {
            err << "fp8dash: cannot save: " << saved.error().message << "\n";
            return kExitBadInput;
        }
        err << "fp8dash: saved the comparison to " << savePath << "\n";
    }
    printDecision(*decision, doc, format, heading, out);
    return exitFor(*decision, failOn);
}

// `report` and `demo`: the decision printed in the chosen format (the full Markdown report for markdown), and with
// --out the report written to a file; with --out alone nothing is printed.
int reportDocument(const ComparisonDocument& doc, Format format, bool print, const std::string& outPath,
                   std::optional<Verdict> failOn, std::ostream& out, std::ostream& err, const std::string& source) {
    auto decision = decide(doc);
    if (!decision) {
        err << "fp8dash: " << source << ": " << decision.error().message << "\n";
        return kExitBadInput;
    }
    for (const std::string& step : doc.migrations)
        err << "fp8dash: " << source << ": read from comparison format " << doc.version << " (" << step << ")\n";
    if (!outPath.empty())
        if (const int rc = writeReportOut(doc, *decision, outPath, source, err); rc != kExitOk) return rc;
    if (print) {
        switch (format) {
            case Format::Json: out << comparisonToJson(doc, *decision).dump(2) << "\n"; break;
            case Format::Markdown: {
                ReportContext ctx;
                ctx.source = source;
                ctx.generatedAt = nowIso8601Utc();
                ctx.toolVersion = FP8DASH_VERSION;
                out << reportToMarkdownDocument(doc, *decision, ctx);
                break;
            }
            case Format::Text: out << reportToPlainText(doc, *decision); break;
        }
    }
    return exitFor(*decision, failOn);
}

int cmdReport(Args& a, bool demo, std::ostream& out, std::ostream& err) {
    std::vector<std::string> positional;
    Format format = Format::Text;
    bool formatGiven = false;
    std::optional<Verdict> failOn;
    std::string value, outPath;
    while (!a.done()) {
        if (a.option("--format", value)) format = parseFormat(value), formatGiven = true;
        else if (a.option("--out", value)) checkReportOutPath(value), outPath = value;
        else if (a.option("--fail-on", value)) failOn = parseFailOn(value);
        else if (a.peek().size() > 1 && a.peek()[0] == '-')
            throw UsageError{(demo ? "demo" : "report") + std::string(": unknown option ") + a.peek()};
        else positional.push_back(a.next());
    }
    const bool print = outPath.empty() || formatGiven;
    if (demo) {
        if (!positional.empty()) throw UsageError{"demo takes no file"};
        auto doc = loadDemoComparison();
        if (!doc) {
            err << "fp8dash: the bundled demo is broken: " << doc.error().message << "\n";
            return kExitInternal;
        }
        return reportDocument(*doc, format, print, outPath, failOn, out, err, std::string(kDemoName));
    }
    if (positional.size() != 1)
        throw UsageError{"report needs exactly one comparison file (got " + std::to_string(positional.size()) + ")"};
    auto doc = loadComparisonFile(positional[0]);
    if (!doc) {
        err << "fp8dash: " << doc.error().message << "\n";
        return kExitBadInput;
    }
    return reportDocument(*doc, format, print, outPath, failOn, out, err, positional[0]);
}

double parseSeconds(const std::string& option, const std::string& text) {
    const double v = parsePercent(option, text);
    if (v <= 0) throw UsageError{option + " \"" + text + "\": expected a positive number of seconds"};
    return v;
}

double parseTime(const std::string& option, const std::string& text) {
    auto t = parseTimePoint(text, option);
    if (!t) throw UsageError{t.error().message};
    return *t;
}

std::optional<WindowSemantics> windowSemanticsOption(const std::string& value) {
    const auto w = parseWindowSemantics(value);
    if (!w) throw UsageError{"--window-semantics \"" + value + "\": expected prometheus2 or prometheus3"};
    return w;
}

int cmdTimeline(Args& a, std::ostream& out, std::ostream& err) {
    TimelineSettings st;
    Format format = Format::Text;
    std::optional<Verdict> failOn;
    std::string savePath, value;
    std::optional<double> from, to;
    bool langfuseGiven = false, qualityQueryGiven = false;
    TimelineCredentials cred = credentialsFromEnvironment();
    st.langfuseMode = LangfuseMode::Auto;  // aggregate for more than ~50,000 scores where the server can
    cred.notice = [&err](const std::string& text) { err << "fp8dash: " << text << "\n" << std::flush; };
    while (!a.done()) {
        if (a.option("--prometheus", value)) st.prometheusUrl = value;
        else if (a.option("--from", value)) from = parseTime("--from", value);
        else if (a.option("--to", value)) to = parseTime("--to", value);
        else if (a.option("--change-at", value)) st.changeAt = parseTime("--change-at", value);
        else if (a.option("--step", value)) st.step = parseSeconds("--step", value);
        else if (a.option("--throughput-query", value)) st.throughputQuery = value;
        else if (a.flag("--no-throughput")) st.fetchThroughput = false;
        else if (a.option("--pick", value)) st.seriesPick = value;
        else if (a.option("--quality-query", value)) st.qualityQuery = value, qualityQueryGiven = true;
        else if (a.option("--langfuse", value)) st.langfuseUrl = value, langfuseGiven = true;
        else if (a.option("--score-name", value)) st.scoreName = value;
        else if (a.option("--tag", value)) st.traceTags.push_back(value);
        else if (a.option("--environment", value)) st.environments.push_back(value);
        else if (a.option("--window-semantics", value)) st.windowSemantics = windowSemanticsOption(value);
        else if (a.option("--langfuse-mode", value)) {
            const auto mode = parseLangfuseMode(value);
            if (!mode) throw UsageError{"--langfuse-mode must be raw, aggregate or auto, not \"" + value + "\""};
            st.langfuseMode = *mode;
        } else if (a.option("--ca-file", value))
            cred.httpTemplate.caFile = value;
        else if (a.flag("--insecure")) cred.httpTemplate.verifyTls = false;
        else if (a.option("--timeout", value)) cred.httpTemplate.totalTimeoutS = parseSeconds("--timeout", value);
        else if (a.option("--format", value)) format = parseFormat(value);
        else if (a.option("--save", value)) savePath = value;
        else if (a.option("--fail-on", value)) failOn = parseFailOn(value);
        else throw UsageError{"timeline: unknown argument " + a.peek()};
    }
    if (!from || !to) throw UsageError{"timeline needs --from and --to (unix seconds or RFC 3339)"};
    if (qualityQueryGiven && langfuseGiven) throw UsageError{"choose one quality source: --quality-query or --langfuse"};
    st.from = *from;
    st.to = *to;
    st.qualitySource = langfuseGiven ? QualitySource::Langfuse
                       : qualityQueryGiven ? QualitySource::Prometheus
                                           : QualitySource::None;
    if (st.fetchThroughput && st.prometheusUrl.empty() && !langfuseGiven)
        throw UsageError{"timeline needs --prometheus URL (or --no-throughput with --langfuse)"};
    if (st.prometheusUrl.empty()) st.fetchThroughput = false;

    // Progress on a terminal only; scripts reading stderr get just the messages that matter.
    Progress progress;
    int lastTenth = -1;
    if (::isatty(STDERR_FILENO))
        progress.report = [&err, &lastTenth](double f, const std::string&) {
            const int tenth = static_cast<int>(f * 10);
            if (tenth == lastTenth) return;
            lastTenth = tenth;
            err << "\rfp8dash: fetching… " << tenth * 10 << "%" << (tenth >= 10 ? "\n" : "") << std::flush;
        };
    auto data = fetchTimeline(st, cred, progress);
    if (!data) {
        err << "fp8dash: " << data.error().message << "\n";
        return kExitBadInput;
    }
    const TimelineReport report = evaluateTimeline(*data);
    if (!savePath.empty()) {
        ComparisonDocument doc;
        if (std::filesystem::exists(savePath)) {
            auto existing = loadComparisonFile(savePath);
            if (!existing) {
                err << "fp8dash: cannot add the timeline: " << existing.error().message << "\n";
                return kExitBadInput;
            }
            doc = std::move(existing).value();
        } else {
            doc.hasEvals = false;
            doc.toolVersion = FP8DASH_VERSION;
            doc.created = nowIso8601Utc();
            doc.title = "Production timeline " + formatTimeUtc(st.from) + " → " + formatTimeUtc(st.to);
        }
        doc.timeline = *data;
        if (auto saved = saveComparisonFile(doc, savePath); !saved) {
            err << "fp8dash: cannot save: " << saved.error().message << "\n";
            return kExitBadInput;
        }
        err << "fp8dash: saved the timeline to " << savePath << "\n";
    }
    if (format == Format::Json) {
        Json j = timelineReportToJson(report);
        j["detected_change"] = data->detectedChange ? Json{{"at", data->detectedChange->at},
                                                           {"from", data->detectedChange->from},
                                                           {"to", data->detectedChange->to}}
                                                    : Json(nullptr);
        j["alerts_evaluated_by"] = data->alertsEvaluatedBy;
        j["warnings"] = data->warnings;
        // Only where the Metrics API's minutes were read (raw, the only mode before, leaves the output as it was).
        if (data->qualityBuckets) j["langfuse_mode"] = langfuseModeName(data->settings.langfuseMode);
        out << j.dump(2) << "\n";
    } else {
        out << timelineReportToText(report, *data);
    }
    return failOn && report.verdict && *report.verdict >= *failOn ? kExitFailOn : kExitOk;
}

int cmdDevice(Args& a, std::ostream& out) {
    Format format = Format::Text;
    std::string value;
    while (!a.done()) {
        if (a.option("--format", value)) format = parseFormat(value);
        else throw UsageError{"device: unknown argument " + a.peek()};
    }
    const LocalDeviceStatus s = queryLocalDevices();
    if (format == Format::Json) {
        Json gpus = Json::array();
        for (const auto& g : s.gpus)
            gpus.push_back({{"name", g.name},
                            {"compute_capability", std::to_string(g.computeMajor) + "." + std::to_string(g.computeMinor)},
                            {"multiprocessors", g.multiprocessors},
                            {"memory_total_bytes", g.memoryTotalBytes},
                            {"memory_free_bytes", g.memoryFreeBytes},
                            {"fp8_supported", g.fp8Supported}});
        out << Json{{"backend", s.backend},
                    {"available", s.available},
                    {"unavailable", s.unavailableCode},
                    {"reason", s.reason},
                    {"driver_version", s.driverVersion},
                    {"runtime_version", s.runtimeVersion},
                    {"gpus", gpus}}
                   .dump(2)
            << "\n";
    } else {
        out << "GPU backend: " << s.backend << "\n" << s.summary() << "\n";
    }
    return kExitOk;
}

}  // namespace

std::string usage() {
    return "fp8dash " FP8DASH_VERSION
           " — should this LLM deployment run in FP8? Decide with data.\n"
           "\n"
           "Usage:\n"
           "  fp8dash [FILE.fp8cmp ...]      open the desktop app (the bundled demo when no file is given);\n"
           "                                 with no display, print the verdict report instead; a running\n"
           "                                 fp8dash takes the files (--new-instance starts another one)\n"
           "  fp8dash --present [FILE.fp8cmp]  present the comparison full screen, one step of the decision per slide\n"
           "                                 (the bundled demo when no file is given): Right, Space or Page Down\n"
           "                                 next, Left or Page Up back, Home/End, N notes, Esc back to the window\n"
           "  fp8dash compare [BASELINE CANDIDATE] [--judge-baseline F --judge-candidate F] [options]\n"
           "                                 compare two lm-eval results (a results JSON file or an output folder),\n"
           "                                 two LLM-as-judge score files (JSONL, CSV or JSON), or both\n"
           "      --metric TASK=METRIC[,FILTER]  use this metric for TASK (repeatable)\n"
           "      --go-below PCT             degradation below this is go (default 0.5)\n"
           "      --investigate-above PCT    degradation above this is investigate (default 1.5)\n"
           "      --baseline-label L, --candidate-label L   run labels (default BF16, FP8)\n"
           "      --format text|json|markdown\n"
           "      --save FILE.fp8cmp         save the comparison file\n"
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
           capacityUsage() + benchUsage() + judgeUsage() +
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
    return first == "compare" || first == "report" || first == "demo" || first == "device" || first == "timeline" ||
           first == "capacity" || first == "plan" || first == "bench" || first == "judge" || first == "help" ||
           first == "--help" || first == "-h" || first == "--version" || first == "-V";
}

int run(const std::vector<std::string>& argv, std::ostream& out, std::ostream& err) {
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
        if (argv[0] == "report") return cmdReport(a, false, out, err);
        if (argv[0] == "demo") return cmdReport(a, true, out, err);
        if (argv[0] == "device") return cmdDevice(a, out);
        if (argv[0] == "timeline") return cmdTimeline(a, out, err);
        if (argv[0] == "capacity") return runCapacity({argv.begin() + 1, argv.end()}, out, err);
        if (argv[0] == "plan") return runPlan({argv.begin() + 1, argv.end()}, out, err);
        if (argv[0] == "bench") return runBench({argv.begin() + 1, argv.end()}, out, err);
        if (argv[0] == "judge") return runJudge({argv.begin() + 1, argv.end()}, out, err);
        throw UsageError{"unknown command " + argv[0]};
    } catch (const UsageError& e) {
        err << "fp8dash: " << e.message << "\nRun 'fp8dash --help' for usage.\n";
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
