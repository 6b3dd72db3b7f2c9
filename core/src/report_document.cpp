// The whole-comparison report (report_document.h). One builder describes the report as sections of blocks
// (paragraphs, lists, tables, figures); two writers turn that into HTML and Markdown, so both say the same.
#include "fp8dash/core/report_document.h"
#include "fp8dash/core/lm_eval_paths.h"
#include "fp8dash/core/number_format.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>

#include "fp8dash/core/capacity.h"
#include "fp8dash/core/kv_headline.h"
#include "fp8dash/core/report_format.h"
#include "fp8dash/core/review.h"
#include "fp8dash/core/time_series.h"
#include "fp8dash/core/vllm_metrics.h"
#include "long_context_format.h"
#include "text_util.h"

namespace fp8dash {
namespace {

// ---- the report as data

enum class Tone { None, Go, Monitor, Investigate, Muted, Warning };

Tone toneOf(Verdict v) {
    switch (v) {
        case Verdict::Go:
            return Tone::Go;
        case Verdict::Monitor:
            return Tone::Monitor;
        case Verdict::Investigate:
            return Tone::Investigate;
    }
    return Tone::None;
}

// A piece of inline text.
struct Span {
    std::string text;
    bool strong = false;
    bool code = false;  // an identifier: a task, metric, model or query
    Tone tone = Tone::None;
};
using Line = std::vector<Span>;

Line plain(std::string text) {
    return {Span{std::move(text)}};
}
Line strong(std::string text, Tone tone = Tone::None) {
    return {Span{std::move(text), true, false, tone}};
}
Line code(std::string text) {
    return {Span{std::move(text), false, true}};
}
Line toned(std::string text, Tone tone) {
    return {Span{std::move(text), false, false, tone}};
}
Line operator+(Line a, const Line& b) {
    a.insert(a.end(), b.begin(), b.end());
    return a;
}

struct Cell {
    Cell() = default;
    explicit Cell(Line l) : line(std::move(l)) {}
    Line line;
    std::string sub;         // a second, smaller line (a standard error); Markdown appends it
    int indent = 0;          // subtask depth
    Tone fill = Tone::None;  // a tinted cell (verdicts)
};
Cell cell(std::string text) {
    return Cell{plain(std::move(text))};
}

enum class Align { Left, Right, Center };

struct Table {
    std::vector<std::string> header;
    std::vector<Align> align;  // per column; Left when absent
    std::vector<std::vector<Cell>> rows;
    bool keyValue = false;  // a two-column fact sheet: the first column is a label
    std::string cls;        // an extra class for the stylesheet ("evals": the wide task table)
};

enum class Only { Both, Html, Markdown };

struct Block {
    enum class Kind { Paragraph, Bullets, Table, Figure, Heading, Banner };
    Kind kind = Kind::Paragraph;
    Only only = Only::Both;
    Line line;                // Paragraph, Heading, Banner (the advice)
    std::vector<Line> items;  // Bullets
    Table table;
    const ReportChart* chart = nullptr;  // Figure
    std::optional<Verdict> verdict;      // Banner
    std::string bannerTitle;             // Banner: "GO", "NO VERDICT"
};

struct Section {
    std::string id;
    std::string title;
    std::vector<Block> blocks;

    void paragraph(Line l, Only only = Only::Both) {
        Block b;
        b.line = std::move(l);
        b.only = only;
        blocks.push_back(std::move(b));
    }
    void heading(std::string text) {
        Block b;
        b.kind = Block::Kind::Heading;
        b.line = plain(std::move(text));
        blocks.push_back(std::move(b));
    }
    void bullets(std::vector<Line> items) {
        if (items.empty()) return;
        Block b;
        b.kind = Block::Kind::Bullets;
        b.items = std::move(items);
        blocks.push_back(std::move(b));
    }
    void table(Table t, Only only = Only::Both) {
        Block b;
        b.kind = Block::Kind::Table;
        b.table = std::move(t);
        b.only = only;
        blocks.push_back(std::move(b));
    }
    void figure(const ReportChart* chart) {
        if (!chart) return;
        Block b;
        b.kind = Block::Kind::Figure;
        b.chart = chart;
        blocks.push_back(std::move(b));
    }
};

struct Report {
    std::string title;
    Table meta;
    std::vector<Section> sections;
    std::string footer;
};

// ---- numbers and words

std::string format(const char* fmt, double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, fmt, v);
    return buf;
}
using numfmt::fixed;
using numfmt::general;

std::string grouped(std::uint64_t v) {
    std::string digits = std::to_string(v), out;
    for (std::size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
        out += digits[i];
    }
    return out;
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

// The first `columns` code points of UTF-8 text, "…" when cut; line breaks become spaces.
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

// A chart's data table goes into Markdown always and into HTML only when the chart itself is not there.
Only dataTableOnly(const ReportChart* chart) {
    return chart ? Only::Markdown : Only::Both;
}

Line chartLine(const ReportChart& chart) {
    return toned("Chart “" + chart.title + "” (drawn in the HTML and PDF reports): " + chart.caption, Tone::Muted);
}

// ---- the sections

void addVerdict(Report& report, const ComparisonDocument& doc, const Decision& d) {
    Section s{"verdict", "Verdict", {}};
    Block banner;
    banner.kind = Block::Kind::Banner;
    banner.verdict = d.verdict;
    banner.bannerTitle = d.verdict ? std::string(verdictTitle(*d.verdict)) : std::string("NO VERDICT");
    banner.line = plain(d.verdict ? std::string(verdictAdvice(*d.verdict))
                                  : std::string("Nothing in this comparison gives a verdict: it holds no eval runs, "
                                                "judge scores or production quality series."));
    s.blocks.push_back(std::move(banner));
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
    row("Decided by", plain(current->by.empty() ? "(unnamed)" : current->by));
    row("When", plain(readable(current->at)));
    row("Why", plain(current->why.empty() ? "—" : current->why));
    row("Verdict when decided", plain(verdictWord(current->verdictAtDecision)));
    if (!current->toolVersion.empty()) row("Recorded with", plain("fp8dash " + current->toolVersion));
    s.table(std::move(t));
    const ReviewAssessment a = assessReview(*current, d.verdict);
    std::vector<Line> warnings;
    for (const auto& w : a.warnings) warnings.push_back(toned("⚠ " + w, Tone::Warning));
    if (warnings.empty()) s.paragraph(toned("The decision follows the current evidence.", Tone::Muted));
    s.bullets(std::move(warnings));
    if (doc.decisions.size() > 1) {
        s.heading("Earlier decisions");
        Table h;
        h.header = {"When", "Outcome", "By", "Verdict then", "Why"};
        for (std::size_t i = 0; i + 1 < doc.decisions.size(); ++i) {
            const ReviewDecision& e = doc.decisions[i];
            h.rows.push_back({cell(readable(e.at)),
                              Cell{toned(std::string(reviewOutcomeTitle(e.outcome)), outcomeTone(e.outcome))},
                              cell(e.by), cell(verdictWord(e.verdictAtDecision)), cell(e.why)});
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
    if (!c.kvScales) return c.kvCache ? "none (scale 1.0)" : "—";
    return "yes" + (c.kvScalesEvidence.empty() ? std::string() : " (" + c.kvScalesEvidence + ")");
}

void addRuns(Report& report, const ComparisonDocument& doc, const Decision& d) {
    if (!doc.hasEvals || !d.evals) return;
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
    // The metric's name, its filter below ("exact_match" / "strict-match"); lm-eval's "none" filter says nothing.
    Cell metric{code(t.metricName.empty() ? t.metric : t.metricName)};
    if (!t.metricName.empty() && !t.filter.empty() && t.filter != "none") metric.sub = t.filter;
    if (!t.byLength.empty()) metric.sub = "worst of " + std::to_string(t.byLength.size()) + " context lengths";
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
    row.push_back(std::move(confidence));
    std::string verdict(verdictTitle(t.verdict));
    if (t.verdict != t.pointVerdict) verdict += " (cautious)";
    Cell v{strong(verdict, depth ? Tone::Muted : toneOf(t.verdict))};
    if (!depth) v.fill = toneOf(t.verdict);
    row.push_back(std::move(v));
    table.rows.push_back(std::move(row));
    for (const auto& sub : t.subtasks) taskRows(sub, t.task, depth + 1, table);
}

// Recovery as model cards give it: mean candidate / mean baseline; each task's under its degradation.
Line recoveryLine(const ComparisonReport& r) {
    return plain("Average recovery: ") + strong(fixed(*r.averageRecoveryPct, 2) + "%") +
           plain(" (mean " + r.candidateLabel + " / mean " + r.baselineLabel +
                 " over the compared higher-is-better tasks; “recovery” under a degradation is the task's own).");
}

void addEvals(Report& report, const Decision& d) {
    if (!d.evals) return;
    const ComparisonReport& r = *d.evals;
    Section s{"evals", "Offline evals", {}};
    if (d.judge || d.timeline)
        s.paragraph(plain("The evals alone: ") + strong(std::string(verdictTitle(r.verdict)), toneOf(r.verdict)) +
                    plain("."));
    s.paragraph(plain("Degradation is the loss in the metric's good direction; Δ% = (" + r.candidateLabel + " − " +
                      r.baselineLabel + ") / |" + r.baselineLabel +
                      "| × 100. Thresholds: " + thresholdsSummary(r.thresholds) +
                      (r.cautious ? "; cautious policy (an inconclusive task "
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
    for (const auto& task : r.tasks) taskRows(task, "", 0, t);
    s.table(std::move(t));
    if (r.averageRecoveryPct) s.paragraph(recoveryLine(r));
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
        for (auto& line : taskStatisticsLines(task, r.thresholds)) stats.push_back(plain(std::move(line)));
    if (!stats.empty()) {
        s.heading("Statistics");
        s.paragraph(toned(statisticsMethod(r), Tone::Muted));  // the method once, then one line per task
        s.bullets(std::move(stats));
    }
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

void addTimeline(Report& report, const ComparisonDocument& doc, const Decision& d, const ReportContext& ctx) {
    if (!d.timeline || !doc.timeline) return;
    const TimelineReport& r = *d.timeline;
    const TimelineData& data = *doc.timeline;
    const TimelineSettings& st = data.settings;
    Section s{"timeline", "Production timeline", {}};
    s.paragraph(
        plain(formatTimeUtc(st.from) + " → " + formatTimeUtc(st.to) + ", step " + general(st.step) + " s. Verdict: ") +
        (r.verdict ? strong(std::string(verdictTitle(*r.verdict)), toneOf(*r.verdict))
                   : plain("none (it needs a quality series and the change time)")) +
        plain("."));
    std::vector<Line> reasons;
    for (const auto& reason : r.reasons) reasons.push_back(plain(reason));
    s.bullets(std::move(reasons));
    if (const ReportChart* chart = findChart(ctx, "timeline")) {
        s.figure(chart);
        s.paragraph(chartLine(*chart), Only::Markdown);
    }
    Table t;
    t.header = {"Signal", "Before", "After", "Change", "Assessment"};
    t.align = {Align::Left, Align::Right, Align::Right, Align::Right, Align::Left};
    const auto mean = [](const std::optional<double>& v, std::size_t n, int decimals) {
        return v ? fixed(*v, decimals) + " (n=" + std::to_string(n) + ")" : std::string("—");
    };
    if (data.throughput)
        t.rows.push_back({cell("Throughput (tokens/s)"),
                          cell(mean(r.throughput.beforeMean, r.throughput.beforeCount, 1)),
                          cell(mean(r.throughput.afterMean, r.throughput.afterCount, 1)),
                          cell(formatPercent(r.throughput.deltaPct(), 1)), cell(r.throughputAssessment)});
    if (data.quality) {
        const auto dp = r.quality.deltaPoints();
        t.rows.push_back({cell("Quality (judge points)"), cell(mean(r.quality.beforeMean, r.quality.beforeCount, 3)),
                          cell(mean(r.quality.afterMean, r.quality.afterCount, 3)),
                          cell(dp ? format("%+.3f", *dp) : std::string("—")), cell(r.qualityAssessment)});
    }
    if (!t.rows.empty()) s.table(std::move(t));
    std::vector<Line> facts;
    if (r.changeAt)
        facts.push_back(plain("FP8 switched on at " + formatTimeUtc(*r.changeAt) +
                              "; “after” starts 5 minutes later (the rate window)."));
    else
        facts.push_back(plain("The time FP8 was switched on is not set."));
    if (data.detectedChange)
        facts.push_back(plain(
            "vLLM's cache_config_info shows cache_dtype " + describeKvCacheDtype(data.detectedChange->from) + " → " +
            describeKvCacheDtype(data.detectedChange->to) + " at " + formatTimeUtc(data.detectedChange->at) + "."));
    for (const auto& risk : r.risks) facts.push_back(plain("Risk: " + risk + "."));
    std::string sources;
    if (data.throughput) sources += "throughput from Prometheus " + st.prometheusUrl + " (" + st.throughputQuery + ")";
    if (st.qualitySource == QualitySource::Langfuse)
        sources += (sources.empty() ? "" : "; ") + std::string("quality: Langfuse scores “") + st.scoreName + "” at " +
                   st.langfuseUrl;
    else if (st.qualitySource == QualitySource::Prometheus)
        sources += (sources.empty() ? "" : "; ") + std::string("quality from Prometheus (") + st.qualityQuery + ")";
    if (!sources.empty()) facts.push_back(plain("Sources: " + sources + "."));
    s.bullets(std::move(facts));
    if (data.quality) {
        s.heading("Quality alert");
        s.paragraph(code(st.rule.promql("q")) +
                    plain(", held for " + general(st.rule.holdForS / 60) + " minutes; evaluated " +
                          (data.alertsEvaluatedBy == "prometheus" ? "by Prometheus" : "locally") + " with " +
                          windowSemanticsTitle(st.rule.windows) +
                          (data.windowSemanticsBasis.empty() ? "" : " (" + data.windowSemanticsBasis + ")") + "."));
        if (!data.server.empty()) s.paragraph(plain("Prometheus API served by " + data.server + "."));
        if (r.alerts.empty()) {
            s.paragraph(plain("The alert never went pending."));
        } else {
            Table a;
            a.header = {"Pending", "Firing", "Resolved"};
            for (const auto& e : r.alerts)
                a.rows.push_back(
                    {cell(formatTimeUtc(e.pendingAt)),
                     Cell{e.firingAt ? toned(formatTimeUtc(*e.firingAt), Tone::Investigate) : plain("never fired")},
                     cell(e.resolvedAt ? formatTimeUtc(*e.resolvedAt) : std::string("still active"))});
            s.table(std::move(a));
        }
    }
    std::vector<Line> warnings;
    for (const auto& w : data.warnings) warnings.push_back(toned("⚠ From the server: " + w, Tone::Warning));
    s.bullets(std::move(warnings));
    report.sections.push_back(std::move(s));
}

// The KV headline (kv_headline.h): the figure an ML engineer should weigh, how to read it, and the cache it came from.
void addKvHeadline(Section& s, const BenchResults& b) {
    const auto h = kvHeadline(b);
    if (!h) return;
    s.paragraph(strong("Headline: " + h->summary() + ".") + plain(" " + h->reading));
    s.paragraph(plain("Source: " + kvSourceText(b.kv[h->row].source) + "."));
}

// The KV table with the metrics of kv_headline.h, and their definitions in one line each. Rows of older fp8dash have
// no attention-output error: their old figure gets a column of its own, labelled as not comparable.
void addKvTable(Section& s, const BenchResults& b) {
    bool legacyColumn = false;
    for (const auto& p : b.kv) legacyColumn = legacyColumn || (!p.hasAttentionMetrics && p.legacyAttnRelError);
    const auto pct = [](bool has, double v) { return cell(has ? kvPercentText(v) : std::string("—")); };
    const auto count = [](const std::optional<std::uint64_t>& n) { return n ? grouped(*n) : std::string("—"); };
    Table t;
    t.header = {"Scaling",     "Context",     "Attention-output error", "Attention TVD",
                "K rel. RMSE", "V rel. RMSE", "Saturated K / V",        "Elements/s"};
    if (legacyColumn) t.header.push_back("Old attention figure (not comparable)");
    t.align.assign(t.header.size(), Align::Right);
    t.align[0] = Align::Left;
    for (const auto& p : b.kv) {
        std::vector<Cell> row{
            Cell{code(p.scaling)},
            cell(grouped(static_cast<std::uint64_t>(p.context))),
            pct(p.hasAttentionMetrics, p.attnOutRelRmse),
            pct(p.hasAttentionMetrics, p.attnWeightTvd),
            pct(true, p.key.relRmse),
            pct(true, p.value.relRmse),
            cell(count(p.key.saturated) + " / " + count(p.value.saturated)),
            cell(p.elementsPerSecond >= 1e6
                     ? grouped(static_cast<std::uint64_t>(std::llround(p.elementsPerSecond / 1e6))) + " M/s"
                 : p.elementsPerSecond > 0 ? significant(p.elementsPerSecond) + "/s"
                                           : std::string("—"))};
        if (legacyColumn)
            row.push_back(cell(p.legacyAttnRelError && !p.hasAttentionMetrics ? significant(*p.legacyAttnRelError)
                                                                              : std::string("—")));
        t.rows.push_back(std::move(row));
    }
    s.table(std::move(t));
    std::vector<Line> definitions;
    for (const char* key :
         {"attn_out_rel_rmse", "attn_weight_tvd", "key.rel_rmse", "value.rel_rmse", "saturated", "elements_per_s"})
        for (const KvMetricDefinition& d : kvMetricDefinitions())
            if (d.key == key) definitions.push_back(strong(d.name) + plain(": " + d.definition));
    if (legacyColumn)
        definitions.push_back(strong("Old attention figure") + plain(": " + kvMetricDefinition("attn_rel_error")));
    s.bullets(std::move(definitions));
}

void addBenchmarks(Report& report, const ComparisonDocument& doc, const ReportContext& ctx) {
    if (!doc.benchmarks) return;
    const BenchResults& b = *doc.benchmarks;
    Section s{"benchmarks", "Local benchmarks", {}};
    s.paragraph(plain("Measured " + (b.created.empty() ? std::string("(time not recorded)") : readable(b.created)) +
                      (b.model.empty() ? "" : " with the shapes of " + b.model) + ", " +
                      (b.backend.empty() ? std::string("unknown") : b.backend) + " backend" +
                      (b.cancelled ? "; the run was cancelled, so the results are partial" : "") + "."));
    const BenchDevice& dev = b.device;
    Table device;
    device.keyValue = true;
    device.header = {"", ""};
    if (dev.available && !dev.name.empty()) {
        std::string line = dev.name;
        std::vector<std::string> parts;
        if (!dev.computeCapability.empty()) parts.push_back("compute capability " + dev.computeCapability);
        if (dev.memoryBytes) parts.push_back(formatBytes(dev.memoryBytes));
        if (dev.multiprocessors) parts.push_back(std::to_string(dev.multiprocessors) + " SMs");
        for (std::size_t i = 0; i < parts.size(); ++i) line += (i ? ", " : " (") + parts[i];
        if (!parts.empty()) line += ")";
        device.rows.push_back({cell("Device"), cell(line)});
        if (dev.peak)
            device.rows.push_back(
                {cell("Datasheet"), cell(dev.peak->name + ": FP8 " + general(dev.peak->fp8DenseTflops) + " / BF16 " +
                                         general(dev.peak->bf16DenseTflops) + " TFLOP/s dense, " +
                                         general(dev.peak->memoryBandwidthGBps) + " GB/s")});
    } else {
        device.rows.push_back(
            {cell("Device"),
             cell("no usable GPU: " + (dev.reason.empty() ? std::string("no reason given") : dev.reason))});
    }
    if (!b.kvBackend.empty()) device.rows.push_back({cell("KV error computed by"), cell(b.kvBackend)});
    s.table(std::move(device));

    const ReportChart* roofline = findChart(ctx, "bench-roofline");
    const ReportChart* speedup = findChart(ctx, "bench-speedup");
    const ReportChart* kvChart = findChart(ctx, "bench-kv");
    s.heading("GEMM: FP8 against BF16");
    if (b.gemm.empty()) {
        s.paragraph(plain("Skipped: " + (b.gemmSkipped.empty() ? std::string("no results") : b.gemmSkipped) + "."));
    } else {
        for (const ReportChart* chart : {roofline, speedup}) {
            if (!chart) continue;
            s.figure(chart);
            s.paragraph(chartLine(*chart), Only::Markdown);
        }
        Table g;
        g.header = {"Layer", "M × N × K", "BF16 TFLOP/s", "FP8 TFLOP/s", "FP8 speedup", "FP8 % of roof"};
        g.align = {Align::Left, Align::Left, Align::Right, Align::Right, Align::Right, Align::Right};
        std::vector<const BenchGemmPoint*> order;
        for (const auto& p : b.gemm)
            if (p.precision != "bf16" && !p.fastAccum) order.push_back(&p);
        const auto bf16Of = [&b](const BenchGemmPoint& p) -> const BenchGemmPoint* {
            for (const auto& q : b.gemm)
                if (q.precision == "bf16" && q.layer == p.layer && q.m == p.m && q.n == p.n && q.k == p.k) return &q;
            return nullptr;
        };
        const auto rate = [](const BenchGemmPoint* p) {
            if (!p) return std::string("—");
            return p->skipped.empty() ? fixed(p->tflops, 1) : "skipped: " + p->skipped;
        };
        for (const BenchGemmPoint* p : order) {
            g.rows.push_back(
                {Cell{code(p->layer)},
                 cell(std::to_string(p->m) + " × " + std::to_string(p->n) + " × " + std::to_string(p->k)),
                 cell(rate(bf16Of(*p))), cell(rate(p)),
                 cell(p->skipped.empty() && p->speedupVsBf16 > 0 ? fixed(p->speedupVsBf16, 2) + "×" : std::string("—")),
                 cell(p->skipped.empty() && p->roofTflops ? fixed(p->percentOfRoof, 1) + "%" : std::string("—"))});
        }
        s.table(std::move(g));
    }
    if (!b.bandwidth.empty() || !b.bandwidthSkipped.empty()) {
        s.heading("Memory bandwidth");
        if (b.bandwidth.empty()) {
            s.paragraph(plain("Skipped: " + b.bandwidthSkipped + "."));
        } else {
            Table t;
            t.header = {"Kernel", "Size", "Rate", "% of datasheet"};
            t.align = {Align::Left, Align::Right, Align::Right, Align::Right};
            for (const auto& p : b.bandwidth)
                t.rows.push_back({Cell{code(p.kernel)}, cell(formatBytes(p.bytes)),
                                  cell(p.skipped.empty() ? bytesPerSecond(p.bytesPerSecond) : "skipped: " + p.skipped),
                                  cell(p.skipped.empty() && p.percentOfPeak > 0 ? fixed(p.percentOfPeak, 1) + "%"
                                                                                : std::string("—"))});
            s.table(std::move(t));
        }
    }
    s.heading("KV cache in FP8 E4M3: error");
    if (b.kv.empty()) {
        s.paragraph(plain("Skipped: " + (b.kvSkipped.empty() ? std::string("no results") : b.kvSkipped) + "."));
    } else {
        addKvHeadline(s, b);
        if (kvChart) {
            s.figure(kvChart);
            s.paragraph(chartLine(*kvChart), Only::Markdown);
        }
        addKvTable(s, b);  // the headline, the table and the definitions (kv_headline.h)
    }
    std::vector<Line> warnings;
    for (const auto& w : b.warnings) warnings.push_back(toned("⚠ " + w, Tone::Warning));
    s.bullets(std::move(warnings));
    report.sections.push_back(std::move(s));
}

std::string dtypeLabel(const std::string& weights, const std::string& kv) {
    return "weights " + upper(weights) + ", KV " + upper(kv);
}

void addCapacity(Report& report, const ComparisonDocument& doc) {
    if (!doc.capacity) return;
    const CapacitySettings& st = *doc.capacity;
    Section s{"capacity", "KV-cache capacity", {}};
    s.paragraph(plain("Model ") + code(st.model) +
                plain(" on " + std::to_string(st.gpus) + " × " + st.gpu + ", GPU memory utilisation " +
                      fixed(st.gpuUtilization, 2) + ", context " +
                      grouped(static_cast<std::uint64_t>(st.contextTokens)) + " tokens, runtime overhead " +
                      general(st.overheadGiB) + " GiB per GPU; chosen: " + dtypeLabel(st.weights, st.kv) + "."));
    if (st.gpu == "local") {
        s.paragraph(
            toned("Planned for the GPUs of the machine where it was made (“local”): the figures depend on "
                  "their free memory at the time, so they cannot be recomputed offline. Open the comparison on "
                  "that machine (Bench › Show Capacity) to see them.",
                  Tone::Warning));
        report.sections.push_back(std::move(s));
        return;
    }
    auto plan = planCapacityComparison(st, nullptr);
    if (!plan) {
        s.paragraph(toned("The plan cannot be recomputed here: " + plan.error().message, Tone::Warning));
        report.sections.push_back(std::move(s));
        return;
    }
    const CapacityResult& bf = plan->bf16;
    const CapacityResult& sel = plan->selected;
    s.paragraph(plain(sel.inputs.model.name + " on " + std::to_string(sel.inputs.gpus) + " × " +
                      sel.inputs.gpu.displayName + " (" + formatBytes(sel.inputs.gpu.memoryBytes) + " each)."));
    Table t;
    t.header = {"", "BF16 (weights BF16, KV BF16)", "Chosen (" + dtypeLabel(st.weights, st.kv) + ")"};
    t.align = {Align::Left, Align::Right, Align::Right};
    const auto row = [&t](const std::string& label, const std::string& a, const std::string& b) {
        t.rows.push_back({cell(label), cell(a), cell(b)});
    };
    const auto perToken = [](const CapacityResult& r) {
        return grouped(r.kvBytesPerToken) + " B" + (r.kvReplication > 1 ? " × " + std::to_string(r.kvReplication) : "");
    };
    row("KV bytes per token", perToken(bf), perToken(sel));
    row("Weights", formatBytes(bf.weightsBytes), formatBytes(sel.weightsBytes));
    const auto kvCache = [](const CapacityResult& r) {
        return r.shortfallBytes ? "none: " + formatBytes(r.shortfallBytes) + " short" : formatBytes(r.kvCacheBytes);
    };
    row("KV cache", kvCache(bf), kvCache(sel));
    row("Max tokens", grouped(bf.maxTokens), grouped(sel.maxTokens));
    row("Sequences of " + grouped(static_cast<std::uint64_t>(st.contextTokens)) + " tokens", grouped(bf.maxSequences),
        grouped(sel.maxSequences));
    const auto decode = [](const CapacityResult& r) {
        if (!r.decode) return std::string("n/a (no datasheet bandwidth)");
        const DecodeVariant& v = r.decode->selected;
        return grouped(static_cast<std::uint64_t>(std::llround(v.tokensPerS))) + " tokens/s" +
               (v.batchFits ? "" : " (the batch does not fit)");
    };
    row("Decode estimate" +
            (sel.decode ? " (batch " + std::to_string(sel.decode->batch) + ", upper bound)" : std::string()),
        decode(bf), decode(sel));
    row("Fits", bf.fits ? "yes" : "no: " + bf.reason, sel.fits ? "yes" : "no: " + sel.reason);
    s.table(std::move(t));
    if (sel.decode)
        s.paragraph(
            toned("The decode estimate is bandwidth-bound: each step reads the weights and the K/V of the "
                  "batch at full context at the datasheet bandwidth; real kernels reach a fraction of it.",
                  Tone::Muted));
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
    if (doc.version < kComparisonVersion)
        meta("File format", "version " + std::to_string(doc.version) + ", upgraded to version " +
                                std::to_string(kComparisonVersion) + " when read");
    meta("Report written", readable(ctx.generatedAt) + " by fp8dash " + ctx.toolVersion);
    addVerdict(r, doc, d);
    addReview(r, doc, d);
    addRuns(r, doc, d);
    addEvals(r, d);
    addLongContext(r, d, ctx);
    addJudge(r, doc, d, ctx);
    addTimeline(r, doc, d, ctx);
    addBenchmarks(r, doc, ctx);
    addCapacity(r, doc);
    addNotes(r, doc);
    r.footer = "Written by fp8dash " + ctx.toolVersion + " on " + readable(ctx.generatedAt) +
               (ctx.source.empty() ? std::string() : " from " + ctx.source) + ".";
    return r;
}

// ---- HTML

struct Palette {
    const char* strong;  // banner background
    const char* tint;    // cell background
    const char* text;    // foreground on the tint
};
// The app's verdict colours (ui_style.cpp), so the report looks like the window.
Palette paletteOf(Tone t) {
    switch (t) {
        case Tone::Go:
            return {"#1e7d32", "#dff1e1", "#145a23"};
        case Tone::Monitor:
            return {"#b26a00", "#ffecc4", "#7a4500"};
        case Tone::Investigate:
            return {"#c62828", "#fbdcdc", "#9b1c1c"};
        case Tone::Warning:
            return {"#b26a00", "#ffecc4", "#7a4500"};
        case Tone::Muted:
            return {"#5f6368", "#eceff1", "#57606a"};
        case Tone::None:
            break;
    }
    return {"#5f6368", "#eceff1", "#1f2328"};
}

const char* kBrowserStyle = R"css(
:root { color-scheme: light; }
body { font-family: "DejaVu Sans", "Segoe UI", "Helvetica Neue", Arial, sans-serif; font-size: 17px; line-height: 1.45;
       color: #1f2328; background: #ffffff; max-width: 1180px; margin: 2em auto; padding: 0 1.5em; }
h1 { font-size: 2em; margin: 0 0 0.4em; }
h2 { font-size: 1.4em; margin: 1.6em 0 0.5em; padding-bottom: 0.2em; border-bottom: 2px solid #d0d7de; }
h3 { font-size: 1.1em; margin: 1.2em 0 0.4em; }
p, ul { margin: 0.4em 0 0.8em; }
li { margin: 0.15em 0; }
table { border-collapse: collapse; margin: 0.5em 0 1em; }
th, td { border: 1px solid #d0d7de; padding: 0.3em 0.6em; vertical-align: top; text-align: left; }
th { background: #f3f4f6; font-weight: 600; }
td.r, th.r { text-align: right; white-space: nowrap; font-variant-numeric: tabular-nums; }
td.c, th.c { text-align: center; white-space: nowrap; }
table.kv th, table.kv td { border: none; padding: 0.15em 1.2em 0.15em 0; }
table.kv td.label { color: #57606a; white-space: nowrap; }
table.meta { color: #57606a; }
table.banner { width: 100%; border: none; margin: 0.4em 0 0.8em; }
table.banner td { border: none; color: #ffffff; padding: 0.7em 1em; vertical-align: middle; }
table.banner td.title { font-size: 2em; font-weight: bold; white-space: nowrap; width: 1%; }
table.banner td.advice { font-size: 1.15em; }
.sub { display: block; font-size: 0.78em; color: #57606a; }
.indent1 { padding-left: 1.6em; } .indent2 { padding-left: 3em; } .indent3 { padding-left: 4.4em; }
code { font-family: "DejaVu Sans Mono", Menlo, Consolas, monospace; font-size: 0.9em; }
figure { margin: 0.8em 0 1.2em; }
figure img { max-width: 100%; height: auto; border: 1px solid #d0d7de; }
figcaption { font-size: 0.9em; color: #57606a; margin-top: 0.3em; }
footer { margin-top: 2.5em; padding-top: 0.5em; border-top: 1px solid #d0d7de; color: #57606a; font-size: 0.85em; }
@page { size: A4; margin: 16mm 14mm; }
@media print {
  body { font-size: 10pt; max-width: none; margin: 0; padding: 0; }
  h2 { font-size: 14pt; }
  table, figure, tr, table.banner { break-inside: avoid; page-break-inside: avoid; }
  h2, h3 { break-after: avoid; page-break-after: avoid; }
  thead { display: table-header-group; }
  * { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
}
)css";

// Qt's rich text: no :root, @media or display; borders come from the table attributes. Sizes in pt follow the paint
// device (the PDF writer's resolution).
const char* kRichTextStyle = R"css(
body { font-family: "DejaVu Sans"; font-size: 9pt; color: #1f2328; }
h1 { font-size: 17pt; font-weight: bold; margin-bottom: 4px; }
h2 { font-size: 12.5pt; font-weight: bold; margin-top: 16px; margin-bottom: 4px; color: #1f2328; }
h3 { font-size: 10pt; font-weight: bold; margin-top: 10px; margin-bottom: 2px; }
p { margin-top: 3px; margin-bottom: 5px; }
li { margin-top: 1px; margin-bottom: 1px; }
table.grid { border-collapse: collapse; border-color: #c5ccd3; margin-top: 3px; margin-bottom: 8px; }
table.grid th { background-color: #eef0f3; font-weight: bold; text-align: left; }
table.evals { font-size: 7.5pt; }
table.evals code { font-size: 7pt; }
table.kv td.label { color: #57606a; padding-right: 10px; white-space: nowrap; }
table.meta { color: #57606a; }
td.r, th.r { text-align: right; white-space: nowrap; }
td.c, th.c { text-align: center; white-space: nowrap; }
table.banner td { color: #ffffff; }
td.title { font-size: 18pt; font-weight: bold; }
td.advice { font-size: 11pt; }
.sub { font-size: 7pt; color: #57606a; }
code { font-family: "DejaVu Sans Mono"; font-size: 8pt; }
p.figcaption { font-size: 8pt; color: #57606a; }
p.footer { font-size: 7.5pt; color: #57606a; }
)css";

class HtmlWriter {
public:
    HtmlWriter(ReportHtmlFlavour flavour, int maxImageWidth)
        : m_rich(flavour == ReportHtmlFlavour::RichText), m_maxWidth(maxImageWidth) {}

    std::string write(const Report& r) {
        m_out += "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
        m_out += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n";
        m_out += "<title>" + htmlEscape(r.title) + "</title>\n<style>" + (m_rich ? kRichTextStyle : kBrowserStyle) +
                 "</style>\n</head>\n<body>\n";
        m_out += "<h1>" + htmlEscape(r.title) + "</h1>\n";
        table(r.meta, "meta");
        for (const auto& s : r.sections) section(s);
        if (m_rich)
            m_out += "<p class=\"footer\">" + htmlEscape(r.footer) + "</p>\n";
        else
            m_out += "<footer>" + htmlEscape(r.footer) + "</footer>\n";
        m_out += "</body>\n</html>\n";
        return std::move(m_out);
    }

private:
    static std::string style(Tone t, bool fill) {
        if (t == Tone::None) return "";
        const Palette p = paletteOf(t);
        return fill ? std::string(" style=\"background-color:") + p.tint + ";color:" + p.text + "\""
                    : std::string(" style=\"color:") + p.text + "\"";
    }

    std::string spans(const Line& line) const {
        std::string out;
        for (const Span& s : line) {
            std::string text = htmlEscape(s.text);
            // Line breaks in free text (notes, reasons) stay line breaks.
            for (auto pos = text.find('\n'); pos != std::string::npos; pos = text.find('\n', pos + 4))
                text.replace(pos, 1, "<br>");
            if (s.code && m_rich) text = breakable(text);
            if (s.code) text = "<code>" + text + "</code>";
            if (s.strong) text = "<strong>" + text + "</strong>";
            if (s.tone != Tone::None) text = "<span" + style(s.tone, false) + ">" + text + "</span>";
            out += text;
        }
        return out;
    }

    // Qt's rich text breaks a long identifier anywhere when a column is narrow: offer a zero-width space after
    // ',', '/' and '_' instead ("mmlu_high_school_physics", "org/model").
    static std::string breakable(const std::string& text) {
        std::string out;
        for (char c : text) {
            out += c;
            if (c == ',' || c == '/' || c == '_') out += "\u200b";
        }
        return out;
    }

    static const char* alignClass(const Table& t, std::size_t i) {
        if (i >= t.align.size()) return "";
        return t.align[i] == Align::Right ? "r" : t.align[i] == Align::Center ? "c" : "";
    }

    void table(const Table& t, const std::string& extraClass = "") {
        std::string cls = t.keyValue ? "kv" : "grid";
        if (!t.cls.empty()) cls += " " + t.cls;
        if (!extraClass.empty()) cls += " " + extraClass;
        // Rich text draws borders from the attributes; a browser from the stylesheet.
        const bool border = m_rich && !t.keyValue;
        m_out += "<table class=\"" + cls + "\"" +
                 (border ? " border=\"1\" cellspacing=\"0\" cellpadding=\"3\" width=\"100%\"" : "") +
                 (m_rich && t.keyValue ? " cellspacing=\"0\" cellpadding=\"1\"" : "") + ">\n";
        if (!t.keyValue) {
            m_out += "<thead><tr>";
            for (std::size_t i = 0; i < t.header.size(); ++i) {
                const std::string a = alignClass(t, i);
                m_out += "<th" + (a.empty() ? "" : " class=\"" + a + "\"") + ">" + htmlEscape(t.header[i]) + "</th>";
            }
            m_out += "</tr></thead>\n";
        }
        m_out += "<tbody>\n";
        for (const auto& row : t.rows) {
            m_out += "<tr>";
            for (std::size_t i = 0; i < row.size(); ++i) {
                const Cell& c = row[i];
                std::string classes = t.keyValue && i == 0 ? "label" : alignClass(t, i);
                if (c.indent > 0 && !m_rich)
                    classes +=
                        (classes.empty() ? "" : " ") + std::string("indent") + std::to_string(std::min(c.indent, 3));
                std::string attrs = classes.empty() ? "" : " class=\"" + classes + "\"";
                if (c.fill != Tone::None) {
                    attrs += style(c.fill, true);
                    if (m_rich) attrs += std::string(" bgcolor=\"") + paletteOf(c.fill).tint + "\"";
                }
                std::string content = spans(c.line);
                if (c.indent > 0) {
                    // Rich text has no padding classes: it indents with non-breaking spaces before the arrow.
                    std::string lead;
                    for (int k = 0; m_rich && k < c.indent * 3; ++k) lead += "&nbsp;";
                    content = lead + "↳ " + content;
                }
                if (!c.sub.empty())
                    content += m_rich ? "<br><span class=\"sub\">" + htmlEscape(c.sub) + "</span>"
                                      : "<span class=\"sub\">" + htmlEscape(c.sub) + "</span>";
                m_out += "<td" + attrs + ">" + content + "</td>";
            }
            m_out += "</tr>\n";
        }
        m_out += "</tbody>\n</table>\n";
    }

    void banner(const Block& b) {
        const Palette p = paletteOf(b.verdict ? toneOf(*b.verdict) : Tone::Muted);
        m_out += std::string("<table class=\"banner\" width=\"100%\" cellspacing=\"0\" cellpadding=\"10\" bgcolor=\"") +
                 p.strong + "\" style=\"background-color:" + p.strong + "\"><tr><td class=\"title\">" +
                 htmlEscape(b.bannerTitle) + "</td><td class=\"advice\">" + spans(b.line) + "</td></tr></table>\n";
    }

    void figure(const ReportChart& c) {
        int w = c.width, h = c.height;
        if (m_rich && m_maxWidth > 0 && w > m_maxWidth && w > 0) {
            h = static_cast<int>(std::lround(static_cast<double>(h) * m_maxWidth / w));
            w = m_maxWidth;
        }
        const std::string src = m_rich ? chartResourceName(c.key) : "data:image/png;base64," + text::base64(c.png);
        const std::string img = "<img src=\"" + htmlEscape(src) + "\" alt=\"" + htmlEscape(c.caption) + "\"" +
                                (w > 0 ? " width=\"" + std::to_string(w) + "\"" : "") +
                                (h > 0 ? " height=\"" + std::to_string(h) + "\"" : "") + ">";
        if (m_rich) {
            m_out += "<p class=\"figure\">" + img + "</p>\n<p class=\"figcaption\"><b>" + htmlEscape(c.title) +
                     ".</b> " + htmlEscape(c.caption) + "</p>\n";
        } else {
            m_out += "<figure id=\"chart-" + htmlEscape(c.key) + "\">" + img + "<figcaption><strong>" +
                     htmlEscape(c.title) + ".</strong> " + htmlEscape(c.caption) + "</figcaption></figure>\n";
        }
    }

    void section(const Section& s) {
        m_out += m_rich ? "<div id=\"" + htmlEscape(s.id) + "\">\n" : "<section id=\"" + htmlEscape(s.id) + "\">\n";
        m_out += "<h2>" + htmlEscape(s.title) + "</h2>\n";
        for (const Block& b : s.blocks) {
            if (b.only == Only::Markdown) continue;
            switch (b.kind) {
                case Block::Kind::Paragraph:
                    m_out += "<p>" + spans(b.line) + "</p>\n";
                    break;
                case Block::Kind::Heading:
                    m_out += "<h3>" + spans(b.line) + "</h3>\n";
                    break;
                case Block::Kind::Bullets:
                    m_out += "<ul>\n";
                    for (const Line& item : b.items) m_out += "<li>" + spans(item) + "</li>\n";
                    m_out += "</ul>\n";
                    break;
                case Block::Kind::Table:
                    table(b.table);
                    break;
                case Block::Kind::Figure:
                    figure(*b.chart);
                    break;
                case Block::Kind::Banner:
                    banner(b);
                    break;
            }
        }
        m_out += m_rich ? "</div>\n" : "</section>\n";
    }

    bool m_rich;
    int m_maxWidth;
    std::string m_out;
};

// ---- Markdown

// Text for Markdown: the characters that would start markup are escaped with a backslash (CommonMark allows it
// before any ASCII punctuation), '|' too so tables keep their columns, line breaks become spaces or hard breaks.
std::string mdText(std::string_view s, bool inTable) {
    std::string out;
    for (char c : s) {
        switch (c) {
            case '\\':
            case '`':
            case '*':
            case '_':
            case '[':
            case ']':
            case '<':
            case '>':
            case '|':
            case '#':
                out += '\\';
                out += c;
                break;
            case '\r':
                break;
            case '\n':
                out += inTable ? " " : "  \n";
                break;
            default:
                out += c;
        }
    }
    return out;
}

std::string mdCode(std::string_view s, bool inTable) {
    if (s.empty()) return "";
    if (s.find('`') != std::string_view::npos || s.find('\n') != std::string_view::npos) return mdText(s, inTable);
    std::string out = "`";
    for (char c : s) {
        if (c == '|' && inTable)
            out += "\\|";
        else
            out += c;
    }
    return out + "`";
}

std::string mdSpans(const Line& line, bool inTable) {
    std::string out;
    for (const Span& s : line) {
        std::string text = s.code ? mdCode(s.text, inTable) : mdText(s.text, inTable);
        if (s.strong && !text.empty()) text = "**" + text + "**";
        out += text;
    }
    return out;
}

std::string mdTable(const Table& t) {
    std::string out = "|";
    for (std::size_t i = 0; i < t.header.size(); ++i) out += " " + mdText(t.header[i], true) + " |";
    out += "\n|";
    for (std::size_t i = 0; i < t.header.size(); ++i) {
        const Align a = i < t.align.size() ? t.align[i] : Align::Left;
        out += a == Align::Right ? "---:|" : a == Align::Center ? ":---:|" : "---|";
    }
    out += "\n";
    for (const auto& row : t.rows) {
        out += "|";
        for (const Cell& c : row) {
            std::string text;
            for (int d = 0; d < c.indent; ++d) text += "↳ ";
            text += mdSpans(c.line, true);
            if (!c.sub.empty()) text += " (" + mdText(c.sub, true) + ")";
            if (t.keyValue && &c == &row.front()) text = text.empty() ? text : "**" + text + "**";
            out += " " + text + " |";
        }
        out += "\n";
    }
    return out;
}

std::string writeMarkdown(const Report& r) {
    std::string out = "# " + mdText(r.title, false) + "\n\n";
    for (const auto& row : r.meta.rows)
        out += "- **" + mdSpans(row[0].line, false) + ":** " + mdSpans(row[1].line, false) + "\n";
    for (const auto& s : r.sections) {
        out += "\n## " + mdText(s.title, false) + "\n";
        for (const Block& b : s.blocks) {
            if (b.only == Only::Html) continue;
            switch (b.kind) {
                case Block::Kind::Paragraph:
                    out += "\n" + mdSpans(b.line, false) + "\n";
                    break;
                case Block::Kind::Heading:
                    out += "\n### " + mdSpans(b.line, false) + "\n";
                    break;
                case Block::Kind::Bullets:
                    out += "\n";
                    for (const Line& item : b.items) out += "- " + mdSpans(item, false) + "\n";
                    break;
                case Block::Kind::Table:
                    out += "\n" + mdTable(b.table);
                    break;
                case Block::Kind::Figure:
                    break;  // Markdown has the chart's line and data table instead
                case Block::Kind::Banner:
                    out += "\n**" + mdText(b.bannerTitle, false) + "** — " + mdSpans(b.line, false) + "\n";
                    break;
            }
        }
    }
    out += "\n---\n\n" + mdText(r.footer, false) + "\n";
    return out;
}

}  // namespace

std::string htmlEscape(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    for (char c : text) {
        switch (c) {
            case '&':
                out += "&amp;";
                break;
            case '<':
                out += "&lt;";
                break;
            case '>':
                out += "&gt;";
                break;
            case '"':
                out += "&quot;";
                break;
            case '\'':
                out += "&#39;";
                break;
            default:
                out += c;
        }
    }
    return out;
}

std::string chartResourceName(std::string_view key) {
    return "fp8dash-chart-" + std::string(key) + ".png";
}

std::string reportTitle(const ComparisonDocument& doc) {
    if (!doc.title.empty()) return doc.title;
    if (doc.hasEvals) return doc.baseline.label + " vs " + doc.candidate.label;
    return "FP8 comparison";
}

std::string reportToHtml(const ComparisonDocument& doc, const Decision& decision, const ReportContext& context,
                         ReportHtmlFlavour flavour, int maxImageWidth) {
    return HtmlWriter(flavour, maxImageWidth).write(buildReport(doc, decision, context));
}

std::string reportToMarkdownDocument(const ComparisonDocument& doc, const Decision& decision,
                                     const ReportContext& context) {
    return writeMarkdown(buildReport(doc, decision, context));
}

std::optional<ReportFileFormat> reportFormatForPath(std::string_view path) {
    const auto slash = path.find_last_of('/');
    const std::string_view name = slash == std::string_view::npos ? path : path.substr(slash + 1);
    const auto dot = name.find_last_of('.');
    if (dot == std::string_view::npos || dot == 0) return std::nullopt;
    const std::string ext = text::lower(name.substr(dot + 1));
    if (ext == "html" || ext == "htm") return ReportFileFormat::Html;
    if (ext == "pdf") return ReportFileFormat::Pdf;
    if (ext == "md" || ext == "markdown") return ReportFileFormat::Markdown;
    if (ext == "txt") return ReportFileFormat::Text;
    if (ext == "json") return ReportFileFormat::Json;
    return std::nullopt;
}

std::string_view reportFormatSuffix(ReportFileFormat f) {
    switch (f) {
        case ReportFileFormat::Html:
            return "html";
        case ReportFileFormat::Pdf:
            return "pdf";
        case ReportFileFormat::Markdown:
            return "md";
        case ReportFileFormat::Text:
            return "txt";
        case ReportFileFormat::Json:
            return "json";
    }
    return "";
}

Json comparisonToJson(const ComparisonDocument& doc, const Decision& decision) {
    Json j = decisionToJson(decision);
    Json notes = Json::array();
    for (const Note& n : doc.notes)
        notes.push_back({{"id", n.id}, {"text", n.text}, {"author", n.author}, {"created", n.created},
                         {"edited", n.edited.empty() ? Json(nullptr) : Json(n.edited)},
                         {"task", n.task.empty() ? Json(nullptr) : Json(n.task)}});
    j["notes"] = std::move(notes);
    Json decisions = Json::array();
    for (const ReviewDecision& r : doc.decisions) decisions.push_back(reviewDecisionToJson(r));
    Json review = {{"decisions", std::move(decisions)}, {"current", nullptr}};
    if (const ReviewDecision* current = doc.currentDecision()) {
        const ReviewAssessment a = assessReview(*current, decision.verdict);
        review["current"] = reviewDecisionToJson(*current);
        review["overrides_verdict"] = a.overridesVerdict;
        review["evidence_changed"] = a.evidenceChanged;
        review["warnings"] = a.warnings;
    }
    j["review"] = std::move(review);
    return j;
}

std::string reportToPlainText(const ComparisonDocument& doc, const Decision& decision) {
    std::string out = decisionToText(decision, doc, reportTitle(doc));
    // The review: the decision in force with its warnings, then the earlier ones (newest first).
    if (const ReviewDecision* current = doc.currentDecision()) {
        out += "\nReview decision\n";
        out += wrapText(reviewSummary(*current), 100, "  ");
        for (const auto& w : assessReview(*current, decision.verdict).warnings) out += wrapText("⚠ " + w, 100, "  ");
        for (std::size_t i = doc.decisions.size() - 1; i-- > 0;)
            out += wrapText("earlier: " + reviewSummary(doc.decisions[i]), 100, "  ");
    }
    if (doc.notes.empty()) return out;
    out += "\nNotes\n";
    for (const auto& n : doc.notes) {
        const std::string who = n.author + (n.created.empty() ? "" : (n.author.empty() ? "" : ", ") + n.created);
        const std::string line =
            (n.task.empty() ? "" : "[" + n.task + "] ") + n.text + (who.empty() ? "" : " (" + who + ")");
        out += wrapText(line, 100, "  ");
    }
    return out;
}

Result<std::string> renderReport(const ComparisonDocument& doc, const Decision& decision, const ReportContext& context,
                                 ReportFileFormat format) {
    switch (format) {
        case ReportFileFormat::Html:
            return reportToHtml(doc, decision, context);
        case ReportFileFormat::Markdown:
            return reportToMarkdownDocument(doc, decision, context);
        case ReportFileFormat::Text:
            return reportToPlainText(doc, decision);
        case ReportFileFormat::Json:
            return comparisonToJson(doc, decision).dump(2) + "\n";
        case ReportFileFormat::Pdf:
            break;
    }
    return Error{"a PDF report is drawn by the desktop app's libraries (fp8dash_ui), not by core"};
}

}  // namespace fp8dash
