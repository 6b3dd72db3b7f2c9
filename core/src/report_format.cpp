// Renderings of a ComparisonReport. The JSON is a stable interface (README "JSON output"): add keys, never rename.
#include "fp8dash/core/report_format.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

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

void flatten(const TaskComparison& t, int depth, std::vector<Row>& rows) {
    rows.push_back({{std::string(static_cast<std::size_t>(depth) * 2, ' ') + (depth ? "- " : "") + t.task, t.metric,
                     fixed(t.baseline, 4), fixed(t.candidate, 4), formatPercent(t.deltaPct, 3), formatSigmas(t.sigmas),
                     std::string(verdictTitle(t.verdict))}});
    for (const auto& s : t.subtasks) flatten(s, depth + 1, rows);
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

Json reportToJson(const ComparisonReport& r) {
    Json tasks = Json::array();
    for (const auto& t : r.tasks) tasks.push_back(taskToJson(t));
    Json missing = Json::array();
    for (const auto& m : r.missing) missing.push_back({{"task", m.task}, {"reason", m.reason}});
    Json risks = Json::array();
    for (const auto& f : r.risks) risks.push_back({{"kind", f.kind}, {"subject", f.subject}, {"message", f.message}});
    return Json{{"verdict", verdictName(r.verdict)},
                {"advice", verdictAdvice(r.verdict)},
                {"reasons", r.reasons},
                {"thresholds", {{"go_below", r.thresholds.goBelow}, {"investigate_above", r.thresholds.investigateAbove}}},
                {"tasks", std::move(tasks)},
                {"missing", std::move(missing)},
                {"risks", std::move(risks)},
                {"runs",
                 {{"baseline", configToJson(r.baselineLabel, r.baselineConfig)},
                  {"candidate", configToJson(r.candidateLabel, r.candidateConfig)}}}};
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

    out += "\nTasks (" + thresholdsLine(r.thresholds) + ")\n";
    std::vector<Row> rows;
    rows.push_back({{"Task", "Metric", r.baselineLabel, r.candidateLabel, "Δ%", "±σ", "Verdict"}});
    for (const auto& t : r.tasks) flatten(t, 0, rows);
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

    if (!r.missing.empty()) {
        out += "\nNot compared\n";
        for (const auto& m : r.missing) out += "  " + m.task + ": " + m.reason + "\n";
    }
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
    out += "\n### Tasks\n\nThresholds: " + thresholdsLine(r.thresholds) + ".\n\n";
    out += "| Task | Metric | " + esc(r.baselineLabel) + " | " + esc(r.candidateLabel) +
           " | Δ% | ±σ | Verdict |\n|---|---|---:|---:|---:|---:|---|\n";
    std::vector<Row> rows;
    for (const auto& t : r.tasks) flatten(t, 0, rows);
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
    if (!r.missing.empty()) {
        out += "\n### Not compared\n\n";
        for (const auto& m : r.missing) out += "- `" + m.task + "`: " + esc(m.reason) + "\n";
    }
    if (!r.risks.empty()) {
        out += "\n### Risk flags\n\n";
        for (const auto& f : r.risks) out += "- ⚠ " + esc(f.message) + "\n";
    }
    return out;
}

}  // namespace fp8dash
