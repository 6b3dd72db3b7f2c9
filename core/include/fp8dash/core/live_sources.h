#pragma once
// Whether the live data sources a saved comparison names can be reached from this machine: a reviewer who opens the
// file offline sees everything that was saved and is told which live actions (refreshing the production timeline)
// are unavailable here, instead of meeting a failure later. A check is one GET without credentials and without
// retries: any HTTP answer, even 401 or 404, means the server is there. Synchronous; thread-safe.

#include <string>
#include <vector>

#include "fp8dash/core/timeline.h"

namespace fp8dash {

struct LiveSourceCheck {
    std::string what;  // "Prometheus", "Langfuse"
    std::string url;   // as shown (no user info)
    bool reachable = false;
    // A host under the reserved .invalid domain (RFC 2606), as in the bundled demo: never looked up, not reachable.
    bool placeholder = false;
    std::string detail;  // "HTTP 200" or the transport error, e.g. "cannot resolve the host name (...)"
};

// The servers a timeline's settings fetch from (Prometheus when it gives throughput or quality, Langfuse when it
// gives quality), each checked within timeoutS seconds. Empty when the settings name no server.
std::vector<LiveSourceCheck> checkTimelineSources(const TimelineSettings& settings, double timeoutS = 3.0);

}  // namespace fp8dash
