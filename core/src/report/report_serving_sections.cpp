// The report's "What FP8 buys on your server" section (docs/serving.md): the SLO, each candidate's measured gain in
// one sentence, the throughput–latency chart (HTML and PDF), then each variant's capacity, replicas and per-load
// table, its flags, and the comparison's notes. In words for people: the app's fields, never command-line flags.
#include "fp8dash/core/number_format.h"
#include "fp8dash/core/serving_format.h"
#include "report/report_sections.h"

namespace fp8dash::report_doc {

namespace {

Tone gainTone(const ServingGain& g) {
    if (!g.measured) return Tone::Muted;
    if (g.negative) return Tone::Investigate;
    return g.withinNoise ? Tone::Warning : Tone::Go;
}

// The SLO cell without the figures its row already shows: "missed: p99 TTFT" for "missed: p99 TTFT 2,975 ms >
// 2,000 ms" (the figure is in the TTFT p99 column, the limit in the SLO line above).
std::string servingShortSloCell(const ServingPoint& p, const std::string& cellText) {
    if (!p.meetsSlo || *p.meetsSlo || p.missed.empty()) return cellText;
    std::string out = "missed: ";
    for (std::size_t i = 0; i < p.missed.size(); ++i) {
        const std::string& m = p.missed[i];
        std::size_t cut = 0;
        while (cut + 1 < m.size() && !(m[cut] == ' ' && m[cut + 1] >= '0' && m[cut + 1] <= '9')) ++cut;
        out += (i ? "; " : "") + (cut + 1 < m.size() ? m.substr(0, cut) : m);
    }
    return out;
}

// The per-load table: every column of servingTable for Markdown (as before, the CLI's and the tools'), or `compact`
// for the HTML and PDF pages.
Table servingReportTable(const ServingComparison& c, const ServingVariantResult& v, bool compact) {
    const ServingTable t = servingTable(c, v);
    // Compact: the columns an A4 page holds with every word whole (servingTable's 13 break "concurrent" into a letter a
    // line): the load, output tok/s, TTFT p50 and p99, TPOT p99, E2E p99, each change and the SLO; runs only where a
    // point has replicates. Req/s and TPOT p50 are in the app's table and the text, Markdown and JSON outputs.
    bool replicates = false;
    for (const ServingPoint& p : v.points) replicates = replicates || p.replicates > 1;
    std::vector<std::size_t> keep{0};
    if (!compact) {
        for (std::size_t k = 1; k < t.header.size(); ++k) keep.push_back(k);
    } else if (replicates) {
        keep.push_back(1);
    }
    // The baseline's own table has no change against itself: no Δ columns.
    const bool baseline = &v == &c.variants.front();
    for (std::size_t k : {2, 3, 5, 6, 7, 9, 10, 11, 12})
        if (compact && k < t.header.size() && !(baseline && (k == 3 || k == 7 || k == 10))) keep.push_back(k);
    Table table;
    for (std::size_t k : keep) table.header.push_back(t.header[k]);
    // The load column says its unit once, in its header ("Concurrency": 4, 8, …).
    if (compact && c.axis == LoadAxis::Concurrency) table.header.front() = "Concurrency";
    if (compact && c.axis == LoadAxis::RequestRate) table.header.front() = "Request rate";
    table.align.assign(table.header.size(), Align::Right);
    table.align.front() = table.align.back() = Align::Left;
    for (std::size_t r = 0; r < t.rows.size() && r < v.points.size(); ++r) {
        const ServingLoad& load = v.points[r].load;
        const bool onAxis = load.axis == c.axis && load.axis != LoadAxis::Unbounded;
        std::vector<Cell> row;
        for (std::size_t k : keep) {
            const int tone = t.tone[r][k];
            std::string text = compact && k == 0 && onAxis ? numfmt::general(load.value, 4) : t.rows[r][k];
            if (compact && k == 12) text = servingShortSloCell(v.points[r], text);
            row.push_back(tone == 0 ? cell(text) : Cell{toned(text, tone > 0 ? Tone::Go : Tone::Investigate)});
        }
        table.rows.push_back(std::move(row));
    }
    return table;
}

}  // namespace

void addServing(Report& report, const Decision& d, const ReportContext& ctx) {
    if (!d.serving) return;
    const ServingComparison& c = *d.serving;
    Section s;
    s.id = "serving";
    s.title = "What FP8 buys on your server";
    s.paragraph(c.slo.empty() ? plain("No latency SLO was set (New Comparison's SLO): capacity is not judged.")
                              : plain("Latency SLO: ") + strong(c.slo.words()) + plain("."));
    std::vector<Line> top;
    for (const ServingProblem& p : c.problems)
        top.push_back(p.blocking ? strong("Not comparable: ", Tone::Investigate) + plain(p.text) : plain(p.text));
    for (std::size_t i = 1; i < c.variants.size() && !c.blocked(); ++i)
        if (const auto& g = c.variants[i].gain) top.push_back(toned(g->sentence, gainTone(*g)));
    s.bullets(std::move(top));
    // The Serving tab's curve as a picture (ui's chart snapshot "serving"), placed as the other sections place theirs.
    if (const ReportChart* chart = findChart(ctx, "serving")) {
        s.figure(chart);
        s.paragraph(chartLine(*chart), Only::Markdown);
    }
    for (std::size_t i = 0; i < c.variants.size(); ++i) {
        const ServingVariantResult& v = c.variants[i];
        std::string title = v.label + (i == 0 ? " (baseline)" : "");
        if (!v.model.empty()) title += ": " + v.model;
        s.heading(title);
        std::vector<Line> facts{plain("Capacity: " + servingCapacityWords(c, v))};
        if (const std::string r = servingReplicaWords(c, v); !r.empty()) facts.push_back(plain("Replicas: " + r));
        std::string tools;
        for (const std::string& t : v.tools) tools += (tools.empty() ? "" : ", ") + t;
        if (!tools.empty()) facts.push_back(plain("Measured with " + tools));
        s.bullets(std::move(facts));
        s.table(servingReportTable(c, v, true), Only::Html);
        s.table(servingReportTable(c, v, false), Only::Markdown);
        std::vector<Line> flags;
        for (const std::string& f : v.flags) flags.push_back(toned(f, Tone::Warning));
        s.bullets(std::move(flags));
    }
    std::vector<Line> notes;
    for (const std::string& n : c.notes) notes.push_back(toned(n, Tone::Muted));
    s.bullets(std::move(notes));
    report.sections.push_back(std::move(s));
}

}  // namespace fp8dash::report_doc
