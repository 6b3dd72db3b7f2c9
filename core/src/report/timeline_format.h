#pragma once
// Number formatting shared by the timeline's files (timeline.cpp, timeline_report.cpp). Private to core.
#include <cstdio>
#include <optional>
#include <string>

#include "fp8dash/core/lm_eval_results.h"  // Json

namespace fp8dash::detail {

// printf-formatted, "%.4g" unless told otherwise (the figures in sentences).
inline std::string num(double v, const char* fmt = "%.4g") {
    char buf[64];
    std::snprintf(buf, sizeof buf, fmt, v);
    return buf;
}

inline Json numberOrNull(const std::optional<double>& v) {
    return v ? Json(*v) : Json(nullptr);
}

}  // namespace fp8dash::detail
