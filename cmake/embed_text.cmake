# cmake -DINPUT=<file> -DOUTPUT=<cpp> -P embed_text.cmake : a text file as `fp8dash::detail::kDemoComparisonText`.
file(READ "${INPUT}" content)
string(FIND "${content}" ")fp8embed\"" clash)
if(NOT clash EQUAL -1)
  message(FATAL_ERROR "${INPUT} contains the raw-string delimiter )fp8embed\"")
endif()
file(WRITE "${OUTPUT}.tmp" "// Generated from ${INPUT}; do not edit.\n#include <string_view>\nnamespace fp8dash::detail {\nextern const std::string_view kDemoComparisonText;\nconst std::string_view kDemoComparisonText = R\"fp8embed(${content})fp8embed\";\n}\n")
file(COPY_FILE "${OUTPUT}.tmp" "${OUTPUT}" ONLY_IF_DIFFERENT)
file(REMOVE "${OUTPUT}.tmp")
