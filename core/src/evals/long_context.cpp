// Long-context (per-length) comparison: lm-eval's RULER tasks (lm_eval/tasks/ruler: one metric per context length,
// common_utils.aggregate_metrics returning -1 for a length with no document) compared length by length.
#include "fp8dash/core/long_context.h"

#include "evals/long_context_rows.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>

namespace fp8dash {
namespace {

// The value lm-eval's RULER aggregation writes for a length no document had.
constexpr double kNotEvaluated = -1.0;

bool evaluated(const MetricValue* m) {
    return m && std::isfinite(m->value) && m->value != kNotEvaluated;
}

// The severity of a length for ordering: a loss from a zero baseline cannot be sized, so it ranks above any figure.
double severity(const LengthComparison& l) {
    if (l.degradationPct) return *l.degradationPct;
    return l.verdict == Verdict::Go ? 0.0 : std::numeric_limits<double>::infinity();
}

std::string longContextPct(double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.3f%%", v);
    return buf;
}

void collectLeaves(const TaskComparison& row, std::vector<const std::vector<LengthComparison>*>& out) {
    if (row.byLength.empty()) return;
    if (!row.byLengthFromSubtasks) {
        out.push_back(&row.byLength);
        return;
    }
    for (const auto& sub : row.subtasks) collectLeaves(sub, out);
}

}  // namespace

std::optional<long long> contextLengthOf(std::string_view name) {
    if (name.empty() || name.size() > 10 || name.front() == '0') return std::nullopt;
    long long v = 0;
    for (char ch : name) {
        if (ch < '0' || ch > '9') return std::nullopt;
        v = v * 10 + (ch - '0');
    }
    if (v < 1 || v > 1'000'000'000LL) return std::nullopt;
    return v;
}

bool isPerLengthTask(const TaskResult& task) {
    if (task.metrics.empty()) return false;
    return std::all_of(task.metrics.begin(), task.metrics.end(),
                       [](const MetricValue& m) { return contextLengthOf(m.name).has_value(); });
}

LengthComparison compareAtLength(long long length, double baseline, double candidate, bool higherIsBetter,
                                 const Thresholds& thresholds) {
    LengthComparison l;
    l.length = length;
    l.baseline = baseline;
    l.candidate = candidate;
    const RelativeChange change = relativeChange(baseline, candidate, higherIsBetter, thresholds);
    l.deltaPct = change.deltaPct;
    l.degradationPct = change.degradationPct;
    l.verdict = change.verdict;
    return l;
}

bool isWorseLength(const LengthComparison& a, const LengthComparison& b) {
    if (a.verdict != b.verdict) return a.verdict > b.verdict;
    const double sa = severity(a), sb = severity(b);
    if (sa != sb) return sa > sb;
    return a.length > b.length;
}

const LengthComparison* worstLength(const std::vector<LengthComparison>& lengths) {
    const LengthComparison* w = nullptr;
    for (const auto& l : lengths)
        if (!w || isWorseLength(l, *w)) w = &l;
    return w;
}

std::vector<LengthComparison> compareLengths(const TaskResult& baseline, const TaskResult& candidate,
                                             bool higherIsBetter, const Thresholds& thresholds,
                                             std::vector<std::string>* skipped) {
    std::map<long long, std::pair<const MetricValue*, const MetricValue*>> byLength;
    for (const auto& m : baseline.metrics)
        if (auto n = contextLengthOf(m.name); n && m.filter == "none") byLength[*n].first = &m;
    for (const auto& m : candidate.metrics)
        if (auto n = contextLengthOf(m.name); n && m.filter == "none") byLength[*n].second = &m;
    std::vector<LengthComparison> out;
    for (const auto& [length, sides] : byLength) {
        const auto [b, c] = sides;
        if (evaluated(b) && evaluated(c)) {
            out.push_back(compareAtLength(length, b->value, c->value, higherIsBetter, thresholds));
            continue;
        }
        if (!skipped) continue;
        const auto state = [](const MetricValue* m) {
            if (!m) return std::string("absent");
            if (!std::isfinite(m->value)) return std::string("not finite");
            return std::string(m->value == kNotEvaluated ? "-1" : "evaluated");
        };
        skipped->push_back(std::to_string(length) + ": " +
                           (state(b) == state(c) ? state(b) + " in both runs"
                                                 : state(b) + " in the baseline, " + state(c) + " in the candidate"));
    }
    return out;
}

std::vector<LengthComparison> meanOverTasks(const std::vector<const std::vector<LengthComparison>*>& rows,
                                            bool higherIsBetter, const Thresholds& thresholds) {
    struct Sum {
        double baseline = 0, candidate = 0;
        std::size_t n = 0;
    };
    std::map<long long, Sum> sums;
    for (const auto* row : rows)
        for (const auto& l : *row) {
            auto& s = sums[l.length];
            s.baseline += l.baseline;
            s.candidate += l.candidate;
            ++s.n;
        }
    std::vector<LengthComparison> out;
    for (const auto& [length, s] : sums) {
        const double n = static_cast<double>(s.n);
        LengthComparison l = compareAtLength(length, s.baseline / n, s.candidate / n, higherIsBetter, thresholds);
        l.tasks = s.n;
        out.push_back(l);
    }
    return out;
}

std::string contextLengthLabel(long long tokens) {
    if (tokens >= 1024 && tokens % 1024 == 0) return std::to_string(tokens / 1024) + "K";
    return std::to_string(tokens);
}

// ---- rows of a comparison (long_context_rows.h) ----

void useSubtaskMeans(TaskComparison& row, const Thresholds& thresholds) {
    std::vector<const std::vector<LengthComparison>*> subs;
    for (const auto& s : row.subtasks)
        if (!s.byLength.empty()) subs.push_back(&s.byLength);
    if (subs.empty()) return;
    row.byLength = meanOverTasks(subs, row.higherIsBetter, thresholds);
    row.byLengthFromSubtasks = true;
}

void takeWorstLength(TaskComparison& row) {
    const LengthComparison* w = worstLength(row.byLength);
    if (!w) return;
    row.metricName = std::to_string(w->length);
    row.filter = "none";
    row.metric = row.metricName + ",none";
    row.baseline = w->baseline;
    row.candidate = w->candidate;
    row.deltaPct = w->deltaPct;
    row.degradationPct = w->degradationPct;
    row.pointVerdict = w->verdict;
    row.verdict = w->verdict;
}

std::string perLengthReason(const TaskComparison& row) {
    const LengthComparison* w = worstLength(row.byLength);
    if (!w) return "";
    std::string s =
        "worst of " + std::to_string(row.byLength.size()) + " context length" + (row.byLength.size() == 1 ? "" : "s");
    if (row.byLengthFromSubtasks) s += " (each the mean of the subtasks evaluated at it)";
    return s + ", at " + contextLengthLabel(w->length) + " (" + std::to_string(w->length) + " tokens): ";
}

std::optional<LongContextSummary> summarizeLongContext(const std::vector<TaskComparison>& tasks,
                                                       const Thresholds& thresholds) {
    std::vector<const std::vector<LengthComparison>*> leaves;
    bool higherIsBetter = true;
    for (const auto& t : tasks) {
        const std::size_t before = leaves.size();
        collectLeaves(t, leaves);
        if (leaves.size() > before) higherIsBetter = t.higherIsBetter;
    }
    if (leaves.empty()) return std::nullopt;
    LongContextSummary s;
    s.tasks = leaves.size();
    s.lengths = meanOverTasks(leaves, higherIsBetter, thresholds);
    const LengthComparison* w = worstLength(s.lengths);
    s.worstLength = w->length;
    s.verdict = w->verdict;
    return s;
}

std::string longContextRiskNote(const ComparisonReport& r) {
    if (!r.longContext || r.longContext->lengths.empty()) return "";
    const auto& lc = *r.longContext;
    const auto w = std::find_if(lc.lengths.begin(), lc.lengths.end(),
                                [&](const LengthComparison& l) { return l.length == lc.worstLength; });
    if (w == lc.lengths.end()) return "";
    std::string figure = w->degradationPct ? "degradation " + longContextPct(*w->degradationPct)
                                           : std::string("a change from a zero baseline");
    return "; see the long-context table: " + figure + " at " + contextLengthLabel(w->length) + " (" +
           std::to_string(w->length) + " tokens), the worst of " + std::to_string(lc.lengths.size()) + " length" +
           (lc.lengths.size() == 1 ? "" : "s") + " (" + std::string(verdictName(lc.verdict)) + ")";
}

}  // namespace fp8dash
