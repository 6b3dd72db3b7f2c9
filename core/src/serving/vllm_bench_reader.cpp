// The vLLM bench reader (serving_results.h): `benchmarks/benchmark_serving.py --save-result` (2024-2025) and
// `vllm bench serve --save-result` files of every era, files holding several results (--append-result: objects one
// after another, newline separated), a `vllm bench sweep serve` summary.json (a list of records) and its run=N.json
// records (indent 4, run_number and the serve/bench parameters merged in).
//
// Checked against vLLM's writer, vllm-project/vllm vllm/benchmarks/serve.py @ 009e6d4a1cd6 (calculate_metrics,
// benchmark's result dict, main's result_json) and vllm/benchmarks/sweep/serve.py @ 4fa9174d2f76:
// - the per-request arrays (`input_lens`, `output_lens`, `ttfts`, `itls`, `latencies`, `errors`, ...) hold EVERY
//   request sent, failed ones too: a failed request has ttft 0.0, empty itls, output_len 0 and a non-empty error.
//   Only requests that succeeded are kept (an error string, or output_len 0 with ttft 0 and no chunk gap, is a
//   failure).
// - per request: e2el = latency (vLLM's own, where `latencies` is saved) else ttft + sum(itls) (the last chunk's
//   arrival); tpot = (e2el - ttft) / (output_len - 1), NaN for output_len <= 1 (vLLM leaves those out of TPOT).
// - `input_throughput` (2024) is input tokens/s (total_input / duration): total tok/s is it plus output tok/s.
// - run_number is 0-based (run=0.json is the first replicate), kept as written.
//
// Speed (issue 40: >= 1 GB/s per core, peak memory < 2x the file; tests/benchmarks/README.md has the figures):
// simdjson's On-Demand API, no tree: stage 1 finds the structure (~4 bytes of index per structural character, touched
// only where written), then the fields are read in file order. The `itls` list of lists (25M chunk gaps in a 100k-
// request --save-detailed file, 85 % of its bytes) is read first, from the caller's text, by a scanner of its own
// (vllm_itls_scan.cpp: digit columns with AVX2, straight into per-request sums, never materialised); simdjson then
// gets a padded copy of the rest, each `itls` list emptied to "[]", so stage 1 indexes 15 % of the file and the copy
// is that 15 %; `generated_texts` is skipped without unescaping. The caller's text is not changed, so
// readServingPath hands over a mapped file (mapped_file.h): no read into the process at all. DOM would build a tape
// of 8 bytes per value and nlohmann a node per value, both well past 2x the file (and DOM parsed this file at ~0.3
// GB/s here).
#include <simdjson.h>
#include <sys/mman.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <limits>
#include <memory>
#include <optional>

#include "serving/vllm_bench_reader.h"
#include "serving/vllm_itls_scan.h"

namespace fp8dash {
namespace {

namespace vod = simdjson::ondemand;

using detail::vllmFail;
using detail::VllmItlsRegion;
using detail::VllmReadFailure;

std::string vllmQuoted(std::string_view key) {
    return "\"" + std::string(key) + "\"";
}

std::string_view vllmTrim(std::string_view s) {
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
    return s;
}

// A scalar token's text from simdjson's raw_json_token: its length runs to the next structural character, which in
// a broken document can lie past the text; only the first 64 bytes are looked at (the padding keeps them readable),
// up to the first separator.
std::string_view vllmToken(std::string_view raw) {
    raw = vllmTrim(raw.substr(0, 64));
    if (!raw.empty() && raw.front() != '"') raw = raw.substr(0, raw.find_first_of(",}] \t\r\n"));
    return raw;
}

// What a raw JSON token is, in words for errors.
const char* vllmKindOf(std::string_view raw) {
    if (raw.empty()) return "empty";
    switch (raw.front()) {
        case '"':
            return "a string";
        case '{':
            return "an object";
        case '[':
            return "a list";
        case 't':
        case 'f':
            return "a boolean";
        case 'n':
            return "null";
        default:
            return "a number";
    }
}

// Python's json.dump writes NaN and infinities as bare tokens (and some writers as strings).
bool vllmSpecialNumber(std::string_view s, double& out) {
    if (s == "NaN" || s == "nan") {
        out = std::numeric_limits<double>::quiet_NaN();
    } else if (s == "Infinity" || s == "inf" || s == "Inf") {
        out = std::numeric_limits<double>::infinity();
    } else if (s == "-Infinity" || s == "-inf") {
        out = -std::numeric_limits<double>::infinity();
    } else {
        return false;
    }
    return true;
}

// A number field of the header part: nullopt for null, infinity for "inf" (request_rate); anything else that is
// not a number names the field and what it was.
std::optional<double> vllmOptNumber(vod::value v, std::string_view key, const std::string& where) {
    const std::string_view raw = vllmToken(v.raw_json_token());
    double out = 0;
    if (raw == "null") return std::nullopt;
    if (vllmSpecialNumber(raw, out)) return out;
    if (!raw.empty() && raw.front() == '"') {
        std::string_view s;
        if (v.get_string().get(s) == simdjson::SUCCESS) {
            if (vllmSpecialNumber(vllmTrim(s), out)) return out;  // request_rate "inf"
        }
        vllmFail(where + ": " + vllmQuoted(key) + " is a string, expected a number");
    }
    if (std::strchr("-0123456789", raw.front()) == nullptr)
        vllmFail(where + ": " + vllmQuoted(key) + " is " + vllmKindOf(raw) + ", expected a number");
    if (v.get_double().get(out) != simdjson::SUCCESS)
        vllmFail(where + ": " + vllmQuoted(key) + " is not a valid number (" + std::string(raw.substr(0, 40)) + ")");
    return out;
}

long long vllmCount(vod::value v, std::string_view key, const std::string& where) {
    const std::optional<double> x = vllmOptNumber(v, key, where);
    if (!x) return 0;
    if (!std::isfinite(*x) || *x < 0 || *x != std::floor(*x) || *x > 9e15)
        vllmFail(where + ": " + vllmQuoted(key) + " is " + std::to_string(*x) + ", expected a count (0 or more)");
    return static_cast<long long>(*x);
}

// A number inside one of the big arrays: the fast path first; the slow path only names what went wrong.
double vllmArrayNumber(simdjson::simdjson_result<vod::value> item, std::string_view key, std::size_t index,
                       const std::string& where) {
    double d = 0;
    if (item.get_double().get(d) == simdjson::SUCCESS) return d;
    std::string_view raw;
    if (item.raw_json_token().get(raw) == simdjson::SUCCESS) {
        raw = vllmToken(raw);
        if (vllmSpecialNumber(raw, d)) return d;
        if (raw == "null") return std::numeric_limits<double>::quiet_NaN();
        vllmFail(where + ": " + std::string(key) + "[" + std::to_string(index) + "] is " + vllmKindOf(raw) +
                 ", expected a number");
    }
    vllmFail(where + ": " + std::string(key) + "[" + std::to_string(index) + "] is unreadable");
}

vod::array vllmArrayOf(vod::value v, std::string_view key, const std::string& where) {
    vod::array a;
    if (v.get_array().get(a) != simdjson::SUCCESS) {
        vllmFail(where + ": " + vllmQuoted(key) + " is " + vllmKindOf(vllmToken(v.raw_json_token())) +
                 ", expected a list");
    }
    return a;
}

std::string vllmNormalizedKey(std::string_view key) {
    while (!key.empty() && key.front() == '-') key.remove_prefix(1);
    std::string out(key);
    for (char& c : out) c = c == '-' ? '_' : static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

// A key or value that may carry a credential is never kept (issue 40: "never echo an api_key").
bool vllmLooksSecret(const std::string& normalizedKey, std::string_view value) {
    static const char* const words[] = {"api_key", "apikey", "secret",     "password",    "passwd", "authorization",
                                        "auth",    "bearer", "credential", "private_key", "cookie", "header"};
    for (const char* w : words)
        if (normalizedKey.find(w) != std::string::npos) return true;
    const std::string& k = normalizedKey;
    const auto endsWith = [&](std::string_view s) {
        return k.size() >= s.size() && k.compare(k.size() - s.size(), s.size(), s) == 0;
    };
    if (k == "token" || endsWith("_token") || k.rfind("token_", 0) == 0 || k == "hf_token" || endsWith("key"))
        return true;
    value = vllmTrim(value);
    return value.rfind("Bearer ", 0) == 0 || (value.rfind("sk-", 0) == 0 && value.size() > 20) ||
           (value.rfind("hf_", 0) == 0 && value.size() > 20);
}

// Keys vLLM's writers put in a result (any era): not metadata. A key matching (mean|median|std|pN)_<metric>_ms is a
// result key too (client_queue_time, e2el_including_client_queue, probe figures).
bool vllmKnownResultKey(std::string_view key) {
    static const char* const known[] = {"date",
                                        "endpoint_type",
                                        "backend",
                                        "label",
                                        "model_id",
                                        "tokenizer_id",
                                        "num_prompts",
                                        "request_rate",
                                        "burstiness",
                                        "max_concurrency",
                                        "duration",
                                        "completed",
                                        "failed",
                                        "total_input_tokens",
                                        "total_output_tokens",
                                        "request_throughput",
                                        "request_goodput",
                                        "request_goodput:",
                                        "input_throughput",
                                        "output_throughput",
                                        "total_token_throughput",
                                        "max_output_tokens_per_s",
                                        "max_concurrent_requests",
                                        "rtfx",
                                        "best_of",
                                        "use_beam_search",
                                        "run_number",
                                        "input_lens",
                                        "output_lens",
                                        "ttfts",
                                        "itls",
                                        "latencies",
                                        "start_times",
                                        "queue_times",
                                        "generated_texts",
                                        "errors",
                                        "rps_change_events",
                                        "total_input_sequences",
                                        "input_sequence_throughput",
                                        "ramp_up_strategy",
                                        "ramp_up_start_rps",
                                        "ramp_up_end_rps"};
    for (const char* k : known)
        if (key == k) return true;
    for (std::string_view prefix : {"probe_", "spec_decode_", "diffusion_"})
        if (key.substr(0, prefix.size()) == prefix) return true;
    if (key.size() > 3 && key.substr(key.size() - 3) == "_ms")
        for (std::string_view prefix : {"mean_", "median_", "std_", "p"})
            if (key.substr(0, prefix.size()) == prefix) return true;
    return false;
}

// A metric key: "mean_ttft_ms", "median_tpot_ms", "std_itl_ms", "p99.9_e2el_ms". False for other keys.
bool vllmMetricKey(std::string_view key, ServingRun& run, double& percentile, int& statKind, LatencyStats*& stats) {
    if (key.size() < 8 || key.substr(key.size() - 3) != "_ms") return false;
    const std::string_view body = key.substr(0, key.size() - 3);
    const std::size_t us = body.rfind('_');
    if (us == std::string_view::npos) return false;
    const std::string_view metric = body.substr(us + 1), stat = body.substr(0, us);
    if (metric == "ttft")
        stats = &run.ttft;
    else if (metric == "tpot")
        stats = &run.tpot;
    else if (metric == "itl")
        stats = &run.itl;
    else if (metric == "e2el")
        stats = &run.e2el;
    else
        return false;
    if (stat == "mean") {
        statKind = 0;
    } else if (stat == "median") {
        statKind = 1;
    } else if (stat == "std") {
        statKind = 2;
    } else if (stat.size() > 1 && stat.front() == 'p') {
        const auto [end, ec] = std::from_chars(stat.data() + 1, stat.data() + stat.size(), percentile);
        if (ec != std::errc() || end != stat.data() + stat.size() || !(percentile >= 0 && percentile <= 100))
            return false;
        statKind = 3;
    } else {
        return false;
    }
    return true;
}

// What one record says before it becomes a ServingRun.
struct VllmRecord {
    std::vector<VllmItlsRegion>* regions = nullptr;
    ServingRun run;
    bool sawCompleted = false, sawFailed = false, rateInf = false, legacy = false;
    std::optional<double> requestRate, maxConcurrency, inputThroughput;
    std::optional<long long> totalInput, totalOutput;
    std::vector<std::pair<std::string, std::string>> servedKeys;  // quantization / kv_cache_dtype as found
    // The per-request arrays (every request, failed ones too), where present.
    std::vector<double> ttfts, latencies, itlSums;
    std::vector<std::uint32_t> itlCounts;
    std::vector<long long> outputLens, inputLens;
    std::vector<char> errorFlags;
    bool hasTtfts = false, hasLatencies = false, hasItls = false, hasOutputLens = false, hasInputLens = false,
         hasErrors = false;
};

void vllmReadArray(vod::value v, std::string_view key, VllmRecord& rec, const std::string& where) {
    const char* const at =
        v.raw_json_token().data();  // the token starts at its first byte (no trim: a blanked list is long)
    vod::array a = vllmArrayOf(v, key, where);
    std::size_t i = 0;
    if (key == "ttfts" || key == "latencies") {
        std::vector<double>& out = key == "ttfts" ? rec.ttfts : rec.latencies;
        (key == "ttfts" ? rec.hasTtfts : rec.hasLatencies) = true;
        for (auto item : a) out.push_back(vllmArrayNumber(item, key, i++, where));
    } else if (key == "output_lens" || key == "input_lens") {
        std::vector<long long>& out = key == "output_lens" ? rec.outputLens : rec.inputLens;
        (key == "output_lens" ? rec.hasOutputLens : rec.hasInputLens) = true;
        for (auto item : a) {
            const double x = vllmArrayNumber(item, key, i++, where);
            out.push_back(std::isfinite(x) && x >= 0 && x < 4e9 ? static_cast<long long>(x) : 0);
        }
    } else if (key == "itls") {
        rec.hasItls = true;
        if (rec.regions != nullptr)
            for (VllmItlsRegion& region : *rec.regions)
                if (region.start == at) {
                    rec.itlSums = std::move(region.sums);
                    rec.itlCounts = std::move(region.counts);
                    return;
                }
        std::string_view raw;
        if (a.raw_json().get(raw) != simdjson::SUCCESS) vllmFail(where + ": \"itls\" is not a valid list");
        detail::vllmScanItls(raw.data(), raw.data() + raw.size(), rec.itlSums, rec.itlCounts, where);
    } else {  // errors: "" (or null) for a request that succeeded, the error text otherwise
        rec.hasErrors = true;
        for (auto item : a) {
            std::string_view s;
            bool isNull = false;
            if (item.get_string().get(s) == simdjson::SUCCESS)
                rec.errorFlags.push_back(vllmTrim(s).empty() ? 0 : 1);
            else if (item.is_null().get(isNull) == simdjson::SUCCESS && isNull)
                rec.errorFlags.push_back(0);
            else
                vllmFail(where + ": errors[" + std::to_string(i) + "] is not a string");
            ++i;
        }
    }
}

// A key that is not a result key: metadata (--metadata keys, a sweep's serve and bench parameters), as text.
void vllmReadMetadata(vod::value v, std::string_view key, VllmRecord& rec) {
    const std::string_view raw = vllmToken(v.raw_json_token());
    if (raw.empty() || raw.front() == '{' || raw.front() == '[') return;  // nested values: not metadata text
    std::string text;
    if (raw.front() == '"') {
        std::string_view s;
        if (v.get_string().get(s) != simdjson::SUCCESS) return;
        text = std::string(s);
    } else if (raw != "null") {
        text = std::string(raw);
    }
    const std::string norm = vllmNormalizedKey(key);
    if (vllmLooksSecret(norm, text)) return;
    if (norm == "quantization" || norm == "kv_cache_dtype") rec.servedKeys.emplace_back(norm, text);
    if ((norm == "dataset_name" || norm == "dataset" || (norm == "dataset_path" && rec.run.dataset.empty())) &&
        !text.empty())
        rec.run.dataset = text;
    rec.run.metadata.emplace_back(std::string(key), std::move(text));
}

void vllmReadField(std::string_view key, vod::value v, VllmRecord& rec, bool keepRequests) {
    ServingRun& run = rec.run;
    const std::string& where = run.source;
    double percentile = 0;
    int statKind = 0;
    LatencyStats* stats = nullptr;
    if (vllmMetricKey(key, run, percentile, statKind, stats)) {
        const std::optional<double> x = vllmOptNumber(v, key, where);
        if (!x) return;
        if (statKind == 0) stats->mean = x;
        if (statKind == 1) stats->median = x;
        if (statKind == 2) stats->stdDev = x;
        if (statKind == 3) stats->percentiles.emplace_back(percentile, *x);
        return;
    }
    const auto text = [&]() -> std::string {
        std::string_view s;
        if (v.get_string().get(s) == simdjson::SUCCESS) return std::string(s);
        const std::string_view raw = vllmToken(v.raw_json_token());
        if (raw == "null") return {};
        vllmFail(where + ": " + vllmQuoted(key) + " is " + vllmKindOf(raw) + ", expected a string");
    };
    if (key == "date") {
        run.date = text();
    } else if (key == "label") {
        run.label = text();
    } else if (key == "model_id") {
        run.model = text();
    } else if (key == "completed") {
        run.completed = vllmCount(v, key, where);
        rec.sawCompleted = true;
    } else if (key == "failed") {
        run.failed = vllmCount(v, key, where);
        rec.sawFailed = true;
    } else if (key == "num_prompts") {
        run.numPrompts = vllmCount(v, key, where);
    } else if (key == "run_number") {
        const long long n = vllmCount(v, key, where);
        run.runNumber = n > 1000000000 ? 1000000000 : static_cast<int>(n);
    } else if (key == "request_rate") {
        const std::optional<double> r = vllmOptNumber(v, key, where);
        rec.rateInf = !r || std::isinf(*r);
        if (r && !std::isinf(*r)) rec.requestRate = r;
    } else if (key == "max_concurrency") {
        rec.maxConcurrency = vllmOptNumber(v, key, where);
    } else if (key == "duration") {
        run.durationS = vllmOptNumber(v, key, where);
    } else if (key == "total_input_tokens" || key == "total_output_tokens") {
        (key == "total_input_tokens" ? rec.totalInput : rec.totalOutput) = vllmCount(v, key, where);
    } else if (key == "request_throughput") {
        run.requestsPerS = vllmOptNumber(v, key, where);
    } else if (key == "request_goodput" || key == "request_goodput:") {
        run.goodputRequestsPerS = vllmOptNumber(v, key, where);
        rec.legacy = rec.legacy || key.back() == ':';
    } else if (key == "output_throughput") {
        run.outputTokensPerS = vllmOptNumber(v, key, where);
    } else if (key == "total_token_throughput") {
        run.totalTokensPerS = vllmOptNumber(v, key, where);
    } else if (key == "input_throughput") {
        rec.inputThroughput = vllmOptNumber(v, key, where);
        rec.legacy = true;
    } else if (key == "best_of" || key == "use_beam_search") {
        rec.legacy = true;
    } else if (key == "ttfts" || key == "latencies" || key == "output_lens" || key == "input_lens" || key == "itls" ||
               key == "errors") {
        if (keepRequests) vllmReadArray(v, key, rec, where);
    } else if (!vllmKnownResultKey(key)) {
        vllmReadMetadata(v, key, rec);
    }
}

// The successful requests' figures from the arrays (every request, in file order).
void vllmBuildRequests(VllmRecord& rec) {
    ServingRun& run = rec.run;
    const std::size_t n = rec.ttfts.size();
    const auto lengthOk = [&](bool has, std::size_t size) { return !has || size == n; };
    if (!rec.hasTtfts || !rec.hasOutputLens || rec.outputLens.size() != n ||
        !lengthOk(rec.hasItls, rec.itlSums.size()) || !lengthOk(rec.hasLatencies, rec.latencies.size()) ||
        !lengthOk(rec.hasErrors, rec.errorFlags.size()) || !lengthOk(rec.hasInputLens, rec.inputLens.size()) ||
        (!rec.hasItls && !rec.hasLatencies)) {
        if (rec.hasTtfts || rec.hasItls || rec.hasOutputLens)
            run.warnings.push_back("the per-request arrays are incomplete or differ in length (ttfts " +
                                   std::to_string(n) + ", output_lens " + std::to_string(rec.outputLens.size()) +
                                   ", itls " + std::to_string(rec.itlSums.size()) + "): not used");
        return;
    }
    ServingRequests& r = run.requests;
    double inputSum = 0, outputSum = 0;
    long long failedHere = 0;
    for (std::size_t i = 0; i < n; ++i) {
        const bool noOutput = rec.outputLens[i] == 0 && rec.ttfts[i] == 0 && (!rec.hasItls || rec.itlCounts[i] == 0);
        if ((rec.hasErrors && rec.errorFlags[i]) || noOutput) {
            ++failedHere;
            continue;
        }
        const double ttftMs = rec.ttfts[i] * 1000.0;
        const double e2elMs = rec.hasLatencies ? rec.latencies[i] * 1000.0 : ttftMs + rec.itlSums[i] * 1000.0;
        const long long out = rec.outputLens[i];
        r.ttftMs.push_back(static_cast<float>(ttftMs));
        r.e2elMs.push_back(static_cast<float>(e2elMs));
        r.tpotMs.push_back(out > 1 ? static_cast<float>((e2elMs - ttftMs) / static_cast<double>(out - 1))
                                   : std::numeric_limits<float>::quiet_NaN());
        r.outputTokens.push_back(static_cast<std::uint32_t>(std::min<long long>(out, 0xFFFFFFFFLL)));
        outputSum += static_cast<double>(out);
        if (rec.hasInputLens) inputSum += static_cast<double>(rec.inputLens[i]);
    }
    if (!r.empty()) {
        run.meanOutputTokens = outputSum / static_cast<double>(r.size());
        if (rec.hasInputLens) run.meanInputTokens = inputSum / static_cast<double>(r.size());
    }
    if (!rec.sawFailed) run.failed = failedHere;
    if (rec.sawCompleted && static_cast<long long>(r.size()) != run.completed)
        run.warnings.push_back("the per-request arrays hold " + std::to_string(r.size()) +
                               " successful requests, \"completed\" says " + std::to_string(run.completed));
}

ServingRun vllmFinish(VllmRecord& rec) {
    ServingRun& run = rec.run;
    if (!rec.sawCompleted)
        vllmFail(run.source + ": no \"completed\" field: not a vLLM bench serve result (or a sweep summary record)");
    // The load (notes "vLLM"): a finite rate is rate-driven (capped where max_concurrency is set); "inf" with
    // max_concurrency is a concurrency point; "inf" without it sends everything at once.
    if (rec.requestRate && *rec.requestRate > 0) {
        run.load = {LoadAxis::RequestRate, *rec.requestRate, rec.maxConcurrency};
    } else if (rec.maxConcurrency && *rec.maxConcurrency > 0) {
        run.load = {LoadAxis::Concurrency, *rec.maxConcurrency, std::nullopt};
    } else {
        run.load = {LoadAxis::Unbounded, 0, std::nullopt};
    }
    if (!run.totalTokensPerS && rec.inputThroughput && run.outputTokensPerS)
        run.totalTokensPerS = *rec.inputThroughput + *run.outputTokensPerS;
    vllmBuildRequests(rec);
    if (rec.hasErrors && !rec.sawFailed && run.requests.empty()) {
        run.failed = static_cast<long long>(std::count(rec.errorFlags.begin(), rec.errorFlags.end(), 1));
    }
    if (!rec.sawFailed && !rec.hasErrors && run.completed == 0 && run.numPrompts) run.failed = *run.numPrompts;
    if (!run.meanInputTokens && rec.totalInput && run.completed > 0)
        run.meanInputTokens = static_cast<double>(*rec.totalInput) / static_cast<double>(run.completed);
    if (!run.meanOutputTokens && rec.totalOutput && run.completed > 0)
        run.meanOutputTokens = static_cast<double>(*rec.totalOutput) / static_cast<double>(run.completed);
    for (LatencyStats* s : {&run.ttft, &run.tpot, &run.itl, &run.e2el})
        std::stable_sort(s->percentiles.begin(), s->percentiles.end(),
                         [](const auto& a, const auto& b) { return a.first < b.first; });
    // Every request failed: vLLM still writes 0.0 for every latency; nothing of that may read as a latency.
    if (run.completed == 0) {
        run.ttft = run.tpot = run.itl = run.e2el = LatencyStats{};
        run.requests = ServingRequests{};
    }
    const bool sweep = run.runNumber.has_value();
    for (const auto& [key, value] : rec.servedKeys) {
        (key == "quantization" ? run.quantization : run.kvCacheDtype) = value;
        if (!run.servedEvidence.empty()) run.servedEvidence += "; ";
        run.servedEvidence += (sweep ? "sweep parameter " : "--metadata ") + key + "=" + value;
    }
    run.formatLabel = sweep ? "vllm bench sweep serve run" : rec.legacy ? "benchmark_serving.py" : "vllm bench serve";
    return std::move(run);
}

ServingRun vllmReadRecord(vod::object object, const std::string& where, bool keepRequests,
                          std::vector<VllmItlsRegion>& regions) {
    VllmRecord rec;
    rec.regions = &regions;
    rec.run.tool = ServingTool::VllmBench;
    rec.run.source = where;
    for (auto field : object) {
        vod::field f;
        std::string_view key;
        if (std::move(field).get(f) != simdjson::SUCCESS || f.unescaped_key().get(key) != simdjson::SUCCESS)
            vllmFail(where + ": not valid JSON (a key could not be read)");
        vllmReadField(key, f.value(), rec, keepRequests);
    }
    return vllmFinish(rec);
}

std::string vllmSimdjsonError(const std::string& where, simdjson::error_code e) {
    return where + ": not valid JSON (" + simdjson::error_message(e) + ")";
}

// Large texts get a parser of their own, released at the end (its index is sized to the text); small ones reuse the
// thread's.
constexpr std::size_t kVllmOwnParserBytes = std::size_t{8} << 20;

// Storage with simdjson's padding behind the text. Big copies get pages of their own (mmap), with transparent huge
// pages asked for (4 KiB pages would cost a page fault per 4 KiB written), and given back when freed: from malloc,
// glibc would keep them in its heap after the first (its mmap threshold grows with every big block freed), and a
// sweep of 40 files would hold the largest copy for good.
struct VllmPaddedText {
    char* data = nullptr;
    std::size_t size = 0, mappedBytes = 0;
    VllmPaddedText() = default;
    VllmPaddedText(const VllmPaddedText&) = delete;
    VllmPaddedText& operator=(const VllmPaddedText&) = delete;
    ~VllmPaddedText() {
        if (mappedBytes != 0)
            ::munmap(data, mappedBytes);
        else
            std::free(data);
    }
};

bool vllmAllocPadded(VllmPaddedText& out, std::size_t size) {
    constexpr std::size_t kHuge = std::size_t{2} << 20;
    const std::size_t want = size + simdjson::SIMDJSON_PADDING;
    if (want >= 4 * kHuge) {
        const std::size_t rounded = (want + kHuge - 1) / kHuge * kHuge;
        void* p = ::mmap(nullptr, rounded, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p == MAP_FAILED) return false;
        ::madvise(p, rounded, MADV_HUGEPAGE);
        out.data = static_cast<char*>(p);
        out.mappedBytes = rounded;
    } else {
        out.data = static_cast<char*>(std::malloc(want));
        if (out.data == nullptr) return false;
    }
    std::memset(out.data + size, 0, simdjson::SIMDJSON_PADDING);
    out.size = size;
    return true;
}

// The text simdjson reads: a padded copy with every prescanned `itls` list emptied ("[]"), each region's start set to
// its '[' in the copy.
bool vllmCompactedCopy(const char* data, std::size_t size, std::vector<VllmItlsRegion>& regions, VllmPaddedText& out) {
    std::size_t removed = 0;
    for (const VllmItlsRegion& r : regions) removed += r.close - r.open - 2;
    if (!vllmAllocPadded(out, size - removed)) return false;
    char* to = out.data;
    std::size_t from = 0;
    for (VllmItlsRegion& r : regions) {
        std::memcpy(to, data + from, r.open - from);
        to += r.open - from;
        r.start = to;
        *to++ = '[';
        *to++ = ']';
        from = r.close;
    }
    std::memcpy(to, data + from, size - from);
    return true;
}

}  // namespace

namespace detail {

Result<std::vector<ServingRun>> parseVllmBenchRaw(const char* text, std::size_t size, const std::string& sourceName,
                                                  bool keepRequests, const std::function<void()>& textRead) {
    if (size >= 0xFFFFFFFFull)
        return Error{sourceName + ": " + std::to_string(size) + " bytes, more than the 4 GiB a result file may have"};
    std::vector<VllmItlsRegion> regions;
    VllmPaddedText padded;
    try {
        if (size > detail::kVllmPrescanBytes) detail::vllmPrescanItls(text, size, regions, sourceName);
        if (!vllmCompactedCopy(text, size, regions, padded)) return Error{sourceName + ": out of memory while reading"};
    } catch (const VllmReadFailure& failure) {
        return Error{failure.message};
    }
    if (textRead) textRead();
    char* const data = padded.data;
    size = padded.size;
    thread_local vod::parser sharedParser;
    std::unique_ptr<vod::parser> ownParser;
    vod::parser* parser = &sharedParser;
    if (size > kVllmOwnParserBytes) {
        ownParser = std::make_unique<vod::parser>();
        parser = ownParser.get();
    }
    std::vector<ServingRun> runs;
    std::size_t start = 0;
    while (start < size && std::isspace(static_cast<unsigned char>(data[start]))) ++start;
    if (start == size) return Error{sourceName + ": no vLLM result in the file (empty)"};
    try {
        vod::document_stream stream;
        const std::size_t batch = std::max<std::size_t>(size, 4096);
        if (auto e = parser->iterate_many(data, size, batch).get(stream))
            return Error{vllmSimdjsonError(sourceName, e)};
        // Records first as single objects (the file name alone), renamed "#N" once the file turns out to hold several.
        std::size_t docIndex = 0;
        for (auto&& docResult : stream) {
            ++docIndex;
            vod::document_reference doc;
            if (auto e = std::move(docResult).get(doc)) return Error{vllmSimdjsonError(sourceName, e)};
            vod::json_type type;
            if (auto e = doc.type().get(type)) return Error{vllmSimdjsonError(sourceName, e)};
            const std::string where = sourceName + "#" + std::to_string(runs.size() + 1);
            if (type == vod::json_type::object) {
                vod::object object;
                if (auto e = doc.get_object().get(object)) return Error{vllmSimdjsonError(sourceName, e)};
                runs.push_back(vllmReadRecord(object, where, keepRequests, regions));
            } else if (type == vod::json_type::array) {  // a sweep's summary.json: a list of records
                vod::array list;
                if (auto e = doc.get_array().get(list)) return Error{vllmSimdjsonError(sourceName, e)};
                for (auto item : list) {
                    const std::string at = sourceName + "#" + std::to_string(runs.size() + 1);
                    vod::object object;
                    if (item.get_object().get(object) != simdjson::SUCCESS)
                        return Error{at + ": a list item that is not a result object"};
                    runs.push_back(vllmReadRecord(object, at, keepRequests, regions));
                }
            } else {
                return Error{sourceName + ": JSON value " + std::to_string(docIndex) +
                             " is not a result object or a list of them"};
            }
        }
        if (stream.truncated_bytes() > 0)
            return Error{sourceName + ": the last " + std::to_string(stream.truncated_bytes()) +
                         " bytes are an incomplete JSON value (a cut-off file?)"};
    } catch (const VllmReadFailure& failure) {
        // The first record of a file that may hold only it is named by the file alone.
        std::string message = failure.message;
        const std::string first = sourceName + "#1:";
        if (runs.empty() && message.rfind(first, 0) == 0) message.replace(0, first.size(), sourceName + ":");
        return Error{message};
    } catch (const std::bad_alloc&) {
        return Error{sourceName + ": out of memory while reading"};
    }
    if (runs.empty()) return Error{sourceName + ": no vLLM result in the file (empty)"};
    if (runs.size() == 1) {
        const std::string suffixed = sourceName + "#1";
        runs.front().source = sourceName;
        for (std::string& w : runs.front().warnings)
            if (w.rfind(suffixed, 0) == 0) w.replace(0, suffixed.size(), sourceName);
    }
    return runs;
}

bool looksLikeVllmBench(std::string_view text) {
    std::size_t p = 0;
    if (text.substr(0, 3) == "\xEF\xBB\xBF") p = 3;
    while (p < text.size() && std::isspace(static_cast<unsigned char>(text[p]))) ++p;
    if (p >= text.size() || (text[p] != '{' && text[p] != '[')) return false;
    // The header part comes before any per-request array in every era's key order.
    const std::string_view head = text.substr(p, std::size_t{1} << 20);
    if (head.find("\"completed\"") == std::string_view::npos) return false;
    return head.find("\"request_throughput\"") != std::string_view::npos ||
           head.find("_ttft_ms\"") != std::string_view::npos || head.find("_e2el_ms\"") != std::string_view::npos;
}

}  // namespace detail

Result<std::vector<ServingRun>> parseVllmBenchText(std::string_view text, const std::string& sourceName) {
    return detail::parseVllmBenchRaw(text.data(), text.size(), sourceName, true);
}

}  // namespace fp8dash
