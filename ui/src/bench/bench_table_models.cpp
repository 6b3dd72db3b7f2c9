#include "fp8dash/ui/bench_table_models.h"

#include <cmath>
#include <optional>

#include "bench/bench_charts.h"
#include "bench/bench_view_parts.h"
#include "fp8dash/core/kv_headline.h"
#include "fp8dash/ui/bench_view.h"
#include "fp8dash/ui/loaded_comparison.h"
#include "fp8dash/ui/number_text.h"

namespace fp8dash::ui {
// Unique names: the ui target is a unity build.
namespace bench_tables {
namespace {

using bench::fixed;
using bench::groupedInteger;
using bench::significant;

// A number: shown as text, its value (non-finite: -1, sorted first) for sorting and the CSV.
TableCell numberCell(double value, const QString& text) {
    TableCell c;
    c.text = text;
    c.value = std::isfinite(value) ? value : -1.0;
    c.number = true;
    return c;
}

TableCell textCell(const QString& text) {
    TableCell c;
    c.text = text;
    c.value = text;
    return c;
}

TableCell dashCell() {
    return numberCell(-1, QStringLiteral("—"));
}

QString noiseText(const BenchSampleSummary& s) {
    if (s.samples <= 0) return QStringLiteral("—");
    return fixed(s.relStdDev * 100.0, 2) + QStringLiteral(" %");
}

QString noiseToolTip(const BenchSampleSummary& s) {
    QString tip = BenchView::tr("%1 samples, median %2 ms").arg(s.samples).arg(fixed(s.medianSeconds * 1e3, 4));
    if (s.throttledSamples > 0) tip += BenchView::tr(", %1 discarded (clock throttled)").arg(s.throttledSamples);
    if (!s.converged) tip += BenchView::tr("; stopped at the time cap before the noise target");
    // The clock the GPU ran at: a throttled or boosted clock moves the figure as much as the precision does.
    if (s.smClockMHz > 0)
        tip += BenchView::tr("; SM clock %1 MHz")
                   .arg(groupedInteger(static_cast<std::uint64_t>(std::llround(s.smClockMHz))));
    return tip;
}

TableCell integerCell(int v) {
    return numberCell(v, groupedInteger(static_cast<std::uint64_t>(v)));
}

std::vector<TableCell> gemmRow(const BenchGemmPoint& p) {
    const bool ok = p.skipped.empty();
    std::vector<TableCell> row{textCell(toQString(p.layer)), integerCell(p.m), integerCell(p.n), integerCell(p.k),
                               textCell(bench_view_parts::precisionLabel(p))};
    row.push_back(ok ? numberCell(p.tflops, fixed(p.tflops, 1)) : dashCell());
    row.push_back(ok && p.roofTflops ? numberCell(p.percentOfRoof, fixed(p.percentOfRoof, 1) + QStringLiteral(" %"))
                                     : dashCell());
    row.push_back(p.speedupVsBf16 > 0 ? numberCell(p.speedupVsBf16, fixed(p.speedupVsBf16, 2) + QStringLiteral("×"))
                                      : dashCell());
    row.push_back(ok ? numberCell(p.stats.relStdDev, noiseText(p.stats)) : dashCell());
    QString note;
    if (!ok) {
        note = BenchView::tr("skipped: %1").arg(toQString(p.skipped));
    } else if (p.roofTflops) {
        note = BenchView::tr("%1-bound, roof %2 TFLOP/s").arg(toQString(p.bound), fixed(*p.roofTflops, 1));
    }
    row.push_back(textCell(note));
    if (ok) row[BenchView::GemmNoise].toolTip = noiseToolTip(p.stats);
    row[BenchView::GemmNote].toolTip = note;
    return row;
}

std::vector<TableCell> bandwidthRow(const QString& kernel, std::uint64_t bytes, const std::string& skipped,
                                    const BenchSampleSummary& stats, double bytesPerSecond, double percentOfPeak,
                                    const QString& extra) {
    const bool ok = skipped.empty();
    std::vector<TableCell> row{textCell(kernel), numberCell(double(bytes), bench::bytesText(bytes))};
    row.push_back(ok ? numberCell(bytesPerSecond, bench::bytesPerSecondText(bytesPerSecond)) : dashCell());
    row.push_back(ok && percentOfPeak > 0 ? numberCell(percentOfPeak, fixed(percentOfPeak, 1) + QStringLiteral(" %"))
                                          : dashCell());
    row.push_back(ok ? numberCell(stats.relStdDev, noiseText(stats)) : dashCell());
    row.push_back(textCell(ok ? extra : BenchView::tr("skipped: %1").arg(toQString(skipped))));
    if (ok) row[4].toolTip = noiseToolTip(stats);
    return row;
}

// ---- the KV table

QString definition(const char* key) {
    return toQString(kvMetricDefinition(key));
}

// A fraction shown as a percentage (the CSV keeps the fraction); "—" where there is none.
TableCell fractionCell(bool has, double v) {
    if (!has || !std::isfinite(v)) return dashCell();
    return numberCell(v, toQString(kvPercentText(v)));
}

TableCell countCell(const std::optional<std::uint64_t>& n) {
    if (!n) return dashCell();
    return numberCell(static_cast<double>(*n), groupedInteger(*n));
}

// 2.15e9 -> "2,150 M/s" (the CSV keeps elements per second).
QString elementsPerSecondText(double v) {
    if (v >= 1e6) return BenchView::tr("%1 M/s").arg(groupedInteger(static_cast<std::uint64_t>(std::llround(v / 1e6))));
    return BenchView::tr("%1/s").arg(significant(v, 3));
}

QString scalesToolTip(const char* side, const BenchKvSide& s) {
    if (s.scales.empty()) return {};
    double lo = s.scales.front(), hi = s.scales.front();
    for (double v : s.scales) lo = std::min(lo, v), hi = std::max(hi, v);
    return BenchView::tr("%1 scales: %2 of them, %3 to %4")
        .arg(QLatin1String(side))
        .arg(s.scales.size())
        .arg(significant(lo, 4), significant(hi, 4));
}

// How sure the row's attention-output error is, one line each, for the cell's tooltip: its 95 % interval and sample,
// and its paired difference from per_tensor (kv_interval.h). Empty for rows saved before the intervals.
QString intervalToolTip(const BenchKvPoint& p) {
    QString tip;
    if (p.attnOutCi95)
        tip += BenchView::tr("95% CI %1 (%2 query rows over %3 heads)\n")
                   .arg(toQString(kvRangeText(p.attnOutCi95->low, p.attnOutCi95->high)))
                   .arg(p.attnRows)
                   .arg(p.attnHeads);
    if (p.attnOutVsPerTensor && p.attnOutVsPerTensorCi95 && std::isfinite(*p.attnOutVsPerTensor)) {
        const BenchInterval& ci = *p.attnOutVsPerTensorCi95;
        const auto points = [](double fraction) { return fixedText(fraction * 100, 2); };
        tip += BenchView::tr("vs per_tensor: %1 points (95% CI %2 to %3): %4\n")
                   .arg(points(*p.attnOutVsPerTensor), points(ci.low), points(ci.high),
                        ci.containsZero() ? BenchView::tr("within the sampling error")
                                          : BenchView::tr("a real difference"));
    }
    return tip;
}

std::vector<TableCell> kvRow(const BenchKvPoint& p, bool& legacy) {
    const bool a = p.hasAttentionMetrics;
    std::vector<TableCell> row{textCell(toQString(p.scaling)),
                               integerCell(p.context),
                               fractionCell(a, p.attnOutRelRmse),
                               fractionCell(a, p.attnWeightTvd),
                               fractionCell(true, p.key.relRmse),
                               fractionCell(true, p.value.relRmse),
                               countCell(p.key.saturated),
                               countCell(p.value.saturated),
                               p.elementsPerSecond > 0
                                   ? numberCell(p.elementsPerSecond, elementsPerSecondText(p.elementsPerSecond))
                                   : dashCell(),
                               fractionCell(true, p.relRmse),
                               numberCell(p.maxAbsError, significant(p.maxAbsError)),
                               numberCell(p.cosine, fixed(p.cosine, 6))};
    legacy = !a && p.legacyAttnRelError;
    row.push_back(legacy ? numberCell(*p.legacyAttnRelError, significant(*p.legacyAttnRelError)) : dashCell());
    if (a) {
        row[BenchView::KvAttnOutError].toolTip =
            intervalToolTip(p) +
            BenchView::tr("cosine %1, attention entropy %2 nats, worst row's TVD %3")
                .arg(fixed(p.attnOutCosine, 6), fixed(p.attnEntropy, 2), toQString(kvPercentText(p.attnWeightTvdMax)));
    }
    row[BenchView::KvKeySaturated].toolTip = scalesToolTip("K", p.key);
    row[BenchView::KvValueSaturated].toolTip = scalesToolTip("V", p.value);
    return row;
}

std::vector<TableHeader> kvHeaders() {
    struct Column {
        QString title;
        const char* key;   // kvMetricDefinitions key; nullptr: no definition
        const char* unit;  // the CSV's unit; nullptr: the cell's own
    };
    const std::vector<Column> columns = {
        {BenchView::tr("Scaling"), nullptr, nullptr},
        {BenchView::tr("Context (tokens)"), nullptr, nullptr},
        {BenchView::tr("Attention-output error"), "attn_out_rel_rmse", "fraction"},
        {BenchView::tr("Attention TVD"), "attn_weight_tvd", "fraction"},
        {BenchView::tr("K rel. RMSE"), "key.rel_rmse", "fraction"},
        {BenchView::tr("V rel. RMSE"), "value.rel_rmse", "fraction"},
        {BenchView::tr("Saturated K"), "saturated", nullptr},
        {BenchView::tr("Saturated V"), "saturated", nullptr},
        {BenchView::tr("Elements/s"), "elements_per_s", "1/s"},
        {BenchView::tr("K/V rel. RMSE"), "rel_rmse", "fraction"},
        {BenchView::tr("Max abs error"), "max_abs_error", nullptr},
        {BenchView::tr("Cosine"), "cosine", nullptr},
        {BenchView::tr("Old attention figure (not comparable)"), "attn_rel_error", nullptr},
    };
    std::vector<TableHeader> headers;
    for (const Column& col : columns) {
        headers.push_back({col.title, col.key ? definition(col.key) : QString(),
                           col.unit ? QString::fromLatin1(col.unit) : QString()});
    }
    headers[BenchView::KvScaling].toolTip = BenchView::tr(
        "none: scale 1.0 (vLLM without scales); per_tensor: one scale per layer from the first prompt "
        "(vLLM's --calculate-kv-scales); per_head: amax/448 per head");
    return headers;
}

std::vector<TableHeader> gemmHeaders() {
    std::vector<TableHeader> h;
    for (const QString& title : {BenchView::tr("Layer"), BenchView::tr("M"), BenchView::tr("N"), BenchView::tr("K"),
                                 BenchView::tr("Precision"), BenchView::tr("TFLOP/s"), BenchView::tr("% of roof"),
                                 BenchView::tr("Speedup vs BF16"), BenchView::tr("Noise"), BenchView::tr("Note")})
        h.push_back({title, {}, {}});
    h[BenchView::GemmNoise].csvUnit = QStringLiteral("fraction");
    return h;
}

std::vector<TableHeader> bandwidthHeaders() {
    std::vector<TableHeader> h;
    for (const QString& title : {BenchView::tr("Kernel"), BenchView::tr("Bytes per run"), BenchView::tr("Bandwidth"),
                                 BenchView::tr("% of peak"), BenchView::tr("Noise"), BenchView::tr("Note")})
        h.push_back({title, {}, {}});
    // The CSV's exact values: bytes, bytes per second and the noise as a fraction (the table shows GiB, TB/s, %).
    h[1].csvUnit = QStringLiteral("B");
    h[2].csvUnit = QStringLiteral("B/s");
    h[4].csvUnit = QStringLiteral("fraction");
    return h;
}

}  // namespace

}  // namespace bench_tables

GemmTableModel::GemmTableModel(QObject* parent) : RowTableModel(parent) {
    setResults(nullptr);
}

void GemmTableModel::setResults(const BenchResults* r) {
    std::vector<std::vector<TableCell>> rows;
    if (r) {
        for (const BenchGemmPoint& p : r->gemm) rows.push_back(bench_tables::gemmRow(p));
        if (r->gemm.empty() && !r->gemmSkipped.empty()) {
            std::vector<TableCell> row{bench_tables::textCell(BenchView::tr("(not run)"))};
            for (int c = 1; c < BenchView::GemmNote; ++c) row.push_back(bench_tables::textCell(QString()));
            row.push_back(bench_tables::textCell(toQString(r->gemmSkipped)));
            rows.push_back(std::move(row));
        }
    }
    setTable(bench_tables::gemmHeaders(), std::move(rows));
}

BandwidthTableModel::BandwidthTableModel(QObject* parent) : RowTableModel(parent) {
    setResults(nullptr);
}

void BandwidthTableModel::setResults(const BenchResults* r) {
    std::vector<std::vector<TableCell>> rows;
    if (r) {
        for (const BenchBandwidthPoint& p : r->bandwidth) {
            rows.push_back(bench_tables::bandwidthRow(toQString(p.kernel), p.bytes, p.skipped, p.stats,
                                                      p.bytesPerSecond, p.percentOfPeak, {}));
        }
        for (const BenchKvKernelPoint& p : r->kvKernel) {
            rows.push_back(bench_tables::bandwidthRow(BenchView::tr("KV quantise (%1)").arg(toQString(p.scaling)),
                                                      p.elements * 3, p.skipped, p.stats, p.bytesPerSecond,
                                                      p.percentOfPeak,
                                                      p.matchesCpu ? BenchView::tr("codes match the CPU codec")
                                                                   : BenchView::tr("codes differ from the CPU codec")));
        }
        if (r->bandwidth.empty() && r->kvKernel.empty() && !r->bandwidthSkipped.empty()) {
            rows.push_back(
                bench_tables::bandwidthRow(BenchView::tr("(not run)"), 0, r->bandwidthSkipped, {}, 0, 0, {}));
        }
    }
    setTable(bench_tables::bandwidthHeaders(), std::move(rows));
}

KvTableModel::KvTableModel(QObject* parent) : RowTableModel(parent) {
    setResults(nullptr);
}

void KvTableModel::setResults(const BenchResults* r) {
    std::vector<std::vector<TableCell>> rows;
    m_legacy = false;
    if (r) {
        for (const BenchKvPoint& p : r->kv) {
            bool legacy = false;
            rows.push_back(bench_tables::kvRow(p, legacy));
            m_legacy = m_legacy || legacy;
        }
    }
    setTable(bench_tables::kvHeaders(), std::move(rows));
}

}  // namespace fp8dash::ui
