#pragma once
// YAML text read into the JSON tree the JSON readers use (GuideLLM writes its reports as JSON or YAML, the same
// model), so that both take one code path. Bounded: nesting deeper than 256 levels is refused by a scan of the text
// before yaml-cpp (which recurses) sees it, and aliases that would expand the tree past a node budget (an alias bomb)
// are refused while converting. Scalars are typed as PyYAML's safe_load types them (null, booleans, integers, floats;
// quoted scalars stay strings); .inf / .nan become the strings "Infinity" / "NaN", as parseJsonText turns Python's
// bare tokens into strings.

#include <string>
#include <string_view>

#include "fp8dash/core/json_text.h"
#include "fp8dash/core/result.h"

namespace fp8dash {

inline constexpr int kYamlMaxDepth = 256;

// Errors name sourceName and, for YAML syntax errors, the line and column.
Result<Json> parseYamlAsJson(std::string_view text, const std::string& sourceName);

// The deepest nesting the text could hold (block indentation + sequence indicators + flow brackets), an upper bound
// of yaml-cpp's recursion depth; exposed for the tests.
int yamlNestingBound(std::string_view text);

}  // namespace fp8dash
