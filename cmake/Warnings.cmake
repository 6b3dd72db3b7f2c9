# One place for compiler warnings; every project target calls fp8dash_warnings(target).
function(fp8dash_warnings target)
  target_compile_options(${target} PRIVATE
    $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wpedantic>
    $<$<AND:$<COMPILE_LANGUAGE:CXX>,$<CXX_COMPILER_ID:GNU>>:-Wshadow=local>  # Clang has no -Wshadow=local
    $<$<COMPILE_LANGUAGE:CXX>:-Wnon-virtual-dtor>
    # GCC 12 reports -Wrestrict falsely on `"literal" + std::string` at -O2/-O3 (GCC bug 105329).
    $<$<AND:$<COMPILE_LANGUAGE:CXX>,$<CXX_COMPILER_ID:GNU>,$<VERSION_LESS:$<CXX_COMPILER_VERSION>,13>>:-Wno-restrict>)
endfunction()
