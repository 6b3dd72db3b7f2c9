#pragma once
// `fp8dash timeline --watch` (issue 28): follows the timeline's window as it moves with time (core's TimelineFollower),
// one line per alert change (pending, firing, resolved: the time and the window means), a line per refresh with -v;
// --fail-on exits 3 as soon as the followed verdict reaches it; SIGINT/SIGTERM end it with exit 0 and a summary; a
// failed refresh is retried with back-off and reported on stderr, never fatal (but the first: nothing to follow).

#include <iosfwd>
#include <optional>
#include <string>

#include "cli_args.h"
#include "fp8dash/core/timeline.h"
#include "fp8dash/core/timeline_follower.h"
#include "fp8dash/core/verdict.h"

namespace fp8dash::cli {

struct WatchOptions {
    bool enabled = false;              // --watch
    std::string firstOption;           // the first watch option given (refused without --watch)
    bool lastGiven = false;            // --last
    FollowWindow window;               // --last DURATION (default 6h), or --from T (since T)
    double intervalS = 60;             // --interval SECONDS between refreshes
    std::optional<double> forS;        // --for DURATION: the watch ends after it (watch time)
    std::optional<double> replayFrom;  // --replay-from T: the watch's clock starts at T and moves by the interval at
                                       // once (no waiting) until it reaches now, then follows live
    bool verbose = false;              // -v: a line per refresh
    std::optional<Verdict> failOn;
};

// Reads the watch option `a` is at (--watch, --interval, --for, --last, --replay-from, -v/--verbose); false when it is
// at another. Throws UsageError for a bad value.
bool readWatchOption(Args& a, WatchOptions& o);

// After every option: with --watch, the window (--last, or since the timeline's --from), --fail-on, and the options
// a watch refuses (--to, --format, --save); without it, any watch option is refused. Throws UsageError.
void checkWatchOptions(WatchOptions& o, std::optional<double> from, bool toGiven, bool textFormat, bool saving,
                       std::optional<Verdict> failOn);

// "90", "90s", "30m", "6h", "1d" (a positive number and an optional unit) in seconds; UsageError naming the option.
double parseDuration(const std::string& option, const std::string& text);

// Runs the watch until --for is over, the signal, or --fail-on; exit codes as cli.h.
int runTimelineWatch(const TimelineSettings& settings, const TimelineCredentials& credentials,
                     const WatchOptions& options, std::ostream& out, std::ostream& err);

}  // namespace fp8dash::cli
