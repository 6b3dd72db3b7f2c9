// Renderings of a ComparisonReport. The JSON is a stable interface (README "JSON output"): add keys, never rename.
#include "fp8dash/core/report_format.h"
#include "fp8dash/core/lm_eval_paths.h"
#include "fp8dash/core/number_format.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "fp8dash/core/markdown_text.h"
#include "fp8dash/core/paired_tasks.h"
#include "fp8dash/core/serving_format.h"
#include "fp8dash/core/timeline.h"
#include "fp8dash/core/untrusted_text.h"
#include "fp8dash/core/variant_text.h"
#include "fp8dash/core/verdict_certainty.h"
#include "fp8dash/core/verdict_headline.h"
#include "report/long_context_format.h"
#include "report/report_text_parts.h"

namespace fp8dash {

namespace report_text {

using numfmt::general;

Json optionalNumber(const std::optional<double>& v) {
    return v ? Json(*v) : Json(nullptr);
}

std::size_t width(const std::string& s) {
    // A newline counts as the two columns of the \n that pad and wrapText show in its place (oneLine).
    return static_cast<std::size_t>(std::count_if(s.begin(), s.end(), [](char c) { return (c & 0xC0) != 0x80; }) +
                                    std::count(s.begin(), s.end(), '\n'));
}

std::string pad(const std::string& cell, std::size_t w, bool right) {
    const std::string s = oneLine(cell);  // a cell is one line, whatever the value holds
    const std::size_t n = width(s);
    if (n >= w) return s;
    return right ? std::string(w - n, ' ') + s : s + std::string(w - n, ' ');
}

std::string bulletLine(const std::string& bullet, const std::string& text) {
    std::string out = wrapText(text, 110, "    ");
    return "  " + bullet + " " + out.substr(4);
}

std::string thresholdsLine(const Thresholds& t) {
    return "go < " + general(t.goBelow) + "%, monitor " + general(t.goBelow) + "–" + general(t.investigateAbove) +
           "%, investigate > " + general(t.investigateAbove) + "%";
}

std::string modelLine(const Fp8Config& c) {
    std::string s = c.model.empty() ? "(model not recorded)" : c.model;
    std::string extra;
    if (!c.backend.empty()) extra += c.backend;
    if (!c.dtype.empty()) extra += (extra.empty() ? "" : ", ") + std::string("dtype ") + c.dtype;
    return extra.empty() ? s : s + " (" + extra + ")";
}

}  // namespace report_text

using report_text::bulletLine;
using report_text::modelLine;
using report_text::optionalNumber;
using report_text::pad;
using report_text::thresholdsLine;
using report_text::width;

namespace {

Json configToJson(const std::string& label, const Fp8Config& c) {
    return Json{{"label", label},
                {"model", c.model},
                {"backend", c.backend},
                {"dtype", c.dtype},
                {"quantization", c.quantization},
                {"weights_fp8", c.weights},
                {"weights_evidence", c.weightsEvidence},
                {"kv_cache_fp8", c.kvCache},
                {"kv_cache_dtype", c.kvCacheDtype},
                {"kv_scales", c.kvScales},
                {"kv_scales_evidence", c.kvScalesEvidence},
                {"activations_fp8", c.activations},
                {"params_billions", optionalNumber(c.paramsBillions)}};
}

Json taskToJson(const TaskComparison& t) {
    Json subtasks = Json::array();
    for (const auto& s : t.subtasks) subtasks.push_back(taskToJson(s));
    Json row{{"task", t.task},
             {"metric", t.metric},
             {"baseline", t.baseline},
             {"candidate", t.candidate},
             {"delta_pct", optionalNumber(t.deltaPct)},
             {"degradation_pct", optionalNumber(t.degradationPct)},
             {"higher_is_better", t.higherIsBetter},
             {"baseline_stderr", optionalNumber(t.baselineStderr)},
             {"candidate_stderr", optionalNumber(t.candidateStderr)},
             {"sigmas", optionalNumber(t.sigmas)},
             {"verdict", verdictName(t.verdict)},
             {"reason", t.reason},
             {"point_verdict", verdictName(t.pointVerdict)},
             {"n_samples", t.nSamples ? Json(*t.nSamples) : Json(nullptr)},
             {"paired", t.paired ? pairedToJson(*t.paired, false) : Json(nullptr)},
             {"changed_answers", changedAnswersToJson(t.paired ? &*t.paired : nullptr)},
             {"confidence", t.confidence ? Json(confidenceName(t.confidence->confidence)) : Json(nullptr)},
             {"samples_needed",
              t.confidence && t.confidence->samplesNeeded ? Json(*t.confidence->samplesNeeded) : Json(nullptr)},
             {"degradation_ci95_pct",
              t.confidence ? Json::array({t.confidence->lowPct, t.confidence->highPct}) : Json(nullptr)},
             {"confidence_explanation", t.confidence ? Json(t.confidence->explanation) : Json(nullptr)},
             {"equivalent", t.equivalence ? Json(t.equivalence->equivalent) : Json(nullptr)},
             {"equivalence_ci90_pct",
              t.equivalence ? Json::array({t.equivalence->lowPct, t.equivalence->highPct}) : Json(nullptr)},
             {"noise_floor_pct", optionalNumber(t.noiseFloorPct)},
             {"subtasks", std::move(subtasks)},
             {"subtasks_not_compared", t.subtasksNotCompared}};
    if (!t.byLength.empty()) row["by_length"] = byLengthToJson(t.byLength, t.byLengthFromSubtasks);
    if (!t.pairedLeftOut.empty())
        row["paired_left_out"] = t.pairedLeftOut;  // only then: other outputs stay as they were
    return row;
}

// The clamped degradation interval: [max(0, low), max(0, high)] of the loss, so that it holds degradation_pct.
Json degradationInterval(const ConfidenceAnswer& a) {
    return Json::array({std::max(0.0, a.lowPct), std::max(0.0, a.highPct)});
}

// The fields of one sign convention, the statements chosen from the intervals, samples needed and recovery (added
// to each task row; the keys before them keep their meaning). delta_ci95_pct is the 95 % interval of delta_pct
// (-loss where higher is better), change what it says; decidable: whether more samples (up to the task's size) can
// settle the band (null when no sample count is known).
void addStatementFields(Json& j, const TaskComparison& t) {
    j["degradation_ci95_pct"] = t.confidence ? degradationInterval(*t.confidence) : Json(nullptr);
    Json deltaCi(nullptr);
    if (t.confidence)
        deltaCi = t.higherIsBetter ? Json::array({-t.confidence->highPct + 0.0, -t.confidence->lowPct + 0.0})
                                   : Json::array({t.confidence->lowPct, t.confidence->highPct});
    j["delta_ci95_pct"] = std::move(deltaCi);
    j["change"] = t.confidence ? Json(changeFindingName(t.confidence->change)) : Json(nullptr);
    j["decidable"] = t.confidence && t.confidence->decidable ? Json(*t.confidence->decidable) : Json(nullptr);
    j["equivalence_statement"] =
        t.equivalence ? Json(equivalenceStatement(*t.equivalence, t.higherIsBetter)) : Json(nullptr);
    j["recovery_pct"] = optionalNumber(t.recoveryPct);
    if (j.contains("subtasks"))
        for (std::size_t i = 0; i < t.subtasks.size() && i < j["subtasks"].size(); ++i)
            addStatementFields(j["subtasks"][i], t.subtasks[i]);
}

using numfmt::fixed;
using numfmt::general;

struct Row {
    std::vector<std::string> cells;
};

// The columns from the baseline's value to ±σ are numbers, right-aligned.
constexpr std::size_t kLastNumberColumn = 7;

constexpr const char* kRecoveryScope = " (mean candidate / mean baseline over the compared higher-is-better tasks)";

constexpr const char* kSubtaskLegend =
    "Indented rows are a group's subtasks: shown, not counted toward the verdict (their verdicts in parentheses).";

bool anySubtasks(const ComparisonReport& r) {
    return std::any_of(r.tasks.begin(), r.tasks.end(), [](const TaskComparison& t) { return !t.subtasks.empty(); });
}

// Which optional columns a report needs: a confidence column when any row has an answer, paired results and the
// noise floor when any task has them.
struct Columns {
    bool confidence = false;
    bool paired = false;
    bool noise = false;
    explicit Columns(const ComparisonReport& r) {
        for (const auto& t : r.tasks) {
            confidence |= t.confidence.has_value();
            paired |= t.paired.has_value() || !t.pairedLeftOut.empty();
            noise |= t.noiseFloorPct.has_value();
        }
    }
};

std::string confidenceCell(const TaskComparison& t) {
    if (!t.confidence) return "n/a";
    if (t.confidence->confidence == Confidence::Clear) return "settled";
    if (t.confidence->samplesNeeded) return "unsettled (n≈" + std::to_string(*t.confidence->samplesNeeded) + ")";
    // More samples than the task has, or the estimate on the edge: no count would decide it.
    return t.confidence->decidable == false ? "unsettled (too close to settle)" : "unsettled";
}

std::string pValue(double p) {
    char buf[32];
    std::snprintf(buf, sizeof buf, p < 0.001 ? "%.1e" : "%.3g", p);
    return buf;
}

std::string pairedCell(const TaskComparison& t) {
    if (!t.pairedLeftOut.empty()) return "left out (see below)";
    if (!t.paired) return "";
    const PairedTaskResult& p = *t.paired;
    if (p.test == "none") return "no pairs";
    std::string s = "p=" + pValue(p.pValue);
    if (p.binary)
        s += " (" + std::to_string(p.b10) + " lost, " + std::to_string(p.b01) + " won)";
    else
        s += " (Wilcoxon)";
    return s;
}

void flatten(const TaskComparison& t, const std::string& parent, int depth, const Columns& cols,
             std::vector<Row>& rows) {
    Row row{
        {std::string(static_cast<std::size_t>(depth) * 2, ' ') + (depth ? "- " : "") + taskNameUnder(t.task, parent),
         t.metric, fixed(t.baseline, 4), fixed(t.candidate, 4), formatPercent(t.deltaPct, 3),
         t.degradationPct ? fixed(*t.degradationPct, 3) + "%" : "n/a",
         t.recoveryPct ? fixed(*t.recoveryPct, 2) + "%" : "n/a", formatSigmas(t.sigmas)}};
    if (cols.confidence) row.cells.push_back(depth ? "" : confidenceCell(t));
    if (cols.paired) row.cells.push_back(pairedCell(t));
    if (cols.noise) row.cells.push_back(t.noiseFloorPct ? fixed(*t.noiseFloorPct, 3) + "%" : "");
    // A group's subtask is shown, not counted: its verdict in parentheses (the legend under the table says so).
    row.cells.push_back(depth ? "(" + std::string(verdictName(t.verdict)) + ")" : std::string(verdictTitle(t.verdict)));
    rows.push_back(std::move(row));
    for (const auto& s : t.subtasks) flatten(s, t.task, depth + 1, cols, rows);
}

std::vector<std::string> headerCells(const ComparisonReport& r, const Columns& cols) {
    std::vector<std::string> h{"Task", "Metric",      r.baselineLabel, r.candidateLabel,
                               "Δ%",   "Degradation", "Recovery",      "±σ"};
    if (cols.confidence) h.push_back("95% confidence");
    if (cols.paired) h.push_back("Paired test");
    if (cols.noise) h.push_back("Noise floor");
    h.push_back("Verdict");
    return h;
}

// The band a clear interval lies in (verdictForDegradation of its lower end, an improvement counting as go).
Verdict clearBand(const ConfidenceAnswer& a, const Thresholds& t) {
    return verdictForDegradation(std::max(0.0, a.lowPct), t);
}

std::string pct3(double v, bool sign) {
    char buf[64];
    std::snprintf(buf, sizeof buf, sign ? "%+.3f%%" : "%.3f%%", v + 0.0);
    return buf;
}

// What the confidence answer says, in a few words chosen from its interval.
std::string confidenceWords(const TaskComparison& t, const Thresholds& th) {
    const ConfidenceAnswer& a = *t.confidence;
    const double lo = t.higherIsBetter ? -a.highPct : a.lowPct, hi = t.higherIsBetter ? -a.lowPct : a.highPct;
    // The interval's own estimate: the paired Δ over the documents both logs hold when the logs were paired.
    const bool paired = t.paired && t.paired->deltaPct && t.paired->deltaPctCi;
    std::string s = "Δ " + formatPercent(paired ? t.paired->deltaPct : t.deltaPct, 3) + " (" +
                    (paired ? "paired, " : "") + "95%: " + pct3(lo, true) + " to " + pct3(hi, true) + "), " +
                    changeFindingWords(a.change) + "; ";
    if (a.confidence == Confidence::Clear)
        return s + "settled, inside the " + std::string(verdictName(clearBand(a, th))) + " band";
    s += "unsettled, the degradation (" + pct3(std::max(0.0, a.lowPct), false) + " to " +
         pct3(std::max(0.0, a.highPct), false) + ") crossing a band edge";
    if (a.samplesNeeded) return s + "; about " + groupedCount(*a.samplesNeeded) + " samples would settle it";
    if (a.decidable == false && a.taskSize)
        return s + "; more samples than the task has (" + groupedCount(*a.taskSize) +
               "): too close to the band edge to decide";
    if (a.decidable == false) return s + "; the estimate sits on the edge itself";
    return s;
}

// One line per task on the statistics behind its confidence answer (the method is said once, statisticsMethod):
// the interval and what it says, the equivalence check, the paired test; then the answers the candidate changed
// (changedAnswersSentence); each paired-test warning on its own line.
std::vector<std::string> statisticsLines(const TaskComparison& t, const Thresholds& th,
                                         const std::string& candidateLabel) {
    std::vector<std::string> out;
    std::vector<std::string> parts;
    if (t.confidence) parts.push_back(confidenceWords(t, th));
    if (t.equivalence) parts.push_back(equivalenceStatement(*t.equivalence, t.higherIsBetter));
    if (t.paired) parts.push_back("paired: " + t.paired->summary);
    const std::string leftOut =
        t.pairedLeftOut.empty() ? ""
                                : t.task + ": ⚠ the paired statistics given for it were left out: " + t.pairedLeftOut;
    if (parts.empty()) {
        if (!leftOut.empty()) out.push_back(leftOut);
        return out;
    }
    std::string line = t.task + ": ";
    for (std::size_t i = 0; i < parts.size(); ++i) line += (i ? "; " : "") + parts[i];
    out.push_back(line + ".");
    if (t.paired && t.paired->changed && t.paired->changed->n() > 0)
        out.push_back(t.task + ": " + changedAnswersSentence(*t.paired->changed, candidateLabel) + ".");
    if (t.paired)
        for (const auto& w : t.paired->warnings) out.push_back(t.task + ": ⚠ " + w);
    if (!leftOut.empty()) out.push_back(leftOut);
    return out;
}

std::string statisticsMethodText(const ComparisonReport& r) {
    bool paired = false, unpaired = false;
    for (const auto& t : r.tasks) {
        if (!t.confidence) continue;
        if (t.paired && t.paired->deltaPctCi)
            paired = true;
        else
            unpaired = true;
    }
    std::string s = "Method: Δ = (" + r.candidateLabel + " − " + r.baselineLabel + ") / |" + r.baselineLabel +
                    "| × 100; its 95% interval comes from ";
    if (paired) s += "the paired test of the sample logs (a seeded bootstrap of the per-document differences)";
    if (paired && unpaired) s += " where they were paired, else from ";
    if (unpaired) s += "lm-eval's standard errors (Δ ± 1.96·√(se_b² + se_c²) / |baseline|, unpaired)";
    char margin[32];
    std::snprintf(margin, sizeof margin, "%g", r.thresholds.goBelow);
    return s +
           ". A significant drop or improvement: the interval excludes 0. Settled: the interval's degradation lies "
           "in one verdict band; unsettled: it crosses a band edge, with the samples that would settle it at "
           "the observed variance, never more than the task has. Equivalence: the 90% interval of Δ lies inside "
           "±" +
           margin + "% (two one-sided tests).";
}

std::string layerWord(bool on) {
    return on ? "FP8" : "not FP8";
}

}  // namespace

std::string formatPercent(std::optional<double> pct, int decimals) {
    if (!pct) return "n/a";
    char buf[64];
    std::snprintf(buf, sizeof buf, "%+.*f%%", decimals, *pct);
    return buf;
}

std::string formatSigmas(std::optional<double> sigmas) {
    if (!sigmas) return "n/a";
    return numfmt::signedFixed(*sigmas, 1) + "σ";  // "0.0σ" where it rounds to zero: never "-0.0σ"
}

std::string readableMetric(const std::string& metricName, const std::string& filter) {
    const auto spaced = [](std::string text) {
        std::replace(text.begin(), text.end(), '_', ' ');
        std::replace(text.begin(), text.end(), '-', ' ');
        return text;
    };
    std::string name = metricName;
    std::vector<std::string> qualifiers;
    // lm-eval's length-normalised variants: "acc_norm" is acc, normalised.
    const std::string norm = "_norm";
    if (name.size() > norm.size() && name.compare(name.size() - norm.size(), norm.size(), norm) == 0) {
        name.resize(name.size() - norm.size());
        qualifiers.push_back("norm");
    }
    if (name == "em") name = "exact match";
    // The filters lm-eval ships, by what they keep: the strict answer format or a flexible extraction.
    if (filter == "strict-match")
        qualifiers.push_back("strict");
    else if (filter == "flexible-extract")
        qualifiers.push_back("flexible");
    else if (!filter.empty() && filter != "none")
        qualifiers.push_back(spaced(filter));
    std::string out = spaced(name);
    for (std::size_t i = 0; i < qualifiers.size(); ++i) out += (i ? ", " : " (") + qualifiers[i];
    return qualifiers.empty() ? out : out + ")";
}

std::string wrapText(const std::string& paragraph, std::size_t columns, const std::string& indent) {
    const std::string text = oneLine(paragraph);  // one paragraph: a line break from a value is shown, not made
    std::string out, line;
    std::size_t start = 0;
    auto flush = [&] {
        out += indent + line + "\n";
        line.clear();
    };
    while (start < text.size()) {
        auto end = text.find(' ', start);
        if (end == std::string::npos) end = text.size();
        const std::string word = text.substr(start, end - start);
        if (!line.empty() && width(indent) + width(line) + 1 + width(word) > columns) flush();
        line += (line.empty() ? "" : " ") + word;
        start = end + 1;
    }
    if (!line.empty() || out.empty()) flush();
    return out;
}

std::string fp8LayersSummary(const Fp8Config& c) {
    std::string s = "weights " + layerWord(c.weights);
    s += " · KV cache " + (c.kvCache ? "FP8 (" + c.kvCacheDtype + (c.kvScales ? ", with scales" : ", no scales") + ")"
                                     : std::string("not FP8"));
    s += " · activations " + layerWord(c.activations);
    return s;
}

namespace {

// The comparability check's findings (comparability.h), after "Not compared"; nothing when there are none.
std::string comparabilityText(const ComparisonReport& r) {
    if (r.comparability.empty()) return "";
    std::string out = "\nComparability\n";
    for (const auto& item : r.comparability) out += wrapText(comparabilityLine(item), 110, "  ");
    return out;
}

std::string comparabilityMarkdown(const ComparisonReport& r) {
    if (r.comparability.empty()) return "";
    std::string out = "\n### Comparability\n\n";
    for (const auto& item : r.comparability) out += "- " + markdown::escape(comparabilityLine(item)) + "\n";
    return out;
}

}  // namespace

Json reportToJson(const ComparisonReport& r) {
    Json tasks = Json::array();
    for (const auto& t : r.tasks) {
        tasks.push_back(taskToJson(t));
        addStatementFields(tasks.back(), t);
    }
    Json missing = Json::array();
    for (const auto& m : r.missing) missing.push_back({{"task", m.task}, {"reason", m.reason}});
    Json risks = Json::array();
    for (const auto& f : r.risks) risks.push_back({{"kind", f.kind}, {"subject", f.subject}, {"message", f.message}});
    Json out{{"verdict", verdictName(r.verdict)},
             {"advice", verdictAdvice(r.verdict)},
             {"reasons", r.reasons},
             {"cautious", r.cautious},
             {"control", r.controlLabel.empty() ? Json(nullptr) : Json(r.controlLabel)},
             {"thresholds", {{"go_below", r.thresholds.goBelow}, {"investigate_above", r.thresholds.investigateAbove}}},
             {"tasks", std::move(tasks)},
             {"missing", std::move(missing)},
             {"risks", std::move(risks)},
             {"runs",
              {{"baseline", configToJson(r.baselineLabel, r.baselineConfig)},
               {"candidate", configToJson(r.candidateLabel, r.candidateConfig)}}},
             {"average_recovery_pct", optionalNumber(r.averageRecoveryPct)}};
    out["long_context"] = longContextToJson(r.longContext);  // null without per-length tasks
    out["comparability"] = comparabilityToJson(r.comparability);
    return out;
}

std::string reportToText(const ComparisonReport& r) {
    std::string out;
    // Wrapped to 110 columns like every line outside the table (continuations indented).
    out += wrapText("Verdict: " + std::string(verdictTitle(r.verdict)) + " — " + std::string(verdictAdvice(r.verdict)),
                    110, "  ")
               .substr(2);
    for (const auto& reason : r.reasons) out += bulletLine("•", reason);
    out += wrapText("How sure: " + verdictCertainty(r).sentence() + ".", 110, "  ");
    if (r.averageRecoveryPct)
        out += "  Average recovery: " + fixed(*r.averageRecoveryPct, 2) + "%" + kRecoveryScope + "\n";

    out += "\nRuns\n";
    const std::size_t lw = std::max(width(r.baselineLabel), width(r.candidateLabel));
    for (const auto* side : {&r.baselineConfig, &r.candidateConfig}) {
        const std::string& label = side == &r.baselineConfig ? r.baselineLabel : r.candidateLabel;
        out += "  " + pad(label, lw) + "  " + oneLine(modelLine(*side)) + "\n";
        out += "  " + pad("", lw) + "  " + fp8LayersSummary(*side) + "\n";
    }

    out += "\nTasks (" + thresholdsLine(r.thresholds) + (r.cautious ? "; cautious policy" : "") + ")\n";
    const Columns cols(r);
    std::vector<Row> rows;
    rows.push_back({headerCells(r, cols)});
    for (const auto& t : r.tasks) flatten(t, "", 0, cols, rows);
    std::vector<std::size_t> widths(rows.front().cells.size(), 0);
    for (const auto& row : rows)
        for (std::size_t i = 0; i < row.cells.size(); ++i) widths[i] = std::max(widths[i], width(row.cells[i]));
    for (const auto& row : rows) {
        std::string line = " ";
        for (std::size_t i = 0; i < row.cells.size(); ++i) {
            line += ' ';  // appended piecewise: GCC 12 warns falsely (-Wrestrict) on " " + std::string
            line += pad(row.cells[i], widths[i], i >= 2 && i <= kLastNumberColumn);
        }
        out += line.substr(0, line.find_last_not_of(' ') + 1) + "\n";
    }
    if (anySubtasks(r)) out += wrapText(kSubtaskLegend, 110, "  ");
    if (cols.noise)
        out += wrapText("Noise floor: |" + r.controlLabel + " − " + r.baselineLabel + "| / " + r.baselineLabel +
                            ", the spread of two runs of the same BF16 setup; a delta inside it is noise.",
                        110, "  ");
    out += longContextText(r);

    std::vector<std::string> stats;
    for (const auto& t : r.tasks)
        for (auto& line : statisticsLines(t, r.thresholds, r.candidateLabel)) stats.push_back(std::move(line));
    if (!stats.empty()) {
        out += "\nStatistics\n" + wrapText(statisticsMethodText(r), 110, "  ");
        for (const auto& line : stats) out += bulletLine("-", line);
    }

    if (!r.missing.empty()) {
        out += "\nNot compared\n";
        for (const auto& m : r.missing) out += wrapText(m.task + ": " + m.reason, 110, "  ");
    }
    out += comparabilityText(r);
    if (!r.risks.empty()) {
        out += "\nRisk flags\n";
        for (const auto& f : r.risks) out += bulletLine("!", f.message);
    }
    return out;
}

std::string reportToMarkdown(const ComparisonReport& r) {
    using markdown::Where;
    const auto esc = [](std::string_view text) { return markdown::escape(text); };
    const auto cellText = [](std::string_view text) { return markdown::escape(text, Where::TableCell); };
    std::string out;
    out += "## Verdict: **" + std::string(verdictTitle(r.verdict)) + "**\n\n";
    out += esc(verdictAdvice(r.verdict)) + "\n\n";
    for (const auto& reason : r.reasons) out += "- " + esc(reason) + "\n";
    out += "\n**How sure:** " + esc(verdictCertainty(r).sentence()) + ".\n";
    if (r.averageRecoveryPct)
        out += "\nAverage recovery: **" + fixed(*r.averageRecoveryPct, 2) + "%**" + kRecoveryScope + "\n";
    std::vector<std::vector<std::string>> runs;
    for (const auto* side : {&r.baselineConfig, &r.candidateConfig}) {
        const std::string& label = side == &r.baselineConfig ? r.baselineLabel : r.candidateLabel;
        runs.push_back({cellText(label), cellText(modelLine(*side)), layerWord(side->weights),
                        side->kvCache ? "FP8 (" + cellText(side->kvCacheDtype) +
                                            (side->kvScales ? ", with scales)" : ", no scales)")
                                      : std::string("not FP8"),
                        layerWord(side->activations)});
    }
    out += "\n### Runs\n\n" + markdown::table({"Run", "Model", "Weights", "KV cache", "Activations"}, {}, runs);
    out += "\n### Tasks\n\n" +
           esc("Thresholds: " + thresholdsLine(r.thresholds) + (r.cautious ? "; cautious policy" : "") + ".") + "\n\n";
    const Columns cols(r);
    const auto header = headerCells(r, cols);
    std::vector<markdown::Align> align(header.size(), markdown::Align::Left);
    for (std::size_t i = 2; i <= kLastNumberColumn && i < align.size(); ++i) align[i] = markdown::Align::Right;
    std::vector<Row> rows;
    for (const auto& t : r.tasks) flatten(t, "", 0, cols, rows);
    std::vector<std::vector<std::string>> cells;
    for (const auto& row : rows) {
        std::vector<std::string> line;
        for (std::size_t i = 0; i < row.cells.size(); ++i) {
            std::string cell = row.cells[i];
            if (i == 0) {  // indentation is invisible in Markdown tables; keep the depth with a marker
                const auto lead = cell.find_first_not_of(' ');
                const std::size_t depth = lead / 2;
                cell.clear();
                for (std::size_t d = 0; d < depth; ++d) cell += "↳ ";
                cell += row.cells[i].substr(lead + (depth ? 2 : 0));
            }
            line.push_back(cellText(cell));
        }
        cells.push_back(std::move(line));
    }
    out += markdown::table(header, align, cells);
    if (anySubtasks(r)) out += "\n" + esc(kSubtaskLegend) + "\n";
    if (cols.noise)
        out += "\n" +
               esc("Noise floor: |" + r.controlLabel + " − " + r.baselineLabel + "| / " + r.baselineLabel +
                   ", the spread of two runs of the same BF16 setup; a delta inside it is noise.") +
               "\n";
    out += longContextMarkdown(r);
    std::vector<std::string> stats;
    for (const auto& t : r.tasks)
        for (auto& line : statisticsLines(t, r.thresholds, r.candidateLabel)) stats.push_back(std::move(line));
    if (!stats.empty()) {
        out += "\n### Statistics\n\n" + esc(statisticsMethodText(r)) + "\n\n";
        for (const auto& line : stats) out += "- " + esc(line) + "\n";
    }
    if (!r.missing.empty()) {
        out += "\n### Not compared\n\n";
        for (const auto& m : r.missing) out += "- " + markdown::code(m.task) + ": " + esc(m.reason) + "\n";
    }
    out += comparabilityMarkdown(r);
    if (!r.risks.empty()) {
        out += "\n### Risk flags\n\n";
        for (const auto& f : r.risks) out += "- ⚠ " + esc(f.message) + "\n";
    }
    return out;
}

namespace {

// A histogram as one line of block characters, scaled to the larger side's tallest bin so both lines compare.
std::string sparkline(const std::vector<std::uint64_t>& bins, std::uint64_t tallest) {
    static const char* const kBlocks[] = {"·", "▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"};
    std::string out;
    for (auto b : bins) {
        const int level =
            tallest == 0 || b == 0
                ? 0
                : std::max(1,
                           static_cast<int>(std::lround(8.0 * static_cast<double>(b) / static_cast<double>(tallest))));
        out += kBlocks[level];
    }
    return out;
}

std::string countsLine(const std::vector<std::uint64_t>& bins) {
    std::string out;
    for (auto b : bins) out += (out.empty() ? "" : " ") + std::to_string(b);
    return out;
}

std::string signedPct(double v, int decimals = 2) {
    return formatPercent(v, decimals);
}

std::string plainPct(double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.2f%%", v + 0.0);
    return buf;
}

// A kept field of a drop, shortened for one line: the prompt, else the question.
std::string dropExcerpt(const JudgeDrop& d) {
    for (const char* key : {"prompt", "question", "input"}) {
        auto it = d.baselineFields.find(key);
        if (it == d.baselineFields.end() || !it->is_string()) continue;
        std::string text = it->get<std::string>();
        for (char& c : text)
            if (c == '\n' || c == '\r' || c == '\t') c = ' ';
        if (width(text) > 60) {
            std::size_t cut = 0, cols = 0;
            while (cut < text.size() && cols < 57) {
                ++cut;
                while (cut < text.size() && (text[cut] & 0xC0) == 0x80) ++cut;
                ++cols;
            }
            text = text.substr(0, cut) + "...";
        }
        return text;
    }
    return "";
}

struct JudgeLines {
    std::vector<std::pair<std::string, std::string>> facts;  // label, value
    std::vector<std::string> distribution;                   // header, baseline, candidate
    std::vector<std::string> drops;
};

JudgeLines judgeLines(const JudgeComparison& c, const std::string& bl, const std::string& cl) {
    JudgeLines out;
    char buf[256];
    std::snprintf(buf, sizeof buf, "%s %.3f (n=%llu), %s %.3f (n=%llu)", bl.c_str(), c.baselineMean,
                  static_cast<unsigned long long>(c.nBaseline), cl.c_str(), c.candidateMean,
                  static_cast<unsigned long long>(c.nCandidate));
    out.facts.emplace_back("Mean score", buf);
    out.facts.emplace_back(
        "Samples", c.paired ? std::to_string(c.nPairs) + " paired by id" +
                                  (c.onlyInBaseline.empty() && c.onlyInCandidate.empty()
                                       ? ""
                                       : " (" + std::to_string(c.onlyInBaseline.size()) + " only in " + bl + ", " +
                                             std::to_string(c.onlyInCandidate.size()) + " only in " + cl + ")")
                            : std::string("unpaired (no ids): two independent samples"));
    out.facts.emplace_back("Degradation", plainPct(c.degradationPct) + " (Δ " + signedPct(c.deltaPct) +
                                              "); 95% interval " + plainPct(c.confidence.lowPct) + " to " +
                                              plainPct(c.confidence.highPct));
    std::snprintf(buf, sizeof buf, "%+.3f points, 95%% interval %+.3f to %+.3f (seeded bootstrap)", c.meanDiff,
                  c.meanDiffCi.low, c.meanDiffCi.high);
    out.facts.emplace_back("Mean difference", buf);
    out.facts.emplace_back("Test", std::string(c.testName == "wilcoxon" ? "Wilcoxon signed-rank" : "Mann-Whitney U") +
                                       (c.test.exact ? " (exact)" : " (normal approximation)") +
                                       ", p = " + pValue(c.test.pValue));
    out.facts.emplace_back(
        "Confidence", std::string(bandWords(c.confidence.confidence)) +
                          (c.confidence.samplesNeeded
                               ? " (about " + std::to_string(*c.confidence.samplesNeeded) + " samples would settle it)"
                               : std::string()));
    // Chosen from the interval (equivalenceStatement), without its leading "equivalence ".
    out.facts.emplace_back("Equivalence",
                           equivalenceStatement(c.equivalence).substr(std::string("equivalence ").size()));
    out.facts.emplace_back("Verdict", std::string(verdictTitle(c.verdict)) + " — " + c.reason);

    if (!c.baselineDistribution.empty()) {
        const std::uint64_t tallest =
            std::max(*std::max_element(c.baselineDistribution.begin(), c.baselineDistribution.end()),
                     *std::max_element(c.candidateDistribution.begin(), c.candidateDistribution.end()));
        out.distribution.push_back(
            "scores " + std::to_string(c.distributionFrom) + ".." +
            std::to_string(c.distributionFrom + static_cast<int>(c.baselineDistribution.size()) - 1));
        const std::size_t lw = std::max(width(bl), width(cl)) + 1;
        out.distribution.push_back(pad(bl + ":", lw) + " " + sparkline(c.baselineDistribution, tallest) + "  " +
                                   countsLine(c.baselineDistribution));
        out.distribution.push_back(pad(cl + ":", lw) + " " + sparkline(c.candidateDistribution, tallest) + "  " +
                                   countsLine(c.candidateDistribution));
    }
    for (std::size_t i = 0; i < c.biggestDrops.size() && i < 5; ++i) {
        const JudgeDrop& d = c.biggestDrops[i];
        std::string line = d.id + ": " + general(d.baseline) + " → " + general(d.candidate);
        if (const std::string ex = dropExcerpt(d); !ex.empty()) line += "  \"" + ex + "\"";
        out.drops.push_back(std::move(line));
    }
    return out;
}

}  // namespace

std::string judgeToText(const JudgeComparison& c, const std::string& bl, const std::string& cl) {
    const JudgeLines l = judgeLines(c, bl, cl);
    std::string out = "Domain judge (LLM-as-judge, scale " + general(c.scale.min) + "–" + general(c.scale.max) + ")\n";
    std::size_t lw = 0;
    for (const auto& [label, value] : l.facts) lw = std::max(lw, width(label));
    for (const auto& [label, value] : l.facts) {
        const std::string lead = "  " + pad(label, lw) + "  ";
        const std::string wrapped = wrapText(value, 110, std::string(width(lead), ' '));
        out += lead + wrapped.substr(width(lead));
    }
    if (!l.distribution.empty()) {
        out += "  Distribution (" + oneLine(l.distribution[0]) + ")\n";
        for (std::size_t i = 1; i < l.distribution.size(); ++i) out += "    " + oneLine(l.distribution[i]) + "\n";
    }
    if (!l.drops.empty()) {
        out += "  Biggest drops\n";
        for (const auto& d : l.drops) out += "    " + oneLine(d) + "\n";
    }
    return out;
}

std::string judgeToMarkdown(const JudgeComparison& c, const std::string& bl, const std::string& cl) {
    const JudgeLines l = judgeLines(c, bl, cl);
    std::string out =
        "### Domain judge\n\nLLM-as-judge scores, scale " + general(c.scale.min) + "–" + general(c.scale.max) + ".\n\n";
    std::vector<std::vector<std::string>> facts;
    for (const auto& [label, value] : l.facts)
        facts.push_back(
            {markdown::escape(label, markdown::Where::TableCell), markdown::escape(value, markdown::Where::TableCell)});
    out += markdown::table({"", ""}, {}, facts);
    if (!l.distribution.empty()) {
        out += "\n" + markdown::escape("Distribution (" + l.distribution[0] + "):") + "\n\n```\n";
        for (std::size_t i = 1; i < l.distribution.size(); ++i) out += l.distribution[i] + "\n";
        out += "```\n";
    }
    if (!l.drops.empty()) {
        out += "\nBiggest drops:\n\n";
        for (const auto& d : l.drops) out += "- " + markdown::escape(d) + "\n";
    }
    return out;
}

Json decisionToJson(const Decision& d) {
    if (d.variants) {
        Json j = variantsToJson(*d.variants);
        if (d.timeline) j["timeline"] = timelineReportToJson(*d.timeline);
        j["verdict"] = d.verdict ? Json(verdictName(*d.verdict)) : Json(nullptr);
        j["advice"] = d.verdict ? Json(verdictHeadline(d).advice()) : Json(nullptr);
        j["reasons"] = d.reasons;
        j["headline"] = verdictHeadlineToJson(verdictHeadline(d));
        if (d.serving) j["serving"] = servingToJson(*d.serving);
        return j;
    }
    Json j = d.evals ? reportToJson(*d.evals) : Json::object();
    if (d.judge) j["judge"] = judgeComparisonToJson(*d.judge)["judge"];
    if (d.timeline) j["timeline"] = timelineReportToJson(*d.timeline);
    if (d.judge || d.timeline || !d.evals) {
        if (d.evals) j["evals_verdict"] = verdictName(d.evals->verdict);
        j["verdict"] = d.verdict ? Json(verdictName(*d.verdict)) : Json(nullptr);
        j["advice"] = d.verdict ? Json(verdictAdvice(*d.verdict)) : Json(nullptr);
        j["reasons"] = d.reasons;
    }
    // The verdict's first line as every medium words it (verdict_headline.h).
    j["headline"] = verdictHeadlineToJson(verdictHeadline(d));
    if (d.serving) j["serving"] = servingToJson(*d.serving);
    return j;
}

namespace {

// The first line and its continuations (indented "  ", not a "  • " bullet) wrapped again to 110 columns after the
// first line grew, continuations indented as reportToText does.
std::string rewrapFirstLine(const std::string& text) {
    std::size_t end = text.find('\n');
    if (width(text.substr(0, end)) <= 110) return text;
    std::string paragraph = text.substr(0, end);
    const std::string bullet = "  • ";
    while (end != std::string::npos && text.compare(end + 1, 2, "  ") == 0 &&
           text.compare(end + 1, bullet.size(), bullet) != 0) {
        const std::size_t next = text.find('\n', end + 1);
        paragraph += " " + text.substr(end + 3, next == std::string::npos ? std::string::npos : next - end - 3);
        end = next;
    }
    return wrapText(paragraph, 110, "  ").substr(2) + (end == std::string::npos ? "" : text.substr(end + 1));
}

// The Markdown starts with a title (the labels, and the candidate's model when known), not with the heading's
// file paths: those follow as a list, one line each.
std::string markdownTitle(const Decision& d, std::string bl, std::string cl, const std::string& heading) {
    std::string model = d.evals ? d.evals->candidateConfig.model : std::string();
    if (d.evals && !d.evals->baselineLabel.empty()) bl = d.evals->baselineLabel;
    if (d.evals && !d.evals->candidateLabel.empty()) cl = d.evals->candidateLabel;
    if (d.variants) {  // several candidates: the baseline's model, and how many variants
        model = d.variants->baselineConfig.model;
        cl = std::to_string(d.variants->variants.size()) + " variants";
    }
    std::string out =
        "# " + markdown::escape(bl + " vs " + cl + (model.empty() ? "" : ": " + model), markdown::Where::Heading) +
        "\n\n";
    std::size_t start = 0;
    while (start < heading.size()) {
        std::size_t end = heading.find('\n', start);
        if (end == std::string::npos) end = heading.size();
        if (end > start) out += "- " + markdown::escape(heading.substr(start, end - start)) + "\n";
        start = end + 1;
    }
    return heading.empty() ? out : out + "\n";
}

std::string decisionRender(const Decision& d, const ComparisonDocument& doc, const std::string& heading, bool md) {
    const std::string bl = doc.hasEvals ? doc.baseline.label : "BF16";
    const std::string cl = doc.hasEvals ? doc.candidate.label : "FP8";
    std::string out = md ? markdownTitle(d, bl, cl, heading) : heading + "\n\n";
    const VerdictHeadline headline = verdictHeadline(d);
    const std::string sure = verdictCertainty(d, doc.options.thresholds, doc.options.cautious).sentence();
    // What follows the verdict word in the first line (the variant, the basis, the caveats), in Markdown.
    const std::string mdTail = markdown::escape(headline.text().substr(headline.title.size()));
    if (d.variants) {
        const std::string title = d.verdict ? std::string(verdictTitle(*d.verdict)) : std::string("none");
        if (md) {
            out += "## Overall verdict: **" + title + "**" + mdTail + "\n\n";
            if (d.verdict) out += markdown::escape(headline.advice()) + "\n\n";
            for (const auto& r : d.reasons) out += "- " + markdown::escape(r) + "\n";
            if (!sure.empty()) out += "\n**How sure:** " + markdown::escape(sure) + ".\n";
            out += "\n" + variantsToMarkdown(*d.variants);
        } else {
            out += wrapText("Overall verdict: " + (d.verdict ? headline.text() : title), 110, "  ").substr(2);
            for (const auto& r : d.reasons) out += wrapText("• " + r, 110, "  ");
            if (!sure.empty()) out += wrapText("How sure: " + sure + ".", 110, "  ");
            out += "\n" + variantsToText(*d.variants);
        }
        if (d.timeline && doc.timeline) {
            const std::string tl = timelineReportToText(*d.timeline, *doc.timeline);
            out += md ? "\n### Production\n\n" + markdown::codeBlock(tl) : "\n" + tl;
        }
        return out;
    }
    if (d.evals && !d.judge && !d.timeline) {
        // The evals' own first line, told as the headline (what the verdict rests on, its caveats).
        std::string evals = md ? reportToMarkdown(*d.evals) : reportToText(*d.evals);
        const std::string word = std::string(verdictTitle(d.evals->verdict));
        if (md)
            evals.replace(0, ("## Verdict: **" + word + "**").size(), "## Verdict: **" + word + "**" + mdTail);
        else
            evals = rewrapFirstLine(evals.replace(0, ("Verdict: " + word).size(), "Verdict: " + headline.text()));
        return out + evals;
    }
    const std::string title = d.verdict ? std::string(verdictTitle(*d.verdict)) : std::string("none");
    if (md) {
        out += "## Overall verdict: **" + title + "**" + mdTail + "\n\n";
        if (d.verdict) out += markdown::escape(verdictAdvice(*d.verdict)) + "\n\n";
        for (const auto& r : d.reasons) out += "- " + markdown::escape(r) + "\n";
        if (!sure.empty()) out += "\n**How sure:** " + markdown::escape(sure) + ".\n";
    } else {
        // One line, unwrapped, as it always was here (the evals' own first line below wraps).
        out += "Overall verdict: " + (d.verdict ? headline.text() + " — " + headline.advice() : title) + "\n";
        for (const auto& r : d.reasons) out += wrapText("• " + r, 110, "  ");
        if (!sure.empty()) out += wrapText("How sure: " + sure + ".", 110, "  ");
    }
    if (d.evals) {
        std::string evals = md ? reportToMarkdown(*d.evals) : reportToText(*d.evals);
        // The evals' own verdict line is kept, named as theirs: the overall one is above.
        if (md)
            evals.replace(0, std::string("## Verdict:").size(), "## Offline evals verdict:");
        else
            evals = rewrapFirstLine(evals.replace(0, std::string("Verdict:").size(), "Offline evals verdict:"));
        out += "\n" + evals;
    }
    if (d.judge) out += "\n" + (md ? judgeToMarkdown(*d.judge, bl, cl) : judgeToText(*d.judge, bl, cl));
    if (d.timeline && doc.timeline) {
        const std::string tl = timelineReportToText(*d.timeline, *doc.timeline);
        out += md ? "\n### Production\n\n" + markdown::codeBlock(tl) : "\n" + tl;
    }
    return out;
}

}  // namespace

// The serving benchmarks follow everything else: what FP8 buys, beside the verdict (docs/serving.md).
std::string decisionToText(const Decision& d, const ComparisonDocument& doc, const std::string& heading) {
    return decisionRender(d, doc, heading, false) + (d.serving ? "\n" + servingToText(*d.serving) : "");
}

std::string decisionToMarkdown(const Decision& d, const ComparisonDocument& doc, const std::string& heading) {
    return decisionRender(d, doc, heading, true) + (d.serving ? "\n" + servingToMarkdown(*d.serving) : "");
}

std::string thresholdsSummary(const Thresholds& t) {
    return thresholdsLine(t);
}
std::string runModelSummary(const Fp8Config& c) {
    return modelLine(c);
}
std::string confidenceSummary(const TaskComparison& t) {
    return confidenceCell(t);
}
std::string pairedTestSummary(const TaskComparison& t) {
    return pairedCell(t);
}
std::vector<std::string> taskStatisticsLines(const TaskComparison& t, const Thresholds& thresholds,
                                             const std::string& candidateLabel) {
    return statisticsLines(t, thresholds, candidateLabel);
}
std::string statisticsMethod(const ComparisonReport& report) {
    return statisticsMethodText(report);
}

std::vector<std::pair<std::string, std::string>> judgeFacts(const JudgeComparison& judge,
                                                            const std::string& baselineLabel,
                                                            const std::string& candidateLabel) {
    return judgeLines(judge, baselineLabel, candidateLabel).facts;
}

std::vector<std::string> judgeDropLines(const JudgeComparison& judge, std::size_t maxDrops) {
    std::vector<std::string> lines = judgeLines(judge, "", "").drops;
    if (lines.size() > maxDrops) lines.resize(maxDrops);
    return lines;
}

}  // namespace fp8dash
