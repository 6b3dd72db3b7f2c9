#pragma once
// The KV-cache part of the Local benchmarks tab: the headline line above the charts, the error chart per scaling mode
// vs context, and the KV table, with every column header and chart series carrying its metric's definition (core's
// kvMetricDefinitions, the README's words). The headline itself is core's (kvHeadline): no second copy here.
// GUI thread only.

#include <QString>

#include <optional>

#include "fp8dash/core/local_bench.h"

class QStandardItemModel;
class QTableView;

namespace fp8dash::ui::bench {

class ChartPanel;

// What the KV chart plots (the view's metric combo, in its order).
enum class KvChartMetric { AttentionOutput, KvRelRmse, AttentionTvd };

// The headers of the KV table (BenchView::KvColumn order), each with its definition as tooltip and CSV unit.
void setupKvTable(QStandardItemModel* model);
// One row per point of `r`; the old-attention column is shown only where some row carries that figure.
void fillKvTable(QStandardItemModel* model, QTableView* table, const BenchResults& r);
// The chart of `metric` per scaling vs context, or the reason there is none. Results of older fp8dash have no
// attention-output error: AttentionOutput then plots their K/V rel RMSE and the axis says so.
void fillKvChart(ChartPanel* panel, const std::optional<BenchResults>& results, KvChartMetric metric);
// "<b>FP8 KV cache:</b> attention-output error 2.7% (…). How to read it: …"; empty without a KV figure.
QString kvHeadlineHtml(const std::optional<BenchResults>& results);

}  // namespace fp8dash::ui::bench
