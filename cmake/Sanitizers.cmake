# Sanitizers and libFuzzer (tests/fuzz/README.md). Both apply to every target of the build, so the
# libraries under test carry the same instrumentation as the tests and fuzzers that drive them.
#   FP8DASH_SANITIZERS  e.g. "address,undefined": -fsanitize=... on every compile and link (GCC or Clang)
#   FP8DASH_FUZZ        the libFuzzer targets of tests/fuzz (Clang only); the code is built with coverage
#                       instrumentation (-fsanitize=fuzzer-no-link), and with address,undefined when
#                       FP8DASH_SANITIZERS is empty
set(FP8DASH_SANITIZERS "" CACHE STRING "Sanitizers for every target, e.g. address,undefined (empty: none)")
option(FP8DASH_FUZZ "Build the libFuzzer targets of tests/fuzz (needs Clang)" OFF)

if(FP8DASH_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    message(FATAL_ERROR "FP8DASH_FUZZ needs Clang (libFuzzer), not ${CMAKE_CXX_COMPILER_ID}: configure with "
      "-DCMAKE_CXX_COMPILER=clang++ (Debian: clang and libclang-rt-14-dev), or use the preset sanitize")
  endif()
  if(FP8DASH_SANITIZERS STREQUAL "")
    set(FP8DASH_SANITIZERS "address,undefined" CACHE STRING "" FORCE)
  endif()
  # Coverage instrumentation only where the fuzzers look: the targets with the property FP8DASH_FUZZ_COVERAGE, set
  # by tests/fuzz on the libraries they drive (fp8dash_core, fp8dash_gpu). The GUI, the app and the test executables
  # of the same build compile and run without it (it costs compile time and test time and guides no fuzzer there).
  set(fp8dash_fuzz_cov "$<BOOL:$<TARGET_PROPERTY:FP8DASH_FUZZ_COVERAGE>>")
  add_compile_options("$<${fp8dash_fuzz_cov}:-fsanitize=fuzzer-no-link>"
    "$<${fp8dash_fuzz_cov}:-fsanitize-coverage-ignorelist=${CMAKE_SOURCE_DIR}/tests/fuzz/coverage_ignorelist.txt>")
endif()

if(NOT FP8DASH_SANITIZERS STREQUAL "")
  # A report stops the test (no recovery), and frame pointers give whole stacks for LeakSanitizer's reports.
  add_compile_options(-fsanitize=${FP8DASH_SANITIZERS} -fno-sanitize-recover=all -fno-omit-frame-pointer)
  add_link_options(-fsanitize=${FP8DASH_SANITIZERS})
  message(STATUS "fp8dash: sanitizers ${FP8DASH_SANITIZERS}")
endif()
