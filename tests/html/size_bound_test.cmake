# An HTML report's size does not grow with the trace: two traces of the
# same shape, one twenty times as long, give reports of about the same
# size and number of marks (chart windows and latency quantiles are
# bounded; only the numbers' digits grow), both under a megabyte. Invoked by ctest as
#   cmake -DLBSIM=... -DWORKDIR=... -P size_bound_test.cmake
cmake_minimum_required(VERSION 3.25)
file(REMOVE_RECURSE "${WORKDIR}")
file(MAKE_DIRECTORY "${WORKDIR}")

set(sizes)
foreach(arrivals 10000 200000)
  set(trace "${WORKDIR}/t${arrivals}.ndjson")
  set(report "${WORKDIR}/t${arrivals}.html")
  execute_process(
    COMMAND "${LBSIM}" gen --instances 8 --rate 200 --arrivals ${arrivals}
            --durations exponential:0.03 --seed 3 -o "${trace}"
    RESULT_VARIABLE status ERROR_VARIABLE err)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "lbsim gen failed: ${err}")
  endif()
  execute_process(
    COMMAND "${LBSIM}" -s rr,ll,p2c --slots 4 --stale-interval 0.5 -o "${report}" "${trace}"
    RESULT_VARIABLE status ERROR_VARIABLE err)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "lbsim replay failed: ${err}")
  endif()
  file(SIZE "${report}" size)
  file(READ "${report}" text)
  string(REGEX MATCHALL "<path|<rect|<circle|<line" marks "${text}")
  list(LENGTH marks count)
  message(STATUS "${arrivals} arrivals: ${size} bytes, ${count} marks")
  list(APPEND sizes ${size})
  list(APPEND counts ${count})
endforeach()

list(GET sizes 0 small)
list(GET sizes 1 big)
list(GET counts 0 small_marks)
list(GET counts 1 big_marks)
math(EXPR limit "${small} * 115 / 100")
if(big GREATER limit)
  message(FATAL_ERROR "20x the arrivals made the report grow from ${small} to ${big} bytes")
endif()
# Marks vary a little (a window without decisions breaks a line in two).
math(EXPR mark_limit "${small_marks} * 110 / 100")
if(big_marks GREATER mark_limit)
  message(FATAL_ERROR "20x the arrivals drew ${big_marks} marks, not about ${small_marks}")
endif()
if(big GREATER 1000000)
  message(FATAL_ERROR "the report of 200000 arrivals takes ${big} bytes, more than 1 MB")
endif()
