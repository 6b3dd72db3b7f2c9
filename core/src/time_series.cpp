// Time-series engine of the production timeline (issue #3): combining series, before/after summaries, the quality
// alert with Prometheus' semantics, LTTB downsampling, time parsing.
#include "fp8dash/core/time_series.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <ctime>

namespace fp8dash {
namespace {

// Prometheus keeps timestamps in integer milliseconds; window edges are compared there, exactly as it does.
std::int64_t toMs(double seconds) { return static_cast<std::int64_t>(std::llround(seconds * 1000.0)); }

std::string trim(const std::string& s) {
    const auto b = s.find_first_not_of(" \t");
    if (b == std::string::npos) return {};
    return s.substr(b, s.find_last_not_of(" \t") - b + 1);
}

std::string promDuration(double seconds) {
    const auto s = static_cast<long long>(std::llround(seconds));
    if (s == 0) return "0s";
    if (s % 86400 == 0) return std::to_string(s / 86400) + "d";
    if (s % 3600 == 0) return std::to_string(s / 3600) + "h";
    if (s % 60 == 0) return std::to_string(s / 60) + "m";
    return std::to_string(s) + "s";
}

// avg_over_time as Prometheus 2.x computes it: an incremental mean, with its special cases for infinities.
double prometheusMean(std::vector<Sample>::const_iterator first, std::vector<Sample>::const_iterator last) {
    double mean = 0, count = 0;
    for (auto it = first; it != last; ++it) {
        const double v = it->v;
        count += 1;
        if (std::isinf(mean)) {
            if (std::isinf(v) && (mean > 0) == (v > 0)) continue;
            if (!std::isinf(v) && !std::isnan(v)) continue;
        }
        mean += v / count - mean / count;
    }
    return mean;
}

}  // namespace

std::string labelsToString(const Labels& labels) {
    std::string out = "{";
    for (const auto& [k, v] : labels) {
        if (out.size() > 1) out += ", ";
        out += k + "=\"" + v + "\"";
    }
    return out + "}";
}

Result<Series> sumSeries(const std::vector<Series>& series) {
    if (series.empty()) return Error{"the query returned no series"};
    if (series.size() == 1) return series.front();
    std::vector<Sample> all;
    for (const auto& s : series) all.insert(all.end(), s.samples.begin(), s.samples.end());
    std::stable_sort(all.begin(), all.end(), [](const Sample& a, const Sample& b) { return toMs(a.t) < toMs(b.t); });
    Series out;
    for (const auto& s : all) {
        if (!out.samples.empty() && toMs(out.samples.back().t) == toMs(s.t)) out.samples.back().v += s.v;
        else out.samples.push_back(s);
    }
    return out;
}

Result<Series> pickSeries(const std::vector<Series>& series, const std::string& pick) {
    Labels want;
    std::size_t start = 0;
    while (start <= pick.size()) {
        auto end = pick.find(',', start);
        if (end == std::string::npos) end = pick.size();
        const std::string part = trim(pick.substr(start, end - start));
        if (!part.empty()) {
            const auto eq = part.find('=');
            if (eq == std::string::npos || eq == 0)
                return Error{"series pick \"" + pick + "\": expected label=value[,label=value...]"};
            std::string value = trim(part.substr(eq + 1));
            if (value.size() >= 2 && value.front() == '"' && value.back() == '"') value = value.substr(1, value.size() - 2);
            want[trim(part.substr(0, eq))] = value;
        }
        start = end + 1;
    }
    std::vector<const Series*> matches;
    for (const auto& s : series) {
        bool ok = true;
        for (const auto& [k, v] : want) {
            auto it = s.labels.find(k);
            if (it == s.labels.end() || it->second != v) ok = false;
        }
        if (ok) matches.push_back(&s);
    }
    if (matches.size() == 1) return *matches.front();
    std::string listing;
    for (std::size_t i = 0; i < series.size() && i < 5; ++i) listing += "\n  " + labelsToString(series[i].labels);
    if (series.size() > 5) listing += "\n  ... and " + std::to_string(series.size() - 5) + " more";
    if (matches.empty())
        return Error{"no series matches \"" + pick + "\"; the query returned " + std::to_string(series.size()) +
                     " series:" + listing};
    return Error{std::to_string(matches.size()) + " series match \"" + pick + "\"; add labels to pick one:" + listing};
}

std::optional<double> PeriodSummary::deltaPct() const {
    if (!beforeMean || !afterMean || *beforeMean == 0) return std::nullopt;
    return (*afterMean - *beforeMean) / *beforeMean * 100.0;
}

std::optional<double> PeriodSummary::deltaPoints() const {
    if (!beforeMean || !afterMean) return std::nullopt;
    return *afterMean - *beforeMean;
}

PeriodSummary summarizeAroundChange(const std::vector<Sample>& samples, double changeAt, double settleS) {
    PeriodSummary s;
    double before = 0, after = 0;
    const auto change = toMs(changeAt), settled = toMs(changeAt + settleS);
    for (const auto& p : samples) {
        if (!std::isfinite(p.v)) continue;
        const auto t = toMs(p.t);
        if (t < change) {
            before += p.v;
            ++s.beforeCount;
        } else if (t >= settled) {
            after += p.v;
            ++s.afterCount;
        }
    }
    if (s.beforeCount) s.beforeMean = before / static_cast<double>(s.beforeCount);
    if (s.afterCount) s.afterMean = after / static_cast<double>(s.afterCount);
    return s;
}

std::string AlertRule::promql(const std::string& q) const {
    char margin_[32];
    std::snprintf(margin_, sizeof margin_, "%g", margin);
    return "avg_over_time(" + q + "[" + promDuration(shortWindowS) + "]) < avg_over_time(" + q + "[" +
           promDuration(longWindowS) + "] offset " + promDuration(offsetS) + ") - " + margin_;
}

std::vector<double> evaluationTimes(double start, double end, double step) {
    std::vector<double> out;
    const auto s = toMs(start), e = toMs(end), st = toMs(step);
    if (st <= 0 || e < s) return out;
    for (auto t = s; t <= e; t += st) out.push_back(static_cast<double>(t) / 1000.0);
    return out;
}

std::vector<AlertEpisode> alertEpisodes(const std::vector<double>& times, const std::vector<bool>& condition,
                                        double holdForS) {
    std::vector<AlertEpisode> out;
    const auto hold = toMs(holdForS);
    bool active = false;
    for (std::size_t i = 0; i < times.size() && i < condition.size(); ++i) {
        const double t = times[i];
        if (condition[i]) {
            if (!active) {
                out.push_back({t, std::nullopt, std::nullopt});
                active = true;
            }
            AlertEpisode& e = out.back();
            // Prometheus: a pending alert fires once now - activeAt >= for (for: 0 fires at once).
            if (!e.firingAt && toMs(t) - toMs(e.pendingAt) >= hold) e.firingAt = t;
        } else if (active) {
            out.back().resolvedAt = t;
            active = false;
        }
    }
    return out;
}

std::vector<bool> evaluateAlertCondition(const std::vector<Sample>& raw, const std::vector<double>& times,
                                         const AlertRule& rule) {
    std::vector<bool> out(times.size(), false);
    const auto shortW = toMs(rule.shortWindowS), longW = toMs(rule.longWindowS), offset = toMs(rule.offsetS);
    auto at = [&](std::size_t i) { return toMs(raw[i].t); };
    // Two windows slide forward with the evaluation time; each keeps [first, last) indices into the sorted samples.
    std::size_t sFirst = 0, sLast = 0, lFirst = 0, lLast = 0;
    for (std::size_t k = 0; k < times.size(); ++k) {
        const auto T = toMs(times[k]);
        const auto lEnd = T - offset;
        while (sLast < raw.size() && at(sLast) <= T) ++sLast;
        while (sFirst < sLast && at(sFirst) < T - shortW) ++sFirst;
        while (lLast < raw.size() && at(lLast) <= lEnd) ++lLast;
        while (lFirst < lLast && at(lFirst) < lEnd - longW) ++lFirst;
        if (sFirst == sLast || lFirst == lLast) continue;  // no sample in a window: no value, no alert
        const double recent = prometheusMean(raw.begin() + static_cast<long>(sFirst), raw.begin() + static_cast<long>(sLast));
        const double baseline = prometheusMean(raw.begin() + static_cast<long>(lFirst), raw.begin() + static_cast<long>(lLast));
        out[k] = recent < baseline - rule.margin;  // NaN compares false, as in PromQL
    }
    return out;
}

std::vector<Sample> downsampleLttb(const std::vector<Sample>& in, std::size_t threshold) {
    std::vector<Sample> data;
    data.reserve(in.size());
    for (const auto& s : in)
        if (std::isfinite(s.v)) data.push_back(s);
    if (threshold < 3 || data.size() <= threshold) return data;
    std::vector<Sample> out;
    out.reserve(threshold);
    out.push_back(data.front());
    const double every = static_cast<double>(data.size() - 2) / static_cast<double>(threshold - 2);
    std::size_t a = 0;
    for (std::size_t i = 0; i < threshold - 2; ++i) {
        // The average of the next bucket is the third corner of the triangles.
        const auto nextStart = static_cast<std::size_t>(std::floor((i + 1) * every)) + 1;
        const auto nextEnd = std::min(static_cast<std::size_t>(std::floor((i + 2) * every)) + 1, data.size());
        double avgT = 0, avgV = 0;
        const std::size_t nextCount = nextEnd > nextStart ? nextEnd - nextStart : 1;
        for (std::size_t j = nextStart; j < nextEnd; ++j) avgT += data[j].t, avgV += data[j].v;
        if (nextEnd > nextStart) avgT /= static_cast<double>(nextCount), avgV /= static_cast<double>(nextCount);
        else avgT = data.back().t, avgV = data.back().v;
        const auto start = static_cast<std::size_t>(std::floor(i * every)) + 1;
        const auto end = static_cast<std::size_t>(std::floor((i + 1) * every)) + 1;
        double best = -1;
        std::size_t chosen = start;
        for (std::size_t j = start; j < end && j < data.size(); ++j) {
            const double area = std::fabs((data[a].t - avgT) * (data[j].v - data[a].v) -
                                          (data[a].t - data[j].t) * (avgV - data[a].v));
            if (area > best) best = area, chosen = j;
        }
        out.push_back(data[chosen]);
        a = chosen;
    }
    out.push_back(data.back());
    return out;
}

Result<double> parseTimePoint(const std::string& text, const std::string& what) {
    const std::string s = trim(text);
    const auto bad = [&] {
        return Error{what + " \"" + text + "\": expected unix seconds (1795852800) or RFC 3339 (2026-11-20T10:00:00Z)"};
    };
    if (s.empty()) return bad();
    char* end = nullptr;
    const double seconds = std::strtod(s.c_str(), &end);
    if (end == s.c_str() + s.size()) {
        if (!std::isfinite(seconds) || seconds < 0 || seconds > 32503680000.0) return bad();
        return seconds;
    }
    int y, mo, d, h, mi;
    double sec;
    int consumed = 0;
    if (std::sscanf(s.c_str(), "%4d-%2d-%2d%*1[Tt ]%2d:%2d:%lf%n", &y, &mo, &d, &h, &mi, &sec, &consumed) != 6)
        return bad();
    if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || sec < 0 || sec >= 61) return bad();
    std::string zone = s.substr(static_cast<std::size_t>(consumed));
    double offset = 0;
    if (zone == "Z" || zone == "z") {
        offset = 0;
    } else if (zone.size() == 6 && (zone[0] == '+' || zone[0] == '-') && zone[3] == ':') {
        int zh = 0, zm = 0;
        if (std::sscanf(zone.c_str() + 1, "%2d:%2d", &zh, &zm) != 2 || zh > 23 || zm > 59) return bad();
        offset = (zone[0] == '+' ? 1 : -1) * (zh * 3600.0 + zm * 60.0);
    } else {
        return bad();  // RFC 3339 requires a zone; a bare local time would be ambiguous
    }
    std::tm tm{};
    tm.tm_year = y - 1900;
    tm.tm_mon = mo - 1;
    tm.tm_mday = d;
    tm.tm_hour = h;
    tm.tm_min = mi;
    tm.tm_sec = 0;
    const time_t base = timegm(&tm);
    return static_cast<double>(base) + sec - offset;
}

std::string formatTimeUtc(double unixSeconds) {
    const auto t = static_cast<time_t>(std::floor(unixSeconds));
    std::tm tm{};
    gmtime_r(&t, &tm);
    char buf[40];
    std::strftime(buf, sizeof buf, "%Y-%m-%d %H:%M:%S UTC", &tm);
    return buf;
}

}  // namespace fp8dash
