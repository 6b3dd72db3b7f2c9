// Renderings of a ComparisonReport. The JSON is a stable interface (README "JSON output"): add keys, never rename.
#include "fp8dash/core/report_format.h"
#include "fp8dash/core/lm_eval_paths.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "fp8dash/core/paired_tasks.h"
#include "fp8dash/core/timeline.h"

namespace fp8dash {
namespace {

Json optionalNumber(const std::optional<double>& v) { return v ? Json(*v) : Json(nullptr); }

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
    return Json{{"task", t.task},
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
                {"paired", t.paired ? pairedToJson(*t.paired) : Json(nullptr)},
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
}

std::string fixed(double v, int decimals) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
    return buf;
}

// Display width of UTF-8 text (code points; the symbols used here are all single-width).
std::size_t width(const std::string& s) {
    return static_cast<std::size_t>(std::count_if(s.begin(), s.end(), [](char c) { return (c & 0xC0) != 0x80; }));
}

std::string pad(const std::string& s, std::size_t w, bool right = false) {
    const std::size_t n = width(s);
    if (n >= w) return s;
    return right ? std::string(w - n, ' ') + s : s + std::string(w - n, ' ');
}

struct Row {
    std::vector<std::string> cells;
};

std::string general(double v);

// Which optional columns a report needs: a confidence column when any row has an answer, paired results and the
// noise floor when any task has them.
struct Columns {
    bool confidence = false;
    bool paired = false;
    bool noise = false;
    explicit Columns(const ComparisonReport& r) {
        for (const auto& t : r.tasks) {
            confidence |= t.confidence.has_value();
            paired |= t.paired.has_value();
            noise |= t.noiseFloorPct.has_value();
        }
    }
};

std::string confidenceCell(const TaskComparison& t) {
    if (!t.confidence) return "n/a";
    if (t.confidence->confidence == Confidence::Clear) return "clear";
    return t.confidence->samplesNeeded ? "inconclusive (n≈" + std::to_string(*t.confidence->samplesNeeded) + ")"
                                       : "inconclusive";
}

std::string pValue(double p) {
    char buf[32];
    std::snprintf(buf, sizeof buf, p < 0.001 ? "%.1e" : "%.3g", p);
    return buf;
}

std::string pairedCell(const TaskComparison& t) {
    if (!t.paired) return "";
    const PairedTaskResult& p = *t.paired;
    if (p.test == "none") return "no pairs";
    std::string s = "p=" + pValue(p.pValue);
    if (p.binary) s += " (" + std::to_string(p.b10) + " lost, " + std::to_string(p.b01) + " won)";
    else s += " (Wilcoxon)";
    return s;
}

void flatten(const TaskComparison& t, const std::string& parent, int depth, const Columns& cols,
             std::vector<Row>& rows) {
    Row row{
        {std::string(static_cast<std::size_t>(depth) * 2, ' ') + (depth ? "- " : "") + taskNameUnder(t.task, parent),
         t.metric, fixed(t.baseline, 4), fixed(t.candidate, 4), formatPercent(t.deltaPct, 3), formatSigmas(t.sigmas)}};
    if (cols.confidence) row.cells.push_back(depth ? "" : confidenceCell(t));
    if (cols.paired) row.cells.push_back(pairedCell(t));
    if (cols.noise) row.cells.push_back(t.noiseFloorPct ? fixed(*t.noiseFloorPct, 3) + "%" : "");
    row.cells.push_back(std::string(verdictTitle(t.verdict)));
    rows.push_back(std::move(row));
    for (const auto& s : t.subtasks) flatten(s, t.task, depth + 1, cols, rows);
}

std::vector<std::string> headerCells(const ComparisonReport& r, const Columns& cols) {
    std::vector<std::string> h{"Task", "Metric", r.baselineLabel, r.candidateLabel, "Δ%", "±σ"};
    if (cols.confidence) h.push_back("95% confidence");
    if (cols.paired) h.push_back("Paired test");
    if (cols.noise) h.push_back("Noise floor");
    h.push_back("Verdict");
    return h;
}

// One line per task on the statistics behind its confidence answer: the explanation, the equivalence check, the
// paired test's summary and warnings.
std::vector<std::string> statisticsLines(const TaskComparison& t) {
    std::vector<std::string> out;
    if (t.confidence) out.push_back(t.task + ": " + t.confidence->explanation);
    if (t.equivalence) {
        char buf[160];
        std::snprintf(buf, sizeof buf, "(90%% interval of Δ %+.3f%% to %+.3f%%, margin ±%g%%)", t.equivalence->lowPct,
                      t.equivalence->highPct, t.equivalence->marginPct);
        out.push_back(t.task + ": equivalence " +
                      (t.equivalence->equivalent ? std::string("shown: \"go\" is demonstrated ")
                                                 : std::string("not shown: only \"no significant drop\" ")) +
                      buf);
    }
    if (t.paired) {
        out.push_back(t.task + ": " + t.paired->summary);
        for (const auto& w : t.paired->warnings) out.push_back(t.task + ": ⚠ " + w);
    }
    return out;
}

std::string layerWord(bool on) { return on ? "FP8" : "not FP8"; }

std::string general(double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%g", v);
    return buf;
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

}  // namespace

std::string formatPercent(std::optional<double> pct, int decimals) {
    if (!pct) return "n/a";
    char buf[64];
    std::snprintf(buf, sizeof buf, "%+.*f%%", decimals, *pct);
    return buf;
}

std::string formatSigmas(std::optional<double> sigmas) {
    if (!sigmas) return "n/a";
    char buf[64];
    std::snprintf(buf, sizeof buf, "%+.1fσ", *sigmas);
    return buf;
}

std::string wrapText(const std::string& text, std::size_t columns, const std::string& indent) {
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

template <typename Escape>
std::string comparabilityMarkdown(const ComparisonReport& r, const Escape& esc) {
    if (r.comparability.empty()) return "";
    std::string out = "\n### Comparability\n\n";
    for (const auto& item : r.comparability) out += "- " + esc(comparabilityLine(item)) + "\n";
    return out;
}

}  // namespace

Json reportToJson(const ComparisonReport& r) {
    Json tasks = Json::array();
    for (const auto& t : r.tasks) tasks.push_back(taskToJson(t));
    Json missing = Json::array();
    for (const auto& m : r.missing) missing.push_back({{"task", m.task}, {"reason", m.reason}});
    Json risks = Json::array();
    for (const auto& f : r.risks) risks.push_back({{"kind", f.kind}, {"subject", f.subject}, {"message", f.message}});
    Json j = Json{{"verdict", verdictName(r.verdict)},
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
                  {"candidate", configToJson(r.candidateLabel, r.candidateConfig)}}}};
    j["comparability"] = comparabilityToJson(r.comparability);
    return j;
}

std::string reportToText(const ComparisonReport& r) {
    std::string out;
    out += "Verdict: " + std::string(verdictTitle(r.verdict)) + " — " + std::string(verdictAdvice(r.verdict)) + "\n";
    for (const auto& reason : r.reasons) out += "  • " + reason + "\n";

    out += "\nRuns\n";
    const std::size_t lw = std::max(width(r.baselineLabel), width(r.candidateLabel));
    for (const auto* side : {&r.baselineConfig, &r.candidateConfig}) {
        const std::string& label = side == &r.baselineConfig ? r.baselineLabel : r.candidateLabel;
        out += "  " + pad(label, lw) + "  " + modelLine(*side) + "\n";
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
            line += pad(row.cells[i], widths[i], i >= 2 && i <= 5);
        }
        out += line.substr(0, line.find_last_not_of(' ') + 1) + "\n";
    }
    if (cols.noise)
        out += wrapText("Noise floor: |" + r.controlLabel + " − " + r.baselineLabel + "| / " + r.baselineLabel +
                            ", the spread of two runs of the same BF16 setup; a delta inside it is noise.",
                        110, "  ");

    std::vector<std::string> stats;
    for (const auto& t : r.tasks)
        for (auto& line : statisticsLines(t)) stats.push_back(std::move(line));
    if (!stats.empty()) {
        out += "\nStatistics\n";
        for (const auto& line : stats) out += wrapText(line, 110, "  ");
    }

    if (!r.missing.empty()) {
        out += "\nNot compared\n";
        for (const auto& m : r.missing) out += "  " + m.task + ": " + m.reason + "\n";
    }
    out += comparabilityText(r);
    if (!r.risks.empty()) {
        out += "\nRisk flags\n";
        for (const auto& f : r.risks) out += "  ! " + f.message + "\n";
    }
    return out;
}

std::string reportToMarkdown(const ComparisonReport& r) {
    auto esc = [](std::string s) {
        std::string out;
        for (char c : s) {
            if (c == '|') out += "\\|";
            else if (c == '\n') out += ' ';
            else out += c;
        }
        return out;
    };
    std::string out;
    out += "## Verdict: **" + std::string(verdictTitle(r.verdict)) + "**\n\n";
    out += std::string(verdictAdvice(r.verdict)) + "\n\n";
    for (const auto& reason : r.reasons) out += "- " + esc(reason) + "\n";
    out += "\n### Runs\n\n| Run | Model | Weights | KV cache | Activations |\n|---|---|---|---|---|\n";
    for (const auto* side : {&r.baselineConfig, &r.candidateConfig}) {
        const std::string& label = side == &r.baselineConfig ? r.baselineLabel : r.candidateLabel;
        out += "| " + esc(label) + " | " + esc(modelLine(*side)) + " | " + layerWord(side->weights) + " | " +
               (side->kvCache ? "FP8 (" + esc(side->kvCacheDtype) + (side->kvScales ? ", with scales)" : ", no scales)")
                              : std::string("not FP8")) +
               " | " + layerWord(side->activations) + " |\n";
    }
    out += "\n### Tasks\n\nThresholds: " + thresholdsLine(r.thresholds) + (r.cautious ? "; cautious policy" : "") +
           ".\n\n";
    const Columns cols(r);
    const auto header = headerCells(r, cols);
    std::string head = "|", rule = "|";
    for (std::size_t i = 0; i < header.size(); ++i) {
        head += " " + esc(header[i]) + " |";
        rule += i >= 2 && i <= 5 ? "---:|" : "---|";
    }
    out += head + "\n" + rule + "\n";
    std::vector<Row> rows;
    for (const auto& t : r.tasks) flatten(t, "", 0, cols, rows);
    for (const auto& row : rows) {
        std::string line = "|";
        for (std::size_t i = 0; i < row.cells.size(); ++i) {
            std::string cell = row.cells[i];
            if (i == 0) {  // indentation is invisible in Markdown tables; keep the depth with a marker
                const auto lead = cell.find_first_not_of(' ');
                const std::size_t depth = lead / 2;
                cell.clear();
                for (std::size_t d = 0; d < depth; ++d) cell += "↳ ";
                cell += row.cells[i].substr(lead + (depth ? 2 : 0));
            }
            line += ' ';
            line += esc(cell);
            line += " |";
        }
        out += line + "\n";
    }
    if (cols.noise)
        out += "\nNoise floor: |" + esc(r.controlLabel) + " − " + esc(r.baselineLabel) + "| / " + esc(r.baselineLabel) +
               ", the spread of two runs of the same BF16 setup; a delta inside it is noise.\n";
    std::vector<std::string> stats;
    for (const auto& t : r.tasks)
        for (auto& line : statisticsLines(t)) stats.push_back(std::move(line));
    if (!stats.empty()) {
        out += "\n### Statistics\n\n";
        for (const auto& line : stats) out += "- " + esc(line) + "\n";
    }
    if (!r.missing.empty()) {
        out += "\n### Not compared\n\n";
        for (const auto& m : r.missing) out += "- `" + m.task + "`: " + esc(m.reason) + "\n";
    }
    out += comparabilityMarkdown(r, esc);
    if (!r.risks.empty()) {
        out += "\n### Risk flags\n\n";
        for (const auto& f : r.risks) out += "- ⚠ " + esc(f.message) + "\n";
    }
    return out;
}

namespace {

std::string mdEscape(const std::string& s) {
    std::string out;
    for (char c : s) {
        if (c == '|') out += "\\|";
        else if (c == '\n') out += ' ';
        else out += c;
    }
    return out;
}

// A histogram as one line of block characters, scaled to the larger side's tallest bin so both lines compare.
std::string sparkline(const std::vector<std::uint64_t>& bins, std::uint64_t tallest) {
    static const char* const kBlocks[] = {"·", "▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"};
    std::string out;
    for (auto b : bins) {
        const int level = tallest == 0 || b == 0 ? 0
                          : std::max(1, static_cast<int>(std::lround(8.0 * static_cast<double>(b) /
                                                                     static_cast<double>(tallest))));
        out += kBlocks[level];
    }
    return out;
}

std::string countsLine(const std::vector<std::uint64_t>& bins) {
    std::string out;
    for (auto b : bins) out += (out.empty() ? "" : " ") + std::to_string(b);
    return out;
}

std::string signedPct(double v, int decimals = 2) { return formatPercent(v, decimals); }

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
    std::vector<std::string> distribution;                    // header, baseline, candidate
    std::vector<std::string> drops;
};

JudgeLines judgeLines(const JudgeComparison& c, const std::string& bl, const std::string& cl) {
    JudgeLines out;
    char buf[256];
    std::snprintf(buf, sizeof buf, "%s %.3f (n=%llu), %s %.3f (n=%llu)", bl.c_str(), c.baselineMean,
                  static_cast<unsigned long long>(c.nBaseline), cl.c_str(), c.candidateMean,
                  static_cast<unsigned long long>(c.nCandidate));
    out.facts.emplace_back("Mean score", buf);
    out.facts.emplace_back("Samples", c.paired ? std::to_string(c.nPairs) + " paired by id" +
                                                     (c.onlyInBaseline.empty() && c.onlyInCandidate.empty()
                                                          ? ""
                                                          : " (" + std::to_string(c.onlyInBaseline.size()) +
                                                                " only in " + bl + ", " +
                                                                std::to_string(c.onlyInCandidate.size()) +
                                                                " only in " + cl + ")")
                                               : std::string("unpaired (no ids): two independent samples"));
    out.facts.emplace_back("Degradation", plainPct(c.degradationPct) + " (Δ " + signedPct(c.deltaPct) +
                                              "); 95% interval " + plainPct(c.confidence.lowPct) + " to " +
                                              plainPct(c.confidence.highPct));
    std::snprintf(buf, sizeof buf, "%+.3f points, 95%% interval %+.3f to %+.3f (seeded bootstrap)", c.meanDiff,
                  c.meanDiffCi.low, c.meanDiffCi.high);
    out.facts.emplace_back("Mean difference", buf);
    out.facts.emplace_back("Test", std::string(c.testName == "wilcoxon" ? "Wilcoxon signed-rank" : "Mann-Whitney U") +
                                       (c.test.exact ? " (exact)" : " (normal approximation)") + ", p = " +
                                       pValue(c.test.pValue));
    out.facts.emplace_back("Confidence", std::string(confidenceName(c.confidence.confidence)) +
                                             (c.confidence.samplesNeeded
                                                  ? " (about " + std::to_string(*c.confidence.samplesNeeded) +
                                                        " samples would decide)"
                                                  : std::string()));
    std::snprintf(buf, sizeof buf, " (90%% interval of Δ %+.2f%% to %+.2f%%, margin ±%g%%)", c.equivalence.lowPct,
                  c.equivalence.highPct, c.equivalence.marginPct);
    out.facts.emplace_back("Equivalence", std::string(c.equivalence.equivalent ? "shown: \"go\" is demonstrated"
                                                                               : "not shown: only \"no significant "
                                                                                 "drop\"") +
                                              buf);
    out.facts.emplace_back("Verdict", std::string(verdictTitle(c.verdict)) + " — " + c.reason);

    if (!c.baselineDistribution.empty()) {
        const std::uint64_t tallest =
            std::max(*std::max_element(c.baselineDistribution.begin(), c.baselineDistribution.end()),
                     *std::max_element(c.candidateDistribution.begin(), c.candidateDistribution.end()));
        out.distribution.push_back("scores " + std::to_string(c.distributionFrom) + ".." +
                                   std::to_string(c.distributionFrom +
                                                  static_cast<int>(c.baselineDistribution.size()) - 1));
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
        out += "  Distribution (" + l.distribution[0] + ")\n";
        for (std::size_t i = 1; i < l.distribution.size(); ++i) out += "    " + l.distribution[i] + "\n";
    }
    if (!l.drops.empty()) {
        out += "  Biggest drops\n";
        for (const auto& d : l.drops) out += "    " + d + "\n";
    }
    return out;
}

std::string judgeToMarkdown(const JudgeComparison& c, const std::string& bl, const std::string& cl) {
    const JudgeLines l = judgeLines(c, bl, cl);
    std::string out = "### Domain judge\n\nLLM-as-judge scores, scale " + general(c.scale.min) + "–" +
                      general(c.scale.max) + ".\n\n| | |\n|---|---|\n";
    for (const auto& [label, value] : l.facts) out += "| " + label + " | " + mdEscape(value) + " |\n";
    if (!l.distribution.empty()) {
        out += "\nDistribution (" + l.distribution[0] + "):\n\n```\n";
        for (std::size_t i = 1; i < l.distribution.size(); ++i) out += l.distribution[i] + "\n";
        out += "```\n";
    }
    if (!l.drops.empty()) {
        out += "\nBiggest drops:\n\n";
        for (const auto& d : l.drops) out += "- " + mdEscape(d) + "\n";
    }
    return out;
}

Json decisionToJson(const Decision& d) {
    Json j = d.evals ? reportToJson(*d.evals) : Json::object();
    if (d.judge) j["judge"] = judgeComparisonToJson(*d.judge)["judge"];
    if (d.timeline) j["timeline"] = timelineReportToJson(*d.timeline);
    if (d.judge || d.timeline || !d.evals) {
        if (d.evals) j["evals_verdict"] = verdictName(d.evals->verdict);
        j["verdict"] = d.verdict ? Json(verdictName(*d.verdict)) : Json(nullptr);
        j["advice"] = d.verdict ? Json(verdictAdvice(*d.verdict)) : Json(nullptr);
        j["reasons"] = d.reasons;
    }
    return j;
}

namespace {

std::string decisionRender(const Decision& d, const ComparisonDocument& doc, const std::string& heading, bool md) {
    const std::string bl = doc.hasEvals ? doc.baseline.label : "BF16";
    const std::string cl = doc.hasEvals ? doc.candidate.label : "FP8";
    std::string out = (md ? "# " : "") + heading + "\n\n";
    if (d.evals && !d.judge && !d.timeline) return out + (md ? reportToMarkdown(*d.evals) : reportToText(*d.evals));
    const std::string title = d.verdict ? std::string(verdictTitle(*d.verdict)) : std::string("none");
    if (md) {
        out += "## Overall verdict: **" + title + "**\n\n";
        if (d.verdict) out += std::string(verdictAdvice(*d.verdict)) + "\n\n";
        for (const auto& r : d.reasons) out += "- " + mdEscape(r) + "\n";
    } else {
        out += "Overall verdict: " + title + (d.verdict ? " — " + std::string(verdictAdvice(*d.verdict)) : "") + "\n";
        for (const auto& r : d.reasons) out += wrapText("• " + r, 110, "  ");
    }
    if (d.evals) {
        std::string evals = md ? reportToMarkdown(*d.evals) : reportToText(*d.evals);
        // The evals' own verdict line is kept, named as theirs: the overall one is above.
        if (md) evals.replace(0, std::string("## Verdict:").size(), "## Offline evals verdict:");
        else evals.replace(0, std::string("Verdict:").size(), "Offline evals verdict:");
        out += "\n" + evals;
    }
    if (d.judge) out += "\n" + (md ? judgeToMarkdown(*d.judge, bl, cl) : judgeToText(*d.judge, bl, cl));
    if (d.timeline && doc.timeline) {
        const std::string tl = timelineReportToText(*d.timeline, *doc.timeline);
        out += md ? "\n### Production\n\n```\n" + tl + "```\n" : "\n" + tl;
    }
    return out;
}

}  // namespace

std::string decisionToText(const Decision& d, const ComparisonDocument& doc, const std::string& heading) {
    return decisionRender(d, doc, heading, false);
}

std::string decisionToMarkdown(const Decision& d, const ComparisonDocument& doc, const std::string& heading) {
    return decisionRender(d, doc, heading, true);
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
std::vector<std::string> taskStatisticsLines(const TaskComparison& t) {
    return statisticsLines(t);
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
