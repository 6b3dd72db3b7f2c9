#include "fp8dash/ui/serving_table_model.h"

#include "fp8dash/core/serving_format.h"
#include "fp8dash/ui/loaded_comparison.h"

namespace fp8dash::ui {
namespace {

// The exact value behind a column of servingTable's header at point p, found by the column's title (the Δ columns
// by the figure before them), so that a column added to the core's table only loses its exact value, never gets a
// wrong one. Invalid where the column has no single figure.
QVariant servingExactValue(const std::vector<std::string>& header, std::size_t column, const ServingPoint& p) {
    auto opt = [](const std::optional<double>& v) { return v ? QVariant(*v) : QVariant(); };
    const std::string& title = header[column];
    if (title == "Load") return p.load.axis == LoadAxis::Unbounded ? QVariant() : QVariant(p.load.value);
    if (title == "Runs") return p.replicates;
    if (title == "Output tok/s") return opt(p.figures.outputTokensPerS);
    if (title == "Total tok/s") return opt(p.figures.totalTokensPerS);
    if (title == "Req/s") return opt(p.figures.requestsPerS);
    struct Named {
        const char* prefix;
        ServingMetric metric;
    };
    for (const Named n : {Named{"TTFT ", ServingMetric::Ttft}, Named{"TPOT ", ServingMetric::Tpot},
                          Named{"ITL ", ServingMetric::Itl}, Named{"E2E ", ServingMetric::E2el}}) {
        if (title.rfind(n.prefix, 0) != 0) continue;
        const std::string stat = title.substr(std::string(n.prefix).size());
        const ServingPointFigures::Latency& l = p.figures.metric(n.metric);
        if (stat == "p50") return opt(l.p50);
        if (stat == "p90") return opt(l.p90);
        if (stat == "p99") return opt(l.p99);
        if (stat == "mean") return opt(l.mean);
    }
    if (title == "\u0394" && column > 0) {
        const std::string& of = header[column - 1];
        const ServingDelta* d = nullptr;
        if (of == "Output tok/s") d = &p.outputTokensPerS;
        if (of == "Req/s") d = &p.requestsPerS;
        if (of == "TTFT p99") d = &p.ttft.p99;
        if (of == "TPOT p99") d = &p.tpot.p99;
        if (of == "E2E p99") d = &p.e2el.p99;
        if (d) return opt(d->pct);
    }
    return {};
}

QString servingColumnTip(const std::string& title, const std::string& before) {
    if (title == "\u0394")
        return ServingTableModel::tr(
                   "Change of %1 against the baseline at the same load, in %; in brackets the 95 % "
                   "interval where both have replicates")
            .arg(toQString(before));
    if (title == "Runs") return ServingTableModel::tr("Benchmark runs measured at this load (replicates)");
    if (title == "SLO") return ServingTableModel::tr("Whether this load meets every target of the latency SLO");
    if (title.rfind("TPOT", 0) == 0)
        return ServingTableModel::tr(
            "Time per output token after the first, per request (GuideLLM's and AIPerf's "
            "inter-token latency)");
    return {};
}

}  // namespace

ServingTableModel::ServingTableModel(QObject* parent) : RowTableModel(parent) {}

void ServingTableModel::setVariant(const ServingComparison& c, const ServingVariantResult& v) {
    const ServingTable t = servingTable(c, v);
    std::vector<TableHeader> columns;
    for (std::size_t i = 0; i < t.header.size(); ++i) {
        TableHeader h;
        h.title = toQString(t.header[i]);
        h.toolTip = servingColumnTip(t.header[i], i > 0 ? t.header[i - 1] : std::string());
        columns.push_back(h);
    }
    std::vector<std::vector<TableCell>> rows;
    for (std::size_t r = 0; r < t.rows.size(); ++r) {
        const ServingPoint* point = r < v.points.size() ? &v.points[r] : nullptr;
        std::vector<TableCell> row;
        for (std::size_t i = 0; i < t.rows[r].size(); ++i) {
            TableCell cell;
            cell.text = toQString(t.rows[r][i]);
            cell.value = point && i < t.header.size() ? servingExactValue(t.header, i, *point) : QVariant();
            if (!cell.value.isValid()) cell.value = cell.text;
            cell.number = i > 0 && t.header[i] != "SLO";
            const int tone = r < t.tone.size() && i < t.tone[r].size() ? t.tone[r][i] : 0;
            cell.tone = tone > 0 ? TableCell::Tone::Good : tone < 0 ? TableCell::Tone::Bad : TableCell::Tone::Plain;
            if (t.header[i] == "SLO" && cell.text.size() > 24) cell.toolTip = cell.text;
            row.push_back(cell);
        }
        rows.push_back(std::move(row));
    }
    setTable(std::move(columns), std::move(rows));
}

void ServingTableModel::clear() {
    setTable({}, {});
}

}  // namespace fp8dash::ui
