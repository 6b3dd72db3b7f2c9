#pragma once
// The KV-cache part of the Local benchmarks tab: the headline line above the charts and the error chart per scaling
// mode vs context (the KV table is KvTableModel, bench_table_models.h), every chart series carrying its metric's
// definition (core's kvMetricDefinitions, the README's words). The headline itself is core's (kvHeadline): no second
// copy here. GUI thread only.

#include <QString>

#include <optional>

#include "fp8dash/core/local_bench.h"

namespace fp8dash::ui::bench {

class ChartPanel;

// What the KV chart plots (the view's metric combo, in its order).
enum class KvChartMetric { AttentionOutput, KvRelRmse, AttentionTvd };

// The chart of `metric` per scaling vs context, or the reason there is none. Results of older fp8dash have no
// attention-output error: AttentionOutput then plots their K/V rel RMSE and the axis says so.
void fillKvChart(ChartPanel* panel, const std::optional<BenchResults>& results, KvChartMetric metric);
// "<b>FP8 KV cache:</b> attention-output error 2.7% (…). How to read it: …"; empty without a KV figure.
QString kvHeadlineHtml(const std::optional<BenchResults>& results);

}  // namespace fp8dash::ui::bench
