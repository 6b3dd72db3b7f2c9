#pragma once
// The serving evidence a comparison file keeps ("serving", comparison format version 4; docs/serving.md): each
// run's serving-benchmark results under its label and the options they are weighed with. A file keeps the runs'
// figures, not every request (a --save-detailed sweep runs to gigabytes), so goodput recomputed from per-request
// arrays is there while the results are read, and the tool's own recorded goodput after. Plain data; thread-safe.

#include <string>
#include <vector>

#include "fp8dash/core/json_text.h"
#include "fp8dash/core/result.h"
#include "fp8dash/core/serving_comparison.h"

namespace fp8dash {

struct ServingSection {
    std::vector<ServingVariantInput> variants;  // labels as the comparison's runs' (any order; the baseline's first
                                                // when compared)
    ServingOptions options;
    bool operator==(const ServingSection&) const;
};

// The runs' serving results compared in the comparison's order: the baseline's label first, then the candidates'
// (`labels`, baseline first); a serving label that names no run is a blocking problem that names it.
ServingComparison compareServingSection(const ServingSection& s, const std::vector<std::string>& labels);

Json servingSectionToJson(const ServingSection& s);
// `where` names the field in errors ("x.fp8cmp: field serving").
Result<ServingSection> parseServingSectionJson(const Json& j, const std::string& where);

}  // namespace fp8dash
