// Time-series engine of the production timeline (README "The production timeline"): combining series, before/after
// summaries, the quality alert with Prometheus' semantics, LTTB downsampling, time parsing.
#include "fp8dash/core/time_series.h"
#include "fp8dash/core/untrusted_text.h"

#include "text_util.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <ctime>
#include <limits>

namespace fp8dash {

using text::lower;
using text::trim;
namespace {

// Prometheus keeps timestamps in integer milliseconds; window edges are compared there, exactly as it does.
std::int64_t toMs(double seconds) {
    return static_cast<std::int64_t>(std::llround(seconds * 1000.0));
}

std::string promDuration(double seconds) {
    const auto s = static_cast<long long>(std::llround(seconds));
    if (s == 0) return "0s";
    if (s % 86400 == 0) return std::to_string(s / 86400) + "d";
    if (s % 3600 == 0) return std::to_string(s / 3600) + "h";
    if (s % 60 == 0) return std::to_string(s / 60) + "m";
    return std::to_string(s) + "s";
}

int digits(const std::string& s, std::size_t& pos, int count) {
    if (pos + static_cast<std::size_t>(count) > s.size()) return -1;
    int v = 0;
    for (int i = 0; i < count; ++i) {
        const char c = s[pos + static_cast<std::size_t>(i)];
        if (c < '0' || c > '9') return -1;
        v = v * 10 + (c - '0');
    }
    pos += static_cast<std::size_t>(count);
    return v;
}

bool expect(const std::string& s, std::size_t& pos, char c) {
    if (pos < s.size() && s[pos] == c) {
        ++pos;
        return true;
    }
    return false;
}

int daysInMonth(int year, int month) {
    static const int days[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    const bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
    return month == 2 && leap ? 29 : days[month - 1];
}

}  // namespace

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

namespace {

// One step of Kahan summation with Neumaier's improvement, as Prometheus' kahanSumInc (util/kahansum.Inc): the running
// sum and its compensation. An infinite sum zeroes the compensation.
void kahanAdd(double inc, double& sum, double& c) {
    const double t = sum + inc;
    if (std::isinf(t))
        c = 0;
    else if (std::fabs(sum) >= std::fabs(inc))
        c += (sum - t) + inc;
    else
        c += (inc - t) + sum;
    sum = t;
}

}  // namespace

double prometheus3Mean(std::vector<Sample>::const_iterator first, std::vector<Sample>::const_iterator last) {
    // Prometheus 3.5+ funcAvgOverTime (floats): the direct mean of a compensated sum while that sum stays finite; once
    // it would overflow, a compensated incremental mean scaled by (n - 1) / n. (3.0-3.4 differed in the last bits:
    // README, "The production timeline".) This file is built with -ffp-contract=off: a fused multiply-add would
    // change the compensation's rounding.
    if (first == last) return std::nan("");
    double sum = first->v, count = 1, mean = 0, c = 0;
    bool incremental = false;
    for (auto it = first + 1; it != last; ++it) {
        count += 1;
        const double v = it->v;
        if (!incremental) {
            double newSum = sum, newC = c;
            kahanAdd(v, newSum, newC);
            if (!std::isinf(newSum)) {
                sum = newSum;
                c = newC;
                continue;
            }
            incremental = true;
            mean = sum / (count - 1);
            c /= count - 1;
        }
        const double q = (count - 1) / count;
        double m = q * mean, mc = q * c;
        kahanAdd(v / count, m, mc);
        mean = m;
        c = mc;
    }
    if (incremental) return mean + c;
    return sum / count + c / count;
}

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
        if (!out.samples.empty() && toMs(out.samples.back().t) == toMs(s.t))
            out.samples.back().v += s.v;
        else
            out.samples.push_back(s);
    }
    return out;
}

Result<Labels> parseSeriesPick(const std::string& pick) {
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
            if (value.size() >= 2 && value.front() == '"' && value.back() == '"')
                value = value.substr(1, value.size() - 2);
            want[trim(part.substr(0, eq))] = value;
        }
        start = end + 1;
    }
    return want;
}

bool labelsMatch(const Labels& labels, const Labels& want) {
    for (const auto& [k, v] : want) {
        auto it = labels.find(k);
        if (it == labels.end() || it->second != v) return false;
    }
    return true;
}

Result<Series> pickSeries(const std::vector<Series>& series, const std::string& pick) {
    auto parsed = parseSeriesPick(pick);
    if (!parsed) return parsed.error();
    const Labels& want = *parsed;
    std::vector<const Series*> matches;
    for (const auto& s : series)
        if (labelsMatch(s.labels, want)) matches.push_back(&s);
    if (matches.size() == 1) return *matches.front();
    std::string listing;
    for (std::size_t i = 0; i < series.size() && i < 5; ++i)
        listing += "\n  " + oneLine(labelsToString(series[i].labels));
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

std::string windowSemanticsName(WindowSemantics w) {
    return w == WindowSemantics::Prometheus3 ? "prometheus3" : "prometheus2";
}

std::optional<WindowSemantics> parseWindowSemantics(const std::string& name) {
    if (name == "prometheus2") return WindowSemantics::Prometheus2;
    if (name == "prometheus3") return WindowSemantics::Prometheus3;
    return std::nullopt;
}

std::string windowSemanticsTitle(WindowSemantics w) {
    return w == WindowSemantics::Prometheus3 ? "Prometheus 3.x windows, left-open (t−r, t]"
                                             : "Prometheus 2.x windows, closed [t−r, t]";
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

namespace {

constexpr double kUnitRoundoff = 0x1p-53;  // |fl(x) - x| <= u |x| for every rounding to nearest

// One of the rule's two windows, [first, last) in the sorted samples, sliding forward: the sum of its finite values
// with a bound on that sum's rounding error, and its NaN and infinite values counted. The sum is rebuilt from the
// window's samples once it has moved more than twice the window's length since the last rebuild, so the bound (and
// the work of the rebuilds) stays proportional to the window's length: O(1) amortised per sample.
struct SlidingSum {
    std::size_t first = 0;
    std::size_t last = 0;
    double sum = 0;
    double error = 0;  // |sum - exact sum of the finite values| <= error
    std::size_t nan = 0;
    std::size_t positiveInf = 0;
    std::size_t negativeInf = 0;
    std::size_t moves = 0;

    void change(double v, bool add) {
        if (std::isnan(v)) {
            add ? ++nan : --nan;
        } else if (std::isinf(v)) {
            auto& count = v > 0 ? positiveInf : negativeInf;
            add ? ++count : --count;
        } else {
            sum += add ? v : -v;
            error += std::fabs(sum) * kUnitRoundoff;
            ++moves;
        }
    }
    void rebuildIfDrifted(const std::vector<Sample>& raw) {
        if (moves <= 2 * (last - first) + 64) return;
        sum = error = 0;
        for (std::size_t i = first; i < last; ++i) {
            if (!std::isfinite(raw[i].v)) continue;
            sum += raw[i].v;
            error += std::fabs(sum) * kUnitRoundoff;
        }
        moves = 0;
    }
    std::size_t count() const { return last - first; }
};

// Prometheus' incremental mean over a window, known exactly where the window holds NaN or an infinity (NaN with a NaN
// or both infinities, else the infinity), else estimated: `estimate` within `bound` of it.
struct MeanEstimate {
    bool exact = false;
    double estimate = 0;
    double bound = 0;
};

MeanEstimate estimateMean(const SlidingSum& w, double maxAbs) {
    if (w.nan > 0 || (w.positiveInf > 0 && w.negativeInf > 0)) return {true, std::nan(""), 0};
    if (w.positiveInf > 0) return {true, INFINITY, 0};
    if (w.negativeInf > 0) return {true, -INFINITY, 0};
    const auto n = static_cast<double>(w.count());
    const double mean = w.sum / n;
    // The exact mean is within error / n (+ the division's rounding) of `mean`. Prometheus' recurrence
    // m_k = m_{k-1} + (v_k / k - m_{k-1} / k) adds at most ~3 u max|v| of rounding per step, and the recurrence
    // damps earlier errors (factor 1 - 1/k): within 4 n u max|v| of the exact mean, plus underflow's absolute error.
    // Doubled, for the rounding of the bound's own arithmetic.
    const double bound = 2 * (w.error / n + kUnitRoundoff * std::fabs(mean) + 4 * n * kUnitRoundoff * maxAbs +
                              4 * n * std::numeric_limits<double>::denorm_min());
    return {false, mean, bound};
}

}  // namespace

std::vector<bool> evaluateAlertCondition(const std::vector<Sample>& raw, const std::vector<double>& times,
                                         const AlertRule& rule) {
    std::vector<bool> out(times.size(), false);
    const auto shortW = toMs(rule.shortWindowS), longW = toMs(rule.longWindowS), offset = toMs(rule.offsetS);
    auto at = [&](std::size_t i) { return toMs(raw[i].t); };
    // The window's left edge: Prometheus 2.x keeps a sample exactly on it, 3.x (and VictoriaMetrics) drop it.
    const bool leftOpen = rule.windows == WindowSemantics::Prometheus3;
    const auto beforeWindow = [&](std::size_t i, std::int64_t edge) { return leftOpen ? at(i) <= edge : at(i) < edge; };
    const auto mean = leftOpen ? prometheus3Mean : prometheusMean;
    double maxAbs = 0;
    for (const Sample& s : raw)
        if (std::isfinite(s.v)) maxAbs = std::max(maxAbs, std::fabs(s.v));
    // Sums near the double range could overflow where Prometheus' mean does not: those use its mean throughout.
    const bool estimates = maxAbs < 1e290 && std::isfinite(rule.margin);

    // Linear time (10M points must be evaluated in O(N), tests/benchmarks/README.md): each window's sum slides forward
    // with the evaluation time, and the condition is decided from the two means' estimates unless they lie within
    // rounding distance of the threshold, where Prometheus' own means decide it (prometheusMean or prometheus3Mean, the
    // result that Prometheus computes, bit for bit). The bound of estimateMean covers both: the compensated sum is the
    // more accurate of the two.
    SlidingSum recentW, baselineW;
    for (std::size_t k = 0; k < times.size(); ++k) {
        const auto T = toMs(times[k]);
        const auto lEnd = T - offset;
        while (recentW.last < raw.size() && at(recentW.last) <= T) recentW.change(raw[recentW.last++].v, true);
        while (recentW.first < recentW.last && beforeWindow(recentW.first, T - shortW))
            recentW.change(raw[recentW.first++].v, false);
        while (baselineW.last < raw.size() && at(baselineW.last) <= lEnd)
            baselineW.change(raw[baselineW.last++].v, true);
        while (baselineW.first < baselineW.last && beforeWindow(baselineW.first, lEnd - longW))
            baselineW.change(raw[baselineW.first++].v, false);
        if (recentW.count() == 0 || baselineW.count() == 0) continue;  // no sample in a window: no value, no alert
        recentW.rebuildIfDrifted(raw);
        baselineW.rebuildIfDrifted(raw);
        const auto exactly = [&] {
            const double recent =
                mean(raw.begin() + static_cast<long>(recentW.first), raw.begin() + static_cast<long>(recentW.last));
            const double baseline =
                mean(raw.begin() + static_cast<long>(baselineW.first), raw.begin() + static_cast<long>(baselineW.last));
            return recent < baseline - rule.margin;  // NaN compares false, as in PromQL
        };
        if (!estimates) {
            out[k] = exactly();
            continue;
        }
        const MeanEstimate r = estimateMean(recentW, maxAbs), b = estimateMean(baselineW, maxAbs);
        if (r.exact || b.exact) {
            // An infinite or NaN mean decides alone; a finite one only needs to be finite (its sums cannot overflow
            // here), so its estimate stands in for it.
            out[k] = r.estimate < b.estimate - rule.margin;
            continue;
        }
        const double gap = r.estimate - (b.estimate - rule.margin);
        const double slack =
            r.bound + b.bound + 2 * kUnitRoundoff * (std::fabs(b.estimate) + b.bound + std::fabs(rule.margin));
        if (gap < -slack)
            out[k] = true;
        else if (gap > slack)
            out[k] = false;
        else
            out[k] = exactly();
    }
    return out;
}

std::vector<Sample> downsampleLttb(const std::vector<Sample>& in, std::size_t threshold) {
    return downsampleLttb(std::span<const Sample>(in), threshold);
}

std::vector<Sample> downsampleLttb(std::span<const Sample> in, std::size_t threshold) {
    // Non-finite samples are left out; the input is used in place when it has none (a copy of 10M samples would cost
    // as much as the downsampling).
    std::vector<Sample> finite;
    std::span<const Sample> data = in;
    if (!std::all_of(in.begin(), in.end(), [](const Sample& s) { return std::isfinite(s.v); })) {
        finite.reserve(in.size());
        for (const auto& s : in)
            if (std::isfinite(s.v)) finite.push_back(s);
        data = finite;
    }
    if (threshold < 3 || data.size() <= threshold) return {data.begin(), data.end()};
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
        if (nextEnd > nextStart)
            avgT /= static_cast<double>(nextCount), avgV /= static_cast<double>(nextCount);
        else
            avgT = data.back().t, avgV = data.back().v;
        const auto start = static_cast<std::size_t>(std::floor(i * every)) + 1;
        const auto end = std::min(static_cast<std::size_t>(std::floor((i + 1) * every)) + 1, data.size());
        double best = -1;
        std::size_t chosen = start;
        const Sample corner = data[a];
        for (std::size_t j = start; j < end; ++j) {
            const double area =
                std::fabs((corner.t - avgT) * (data[j].v - corner.v) - (corner.t - data[j].t) * (avgV - corner.v));
            if (area > best) best = area, chosen = j;
        }
        out.push_back(data[chosen]);
        a = chosen;
    }
    out.push_back(data.back());
    return out;
}

std::optional<double> parseIso8601(const std::string& text) {
    const std::string& s = text;
    std::size_t pos = 0;
    const int year = digits(s, pos, 4);
    if (year < 0 || !expect(s, pos, '-')) return std::nullopt;
    const int month = digits(s, pos, 2);
    if (month < 1 || month > 12 || !expect(s, pos, '-')) return std::nullopt;
    const int day = digits(s, pos, 2);
    if (day < 1 || day > daysInMonth(year, month)) return std::nullopt;
    if (!(expect(s, pos, 'T') || expect(s, pos, 't') || expect(s, pos, ' '))) return std::nullopt;
    const int hour = digits(s, pos, 2);
    if (hour < 0 || hour > 23 || !expect(s, pos, ':')) return std::nullopt;
    const int minute = digits(s, pos, 2);
    if (minute < 0 || minute > 59 || !expect(s, pos, ':')) return std::nullopt;
    const int second = digits(s, pos, 2);
    if (second < 0 || second > 60) return std::nullopt;  // 60: a leap second, folded into the next minute
    double fraction = 0;
    if (expect(s, pos, '.') || expect(s, pos, ',')) {
        const std::size_t start = pos;
        double scale = 0.1;
        while (pos < s.size() && s[pos] >= '0' && s[pos] <= '9') {
            fraction += (s[pos] - '0') * scale;
            scale /= 10;
            ++pos;
        }
        if (pos == start) return std::nullopt;
    }
    long offset = 0;
    if (expect(s, pos, 'Z') || expect(s, pos, 'z')) {
    } else if (pos < s.size() && (s[pos] == '+' || s[pos] == '-')) {
        const int sign = s[pos] == '-' ? -1 : 1;
        ++pos;
        const int oh = digits(s, pos, 2);
        if (oh < 0 || oh > 23) return std::nullopt;
        int om = 0;
        if (pos < s.size()) {
            expect(s, pos, ':');
            om = digits(s, pos, 2);
            if (om < 0 || om > 59) return std::nullopt;
        }
        offset = sign * (oh * 3600L + om * 60L);
    }
    if (pos != s.size()) return std::nullopt;
    std::tm tm{};
    tm.tm_year = year - 1900;
    tm.tm_mon = month - 1;
    tm.tm_mday = day;
    tm.tm_hour = hour;
    tm.tm_min = minute;
    tm.tm_sec = second;
    // timegm: the fields are UTC; mktime would apply the local zone.
    const std::time_t t = ::timegm(&tm);
    return static_cast<double>(t) - static_cast<double>(offset) + fraction;
}

std::string toIso8601(double unixSeconds) {
    if (!std::isfinite(unixSeconds)) return {};
    const double ms = std::round(unixSeconds * 1000);
    const double wholeSeconds = std::floor(ms / 1000);  // floor, so times before 1970 keep a positive fraction
    const auto whole = static_cast<std::time_t>(wholeSeconds);
    const int millis = static_cast<int>(ms - wholeSeconds * 1000);
    std::tm tm{};
    ::gmtime_r(&whole, &tm);
    char buf[64];
    std::snprintf(buf, sizeof buf, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday,
                  tm.tm_hour, tm.tm_min, tm.tm_sec, millis);
    return buf;
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
    // RFC 3339 requires a zone (Z or an offset after the time); a bare local time would be ambiguous.
    const std::string afterDate = s.size() > 10 ? s.substr(10) : std::string();
    if (afterDate.find_first_of("Zz+-") == std::string::npos) return bad();
    const auto t = parseIso8601(s);
    if (!t) return bad();
    return *t;
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
