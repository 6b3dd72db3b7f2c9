// fp8dash exporter: Langfuse scores as Prometheus counters (see cli_exporter.h and core langfuse_exporter.h).
//
// The HTTP server is cpp-httplib (Debian's libcpp-httplib-dev): a small, well-kept server library whose Server runs
// on its own thread pool with no event loop, so the CLI stays free of Qt's (no QCoreApplication, no display) and the
// fetch loop stays a plain loop on the main thread. (Qt HttpServer, the other Debian candidate, needs a Qt event loop
// and is a technology preview in bookworm's Qt 6.4.)
#include "cli_exporter.h"

#include <httplib.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstring>
#include <ostream>
#include <thread>

#include "cli.h"
#include "cli_args.h"
#include "cli_watch.h"
#include "fp8dash/core/langfuse_client.h"
#include "fp8dash/core/langfuse_exporter.h"
#include "fp8dash/core/time_series.h"
#include "fp8dash/core/timeline.h"
#include "fp8dash/core/untrusted_text.h"
#include "stop_signals.h"

namespace fp8dash::cli {
namespace {

struct ListenAddress {
    std::string host;
    int port = 0;
};

// "127.0.0.1:9464", "[::1]:9464", "localhost:9464", "0.0.0.0:9464".
ListenAddress parseListen(const std::string& text) {
    const auto colon = text.rfind(':');
    const std::string why = "--listen \"" + text + "\": expected HOST:PORT, e.g. 127.0.0.1:9464 or [::1]:9464";
    if (colon == std::string::npos || colon == 0) throw UsageError{why};
    std::string host = text.substr(0, colon);
    if (host.front() == '[') {
        if (host.size() < 3 || host.back() != ']') throw UsageError{why};
        host = host.substr(1, host.size() - 2);
    } else if (host.find(':') != std::string::npos) {
        throw UsageError{why + " (an IPv6 address goes in brackets)"};
    }
    const auto port = strictInteger(text.substr(colon + 1), 1, 65535);
    if (!port) throw UsageError{why + " (the port must be 1 to 65535)"};
    return {host, static_cast<int>(*port)};
}

double wallClock() {
    return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

std::string selectionText(const ExporterSelection& s) {
    std::string t = "score \"" + oneLine(s.scoreName) + "\"";
    for (const auto& tag : s.traceTags) t += ", tag \"" + oneLine(tag) + "\"";
    for (const auto& e : s.environments) t += ", environment \"" + oneLine(e) + "\"";
    return t;
}

}  // namespace

std::string exporterUsage() {
    return "  fp8dash exporter --langfuse URL [--score-name N] [--tag T]... [--environment E]... [--listen HOST:PORT]\n"
           "                                 a Prometheus exporter of Langfuse judge scores (runs until Ctrl-C or\n"
           "                                 SIGTERM): /metrics serves fp8dash_langfuse_score_sum and _count\n"
           "                                 (counters; labels score_name, tag, environment) so that\n"
           "                                 increase(sum[w]) / increase(count[w]) is the window's mean score, as\n"
           "                                 `export monitoring` reads them, and its health: fp8dash_exporter_up,\n"
           "                                 _last_success_timestamp_seconds, _fetch_errors_total,\n"
           "                                 _counted_until_timestamp_seconds. Each whole minute is added once, when\n"
           "                                 it ended --grace ago (Metrics API, else raw scores);\n"
           "                                 LANGFUSE_PUBLIC_KEY, LANGFUSE_SECRET_KEY; a Langfuse outage is retried\n"
           "                                 (fp8dash_exporter_up 0), never fatal\n"
           "      --listen HOST:PORT         where to serve (default 127.0.0.1:9464)\n"
           "      --score-name N             default llm_judge_domain; --tag: all on the trace; --environment: any\n"
           "      --interval SECONDS         how often to ask Langfuse (default 60; after an error sooner, with\n"
           "                                 back-off)\n"
           "      --grace DURATION           how long after a minute ends its late scores are waited for (default\n"
           "                                 2m)\n"
           "      --look-back DURATION       also count the minutes this long before the start (default none; the\n"
           "                                 first value, which increase() does not count as an increase)\n"
           "      --ca-file PEM, --insecure, --timeout SECONDS   TLS and timeouts toward Langfuse\n";
}

int runExporter(const std::vector<std::string>& argv, std::ostream& out, std::ostream& err) {
    Args a(argv);
    ExporterSelection selection;
    std::string langfuseUrl, value;
    ListenAddress listen{"127.0.0.1", 9464};
    double interval = 60, grace = kExporterGraceSeconds, lookBack = 0;
    TimelineCredentials cred = credentialsFromEnvironment();
    while (!a.done()) {
        if (a.option("--langfuse", value))
            langfuseUrl = value;
        else if (a.option("--score-name", value))
            selection.scoreName = value;
        else if (a.option("--tag", value))
            selection.traceTags.push_back(value);
        else if (a.option("--environment", value))
            selection.environments.push_back(value);
        else if (a.option("--listen", value))
            listen = parseListen(value);
        else if (a.option("--interval", value))
            interval = parseDuration("--interval", value);
        else if (a.option("--grace", value))
            grace = value == "0" ? 0 : parseDuration("--grace", value);
        else if (a.option("--look-back", value))
            lookBack = parseDuration("--look-back", value);
        else if (a.option("--ca-file", value))
            cred.httpTemplate.caFile = value;
        else if (a.flag("--insecure"))
            cred.httpTemplate.verifyTls = false;
        else if (a.option("--timeout", value))
            cred.httpTemplate.totalTimeoutS = parseDuration("--timeout", value);
        else
            a.unknown("exporter");
    }
    if (langfuseUrl.empty()) throw UsageError{"exporter needs --langfuse URL"};
    if (langfuseUrl.rfind("http://", 0) != 0 && langfuseUrl.rfind("https://", 0) != 0)
        throw UsageError{"--langfuse \"" + oneLine(HttpClient::displayUrl(langfuseUrl)) +
                         "\": expected an http:// or https:// URL"};
    if (selection.scoreName.empty()) throw UsageError{"--score-name must not be empty"};
    std::string missing;
    if (cred.langfusePublicKey.empty()) missing = "LANGFUSE_PUBLIC_KEY";
    if (cred.langfuseSecretKey.empty())
        missing += (missing.empty() ? "" : " and ") + std::string("LANGFUSE_SECRET_KEY");
    if (!missing.empty()) throw UsageError{"exporter needs " + missing + " in the environment"};
    if (interval < 1) throw UsageError{"--interval must be at least 1 second"};
    if (HttpClient::holdsCredentials(langfuseUrl))
        err << "fp8dash: the --langfuse URL carries credentials (user info or a token parameter): they are used for "
               "its requests and never shown\n";

    LangfuseSettings settings{langfuseUrl, cred.langfusePublicKey, cred.langfuseSecretKey, cred.httpTemplate, {}};
    settings.notice = [&err](const std::string& text) { err << "fp8dash: " << oneLine(text) << "\n" << std::flush; };
    const LangfuseClient client(settings);
    const double start = wallClock();
    LangfuseScoreCounters counters({selection}, start - lookBack, grace);

    httplib::Server server;
    server.Get("/metrics", [&counters](const httplib::Request&, httplib::Response& res) {
        res.set_content(counters.exposition(), "text/plain; version=0.0.4; charset=utf-8");
    });
    server.Get("/", [](const httplib::Request&, httplib::Response& res) {
        res.set_content("fp8dash exporter: the metrics are on /metrics\n", "text/plain; charset=utf-8");
    });
    // cpp-httplib's default socket options add SO_REUSEPORT, with which a second exporter binds the same port and
    // the kernel splits the scrapes between the two: only SO_REUSEADDR (a restart binds at once after TIME_WAIT),
    // so that a port in use is an error.
    server.set_socket_options([](socket_t sock) {
        int yes = 1;
        ::setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
    });
    const std::string shown = listen.host.find(':') != std::string::npos ? "[" + listen.host + "]" : listen.host;
    const std::string address = shown + ":" + std::to_string(listen.port);
    errno = 0;
    if (!server.bind_to_port(listen.host, listen.port)) {
        const int why = errno;
        err << "fp8dash: exporter: cannot listen on " << oneLine(address) << ": "
            << (why ? std::strerror(why) : "the address cannot be bound")
            << " (is the port in use by another program, or the address not this machine's?)\n";
        return kExitBadInput;
    }
    StopSignals stop;  // before the server's threads start: they inherit the mask, the handler is per process
    std::thread serving([&server] { server.listen_after_bind(); });
    err << "fp8dash exporter: serving http://" << oneLine(address) << "/metrics; Langfuse "
        << oneLine(HttpClient::displayUrl(langfuseUrl)) << ", " << selectionText(selection)
        << "; counting the minutes from " << formatTimeUtc(counters.snapshot().front().countedTo) << ", each "
        << static_cast<long long>(grace) << " s after it ends" << std::endl;

    const Progress progress{[&stop] { return stop.requested(); }, {}};
    int failures = 0;
    while (!stop.requested()) {
        const Status st = counters.update(client, wallClock(), progress);
        if (stop.requested()) break;
        double wait = interval;
        if (!st) {
            ++failures;
            wait = std::min(interval, 5.0 * std::pow(2.0, std::min(failures - 1, 6)));
            err << "fp8dash exporter: " << oneLine(st.error().message) << " (fp8dash_exporter_up 0; trying again in "
                << static_cast<long long>(std::ceil(wait)) << " s)" << std::endl;
        } else if (failures) {
            failures = 0;
            err << "fp8dash exporter: Langfuse answers again" << std::endl;
        }
        stop.wait(wait);
    }
    server.stop();
    serving.join();
    const auto c = counters.snapshot().front();
    err << "fp8dash exporter: stopped; " << prometheusSampleValue(c.count) << " scores counted, up to "
        << formatTimeUtc(c.countedTo) << "; " << prometheusSampleValue(counters.fetchErrors()) << " failed fetches"
        << std::endl;
    (void)out;
    return kExitOk;
}

}  // namespace fp8dash::cli
