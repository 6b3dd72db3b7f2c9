#pragma once
// Measured beside modelled (docs/serving.md, "Capacity at your SLO"; issue 40): the Capacity tab's KV-token model says
// how many more tokens the chosen dtypes hold; the serving benchmarks say how much more load each variant served
// within the team's SLO. These words put them side by side and say where they disagree: a model that promises ×2 the
// KV tokens while the measured capacity rose 10 % means the KV cache is not what limits this load. Pure; any thread.

#include <QString>
#include <QStringList>

#include <optional>

#include "fp8dash/core/serving_comparison.h"

namespace fp8dash::ui {

struct MeasuredCapacityWords {
    QStringList variants;  // one line per variant: its measured capacity at the SLO (and × the baseline's)
    QString verdict;       // measured against modelled, one sentence; "" when either side is missing
};

// `modelRatio`: the model's KV-cache tokens of the chosen dtypes over all-BF16 (nullopt: no plan). A measured ratio
// is the best candidate's capacity over the baseline's, each judged at the SLO.
MeasuredCapacityWords measuredCapacityWords(const ServingComparison& c, std::optional<double> modelRatio);

}  // namespace fp8dash::ui
