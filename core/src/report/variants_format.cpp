// The variants' renderings (a comparison of several candidates against one baseline): JSON, text and Markdown
// (report_format.h). The JSON is a stable interface (README "JSON output"): add keys, never rename.
#include <algorithm>

#include "fp8dash/core/markdown_text.h"
#include "fp8dash/core/report_format.h"
#include "fp8dash/core/untrusted_text.h"
#include "fp8dash/core/variant_comparison.h"
#include "fp8dash/core/variant_text.h"
#include "report/report_text_parts.h"

namespace fp8dash {

using report_text::bulletLine;
using report_text::modelLine;
using report_text::optionalNumber;
using report_text::pad;
using report_text::thresholdsLine;
using report_text::width;

namespace {

Json layerToJson(const LayerSetting& l) {
    return Json{{"value", l.value}, {"evidence", l.evidence}};
}

Json layersToJson(const RunLayers& l) {
    return Json{{"weights", layerToJson(l.weights)},
                {"kv_cache", layerToJson(l.kvCache)},
                {"kv_scales", layerToJson(l.kvScales)},
                {"activations", layerToJson(l.activations)}};
}

}  // namespace

Json variantsToJson(const VariantComparison& v) {
    Json variants = Json::array();
    for (const auto& variant : v.variants) {
        Json report = reportToJson(variant.report);
        variants.push_back({{"label", variant.label},
                            {"model", variant.config.model},
                            {"layers", layersToJson(variant.config.layers)},
                            {"verdict", verdictName(variant.verdict)},
                            {"evals_verdict", verdictName(variant.report.verdict)},
                            {"average_recovery_pct", optionalNumber(variant.averageRecoveryPct)},
                            {"worst_task", variant.worstTask.empty() ? Json(nullptr) : Json(variant.worstTask)},
                            {"worst_degradation_pct", optionalNumber(variant.worstDegradationPct)},
                            {"passes", variant.passes},
                            {"buys", variant.buys},
                            {"reasons", report["reasons"]},
                            {"tasks", report["tasks"]},
                            {"missing", report["missing"]},
                            {"risks", report["risks"]},
                            {"comparability", report["comparability"]}});
    }
    Json steps = Json::array();
    for (const auto& s : v.steps) {
        Json tasks = Json::array();
        for (const auto& t : s.tasks)
            tasks.push_back(
                {{"task", t.task},
                 {"delta_pct", optionalNumber(t.deltaPct)},
                 {"degradation_pct", optionalNumber(t.degradationPct)},
                 {"ci95_pct", t.lossCi95Pct ? Json::array({-t.lossCi95Pct->high, -t.lossCi95Pct->low}) : Json(nullptr)},
                 {"verdict", verdictName(t.verdict)},
                 {"paired", t.paired},
                 {"changed_answers", t.changed ? Json{{"lost", t.changed->lost},
                                                      {"gained", t.changed->gained},
                                                      {"unchanged", t.changed->unchanged},
                                                      {"n", t.changed->n()},
                                                      {"rate_pct", t.changed->ratePct()}}
                                               : Json(nullptr)},
                 {"sentence", t.sentence}});
        steps.push_back({{"from", s.fromLabel},
                         {"to", s.toLabel},
                         {"layers_changed", Json::array({s.plan.layer})},
                         {"description", s.plan.description},
                         {"tasks", std::move(tasks)}});
    }
    Json rejected = Json::array();
    for (const auto& r : v.recommendation.rejected)
        rejected.push_back({{"label", r.label}, {"task", r.task}, {"reason", r.reason}});
    Json costliest = Json::object();
    for (const auto& [task, step] : v.costliestStep) costliest[task] = step;
    const Recommendation& rec = v.recommendation;
    return Json{
        {"baseline",
         {{"label", v.baselineLabel},
          {"model", v.baselineConfig.model},
          {"layers", layersToJson(v.baselineConfig.layers)}}},
        {"thresholds", {{"go_below", v.thresholds.goBelow}, {"investigate_above", v.thresholds.investigateAbove}}},
        {"variants", std::move(variants)},
        {"steps", std::move(steps)},
        {"costliest_step", std::move(costliest)},
        {"recommendation",
         {{"label", rec.label ? Json(*rec.label) : Json(nullptr)},
          {"accept", verdictName(rec.options.accept)},
          {"min_recovery_pct", optionalNumber(rec.options.minRecoveryPct)},
          {"verdict", verdictName(rec.verdict)},
          {"buys", rec.label ? Json(rec.buys) : Json(nullptr)},
          {"reason", rec.reason},
          {"gain", rec.gain},
          {"gain_measured", rec.gainMeasured},
          {"rejected", std::move(rejected)}}}};
}

std::string variantsToText(const VariantComparison& v) {
    std::string out = wrapText("Recommendation: " + variant_text::recommended(v) +
                                   " (gate: " + variant_text::gate(v.recommendation.options) + ")",
                               110, "  ")
                          .substr(2);
    for (const auto& line : variant_text::recommendationLines(v)) out += bulletLine("•", line);

    out += "\nRuns\n";
    std::size_t lw = width(v.baselineLabel);
    for (const auto& variant : v.variants) lw = std::max(lw, width(variant.label));
    out += "  " + pad(v.baselineLabel, lw) + "  " + oneLine(modelLine(v.baselineConfig)) + "\n";
    for (const auto& variant : v.variants) {
        out += "  " + pad(variant.label, lw) + "  " + oneLine(modelLine(variant.config)) + "\n";
        out += wrapText(variant_text::layersLine(variant.config.layers), 110, "  " + std::string(lw + 2, ' '));
    }

    out += "\nVariants (each cell: value (recovery against " + oneLine(v.baselineLabel) + ") verdict; " +
           thresholdsLine(v.thresholds) + ")\n";
    // Columns two spaces apart, each as wide as its cells; a label longer than its column wraps over several header
    // lines (the lines bottom-aligned over the cells), so that long variant labels do not widen the table.
    const variant_text::Table t = variant_text::table(v);
    std::vector<std::size_t> widths(t.header.size(), 0);
    for (const auto& row : t.rows)
        for (std::size_t i = 0; i < row.size(); ++i) widths[i] = std::max(widths[i], width(row[i]));
    std::vector<std::vector<std::string>> headerLines(t.header.size());
    std::size_t headerHeight = 1;
    for (std::size_t i = 0; i < t.header.size(); ++i) {
        std::vector<std::string> words;
        for (std::size_t at = 0; at < t.header[i].size();) {
            const std::size_t end = std::min(t.header[i].find(' ', at), t.header[i].size());
            if (end > at) words.push_back(t.header[i].substr(at, end - at));
            at = end + 1;
        }
        for (const auto& w : words) widths[i] = std::max(widths[i], width(w));
        // A parenthesis ("(scales 1.0)") stays on one line where it fits the column.
        std::vector<std::string> tokens;
        for (std::size_t k = 0; k < words.size(); ++k) {
            std::string group = words[k];
            std::size_t last = k;
            if (words[k].front() == '(')
                while (group.back() != ')' && last + 1 < words.size()) group += " " + words[++last];
            if (last > k && width(group) <= widths[i]) {
                tokens.push_back(group);
                k = last;
            } else {
                tokens.push_back(words[k]);
            }
        }
        auto& lines = headerLines[i];
        for (const auto& w : tokens) {
            if (!lines.empty() && width(lines.back()) + 1 + width(w) <= widths[i])
                lines.back() += " " + w;
            else
                lines.push_back(w);
        }
        headerHeight = std::max(headerHeight, lines.size());
    }
    const auto line = [&](const std::vector<std::string>& cells) {
        std::string l = " ";
        for (std::size_t i = 0; i < cells.size(); ++i) {
            l += i == 0 ? " " : "  ";
            l += pad(cells[i], widths[i], i >= 1);
        }
        return l.substr(0, l.find_last_not_of(' ') + 1) + "\n";
    };
    for (std::size_t k = 0; k < headerHeight; ++k) {
        std::vector<std::string> cells;
        for (const auto& lines : headerLines) {
            const std::size_t skip = headerHeight - lines.size();
            cells.push_back(k < skip ? std::string() : lines[k - skip]);
        }
        out += line(cells);
    }
    for (const auto& row : t.rows) out += line(row);

    out += "\nWhat each FP8 layer costs (layer steps: two runs that differ in exactly one layer, compared directly)\n";
    if (v.steps.empty()) out += wrapText("none: no two runs differ in exactly one layer", 110, "  ");
    for (const auto& s : v.steps) {
        out += "  " + oneLine(variant_text::stepTitle(s)) + "\n";
        // Each task's figure, interval and verdict in columns (its sentence's words), then the answers it changed.
        std::size_t tw = 0, fw = 0, cw = 0;
        for (const auto& task : s.tasks) {
            const variant_text::StepFigure f = variant_text::stepFigure(task);
            tw = std::max(tw, width(task.task));
            fw = std::max(fw, width(f.text));
            cw = std::max(cw, width(f.ci));
        }
        for (const auto& task : s.tasks) {
            const variant_text::StepFigure f = variant_text::stepFigure(task);
            const std::string row = "    " + pad(oneLine(task.task), tw) + "  " + pad(f.text, fw) + "  " +
                                    pad(f.ci, cw) + "  " + std::string(verdictName(task.verdict));
            out += row + "\n";
        }
        for (const auto& task : s.tasks)  // the answers the step changed, under its figures
            if (!task.changedSentence.empty()) out += wrapText(task.task + ": " + task.changedSentence, 110, "    ");
    }
    if (!v.costliestStep.empty()) {
        out += "\nThe step that costs each task most\n";
        for (const auto& [task, step] : v.costliestStep) out += wrapText(task + ": " + step, 110, "  ");
    }
    for (const auto& variant : v.variants) {
        out += "\n" + oneLine(variant.label + " against " + v.baselineLabel) + "\n";
        std::string detail = reportToText(variant.report);
        out += detail;
    }
    return out;
}

std::string variantsToMarkdown(const VariantComparison& v) {
    using markdown::Where;
    const auto esc = [](std::string_view text) { return markdown::escape(text); };
    const auto heading = [](std::string_view text) { return markdown::escape(text, Where::Heading); };
    const auto cell = [](std::string_view text) { return markdown::escape(text, Where::TableCell); };
    std::string out = "## Recommendation: **" + heading(variant_text::recommended(v)) + "**\n\n";
    for (const auto& line : variant_text::recommendationLines(v)) out += "- " + esc(line) + "\n";
    out += "\n## Variants\n\n" +
           esc("Each cell: value (recovery against " + v.baselineLabel + ") verdict; " + thresholdsLine(v.thresholds) +
               ".") +
           "\n\n";
    const variant_text::Table t = variant_text::table(v);
    std::vector<std::vector<std::string>> rows;
    for (const auto& row : t.rows) {
        std::vector<std::string> cells;
        for (const auto& c : row) cells.push_back(cell(c));
        rows.push_back(std::move(cells));
    }
    std::vector<markdown::Align> align(t.header.size(), markdown::Align::Right);
    align[0] = markdown::Align::Left;
    out += markdown::table(t.header, align, rows);
    out += "\n## What each FP8 layer costs (layer steps)\n\n";
    if (v.steps.empty()) out += esc("None: no two runs differ in exactly one layer.") + "\n";
    for (const auto& s : v.steps) {
        out += "### " + heading(variant_text::stepTitle(s)) + "\n\n";
        std::vector<std::vector<std::string>> stepRows;
        for (const auto& task : s.tasks) {
            const variant_text::StepFigure f = variant_text::stepFigure(task);
            stepRows.push_back({markdown::code(task.task, Where::TableCell), cell(f.text),
                                cell(f.range.empty() ? "n/a" : f.range), cell(std::string(verdictName(task.verdict)))});
        }
        out += markdown::table(
                   {"Task", "Cost or change", "95% interval", "Verdict"},
                   {markdown::Align::Left, markdown::Align::Right, markdown::Align::Right, markdown::Align::Left},
                   stepRows) +
               "\n";
        for (const auto& task : s.tasks) {
            out += "- " + esc(task.sentence + ": " + std::string(verdictName(task.verdict))) + "\n";
            if (!task.changedSentence.empty()) out += "  - " + esc(task.changedSentence) + "\n";
        }
        out += "\n";
    }
    for (const auto& variant : v.variants) {
        std::string detail = reportToMarkdown(variant.report);
        detail.replace(0, std::string("## Verdict:").size(), "## " + heading(variant.label) + " verdict:");
        out += "\n" + detail;
    }
    return out;
}

}  // namespace fp8dash
