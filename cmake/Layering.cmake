# Dependencies point app -> ui -> core -> gpu (DESIGN.md). Linking alone cannot stop a wrong include (Qt's headers
# sit under a default include directory), so every build also scans the sources: a forbidden include fails it.
set(FP8DASH_LAYERING_SCRIPT "${CMAKE_CURRENT_LIST_DIR}/check_layering.cmake")

# fp8dash_enforce_layering(<target> <rule> <dir>): rule is "no-qt" (core, gpu) or "no-gpu" (ui).
function(fp8dash_enforce_layering target rule dir)
  set(stamp "${CMAKE_CURRENT_BINARY_DIR}/${target}_layering.stamp")
  file(GLOB_RECURSE sources CONFIGURE_DEPENDS "${dir}/*.h" "${dir}/*.cpp" "${dir}/*.cu" "${dir}/*.cuh")
  add_custom_command(OUTPUT "${stamp}"
    COMMAND ${CMAKE_COMMAND} -DRULE=${rule} -DDIR=${dir} -DLAYER=${target} -P "${FP8DASH_LAYERING_SCRIPT}"
    COMMAND ${CMAKE_COMMAND} -E touch "${stamp}"
    DEPENDS ${sources} "${FP8DASH_LAYERING_SCRIPT}"
    COMMENT "Checking the layering of ${target} (${rule})" VERBATIM)
  add_custom_target(${target}_layering DEPENDS "${stamp}")
  add_dependencies(${target} ${target}_layering)
endfunction()
