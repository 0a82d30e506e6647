# Build options that instrument every target (core, CLI, tests) for hardening
# work. Both are off in a normal build.
#
#   LBSIM_SANITIZE=ON  AddressSanitizer + UndefinedBehaviorSanitizer, any
#                      error aborts the process (so a test that trips one
#                      fails). g++ or clang++.
#   LBSIM_FUZZ=ON      LBSIM_SANITIZE plus libFuzzer coverage instrumentation,
#                      and the libFuzzer targets in tests/fuzz/. clang++ only.

option(LBSIM_SANITIZE "Build everything with AddressSanitizer and UndefinedBehaviorSanitizer" OFF)
option(LBSIM_FUZZ "Build the libFuzzer targets (needs clang++; implies LBSIM_SANITIZE)" OFF)

if(LBSIM_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    message(FATAL_ERROR "LBSIM_FUZZ needs clang++ (libFuzzer): configure with "
                        "-DCMAKE_CXX_COMPILER=clang++ or use the 'fuzz' preset")
  endif()
  set(LBSIM_SANITIZE ON CACHE BOOL "" FORCE)
  # Coverage feedback for libFuzzer in every object; only the fuzz targets
  # link the libFuzzer driver (-fsanitize=fuzzer), see tests/fuzz/.
  add_compile_options(-fsanitize=fuzzer-no-link)
endif()

if(LBSIM_SANITIZE)
  set(lbsim_sanitizer_flags
    -fsanitize=address,undefined
    -fno-sanitize-recover=all
    -fno-omit-frame-pointer)
  add_compile_options(${lbsim_sanitizer_flags})
  add_link_options(${lbsim_sanitizer_flags})
  # Sanitized binaries run once per test, and their start-up is most of a
  # short test's time. Linked as position-dependent executables they skip
  # the loader's relocation of the instrumentation's data (about a million
  # entries in lbsim: 0.25 -> 0.15 s per run). Debug information is line
  # tables only: a report still names file and line, and compiling takes
  # about a third less time.
  add_link_options(-no-pie)
  if(CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    add_compile_options(-gline-tables-only)
  else()
    add_compile_options(-g1)
  endif()
endif()
