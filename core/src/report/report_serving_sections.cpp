// The report's "What FP8 buys on your server" section (docs/serving.md): the SLO, each candidate's measured gain in
// one sentence, the throughput–latency chart (HTML and PDF), then each variant's capacity, replicas and per-load
// table, its flags, and the comparison's notes. In words for people: the app's fields, never command-line flags.
#include "fp8dash/core/serving_format.h"
#include "report/report_sections.h"

namespace fp8dash::report_doc {

namespace {

Tone gainTone(const ServingGain& g) {
    if (!g.measured) return Tone::Muted;
    if (g.negative) return Tone::Investigate;
    return g.withinNoise ? Tone::Warning : Tone::Go;
}

Table servingReportTable(const ServingComparison& c, const ServingVariantResult& v) {
    const ServingTable t = servingTable(c, v);
    Table table;
    table.header = t.header;
    table.align.assign(t.header.size(), Align::Right);
    table.align.front() = table.align.back() = Align::Left;
    for (std::size_t r = 0; r < t.rows.size(); ++r) {
        std::vector<Cell> row;
        for (std::size_t k = 0; k < t.rows[r].size(); ++k) {
            const int tone = t.tone[r][k];
            row.push_back(tone == 0 ? cell(t.rows[r][k])
                                    : Cell{toned(t.rows[r][k], tone > 0 ? Tone::Go : Tone::Investigate)});
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
        s.table(servingReportTable(c, v));
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
