# Generates a scenario's trace, replays it and checks relations between
# figures of the JSON report. Invoked by ctest as
#   cmake -DLBSIM=... -DWORKDIR=... -DSPEC=... -DTRACE=... -DARGS=a;b
#         -DCHECKS=c1;c2 -P run_scenario_check.cmake
# Each check is "LEFT OP RIGHT" with OP one of < > <= >= ==; a side is a
# number or a report path: the strategy's label, then keys or array
# indices below it, dot-separated, e.g. least_load.what_if.service.latency.p99
# or round_robin.herded_decisions.
cmake_minimum_required(VERSION 3.25)

execute_process(COMMAND "${LBSIM}" gen "${SPEC}" -o "${TRACE}"
  WORKING_DIRECTORY "${WORKDIR}" RESULT_VARIABLE status ERROR_VARIABLE err)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "lbsim gen ${SPEC} failed (${status}): ${err}")
endif()
execute_process(COMMAND "${LBSIM}" ${ARGS} --format json "${TRACE}"
  WORKING_DIRECTORY "${WORKDIR}" RESULT_VARIABLE status OUTPUT_VARIABLE report ERROR_VARIABLE err)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "lbsim ${ARGS} ${TRACE} failed (${status}): ${err}")
endif()

# Sets `out` to the number at `side` (a literal or a report path).
function(resolve side out)
  if(side MATCHES "^-?[0-9.]+$")
    set(${out} "${side}" PARENT_SCOPE)
    return()
  endif()
  string(REPLACE "." ";" keys "${side}")
  list(POP_FRONT keys label)
  string(JSON count LENGTH "${report}" strategies)
  math(EXPR last "${count} - 1")
  foreach(i RANGE ${last})
    string(JSON l GET "${report}" strategies ${i} label)
    if(l STREQUAL label)
      string(JSON value ERROR_VARIABLE e GET "${report}" strategies ${i} ${keys})
      if(e)
        message(FATAL_ERROR "${side}: ${e}")
      endif()
      set(${out} "${value}" PARENT_SCOPE)
      return()
    endif()
  endforeach()
  message(FATAL_ERROR "${side}: no strategy labelled ${label}")
endfunction()

# The if() keyword of each operator.
set("keyword_<" LESS)
set("keyword_>" GREATER)
set("keyword_<=" LESS_EQUAL)
set("keyword_>=" GREATER_EQUAL)
set("keyword_==" EQUAL)

set(failures "")
set(seen "")
foreach(check IN LISTS CHECKS)
  if(NOT check MATCHES "^([^ ]+) (<|>|<=|>=|==) ([^ ]+)$")
    message(FATAL_ERROR "malformed check: ${check}")
  endif()
  set(op "${CMAKE_MATCH_2}")
  set(right_side "${CMAKE_MATCH_3}")
  resolve("${CMAKE_MATCH_1}" a)
  resolve("${right_side}" b)
  set(ok FALSE)
  if(a ${keyword_${op}} b)
    set(ok TRUE)
  endif()
  string(APPEND seen "  ${check}: ${a} ${op} ${b}\n")
  if(NOT ok)
    string(APPEND failures "  FAILED ${check}: ${a} ${op} ${b}\n")
  endif()
endforeach()
if(failures)
  message(FATAL_ERROR "scenario ${SPEC} with ${ARGS}:\n${failures}all checks:\n${seen}")
endif()
message(STATUS "scenario ${SPEC}:\n${seen}")
