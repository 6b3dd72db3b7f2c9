// The report's sections of several variants (report_model.h, README "Variants and layer steps"): "Which FP8 layers to
// enable" (the recommendation and the tasks x variants table) and "What each FP8 layer costs" (the layer steps: each
// step's tasks with their figure and 95% interval, the answers each step changed, the step that costs each task
// most), in compare's words (fp8dash/core/variant_text.h).
#include <algorithm>

#include "fp8dash/core/eval_comparison.h"
#include "fp8dash/core/report_format.h"
#include "fp8dash/core/variant_text.h"
#include "report/report_sections.h"

namespace fp8dash::report_doc {

void addVariants(Report& report, const Decision& d) {
    if (!d.variants) return;
    const VariantComparison& v = *d.variants;
    const Recommendation& rec = v.recommendation;
    Section s{"variants", "Which FP8 layers to enable", {}};
    s.paragraph(plain("Recommendation: ") + strong(variant_text::recommended(v), toneOf(rec.verdict)) +
                plain(" (gate: " + variant_text::gate(rec.options) + "): the most aggressive variant that passes."));
    std::vector<Line> lines;
    for (const auto& line : variant_text::recommendationLines(v)) lines.push_back(plain(line));
    s.bullets(std::move(lines));

    s.heading("Variants");
    s.paragraph(toned(
        "Each cell: value (recovery against " + v.baselineLabel + ") verdict; " + thresholdsSummary(v.thresholds) + ".",
        Tone::Muted));
    const variant_text::Table vt = variant_text::table(v);
    Table t;
    // The evals table's small type, and columns that wrap (right-aligned cells do not): five runs fit a page.
    t.cls = "evals";
    t.header = vt.header;
    t.align.assign(vt.header.size(), Align::Left);
    t.align[1] = Align::Right;
    for (std::size_t i = 0; i < vt.rows.size(); ++i) {
        std::vector<Cell> row;
        const bool summary = i + 2 >= vt.rows.size();  // the Average recovery and Verdict rows
        for (std::size_t c = 0; c < vt.rows[i].size(); ++c) {
            const std::string& text = vt.rows[i][c];
            const std::optional<Verdict>& verdict = vt.verdicts[i][c];
            Cell x = cell(text);
            if (c == 0) x = Cell{summary ? strong(text) : code(text)};
            if (verdict) {
                if (summary) x = Cell{strong(text, toneOf(*verdict))};  // the variant's verdict
                x.fill = toneOf(*verdict);
            }
            row.push_back(std::move(x));
        }
        t.rows.push_back(std::move(row));
    }
    s.table(std::move(t));
    s.paragraph(toned("What each FP8 layer costs on its own: the next section.", Tone::Muted));
    report.sections.push_back(std::move(s));
}

void addLayerCosts(Report& report, const Decision& d) {
    if (!d.variants) return;
    const VariantComparison& v = *d.variants;
    Section s{"layer-costs", "What each FP8 layer costs", {}};
    if (v.steps.empty()) {
        s.paragraph(plain("No two runs differ in exactly one layer, so no layer's cost is measured on its own."));
        report.sections.push_back(std::move(s));
        return;
    }
    s.paragraph(
        toned("Each layer step compares two runs that differ in exactly one layer directly (paired where both "
              "have sample logs): what the step costs each task, or how it changes it, with the 95% interval "
              "on the same scale. The verdict is the step's own, by " +
                  thresholdsSummary(v.thresholds) + ".",
              Tone::Muted));
    for (const LayerStep& step : v.steps) {
        s.heading(variant_text::stepTitle(step));
        // The step's tasks worst first, as the evals table and the slides order them.
        std::vector<const LayerStepTask*> tasks;
        for (const LayerStepTask& task : step.tasks) tasks.push_back(&task);
        std::stable_sort(tasks.begin(), tasks.end(), [](const LayerStepTask* a, const LayerStepTask* b) {
            return worseFirst(a->verdict, a->degradationPct, b->verdict, b->degradationPct);
        });
        Table t;
        t.cls = "evals";
        t.header = {"Task", "Cost or change", "95% interval", "Evidence", "Verdict"};
        t.align = {Align::Left, Align::Right, Align::Right, Align::Left, Align::Center};
        std::vector<Line> changed;
        for (const LayerStepTask* task : tasks) {
            const variant_text::StepFigure f = variant_text::stepFigure(*task);
            Cell figure = cell(f.text);
            figure.fill = toneOf(task->verdict);
            Cell verdict{strong(std::string(verdictTitle(task->verdict)), toneOf(task->verdict))};
            verdict.fill = toneOf(task->verdict);
            t.rows.push_back({Cell{code(task->task)}, std::move(figure), cell(f.range.empty() ? "n/a" : f.range),
                              cell(task->paired ? "paired sample logs" : "lm-eval's standard errors"),
                              std::move(verdict)});
            // The answers the step changed, under the table.
            if (!task->changedSentence.empty())
                changed.push_back(code(task->task) + plain(": " + task->changedSentence));
        }
        s.table(std::move(t));
        s.bullets(std::move(changed));
    }
    if (!v.costliestStep.empty()) {
        s.heading("The step that costs each task most");
        std::vector<Line> costliest;
        for (const auto& [task, step] : v.costliestStep) costliest.push_back(code(task) + plain(": " + step));
        s.bullets(std::move(costliest));
    }
    report.sections.push_back(std::move(s));
}

}  // namespace fp8dash::report_doc
