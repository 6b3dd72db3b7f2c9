#pragma once
// ServingTableModel: the Serving tab's per-load table of one variant (row_table_model.h) over core's servingTable
// (serving_format.h), the table the reports and the CLI print: a row per load point with output tokens/s, requests/s,
// TTFT, TPOT and E2E latency, the Δ against the baseline at the same load, and whether the point meets the SLO. The
// cells' text is servingTable's; a Δ in the good direction (throughput up, latency down) and a met SLO are in the
// palette's success colour, a change in the bad direction and a missed SLO in its error colour. Each figure's exact
// value (from the comparison's point) is its Qt::UserRole: the sort key, and what the CSV export writes. GUI thread
// only.

#include "fp8dash/core/serving_comparison.h"
#include "fp8dash/ui/row_table_model.h"

namespace fp8dash::ui {

class ServingTableModel : public RowTableModel {
    Q_OBJECT
public:
    explicit ServingTableModel(QObject* parent = nullptr);
    // The table of variant `v` of comparison `c` (v is one of c.variants); clear() empties it.
    void setVariant(const ServingComparison& c, const ServingVariantResult& v);
    void clear();
};

}  // namespace fp8dash::ui
