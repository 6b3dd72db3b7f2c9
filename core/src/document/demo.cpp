#include "fp8dash/core/demo.h"

namespace fp8dash {
namespace detail {
extern const std::string_view kDemoComparisonText;
}

std::string_view demoComparisonText() {
    return detail::kDemoComparisonText;
}

Result<ComparisonDocument> loadDemoComparison() {
    return parseComparisonText(detail::kDemoComparisonText, std::string(kDemoName));
}

}  // namespace fp8dash
