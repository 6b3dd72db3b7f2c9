#include "fp8dash/core/presentation_deck.h"
#include "fp8dash/core/long_context.h"
#include "fp8dash/core/number_format.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <map>

#include "fp8dash/core/capacity.h"
#include "fp8dash/core/kv_headline.h"
#include "fp8dash/core/kv_scales_advice.h"
#include "fp8dash/core/paired_tasks.h"
#include "fp8dash/core/report_format.h"
#include "fp8dash/core/time_series.h"
#include "fp8dash/core/variant_text.h"
#include "fp8dash/core/verdict_headline.h"
#include "report/changed_answers_report.h"
#include "report/presentation_variants.h"

namespace fp8dash {

namespace {

using numfmt::fixed;

// "×1.88"
std::string times(double ratio) {
    return "×" + fixed(ratio, 2);
}

using deck_variants::joined;  // presentation_variants.h

std::string withoutOrganisation(const std::string& model) {
    const auto slash = model.find_last_of('/');
    return slash == std::string::npos || slash + 1 >= model.size() ? model : model.substr(slash + 1);
}

std::string dateOf(const std::string& iso8601) {
    // "2026-11-29T..." -> "2026-11-29"; anything else is not a date this deck can trust.
    if (iso8601.size() >= 10 && iso8601[4] == '-' && iso8601[7] == '-') return iso8601.substr(0, 10);
    return {};
}

// "2026-11-28 12:22 UTC": formatTimeUtc without the seconds, which a slide does not need.
std::string minuteUtc(double unixSeconds) {
    std::string t = formatTimeUtc(unixSeconds);  // "2026-11-28 12:22:00 UTC"
    if (t.size() == 23 && t[16] == ':') t.erase(16, 3);
    return t;
}

// "12:22 UTC" when `t` falls on the day of `reference`, else the full minuteUtc.
std::string sameDayTime(double t, double reference) {
    const std::string a = minuteUtc(t), b = minuteUtc(reference);
    return a.size() > 11 && a.compare(0, 10, b, 0, 10) == 0 ? a.substr(11) : a;
}

std::string verdictWord(Verdict v) {
    return std::string(verdictName(v));
}

std::string labelOr(const std::string& label, const char* fallback) {
    return label.empty() ? std::string(fallback) : label;
}

std::string layerName(const std::string& layer) {
    if (layer == "qkv") return "QKV projection";
    if (layer == "o") return "output projection";
    if (layer == "gate_up") return "gate/up projection";
    if (layer == "down") return "down projection";
    return layer;
}

// ---- the steps

// The comparability check on the evals slide: how many tasks were not comparable (subtitle), its blocking
// differences (points, three at most) and the first of them for the presenter.
void addComparability(PresentationSlide& s, const ComparisonReport& r) {
    const auto notComparable = std::count_if(r.missing.begin(), r.missing.end(), [](const MissingTask& m) {
        return m.reason.starts_with("not comparable:");
    });
    if (notComparable > 0) s.subtitle += " (" + std::to_string(notComparable) + " not comparable)";
    std::size_t blocking = 0;
    for (const auto& item : r.comparability) {
        if (item.severity != ComparabilitySeverity::Blocking) continue;
        if (blocking == 0)
            s.talkingPoints +=
                std::string(r.allowIncomparable ? " Compared although not comparable: " : " Not comparable: ") +
                (item.task ? *item.task + ": " : "") + item.message + ".";
        if (++blocking <= 3) s.points.push_back(comparabilityLine(item));
    }
    if (blocking > 3) s.points.push_back("and " + std::to_string(blocking - 3) + " more (see the report)");
    if (blocking > 0 && r.allowIncomparable) s.subtitle += " · compared although not comparable";
}

std::optional<PresentationSlide> evalsSlide(const ComparisonDocument& doc, const Decision& decision) {
    if (!doc.hasEvals || !decision.evals || decision.evals->tasks.empty()) return std::nullopt;
    const ComparisonReport& r = *decision.evals;
    PresentationSlide s;
    s.step = PresentationStep::Evals;
    s.verdict = r.verdict;
    for (const TaskComparison& t : r.tasks) {
        s.tasks.push_back({t.task, t.metricName.empty() ? t.metric : t.metricName, t.baseline, t.candidate, t.deltaPct,
                           t.degradationPct, t.verdict, isFp8SensitiveTask(t.task), t.recoveryPct});
    }
    // Worst first: the verdict, then the degradation; the file order among equals.
    std::stable_sort(s.tasks.begin(), s.tasks.end(), [](const SlideTaskRow& a, const SlideTaskRow& b) {
        return worseFirst(a.verdict, a.degradationPct, b.verdict, b.degradationPct);
    });
    int counts[3] = {0, 0, 0};
    for (const SlideTaskRow& t : s.tasks) ++counts[static_cast<int>(t.verdict)];
    const int n = static_cast<int>(s.tasks.size());
    const SlideTaskRow& worst = s.tasks.front();
    const bool degrades = worst.degradationPct.value_or(0) > 0;

    if (degrades) {
        s.title = worst.task + " drops " + fixed(*worst.degradationPct, 2) + "%, the most of " + std::to_string(n) +
                  (n == 1 ? " task" : " tasks");
    } else {
        s.title = n == 1 ? "The task holds: no degradation" : "No task degrades: " + std::to_string(n) + " tasks hold";
    }
    std::vector<std::string> countParts;
    for (Verdict v : {Verdict::Go, Verdict::Monitor, Verdict::Investigate}) {
        if (counts[static_cast<int>(v)] > 0)
            countParts.push_back(std::to_string(counts[static_cast<int>(v)]) + " " + verdictWord(v));
    }
    s.subtitle = r.baselineLabel + " vs " + r.candidateLabel + ": " + joined(countParts, " · ");
    if (!r.missing.empty()) s.subtitle += " · " + std::to_string(r.missing.size()) + " not compared";

    s.figures.push_back(
        {"Worst task", formatPercent(worst.deltaPct), worst.task + " · " + worst.metric, worst.verdict});
    s.figures.push_back({"Within go", std::to_string(counts[0]) + " of " + std::to_string(n),
                         "degradation below " + fixed(r.thresholds.goBelow, 1) + "%",
                         counts[0] == n ? std::optional<Verdict>(Verdict::Go) : std::nullopt});
    // Beside the degradation, the figure model cards and LLM Compressor give.
    if (r.averageRecoveryPct)
        s.figures.push_back({"Average recovery", fixed(*r.averageRecoveryPct, 2) + "%",
                             "mean " + r.candidateLabel + " / mean " + r.baselineLabel + ", higher-is-better tasks",
                             std::nullopt});

    s.summary = degrades ? worst.task + " drops " + fixed(*worst.degradationPct, 2) + "%; " +
                               std::to_string(counts[0]) + " of " + std::to_string(n) + " tasks within go"
                         : "No task degrades (" + std::to_string(n) + (n == 1 ? " task)" : " tasks)");
    std::string talk =
        std::to_string(n) + (n == 1 ? " task compared: " : " tasks compared: ") + joined(countParts, ", ") + ". ";
    if (degrades) {
        talk += "Worst: " + worst.task + " at " + formatPercent(worst.deltaPct) + " (" + verdictWord(worst.verdict) +
                ")" + (worst.fp8Sensitive ? ", a task known to be FP8-sensitive (math, reasoning or code)" : "") + ".";
    } else {
        talk += "No task lost accuracy in FP8.";
    }
    s.talkingPoints = talk;
    addComparability(s, r);
    return s;
}

// One lost answer of the worst task that keeps one (the evals slide's order: verdict, then degradation), the first
// the file keeps of it; nullopt when no compared task keeps a lost answer.
std::optional<PresentationSlide> answerSlide(const ComparisonDocument& doc, const Decision& decision) {
    if (!doc.hasEvals || !decision.evals) return std::nullopt;
    const ComparisonReport& r = *decision.evals;
    std::vector<const TaskComparison*> tasks;
    for (const TaskComparison& t : r.tasks) tasks.push_back(&t);
    std::stable_sort(tasks.begin(), tasks.end(),
                     [](const TaskComparison* a, const TaskComparison* b) { return worseFirst(*a, *b); });
    for (const TaskComparison* t : tasks) {
        if (!t->paired || !t->paired->changed) continue;
        const PairedTaskResult& p = *t->paired;
        const auto e =
            std::find_if(p.examples.begin(), p.examples.end(), [](const ChangedAnswerExample& x) { return x.lost; });
        if (e == p.examples.end()) continue;
        const auto shortText = [](const std::string& text) {
            return answers_shown::excerpt(text, kSlideAnswerExcerptChars).text;
        };
        const std::string bl = labelOr(r.baselineLabel, "BF16"), cl = labelOr(r.candidateLabel, "FP8");
        PresentationSlide s;
        s.step = PresentationStep::ChangedAnswer;
        s.title = "One answer " + cl + " changed";
        s.subtitle = t->task + (e->subtask.empty() ? "" : " · " + e->subtask) + " · doc_id " +
                     std::to_string(e->docId) + " · right in " + bl + ", wrong in " + cl;
        SlideAnswer a;
        a.task = t->task;
        a.docId = e->docId;
        a.subtask = e->subtask;
        a.question = shortText(e->question);
        a.target = shortText(e->target);
        a.baseline = {bl, shortText(e->baseline.answer), shortText(e->baseline.response),
                      answers_shown::valueText(p, e->baseline.value), true};
        a.candidate = {cl, shortText(e->candidate.answer), shortText(e->candidate.response),
                       answers_shown::valueText(p, e->candidate.value), false};
        s.talkingPoints = t->task + ": " + changedAnswersSentence(*p.changed, cl) + ". One of them, doc_id " +
                          std::to_string(e->docId) + ": " + bl + " answered “" + a.baseline.answer + "”, " + cl + " “" +
                          a.candidate.answer + "” (target “" + a.target +
                          "”). One document is an example, not the evidence: the report lists more.";
        s.answer = std::move(a);
        return s;
    }
    return std::nullopt;
}

// Long context: degradation by context length (RULER and the like), one figure per length, the chart beside.
std::optional<PresentationSlide> longContextSlide(const ComparisonDocument& doc, const Decision& decision) {
    if (!doc.hasEvals || !decision.evals || !decision.evals->longContext) return std::nullopt;
    const ComparisonReport& r = *decision.evals;
    const LongContextSummary& lc = *r.longContext;
    PresentationSlide s;
    s.step = PresentationStep::LongContext;
    s.verdict = lc.verdict;
    const LengthComparison* worst = worstLength(lc.lengths);
    const std::string at = contextLengthLabel(lc.worstLength);
    const bool degrades = worst->degradationPct.value_or(0) > 0;
    s.title = degrades
                  ? "At " + at + " context, " + r.candidateLabel + " loses " + fixed(*worst->degradationPct, 2) + "%"
                  : "No context length degrades";
    s.subtitle = "Mean of " + std::to_string(lc.tasks) + " per-length task" + (lc.tasks == 1 ? "" : "s") +
                 " (RULER) at " + std::to_string(lc.lengths.size()) + " context length" +
                 (lc.lengths.size() == 1 ? "" : "s") + ", " + r.baselineLabel + " vs " + r.candidateLabel;
    for (const LengthComparison& l : lc.lengths)
        s.figures.push_back({contextLengthLabel(l.length), formatPercent(l.deltaPct),
                             "mean " + fixed(l.baseline, 3) + " → " + fixed(l.candidate, 3), l.verdict});
    s.charts = {"long-context"};
    s.summary = degrades ? "long context: " + at + " drops " + fixed(*worst->degradationPct, 2) + "%"
                         : "long context holds at every length";
    const LengthComparison& shortest = lc.lengths.front();
    s.talkingPoints = "Degradation by context length: " + fixed(shortest.degradationPct.value_or(0), 2) + "% at " +
                      contextLengthLabel(shortest.length) + ", " + fixed(worst->degradationPct.value_or(0), 2) +
                      "% at " + at + " (" + verdictWord(lc.verdict) + ")." +
                      (r.candidateConfig.kvCache && !r.candidateConfig.kvScales
                           ? " The FP8 KV cache runs with scales 1.0 (no calculated or calibrated scales): error grows "
                             "with the context; for scales, " +
                                 kvScalesAdvice() + "."
                           : std::string());
    return s;
}

std::optional<PresentationSlide> judgeSlide(const ComparisonDocument& doc, const Decision& decision) {
    if (!doc.judge || !decision.judge) return std::nullopt;
    const JudgeComparison& j = *decision.judge;
    const std::string b = labelOr(doc.baseline.label, "BF16");
    const std::string c = labelOr(doc.candidate.label, "FP8");
    const std::string scaleMax = fixed(j.scale.max, 0);
    PresentationSlide s;
    s.step = PresentationStep::Judge;
    s.verdict = j.verdict;
    s.title = j.degradationPct > 0 ? "The judge scores " + c + " " + fixed(j.degradationPct, 2) + "% lower"
                                   : "The judge scores " + c + " no lower than " + b;
    const std::uint64_t n = j.paired ? j.nPairs : std::min(j.nBaseline, j.nCandidate);
    s.subtitle = std::string("LLM-as-judge on the domain samples: ") +
                 (j.paired ? std::to_string(j.nPairs) + " paired samples"
                           : std::to_string(j.nBaseline) + " and " + std::to_string(j.nCandidate) + " samples") +
                 ", scale " + fixed(j.scale.min, 0) + "–" + scaleMax;
    s.figures.push_back({b + " mean", fixed(j.baselineMean, 2), "of " + scaleMax, std::nullopt});
    s.figures.push_back(
        {c + " mean", fixed(j.candidateMean, 2), "of " + scaleMax + " · " + formatPercent(j.deltaPct), std::nullopt});
    s.figures.push_back({"Degradation", fixed(j.degradationPct, 2) + "%",
                         std::string(verdictTitle(j.verdict)) + " · " + bandWords(j.confidence.confidence), j.verdict});
    s.charts = {"judge-distribution"};
    const std::string confidence = j.confidence.confidence == Confidence::Clear ? "band settled" : "band unsettled";
    s.summary = j.degradationPct > 0
                    ? "The judge scores " + c + " " + fixed(j.degradationPct, 2) + "% lower (" + confidence + ")"
                    : "The judge scores " + c + " no lower than " + b;
    std::string talk = "Judge mean " + fixed(j.baselineMean, 2) + " (" + b + ") vs " + fixed(j.candidateMean, 2) +
                       " (" + c + "): " + formatPercent(j.deltaPct) + ", " + verdictWord(j.verdict) + "; ";
    if (j.confidence.confidence == Confidence::Clear) {
        talk += "the 95% interval stays in one band, so " + std::to_string(n) + " samples are enough.";
    } else {
        talk +=
            "the band is unsettled at " + std::to_string(n) + " samples" +
            (j.confidence.samplesNeeded ? ", about " + std::to_string(*j.confidence.samplesNeeded) + " would settle it"
                                        : std::string()) +
            ".";
    }
    s.talkingPoints = talk;
    return s;
}

std::optional<PresentationSlide> timelineSlide(const ComparisonDocument& doc, const Decision& decision) {
    if (!doc.timeline) return std::nullopt;
    const TimelineData& data = *doc.timeline;
    const bool hasThroughput = data.throughput && !data.throughput->samples.empty();
    const bool hasQuality = data.quality && !data.quality->samples.empty();
    if (!hasThroughput && !hasQuality) return std::nullopt;
    const TimelineReport report = decision.timeline ? *decision.timeline : evaluateTimeline(data);
    const TimelineBands& bands = data.settings.bands;

    PresentationSlide s;
    s.step = PresentationStep::Timeline;
    s.verdict = report.verdict;
    s.charts = {"timeline"};

    const auto tp = report.throughput.deltaPct();
    const auto q = report.quality.deltaPoints();
    std::vector<const AlertEpisode*> fired;
    for (const AlertEpisode& a : report.alerts)
        if (a.firingAt && report.changeAt && *a.firingAt >= *report.changeAt) fired.push_back(&a);

    if (tp) {
        const Verdict level = *tp >= bands.throughputLowPct ? Verdict::Go : Verdict::Monitor;
        s.figures.push_back({"Throughput", formatPercent(*tp, 1),
                             fixed(*report.throughput.beforeMean, 0) + " → " + fixed(*report.throughput.afterMean, 0) +
                                 " tokens/s · expected +" + fixed(bands.throughputLowPct, 0) + "–" +
                                 fixed(bands.throughputHighPct, 0) + "%",
                             level});
    } else if (hasThroughput) {
        s.figures.push_back({"Throughput", "n/a",
                             report.changeAt ? "not enough samples on both sides of the change" : "no change time",
                             std::nullopt});
    }
    if (q) {
        std::optional<Verdict> level = Verdict::Go;
        if (*q < -bands.qualityProblem)
            level = Verdict::Investigate;
        else if (*q < -bands.qualityTolerance)
            level = Verdict::Monitor;
        char value[64];
        std::snprintf(value, sizeof value, "%+.2f", *q);
        s.figures.push_back({"Quality", std::string(value) + " points",
                             fixed(*report.quality.beforeMean, 2) + " → " + fixed(*report.quality.afterMean, 2) +
                                 " judge score · tolerance ±" + fixed(bands.qualityTolerance, 1),
                             level});
    } else if (hasQuality) {
        s.figures.push_back({"Quality", "n/a",
                             report.changeAt ? "not enough scores on both sides of the change" : "no change time",
                             std::nullopt});
    }
    if (hasQuality) {
        if (!fired.empty()) {
            const double after = (*fired.front()->firingAt - *report.changeAt) / 60;
            s.figures.push_back({"Quality alert",
                                 fired.size() == 1 ? "fired" : "fired " + std::to_string(fired.size()) + "×",
                                 fixed(after, 0) + (std::lround(after) == 1 ? " minute" : " minutes") +
                                     " after the switch, at " + sameDayTime(*fired.front()->firingAt, *report.changeAt),
                                 Verdict::Investigate});
        } else {
            s.figures.push_back({"Quality alert", report.changeAt ? "did not fire" : "not evaluated",
                                 report.changeAt ? "after the change" : "no change time",
                                 report.changeAt ? std::optional<Verdict>(Verdict::Go) : std::nullopt});
        }
    }

    // The title: the production news in one line.
    if (!fired.empty()) {
        s.title = "In production the quality alert fired after the switch";
    } else if (q && *q < -bands.qualityTolerance) {
        s.title = "In production quality fell " + fixed(-*q, 2) + " points after the switch";
    } else if (tp && q) {
        s.title = "In production throughput rose " + fixed(*tp, 0) + "%, quality held";
        if (*tp < 0) s.title = "In production throughput fell " + fixed(-*tp, 0) + "%, quality held";
    } else if (tp) {
        s.title = std::string("In production throughput ") + (*tp >= 0 ? "rose " : "fell ") + fixed(std::fabs(*tp), 0) +
                  "% after the switch";
    } else {
        s.title = "Production around the FP8 switch";
    }
    if (!fired.empty()) {
        s.summary = "The quality alert fired after the switch";
    } else if (q) {
        char buf[64];
        std::snprintf(buf, sizeof buf, "%+.2f", *q);
        s.summary = std::string("Quality ") + buf + " points after the switch" +
                    (tp ? ", throughput " + formatPercent(*tp, 1) : std::string());
    }
    if (tp && *tp > 0) s.gain = formatPercent(*tp, 1) + " throughput in production";
    s.subtitle = report.changeAt ? "FP8 went on at " + minuteUtc(*report.changeAt)
                                 : "The time FP8 went on is not set: no before/after comparison";

    std::vector<std::string> talk;
    if (tp)
        talk.push_back("throughput " + formatPercent(*tp, 1) + " after the switch (expected +" +
                       fixed(bands.throughputLowPct, 0) + "–" + fixed(bands.throughputHighPct, 0) + "%)");
    if (q) {
        char buf[64];
        std::snprintf(buf, sizeof buf, "%+.2f", *q);
        talk.push_back(std::string("judge quality ") + buf + " points (tolerance ±" + fixed(bands.qualityTolerance, 1) +
                       ", a real problem beyond −" + fixed(bands.qualityProblem, 1) + ")");
    }
    if (hasQuality && report.changeAt)
        talk.push_back(fired.empty() ? "the quality alert did not fire after the change"
                                     : "the quality alert fired at " + minuteUtc(*fired.front()->firingAt));
    if (talk.empty()) talk.push_back("no before/after figures: set the time FP8 went on");
    std::string line = joined(talk, "; ");
    line[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(line[0])));
    s.talkingPoints = line + ".";
    return s;
}

// The KV figure of the benchmarks slide: the headline with where it was measured, "synthetic cache" where it was, and
// scale 1.0's saturation; results of older fp8dash show their K/V rel RMSE and say they predate the new metric.
SlideFigure kvSlideFigure(const KvHeadline& h) {
    std::string detail = h.where + (h.synthetic ? " · synthetic cache" : " · the model's own K/V");
    if (h.legacy)
        return {"FP8 KV cache: K/V rel. RMSE", h.figure,
                detail +
                    " · saved before fp8dash measured the "
                    "attention-output error",
                std::nullopt};
    detail += " · E4M3 rounding alone: about 2–3 %";
    if (h.noneSaturated) detail += " · scale 1.0 saturates " + groupedDigits(*h.noneSaturated) + " values";
    return {"FP8 KV cache: attention-output error", h.figure, detail, std::nullopt};
}

std::string kvTalkingPoint(const KvHeadline& h) {
    const std::string where = " (" + h.where + (h.synthetic ? ", synthetic cache)" : ", the model's own K/V)");
    if (h.legacy)
        return "these KV results predate fp8dash's attention-output error: FP8 moves K and V by " + h.figure +
               " (relative RMSE)" + where + ", E4M3's rounding; run the benchmark again for the attention figures";
    std::string line = "an FP8 KV cache moves the attention output by " + h.figure + " RMS" + where +
                       "; E4M3's rounding alone moves K and V by about 2–3 %";
    if (h.noneSaturated)
        line +=
            "; without scales " + groupedDigits(*h.noneSaturated) + " values saturate, which is what costs accuracy";
    return line;
}

std::optional<PresentationSlide> benchmarksSlide(const ComparisonDocument& doc, const Decision& decision) {
    if (!doc.benchmarks) return std::nullopt;
    const Fp8Config* tested = variant_text::testedConfig(decision);
    const bool testedFp8Kv = !doc.hasEvals || (tested && tested->kvCache);
    const BenchResults& r = *doc.benchmarks;
    // The headline speedup: the linear layers of a decoder block (not the square stress case, default accumulation).
    const BenchGemmPoint* best = nullptr;
    double lo = 0;
    bool anyGemm = false;
    for (const BenchGemmPoint& p : r.gemm) {
        if (!p.skipped.empty()) continue;
        anyGemm = true;
        if (p.precision.rfind("fp8", 0) != 0 || p.fastAccum || p.layer == "square" || !(p.speedupVsBf16 > 0)) continue;
        if (!best || p.speedupVsBf16 > best->speedupVsBf16) best = &p;
        lo = lo == 0 ? p.speedupVsBf16 : std::min(lo, p.speedupVsBf16);
    }
    // The headline KV figure (kv_headline.h): per_tensor's attention-output error at its longest context.
    const std::optional<KvHeadline> kv = kvHeadline(r);
    if (!anyGemm && !kv) return std::nullopt;  // everything skipped: nothing to show

    PresentationSlide s;
    s.step = PresentationStep::Benchmarks;
    const std::string device = r.device.available && !r.device.name.empty() ? r.device.name : "the CPU (no GPU)";
    s.subtitle = "Measured on " + device + (r.model.empty() ? "" : " with the shapes of " + r.model) +
                 (dateOf(r.created).empty() ? "" : ", " + dateOf(r.created));
    if (best) {
        s.title = "FP8 matrix multiplies run up to " + times(best->speedupVsBf16) + " as fast as BF16";
        s.figures.push_back({"FP8 GEMM speedup", times(best->speedupVsBf16),
                             layerName(best->layer) + " at " + std::to_string(best->m) + " tokens per batch" +
                                 (lo < best->speedupVsBf16 ? " · lowest " + times(lo) : ""),
                             std::nullopt});
        s.charts.push_back("bench-speedup");
        s.gain = "matrix multiplies up to " + times(best->speedupVsBf16) + " as fast";
    } else {
        const std::string why = !r.gemmSkipped.empty() ? "needs a GPU" : anyGemm ? "no FP8/BF16 pair" : "not run";
        // The KV figure is a measurement of the codec; it is the tested configuration's cost only where that has an
        // FP8 KV cache.
        s.title = !kv           ? "Local GPU benchmarks"
                  : testedFp8Kv ? "What an FP8 KV cache costs in accuracy"
                                : "What an FP8 KV cache would cost in accuracy (not in the tested configuration)";
        s.figures.push_back({"FP8 GEMM speedup", "not measured", why, std::nullopt});
        if (anyGemm) s.charts.push_back("bench-roofline");
    }
    if (kv) {
        s.figures.push_back(kvSlideFigure(*kv));
        s.charts.push_back("bench-kv");
    }
    std::vector<std::string> talk;
    if (best)
        talk.push_back("on " + device + " FP8 GEMMs ran up to " + times(best->speedupVsBf16) + " BF16 (" +
                       layerName(best->layer) + ", " + std::to_string(best->m) + " tokens)");
    else
        talk.push_back("GEMM speed was not measured on " + device);
    if (kv) talk.push_back(kvTalkingPoint(*kv));
    if (kv && !testedFp8Kv) talk.push_back("the configuration tested in the evals has no FP8 KV cache");
    std::string line = joined(talk, "; ");
    line[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(line[0])));
    s.talkingPoints = line + ".";
    return s;
}

std::string dtypesText(const CapacityInputs& in) {
    if (in.weights == StorageDtype::Bf16 && in.kv == StorageDtype::Bf16) return "BF16";
    if (in.weights == in.kv) return "FP8";
    return std::string(in.weights == StorageDtype::Fp8 ? "FP8" : "BF16") + " weights, " +
           (in.kv == StorageDtype::Fp8 ? "FP8" : "BF16") + " KV";
}

std::optional<PresentationSlide> capacitySlide(const ComparisonDocument& doc, const Decision& decision,
                                               const LocalDeviceStatus* local) {
    if (!doc.capacity) return std::nullopt;
    auto plans = planCapacityComparison(*doc.capacity, local);
    if (!plans) return std::nullopt;  // e.g. "local" GPUs on a machine without them: nothing true to show
    const CapacityResult& bf = plans->bf16;
    const CapacityResult& sel = plans->selected;
    const std::string chosen = dtypesText(sel.inputs);
    const std::string context = groupedDigits(static_cast<unsigned long long>(sel.inputs.contextTokens));
    const std::string model = sel.inputs.model.fromConfigFile && !sel.inputs.model.hfRepo.empty()
                                  ? sel.inputs.model.hfRepo
                                  : sel.inputs.model.name;
    // What each variant buys comes from its own layers: settings with an FP8 KV cache the tested configuration lacks
    // say so instead of promising its tokens.
    const std::string untested =
        doc.hasEvals ? variant_text::untestedKvCacheNote(decision, sel.inputs.kv == StorageDtype::Fp8) : "";
    PresentationSlide s;
    s.step = PresentationStep::Capacity;
    s.subtitle = model + " on " + std::to_string(sel.inputs.gpus) + " × " + sel.inputs.gpu.displayName + ", " +
                 context + "-token sequences";
    const auto figure = [&](const std::string& label, const CapacityResult& r) {
        if (!r.fits) {
            std::string why = r.reason;  // "does not fit: the KV cache holds ..." -> "the KV cache holds ..."
            if (why.rfind("does not fit: ", 0) == 0) why.erase(0, 14);
            return SlideFigure{label, "does not fit", why, Verdict::Investigate};
        }
        return SlideFigure{label, groupedDigits(r.maxTokens),
                           "tokens · " + groupedDigits(r.maxSequences) +
                               (r.maxSequences == 1 ? " sequence" : " sequences") + " of " + context,
                           std::nullopt};
    };
    s.figures.push_back(figure("BF16", bf));
    const bool sameAsBf16 = sel.inputs.weights == StorageDtype::Bf16 && sel.inputs.kv == StorageDtype::Bf16;
    if (!sameAsBf16) s.figures.push_back(figure(chosen, sel));
    s.bars.push_back({"BF16", bf.fits ? static_cast<double>(bf.maxTokens) : 0,
                      bf.fits ? groupedDigits(bf.maxTokens) + " tokens" : "does not fit"});
    if (!sameAsBf16)
        s.bars.push_back({chosen, sel.fits ? static_cast<double>(sel.maxTokens) : 0,
                          sel.fits ? groupedDigits(sel.maxTokens) + " tokens" : "does not fit"});
    std::string talk;
    if (sameAsBf16) {
        s.title = "BF16 holds " + groupedDigits(bf.maxTokens) + " tokens of KV cache";
        talk = "The saved capacity settings are all BF16: " + groupedDigits(bf.maxTokens) +
               " tokens; choose FP8 in the Capacity view to show the gain.";
    } else if (bf.fits && sel.fits && bf.maxTokens > 0) {
        const double gain = static_cast<double>(sel.maxTokens) / static_cast<double>(bf.maxTokens);
        s.title = (sel.inputs.weights == StorageDtype::Fp8 && sel.inputs.kv == StorageDtype::Fp8 ? "FP8 fits "
                   : sel.inputs.kv == StorageDtype::Fp8 ? "An FP8 KV cache fits "
                                                        : "FP8 weights make room for ") +
                  times(gain) + " as many tokens as BF16";
        if (!untested.empty())  // the settings' FP8 KV cache is not what was tested: no promise of its tokens
            s.title = chosen + " would fit " + times(gain) + " as many tokens: its FP8 KV cache was not tested";
        else if (gain > 1)
            s.gain = times(gain) + " the KV-cache tokens";
        s.figures.push_back(
            {"Gain", times(gain),
             formatPercent((gain - 1) * 100, 0) + " tokens, " + (sel.maxSequences >= bf.maxSequences ? "+" : "") +
                 std::to_string(static_cast<long long>(sel.maxSequences) - static_cast<long long>(bf.maxSequences)) +
                 " sequences",
             gain > 1 ? std::optional<Verdict>(Verdict::Go) : std::nullopt});
        talk = "On " + std::to_string(sel.inputs.gpus) + " × " + sel.inputs.gpu.displayName + ", " + chosen +
               " holds " + groupedDigits(sel.maxTokens) + " tokens (" + groupedDigits(sel.maxSequences) +
               " sequences of " + context + ") against " + groupedDigits(bf.maxTokens) + " in BF16: " + times(gain) +
               ".";
    } else if (sel.fits) {
        s.title = chosen + " fits where BF16 does not";
        s.gain = "fits where BF16 does not";
        talk = "In BF16 the model does not fit (" + bf.reason + "); " + chosen + " holds " +
               groupedDigits(sel.maxTokens) + " tokens.";
    } else {
        s.title = "The model does not fit on this group";
        talk = chosen + ": " + sel.reason + ".";
    }
    if (sel.decode && sel.decode->fp8Speedup > 0)
        talk += " Bandwidth bound on decoding: FP8 up to " + times(sel.decode->fp8Speedup) + " BF16 tokens/s.";
    if (!untested.empty()) {
        std::string note = untested;
        note[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(note[0])));
        talk += " " + note + ".";
    }
    s.talkingPoints = talk;
    return s;
}

// `steps`: the step slides already built (between the cover and the verdict).
PresentationSlide verdictSlide(const ComparisonDocument& doc, const Decision& decision,
                               const std::vector<PresentationSlide>& steps) {
    PresentationSlide s;
    s.step = PresentationStep::Verdict;
    s.verdict = decision.verdict;
    // The first line as every medium words it (verdict_headline.h).
    const VerdictHeadline headline = verdictHeadline(decision);
    s.title = headline.title;
    s.subtitle = decision.verdict ? headline.advice()
                                  : "Nothing gives a verdict yet: the production timeline needs a quality series and "
                                    "the time FP8 went on.";
    s.headlineNotes = headline.notes();
    s.clean = headline.clean();
    // The reasons in stakeholder words: each step that gives a verdict, worst first (decision order among equals).
    std::vector<std::string> gains;
    for (const PresentationSlide& step : steps) {
        if (step.verdict && !step.summary.empty())
            s.figures.push_back({std::string(presentationStepName(step.step)), std::string(verdictTitle(*step.verdict)),
                                 step.summary, step.verdict});
        if (!step.gain.empty()) gains.push_back(step.gain);
    }
    std::stable_sort(s.figures.begin(), s.figures.end(),
                     [](const SlideFigure& a, const SlideFigure& b) { return *a.level > *b.level; });
    if (!gains.empty()) s.points.push_back(joined(gains, " · "));
    s.moreReasons = decision.reasons;

    std::string talk =
        decision.verdict ? "Overall " + headline.text() + ": " + headline.advice() : std::string("No verdict yet.");
    if (!s.figures.empty()) talk += " Main reason: " + s.figures.front().detail + ".";
    if (!gains.empty()) talk += " What FP8 buys: " + joined(gains, ", ") + ".";
    if (const ReviewDecision* d = doc.currentDecision()) {
        s.review = reviewSummary(*d);
        s.reviewOutcome = d->outcome;
        s.reviewWarnings = assessReview(*d, decision).warnings;
        talk += " Recorded decision: " + std::string(reviewOutcomeTitle(d->outcome)) +
                (d->variant ? " for " + *d->variant : std::string()) + (d->by.empty() ? "" : " by " + d->by) + ".";
    } else {
        talk += " No review decision is recorded yet: this is the moment to take one.";
    }
    s.talkingPoints = talk;
    return s;
}

PresentationSlide coverSlide(const ComparisonDocument& doc, const Decision& decision, const std::string& model,
                             const std::string& date) {
    PresentationSlide s;
    s.step = PresentationStep::Cover;
    s.title = "Should " + (model.empty() ? std::string("this deployment") : model) + " run in FP8?";
    s.subtitle = doc.title;
    const ComparisonReport* r = decision.evals && doc.hasEvals ? &*decision.evals : nullptr;
    if (r) {
        const auto run = [](const std::string& label, const Fp8Config& config) {
            return label + ": " + (config.model.empty() ? std::string("(model not recorded)") : config.model) + " — " +
                   fp8LayersSummary(config);
        };
        s.points.push_back(run(r->baselineLabel, r->baselineConfig));
        if (decision.variants) {
            // Several candidates: every one of them (the footer may shorten the list, the cover never does).
            for (const VariantResult& v : decision.variants->variants) s.points.push_back(run(v.label, v.config));
        } else {
            s.points.push_back(run(r->candidateLabel, r->candidateConfig));
        }
    } else {
        // No eval runs: name the sides the other evidence compares.
        s.points.push_back(labelOr(doc.baseline.label, "BF16") + " baseline vs " + labelOr(doc.candidate.label, "FP8") +
                           " candidate");
    }
    std::string talk = "The question: can " + (model.empty() ? std::string("the deployment") : model) +
                       " serve in FP8 (faster, more KV cache) without losing quality?";
    if (!date.empty()) talk += " Evidence collected " + date + ".";
    s.talkingPoints = talk;
    return s;
}

std::string modelOf(const ComparisonDocument& doc, const Decision& decision) {
    if (decision.evals && doc.hasEvals) {
        if (!decision.evals->baselineConfig.model.empty())
            return withoutOrganisation(decision.evals->baselineConfig.model);
        if (!decision.evals->candidateConfig.model.empty())
            return withoutOrganisation(decision.evals->candidateConfig.model);
    }
    if (doc.capacity && !doc.capacity->model.empty() && doc.capacity->model.find('/') == std::string::npos)
        return doc.capacity->model;
    if (doc.benchmarks && !doc.benchmarks->model.empty() && doc.benchmarks->model.find('/') == std::string::npos)
        return doc.benchmarks->model;
    return {};
}

}  // namespace

std::string_view presentationStepName(PresentationStep step) {
    switch (step) {
        case PresentationStep::Cover:
            return "Cover";
        case PresentationStep::Evals:
            return "Offline evals";
        case PresentationStep::Variants:
            return "Which FP8 layers to enable";
        case PresentationStep::LongContext:
            return "Long context";
        case PresentationStep::Judge:
            return "Domain judge";
        case PresentationStep::Timeline:
            return "Production timeline";
        case PresentationStep::Benchmarks:
            return "Local benchmarks";
        case PresentationStep::Capacity:
            return "KV-cache capacity";
        case PresentationStep::Verdict:
            return "Verdict";
        case PresentationStep::ChangedAnswer:
            return "Changed answer";
        case PresentationStep::LayerCosts:
            return "What each FP8 layer costs";
        case PresentationStep::Serving:
            return "What FP8 buys on your server";
    }
    return "";
}

std::optional<std::size_t> PresentationDeck::indexOf(PresentationStep step) const {
    for (std::size_t i = 0; i < slides.size(); ++i)
        if (slides[i].step == step) return i;
    return std::nullopt;
}

std::string groupedDigits(unsigned long long v) {
    std::string digits = std::to_string(v);
    std::string out;
    const std::size_t n = digits.size();
    for (std::size_t i = 0; i < n; ++i) {
        if (i > 0 && (n - i) % 3 == 0) out += ',';
        out += digits[i];
    }
    return out;
}

bool answerSlideByDefault(const Decision& decision) {
    return decision.verdict && *decision.verdict != Verdict::Go;
}

PresentationDeck buildPresentationDeck(const ComparisonDocument& doc, const Decision& decision,
                                       const LocalDeviceStatus* local, const PresentationOptions& options) {
    PresentationDeck deck;
    deck.model = modelOf(doc, decision);
    deck.date = dateOf(doc.created);
    if (decision.evals && doc.hasEvals) {
        deck.baselineLabel = labelOr(decision.evals->baselineLabel, "BF16");
        deck.candidateLabel = labelOr(decision.evals->candidateLabel, "FP8");
    } else {
        deck.baselineLabel = labelOr(doc.baseline.label, "BF16");
        deck.candidateLabel = labelOr(doc.candidate.label, "FP8");
    }
    deck.candidateLabels = {deck.candidateLabel};
    if (decision.variants && doc.hasEvals) {
        deck.candidateLabels.clear();
        for (const VariantResult& v : decision.variants->variants)
            deck.candidateLabels.push_back(labelOr(v.label, "FP8"));
    }
    deck.runs = variant_text::runsLineShort(deck.baselineLabel, deck.candidateLabels, kDeckRunsChars);
    deck.slides.push_back(coverSlide(doc, decision, deck.model, deck.date));
    const bool withAnswer = options.answerSlide.value_or(answerSlideByDefault(decision));
    for (auto slide :
         {evalsSlide(doc, decision), withAnswer ? answerSlide(doc, decision) : std::nullopt,
          deck_variants::variantsSlide(decision), deck_variants::layerCostsSlide(decision),
          deck_variants::servingSlide(decision), longContextSlide(doc, decision), judgeSlide(doc, decision),
          timelineSlide(doc, decision), benchmarksSlide(doc, decision), capacitySlide(doc, decision, local)}) {
        if (slide) deck.slides.push_back(std::move(*slide));
    }
    deck.slides.push_back(
        verdictSlide(doc, decision, std::vector<PresentationSlide>(deck.slides.begin() + 1, deck.slides.end())));

    // Notes: about a task -> the evals slide when there is one; everything else -> the cover.
    const auto evals = deck.indexOf(PresentationStep::Evals);
    for (const Note& note : doc.notes) {
        const std::size_t at = !note.task.empty() && evals ? *evals : 0;
        deck.slides[at].notes.push_back(note);
    }
    return deck;
}

}  // namespace fp8dash
