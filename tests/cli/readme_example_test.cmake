# The output pasted in README.md after "$ build/lbsim -s rr,ll
# traces/examples/mixed_known_unknown.json" must be what lbsim prints today.
cmake_minimum_required(VERSION 3.25)
file(READ "${SOURCE_DIR}/README.md" readme)
set(marker "$ build/lbsim -s rr,ll traces/examples/mixed_known_unknown.json\n")
string(FIND "${readme}" "${marker}" start)
if(start LESS 0)
  message(FATAL_ERROR "README.md no longer shows the example command")
endif()
string(LENGTH "${marker}" marker_length)
math(EXPR start "${start} + ${marker_length}")
string(SUBSTRING "${readme}" ${start} -1 rest)
string(FIND "${rest}" "```" end)
string(SUBSTRING "${rest}" 0 ${end} pasted)
execute_process(COMMAND "${LBSIM}" -s rr,ll traces/examples/mixed_known_unknown.json
  WORKING_DIRECTORY "${SOURCE_DIR}" OUTPUT_VARIABLE actual RESULT_VARIABLE status)
if(NOT status EQUAL 0 OR NOT actual STREQUAL pasted)
  message(FATAL_ERROR "README.md example output differs from lbsim's:\n${actual}")
endif()
