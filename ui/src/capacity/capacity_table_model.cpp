#include "fp8dash/ui/capacity_table_model.h"

#include <cmath>

#include "bench/bench_charts.h"
#include "fp8dash/ui/capacity_view.h"
#include "fp8dash/ui/loaded_comparison.h"

namespace fp8dash::ui {
namespace capacity_table {
namespace {

using bench::fixed;
using bench::groupedInteger;
using Row = CapacityView::Row;

QString dtypeName(StorageDtype d) {
    return d == StorageDtype::Fp8 ? QStringLiteral("FP8") : QStringLiteral("BF16");
}

TableCell figure(const QString& text, double value) {
    TableCell c;
    c.text = text;
    c.value = value;
    c.number = true;
    return c;
}

QString tokensPerSecondText(double v) {
    return groupedInteger(static_cast<std::uint64_t>(std::llround(v))) + QStringLiteral(" tok/s");
}

}  // namespace

// One column of the table: a plan's figures in Row order ("—" where it has none).
void planColumn(const CapacityResult& r, std::vector<std::vector<TableCell>>& rows, int column) {
    auto set = [&](int row, TableCell cell) {
        rows[static_cast<std::size_t>(row)][static_cast<std::size_t>(column)] = cell;
    };
    TableCell parameters =
        figure(fixed(static_cast<double>(r.parameters) / 1e9, 2) + CapacityView::tr(" B"), double(r.parameters));
    parameters.toolTip = groupedInteger(r.parameters);
    set(Row::ParametersRow, parameters);
    QString perToken = groupedInteger(r.kvBytesPerToken) + CapacityView::tr(" bytes");
    if (r.kvReplication > 1) perToken += CapacityView::tr(" (×%1 replicated across the group)").arg(r.kvReplication);
    set(Row::KvPerTokenRow, figure(perToken, double(r.kvBytesPerToken)));
    set(Row::WeightsRow, figure(toQString(formatBytes(r.weightsBytes)), double(r.weightsBytes)));
    set(Row::UsableRow, figure(toQString(formatBytes(r.usableBytes)), double(r.usableBytes)));
    set(Row::OverheadRow, figure(toQString(formatBytes(r.overheadBytes)), double(r.overheadBytes)));
    set(Row::KvCacheRow, figure(toQString(formatBytes(r.kvCacheBytes)), double(r.kvCacheBytes)));
    set(Row::MaxTokensRow, figure(groupedInteger(r.maxTokens), double(r.maxTokens)));
    set(Row::MaxSequencesRow, figure(groupedInteger(r.maxSequences), double(r.maxSequences)));
    TableCell fits =
        figure(r.fits ? CapacityView::tr("yes") : CapacityView::tr("no: %1").arg(toQString(r.reason)), r.fits ? 1 : 0);
    fits.toolTip = fits.text;
    if (!r.fits) fits.tone = TableCell::Tone::Investigate;
    set(Row::FitsRow, fits);
    if (r.decode) {
        const DecodeVariant& v = r.decode->selected;
        QString text = tokensPerSecondText(v.tokensPerS);
        if (!v.batchFits) text += CapacityView::tr(" (a batch of %1 does not fit)").arg(r.decode->batch);
        set(Row::DecodeRow, figure(text, v.tokensPerS));
        set(Row::DecodeStepRow, figure(fixed(v.stepSeconds * 1e3, 2) + CapacityView::tr(" ms"), v.stepSeconds));
    }
}

std::vector<TableHeader> rowHeaders() {
    std::vector<TableHeader> h;
    for (const QString& title :
         {CapacityView::tr("Parameters"), CapacityView::tr("KV cache per token"), CapacityView::tr("Weights"),
          CapacityView::tr("Usable memory"), CapacityView::tr("Runtime overhead"), CapacityView::tr("KV cache"),
          CapacityView::tr("Max tokens in the KV cache"), CapacityView::tr("Max sequences at full context"),
          CapacityView::tr("Fits"), CapacityView::tr("Decode, upper bound"), CapacityView::tr("Decode step time")})
        h.push_back({title, {}, {}});
    h[Row::UsableRow].toolTip = CapacityView::tr("GPUs × memory per GPU × memory utilisation");
    h[Row::KvCacheRow].toolTip = CapacityView::tr("Usable memory − weights − runtime overhead");
    h[Row::DecodeRow].toolTip = CapacityView::tr(
        "Tokens per second of a bandwidth-bound decode at the batch and context below: an upper bound");
    return h;
}

}  // namespace capacity_table

CapacityTableModel::CapacityTableModel(QObject* parent) : RowTableModel(parent) {
    setPlans(nullptr, nullptr);
}

void CapacityTableModel::setPlans(const CapacityResult* bf, const CapacityResult* sel) {
    using V = CapacityView;
    std::vector<std::vector<TableCell>> rows(
        V::RowCount, std::vector<TableCell>(V::ColumnCount, capacity_table::figure(QStringLiteral("—"), 0)));
    std::vector<TableHeader> columns(V::ColumnCount);
    columns[V::Bf16Column].title = tr("All BF16:\nBF16 weights, BF16 KV");
    columns[V::SelectedColumn].title =
        sel ? tr("Chosen:\n%1 weights, %2 KV")
                  .arg(capacity_table::dtypeName(sel->inputs.weights), capacity_table::dtypeName(sel->inputs.kv))
            : tr("Chosen");
    columns[V::RatioColumn].title = tr("Chosen ÷\nall BF16");
    if (bf && sel) {
        capacity_table::planColumn(*bf, rows, V::Bf16Column);
        capacity_table::planColumn(*sel, rows, V::SelectedColumn);
        for (int row = 0; row < V::RowCount; ++row) {
            if (row == V::FitsRow || row == V::ParametersRow) continue;
            auto& cells = rows[static_cast<std::size_t>(row)];
            const double a = cells[V::Bf16Column].value.toDouble();
            const double b = cells[V::SelectedColumn].value.toDouble();
            if (a > 0)
                cells[V::RatioColumn] = capacity_table::figure(QStringLiteral("×") + bench::fixed(b / a, 2), b / a);
        }
    }
    setTable(std::move(columns), std::move(rows), capacity_table::rowHeaders());
}

}  // namespace fp8dash::ui
