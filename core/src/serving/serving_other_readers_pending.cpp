// TEMPORARY (issue 40, branch i40-vllm): stand-ins for the GuideLLM and AIPerf readers, which another helper writes in
// guidellm_reader.cpp / aiperf_reader.cpp, so that this branch links. The lead deletes this file at merge.
#include "fp8dash/core/serving_results.h"

namespace fp8dash {

Result<std::vector<ServingRun>> parseGuideLlmText(std::string_view, const std::string& sourceName) {
    return Error{sourceName + ": GuideLLM/AIPerf reading is not built yet"};
}

Result<ServingRun> parseAiPerfText(std::string_view, const std::string& sourceName, std::string_view) {
    return Error{sourceName + ": GuideLLM/AIPerf reading is not built yet"};
}

}  // namespace fp8dash
