#include "cli_timeline.h"

#include <ostream>
#include <string>

#include "cli.h"
#include "cli_common.h"
#include "cli_watch.h"
#include "fp8dash/core/comparison_file.h"
#include "fp8dash/core/http_client.h"
#include "fp8dash/core/report_document.h"
#include "fp8dash/core/report_format.h"
#include "fp8dash/core/timeline.h"
#include "fp8dash/core/untrusted_text.h"
#include "fp8dash/core/version.h"
#include "fp8dash/core/vllm_metrics.h"
#include "fp8dash/core/vllm_metrics_json.h"
#include "terminal_stream.h"

namespace fp8dash::cli {
namespace {

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

}  // namespace

int cmdTimeline(Args& a, std::ostream& out, std::ostream& err) {
    TimelineSettings st;
    Format format = Format::Text;
    std::optional<Verdict> failOn;
    std::string savePath, value;
    std::optional<double> from, to;
    bool langfuseGiven = false, qualityQueryGiven = false;
    WatchOptions watchOptions;
    TimelineCredentials cred = credentialsFromEnvironment();
    if (!cred.headersError.empty()) {
        err << "fp8dash: " << oneLine(cred.headersError) << "\n";
        return kExitBadInput;
    }
    st.langfuseMode = LangfuseMode::Auto;  // aggregate for more than ~50,000 scores where the server can
    cred.notice = [&err](const std::string& text) { err << "fp8dash: " << oneLine(text) << "\n" << std::flush; };
    while (!a.done()) {
        if (a.option("--prometheus", value))
            st.prometheusUrl = value;
        else if (a.option("--from", value))
            from = parseTime("--from", value);
        else if (a.option("--to", value))
            to = parseTime("--to", value);
        else if (a.option("--change-at", value))
            st.changeAt = parseTime("--change-at", value);
        else if (a.option("--step", value))
            st.step = parseSeconds("--step", value);
        else if (a.option("--throughput-query", value))
            st.throughputQuery = value;
        else if (a.flag("--no-throughput"))
            st.fetchThroughput = false;
        else if (a.option("--pick", value))
            st.seriesPick = value;
        else if (a.option("--quality-query", value))
            st.qualityQuery = value, qualityQueryGiven = true;
        else if (a.option("--langfuse", value))
            st.langfuseUrl = value, langfuseGiven = true;
        else if (a.option("--score-name", value))
            st.scoreName = value;
        else if (a.option("--tag", value))
            st.traceTags.push_back(value);
        else if (a.option("--environment", value))
            st.environments.push_back(value);
        else if (a.option("--window-semantics", value))
            st.windowSemantics = windowSemanticsOption(value);
        else if (a.option("--langfuse-mode", value)) {
            const auto mode = parseLangfuseMode(value);
            if (!mode) throw UsageError{"--langfuse-mode must be raw, aggregate or auto, not \"" + value + "\""};
            st.langfuseMode = *mode;
        } else if (a.option("--ca-file", value))
            cred.httpTemplate.caFile = value;
        else if (a.flag("--insecure"))
            cred.httpTemplate.verifyTls = false;
        else if (a.option("--timeout", value))
            cred.httpTemplate.totalTimeoutS = parseSeconds("--timeout", value);
        else if (a.option("--format", value))
            format = parseFormat(value);
        else if (a.option("--save", value))
            savePath = value;
        else if (a.option("--fail-on", value))
            failOn = parseFailOn(value);
        else if (readWatchOption(a, watchOptions))
            continue;
        else
            throw UsageError{"timeline: unknown argument " + a.peek()};
    }
    checkWatchOptions(watchOptions, from, to.has_value(), format == Format::Text, !savePath.empty(), failOn);
    if (watchOptions.enabled) from = 0, to = 1;  // the watch sets the range
    if (!from || !to) throw UsageError{"timeline needs --from and --to (unix seconds or RFC 3339)"};
    for (auto [option, url] : {std::pair<const char*, const std::string*>{"--prometheus", &st.prometheusUrl},
                               {"--langfuse", &st.langfuseUrl}})
        if (HttpClient::holdsCredentials(*url))
            err << "fp8dash: the " << option << " URL carries credentials (user info or a token parameter): they are "
                << "used for its requests and never saved or shown; the comparison file and the reports hold "
                << HttpClient::displayUrl(*url) << "\n";
    if (qualityQueryGiven && langfuseGiven)
        throw UsageError{"choose one quality source: --quality-query or --langfuse"};
    st.from = *from;
    st.to = *to;
    st.qualitySource = langfuseGiven       ? QualitySource::Langfuse
                       : qualityQueryGiven ? QualitySource::Prometheus
                                           : QualitySource::None;
    if (st.fetchThroughput && st.prometheusUrl.empty() && !langfuseGiven)
        throw UsageError{"timeline needs --prometheus URL (or --no-throughput with --langfuse)"};
    if (st.prometheusUrl.empty()) st.fetchThroughput = false;

    if (watchOptions.enabled) {
        if (st.step > watchOptions.window.lengthS && !watchOptions.window.since)
            throw UsageError{"--last must be at least the --step"};
        return runTimelineWatch(st, cred, watchOptions, out, err);
    }
    // Progress on a terminal only; scripts reading stderr get just the messages that matter.
    Progress progress;
    int lastTenth = -1;
    if (::isatty(STDERR_FILENO))
        progress.report = [&err, &lastTenth](double f, const std::string&) {
            const int tenth = static_cast<int>(f * 10);
            if (tenth == lastTenth) return;
            lastTenth = tenth;
            writeTerminalControl(err, "\r");
            err << "fp8dash: fetching… " << tenth * 10 << "%" << (tenth >= 10 ? "\n" : "") << std::flush;
        };
    auto data = fetchTimeline(st, cred, progress);
    if (!data) {
        err << "fp8dash: " << errorText(data.error().message) << "\n";
        return kExitBadInput;
    }
    if (!data->switchModels.empty()) {  // no change time given, and engines of several models switched
        const auto& first = data->switchModels.front();
        err << "fp8dash: no change time: vllm:cache_config_info shows the KV cache switching for several models, "
            << oneLine(kvCacheSwitchModelsText(data->switchModels)) << "; pick one with --pick ("
            << (first.model.empty() ? std::string("a label that tells them apart, such as job=…")
                                    : oneLine("model_name=" + first.model))
            << ") or give --change-at\n";
        return kExitBadInput;
    }
    const TimelineReport report = evaluateTimeline(*data);
    // Where the change time came from: vLLM's switch when none was given, or the given one over a different switch.
    if (!report.changeDetail.empty())
        err << "fp8dash: " << oneLine(report.changeDetail)
            << (report.rollout.empty() ? std::string() : "; " + oneLine(report.rollout)) << "\n";
    if (!savePath.empty()) {
        ComparisonDocument doc;
        if (std::filesystem::exists(savePath)) {
            auto existing = loadComparisonFile(savePath);
            if (!existing) {
                err << "fp8dash: cannot add the timeline: " << errorText(existing.error().message) << "\n";
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
            err << "fp8dash: cannot save: " << errorText(saved.error().message) << "\n";
            return kExitBadInput;
        }
        err << "fp8dash: saved the timeline to " << oneLine(savePath) << "\n";
    }
    if (format == Format::Json) {
        Json j = timelineReportToJson(report);
        j["detected_change"] = data->detectedChange ? Json{{"at", data->detectedChange->at},
                                                           {"from", data->detectedChange->from},
                                                           {"to", data->detectedChange->to}}
                                                    : Json(nullptr);
        if (!data->detectedSwitches.empty()) j["detected_switches"] = engineSwitchesToJson(data->detectedSwitches);
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

}  // namespace fp8dash::cli
