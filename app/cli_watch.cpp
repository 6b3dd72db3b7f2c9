#include "cli_watch.h"

#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <climits>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <ostream>

#include "cli.h"
#include "cli_args.h"
#include "cli_common.h"
#include "fp8dash/core/untrusted_text.h"
#include "stop_signals.h"

namespace fp8dash::cli {
namespace {

double wallNow() {
    return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

std::string durationText(double s) {
    char buf[48];
    if (s >= 86400 && std::fmod(s, 86400) == 0)
        std::snprintf(buf, sizeof buf, "%gd", s / 86400);
    else if (s >= 3600 && std::fmod(s, 3600) == 0)
        std::snprintf(buf, sizeof buf, "%gh", s / 3600);
    else if (s >= 60 && std::fmod(s, 60) == 0)
        std::snprintf(buf, sizeof buf, "%gm", s / 60);
    else
        std::snprintf(buf, sizeof buf, "%gs", s);
    return buf;
}

std::string number(std::optional<double> v) {
    if (!v) return "none";
    char buf[48];
    std::snprintf(buf, sizeof buf, "%.3f", *v);
    return buf;
}

// "2026-12-05 14:15:00 UTC  firing  quality 30m mean 3.680, baseline 4.200 (1d offset 2h), fires below 4.000;
// pending since ..."
std::string transitionLine(const AlertTransition& t, const AlertRule& rule) {
    std::string state = t.to == AlertState::Pending  ? "pending"
                        : t.to == AlertState::Firing ? "firing"
                        : t.wasFiring                ? "resolved"
                                                     : "resolved (it was pending, never fired)";
    std::string line = formatTimeUtc(t.at) + "  " + state + "  quality " + durationText(rule.shortWindowS) + " mean " +
                       number(t.shortMean) + ", baseline " + number(t.baselineMean) + " (" +
                       durationText(rule.longWindowS) + " offset " + durationText(rule.offsetS) + ")";
    if (t.baselineMean) line += ", fires below " + number(*t.baselineMean - rule.margin);
    if (t.pendingSince) line += "; pending since " + formatTimeUtc(*t.pendingSince);
    return line;
}

}  // namespace

double parseDuration(const std::string& option, const std::string& text) {
    std::string digits = text;
    double unit = 1;
    if (!digits.empty()) {
        switch (digits.back()) {
            case 's':
                unit = 1;
                break;
            case 'm':
                unit = 60;
                break;
            case 'h':
                unit = 3600;
                break;
            case 'd':
                unit = 86400;
                break;
            default:
                unit = 0;
        }
        if (unit != 0) digits.pop_back();
        if (unit == 0) unit = 1;
    }
    const auto v = strictDouble(digits);
    if (!v || !(*v > 0) || *v * unit > 1e9)
        throw UsageError{option + " \"" + text + "\": expected a positive duration such as 90s, 30m, 6h or 1d"};
    return *v * unit;
}

bool readWatchOption(Args& a, WatchOptions& o) {
    std::string value;
    const std::string name = a.peek();
    if (a.flag("--watch")) {
        o.enabled = true;
        return true;
    }
    if (a.option("--interval", value))
        o.intervalS = parseDuration("--interval", value);
    else if (a.option("--for", value))
        o.forS = parseDuration("--for", value);
    else if (a.option("--last", value))
        o.window.lengthS = parseDuration("--last", value), o.lastGiven = true;
    else if (a.option("--replay-from", value)) {
        auto t = parseTimePoint(value, "--replay-from");
        if (!t) throw UsageError{t.error().message};
        o.replayFrom = *t;
    } else if (a.flag("-v") || a.flag("--verbose"))
        o.verbose = true;
    else
        return false;
    if (o.firstOption.empty()) o.firstOption = name.substr(0, name.find('='));
    return true;
}

void checkWatchOptions(WatchOptions& o, std::optional<double> from, bool toGiven, bool textFormat, bool saving,
                       std::optional<Verdict> failOn) {
    if (!o.enabled) {
        if (!o.firstOption.empty()) throw UsageError{o.firstOption + " belongs to --watch"};
        return;
    }
    // The range moves with time: the last --last (6h), or since --from (the switch, say).
    if (toGiven) throw UsageError{"--watch follows a range ending now: give --last DURATION or --from T, not --to"};
    if (from && o.lastGiven) throw UsageError{"--watch takes --last or --from, not both"};
    if (!textFormat) throw UsageError{"--watch writes text lines; --format is for a fixed range"};
    if (saving) throw UsageError{"--watch does not write files; fetch a fixed range with --save to keep a snapshot"};
    if (o.replayFrom && *o.replayFrom > wallNow()) throw UsageError{"--replay-from must be in the past"};
    o.window.since = from;
    o.failOn = failOn;
}

int runTimelineWatch(const TimelineSettings& settings, const TimelineCredentials& credentials, const WatchOptions& o,
                     std::ostream& out, std::ostream& err) {
    StopSignals stop;
    Progress progress;
    progress.cancelled = [&stop] { return stop.requested(); };
    bool replaying = o.replayFrom.has_value();
    double virtualNow = o.replayFrom.value_or(0);
    auto clock = [&] { return replaying ? virtualNow : wallNow(); };
    TimelineFollower follower(
        settings, o.window,
        [&credentials](const TimelineSettings& s, const Progress& p) { return fetchTimeline(s, credentials, p); },
        clock);
    // The wait between refreshes: a replay moves its clock at once until it reaches now; live, an interruptible sleep.
    auto wait = [&](double seconds) {  // false: a stop signal came
        if (replaying) {
            if (virtualNow + seconds <= wallNow()) {
                virtualNow += seconds;
                return !stop.requested();
            }
            replaying = false;
            err << "fp8dash: the replay reached now; watching live from here\n" << std::flush;
        }
        return !stop.wait(seconds);
    };
    const double started = clock();
    auto forOver = [&] { return o.forS && clock() - started >= *o.forS; };
    std::string reason = "stopped by a signal";
    int code = kExitOk, failures = 0;
    for (;;) {
        auto r = follower.refresh(progress);
        if (stop.requested()) break;
        if (!r) {
            if (!follower.started()) {  // nothing to follow: the settings or the server are wrong
                err << "fp8dash: " << errorText(r.error().message) << "\n";
                return kExitBadInput;
            }
            ++failures;
            double delay = std::min(o.intervalS * std::pow(2.0, failures), std::max(o.intervalS, 300.0));
            if (o.forS) delay = std::max(0.0, std::min(delay, started + *o.forS - clock()));
            err << "fp8dash: refresh failed (" << failures << (failures == 1 ? " time" : " times in a row")
                << "): " << oneLine(r.error().message) << "; retrying in " << durationText(delay) << "\n"
                << std::flush;
            if (forOver()) {
                reason = "--for " + durationText(*o.forS) + " is over";
                break;
            }
            if (!wait(delay)) break;
            continue;
        }
        if (failures)
            err << "fp8dash: refreshing again after " << failures << " failed refresh" << (failures == 1 ? "" : "es")
                << "\n";
        failures = 0;
        if (follower.refreshCount() == 1)
            err << "fp8dash: watching "
                << (o.window.since ? "since " + formatTimeUtc(*o.window.since)
                                   : "the last " + durationText(o.window.lengthS))
                << ", refreshing every " << durationText(o.intervalS)
                << (o.forS ? " for " + durationText(*o.forS) : std::string()) << " (Ctrl-C ends it)\n";
        for (const auto& t : r->transitions) out << transitionLine(t, follower.data().settings.rule) << "\n";
        if (o.verbose) {
            out << formatTimeUtc(clock()) << "  refresh " << follower.refreshCount() << ": ";
            if (r->fetchedTo == 0)
                out << "nothing new yet";
            else
                out << formatTimeUtc(r->fetchedFrom) << " to " << formatTimeUtc(r->fetchedTo) << ", " << r->newPoints
                    << " new point" << (r->newPoints == 1 ? "" : "s");
            out << ", alert " << alertStateName(r->state) << "\n";
        }
        out << std::flush;
        err << std::flush;
        if (o.failOn) {
            const auto v = follower.verdict();
            if (v && *v >= *o.failOn) {
                reason = "the verdict reached --fail-on " + std::string(verdictName(*o.failOn));
                code = kExitFailOn;
                break;
            }
        }
        if (forOver()) {
            reason = "--for " + durationText(*o.forS) + " is over";
            break;
        }
        if (!wait(o.forS ? std::min(o.intervalS, started + *o.forS - clock()) : o.intervalS)) break;
    }
    // The summary: how many refreshes, the changes, the state now.
    const auto& told = follower.transitions();
    out << "watch ended (" << reason << "): " << follower.refreshCount() << " refresh"
        << (follower.refreshCount() == 1 ? "" : "es") << ", " << told.size() << " alert change"
        << (told.size() == 1 ? "" : "s");
    for (std::size_t i = 0; i < told.size(); ++i)
        out << (i ? ", " : ": ")
            << (told[i].to == AlertState::Pending  ? "pending"
                : told[i].to == AlertState::Firing ? "firing"
                                                   : "resolved")
            << " at " << formatTimeUtc(told[i].at);
    out << "; the alert is " << alertStateName(follower.state());
    if (follower.state() != AlertState::Inactive && !follower.data().alerts.empty()) {
        const auto& e = follower.data().alerts.back();
        out << " since " << formatTimeUtc(e.firingAt ? *e.firingAt : e.pendingAt);
    }
    if (const auto v = follower.verdict()) out << "; verdict " << verdictName(*v);
    out << "\n" << std::flush;
    return code;
}

}  // namespace fp8dash::cli
