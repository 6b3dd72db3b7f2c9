# One place for compiler warnings; every project target calls fp8dash_warnings(target).
function(fp8dash_warnings target)
  target_compile_options(${target} PRIVATE
    $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wpedantic -Wshadow=local -Wnon-virtual-dtor>)
endfunction()
