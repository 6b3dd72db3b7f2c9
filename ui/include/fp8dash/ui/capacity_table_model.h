#pragma once
// CapacityTableModel: the Capacity tab's plan table as a model over core's CapacityResult (row_table_model.h): one
// row per figure (CapacityView::Row order: parameters, KV bytes per token, weights, usable memory, overhead, KV
// cache, max tokens, max sequences, fits, decode, decode step), one column each for all-BF16, the chosen dtypes and
// their ratio. Each cell's exact figure is its Qt::UserRole; a plan that does not fit says why, in the "look here"
// colour. GUI thread only.

#include "fp8dash/core/capacity.h"
#include "fp8dash/ui/row_table_model.h"

namespace fp8dash::ui {

class CapacityTableModel : public RowTableModel {
    Q_OBJECT
public:
    explicit CapacityTableModel(QObject* parent = nullptr);
    // Both plans, or "—" everywhere when either is nullptr (inputs that cannot be planned).
    void setPlans(const CapacityResult* bf16, const CapacityResult* selected);
};

}  // namespace fp8dash::ui
