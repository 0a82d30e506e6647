# doctest_discover_tests turns each doctest case into a ctest test whose
# filter is the case's name. A name holding ';' is split by CMake into two
# tests whose filters match no case, so the case never runs and both
# "pass". This fails when a case name holds one.
#
# -DUNIT_TESTS=<lbsim_unit_tests binary>

execute_process(COMMAND ${UNIT_TESTS} --list-test-cases RESULT_VARIABLE status
                OUTPUT_VARIABLE listing ERROR_VARIABLE err)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "${UNIT_TESTS} --list-test-cases failed: ${err}")
endif()
string(REPLACE ";" "<SEMICOLON>" listing "${listing}")
string(REPLACE "\n" ";" lines "${listing}")
set(bad)
foreach(line IN LISTS lines)
  if(line MATCHES "<SEMICOLON>")
    string(REPLACE "<SEMICOLON>" ";" line "${line}")
    string(APPEND bad "\n  ${line}")
  endif()
endforeach()
if(bad)
  message(FATAL_ERROR "doctest case names with ';' never run under ctest; rename:${bad}")
endif()
