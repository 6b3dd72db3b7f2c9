// The report's sections of the comparison itself (report_model.h): verdict, review, FP8 configuration, evals, long
// context, domain judge and notes, and buildReport, which puts them with the production sections in order.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>

#include "fp8dash/core/lm_eval_paths.h"
#include "fp8dash/core/number_format.h"
#include "fp8dash/core/paired_tasks.h"
#include "fp8dash/core/report_format.h"
#include "fp8dash/core/review.h"
#include "fp8dash/core/time_series.h"
#include "fp8dash/core/variant_text.h"
#include "fp8dash/core/verdict_certainty.h"
#include "fp8dash/core/verdict_headline.h"
#include "report/changed_answers_report.h"
#include "report/long_context_format.h"
#include "report/report_sections.h"

namespace fp8dash::report_doc {

using numfmt::fixed;
using numfmt::general;

// ---- numbers and words

std::string format(const char* fmt, double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, fmt, v);
    return buf;
}

std::string bytesPerSecond(double v) {
    if (v >= 1e12) return fixed(v / 1e12, 2) + " TB/s";
    if (v >= 1e9) return fixed(v / 1e9, 0) + " GB/s";
    return fixed(v / 1e6, 0) + " MB/s";
}

std::string significant(double v) {
    return format("%.3g", v);
}

std::string readable(const std::string& iso) {
    return iso.empty() ? std::string("—") : readableTimestamp(iso);
}

std::string upper(std::string s) {
    for (char& c : s)
        if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
    return s;
}

std::string cellExcerpt(std::string text, std::size_t columns) {
    for (char& c : text)
        if (c == '\n' || c == '\r' || c == '\t') c = ' ';
    std::size_t cut = 0, n = 0;
    while (cut < text.size() && n < columns) {
        ++cut;
        while (cut < text.size() && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) ++cut;
        ++n;
    }
    return cut < text.size() ? text.substr(0, cut) + "…" : text;
}

const ReportChart* findChart(const ReportContext& ctx, const std::string& key) {
    for (const auto& c : ctx.charts)
        if (c.key == key && !c.png.empty()) return &c;
    return nullptr;
}

Only dataTableOnly(const ReportChart* chart) {
    return chart ? Only::Markdown : Only::Both;
}

Line chartLine(const ReportChart& chart) {
    return toned("Chart “" + chart.title + "” (drawn in the HTML and PDF reports): " + chart.caption, Tone::Muted);
}

namespace {

// ---- the sections

void addVerdict(Report& report, const ComparisonDocument& doc, const Decision& d) {
    Section s{"verdict", "Verdict", {}};
    Block banner;
    banner.kind = Block::Kind::Banner;
    banner.verdict = d.verdict;
    // The first line as every medium words it (verdict_headline.h): the deciding variant, what the verdict rests on,
    // and a caveat in a banner that cannot pass for a clean one.
    const VerdictHeadline headline = verdictHeadline(d);
    banner.bannerTitle = headline.title;
    banner.clean = headline.clean();
    banner.line = plain(d.verdict ? headline.advice()
                                  : std::string("Nothing in this comparison gives a verdict: it holds no eval runs, "
                                                "judge scores or production quality series."));
    for (const std::string& note : headline.notes())
        banner.line = banner.line + plain(" ") + (note.starts_with("⚠") ? strong(note) : plain(note));
    s.blocks.push_back(std::move(banner));
    // How sure the verdict is, beside it, in the words of the text report and the app's banner.
    const std::string sure = verdictCertainty(d, doc.options.thresholds, doc.options.cautious).sentence();
    if (!sure.empty()) s.paragraph(plain("How sure: " + sure + "."));
    std::vector<Line> reasons;
    for (const auto& r : d.reasons) reasons.push_back(plain(r));
    s.bullets(std::move(reasons));
    if (!doc.currentDecision()) s.paragraph(toned("No review decision is recorded in this comparison.", Tone::Muted));
    report.sections.push_back(std::move(s));
}

Tone outcomeTone(ReviewOutcome o) {
    switch (o) {
        case ReviewOutcome::ApprovedGo:
            return Tone::Go;
        case ReviewOutcome::ApprovedMonitor:
            return Tone::Monitor;
        case ReviewOutcome::Rejected:
            return Tone::Investigate;
    }
    return Tone::None;
}

std::string verdictWord(std::optional<Verdict> v) {
    return v ? std::string(verdictTitle(*v)) : std::string("no verdict");
}

void addReview(Report& report, const ComparisonDocument& doc, const Decision& d) {
    const ReviewDecision* current = doc.currentDecision();
    if (!current) return;
    Section s{"review", "Review decision", {}};
    Table t;
    t.keyValue = true;
    t.header = {"", ""};
    const auto row = [&t](const std::string& label, Line value) {
        t.rows.push_back({cell(label), Cell{std::move(value)}});
    };
    row("Outcome", strong(std::string(reviewOutcomeTitle(current->outcome)), outcomeTone(current->outcome)));
    if (current->variant) row("Variant", plain(*current->variant));
    row("Decided by", plain(current->by.empty() ? "(unnamed)" : current->by));
    row("When", plain(readable(current->at)));
    row("Why", plain(current->why.empty() ? "—" : current->why));
    row("Verdict when decided", plain(verdictWord(current->verdictAtDecision)));
    if (!current->toolVersion.empty()) row("Recorded with", plain("fp8dash " + current->toolVersion));
    s.table(std::move(t));
    const ReviewAssessment a = assessReview(*current, d);
    std::vector<Line> warnings;
    for (const auto& w : a.warnings) warnings.push_back(toned("⚠ " + w, Tone::Warning));
    if (warnings.empty()) s.paragraph(toned("The decision follows the current evidence.", Tone::Muted));
    s.bullets(std::move(warnings));
    if (doc.decisions.size() > 1) {
        s.heading("Earlier decisions");
        Table h;
        // A Variant column once any earlier decision names one (older files' histories read as before).
        const bool variants = std::any_of(doc.decisions.begin(), doc.decisions.end() - 1,
                                          [](const ReviewDecision& e) { return e.variant.has_value(); });
        h.header = {"When", "Outcome", "By", "Verdict then", "Why"};
        if (variants) h.header.insert(h.header.begin() + 2, "Variant");
        for (std::size_t i = 0; i + 1 < doc.decisions.size(); ++i) {
            const ReviewDecision& e = doc.decisions[i];
            std::vector<Cell> r = {cell(readable(e.at)),
                                   Cell{toned(std::string(reviewOutcomeTitle(e.outcome)), outcomeTone(e.outcome))},
                                   cell(e.by), cell(verdictWord(e.verdictAtDecision)), cell(e.why)};
            if (variants) r.insert(r.begin() + 2, cell(e.variant.value_or("—")));
            h.rows.push_back(std::move(r));
        }
        s.table(std::move(h));
    }
    report.sections.push_back(std::move(s));
}

std::string weightsText(const Fp8Config& c) {
    if (!c.weights) return c.quantization.empty() ? "not FP8" : "not FP8 (quantization=" + c.quantization + ")";
    return "FP8" + (c.weightsEvidence.empty() ? std::string() : " (" + c.weightsEvidence + ")");
}
std::string kvText(const Fp8Config& c) {
    if (c.kvCache) return "FP8 (" + c.kvCacheDtype + ")";
    // A quantised cache of another kind is named for what it is ("nvfp4 (4-bit NVFP4, not FP8)").
    if (classifyKvCacheDtype(c.kvCacheDtype).family == KvCacheDtypeFamily::OtherLowPrecision)
        return describeKvCacheDtype(c.kvCacheDtype);
    return c.kvCacheDtype.empty() ? "not FP8 (the model dtype)" : "not FP8 (" + c.kvCacheDtype + ")";
}
std::string kvScalesText(const Fp8Config& c) {
    if (!c.kvScales) return c.kvCache ? "scales 1.0 (none calculated or calibrated)" : "—";
    return "yes" + (c.kvScalesEvidence.empty() ? std::string() : " (" + c.kvScalesEvidence + ")");
}

// Several variants: the baseline and every candidate side by side, one column each.
void addVariantRuns(Report& report, const ComparisonDocument& doc, const VariantComparison& v) {
    Section s{"runs", "FP8 configuration", {}};
    std::vector<std::pair<std::string, const Fp8Config*>> runs{{v.baselineLabel, &v.baselineConfig}};
    std::vector<std::string> sources{doc.baseline.sourcePath, doc.candidate.sourcePath};
    for (const auto& c : doc.moreCandidates) sources.push_back(c.run.sourcePath);
    for (const auto& variant : v.variants) runs.emplace_back(variant.label, &variant.config);
    Table t;
    t.header = {""};
    for (const auto& [label, config] : runs) t.header.push_back(label);
    const auto row = [&](const std::string& label, const auto& value) {
        std::vector<Cell> cells{cell(label)};
        for (std::size_t k = 0; k < runs.size(); ++k) cells.push_back(Cell{value(*runs[k].second, k)});
        t.rows.push_back(std::move(cells));
    };
    row("Model",
        [](const Fp8Config& x, std::size_t) { return x.model.empty() ? plain("(not recorded)") : code(x.model); });
    row("Weights", [](const Fp8Config& x, std::size_t) { return plain(weightsText(x)); });
    row("KV cache", [](const Fp8Config& x, std::size_t) { return plain(kvText(x)); });
    row("KV scales", [](const Fp8Config& x, std::size_t) { return plain(kvScalesText(x)); });
    row("Activations",
        [](const Fp8Config& x, std::size_t) { return plain(x.activations ? "FP8 (W8A8, inferred)" : "not FP8"); });
    // A path as an identifier: in five narrow columns the PDF breaks it at its '/', '_' and '-', never inside a word.
    row("Results file", [&](const Fp8Config&, std::size_t k) {
        return k < sources.size() && !sources[k].empty() ? code(sources[k]) : plain("—");
    });
    s.table(std::move(t));
    std::vector<Line> layers{strong(v.baselineLabel + ":") + plain(" " + fp8LayersSummary(v.baselineConfig))};
    for (const auto& variant : v.variants)
        layers.push_back(strong(variant.label + ":") + plain(" " + fp8LayersSummary(variant.config)));
    s.bullets(std::move(layers));
    if (doc.control)
        s.paragraph(plain("Control run " + doc.control->label +
                          (doc.control->sourcePath.empty() ? "" : " (" + doc.control->sourcePath + ")") +
                          ": a second BF16 run, whose spread is each task's noise floor."));
    report.sections.push_back(std::move(s));
}

void addRuns(Report& report, const ComparisonDocument& doc, const Decision& d) {
    if (!doc.hasEvals || !d.evals) return;
    if (d.variants) return addVariantRuns(report, doc, *d.variants);
    const ComparisonReport& r = *d.evals;
    Section s{"runs", "FP8 configuration", {}};
    Table t;
    t.header = {"", r.baselineLabel, r.candidateLabel};
    const auto row = [&t](const std::string& label, Line b, Line c) {
        t.rows.push_back({cell(label), Cell{std::move(b)}, Cell{std::move(c)}});
    };
    const Fp8Config& b = r.baselineConfig;
    const Fp8Config& c = r.candidateConfig;
    const auto model = [](const Fp8Config& x) { return x.model.empty() ? plain("(not recorded)") : code(x.model); };
    const auto orDash = [](const std::string& x) { return plain(x.empty() ? "—" : x); };
    row("Model", model(b), model(c));
    row("Backend", orDash(b.backend), orDash(c.backend));
    row("dtype", orDash(b.dtype), orDash(c.dtype));
    row("Weights", plain(weightsText(b)), plain(weightsText(c)));
    row("KV cache", plain(kvText(b)), plain(kvText(c)));
    row("KV scales", plain(kvScalesText(b)), plain(kvScalesText(c)));
    row("Activations", plain(b.activations ? "FP8 (W8A8, inferred)" : "not FP8"),
        plain(c.activations ? "FP8 (W8A8, inferred)" : "not FP8"));
    const auto params = [](const Fp8Config& x) {
        return plain(x.paramsBillions ? general(*x.paramsBillions) + " B (from the name)" : std::string("—"));
    };
    row("Parameters", params(b), params(c));
    row("Results file", orDash(doc.baseline.sourcePath), orDash(doc.candidate.sourcePath));
    s.table(std::move(t));
    s.bullets({strong(r.baselineLabel + ":") + plain(" " + fp8LayersSummary(b)),
               strong(r.candidateLabel + ":") + plain(" " + fp8LayersSummary(c))});
    if (doc.control)
        s.paragraph(plain("Control run " + doc.control->label +
                          (doc.control->sourcePath.empty() ? "" : " (" + doc.control->sourcePath + ")") +
                          ": a second BF16 run, whose spread is each task's noise floor."));
    report.sections.push_back(std::move(s));
}

// One row per task, its subtasks below it. The paired test and the noise floor, when the report has them, are a
// second line under the confidence and the Δ (a table of eleven columns does not fit a page).
void taskRows(const TaskComparison& t, const std::string& parent, int depth, Table& table) {
    std::vector<Cell> row;
    Cell name{code(taskNameUnder(t.task, parent))};
    name.indent = depth;
    row.push_back(std::move(name));
    // The metric as a reader says it (core's readableMetric, the app's words) with the results file's key:
    // "exact match (strict)" over "exact_match,strict-match" (Markdown: "exact match (strict) · `exact_match,…`");
    // the key alone where the words are the key.
    const std::string key = t.metric.ends_with(",none") ? t.metric.substr(0, t.metric.size() - 5) : t.metric;
    const std::string words = readableMetric(t);
    Cell metric{words == key || key.empty() ? code(words) : plain(words)};
    if (words != key && !key.empty()) {
        metric.sub = key;  // under the words in HTML and PDF, beside them in Markdown
        metric.subCode = true;
    }
    if (!t.byLength.empty()) {
        metric.sub = "worst of " + std::to_string(t.byLength.size()) + " context lengths";
        metric.subCode = false;
    }
    row.push_back(std::move(metric));
    const auto value = [](double v, const std::optional<double>& se) {
        Cell c = cell(fixed(v, 4));
        if (se) c.sub = "± " + fixed(*se, 4);
        return c;
    };
    row.push_back(value(t.baseline, t.baselineStderr));
    row.push_back(value(t.candidate, t.candidateStderr));
    Cell delta = cell(formatPercent(t.deltaPct, 3));
    if (t.noiseFloorPct) delta.sub = "noise ± " + fixed(*t.noiseFloorPct, 3) + "%";
    row.push_back(std::move(delta));
    Cell degradation = cell(t.degradationPct ? fixed(*t.degradationPct, 3) + "%" : std::string("n/a"));
    if (t.recoveryPct) degradation.sub = "recovery " + fixed(*t.recoveryPct, 2) + "%";
    row.push_back(std::move(degradation));
    row.push_back(cell(formatSigmas(t.sigmas)));
    Cell confidence = cell(depth ? std::string() : confidenceSummary(t));
    if (t.paired) confidence.sub = "paired " + pairedTestSummary(t);
    if (!t.pairedLeftOut.empty()) confidence.sub = "⚠ paired statistics left out: " + t.pairedLeftOut;
    row.push_back(std::move(confidence));
    std::string verdict(verdictTitle(t.verdict));
    if (t.verdict != t.pointVerdict) verdict += " (cautious)";
    Cell v{strong(verdict, depth ? Tone::Muted : toneOf(t.verdict))};
    if (!depth) v.fill = toneOf(t.verdict);
    row.push_back(std::move(v));
    table.rows.push_back(std::move(row));
    table.rowNames.resize(table.rows.size() - 1);
    table.rowNames.push_back(t.task);
    for (const auto& sub : t.subtasks) taskRows(sub, t.task, depth + 1, table);
}

// Recovery as model cards give it: mean candidate / mean baseline; each task's under its degradation.
Line recoveryLine(const ComparisonReport& r) {
    return plain("Average recovery: ") + strong(fixed(*r.averageRecoveryPct, 2) + "%") +
           plain(" (mean " + r.candidateLabel + " / mean " + r.baselineLabel +
                 " over the compared higher-is-better tasks; “recovery” under a degradation is the task's own).");
}

// The answers the candidate changed on each monitor or investigate task (changed_answers_report.h): the counts, then
// the first lost answers, each a fact sheet (the question, the target) and a table of both sides (answer, response,
// value) under the run labels. Excerpts, so that a PDF page stays readable; the file holds the texts.
void addChangedAnswers(Section& s, const ComparisonReport& r, const ReportContext& ctx) {
    const auto tasks = answers_shown::tasksToShow(r, ctx.answerExamples);
    if (tasks.empty()) return;
    const std::size_t chars = ctx.answerExcerptChars;
    const auto excerptCell = [chars](const std::string& text) {
        const answers_shown::Excerpt e = answers_shown::excerpt(text, chars);
        Cell c = cell(e.text);
        if (e.cut) c.sub = answers_shown::cutNote(e, chars);
        return c;
    };
    s.heading("Changed answers");
    s.paragraph(toned(answers_shown::introduction(r.candidateLabel, ctx.answerExamples, chars), Tone::Muted));
    for (const answers_shown::TaskAnswers& t : tasks) {
        s.paragraph(code(t.task->task) +
                    plain(": " + changedAnswersSentence(*t.paired->changed, r.candidateLabel) + ". Verdict: ") +
                    strong(std::string(verdictTitle(t.task->verdict)), toneOf(t.task->verdict)) + plain("."));
        if (t.countsOnly) {
            s.paragraph(toned(answers_shown::countsOnlyLine(), Tone::Muted));
            continue;
        }
        if (t.lost.empty() && ctx.answerExamples > 0) {
            s.paragraph(toned(answers_shown::noLostLine(t, r.candidateLabel), Tone::Muted));
            continue;
        }
        for (std::size_t k = 0; k < t.lost.size(); ++k) {
            const ChangedAnswerExample& e = *t.lost[k];
            s.paragraph(strong(answers_shown::exampleTitle(e, k, t)));
            Table facts;
            facts.keyValue = true;
            facts.header = {"", ""};
            facts.cls = "answers";
            facts.rows.push_back({cell("Question"), excerptCell(e.question)});
            facts.rows.push_back({cell("Target"), excerptCell(e.target)});
            s.table(std::move(facts));
            Table sides;
            sides.cls = "answers";
            sides.header = {"", r.baselineLabel, r.candidateLabel};
            sides.rows.push_back({cell("Answer"), excerptCell(e.baseline.answer), excerptCell(e.candidate.answer)});
            sides.rows.push_back(
                {cell("Response"), excerptCell(e.baseline.response), excerptCell(e.candidate.response)});
            sides.rows.push_back({cell("Value"), cell(answers_shown::valueText(*t.paired, e.baseline.value)),
                                  cell(answers_shown::valueText(*t.paired, e.candidate.value))});
            s.table(std::move(sides));
        }
        const std::string more = answers_shown::moreLine(t, t.lost.size());
        if (!more.empty()) s.paragraph(toned(more, Tone::Muted));
    }
}

// One candidate's evals against the baseline. `alone`: say the evals' own verdict first (the overall one, above, has
// more evidence in it).
void addEvalsOf(Report& report, const ComparisonReport& r, Section s, bool alone, const ReportContext& ctx) {
    if (alone)
        s.paragraph(plain("The evals alone: ") + strong(std::string(verdictTitle(r.verdict)), toneOf(r.verdict)) +
                    plain("."));
    s.paragraph(plain("Degradation is the loss in the metric's good direction; Δ% = (" + r.candidateLabel + " − " +
                      r.baselineLabel + ") / |" + r.baselineLabel +
                      "| × 100. Thresholds: " + thresholdsSummary(r.thresholds) +
                      (r.cautious ? "; cautious policy (an unsettled task "
                                    "takes the worst band its interval reaches)"
                                  : "") +
                      ". ± under a value is lm-eval's standard error; σ is Δ in standard errors."));
    bool paired = false, noise = false, subtasks = false;
    for (const auto& t : r.tasks) {
        paired |= t.paired.has_value();
        noise |= t.noiseFloorPct.has_value();
        subtasks |= !t.subtasks.empty();
    }
    Table t;
    t.cls = "evals";
    t.header = {"Task", "Metric", r.baselineLabel, r.candidateLabel, "Δ%", "Degradation", "σ", "Confidence"};
    t.align = {Align::Left,  Align::Left,  Align::Right, Align::Right,
               Align::Right, Align::Right, Align::Right, Align::Left};
    t.header.push_back("Verdict");
    t.align.push_back(Align::Center);
    // Each task's row is a link target: "#task-<name>", or with several variants "#evals-2-task-<name>" (the second
    // candidate's table), so every id is unique on the page.
    t.rowIdPrefix = s.id == "evals" ? "task-" : s.id + "-task-";
    // Worst first, as the app's table and the forest plot below order them (core's worseFirst: the verdict, then the
    // degradation; the file order among equals). Subtasks stay under their group.
    std::vector<const TaskComparison*> order;
    for (const auto& task : r.tasks) order.push_back(&task);
    std::stable_sort(order.begin(), order.end(),
                     [](const TaskComparison* a, const TaskComparison* b) { return worseFirst(*a, *b); });
    for (const TaskComparison* task : order) taskRows(*task, "", 0, t);
    s.table(std::move(t));
    if (r.averageRecoveryPct) s.paragraph(recoveryLine(r));
    // The picture of the table (the ui draws it): "evals-forest" for a two-run comparison's one evals section,
    // "evals-forest-<k>" for the k-th candidate's section ("evals-<k>") of several.
    const std::string chartKey = s.id == "evals" ? "evals-forest" : "evals-forest-" + s.id.substr(s.id.find('-') + 1);
    if (const ReportChart* chart = findChart(ctx, chartKey)) {
        s.figure(chart);
        s.paragraph(chartLine(*chart), Only::Markdown);
    }
    std::vector<Line> notes;
    if (paired)
        notes.push_back(
            toned("“paired” under the confidence: the test on lm-eval's sample logs (McNemar for 0/1 "
                  "metrics, Wilcoxon otherwise), documents " +
                      r.candidateLabel + " lost and won.",
                  Tone::Muted));
    if (subtasks)
        notes.push_back(
            toned("Indented rows (↳) are a group's subtasks: shown, not counted toward the "
                  "verdict.",
                  Tone::Muted));
    if (noise)
        notes.push_back(toned("“noise” under Δ%: the noise floor |" + r.controlLabel + " − " + r.baselineLabel +
                                  "| / " + r.baselineLabel +
                                  ", the spread of two runs of the same BF16 setup; a Δ inside it is noise.",
                              Tone::Muted));
    for (const Line& n : notes) s.paragraph(n);

    std::vector<Line> stats;
    for (const auto& task : r.tasks)
        for (auto& line : taskStatisticsLines(task, r.thresholds, r.candidateLabel))
            stats.push_back(plain(std::move(line)));
    if (!stats.empty()) {
        s.heading("Statistics");
        s.paragraph(toned(statisticsMethod(r), Tone::Muted));  // the method once, then one line per task
        s.bullets(std::move(stats));
    }
    addChangedAnswers(s, r, ctx);
    std::vector<Line> missing;
    for (const auto& m : r.missing) missing.push_back(code(m.task) + plain(": " + m.reason));
    for (const auto& task : r.tasks)
        for (const auto& sub : task.subtasksNotCompared) missing.push_back(code(task.task) + plain(" subtask " + sub));
    if (!missing.empty()) {
        s.heading("Not compared");
        s.bullets(std::move(missing));
    }
    std::vector<Line> comparability;  // the comparability check (comparability.h): differences and name matches
    for (const auto& item : r.comparability)
        comparability.push_back(toned(comparabilityLine(item),
                                      item.severity == ComparabilitySeverity::Blocking ? Tone::Warning : Tone::Muted));
    if (!comparability.empty()) {
        s.heading("Comparability");
        s.bullets(std::move(comparability));
    }
    std::vector<Line> risks;
    for (const auto& f : r.risks) risks.push_back(toned("⚠ " + f.message, Tone::Warning));
    if (!risks.empty()) {
        s.heading("Risk flags");
        s.bullets(std::move(risks));
    }
    report.sections.push_back(std::move(s));
}

void addEvals(Report& report, const Decision& d, const ReportContext& ctx) {
    if (!d.evals) return;
    if (!d.variants)
        return addEvalsOf(report, *d.evals, Section{"evals", "Offline evals", {}}, d.judge || d.timeline, ctx);
    // Several variants: each candidate's own evals, as a two-run comparison shows them.
    for (std::size_t k = 0; k < d.variants->variants.size(); ++k) {
        const VariantResult& v = d.variants->variants[k];
        Section s{"evals-" + std::to_string(k + 1), "Offline evals: " + v.label, {}};
        s.paragraph(plain(v.label + " against " + d.variants->baselineLabel + ": ") +
                    strong(std::string(verdictTitle(v.verdict)), toneOf(v.verdict)) +
                    plain(v.passes ? " (passes the recommendation's gate)." : "."));
        addEvalsOf(report, v.report, std::move(s), false, ctx);
    }
}

// Long context: the per-length means of the RULER-like tasks, as a chart (the ui draws it: "long-context") and a
// table with each length's verdict, the worst marked.
void addLongContext(Report& report, const Decision& d, const ReportContext& ctx) {
    if (!d.evals || !d.evals->longContext) return;
    const ComparisonReport& r = *d.evals;
    const LongContextSummary& lc = *r.longContext;
    Section s{"long-context", "Long context", {}};
    s.paragraph(plain(longContextHeadline(lc)));
    if (const ReportChart* chart = findChart(ctx, "long-context")) {
        s.figure(chart);
        s.paragraph(chartLine(*chart), Only::Markdown);
    }
    const auto rows = longContextTable(lc, r.baselineLabel, r.candidateLabel);
    Table t;
    t.header = rows.front();
    t.align = {Align::Left, Align::Right, Align::Right, Align::Right, Align::Right, Align::Right, Align::Center};
    for (std::size_t i = 1; i < rows.size(); ++i) {
        std::vector<Cell> row;
        for (std::size_t c = 0; c + 1 < rows[i].size(); ++c) row.push_back(cell(rows[i][c]));
        const Verdict v = lc.lengths[i - 1].verdict;
        Cell verdict{strong(rows[i].back(), toneOf(v))};
        verdict.fill = toneOf(v);
        row.push_back(std::move(verdict));
        t.rows.push_back(std::move(row));
    }
    s.table(std::move(t));
    report.sections.push_back(std::move(s));
}

std::string dropPrompt(const JudgeDrop& drop) {
    for (const char* key : {"prompt", "question", "input"}) {
        auto it = drop.baselineFields.find(key);
        if (it != drop.baselineFields.end() && it->is_string()) return cellExcerpt(it->get<std::string>(), 90);
    }
    return "";
}

void addJudge(Report& report, const ComparisonDocument& doc, const Decision& d, const ReportContext& ctx) {
    if (!d.judge) return;
    const JudgeComparison& c = *d.judge;
    const std::string bl = doc.hasEvals ? doc.baseline.label : "BF16";
    const std::string cl = doc.hasEvals ? doc.candidate.label : "FP8";
    Section s{"judge", "Domain judge", {}};
    s.paragraph(plain("LLM-as-judge scores of the domain samples, scale " + general(c.scale.min) + "–" +
                      general(c.scale.max) + ". Verdict: ") +
                strong(std::string(verdictTitle(c.verdict)), toneOf(c.verdict)) + plain(" — " + c.reason));
    Table facts;
    facts.keyValue = true;
    facts.header = {"", ""};
    for (const auto& [label, value] : judgeFacts(c, bl, cl))
        if (label != "Verdict") facts.rows.push_back({cell(label), cell(value)});
    if (!c.baselineSource.empty() || !c.candidateSource.empty())
        facts.rows.push_back(
            {cell("Score files"), cell(bl + ": " + c.baselineSource + "; " + cl + ": " + c.candidateSource)});
    s.table(std::move(facts));

    const ReportChart* chart = findChart(ctx, "judge-distribution");
    if (!c.baselineDistribution.empty()) {
        if (chart) {
            s.figure(chart);
            s.paragraph(chartLine(*chart), Only::Markdown);
        }
        Table dist;
        dist.header = {"Score", bl, cl};
        dist.align = {Align::Right, Align::Right, Align::Right};
        for (std::size_t i = 0; i < c.baselineDistribution.size(); ++i)
            dist.rows.push_back({cell(std::to_string(c.distributionFrom + static_cast<int>(i))),
                                 cell(std::to_string(c.baselineDistribution[i])),
                                 cell(i < c.candidateDistribution.size() ? std::to_string(c.candidateDistribution[i])
                                                                         : std::string("0"))});
        if (!chart) s.heading("Score distribution");
        s.table(std::move(dist), dataTableOnly(chart));
    }
    if (!c.biggestDrops.empty()) {
        s.heading("Biggest drops");
        Table drops;
        drops.header = {"Sample", bl, cl, "Prompt"};
        drops.align = {Align::Left, Align::Right, Align::Right, Align::Left};
        for (std::size_t i = 0; i < c.biggestDrops.size() && i < 5; ++i) {
            const JudgeDrop& drop = c.biggestDrops[i];
            drops.rows.push_back({Cell{code(drop.id)}, cell(general(drop.baseline)), cell(general(drop.candidate)),
                                  cell(dropPrompt(drop))});
        }
        s.table(std::move(drops));
    }
    report.sections.push_back(std::move(s));
}

void addNotes(Report& report, const ComparisonDocument& doc) {
    if (doc.notes.empty()) return;
    Section s{"notes", "Notes", {}};
    Table t;
    t.header = {"When", "Author", "About", "Note"};
    for (const auto& n : doc.notes) {
        Cell when = cell(readable(n.created));
        if (!n.edited.empty()) when.sub = "edited " + readable(n.edited);
        t.rows.push_back({std::move(when), cell(n.author.empty() ? "—" : n.author),
                          n.task.empty() ? cell("the comparison") : Cell{code(n.task)}, cell(n.text)});
    }
    s.table(std::move(t));
    report.sections.push_back(std::move(s));
}

}  // namespace

Report buildReport(const ComparisonDocument& doc, const Decision& d, const ReportContext& ctx) {
    Report r;
    r.title = reportTitle(doc);
    r.meta.keyValue = true;
    r.meta.header = {"", ""};
    const auto meta = [&r](const std::string& label, const std::string& value) {
        r.meta.rows.push_back({cell(label), cell(value)});
    };
    meta("File", ctx.source.empty() ? std::string("not saved to a file") : ctx.source);
    meta("Comparison created",
         readable(doc.created) + (doc.toolVersion.empty() ? "" : " by fp8dash " + doc.toolVersion));
    // The version this document is written as: 4 only with serving evidence (comparison_file.h).
    const int writtenAs = doc.serving ? kComparisonVersion : kComparisonVersionWithoutServing;
    if (doc.version < writtenAs)
        meta("File format", "version " + std::to_string(doc.version) + ", upgraded to version " +
                                std::to_string(writtenAs) + " when read");
    meta("Report written", readable(ctx.generatedAt) + " by fp8dash " + ctx.toolVersion);
    // Several candidates: every run by name on the cover (the title may be the document's own), and in the footer.
    const std::string runs =
        doc.hasVariants() ? variant_text::runsLine(doc.baseline.label, variant_text::candidateLabels(doc)) : "";
    if (!runs.empty()) meta("Runs compared", runs);
    addVerdict(r, doc, d);
    addReview(r, doc, d);
    addVariants(r, d);
    addLayerCosts(r, d);
    addServing(r, d, ctx);
    addRuns(r, doc, d);
    addEvals(r, d, ctx);
    addLongContext(r, d, ctx);
    addJudge(r, doc, d, ctx);
    addTimeline(r, doc, d, ctx);
    addBenchmarks(r, doc, ctx);
    addCapacity(r, doc, d);
    addNotes(r, doc);
    r.footer = (runs.empty() ? std::string()
                             : variant_text::runsLineShort(doc.baseline.label, variant_text::candidateLabels(doc),
                                                           kRunningTitleChars) +
                                   ". ") +
               "Written by fp8dash " + ctx.toolVersion + " on " + readable(ctx.generatedAt) +
               (ctx.source.empty() ? std::string() : " from " + ctx.source) + ".";
    return r;
}

}  // namespace fp8dash::report_doc
