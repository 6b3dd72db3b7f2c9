#pragma once
// The pieces of the text renderings that report_format.cpp and variants_format.cpp share: display width and padding
// of UTF-8 text, the wrapped bullet line, the thresholds and model lines, an optional number as JSON. Internal to core.
#include <optional>
#include <string>

#include "fp8dash/core/eval_comparison.h"
#include "fp8dash/core/fp8_config.h"
#include "fp8dash/core/json_text.h"

namespace fp8dash::report_text {

Json optionalNumber(const std::optional<double>& v);
// Display width of UTF-8 text (code points; the symbols used here are all single-width).
std::size_t width(const std::string& s);
std::string pad(const std::string& s, std::size_t w, bool right = false);
// A bullet line wrapped to 110 columns, continuations under the text: "  • text".
std::string bulletLine(const std::string& bullet, const std::string& text);
std::string thresholdsLine(const Thresholds& t);
std::string modelLine(const Fp8Config& c);

}  // namespace fp8dash::report_text
