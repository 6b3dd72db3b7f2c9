// The comparison rules (README "The comparison rules"), exactly: compared tasks, primary metric, delta and degradation,
// verdict bands, standard errors, risk flags.
#include "fp8dash/core/eval_comparison.h"
#include "fp8dash/core/untrusted_text.h"

#include "fp8dash/core/kv_scales_advice.h"
#include "fp8dash/core/lm_eval_paths.h"
#include "fp8dash/core/number_format.h"
#include "fp8dash/core/paired_tasks.h"

#include "evals/long_context_rows.h"
#include "text_util.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>

namespace fp8dash {

using text::lower;
using text::trim;
namespace {

std::string evalNum(double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.4g", v);
    return buf;
}

// Three decimals: at two, a 0.4955% loss would print as "0.50%" beside a 0.5% threshold it is below.
std::string pct(double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.3f%%", v);
    return buf;
}

std::string threshold(double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%g%%", v);
    return buf;
}

// Filter preference among the filters of one metric: none, strict-match, flexible-extract, then alphabetical.
int filterRank(const std::string& f) {
    if (f == "none") return 0;
    if (f == "strict-match") return 1;
    if (f == "flexible-extract") return 2;
    return 3;
}

const MetricValue* bestFilter(const TaskResult& t, const std::string& metricName) {
    const MetricValue* best = nullptr;
    for (const auto& m : t.metrics) {
        if (m.name != metricName) continue;
        if (!best || filterRank(m.filter) < filterRank(best->filter) ||
            (filterRank(m.filter) == filterRank(best->filter) && filterRank(m.filter) == 3 && m.filter < best->filter))
            best = &m;
    }
    return best;
}

bool hasMetricName(const TaskResult& t, const std::string& name) {
    return std::any_of(t.metrics.begin(), t.metrics.end(), [&](const MetricValue& m) { return m.name == name; });
}

std::string metricList(const TaskResult& t) {
    std::string out;
    for (const auto& m : t.metrics) out += (out.empty() ? "" : ", ") + m.key;
    return out.empty() ? "no metrics" : out;
}

const MetricOverride* overrideFor(const ComparisonOptions& o, const std::string& task) {
    for (const auto& ov : o.overrides)
        if (ov.task == task) return &ov;
    return nullptr;
}

// The primary metric of a task, chosen from the baseline's entry (README "The comparison rules", Primary metric).
const MetricValue* primaryMetric(const TaskResult& t, const MetricOverride* ov) {
    if (ov) return ov->filter.empty() ? bestFilter(t, ov->metric) : t.find(ov->metric, ov->filter);
    static const char* const kPreferred[] = {"acc_norm", "acc", "exact_match", "pass@1", "mc2", "f1", "em"};
    for (const char* name : kPreferred)
        if (hasMetricName(t, name)) return bestFilter(t, name);
    for (const auto& [name, hib] : t.higherIsBetter)
        if (hasMetricName(t, name)) return bestFilter(t, name);
    if (!t.metrics.empty()) return bestFilter(t, t.metrics.front().name);
    return nullptr;
}

struct Sides {
    const LmEvalResults& baseline;
    const LmEvalResults& candidate;
    const ComparisonOptions& options;
    const std::map<std::string, std::string>* blocked = nullptr;  // tasks not comparable (comparability.h)
};

// Compares one task; on failure returns the reason it cannot be compared in `why`.
std::optional<TaskComparison> compareTask(const Sides& s, const TaskResult& b, const TaskResult& c, std::string& why,
                                          std::set<std::string>& path);

// A group's subtask in one run: by its name, else by its last path segment among that run's subtasks of the group, so
// that a run of lm-eval 0.5 (paths such as "arc::arc_easy") pairs with an older one ("arc_easy"). Two candidates with
// the same last segment match neither.
const TaskResult* subtaskIn(const LmEvalResults& run, const std::string& group, const std::string& name) {
    if (const TaskResult* t = run.task(name)) return t;
    const auto* subs = run.subtasksOf(group);
    if (!subs) return nullptr;
    const TaskResult* found = nullptr;
    for (const auto& other : *subs) {
        if (other == name || taskLeafName(other) != taskLeafName(name)) continue;
        if (found) return nullptr;
        found = run.task(other);
    }
    return found;
}

void addSubtasks(const Sides& s, TaskComparison& row, std::set<std::string>& path) {
    const auto* subs = s.baseline.subtasksOf(row.task);
    if (!subs) subs = s.candidate.subtasksOf(row.task);
    if (!subs) return;
    for (const auto& name : *subs) {
        if (path.count(name)) {
            row.subtasksNotCompared.push_back(name + ": listed inside its own group (group_subtasks loops)");
            continue;
        }
        const TaskResult* bt = subtaskIn(s.baseline, row.task, name);
        const TaskResult* ct = subtaskIn(s.candidate, row.task, name);
        if (!bt || !ct) {
            row.subtasksNotCompared.push_back(name + (bt   ? ": only in the baseline"
                                                      : ct ? ": only in the candidate"
                                                           : ": in neither results"));
            continue;
        }
        if (s.blocked && s.blocked->count(name)) {
            row.subtasksNotCompared.push_back(name + ": " + s.blocked->at(name));
            continue;
        }
        std::string why;
        if (auto sub = compareTask(s, *bt, *ct, why, path))
            row.subtasks.push_back(std::move(*sub));
        else
            row.subtasksNotCompared.push_back(name + ": " + why);
    }
}

// Recovery, the figure of model cards and LLM Compressor: candidate / baseline x 100 where higher is better,
// baseline / candidate x 100 where lower is better. Only where the ratio means "share of the baseline kept": both
// values positive (a candidate of 0 keeps 0 % where higher is better); otherwise (a zero, negative or sign-changing
// value, as a Matthews correlation can be) there is none.
std::optional<double> recoveryPct(double baseline, double candidate, bool higherIsBetter) {
    if (higherIsBetter) {
        if (!(baseline > 0) || candidate < 0) return std::nullopt;
        return candidate / baseline * 100.0;
    }
    if (!(baseline > 0) || !(candidate > 0)) return std::nullopt;
    return baseline / candidate * 100.0;
}

// The task's size, which no "samples needed" may exceed: lm-eval's n-samples.original (the larger side's, should
// they differ), else nothing (the sample logs' count is added when they are paired).
std::optional<std::uint64_t> taskSizeOf(const TaskResult& b, const TaskResult& c) {
    std::optional<std::uint64_t> size;
    for (const auto& n : {b.nSamplesOriginal, c.nSamplesOriginal})
        if (n && *n > 0) size = std::max<std::uint64_t>(size.value_or(0), static_cast<std::uint64_t>(*n));
    return size;
}

std::string verdictReason(const TaskComparison& r, const Thresholds& t) {
    const std::string change = evalNum(r.baseline) + " → " + evalNum(r.candidate);
    std::string text;
    if (!r.deltaPct) {
        text = r.pointVerdict == Verdict::Go
                   ? "baseline is 0, so no relative change exists; on the absolute difference the candidate is not "
                     "worse (" +
                         change + ")"
                   : "baseline is 0, so no relative change exists; on the absolute difference the candidate is "
                     "worse (" +
                         change + ")";
    } else if (*r.degradationPct == 0) {
        text = (*r.deltaPct == 0 ? "unchanged (" : "improved " + pct(std::fabs(*r.deltaPct)) + " (") + change + ")";
    } else {
        text = "degraded " + pct(*r.degradationPct) + " (" + change + (r.higherIsBetter ? "" : ", lower is better") +
               "), ";
        switch (r.pointVerdict) {
            case Verdict::Go:
                text += "below the " + threshold(t.goBelow) + " go threshold";
                break;
            case Verdict::Monitor:
                text += "between " + threshold(t.goBelow) + " and " + threshold(t.investigateAbove);
                break;
            case Verdict::Investigate:
                text += "above the " + threshold(t.investigateAbove) + " investigate threshold";
                break;
        }
    }
    text = perLengthReason(r) + text;  // a per-length task: which length the figures are
    if (r.sigmas) {
        const double a = std::fabs(*r.sigmas);
        // As formatSigmas writes it: no sign where it rounds to zero (never "-0.0σ").
        text += "; " + numfmt::signedFixed(*r.sigmas, 1) + "σ " +
                (a < 1   ? "(well inside the noise: under 1 standard error)"
                 : a < 2 ? "(inside the noise: under 2 standard errors)"
                         : "(outside lm-eval's standard errors)");
    } else {
        text += "; no standard error to judge the noise";
    }
    if (r.verdict != r.pointVerdict && r.confidence)
        text += "; cautious policy: the 95% interval of the degradation (" + pct(std::max(0.0, r.confidence->lowPct)) +
                " to " + pct(r.confidence->highPct) + ") reaches the " + std::string(verdictName(r.verdict)) +
                " band, so it counts as " + std::string(verdictName(r.verdict)) + " (the estimate alone says " +
                std::string(verdictName(r.pointVerdict)) + ")";
    if (!r.pairedLeftOut.empty())
        text += "; the paired statistics given for it were left out, as they do not hold: " + r.pairedLeftOut;
    return text;
}

// The sample logs' count of a task (the documents either log has): the task's size where the results file gives
// none.
std::optional<std::uint64_t> sampleLogsCount(const PairedTaskResult& p) {
    const std::uint64_t n = p.n + p.hashMismatches + p.missingValues + std::max(p.onlyInBaseline, p.onlyInCandidate);
    return n ? std::optional<std::uint64_t>(n) : std::nullopt;
}

// Issue #5: the confidence answer and the equivalence check of one row, then its verdict under the policy. From
// the paired interval when the sample logs were paired, else from lm-eval's two standard errors (unpaired).
void deriveStatistics(TaskComparison& r, const Thresholds& t, bool cautious) {
    r.confidence.reset();
    r.equivalence.reset();
    const double sign = r.higherIsBetter ? -1.0 : 1.0;  // degradation = -delta when higher is better
    if (r.paired && r.paired->deltaPct && r.paired->deltaPctCi) {
        const double a = sign * r.paired->deltaPctCi->low, b = sign * r.paired->deltaPctCi->high;
        const ConfidenceContext ctx{r.higherIsBetter, r.taskSize ? r.taskSize : sampleLogsCount(*r.paired)};
        ConfidenceAnswer ans = confidenceAnswer(sign * *r.paired->deltaPct, std::min(a, b), std::max(a, b), r.paired->n,
                                                t.goBelow, t.investigateAbove, ctx);
        r.paired->confidence = ans;  // the paired result's own answer, held to the same task size
        ans.explanation = "From the paired test on " + std::to_string(r.paired->n) +
                          " documents (bootstrap of the "
                          "per-document differences): " +
                          ans.explanation;
        r.confidence = std::move(ans);
        r.equivalence = r.paired->equivalence;
    } else if (r.deltaPct && r.baselineStderr && r.candidateStderr && r.baseline != 0) {
        const double se = std::sqrt(*r.baselineStderr * *r.baselineStderr + *r.candidateStderr * *r.candidateStderr);
        const double sePct = se / std::fabs(r.baseline) * 100.0;
        if (std::isfinite(sePct)) {
            const double degradation = sign * *r.deltaPct;  // not clamped: it must sit inside its interval
            const double half = 1.96 * sePct;
            ConfidenceAnswer ans =
                confidenceAnswer(degradation, degradation - half, degradation + half, r.nSamples.value_or(0), t.goBelow,
                                 t.investigateAbove, ConfidenceContext{r.higherIsBetter, r.taskSize});
            ans.explanation =
                "From lm-eval's standard errors (unpaired: Δ ± 1.96·√(se_b² + se_c²) / |baseline|; no "
                "sample logs): " +
                ans.explanation;
            r.confidence = std::move(ans);
            r.equivalence = equivalenceCheck(*r.deltaPct, sePct, t.goBelow);
        }
    }
    r.verdict = r.pointVerdict;
    if (cautious && r.confidence && r.confidence->confidence == Confidence::Inconclusive)
        r.verdict = worst(r.pointVerdict, verdictForDegradation(std::max(0.0, r.confidence->highPct), t));
    r.reason = verdictReason(r, t);
    for (auto& sub : r.subtasks) deriveStatistics(sub, t, cautious);
}

// A per-length task (RULER: one metric per context length), compared length by length; a group's lengths are the
// means of its per-length subtasks. The row shows its worst length. Without a --metric override only.
std::optional<TaskComparison> comparePerLength(const Sides& s, const TaskResult& b, const TaskResult& c,
                                               std::string& why, std::set<std::string>& path) {
    TaskComparison r;
    r.task = b.name;
    r.alias = b.alias;
    const std::string& first = b.metrics.front().name;
    r.higherIsBetter = b.higherIsBetterFor(first).value_or(c.higherIsBetterFor(first).value_or(true));
    std::vector<std::string> skipped;
    r.byLength = compareLengths(b, c, r.higherIsBetter, s.options.thresholds, &skipped);
    // Standard errors and sample counts stay absent: RULER's are "N/A", and n-samples counts every length at once.
    if (path.size() < 16) {
        path.insert(r.task);
        addSubtasks(s, r, path);
        path.erase(r.task);
    }
    useSubtaskMeans(r, s.options.thresholds);
    if (r.byLength.empty()) {
        std::string lengths;
        for (const auto& k : skipped) lengths += (lengths.empty() ? "" : "; ") + k;
        why = "no context length was evaluated in both runs (-1 means not evaluated" +
              (lengths.empty() ? std::string(")") : "; " + lengths + ")");
        return std::nullopt;
    }
    takeWorstLength(r);
    return r;
}

std::optional<TaskComparison> compareTask(const Sides& s, const TaskResult& b, const TaskResult& c, std::string& why,
                                          std::set<std::string>& path) {
    const MetricOverride* ov = overrideFor(s.options, b.name);
    if (!ov && isPerLengthTask(b)) return comparePerLength(s, b, c, why, path);
    const MetricValue* bm = primaryMetric(b, ov);
    if (!bm) {
        why = ov ? "the baseline has no " + ov->metric + (ov->filter.empty() ? "" : "," + ov->filter) + " (it has " +
                       metricList(b) + ")"
                 : std::string("the baseline has no score for it (a group without an aggregate metric)") +
                       (s.baseline.subtasksOf(b.name) && !s.baseline.subtasksOf(b.name)->empty()
                            ? "; its subtasks are compared on their own"
                            : "");
        return std::nullopt;
    }
    const MetricValue* cm = c.find(bm->name, bm->filter);
    if (!cm) {
        why = "the candidate lacks " + bm->key;
        return std::nullopt;
    }
    if (!std::isfinite(bm->value)) {
        why = "the baseline's " + bm->key + " is not a finite number";
        return std::nullopt;
    }
    if (!std::isfinite(cm->value)) {
        why = "the candidate's " + cm->key + " is not a finite number";
        return std::nullopt;
    }

    TaskComparison r;
    r.task = b.name;
    r.alias = b.alias;
    r.metric = bm->key;
    r.metricName = bm->name;
    r.filter = bm->filter;
    r.baseline = bm->value;
    r.candidate = cm->value;
    r.higherIsBetter =
        b.higherIsBetterFor(bm->name).value_or(c.higherIsBetterFor(bm->name).value_or(defaultHigherIsBetter(bm->name)));
    r.baselineStderr = bm->stderr_;
    r.candidateStderr = cm->stderr_;
    const double diff = r.candidate - r.baseline;
    // One sign convention (verdict.h relativeChange): relative to the baseline's magnitude, so that a negative
    // baseline (a Matthews correlation) never flips the sign; a zero baseline is judged on the absolute difference.
    const RelativeChange change = relativeChange(r.baseline, r.candidate, r.higherIsBetter, s.options.thresholds);
    r.deltaPct = change.deltaPct;
    r.degradationPct = change.degradationPct;
    r.pointVerdict = change.verdict;
    if (r.baseline != 0) r.recoveryPct = recoveryPct(r.baseline, r.candidate, r.higherIsBetter);
    r.verdict = r.pointVerdict;
    if (b.nSamplesEffective && c.nSamplesEffective && *b.nSamplesEffective > 0 && *c.nSamplesEffective > 0)
        r.nSamples = static_cast<std::uint64_t>(std::min(*b.nSamplesEffective, *c.nSamplesEffective));
    r.taskSize = taskSizeOf(b, c);
    if (r.baselineStderr && r.candidateStderr) {
        const double se = std::sqrt(*r.baselineStderr * *r.baselineStderr + *r.candidateStderr * *r.candidateStderr);
        if (se > 0 && std::isfinite(se)) r.sigmas = diff / se;
    }
    if (path.size() < 16) {
        path.insert(r.task);
        addSubtasks(s, r, path);
        path.erase(r.task);
    }
    return r;
}

// A top-level task of the other run under another path: "glue::cola" (lm-eval 0.5, inside a group without an
// aggregate) for "cola" (0.4.x), or the reverse. Only when the last path segment names exactly one top-level task.
const TaskResult* topLevelByLeaf(const LmEvalResults& run, const std::set<std::string>& hidden,
                                 const std::string& name) {
    const TaskResult* found = nullptr;
    for (const auto& t : run.tasks) {
        if (t.name == name || hidden.count(t.name) || taskLeafName(t.name) != taskLeafName(name)) continue;
        if (found) return nullptr;
        found = &t;
    }
    return found;
}

// Whether a group gets a row of its own: it has a score to compare (the baseline's entry, else the candidate's).
bool groupHasRow(const Sides& s, const std::string& group) {
    const TaskResult* t = s.baseline.task(group);
    if (!t) t = s.candidate.task(group);
    return t && primaryMetric(*t, overrideFor(s.options, group)) != nullptr;
}

// The tasks shown under a group's row, so not at the top level. A group without an aggregate metric (lm-eval writes
// only its alias and name, or " " before 0.4.12; 0.4.12's glue, leaderboard, ...) has no row to hold its subtasks,
// so they are compared at the top level, where their verdicts count.
std::set<std::string> subtasksUnderGroupRows(const Sides& s, const LmEvalResults& run) {
    std::set<std::string> out;
    // A group the other run lacks has no row to compare there: a subtask the other run has on its own (a v0.3
    // run's renamed mmlu subjects against v0.4's mmlu group) stays at the top level.
    const LmEvalResults& other = &run == &s.baseline ? s.candidate : s.baseline;
    for (const auto& [group, subs] : run.groupSubtasks) {
        if (!groupHasRow(s, group)) continue;
        const bool groupInBoth = other.task(group) != nullptr;
        for (const auto& sub : subs)
            if (sub != group && (groupInBoth || !other.task(sub))) out.insert(sub);
    }
    return out;
}

std::string humanParams(double billions) {
    char buf[32];
    if (billions < 1)
        std::snprintf(buf, sizeof buf, "%.0fM", billions * 1000);
    else
        std::snprintf(buf, sizeof buf, "%gB", billions);
    return buf;
}

void addRisks(ComparisonReport& r, const LmEvalResults& baseline, const LmEvalResults& candidate) {
    for (const auto& t : r.tasks)
        if (isFp8SensitiveTask(t.task))
            r.risks.push_back({"fp8_sensitive_task", t.task,
                               t.task + " is FP8-sensitive (math, formal reasoning or code): one wrong step "
                                        "propagates into a wrong answer; weigh it above the average"});
    const auto& params =
        r.candidateConfig.paramsBillions ? r.candidateConfig.paramsBillions : r.baselineConfig.paramsBillions;
    if (params && *params < 7.0)
        r.risks.push_back({"small_model", r.candidateConfig.model,
                           "the model has about " + humanParams(*params) +
                               " parameters (under ~7B): FP8 gains little on small models, and they lose relatively "
                               "more quality"});
    for (const auto* side : {&r.baselineConfig, &r.candidateConfig}) {
        if (side->kvCache && !side->kvScales)
            r.risks.push_back({"kv_cache_without_scales",
                               side == &r.baselineConfig ? r.baselineLabel : r.candidateLabel,
                               "FP8 KV cache (" + side->kvCacheDtype +
                                   ") with scales 1.0 (no calibrated or calculated KV scales): long contexts "
                                   "(> 32K tokens) accumulate error; " +
                                   kvScalesAdvice() + longContextRiskNote(r)});
    }
    if (!r.candidateConfig.anyFp8() && !r.candidateConfig.layers.anyLowPrecision())  // an FP4 rung is one
        r.risks.push_back({"candidate_without_fp8", r.candidateLabel,
                           "the candidate run shows no FP8 layer in its model_args or model name; check that it is "
                           "the FP8 run"});
    if (r.baselineConfig.anyFp8())
        r.risks.push_back({"baseline_with_fp8", r.baselineLabel,
                           "the baseline run already uses FP8 (" + r.baselineConfig.model +
                               "); it is not a BF16 "
                               "reference"});
    for (const auto& t : r.tasks) {
        for (const auto* run : {&baseline, &candidate}) {
            const TaskResult* tr = run->task(t.task);
            if (tr && tr->nSamplesOriginal && tr->nSamplesEffective && *tr->nSamplesEffective < *tr->nSamplesOriginal)
                r.risks.push_back({"limited_samples", t.task,
                                   t.task + " ran on " + std::to_string(*tr->nSamplesEffective) + " of " +
                                       std::to_string(*tr->nSamplesOriginal) + " samples in the " +
                                       (run == &baseline ? r.baselineLabel : r.candidateLabel) +
                                       " run (--limit): its score is noisier than its standard error suggests"});
        }
    }
}

void addReasons(ComparisonReport& r) {
    r.reasons.clear();
    int counts[3] = {0, 0, 0};
    for (const auto& t : r.tasks) ++counts[static_cast<int>(t.verdict)];
    if (r.verdict != Verdict::Go) {
        for (const auto& t : r.tasks)
            if (t.verdict == r.verdict) r.reasons.push_back(t.task + " " + t.metric + ": " + t.reason);
    } else {
        double worstDeg = 0;
        const TaskComparison* worstTask = nullptr;
        for (const auto& t : r.tasks)
            if (t.degradationPct && (!worstTask || *t.degradationPct > worstDeg)) {
                worstDeg = *t.degradationPct;
                worstTask = &t;
            }
        std::string line = "every compared task degrades less than " + threshold(r.thresholds.goBelow);
        if (worstTask && worstDeg > 0) line += "; the largest loss is " + worstTask->task + " (" + pct(worstDeg) + ")";
        r.reasons.push_back(line);
    }
    std::string inconclusive, undecidable;
    std::size_t nInconclusive = 0, nUndecidable = 0;
    for (const auto& t : r.tasks)
        if (t.confidence && t.confidence->confidence == Confidence::Inconclusive) {
            inconclusive += (nInconclusive++ ? ", " : "") + t.task;
            if (t.confidence->samplesNeeded)
                inconclusive += " (about " + groupedCount(*t.confidence->samplesNeeded) + " samples would settle it)";
            else if (t.confidence->decidable == false && t.confidence->taskSize)
                undecidable += (nUndecidable++ ? ", " : "") + t.task;
        }
    // Tasks whose count would exceed their size are named once, not given an extrapolated count each.
    if (nUndecidable)
        inconclusive += "; " +
                        (nUndecidable == nInconclusive
                             ? std::string(nUndecidable == 1 ? "it" : "each") + " would need more samples than " +
                                   (nUndecidable == 1 ? "the task has" : "its task has")
                             : undecidable + " would need more samples than " +
                                   (nUndecidable == 1 ? "the task has" : "their tasks have")) +
                        " (too close to a band edge to settle)";
    if (nInconclusive)
        r.reasons.push_back(std::to_string(nInconclusive) + " task" + (nInconclusive == 1 ? " is" : "s are") +
                            " unsettled, the 95% interval straddling a band edge: " + inconclusive +
                            (r.cautious
                                 ? "; the cautious policy counts each at the worst band it reaches"
                                 : "; the verdict follows the estimate (the cautious policy counts the worse band)"));
    r.reasons.push_back(std::to_string(r.tasks.size()) + " task" + (r.tasks.size() == 1 ? "" : "s") +
                        " compared: " + std::to_string(counts[0]) + " go, " + std::to_string(counts[1]) + " monitor, " +
                        std::to_string(counts[2]) + " investigate" +
                        (r.missing.empty() ? "" : "; " + std::to_string(r.missing.size()) + " not compared"));
    // A candidate that is not quantised at all makes every figure above a comparison of two 16-bit runs: first,
    // after only the runs compared although not comparable.
    if (!r.candidateConfig.layers.anyLowPrecision())
        r.reasons.insert(r.reasons.begin(), "the candidate (" + r.candidateLabel + ", " + r.candidateConfig.model +
                                                ") has no FP8 or other low-precision layer (" +
                                                r.candidateConfig.layers.weights.evidence + "; " +
                                                r.candidateConfig.layers.kvCache.evidence +
                                                "): these figures compare two unquantised runs, not an FP8 variant");
    const auto compared = comparabilityReasons(r.comparability, r.allowIncomparable);
    r.reasons.insert(r.reasons.begin(), compared.begin(), compared.end());
}

// Re-derives the statistics, verdicts and reasons of every row from what the report holds.
// mean(candidate) / mean(baseline) x 100 over the compared higher-is-better top-level tasks (LLM Compressor's
// "average recovery"); none without such a task or where the baselines' mean is not positive.
std::optional<double> averageRecoveryPct(const std::vector<TaskComparison>& tasks) {
    double b = 0, c = 0;
    std::size_t n = 0;
    for (const auto& t : tasks) {
        if (!t.higherIsBetter) continue;
        b += t.baseline;
        c += t.candidate;
        ++n;
    }
    if (n == 0 || !(b > 0)) return std::nullopt;
    return c / b * 100.0;
}

void finish(ComparisonReport& r) {
    r.averageRecoveryPct = averageRecoveryPct(r.tasks);
    for (auto& t : r.tasks) deriveStatistics(t, r.thresholds, r.cautious);
    r.verdict = Verdict::Go;
    for (const auto& t : r.tasks) r.verdict = worst(r.verdict, t.verdict);
    addReasons(r);
}

}  // namespace

Result<MetricOverride> MetricOverride::parse(std::string_view spec) {
    const auto bad = [&](const std::string& what) {
        return Error{"--metric \"" + std::string(spec) + "\": " + what +
                     " (expected TASK=METRIC or TASK=METRIC,FILTER)"};
    };
    const auto eq = spec.find('=');
    if (eq == std::string_view::npos) return bad("no '='");
    MetricOverride o;
    o.task = trim(spec.substr(0, eq));
    std::string_view rest = spec.substr(eq + 1);
    const auto comma = rest.find(',');
    o.metric = trim(rest.substr(0, comma));
    if (comma != std::string_view::npos) {
        o.filter = trim(rest.substr(comma + 1));
        if (o.filter.empty()) return bad("empty filter after ','");
    }
    if (o.task.empty()) return bad("empty task name");
    if (o.metric.empty()) return bad("empty metric name");
    return o;
}

std::string MetricOverride::toString() const {
    return task + "=" + metric + (filter.empty() ? "" : "," + filter);
}

bool worseFirst(Verdict a, std::optional<double> degradationA, Verdict b, std::optional<double> degradationB) {
    if (a != b) return a > b;
    return degradationA.value_or(0) > degradationB.value_or(0);
}

bool isFp8SensitiveTask(std::string_view task) {
    static const char* const kMarkers[] = {"gsm",   "math",  "humaneval",  "mbpp",   "code",    "aime",
                                           "asdiv", "svamp", "arithmetic", "ds1000", "minerva", "apps"};
    const auto l = lower(task);
    for (const char* m : kMarkers) {
        if (std::string_view(m) == "apps") {
            if (l == "apps" || l.starts_with("apps_")) return true;
        } else if (l.find(m) != std::string::npos) {
            return true;
        }
    }
    return false;
}

bool defaultHigherIsBetter(std::string_view metric) {
    static const char* const kLower[] = {"perplexity", "word_perplexity", "byte_perplexity", "bits_per_byte", "ter"};
    for (const char* m : kLower)
        if (metric == m) return false;
    return true;
}

namespace {

// Why nothing could be compared, when the check or the names say more: --allow-incomparable, --map.
std::string noTaskHint(const ComparisonReport& r, const LmEvalResults& baseline, const LmEvalResults& candidate) {
    std::string hint;
    for (const auto& m : r.missing)
        if (m.reason.starts_with("not comparable:")) {
            hint = "\n  (--allow-incomparable compares tasks that are not comparable anyway)";
            break;
        }
    if (const std::string names = renamingHint(baseline, candidate); !names.empty()) hint += "\n  " + oneLine(names);
    return hint;
}

// compareEvals over two runs whose task names agree, with the comparability check's findings.
Result<ComparisonReport> compareMatched(const LmEvalResults& baseline, const LmEvalResults& candidate,
                                        const ComparisonOptions& options, const std::string& baselineLabel,
                                        const std::string& candidateLabel, ComparabilityCheck check) {
    for (const auto& ov : options.overrides) {
        const TaskResult* bt = baseline.task(ov.task);
        if (!bt && !candidate.task(ov.task))
            return Error{"--metric " + ov.toString() + ": no task \"" + ov.task + "\" in either results file"};
        if (bt && !primaryMetric(*bt, &ov))
            return Error{"--metric " + ov.toString() + ": the baseline's " + ov.task + " has no metric " + ov.metric +
                         (ov.filter.empty() ? "" : "," + ov.filter) + " (it has " + metricList(*bt) + ")"};
    }

    ComparisonReport r;
    r.thresholds = options.thresholds;
    r.baselineLabel = baselineLabel;
    r.candidateLabel = candidateLabel;
    r.baselineConfig = detectFp8Config(baseline);
    r.candidateConfig = detectFp8Config(candidate);
    r.comparability = std::move(check.items);
    r.allowIncomparable = options.allowIncomparable;

    const Sides sides{baseline, candidate, options, options.allowIncomparable ? nullptr : &check.blocked};
    std::set<std::string> subtasks = subtasksUnderGroupRows(sides, baseline);
    subtasks.merge(subtasksUnderGroupRows(sides, candidate));
    std::set<std::string> matchedByPath;  // candidate tasks a baseline task of another name matched
    for (const auto& bt : baseline.tasks) {
        if (subtasks.count(bt.name)) continue;
        const TaskResult* ct = candidate.task(bt.name);
        if (!ct && (ct = topLevelByLeaf(candidate, subtasks, bt.name))) matchedByPath.insert(ct->name);
        if (!ct) {
            r.missing.push_back({bt.name, "only in the baseline (" + baselineLabel + ")"});
            continue;
        }
        if (auto it = check.blocked.find(bt.name); it != check.blocked.end() && sides.blocked) {
            r.missing.push_back({bt.name, it->second});
            continue;
        }
        std::string why;
        std::set<std::string> path;
        if (auto row = compareTask(sides, bt, *ct, why, path))
            r.tasks.push_back(std::move(*row));
        else
            r.missing.push_back({bt.name, why});
    }
    for (const auto& ct : candidate.tasks)
        if (!subtasks.count(ct.name) && !baseline.task(ct.name) && !matchedByPath.count(ct.name))
            r.missing.push_back({ct.name, "only in the candidate (" + candidateLabel + ")"});

    if (r.tasks.empty()) {
        std::string detail;
        for (std::size_t i = 0; i < r.missing.size() && i < 5; ++i)
            detail += "\n  " + oneLine(r.missing[i].task + ": " + r.missing[i].reason);  // one line per item
        if (r.missing.size() > 5) detail += "\n  ... and " + std::to_string(r.missing.size() - 5) + " more";
        return Error{"no task can be compared between " +
                     (baseline.sourcePath.empty() ? baselineLabel : baseline.sourcePath) + " and " +
                     (candidate.sourcePath.empty() ? candidateLabel : candidate.sourcePath) +
                     (detail.empty() ? " (neither has any task)" : ":" + detail) + noTaskHint(r, baseline, candidate)};
    }
    r.cautious = options.cautious;
    r.longContext = summarizeLongContext(r.tasks, options.thresholds);
    addRisks(r, baseline, candidate);
    finish(r);
    return r;
}

}  // namespace

Result<ComparisonReport> compareEvals(const LmEvalResults& baseline, const LmEvalResults& candidate,
                                      const ComparisonOptions& options, const std::string& baselineLabel,
                                      const std::string& candidateLabel) {
    if (auto ok = options.thresholds.validate(); !ok) return ok.error();
    auto runs = matchTaskNames(baseline, candidate, options.taskMap);
    if (!runs) return runs.error();
    ComparabilityCheck check = checkComparability(runs->baseline, runs->candidate);
    if (check.identical && !options.allowIncomparable)
        return Error{std::string(kIdenticalRunsMessage) + " (" +
                     (baseline.sourcePath.empty() ? baselineLabel : baseline.sourcePath) + " and " +
                     (candidate.sourcePath.empty() ? candidateLabel : candidate.sourcePath) +
                     "; --allow-incomparable compares them anyway)"};
    if (!options.allowIncomparable) {
        // Another model blocks every task: one message naming both checkpoints, not one per task.
        for (const auto& item : check.items)
            if (item.field == "model" && item.severity == ComparabilitySeverity::Blocking)
                return Error{"the runs are not variants of one model: " + item.message + " (" +
                             (baseline.sourcePath.empty() ? baselineLabel : baseline.sourcePath) + " and " +
                             (candidate.sourcePath.empty() ? candidateLabel : candidate.sourcePath) +
                             "; --allow-incomparable compares them anyway)"};
    }
    check.items.insert(check.items.begin(), runs->notes.begin(), runs->notes.end());
    return compareMatched(runs->baseline, runs->candidate, options, baselineLabel, candidateLabel, std::move(check));
}

std::vector<std::string> applyPairedResults(ComparisonReport& report,
                                            const std::map<std::string, PairedTaskResult>& paired) {
    std::vector<std::string> notes;
    for (const auto& [task, result] : paired) {
        // A named reference: Clang before 16 cannot capture a structured binding in a lambda.
        const std::string& name = task;
        auto row = std::find_if(report.tasks.begin(), report.tasks.end(),
                                [&](const TaskComparison& t) { return t.task == name; });
        if (row == report.tasks.end()) {
            notes.push_back("paired results for " + task + " left out: it is not a compared task");
            continue;
        }
        if (result.metric != row->metricName || result.filter != row->filter) {
            notes.push_back("paired results for " + task + " left out: they test " + result.metric + "," +
                            result.filter + ", the comparison uses " + row->metricName + "," + row->filter);
            continue;
        }
        PairedTaskResult checked = result;
        row->pairedLeftOut =
            recheckStoredPaired(checked, *row, report.thresholds, report.baselineLabel, report.candidateLabel);
        if (!row->pairedLeftOut.empty()) {
            row->paired.reset();
            notes.push_back("paired results for " + task + " left out: " + row->pairedLeftOut);
            continue;
        }
        row->paired = std::move(checked);
    }
    finish(report);
    return notes;
}

std::vector<std::string> applyControlRun(ComparisonReport& report, const LmEvalResults& control,
                                         const std::string& controlLabel) {
    std::vector<std::string> notes;
    report.controlLabel = controlLabel;
    for (auto& t : report.tasks) {
        t.noiseFloorPct.reset();
        const TaskResult* ct = control.task(t.task);
        const MetricValue* m = ct ? ct->find(t.metricName, t.filter) : nullptr;
        if (!m || !std::isfinite(m->value)) {
            notes.push_back("the control run (" + controlLabel + ") has no " + (ct ? t.metric + " for " : "") + t.task +
                            (ct && m ? " that is a finite number" : "") + ": no noise floor for it");
            continue;
        }
        if (t.baseline == 0) {
            notes.push_back(t.task + ": the baseline is 0, so the control's spread has no relative size");
            continue;
        }
        // The spread of two BF16 runs of the same setup: the change that means nothing (vllm PR #54705).
        t.noiseFloorPct = std::fabs(m->value - t.baseline) / std::fabs(t.baseline) * 100.0;
    }
    return notes;
}

}  // namespace fp8dash
