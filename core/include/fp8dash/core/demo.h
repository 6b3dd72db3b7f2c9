#pragma once
// The bundled demo comparison (resources/demo/llama3-8b-instruct-fp8.fp8cmp, compiled in): Meta-Llama-3-8B-Instruct
// BF16 vs neuralmagic/Meta-Llama-3-8B-Instruct-FP8, from the FP8 checkpoint's published model-card figures.

#include <string_view>

#include "fp8dash/core/comparison_file.h"

namespace fp8dash {

inline constexpr std::string_view kDemoName = "demo: Meta-Llama-3-8B-Instruct BF16 vs FP8 (model card)";
std::string_view demoComparisonText();
Result<ComparisonDocument> loadDemoComparison();

}  // namespace fp8dash
