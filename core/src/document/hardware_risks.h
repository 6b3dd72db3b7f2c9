#pragma once
// Internal to core: the risks of a variant that depend on the GPU the comparison's other evidence names
// (hardware_risks.cpp).
#include "fp8dash/core/comparison_file.h"
#include "fp8dash/core/eval_comparison.h"

namespace fp8dash::detail {

// An FP4 W4A4 candidate (NVFP4 or MXFP4 weights and activations) on a GPU the comparison names that has no FP4 tensor
// cores: vLLM runs it through a weight-only fallback kernel. Adds the risk "fp4_without_fp4_tensor_cores" to r.
void addHardwareRisks(ComparisonReport& r, const ComparisonDocument& doc);

}  // namespace fp8dash::detail
